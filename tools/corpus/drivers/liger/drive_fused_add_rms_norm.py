# Liger-Kernel's fused residual add + RMSNorm
# (liger_kernel/ops/fused_add_rms_norm.py, LigerFusedAddRMSNormFunction):
# returns norm(x + r) and x + r; compared with plain PyTorch forward and
# backward (gradients through both outputs), llama and gemma casting.
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import corpus_check as cc

cc.use_project("liger", "src")
import torch
from liger_kernel.ops.fused_add_rms_norm import LigerFusedAddRMSNormFunction


def reference(x, r, w, eps, offset, mode):
    s = x + r
    dt = s.dtype
    sf = s.float()
    normed = sf * torch.rsqrt(sf.pow(2).mean(-1, keepdim=True) + eps)
    if mode == "gemma":
        y = (normed * (offset + w.float())).to(dt)
    else:
        y = (offset + w) * normed.to(dt)
    return y, s


cc.seed(1)
for shape in ((2, 4, 64), (3, 7, 37)):
    for dtype, atol, rtol in ((torch.float32, 1e-4, 1e-6), (torch.bfloat16, 2e-1, 2e-2)):
        for mode, offset in (("llama", 0.0), ("gemma", 1.0)):
            for in_place in (False, True):
                x = torch.randn(*shape, device="cuda", dtype=dtype)
                r = torch.randn(*shape, device="cuda", dtype=dtype)
                w = (1.0 + 0.1 * torch.randn(shape[-1], device="cuda")).to(dtype)
                dy = torch.randn(*shape, device="cuda", dtype=dtype)
                ds = torch.randn(*shape, device="cuda", dtype=dtype)
                leaves1 = [t.clone().requires_grad_(True) for t in (x, r, w)]
                leaves2 = [t.clone().requires_grad_(True) for t in (x, r, w)]
                y1, s1 = reference(leaves1[0], leaves1[1], leaves1[2], 1e-6, offset, mode)
                torch.autograd.backward([y1, s1], [dy, ds])
                y2, s2 = LigerFusedAddRMSNormFunction.apply(
                    leaves2[0], leaves2[1], leaves2[2], 1e-6, offset, mode, in_place)
                torch.autograd.backward([y2, s2], [dy.clone(), ds.clone()])
                tag = "%s %s %s in_place=%s" % (shape, dtype, mode, in_place)
                cc.close("y " + tag, y2, y1, atol, rtol)
                cc.close("x+r " + tag, s2, s1, atol, rtol)
                for name, a, b in zip(("dx", "dr", "dw"), leaves2, leaves1):
                    cc.close(name + " " + tag, a.grad, b.grad, atol, rtol)
cc.finish()
