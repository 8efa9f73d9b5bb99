/* test_cgen_mfma.c - a host model of the HIP backend's tl.dot on AMD's
 * matrix instructions (cgen_mfma.c), run without an AMD GPU.
 *
 * The model has two independent halves:
 *  - the instructions, as AMD documents them: for v_mfma_f32_32x32x8f16
 *    and v_mfma_f32_16x16x16f16 (and their bf16_1k twins, which have the
 *    same layouts), which lane and register holds each element of A, B
 *    and C/D (isa_a, isa_b, isa_d below: written from AMD's matrix
 *    instruction calculator for CDNA2 and CDNA3, as element -> lane);
 *  - the emitter's index mapping, cgen_mfma_map_of: the very expressions
 *    that cgen_emit prints into the HIP code (which element of the LDS
 *    tile each lane loads into each operand register, which accumulator
 *    element each register holds).
 * For several tiles (M, N, K, waves, nonkdim) the model stages small
 * integer matrices as the emitter does, loads every wave's fragments
 * through the emitter's mapping, executes each instruction by its
 * documented layout, and scatters the accumulators through the emitter's
 * mapping: the result must be the host's matmul, every element written
 * once.  A deliberately wrong mapping must fail the same check.  Then
 * cgen_emit's HIP code for such a DOT must contain the mapping's
 * expressions and the instruction's builtin, so the code follows the
 * model. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgen.h"
#include "cgen_mfma.h"
#include "ir.h"
#include "irbuild.h"
#include "tap.h"

/* ---- the instructions, as documented ---------------------------------------- */

/* A[i][k] of an nk x nk x kb instruction: its lane and value (0-3). */
static void isa_a(int nk, int i, int k, int *lane, int *v)
{
    *lane = i + nk * (k / 4);
    *v = k % 4;
}

/* B[k][j]: the same with j for i. */
static void isa_b(int nk, int k, int j, int *lane, int *v)
{
    *lane = j + nk * (k / 4);
    *v = k % 4;
}

/* D[i][j] (and C): 32x32: rows in groups of 8, each 4 rows of the lanes
 * 0-31 and 4 of 32-63, registers 4 per group; 16x16: rows in groups of 4
 * per 16 lanes, one register per row of a group. */
static void isa_d(int nk, int i, int j, int *lane, int *reg)
{
    if (nk == 32) {
        *lane = j + 32 * (i / 4 % 2);
        *reg = i / 8 * 4 + i % 4;
    } else {
        *lane = j + 16 * (i / 4);
        *reg = i % 4;
    }
}

/* One instruction on a wave: d[lane][reg] += A B, with a[lane][v] and
 * b[lane][v] the operand registers; false if the layouts do not cover
 * the matrices (they must, as a check of the model itself). */
static bool isa_mfma(int nk, const long a[64][4], const long b[64][4], long *d, int fregs)
{
    int kb = nk == 32 ? 8 : 16;
    long A[32][16], B[16][32];
    for (int i = 0; i < nk; i++)
        for (int k = 0; k < kb; k++) {
            int l, v;
            isa_a(nk, i, k, &l, &v);
            if (l < 0 || l >= 64)
                return false;
            A[i][k] = a[l][v];
            isa_b(nk, k, i, &l, &v);
            if (l < 0 || l >= 64)
                return false;
            B[k][i] = b[l][v];
        }
    for (int i = 0; i < nk; i++)
        for (int j = 0; j < nk; j++) {
            int l, r;
            isa_d(nk, i, j, &l, &r);
            if (l < 0 || l >= 64 || r < 0 || r >= fregs)
                return false;
            long s = 0;
            for (int k = 0; k < kb; k++)
                s += A[i][k] * B[k][j];
            d[l * fregs + r] += s;
        }
    return true;
}

/* ---- the model of the emitted code --------------------------------------------- */

