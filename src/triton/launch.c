/* launch.c - @triton.jit kernels on the host side: the kernel object that
 * @triton.jit makes, kernel[grid] launchers, and a launch: binding the
 * arguments to the kernel's parameters, evaluating the grid, finding or
 * making the specialization (spec.h) for these constexprs and argument
 * types, and running it on the run's backend (backend.h: the CPU executor
 * unless --backend names another), which compiles each specialization
 * once; the kernel object is cached beside its IR.  A launch the debugger
 * wants goes to it instead (debug.h), on the CPU. */
#define _POSIX_C_SOURCE 200809L
#include "launch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend.h"
#include "cgen.h"
#include "constexpr.h"
#include "proton.h"
#include "debug.h"
#include "spec.h"
#include "strbuf.h"
#include "tensor.h"
#include "tritontools.h"
#include "alog.h"

/* One specialization: the parameters it was made for, its IR, and the
 * backend's kernel object compiled from it. */
typedef struct launch_spec {
    struct launch_spec *next;
    spec_param *params;     /* one per FUNCDEF parameter (the cache key) */
    int nparams;
    arena mem;              /* the IR and the key's constants */
    ir_kernel *ir;
    backend_kernel *compiled;   /* NULL until the first launch (or warmup) */
    uint64_t cuda_dumped;   /* bit w: --dump-cuda listed it for 2^w warps */
} launch_spec;

typedef struct launch_kernel {
    val_obj h;
    val fn;                 /* the VAL_FUNC of the def */
    uint64_t no_spec;       /* bit i: do_not_specialize names parameter i */
    bool interpret;         /* made while TRITON_INTERPRET=1 (launch_interpreting) */
    val metadata;           /* @triton.jit(launch_metadata=fn): fn, or None */
    launch_spec *cache;
} launch_kernel;

typedef struct launch_launcher {
    val_obj h;
    val kernel;
    val grid;
    val compiled;           /* the CompiledKernel of warmup() it launches, or NONE */
} launch_launcher;

/* Per host: the backend kernels run on, opened at the first launch (or
 * warmup), and the allocator of triton.set_allocator. */
typedef struct launch_ctx {
    backend_dev *dev;
    val allocator;          /* VAL_MISSING until set */
    int tuning;             /* launch_set_tuning's nesting */
    const val_obj *skip;    /* the error raised last that autotune skips a
                               config for (OutOfResources,
                               CompileTimeAssertionFailure), if pending */
} launch_ctx;

static void launch_ctx_free(void *p)
{
    launch_ctx *c = p;
    backend_close(c->dev);
    val_unref(c->allocator);
    free(c);
}

static launch_ctx *launch_context(host *h)
{
    if (!h->kernel_ctx) {
        launch_ctx *c = xcalloc(1, sizeof *c);
        c->allocator = val_missing();
        h->kernel_ctx = c;
        h->kernel_ctx_free = launch_ctx_free;
    }
    return h->kernel_ctx;
}

/* The host's backend (h->backend, which tritsim run has checked can run
 * here), opened if need be; NULL after reporting why it cannot. */
static backend_dev *launch_device(host *h, src_span at)
{
    launch_ctx *c = launch_context(h);
    if (c->dev)
        return c->dev;
    const backend *be = backend_find(h->backend);
    strbuf why = {0};
    if (!be) {
        host_error(h, at, "no backend '%s' in this build of tritsim", h->backend);
    } else if (!be->available(&why) ||
               !(c->dev = backend_open(be, &(backend_config){.threads = h->threads,
                                                                .unchecked = h->unchecked},
                                            &why))) {
        host_error(h, at, "the %s backend cannot run kernels: %s", be->name,
                   strbuf_cstr(&why));
    }
    strbuf_free(&why);
    return c->dev;
}

backend_dev *launch_kernel_device(host *h, bool open, src_span at)
{
    if (!open)
        return h->kernel_ctx ? ((launch_ctx *)h->kernel_ctx)->dev : NULL;
    return launch_device(h, at);
}

/* A kernel that makes pointers from integers (data_ptr() addresses,
 * addrmap.h), on a backend whose kernels do not see the host's addresses:
 * the storages such a pointer may reach, for backend_launch.revealed
 * (*out malloc'd, *n of them; NULL and 0 for any other kernel or
 * backend).  false after reporting more than the backends take. */
static bool launch_revealed(host *h, const backend *be, const ir_kernel *ir,
                            const val_func *f, src_span at, backend_buffer ***out, int *n)
{
    *out = NULL;
    *n = 0;
    if (be->host_addresses)
        return true;
    bool int_ptrs = false;
    for (int32_t pc = 0; pc < ir->ncode && !int_ptrs; pc++) {
        const ir_inst *in = &ir->code[pc];
        int_ptrs = in->op == IR_CAST && dtype_is_ptr(ir->slots[in->dst].type.dt) &&
                   !dtype_is_ptr(ir->slots[in->a].type.dt);
    }
    if (!int_ptrs)
        return true;
    int count = tensor_revealed_buffers(NULL, 0);
    if (count > BACKEND_MAX_REVEALED) {
        host_error(h, at, "the %s backend gives a kernel that makes pointers from integers "
                   "a copy of every live tensor whose data_ptr() the program took, at most "
                   "%d of them, and there are %d: let go of the tensors no longer needed "
                   "(del) before the launch of '%s'", be->name, BACKEND_MAX_REVEALED, count,
                   f->name);
        return false;
    }
    *out = xcalloc((size_t)count + 1, sizeof **out);
    *n = tensor_revealed_buffers(*out, count);
    return true;
}

/* ---- failures that skip a config, while autotune times --------------------
 * While tuning, a compile or launch reports to a diag_sink of its own (a
 * memory stream): when it fails because the kernel needs more of the GPU
 * than it has (backend_dev.out_of_resources), or because a
 * tl.static_assert of the kernel fails for this config, what it reported
 * is dropped and Triton's OutOfResources or CompileTimeAssertionFailure
 * is raised instead, an exception that autotune catches and skips the
 * config for (launch_take_skipped), as Triton's autotuner does; any other
 * outcome is written to the host's diag as if reported there. */
typedef struct launch_quiet {
    diag_sink sink;
    char *text;
    size_t len;
} launch_quiet;

/* The diag_sink a compile or launch should report to.  Not a quiet one
 * while the backend defers launches' checks (backend_defer): those report
 * later, to the diag the launch was given.  A config's first launch, where
 * its kernel is compiled, is not deferred (do_bench's first call). */
static diag_sink *launch_quiet_begin(host *h, launch_quiet *q)
{
    launch_ctx *c = launch_context(h);
    if (!c->tuning || (c->dev && c->dev->defer_depth > 0))
        return h->diag;
    q->sink = *h->diag;
    q->sink.nerrors = 0;
    q->text = NULL;
    q->len = 0;
    q->sink.out = open_memstream(&q->text, &q->len);
    return q->sink.out ? &q->sink : h->diag;
}

/* After the call (ok: it succeeded): true when the failure, if any, is
 * to be handled as usual (its messages are on the host's diag now); false
 * when it skips the config and its exception is raised. */
static bool launch_quiet_end(host *h, launch_quiet *q, diag_sink *used, bool ok, src_span at)
{
    if (used == h->diag)
        return true;
    launch_ctx *c = launch_context(h);
    fclose(q->sink.out);
    /* the message's first line, without the file's place: what the
     * exception says if nothing catches it */
    const char *m = q->text ? strstr(q->text, "error: ") : NULL;
    m = m ? m + 7 : q->text ? q->text : "";
    int n = (int)strcspn(m, "\n");
    bool oor = !ok && c->dev && c->dev->out_of_resources;
    bool assertion = !ok && !oor && strncmp(m, "static assertion failed", 23) == 0;
    if (oor || assertion) {
        if (oor)
            host_error(h, at, "OutOfResources: out of resource: %.*s", n, m);
        else
            host_error(h, at, "CompileTimeAssertionFailure: %.*s", n, m);
        c->skip = host_exc_pending(h) ? h->exc.u.o : NULL;
    } else {
        fwrite(q->text, 1, q->len, h->diag->out);
        h->diag->nerrors += q->sink.nerrors;
    }
    free(q->text);
    return !oor && !assertion;
}

