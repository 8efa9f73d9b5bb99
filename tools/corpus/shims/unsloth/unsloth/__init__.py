# Corpus shim for unsloth/__init__.py (the original is kept beside it as
# __init__.py.orig).  The original's GPU path runs `from ._gpu_init import *`,
# and _gpu_init imports unsloth.models, .save, .trainer, .chat_templates and
# .tokenizer_utils: the whole fine-tuning stack on top of transformers, peft,
# trl and datasets, none of which is installed on the development machine or
# on the GPU machine.  The kernels (unsloth/kernels/*.py) need none of it:
# they reach the package only through its submodules device_type and
# bnb_availability, and moe/grouped_gemm/interface.py reads DEVICE_TYPE.
# This file keeps the two things of the original those need: the
# UNSLOTH_IS_PRESENT marker (unsloth_zoo refuses to import without it) and
# DEVICE_TYPE, taken from unsloth.device_type as _gpu_init does.
import os

os.environ["UNSLOTH_IS_PRESENT"] = "1"

from .device_type import DEVICE_TYPE, DEVICE_TYPE_TORCH, DEVICE_COUNT

del os
