/* spec_reduce.c - tl.* reductions and scans: sum, xor_sum, max, min,
 * argmax, argmin, cumsum, cumprod, tl.reduce and tl.associative_scan with
 * a user combine function, and softmax. */
#define _POSIX_C_SOURCE 200809L
#include "spec_tl.h"

#include <string.h>

/* ---- reductions and scans ------------------------------------------------ */

/* A reduction or scan axis: a constant int in [-ndim, ndim), wrapped as in
 * Triton; None (allowed for reductions) is -1. */
static bool sp_red_axis(spec *s, sval v, const ir_type *t, bool none_ok,
                        const ast_node *at, int64_t *axis)
{
    *axis = -1;
    if (none_ok && sv_is_none(v))
        return true;
    int64_t a;
    if (!sp_const_int(s, v, at, "axis", &a))
        return false;
    if (t->ndim == 0)
        return sp_error(s, at, "cannot reduce or scan a scalar (it has no axis %lld)",
                        (long long)a);
    if (a < -t->ndim || a >= t->ndim)
        return sp_error(s, at, "axis %lld is out of range for a tile of %d dimensions "
                        "(use %d..%d)", (long long)a, t->ndim, -t->ndim, t->ndim - 1);
    *axis = a < 0 ? a + t->ndim : a;
    return true;
}

/* REDUCE of x over axis (-1: all); keep_dims keeps the reduced axes as 1. */
static sval sp_emit_reduce(spec *s, int32_t x, ir_reduce kind, int64_t axis, bool keep_dims,
                           dtype rdt, const ast_node *call)
{
    ir_type t = *sp_slot_type(s, x), rt = {.dt = rdt};
    for (int i = 0; i < t.ndim; i++) {
        bool reduced = axis < 0 || i == axis;
        if (!reduced || keep_dims)
            rt.shape[rt.ndim++] = reduced ? 1 : t.shape[i];
    }
    return sp_new_tile(s, rt, IR_REDUCE, kind, x, -1, -1, axis, call);
}

/* Triton's _pick_sum_dtype: dtype= when given, else integers narrower than
 * 32 bits widen to int32 (signed) or uint32 (unsigned, and int1). */
static bool sp_sum_dtype(spec *s, sval dt_arg, dtype in, const ast_node *call, dtype *out)
{
    *out = in;
    if (!sv_is_none(dt_arg))
        return sp_want_dtype(s, dt_arg, call, "dtype", out);
    if (dtype_is_int(in) && dtype_bits(in) < 32)
        *out = dtype_is_signed(in) ? DTYPE_INT32 : DTYPE_UINT32;
    return true;
}

static bool sp_red_input(spec *s, sval v, const ast_node *call, int32_t *x, ir_type *t)
{
    if (!sp_want_tile(s, v, call, "input", x))
        return false;
    *t = *sp_slot_type(s, *x);
    if (dtype_is_ptr(t->dt))
        return sp_error(s, call, "cannot reduce or scan pointers");
    return true;
}

bool tl_sum(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[4];
    int32_t x;
    ir_type t;
    int64_t axis;
    bool keep;
    dtype rdt;
    if (!SP_BIND(s, "triton.language.sum", "input, axis=, keep_dims=, dtype=", a, call, p) ||
        !sp_red_input(s, p[0], call, &x, &t) || !sp_red_axis(s, p[1], &t, true, call, &axis) ||
        !sp_const_flag(s, p[2], call, "keep_dims", &keep) ||
        !sp_sum_dtype(s, p[3], t.dt, call, &rdt))
        return false;
    x = sp_cast(s, x, rdt, call);
    *out = sp_emit_reduce(s, x, IR_RED_SUM, axis, keep, rdt, call);
    return true;
}

