/* spec_libdevice.c - triton.language.extra.libdevice in kernels (also
 * spelled triton.language.extra.cuda.libdevice, and tl.extra.libdevice /
 * tl.extra.cuda.libdevice): the functions of Triton 3.6's CUDA
 * libdevice.py that tritsim implements.
 *
 * Each function has the dtype signatures of its arg_type_symbol_dict and
 * is dispatched as core.extern_elementwise does it: the arguments become
 * tiles (Python numbers take their own dtype: 2 is int32, 2.0 fp32); when
 * their dtypes match a signature they are only broadcast to one shape;
 * otherwise they are first converted to their common type (the arithmetic
 * rules of a + b) and must then match one, else the call is an error, as
 * Triton's "input arg type does not match".  So libdevice.asin takes fp32
 * and fp64 but not fp16, bf16 or ints, and libdevice.pow(x, 2) on an fp32
 * x is the (fp32, int32) version.
 *
 * Instead of calling NVIDIA's bitcode, a signature names the instruction
 * that computes it (MATH, BINARY or BITCAST with its variant): the
 * executor's versions use C's libm, so results can differ from a GPU's in
 * the last bits (see doc/language.md). */
#include "spec_tl.h"

#include <stdio.h>
#include <string.h>

#define F32 DTYPE_FP32
#define F64 DTYPE_FP64
#define I32 DTYPE_INT32
#define I64 DTYPE_INT64
#define U32 DTYPE_UINT32
#define U64 DTYPE_UINT64
#define B1 DTYPE_INT1

/* One signature: argument dtypes, result dtype, the instruction (op, sub,
 * and for MATH's *_R variants the rounding mode).  via, when set (not 0,
 * DTYPE_INVALID), is the dtype the instruction computes, bitcast to ret
 * (libdevice's conversions to unsigned types return the bits as a signed
 * type). */
typedef struct ld_sig {
    dtype arg[3];
    dtype ret;
    uint8_t op, sub, round;
    dtype via;
} ld_sig;

typedef struct ld_fn {
    const char *name;
    int nargs;
    const ld_sig *sigs;     /* up to one whose ret is DTYPE_INVALID */
} ld_fn;

#define END {{DTYPE_INVALID}, DTYPE_INVALID, 0, 0, 0, DTYPE_INVALID}
#define SIGS(...) ((const ld_sig[]){__VA_ARGS__, END})
/* fp32 -> fp32 and fp64 -> fp64, with 1, 2 or 3 arguments */
#define FLOAT1(op, sub) SIGS({{F32}, F32, op, sub, 0, 0}, {{F64}, F64, op, sub, 0, 0})
#define FLOAT2(op, sub) SIGS({{F32, F32}, F32, op, sub, 0, 0}, {{F64, F64}, F64, op, sub, 0, 0})
#define FLOAT3(op, sub) \
    SIGS({{F32, F32, F32}, F32, op, sub, 0, 0}, {{F64, F64, F64}, F64, op, sub, 0, 0})
#define MATH1(sub) FLOAT1(IR_MATH, sub)
#define MATH2(sub) FLOAT2(IR_MATH, sub)
/* rounded IEEE operations: the mode in the signature */
#define ROUND1(sub, r) SIGS({{F32}, F32, IR_MATH, sub, r, 0}, {{F64}, F64, IR_MATH, sub, r, 0})
#define ROUND2(sub, r) \
    SIGS({{F32, F32}, F32, IR_MATH, sub, r, 0}, {{F64, F64}, F64, IR_MATH, sub, r, 0})
#define ROUND3(sub, r) \
    SIGS({{F32, F32, F32}, F32, IR_MATH, sub, r, 0}, {{F64, F64, F64}, F64, IR_MATH, sub, r, 0})
/* fp32 only */
#define FP32_1(op, sub) SIGS({{F32}, F32, op, sub, 0, 0})
/* a float in, another dtype out */
#define TEST1(sub, r) SIGS({{F32}, r, IR_MATH, sub, 0, 0}, {{F64}, r, IR_MATH, sub, 0, 0})
/* the four rounding modes of one operation */
#define ROUNDINGS(name, n, R, sub) \
    {name "_rn", n, R(sub, IR_RN)}, {name "_rz", n, R(sub, IR_RZ)}, \
    {name "_rd", n, R(sub, IR_RD)}, {name "_ru", n, R(sub, IR_RU)}
