/* spec_math.c - tl.* arithmetic and math: tl.dot, tl.where, minimum and
 * maximum, cdiv, next_power_of_2, swizzle2d, the unary math functions
 * (exp, sqrt, ...), fma, umulhi, fdiv, div_rn, clamp. */
#define _POSIX_C_SOURCE 200809L
#include "spec_tl.h"

#include <math.h>
#include <string.h>

/* ---- arithmetic ------------------------------------------------------- */

/* tl.dot's operand shapes, as Triton 3.6 checks them: the same rank, at
 * least 2 ([M, K] @ [K, N]; leading dimensions are batches, one 2-D product
 * each), the same batch shape and K, and K no smaller than the NVIDIA
 * backend's minimum.  *rt gets the result's ndim and shape. */
static bool dot_shapes(spec *s, const ir_type *tx, const ir_type *ty, const ast_node *call,
                       ir_type *rt)
{
    char x[64], y[64];
    sp_shape_str(tx, x, sizeof x);
    sp_shape_str(ty, y, sizeof y);
    int nd = tx->ndim;
    if (nd < 2 || ty->ndim != nd) {
        const char *fix =
            tx->ndim < 2 || ty->ndim < 2 ? "for a product of vectors use tl.sum(x * y)" :
            "broadcast the 2-D operand along the batch, e.g. "
            "tl.broadcast_to(w[None, :, :], (B, K, N))";
        return sp_error(s, call, "tl.dot needs two tiles of the same rank, at least 2 "
                        "([M, K] @ [K, N], or batched [B, M, K] @ [B, K, N]), got %s @ %s; "
                        "%s", x, y, fix);
    }
    for (int i = 0; i < nd - 2; i++)
        if (tx->shape[i] != ty->shape[i])
            return sp_error(s, call, "tl.dot: the batch dimensions differ: %s @ %s; give "
                            "both operands the same batch shape ([B, M, K] @ [B, K, N])",
                            x, y);
    if (tx->shape[nd - 1] != ty->shape[nd - 2])
        return sp_error(s, call, "tl.dot: the inner dimensions differ: %s @ %s", x, y);
    /* Triton 3.6's NVIDIA backend (min_dot_size): K >= 32 for 8-bit
     * operands, 4 for 64-bit ones, 16 for the rest; any M and N. */
    int bits = dtype_bits(tx->dt);
    int64_t min_k = bits == 8 ? 32 : bits == 64 ? 4 : 16;
    if (tx->shape[nd - 1] < min_k)
        return sp_error(s, call, "tl.dot needs K >= %lld for %s operands, as Triton on an "
                        "NVIDIA GPU (\"Input shapes should have M >= 1, N >= 1 and K >= "
                        "%lld\"): got %s @ %s; make the K block larger", (long long)min_k,
                        dtype_name(tx->dt), (long long)min_k, x, y);
    rt->ndim = (int8_t)nd;
    for (int i = 0; i < nd - 2; i++)
        rt->shape[i] = tx->shape[i];
    rt->shape[nd - 2] = tx->shape[nd - 2];
    rt->shape[nd - 1] = ty->shape[nd - 1];
    return true;
}

