/* ir.c - the typed kernel IR's own code (ir.h): names, the operand walker,
 * the packed immediates, the verifier, and the text listing.
 *
 * Every question "which slots does this instruction read" and "is this
 * kernel well formed" is answered here, once, for the specializer's passes
 * (combine.c), the CPU executor and the backends to come.
 *
 * The listing is for `tritsim run --dump-ir`, for tests/ir and for people
 * reading what the specializer made; its shape is stable:
 *
 *   kernel copy_kernel(x_ptr: pointer<fp32>, z_ptr: pointer<fp32>, n: int32)
 *      0: program_id     %0:int32 <- axis 0  @3:11
 *      4: binary.add     %4:int32[4] <- %2:int32, %3:int32[4]  @4:12
 *      9: load           %9:fp32[4] <- %8:pointer<fp32>[4], mask %6:int1[4]  @6:9
 *     13: return  @7:5
 *
 * A line "      ; 12: stmt 3" comes before the first instruction of each
 * statement of the statement table (ir_kernel.stmts): statement 3, at line
 * 12, starts there; statements that emitted no code share a position.
 *
 * One instruction a line: its index, the opcode (with its variant after a
 * dot), the destination slot and the operands with their types, the
 * immediate where it means something, then @line:col of the source and,
 * for code inlined from another @triton.jit function, "in FUNC".  After
 * the code, a line per ir_print says what a PRINT shows (or an ASSERT's
 * message, a BREAKPOINT's condition):
 *
 *      ; print #0 (text) if pid[0] == 1: "x = ", %5(x):fp32[4] */
#include "ir.h"

#include <inttypes.h>
#include <string.h>

#include "pyformat.h"
#include "strbuf.h"

/* A value missing from a switch over an enum is an error here (ir.h) */
#pragma GCC diagnostic error "-Wswitch"
#pragma GCC diagnostic error "-Wswitch-enum"

static const char *const op_names[IR__COUNT] = {
#define IR_OP_NAME(name, text) text,
    IR_OPS(IR_OP_NAME)
#undef IR_OP_NAME
};

const char *ir_op_name(ir_opcode op)
{
    return (unsigned)op < IR__COUNT ? op_names[op] : "?";
}

/* ======================================================================
 * Operands.
 * ====================================================================== */

bool ir_writes_dst(const ir_inst *in)
{
    switch ((ir_opcode)in->op) {
    case IR_STORE: case IR_PRINT: case IR_ASSERT: case IR_BREAKPOINT: case IR_JUMP:
    case IR_BRANCH: case IR_RETURN: case IR_NOP:
        return false;
    case IR_CONST: case IR_PROGRAM_ID: case IR_NUM_PROGRAMS: case IR_ARG: case IR_ARANGE:
    case IR_COPY: case IR_BROADCAST: case IR_RESHAPE: case IR_TRANS: case IR_FLIP:
    case IR_CONCAT: case IR_SLICE: case IR_GATHER: case IR_HISTOGRAM: case IR_CAST:
    case IR_BITCAST: case IR_UNARY: case IR_BINARY: case IR_CMP: case IR_WHERE:
    case IR_MATH: case IR_PTR_ADD: case IR_LOAD: case IR_ATOMIC: case IR_DOT:
    case IR_REDUCE: case IR_SCAN:
        break;
    }
    return in->dst >= 0;
}

/* The operand fields an opcode reads (those of them that are set). */
enum { READS_A = 1, READS_B = 2, READS_C = 4, READS_D = 8 };

static unsigned ir_read_fields(const ir_inst *in)
{
    switch ((ir_opcode)in->op) {
    case IR_CONST: case IR_PROGRAM_ID: case IR_NUM_PROGRAMS: case IR_ARG: case IR_ARANGE:
    case IR_PRINT: case IR_BREAKPOINT: case IR_JUMP: case IR_RETURN: case IR_NOP:
        return 0;
    case IR_COPY: case IR_BROADCAST: case IR_RESHAPE: case IR_TRANS: case IR_FLIP:
    case IR_SLICE: case IR_CAST: case IR_BITCAST: case IR_UNARY: case IR_REDUCE:
    case IR_SCAN: case IR_BRANCH:
        return READS_A;
    case IR_CONCAT: case IR_GATHER: case IR_BINARY: case IR_CMP: case IR_PTR_ADD:
    case IR_HISTOGRAM:      /* b: the mask */
    case IR_ASSERT:         /* b: the mask */
        return READS_A | READS_B;
    case IR_WHERE: case IR_MATH: case IR_LOAD: case IR_STORE: case IR_DOT:
        return READS_A | READS_B | READS_C;
    case IR_ATOMIC:
        return READS_A | READS_B | READS_C | (in->sub == IR_ATOMIC_CAS ? READS_D : 0);
    }
    return 0;      /* not an opcode (ir_verify refuses it) */
}

int ir_reads(const ir_inst *in, int32_t out[IR_MAX_READS])
{
    unsigned f = ir_read_fields(in);
    int n = 0;
    if ((f & READS_A) && in->a >= 0)
        out[n++] = in->a;
    if ((f & READS_B) && in->b >= 0)
        out[n++] = in->b;
    if ((f & READS_C) && in->c >= 0)
        out[n++] = in->c;
    if ((f & READS_D) && in->d >= 0)
        out[n++] = in->d;
    return n;
}

const ir_print *ir_inst_print(const ir_kernel *k, const ir_inst *in)
{
    bool has = in->op == IR_PRINT || in->op == IR_ASSERT || in->op == IR_BREAKPOINT;
    return has && in->imm >= 0 && in->imm < k->nprints ? &k->prints[in->imm] : NULL;
}

