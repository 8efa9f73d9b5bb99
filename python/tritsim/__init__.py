"""tritsim inside your own Python: run Triton programs with their kernels on tritsim.

    python3 -m tritsim script.py [ARGS]        # or: TRITSIM=1 python3 -m tritsim ...

or, from inside a program, before it imports triton:

    import tritsim
    tritsim.install()

Your CPython and your PyTorch run the host code; ``import triton`` (and
``triton.language``, ``triton.testing``, ``triton.runtime``,
``triton.language.extra.libdevice``, ``triton_util``) is answered by
tritsim, whose ``@triton.jit`` functions are never run by Python: their
source goes through tritsim's parser, specializer and a backend (the CPU
executor, or the CUDA backend with ``backend="cuda"``), which read and
write the tensors' memory in place and check every access against the
tensor's storage.  A failing kernel raises :class:`KernelError` with
tritsim's diagnostic (file:line:col, program id, lane, offset).

doc/python.md in tritsim's sources says more.
"""

import importlib.abc
import importlib.machinery
import os
import sys

import _tritsim
from _tritsim import KernelError

__all__ = ["install", "uninstall", "configure", "installed", "KernelError"]

_SHIM = os.path.join(os.path.dirname(os.path.abspath(__file__)), "shim")
_TOP = ("triton", "triton_util")
# answered only where no real one is installed
_FALLBACK = ("IPython",)


class _Finder(importlib.abc.MetaPathFinder):
    """Answers ``import triton`` and ``import triton_util`` from tritsim's
    modules (the package's shim/ folder); their submodules are then found
    through the package's own __path__."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname in _FALLBACK:
            if importlib.machinery.PathFinder.find_spec(fullname) is not None:
                return None
        elif fullname not in _TOP:
            return None
        return importlib.machinery.PathFinder.find_spec(fullname, [_SHIM])


_finder = _Finder()


def configure(backend=None, threads=None, unchecked=None, no_break=None, dump_ir=None,
              break_spec=None):
    """Set the options of ``python3 -m tritsim`` (the binary's): backend
    ("cpu" or "cuda"), threads (0: one per core), unchecked (GPU kernels
    without bounds checks), no_break (breakpoints do nothing), dump_ir (True:
    every kernel's IR on stderr, or a kernel's name), break_spec (the
    debugger's --break).  backend, threads and unchecked are fixed once a
    kernel has run."""
    kw = {}
    if backend is not None:
        kw["backend"] = backend
    if threads is not None:
        kw["threads"] = int(threads)
    if unchecked is not None:
        kw["unchecked"] = bool(unchecked)
    if no_break is not None:
        kw["no_break"] = bool(no_break)
    if dump_ir is not None:
        kw["dump_ir"] = "" if dump_ir is True else (None if dump_ir is False else str(dump_ir))
    if break_spec is not None:
        kw["break_spec"] = break_spec
    _tritsim.configure(**kw)


def installed():
    """Is tritsim answering ``import triton``?"""
    return _finder in sys.meta_path


def install(**options):
    """Make ``import triton`` (and triton_util) give tritsim's modules, from
    now on; options as for :func:`configure`.  A triton imported before is
    forgotten (its kernels stay its own), with a warning on stderr."""
    if options:
        configure(**options)
    if installed():
        return
    old = [m for m in sys.modules if m.split(".")[0] in _TOP]
    if any(not getattr(sys.modules[m], "__tritsim__", False) for m in old):
        print("tritsim: a triton module was imported before tritsim.install(); "
              "kernels made with it stay its own", file=sys.stderr)
    for m in old:
        del sys.modules[m]
    sys.meta_path.insert(0, _finder)


def uninstall():
    """Undo :func:`install` (modules already imported stay)."""
    if installed():
        sys.meta_path.remove(_finder)


if os.environ.get("TRITSIM") == "1":
    install()
