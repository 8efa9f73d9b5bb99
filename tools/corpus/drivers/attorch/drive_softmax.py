# attorch's Softmax, LogSoftmax and Softmin (attorch/softmax_layers.py)
# over the last dim against the torch.nn modules, forward and backward,
# fp32 at torch.testing's default tolerances (as the project's test).
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import corpus_check as cc

cc.use_project("attorch")
import torch
from torch import nn
import attorch

for name in ("Softmax", "LogSoftmax", "Softmin"):
    for shape in ((96,), (4, 200), (2, 5, 64), (3, 2, 4, 9)):
        cc.seed(0)
        x = torch.randn(shape, device="cuda")
        x1 = x.clone().requires_grad_(True)
        x2 = x.clone().requires_grad_(True)
        got = getattr(attorch, name)(dim=-1)(x2)
        want = getattr(nn, name)(dim=-1)(x1)
        tag = "%s %s" % (name, shape)
        cc.close("y " + tag, got, want, 1e-5, 1.3e-6)
        dy = torch.randn_like(want)
        got.backward(dy)
        want.backward(dy)
        cc.close("dx " + tag, x2.grad, x1.grad, 1e-5, 1.3e-6)
cc.finish()
