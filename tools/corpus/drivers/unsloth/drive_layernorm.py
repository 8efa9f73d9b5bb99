# drive_layernorm.py - Unsloth's LayerNorm (unsloth/kernels/layernorm.py):
# fast_layernorm(torch.nn.LayerNorm, X), forward and the gradient for X
# (Unsloth's backward gives none for the weight and bias), against
# torch.nn.functional.layer_norm and autograd in float32, as Unsloth's
# test_layernorm compares them; float32 and float16.  Last line: RESULT.
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import corpus_check as cc

cc.use_project("unsloth_zoo")
cc.use_project("unsloth")

import torch
import torch.nn.functional as F

from unsloth.kernels.layernorm import fast_layernorm

DEVICE = "cuda"
TOL = {torch.float32: (1e-4, 1e-4), torch.float16: (2e-2, 2e-2)}


torch.manual_seed(3407)
for dtype in (torch.float32, torch.float16):
    for dim in (64, 100):                # a power of two, and a masked block
        ln = torch.nn.LayerNorm((dim,), eps=1e-5, device=DEVICE, dtype=dtype)
        torch.nn.init.uniform_(ln.weight)
        torch.nn.init.uniform_(ln.bias)
        X = torch.randn(3, 5, dim, device=DEVICE, dtype=dtype)
        dY = torch.randn(3, 5, dim, device=DEVICE, dtype=dtype)

        x32 = X.detach().float().clone().requires_grad_(True)
        ref = F.layer_norm(x32, (dim,), ln.weight.float(), ln.bias.float(), 1e-5)
        ref.backward(dY.float())

        x = X.detach().clone().requires_grad_(True)
        y = fast_layernorm(ln, x)
        y.backward(dY)
        cc.close_dtype("forward dim %d" % dim, y, ref.detach(), dtype, TOL)
        cc.close_dtype("dX dim %d" % dim, x.grad, x32.grad, dtype, TOL)

cc.finish()
