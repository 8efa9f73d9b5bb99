/* cgen_pipe.c - software pipelining of a tl.dot's loop.  In the usual
 *
 *     for k in range(...):
 *         acc += tl.dot(tl.load(a_ptrs), tl.load(b_ptrs))
 *         a_ptrs += ...; b_ptrs += ...
 *
 * each round waits for its loads before its arithmetic, and with few
 * programs an SM nothing else hides that wait.  Pipelined, a round puts the
 * operands it holds in registers into shared memory, runs the loop's scalar
 * tail early (the pointer steps and the counter: nothing there reads the
 * DOT), evaluates the loop's condition, loads the next round's operands if
 * there is a next round, and only then computes, so that those loads are in
 * flight during the arithmetic.  The first round loads in place (tk_pfN
 * says whether the operands are there already).  Nothing that can be
 * observed moves: the loop holds no store, print or other side effect, and
 * a failed check of a next round's load stops the program before anything
 * after the DOT could have shown its result.
 *
 * On tensor cores, where the operands' loads write shared memory directly
 * (cg_find_fused_loads), later rounds' go through cp.async into a ring of
 * num_stages buffers instead (pipe_async): no registers held, so large
 * tiles qualify, and up to num_stages - 1 rounds load while one computes.
 * The loop's own state then runs ahead of the round being computed: the
 * tail has run once for each round loaded.  tk_L<pc> counts the rounds
 * loaded and not yet computed; the head's branch leaves the loop only when
 * that is 0, where the state is the one the loop would have ended with
 * anyway (nothing in the loop but its branch reads the condition).
 * On wgmma (cgen_wgmma.c) with three buffers or more, each round's MMAs
 * are still running while the next round waits for its operands: one
 * buffer fewer is loaded ahead, and the loop's exit waits for the last. */
#include "cgen_impl.h"

#pragma GCC diagnostic error "-Wswitch"
#pragma GCC diagnostic error "-Wswitch-enum"

/* An instruction that only computes a scalar or moves a pointer tile held
 * as base + offset (cg_find_affine), with no side effect. */
static bool scalar_step(const cg *g, const ir_inst *in)
{
    switch ((ir_opcode)in->op) {
    case IR_NOP:
        return true;
    case IR_CONST: case IR_BINARY: case IR_UNARY: case IR_CMP: case IR_CAST: case IR_COPY:
    case IR_PTR_ADD: case IR_WHERE: case IR_MATH:
        return in->dst >= 0 && (cg_scalar(g, in->dst) || g->abase[in->dst] >= 0);
    case IR_PROGRAM_ID: case IR_NUM_PROGRAMS: case IR_ARG: case IR_ARANGE: case IR_BITCAST:
    case IR_BROADCAST: case IR_RESHAPE: case IR_TRANS: case IR_FLIP: case IR_CONCAT:
    case IR_SLICE: case IR_GATHER: case IR_HISTOGRAM: case IR_LOAD: case IR_STORE:
    case IR_ATOMIC: case IR_DOT: case IR_REDUCE: case IR_SCAN: case IR_PRINT: case IR_ASSERT:
    case IR_BREAKPOINT: case IR_JUMP: case IR_BRANCH: case IR_RETURN:
        return false;
    }
    return false;
}

static bool reads_slot(const ir_inst *in, int32_t s)
{
    int32_t rd[IR_MAX_READS];
    int n = ir_reads(in, rd);
    for (int i = 0; i < n; i++)
        if (rd[i] == s)
            return true;
    return false;
}

/* 32-bit registers a thread holds for slot s. */
static int64_t regs_of(const cg *g, int32_t s)
{
    int64_t n = ir_type_numel(cg_type(g, s)) / g->T;
    return dtype_size(dtype_elem(cg_dt(g, s))) > 4 ? 2 * n : n;
}

/* Can DOT d's loop be pipelined: its head, else -1.  loads[]: the operand
 * LOADs (one when a and b are one tile); *async: through cp.async. */
