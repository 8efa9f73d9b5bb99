/* gen.c - generators: what calling a def whose body has a `yield` returns,
 * and what a generator expression is.  Python's semantics, lazily: the
 * body runs only when asked for its next item, up to its next yield, so
 * its side effects interleave with the consumer's as in CPython.
 *
 * The evaluator walks the tree recursively on the C stack, so a suspended
 * body's state is its C stack.  Each started generator therefore runs on
 * a stack of its own (ucontext: makecontext/swapcontext), mapped when it
 * first runs and unmapped when it finishes.  Resuming swaps the host's
 * per-call state (frame chain, environment, the exception being handled,
 * call depth) between the consumer and the generator.
 *
 * Bounds: at most GEN_MAX_LIVE generators may be started and unfinished at
 * once (each holds a GEN_STACK stack, mostly untouched); more is a
 * RuntimeError.  A suspended generator whose last reference goes is closed
 * (GeneratorExit raised at its yield, so its finally blocks run and every
 * C frame on its stack unwinds and frees what it holds) at the next
 * statement boundary, and those still suspended when the program ends are
 * closed then, as CPython finalises them. */
#define _GNU_SOURCE   /* MAP_ANONYMOUS, MAP_NORESERVE, MAP_STACK */
#include "host_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#ifdef __SANITIZE_ADDRESS__
#include <dlfcn.h>
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#define GEN_ASAN 1
#endif

enum {
    GEN_MAX_LIVE = 1024,
    GEN_STACK = 8 << 20,   /* as the main thread's default */
};

typedef enum gen_status { GEN_CREATED, GEN_SUSPENDED, GEN_RUNNING, GEN_DONE } gen_status;

typedef struct gen_state gen_state;
struct gen_state {
    gen_state *prev, *next;     /* the list of started, unfinished ones */
    host *h;
    gen_status status;
    bool orphan;                /* its generator object is gone: close it */
    bool shutdown_tried;        /* gen_shutdown tried to close it */
    bool error;                 /* it finished with an exception */
    const ast_node *node;       /* the FUNCDEF, or the GENEXP */
    val func;                   /* the generator function (owned), or NONE */
    val globals;                /* owned: the frame borrows it */
    val env;                    /* its variables (owned) */
    val iterable;               /* a genexp's first iterable (owned) */
    host_frame frame;
    val handling;               /* h->handling while suspended (borrowed) */
    val transfer;               /* yielded out, sent in, returned (owned) */
    val throw;                  /* raise this at the yield when resumed */
    ucontext_t ctx, caller;
    char *stack;                /* mapping: a guard page, then the stack */
    const void *caller_lo;      /* the resumer's stack (for ASan) */
    size_t caller_size;
    void *fake_stack;
};

typedef struct gen_obj {
    val_object o;
    gen_state *st;
} gen_obj;

static gen_state *gen_live;     /* started and unfinished */
static int gen_nlive;
static bool gen_orphans;        /* some on the list have lost their object */
static gen_state *gen_current;  /* the one running now, NULL: none */
static gen_state *gen_starting; /* handed to gen_entry */

static const val_type gen_type;

static size_t gen_page(void)
{
    long p = sysconf(_SC_PAGESIZE);
    return p > 0 ? (size_t)p : 4096;
}

/* ---- switching stacks -------------------------------------------------------------- */

#ifdef GEN_ASAN
/* ASan's swapcontext interceptor prints a warning on first use, which
 * would change every program's output.  The switches are annotated for it
 * (the fiber calls below) and each stack's shadow is cleared when it is
 * mapped and unmapped, which is what the interceptor adds; so call libc's
 * own swapcontext. */
static int gen_swapcontext(ucontext_t *from, const ucontext_t *to)
{
    static int (*real)(ucontext_t *, const ucontext_t *);
    if (!real) {
        void *libc = dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
        if (libc)
            *(void **)&real = dlsym(libc, "swapcontext");
        if (!real)
            real = swapcontext;
    }
    return real(from, to);
}
#define swapcontext gen_swapcontext
#endif

/* From the resumer into st. */
static void gen_switch_in(gen_state *st)
{
#ifdef GEN_ASAN
    void *fake = NULL;
    __sanitizer_start_switch_fiber(&fake, st->stack + gen_page(), GEN_STACK);
    swapcontext(&st->caller, &st->ctx);
    __sanitizer_finish_switch_fiber(fake, NULL, NULL);
#else
    swapcontext(&st->caller, &st->ctx);
#endif
}