void launch_set_tuning(host *h, bool on)
{
    launch_ctx *c = launch_context(h);
    c->tuning += on ? 1 : -1;
}

bool launch_take_skipped(host *h)
{
    launch_ctx *c = launch_context(h);
    if (!c->skip || !host_exc_pending(h) || h->exc.u.o != c->skip)
        return false;
    c->skip = NULL;
    val_unref(host_exc_take(h));
    return true;
}

/* s compiled for the host's backend (once per specialization); NULL after
 * reporting an error (raising OutOfResources while tuning, see above). */
static backend_kernel *launch_compile(host *h, launch_spec *s, const val_func *f, src_span at)
{
    if (s->compiled)
        return s->compiled;
    backend_dev *d = launch_device(h, at);
    if (!d)
        return NULL;
    fflush(stdout);
    launch_quiet q;
    diag_sink *diag = launch_quiet_begin(h, &q);
    s->compiled = backend_compile(d, s->ir, f->file, diag);
    if (!launch_quiet_end(h, &q, diag, s->compiled != NULL, at))
        return NULL;
    if (!s->compiled) {
        diag_report(h->diag, DIAG_NOTE, h->file, at, "while compiling '%s' for this launch",
                    f->name);
        host_fail(h);
    }
    return s->compiled;
}

void launch_set_allocator(host *h, val allocator)
{
    launch_ctx *c = launch_context(h);
    val_unref(c->allocator);
    c->allocator = val_ref(allocator);
}

/* The global scratch a launch needs on the GPU, from the allocator of
 * triton.set_allocator, as Triton's launcher gets it: 128 bytes, aligned
 * to 128, per tl.make_tensor_descriptor per program, in one call
 * allocator(size, 128, stream) (stream 0, the simulated GPU's).  The CPU
 * does not write there (descriptors are values on the CPU), but the call
 * and its checks are the GPU's: no allocator is Triton's RuntimeError.
 * *out holds the buffer for the launch (VAL_NONE when none is needed). */
static bool launch_scratch(host *h, const ir_kernel *ir, const int64_t g[3], src_span at,
                           val *out)
{
    *out = val_none();
    if (ir->ndesc == 0)
        return true;
    launch_ctx *c = launch_context(h);
    int64_t size = (int64_t)ir->ndesc * 128 * g[0] * g[1] * g[2];
    if (c->allocator.kind == VAL_MISSING) {
        host_error(h, at, "RuntimeError: Kernel requires a runtime memory allocation, but no "
                   "allocator was set. Use triton.set_allocator to specify an allocator.");
        return false;
    }
    val args[3] = {val_int(size), val_int(128), val_int(0)};
    val r = host_call(h, c->allocator, 3, args, NULL, at);
    if (r.kind == VAL_ERR)
        return false;
    const tensor *t = tensor_of(r);
    if (!t) {
        host_error(h, at, "the allocator given to triton.set_allocator returned %s; it must "
                   "return a tensor of at least %lld bytes (e.g. torch.empty(size, "
                   "device=\"cuda\", dtype=torch.int8))", val_type_name(r), (long long)size);
        val_unref(r);
        return false;
    }
    int64_t bytes = tensor_numel(t) * tensor_elsize(t);
    if (bytes < size) {
        host_error(h, at, "the allocator given to triton.set_allocator returned a tensor of "
                   "%lld bytes; this launch needs %lld (128 bytes per tensor descriptor per "
                   "program)", (long long)bytes, (long long)size);
        val_unref(r);
        return false;
    }
    *out = r;
    return true;
}

static const val_func *launch_func(const launch_kernel *k)
{
    return (const val_func *)k->fn.u.o;
}

/* ---- the kernel object ------------------------------------------------- */

static void launch_kernel_free(val_obj *o)
{
    launch_kernel *k = (launch_kernel *)o;
    val_unref(k->fn);
    val_unref(k->metadata);
    for (launch_spec *s = k->cache, *next; s; s = next) {
        next = s->next;
        backend_free(s->compiled);
        arena_free(&s->mem);
        free(s);
    }
    k->cache = NULL;
}

static void launch_kernel_repr(host *h, val self, strbuf *out)
{
    (void)h;
    const launch_kernel *k = (const launch_kernel *)self.u.o;
    strbuf_printf(out, "JITFunction(__main__:%s)", launch_func(k)->name);
}

static val launch_warmup(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                         src_span at);

static val launch_kernel_getattr(host *h, val self, const char *name, src_span at)
{
    (void)h, (void)at;
    const launch_kernel *k = (const launch_kernel *)self.u.o;
    if (!strcmp(name, "fn"))
        return val_ref(k->fn);
    if (!strcmp(name, "__name__"))
        return val_str_cstr(launch_func(k)->name);
    if (!strcmp(name, "warmup"))
        return val_builtin_new("JITFunction.warmup", launch_warmup, val_ref(self));
    return val_missing();
}

static val launch_kernel_call(host *h, val self, int argc, const val *argv,
                              const val_kwargs *kw, src_span at)
{
    (void)argc, (void)argv, (void)kw;
    const launch_kernel *k = (const launch_kernel *)self.u.o;
    return host_error(h, at, "a @triton.jit function is launched with a grid: "
                      "%s[grid](...), e.g. %s[(n_blocks,)](x, z, n)",
                      launch_func(k)->name, launch_func(k)->name);
}

static const val_type launch_launcher_type;

static val launch_kernel_getitem(host *h, val self, val key, src_span at)
{
    (void)h, (void)at;
    launch_launcher *l = val_obj_new(sizeof *l, VAL_LAUNCHER, &launch_launcher_type);
    l->kernel = val_ref(self);
    l->grid = val_ref(key);
    l->compiled = val_none();
    return val_of(l);
}

static const char *const launch_kernel_attrs[] = {"fn", "__name__", "warmup", NULL};

static const val_type launch_kernel_type = {
    .name = "JITFunction",
    .getattr = launch_kernel_getattr,
    .call = launch_kernel_call,
    .getitem = launch_kernel_getitem,
    .repr = launch_kernel_repr,
    .free = launch_kernel_free,
    .attr_names = launch_kernel_attrs,
};

bool launch_interpreting(void)
{
    const char *v = getenv("TRITON_INTERPRET");
    return v && !strcmp(v, "1");
}

val launch_kernel_new(val fn, uint64_t no_spec, val launch_metadata)
{
    launch_kernel *k = val_obj_new(sizeof *k, VAL_KERNEL, &launch_kernel_type);
    k->fn = val_ref(fn);
    k->metadata = val_ref(launch_metadata);
    k->no_spec = no_spec;
    k->interpret = launch_interpreting();
    return val_of(k);
}

/* triton.JITFunction(...) itself is not a way to make a kernel: @triton.jit is */
static val launch_kernel_no_ctor(host *h, val self, int argc, const val *argv,
                                 const val_kwargs *kw, src_span at)
{
    (void)self, (void)argc, (void)argv, (void)kw;
    return host_raise(h, HOST_EXC_TYPE, at, "triton.JITFunction cannot be called in tritsim: "
                      "make a kernel with @triton.jit");
}

val launch_kernel_type_val(void)
{
    val b = val_builtin_new("triton.JITFunction", launch_kernel_no_ctor, val_none());
    ((val_builtin *)b.u.o)->inst_kind = VAL_KERNEL;
    ((val_builtin *)b.u.o)->inst_type = &launch_kernel_type;
    return b;
}

val launch_kernel_func(val kernel)
{
    if (kernel.kind != VAL_KERNEL)
        return val_missing();
    return ((launch_kernel *)kernel.u.o)->fn;
}

/* ---- host values as constants ----------------------------------------- */

