# Liger-Kernel's embedding lookup (liger_kernel/ops/experimental/embedding.py,
# LigerEmbeddingFunction; its backward adds rows with atomics) against
# torch.nn.functional.embedding, forward and backward, repeated indices
# included.
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import corpus_check as cc

cc.use_project("liger", "src")
import torch
import torch.nn.functional as F
from liger_kernel.ops.experimental.embedding import LigerEmbeddingFunction

cc.seed(11)
for num, dim, idx_shape in ((10, 8, (2, 5)), (100, 64, (3, 7)), (37, 130, (20,))):
    table = torch.randn(num, dim, device="cuda")
    idx = torch.randint(0, num, idx_shape, device="cuda")
    dy = torch.randn(*idx_shape, dim, device="cuda")
    w1 = table.clone().requires_grad_(True)
    w2 = table.clone().requires_grad_(True)
    want = F.embedding(idx, w1)
    want.backward(dy)
    got = LigerEmbeddingFunction.apply(w2, idx)
    got.backward(dy)
    tag = "(%d, %d) indices %s" % (num, dim, idx_shape)
    cc.close("y " + tag, got, want, 1e-6, 1e-5)
    cc.close("dw " + tag, w2.grad, w1.grad, 1e-6, 1e-5)
cc.finish()
