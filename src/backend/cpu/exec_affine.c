/* exec_affine.c - the CPU executor's affine records (fastpath.h): index
 * and pointer tiles described by a base and a stride per axis, masks by a
 * box of lanes, computed by the instructions that write tracked slots
 * (exec.c's rec_op calls exec_rec_compute before the op), and the lanes of
 * a lazy slot written only when something reads them (exec_slot_sync). */
#define _POSIX_C_SOURCE 200809L
/* As in exec.c: let GCC vectorise the typed loops behind runtime checks. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("vect-cost-model=dynamic")
#endif
#include "exec_impl.h"

#include <string.h>

#include "affine.h"

/* A value missing from a switch over an enum is an error here (ir.h) */
#pragma GCC diagnostic error "-Wswitch"
#pragma GCC diagnostic error "-Wswitch-enum"

/* ======================================================================
 * Affine records (fastpath.h): index, pointer and mask tiles described by
 * a base and a stride per axis (masks: a box of lanes), so that loads and
 * stores through them check one address range and copy whole rows, and
 * lazy slots never have their lanes written at all.
 * ====================================================================== */

/* The record of operand s: a scalar (its value, zero strides; int1: all
 * lanes or none), or the valid record of a tracked slot; NULL otherwise. */
static const exec_rec *rec_of(exec_prog *P, int32_t s, exec_rec *tmp)
{
    if (NUMEL(P, s) == 1) {
        dtype t = DT(P, s);
        dtype_scalar v = lane_get(t, SLOT(P, s), 0);
        memset(tmp, 0, sizeof *tmp);
        if (t == DTYPE_INT1) {
            for (int d = 0; d < IR_MAX_DIM; d++)
                tmp->hi[d] = v.u ? INT32_MAX : 0;
        } else if (dtype_is_ptr(t) || dtype_is_signed(t)) {
            tmp->base = v.i;
        } else {
            if (v.u > INT64_MAX)
                return NULL;
            tmp->base = (int64_t)v.u;
        }
        tmp->valid = true;
        return tmp;
    }
    if (TRACKED(P, s) && REC(P, s)->valid)
        return REC(P, s);
    return NULL;
}

/* Do the lanes of an index record fit its type, so that the wrapping
 * arithmetic that made them was exact?  (Pointers always fit: their
 * records wrap as the lanes do.) */
static bool rec_fits(const exec_rec *r, const ir_type *t)
{
    if (dtype_is_ptr(t->dt))
        return true;
    int64_t lo = r->base, hi = r->base;
    for (int d = 0; d < t->ndim; d++) {
        int64_t span;
        if (__builtin_mul_overflow(r->st[d], (int64_t)t->shape[d] - 1, &span))
            return false;
        if (__builtin_add_overflow(span < 0 ? lo : hi, span, span < 0 ? &lo : &hi))
            return false;
    }
    int64_t min, max;
    return affine_dtype_range(t->dt, &min, &max) && lo >= min && hi <= max;
}

/* Map operand record a (of type ta) onto the axes of td, numpy's
 * broadcast: axes aligned on the right, size-1 and missing axes repeat. */
static void rec_broadcast(const exec_rec *a, const ir_type *ta, const ir_type *td,
                          exec_rec *r)
{
    r->base = a->base;
    for (int d = 0; d < td->ndim; d++) {
        int j = affine_bcast_axis(ta, td, d);
        bool rep = j < 0;
        r->st[d] = rep ? 0 : a->st[j];
        /* a repeated axis is on everywhere, unless a's box is empty */
        r->lo[d] = rep ? 0 : a->lo[j];
        r->hi[d] = rep ? INT32_MAX : a->hi[j];
    }
    for (int j = 0; j < ta->ndim; j++)
        if (a->lo[j] >= a->hi[j] && td->ndim > 0)
            r->hi[0] = r->lo[0] = 0;
}

/* RESHAPE: when a and dst have the same axes of size > 1 (only size-1
 * axes come or go), or a's index record is affine in its row-major lane
 * number (so any reshape is). */
