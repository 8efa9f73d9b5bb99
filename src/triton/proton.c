/* proton.c - triton.profiler (Proton): a profile of the kernels a program
 * launches, in a tree of the scopes it names.
 *
 * proton.start(name, hook="triton") opens the session; while it is active
 * every launch adds its time to a node under the innermost scope: named
 * after the kernel, or, with hook="triton", after what the kernel's
 * launch_metadata function says (name, flops8/16/32/64, bytes), whose
 * numbers are added to the node.  proton.scope(name, metrics) (a context
 * manager and a decorator), enter_scope/exit_scope and cpu_timed_scope
 * open scopes; deactivate/activate pause it; finalize writes NAME.hatchet,
 * the JSON tree Triton's Proton writes (a list: the tree from ROOT, then
 * the device's description), and ends the session.
 *
 * A kernel's "time (ns)" is its launch's wall time on the host, as
 * tritsim's backends run launches to completion: on the CPU backend the
 * simulation's, on the CUDA backend the GPU's plus the launch.  The
 * device is the one the program sees (torch.cuda's, device_type CUDA). */
#define _POSIX_C_SOURCE 200809L
#include "proton.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "strbuf.h"
#include "torchmod.h"

/* ---- the tree --------------------------------------------------------------- */

typedef struct proton_node {
    char *name;
    val metrics;                /* dict: metric name -> int, float or str */
    struct proton_node **kids;
    int nkids, cap;
} proton_node;

enum { PROTON_MAX_DEPTH = 256 };

static struct {
    bool started, active, triton_hook;
    char *name;                 /* the profile's name: NAME.hatchet */
    proton_node *root;
    proton_node *stack[PROTON_MAX_DEPTH];   /* the open scopes; [0] the root */
    double start_ns[PROTON_MAX_DEPTH];      /* cpu_timed_scope: when it opened */
    bool timed[PROTON_MAX_DEPTH];
    int depth;
} P;

static proton_node *proton_node_new(const char *name)
{
    proton_node *n = xcalloc(1, sizeof *n);
    n->name = xstrdup(name);
    n->metrics = val_dict_new();
    return n;
}

static void proton_node_free(proton_node *n)
{
    if (!n)
        return;
    for (int i = 0; i < n->nkids; i++)
        proton_node_free(n->kids[i]);
    free(n->kids);
    free(n->name);
    val_unref(n->metrics);
    free(n);
}

/* The child of parent named name, made on first use (children keep the
 * order they first appeared in). */
static proton_node *proton_child(proton_node *parent, const char *name)
{
    for (int i = 0; i < parent->nkids; i++)
        if (!strcmp(parent->kids[i]->name, name))
            return parent->kids[i];
    if (parent->nkids == parent->cap) {
        parent->cap = parent->cap ? 2 * parent->cap : 4;
        parent->kids = xrealloc(parent->kids, (size_t)parent->cap * sizeof *parent->kids);
    }
    return parent->kids[parent->nkids++] = proton_node_new(name);
}

/* metrics[key] += v (numbers add up; a string replaces). */
static void proton_add(proton_node *n, const char *key, val v)
{
    val old = val_dict_get_str(n->metrics, key);
    if (v.kind == VAL_INT && (old.kind == VAL_INT || old.kind == VAL_MISSING))
        v = val_int(v.u.i + (old.kind == VAL_INT ? old.u.i : 0));
    else if (v.kind == VAL_FLOAT || v.kind == VAL_INT)
        v = val_float((v.kind == VAL_INT ? (double)v.u.i : v.u.f) +
                      (old.kind == VAL_INT ? (double)old.u.i : old.kind == VAL_FLOAT ? old.u.f
                                                                              : 0.0));
    else
        v = val_ref(v);
    val_dict_set_str(n->metrics, key, v);
}

