/* sysmod.c - the sys module (exit, argv, stdout, stderr, version_info,
 * ...), the platform module (system, machine, python_version, ...) and
 * the time module (time, perf_counter, monotonic, the _ns forms,
 * sleep). */
#define _DEFAULT_SOURCE   /* clock_gettime, nanosleep */
#include "builtins_impl.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

/* ---- sys.version_info ------------------------------------------------------------------ */

/* sys.version_info: a named tuple (major, minor, micro, releaselevel,
 * serial) that compares, indexes and iterates as its tuple. */
typedef struct sys_vinfo {
    val_object o;
    val t;
} sys_vinfo;

static const val_type sys_vinfo_type;

static void sys_vinfo_free(val_obj *o)
{
    val_unref(((sys_vinfo *)o)->t);
}

static const char *const sys_vinfo_fields[] = {
    "major", "minor", "micro", "releaselevel", "serial", NULL,
};

static val sys_vinfo_getattr(host *h, val self, const char *name, src_span at)
{
    (void)h, (void)at;
    for (int i = 0; sys_vinfo_fields[i]; i++)
        if (!strcmp(name, sys_vinfo_fields[i]))
            return val_ref(val_as_seq(((sys_vinfo *)self.u.o)->t)->items[i]);
    return val_missing();
}

static val sys_vinfo_getitem(host *h, val self, val key, src_span at)
{
    return host_getitem(h, ((sys_vinfo *)self.u.o)->t, key, at);
}

static int64_t sys_vinfo_len(host *h, val self, src_span at)
{
    (void)h, (void)self, (void)at;
    return 5;
}

static val sys_vinfo_iter(host *h, val self, src_span at)
{
    (void)h, (void)at;
    return val_ref(((sys_vinfo *)self.u.o)->t);
}

static val sys_vinfo_binop(host *h, ast_op op, bool inplace, val a, val b, src_span at)
{
    (void)inplace;
    if (op == AST_OP_IN)
        return host_binop(h, op, a, ((sys_vinfo *)b.u.o)->t, at);
    if (op < AST_OP_EQ || op > AST_OP_GE)
        return val_missing();
    val x = val_type_of(a) == &sys_vinfo_type ? ((sys_vinfo *)a.u.o)->t : a;
    val y = val_type_of(b) == &sys_vinfo_type ? ((sys_vinfo *)b.u.o)->t : b;
    return host_binop(h, op, x, y, at);
}

static void sys_vinfo_repr(host *h, val self, strbuf *out)
{
    const val_seq *t = val_as_seq(((sys_vinfo *)self.u.o)->t);
    strbuf_puts(out, "sys.version_info(");
    for (int i = 0; sys_vinfo_fields[i]; i++) {
        strbuf_printf(out, "%s%s=", i ? ", " : "", sys_vinfo_fields[i]);
        val_print_repr(h, t->items[i], out);
    }
    strbuf_putc(out, ')');
}

static uint64_t sys_vinfo_hash(val self)
{
    return val_hash(((sys_vinfo *)self.u.o)->t);
}

static bool sys_vinfo_equal(val self, val other)
{
    return val_type_of(other) == &sys_vinfo_type &&
           val_equal(((sys_vinfo *)self.u.o)->t, ((sys_vinfo *)other.u.o)->t);
}

static const val_type sys_vinfo_type = {
    .name = "version_info",
    .getattr = sys_vinfo_getattr,
    .getitem = sys_vinfo_getitem,
    .binop = sys_vinfo_binop,
    .len = sys_vinfo_len,
    .iter = sys_vinfo_iter,
    .repr = sys_vinfo_repr,
    .free = sys_vinfo_free,
    .attr_names = sys_vinfo_fields,
    .hash = sys_vinfo_hash,
    .equal = sys_vinfo_equal,
};

/* ---- sys and time -------------------------------------------------------------------- */

BUILTIN_SHARED_FN(builtin_sys_exit)
{
    (void)self;
    if (!builtin_nargs(h, "exit", argc, kw, 0, 1, at))
        return val_err();
    /* raises SystemExit(code): when nothing catches it, an int code is the
     * exit status and anything else is printed to stderr, status 1 */
    val args = argc ? val_tuple_of(1, (val[]){val_ref(argv[0])}) : val_tuple_new(0);
    val e = exc_new(h, HOST_EXC_SYSTEM_EXIT, args);
    host_raise_value(h, e, at);
    val_unref(e);
    return val_err();
}

void builtin_sys_init(host *h)
{
    val sys = val_module_new("sys");
    host_def(sys, "sys.exit", builtin_sys_exit);
    val_object_set(sys, "argv", val_list_new(0));
    val_object_set(sys, "stdout", builtin_file_new(stdout, "stdout"));
    val_object_set(sys, "stderr", builtin_file_new(stderr, "stderr"));
    val_object_set(sys, "maxsize", val_int(INT64_MAX));
    val_object_set(sys, "platform", val_str_cstr("linux"));
    val_object_set(sys, "byteorder", val_str_cstr("little"));
    val vi[5] = {val_int(3), val_int(11), val_int(0), val_str_cstr("final"), val_int(0)};
    sys_vinfo *v = val_obj_new(sizeof *v, VAL_OBJECT, &sys_vinfo_type);
    v->t = val_tuple_of(5, vi);
    val_object_set(sys, "version_info", val_of(v));
    val_object_set(sys, "version", val_str_cstr("3.11.0 (tritsim)"));
    host_register_module(h, "sys", sys);
}

