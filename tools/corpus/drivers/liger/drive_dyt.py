# Liger-Kernel's Dynamic Tanh (liger_kernel/ops/dyt.py, LigerDyTFunction):
# gamma * tanh(alpha * x) + beta, with and without beta, against plain
# PyTorch, forward and backward (x, alpha, gamma, beta).
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import corpus_check as cc

cc.use_project("liger", "src")
import torch
from liger_kernel.ops.dyt import LigerDyTFunction

cc.seed(4)
for shape in ((2, 8, 64), (3, 5, 100)):
    for with_beta in (True, False):
        hd = shape[-1]
        x = torch.randn(*shape, device="cuda")
        alpha = torch.tensor([0.5], device="cuda")
        gamma = 1.0 + 0.1 * torch.randn(hd, device="cuda")
        beta = 0.1 * torch.randn(hd, device="cuda")
        dy = torch.randn(*shape, device="cuda")
        ts = [x, alpha, gamma] + ([beta] if with_beta else [])
        l1 = [t.clone().requires_grad_(True) for t in ts]
        l2 = [t.clone().requires_grad_(True) for t in ts]
        want = l1[2] * torch.tanh(l1[1] * l1[0])
        if with_beta:
            want = want + l1[3]
        want.backward(dy)
        got = LigerDyTFunction.apply(l2[0], l2[1], l2[2], l2[3] if with_beta else None)
        got.backward(dy)
        tag = "%s beta=%s" % (shape, with_beta)
        cc.close("y " + tag, got, want, 1e-5, 1e-5)
        cc.close("dx " + tag, l2[0].grad, l1[0].grad, 1e-5, 1e-5)
        # alpha's gradient sums over every element: the test's looser rtol
        cc.close("dalpha " + tag, l2[1].grad, l1[1].grad, 1e-5, 1e-3)
        cc.close("dgamma " + tag, l2[2].grad, l1[2].grad, 1e-5, 1e-5)
        if with_beta:
            cc.close("dbeta " + tag, l2[3].grad, l1[3].grad, 1e-5, 1e-5)
cc.finish()
