# flash-attention's fused layer norm / RMS norm (flash_attn/ops/triton/
# layer_norm.py, layer_norm_fn and rms_norm_fn: an optional residual added
# first, prenorm returning the sum too) against plain PyTorch computed in
# float32, forward and backward (x, residual, weight, bias); fp32 and fp16
# at the project's criterion: within twice the error of the same reference
# computed in the input dtype, plus atol (1e-4 fp32, 1e-2 fp16).
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import corpus_check as cc

cc.use_project("flashattn")
import torch
import torch.nn.functional as F
from flash_attn.ops.triton.layer_norm import layer_norm_fn, rms_norm_fn


def reference(x, res, w, b, rms, prenorm, upcast):
    dt = x.dtype
    if upcast:
        x, w = x.float(), w.float()
        res = res.float() if res is not None else None
        b = b.float() if b is not None else None
    s = x + res if res is not None else x
    if rms:
        y = s * torch.rsqrt(s.pow(2).mean(-1, keepdim=True) + 1e-6) * w
    else:
        y = F.layer_norm(s, (s.shape[-1],), w, b, 1e-6)
    if not upcast:
        y = y.to(dt)
    return (y, s) if prenorm else y


def within(what, got, want_ref, want_low, atol):
    # the project's criterion: twice the error of the low-precision reference
    bound = 2 * float((want_low.float() - want_ref).abs().max()) + atol
    cc.close(what, got.float(), want_ref, bound, 0.0)


cc.seed(0)
# few combinations: each is tuned anew (6 configurations, forward and
# backward, to compile on a GPU)
cases = [(192, torch.float32, False, False, False), (192, torch.float32, True, True, True),
         (192, torch.float16, False, True, False), (192, torch.float16, True, False, False),
         (300, torch.float32, False, True, True), (300, torch.float16, True, True, False)]
for hidden, dtype, rms, has_res, prenorm in cases:
    atol = 1e-4 if dtype == torch.float32 else 1e-2
    x = torch.randn(2, 8, hidden, device="cuda", dtype=dtype)
    res = torch.randn(2, 8, hidden, device="cuda", dtype=dtype) if has_res else None
    w = torch.randn(hidden, device="cuda", dtype=dtype)
    b = None if rms else torch.randn(hidden, device="cuda", dtype=dtype)
    tensors = [t for t in (x, res, w, b) if t is not None]
    sets = [[t.clone().requires_grad_(True) for t in tensors] for _ in range(3)]

    def unpack(ts):
        it = iter(ts)
        tx = next(it)
        tr = next(it) if has_res else None
        tw = next(it)
        tb = next(it) if not rms else None
        return tx, tr, tw, tb

    fx, fr, fw, fb = unpack(sets[0])
    fn = rms_norm_fn if rms else layer_norm_fn
    if rms:
        got = fn(fx, fw, None, residual=fr, eps=1e-6, prenorm=prenorm)
    else:
        got = fn(fx, fw, fb, residual=fr, eps=1e-6, prenorm=prenorm)
    ref = reference(*unpack(sets[1]), rms, prenorm, True)
    low = reference(*unpack(sets[2]), rms, prenorm, False)
    tag = "hidden=%d %s rms=%s residual=%s prenorm=%s" % (hidden, dtype, rms, has_res, prenorm)
    outs = (got, ref, low) if not prenorm else (got[0], ref[0], low[0])
    within("y " + tag, outs[0], outs[1], outs[2], atol)
    if prenorm:
        within("x+residual " + tag, got[1], ref[1], low[1], atol)
    dy = torch.randn(2, 8, hidden, device="cuda", dtype=dtype)
    outs[0].backward(dy)
    outs[1].backward(dy.float())
    outs[2].backward(dy)
    names = ["dx"] + (["dresidual"] if has_res else []) + ["dw"] + ([] if rms else ["db"])
    for i, name in enumerate(names):
        within(name + " " + tag, sets[0][i].grad, sets[1][i].grad.float(), sets[2][i].grad, atol)
cc.finish()
