/* cgen_math.c - one lane of MATH as a CUDA C expression (cgen_math in
 * cgen_expr.h), for every ir_math variant, computed as the CPU executor's
 * op_math (src/backend/cpu/exec_tile.c) computes it:
 *
 *  - tl's exp, exp2, log, log2, sin, cos and erf on fp32 are computed in
 *    double and rounded once: the CPU calls glibc's expf etc., which are
 *    correctly rounded in practice, and CUDA's float versions are up to 2
 *    ulps off (measured on the H100: exp(0.25) one ulp below), so this
 *    gives the CPU's bits where expf would give a tolerance (ir.md 4.2);
 *    fp64 throughput on the H100 is half of fp32's, which memory-bound
 *    kernels do not feel;
 *  - libdevice's other functions on fp32 (tan, asin, pow, hypot, ...) are
 *    computed in double and rounded once with __double2float_rn, as the
 *    CPU does: the GPU's double functions are within an ulp or two of
 *    double, so the fp32 results almost always agree to the bit;
 *  - the exact operations (sqrt, fma, floor, copysign, ldexp, the *_R
 *    family, the integer functions...) use the correctly rounded
 *    intrinsics (__fsqrt_rn, __fmaf_rn, __fadd_rz...) or the prelude's
 *    helpers, which reproduce the CPU's results bit for bit;
 *  - fp16 and bf16 lanes compute as fp32 and round once to the type
 *    (round_lanes); fp8 lanes compute as fp32 and are not rounded, like
 *    the CPU's (ir.md 4.4).
 * Anything the CPU refuses (a float function of an integer lane, the *_R
 * family on narrow floats, ...) returns false. */
#include "cgen_expr.h"

#include <stdio.h>

/* A value missing from a switch over an enum is an error here (ir.h) */
#pragma GCC diagnostic error "-Wswitch"
#pragma GCC diagnostic error "-Wswitch-enum"

/* MATH's variants by how cgen_math routes them, as lists of case labels
 * ("case SAME_TYPE_FNS:"), so that every switch over ir_math here names
 * each variant once (ir.h) without repeating the lists. */
#define SAME_TYPE_FNS       /* one dtype for operands and result */ \
    IR_EXP: case IR_EXP2: case IR_LOG: case IR_LOG2: case IR_SQRT: case IR_SQRT_RN: \
    case IR_RSQRT: case IR_SIN: case IR_COS: case IR_TAN: case IR_TANH: case IR_FLOOR: \
    case IR_CEIL: case IR_ERF: case IR_SIGMOID: case IR_FMA: case IR_ASIN: case IR_ACOS: \
    case IR_ATAN: case IR_SINH: case IR_COSH: case IR_ASINH: case IR_ACOSH: case IR_ATANH: \
    case IR_EXP10: case IR_EXPM1: case IR_LOG10: case IR_LOG1P: case IR_CBRT: case IR_RCBRT: \
    case IR_RSQRT_RN: case IR_ERFC: case IR_ERFINV: case IR_ERFCINV: case IR_NORMCDF: \
    case IR_NORMCDFINV: case IR_LGAMMA: case IR_TGAMMA: case IR_SINPI: case IR_COSPI: \
    case IR_J0: case IR_J1: case IR_Y0: case IR_Y1: case IR_TRUNC: case IR_ROUND: \
    case IR_RINT: case IR_LOGB: case IR_SATURATE: case IR_HYPOT: case IR_RHYPOT: \
    case IR_COPYSIGN: case IR_NEXTAFTER: case IR_FDIM: case IR_REMAINDER: \
    case IR_ABS: case IR_UMULHI: case IR_BREV: case IR_MULHI: case IR_MUL24: case IR_HADD: \
    case IR_RHADD: case IR_SAD: case IR_BYTE_PERM
#define MIXED_FNS           /* other operand or result types: math_mixed */ \
    IR_LDEXP: case IR_POWI: case IR_JN: case IR_YN: case IR_ILOGB: case IR_SIGNBIT: \
    case IR_ISNAN: case IR_ISINF: case IR_ISFINITE: case IR_LLRINT: case IR_LLROUND: \
    case IR_HILO2DOUBLE: case IR_DOUBLE2LO: case IR_DOUBLE2HI: case IR_POPC: case IR_CLZ: \
    case IR_FFS
#define ROUNDED_FNS         /* in a rounding mode, one dtype: math_rounded */ \
    IR_ADD_R: case IR_SUB_R: case IR_MUL_R: case IR_DIV_R: case IR_RCP_R: case IR_SQRT_R: \
    case IR_FMA_R