bool tl_dot(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[7];
    int32_t x, y, acc = -1;
    if (!SP_BIND(s, "triton.language.dot",
                      "input, other, acc=, input_precision=, allow_tf32=, "
                      "max_num_imprecise_acc=, out_dtype=", a, call, p) ||
        !sp_want_tile(s, p[0], call, "input", &x) || !sp_want_tile(s, p[1], call, "other", &y))
        return false;
    const ir_type *tx = sp_slot_type(s, x), *ty = sp_slot_type(s, y);
    ir_type shape = {0};
    if (!dot_shapes(s, tx, ty, call, &shape))
        return false;
    dtype in = tx->dt;
    /* Triton takes any two fp8 operands (fp8e4nv with fp8e5 too) */
    bool fp8 = dtype_is_fp8(tx->dt) && dtype_is_fp8(ty->dt);
    if (ty->dt != in && !fp8)
        return sp_error(s, call, "tl.dot: both operands must have the same dtype (%s and %s); "
                        "cast one with .to()", dtype_name(tx->dt), dtype_name(ty->dt));
    dtype res;
    if (in == DTYPE_INT8)
        res = DTYPE_INT32;
    else if (fp8 || in == DTYPE_FP16 || in == DTYPE_BF16 || in == DTYPE_FP32 ||
             in == DTYPE_FP64)
        res = in == DTYPE_FP64 ? DTYPE_FP64 : DTYPE_FP32;
    else
        return sp_error(s, call, "tl.dot does not support %s operands (use fp8e4nv, fp8e5, "
                        "fp16, bf16, fp32 or int8)", dtype_name(in));
    if (!sv_is_none(p[6])) {
        dtype od = DTYPE_INVALID;
        if (!sp_want_dtype(s, p[6], call, "out_dtype", &od))
            return false;
        if (od == DTYPE_FP16 && (in == DTYPE_FP16 || fp8))
            res = DTYPE_FP16;
        else if (od != res)
            return sp_error(s, call, "tl.dot: out_dtype %s is not possible for %s inputs",
                            dtype_name(od), dtype_name(in));
    }
    /* Precision of fp32 inputs: Triton's default is tf32, like the GPU. */
    ir_precision prec = IR_PREC_TF32;
    if (!sv_is_none(p[4])) {
        if (p[4].kind != SV_CONST || p[4].c.kind != SC_BOOL)
            return sp_error(s, call, "allow_tf32 must be True or False");
        prec = p[4].c.u.b ? IR_PREC_TF32 : IR_PREC_IEEE;
    }
    if (!sv_is_none(p[3])) {
        const char *ip = "";
        if (!sp_want_str(s, p[3], call, "input_precision", &ip))
            return false;
        if (!strcmp(ip, "ieee"))
            prec = IR_PREC_IEEE;
        else if (!strcmp(ip, "tf32"))
            prec = IR_PREC_TF32;
        else if (!strcmp(ip, "tf32x3"))
            prec = IR_PREC_TF32X3;
        else
            return sp_error(s, call, "input_precision must be \"ieee\", \"tf32\" or "
                            "\"tf32x3\", not \"%s\"", ip);
    }
    if (in != DTYPE_FP32)
        prec = IR_PREC_IEEE;
    ir_type rt = sp_type(res, shape.ndim, shape.shape);
    if (!sv_is_none(p[2])) {
        if (!sp_want_tile(s, p[2], call, "acc", &acc))
            return false;
        const ir_type *ta = sp_slot_type(s, acc);
        if (ta->ndim != rt.ndim ||
            memcmp(ta->shape, rt.shape, (size_t)rt.ndim * sizeof rt.shape[0])) {
            char want[64], got[64];
            sp_shape_str(&rt, want, sizeof want);
            sp_shape_str(ta, got, sizeof got);
            return sp_error(s, call, "tl.dot: acc must have shape %s, the product's, not %s",
                            want, got);
        }
        /* Triton asserts acc's dtype is out_dtype (float32 unless given)
         * and the product's: it converts nothing */
        dtype want = sv_is_none(p[6]) ? DTYPE_FP32 : res;
        if (ta->dt != res)
            return sp_error(s, call, "tl.dot: acc is %s but the product of %s operands is %s, "
                            "and Triton converts nothing: make acc %s, or cast it with .to()",
                            dtype_name(ta->dt), dtype_name(in), dtype_name(res),
                            dtype_name(res));
        if (ta->dt != want)
            return sp_error(s, call, "tl.dot: acc is %s but out_dtype is float32 (the "
                            "default); Triton requires the two to be the same: pass "
                            "out_dtype=tl.%s", dtype_name(ta->dt), dtype_tl_name(res));
    }
    *out = sp_new_tile(s, rt, IR_DOT, 0, x, y, acc, prec, call);
    return true;
}

