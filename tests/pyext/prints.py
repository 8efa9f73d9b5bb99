# Kernel prints go to stdout in order with Python's own: tl.device_print
# in Triton's format, print in a kernel, tl.static_print while compiling.
import torch
import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()


@triton.jit
def show(x_ptr, n, BLOCK: tl.constexpr):
    tl.static_print("compiling with BLOCK =", BLOCK)
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=-1)
    tl.device_print("x", x)


x = torch.tensor([10, 20, 30], dtype=torch.int32, device=DEVICE)
print("before")
show[(2,)](x, 3, BLOCK=4)
print("between")
show[(1,)](x, 3, BLOCK=4)
print("after")
