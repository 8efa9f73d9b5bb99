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


def reference(q, k, cos, sin):
    cos = cos.unsqueeze(1)
    sin = sin.unsqueeze(1)
    return q * cos + cc.rotate_half(q) * sin, k * cos + cc.rotate_half(k) * sin


cc.seed(12)
for bsz, seq, nq, nk, hd in ((1, 2, 2, 2, 8), (2, 7, 4, 2, 64), (3, 5, 6, 3, 32)):
    for dtype, atol, rtol in ((torch.float32, 1e-5, 1e-5), (torch.bfloat16, 1e-1, 1e-5)):
        for per_batch in (False, True):
            q = torch.randn(bsz, seq, nq, hd, device="cuda").transpose(1, 2).to(dtype)
            k = torch.randn(bsz, seq, nk, hd, device="cuda").transpose(1, 2).to(dtype)
            pos = torch.arange(seq, device="cuda").unsqueeze(0)
            if per_batch:
                pos = pos.expand(bsz, -1)
            cos, sin = cc.rope_cos_sin(pos, hd)
            cos = cos.to(dtype)
            sin = sin.to(dtype)
            tag = "(%d, %d, %d, %d, %d) %s per_batch=%s" % (bsz, seq, nq, nk, hd, dtype, per_batch)
            cc.forward_backward(tag, ("q", "k"), (q, k),
                                lambda q, k: reference(q, k, cos, sin),
                                lambda q, k: LigerRopeFunction.apply(q, k, cos, sin), atol, rtol)
cc.finish()