bool tl_where(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[3];
    int32_t c;
    if (!SP_BIND(s, "triton.language.where", "condition, x, y", a, call, p) ||
        !sp_want_tile(s, p[0], call, "condition", &c))
        return false;
    c = sp_cast(s, c, DTYPE_INT1, call);
    dtype_operand ox = {0}, oy = {0};
    sval v[2] = {p[1], p[2]};
    dtype_operand *o[2] = {&ox, &oy};
    for (int i = 0; i < 2; i++) {
        if (v[i].kind == SV_TILE) {
            o[i]->type = sp_slot_type(s, v[i].slot)->dt;
        } else if (v[i].kind == SV_CONST && (v[i].c.kind == SC_INT || v[i].c.kind == SC_FLOAT ||
                                             v[i].c.kind == SC_BOOL)) {
            o[i]->is_scalar = true;
            o[i]->type = sp_const_dtype(&v[i].c);
            if (v[i].c.kind == SC_FLOAT)
                o[i]->value.f = v[i].c.u.f;
            else
                o[i]->value.i = v[i].c.kind == SC_BOOL ? v[i].c.u.b : v[i].c.u.i;
        } else {
            char buf[128];
            return sp_error(s, call, "tl.where's values must be tiles or numbers, not %s",
                            sp_describe(s, v[i], buf, sizeof buf));
        }
    }
    dtype_binop_types ty;
    char err[256];
    if (!dtype_binop(DTYPE_OP_WHERE, ox, oy, &ty, err, sizeof err))
        return sp_error(s, call, "tl.where: %s", err);
    int32_t x = v[0].kind == SV_CONST ? sp_const_slot(s, &v[0].c, ty.result, call)
                                      : sp_cast(s, v[0].slot, ty.result, call);
    int32_t y = v[1].kind == SV_CONST ? sp_const_slot(s, &v[1].c, ty.result, call)
                                      : sp_cast(s, v[1].slot, ty.result, call);
    ir_type shape = *sp_slot_type(s, c);
    if (!sp_shapes_join(s, &shape, sp_slot_type(s, x), &shape, call, "tl.where") ||
        !sp_shapes_join(s, &shape, sp_slot_type(s, y), &shape, call, "tl.where"))
        return false;
    c = sp_broadcast_to(s, c, &shape, call);
    x = sp_broadcast_to(s, x, &shape, call);
    y = sp_broadcast_to(s, y, &shape, call);
    shape.dt = ty.result;
    int32_t dst = sp_slot(s, shape, NULL);
    if (dtype_is_ptr(ty.result))
        s->slots[dst].ptr_arg = s->slots[x].ptr_arg == s->slots[y].ptr_arg
                                    ? s->slots[x].ptr_arg : -1;
    sp_emit(s, IR_WHERE, 0, dst, c, x, y, 0, call);
    *out = sv_tile(dst);
    return true;
}

/* propagate_nan: tl.PropagateNan.ALL or .NONE (sp_module_attr makes them
 * the strings "ALL" and "NONE"); None is NONE. */
static bool sp_propagate_nan(spec *s, sval v, const ast_node *at, bool *all)
{
    *all = false;
    if (sv_is_none(v))
        return true;
    if (v.kind == SV_CONST && v.c.kind == SC_STR &&
        (!strcmp(v.c.u.str.s, "ALL") || !strcmp(v.c.u.str.s, "NONE"))) {
        *all = !strcmp(v.c.u.str.s, "ALL");
        return true;
    }
    char buf[128];
    return sp_error(s, at, "propagate_nan must be tl.PropagateNan.ALL or "
                    "tl.PropagateNan.NONE, not %s", sp_describe(s, v, buf, sizeof buf));
}

