# Liger-Kernel's GroupNorm (liger_kernel/ops/group_norm.py,
# LigerGroupNormFunction) against torch.nn.functional.group_norm on
# (batch, channels, hidden) inputs, forward and backward.
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import corpus_check as cc

cc.use_project("liger", "src")
import torch
import torch.nn.functional as F
from liger_kernel.ops.group_norm import LigerGroupNormFunction

cc.seed(5)
for batch, channels, groups, hidden in ((1, 1, 1, 3), (1, 8, 8, 4), (2, 6, 3, 50), (2, 4, 1, 300)):
    x = torch.randn(batch, channels, hidden, device="cuda")
    w = 1.0 + 0.1 * torch.randn(channels, device="cuda")
    b = 0.1 * torch.randn(channels, device="cuda")
    dy = torch.randn(batch, channels, hidden, device="cuda")
    l1 = [t.clone().requires_grad_(True) for t in (x, w, b)]
    l2 = [t.clone().requires_grad_(True) for t in (x, w, b)]
    want = F.group_norm(l1[0], groups, l1[1], l1[2], 1e-6)
    want.backward(dy)
    got = LigerGroupNormFunction.apply(l2[0], l2[1], l2[2], channels, groups, 1e-6)
    got.backward(dy)
    tag = "(%d, %d, %d) groups=%d" % (batch, channels, hidden, groups)
    cc.close("y " + tag, got, want, 1e-4, 1e-4)
    cc.close("dx " + tag, l2[0].grad, l1[0].grad, 1e-4, 1e-4)
    cc.close("dw " + tag, l2[1].grad, l1[1].grad, 1e-4, 1e-4)
    cc.close("db " + tag, l2[2].grad, l1[2].grad, 1e-4, 1e-4)
cc.finish()
