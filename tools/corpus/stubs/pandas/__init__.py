# Stand-in for `pandas`, for the corpus drivers only.  pandas is installed
# on neither the development machine nor (as far as the corpus knows) the
# GPU machine, and Unsloth's MoE grouped-GEMM package imports it at module
# level (kernels/moe/grouped_gemm/kernels/tuning.py) for one function that
# tabulates autotuning results, which the drivers never call.  Nothing is
# provided: using pandas through this stand-in is an AttributeError.
