"""IPython.core.debugger.set_trace, as tritsim answers it where IPython is
not installed: in a kernel a breakpoint (tritsim's debugger); on the host
it says so and goes on, as tritsim run does."""

import sys

__tritsim__ = True

from tritsim._jit import kernel_name


def set_trace(*args, **kwargs):
    print("tritsim: set_trace() outside a kernel does nothing here (IPython is not "
          "installed): tritsim's debugger stops in kernels", file=sys.stderr)


kernel_name(set_trace, "IPython.core.debugger.set_trace")
