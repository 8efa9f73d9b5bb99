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
 * one A value per chunk: the inner loop is mostly FMAs.
 *
 * fp16 and bf16 dots with an fp32 result go to the tensor cores on CUDA
 * (emit_mma below, cgen_wgmma.c on Hopper) and to MFMA on AMD's gfx90a and
 * gfx940-942 (cgen_mfma.c), where the dst's layout says so (CGEN_MMA,
 * CGEN_MFMA); this file stages their operands too. */
#include "cgen_impl.h"
#include "cgen_mfma.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#pragma GCC diagnostic error "-Wswitch"
#pragma GCC diagnostic error "-Wswitch-enum"

typedef struct dotdims {
    int64_t batch, M, N, K;
} dotdims;

/* Where DOT in's operands wait in shared memory: A row-major in rows of
 * lda elements, B after it at byte offb (on the tensor-core path
 * row-major too, in rows of ldb: ldmatrix transposes it on the way).
 *
 * The FMA path's common case (fma_rows) keeps A k-major instead: a thread
 * of the accumulator's FLAT layout holds rows q, q + R, q + 2R, ... (C of
 * them, q = its first), and for each k it wants those C values at once.
 * They wait side by side: element (i, k) at k * lda + (i % R) * C + i / R,
 * so a thread reads them as C / 4 16-byte words, the same ones as every
 * other thread of its row group (a broadcast).  Where those words are
 * floats in rows of a multiple of 8 words (swz), word w of row k sits at
 * w ^ (k / 4 % 8): the threads that store the 4 k of one 16-byte global
 * load then spread over 8 word columns instead of 2 (a 4-way conflict on
 * the stores instead of 16-way), and a thread's reads stay whole words. */
typedef struct dot_stage {
    bool mma;               /* 16-bit patterns, on tensor cores or MFMA */
    bool wg;                /* on wgmma: its layouts (cgen_wgmma.c) */
    bool mf;                /* on MFMA: its layouts (cgen_mfma.c), plan mp */
    cgen_mfma_plan mp;
    bool kmajor;            /* A as above; R, C its row groups */
    bool swz;               /* and its words swizzled */
    int64_t M, N, K, batch, lda, ldb, R, C;
    size_t offb, esz;
    const char *et;         /* the element type there */
    bool tf32;
    dtype adt;
} dot_stage;

/* The FMA path where each thread walks K for chunks of V columns in C rows
 * R apart (batch 1, no int8): the accumulator's FLAT layout puts T * V
 * consecutive elements, a whole number of rows, in each chunk step. */
static bool fma_rows(const cg *g, const ir_inst *in, int64_t *R, int64_t *C)
{
    const ir_type *ta = cg_type(g, in->a), *td = cg_type(g, in->dst);
    int nd = td->ndim;
    cgen_layout Ld = cg_layout(g, in->dst);
    int64_t M = td->shape[nd - 2], N = td->shape[nd - 1];
    if (nd != 2 || ta->dt == DTYPE_INT8 || Ld.kind != CGEN_FLAT || Ld.repl ||
        N % Ld.vec != 0 || ((int64_t)g->T * Ld.vec) % N != 0)
        return false;
    *R = (int64_t)g->T * Ld.vec / N;
    *C = M / *R;
    return M % *R == 0;
}

