/* spec_dotscaled.c - tl.dot_scaled: the product of two blocks in the OCP
 * microscaling formats, lowered to the specializer's own tl.* calls (so
 * every backend runs it as it runs them: no opcode of its own).
 *
 * As Triton 3.6 does on GPUs without microscaled MMA (an H100 among them),
 * each operand is decoded to ordinary floats first, multiplied by its
 * scales, and the product is a plain dot with float32 accumulation:
 *   - e4m3 / e5m2: uint8 (or fp8) tiles, bitcast to fp8e4nv / fp8e5;
 *   - e2m1: two 4-bit values per uint8, the first in the low bits, packed
 *     along K (k_pack, the default) or along M (lhs) / N (rhs);
 *   - bf16 / fp16: the tile as it is;
 *   - scales: uint8 e8m0 exponents, one per 32 elements along K (lhs
 *     [M, K/32], rhs [N, K/32], not transposed): 2^(s - 127), NaN for 255;
 *     or, for nvfp4, float8e4nv values, one per 16 elements along K.
 * Triton decodes to bf16, which holds every e4m3, e5m2 and e2m1 value and
 * every power-of-two scale exactly; decoding to float32 gives the same
 * numbers, and the float32 products of such values are exact, so results
 * differ from the GPU's at most by the order of the sums. */
#define _POSIX_C_SOURCE 200809L
#include "spec_tl.h"

#include <math.h>
#include <string.h>

typedef struct ds {
    spec *s;
    const ast_node *at;
} ds;

static bool ds_call(ds *d, const char *fn, int argc, const sval *argv, int nkw,
                    const char *const *kwn, const sval *kwv, sval *out)
{
    sp_args a = {argc, argv, nkw, kwn, kwv};
    return sp_call_builtin(d->s, fn, &a, d->at, out);
}

static bool ds_bin(ds *d, ast_op op, sval a, sval b, sval *out)
{
    return sp_binop(d->s, op, a, b, d->at, out);
}

static sval ds_dtype(dtype dt)
{
    return sv_const((spec_const){.kind = SC_DTYPE, .u.dt = dt});
}

static sval ds_float(double v)
{
    return sv_const((spec_const){.kind = SC_FLOAT, .u.f = v});
}

/* x.to(dt) or x.to(dt, bitcast=True) */
static bool ds_to(ds *d, sval x, dtype dt, bool bitcast, sval *out)
{
    sval m;
    if (!sp_tile_attr(d->s, x, "to", d->at, &m))
        return false;
    sval argv[1] = {ds_dtype(dt)};
    const char *kwn[1] = {"bitcast"};
    sval kwv[1] = {sv_const((spec_const){.kind = SC_BOOL, .u.b = true})};
    sp_args a = {1, argv, bitcast ? 1 : 0, kwn, kwv};
    return sp_call_method(d->s, m, &a, d->at, out);
}

static bool ds_where(ds *d, sval c, sval x, sval y, sval *out)
{
    sval argv[3] = {c, x, y};
    return ds_call(d, "triton.language.where", 3, argv, 0, NULL, NULL, out);
}

static bool ds_reshape(ds *d, sval x, int n, const int32_t *shape, sval *out)
{
    sval args[IR_MAX_DIM + 1];
    args[0] = x;
    for (int i = 0; i < n; i++)
        args[i + 1] = sv_int(shape[i]);
    return ds_call(d, "triton.language.reshape", n + 1, args, 0, NULL, NULL, out);
}

static const ir_type *ds_type(ds *d, sval x)
{
    return sp_slot_type(d->s, x.slot);
}

/* One e2m1 code (0..15, an int32 tile) as float32: sign, two exponent
 * bits, one mantissa bit; 0, 0.5, 1, 1.5, 2, 3, 4, 6 and their negatives. */
static bool ds_e2m1(ds *d, sval v, sval *out)
{
    sval e, m, sbit, t, mag, two, four, c;
    return ds_bin(d, AST_OP_RSHIFT, v, sv_int(1), &t) &&
           ds_bin(d, AST_OP_BITAND, t, sv_int(3), &e) &&
           ds_bin(d, AST_OP_BITAND, v, sv_int(1), &m) &&
           ds_bin(d, AST_OP_RSHIFT, v, sv_int(3), &sbit) &&
           ds_to(d, m, DTYPE_FP32, false, &m) &&
           /* e == 0: m / 2 (subnormal); else (1 + m / 2) * 2^(e - 1) */
           ds_bin(d, AST_OP_MUL, m, ds_float(0.5), &m) &&
           ds_bin(d, AST_OP_ADD, m, ds_float(1.0), &t) &&
           ds_bin(d, AST_OP_EQ, e, sv_int(3), &c) &&
           ds_where(d, c, ds_float(4.0), ds_float(1.0), &four) &&
           ds_bin(d, AST_OP_EQ, e, sv_int(2), &c) &&
           ds_where(d, c, ds_float(2.0), four, &two) &&
           ds_bin(d, AST_OP_MUL, t, two, &t) &&
           ds_bin(d, AST_OP_EQ, e, sv_int(0), &c) &&
           ds_where(d, c, m, t, &mag) &&
           ds_bin(d, AST_OP_EQ, sbit, sv_int(1), &c) &&
           ds_bin(d, AST_OP_SUB, ds_float(0.0), mag, &t) &&
           ds_where(d, c, t, mag, out);
}

