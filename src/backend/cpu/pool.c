/* pool.c - persistent worker threads that share out the items of a job
 * through an atomic counter (pool.h).  A job is published by bumping a
 * generation count.  Between jobs a worker first spins on that count for
 * a short while (POOL_SPIN_NS), so that launches made one after another
 * (a timing loop, autotuning, a kernel called per layer) find it awake,
 * then sleeps on a condition variable (at once when there are more
 * threads than cores); the caller waits for the job's end the same way.
 * Items are taken a few at a time (chunk: about 64 chunks per worker, at
 * most 32 items each), so that small items do not spend their time
 * bouncing the counter's cache line between cores; the lowest failed item
 * is kept so that every item below it still runs. */
#define _POSIX_C_SOURCE 200809L
#include "pool.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "arena.h"

/* How long a worker spins for the next job, and the caller for the end
 * of one, before sleeping. */
enum { POOL_SPIN_NS = 200 * 1000 };

typedef struct pool_worker {
    pool *p;
    int index;
    pthread_t thread;
} pool_worker;

struct pool {
    int nworkers;              /* threads besides the caller */
    pool_worker *workers;

    pthread_mutex_t lock;
    pthread_cond_t wake;       /* a job was published, or shutdown */
    pthread_cond_t done;       /* the last worker finished its share */
    atomic_uint_fast64_t generation;  /* bumped for each job */
    atomic_int active;         /* workers still inside the current job */
    atomic_bool shutdown;
    bool spin;                 /* no more threads than cores: spin first */

    /* the current job */
    pool_fn fn;
    void *ctx;
    int64_t n;
    int64_t chunk;             /* items taken at once */
    atomic_int_fast64_t next;  /* next item to take */
    atomic_int_fast64_t failed_at; /* lowest item whose fn failed; n: none */
};

int pool_default_threads(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

/* Note that item failed (keeping the lowest). */
static void pool_fail(pool *p, int64_t item)
{
    int_fast64_t cur = atomic_load(&p->failed_at);
    while (item < cur && !atomic_compare_exchange_weak(&p->failed_at, &cur, item))
        ;
}

/* Take chunks of items until none are left or an item has failed; within
 * a chunk, run the items below the lowest failure. */
static void pool_work(pool *p, int worker)
{
    while (atomic_load_explicit(&p->failed_at, memory_order_relaxed) == p->n) {
        int64_t first = atomic_fetch_add_explicit(&p->next, p->chunk, memory_order_relaxed);
        if (first >= p->n)
            break;
        int64_t end = first + p->chunk < p->n ? first + p->chunk : p->n;
        for (int64_t item = first; item < end; item++) {
            if (item > atomic_load_explicit(&p->failed_at, memory_order_relaxed))
                break;
            if (!p->fn(p->ctx, item, worker))
                pool_fail(p, item);
        }
    }
}

static int64_t pool_now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static inline void pool_pause(void)
{
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
    __builtin_ia32_pause();
#endif
}

/* Spin until ready(p, arg) or POOL_SPIN_NS have passed; true if ready.
 * With more threads than cores a spinning thread would take the core of
 * one with work to do, so then it only checks once. */
static bool pool_spin(pool *p, bool (*ready)(pool *, uint64_t), uint64_t arg)
{
    if (!p->spin)
        return ready(p, arg);
    int64_t until = pool_now_ns() + POOL_SPIN_NS;
    for (int i = 1;; i++) {
        if (ready(p, arg))
            return true;
        pool_pause();
        if (i % 64 == 0 && pool_now_ns() > until)
            return false;
    }
}

static bool pool_job_after(pool *p, uint64_t seen)
{
    return atomic_load_explicit(&p->generation, memory_order_acquire) != seen ||
           atomic_load_explicit(&p->shutdown, memory_order_acquire);
}

static bool pool_job_done(pool *p, uint64_t unused)
{
    (void)unused;
    return atomic_load_explicit(&p->active, memory_order_acquire) == 0;
}

static void *pool_thread(void *arg)
{
    pool_worker *w = arg;
    pool *p = w->p;
    uint64_t seen = 0;
    for (;;) {
        if (!pool_spin(p, pool_job_after, seen)) {
            pthread_mutex_lock(&p->lock);
            while (!pool_job_after(p, seen))
                pthread_cond_wait(&p->wake, &p->lock);
            pthread_mutex_unlock(&p->lock);
        }
        if (atomic_load_explicit(&p->shutdown, memory_order_acquire))
            break;
        seen = atomic_load_explicit(&p->generation, memory_order_acquire);
        pool_work(p, w->index);
        if (atomic_fetch_sub_explicit(&p->active, 1, memory_order_acq_rel) == 1) {
            pthread_mutex_lock(&p->lock);     /* the caller may be asleep */
            pthread_cond_signal(&p->done);
            pthread_mutex_unlock(&p->lock);
        }
    }
    return NULL;
}

pool *pool_create(int nthreads)
{
    if (nthreads <= 0)
        nthreads = pool_default_threads();
    pool *p = xcalloc(1, sizeof *p);
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->wake, NULL);
    pthread_cond_init(&p->done, NULL);
    p->workers = xcalloc((size_t)nthreads, sizeof *p->workers);
    p->spin = nthreads <= pool_default_threads();
    /* Worker 0 is the calling thread; start the others.  If the system
     * refuses a thread, run with the ones we have. */
    for (int i = 1; i < nthreads; i++) {
        pool_worker *w = &p->workers[p->nworkers];
        w->p = p;
        w->index = i;
        if (pthread_create(&w->thread, NULL, pool_thread, w) != 0)
            break;
        p->nworkers++;
    }
    return p;
}

void pool_destroy(pool *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->lock);
    atomic_store_explicit(&p->shutdown, true, memory_order_release);
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);
    for (int i = 0; i < p->nworkers; i++)
        pthread_join(p->workers[i].thread, NULL);
    pthread_cond_destroy(&p->done);
    pthread_cond_destroy(&p->wake);
    pthread_mutex_destroy(&p->lock);
    free(p->workers);
    free(p);
}

int pool_size(const pool *p)
{
    return p->nworkers + 1;
}

bool pool_run(pool *p, int64_t n, pool_fn fn, void *ctx)
{
    p->fn = fn;
    p->ctx = ctx;
    p->n = n;
    p->chunk = n / ((int64_t)pool_size(p) * 64);
    p->chunk = p->chunk < 1 ? 1 : p->chunk > 32 ? 32 : p->chunk;
    atomic_store(&p->next, 0);
    atomic_store(&p->failed_at, n);
    /* Small jobs are not worth waking anyone for. */
    bool spread = p->nworkers > 0 && n > 1;
    if (spread) {
        /* the job's fields above are published by the generation's
         * release; a sleeping worker re-checks it under the lock */
        atomic_store_explicit(&p->active, p->nworkers, memory_order_relaxed);
        pthread_mutex_lock(&p->lock);
        atomic_fetch_add_explicit(&p->generation, 1, memory_order_release);
        pthread_cond_broadcast(&p->wake);
        pthread_mutex_unlock(&p->lock);
    }
    pool_work(p, 0);
    if (spread && !pool_spin(p, pool_job_done, 0)) {
        pthread_mutex_lock(&p->lock);
        while (!pool_job_done(p, 0))
            pthread_cond_wait(&p->done, &p->lock);
        pthread_mutex_unlock(&p->lock);
    }
    return atomic_load(&p->failed_at) == n;
}