/* The numbers of dict d into node n; false after raising. */
static bool proton_add_dict(host *h, proton_node *n, val d, src_span at, const char *what)
{
    if (d.kind == VAL_NONE || d.kind == VAL_MISSING)
        return true;
    if (d.kind != VAL_DICT) {
        host_raise(h, HOST_EXC_TYPE, at, "%s must be a dict of metric names to numbers, not %s",
                   what, val_type_name(d));
        return false;
    }
    size_t pos = 0;
    val k, v;
    while (val_dict_next(d, &pos, &k, &v)) {
        if (k.kind != VAL_STR || (v.kind != VAL_INT && v.kind != VAL_FLOAT &&
                                  v.kind != VAL_BOOL)) {
            host_raise(h, HOST_EXC_TYPE, at, "%s must map metric names to numbers", what);
            return false;
        }
        proton_add(n, val_as_str(k)->s, v.kind == VAL_BOOL ? val_int(v.u.b) : v);
    }
    return true;
}

static double proton_now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* ---- the launch hook (launch.c) ----------------------------------------------- */

bool proton_recording(void)
{
    return P.started && P.active;
}

bool proton_wants_metadata(void)
{
    return proton_recording() && P.triton_hook;
}

bool proton_kernel(host *h, const char *kernel_name, val metadata, double ns, src_span at)
{
    const char *name = kernel_name;
    if (metadata.kind == VAL_DICT) {
        val n = val_dict_get_str(metadata, "name");
        if (n.kind == VAL_STR)
            name = val_as_str(n)->s;
    } else if (metadata.kind != VAL_NONE && metadata.kind != VAL_MISSING) {
        host_raise(h, HOST_EXC_TYPE, at, "launch_metadata must return a dict, not %s",
                   val_type_name(metadata));
        return false;
    }
    proton_node *n = proton_child(P.stack[P.depth], name);
    proton_add(n, "count", val_int(1));
    proton_add(n, "time (ns)", val_int((int64_t)ns));
    val_dict_set_str(n->metrics, "device_id", val_str_cstr("0"));
    val_dict_set_str(n->metrics, "device_type", val_str_cstr("CUDA"));
    if (metadata.kind == VAL_DICT) {
        size_t pos = 0;
        val k, v;
        while (val_dict_next(metadata, &pos, &k, &v))
            if (k.kind == VAL_STR && strcmp(val_as_str(k)->s, "name") &&
                (v.kind == VAL_INT || v.kind == VAL_FLOAT))
                proton_add(n, val_as_str(k)->s, v);
    }
    return true;
}

/* ---- writing NAME.hatchet --------------------------------------------------------- */

static void proton_json_str(strbuf *out, const char *s)
{
    strbuf_putc(out, '"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            strbuf_printf(out, "\\%c", c);
        else if (c < 0x20)
            strbuf_printf(out, "\\u%04x", c);
        else
            strbuf_putc(out, (char)c);
    }
    strbuf_putc(out, '"');
}

static void proton_json_node(host *h, const proton_node *n, strbuf *out)
{
    strbuf_puts(out, "{\"frame\": {\"name\": ");
    proton_json_str(out, n->name);
    strbuf_puts(out, ", \"type\": \"function\"}, \"metrics\": {");
    size_t pos = 0;
    val k, v;
    bool first = true;
    while (val_dict_next(n->metrics, &pos, &k, &v)) {
        strbuf_puts(out, first ? "" : ", ");
        first = false;
        proton_json_str(out, val_as_str(k)->s);
        strbuf_puts(out, ": ");
        if (v.kind == VAL_INT)
            strbuf_printf(out, "%lld", (long long)v.u.i);
        else if (v.kind == VAL_FLOAT)
            val_print_repr(h, v, out);      /* as Python's json writes floats */
        else if (v.kind == VAL_STR)
            proton_json_str(out, val_as_str(v)->s);
        else
            strbuf_puts(out, "null");
    }
    strbuf_puts(out, "}, \"children\": [");
    for (int i = 0; i < n->nkids; i++) {
        strbuf_puts(out, i ? ", " : "");
        proton_json_node(h, n->kids[i], out);
    }
    strbuf_puts(out, "]}");
}

