/* combine.h - the rewrites Triton's compiler makes that change a kernel's
 * results (combine.c), run on every specialization after spec.c builds it,
 * so the CPU computes what the GPU does.  Today: `x + tl.dot(a, b)` becomes
 * `tl.dot(a, b, x)` when the dot's result has no other use. */
#ifndef TRITSIM_COMBINE_H
#define TRITSIM_COMBINE_H

#include "ir.h"

/* Rewrite k's code in place; instruction numbers do not change (what is
 * removed becomes IR_NOP). */
void combine_kernel(ir_kernel *k);

#endif
