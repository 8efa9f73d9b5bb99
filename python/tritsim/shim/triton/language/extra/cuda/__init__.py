"""triton.language.extra.cuda: its libdevice is extra.libdevice."""

__tritsim__ = True

from . import libdevice
