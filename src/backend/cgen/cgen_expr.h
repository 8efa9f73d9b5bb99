/* cgen_expr.h - one lane of an elementwise instruction as a CUDA/HIP C
 * expression: BINARY, UNARY, CMP, CAST, BITCAST, MATH, the reductions'
 * combining steps, and the conversions between a dtype's register form and
 * its memory format.  The emitter (cgen.c) wraps them in loops over a
 * thread's elements; everything here is about one value.
 *
 * Register forms (cgen.h): int1 `bool`; int8..int64, uint8..uint64 the
 * prelude's tk_i8 .. tk_u64; fp8e4nv, fp8e5, fp16, bf16 a `float` holding
 * an exact value of the type; fp32 `float`; fp64 `double`; pointers
 * `tk_u64` byte addresses.  Operands are passed as C expressions already
 * of their register form (parenthesised by the callee where needed); each
 * function appends one expression of the destination's register form.
 *
 * Exactness is doc/ir.md's: section 3 says what each operation means
 * (integer division by zero, shifts past the width, NaN in min/max,
 * saturating conversions, fp16/bf16/fp8 rounding after each operation...)
 * and 4.3 which results must be the CPU's bits.  Helpers the expressions
 * call (tk_floordiv_i32, tk_f2bf16, ...) are device functions in the
 * prelude, which cgen_expr_prelude writes. */
#ifndef TRITSIM_CGEN_EXPR_H
#define TRITSIM_CGEN_EXPR_H

#include <stdbool.h>
#include <stdint.h>

#include "cgen.h"
#include "dtype.h"
#include "ir.h"
#include "strbuf.h"

/* The register form's C type of a scalar dtype (or pointer): "float",
 * "tk_i32", "bool", "tk_u64"... */
const char *cgen_ctype(dtype dt);

/* The device functions, typedefs and macros every expression below may
 * use; written once at the top of each kernel. */
void cgen_expr_prelude(strbuf *out, const cgen_target *t);

/* Each returns false (appending nothing useful) for a variant it does not
 * support for those dtypes; the caller then fails the emission naming the
 * instruction. */

/* BINARY: dt is the operands' and result's dtype, except shifts, whose
 * right operand has bdt (converted as ir.md 3.3 says). */
bool cgen_binary(strbuf *out, ir_binop op, dtype dt, const char *a, const char *b, dtype bdt);
bool cgen_unary(strbuf *out, ir_unop op, dtype dt, const char *a);
/* CMP: operands of dtype dt, result bool. */
bool cgen_cmp(strbuf *out, ir_cmp op, dtype dt, const char *a, const char *b);
/* CAST from `from` to `to` (either may be a pointer: address <-> integer). */
bool cgen_cast(strbuf *out, ir_cast_kind kind, dtype to, dtype from, const char *a);
/* BITCAST between dtypes of one size. */
bool cgen_bitcast(strbuf *out, dtype to, dtype from, const char *a);
/* MATH variant m: dst dtype dt, operands a (adt), b (bdt), c (cdt), NULL
 * when the variant takes fewer; imm as the instruction's (the rounding of
 * the *_R variants). */
bool cgen_math(strbuf *out, ir_math m, int64_t imm, dtype dt, const char *a, dtype adt,
               const char *b, dtype bdt, const char *c, dtype cdt);

/* A value of dtype dt, in register form, from the memory at address
 * expression addr (a tk_u64) / stored to it: fp16 bits -> float and back
 * (rounding as a STORE does), int1 as a byte, ...  The statement form of
 * cgen_store_stmt ends with ';'. */
void cgen_load_expr(strbuf *out, dtype dt, const char *addr);
void cgen_store_stmt(strbuf *out, dtype dt, const char *addr, const char *value);

/* A literal of dtype dt in register form: CONST's value (ints from imm,
 * floats from fimm), exactly (hex floats; inf and nan spelled out). */
void cgen_literal(strbuf *out, dtype dt, int64_t imm, double fimm);

#endif
