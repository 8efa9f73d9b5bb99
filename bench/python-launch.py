# python-launch.py - benchmark of python3 -m tritsim (doc/python.md): the
# same file runs under `python3 -m tritsim`, under Triton's interpreter
# (`TRITON_INTERPRET=1 python3 bench/python-launch.py`, with real Triton)
# and under `tritsim run`, so the three can be compared line by line.
# Prints `bench<TAB>workload<TAB>ms` lines:
#   launch    host time of one launch of a cached one-program kernel (the
#             best of 2000 launches: what Python and the launcher cost)
#   add       vector add of 2^20 fp32 (do_bench, the median)
#   softmax   row softmax of 1024x1024 fp32 (do_bench, the median)
import time

import torch
import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask),
             mask=mask)


@triton.jit
def softmax_kernel(out_ptr, in_ptr, stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(in_ptr + row * stride + cols, mask=cols < n_cols, other=-float("inf"))
    num = tl.exp(x - tl.max(x, axis=0))
    tl.store(out_ptr + row * stride + cols, num / tl.sum(num, axis=0), mask=cols < n_cols)


x = torch.ones(16, device=DEVICE)
z = torch.empty_like(x)
add_kernel[(1,)](x, x, z, 16, BLOCK=16)
best = float("inf")
for _ in range(2000):
    t = time.perf_counter()
    add_kernel[(1,)](x, x, z, 16, BLOCK=16)
    best = min(best, time.perf_counter() - t)
print("bench\tlaunch\t%.4f" % (best * 1000))

n = 1 << 20
a = torch.rand(n, device=DEVICE)
b = torch.rand(n, device=DEVICE)
c = torch.empty_like(a)
ms = triton.testing.do_bench(lambda: add_kernel[(triton.cdiv(n, 1024),)](a, b, c, n, BLOCK=1024),
                             quantiles=[0.5])
print("bench\tadd\t%.4f" % ms)

m = torch.randn(1024, 1024, device=DEVICE)
o = torch.empty_like(m)
ms = triton.testing.do_bench(lambda: softmax_kernel[(1024,)](o, m, m.stride(0), 1024, BLOCK=1024),
                             quantiles=[0.5])
print("bench\tsoftmax\t%.4f" % ms)
