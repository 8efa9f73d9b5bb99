/* cgen_mfma.c - DOT on AMD's matrix instructions (MFMA, CDNA2 and CDNA3:
 * gfx90a, gfx940/941/942), through clang's builtins
 * __builtin_amdgcn_mfma_f32_{32x32x8,16x16x16}{f16,bf16_1k}.
 *
 * Which DOTs take MFMA: fp16 x fp16 or bf16 x bf16 operands with an fp32
 * result, 2-D, on a HIP target that has the instructions with 64-lane
 * wavefronts (cgen_mfma_target), where a plan fits the tile
 * (cgen_mfma_plan_of: nk divides M and N over a grid of the waves, kb
 * divides K).  doc/ir.md 4.2 allows such dots a tolerance (the matrix
 * units add products in groups), as for CUDA's tensor cores.  Everything
 * else stays on the FMA path of cgen_dot.c: fp32 `ieee` (the bits of one
 * FMA chain in k order, which no MFMA gives), tf32 (gfx90a has no xf32
 * instruction), int8 (the contract saturates each group of 32 products;
 * MFMA's i32 accumulator wraps), fp64, fp8 and fp16 results.
 *
 * The accumulator lives in the CGEN_MFMA layout (cgen_impl.h): each wave
 * holds mt x nt fragments of nk x nk, in the registers the instruction
 * reads and writes (AMD's matrix instruction calculator, CDNA2 and CDNA3,
 * for these four instructions; the same for A, B and D of all four):
 *   A[i][k]: lane i % nk + nk * (k / 4), value k % 4 of its 64-bit register
 *   B[k][j]: lane j % nk + nk * (k / 4), value k % 4
 *   D[i][j]: lane j + nk * (i / 4 % (64 / nk)), register
 *            i / (256 / nk) * 4 + i % 4
 * The emitter and the host model share these as index expressions
 * (cgen_mfma.h, cgen_mfma_map_of).  Triton's matrix_instr_nonkdim picks
 * nk (16 or 32); kpack is accepted and changes nothing (it tunes how
 * Triton's own LDS layout packs k; this one is fixed). */
#include "cgen_impl.h"
#include "cgen_mfma.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the plan and its index expressions --------------------------------- */

bool cgen_mfma_plan_of(int M, int N, int K, int W, int nonkdim, cgen_mfma_plan *p)
{
    if (W < 1 || M < 1 || N < 1 || K < 1 || (nonkdim != 0 && nonkdim != 16 && nonkdim != 32))
        return false;
    int tries[2] = {nonkdim ? nonkdim : 16, nonkdim ? 0 : 32};
    for (int t = 0; t < 2 && tries[t]; t++) {
        int nk = tries[t], kb = nk == 32 ? 8 : 16, best = -1;
        if (M % nk || N % nk || K % kb)
            continue;
        double best_cost = 0;
        for (int wm = 1; wm <= W; wm *= 2) {
            int wn = W / wm;
            if (wm * wn != W || M % (nk * wm) || N % (nk * wn))
                continue;
            int mt = M / wm / nk, nt = N / wn / nk;
            /* LDS reads per instruction: fewer is better */
            double cost = (double)(mt + nt) / (double)(mt * nt);
            if (best < 0 || cost < best_cost) {
                best = wm;
                best_cost = cost;
            }
        }
        if (best < 0)
            continue;
        *p = (cgen_mfma_plan){.M = M, .N = N, .K = K, .W = W, .nk = nk, .kb = kb, .wm = best,
                              .wn = W / best};
        p->mt = M / p->wm / nk;
        p->nt = N / p->wn / nk;
        p->fregs = nk * nk / 64;
        p->regs = p->mt * p->nt * p->fregs;
        /* rows padded by 16 bytes: 8-byte reads stay aligned, and a fused
         * LOAD's 16-byte chunks of A land whole (cgen_dot_chunk_place) */
        p->lda = K + 8;
        p->ldb = K + 8;
        return true;
    }
    return false;
}

