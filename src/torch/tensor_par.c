/* tensor_par.c - the threads of host tensor loops (tensor_par.h): one
 * pool of workers (pool.h) made on first use, and the cutting of a walk's
 * runs into segments of about equal size for it. */
#include "tensor_par.h"

#include <pthread.h>
#include <stdlib.h>

#include "pool.h"

static int par_threads = -1;        /* -1: not chosen yet (the default) */
static pool *par_pool;
static pthread_mutex_t par_lock = PTHREAD_MUTEX_INITIALIZER;
static _Thread_local bool par_inside;   /* inside a job: no nesting */

/* The machine's online cores, or TRITSIM_HOST_THREADS when set to a
 * number (0: the plain paths), at most TENSOR_PAR_MAX. */
static int par_default(void)
{
    const char *env = getenv("TRITSIM_HOST_THREADS");
    char *end;
    long v = env && *env ? strtol(env, &end, 10) : -1;
    int n = env && *env && !*end && v >= 0 ? (int)(v < TENSOR_PAR_MAX ? v : TENSOR_PAR_MAX)
                                          : pool_default_threads();
    return n < TENSOR_PAR_MAX ? n : TENSOR_PAR_MAX;
}

void tensor_par_set_threads(int n)
{
    pthread_mutex_lock(&par_lock);
    par_threads = n < 0 ? par_default() : n > TENSOR_PAR_MAX ? TENSOR_PAR_MAX : n;
    if (par_pool && pool_size(par_pool) != (par_threads ? par_threads : 1)) {
        pool_destroy(par_pool);
        par_pool = NULL;
    }
    pthread_mutex_unlock(&par_lock);
}

int tensor_par_threads(void)
{
    if (par_threads < 0)
        tensor_par_set_threads(-1);
    return par_threads;
}

typedef struct par_job {
    tensor_par_fn fn;
    void *ctx;
} par_job;

static bool par_item(void *ctx, int64_t item, int worker)
{
    (void)worker;
    const par_job *j = ctx;
    bool was = par_inside;
    par_inside = true;
    j->fn(j->ctx, item);
    par_inside = was;
    return true;
}

void tensor_par_for(int64_t n, tensor_par_fn fn, void *ctx)
{
    int threads = tensor_par_threads();
    if (n <= 1 || threads <= 1 || par_inside) {
        for (int64_t i = 0; i < n; i++)
            fn(ctx, i);
        return;
    }
    pthread_mutex_lock(&par_lock);
    if (!par_pool)
        par_pool = pool_create(threads);
    pool *p = par_pool;
    pthread_mutex_unlock(&par_lock);
    par_job j = {fn, ctx};
    par_inside = true;
    pool_run(p, n, par_item, &j);
    par_inside = false;
}

/* Put a copy of it at the start of run r. */
static void par_seek(tensor_iter *it, int64_t r)
{
    for (int k = 0; k < it->nops; k++)
        it->off[k] = 0;
    for (int i = it->ndim - 1; i >= 0; i--) {
        int64_t idx = it->shape[i] ? r % it->shape[i] : 0;
        r = it->shape[i] ? r / it->shape[i] : 0;
        it->index[i] = idx;
        for (int k = 0; k < it->nops; k++)
            it->off[k] += idx * it->step[k][i];
    }
}

void tensor_par_range(const tensor_iter *it, int64_t len, const int64_t *step, int64_t lo,
                      int64_t hi, tensor_seg_fn fn, void *ctx)
{
    if (lo >= hi || len <= 0)
        return;
    tensor_iter w = *it;
    int64_t r = lo / len, at = lo % len;
    par_seek(&w, r);
    unsigned char *ptr[TENSOR_ITER_OPS];
    for (int64_t pos = lo; pos < hi; r++, at = 0, tensor_iter_next(&w)) {
        int64_t n = len - at < hi - pos ? len - at : hi - pos;
        for (int k = 0; k < w.nops; k++)
            ptr[k] = tensor_iter_ptr(&w, k) + at * step[k];
        fn(ctx, ptr, step, pos, n);
        pos += n;
    }
}

typedef struct seg_job {
    const tensor_iter *it;
    int64_t len, total, piece;
    const int64_t *step;
    tensor_seg_fn fn;
    void *ctx;
} seg_job;

static void seg_item(void *ctx, int64_t item)
{
    const seg_job *j = ctx;
    int64_t lo = item * j->piece, hi = lo + j->piece < j->total ? lo + j->piece : j->total;
    tensor_par_range(j->it, j->len, j->step, lo, hi, j->fn, j->ctx);
}

void tensor_par_segments(const tensor_iter *it, int64_t len, const int64_t *step,
                         tensor_seg_fn fn, void *ctx)
{
    int64_t total = it->numel * len;
    int threads = tensor_par_threads();
    if (total < TENSOR_PAR_MIN || threads <= 1) {
        tensor_par_range(it, len, step, 0, total, fn, ctx);
        return;
    }
    /* a few pieces per thread, so that a thread slowed by the machine's
     * other work does not hold up the rest; at least TENSOR_PAR_MIN / 2
     * elements each */
    int64_t piece = total / ((int64_t)threads * 4);
    if (piece < TENSOR_PAR_MIN / 2)
        piece = TENSOR_PAR_MIN / 2;
    piece = (piece + 63) / 64 * 64;
    seg_job j = {it, len, total, piece, step, fn, ctx};
    tensor_par_for((total + piece - 1) / piece, seg_item, &j);
}
