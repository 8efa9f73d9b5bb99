# tritsim corpus shim: flash_attn/__init__.py left empty.  The original
# (kept as __init__.py.orig) imports the compiled CUDA extension
# flash_attn_2_cuda, which the Triton kernels under flash_attn/ops/triton
# and flash_attn/flash_attn_triton.py do not need.
