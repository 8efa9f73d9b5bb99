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


def pick_sections(t, sections):
    # t: (3, bsz, seq, hd); the sections repeat for the second half
    parts = t.split(list(sections) * 2, dim=-1)
    return torch.cat([p[i % 3] for i, p in enumerate(parts)], dim=-1).unsqueeze(1)


def reference(q, k, cos, sin, sections):
    c = pick_sections(cos, sections)
    s = pick_sections(sin, sections)
    return q * c + cc.rotate_half(q) * s, k * c + cc.rotate_half(k) * s


cc.seed(13)
for bsz, seq, nq, nk, hd, sections in ((1, 2, 2, 2, 8, (2, 1, 1)), (2, 5, 4, 2, 64, (8, 12, 12)),
                                       (1, 7, 3, 1, 32, (4, 6, 6))):
    for dtype, atol, rtol in ((torch.float32, 1e-5, 1e-5), (torch.bfloat16, 1e-1, 1e-5)):
        q = torch.randn(bsz, seq, nq, hd, device="cuda").transpose(1, 2).to(dtype)
        k = torch.randn(bsz, seq, nk, hd, device="cuda").transpose(1, 2).to(dtype)
        pos = torch.arange(seq * 3 * bsz, device="cuda").view(3, bsz, seq)
        cos, sin = cc.rope_cos_sin(pos, hd)
        cos = cos.to(dtype)
        sin = sin.to(dtype)
        tag = "(%d, %d, %d, %d, %d) %s sections %s" % (bsz, seq, nq, nk, hd, dtype, sections)
        cc.forward_backward(tag, ("q", "k"), (q, k),
                            lambda q, k: reference(q, k, cos, sin, sections),
                            lambda q, k: LigerQwen2VLMRopeFunction.apply(q, k, cos, sin,
                                                                         list(sections)),
                            atol, rtol)
cc.finish()
