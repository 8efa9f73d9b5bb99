/* spec_shape.c - the tl.* functions that make tiles and change their
 * shape: program ids, arange, zeros, full; expand_dims, reshape,
 * broadcast_to, trans, join, split, interleave, cat, ravel, flip, gather,
 * histogram. */
#define _POSIX_C_SOURCE 200809L
#include "spec_tl.h"


/* ---- program ids, ranges, constants ------------------------------------- */

static bool sp_axis(spec *s, sval v, const ast_node *at, int64_t *axis)
{
    if (!sp_const_int(s, v, at, "axis", axis))
        return false;
    if (*axis < 0 || *axis > 2)
        return sp_error(s, at, "axis must be 0, 1 or 2, not %lld", (long long)*axis);
    return true;
}

bool tl_program_id(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[1];
    int64_t axis;
    if (!SP_BIND(s, "triton.language.program_id", "axis", a, call, p) ||
        !sp_axis(s, p[0], call, &axis))
        return false;
    *out = sp_new_tile(s, sp_scalar_type(DTYPE_INT32), IR_PROGRAM_ID, 0, -1, -1, -1, axis, call);
    return true;
}

bool tl_num_programs(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[1];
    int64_t axis;
    if (!SP_BIND(s, "triton.language.num_programs", "axis", a, call, p) ||
        !sp_axis(s, p[0], call, &axis))
        return false;
    *out = sp_new_tile(s, sp_scalar_type(DTYPE_INT32), IR_NUM_PROGRAMS, 0, -1, -1, -1, axis,
                       call);
    return true;
}

bool tl_arange(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[2];
    int64_t start, end;
    if (!SP_BIND(s, "triton.language.arange", "start, end", a, call, p) ||
        !sp_const_int(s, p[0], call, "tl.arange's start", &start) ||
        !sp_const_int(s, p[1], call, "tl.arange's end", &end))
        return false;
    int64_t n = end - start;
    if (end <= start)
        return sp_error(s, call, "tl.arange(%lld, %lld) is empty: end must be greater than "
                        "start", (long long)start, (long long)end);
    if (n & (n - 1))
        return sp_error(s, call, "tl.arange(%lld, %lld) has %lld elements, but the range "
                        "must be a power of two (as in Triton); use %lld and a mask",
                        (long long)start, (long long)end, (long long)n,
                        (long long)(1LL << (64 - __builtin_clzll((uint64_t)n))));
    if (n > (1 << 20) || start < INT32_MIN || end > INT32_MAX)
        return sp_error(s, call, "tl.arange range is too large (at most 1048576 elements "
                        "within int32)");
    int32_t shape[1] = {(int32_t)n};
    *out = sp_new_tile(s, sp_type(DTYPE_INT32, 1, shape), IR_ARANGE, 0, -1, -1, -1, start, call);
    return true;
}

/* A tile of shape t filled with v (a number or a scalar tile). */
static bool sp_fill(spec *s, ir_type t, sval v, const ast_node *at, sval *out)
{
    if (v.kind == SV_CONST && (v.c.kind == SC_INT || v.c.kind == SC_FLOAT ||
                               v.c.kind == SC_BOOL)) {
        /* CONST fills its destination, whatever the shape */
        int32_t c = sp_const_slot(s, &v.c, t.dt, at);
        s->slots[c].type = t;
        *out = sv_tile(c);
        return true;
    }
    int32_t x;
    if (!sp_want_tile(s, v, at, "the fill value", &x))
        return false;
    if (sp_slot_type(s, x)->ndim != 0)
        return sp_error(s, at, "the fill value must be a scalar");
    x = sp_cast(s, x, t.dt, at);
    *out = sv_tile(sp_materialize(s, x, &t, at));
    return true;
}

bool tl_zeros(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[2];
    ir_type t = {0};
    if (!SP_BIND(s, "triton.language.zeros", "shape, dtype", a, call, p) ||
        !sp_want_shape(s, p[0], call, &t) || !sp_want_dtype(s, p[1], call, "dtype", &t.dt))
        return false;
    return sp_fill(s, t, sv_int(0), call, out);
}

bool tl_full(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[3];
    ir_type t = {0};
    if (!SP_BIND(s, "triton.language.full", "shape, value, dtype", a, call, p) ||
        !sp_want_shape(s, p[0], call, &t) || !sp_want_dtype(s, p[2], call, "dtype", &t.dt))
        return false;
    return sp_fill(s, t, p[1], call, out);
}

