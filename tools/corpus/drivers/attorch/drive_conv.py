# attorch's Conv1d and Conv2d (attorch/conv_layer.py, one Triton kernel for
# both) against torch.nn.Conv1d/Conv2d with the same weights: kernel sizes,
# strides, padding, groups (depthwise included), bias; forward and backward
# (input, weight, bias), fp32 at the project's tolerances (rtol 1e-3,
# atol 1e-2).
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import corpus_check as cc

cc.use_project("attorch")
import torch
from torch import nn
import attorch

cases = [
    # input shape, out channels, kernel, stride, padding, groups, bias
    ((2, 4, 9, 9), 8, 3, 1, 1, 1, True),
    ((1, 4, 8, 10), 6, (3, 2), (2, 1), 0, 2, False),
    ((2, 6, 7, 7), 6, 3, 2, 1, 6, True),
    ((1, 3, 6, 6), 4, 1, 1, 0, 1, False),
    ((2, 4, 20), 8, 3, 1, 1, 1, True),
    ((1, 4, 17), 4, 5, 2, 2, 4, False),
]
for shape, out_ch, k, stride, pad, groups, bias in cases:
    name = "Conv2d" if len(shape) == 4 else "Conv1d"
    cc.seed(0)
    x = torch.randn(shape, device="cuda")
    mine = getattr(attorch, name)(shape[1], out_ch, k, stride=stride, padding=pad,
                                  groups=groups, bias=bias)
    ref = getattr(nn, name)(shape[1], out_ch, k, stride=stride, padding=pad,
                            groups=groups, bias=bias, device="cuda")
    with torch.no_grad():
        mine.weight.copy_(ref.weight)
        if bias:
            mine.bias.copy_(ref.bias)
    x1 = x.clone().requires_grad_(True)
    x2 = x.clone().requires_grad_(True)
    got = mine(x2)
    want = ref(x1)
    tag = "%s %s out=%d k=%s stride=%s pad=%s groups=%d bias=%s" % (
        name, shape, out_ch, k, stride, pad, groups, bias)
    cc.close("y " + tag, got, want, 1e-2, 1e-3)
    dy = torch.randn_like(want)
    got.backward(dy)
    want.backward(dy)
    cc.close("dx " + tag, x2.grad, x1.grad, 1e-2, 1e-3)
    cc.close("dw " + tag, mine.weight.grad, ref.weight.grad, 1e-2, 1e-3)
    if bias:
        cc.close("db " + tag, mine.bias.grad, ref.bias.grad, 1e-2, 1e-3)
cc.finish()
