# attorch's GLU (attorch/glu_layer.py) with each of its activations: the
# input split in two halves a, b along the last dim, a * act(b); against
# the same in plain PyTorch (torch.nn.functional), forward and backward,
# fp32, tolerance 1e-3 as the project's test.
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import corpus_check as cc

cc.use_project("attorch")
import torch
import torch.nn.functional as F
import attorch

acts = {
    "sigmoid": torch.sigmoid, "logsigmoid": F.logsigmoid, "tanh": torch.tanh,
    "relu": F.relu, "gelu": F.gelu, "silu": F.silu, "relu6": F.relu6,
    "hardsigmoid": F.hardsigmoid, "hardtanh": F.hardtanh, "hardswish": F.hardswish,
    "selu": F.selu, "mish": F.mish, "softplus": F.softplus, "softsign": F.softsign,
    "tanhshrink": F.tanhshrink,
    "leaky_relu_0.01": lambda v: F.leaky_relu(v, 0.01),
    "elu_1": lambda v: F.elu(v, 1.0), "celu_1": lambda v: F.celu(v, 1.0),
    "hardshrink_0.5": lambda v: F.hardshrink(v, 0.5),
    "softshrink_0.5": lambda v: F.softshrink(v, 0.5),
}
for name, fn in acts.items():
    for shape in ((96,), (4, 64), (2, 3, 38)):
        cc.seed(0)
        x = torch.randn(shape, device="cuda") * 2
        x1 = x.clone().requires_grad_(True)
        x2 = x.clone().requires_grad_(True)
        got = attorch.GLU(act_func=name)(x2)
        a, b = x1.chunk(2, dim=-1)
        want = a * fn(b)
        tag = "%s %s" % (name, shape)
        cc.close("y " + tag, got, want, 1e-3, 1e-3)
        dy = torch.randn_like(want)
        got.backward(dy)
        want.backward(dy)
        cc.close("dx " + tag, x2.grad, x1.grad, 1e-3, 1e-3)
cc.finish()
