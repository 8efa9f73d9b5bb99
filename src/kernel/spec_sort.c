/* spec_sort.c - tl.sort, tl.topk and tl.bitonic_merge, lowered to the
 * IR's ordinary operations so that every backend runs them as it runs
 * the rest (no opcode of their own).
 *
 * They follow Triton 3.6's standard.py step by step, so that results are
 * Triton's bit for bit, ties, NaNs and signed zeros included.  Triton sees
 * the tile as a hypercube of 2s and runs a bitonic network along the last
 * dimension (n = 2**log_n lanes): stage s = 1..log_n merges runs of 2**s
 * lanes, each stage a series of compare-and-swaps at lane distance
 * 2**b (b = s-1 .. 0).  A compare-and-swap at bit b gives lane j
 *
 *     y = x[j ^ 2**b];  (x > y) != (flip ^ bit b of j) ? y : x
 *
 * where flip is bit s of j in the stages before the last (runs sorted
 * alternately up and down) and `descending` in the last.  tritsim's tiles
 * stop at 4 dimensions, so the partner is fetched with a GATHER along the
 * last axis instead of Triton's reshape to 2 x 2 x ... x 2; the masks
 * are computed from an ARANGE of the lanes.  The rule above is not a
 * permutation when comparisons are false both ways: a pair with a NaN, or
 * -0.0 and 0.0, leaves both lanes holding the left one's value, exactly
 * as on the GPU.
 *
 * tl.topk(x, k) (3.6: always the largest, in descending order) runs the
 * first log_k stages, then repeatedly halves the lanes with tl.max over
 * bit log_k (lane pairs j and j + 2**log_k in blocks of 2**(log_k+1)),
 * which, as tl.max does, first widens types narrower than 32 bits (and
 * bf16) to fp32 or int32, and re-merges at log_k.  k is rounded down to a
 * power of two, as Triton's _log2 does. */
#define _POSIX_C_SOURCE 200809L
#include "spec_tl.h"

#include <string.h>

/* What one lowering needs: the tile's type (its last axis the lanes) and
 * an ARANGE of the current lane count. */
typedef struct sp_sorter {
    spec *s;
    const ast_node *at;
    ir_type t;         /* the current tile's type */
    int32_t lanes;     /* int32 [m], m = t's last dimension */
} sp_sorter;

static int32_t sp_sort_int(sp_sorter *o, int64_t v)
{
    spec_const c = {.kind = SC_INT, .u.i = v};
    return sp_const_slot(o->s, &c, DTYPE_INT32, o->at);
}

/* row (int32 [m] op scalar v) */
static int32_t sp_sort_binop(sp_sorter *o, int32_t row, ir_binop op, int64_t v)
{
    ir_type rt = *sp_slot_type(o->s, row);
    return sp_new_tile(o->s, rt, IR_BINARY, op, row, sp_sort_int(o, v), -1, 0, o->at).slot;
}

static int32_t sp_sort_binop2(sp_sorter *o, int32_t a, ir_binop op, int32_t b)
{
    ir_type rt = *sp_slot_type(o->s, a);
    return sp_new_tile(o->s, rt, IR_BINARY, op, a, b, -1, 0, o->at).slot;
}

/* bit b of each lane index: int32 [m] of 0 and 1 */
static int32_t sp_sort_bit(sp_sorter *o, int32_t row, int b)
{
    return sp_sort_binop(o, sp_sort_binop(o, row, IR_SHR, b), IR_AND, 1);
}

/* A row over the last axis ([m]) as a tile of shape t (dtype kept). */
static int32_t sp_sort_spread(sp_sorter *o, int32_t row, const ir_type *t)
{
    ir_type rt = *sp_slot_type(o->s, row);
    if (t->ndim == 1)
        return row;
    ir_type r = {.dt = rt.dt, .ndim = t->ndim};
    for (int i = 0; i < t->ndim; i++)
        r.shape[i] = i == t->ndim - 1 ? rt.shape[0] : 1;
    sval v;
    if (!sp_reshape_to(o->s, row, r, o->at, &v))
        return -1;
    ir_type bt = *t;
    bt.dt = rt.dt;
    return sp_broadcast_to(o->s, v.slot, &bt, o->at);
}

static void sp_sort_set_lanes(sp_sorter *o)
{
    int32_t m = o->t.shape[o->t.ndim - 1];
    o->lanes = sp_new_tile(o->s, sp_type(DTYPE_INT32, 1, &m), IR_ARANGE, 0, -1, -1, -1, 0,
                           o->at).slot;
}