bool ir_print_pid_passes(const ir_print *p, const int64_t pid[3])
{
    for (int i = 0; i < 3; i++) {
        int64_t x = pid[i], v = p->pid_cond[i].value;
        if (p->pid_cond[i].op < 0)          /* any */
            continue;
        bool ok = true;
        switch ((ir_cmp)p->pid_cond[i].op) {
        case IR_EQ: ok = x == v; break;
        case IR_NE: ok = x != v; break;
        case IR_LT: ok = x < v; break;
        case IR_LE: ok = x <= v; break;
        case IR_GT: ok = x > v; break;
        case IR_GE: ok = x >= v; break;
        }
        if (!ok)
            return false;
    }
    return true;
}

int64_t ir_type_numel(const ir_type *t)
{
    int64_t n = 1;
    for (int d = 0; d < t->ndim && d < IR_MAX_DIM; d++)
        n *= t->shape[d];
    return n;
}

/* ======================================================================
 * The verifier: the specializer's invariants and what every executor
 * relies on, checked once per launch.
 * ====================================================================== */

static bool slot_ok(const ir_kernel *k, int32_t s, bool optional)
{
    return (optional && s == -1) || (s >= 0 && s < k->nslots);
}

/* Elements of slot s (its type checked already). */
static int64_t numel_of(const ir_kernel *k, int32_t s)
{
    return ir_type_numel(&k->slots[s].type);
}

/* Is operand s usable lane-wise for a destination of n elements? */
static bool lanes_ok(const ir_kernel *k, int32_t s, int64_t n)
{
    return s < 0 || numel_of(k, s) == n || numel_of(k, s) == 1;
}

/* A slot's type: a valid dtype, 0 to IR_MAX_DIM dimensions of at least 1,
 * at most IR_MAX_NUMEL elements. */
static bool type_ok(const ir_type *t)
{
    int64_t n = 1;
    for (int d = 0; d < t->ndim && d < IR_MAX_DIM; d++) {
        if (t->shape[d] < 1 || t->shape[d] > IR_MAX_NUMEL)
            n = IR_MAX_NUMEL + 1;
        else
            n *= t->shape[d];
        if (n > IR_MAX_NUMEL)
            break;
    }
    return t->ndim >= 0 && t->ndim <= IR_MAX_DIM && n <= IR_MAX_NUMEL && dtype_valid(t->dt);
}

static const char *check_types(const ir_kernel *k, const ir_inst *in);

/* Names of the variants in `sub`, per opcode. */
static const char *const binop_names[] = {
    "add", "sub", "mul", "div", "floordiv", "mod", "and", "or", "xor",
    "shl", "shr", "min", "max", "min_nan", "max_nan", "pow", "atan2",
    "fdiv_rn",
};
_Static_assert(sizeof binop_names / sizeof binop_names[0] == IR_FDIV_RN + 1,
               "a name for every ir_binop");
static const char *const unop_names[] = {"neg", "invert", "not"};
_Static_assert(sizeof unop_names / sizeof unop_names[0] == IR_NOT + 1,
               "a name for every ir_unop");
static const char *const cmp_names[] = {"eq", "ne", "lt", "le", "gt", "ge"};
_Static_assert(sizeof cmp_names / sizeof cmp_names[0] == IR_GE + 1,
               "a name for every ir_cmp");
static const char *const cmp_ops[] = {"==", "!=", "<", "<=", ">", ">="};
static const char *const math_names[] = {
    "exp", "exp2", "log", "log2", "sqrt", "sqrt_rn", "rsqrt", "sin", "cos",
    "tan", "tanh", "abs", "floor", "ceil", "erf", "sigmoid", "fma", "umulhi",
    "asin", "acos", "atan", "sinh", "cosh", "asinh", "acosh", "atanh",
    "exp10", "expm1", "log10", "log1p", "cbrt", "rcbrt", "rsqrt_rn",
    "erfc", "erfinv", "erfcinv", "normcdf", "normcdfinv", "lgamma", "tgamma", "sinpi", "cospi",
    "j0", "j1", "y0", "y1", "trunc", "round", "rint", "logb", "saturate",
    "hypot", "rhypot", "copysign", "nextafter", "fdim", "remainder",
    "ldexp", "powi", "jn", "yn",
    "ilogb", "signbit", "isnan", "isinf", "isfinite", "llrint", "llround",
    "hilo2double", "double2lo", "double2hi",
    "popc", "clz", "ffs",
    "brev", "mulhi", "mul24", "hadd", "rhadd", "sad", "byte_perm",
    "add_r", "sub_r", "mul_r", "div_r", "rcp_r", "sqrt_r", "fma_r", "cvt_r",
};
_Static_assert(sizeof math_names / sizeof math_names[0] == IR_MATH__COUNT,
               "a name for every ir_math");
static const char *const round_names[] = {"rn", "rz", "rd", "ru"};
static const char *const reduce_names[] = {
    "sum", "prod", "max", "min", "argmax", "argmin", "xor", "and", "or",
};
_Static_assert(sizeof reduce_names / sizeof reduce_names[0] == IR_RED_OR + 1,
               "a name for every ir_reduce");
static const char *const atomic_names[] = {
    "add", "max", "min", "xchg", "cas", "and", "or", "xor",
};
_Static_assert(sizeof atomic_names / sizeof atomic_names[0] == IR_ATOMIC_XOR + 1,
               "a name for every ir_atomic");
static const char *const prec_names[] = {"ieee", "tf32", "tf32x3"};
static const char *const cast_names[] = {"plain", "tf32", "rtz"};
_Static_assert(sizeof cast_names / sizeof cast_names[0] == IR_CAST_RTZ + 1,
               "a name for every ir_cast_kind");
static const char *const assert_names[] = {"device", "rule"};
_Static_assert(sizeof assert_names / sizeof assert_names[0] == IR_ASSERT_RULE + 1,
               "a name for every ir_assert_kind");

