/* ir.h - the typed kernel IR: what the specializer makes of a @triton.jit
 * function for one set of constexpr values and argument types, and what the
 * executors (CPU now, CUDA/HIP emitters later) consume.
 *
 * A kernel is a flat array of three-address instructions over numbered
 * slots.  Every slot has a static type: an element dtype (or a pointer to
 * one) and a static shape of up to IR_MAX_DIM dimensions (0 dimensions: a
 * scalar).  Control flow is lowered to JUMP/BRANCH with instruction indices,
 * so an executor is one loop over instructions with no recursion, and the
 * debugger can stop before any instruction.
 *
 * Invariants the specializer guarantees, so executors never check them:
 *  - operands of an elementwise instruction have the destination's shape, or
 *    are scalars (0-d), which broadcast;  every other broadcast is an
 *    explicit IR_BROADCAST;
 *  - operands of BINARY/CMP have the same dtype (promotion is explicit CASTs);
 *  - BRANCH conditions are scalars;
 *  - a slot written in a loop keeps its type across iterations.
 * Nothing here is CPU-specific: slots are values, not memory.
 *
 * doc/ir.md is the contract: what every opcode means, how the semantics C
 * leaves open are decided, and which results a GPU backend must reproduce
 * bit for bit (and which within what tolerance).  An executor reads an
 * instruction's operands through ir_reads and packed immediates through
 * the accessors below, and trusts only kernels that pass ir_verify. */
#ifndef TRITSIM_IR_H
#define TRITSIM_IR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ast.h"
#include "dtype.h"

enum { IR_MAX_DIM = 5 };
/* The most elements a slot may have (ir_verify refuses larger types). */
#define IR_MAX_NUMEL ((int64_t)1 << 26)

typedef struct ir_type {
    dtype dt;              /* element dtype, maybe with DTYPE_PTR */
    int8_t ndim;
    int32_t shape[IR_MAX_DIM];
} ir_type;

/* Opcodes.  dst, a, b, c, d are slot numbers (-1 when unused); imm and
 * fimm are immediate operands; sub selects a variant (an ir_binop for
 * BINARY, an ir_unop for UNARY, an ir_cmp for CMP, an ir_math for MATH, an
 * ir_reduce for REDUCE and SCAN, an ir_atomic for ATOMIC, an ir_cast_kind
 * for CAST, an ir_assert_kind for ASSERT).  Which operands an opcode reads
 * is ir_reads'; an immediate packed from several values has accessors
 * (ir_trans_axis, ir_slice_axis, ir_slice_start) and packers for the
 * specializer. */