static bool is_int(dtype dt) { return !dtype_is_ptr(dt) && dtype_is_int(dt); }
static bool is_float(dtype dt) { return !dtype_is_ptr(dt) && dtype_is_float(dt); }
static bool is_f32_or_f64(dtype dt) { return dt == DTYPE_FP32 || dt == DTYPE_FP64; }

/* ---- float functions of one dtype ---------------------------------------- */

/* How the CPU computes a float function on float lanes: with the C
 * function of the lane's type (expf on fp32), or in double and rounded. */
typedef enum fn_kind {
    FN_TYPED,       /* fname + "f" on float lanes, fname on double */
    FN_DOUBLE,      /* fname in double; float lanes round once */
} fn_kind;

typedef struct float_fn {
    ir_math m;
    const char *name;   /* the CUDA function */
    int nargs;
    fn_kind kind;
} float_fn;

static const float_fn float_fns[] = {
    {IR_EXP, "exp", 1, FN_DOUBLE}, {IR_EXP2, "exp2", 1, FN_DOUBLE},
    {IR_LOG, "log", 1, FN_DOUBLE}, {IR_LOG2, "log2", 1, FN_DOUBLE},
    {IR_SIN, "sin", 1, FN_DOUBLE}, {IR_COS, "cos", 1, FN_DOUBLE},
    {IR_ABS, "fabs", 1, FN_TYPED}, {IR_FLOOR, "floor", 1, FN_TYPED},
    {IR_CEIL, "ceil", 1, FN_TYPED}, {IR_ERF, "erf", 1, FN_DOUBLE},
    {IR_TRUNC, "trunc", 1, FN_TYPED}, {IR_ROUND, "round", 1, FN_TYPED},
    {IR_RINT, "rint", 1, FN_TYPED}, {IR_LOGB, "logb", 1, FN_TYPED},
    {IR_COPYSIGN, "copysign", 2, FN_TYPED}, {IR_NEXTAFTER, "nextafter", 2, FN_TYPED},
    {IR_FDIM, "fdim", 2, FN_TYPED}, {IR_REMAINDER, "remainder", 2, FN_TYPED},
    {IR_TAN, "tan", 1, FN_DOUBLE}, {IR_TANH, "tanh", 1, FN_DOUBLE},
    {IR_ASIN, "asin", 1, FN_DOUBLE}, {IR_ACOS, "acos", 1, FN_DOUBLE},
    {IR_ATAN, "atan", 1, FN_DOUBLE}, {IR_SINH, "sinh", 1, FN_DOUBLE},
    {IR_COSH, "cosh", 1, FN_DOUBLE}, {IR_ASINH, "asinh", 1, FN_DOUBLE},
    {IR_ACOSH, "acosh", 1, FN_DOUBLE}, {IR_ATANH, "atanh", 1, FN_DOUBLE},
    {IR_EXPM1, "expm1", 1, FN_DOUBLE}, {IR_LOG10, "log10", 1, FN_DOUBLE},
    {IR_LOG1P, "log1p", 1, FN_DOUBLE}, {IR_CBRT, "cbrt", 1, FN_DOUBLE},
    {IR_ERFC, "erfc", 1, FN_DOUBLE}, {IR_ERFINV, "erfinv", 1, FN_DOUBLE},
    {IR_ERFCINV, "erfcinv", 1, FN_DOUBLE}, {IR_NORMCDF, "normcdf", 1, FN_DOUBLE},
    {IR_NORMCDFINV, "normcdfinv", 1, FN_DOUBLE}, {IR_LGAMMA, "lgamma", 1, FN_DOUBLE},
    {IR_TGAMMA, "tgamma", 1, FN_DOUBLE}, {IR_SINPI, "sinpi", 1, FN_DOUBLE},
    {IR_COSPI, "cospi", 1, FN_DOUBLE}, {IR_J0, "j0", 1, FN_DOUBLE},
    {IR_J1, "j1", 1, FN_DOUBLE}, {IR_Y0, "y0", 1, FN_DOUBLE}, {IR_Y1, "y1", 1, FN_DOUBLE},
    {IR_HYPOT, "hypot", 2, FN_DOUBLE},
};

static const float_fn *find_float_fn(ir_math m)
{
    for (size_t i = 0; i < sizeof float_fns / sizeof float_fns[0]; i++)
        if (float_fns[i].m == m)
            return &float_fns[i];
    return NULL;
}

