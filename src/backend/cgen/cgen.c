/* cgen.c - the emitter's driver: analyses the kernel (which slots are
 * written where, which are index expressions, where jumps land), declares
 * every slot's registers, writes the kernel's signature and walks the
 * instructions, emitting values, elementwise arithmetic and control flow
 * itself and handing data movement, memory, DOT and reductions to the
 * other cgen_*.c files.  The model is cgen.h's. */
#include "cgen_impl.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "affine.h"
#include "axis.h"
#include "cgen_abi.h"

#pragma GCC diagnostic error "-Wswitch"
#pragma GCC diagnostic error "-Wswitch-enum"

/* ---- context ---------------------------------------------------------- */

void cg_printf(cg *g, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    strbuf_vprintf(g->out, fmt, ap);
    va_end(ap);
}

bool cg_fail(cg *g, int32_t pc, const char *fmt, ...)
{
    if (g->failed)
        return false;
    g->failed = true;
    g->f->pc = pc;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g->f->why, sizeof g->f->why, fmt, ap);
    va_end(ap);
    return false;
}

const ir_type *cg_type(const cg *g, int32_t slot)
{
    return &g->k->slots[slot].type;
}

dtype cg_dt(const cg *g, int32_t slot)
{
    return g->k->slots[slot].type.dt;
}

const char *cg_labels(const cg *g)
{
    return g->o->labels ? g->o->labels : "L";
}

bool cg_scalar(const cg *g, int32_t slot)
{
    return g->k->slots[slot].type.ndim == 0;
}

bool cg_tagged(const cg *g, int32_t slot)
{
    return g->int_ptrs && dtype_is_ptr(cg_dt(g, slot)) && g->k->slots[slot].ptr_arg < 0;
}

const char *cg_ctype(const cg *g, int32_t slot)
{
    return cgen_ctype(cg_dt(g, slot));
}

/* Bytes of a dtype's register form. */
size_t cg_reg_size(dtype dt)
{
    if (dtype_is_ptr(dt))
        return 8;
    switch (dtype_elem(dt)) {
    case DTYPE_INT1: case DTYPE_INT8: case DTYPE_UINT8:
        return 1;
    case DTYPE_INT16: case DTYPE_UINT16:
        return 2;
    case DTYPE_INT64: case DTYPE_UINT64: case DTYPE_FP64:
        return 8;
    case DTYPE_INT32: case DTYPE_UINT32: case DTYPE_FP8E4NV: case DTYPE_FP8E5: case DTYPE_FP16:
    case DTYPE_BF16: case DTYPE_FP32: case DTYPE_INVALID: case DTYPE__NSCALAR: case DTYPE_PTR:
        return 4;
    }
    return 8;
}

void cg_need_smem(cg *g, size_t bytes)
{
    bytes = (bytes + 15) & ~(size_t)15;
    if (bytes > g->smem)
        g->smem = bytes;
}

void cg_barrier(cg *g)
{
    cg_printf(g, "__syncthreads();\n");
    g->stored = false;
}

void cg_check_pending(cg *g)
{
    g->pending = g->o->checked;
}

void cg_check_stop(cg *g)
{
    if (g->pending) {
        cg_printf(g, "if (__syncthreads_or(tk_bad)) { TK_FIRST(); TK_REPORT(); return; }\n");
        g->stored = false;      /* a barrier too */
        g->pending = false;
    }
}

/* ---- parameters ---------------------------------------------------------- */

int cgen_param_size(dtype dt)
{
    dtype e = dtype_elem(dt);
    if (dtype_is_ptr(dt) || e == DTYPE_INT64 || e == DTYPE_UINT64 || e == DTYPE_FP64)
        return 8;
    return 4;
}

const char *cgen_param_ctype(dtype dt)
{
    dtype e = dtype_elem(dt);
    if (dtype_is_ptr(dt))
        return "unsigned long long";
    if (e == DTYPE_INT64)
        return "long long";
    if (e == DTYPE_UINT64)
        return "unsigned long long";
    if (e == DTYPE_FP64)
        return "double";
    if (e == DTYPE_FP8E4NV || e == DTYPE_FP8E5 || e == DTYPE_FP16 || e == DTYPE_BF16 ||
        e == DTYPE_FP32)
        return "float";
    if (e == DTYPE_UINT8 || e == DTYPE_UINT16 || e == DTYPE_UINT32)
        return "unsigned int";
    return "int";
}

/* ---- analysis ------------------------------------------------------------ */

/* Is the instruction one whose result an index expression may be? */
static bool pure_op(const ir_inst *in)
{
    switch ((ir_opcode)in->op) {
    case IR_CONST: case IR_ARANGE: case IR_RESHAPE: case IR_COPY: case IR_BROADCAST:
    case IR_BINARY: case IR_UNARY: case IR_CMP: case IR_CAST: case IR_WHERE: case IR_PTR_ADD:
        return true;
    case IR_PROGRAM_ID: case IR_NUM_PROGRAMS: case IR_ARG: case IR_TRANS: case IR_FLIP:
    case IR_CONCAT: case IR_SLICE: case IR_GATHER: case IR_HISTOGRAM: case IR_BITCAST:
    case IR_MATH: case IR_LOAD: case IR_STORE: case IR_ATOMIC: case IR_DOT: case IR_REDUCE:
    case IR_SCAN: case IR_PRINT: case IR_ASSERT: case IR_BREAKPOINT: case IR_JUMP:
    case IR_BRANCH: case IR_RETURN: case IR_NOP:
        return false;
    }
    return false;
}

