"""@triton.jit, tl.constexpr and tl.dtype for tritsim's triton modules.

A JITFunction is never called by Python: kernel[grid](*args, **kwargs) hands
the function (its source, file and first line) and the arguments to
_tritsim.Kernel, which specializes, compiles (once per specialization) and
runs it on tritsim's backend.
"""

import inspect
import os
import sys

import _tritsim


_data_ptr_wrapped = False


def reveal_data_ptr():
    """Wrap torch.Tensor.data_ptr (once torch is imported) so that each
    tensor whose address the program takes is known to tritsim while it
    lives: a kernel may then reach it through that integer (Triton's
    grouped GEMM keeps its matrices' addresses in a tensor), checked
    against its storage, as under tritsim run.  Launches read their own
    arguments' addresses through the original method."""
    global _data_ptr_wrapped
    torch = sys.modules.get("torch")
    if _data_ptr_wrapped or torch is None or not hasattr(torch, "Tensor"):
        return
    _data_ptr_wrapped = True
    tensor = torch.Tensor
    original = tensor.data_ptr
    reveal = _tritsim.reveal

    def data_ptr(self):
        address = original(self)
        reveal(self)
        return address

    data_ptr.__doc__ = original.__doc__
    data_ptr.__name__ = "data_ptr"
    tensor.data_ptr = data_ptr
    _tritsim.set_data_ptr(tensor, original)


class KernelInterface:
    """kernel[grid](*args, **kwargs) -> kernel.run(grid, args, kwargs)."""

    def __getitem__(self, grid):
        run = self.run
        return lambda *args, **kwargs: run(grid, args, kwargs)


class JITFunction(KernelInterface):
    def __init__(self, fn, do_not_specialize=None, debug=None, noinline=None, repr=None,
                 launch_metadata=None, do_not_specialize_on_alignment=None):
        self.fn = fn
        self.__name__ = fn.__name__
        self.__qualname__ = getattr(fn, "__qualname__", fn.__name__)
        self.__module__ = fn.__module__
        self.__doc__ = fn.__doc__
        self.__globals__ = fn.__globals__
        self.arg_names = list(inspect.signature(fn).parameters)
        self.do_not_specialize = list(do_not_specialize or ())
        self.debug = debug
        self.noinline = noinline
        self.launch_metadata = launch_metadata
        # made under Triton's interpreter: it may call plain Python functions
        self.interpret = os.environ.get("TRITON_INTERPRET") == "1"
        self._k = None

    def _no_spec_mask(self):
        mask = 0
        for p in self.do_not_specialize:
            i = self.arg_names.index(p) if isinstance(p, str) else int(p)
            if i < 64:
                mask |= 1 << i
        return mask

    def _kernel_object(self):
        """The _tritsim.Kernel of this function (parsed at first use)."""
        if self._k is None:
            try:
                lines, first = inspect.getsourcelines(self.fn)
            except (OSError, TypeError) as e:
                raise RuntimeError("tritsim reads a kernel's source from its file, and %s's "
                                   "cannot be read: %s" % (self.__name__, e)) from None
            self._k = _tritsim.Kernel(self.fn, "".join(lines), self.fn.__code__.co_filename,
                                      first, self._no_spec_mask(), self.interpret)
        return self._k

    def run(self, grid, args, kwargs):
        k = self._k
        if k is None:
            reveal_data_ptr()
            k = self._kernel_object()
        k.run(grid, args, kwargs)

    def warmup(self, *args, grid, **kwargs):
        """Compile for these arguments without running (tritsim compiles
        at the first launch of each specialization; this is that launch
        with an empty grid)."""
        self.run((0,), args, kwargs)

    def __call__(self, *args, **kwargs):
        raise RuntimeError("Cannot call @triton.jit'd outside of the scope of a kernel")

    def __repr__(self):
        return "JITFunction(%s:%s)" % (self.__module__, self.__qualname__)


def jit(fn=None, *, do_not_specialize=None, do_not_specialize_on_alignment=None, debug=None,
        noinline=None, repr=None, launch_metadata=None):
    """@triton.jit: the function becomes a kernel tritsim runs."""

    def decorator(f):
        return JITFunction(f, do_not_specialize=do_not_specialize, debug=debug,
                           noinline=noinline, repr=repr, launch_metadata=launch_metadata)

    return decorator(fn) if fn is not None else decorator


class constexpr:
    """tl.constexpr: an annotation for compile-time parameters, and a box
    for a compile-time value (host code may compute with it)."""

    def __init__(self, value):
        self.value = value.value if isinstance(value, constexpr) else value

    def __repr__(self):
        return "constexpr[%r]" % (self.value,)

    def __index__(self):
        return self.value.__index__()

    def __int__(self):
        return int(self.value)

    def __float__(self):
        return float(self.value)

    def __bool__(self):
        return bool(self.value)

    def __hash__(self):
        return hash(self.value)

    def __eq__(self, other):
        return constexpr(self.value == _v(other))

    def __ne__(self, other):
        return constexpr(self.value != _v(other))

    def __call__(self, *args, **kwargs):
        return self.value(*args, **kwargs)


