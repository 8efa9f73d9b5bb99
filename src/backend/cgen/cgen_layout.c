/* cgen_layout.c - which thread holds which element of a tile (the layout
 * cgen_impl.h describes), the per-thread loops over them, and index
 * expressions: tiles computed from aranges, constants and scalars alone,
 * which any thread can recompute at any element instead of fetching it
 * from the thread that holds it. */
#include "cgen_impl.h"

#include <inttypes.h>
#include <string.h>

#pragma GCC diagnostic error "-Wswitch"
#pragma GCC diagnostic error "-Wswitch-enum"

cgen_layout cgen_layout_of(const cg *g, int64_t n)
{
    cgen_layout L = {.n = n, .regs = 1, .vec = 1, .repl = false};
    if (n < g->T) {
        L.repl = true;
        return L;
    }
    L.regs = (int)(n / g->T);
    L.vec = L.regs < 4 ? L.regs : 4;
    return L;
}

cgen_layout cg_layout(const cg *g, int32_t slot)
{
    return cgen_layout_of(g, ir_type_numel(cg_type(g, slot)));
}

void cg_loop_begin(cg *g, const cgen_layout *L, bool owned_only)
{
    if (L->repl) {
        cg_printf(g, "{ { const int r = 0; const int e = (int)(tk_tid %% %" PRId64 ");\n", L->n);
        cg_printf(g, "  (void)r; (void)e;\n");
        if (owned_only)
            cg_printf(g, "  if (tk_tid < %" PRId64 ")\n", L->n);
        cg_printf(g, "  {\n");
        return;
    }
    cg_printf(g, "{\n#pragma unroll\n  for (int r = 0; r < %d; r++) {\n", L->regs);
    cg_printf(g, "  const int e = ((r / %d) * %d + tk_tid) * %d + r %% %d; (void)e;\n", L->vec,
              g->T, L->vec, L->vec);
    cg_printf(g, "  {\n");
}

void cg_loop_end(cg *g)
{
    cg_printf(g, "  }\n}}\n");
}

void cg_operand(const cg *g, strbuf *sb, int32_t slot)
{
    if (cg_scalar(g, slot))
        strbuf_printf(sb, "s%d", slot);
    else
        strbuf_printf(sb, "s%d[r]", slot);
}

static int64_t stride_of(const ir_type *t, int d)
{
    int64_t s = 1;
    for (int i = d + 1; i < t->ndim; i++)
        s *= t->shape[i];
    return s;
}

void cg_coord(strbuf *sb, const ir_type *t, int d, const char *idx)
{
    int64_t st = stride_of(t, d);
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
        int64_t st = stride_of(src, j);
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
    if (cg_scalar(g, slot)) {
        strbuf_printf(sb, "s%d", slot);
        return true;
    }
    if (!g->pure[slot] || depth > PURE_MAX_DEPTH || sb->len > PURE_MAX_LEN)
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
        ok = cg_pure_expr(g, sb, in->a, idx, depth + 1);
        break;
    case IR_BROADCAST: {
        strbuf bi = {0};
        cg_bcast_index(&bi, cg_type(g, slot), cg_type(g, in->a), idx);
        ok = cg_pure_expr(g, sb, in->a, strbuf_cstr(&bi), depth + 1);
        strbuf_free(&bi);
        break;
    }
    case IR_BINARY:
        ok = cg_pure_expr(g, &a, in->a, idx, depth + 1) &&
             cg_pure_expr(g, &b, in->b, idx, depth + 1) &&
             cgen_binary(sb, (ir_binop)in->sub, cg_dt(g, in->a), strbuf_cstr(&a),
                         strbuf_cstr(&b), cg_dt(g, in->b));
        break;
    case IR_UNARY:
        ok = cg_pure_expr(g, &a, in->a, idx, depth + 1) &&
             cgen_unary(sb, (ir_unop)in->sub, dt, strbuf_cstr(&a));
        break;
    case IR_CMP:
        ok = cg_pure_expr(g, &a, in->a, idx, depth + 1) &&
             cg_pure_expr(g, &b, in->b, idx, depth + 1) &&
             cgen_cmp(sb, (ir_cmp)in->sub, cg_dt(g, in->a), strbuf_cstr(&a), strbuf_cstr(&b));
        break;
    case IR_CAST:
        ok = cg_pure_expr(g, &a, in->a, idx, depth + 1) &&
             cgen_cast(sb, (ir_cast_kind)in->sub, dt, cg_dt(g, in->a), strbuf_cstr(&a));
        break;
    case IR_WHERE:
        ok = cg_pure_expr(g, &a, in->a, idx, depth + 1) &&
             cg_pure_expr(g, &b, in->b, idx, depth + 1) &&
             cg_pure_expr(g, &c, in->c, idx, depth + 1);
        if (ok)
            strbuf_printf(sb, "((%s) ? (%s) : (%s))", strbuf_cstr(&a), strbuf_cstr(&b),
                          strbuf_cstr(&c));
        break;
    case IR_PTR_ADD: {
        ok = cg_pure_expr(g, &a, in->a, idx, depth + 1) &&
             cg_pure_expr(g, &b, in->b, idx, depth + 1);
        if (ok) {
            dtype bt = cg_dt(g, in->b);
            int esz = (int)dtype_size(dtype_elem(dt));
            bool uns = bt == DTYPE_INT1 || bt == DTYPE_UINT8 || bt == DTYPE_UINT16 ||
                       bt == DTYPE_UINT32 || bt == DTYPE_UINT64;
            strbuf_printf(sb, "((tk_u64)(%s) + (tk_u64)(%s)(%s) * %dull)", strbuf_cstr(&a),
                          uns ? "tk_u64" : "tk_i64", strbuf_cstr(&b), esz);
        }
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