static void analyse(cg *g)
{
    const ir_kernel *k = g->k;
    for (int32_t s = 0; s < k->nslots; s++)
        g->def[s] = g->last_write[s] = -1;
    for (int32_t pc = 0; pc < k->ncode; pc++) {
        const ir_inst *in = &k->code[pc];
        if (ir_writes_dst(in) && in->dst >= 0) {
            g->writes[in->dst]++;
            g->def[in->dst] = g->last_write[in->dst] = pc;
        }
        if (in->op == IR_JUMP || in->op == IR_BRANCH)
            if (in->imm >= 0 && in->imm < k->ncode)
                g->label[in->imm] = 1;
        if (in->op == IR_CAST && dtype_is_ptr(cg_dt(g, in->dst)) && !dtype_is_ptr(cg_dt(g, in->a)))
            g->int_ptrs = true;
    }
    for (int32_t s = 0; s < k->nslots; s++)
        if (g->writes[s] != 1)
            g->def[s] = -1;
    /* A jump lands after a STORE or ATOMIC (whose writes a later LOAD by
     * another thread must see, so a barrier comes first) when one lies
     * before a forward jump or inside a loop that jumps back. */
    int32_t before = 0;     /* STOREs and ATOMICs at pcs below pc */
    int32_t *count = malloc(((size_t)k->ncode + 1) * sizeof *count);
    for (int32_t pc = 0; count && pc <= k->ncode; pc++) {
        count[pc] = before;
        if (pc < k->ncode && (k->code[pc].op == IR_STORE || k->code[pc].op == IR_ATOMIC))
            before++;
    }
    for (int32_t pc = 0; pc < k->ncode; pc++) {
        const ir_inst *in = &k->code[pc];
        if ((in->op != IR_JUMP && in->op != IR_BRANCH) || in->imm < 0 || in->imm >= k->ncode)
            continue;
        int32_t to = (int32_t)in->imm;
        bool after = !count || (to > pc ? count[pc] > 0 : count[pc] > count[to]);
        if (after)
            g->land_stored[to] = 1;
    }
    free(count);
    /* Instructions come in dependence order for single-assignment slots,
     * so one forward pass decides purity. */
    for (int32_t pc = 0; pc < k->ncode; pc++) {
        const ir_inst *in = &k->code[pc];
        if (!ir_writes_dst(in) || in->dst < 0 || g->def[in->dst] != pc || !pure_op(in))
            continue;
        int32_t rd[IR_MAX_READS];
        int n = ir_reads(in, rd);
        bool ok = true;
        for (int i = 0; i < n && ok; i++) {
            int32_t s = rd[i];
            if (cg_scalar(g, s))
                ok = g->def[s] >= 0;          /* a value that never changes */
            else
                ok = g->pure[s];
        }
        g->pure[in->dst] = ok;
    }
}

/* ---- declarations and signature ------------------------------------------- */

/* The blocks an SM the compiler is asked to make room for (0: its own
 * choice).  A DOT on FMAs whose loop is not pipelined (cgen_pipe.c) hides
 * its loads' latency only behind other blocks' arithmetic, so three of
 * them where the accumulator and some 40 registers beside it fit: the
 * 4096^3 fp32 matmul of bench/gpu (128 threads, 128 accumulators each)
 * went from 215 registers and 2 blocks to 168 and 3, 2-4% faster on the
 * H100. */
static int min_blocks(const cg *g)
{
    for (int32_t pc = 0; pc < g->k->ncode; pc++) {
        const ir_inst *in = &g->k->code[pc];
        if (in->op != IR_DOT || g->pipe_head[pc] >= 0 || in->dst < 0)
            continue;
        cgen_layout L = cg_layout(g, in->dst);
        if (L.kind == CGEN_FLAT && (L.regs + 40) * g->T * 3 <= 65536)
            return 3;
    }
    return 0;
}

/* Does a DOT of the kernel run on wgmma (cgen_wgmma.c)? */
static bool uses_wgmma(const cg *g)
{
    for (int32_t pc = 0; pc < g->k->ncode; pc++)
        if (g->k->code[pc].op == IR_DOT && g->k->code[pc].dst >= 0 &&
            cgen_wgmma_dot(g, &g->k->code[pc]))
            return true;
    return false;
}