/* The root's metrics: zero of every metric its kernels have, as Proton. */
static void proton_root_metrics(const proton_node *n, proton_node *root)
{
    size_t pos = 0;
    val k, v;
    while (val_dict_next(n->metrics, &pos, &k, &v))
        if ((v.kind == VAL_INT || v.kind == VAL_FLOAT) &&
            val_dict_get_str(root->metrics, val_as_str(k)->s).kind == VAL_MISSING)
            val_dict_set_str(root->metrics, val_as_str(k)->s, val_int(0));
    for (int i = 0; i < n->nkids; i++)
        proton_root_metrics(n->kids[i], root);
}

static bool proton_write(host *h, src_span at)
{
    proton_root_metrics(P.root, P.root);
    strbuf out = {0};
    strbuf_putc(&out, '[');
    proton_json_node(h, P.root, &out);
    const torch_gpu *g = torch_gpu_info(h);
    strbuf_printf(&out, ", {\"CUDA\": {\"0\": {\"arch\": \"%d%d\", \"bus_width\": %d, "
                  "\"clock_rate\": %d, \"memory_clock_rate\": %d, \"num_sms\": %d}}}]\n",
                  g->major, g->minor, g->mem_bus_width, g->sm_clock_khz, g->mem_clock_khz,
                  g->sm_count);
    char *path = xmalloc(strlen(P.name) + 9);
    sprintf(path, "%s.hatchet", P.name);
    FILE *f = fopen(path, "w");
    bool ok = f && fwrite(out.data, 1, out.len, f) == out.len;
    if (f && fclose(f) != 0)
        ok = false;
    if (!ok)
        host_raise(h, HOST_EXC_OS, at, "proton.finalize(): cannot write %s: %s", path,
                   strerror(errno));
    free(path);
    strbuf_free(&out);
    return ok;
}

static void proton_reset(void)
{
    proton_node_free(P.root);
    free(P.name);
    memset(&P, 0, sizeof P);
}

/* ---- the module's functions ----------------------------------------------------- */

/* start(name=None, *, context="shadow", data="tree", backend=None,
 * mode=None, hook=None): the session's id, 0. */
static val proton_start(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                        src_span at)
{
    (void)self;
    val a[6];
    if (!host_args(h, at, "start", "name=, *, context=, data=, backend=, mode=, hook=", argc,
                   argv, kw, a))
        return val_err();
    const char *name = "proton", *hook = NULL;
    if ((a[0].kind == VAL_STR && !host_to_str(h, a[0], at, "start() name", &name)) ||
        (a[5].kind == VAL_STR && !host_to_str(h, a[5], at, "start() hook", &hook)))
        return val_err();
    if (a[1].kind == VAL_STR && strcmp(val_as_str(a[1])->s, "shadow") &&
        strcmp(val_as_str(a[1])->s, "python"))
        return host_raise(h, HOST_EXC_VALUE, at, "proton.start(): context must be 'shadow' or "
                          "'python'");
    if (a[2].kind == VAL_STR && strcmp(val_as_str(a[2])->s, "tree"))
        return host_raise(h, HOST_EXC_NOT_IMPLEMENTED, at, "proton.start(): tritsim keeps the "
                          "tree data only (data='tree'), not '%s'", val_as_str(a[2])->s);
    if (hook && strcmp(hook, "triton"))
        return host_raise(h, HOST_EXC_VALUE, at, "proton.start(): hook must be 'triton' or "
                          "None, not '%s'", hook);
    if (P.started)       /* Proton keeps one session here too: start again = the same */
        return val_int(0);
    P.started = P.active = true;
    P.triton_hook = hook != NULL;
    P.name = xstrdup(name);
    P.root = proton_node_new("ROOT");
    P.stack[0] = P.root;
    return val_int(0);
}

