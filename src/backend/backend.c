/* backend.c - the registry of backends (one static table: the executors
 * of this build, and the names reserved for those still to come, and the
 * test-only ones behind TRITSIM_TEST_BACKENDS), the calls through a
 * backend's table, and timing stamps on the device's or the host's clock
 * (backend.h). */
#define _POSIX_C_SOURCE 200809L
#include "backend.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "arena.h"
#include "cpu_backend.h"
#include "cpu_staged.h"
#include "cuda_backend.h"
#include "hip_backend.h"

/* Every name --backend accepts.  A row without a table is a backend this
 * build does not have; missing says so, for backend_select's message. */
static const struct backend_entry {
    const char *name;
    const backend *be;      /* NULL: not built */
    const char *missing;
} backend_table[] = {
    {"cpu", &cpu_backend, NULL},
    {"cuda", &cuda_backend, NULL},
    {"hip", &hip_backend, NULL},
};

/* Backends for tests only (backend.h), known when TRITSIM_TEST_BACKENDS=1. */
static const struct backend_entry backend_test_table[] = {
    {"cpu-staged", &cpu_staged_backend, NULL},
};

static const struct backend_entry *backend_entry_of(const char *name)
{
    for (size_t i = 0; i < sizeof backend_table / sizeof *backend_table; i++)
        if (!strcmp(backend_table[i].name, name))
            return &backend_table[i];
    const char *test = getenv("TRITSIM_TEST_BACKENDS");
    if (test && !strcmp(test, "1"))
        for (size_t i = 0; i < sizeof backend_test_table / sizeof *backend_test_table; i++)
            if (!strcmp(backend_test_table[i].name, name))
                return &backend_test_table[i];
    return NULL;
}

/* extern_libs={'libdevice': path}: Triton links that bitcode for the
 * libdevice functions; tritsim has its own (spec_libdevice.c), so the
 * dict is checked but its paths are never opened.  launch_pdl=True asks
 * the GPU for programmatic dependent launch (a kernel may start before
 * the previous one ends, tl.extra.cuda.gdc_wait waiting for it): launches
 * here run one after the other, which that allows, so it changes nothing. */
static const char *const backend_launch_options[] = {
    "num_warps", "num_stages", "num_ctas", "maxnreg", "enable_fp_fusion",
    "waves_per_eu", "matrix_instr_nonkdim", "kpack", "debug", "extern_libs", "launch_pdl",
    NULL,
};

bool backend_is_launch_option(const char *name)
{
    for (int i = 0; backend_launch_options[i]; i++)
        if (!strcmp(backend_launch_options[i], name))
            return true;
    return false;
}

void backend_buffer_over(backend_buffer *b, void *host, size_t size, bool on_device)
{
    memset(b, 0, sizeof *b);
    b->host = host;
    b->size = size;
    b->on_device = on_device;
    b->host_dirty = !on_device;
}

bool backend_buffer_end(backend_buffer *b, bool fetch, strbuf *why)
{
    bool ok = !(fetch && b->dev_dirty && b->download && !b->download(b, why));
    if (b->release)
        b->release(b);
    memset(b, 0, sizeof *b);
    return ok;
}

const backend *backend_find(const char *name)
{
    const struct backend_entry *e = backend_entry_of(name);
    return e ? e->be : NULL;
}

backend_status backend_select(const char *name, const backend **out, strbuf *why)
{
    *out = NULL;
    const struct backend_entry *e = backend_entry_of(name);
    if (!e)
        return BACKEND_UNKNOWN;
    if (!e->be) {
        strbuf_puts(why, e->missing);
        return BACKEND_UNAVAILABLE;
    }
    if (!e->be->available(why))
        return BACKEND_UNAVAILABLE;
    *out = e->be;
    return BACKEND_OK;
}

/* ---- calls through the table ------------------------------------------------- */

/* The devices open now, each with the serial number it was opened with, so
 * that a stamp can tell whether the device it was made on is still open
 * (a new one may come at the same address).  Runs open one or two. */
enum { BACKEND_MAX_OPEN = 16 };
static struct {
    backend_dev *d;
    unsigned long serial;
} backend_open_devs[BACKEND_MAX_OPEN];
static unsigned long backend_serial;

static unsigned long backend_serial_of(const backend_dev *d)
{
    for (int i = 0; i < BACKEND_MAX_OPEN; i++)
        if (backend_open_devs[i].d == d)
            return backend_open_devs[i].serial;
    return 0;
}

