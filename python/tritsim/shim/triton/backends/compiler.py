"""triton.backends.compiler, as tritsim answers it: the target description
(GPUTarget, as Triton 3.6 spells it) and nothing that compiles."""

from dataclasses import dataclass
from typing import Union

__tritsim__ = True


@dataclass(frozen=True)
class GPUTarget:
    """A GPU as Triton names one: backend ("cuda" or "hip"), arch (90 for
    an H100, "gfx942" for an MI300X) and the warp size."""
    backend: str
    arch: Union[int, str]
    warp_size: int


class BaseBackend:
    """Triton's compiler backends derive from this; tritsim has none, and
    making one says so."""

    def __init__(self, target):
        raise NotImplementedError("tritsim compiles kernels itself: Triton's compiler "
                                  "backends are not available under python3 -m tritsim")