static long val_a(int i, int k) { return (long)((i * 7 + k * 3) % 7) - 3; }
static long val_b(int k, int j) { return (long)((k * 5 + j * 11 + 1) % 9) - 4; }
static long val_c(int i, int j) { return (long)((i + 2 * j) % 5); }

/* Run the plan's DOT (C + A B) through map m; true when it gives the host
 * matmul with every element written once.  why: the first difference. */
static bool model_run(const cgen_mfma_plan *p, const cgen_mfma_map *m, char *why, size_t nwhy)
{
    int T = 64 * p->W, M = p->M, N = p->N, K = p->K, R = p->fregs;
    bool ok = p->mt <= 8 && p->nt <= 8 && R <= 16;
    if (!ok)
        snprintf(why, nwhy, "the model takes at most 8 x 8 fragments");
    /* LDS as the emitter stages it: A row-major in rows of lda, B
     * transposed in rows of ldb */
    long *lda = calloc((size_t)M * (size_t)p->lda, sizeof *lda);
    long *ldb = calloc((size_t)N * (size_t)p->ldb, sizeof *ldb);
    long *acc = calloc((size_t)T * (size_t)p->regs, sizeof *acc);
    int *seen = calloc((size_t)M * (size_t)N, sizeof *seen);
    for (int i = 0; i < M; i++)
        for (int k = 0; k < K; k++)
            lda[i * p->lda + k] = val_a(i, k);
    for (int k = 0; k < K; k++)
        for (int j = 0; j < N; j++)
            ldb[j * p->ldb + k] = val_b(k, j);
    /* the accumulator from C, each register at the element the map says */
    for (int t = 0; t < T && ok; t++)
        for (int r = 0; r < p->regs && ok; r++) {
            int64_t v[CGEN_MV_COUNT] = {[CGEN_MV_TID] = t, [CGEN_MV_REG] = r};
            int64_t i = cgen_mfma_eval(&m->acc_row, v), j = cgen_mfma_eval(&m->acc_col, v);
            if (i < 0 || i >= M || j < 0 || j >= N) {
                snprintf(why, nwhy, "thread %d register %d: element (%lld, %lld) outside", t, r,
                         (long long)i, (long long)j);
                ok = false;
            } else {
                acc[t * p->regs + r] = val_c((int)i, (int)j);
            }
        }
    static long fa[8][64][4], fb[8][64][4];
    for (int k0 = 0; k0 < K && ok; k0 += p->kb)
        for (int w = 0; w < p->W && ok; w++) {
            /* the wave's fragments, loaded through the map: value V must
             * follow value 0 in its row (one 8-byte read) */
            for (int l = 0; l < 64 && ok; l++)
                for (int v = 0; v < 4 && ok; v++) {
                    int t = 64 * w + l;
                    for (int i = 0; i < p->mt && ok; i++) {
                        int64_t x[CGEN_MV_COUNT] = {[CGEN_MV_TID] = t, [CGEN_MV_I] = i,
                                                    [CGEN_MV_K0] = k0, [CGEN_MV_V] = v};
                        int64_t row = cgen_mfma_eval(&m->a_row, x), k = cgen_mfma_eval(&m->a_k, x);
                        x[CGEN_MV_V] = 0;
                        if (row < 0 || row >= M || k < 0 || k >= K ||
                            k != cgen_mfma_eval(&m->a_k, x) + v) {
                            snprintf(why, nwhy, "A fragment %d of thread %d value %d: (%lld, %lld)",
                                     i, t, v, (long long)row, (long long)k);
                            ok = false;
                        } else {
                            fa[i][l][v] = lda[row * p->lda + k];
                        }
                    }
                    for (int j = 0; j < p->nt && ok; j++) {
                        int64_t x[CGEN_MV_COUNT] = {[CGEN_MV_TID] = t, [CGEN_MV_J] = j,
                                                    [CGEN_MV_K0] = k0, [CGEN_MV_V] = v};
                        int64_t col = cgen_mfma_eval(&m->b_col, x), k = cgen_mfma_eval(&m->b_k, x);
                        x[CGEN_MV_V] = 0;
                        if (col < 0 || col >= N || k < 0 || k >= K ||
                            k != cgen_mfma_eval(&m->b_k, x) + v) {
                            snprintf(why, nwhy, "B fragment %d of thread %d value %d: (%lld, %lld)",
                                     j, t, v, (long long)k, (long long)col);
                            ok = false;
                        } else {
                            fb[j][l][v] = ldb[col * p->ldb + k];
                        }
                    }
                }
            /* one instruction per fragment, on registers (i nt + j) R .. */
            for (int i = 0; i < p->mt && ok; i++)
                for (int j = 0; j < p->nt && ok; j++) {
                    long d[64 * 16];
                    for (int l = 0; l < 64; l++)
                        for (int q = 0; q < R; q++)
                            d[l * R + q] = acc[(64 * w + l) * p->regs + (i * p->nt + j) * R + q];
                    if (!isa_mfma(p->nk, (const long (*)[4])fa[i], (const long (*)[4])fb[j], d, R)) {
                        snprintf(why, nwhy, "the model's layouts do not cover %dx%d", p->nk, p->nk);
                        ok = false;
                    }
                    for (int l = 0; l < 64; l++)
                        for (int q = 0; q < R; q++)
                            acc[(64 * w + l) * p->regs + (i * p->nt + j) * R + q] = d[l * R + q];
                }
        }
    /* every element once, equal to the host's C + A B */
    for (int t = 0; t < T && ok; t++)
        for (int r = 0; r < p->regs && ok; r++) {
            int64_t v[CGEN_MV_COUNT] = {[CGEN_MV_TID] = t, [CGEN_MV_REG] = r};
            int i = (int)cgen_mfma_eval(&m->acc_row, v), j = (int)cgen_mfma_eval(&m->acc_col, v);
            long want = val_c(i, j);
            for (int k = 0; k < K; k++)
                want += val_a(i, k) * val_b(k, j);
            if (seen[i * N + j]++) {
                snprintf(why, nwhy, "element (%d, %d) held twice (thread %d register %d)", i, j, t, r);
                ok = false;
            } else if (acc[t * p->regs + r] != want) {
                snprintf(why, nwhy, "element (%d, %d): %ld, the host's matmul %ld", i, j,
                         acc[t * p->regs + r], want);
                ok = false;
            }
        }
    free(lda);
    free(ldb);
    free(acc);
    free(seen);
    return ok;
}