static dot_stage stage_of(const cg *g, const ir_inst *in)
{
    const ir_type *ta = cg_type(g, in->a), *td = cg_type(g, in->dst);
    int nd = td->ndim;
    dot_stage st = {0};
    st.adt = ta->dt;
    st.M = td->shape[nd - 2];
    st.N = td->shape[nd - 1];
    st.K = ta->shape[nd - 1];
    st.batch = 1;
    for (int i = 0; i < nd - 2; i++)
        st.batch *= td->shape[i];
    st.mma = g->lay[in->dst].kind == CGEN_MMA || g->lay[in->dst].kind == CGEN_MFMA;
    st.mf = cgen_mfma_dot_plan(g, in, &st.mp);
    if (st.mf) {
        st.esz = 2;
        st.et = "unsigned short";
        st.lda = st.mp.lda;
        st.ldb = st.mp.ldb;
        st.offb = cgen_mfma_offb(&st.mp);
        return st;
    }
    st.wg = st.mma && cgen_wgmma_dot(g, in);
    if (st.wg) {
        st.esz = 2;
        st.et = "unsigned short";
        st.offb = cgen_wgmma_offb(g, in);
        return st;
    }
    if (st.mma) {
        /* rows padded by 16 bytes: the 8 rows one ldmatrix reads fall in 8
         * different bank groups */
        st.lda = st.K + 8;
        st.ldb = st.N + 8;
        st.esz = 2;
        st.et = "unsigned short";
    } else {
        bool f64 = st.adt == DTYPE_FP64, i8 = st.adt == DTYPE_INT8;
        st.lda = st.K + 1;
        st.kmajor = fma_rows(g, in, &st.R, &st.C);
        st.swz = st.kmajor && !f64 && cg_layout(g, in->dst).vec == 4 && st.C % 4 == 0 &&
                 st.M % 32 == 0;
        /* k-major rows of M (padded by a word where not swizzled) */
        if (st.kmajor)
            st.lda = st.swz ? st.M : st.M + 16 / (int64_t)(f64 ? 8 : 4);
        st.esz = f64 ? 8 : 4;
        st.et = f64 ? "double" : i8 ? "int" : "float";
        st.tf32 = st.adt == DTYPE_FP32 && in->imm == IR_PREC_TF32;
    }
    st.offb = ((size_t)(st.batch * (st.kmajor ? st.K : st.M) * st.lda) * st.esz + 15) &
              ~(size_t)15;
    return st;
}

/* Where DOT in's operands are written: its shared memory, or for a loop
 * pipelined through cp.async (cgen_pipe.c) the ring's buffer loaded next. */
static const char *stage_smem(const cg *g, const ir_inst *in, char *buf, size_t n)
{
    int32_t pc = (int32_t)(in - g->k->code);
    const char *base = cgen_wgmma_dot(g, in) ? "tk_wsm" : "tk_smem";
    if (!g->pipe_async[pc])
        return base;
    snprintf(buf, n, "(%s + tk_nb%d)", base, pc);
    return buf;
}

void cgen_dot_stage(cg *g, const ir_inst *in, int which, const char *e, const char *v)
{
    dot_stage st = stage_of(g, in);
    char bb[48];
    const char *sm = stage_smem(g, in, bb, sizeof bb);
    strbuf val = {0};
    if (st.mma)
        cgen_bitcast(&val, DTYPE_UINT16, st.adt, v);
    else
        strbuf_printf(&val, "%s(%s)", st.tf32 ? "tk_tf32" : "", v);
    if (st.wg) {
        strbuf off = {0};
        cgen_wgmma_offset(g, in, which, e, &off);
        cg_printf(g, "*(unsigned short *)(%s + %s) = %s;\n", sm, strbuf_cstr(&off),
                  strbuf_cstr(&val));
        strbuf_free(&off);
    } else if (st.mf) {
        strbuf off = {0};
        cgen_mfma_stage_offset(&st.mp, which, e, &off);
        cg_printf(g, "((unsigned short *)(%s + %zu))[%s] = %s;\n", sm, which ? st.offb : 0,
                  strbuf_cstr(&off), strbuf_cstr(&val));
        strbuf_free(&off);
    } else if (which == 0 && st.swz)
        cg_printf(g, "{ const int tk_k = (int)((%s) %% %" PRId64 "), tk_p = (int)(((%s) / %" PRId64
                  ") %% %" PRId64 " * %" PRId64 " + (%s) / %" PRId64 ");\n"
                  "  ((%s *)%s)[tk_k * %" PRId64 " + (((tk_p >> 2) ^ ((tk_k >> 2) & 7)) << 2)"
                  " + (tk_p & 3)] = %s; }\n",
                  e, st.K, e, st.K, st.R, st.C, e, st.K * st.R, st.et, sm, st.lda,
                  strbuf_cstr(&val));
    else if (which == 0 && st.kmajor)
        cg_printf(g, "((%s *)%s)[((%s) %% %" PRId64 ") * %" PRId64 " + ((%s) / %" PRId64
                  ") %% %" PRId64 " * %" PRId64 " + (%s) / %" PRId64 "] = %s;\n",
                  st.et, sm, e, st.K, st.lda, e, st.K, st.R, st.C, e, st.K * st.R,
                  strbuf_cstr(&val));
    else if (which == 0)
        cg_printf(g, "((%s *)%s)[((%s) / %" PRId64 ") * %" PRId64 " + (%s) %% %" PRId64 "] = %s;\n",
                  st.et, sm, e, st.K, st.lda, e, st.K, strbuf_cstr(&val));
    else if (st.mma)
        cg_printf(g, "((%s *)(%s + %zu))[((%s) / %" PRId64 ") * %" PRId64 " + (%s) %% %" PRId64 "] = %s;\n",
                  st.et, sm, st.offb, e, st.N, st.ldb, e, st.N, strbuf_cstr(&val));
    else
        cg_printf(g, "((%s *)(%s + %zu))[%s] = %s;\n", st.et, sm, st.offb, e, strbuf_cstr(&val));
    strbuf_free(&val);
}

