# drive_swiglu.py - Unsloth's SwiGLU kernels (unsloth/kernels/swiglu.py):
# swiglu_fg_kernel, h = silu(e) * g, and swiglu_DWf_DW_dfg_kernel, which
# overwrites its buffers with h, the gradient for g and the gradient for e.
# Checked against torch.nn.functional.silu and autograd in float32, for
# float32, float16 and bfloat16 inputs.  Last line: RESULT ok | RESULT fail.
import os
import sys

SRC = os.environ["CORPUS_SRC"]
sys.path.insert(0, os.path.join(SRC, "unsloth_zoo"))
sys.path.insert(0, os.path.join(SRC, "unsloth"))

import torch
import torch.nn.functional as F

from unsloth.kernels.swiglu import swiglu_DWf_DW_dfg_kernel, swiglu_fg_kernel

DEVICE = "cuda"
TOL = {torch.float32: (2e-5, 2e-5), torch.float16: (1e-2, 1e-2),
       torch.bfloat16: (5e-2, 5e-2)}
problems = []


def close(what, got, want, dtype):
    atol, rtol = TOL[dtype]
    got, want = got.float(), want.float()
    if not torch.allclose(got, want, atol=atol, rtol=rtol):
        err = (got - want).abs().max().item()
        problems.append("%s %s: max abs error %.3g" % (what, str(dtype)[6:], err))


torch.manual_seed(42)
for dtype in (torch.float32, torch.float16, torch.bfloat16):
    batch, seq, hd = 3, 5, 88            # 1320 elements: a partial second block
    e = torch.randn(batch, seq, hd, device=DEVICE, dtype=dtype)
    g = torch.randn(batch, seq, hd, device=DEVICE, dtype=dtype)
    h = swiglu_fg_kernel(e, g)
    close("forward", h, F.silu(e.float()) * g.float(), dtype)

    dw = torch.randn(batch * seq, hd, device=DEVICE, dtype=dtype)
    e2 = e.reshape(-1, hd).clone()
    g2 = g.reshape(-1, hd).clone()
    e32 = e2.detach().float().clone().requires_grad_(True)
    g32 = g2.detach().float().clone().requires_grad_(True)
    ref = F.silu(e32) * g32
    ref.backward(dw.float())
    h_out, d_g, d_e = swiglu_DWf_DW_dfg_kernel(dw.clone(), e2, g2)
    close("backward h", h_out, ref.detach(), dtype)
    close("backward d_g", d_g, g32.grad, dtype)
    close("backward d_e", d_e, e32.grad, dtype)

print("RESULT ok" if not problems else "RESULT fail: " + "; ".join(problems))
