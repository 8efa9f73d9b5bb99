# attorch's MultiheadAttention (attorch/multi_head_attention_layer.py)
# against torch.nn.MultiheadAttention with the same projections, self- and
# cross-attention, causal or not, forward and backward, fp32 at the
# project's tolerances (1e-2).  At this commit attorch's constructor raises
# a RuntimeError (the module is deprecated while its authors investigate
# an issue), so the driver stops there under any runner.  (tritsim cannot
# construct torch.nn.MultiheadAttention either; the driver makes attorch's
# module first.)
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import corpus_check as cc

cc.use_project("attorch")
import torch
from torch import nn
import attorch

for batch, seq, dim, heads, self_attn, causal in ((2, 8, 16, 2, True, False),
                                                  (1, 6, 24, 4, False, True)):
    cc.seed(0)
    q = torch.randn(batch, seq, dim, device="cuda")
    k = q if self_attn else torch.randn(batch, seq, dim, device="cuda")
    mine = attorch.MultiheadAttention(dim, heads, bias=True, batch_first=True)
    ref = nn.MultiheadAttention(dim, heads, bias=True, batch_first=True, device="cuda")
    mine.load_state_dict(ref.state_dict())
    l1 = [v.clone().requires_grad_(True) for v in (q, k)]
    l2 = [v.clone().requires_grad_(True) for v in (q, k)]
    mask = torch.triu(torch.full((seq, seq), float("-inf"), device="cuda"), 1) if causal else None
    want = ref(l1[0], l1[1], l1[1], attn_mask=mask, is_causal=causal, need_weights=False)[0]
    got = mine(l2[0], l2[1], l2[1], causal=causal)
    tag = "(%d, %d, %d) heads=%d self=%s causal=%s" % (batch, seq, dim, heads, self_attn, causal)
    cc.close("y " + tag, got, want, 1e-2, 1e-2)
    dy = torch.randn_like(want)
    got.backward(dy)
    want.backward(dy)
    cc.close("dq " + tag, l2[0].grad, l1[0].grad, 1e-2, 1e-2)
    cc.close("dkv " + tag, l2[1].grad, l1[1].grad, 1e-2, 1e-2)
cc.finish()