static int32_t pipelinable(const cg *g, int32_t d, int32_t loads[2], int *nloads, bool *async)
{
    const ir_kernel *k = g->k;
    const ir_inst *in = &k->code[d];
    if (g->o->num_stages < 2 || g->label[d])
        return -1;
    /* the tail: scalar steps up to the jump back */
    int32_t J = d + 1;
    for (; J < k->ncode && k->code[J].op != IR_JUMP; J++) {
        const ir_inst *t = &k->code[J];
        if (g->label[J] || g->skip[J])
            continue;
        if (!scalar_step(g, t) || reads_slot(t, in->dst) || t->dst == in->c ||
            t->dst == in->dst)
            return -1;
    }
    if (J >= k->ncode || g->label[J])
        return -1;
    for (int32_t x = d + 1; x <= J; x++)
        if (g->label[x])
            return -1;
    int32_t H = (int32_t)k->code[J].imm;
    if (H < 0 || H + 1 >= d || !g->label[H])
        return -1;
    const ir_inst *cmp = &k->code[H], *br = &k->code[H + 1];
    if (cmp->op != IR_CMP || cmp->dst < 0 || !cg_scalar(g, cmp->dst) || br->op != IR_BRANCH ||
        br->a != cmp->dst || br->imm <= J)
        return -1;
    /* between the head and the DOT: its operand loads and scalar steps
     * that those loads do not read */
    *nloads = 0;
    int32_t ops[2] = {in->a, in->b};
    for (int w = 0; w < 2; w++) {
        int32_t p = g->def[ops[w]];
        if (w == 1 && in->b == in->a)
            break;
        if (p <= H + 1 || p >= d || k->code[p].op != IR_LOAD)
            return -1;
        loads[(*nloads)++] = p;
    }
    for (int32_t x = H + 2; x < d; x++) {
        const ir_inst *t = &k->code[x];
        if (g->label[x])
            return -1;
        if (x == loads[0] || (*nloads == 2 && x == loads[1]))
            continue;
        if (!scalar_step(g, t))
            return -1;
        for (int i = 0; i < *nloads; i++) {
            const ir_inst *l = &k->code[loads[i]];
            if (t->dst >= 0 && (t->dst == l->a || t->dst == l->b || t->dst == l->c))
                return -1;
        }
    }
    /* tensor cores with both operands loaded straight into shared memory,
     * where only the head's branch reads its condition */
    *async = g->lay[in->dst].kind == CGEN_MMA && cgen_dialect_of(&g->o->target)->ptx &&
             g->o->target.arch >= 80 &&
             (g->fused[d] & 3) == 3 && in->a != in->b;
    for (int32_t x = H + 2; *async && x <= J; x++)
        *async = !reads_slot(&k->code[x], cmp->dst);
    if (*async)
        return H;
    /* the next round's operands wait in registers beside the accumulator:
     * only where they leave room (a large tile would spill) */
    int64_t regs = regs_of(g, in->dst) + regs_of(g, in->a) + (in->b != in->a ? regs_of(g, in->b) : 0);
    if (regs > 128)
        return -1;
    return H;
}

void cg_find_pipelined(cg *g)
{
    const ir_kernel *k = g->k;
    for (int32_t d = 0; d < k->ncode; d++) {
        if (k->code[d].op != IR_DOT)
            continue;
        int32_t loads[2];
        int n = 0;
        bool async = false;
        int32_t H = pipelinable(g, d, loads, &n, &async);
        if (H < 0)
            continue;
        g->pipe_head[d] = H;
        g->pipe_async[d] = async;
        /* through registers, the operands are not loaded into shared
         * memory in place (cg_find_fused_loads) */
        if (!async) {
            g->fused[d] = 0;
            g->fuse_first[d] = -1;
        }
        for (int i = 0; i < n; i++) {
            if (!async)
                g->fuse_into[loads[i]] = -1;
            g->pf_dot[loads[i]] = d;
        }
        for (int32_t x = d + 1; k->code[x].op != IR_JUMP; x++)
            if (k->code[x].op != IR_NOP && !g->skip[x])
                g->moved[x] = 1;
    }
}

int cg_pipe_ring(const cg *g, int32_t d)
{
    if (!g->pipe_async[d])
        return 1;
    size_t bytes = cgen_dot_stage_bytes(g, &g->k->code[d]);
    int n = g->o->num_stages < 2 ? 2 : g->o->num_stages > 8 ? 8 : g->o->num_stages;
    /* on wgmma, one more for the round whose MMAs still run (on the H100,
     * the 4096^3 fp16 GEMM in 128x256x64 tiles ran at 385 TFLOP/s with 3
     * stages and 3 buffers, 461 with 4 and 4) */
    if (cgen_wgmma_dot(g, &g->k->code[d]))
        n++;
    while (n > 2 && g->o->max_smem && (size_t)n * bytes > g->o->max_smem)
        n--;
    return n;
}

bool cg_pipe_wgmma_defer(const cg *g, int32_t d)
{
    return g->pipe_async[d] && cgen_wgmma_dot(g, &g->k->code[d]) && cg_pipe_ring(g, d) >= 3;
}

int32_t cg_pipe_ring_at_branch(const cg *g, int32_t pc)
{
    for (int32_t d = 0; d < g->k->ncode; d++)
        if (g->pipe_async[d] && g->pipe_head[d] + 1 == pc)
            return d;
    return -1;
}

