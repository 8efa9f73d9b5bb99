# Liger-Kernel's softmax (liger_kernel/ops/softmax.py, LigerSoftmaxFunction)
# over the last dimension, against torch.softmax, forward and backward.
# (Its multi-block kernel is not reached: calculate_settings refuses rows
# wider than 65536, the one-block kernel's limit.)
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import corpus_check as cc

cc.use_project("liger", "src")
import torch
from liger_kernel.ops.softmax import LigerSoftmaxFunction

cc.seed(9)
for shape, dtype, atol, rtol in (((2, 8, 64), torch.float32, 1e-5, 1e-5),
                                 ((3, 37), torch.float32, 1e-5, 1e-5),
                                 ((2, 5000), torch.float32, 1e-5, 1e-5),
                                 ((4, 100), torch.bfloat16, 1e-2, 1e-2)):
    x = torch.randn(*shape, device="cuda", dtype=dtype)
    dy = torch.randn(*shape, device="cuda", dtype=dtype)
    x1 = x.clone().requires_grad_(True)
    x2 = x.clone().requires_grad_(True)
    want = torch.softmax(x1, dim=-1)
    want.backward(dy)
    got = LigerSoftmaxFunction.apply(x2)
    got.backward(dy)
    cc.close("y %s %s" % (shape, dtype), got, want, atol, rtol)
    cc.close("dx %s %s" % (shape, dtype), x2.grad, x1.grad, atol, rtol)
cc.finish()
