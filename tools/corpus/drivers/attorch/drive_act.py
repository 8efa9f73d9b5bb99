# attorch's activation layers (attorch/act_layers.py: 20 of them, each a
# torch.nn subclass with an optional fused dropout) against the torch.nn
# module of the same name, forward and backward, fp32, at the project's
# tolerances (1e-3).  With drop_p = 0.5 the reference is the module's
# output with attorch's dropped elements zeroed and the rest scaled by 2.
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import corpus_check as cc

cc.use_project("attorch")
import torch
from torch import nn
import attorch

names = ["Sigmoid", "LogSigmoid", "Tanh", "ReLU", "GELU", "SiLU", "ReLU6", "Hardsigmoid",
         "Hardtanh", "Hardswish", "SELU", "Mish", "Softplus", "Softsign", "Tanhshrink",
         "LeakyReLU", "ELU", "CELU", "Hardshrink", "Softshrink"]
for name in names:
    for shape in ((96,), (4, 50), (2, 3, 17)):
        for drop_p in (0.0, 0.5):
            if drop_p and len(shape) != 2:
                continue
            cc.seed(0)
            x = torch.randn(shape, device="cuda") * 3
            dy = torch.randn(shape, device="cuda")
            x1 = x.clone().requires_grad_(True)
            x2 = x.clone().requires_grad_(True)
            got = getattr(attorch, name)(drop_p=drop_p)(x2)
            want = getattr(nn, name)()(x1)
            if drop_p:
                want = torch.where(got == 0, torch.zeros_like(want), want / (1 - drop_p))
            tag = "%s %s drop_p=%g" % (name, shape, drop_p)
            cc.close("y " + tag, got, want, 1e-3, 1e-3)
            got.backward(dy)
            want.backward(dy)
            cc.close("dx " + tag, x2.grad, x1.grad, 1e-3, 1e-3)
# the points where the piecewise ones switch
for name, points in (("Hardshrink", [-0.5, 0.5]), ("Softshrink", [-0.5, 0.5]),
                     ("Hardswish", [-3.0, 3.0]), ("Hardsigmoid", [-3.0, 3.0]),
                     ("Hardtanh", [-1.0, 1.0]), ("ReLU6", [0.0, 6.0])):
    x1 = torch.tensor(points, device="cuda", requires_grad=True)
    x2 = torch.tensor(points, device="cuda", requires_grad=True)
    got = getattr(attorch, name)()(x2)
    want = getattr(nn, name)()(x1)
    cc.close("y %s at %s" % (name, points), got, want, 1e-3, 1e-3)
    got.backward(torch.ones_like(got))
    want.backward(torch.ones_like(want))
    if name == "Hardswish":
        # PyTorch itself differs here: its CPU kernel gives (x / 3 + 1/2) at
        # both ends (-0.5, 1.5), the CUDA kernel of PyTorch 2.11 the outer
        # pieces' 0 and 1; attorch computes the former.  Either passes.
        cpu_rule = torch.tensor([-0.5, 1.5], device="cuda")
        if bool(((x2.grad - cpu_rule).abs() <= 1e-3).all()):
            cc.check("Hardswish at -3, 3", True)
            continue
    cc.close("dx %s at %s" % (name, points), x2.grad, x1.grad, 1e-3, 1e-3)
cc.finish()
