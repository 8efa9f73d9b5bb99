/* pyext_kernel.c - _tritsim.Kernel: one @triton.jit function of the user's
 * program, never run by Python.
 *
 * Made from the function (its source lines as inspect.getsourcelines gives
 * them, its file name and first line), it parses that text with tritsim's
 * parser, placed at its own lines of its own file so that every diagnostic
 * names the true file:line:col.  A launch, kernel.run(grid, args, kwargs),
 * binds the arguments to the parameters, evaluates the grid, describes
 * each parameter for the specializer (constexprs by value, the others by
 * type), finds or makes the specialization for that key (its IR and the
 * backend's kernel object, cached together), and runs it on the run's
 * backend with the tensors' own memory.  Names the kernel uses are looked
 * up in the function's closure and globals, as Triton does: other jit
 * functions, constants, tl.constexpr globals, dtypes, modules (by their
 * __name__), and the package's kernel-only functions (by the
 * __tritsim_name__ each carries).
 *
 * A failure in the kernel (out of bounds, a failed assertion, a compile
 * error) raises tritsim.KernelError whose message is tritsim's diagnostic;
 * the programs' prints before it are written to sys.stdout first. */
#define _POSIX_C_SOURCE 200809L
#include "pyext.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "ir.h"
#include "parse.h"
#include "strbuf.h"

/* One specialization: its key, IR and compiled kernel; the kernel objects
 * of the helpers its lookups found (kept alive with the IR, which points
 * into their ASTs). */
typedef struct pyext_spec {
    struct pyext_spec *next;
    spec_param *params;
    int nparams;
    arena mem;
    ir_kernel *ir;
    backend_kernel *compiled;
    PyObject *keep;         /* a list, or NULL */
    bool int_ptrs;          /* it makes pointers from integers (pyext_reveal.c) */
} pyext_spec;

typedef struct pyext_kernel {
    PyObject_HEAD
    PyObject *fn;           /* the Python function */
    PyObject *globals;      /* fn.__globals__ */
    PyObject *closure;      /* its free variables: name -> value (a dict), or NULL */
    PyObject *name;         /* fn.__name__ */
    src_file *file;
    arena mem;              /* the AST */
    const ast_node *def;
    int nparams;
    const char **pnames;    /* the parameters' names */
    bool *pconst;           /* annotated tl.constexpr */
    PyObject **defaults;    /* per parameter, or NULL (references) */
    uint64_t no_spec;       /* bit i: do_not_specialize parameter i */
    bool interpret;         /* made under TRITON_INTERPRET=1: it may call plain
                               Python functions (spec_host.interpret) */
    pyext_spec *cache;
} pyext_kernel;

/* ---- diagnostics into a string ---------------------------------------------- */

typedef struct pyext_diag {
    diag_sink sink;
    char *text;
    size_t len;
} pyext_diag;

static bool pyext_diag_open(pyext_diag *d)
{
    d->text = NULL;
    d->len = 0;
    FILE *f = open_memstream(&d->text, &d->len);
    if (!f) {
        PyErr_NoMemory();
        return false;
    }
    diag_sink_init(&d->sink, f);
    d->sink.color = false;
    return true;
}

/* Close d; its text (maybe empty), to free. */
static char *pyext_diag_close(pyext_diag *d)
{
    fclose(d->sink.out);
    if (!d->text)
        d->text = xstrdup("");
    return d->text;
}

/* Raise KernelError with d's text (closing d), then NULL. */
static PyObject *pyext_raise_diag(pyext_diag *d)
{
    char *t = pyext_diag_close(d);
    size_t n = strlen(t);
    while (n && t[n - 1] == '\n')
        t[--n] = '\0';
    PyErr_SetString(pyext_kernel_error, *t ? t : "the kernel failed");
    free(t);
    return NULL;
}

/* Write n bytes of text to sys.stdout (the programs' prints, in order
 * with Python's own). */
static bool pyext_write_stdout(const char *text, size_t n)
{
    if (!n)
        return true;
    PyObject *out = PySys_GetObject("stdout");     /* borrowed */
    if (!out || out == Py_None) {
        fwrite(text, 1, n, stdout);
        fflush(stdout);
        return true;
    }
    PyObject *s = PyUnicode_DecodeUTF8(text, (Py_ssize_t)n, "replace");
    if (!s)
        return false;
    int r = PyFile_WriteObject(s, out, Py_PRINT_RAW);
    Py_DECREF(s);
    return r == 0;
}

/* Flush sys.stdout and sys.stderr before tritsim writes to the process's
 * own streams (--dump-ir, the debugger). */
static void pyext_flush_python(void)
{
    const char *names[] = {"stdout", "stderr"};
    for (int i = 0; i < 2; i++) {
        PyObject *f = PySys_GetObject(names[i]);
        if (f && f != Py_None) {
            PyObject *r = PyObject_CallMethod(f, "flush", NULL);
            if (!r)
                PyErr_Clear();
            Py_XDECREF(r);
        }
    }
}

/* ---- the kernel object ------------------------------------------------------ */

static void pyext_spec_free(pyext_spec *s)
{
    backend_free(s->compiled);
    Py_XDECREF(s->keep);
    arena_free(&s->mem);
    free(s);
}

static void pyext_kernel_dealloc(PyObject *self)
{
    pyext_kernel *k = (pyext_kernel *)self;
    for (pyext_spec *s = k->cache, *next; s; s = next) {
        next = s->next;
        pyext_spec_free(s);
    }
    for (int i = 0; i < k->nparams; i++)
        Py_XDECREF(k->defaults ? k->defaults[i] : NULL);
    free(k->defaults);
    free(k->pnames);
    free(k->pconst);
    if (k->file)
        src_free(k->file);
    arena_free(&k->mem);
    Py_XDECREF(k->fn);
    Py_XDECREF(k->globals);
    Py_XDECREF(k->closure);
    Py_XDECREF(k->name);
    Py_TYPE(self)->tp_free(self);
}

