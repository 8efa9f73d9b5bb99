"""triton.compiler.compiler, as tritsim answers it (see triton.compiler)."""

__tritsim__ = True

_WHY = ("tritsim compiles kernels itself: launch them as kernel[grid](...); "
        "Triton's compiler entry points are not available under python3 -m tritsim")


class ASTSource:
    """Triton's description of a kernel to compile; not available here."""

    def __init__(self, *args, **kwargs):
        raise NotImplementedError(_WHY)


class CompiledKernel:
    """Triton's compiled kernel object; tritsim never makes one."""

    def __init__(self, *args, **kwargs):
        raise NotImplementedError(_WHY)


def compile(*args, **kwargs):
    """triton.compile; not available here."""
    raise NotImplementedError(_WHY)
