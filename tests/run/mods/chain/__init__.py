from .inner import VALUE
