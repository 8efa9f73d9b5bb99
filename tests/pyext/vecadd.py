# Vector addition (Triton's tutorial 01): a masked kernel over a length
# that is no multiple of the block, checked against torch's own x + y.
import torch
import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(axis=0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x + y, mask=mask)


def add(x, y):
    out = torch.empty_like(x)
    n = out.numel()
    grid = lambda meta: (triton.cdiv(n, meta["BLOCK"]),)
    add_kernel[grid](x, y, out, n, BLOCK=256)
    return out


torch.manual_seed(0)
for size in (1, 98, 1000, 4097):
    x = torch.rand(size, device=DEVICE)
    y = torch.rand(size, device=DEVICE)
    out = add(x, y)
    print(size, "equal to torch:", torch.equal(out, x + y))

# ints, and a strided view (every other element) read in place
a = torch.arange(0, 20, dtype=torch.int32, device=DEVICE)
b = torch.full((10,), 100, dtype=torch.int32, device=DEVICE)
c = torch.zeros(10, dtype=torch.int32, device=DEVICE)
add_kernel[(1,)](a[::2].contiguous(), b, c, 10, BLOCK=16)
print(c.tolist())

# arguments that share one storage: in place, and two views of one tensor
d = torch.arange(8, dtype=torch.float32, device=DEVICE)
want = d.clone()
want[4:] = want[:4] * 2
add_kernel[(1,)](d[:4], d[:4], d[4:], 4, BLOCK=4)
print("views of one storage:", torch.equal(d, want), d.tolist())
add_kernel[(1,)](d, d, d, 8, BLOCK=8)
print("in place:", torch.equal(d, want * 2))
