/* dtype.h - Triton's scalar types: names, sizes, conversions and the type
 * promotion rules of binary operators.
 *
 * One module knows the element types, so the host evaluator, the tile
 * interpreter and the CUDA/HIP emitter agree on every rule.  The rules are
 * those of Triton 3.2 and later (python/triton/language/semantic.py and
 * core.py; docs/python-api/triton-semantics.rst); each function below
 * names the Triton code it follows.
 *
 * Representation.  A dtype is a small integer: one of the scalar types
 * below, optionally with the DTYPE_PTR bit set, meaning "pointer to that
 * scalar" (Triton's pointer_type(element_ty)).  We chose a flag bit over a
 * {elem, is_ptr} struct because a dtype then compares with ==, fits in a
 * byte of an IR node, works as a hash/cache key, and switch statements on
 * dtype_elem(t) stay simple.  Pointers to pointers and block pointers are
 * not part of the language subset.
 *
 * fp8 types (fp8e4nv = torch.float8_e4m3fn, fp8e5 = torch.float8_e5m2)
 * convert to and from the other float types (rounding as the GPU's
 * cvt.rn.satfinite); casts between fp8 and integers are refused, as in
 * Triton.  PyTorch narrows to fp8 by other rules (no saturation): host
 * tensors use dtype_f32_to_fp8*_torch, through tensor_convert. */
#ifndef TRITSIM_DTYPE_H
#define TRITSIM_DTYPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* X(ENUM, triton-name, tl-attribute, torch-name)
 * triton-name is what str(tl.float32) prints; tl-attribute the name in
 * triton.language (tl.float32); torch-name what repr(torch.float32) prints. */
#define DTYPE_SCALARS(X) \
    X(INT1, "int1", "int1", "torch.bool") \
    X(INT8, "int8", "int8", "torch.int8") \
    X(INT16, "int16", "int16", "torch.int16") \
    X(INT32, "int32", "int32", "torch.int32") \
    X(INT64, "int64", "int64", "torch.int64") \
    X(UINT8, "uint8", "uint8", "torch.uint8") \
    X(UINT16, "uint16", "uint16", "torch.uint16") \
    X(UINT32, "uint32", "uint32", "torch.uint32") \
    X(UINT64, "uint64", "uint64", "torch.uint64") \
    X(FP8E4NV, "fp8e4nv", "float8e4nv", "torch.float8_e4m3fn") \
    X(FP8E5, "fp8e5", "float8e5", "torch.float8_e5m2") \
    X(FP16, "fp16", "float16", "torch.float16") \
    X(BF16, "bf16", "bfloat16", "torch.bfloat16") \
    X(FP32, "fp32", "float32", "torch.float32") \
    X(FP64, "fp64", "float64", "torch.float64")

typedef enum dtype {
    DTYPE_INVALID = 0,    /* "no type": what failed lookups return */
#define DTYPE_ENUM(name, tname, tl, torch) DTYPE_##name,
    DTYPE_SCALARS(DTYPE_ENUM)
#undef DTYPE_ENUM
    DTYPE__NSCALAR,       /* number of scalar codes, DTYPE_INVALID included */
    DTYPE_PTR = 0x40      /* flag: pointer to the scalar in the low bits */
} dtype;

static inline bool dtype_is_ptr(dtype t) { return (t & DTYPE_PTR) != 0; }
/* The pointer type whose element is elem (a scalar dtype). */
static inline dtype dtype_ptr_to(dtype elem) { return (dtype)(elem | DTYPE_PTR); }
/* The element type of a pointer; a scalar dtype is its own element. */
static inline dtype dtype_elem(dtype t)
{
    return (dtype)((unsigned)t & ~(unsigned)DTYPE_PTR);
}

/* True for a scalar dtype or a pointer to one (not DTYPE_INVALID). */
bool dtype_valid(dtype t);

/* ---- names ---------------------------------------------------------- */

/* Triton's str(): "int32", "fp32", "bf16", "pointer<fp32>"; "invalid"
 * for anything else.  Static strings. */
const char *dtype_name(dtype t);
/* The triton.language attribute: "float32", "bfloat16", "int1"...; NULL
 * for pointers and invalid types. */
const char *dtype_tl_name(dtype t);
/* PyTorch's repr: "torch.float32", "torch.bool"...; NULL for pointers. */
const char *dtype_torch_name(dtype t);

/* Inverse of dtype_name (also accepts "pointer<...>"); DTYPE_INVALID if
 * s names no type. */
dtype dtype_from_name(const char *s);
/* The dtype of tl.ATTR, e.g. "float32" -> FP32, "int1" -> INT1.  Only the
 * names triton.language defines (it has no tl.bool, tl.fp32 or tl.half).
 * tl.float8e4b8, tl.float8e4b15 and tl.float8e5b16 are not supported. */