bool tl_zeros_like(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[1];
    int32_t x;
    if (!SP_BIND(s, "triton.language.zeros_like", "input", a, call, p) ||
        !sp_want_tile(s, p[0], call, "input", &x))
        return false;
    return sp_fill(s, *sp_slot_type(s, x), sv_int(0), call, out);
}

/* ---- shapes -------------------------------------------------------------- */

bool sp_reshape_to(spec *s, int32_t x, ir_type nt, const ast_node *at, sval *out)
{
    const ir_type *t = sp_slot_type(s, x);
    int64_t n0 = 1, n1 = 1;
    for (int i = 0; i < t->ndim; i++)
        n0 *= t->shape[i];
    for (int i = 0; i < nt.ndim; i++)
        n1 *= nt.shape[i];
    if (n0 != n1) {
        char a[64], b[64];
        sp_shape_str(t, a, sizeof a);
        sp_shape_str(&nt, b, sizeof b);
        return sp_error(s, at, "cannot reshape a tile of shape %s (%lld elements) to %s "
                        "(%lld elements)", a, (long long)n0, b, (long long)n1);
    }
    nt.dt = t->dt;
    int32_t dst = sp_slot(s, nt, NULL);
    s->slots[dst].ptr_arg = s->slots[x].ptr_arg;
    sp_emit(s, IR_RESHAPE, 0, dst, x, -1, -1, 0, at);
    *out = sv_tile(dst);
    return true;
}

bool tl_expand_dims(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[2];
    int32_t x;
    int64_t axis;
    if (!SP_BIND(s, "triton.language.expand_dims", "input, axis", a, call, p) ||
        !sp_want_tile(s, p[0], call, "input", &x) ||
        !sp_const_int(s, p[1], call, "axis", &axis))
        return false;
    ir_type t = *sp_slot_type(s, x), nt = {.dt = t.dt, .ndim = (int8_t)(t.ndim + 1)};
    if (axis < 0)
        axis += t.ndim + 1;
    if (axis < 0 || axis > t.ndim)
        return sp_error(s, call, "tl.expand_dims: axis %lld is out of range for a tile of "
                        "%d dimensions", (long long)axis, t.ndim);
    if (nt.ndim > IR_MAX_DIM)
        return sp_error(s, call, "tiles have at most %d dimensions", IR_MAX_DIM);
    for (int i = 0, k = 0; i < nt.ndim; i++)
        nt.shape[i] = i == axis ? 1 : t.shape[k++];
    return sp_reshape_to(s, x, nt, call, out);
}

bool tl_reshape(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[3];
    int32_t x;
    ir_type nt = {0};
    if (!SP_BIND(s, "triton.language.reshape", "input, *shape, can_reorder=", a, call, p) ||
        !sp_want_tile(s, p[0], call, "input", &x))
        return false;
    /* reshape(x, (a, b)) or reshape(x, a, b) */
    sval shape = p[1];
    if (shape.kind == SV_TUPLE && shape.n == 1)
        shape = shape.items[0];
    if (!sp_want_shape(s, shape, call, &nt))
        return false;
    return sp_reshape_to(s, x, nt, call, out);
}

bool tl_broadcast_to(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[2];
    int32_t x;
    ir_type nt = {0}, joined;
    if (!SP_BIND(s, "triton.language.broadcast_to", "input, *shape", a, call, p) ||
        !sp_want_tile(s, p[0], call, "input", &x))
        return false;
    sval shape = p[1].kind == SV_TUPLE && p[1].n == 1 ? p[1].items[0] : p[1];
    if (!sp_want_shape(s, shape, call, &nt) ||
        !sp_shapes_join(s, sp_slot_type(s, x), &nt, &joined, call, "tl.broadcast_to"))
        return false;
    nt.dt = sp_slot_type(s, x)->dt;
    *out = sv_tile(sp_materialize(s, x, &nt, call));
    return true;
}