/* v as a compile-time constant; false if it cannot be one. */
static bool launch_const(val v, arena *a, spec_const *out)
{
    memset(out, 0, sizeof *out);
    if (constexpr_value(v).kind != VAL_MISSING)
        v = constexpr_value(v);    /* tl.constexpr(x) is x to a kernel */
    switch (v.kind) {
    case VAL_NONE: out->kind = SC_NONE; return true;
    case VAL_BOOL: out->kind = SC_BOOL; out->u.b = v.u.b; return true;
    case VAL_INT: out->kind = SC_INT; out->u.i = v.u.i; return true;
    case VAL_FLOAT: out->kind = SC_FLOAT; out->u.f = v.u.f; return true;
    case VAL_DTYPE: out->kind = SC_DTYPE; out->u.dt = (dtype)val_dtype_id(v); return true;
    case VAL_STR: {
        const val_str *s = val_as_str(v);
        out->kind = SC_STR;
        out->u.str.s = arena_strndup(a, s->s, s->len);
        out->u.str.len = s->len;
        return true;
    }
    case VAL_TUPLE:
    case VAL_LIST: {
        const val_seq *t = val_as_seq(v);
        out->kind = SC_TUPLE;
        out->u.tuple.n = (int)t->len;
        out->u.tuple.items = arena_alloc(a, (t->len + 1) * sizeof *out->u.tuple.items);
        for (size_t i = 0; i < t->len; i++)
            if (!launch_const(t->items[i], a, &out->u.tuple.items[i]))
                return false;
        return true;
    }
    default:
        return false;
    }
}

/* ---- name lookups for the specializer ---------------------------------- */

typedef struct launch_lookup_ctx {
    host *h;
    arena *consts;          /* where constants found by name are copied */
    bool interpret;         /* the kernel runs under TRITON_INTERPRET=1 */
} launch_lookup_ctx;

static const char *launch_describe(val v)
{
    switch (v.kind) {
    case VAL_TENSOR: return "a tensor";
    case VAL_FUNC: return "a host function (only @triton.jit functions can be called "
                          "from kernels; under Triton's interpreter, TRITON_INTERPRET=1, "
                          "plain Python functions too)";
    case VAL_LIST: return "a list";
    case VAL_DICT: return "a dict";
    default: return "a host value";
    }
}

/* What host value v, named by a kernel (a global of its module, or an
 * attribute of a module it names), is to the specializer. */
static spec_global launch_classify(launch_lookup_ctx *c, val v)
{
    spec_global g = {.kind = SPEC_G_UNDEFINED};
    if (constexpr_is_class(v)) {
        g.kind = SPEC_G_FUNC;
        g.qualname = "triton.language.constexpr";
        return g;
    }
    switch (v.kind) {
    case VAL_MODULE: {
        val n = val_object_get(v, "__name__");
        g.kind = SPEC_G_MODULE;
        g.qualname = n.kind == VAL_STR ? val_as_str(n)->s : "?";
        return g;
    }
    case VAL_BUILTIN:
        g.kind = SPEC_G_FUNC;
        g.qualname = ((const val_builtin *)v.u.o)->name;
        return g;
    case VAL_KERNEL: {
        const launch_kernel *k = (const launch_kernel *)v.u.o;
        const val_func *f = launch_func(k);
        g.kind = SPEC_G_JIT;
        g.def = f->node;
        g.file = f->file;
        g.env = k->fn.u.o;
        return g;
    }
    case VAL_FUNC: {
        /* Triton's interpreter runs kernels as Python: they may call any
         * function (the lecture's print_if); compiled, only jit ones. */
        const val_func *f = (const val_func *)v.u.o;
        if (!c->interpret || f->node->kind != AST_FUNCDEF)
            break;
        g.kind = SPEC_G_JIT;
        g.host_fn = true;
        g.def = f->node;
        g.file = f->file;
        g.env = v.u.o;
        return g;
    }
    default:
        break;
    }
    if (launch_const(v, c->consts, &g.c)) {
        g.kind = SPEC_G_CONST;
        return g;
    }
    g.kind = SPEC_G_OTHER;
    g.what = launch_describe(v);
    return g;
}

static spec_global launch_lookup(void *ctx, void *env, const char *name)
{
    launch_lookup_ctx *c = ctx;
    spec_global g = {.kind = SPEC_G_UNDEFINED};
    val fn = val_of(env);
    val v = host_func_lookup(c->h, fn, name);
    if (v.kind == VAL_MISSING)
        return g;
    /* Python's own builtins: the specializer has its kernel versions. */
    val b = val_dict_get_str(c->h->builtins, name);
    if (b.kind != VAL_MISSING && val_is_heap(b) && val_is_heap(v) && b.u.o == v.u.o)
        return g;
    /* Triton 3 compiles no global that is a plain value (a number, string,
     * tuple, None) rather than a tl.constexpr: its value would be baked
     * into the kernel and a later change missed.  Its interpreter runs
     * Python and reads them; TRITON_ALLOW_NON_CONSTEXPR_GLOBALS=1 lifts
     * the rule. */
    if (!c->interpret && constexpr_value(v).kind == VAL_MISSING &&
        (v.kind == VAL_INT || v.kind == VAL_FLOAT || v.kind == VAL_BOOL || v.kind == VAL_STR ||
         v.kind == VAL_TUPLE || v.kind == VAL_LIST || v.kind == VAL_NONE) &&
        spec_refuse_plain_global(&g))
        return g;
    return launch_classify(c, v);
}

/* Attribute attr of the program's module named module (one of
 * sys.modules read from a file: `import pkg.helpers as h` then `h.fn(x)`
 * in a kernel); *known is false for other modules (tritsim's own). */
static spec_global launch_lookup_attr(void *ctx, const char *module, const char *attr,
                                      bool *known)
{
    launch_lookup_ctx *c = ctx;
    spec_global g = {.kind = SPEC_G_UNDEFINED};
    val m = val_dict_get_str(c->h->modules, module);
    *known = m.kind == VAL_MODULE && val_object_get(m, "__file__").kind == VAL_STR;
    if (!*known)
        return g;
    val v = val_object_get(m, attr);
    if (v.kind == VAL_MISSING)
        return g;
    return launch_classify(c, v);
}

/* c as a host value: a new reference, or VAL_MISSING for a pointer type. */
static val launch_const_val(const spec_const *c)
{
    switch (c->kind) {
    case SC_NONE: return val_none();
    case SC_BOOL: return val_bool(c->u.b);
    case SC_INT: return val_int(c->u.i);
    case SC_FLOAT: return val_float(c->u.f);
    case SC_STR: return val_str_new(c->u.str.s, c->u.str.len);
    case SC_DTYPE:
        return dtype_tl_name(c->u.dt) ? val_tl_dtype(c->u.dt) : val_missing();
    case SC_TUPLE: {
        val t = val_tuple_new((size_t)c->u.tuple.n);
        for (int i = 0; i < c->u.tuple.n; i++) {
            val x = launch_const_val(&c->u.tuple.items[i]);
            if (x.kind == VAL_MISSING) {
                val_unref(t);
                return x;
            }
            val_seq_set(t, (size_t)i, x);
        }
        return t;
    }
    }
    return val_missing();
}

/* spec_host.call: a plain Python function called from a kernel under the
 * interpreter with constant arguments runs here, while the kernel
 * compiles; an exception it raises becomes the compile error's text. */
static bool launch_call_host(void *ctx, void *fn, int argc, const spec_const *argv, int nkw,
                             const char *const *kwnames, const spec_const *kwv,
                             spec_const *out, char *err, size_t errlen)
{
    launch_lookup_ctx *c = ctx;
    host *h = c->h;
    val f = val_of(fn);
    const char *name = ((const val_func *)fn)->name;
    val *vals = xcalloc((size_t)(argc + nkw) + 1, sizeof *vals);
    bool ok = true;
    for (int i = 0; ok && i < argc + nkw; i++) {
        vals[i] = launch_const_val(i < argc ? &argv[i] : &kwv[i - argc]);
        if (vals[i].kind == VAL_MISSING) {
            vals[i] = val_none();
            ok = false;
            snprintf(err, errlen, "%s() cannot be given a pointer type", name);
        }
    }
    val_kwargs kw = {.n = nkw, .names = kwnames, .values = vals + argc};
    val r = ok ? host_call(h, f, argc, vals, nkw ? &kw : NULL, ((const val_func *)fn)->node->span)
               : val_none();
    for (int i = 0; i < argc + nkw; i++)
        val_unref(vals[i]);
    free(vals);
    if (ok && r.kind == VAL_ERR) {
        ok = false;
        val e = host_exc_take(h);
        val m = e.kind == VAL_NONE ? val_str_cstr("the run stopped") : host_str(h, e);
        snprintf(err, errlen, "%s() raised %s%s%s while the kernel compiled (under "
                 "TRITON_INTERPRET=1 a Python function called with constants runs then)",
                 name, e.kind == VAL_NONE ? "" : val_type_name(e), e.kind == VAL_NONE ? "" : ": ",
                 m.kind == VAL_STR ? val_as_str(m)->s : "?");
        val_unref(m);
        val_unref(e);
        return false;
    }
    if (ok && !launch_const(r, c->consts, out)) {
        ok = false;
        snprintf(err, errlen, "%s() returned %s, which a kernel cannot use as a constant",
                 name, launch_describe(r));
    }
    val_unref(r);
    return ok;
}