#define NAME_AT(table, i) \
    ((unsigned)(i) < sizeof table / sizeof table[0] ? table[i] : "?")

/* The names of the opcode's variants (its sub), and how many it has: the
 * one list of which opcodes have variants, which the verifier and the
 * listing both read.  NULL and 0 for an opcode without (sub not read). */
static const char *const *variants(ir_opcode op, int *count)
{
#define VARIANTS(table) (*count = (int)(sizeof table / sizeof table[0]), table)
    switch (op) {
    case IR_UNARY: return VARIANTS(unop_names);
    case IR_BINARY: return VARIANTS(binop_names);
    case IR_CMP: return VARIANTS(cmp_names);
    case IR_MATH: return VARIANTS(math_names);
    case IR_REDUCE: case IR_SCAN: return VARIANTS(reduce_names);
    case IR_ATOMIC: return VARIANTS(atomic_names);
    case IR_CAST: return VARIANTS(cast_names);
    case IR_ASSERT: return VARIANTS(assert_names);
    case IR_CONST: case IR_PROGRAM_ID: case IR_NUM_PROGRAMS: case IR_ARG: case IR_ARANGE:
    case IR_COPY: case IR_BROADCAST: case IR_RESHAPE: case IR_TRANS: case IR_FLIP:
    case IR_CONCAT: case IR_SLICE: case IR_GATHER: case IR_HISTOGRAM: case IR_BITCAST:
    case IR_WHERE: case IR_PTR_ADD: case IR_LOAD: case IR_STORE: case IR_DOT:
    case IR_PRINT: case IR_BREAKPOINT: case IR_JUMP: case IR_BRANCH: case IR_RETURN:
    case IR_NOP:
        break;
    }
#undef VARIANTS
    *count = 0;
    return NULL;
}

/* Is sub one of the opcode's variants?  (Executors switch over them with
 * no default, so a value past the last one must not reach them.) */
static bool sub_ok(const ir_inst *in)
{
    int n;
    return !variants((ir_opcode)in->op, &n) || in->sub < n;
}

/* Which operands the opcode needs, and its indices in imm. */
static const char *check_inst(const ir_kernel *k, const ir_inst *in)
{
    bool need_dst = true, need_a = false, need_b = false;
    if (in->op >= IR__COUNT)
        return "unknown opcode";
    if (!sub_ok(in))
        return "unknown variant";
    switch ((ir_opcode)in->op) {
    case IR_CONST: case IR_PROGRAM_ID: case IR_NUM_PROGRAMS: case IR_ARANGE: break;
    case IR_ARG:
        if (in->imm < 0 || in->imm >= k->nparams)
            return "argument index out of range";
        break;
    case IR_COPY: case IR_BROADCAST: case IR_RESHAPE: case IR_TRANS: case IR_CAST:
    case IR_FLIP: case IR_SLICE: case IR_BITCAST: case IR_UNARY: case IR_MATH:
    case IR_REDUCE: case IR_SCAN:
        need_a = true;
        break;
    case IR_BINARY: case IR_CMP: case IR_PTR_ADD: case IR_DOT: case IR_CONCAT:
    case IR_GATHER:
        need_a = need_b = true;
        break;
    case IR_HISTOGRAM:
        need_a = true;
        break;
    case IR_WHERE:
        need_a = need_b = true;
        if (!slot_ok(k, in->c, false))
            return "bad operand slot";
        break;
    case IR_LOAD: need_a = true; break;
    case IR_STORE: need_dst = false; need_a = need_b = true; break;
    case IR_ATOMIC:
        need_dst = false;
        need_a = need_b = true;
        if (in->sub == IR_ATOMIC_CAS && !slot_ok(k, in->d, false))
            return "bad value slot";
        break;
    case IR_PRINT: case IR_BREAKPOINT: case IR_ASSERT:
        need_dst = false;
        need_a = in->op == IR_ASSERT;
        if (in->imm >= k->nprints || (in->op == IR_PRINT && in->imm < 0))
            return "print index out of range";
        break;
    case IR_JUMP: case IR_BRANCH:
        need_dst = false;
        need_a = in->op == IR_BRANCH;
        if (in->imm < 0 || in->imm > k->ncode)
            return "jump target out of range";
        break;
    case IR_RETURN: case IR_NOP: need_dst = false; break;
    }
    if (!slot_ok(k, in->dst, !need_dst) || !slot_ok(k, in->a, !need_a) ||
        !slot_ok(k, in->b, !need_b) || !slot_ok(k, in->c, true))
        return "bad operand slot";
    if (in->op == IR_ATOMIC || in->op == IR_STORE || in->op == IR_LOAD ||
        in->op == IR_PTR_ADD)
        if (!dtype_is_ptr(k->slots[in->a].type.dt))
            return "pointer operand is not a pointer";
    if (in->op == IR_ATOMIC || in->op == IR_STORE || in->op == IR_LOAD) {
        int32_t pa = k->slots[in->a].ptr_arg;
        if (pa >= k->nparams || (pa >= 0 && !dtype_is_ptr(k->params[pa].dt)))
            return "pointer slot names no pointer argument";
    }
    bool elementwise = in->op == IR_UNARY || in->op == IR_BINARY || in->op == IR_CMP ||
                       in->op == IR_WHERE || in->op == IR_MATH || in->op == IR_PTR_ADD ||
                       in->op == IR_CAST || in->op == IR_BITCAST || in->op == IR_LOAD;
    if (elementwise) {
        int64_t n = numel_of(k, in->dst);
        if (!lanes_ok(k, in->a, n) || !lanes_ok(k, in->b, n) || !lanes_ok(k, in->c, n))
            return "operand shapes do not match the destination";
    }
    if ((in->op == IR_BROADCAST || in->op == IR_TRANS || in->op == IR_DOT ||
         in->op == IR_REDUCE || in->op == IR_FLIP || in->op == IR_CONCAT ||
         in->op == IR_SLICE || in->op == IR_GATHER || in->op == IR_HISTOGRAM) &&
        (in->dst == in->a || in->dst == in->b))
        return "destination overlaps an operand";
    if (in->op == IR_RESHAPE && numel_of(k, in->dst) != numel_of(k, in->a))
        return "reshape changes the element count";
    return check_types(k, in);
}

