# The whole liger_kernel.ops package imported as a user does
# (`from liger_kernel.ops import ...`): its __init__ imports every op module
# and picks a backend implementation for the device.  Checks that the names
# the other drivers use are there and that one of them runs (RMSNorm, fp32,
# against plain PyTorch).
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import corpus_check as cc

cc.use_project("liger", "src")
import torch
import liger_kernel.ops as ops

names = ["LigerCrossEntropyFunction", "LigerDyTFunction", "LigerEmbeddingFunction",
         "LigerFusedAddRMSNormFunction", "LigerFusedLinearCrossEntropyFunction",
         "LigerGELUMulFunction", "LigerGroupNormFunction", "LigerJSDFunction",
         "LigerKLDivLossFunction", "LigerLayerNormFunction", "LigerLlama4RopeFunction",
         "LigerPolyNormFunction", "LigerQwen2VLMRopeFunction", "LigerReLUSquaredFunction",
         "LigerRMSNormFunction", "LigerRopeFunction", "LigerSoftmaxFunction",
         "LigerSparsemaxFunction", "LigerSiLUMulFunction", "LigerTVDLossFunction"]
missing = [n for n in names if not hasattr(ops, n)]
cc.check("names missing from liger_kernel.ops: %s" % missing, not missing)

cc.seed(20)
x = torch.randn(4, 6, 32, device="cuda")
w = 1.0 + 0.1 * torch.randn(32, device="cuda")
want = w * (x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6))
got = ops.LigerRMSNormFunction.apply(x, w, 1e-6)
cc.close("rms_norm through liger_kernel.ops", got, want, 1e-4, 1e-6)
cc.finish()
