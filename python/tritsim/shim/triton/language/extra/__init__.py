"""triton.language.extra: libdevice (the same module as extra.cuda.libdevice)."""

__tritsim__ = True

from . import cuda, libdevice
