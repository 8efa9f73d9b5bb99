# Liger-Kernel's sparsemax (liger_kernel/ops/sparsemax.py,
# LigerSparsemaxFunction) against a plain PyTorch sparsemax (sort, running
# sum, threshold), forward and backward, over the last and a middle dim.
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import corpus_check as cc

cc.use_project("liger", "src")
import torch
from liger_kernel.ops.sparsemax import LigerSparsemaxFunction


def sparsemax(x, dim):
    # projection of x onto the simplex along dim
    z = x.transpose(dim, -1)
    zs, _ = torch.sort(z, dim=-1, descending=True)
    k = torch.arange(1, z.shape[-1] + 1, device=z.device, dtype=z.dtype)
    run = zs.cumsum(-1)
    support = (1 + k * zs) > run
    k_z = support.sum(dim=-1, keepdim=True)
    tau = (run.gather(-1, k_z - 1) - 1) / k_z.to(z.dtype)
    return torch.clamp(z - tau, min=0).transpose(dim, -1)


cc.seed(10)
for shape, dim in (((2, 3, 17), -1), ((4, 64), -1), ((2, 9, 5), 1)):
    x = torch.randn(*shape, device="cuda")
    dy = torch.randn(*shape, device="cuda")
    x1 = x.clone().requires_grad_(True)
    x2 = x.clone().requires_grad_(True)
    want = sparsemax(x1, dim)
    want.backward(dy)
    got = LigerSparsemaxFunction.apply(x2, dim)
    got.backward(dy)
    tag = "%s dim=%d" % (shape, dim)
    cc.close("y " + tag, got, want, 1e-5, 1e-5)
    cc.close("sum " + tag, got.sum(dim), torch.ones_like(got.sum(dim)), 1e-4, 1e-4)
    cc.close("dx " + tag, x2.grad, x1.grad, 1e-5, 1e-5)
cc.finish()