/* From st back to its resumer; last: st never runs again. */
static void gen_switch_out(gen_state *st, bool last)
{
#ifdef GEN_ASAN
    __sanitizer_start_switch_fiber(last ? NULL : &st->fake_stack, st->caller_lo,
                                   st->caller_size);
    swapcontext(&st->ctx, &st->caller);
    __sanitizer_finish_switch_fiber(st->fake_stack, &st->caller_lo, &st->caller_size);
#else
    (void)last;
    swapcontext(&st->ctx, &st->caller);
#endif
}

/* ---- the states ------------------------------------------------------------------- */

static void gen_unlink(gen_state *st)
{
    if (!st->stack)
        return;
    if (st->prev)
        st->prev->next = st->next;
    else
        gen_live = st->next;
    if (st->next)
        st->next->prev = st->prev;
    st->prev = st->next = NULL;
#ifdef GEN_ASAN
    ASAN_UNPOISON_MEMORY_REGION(st->stack + gen_page(), GEN_STACK);
#endif
    munmap(st->stack, GEN_STACK + gen_page());
    st->stack = NULL;
    gen_nlive--;
}

/* It will not run again: drop its variables. */
static void gen_finish(gen_state *st)
{
    st->status = GEN_DONE;
    val env = st->env;
    st->env = val_none();
    if (st->func.kind == VAL_FUNC)
        host_env_release(env);
    else
        val_unref(env);
    val_unref(st->iterable);
    st->iterable = val_none();
}

static void gen_state_free(gen_state *st)
{
    gen_unlink(st);
    val_unref(st->func);
    val_unref(st->globals);
    val_unref(st->env);
    val_unref(st->iterable);
    val_unref(st->transfer);
    val_unref(st->throw);
    free(st);
}

static gen_state *gen_state_of(val v)
{
    return v.kind == VAL_OBJECT && v.u.o->type == &gen_type ? ((gen_obj *)v.u.o)->st : NULL;
}

/* The body, on the generator's stack. */
static void gen_entry(void)
{
    gen_state *st = gen_starting;
#ifdef GEN_ASAN
    __sanitizer_finish_switch_fiber(NULL, &st->caller_lo, &st->caller_size);
#endif
    host *h = st->h;
    bool ok;
    val r = val_none();
    if (st->node->kind == AST_FUNCDEF) {
        ok = host_exec_block(h, &st->node->u.funcdef.body) != FLOW_ERROR;
        r = st->frame.retval;
        st->frame.retval = val_none();
    } else {
        ok = host_comp_run(h, st->node, st->iterable);
    }
    if (!ok) {
        val_unref(r);
        r = val_none();
        /* PEP 479: a StopIteration that escapes the body is an error */
        if (!h->exiting && host_exc_is(h, h->exc, HOST_EXC_STOP_ITERATION)) {
            val cause = host_exc_take(h);
            val msg = val_str_cstr("generator raised StopIteration");
            val e = exc_new(h, HOST_EXC_RUNTIME, val_tuple_of(1, &msg));
            exc_raise_from(h, e, cause, st->node->span);
            val_unref(e);
            val_unref(cause);
        }
    }
    st->error = !ok;
    st->transfer = r;
    gen_finish(st);
    gen_switch_out(st, true);
    abort();   /* a finished generator is never resumed */
}

