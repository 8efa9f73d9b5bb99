# attorch's CrossEntropyLoss (attorch/cross_entropy_loss_layer.py) against
# torch.nn.CrossEntropyLoss (mean reduction), with and without class
# weights, forward and backward, fp32, tolerance 1e-3 as the project's test.
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import corpus_check as cc

cc.use_project("attorch")
import torch
from torch import nn
import attorch

for shape in ((4, 20), (8, 1024), (1, 3000)):
    for weighted in (False, True):
        cc.seed(0)
        x = torch.randn(shape, device="cuda")
        target = torch.randint(0, shape[1], (shape[0],), device="cuda")
        weight = torch.randn(shape[1], device="cuda") if weighted else None
        x1 = x.clone().requires_grad_(True)
        x2 = x.clone().requires_grad_(True)
        got = attorch.CrossEntropyLoss(weight=weight)(x2, target)
        want = nn.CrossEntropyLoss(weight=weight)(x1, target)
        tag = "%s weighted=%s" % (shape, weighted)
        cc.close("loss " + tag, got, want, 1e-3, 1e-3)
        got.backward()
        want.backward()
        cc.close("dx " + tag, x2.grad, x1.grad, 1e-3, 1e-3)
cc.finish()
