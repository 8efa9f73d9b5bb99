# drive_swiglu.py - Unsloth's SwiGLU kernels (unsloth/kernels/swiglu.py):
# swiglu_fg_kernel, h = silu(e) * g, and swiglu_DWf_DW_dfg_kernel, which
# overwrites its buffers with h, the gradient for g and the gradient for e.
# Checked against torch.nn.functional.silu and autograd in float32, for
# float32, float16 and bfloat16 inputs.  Last line: RESULT ok | RESULT fail.
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import corpus_check as cc

cc.use_project("unsloth_zoo")
cc.use_project("unsloth")

import torch
import torch.nn.functional as F

from unsloth.kernels.swiglu import swiglu_DWf_DW_dfg_kernel, swiglu_fg_kernel

DEVICE = "cuda"
TOL = {torch.float32: (2e-5, 2e-5), torch.float16: (1e-2, 1e-2),
       torch.bfloat16: (5e-2, 5e-2)}


torch.manual_seed(42)
for dtype in (torch.float32, torch.float16, torch.bfloat16):
    batch, seq, hd = 3, 5, 88            # 1320 elements: a partial second block
    e = torch.randn(batch, seq, hd, device=DEVICE, dtype=dtype)
    g = torch.randn(batch, seq, hd, device=DEVICE, dtype=dtype)
    h = swiglu_fg_kernel(e, g)
    cc.close_dtype("forward", h, F.silu(e.float()) * g.float(), dtype, TOL)

    dw = torch.randn(batch * seq, hd, device=DEVICE, dtype=dtype)
    e2 = e.reshape(-1, hd).clone()
    g2 = g.reshape(-1, hd).clone()
    e32 = e2.detach().float().clone().requires_grad_(True)
    g32 = g2.detach().float().clone().requires_grad_(True)
    ref = F.silu(e32) * g32
    ref.backward(dw.float())
    h_out, d_g, d_e = swiglu_DWf_DW_dfg_kernel(dw.clone(), e2, g2)
    cc.close_dtype("backward h", h_out, ref.detach(), dtype, TOL)
    cc.close_dtype("backward d_g", d_g, g32.grad, dtype, TOL)
    cc.close_dtype("backward d_e", d_e, e32.grad, dtype, TOL)

cc.finish()
