# drive_rms_layernorm.py - Unsloth's RMS norm (unsloth/kernels/rms_layernorm.py):
# fast_rms_layernorm(norm, X) in Llama's form (x / rms * w) and Gemma's
# (x / rms * (1 + w)), forward and the gradient for X, against plain
# PyTorch in float32 and autograd; float32, float16 and bfloat16.  The
# norm module is a torch.nn.Module with weight and variance_epsilon, as
# Llama's RMSNorm.  Last line: RESULT ok | RESULT fail: <what differed>.
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import corpus_check as cc

cc.use_project("unsloth_zoo")
cc.use_project("unsloth")

import torch

from unsloth.kernels.rms_layernorm import fast_rms_layernorm

DEVICE = "cuda"
TOL = {torch.float32: (1e-4, 1e-4), torch.float16: (2e-2, 2e-2),
       torch.bfloat16: (6e-2, 6e-2)}


class Norm(torch.nn.Module):
    def __init__(self, dim, eps, dtype):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.rand(dim, device=DEVICE, dtype=dtype))
        self.variance_epsilon = eps


def reference(x, w, eps, gemma):
    r = torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps)
    return x * r * ((1.0 + w) if gemma else w)


torch.manual_seed(3407)
for dtype in (torch.float32, torch.float16, torch.bfloat16):
    for dim, gemma in ((64, False), (96, False), (64, True)):
        norm = Norm(dim, 1e-6, dtype)
        X = torch.randn(2, 6, dim, device=DEVICE, dtype=dtype)
        dY = torch.randn(2, 6, dim, device=DEVICE, dtype=dtype)

        x32 = X.detach().float().clone().requires_grad_(True)
        ref = reference(x32, norm.weight.detach().float(), 1e-6, gemma)
        ref.backward(dY.float())

        x = X.detach().clone().requires_grad_(True)
        y = fast_rms_layernorm(norm, x, gemma=gemma)
        y.backward(dY)
        tag = "%s dim %d" % ("gemma" if gemma else "llama", dim)
        cc.close_dtype(tag + " forward", y, ref.detach(), dtype, TOL)
        cc.close_dtype(tag + " dX", x.grad, x32.grad, dtype, TOL)

cc.finish()