/* f(a[, b]) for fp32 (float registers, d false) or fp64 lanes. */
static void call_fn(strbuf *out, const float_fn *f, bool d, const char *a, const char *b)
{
    if (d || f->kind == FN_TYPED) {
        strbuf_printf(out, "%s%s(%s", f->name, d ? "" : "f", a);
        if (f->nargs == 2)
            strbuf_printf(out, ", %s", b);
        strbuf_putc(out, ')');
        return;
    }
    strbuf_printf(out, "__double2float_rn(%s((double)(%s)", f->name, a);
    if (f->nargs == 2)
        strbuf_printf(out, ", (double)(%s)", b);
    strbuf_puts(out, "))");
}

/* The functions of MATH_FLOAT that are no plain call: d for fp64 lanes.
 * (If-chains here and below: the one switch over ir_math, in cgen_math,
 * names every variant and routes each to one of these.) */
static bool special_float(strbuf *out, ir_math m, bool d, const char *a, const char *b,
                          const char *c)
{
    if (m == IR_SQRT || m == IR_SQRT_RN) {
        strbuf_printf(out, "%s(%s)", d ? "__dsqrt_rn" : "__fsqrt_rn", a);
    } else if (m == IR_RSQRT) {             /* two IEEE operations in the type */
        if (d)
            strbuf_printf(out, "__ddiv_rn(1.0, __dsqrt_rn(%s))", a);
        else
            strbuf_printf(out, "__fdiv_rn(1.0f, __fsqrt_rn(%s))", a);
    } else if (m == IR_SIGMOID) {           /* 1 / (1 + exp(-x)) in the type */
        if (d)
            strbuf_printf(out, "__ddiv_rn(1.0, __dadd_rn(1.0, exp(-(%s))))", a);
        else
            strbuf_printf(out, "__fdiv_rn(1.0f, __fadd_rn(1.0f, expf(-(%s))))", a);
    } else if (m == IR_FMA) {
        strbuf_printf(out, "%s(%s, %s, %s)", d ? "__fma_rn" : "__fmaf_rn", a, b, c);
    } else if (m == IR_SATURATE) {
        strbuf_printf(out, "%s(%s)", d ? "tk_saturate" : "tk_saturatef", a);
    } else if (m == IR_RCBRT || m == IR_RSQRT_RN || m == IR_RHYPOT || m == IR_EXP10) {
        /* in double on the CPU, fp32 rounded once: 1 / f(x), 10^x */
        const char *dx = d ? "(%s)" : "((double)(%s))";
        if (!d)
            strbuf_puts(out, "__double2float_rn(");
        if (m == IR_EXP10) {
            strbuf_puts(out, "pow(10.0, ");
        } else {
            strbuf_puts(out, "__ddiv_rn(1.0, ");
            strbuf_puts(out, m == IR_RCBRT ? "cbrt(" : m == IR_RSQRT_RN ? "__dsqrt_rn(" : "hypot(");
        }
        strbuf_printf(out, dx, a);
        if (m == IR_RHYPOT) {
            strbuf_puts(out, ", ");
            strbuf_printf(out, dx, b);
        }
        strbuf_puts(out, m == IR_EXP10 ? ")" : "))");
        if (!d)
            strbuf_putc(out, ')');
    } else {
        return false;
    }
    return true;
}

/* MATH_FLOAT's functions on float lanes of dtype dt. */
static bool math_float(strbuf *out, ir_math m, dtype dt, const char *a, const char *b,
                       const char *c)
{
    bool d = dt == DTYPE_FP64;
    const char *rnd = dt == DTYPE_FP16 ? "tk_rnd_f16(" : dt == DTYPE_BF16 ? "tk_rnd_bf16(" : "";
    size_t mark = out->len;
    strbuf_puts(out, rnd);
    const float_fn *f = find_float_fn(m);
    if (f) {
        if (f->nargs == 2 && !b)
            goto refuse;
        call_fn(out, f, d, a, b);
    } else if (!special_float(out, m, d, a, b, c)) {
        goto refuse;
    }
    if (*rnd)
        strbuf_putc(out, ')');
    return true;
refuse:
    strbuf_truncate(out, mark);
    return false;
}

/* ---- integer functions of one dtype ---------------------------------------- */

