/* fastpath.h - the static analysis behind the CPU executor's fast paths
 * (exec.c), done once per launch over a kernel's IR.
 *
 * Affine slots.  Most index and pointer tiles of a kernel are affine in
 * their lane coordinates: tl.arange, scalars, and sums, scalar multiples,
 * broadcasts and reshapes of those, and pointer + such offsets.  A slot is
 * TRACKED when every instruction that writes it can describe its result as
 * a record, value = base + sum(stride[d] * index[d]), with base and strides
 * known only at run time.  int1 slots are tracked as boxes instead: lane on
 * when lo[d] <= index[d] < hi[d] on every axis (comparisons of affine tiles
 * with scalars, their & and broadcasts: `mask = offs < n`).  Scalar slots
 * (one element) are never tracked: their value is always in the register
 * file.  A record may still fail at run time (an int32 sum that would wrap):
 * the executor then computes the lanes the ordinary way.
 *
 * A tracked slot is LAZY when nothing needs its lanes in the register file:
 * every instruction that reads it understands records (loads and stores
 * through pointer tiles, masks, further index arithmetic), no print names
 * it and the kernel has no breakpoint.  The executor then keeps only the
 * record, and writes the lanes (exec_affine.c's exec_slot_sync) when a
 * reader cannot use the record after all: an instruction whose own record
 * fails at run time, or a load or store that leaves its fast path.
 *
 * Per instruction:
 *   FASTPATH_RECORD   it writes a tracked slot: compute the record;
 *   FASTPATH_MEMORY   a load or store whose pointer tile is tracked and
 *                     points into one argument: check one address range and
 *                     copy rows instead of checking and moving every lane;
 *   FASTPATH_DOT_INPLACE  a tl.dot with an fp32 accumulator (acc +=
 *                     tl.dot(a, b), which combine.c made one instruction,
 *                     or tl.dot(a, b, acc)) whose result's only reader is
 *                     the loop's `copy acc <- result` a few instructions on,
 *                     with nothing touching either slot in between: the
 *                     product continues in acc itself and the result slot
 *                     is never written;
 *   FASTPATH_COPY_SKIP    that copy: it does nothing;
 *   FASTPATH_LOAD_VIEW    an unmasked 2-d fp32 load whose only reader is a
 *                     tl.dot a few instructions on, with no store, atomic
 *                     or jump between: after the range check it only
 *                     notes where the rows are (its result slot is VIEW),
 *                     and the product reads them from the tensor (lda =
 *                     the row stride).
 *   FASTPATH_INVARIANT    a pure instruction (constants, arguments,
 *                     arithmetic, pointer arithmetic...) whose operands are
 *                     all invariant and whose result slot nothing else
 *                     writes: it computes the same value in every program
 *                     of the launch, so each worker runs it once and later
 *                     programs find the value already there.
 * The in-place dot leaves its result slot (and a viewed load its lanes)
 * unwritten, so a debugger must ask for
 * allow_lazy = false, which also turns FASTPATH_INVARIANT off. */
#ifndef TRITSIM_FASTPATH_H
#define TRITSIM_FASTPATH_H

#include <stdbool.h>
#include <stdint.h>

#include "ir.h"

enum {
    FASTPATH_TRACKED = 1,
    FASTPATH_LAZY = 2,
    FASTPATH_VIEW = 4,     /* a load's result that a dot may read in place */
};

enum {
    FASTPATH_RECORD = 1,
    FASTPATH_MEMORY = 2,
    FASTPATH_DOT_INPLACE = 16,
    FASTPATH_COPY_SKIP = 32,
    FASTPATH_LOAD_VIEW = 64,
    FASTPATH_INVARIANT = 128,
};

/* Fill slot_flags[k->nslots] and inst_flags[k->ncode] (FASTPATH_* bits)
 * for a kernel whose IR has passed the executor's checks; numel[s] is
 * slot s's element count.  allow_lazy false keeps every slot's lanes in
 * the register file (for a debugger that shows any slot at any time). */
void fastpath_analyse(const ir_kernel *k, const int64_t *numel, bool allow_lazy,
                      uint8_t *slot_flags, uint8_t *inst_flags);

#endif
