"""triton.runtime.jit, as tritsim answers it: JITFunction and KernelInterface."""

__tritsim__ = True

from tritsim._jit import JITFunction, KernelInterface, jit

__all__ = ["JITFunction", "KernelInterface", "jit"]