static bool rec_reshape(const exec_rec *a, const ir_type *ta, const ir_type *td,
                        bool box, exec_rec *r)
{
    int map[IR_MAX_DIM];
    bool empty = false;
    for (int j = 0; j < ta->ndim; j++)
        empty |= box && a->lo[j] >= a->hi[j];
    if (affine_reshape_axes(ta, td, map)) {
        r->base = a->base;
        for (int d = 0; d < td->ndim; d++) {
            r->st[d] = map[d] < 0 ? 0 : a->st[map[d]];
            r->lo[d] = map[d] < 0 ? 0 : a->lo[map[d]];
            r->hi[d] = map[d] < 0 ? 1 : a->hi[map[d]];
        }
        if (empty && td->ndim > 0)
            r->lo[0] = r->hi[0] = 0;
        return true;
    }
    if (box)
        return false;
    /* Affine in the lane number f: st[d] == step * (elements after d). */
    int64_t step = ta->ndim ? a->st[ta->ndim - 1] : 0, after = 1, want;
    for (int j = ta->ndim - 1; j >= 0; j--) {
        if (ta->shape[j] > 1 &&
            (__builtin_mul_overflow(step, after, &want) || a->st[j] != want))
            return false;
        after *= ta->shape[j];
    }
    r->base = a->base;
    after = 1;
    for (int d = td->ndim - 1; d >= 0; d--) {
        if (__builtin_mul_overflow(step, after, &r->st[d]))
            return false;
        after *= td->shape[d];
    }
    return true;
}

/* CMP of two index records whose difference varies along one axis at most:
 * the box of lanes where (a - b) op 0. */
static bool rec_compare(const exec_rec *a, const exec_rec *b, ir_cmp op,
                        const ir_type *td, exec_rec *r)
{
    int64_t c, st[IR_MAX_DIM];
    if (__builtin_sub_overflow(a->base, b->base, &c))
        return false;
    int axis = -1;
    for (int d = 0; d < td->ndim; d++) {
        if (__builtin_sub_overflow(a->st[d], b->st[d], &st[d]))
            return false;
        r->lo[d] = 0;
        r->hi[d] = td->shape[d];
        if (st[d] != 0 && td->shape[d] > 1) {
            if (axis >= 0)
                return false;
            axis = d;
        }
    }
    /* c + s * i op 0 for i in [0, n) */
    int64_t s = axis >= 0 ? st[axis] : 0, n = axis >= 0 ? td->shape[axis] : 1;
    int64_t lo = 0, hi = n, lim = 0;
    switch (op) {
    case IR_LT: lim = 0; break;                  /* c + s*i < 0 */
    case IR_LE: lim = 1; break;                  /* c + s*i < 1 */
    case IR_GT: case IR_GE:                      /* -c - s*i < 0 (or < 1) */
        if (c == INT64_MIN || s == INT64_MIN)
            return false;
        c = -c;
        s = -s;
        lim = op == IR_GT ? 0 : 1;
        break;
    case IR_EQ: case IR_NE:                      /* along no axis only */
        if (s != 0)
            return false;
        lim = 0;
        break;
    }
    if (op == IR_EQ || op == IR_NE) {
        bool on = (c == 0) == (op == IR_EQ);
        hi = on ? n : 0;
    } else {
        /* c + s*i < lim, i.e. s*i < lim - c */
        int64_t t;
        if (__builtin_sub_overflow(lim, c, &t) || t == INT64_MIN)
            return false;
        if (s == 0) {
            hi = 0 < t ? n : 0;
        } else if (s > 0) {             /* i < t / s, rounded up */
            int64_t q = t / s + (t % s != 0 && t > 0);
            hi = q < 0 ? 0 : q > n ? n : q;
        } else {                        /* i > -t / -s: i >= floor(t / s) + 1 */
            int64_t q = t / s - (t % s != 0 && t > 0);   /* floor(t / s), s < 0 */
            int64_t first = q + 1;
            lo = first < 0 ? 0 : first > n ? n : first;
        }
    }
    if (lo >= hi) {
        lo = hi = 0;
        if (axis < 0 && td->ndim > 0)
            r->lo[0] = r->hi[0] = 0;
    }
    if (axis >= 0) {
        r->lo[axis] = (int32_t)lo;
        r->hi[axis] = (int32_t)hi;
        if (lo >= hi)
            r->lo[axis] = r->hi[axis] = 0;
    }
    return true;
}

