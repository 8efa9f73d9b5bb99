# kernl's batched matmul (kernl/implementations/batched_matmul.py, an
# autotuned Triton kernel, fp16 results) against torch.matmul, fp16 as the
# project's test (atol 1e-2; the reference is the float32 product, so
# rtol 1e-3 allows for the kernel's fp16 rounding of its result).  K is 24, as in the test, or a multiple of
# the configurations' BLOCK_K (32): the kernel masks k only against the
# first block (its comment says K must divide by BLOCK_K), so another K
# reads past each row.
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import corpus_check as cc

cc.use_project("kernl", "src")
import torch
from kernl.implementations.batched_matmul import batched_matmul

cc.seed(0)
for batch, m, n, k in ((1, 24, 24, 24), (3, 32, 24, 24), (2, 24, 32, 64), (2, 40, 70, 32)):
    a = torch.randn(batch, m, k, device="cuda", dtype=torch.float16)
    b = torch.randn(batch, k, n, device="cuda", dtype=torch.float16)
    cc.close("(%d, %d, %d, %d)" % (batch, m, n, k), batched_matmul(a, b).float(),
             torch.matmul(a.float(), b.float()), 1e-2, 1e-3)
cc.finish()
