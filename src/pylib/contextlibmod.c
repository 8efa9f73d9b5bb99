/* contextlibmod.c - the contextlib module: contextmanager (a generator
 * function made into a context manager factory: the code before its
 * yield is __enter__, the code after it __exit__, and an exception of the
 * with block is raised at the yield) and nullcontext. */
#include "builtins_impl.h"

#include <string.h>

/* What a @contextmanager function returns when called: the generator,
 * driven by __enter__ and __exit__. */
typedef struct ctx_gen {
    val_object o;
    val gen;            /* the generator (owned) */
    bool entered;
} ctx_gen;

static void ctx_gen_free(val_obj *o)
{
    val_unref(((ctx_gen *)o)->gen);
}

/* gen.name(args...) */
static val ctx_call(host *h, val gen, const char *name, int argc, const val *argv, src_span at)
{
    val m = host_getattr(h, gen, name, at);
    if (m.kind == VAL_ERR)
        return m;
    val r = host_call(h, m, argc, argv, NULL, at);
    val_unref(m);
    return r;
}

/* Is the pending exception a StopIteration?  (It is then taken.) */
static bool ctx_take_stop(host *h)
{
    if (h->exiting || !host_exc_is(h, h->exc, HOST_EXC_STOP_ITERATION))
        return false;
    val_unref(host_exc_take(h));
    return true;
}

BUILTIN_FN(ctx_gen_enter)
{
    (void)argv;
    if (!builtin_nargs(h, "__enter__", argc, kw, 0, 0, at))
        return val_err();
    ctx_gen *c = (ctx_gen *)self.u.o;
    if (c->entered)
        return host_raise(h, HOST_EXC_RUNTIME, at, "a @contextmanager object can be "
                          "entered once only (call the function again)");
    c->entered = true;
    val r = ctx_call(h, c->gen, "__next__", 0, NULL, at);
    if (r.kind == VAL_ERR && ctx_take_stop(h))
        return host_raise(h, HOST_EXC_RUNTIME, at, "generator didn't yield");
    return r;
}

BUILTIN_FN(ctx_gen_exit)
{
    if (!builtin_nargs(h, "__exit__", argc, kw, 3, 3, at))
        return val_err();
    ctx_gen *c = (ctx_gen *)self.u.o;
    if (argv[0].kind == VAL_NONE) {
        val r = ctx_call(h, c->gen, "__next__", 0, NULL, at);
        if (r.kind == VAL_ERR)
            return ctx_take_stop(h) ? val_bool(false) : r;
        val_unref(r);
        return host_raise(h, HOST_EXC_RUNTIME, at, "generator didn't stop");
    }
    /* The with block raised argv[1]: raise it at the yield. */
    val exc = argv[1];
    val r = ctx_call(h, c->gen, "throw", 1, &exc, at);
    if (r.kind != VAL_ERR) {
        val_unref(r);
        return host_raise(h, HOST_EXC_RUNTIME, at, "generator didn't stop after throw()");
    }
    if (h->exiting)
        return r;
    val e = host_exc_take(h);
    if (val_is_heap(e) && e.u.o == exc.u.o) {
        val_unref(e);
        return val_bool(false);   /* not swallowed: the with statement re-raises it */
    }
    if (host_exc_is(h, e, HOST_EXC_STOP_ITERATION) &&
        !host_exc_is(h, exc, HOST_EXC_STOP_ITERATION)) {
        val_unref(e);
        return val_bool(true);    /* the generator caught it and ended: swallowed */
    }
    host_exc_restore(h, e);
    return val_err();
}

static val ctx_gen_getattr(host *h, val self, const char *name, src_span at)
{
    (void)h, (void)at;
    if (!strcmp(name, "__enter__"))
        return val_builtin_new("__enter__", ctx_gen_enter, val_ref(self));
    if (!strcmp(name, "__exit__"))
        return val_builtin_new("__exit__", ctx_gen_exit, val_ref(self));
    return val_missing();
}

static const char *const ctx_gen_attrs[] = {"__enter__", "__exit__", NULL};

static const val_type ctx_gen_type = {
    .name = "_GeneratorContextManager",
    .getattr = ctx_gen_getattr,
    .free = ctx_gen_free,
    .attr_names = ctx_gen_attrs,
};

/* The factory @contextmanager makes: self is the generator function. */
BUILTIN_FN(ctx_factory)
{
    val g = host_call(h, self, argc, argv, kw, at);
    if (g.kind == VAL_ERR)
        return g;
    if (!host_is_iterator(g)) {
        val_unref(g);
        return host_raise(h, HOST_EXC_TYPE, at, "a @contextmanager function must be a "
                          "generator (a def with a yield)");
    }
    ctx_gen *c = val_obj_new(sizeof *c, VAL_OBJECT, &ctx_gen_type);
    c->gen = g;
    return val_of(c);
}

BUILTIN_FN(ctx_contextmanager)
{
    (void)self;
    if (!builtin_nargs(h, "contextmanager", argc, kw, 1, 1, at))
        return val_err();
    return val_builtin_new("contextmanager", ctx_factory, val_ref(argv[0]));
}

/* ---- nullcontext ------------------------------------------------------------------------ */

typedef struct ctx_null {
    val_object o;
    val result;
} ctx_null;

static void ctx_null_free(val_obj *o)
{
    val_unref(((ctx_null *)o)->result);
}

BUILTIN_FN(ctx_null_enter)
{
    (void)argv;
    if (!builtin_nargs(h, "__enter__", argc, kw, 0, 0, at))
        return val_err();
    return val_ref(((ctx_null *)self.u.o)->result);
}

BUILTIN_FN(ctx_null_exit)
{
    (void)argv;
    (void)self;
    (void)kw;
    (void)argc;
    (void)h;
    (void)at;
    return val_none();
}

static val ctx_null_getattr(host *h, val self, const char *name, src_span at)
{
    (void)h, (void)at;
    if (!strcmp(name, "__enter__"))
        return val_builtin_new("__enter__", ctx_null_enter, val_ref(self));
    if (!strcmp(name, "__exit__"))
        return val_builtin_new("__exit__", ctx_null_exit, val_ref(self));
    return val_missing();
}

static const val_type ctx_null_type = {
    .name = "nullcontext",
    .getattr = ctx_null_getattr,
    .free = ctx_null_free,
    .attr_names = ctx_gen_attrs,
};

BUILTIN_FN(ctx_nullcontext)
{
    (void)self;
    val a[1];
    if (!host_args(h, at, "nullcontext", "enter_result=", argc, argv, kw, a))
        return val_err();
    ctx_null *c = val_obj_new(sizeof *c, VAL_OBJECT, &ctx_null_type);
    c->result = a[0].kind == VAL_MISSING ? val_none() : val_ref(a[0]);
    return val_of(c);
}

void builtin_contextlib_init(host *h)
{
    val m = val_module_new("contextlib");
    host_def(m, "contextlib.contextmanager", ctx_contextmanager);
    host_def(m, "contextlib.nullcontext", ctx_nullcontext);
    host_register_module(h, "contextlib", m);
}
