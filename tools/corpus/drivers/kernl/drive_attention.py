# kernl's fused attention (kernl/implementations/attention.py,
# attention_forward: a flash-attention forward kernel, fp16 only) against
# softmax(q k^T * scale + mask) v in plain PyTorch (float32), causal or
# not, with a bias mask (batch, heads, m, n), a broadcast padding mask
# (batch, 1, 1, n), no mask; cross attention (one query row); mixed strides
# (transposed q and k).  Tolerances as the project's tests (atol 1e-1, 1e-2
# for the last two).  The batch-2 mask cases come last: at this commit the
# kernel binds a tuple to attention_mask_batch_idx and then an int under a
# runtime `if` (taken when the mask's batch size is not 1).
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import corpus_check as cc

cc.use_project("kernl", "src")
import torch
from kernl.implementations.attention import attention_forward


def reference(q, k, v, scale, causal, mask):
    s = torch.matmul(q.float(), k.float().transpose(-2, -1)) * scale
    if mask is not None:
        s = s + mask.float()
    if causal:
        keep = torch.ones(s.shape[-2], s.shape[-1], device="cuda").tril() == 1
        s = s.masked_fill(~keep, float("-inf"))
    return torch.matmul(torch.softmax(s, dim=-1), v.float())


def bias_mask(batch, heads, seq):
    return torch.rand(batch, heads, seq, seq, device="cuda")


def padding_mask(batch, heads, seq):
    lengths = torch.randint(1, seq, (batch,), device="cuda")
    keep = lengths[:, None] > torch.arange(seq, device="cuda")[None, :]
    return torch.where(keep, 0.0, float("-inf")).reshape(batch, 1, 1, seq)


cc.seed(0)
cases = []
for batch in (1, 2):
    for seq in (16, 33):
        for causal in (False, True):
            for mask_name, make in (("none", None), ("bias", bias_mask), ("padding", padding_mask)):
                if batch == 2 and mask_name == "none":
                    continue
                cases.append((batch, seq, causal, mask_name, make))
cases.sort(key=lambda c: (c[0] == 2 and c[3] != "none"))
for batch, seq, causal, mask_name, make in cases:
    heads, dhead = 2, 64
    q = torch.rand(batch, heads, seq, dhead, device="cuda") * 2
    k = torch.rand(batch, heads, seq, dhead, device="cuda") * 2
    v = torch.rand(batch, heads, seq, dhead, device="cuda") * 2
    mask = make(batch, heads, seq) if make else None
    want = reference(q, k, v, 0.3, causal, mask)
    h = [t.half() for t in (q, k, v)]
    out = torch.empty_like(h[0])
    got = attention_forward(h[0], h[1], h[2], out, 0.3, causal, mask.half() if mask is not None else None)
    cc.close("batch=%d seq=%d causal=%s mask=%s" % (batch, seq, causal, mask_name),
             got.float(), want, 1e-1, 0.0)
    if batch == 1 and seq == 33 and not causal and mask_name == "none":
        # cross attention: one query row against 24 keys, a (1, 8, 1, 24) mask
        q1 = torch.rand(1, 8, 1, 64, device="cuda").half()
        k1 = torch.rand(1, 8, 24, 64, device="cuda").half()
        v1 = torch.rand_like(k1)
        m1 = torch.rand(1, 8, 1, 24, device="cuda").half()
        got = attention_forward(q1, k1, v1, torch.empty_like(q1), 1.0, attention_mask=m1)
        cc.close("cross attention", got.float(), reference(q1, k1, v1, 1.0, False, m1), 1e-2, 0.0)
        # mixed strides: q column-major, k with its batch interlaced
        q2 = torch.rand(1, 4, 64, 48, device="cuda").half().transpose(-1, -2)
        k2 = torch.rand(4, 1, 48, 64, device="cuda").half().transpose(0, 1)
        v2 = torch.rand_like(q2)
        m2 = torch.rand(4, 1, 48, 48, device="cuda").half().transpose(0, 1).transpose(-1, -2)
        got = attention_forward(q2, k2, v2, torch.empty_like(q2), 0.3, attention_mask=m2)
        cc.close("mixed strides", got.float(), reference(q2, k2, v2, 0.3, False, m2), 1e-2, 0.0)
cc.finish()
