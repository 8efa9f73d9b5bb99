/* cgen_layout.c - which thread holds which element of a tile (the layout
 * cgen_impl.h describes), the per-thread loops over them, and index
 * expressions: tiles computed from aranges, constants and scalars alone,
 * which any thread can recompute at any element instead of fetching it
 * from the thread that holds it. */
#include "cgen_impl.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#pragma GCC diagnostic error "-Wswitch"
#pragma GCC diagnostic error "-Wswitch-enum"

cgen_layout cgen_layout_of(const cg *g, int64_t n)
{
    cgen_layout L = {.kind = CGEN_FLAT, .n = n, .regs = 1, .vec = 1, .repl = false};
    if (n < g->T) {
        L.repl = true;
        return L;
    }
    L.regs = (int)(n / g->T);
    L.vec = L.regs < g->vec ? L.regs : g->vec;
    return L;
}

/* 16 bytes is the widest access a thread makes: 4 elements of a FLAT tile
 * together when any tile in memory has 4-byte elements or more, 8 when all
 * of them have 2 (fp16 and bf16 kernels). */
void cg_pick_vec(cg *g)
{
    g->vec = 8;
    for (int32_t pc = 0; pc < g->k->ncode; pc++) {
        const ir_inst *in = &g->k->code[pc];
        if ((in->op == IR_LOAD || in->op == IR_STORE || in->op == IR_ATOMIC) &&
            !cg_scalar(g, in->a) && dtype_size(dtype_elem(cg_dt(g, in->a))) != 2)
            g->vec = 4;
    }
}

cgen_layout cg_layout(const cg *g, int32_t slot)
{
    if (g->lay)
        return g->lay[slot];
    return cgen_layout_of(g, ir_type_numel(cg_type(g, slot)));
}

bool cg_same_layout(const cgen_layout *a, const cgen_layout *b)
{
    if (a->kind != b->kind || a->n != b->n)
        return false;
    if (a->kind == CGEN_FLAT)
        return true;
    return a->M == b->M && a->N == b->N && a->wm == b->wm && a->wn == b->wn && a->nk == b->nk;
}

/* ---- the tensor-core layout ---------------------------------------------- */

/* Can DOT in keep its accumulator in mma.m16n8k16 fragments (or, on AMD,
 * MFMA's)?  Fills L. */
static bool mma_layout(const cg *g, const ir_inst *in, cgen_layout *L)
{
    const ir_type *ta = cg_type(g, in->a), *td = cg_type(g, in->dst);
    dtype adt = ta->dt, bdt = cg_dt(g, in->b);
    /* AMD's matrix instructions (cgen_mfma.c) */
    if (cgen_mfma_layout(g, in, L))
        return true;
    if (!cgen_dialect_of(&g->o->target)->ptx || g->o->target.arch < 80 || td->ndim != 2 ||
        (adt != DTYPE_FP16 && adt != DTYPE_BF16) || bdt != adt || td->dt != DTYPE_FP32)
        return false;
    int M = td->shape[0], N = td->shape[1], K = ta->shape[1];
    if (M % 16 || N % 8 || K % 16)
        return false;
    int W = g->o->num_warps, best = -1;
    double best_cost = 0;
    for (int wm = 1; wm <= W; wm *= 2) {
        int wn = W / wm;
        if (M % (16 * wm) || N % (8 * wn))
            continue;
        int mt = M / wm / 16, nt = N / wn / 8;
        /* shared-memory words per fragment: fewer is better */
        double cost = (4.0 * mt + 2.0 * nt) / (double)(mt * nt);
        if (best < 0 || cost < best_cost) {
            best = wm;
            best_cost = cost;
        }
    }
    /* Hopper's wgmma wants the warps stacked along M (cgen_wgmma.c) */
    if (cgen_wgmma_fits(g, M, N, K))
        best = W;
    if (best < 0)
        return false;
    *L = (cgen_layout){.kind = CGEN_MMA, .n = (int64_t)M * N, .M = M, .N = N, .wm = best,
                       .wn = W / best};
    L->mt = M / L->wm / 16;
    L->nt = N / L->wn / 8;
    L->regs = L->mt * L->nt * 4;
    return true;
}