/* MATH_INT's functions (and ABS) on integer lanes of dtype dt. */
static bool math_int(strbuf *out, ir_math m, dtype dt, const char *a, const char *b,
                     const char *c)
{
    const char *t = cgen_ctype(dt), *w = dtype_bits(dt) == 64 ? "tk_u64" : "tk_u32";
    bool s = dtype_is_signed(dt);
    int bits = dtype_bits(dt);
    if (dt == DTYPE_INT1)       /* the CPU's int1 results would not be 0 or 1 */
        return m == IR_ABS && (strbuf_printf(out, "(%s)", a), true);
    if (m == IR_ABS) {
        if (s)
            strbuf_printf(out, "tk_iabs<%s, %s>(%s)", t, w, a);
        else
            strbuf_printf(out, "(%s)", a);
    } else if (m == IR_UMULHI || m == IR_MULHI) {
        bool u = m == IR_UMULHI || !s;
        if (bits == 64)
            strbuf_printf(out, "((%s)%s((%s)(%s), (%s)(%s)))", t, u ? "__umul64hi" : "__mul64hi",
                          u ? "tk_u64" : "tk_i64", a, u ? "tk_u64" : "tk_i64", b);
        else if (bits == 32)
            strbuf_printf(out, "((%s)%s((%s)(%s), (%s)(%s)))", t, u ? "__umulhi" : "__mulhi",
                          u ? "tk_u32" : "tk_i32", a, u ? "tk_u32" : "tk_i32", b);
        else if (u)                 /* the low `bits` bits, unsigned; fits in 32 */
            strbuf_printf(out, "((%s)((((tk_u32)(%s) & 0x%xu) * ((tk_u32)(%s) & 0x%xu)) >> %d))",
                          t, a, (1u << bits) - 1, b, (1u << bits) - 1, bits);
        else
            strbuf_printf(out, "((%s)(((tk_i32)(%s) * (tk_i32)(%s)) >> %d))", t, a, b, bits);
    } else if (m == IR_BREV) {
        if (bits == 64)
            strbuf_printf(out, "((%s)__brevll((tk_u64)(%s)))", t, a);
        else
            strbuf_printf(out, "((%s)(__brev((tk_u32)(%s)) >> %d))", t, a, 32 - bits);
    } else if (m == IR_MUL24) {
        if (s)
            strbuf_printf(out, "((%s)(tk_sext24((tk_u32)(%s)) * tk_sext24((tk_u32)(%s))))",
                          t, a, b);
        else
            strbuf_printf(out, "((%s)(((tk_u64)(%s) & 0xffffffull) * "
                          "((tk_u64)(%s) & 0xffffffull)))", t, a, b);
    } else if (m == IR_HADD || m == IR_RHADD) {
        strbuf_printf(out, "tk_%s<%s>(%s, %s)", m == IR_HADD ? "hadd" : "rhadd", t, a, b);
    } else if (m == IR_SAD) {
        strbuf_printf(out, "tk_sad<%s, %s>(%s, %s, %s)", t, w, a, b, c);
    } else if (m == IR_BYTE_PERM) {
        strbuf_printf(out, "((%s)__byte_perm((tk_u32)(%s), (tk_u32)(%s), (tk_u32)(%s)))",
                      t, a, b, c);
    } else {
        return false;
    }
    return true;
}

/* ---- mixed operand types ------------------------------------------------------ */

