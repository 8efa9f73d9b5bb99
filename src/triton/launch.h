/* launch.h - @triton.jit kernels on the host: the kernel objects that
 * triton.jit makes, kernel[grid](...) launches, and their specialization
 * cache.  A launch binds its arguments, evaluates the grid, specializes
 * (spec.h) and runs the programs on the CPU executor (exec.h). */
#ifndef TRITSIM_LAUNCH_H
#define TRITSIM_LAUNCH_H

#include <stdint.h>

#include "host.h"
#include "val.h"

/* A VAL_KERNEL for the def fn (a VAL_FUNC; a reference is taken); bit i
 * of no_spec keeps parameter i from being specialized when it is 1
 * (@triton.jit(do_not_specialize=...)). */
/* launch_metadata: None, or the function (grid, kernel, args) -> dict that
 * names a launch in a Proton profile (proton.c). */
val launch_kernel_new(val fn, uint64_t no_spec, val launch_metadata);

/* Is TRITON_INTERPRET=1 in the environment now (set before the program
 * started, or through os.environ)?  A kernel decides when @triton.jit
 * makes it, as Triton does: made then, it runs as Triton's interpreter
 * runs it (launch.c, spec_host.interpret); check_tensors_gpu_ready asks
 * at its call. */
bool launch_interpreting(void);

/* The VAL_FUNC of a kernel (borrowed), or VAL_MISSING if v is none. */
val launch_kernel_func(val kernel);
/* The type of @triton.jit functions, triton.JITFunction: for isinstance
 * and annotations (it cannot be called). */
val launch_kernel_type_val(void);

/* triton.set_allocator(allocator): what launches of kernels that make
 * tensor descriptors call for their global scratch (a reference is
 * taken). */
void launch_set_allocator(host *h, val allocator);

/* While autotune times its configs (on/off, nested): a kernel that cannot
 * compile or launch because it needs more of the GPU than it has (shared
 * memory, registers: backend_dev.out_of_resources) raises Triton's
 * OutOfResources, and one whose tl.static_assert fails for the config
 * raises CompileTimeAssertionFailure: catchable exceptions, instead of
 * the end of the run. */
void launch_set_tuning(host *h, bool on);
/* Is the pending exception one that a launch raised while tuning for a
 * config autotune skips (OutOfResources, CompileTimeAssertionFailure)?
 * If so it is taken (cleared) and true is returned. */
bool launch_take_skipped(host *h);

/* host.kernel_device: h's backend, open or (with open) opened now. */
struct backend_dev *launch_kernel_device(host *h, bool open, src_span at);

#endif