static int32_t uf_find(int32_t *p, int32_t x)
{
    while (p[x] != x)
        x = p[x] = p[p[x]];
    return x;
}

bool cg_assign_layouts(cg *g)
{
    const ir_kernel *k = g->k;
    int32_t n = k->nslots;
    int32_t *parent = malloc((size_t)(n > 0 ? n : 1) * sizeof *parent);
    cgen_layout *mma = calloc((size_t)(n > 0 ? n : 1), sizeof *mma);
    if (!parent || !mma) {
        free(parent);
        free(mma);
        return false;
    }
    for (int32_t s = 0; s < n; s++) {
        parent[s] = s;
        g->lay[s] = cgen_layout_of(g, ir_type_numel(cg_type(g, s)));
    }
    /* slots that hand an accumulator around: a DOT's dst and its c, and
     * COPYs between tiles of one shape */
    for (int32_t pc = 0; pc < k->ncode; pc++) {
        const ir_inst *in = &k->code[pc];
        int32_t x = -1, y = -1;
        if (in->op == IR_DOT && in->c >= 0 && !cg_scalar(g, in->c))
            x = in->dst, y = in->c;
        else if (in->op == IR_COPY && !cg_scalar(g, in->dst))
            x = in->dst, y = in->a;
        if (x >= 0 && y >= 0) {
            const ir_type *tx = cg_type(g, x), *ty = cg_type(g, y);
            if (tx->ndim == ty->ndim &&
                !memcmp(tx->shape, ty->shape, sizeof(int32_t) * (size_t)tx->ndim))
                parent[uf_find(parent, x)] = uf_find(parent, y);
        }
    }
    for (int32_t pc = 0; pc < k->ncode; pc++) {
        const ir_inst *in = &k->code[pc];
        cgen_layout L;
        if (in->op == IR_DOT && mma_layout(g, in, &L))
            mma[uf_find(parent, in->dst)] = L;
    }
    for (int32_t s = 0; s < n; s++) {
        const cgen_layout *L = &mma[uf_find(parent, s)];
        if (L->kind != CGEN_FLAT && L->n == ir_type_numel(cg_type(g, s)) && !cg_scalar(g, s))
            g->lay[s] = *L;
    }
    /* elementwise results of an accumulator keep its layout (the epilogue:
     * acc.to(tl.float16), an activation), so they need no shared memory */
    for (int32_t pc = 0; pc < k->ncode; pc++) {
        const ir_inst *in = &k->code[pc];
        switch ((ir_opcode)in->op) {
        case IR_CAST: case IR_BITCAST: case IR_UNARY: case IR_BINARY: case IR_CMP:
        case IR_WHERE: case IR_MATH: {
            if (in->dst < 0 || g->def[in->dst] != pc || cg_scalar(g, in->dst) ||
                g->lay[in->dst].kind != CGEN_FLAT)
                break;
            int32_t rd[IR_MAX_READS];
            int m = ir_reads(in, rd);
            for (int i = 0; i < m; i++)
                if (!cg_scalar(g, rd[i]) && g->lay[rd[i]].kind != CGEN_FLAT &&
                    g->lay[rd[i]].n == g->lay[in->dst].n) {
                    g->lay[in->dst] = g->lay[rd[i]];
                    break;
                }
            break;
        }
        case IR_CONST: case IR_PROGRAM_ID: case IR_NUM_PROGRAMS: case IR_ARG: case IR_ARANGE:
        case IR_COPY: case IR_BROADCAST: case IR_RESHAPE: case IR_TRANS: case IR_FLIP:
        case IR_CONCAT: case IR_SLICE: case IR_GATHER: case IR_HISTOGRAM: case IR_PTR_ADD:
        case IR_LOAD: case IR_STORE: case IR_ATOMIC: case IR_DOT: case IR_REDUCE: case IR_SCAN:
        case IR_PRINT: case IR_ASSERT: case IR_BREAKPOINT: case IR_JUMP: case IR_BRANCH:
        case IR_RETURN: case IR_NOP:
            break;
        }
    }
    free(parent);
    free(mma);
    return true;
}