bool tl_xor_sum(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[3];
    int32_t x;
    ir_type t;
    int64_t axis;
    bool keep;
    if (!SP_BIND(s, "triton.language.xor_sum", "input, axis=, keep_dims=", a, call, p) ||
        !sp_red_input(s, p[0], call, &x, &t))
        return false;
    if (!dtype_is_int(t.dt))
        return sp_error(s, call, "xor_sum only supported for integers, not %s",
                        dtype_name(t.dt));
    if (!sp_red_axis(s, p[1], &t, true, call, &axis) ||
        !sp_const_flag(s, p[2], call, "keep_dims", &keep))
        return false;
    *out = sp_emit_reduce(s, x, IR_RED_XOR, axis, keep, t.dt, call);
    return true;
}

/* tl.reduce_or(input, axis, keep_dims=False): | over the axis, integers
 * only (Triton's static_assert); axis has no default, but None reduces
 * every axis, as for tl.sum. */
bool tl_reduce_or(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[3];
    int32_t x;
    ir_type t;
    int64_t axis;
    bool keep;
    if (!SP_BIND(s, "triton.language.reduce_or", "input, axis, keep_dims=", a, call, p) ||
        !sp_red_input(s, p[0], call, &x, &t))
        return false;
    if (!dtype_is_int(t.dt))
        return sp_error(s, call, "reduce_or only supported for integers, not %s",
                        dtype_name(t.dt));
    if (!sp_red_axis(s, p[1], &t, true, call, &axis) ||
        !sp_const_flag(s, p[2], call, "keep_dims", &keep))
        return false;
    *out = sp_emit_reduce(s, x, IR_RED_OR, axis, keep, t.dt, call);
    return true;
}

/* Reductions that return indices need an axis: Triton 3.6's
 * _reduce_with_indices reads input.shape[axis], which fails for None. */
static bool sp_index_axis(spec *s, const char *qual, sval axis, const ast_node *call)
{
    if (!sv_is_none(axis))
        return true;
    char nb[64];
    const char *name = sp_display_name(qual, nb, sizeof nb);
    bool arg = !strcmp(qual, "triton.language.argmax") || !strcmp(qual, "triton.language.argmin");
    return sp_error(s, call, "%s%s needs an axis: Triton finds the indices along "
                    "input.shape[axis], which fails for axis=None; flatten the tile first, "
                    "e.g. %s(tl.ravel(x), 0%s)", name, arg ? "" : " with return_indices=True",
                    name, arg ? "" : ", return_indices=True");
}

/* tl.max / tl.min, and with return_indices=True also the int32 index of
 * the first extreme value (tie_break_left; without it Triton leaves ties
 * unspecified and tritsim still takes the first).  As in Triton, bf16 is
 * reduced in fp32, and without indices every type narrower than 32 bits is
 * widened (floats to fp32, integers to int32). */
static bool sp_maxmin(spec *s, const char *qual, bool is_max, const sp_args *a,
                      const ast_node *call, sval *out)
{
    sval p[5];
    int32_t x;
    ir_type t;
    int64_t axis;
    bool ret_idx, tie_left, keep;
    if (!SP_BIND(s, qual, "input, axis=, return_indices=, return_indices_tie_break_left=, "
                 "keep_dims=", a, call, p) ||
        !sp_red_input(s, p[0], call, &x, &t) || !sp_red_axis(s, p[1], &t, true, call, &axis) ||
        !sp_const_flag(s, p[2], call, "return_indices", &ret_idx) ||
        !sp_const_flag(s, p[3], call, "return_indices_tie_break_left", &tie_left) ||
        !sp_const_flag(s, p[4], call, "keep_dims", &keep) ||
        (ret_idx && !sp_index_axis(s, qual, p[1], call)))
        return false;
    dtype rdt = t.dt;
    if (rdt == DTYPE_BF16 || (!ret_idx && dtype_bits(rdt) < 32))
        rdt = dtype_is_float(rdt) ? DTYPE_FP32 : DTYPE_INT32;
    x = sp_cast(s, x, rdt, call);
    sval v = sp_emit_reduce(s, x, is_max ? IR_RED_MAX : IR_RED_MIN, axis, keep, rdt, call);
    if (!ret_idx) {
        *out = v;
        return true;
    }
    sval i = sp_emit_reduce(s, x, is_max ? IR_RED_ARGMAX : IR_RED_ARGMIN, axis, keep,
                            DTYPE_INT32, call);
    *out = sp_pair(s, v, i);
    return true;
}

