# Under Triton's interpreter (TRITON_INTERPRET=1 when the kernel is made)
# a kernel may call plain Python functions, as the lecture's do: one given
# tiles is inlined (it prints in each program), one given constants runs
# once, on the host, while the kernel compiles.
import os

os.environ["TRITON_INTERPRET"] = "1"

import torch
import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()


def show(pid, txt):
    """Inlined in each program: it prints, and is given a tile."""
    if pid == 1:
        print(txt)


def block_for(n):
    return 4 if n < 10 else 8


@triton.jit
def copy_k(x_ptr, z_ptr, n, bs: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * block_for(6) + tl.arange(0, bs)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask)
    tl.store(z_ptr + offs, x, mask)
    show(pid, f"pid = {pid} | offs = {offs}, x = {x}")


x = torch.arange(1, 9, device=DEVICE)
z = torch.zeros_like(x)
copy_k[(2,)](x, z, 8, bs=4)
print(torch.equal(x, z), z.tolist())