dtype dtype_from_tl_attr(const char *attr);
/* The dtype of torch.ATTR, with torch's aliases: float/float32, double/
 * float64, half/float16, bfloat16, int/int32, long/int64, short/int16,
 * int8, uint8..uint64, bool, float8_e4m3fn, float8_e5m2. */
dtype dtype_from_torch_attr(const char *attr);

/* ---- properties ----------------------------------------------------- */

typedef enum dtype_kind {    /* Triton's dtype.KIND, ordered */
    DTYPE_KIND_BOOL,
    DTYPE_KIND_INTEGRAL,
    DTYPE_KIND_FLOATING,
} dtype_kind;

int dtype_size(dtype t);        /* bytes in memory; int1 is 1, pointers 8 */
int dtype_bits(dtype t);        /* Triton's primitive_bitwidth; int1 is 1 */
bool dtype_is_float(dtype t);   /* fp8*, fp16, bf16, fp32, fp64 */
bool dtype_is_fp8(dtype t);
bool dtype_is_int(dtype t);     /* int1 and every (un)signed integer */
bool dtype_is_bool(dtype t);    /* int1 */
bool dtype_is_signed(dtype t);  /* int8..int64 only (Triton's SINT_TYPES) */
bool dtype_is_unsigned(dtype t);/* int1 and uint8..uint64 (UINT_TYPES) */
dtype_kind dtype_kind_of(dtype t);  /* of a scalar dtype */
/* Explicit fraction bits of a float type: fp16 10, bf16 7, fp32 23,
 * fp64 52, fp8e4nv 3, fp8e5 2; 0 for other types. */
int dtype_mantissa_bits(dtype t);
/* Range of an integer type (int1: 0..1). */
int64_t dtype_int_min(dtype t);
uint64_t dtype_int_max(dtype t);

/* ---- scalar values -------------------------------------------------- */

/* One value of some dtype, as the host evaluator holds it.  Canonical
 * form, which every function here returns and expects:
 *   signed ints  .i, already wrapped to the type's width (sign-extended);
 *   int1 and unsigned ints  .u, zero-extended (int1 is 0 or 1);
 *   floats  .f, a double whose value the type can represent exactly (an
 *           fp16 value is held as its exact double, etc.);
 *   pointers  .u, the address. */
typedef union dtype_scalar {
    int64_t i;
    uint64_t u;
    double f;
} dtype_scalar;

/* Read / write one element in its memory format (int1 as one byte,
 * fp16/bf16 as their 16-bit patterns, fp8 as its byte).  p need not be
 * aligned.  A float the type cannot hold rounds to nearest, too large
 * giving infinity (fp8e4nv, which has none: NaN); every value of the type
 * (an fp8 NaN with its sign) is written exactly.  Values come converted
 * already: by dtype_cast (Triton's fp8 casts saturate) or tensor_convert
 * (PyTorch's). */
dtype_scalar dtype_load(dtype t, const void *p);
void dtype_store(dtype t, void *p, dtype_scalar v);

/* Bring an integer computed in 64 bits to type t: keep the low bits and
 * sign- or zero-extend (two's complement wrap-around, as on the GPU).
 * int1 keeps bit 0. */
dtype_scalar dtype_wrap(dtype t, uint64_t bits);

/* Whether tl.cast / .to(dtype) between the two types is allowed (as in
 * Triton's semantic.cast) and implemented here.  Pointer <-> float is
 * not allowed; pointer -> int is allowed for int64/uint64/int1; fp8
 * converts to and from floats only. */
bool dtype_can_cast(dtype from, dtype to);

/* Convert v from one dtype to another, as Triton's semantic.cast does:
 *   int -> int      wrap to the new width; sign-extend only from signed
 *                   sources (int1 zero-extends); to int1 means != 0.
 *   float -> float  one correctly rounded step (round to nearest even),
 *                   never double rounding, whatever the pair.
 *   int -> float    correctly rounded (int1 and unsigned as unsigned).
 *   float -> int    truncate toward zero.  Out of range is undefined in
 *                   Triton; we saturate to the type's range and map NaN
 *                   to 0, which is what PTX cvt.rzi.{s,u}{32,64} does.
 *                   To int1 means != 0 (NaN gives 1, fcmp UNE).
 *   pointer <-> int the address as uint64 (to int1: != 0).
 * A pair dtype_can_cast refuses gives a zero value. */
dtype_scalar dtype_cast(dtype_scalar v, dtype from, dtype to);

/* ---- float formats -------------------------------------------------- */

