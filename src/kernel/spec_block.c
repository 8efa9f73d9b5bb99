/* spec_block.c - block pointers: tl.make_block_ptr, tl.advance, and the
 * loads and stores through them (tl.load/tl.store with boundary_check and
 * padding_option).
 *
 * A block pointer needs no IR of its own.  It is a compile-time value
 * (SV_BLOCKPTR: block shape, order, element type) holding runtime int64
 * scalars: base, shape, strides and offsets.  A load or store lowers it to
 * an ordinary pointer tile, base + sum over d of (offsets[d] + arange(B[d]))
 * * strides[d], and a mask that keeps, on each dimension in boundary_check,
 * the lanes with 0 <= index < shape[d].  Lanes of the other dimensions meet
 * the executor's usual bounds checks. */
#include <string.h>

#include "spec_tl.h"

/* ---- building -------------------------------------------------------------- */

/* A tuple argument (a tuple of values, or a constant tuple), n items. */
static bool sp_want_seq(spec *s, sval v, const ast_node *at, const char *what, sval *seq)
{
    *seq = sp_tuple_view(s, v);
    if (seq->kind != SV_TUPLE) {
        char buf[128];
        return sp_error(s, at, "tl.make_block_ptr: %s must be a tuple, not %s", what,
                        sp_describe(s, v, buf, sizeof buf));
    }
    return true;
}

/* v as an int64 scalar slot. */
static bool sp_int64_scalar(spec *s, sval v, const ast_node *at, const char *what,
                            sval *out)
{
    int32_t x;
    if (!sp_want_tile(s, v, at, what, &x))
        return false;
    const ir_type *t = sp_slot_type(s, x);
    if (t->ndim != 0 || !dtype_is_int(t->dt) || dtype_is_ptr(t->dt)) {
        char ts[96];
        ir_type_str(t, ts, sizeof ts);
        return sp_error(s, at, "%s must be an integer scalar, not %s", what, ts);
    }
    *out = sv_tile(sp_cast(s, x, DTYPE_INT64, at));
    return true;
}

/* tl.make_block_ptr(base, shape, strides, offsets, block_shape, order) */
bool tl_make_block_ptr(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[6], seq[5];
    int32_t base;
    static const char *const names[] = {"shape", "strides", "offsets", "block_shape",
                                        "order"};
    if (!SP_BIND(s, "triton.language.make_block_ptr",
                 "base, shape, strides, offsets, block_shape, order", a, call, p))
        return false;
    if (p[0].kind != SV_TILE || !dtype_is_ptr(sp_slot_type(s, p[0].slot)->dt) ||
        sp_slot_type(s, p[0].slot)->ndim != 0) {
        char buf[128];
        return sp_error(s, call, "tl.make_block_ptr: base must be a scalar pointer (a "
                        "tensor argument, maybe plus an offset), not %s",
                        sp_describe(s, p[0], buf, sizeof buf));
    }
    base = p[0].slot;
    for (int i = 0; i < 5; i++)
        if (!sp_want_seq(s, p[i + 1], call, names[i], &seq[i]))
            return false;
    int nd = seq[0].n;
    for (int i = 1; i < 5; i++)
        if (seq[i].n != nd)
            return sp_error(s, call, "tl.make_block_ptr: shape, strides, offsets, "
                            "block_shape and order must have the same length; shape has "
                            "%d, %s has %d", nd, names[i], seq[i].n);
    if (nd < 1 || nd > IR_MAX_DIM)
        return sp_error(s, call, "tl.make_block_ptr: blocks have 1 to %d dimensions, not %d",
                        IR_MAX_DIM, nd);
    sp_blockinfo *bi = arena_alloc(s->a, sizeof *bi);
    memset(bi, 0, sizeof *bi);
    bi->nd = nd;
    bi->elem = dtype_elem(sp_slot_type(s, base)->dt);
    bool seen[IR_MAX_DIM] = {false};
    for (int d = 0; d < nd; d++) {
        int64_t b, o;
        if (!sp_const_int(s, seq[3].items[d], call, "block_shape", &b) ||
            !sp_const_int(s, seq[4].items[d], call, "order", &o))
            return false;
        if (b < 1 || b > (1 << 20) || (b & (b - 1)))
            return sp_error(s, call, "tl.make_block_ptr: block_shape[%d] is %lld; block "
                            "dimensions must be powers of two", d, (long long)b);
        if (o < 0 || o >= nd || seen[o])
            return sp_error(s, call, "tl.make_block_ptr: order must be a permutation of "
                            "0..%d", nd - 1);
        seen[o] = true;
        bi->block[d] = (int32_t)b;
        bi->order[d] = (int8_t)o;
    }
    sval r = {.kind = SV_BLOCKPTR, .n = 1 + 3 * nd, .slot = -1, .block = bi};
    r.items = arena_alloc(s->a, (size_t)r.n * sizeof *r.items);
    r.items[0] = sv_tile(base);
    for (int k = 0; k < 3; k++)
        for (int d = 0; d < nd; d++) {
            char what[32];
            snprintf(what, sizeof what, "%s[%d]", names[k], d);
            if (!sp_int64_scalar(s, seq[k].items[d], call, what, &r.items[1 + k * nd + d]))
                return false;
        }
    *out = r;
    return true;
}