static bool math_mixed(strbuf *out, ir_math m, dtype dt, const char *a, dtype adt,
                       const char *b, dtype bdt)
{
    bool fa = is_f32_or_f64(adt), da = adt == DTYPE_FP64;
    switch (m) {
    case IR_LDEXP:
        if (!fa || dt != adt || bdt != DTYPE_INT32)
            return false;
        strbuf_printf(out, "%s(%s, %s)", da ? "ldexp" : "ldexpf", a, b);
        return true;
    case IR_POWI:                   /* pow(a, (double)b), in double */
        if (!fa || dt != adt || bdt != DTYPE_INT32)
            return false;
        if (da)
            strbuf_printf(out, "pow(%s, (double)(%s))", a, b);
        else
            strbuf_printf(out, "__double2float_rn(pow((double)(%s), (double)(%s)))", a, b);
        return true;
    case IR_JN: case IR_YN: {
        const char *fn = m == IR_JN ? "jn" : "yn";
        if (adt != DTYPE_INT32 || !is_f32_or_f64(bdt) || dt != bdt)
            return false;
        if (bdt == DTYPE_FP64)
            strbuf_printf(out, "%s(%s, %s)", fn, a, b);
        else
            strbuf_printf(out, "__double2float_rn(%s(%s, (double)(%s)))", fn, a, b);
        return true;
    }
    case IR_ILOGB:
        if (!fa || dt != DTYPE_INT32)
            return false;
        strbuf_printf(out, "tk_ilogb((double)(%s))", a);
        return true;
    case IR_SIGNBIT:
        if (!fa || dt != DTYPE_INT32)
            return false;
        strbuf_printf(out, da ? "((tk_i32)(tk_d2u(%s) >> 63))" : "((tk_i32)(tk_f2u(%s) >> 31))", a);
        return true;
    case IR_ISNAN: case IR_ISINF: case IR_ISFINITE:
        if (!fa || dt != DTYPE_INT1)
            return false;
        if (m == IR_ISNAN)
            strbuf_printf(out, "((%s) != (%s))", a, a);
        else
            strbuf_printf(out, "(%s(%s) %s %s)", da ? "fabs" : "fabsf", a,
                          m == IR_ISINF ? "==" : "<",
                          da ? "tk_u2d(0x7ff0000000000000ull)" : "tk_u2f(0x7f800000u)");
        return true;
    case IR_LLRINT: case IR_LLROUND:
        if (!fa || dt != DTYPE_INT64)
            return false;
        strbuf_printf(out, "tk_%s((double)(%s))", m == IR_LLRINT ? "llrint" : "llround", a);
        return true;
    case IR_HILO2DOUBLE:
        if (adt != DTYPE_INT32 || bdt != DTYPE_INT32 || dt != DTYPE_FP64)
            return false;
        strbuf_printf(out, "tk_u2d(((tk_u64)(tk_u32)(%s) << 32) | (tk_u32)(%s))", a, b);
        return true;
    case IR_DOUBLE2LO: case IR_DOUBLE2HI:
        if (adt != DTYPE_FP64 || dt != DTYPE_INT32)
            return false;
        strbuf_printf(out, "((tk_i32)(tk_u32)(tk_d2u(%s)%s))", a,
                      m == IR_DOUBLE2HI ? " >> 32" : "");
        return true;
    case IR_POPC: case IR_CLZ: case IR_FFS: {
        static const char *const fns[3][2] = {
            {"__popc((tk_u32)", "__popcll((tk_u64)"},
            {"__clz((tk_i32)", "__clzll((long long)"},
            {"__ffs((tk_i32)", "__ffsll((long long)"},
        };
        int bits = dtype_bits(adt);
        if (dt != DTYPE_INT32 || (adt != DTYPE_INT32 && adt != DTYPE_UINT32 &&
                                  adt != DTYPE_INT64 && adt != DTYPE_UINT64))
            return false;
        strbuf_printf(out, "((tk_i32)%s(%s)))", fns[m == IR_POPC ? 0 : m == IR_CLZ ? 1 : 2]
                                                    [bits == 64], a);
        return true;
    }
    case SAME_TYPE_FNS: case ROUNDED_FNS: case IR_CVT_R:
        return false;
    }
    return false;
}

/* ---- IEEE operations in a rounding mode ---------------------------------------- */

static const char *const mode_sfx[] = {"rn", "rz", "rd", "ru"};

/* IR_CVT_R: a (fp32, fp64, int32, uint32, int64, uint64) to dt in mode r. */
static bool math_cvt(strbuf *out, int r, dtype dt, const char *a, dtype adt)
{
    const char *sfx = mode_sfx[r];
    if (is_f32_or_f64(adt)) {
        /* to ints: rounded to an integer in the mode, then saturated, NaN 0 */
        static const char *const round_fn[] = {"rint", "trunc", "floor", "ceil"};
        if (dt == DTYPE_FP32 && adt == DTYPE_FP64)
            strbuf_printf(out, "__double2float_%s(%s)", sfx, a);
        else if (dt == DTYPE_FP32)
            strbuf_printf(out, "(%s)", a);
        else if (dt == DTYPE_FP64)
            strbuf_printf(out, "((double)(%s))", a);
        else if (dt == DTYPE_INT32 || dt == DTYPE_INT64 || dt == DTYPE_UINT32 ||
                 dt == DTYPE_UINT64)
            strbuf_printf(out, "((%s)tk_d2%c_sat(%s((double)(%s)), %d))", cgen_ctype(dt),
                          dtype_is_signed(dt) ? 'i' : 'u', round_fn[r], a, dtype_bits(dt));
        else
            return false;
        return true;
    }
    if (adt != DTYPE_INT32 && adt != DTYPE_UINT32 && adt != DTYPE_INT64 && adt != DTYPE_UINT64)
        return false;
    bool s = dtype_is_signed(adt), wide = dtype_bits(adt) == 64;
    const char *src = wide ? (s ? "ll" : "ull") : (s ? "int" : "uint");
    const char *arg = wide ? (s ? "long long" : "unsigned long long") : (s ? "int" : "unsigned");
    if (dt == DTYPE_FP32)
        strbuf_printf(out, "__%s2float_%s((%s)(%s))", src, sfx, arg, a);
    else if (dt == DTYPE_FP64 && wide)
        strbuf_printf(out, "__%s2double_%s((%s)(%s))", src, sfx, arg, a);
    else if (dt == DTYPE_FP64)
        strbuf_printf(out, "((double)(%s))", a);            /* exact */
    else
        return false;                                       /* ints to floats only */
    return true;
}

