/* pyext.c - the module _tritsim: what the Python package (python/tritsim/)
 * calls into.
 *
 *   configure(backend=, threads=, unchecked=, no_break=, dump_ir=, break_spec=)
 *                      the options of python3 -m tritsim, before the first launch
 *   register(jit, constexpr, dtype, host_kernel)
 *                      the package's classes, which kernels' lookups recognise
 *   builtin_names()    every function a kernel can call, by qualified name
 *                      (the package fills triton.language from it)
 *   dtypes()           (tl attribute, id, triton name) of each scalar type
 *   debug_start(script, break_spec)
 *                      tritsim's debugger for the kernels (pyext_debug.c)
 *   Kernel             a @triton.jit function (pyext_kernel.c)
 *   KernelError        what a failing kernel raises
 *
 * The backend is opened at the first launch and closed when the module
 * is freed (at the interpreter's exit). */
#include "pyext.h"

#include <string.h>

#include "backend.h"
#include "strbuf.h"

pyext_options pyext_opts = {.backend = "cpu"};
PyObject *pyext_kernel_error;
PyObject *pyext_jit_class, *pyext_constexpr_class, *pyext_dtype_class, *pyext_host_kernel;

static backend_dev *pyext_dev;

backend_dev *pyext_device(void)
{
    if (pyext_dev)
        return pyext_dev;
    const backend *be;
    strbuf why = {0};
    backend_status st = backend_select(pyext_opts.backend, &be, &why);
    if (st == BACKEND_UNKNOWN) {
        PyErr_Format(pyext_kernel_error, "no backend '%s' in this build of tritsim",
                     pyext_opts.backend);
    } else if (st == BACKEND_UNAVAILABLE) {
        PyErr_Format(pyext_kernel_error, "the %s backend cannot run kernels here: %s",
                     pyext_opts.backend, strbuf_cstr(&why));
    } else {
        pyext_dev = backend_open(be, &(backend_config){.threads = pyext_opts.threads,
                                                         .unchecked = pyext_opts.unchecked},
                                 &why);
        if (!pyext_dev)
            PyErr_Format(pyext_kernel_error, "the %s backend cannot run kernels: %s",
                         be->name, strbuf_cstr(&why));
    }
    strbuf_free(&why);
    return pyext_dev;
}

bool pyext_device_open(void)
{
    return pyext_dev != NULL;
}

/* A copy of a Python str option (NULL for None). */
static bool pyext_str_option(PyObject *v, char **out)
{
    free(*out);
    *out = NULL;
    if (!v || v == Py_None)
        return true;
    const char *s = PyUnicode_AsUTF8(v);
    if (!s)
        return false;
    *out = strdup(s);
    return *out != NULL;
}

static PyObject *pyext_configure(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *kwlist[] = {"backend", "threads", "unchecked", "no_break", "dump_ir",
                             "break_spec", NULL};
    const char *be_name = NULL;
    int threads = pyext_opts.threads, unchecked = pyext_opts.unchecked,
        no_break = pyext_opts.no_break;
    PyObject *dump_ir = NULL, *brk = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|$zippOO", kwlist, &be_name, &threads,
                                     &unchecked, &no_break, &dump_ir, &brk))
        return NULL;
    if (pyext_dev && ((be_name && strcmp(be_name, pyext_opts.backend)) ||
                      threads != pyext_opts.threads || unchecked != pyext_opts.unchecked)) {
        PyErr_SetString(PyExc_RuntimeError, "tritsim.configure: the backend, threads and "
                        "unchecked options are fixed once a kernel has run");
        return NULL;
    }
    if (be_name) {
        if (strlen(be_name) >= sizeof pyext_opts.backend) {
            PyErr_Format(PyExc_ValueError, "no backend '%s'", be_name);
            return NULL;
        }
        const backend *be;
        strbuf why = {0};
        backend_status st = backend_select(be_name, &be, &why);
        if (st != BACKEND_OK) {
            if (st == BACKEND_UNKNOWN)
                PyErr_Format(PyExc_ValueError, "no backend '%s' in this build of tritsim "
                             "(cpu, cuda)", be_name);
            else
                PyErr_Format(PyExc_ValueError, "the %s be_name cannot run here: %s", be_name,
                             strbuf_cstr(&why));
            strbuf_free(&why);
            return NULL;
        }
        strbuf_free(&why);
        strcpy(pyext_opts.backend, be_name);
    }
    if (threads < 0) {
        PyErr_SetString(PyExc_ValueError, "threads must be 0 (one per core) or more");
        return NULL;
    }
    pyext_opts.threads = threads;
    pyext_opts.unchecked = unchecked;
    pyext_opts.no_break = no_break;
    if ((dump_ir && !pyext_str_option(dump_ir, &pyext_opts.dump_ir)) ||
        (brk && !pyext_str_option(brk, &pyext_opts.break_spec)))
        return NULL;
    Py_RETURN_NONE;
}

