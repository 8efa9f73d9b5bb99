"""triton.language.extra.cuda.libdevice: the functions of
triton.language.extra.libdevice (kernels resolve them by that name)."""

__tritsim__ = True

from tritsim._jit import kernel_names

kernel_names(globals(), "triton.language.extra.libdevice.", "libdevice.")