/* ---- a launch ------------------------------------------------------------ */

static bool launch_is_constexpr(const ast_node *param)
{
    const ast_node *ann = param->u.param.annotation;
    if (!ann)
        return false;
    if (ann->kind == AST_ATTRIBUTE)
        return !strcmp(ann->u.attribute.attr, "constexpr");
    return ann->kind == AST_NAME && !strcmp(ann->u.name.id, "constexpr");
}

/* Bind the call's arguments to the kernel's parameters (borrowed vals into
 * bound[]); launch options are checked and ignored. */
static bool launch_bind(host *h, const val_func *f, int argc, const val *argv,
                        const val_kwargs *kw, src_span at, val *bound)
{
    const ast_list *ps = &f->node->u.funcdef.params;
    int n = ps->len;
    for (int i = 0; i < n; i++)
        bound[i] = val_missing();
    if (argc > n) {
        host_error(h, at, "%s() takes %d arguments but %d were given", f->name, n, argc);
        return false;
    }
    for (int i = 0; i < argc; i++)
        bound[i] = argv[i];
    for (int k = 0; kw && k < kw->n; k++) {
        int i = 0;
        while (i < n && strcmp(ps->items[i]->u.param.name, kw->names[k]))
            i++;
        if (i == n) {
            val v = kw->values[k];
            if (!strcmp(kw->names[k], "extern_libs") && v.kind != VAL_DICT &&
                v.kind != VAL_NONE) {
                host_error(h, at, "extern_libs must be a dict of library names to bitcode "
                           "paths, not %s", val_type_name(v));
                return false;
            }
            if (backend_is_launch_option(kw->names[k]))
                continue;
            host_raise(h, HOST_EXC_TYPE, at,
                       "%s() got an unexpected keyword argument '%s'", f->name,
                       kw->names[k]);
            return false;
        }
        if (bound[i].kind != VAL_MISSING) {
            host_raise(h, HOST_EXC_TYPE, at, "%s() got multiple values for argument '%s'", f->name,
                       kw->names[k]);
            return false;
        }
        bound[i] = kw->values[k];
    }
    for (int i = 0; i < n; i++)
        if (bound[i].kind == VAL_MISSING) {
            if (f->defaults && f->defaults[i].kind != VAL_MISSING) {
                bound[i] = f->defaults[i];
            } else {
                host_raise(h, HOST_EXC_TYPE, at, "%s() missing required argument '%s'", f->name,
                           ps->items[i]->u.param.name);
                return false;
            }
        }
    return true;
}

/* The grid: a tuple of 1 to 3 ints, or a function of the meta dict. */
static bool launch_grid(host *h, val grid, const val_func *f, const val *bound,
                        const val_kwargs *kw, src_span at, int64_t out[3], int *rank)
{
    val g = val_ref(grid);
    if (grid.kind == VAL_FUNC || grid.kind == VAL_BUILTIN ||
        (val_type_of(grid) && val_type_of(grid)->call)) {
        val meta = val_dict_new();
        const ast_list *ps = &f->node->u.funcdef.params;
        for (int i = 0; i < ps->len; i++)
            val_dict_set_str(meta, ps->items[i]->u.param.name, val_ref(bound[i]));
        for (int k = 0; kw && k < kw->n; k++)
            if (backend_is_launch_option(kw->names[k]))
                val_dict_set_str(meta, kw->names[k], val_ref(kw->values[k]));
        val_unref(g);
        g = host_call(h, grid, 1, &meta, NULL, at);
        val_unref(meta);
        if (g.kind == VAL_ERR)
            return false;
    }
    out[0] = out[1] = out[2] = 1;
    *rank = 1;
    bool ok = true;
    if (g.kind == VAL_INT) {
        out[0] = g.u.i;
    } else if (g.kind == VAL_TUPLE || g.kind == VAL_LIST) {
        const val_seq *t = val_as_seq(g);
        if (t->len < 1 || t->len > 3) {
            host_error(h, at, "the grid must have 1 to 3 dimensions, not %zu", t->len);
            ok = false;
        }
        for (size_t i = 0; ok && i < t->len; i++)
            ok = host_to_int(h, t->items[i], at, "a grid dimension", &out[i]);
        *rank = (int)t->len;
    } else {
        host_error(h, at, "the grid must be a tuple of ints (or a function of the meta "
                   "parameters returning one), not %s", val_type_name(g));
        ok = false;
    }
    for (int i = 0; ok && i < 3; i++)
        if (out[i] < 0 || out[i] > ((int64_t)1 << 31) - 1) {
            host_error(h, at, "grid dimension %d is %lld; it must be between 0 and 2^31 - 1",
                       i, (long long)out[i]);
            ok = false;
        }
    val_unref(g);
    return ok;
}

/* Describe each parameter for the specializer: constexprs by value,
 * runtime arguments by type. */
static bool launch_params(host *h, const val_func *f, uint64_t no_spec, const val *bound,
                          src_span at, arena *a, spec_param *out)
{
    const ast_list *ps = &f->node->u.funcdef.params;
    for (int i = 0; i < ps->len; i++) {
        const ast_node *p = ps->items[i];
        val v = bound[i];
        memset(&out[i], 0, sizeof out[i]);
        /* Triton specializes on a tl.constexpr object whatever the
         * parameter's annotation */
        if (launch_is_constexpr(p) || v.kind == VAL_NONE ||
            constexpr_value(v).kind != VAL_MISSING) {
            out[i].is_const = true;
            if (!launch_const(v, a, &out[i].c)) {
                host_error(h, at, "argument '%s' of %s() is a tl.constexpr, so it must be a "
                           "number, bool, string, dtype, None or tuple, not %s",
                           p->u.param.name, f->name, val_type_name(v));
                return false;
            }
            continue;
        }
        if (tritontools_is_desc(v)) {
            tritontools_desc d;
            if (!tritontools_desc_of(h, v, at, p->u.param.name, &d))
                return false;
            if (d.nd > IR_MAX_DIM) {
                host_error(h, at, "argument '%s' of %s() is a TensorDescriptor of %d "
                           "dimensions; tritsim's tiles have at most %d", p->u.param.name,
                           f->name, d.nd, IR_MAX_DIM);
                return false;
            }
            for (int k = 0; k < d.nd; k++)
                if (d.block[k] < 1 || d.block[k] > (1 << 20)) {
                    host_error(h, at, "argument '%s' of %s() is a TensorDescriptor with "
                               "block_shape[%d] = %lld", p->u.param.name, f->name, k,
                               (long long)d.block[k]);
                    return false;
                }
            out[i].dt = dtype_ptr_to(tensor_dtype(d.base));
            out[i].desc_nd = d.nd;
            for (int k = 0; k < d.nd; k++)
                out[i].desc_block[k] = (int32_t)d.block[k];
            out[i].desc_nan = d.pad_nan;
            continue;
        }
        switch (v.kind) {
        case VAL_TENSOR:
            if (tensor_is_complex(tensor_of(v))) {
                host_error(h, at, "argument '%s' of %s() is a %s tensor: Triton has no "
                           "complex dtype (pass torch.view_as_real(%s), a float tensor "
                           "whose last dimension holds the real and imaginary parts)",
                           p->u.param.name, f->name,
                           tensor_dtype(tensor_of(v)) == DTYPE_FP64 ? "torch.complex128"
                                                                    : "torch.complex64",
                           p->u.param.name);
                return false;
            }
            out[i].dt = dtype_ptr_to(tensor_dtype(tensor_of(v)));
            out[i].div16 = spec_div16(no_spec, i, (uint64_t)(uintptr_t)tensor_addr(tensor_of(v)));
            break;
        case VAL_BOOL:
            out[i].dt = DTYPE_INT1;
            break;
        case VAL_INT:
            /* Triton specializes an int argument equal to 1 as the
             * constant 1, unless do_not_specialize names it */
            if (v.u.i == 1 && spec_on_value(no_spec, i)) {
                out[i].is_const = true;
                out[i].c = (spec_const){.kind = SC_INT, .u.i = 1};
                break;
            }
            out[i].dt = dtype_of_pyint(v.u.i);
            out[i].div16 = spec_div16(no_spec, i, (uint64_t)v.u.i);
            break;
        case VAL_FLOAT:
            out[i].dt = DTYPE_FP32;
            break;
        default:
            host_error(h, at, "argument '%s' of %s() is %s; a kernel takes tensors, numbers "
                       "and tl.constexpr values", p->u.param.name, f->name,
                       val_type_name(v));
            return false;
        }
    }
    return true;
}