static bool sp_minmax(spec *s, const char *qual, bool is_max, const sp_args *a,
                      const ast_node *call, sval *out)
{
    sval p[3];
    if (!SP_BIND(s, qual, "x, y, propagate_nan=", a, call, p))
        return false;
    if (p[0].kind == SV_CONST && p[1].kind == SV_CONST) {
        sval lt;
        if (!sp_binop(s, AST_OP_LT, p[0], p[1], call, &lt))
            return false;
        *out = (lt.c.u.b == is_max) ? p[1] : p[0];
        return true;
    }
    bool nan_all = false;
    if (!sp_propagate_nan(s, p[2], call, &nan_all))
        return false;
    dtype_operand ox = {0}, oy = {0};
    for (int i = 0; i < 2; i++) {
        dtype_operand *o = i ? &oy : &ox;
        if (p[i].kind == SV_TILE) {
            o->type = sp_slot_type(s, p[i].slot)->dt;
        } else if (p[i].kind == SV_CONST) {
            o->is_scalar = true;
            o->type = sp_const_dtype(&p[i].c);
            if (p[i].c.kind == SC_FLOAT)
                o->value.f = p[i].c.u.f;
            else
                o->value.i = p[i].c.kind == SC_BOOL ? p[i].c.u.b : p[i].c.u.i;
        }
    }
    dtype_binop_types ty;
    char err[256];
    if (!dtype_binop(is_max ? DTYPE_OP_MAXIMUM : DTYPE_OP_MINIMUM, ox, oy, &ty, err, sizeof err))
        return sp_error(s, call, "%s", err);
    int32_t x = p[0].kind == SV_CONST ? sp_const_slot(s, &p[0].c, ty.lhs, call)
                                      : sp_cast(s, p[0].slot, ty.lhs, call);
    int32_t y = p[1].kind == SV_CONST ? sp_const_slot(s, &p[1].c, ty.rhs, call)
                                      : sp_cast(s, p[1].slot, ty.rhs, call);
    ir_type shape;
    if (!sp_shapes_join(s, sp_slot_type(s, x), sp_slot_type(s, y), &shape, call, qual))
        return false;
    x = sp_broadcast_to(s, x, &shape, call);
    y = sp_broadcast_to(s, y, &shape, call);
    shape.dt = ty.result;
    int sub = is_max ? (nan_all ? IR_MAX_NAN : IR_MAX) : (nan_all ? IR_MIN_NAN : IR_MIN);
    *out = sp_new_tile(s, shape, IR_BINARY, sub, x, y, -1, 0, call);
    return true;
}

bool tl_minimum(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    return sp_minmax(s, "triton.language.minimum", false, a, call, out);
}

bool tl_maximum(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    return sp_minmax(s, "triton.language.maximum", true, a, call, out);
}

bool tl_cdiv(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[2], t;
    /* (x + div - 1) // div, on constants or tiles alike */
    return SP_BIND(s, "triton.language.cdiv", "x, div", a, call, p) &&
           sp_binop(s, AST_OP_ADD, p[0], p[1], call, &t) &&
           sp_binop(s, AST_OP_SUB, t, sv_int(1), call, &t) &&
           sp_binop(s, AST_OP_FLOORDIV, t, p[1], call, out);
}

bool triton_next_power_of_2(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[1];
    int64_t n;
    if (!SP_BIND(s, "triton.next_power_of_2", "n", a, call, p) ||
        !sp_const_int(s, p[0], call, "triton.next_power_of_2's argument", &n))
        return false;
    int64_t r = 1;
    while (r < n && r < ((int64_t)1 << 62))
        r <<= 1;
    *out = sv_int(r);
    return true;
}

/* tl.swizzle2d(i, j, size_i, size_j, size_g): the grouped ordering of the
 * lecture, computed with ordinary operations so it works on constants and
 * tiles alike. */
