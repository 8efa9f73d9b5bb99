/* fuzz_gen.h - the kernel generator of the executors' differential fuzzer
 * (fuzz_exec.c): from (seed, index), a random VALID @triton.jit kernel
 * (source text) and everything needed to launch it: its buffers (dtype,
 * element count, input or output), scalar arguments, constexprs and grid.
 *
 * Valid means: it specializes (well-typed), and every access of every
 * program is in bounds or masked off, and no two programs store to the
 * same element, so the results of a launch do not depend on the executor
 * that runs it nor on the order of its programs (except where
 * order_dependent says so).  What a kernel may contain: 1-D and 2-D tiles,
 * loads and stores through affine, reversed, strided, broadcast (stride 0),
 * transposed and gathered pointers, box and non-box masks (masked-off
 * lanes that point outside their tensor), every integer and float dtype
 * mix that Triton types, wrapping integer arithmetic, division by zero,
 * shifts by any count, tl.where, math functions, casts and bitcasts,
 * reductions along an axis or all, keep_dims, cumsum, reshape/trans/flip,
 * tl.dot with an accumulator in a K loop, for/while loops with carried
 * values and runtime trip counts (0 included), if on runtime scalars,
 * atomics, device_print. */
#ifndef TRITSIM_FUZZ_GEN_H
#define TRITSIM_FUZZ_GEN_H

#include <stdbool.h>
#include <stdint.h>

#include "dtype.h"
#include "strbuf.h"

enum { FZ_MAX_BUF = 24, FZ_MAX_SCAL = 12, FZ_MAX_CONST = 6 };

typedef struct fz_buf {
    char name[8];
    dtype dt;               /* element type */
    int64_t numel;          /* >= 1 */
    bool output;            /* stored to (compared after the launch) */
    bool zero;              /* starts as zeros (atomic targets), else random
                               (inputs) or a fill pattern (outputs) */
} fz_buf;

typedef struct fz_scal {
    char name[8];
    dtype dt;               /* int32, int64 or fp32 */
    dtype_scalar v;         /* canonical (dtype.h) */
} fz_scal;

typedef struct fz_const {
    char name[8];
    int64_t v;
} fz_const;

typedef struct fz_kernel {
    strbuf src;             /* the module: imports, then def kern(...) */
    /* parameters in this order: buffers, scalars, constexprs */
    int nbuf;
    fz_buf buf[FZ_MAX_BUF];
    int nscal;
    fz_scal scal[FZ_MAX_SCAL];
    int nconst;
    fz_const cons[FZ_MAX_CONST];
    int64_t grid[3];
    int rank;
    /* Results depend on the order of the programs (float atomics, values
     * returned by atomics, exchanges): compare only runs whose programs
     * run one after another in id order. */
    bool order_dependent;
    uint64_t data_seed;     /* for the inputs' contents (fuzz_exec.c) */
} fz_kernel;

/* Generate kernel number index of campaign seed into k (whose src must be
 * initialised, empty or not: it is cleared). */
void fz_generate(uint64_t seed, uint64_t index, fz_kernel *k);

/* A splitmix64 step: the generators' random numbers. */
uint64_t fz_rand(uint64_t *state);

#endif