bool cgen_dot_chunk_place(const cg *g, const ir_inst *in, int which, dtype loaded, int V,
                          strbuf *addr)
{
    dot_stage st = stage_of(g, in);
    /* (MFMA keeps B transposed: its chunks go element by element) */
    if (!st.mma || loaded != st.adt || V != 8 || (st.mf && which == 1))
        return false;
    /* a row of A or B holds the chunk's 8 elements side by side (K and N
     * multiples of 8, so each row's bytes a multiple of 16) */
    char bb[48];
    const char *sm = stage_smem(g, in, bb, sizeof bb);
    if (st.wg) {
        strbuf off = {0};
        cgen_wgmma_offset(g, in, which, "e0", &off);
        strbuf_printf(addr, "((unsigned short *)(%s + %s))", sm, strbuf_cstr(&off));
        strbuf_free(&off);
    } else if (which == 0)
        strbuf_printf(addr, "((unsigned short *)%s + ((e0) / %" PRId64 ") * %" PRId64
                      " + (e0) %% %" PRId64 ")", sm, st.K, st.lda, st.K);
    else
        strbuf_printf(addr, "((unsigned short *)(%s + %zu) + ((e0) / %" PRId64 ") * %" PRId64
                      " + (e0) %% %" PRId64 ")", sm, st.offb, st.N, st.ldb, st.N);
    return true;
}

size_t cgen_dot_stage_bytes(const cg *g, const ir_inst *in)
{
    dot_stage st = stage_of(g, in);
    if (st.wg)
        return cgen_wgmma_stage_bytes(g, in);
    if (st.mf)
        return cgen_mfma_stage_bytes(&st.mp);
    return (st.offb + (size_t)(st.mma ? st.K * st.ldb : st.batch * st.K * st.N) * st.esz + 15) &
           ~(size_t)15;
}

/* Write operand `which` of DOT in (slot s) to its staging area. */
static void stage_operand(cg *g, const ir_inst *in, int which, int32_t s)
{
    cgen_layout L = cg_layout(g, s);
    strbuf opd = {0};
    cg_operand(g, &opd, s);
    cg_loop_begin(g, &L, true);
    cgen_dot_stage(g, in, which, "e", strbuf_cstr(&opd));
    cg_loop_end(g);
    strbuf_free(&opd);
}

