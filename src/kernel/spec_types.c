/* spec_types.c - what a kernel can ask of types while it is specialized:
 * a dtype's attributes and query methods (x.dtype.primitive_bitwidth,
 * x.dtype.is_fp16(), tl.float32.is_floating(), p.dtype.element_ty, ...)
 * and a tile's type, x.type: the dtype itself for a scalar, as Triton's
 * tensor.type is, and for a tile a block type (an SV_TYPE) with
 * .element_ty, .scalar, .shape, .numel, .nbytes and the methods of
 * Triton 3.6's core.block_type.  Every answer is a compile-time constant;
 * a query method is an SV_METHOD whose result is already known (its c),
 * and calling it (sp_type_method_call) checks that it takes no
 * arguments. */
#define _POSIX_C_SOURCE 200809L
#include "spec_tl.h"

#include <string.h>

/* A method with no arguments whose result c is known now. */
static sval sp_known_method(const char *name, spec_const c)
{
    return (sval){.kind = SV_METHOD, .slot = -1, .name = name, .c = c};
}

static spec_const sp_bool_const(bool b)
{
    return (spec_const){.kind = SC_BOOL, .u.b = b};
}

static spec_const sp_str_const(const char *s)
{
    spec_const c = {.kind = SC_STR};
    c.u.str.s = s;
    c.u.str.len = strlen(s);
    return c;
}

/* Triton's dtype queries that compare the type's name: true for a dtype
 * of that name, false for every other, block types included (a block
 * type's name is "<shape, dtype>"). */
static const struct {
    const char *method;
    dtype dt;
} sp_is_name[] = {
    {"is_fp8e4nv", DTYPE_FP8E4NV}, {"is_fp8e5", DTYPE_FP8E5}, {"is_fp16", DTYPE_FP16},
    {"is_bf16", DTYPE_BF16}, {"is_fp32", DTYPE_FP32}, {"is_fp64", DTYPE_FP64},
    {"is_int1", DTYPE_INT1}, {"is_bool", DTYPE_INT1}, {"is_int8", DTYPE_INT8},
    {"is_int16", DTYPE_INT16}, {"is_int32", DTYPE_INT32}, {"is_int64", DTYPE_INT64},
    {"is_uint8", DTYPE_UINT8}, {"is_uint16", DTYPE_UINT16}, {"is_uint32", DTYPE_UINT32},
    {"is_uint64", DTYPE_UINT64},
};

/* The other name queries: the fp8 formats tritsim does not have (always
 * false here), and the families. */
static bool sp_dtype_query(dtype dt, const char *m, bool *res)
{
    for (size_t i = 0; i < sizeof sp_is_name / sizeof sp_is_name[0]; i++)
        if (!strcmp(m, sp_is_name[i].method)) {
            *res = dt == sp_is_name[i].dt;
            return true;
        }
    bool scalar = dt != DTYPE_INVALID && !dtype_is_ptr(dt);
    if (!strcmp(m, "is_fp8e4b8") || !strcmp(m, "is_fp8e4b15") || !strcmp(m, "is_fp8e5b16"))
        *res = false;
    else if (!strcmp(m, "is_fp8"))
        *res = scalar && dtype_is_fp8(dt);
    else if (!strcmp(m, "is_floating"))
        *res = scalar && dtype_is_float(dt);
    else if (!strcmp(m, "is_standard_floating"))
        *res = scalar && dtype_is_float(dt) && !dtype_is_fp8(dt);
    else if (!strcmp(m, "is_int_signed"))
        *res = scalar && dtype_is_signed(dt);
    else if (!strcmp(m, "is_int_unsigned"))
        *res = scalar && dtype_is_unsigned(dt);
    else if (!strcmp(m, "is_int"))
        *res = scalar && dtype_is_int(dt);
    else if (!strcmp(m, "is_ptr"))
        *res = dtype_is_ptr(dt);
    else if (!strcmp(m, "is_block") || !strcmp(m, "is_const"))
        *res = false;
    else
        return false;
    return true;
}

/* Triton's exponent_bias of a float dtype. */
static int sp_exponent_bias(dtype dt)
{
    switch (dt) {
    case DTYPE_FP8E4NV: return 7;
    case DTYPE_FP8E5: case DTYPE_FP16: return 15;
    case DTYPE_BF16: case DTYPE_FP32: return 127;
    case DTYPE_FP64: return 1023;
    default: return 0;
    }
}

static bool sp_no_attr(spec *s, const char *what, const char *attr, const ast_node *at)
{
    return sp_error(s, at, "%s has no attribute '%s' in a kernel (see doc/language.md)",
                    what, attr);
}

