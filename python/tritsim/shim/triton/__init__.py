"""triton, as tritsim answers it (python3 -m tritsim, tritsim.install()).

@triton.jit kernels run on tritsim; autotune, heuristics, Config, cdiv and
next_power_of_2 work as Triton's (tritsim/_tune.py).
"""

__tritsim__ = True
__version__ = "3.6.0"

from tritsim._jit import JITFunction, KernelInterface, jit, kernel_name
from tritsim._tune import (CompileTimeAssertionFailure, Config, OutOfResources, autotune,
                           heuristics)
from tritsim import KernelError
import _tritsim

from . import language, runtime, testing

from tritsim._jit import reveal_data_ptr as _reveal_data_ptr

_reveal_data_ptr()      # where torch came first; else at the first launch


def cdiv(x, y):
    """ceil(x / y) for integers."""
    return (x + y - 1) // y


def next_power_of_2(n):
    """The smallest power of two >= n (1 for n <= 1)."""
    n = int(n)
    if n <= 1:
        return 1
    return 1 << (n - 1).bit_length()


kernel_name(cdiv, "triton.cdiv")

_allocator = None


def set_allocator(allocator):
    """triton.set_allocator: the allocator a launch of a kernel that makes
    tensor descriptors calls for its scratch, as Triton's launcher does
    (allocator(size, 128, stream): 128 bytes a descriptor a program)."""
    global _allocator
    _allocator = allocator
    _tritsim.set_allocator(allocator)


class TritonError(Exception):
    pass


__all__ = ["jit", "JITFunction", "KernelInterface", "autotune", "heuristics", "Config",
           "cdiv", "next_power_of_2", "set_allocator", "language", "testing", "runtime",
           "OutOfResources", "CompileTimeAssertionFailure", "KernelError", "TritonError"]