/* The record of instruction in's result, from its operands' records;
 * false when the result is not affine (or would wrap). */
bool exec_rec_compute(exec_prog *P, const ir_inst *in, exec_rec *r)
{
    const ir_type *td = TYPE(P, in->dst);
    dtype t = td->dt;
    bool box = t == DTYPE_INT1;
    exec_rec ta, tb;
    const exec_rec *a = NULL, *b = NULL;
    memset(r, 0, sizeof *r);
    switch ((ir_opcode)in->op) {
    case IR_CONST: {
        dtype_scalar v = dtype_wrap(t, (uint64_t)in->imm);
        if (box) {
            for (int d = 0; d < td->ndim; d++)
                r->hi[d] = v.u ? td->shape[d] : 0;
            return true;
        }
        if (!dtype_is_ptr(t) && !dtype_is_signed(t) && v.u > INT64_MAX)
            return false;
        r->base = v.i;
        break;
    }
    case IR_ARANGE:
        r->base = in->imm;
        r->st[0] = 1;
        break;
    case IR_COPY: case IR_CAST:
        if (!(a = rec_of(P, in->a, &ta)))
            return false;
        *r = *a;
        break;
    case IR_BROADCAST:
        if (!(a = rec_of(P, in->a, &ta)))
            return false;
        rec_broadcast(a, NUMEL(P, in->a) == 1 ? td : TYPE(P, in->a), td, r);
        break;
    case IR_RESHAPE:
        if (!(a = rec_of(P, in->a, &ta)))
            return false;
        if (NUMEL(P, in->a) == 1)
            *r = *a;
        else if (!rec_reshape(a, TYPE(P, in->a), td, box, r))
            return false;
        break;
    case IR_BINARY: case IR_CMP: case IR_PTR_ADD:
        if (!(a = rec_of(P, in->a, &ta)) || !(b = rec_of(P, in->b, &tb)))
            return false;
        break;
    case IR_PROGRAM_ID: case IR_NUM_PROGRAMS: case IR_ARG: case IR_TRANS: case IR_FLIP:
    case IR_CONCAT: case IR_SLICE: case IR_GATHER: case IR_HISTOGRAM: case IR_BITCAST:
    case IR_UNARY: case IR_WHERE: case IR_MATH: case IR_LOAD: case IR_STORE:
    case IR_ATOMIC: case IR_DOT: case IR_REDUCE: case IR_SCAN: case IR_PRINT:
    case IR_ASSERT: case IR_BREAKPOINT: case IR_JUMP: case IR_BRANCH: case IR_RETURN:
    case IR_NOP:
        return false;              /* none of these makes a record (fastpath.c) */
    }
    if (in->op == IR_BINARY && box) {          /* AND of two boxes */
        for (int d = 0; d < td->ndim; d++) {
            r->lo[d] = a->lo[d] > b->lo[d] ? a->lo[d] : b->lo[d];
            r->hi[d] = a->hi[d] < b->hi[d] ? a->hi[d] : b->hi[d];
        }
    } else if (in->op == IR_BINARY && in->sub == IR_MUL) {
        /* one side must be the same on every lane: it scales the other */
        bool ua = true, ub = true;
        for (int d = 0; d < td->ndim; d++) {
            ua &= a->st[d] == 0;
            ub &= b->st[d] == 0;
        }
        if (!ua && !ub)
            return false;
        int64_t f = ua ? a->base : b->base;
        const exec_rec *x = ua ? b : a;
        if (__builtin_mul_overflow(f, x->base, &r->base))
            return false;
        for (int d = 0; d < td->ndim; d++)
            if (__builtin_mul_overflow(f, x->st[d], &r->st[d]))
                return false;
    } else if (in->op == IR_BINARY) {       /* ADD, SUB */
        bool add = in->sub == IR_ADD;
        if (add ? __builtin_add_overflow(a->base, b->base, &r->base)
                : __builtin_sub_overflow(a->base, b->base, &r->base))
            return false;
        for (int d = 0; d < td->ndim; d++)
            if (add ? __builtin_add_overflow(a->st[d], b->st[d], &r->st[d])
                    : __builtin_sub_overflow(a->st[d], b->st[d], &r->st[d]))
                return false;
    } else if (in->op == IR_CMP) {
        if (!rec_compare(a, b, (ir_cmp)in->sub, td, r))
            return false;
    } else if (in->op == IR_PTR_ADD) {
        uint64_t esz = (uint64_t)dtype_size(dtype_elem(t));
        r->base = (int64_t)((uint64_t)a->base + (uint64_t)b->base * esz);
        for (int d = 0; d < td->ndim; d++) {
            int64_t bs;
            if (__builtin_mul_overflow(b->st[d], (int64_t)esz, &bs) ||
                __builtin_add_overflow(a->st[d], bs, &r->st[d]))
                return false;
        }
    }
    if (box) {
        for (int d = 0; d < td->ndim; d++) {
            if (r->hi[d] > td->shape[d])
                r->hi[d] = td->shape[d];
            if (r->lo[d] < 0)
                r->lo[d] = 0;
        }
        return true;
    }
    return rec_fits(r, td);
}

