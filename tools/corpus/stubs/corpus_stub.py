# What the stand-ins of this folder share: giving way to the real package.
# A stand-in (pandas/, transformers/) is first on sys.path so that the
# drivers import under tritsim, where those packages are absent; where the
# real package is installed further down sys.path (the GPU machine's
# image), the stand-in imports it and puts it in its own place in
# sys.modules, so that the drivers use the real one.
import os
import sys


def give_way(name, stub_file):
    """Import the real package `name` from the sys.path entries other than
    this folder and put it in sys.modules[name]; the module, or None where
    there is none (under tritsim, which has no importlib.machinery, never)."""
    try:
        from importlib.machinery import PathFinder
    except ImportError:
        return None
    here = os.path.dirname(os.path.dirname(os.path.abspath(stub_file)))
    rest = [p for p in sys.path if os.path.abspath(p or os.curdir) != here]
    spec = PathFinder.find_spec(name, rest)
    if spec is None:
        return None
    import importlib.util

    real = importlib.util.module_from_spec(spec)
    sys.modules[name] = real
    spec.loader.exec_module(real)
    return real