static bool pyext_is_constexpr_ann(const ast_node *param)
{
    const ast_node *ann = param->u.param.annotation;
    if (!ann)
        return false;
    if (ann->kind == AST_ATTRIBUTE)
        return !strcmp(ann->u.attribute.attr, "constexpr");
    if (ann->kind == AST_STR)       /* 'tl.constexpr' */
        return strstr(ann->u.str.s, "constexpr") != NULL;
    return ann->kind == AST_NAME && !strcmp(ann->u.name.id, "constexpr");
}

/* The FUNCDEF called name among the statements (or inside the `if 1:`
 * that wraps an indented function). */
static const ast_node *pyext_find_def(const ast_list *body, const char *name)
{
    for (int i = 0; i < body->len; i++) {
        const ast_node *n = body->items[i];
        if (n->kind == AST_FUNCDEF && !strcmp(n->u.funcdef.name, name))
            return n;
        if (n->kind == AST_IF) {
            const ast_node *d = pyext_find_def(&n->u.if_.body, name);
            if (d)
                return d;
        }
    }
    return NULL;
}

/* The source text of the function at its own lines: blank lines before
 * it, and when it is indented (a method or a nested def) an `if 1:` on
 * the line just before it, so that its columns stay its own. */
static bool pyext_place_source(const char *src, long firstline, strbuf *out)
{
    bool indented = *src == ' ' || *src == '\t';
    long blank = firstline - 1 - (indented ? 1 : 0);
    if (blank < 0) {
        PyErr_SetString(PyExc_ValueError, "an indented kernel on the first line of its file");
        return false;
    }
    strbuf_repeat(out, '\n', (size_t)blank);
    if (indented)
        strbuf_puts(out, "if 1:\n");
    strbuf_puts(out, src);
    return true;
}

/* fn's free variables as a dict of name -> value (cells that are set). */
static PyObject *pyext_closure_of(PyObject *fn)
{
    PyObject *code = PyObject_GetAttrString(fn, "__code__");
    PyObject *cells = PyObject_GetAttrString(fn, "__closure__");
    PyObject *names = code ? PyObject_GetAttrString(code, "co_freevars") : NULL;
    PyObject *d = NULL;
    if (!code || !cells || !names) {
        PyErr_Clear();
    } else if (cells != Py_None && PyTuple_Check(cells) && PyTuple_Check(names) &&
               PyTuple_GET_SIZE(cells) == PyTuple_GET_SIZE(names) && PyTuple_GET_SIZE(names)) {
        d = PyDict_New();
        for (Py_ssize_t i = 0; d && i < PyTuple_GET_SIZE(names); i++) {
            PyObject *c = PyCell_Get(PyTuple_GET_ITEM(cells, i));
            if (!c) {
                PyErr_Clear();      /* an empty cell */
                continue;
            }
            PyDict_SetItem(d, PyTuple_GET_ITEM(names, i), c);
            Py_DECREF(c);
        }
    }
    Py_XDECREF(code);
    Py_XDECREF(cells);
    Py_XDECREF(names);
    return d;
}

/* Kernel(fn, source, filename, firstline, no_spec=0, interpret=False) */
static PyObject *pyext_kernel_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"fn", "source", "filename", "firstline", "no_spec", "interpret",
                             NULL};
    PyObject *fn;
    const char *src, *filename;
    long firstline;
    unsigned long long no_spec = 0;
    int interpret = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "Ossl|Kp", kwlist, &fn, &src, &filename,
                                     &firstline, &no_spec, &interpret))
        return NULL;
    pyext_kernel *k = (pyext_kernel *)type->tp_alloc(type, 0);
    if (!k)
        return NULL;
    arena_init(&k->mem);
    k->no_spec = no_spec;
    k->interpret = interpret;
    k->fn = Py_NewRef(fn);
    k->globals = PyObject_GetAttrString(fn, "__globals__");
    k->name = PyObject_GetAttr(fn, pyext_str.name);
    if (!k->globals || !k->name || !PyDict_Check(k->globals) || !PyUnicode_Check(k->name)) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "a kernel is made from a Python function");
        Py_DECREF(k);
        return NULL;
    }
    k->closure = pyext_closure_of(fn);
    strbuf text = {0};
    if (!pyext_place_source(src, firstline, &text)) {
        strbuf_free(&text);
        Py_DECREF(k);
        return NULL;
    }
    k->file = src_from_string(filename, strbuf_cstr(&text), text.len);
    strbuf_free(&text);
    pyext_diag d;
    if (!pyext_diag_open(&d)) {
        Py_DECREF(k);
        return NULL;
    }
    const ast_node *mod = parse_file(k->file, &d.sink, &k->mem);
    if (d.sink.nerrors) {
        Py_DECREF(k);
        return pyext_raise_diag(&d);
    }
    free(pyext_diag_close(&d));
    const char *name = PyUnicode_AsUTF8(k->name);
    k->def = pyext_find_def(&mod->u.module.body, name);
    if (!k->def) {
        PyErr_Format(pyext_kernel_error, "%s:%ld: no def %s in the kernel's source", filename,
                     firstline, name);
        Py_DECREF(k);
        return NULL;
    }
    const ast_list *ps = &k->def->u.funcdef.params;
    k->nparams = ps->len;
    k->pnames = xcalloc((size_t)ps->len + 1, sizeof *k->pnames);
    k->pconst = xcalloc((size_t)ps->len + 1, sizeof *k->pconst);
    k->defaults = xcalloc((size_t)ps->len + 1, sizeof *k->defaults);
    for (int i = 0; i < ps->len; i++) {
        k->pnames[i] = ps->items[i]->u.param.name;
        k->pconst[i] = pyext_is_constexpr_ann(ps->items[i]);
    }
    PyObject *defs = PyObject_GetAttrString(fn, "__defaults__");
    if (defs && PyTuple_Check(defs)) {
        Py_ssize_t nd = PyTuple_GET_SIZE(defs);
        for (Py_ssize_t j = 0; j < nd && j < ps->len; j++)
            k->defaults[ps->len - nd + j] = Py_NewRef(PyTuple_GET_ITEM(defs, j));
    }
    Py_XDECREF(defs);
    PyErr_Clear();
    return (PyObject *)k;
}

