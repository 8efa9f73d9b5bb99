/* cgen_mfma.h - which lane of which wavefront holds which element when a
 * DOT runs on AMD's matrix instructions (MFMA, cgen_mfma.c), as data: the
 * emitter prints these index expressions into the HIP code, and the host
 * model (tests/unit/test_cgen_mfma.c) evaluates the same expressions
 * against the instructions' documented lane layouts.
 *
 * An index expression is a sum of terms ((var / div) % mod) * mul over
 * the variables below (mod 0: no modulo), all of them non-negative. */
#ifndef TRITSIM_CGEN_MFMA_H
#define TRITSIM_CGEN_MFMA_H

#include <stdbool.h>
#include <stdint.h>

#include "cgen.h"
#include "strbuf.h"

typedef enum cgen_mfma_var {
    CGEN_MV_TID,            /* the thread in its block (tk_tid) */
    CGEN_MV_REG,            /* the accumulator register (r) */
    CGEN_MV_I,              /* the wave's fragment row (of mt) */
    CGEN_MV_J,              /* the wave's fragment column (of nt) */
    CGEN_MV_K0,             /* the first k of the instruction's step */
    CGEN_MV_V,              /* the value within an operand register (0-3) */
    CGEN_MV_COUNT
} cgen_mfma_var;

typedef struct cgen_mfma_term {
    int var, div, mod, mul;
} cgen_mfma_term;

typedef struct cgen_mfma_expr {
    int n;
    cgen_mfma_term t[6];
} cgen_mfma_expr;

/* One DOT [M, K] x [K, N] -> [M, N] on W wavefronts of 64 lanes: the
 * waves in a wm x wn grid, each holding a (M / wm) x (N / wn) block of
 * the accumulator as mt x nt fragments of nk x nk, one instruction
 * v_mfma_f32_<nk>x<nk>x<kb> per fragment and kb k.  The operands wait in
 * shared memory (LDS) as 16-bit patterns: A row-major in rows of lda, B
 * transposed (column j of B is row j there) in rows of ldb, so that a
 * lane's 4 consecutive k are one 8-byte read. */
typedef struct cgen_mfma_plan {
    int M, N, K, W;
    int nk, kb;             /* 32 and 8, or 16 and 16 */
    int wm, wn, mt, nt;
    int fregs;              /* accumulator registers per fragment: nk*nk/64 */
    int regs;               /* per lane: mt * nt * fregs */
    int lda, ldb;           /* in 16-bit elements */
} cgen_mfma_plan;

/* The plan for a tile, or false where MFMA does not fit it (nk must
 * divide M and N with a grid of W waves, kb divide K).  nonkdim: Triton's
 * matrix_instr_nonkdim, 16 or 32, or 0 for the default (16 where it fits,
 * else 32). */
bool cgen_mfma_plan_of(int M, int N, int K, int W, int nonkdim, cgen_mfma_plan *p);

typedef struct cgen_mfma_map {
    /* the accumulator: register REG of thread TID holds (acc_row, acc_col) */
    cgen_mfma_expr acc_row, acc_col;
    /* operand A of fragment row I at step K0: value V of thread TID's
     * register is A[a_row][a_k]; B's is B[b_k][b_col] (fragment column J) */
    cgen_mfma_expr a_row, a_k, b_col, b_k;
} cgen_mfma_map;

void cgen_mfma_map_of(const cgen_mfma_plan *p, cgen_mfma_map *m);
int64_t cgen_mfma_eval(const cgen_mfma_expr *x, const int64_t val[CGEN_MV_COUNT]);
/* As C: the variables' names (a NULL name: the variable is 0). */
void cgen_mfma_print(strbuf *sb, const cgen_mfma_expr *x, const char *const name[CGEN_MV_COUNT]);

/* Does the target have the MFMA instructions the emitter uses (fp16 and
 * bf16_1k, 32x32x8 and 16x16x16: gfx90a and the MI300 class) with
 * 64-lane wavefronts? */
bool cgen_mfma_target(const cgen_target *t);

/* cgen_target.arch of HIP's architecture name ("gfx90a:sramecc+:xnack-"):
 * its digits read as hexadecimal (0x90a, 0x942, 0x1100); 0 unknown. */
int cgen_hip_arch(const char *name);

#endif