/* --dump-ir: a specialization's header (the kernel's parameters, with the
 * type of each runtime argument and the value of each constexpr), then its
 * IR (ir_dump), on stderr, so that the program's own output stays as it is.
 *
 *   ; specialized copy_kernel(x_ptr: pointer<fp32>, n: int32, BLOCK: constexpr = 4)
 */
static void launch_dump_ir(const val_func *f, const launch_spec *s)
{
    const ast_list *ps = &f->node->u.funcdef.params;
    strbuf b;
    strbuf_init(&b);
    strbuf_printf(&b, "; specialized %s(", f->name);
    for (int i = 0; i < s->nparams; i++) {
        const spec_param *p = &s->params[i];
        const ast_node *node = ps->items[i];
        strbuf_printf(&b, "%s%s", i ? ", " : "", node->u.param.name);
        if (p->is_const) {
            /* an int argument equal to 1 is specialized too (launch_params) */
            strbuf_puts(&b, launch_is_constexpr(node) ? ": constexpr = " : " = ");
            spec_const_repr(&b, &p->c);
        } else if (p->desc_nd > 0) {
            strbuf_printf(&b, ": TensorDescriptor(%s, block [", dtype_name(p->dt));
            for (int d = 0; d < p->desc_nd; d++)
                strbuf_printf(&b, "%s%d", d ? ", " : "", (int)p->desc_block[d]);
            strbuf_puts(&b, p->desc_nan ? "], padding nan)" : "])");
        } else {
            strbuf_printf(&b, ": %s%s", dtype_name(p->dt), p->div16 ? " (divisible by 16)" : "");
        }
    }
    strbuf_puts(&b, ")\n");
    fputs(strbuf_cstr(&b), stderr);
    strbuf_free(&b);
    ir_dump(s->ir, stderr);
}

/* --dump-cuda (--dump-hip): the CUDA (HIP) source the GPU backends would
 * compile for s with this many warps (and waves_per_eu), on stderr (or why
 * there is none).  HIP: a CDNA GPU's 64-lane wavefronts. */
static void launch_dump_cuda(host *h, const val_func *f, launch_spec *s, int64_t warps,
                             int64_t waves, int64_t nonkdim)
{
    if (!h->dump_cuda || (*h->dump_cuda && strcmp(h->dump_cuda, f->name)))
        return;
    int w = 0;
    while (w < 63 && ((int64_t)1 << w) < warps)
        w++;
    if (s->cuda_dumped & ((uint64_t)1 << w))
        return;
    s->cuda_dumped |= (uint64_t)1 << w;
    h->cuda_dumped++;
    cgen_options o = {.target = {.dialect = CGEN_CUDA, .warp_size = 32, .arch = 90},
                      .num_warps = (int)warps, .num_stages = 3, .checked = !h->unchecked,
                      .max_smem = 227 * 1024};
    if (h->dump_hip) {
        /* gfx90a: the MI200's MFMA instructions, which the MI300 class
         * (gfx940-942) has too (cgen_mfma.c) */
        o.target = (cgen_target){.dialect = CGEN_HIP, .warp_size = 64, .arch = 0x90a};
        o.max_smem = 64 * 1024;
        o.waves_per_eu = waves > 0 && waves <= 32 ? (int)waves : 0;
        o.matrix_instr_nonkdim = nonkdim == 16 || nonkdim == 32 ? (int)nonkdim : 0;
    }
    strbuf src = {0};
    cgen_info info;
    cgen_fault fault;
    fprintf(stderr, "// ---- tritsim: %s source of %s (num_warps %d)\n",
            cgen_dialect_of(&o.target)->name, f->name, (int)warps);
    if (cgen_emit(s->ir, &o, &src, &info, &fault)) {
        fputs(strbuf_cstr(&src), stderr);
        fprintf(stderr, "// ---- end (%d threads, %zu bytes of shared memory)\n", info.threads,
                info.smem_bytes);
    } else {
        fprintf(stderr, "// ---- none: instruction %d: %s\n", (int)fault.pc, fault.why);
    }
    strbuf_free(&src);
}

/* The specialization for these parameters, made if needed; NULL after
 * reporting an error. */
static launch_spec *launch_specialize(host *h, launch_kernel *k, const val *bound,
                                      src_span at)
{
    const val_func *f = launch_func(k);
    int n = f->node->u.funcdef.params.len;
    arena tmp;
    arena_init(&tmp);
    spec_param *key = arena_alloc(&tmp, (size_t)(n + 1) * sizeof *key);
    if (!launch_params(h, f, k->no_spec, bound, at, &tmp, key)) {
        arena_free(&tmp);
        return NULL;
    }
    for (launch_spec *s = k->cache; s; s = s->next)
        if (spec_params_eq(s->params, key, n)) {
            arena_free(&tmp);
            return s;
        }
    launch_spec *s = xcalloc(1, sizeof *s);
    arena_init(&s->mem);
    s->nparams = n;
    s->params = arena_alloc(&s->mem, (size_t)(n + 1) * sizeof *s->params);
    if (!launch_params(h, f, k->no_spec, bound, at, &s->mem, s->params)) {
        arena_free(&tmp);
        arena_free(&s->mem);
        free(s);
        return NULL;
    }
    arena_free(&tmp);
    /* The lookups stay usable as long as the kernel: the debugger compiles
     * expressions through them (spec_dbg_eval). */
    launch_lookup_ctx *ctx = arena_alloc(&s->mem, sizeof *ctx);
    *ctx = (launch_lookup_ctx){.h = h, .consts = &s->mem, .interpret = k->interpret};
    bool dumping = h->dump_ir && (!*h->dump_ir || !strcmp(h->dump_ir, f->name));
    /* The debugger's tables cost time and memory: only for a debugger (which
     * a program has from its start, or never) and for --dump-ir, which lists
     * the statements. */
    spec_host sh = {.lookup = launch_lookup, .lookup_attr = launch_lookup_attr, .ctx = ctx,
                    .debug_info = h->debugger != NULL || dumping,
                    .interpret = k->interpret, .call = launch_call_host};
    fflush(stdout);
    launch_quiet q;
    diag_sink *diag = launch_quiet_begin(h, &q);
    s->ir = spec_kernel(f->file, f->node, k->fn.u.o, &sh, s->params, diag, &s->mem, stdout);
    if (!launch_quiet_end(h, &q, diag, s->ir != NULL, at)) {
        arena_free(&s->mem);
        free(s);
        return NULL;
    }
    if (!s->ir) {
        diag_report(h->diag, DIAG_NOTE, h->file, at, "while compiling '%s' for this launch",
                    f->name);
        host_fail(h);
        arena_free(&s->mem);
        free(s);
        return NULL;
    }
    if (dumping) {
        launch_dump_ir(f, s);
        h->ir_dumped++;
    }
    s->next = k->cache;
    k->cache = s;
    return s;
}

/* Triton launches on GPU memory only: a tensor argument made without
 * device="cuda" (or moved there) is refused with Triton's own message,
 * after the kernel compiled, as there.  Its interpreter (a kernel made
 * while TRITON_INTERPRET=1) runs on the CPU and takes CPU tensors too.
 * tritsim keeps every tensor in host memory; this keeps the programs it
 * accepts valid on a GPU. */
