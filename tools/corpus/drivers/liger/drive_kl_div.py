# Liger-Kernel's KL divergence (liger_kernel/ops/kl_div.py,
# LigerKLDivLossFunction) against torch.nn.functional.kl_div, forward and
# backward (the prediction's gradient), the four reductions, targets as
# probabilities or log-probabilities, fp32 and fp16 predictions (the
# targets stay fp32, as in the project's test: the kernel takes tl.exp of a
# log-target, which Triton allows only for fp32 and fp64).
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import corpus_check as cc

cc.use_project("liger", "src")
import torch
import torch.nn.functional as F
from liger_kernel.ops.kl_div import LigerKLDivLossFunction

cc.seed(18)
for rows, V in ((6, 50), (5, 3000)):
    for dtype, atol, rtol in ((torch.float32, 1e-8, 1e-6), (torch.float16, 1e-3, 1e-3)):
        for reduction in ("batchmean", "sum", "mean", "none"):
            for log_target in (False, True):
                x = torch.randn(rows, V, device="cuda").log_softmax(-1).to(dtype)
                y = torch.randn(rows, V, device="cuda").softmax(-1)
                if log_target:
                    y = y.log()
                x1 = x.clone().requires_grad_(True)
                x2 = x.clone().requires_grad_(True)
                want = F.kl_div(x1, y, reduction=reduction, log_target=log_target)
                got = LigerKLDivLossFunction.apply(x2, y, reduction, log_target)
                tag = "(%d, %d) %s %s log_target=%s" % (rows, V, dtype, reduction, log_target)
                cc.close("loss " + tag, got, want, atol, rtol)
                g = torch.rand_like(want) if reduction == "none" else torch.ones_like(want)
                want.backward(g)
                got.backward(g)
                cc.close("dx " + tag, x2.grad, x1.grad, atol, rtol)
cc.finish()