/* a conversion from one dtype to another, computed as via */
#define CVT(from, to, via, r) SIGS({{from}, to, IR_MATH, IR_CVT_R, r, via})
#define CVT_RN(name, from, to, via) {name, 1, CVT(from, to, via, IR_RN)}
#define CONVERSIONS(name, from, to, via) \
    {name "_rn", 1, CVT(from, to, via, IR_RN)}, {name "_rz", 1, CVT(from, to, via, IR_RZ)}, \
    {name "_rd", 1, CVT(from, to, via, IR_RD)}, {name "_ru", 1, CVT(from, to, via, IR_RU)}

static const ld_fn ld_fns[] = {
    /* integers */
    {"clz", 1, SIGS({{I32}, I32, IR_MATH, IR_CLZ, 0, 0}, {{I64}, I32, IR_MATH, IR_CLZ, 0, 0})},
    {"popc", 1, SIGS({{I32}, I32, IR_MATH, IR_POPC, 0, 0}, {{I64}, I32, IR_MATH, IR_POPC, 0, 0})},
    {"ffs", 1, SIGS({{I32}, I32, IR_MATH, IR_FFS, 0, 0}, {{I64}, I32, IR_MATH, IR_FFS, 0, 0})},
    {"brev", 1, SIGS({{I32}, I32, IR_MATH, IR_BREV, 0, 0}, {{I64}, I64, IR_MATH, IR_BREV, 0, 0})},
    {"byte_perm", 3, SIGS({{I32, I32, I32}, I32, IR_MATH, IR_BYTE_PERM, 0, 0})},
    {"mulhi", 2, SIGS({{I32, I32}, I32, IR_MATH, IR_MULHI, 0, 0},
                      {{U32, U32}, U32, IR_MATH, IR_MULHI, 0, 0},
                      {{I64, I64}, I64, IR_MATH, IR_MULHI, 0, 0},
                      {{U64, U64}, U64, IR_MATH, IR_MULHI, 0, 0})},
    {"mul24", 2, SIGS({{I32, I32}, I32, IR_MATH, IR_MUL24, 0, 0},
                      {{U32, U32}, U32, IR_MATH, IR_MUL24, 0, 0})},
    {"hadd", 2, SIGS({{I32, I32}, I32, IR_MATH, IR_HADD, 0, 0},
                     {{U32, U32}, U32, IR_MATH, IR_HADD, 0, 0})},
    {"rhadd", 2, SIGS({{I32, I32}, I32, IR_MATH, IR_RHADD, 0, 0},
                      {{U32, U32}, U32, IR_MATH, IR_RHADD, 0, 0})},
    {"sad", 3, SIGS({{I32, I32, U32}, I32, IR_MATH, IR_SAD, 0, 0},
                    {{U32, U32, U32}, U32, IR_MATH, IR_SAD, 0, 0})},
    {"abs", 1, SIGS({{I32}, I32, IR_MATH, IR_ABS, 0, 0}, {{I64}, I64, IR_MATH, IR_ABS, 0, 0},
                    {{F32}, F32, IR_MATH, IR_ABS, 0, 0}, {{F64}, F64, IR_MATH, IR_ABS, 0, 0})},
    /* rounding to integers, parts of floats */
    {"floor", 1, MATH1(IR_FLOOR)},
    {"ceil", 1, MATH1(IR_CEIL)},
    {"trunc", 1, MATH1(IR_TRUNC)},
    {"round", 1, MATH1(IR_ROUND)},
    {"rint", 1, MATH1(IR_RINT)},
    {"nearbyint", 1, MATH1(IR_RINT)},
    {"llrint", 1, TEST1(IR_LLRINT, I64)},
    {"llround", 1, TEST1(IR_LLROUND, I64)},
    {"saturatef", 1, FP32_1(IR_MATH, IR_SATURATE)},
    {"ilogb", 1, TEST1(IR_ILOGB, I32)},
    {"logb", 1, MATH1(IR_LOGB)},
    {"ldexp", 2, SIGS({{F32, I32}, F32, IR_MATH, IR_LDEXP, 0, 0},
                      {{F64, I32}, F64, IR_MATH, IR_LDEXP, 0, 0})},
    {"scalbn", 2, SIGS({{F32, I32}, F32, IR_MATH, IR_LDEXP, 0, 0},
                       {{F64, I32}, F64, IR_MATH, IR_LDEXP, 0, 0})},
    {"copysign", 2, MATH2(IR_COPYSIGN)},
    {"nextafter", 2, MATH2(IR_NEXTAFTER)},
    {"signbit", 1, TEST1(IR_SIGNBIT, I32)},
    {"isnan", 1, TEST1(IR_ISNAN, B1)},
    {"isinf", 1, TEST1(IR_ISINF, B1)},
    {"finitef", 1, SIGS({{F32}, B1, IR_MATH, IR_ISFINITE, 0, 0})},
    {"isfinited", 1, SIGS({{F64}, B1, IR_MATH, IR_ISFINITE, 0, 0})},
    /* conversions, rounded as their names say (to ints: saturated, NaN
     * giving 0); the *2uint and *2ull ones return the bits as int32/int64 */
    CONVERSIONS("double2float", F64, F32, F32),
    CONVERSIONS("double2int", F64, I32, I32),
    CONVERSIONS("double2uint", F64, I32, U32),
    CONVERSIONS("double2ll", F64, I64, I64),
    CONVERSIONS("double2ull", F64, I64, U64),
    CONVERSIONS("float2int", F32, I32, I32),
    CONVERSIONS("float2uint", F32, I32, U32),
    CONVERSIONS("float2ll", F32, I64, I64),
    CONVERSIONS("float2ull", F32, I64, U64),
    CONVERSIONS("int2float", I32, F32, F32),
    CONVERSIONS("uint2float", U32, F32, F32),
    CONVERSIONS("ll2float", I64, F32, F32),
    CONVERSIONS("ull2float", U64, F32, F32),
    CONVERSIONS("ll2double", I64, F64, F64),
    CONVERSIONS("ull2double", U64, F64, F64),
    CVT_RN("int2double_rn", I32, F64, F64),
    CVT_RN("uint2double_rn", U32, F64, F64),
    /* bits of floats */
    {"hiloint2double", 2, SIGS({{I32, I32}, F64, IR_MATH, IR_HILO2DOUBLE, 0, 0})},
    {"double2loint", 1, SIGS({{F64}, I32, IR_MATH, IR_DOUBLE2LO, 0, 0})},
    {"double2hiint", 1, SIGS({{F64}, I32, IR_MATH, IR_DOUBLE2HI, 0, 0})},
    {"int_as_float", 1, SIGS({{I32}, F32, IR_BITCAST, 0, 0, 0})},
    {"float_as_int", 1, SIGS({{F32}, I32, IR_BITCAST, 0, 0, 0})},
    {"uint_as_float", 1, SIGS({{U32}, F32, IR_BITCAST, 0, 0, 0})},
    {"float_as_uint", 1, SIGS({{F32}, I32, IR_BITCAST, 0, 0, 0})},
    {"longlong_as_double", 1, SIGS({{I64}, F64, IR_BITCAST, 0, 0, 0})},
    {"double_as_longlong", 1, SIGS({{F64}, I64, IR_BITCAST, 0, 0, 0})},
    /* IEEE operations, correctly rounded in the mode their name says */
    ROUNDINGS("add", 2, ROUND2, IR_ADD_R),
    ROUNDINGS("sub", 2, ROUND2, IR_SUB_R),
    ROUNDINGS("mul", 2, ROUND2, IR_MUL_R),
    ROUNDINGS("div", 2, ROUND2, IR_DIV_R),
    ROUNDINGS("rcp", 1, ROUND1, IR_RCP_R),
    ROUNDINGS("sqrt", 1, ROUND1, IR_SQRT_R),
    ROUNDINGS("fma", 3, ROUND3, IR_FMA_R),
    {"fma", 3, FLOAT3(IR_MATH, IR_FMA)},
    {"sqrt", 1, MATH1(IR_SQRT)},
    {"rsqrt", 1, MATH1(IR_RSQRT_RN)},
    {"rsqrt_rn", 1, FP32_1(IR_MATH, IR_RSQRT_RN)},
    {"fast_dividef", 2, SIGS({{F32, F32}, F32, IR_BINARY, IR_DIV, 0, 0})},
    {"fmod", 2, FLOAT2(IR_BINARY, IR_MOD)},
    {"remainder", 2, MATH2(IR_REMAINDER)},
    {"fdim", 2, MATH2(IR_FDIM)},
    {"hypot", 2, MATH2(IR_HYPOT)},
    {"rhypot", 2, MATH2(IR_RHYPOT)},
    {"cbrt", 1, MATH1(IR_CBRT)},
    {"rcbrt", 1, MATH1(IR_RCBRT)},
    /* exponentials and logarithms */
    {"exp", 1, MATH1(IR_EXP)},
    {"exp2", 1, MATH1(IR_EXP2)},
    {"exp10", 1, MATH1(IR_EXP10)},
    {"expm1", 1, MATH1(IR_EXPM1)},
    {"log", 1, MATH1(IR_LOG)},
    {"log2", 1, MATH1(IR_LOG2)},
    {"log10", 1, MATH1(IR_LOG10)},
    {"log1p", 1, MATH1(IR_LOG1P)},
    {"pow", 2, SIGS({{F32, I32}, F32, IR_MATH, IR_POWI, 0, 0},
                    {{F64, I32}, F64, IR_MATH, IR_POWI, 0, 0},
                    {{F32, F32}, F32, IR_BINARY, IR_POW, 0, 0},
                    {{F64, F64}, F64, IR_BINARY, IR_POW, 0, 0})},
    /* trigonometric and hyperbolic functions */
    {"sin", 1, MATH1(IR_SIN)},
    {"cos", 1, MATH1(IR_COS)},
    {"tan", 1, MATH1(IR_TAN)},
    {"sinpi", 1, MATH1(IR_SINPI)},
    {"cospi", 1, MATH1(IR_COSPI)},
    {"asin", 1, MATH1(IR_ASIN)},
    {"acos", 1, MATH1(IR_ACOS)},
    {"atan", 1, MATH1(IR_ATAN)},
    {"atan2", 2, FLOAT2(IR_BINARY, IR_ATAN2)},
    {"sinh", 1, MATH1(IR_SINH)},
    {"cosh", 1, MATH1(IR_COSH)},
    {"tanh", 1, MATH1(IR_TANH)},
    {"asinh", 1, MATH1(IR_ASINH)},
    {"acosh", 1, MATH1(IR_ACOSH)},
    {"atanh", 1, MATH1(IR_ATANH)},
    /* the fast_* versions: approximations on the GPU, accurate here */
    {"fast_sinf", 1, FP32_1(IR_MATH, IR_SIN)},
    {"fast_cosf", 1, FP32_1(IR_MATH, IR_COS)},
    {"fast_tanf", 1, FP32_1(IR_MATH, IR_TAN)},
    {"fast_expf", 1, FP32_1(IR_MATH, IR_EXP)},
    {"fast_exp10f", 1, FP32_1(IR_MATH, IR_EXP10)},
    {"fast_logf", 1, FP32_1(IR_MATH, IR_LOG)},
    {"fast_log2f", 1, FP32_1(IR_MATH, IR_LOG2)},
    {"fast_log10f", 1, FP32_1(IR_MATH, IR_LOG10)},
    {"fast_powf", 2, SIGS({{F32, F32}, F32, IR_BINARY, IR_POW, 0, 0})},
    /* special functions */
    {"erf", 1, MATH1(IR_ERF)},
    {"erfc", 1, MATH1(IR_ERFC)},
    {"erfinv", 1, MATH1(IR_ERFINV)},
    {"erfcinv", 1, MATH1(IR_ERFCINV)},
    {"normcdf", 1, MATH1(IR_NORMCDF)},
    {"normcdfinv", 1, MATH1(IR_NORMCDFINV)},
    {"lgamma", 1, MATH1(IR_LGAMMA)},
    {"tgamma", 1, MATH1(IR_TGAMMA)},
    {"j0", 1, MATH1(IR_J0)},
    {"j1", 1, MATH1(IR_J1)},
    {"y0", 1, MATH1(IR_Y0)},
    {"y1", 1, MATH1(IR_Y1)},
    {"jn", 2, SIGS({{I32, F32}, F32, IR_MATH, IR_JN, 0, 0},
                   {{I32, F64}, F64, IR_MATH, IR_JN, 0, 0})},
    {"yn", 2, SIGS({{I32, F32}, F32, IR_MATH, IR_YN, 0, 0},
                   {{I32, F64}, F64, IR_MATH, IR_YN, 0, 0})},
};

