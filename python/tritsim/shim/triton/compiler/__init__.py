"""triton.compiler, as tritsim answers it: the names PyTorch imports when it
finds a triton package.  tritsim compiles kernels itself, so compiling
through them says so."""

__tritsim__ = True

from .compiler import ASTSource, CompiledKernel, compile

__all__ = ["ASTSource", "CompiledKernel", "compile"]
