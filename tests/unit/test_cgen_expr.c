/* test_cgen_expr.c - the CUDA expression library (cgen_expr.h, cgen_expr.c,
 * cgen_math.c): the exact text of simple cases; that every variant and
 * dtype combination doc/ir.md allows gives an expression, and the ones it
 * does not are refused; and that all of those expressions, with the
 * prelude, compile with NVRTC for sm_90 without an error or a warning (one
 * kernel per category and dtype).  The NVRTC part is a TAP skip where
 * libnvrtc cannot be loaded.  The numbers the prelude's helpers compute are
 * test_cgen_host's. */
#include <dlfcn.h>
#include <math.h>
#include <stdlib.h>

#include "cgen_expr.h"
#include "tap.h"

static const dtype nums[] = {
    DTYPE_INT1, DTYPE_INT8, DTYPE_INT16, DTYPE_INT32, DTYPE_INT64, DTYPE_UINT8,
    DTYPE_UINT16, DTYPE_UINT32, DTYPE_UINT64, DTYPE_FP8E4NV, DTYPE_FP8E5, DTYPE_FP16,
    DTYPE_BF16, DTYPE_FP32, DTYPE_FP64,
};
enum { NNUMS = sizeof nums / sizeof nums[0] };
#define PTR_F32 ((dtype)(DTYPE_FP32 | DTYPE_PTR))

static bool is_int(dtype t) { return !dtype_is_ptr(t) && dtype_is_int(t); }
static bool is_float(dtype t) { return !dtype_is_ptr(t) && dtype_is_float(t); }
static bool is_f3264(dtype t) { return t == DTYPE_FP32 || t == DTYPE_FP64; }
static bool is_int3264(dtype t)
{
    return t == DTYPE_INT32 || t == DTYPE_UINT32 || t == DTYPE_INT64 || t == DTYPE_UINT64;
}

/* A kernel parameter's name: operand set s ('a', 'b', 'c') of dtype t. */
static const char *var(char s, dtype t)
{
    static char buf[8][32];
    static int next;
    char *b = buf[next++ % 8];
    snprintf(b, sizeof buf[0], "%c_%s", s, dtype_is_ptr(t) ? "ptr" : dtype_name(t));
    return b;
}

/* ---- the translation unit ----------------------------------------------- */

typedef struct tu {
    strbuf src;
    int results;        /* in the current kernel */
    int kernels;
    int exprs;          /* in all */
} tu;

static void kernel_begin(tu *u, const char *category, dtype t)
{
    strbuf_printf(&u->src, "extern \"C\" __global__ void k%d_%s_%s(", u->kernels, category,
                  dtype_is_ptr(t) ? "ptr" : t ? dtype_name(t) : "all");
    for (const char *s = "abc"; *s; s++) {
        for (int i = 0; i < NNUMS; i++)
            strbuf_printf(&u->src, "%s %s, ", cgen_ctype(nums[i]), var(*s, nums[i]));
        strbuf_printf(&u->src, "tk_u64 %s, ", var(*s, PTR_F32));
    }
    strbuf_puts(&u->src, "tk_u64 out, tk_u64 in)\n{\n");
    u->results = 0;
    u->kernels++;
}

static void kernel_end(tu *u)
{
    strbuf_puts(&u->src, "}\n\n");
}

/* One result: r = expr, stored at out + 8 * n with cgen_store_stmt. */
static void result(tu *u, dtype t, const char *expr)
{
    char addr[64];
    snprintf(addr, sizeof addr, "out + %du", 8 * u->results++);
    strbuf_printf(&u->src, "    {\n        %s r = %s;\n        ", cgen_ctype(t), expr);
    cgen_store_stmt(&u->src, t, addr, "r");
    strbuf_puts(&u->src, "\n    }\n");
    u->exprs++;
}

/* ---- the domain: what ir.md allows, and what must be refused --------------- */

/* Counts of a domain check: supported combinations that were refused
 * (missing, the first few named) and refused ones that were accepted. */
typedef struct tally {
    int accepted, missing, extra;
    char first[512];
} tally;

