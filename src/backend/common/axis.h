/* axis.h - what a kernel's integer and pointer values are known to be
 * along the last axis of their tiles, from the IR alone: where lanes run
 * in steps of a constant stride, and a power of two dividing the values at
 * the start of each such run (Triton's "contiguity" and "divisibility").
 *
 * The facts come from constants, aranges, the launch's specialization of
 * its arguments (ir_param.div16: an int that is a multiple of 16, a
 * pointer whose address is) and the arithmetic between them.  A slot that
 * several instructions write (a loop's variables) gets what holds for
 * every one of them: the analysis is a fixpoint over the whole kernel,
 * which begins from "anything" and narrows until every definition keeps
 * it.  The GPU emitter uses it to move a thread's chunk of consecutive
 * lanes as one access without testing at run time that the chunk is
 * consecutive and aligned.
 *
 * Values wrap as the IR's integers do; like Triton's analysis this one
 * reasons as if they did not, which a chunk aligned to its own size keeps
 * true for the strides that matter (a run starting at a multiple of its
 * power-of-two length never straddles a multiple of 2^31). */
#ifndef TRITSIM_AXIS_H
#define TRITSIM_AXIS_H

#include <stdbool.h>
#include <stdint.h>

#include "ir.h"

/* A run that is the whole last axis (a power of two larger than any). */
#define AXIS_WHOLE ((int64_t)1 << 40)

typedef struct axis_info {
    /* Lanes fall in runs of `run` consecutive positions along the last
     * axis, each run starting at a position that is a multiple of run (a
     * power of two; AXIS_WHOLE: the axis is one run; 1: nothing is known
     * of neighbours).  Within a run each lane's value is the previous
     * lane's plus stride (pointers: in bytes; 0: equal lanes). */
    int64_t run;
    int64_t stride;
    /* A power of two (at most AXIS_WHOLE) that divides the value of the
     * first lane of every run (pointers: the address). */
    int64_t div;
} axis_info;

/* The facts for every slot of k into out[k->nslots]; false when memory
 * ran out.  Slots that are not integers or pointers get run 1, div 1. */
bool axis_analyse(const ir_kernel *k, axis_info *out);

/* A power of two dividing the values at every lane whose position along
 * the last axis is a multiple of r (a power of two). */
int64_t axis_div_at(const axis_info *x, int64_t r);

/* Does every chunk of v lanes (v a power of two, chunks starting at
 * positions that are multiples of v) hold consecutive values that step
 * by `step`? */
bool axis_chunks_step(const axis_info *x, int64_t v, int64_t step);

#endif