static bool launch_on_device(host *h, const launch_kernel *k, const val *bound, src_span at)
{
    const val_func *f = launch_func(k);
    if (k->interpret)
        return true;
    int n = f->node->u.funcdef.params.len;
    for (int i = 0; i < n; i++)
        if (bound[i].kind == VAL_TENSOR && !tensor_of(bound[i])->cuda) {
            char msg[96];
            snprintf(msg, sizeof msg,
                     "Pointer argument (at %d) cannot be accessed from Triton (cpu tensor?)", i);
            val m = val_str_new(msg, strlen(msg));
            host_raise_args(h, HOST_EXC_VALUE, val_tuple_of(1, &m), at,
                            "ValueError: %s; make the tensor with device=\"cuda\" or move it "
                            "there with .cuda()", msg);
            return false;
        }
    return true;
}

static bool launch_int_option(host *h, const val_kwargs *kw, const char *name, int64_t dflt,
                              src_span at, int64_t *out);
static bool launch_is_param(const val_func *f, const char *name);

/* A recorded launch (host_recorder): what the record needs to know of
 * tensor t, passed as name. */
static void launch_alog_arg(alog_arg *va, const char *name, const tensor *t)
{
    va->name = name;
    va->tensor = true;
    va->dt = tensor_dtype(t);
    va->ndim = t->ndim < ALOG_MAX_DIMS ? t->ndim : ALOG_MAX_DIMS;
    for (int d = 0; d < va->ndim; d++) {
        va->shape[d] = t->shape[d];
        va->strides[d] = t->strides[d];
    }
    if (t->ndim > ALOG_MAX_DIMS)
        va->ndim = 0;           /* a strip of its elements */
    va->extent = tensor_extent(t);
    va->addr = (uint64_t)(uintptr_t)tensor_addr(t);
}

/* ---- Proton (proton.c) ----------------------------------------------------- */

static const val_type launch_metadata_type;

static double launch_now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* launch_metadata's (grid, kernel, args): the grid as three ints, the
 * kernel as its metadata (.name), args every parameter by name. */
static val launch_md_args(const val_func *f, const val *bound, const int64_t *g,
                          int64_t warps, int64_t stages)
{
    val args = val_dict_new();
    const ast_list *ps = &f->node->u.funcdef.params;
    for (int i = 0; i < ps->len; i++)
        val_dict_set_str(args, ps->items[i]->u.param.name, val_ref(bound[i]));
    val kern = val_object_new(&launch_metadata_type);
    val_object_set(kern, "name", val_str_cstr(f->name));
    val_object_set(kern, "num_warps", val_int(warps));
    val_object_set(kern, "num_stages", val_int(stages));
    val_object_set(kern, "num_ctas", val_int(1));
    val_object_set(kern, "shared", val_int(0));
    val grid = val_tuple_of(3, (val[]){val_int(g[0]), val_int(g[1]), val_int(g[2])});
    return val_tuple_of(3, (val[]){grid, kern, args});
}

/* A launch that ran while a Proton session records: its time, under the
 * name launch_metadata gives (md_args: its arguments, or None). */
static bool launch_profiled(host *h, const launch_kernel *k, const val_func *f, val md_args,
                            double ns, src_span at)
{
    val md = val_none();
    if (md_args.kind == VAL_TUPLE) {
        md = host_call(h, k->metadata, 3, val_as_seq(md_args)->items, NULL, at);
        if (md.kind == VAL_ERR)
            return false;
    }
    bool ok = proton_kernel(h, f->name, md, ns, at);
    val_unref(md);
    return ok;
}

static val launch_compiled_make(val kernel, launch_spec *s, const val *bound, int n, int m,
                                const char *const *names, const val *values, int64_t warps,
                                int64_t stages);

/* A launch; its value is the CompiledKernel (launch_compiled_make), as
 * Triton's JITFunction.run returns it. */
static val launch_run(host *h, launch_kernel *k, val grid, int argc, const val *argv,
                      const val_kwargs *kw, src_span at)
{
    const val_func *f = launch_func(k);
    int n = f->node->u.funcdef.params.len;
    val *bound = xcalloc((size_t)(n + 1), sizeof *bound);
    int64_t g[3];
    int rank = 1;
    int64_t warps = 4, stages = 3, waves = 0, nonkdim = 0;
    launch_spec *s = NULL;
    backend_kernel *compiled = NULL;
    bool ok = launch_bind(h, f, argc, argv, kw, at, bound) &&
              launch_grid(h, grid, f, bound, kw, at, g, &rank) &&
              /* the options for the backend, unless a parameter has their name */
              (launch_is_param(f, "num_warps") ||
               launch_int_option(h, kw, "num_warps", 4, at, &warps)) &&
              (launch_is_param(f, "num_stages") ||
               launch_int_option(h, kw, "num_stages", 3, at, &stages)) &&
              (launch_is_param(f, "waves_per_eu") ||
               launch_int_option(h, kw, "waves_per_eu", 0, at, &waves)) &&
              (launch_is_param(f, "matrix_instr_nonkdim") ||
               launch_int_option(h, kw, "matrix_instr_nonkdim", 0, at, &nonkdim)) &&
              (s = launch_specialize(h, k, bound, at)) != NULL &&
              launch_on_device(h, k, bound, at) &&
              (compiled = launch_compile(h, s, f, at)) != NULL;
    if (ok)
        launch_dump_cuda(h, f, s, warps, waves, nonkdim);
    if (!ok) {
        free(bound);
        return val_err();
    }
    /* The runtime arguments, in the order of ir_kernel.params. */
    const ir_kernel *ir = s->ir;
    backend_arg *args = xcalloc((size_t)(ir->nparams + 1), sizeof *args);
    alog_arg *vargs = h->recorder ? xcalloc((size_t)(ir->nparams + 1), sizeof *vargs) : NULL;
    int r = 0;
    for (int i = 0; i < n; i++) {
        if (s->params[i].is_const)
            continue;
        val v = bound[i];
        if (s->params[i].desc_nd > 0) {
            /* a TensorDescriptor: base, sizes, strides (sp_desc_param) */
            tritontools_desc d;
            if (!tritontools_desc_of(h, v, at, f->node->u.funcdef.params.items[i]->u.param.name,
                                     &d)) {
                free(bound);
                free(args);
                free(vargs);
                return val_err();
            }
            backend_arg *ea = &args[r];
            ea->name = ir->params[r].name;
            ea->value.u = (uint64_t)(uintptr_t)tensor_addr(d.base);
            ea->numel = (size_t)tensor_extent(d.base);
            ea->buffer = tensor_buffer(d.base);
            if (vargs)
                launch_alog_arg(&vargs[r], ea->name, d.base);
            r++;
            for (int k = 0; k < 2 * d.nd; k++, r++) {
                args[r].name = ir->params[r].name;
                args[r].value = k < d.nd ? dtype_wrap(DTYPE_INT32, (uint64_t)d.shape[k])
                                         : dtype_wrap(DTYPE_INT64, (uint64_t)d.strides[k - d.nd]);
            }
            continue;
        }
        backend_arg *ea = &args[r++];
        ea->name = ir->params[r - 1].name;
        switch (v.kind) {
        case VAL_TENSOR: {
            const tensor *t = tensor_of(v);
            ea->value.u = (uint64_t)(uintptr_t)tensor_addr(t);
            ea->numel = (size_t)tensor_extent(t);
            ea->buffer = tensor_buffer(t);
            if (vargs)
                launch_alog_arg(&vargs[r - 1], ea->name, t);
            break;
        }
        case VAL_BOOL: ea->value.u = v.u.b; break;
        case VAL_INT: ea->value.i = v.u.i; break;
        case VAL_FLOAT: ea->value.f = (double)(float)v.u.f; break;
        default: break;
        }
    }
    /* a Proton profile that names launches: launch_metadata's arguments */
    val md_args = proton_wants_metadata() && k->metadata.kind != VAL_NONE
                      ? launch_md_args(f, bound, g, warps, stages) : val_none();
    val result = launch_compiled_make(val_of(k), s, bound, n, kw ? kw->n : 0,
                                      kw ? (const char *const *)kw->names : NULL,
                                      kw ? kw->values : NULL, warps, stages);
    free(bound);
    if (g[0] * g[1] * g[2] == 0) {
        free(args);
        free(vargs);
        val_unref(md_args);
        return result;
    }
    val scratch;
    if (!launch_scratch(h, ir, g, at, &scratch)) {
        free(args);
        free(vargs);
        val_unref(result);
        return val_err();
    }
    backend_dev *dev = launch_context(h)->dev;
    backend_buffer **revealed;
    int nrevealed;
    if (!launch_revealed(h, dev->be, ir, f, at, &revealed, &nrevealed)) {
        free(args);
        free(vargs);
        val_unref(scratch);
        val_unref(result);
        return val_err();
    }
    fflush(stdout);
    backend_launch L = {.file = f->file, .grid = {g[0], g[1], g[2]}, .rank = rank,
                        .args = args, .num_warps = (int)warps, .num_stages = (int)stages,
                        .waves_per_eu = waves > 0 && waves <= 32 ? (int)waves : 0,
                        .matrix_instr_nonkdim = nonkdim == 16 || nonkdim == 32 ? (int)nonkdim
                                                                               : 0,
                        .out = stdout, .diag = h->diag,
                        .breaks = h->no_break ? BACKEND_BREAK_IGNORE : BACKEND_BREAK_REPORT,
                        .revealed = revealed, .nrevealed = nrevealed,
                        .racecheck = h->racecheck, .initcheck = h->initcheck};
    if (vargs)
        L.log = h->recorder->begin(h->recorder->ctx, f->name, g, rank, ir->nparams, vargs);
    bool killed = false;
    bool run_ok;
    if (h->debugger && debug_wants(h->debugger, ir)) {
        run_ok = debug_launch(h->debugger, h, dev, ir, &L, &killed);
        if (L.log)
            h->recorder->end(h->recorder->ctx, L.log, run_ok);
    } else {
        launch_quiet q;
        L.diag = launch_quiet_begin(h, &q);
        double t0 = proton_recording() ? launch_now_ns() : 0;
        run_ok = backend_run(dev, compiled, &L);
        if (run_ok && proton_recording())
            run_ok = launch_profiled(h, k, f, md_args, launch_now_ns() - t0, at);
        if (L.log)
            h->recorder->end(h->recorder->ctx, L.log, run_ok);
        fflush(stdout);
        if (!launch_quiet_end(h, &q, L.diag, run_ok, at)) {
            free(args);
            free(vargs);
            free(revealed);
            val_unref(scratch);
            val_unref(md_args);
            val_unref(result);
            return val_err();
        }
    }
    fflush(stdout);
    free(args);
    free(vargs);
    free(revealed);
    val_unref(scratch);
    val_unref(md_args);
    if (killed || !run_ok)
        val_unref(result);
    if (killed) {          /* the debugger's `kill`: end the program quietly */
        h->exiting = true;
        h->exit_status = 1;
        return val_err();
    }
    if (!run_ok) {
        diag_report(h->diag, DIAG_NOTE, h->file, at, "in the launch of '%s' here", f->name);
        return host_fail(h);
    }
    return result;
}

