/* threadingmod.c - the threading module for a host that runs one thread:
 * Lock, RLock, Semaphore, BoundedSemaphore and Event as objects and
 * context managers (what library code puts around a cache), local (a
 * class: its instances are plain objects, and programs derive from it),
 * Thread (a class whose start() runs the target, or the run() a subclass
 * defines, to its end right away, so join() has nothing to wait for), and
 * current_thread, main_thread, get_ident, active_count, enumerate.
 *
 * A wait that could only end by another thread's action (acquiring a held
 * Lock with blocking=True and no timeout, Event.wait() with no timeout on
 * a clear event) can never end here: it raises RuntimeError instead of
 * hanging. */
#define _DEFAULT_SOURCE
#include "builtins_impl.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- locks and semaphores ------------------------------------------------------------- */

enum { THR_LOCK, THR_RLOCK, THR_SEMAPHORE, THR_BOUNDED };

typedef struct thr_lock {
    val_object o;
    int kind;
    int64_t count;      /* Lock: 1 held; RLock: depth; semaphores: the value */
    int64_t initial;    /* BoundedSemaphore's bound */
} thr_lock;

static const val_type thr_lock_type;

/* acquire(blocking=True, timeout=-1): 1 acquired, 0 not, -1 error. */
static int thr_acquire(host *h, thr_lock *l, int argc, const val *argv,
                       const val_kwargs *kw, src_span at)
{
    val a[2];
    int blocking = 1;
    double timeout = -1;
    if (!host_args(h, at, "acquire", "blocking=, timeout=", argc, argv, kw, a) ||
        (a[0].kind != VAL_MISSING && (blocking = host_truth(h, a[0], at)) < 0) ||
        (a[1].kind != VAL_MISSING && a[1].kind != VAL_NONE &&
         !host_to_float(h, a[1], at, "timeout", &timeout)))
        return -1;
    bool free_now = l->kind == THR_LOCK ? l->count == 0
                    : l->kind == THR_RLOCK ? true
                                            : l->count > 0;
    if (free_now) {
        if (l->kind == THR_LOCK)
            l->count = 1;
        else if (l->kind == THR_RLOCK)
            l->count++;
        else
            l->count--;
        return 1;
    }
    if (!blocking || timeout >= 0)
        return 0;
    host_raise(h, HOST_EXC_RUNTIME, at, "deadlock: acquiring a %s that is held, with no "
               "timeout, on tritsim's one host thread (no other thread can release it)",
               l->kind == THR_LOCK ? "Lock" : "Semaphore at 0");
    return -1;
}

BUILTIN_FN(thr_lock_acquire)
{
    int r = thr_acquire(h, (thr_lock *)self.u.o, argc, argv, kw, at);
    return r < 0 ? val_err() : val_bool(r);
}

static bool thr_release(host *h, thr_lock *l, src_span at)
{
    switch (l->kind) {
    case THR_LOCK:
        if (!l->count) {
            host_raise(h, HOST_EXC_RUNTIME, at, "release unlocked lock");
            return false;
        }
        l->count = 0;
        return true;
    case THR_RLOCK:
        if (!l->count) {
            host_raise(h, HOST_EXC_RUNTIME, at, "cannot release un-acquired lock");
            return false;
        }
        l->count--;
        return true;
    case THR_BOUNDED:
        if (l->count >= l->initial) {
            host_raise(h, HOST_EXC_VALUE, at, "Semaphore released too many times");
            return false;
        }
        l->count++;
        return true;
    default:
        l->count++;
        return true;
    }
}

BUILTIN_FN(thr_lock_release)
{
    (void)argv;
    if (!builtin_nargs(h, "release", argc, kw, 0, 1, at))
        return val_err();
    thr_lock *l = (thr_lock *)self.u.o;
    int64_t n = 1;
    if (argc && (l->kind < THR_SEMAPHORE || !host_to_int(h, argv[0], at, "n", &n)))
        return l->kind < THR_SEMAPHORE ? host_raise(h, HOST_EXC_TYPE, at, "release() takes "
                                                    "no arguments")
                                       : val_err();
    for (int64_t i = 0; i < n; i++)
        if (!thr_release(h, l, at))
            return val_err();
    return val_none();
}