static void emit_signature(cg *g)
{
    const ir_kernel *k = g->k;
    const cgen_dialect_row *dr = cgen_dialect_of(&g->o->target);
    int mb = !dr->min_blocks ? 0 : g->o->min_blocks > 0 ? g->o->min_blocks : min_blocks(g);
    cg_printf(g, "extern \"C\" __global__ void __launch_bounds__(%d", g->T);
    if (mb)
        cg_printf(g, ", %d", mb);
    cg_printf(g, ")\n");
    if (dr->waves_per_eu && g->o->waves_per_eu > 0)
        cg_printf(g, "__attribute__((amdgpu_waves_per_eu(%d)))\n", g->o->waves_per_eu);
    cg_printf(g, "tk_kernel(tk_rt *tk_rt_p");
    for (int32_t i = 0; i < k->nparams; i++)
        cg_printf(g, ", %s p%d", cgen_param_ctype(k->params[i].dt), i);
    for (int32_t i = 0; i < k->nparams; i++)
        if (dtype_is_ptr(k->params[i].dt))
            cg_printf(g, ", tk_u64 tk_lo%d, tk_u64 tk_hi%d, tk_u64 tk_c%d", i, i, i);
    if (g->int_ptrs)
        cg_printf(g, ", const tk_amap *__restrict__ tk_am, unsigned long long tk_nam");
    cg_printf(g, ")\n{\n");
    cg_printf(g, "extern __shared__ __align__(16) unsigned char tk_smem[];\n");
    if (uses_wgmma(g)) {
        /* where wgmma's swizzled buffers start: the first 1 KiB boundary
         * of the dynamic shared memory, its shared address through an
         * empty asm, so that the compiler keeps it in a register instead
         * of making it again (from the block's shared window) each round */
        cg_printf(g, "unsigned tk_wsa;\nasm volatile(\"mov.u32 %%0, %%1;\" : \"=r\"(tk_wsa) : \"r\""
                  "(((unsigned)__cvta_generic_to_shared(tk_smem) + 1023u) & ~1023u));\n");
        cg_printf(g, "unsigned char *const tk_wsm = tk_smem + (tk_wsa - "
                  "(unsigned)__cvta_generic_to_shared(tk_smem));\n");
    }
    cg_printf(g, "const int tk_tid = (int)threadIdx.x;\n");
    cg_printf(g, "int tk_bad = 0; (void)tk_bad;\n");
    if (g->o->checked)
        cg_printf(g, "__shared__ unsigned long long tk_fmin;   /* TK_FIRST */\n"
                  "unsigned int tk_ep = 0;   /* jumps back so far: the round (TK_NOTE) */\n");
    for (int32_t pc = 0; pc < k->ncode; pc++)
        if (g->pipe_head[pc] >= 0)
        {
            if (g->pipe_async[pc])
                cg_printf(g, "int tk_nb%d = 0, tk_cur%d = 0, tk_L%d = 0; bool tk_end%d = false;"
                          "   /* its ring (cgen_pipe.c) */\n", pc, pc, pc, pc);
            else
                cg_printf(g, "bool tk_pf%d = false;   /* its operands are loaded already */\n",
                          pc);
        }
    if (g->o->checked)
        /* (volatile: without it, checked layer norm took 94 registers
         * instead of 64 on sm_90) */
        cg_printf(g, "volatile long long tk_fr[5];   /* the first failure (TK_NOTE) */\n");
    cg_check_decls(g);
    for (int32_t i = 0; i < k->nparams; i++)
        if (dtype_is_ptr(k->params[i].dt))
            cg_printf(g, "(void)tk_lo%d; (void)tk_hi%d; (void)tk_c%d;\n", i, i, i);
    if (g->int_ptrs)
        cg_printf(g, "(void)tk_am; (void)tk_nam;\n");
    /* (void): a slot only written (a result nothing reads) is no warning */
    for (int32_t s = 0; s < k->nslots; s++) {
        if (!g->writes[s])
            continue;
        if (cg_scalar(g, s))
            cg_printf(g, "%s s%d; (void)s%d;\n", cg_ctype(g, s), s, s);
        else if (g->abase[s] >= 0)
            cg_printf(g, "tk_i64 s%d_d; (void)s%d_d;   /* base: s%d */\n", s, s, g->abase[s]);
        else if (g->packed[s])
            cg_printf(g, "tk_u32 s%d[%d]; (void)s%d;   /* %s bits, two a register */\n", s,
                      cg_layout(g, s).regs / 2, s, dtype_name(cg_dt(g, s)));
        else
            cg_printf(g, "%s s%d[%d]; (void)s%d;\n", cg_ctype(g, s), s, cg_layout(g, s).regs, s);
    }
    cgen_print_decls(g);
}

/* ---- elementwise --------------------------------------------------------- */

/* dst = expr, where expr is built per element by fn from the operands'
 * per-element text. */
typedef bool (*lane_fn)(cg *g, const ir_inst *in, strbuf *out, const char *ops[4]);

static bool emit_lanes(cg *g, int32_t pc, const ir_inst *in, lane_fn fn)
{
    int32_t rd[IR_MAX_READS];
    int n = ir_reads(in, rd);
    strbuf opn[IR_MAX_READS] = {{0}};
    const char *ops[4] = {NULL, NULL, NULL, NULL};
    /* operands in field order a, b, c: ir_reads returns those set, in order */
    int32_t fields[4] = {in->a, in->b, in->c, in->d};
    int j = 0;
    for (int i = 0; i < 4; i++) {
        if (fields[i] < 0 || j >= n || rd[j] != fields[i])
            continue;
        cg_operand(g, &opn[j], fields[i]);
        ops[i] = strbuf_cstr(&opn[j]);
        j++;
    }
    strbuf ex = {0};
    bool ok = fn(g, in, &ex, ops);
    if (ok) {
        if (cg_scalar(g, in->dst)) {
            /* a one-element tile operand is its register 0 */
            cg_printf(g, "{ const int r = 0, e = 0; (void)r; (void)e; s%d = %s; }\n", in->dst, strbuf_cstr(&ex));
        } else {
            cgen_layout L = cg_layout(g, in->dst);
            cg_loop_begin(g, &L, false);
            cg_printf(g, "s%d[r] = %s;\n", in->dst, strbuf_cstr(&ex));
            cg_loop_end(g);
        }
    }
    for (int i = 0; i < IR_MAX_READS; i++)
        strbuf_free(&opn[i]);
    strbuf_free(&ex);
    if (!ok)
        return cg_fail(g, pc, "%s with %s operands is not supported by the GPU backends yet",
                       ir_op_name((ir_opcode)in->op),
                       in->a >= 0 ? dtype_name(cg_dt(g, in->a)) : dtype_name(cg_dt(g, in->dst)));
    return true;
}

