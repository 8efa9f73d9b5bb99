# Liger-Kernel's Llama 4 rotary embedding (liger_kernel/ops/llama4_rope.py,
# LigerLlama4RopeFunction): q and k (bsz, seq, heads, head_dim) read as
# complex pairs (even, odd) and multiplied by freqs_cis, given here in its
# real form (seq, head_dim/2, 2) = view_as_real of the complex one; the
# backward multiplies by the conjugate.  Compared with the complex product
# written in real arithmetic, forward and backward.
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import corpus_check as cc

cc.use_project("liger", "src")
import torch
from liger_kernel.ops.llama4_rope import LigerLlama4RopeFunction


def freqs(seq, head_dim, base=10000.0):
    inv = 1.0 / (base ** (torch.arange(0, head_dim, 2, device="cuda").float() / head_dim))
    ang = torch.arange(seq, device="cuda").float()[:, None] * inv
    return torch.stack((ang.cos(), ang.sin()), dim=-1)


def rotate(x, f):
    xr = x[..., 0::2].float()
    xi = x[..., 1::2].float()
    c = f[..., 0][None, :, None, :]
    s = f[..., 1][None, :, None, :]
    out = torch.stack((xr * c - xi * s, xr * s + xi * c), dim=-1)
    return out.flatten(-2).to(x.dtype)


cc.seed(14)
for bsz, seq, nq, nk, hd in ((1, 2, 2, 2, 8), (2, 5, 4, 2, 64), (1, 6, 3, 3, 256)):
    for dtype, atol, rtol in ((torch.float32, 1e-5, 1e-5), (torch.bfloat16, 1e-1, 1e-5)):
        q = torch.randn(bsz, seq, nq, hd, device="cuda").to(dtype)
        k = torch.randn(bsz, seq, nk, hd, device="cuda").to(dtype)
        f = freqs(seq, hd)
        tag = "(%d, %d, %d, %d, %d) %s" % (bsz, seq, nq, nk, hd, dtype)
        cc.forward_backward(tag, ("q", "k"), (q, k), lambda q, k: (rotate(q, f), rotate(k, f)),
                            lambda q, k: LigerLlama4RopeFunction.apply(q, k, f), atol, rtol)
cc.finish()
