/* cgen_move.c - instructions whose result elements come from elements
 * other threads hold: BROADCAST, TRANS, FLIP, CONCAT, SLICE, GATHER and
 * HISTOGRAM.  Each goes through shared memory: after a barrier the
 * owners write the source tile there in row-major order, after another
 * every thread reads the elements it needs.  A BROADCAST of an index
 * expression recomputes it instead, and one of a scalar or a one-element
 * tile needs neither. */
#include "cgen_impl.h"

#include <inttypes.h>

#include "cgen_abi.h"

#pragma GCC diagnostic error "-Wswitch"
#pragma GCC diagnostic error "-Wswitch-enum"


/* Source slots to shared memory (a, then b after it), then
 * dst[e] = smem[map], map an expression of e. */
static void via_smem(cg *g, const ir_inst *in, int32_t a, int32_t b, const char *map)
{
    size_t esz = cg_reg_size(cg_dt(g, a));
    size_t na = (size_t)ir_type_numel(cg_type(g, a));
    size_t nb = b >= 0 ? (size_t)ir_type_numel(cg_type(g, b)) : 0;
    cg_need_smem(g, (na + nb) * esz);
    cg_barrier(g);
    cg_tile_to_smem(g, a, 0);
    if (b >= 0)
        cg_tile_to_smem(g, b, na * esz);
    cg_barrier(g);
    cgen_layout L = cg_layout(g, in->dst);
    cg_loop_begin(g, &L, false);
    cg_printf(g, "s%d[r] = ((const %s *)tk_smem)[%s];\n", in->dst, cg_ctype(g, in->dst), map);
    cg_loop_end(g);
}

static bool emit_broadcast(cg *g, const ir_inst *in)
{
    if (cg_scalar(g, in->dst)) {
        cg_printf(g, "s%d = %s%d%s;\n", in->dst, "s", in->a, cg_scalar(g, in->a) ? "" : "[0]");
        return true;
    }
    cgen_layout L = cg_layout(g, in->dst);
    if (cg_scalar(g, in->a) || ir_type_numel(cg_type(g, in->a)) == 1) {
        cg_loop_begin(g, &L, false);
        cg_printf(g, "s%d[r] = s%d%s;\n", in->dst, in->a, cg_scalar(g, in->a) ? "" : "[0]");
        cg_loop_end(g);
        return true;
    }
    strbuf bi = {0}, ex = {0};
    cg_bcast_index(&bi, cg_type(g, in->dst), cg_type(g, in->a), "e");
    if (cg_pure_expr(g, &ex, in->a, strbuf_cstr(&bi), 0)) {
        cg_loop_begin(g, &L, false);
        cg_printf(g, "s%d[r] = %s;\n", in->dst, strbuf_cstr(&ex));
        cg_loop_end(g);
    } else {
        via_smem(g, in, in->a, -1, strbuf_cstr(&bi));
    }
    strbuf_free(&bi);
    strbuf_free(&ex);
    return true;
}

/* The flat index in shape src of the element whose coordinates are
 * dst's coordinates of e, with axis `axis` replaced by `repl` (NULL: kept)
 * plus `add` on that axis, and, for TRANS, axes permuted. */
static void src_index(cg *g, strbuf *sb, const ir_inst *in, const ir_type *src, int axis,
                      const char *repl, int64_t add)
{
    const ir_type *dst = cg_type(g, in->dst);
    strbuf_puts(sb, "(0");
    for (int d = 0; d < dst->ndim; d++) {
        int sa = in->op == IR_TRANS ? ir_trans_axis(in, d) : d;
        int64_t st = cg_stride(src, sa);
        strbuf_puts(sb, " + (");
        if (d == axis && repl)
            strbuf_printf(sb, "(int)(%s)", repl);
        else
            cg_coord(sb, dst, d, "e");
        if (d == axis && add)
            strbuf_printf(sb, " + %" PRId64, add);
        strbuf_printf(sb, ") * %" PRId64, st);
    }
    strbuf_puts(sb, ")");
}

static bool emit_trans_slice(cg *g, const ir_inst *in)
{
    strbuf map = {0};
    const ir_type *src = cg_type(g, in->a);
    if (in->op == IR_SLICE)
        src_index(g, &map, in, src, ir_slice_axis(in), NULL, ir_slice_start(in));
    else
        src_index(g, &map, in, src, -1, NULL, 0);
    via_smem(g, in, in->a, -1, strbuf_cstr(&map));
    strbuf_free(&map);
    return true;
}

static bool emit_flip(cg *g, const ir_inst *in)
{
    const ir_type *t = cg_type(g, in->dst);
    int ax = (int)in->imm;
    strbuf map = {0}, c = {0};
    cg_coord(&c, t, ax, "e");
    strbuf_printf(&map, "(e + (%d - 2 * %s) * %" PRId64 ")", t->shape[ax] - 1, strbuf_cstr(&c),
                  cg_stride(t, ax));
    via_smem(g, in, in->a, -1, strbuf_cstr(&map));
    strbuf_free(&map);
    strbuf_free(&c);
    return true;
}