static PyObject *pyext_register(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *jit, *cexpr, *dt, *hk;
    if (!PyArg_ParseTuple(args, "O!O!O!O", &PyType_Type, &jit, &PyType_Type, &cexpr,
                          &PyType_Type, &dt, &hk))
        return NULL;
    Py_XSETREF(pyext_host_kernel, Py_NewRef(hk));
    Py_XSETREF(pyext_jit_class, Py_NewRef(jit));
    Py_XSETREF(pyext_constexpr_class, Py_NewRef(cexpr));
    Py_XSETREF(pyext_dtype_class, Py_NewRef(dt));
    Py_RETURN_NONE;
}

static PyObject *pyext_builtin_names(PyObject *self, PyObject *unused)
{
    (void)self, (void)unused;
    PyObject *l = PyList_New(0);
    for (int i = 0; l && spec_builtin_name(i); i++) {
        PyObject *s = PyUnicode_FromString(spec_builtin_name(i));
        if (!s || PyList_Append(l, s) < 0) {
            Py_XDECREF(s);
            Py_DECREF(l);
            return NULL;
        }
        Py_DECREF(s);
    }
    return l;
}

static PyObject *pyext_has_builtin(PyObject *self, PyObject *arg)
{
    (void)self;
    const char *s = PyUnicode_AsUTF8(arg);
    if (!s)
        return NULL;
    return PyBool_FromLong(spec_has_builtin(s));
}

static PyObject *pyext_dtypes(PyObject *self, PyObject *unused)
{
    (void)self, (void)unused;
    PyObject *l = PyList_New(0);
    for (int d = 1; l && d < DTYPE__NSCALAR; d++) {
        const char *attr = dtype_tl_name((dtype)d);
        if (!attr)
            continue;
        PyObject *t = Py_BuildValue("(sis)", attr, d, dtype_name((dtype)d));
        if (!t || PyList_Append(l, t) < 0) {
            Py_XDECREF(t);
            Py_DECREF(l);
            return NULL;
        }
        Py_DECREF(t);
    }
    return l;
}

static PyMethodDef pyext_methods[] = {
    {"configure", (PyCFunction)(void (*)(void))pyext_configure, METH_VARARGS | METH_KEYWORDS,
     "configure(backend=, threads=, unchecked=, no_break=, dump_ir=, break_spec=)"},
    {"register", pyext_register, METH_VARARGS, "register(jit, constexpr, dtype, host_kernel)"},
    {"builtin_names", pyext_builtin_names, METH_NOARGS,
     "the qualified names of the functions kernels can call"},
    {"has_builtin", pyext_has_builtin, METH_O, "can a kernel call this qualified name?"},
    {"dtypes", pyext_dtypes, METH_NOARGS, "(tl attribute, id, name) of each scalar type"},
    {"reveal", pyext_reveal, METH_O,
     "reveal(t): kernels may reach t's storage through integer addresses while t lives"},
    {"set_allocator", pyext_set_allocator, METH_O,
     "set_allocator(fn): triton.set_allocator's allocator"},
    {"set_data_ptr", pyext_set_data_ptr_py, METH_VARARGS,
     "set_data_ptr(cls, fn): the data_ptr launches read addresses with"},
    {"debug_start", pyext_debug_start, METH_VARARGS,
     "debug_start(script, break_spec): tritsim's debugger for the kernels (--break)"},
    {NULL, NULL, 0, NULL},
};

static void pyext_free(void *m)
{
    (void)m;
    pyext_debug_end();
    if (pyext_dev) {
        backend_close(pyext_dev);
        pyext_dev = NULL;
    }
}

static struct PyModuleDef pyext_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_tritsim",
    .m_doc = "tritsim's kernel pipeline for the user's own Python (python3 -m tritsim)",
    .m_size = -1,
    .m_methods = pyext_methods,
    .m_free = pyext_free,
};

PyMODINIT_FUNC PyInit__tritsim(void)
{
    if (!pyext_names_init() || PyType_Ready(&pyext_kernel_type) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&pyext_module);
    if (!m)
        return NULL;
    pyext_kernel_error = PyErr_NewExceptionWithDoc(
        "_tritsim.KernelError",
        "A kernel failed (out of bounds, an assertion, a compile error): the message is "
        "tritsim's diagnostic", PyExc_RuntimeError, NULL);
    Py_INCREF(&pyext_kernel_type);
    if (!pyext_kernel_error || PyModule_AddObject(m, "KernelError", pyext_kernel_error) < 0 ||
        PyModule_AddObject(m, "Kernel", (PyObject *)&pyext_kernel_type) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(pyext_kernel_error);      /* the module's reference and ours */
    return m;
}