bool sp_dtype_attr(spec *s, dtype dt, const char *attr, const ast_node *at, sval *out)
{
    char what[64];
    snprintf(what, sizeof what, "the dtype %s", dtype_name(dt));
    bool is_ptr = dtype_is_ptr(dt), res;
    if (!strcmp(attr, "element_ty") && is_ptr) {
        *out = sv_const((spec_const){.kind = SC_DTYPE, .u.dt = dtype_elem(dt)});
        return true;
    }
    if (!strcmp(attr, "address_space") && is_ptr) {
        *out = sv_int(1);
        return true;
    }
    if (!strcmp(attr, "scalar")) {
        *out = sv_const((spec_const){.kind = SC_DTYPE, .u.dt = dt});
        return true;
    }
    if (!strcmp(attr, "name")) {
        *out = sv_const(sp_str_const(dtype_name(dt)));
        return true;
    }
    if (!strcmp(attr, "primitive_bitwidth")) {
        *out = sv_int(dtype_bits(dt));
        return true;
    }
    if (!strcmp(attr, "itemsize") && !is_ptr) {
        *out = sv_int(dtype_bits(dt) / 8);    /* Triton's: int1 is 0 */
        return true;
    }
    if (!strcmp(attr, "int_bitwidth") && !is_ptr && dtype_is_int(dt)) {
        *out = sv_int(dtype_bits(dt));
        return true;
    }
    if (!strcmp(attr, "fp_mantissa_width") && !is_ptr && dtype_is_float(dt)) {
        *out = sv_int(dtype_mantissa_bits(dt));
        return true;
    }
    if (!strcmp(attr, "exponent_bias") && !is_ptr && dtype_is_float(dt)) {
        *out = sv_int(sp_exponent_bias(dt));
        return true;
    }
    if (sp_dtype_query(dt, attr, &res)) {
        *out = sp_known_method(attr, sp_bool_const(res));
        return true;
    }
    if ((!strcmp(attr, "get_int_max_value") || !strcmp(attr, "get_int_min_value")) &&
        !is_ptr && dtype_is_int(dt)) {
        bool max = !strcmp(attr, "get_int_max_value");
        if (max && dt == DTYPE_UINT64)
            return sp_error(s, at, "uint64's largest value 2**64 - 1 does not fit tritsim's "
                            "64-bit signed constants");
        int64_t v = max ? (int64_t)dtype_int_max(dt) : dtype_int_min(dt);
        *out = sp_known_method(attr, (spec_const){.kind = SC_INT, .u.i = v});
        return true;
    }
    if (!strcmp(attr, "codegen_name") && !is_ptr) {
        *out = sp_known_method(attr, sp_str_const(dtype_tl_name(dt)));
        return true;
    }
    return sp_no_attr(s, what, attr, at);
}

/* x.type: a scalar's dtype, a tile's block type. */
bool sp_tile_type(spec *s, int32_t slot, sval *out)
{
    const ir_type *t = sp_slot_type(s, slot);
    if (t->ndim == 0)
        *out = sv_const((spec_const){.kind = SC_DTYPE, .u.dt = t->dt});
    else
        *out = (sval){.kind = SV_TYPE, .slot = slot};
    return true;
}

static spec_const sp_shape_const(spec *s, const ir_type *t)
{
    spec_const c = {.kind = SC_TUPLE};
    c.u.tuple.n = t->ndim;
    c.u.tuple.items = arena_alloc(s->a, (size_t)(t->ndim + 1) * sizeof *c.u.tuple.items);
    for (int i = 0; i < t->ndim; i++)
        c.u.tuple.items[i] = (spec_const){.kind = SC_INT, .u.i = t->shape[i]};
    return c;
}

bool sp_type_attr(spec *s, sval ty, const char *attr, const ast_node *at, sval *out)
{
    const ir_type *t = sp_slot_type(s, ty.slot);
    int64_t numel = ir_type_numel(t);
    bool res;
    if (!strcmp(attr, "element_ty") || !strcmp(attr, "scalar")) {
        *out = sv_const((spec_const){.kind = SC_DTYPE, .u.dt = t->dt});
        return true;
    }
    if (!strcmp(attr, "shape")) {
        *out = sv_const(sp_shape_const(s, t));
        return true;
    }
    if (!strcmp(attr, "numel")) {
        *out = sv_int(numel);
        return true;
    }
    if (!strcmp(attr, "nbytes") && !dtype_is_ptr(t->dt)) {
        *out = sv_int(numel * (dtype_bits(t->dt) / 8));
        return true;
    }
    if (!strcmp(attr, "is_block")) {
        *out = sp_known_method(attr, sp_bool_const(true));
        return true;
    }
    if (!strcmp(attr, "get_block_shapes")) {
        *out = sp_known_method(attr, sp_shape_const(s, t));
        return true;
    }
    if (sp_dtype_query(DTYPE_INVALID, attr, &res)) {
        *out = sp_known_method(attr, sp_bool_const(false));
        return true;
    }
    char what[96], ts[64];
    ir_type_str(t, ts, sizeof ts);
    snprintf(what, sizeof what, "the block type of %s", ts);
    return sp_no_attr(s, what, attr, at);
}

bool sp_type_method_call(spec *s, sval m, const sp_args *a, const ast_node *call, sval *out)
{
    if (a->argc || a->nkw)
        return sp_error(s, call, "%s() takes no arguments", m.name);
    *out = sv_const(m.c);
    return true;
}