static void term(cgen_mfma_expr *x, int var, int div, int mod, int mul)
{
    if (mod == 1 || mul == 0)
        return;
    x->t[x->n++] = (cgen_mfma_term){.var = var, .div = div, .mod = mod, .mul = mul};
}

void cgen_mfma_map_of(const cgen_mfma_plan *p, cgen_mfma_map *m)
{
    memset(m, 0, sizeof *m);
    int nk = p->nk, G = 64 / nk, R = p->fregs;
    int WM = p->M / p->wm, WN = p->N / p->wn;
    /* the wave's block: wave w = tid / 64 at row w / wn, column w % wn */
    term(&m->acc_row, CGEN_MV_TID, 64 * p->wn, 0, WM);
    term(&m->acc_row, CGEN_MV_REG, R * p->nt, 0, nk);          /* fragment row */
    term(&m->acc_row, CGEN_MV_REG, 4, R / 4, 4 * G);           /* register / 4 */
    term(&m->acc_row, CGEN_MV_TID, nk, G, 4);                  /* lane / nk */
    term(&m->acc_row, CGEN_MV_REG, 1, 4, 1);                   /* register % 4 */
    term(&m->acc_col, CGEN_MV_TID, 64, p->wn, WN);
    term(&m->acc_col, CGEN_MV_REG, R, p->nt, nk);              /* fragment column */
    term(&m->acc_col, CGEN_MV_TID, 1, nk, 1);                  /* lane % nk */
    term(&m->a_row, CGEN_MV_TID, 64 * p->wn, 0, WM);
    term(&m->a_row, CGEN_MV_I, 1, 0, nk);
    term(&m->a_row, CGEN_MV_TID, 1, nk, 1);
    term(&m->b_col, CGEN_MV_TID, 64, p->wn, WN);
    term(&m->b_col, CGEN_MV_J, 1, 0, nk);
    term(&m->b_col, CGEN_MV_TID, 1, nk, 1);
    cgen_mfma_expr k = {0};
    term(&k, CGEN_MV_K0, 1, 0, 1);
    term(&k, CGEN_MV_TID, nk, G, 4);
    term(&k, CGEN_MV_V, 1, 0, 1);
    m->a_k = k;
    m->b_k = k;
}

int64_t cgen_mfma_eval(const cgen_mfma_expr *x, const int64_t val[CGEN_MV_COUNT])
{
    int64_t s = 0;
    for (int i = 0; i < x->n; i++) {
        const cgen_mfma_term *t = &x->t[i];
        int64_t v = val[t->var] / t->div;
        if (t->mod)
            v %= t->mod;
        s += v * t->mul;
    }
    return s;
}

void cgen_mfma_print(strbuf *sb, const cgen_mfma_expr *x, const char *const name[CGEN_MV_COUNT])
{
    int n = 0;
    strbuf_puts(sb, "(");
    for (int i = 0; i < x->n; i++) {
        const cgen_mfma_term *t = &x->t[i];
        if (!name[t->var])
            continue;
        strbuf_puts(sb, n++ ? " + " : "");
        if (t->div == 1 && !t->mod)
            strbuf_printf(sb, "%s", name[t->var]);
        else if (t->div == 1)
            strbuf_printf(sb, "%s %% %d", name[t->var], t->mod);
        else if (!t->mod)
            strbuf_printf(sb, "%s / %d", name[t->var], t->div);
        else
            strbuf_printf(sb, "%s / %d %% %d", name[t->var], t->div, t->mod);
        if (t->mul != 1)
            strbuf_printf(sb, " * %d", t->mul);
    }
    strbuf_puts(sb, n ? ")" : "0)");
}

bool cgen_mfma_target(const cgen_target *t)
{
    if (t->dialect != CGEN_HIP || t->warp_size != 64)
        return false;
    switch (t->arch) {
    case 0x90a: case 0x940: case 0x941: case 0x942:
        return true;
    default:
        return false;
    }
}

