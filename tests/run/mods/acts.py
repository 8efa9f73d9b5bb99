# acts.py - @triton.jit helpers and a constant that kernels of another
# module reach through this module's name (acts.relu2(x), acts.SCALE)
import triton
import triton.language as tl

SCALE = tl.constexpr(3.0)


@triton.jit
def relu2(x):
    r = tl.where(x >= 0, x, 0.0)
    return r * r


@triton.jit
def scaled(x):
    # a helper calling a helper of its own module by its plain name
    return relu2(x) * SCALE