#define IR_OPS(X) \
    X(CONST,       "const")        /* dst = imm (ints) or fimm (floats), splat */ \
    X(PROGRAM_ID,  "program_id")   /* dst(int32 scalar) = pid[imm] */ \
    X(NUM_PROGRAMS,"num_programs") /* dst(int32 scalar) = grid[imm] */ \
    X(ARG,         "arg")          /* dst(scalar) = runtime kernel argument imm */ \
    X(ARANGE,      "arange")       /* dst(int32 [n]) = imm + [0, n) */ \
    X(COPY,        "copy")         /* dst = a (same type) */ \
    X(BROADCAST,   "broadcast")    /* dst = a broadcast (numpy rules) to dst's shape */ \
    X(RESHAPE,     "reshape")      /* dst = a's elements in row-major order, new shape */ \
    X(TRANS,       "trans")        /* dst = a with axes permuted: dst axis i is a's
                                      axis ir_trans_axis(in, i) */ \
    X(FLIP,        "flip")         /* dst = a reversed along axis imm */ \
    X(CONCAT,      "concat")       /* dst = a then b along axis imm (other axes
                                      equal): tl.cat, tl.join */ \
    X(SLICE,       "slice")        /* dst = a[start : start + n] along axis
                                      ir_slice_axis(in), start =
                                      ir_slice_start(in), n = dst's size on
                                      that axis: tl.split */ \
    X(GATHER,      "gather")       /* dst = a with the coordinate on axis imm
                                      replaced by b's (an int tile of dst's
                                      shape; a's shape off the axis); an index
                                      outside the axis is an error: tl.gather */ \
    X(HISTOGRAM,   "histogram")    /* dst(int32 [imm]) = counts of the values
                                      of a (1-d ints) in [0, imm), lanes where
                                      b (int1; -1: all): tl.histogram */ \
    X(CAST,        "cast")         /* dst = a converted to dst's dtype (dtype_cast),
                                      as sub (an ir_cast_kind) says */ \
    X(BITCAST,     "bitcast")      /* dst = a's bits as dst's dtype (same size) */ \
    X(UNARY,       "unary")        /* dst = sub(a) */ \
    X(BINARY,      "binary")       /* dst = a sub b */ \
    X(CMP,         "cmp")          /* dst(int1) = a sub b */ \
    X(WHERE,       "where")        /* dst = a(int1) ? b : c */ \
    X(MATH,        "math")         /* dst = sub(a[, b[, c]]) on floats */ \
    X(PTR_ADD,     "ptr_add")      /* dst(ptr) = a(ptr) + b(int) * sizeof(elem) */ \
    X(LOAD,        "load")         /* dst = *a for lanes where b (int1; -1: all),
                                      else c (-1: zero) */ \
    X(STORE,       "store")        /* *a = b for lanes where c (int1; -1: all) */ \
    X(ATOMIC,      "atomic")       /* dst = old *a; *a = sub(*a, b) where mask c;
                                      CAS: *a = d where *a == b (b the compare,
                                      d the value) */ \
    X(DOT,         "dot")          /* dst[M,N] = a[M,K] @ b[K,N], the sum
                                      continuing from c when c >= 0 (c has
                                      dst's shape, or is a scalar after
                                      combine.c), or per batch: dst[B,M,N] =
                                      a[B,M,K] @ b[B,K,N]; imm: an
                                      ir_precision */ \
    X(REDUCE,      "reduce")       /* dst = reduce sub of a over axis imm (-1: all) */ \
    X(SCAN,        "scan")         /* dst = inclusive scan sub of a along axis imm */ \
    X(PRINT,       "print")        /* write ir_kernel.prints[imm] */ \
    X(ASSERT,      "assert")       /* every lane of a true (lanes where b, an
                                      int1 mask; -1: all), else fail with
                                      ir_kernel.prints[imm] as the message;
                                      sub: an ir_assert_kind */ \
    X(BREAKPOINT,  "breakpoint")   /* debugger stop; condition ir_kernel.prints[imm] */ \
    X(JUMP,        "jump")         /* goto imm */ \
    X(BRANCH,      "branch")       /* if scalar a is zero, goto imm */ \
    X(RETURN,      "return")       /* the program ends */ \
    X(NOP,         "nop")          /* nothing: where combine.c moved an
                                      instruction from */

typedef enum ir_opcode {
#define IR_OP_ENUM(name, text) IR_##name,
    IR_OPS(IR_OP_ENUM)
#undef IR_OP_ENUM
} ir_opcode;

/* How many opcodes there are.  Not an ir_opcode, so that a switch over
 * opcodes lists the opcodes only (see "Switches over IR enums" below). */
#define IR_OP_ONE(name, text) + 1
enum { IR__COUNT = 0 IR_OPS(IR_OP_ONE) };
#undef IR_OP_ONE

/* BINARY.  Operands and result share one dtype (the specializer casts),
 * except shifts, whose b is converted by the executor.  Integer DIV does
 * not exist: `/` on ints is cast to fp32 first.  FLOORDIV and MOD on ints
 * are C's (truncating; dtype_floordiv_i64 / dtype_mod_i64), MOD on floats
 * is fmod.  SHR is arithmetic on signed dtypes, logical on unsigned. */
typedef enum ir_binop {
    IR_ADD, IR_SUB, IR_MUL, IR_DIV, IR_FLOORDIV, IR_MOD,
    IR_AND, IR_OR, IR_XOR, IR_SHL, IR_SHR,
    IR_MIN, IR_MAX,            /* tl.minimum / maximum; NaN: IEEE minNum */
    IR_MIN_NAN, IR_MAX_NAN,    /* propagate_nan=ALL */
    IR_POW,                    /* float pow (tl.math.pow / libdevice) */
    IR_ATAN2, IR_FDIV_RN,
} ir_binop;

typedef enum ir_unop { IR_NEG, IR_INVERT, IR_NOT } ir_unop;

typedef enum ir_cmp { IR_EQ, IR_NE, IR_LT, IR_LE, IR_GT, IR_GE } ir_cmp;

