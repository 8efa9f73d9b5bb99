# Liger-Kernel's cross entropy (liger_kernel/ops/cross_entropy.py,
# LigerCrossEntropyFunction) against torch.nn.functional.cross_entropy plus
# the z-loss term (lse_square_scale * logsumexp^2 over the rows not
# ignored), forward and backward: the three reductions, ignore_index, label
# smoothing, softcap (x -> c * tanh(x / c)), class weights, bf16 logits.
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import corpus_check as cc

cc.use_project("liger", "src")
import torch
import torch.nn.functional as F
from liger_kernel.ops.cross_entropy import LigerCrossEntropyFunction


def reference(x, t, weight, ignore_index, z_scale, smoothing, reduction, softcap):
    x = x.float()
    if softcap is not None:
        x = softcap * torch.tanh(x / softcap)
    ce = F.cross_entropy(x, t, weight=weight, ignore_index=ignore_index,
                         label_smoothing=smoothing, reduction=reduction)
    keep = t != ignore_index
    z = torch.where(keep, z_scale * torch.logsumexp(x, dim=-1) ** 2, torch.zeros_like(x[:, 0]))
    if reduction == "mean":
        z = z.sum() / keep.sum()
    elif reduction == "sum":
        z = z.sum()
    return ce + z, z


cases = [
    # rows, V, reduction, ignore_index, z_scale, smoothing, softcap, weighted
    (15, 100, "mean", -100, 0.0, 0.0, None, False),
    (15, 100, "sum", -100, 0.0, 0.0, None, False),
    (15, 100, "none", -100, 0.0, 0.0, None, False),
    (12, 1000, "mean", 2, 0.0, 0.1, None, False),
    (12, 300, "sum", -100, 0.0, 0.0, 30.0, False),
    (10, 200, "mean", -100, 1e-4, 0.0, None, False),
    (10, 200, "mean", 42, 1e-4, 0.1, 30.0, True),
    (10, 200, "sum", -100, 0.0, 0.0, None, True),
]
cc.seed(15)
for rows, V, red, ii, zs, ls, cap, weighted in cases:
    for dtype, atol, rtol in ((torch.float32, 1e-8, 1e-6), (torch.bfloat16, 1e-8, 5e-2)):
        x = torch.randn(rows, V, device="cuda", dtype=dtype)
        t = torch.randint(0, V, (rows,), device="cuda")
        if ii >= 0:
            t[::3] = ii
        else:
            t[1] = ii
        w = torch.rand(V, device="cuda") if weighted else None
        x1 = x.clone().requires_grad_(True)
        x2 = x.clone().requires_grad_(True)
        want, wz = reference(x1, t, w, ii, zs, ls, red, cap)
        want = want.to(dtype)
        loss, z, _, _ = LigerCrossEntropyFunction.apply(x2, t, w, ii, zs, ls, red, cap, True)
        tag = "rows=%d V=%d %s ignore=%d z=%g smooth=%g softcap=%s weight=%s %s" % (
            rows, V, red, ii, zs, ls, cap, weighted, dtype)
        cc.close("loss " + tag, loss, want, atol, rtol)
        if zs:
            cc.close("z_loss " + tag, z, wz.to(dtype), atol, rtol)
        want.backward(torch.ones_like(want))
        loss.backward(torch.ones_like(loss))
        cc.close("dx " + tag, x2.grad, x1.grad, atol, rtol)
cc.finish()