bool tl_trans(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[2];
    int32_t x;
    if (!SP_BIND(s, "triton.language.trans", "input, *dims", a, call, p) ||
        !sp_want_tile(s, p[0], call, "input", &x))
        return false;
    ir_type t = *sp_slot_type(s, x), nt = t;
    int perm[IR_MAX_DIM];
    if (p[1].kind == SV_TUPLE && p[1].n == 0) {
        if (t.ndim != 2)
            return sp_error(s, call, "tl.trans without dims needs a 2-D tile");
        perm[0] = 1;
        perm[1] = 0;
    } else {
        /* trans(x, 1, 0) or trans(x, (1, 0)) */
        sval d = p[1].kind == SV_TUPLE && p[1].n == 1 ? p[1].items[0] : p[1];
        sval items[IR_MAX_DIM];
        int n = 0;
        if (d.kind == SV_TUPLE) {
            n = d.n;
            for (int i = 0; i < n && i < IR_MAX_DIM; i++)
                items[i] = d.items[i];
        } else if (d.kind == SV_CONST && d.c.kind == SC_TUPLE) {
            n = d.c.u.tuple.n;
            for (int i = 0; i < n && i < IR_MAX_DIM; i++)
                items[i] = sv_const(d.c.u.tuple.items[i]);
        }
        if (n != t.ndim)
            return sp_error(s, call, "tl.trans: give one dim for each of the %d dimensions",
                            t.ndim);
        unsigned seen = 0;
        for (int i = 0; i < n; i++) {
            int64_t v;
            if (!sp_const_int(s, items[i], call, "a dim", &v))
                return false;
            if (v < 0 || v >= n || (seen & (1u << v)))
                return sp_error(s, call, "tl.trans: dims must be a permutation of 0..%d", n - 1);
            seen |= 1u << v;
            perm[i] = (int)v;
        }
    }
    for (int i = 0; i < t.ndim; i++)
        nt.shape[i] = t.shape[perm[i]];
    *out = sp_new_tile(s, nt, IR_TRANS, 0, x, -1, -1, ir_trans_pack(perm, t.ndim), call);
    return true;
}

bool sp_const_flag(spec *s, sval v, const ast_node *at, const char *what, bool *out)
{
    *out = false;
    if (sv_is_none(v))
        return true;
    if (v.kind != SV_CONST)
        return sp_error(s, at, "%s must be a constant (True or False)", what);
    *out = sp_const_truth(&v.c);
    return true;
}

sval sp_pair(spec *s, sval a, sval b)
{
    sval r = {.kind = SV_TUPLE, .n = 2, .slot = -1};
    r.items = arena_alloc(s->a, 2 * sizeof *r.items);
    r.items[0] = a;
    r.items[1] = b;
    return r;
}

bool sp_flip_axis(spec *s, int32_t x, int64_t axis, const ast_node *at, int32_t *out)
{
    *out = sp_slot(s, *sp_slot_type(s, x), NULL);
    sp_emit(s, IR_FLIP, 0, *out, x, -1, -1, axis, at);
    return true;
}

/* tl.join(a, b): a new minor axis of size 2 holding a and b (broadcast to
 * one shape first; two scalars give a [2] tile). */
static bool sp_join(spec *s, int32_t x, int32_t y, const ast_node *call, int32_t *out)
{
    ir_type tx = *sp_slot_type(s, x), ty = *sp_slot_type(s, y), shape;
    if (tx.dt != ty.dt)
        return sp_error(s, call, "tl.join: both tiles must have the same dtype, not %s and "
                        "%s; cast one with .to()", dtype_name(tx.dt), dtype_name(ty.dt));
    if (!sp_shapes_join(s, &tx, &ty, &shape, call, "tl.join"))
        return false;
    if (shape.ndim >= IR_MAX_DIM)
        return sp_error(s, call, "tiles have at most %d dimensions", IR_MAX_DIM);
    shape.dt = tx.dt;
    ir_type one = shape, two = shape;
    one.shape[one.ndim++] = 1;
    two.shape[two.ndim++] = 2;
    sval a, b;
    if (!sp_reshape_to(s, sp_materialize(s, x, &shape, call), one, call, &a) ||
        !sp_reshape_to(s, sp_materialize(s, y, &shape, call), one, call, &b))
        return false;
    *out = sp_slot(s, two, NULL);
    sp_emit(s, IR_CONCAT, 0, *out, a.slot, b.slot, -1, one.ndim - 1, call);
    return true;
}

bool tl_join(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[2];
    int32_t x, y, r;
    if (!SP_BIND(s, "triton.language.join", "a, b", a, call, p))
        return false;
    /* Triton's join takes tensors only; a constant is refused there */
    for (int i = 0; i < 2; i++)
        if (p[i].kind != SV_TILE)
            return sp_error(s, call, "tl.join needs two tiles, and argument %d is a constant "
                            "(make a tile of it with tl.full)", i + 1);
    if (!sp_want_tile(s, p[0], call, "a", &x) || !sp_want_tile(s, p[1], call, "b", &y) ||
        !sp_join(s, x, y, call, &r))
        return false;
    *out = sv_tile(r);
    return true;
}