/* ---- name lookups for the specializer ----------------------------------------- */

typedef struct pyext_lookup_ctx {
    pyext_spec *s;          /* constants and helper kernels live with it */
    bool interpret;         /* the kernel runs as under TRITON_INTERPRET=1 */
} pyext_lookup_ctx;

/* Keep o alive as long as specialization s (a helper's Kernel). */
static void pyext_keep(pyext_spec *s, PyObject *o)
{
    if (!s->keep)
        s->keep = PyList_New(0);
    if (s->keep)
        PyList_Append(s->keep, o);
    else
        PyErr_Clear();
}

static const char *pyext_describe(PyObject *v)
{
    if (PyFunction_Check(v))
        return "a Python function (a kernel calls only @triton.jit functions)";
    if (pyext_is_tensor(v))
        return "a tensor (kernels take tensors as arguments, not as globals)";
    if (PyErr_Occurred())
        PyErr_Clear();
    return Py_TYPE(v)->tp_name;
}

static spec_global pyext_lookup(void *ctx, void *env, const char *name)
{
    pyext_lookup_ctx *c = ctx;
    pyext_kernel *k = env;
    spec_global g = {.kind = SPEC_G_UNDEFINED};
    PyObject *v = k->closure ? PyDict_GetItemString(k->closure, name) : NULL;
    bool global = !v;
    if (!v)
        v = PyDict_GetItemString(k->globals, name);
    if (!v) {
        PyErr_Clear();
        return g;       /* Python's builtins: the specializer has its own */
    }
    /* a plain global, which Triton 3 refuses (spec_refuse_plain_global) */
    if (global && !c->interpret &&
        (PyLong_Check(v) || PyFloat_Check(v) || PyUnicode_Check(v) || PyTuple_Check(v) ||
         PyList_Check(v) || v == Py_None) &&
        spec_refuse_plain_global(&g))
        return g;
    if (pyext_jit_class && PyObject_TypeCheck(v, (PyTypeObject *)pyext_jit_class)) {
        PyObject *ko = PyObject_CallMethodObjArgs(v, pyext_str.kernel_object, NULL);
        if (!ko || !PyObject_TypeCheck(ko, &pyext_kernel_type)) {
            Py_XDECREF(ko);
            PyErr_Clear();
            g.kind = SPEC_G_OTHER;
            g.what = "a @triton.jit function whose source tritsim cannot read";
            return g;
        }
        pyext_keep(c->s, ko);
        Py_DECREF(ko);      /* the list keeps it */
        pyext_kernel *h = (pyext_kernel *)ko;
        g.kind = SPEC_G_JIT;
        g.def = h->def;
        g.file = h->file;
        g.env = h;
        return g;
    }
    if (PyFunction_Check(v)) {
        /* a host function that kernels know by its qualified name
         * (pdb.set_trace, IPython.core.debugger.set_trace) */
        PyObject *mod = PyObject_GetAttrString(v, "__module__");
        PyObject *qn = PyObject_GetAttrString(v, "__qualname__");
        const char *ms = mod && PyUnicode_Check(mod) ? PyUnicode_AsUTF8(mod) : NULL;
        const char *qs = qn && PyUnicode_Check(qn) ? PyUnicode_AsUTF8(qn) : NULL;
        char q[256];
        bool known = ms && qs && snprintf(q, sizeof q, "%s.%s", ms, qs) < (int)sizeof q &&
                     spec_has_builtin(q);
        Py_XDECREF(mod);
        Py_XDECREF(qn);
        PyErr_Clear();
        if (known) {
            g.kind = SPEC_G_FUNC;
            g.qualname = arena_strndup(&c->s->mem, q, strlen(q));
            return g;
        }
    }
    if (c->interpret && PyFunction_Check(v) && pyext_host_kernel) {
        /* Triton's interpreter runs kernels as Python: they may call any
         * function, which tritsim inlines or (given constants) calls */
        PyObject *ko = PyObject_CallOneArg(pyext_host_kernel, v);
        if (ko && PyObject_TypeCheck(ko, &pyext_kernel_type)) {
            pyext_keep(c->s, ko);
            Py_DECREF(ko);
            pyext_kernel *h = (pyext_kernel *)ko;
            g.kind = SPEC_G_JIT;
            g.host_fn = true;
            g.def = h->def;
            g.file = h->file;
            g.env = h;
            return g;
        }
        Py_XDECREF(ko);
        PyErr_Clear();
    }
    if (pyext_constexpr_class && v == pyext_constexpr_class) {
        g.kind = SPEC_G_FUNC;
        g.qualname = "triton.language.constexpr";
        return g;
    }
    if (PyModule_Check(v)) {
        const char *mn = PyModule_GetName(v);
        if (!mn) {
            PyErr_Clear();
            mn = "?";
        }
        g.kind = SPEC_G_MODULE;
        g.qualname = arena_strndup(&c->s->mem, mn, strlen(mn));
        return g;
    }
    if (!PyLong_Check(v) && !PyFloat_Check(v) && !PyUnicode_Check(v) && !PyTuple_Check(v)) {
        PyObject *q = PyObject_GetAttr(v, pyext_str.tritsim_name);
        if (q && PyUnicode_Check(q)) {
            const char *qs = PyUnicode_AsUTF8(q);
            g.kind = SPEC_G_FUNC;
            g.qualname = arena_strndup(&c->s->mem, qs, strlen(qs));
            Py_DECREF(q);
            return g;
        }
        Py_XDECREF(q);
        PyErr_Clear();
    }
    if (pyext_const(v, &c->s->mem, &g.c)) {
        g.kind = SPEC_G_CONST;
        return g;
    }
    g.kind = SPEC_G_OTHER;
    const char *w = pyext_describe(v);
    g.what = arena_strndup(&c->s->mem, w, strlen(w));
    return g;
}