bool tl_max(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    return sp_maxmin(s, "triton.language.max", true, a, call, out);
}

bool tl_min(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    return sp_maxmin(s, "triton.language.min", false, a, call, out);
}

static bool sp_argmaxmin(spec *s, const char *qual, bool is_max, const sp_args *a,
                         const ast_node *call, sval *out)
{
    sval p[4];
    int32_t x;
    ir_type t;
    int64_t axis;
    bool tie_left, keep;
    if (!SP_BIND(s, qual, "input, axis, tie_break_left=, keep_dims=", a, call, p) ||
        !sp_red_input(s, p[0], call, &x, &t) || !sp_index_axis(s, qual, p[1], call) ||
        !sp_red_axis(s, p[1], &t, true, call, &axis) ||
        !sp_const_flag(s, p[2], call, "tie_break_left", &tie_left) ||
        !sp_const_flag(s, p[3], call, "keep_dims", &keep))
        return false;
    if (t.dt == DTYPE_BF16)
        x = sp_cast(s, x, DTYPE_FP32, call);
    *out = sp_emit_reduce(s, x, is_max ? IR_RED_ARGMAX : IR_RED_ARGMIN, axis, keep,
                          DTYPE_INT32, call);
    return true;
}

bool tl_argmax(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    return sp_argmaxmin(s, "triton.language.argmax", true, a, call, out);
}

bool tl_argmin(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    return sp_argmaxmin(s, "triton.language.argmin", false, a, call, out);
}

/* tl.cumsum / tl.cumprod: inclusive scans; bf16 runs in fp32, cumsum picks
 * its type as tl.sum does; reverse=True scans from the end (a flip, the
 * scan, a flip back). */
static bool sp_scan(spec *s, const char *qual, ir_reduce kind, const sp_args *a,
                    const ast_node *call, sval *out)
{
    sval p[4];
    int32_t x;
    ir_type t;
    int64_t axis;
    bool reverse;
    bool is_sum = kind == IR_RED_SUM;
    if (!SP_BIND(s, qual, is_sum ? "input, axis=, reverse=, dtype=" : "input, axis=, reverse=",
                 a, call, p) ||
        !sp_red_input(s, p[0], call, &x, &t))
        return false;
    if (sv_is_none(p[1]))
        p[1] = sv_int(0);
    if (!sp_red_axis(s, p[1], &t, false, call, &axis) ||
        !sp_const_flag(s, p[2], call, "reverse", &reverse))
        return false;
    dtype rdt = t.dt == DTYPE_BF16 ? DTYPE_FP32 : t.dt;
    if (is_sum && !sp_sum_dtype(s, p[3], rdt, call, &rdt))
        return false;
    x = sp_cast(s, x, rdt, call);
    t.dt = rdt;
    if (reverse)
        sp_flip_axis(s, x, axis, call, &x);
    int32_t r = sp_slot(s, t, NULL);
    sp_emit(s, IR_SCAN, kind, r, x, -1, -1, axis, call);
    if (reverse)
        sp_flip_axis(s, r, axis, call, &r);
    *out = sv_tile(r);
    return true;
}

bool tl_cumsum(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    return sp_scan(s, "triton.language.cumsum", IR_RED_SUM, a, call, out);
}

bool tl_cumprod(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    return sp_scan(s, "triton.language.cumprod", IR_RED_PROD, a, call, out);
}

/* ---- tl.reduce and tl.associative_scan: user combine functions ----------- */

/* No IR of their own: the @triton.jit combine_fn is inlined on tile
 * pieces.  A reduction over an axis of length n is a tree of ceil(log2 n)
 * steps, each combining the first half with the second, as a GPU's
 * butterfly does; a scan is Hillis-Steele: at distance d = 1, 2, 4, ...
 * lane i (i >= d) becomes combine(x[i - d], x[i]). */

