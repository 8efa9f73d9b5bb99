/* cgen_mem.c - LOAD, STORE and ATOMIC: per active lane, the bounds check
 * (cgen_options.checked), then the access; masked-off lanes touch no
 * memory and load `other` or 0.  A program's accesses keep their order
 * (doc/ir.md 3.9): a barrier comes between a STORE or ATOMIC and the next
 * LOAD or ATOMIC.  A lane that fails its check records the failure
 * (tk_fault), skips the access, and the block stops after the
 * instruction.  Atomics run on the owners of the lanes; when other
 * threads hold replicas of the result, it reaches them through shared
 * memory. */
#include "cgen_impl.h"

#include <inttypes.h>

#include "cgen_abi.h"

#pragma GCC diagnostic error "-Wswitch"
#pragma GCC diagnostic error "-Wswitch-enum"

/* The check of address expression `a` for instruction pc with pointer
 * slot p: appends "ok" and "arg" expressions. */
static void check_exprs(cg *g, int32_t p, int esz, strbuf *ok, strbuf *arg)
{
    const ir_kernel *k = g->k;
    int32_t pa = k->slots[p].ptr_arg;
    if (pa >= 0 && pa < k->nparams && dtype_is_ptr(k->params[pa].dt)) {
        strbuf_printf(ok, "tk_in(tk_a, tk_lo%d, tk_hi%d, %d)", pa, pa, esz);
        strbuf_printf(arg, "%d", pa);
        return;
    }
    bool any = false;
    strbuf_puts(ok, "(false");
    strbuf_puts(arg, "(");
    for (int32_t i = 0; i < k->nparams; i++) {
        if (!dtype_is_ptr(k->params[i].dt))
            continue;
        any = true;
        strbuf_printf(ok, " || tk_in(tk_a, tk_lo%d, tk_hi%d, %d)", i, i, esz);
        strbuf_printf(arg, "tk_a >= tk_lo%d && tk_a < tk_hi%d ? %d : ", i, i, i);
    }
    (void)any;
    strbuf_puts(ok, ")");
    strbuf_puts(arg, "-1)");
}

/* Open the lanes of a memory instruction over the shape of slot `shape`
 * (a scalar: one lane, e = 0, held by every thread; owned: thread 0 only),
 * with tk_a the lane's address, tk_m its mask, and the check done: a
 * failing lane is recorded and masked off.  Close with cg_loop_end. */
static void lanes_open(cg *g, int32_t pc, const ir_inst *in, int32_t shape, int32_t mask,
                       bool owned)
{
    int esz = (int)dtype_size(dtype_elem(cg_dt(g, in->a)));
    if (cg_scalar(g, shape)) {
        cg_printf(g, "{ { const int r = 0, e = 0; (void)r; (void)e;\n");
        cg_printf(g, "  %s{\n", owned ? "if (tk_tid == 0) " : "");
    } else {
        cgen_layout L = cg_layout(g, shape);
        cg_loop_begin(g, &L, owned);
    }
    strbuf p = {0}, m = {0};
    cg_operand(g, &p, in->a);
    if (mask >= 0)
        cg_operand(g, &m, mask);
    cg_printf(g, "const tk_u64 tk_a = %s;\n", strbuf_cstr(&p));
    cg_printf(g, "bool tk_m = %s; (void)tk_m;\n", mask >= 0 ? strbuf_cstr(&m) : "true");
    if (g->o->checked) {
        strbuf ok = {0}, arg = {0};
        check_exprs(g, in->a, esz, &ok, &arg);
        cg_printf(g, "if (tk_m && !%s) {\n", strbuf_cstr(&ok));
        cg_printf(g, "  tk_fault(tk_rt_p, %d, %d, e, tk_a, %s, 0); tk_bad = 1; tk_m = false;\n}\n",
                  TK_ERR_ACCESS, pc, strbuf_cstr(&arg));
        strbuf_free(&ok);
        strbuf_free(&arg);
    }
    strbuf_free(&p);
    strbuf_free(&m);
}

/* "s5" or "s5[r]" */
static void dst_ref(const cg *g, strbuf *sb, int32_t slot)
{
    cg_operand(g, sb, slot);
}

static bool emit_load(cg *g, int32_t pc, const ir_inst *in)
{
    dtype dt = cg_dt(g, in->dst);
    if (g->stored)
        cg_barrier(g);
    lanes_open(g, pc, in, in->dst, in->b, false);
    strbuf d = {0}, ld = {0}, other = {0};
    dst_ref(g, &d, in->dst);
    cgen_load_expr(&ld, dt, "tk_a");
    if (in->c >= 0)
        cg_operand(g, &other, in->c);
    else
        cgen_literal(&other, dt, 0, 0.0);
    cg_printf(g, "if (tk_m) %s = %s; else %s = %s;\n", strbuf_cstr(&d), strbuf_cstr(&ld),
              strbuf_cstr(&d), strbuf_cstr(&other));
    cg_loop_end(g);
    cg_check_stop(g);
    strbuf_free(&d);
    strbuf_free(&ld);
    strbuf_free(&other);
    return true;
}

