/* pyext_args.c - the user's Python values as tritsim sees them: constants
 * for the specializer (spec_const) and tensors as launch arguments.
 *
 * A tensor is any object with data_ptr(), as Triton takes them (PyTorch's
 * of any version: data_ptr, dtype, is_cuda and its storage's size).  Its
 * memory is read and written in place; the bounds a kernel's accesses are
 * checked against run from data_ptr() to the end of its storage
 * (untyped_storage(), or _storage() on PyTorch 1.13), so a view may
 * reach the rest of its storage after it, as on a GPU, and nothing past. */
#include "pyext.h"

#include <string.h>

pyext_names pyext_str;

bool pyext_names_init(void)
{
    struct { PyObject **slot; const char *s; } t[] = {
        {&pyext_str.data_ptr, "data_ptr"}, {&pyext_str.dtype, "dtype"},
        {&pyext_str.untyped_storage, "untyped_storage"}, {&pyext_str.storage, "storage"},
        {&pyext_str.nbytes, "nbytes"}, {&pyext_str.is_cuda, "is_cuda"},
        {&pyext_str.cpu, "cpu"}, {&pyext_str.copy_, "copy_"}, {&pyext_str.value, "value"},
        {&pyext_str.id, "_id"}, {&pyext_str.kernel_object, "_kernel_object"},
        {&pyext_str.tritsim_name, "__tritsim_name__"}, {&pyext_str.name, "__name__"},
        {&pyext_str.element_size, "element_size"}, {&pyext_str.size, "size"},
        {&pyext_str.get_device, "get_device"}, {&pyext_str.data, "data"},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (!(*t[i].slot = PyUnicode_InternFromString(t[i].s)))
            return false;
    return true;
}

/* ---- constants ------------------------------------------------------------ */

/* tl.dtype object -> its tritsim dtype (the _id the package gave it). */
static dtype pyext_tl_dtype(PyObject *v)
{
    PyObject *id = PyObject_GetAttr(v, pyext_str.id);
    if (!id) {
        PyErr_Clear();
        return DTYPE_INVALID;
    }
    long n = PyLong_AsLong(id);
    Py_DECREF(id);
    if (n == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        return DTYPE_INVALID;
    }
    return (dtype)n;
}

bool pyext_const(PyObject *v, arena *a, spec_const *out)
{
    memset(out, 0, sizeof *out);
    if (pyext_constexpr_class && PyObject_TypeCheck(v, (PyTypeObject *)pyext_constexpr_class)) {
        PyObject *inner = PyObject_GetAttr(v, pyext_str.value);
        if (!inner) {
            PyErr_Clear();
            return false;
        }
        bool ok = pyext_const(inner, a, out);
        Py_DECREF(inner);
        return ok;
    }
    if (v == Py_None) {
        out->kind = SC_NONE;
        return true;
    }
    if (PyBool_Check(v)) {
        out->kind = SC_BOOL;
        out->u.b = v == Py_True;
        return true;
    }
    if (PyLong_Check(v)) {
        int overflow;
        long long n = PyLong_AsLongLongAndOverflow(v, &overflow);
        if (overflow || (n == -1 && PyErr_Occurred())) {
            PyErr_Clear();
            return false;
        }
        out->kind = SC_INT;
        out->u.i = n;
        return true;
    }
    if (PyFloat_Check(v)) {
        out->kind = SC_FLOAT;
        out->u.f = PyFloat_AS_DOUBLE(v);
        return true;
    }
    if (PyUnicode_Check(v)) {
        Py_ssize_t len;
        const char *s = PyUnicode_AsUTF8AndSize(v, &len);
        if (!s) {
            PyErr_Clear();
            return false;
        }
        out->kind = SC_STR;
        out->u.str.s = arena_strndup(a, s, (size_t)len);
        out->u.str.len = (size_t)len;
        return true;
    }
    if (pyext_dtype_class && PyObject_TypeCheck(v, (PyTypeObject *)pyext_dtype_class)) {
        dtype dt = pyext_tl_dtype(v);
        if (dt == DTYPE_INVALID)
            return false;
        out->kind = SC_DTYPE;
        out->u.dt = dt;
        return true;
    }
    if (PyTuple_Check(v) || PyList_Check(v)) {
        Py_ssize_t n = PySequence_Fast_GET_SIZE(v);
        out->kind = SC_TUPLE;
        out->u.tuple.n = (int)n;
        out->u.tuple.items = arena_alloc(a, ((size_t)n + 1) * sizeof *out->u.tuple.items);
        for (Py_ssize_t i = 0; i < n; i++)
            if (!pyext_const(PySequence_Fast_GET_ITEM(v, i), a, &out->u.tuple.items[i]))
                return false;
        return true;
    }
    return false;
}

/* The tl.dtype object of dt: the package's, by calling the dtype class
 * with the id (the package keeps one object per id). */
static PyObject *pyext_dtype_object(dtype dt)
{
    if (!pyext_dtype_class)
        return PyLong_FromLong((long)dt);
    return PyObject_CallMethod(pyext_dtype_class, "_of_id", "i", (int)dt);
}

PyObject *pyext_const_object(const spec_const *c)
{
    switch (c->kind) {
    case SC_NONE: Py_RETURN_NONE;
    case SC_BOOL: return PyBool_FromLong(c->u.b);
    case SC_INT: return PyLong_FromLongLong(c->u.i);
    case SC_FLOAT: return PyFloat_FromDouble(c->u.f);
    case SC_STR: return PyUnicode_FromStringAndSize(c->u.str.s, (Py_ssize_t)c->u.str.len);
    case SC_DTYPE: return pyext_dtype_object(c->u.dt);
    case SC_TUPLE: {
        PyObject *t = PyTuple_New(c->u.tuple.n);
        for (int i = 0; t && i < c->u.tuple.n; i++) {
            PyObject *x = pyext_const_object(&c->u.tuple.items[i]);
            if (!x) {
                Py_DECREF(t);
                return NULL;
            }
            PyTuple_SET_ITEM(t, i, x);
        }
        return t;
    }
    }
    Py_RETURN_NONE;
}

/* ---- tensors ---------------------------------------------------------------- */

bool pyext_is_tensor(PyObject *v)
{
    /* numbers first: they are the common non-tensor arguments */
    if (PyLong_Check(v) || PyFloat_Check(v) || v == Py_None)
        return false;
    return PyObject_HasAttr(v, pyext_str.data_ptr);
}

/* The dtype objects seen so far -> dtype (a dict: torch.float32 -> 13). */
static PyObject *pyext_dtype_cache;

dtype pyext_tensor_dtype(PyObject *v)
{
    PyObject *d = PyObject_GetAttr(v, pyext_str.dtype);
    if (!d)
        return DTYPE_INVALID;
    if (!pyext_dtype_cache && !(pyext_dtype_cache = PyDict_New())) {
        Py_DECREF(d);
        return DTYPE_INVALID;
    }
    PyObject *hit = PyDict_GetItemWithError(pyext_dtype_cache, d);
    if (hit) {
        Py_DECREF(d);
        return (dtype)PyLong_AsLong(hit);
    }
    if (PyErr_Occurred()) {
        Py_DECREF(d);
        return DTYPE_INVALID;
    }
    /* str(torch.float32) is "torch.float32" */
    dtype dt = DTYPE_INVALID;
    PyObject *s = PyObject_Str(d);
    const char *name = s ? PyUnicode_AsUTF8(s) : NULL;
    if (name) {
        const char *dot = strrchr(name, '.');
        dt = dtype_from_torch_attr(dot ? dot + 1 : name);
        if (dt == DTYPE_INVALID)
            PyErr_Format(PyExc_TypeError, "tritsim kernels take no tensors of dtype %s", name);
    }
    if (dt != DTYPE_INVALID) {
        PyObject *n = PyLong_FromLong((long)dt);
        if (!n || PyDict_SetItem(pyext_dtype_cache, d, n) < 0)
            dt = DTYPE_INVALID;
        Py_XDECREF(n);
    }
    Py_XDECREF(s);
    Py_DECREF(d);
    return dt;
}

int pyext_tensor_is_cuda(PyObject *v)
{
    PyObject *c = PyObject_GetAttr(v, pyext_str.is_cuda);
    if (!c) {
        PyErr_Clear();          /* not a torch tensor: host memory */
        return 0;
    }
    int r = PyObject_IsTrue(c);
    Py_DECREF(c);
    return r;
}

bool pyext_tensor_on_gpu0(PyObject *v, const char *param)
{
    PyObject *r = PyObject_CallMethodObjArgs(v, pyext_str.get_device, NULL);
    if (!r)
        return false;
    long dev = PyLong_AsLong(r);
    Py_DECREF(r);
    if (dev == -1 && PyErr_Occurred())
        return false;
    if (dev != 0) {
        PyErr_Format(PyExc_ValueError, "argument '%s' is on cuda:%ld, but tritsim's GPU "
                     "backend runs kernels on cuda:0 (move the tensor there, or choose the "
                     "GPU with CUDA_VISIBLE_DEVICES)", param, dev);
        return false;
    }
    return true;
}

/* v.method() as an unsigned 64-bit integer; false with an exception set. */
static bool pyext_call_u64(PyObject *v, PyObject *method, uint64_t *out)
{
    PyObject *r = PyObject_CallMethodObjArgs(v, method, NULL);
    if (!r)
        return false;
    *out = (uint64_t)PyLong_AsUnsignedLongLongMask(r);
    Py_DECREF(r);
    return !PyErr_Occurred();
}

/* Which method gives a tensor's storage with data_ptr() and nbytes():
 * untyped_storage() (PyTorch 2), _storage() (1.13, whose storage() makes
 * a TypedStorage in Python, ten times slower), storage() (older), or
 * none (then the object's own nbytes()); asked once per tensor type. */
static PyTypeObject *pyext_storage_type;
static PyObject *pyext_storage_method;      /* NULL: none */

static PyObject *pyext_storage_method_of(PyObject *v)
{
    if (Py_TYPE(v) == pyext_storage_type)
        return pyext_storage_method;
    static const char *const names[] = {"untyped_storage", "_storage", "storage"};
    PyObject *m = NULL;
    for (size_t i = 0; i < sizeof names / sizeof names[0] && !m; i++)
        if (PyObject_HasAttrString(v, names[i]))
            m = PyUnicode_InternFromString(names[i]);
    Py_XSETREF(pyext_storage_method, m);
    pyext_storage_type = Py_TYPE(v);
    return m;
}

/* The first byte and the size of v's storage (method: which gives it). */
static bool pyext_storage(PyObject *v, PyObject *method, uint64_t *base, uint64_t *bytes)
{
    PyObject *st = PyObject_CallMethodObjArgs(v, method, NULL);
    if (!st)
        return false;
    bool ok = pyext_call_u64(st, pyext_str.data_ptr, base);
    if (ok && !pyext_call_u64(st, pyext_str.nbytes, bytes)) {
        /* older storages: size() elements of element_size() bytes */
        PyErr_Clear();
        uint64_t n, esz;
        ok = pyext_call_u64(st, pyext_str.size, &n) &&
             pyext_call_u64(st, pyext_str.element_size, &esz);
        *bytes = n * esz;
    }
    Py_DECREF(st);
    return ok;
}

/* torch.Tensor.data_ptr as PyTorch defined it, before the shim wrapped it
 * to reveal the tensors a program takes addresses of (pyext_reveal.c):
 * launches read their arguments' addresses through it, which reveals
 * nothing.  NULL until the shim gives it. */
static PyObject *pyext_data_ptr_fn;
static PyObject *pyext_data_ptr_cls;       /* torch.Tensor, whose method it is */

void pyext_set_data_ptr(PyObject *cls, PyObject *fn)
{
    Py_XSETREF(pyext_data_ptr_cls, Py_NewRef(cls));
    Py_XSETREF(pyext_data_ptr_fn, Py_NewRef(fn));
}

bool pyext_tensor_addr(PyObject *v, uint64_t *addr)
{
    if (!pyext_data_ptr_fn || PyObject_IsInstance(v, pyext_data_ptr_cls) != 1)
        return pyext_call_u64(v, pyext_str.data_ptr, addr);
    PyObject *r = PyObject_CallOneArg(pyext_data_ptr_fn, v);
    if (!r)
        return false;
    *addr = (uint64_t)PyLong_AsUnsignedLongLongMask(r);
    Py_DECREF(r);
    return !PyErr_Occurred();
}

bool pyext_tensor_storage(PyObject *v, uint64_t *base, uint64_t *bytes)
{
    PyObject *method = pyext_storage_method_of(v);
    if (!method) {
        PyErr_SetString(PyExc_TypeError, "tritsim: not a tensor with a storage");
        return false;
    }
    return pyext_storage(v, method, base, bytes);
}

bool pyext_tensor_of(PyObject *v, dtype dt, const char *param, pyext_tensor *out)
{
    uint64_t addr, base = 0, bytes = 0;
    if (!pyext_tensor_addr(v, &addr))
        return false;
    PyObject *method = pyext_storage_method_of(v);
    if (method) {
        if (!pyext_storage(v, method, &base, &bytes))
            return false;
    } else {
        /* not a torch tensor: nbytes from the object itself if it has it */
        if (!pyext_call_u64(v, pyext_str.nbytes, &bytes)) {
            PyErr_Format(PyExc_TypeError, "argument '%s' has data_ptr() but tritsim cannot "
                         "tell how many bytes it holds (no storage and no nbytes())", param);
            return false;
        }
        base = addr;
    }
    int esz = dtype_size(dt);
    out->addr = addr;
    out->dt = dt;
    out->base = base;
    out->bytes = bytes;
    out->numel = addr >= base && addr <= base + bytes && esz > 0
                     ? (base + bytes - addr) / (uint64_t)esz : 0;
    return true;
}
