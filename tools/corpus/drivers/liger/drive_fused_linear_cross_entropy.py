# Liger-Kernel's fused linear + cross entropy
# (liger_kernel/ops/fused_linear_cross_entropy.py,
# LigerFusedLinearCrossEntropyFunction): the loss of x @ W^T + b without
# keeping the logits, its gradients computed in chunks during the forward
# (mean, sum) or recomputed in the backward ("none").  Compared with
# torch.nn.functional.linear + cross_entropy (+ z-loss), forward and
# backward (x, W, b), at the project's tolerances.
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import corpus_check as cc

cc.use_project("liger", "src")
import torch
import torch.nn.functional as F
from liger_kernel.ops.fused_linear_cross_entropy import LigerFusedLinearCrossEntropyFunction


def reference(x, w, b, t, ignore_index, z_scale, smoothing, reduction, softcap):
    logits = F.linear(x, w, b).float()
    if softcap is not None:
        logits = softcap * torch.tanh(logits / softcap)
    ce = F.cross_entropy(logits, t, ignore_index=ignore_index, label_smoothing=smoothing,
                         reduction=reduction)
    keep = t != ignore_index
    z = torch.where(keep, z_scale * torch.logsumexp(logits, dim=-1) ** 2,
                    torch.zeros_like(logits[:, 0]))
    if reduction == "mean":
        z = z.sum() / keep.sum()
    elif reduction == "sum":
        z = z.sum()
    return ce + z


cases = [
    # rows, H, V, reduction, bias, ignore_index, z_scale, smoothing, softcap, atol, rtol
    (12, 31, 123, "mean", True, -100, 0.0, 0.0, None, 1e-5, 5e-4),
    (12, 31, 123, "sum", False, -100, 0.0, 0.0, None, 1e-3, 5e-2),
    (10, 64, 200, "mean", True, 3, 1e-4, 0.1, 30.0, 1e-5, 5e-4),
    (9, 32, 100, "none", True, -100, 0.0, 0.0, None, 1e-5, 5e-4),
]
cc.seed(16)
for rows, H, V, red, has_bias, ii, zs, ls, cap, atol, rtol in cases:
    x = torch.randn(rows, H, device="cuda")
    w = torch.randn(V, H, device="cuda") / H ** 0.5
    b = torch.randn(V, device="cuda") if has_bias else None
    t = torch.randint(0, V, (rows,), device="cuda")
    if ii >= 0:
        t[::4] = ii
    ts = [x, w] + ([b] if has_bias else [])
    l1 = [v.clone().requires_grad_(True) for v in ts]
    l2 = [v.clone().requires_grad_(True) for v in ts]
    want = reference(l1[0], l1[1], l1[2] if has_bias else None, t, ii, zs, ls, red, cap)
    got = LigerFusedLinearCrossEntropyFunction.apply(
        l2[0], l2[1], t, l2[2] if has_bias else None, None, ii, zs, ls, red, cap)[0]
    tag = "rows=%d H=%d V=%d %s bias=%s ignore=%d z=%g smooth=%g softcap=%s" % (
        rows, H, V, red, has_bias, ii, zs, ls, cap)
    cc.close("loss " + tag, got, want, atol, rtol)
    g = torch.rand_like(want) if red == "none" else torch.ones_like(want)
    want.backward(g)
    got.backward(g)
    for name, a, r in zip(("dx", "dW", "db"), l2, l1):
        cc.close(name + " " + tag, a.grad, r.grad, atol, rtol)
cc.finish()
