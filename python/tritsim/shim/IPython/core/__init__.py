"""IPython.core, as tritsim answers it where IPython is not installed."""

__tritsim__ = True

from . import debugger
