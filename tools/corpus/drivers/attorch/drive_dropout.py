# attorch's Dropout (attorch/dropout_layer.py, a Triton kernel with
# tl.rand): for drop_p 0 nothing is dropped, for 1 everything; otherwise
# every element kept is x / (1 - p), the fraction dropped is near p (checked
# over 1024 elements: over a handful it is a coin toss), and the gradient
# is the output gradient scaled the same way where kept.
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import corpus_check as cc

cc.use_project("attorch")
import torch
import attorch

for shape in ((96,), (4, 256), (2, 3, 50)):
    for p in (0.0, 0.15, 0.5, 0.9, 1.0):
        cc.seed(0)
        x = torch.randn(shape, device="cuda").requires_grad_(True)
        y = attorch.Dropout(p)(x)
        tag = "%s p=%g" % (shape, p)
        zeroed = int((torch.count_nonzero(x) - torch.count_nonzero(y)).item())
        if p == 0:
            cc.check("elements dropped at p=0 " + tag, zeroed == 0)
        elif p == 1:
            cc.check("elements kept at p=1 " + tag, int(torch.count_nonzero(y).item()) == 0)
        else:
            kept = torch.where(y == 0, y, x / (1 - p))
            cc.close("kept values " + tag, y, kept, 1e-5, 1.3e-6)
            if x.numel() >= 1024:
                frac = zeroed / x.numel()
                cc.check("fraction dropped %.3f for %s" % (frac, tag), abs(frac - p) <= 5e-2 + 1e-1 * p)
        dy = torch.randn_like(y)
        y.backward(dy)
        if p == 1:
            cc.close("dx " + tag, x.grad, torch.zeros_like(dy), 1e-5, 1.3e-6)
        else:
            cc.close("dx " + tag, x.grad, torch.where(y == 0, torch.zeros_like(dy), dy / (1 - p)),
                     1e-5, 1.3e-6)
cc.finish()
