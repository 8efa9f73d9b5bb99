# Tensor descriptors made in a kernel need scratch from the allocator of
# triton.set_allocator, as Triton's launcher gets it: without one the launch
# raises Triton's RuntimeError; with one, it is called with 128 bytes a
# descriptor a program, alignment 128 and stream 0.
import torch
import triton
import triton.language as tl


@triton.jit
def copy2d(x_ptr, y_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    xd = tl.make_tensor_descriptor(x_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    yd = tl.make_tensor_descriptor(y_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    pid = tl.program_id(0)
    yd.store([pid * BM, 0], xd.load([pid * BM, 0]) * 2)


DEVICE = triton.runtime.driver.active.get_active_torch_device()
x = torch.arange(64, dtype=torch.float32, device=DEVICE).reshape(8, 8)
y = torch.zeros_like(x)
try:
    copy2d[(2,)](x, y, 8, 8, BM=4, BN=8)
except Exception as e:
    print(type(e).__name__, e)


def alloc(size, align, stream):
    print("scratch:", size, align, stream)
    return torch.empty(size, dtype=torch.int8, device=DEVICE)


triton.set_allocator(alloc)
copy2d[(2,)](x, y, 8, 8, BM=4, BN=8)
print(y[1].tolist(), y[7].tolist())