/* slot's index expression at element e into sb, when small enough. */
static bool pure_inline(const cg *g, strbuf *sb, int32_t slot, const char *e)
{
    strbuf ex = {0};
    bool ok = cg_pure_expr(g, &ex, slot, e, 0) && ex.len <= 1024;
    if (ok)
        strbuf_puts(sb, strbuf_cstr(&ex));
    strbuf_free(&ex);
    return ok;
}

/* ---- converting operands ------------------------------------------------ */

/* The operands of in read element by element in the layout of `work`. */
static int convert_operands(const cg *g, const ir_inst *in, int32_t *work, int32_t out[4])
{
    int n = 0;
    *work = in->dst;
    switch ((ir_opcode)in->op) {
    case IR_COPY: case IR_RESHAPE: case IR_CAST: case IR_BITCAST: case IR_UNARY:
    case IR_BINARY: case IR_CMP: case IR_WHERE: case IR_MATH: case IR_PTR_ADD: case IR_LOAD: {
        int32_t rd[IR_MAX_READS];
        int m = ir_reads(in, rd);
        for (int i = 0; i < m; i++)
            out[n++] = rd[i];
        break;
    }
    case IR_STORE: case IR_ATOMIC: {
        *work = in->a;
        /* a tensor-core result staged in shared memory by the STORE
         * itself (cgen_mem.c): work in the pointer's layout; another
         * STORE of a value in another layout, through a pointer any
         * thread can compute: work in the value's layout */
        bool staged = cg_store_staged(g, in);
        if (in->op == IR_STORE && !staged && !cg_scalar(g, in->b) && !cg_scalar(g, in->a) &&
            (g->pure[in->a] || g->abase[in->a] >= 0) &&
            g->lay[in->b].kind != CGEN_FLAT)
            *work = in->b;
        int32_t rd[IR_MAX_READS];
        int m = ir_reads(in, rd);
        for (int i = 0; i < m; i++)
            if (rd[i] != *work && !(staged && rd[i] == in->b))
                out[n++] = rd[i];
        break;
    }
    case IR_ASSERT:
        *work = cg_scalar(g, in->a) && in->b >= 0 ? in->b : in->a;
        if (in->b >= 0)
            out[n++] = *work == in->a ? in->b : in->a;
        break;
    case IR_GATHER:
        out[n++] = in->b;
        break;
    case IR_HISTOGRAM:
        *work = in->a;
        if (in->b >= 0)
            out[n++] = in->b;
        break;
    case IR_DOT:
        if (in->c >= 0)
            out[n++] = in->c;
        break;
    case IR_CONST: case IR_PROGRAM_ID: case IR_NUM_PROGRAMS: case IR_ARG: case IR_ARANGE:
    case IR_BROADCAST: case IR_TRANS: case IR_FLIP: case IR_CONCAT: case IR_SLICE:
    case IR_REDUCE: case IR_SCAN: case IR_PRINT: case IR_BREAKPOINT: case IR_JUMP:
    case IR_BRANCH: case IR_RETURN: case IR_NOP:
        break;
    }
    return n;
}

void cg_convert_begin(cg *g, const ir_inst *in)
{
    int32_t ops[4], work;
    int n = convert_operands(g, in, &work, ops);
    g->work = work;
    if (work < 0 || cg_scalar(g, work))
        return;
    cgen_layout W = cg_layout(g, work);
    bool opened = false;
    for (int i = 0; i < n; i++) {
        int32_t s = ops[i];
        if (s < 0 || cg_scalar(g, s) || g->alias[s] || g->abase[s] >= 0)
            continue;
        /* an index expression is recomputed where it is read, in any
         * layout (cg_operand_at): no copy, no registers */
        strbuf probe = {0};
        bool inline_ok = g->pure[s] && pure_inline(g, &probe, s, "e");
        strbuf_free(&probe);
        if (inline_ok)
            continue;
        cgen_layout L = cg_layout(g, s);
        if (cg_same_layout(&L, &W))
            continue;
        if (!opened)
            cg_printf(g, "{\n");
        opened = true;
        cg_printf(g, "%s tk_cv%d[%d];\n", cg_ctype(g, s), s, W.regs);
        strbuf ex = {0};
        if (cg_pure_expr(g, &ex, s, "e", 0)) {
            cg_loop_begin(g, &W, false);
            cg_printf(g, "tk_cv%d[r] = %s;\n", s, strbuf_cstr(&ex));
            cg_loop_end(g);
        } else {
            cg_need_smem(g, (size_t)L.n * cg_reg_size(cg_dt(g, s)));
            cg_barrier(g);
            cg_tile_to_smem(g, s, 0);
            cg_barrier(g);
            cg_loop_begin(g, &W, false);
            cg_printf(g, "tk_cv%d[r] = ((const %s *)tk_smem)[e];\n", s, cg_ctype(g, s));
            cg_loop_end(g);
        }
        strbuf_free(&ex);
        g->alias[s] = 1;
    }
    g->open_conv = opened;
}

