# kernl's linear layer (kernl/implementations/linear_layer.py: a Triton
# matmul with bias and activation fused) against
# torch.nn.functional.linear followed by the activation, fp32 and fp16,
# contiguous and transposed input, at the project's tolerances (atol and
# rtol 1e-1).  At this commit the module imports triton.ops (its matmul
# performance model), which Triton 3 removed, so the driver stops at the
# import under Triton 3.x.
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import corpus_check as cc

cc.use_project("kernl", "src")
import torch
import torch.nn.functional as F
from kernl.implementations.linear_layer import linear_layer

acts = {"": lambda v: v, "tanh": torch.tanh, "gelu": F.gelu, "relu": torch.relu}
cc.seed(0)
for batch, M, N, K in ((1, 8, 8, 8), (2, 16, 32, 64)):
    for contiguous in (True, False):
        for act, fn in acts.items():
            x = torch.randn(batch, K, M, device="cuda").mT
            if contiguous:
                x = x.contiguous()
            w = torch.randn(N, K, device="cuda")
            b = torch.randn(N, device="cuda")
            want = fn(F.linear(x, w, b))
            for dtype in (torch.float32, torch.float16):
                got = linear_layer(x.to(dtype), w.to(dtype), b.to(dtype), act)
                cc.close("(%d, %d, %d, %d) %s contiguous=%s act=%r" % (batch, M, N, K, dtype,
                         contiguous, act), got.float(), want, 1e-1, 1e-1)
cc.finish()
