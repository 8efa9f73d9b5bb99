/* cgen_reduce.c - REDUCE and SCAN.  The source tile goes to shared
 * memory; each thread then combines, for every output element it holds,
 * the elements along the axis sequentially from index 0, as the CPU does
 * (doc/ir.md 3.7): fp16 and bf16 sums and products run in fp32 and round
 * once per output, ARGMAX/ARGMIN keep the first extreme and skip NaN,
 * MAX/MIN ignore NaN unless every element is one.  So every result is the
 * CPU's bits, float sums included (a tree would be faster and is allowed
 * a tolerance; this order is the one to compare against). */
#include "cgen_impl.h"

#include <inttypes.h>

#pragma GCC diagnostic error "-Wswitch"
#pragma GCC diagnostic error "-Wswitch-enum"

static bool is_float(dtype dt)
{
    return dt == DTYPE_FP8E4NV || dt == DTYPE_FP8E5 || dt == DTYPE_FP16 || dt == DTYPE_BF16 ||
           dt == DTYPE_FP32 || dt == DTYPE_FP64;
}

/* The running value's dtype: narrow floats run in fp32. */
static dtype run_dtype(dtype dt)
{
    return is_float(dt) && dt != DTYPE_FP64 ? DTYPE_FP32 : dt;
}

/* acc = acc op x, as a statement; false for an unsupported kind. */
static bool combine(strbuf *sb, ir_reduce kind, dtype dt)
{
    dtype rd = run_dtype(dt);
    strbuf ex = {0};
    bool ok = true;
    switch (kind) {
    case IR_RED_SUM:
        ok = cgen_binary(&ex, IR_ADD, rd, "tk_acc", "tk_x", rd);
        break;
    case IR_RED_PROD:
        ok = cgen_binary(&ex, IR_MUL, rd, "tk_acc", "tk_x", rd);
        break;
    case IR_RED_XOR:
        ok = cgen_binary(&ex, IR_XOR, rd, "tk_acc", "tk_x", rd);
        break;
    case IR_RED_AND:
        ok = cgen_binary(&ex, IR_AND, rd, "tk_acc", "tk_x", rd);
        break;
    case IR_RED_OR:
        ok = cgen_binary(&ex, IR_OR, rd, "tk_acc", "tk_x", rd);
        break;
    case IR_RED_MAX:
    case IR_RED_MIN: {
        const char *cmp = kind == IR_RED_MAX ? ">" : "<";
        if (is_float(dt))
            strbuf_printf(&ex, "(isnan(tk_acc) ? tk_x : isnan(tk_x) ? tk_acc : (tk_x %s tk_acc ? tk_x : tk_acc))",
                          cmp);
        else
            strbuf_printf(&ex, "(tk_x %s tk_acc ? tk_x : tk_acc)", cmp);
        break;
    }
    case IR_RED_ARGMAX:
    case IR_RED_ARGMIN:
        ok = false;     /* handled apart */
        break;
    }
    if (ok)
        strbuf_printf(sb, "tk_acc = %s;", strbuf_cstr(&ex));
    strbuf_free(&ex);
    return ok;
}

static int64_t stride_of(const ir_type *t, int d)
{
    int64_t s = 1;
    for (int i = d + 1; i < t->ndim; i++)
        s *= t->shape[i];
    return s;
}

