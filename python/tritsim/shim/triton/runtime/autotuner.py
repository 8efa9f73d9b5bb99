"""triton.runtime.autotuner, as tritsim answers it: Triton's names for the
autotuner's pieces (tritsim/_tune.py)."""

__tritsim__ = True

from tritsim._tune import Autotuner, Config, Heuristics, OutOfResources, autotune, heuristics


class PTXASError(Exception):
    """ptxas failed (Triton's name); tritsim's CUDA backend reports its own."""


__all__ = ["Autotuner", "Config", "Heuristics", "OutOfResources", "PTXASError", "autotune",
           "heuristics"]
