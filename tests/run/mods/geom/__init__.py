# geom - a package: relative imports of its submodules, __all__
print("geom: running, __package__ =", __package__)
from .vec import Vec
from . import shapes
from .shapes import area as _area

__all__ = ["Vec", "unit"]


def unit():
    return Vec(1, 0)