static void note(tally *t, bool want, bool got, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void note(tally *t, bool want, bool got, const char *fmt, ...)
{
    t->accepted += got;
    if (want == got)
        return;
    if (want)
        t->missing++;
    else
        t->extra++;
    size_t n = strlen(t->first);
    if (n + 80 < sizeof t->first) {
        va_list ap;
        va_start(ap, fmt);
        n += (size_t)snprintf(t->first + n, sizeof t->first - n, "%s ", want ? "missing" : "extra");
        vsnprintf(t->first + n, sizeof t->first - n, fmt, ap);
        va_end(ap);
        strncat(t->first, "; ", sizeof t->first - strlen(t->first) - 1);
    }
}

static void report(const tally *t, const char *what)
{
    TAP_OK(t->missing == 0 && t->extra == 0, "%s: %d expressions, every allowed combination "
           "and no other", what, t->accepted);
    if (t->missing || t->extra)
        printf("# %d missing, %d extra: %s\n", t->missing, t->extra, t->first);
}

static bool binary_allowed(ir_binop op, dtype t)
{
    switch (op) {
    case IR_ADD: case IR_SUB: case IR_MUL: case IR_MIN: case IR_MAX: case IR_MIN_NAN:
    case IR_MAX_NAN:
        return true;
    case IR_DIV: case IR_FLOORDIV: case IR_MOD:     /* the CPU's: every number */
        return true;
    case IR_FDIV_RN: case IR_POW: case IR_ATAN2:
        return is_float(t);
    case IR_AND: case IR_OR: case IR_XOR: case IR_SHL: case IR_SHR:
        return is_int(t);
    }
    return false;
}

static void check_binary(tu *u)
{
    tally t = {0};
    strbuf e;
    strbuf_init(&e);
    for (int i = 0; i < NNUMS; i++) {
        dtype dt = nums[i];
        kernel_begin(u, "binary", dt);
        for (int op = IR_ADD; op <= IR_FDIV_RN; op++) {
            bool shift = op == IR_SHL || op == IR_SHR;
            for (int j = 0; j < (shift ? NNUMS : 1); j++) {
                dtype bt = shift ? nums[j] : dt;
                bool want = binary_allowed((ir_binop)op, dt) && (!shift || is_int(bt));
                strbuf_clear(&e);
                bool got = cgen_binary(&e, (ir_binop)op, dt, var('a', dt), var('b', bt), bt);
                note(&t, want, got, "%d %s %s", op, dtype_name(dt), dtype_name(bt));
                if (got)
                    result(u, dt, strbuf_cstr(&e));
            }
        }
        kernel_end(u);
    }
    strbuf_free(&e);
    report(&t, "BINARY");
}

static void check_unary_cmp(tu *u)
{
    tally t = {0}, c = {0};
    strbuf e;
    strbuf_init(&e);
    for (int i = 0; i <= NNUMS; i++) {
        dtype dt = i < NNUMS ? nums[i] : PTR_F32;
        kernel_begin(u, "unary_cmp", dt);
        for (int op = IR_NEG; op <= IR_NOT && i < NNUMS; op++) {
            strbuf_clear(&e);
            bool got = cgen_unary(&e, (ir_unop)op, dt, var('a', dt));
            note(&t, op != IR_INVERT || is_int(dt), got, "%d %s", op, dtype_name(dt));
            if (got)
                result(u, dt, strbuf_cstr(&e));
        }
        for (int op = IR_EQ; op <= IR_GE; op++) {
            strbuf_clear(&e);
            bool got = cgen_cmp(&e, (ir_cmp)op, dt, var('a', dt), var('b', dt));
            note(&c, true, got, "%d %s", op, dtype_name(dt));
            if (got)
                result(u, DTYPE_INT1, strbuf_cstr(&e));
        }
        kernel_end(u);
    }
    strbuf_free(&e);
    report(&t, "UNARY");
    report(&c, "CMP");
}

static void check_casts(tu *u)
{
    tally t = {0}, b = {0};
    strbuf e;
    strbuf_init(&e);
    dtype all[NNUMS + 2];
    memcpy(all, nums, sizeof nums);
    all[NNUMS] = PTR_F32;
    all[NNUMS + 1] = (dtype)(DTYPE_INT8 | DTYPE_PTR);
    for (int i = 0; i < NNUMS + 2; i++) {
        dtype from = all[i];
        kernel_begin(u, "cast", from);
        for (int j = 0; j < NNUMS + 2; j++) {
            dtype to = all[j];
            for (int k = IR_CAST_PLAIN; k <= IR_CAST_RTZ; k++) {
                bool want = dtype_can_cast(from, to);
                if (k == IR_CAST_RTZ && is_int(from) && is_float(to))
                    want = false;           /* rtz of an int source: refused */
                strbuf_clear(&e);
                bool got = cgen_cast(&e, (ir_cast_kind)k, to, from,
                                     var('a', from));
                note(&t, want, got, "%d %s->%s", k, dtype_name(from), dtype_name(to));
                if (got)
                    result(u, to, strbuf_cstr(&e));
            }
            strbuf_clear(&e);
            bool want = dtype_size(from) == dtype_size(to);
            bool got = cgen_bitcast(&e, to, from, var('a', from));
            note(&b, want, got, "%s->%s", dtype_name(from), dtype_name(to));
            if (got)
                result(u, to, strbuf_cstr(&e));
        }
        kernel_end(u);
    }
    strbuf_free(&e);
    report(&t, "CAST");
    report(&b, "BITCAST");
}

/* ---- MATH's domain ---------------------------------------------------------------- */

/* Operand counts (ir.md 2.5). */
static int math_arity(ir_math m)
{
    switch (m) {
    case IR_FMA: case IR_SAD: case IR_BYTE_PERM: case IR_FMA_R:
        return 3;
    case IR_UMULHI: case IR_HYPOT: case IR_RHYPOT: case IR_COPYSIGN: case IR_NEXTAFTER:
    case IR_FDIM: case IR_REMAINDER: case IR_LDEXP: case IR_POWI: case IR_JN: case IR_YN:
    case IR_HILO2DOUBLE: case IR_MULHI: case IR_MUL24: case IR_HADD: case IR_RHADD:
    case IR_ADD_R: case IR_SUB_R: case IR_MUL_R: case IR_DIV_R:
        return 2;
    default:
        return 1;
    }
}

/* The operand dtypes of variant m with destination dt (ir_verify's rules)
 * and whether the library supports that (the CPU computes it). */
static bool math_types(ir_math m, dtype dt, dtype *a, dtype *b, bool *want)
{
    *a = *b = dt;
    *want = false;
    switch (m) {
    case IR_LDEXP: case IR_POWI:
        *b = DTYPE_INT32;
        *want = is_f3264(dt);
        return true;
    case IR_JN: case IR_YN:
        *a = DTYPE_INT32;
        *want = is_f3264(dt);
        return true;
    case IR_HILO2DOUBLE:
        *a = *b = DTYPE_INT32;
        *want = dt == DTYPE_FP64;
        return true;
    case IR_ILOGB: case IR_SIGNBIT: case IR_ISNAN: case IR_ISINF: case IR_ISFINITE:
    case IR_LLRINT: case IR_LLROUND: case IR_DOUBLE2LO: case IR_DOUBLE2HI: case IR_POPC:
    case IR_CLZ: case IR_FFS: case IR_CVT_R:
        return false;           /* the source dtype varies: check_math_from */
    case IR_ABS:
        *want = true;           /* ints (int1: unchanged) and floats */
        return true;
    case IR_UMULHI: case IR_BREV: case IR_MULHI: case IR_MUL24: case IR_HADD: case IR_RHADD:
    case IR_SAD: case IR_BYTE_PERM:
        *want = is_int(dt) && dt != DTYPE_INT1;
        return true;
    case IR_ADD_R: case IR_SUB_R: case IR_MUL_R: case IR_DIV_R: case IR_RCP_R:
    case IR_SQRT_R: case IR_FMA_R:
        *want = is_f3264(dt);
        return true;
    default:                    /* float functions: every float lane */
        *want = is_float(dt);
        return true;
    }
}

/* Variants whose dtype is a's, not dst's: want(a dtype, dst dtype). */
static bool math_from_allowed(ir_math m, dtype a, dtype d)
{
    switch (m) {
    case IR_ILOGB: case IR_SIGNBIT: return is_f3264(a) && d == DTYPE_INT32;
    case IR_ISNAN: case IR_ISINF: case IR_ISFINITE: return is_f3264(a) && d == DTYPE_INT1;
    case IR_LLRINT: case IR_LLROUND: return is_f3264(a) && d == DTYPE_INT64;
    case IR_DOUBLE2LO: case IR_DOUBLE2HI: return a == DTYPE_FP64 && d == DTYPE_INT32;
    case IR_POPC: case IR_CLZ: case IR_FFS: return is_int3264(a) && d == DTYPE_INT32;
    case IR_CVT_R: return (is_f3264(a) || is_int3264(a)) && (is_f3264(d) || is_int3264(d)) &&
                          (is_f3264(a) || is_f3264(d));
    default: return false;
    }
}

static void check_math(tu *u)
{
    tally t = {0};
    strbuf e;
    strbuf_init(&e);
    for (int i = 0; i < NNUMS; i++) {
        dtype dt = nums[i];
        kernel_begin(u, "math", dt);
        for (int m = 0; m < IR_MATH__COUNT; m++) {
            dtype at, bt;
            bool want;
            int n = math_arity((ir_math)m);
            if (math_types((ir_math)m, dt, &at, &bt, &want)) {
                for (int r = IR_RN; r <= IR_RU; r++) {
                    strbuf_clear(&e);
                    bool got = cgen_math(&e, (ir_math)m, r, dt, var('a', at), at,
                                         n >= 2 ? var('b', bt) : NULL, bt,
                                         n >= 3 ? var('c', dt) : NULL, dt);
                    note(&t, want, got, "%d %s", m, dtype_name(dt));
                    if (got)
                        result(u, dt, strbuf_cstr(&e));
                    if (m < IR_ADD_R)
                        break;          /* the mode only matters to *_R */
                }
                /* a missing operand is refused */
                if (want && n >= 2) {
                    strbuf_clear(&e);
                    note(&t, false, cgen_math(&e, (ir_math)m, 0, dt, var('a', at), at, NULL,
                                              bt, NULL, dt), "%d %s without b", m,
                         dtype_name(dt));
                }
                continue;
            }
            /* a of every dtype, dst dt */
            for (int j = 0; j < NNUMS; j++) {
                dtype a = nums[j];
                for (int r = IR_RN; r <= IR_RU; r++) {
                    strbuf_clear(&e);
                    bool got = cgen_math(&e, (ir_math)m, r, dt, var('a', a), a, NULL,
                                         DTYPE_INVALID, NULL, DTYPE_INVALID);
                    note(&t, math_from_allowed((ir_math)m, a, dt), got, "%d %s->%s", m,
                         dtype_name(a), dtype_name(dt));
                    if (got)
                        result(u, dt, strbuf_cstr(&e));
                    if (m != IR_CVT_R)
                        break;
                }
            }
        }
        kernel_end(u);
    }
    strbuf_free(&e);
    report(&t, "MATH");
}

/* Literals, loads and stores of every dtype. */
static void check_memory(tu *u)
{
    static const double floats[] = {0.0, -0.0, 1.5, -3.25, 0.1, 1e300, 1e-310, 65504.0,
                                    1e-8, 448.0, 1e10};
    static const int64_t ints[] = {0, 1, -1, 127, -128, 255, 65535, INT32_MIN, INT32_MAX,
                                   INT64_MIN, INT64_MAX, (int64_t)UINT32_MAX};
    strbuf e;
    strbuf_init(&e);
    kernel_begin(u, "memory", DTYPE_INVALID);
    for (int i = 0; i <= NNUMS; i++) {
        dtype dt = i < NNUMS ? nums[i] : PTR_F32;
        char addr[64];
        snprintf(addr, sizeof addr, "in + %du", 8 * i);
        strbuf_clear(&e);
        cgen_load_expr(&e, dt, addr);
        result(u, dt, strbuf_cstr(&e));
        if (is_float(dt)) {
            for (size_t k = 0; k < sizeof floats / sizeof floats[0]; k++) {
                strbuf_clear(&e);
                cgen_literal(&e, dt, 0, floats[k]);
                result(u, dt, strbuf_cstr(&e));
            }
            double specials[] = {INFINITY, -INFINITY, NAN};
            for (int k = 0; k < 3; k++) {
                strbuf_clear(&e);
                cgen_literal(&e, dt, 0, specials[k]);
                result(u, dt, strbuf_cstr(&e));
            }
        } else {
            for (size_t k = 0; k < sizeof ints / sizeof ints[0]; k++) {
                strbuf_clear(&e);
                cgen_literal(&e, dt, ints[k], 0.0);
                result(u, dt, strbuf_cstr(&e));
            }
        }
    }
    kernel_end(u);
    strbuf_free(&e);
}

/* ---- exact text ------------------------------------------------------------------ */

static void check_text(void)
{
    strbuf e;
    strbuf_init(&e);
#define EXPR(call, want, ...) do { \
        strbuf_clear(&e); \
        bool ok_ = (call); \
        TAP_OK(ok_, "accepted: " __VA_ARGS__); \
        TAP_STR_EQ(strbuf_cstr(&e), want, __VA_ARGS__); \
    } while (0)
    TAP_STR_EQ(cgen_ctype(DTYPE_INT1), "bool", "int1 is bool");
    TAP_STR_EQ(cgen_ctype(DTYPE_UINT16), "tk_u16", "uint16");
    TAP_STR_EQ(cgen_ctype(DTYPE_BF16), "float", "bf16 lives in a float");
    TAP_STR_EQ(cgen_ctype(PTR_F32), "tk_u64", "pointers are addresses");
    EXPR(cgen_binary(&e, IR_ADD, DTYPE_INT32, "x", "y", DTYPE_INT32),
         "((tk_i32)((tk_u32)(x) + (tk_u32)(y)))", "int32 + wraps in unsigned");
    EXPR(cgen_binary(&e, IR_ADD, DTYPE_INT1, "x", "y", DTYPE_INT1),
         "((((tk_u32)(x) + (tk_u32)(y)) & 1u) != 0u)", "int1 + keeps bit 0");
    EXPR(cgen_binary(&e, IR_ADD, DTYPE_FP32, "x", "y", DTYPE_FP32), "__fadd_rn(x, y)",
         "fp32 + never contracts");
    EXPR(cgen_binary(&e, IR_MUL, DTYPE_FP16, "x", "y", DTYPE_FP16),
         "tk_rnd_f16(__fmul_rn(x, y))", "fp16 * in fp32, rounded once");
    EXPR(cgen_binary(&e, IR_SUB, DTYPE_FP8E5, "x", "y", DTYPE_FP8E5), "__fsub_rn(x, y)",
         "fp8 - not rounded, as the CPU");
    EXPR(cgen_binary(&e, IR_DIV, DTYPE_FP64, "x", "y", DTYPE_FP64), "__ddiv_rn(x, y)",
         "fp64 /");
    EXPR(cgen_binary(&e, IR_FLOORDIV, DTYPE_INT8, "x", "y", DTYPE_INT8),
         "((tk_i8)tk_floordiv_i32((tk_i32)(x), (tk_i32)(y)))", "int8 // guarded");
    EXPR(cgen_binary(&e, IR_MOD, DTYPE_UINT64, "x", "y", DTYPE_UINT64),
         "((tk_u64)tk_mod_u64((tk_u64)(x), (tk_u64)(y)))", "uint64 %% guarded");
    EXPR(cgen_binary(&e, IR_SHR, DTYPE_INT16, "x", "n", DTYPE_UINT8),
         "((tk_i16)tk_sar32((tk_i32)(x), (tk_u64)(n), 16))", "int16 >> uint8: arithmetic");
    EXPR(cgen_binary(&e, IR_SHL, DTYPE_UINT64, "x", "n", DTYPE_INT32),
         "((tk_u64)tk_shl64((tk_u64)(x), (tk_u64)(n)))", "uint64 << int32");
    EXPR(cgen_binary(&e, IR_MAX_NAN, DTYPE_FP32, "x", "y", DTYPE_FP32),
         "tk_fmaxnanf(x, y)", "maximum propagating NaN");
    EXPR(cgen_unary(&e, IR_NEG, DTYPE_INT64, "x"), "((tk_i64)(0u - (tk_u64)(x)))",
         "int64 negation wraps");
    EXPR(cgen_cmp(&e, IR_LE, DTYPE_UINT32, "x", "y"), "((x) <= (y))", "compare");
    EXPR(cgen_cast(&e, IR_CAST_PLAIN, DTYPE_FP16, DTYPE_FP64, "x"), "tk_rnd_f16_d(x)",
         "fp64 -> fp16 in one rounding");
    EXPR(cgen_cast(&e, IR_CAST_PLAIN, DTYPE_INT8, DTYPE_FP32, "x"),
         "((tk_i8)tk_d2i_sat((double)(x), 8))", "fp32 -> int8 saturates to int8");
    EXPR(cgen_cast(&e, IR_CAST_PLAIN, DTYPE_BF16, DTYPE_INT64, "x"),
         "tk_i64_to_bf16((tk_i64)(x))", "int64 -> bf16 in one rounding");
    EXPR(cgen_cast(&e, IR_CAST_RTZ, DTYPE_FP8E4NV, DTYPE_FP32, "x"),
         "tk_rtz_e4m3((double)(x))", "rtz to fp8");
    EXPR(cgen_cast(&e, IR_CAST_PLAIN, DTYPE_INT1, DTYPE_FP32, "x"), "((x) != 0.0f)",
         "float -> int1");
    EXPR(cgen_bitcast(&e, DTYPE_INT16, DTYPE_FP16, "x"), "((tk_i16)(tk_f32_to_f16(x)))",
         "fp16 bits");
    EXPR(cgen_math(&e, IR_EXP, 0, DTYPE_FP32, "x", DTYPE_FP32, NULL, 0, NULL, 0),
         "__double2float_rn(exp((double)(x)))", "tl.exp on fp32, in double");
    EXPR(cgen_math(&e, IR_TAN, 0, DTYPE_FP32, "x", DTYPE_FP32, NULL, 0, NULL, 0),
         "__double2float_rn(tan((double)(x)))", "libdevice tan on fp32: in double");
    EXPR(cgen_math(&e, IR_FMA, 0, DTYPE_BF16, "x", DTYPE_BF16, "y", DTYPE_BF16, "z",
                   DTYPE_BF16), "tk_rnd_bf16(__fmaf_rn(x, y, z))", "bf16 fma");
    EXPR(cgen_math(&e, IR_ADD_R, IR_RZ, DTYPE_FP32, "x", DTYPE_FP32, "y", DTYPE_FP32, NULL,
                   0), "__fadd_rz(x, y)", "add_rz");
    EXPR(cgen_math(&e, IR_CVT_R, IR_RD, DTYPE_INT32, "x", DTYPE_FP64, NULL, 0, NULL, 0),
         "((tk_i32)tk_d2i_sat(floor((double)(x)), 32))", "double2int_rd");
    EXPR(cgen_math(&e, IR_POPC, 0, DTYPE_INT32, "x", DTYPE_UINT64, NULL, 0, NULL, 0),
         "((tk_i32)__popcll((tk_u64)(x)))", "popc of 64 bits");
    EXPR(cgen_math(&e, IR_MULHI, 0, DTYPE_INT32, "x", DTYPE_INT32, "y", DTYPE_INT32, NULL,
                   0), "((tk_i32)__mulhi((tk_i32)(x), (tk_i32)(y)))", "mulhi");
    strbuf_clear(&e);
    cgen_load_expr(&e, DTYPE_FP16, "p");
    TAP_STR_EQ(strbuf_cstr(&e), "tk_f16_to_f32(*(const tk_u16 *)(p))", "fp16 load");
    strbuf_clear(&e);
    cgen_load_expr(&e, DTYPE_INT1, "p");
    TAP_STR_EQ(strbuf_cstr(&e), "((*(const tk_u8 *)(p)) != 0)", "int1 load: any nonzero byte");
    strbuf_clear(&e);
    cgen_store_stmt(&e, DTYPE_FP8E4NV, "p", "v");
    TAP_STR_EQ(strbuf_cstr(&e), "*(tk_u8 *)(p) = tk_e4m3_store(v);", "fp8 store");
    struct { dtype t; int64_t imm; double f; const char *want; } lits[] = {
        {DTYPE_FP32, 0, 1.5, "(0x1.8p+0f)"},
        {DTYPE_FP64, 0, -0.1, "(-0x1.999999999999ap-4)"},
        {DTYPE_FP16, 0, 0.1, "(0x1.998p-4f)"},
        {DTYPE_FP8E4NV, 0, 1000.0, "(0x1.cp+8f)"},
        {DTYPE_FP32, 0, -INFINITY, "tk_u2f(0xff800000u)"},
        {DTYPE_FP64, 0, INFINITY, "tk_u2d(0x7ff0000000000000ull)"},
        {DTYPE_INT32, -7, 0, "((tk_i32)-7ll)"},
        {DTYPE_INT8, 200, 0, "((tk_i8)-56ll)"},
        {DTYPE_INT64, INT64_MIN, 0, "((tk_i64)(-9223372036854775807ll - 1))"},
        {DTYPE_UINT64, -1, 0, "((tk_u64)18446744073709551615ull)"},
        {DTYPE_INT1, 1, 0, "true"},
    };
    for (size_t i = 0; i < sizeof lits / sizeof lits[0]; i++) {
        strbuf_clear(&e);
        cgen_literal(&e, lits[i].t, lits[i].imm, lits[i].f);
        TAP_STR_EQ(strbuf_cstr(&e), lits[i].want, "literal %s", dtype_name(lits[i].t));
    }
    /* refusals */
    strbuf_clear(&e);
    TAP_OK(!cgen_binary(&e, IR_XOR, DTYPE_FP32, "x", "y", DTYPE_FP32), "no xor of floats");
    TAP_OK(!cgen_cast(&e, IR_CAST_PLAIN, DTYPE_FP8E5, DTYPE_INT32, "x"), "no int -> fp8");
    TAP_OK(!cgen_math(&e, IR_EXP, 0, DTYPE_INT32, "x", DTYPE_INT32, NULL, 0, NULL, 0),
           "no exp of an int");
    TAP_OK(!cgen_math(&e, IR_ADD_R, 1, DTYPE_FP16, "x", DTYPE_FP16, "y", DTYPE_FP16, NULL, 0),
           "no add_rz on fp16 (the CPU has none)");
    TAP_OK(!cgen_math(&e, IR_ADD_R, 7, DTYPE_FP32, "x", DTYPE_FP32, "y", DTYPE_FP32, NULL, 0),
           "no rounding mode 7");
    TAP_OK(!cgen_math(&e, IR_FMA, 0, DTYPE_FP32, "x", DTYPE_FP32, "y", DTYPE_FP32, NULL, 0),
           "fma needs three operands");
    TAP_INT_EQ((long long)e.len, 0, "refusals append nothing");
#undef EXPR
    strbuf_free(&e);
}

