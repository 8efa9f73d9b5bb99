"""triton.language.math: tl's math functions under this name (kernel only)."""

__tritsim__ = True

from tritsim._jit import alias_names

alias_names(globals(), "triton.language.math.", "tl.math.")