def _v(x):
    return x.value if isinstance(x, constexpr) else x


def _binop(name):
    def f(self, other):
        return constexpr(getattr(self.value, name)(_v(other)))

    return f


for _name in ("__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__",
              "__truediv__", "__rtruediv__", "__floordiv__", "__rfloordiv__", "__mod__",
              "__rmod__", "__pow__", "__rpow__", "__lshift__", "__rlshift__", "__rshift__",
              "__rrshift__", "__and__", "__rand__", "__or__", "__ror__", "__xor__",
              "__rxor__", "__lt__", "__le__", "__gt__", "__ge__"):
    setattr(constexpr, _name, _binop(_name))

constexpr.__neg__ = lambda self: constexpr(-self.value)
constexpr.__pos__ = lambda self: constexpr(+self.value)
constexpr.__invert__ = lambda self: constexpr(~self.value)


class dtype:
    """A Triton scalar (or pointer) type: tl.float32, tl.pointer_type(tl.int8), ..."""

    _by_id = {}
    _PTR = 0x40

    def __init__(self, name, ident, attr=None):
        self.name = name
        self._id = ident
        self._attr = attr

    @classmethod
    def _of_id(cls, ident):
        d = cls._by_id.get(ident)
        if d is None and ident & cls._PTR:
            elem = cls._of_id(ident & ~cls._PTR)
            d = pointer_type(elem)
        return d

    @property
    def primitive_bitwidth(self):
        n = self.name
        if self.is_ptr():
            return 64
        if n == "int1":
            return 1
        return int("".join(c for c in n if c.isdigit())[-2:]) if n[-1].isdigit() else 8

    def is_ptr(self):
        return bool(self._id & self._PTR)

    def is_floating(self):
        return self.name.startswith(("fp", "bf"))

    def is_int(self):
        return self.name.startswith(("int", "uint"))

    def is_int_signed(self):
        return self.name.startswith("int")

    def is_int_unsigned(self):
        return self.name.startswith("uint")

    def is_bool(self):
        return self.name == "int1"

    def __eq__(self, other):
        return isinstance(other, dtype) and other._id == self._id

    def __hash__(self):
        return hash(("tritsim.dtype", self._id))

    def __str__(self):
        return self.name

    def __repr__(self):
        return "triton.language.%s" % (self._attr or self.name)


class pointer_type(dtype):
    """tl.pointer_type(element_ty)"""

    def __init__(self, element_ty, address_space=1, const=False):
        super().__init__("pointer<%s>" % element_ty.name, element_ty._id | dtype._PTR)
        self.element_ty = element_ty

    def __repr__(self):
        return "pointer<%s>" % self.element_ty.name


def make_dtypes():
    """{tl attribute: dtype} for every scalar type tritsim knows."""
    out = {}
    for attr, ident, name in _tritsim.dtypes():
        d = dtype(name, ident, attr)
        dtype._by_id[ident] = d
        out[attr] = d
    return out


DTYPES = make_dtypes()


class KernelOnly:
    """A function only kernels call (tl.load, libdevice.exp, ...): tritsim's
    specializer knows it by its qualified name."""

    def __init__(self, qualname, shown):
        self.__tritsim_name__ = qualname
        self.__name__ = shown.rsplit(".", 1)[-1]
        self._shown = shown

    def __call__(self, *args, **kwargs):
        raise RuntimeError("%s can only be called inside a @triton.jit function" % self._shown)

    def __repr__(self):
        return "<tritsim kernel function %s>" % self.__tritsim_name__


def kernel_names(module_globals, prefix, shown):
    """Fill a module's namespace with the kernel-only functions named
    prefix + X (no further dot), each shown as shown + X; names the module
    defines already are kept."""
    for q in _tritsim.builtin_names():
        if not q.startswith(prefix):
            continue
        attr = q[len(prefix):]
        if "." in attr or attr in module_globals:
            continue
        module_globals[attr] = KernelOnly(q, shown + attr)


def alias_names(module_globals, qual_prefix, shown):
    """Like kernel_names for a module (tl.math) whose functions are
    triton.language's under another name: every X where qual_prefix + X is
    one a kernel can call."""
    for q in _tritsim.builtin_names():
        if not q.startswith("triton.language."):
            continue
        attr = q[len("triton.language."):]
        if "." in attr or attr in module_globals:
            continue
        if _tritsim.has_builtin(qual_prefix + attr):
            module_globals[attr] = KernelOnly(qual_prefix + attr, shown + attr)


def kernel_name(obj, qualname):
    """Mark a host function as also the kernel built-in qualname."""
    obj.__tritsim_name__ = qualname
    return obj


def host_kernel(fn):
    """The _tritsim.Kernel of a plain Python function that an interpreted
    kernel calls (kept on the function)."""
    k = getattr(fn, "__tritsim_kernel__", None)
    if k is None:
        lines, first = inspect.getsourcelines(fn)
        k = _tritsim.Kernel(fn, "".join(lines), fn.__code__.co_filename, first, 0, True)
        fn.__tritsim_kernel__ = k
    return k


_tritsim.register(JITFunction, constexpr, dtype, host_kernel)