/* ---- platform ---------------------------------------------------------------------------- */

/* platform.system() and the like: no arguments, a str. */
static val sys_platform_str(host *h, int argc, const val_kwargs *kw, src_span at,
                            const char *fname, const char *value)
{
    if (!builtin_nargs(h, fname, argc, kw, 0, 0, at))
        return val_err();
    return val_str_cstr(value);
}

BUILTIN_FN(sys_platform_system)
{
    (void)self, (void)argv;
    struct utsname u;
    return sys_platform_str(h, argc, kw, at, "system", uname(&u) == 0 ? u.sysname : "Linux");
}

BUILTIN_FN(sys_platform_machine)
{
    (void)self, (void)argv;
    struct utsname u;
    return sys_platform_str(h, argc, kw, at, "machine", uname(&u) == 0 ? u.machine : "");
}

BUILTIN_FN(sys_platform_release)
{
    (void)self, (void)argv;
    struct utsname u;
    return sys_platform_str(h, argc, kw, at, "release", uname(&u) == 0 ? u.release : "");
}

BUILTIN_FN(sys_platform_python_version)
{
    (void)self, (void)argv;
    return sys_platform_str(h, argc, kw, at, "python_version", "3.11.0");
}

BUILTIN_FN(sys_platform_python_version_tuple)
{
    (void)self, (void)argv;
    if (!builtin_nargs(h, "python_version_tuple", argc, kw, 0, 0, at))
        return val_err();
    val t[3] = {val_str_cstr("3"), val_str_cstr("11"), val_str_cstr("0")};
    return val_tuple_of(3, t);
}

BUILTIN_FN(sys_platform_python_implementation)
{
    (void)self, (void)argv;
    return sys_platform_str(h, argc, kw, at, "python_implementation", "CPython");
}

void builtin_platform_init(host *h)
{
    val p = val_module_new("platform");
    host_def(p, "platform.system", sys_platform_system);
    host_def(p, "platform.machine", sys_platform_machine);
    host_def(p, "platform.release", sys_platform_release);
    host_def(p, "platform.python_version", sys_platform_python_version);
    host_def(p, "platform.python_version_tuple", sys_platform_python_version_tuple);
    host_def(p, "platform.python_implementation", sys_platform_python_implementation);
    host_register_module(h, "platform", p);
}

/* ---- time ------------------------------------------------------------------------------ */

static double builtin_clock(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int64_t builtin_clock_ns(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int64_t builtin_time_ns(void)
{
    return builtin_clock_ns(CLOCK_REALTIME);
}

/* time.time(), time.perf_counter() and their _ns forms: no arguments, a
 * clock's reading in float seconds or int nanoseconds. */
#define TIME_CLOCK(name, reading) \
    BUILTIN_FN(builtin_time_##name) \
    { \
        (void)self; \
        (void)argv; \
        if (!builtin_nargs(h, #name, argc, kw, 0, 0, at)) \
            return val_err(); \
        return reading; \
    }

TIME_CLOCK(time, val_float(builtin_clock(CLOCK_REALTIME)))
TIME_CLOCK(time_ns, val_int(builtin_clock_ns(CLOCK_REALTIME)))
TIME_CLOCK(perf_counter, val_float(builtin_clock(CLOCK_MONOTONIC)))
TIME_CLOCK(perf_counter_ns, val_int(builtin_clock_ns(CLOCK_MONOTONIC)))

BUILTIN_FN(builtin_time_sleep)
{
    (void)self;
    double s;
    if (!builtin_nargs(h, "sleep", argc, kw, 1, 1, at) ||
        !host_to_float(h, argv[0], at, "sleep() argument", &s))
        return val_err();
    if (s < 0)
        return host_raise(h, HOST_EXC_VALUE, at, "ValueError: sleep length must be non-negative");
    fflush(stdout);
    struct timespec ts = {(time_t)s, (long)((s - floor(s)) * 1e9)};
    nanosleep(&ts, NULL);
    return val_none();
}

void builtin_time_init(host *h)
{
    val t = val_module_new("time");
    host_def(t, "time.time", builtin_time_time);
    host_def(t, "time.time_ns", builtin_time_time_ns);
    host_def(t, "time.perf_counter", builtin_time_perf_counter);
    host_def(t, "time.perf_counter_ns", builtin_time_perf_counter_ns);
    host_def(t, "time.monotonic", builtin_time_perf_counter);
    host_def(t, "time.sleep", builtin_time_sleep);
    host_register_module(h, "time", t);
}