/* Every operand in s[] is n lanes or a scalar. */
static bool all_lanes_ok(const ir_kernel *k, const int32_t *s, int count, int64_t n)
{
    for (int i = 0; i < count; i++)
        if (!lanes_ok(k, s[i], n))
            return false;
    return true;
}

static int64_t max_numel(const ir_kernel *k, const int32_t *s, int count)
{
    int64_t n = 1;
    for (int i = 0; i < count; i++)
        if (s[i] >= 0 && numel_of(k, s[i]) > n)
            n = numel_of(k, s[i]);
    return n;
}

/* BROADCAST: numpy's rules, a's shape aligned on the right. */
static bool broadcast_ok(const ir_type *ta, const ir_type *td)
{
    if (ta->ndim > td->ndim)
        return false;
    for (int j = 0; j < ta->ndim; j++) {
        int32_t from = ta->shape[j], to = td->shape[j + td->ndim - ta->ndim];
        if (from != 1 && from != to)
            return false;
    }
    return true;
}

/* TRANS: a permutation, and dst's shape is a's, permuted. */
static bool trans_ok(const ir_type *ta, const ir_type *td, const ir_inst *in)
{
    bool used[IR_MAX_DIM] = {false};
    if (ta->ndim != td->ndim)
        return false;
    for (int d = 0; d < td->ndim; d++) {
        int from = ir_trans_axis(in, d);
        if (from >= ta->ndim || used[from] || td->shape[d] != ta->shape[from])
            return false;
        used[from] = true;
    }
    return true;
}

static bool dot_ok(const ir_kernel *k, const ir_inst *in)
{
    const ir_type *ta = &k->slots[in->a].type, *tb = &k->slots[in->b].type;
    const ir_type *td = &k->slots[in->dst].type;
    int nd = ta->ndim;
    if (nd < 2 || tb->ndim != nd || td->ndim != nd ||
        ta->shape[nd - 1] != tb->shape[nd - 2] || td->shape[nd - 2] != ta->shape[nd - 2] ||
        td->shape[nd - 1] != tb->shape[nd - 1])
        return false;
    for (int i = 0; i < nd - 2; i++)    /* batch dimensions */
        if (tb->shape[i] != ta->shape[i] || td->shape[i] != ta->shape[i])
            return false;
    if (in->c >= 0 && numel_of(k, in->c) != numel_of(k, in->dst) && numel_of(k, in->c) != 1)
        return false;
    return (int64_t)ta->shape[nd - 2] * ta->shape[nd - 1] < INT32_MAX &&
           (int64_t)tb->shape[nd - 2] * tb->shape[nd - 1] < INT32_MAX;
}

/* FLIP keeps the shape; CONCAT joins two shapes along the axis; SLICE
 * takes a run of the axis that lies inside the operand. */
static bool blocks_ok(const ir_kernel *k, const ir_inst *in)
{
    const ir_type *ta = &k->slots[in->a].type, *td = &k->slots[in->dst].type;
    const ir_type *tb = in->op == IR_CONCAT ? &k->slots[in->b].type : NULL;
    int64_t ax = in->op == IR_SLICE ? ir_slice_axis(in) : in->imm;
    int64_t start = in->op == IR_SLICE ? ir_slice_start(in) : 0;
    if (ax < 0 || ax >= ta->ndim || td->ndim != ta->ndim || (tb && tb->ndim != ta->ndim))
        return false;
    for (int d = 0; d < ta->ndim; d++) {
        if (d != ax && (td->shape[d] != ta->shape[d] || (tb && tb->shape[d] != ta->shape[d])))
            return false;
    }
    if (in->op == IR_FLIP)
        return td->shape[ax] == ta->shape[ax];
    if (in->op == IR_CONCAT)
        return td->shape[ax] == (int64_t)ta->shape[ax] + tb->shape[ax];
    return start >= 0 && start + td->shape[ax] <= ta->shape[ax];
}

/* GATHER: index and result share a shape, equal to the source's except on
 * the axis. */
static bool gather_ok(const ir_kernel *k, const ir_inst *in)
{
    const ir_type *ta = &k->slots[in->a].type, *tb = &k->slots[in->b].type;
    const ir_type *td = &k->slots[in->dst].type;
    if (in->imm < 0 || in->imm >= ta->ndim || tb->ndim != ta->ndim || td->ndim != ta->ndim)
        return false;
    for (int d = 0; d < ta->ndim; d++)
        if (td->shape[d] != tb->shape[d] || (d != in->imm && tb->shape[d] != ta->shape[d]))
            return false;
    return true;
}

/* Operands a, b, c (those set) of dst's dtype. */
static const char *same_types(const ir_kernel *k, const ir_inst *in)
{
    dtype d = k->slots[in->dst].type.dt;
    if ((in->a >= 0 && k->slots[in->a].type.dt != d) ||
        (in->b >= 0 && k->slots[in->b].type.dt != d) ||
        (in->c >= 0 && k->slots[in->c].type.dt != d))
        return "operand types differ from the destination's";
    return NULL;
}

/* MATH's operand and result types: the function's own for those with
 * mixed types (ints and floats), else every operand of dst's dtype. */