void cg_convert_end(cg *g)
{
    if (g->open_conv)
        cg_printf(g, "}\n");
    g->open_conv = false;
    memset(g->alias, 0, (size_t)(g->k->nslots > 0 ? g->k->nslots : 1));
}

void cg_elem_index(const cg *g, const cgen_layout *L, strbuf *sb, const char *r)
{
    if (L->kind == CGEN_MFMA) {
        cgen_mfma_elem_index(g, L, sb, r);
    } else if (L->kind == CGEN_MMA) {
        int WM = L->M / L->wm, WN = L->N / L->wn;
        strbuf_printf(sb, "(((tk_tid >> 5) / %d * %d + ((%s) >> 2) / %d * 16 + ((tk_tid & 31) >> 2)"
                      " + (((%s) >> 1) & 1) * 8) * %d + (tk_tid >> 5) %% %d * %d + ((%s) >> 2) %% %d * 8"
                      " + (tk_tid & 3) * 2 + ((%s) & 1))",
                      L->wn, WM, r, L->nt, r, L->N, L->wn, WN, r, L->nt, r);
    } else if (L->repl) {
        strbuf_printf(sb, "((int)(tk_tid %% %" PRId64 "))", L->n);
    } else {
        strbuf_printf(sb, "((((%s) / %d) * %d + tk_tid) * %d + (%s) %% %d)", r, L->vec, g->T,
                      L->vec, r, L->vec);
    }
}

void cg_loop_begin(cg *g, const cgen_layout *L, bool owned_only)
{
    strbuf ex = {0};
    cg_elem_index(g, L, &ex, "r");
    if (L->kind != CGEN_FLAT) {
        cg_printf(g, "{\n#pragma unroll\n  for (int r = 0; r < %d; r++) {\n", L->regs);
        cg_printf(g, "  const int e = %s; (void)e;\n", strbuf_cstr(&ex));
        cg_printf(g, "  {\n");
        strbuf_free(&ex);
        return;
    }
    if (L->repl) {
        cg_printf(g, "{ { const int r = 0; const int e = %s;\n", strbuf_cstr(&ex));
        cg_printf(g, "  (void)r; (void)e;\n");
        if (owned_only)
            cg_printf(g, "  if (tk_tid < %" PRId64 ")\n", L->n);
        cg_printf(g, "  {\n");
        strbuf_free(&ex);
        return;
    }
    cg_printf(g, "{\n#pragma unroll\n  for (int r = 0; r < %d; r++) {\n", L->regs);
    cg_printf(g, "  const int e = %s; (void)e;\n", strbuf_cstr(&ex));
    cg_printf(g, "  {\n");
    strbuf_free(&ex);
}

void cg_loop_end(cg *g)
{
    cg_printf(g, "  }\n}}\n");
}

void cg_operand(const cg *g, strbuf *sb, int32_t slot)
{
    cg_operand_at(g, sb, slot, "r", "e");
}