enum { SP_MAX_COMBINE = 6 };   /* tiles in one tuple of inputs */

typedef struct sp_combine {
    const char *fname;          /* "tl.reduce", for messages */
    sval fn;
    int k;                      /* inputs */
    int32_t x[SP_MAX_COMBINE];
    dtype dt[SP_MAX_COMBINE];
    bool tuple;                 /* the inputs came as a tuple */
    int64_t axis;
} sp_combine;

/* The input (a tile or a tuple of tiles of one shape) and combine_fn. */
static bool sp_combine_inputs(spec *s, sp_combine *c, sval in, sval fn, const ast_node *call)
{
    char buf[96], b2[64];
    if (fn.kind != SV_JIT)
        return sp_error(s, call, "%s: combine_fn must be a @triton.jit function, not %s",
                        c->fname, sp_describe(s, fn, buf, sizeof buf));
    c->fn = fn;
    c->tuple = in.kind == SV_TUPLE;
    c->k = c->tuple ? in.n : 1;
    if (c->k < 1 || c->k > SP_MAX_COMBINE)
        return sp_error(s, call, "%s takes 1 to %d input tiles, not %d", c->fname,
                        SP_MAX_COMBINE, c->k);
    for (int i = 0; i < c->k; i++) {
        ir_type t;
        if (!sp_red_input(s, c->tuple ? in.items[i] : in, call, &c->x[i], &t))
            return false;
        c->dt[i] = t.dt;
        const ir_type *t0 = sp_slot_type(s, c->x[0]);
        bool same = t.ndim == t0->ndim;
        for (int d = 0; same && d < t.ndim; d++)
            same = t.shape[d] == t0->shape[d];
        if (!same) {
            sp_shape_str(t0, buf, sizeof buf);
            sp_shape_str(&t, b2, sizeof b2);
            return sp_error(s, call, "%s: all inputs must have the same shape; got %s and %s",
                            c->fname, buf, b2);
        }
    }
    const ast_list *params = &fn.def->u.funcdef.params;
    if (params->len != 2 * c->k)
        return sp_error(s, call, "%s: combine_fn %s() takes %d arguments; it must take %d "
                        "(two for each of the %d input tile%s)", c->fname,
                        fn.def->u.funcdef.name, params->len, 2 * c->k, c->k,
                        c->k == 1 ? "" : "s");
    return true;
}

/* Slot r[i] = x[i][start : start + n] along the axis. */
static void sp_slice_all(spec *s, const sp_combine *c, const int32_t *x, int64_t start,
                         int32_t n, const ast_node *at, int32_t *r)
{
    for (int i = 0; i < c->k; i++) {
        ir_type t = *sp_slot_type(s, x[i]);
        t.shape[c->axis] = n;
        r[i] = sp_slot(s, t, NULL);
        sp_emit(s, IR_SLICE, 0, r[i], x[i], -1, -1, ir_slice_pack(c->axis, start), at);
    }
}

/* r = combine_fn(left..., right...), each result cast to its input's
 * dtype and broadcast to the pieces' shape. */