static bool lane_binary(cg *g, const ir_inst *in, strbuf *out, const char *ops[4])
{
    return cgen_binary(out, (ir_binop)in->sub, cg_dt(g, in->a), ops[0], ops[1], cg_dt(g, in->b));
}

static bool lane_unary(cg *g, const ir_inst *in, strbuf *out, const char *ops[4])
{
    return cgen_unary(out, (ir_unop)in->sub, cg_dt(g, in->dst), ops[0]);
}

static bool lane_cmp(cg *g, const ir_inst *in, strbuf *out, const char *ops[4])
{
    return cgen_cmp(out, (ir_cmp)in->sub, cg_dt(g, in->a), ops[0], ops[1]);
}

/* Between a pointer and an integer, in a kernel that makes pointers from
 * integers: the address looked up in the storages' table and tagged with
 * its entry, or the tag removed (cgen_abi.h). */
static bool lane_cast(cg *g, const ir_inst *in, strbuf *out, const char *ops[4])
{
    dtype to = cg_dt(g, in->dst), from = cg_dt(g, in->a);
    if (!g->int_ptrs || dtype_is_ptr(to) == dtype_is_ptr(from))
        return cgen_cast(out, (ir_cast_kind)in->sub, to, from, ops[0]);
    strbuf ex = {0};
    bool ok;
    if (dtype_is_ptr(to)) {
        ok = cgen_cast(&ex, (ir_cast_kind)in->sub, to, from, ops[0]);
        strbuf_printf(out, "tk_i2p(%s, tk_am, tk_nam)", strbuf_cstr(&ex));
    } else {
        strbuf_printf(&ex, "tk_p2i(%s, tk_nam)", ops[0]);
        ok = cgen_cast(out, (ir_cast_kind)in->sub, to, from, strbuf_cstr(&ex));
    }
    strbuf_free(&ex);
    return ok;
}

static bool lane_bitcast(cg *g, const ir_inst *in, strbuf *out, const char *ops[4])
{
    return cgen_bitcast(out, cg_dt(g, in->dst), cg_dt(g, in->a), ops[0]);
}

static bool lane_where(cg *g, const ir_inst *in, strbuf *out, const char *ops[4])
{
    (void)g;
    (void)in;
    strbuf_printf(out, "((%s) ? (%s) : (%s))", ops[0], ops[1], ops[2]);
    return true;
}

static bool lane_math(cg *g, const ir_inst *in, strbuf *out, const char *ops[4])
{
    dtype none = DTYPE_INVALID;
    return cgen_math(out, (ir_math)in->sub, in->imm, cg_dt(g, in->dst), ops[0],
                     in->a >= 0 ? cg_dt(g, in->a) : none, ops[1],
                     in->b >= 0 ? cg_dt(g, in->b) : none, ops[2],
                     in->c >= 0 ? cg_dt(g, in->c) : none);
}

static bool lane_ptr_add(cg *g, const ir_inst *in, strbuf *out, const char *ops[4])
{
    cg_ptr_add(g, out, in, ops[0], ops[1]);
    return true;
}

static bool lane_copy(cg *g, const ir_inst *in, strbuf *out, const char *ops[4])
{
    (void)g;
    (void)in;
    strbuf_puts(out, ops[0]);
    return true;
}

/* ---- values ------------------------------------------------------------- */

static bool emit_const(cg *g, const ir_inst *in)
{
    strbuf lit = {0};
    cgen_literal(&lit, cg_dt(g, in->dst), in->imm, in->fimm);
    if (cg_scalar(g, in->dst)) {
        cg_printf(g, "s%d = %s;\n", in->dst, strbuf_cstr(&lit));
    } else {
        cgen_layout L = cg_layout(g, in->dst);
        cg_loop_begin(g, &L, false);
        cg_printf(g, "s%d[r] = %s;\n", in->dst, strbuf_cstr(&lit));
        cg_loop_end(g);
    }
    strbuf_free(&lit);
    return true;
}

static bool emit_arg(cg *g, const ir_inst *in)
{
    dtype dt = cg_dt(g, in->dst);
    if (dtype_is_ptr(dt))
        cg_printf(g, "s%d = (tk_u64)p%" PRId64 ";\n", in->dst, in->imm);
    else if (dt == DTYPE_INT1)
        cg_printf(g, "s%d = p%" PRId64 " != 0;\n", in->dst, in->imm);
    else
        cg_printf(g, "s%d = (%s)p%" PRId64 ";\n", in->dst, cg_ctype(g, in->dst), in->imm);
    return true;
}

static bool emit_arange(cg *g, const ir_inst *in)
{
    cgen_layout L = cg_layout(g, in->dst);
    cg_loop_begin(g, &L, false);
    cg_printf(g, "s%d[r] = (tk_i32)(%" PRId64 " + e);\n", in->dst, in->imm);
    cg_loop_end(g);
    return true;
}