void cgen_dot_stage_operands(cg *g, int32_t pc)
{
    const ir_inst *in = &g->k->code[pc];
    if (!g->fused[pc])
        cg_barrier(g);
    if (!(g->fused[pc] & 1))
        stage_operand(g, in, 0, in->a);
    if (!(g->fused[pc] & 2))
        stage_operand(g, in, 1, in->b);
    cgen_wgmma_fence(g, pc);
    cg_barrier(g);
    g->staged[pc] = 1;
}

/* Is the instruction harmless between a LOAD that feeds a DOT directly
 * and the DOT (no shared memory, no side effect)? */
static bool quiet(const cg *g, const ir_inst *in)
{
    if (in->op == IR_NOP || in->op == IR_LOAD)
        return true;
    if (in->op == IR_STORE || in->op == IR_ATOMIC || in->op == IR_PRINT || in->op == IR_ASSERT ||
        in->op == IR_BREAKPOINT || in->op == IR_JUMP || in->op == IR_BRANCH ||
        in->op == IR_RETURN || in->op == IR_DOT)
        return false;
    return in->dst >= 0 && cg_scalar(g, in->dst);
}

void cg_find_fused_loads(cg *g)
{
    const ir_kernel *k = g->k;
    int32_t *uses = calloc((size_t)(k->nslots > 0 ? k->nslots : 1), sizeof *uses);
    if (!uses)
        return;
    for (int32_t pc = 0; pc < k->ncode; pc++) {
        int32_t rd[IR_MAX_READS];
        int n = ir_reads(&k->code[pc], rd);
        for (int i = 0; i < n; i++)
            uses[rd[i]]++;
        const ir_print *p = ir_inst_print(k, &k->code[pc]);
        for (int32_t i = 0; p && i < p->npieces; i++)
            if (p->pieces[i].slot >= 0)
                uses[p->pieces[i].slot]++;
    }
    for (int32_t d = 0; d < k->ncode; d++) {
        const ir_inst *in = &k->code[d];
        if (in->op != IR_DOT)
            continue;
        /* acc = dot(a, b, acc): the result's one use is the COPY back into
         * c, with nothing touching c in between: accumulate in c itself */
        int32_t x = in->dst, c = in->c;
        if (c >= 0 && !cg_scalar(g, c) && c != x && g->def[x] == d && uses[x] == 1 &&
            g->abase[c] < 0 && cg_same_layout(&g->lay[x], &g->lay[c]) &&
            cg_dt(g, x) == cg_dt(g, c)) {
            for (int32_t q = d + 1; q < k->ncode && !g->label[q]; q++) {
                const ir_inst *iq = &k->code[q];
                if (iq->op == IR_COPY && iq->a == x && iq->dst == c) {
                    g->inplace[d] = c;
                    g->skip[q] = 1;
                    break;
                }
                int32_t rd[IR_MAX_READS];
                int n = ir_reads(iq, rd);
                bool touches = ir_writes_dst(iq) && iq->dst == c;
                for (int i = 0; i < n; i++)
                    touches |= rd[i] == c || rd[i] == x;
                const ir_print *pp = ir_inst_print(k, iq);
                for (int32_t i = 0; pp && i < pp->npieces; i++)
                    touches |= pp->pieces[i].slot == c;
                if (touches || iq->op == IR_JUMP || iq->op == IR_BRANCH || iq->op == IR_RETURN)
                    break;
            }
        }
        int32_t ops[2] = {in->a, in->b};
        for (int w = 0; w < 2; w++) {
            int32_t s = ops[w], p = g->def[s];
            if (w == 1 && in->b == in->a)
                break;
            if (p < 0 || k->code[p].op != IR_LOAD || p > d || uses[s] != 1 ||
                g->fuse_into[p] >= 0 || g->abase[s] >= 0)
                continue;
            bool ok = true;
            for (int32_t q = p + 1; q < d && ok; q++)
                ok = quiet(g, &k->code[q]) && !g->label[q];
            if (!ok || g->label[d])
                continue;
            g->fuse_into[p] = d;
            g->fuse_which[p] = (int8_t)w;
            g->fused[d] |= (uint8_t)(1 << w);
            if (g->fuse_first[d] < 0 || p < g->fuse_first[d])
                g->fuse_first[d] = p;
        }
    }
    free(uses);
}

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
    dot_stage st = stage_of(g, in);
    int S = (int)st.lda, SB = (int)st.ldb;     /* row strides in 16-bit elements */
    size_t offb = st.offb;
    /* a ring of buffers where the loop is pipelined through cp.async (on
     * wgmma from tk_wsm, the first multiple of 1024 bytes) */
    cg_need_smem(g, cgen_dot_stage_bytes(g, in) * (size_t)cg_pipe_ring(g, pc) +
                    (st.wg ? 1024 : 0));
    strbuf ba = {0}, bb = {0};
    if (!cgen_bitcast(&ba, DTYPE_UINT16, adt, "s_a") ||
        !cgen_bitcast(&bb, DTYPE_UINT16, adt, "s_b")) {
        strbuf_free(&ba);
        strbuf_free(&bb);
        return cg_fail(g, pc, "DOT of %s on tensor cores is not supported", dtype_name(adt));
    }
    strbuf_free(&ba);
    strbuf_free(&bb);
    if (!g->staged[pc])
        cgen_dot_stage_operands(g, pc);

    int WM = M / Ld->wm, WN = N / Ld->wn, MT = Ld->mt, NT = Ld->nt;
    /* dst is fp32 (mma_layout): the fragments accumulate in its registers,
     * or in c's when the result only goes back there */
    int32_t home = g->inplace[pc] >= 0 ? g->inplace[pc] : in->dst;
    cg_printf(g, "{\n");
    if (home != in->c) {
        cg_loop_begin(g, Ld, false);
        if (in->c >= 0) {
            strbuf c = {0};
            cg_operand(g, &c, in->c);
            cg_printf(g, "s%d[r] = (float)(%s);\n", home, strbuf_cstr(&c));
            strbuf_free(&c);
        } else {
            cg_printf(g, "s%d[r] = 0.0f;\n", home);
        }
        cg_loop_end(g);
    }
    if (st.wg) {
        char bb[48];
        bool ok = cgen_emit_wgmma(g, pc, in, home, g->pipe_async[pc]
                                  ? (snprintf(bb, sizeof bb, "tk_cur%d", pc), bb)
                                  : "0");
        cg_printf(g, "}\n");
        return ok;
    }
    /* Fragments come through ldmatrix: lane l names row l % 16 of a
     * 16 x 16 piece, at column 8 * (l / 16); A's four 8 x 8 matrices are
     * m16n8k16's a0..a3, and B's, read transposed from its k rows, the b0,
     * b1 of two n8 tiles. */
    if (g->pipe_async[pc])
        cg_printf(g, "const unsigned tk_sa = (unsigned)__cvta_generic_to_shared(tk_smem + tk_cur%d);\n", pc);
    else
        cg_printf(g, "const unsigned tk_sa = (unsigned)__cvta_generic_to_shared(tk_smem);\n");
    cg_printf(g, "const int tk_w = tk_tid >> 5, tk_l = tk_tid & 31;\n");
    cg_printf(g, "const int tk_wr = tk_w / %d * %d, tk_wc = tk_w %% %d * %d;\n", Ld->wn, WM,
              Ld->wn, WN);
    cg_printf(g, "const unsigned tk_pa = tk_sa + (unsigned)(((tk_wr + (tk_l & 15)) * %d + "
              "(tk_l >> 4) * 8) * 2);\n", S);
    cg_printf(g, "const unsigned tk_pb = tk_sa + %zuu + (unsigned)(((tk_l & 15) * %d + tk_wc + "
              "(tk_l >> 4) * 8) * 2);\n", offb, SB);
    /* unrolled whole up to four steps, so that the next step's fragments
     * load during this step's MMAs */
    cg_printf(g, "#pragma unroll %d\nfor (int k0 = 0; k0 < %d; k0 += 16) {\n",
              K / 16 <= 4 ? K / 16 : 2, K / 2 * 2);
    cg_printf(g, "  unsigned tk_fa[%d][4], tk_fb[%d][2];\n", MT, NT + (NT & 1));
    cg_printf(g, "#pragma unroll\n  for (int i = 0; i < %d; i++)\n", MT);
    cg_printf(g, "    asm volatile(\"ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%%0,%%1,%%2,%%3}, [%%4];\"\n"
              "      : \"=r\"(tk_fa[i][0]), \"=r\"(tk_fa[i][1]), \"=r\"(tk_fa[i][2]), \"=r\"(tk_fa[i][3])\n"
              "      : \"r\"(tk_pa + (unsigned)((i * 16 * %d + k0) * 2)));\n", S);
    cg_printf(g, "#pragma unroll\n  for (int j = 0; j < %d; j += 2)\n", NT);
    cg_printf(g, "    asm volatile(\"ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%%0,%%1,%%2,%%3}, [%%4];\"\n"
              "      : \"=r\"(tk_fb[j][0]), \"=r\"(tk_fb[j][1]), \"=r\"(tk_fb[j + 1][0]), \"=r\"(tk_fb[j + 1][1])\n"
              "      : \"r\"(tk_pb + (unsigned)((k0 * %d + j * 8) * 2)));\n", SB);
    cg_printf(g, "#pragma unroll\n  for (int i = 0; i < %d; i++)\n", MT);
    cg_printf(g, "#pragma unroll\n  for (int j = 0; j < %d; j++) {\n", NT);
    cg_printf(g, "    float *d = &s%d[(i * %d + j) * 4];\n", home, NT);
    /* (no side effect beyond its outputs: the compiler may schedule it
     * between the fragment loads, which stay in order with the barriers) */
    cg_printf(g, "    asm(\"mma.sync.aligned.m16n8k16.row.col.f32.%s.%s.f32 "
              "{%%0,%%1,%%2,%%3}, {%%4,%%5,%%6,%%7}, {%%8,%%9}, {%%0,%%1,%%2,%%3};\"\n",
              adt == DTYPE_BF16 ? "bf16" : "f16", adt == DTYPE_BF16 ? "bf16" : "f16");
    cg_printf(g, "      : \"+f\"(d[0]), \"+f\"(d[1]), \"+f\"(d[2]), \"+f\"(d[3])\n");
    cg_printf(g, "      : \"r\"(tk_fa[i][0]), \"r\"(tk_fa[i][1]), \"r\"(tk_fa[i][2]), \"r\"(tk_fa[i][3]),"
              " \"r\"(tk_fb[j][0]), \"r\"(tk_fb[j][1]));\n  }\n}\n");
    cg_printf(g, "}\n");
    return true;
}

