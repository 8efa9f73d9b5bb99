/* fastpath.c - which slots the executor can keep as affine records and
 * which instructions take its fast paths (fastpath.h).  A few passes over
 * the IR: the tracked slots are the shared analysis's (affine.h, which the
 * GPU emitter uses too); lazy slots are tracked slots that no reader needs
 * as lanes. */
#include "fastpath.h"

#include <stdlib.h>
#include <string.h>

#include "affine.h"
#include "arena.h"
#include "dtype.h"

/* A value missing from a switch over an enum is an error here (ir.h) */
#pragma GCC diagnostic error "-Wswitch"
#pragma GCC diagnostic error "-Wswitch-enum"

_Static_assert((int)AFFINE_TRACKED == (int)FASTPATH_TRACKED, "affine_track sets slot_flags");

static const ir_type *fastpath_type(const ir_kernel *k, int32_t s)
{
    return &k->slots[s].type;
}

static bool fastpath_same_shape(const ir_type *a, const ir_type *b)
{
    if (a->ndim != b->ndim)
        return false;
    for (int d = 0; d < a->ndim; d++)
        if (a->shape[d] != b->shape[d])
            return false;
    return true;
}

/* Instructions whose result depends only on their operands and the
 * launch (not on the program id or memory). */
static bool fastpath_pure(const ir_inst *in)
{
    switch ((ir_opcode)in->op) {
    case IR_CONST: case IR_ARANGE: case IR_ARG: case IR_NUM_PROGRAMS: case IR_COPY:
    case IR_BROADCAST: case IR_RESHAPE: case IR_CAST: case IR_UNARY: case IR_BINARY:
    case IR_CMP: case IR_WHERE: case IR_PTR_ADD: case IR_MATH:
        return true;
    case IR_PROGRAM_ID: case IR_TRANS: case IR_FLIP: case IR_CONCAT: case IR_SLICE:
    case IR_GATHER: case IR_HISTOGRAM: case IR_BITCAST: case IR_LOAD: case IR_STORE:
    case IR_ATOMIC: case IR_DOT: case IR_REDUCE: case IR_SCAN: case IR_PRINT:
    case IR_ASSERT: case IR_BREAKPOINT: case IR_JUMP: case IR_BRANCH: case IR_RETURN:
    case IR_NOP:
        break;
    }
    return false;
}

/* A load or store whose pointer tile is tracked, points into one known
 * argument, and has the shape of every lane the access touches. */
static bool fastpath_memory_ok(const ir_kernel *k, const int64_t *numel,
                               const uint8_t *slot_flags, const ir_inst *in)
{
    if (in->op != IR_LOAD && in->op != IR_STORE)
        return false;
    if (!(slot_flags[in->a] & FASTPATH_TRACKED) || k->slots[in->a].ptr_arg < 0)
        return false;
    const ir_type *tp = fastpath_type(k, in->a);
    int32_t mask = in->op == IR_LOAD ? in->b : in->c;
    int32_t data = in->op == IR_LOAD ? in->dst : in->b;
    int32_t other = in->op == IR_LOAD ? in->c : -1;
    if (numel[data] != numel[in->a] && numel[data] != 1)
        return false;
    if (numel[data] == numel[in->a] && !fastpath_same_shape(tp, fastpath_type(k, data)))
        return false;
    if (mask >= 0 && numel[mask] != 1 &&
        !fastpath_same_shape(tp, fastpath_type(k, mask)))
        return false;
    if (other >= 0 && numel[other] != 1 && numel[other] != numel[in->a])
        return false;
    return true;
}

/* S = dot(a, b, X) at pc (what combine.c makes of `acc += tl.dot(a, b)`,
 * or an explicit accumulator), over fp32 tiles of one shape that the
 * product can work in, X not an operand. */
static bool fastpath_dot_acc(const ir_kernel *k, const int64_t *numel, int32_t pc)
{
    const ir_inst *dot = &k->code[pc];
    if (dot->op != IR_DOT || dot->c < 0)
        return false;
    int32_t S = dot->dst, X = dot->c;
    const ir_type *ta = fastpath_type(k, dot->a), *tb = fastpath_type(k, dot->b);
    dtype da = ta->dt, db = tb->dt;
    if (!dtype_is_float(da) || !dtype_is_float(db) || da == DTYPE_FP64 || db == DTYPE_FP64 ||
        fastpath_type(k, S)->dt != DTYPE_FP32 || fastpath_type(k, X)->dt != DTYPE_FP32)
        return false;
    return X != S && X != dot->a && X != dot->b && numel[X] == numel[S];
}