static bool sp_want_block_ptr(spec *s, sval v, const ast_node *at, const char *fname)
{
    if (v.kind == SV_BLOCKPTR && v.block->desc)
        return sp_error(s, at, "%s needs a block pointer (from tl.make_block_ptr), not a "
                        "tensor descriptor: a descriptor takes the offsets at each access, "
                        "desc.load([...])", fname);
    if (v.kind == SV_BLOCKPTR)
        return true;
    char buf[128];
    return sp_error(s, at, "%s needs a block pointer (from tl.make_block_ptr), not %s", fname,
                    sp_describe(s, v, buf, sizeof buf));
}

/* tl.advance(base, offsets): the same block pointer moved by offsets. */
bool tl_advance(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[2];
    if (!SP_BIND(s, "triton.language.advance", "base, offsets", a, call, p) ||
        !sp_want_block_ptr(s, p[0], call, "tl.advance"))
        return false;
    sval bp = p[0], offs = sp_tuple_view(s, p[1]);
    int nd = bp.block->nd;
    if (offs.kind != SV_TUPLE || offs.n != nd) {
        char buf[128];
        return sp_error(s, call, "tl.advance: offsets must be a tuple of %d integers (one "
                        "per dimension of the block), not %s", nd,
                        sp_describe(s, p[1], buf, sizeof buf));
    }
    sval r = bp;
    r.items = arena_alloc(s->a, (size_t)r.n * sizeof *r.items);
    memcpy(r.items, bp.items, (size_t)r.n * sizeof *r.items);
    for (int d = 0; d < nd; d++) {
        sval delta;
        char what[32];
        snprintf(what, sizeof what, "offsets[%d]", d);
        if (!sp_int64_scalar(s, offs.items[d], call, what, &delta) ||
            !sp_binop(s, AST_OP_ADD, bp.items[1 + 2 * nd + d], delta, call,
                      &r.items[1 + 2 * nd + d]))
            return false;
    }
    *out = r;
    return true;
}

/* ---- lowering ---------------------------------------------------------------- */

/* boundary_check: a tuple (or one int) of distinct dimensions; bits set in
 * *dims. */
static bool sp_boundary_dims(spec *s, sval v, int nd, const ast_node *at, unsigned *dims)
{
    *dims = 0;
    if (sv_is_none(v))
        return true;
    sval t = sp_tuple_view(s, v);
    int n = t.kind == SV_TUPLE ? t.n : 1;
    for (int i = 0; i < n; i++) {
        int64_t d;
        if (!sp_const_int(s, t.kind == SV_TUPLE ? t.items[i] : v, at, "boundary_check", &d))
            return false;
        if (d < 0 || d >= nd)
            return sp_error(s, at, "boundary_check dimension %lld is out of range for a "
                            "block of %d dimensions", (long long)d, nd);
        *dims |= 1u << d;
    }
    return true;
}

/* The pointer tile of the block and its mask (-1: none). */
bool sp_block_lower(spec *s, sval bp, unsigned dims, const ast_node *at,
                           int32_t *ptr, int32_t *mask)
{
    const sp_blockinfo *bi = bp.block;
    int nd = bi->nd;
    ir_type bt = {.dt = DTYPE_INT64, .ndim = (int8_t)nd};
    memcpy(bt.shape, bi->block, sizeof bt.shape);
    sval p = bp.items[0], m = sv_none();
    for (int d = 0; d < nd; d++) {
        /* offsets[d] + arange(B[d]), shaped to broadcast along dimension d */
        ir_type at1 = {.dt = DTYPE_INT32, .ndim = 1, .shape = {bi->block[d]}};
        ir_type col = {.dt = DTYPE_INT32, .ndim = (int8_t)nd};
        for (int e = 0; e < nd; e++)
            col.shape[e] = e == d ? bi->block[d] : 1;
        sval ar = sp_new_tile(s, at1, IR_ARANGE, 0, -1, -1, -1, 0, at);
        sval shaped = sp_new_tile(s, col, IR_RESHAPE, 0, ar.slot, -1, -1, 0, at);
        sval idx = sv_tile(sp_cast(s, shaped.slot, DTYPE_INT64, at)), term;
        if (!sp_binop(s, AST_OP_ADD, bp.items[1 + 2 * nd + d], idx, at, &idx) ||
            !sp_binop(s, AST_OP_MUL, idx, bp.items[1 + nd + d], at, &term) ||
            !sp_binop(s, AST_OP_ADD, p, term, at, &p))
            return false;
        if (dims & (1u << d)) {
            sval lo, hi, in;
            if (!sp_binop(s, AST_OP_GE, idx, sv_int(0), at, &lo) ||
                !sp_binop(s, AST_OP_LT, idx, bp.items[1 + d], at, &hi) ||
                !sp_binop(s, AST_OP_BITAND, lo, hi, at, &in))
                return false;
            if (!sv_is_none(m) && !sp_binop(s, AST_OP_BITAND, m, in, at, &in))
                return false;
            m = in;
        }
    }
    *ptr = sp_materialize(s, p.slot, &bt, at);
    *mask = sv_is_none(m) ? -1 : sp_materialize(s, m.slot, &bt, at);
    return true;
}