/* spec_host.call: a plain Python function that a kernel made under
 * TRITON_INTERPRET=1 calls with constants runs now, while the kernel
 * compiles; its result is a constant, an exception it raises the compile
 * error's text. */
static bool pyext_call_host(void *ctx, void *fn, int argc, const spec_const *argv, int nkw,
                            const char *const *kwnames, const spec_const *kwv,
                            spec_const *out, char *err, size_t errlen)
{
    pyext_lookup_ctx *c = ctx;
    pyext_kernel *h = fn;
    const char *name = PyUnicode_AsUTF8(h->name);
    PyObject *args = PyTuple_New(argc), *kw = nkw ? PyDict_New() : NULL, *r = NULL;
    bool ok = args && (!nkw || kw);
    for (int i = 0; ok && i < argc; i++) {
        PyObject *x = pyext_const_object(&argv[i]);
        ok = x != NULL;
        if (ok)
            PyTuple_SET_ITEM(args, i, x);
    }
    for (int i = 0; ok && i < nkw; i++) {
        PyObject *x = pyext_const_object(&kwv[i]);
        ok = x && PyDict_SetItemString(kw, kwnames[i], x) == 0;
        Py_XDECREF(x);
    }
    if (ok)
        r = PyObject_Call(h->fn, args, kw);
    Py_XDECREF(args);
    Py_XDECREF(kw);
    if (!r) {
        PyObject *type, *value, *tb;
        PyErr_Fetch(&type, &value, &tb);
        PyObject *msg = value ? PyObject_Str(value) : NULL;
        const char *m = msg ? PyUnicode_AsUTF8(msg) : NULL;
        snprintf(err, errlen, "%s() raised %s: %s while the kernel compiled (under "
                 "TRITON_INTERPRET=1 a Python function called with constants runs then)",
                 name, type ? ((PyTypeObject *)type)->tp_name : "an exception", m ? m : "?");
        Py_XDECREF(msg);
        Py_XDECREF(type);
        Py_XDECREF(value);
        Py_XDECREF(tb);
        PyErr_Clear();
        return false;
    }
    ok = pyext_const(r, &c->s->mem, out);
    if (!ok)
        snprintf(err, errlen, "%s() returned %s, which a kernel cannot use as a constant", name,
                 Py_TYPE(r)->tp_name);
    Py_DECREF(r);
    return ok;
}

/* ---- a launch ------------------------------------------------------------- */

static int pyext_param_index(const pyext_kernel *k, const char *name)
{
    for (int i = 0; i < k->nparams; i++)
        if (!strcmp(k->pnames[i], name))
            return i;
    return -1;
}

/* Bind args and kwargs to the parameters (borrowed into bound[]); the
 * launch options go to *warps and *stages (or are checked and dropped). */
static bool pyext_bind(pyext_kernel *k, PyObject *args, PyObject *kwargs, PyObject **bound,
                       long *warps, long *stages)
{
    const char *fname = PyUnicode_AsUTF8(k->name);
    Py_ssize_t argc = PyTuple_GET_SIZE(args);
    if (argc > k->nparams) {
        PyErr_Format(PyExc_TypeError, "%s() takes %d arguments but %zd were given", fname,
                     k->nparams, argc);
        return false;
    }
    for (int i = 0; i < k->nparams; i++)
        bound[i] = i < argc ? PyTuple_GET_ITEM(args, i) : NULL;
    if (kwargs && PyDict_Check(kwargs)) {
        PyObject *key, *value;
        Py_ssize_t pos = 0;
        while (PyDict_Next(kwargs, &pos, &key, &value)) {
            const char *kn = PyUnicode_AsUTF8(key);
            if (!kn)
                return false;
            int i = pyext_param_index(k, kn);
            if (i < 0) {
                if (!backend_is_launch_option(kn)) {
                    PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument "
                                 "'%s'", fname, kn);
                    return false;
                }
                if (!strcmp(kn, "num_warps") || !strcmp(kn, "num_stages")) {
                    long n = PyLong_AsLong(value);
                    if (n == -1 && PyErr_Occurred())
                        return false;
                    *(kn[4] == 'w' ? warps : stages) = n;
                }
                continue;
            }
            if (bound[i]) {
                PyErr_Format(PyExc_TypeError, "%s() got multiple values for argument '%s'",
                             fname, kn);
                return false;
            }
            bound[i] = value;
        }
    }
    for (int i = 0; i < k->nparams; i++)
        if (!bound[i]) {
            if (!k->defaults[i]) {
                PyErr_Format(PyExc_TypeError, "%s() missing required argument '%s'", fname,
                             k->pnames[i]);
                return false;
            }
            bound[i] = k->defaults[i];
        }
    return true;
}

/* The grid: an int, a tuple of 1 to 3 ints, or a function of the meta
 * dict (every parameter by name, and the launch options) returning one. */
