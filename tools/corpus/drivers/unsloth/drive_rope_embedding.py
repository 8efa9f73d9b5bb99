# drive_rope_embedding.py - Unsloth's rotary embedding
# (unsloth/kernels/rope_embedding.py): fast_rope_embedding(Q, K, cos, sin)
# on (batch, heads, seq, head_dim) tensors, through the per-tensor kernel
# (no position indices) and the fused Q-and-K kernel (with
# rope_embedding_indices, as packed sequences use it; K with fewer heads,
# grouped-query attention), forward and the gradients for Q and K (the
# kernels rotate back by the negated angle).  Reference: the usual
# rotate-half formula with autograd, in float32; float32 and float16.
# Last line: RESULT ok | RESULT fail: <what differed>.
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import corpus_check as cc

cc.use_project("unsloth_zoo")
cc.use_project("unsloth")

import torch

from unsloth.kernels.rope_embedding import fast_rope_embedding

DEVICE = "cuda"
TOL = {torch.float32: (1e-5, 1e-5), torch.float16: (1e-2, 1e-2)}


def tables(seq, head_dim, dtype):
    inv = 1.0 / (10000.0 ** (torch.arange(0, head_dim, 2, device=DEVICE).float() / head_dim))
    freqs = torch.outer(torch.arange(seq, device=DEVICE).float(), inv)
    emb = torch.cat((freqs, freqs), dim=-1)
    return emb.cos().to(dtype), emb.sin().to(dtype)


def rotate(x, cos, sin):
    # x: (batch, heads, seq, d); cos, sin: (batch, 1, seq, d) or (seq, d)
    half = x.shape[-1] // 2
    rot = torch.cat((-x[..., half:], x[..., :half]), dim=-1)
    return x * cos + rot * sin


def case(name, batch, hq, hk, seq, d, dtype, with_indices):
    cos, sin = tables(2 * seq, d, dtype)
    Q = torch.randn(batch, hq, seq, d, device=DEVICE, dtype=dtype)
    K = torch.randn(batch, hk, seq, d, device=DEVICE, dtype=dtype)
    dQ = torch.randn_like(Q)
    dK = torch.randn_like(K)
    if with_indices:
        # each row's own position, as packed sequences restart them
        pos = torch.randint(0, 2 * seq, (batch, seq), device=DEVICE)
    else:
        pos = torch.arange(seq, device=DEVICE).expand(batch, seq)
    c = cos.float()[pos].unsqueeze(1)
    s = sin.float()[pos].unsqueeze(1)
    q32 = Q.detach().float().clone().requires_grad_(True)
    k32 = K.detach().float().clone().requires_grad_(True)
    wq = rotate(q32, c, s)
    wk = rotate(k32, c, s)
    (wq * dQ.float()).sum().backward(retain_graph=True)
    (wk * dK.float()).sum().backward()

    q = Q.detach().clone().requires_grad_(True)
    k = K.detach().clone().requires_grad_(True)
    if with_indices:
        gq, gk = fast_rope_embedding(q, k, cos, sin, rope_embedding_indices=pos)
    else:
        gq, gk = fast_rope_embedding(q, k, cos[:seq], sin[:seq])
    cc.close_dtype(name + " Q", gq, wq.detach(), dtype, TOL)
    cc.close_dtype(name + " K", gk, wk.detach(), dtype, TOL)
    ((gq.float() * dQ.float()).sum() + (gk.float() * dK.float()).sum()).backward()
    cc.close_dtype(name + " dQ", q.grad, q32.grad, dtype, TOL)
    cc.close_dtype(name + " dK", k.grad, k32.grad, dtype, TOL)


torch.manual_seed(3407)
for dtype in (torch.float32, torch.float16):
    case("plain", 2, 4, 4, 6, 16, dtype, False)
    case("plain 5 heads", 1, 5, 5, 3, 32, dtype, False)
    case("indexed gqa", 2, 8, 2, 5, 16, dtype, True)

cc.finish()
