# Stand-in for the `transformers` package, for the corpus drivers only.
# transformers is not installed on the development machine (and the GPU
# machine's image lists transformers 5.17.0 among its packages),
# while Unsloth's kernel modules import a few of its names at module level
# (a logger, LlamaRMSNorm to subclass, ParallelMode, the quantizers' helper
# module).  The drivers call Unsloth's kernels directly and never reach the
# code that uses these names for real; each stand-in file gives only what is
# imported, in its simplest honest form.
#
# Where a real transformers is installed further down sys.path, it is used
# instead: this package puts it in its place in sys.modules (Python then
# imports the submodules from the real package's folder).
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
else:
    __version__ = "0.0.0+corpus-stand-in"