/* tk_nb or tk_cur: the next buffer of DOT d's ring */
static void ring_step(cg *g, int32_t d, const char *var)
{
    size_t bytes = cgen_dot_stage_bytes(g, &g->k->code[d]);
    size_t last = bytes * (size_t)(cg_pipe_ring(g, d) - 1);
    cg_printf(g, "%s%d = %s%d == %zu ? 0 : %s%d + %zu;\n", var, d, var, d, last, var, d, bytes);
}

/* The async form: wait for this round's buffer, then keep up to `ahead`
 * rounds loading behind it while it computes (ring - 1, or ring - 2 where
 * the round before's wgmma may still be reading its buffer). */
static bool emit_ring(cg *g, int32_t d)
{
    const ir_kernel *k = g->k;
    int32_t H = g->pipe_head[d];
    int ring = cg_pipe_ring(g, d);
    /* on wgmma, a round's arithmetic goes on until the next round's is
     * issued: its buffer is not loaded again until the round after */
    bool defer = cg_pipe_wgmma_defer(g, d);
    int ahead = ring - 1 - (defer ? 1 : 0);
    cg_printf(g, "/* %d: dot, pipelined (cgen_pipe.c): a ring of %d shared-memory buffers, "
              "up to %d rounds loading while one computes */\n", d, ring, ahead);
    /* the first round was loaded in place */
    cg_printf(g, "if (tk_L%d == 0) {\n"
              "asm volatile(\"cp.async.commit_group;\" ::: \"memory\");\n"
              "tk_L%d = 1;\n", d, d);
    ring_step(g, d, "tk_nb");
    cg_printf(g, "}\n");
    /* this round's group is done when at most tk_L - 1 later ones are not */
    for (int w = ring - 2; w > 0; w--)
        cg_printf(g, "if (tk_L%d > %d) asm volatile(\"cp.async.wait_group %d;\" ::: \"memory\");\n"
                  "else ", d, w, w);
    cg_printf(g, "asm volatile(\"cp.async.wait_group 0;\" ::: \"memory\");\n");
    /* (and every thread is done with the buffer the next load overwrites) */
    cgen_wgmma_fence(g, d);
    cg_barrier(g);
    g->staged[d] = 1;
    /* wgmma's MMAs are issued first, and run while the loads are */
    if (defer && !cg_emit_at(g, d))
        return false;
    cg_printf(g, "while (tk_L%d < %d && !tk_end%d) {\n", d, ahead + 1, d);
    for (int32_t x = d + 1; k->code[x].op != IR_JUMP; x++)
        if (g->moved[x] && !cg_emit_at(g, x))
            return false;
    if (!cg_emit_at(g, H))
        return false;
    cg_printf(g, "if (!(s%d)) {\ntk_end%d = true;\nbreak;\n}\n", k->code[H].dst, d);
    for (int32_t x = H + 2; x < d; x++)
        if (g->pf_dot[x] == d && !cg_emit_at(g, x))
            return false;
    cg_printf(g, "asm volatile(\"cp.async.commit_group;\" ::: \"memory\");\ntk_L%d++;\n", d);
    ring_step(g, d, "tk_nb");
    cg_printf(g, "}\n");
    if (defer)      /* the last round's MMAs are done: its buffer is free */
        cg_printf(g, "asm volatile(\"wgmma.wait_group.sync.aligned 1;\" ::: \"memory\");\n");
    else if (!cg_emit_at(g, d))
        return false;
    ring_step(g, d, "tk_cur");
    cg_printf(g, "tk_L%d--;\n", d);
    return true;
}

bool cg_emit_pipelined_dot(cg *g, int32_t d)
{
    const ir_kernel *k = g->k;
    int32_t H = g->pipe_head[d];
    if (g->pipe_async[d])
        return emit_ring(g, d);
    cg_printf(g, "/* %d: dot, pipelined (cgen_pipe.c): its operands into shared memory, the "
              "loop's tail, the next round's loads, then the arithmetic */\n", d);
    cgen_dot_stage_operands(g, d);
    for (int32_t x = d + 1; k->code[x].op != IR_JUMP; x++)
        if (g->moved[x] && !cg_emit_at(g, x))
            return false;
    if (!cg_emit_at(g, H))
        return false;
    cg_printf(g, "tk_pf%d = s%d != 0;\nif (tk_pf%d) {\n", d, k->code[H].dst, d);
    for (int32_t x = H + 2; x < d; x++)
        if (g->pf_dot[x] == d && !cg_emit_at(g, x))
            return false;
    cg_printf(g, "}\n");
    return cg_emit_at(g, d);
}