/* tl.load through a block pointer: p are tl.load's bound arguments. */
/* tl.load and tl.store of a tensor descriptor: Triton's "Unsupported ptr
 * type" there. */
static bool sp_not_desc(spec *s, sval v, const ast_node *at, const char *fname)
{
    if (!v.block->desc)
        return true;
    return sp_error(s, at, "%s takes a pointer or a block pointer, not a tensor descriptor: "
                    "use desc.%s([offsets]%s)", fname, strcmp(fname, "tl.load") ? "store"
                    : "load", strcmp(fname, "tl.load") ? ", value" : "");
}

bool sp_block_load(spec *s, const sval *p, const ast_node *call, sval *out)
{
    sval bp = p[0];
    if (!sp_not_desc(s, bp, call, "tl.load"))
        return false;
    if (!sv_is_none(p[1]) || !sv_is_none(p[2]))
        return sp_error(s, call, "tl.load: mask and other cannot be given with a block "
                        "pointer; use boundary_check and padding_option");
    unsigned dims;
    const char *pad = "";
    if (!sp_boundary_dims(s, p[3], bp.block->nd, call, &dims) ||
        (!sv_is_none(p[4]) && !sp_want_str(s, p[4], call, "padding_option", &pad)))
        return false;
    dtype elem = bp.block->elem;
    int32_t ptr, mask, other = -1;
    if (strcmp(pad, "") && strcmp(pad, "zero") && strcmp(pad, "nan"))
        return sp_error(s, call, "tl.load: padding_option must be \"zero\" or \"nan\", not "
                        "\"%s\"", pad);
    if (!strcmp(pad, "nan")) {
        if (!dtype_is_float(elem))
            return sp_error(s, call, "tl.load: padding_option \"nan\" needs a floating-point "
                            "block pointer, not one to %s", dtype_name(elem));
        spec_const nan = {.kind = SC_FLOAT, .u.f = __builtin_nan("")};
        other = sp_const_slot(s, &nan, elem, call);
    }
    if (!sp_block_lower(s, bp, dims, call, &ptr, &mask))
        return false;
    if (mask < 0)
        other = -1;
    ir_type t = *sp_slot_type(s, ptr);
    t.dt = elem;
    *out = sp_new_tile(s, t, IR_LOAD, 0, ptr, mask, other, 0, call);
    return true;
}

/* tl.store through a block pointer: p are tl.store's bound arguments. */
bool sp_block_store(spec *s, const sval *p, const ast_node *call, sval *out)
{
    sval bp = p[0];
    if (!sp_not_desc(s, bp, call, "tl.store"))
        return false;
    if (!sv_is_none(p[2]))
        return sp_error(s, call, "tl.store: mask cannot be given with a block pointer; use "
                        "boundary_check");
    unsigned dims;
    int32_t ptr, mask, val;
    if (!sp_boundary_dims(s, p[3], bp.block->nd, call, &dims) ||
        !sp_want_tile(s, p[1], call, "value", &val) ||
        !sp_block_lower(s, bp, dims, call, &ptr, &mask))
        return false;
    ir_type pt = *sp_slot_type(s, ptr), joined;
    const ir_type *vt = sp_slot_type(s, val);
    if (!sp_shapes_join(s, &pt, vt, &joined, call, "tl.store") || joined.ndim != pt.ndim ||
        memcmp(joined.shape, pt.shape, sizeof pt.shape[0] * (size_t)pt.ndim)) {
        char a[64], b[64];
        sp_shape_str(vt, a, sizeof a);
        sp_shape_str(&pt, b, sizeof b);
        return sp_error(s, call, "tl.store: a value of shape %s does not fit the block "
                        "pointer's blocks of %s", a, b);
    }
    if (!sp_mem_cast(s, &val, bp.block->elem, call, "tl.store: the value"))
        return false;
    val = sp_materialize(s, val, &pt, call);
    sp_emit(s, IR_STORE, 0, -1, ptr, val, mask, 0, call);
    *out = sv_none();
    return true;
}
