# Liger-Kernel's multimodal rotary embedding of Qwen2-VL
# (liger_kernel/ops/qwen2vl_mrope.py, LigerQwen2VLMRopeFunction): cos/sin
# come for three position streams (temporal, height, width) and each
# section of the head dimension takes its stream's; compared with that
# rule in plain PyTorch, forward and backward.
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import corpus_check as cc

cc.use_project("liger", "src")
import torch
from liger_kernel.ops.qwen2vl_mrope import LigerQwen2VLMRopeFunction


def cos_sin(pos, head_dim, base=10000.0):
    inv = 1.0 / (base ** (torch.arange(0, head_dim, 2, device="cuda").float() / head_dim))
    ang = pos.float()[..., None] * inv
    ang = torch.cat((ang, ang), dim=-1)
    return ang.cos(), ang.sin()


def rotate_half(x):
    h = x.shape[-1] // 2
    return torch.cat((-x[..., h:], x[..., :h]), dim=-1)


def pick_sections(t, sections):
    # t: (3, bsz, seq, hd); the sections repeat for the second half
    parts = t.split(list(sections) * 2, dim=-1)
    return torch.cat([p[i % 3] for i, p in enumerate(parts)], dim=-1).unsqueeze(1)


def reference(q, k, cos, sin, sections):
    c = pick_sections(cos, sections)
    s = pick_sections(sin, sections)
    return q * c + rotate_half(q) * s, k * c + rotate_half(k) * s


cc.seed(13)
for bsz, seq, nq, nk, hd, sections in ((1, 2, 2, 2, 8, (2, 1, 1)), (2, 5, 4, 2, 64, (8, 12, 12)),
                                       (1, 7, 3, 1, 32, (4, 6, 6))):
    for dtype, atol, rtol in ((torch.float32, 1e-5, 1e-5), (torch.bfloat16, 1e-1, 1e-5)):
        q = torch.randn(bsz, seq, nq, hd, device="cuda").transpose(1, 2).to(dtype)
        k = torch.randn(bsz, seq, nk, hd, device="cuda").transpose(1, 2).to(dtype)
        pos = torch.arange(seq * 3 * bsz, device="cuda").view(3, bsz, seq)
        cos, sin = cos_sin(pos, hd)
        cos = cos.to(dtype)
        sin = sin.to(dtype)
        q1 = q.clone().requires_grad_(True)
        k1 = k.clone().requires_grad_(True)
        q2 = q.clone().requires_grad_(True)
        k2 = k.clone().requires_grad_(True)
        wq, wk = reference(q1, k1, cos, sin, sections)
        gq, gk = LigerQwen2VLMRopeFunction.apply(q2, k2, cos, sin, list(sections))
        tag = "(%d, %d, %d, %d, %d) %s sections %s" % (bsz, seq, nq, nk, hd, dtype, sections)
        cc.close("q " + tag, gq, wq, atol, rtol)
        cc.close("k " + tag, gk, wk, atol, rtol)
        dq = torch.randn_like(wq)
        dk = torch.randn_like(wk)
        r1 = torch.autograd.grad((wq, wk), (q1, k1), (dq, dk))
        r2 = torch.autograd.grad((gq, gk), (q2, k2), (dq.clone(), dk.clone()))
        cc.close("dq " + tag, r2[0], r1[0], atol, rtol)
        cc.close("dk " + tag, r2[1], r1[1], atol, rtol)
cc.finish()
