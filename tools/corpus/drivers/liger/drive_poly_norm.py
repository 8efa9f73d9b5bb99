# Liger-Kernel's PolyNorm (liger_kernel/ops/poly_norm.py,
# LigerPolyNormFunction): w0*norm(x^3) + w1*norm(x^2) + w2*norm(x) + b with
# norm an RMS norm, against the formula in plain PyTorch, forward and
# backward (x, the three weights, the bias).
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import corpus_check as cc

cc.use_project("liger", "src")
import torch
from liger_kernel.ops.poly_norm import LigerPolyNormFunction


def rms(u, eps):
    return u * torch.rsqrt(u.pow(2).mean(-1, keepdim=True) + eps)


def reference(x, w, b, eps):
    return w[0] * rms(x ** 3, eps) + w[1] * rms(x ** 2, eps) + w[2] * rms(x, eps) + b


cc.seed(3)
for shape in ((2, 8, 64), (3, 5, 123)):
    for in_place in (True, False):
        x = torch.randn(*shape, device="cuda")
        w = torch.tensor([0.3, 0.5, 0.2], device="cuda")
        b = torch.tensor(0.7, device="cuda")
        dy = torch.randn(*shape, device="cuda")
        l1 = [t.clone().requires_grad_(True) for t in (x, w, b)]
        l2 = [t.clone().requires_grad_(True) for t in (x, w, b)]
        want = reference(l1[0], l1[1], l1[2], 1e-6)
        want.backward(dy)
        got = LigerPolyNormFunction.apply(l2[0], l2[1], l2[2], 1e-6, in_place)
        got.backward(dy.clone())
        tag = "%s in_place=%s" % (shape, in_place)
        cc.close("y " + tag, got, want, 3e-4, 1e-6)
        cc.close("dx " + tag, l2[0].grad, l1[0].grad, 3e-4, 1e-6)
        # dw and db sum over every row: a tolerance scaled to their size
        cc.close("dw " + tag, l2[1].grad, l1[1].grad, 1e-3, 1e-4)
        cc.close("db " + tag, l2[2].grad, l1[2].grad, 1e-3, 1e-4)
cc.finish()