/* ---- the emitted code follows the map -------------------------------------------- */

/* A kernel: c[M, N] = dot(a[M, K], b[K, N]) in dt -> fp32. */
static void dot_kernel(irb *b, dtype dt, int M, int N, int K)
{
    irb_init(b, "mfma");
    irb_at(b, 3, 5, 20);
    int pa = irb_param(b, "a_ptr", dtype_ptr_to(dt));
    int pb = irb_param(b, "b_ptr", dtype_ptr_to(dt));
    int pc = irb_param(b, "c_ptr", dtype_ptr_to(DTYPE_FP32));
    int a = irb_load(b, irb_ptr_add(b, irb_arg(b, pa), irb_offs2d(b, M, K, K)), -1, -1);
    int bb = irb_load(b, irb_ptr_add(b, irb_arg(b, pb), irb_offs2d(b, K, N, N)), -1, -1);
    int acc = irb_slot(b, DTYPE_FP32, 2, M, N);
    irb_emit(b, IR_DOT, 0, acc, a, bb, -1, 0);
    irb_store(b, irb_ptr_add(b, irb_arg(b, pc), irb_offs2d(b, M, N, N)), acc, -1);
    irb_emit(b, IR_RETURN, 0, -1, -1, -1, -1, 0);
}

static bool emit_hip(const irb *b, int arch, int warps, int nonkdim, strbuf *src)
{
    cgen_options o = {.target = {CGEN_HIP, 64, arch}, .num_warps = warps, .num_stages = 2,
                      .checked = true, .max_smem = 64 * 1024, .matrix_instr_nonkdim = nonkdim};
    cgen_fault f;
    cgen_info info;
    bool ok = cgen_emit(&b->k, &o, src, &info, &f);
    if (!ok)
        printf("# cgen_emit failed at %d: %s\n", f.pc, f.why);
    return ok;
}

