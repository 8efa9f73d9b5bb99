# drive_fp8.py - Unsloth's FP8 kernels (unsloth/kernels/fp8.py): act_quant
# (per-block float8_e4m3fn quantization of activations with float32
# scales), weight_dequant_block (block-scaled FP8 weights back to bf16 or
# float32) and w8a8_block_fp8_matmul_triton (the block-scaled FP8 matmul),
# with 32-wide blocks to keep the shapes small.  Reference: the same
# arithmetic in plain PyTorch (scales expanded over their blocks, float32
# matmul of the dequantized operands).  Last line: RESULT ok | RESULT fail.
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import corpus_check as cc

cc.use_project("unsloth_zoo")
cc.use_project("unsloth")

import torch

from unsloth.kernels.fp8 import act_quant, w8a8_block_fp8_matmul_triton, weight_dequant_block

DEVICE = "cuda"
FP8 = torch.float8_e4m3fn


def expand(scale, rows, cols, br, bc):
    # a (ceil(rows/br), ceil(cols/bc)) scale grid over a rows x cols matrix
    return scale.repeat_interleave(br, 0)[:rows].repeat_interleave(bc, 1)[:, :cols]


torch.manual_seed(3407)
blk = 32

# act_quant: 4 rows of 96 values, 3 blocks each
x = torch.randn(4, 96, device=DEVICE) * 3
x[1, 32:64] = 0.0                                  # an all-zero block keeps scale 1
y, s = act_quant(x, block_size=blk)
want_s = x.view(4, 3, blk).abs().amax(-1) / 448.0
want_s = torch.where(want_s == 0, torch.ones_like(want_s), want_s)
cc.close("act_quant scales", s, want_s, 1e-7, 1e-6)
want_y = (x.view(4, 3, blk) / want_s[..., None]).view(4, 96).to(FP8)
cc.close("act_quant values", y.float(), want_y.float(), 0.0, 0.07)
cc.close("act_quant round trip", y.float().view(4, 3, blk) * s[..., None], x.view(4, 3, blk),
         1e-6, 0.07)

# weight_dequant_block: a 70 x 50 FP8 weight, 3 x 2 blocks of scales
w = (torch.randn(70, 50, device=DEVICE) * 100).clamp(-448, 448).to(FP8)
ws = torch.rand(3, 2, device=DEVICE) + 0.5
for dtype in (torch.float32, torch.bfloat16):
    got = weight_dequant_block(w, ws, block_size=blk, dtype=dtype)
    want = (w.float() * expand(ws, 70, 50, blk, blk)).to(dtype)
    cc.close("weight_dequant %s" % str(dtype)[6:], got, want.float(), 1e-6, 1e-2)

# w8a8 block matmul: A (5, 64) quantized per (row, 32 columns), B (48, 64)
# per 32 x 32 block
A = torch.randn(5, 64, device=DEVICE)
Aq, As = act_quant(A, block_size=blk)
B = (torch.randn(48, 64, device=DEVICE) * 50).clamp(-448, 448).to(FP8)
Bs = torch.rand(2, 2, device=DEVICE) / 50 + 0.01
C = w8a8_block_fp8_matmul_triton(Aq, B, As, Bs, [blk, blk], output_dtype=torch.float32)
Af = Aq.float() * As.repeat_interleave(blk, 1)
Bf = B.float() * expand(Bs, 48, 64, blk, blk)
cc.close("w8a8 matmul", C, Af @ Bf.t(), 1e-3, 1e-3)

cc.finish()
