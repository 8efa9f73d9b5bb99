/* cpu_staged.c - the "cpu-staged" test backend (cpu_staged.h): each launch
 * runs on the CPU backend, but on copies of the buffers it is given, never
 * on the host bytes.  Like a GPU backend it
 *  - makes a buffer's copy (malloc'd, aligned as the host bytes are) the
 *    first time a launch uses it, uploading the host bytes;
 *  - uploads again before a launch when host_dirty is set;
 *  - passes the kernel the copy's addresses instead of the host's;
 *  - gives a kernel that makes pointers from integers the copies of the
 *    storages such pointers may reach (backend_launch.revealed), the CPU
 *    executor translating their tagged addresses (exec_launch.reloc);
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
 * so that the device-clock path of the timing wrappers is tested too.
 *
 * It has a GPU's deferred mode (backend.h: defer), so that `make check`
 * tests the callers' side of it: while it is on, a launch of a kernel
 * without prints or breakpoints runs with its output and its error
 * messages captured (memory streams) and returns true; its check waits,
 * as a GPU launch's would, until a sync point (sync, a download, a
 * timer's elapsed_ms, the mode turned off, or STAGED_RING launches
 * pending), where the first failed launch's captured output and messages
 * are written where they would have gone, and the sync point fails.
 *
 * With TRITSIM_STAGED_SMEM=N in the environment it also has a GPU's limit
 * on shared memory: a kernel whose CUDA code (cgen, num_warps 4) needs
 * more than N bytes per program fails to compile for want of resources,
 * as on a GPU with that much (backend_dev.out_of_resources), so that
 * `make check` tests how autotune skips such configs. */
#define _POSIX_C_SOURCE 200809L
#include "cpu_staged.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "addrmap.h"
#include "arena.h"
#include "cgen.h"
#include "cpu_backend.h"
#include "fault.h"

/* A failed launch of the deferred mode, waiting for the next sync point. */
typedef struct staged_failure {
    FILE *out;              /* where its programs' output would have gone */
    char *out_text;         /* ... and what it was */
    size_t out_len;
    diag_sink *diag;        /* where its errors would have gone */
    char *diag_text;
    size_t diag_len;
    int nerrors;
} staged_failure;

enum { STAGED_RING = 64 };

typedef struct staged_dev {
    backend_dev base;
    backend_dev *cpu;       /* the CPU backend's state, which runs everything */
    bool deferred;          /* the deferred mode is on */
    int npending;           /* launches run but not yet checked */
    staged_failure failed;  /* the first of them that failed (diag NULL: none) */
} staged_dev;

typedef struct staged_kernel {
    backend_kernel base;
    backend_kernel *cpu;
    const ir_kernel *ir;
    int32_t nparams;        /* the IR's runtime arguments: the launch's args */
    bool prints;            /* it has a PRINT or a BREAKPOINT: never deferred */
} staged_kernel;

struct backend_timer {
    double ms;              /* the host clock when recorded */
};

enum { STAGED_ALIGN = 64, STAGED_POISON = 0xA5 };

/* The deferred mode's check of the pending launches (a sync point):
 * false after writing out the first failed one's output and messages. */
static bool staged_check(staged_dev *d)
{
    staged_failure *f = &d->failed;
    d->npending = 0;
    if (!f->diag)
        return true;
    fwrite(f->out_text, 1, f->out_len, f->out);
    fflush(f->out);
    fwrite(f->diag_text, 1, f->diag_len, f->diag->out);
    f->diag->nerrors += f->nerrors;
    free(f->out_text);
    free(f->diag_text);
    *f = (staged_failure){0};
    return false;
}

/* The device that owns the copies: one run has one (downloads reach it
 * through the buffer, which does not say). */
static staged_dev *staged_current;

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
    staged_current = d;
    return &d->base;
}

static void staged_close(backend_dev *dev)
{
    staged_dev *d = (staged_dev *)dev;
    staged_check(d);
    if (staged_current == d)
        staged_current = NULL;
    backend_close(d->cpu);
    free(d);
}

/* TRITSIM_STAGED_SMEM's limit: false after reporting a kernel that needs
 * more shared memory, as the CUDA backend words it. */
static bool staged_fits(staged_dev *d, const ir_kernel *ir, const src_file *file,
                        diag_sink *diag)
{
    const char *env = getenv("TRITSIM_STAGED_SMEM");
    if (!env || !*env)
        return true;
    cgen_options o = {.target = {.dialect = CGEN_CUDA, .warp_size = 32, .arch = 90},
                      .num_warps = 4, .num_stages = 3, .checked = true,
                      .max_smem = (size_t)strtoull(env, NULL, 10)};
    strbuf src = {0};
    cgen_info info;
    cgen_fault f;
    bool ok = cgen_emit(ir, &o, &src, &info, &f) || !f.resources;
    strbuf_free(&src);
    if (!ok) {
        char msg[320];
        snprintf(msg, sizeof msg, "the cpu-staged backend cannot run this kernel: %s", f.why);
        backend_report_at(diag, ir, file, ir->ncode > 0 ? &ir->code[0] : NULL, msg, NULL);
        d->base.out_of_resources = true;
    }
    return ok;
}