void cg_operand_at(const cg *g, strbuf *sb, int32_t slot, const char *r, const char *e)
{
    if (g->alias && g->alias[slot]) {
        strbuf_printf(sb, "tk_cv%d[%s]", slot, r);
    } else if (g->abase && g->abase[slot] >= 0) {
        strbuf base = {0};
        cg_pure_expr(g, &base, g->abase[slot], e, 0);
        strbuf_printf(sb, "((tk_u64)(%s) + (tk_u64)s%d_d)", strbuf_cstr(&base), slot);
        strbuf_free(&base);
    } else if (g->pure && g->pure[slot] && !cg_scalar(g, slot) && pure_inline(g, sb, slot, e)) {
        /* an index expression: recomputed where it is read, so its tile
         * takes no registers across the code between (a GEMM's epilogue
         * pointers beside its accumulator) */
    } else if (cg_scalar(g, slot)) {
        strbuf_printf(sb, "s%d", slot);
    } else if (g->packed && g->packed[slot]) {
        strbuf bits = {0};
        cg_packed_bits(&bits, slot, r);
        strbuf_printf(sb, "%s(%s)", cg_dt(g, slot) == DTYPE_FP16 ? "tk_f16_to_f32"
                                                                  : "tk_bf16_to_f32",
                      strbuf_cstr(&bits));
        strbuf_free(&bits);
    } else {
        strbuf_printf(sb, "s%d[%s]", slot, r);
    }
}

int64_t cg_stride(const ir_type *t, int d)
{
    int64_t s = 1;
    for (int i = d + 1; i < t->ndim; i++)
        s *= t->shape[i];
    return s;
}

void cg_ptr_add(const cg *g, strbuf *sb, const ir_inst *in, const char *a, const char *b)
{
    int esz = (int)dtype_size(dtype_elem(cg_dt(g, in->dst)));
    strbuf_printf(sb, "((tk_u64)(%s) + (tk_u64)(%s)(%s) * %dull)", a,
                  dtype_is_unsigned(cg_dt(g, in->b)) ? "tk_u64" : "tk_i64", b, esz);
}

void cg_coord(strbuf *sb, const ir_type *t, int d, const char *idx)
{
    int64_t st = cg_stride(t, d);
    if (t->shape[d] == 1) {
        strbuf_puts(sb, "0");
        return;
    }
    if (st == 1)
        strbuf_printf(sb, "((%s) %% %d)", idx, t->shape[d]);
    else if (d == 0)
        strbuf_printf(sb, "((%s) / %" PRId64 ")", idx, st);
    else
        strbuf_printf(sb, "(((%s) / %" PRId64 ") %% %d)", idx, st, t->shape[d]);
}

void cg_bcast_index(strbuf *sb, const ir_type *dst, const ir_type *src, const char *idx)
{
    int off = dst->ndim - src->ndim;
    bool any = false;
    strbuf_puts(sb, "(");
    for (int j = 0; j < src->ndim; j++) {
        if (src->shape[j] == 1)
            continue;
        if (any)
            strbuf_puts(sb, " + ");
        any = true;
        cg_coord(sb, dst, j + off, idx);
        int64_t st = cg_stride(src, j);
        if (st != 1)
            strbuf_printf(sb, " * %" PRId64, st);
    }
    if (!any)
        strbuf_puts(sb, "0");
    strbuf_puts(sb, ")");
}

/* ---- index expressions ------------------------------------------------ */

enum { PURE_MAX_DEPTH = 24, PURE_MAX_LEN = 4096 };

bool cg_pure_expr(const cg *g, strbuf *sb, int32_t slot, const char *idx, int depth)
{
    return cg_index_expr(g, sb, slot, idx, depth, g->pure);
}

