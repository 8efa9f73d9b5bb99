"""triton.language, as tritsim answers it.

Kernels never call these objects: tritsim's specializer knows each by its
qualified name (triton.language.load, ...).  On the host, the dtypes,
tl.constexpr and tl.pointer_type work; the rest says it is for kernels.
"""

__tritsim__ = True

from tritsim._jit import DTYPES as _DTYPES
from tritsim._jit import constexpr, dtype, kernel_names, pointer_type

globals().update(_DTYPES)


class tensor:
    """tl.tensor: the type of tiles inside kernels (for annotations)."""


class block_type(dtype):
    pass


from . import extra, math  # noqa: E402

kernel_names(globals(), "triton.language.", "tl.")
