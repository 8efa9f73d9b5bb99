# Stand-in for `pandas`, for the corpus drivers only.  pandas is not
# installed on the development machine, and Unsloth's MoE grouped-GEMM
# package imports it at module level (kernels/moe/grouped_gemm/kernels/
# tuning.py) for one function that tabulates autotuning results, which the
# drivers never call.  Nothing is provided: using pandas through this
# stand-in is an AttributeError.
#
# Where a real pandas is installed further down sys.path (the GPU machine's
# image has one), it is used instead, put in this module's place in
# sys.modules.
from corpus_stub import give_way as _give_way

_give_way(__name__, __file__)