static bool sp_combine_call(spec *s, const sp_combine *c, const int32_t *left,
                            const int32_t *right, const ast_node *call, int32_t *r)
{
    sval argv[2 * SP_MAX_COMBINE], res;
    for (int i = 0; i < c->k; i++) {
        argv[i] = sv_tile(left[i]);
        argv[c->k + i] = sv_tile(right[i]);
    }
    if (!sp_call_jit(s, c->fn, 2 * c->k, argv, 0, NULL, NULL, call, &res))
        return false;
    int n = res.kind == SV_TUPLE ? res.n : 1;
    if (n != c->k)
        return sp_error(s, call, "%s: combine_fn %s() returned %s%d value%s; it must return "
                        "%d (one for each input tile)", c->fname, c->fn.def->u.funcdef.name,
                        res.kind == SV_TUPLE ? "a tuple of " : "", n, n == 1 ? "" : "s",
                        c->k);
    for (int i = 0; i < c->k; i++) {
        sval v = res.kind == SV_TUPLE ? res.items[i] : res;
        if (v.kind != SV_TILE && !(v.kind == SV_CONST && v.c.kind != SC_NONE &&
                                   v.c.kind != SC_STR))
            return sp_error(s, call, "%s: combine_fn %s() must return tiles or numbers",
                            c->fname, c->fn.def->u.funcdef.name);
        int32_t slot;
        if (!sp_want_tile(s, v, call, "the combined value", &slot))
            return false;
        r[i] = sp_materialize(s, sp_cast(s, slot, c->dt[i], call), sp_slot_type(s, left[i]),
                              call);
    }
    return true;
}

static sval sp_combine_result(spec *s, const sp_combine *c, const int32_t *r)
{
    if (!c->tuple)
        return sv_tile(r[0]);
    sval t = {.kind = SV_TUPLE, .n = c->k, .slot = -1};
    t.items = arena_alloc(s->a, (size_t)c->k * sizeof *t.items);
    for (int i = 0; i < c->k; i++)
        t.items[i] = sv_tile(r[i]);
    return t;
}

/* tl.reduce(input, axis, combine_fn, keep_dims=False); axis None reduces
 * the raveled input. */
bool tl_reduce(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[4];
    sp_combine c = {.fname = "tl.reduce"};
    bool keep;
    if (!SP_BIND(s, "triton.language.reduce", "input, axis, combine_fn, keep_dims=", a, call,
                 p) ||
        !sp_combine_inputs(s, &c, p[0], p[2], call) ||
        !sp_const_flag(s, p[3], call, "keep_dims", &keep))
        return false;
    ir_type t = *sp_slot_type(s, c.x[0]);
    if (!sp_red_axis(s, p[1], &t, true, call, &c.axis))
        return false;
    int32_t cur[SP_MAX_COMBINE], lo[SP_MAX_COMBINE], hi[SP_MAX_COMBINE];
    memcpy(cur, c.x, sizeof cur);
    bool all = c.axis < 0;
    if (all) {   /* all axes: reduce the raveled tiles */
        ir_type flat = {.ndim = 1, .shape = {1}};
        for (int d = 0; d < t.ndim; d++)
            flat.shape[0] *= t.shape[d];
        for (int i = 0; i < c.k; i++) {
            sval f;
            flat.dt = c.dt[i];
            if (!sp_reshape_to(s, cur[i], flat, call, &f))
                return false;
            cur[i] = f.slot;
        }
        c.axis = 0;
    }
    for (int32_t n = sp_slot_type(s, cur[0])->shape[c.axis]; n > 1; n = (n + 1) / 2) {
        int32_t h = n / 2, r[SP_MAX_COMBINE];
        sp_slice_all(s, &c, cur, 0, h, call, lo);
        sp_slice_all(s, &c, cur, h, h, call, hi);
        if (!sp_combine_call(s, &c, lo, hi, call, r))
            return false;
        if (n & 1) {   /* an odd length: the last lane waits for the next step */
            int32_t last[SP_MAX_COMBINE];
            sp_slice_all(s, &c, cur, n - 1, 1, call, last);
            for (int i = 0; i < c.k; i++) {
                ir_type t2 = *sp_slot_type(s, r[i]);
                t2.shape[c.axis]++;
                r[i] = sp_new_tile(s, t2, IR_CONCAT, 0, r[i], last[i], -1, c.axis, call).slot;
            }
        }
        memcpy(cur, r, sizeof cur);
    }
    /* cur now has length 1 on the axis: keep it, or drop it (all axes:
     * reshape to the keep_dims shape or a scalar). */
    for (int i = 0; i < c.k; i++) {
        ir_type rt = {.dt = c.dt[i]};
        for (int d = 0; d < t.ndim; d++) {
            bool reduced = all || d == c.axis;
            if (!reduced || keep)
                rt.shape[rt.ndim++] = reduced ? 1 : t.shape[d];
        }
        sval f;
        if (!sp_reshape_to(s, cur[i], rt, call, &f))
            return false;
        cur[i] = f.slot;
    }
    *out = sp_combine_result(s, &c, cur);
    return true;
}