/* x[..., idx[j]] along the last axis; idx an int32 row of dst's lane count. */
static int32_t sp_sort_pick(sp_sorter *o, int32_t x, int32_t idx)
{
    ir_type dt = *sp_slot_type(o->s, x);
    dt.shape[dt.ndim - 1] = sp_slot_type(o->s, idx)->shape[0];
    int32_t full = sp_sort_spread(o, idx, &dt);
    if (full < 0)
        return -1;
    sval r = sp_new_tile(o->s, dt, IR_GATHER, 0, x, full, -1, dt.ndim - 1, o->at);
    o->s->slots[r.slot].ptr_arg = o->s->slots[x].ptr_arg;
    return r.slot;
}

/* One compare-and-swap at bit b; flip_stage >= 0: flip is bit flip_stage
 * of the lane (alternating runs), else the constant desc. */
static int32_t sp_sort_cas(sp_sorter *o, int32_t x, int b, int flip_stage, bool desc)
{
    int32_t y = sp_sort_pick(o, x, sp_sort_binop(o, o->lanes, IR_XOR, (int64_t)1 << b));
    if (y < 0)
        return -1;
    int32_t m = sp_sort_bit(o, o->lanes, b);
    if (flip_stage >= 0)
        m = sp_sort_binop2(o, m, IR_XOR, sp_sort_bit(o, o->lanes, flip_stage));
    else if (desc)
        m = sp_sort_binop(o, m, IR_XOR, 1);
    ir_type bt = *sp_slot_type(o->s, m);
    bt.dt = DTYPE_INT1;
    m = sp_new_tile(o->s, bt, IR_CMP, IR_NE, m, sp_sort_int(o, 0), -1, 0, o->at).slot;
    m = sp_sort_spread(o, m, &o->t);
    if (m < 0)
        return -1;
    ir_type ct = o->t;
    ct.dt = DTYPE_INT1;
    int32_t gt = sp_new_tile(o->s, ct, IR_CMP, IR_GT, x, y, -1, 0, o->at).slot;
    int32_t swap = sp_new_tile(o->s, ct, IR_CMP, IR_NE, gt, m, -1, 0, o->at).slot;
    return sp_new_tile(o->s, o->t, IR_WHERE, 0, swap, y, x, 0, o->at).slot;
}

/* Triton's _bitonic_merge_hypercube(x, stage, order): order 2 alternates
 * by bit `stage` of the lane, 0 and 1 are ascending and descending. */
static int32_t sp_sort_merge(sp_sorter *o, int32_t x, int stage, int order)
{
    for (int i = 0; i < stage && x >= 0; i++)
        x = sp_sort_cas(o, x, stage - 1 - i, order == 2 ? stage : -1, order == 1);
    return x;
}

/* tl.max / tl.min over bit lk of the lanes: m lanes become m / 2, lane j
 * keeping the extreme of old lanes lo(j) and lo(j) + 2**lk, as tritsim's
 * REDUCE does for two elements (floats: NaN only when both are). */
static int32_t sp_sort_halve(sp_sorter *o, int32_t x, int lk, bool is_max)
{
    dtype dt = o->t.dt, rdt = dt;
    if (rdt == DTYPE_BF16 || dtype_bits(rdt) < 32)
        rdt = dtype_is_float(rdt) ? DTYPE_FP32 : DTYPE_INT32;
    x = sp_cast(o->s, x, rdt, o->at);
    int32_t half = o->t.shape[o->t.ndim - 1] / 2;
    int32_t row = sp_new_tile(o->s, sp_type(DTYPE_INT32, 1, &half), IR_ARANGE, 0, -1, -1, -1,
                              0, o->at).slot;
    int32_t lo = sp_sort_binop(o, sp_sort_binop(o, row, IR_SHR, lk), IR_SHL, lk + 1);
    lo = sp_sort_binop2(o, lo, IR_OR, sp_sort_binop(o, row, IR_AND, ((int64_t)1 << lk) - 1));
    int32_t hi = sp_sort_binop(o, lo, IR_OR, (int64_t)1 << lk);
    int32_t a = sp_sort_pick(o, x, lo), b = sp_sort_pick(o, x, hi);
    if (a < 0 || b < 0)
        return -1;
    o->t.dt = rdt;
    o->t.shape[o->t.ndim - 1] = half;
    ir_type ct = o->t;
    ct.dt = DTYPE_INT1;
    int32_t take = sp_new_tile(o->s, ct, IR_CMP, is_max ? IR_GT : IR_LT, b, a, -1, 0,
                               o->at).slot;
    if (dtype_is_float(rdt)) {
        int32_t nan = sp_new_tile(o->s, ct, IR_CMP, IR_NE, a, a, -1, 0, o->at).slot;
        take = sp_new_tile(o->s, ct, IR_BINARY, IR_OR, take, nan, -1, 0, o->at).slot;
    }
    sp_sort_set_lanes(o);
    return sp_new_tile(o->s, o->t, IR_WHERE, 0, take, b, a, 0, o->at).slot;
}