int cgen_hip_arch(const char *name)
{
    if (!name || strncmp(name, "gfx", 3) != 0)
        return 0;
    int v = 0, n = 0;
    for (const char *s = name + 3; *s && *s != ':' && n < 6; s++, n++) {
        int d = *s >= '0' && *s <= '9' ? *s - '0' : *s >= 'a' && *s <= 'f' ? *s - 'a' + 10 : -1;
        if (d < 0)
            return 0;
        v = v * 16 + d;
    }
    return n >= 3 ? v : 0;
}

/* ---- the emitter ---------------------------------------------------------- */

bool cgen_mfma_layout(const cg *g, const ir_inst *in, cgen_layout *L)
{
    const ir_type *ta = cg_type(g, in->a), *td = cg_type(g, in->dst);
    dtype adt = ta->dt;
    if (!cgen_mfma_target(&g->o->target) || td->ndim != 2 ||
        (adt != DTYPE_FP16 && adt != DTYPE_BF16) || cg_dt(g, in->b) != adt ||
        td->dt != DTYPE_FP32)
        return false;
    cgen_mfma_plan p;
    if (!cgen_mfma_plan_of(td->shape[0], td->shape[1], ta->shape[1], g->o->num_warps,
                           g->o->matrix_instr_nonkdim, &p))
        return false;
    *L = (cgen_layout){.kind = CGEN_MFMA, .n = (int64_t)p.M * p.N, .regs = p.regs, .M = p.M,
                       .N = p.N, .wm = p.wm, .wn = p.wn, .mt = p.mt, .nt = p.nt, .nk = p.nk};
    return true;
}

bool cgen_mfma_dot_plan(const cg *g, const ir_inst *in, cgen_mfma_plan *p)
{
    cgen_layout L = cg_layout(g, in->dst);
    if (L.kind != CGEN_MFMA)
        return false;
    bool ok = cgen_mfma_plan_of(L.M, L.N, (int)cg_type(g, in->a)->shape[1], g->o->num_warps,
                                L.nk, p);
    return ok && p->wm == L.wm && p->wn == L.wn;
}

size_t cgen_mfma_offb(const cgen_mfma_plan *p)
{
    return ((size_t)p->M * (size_t)p->lda * 2 + 15) & ~(size_t)15;
}

size_t cgen_mfma_stage_bytes(const cgen_mfma_plan *p)
{
    return (cgen_mfma_offb(p) + (size_t)p->N * (size_t)p->ldb * 2 + 15) & ~(size_t)15;
}

void cgen_mfma_elem_index(const cg *g, const cgen_layout *L, strbuf *sb, const char *r)
{
    (void)g;
    /* the layout's own grid (K plays no part in the accumulator) */
    cgen_mfma_plan p = {.M = L->M, .N = L->N, .nk = L->nk, .wm = L->wm, .wn = L->wn,
                        .mt = L->mt, .nt = L->nt, .fregs = L->nk * L->nk / 64};
    cgen_mfma_map m;
    cgen_mfma_map_of(&p, &m);
    const char *name[CGEN_MV_COUNT] = {[CGEN_MV_TID] = "tk_tid", [CGEN_MV_REG] = r};
    strbuf_puts(sb, "(");
    cgen_mfma_print(sb, &m.acc_row, name);
    strbuf_printf(sb, " * %d + ", L->N);
    cgen_mfma_print(sb, &m.acc_col, name);
    strbuf_puts(sb, ")");
}

void cgen_mfma_stage_offset(const cgen_mfma_plan *p, int which, const char *e, strbuf *sb)
{
    if (which == 0)
        strbuf_printf(sb, "((%s) / %d * %d + (%s) %% %d)", e, p->K, p->lda, e, p->K);
    else
        strbuf_printf(sb, "((%s) %% %d * %d + (%s) / %d)", e, p->N, p->ldb, e, p->N);
}

