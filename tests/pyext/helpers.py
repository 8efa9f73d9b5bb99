# A helper module of features.py: a @triton.jit function in another
# module, with a constexpr global of its own, which a kernel calls.
import triton
import triton.language as tl

SCALE = tl.constexpr(3)


@triton.jit
def scaled(x):
    return x * SCALE