static bool emit_store(cg *g, int32_t pc, const ir_inst *in)
{
    dtype dt = dtype_elem(cg_dt(g, in->a));
    lanes_open(g, pc, in, in->a, in->c, true);
    strbuf v = {0}, st = {0};
    cg_operand(g, &v, in->b);
    cgen_store_stmt(&st, dt, "tk_a", strbuf_cstr(&v));
    cg_printf(g, "if (tk_m) { %s }\n", strbuf_cstr(&st));
    cg_loop_end(g);
    g->stored = true;
    cg_check_stop(g);
    strbuf_free(&v);
    strbuf_free(&st);
    return true;
}

/* ---- atomics ---- */

/* The unsigned type of a width in bytes, as atomicCAS takes it. */
static const char *bits_type(int w)
{
    return w == 2 ? "unsigned short" : w == 4 ? "unsigned int" : "unsigned long long";
}

static dtype bits_dtype(int w)
{
    return w == 2 ? DTYPE_UINT16 : w == 4 ? DTYPE_UINT32 : DTYPE_UINT64;
}

/* A native atomic for the common cases: the call, or false. */
static bool native_atomic(strbuf *sb, ir_atomic op, dtype dt, const char *v)
{
    const char *fn = NULL, *ty = NULL;
    switch (op) {
    case IR_ATOMIC_ADD: fn = "atomicAdd"; break;
    case IR_ATOMIC_MAX: fn = "atomicMax"; break;
    case IR_ATOMIC_MIN: fn = "atomicMin"; break;
    case IR_ATOMIC_XCHG: fn = "atomicExch"; break;
    case IR_ATOMIC_AND: fn = "atomicAnd"; break;
    case IR_ATOMIC_OR: fn = "atomicOr"; break;
    case IR_ATOMIC_XOR: fn = "atomicXor"; break;
    case IR_ATOMIC_CAS: return false;
    }
    bool flt = dt == DTYPE_FP32 || dt == DTYPE_FP64;
    if (dt == DTYPE_INT32)
        ty = "int";
    else if (dt == DTYPE_UINT32)
        ty = "unsigned int";
    else if (dt == DTYPE_UINT64)
        ty = "unsigned long long";
    else if (dt == DTYPE_INT64)
        ty = (op == IR_ATOMIC_MAX || op == IR_ATOMIC_MIN) ? "long long" : "unsigned long long";
    else if (dt == DTYPE_FP32)
        ty = "float";
    else if (dt == DTYPE_FP64)
        ty = "double";
    else
        return false;
    if (flt && op != IR_ATOMIC_ADD && !(op == IR_ATOMIC_XCHG && dt == DTYPE_FP32))
        return false;
    strbuf_printf(sb, "(%s)%s((%s *)tk_a, (%s)(%s))", cgen_ctype(dt), fn, ty, ty, v);
    return true;
}

/* old = the update of lane value v (and, for CAS, compare cmp) as a
 * compare-and-swap loop on the element's bits. */
static bool cas_loop(strbuf *sb, ir_atomic op, dtype dt, const char *v, const char *cmp,
                     const char *res)
{
    int w = (int)dtype_size(dt);
    if (w != 2 && w != 4 && w != 8)
        return false;
    const char *bt = bits_type(w);
    dtype bd = bits_dtype(w);
    strbuf from = {0}, to = {0}, nv = {0}, cmpb = {0};
    bool ok = true;
    if (!cgen_bitcast(&from, dt, bd, "tk_as"))
        ok = false;
    switch (op) {
    case IR_ATOMIC_ADD: ok = ok && cgen_binary(&nv, IR_ADD, dt, "tk_o", v, dt); break;
    case IR_ATOMIC_MAX: ok = ok && cgen_binary(&nv, IR_MAX, dt, "tk_o", v, dt); break;
    case IR_ATOMIC_MIN: ok = ok && cgen_binary(&nv, IR_MIN, dt, "tk_o", v, dt); break;
    case IR_ATOMIC_AND: ok = ok && cgen_binary(&nv, IR_AND, dt, "tk_o", v, dt); break;
    case IR_ATOMIC_OR: ok = ok && cgen_binary(&nv, IR_OR, dt, "tk_o", v, dt); break;
    case IR_ATOMIC_XOR: ok = ok && cgen_binary(&nv, IR_XOR, dt, "tk_o", v, dt); break;
    case IR_ATOMIC_XCHG: strbuf_puts(&nv, v); break;
    case IR_ATOMIC_CAS: strbuf_puts(&nv, v); break;
    }
    if (ok && !cgen_bitcast(&to, bd, dt, "tk_nv"))
        ok = false;
    if (ok && op == IR_ATOMIC_CAS && !cgen_bitcast(&cmpb, bd, dt, cmp))
        ok = false;
    if (ok) {
        strbuf_printf(sb, "{ %s tk_old = *(volatile %s *)tk_a, tk_as;\n", bt, bt);
        strbuf_printf(sb, "  do { tk_as = tk_old; const %s tk_o = %s; (void)tk_o;\n",
                      cgen_ctype(dt), strbuf_cstr(&from));
        if (op == IR_ATOMIC_CAS)
            strbuf_printf(sb, "    if (tk_as != (%s)(%s)) break;\n", bt, strbuf_cstr(&cmpb));
        strbuf_printf(sb, "    const %s tk_nv = %s;\n", cgen_ctype(dt), strbuf_cstr(&nv));
        strbuf_printf(sb, "    tk_old = atomicCAS((%s *)tk_a, tk_as, (%s)(%s));\n", bt, bt,
                      strbuf_cstr(&to));
        strbuf_printf(sb, "  } while (tk_old != tk_as);\n");
        strbuf from2 = {0};
        cgen_bitcast(&from2, dt, bd, "tk_old");
        strbuf_printf(sb, "  %s = %s; }\n", res, strbuf_cstr(&from2));
        strbuf_free(&from2);
    }
    strbuf_free(&from);
    strbuf_free(&to);
    strbuf_free(&nv);
    strbuf_free(&cmpb);
    return ok;
}