typedef enum ir_math {
    IR_EXP, IR_EXP2, IR_LOG, IR_LOG2, IR_SQRT, IR_SQRT_RN, IR_RSQRT,
    IR_SIN, IR_COS, IR_TAN, IR_TANH, IR_ABS, IR_FLOOR, IR_CEIL, IR_ERF,
    IR_SIGMOID, IR_FMA, IR_UMULHI,
    /* libdevice's functions (spec_libdevice.c).  Floats: dst = f(a[, b]),
     * fp32 lanes computed in double and rounded once (mathfn.h). */
    IR_ASIN, IR_ACOS, IR_ATAN, IR_SINH, IR_COSH, IR_ASINH, IR_ACOSH, IR_ATANH,
    IR_EXP10, IR_EXPM1, IR_LOG10, IR_LOG1P, IR_CBRT, IR_RCBRT, IR_RSQRT_RN,
    IR_ERFC, IR_ERFINV, IR_ERFCINV, IR_NORMCDF, IR_NORMCDFINV, IR_LGAMMA, IR_TGAMMA,
    IR_SINPI, IR_COSPI,
    IR_J0, IR_J1, IR_Y0, IR_Y1, IR_TRUNC, IR_ROUND, IR_RINT, IR_LOGB, IR_SATURATE,
    IR_HYPOT, IR_RHYPOT, IR_COPYSIGN, IR_NEXTAFTER, IR_FDIM, IR_REMAINDER,
    /* mixed operands: a float and b int32 (ldexp, pow with an int exponent),
     * or a int32 and b float (the Bessel functions of order a) */
    IR_LDEXP, IR_POWI, IR_JN, IR_YN,
    /* a float, dst another dtype: int32 (ilogb, signbit), int1 (isnan,
     * isinf, isfinite), int64 (llrint, llround); the halves of an fp64's
     * bits (int32 hi, lo -> fp64; fp64 -> int32 lo, hi) */
    IR_ILOGB, IR_SIGNBIT, IR_ISNAN, IR_ISINF, IR_ISFINITE, IR_LLRINT, IR_LLROUND,
    IR_HILO2DOUBLE, IR_DOUBLE2LO, IR_DOUBLE2HI,
    /* a int32 or int64, dst int32 */
    IR_POPC, IR_CLZ, IR_FFS,
    /* integers, dst = a's dtype: brev(a), mulhi (high half, signed or not
     * by the dtype), mul24, hadd, rhadd, sad (|a - b| + c), byte_perm */
    IR_BREV, IR_MULHI, IR_MUL24, IR_HADD, IR_RHADD, IR_SAD, IR_BYTE_PERM,
    /* IEEE operations rounded in the mode imm (an ir_round): a + b, a - b,
     * a * b, a / b, 1 / a, sqrt(a), fma(a, b, c), and the conversion of a
     * (fp32, fp64, 32- and 64-bit ints) to dst's dtype (to ints: rounded
     * to an integer in that mode, then saturated, NaN giving 0) */
    IR_ADD_R, IR_SUB_R, IR_MUL_R, IR_DIV_R, IR_RCP_R, IR_SQRT_R, IR_FMA_R, IR_CVT_R,
} ir_math;
/* How many there are (IR_CVT_R is the last; not an ir_math, as IR__COUNT) */
enum { IR_MATH__COUNT = IR_CVT_R + 1 };

/* The rounding of IR_MATH's *_R variants: to nearest even, toward zero,
 * down (toward -inf), up (toward +inf). */
typedef enum ir_round { IR_RN, IR_RZ, IR_RD, IR_RU } ir_round;

typedef enum ir_reduce {
    IR_RED_SUM, IR_RED_PROD, IR_RED_MAX, IR_RED_MIN, IR_RED_ARGMAX,
    IR_RED_ARGMIN, IR_RED_XOR, IR_RED_AND, IR_RED_OR,
} ir_reduce;

typedef enum ir_atomic {
    IR_ATOMIC_ADD, IR_ATOMIC_MAX, IR_ATOMIC_MIN, IR_ATOMIC_XCHG,
    IR_ATOMIC_CAS, IR_ATOMIC_AND, IR_ATOMIC_OR, IR_ATOMIC_XOR,
} ir_atomic;

/* DOT precision: fp32 inputs under "tf32" are rounded to tf32 (10-bit
 * mantissa, as the GPU's tensor cores do) before multiplying. */
typedef enum ir_precision { IR_PREC_IEEE, IR_PREC_TF32, IR_PREC_TF32X3 } ir_precision;

/* CAST's variants. */
typedef enum ir_cast_kind {
    IR_CAST_PLAIN,         /* dtype_cast: floats round to nearest even */
    IR_CAST_TF32,          /* round fp32 to tf32 first (unused yet) */
    IR_CAST_RTZ,           /* a float narrowing that rounds toward zero
                              (fp_downcast_rounding="rtz") */
} ir_cast_kind;