static bool math_rounded(strbuf *out, ir_math m, int64_t imm, dtype dt, const char *a,
                         dtype adt, const char *b, const char *c)
{
    if (imm < IR_RN || imm > IR_RU)
        return false;
    if (m == IR_CVT_R)
        return math_cvt(out, (int)imm, dt, a, adt);
    if (!is_f32_or_f64(dt))
        return false;
    bool d = dt == DTYPE_FP64;
    const char *sfx = mode_sfx[imm];
    switch (m) {
    case IR_ADD_R: strbuf_printf(out, "__%sadd_%s(%s, %s)", d ? "d" : "f", sfx, a, b); return true;
    case IR_SUB_R: strbuf_printf(out, "__%ssub_%s(%s, %s)", d ? "d" : "f", sfx, a, b); return true;
    case IR_MUL_R: strbuf_printf(out, "__%smul_%s(%s, %s)", d ? "d" : "f", sfx, a, b); return true;
    case IR_DIV_R: strbuf_printf(out, "__%sdiv_%s(%s, %s)", d ? "d" : "f", sfx, a, b); return true;
    case IR_RCP_R: strbuf_printf(out, "__%srcp_%s(%s)", d ? "d" : "f", sfx, a); return true;
    case IR_SQRT_R: strbuf_printf(out, "__%ssqrt_%s(%s)", d ? "d" : "f", sfx, a); return true;
    case IR_FMA_R:
        strbuf_printf(out, "__fma%s_%s(%s, %s, %s)", d ? "" : "f", sfx, a, b, c);
        return true;
    case SAME_TYPE_FNS: case MIXED_FNS: case IR_CVT_R:
        return false;
    }
    return false;
}

/* ---- dispatch --------------------------------------------------------------------- */

/* The variants with two and three operands (the others take one). */
static const ir_math two_operands[] = {
    IR_UMULHI, IR_HYPOT, IR_RHYPOT, IR_COPYSIGN, IR_NEXTAFTER, IR_FDIM, IR_REMAINDER,
    IR_LDEXP, IR_POWI, IR_JN, IR_YN, IR_HILO2DOUBLE, IR_MULHI, IR_MUL24, IR_HADD,
    IR_RHADD, IR_ADD_R, IR_SUB_R, IR_MUL_R, IR_DIV_R,
};
static const ir_math three_operands[] = {IR_FMA, IR_SAD, IR_BYTE_PERM, IR_FMA_R};

static bool listed(ir_math m, const ir_math *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (list[i] == m)
            return true;
    return false;
}

static int operand_count(ir_math m)
{
    if (listed(m, three_operands, sizeof three_operands / sizeof three_operands[0]))
        return 3;
    return listed(m, two_operands, sizeof two_operands / sizeof two_operands[0]) ? 2 : 1;
}

bool cgen_math(strbuf *out, ir_math m, int64_t imm, dtype dt, const char *a, dtype adt,
               const char *b, dtype bdt, const char *c, dtype cdt)
{
    int n = operand_count(m);
    if (!a || (n >= 2 && !b) || (n >= 3 && !c))
        return false;
    switch (m) {
    case SAME_TYPE_FNS:
        if (adt != dt || (b && bdt != dt) || (c && cdt != dt))
            return false;
        if (is_float(dt))
            return math_float(out, m, dt, a, b, c);
        if (is_int(dt))
            return math_int(out, m, dt, a, b, c);
        return false;
    case MIXED_FNS:
        return math_mixed(out, m, dt, a, adt, b, bdt);
    case ROUNDED_FNS:
        if (adt != dt || (b && bdt != dt) || (c && cdt != dt))
            return false;
        return math_rounded(out, m, imm, dt, a, adt, b, c);
    case IR_CVT_R:
        return math_rounded(out, m, imm, dt, a, adt, b, c);
    }
    return false;
}