static bool emit_atomic(cg *g, int32_t pc, const ir_inst *in)
{
    ir_atomic op = (ir_atomic)in->sub;
    dtype dt = dtype_elem(cg_dt(g, in->a));
    bool has_dst = in->dst >= 0;
    if (g->stored)
        cg_barrier(g);
    int32_t mask = op == IR_ATOMIC_CAS ? -1 : in->c;
    int32_t val = op == IR_ATOMIC_CAS ? in->d : in->b;
    /* replicas of the result get it through shared memory */
    bool share = has_dst && (cg_scalar(g, in->dst) || cg_layout(g, in->dst).repl);
    lanes_open(g, pc, in, in->a, mask, true);
    strbuf v = {0}, c = {0}, d = {0}, call = {0};
    cg_operand(g, &v, val);
    if (op == IR_ATOMIC_CAS)
        cg_operand(g, &c, in->b);
    cg_printf(g, "%s tk_r = 0;\n", cgen_ctype(dt));
    if (native_atomic(&call, op, dt, strbuf_cstr(&v))) {
        cg_printf(g, "if (tk_m) tk_r = %s;\n", strbuf_cstr(&call));
    } else {
        strbuf loop = {0};
        if (!cas_loop(&loop, op, dt, strbuf_cstr(&v), strbuf_cstr(&c), "tk_r")) {
            strbuf_free(&loop);
            return cg_fail(g, pc, "atomics on %s are not supported by the GPU backends",
                           dtype_name(dt));
        }
        cg_printf(g, "if (tk_m) %s", strbuf_cstr(&loop));
        strbuf_free(&loop);
    }
    if (has_dst) {
        if (share) {
            cg_printf(g, "((%s *)tk_smem)[e] = tk_r;\n", cgen_ctype(dt));
        } else {
            dst_ref(g, &d, in->dst);
            cg_printf(g, "%s = tk_r;\n", strbuf_cstr(&d));
        }
    }
    cg_loop_end(g);
    g->stored = true;
    cg_check_stop(g);
    if (share) {
        int64_t n = ir_type_numel(cg_type(g, in->dst));
        cg_need_smem(g, (size_t)n * 8);
        cg_barrier(g);
        g->stored = true;   /* the barrier orders memory, but keep the rule simple */
        strbuf_clear(&d);
        if (cg_scalar(g, in->dst)) {
            cg_printf(g, "s%d = ((const %s *)tk_smem)[0];\n", in->dst, cgen_ctype(dt));
        } else {
            cgen_layout L = cg_layout(g, in->dst);
            cg_loop_begin(g, &L, false);
            cg_printf(g, "s%d[r] = ((const %s *)tk_smem)[e];\n", in->dst, cgen_ctype(dt));
            cg_loop_end(g);
        }
    }
    strbuf_free(&v);
    strbuf_free(&c);
    strbuf_free(&d);
    strbuf_free(&call);
    return true;
}

bool cgen_emit_mem(cg *g, int32_t pc, const ir_inst *in)
{
    switch ((ir_opcode)in->op) {
    case IR_LOAD:
        return emit_load(g, pc, in);
    case IR_STORE:
        return emit_store(g, pc, in);
    case IR_ATOMIC:
        return emit_atomic(g, pc, in);
    case IR_CONST: case IR_PROGRAM_ID: case IR_NUM_PROGRAMS: case IR_ARG: case IR_ARANGE:
    case IR_COPY: case IR_BROADCAST: case IR_RESHAPE: case IR_TRANS: case IR_FLIP:
    case IR_CONCAT: case IR_SLICE: case IR_GATHER: case IR_HISTOGRAM: case IR_CAST:
    case IR_BITCAST: case IR_UNARY: case IR_BINARY: case IR_CMP: case IR_WHERE: case IR_MATH:
    case IR_PTR_ADD: case IR_DOT: case IR_REDUCE: case IR_SCAN: case IR_PRINT: case IR_ASSERT:
    case IR_BREAKPOINT: case IR_JUMP: case IR_BRANCH: case IR_RETURN: case IR_NOP:
        break;
    }
    return cg_fail(g, pc, "internal error: %s is not a memory access", ir_op_name((ir_opcode)in->op));
}
