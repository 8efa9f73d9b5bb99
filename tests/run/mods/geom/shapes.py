from .vec import Vec
from . import vec as vecmod


def area(w, h):
    return w * h


def corner(w, h):
    return Vec(w, h) + vecmod.Vec(1, 1)