static int sp_log2(int64_t n)
{
    int l = 0;
    while (n > 1) {
        n >>= 1;
        l++;
    }
    return l;
}

/* The input and dim of the three: a tile of numbers with a last
 * dimension, and dim None or that dimension (Triton 3.6's static_assert;
 * a negative dim fails there too). */
static bool sp_sort_input(spec *s, const char *fname, sval xv, sval dimv, const ast_node *call,
                          sp_sorter *o, int32_t *x)
{
    if (!sp_want_tile(s, xv, call, "the input", x))
        return false;
    o->s = s;
    o->at = call;
    o->t = *sp_slot_type(s, *x);
    if (o->t.ndim == 0)
        return sp_error(s, call, "%s needs a tile with a dimension to sort along, not a "
                        "scalar", fname);
    if (dtype_is_ptr(o->t.dt))
        return sp_error(s, call, "%s cannot sort pointers", fname);
    if (!sv_is_none(dimv)) {
        int64_t dim;
        if (!sp_const_int(s, dimv, call, "dim", &dim))
            return false;
        if (dim != o->t.ndim - 1)
            return sp_error(s, call, "%s: dim=%lld is not allowed: Triton 3.6 sorts along the "
                            "last dimension only, written dim=%d or left out (its "
                            "static_assert: \"only minor dimension is currently supported\"; "
                            "a negative dim fails it too)", fname, (long long)dim,
                            o->t.ndim - 1);
    }
    sp_sort_set_lanes(o);
    return true;
}

/* Triton's sort_impl(x, k, descending): log_k == log_n sorts. */
static bool sp_sort_impl(sp_sorter *o, int32_t x, int log_k, bool desc, sval *out)
{
    int log_n = sp_log2(o->t.shape[o->t.ndim - 1]);
    for (int i = 1; i <= log_k && x >= 0; i++)
        x = sp_sort_merge(o, x, i, i < log_n ? 2 : desc);
    for (int i = log_k + 1; i <= log_n && x >= 0; i++) {
        x = sp_sort_halve(o, x, log_k, desc);
        if (x >= 0)
            x = sp_sort_merge(o, x, log_k, i < log_n ? 2 : desc);
    }
    if (x < 0)
        return false;
    *out = sv_tile(x);
    return true;
}

static bool sp_sort_flag(spec *s, sval v, const ast_node *call, bool *out)
{
    *out = false;
    return sv_is_none(v) || sp_const_flag(s, v, call, "descending", out);
}

/* tl.sort(x, dim=None, descending=False) */
bool tl_sort(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[3];
    sp_sorter o;
    int32_t x;
    bool desc;
    if (!SP_BIND(s, "triton.language.sort", "x, dim=, descending=", a, call, p) ||
        !sp_sort_input(s, "tl.sort", p[0], p[1], call, &o, &x) ||
        !sp_sort_flag(s, p[2], call, &desc))
        return false;
    return sp_sort_impl(&o, x, sp_log2(o.t.shape[o.t.ndim - 1]), desc, out);
}

/* tl.topk(x, k, dim=None): the 2**floor(log2 k) largest, descending. */
bool tl_topk(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[3];
    sp_sorter o;
    int32_t x;
    int64_t k;
    if (!SP_BIND(s, "triton.language.topk", "x, k, dim=", a, call, p) ||
        !sp_sort_input(s, "tl.topk", p[0], p[2], call, &o, &x) ||
        !sp_const_int(s, p[1], call, "k", &k))
        return false;
    int64_t n = o.t.shape[o.t.ndim - 1];
    if (k < 1 || k > n)
        return sp_error(s, call, "tl.topk: k=%lld must be between 1 and the %lld elements of "
                        "the last dimension", (long long)k, (long long)n);
    return sp_sort_impl(&o, x, sp_log2(k), true, out);
}

/* tl.bitonic_merge(x, dim=None, descending=False): the last stage of a
 * sort, for a last dimension that is already bitonic. */
bool tl_bitonic_merge(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[3];
    sp_sorter o;
    int32_t x;
    bool desc;
    if (!SP_BIND(s, "triton.language.bitonic_merge", "x, dim=, descending=", a, call, p) ||
        !sp_sort_input(s, "tl.bitonic_merge", p[0], p[1], call, &o, &x) ||
        !sp_sort_flag(s, p[2], call, &desc))
        return false;
    x = sp_sort_merge(&o, x, sp_log2(o.t.shape[o.t.ndim - 1]), desc);
    if (x < 0)
        return false;
    *out = sv_tile(x);
    return true;
}
