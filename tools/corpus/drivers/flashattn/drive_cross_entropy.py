# flash-attention's cross entropy (flash_attn/ops/triton/cross_entropy.py,
# cross_entropy_loss: per-row losses and z-losses) against
# torch.nn.functional.cross_entropy (reduction="none") of the scaled
# logits plus lse_square_scale * logsumexp^2, ignored rows 0; label
# smoothing, logit scale, a precomputed logsumexp, in-place backward; a
# vocabulary wider than one block (16384); fp32, fp16, bf16 at the
# project's tolerances (rtol 1e-5, atol 1e-6 for fp32; 1e-3, 1e-4 else).
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import corpus_check as cc

cc.use_project("flashattn")
import torch
import torch.nn.functional as F
from flash_attn.ops.triton.cross_entropy import cross_entropy_loss

cc.seed(0)
cases = [
    # rows, vocab, smoothing, logit_scale, z_scale, precomputed lse, inplace backward
    (6, 200, 0.0, 1.0, 0.0, False, False),
    (6, 200, 0.9, 0.7, 1e-2, False, True),
    (5, 300, 0.0, 1.0, 1e-2, True, False),
    (4, 20000, 0.1, 1.0, 0.0, False, False),
]
for rows, V, smoothing, scale, zs, pre, inplace in cases:
    for dtype in (torch.float32, torch.float16, torch.bfloat16):
        rtol, atol = (1e-5, 1e-6) if dtype == torch.float32 else (1e-3, 1e-4)
        x = torch.randn(rows, V, device="cuda", dtype=dtype)
        y = torch.randint(0, V, (rows,), device="cuda")
        y[1] = -100
        xr = x.clone().requires_grad_(True)
        xs = xr.float() * scale
        lse = torch.logsumexp(xs, dim=-1)
        keep = y != -100
        z = torch.where(keep, zs * lse ** 2, torch.zeros_like(lse))
        want = F.cross_entropy(xs, y, label_smoothing=smoothing, reduction="none") + z
        xk = x.clone().requires_grad_(True)
        pre_lse = torch.logsumexp(x.float(), dim=-1) if pre else None
        losses, zlosses = cross_entropy_loss(xk, y, precomputed_lse=pre_lse, label_smoothing=smoothing,
                                             logit_scale=scale, lse_square_scale=zs,
                                             inplace_backward=inplace)
        tag = "rows=%d V=%d smoothing=%g scale=%g z=%g pre_lse=%s inplace=%s %s" % (
            rows, V, smoothing, scale, zs, pre, inplace, dtype)
        cc.close("loss " + tag, losses, want, atol, rtol)
        cc.close("z_loss " + tag, zlosses, z, atol, rtol)
        g = torch.randn(rows, device="cuda")
        want.backward(g)
        losses.backward(g)
        cc.close("dx " + tag, xk.grad.float(), xr.grad.float().to(dtype).float(),
                 atol if dtype == torch.float32 else 1e-3, rtol if dtype == torch.float32 else 1e-2)
cc.finish()