static bool pyext_grid(pyext_kernel *k, PyObject *grid, PyObject **bound, PyObject *kwargs,
                       int64_t g[3], int *rank)
{
    PyObject *v = Py_NewRef(grid);
    if (PyCallable_Check(grid)) {
        PyObject *meta = PyDict_New();
        if (!meta) {
            Py_DECREF(v);
            return false;
        }
        for (int i = 0; i < k->nparams; i++)
            PyDict_SetItemString(meta, k->pnames[i], bound[i]);
        if (kwargs && PyDict_Check(kwargs)) {
            PyObject *key, *value;
            Py_ssize_t pos = 0;
            while (PyDict_Next(kwargs, &pos, &key, &value))
                if (pyext_param_index(k, PyUnicode_AsUTF8(key)) < 0)
                    PyDict_SetItem(meta, key, value);
        }
        Py_DECREF(v);
        v = PyObject_CallOneArg(grid, meta);
        Py_DECREF(meta);
        if (!v)
            return false;
    }
    g[0] = g[1] = g[2] = 1;
    *rank = 1;
    bool ok = true;
    if (PyLong_Check(v)) {
        g[0] = PyLong_AsLongLong(v);
    } else if (PyTuple_Check(v) || PyList_Check(v)) {
        Py_ssize_t n = PySequence_Fast_GET_SIZE(v);
        if (n < 1 || n > 3) {
            PyErr_Format(PyExc_ValueError, "the grid must have 1 to 3 dimensions, not %zd", n);
            ok = false;
        }
        for (Py_ssize_t i = 0; ok && i < n; i++) {
            PyObject *x = PyNumber_Index(PySequence_Fast_GET_ITEM(v, i));
            ok = x != NULL;
            if (ok)
                g[i] = PyLong_AsLongLong(x);
            Py_XDECREF(x);
        }
        *rank = (int)n;
    } else {
        PyErr_Format(PyExc_TypeError, "the grid must be a tuple of ints (or a function of the "
                     "meta parameters returning one), not %s", Py_TYPE(v)->tp_name);
        ok = false;
    }
    Py_DECREF(v);
    if (ok && PyErr_Occurred())
        ok = false;
    for (int i = 0; ok && i < 3; i++)
        if (g[i] < 0 || g[i] > ((int64_t)1 << 31) - 1) {
            PyErr_Format(PyExc_ValueError, "grid dimension %d is %lld; it must be between 0 "
                         "and 2^31 - 1", i, (long long)g[i]);
            ok = false;
        }
    return ok;
}

/* The key: each parameter described for the specializer. */
static bool pyext_params(pyext_kernel *k, PyObject **bound, arena *a, spec_param *out)
{
    const char *fname = PyUnicode_AsUTF8(k->name);
    for (int i = 0; i < k->nparams; i++) {
        PyObject *v = bound[i];
        memset(&out[i], 0, sizeof out[i]);
        if (k->pconst[i] || v == Py_None ||
            (pyext_constexpr_class &&
             PyObject_TypeCheck(v, (PyTypeObject *)pyext_constexpr_class))) {
            out[i].is_const = true;
            if (!pyext_const(v, a, &out[i].c)) {
                PyErr_Format(PyExc_TypeError, "argument '%s' of %s() is a tl.constexpr, so it "
                             "must be a number, bool, string, dtype, None or tuple, not %s",
                             k->pnames[i], fname, Py_TYPE(v)->tp_name);
                return false;
            }
            continue;
        }
        if (PyBool_Check(v)) {
            out[i].dt = DTYPE_INT1;
        } else if (PyLong_Check(v)) {
            int overflow;
            long long n = PyLong_AsLongLongAndOverflow(v, &overflow);
            if (overflow) {
                /* Triton: uint64 up to 2^64 - 1 */
                unsigned long long u = PyLong_AsUnsignedLongLong(v);
                if (PyErr_Occurred()) {
                    PyErr_Clear();
                    PyErr_Format(PyExc_OverflowError, "argument '%s' of %s() does not fit "
                                 "in 64 bits", k->pnames[i], fname);
                    return false;
                }
                out[i].dt = DTYPE_UINT64;
                out[i].div16 = spec_div16(k->no_spec, i, u);
            } else if (n == 1 && spec_on_value(k->no_spec, i)) {
                /* Triton specializes an int equal to 1 as the constant 1 */
                out[i].is_const = true;
                out[i].c = (spec_const){.kind = SC_INT, .u.i = 1};
            } else {
                out[i].dt = dtype_of_pyint(n);
                out[i].div16 = spec_div16(k->no_spec, i, (uint64_t)n);
            }
        } else if (PyFloat_Check(v)) {
            out[i].dt = DTYPE_FP32;
        } else if (pyext_is_tensor(v)) {
            dtype dt = pyext_tensor_dtype(v);
            if (dt == DTYPE_INVALID)
                return false;
            out[i].dt = dtype_ptr_to(dt);
            /* Triton specializes on an address that is a multiple of 16
             * (the GPU backend keeps a device copy at the host address's
             * alignment) */
            uint64_t addr;
            if (!pyext_tensor_addr(v, &addr))
                return false;
            out[i].div16 = spec_div16(k->no_spec, i, addr);
        } else {
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_TypeError, "argument '%s' of %s() is %s; a kernel takes "
                             "tensors, numbers and tl.constexpr values", k->pnames[i], fname,
                             Py_TYPE(v)->tp_name);
            return false;
        }
    }
    return true;
}

/* --dump-ir: the specialization's header and IR on stderr, as tritsim
 * run prints them. */
static void pyext_dump_ir(const pyext_kernel *k, const pyext_spec *s)
{
    strbuf b = {0};
    strbuf_printf(&b, "; specialized %s(", PyUnicode_AsUTF8(k->name));
    for (int i = 0; i < s->nparams; i++) {
        const spec_param *p = &s->params[i];
        strbuf_printf(&b, "%s%s", i ? ", " : "", k->pnames[i]);
        if (p->is_const) {
            strbuf_puts(&b, k->pconst[i] ? ": constexpr = " : " = ");
            spec_const_repr(&b, &p->c);
        } else {
            strbuf_printf(&b, ": %s%s", dtype_name(p->dt), p->div16 ? " (divisible by 16)" : "");
        }
    }
    strbuf_puts(&b, ")\n");
    pyext_flush_python();
    fputs(strbuf_cstr(&b), stderr);
    strbuf_free(&b);
    ir_dump(s->ir, stderr);
    fflush(stderr);
}

/* Launches run without the GIL, so that other Python threads go on; one
 * at a time (compiles too), as the backend (its thread pool, its device) expects. */