enum { LD_NFNS = sizeof ld_fns / sizeof ld_fns[0] };

static const char ld_prefix[] = "triton.language.extra.libdevice.";
static const char ld_cuda_prefix[] = "triton.language.extra.cuda.libdevice.";

/* The function name of a libdevice qualified name (either spelling), or
 * NULL. */
static const char *ld_short_name(const char *qual)
{
    if (!strncmp(qual, ld_prefix, sizeof ld_prefix - 1))
        return qual + sizeof ld_prefix - 1;
    if (!strncmp(qual, ld_cuda_prefix, sizeof ld_cuda_prefix - 1))
        return qual + sizeof ld_cuda_prefix - 1;
    return NULL;
}

static const ld_fn *ld_find(const char *qual)
{
    const char *name = ld_short_name(qual);
    if (!name)
        return NULL;
    for (int i = 0; i < LD_NFNS; i++)
        if (!strcmp(ld_fns[i].name, name))
            return &ld_fns[i];
    return NULL;
}

bool sp_libdevice_has(const char *qual)
{
    return ld_find(qual) != NULL;
}

const char *sp_libdevice_name(int i)
{
    static char names[LD_NFNS][64];
    if (i < 0 || i >= LD_NFNS)
        return NULL;
    if (!names[i][0])
        snprintf(names[i], sizeof names[i], "%s%s", ld_prefix, ld_fns[i].name);
    return names[i];
}

