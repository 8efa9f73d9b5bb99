/* sysmod.c - the sys module (exit, argv, stdout, stderr, version_info,
 * ...) and the time module (time, perf_counter, monotonic, the _ns forms,
 * sleep). */
#define _DEFAULT_SOURCE   /* clock_gettime, nanosleep */
#include "builtins_impl.h"

#include <math.h>
#include <stdio.h>
#include <time.h>

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
    val vi[3] = {val_int(3), val_int(11), val_int(0)};
    val_object_set(sys, "version_info", val_tuple_of(3, vi));
    val_object_set(sys, "version", val_str_cstr("3.11.0 (tritsim)"));
    host_register_module(h, "sys", sys);
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
