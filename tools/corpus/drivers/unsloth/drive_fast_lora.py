# drive_fast_lora.py - Unsloth's fused LoRA MLP (unsloth/kernels/fast_lora.py):
# LoRA_MLP.apply, the autograd Function behind apply_lora_mlp_swiglu and
# apply_lora_mlp_geglu_*, on plain (unquantized) weights: gate and up
# projections with their LoRA adapters, the SwiGLU or GEGLU kernels between
# them, the down projection, and the backward (the activation's backward
# kernel, then matmuls and addmm_) for X and the six adapter matrices.
# Reference: the same MLP written with torch.matmul and F.silu / F.gelu,
# with autograd, in float32.  Last line: RESULT ok | RESULT fail: <...>.
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import corpus_check as cc

cc.use_project("unsloth_zoo")
cc.use_project("unsloth")

import torch
import torch.nn.functional as F

from unsloth.kernels.fast_lora import LoRA_MLP
from unsloth.kernels.geglu import geglu_exact_backward_kernel, geglu_exact_forward_kernel
from unsloth.kernels.swiglu import swiglu_DWf_DW_dfg_kernel, swiglu_fg_kernel

DEVICE = "cuda"
TOL = {torch.float32: (1e-4, 1e-4), torch.float16: (3e-2, 3e-2)}


def lora(x, W, A, B, s):
    return x @ W.t() + s * ((x @ A.t()) @ B.t())


def case(name, act, fwd, bwd, dtype):
    batch, seq, hd, ff, r = 2, 3, 32, 48, 4
    scale = (0.5, 2.0, 1.5)
    Ws = [torch.randn(ff, hd, device=DEVICE, dtype=dtype) / 6,
          torch.randn(ff, hd, device=DEVICE, dtype=dtype) / 6,
          torch.randn(hd, ff, device=DEVICE, dtype=dtype) / 7]
    As = [torch.randn(r, hd, device=DEVICE, dtype=dtype) / 6,
          torch.randn(r, hd, device=DEVICE, dtype=dtype) / 6,
          torch.randn(r, ff, device=DEVICE, dtype=dtype) / 7]
    Bs = [torch.randn(ff, r, device=DEVICE, dtype=dtype) / 2,
          torch.randn(ff, r, device=DEVICE, dtype=dtype) / 2,
          torch.randn(hd, r, device=DEVICE, dtype=dtype) / 2]
    X = torch.randn(batch, seq, hd, device=DEVICE, dtype=dtype)
    dY = torch.randn(batch, seq, hd, device=DEVICE, dtype=dtype)

    # reference in float32
    x32 = X.detach().float().clone().requires_grad_(True)
    a32 = [a.detach().float().clone().requires_grad_(True) for a in As]
    b32 = [b.detach().float().clone().requires_grad_(True) for b in Bs]
    w32 = [w.float() for w in Ws]
    e = lora(x32, w32[0], a32[0], b32[0], scale[0])
    g = lora(x32, w32[1], a32[1], b32[1], scale[1])
    want = lora(act(e) * g, w32[2], a32[2], b32[2], scale[2])
    want.backward(dY.float())

    x = X.detach().clone().requires_grad_(True)
    a = [t.detach().clone().requires_grad_(True) for t in As]
    b = [t.detach().clone().requires_grad_(True) for t in Bs]
    got = LoRA_MLP.apply(x, Ws[0], None, a[0], b[0], scale[0],
                         Ws[1], None, a[1], b[1], scale[1],
                         Ws[2], None, a[2], b[2], scale[2],
                         fwd, bwd, False)
    cc.close_dtype(name + " forward", got, want.detach(), dtype, TOL)
    got.backward(dY)
    cc.close_dtype(name + " dX", x.grad, x32.grad, dtype, TOL)
    for i, part in enumerate(("gate", "up", "down")):
        cc.close_dtype("%s d%sA" % (name, part), a[i].grad, a32[i].grad, dtype, TOL)
        cc.close_dtype("%s d%sB" % (name, part), b[i].grad, b32[i].grad, dtype, TOL)


torch.manual_seed(3407)
for dtype in (torch.float32, torch.float16):
    case("swiglu", F.silu, swiglu_fg_kernel, swiglu_DWf_DW_dfg_kernel, dtype)
    case("geglu", F.gelu, geglu_exact_forward_kernel, geglu_exact_backward_kernel, dtype)

cc.finish()