static const char *check_math(const ir_kernel *k, const ir_inst *in)
{
    dtype d = k->slots[in->dst].type.dt, a = k->slots[in->a].type.dt;
    dtype b = in->b >= 0 ? k->slots[in->b].type.dt : DTYPE_INVALID;
    bool fa = a == DTYPE_FP32 || a == DTYPE_FP64;
    bool ok = false;
    switch ((ir_math)in->sub) {
    case IR_LDEXP: case IR_POWI:
        ok = fa && d == a && b == DTYPE_INT32;
        break;
    case IR_JN: case IR_YN:
        ok = a == DTYPE_INT32 && (b == DTYPE_FP32 || b == DTYPE_FP64) && d == b;
        break;
    case IR_ILOGB: case IR_SIGNBIT:
        ok = fa && d == DTYPE_INT32;
        break;
    case IR_ISNAN: case IR_ISINF: case IR_ISFINITE:
        ok = fa && d == DTYPE_INT1;
        break;
    case IR_LLRINT: case IR_LLROUND:
        ok = fa && d == DTYPE_INT64;
        break;
    case IR_HILO2DOUBLE:
        ok = a == DTYPE_INT32 && b == DTYPE_INT32 && d == DTYPE_FP64;
        break;
    case IR_DOUBLE2LO: case IR_DOUBLE2HI:
        ok = a == DTYPE_FP64 && d == DTYPE_INT32;
        break;
    case IR_POPC: case IR_CLZ: case IR_FFS:
        ok = (a == DTYPE_INT32 || a == DTYPE_UINT32 || a == DTYPE_INT64 ||
              a == DTYPE_UINT64) && d == DTYPE_INT32;
        break;
    case IR_CVT_R: {
        static const dtype num[] = {DTYPE_FP32, DTYPE_FP64, DTYPE_INT32, DTYPE_UINT32,
                                    DTYPE_INT64, DTYPE_UINT64};
        bool oa = false, od = false;
        for (size_t i = 0; i < sizeof num / sizeof num[0]; i++)
            oa = oa || a == num[i], od = od || d == num[i];
        /* ints convert to floats only */
        ok = oa && od && (fa || d == DTYPE_FP32 || d == DTYPE_FP64);
        break;
    }
    case IR_EXP: case IR_EXP2: case IR_LOG: case IR_LOG2: case IR_SQRT: case IR_SQRT_RN:
    case IR_RSQRT: case IR_SIN: case IR_COS: case IR_TAN: case IR_TANH: case IR_ABS:
    case IR_FLOOR: case IR_CEIL: case IR_ERF: case IR_SIGMOID: case IR_FMA: case IR_UMULHI:
    case IR_ASIN: case IR_ACOS: case IR_ATAN: case IR_SINH: case IR_COSH: case IR_ASINH:
    case IR_ACOSH: case IR_ATANH: case IR_EXP10: case IR_EXPM1: case IR_LOG10:
    case IR_LOG1P: case IR_CBRT: case IR_RCBRT: case IR_RSQRT_RN: case IR_ERFC:
    case IR_ERFINV: case IR_ERFCINV: case IR_NORMCDF: case IR_NORMCDFINV: case IR_LGAMMA:
    case IR_TGAMMA: case IR_SINPI: case IR_COSPI: case IR_J0: case IR_J1: case IR_Y0:
    case IR_Y1: case IR_TRUNC: case IR_ROUND: case IR_RINT: case IR_LOGB: case IR_SATURATE:
    case IR_HYPOT: case IR_RHYPOT: case IR_COPYSIGN: case IR_NEXTAFTER: case IR_FDIM:
    case IR_REMAINDER: case IR_BREV: case IR_MULHI: case IR_MUL24: case IR_HADD:
    case IR_RHADD: case IR_SAD: case IR_BYTE_PERM: case IR_ADD_R: case IR_SUB_R:
    case IR_MUL_R: case IR_DIV_R: case IR_RCP_R: case IR_SQRT_R: case IR_FMA_R:
        return same_types(k, in);
    }
    return ok ? NULL : "bad operand types for this function";
}

