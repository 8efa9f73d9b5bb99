# attorch's RMSNorm (attorch/rms_norm_layer.py) against torch.nn.RMSNorm,
# with and without a weight, forward and backward, fp32, tolerance 1e-3 as
# the project's test; the narrow rows make its kernel take several rows a
# program.
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import corpus_check as cc

cc.use_project("attorch")
import torch
from torch import nn
import attorch

for shape in ((96,), (4, 200), (2, 5, 64), (2049, 2)):
    for affine in (True, False):
        for eps in (1e-5, 1e-6):
            cc.seed(0)
            x = torch.randn(shape, device="cuda")
            mine = attorch.RMSNorm(shape[-1], eps, affine)
            ref = nn.RMSNorm(shape[-1], eps, affine, device="cuda")
            if affine:
                with torch.no_grad():
                    ref.weight.copy_(torch.randn(shape[-1], device="cuda"))
                    mine.weight.copy_(ref.weight)
            x1 = x.clone().requires_grad_(True)
            x2 = x.clone().requires_grad_(True)
            got = mine(x2)
            want = ref(x1)
            tag = "%s affine=%s eps=%g" % (shape, affine, eps)
            cc.close("y " + tag, got, want, 1e-3, 1e-3)
            dy = torch.randn_like(want)
            got.backward(dy)
            want.backward(dy)
            cc.close("dx " + tag, x2.grad, x1.grad, 1e-3, 1e-3)
            if affine:
                cc.close("dw " + tag, mine.weight.grad, ref.weight.grad, 1e-3, 1e-3)
cc.finish()