/* ASSERT: every active lane of a true, else the program fails. */
static bool emit_assert(cg *g, int32_t pc, const ir_inst *in)
{
    if (!g->o->checked) {
        /* an assertion is a check too: --unchecked drops it as Triton
         * drops device_assert without TRITON_DEBUG */
        return true;
    }
    if (cg_scalar(g, in->a) && (in->b < 0 || cg_scalar(g, in->b))) {
        strbuf m = {0};
        if (in->b >= 0)
            strbuf_printf(&m, "s%d && ", in->b);
        cg_printf(g, "if (tk_tid == 0 && %s!s%d) TK_NOTE(%d, %d, 0, 0, -1, 0);\n",
                  strbuf_cstr(&m), in->a, TK_ERR_ASSERT, pc);
        strbuf_free(&m);
    } else {
        const ir_type *t = cg_type(g, cg_scalar(g, in->a) ? in->b : in->a);
        cgen_layout L = cgen_layout_of(g, ir_type_numel(t));
        cg_loop_begin(g, &L, true);
        strbuf a = {0}, m = {0};
        cg_operand(g, &a, in->a);
        if (in->b >= 0)
            cg_operand(g, &m, in->b);
        cg_printf(g, "if (%s%s!(%s)) TK_NOTE(%d, %d, e, 0, -1, 0);\n",
                  in->b >= 0 ? strbuf_cstr(&m) : "", in->b >= 0 ? " && " : "", strbuf_cstr(&a),
                  TK_ERR_ASSERT, pc);
        strbuf_free(&a);
        strbuf_free(&m);
        cg_loop_end(g);
    }
    /* the block stops together (with the message's values, cgen_print.c) */
    return cgen_emit_print(g, pc, in);
}

/* ---- the instruction walk -------------------------------------------------- */

static bool emit_inst(cg *g, int32_t pc);

/* Slot s's writers in [from, to]. */
static int writes_in(const ir_kernel *k, int32_t s, int32_t from, int32_t to, int32_t *last)
{
    int n = 0;
    for (int32_t x = from; x <= to; x++)
        if (ir_writes_dst(&k->code[x]) && k->code[x].dst == s) {
            n++;
            *last = x;
        }
    return n;
}

/* Is the loop whose jump back is J counted: its head compares a counter
 * that the loop steps once a round by a constant, towards a bound it
 * does not write (`for i in range(a, b, step)`)?  Such a loop ends
 * whatever its loads read, so its jump back need not stop the block for
 * a failed check (the failure waits for the next stop, and its round
 * number, tk_ep, keeps the reports in the CPU's order).  c (may be NULL)
 * gets the loop's counter, bound, step and comparison. */
bool cg_counted_loop(const cg *g, int32_t J, cg_count *c)
{
    const ir_kernel *k = g->k;
    int32_t H = (int32_t)k->code[J].imm;
    if (H < 0 || H + 1 >= J)
        return false;
    const ir_inst *cmp = &k->code[H], *br = &k->code[H + 1];
    if (cmp->op != IR_CMP || cmp->dst < 0 || !cg_scalar(g, cmp->dst) || br->op != IR_BRANCH ||
        br->a != cmp->dst || br->imm <= J || cmp->a < 0 || cmp->b < 0)
        return false;
    for (int side = 0; side < 2; side++) {
        int32_t ctr = side ? cmp->b : cmp->a, bound = side ? cmp->a : cmp->b, w = -1, u = -1;
        if (!dtype_is_int(cg_dt(g, ctr)) || writes_in(k, bound, H, J, &u) != 0 ||
            writes_in(k, ctr, H, J, &w) != 1)
            continue;
        const ir_inst *step = &k->code[w];
        if (step->op != IR_BINARY || (step->sub != IR_ADD && step->sub != IR_SUB) ||
            step->a != ctr || step->b < 0 || g->def[step->b] < 0)
            continue;
        const ir_inst *sc = &k->code[g->def[step->b]];
        if (sc->op != IR_CONST || (g->def[step->b] >= H && g->def[step->b] <= J) || sc->imm == 0 ||
            !dtype_is_int(cg_dt(g, step->b)))
            continue;
        bool up = (sc->imm > 0) == (step->sub == IR_ADD);
        /* the counter on the left: i < b while going up, i > b down */
        bool lt = cmp->sub == IR_LT || cmp->sub == IR_LE, gt = cmp->sub == IR_GT ||
                  cmp->sub == IR_GE;
        if (!(side == 0 ? (up ? lt : gt) : (up ? gt : lt)))
            continue;
        if (c) {
            bool strict = cmp->sub == IR_LT || cmp->sub == IR_GT;
            *c = (cg_count){.head = H, .jump = J, .ctr = ctr, .bound = bound, .step_at = w,
                            .step = step->sub == IR_ADD ? sc->imm : -sc->imm,
                            .cmp = up ? (strict ? IR_LT : IR_LE) : (strict ? IR_GT : IR_GE)};
        }
        return true;
    }
    return false;
}

void cg_find_counted(cg *g)
{
    if (!g->o->checked)
        return;
    /* a failure from an earlier round can be pending anywhere in such a
     * loop, and at each of its exits */
    for (int32_t J = 0; J < g->k->ncode; J++)
        if (g->k->code[J].op == IR_JUMP && g->k->code[J].imm <= J && cg_counted_loop(g, J, NULL)) {
            g->counted[J] = 1;
            g->pend_at[g->k->code[J].imm] = 1;
        }
}

/* Before a JUMP or BRANCH: a jump back (a loop's next round) stops the
 * block where a failure can be pending, unless the loop is counted; a
 * forward one takes it along to its label. */