/* Correctly rounded (round to nearest, ties to even) narrowing.  NaN stays
 * NaN with the quiet bit set, keeping the sign and the payload's top bits;
 * infinities stay infinite; too large rounds to infinity; results below
 * the normal range are subnormal, and underflow gives a signed zero.
 * The fp64 versions round once, directly: going through fp32 would round
 * twice and differs for values just above a halfway point (1 + 2^-11 +
 * 2^-40 must give fp16 1 + 2^-10; via fp32 it gives 1). */
uint16_t dtype_f32_to_f16(float f);
uint16_t dtype_f64_to_f16(double d);
uint16_t dtype_f32_to_bf16(float f);
uint16_t dtype_f64_to_bf16(double d);
/* Widening is exact. */
float dtype_f16_to_f32(uint16_t h);
float dtype_bf16_to_f32(uint16_t b);
double dtype_fp8e4nv_to_f64(uint8_t b);   /* e4m3fn: bias 7, no inf, NaN 0x7f */
double dtype_fp8e5_to_f64(uint8_t b);     /* e5m2: bias 15, IEEE-like */
/* Narrowing to fp8 as Triton does on the GPU (cvt.rn.satfinite): round to
 * nearest, ties to even; beyond the largest finite value (448 for e4m3fn,
 * 57344 for e5m2), infinities included, saturate to it; NaN stays NaN
 * with its sign (dtype_round_float gives a cast's positive NaN). */
uint8_t dtype_f64_to_fp8e4nv(double x);
uint8_t dtype_f64_to_fp8e5(double x);
/* Narrowing to fp8 as PyTorch 2.11 does on the host and in its CUDA copy
 * kernels (c10/util/Float8_e4m3fn.h, Float8_e5m2.h: fp8e4m3fn_from_fp32_
 * value, fp8e5m2_from_fp32_value), from a float: round to nearest, ties to
 * even, without saturating.  e4m3fn has no infinity: an infinity and any
 * value that rounds past 448 (|x| > 464) become NaN; e5m2 rounds past
 * 57344 (|x| >= 61440) to infinity.  NaN keeps its sign.  (PyTorch 2.12
 * saturates e4m3fn instead: pytorch/pytorch#178817.) */
uint8_t dtype_f32_to_fp8e4nv_torch(float x);
uint8_t dtype_f32_to_fp8e5_torch(float x);

/* x rounded to the nearest value of float type t (fp16, bf16, fp32 or
 * fp64), returned as a double.  The interpreter may compute fp16 and bf16
 * arithmetic in double and round the result with this: for +, -, *, /
 * and sqrt of p-bit operands, rounding first to double then to p bits
 * gives the correctly rounded result since 53 >= 2p + 2 (p = 11 or 8;
 * Figueroa's theorem).  Not so for an arbitrary double: see above. */
double dtype_round_float(dtype t, double x);
/* The same, rounding toward zero (Triton's fp_downcast_rounding="rtz"):
 * magnitudes past the largest finite value give that value. */
double dtype_round_float_rtz(dtype t, double x);

/* ---- type promotion (semantic.py) ----------------------------------- */

/* The dtype Triton gives a Python number used as an operand
 * (semantic.to_tensor_type): bool -> int1 (use DTYPE_INT1 directly);
 * int -> int32 if it fits, else uint32, int64, uint64; float -> fp32
 * when 0, inf, nan or 2^-126 <= |x| <= FLT_MAX, else fp64. */
dtype dtype_of_pyint(int64_t v);
dtype dtype_of_pyuint(uint64_t v);    /* any v >= 0, up to 2^64 - 1 */
dtype dtype_of_pyfloat(double v);

/* integer_promote_impl: C's usual arithmetic conversions on Triton's
 * integer types (int1 counts as unsigned of width 1): same signedness ->
 * the wider; otherwise the unsigned one if it is at least as wide, else
 * the signed one.  int32 + uint32 -> uint32, int64 + uint32 -> int64. */
dtype dtype_integer_promote(dtype a, dtype b);

/* computation_type_impl: the common type of a binary arithmetic op.
 * a_scalar / b_scalar: that operand is a Python number (literal or
 * constexpr), whose dtype comes from dtype_of_py*.  Rules:
 *   tensor op scalar, scalar of kind <= the tensor's: the tensor's dtype
 *     (fp16/bf16 become fp32 for / and %);
 *   fp64 > fp32 > fp16 (fp32 for / and %) > bf16 (only bf16 with bf16;
 *     fp32 for / and %; bf16 with int or fp8 gives fp32); two fp8 -> the
 *     same fp8, or fp16 if they differ; ints -> dtype_integer_promote,
 *     and / // % refuse mixed signedness.
 * Examples: fp16+bf16 -> fp16, int32+fp16 -> fp16, int8+uint8 -> uint8.
 * On error returns DTYPE_INVALID and writes a message to err. */
dtype dtype_computation_type(dtype a, bool a_scalar, dtype b, bool b_scalar,
                             bool div_or_mod, char *err, size_t errlen);