static val proton_set_active(host *h, val self, int argc, const val *argv,
                             const val_kwargs *kw, src_span at)
{
    val a[1];
    if (!host_args(h, at, self.u.b ? "activate" : "deactivate", "session=", argc, argv, kw, a))
        return val_err();
    if (P.started)
        P.active = self.u.b;
    return val_none();
}

static val proton_finalize(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                           src_span at)
{
    (void)self;
    val a[2];
    if (!host_args(h, at, "finalize", "session=, output_format=", argc, argv, kw, a))
        return val_err();
    if (a[1].kind == VAL_STR && val_as_str(a[1])->len &&
        strcmp(val_as_str(a[1])->s, "hatchet"))
        return host_raise(h, HOST_EXC_NOT_IMPLEMENTED, at, "proton.finalize(): tritsim writes "
                          "the hatchet format only, not '%s'", val_as_str(a[1])->s);
    if (!P.started)
        return val_none();
    bool ok = proton_write(h, at);
    proton_reset();
    return ok ? val_none() : val_err();
}

/* Open scope name under the innermost one (only while recording). */
static bool proton_enter(host *h, val name, val metrics, bool timed, src_span at)
{
    const char *s;
    if (!host_to_str(h, name, at, "a scope's name", &s))
        return false;
    if (!proton_recording())
        return true;
    if (P.depth + 1 >= PROTON_MAX_DEPTH) {
        host_raise(h, HOST_EXC_RUNTIME, at, "proton: more than %d nested scopes",
                   PROTON_MAX_DEPTH - 1);
        return false;
    }
    proton_node *n = proton_child(P.stack[P.depth], s);
    P.stack[++P.depth] = n;
    P.timed[P.depth] = timed;
    P.start_ns[P.depth] = timed ? proton_now_ns() : 0;
    return proton_add_dict(h, n, metrics, at, "a scope's metrics");
}

static bool proton_exit(host *h, val metrics, src_span at)
{
    if (!proton_recording() || P.depth == 0)
        return true;
    proton_node *n = P.stack[P.depth];
    if (P.timed[P.depth])
        proton_add(n, "cpu_time (ns)", val_int((int64_t)(proton_now_ns() - P.start_ns[P.depth])));
    P.depth--;
    return proton_add_dict(h, n, metrics, at, "a scope's metrics");
}

static val proton_enter_scope(host *h, val self, int argc, const val *argv,
                              const val_kwargs *kw, src_span at)
{
    (void)self;
    val a[3];
    if (!host_args(h, at, "enter_scope", "name, *, triton_op=, metrics=", argc, argv, kw, a) ||
        !proton_enter(h, a[0], a[2], false, at))
        return val_err();
    return val_none();
}

static val proton_exit_scope(host *h, val self, int argc, const val *argv,
                             const val_kwargs *kw, src_span at)
{
    (void)self;
    val a[3];
    if (!host_args(h, at, "exit_scope", "name=, *, triton_op=, metrics=", argc, argv, kw, a) ||
        !proton_exit(h, a[2], at))
        return val_err();
    return val_none();
}

/* scope(name, metrics=None) and cpu_timed_scope: a context manager that
 * is also a decorator (the scope opens around each call). */
typedef struct proton_scope {
    val_object o;
    val name, metrics;
    bool timed;
} proton_scope;

static void proton_scope_free(val_obj *o)
{
    proton_scope *s = (proton_scope *)o;
    val_unref(s->name);
    val_unref(s->metrics);
}

static val proton_scope_enter(host *h, val self, int argc, const val *argv,
                              const val_kwargs *kw, src_span at)
{
    (void)argv;
    const proton_scope *s = (const proton_scope *)self.u.o;
    if (argc || (kw && kw->n))
        return host_raise(h, HOST_EXC_TYPE, at, "__enter__() takes no arguments");
    return proton_enter(h, s->name, s->metrics, s->timed, at) ? val_none() : val_err();
}