BUILTIN_FN(thr_lock_locked)
{
    (void)argv;
    if (!builtin_nargs(h, "locked", argc, kw, 0, 0, at))
        return val_err();
    const thr_lock *l = (const thr_lock *)self.u.o;
    return val_bool(l->kind <= THR_RLOCK ? l->count > 0 : l->count == 0);
}

BUILTIN_FN(thr_lock_enter)
{
    int r = thr_acquire(h, (thr_lock *)self.u.o, argc, argv, kw, at);
    return r < 0 ? val_err() : val_bool(r);
}

BUILTIN_FN(thr_lock_exit)
{
    (void)argc, (void)argv, (void)kw;
    return thr_release(h, (thr_lock *)self.u.o, at) ? val_bool(false) : val_err();
}

static val thr_lock_getattr(host *h, val self, const char *name, src_span at)
{
    (void)h, (void)at;
    static const val_method methods[] = {
        {"acquire", NULL, thr_lock_acquire}, {"release", NULL, thr_lock_release},
        {"locked", NULL, thr_lock_locked}, {"__enter__", NULL, thr_lock_enter},
        {"__exit__", NULL, thr_lock_exit},
    };
    const thr_lock *l = (const thr_lock *)self.u.o;
    if (!strcmp(name, "_value") && l->kind >= THR_SEMAPHORE)
        return val_int(l->count);
    if (!strcmp(name, "locked") && l->kind != THR_LOCK)
        return val_missing();
    return val_method_bind(methods, sizeof methods / sizeof methods[0], name, self);
}

static const char *thr_lock_name(const thr_lock *l)
{
    static const char *const names[] = {"lock", "RLock", "Semaphore", "BoundedSemaphore"};
    return names[l->kind];
}

static void thr_lock_repr(host *h, val self, strbuf *out)
{
    (void)h;
    const thr_lock *l = (const thr_lock *)self.u.o;
    switch (l->kind) {
    case THR_LOCK:
        strbuf_printf(out, "<%s _thread.lock object at %p>", l->count ? "locked" : "unlocked",
                      (void *)l);
        break;
    case THR_RLOCK:
        strbuf_printf(out, "<%s _thread.RLock object owner=%d count=%lld at %p>",
                      l->count ? "locked" : "unlocked", l->count ? 1 : 0,
                      (long long)l->count, (void *)l);
        break;
    default:
        strbuf_printf(out, "<threading.%s at %p: value=%lld>", thr_lock_name(l), (void *)l,
                      (long long)l->count);
    }
}

static const char *const thr_lock_attrs[] = {
    "acquire", "release", "locked", "__enter__", "__exit__", NULL,
};

static const val_type thr_lock_type = {
    .name = "lock",
    .getattr = thr_lock_getattr,
    .repr = thr_lock_repr,
    .attr_names = thr_lock_attrs,
};

static val thr_lock_new(int kind, int64_t count)
{
    thr_lock *l = val_obj_new(sizeof *l, VAL_OBJECT, &thr_lock_type);
    l->kind = kind;
    l->count = count;
    l->initial = count;
    return val_of(l);
}

BUILTIN_FN(thr_Lock)
{
    (void)self, (void)argv;
    if (!builtin_nargs(h, "Lock", argc, kw, 0, 0, at))
        return val_err();
    return thr_lock_new(THR_LOCK, 0);
}

BUILTIN_FN(thr_RLock)
{
    (void)self, (void)argv;
    if (!builtin_nargs(h, "RLock", argc, kw, 0, 0, at))
        return val_err();
    return thr_lock_new(THR_RLOCK, 0);
}

static val thr_semaphore(host *h, int kind, int argc, const val *argv, const val_kwargs *kw,
                         src_span at)
{
    val a[1];
    int64_t v = 1;
    if (!host_args(h, at, kind == THR_BOUNDED ? "BoundedSemaphore" : "Semaphore", "value=",
                   argc, argv, kw, a) ||
        (a[0].kind != VAL_MISSING && !host_to_int(h, a[0], at, "value", &v)))
        return val_err();
    if (v < 0)
        return host_raise(h, HOST_EXC_VALUE, at, "semaphore initial value must be >= 0");
    return thr_lock_new(kind, v);
}

BUILTIN_FN(thr_Semaphore)
{
    (void)self;
    return thr_semaphore(h, THR_SEMAPHORE, argc, argv, kw, at);
}

BUILTIN_FN(thr_BoundedSemaphore)
{
    (void)self;
    return thr_semaphore(h, THR_BOUNDED, argc, argv, kw, at);
}

