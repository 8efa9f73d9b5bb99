/* affine.c - the backends' shared affine analysis (affine.h): which
 * instructions make affine records and which slots are tracked, the
 * dtype ranges records must stay in, and the axis rules of BROADCAST and
 * RESHAPE.  The tracked slots are the largest set closed under "every
 * writer is a record-making instruction whose record operands are tracked
 * or scalars". */
#include "affine.h"

#include <stdlib.h>
#include <string.h>

#include "arena.h"

/* A value missing from a switch over an enum is an error here (ir.h) */
#pragma GCC diagnostic error "-Wswitch"
#pragma GCC diagnostic error "-Wswitch-enum"

bool affine_is_index(dtype t)
{
    return !dtype_is_ptr(t) && dtype_is_int(t) && t != DTYPE_INT1;
}

static dtype slot_dt(const ir_kernel *k, int32_t s)
{
    return k->slots[s].type.dt;
}

bool affine_makes_record(const ir_kernel *k, const ir_inst *in)
{
    dtype t = slot_dt(k, in->dst);
    bool index = affine_is_index(t), ptr = dtype_is_ptr(t), box = t == DTYPE_INT1;
    switch ((ir_opcode)in->op) {
    case IR_CONST:
        return index || ptr || box;
    case IR_ARANGE:
        return true;
    case IR_COPY: case IR_RESHAPE: case IR_BROADCAST:
        return index || ptr || box;
    case IR_CAST:
        return in->sub == IR_CAST_PLAIN && index && affine_is_index(slot_dt(k, in->a));
    case IR_BINARY:
        if (index)
            return in->sub == IR_ADD || in->sub == IR_SUB || in->sub == IR_MUL;
        return box && in->sub == IR_AND;
    case IR_CMP:
        return box && affine_is_index(slot_dt(k, in->a)) && affine_is_index(slot_dt(k, in->b));
    case IR_PTR_ADD:
        return ptr && affine_is_index(slot_dt(k, in->b));
    case IR_PROGRAM_ID: case IR_NUM_PROGRAMS: case IR_ARG: case IR_TRANS: case IR_FLIP:
    case IR_CONCAT: case IR_SLICE: case IR_GATHER: case IR_HISTOGRAM: case IR_BITCAST:
    case IR_UNARY: case IR_WHERE: case IR_MATH: case IR_LOAD: case IR_STORE:
    case IR_ATOMIC: case IR_DOT: case IR_REDUCE: case IR_SCAN: case IR_PRINT:
    case IR_ASSERT: case IR_BREAKPOINT: case IR_JUMP: case IR_BRANCH: case IR_RETURN:
    case IR_NOP:
        break;
    }
    return false;
}

int affine_record_operands(const ir_inst *in, int32_t *ops)
{
    switch ((ir_opcode)in->op) {
    case IR_COPY: case IR_RESHAPE: case IR_BROADCAST: case IR_CAST:
        ops[0] = in->a;
        return 1;
    case IR_BINARY: case IR_CMP: case IR_PTR_ADD:
        ops[0] = in->a;
        ops[1] = in->b;
        return 2;
    case IR_CONST: case IR_PROGRAM_ID: case IR_NUM_PROGRAMS: case IR_ARG: case IR_ARANGE:
    case IR_TRANS: case IR_FLIP: case IR_CONCAT: case IR_SLICE: case IR_GATHER:
    case IR_HISTOGRAM: case IR_BITCAST: case IR_UNARY: case IR_WHERE: case IR_MATH:
    case IR_LOAD: case IR_STORE: case IR_ATOMIC: case IR_DOT: case IR_REDUCE:
    case IR_SCAN: case IR_PRINT: case IR_ASSERT: case IR_BREAKPOINT: case IR_JUMP:
    case IR_BRANCH: case IR_RETURN: case IR_NOP:
        break;
    }
    return 0;
}

void affine_track(const ir_kernel *k, const int64_t *numel, uint8_t *flags)
{
    int32_t ns = k->nslots, nc = k->ncode;
    memset(flags, 0, (size_t)ns);
    /* Start from every non-scalar slot whose writers all make records... */
    int32_t *writers = xcalloc((size_t)ns + 1, sizeof *writers);
    bool *refused = xcalloc((size_t)ns + 1, sizeof *refused);
    for (int32_t pc = 0; pc < nc; pc++) {
        const ir_inst *in = &k->code[pc];
        if (!ir_writes_dst(in))
            continue;
        writers[in->dst]++;
        if (!affine_makes_record(k, in))
            refused[in->dst] = true;
    }
    for (int32_t s = 0; s < ns; s++)
        if (writers[s] > 0 && !refused[s] && numel[s] > 1 &&
            k->slots[s].type.ndim <= AFFINE_MAX_DIM)
            flags[s] = AFFINE_TRACKED;
    /* ... then drop those fed by an untracked tile, until nothing changes. */
    for (bool changed = true; changed;) {
        changed = false;
        for (int32_t pc = 0; pc < nc; pc++) {
            const ir_inst *in = &k->code[pc];
            if (in->dst < 0 || !(flags[in->dst] & AFFINE_TRACKED))
                continue;
            int32_t ops[2];
            int n = affine_record_operands(in, ops);
            for (int i = 0; i < n; i++)
                if (numel[ops[i]] != 1 && !(flags[ops[i]] & AFFINE_TRACKED)) {
                    flags[in->dst] = 0;
                    changed = true;
                    break;
                }
        }
    }
    free(writers);
    free(refused);
}

bool affine_dtype_range(dtype t, int64_t *min, int64_t *max)
{
    if (dtype_is_ptr(t))
        return false;
    switch (t) {
    case DTYPE_INT8: *min = INT8_MIN; *max = INT8_MAX; return true;
    case DTYPE_INT16: *min = INT16_MIN; *max = INT16_MAX; return true;
    case DTYPE_INT32: *min = INT32_MIN; *max = INT32_MAX; return true;
    case DTYPE_INT64: *min = INT64_MIN; *max = INT64_MAX; return true;
    case DTYPE_UINT8: *min = 0; *max = UINT8_MAX; return true;
    case DTYPE_UINT16: *min = 0; *max = UINT16_MAX; return true;
    case DTYPE_UINT32: *min = 0; *max = UINT32_MAX; return true;
    case DTYPE_UINT64: *min = 0; *max = INT64_MAX; return true;
    case DTYPE_INT1: *min = 0; *max = 1; return true;
    case DTYPE_INVALID: case DTYPE_FP8E4NV: case DTYPE_FP8E5: case DTYPE_FP16:
    case DTYPE_BF16: case DTYPE_FP32: case DTYPE_FP64: case DTYPE__NSCALAR: case DTYPE_PTR:
        break;
    }
    return false;
}

int affine_bcast_axis(const ir_type *ta, const ir_type *td, int d)
{
    int j = d - (td->ndim - ta->ndim);
    return j < 0 || ta->shape[j] == 1 ? -1 : j;
}

bool affine_reshape_axes(const ir_type *ta, const ir_type *td, int *map)
{
    int ja = 0;
    for (int d = 0; d < td->ndim; d++) {
        map[d] = -1;
        if (td->shape[d] == 1)
            continue;
        while (ja < ta->ndim && ta->shape[ja] == 1)
            ja++;
        if (ja >= ta->ndim || ta->shape[ja] != td->shape[d])
            return false;
        map[d] = ja++;
    }
    while (ja < ta->ndim && ta->shape[ja] == 1)
        ja++;
    return ja == ta->ndim;
}