static pthread_mutex_t pyext_run_lock = PTHREAD_MUTEX_INITIALIZER;

/* The specialization for the bound arguments, made and compiled if need
 * be; NULL with an exception set. */
static pyext_spec *pyext_specialize(pyext_kernel *k, PyObject **bound)
{
    int n = k->nparams;
    arena tmp;
    arena_init(&tmp);
    spec_param *key = arena_alloc(&tmp, (size_t)(n + 1) * sizeof *key);
    if (!pyext_params(k, bound, &tmp, key)) {
        arena_free(&tmp);
        return NULL;
    }
    for (pyext_spec *s = k->cache; s; s = s->next)
        if (spec_params_eq(s->params, key, n)) {
            arena_free(&tmp);
            return s;
        }
    arena_free(&tmp);
    backend_dev *dev = pyext_device();
    if (!dev)
        return NULL;
    pyext_spec *s = xcalloc(1, sizeof *s);
    arena_init(&s->mem);
    s->nparams = n;
    s->params = arena_alloc(&s->mem, (size_t)(n + 1) * sizeof *s->params);
    if (!pyext_params(k, bound, &s->mem, s->params)) {
        pyext_spec_free(s);
        return NULL;
    }
    const char *fname = PyUnicode_AsUTF8(k->name);
    bool dumping = pyext_opts.dump_ir &&
                   (!*pyext_opts.dump_ir || !strcmp(pyext_opts.dump_ir, fname));
    pyext_lookup_ctx *ctx = arena_alloc(&s->mem, sizeof *ctx);
    ctx->s = s;
    ctx->interpret = k->interpret;
    spec_host sh = {.lookup = pyext_lookup, .ctx = ctx,
                    .debug_info = dumping || pyext_debugging(),
                    .interpret = k->interpret, .call = pyext_call_host};
    pyext_diag d;
    char *printed = NULL;
    size_t nprinted = 0;
    FILE *out = open_memstream(&printed, &nprinted);
    if (!out || !pyext_diag_open(&d)) {
        if (out)
            fclose(out);
        free(printed);
        pyext_spec_free(s);
        return (pyext_spec *)PyErr_NoMemory();
    }
    s->ir = spec_kernel(k->file, k->def, k, &sh, s->params, &d.sink, &s->mem, out);
    if (s->ir) {
        pthread_mutex_lock(&pyext_run_lock);
        s->compiled = backend_compile(dev, s->ir, k->file, &d.sink);
        pthread_mutex_unlock(&pyext_run_lock);
    }
    fclose(out);
    bool wrote = pyext_write_stdout(printed, nprinted);     /* tl.static_print */
    free(printed);
    if (!s->ir || !s->compiled || !wrote) {
        if (!wrote)
            free(pyext_diag_close(&d));
        else
            pyext_raise_diag(&d);
        pyext_spec_free(s);
        return NULL;
    }
    free(pyext_diag_close(&d));
    for (int32_t pc = 0; pc < s->ir->ncode && !s->int_ptrs; pc++) {
        const ir_inst *in = &s->ir->code[pc];
        s->int_ptrs = in->op == IR_CAST && dtype_is_ptr(s->ir->slots[in->dst].type.dt) &&
                      !dtype_is_ptr(s->ir->slots[in->a].type.dt);
    }
    if (dumping)
        pyext_dump_ir(k, s);
    s->next = k->cache;
    k->cache = s;
    return s;
}

/* CUDA tensors on a backend that runs on host memory: each is copied to
 * the host for the launch and back after it, as Triton's interpreter
 * does.  On a GPU backend they are used where they are (pyext_buffer_for
 * with on_device). */
typedef struct pyext_staged {
    PyObject *orig;         /* the CUDA tensor's .data (a reference) */
    PyObject *host;         /* its copy on the host */
} pyext_staged;

/* On a backend whose kernels do not run at the host's addresses (a GPU):
 * the backend_buffer of t's storage for this launch, through which the
 * backend makes its device copy (backend.h), one per storage however many
 * arguments point into it, so that they see each other's writes. */
static backend_buffer *pyext_buffer_for(backend_buffer *bufs, int *nbufs, const pyext_tensor *t,
                                        bool on_device)
{
    for (int j = 0; j < *nbufs; j++)
        if ((uint64_t)(uintptr_t)bufs[j].host == t->base) {
            if (t->bytes > bufs[j].size)
                bufs[j].size = (size_t)t->bytes;
            return &bufs[j];
        }
    backend_buffer *b = &bufs[(*nbufs)++];
    backend_buffer_over(b, (void *)(uintptr_t)t->base, (size_t)t->bytes, on_device);
    return b;
}

/* After the launch: the device copies written back to the tensors' memory
 * (after a failed launch too: what the programs before the failure wrote,
 * as on the CPU) and freed; false with why when a download failed. */
static bool pyext_buffers_back(backend_buffer *bufs, int n, strbuf *why)
{
    bool ok = true;
    for (int j = 0; j < n; j++)
        ok = backend_buffer_end(&bufs[j], ok, why) && ok;
    return ok;
}

/* The allocator of triton.set_allocator (a reference), or NULL. */
static PyObject *pyext_allocator;

PyObject *pyext_set_allocator(PyObject *mod, PyObject *fn)
{
    (void)mod;
    Py_XSETREF(pyext_allocator, fn == Py_None ? NULL : Py_NewRef(fn));
    Py_RETURN_NONE;
}

/* The scratch a launch of a kernel that makes tensor descriptors needs on
 * a GPU, from the allocator, as Triton's launcher gets it (and tritsim
 * run, launch.c's launch_scratch): allocator(size, 128, 0) for 128 bytes
 * a descriptor a program; the CPU writes nothing there.  *out is the
 * tensor (a reference; NULL when none is needed); false with a Python
 * exception set. */