bool tl_swizzle2d(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[5], ij, size_gj, group_id, off_i, size_g, rest, new_i, new_j, t;
    if (!SP_BIND(s, "triton.language.swizzle2d", "i, j, size_i, size_j, size_g", a, call, p))
        return false;
    bool ok = sp_binop(s, AST_OP_MUL, p[0], p[3], call, &t) &&
              sp_binop(s, AST_OP_ADD, t, p[1], call, &ij) &&
              sp_binop(s, AST_OP_MUL, p[4], p[3], call, &size_gj) &&
              sp_binop(s, AST_OP_FLOORDIV, ij, size_gj, call, &group_id) &&
              sp_binop(s, AST_OP_MUL, group_id, p[4], call, &off_i) &&
              sp_binop(s, AST_OP_SUB, p[2], off_i, call, &t);
    if (!ok)
        return false;
    sp_args mm = {.argc = 2, .argv = (sval[]){t, p[4]}};
    ok = tl_minimum(s, &mm, call, &size_g) &&
         sp_binop(s, AST_OP_MOD, ij, size_gj, call, &rest) &&
         sp_binop(s, AST_OP_MOD, rest, size_g, call, &t) &&
         sp_binop(s, AST_OP_ADD, off_i, t, call, &new_i) &&
         sp_binop(s, AST_OP_FLOORDIV, rest, size_g, call, &new_j);
    if (!ok)
        return false;
    sval r = {.kind = SV_TUPLE, .n = 2, .slot = -1};
    r.items = arena_alloc(s->a, 2 * sizeof *r.items);
    r.items[0] = new_i;
    r.items[1] = new_j;
    *out = r;
    return true;
}

/* ---- math ---------------------------------------------------------------- */

/* The dtypes each function accepts, as Triton's math.py checks them
 * (_check_dtype): fp32 and fp64, sqrt_rn fp32 only; abs takes any number
 * (unsigned: unchanged); sigmoid is 1 / (1 + exp(-x)), so exp's rule.
 * Python numbers become tiles of their own dtype first (2.0 is fp32). */
enum { SP_F32_F64, SP_F32, SP_ANY };

static const struct { const char *name; ir_math fn; int accepts; } sp_math_fns[] = {
    {"exp", IR_EXP, SP_F32_F64}, {"exp2", IR_EXP2, SP_F32_F64}, {"log", IR_LOG, SP_F32_F64},
    {"log2", IR_LOG2, SP_F32_F64}, {"sqrt", IR_SQRT, SP_F32_F64},
    {"sqrt_rn", IR_SQRT_RN, SP_F32}, {"rsqrt", IR_RSQRT, SP_F32_F64},
    {"sin", IR_SIN, SP_F32_F64}, {"cos", IR_COS, SP_F32_F64}, {"abs", IR_ABS, SP_ANY},
    {"floor", IR_FLOOR, SP_F32_F64}, {"ceil", IR_CEIL, SP_F32_F64},
    {"erf", IR_ERF, SP_F32_F64}, {"sigmoid", IR_SIGMOID, SP_F32_F64},
};

static bool sp_math_unary(spec *s, const char *qual, const sp_args *a, const ast_node *call,
                          sval *out)
{
    const char *name = strrchr(qual, '.') + 1;
    size_t i = 0;
    while (strcmp(sp_math_fns[i].name, name))
        i++;
    sval p[1];
    int32_t x;
    if (!SP_BIND(s, qual, "x", a, call, p))
        return false;
    if (p[0].kind == SV_CONST && sp_math_fns[i].fn == IR_ABS &&
        (p[0].c.kind == SC_INT || p[0].c.kind == SC_FLOAT)) {
        *out = p[0];
        if (p[0].c.kind == SC_INT)
            out->c.u.i = p[0].c.u.i < 0 ? -p[0].c.u.i : p[0].c.u.i;
        else
            out->c.u.f = fabs(p[0].c.u.f);
        return true;
    }
    if (!sp_want_tile(s, p[0], call, "x", &x))
        return false;
    ir_type t = *sp_slot_type(s, x);
    int acc = sp_math_fns[i].accepts;
    if (acc == SP_ANY ? dtype_is_ptr(t.dt) || t.dt == DTYPE_INT1
                      : t.dt != DTYPE_FP32 && (acc == SP_F32 || t.dt != DTYPE_FP64))
        return sp_error(s, call, "tl.%s expects %s, not %s (as in Triton; convert with "
                        ".to(tl.float32))", name,
                        acc == SP_ANY ? "a number tile" : acc == SP_F32 ? "fp32"
                                                                         : "fp32 or fp64",
                        dtype_name(t.dt));
    *out = sp_new_tile(s, t, IR_MATH, sp_math_fns[i].fn, x, -1, -1, 0, call);
    return true;
}

