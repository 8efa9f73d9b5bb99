# A kernel that forgets its mask reads past the end of its tensor: the
# launch raises tritsim.KernelError with tritsim's diagnostic (file,
# line, column, program id, lane, element), which Python can catch.
import torch
import triton
import triton.language as tl


@triton.jit
def copy_kernel(x_ptr, y_ptr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(y_ptr + offs, x)


x = torch.arange(10, dtype=torch.float32)
y = torch.zeros(10, dtype=torch.float32)
try:
    copy_kernel[(3,)](x, y, BLOCK=4)
except RuntimeError as e:
    print(type(e).__name__)
    print(e)
# the programs before the failing one did their work
print(y.tolist())