backend_dev *backend_open(const backend *be, const backend_config *c, strbuf *why)
{
    backend_dev *d = be->open(c, why);
    if (!d)
        return NULL;
    d->be = be;
    for (int i = 0; i < BACKEND_MAX_OPEN; i++)
        if (!backend_open_devs[i].d) {
            backend_open_devs[i].d = d;
            backend_open_devs[i].serial = ++backend_serial;
            break;
        }
    return d;
}

void backend_close(backend_dev *d)
{
    if (!d)
        return;
    for (int i = 0; i < BACKEND_MAX_OPEN; i++)
        if (backend_open_devs[i].d == d)
            backend_open_devs[i].d = NULL;
    d->be->close(d);
}

backend_kernel *backend_compile(backend_dev *d, const ir_kernel *ir, const src_file *file,
                                diag_sink *diag)
{
    d->out_of_resources = false;
    backend_kernel *k = d->be->compile(d, ir, file, diag);
    if (k)
        k->be = d->be;
    return k;
}

bool backend_run(backend_dev *d, backend_kernel *k, const backend_launch *L)
{
    d->out_of_resources = false;
    return d->be->launch(d, k, L);
}

bool backend_sync(backend_dev *d, diag_sink *diag)
{
    return d->be->sync(d, diag);
}

void backend_free(backend_kernel *k)
{
    if (k)
        k->be->free(k);
}

bool backend_defer(backend_dev *d, bool on, diag_sink *diag)
{
    if (!d || !d->be->defer)
        return true;
    if (on)
        return d->defer_depth++ > 0 || d->be->defer(d, true, diag);
    if (d->defer_depth == 0)
        return true;
    return --d->defer_depth > 0 || d->be->defer(d, false, diag);
}

bool backend_clear_cache(backend_dev *d, strbuf *why)
{
    return !d || !d->be->clear_cache || d->be->clear_cache(d, why);
}

/* ---- timing ------------------------------------------------------------------ */

struct backend_stamp {
    backend_dev *d;             /* the device of timer, or NULL: the host clock */
    unsigned long serial;       /* d's serial number when the stamp was made */
    backend_timer *timer;       /* d's timer, or NULL */
    const backend *be;          /* d's backend, which frees timer */
    bool recorded;
    double host_ms;             /* the host clock's reading when recorded */
};

static double backend_host_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

backend_stamp *backend_timer_new(backend_dev *d)
{
    backend_stamp *s = xcalloc(1, sizeof *s);
    if (d && d->be->timer_new) {
        strbuf why = {0};
        s->timer = d->be->timer_new(d, &why);
        strbuf_free(&why);         /* no timer: the host's clock */
        if (s->timer) {
            s->d = d;
            s->be = d->be;
            s->serial = backend_serial_of(d);
        }
    }
    return s;
}

/* Whether s's device is still open (its timer still exists). */
static bool backend_stamp_alive(const backend_stamp *s)
{
    return s->serial && backend_serial_of(s->d) == s->serial;
}

bool backend_timer_record(backend_stamp *s, diag_sink *diag, strbuf *why)
{
    (void)diag;     /* failures are reported by the caller, from why */
    if (s->timer) {
        if (!backend_stamp_alive(s)) {
            strbuf_puts(why, "its backend has been closed");
            return false;
        }
        if (!s->d->be->timer_record(s->d, s->timer, why))
            return false;
    }
    s->host_ms = backend_host_ms();
    s->recorded = true;
    return true;
}

bool backend_timer_recorded(const backend_stamp *s)
{
    return s->recorded;
}

bool backend_timer_elapsed_ms(backend_stamp *start, backend_stamp *end, double *ms,
                              diag_sink *diag, strbuf *why)
{
    (void)diag;
    *ms = 0;
    if (!start->recorded || !end->recorded) {
        strbuf_puts(why, "both must be recorded first");
        return false;
    }
    if (start->timer && end->timer && start->d == end->d && start->serial == end->serial) {
        if (!backend_stamp_alive(start)) {
            strbuf_puts(why, "their backend has been closed");
            return false;
        }
        return start->d->be->timer_elapsed_ms(start->d, start->timer, end->timer, ms, why);
    }
    if (start->timer || end->timer) {
        strbuf_puts(why, "one was made before kernels ran on the device, the other after");
        return false;
    }
    *ms = end->host_ms - start->host_ms;
    return true;
}

void backend_timer_free(backend_stamp *s)
{
    if (!s)
        return;
    if (s->timer)
        s->be->timer_free(s->timer);     /* works after close too */
    free(s);
}