#define SP_MATH_WRAPPER(fname)                                                      \
    bool tl_##fname(spec *s, const sp_args *a, const ast_node *call, sval *out) \
    {                                                                               \
        return sp_math_unary(s, "triton.language." #fname, a, call, out);           \
    }
SP_MATH_WRAPPER(exp)
SP_MATH_WRAPPER(exp2)
SP_MATH_WRAPPER(log)
SP_MATH_WRAPPER(log2)
SP_MATH_WRAPPER(sqrt)
SP_MATH_WRAPPER(sqrt_rn)
SP_MATH_WRAPPER(rsqrt)
SP_MATH_WRAPPER(sin)
SP_MATH_WRAPPER(cos)
SP_MATH_WRAPPER(abs)
SP_MATH_WRAPPER(floor)
SP_MATH_WRAPPER(ceil)
SP_MATH_WRAPPER(erf)
SP_MATH_WRAPPER(sigmoid)
#undef SP_MATH_WRAPPER

/* Triton's math functions check the dtypes of their tensor arguments
 * (math.py's _check_dtype) before anything is converted. */
static bool sp_check_dtypes(spec *s, const char *fname, const sval *v, int n,
                            const dtype *ok, int nok, const ast_node *at)
{
    for (int i = 0; i < n; i++) {
        if (v[i].kind != SV_TILE)
            continue;
        dtype dt = sp_slot_type(s, v[i].slot)->dt;
        bool good = false;
        for (int k = 0; k < nok; k++)
            good = good || ok[k] == dt;
        if (!good) {
            char list[128] = "";
            for (int k = 0; k < nok; k++)
                snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s",
                         k ? ", " : "", dtype_name(ok[k]));
            return sp_error(s, at, "%s expects %s tiles, not %s (as in Triton)", fname, list,
                            dtype_name(dt));
        }
    }
    return true;
}

/* Turn the operands into tiles (Python numbers take their own dtype, as
 * Triton's _to_tensor does), give them their common type
 * (binary_op_type_legalization) and broadcast them to one shape. */
static bool sp_legalize(spec *s, const char *fname, const sval *v, int n, int32_t *slot,
                        ir_type *shape, const ast_node *at)
{
    for (int i = 0; i < n; i++)
        if (!sp_want_tile(s, v[i], at, "an operand", &slot[i]))
            return false;
    dtype dt = sp_slot_type(s, slot[0])->dt;
    for (int i = 1; i < n; i++) {
        dtype_operand x = {.type = dt}, y = {.type = sp_slot_type(s, slot[i])->dt};
        dtype_binop_types ty;
        char err[256];
        if (!dtype_binop(DTYPE_OP_ADD, x, y, &ty, err, sizeof err))
            return sp_error(s, at, "%s: %s", fname, err);
        dt = ty.result;
    }
    *shape = *sp_slot_type(s, slot[0]);
    for (int i = 1; i < n; i++) {
        ir_type prev = *shape;
        if (!sp_shapes_join(s, &prev, sp_slot_type(s, slot[i]), shape, at, fname))
            return false;
    }
    shape->dt = dt;
    for (int i = 0; i < n; i++)
        slot[i] = sp_broadcast_to(s, sp_cast(s, slot[i], dt, at), shape, at);
    return true;
}

bool tl_fma(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[3];
    int32_t x[3];
    ir_type t;
    if (!SP_BIND(s, "triton.language.fma", "x, y, z", a, call, p) ||
        !sp_legalize(s, "tl.fma", p, 3, x, &t, call))
        return false;
    if (!dtype_is_float(t.dt))
        return sp_error(s, call, "tl.fma needs float operands, not %s", dtype_name(t.dt));
    *out = sp_new_tile(s, t, IR_MATH, IR_FMA, x[0], x[1], x[2], 0, call);
    return true;
}

