# Liger-Kernel's total variation distance (liger_kernel/ops/tvd.py,
# LigerTVDLossFunction): |p - q| / 2 between two probability rows, the four
# reductions, rows with an ignored label left out; compared with plain
# PyTorch, forward and backward (p's gradient).
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import corpus_check as cc

cc.use_project("liger", "src")
import torch
from liger_kernel.ops.tvd import LigerTVDLossFunction


def reference(p, q, labels, reduction, ignore_index):
    d = (p - q).abs() / 2.0
    rows = p.shape[0]
    if labels is not None:
        keep = (labels != ignore_index).unsqueeze(1)
        d = torch.where(keep, d, torch.zeros_like(d))
        rows = int((labels != ignore_index).sum())
    if reduction == "none":
        return d
    if reduction == "sum":
        return d.sum()
    if reduction == "mean":
        return d.sum() / (rows * p.shape[1])
    return d.sum() / rows


cc.seed(19)
for rows, V in ((6, 40), (7, 1271)):
    for reduction in ("batchmean", "sum", "mean", "none"):
        for with_labels in (False, True):
            p = torch.randn(rows, V, device="cuda").softmax(-1)
            q = torch.randn(rows, V, device="cuda").softmax(-1)
            labels = None
            if with_labels:
                labels = torch.randint(0, V, (rows,), device="cuda")
                labels[1::3] = -100
            p1 = p.clone().requires_grad_(True)
            p2 = p.clone().requires_grad_(True)
            want = reference(p1, q, labels, reduction, -100)
            got = LigerTVDLossFunction.apply(p2, q, labels, reduction, -100)
            tag = "(%d, %d) %s labels=%s" % (rows, V, reduction, with_labels)
            cc.close("loss " + tag, got, want, 1e-8, 1e-6)
            g = torch.rand_like(want) if reduction == "none" else torch.ones_like(want)
            want.backward(g)
            got.backward(g)
            cc.close("dp " + tag, p2.grad, p1.grad, 1e-8, 1e-6)
cc.finish()