/* Does instruction q name slot s anywhere (operands, the value slot of a
 * compare-and-swap, the slots its print shows)? */
static bool fastpath_touches(const ir_kernel *k, const ir_inst *q, int32_t s)
{
    int32_t ops[IR_MAX_READS];
    int n = ir_reads(q, ops);
    for (int i = 0; i < n; i++)
        if (ops[i] == s)
            return true;
    if (q->dst == s)
        return true;
    const ir_print *pr = ir_inst_print(k, q);
    for (int32_t j = 0; pr && j < pr->npieces; j++)
        if (pr->pieces[j].slot == s)
            return true;
    return false;
}

/* For the dot at pc (S = dot(a, b, X)): the pc of `copy X <- S` when it
 * is the only reader of S and straight-line code between the two leaves X
 * and S alone; -1 otherwise. */
static int32_t fastpath_inplace_copy(const ir_kernel *k, const int32_t *reads,
                                     const bool *target, int32_t pc)
{
    int32_t S = k->code[pc].dst, X = k->code[pc].c;
    if (reads[S] != 1)
        return -1;
    for (int32_t q = pc + 1; q < k->ncode; q++) {
        const ir_inst *in = &k->code[q];
        if (target[q])
            return -1;
        if (in->op == IR_COPY && in->a == S && in->dst == X)
            return q;
        if (in->op == IR_JUMP || in->op == IR_BRANCH || in->op == IR_RETURN ||
            fastpath_touches(k, in, X) || fastpath_touches(k, in, S))
            return -1;
    }
    return -1;
}

/* Operand s of the fp32 dot at pc, loaded at an earlier pc by an unmasked
 * fast-path load that nothing else reads, with only instructions between
 * that neither write memory nor jump. */
static int32_t fastpath_view_load(const ir_kernel *k, const int32_t *reads,
                                  const int32_t *writers, const uint8_t *inst_flags,
                                  const bool *target, int32_t pc, int32_t s)
{
    const ir_inst *dot = &k->code[pc];
    if (reads[s] != 1 || writers[s] != 1 || dot->a == dot->b ||
        fastpath_type(k, s)->dt != DTYPE_FP32 || fastpath_type(k, s)->ndim != 2)
        return -1;
    for (int32_t q = pc - 1; q >= 0; q--) {
        const ir_inst *in = &k->code[q];
        if (target[q + 1])
            return -1;
        if (in->op == IR_LOAD && in->dst == s)
            return (inst_flags[q] & FASTPATH_MEMORY) && in->b < 0 ? q : -1;
        if (in->op == IR_STORE || in->op == IR_ATOMIC || in->op == IR_JUMP ||
            in->op == IR_BRANCH || in->op == IR_RETURN)
            return -1;
    }
    return -1;
}

