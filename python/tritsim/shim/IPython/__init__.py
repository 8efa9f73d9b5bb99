"""IPython, as tritsim answers it where IPython is not installed: only
IPython.core.debugger.set_trace, which the lecture's programs import (in a
kernel it is a breakpoint)."""

__tritsim__ = True

from . import core