/* Write a record's lanes into slot s. */
#define REC_FILL(T) do { \
    T *d_ = (T *)D; \
    for (int64_t i0 = 0; i0 < n[0]; i0++) \
        for (int64_t i1 = 0; i1 < n[1]; i1++) \
            for (int64_t i2 = 0; i2 < n[2]; i2++) { \
                uint64_t row_ = (uint64_t)r->base + (uint64_t)i0 * st[0] + \
                                (uint64_t)i1 * st[1] + (uint64_t)i2 * st[2]; \
                for (int64_t j = 0; j < n[3]; j++) \
                    *d_++ = (T)(row_ + (uint64_t)j * st[3]); \
            } \
} while (0)

void exec_rec_fill(exec_prog *P, int32_t s, const exec_rec *r)
{
    const ir_type *t = TYPE(P, s);
    void *D = SLOT(P, s);
    _Static_assert(AFFINE_MAX_DIM == 4, "the loops below walk four axes");
    int64_t n[AFFINE_MAX_DIM];
    uint64_t st[AFFINE_MAX_DIM] = {0};
    int pad = AFFINE_MAX_DIM - t->ndim;
    rec_shape4(t, n);
    if (t->dt == DTYPE_INT1) {
        int32_t lo[AFFINE_MAX_DIM] = {0}, hi[AFFINE_MAX_DIM] = {1, 1, 1, 1};
        for (int d = 0; d < t->ndim; d++) {
            lo[d + pad] = r->lo[d];
            hi[d + pad] = r->hi[d];
        }
        uint8_t *b = D;
        for (int64_t i0 = 0; i0 < n[0]; i0++)
            for (int64_t i1 = 0; i1 < n[1]; i1++)
                for (int64_t i2 = 0; i2 < n[2]; i2++) {
                    bool on = i0 >= lo[0] && i0 < hi[0] && i1 >= lo[1] && i1 < hi[1] &&
                              i2 >= lo[2] && i2 < hi[2] && lo[3] < hi[3];
                    memset(b, 0, (size_t)n[3]);
                    if (on)
                        memset(b + lo[3], 1, (size_t)(hi[3] - lo[3]));
                    b += n[3];
                }
        return;
    }
    for (int d = 0; d < t->ndim; d++)
        st[d + pad] = (uint64_t)r->st[d];
    switch (st_of(t->dt)) {
    case ST_I8: case ST_U8: case ST_B: REC_FILL(uint8_t); break;
    case ST_I16: case ST_U16: REC_FILL(uint16_t); break;
    case ST_I32: case ST_U32: REC_FILL(uint32_t); break;
    case ST_I64: case ST_U64: REC_FILL(uint64_t); break;
    case ST_F32: case ST_F64: REC_FILL(uint64_t); break;   /* never: no float records */
    }
}

/* Make slot s's lanes available in the register file (a lazy slot holds
 * only its record until something needs them): an instruction whose
 * record could not be made (rec_op), or a fast-path load or store that
 * falls back to the lane-by-lane way, reads its tracked operands' lanes.
 * (Debugger sessions have no lazy slots: they plan with keep_lanes.) */
void exec_slot_sync(exec_prog *P, int32_t s)
{
    if (s < 0 || !LAZY(P, s))
        return;
    exec_rec *r = REC(P, s);
    if (!r->mat) {
        exec_rec_fill(P, s, r);
        r->mat = true;
    }
}
