# Stand-in for the `transformers` package, for the corpus drivers only.
# transformers is installed on neither the development machine nor the GPU
# machine, and Unsloth's kernel modules import a few of its names at module
# level (a logger, LlamaRMSNorm to subclass, ParallelMode, the quantizers'
# helper module).  The drivers call Unsloth's kernels directly and never
# reach the code that uses these names for real; each stand-in file gives
# only what is imported, in its simplest honest form.
__version__ = "0.0.0+corpus-stand-in"
