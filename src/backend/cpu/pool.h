/* pool.h - the thread pool that runs the programs of a launch.
 *
 * pool_run calls fn(ctx, item, worker) for every item in [0, n), spread over
 * the pool's workers; items are taken from an atomic counter in small runs
 * of consecutive items (each worker runs its run in order), so a slow
 * program never holds up the others for long.  The calling thread works too
 * (it is worker 0), so a pool of 1 runs everything in the caller, in order.
 * Each worker has a stable index in [0, pool_size) for per-worker scratch.
 *
 * fn returns false to stop the launch: every item below the lowest one
 * that failed still runs, items above it that have not started are
 * skipped, items already running finish.  pool_run returns false if any fn
 * did. */
#ifndef TRITSIM_POOL_H
#define TRITSIM_POOL_H

#include <stdbool.h>
#include <stdint.h>

typedef struct pool pool;

typedef bool (*pool_fn)(void *ctx, int64_t item, int worker);

/* nthreads <= 0 means one per online core. */
pool *pool_create(int nthreads);
void pool_destroy(pool *p);
int pool_size(const pool *p);

bool pool_run(pool *p, int64_t n, pool_fn fn, void *ctx);

/* Number of online cores (at least 1). */
int pool_default_threads(void);

#endif
