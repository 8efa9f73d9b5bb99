# kern.py - kernels defined in an imported module: their globals are this
# module's (BLOCK, the helper), not those of the program that launches them
import triton
import triton.language as tl

BLOCK = 4
OFFSET = tl.constexpr(100.0)   # a kernel reads only constexpr globals


@triton.jit
def _shift(x):
    return x + OFFSET


@triton.jit
def add_offset_kernel(x_ptr, out_ptr, n, B: tl.constexpr):
    offs = tl.program_id(0) * B + tl.arange(0, B)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, _shift(x), mask=mask)


def add_offset(x, out):
    n = x.numel()
    add_offset_kernel[(triton.cdiv(n, BLOCK),)](x, out, n, B=BLOCK)
    return out
