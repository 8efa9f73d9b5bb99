# Liger-Kernel's GEGLU (liger_kernel/ops/geglu.py, LigerGELUMulFunction):
# gelu(a, approximate="tanh") * b against plain PyTorch, forward and
# backward, fp32 and bf16.
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import corpus_check as cc

cc.use_project("liger", "src")
import torch
import torch.nn.functional as F
from liger_kernel.ops.geglu import LigerGELUMulFunction

cc.seed(7)
for shape in ((2, 8, 64), (3, 5, 111)):
    for dtype, atol, rtol in ((torch.float32, 1e-5, 1e-5), (torch.bfloat16, 1e-1, 1e-2)):
        a = torch.randn(*shape, device="cuda", dtype=dtype)
        b = torch.randn(*shape, device="cuda", dtype=dtype)
        dc = torch.randn(*shape, device="cuda", dtype=dtype)
        l1 = [t.clone().requires_grad_(True) for t in (a, b)]
        l2 = [t.clone().requires_grad_(True) for t in (a, b)]
        want = F.gelu(l1[0].float(), approximate="tanh").to(dtype) * l1[1]
        want.backward(dc)
        got = LigerGELUMulFunction.apply(l2[0], l2[1])
        got.backward(dc)
        tag = "%s %s" % (shape, dtype)
        cc.close("c " + tag, got, want, atol, rtol)
        cc.close("da " + tag, l2[0].grad, l1[0].grad, atol, rtol)
        cc.close("db " + tag, l2[1].grad, l1[1].grad, atol, rtol)
cc.finish()