static void jump_stop(cg *g, int32_t pc, const ir_inst *in)
{
    if (in->imm <= pc && g->o->checked)
        cg_printf(g, "tk_ep++;\n");
    if (in->imm <= pc && !g->counted[pc])
        cg_check_stop(g);
    else if (in->imm > pc && in->imm <= g->k->ncode)
        g->pend_at[in->imm] |= g->pending;
}

/* A wgmma loop whose MMAs run on across its back edge (cgen_pipe.c) is
 * entered only when its first round runs: its head's test (a CMP, which
 * reads nothing it writes, so that making it twice changes nothing) is
 * made once before the loop too, and a loop of no rounds jumps past it.
 * Otherwise the loop's exit is one block for both ways out, where the
 * accumulator's zeros of the no-round way meet MMAs still running, and
 * ptxas then serializes every wgmma of the loop (its warning C7515). */
static void emit_loop_entry_test(cg *g, int32_t head)
{
    const ir_kernel *k = g->k;
    if (head + 1 >= k->ncode)
        return;
    int32_t d = cg_pipe_ring_at_branch(g, head + 1);
    const ir_inst *h = &k->code[head], *br = &k->code[head + 1];
    if (d < 0 || !cg_pipe_wgmma_defer(g, d) || br->op != IR_BRANCH || h->op != IR_CMP ||
        h->dst != br->a || !cg_scalar(g, h->dst) || h->a == h->dst || h->b == h->dst)
        return;
    cg_emit_at(g, head);
    jump_stop(g, head + 1, br);
    cg_printf(g, "if (!(s%d)) goto %s%" PRId64 ";   /* no round: past the loop */\n", br->a,
              cg_labels(g), br->imm);
}

bool cg_emit_at(cg *g, int32_t pc)
{
    const ir_inst *in = &g->k->code[pc];
    cg_printf(g, "/* %d: %s */\n", pc, ir_op_name((ir_opcode)in->op));
    if (cg_affine_write(g, in))
        return true;
    cg_convert_begin(g, in);
    bool ok = emit_inst(g, pc);
    cg_convert_end(g);
    return ok;
}

static bool emit_inst(cg *g, int32_t pc)
{
    const ir_inst *in = &g->k->code[pc];
    switch ((ir_opcode)in->op) {
    case IR_CONST:
        return emit_const(g, in);
    case IR_PROGRAM_ID:
        cg_printf(g, "s%d = (tk_i32)blockIdx.%c;\n", in->dst, "xyz"[in->imm]);
        return true;
    case IR_NUM_PROGRAMS:
        cg_printf(g, "s%d = (tk_i32)gridDim.%c;\n", in->dst, "xyz"[in->imm]);
        return true;
    case IR_ARG:
        return emit_arg(g, in);
    case IR_ARANGE:
        return emit_arange(g, in);
    case IR_COPY:
    case IR_RESHAPE:
        return emit_lanes(g, pc, in, lane_copy);
    case IR_CAST:
        return emit_lanes(g, pc, in, lane_cast);
    case IR_BITCAST:
        return emit_lanes(g, pc, in, lane_bitcast);
    case IR_UNARY:
        return emit_lanes(g, pc, in, lane_unary);
    case IR_BINARY:
        return emit_lanes(g, pc, in, lane_binary);
    case IR_CMP:
        return emit_lanes(g, pc, in, lane_cmp);
    case IR_WHERE:
        return emit_lanes(g, pc, in, lane_where);
    case IR_MATH:
        if (in->sub >= IR_ADD_R && in->sub <= IR_FMA_R && in->sub != IR_CVT_R &&
            in->imm != IR_RN && !cgen_dialect_of(&g->o->target)->directed_rounding)
            return cg_fail(g, pc, "%s arithmetic rounded %s is not available in %s "
                           "(it has no __fadd_rz and friends)", dtype_name(cg_dt(g, in->dst)),
                           in->imm == IR_RZ ? "toward zero" : in->imm == IR_RD ? "down" : "up",
                           cgen_dialect_of(&g->o->target)->name);
        return emit_lanes(g, pc, in, lane_math);
    case IR_PTR_ADD:
        return emit_lanes(g, pc, in, lane_ptr_add);
    case IR_BROADCAST:
    case IR_TRANS:
    case IR_FLIP:
    case IR_CONCAT:
    case IR_SLICE:
    case IR_GATHER:
    case IR_HISTOGRAM:
        return cgen_emit_move(g, pc, in);
    case IR_LOAD:
    case IR_STORE:
    case IR_ATOMIC:
        return cgen_emit_mem(g, pc, in);
    case IR_DOT:
        return cgen_emit_dot(g, pc, in);
    case IR_REDUCE:
    case IR_SCAN:
        return cgen_emit_reduce(g, pc, in);
    case IR_PRINT:
    case IR_BREAKPOINT:
        cg_check_stop(g);
        return cgen_emit_print(g, pc, in);
    case IR_ASSERT:
        cg_check_stop(g);
        return emit_assert(g, pc, in);
    case IR_JUMP:
        jump_stop(g, pc, in);
        cg_printf(g, "goto %s%" PRId64 ";\n", cg_labels(g), in->imm);
        g->pending = false;     /* what follows is reached by a jump */
        return true;
    case IR_BRANCH: {
        jump_stop(g, pc, in);
        int32_t d = cg_pipe_ring_at_branch(g, pc);
        if (d >= 0)     /* leaves only with no round loaded and not computed */
            cg_printf(g, "if (!(s%d) && tk_L%d == 0) {\ntk_end%d = false;\n%sgoto %s%" PRId64
                      ";\n}\n", in->a, d, d, cg_pipe_wgmma_defer(g, d)
                      ? "asm volatile(\"wgmma.wait_group.sync.aligned 0;\" ::: \"memory\");\n" : "",
                      cg_labels(g), in->imm);
        else
            cg_printf(g, "if (!(s%d)) goto %s%" PRId64 ";\n", in->a, cg_labels(g), in->imm);
        return true;
    }
    case IR_RETURN:
        cg_check_stop(g);
        cg_printf(g, "return;\n");
        return true;
    case IR_NOP:
        return true;
    }
    return cg_fail(g, pc, "unknown opcode %d", in->op);
}