static const ld_sig *ld_match(const ld_fn *f, const dtype *dt)
{
    for (const ld_sig *g = f->sigs; g->ret != DTYPE_INVALID; g++) {
        bool ok = true;
        for (int i = 0; i < f->nargs; i++)
            ok = ok && g->arg[i] == dt[i];
        if (ok)
            return g;
    }
    return NULL;
}

/* "(fp32, int32)" */
static void ld_types_str(const dtype *dt, int n, char *buf, size_t len)
{
    size_t k = (size_t)snprintf(buf, len, "(");
    for (int i = 0; i < n && k < len; i++)
        k += (size_t)snprintf(buf + k, len - k, "%s%s", i ? ", " : "", dtype_name(dt[i]));
    if (k < len)
        snprintf(buf + k, len - k, ")");
}

/* No signature for the argument dtypes dt, nor (when not NULL and
 * different) for their common type, common. */
static bool ld_no_match(spec *s, const ld_fn *f, const dtype *dt, const dtype *common,
                        const ast_node *call)
{
    char got[256], list[512] = "";
    ld_types_str(dt, f->nargs, got, sizeof got);
    if (common && memcmp(common, dt, (size_t)f->nargs * sizeof *dt)) {
        size_t k = strlen(got);
        snprintf(got + k, sizeof got - k, " nor for their common type ");
        k = strlen(got);
        ld_types_str(common, f->nargs, got + k, sizeof got - k);
    }
    int nsig = 0;
    while (f->sigs[nsig].ret != DTYPE_INVALID)
        nsig++;
    for (int i = 0; i < nsig; i++) {
        char one[96];
        ld_types_str(f->sigs[i].arg, f->nargs, one, sizeof one);
        size_t k = strlen(list);
        snprintf(list + k, sizeof list - k, "%s%s", i == 0 ? "" : i == nsig - 1 ? " or " : ", ",
                 one);
    }
    /* one argument, not fp32 or fp64, where fp32 would do: say how */
    bool hint = f->nargs == 1 && dt[0] != DTYPE_FP32 && dt[0] != DTYPE_FP64 &&
                ld_match(f, (const dtype[]){DTYPE_FP32}) != NULL;
    return sp_error(s, call, "libdevice.%s has no version for %s: Triton's takes %s "
                    "(\"input arg type does not match\")%s", f->name, got, list,
                    hint ? "; convert with .to(tl.float32)" : "");
}