static bool pyext_scratch(const ir_kernel *ir, const int64_t g[3], PyObject **out)
{
    *out = NULL;
    if (ir->ndesc == 0)
        return true;
    long long size = (long long)ir->ndesc * 128 * g[0] * g[1] * g[2];
    if (!pyext_allocator) {
        PyErr_SetString(PyExc_RuntimeError, "Kernel requires a runtime memory allocation, but "
                        "no allocator was set. Use triton.set_allocator to specify an "
                        "allocator.");
        return false;
    }
    PyObject *r = PyObject_CallFunction(pyext_allocator, "LLL", size, 128LL, 0LL);
    if (!r)
        return false;
    uint64_t base, bytes;
    if (!pyext_tensor_storage(r, &base, &bytes)) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "the allocator given to triton.set_allocator returned "
                     "%s; it must return a tensor of at least %lld bytes (e.g. "
                     "torch.empty(size, device=\"cuda\", dtype=torch.int8))",
                     Py_TYPE(r)->tp_name, size);
        Py_DECREF(r);
        return false;
    }
    if (bytes < (uint64_t)size) {
        PyErr_Format(PyExc_RuntimeError, "the allocator given to triton.set_allocator returned "
                     "a tensor of %llu bytes; this launch needs %lld (128 bytes per tensor "
                     "descriptor per program)", (unsigned long long)bytes, size);
        Py_DECREF(r);
        return false;
    }
    *out = r;
    return true;
}

/* kernel.run(grid, args, kwargs) */
static PyObject *pyext_kernel_run(PyObject *self, PyObject *const *argv, Py_ssize_t argc)
{
    pyext_kernel *k = (pyext_kernel *)self;
    if (argc != 3 || !PyTuple_Check(argv[1]) || (argv[2] != Py_None && !PyDict_Check(argv[2]))) {
        PyErr_SetString(PyExc_TypeError, "run(grid, args: tuple, kwargs: dict | None)");
        return NULL;
    }
    PyObject *grid = argv[0], *args = argv[1], *kwargs = argv[2];
    int n = k->nparams;
    PyObject *stack_bound[16];
    PyObject **bound = n <= 16 ? stack_bound : xcalloc((size_t)n, sizeof *bound);
    long warps = 4, stages = 3;
    int64_t g[3];
    int rank;
    pyext_spec *s = NULL;
    PyObject *result = NULL;
    backend_arg *bargs = NULL;
    pyext_staged *staged = NULL;
    int nstaged = 0;
    backend_buffer *bufs = NULL;
    int nbufs = 0;
    backend_dev *dev = NULL;
    PyObject *scratch = NULL;   /* the allocator's tensor, kept for the launch */
    if (!pyext_bind(k, args, kwargs, bound, &warps, &stages) ||
        !pyext_grid(k, grid, bound, kwargs, g, &rank) ||
        !(s = pyext_specialize(k, bound)) || !(dev = pyext_device()))
        goto done;
    const ir_kernel *ir = s->ir;
    if (!dev->be->host_addresses)
        bufs = xcalloc((size_t)n + 1, sizeof *bufs);
    bargs = xcalloc((size_t)ir->nparams + 1, sizeof *bargs);
    staged = xcalloc((size_t)n + 1, sizeof *staged);
    int r = 0;
    for (int i = 0; i < n; i++) {
        if (s->params[i].is_const)
            continue;
        PyObject *v = bound[i];
        backend_arg *ea = &bargs[r];
        ea->name = ir->params[r].name;
        r++;
        if (dtype_is_ptr(s->params[i].dt)) {
            int cuda = pyext_tensor_is_cuda(v);
            if (cuda < 0)
                goto done;
            if (cuda && bufs && !pyext_tensor_on_gpu0(v, k->pnames[i]))
                goto done;
            if (cuda && !bufs) {
                /* through v.data, an alias of its storage that autograd
                 * does not see: the copy back is no in-place operation of
                 * v's (its version stays, so a graph that saved v still
                 * runs backward; a leaf that requires grad may be written),
                 * as under Triton's interpreter */
                PyObject *o = PyObject_GetAttr(v, pyext_str.data);
                PyObject *h = o ? PyObject_CallMethodObjArgs(o, pyext_str.cpu, NULL) : NULL;
                if (!h) {
                    Py_XDECREF(o);
                    goto done;
                }
                staged[nstaged++] = (pyext_staged){.orig = o, .host = h};
                v = h;
            }
            pyext_tensor t;
            if (!pyext_tensor_of(v, dtype_elem(s->params[i].dt), k->pnames[i], &t))
                goto done;
            ea->value.u = t.addr;
            ea->numel = (size_t)t.numel;
            if (bufs)
                ea->buffer = pyext_buffer_for(bufs, &nbufs, &t, cuda);
        } else if (s->params[i].dt == DTYPE_INT1) {
            ea->value.u = v == Py_True;
        } else if (PyFloat_Check(v)) {
            ea->value.f = (double)(float)PyFloat_AS_DOUBLE(v);
        } else if (s->params[i].dt == DTYPE_UINT64) {
            ea->value.u = PyLong_AsUnsignedLongLong(v);
        } else {
            ea->value.i = PyLong_AsLongLong(v);
        }
    }
    if (g[0] * g[1] * g[2] == 0) {
        result = Py_NewRef(Py_None);
        goto done;
    }
    if (!pyext_scratch(ir, g, &scratch))
        goto done;
    pyext_diag d;
    char *printed = NULL;
    size_t nprinted = 0;
    FILE *out = open_memstream(&printed, &nprinted);
    if (!out || !pyext_diag_open(&d)) {
        if (out)
            fclose(out);
        free(printed);
        PyErr_NoMemory();
        goto done;
    }
    backend_buffer **revealed = NULL;
    int nrevealed = 0;
    if (s->int_ptrs && !pyext_reveal_begin(dev->be->host_addresses, &revealed, &nrevealed)) {
        pyext_reveal_end(NULL);
        fclose(out);
        free(printed);
        free(pyext_diag_close(&d));
        goto done;
    }
    backend_launch L = {.file = k->file, .grid = {g[0], g[1], g[2]}, .rank = rank,
                        .revealed = revealed, .nrevealed = nrevealed,
                        .args = bargs, .num_warps = (int)warps, .num_stages = (int)stages,
                        .out = out, .diag = &d.sink,
                        .breaks = pyext_opts.no_break ? BACKEND_BREAK_IGNORE
                                                      : BACKEND_BREAK_REPORT};
    bool ok, killed = false;
    if (pyext_debug_wants(ir)) {
        /* the debugger's REPL talks on the terminal: the programs' output
         * goes there too, in order with it */
        if (strcmp(dev->be->name, "cpu")) {
            diag_report(&d.sink, DIAG_ERROR, k->file, k->def->u.funcdef.name_span,
                        "the debugger runs kernels on the CPU backend, not %s (leave out "
                        "--backend, or --break)", dev->be->name);
            ok = false;
        } else {
            pyext_flush_python();
            L.out = stdout;
            ok = pyext_debug_launch(dev, ir, &L, &killed);
        }
    } else {
        Py_BEGIN_ALLOW_THREADS
        pthread_mutex_lock(&pyext_run_lock);
        ok = backend_run(dev, s->compiled, &L) && backend_sync(dev, &d.sink);
        pthread_mutex_unlock(&pyext_run_lock);
        Py_END_ALLOW_THREADS
    }
    strbuf why = {0};
    pthread_mutex_lock(&pyext_run_lock);
    bool back = pyext_buffers_back(bufs, nbufs, &why);
    if (s->int_ptrs && !pyext_reveal_end(&why))
        back = false;
    pthread_mutex_unlock(&pyext_run_lock);
    free(revealed);
    if (!back) {
        if (ok)
            diag_report(&d.sink, DIAG_ERROR, k->file, k->def->u.funcdef.name_span,
                        "the %s backend could not copy the results back: %s", dev->be->name,
                        strbuf_cstr(&why));
        ok = false;
    }
    strbuf_free(&why);
    fclose(out);
    bool wrote = pyext_write_stdout(printed, nprinted);
    free(printed);
    if (killed) {           /* the debugger's kill or quit: the program ends */
        free(pyext_diag_close(&d));
        PyObject *one = PyLong_FromLong(1);
        PyErr_SetObject(PyExc_SystemExit, one);
        Py_XDECREF(one);
        goto done;
    }
    if (!ok) {
        diag_report(&d.sink, DIAG_NOTE, k->file, k->def->u.funcdef.name_span,
                    "in the launch of '%s' (grid %lld x %lld x %lld)",
                    PyUnicode_AsUTF8(k->name), (long long)g[0], (long long)g[1],
                    (long long)g[2]);
        pyext_raise_diag(&d);
        goto done;
    }
    free(pyext_diag_close(&d));
    if (!wrote)
        goto done;
    for (int i = 0; i < nstaged; i++) {
        PyObject *c = PyObject_CallMethodObjArgs(staged[i].orig, pyext_str.copy_, staged[i].host,
                                                 NULL);
        if (!c)
            goto done;
        Py_DECREF(c);
    }
    result = Py_NewRef(Py_None);
done:
    Py_XDECREF(scratch);
    for (int i = 0; i < nstaged; i++) {
        Py_DECREF(staged[i].orig);
        Py_DECREF(staged[i].host);
    }
    free(staged);
    free(bufs);
    free(bargs);
    if (bound != stack_bound)
        free(bound);
    return result;
}