/* Where every check of a kernel is one of the tests its entry makes
 * (cg_entry_checks_all), the program, once they all passed, has nothing
 * left to check: it goes on as --unchecked makes it, that kernel's body
 * whole (which makes again what the entry made) with labels of its own
 * (LF<pc>, cgen_options.labels), inserted at the entry's end (at), in a branch that
 * returns; the checked body stays below it for programs where a test
 * failed, which find and report the first bad lane as before.  Checked
 * layer norm: 33.5 against 34.2 us without the copy, 32.0 unchecked
 * (doc/performance.md, tenth session).  The copy costs no registers
 * there: the compiler allocates the two bodies apart (40, as --unchecked;
 * of the tests' kernels that get it, two small ones take one or two
 * more).  Nothing is inserted where the unchecked kernel cannot be made,
 * or has functions of its own. */
static void emit_unchecked_copy(cg *g, size_t at)
{
    cgen_options uo = *g->o;
    uo.checked = false;
    uo.labels = "LF";
    strbuf u = {0};
    cgen_info ui;
    cgen_fault uf;
    if (!cgen_emit(g->k, &uo, &u, &ui, &uf)) {
        strbuf_free(&u);
        return;
    }
    const char *t = strbuf_cstr(&u);
    const char *sig = strstr(t, "\nextern \"C\" __global__");
    const char *open = sig ? strstr(sig, ")\n{\n") : NULL;
    if (!open || u.len < 2 || strcmp(t + u.len - 2, "}\n") != 0 || open + 4 > t + u.len - 2) {
        strbuf_free(&u);
        return;
    }
    const char *b = open + 4, *e = t + u.len - 2;
    strbuf copy = {0};
    strbuf_puts(&copy, "/* every test of the entry passed: the program as --unchecked makes it "
                "(cgen.c, emit_unchecked_copy) */\nif (tk_all == ~0u) {\n");
    strbuf_putn(&copy, b, (size_t)(e - b));
    strbuf_puts(&copy, "return;\n}\n");
    strbuf tail = {0};
    strbuf_puts(&tail, strbuf_cstr(g->out) + at);
    strbuf_truncate(g->out, at);
    strbuf_puts(g->out, strbuf_cstr(&copy));
    strbuf_puts(g->out, strbuf_cstr(&tail));
    if (ui.smem_bytes > g->smem)
        g->smem = ui.smem_bytes;
    strbuf_free(&tail);
    strbuf_free(&copy);
    strbuf_free(&u);
}