static bool gen_start(host *h, gen_state *st, src_span at)
{
    if (gen_nlive >= GEN_MAX_LIVE) {
        host_raise(h, HOST_EXC_RUNTIME, at, "more than %d generators started and not "
                   "finished at once (tritsim runs each on a stack of its own)",
                   GEN_MAX_LIVE);
        return false;
    }
    size_t page = gen_page();
    void *m = mmap(NULL, GEN_STACK + page, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (m == MAP_FAILED) {
        host_raise(h, HOST_EXC_MEMORY, at, "no memory for a generator's stack");
        return false;
    }
    mprotect(m, page, PROT_NONE);   /* a guard page below the stack */
    st->stack = m;
    getcontext(&st->ctx);
    st->ctx.uc_stack.ss_sp = (char *)m + page;
    st->ctx.uc_stack.ss_size = GEN_STACK;
    st->ctx.uc_link = NULL;
    makecontext(&st->ctx, gen_entry, 0);
    st->next = gen_live;
    if (gen_live)
        gen_live->prev = st;
    gen_live = st;
    gen_nlive++;
    gen_starting = st;
    return true;
}

/* Run st until it yields or ends, sending send (borrowed) or raising throw
 * (stolen; NONE: nothing) at its yield.  1: it yielded *out; 0: it ended,
 * *out its return value; -1: an error (pending). */
static int gen_resume(host *h, gen_state *st, val send, val throw, src_span at, val *out)
{
    *out = val_none();
    switch (st->status) {
    case GEN_RUNNING:
        val_unref(throw);
        host_raise(h, HOST_EXC_VALUE, at, "generator already executing");
        return -1;
    case GEN_DONE:
        if (throw.kind == VAL_NONE)
            return 0;
        host_raise_value(h, throw, at);
        val_unref(throw);
        return -1;
    case GEN_CREATED:
        if (throw.kind != VAL_NONE) {
            gen_finish(st);
            host_raise_value(h, throw, at);
            val_unref(throw);
            return -1;
        }
        if (send.kind != VAL_NONE) {
            host_raise(h, HOST_EXC_TYPE, at,
                       "can't send non-None value to a just-started generator");
            return -1;
        }
        if (h->depth >= HOST_MAX_DEPTH) {
            host_raise(h, HOST_EXC_RECURSION, at, "maximum recursion depth exceeded (%d "
                       "nested calls)", HOST_MAX_DEPTH);
            return -1;
        }
        if (!gen_start(h, st, at))
            return -1;
        break;
    case GEN_SUSPENDED:
        break;
    }
    st->transfer = val_ref(send);
    st->throw = throw;
    host_frame *frame = h->frame;
    const src_file *file = h->file;
    val env = h->env, ns = h->class_ns, handling = h->handling;
    int depth = h->depth;
    gen_state *outer = gen_current;
    st->frame.prev = frame;
    st->frame.call_site = at;
    h->frame = &st->frame;
    h->file = st->frame.file;
    h->env = st->env;
    h->class_ns = val_none();
    h->handling = st->handling;
    h->depth = depth + 1;
    gen_current = st;
    st->status = GEN_RUNNING;
    gen_switch_in(st);
    st->handling = h->handling;
    h->frame = frame;
    h->file = file;
    h->env = env;
    h->class_ns = ns;
    h->handling = handling;
    h->depth = depth;
    gen_current = outer;
    *out = st->transfer;
    st->transfer = val_none();
    if (st->status == GEN_DONE) {
        gen_unlink(st);   /* back on the resumer's stack: unmap the other */
        if (st->error) {
            val_unref(*out);
            *out = val_none();
            return -1;
        }
        return 0;
    }
    return 1;
}

val gen_yield(host *h, val v, src_span at)
{
    gen_state *st = gen_current;
    if (!st) {
        val_unref(v);
        return host_raise(h, HOST_EXC_RUNTIME, at, "'yield' outside a generator");
    }
    st->transfer = v;
    st->status = GEN_SUSPENDED;
    gen_switch_out(st, false);
    if (h->exiting)
        return val_err();   /* closed while the run ends on a fatal error */
    if (st->throw.kind != VAL_NONE) {
        val t = st->throw;
        st->throw = val_none();
        host_raise_value(h, t, at);
        val_unref(t);
        return val_err();
    }
    val s = st->transfer;
    st->transfer = val_none();
    return s;
}

/* Close st: GeneratorExit raised at its yield.  False after an error (it
 * yielded again, or raised something else). */
static bool gen_close(host *h, gen_state *st, src_span at)
{
    if (st->status == GEN_CREATED)
        gen_finish(st);
    if (st->status != GEN_SUSPENDED)
        return true;
    val out;
    int r = gen_resume(h, st, val_none(), exc_new(h, HOST_EXC_GENERATOR_EXIT, val_tuple_new(0)),
                       at, &out);
    val_unref(out);
    if (r > 0) {
        host_raise(h, HOST_EXC_RUNTIME, at, "generator ignored GeneratorExit");
        return false;
    }
    if (r < 0 && !h->exiting && (host_exc_is(h, h->exc, HOST_EXC_GENERATOR_EXIT) ||
                                 host_exc_is(h, h->exc, HOST_EXC_STOP_ITERATION))) {
        val_unref(host_exc_take(h));
        return true;
    }
    return r == 0;
}

/* `yield from src`: src's items pass through, and what is sent or thrown
 * in goes to src when it is a generator; the value is src's return value. */
val gen_yield_from(host *h, val src, src_span at)
{
    gen_state *inner = gen_state_of(src);
    if (!inner) {
        host_iter it;
        if (!host_iter_begin(h, src, at, &it))
            return val_err();
        val x;
        int st;
        while ((st = host_iter_next(h, &it, &x)) > 0) {
            val got = gen_yield(h, x, at);
            if (got.kind == VAL_ERR) {
                st = -1;
                break;
            }
            val_unref(got);
        }
        host_iter_end(&it);
        return st < 0 ? val_err() : val_none();
    }
    val keep = val_ref(src);
    val send = val_none(), throw = val_none(), result = val_err();
    for (;;) {
        val out;
        int r = gen_resume(h, inner, send, throw, at, &out);
        val_unref(send);
        send = val_none();
        throw = val_none();
        if (r <= 0) {
            result = r == 0 ? out : val_err();
            break;
        }
        val got = gen_yield(h, out, at);
        if (got.kind != VAL_ERR) {
            send = got;
            continue;
        }
        if (h->exiting)
            break;
        val e = host_exc_take(h);
        if (host_exc_is(h, e, HOST_EXC_GENERATOR_EXIT)) {
            if (gen_close(h, inner, at))
                host_exc_restore(h, e);
            else
                val_unref(e);
            break;
        }
        throw = e;
    }
    val_unref(keep);
    return result;
}

/* ---- the generator object ------------------------------------------------------------ */

static void gen_free(val_obj *o)
{
    gen_state *st = ((gen_obj *)o)->st;
    if (st->status == GEN_SUSPENDED && !val_shutting_down()) {
        st->orphan = true;   /* closed at the next statement boundary */
        gen_orphans = true;
        return;
    }
    gen_state_free(st);
}

static const char *gen_name(const gen_state *st)
{
    return st->node->kind == AST_FUNCDEF ? st->node->u.funcdef.name : "<genexpr>";
}

static void gen_repr(host *h, val self, strbuf *out)
{
    (void)h;
    strbuf_printf(out, "<generator object %s at %p>", gen_name(gen_state_of(self)),
                  (void *)self.u.o);
}

static int gen_next_hook(host *h, val self, val *out, src_span at)
{
    int r = gen_resume(h, gen_state_of(self), val_none(), val_none(), at, out);
    if (r == 0) {
        val_unref(*out);
        *out = val_none();
    }
    return r;
}

/* What next() and send() give: the item, or StopIteration(value). */
static val gen_step(host *h, gen_state *st, val send, val throw, src_span at)
{
    val out;
    int r = gen_resume(h, st, send, throw, at, &out);
    if (r > 0)
        return out;
    if (r < 0)
        return val_err();
    val args = out.kind == VAL_NONE ? val_tuple_new(0) : val_tuple_of(1, &out);
    return host_raise_args(h, HOST_EXC_STOP_ITERATION, args, at, "StopIteration");
}

static val gen_m_next(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                      src_span at)
{
    (void)argv;
    if (argc || kw->n)
        return host_raise(h, HOST_EXC_TYPE, at, "__next__() takes no arguments");
    return gen_step(h, gen_state_of(self), val_none(), val_none(), at);
}

static val gen_m_send(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                      src_span at)
{
    val a[1];
    if (!host_args(h, at, "send", "value", argc, argv, kw, a))
        return val_err();
    return gen_step(h, gen_state_of(self), a[0], val_none(), at);
}

static val gen_m_throw(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                       src_span at)
{
    val a[1];
    if (!host_args(h, at, "throw", "value", argc, argv, kw, a))
        return val_err();
    val e = a[0];
    if (e.kind == VAL_CLASS) {
        e = host_call(h, e, 0, NULL, NULL, at);
        if (e.kind == VAL_ERR)
            return e;
    } else {
        e = val_ref(e);
    }
    if (e.kind != VAL_INSTANCE || !host_exc_is(h, e, HOST_EXC_BASE)) {
        val_unref(e);
        return host_raise(h, HOST_EXC_TYPE, at, "exceptions must derive from BaseException");
    }
    return gen_step(h, gen_state_of(self), val_none(), e, at);
}

static val gen_m_close(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                       src_span at)
{
    (void)argv;
    if (argc || kw->n)
        return host_raise(h, HOST_EXC_TYPE, at, "close() takes no arguments");
    return gen_close(h, gen_state_of(self), at) ? val_none() : val_err();
}

static val gen_m_iter(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                      src_span at)
{
    (void)h, (void)argc, (void)argv, (void)kw, (void)at;
    return val_ref(self);
}

static const char *const gen_attrs[] = {"send", "throw", "close", "__next__", "__iter__",
                                        "__name__", NULL};

static val gen_getattr(host *h, val self, const char *name, src_span at)
{
    (void)h, (void)at;
    val_cfunc fn = !strcmp(name, "send") ? gen_m_send
                 : !strcmp(name, "throw") ? gen_m_throw
                 : !strcmp(name, "close") ? gen_m_close
                 : !strcmp(name, "__next__") ? gen_m_next
                 : !strcmp(name, "__iter__") ? gen_m_iter : NULL;
    if (fn)
        return val_builtin_new(name, fn, val_ref(self));
    if (!strcmp(name, "__name__"))
        return val_str_cstr(gen_name(gen_state_of(self)));
    return val_missing();
}

static const val_type gen_type = {
    .name = "generator",
    .getattr = gen_getattr,
    .repr = gen_repr,
    .next = gen_next_hook,
    .free = gen_free,
    .attr_names = gen_attrs,
};

static val gen_new(host *h, const ast_node *node, val func, val globals, val env, val iterable)
{
    gen_state *st = xcalloc(1, sizeof *st);
    st->h = h;
    st->status = GEN_CREATED;
    st->node = node;
    st->func = func;
    st->globals = globals;
    st->env = env;
    st->iterable = iterable;
    st->handling = val_none();
    st->transfer = val_none();
    st->throw = val_none();
    st->frame.name = node->kind == AST_FUNCDEF ? node->u.funcdef.name : "<genexpr>";
    st->frame.globals = globals;
    st->frame.retval = val_none();
    st->frame.func = func.kind == VAL_FUNC ? (const val_func *)func.u.o : NULL;
    st->frame.file = st->frame.func ? st->frame.func->file : h->file;
    gen_obj *g = val_obj_new(sizeof *g, VAL_OBJECT, &gen_type);
    g->st = st;
    return val_of(g);
}

val gen_new_func(host *h, val fn, val env)
{
    const val_func *f = (const val_func *)fn.u.o;
    return gen_new(h, f->node, val_ref(fn), val_ref(f->globals), env, val_none());
}

val gen_new_genexp(host *h, const ast_node *e, val iterable, val env)
{
    return gen_new(h, e, val_none(), val_ref(h->frame->globals), env, iterable);
}

bool gen_is(val v)
{
    return gen_state_of(v) != NULL;
}

/* ---- closing ---------------------------------------------------------------------- */

/* Close one that must be closed now; an error is printed as CPython prints
 * the errors of finalisers, and does not stop the program. */
static void gen_close_quietly(host *h, gen_state *st)
{
    if (gen_close(h, st, st->node->span) || h->exiting)
        return;
    val e = host_exc_take(h);
    val s = host_str(h, e);
    strbuf b = {0};
    class_print_name(((val_instance *)e.u.o)->cls, &b);
    fflush(stdout);
    fprintf(stderr, "Exception ignored in: <generator object %s>\n%s: %s\n", gen_name(st),
            b.data ? b.data : "", s.kind == VAL_STR ? val_as_str(s)->s : "");
    strbuf_free(&b);
    val_unref(s);
    val_unref(e);
}

void gen_collect(host *h)
{
    gen_orphans = false;
    bool again = true;
    while (again) {
        again = false;
        for (gen_state *st = gen_live; st; st = st->next)
            if (st->orphan && st->status == GEN_SUSPENDED && !st->shutdown_tried) {
                st->orphan = false;
                st->shutdown_tried = true;   /* one try, as CPython's finaliser */
                gen_close_quietly(h, st);
                if (st->status == GEN_DONE)
                    gen_state_free(st);
                else
                    st->orphan = true;   /* gen_shutdown frees it */
                again = true;   /* the list changed: start over */
                break;
            }
    }
}

void gen_shutdown(host *h)
{
    val exc = host_exc_take(h);
    for (;;) {
        gen_state *st = gen_live;
        while (st && (st->status != GEN_SUSPENDED || st->shutdown_tried))
            st = st->next;
        if (!st)
            break;
        st->shutdown_tried = true;
        gen_close_quietly(h, st);
        if (st->orphan && st->status == GEN_DONE)
            gen_state_free(st);
    }
    /* Those that would not close and that nothing refers to: their stacks go
     * (what their C frames held is lost). */
    for (gen_state *st = gen_live, *next; st; st = next) {
        next = st->next;
        if (st->orphan)
            gen_state_free(st);
    }
    if (exc.kind != VAL_NONE)
        host_exc_restore(h, exc);
}

bool gen_pending(void)
{
    return gen_orphans;
}