/* ---- NVRTC ----------------------------------------------------------------------- */

typedef struct nvrtc_prog *nvrtc_prog;
typedef struct nvrtc_api {
    int (*create)(nvrtc_prog *, const char *, const char *, int, const char *const *,
                  const char *const *);
    int (*compile)(nvrtc_prog, int, const char *const *);
    int (*log_size)(nvrtc_prog, size_t *);
    int (*log)(nvrtc_prog, char *);
    int (*destroy)(nvrtc_prog *);
} nvrtc_api;

static void *load_nvrtc(nvrtc_api *api)
{
    const char *names[] = {getenv("TRITSIM_NVRTC"), "/usr/local/cuda/lib64/libnvrtc.so",
                           "libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (!names[i] || !*names[i])
            continue;
        void *h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
        if (!h)
            continue;
        *(void **)&api->create = dlsym(h, "nvrtcCreateProgram");
        *(void **)&api->compile = dlsym(h, "nvrtcCompileProgram");
        *(void **)&api->log_size = dlsym(h, "nvrtcGetProgramLogSize");
        *(void **)&api->log = dlsym(h, "nvrtcGetProgramLog");
        *(void **)&api->destroy = dlsym(h, "nvrtcDestroyProgram");
        if (api->create && api->compile && api->log_size && api->log && api->destroy)
            return h;
        dlclose(h);
    }
    return NULL;
}