bool cgen_emit_dot(cg *g, int32_t pc, const ir_inst *in)
{
    cgen_layout Lmma = cg_layout(g, in->dst);
    if (Lmma.kind == CGEN_MMA)
        return emit_mma(g, pc, in, &Lmma);
    if (Lmma.kind == CGEN_MFMA)
        return cgen_emit_mfma(g, pc, in, &Lmma);
    const ir_type *ta = cg_type(g, in->a), *tb = cg_type(g, in->b), *td = cg_type(g, in->dst);
    int nd = td->ndim;
    if (nd < 2 || ta->ndim != nd || tb->ndim != nd)
        return cg_fail(g, pc, "DOT of %d-d tiles is not supported by the GPU backends", nd);
    dotdims D = {1, td->shape[nd - 2], td->shape[nd - 1], ta->shape[nd - 1]};
    for (int i = 0; i < nd - 2; i++)
        D.batch *= td->shape[i];
    dtype adt = cg_dt(g, in->a), ddt = cg_dt(g, in->dst);
    bool f64 = adt == DTYPE_FP64, i8 = adt == DTYPE_INT8;
    const char *et = f64 ? "double" : i8 ? "int" : "float";
    dot_stage st = stage_of(g, in);
    int64_t lda = st.lda;
    size_t offb = st.offb;
    cg_need_smem(g, cgen_dot_stage_bytes(g, in));

    cgen_layout Ld = cg_layout(g, in->dst);
    if (!g->staged[pc])
        cgen_dot_stage_operands(g, pc);

    dtype accdt = f64 ? DTYPE_FP64 : i8 ? DTYPE_INT32 : DTYPE_FP32;
    /* accumulate in dst's own registers when they hold the accumulator's
     * type (the common case: no second copy of a large tile) */
    bool inplace = accdt == ddt;
    int32_t home = g->inplace[pc] >= 0 ? g->inplace[pc] : in->dst;
    char acc[32];
    if (inplace)
        snprintf(acc, sizeof acc, "s%d", home);
    else
        snprintf(acc, sizeof acc, "tk_acc");
    cg_printf(g, "{\n");
    if (!inplace)
        cg_printf(g, "%s tk_acc[%d];\n", et, Ld.regs);
    cg_printf(g, "const %s *tk_A = (const %s *)tk_smem;\n", et, et);
    cg_printf(g, "const %s *tk_B = (const %s *)(tk_smem + %zu);\n", et, et, offb);
    /* the accumulator (already there when it accumulates in c) */
    cg_loop_begin(g, &Ld, false);
    if (inplace && home == in->c) {
        cg_printf(g, "(void)0;\n");
    } else if (in->c >= 0) {
        strbuf c = {0};
        cg_operand(g, &c, in->c);
        cg_printf(g, "%s[r] = (%s)(%s);\n", acc, et, strbuf_cstr(&c));
        strbuf_free(&c);
    } else {
        cg_printf(g, "%s[r] = 0;\n", acc);
    }
    cg_loop_end(g);

    if (st.kmajor) {
        /* each thread: C rows R apart times V columns; per k, its C values
         * of A (k-major, side by side) and V of B, in 16-byte words where
         * they are floats (f4: words of four) */
        int V = Ld.vec;
        bool f4 = st.swz;
        cg_printf(g, "const int tk_col = (tk_tid * %d) %% %" PRId64 ";\n", V, D.N);
        cg_printf(g, "const int tk_q = (tk_tid * %d) / %" PRId64 ";\n", V, D.N);
        /* unrolled by 2 where a thread has 16 rows or more: on the H100,
         * 4096^3 with 128x128 tiles ran at 27.4 TFLOP/s so, 24.5 unrolled
         * by 1 (159 registers, 3 blocks an SM) and 21.8 by 4 (250) */
        cg_printf(g, "#pragma unroll %d\nfor (int k = 0; k < %" PRId64 "; k++) {\n",
                  st.C >= 16 ? 2 : 4, D.K);
        if (f4)
            cg_printf(g, "  const float *tk_ak = tk_A + k * %" PRId64 ";\n"
                      "  const int tk_wq = tk_q * %" PRId64 ", tk_sw = (k >> 2) & 7;\n",
                      lda, st.C / 4);
        else
            cg_printf(g, "  const %s *tk_ak = tk_A + k * %" PRId64 " + tk_q * %" PRId64 ";\n",
                      et, lda, st.C);
        cg_printf(g, "  %s tk_bv[%d];\n", et, V);
        if (f4) {
            cg_printf(g, "  { const float4 tk_w = *(const float4 *)(tk_B + k * %" PRId64
                      " + tk_col); tk_bv[0] = tk_w.x; tk_bv[1] = tk_w.y; tk_bv[2] = tk_w.z;"
                      " tk_bv[3] = tk_w.w; }\n", D.N);
            cg_printf(g, "#pragma unroll\n  for (int c4 = 0; c4 < %" PRId64 "; c4++) {\n",
                      st.C / 4);
            cg_printf(g, "    const float4 tk_w = *(const float4 *)(tk_ak + (((tk_wq + c4) ^ tk_sw) << 2));\n");
            cg_printf(g, "    const float tk_av[4] = {tk_w.x, tk_w.y, tk_w.z, tk_w.w};\n");
            cg_printf(g, "#pragma unroll\n    for (int c = 0; c < 4; c++)\n");
            cg_printf(g, "#pragma unroll\n      for (int v = 0; v < 4; v++)\n");
            cg_printf(g, "        %s[(c4 * 4 + c) * 4 + v] = __fmaf_rn(tk_av[c], tk_bv[v], "
                      "%s[(c4 * 4 + c) * 4 + v]);\n", acc, acc);
            cg_printf(g, "  }\n}\n");
        } else {
            cg_printf(g, "#pragma unroll\n  for (int v = 0; v < %d; v++) tk_bv[v] = tk_B[k * %"
                      PRId64 " + tk_col + v];\n", V, D.N);
            cg_printf(g, "#pragma unroll\n  for (int c = 0; c < %" PRId64 "; c++) {\n", st.C);
            cg_printf(g, "    const %s tk_av = tk_ak[c];\n", et);
            cg_printf(g, "#pragma unroll\n    for (int v = 0; v < %d; v++)\n", V);
            cg_printf(g, "      %s[c * %d + v] = %s(tk_av, tk_bv[v], %s[c * %d + v]);\n", acc,
                      V, f64 ? "__fma_rn" : "__fmaf_rn", acc, V);
            cg_printf(g, "  }\n}\n");
        }
    } else {
        cg_loop_begin(g, &Ld, false);
        cg_printf(g, "const long long tk_bb = e / %" PRId64 ", tk_i = (e / %" PRId64 ") %% %" PRId64
                  ", tk_j = e %% %" PRId64 ";\n", D.M * D.N, D.N, D.M, D.N);
        cg_printf(g, "const %s *tk_ar = tk_A + (tk_bb * %" PRId64 " + tk_i) * %" PRId64 ";\n", et,
                  D.M, lda);
        cg_printf(g, "const %s *tk_bc = tk_B + tk_bb * %" PRId64 " + tk_j;\n", et, D.K * D.N);
        if (i8) {
            cg_printf(g, "long long tk_s = %s[r];\n", acc);
            cg_printf(g, "for (int k0 = 0; k0 < %" PRId64 "; k0 += 32) {\n", D.K);
            cg_printf(g, "  int tk_g = 0;\n");
            cg_printf(g, "  for (int k = k0; k < k0 + 32 && k < %" PRId64 "; k++) tk_g += tk_ar[k] * tk_bc[k * %" PRId64 "];\n",
                      D.K, D.N);
            cg_printf(g, "  tk_s += tk_g;\n");
            cg_printf(g, "  tk_s = tk_s > 2147483647ll ? 2147483647ll : tk_s < -2147483648ll ? -2147483648ll : tk_s;\n");
            cg_printf(g, "}\n%s[r] = (int)tk_s;\n", acc);
        } else {
            cg_printf(g, "%s tk_t = %s[r];\n", et, acc);
            cg_printf(g, "for (int k = 0; k < %" PRId64 "; k++) tk_t = %s(tk_ar[k], tk_bc[k * %" PRId64 "], tk_t);\n",
                      D.K, f64 ? "__fma_rn" : "__fmaf_rn", D.N);
            cg_printf(g, "%s[r] = tk_t;\n", acc);
        }
        cg_loop_end(g);
    }
    /* the result, rounded to dst's dtype */
    if (!inplace) {
        strbuf cv = {0};
        if (!cgen_cast(&cv, IR_CAST_PLAIN, ddt, accdt, "tk_acc[r]")) {
            strbuf_free(&cv);
            return cg_fail(g, pc, "DOT to %s is not supported by the GPU backends",
                           dtype_name(ddt));
        }
        /* into c's registers when the COPY back into c was dropped */
        cg_loop_begin(g, &Ld, false);
        cg_printf(g, "s%d[r] = %s;\n", home, strbuf_cstr(&cv));
        cg_loop_end(g);
        strbuf_free(&cv);
    }
    cg_printf(g, "}\n");
    return true;
}