/* ---- Event ------------------------------------------------------------------------------- */

typedef struct thr_event {
    val_object o;
    bool flag;
} thr_event;

static const val_type thr_event_type;

BUILTIN_FN(thr_event_set)
{
    (void)argv;
    if (!builtin_nargs(h, "set", argc, kw, 0, 0, at))
        return val_err();
    ((thr_event *)self.u.o)->flag = true;
    return val_none();
}

BUILTIN_FN(thr_event_clear)
{
    (void)argv;
    if (!builtin_nargs(h, "clear", argc, kw, 0, 0, at))
        return val_err();
    ((thr_event *)self.u.o)->flag = false;
    return val_none();
}

BUILTIN_FN(thr_event_is_set)
{
    (void)argv;
    if (!builtin_nargs(h, "is_set", argc, kw, 0, 0, at))
        return val_err();
    return val_bool(((thr_event *)self.u.o)->flag);
}

BUILTIN_FN(thr_event_wait)
{
    val a[1];
    if (!host_args(h, at, "wait", "timeout=", argc, argv, kw, a))
        return val_err();
    if (((thr_event *)self.u.o)->flag)
        return val_bool(true);
    if (a[0].kind == VAL_MISSING || a[0].kind == VAL_NONE)
        return host_raise(h, HOST_EXC_RUNTIME, at, "deadlock: Event.wait() with no timeout on "
                          "an event that is not set, on tritsim's one host thread (no other "
                          "thread can set it)");
    return val_bool(false);
}

static val thr_event_getattr(host *h, val self, const char *name, src_span at)
{
    (void)h, (void)at;
    static const val_method methods[] = {
        {"set", NULL, thr_event_set}, {"clear", NULL, thr_event_clear},
        {"is_set", NULL, thr_event_is_set}, {"isSet", NULL, thr_event_is_set},
        {"wait", NULL, thr_event_wait},
    };
    return val_method_bind(methods, sizeof methods / sizeof methods[0], name, self);
}

static void thr_event_repr(host *h, val self, strbuf *out)
{
    (void)h;
    strbuf_printf(out, "<threading.Event at %p: %s>", (void *)self.u.o,
                  ((thr_event *)self.u.o)->flag ? "set" : "unset");
}

static const char *const thr_event_attrs[] = {"set", "clear", "is_set", "wait", NULL};

static const val_type thr_event_type = {
    .name = "Event",
    .getattr = thr_event_getattr,
    .repr = thr_event_repr,
    .attr_names = thr_event_attrs,
};

BUILTIN_FN(thr_Event)
{
    (void)self, (void)argv;
    if (!builtin_nargs(h, "Event", argc, kw, 0, 0, at))
        return val_err();
    thr_event *e = val_obj_new(sizeof *e, VAL_OBJECT, &thr_event_type);
    return val_of(e);
}

/* ---- Thread ------------------------------------------------------------------------------ */

static val thr_module(host *h)
{
    return host_module(h, "threading");
}

/* Thread.__init__(group=None, target=None, name=None, args=(), kwargs=None,
 * *, daemon=None) */
BUILTIN_FN(thr_thread_init)
{
    val a[6];
    if (!host_args(h, at, "Thread", "group=, target=, name=, args=, kwargs=, *, daemon=", argc,
                   argv, kw, a))
        return val_err();
    if (a[0].kind != VAL_MISSING && a[0].kind != VAL_NONE)
        return host_raise(h, HOST_EXC_ASSERTION, at, "group argument must be None for now");
    val mod = thr_module(h);
    val cnt = val_object_get(mod, "_counter");
    int64_t n = (builtin_is_int(cnt) ? builtin_int_of(cnt) : 0) + 1;
    val_object_set(mod, "_counter", val_int(n));
    val target = a[1].kind == VAL_MISSING ? val_none() : a[1];
    val name;
    if (a[2].kind != VAL_MISSING && a[2].kind != VAL_NONE) {
        name = host_str(h, a[2]);
        if (name.kind == VAL_ERR)
            return name;
    } else {
        val tn = target.kind != VAL_NONE ? host_getattr_opt(h, target, "__name__", at)
                                         : val_missing();
        name = tn.kind == VAL_STR ? val_str_fmt("Thread-%lld (%s)", (long long)n,
                                                val_as_str(tn)->s)
                                  : val_str_fmt("Thread-%lld", (long long)n);
        val_unref(tn);
    }
    if (!host_setattr(h, self, "name", name, at)) {
        val_unref(name);
        return val_err();
    }
    val_unref(name);
    val args = a[3].kind == VAL_MISSING ? val_tuple_new(0) : host_to_list(h, a[3], at);
    if (args.kind == VAL_ERR)
        return args;
    val kwargs = a[4].kind == VAL_MISSING || a[4].kind == VAL_NONE ? val_dict_new()
                                                                    : val_ref(a[4]);
    bool ok = host_setattr(h, self, "_target", target, at) &&
              host_setattr(h, self, "_args", args, at) &&
              host_setattr(h, self, "_kwargs", kwargs, at) &&
              host_setattr(h, self, "daemon",
                           a[5].kind == VAL_MISSING ? val_bool(false) : a[5], at) &&
              host_setattr(h, self, "ident", val_none(), at) &&
              host_setattr(h, self, "_started", val_bool(false), at);
    val_unref(args);
    val_unref(kwargs);
    return ok ? val_none() : val_err();
}