/* The element types and counts the executors' typed loops rely on. */
static const char *check_types(const ir_kernel *k, const ir_inst *in)
{
#define DTY(s) (k->slots[s].type.dt)
#define NUM(s) numel_of(k, s)
#define ELEM_OF(s) dtype_elem(k->slots[s].type.dt)
    int32_t ops[5] = {in->dst, in->a, in->b, in->c, -1};
    switch ((ir_opcode)in->op) {
    case IR_CONST: case IR_CAST: case IR_PRINT: case IR_BREAKPOINT: case IR_JUMP:
    case IR_RETURN: case IR_NOP:
        return NULL;
    case IR_PROGRAM_ID: case IR_NUM_PROGRAMS:
        return DTY(in->dst) == DTYPE_INT32 && NUM(in->dst) == 1 ? NULL
               : "program ids are int32 scalars";
    case IR_ARG:
        return NUM(in->dst) == 1 ? NULL : "arguments are scalars";
    case IR_ARANGE:
        return DTY(in->dst) == DTYPE_INT32 && k->slots[in->dst].type.ndim == 1 ? NULL
               : "arange makes a 1-d int32 tile";
    case IR_COPY: case IR_RESHAPE:
        return DTY(in->a) == DTY(in->dst) && NUM(in->a) == NUM(in->dst) ? NULL
               : "the operand's type or element count differs";
    case IR_BROADCAST:
        return DTY(in->a) == DTY(in->dst) &&
               broadcast_ok(&k->slots[in->a].type, &k->slots[in->dst].type) ? NULL
               : "shapes do not broadcast";
    case IR_TRANS:
        return DTY(in->a) == DTY(in->dst) &&
               trans_ok(&k->slots[in->a].type, &k->slots[in->dst].type, in) ? NULL
               : "not a permutation of the operand's axes";
    case IR_FLIP: case IR_CONCAT: case IR_SLICE:
        return DTY(in->a) == DTY(in->dst) &&
               (in->op != IR_CONCAT || DTY(in->b) == DTY(in->dst)) && blocks_ok(k, in)
               ? NULL : "bad flip, concat or slice operand shapes";
    case IR_BITCAST:
        return dtype_size(DTY(in->a)) == dtype_size(DTY(in->dst)) ? NULL
               : "bitcast between types of different sizes";
    case IR_MATH:
        return check_math(k, in);
    case IR_UNARY:
        return same_types(k, in);
    case IR_BINARY:
        if (in->sub == IR_SHL || in->sub == IR_SHR)
            return DTY(in->a) == DTY(in->dst) && dtype_is_int(DTY(in->b)) &&
                   !dtype_is_ptr(DTY(in->b)) ? NULL : "bad shift operand types";
        return DTY(in->a) == DTY(in->dst) && DTY(in->b) == DTY(in->dst) ? NULL
               : "operand types differ from the destination's";
    case IR_CMP:
        return DTY(in->a) == DTY(in->b) && DTY(in->dst) == DTYPE_INT1 ? NULL
               : "comparison operand types differ";
    case IR_WHERE:
        return DTY(in->a) == DTYPE_INT1 && DTY(in->b) == DTY(in->dst) &&
               DTY(in->c) == DTY(in->dst) ? NULL : "bad where operand types";
    case IR_PTR_ADD:
        return dtype_is_ptr(DTY(in->dst)) && dtype_is_int(DTY(in->b)) &&
               !dtype_is_ptr(DTY(in->b)) ? NULL : "bad pointer arithmetic types";
    case IR_LOAD:
        return DTY(in->dst) == ELEM_OF(in->a) && (in->b < 0 || DTY(in->b) == DTYPE_INT1) &&
               (in->c < 0 || DTY(in->c) == DTY(in->dst)) ? NULL : "bad load operand types";
    case IR_STORE:
        if (DTY(in->b) != ELEM_OF(in->a) || (in->c >= 0 && DTY(in->c) != DTYPE_INT1))
            return "bad store operand types";
        return all_lanes_ok(k, ops + 1, 3, max_numel(k, ops + 1, 3)) ? NULL
               : "operand shapes differ";
    case IR_ATOMIC: {
        int32_t v = in->sub == IR_ATOMIC_CAS ? in->d : in->b;
        ops[4] = v;
        if (DTY(in->b) != ELEM_OF(in->a) || DTY(v) != ELEM_OF(in->a) ||
            (in->dst >= 0 && DTY(in->dst) != ELEM_OF(in->a)) ||
            (in->c >= 0 && DTY(in->c) != DTYPE_INT1))
            return "bad atomic operand types";
        int64_t n = max_numel(k, ops, 5);
        return all_lanes_ok(k, ops, 5, n) && (in->dst < 0 || NUM(in->dst) == n) ? NULL
               : "operand shapes differ";
    }
    case IR_DOT:
        return dot_ok(k, in) ? NULL : "dot operands are not [..., M, K] @ [..., K, N] -> "
                                      "[..., M, N]";
    case IR_REDUCE: {
        const ir_type *ta = &k->slots[in->a].type;
        if (in->imm < -1 || in->imm >= ta->ndim)
            return "reduction axis out of range";
        int64_t len = in->imm < 0 ? NUM(in->a) : ta->shape[in->imm];
        bool arg = in->sub == IR_RED_ARGMAX || in->sub == IR_RED_ARGMIN;
        if (arg ? !dtype_is_int(DTY(in->dst)) || dtype_is_ptr(DTY(in->dst))
                : DTY(in->dst) != DTY(in->a))
            return "bad reduction result type";
        return NUM(in->dst) * len == NUM(in->a) ? NULL : "bad reduction result shape";
    }
    case IR_SCAN:
        if (in->imm < 0 || in->imm >= k->slots[in->a].type.ndim)
            return "scan axis out of range";
        return DTY(in->dst) == DTY(in->a) && NUM(in->dst) == NUM(in->a) ? NULL
               : "bad scan result type";
    case IR_GATHER:
        return DTY(in->dst) == DTY(in->a) && dtype_is_int(DTY(in->b)) &&
               !dtype_is_ptr(DTY(in->b)) && gather_ok(k, in) ? NULL
               : "bad gather operand types or shapes";
    case IR_HISTOGRAM:
        return DTY(in->dst) == DTYPE_INT32 && k->slots[in->dst].type.ndim == 1 &&
               NUM(in->dst) == in->imm && dtype_is_int(DTY(in->a)) &&
               !dtype_is_ptr(DTY(in->a)) && k->slots[in->a].type.ndim == 1 &&
               (in->b < 0 || (DTY(in->b) == DTYPE_INT1 && NUM(in->b) == NUM(in->a)))
               ? NULL : "bad histogram operand types or shapes";
    case IR_BRANCH:
        return NUM(in->a) == 1 ? NULL : "branch on a tile";
    case IR_ASSERT:
        if (in->b >= 0 && DTY(in->b) != DTYPE_INT1)
            return "bad assert mask type";
        return all_lanes_ok(k, ops + 1, 2, max_numel(k, ops + 1, 2)) ? NULL
               : "operand shapes differ";
    }
    return NULL;
#undef DTY
#undef NUM
#undef ELEM_OF
}

bool ir_verify(const ir_kernel *k, ir_fault *f)
{
    *f = (ir_fault){.slot = -1, .pc = -1};
    for (int32_t s = 0; s < k->nslots; s++)
        if (!type_ok(&k->slots[s].type)) {
            f->slot = s;
            f->why = "invalid type";
            return false;
        }
    for (int32_t pc = 0; pc < k->ncode; pc++) {
        const char *why = check_inst(k, &k->code[pc]);
        if (why) {
            f->pc = pc;
            f->why = why;
            return false;
        }
    }
    for (int32_t i = 0; i < k->nprints; i++)     /* slots named by the prints exist */
        for (int32_t j = 0; j < k->prints[i].npieces; j++)
            if (!slot_ok(k, k->prints[i].pieces[j].slot, true)) {
                f->why = "a print names a bad slot";
                return false;
            }
    return true;
}