/* ASSERT's variants. */
typedef enum ir_assert_kind {
    IR_ASSERT_DEVICE,      /* tl.device_assert: "device assertion failed in
                              program (x, y, z), lane: message" */
    IR_ASSERT_RULE,        /* a check of the GPU's rules, whose message's first
                              piece is its head (before the program id) */
} ir_assert_kind;

typedef struct ir_inst {
    uint8_t op;          /* ir_opcode */
    uint8_t sub;
    int32_t dst, a, b, c;
    int32_t d;           /* the fourth operand: ATOMIC CAS's value, else -1 */
    int64_t imm;
    double fimm;
    const ast_node *at;  /* the source this came from: errors, debugger */
    int32_t frame;       /* index into ir_kernel.frames: inlined call chain */
} ir_inst;

/* The inline call chain: instruction's frame -> its caller's frame -> ...
 * (-1 at the kernel itself). */
typedef struct ir_frame {
    const char *func;       /* the @triton.jit function's name */
    const ast_node *call;   /* the call site in the caller (NULL at top) */
    int32_t parent;
    const src_file *file;   /* the file of the function's source */
} ir_frame;

/* A statement of the kernel or an inlined helper: the debugger's stop
 * points.  Every statement the specializer walks has one, in emission
 * order: statements in runtime loop bodies and branches, each unrolled copy
 * of a tl.static_range body, each statement of each inlined call, and
 * compound statements themselves (a `for`, `if` or `while` stops before its
 * bounds or condition are evaluated). */
typedef struct ir_stmt {
    int32_t pc;            /* its first instruction (equal to the next statement's
                              pc when it emitted no code, e.g. `BLOCK = 16`) */
    const ast_node *at;    /* the statement node; at->span.line is its line */
    int32_t frame;         /* the ir_frame of the function it belongs to */
} ir_stmt;

/* What PRINT writes (and ASSERT's message, BREAKPOINT's condition): literal
 * text and values.  A value is a slot, formatted as Triton's interpreter
 * shows it (format.h's numpy style) or, with a spec, as Python's format().
 * pid_cond restricts the print to some programs (print_if's conditions):
 * axis i passes when pid[i] op value (op an ir_cmp, or -1: any). */
typedef struct ir_fmt_piece {
    const char *text;       /* literal text, when slot < 0 */
    int32_t slot;
    char conv;              /* 0, 'r' or 's' */
    const char *spec;       /* format spec, or NULL */
} ir_fmt_piece;

typedef enum ir_print_kind {
    IR_PRINT_TEXT,          /* print(...), print_if(...): the pieces, a newline */
    IR_PRINT_DEVICE,        /* tl.device_print(prefix, x...): a line per element,
                               "pid (0, 0, 0) idx (3) prefix: value" */
} ir_print_kind;

typedef struct ir_print {
    ir_print_kind kind;
    bool hex;               /* IR_PRINT_DEVICE: device_print(hex=True) */
    ir_fmt_piece *pieces;
    int32_t npieces;
    struct { int8_t op; int64_t value; } pid_cond[3];
} ir_print;

typedef struct ir_slot {
    ir_type type;
    const char *name;       /* the variable it holds, for the debugger */
    int32_t ptr_arg;        /* pointer slots: the kernel argument they point
                               into, or -1 when it can vary at run time */
} ir_slot;

/* A runtime argument: its parameter name and type (a scalar or pointer),
 * and whether every launch of this kernel passes an int that is a multiple
 * of 16 or a pointer whose address is (doc/ir.md, "Parameters"). */
typedef struct ir_param {
    const char *name;
    dtype dt;
    bool div16;
} ir_param;

typedef struct ir_kernel {
    const char *name;
    ir_inst *code;    int32_t ncode;
    ir_slot *slots;   int32_t nslots;
    ir_frame *frames; int32_t nframes;
    ir_print *prints; int32_t nprints;
    ir_param *params; int32_t nparams;   /* runtime arguments only */
    ir_stmt *stmts;   int32_t nstmts;    /* pc non-decreasing */
    /* Per instruction: the index of the innermost statement it was emitted
     * for (code after an inlined call returns belongs to the caller's
     * statement again); -1 outside every statement (the kernel's ARGs, its
     * final RETURN).  NULL when the kernel has no statement table. */
    int32_t *inst_stmt;
    void *debug;      /* opaque: the specializer's scope data (spec_debug.c) */
    int32_t ndesc;    /* tl.make_tensor_descriptor calls: each takes 128 bytes of
                         global scratch per program on the GPU (launch.c asks the
                         allocator of triton.set_allocator for them) */
} ir_kernel;

const char *ir_op_name(ir_opcode op);