/* A packed e2m1 tile [R, C] (uint8) as float32: along axis 1 ([R, 2C],
 * the first value in the low bits) or, with along_rows, axis 0 ([2R, C]). */
static bool ds_unpack_e2m1(ds *d, sval x, bool along_rows, sval *out)
{
    const ir_type *t = ds_type(d, x);
    if (t->ndim != 2)
        return sp_error(d->s, d->at, "tl.dot_scaled: an e2m1 operand must be a 2-D uint8 "
                        "tile");
    int32_t r = t->shape[0], c = t->shape[1];
    sval v, lo, hi, j;
    if (!ds_to(d, x, DTYPE_INT32, false, &v) ||
        !ds_bin(d, AST_OP_BITAND, v, sv_int(15), &lo) ||
        !ds_bin(d, AST_OP_RSHIFT, v, sv_int(4), &hi) ||
        !ds_bin(d, AST_OP_BITAND, hi, sv_int(15), &hi) ||
        !ds_e2m1(d, lo, &lo) || !ds_e2m1(d, hi, &hi))
        return false;
    sval jv[2] = {lo, hi};
    if (!ds_call(d, "triton.language.join", 2, jv, 0, NULL, NULL, &j))   /* [R, C, 2] */
        return false;
    if (!along_rows)
        return ds_reshape(d, j, 2, (int32_t[]){r, 2 * c}, out);
    sval p;
    sval pargs[4] = {j, sv_int(0), sv_int(2), sv_int(1)};
    return ds_call(d, "triton.language.permute", 4, pargs, 0, NULL, NULL, &p) &&  /* [R, 2, C] */
           ds_reshape(d, p, 2, (int32_t[]){2 * r, c}, out);
}

/* Operand x in format fmt as float32 [rows, K] or [K, cols]. */
static bool ds_decode(ds *d, sval x, const char *fmt, bool pack_k, bool is_lhs, sval *out)
{
    const ir_type *t = ds_type(d, x);
    if (!strcmp(fmt, "e4m3") || !strcmp(fmt, "e5m2")) {
        dtype f8 = fmt[1] == '4' ? DTYPE_FP8E4NV : DTYPE_FP8E5;
        if (t->dt == DTYPE_UINT8 || t->dt == DTYPE_INT8) {
            if (!ds_to(d, x, f8, true, &x))
                return false;
        } else if (t->dt != f8) {
            return sp_error(d->s, d->at, "tl.dot_scaled: a %s operand must be a uint8 or %s "
                            "tile, not %s", fmt, dtype_name(f8), dtype_name(t->dt));
        }
        return ds_to(d, x, DTYPE_FP32, false, out);
    }
    if (!strcmp(fmt, "bf16") || !strcmp(fmt, "fp16")) {
        dtype want = fmt[0] == 'b' ? DTYPE_BF16 : DTYPE_FP16;
        if (t->dt != want)
            return sp_error(d->s, d->at, "tl.dot_scaled: a %s operand must be a %s tile, not "
                            "%s", fmt, dtype_name(want), dtype_name(t->dt));
        return ds_to(d, x, DTYPE_FP32, false, out);
    }
    if (!strcmp(fmt, "e2m1")) {
        if (t->dt != DTYPE_UINT8 && t->dt != DTYPE_INT8)
            return sp_error(d->s, d->at, "tl.dot_scaled: an e2m1 operand holds two values per "
                            "uint8; it must be a uint8 tile, not %s", dtype_name(t->dt));
        /* lhs [M, K/2] packs along K = its axis 1; rhs [K/2, N] along axis 0 */
        bool rows = is_lhs ? !pack_k : pack_k;
        return ds_unpack_e2m1(d, x, rows, out);
    }
    return sp_error(d->s, d->at, "tl.dot_scaled: unknown format '%s' (e2m1, e4m3, e5m2, bf16 "
                    "or fp16)", fmt);
}

/* x [R, K] (float32) times its scales: [R, K/32] uint8 e8m0 exponents
 * (the MX formats), or [R, K/16] fp8 e4m3 values (NVIDIA's nvfp4, whose
 * scales are e4m3 numbers, one per 16 values along K). */
