# drive_geglu.py - Unsloth's GEGLU kernels (unsloth/kernels/geglu.py): the
# exact (erf) and approximate (tanh) forward kernels h = gelu(gate) * up, and
# their backward kernels, which overwrite their three buffers with h, the
# gradient for up and the gradient for gate.  Checked against plain PyTorch
# (torch.nn.functional.gelu and autograd, in float32) for float32 and
# float16 inputs.  Last line: RESULT ok | RESULT fail: <what differed>.
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import corpus_check as cc

cc.use_project("unsloth_zoo")
cc.use_project("unsloth")

import torch
import torch.nn.functional as F

from unsloth.kernels.geglu import (
    geglu_approx_backward_kernel,
    geglu_approx_forward_kernel,
    geglu_exact_backward_kernel,
    geglu_exact_forward_kernel,
)

DEVICE = "cuda"
TOL = {torch.float32: (2e-5, 2e-5), torch.float16: (1e-2, 1e-2)}


def run(kind, forward, backward, dtype):
    approximate = "tanh" if kind == "approx" else "none"
    batch, seq, hd = 2, 7, 80          # 1120 elements: two blocks of 1024, a partial one
    gate = torch.randn(batch, seq, hd, device=DEVICE, dtype=dtype)
    up = torch.randn(batch, seq, hd, device=DEVICE, dtype=dtype)
    h = forward(gate, up)
    want = F.gelu(gate.float(), approximate=approximate) * up.float()
    cc.close_dtype(kind + " forward", h, want, dtype, TOL)

    # backward on the flattened rows, as Unsloth's LoRA MLP calls it
    dw = torch.randn(batch * seq, hd, device=DEVICE, dtype=dtype)
    e = gate.reshape(-1, hd).clone()
    g = up.reshape(-1, hd).clone()
    e32 = e.detach().float().clone().requires_grad_(True)
    g32 = g.detach().float().clone().requires_grad_(True)
    ref = F.gelu(e32, approximate=approximate) * g32
    ref.backward(dw.float())
    h_out, d_up, d_gate = backward(dw.clone(), e, g)
    cc.close_dtype(kind + " backward h", h_out, ref.detach(), dtype, TOL)
    cc.close_dtype(kind + " backward d_up", d_up, g32.grad, dtype, TOL)
    cc.close_dtype(kind + " backward d_gate", d_gate, e32.grad, dtype, TOL)


torch.manual_seed(3407)
for dtype in (torch.float32, torch.float16):
    run("exact", geglu_exact_forward_kernel, geglu_exact_backward_kernel, dtype)
    run("approx", geglu_approx_forward_kernel, geglu_approx_backward_kernel, dtype)

cc.finish()
