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

/* fp16/bf16 operands, fp32 accumulator in mma.m16n8k16 fragments (the
 * dst's CGEN_MMA layout, cgen_layout.c): A goes to shared memory row-major
 * and B transposed, as 16-bit patterns in rows padded by 8 elements (the
 * fragments' 32-bit reads then hit 32 different banks); each warp walks K
 * in steps of 16, loading its fragments of A and B and issuing one mma per
 * 16 x 8 piece of its block.  The tensor cores add products in groups:
 * doc/ir.md 4.2 allows the difference. */
static bool emit_mma(cg *g, int32_t pc, const ir_inst *in, const cgen_layout *Ld)
{
    const ir_type *ta = cg_type(g, in->a);
    dtype adt = ta->dt;
    int M = Ld->M, N = Ld->N, K = ta->shape[1];
    int S = K + 8;                  /* row stride in 16-bit elements */
    size_t offb = ((size_t)M * S * 2 + 15) & ~(size_t)15;
    cg_need_smem(g, offb + (size_t)N * S * 2);
    strbuf ba = {0}, bb = {0};
    if (!cgen_bitcast(&ba, DTYPE_UINT16, adt, "s_a") ||
        !cgen_bitcast(&bb, DTYPE_UINT16, adt, "s_b")) {
        strbuf_free(&ba);
        strbuf_free(&bb);
        return cg_fail(g, pc, "DOT of %s on tensor cores is not supported", dtype_name(adt));
    }
    strbuf_free(&ba);
    strbuf_free(&bb);
    cg_barrier(g);
    cgen_layout La = cg_layout(g, in->a), Lb = cg_layout(g, in->b);
    strbuf bits = {0}, opd = {0};
    cg_operand(g, &opd, in->a);
    cgen_bitcast(&bits, DTYPE_UINT16, adt, strbuf_cstr(&opd));
    cg_loop_begin(g, &La, true);
    cg_printf(g, "((unsigned short *)tk_smem)[(e / %d) * %d + e %% %d] = %s;\n", K, S, K,
              strbuf_cstr(&bits));
    cg_loop_end(g);
    strbuf_clear(&bits);
    strbuf_clear(&opd);
    cg_operand(g, &opd, in->b);
    cgen_bitcast(&bits, DTYPE_UINT16, adt, strbuf_cstr(&opd));
    cg_loop_begin(g, &Lb, true);
    cg_printf(g, "((unsigned short *)(tk_smem + %zu))[(e %% %d) * %d + e / %d] = %s;\n", offb, N, S,
              N, strbuf_cstr(&bits));
    cg_loop_end(g);
    strbuf_free(&bits);
    strbuf_free(&opd);
    cg_barrier(g);

    int WM = M / Ld->wm, WN = N / Ld->wn, MT = Ld->mt, NT = Ld->nt;
    cg_printf(g, "{\nfloat tk_acc[%d];\n", Ld->regs);
    cg_loop_begin(g, Ld, false);
    if (in->c >= 0) {
        strbuf c = {0};
        cg_operand(g, &c, in->c);
        cg_printf(g, "tk_acc[r] = (float)(%s);\n", strbuf_cstr(&c));
        strbuf_free(&c);
    } else {
        cg_printf(g, "tk_acc[r] = 0.0f;\n");
    }
    cg_loop_end(g);
    cg_printf(g, "const unsigned *tk_A = (const unsigned *)tk_smem;\n");
    cg_printf(g, "const unsigned *tk_B = (const unsigned *)(tk_smem + %zu);\n", offb);
    cg_printf(g, "const int tk_w = tk_tid >> 5, tk_g = (tk_tid & 31) >> 2, tk_t = tk_tid & 3;\n");
    cg_printf(g, "const int tk_r0 = tk_w / %d * %d + tk_g, tk_c0 = tk_w %% %d * %d + tk_g;\n",
              Ld->wn, WM, Ld->wn, WN);
    cg_printf(g, "#pragma unroll 2\nfor (int k0 = 0; k0 < %d; k0 += 16) {\n", K / 2 * 2);
    cg_printf(g, "  unsigned tk_fa[%d][4], tk_fb[%d][2];\n", MT, NT);
    cg_printf(g, "  const int kw = (k0 >> 1) + tk_t;\n");
    cg_printf(g, "#pragma unroll\n  for (int i = 0; i < %d; i++) {\n", MT);
    cg_printf(g, "    const int row = (tk_r0 + i * 16) * %d;\n", S / 2);
    cg_printf(g, "    tk_fa[i][0] = tk_A[row + kw];\n");
    cg_printf(g, "    tk_fa[i][1] = tk_A[row + %d + kw];\n", 8 * S / 2);
    cg_printf(g, "    tk_fa[i][2] = tk_A[row + kw + 4];\n");
    cg_printf(g, "    tk_fa[i][3] = tk_A[row + %d + kw + 4];\n  }\n", 8 * S / 2);
    cg_printf(g, "#pragma unroll\n  for (int j = 0; j < %d; j++) {\n", NT);
    cg_printf(g, "    const int col = (tk_c0 + j * 8) * %d;\n", S / 2);
    cg_printf(g, "    tk_fb[j][0] = tk_B[col + kw];\n");
    cg_printf(g, "    tk_fb[j][1] = tk_B[col + kw + 4];\n  }\n");
    cg_printf(g, "#pragma unroll\n  for (int i = 0; i < %d; i++)\n", MT);
    cg_printf(g, "#pragma unroll\n  for (int j = 0; j < %d; j++) {\n", NT);
    cg_printf(g, "    float *d = &tk_acc[(i * %d + j) * 4];\n", NT);
    cg_printf(g, "    asm volatile(\"mma.sync.aligned.m16n8k16.row.col.f32.%s.%s.f32 "
              "{%%0,%%1,%%2,%%3}, {%%4,%%5,%%6,%%7}, {%%8,%%9}, {%%0,%%1,%%2,%%3};\"\n",
              adt == DTYPE_BF16 ? "bf16" : "f16", adt == DTYPE_BF16 ? "bf16" : "f16");
    cg_printf(g, "      : \"+f\"(d[0]), \"+f\"(d[1]), \"+f\"(d[2]), \"+f\"(d[3])\n");
    cg_printf(g, "      : \"r\"(tk_fa[i][0]), \"r\"(tk_fa[i][1]), \"r\"(tk_fa[i][2]), \"r\"(tk_fa[i][3]),"
              " \"r\"(tk_fb[j][0]), \"r\"(tk_fb[j][1]));\n  }\n}\n");
    cg_loop_begin(g, Ld, false);
    cg_printf(g, "s%d[r] = tk_acc[r];\n", in->dst);
    cg_loop_end(g);
    cg_printf(g, "}\n");
    return true;
}

bool cgen_emit_dot(cg *g, int32_t pc, const ir_inst *in)
{
    cgen_layout Lmma = cg_layout(g, in->dst);
    if (Lmma.kind == CGEN_MMA)
        return emit_mma(g, pc, in, &Lmma);
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