/* ---- switches over IR enums -------------------------------------------------
 * A switch over ir_opcode or a variant (ir_binop, ir_unop, ir_cmp, ir_math,
 * ir_reduce, ir_atomic, ir_cast_kind, ir_assert_kind) names every value and
 * has no default:, so that a new opcode or variant is a compile error in
 * every pass and executor until it handles it.  Each file with such
 * switches makes a value missing from a switch over an enum an error, after
 * its #includes:
 *
 *     #pragma GCC diagnostic error "-Wswitch"        // no default: (-Wall)
 *     #pragma GCC diagnostic error "-Wswitch-enum"   // and with a default:
 *
 * -Wswitch-enum is not on for the whole build: elsewhere switches over
 * other enums rightly end in default:.  In these files they name every
 * value too (those over dtype, in headers, are above the pragmas, which
 * apply from where they stand).  ir_verify checks that the opcode and its
 * variant exist, so nothing is needed for values past the last; a switch
 * whose cases all return is followed by a return for the compiler's sake. */

/* ---- operands -------------------------------------------------------------
 * The one place that says which slots an instruction reads and writes:
 * every pass and executor asks these instead of looking at a, b, c, d. */

/* Does the instruction write its dst slot?  (Stores, prints, assertions,
 * breakpoints, jumps and NOPs have no result; the specializer gives them
 * dst -1, and this keeps them out whatever they carry.) */
bool ir_writes_dst(const ir_inst *in);

enum { IR_MAX_READS = 4 };
/* The slots the instruction reads as operands, in the order a, b, c, d
 * (the fields its opcode uses, those that are set); returns how many.  The
 * slots a PRINT, ASSERT or BREAKPOINT shows are not operands: they are in
 * its ir_print (ir_inst_print). */
int ir_reads(const ir_inst *in, int32_t out[IR_MAX_READS]);

/* The ir_print of a PRINT, ASSERT or BREAKPOINT (ir_kernel.prints[imm]);
 * NULL for other opcodes and for none (imm -1). */
const ir_print *ir_inst_print(const ir_kernel *k, const ir_inst *in);

/* Does program pid pass p's program-id conditions (pid_cond)? */
bool ir_print_pid_passes(const ir_print *p, const int64_t pid[3]);

/* ---- packed immediates ----------------------------------------------------
 * TRANS and SLICE keep several small numbers in imm, 4 bits each (axes are
 * below IR_MAX_DIM <= 16).  Read them with these, make them with the
 * packers; nothing else knows the layout. */

/* TRANS: the axis of a that dst's axis i comes from. */
static inline int ir_trans_axis(const ir_inst *in, int i)
{
    return (int)((in->imm >> (4 * i)) & 15);
}

/* TRANS's imm for dst axis i = a's axis perm[i], i < n. */
static inline int64_t ir_trans_pack(const int *perm, int n)
{
    int64_t imm = 0;
    for (int i = 0; i < n; i++)
        imm |= (int64_t)perm[i] << (4 * i);
    return imm;
}

/* SLICE: the axis it cuts and the first index it keeps. */
static inline int ir_slice_axis(const ir_inst *in)
{
    return (int)(in->imm & 15);
}

static inline int64_t ir_slice_start(const ir_inst *in)
{
    return in->imm >> 4;
}

static inline int64_t ir_slice_pack(int axis, int64_t start)
{
    return (int64_t)axis | (start << 4);
}

/* ---- checking ---------------------------------------------------------------
 * The specializer's invariants (the top of this file) and what every
 * executor relies on: operand slots exist, types and shapes fit each
 * opcode, indices in imm are in range.  Executors run it once per launch,
 * so that a specializer bug is an internal error, never a read or write
 * past a slot. */

/* What ir_verify found: the first bad slot type (slot >= 0, pc -1), else
 * the first bad instruction (pc >= 0), else a bad print (both -1). */
typedef struct ir_fault {
    int32_t slot, pc;
    const char *why;       /* e.g. "operand shapes differ" */
} ir_fault;

/* true when the kernel is well formed; else false and *f says why. */
bool ir_verify(const ir_kernel *k, ir_fault *f);

/* The elements of a type: the product of its shape (1 for a scalar). */
int64_t ir_type_numel(const ir_type *t);

/* ---- text ------------------------------------------------------------------ */

/* Text of an ir_type, e.g. "fp32[16, 16]" or "pointer<fp32>[64]". */
void ir_type_str(const ir_type *t, char *buf, size_t len);
/* Human-readable listing, for `tritsim run --dump-ir`, tests/ir and the
 * unit tests (its format: ir.c). */
void ir_dump(const ir_kernel *k, FILE *out);

#endif