/* Thread.run(): target(*args, **kwargs). */
BUILTIN_FN(thr_thread_run)
{
    (void)argv;
    if (!builtin_nargs(h, "run", argc, kw, 0, 0, at))
        return val_err();
    val target = host_getattr_opt(h, self, "_target", at);
    if (target.kind == VAL_MISSING || target.kind == VAL_NONE) {
        val_unref(target);
        return val_none();
    }
    val args = host_getattr(h, self, "_args", at);
    val kwargs = host_getattr(h, self, "_kwargs", at);
    val r = val_err();
    if (args.kind != VAL_ERR && kwargs.kind == VAL_DICT) {
        val list = host_to_list(h, args, at);
        if (list.kind != VAL_ERR) {
            size_t nk = val_as_dict(kwargs)->len, k = 0, pos = 0;
            const char **names = xmalloc((nk ? nk : 1) * sizeof *names);
            val *values = xmalloc((nk ? nk : 1) * sizeof *values);
            val key, v;
            while (val_dict_next(kwargs, &pos, &key, &v))
                if (key.kind == VAL_STR) {
                    names[k] = val_as_str(key)->s;
                    values[k++] = v;
                }
            val_kwargs kwa = {(int)k, names, values};
            r = host_call(h, target, (int)val_as_seq(list)->len, val_as_seq(list)->items, &kwa,
                          at);
            free(names);
            free(values);
            val_unref(list);
        }
    }
    val_unref(target);
    val_unref(args);
    val_unref(kwargs);
    if (r.kind == VAL_ERR)
        return r;
    val_unref(r);
    return val_none();
}

/* Thread.start(): runs run() now, to its end.  An exception it raises is
 * printed as CPython's thread hook prints it (without the frames) and
 * goes no further. */
BUILTIN_FN(thr_thread_start)
{
    (void)argv;
    if (!builtin_nargs(h, "start", argc, kw, 0, 0, at))
        return val_err();
    val started = host_getattr_opt(h, self, "_started", at);
    int was = started.kind == VAL_MISSING ? 0 : host_truth(h, started, at);
    val_unref(started);
    if (was)
        return host_raise(h, HOST_EXC_RUNTIME, at, "threads can only be started once");
    val mod = thr_module(h);
    val cnt = val_object_get(mod, "_idents");
    int64_t ident = (builtin_is_int(cnt) ? builtin_int_of(cnt) : 0) + 1;
    val_object_set(mod, "_idents", val_int(ident));
    if (!host_setattr(h, self, "_started", val_bool(true), at) ||
        !host_setattr(h, self, "ident", val_int(ident + 1000), at))
        return val_err();
    val r = host_call_method(h, self, "run", 0, NULL, NULL, at);
    if (r.kind != VAL_ERR || h->exiting) {
        val_unref(r);
        return r.kind == VAL_ERR ? r : val_none();
    }
    val e = host_exc_take(h);
    if (host_exc_is(h, e, HOST_EXC_SYSTEM_EXIT)) {
        val_unref(e);
        return val_none();
    }
    strbuf b = {0};
    val name = host_getattr_opt(h, self, "name", at);
    strbuf_puts(&b, "Exception in thread ");
    val_print_str(h, name, &b);
    strbuf_puts(&b, ":\nTraceback (most recent call last):\n  (frames not shown by tritsim)\n");
    val_unref(name);
    class_print_name(((val_instance *)e.u.o)->cls, &b);
    val s = host_str(h, e);
    if (s.kind == VAL_STR && val_as_str(s)->len)
        strbuf_printf(&b, ": %s", val_as_str(s)->s);
    if (s.kind == VAL_ERR)
        val_unref(host_exc_take(h));
    val_unref(s);
    val_unref(e);
    strbuf_putc(&b, '\n');
    fflush(stdout);
    fputs(strbuf_cstr(&b), stderr);
    strbuf_free(&b);
    return val_none();
}