/* tl.split(a): the two halves of a's minor axis, which must be 2. */
bool tl_split(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[1];
    int32_t x;
    if (!SP_BIND(s, "triton.language.split", "a", a, call, p) ||
        !sp_want_tile(s, p[0], call, "a", &x))
        return false;
    ir_type t = *sp_slot_type(s, x);
    if (t.ndim == 0 || t.shape[t.ndim - 1] != 2) {
        char buf[64];
        sp_shape_str(&t, buf, sizeof buf);
        return sp_error(s, call, "tl.split: the last dimension must have size 2; got shape "
                        "%s", buf);
    }
    ir_type half = t, res = t;
    half.shape[half.ndim - 1] = 1;
    res.ndim--;
    sval r[2];
    for (int i = 0; i < 2; i++) {
        int32_t h = sp_slot(s, half, NULL);
        sp_emit(s, IR_SLICE, 0, h, x, -1, -1, ir_slice_pack(t.ndim - 1, i), call);
        if (!sp_reshape_to(s, h, res, call, &r[i]))
            return false;
    }
    *out = sp_pair(s, r[0], r[1]);
    return true;
}

/* tl.interleave(a, b) = join(a, b) reshaped so that the minor axis
 * alternates a and b. */
bool tl_interleave(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[2];
    int32_t x, y, j;
    if (!SP_BIND(s, "triton.language.interleave", "a, b", a, call, p) ||
        !sp_want_tile(s, p[0], call, "a", &x) || !sp_want_tile(s, p[1], call, "b", &y) ||
        !sp_join(s, x, y, call, &j))
        return false;
    ir_type t = *sp_slot_type(s, j);
    if (t.ndim == 1) {
        *out = sv_tile(j);
        return true;
    }
    t.ndim--;
    t.shape[t.ndim - 1] *= 2;
    return sp_reshape_to(s, j, t, call, out);
}

/* tl.cat(input, other, can_reorder): Triton only has the reordering form
 * (of 1-D tiles); tritsim keeps the order, one of the allowed results. */
bool tl_cat(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[3];
    int32_t x, y;
    bool reorder;
    if (!SP_BIND(s, "triton.language.cat", "input, other, can_reorder=", a, call, p) ||
        !sp_want_tile(s, p[0], call, "input", &x) || !sp_want_tile(s, p[1], call, "other", &y) ||
        !sp_const_flag(s, p[2], call, "can_reorder", &reorder))
        return false;
    if (!reorder)
        return sp_error(s, call, "tl.cat needs can_reorder=True: the current implementation "
                        "of `cat` always may reorder elements (as in Triton)");
    ir_type tx = *sp_slot_type(s, x), ty = *sp_slot_type(s, y);
    if (tx.ndim != 1 || ty.ndim != 1)
        return sp_error(s, call, "tl.cat joins 1-D tiles only (as in Triton); got %d-D and "
                        "%d-D", tx.ndim, ty.ndim);
    if (tx.dt != ty.dt)
        return sp_error(s, call, "tl.cat: both tiles must have the same dtype, not %s and %s",
                        dtype_name(tx.dt), dtype_name(ty.dt));
    int64_t n = (int64_t)tx.shape[0] + ty.shape[0];
    if (n & (n - 1))
        return sp_error(s, call, "tl.cat of %d and %d elements gives %lld, not a power of "
                        "two", tx.shape[0], ty.shape[0], (long long)n);
    tx.shape[0] = (int32_t)n;
    *out = sp_new_tile(s, tx, IR_CONCAT, 0, x, y, -1, 0, call);
    return true;
}

bool tl_ravel(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[2];
    int32_t x;
    if (!SP_BIND(s, "triton.language.ravel", "x, can_reorder=", a, call, p) ||
        !sp_want_tile(s, p[0], call, "x", &x))
        return false;
    ir_type t = *sp_slot_type(s, x), nt = {.dt = t.dt, .ndim = 1, .shape = {1}};
    for (int i = 0; i < t.ndim; i++)
        nt.shape[0] *= t.shape[i];
    return sp_reshape_to(s, x, nt, call, out);
}

/* tl.flip(x, dim): reversed along dim. */
bool tl_flip(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[2];
    int32_t x, r;
    if (!SP_BIND(s, "triton.language.flip", "x, dim=", a, call, p) ||
        !sp_want_tile(s, p[0], call, "x", &x))
        return false;
    const ir_type *t = sp_slot_type(s, x);
    if (t->ndim == 0)
        return sp_error(s, call, "tl.flip needs a tile with at least one dimension");
    /* Triton 3.6's flip checks -len(x.shape) <= dim before it reads a None
     * dim as the last axis, so flip(x) without dim fails there. */
    int64_t dim;
    if (sv_is_none(p[1]))
        return sp_error(s, call, "tl.flip needs dim: Triton 3.6 compares dim with the "
                        "number of dimensions first, which fails for dim=None; pass "
                        "dim=-1 to flip the last axis");
    if (!sp_const_int(s, p[1], call, "dim", &dim))
        return false;
    if (dim < -t->ndim || dim >= t->ndim)
        return sp_error(s, call, "tl.flip: dim %lld is out of range for a tile of %d "
                        "dimensions", (long long)dim, t->ndim);
    if (dim < 0)
        dim += t->ndim;
    sp_flip_axis(s, x, dim, call, &r);
    *out = sv_tile(r);
    return true;
}