bool cgen_emit_mfma(cg *g, int32_t pc, const ir_inst *in, const cgen_layout *Ld)
{
    cgen_mfma_plan p;
    if (!cgen_mfma_dot_plan(g, in, &p))
        return cg_fail(g, pc, "internal error: the DOT's MFMA plan does not match its layout");
    cgen_mfma_map m;
    cgen_mfma_map_of(&p, &m);
    bool bf = cg_dt(g, in->a) == DTYPE_BF16;
    const char *vt = bf ? "tk_bf16x4" : "tk_f16x4", *ct = p.nk == 32 ? "tk_f32x16" : "tk_f32x4";
    char fn[64];
    snprintf(fn, sizeof fn, "__builtin_amdgcn_mfma_f32_%dx%dx%d%s", p.nk, p.nk, p.kb,
             bf ? "bf16_1k" : "f16");
    cg_need_smem(g, cgen_mfma_stage_bytes(&p));
    if (!g->staged[pc])
        cgen_dot_stage_operands(g, pc);

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
    /* the builtins' operand types, exactly (clang's half is __fp16, bf16_1k
     * takes the bits as shorts): 4 values of A or B, 4 or 16 floats */
    cg_printf(g, "typedef %s %s __attribute__((ext_vector_type(4)));\n", bf ? "short" : "__fp16",
              vt);
    cg_printf(g, "typedef float %s __attribute__((ext_vector_type(%d)));\n", ct, p.fregs);
    strbuf ar = {0}, ak = {0}, bc = {0}, bk = {0};
    const char *name[CGEN_MV_COUNT] = {[CGEN_MV_TID] = "tk_tid", [CGEN_MV_I] = "i",
                                       [CGEN_MV_J] = "j", [CGEN_MV_K0] = "k0"};
    cgen_mfma_print(&ar, &m.a_row, name);
    cgen_mfma_print(&ak, &m.a_k, name);
    cgen_mfma_print(&bc, &m.b_col, name);
    cgen_mfma_print(&bk, &m.b_k, name);
    cg_printf(g, "const unsigned short *tk_A = (const unsigned short *)tk_smem;\n");
    cg_printf(g, "const unsigned short *tk_B = (const unsigned short *)(tk_smem + %zu);\n",
              cgen_mfma_offb(&p));
    int steps = p.K / p.kb;
    cg_printf(g, "#pragma unroll %d\nfor (int k0 = 0; k0 < %d; k0 += %d) {\n",
              steps <= 4 ? steps : 2, p.K, p.kb);
    /* each lane's 4 consecutive k of a row of A and of B^T: one 8-byte read */
    cg_printf(g, "  %s tk_fa[%d], tk_fb[%d];\n", vt, p.mt, p.nt);
    cg_printf(g, "#pragma unroll\n  for (int i = 0; i < %d; i++)\n", p.mt);
    cg_printf(g, "    tk_fa[i] = *(const %s *)(tk_A + %s * %d + %s);\n", vt, strbuf_cstr(&ar),
              p.lda, strbuf_cstr(&ak));
    cg_printf(g, "#pragma unroll\n  for (int j = 0; j < %d; j++)\n", p.nt);
    cg_printf(g, "    tk_fb[j] = *(const %s *)(tk_B + %s * %d + %s);\n", vt, strbuf_cstr(&bc),
              p.ldb, strbuf_cstr(&bk));
    cg_printf(g, "#pragma unroll\n  for (int i = 0; i < %d; i++)\n", p.mt);
    cg_printf(g, "#pragma unroll\n  for (int j = 0; j < %d; j++) {\n", p.nt);
    cg_printf(g, "    float *tk_d = &s%d[(i * %d + j) * %d];\n", home, p.nt, p.fregs);
    cg_printf(g, "    %s tk_c;\n", ct);
    cg_printf(g, "#pragma unroll\n    for (int q = 0; q < %d; q++) tk_c[q] = tk_d[q];\n",
              p.fregs);
    cg_printf(g, "    tk_c = %s(tk_fa[i], tk_fb[j], tk_c, 0, 0, 0);\n", fn);
    cg_printf(g, "#pragma unroll\n    for (int q = 0; q < %d; q++) tk_d[q] = tk_c[q];\n",
              p.fregs);
    cg_printf(g, "  }\n}\n}\n");
    strbuf_free(&ar);
    strbuf_free(&ak);
    strbuf_free(&bc);
    strbuf_free(&bk);
    return true;
}