/* Operators whose operand and result types Triton decides. */
typedef enum dtype_op {
    DTYPE_OP_ADD, DTYPE_OP_SUB, DTYPE_OP_MUL,
    DTYPE_OP_TRUEDIV,     /* /  */
    DTYPE_OP_FLOORDIV,    /* // on ints only; C truncation */
    DTYPE_OP_MOD,         /* %  C remainder; fmod for floats */
    DTYPE_OP_AND, DTYPE_OP_OR, DTYPE_OP_XOR,     /* & | ^ on ints */
    DTYPE_OP_SHL, DTYPE_OP_SHR,                   /* << >> on ints */
    DTYPE_OP_LT, DTYPE_OP_LE, DTYPE_OP_GT, DTYPE_OP_GE,
    DTYPE_OP_EQ, DTYPE_OP_NE,
    DTYPE_OP_MINIMUM, DTYPE_OP_MAXIMUM,           /* tl.minimum/maximum */
    DTYPE_OP_WHERE,       /* tl.where's two value operands */
    /* unary, for dtype_unary */
    DTYPE_OP_NEG, DTYPE_OP_POS, DTYPE_OP_INVERT, DTYPE_OP_NOT,
} dtype_op;

/* One operand of a binary operator.  For a Python number, type is its
 * dtype_of_py* (or DTYPE_INT1 for a bool) and value holds it canonically;
 * for a tensor, only type (the element dtype) matters. */
typedef struct dtype_operand {
    dtype type;
    bool is_scalar;
    dtype_scalar value;
} dtype_operand;

/* What the interpreter does for one binary operator: cast the left
 * operand to lhs, the right to rhs, then compute; the result has dtype
 * result.  For pointer arithmetic (ptr + int, ptr - int, int + ptr), the
 * pointer operand keeps its type, the offset keeps its integer type, and
 * result is the pointer type; lhs is then the pointer (operands of
 * int + ptr are swapped: swapped is set). */
typedef struct dtype_binop_types {
    dtype lhs, rhs, result;
    bool swapped;
} dtype_binop_types;

/* Type checking of a binary operator, as Triton's binary_op_type_checking_
 * impl and the op itself (add, sub, mul, truediv, floordiv, mod, and_,
 * or_, xor_, shl/lshr/ashr, comparisons, minimum/maximum, where) do it,
 * including the checks on Python scalars: a negative scalar with an
 * unsigned result type, and an int scalar out of the result type's range,
 * are errors.  Comparisons give int1; int / int gives fp32.  Shifts:
 * Triton's >> is arithmetic when the left operand's own dtype (before
 * promotion) is signed, and for `scalar >> tensor` the tensor's.
 * Both operands being Python numbers is host arithmetic, not this.
 * Returns false and writes a message to err on error. */
bool dtype_binop(dtype_op op, dtype_operand a, dtype_operand b,
                 dtype_binop_types *out, char *err, size_t errlen);

/* Type of a unary operator: -x and +x keep the type (-ptr is an error);
 * ~x needs an int; `not x` needs int1.  false + message on error. */
bool dtype_unary(dtype_op op, dtype a, dtype *result, char *err,
                 size_t errlen);

/* ---- integer and float arithmetic helpers --------------------------- */

/* Triton's // and % on integer tensors follow C (sdiv/srem, udiv/urem):
 * the quotient truncates toward zero, the remainder has the dividend's
 * sign: -7 // 2 == -3, -7 % 2 == -1, 7 % -2 == 1 (triton-semantics.rst,
 * "C rounding in integer division").  INT64_MIN // -1 wraps to INT64_MIN
 * (% gives 0).  Division by zero is undefined on the GPU; these return 0
 * (as numpy does) and the caller should report it. */
int64_t dtype_floordiv_i64(int64_t a, int64_t b);
int64_t dtype_mod_i64(int64_t a, int64_t b);
uint64_t dtype_floordiv_u64(uint64_t a, uint64_t b);
uint64_t dtype_mod_u64(uint64_t a, uint64_t b);
/* Float % on tensors is frem: C fmod, sign of the dividend. */
double dtype_mod_f64(double a, double b);

/* Python's // and % (floor division; remainder has the divisor's sign), for
 * constexpr and host arithmetic: -7 // 2 == -4, -7 % 2 == 1.  b == 0 is a
 * ZeroDivisionError the caller must catch; these return 0 then.
 * INT64_MIN // -1 wraps. */
int64_t dtype_pyfloordiv_i64(int64_t a, int64_t b);
int64_t dtype_pymod_i64(int64_t a, int64_t b);
/* Python float // and %, as CPython's float_divmod computes them. */
double dtype_pyfloordiv_f64(double a, double b);
double dtype_pymod_f64(double a, double b);

#endif