/* tl.gather(src, index, axis): out[i] = src[i with its axis coordinate
 * replaced by index[i]]; index has src's rank and src's shape off the
 * axis, and the result has index's shape (Triton 3.x's semantic.gather). */
bool tl_gather(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[3];
    int32_t x, ix;
    int64_t axis;
    if (!SP_BIND(s, "triton.language.gather", "src, index, axis", a, call, p) ||
        !sp_want_tile(s, p[0], call, "src", &x) || !sp_want_tile(s, p[1], call, "index", &ix) ||
        !sp_const_int(s, p[2], call, "axis", &axis))
        return false;
    ir_type ts = *sp_slot_type(s, x), ti = *sp_slot_type(s, ix);
    if (!dtype_is_int(ti.dt) || dtype_is_ptr(ti.dt))
        return sp_error(s, call, "tl.gather: index must be a tile of integers, not %s",
                        dtype_name(ti.dt));
    if (ts.ndim == 0 || ti.ndim != ts.ndim)
        return sp_error(s, call, "tl.gather: src and index must have the same number of "
                        "dimensions (at least 1); got %d and %d", ts.ndim, ti.ndim);
    if (axis < -ts.ndim || axis >= ts.ndim)
        return sp_error(s, call, "tl.gather: axis %lld is out of range for a tile of %d "
                        "dimensions", (long long)axis, ts.ndim);
    if (axis < 0)
        axis += ts.ndim;
    for (int d = 0; d < ts.ndim; d++)
        if (d != axis && ti.shape[d] != ts.shape[d]) {
            char bs[64], bi[64];
            sp_shape_str(&ts, bs, sizeof bs);
            sp_shape_str(&ti, bi, sizeof bi);
            return sp_error(s, call, "tl.gather: index shape %s must match src shape %s on "
                            "every axis but axis %lld", bi, bs, (long long)axis);
        }
    ir_type rt = ti;
    rt.dt = ts.dt;
    *out = sp_new_tile(s, rt, IR_GATHER, 0, x, ix, -1, axis, call);
    s->slots[out->slot].ptr_arg = s->slots[x].ptr_arg;
    return true;
}

/* tl.histogram(input, num_bins, mask=None): int32 [num_bins] counts of
 * the values of a 1-D integer tile, bins of width 1 from 0; values
 * outside [0, num_bins) and masked-off lanes are not counted. */
bool tl_histogram(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[3];
    int32_t x, m;
    int64_t bins;
    if (!SP_BIND(s, "triton.language.histogram", "input, num_bins, mask=", a, call, p) ||
        !sp_want_tile(s, p[0], call, "input", &x) ||
        !sp_const_int(s, p[1], call, "num_bins", &bins) ||
        !sp_want_mask(s, p[2], call, &m))
        return false;
    ir_type t = *sp_slot_type(s, x);
    if (t.ndim != 1 || !dtype_is_int(t.dt) || dtype_is_ptr(t.dt)) {
        char ts[96];
        ir_type_str(&t, ts, sizeof ts);
        return sp_error(s, call, "tl.histogram: input must be a 1-D tile of integers, not "
                        "%s", ts);
    }
    if (bins <= 0 || bins > (1 << 20) || (bins & (bins - 1)))
        return sp_error(s, call, "tl.histogram: num_bins must be a power of two (at most "
                        "2**20), not %lld", (long long)bins);
    if (m >= 0) {
        ir_type mt = *sp_slot_type(s, m), joined;
        if (!sp_shapes_join(s, &mt, &t, &joined, call, "tl.histogram mask"))
            return false;
        if (joined.ndim != 1 || joined.shape[0] != t.shape[0])
            return sp_error(s, call, "tl.histogram: the mask must have the input's shape");
        m = sp_materialize(s, m, &t, call);
    }
    ir_type rt = {.dt = DTYPE_INT32, .ndim = 1, .shape = {(int32_t)bins}};
    *out = sp_new_tile(s, rt, IR_HISTOGRAM, 0, x, m, -1, bins, call);
    return true;
}