bool tl_umulhi(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    static const dtype ok[] = {DTYPE_INT32, DTYPE_INT64, DTYPE_UINT32, DTYPE_UINT64};
    sval p[2];
    int32_t x[2];
    ir_type t;
    if (!SP_BIND(s, "triton.language.umulhi", "x, y", a, call, p) ||
        !sp_check_dtypes(s, "tl.umulhi", p, 2, ok, 4, call) ||
        !sp_legalize(s, "tl.umulhi", p, 2, x, &t, call))
        return false;
    if (!dtype_is_int(t.dt) || dtype_bits(t.dt) < 32)
        return sp_error(s, call, "tl.umulhi needs 32- or 64-bit integers, not %s",
                        dtype_name(t.dt));
    *out = sp_new_tile(s, t, IR_MATH, IR_UMULHI, x[0], x[1], -1, 0, call);
    return true;
}

/* x / y on floats: fdiv (the fast division; exact on the CPU, whatever
 * ieee_rounding says) and div_rn (fp32, rounded to nearest). */
bool sp_float_div(spec *s, const char *fname, const sval *p, bool rn,
                  const ast_node *call, sval *out)
{
    static const dtype ok[] = {DTYPE_FP32};
    int32_t x[2];
    ir_type t;
    if (rn && !sp_check_dtypes(s, fname, p, 2, ok, 1, call))
        return false;
    for (int i = 0; i < 2; i++)
        if (p[i].kind == SV_TILE && !dtype_is_float(sp_slot_type(s, p[i].slot)->dt))
            return sp_error(s, call, "both operands of %s must be floats, not %s", fname,
                            dtype_name(sp_slot_type(s, p[i].slot)->dt));
    if (!sp_legalize(s, fname, p, 2, x, &t, call))
        return false;
    if (!dtype_is_float(t.dt))
        return sp_error(s, call, "both operands of %s must be floats", fname);
    *out = sp_new_tile(s, t, IR_BINARY, rn ? IR_FDIV_RN : IR_DIV, x[0], x[1], -1, 0, call);
    return true;
}

bool tl_fdiv(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[3];
    return SP_BIND(s, "triton.language.fdiv", "x, y, ieee_rounding=", a, call, p) &&
           sp_float_div(s, "tl.fdiv", p, false, call, out);
}

bool tl_div_rn(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[2];
    return SP_BIND(s, "triton.language.div_rn", "x, y", a, call, p) &&
           sp_float_div(s, "tl.div_rn", p, true, call, out);
}

/* tl.clamp(x, min, max, propagate_nan): floats only; bf16 works in fp32;
 * min(max(x, lo), hi), so with propagate_nan=NONE a NaN x gives lo. */
bool tl_clamp(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[4], lo;
    bool all;
    if (!SP_BIND(s, "triton.language.clamp", "x, min, max, propagate_nan=", a, call, p) ||
        !sp_propagate_nan(s, p[3], call, &all))
        return false;
    int32_t x[3];
    ir_type t;
    if (!sp_legalize(s, "tl.clamp", p, 3, x, &t, call))
        return false;
    if (!dtype_is_float(t.dt))
        return sp_error(s, call, "tl.clamp supports floats only, not %s", dtype_name(t.dt));
    if (t.dt == DTYPE_BF16) {
        for (int i = 0; i < 3; i++)
            x[i] = sp_cast(s, x[i], DTYPE_FP32, call);
        t.dt = DTYPE_FP32;
    }
    lo = sp_new_tile(s, t, IR_BINARY, all ? IR_MAX_NAN : IR_MAX, x[0], x[1], -1, 0, call);
    *out = sp_new_tile(s, t, IR_BINARY, all ? IR_MIN_NAN : IR_MIN, lo.slot, x[2], -1, 0, call);
    return true;
}
