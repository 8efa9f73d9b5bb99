# Liger-Kernel's rotary embedding, Hugging Face Llama's form
# (liger_kernel/ops/rope.py, LigerRopeFunction), against q*cos +
# rotate_half(q)*sin in plain PyTorch, forward and backward, on q and k
# laid out (bsz, heads, seq, head_dim) as transposed views, with cos/sin
# shared by the batch or given per batch row.
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import corpus_check as cc

cc.use_project("liger", "src")
import torch
from liger_kernel.ops.rope import LigerRopeFunction


def cos_sin(pos, head_dim, base=10000.0):
    inv = 1.0 / (base ** (torch.arange(0, head_dim, 2, device="cuda").float() / head_dim))
    ang = pos.float()[..., None] * inv
    ang = torch.cat((ang, ang), dim=-1)
    return ang.cos(), ang.sin()


def rotate_half(x):
    h = x.shape[-1] // 2
    return torch.cat((-x[..., h:], x[..., :h]), dim=-1)


def reference(q, k, cos, sin):
    cos = cos.unsqueeze(1)
    sin = sin.unsqueeze(1)
    return q * cos + rotate_half(q) * sin, k * cos + rotate_half(k) * sin


cc.seed(12)
for bsz, seq, nq, nk, hd in ((1, 2, 2, 2, 8), (2, 7, 4, 2, 64), (3, 5, 6, 3, 32)):
    for dtype, atol, rtol in ((torch.float32, 1e-5, 1e-5), (torch.bfloat16, 1e-1, 1e-5)):
        for per_batch in (False, True):
            q = torch.randn(bsz, seq, nq, hd, device="cuda").transpose(1, 2).to(dtype)
            k = torch.randn(bsz, seq, nk, hd, device="cuda").transpose(1, 2).to(dtype)
            pos = torch.arange(seq, device="cuda").unsqueeze(0)
            if per_batch:
                pos = pos.expand(bsz, -1)
            cos, sin = cos_sin(pos, hd)
            cos = cos.to(dtype)
            sin = sin.to(dtype)
            q1 = q.clone().requires_grad_(True)
            k1 = k.clone().requires_grad_(True)
            q2 = q.clone().requires_grad_(True)
            k2 = k.clone().requires_grad_(True)
            wq, wk = reference(q1, k1, cos, sin)
            gq, gk = LigerRopeFunction.apply(q2, k2, cos, sin)
            tag = "(%d, %d, %d, %d, %d) %s per_batch=%s" % (bsz, seq, nq, nk, hd, dtype, per_batch)
            cc.close("q " + tag, gq, wq, atol, rtol)
            cc.close("k " + tag, gk, wk, atol, rtol)
            dq = torch.randn_like(wq)
            dk = torch.randn_like(wk)
            r1 = torch.autograd.grad((wq, wk), (q1, k1), (dq, dk))
            r2 = torch.autograd.grad((gq, gk), (q2, k2), (dq.clone(), dk.clone()))
            cc.close("dq " + tag, r2[0], r1[0], atol, rtol)
            cc.close("dk " + tag, r2[1], r1[1], atol, rtol)
cc.finish()