/* ---- the launcher: kernel[grid] ------------------------------------------ */

static void launch_launcher_free(val_obj *o)
{
    launch_launcher *l = (launch_launcher *)o;
    val_unref(l->kernel);
    val_unref(l->grid);
    val_unref(l->compiled);
}

static val launch_compiled_run(host *h, val compiled, val grid, int argc, const val *argv,
                               const val_kwargs *kw, src_span at);

static val launch_launcher_call(host *h, val self, int argc, const val *argv,
                                const val_kwargs *kw, src_span at)
{
    launch_launcher *l = (launch_launcher *)self.u.o;
    if (l->compiled.kind != VAL_NONE)
        return launch_compiled_run(h, l->compiled, l->grid, argc, argv, kw, at);
    return launch_run(h, (launch_kernel *)l->kernel.u.o, l->grid, argc, argv, kw, at);
}

static const val_type launch_launcher_type = {
    .name = "Launcher",
    .call = launch_launcher_call,
    .free = launch_launcher_free,
};

/* ---- warmup(): a CompiledKernel ------------------------------------------- */

/* What kernel.warmup(...) returns: the specialization made for its
 * arguments, the constexprs and launch options it was made with, and the
 * resource figures tritsim reports for it (launch_estimate). */
typedef struct launch_compiled {
    val_object o;
    val kernel;
    launch_spec *spec;      /* in the kernel's cache, which lives as long */
    val *consts;            /* per parameter: the constexpr value, or MISSING */
    int nparams;
    int nopts;
    const char **opt_names; /* launch options (num_warps=...), names and values owned */
    val *opt_values;
    int64_t n_regs, n_spills, shared, num_warps, num_stages;
} launch_compiled;

/* Bytes of the tile in slot i. */
static int64_t launch_tile_bytes(const ir_kernel *ir, int32_t i)
{
    const ir_type *t = &ir->slots[i].type;
    int64_t n = 1;
    for (int d = 0; d < t->ndim; d++)
        n *= t->shape[d];
    return n * dtype_size(t->dt);
}

/* The figures a GPU compiler would report, estimated from the IR:
 * registers per thread from the largest tile spread over the threads,
 * shared memory from what tl.dot (operands, num_stages deep) and
 * reductions/scans (their input) would stage there.  doc/language.md
 * states the rules. */
static void launch_estimate(launch_compiled *c)
{
    const ir_kernel *ir = c->spec->ir;
    int64_t largest = 0, shared = 0;
    for (int32_t i = 0; i < ir->nslots; i++) {
        int64_t b = launch_tile_bytes(ir, i);
        if (b > largest)
            largest = b;
    }
    for (int32_t pc = 0; pc < ir->ncode; pc++) {
        const ir_inst *in = &ir->code[pc];
        int64_t need = 0;
        if (in->op == IR_DOT)
            need = c->num_stages * (launch_tile_bytes(ir, in->a) + launch_tile_bytes(ir, in->b));
        else if ((in->op == IR_REDUCE || in->op == IR_SCAN) && ir->slots[in->a].type.ndim > 0)
            need = launch_tile_bytes(ir, in->a);
        if (need > shared)
            shared = need;
    }
    int64_t threads = c->num_warps * 32;
    int64_t regs = 16 + (largest / 4 + threads - 1) / threads;
    regs = (regs + 7) / 8 * 8;
    c->n_spills = regs > 255 ? (regs - 255) * 4 : 0;
    c->n_regs = regs > 255 ? 255 : regs;
    c->shared = shared;
}

static void launch_compiled_free(val_obj *o)
{
    launch_compiled *c = (launch_compiled *)o;
    val_unref(c->kernel);
    for (int i = 0; i < c->nparams; i++)
        val_unref(c->consts[i]);
    for (int i = 0; i < c->nopts; i++)
        val_unref(c->opt_values[i]);
    free(c->consts);
    for (int i = 0; i < c->nopts; i++)
        free((char *)c->opt_names[i]);
    free(c->opt_names);
    free(c->opt_values);
    c->nparams = c->nopts = 0;
}

static void launch_compiled_repr(host *h, val self, strbuf *out)
{
    (void)h;
    const launch_compiled *c = (const launch_compiled *)self.u.o;
    strbuf_printf(out, "<CompiledKernel %s>",
                  launch_func((const launch_kernel *)c->kernel.u.o)->name);
}

/* c._init_handles(): the kernel is loaded already. */
static val launch_init_handles(host *h, val self, int argc, const val *argv,
                               const val_kwargs *kw, src_span at)
{
    (void)self;
    if (!host_args(h, at, "_init_handles", "", argc, argv, kw, NULL))
        return val_err();
    return val_none();
}

static void launch_metadata_repr(host *h, val self, strbuf *out)
{
    static const char *const keys[] = {"name", "num_warps", "num_stages", "num_ctas",
                                       "shared", NULL};
    val_print_fields(h, self, "KernelMetadata", keys, out);
}

static const val_type launch_metadata_type = {
    .name = "KernelMetadata",
    .repr = launch_metadata_repr,
};

