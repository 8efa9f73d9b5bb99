# flash-attention's experimental Triton attention
# (flash_attn/flash_attn_triton.py, flash_attn_func: q, k, v as (batch,
# seq, heads, headdim), causal or not) against softmax(q k^T / sqrt(d)) v
# in plain PyTorch (float32), forward and backward (dq, dk, dv), fp16 and
# bf16.  At this commit the file is written for Triton 2.0
# (tl.dot(..., trans_b=True)), which Triton 3 no longer accepts.
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import corpus_check as cc

cc.use_project("flashattn")
import torch
from flash_attn.flash_attn_triton import flash_attn_func


def reference(q, k, v, causal):
    qf, kf, vf = (t.float().transpose(1, 2) for t in (q, k, v))
    s = torch.matmul(qf, kf.transpose(-2, -1)) / math.sqrt(q.shape[-1])
    if causal:
        keep = torch.ones(s.shape[-2], s.shape[-1], device="cuda").tril() == 1
        s = s.masked_fill(~keep, float("-inf"))
    return torch.matmul(torch.softmax(s, dim=-1), vf).transpose(1, 2)


cc.seed(0)
for batch, seq, heads, d in ((1, 64, 2, 64), (2, 113, 2, 32)):
    for causal in (False, True):
        for dtype in (torch.float16, torch.bfloat16):
            q, k, v = (torch.randn(batch, seq, heads, d, device="cuda", dtype=dtype) for _ in range(3))
            l1 = [t.clone().requires_grad_(True) for t in (q, k, v)]
            l2 = [t.clone().requires_grad_(True) for t in (q, k, v)]
            want = reference(*l1, causal)
            got = flash_attn_func(l2[0], l2[1], l2[2], None, causal)
            tag = "(%d, %d, %d, %d) causal=%s %s" % (batch, seq, heads, d, causal, dtype)
            tol = 2e-2 if dtype == torch.float16 else 5e-2
            cc.close("o " + tag, got.float(), want, tol, tol)
            do = torch.randn_like(q)
            want.backward(do.float())
            got.backward(do)
            for name, a, b in zip(("dq", "dk", "dv"), l2, l1):
                cc.close(name + " " + tag, a.grad.float(), b.grad, tol, tol)
cc.finish()
