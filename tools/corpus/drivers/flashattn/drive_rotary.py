# flash-attention's rotary kernel (flash_attn/ops/triton/rotary.py,
# apply_rotary) against the rotation written in plain PyTorch (float32):
# the first rotary_dim features rotated by the angles of cos/sin at each
# position (+ an offset, one int or one per batch row), the two halves
# paired (GPT-NeoX) or neighbours paired (interleaved, GPT-J); in place or
# not; the backward is the conjugate rotation (conjugate=True), compared
# with autograd's gradient of the reference.  fp16 and bf16 as the
# project's test, with its tolerance (rtol 1e-3, atol twice the output's
# rounding).
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import corpus_check as cc

cc.use_project("flashattn")
import torch
from flash_attn.ops.triton.rotary import apply_rotary


def reference(x, cos, sin, offsets, interleaved):
    # x (batch, seq, heads, dim); cos/sin (seq_ro, rd / 2)
    batch, seq = x.shape[0], x.shape[1]
    rd = cos.shape[1] * 2
    pos = torch.arange(seq, device="cuda")[None, :] + (
        offsets[:, None].long() if isinstance(offsets, torch.Tensor) else offsets)
    pos = pos.expand(batch, seq)
    c = cos.float()[pos][:, :, None, :]
    s = sin.float()[pos][:, :, None, :]
    xf = x.float()
    rot, rest = xf[..., :rd], xf[..., rd:]
    if interleaved:
        a, b = rot[..., 0::2], rot[..., 1::2]
        out = torch.stack((a * c - b * s, a * s + b * c), dim=-1).flatten(-2)
    else:
        a, b = rot[..., :rd // 2], rot[..., rd // 2:]
        out = torch.cat((a * c - b * s, a * s + b * c), dim=-1)
    return torch.cat((out, rest), dim=-1)


cc.seed(42)
batch, seq, heads, dim = 2, 17, 3, 64
for dtype in (torch.float16, torch.bfloat16):
    for fraction in (1.0, 0.5):
        for interleaved in (False, True):
            for offset_kind in ("zero", "int", "tensor"):
                for inplace in (False, True):
                    rd = int(fraction * dim)
                    angle = torch.rand(seq * 2, rd // 2, device="cuda") * 2 * math.pi
                    cos = torch.cos(angle).to(dtype)
                    sin = torch.sin(angle).to(dtype)
                    if offset_kind == "zero":
                        offsets = 0
                    elif offset_kind == "int":
                        offsets = 5
                    else:
                        offsets = torch.randint(0, seq + 1, (batch,), dtype=torch.int32, device="cuda")
                    x = torch.randn(batch, seq, heads, dim, device="cuda", dtype=dtype)
                    xr = x.clone().requires_grad_(True)
                    want = reference(xr, cos, sin, offsets, interleaved)
                    got = apply_rotary(x.clone(), cos, sin, seqlen_offsets=offsets,
                                       interleaved=interleaved, inplace=inplace)
                    tag = "%s rotary_dim=%d interleaved=%s offsets=%s inplace=%s" % (
                        dtype, rd, interleaved, offset_kind, inplace)
                    want_d = want.to(dtype).float()
                    atol = 2 * float(((want_d + 0.3 - 0.3) - want_d).abs().max()) + 1e-6
                    atol = max(atol, 2 * float((want_d - want).abs().max()))
                    cc.close("y " + tag, got.float(), want, atol, 1e-3)
                    dy = torch.randn_like(x)
                    want.backward(dy.float())
                    gx = apply_rotary(dy.clone(), cos, sin, seqlen_offsets=offsets,
                                      interleaved=interleaved, inplace=inplace, conjugate=True)
                    g = xr.grad
                    atol = 2 * float(((g.to(dtype).float() + 0.3 - 0.3) - g).abs().max()) + 1e-6
                    cc.close("dx " + tag, gx.float(), g, atol, 1e-3)
cc.finish()
