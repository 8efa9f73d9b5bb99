"""triton.runtime, as tritsim answers it: driver.active."""

__tritsim__ = True

from tritsim._jit import JITFunction, KernelInterface

from . import driver