/* tl.associative_scan(input, axis, combine_fn, reverse=False): inclusive;
 * reverse=True scans from the end (a flip, the scan, a flip back). */
bool tl_associative_scan(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[4];
    sp_combine c = {.fname = "tl.associative_scan"};
    bool reverse;
    if (!SP_BIND(s, "triton.language.associative_scan", "input, axis, combine_fn, reverse=", a,
                 call, p) ||
        !sp_combine_inputs(s, &c, p[0], p[2], call) ||
        !sp_const_flag(s, p[3], call, "reverse", &reverse))
        return false;
    ir_type t = *sp_slot_type(s, c.x[0]);
    if (!sp_red_axis(s, p[1], &t, false, call, &c.axis))
        return false;
    int32_t cur[SP_MAX_COMBINE], lo[SP_MAX_COMBINE], hi[SP_MAX_COMBINE];
    int32_t head[SP_MAX_COMBINE], r[SP_MAX_COMBINE];
    memcpy(cur, c.x, sizeof cur);
    if (reverse)
        for (int i = 0; i < c.k; i++)
            sp_flip_axis(s, cur[i], c.axis, call, &cur[i]);
    int32_t n = t.shape[c.axis];
    for (int32_t d = 1; d < n; d *= 2) {
        sp_slice_all(s, &c, cur, 0, n - d, call, lo);
        sp_slice_all(s, &c, cur, d, n - d, call, hi);
        sp_slice_all(s, &c, cur, 0, d, call, head);
        if (!sp_combine_call(s, &c, lo, hi, call, r))
            return false;
        for (int i = 0; i < c.k; i++) {
            ir_type full = *sp_slot_type(s, cur[i]);
            cur[i] = sp_new_tile(s, full, IR_CONCAT, 0, head[i], r[i], -1, c.axis, call).slot;
        }
    }
    if (reverse)
        for (int i = 0; i < c.k; i++)
            sp_flip_axis(s, cur[i], c.axis, call, &cur[i]);
    *out = sp_combine_result(s, &c, cur);
    return true;
}

/* tl.softmax(x, dim=None, keep_dims=False, ieee_rounding=False), as
 * Triton's standard.py writes it: over axis dim (0 when None),
 * exp(x - max(x, dim)) / sum(...), both reductions with keep_dims. */
bool tl_softmax(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[4], m, z, num, den;
    if (!SP_BIND(s, "triton.language.softmax", "x, dim=, keep_dims=, ieee_rounding=", a,
                 call, p))
        return false;
    sval dim = sv_is_none(p[1]) ? sv_int(0) : p[1];
    const char *kw[] = {"keep_dims"};
    sval keep = sv_is_none(p[2]) ? sv_const((spec_const){.kind = SC_BOOL}) : p[2];
    sp_args ma = {.argc = 2, .argv = (sval[]){p[0], dim}, .nkw = 1, .kwnames = kw,
                  .kwv = &keep};
    if (!tl_max(s, &ma, call, &m) || !sp_binop(s, AST_OP_SUB, p[0], m, call, &z))
        return false;
    sp_args ea = {.argc = 1, .argv = &z};
    if (!tl_exp(s, &ea, call, &num))
        return false;
    sp_args sa = {.argc = 2, .argv = (sval[]){num, dim}, .nkw = 1, .kwnames = kw,
                  .kwv = &keep};
    if (!tl_sum(s, &sa, call, &den))
        return false;
    return sp_float_div(s, "tl.fdiv", (sval[]){num, den}, false, call, out);
}