/* kernel.param_names(): the parameters, in order (autotune's and
 * heuristics' names of the arguments). */
static PyObject *pyext_kernel_param_names(PyObject *self, PyObject *unused)
{
    (void)unused;
    pyext_kernel *k = (pyext_kernel *)self;
    PyObject *t = PyTuple_New(k->nparams);
    for (int i = 0; t && i < k->nparams; i++) {
        PyObject *s = PyUnicode_FromString(k->pnames[i]);
        if (!s) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, s);
    }
    return t;
}

/* kernel.constexpr_params(): which parameters are annotated tl.constexpr. */
static PyObject *pyext_kernel_constexprs(PyObject *self, PyObject *unused)
{
    (void)unused;
    pyext_kernel *k = (pyext_kernel *)self;
    PyObject *t = PyTuple_New(k->nparams);
    for (int i = 0; t && i < k->nparams; i++)
        PyTuple_SET_ITEM(t, i, PyBool_FromLong(k->pconst[i]));
    return t;
}

/* kernel.cache_size(): how many specializations it holds. */
static PyObject *pyext_kernel_cache_size(PyObject *self, PyObject *unused)
{
    (void)unused;
    long n = 0;
    for (pyext_spec *s = ((pyext_kernel *)self)->cache; s; s = s->next)
        n++;
    return PyLong_FromLong(n);
}

static PyMethodDef pyext_kernel_methods[] = {
    {"run", (PyCFunction)(void (*)(void))pyext_kernel_run, METH_FASTCALL,
     "run(grid, args, kwargs): launch the kernel"},
    {"param_names", pyext_kernel_param_names, METH_NOARGS, "the parameters' names"},
    {"constexpr_params", pyext_kernel_constexprs, METH_NOARGS,
     "per parameter: annotated tl.constexpr"},
    {"cache_size", pyext_kernel_cache_size, METH_NOARGS, "specializations made so far"},
    {NULL, NULL, 0, NULL},
};

PyTypeObject pyext_kernel_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "_tritsim.Kernel",
    .tp_basicsize = sizeof(pyext_kernel),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Kernel(fn, source, filename, firstline, no_spec=0): a @triton.jit function "
              "that tritsim runs",
    .tp_new = pyext_kernel_new,
    .tp_dealloc = pyext_kernel_dealloc,
    .tp_methods = pyext_kernel_methods,
};
