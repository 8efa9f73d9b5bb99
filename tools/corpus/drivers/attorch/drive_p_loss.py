# attorch's L1Loss, MSELoss, HuberLoss and SmoothL1Loss
# (attorch/p_loss_layers.py) against the torch.nn losses, the three
# reductions, forward and backward (input and target), fp32, tolerance
# 1e-3 as the project's test.
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import corpus_check as cc

cc.use_project("attorch")
import torch
from torch import nn
import attorch

for name in ("SmoothL1Loss", "L1Loss", "MSELoss", "HuberLoss"):
    for shape in ((96,), (4, 200), (2, 5, 64)):
        for reduction in ("none", "mean", "sum"):
            cc.seed(0)
            x = torch.randn(shape, device="cuda")
            t = torch.randn(shape, device="cuda")
            l1 = [v.clone().requires_grad_(True) for v in (x, t)]
            l2 = [v.clone().requires_grad_(True) for v in (x, t)]
            got = getattr(attorch, name)(reduction=reduction)(l2[0], l2[1])
            want = getattr(nn, name)(reduction=reduction)(l1[0], l1[1])
            tag = "%s %s %s" % (name, shape, reduction)
            cc.close("loss " + tag, got, want, 1e-3, 1e-3)
            dy = torch.randn_like(want)
            got.backward(dy)
            want.backward(dy)
            cc.close("dinput " + tag, l2[0].grad, l1[0].grad, 1e-3, 1e-3)
            cc.close("dtarget " + tag, l2[1].grad, l1[1].grad, 1e-3, 1e-3)
cc.finish()
