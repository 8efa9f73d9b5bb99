/* combine.c - Triton's combine rewrites that change what a kernel computes,
 * applied to each specialization's IR (combine.h).
 *
 * Triton's compiler rewrites `x + tl.dot(a, b)` (either order, float or
 * int) into `tl.dot(a, b, x)` when the dot had no accumulator (or a zero
 * one) and its result has no other use.  On the GPU that is one matrix
 * instruction D = A B + C, whose sum continues from x instead of adding x
 * to a finished product: the rounding differs, so a simulator that wants
 * the GPU's bits must make the same rewrite.  tritsim's DOT continues from
 * its accumulator too (gemm.h), so after this pass `acc += tl.dot(a, b)`
 * and `acc = tl.dot(a, b, acc)` give the same bits, as they do in Triton.
 *
 * The fused DOT takes the add's place and the dot's own instruction becomes
 * a NOP, so instruction numbers (jump targets, the debugger's statement
 * table) stay as they were. */
#include "combine.h"

#include <stdlib.h>

#include "arena.h"

/* Slot use counts: how many operands read each slot and how many
 * instructions write it. */
typedef struct combine_uses {
    int32_t *reads, *writers;
    bool *target;             /* jump targets */
} combine_uses;

static void combine_count(const ir_kernel *k, combine_uses *u)
{
    for (int32_t pc = 0; pc < k->ncode; pc++) {
        const ir_inst *in = &k->code[pc];
        int32_t ops[IR_MAX_READS];
        int n = ir_reads(in, ops);
        for (int i = 0; i < n; i++)
            if (ops[i] < k->nslots)
                u->reads[ops[i]]++;
        if (ir_writes_dst(in))
            u->writers[in->dst]++;
        if ((in->op == IR_JUMP || in->op == IR_BRANCH) && in->imm >= 0 && in->imm <= k->ncode)
            u->target[in->imm] = true;
    }
    for (int32_t i = 0; i < k->nprints; i++)   /* prints show slots too */
        for (int32_t j = 0; j < k->prints[i].npieces; j++)
            if (k->prints[i].pieces[j].slot >= 0)
                u->reads[k->prints[i].pieces[j].slot]++;
}

static bool combine_same_type(const ir_type *a, const ir_type *b)
{
    if (a->dt != b->dt || a->ndim != b->ndim)
        return false;
    for (int d = 0; d < a->ndim; d++)
        if (a->shape[d] != b->shape[d])
            return false;
    return true;
}

/* Is slot c a zero accumulator: none, or a constant 0 written once? */
static bool combine_zero_acc(const ir_kernel *k, const combine_uses *u, int32_t c,
                             int32_t before)
{
    if (c < 0)
        return true;
    if (u->writers[c] != 1)
        return false;
    for (int32_t q = 0; q < before; q++) {
        const ir_inst *in = &k->code[q];
        if (in->dst == c && ir_writes_dst(in))
            return in->op == IR_CONST && in->imm == 0 && in->fimm == 0.0;
    }
    return false;
}

/* The pc of the DOT that writes slot d, when it can fuse into the add at
 * pc: the dot's result is read there only, its accumulator is zero, and
 * the code from it to the add is straight-line and leaves its operands
 * alone (so the product is the same at the add's place).  -1 otherwise. */
static int32_t combine_dot_for(const ir_kernel *k, const combine_uses *u, int32_t pc,
                               int32_t d)
{
    if (u->reads[d] != 1 || u->writers[d] != 1)
        return -1;
    int32_t pd = pc - 1;
    for (; pd >= 0; pd--) {
        const ir_inst *in = &k->code[pd];
        if (u->target[pd + 1])
            return -1;
        if (in->op == IR_JUMP || in->op == IR_BRANCH || in->op == IR_RETURN)
            return -1;
        if (ir_writes_dst(in) && in->dst == d)
            break;
    }
    if (pd < 0)
        return -1;
    const ir_inst *dot = &k->code[pd];
    if (dot->op != IR_DOT || !combine_zero_acc(k, u, dot->c, pd))
        return -1;
    /* Triton keeps fp8 x fp8 products apart on Hopper-class GPUs, the one
     * tritsim simulates: they allow imprecise accumulation. */
    if (dtype_is_fp8(k->slots[dot->a].type.dt) && dtype_is_fp8(k->slots[dot->b].type.dt))
        return -1;
    for (int32_t q = pd + 1; q < pc; q++) {
        const ir_inst *in = &k->code[q];
        if (ir_writes_dst(in) && (in->dst == dot->a || in->dst == dot->b))
            return -1;
    }
    return pd;
}

void combine_kernel(ir_kernel *k)
{
    combine_uses u = {
        .reads = xcalloc((size_t)k->nslots + 1, sizeof *u.reads),
        .writers = xcalloc((size_t)k->nslots + 1, sizeof *u.writers),
        .target = xcalloc((size_t)k->ncode + 1, sizeof *u.target),
    };
    combine_count(k, &u);
    for (int32_t pc = 0; pc < k->ncode; pc++) {
        ir_inst *add = &k->code[pc];
        if (add->op != IR_BINARY || add->sub != IR_ADD || add->a == add->b)
            continue;
        /* x + dot, then dot + x: the order Triton's patterns are tried in */
        int32_t sides[2][2] = {{add->b, add->a}, {add->a, add->b}};
        for (int i = 0; i < 2; i++) {
            int32_t d = sides[i][0], x = sides[i][1];
            const ir_type *td = &k->slots[d].type, *tx = &k->slots[x].type;
            if (!combine_same_type(td, &k->slots[add->dst].type) ||
                (!combine_same_type(td, tx) && !(tx->ndim == 0 && tx->dt == td->dt)))
                continue;
            int32_t pd = combine_dot_for(k, &u, pc, d);
            if (pd < 0)
                continue;
            ir_inst fused = k->code[pd];
            if (fused.c >= 0)
                u.reads[fused.c]--;
            fused.dst = add->dst;
            fused.c = x;
            u.reads[d]--;
            u.writers[d]--;
            *add = fused;
            k->code[pd] = (ir_inst){.op = IR_NOP, .dst = -1, .a = -1, .b = -1, .c = -1,
                                    .d = -1, .at = fused.at, .frame = fused.frame};
            break;
        }
    }
    free(u.reads);
    free(u.writers);
    free(u.target);
}