bool cgen_emit_reduce(cg *g, int32_t pc, const ir_inst *in)
{
    ir_reduce kind = (ir_reduce)in->sub;
    const ir_type *ta = cg_type(g, in->a);
    dtype dt = cg_dt(g, in->a), ddt = cg_dt(g, in->dst);
    bool scan = in->op == IR_SCAN;
    int64_t n = ir_type_numel(ta), L, inner;
    if (in->imm < 0) {
        L = n;
        inner = 1;
    } else {
        L = ta->shape[in->imm];
        inner = stride_of(ta, (int)in->imm);
    }
    const char *ct = cgen_ctype(dt), *rt = cgen_ctype(run_dtype(dt));
    cg_need_smem(g, (size_t)n * 8);
    cg_barrier(g);
    cg_tile_to_smem(g, in->a, 0);
    cg_barrier(g);

    bool arg = kind == IR_RED_ARGMAX || kind == IR_RED_ARGMIN;
    strbuf step = {0}, fin = {0};
    if (!arg && !combine(&step, kind, dt)) {
        strbuf_free(&step);
        return cg_fail(g, pc, "%s %d on %s is not supported by the GPU backends",
                       ir_op_name((ir_opcode)in->op), in->sub, dtype_name(dt));
    }
    /* the running value -> dst's dtype */
    dtype rd = arg ? DTYPE_INT32 : run_dtype(dt);
    if (rd == ddt)
        strbuf_puts(&fin, "tk_acc");
    else if (!cgen_cast(&fin, IR_CAST_PLAIN, ddt, rd, "tk_acc")) {
        strbuf_free(&step);
        strbuf_free(&fin);
        return cg_fail(g, pc, "%s to %s is not supported by the GPU backends",
                       ir_op_name((ir_opcode)in->op), dtype_name(ddt));
    }

    bool scalar = cg_scalar(g, in->dst);
    if (scalar) {
        cg_printf(g, "{ { const int e = 0; (void)e; {\n");
    } else {
        cgen_layout Ld = cg_layout(g, in->dst);
        cg_loop_begin(g, &Ld, false);
    }
    const char *sm = "((const %s *)tk_smem)";
    (void)sm;
    if (scan) {
        cg_printf(g, "const long long tk_l = (e / %" PRId64 ") %% %" PRId64 ";\n", inner, L);
        cg_printf(g, "const long long tk_base = e - tk_l * %" PRId64 ";\n", inner);
        cg_printf(g, "const long long tk_end = tk_l;\n");
    } else {
        cg_printf(g, "const long long tk_base = (e / %" PRId64 ") * %" PRId64 " + e %% %" PRId64 ";\n",
                  inner, L * inner, inner);
        cg_printf(g, "const long long tk_end = %" PRId64 ";\n", L - 1);
    }
    if (arg) {
        const char *cmp = kind == IR_RED_ARGMAX ? ">" : "<";
        cg_printf(g, "%s tk_best = 0; int tk_acc = -1;\n", ct);
        cg_printf(g, "for (long long l = 0; l <= tk_end; l++) {\n");
        cg_printf(g, "  const %s tk_x = ((const %s *)tk_smem)[tk_base + l * %" PRId64 "];\n", ct,
                  ct, inner);
        if (is_float(dt))
            cg_printf(g, "  if (isnan(tk_x)) continue;\n");
        cg_printf(g, "  if (tk_acc < 0 || tk_x %s tk_best) { tk_best = tk_x; tk_acc = (int)l; }\n}\n",
                  cmp);
        cg_printf(g, "if (tk_acc < 0) tk_acc = 0;\n");
    } else {
        cg_printf(g, "%s tk_acc = (%s)((const %s *)tk_smem)[tk_base];\n", rt, rt, ct);
        cg_printf(g, "for (long long l = 1; l <= tk_end; l++) {\n");
        cg_printf(g, "  const %s tk_x = (%s)((const %s *)tk_smem)[tk_base + l * %" PRId64 "];\n",
                  rt, rt, ct, inner);
        cg_printf(g, "  %s\n}\n", strbuf_cstr(&step));
    }
    if (scalar)
        cg_printf(g, "s%d = %s;\n", in->dst, strbuf_cstr(&fin));
    else
        cg_printf(g, "s%d[r] = %s;\n", in->dst, strbuf_cstr(&fin));
    if (scalar)
        cg_printf(g, "}}}\n");
    else
        cg_loop_end(g);
    strbuf_free(&step);
    strbuf_free(&fin);
    return true;
}
