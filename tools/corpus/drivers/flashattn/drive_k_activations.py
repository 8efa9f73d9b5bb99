# flash-attention's activation helpers (flash_attn/ops/triton/
# k_activations.py: relu, leaky_relu, squared_relu, gelu_approx, gelu and
# their gradients, @triton.jit functions meant to be inlined in other
# kernels) called from a small kernel of this driver that picks one by a
# constexpr string, as the project's linear kernels do, on float32 values
# (loaded from fp32 or fp16 tensors); against torch's functions and
# autograd's derivatives.  gelu_approx and gelu come last: at this commit
# gelu_approx reads the plain module global _sqrt2pi, which Triton 3
# refuses unless TRITON_ALLOW_NON_CONSTEXPR_GLOBALS=1, and gelu calls
# tl.libdevice.erf, which Triton 3 no longer has (tl.math.erf).
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import corpus_check as cc

cc.use_project("flashattn")
import torch
import torch.nn.functional as F
import triton
import triton.language as tl
from flash_attn.ops.triton import k_activations as ka


@triton.jit
def apply_kernel(X, Y, N, ACT: tl.constexpr, GRAD: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < N
    x = tl.load(X + offs, mask=m, other=0.0).to(tl.float32)
    if ACT == "relu":
        y = ka.relu_grad(x) if GRAD else ka.relu(x)
    elif ACT == "leaky_relu":
        y = ka.leaky_relu_grad(x) if GRAD else ka.leaky_relu(x)
    elif ACT == "squared_relu":
        y = ka.squared_relu_grad(x) if GRAD else ka.squared_relu(x)
    elif ACT == "gelu_approx":
        y = ka.gelu_approx_grad(x) if GRAD else ka.gelu_approx(x)
    else:
        y = ka.gelu_grad(x) if GRAD else ka.gelu(x)
    tl.store(Y + offs, y.to(Y.dtype.element_ty), mask=m)


def run(act, grad, x):
    y = torch.empty_like(x)
    apply_kernel[(triton.cdiv(x.numel(), 128),)](x, y, x.numel(), ACT=act, GRAD=grad, BLOCK=128)
    return y


refs = {
    "relu": torch.relu,
    "leaky_relu": lambda v: F.leaky_relu(v, 0.01),
    "squared_relu": lambda v: torch.relu(v) ** 2,
    "gelu_approx": lambda v: F.gelu(v, approximate="tanh"),
    "gelu": F.gelu,
}
cc.seed(0)
for act, fn in refs.items():
    for dtype, atol, rtol in ((torch.float32, 1e-5, 1e-5), (torch.float16, 1e-3, 1e-3)):
        x = (torch.randn(300, device="cuda") * 3).to(dtype)
        xr = x.float().requires_grad_(True)
        want = fn(xr)
        cc.close("%s %s" % (act, dtype), run(act, False, x).float(), want.to(dtype).float(), atol, rtol)
        want.backward(torch.ones_like(want))
        d = xr.grad
        if act in ("relu", "squared_relu"):
            # the helpers count x = 0 in the upper piece
            d = torch.where(xr == 0, torch.ones_like(d) if act == "relu" else torch.zeros_like(d), d)
        cc.close("%s grad %s" % (act, dtype), run(act, True, x).float(), d.to(dtype).float(), atol, rtol)
cc.finish()
