/* cpu_staged.c - the "cpu-staged" test backend (cpu_staged.h): each launch
 * runs on the CPU backend, but on copies of the buffers it is given, never
 * on the host bytes.  Like a GPU backend it
 *  - makes a buffer's copy (malloc'd, aligned as the host bytes are) the
 *    first time a launch uses it, uploading the host bytes;
 *  - uploads again before a launch when host_dirty is set;
 *  - passes the kernel the copy's addresses instead of the host's;
 *  - sets dev_dirty on every buffer of a launch after it;
 *  - downloads (download hook) when the host side asks.
 * To make a hole in the protocol show, it also spoils the host bytes of
 * every buffer it marks dev_dirty (they are stale then): host code that
 * reads them without downloading reads garbage, and a host write made
 * without tensor_host_write is overwritten by the next download.  It
 * refuses a launch whose buffer has both flags set (host and device both
 * changed: one of the writes is lost).
 *
 * Its timer API reads the host clock (launches end before launch returns),
 * so that the device-clock path of the timing wrappers is tested too. */
#define _POSIX_C_SOURCE 200809L
#include "cpu_staged.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "arena.h"
#include "cpu_backend.h"

typedef struct staged_dev {
    backend_dev base;
    backend_dev *cpu;       /* the CPU backend's state, which runs everything */
} staged_dev;

typedef struct staged_kernel {
    backend_kernel base;
    backend_kernel *cpu;
    int32_t nparams;        /* the IR's runtime arguments: the launch's args */
} staged_kernel;

struct backend_timer {
    double ms;              /* the host clock when recorded */
};

enum { STAGED_ALIGN = 64, STAGED_POISON = 0xA5 };

static bool staged_available(strbuf *why)
{
    (void)why;
    return true;
}

static backend_dev *staged_open(const backend_config *c, strbuf *why)
{
    backend_dev *cpu = backend_open(&cpu_backend, c, why);
    if (!cpu)
        return NULL;
    staged_dev *d = xcalloc(1, sizeof *d);
    d->cpu = cpu;
    return &d->base;
}

static void staged_close(backend_dev *dev)
{
    staged_dev *d = (staged_dev *)dev;
    backend_close(d->cpu);
    free(d);
}

static backend_kernel *staged_compile(backend_dev *dev, const ir_kernel *ir,
                                      const src_file *file, diag_sink *diag)
{
    staged_dev *d = (staged_dev *)dev;
    backend_kernel *cpu = backend_compile(d->cpu, ir, file, diag);
    if (!cpu)
        return NULL;
    staged_kernel *k = xcalloc(1, sizeof *k);
    k->cpu = cpu;
    k->nparams = ir->nparams;
    return &k->base;
}

/* ---- the copies ---------------------------------------------------------- */

static void staged_release(backend_buffer *b)
{
    free(b->copy);
    b->copy = NULL;
    b->release = NULL;
    b->download = NULL;
    b->host_dirty = b->dev_dirty = false;
}

static bool staged_download(backend_buffer *b, strbuf *why)
{
    (void)why;
    memcpy(b->host, b->copy, b->size);
    b->dev_dirty = false;
    return true;
}

/* b's copy, made (and uploaded) now or brought up to date; false when both
 * sides changed. */
static bool staged_upload(backend_buffer *b)
{
    if (b->host_dirty && b->dev_dirty)
        return false;
    if (!b->copy) {
        size_t n = (b->size + STAGED_ALIGN - 1) / STAGED_ALIGN * STAGED_ALIGN;
        b->copy = aligned_alloc(STAGED_ALIGN, n ? n : STAGED_ALIGN);
        if (!b->copy)
            abort();
        b->release = staged_release;
        b->download = staged_download;
        b->host_dirty = true;
    }
    if (b->host_dirty) {
        memcpy(b->copy, b->host, b->size);
        b->host_dirty = false;
    }
    return true;
}

static bool staged_launch(backend_dev *dev, backend_kernel *kernel, const backend_launch *L)
{
    staged_dev *d = (staged_dev *)dev;
    staged_kernel *k = (staged_kernel *)kernel;
    backend_arg *args = xcalloc((size_t)k->nparams + 1, sizeof *args);
    for (int32_t i = 0; i < k->nparams; i++) {
        args[i] = L->args[i];
        backend_buffer *b = args[i].buffer;
        if (!b)
            continue;
        if (!staged_upload(b)) {
            fflush(L->out);
            fprintf(stderr, "tritsim: cpu-staged: the host and the device copy of argument "
                    "'%s' have both changed since they last agreed (a hole in the coherence "
                    "protocol)\n", args[i].name ? args[i].name : "?");
            free(args);
            return false;
        }
        args[i].value.u = args[i].value.u - (uint64_t)(uintptr_t)b->host +
                          (uint64_t)(uintptr_t)b->copy;
    }
    backend_launch S = *L;
    S.args = args;
    bool ok = backend_run(d->cpu, k->cpu, &S);
    for (int32_t i = 0; i < k->nparams; i++) {
        backend_buffer *b = args[i].buffer;
        if (b && !b->dev_dirty) {
            b->dev_dirty = true;
            memset(b->host, STAGED_POISON, b->size);
        }
    }
    free(args);
    return ok;
}

static bool staged_sync(backend_dev *dev, diag_sink *diag)
{
    return backend_sync(((staged_dev *)dev)->cpu, diag);
}

static void staged_free(backend_kernel *kernel)
{
    staged_kernel *k = (staged_kernel *)kernel;
    backend_free(k->cpu);
    free(k);
}

/* ---- timers: the host clock ------------------------------------------------ */

static backend_timer *staged_timer_new(backend_dev *d, strbuf *why)
{
    (void)d, (void)why;
    return xcalloc(1, sizeof(backend_timer));
}

static bool staged_timer_record(backend_dev *d, backend_timer *t, strbuf *why)
{
    (void)d, (void)why;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    t->ms = (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
    return true;
}

static bool staged_timer_elapsed_ms(backend_dev *d, backend_timer *start, backend_timer *end,
                                    double *ms, strbuf *why)
{
    (void)d, (void)why;
    *ms = end->ms - start->ms;
    return true;
}

static void staged_timer_free(backend_timer *t)
{
    free(t);
}

const backend cpu_staged_backend = {
    .name = "cpu-staged",
    .available = staged_available,
    .open = staged_open,
    .close = staged_close,
    .compile = staged_compile,
    .launch = staged_launch,
    .sync = staged_sync,
    .free = staged_free,
    .timer_new = staged_timer_new,
    .timer_record = staged_timer_record,
    .timer_elapsed_ms = staged_timer_elapsed_ms,
    .timer_free = staged_timer_free,
};
