# attorch's LayerNorm (attorch/layer_norm_layer.py) against
# torch.nn.LayerNorm, with and without affine parameters and bias, forward
# and backward (input, weight, bias), fp32, tolerance 1e-3 as the project's
# test; the narrow rows make its kernel take several rows a program.
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import corpus_check as cc

cc.use_project("attorch")
import torch
from torch import nn
import attorch

for shape in ((96,), (4, 200), (2, 5, 64), (2049, 2)):
    for affine, bias in ((True, True), (True, False), (False, False)):
        for eps in (1e-5, 1e-6):
            if shape[0] > 1000 and eps != 1e-5:
                continue
            cc.seed(0)
            x = torch.randn(shape, device="cuda")
            mine = attorch.LayerNorm(shape[-1], eps, affine, bias)
            ref = nn.LayerNorm(shape[-1], eps, affine, bias, device="cuda")
            if affine:
                with torch.no_grad():
                    ref.weight.copy_(torch.randn(shape[-1], device="cuda"))
                    mine.weight.copy_(ref.weight)
                    if bias:
                        ref.bias.copy_(torch.randn(shape[-1], device="cuda"))
                        mine.bias.copy_(ref.bias)
            x1 = x.clone().requires_grad_(True)
            x2 = x.clone().requires_grad_(True)
            got = mine(x2)
            want = ref(x1)
            tag = "%s affine=%s bias=%s eps=%g" % (shape, affine, bias, eps)
            cc.close("y " + tag, got, want, 1e-3, 1e-3)
            dy = torch.randn_like(want)
            got.backward(dy)
            want.backward(dy)
            cc.close("dx " + tag, x2.grad, x1.grad, 1e-3, 1e-3)
            if affine:
                cc.close("dw " + tag, mine.weight.grad, ref.weight.grad, 1e-3, 1e-3)
                if bias:
                    cc.close("db " + tag, mine.bias.grad, ref.bias.grad, 1e-3, 1e-3)
cc.finish()
