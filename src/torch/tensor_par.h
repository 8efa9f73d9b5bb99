/* tensor_par.h - host tensor loops spread over threads.
 *
 * The elementwise loops of tensor operations (tensor_loops.h's runs) and
 * other independent pieces of work run on a small pool of threads shared
 * by all host tensor code (pool.h's workers, created on first use).  The
 * pieces are independent: each writes its own elements and reads nothing
 * another piece writes, so the results have the same bits whatever the
 * number of threads, and whatever the cut into pieces.
 *
 * The thread count defaults to the machine's online cores, at most
 * TENSOR_PAR_MAX, or to the environment's TRITSIM_HOST_THREADS.  0 (tensor_par_set_threads) selects the plain
 * element-at-a-time paths instead of the fast ones where a loop has both,
 * so that tests can compare the two. */
#ifndef TRITSIM_TENSOR_PAR_H
#define TRITSIM_TENSOR_PAR_H

#include <stdbool.h>
#include <stdint.h>

#include "tensor.h"

enum { TENSOR_PAR_MAX = 8 };

/* Elements below which a loop is not worth spreading over threads. */
enum { TENSOR_PAR_MIN = 1 << 15 };

/* The threads host loops use (0: the plain paths); n < 0 restores the
 * default. */
void tensor_par_set_threads(int n);
int tensor_par_threads(void);

/* fn(ctx, item) for every item in [0, n), spread over the threads (in the
 * caller alone when there is one, or when called from inside another
 * tensor_par job). */
typedef void (*tensor_par_fn)(void *ctx, int64_t item);
void tensor_par_for(int64_t n, tensor_par_fn fn, void *ctx);

/* A segment of a walk cut into runs: n consecutive elements of the run
 * from ptr[k] (operand k, byte stride step[k]); first is the flat number
 * of its first element in the walk's order. */
typedef void (*tensor_seg_fn)(void *ctx, unsigned char *const *ptr, const int64_t *step,
                              int64_t first, int64_t n);

/* Call fn over every element of it (after tensor_iter_runs gave len and
 * step), in segments that together cover each element once; segments run
 * on the threads when there are at least TENSOR_PAR_MIN elements.  it is
 * left as it was. */
void tensor_par_segments(const tensor_iter *it, int64_t len, const int64_t *step,
                         tensor_seg_fn fn, void *ctx);

/* The same over the flat elements [lo, hi) of the walk only, in the
 * calling thread. */
void tensor_par_range(const tensor_iter *it, int64_t len, const int64_t *step, int64_t lo,
                      int64_t hi, tensor_seg_fn fn, void *ctx);

#endif
