# Pointers made from integers: a kernel that sums rows of several
# matrices it finds through a table of their data_ptr() addresses (as
# Triton's grouped GEMM finds its matrices), then a read one element past
# a matrix's storage, which the check names as a wild pointer.
import torch
import triton
import triton.language as tl

DEVICE = "cpu"


@triton.jit
def row_sums(table_ptr, sizes_ptr, out_ptr, BLOCK: tl.constexpr):
    g = tl.program_id(0)
    n = tl.load(sizes_ptr + g)
    base = tl.load(table_ptr + g).to(tl.pointer_type(tl.float32))
    offs = tl.arange(0, BLOCK)
    x = tl.load(base + offs, mask=offs < n, other=0.0)
    tl.store(out_ptr + g, tl.sum(x, axis=0))


mats = [torch.arange(k, dtype=torch.float32, device=DEVICE) + 1 for k in (3, 5, 8)]
table = torch.tensor([m.data_ptr() for m in mats], dtype=torch.int64, device=DEVICE)
sizes = torch.tensor([m.numel() for m in mats], dtype=torch.int32, device=DEVICE)
out = torch.zeros(3, device=DEVICE)
row_sums[(3,)](table, sizes, out, BLOCK=8)
print("sums:", out.tolist())
print("as torch:", [m.sum().item() for m in mats])

# one element too many for the first matrix
sizes[0] = 4
try:
    row_sums[(3,)](table, sizes, out, BLOCK=8)
except Exception as e:
    print(type(e).__name__)
    print(str(e).splitlines()[0])
