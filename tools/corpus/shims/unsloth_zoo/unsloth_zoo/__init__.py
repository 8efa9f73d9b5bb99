# Corpus shim for unsloth_zoo/__init__.py (the original is kept beside it as
# __init__.py.orig).  The original, past its environment settings, imports
# unsloth_zoo.temporary_patches (some thirty modules, about 22,000 lines,
# that patch transformers' model classes through import hooks),
# fused_losses' forward installer and rl_environments (numpy, sandboxed
# execution): the fine-tuning runtime, built on transformers, which is
# installed on neither the development machine nor the GPU machine.
# Unsloth's Triton kernels only read this package's device constants
# (loss_utils and compiler do `from unsloth_zoo import DEVICE_TYPE`) and use
# its leaf modules (utils.Version, log.logger, temporary_patches.common),
# which are imported unchanged.  The constants are worked out here as the
# original's device_type module does for an NVIDIA or AMD GPU.
import os

import torch

os.environ["UNSLOTH_ZOO_IS_PRESENT"] = "1"

DEVICE_TYPE = "hip" if getattr(torch.version, "hip", None) else "cuda"
DEVICE_TYPE_TORCH = "cuda"
DEVICE_COUNT = torch.cuda.device_count()
ALLOW_PREQUANTIZED_MODELS = True

del os