BUILTIN_FN(thr_thread_join)
{
    val a[1];
    if (!host_args(h, at, "join", "timeout=", argc, argv, kw, a))
        return val_err();
    val started = host_getattr_opt(h, self, "_started", at);
    int was = started.kind == VAL_MISSING ? 0 : host_truth(h, started, at);
    val_unref(started);
    if (!was)
        return host_raise(h, HOST_EXC_RUNTIME, at, "cannot join thread before it is started");
    return val_none();
}

BUILTIN_FN(thr_thread_is_alive)
{
    (void)argv;
    if (!builtin_nargs(h, "is_alive", argc, kw, 0, 0, at))
        return val_err();
    return val_bool(self.u.o == val_object_get(thr_module(h), "_main").u.o);
}

/* ---- module functions ----------------------------------------------------------------------- */

BUILTIN_FN(thr_current_thread)
{
    (void)self, (void)argv;
    if (!builtin_nargs(h, "current_thread", argc, kw, 0, 0, at))
        return val_err();
    return val_ref(val_object_get(thr_module(h), "_main"));
}

BUILTIN_FN(thr_get_ident)
{
    (void)self, (void)argv;
    if (!builtin_nargs(h, "get_ident", argc, kw, 0, 0, at))
        return val_err();
    return val_int(getpid());
}

BUILTIN_FN(thr_active_count)
{
    (void)self, (void)argv;
    if (!builtin_nargs(h, "active_count", argc, kw, 0, 0, at))
        return val_err();
    return val_int(1);
}

BUILTIN_FN(thr_enumerate)
{
    (void)self, (void)argv;
    if (!builtin_nargs(h, "enumerate", argc, kw, 0, 0, at))
        return val_err();
    val l = val_list_new(1);
    val_list_push(l, val_ref(val_object_get(thr_module(h), "_main")));
    return l;
}

void builtin_threading_init(host *h)
{
    val m = val_module_new("threading");
    host_def(m, "threading.Lock", thr_Lock);
    host_def(m, "threading.RLock", thr_RLock);
    host_def(m, "threading.Semaphore", thr_Semaphore);
    host_def(m, "threading.BoundedSemaphore", thr_BoundedSemaphore);
    host_def(m, "threading.Event", thr_Event);
    host_def(m, "threading.current_thread", thr_current_thread);
    host_def(m, "threading.main_thread", thr_current_thread);
    host_def(m, "threading.get_ident", thr_get_ident);
    host_def(m, "threading.get_native_id", thr_get_ident);
    host_def(m, "threading.active_count", thr_active_count);
    host_def(m, "threading.enumerate", thr_enumerate);
    val local = class_new("local", val_none(), true);
    val_object_set(local, "__module__", val_str_cstr("_thread"));
    val_object_set(m, "local", local);
    val thread = class_new("Thread", val_none(), true);
    val_object_set(thread, "__module__", val_str_cstr("threading"));
    static const val_method methods[] = {
        {"__init__", "Thread.__init__", thr_thread_init},
        {"run", "Thread.run", thr_thread_run},
        {"start", "Thread.start", thr_thread_start},
        {"join", "Thread.join", thr_thread_join},
        {"is_alive", "Thread.is_alive", thr_thread_is_alive},
    };
    val_method_set_all(thread, methods, sizeof methods / sizeof methods[0], val_none());
    val main = class_instance_new(thread);
    val_object_set(m, "Thread", thread);
    val_object_set(main, "name", val_str_cstr("MainThread"));
    val_object_set(main, "daemon", val_bool(false));
    val_object_set(main, "ident", val_int(getpid()));
    val_object_set(main, "_started", val_bool(true));
    val_object_set(m, "_main", main);
    val_object_set(m, "_counter", val_int(0));
    host_register_module(h, "threading", m);
}
