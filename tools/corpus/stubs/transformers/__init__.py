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
from corpus_stub import give_way as _give_way

if _give_way(__name__, __file__) is None:
    __version__ = "0.0.0+corpus-stand-in"