static val proton_scope_exit(host *h, val self, int argc, const val *argv,
                             const val_kwargs *kw, src_span at)
{
    (void)self, (void)argc, (void)argv, (void)kw;
    return proton_exit(h, val_none(), at) ? val_bool(false) : val_err();
}

/* The decorated function: its calls run inside the scope. */
static val proton_scoped_call(host *h, val self, int argc, const val *argv,
                              const val_kwargs *kw, src_span at)
{
    const val_seq *pair = val_as_seq(self);      /* (scope, fn) */
    const proton_scope *s = (const proton_scope *)pair->items[0].u.o;
    if (!proton_enter(h, s->name, s->metrics, s->timed, at))
        return val_err();
    val r = host_call(h, pair->items[1], argc, argv, kw, at);
    if (!proton_exit(h, val_none(), at)) {
        val_unref(r);
        return val_err();
    }
    return r;
}

static val proton_scope_call(host *h, val self, int argc, const val *argv,
                             const val_kwargs *kw, src_span at)
{
    if (argc != 1 || (kw && kw->n))
        return host_raise(h, HOST_EXC_TYPE, at, "a proton scope decorates one function");
    return val_builtin_new("proton.scope.<function>", proton_scoped_call,
                           val_tuple_of(2, (val[]){val_ref(self), val_ref(argv[0])}));
}

static val proton_scope_getattr(host *h, val self, const char *name, src_span at)
{
    (void)h, (void)at;
    if (!strcmp(name, "__enter__"))
        return val_builtin_new("scope.__enter__", proton_scope_enter, val_ref(self));
    if (!strcmp(name, "__exit__"))
        return val_builtin_new("scope.__exit__", proton_scope_exit, val_ref(self));
    return val_missing();
}

static const val_type proton_scope_type = {
    .name = "scope",
    .getattr = proton_scope_getattr,
    .call = proton_scope_call,
    .free = proton_scope_free,
};

static val proton_scope_new(host *h, val self, int argc, const val *argv,
                            const val_kwargs *kw, src_span at)
{
    val a[2];
    const char *fname = self.u.b ? "cpu_timed_scope" : "scope";
    const char *ignored;
    if (!host_args(h, at, fname, "name, metrics=", argc, argv, kw, a) ||
        !host_to_str(h, a[0], at, "a scope's name", &ignored))
        return val_err();
    proton_scope *s = val_obj_new(sizeof *s, VAL_OBJECT, &proton_scope_type);
    s->o.attrs = val_dict_new();
    s->name = val_ref(a[0]);
    s->metrics = a[1].kind == VAL_MISSING ? val_none() : val_ref(a[1]);
    s->timed = self.u.b;
    return val_of(s);
}

void proton_init(host *h, val triton)
{
    val m = val_module_new("triton.profiler");
    host_def(m, "triton.profiler.start", proton_start);
    val_object_set(m, "activate", val_builtin_new("triton.profiler.activate", proton_set_active,
                                                  val_bool(true)));
    val_object_set(m, "deactivate", val_builtin_new("triton.profiler.deactivate",
                                                    proton_set_active, val_bool(false)));
    host_def(m, "triton.profiler.finalize", proton_finalize);
    host_def(m, "triton.profiler.enter_scope", proton_enter_scope);
    host_def(m, "triton.profiler.exit_scope", proton_exit_scope);
    val_object_set(m, "scope", val_builtin_new("triton.profiler.scope", proton_scope_new,
                                               val_bool(false)));
    val_object_set(m, "cpu_timed_scope", val_builtin_new("triton.profiler.cpu_timed_scope",
                                                         proton_scope_new, val_bool(true)));
    val_object_set(m, "DEFAULT_PROFILE_NAME", val_str_cstr("proton"));
    val_object_set(triton, "profiler", val_ref(m));
    host_register_module(h, "triton.profiler", m);
}