bool sp_libdevice_call(spec *s, const char *qual, const sp_args *a, const ast_node *call,
                       sval *out)
{
    static const char *const params[] = {"arg0", "arg0, arg1", "arg0, arg1, arg2"};
    const ld_fn *f = ld_find(qual);
    if (!f) {
        char buf[128];
        return sp_error(s, call, "%s is not supported in kernels by tritsim (see "
                        "doc/language.md)", sp_display_name(qual, buf, sizeof buf));
    }
    sval p[3];
    int32_t x[3];
    dtype dt[3] = {DTYPE_INVALID, DTYPE_INVALID, DTYPE_INVALID};
    if (!sp_bind_args(s, qual, params[f->nargs - 1], a, call, p, f->nargs))
        return false;
    char what[32];
    for (int i = 0; i < f->nargs; i++) {
        snprintf(what, sizeof what, "arg%d", i);
        if (!sp_want_tile(s, p[i], call, what, &x[i]))
            return false;
        dt[i] = sp_slot_type(s, x[i])->dt;
    }
    ir_type shape = *sp_slot_type(s, x[0]);
    char fname[64];
    snprintf(fname, sizeof fname, "libdevice.%s", f->name);
    for (int i = 1; i < f->nargs; i++)
        if (!sp_shapes_join(s, &shape, sp_slot_type(s, x[i]), &shape, call, fname))
            return false;
    const ld_sig *g = ld_match(f, dt);
    if (!g) {
        /* extern_elementwise's arithmetic check: every argument to the
         * common type of all, as a + b would have it, then dispatch */
        dtype common = dt[0], cdt[3] = {DTYPE_INVALID, DTYPE_INVALID, DTYPE_INVALID};
        for (int i = 0; i < f->nargs; i++) {
            dtype_operand l = {.type = dt[i]}, r = {.type = common};
            dtype_binop_types ty;
            char err[256];
            if (dtype_is_ptr(dt[i]) || dtype_is_ptr(common) ||
                !dtype_binop(DTYPE_OP_ADD, l, r, &ty, err, sizeof err))
                return ld_no_match(s, f, dt, NULL, call);
            common = ty.result;
        }
        for (int i = 0; i < f->nargs; i++)
            cdt[i] = common;
        if (!(g = ld_match(f, cdt)))
            return ld_no_match(s, f, dt, cdt, call);
        for (int i = 0; i < f->nargs; i++)
            x[i] = sp_cast(s, x[i], common, call);
    }
    for (int i = 0; i < f->nargs; i++) {
        /* sad's (int32, int32, uint32): the executor reads c in a's type */
        if (g->op == IR_MATH && g->sub == IR_SAD && i == 2 &&
            sp_slot_type(s, x[i])->dt != g->ret) {
            ir_type t = *sp_slot_type(s, x[i]);
            t.dt = g->ret;
            x[i] = sp_new_tile(s, t, IR_BITCAST, 0, x[i], -1, -1, 0, call).slot;
        }
        x[i] = sp_broadcast_to(s, x[i], &shape, call);
    }
    shape.dt = g->via ? g->via : g->ret;
    *out = sp_new_tile(s, shape, (ir_opcode)g->op, g->sub, x[0], f->nargs > 1 ? x[1] : -1,
                       f->nargs > 2 ? x[2] : -1, g->round, call);
    if (shape.dt != g->ret) {
        shape.dt = g->ret;
        *out = sp_new_tile(s, shape, IR_BITCAST, 0, out->slot, -1, -1, 0, call);
    }
    return true;
}