void fastpath_analyse(const ir_kernel *k, const int64_t *numel, bool allow_lazy,
                      uint8_t *slot_flags, uint8_t *inst_flags)
{
    int32_t ns = k->nslots, nc = k->ncode;
    memset(slot_flags, 0, (size_t)ns);
    memset(inst_flags, 0, (size_t)nc);
    for (int32_t pc = 0; pc < nc; pc++)
        if (k->code[pc].op == IR_BREAKPOINT)
            allow_lazy = false;

    /* The tracked slots: affine.h's (AFFINE_TRACKED is FASTPATH_TRACKED). */
    affine_track(k, numel, slot_flags);
    int32_t *writers = xcalloc((size_t)ns + 1, sizeof *writers);
    for (int32_t pc = 0; pc < nc; pc++)
        if (ir_writes_dst(&k->code[pc]))
            writers[k->code[pc].dst]++;
    for (int32_t pc = 0; pc < nc; pc++) {
        const ir_inst *in = &k->code[pc];
        if (in->dst >= 0 && (slot_flags[in->dst] & FASTPATH_TRACKED) &&
            affine_makes_record(k, in))
            inst_flags[pc] |= FASTPATH_RECORD;
        if (fastpath_memory_ok(k, numel, slot_flags, in))
            inst_flags[pc] |= FASTPATH_MEMORY;
    }

    /* Lazy: tracked, and every read is one that understands records. */
    int32_t *reads = xcalloc((size_t)ns + 1, sizeof *reads);
    bool *needs_lanes = xcalloc((size_t)ns + 1, sizeof *needs_lanes);
    bool *target = xcalloc((size_t)nc + 1, sizeof *target);
    for (int32_t pc = 0; pc < nc; pc++) {
        const ir_inst *in = &k->code[pc];
        if ((in->op == IR_JUMP || in->op == IR_BRANCH) && in->imm >= 0 && in->imm <= nc)
            target[in->imm] = true;
        int32_t ops[IR_MAX_READS], rec[2] = {-1, -1};
        int n = ir_reads(in, ops), nr = 0;
        if (inst_flags[pc] & FASTPATH_RECORD)
            nr = affine_record_operands(in, rec);
        if (inst_flags[pc] & FASTPATH_MEMORY) {
            rec[0] = in->a;
            rec[1] = in->op == IR_LOAD ? in->b : in->c;
            nr = 2;
        }
        for (int i = 0; i < n; i++) {
            reads[ops[i]]++;
            bool aware = false;
            for (int j = 0; j < nr; j++)
                aware |= rec[j] == ops[i];
            if (!aware)
                needs_lanes[ops[i]] = true;
        }
    }
    for (int32_t i = 0; i < k->nprints; i++)
        for (int32_t j = 0; j < k->prints[i].npieces; j++) {
            int32_t s = k->prints[i].pieces[j].slot;
            if (s >= 0) {
                needs_lanes[s] = true;
                reads[s]++;
            }
        }
    if (allow_lazy)
        for (int32_t s = 0; s < ns; s++)
            if ((slot_flags[s] & FASTPATH_TRACKED) && !needs_lanes[s])
                slot_flags[s] |= FASTPATH_LAZY;

    /* acc = tl.dot(a, b, acc): the product continues in acc itself. */
    for (int32_t pc = 0; allow_lazy && pc < nc; pc++)
        if (fastpath_dot_acc(k, numel, pc)) {
            int32_t q = fastpath_inplace_copy(k, reads, target, pc);
            if (q >= 0 && numel[k->code[q].dst] == numel[k->code[pc].dst]) {
                inst_flags[pc] |= FASTPATH_DOT_INPLACE;
                inst_flags[q] |= FASTPATH_COPY_SKIP;
            }
        }

    /* Program-invariant instructions: the least set closed under "pure,
     * the only writer of its slot, every operand invariant". */
    bool *invariant = xcalloc((size_t)ns + 1, sizeof *invariant);
    for (bool changed = allow_lazy; changed;) {
        changed = false;
        for (int32_t pc = 0; pc < nc; pc++) {
            const ir_inst *in = &k->code[pc];
            if (in->dst < 0 || invariant[in->dst] || writers[in->dst] != 1 ||
                !fastpath_pure(in) || (inst_flags[pc] & FASTPATH_COPY_SKIP))
                continue;
            int32_t ops[IR_MAX_READS];
            int n = ir_reads(in, ops);
            bool all = true;
            for (int i = 0; i < n; i++)
                all &= ops[i] != in->dst && invariant[ops[i]];
            if (all) {
                invariant[in->dst] = true;
                inst_flags[pc] |= FASTPATH_INVARIANT;
                changed = true;
            }
        }
    }

    /* fp32 operands of a 2-d dot that gemm_f32 can read where they lie */
    for (int32_t pc = 0; allow_lazy && pc < nc; pc++) {
        const ir_inst *dot = &k->code[pc];
        if (dot->op != IR_DOT || dot->imm == IR_PREC_TF32 ||
            fastpath_type(k, dot->a)->ndim != 2 ||
            fastpath_type(k, dot->dst)->dt == DTYPE_FP64 ||
            !dtype_is_float(fastpath_type(k, dot->a)->dt) ||
            !dtype_is_float(fastpath_type(k, dot->b)->dt) ||
            fastpath_type(k, dot->a)->dt == DTYPE_FP64 ||
            fastpath_type(k, dot->b)->dt == DTYPE_FP64)
            continue;
        int32_t ops[2] = {dot->a, dot->b};
        for (int i = 0; i < 2; i++) {
            int32_t q = fastpath_view_load(k, reads, writers, inst_flags, target, pc, ops[i]);
            if (q >= 0) {
                inst_flags[q] |= FASTPATH_LOAD_VIEW;
                slot_flags[ops[i]] |= FASTPATH_VIEW;
            }
        }
    }
    free(writers);
    free(invariant);
    free(needs_lanes);
    free(reads);
    free(target);
}
