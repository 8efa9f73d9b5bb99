/* spec_mem.c - tl.load and tl.store through pointer tiles (a block
 * pointer goes on to spec_block.c; tensor descriptors live in spec_desc.c),
 * and the helpers the memory functions share: sp_want_pointer, and
 * sp_mem_cast for the implicit cast of a stored value or `other`. */
#define _POSIX_C_SOURCE 200809L
#include "spec_tl.h"


/* ---- memory ----------------------------------------------------------- */

bool sp_want_pointer(spec *s, sval v, const ast_node *at, int32_t *slot)
{
    if (v.kind == SV_TILE && dtype_is_ptr(sp_slot_type(s, v.slot)->dt)) {
        *slot = v.slot;
        return true;
    }
    char buf[128];
    return sp_error(s, at, "expected a pointer (a tensor argument plus offsets), found %s",
                    sp_describe(s, v, buf, sizeof buf));
}

bool sp_mem_cast(spec *s, int32_t *slot, dtype elem, const ast_node *at, const char *what)
{
    dtype from = sp_slot_type(s, *slot)->dt;
    if (!dtype_can_cast(from, elem))
        return sp_error(s, at, "%s is %s, which Triton cannot cast to %s, the pointer's element "
                        "type%s", what, dtype_name(from), dtype_name(elem),
                        dtype_is_fp8(elem) && dtype_is_int(from)
                        ? " (it has no int -> fp8 cast): use a float (0.0 for a constant, "
                          ".to(tl.float32) for a tile)" : "");
    *slot = sp_cast(s, *slot, elem, at);
    return true;
}

/* Broadcast a pointer tile and a mask (and a value) to their common shape. */
static bool sp_mem_shapes(spec *s, int32_t *ptr, int32_t *mask, int32_t *val,
                          const ast_node *at, const char *what)
{
    ir_type shape = *sp_slot_type(s, *ptr);
    if (*mask >= 0 && !sp_shapes_join(s, &shape, sp_slot_type(s, *mask), &shape, at, what))
        return false;
    if (val && *val >= 0 && !sp_shapes_join(s, &shape, sp_slot_type(s, *val), &shape, at, what))
        return false;
    *ptr = sp_materialize(s, *ptr, &shape, at);
    if (*mask >= 0)
        *mask = sp_broadcast_to(s, *mask, &shape, at);
    if (val && *val >= 0)
        *val = sp_broadcast_to(s, *val, &shape, at);
    return true;
}

static bool sp_check_block_args(spec *s, sval boundary_check, sval padding, const ast_node *at)
{
    sval bc = boundary_check;
    bool empty = sv_is_none(bc) || (bc.kind == SV_TUPLE && bc.n == 0) ||
                 (bc.kind == SV_CONST && bc.c.kind == SC_TUPLE && bc.c.u.tuple.n == 0);
    bool nopad = sv_is_none(padding) ||
                 (padding.kind == SV_CONST && padding.c.kind == SC_STR && !padding.c.u.str.len);
    if (!empty || !nopad)
        return sp_error(s, at, "boundary_check and padding_option need a block pointer "
                        "(tl.make_block_ptr); mask an ordinary pointer with mask=");
    return true;
}

bool tl_load(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[8];
    int32_t ptr, mask, other = -1;
    if (!SP_BIND(s, "triton.language.load",
                      "pointer, mask=, other=, boundary_check=, padding_option=, "
                      "cache_modifier=, eviction_policy=, volatile=", a, call, p))
        return false;
    if (p[0].kind == SV_BLOCKPTR)
        return sp_block_load(s, p, call, out);
    if (!sp_want_pointer(s, p[0], call, &ptr) || !sp_want_mask(s, p[1], call, &mask) ||
        !sp_check_block_args(s, p[3], p[4], call))
        return false;
    dtype elem = dtype_elem(sp_slot_type(s, ptr)->dt);
    if (!sv_is_none(p[2])) {
        if (mask < 0 && !(p[1].kind == SV_CONST && p[1].c.kind == SC_BOOL))
            return sp_error(s, call, "tl.load: 'other' needs a mask");
        if (!sp_want_tile(s, p[2], call, "other", &other) ||
            !sp_mem_cast(s, &other, elem, call, "tl.load: other"))
            return false;
    }
    if (!sp_mem_shapes(s, &ptr, &mask, &other, call, "tl.load"))
        return false;
    ir_type t = *sp_slot_type(s, ptr);
    t.dt = elem;
    *out = sp_new_tile(s, t, IR_LOAD, 0, ptr, mask, other, 0, call);
    return true;
}

bool tl_store(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[6];
    int32_t ptr, val, mask;
    if (!SP_BIND(s, "triton.language.store",
                      "pointer, value, mask=, boundary_check=, cache_modifier=, "
                      "eviction_policy=", a, call, p))
        return false;
    if (p[0].kind == SV_BLOCKPTR)
        return sp_block_store(s, p, call, out);
    if (!sp_want_pointer(s, p[0], call, &ptr) || !sp_want_tile(s, p[1], call, "value", &val) ||
        !sp_want_mask(s, p[2], call, &mask) || !sp_check_block_args(s, p[3], sv_none(), call))
        return false;
    dtype elem = dtype_elem(sp_slot_type(s, ptr)->dt);
    const ir_type *vt = sp_slot_type(s, val);
    ir_type pt = *sp_slot_type(s, ptr), joined;
    /* The value may not have more dimensions than the pointer and mask. */
    if (!sp_shapes_join(s, &pt, vt, &joined, call, "tl.store") ||
        !sp_mem_cast(s, &val, elem, call, "tl.store: the value"))
        return false;
    if (!sp_mem_shapes(s, &ptr, &mask, &val, call, "tl.store"))
        return false;
    val = sp_materialize(s, val, sp_slot_type(s, ptr), call);
    sp_emit(s, IR_STORE, 0, -1, ptr, val, mask, 0, call);
    *out = sv_none();
    return true;
}
