/* ir.c - names and the text listing of the typed kernel IR (ir.h).
 *
 * The listing is for `tritsim parse --ir`, for tests and for people
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
 * immediate where it means something, then @line:col of the source. */
#include "ir.h"

#include <inttypes.h>
#include <string.h>

static const char *const op_names[IR__COUNT] = {
#define IR_OP_NAME(name, text) text,
    IR_OPS(IR_OP_NAME)
#undef IR_OP_NAME
};

bool ir_writes_dst(const ir_inst *in)
{
    switch ((ir_opcode)in->op) {
    case IR_STORE: case IR_PRINT: case IR_ASSERT: case IR_BREAKPOINT: case IR_JUMP:
    case IR_BRANCH: case IR_RETURN: case IR_NOP:
        return false;
    default:
        return in->dst >= 0;
    }
}

const char *ir_op_name(ir_opcode op)
{
    return (unsigned)op < IR__COUNT ? op_names[op] : "?";
}

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

/* Names of the variants in `sub`, per opcode. */
static const char *const binop_names[] = {
    "add", "sub", "mul", "div", "floordiv", "mod", "and", "or", "xor",
    "shl", "shr", "min", "max", "min_nan", "max_nan", "pow", "atan2",
    "fdiv_rn",
};
static const char *const unop_names[] = {"neg", "invert", "not"};
static const char *const cmp_names[] = {"eq", "ne", "lt", "le", "gt", "ge"};
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
    "add", "sub", "mul", "div", "rcp", "sqrt", "fma", "cvt",
};
_Static_assert(sizeof math_names / sizeof math_names[0] == IR_MATH__COUNT,
               "a name for every ir_math");
static const char *const round_names[] = {"rn", "rz", "rd", "ru"};
static const char *const reduce_names[] = {
    "sum", "prod", "max", "min", "argmax", "argmin", "xor", "and", "or",
};
static const char *const atomic_names[] = {
    "add", "max", "min", "xchg", "cas", "and", "or", "xor",
};
static const char *const prec_names[] = {"ieee", "tf32", "tf32x3"};

#define NAME_AT(table, i) \
    ((unsigned)(i) < sizeof table / sizeof table[0] ? table[i] : "?")

static const char *sub_name(const ir_inst *in)
{
    switch (in->op) {
    case IR_BINARY: return NAME_AT(binop_names, in->sub);
    case IR_UNARY: return NAME_AT(unop_names, in->sub);
    case IR_CMP: return NAME_AT(cmp_names, in->sub);
    case IR_MATH: return NAME_AT(math_names, in->sub);
    case IR_REDUCE: case IR_SCAN: return NAME_AT(reduce_names, in->sub);
    case IR_ATOMIC: return NAME_AT(atomic_names, in->sub);
    case IR_CAST: return in->sub == 1 ? "tf32" : NULL;
    default: return NULL;
    }
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

/* Operand a, b, c with a label where the role is not obvious. */
static void put_operands(const ir_kernel *k, const ir_inst *in, FILE *out)
{
    const char *lb = "", *lc = "";
    switch (in->op) {
    case IR_LOAD: lb = "mask "; lc = "other "; break;
    case IR_STORE: lc = "mask "; break;
    case IR_ATOMIC: lb = in->sub == IR_ATOMIC_CAS ? "cmp " : ""; lc = "mask "; break;
    case IR_DOT: lc = "acc "; break;
    case IR_ASSERT: lb = "mask "; break;
    default: break;
    }
    int n = 0;
    if (in->a >= 0) { put_slot(k, in->a, out); n++; }
    if (in->b >= 0) { fprintf(out, "%s%s", n++ ? ", " : "", lb); put_slot(k, in->b, out); }
    if (in->c >= 0) { fprintf(out, "%s%s", n++ ? ", " : "", lc); put_slot(k, in->c, out); }
}

/* The immediate, worded per opcode; nothing where it is unused. */
static void put_imm(const ir_kernel *k, const ir_inst *in, FILE *out)
{
    bool any = in->a >= 0 || in->b >= 0 || in->c >= 0;
    const char *sep = any ? ", " : "";
    switch (in->op) {
    case IR_CONST: {
        dtype t = in->dst >= 0 && in->dst < k->nslots ? k->slots[in->dst].type.dt
                                                      : DTYPE_INVALID;
        if (!dtype_is_ptr(t) && dtype_is_float(t))
            fprintf(out, "%.17g", in->fimm);
        else
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
            fprintf(out, "%s%d", i ? ", " : "", (int)((in->imm >> (4 * i)) & 15));
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
        fprintf(out, "%saxis %" PRId64 ", start %" PRId64, sep, in->imm & 15, in->imm >> 4);
        break;
    case IR_ATOMIC:
        if (in->sub == IR_ATOMIC_CAS) {
            fprintf(out, "%svalue ", sep);
            put_slot(k, (int32_t)in->imm, out);
        }
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
    case IR_JUMP: case IR_BRANCH:
        fprintf(out, "%s-> %" PRId64, sep, in->imm);
        break;
    case IR_MATH:
        if (in->sub >= IR_ADD_R)
            fprintf(out, "%s%s", sep, NAME_AT(round_names, in->imm));
        break;
    default:
        break;
    }
}

static void put_params(const ir_kernel *k, FILE *out)
{
    for (int i = 0; i < k->nparams; i++)
        fprintf(out, "%s%s: %s", i ? ", " : "",
                k->params[i].name ? k->params[i].name : "?",
                dtype_name(k->params[i].dt));
}

/* "      ; 12: stmt 3": statement 3 (at line 12) starts here. */
static void put_stmt(const ir_kernel *k, int32_t st, FILE *out)
{
    const ir_stmt *t = &k->stmts[st];
    fprintf(out, "      ; %d: stmt %" PRId32 "\n", t->at ? t->at->span.line : 0, st);
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
        bool operands = in->a >= 0 || in->b >= 0 || in->c >= 0 ||
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
        if (in->frame >= 0 && in->frame < k->nframes && k->frames[in->frame].func)
            fprintf(out, " in %s", k->frames[in->frame].func);
        fputc('\n', out);
    }
    for (; st < k->nstmts; st++)
        put_stmt(k, st, out);
}
