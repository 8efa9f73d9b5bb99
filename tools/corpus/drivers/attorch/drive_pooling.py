# attorch's AvgPool1d and AvgPool2d (attorch/pooling_layer.py: a depthwise
# convolution with a constant kernel) against torch.nn.AvgPool1d/2d,
# kernel sizes 2-4, default and explicit strides, padding; forward and
# backward, fp32 at the project's tolerances (rtol 1e-3, atol 1e-2).
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import corpus_check as cc

cc.use_project("attorch")
import torch
from torch import nn
import attorch

# few cases: each new shape makes Triton tune the convolution again (16
# configurations to compile on a GPU)
cases = [((2, 3, 8, 8), 2, None, 0), ((1, 4, 9, 7), 3, 1, 1),
         ((1, 4, 15), 3, 2, 1), ((2, 2, 12), 4, None, 2)]
for shape, k, stride, pad in cases:
    name = "AvgPool2d" if len(shape) == 4 else "AvgPool1d"
    cc.seed(0)
    x = torch.randn(shape, device="cuda")
    x1 = x.clone().requires_grad_(True)
    x2 = x.clone().requires_grad_(True)
    got = getattr(attorch, name)(k, stride, pad)(x2)
    want = getattr(nn, name)(k, stride, pad)(x1)
    tag = "%s %s k=%d stride=%s pad=%d" % (name, shape, k, stride, pad)
    cc.close("y " + tag, got, want, 1e-2, 1e-3)
    dy = torch.randn_like(want)
    got.backward(dy)
    want.backward(dy)
    cc.close("dx " + tag, x2.grad, x1.grad, 1e-2, 1e-3)
cc.finish()
