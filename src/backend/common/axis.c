/* axis.c - the last-axis facts of axis.h: a transfer rule per instruction
 * and the kernel-wide fixpoint that joins a slot's definitions. */
#include "axis.h"

#include <stdlib.h>

#include "affine.h"
#include "dtype.h"

#pragma GCC diagnostic error "-Wswitch"
#pragma GCC diagnostic error "-Wswitch-enum"

/* "Not computed yet": the start of the fixpoint, above every fact. */
static const axis_info TOP = {0, 0, AXIS_WHOLE};
/* Nothing known. */
static const axis_info NONE = {1, 0, 1};

static bool is_top(const axis_info *x) { return x->run == 0; }

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

/* The largest power of two dividing v, at most AXIS_WHOLE (0: AXIS_WHOLE). */
static int64_t pow2_of(int64_t v)
{
    uint64_t u = (uint64_t)v;
    if (u == 0)
        return AXIS_WHOLE;
    u &= ~u + 1;
    return u >= (uint64_t)AXIS_WHOLE ? AXIS_WHOLE : (int64_t)u;
}

/* a * b for powers of two, at most AXIS_WHOLE. */
static int64_t pow2_mul(int64_t a, int64_t b)
{
    return a >= AXIS_WHOLE / b ? AXIS_WHOLE : a * b;
}

int64_t axis_div_at(const axis_info *x, int64_t r)
{
    if (x->run <= 1 || r % x->run == 0 || x->stride == 0)
        return x->div;
    /* the lanes at multiples of r inside a run: its first value plus
     * multiples of r * stride, which the power of two dividing the stride
     * times r divides */
    return min64(x->div, pow2_mul(pow2_of(x->stride), r));
}

bool axis_chunks_step(const axis_info *x, int64_t v, int64_t step)
{
    return x->run > 1 && x->run % v == 0 && x->stride == step;
}

/* Equal lanes along the axis (a scalar, or a tile constant along it). */
static axis_info flat(int64_t div)
{
    return (axis_info){AXIS_WHOLE, 0, div};
}

/* The facts of two values both of which a slot may hold. */
static axis_info meet(axis_info x, axis_info y)
{
    if (is_top(&x))
        return y;
    if (is_top(&y))
        return x;
    int64_t r = min64(x.run, y.run);
    if (x.stride == y.stride)
        return (axis_info){r, x.stride, min64(axis_div_at(&x, r), axis_div_at(&y, r))};
    return (axis_info){1, 0, min64(axis_div_at(&x, 1), axis_div_at(&y, 1))};
}

typedef struct ax {
    const ir_kernel *k;
    axis_info *info;
    uint8_t *known;         /* per slot: one CONST of an index dtype alone
                               writes it, value[s] */
    int64_t *value;
} ax;

static const ir_type *ty(const ax *a, int32_t s) { return &a->k->slots[s].type; }

static int64_t last_len(const ir_type *t)
{
    return t->ndim == 0 ? 1 : t->shape[t->ndim - 1];
}

/* The integer constant slot s holds, when one CONST alone writes it. */
static bool const_of(const ax *a, int32_t s, int64_t *v)
{
    *v = a->value[s];
    return a->known[s] == 1;
}

static void find_consts(ax *a)
{
    const ir_kernel *k = a->k;
    for (int32_t pc = 0; pc < k->ncode; pc++) {
        const ir_inst *in = &k->code[pc];
        if (in->dst < 0 || in->dst >= k->nslots || in->op == IR_STORE)
            continue;
        bool c = in->op == IR_CONST && affine_is_index(k->slots[in->dst].type.dt);
        /* 1: one CONST; 2: anything else or more than one writer */
        a->known[in->dst] = a->known[in->dst] == 0 && c ? 1 : 2;
        a->value[in->dst] = in->imm;
    }
}

/* x * y where y is equal along the axis with divisor dy and, when known,
 * the constant value c. */
static axis_info times(axis_info x, int64_t dy, bool known, int64_t c)
{
    if (known) {
        if (c == 0)
            return flat(AXIS_WHOLE);
        int64_t s = x.stride;
        /* (strides are small: a product that could overflow is not kept) */
        if (s > (int64_t)1 << 30 || s < -((int64_t)1 << 30) || c > (int64_t)1 << 30 ||
            c < -((int64_t)1 << 30))
            return (axis_info){1, 0, pow2_mul(axis_div_at(&x, 1), pow2_of(c))};
        return (axis_info){x.run, s * c, pow2_mul(x.div, pow2_of(c))};
    }
    if (x.stride == 0)
        return (axis_info){x.run, 0, pow2_mul(x.div, dy)};
    return (axis_info){1, 0, pow2_mul(axis_div_at(&x, 1), dy)};
}

