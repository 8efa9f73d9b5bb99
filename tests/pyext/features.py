# What kernels see of the user's Python: helpers from another module (with
# that module's own globals), tl.constexpr and plain globals, libdevice and
# tl.math, a kernel defined inside a function, None and bool arguments, an
# int argument equal to 1, and the host-side triton.testing helpers.
import torch
import triton
import triton.language as tl
from triton.language.extra import libdevice

from helpers import scaled

DEVICE = triton.runtime.driver.active.get_active_torch_device()
OFFSET = tl.constexpr(0.5)   # (a plain global is refused, as Triton 3 refuses it)
BLOCK = tl.constexpr(64)


@triton.jit
def features(x_ptr, out_ptr, n, bias_ptr, USE_EXP: tl.constexpr, flag):
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    y = scaled(x) + OFFSET
    if USE_EXP:
        y = libdevice.exp(y) - tl.math.exp(y) + y
    if bias_ptr is not None:
        y += tl.load(bias_ptr + offs, mask=mask, other=0.0)
    if flag:
        y = -y
    tl.store(out_ptr + offs, y, mask=mask)


x = torch.linspace(-1, 1, 50, device=DEVICE)
out = torch.empty_like(x)
features[(1,)](x, out, 50, None, True, False)
print("helper, globals, libdevice:", torch.allclose(out, x * 3 + 0.5))
bias = torch.ones(50, device=DEVICE)
features[(1,)](x, out, 50, bias, False, True)
print("bias and flag:", torch.allclose(out, -(x * 3 + 0.5 + 1)))


def make_kernel():
    @triton.jit
    def inner(out_ptr, n, K: tl.constexpr):
        offs = tl.arange(0, 16)
        tl.store(out_ptr + offs, offs * K + n, mask=offs < 10)
    return inner


k = make_kernel()
o = torch.zeros(10, dtype=torch.int32, device=DEVICE)
k[(1,)](o, 1, K=2)      # n == 1 is specialized as the constant 1
print("nested kernel:", o.tolist())
k[(1,)](o, 5, K=2)
print("n = 5:", o.tolist())

ms = triton.testing.do_bench(lambda: k[(1,)](o, 5, K=2), warmup=1, rep=5)
print("do_bench gives a time:", isinstance(ms, float) and ms > 0)
triton.testing.assert_close(out, -(x * 3 + 0.5 + 1))
try:
    triton.testing.assert_close(out, out + 1)
    print("assert_close missed a difference")
except AssertionError:
    print("assert_close raises on a difference")

# launches from two Python threads at once (each launch runs without the
# GIL, one at a time on the backend)
import threading

results = []


def worker(seed):
    a = torch.full((50,), float(seed), device=DEVICE)
    o2 = torch.empty_like(a)
    for _ in range(20):
        features[(1,)](a, o2, 50, None, False, False)
    results.append(torch.equal(o2, a * 3 + 0.5))


threads = [threading.Thread(target=worker, args=(s,)) for s in range(4)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print("threads:", results == [True] * 4)