/* ======================================================================
 * The listing.
 * ====================================================================== */

void ir_type_str(const ir_type *t, char *buf, size_t len)
{
    if (len == 0)
        return;
    size_t n = (size_t)snprintf(buf, len, "%s", dtype_name(t->dt));
    if (t->ndim <= 0)
        return;
    for (int i = 0; i < t->ndim && i < IR_MAX_DIM && n < len; i++)
        n += (size_t)snprintf(buf + n, len - n, "%s%" PRId32, i ? ", " : "[",
                              t->shape[i]);
    if (n < len)
        snprintf(buf + n, len - n, "]");
}

static const char *sub_name(const ir_inst *in)
{
    /* the plain cast and tl.device_assert show no variant */
    if ((in->op == IR_CAST && in->sub == IR_CAST_PLAIN) ||
        (in->op == IR_ASSERT && in->sub == IR_ASSERT_DEVICE))
        return NULL;
    int n;
    const char *const *names = variants((ir_opcode)in->op, &n);
    if (!names)
        return NULL;
    return in->sub < n ? names[in->sub] : "?";
}

/* "%3:fp32[64]", or "%3(offs):int32[64]" for a named slot. */
static void put_slot(const ir_kernel *k, int32_t s, FILE *out)
{
    if (s < 0 || s >= k->nslots) {
        fprintf(out, "%%%" PRId32 ":?", s);
        return;
    }
    char ty[96];
    ir_type_str(&k->slots[s].type, ty, sizeof ty);
    if (k->slots[s].name && k->slots[s].name[0])
        fprintf(out, "%%%" PRId32 "(%s):%s", s, k->slots[s].name, ty);
    else
        fprintf(out, "%%%" PRId32 ":%s", s, ty);
}

/* Does the instruction use its operand d (only ATOMIC CAS does)? */
static bool has_d(const ir_inst *in)
{
    return (ir_read_fields(in) & READS_D) && in->d >= 0;
}

/* Operands a, b, c, d with a label where the role is not obvious. */
static void put_operands(const ir_kernel *k, const ir_inst *in, FILE *out)
{
    const char *lb = "", *lc = "";
    if (in->op == IR_LOAD)
        lb = "mask ", lc = "other ";
    else if (in->op == IR_STORE)
        lc = "mask ";
    else if (in->op == IR_ATOMIC)
        lb = in->sub == IR_ATOMIC_CAS ? "cmp " : "", lc = "mask ";
    else if (in->op == IR_DOT)
        lc = "acc ";
    else if (in->op == IR_ASSERT || in->op == IR_HISTOGRAM)
        lb = "mask ";
    int n = 0;
    if (in->a >= 0) { put_slot(k, in->a, out); n++; }
    if (in->b >= 0) { fprintf(out, "%s%s", n++ ? ", " : "", lb); put_slot(k, in->b, out); }
    if (in->c >= 0) { fprintf(out, "%s%s", n++ ? ", " : "", lc); put_slot(k, in->c, out); }
    if (has_d(in)) { fprintf(out, "%svalue ", n++ ? ", " : ""); put_slot(k, in->d, out); }
}

/* The immediate, worded per opcode; nothing where it is unused. */
static void put_imm(const ir_kernel *k, const ir_inst *in, FILE *out)
{
    bool any = in->a >= 0 || in->b >= 0 || in->c >= 0 || has_d(in);
    const char *sep = any ? ", " : "";
    switch ((ir_opcode)in->op) {
    case IR_CONST: {
        dtype t = in->dst >= 0 && in->dst < k->nslots ? k->slots[in->dst].type.dt
                                                      : DTYPE_INVALID;
        if (!dtype_is_ptr(t) && dtype_is_float(t)) {
            strbuf b;            /* as Python shows it: 2.0, 0.1, inf */
            strbuf_init(&b);
            pyformat_float_repr(&b, in->fimm);
            fputs(strbuf_cstr(&b), out);
            strbuf_free(&b);
        } else
            fprintf(out, "%" PRId64, in->imm);
        break;
    }
    case IR_PROGRAM_ID: case IR_NUM_PROGRAMS:
        fprintf(out, "axis %" PRId64, in->imm);
        break;
    case IR_ARG:
        fprintf(out, "arg %" PRId64, in->imm);
        if (in->imm >= 0 && in->imm < k->nparams && k->params[in->imm].name)
            fprintf(out, " '%s'", k->params[in->imm].name);
        break;
    case IR_ARANGE:
        fprintf(out, "start %" PRId64, in->imm);
        break;
    case IR_TRANS: {
        int nd = in->dst >= 0 && in->dst < k->nslots ? k->slots[in->dst].type.ndim : 0;
        fprintf(out, "%sperm (", sep);
        for (int i = 0; i < nd; i++)
            fprintf(out, "%s%d", i ? ", " : "", ir_trans_axis(in, i));
        fputc(')', out);
        break;
    }
    case IR_FLIP: case IR_CONCAT: case IR_GATHER:
        fprintf(out, "%saxis %" PRId64, sep, in->imm);
        break;
    case IR_HISTOGRAM:
        fprintf(out, "%sbins %" PRId64, sep, in->imm);
        break;
    case IR_SLICE:
        fprintf(out, "%saxis %d, start %" PRId64, sep, ir_slice_axis(in), ir_slice_start(in));
        break;
    case IR_DOT:
        fprintf(out, "%sprecision %s", sep, NAME_AT(prec_names, in->imm));
        break;
    case IR_REDUCE: case IR_SCAN:
        if (in->imm < 0)
            fprintf(out, "%sall axes", sep);
        else
            fprintf(out, "%saxis %" PRId64, sep, in->imm);
        break;
    case IR_PRINT: case IR_ASSERT: case IR_BREAKPOINT:
        fprintf(out, "%sprint #%" PRId64, sep, in->imm);
        break;
    case IR_JUMP:
        fprintf(out, "-> %" PRId64, in->imm);
        break;
    case IR_BRANCH:
        fprintf(out, "%s-> %" PRId64 " if zero", sep, in->imm);
        break;
    case IR_MATH:
        if (in->sub >= IR_ADD_R)
            fprintf(out, "%s%s", sep, NAME_AT(round_names, in->imm));
        break;
    case IR_COPY: case IR_BROADCAST: case IR_RESHAPE: case IR_CAST: case IR_BITCAST:
    case IR_UNARY: case IR_BINARY: case IR_CMP: case IR_WHERE: case IR_PTR_ADD:
    case IR_LOAD: case IR_STORE: case IR_ATOMIC: case IR_RETURN: case IR_NOP:
        break;
    }
}

