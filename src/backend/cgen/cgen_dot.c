/* cgen_dot.c - DOT: both operands go to shared memory, then each thread
 * computes the output elements it holds, each one chain of fused
 * multiply-adds in k order from the accumulator: the CPU's definition
 * (doc/ir.md 2.7), so fp32 "ieee", tf32 (operands rounded first), fp16,
 * bf16 and fp8 products give the CPU's bits.  int8 sums groups of 32
 * products exactly and adds each group saturating; fp64 chains double
 * FMAs (a tolerance against OpenBLAS's order).
 *
 * When a thread's chunks all sit in the same columns (the common case of
 * a block-sized tile), each k step reads the thread's B values once and
 * one A value per chunk: the inner loop is mostly FMAs. */
#include "cgen_impl.h"

#include <inttypes.h>

#pragma GCC diagnostic error "-Wswitch"
#pragma GCC diagnostic error "-Wswitch-enum"

typedef struct dotdims {
    int64_t batch, M, N, K;
} dotdims;

bool cgen_emit_dot(cg *g, int32_t pc, const ir_inst *in)
{
    const ir_type *ta = cg_type(g, in->a), *tb = cg_type(g, in->b), *td = cg_type(g, in->dst);
    int nd = td->ndim;
    if (nd < 2 || ta->ndim != nd || tb->ndim != nd)
        return cg_fail(g, pc, "DOT of %d-d tiles is not supported by the GPU backends", nd);
    dotdims D = {1, td->shape[nd - 2], td->shape[nd - 1], ta->shape[nd - 1]};
    for (int i = 0; i < nd - 2; i++)
        D.batch *= td->shape[i];
    dtype adt = cg_dt(g, in->a), ddt = cg_dt(g, in->dst);
    bool f64 = adt == DTYPE_FP64, i8 = adt == DTYPE_INT8;
    bool tf32 = adt == DTYPE_FP32 && (in->imm == IR_PREC_TF32);
    const char *et = f64 ? "double" : i8 ? "int" : "float";
    size_t esz = f64 ? 8 : 4;
    int64_t lda = D.K + 1;                  /* padded rows: fewer bank conflicts */
    size_t offb = (size_t)(D.batch * D.M * lda) * esz;
    offb = (offb + 15) & ~(size_t)15;
    cg_need_smem(g, offb + (size_t)(D.batch * D.K * D.N) * esz);

    cg_barrier(g);
    /* A, padded */
    cgen_layout La = cg_layout(g, in->a), Lb = cg_layout(g, in->b), Ld = cg_layout(g, in->dst);
    cg_loop_begin(g, &La, true);
    cg_printf(g, "((%s *)tk_smem)[(e / %" PRId64 ") * %" PRId64 " + e %% %" PRId64 "] = %s(s%d[r]);\n",
              et, D.K, lda, D.K, tf32 ? "tk_tf32" : "", in->a);
    cg_loop_end(g);
    cg_loop_begin(g, &Lb, true);
    cg_printf(g, "((%s *)(tk_smem + %zu))[e] = %s(s%d[r]);\n", et, offb, tf32 ? "tk_tf32" : "",
              in->b);
    cg_loop_end(g);
    cg_barrier(g);

    cg_printf(g, "{\n%s tk_acc[%d];\n", et, Ld.regs);
    cg_printf(g, "const %s *tk_A = (const %s *)tk_smem;\n", et, et);
    cg_printf(g, "const %s *tk_B = (const %s *)(tk_smem + %zu);\n", et, et, offb);
    /* the accumulator */
    cg_loop_begin(g, &Ld, false);
    if (in->c >= 0) {
        strbuf c = {0};
        cg_operand(g, &c, in->c);
        cg_printf(g, "tk_acc[r] = (%s)(%s);\n", et, strbuf_cstr(&c));
        strbuf_free(&c);
    } else {
        cg_printf(g, "tk_acc[r] = 0;\n");
    }
    cg_loop_end(g);

    bool fast = !i8 && D.batch == 1 && !Ld.repl && D.N % Ld.vec == 0 &&
                ((int64_t)g->T * Ld.vec) % D.N == 0;
    if (fast) {
        int V = Ld.vec, C = Ld.regs / V;
        cg_printf(g, "const int tk_col = (tk_tid * %d) %% %" PRId64 ";\n", V, D.N);
        cg_printf(g, "int tk_row[%d];\n", C);
        cg_printf(g, "#pragma unroll\nfor (int c = 0; c < %d; c++) tk_row[c] = ((c * %d + tk_tid) * %d) / %" PRId64 " * %" PRId64 ";\n",
                  C, g->T, V, D.N, lda);
        cg_printf(g, "#pragma unroll 4\nfor (int k = 0; k < %" PRId64 "; k++) {\n", D.K);
        cg_printf(g, "  %s tk_bv[%d];\n", et, V);
        cg_printf(g, "#pragma unroll\n  for (int v = 0; v < %d; v++) tk_bv[v] = tk_B[k * %" PRId64 " + tk_col + v];\n",
                  V, D.N);
        cg_printf(g, "#pragma unroll\n  for (int c = 0; c < %d; c++) {\n", C);
        cg_printf(g, "    const %s tk_av = tk_A[tk_row[c] + k];\n", et);
        cg_printf(g, "#pragma unroll\n    for (int v = 0; v < %d; v++)\n", V);
        cg_printf(g, "      tk_acc[c * %d + v] = %s(tk_av, tk_bv[v], tk_acc[c * %d + v]);\n", V,
                  f64 ? "__fma_rn" : "__fmaf_rn", V);
        cg_printf(g, "  }\n}\n");
    } else {
        cg_loop_begin(g, &Ld, false);
        cg_printf(g, "const long long tk_bb = e / %" PRId64 ", tk_i = (e / %" PRId64 ") %% %" PRId64
                  ", tk_j = e %% %" PRId64 ";\n", D.M * D.N, D.N, D.M, D.N);
        cg_printf(g, "const %s *tk_ar = tk_A + (tk_bb * %" PRId64 " + tk_i) * %" PRId64 ";\n", et,
                  D.M, lda);
        cg_printf(g, "const %s *tk_bc = tk_B + tk_bb * %" PRId64 " + tk_j;\n", et, D.K * D.N);
        if (i8) {
            cg_printf(g, "long long tk_s = tk_acc[r];\n");
            cg_printf(g, "for (int k0 = 0; k0 < %" PRId64 "; k0 += 32) {\n", D.K);
            cg_printf(g, "  int tk_g = 0;\n");
            cg_printf(g, "  for (int k = k0; k < k0 + 32 && k < %" PRId64 "; k++) tk_g += tk_ar[k] * tk_bc[k * %" PRId64 "];\n",
                      D.K, D.N);
            cg_printf(g, "  tk_s += tk_g;\n");
            cg_printf(g, "  tk_s = tk_s > 2147483647ll ? 2147483647ll : tk_s < -2147483648ll ? -2147483648ll : tk_s;\n");
            cg_printf(g, "}\ntk_acc[r] = (int)tk_s;\n");
        } else {
            cg_printf(g, "%s tk_t = tk_acc[r];\n", et);
            cg_printf(g, "for (int k = 0; k < %" PRId64 "; k++) tk_t = %s(tk_ar[k], tk_bc[k * %" PRId64 "], tk_t);\n",
                      D.K, f64 ? "__fma_rn" : "__fmaf_rn", D.N);
            cg_printf(g, "tk_acc[r] = tk_t;\n");
        }
        cg_loop_end(g);
    }
    /* the result, rounded to dst's dtype */
    strbuf cv = {0};
    dtype accdt = f64 ? DTYPE_FP64 : i8 ? DTYPE_INT32 : DTYPE_FP32;
    if (accdt == ddt)
        strbuf_puts(&cv, "tk_acc[r]");
    else if (!cgen_cast(&cv, IR_CAST_PLAIN, ddt, accdt, "tk_acc[r]")) {
        strbuf_free(&cv);
        return cg_fail(g, pc, "DOT to %s is not supported by the GPU backends", dtype_name(ddt));
    }
    cg_loop_begin(g, &Ld, false);
    cg_printf(g, "s%d[r] = %s;\n", in->dst, strbuf_cstr(&cv));
    cg_loop_end(g);
    cg_printf(g, "}\n");
    strbuf_free(&cv);
    return true;
}
