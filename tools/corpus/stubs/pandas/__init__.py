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
import os as _os
import sys as _sys


def _real_spec():
    try:
        from importlib.machinery import PathFinder
    except ImportError:             # tritsim: no importlib.machinery, no real package
        return None
    here = _os.path.dirname(_os.path.dirname(_os.path.abspath(__file__)))
    rest = [p for p in _sys.path if _os.path.abspath(p or _os.curdir) != here]
    return PathFinder.find_spec(__name__, rest)


_spec = _real_spec()
if _spec is not None:
    import importlib.util as _util

    _real = _util.module_from_spec(_spec)
    _sys.modules[__name__] = _real
    _spec.loader.exec_module(_real)
