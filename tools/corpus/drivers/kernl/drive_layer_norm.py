# kernl's layer norm and RMS norm (kernl/implementations/layer_norm.py,
# forward only: kernl optimizes inference): its three forward kernels
# (the Triton tutorial's multi-pass one, kernl's single-pass one, xformers')
# through kernl's layer_norm(), against torch.nn.functional.layer_norm and
# a plain RMS norm computed in float32, fp32 and fp16, contiguous and
# transposed input, at the project's tolerance (atol 1e-1 on inputs near
# -20, as its tests).
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import corpus_check as cc

cc.use_project("kernl", "src")
import torch
import torch.nn.functional as F
from kernl.implementations.layer_norm import (
    _layer_norm_fwd_fused_multi_pass,
    _layer_norm_fwd_fused_single_pass,
    layer_norm,
    layer_norm_xformers,
)

kernels = {"multi_pass": _layer_norm_fwd_fused_multi_pass,
           "single_pass": _layer_norm_fwd_fused_single_pass,
           "xformers": layer_norm_xformers}
cc.seed(0)
for M, N, transposed in ((16, 128, False), (8, 300, False), (40, 40, True)):
    w = torch.rand(N, device="cuda")
    b = torch.randn(N, device="cuda")
    x = -20 + 0.5 * torch.randn(M, N, device="cuda")
    if transposed:
        x = x.t()
    ln = F.layer_norm(x, (x.shape[-1],), w, b, 1e-5)
    xf = x.float()
    rms = w * (xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + 1e-5))
    for dtype in (torch.float32, torch.float16):
        for name, kern in kernels.items():
            got = layer_norm(x.to(dtype), w.to(dtype), b.to(dtype), 1e-5, kern, use_rms_norm=False)
            cc.close("layer_norm %s (%d, %d) transposed=%s %s" % (name, M, N, transposed, dtype),
                     got.float(), ln, 1e-1, 0.0)
        got = layer_norm(x.to(dtype), w.to(dtype), None, 1e-5, _layer_norm_fwd_fused_single_pass,
                         use_rms_norm=True)
        cc.close("rms_norm (%d, %d) transposed=%s %s" % (M, N, transposed, dtype),
                 got.float(), rms, 1e-1, 0.0)
cc.finish()
