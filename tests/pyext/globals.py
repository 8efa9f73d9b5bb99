# A kernel reads a module's globals only when they are tl.constexpr objects
# (or dtypes, modules, jit functions), as Triton 3 compiles them: a plain
# number is refused when the kernel compiles, naming it, since its value
# would be baked into the kernel and a later change missed.  Under Python
# the refusal is an exception the program catches.
import torch
import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()
HALF = tl.constexpr(0.5)
SCALE = 3.0


@triton.jit
def ok_kernel(X, Y):
    i = tl.arange(0, 4)
    tl.store(Y + i, tl.load(X + i) * HALF)


@triton.jit
def bad_kernel(X, Y):
    i = tl.arange(0, 4)
    tl.store(Y + i, tl.load(X + i) * SCALE)


x = torch.arange(4.0, device=DEVICE)
y = torch.zeros_like(x)
ok_kernel[(1,)](x, y)
print(y.tolist())
try:
    bad_kernel[(1,)](x, y)
    print("bad_kernel ran")
except Exception as e:
    print("refused:", "'SCALE'" in str(e), "tl.constexpr" in str(e))
print(y.tolist())
