# attorch's Linear (attorch/linear_layer.py: a Triton matmul with the bias
# and an activation fused; its weight is stored (in, out)) against
# torch.nn.Linear followed by the activation, forward and backward (input,
# weight, bias), fp32, tolerance 1e-3 as the project's test.  attorch asks
# tl.dot for TF32 where the GPU has it (compute capability 8 and later),
# which can put the sums of long rows just outside that tolerance.
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import corpus_check as cc

cc.use_project("attorch")
import torch
from torch import nn
import torch.nn.functional as F
import attorch

acts = {None: lambda v: v, "relu": F.relu, "gelu": F.gelu, "silu": F.silu,
        "tanh": torch.tanh, "leaky_relu_0.01": lambda v: F.leaky_relu(v, 0.01)}
cases = [((4, 32), 16, True, None), ((4, 32), 48, True, "gelu"), ((2, 3, 20), 16, False, "relu"),
         ((8, 64), 96, True, "silu"), ((5, 17), 33, False, "tanh"),
         ((3, 40), 24, True, "leaky_relu_0.01")]
for shape, out_dim, bias, act in cases:
    cc.seed(0)
    x = torch.randn(shape, device="cuda")
    ref = nn.Linear(shape[-1], out_dim, bias=bias, device="cuda")
    mine = attorch.Linear(shape[-1], out_dim, bias=bias, act_func=act)
    with torch.no_grad():
        mine.weight.copy_(ref.weight.T)
        if bias:
            mine.bias.copy_(ref.bias)
    x1 = x.clone().requires_grad_(True)
    x2 = x.clone().requires_grad_(True)
    got = mine(x2)
    want = acts[act](ref(x1))
    tag = "%s out=%d bias=%s act=%s" % (shape, out_dim, bias, act)
    cc.close("y " + tag, got, want, 1e-3, 1e-3)
    dy = torch.randn_like(want)
    got.backward(dy)
    want.backward(dy)
    cc.close("dx " + tag, x2.grad, x1.grad, 1e-3, 1e-3)
    cc.close("dw " + tag, mine.weight.grad, ref.weight.grad.T, 1e-3, 1e-3)
    if bias:
        cc.close("db " + tag, mine.bias.grad, ref.bias.grad, 1e-3, 1e-3)
cc.finish()
