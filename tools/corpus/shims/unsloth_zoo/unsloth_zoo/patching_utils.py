# Corpus shim for unsloth_zoo/patching_utils.py (the original is kept beside
# it as patching_utils.py.orig).  The original module holds the patches
# Unsloth applies to transformers, PEFT and bitsandbytes models and, at
# module level, imports unsloth_zoo.compiler (its torch.compile source
# rewriter: ast, tokenize, numpy, the third-party `regex`, PEFT helpers)
# and transformers' quantizer modules, none of which either machine has.
# Of it, Unsloth's kernels import one name, patch_layernorm (in
# kernels/layernorm.py), which the drivers never call; it is written here
# in the corpus's own words with the original's effect: torch.nn.LayerNorm
# becomes a subclass whose forward is the given fast_layernorm.
import os

import torch


def patch_layernorm(fast_layernorm):
    if torch.nn.LayerNorm.__name__ == "Unsloth_LayerNorm":
        return
    os.environ["UNSLOTH_PATCHED"] = "1"
    base = torch.nn.LayerNorm

    class Unsloth_LayerNorm(base):
        def forward(self, X):
            return fast_layernorm(self, X)

    torch.nn.LayerNorm = Unsloth_LayerNorm