bool cg_index_expr(const cg *g, strbuf *sb, int32_t slot, const char *idx, int depth,
                   const uint8_t *admit)
{
    if (cg_scalar(g, slot)) {
        strbuf_printf(sb, "s%d", slot);
        return true;
    }
    if (!admit[slot] || depth > PURE_MAX_DEPTH || sb->len > PURE_MAX_LEN)
        return false;
    /* the one instruction that writes it */
    if (g->def[slot] < 0)
        return false;
    const ir_inst *in = &g->k->code[g->def[slot]];
    dtype dt = cg_dt(g, slot);
    strbuf a = {0}, b = {0}, c = {0};
    bool ok = true;
    switch ((ir_opcode)in->op) {
    case IR_CONST:
        cgen_literal(sb, dt, in->imm, in->fimm);
        break;
    case IR_ARANGE:
        strbuf_printf(sb, "((tk_i32)(%" PRId64 " + (%s)))", in->imm, idx);
        break;
    case IR_RESHAPE:
    case IR_COPY:
        ok = cg_index_expr(g, sb, in->a, idx, depth + 1, admit);
        break;
    case IR_BROADCAST: {
        strbuf bi = {0};
        cg_bcast_index(&bi, cg_type(g, slot), cg_type(g, in->a), idx);
        ok = cg_index_expr(g, sb, in->a, strbuf_cstr(&bi), depth + 1, admit);
        strbuf_free(&bi);
        break;
    }
    case IR_BINARY:
        ok = cg_index_expr(g, &a, in->a, idx, depth + 1, admit) &&
             cg_index_expr(g, &b, in->b, idx, depth + 1, admit) &&
             cgen_binary(sb, (ir_binop)in->sub, cg_dt(g, in->a), strbuf_cstr(&a),
                         strbuf_cstr(&b), cg_dt(g, in->b));
        break;
    case IR_UNARY:
        ok = cg_index_expr(g, &a, in->a, idx, depth + 1, admit) &&
             cgen_unary(sb, (ir_unop)in->sub, dt, strbuf_cstr(&a));
        break;
    case IR_CMP:
        ok = cg_index_expr(g, &a, in->a, idx, depth + 1, admit) &&
             cg_index_expr(g, &b, in->b, idx, depth + 1, admit) &&
             cgen_cmp(sb, (ir_cmp)in->sub, cg_dt(g, in->a), strbuf_cstr(&a), strbuf_cstr(&b));
        break;
    case IR_CAST:
        ok = cg_index_expr(g, &a, in->a, idx, depth + 1, admit) &&
             cgen_cast(sb, (ir_cast_kind)in->sub, dt, cg_dt(g, in->a), strbuf_cstr(&a));
        break;
    case IR_WHERE:
        ok = cg_index_expr(g, &a, in->a, idx, depth + 1, admit) &&
             cg_index_expr(g, &b, in->b, idx, depth + 1, admit) &&
             cg_index_expr(g, &c, in->c, idx, depth + 1, admit);
        if (ok)
            strbuf_printf(sb, "((%s) ? (%s) : (%s))", strbuf_cstr(&a), strbuf_cstr(&b),
                          strbuf_cstr(&c));
        break;
    case IR_PTR_ADD: {
        ok = cg_index_expr(g, &a, in->a, idx, depth + 1, admit) &&
             cg_index_expr(g, &b, in->b, idx, depth + 1, admit);
        if (ok)
            cg_ptr_add(g, sb, in, strbuf_cstr(&a), strbuf_cstr(&b));
        break;
    }
    case IR_PROGRAM_ID: case IR_NUM_PROGRAMS: case IR_ARG: case IR_TRANS: case IR_FLIP:
    case IR_CONCAT: case IR_SLICE: case IR_GATHER: case IR_HISTOGRAM: case IR_BITCAST:
    case IR_MATH: case IR_LOAD: case IR_STORE: case IR_ATOMIC: case IR_DOT: case IR_REDUCE:
    case IR_SCAN: case IR_PRINT: case IR_ASSERT: case IR_BREAKPOINT: case IR_JUMP:
    case IR_BRANCH: case IR_RETURN: case IR_NOP:
        ok = false;
        break;
    }
    strbuf_free(&a);
    strbuf_free(&b);
    strbuf_free(&c);
    return ok && sb->len <= PURE_MAX_LEN;
}

void cg_tile_to_smem(cg *g, int32_t src, size_t off)
{
    const char *ct = cg_ctype(g, src);
    if (cg_scalar(g, src)) {
        cg_printf(g, "if (tk_tid == 0) ((%s *)(tk_smem + %zu))[0] = s%d;\n", ct, off, src);
        return;
    }
    cgen_layout L = cg_layout(g, src);
    cg_loop_begin(g, &L, true);
    cg_printf(g, "((%s *)(tk_smem + %zu))[e] = s%d[r];\n", ct, off, src);
    cg_loop_end(g);
}

/* ---- pointer tiles moved by scalars ---------------------------------------- */

