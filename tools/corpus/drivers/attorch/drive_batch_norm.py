# attorch's BatchNorm1d and BatchNorm2d (attorch/batch_norm_layer.py, with
# an optional residual added before a fused activation) against
# torch.nn.BatchNorm1d/2d followed by the activation, forward and backward
# (input, residual, weight, bias), the running statistics, then in eval
# mode; fp32 at the project's tolerances.
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import corpus_check as cc

cc.use_project("attorch")
import torch
from torch import nn
import torch.nn.functional as F
import attorch

acts = {None: lambda v: v, "relu": F.relu, "gelu": F.gelu, "sigmoid": torch.sigmoid,
        "leaky_relu_0.01": lambda v: F.leaky_relu(v, 0.01)}
cases = [((4, 6), "relu", False, True, True), ((8, 3, 10), None, True, True, True),
         ((2, 4, 5, 5), "gelu", True, False, True), ((3, 5, 7), "sigmoid", False, True, False),
         ((4, 3, 6, 2), "leaky_relu_0.01", True, True, True)]
for shape, act, residual, affine, track in cases:
    bn = "BatchNorm2d" if len(shape) == 4 else "BatchNorm1d"
    cc.seed(0)
    x = torch.randn(shape, device="cuda")
    r = torch.randn(shape, device="cuda")
    mine = getattr(attorch, bn)(shape[1], eps=1e-5, momentum=0.2, affine=affine,
                                track_running_stats=track, act_func=act)
    ref = getattr(nn, bn)(shape[1], eps=1e-5, momentum=0.2, affine=affine,
                          track_running_stats=track, device="cuda")
    if affine:
        with torch.no_grad():
            ref.weight.copy_(torch.randn(shape[1], device="cuda"))
            ref.bias.copy_(torch.randn(shape[1], device="cuda"))
            mine.weight.copy_(ref.weight)
            mine.bias.copy_(ref.bias)
    l1 = [v.clone().requires_grad_(True) for v in (x, r)]
    l2 = [v.clone().requires_grad_(True) for v in (x, r)]
    tag = "%s %s act=%s residual=%s affine=%s track=%s" % (bn, shape, act, residual, affine, track)
    if residual:
        got = mine(l2[0], l2[1])
        want = acts[act](ref(l1[0]) + l1[1])
    else:
        got = mine(l2[0])
        want = acts[act](ref(l1[0]))
    cc.close("y " + tag, got, want, 1e-5, 1.3e-6)
    if track:
        cc.close("running_mean " + tag, mine.running_mean, ref.running_mean, 1e-5, 1.3e-6)
        cc.close("running_var " + tag, mine.running_var, ref.running_var, 1e-5, 1.3e-6)
    dy = torch.randn_like(want)
    got.backward(dy)
    want.backward(dy)
    cc.close("dx " + tag, l2[0].grad, l1[0].grad, 1e-3, 1e-2)
    if residual:
        cc.close("dresidual " + tag, l2[1].grad, l1[1].grad, 1e-3, 1e-2)
    if affine:
        cc.close("dw " + tag, mine.weight.grad, ref.weight.grad, 1e-3, 1e-2)
        cc.close("db " + tag, mine.bias.grad, ref.bias.grad, 1e-3, 1e-2)
    mine.eval()
    ref.eval()
    with torch.no_grad():
        if residual:
            got = mine(x, r)
            want = acts[act](ref(x) + r)
        else:
            got = mine(x)
            want = acts[act](ref(x))
    cc.close("eval y " + tag, got, want, 1e-5, 1.3e-6)
cc.finish()
