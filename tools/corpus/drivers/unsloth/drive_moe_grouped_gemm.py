# drive_moe_grouped_gemm.py - Unsloth's MoE grouped GEMM
# (unsloth/kernels/moe/grouped_gemm/interface.py): grouped_gemm, one matmul
# per expert over the tokens routed to it, with explicit kernel configs (no
# TMA, no autotuning).  The first GEMM of an MoE MLP gathers the tokens
# into expert order in the kernel (permute_x); the second scatters the
# result back to token order (permute_y).  Forward, and the backward
# kernels for dX and dW through autograd.  Routing as Unsloth's tests do
# it: top-k experts per token, a stable argsort of the expert ids gives
# the gather order, their histogram the tokens per expert.  Reference:
# the per-expert matmuls in plain PyTorch with autograd; bfloat16 (the
# dtype of Unsloth's own tests) and float32, whose tl.dot runs in TF32 by
# Triton's default (input_precision), hence its tolerance of 1e-2.
# Last line: RESULT ok | RESULT fail: <what differed>.
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import corpus_check as cc

cc.use_project("unsloth_zoo")
cc.use_project("unsloth")

import torch

from unsloth.kernels.moe.grouped_gemm.interface import grouped_gemm
from unsloth.kernels.moe.grouped_gemm.kernels.tuning import (
    KernelConfigBackward_dW,
    KernelConfigBackward_dX,
    KernelConfigForward,
)

DEVICE = "cuda"
TOL = {torch.float32: (1e-2, 1e-2), torch.bfloat16: (3e-2, 3e-2)}


def per_expert(X, W, counts):
    # X in expert order (total, K), W (E, N, K): each expert's rows @ W[e].T
    outs, start = [], 0
    for e, n in enumerate(counts):
        outs.append(X[start:start + n] @ W[e].t())
        start += n
    return torch.cat(outs, 0)


def configs(permute_x, permute_y):
    common = dict(BLOCK_SIZE_M=32, BLOCK_SIZE_N=32, BLOCK_SIZE_K=32, num_warps=4,
                  num_stages=2, permute_x=permute_x, permute_y=permute_y)
    return (KernelConfigForward(**common), KernelConfigBackward_dX(**common),
            KernelConfigBackward_dW(**common))


def case(dtype, first):
    tokens, topk, E, K, N = 12, 2, 4, 64, 96   # the backward kernels need N % BLOCK_SIZE_N == 0
    scores = torch.rand(tokens, E, device=DEVICE)
    ids = scores.topk(topk, dim=-1).indices                  # distinct experts per token
    flat = ids.reshape(-1)
    gather = torch.argsort(flat, stable=True)
    counts = torch.bincount(flat, minlength=E).to(torch.int32)
    clist = counts.tolist()
    name = "first gemm (permute_x)" if first else "second gemm (permute_y)"

    if first:
        X = torch.randn(tokens, K, device=DEVICE, dtype=dtype)
    else:
        X = torch.randn(tokens * topk, K, device=DEVICE, dtype=dtype)   # expert order
    W = torch.randn(E, N, K, device=DEVICE, dtype=dtype) / 8
    out_rows = tokens * topk
    dY = torch.randn(out_rows, N, device=DEVICE, dtype=dtype)

    x32 = X.detach().float().clone().requires_grad_(True)
    w32 = W.detach().float().clone().requires_grad_(True)
    xin = x32[gather // topk] if first else x32
    y = per_expert(xin, w32, clist)
    if not first:
        y = y[torch.argsort(gather)]                         # back to token order
    y.backward(dY.float())

    fwd, bdx, bdw = configs(first, not first)
    x = X.detach().clone().requires_grad_(True)
    w = W.detach().clone().requires_grad_(True)
    got = grouped_gemm(x, w, counts, topk, gather_indices=gather, permute_x=first,
                       permute_y=not first, kernel_config_fwd=fwd,
                       kernel_config_bwd_dX=bdx, kernel_config_bwd_dW=bdw,
                       autotune=False, is_first_gemm=first)
    cc.close_dtype(name + " forward", got, y.detach(), dtype, TOL)
    got.backward(dY)
    cc.close_dtype(name + " dX", x.grad, x32.grad, dtype, TOL)
    cc.close_dtype(name + " dW", w.grad, w32.grad, dtype, TOL)


torch.manual_seed(3407)
for dtype in (torch.float32, torch.bfloat16):
    case(dtype, True)
    case(dtype, False)

cc.finish()
