# Liger-Kernel's RMSNorm (liger_kernel/ops/rms_norm.py, LigerRMSNormFunction)
# against plain PyTorch, forward and backward, in the three casting modes
# of the project's test (llama, gemma with offset 1, none), with and
# without a weight, fp32 and bf16, on the row kernel and on the block kernel
# (taken for many short rows).
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import corpus_check as cc

cc.use_project("liger", "src")
import torch
from liger_kernel.ops.rms_norm import LigerRMSNormFunction


def reference(x, w, eps, offset, mode):
    # the three ways Hugging Face models cast around the norm
    dt = x.dtype
    if mode == "gemma":
        xf = x.float()
        y = xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + eps)
        if w is not None:
            y = y * (offset + w.float())
        return y.to(dt)
    if mode == "llama":
        xf = x.float()
        y = (xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + eps)).to(dt)
    else:
        y = x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps)
    if w is not None:
        y = (offset + w) * y
    return y


cases = [((2, 8, 64), None), ((3, 5, 41), None), ((32768, 16), False)]
tols = [(torch.float32, 1e-4, 1e-6), (torch.bfloat16, 2e-1, 2e-2)]
cc.seed(0)
for shape, row_mode in cases:
    for dtype, atol, rtol in tols:
        if shape[0] > 1000 and dtype != torch.float32:
            continue
        for mode, offset in (("llama", 0.0), ("gemma", 1.0), ("none", 0.0)):
            for affine in (True, False):
                if shape[0] > 1000 and (mode != "llama" or not affine):
                    continue
                hd = shape[-1]
                x = torch.randn(*shape, device="cuda", dtype=dtype)
                dy = torch.randn(*shape, device="cuda", dtype=dtype)
                w = None
                if affine:
                    w = (torch.randn(hd, device="cuda") * 0.1 + 1.0).to(dtype)
                x1 = x.clone().requires_grad_(True)
                x2 = x.clone().requires_grad_(True)
                w1 = w.clone().requires_grad_(True) if affine else None
                w2 = w.clone().requires_grad_(True) if affine else None
                want = reference(x1, w1, 1e-6, offset, mode)
                want.backward(dy)
                got = LigerRMSNormFunction.apply(x2, w2, 1e-6, offset, mode, False, row_mode)
                got.backward(dy.clone())
                tag = "%s %s %s affine=%s" % (tuple(shape), str(dtype), mode, affine)
                cc.close("y " + tag, got, want, atol, rtol)
                cc.close("dx " + tag, x2.grad, x1.grad, atol, rtol)
                if affine:
                    cc.close("dw " + tag, w2.grad, w1.grad, atol, rtol)
cc.finish()