/* The pure base a write of in to a pointer tile starts from, with the
 * member it continues (member: -1 when it starts from the base). */
static bool affine_src(const cg *g, const ir_inst *in, int32_t *from)
{
    *from = -1;
    if (in->op == IR_COPY || (in->op == IR_PTR_ADD && cg_scalar(g, in->b))) {
        *from = in->a;
        return !cg_scalar(g, in->a);
    }
    return false;
}

void cg_find_affine(cg *g)
{
    const ir_kernel *k = g->k;
    int32_t n = k->nslots;
    for (int32_t s = 0; s < n; s++)
        g->abase[s] = -1;
    /* candidates: pointer tiles written more than once (the pure ones are
     * recomputed already) */
    int32_t *base = malloc((size_t)(n > 0 ? n : 1) * sizeof *base);
    if (!base)
        return;
    for (int32_t s = 0; s < n; s++)
        base[s] = -2;           /* -2: unknown, -3: not affine */
    for (int32_t s = 0; s < n; s++)
        if (g->writes[s] > 0 && !cg_scalar(g, s) && dtype_is_ptr(cg_dt(g, s)) && !g->pure[s])
            base[s] = -1;       /* a candidate, base not known yet */
        else
            base[s] = -3;
    /* iterate to a fixed point: a candidate's writes come from its own
     * kind (a candidate with the same base) or from one pure tile */
    bool changed = true;
    while (changed) {
        changed = false;
        for (int32_t pc = 0; pc < k->ncode; pc++) {
            const ir_inst *in = &k->code[pc];
            if (!ir_writes_dst(in) || in->dst < 0 || base[in->dst] == -3)
                continue;
            int32_t d = in->dst, from;
            int32_t b = -3;
            if (affine_src(g, in, &from)) {
                if (g->pure[from] && !cg_scalar(g, from))
                    b = from;
                else if (base[from] >= 0)
                    b = base[from];
                else if (base[from] == -1)
                    continue;   /* not known yet */
            }
            if (b == -3 || (base[d] >= 0 && base[d] != b)) {
                base[d] = -3;
                changed = true;
            } else if (base[d] == -1) {
                base[d] = b;
                changed = true;
            }
        }
        /* a member reading a member that turned out not affine is not */
        for (int32_t pc = 0; pc < k->ncode; pc++) {
            const ir_inst *in = &k->code[pc];
            int32_t from;
            if (!ir_writes_dst(in) || in->dst < 0 || base[in->dst] < 0 ||
                !affine_src(g, in, &from))
                continue;
            if (!g->pure[from] && base[from] == -3) {
                base[in->dst] = -3;
                changed = true;
            }
        }
    }
    for (int32_t s = 0; s < n; s++)
        if (base[s] >= 0)
            g->abase[s] = base[s];
    free(base);
}

bool cg_affine_write(cg *g, const ir_inst *in)
{
    if (!ir_writes_dst(in) || in->dst < 0 || g->abase[in->dst] < 0)
        return false;
    int32_t from = in->a;
    strbuf off = {0};
    if (g->abase[from] >= 0)
        strbuf_printf(&off, "s%d_d", from);
    else
        strbuf_puts(&off, "0");      /* from the base itself */
    if (in->op == IR_PTR_ADD) {
        char b[32];
        snprintf(b, sizeof b, "s%d", in->b);
        strbuf sum = {0};
        cg_ptr_add(g, &sum, in, strbuf_cstr(&off), b);
        cg_printf(g, "s%d_d = (tk_i64)%s;\n", in->dst, strbuf_cstr(&sum));
        strbuf_free(&sum);
    } else {
        cg_printf(g, "s%d_d = %s;\n", in->dst, strbuf_cstr(&off));
    }
    strbuf_free(&off);
    return true;
}

/* ---- strides of index expressions ------------------------------------------ */

bool cg_const_value(const cg *g, int32_t s, int64_t *v)
{
    int32_t d = g->def[s];
    if (d < 0 || g->k->code[d].op != IR_CONST || dtype_is_float(cg_dt(g, s)))
        return false;
    *v = g->k->code[d].imm;
    return true;
}

