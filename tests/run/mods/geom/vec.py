print("geom.vec: running, __package__ =", __package__)


class Vec:
    def __init__(self, x, y):
        self.x = x
        self.y = y

    def __add__(self, o):
        return Vec(self.x + o.x, self.y + o.y)

    def __repr__(self):
        return f"Vec({self.x}, {self.y})"
