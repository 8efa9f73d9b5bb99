/* exec.h - the CPU executor: runs every program of a launch over a kernel's
 * IR (ir.h) on the thread pool (pool.h).
 *
 * Each worker owns one register file: a buffer per slot, sized from the
 * slot's static type once per kernel, so running a program allocates
 * nothing.  Slots hold elements in their natural C type (int1 as a byte
 * 0/1, intN/uintN as such, fp16 and bf16 as float holding an exactly
 * representable value, fp32 float, fp64 double, pointers as addresses).
 *
 * Loads and stores check every active lane against the tensor the pointer
 * points into; the first failure stops the launch with a message naming
 * the place, program, lane, element and tensor size.  What programs print
 * is buffered per program and written in program-id order, so the output
 * does not depend on the number of threads. */
#ifndef TRITSIM_EXEC_H
#define TRITSIM_EXEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "diag.h"
#include "dtype.h"
#include "ir.h"
#include "pool.h"

/* One runtime argument of a launch, by ir_kernel.params index. */
typedef struct exec_arg {
    dtype_scalar value;     /* scalars canonical (dtype.h); pointers: .u the
                               address of the tensor's first element */
    /* pointers only: the tensor's extent, for bounds checks */
    size_t numel;           /* elements reachable from the address (for a
                               strided view: 1 + sum((shape_i - 1) * stride_i)) */
    const char *name;       /* the parameter's name, e.g. "x_ptr" */
} exec_arg;

typedef struct exec_launch {
    const ir_kernel *kernel;
    const src_file *file;   /* the program, for error messages */
    int64_t grid[3];        /* programs along each axis, each >= 1 */
    const exec_arg *args;   /* kernel->nparams of them */
    pool *pool;             /* the threads to run on */
    FILE *out;              /* program output (prints) */
    diag_sink *diag;        /* errors */
    bool keep_lanes;        /* every slot's lanes in its register file after
                               each instruction: no lazy slots, no fused
                               instructions (fastpath.h); for a debugger */
} exec_launch;

/* Run the launch.  Returns false when a program failed; the error has been
 * reported to L->diag after the output of the programs before it. */
bool exec_run(const exec_launch *L);

#endif