static void put_params(const ir_kernel *k, FILE *out)
{
    for (int i = 0; i < k->nparams; i++)
        fprintf(out, "%s%s: %s%s", i ? ", " : "",
                k->params[i].name ? k->params[i].name : "?",
                dtype_name(k->params[i].dt),
                k->params[i].div16 ? " (divisible by 16)" : "");
}

/* "      ; 12: stmt 3": statement 3 (at line 12) starts here. */
static void put_stmt(const ir_kernel *k, int32_t st, FILE *out)
{
    const ir_stmt *t = &k->stmts[st];
    fprintf(out, "      ; %d: stmt %" PRId32 "\n", t->at ? t->at->span.line : 0, st);
}

/* Literal text in double quotes, with C's escapes. */
static void put_text(const char *s, FILE *out)
{
    fputc('"', out);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(out, "\\%c", ch);
        else if (ch == '\n')
            fputs("\\n", out);
        else if (ch == '\t')
            fputs("\\t", out);
        else if (ch < 0x20 || ch == 0x7f)
            fprintf(out, "\\x%02x", ch);
        else
            fputc(ch, out);
    }
    fputc('"', out);
}

/* "   ; print #0 (device, hex) if pid[0] == 1: "x: ", %5:fp32[4]": what a
 * PRINT writes (or an ASSERT's message, a BREAKPOINT's condition), its
 * program-id conditions, and its pieces: text, and slots with their
 * conversion (!r) and format spec (:.2f). */
static void put_print(const ir_kernel *k, int32_t i, FILE *out)
{
    const ir_print *p = &k->prints[i];
    fprintf(out, "      ; print #%" PRId32 " (%s%s)", i,
            p->kind == IR_PRINT_DEVICE ? "device" : "text", p->hex ? ", hex" : "");
    const char *sep = " if ";
    for (int ax = 0; ax < 3; ax++)
        if (p->pid_cond[ax].op >= 0) {
            fprintf(out, "%spid[%d] %s %" PRId64, sep, ax, NAME_AT(cmp_ops, p->pid_cond[ax].op),
                    p->pid_cond[ax].value);
            sep = " and ";
        }
    if (p->npieces)
        fputc(':', out);
    for (int32_t j = 0; j < p->npieces; j++) {
        const ir_fmt_piece *pc = &p->pieces[j];
        fputs(j ? ", " : " ", out);
        if (pc->slot < 0) {
            put_text(pc->text ? pc->text : "", out);
            continue;
        }
        put_slot(k, pc->slot, out);
        if (pc->conv)
            fprintf(out, "!%c", pc->conv);
        if (pc->spec)
            fprintf(out, ":%s", pc->spec);
    }
    fputc('\n', out);
}

void ir_dump(const ir_kernel *k, FILE *out)
{
    fprintf(out, "kernel %s(", k->name ? k->name : "?");
    put_params(k, out);
    fputs(")\n", out);
    int32_t st = 0;
    for (int32_t pc = 0; pc < k->ncode; pc++) {
        for (; st < k->nstmts && k->stmts[st].pc <= pc; st++)
            put_stmt(k, st, out);
        const ir_inst *in = &k->code[pc];
        const char *sub = sub_name(in);
        char op[32];
        if (sub)
            snprintf(op, sizeof op, "%s.%s", ir_op_name((ir_opcode)in->op), sub);
        else
            snprintf(op, sizeof op, "%s", ir_op_name((ir_opcode)in->op));
        bool operands = in->a >= 0 || in->b >= 0 || in->c >= 0 || has_d(in) ||
                        (in->op != IR_RETURN && in->op != IR_NOP);
        bool rest = in->dst >= 0 || operands;
        fprintf(out, rest ? "%4" PRId32 ": %-14s" : "%4" PRId32 ": %s", pc, op);
        if (in->dst >= 0) {
            fputc(' ', out);
            put_slot(k, in->dst, out);
            fputs(" <-", out);
        }
        if (operands) {
            fputc(' ', out);
            put_operands(k, in, out);
            put_imm(k, in, out);
        }
        if (in->at)
            fprintf(out, "  @%d:%d", in->at->span.line, in->at->span.col);
        if (in->frame >= 0 && in->frame < k->nframes && k->frames[in->frame].func &&
            k->frames[in->frame].parent >= 0)
            fprintf(out, " in %s", k->frames[in->frame].func);
        fputc('\n', out);
    }
    for (; st < k->nstmts; st++)
        put_stmt(k, st, out);
    for (int32_t i = 0; i < k->nprints; i++)
        put_print(k, i, out);
}
