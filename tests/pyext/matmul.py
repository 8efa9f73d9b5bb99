# A blocked matmul with @triton.autotune over two configs (key M, N, K)
# and a heuristic: checked against torch.matmul; the tuned config is
# one of the two, and a second launch with the same key reuses it.
import torch
import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()
CONFIGS = [triton.Config({"BM": 16, "BN": 16, "BK": 16}, num_warps=4),
           triton.Config({"BM": 32, "BN": 32, "BK": 16}, num_warps=4)]


@triton.autotune(configs=CONFIGS, key=["M", "N", "K"], warmup=1, rep=1)
@triton.heuristics({"EVEN_K": lambda args: args["K"] % args["BK"] == 0})
@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn, scm, scn,
                  BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                  EVEN_K: tl.constexpr):
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    rm = pm * BM + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        kk = k * BK + rk
        a_mask = (rm[:, None] < M) & (kk[None, :] < K)
        b_mask = (kk[:, None] < K) & (rn[None, :] < N)
        if EVEN_K:
            a_mask = rm[:, None] < M
            b_mask = rn[None, :] < N
        a = tl.load(a_ptr + rm[:, None] * sam + kk[None, :] * sak, mask=a_mask, other=0.0)
        b = tl.load(b_ptr + kk[:, None] * sbk + rn[None, :] * sbn, mask=b_mask, other=0.0)
        acc += tl.dot(a, b, input_precision="ieee")
    c_mask = (rm[:, None] < M) & (rn[None, :] < N)
    tl.store(c_ptr + rm[:, None] * scm + rn[None, :] * scn, acc, mask=c_mask)


def matmul(a, b):
    M, K = a.shape
    K, N = b.shape
    c = torch.empty((M, N), device=a.device, dtype=torch.float32)
    grid = lambda meta: (triton.cdiv(M, meta["BM"]), triton.cdiv(N, meta["BN"]))
    matmul_kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                        c.stride(0), c.stride(1))
    return c


torch.manual_seed(0)
for M, N, K in ((40, 24, 32), (33, 17, 20)):
    a = torch.randn(M, K, device=DEVICE)
    b = torch.randn(K, N, device=DEVICE)
    c = matmul(a, b)
    print((M, N, K), "close to torch.matmul:", torch.allclose(c, a @ b, atol=1e-4, rtol=1e-4))
    print("tuned to one of the configs:", matmul_kernel.best_config in CONFIGS)
    c2 = matmul(a, b)
    print("same again:", torch.equal(c, c2))
# a transposed operand: strides, not a copy
a = torch.randn(16, 48, device=DEVICE).t()
b = torch.randn(16, 8, device=DEVICE)
print("transposed a:", torch.allclose(matmul(a, b), a @ b, atol=1e-4, rtol=1e-4))
print("keys tuned:", len(matmul_kernel.cache))
