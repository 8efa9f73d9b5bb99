/* affine.h - the affine analysis of a kernel's IR that every backend
 * shares: which instructions describe their result as an affine record,
 * from which operands, and the static rules a record follows through the
 * shape instructions.
 *
 * A tile of an index dtype (affine_is_index) or a pointer tile is affine
 * when its lanes are value = base + sum(stride[d] * index[d]), with base
 * and strides known only at run time; an int1 tile is a BOX when its lane
 * is on exactly where lo[d] <= index[d] < hi[d] on every axis.  The
 * instructions that make records from records (affine_makes_record) are
 * constants, aranges, copies, reshapes, broadcasts, plain casts between
 * index dtypes, ADD, SUB and MUL of index tiles, AND of boxes, CMP of
 * index tiles (a box) and PTR_ADD.  A slot is TRACKED when every
 * instruction that writes it makes a record and every tile operand of
 * those (affine_record_operands) is tracked (affine_track).
 *
 * The CPU executor computes the records at run time (exec_affine.c) and
 * takes its fast paths with them (fastpath.h); the C-dialect emitter
 * writes them as a few scalars beside a LOAD or STORE, and checks the
 * access's whole address range at once (cgen_check.c).  Either way a
 * record is exact only while the wrapping arithmetic that made the lanes
 * did not wrap: an index record must stay inside its dtype's range
 * (affine_dtype_range), or the backend goes the lane-by-lane way. */
#ifndef TRITSIM_AFFINE_H
#define TRITSIM_AFFINE_H

#include <stdbool.h>
#include <stdint.h>

#include "dtype.h"
#include "ir.h"

enum { AFFINE_TRACKED = 1 };

/* The most axes a tracked slot has.  Tiles may have up to IR_MAX_DIM axes,
 * but the records' consumers (the CPU executor's row loops, exec_mem.c and
 * exec_affine.c) pad every shape to exactly this many axes on the left and
 * walk them with that many nested loops; a slot of more axes is never
 * tracked and takes the lane-by-lane paths. */
enum { AFFINE_MAX_DIM = 4 };
_Static_assert((int)AFFINE_MAX_DIM <= (int)IR_MAX_DIM, "records have no more axes than tiles");

/* An integer dtype that is neither int1 nor a pointer. */
bool affine_is_index(dtype t);

/* Can instruction in describe its result (slot in->dst) as a record,
 * given records (or scalars) for its operands? */
bool affine_makes_record(const ir_kernel *k, const ir_inst *in);

/* The operands such an instruction reads as records (up to 2): ops[]. */
int affine_record_operands(const ir_inst *in, int32_t *ops);

/* Set AFFINE_TRACKED in flags[s] (flags[k->nslots], cleared first) for
 * every tracked slot; numel[s] is slot s's element count (scalars, one
 * element, are never tracked: their value is always at hand). */
void affine_track(const ir_kernel *k, const int64_t *numel, uint8_t *flags);

/* The values an index dtype holds, as int64: [*min, *max] (uint64: up to
 * INT64_MAX).  false for other dtypes. */
bool affine_dtype_range(dtype t, int64_t *min, int64_t *max);

/* BROADCAST from shape ta to td (numpy's rule: axes aligned on the right,
 * size-1 and missing axes repeat): the axis of ta that axis d of td reads,
 * or -1 where it repeats (its stride is 0, a box is whole there). */
int affine_bcast_axis(const ir_type *ta, const ir_type *td, int d);

/* RESHAPE from ta to td when only size-1 axes come or go: map[d] is the
 * axis of ta that axis d of td is, -1 for a size-1 axis of td; false when
 * the axes of size > 1 differ (then only a record affine in the lane
 * number survives the reshape). */
bool affine_reshape_axes(const ir_type *ta, const ir_type *td, int *map);

#endif