/* Line n (from 1) of src, for a diagnostic. */
static void show_line(const char *src, long n)
{
    const char *p = src;
    for (long i = 1; i < n && p; i++) {
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    if (!p)
        return;
    const char *end = strchr(p, '\n');
    printf("#   line %ld: %.*s\n", n, (int)(end ? end - p : (long)strlen(p)), p);
}

/* Compile with the options cgen_expr.c names; ok when NVRTC succeeds and
 * says nothing (a warning fails too), else the log and its lines. */
static void compile_tu(const char *src, int kernels, int exprs)
{
    nvrtc_api api;
    void *h = load_nvrtc(&api);
    if (!h) {
        printf("ok %d # SKIP libnvrtc not found (set TRITSIM_NVRTC)\n", ++tap_count_);
        return;
    }
    /* cgen_expr.c's options, and the fastest compilation (the test runs nothing) */
    const char *opts[] = {"--gpu-architecture=sm_90", "--fmad=false", "-ftz=false",
                          "-prec-div=true", "-prec-sqrt=true", "--Ofast-compile=max"};
    nvrtc_prog p = NULL;
    int rc = api.create(&p, src, "cgen_expr_test.cu", 0, NULL, NULL);
    if (rc == 0)
        rc = api.compile(p, (int)(sizeof opts / sizeof opts[0]), opts);
    size_t n = 0;
    char *log = NULL;
    if (p && api.log_size(p, &n) == 0 && n > 0) {
        log = calloc(1, n + 1);
        api.log(p, log);
    }
    bool quiet = !log || strspn(log, " \r\n") == strlen(log);
    TAP_OK(rc == 0 && quiet, "NVRTC compiles %d kernels of %d expressions for sm_90 "
           "without a warning", kernels, exprs);
    if (rc != 0 || !quiet) {
        printf("# nvrtc result %d; log:\n", rc);
        int shown = 0;
        for (char *line = log ? strtok(log, "\n") : NULL; line && shown < 40;
             line = strtok(NULL, "\n"), shown++) {
            printf("#   %s\n", line);
            char *paren = strstr(line, ".cu(");
            if (paren)
                show_line(src, strtol(paren + 4, NULL, 10));
        }
        FILE *f = fopen("test_cgen_expr.cu", "w");
        if (f) {
            fputs(src, f);
            fclose(f);
            printf("# the source is in test_cgen_expr.cu\n");
        }
    }
    free(log);
    if (p)
        api.destroy(&p);
    /* NVRTC stays loaded: unloaded, the buffer its C++ runtime keeps for
     * its whole life would be reported as a leak under LeakSanitizer */
    (void)h;
}

int main(void)
{
    check_text();
    tu u = {0};
    strbuf_init(&u.src);
    cgen_target target = {CGEN_CUDA, 32, 90};
    cgen_expr_prelude(&u.src, &target);
    strbuf_putc(&u.src, '\n');
    check_binary(&u);
    check_unary_cmp(&u);
    check_casts(&u);
    check_math(&u);
    check_memory(&u);
    const char *dump = getenv("TRITSIM_CGEN_DUMP");     /* for a person: the source */
    FILE *f = dump ? fopen(dump, "w") : NULL;
    if (f) {
        fputs(strbuf_cstr(&u.src), f);
        fclose(f);
    }
    compile_tu(strbuf_cstr(&u.src), u.kernels, u.exprs);
    strbuf_free(&u.src);
    return tap_done();
}