/* Lanes stepping by s within runs of r whose first values d divides;
 * nothing known where s overflowed. */
static axis_info runs(int64_t r, bool overflow, int64_t s, int64_t d)
{
    return overflow ? NONE : (axis_info){r, s, d};
}

static axis_info binary(const ax *a, const ir_inst *in)
{
    axis_info x = a->info[in->a], y = a->info[in->b];
    if (is_top(&x) || is_top(&y))
        return TOP;
    int64_t r = min64(x.run, y.run);
    int64_t c = 0;
    switch ((ir_binop)in->sub) {
    case IR_ADD: {
        int64_t s;
        bool o = __builtin_add_overflow(x.stride, y.stride, &s);
        return runs(r, o, s, min64(axis_div_at(&x, r), axis_div_at(&y, r)));
    }
    case IR_SUB: {
        int64_t s;
        bool o = __builtin_sub_overflow(x.stride, y.stride, &s);
        return runs(r, o, s, min64(axis_div_at(&x, r), axis_div_at(&y, r)));
    }
    case IR_MUL:
        if (y.stride == 0 && y.run == AXIS_WHOLE) {
            bool known = const_of(a, in->b, &c);
            return times(x, y.div, known, c);
        }
        if (x.stride == 0 && x.run == AXIS_WHOLE) {
            bool known = const_of(a, in->a, &c);
            return times(y, x.div, known, c);
        }
        return (axis_info){1, 0, pow2_mul(axis_div_at(&x, 1), axis_div_at(&y, 1))};
    case IR_SHL:
        if (y.stride == 0 && y.run == AXIS_WHOLE && const_of(a, in->b, &c) && c >= 0 && c < 31)
            return times(x, AXIS_WHOLE, true, (int64_t)1 << c);
        return NONE;
    case IR_MOD: {
        /* x % n with n equal along the axis: a run of x stepping by one
         * stays consecutive between multiples of n, so it splits into runs
         * as long as the powers of two that divide both n and where x's
         * runs start (C's remainder or Python's: either way the pieces
         * start at multiples of n, and of the new run length) */
        if (y.stride != 0 || y.run != AXIS_WHOLE)
            return NONE;
        int64_t dn = const_of(a, in->b, &c) ? pow2_of(c) : y.div;
        if (x.stride == 0)
            return (axis_info){x.run, 0, min64(x.div, dn)};
        if (x.stride != 1)
            return (axis_info){1, 0, min64(axis_div_at(&x, 1), dn)};
        int64_t rr = min64(x.run, min64(x.div, dn));
        if (rr < 2)
            return (axis_info){1, 0, min64(axis_div_at(&x, 1), dn)};
        return (axis_info){rr, 1, min64(axis_div_at(&x, rr), dn)};
    }
    case IR_DIV: case IR_FLOORDIV: case IR_AND: case IR_OR: case IR_XOR: case IR_SHR:
    case IR_MIN: case IR_MAX: case IR_MIN_NAN: case IR_MAX_NAN: case IR_POW: case IR_ATAN2:
    case IR_FDIV_RN:
        /* lanes equal along the axis stay equal */
        if (x.stride == 0 && y.stride == 0)
            return (axis_info){r, 0, 1};
        return NONE;
    }
    return NONE;
}

/* BROADCAST or RESHAPE of a into dst. */
static axis_info reshaped(const ax *a, const ir_inst *in)
{
    axis_info x = a->info[in->a];
    if (is_top(&x))
        return TOP;
    const ir_type *td = ty(a, in->dst), *ta = ty(a, in->a);
    int64_t ld = last_len(td), la = last_len(ta);
    /* equal along the new last axis: every lane of a may be anywhere */
    if (ld == 1 || ta->ndim == 0 || la == 1)
        return flat(axis_div_at(&x, 1));
    /* the same last axis: each row of dst is a row of a (row-major) */
    if (ld == la)
        return x;
    /* RESHAPE cutting a's rows into rows of ld (a power of two): runs cut
     * at ld */
    if (in->op == IR_RESHAPE && la % ld == 0 && (ld & (ld - 1)) == 0) {
        int64_t r = min64(x.run, ld);
        if (r == ld)
            return (axis_info){AXIS_WHOLE, x.stride, axis_div_at(&x, ld)};
        return (axis_info){r, x.stride, axis_div_at(&x, r)};
    }
    return (axis_info){1, 0, axis_div_at(&x, 1)};
}

