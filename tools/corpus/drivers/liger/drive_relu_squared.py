# Liger-Kernel's squared ReLU (liger_kernel/ops/relu_squared.py,
# LigerReLUSquaredFunction): relu(x)^2 against plain PyTorch, forward and
# backward, on 2-D, 3-D and odd shapes.
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import corpus_check as cc

cc.use_project("liger", "src")
import torch
from liger_kernel.ops.relu_squared import LigerReLUSquaredFunction

cc.seed(8)
for shape in ((4, 64), (2, 8, 64), (3, 7, 123), (1000,)):
    x = torch.randn(*shape, device="cuda")
    dy = torch.randn(*shape, device="cuda")
    x1 = x.clone().requires_grad_(True)
    x2 = x.clone().requires_grad_(True)
    want = torch.relu(x1) ** 2
    want.backward(dy)
    got = LigerReLUSquaredFunction.apply(x2)
    got.backward(dy)
    cc.close("y %s" % (shape,), got, want, 1e-5, 1e-5)
    cc.close("dx %s" % (shape,), x2.grad, x1.grad, 1e-5, 1e-5)
cc.finish()