static bool ds_apply_scale(ds *d, sval x, sval scale, sval *out)
{
    const ir_type *t = ds_type(d, x), *st = ds_type(d, scale);
    int32_t r = t->shape[0], k = t->shape[1];
    bool e4m3 = st->dt == DTYPE_FP8E4NV;
    int32_t g = e4m3 ? 16 : 32;
    if (!e4m3 && st->dt != DTYPE_UINT8 && st->dt != DTYPE_INT8)
        return sp_error(d->s, d->at, "tl.dot_scaled: scales are e8m0 exponents in a uint8 "
                        "tile or e4m3 values in a float8e4nv tile, not %s",
                        dtype_name(st->dt));
    if (k % g || st->ndim != 2 || st->shape[0] != r || st->shape[1] != k / g)
        return sp_error(d->s, d->at, "tl.dot_scaled: the %s scales of an operand of %d x %d "
                        "values must be %d x %d (one per %d along K)", e4m3 ? "e4m3" : "e8m0",
                        (int)r, (int)k, (int)r, (int)(k / g), (int)g);
    sval s32, bits, f, c, x3, f3, p;
    if (e4m3) {
        if (!ds_to(d, scale, DTYPE_FP32, false, &f))
            return false;
    } else if (!ds_to(d, scale, DTYPE_INT32, false, &s32) ||
               !ds_bin(d, AST_OP_BITAND, s32, sv_int(255), &s32) ||
               !ds_bin(d, AST_OP_LSHIFT, s32, sv_int(23), &bits) ||
               !ds_to(d, bits, DTYPE_FP32, true, &f) ||
               /* e8m0: 0 is 2^-127 (a float32 subnormal), 255 is NaN */
               !ds_bin(d, AST_OP_EQ, s32, sv_int(0), &c) ||
               !ds_where(d, c, ds_float(ldexp(1.0, -127)), f, &f) ||
               !ds_bin(d, AST_OP_EQ, s32, sv_int(255), &c) ||
               !ds_where(d, c, ds_float(NAN), f, &f)) {
        return false;
    }
    if (!ds_reshape(d, x, 3, (int32_t[]){r, k / g, g}, &x3) ||
        !ds_reshape(d, f, 3, (int32_t[]){r, k / g, 1}, &f3) ||
        !ds_bin(d, AST_OP_MUL, x3, f3, &p))
        return false;
    return ds_reshape(d, p, 2, (int32_t[]){r, k}, out);
}

static bool ds_trans(ds *d, sval x, sval *out)
{
    return ds_call(d, "triton.language.trans", 1, &x, 0, NULL, NULL, out);
}

/* tl.dot_scaled(lhs, lhs_scale, lhs_format, rhs, rhs_scale, rhs_format,
 * acc=None, fast_math=False, lhs_k_pack=True, rhs_k_pack=True,
 * out_dtype=tl.float32) */
bool tl_dot_scaled(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[11];
    const char *lf, *rf;
    bool lpack = true, rpack = true, fast = false;
    if (!SP_BIND(s, "triton.language.dot_scaled", "lhs, lhs_scale, lhs_format, rhs, "
                 "rhs_scale, rhs_format, acc=, fast_math=, lhs_k_pack=, rhs_k_pack=, "
                 "out_dtype=", a, call, p) ||
        !sp_want_str(s, p[2], call, "lhs_format", &lf) ||
        !sp_want_str(s, p[5], call, "rhs_format", &rf) ||
        !sp_const_flag(s, p[7], call, "fast_math", &fast) ||
        (!sv_is_none(p[8]) && !sp_const_flag(s, p[8], call, "lhs_k_pack", &lpack)) ||
        (!sv_is_none(p[9]) && !sp_const_flag(s, p[9], call, "rhs_k_pack", &rpack)))
        return false;
    (void)fast;     /* exact either way: the decoded values and scales are */
    if (!sv_is_none(p[10])) {
        dtype od;
        if (!sp_want_dtype(s, p[10], call, "out_dtype", &od))
            return false;
        if (od != DTYPE_FP32)
            return sp_error(s, call, "tl.dot_scaled: out_dtype must be tl.float32, not %s",
                            dtype_name(od));
    }
    int32_t ls, rs;
    if (!sp_want_tile(s, p[0], call, "lhs", &ls) || !sp_want_tile(s, p[3], call, "rhs", &rs))
        return false;
    ds d = {s, call};
    sval lhs, rhs;
    if (!ds_decode(&d, sv_tile(ls), lf, lpack, true, &lhs) ||
        !ds_decode(&d, sv_tile(rs), rf, rpack, false, &rhs))
        return false;
    if (ds_type(&d, lhs)->shape[1] != ds_type(&d, rhs)->shape[0])
        return sp_error(s, call, "tl.dot_scaled: lhs has K = %d values and rhs K = %d",
                        (int)ds_type(&d, lhs)->shape[1], (int)ds_type(&d, rhs)->shape[0]);
    if (!sv_is_none(p[1])) {
        int32_t sc;
        if (!sp_want_tile(s, p[1], call, "lhs_scale", &sc) ||
            !ds_apply_scale(&d, lhs, sv_tile(sc), &lhs))
            return false;
    }
    if (!sv_is_none(p[4])) {
        int32_t sc;
        sval rt;
        if (!sp_want_tile(s, p[4], call, "rhs_scale", &sc) || !ds_trans(&d, rhs, &rt) ||
            !ds_apply_scale(&d, rt, sv_tile(sc), &rt) || !ds_trans(&d, rt, &rhs))
            return false;
    }
    sval argv[3] = {lhs, rhs, p[6]};
    const char *kwn[1] = {"input_precision"};
    sval kwv[1] = {sv_const((spec_const){.kind = SC_STR, .u.str = {"ieee", 4}})};
    return ds_call(&d, "triton.language.dot", 3, argv, 1, kwn, kwv, out);
}
