# Liger-Kernel's SwiGLU (liger_kernel/ops/swiglu.py, LigerSiLUMulFunction):
# silu(a * gate_multiplier) * b * down_multiplier against plain PyTorch,
# forward and backward, fp32 and bf16, plain and scaled.
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import corpus_check as cc

cc.use_project("liger", "src")
import torch
import torch.nn.functional as F
from liger_kernel.ops.swiglu import LigerSiLUMulFunction

cc.seed(6)
for shape in ((2, 8, 64), (3, 5, 111)):
    for dtype, atol, rtol in ((torch.float32, 1e-5, 1e-5), (torch.bfloat16, 1e-1, 1e-2)):
        for gm, dm in ((1.0, 1.0), (0.5, 2.0)):
            a = torch.randn(*shape, device="cuda", dtype=dtype)
            b = torch.randn(*shape, device="cuda", dtype=dtype)
            dc = torch.randn(*shape, device="cuda", dtype=dtype)
            l1 = [t.clone().requires_grad_(True) for t in (a, b)]
            l2 = [t.clone().requires_grad_(True) for t in (a, b)]
            # the kernel computes silu in fp32 and rounds once before the product
            want = F.silu(l1[0].float() * gm).to(dtype) * l1[1] * dm
            want.backward(dc)
            got = LigerSiLUMulFunction.apply(l2[0], l2[1], gm, dm)
            got.backward(dc)
            tag = "%s %s gate=%g down=%g" % (shape, dtype, gm, dm)
            cc.close("c " + tag, got, want, atol, rtol)
            cc.close("da " + tag, l2[0].grad, l1[0].grad, atol, rtol)
            cc.close("db " + tag, l2[1].grad, l1[1].grad, atol, rtol)
cc.finish()
