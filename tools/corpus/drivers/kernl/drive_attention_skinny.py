# kernl's attention for one query row against long keys (decoding): the
# split-K kernel pair (kernl/implementations/attention_skinny.py,
# skinny_attention_forward) and the vector-matrix kernel
# (attention_vec_mat.py, autotuned; it wants v column-major), fp16, against
# softmax(q k^T * scale) v in plain PyTorch (float32), atol 1e-2 as the
# project's test.
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import corpus_check as cc

cc.use_project("kernl", "src")
import torch
from kernl.implementations.attention_skinny import skinny_attention_forward
from kernl.implementations.attention_vec_mat import attention_vec_mat_forward


def reference(q, k, v, scale):
    s = torch.matmul(q.float(), k.float().transpose(-2, -1)) * scale
    return torch.matmul(torch.softmax(s, dim=-1), v.float())


cc.seed(0)
for batch, heads, seq, dhead in ((1, 2, 100, 64), (2, 3, 300, 64)):
    q = torch.rand(batch, heads, 1, dhead, device="cuda").half()
    k = torch.rand(batch, heads, seq, dhead, device="cuda").half()
    v = torch.rand_like(k)
    want = reference(q, k, v, 0.3)
    tag = "(%d, %d, %d, %d)" % (batch, heads, seq, dhead)
    got = skinny_attention_forward(q, k, v, torch.empty_like(q), 0.3)
    cc.close("split-k " + tag, got.float(), want, 1e-2, 0.0)
    v_cols = v.permute(0, 1, 3, 2).contiguous().permute(0, 1, 3, 2)
    got = attention_vec_mat_forward(q, k, v_cols, torch.empty_like(q), 0.3)
    cc.close("vec-mat " + tag, got.float(), want, 1e-2, 0.0)
cc.finish()
