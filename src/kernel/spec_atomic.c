/* spec_atomic.c - tl.atomic_add, _max, _min, _xchg, _cas, _and, _or, _xor.
 *
 * tl.atomic_*(pointer, val, mask=None, sem=None, scope=None) and
 * tl.atomic_cas(pointer, cmp, val, sem=None, scope=None), typed as
 * semantic.py's atom_red_typechecking_impl does: val and mask broadcast to
 * the pointer's shape, val converted to the element type; the result is
 * the old values.  On the CPU every atomic is sequentially consistent, so
 * sem and scope are only checked. */
#include "spec_tl.h"

#include <string.h>

static bool sp_atomic_mode(spec *s, sval v, const char *what, const char *const *ok,
                           const ast_node *at)
{
    if (sv_is_none(v))
        return true;
    const char *str = "";
    if (!sp_want_str(s, v, at, what, &str))
        return false;
    char list[96] = "";
    for (int i = 0; ok[i]; i++) {
        if (!strcmp(ok[i], str))
            return true;
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s\"%s\"", i ? ", " : "",
                 ok[i]);
    }
    return sp_error(s, at, "%s \"%s\" is not supported (use %s)", what, str, list);
}

static bool sp_atomic_common(spec *s, const char *fname, ir_atomic op, sval ptr_v,
                             sval sem, sval scope, const ast_node *call, int32_t *ptr,
                             dtype *elem)
{
    static const char *const sems[] = {"acquire", "release", "acq_rel", "relaxed", NULL};
    static const char *const scopes[] = {"gpu", "cta", "sys", NULL};
    if (!sp_want_pointer(s, ptr_v, call, ptr) ||
        !sp_atomic_mode(s, sem, "sem", sems, call) ||
        !sp_atomic_mode(s, scope, "scope", scopes, call))
        return false;
    dtype e = dtype_elem(sp_slot_type(s, *ptr)->dt);
    *elem = e;
    if (op == IR_ATOMIC_CAS) {
        if (dtype_bits(e) != 16 && dtype_bits(e) != 32 && dtype_bits(e) != 64)
            return sp_error(s, call, "%s only supports elements of 16, 32 or 64 bits, not %s",
                            fname, dtype_name(e));
        return true;
    }
    if (e == DTYPE_INT1 || e == DTYPE_INT8 || e == DTYPE_INT16 || e == DTYPE_BF16 ||
        (e == DTYPE_FP16 && op != IR_ATOMIC_ADD) || dtype_bits(e) == 8)
        return sp_error(s, call, "%s does not support %s", fname, dtype_name(e));
    if ((op == IR_ATOMIC_AND || op == IR_ATOMIC_OR || op == IR_ATOMIC_XOR) && !dtype_is_int(e))
        return sp_error(s, call, "%s needs integer elements, not %s", fname, dtype_name(e));
    return true;
}

/* v converted to the element type and broadcast to the pointer's shape. */
static bool sp_atomic_operand(spec *s, const char *fname, sval v, int32_t ptr, dtype elem,
                              const char *what, const ast_node *call, int32_t *out)
{
    if (!sp_want_tile(s, v, call, what, out))
        return false;
    ir_type pt = *sp_slot_type(s, ptr), joined;
    if (!sp_shapes_join(s, &pt, sp_slot_type(s, *out), &joined, call, fname))
        return false;
    if (joined.ndim != pt.ndim ||
        memcmp(joined.shape, pt.shape, sizeof pt.shape[0] * (size_t)pt.ndim)) {
        char a[64], b[64];
        sp_shape_str(sp_slot_type(s, *out), a, sizeof a);
        sp_shape_str(&pt, b, sizeof b);
        return sp_error(s, call, "%s: the %s (shape %s) must fit the pointer's shape %s",
                        fname, what, a, b);
    }
    *out = sp_materialize(s, sp_cast(s, *out, elem, call), &pt, call);
    return true;
}

static bool sp_atomic_rmw(spec *s, const char *qual, ir_atomic op, const sp_args *a,
                          const ast_node *call, sval *out)
{
    sval p[5];
    int32_t ptr, val, mask;
    dtype elem;
    char fname[64];
    sp_display_name(qual, fname, sizeof fname);
    if (!SP_BIND(s, qual, "pointer, val, mask=, sem=, scope=", a, call, p) ||
        !sp_atomic_common(s, fname, op, p[0], p[3], p[4], call, &ptr, &elem) ||
        !sp_atomic_operand(s, fname, p[1], ptr, elem, "value", call, &val) ||
        !sp_want_mask(s, p[2], call, &mask))
        return false;
    if (mask >= 0) {
        if (!sp_atomic_operand(s, fname, sv_tile(mask), ptr, DTYPE_INT1, "mask", call, &mask))
            return false;
    }
    ir_type rt = *sp_slot_type(s, ptr);
    rt.dt = elem;
    int32_t dst = sp_slot(s, rt, NULL);
    sp_emit(s, IR_ATOMIC, op, dst, ptr, val, mask, 0, call);
    *out = sv_tile(dst);
    return true;
}

#define SP_ATOMIC_WRAPPER(fname, op)                                                \
    bool tl_##fname(spec *s, const sp_args *a, const ast_node *call, sval *out) \
    {                                                                               \
        return sp_atomic_rmw(s, "triton.language." #fname, op, a, call, out);       \
    }
SP_ATOMIC_WRAPPER(atomic_add, IR_ATOMIC_ADD)
SP_ATOMIC_WRAPPER(atomic_max, IR_ATOMIC_MAX)
SP_ATOMIC_WRAPPER(atomic_min, IR_ATOMIC_MIN)
SP_ATOMIC_WRAPPER(atomic_xchg, IR_ATOMIC_XCHG)
SP_ATOMIC_WRAPPER(atomic_and, IR_ATOMIC_AND)
SP_ATOMIC_WRAPPER(atomic_or, IR_ATOMIC_OR)
SP_ATOMIC_WRAPPER(atomic_xor, IR_ATOMIC_XOR)
#undef SP_ATOMIC_WRAPPER

bool tl_atomic_cas(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[5];
    int32_t ptr, cmp, val;
    dtype elem;
    if (!SP_BIND(s, "triton.language.atomic_cas", "pointer, cmp, val, sem=, scope=", a, call,
                 p) ||
        !sp_atomic_common(s, "tl.atomic_cas", IR_ATOMIC_CAS, p[0], p[3], p[4], call, &ptr,
                          &elem) ||
        !sp_atomic_operand(s, "tl.atomic_cas", p[1], ptr, elem, "cmp", call, &cmp) ||
        !sp_atomic_operand(s, "tl.atomic_cas", p[2], ptr, elem, "value", call, &val))
        return false;
    ir_type rt = *sp_slot_type(s, ptr);
    rt.dt = elem;
    int32_t dst = sp_slot(s, rt, NULL);
    int32_t pc = sp_emit(s, IR_ATOMIC, IR_ATOMIC_CAS, dst, ptr, cmp, -1, 0, call);
    s->code[pc].d = val;
    *out = sv_tile(dst);
    return true;
}