static val launch_compiled_getitem(host *h, val self, val key, src_span at)
{
    (void)h, (void)at;
    const launch_compiled *c = (const launch_compiled *)self.u.o;
    launch_launcher *l = val_obj_new(sizeof *l, VAL_LAUNCHER, &launch_launcher_type);
    l->kernel = val_ref(c->kernel);
    l->grid = val_ref(key);
    l->compiled = val_ref(self);
    return val_of(l);
}

static const char *const launch_compiled_attrs[] = {
    "n_regs", "n_spills", "metadata", "name", "_init_handles", NULL,
};

static const val_type launch_compiled_type = {
    .name = "CompiledKernel",
    .getitem = launch_compiled_getitem,
    .repr = launch_compiled_repr,
    .free = launch_compiled_free,
    .attr_names = launch_compiled_attrs,
};

/* The option's value among the call's keywords, as an int, or dflt. */
static bool launch_int_option(host *h, const val_kwargs *kw, const char *name, int64_t dflt,
                              src_span at, int64_t *out)
{
    *out = dflt;
    for (int k = 0; kw && k < kw->n; k++)
        if (!strcmp(kw->names[k], name))
            return host_to_int(h, kw->values[k], at, name, out);
    return true;
}

/* Is name one of f's parameters? */
static bool launch_is_param(const val_func *f, const char *name)
{
    const ast_list *ps = &f->node->u.funcdef.params;
    for (int i = 0; i < ps->len; i++)
        if (!strcmp(ps->items[i]->u.param.name, name))
            return true;
    return false;
}

/* The CompiledKernel of specialization s of kernel (a launch_kernel val)
 * for the arguments bound[0..n), with the launch options among the m
 * keywords names/values (the rest are parameters) and num_warps /
 * num_stages: what warmup() gives and what a launch returns, as Triton's. */
static val launch_compiled_make(val kernel, launch_spec *s, const val *bound, int n, int m,
                                const char *const *names, const val *values, int64_t warps,
                                int64_t stages)
{
    launch_kernel *k = (launch_kernel *)kernel.u.o;
    const val_func *f = launch_func(k);
    launch_compiled *c = val_obj_new(sizeof *c, VAL_OBJECT, &launch_compiled_type);
    c->kernel = val_ref(kernel);
    c->spec = s;
    c->nparams = n;
    c->consts = xcalloc((size_t)n + 1, sizeof *c->consts);
    for (int i = 0; i < n; i++)
        c->consts[i] = s->params[i].is_const ? val_ref(bound[i]) : val_missing();
    c->opt_names = xcalloc((size_t)m + 1, sizeof *c->opt_names);
    c->opt_values = xcalloc((size_t)m + 1, sizeof *c->opt_values);
    for (int i = 0; i < m; i++)
        if (backend_is_launch_option(names[i]) && !launch_is_param(f, names[i])) {
            /* copied: a launch's keywords may be a **dict's keys */
            c->opt_names[c->nopts] = xstrdup(names[i]);
            c->opt_values[c->nopts++] = val_ref(values[i]);
        }
    c->num_warps = warps;
    c->num_stages = stages;
    launch_estimate(c);

    val self_c = val_of(c);
    val md = val_object_new(&launch_metadata_type);
    val_object_set(md, "name", val_str_cstr(f->name));
    val_object_set(md, "num_warps", val_int(c->num_warps));
    val_object_set(md, "num_stages", val_int(c->num_stages));
    val_object_set(md, "num_ctas", val_int(1));
    val_object_set(md, "shared", val_int(c->shared));
    val_object_set(self_c, "metadata", md);
    val_object_set(self_c, "n_regs", val_int(c->n_regs));
    val_object_set(self_c, "n_spills", val_int(c->n_spills));
    val_object_set(self_c, "name", val_str_cstr(f->name));
    val_object_set(self_c, "_init_handles",
                   val_builtin_new("CompiledKernel._init_handles", launch_init_handles,
                                   val_none()));
    return self_c;
}

/* kernel.warmup(*args, grid=..., **kwargs): compile for these arguments
 * without running, as Triton's JITFunction.warmup. */
static val launch_warmup(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                         src_span at)
{
    launch_kernel *k = (launch_kernel *)self.u.o;
    const val_func *f = launch_func(k);
    int n = f->node->u.funcdef.params.len;
    int nkw = kw ? kw->n : 0;
    /* grid= is warmup's own; the rest binds as in a launch */
    const char **names = xcalloc((size_t)nkw + 1, sizeof *names);
    val *values = xcalloc((size_t)nkw + 1, sizeof *values);
    val grid = val_missing();
    int m = 0;
    for (int i = 0; i < nkw; i++) {
        if (!strcmp(kw->names[i], "grid")) {
            grid = kw->values[i];
            continue;
        }
        names[m] = kw->names[i];
        values[m++] = kw->values[i];
    }
    val_kwargs rest = {.n = m, .names = names, .values = values};
    val *bound = xcalloc((size_t)n + 1, sizeof *bound);
    int64_t g[3];
    int rank;
    launch_spec *s = NULL;
    int64_t warps = 4, stages = 3;
    bool ok = true;
    if (grid.kind == VAL_MISSING) {
        host_error(h, at, "warmup() missing 1 required keyword-only argument: 'grid'");
        ok = false;
    }
    ok = ok && launch_bind(h, f, argc, argv, &rest, at, bound) &&
         launch_grid(h, grid, f, bound, &rest, at, g, &rank) &&
         launch_int_option(h, &rest, "num_warps", 4, at, &warps) &&
         launch_int_option(h, &rest, "num_stages", 3, at, &stages) &&
         (s = launch_specialize(h, k, bound, at)) != NULL &&
         launch_compile(h, s, f, at) != NULL;
    if (!ok) {
        free(bound);
        free(names);
        free(values);
        return val_err();
    }
    val self_c = launch_compiled_make(self, s, bound, n, m, names, values, warps, stages);
    free(bound);
    free(names);
    free(values);
    return self_c;
}

/* compiled[grid](args...): the grid's three sizes and every parameter
 * positionally, constexprs too, as Triton's CompiledKernel takes them
 * (its launcher reads grid[0..2] and parses all the arguments); the
 * constexprs keep their warmup() values, whatever is passed for them. */
static val launch_compiled_run(host *h, val compiled, val grid, int argc, const val *argv,
                               const val_kwargs *kw, src_span at)
{
    const launch_compiled *c = (const launch_compiled *)compiled.u.o;
    launch_kernel *k = (launch_kernel *)c->kernel.u.o;
    const val_func *f = launch_func(k);
    for (int i = 0; kw && i < kw->n; i++)
        if (strcmp(kw->names[i], "stream"))
            return host_error(h, at, "a compiled kernel's launch takes its arguments "
                              "positionally, not '%s='", kw->names[i]);
    if ((grid.kind != VAL_TUPLE && grid.kind != VAL_LIST) || val_as_seq(grid)->len != 3)
        return host_raise(h, HOST_EXC_INDEX, at, "a compiled kernel's grid has three sizes, as "
                          "Triton's CompiledKernel reads it (grid[0], grid[1], grid[2]): "
                          "write (n, 1, 1) for a 1-D grid");
    if (argc != c->nparams)
        return host_raise(h, HOST_EXC_TYPE, at, "%s() takes %d arguments, its constexprs "
                          "included, but %d were given (a compiled kernel takes every "
                          "parameter positionally)", f->name, c->nparams, argc);
    val *args = xcalloc((size_t)c->nparams + 1, sizeof *args);
    for (int i = 0; i < c->nparams; i++) {
        if (c->consts[i].kind != VAL_MISSING)
            args[i] = c->consts[i];
        else if (i < argc)
            args[i] = argv[i];
        else {
            free(args);
            return host_raise(h, HOST_EXC_TYPE, at, "%s() missing required argument '%s'", f->name,
                              f->node->u.funcdef.params.items[i]->u.param.name);
        }
    }
    val_kwargs opts = {.n = c->nopts, .names = c->opt_names, .values = c->opt_values};
    val r = launch_run(h, k, grid, c->nparams, args, &opts, at);
    free(args);
    return r;
}