static bool emit_concat(cg *g, const ir_inst *in)
{
    const ir_type *ta = cg_type(g, in->a), *tb = cg_type(g, in->b), *td = cg_type(g, in->dst);
    int ax = (int)in->imm;
    strbuf map = {0}, c = {0}, ia = {0}, ib = {0};
    cg_coord(&c, td, ax, "e");
    src_index(g, &ia, in, ta, -1, NULL, 0);
    src_index(g, &ib, in, tb, ax, NULL, -(int64_t)ta->shape[ax]);
    strbuf_printf(&map, "(%s < %d ? %s : %" PRId64 " + %s)", strbuf_cstr(&c), ta->shape[ax],
                  strbuf_cstr(&ia), ir_type_numel(ta), strbuf_cstr(&ib));
    via_smem(g, in, in->a, in->b, strbuf_cstr(&map));
    strbuf_free(&map);
    strbuf_free(&c);
    strbuf_free(&ia);
    strbuf_free(&ib);
    return true;
}

static bool emit_gather(cg *g, int32_t pc, const ir_inst *in)
{
    const ir_type *src = cg_type(g, in->a);
    int ax = (int)in->imm;
    size_t esz = cg_reg_size(cg_dt(g, in->a));
    cg_need_smem(g, (size_t)ir_type_numel(src) * esz);
    cg_barrier(g);
    cg_tile_to_smem(g, in->a, 0);
    cg_barrier(g);
    strbuf map = {0}, ix = {0};
    cg_operand(g, &ix, in->b);
    src_index(g, &map, in, src, ax, "tk_gi", 0);
    cgen_layout L = cg_layout(g, in->dst);
    cg_loop_begin(g, &L, false);
    cg_printf(g, "const long long tk_gi = (long long)(%s);\n", strbuf_cstr(&ix));
    cg_printf(g, "if (tk_gi < 0 || tk_gi >= %d) {\n", src->shape[ax]);
    if (g->o->checked)
        cg_printf(g, "  TK_NOTE(%d, %d, e, 0, -1, tk_gi);\n",
                  TK_ERR_GATHER, pc);
    cg_printf(g, "  s%d[r] = 0;\n} else {\n", in->dst);
    cg_printf(g, "  s%d[r] = ((const %s *)tk_smem)[%s];\n}\n", in->dst, cg_ctype(g, in->dst),
              strbuf_cstr(&map));
    cg_loop_end(g);
    cg_check_pending(g);
    strbuf_free(&map);
    strbuf_free(&ix);
    return true;
}

static bool emit_histogram(cg *g, const ir_inst *in)
{
    int64_t bins = in->imm;
    cg_need_smem(g, (size_t)bins * 4);
    cgen_layout Ld = cg_layout(g, in->dst), La = cg_layout(g, in->a);
    cg_barrier(g);
    cg_loop_begin(g, &Ld, true);
    cg_printf(g, "((int *)tk_smem)[e] = 0;\n");
    cg_loop_end(g);
    cg_barrier(g);
    strbuf v = {0}, m = {0};
    cg_operand(g, &v, in->a);
    if (in->b >= 0)
        cg_operand(g, &m, in->b);
    cg_loop_begin(g, &La, true);
    cg_printf(g, "const long long tk_hv = (long long)(%s);\n", strbuf_cstr(&v));
    cg_printf(g, "if (%s%stk_hv >= 0 && tk_hv < %" PRId64 ") atomicAdd(&((int *)tk_smem)[tk_hv], 1);\n",
              in->b >= 0 ? strbuf_cstr(&m) : "", in->b >= 0 ? " && " : "", bins);
    cg_loop_end(g);
    cg_barrier(g);
    cg_loop_begin(g, &Ld, false);
    cg_printf(g, "s%d[r] = ((const int *)tk_smem)[e];\n", in->dst);
    cg_loop_end(g);
    strbuf_free(&v);
    strbuf_free(&m);
    return true;
}

bool cgen_emit_move(cg *g, int32_t pc, const ir_inst *in)
{
    switch ((ir_opcode)in->op) {
    case IR_BROADCAST:
        return emit_broadcast(g, in);
    case IR_TRANS:
    case IR_SLICE:
        return emit_trans_slice(g, in);
    case IR_FLIP:
        return emit_flip(g, in);
    case IR_CONCAT:
        return emit_concat(g, in);
    case IR_GATHER:
        return emit_gather(g, pc, in);
    case IR_HISTOGRAM:
        return emit_histogram(g, in);
    case IR_CONST: case IR_PROGRAM_ID: case IR_NUM_PROGRAMS: case IR_ARG: case IR_ARANGE:
    case IR_COPY: case IR_RESHAPE: case IR_CAST: case IR_BITCAST: case IR_UNARY:
    case IR_BINARY: case IR_CMP: case IR_WHERE: case IR_MATH: case IR_PTR_ADD: case IR_LOAD:
    case IR_STORE: case IR_ATOMIC: case IR_DOT: case IR_REDUCE: case IR_SCAN: case IR_PRINT:
    case IR_ASSERT: case IR_BREAKPOINT: case IR_JUMP: case IR_BRANCH: case IR_RETURN:
    case IR_NOP:
        break;
    }
    return cg_fail(g, pc, "internal error: %s is not data movement", ir_op_name((ir_opcode)in->op));
}