bool cgen_emit(const ir_kernel *k, const cgen_options *o, strbuf *src, cgen_info *info,
               cgen_fault *f)
{
    cg g = {.k = k, .o = o, .out = src, .info = info, .f = f, .hoisted = -1};
    f->pc = -1;
    f->why[0] = 0;
    f->resources = false;
    memset(info, 0, sizeof *info);
    g.T = o->num_warps * o->target.warp_size;
    if (o->num_warps < 1 || o->num_warps > 32 || (o->num_warps & (o->num_warps - 1)))
        return cg_fail(&g, -1, "num_warps=%d: the GPU backends take a power of two from 1 to 32",
                       o->num_warps);
    size_t ns = (size_t)(k->nslots > 0 ? k->nslots : 1);
    g.writes = calloc(ns, sizeof *g.writes);
    g.last_write = calloc(ns, sizeof *g.last_write);
    g.entry_made = calloc(ns, 1);
    g.def = calloc(ns, sizeof *g.def);
    g.pure = calloc(ns, 1);
    g.label = calloc((size_t)k->ncode + 1, 1);
    g.land_stored = calloc((size_t)k->ncode + 1, 1);
    g.lay = calloc(ns, sizeof *g.lay);
    g.alias = calloc(ns, 1);
    g.abase = calloc(ns, sizeof *g.abase);
    g.axis = malloc(ns * sizeof *g.axis);
    size_t nc = (size_t)k->ncode + 1;
    g.fuse_into = malloc(nc * sizeof *g.fuse_into);
    g.fuse_which = calloc(nc, sizeof *g.fuse_which);
    g.fused = calloc(nc, 1);
    g.fuse_first = malloc(nc * sizeof *g.fuse_first);
    g.inplace = malloc(nc * sizeof *g.inplace);
    g.skip = calloc(nc, 1);
    g.staged = calloc(nc, 1);
    g.moved = calloc(nc, 1);
    g.pipe_head = malloc(nc * sizeof *g.pipe_head);
    g.pf_dot = malloc(nc * sizeof *g.pf_dot);
    g.hoist_head = malloc(nc * sizeof *g.hoist_head);
    g.pipe_async = calloc(nc, 1);
    g.packed = calloc(ns, 1);
    g.pend_at = calloc(nc, 1);
    g.counted = calloc(nc, 1);
    g.tracked = calloc(ns, 1);
    g.check_at = malloc(nc * sizeof *g.check_at);
    g.whole = calloc(nc, 1);
    int64_t *numel = malloc(ns * sizeof *numel);
    for (int32_t s = 0; numel && s < k->nslots; s++)
        numel[s] = ir_type_numel(cg_type(&g, s));
    if (numel && g.tracked)
        affine_track(k, numel, g.tracked);
    free(numel);
    if (!g.packed || !g.pend_at || !g.counted || !g.tracked || !g.check_at || !g.whole || !g.inplace || !g.skip || !g.staged || !g.moved ||
        !g.pipe_head || !g.pf_dot || !g.hoist_head || !g.pipe_async ||
        !g.writes || !g.last_write || !g.entry_made || !g.def || !g.pure || !g.label || !g.land_stored || !g.lay || !g.alias || !g.abase || !g.axis ||
        !g.fuse_into || !g.fuse_which || !g.fused || !g.fuse_first) {
        cg_fail(&g, -1, "out of memory");
        goto done;
    }
    analyse(&g);
    if (!axis_analyse(k, g.axis)) {
        cg_fail(&g, -1, "out of memory");
        goto done;
    }
    cg_pick_vec(&g);
    cg_find_affine(&g);
    if (!cg_assign_layouts(&g)) {
        cg_fail(&g, -1, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < nc; i++)
        g.fuse_into[i] = g.fuse_first[i] = g.inplace[i] = g.pipe_head[i] = g.pf_dot[i] = g.hoist_head[i] = -1;
    cg_find_fused_loads(&g);
    cg_find_pipelined(&g);
    cg_find_hoisted(&g);
    cg_find_packed(&g);
    cg_find_counted(&g);
    cg_find_checks(&g);
    for (int32_t s = 0; s < k->nslots; s++) {
        int64_t n = ir_type_numel(cg_type(&g, s));
        if (g.writes[s] && n > g.T && n % g.T != 0) {
            cg_fail(&g, g.def[s], "a tile of %" PRId64 " elements does not divide among the "
                    "%d threads of a program", n, g.T);
            goto done;
        }
    }

    cg_printf(&g, "// %s: generated by tritsim from its kernel IR (doc/ir.md)\n", k->name);
    cgen_expr_prelude(src, &o->target);
    cgen_rt_prelude(&g);
    if (uses_wgmma(&g))
        cgen_wgmma_prelude(&g);
    g.sig_at = src->len;
    emit_signature(&g);
    g.stored = false;
    size_t copy_at = 0;
    for (int32_t pc = 0; pc < k->ncode && !g.failed; pc++) {
        const ir_inst *in = &k->code[pc];
        cg_emit_entry_checks(&g, pc);
        if (pc == g.entry_end)
            copy_at = src->len;
        if (g.label[pc]) {
            cg_emit_hoisted(&g, pc);
            emit_loop_entry_test(&g, pc);
            cg_printf(&g, "%s%d:;\n", cg_labels(&g), pc);
            g.stored |= g.land_stored[pc] != 0;
            g.pending |= g.pend_at[pc] != 0;
        }
        cg_emit_checks(&g, pc);
        if (in->op == IR_NOP || g.skip[pc] || g.moved[pc])
            continue;
        bool ok;
        if (g.pipe_head[pc] >= 0) {
            ok = cg_emit_pipelined_dot(&g, pc);
        } else if (g.pf_dot[pc] >= 0) {
            int32_t d = g.pf_dot[pc];
            if (g.pipe_async[d])
                cg_printf(&g, "if (tk_L%d == 0) {\n", d);
            else
                cg_printf(&g, "if (!tk_pf%d) {\n", d);
            ok = cg_emit_at(&g, pc);
            cg_printf(&g, "}\n");
        } else {
            ok = cg_emit_at(&g, pc);
        }
        if (!ok)
            break;
    }
    if (!g.failed) {
        if (g.label[k->ncode])
            cg_printf(&g, "%s%d:;\n", cg_labels(&g), k->ncode);
        g.pending |= g.pend_at[k->ncode] != 0;
        cg_check_stop(&g);
        cg_printf(&g, "}\n");
        if (copy_at && cg_entry_checks_all(&g))
            emit_unchecked_copy(&g, copy_at);
        cg_check_functions(&g);
        info->threads = g.T;
        info->smem_bytes = g.smem;
        info->int_ptrs = g.int_ptrs;
        if (o->max_smem && g.smem > o->max_smem) {
            cg_fail(&g, -1, "the kernel needs %zu bytes of shared memory per program, more than "
                    "the %zu the GPU has: use smaller blocks", g.smem, o->max_smem);
            f->resources = true;
        }
    }
done:
    free(g.writes);
    free(g.last_write);
    free(g.entry_made);
    free(g.def);
    free(g.pure);
    free(g.label);
    free(g.land_stored);
    free(g.lay);
    free(g.alias);
    free(g.abase);
    free(g.axis);
    free(g.fuse_into);
    free(g.fuse_which);
    free(g.fused);
    free(g.fuse_first);
    free(g.inplace);
    free(g.skip);
    free(g.staged);
    free(g.moved);
    free(g.pipe_head);
    free(g.pf_dot);
    free(g.hoist_head);
    free(g.pipe_async);
    free(g.packed);
    free(g.pend_at);
    free(g.counted);
    free(g.tracked);
    free(g.check_at);
    free(g.whole);
    strbuf_free(&g.fns);
    return !g.failed;
}
