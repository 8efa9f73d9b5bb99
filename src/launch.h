/* launch.h - @triton.jit kernels on the host: the kernel objects that
 * triton.jit makes, kernel[grid](...) launches, and their specialization
 * cache.  A launch binds its arguments, evaluates the grid, specializes
 * (spec.h) and runs the programs on the CPU executor (exec.h). */
#ifndef TRITSIM_LAUNCH_H
#define TRITSIM_LAUNCH_H

#include "host.h"
#include "val.h"

/* A VAL_KERNEL for the def fn (a VAL_FUNC; a reference is taken). */
val launch_kernel_new(val fn);

/* The VAL_FUNC of a kernel (borrowed), or VAL_MISSING if v is none. */
val launch_kernel_func(val kernel);

#endif
