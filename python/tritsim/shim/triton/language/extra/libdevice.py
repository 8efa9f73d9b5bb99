"""triton.language.extra.libdevice: tritsim's own libdevice functions
(kernel only)."""

__tritsim__ = True

from tritsim._jit import kernel_names

kernel_names(globals(), "triton.language.extra.libdevice.", "libdevice.")
