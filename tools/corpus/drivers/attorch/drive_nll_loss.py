# attorch's NLLLoss (attorch/nll_loss_layer.py) against torch.nn.NLLLoss
# on (N, C) and (N, C, d) inputs, the three reductions, with and without
# class weights, forward and backward, fp32 at torch.testing's default
# tolerances (as the project's test).
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import corpus_check as cc

cc.use_project("attorch")
import torch
from torch import nn
import attorch

for shape in ((4, 20), (8, 10, 7), (2, 5, 3, 4)):
    for reduction in ("none", "mean", "sum"):
        for weighted in (False, True):
            cc.seed(0)
            x = torch.randn(shape, device="cuda")
            target = torch.randint(0, shape[1], (shape[0],) + shape[2:], device="cuda")
            weight = torch.randn(shape[1], device="cuda") if weighted else None
            x1 = x.clone().requires_grad_(True)
            x2 = x.clone().requires_grad_(True)
            got = attorch.NLLLoss(reduction=reduction, weight=weight)(x2, target)
            want = nn.NLLLoss(reduction=reduction, weight=weight)(x1, target)
            tag = "%s %s weighted=%s" % (shape, reduction, weighted)
            cc.close("loss " + tag, got, want, 1e-5, 1.3e-6)
            dy = torch.randn_like(want)
            got.backward(dy)
            want.backward(dy)
            cc.close("dx " + tag, x2.grad, x1.grad, 1e-5, 1.3e-6)
cc.finish()