static backend_kernel *staged_compile(backend_dev *dev, const ir_kernel *ir,
                                      const src_file *file, diag_sink *diag)
{
    staged_dev *d = (staged_dev *)dev;
    if (!staged_fits(d, ir, file, diag))
        return NULL;
    backend_kernel *cpu = backend_compile(d->cpu, ir, file, diag);
    if (!cpu)
        return NULL;
    staged_kernel *k = xcalloc(1, sizeof *k);
    k->cpu = cpu;
    k->ir = ir;
    k->nparams = ir->nparams;
    for (int32_t pc = 0; pc < ir->ncode; pc++)
        if (ir->code[pc].op == IR_PRINT || ir->code[pc].op == IR_BREAKPOINT)
            k->prints = true;
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
    if (staged_current && staged_current->npending && !staged_check(staged_current)) {
        strbuf_puts(why, "a kernel launched before it failed (reported above)");
        return false;
    }
    memcpy(b->host, b->copy, b->size);
    b->dev_dirty = false;
    return true;
}

/* Report a buffer whose host and device sides both changed. */
static void staged_hole(const backend_launch *L, const char *what)
{
    fflush(L->out);
    fprintf(stderr, "tritsim: cpu-staged: the host and the device copy of %s have both "
            "changed since they last agreed (a hole in the coherence protocol)\n", what);
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

/* Run S on the CPU executor, the storages that pointers made from
 * integers reach at their copies (reloc, nreloc of them). */
static bool staged_exec(staged_dev *d, staged_kernel *k, const backend_launch *S,
                        const exec_reloc *reloc, int nreloc)
{
    exec_launch E;
    cpu_backend_exec_launch(d->cpu, k->ir, S, &E);
    E.reloc = reloc;
    E.nreloc = nreloc;
    return exec_run(&E);
}

static int staged_reloc_cmp(const void *a, const void *b)
{
    int x = ((const exec_reloc *)a)->tag, y = ((const exec_reloc *)b)->tag;
    return (x > y) - (x < y);
}

/* Run S now with its output and messages captured, the first failure kept
 * for the check; true unless the pending launches had to be checked
 * first (the ring is full) and one had failed. */
static bool staged_run_deferred(staged_dev *d, staged_kernel *k, const backend_launch *S,
                                const exec_reloc *reloc, int nreloc)
{
    if (d->npending == STAGED_RING && !staged_check(d))
        return false;
    staged_failure f = {.out = S->out, .diag = S->diag};
    diag_sink sink = *S->diag;
    sink.nerrors = 0;
    FILE *out = open_memstream(&f.out_text, &f.out_len);
    sink.out = open_memstream(&f.diag_text, &f.diag_len);
    if (!out || !sink.out)
        abort();
    backend_launch C = *S;
    C.out = out;
    C.diag = &sink;
    bool ok = staged_exec(d, k, &C, reloc, nreloc);
    fclose(out);
    fclose(sink.out);
    f.nerrors = sink.nerrors;
    d->npending++;
    if (!ok && !d->failed.diag) {
        d->failed = f;
    } else {
        free(f.out_text);
        free(f.diag_text);
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
            char what[160];
            snprintf(what, sizeof what, "argument '%s'", args[i].name ? args[i].name : "?");
            staged_hole(L, what);
            free(args);
            return false;
        }
        args[i].value.u = args[i].value.u - (uint64_t)(uintptr_t)b->host +
                          (uint64_t)(uintptr_t)b->copy;
    }
    /* the storages pointers made from integers may reach, at their copies,
     * as a GPU backend's table gives them (cgen_abi.h: tk_amap) */
    exec_reloc *reloc = xcalloc((size_t)L->nrevealed + 1, sizeof *reloc);
    for (int i = 0; i < L->nrevealed; i++) {
        backend_buffer *b = L->revealed[i];
        if (!staged_upload(b)) {
            staged_hole(L, "a tensor whose data_ptr() the program took");
            free(args);
            free(reloc);
            return false;
        }
        reloc[i].tag = addrmap_find((uint64_t)(uintptr_t)b->host);
        reloc[i].delta = (int64_t)((uint64_t)(uintptr_t)b->copy - (uint64_t)(uintptr_t)b->host);
    }
    qsort(reloc, (size_t)L->nrevealed, sizeof *reloc, staged_reloc_cmp);
    backend_launch S = *L;
    S.args = args;
    bool ok;
    if (d->deferred && !k->prints) {
        ok = staged_run_deferred(d, k, &S, reloc, L->nrevealed);
    } else {
        ok = staged_check(d) && staged_exec(d, k, &S, reloc, L->nrevealed);
    }
    for (int32_t i = 0; i < k->nparams + L->nrevealed; i++) {
        backend_buffer *b = i < k->nparams ? args[i].buffer : L->revealed[i - k->nparams];
        if (b && !b->dev_dirty) {
            b->dev_dirty = true;
            memset(b->host, STAGED_POISON, b->size);
        }
    }
    free(args);
    free(reloc);
    return ok;
}

static bool staged_sync(backend_dev *dev, diag_sink *diag)
{
    return staged_check((staged_dev *)dev) && backend_sync(((staged_dev *)dev)->cpu, diag);
}

static bool staged_defer(backend_dev *dev, bool on, diag_sink *diag)
{
    (void)diag;
    staged_dev *d = (staged_dev *)dev;
    d->deferred = on;
    return on || staged_check(d);
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
    (void)why;
    if (!staged_check((staged_dev *)d))
        return false;       /* reported; why stays empty, as backend.h asks */
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
    .defer = staged_defer,
    .timer_new = staged_timer_new,
    .timer_record = staged_timer_record,
    .timer_elapsed_ms = staged_timer_elapsed_ms,
    .timer_free = staged_timer_free,
};