static axis_info transfer(const ax *a, const ir_inst *in)
{
    const ir_kernel *k = a->k;
    dtype dt = k->slots[in->dst].type.dt;
    if (!affine_is_index(dt) && !dtype_is_ptr(dt))
        return NONE;
    switch ((ir_opcode)in->op) {
    case IR_CONST:
        return flat(pow2_of(in->imm));
    case IR_ARG:
        return flat(in->imm >= 0 && in->imm < k->nparams && k->params[in->imm].div16 ? 16 : 1);
    case IR_ARANGE:
        return (axis_info){AXIS_WHOLE, 1, pow2_of(in->imm)};
    case IR_COPY:
        return a->info[in->a];
    case IR_CAST: {
        dtype from = k->slots[in->a].type.dt;
        bool same = dtype_is_ptr(from) ? dtype_is_ptr(dt)
                    : affine_is_index(from) && affine_is_index(dt) &&
                      dtype_size(dt) >= dtype_size(from);
        return same ? a->info[in->a] : NONE;
    }
    case IR_BROADCAST: case IR_RESHAPE:
        return reshaped(a, in);
    case IR_BINARY:
        return binary(a, in);
    case IR_PTR_ADD: {
        axis_info x = a->info[in->a], y = a->info[in->b];
        if (is_top(&x) || is_top(&y))
            return TOP;
        int64_t esz = (int64_t)dtype_size(dtype_elem(dt));
        axis_info b = times(y, AXIS_WHOLE, true, esz);
        int64_t r = min64(x.run, b.run), s;
        bool o = __builtin_add_overflow(x.stride, b.stride, &s);
        return runs(r, o, s, min64(axis_div_at(&x, r), axis_div_at(&b, r)));
    }
    case IR_PROGRAM_ID: case IR_NUM_PROGRAMS: case IR_TRANS: case IR_FLIP: case IR_CONCAT:
    case IR_SLICE: case IR_GATHER: case IR_HISTOGRAM: case IR_BITCAST: case IR_UNARY:
    case IR_CMP: case IR_WHERE: case IR_MATH: case IR_LOAD: case IR_STORE: case IR_ATOMIC:
    case IR_DOT: case IR_REDUCE: case IR_SCAN: case IR_PRINT: case IR_ASSERT:
    case IR_BREAKPOINT: case IR_JUMP: case IR_BRANCH: case IR_RETURN: case IR_NOP:
        return NONE;
    }
    return NONE;
}

/* The facts in their one form for slot s: where lanes are not known to
 * follow each other, no stride; a scalar, or a tile whose last axis has
 * one lane, is one run of equal lanes. */
static axis_info norm(const ax *a, int32_t s, axis_info x)
{
    if (is_top(&x))
        return x;
    if (last_len(ty(a, s)) == 1)
        return flat(x.div);
    if (x.run == 1)
        x.stride = 0;
    return x;
}

static bool same(const axis_info *x, const axis_info *y)
{
    return x->run == y->run && x->stride == y->stride && x->div == y->div;
}

bool axis_analyse(const ir_kernel *k, axis_info *out)
{
    size_t n = (size_t)k->nslots + 1;
    ax a = {k, out, calloc(n, 1), malloc(n * sizeof *a.value)};
    if (!a.known || !a.value) {
        free(a.known);
        free(a.value);
        return false;
    }
    find_consts(&a);
    for (int32_t s = 0; s < k->nslots; s++)
        out[s] = TOP;
    /* each slot holds the meet of everything its definitions have given
     * so far, in program order, round after round until nothing moves:
     * the rules are monotone, so the facts only narrow, and they settle
     * within a few rounds (the bound is a guard) */
    bool changed = true;
    for (int round = 0; changed && round < 100; round++) {
        changed = false;
        for (int32_t pc = 0; pc < k->ncode; pc++) {
            const ir_inst *in = &k->code[pc];
            if (in->dst < 0 || in->dst >= k->nslots || in->op == IR_STORE)
                continue;
            axis_info m = norm(&a, in->dst, meet(out[in->dst], transfer(&a, in)));
            if (!same(&m, &out[in->dst])) {
                out[in->dst] = m;
                changed = true;
            }
        }
    }
    /* a slot read but never written would have let its readers' other
     * definitions speak alone: trust nothing then (no well-formed kernel
     * has one) */
    for (int32_t pc = 0; pc < k->ncode && !changed; pc++) {
        int32_t rd[IR_MAX_READS];
        int nr = ir_reads(&k->code[pc], rd);
        for (int i = 0; i < nr; i++)
            if (rd[i] >= 0 && rd[i] < k->nslots && is_top(&out[rd[i]]))
                changed = true;
    }
    /* not settled, or never written: nothing known */
    for (int32_t s = 0; s < k->nslots; s++)
        if (changed || is_top(&out[s]))
            out[s] = NONE;
    free(a.known);
    free(a.value);
    return true;
}