typedef struct shape {
    int M, N, K, W, nonkdim;
} shape;

static const shape shapes[] = {
    {16, 16, 16, 1, 16},   {32, 32, 32, 1, 32},   {32, 32, 16, 1, 16},  {64, 64, 32, 4, 16},
    {64, 64, 32, 4, 32},   {128, 128, 32, 4, 32}, {128, 64, 64, 8, 16}, {32, 128, 16, 2, 32},
    {256, 128, 16, 8, 32}, {64, 32, 48, 2, 0},    {96, 64, 24, 2, 32},  {128, 128, 64, 4, 16},
};
#define NSHAPES ((int)(sizeof shapes / sizeof shapes[0]))

int main(void)
{
    tap_plan(2 * NSHAPES + 11);
    char why[256];
    for (int s = 0; s < NSHAPES; s++) {
        const shape *h = &shapes[s];
        cgen_mfma_plan p;
        bool planned = cgen_mfma_plan_of(h->M, h->N, h->K, h->W, h->nonkdim, &p);
        TAP_OK(planned, "plan for %dx%dx%d on %d waves, nonkdim %d", h->M, h->N, h->K, h->W,
               h->nonkdim);
        cgen_mfma_map m;
        why[0] = 0;
        bool ok = planned;
        if (planned) {
            cgen_mfma_map_of(&p, &m);
            ok = model_run(&p, &m, why, sizeof why);
        }
        TAP_OK(ok, "%dx%dx%d on %d waves: %dx%d instructions, %d x %d fragments a wave on a "
               "%d x %d grid, give the host's matmul", h->M, h->N, h->K, h->W, p.nk, p.nk,
               p.mt, p.nt, p.wm, p.wn);
        if (!ok)
            printf("# %s\n", why);
    }

    /* wrong mappings fail */
    cgen_mfma_plan p;
    cgen_mfma_map m, bad;
    cgen_mfma_plan_of(64, 64, 32, 4, 32, &p);
    cgen_mfma_map_of(&p, &m);
    bad = m;
    bad.a_k.t[1].mul = 8;           /* lane groups 8 k apart */
    TAP_OK(!model_run(&p, &bad, why, sizeof why), "a wrong k of A's lanes fails (%s)", why);
    bad = m;
    for (int i = 0; i < bad.acc_row.n; i++)     /* the rows within a group swapped */
        if (bad.acc_row.t[i].var == CGEN_MV_TID && bad.acc_row.t[i].mul == 4)
            bad.acc_row.t[i].mul = 1;
    TAP_OK(!model_run(&p, &bad, why, sizeof why), "a wrong accumulator row fails (%s)", why);
    cgen_mfma_plan q;
    cgen_mfma_plan_of(64, 64, 32, 4, 16, &q);
    cgen_mfma_map_of(&q, &m);
    bad = m;                        /* B's lane groups in another order than A's */
    bad.b_k.n = 0;
    bad.b_k.t[bad.b_k.n++] = (cgen_mfma_term){CGEN_MV_K0, 1, 0, 1};
    bad.b_k.t[bad.b_k.n++] = (cgen_mfma_term){CGEN_MV_TID, 32, 2, 4};
    bad.b_k.t[bad.b_k.n++] = (cgen_mfma_term){CGEN_MV_TID, 16, 2, 8};
    bad.b_k.t[bad.b_k.n++] = (cgen_mfma_term){CGEN_MV_V, 1, 0, 1};
    TAP_OK(!model_run(&q, &bad, why, sizeof why) && strstr(why, "host's matmul"),
           "B's k groups permuted gives wrong values (%s)", why);
    cgen_mfma_map_of(&q, &bad);     /* 16x16's map with 32x32's instruction */
    TAP_OK(!model_run(&p, &bad, why, sizeof why), "16x16's mapping on 32x32x8 fails (%s)", why);

    /* where MFMA does not fit: the FMA path */
    TAP_OK(!cgen_mfma_plan_of(16, 16, 16, 4, 16, &q), "16x16 on 4 waves takes no MFMA");
    TAP_OK(!cgen_mfma_plan_of(64, 64, 8, 4, 16, &q), "K 8 with nonkdim 16 takes no MFMA");
    TAP_OK(cgen_hip_arch("gfx90a:sramecc+:xnack-") == 0x90a && cgen_hip_arch("gfx942") == 0x942 &&
           cgen_hip_arch("gfx1100") == 0x1100 && cgen_hip_arch("sm_90") == 0,
           "cgen_hip_arch reads gfx names");

    /* the emitted code prints the model's expressions */
    irb b;
    strbuf src = {0};
    dot_kernel(&b, DTYPE_FP16, 64, 64, 32);
    bool ok = emit_hip(&b, 0x90a, 4, 32, &src);
    cgen_mfma_plan_of(64, 64, 32, 4, 32, &p);
    cgen_mfma_map_of(&p, &m);
    strbuf ar = {0}, bc = {0}, acc = {0};
    const char *name[CGEN_MV_COUNT] = {[CGEN_MV_TID] = "tk_tid", [CGEN_MV_I] = "i",
                                       [CGEN_MV_J] = "j", [CGEN_MV_K0] = "k0"};
    cgen_mfma_print(&ar, &m.a_row, name);
    cgen_mfma_print(&bc, &m.b_col, name);
    const char *rname[CGEN_MV_COUNT] = {[CGEN_MV_TID] = "tk_tid", [CGEN_MV_REG] = "r"};
    cgen_mfma_print(&acc, &m.acc_row, rname);
    const char *s = strbuf_cstr(&src);
    TAP_OK(ok && strstr(s, "__builtin_amdgcn_mfma_f32_32x32x8f16(") && strstr(s, strbuf_cstr(&ar)) &&
           strstr(s, strbuf_cstr(&bc)) && strstr(s, strbuf_cstr(&acc)),
           "fp16 64x64x32 on gfx90a, nonkdim 32: v_mfma_f32_32x32x8f16 with the model's indices");
    strbuf_clear(&src);
    dot_kernel(&b, DTYPE_BF16, 64, 64, 32);
    ok = emit_hip(&b, 0x942, 4, 16, &src);
    TAP_OK(ok && strstr(strbuf_cstr(&src), "__builtin_amdgcn_mfma_f32_16x16x16bf16_1k("),
           "bf16 on gfx942, nonkdim 16: v_mfma_f32_16x16x16bf16_1k");
    strbuf_clear(&src);
    dot_kernel(&b, DTYPE_FP16, 64, 64, 32);
    ok = emit_hip(&b, 0x1100, 4, 0, &src);
    TAP_OK(ok && !strstr(strbuf_cstr(&src), "__builtin_amdgcn_mfma"), "gfx1100 (RDNA, no MFMA): the FMA path");
    strbuf_clear(&src);
    dot_kernel(&b, DTYPE_FP32, 64, 64, 32);
    ok = emit_hip(&b, 0x90a, 4, 0, &src);
    TAP_OK(ok && !strstr(strbuf_cstr(&src), "__builtin_amdgcn_mfma"), "fp32 ieee: the FMA path (bits)");
    strbuf_free(&src);
    strbuf_free(&ar);
    strbuf_free(&bc);
    strbuf_free(&acc);
    return tap_done();
}
