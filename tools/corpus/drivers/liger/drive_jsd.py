# Liger-Kernel's generalized Jensen-Shannon divergence
# (liger_kernel/ops/jsd.py, LigerJSDFunction): inputs are log-probabilities
# (student q as input, teacher p as target), M = (1 - beta) Q + beta P,
# loss = beta KL(P||M) + (1 - beta) KL(Q||M) summed over the vocabulary and
# averaged over the rows not ignored; beta = 0 and 1 are the two plain KLs.
# Compared with that formula in plain PyTorch, forward and backward
# (the input's gradient), fp32 and fp16.
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import corpus_check as cc

cc.use_project("liger", "src")
import torch
from liger_kernel.ops.jsd import LigerJSDFunction


def kl_rows(log_a, log_b):
    # KL(A||B) per row from log-probabilities
    return (torch.exp(log_a) * (log_a - log_b)).sum(-1)


def reference(log_q, log_p, labels, beta, ignore_index):
    log_q = log_q.float()
    log_p = log_p.float()
    if beta == 0.0:
        loss = kl_rows(log_p, log_q)
    elif beta == 1.0:
        loss = kl_rows(log_q, log_p)
    else:
        log_m = torch.log((1 - beta) * torch.exp(log_q) + beta * torch.exp(log_p))
        loss = beta * kl_rows(log_p, log_m) + (1 - beta) * kl_rows(log_q, log_m)
    if labels is None:
        return loss.sum() / log_q.shape[0]
    keep = labels != ignore_index
    return torch.where(keep, loss, torch.zeros_like(loss)).sum() / keep.sum()


cc.seed(17)
for rows, V in ((6, 50), (9, 1100)):
    for dtype, atol, rtol in ((torch.float32, 1e-7, 1e-6), (torch.float16, 1e-3, 1e-3)):
        for beta in (0.5, 0.1, 0.0, 1.0):
            for with_labels in (False, True):
                x = torch.randn(rows, V, device="cuda").log_softmax(-1).to(dtype)
                y = torch.randn(rows, V, device="cuda").log_softmax(-1).to(dtype)
                labels = None
                if with_labels:
                    labels = torch.randint(0, V, (rows,), device="cuda")
                    labels[::3] = -100
                x1 = x.clone().requires_grad_(True)
                x2 = x.clone().requires_grad_(True)
                want = reference(x1, y, labels, beta, -100).to(dtype)
                want.backward()
                got = LigerJSDFunction.apply(x2, y, labels, beta, -100)
                got.backward()
                tag = "(%d, %d) %s beta=%g labels=%s" % (rows, V, dtype, beta, with_labels)
                cc.close("loss " + tag, got, want, atol, rtol)
                cc.close("dx " + tag, x2.grad, x1.grad, atol, rtol)
cc.finish()
