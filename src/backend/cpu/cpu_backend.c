/* cpu_backend.c - the CPU backend's table (cpu_backend.h): a launch is
 * exec_run on the run's thread pool.  Never makes a device copy of a
 * buffer (backend_arg.buffer is not looked at).  With TRITSIM_NO_FASTPATH=1
 * in the environment its launches take none of the executor's fast paths
 * (exec_launch.plain): for comparing the two, never faster. */
#include "cpu_backend.h"

#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "pool.h"

typedef struct cpu_dev {
    backend_dev base;
    int threads;            /* backend_config.threads */
    pool *pool;             /* made at the first launch */
    bool plain;             /* TRITSIM_NO_FASTPATH=1: no fast paths */
} cpu_dev;

typedef struct cpu_kernel {
    backend_kernel base;
    const ir_kernel *ir;
} cpu_kernel;

static bool cpu_available(strbuf *why)
{
    (void)why;
    return true;
}

static backend_dev *cpu_open(const backend_config *c, strbuf *why)
{
    (void)why;
    cpu_dev *d = xcalloc(1, sizeof *d);
    d->threads = c->threads;
    const char *plain = getenv("TRITSIM_NO_FASTPATH");
    d->plain = plain && !strcmp(plain, "1");
    return &d->base;
}

static void cpu_close(backend_dev *dev)
{
    cpu_dev *d = (cpu_dev *)dev;
    if (d->pool)
        pool_destroy(d->pool);
    free(d);
}

static backend_kernel *cpu_compile(backend_dev *dev, const ir_kernel *ir, const src_file *file,
                                   diag_sink *diag)
{
    (void)dev, (void)file, (void)diag;
    cpu_kernel *k = xcalloc(1, sizeof *k);
    k->ir = ir;
    return &k->base;
}

void cpu_backend_exec_launch(backend_dev *dev, const ir_kernel *ir, const backend_launch *L,
                             exec_launch *out)
{
    cpu_dev *d = (cpu_dev *)dev;
    if (!d->pool)
        d->pool = pool_create(d->threads);
    *out = (exec_launch){
        .kernel = ir, .file = L->file, .grid = {L->grid[0], L->grid[1], L->grid[2]},
        .rank = L->rank, .args = L->args, .pool = d->pool, .out = L->out, .diag = L->diag,
        .breaks = L->breaks == BACKEND_BREAK_IGNORE ? EXEC_BREAK_IGNORE : EXEC_BREAK_REPORT,
        .log = L->log, .racecheck = L->racecheck, .initcheck = L->initcheck,
        .plain = d->plain,
    };
}

static bool cpu_launch(backend_dev *dev, backend_kernel *kernel, const backend_launch *L)
{
    exec_launch E;
    cpu_backend_exec_launch(dev, ((cpu_kernel *)kernel)->ir, L, &E);
    return exec_run(&E);
}

/* Launches have ended when cpu_launch returns. */
static bool cpu_sync(backend_dev *dev, diag_sink *diag)
{
    (void)dev, (void)diag;
    return true;
}

static void cpu_free(backend_kernel *k)
{
    free(k);
}

const backend cpu_backend = {
    .name = "cpu",
    .host_addresses = true,
    .available = cpu_available,
    .open = cpu_open,
    .close = cpu_close,
    .compile = cpu_compile,
    .launch = cpu_launch,
    .sync = cpu_sync,
    .free = cpu_free,
};
