/* fuzz_gen.c - the differential fuzzer's kernel generator (fuzz_gen.h).
 *
 * A kernel is one layout (1-D: programs along one axis, tiles [B]; 2-D: a
 * grid of [BM, BN] blocks of an M x N matrix), a preamble that makes the
 * index tiles (offs, mask), then random statements over a pool of typed
 * variables, each `vK = <one operation>`: loads, arithmetic, comparisons,
 * casts, reductions, shapes, loops and ifs with carried values, a dot
 * loop, atomics; and finally stores of some of the variables.
 *
 * The generator knows each variable's dtype and shape: dtypes of binary
 * operators come from dtype_binop (the specializer's own typing rules);
 * where a result's dtype would take knowing more (reductions, math), the
 * statement casts it to a dtype of its choice.  Shapes are tracked as
 * which axes a value spans: in 2-D a value may be [BM, BN] (F), a scalar
 * (S), a row or column vector [BN]/[BM] (VN/VM, from reductions and vector
 * loads, used as x[None, :] / x[:, None]) or [1, BN]/[BM, 1] (RN/CM, from
 * keep_dims and from operators on those).
 *
 * Buffers are sized exactly for what the kernel touches (masked-off lanes
 * then point past the end, or before the start), and each output buffer
 * is stored by one statement whose programs write disjoint elements. */
#include "fuzz_gen.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint64_t fz_rand(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* ---- the generator's state ------------------------------------------------- */

typedef enum shape { SH_S, SH_F, SH_VM, SH_VN, SH_CM, SH_RN } shape;

typedef struct var {
    char name[16];
    dtype dt;
    shape sh;
} var;

enum { MAX_VARS = 96, TEXT = 640 };

typedef struct gen {
    uint64_t r;
    fz_kernel *k;
    strbuf body;
    int depth;              /* indentation below the def's body */
    int twod;               /* the layout: 0 1-D, 1 2-D */
    int64_t B, BM, BN, g, gm, gn, n, M, N, it;
    var v[MAX_VARS];
    int nv;
    int ids;                /* names made so far: v0, v1, ... (never reused,
                               so that branches and loops never give one
                               name two types) */
    int nout;               /* output buffers so far */
    bool in_loop;
} gen;

/* An operand: its text, dtype, whether it is a Python number (and its
 * value), and which axes it spans (1-D: rows only). */
typedef struct opnd {
    char t[TEXT];
    dtype dt;
    bool lit;
    dtype_scalar val;
    int rows, cols;
} opnd;

/* Text into a TEXT-sized buffer; a kernel too long for it is a bug here. */
static void put(char *dst, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(char *dst, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(dst, TEXT, fmt, ap);
    va_end(ap);
    if (n >= TEXT) {
        fprintf(stderr, "fuzz_gen: an expression longer than %d bytes\n", TEXT);
        abort();
    }
}

static int below(gen *g, int n)
{
    return n <= 1 ? 0 : (int)(fz_rand(&g->r) % (uint64_t)n);
}

static bool chance(gen *g, int pct)
{
    return below(g, 100) < pct;
}

static void line(gen *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void line(gen *g, const char *fmt, ...)
{
    strbuf_repeat(&g->body, ' ', (size_t)(4 * (g->depth + 1)));
    va_list ap;
    va_start(ap, fmt);
    strbuf_vprintf(&g->body, fmt, ap);
    va_end(ap);
    strbuf_putc(&g->body, '\n');
}

static const char *tl(dtype t)
{
    static char buf[4][32];
    static int at;
    char *b = buf[at++ & 3];
    snprintf(b, sizeof buf[0], "tl.%s", dtype_tl_name(t));
    return b;
}

/* A dtype for data: fp32 and int32 most often. */
static dtype pick_dt(gen *g)
{
    static const dtype w[] = {
        DTYPE_FP32, DTYPE_FP32, DTYPE_FP32, DTYPE_INT32, DTYPE_INT32, DTYPE_INT32,
        DTYPE_FP16, DTYPE_FP16, DTYPE_BF16, DTYPE_BF16, DTYPE_INT8, DTYPE_INT8,
        DTYPE_INT64, DTYPE_INT64, DTYPE_UINT8, DTYPE_UINT32, DTYPE_INT16, DTYPE_UINT16,
        DTYPE_UINT64, DTYPE_FP64,
    };
    return w[below(g, (int)(sizeof w / sizeof w[0]))];
}

static const char *buf_add(gen *g, dtype dt, int64_t numel, bool output)
{
    fz_kernel *k = g->k;
    if (k->nbuf == FZ_MAX_BUF)
        return NULL;
    fz_buf *b = &k->buf[k->nbuf];
    snprintf(b->name, sizeof b->name, "%s%d", output ? "out" : "in", k->nbuf);
    b->dt = dt;
    b->numel = numel < 1 ? 1 : numel;
    b->output = output;
    b->zero = false;
    k->nbuf++;
    return b->name;
}

static void scal_add(gen *g, const char *name, dtype dt, dtype_scalar v)
{
    fz_scal *s = &g->k->scal[g->k->nscal++];
    snprintf(s->name, sizeof s->name, "%s", name);
    s->dt = dt;
    s->v = v;
}

static void const_add(gen *g, const char *name, int64_t v)
{
    fz_const *c = &g->k->cons[g->k->nconst++];
    snprintf(c->name, sizeof c->name, "%s", name);
    c->v = v;
}

static var *var_new(gen *g, dtype dt, shape sh)
{
    if (g->nv == MAX_VARS)
        g->nv--;                        /* reuse the last name's slot */
    var *v = &g->v[g->nv];
    snprintf(v->name, sizeof v->name, "v%d", g->ids++);
    v->dt = dt;
    v->sh = sh;
    g->nv++;
    return v;
}

static void var_named(gen *g, const char *name, dtype dt, shape sh)
{
    var *v = &g->v[g->nv++];
    snprintf(v->name, sizeof v->name, "%s", name);
    v->dt = dt;
    v->sh = sh;
}

/* ---- operands ----------------------------------------------------------------- */

enum { P_ANY, P_NUM, P_INT, P_FLOAT, P_BOOL, P_INT_NOBOOL };

static bool pred_ok(dtype t, int pred)
{
    switch (pred) {
    case P_ANY: return true;
    case P_NUM: return t != DTYPE_INT1;
    case P_INT: return dtype_is_int(t);
    case P_INT_NOBOOL: return dtype_is_int(t) && t != DTYPE_INT1;
    case P_FLOAT: return dtype_is_float(t);
    case P_BOOL: return t == DTYPE_INT1;
    }
    return false;
}

static void opnd_of_var(gen *g, const var *v, opnd *o)
{
    memset(o, 0, sizeof *o);
    o->dt = v->dt;
    switch (v->sh) {
    case SH_S: put(o->t, "%s", v->name); break;
    case SH_F: put(o->t, "%s", v->name); o->rows = 1; o->cols = g->twod; break;
    case SH_VM: put(o->t, "%s[:, None]", v->name); o->rows = 1; break;
    case SH_VN: put(o->t, "%s[None, :]", v->name); o->cols = 1; break;
    case SH_CM: put(o->t, "%s", v->name); o->rows = 1; break;
    case SH_RN: put(o->t, "%s", v->name); o->cols = 1; break;
    }
}

/* A random variable satisfying pred, preferring full tiles when full;
 * false when there is none. */
static bool pick_var(gen *g, int pred, bool full, opnd *o)
{
    int idx[MAX_VARS], n = 0, nf = 0, idf[MAX_VARS];
    for (int i = 0; i < g->nv; i++)
        if (pred_ok(g->v[i].dt, pred)) {
            idx[n++] = i;
            if (g->v[i].sh == SH_F)
                idf[nf++] = i;
        }
    if (!n)
        return false;
    /* recent variables more often, so that chains form */
    int i;
    if (full && nf)
        i = chance(g, 50) ? idf[nf - 1 - below(g, nf < 4 ? nf : 4)] : idf[below(g, nf)];
    else
        i = chance(g, 50) ? idx[n - 1 - below(g, n < 4 ? n : 4)] : idx[below(g, n)];
    opnd_of_var(g, &g->v[i], o);
    return true;
}

static void lit_int(gen *g, opnd *o)
{
    static const int64_t vals[] = {0, 1, 2, 3, 5, 7, -1, -3, -7, 100, 127, 255, -128,
                                   65535, 2147483647, -2147483647 - 1, 1ll << 33};
    int64_t v = vals[below(g, chance(g, 75) ? 9 : (int)(sizeof vals / sizeof vals[0]))];
    memset(o, 0, sizeof *o);
    put(o->t, "%lld", (long long)v);
    o->lit = true;
    o->val.i = v;
    o->dt = dtype_of_pyint(v);
}

static void lit_float(gen *g, opnd *o)
{
    static const char *txt[] = {"0.5", "-1.5", "2.0", "3.25", "0.0", "-0.0", "1e-3",
                                "1e30", "-65504.0", "float('inf')", "1e-40"};
    static const double val[] = {0.5, -1.5, 2.0, 3.25, 0.0, -0.0, 1e-3, 1e30, -65504.0,
                                 1.0 / 0.0, 1e-40};
    int i = below(g, chance(g, 70) ? 5 : (int)(sizeof val / sizeof val[0]));
    memset(o, 0, sizeof *o);
    put(o->t, "%s", txt[i]);
    o->lit = true;
    o->val.f = val[i];
    o->dt = dtype_of_pyfloat(val[i]);
}

/* An operand: a variable (pred), or sometimes a Python number. */
static bool pick_opnd(gen *g, int pred, bool full, opnd *o)
{
    if (pred != P_BOOL && chance(g, 20)) {
        if (pred == P_FLOAT || (pred != P_INT && pred != P_INT_NOBOOL && chance(g, 40)))
            lit_float(g, o);
        else
            lit_int(g, o);
        return true;
    }
    return pick_var(g, pred, full, o);
}

static shape shape_of(const gen *g, int rows, int cols)
{
    if (!g->twod)
        return rows ? SH_F : SH_S;
    if (rows && cols)
        return SH_F;
    return rows ? SH_CM : cols ? SH_RN : SH_S;
}

/* The dtype of a op b by Triton's rules, or DTYPE_INVALID. */
static dtype binop_dt(dtype_op op, const opnd *a, const opnd *b)
{
    if (a->lit && b->lit)
        return DTYPE_INVALID;
    dtype_operand oa = {.type = a->dt, .is_scalar = a->lit, .value = a->val};
    dtype_operand ob = {.type = b->dt, .is_scalar = b->lit, .value = b->val};
    dtype_binop_types t;
    char err[256];
    if (!dtype_binop(op, oa, ob, &t, err, sizeof err))
        return DTYPE_INVALID;
    return t.result;
}

/* ---- statements ------------------------------------------------------------------ */

static void assign(gen *g, dtype dt, shape sh, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void assign(gen *g, dtype dt, shape sh, const char *fmt, ...)
{
    char text[2 * TEXT];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    var *v = var_new(g, dt, sh);
    line(g, "%s = %s", v->name, text);
}

static const struct { const char *sym; dtype_op op; } arith_ops[] = {
    {"+", DTYPE_OP_ADD}, {"-", DTYPE_OP_SUB}, {"*", DTYPE_OP_MUL},
    {"/", DTYPE_OP_TRUEDIV}, {"//", DTYPE_OP_FLOORDIV}, {"%", DTYPE_OP_MOD},
    {"&", DTYPE_OP_AND}, {"|", DTYPE_OP_OR}, {"^", DTYPE_OP_XOR},
    {"<<", DTYPE_OP_SHL}, {">>", DTYPE_OP_SHR},
};

static const struct { const char *sym; dtype_op op; } cmp_ops[] = {
    {"<", DTYPE_OP_LT}, {"<=", DTYPE_OP_LE}, {">", DTYPE_OP_GT},
    {">=", DTYPE_OP_GE}, {"==", DTYPE_OP_EQ}, {"!=", DTYPE_OP_NE},
};

static bool st_binary(gen *g)
{
    int i = below(g, 10) < 6 ? below(g, 3) : below(g, (int)(sizeof arith_ops / sizeof arith_ops[0]));
    int pred = i >= 6 ? P_INT_NOBOOL : P_NUM;
    if (i >= 6 && i <= 8 && chance(g, 30))
        pred = P_BOOL;
    opnd a, b;
    if (!pick_opnd(g, pred, true, &a) || !pick_opnd(g, pred == P_BOOL ? P_BOOL : pred, false, &b))
        return false;
    if (chance(g, 50)) {
        opnd t = a;
        a = b;
        b = t;
    }
    dtype dt = binop_dt(arith_ops[i].op, &a, &b);
    if (dt == DTYPE_INVALID)
        return false;
    assign(g, dt, shape_of(g, a.rows | b.rows, a.cols | b.cols), "%s %s %s", a.t,
           arith_ops[i].sym, b.t);
    return true;
}

static bool st_where(gen *g)
{
    opnd c, a, b;
    int i = below(g, 6);
    if (chance(g, 30)) {
        if (!pick_var(g, P_BOOL, true, &c))
            return false;
    } else {
        opnd x, y;
        if (!pick_var(g, P_NUM, true, &x) || !pick_opnd(g, P_NUM, false, &y))
            return false;
        if (binop_dt(cmp_ops[i].op, &x, &y) == DTYPE_INVALID)
            return false;
        put(c.t, "(%s %s %s)", x.t, cmp_ops[i].sym, y.t);
        c.rows = x.rows | y.rows;
        c.cols = x.cols | y.cols;
        c.dt = DTYPE_INT1;
        if (chance(g, 30)) {         /* the comparison itself */
            assign(g, DTYPE_INT1, shape_of(g, c.rows, c.cols), "%s", c.t);
            return true;
        }
    }
    if (!pick_opnd(g, P_NUM, false, &a) || !pick_opnd(g, P_NUM, false, &b))
        return false;
    dtype dt = binop_dt(DTYPE_OP_WHERE, &a, &b);
    if (dt == DTYPE_INVALID)
        return false;
    assign(g, dt, shape_of(g, c.rows | a.rows | b.rows, c.cols | a.cols | b.cols),
           "tl.where(%s, %s, %s)", c.t, a.t, b.t);
    return true;
}

static bool st_unary(gen *g)
{
    opnd a;
    if (!pick_var(g, P_NUM, true, &a))
        return false;
    shape sh = shape_of(g, a.rows, a.cols);
    switch (below(g, 4)) {
    case 0: assign(g, a.dt, sh, "-%s", a.t); return true;
    case 1: assign(g, a.dt, sh, "tl.abs(%s)", a.t); return true;
    case 2:
        if (!dtype_is_int(a.dt))
            return false;
        assign(g, a.dt, sh, "~%s", a.t);
        return true;
    default: {
        opnd b;
        if (!pick_opnd(g, P_NUM, false, &b))
            return false;
        dtype dt = binop_dt(DTYPE_OP_MAXIMUM, &a, &b);
        if (dt == DTYPE_INVALID)
            return false;
        static const char *fn[] = {"tl.maximum", "tl.minimum"};
        const char *prop = dtype_is_float(dt) && chance(g, 30)
                               ? ", propagate_nan=tl.PropagateNan.ALL" : "";
        assign(g, dt, shape_of(g, a.rows | b.rows, a.cols | b.cols), "%s(%s, %s%s)",
               fn[below(g, 2)], a.t, b.t, prop);
        return true;
    }
    }
}

/* Math on fp32/fp64 (the specializer's rule): other dtypes are cast first. */
static void as_float(gen *g, opnd *a, dtype *to)
{
    if (a->dt == DTYPE_FP32 || a->dt == DTYPE_FP64) {
        *to = a->dt;
        return;
    }
    *to = chance(g, 85) ? DTYPE_FP32 : DTYPE_FP64;
    char t[TEXT];
    put(t, "%s.to(%s)", a->t, tl(*to));
    memcpy(a->t, t, TEXT);
    a->dt = *to;
}

static bool st_math(gen *g)
{
    static const char *fn1[] = {"tl.exp", "tl.log", "tl.sqrt", "tl.sin", "tl.cos",
                                "tl.sigmoid", "tl.erf", "tl.floor", "tl.ceil", "tl.exp2",
                                "tl.rsqrt", "tl.log2"};
    opnd a;
    if (!pick_var(g, P_NUM, true, &a))
        return false;
    dtype dt;
    as_float(g, &a, &dt);
    shape sh = shape_of(g, a.rows, a.cols);
    int c = below(g, 10);
    if (c < 7) {
        assign(g, dt, sh, "%s(%s)", fn1[below(g, (int)(sizeof fn1 / sizeof fn1[0]))], a.t);
    } else if (c < 9) {
        opnd b, d;
        if (!pick_var(g, P_NUM, false, &b) || !pick_var(g, P_NUM, false, &d))
            return false;
        char bt[TEXT + 32], dtt[TEXT + 32];
        snprintf(bt, sizeof bt, "%s.to(%s)", b.t, tl(dt));
        snprintf(dtt, sizeof dtt, "%s.to(%s)", d.t, tl(dt));
        assign(g, dt, shape_of(g, a.rows | b.rows | d.rows, a.cols | b.cols | d.cols),
               "tl.fma(%s, %s, %s)", a.t, bt, dtt);
    } else {
        assign(g, dt, sh, "tl.clamp(%s, -2.0, 3.0)", a.t);
    }
    return true;
}

static bool st_cast(gen *g)
{
    opnd a;
    if (!pick_var(g, P_ANY, true, &a))
        return false;
    shape sh = shape_of(g, a.rows, a.cols);
    dtype to = pick_dt(g);
    if (chance(g, 25) && a.dt != DTYPE_INT1) {
        /* a bitcast to a type of the same width */
        static const dtype w16[] = {DTYPE_FP16, DTYPE_BF16, DTYPE_INT16, DTYPE_UINT16};
        static const dtype w32[] = {DTYPE_FP32, DTYPE_INT32, DTYPE_UINT32};
        static const dtype w64[] = {DTYPE_FP64, DTYPE_INT64, DTYPE_UINT64};
        static const dtype w8[] = {DTYPE_INT8, DTYPE_UINT8};
        switch (dtype_bits(a.dt)) {
        case 8: to = w8[below(g, 2)]; break;
        case 16: to = w16[below(g, 4)]; break;
        case 32: to = w32[below(g, 3)]; break;
        default: to = w64[below(g, 3)]; break;
        }
        assign(g, to, sh, "%s.to(%s, bitcast=True)", a.t, tl(to));
        return true;
    }
    if (chance(g, 10))
        to = DTYPE_INT1;
    assign(g, to, sh, "%s.to(%s)", a.t, tl(to));
    return true;
}

static bool st_reduce(gen *g)
{
    static const char *fn[] = {"tl.sum", "tl.max", "tl.min", "tl.argmax", "tl.argmin",
                               "tl.sum", "tl.max", "tl.xor_sum"};
    opnd a;
    if (!pick_var(g, P_NUM, true, &a) || !(a.rows || a.cols))
        return false;
    int f = below(g, 8);
    if (f == 7 && !dtype_is_int(a.dt))
        return false;
    bool arg = f == 3 || f == 4;
    dtype to = arg ? DTYPE_INT32 : pick_dt(g);
    const char *name = fn[f];
    if (g->twod && arg && !(a.rows && a.cols))
        return false;               /* (tl.argmax needs an axis) */
    if (!g->twod || !(a.rows && a.cols)) {
        /* 1-D, or a row/column: everything */
        bool axis = (arg || chance(g, 50)) && !g->twod;
        assign(g, to, SH_S, "%s(%s%s).to(%s)", name, a.t, axis ? ", axis=0" : "", tl(to));
        return true;
    }
    int axis = below(g, arg ? 2 : 3);
    bool keep = axis < 2 && chance(g, 30);
    if (axis == 2) {
        assign(g, to, SH_S, "%s(%s).to(%s)", name, a.t, tl(to));
        return true;
    }
    shape sh = axis == 0 ? (keep ? SH_RN : SH_VN) : (keep ? SH_CM : SH_VM);
    assign(g, to, sh, "%s(%s, axis=%d%s).to(%s)", name, a.t, axis,
           keep ? ", keep_dims=True" : "", tl(to));
    return true;
}

static bool st_scan(gen *g)
{
    var *src = NULL;
    for (int tries = 0; tries < 4 && !src; tries++) {
        var *v = &g->v[below(g, g->nv)];
        if (v->sh == SH_F && v->dt != DTYPE_INT1)
            src = v;
    }
    if (!src)
        return false;
    int axis = g->twod ? below(g, 2) : 0;
    dtype to = pick_dt(g);
    const char *fn = dtype_is_float(src->dt) || chance(g, 70) ? "tl.cumsum" : "tl.cumprod";
    assign(g, to, SH_F, "%s(%s, axis=%d%s).to(%s)", fn, src->name, axis,
           chance(g, 20) ? ", reverse=True" : "", tl(to));
    return true;
}

/* tl.associative_scan / tl.reduce with the module's combine functions
 * (fz_max, fz_add, fz_mul: @triton.jit helpers the module defines), and
 * tl.sort. */
static bool st_combine(gen *g)
{
    var *src = NULL;
    for (int tries = 0; tries < 4 && !src; tries++) {
        var *v = &g->v[below(g, g->nv)];
        if (v->sh == SH_F && v->dt != DTYPE_INT1)
            src = v;
    }
    if (!src)
        return false;
    static const char *fns[] = {"fz_max", "fz_add", "fz_mul", "fz_min"};
    const char *fn = fns[below(g, 4)];
    int axis = g->twod ? below(g, 2) : 0;
    switch (below(g, 3)) {
    case 0:
        assign(g, src->dt, SH_F, "tl.associative_scan(%s, %d, %s%s)", src->name, axis, fn,
               chance(g, 20) ? ", reverse=True" : "");
        return true;
    case 1:
        assign(g, src->dt, g->twod ? (axis ? SH_VM : SH_VN) : SH_S, "tl.reduce(%s, %d, %s)",
               src->name, axis, fn);
        return true;
    default:
        if (g->twod && axis == 0)
            return false;           /* (tl.sort sorts along the last axis) */
        assign(g, src->dt, SH_F, "tl.sort(%s%s)", src->name,
               chance(g, 50) ? ", descending=True" : "");
        return true;
    }
}

static bool st_shape(gen *g)
{
    var *src = NULL;
    for (int tries = 0; tries < 4 && !src; tries++) {
        var *v = &g->v[below(g, g->nv)];
        if (v->sh == SH_F)
            src = v;
    }
    if (!src)
        return false;
    const char *x = src->name;
    if (!g->twod) {
        if (g->B < 2 || chance(g, 30)) {
            assign(g, src->dt, SH_F, "tl.flip(%s, 0)", x);
            return true;
        }
        int64_t a = g->B >= 4 && chance(g, 50) ? 4 : 2;
        assign(g, src->dt, SH_F, "tl.reshape(tl.trans(tl.reshape(%s, (%lld, %lld))), (%lld,))",
               x, (long long)a, (long long)(g->B / a), (long long)g->B);
        return true;
    }
    switch (below(g, 5)) {
    case 0:
        assign(g, src->dt, SH_F, "tl.reshape(tl.trans(%s), (BM, BN))", x);
        return true;
    case 1:
        assign(g, src->dt, SH_F, "tl.trans(tl.reshape(%s, (BN, BM)))", x);
        return true;
    case 2:
        assign(g, src->dt, SH_F, "tl.flip(%s, %d)", x, below(g, 2));
        return true;
    case 3:
        assign(g, src->dt, SH_F, "tl.reshape(tl.flip(tl.reshape(%s, (BM * BN,)), 0), (BM, BN))", x);
        return true;
    default:
        if (g->BM != g->BN)
            return false;
        assign(g, src->dt, SH_F, "%s.T", x);
        return true;
    }
}

static bool st_full(gen *g)
{
    dtype dt = pick_dt(g);
    const char *shp = g->twod ? "(BM, BN)" : "(B,)";
    switch (below(g, 3)) {
    case 0:
        assign(g, dt, SH_F, "tl.full(%s, %s, %s)", shp, dtype_is_float(dt) ? "-2.5" : "3", tl(dt));
        return true;
    case 1:
        assign(g, dt, SH_F, "tl.zeros(%s, dtype=%s)", shp, tl(dt));
        return true;
    default: {
        opnd a;
        if (!pick_var(g, P_ANY, false, &a) || a.rows || a.cols)
            return false;
        assign(g, a.dt, SH_F, "tl.broadcast_to(%s, %s)", a.t, shp);
        return true;
    }
    }
}

/* Data movement the others lack: join/split, gather, histogram, cat;
 * device_print and an assertion that holds. */
static bool st_misc(gen *g)
{
    opnd a;
    if (!pick_var(g, P_ANY, true, &a) || !a.rows || (g->twod && !a.cols))
        return false;
    const char *ar = g->twod ? "BN" : "B";
    switch (below(g, 6)) {
    case 0: {
        opnd b;
        if (!pick_var(g, P_ANY, true, &b))
            return false;
        assign(g, a.dt, SH_F, "tl.split(tl.join(%s, %s.to(%s)))[%d]", a.t, b.t, tl(a.dt),
               below(g, 2));
        return true;
    }
    case 1:
        if (g->twod)
            assign(g, a.dt, SH_F, "tl.gather(%s, tl.broadcast_to(((tl.arange(0, BN) * 5 + %d) %% BN)"
                   "[None, :], (BM, BN)), 1)", a.t, below(g, 4));
        else
            assign(g, a.dt, SH_F, "tl.gather(%s, (tl.arange(0, %s) * 3 + %d) %% %s, 0)", a.t, ar,
                   below(g, 4), ar);
        return true;
    case 2:
        if (g->twod || !dtype_is_int(a.dt))
            return false;
        assign(g, DTYPE_INT32, SH_S, "tl.sum(tl.histogram(%s.to(tl.int32), 8) * tl.arange(0, 8))",
               a.t);
        return true;
    case 3:
        /* (an int sum: the same whatever order can_reorder gives) */
        if (g->twod)
            return false;       /* (1-D tiles only) */
        assign(g, DTYPE_INT32, SH_S, "tl.sum(tl.cat(%s, %s, can_reorder=True).to(tl.int32))",
               a.t, a.t);
        return true;
    case 4: {
        int64_t lanes = g->twod ? g->BM * g->BN : g->B;
        int64_t progs = g->twod ? g->gm * g->gn : g->g;
        if (lanes * progs > 64 || g->in_loop)
            return false;
        line(g, "tl.device_print(\"x\", %s)", a.t);
        return true;
    }
    default:
        line(g, "tl.device_assert(%s == %s, \"same\")", g->twod ? "rm" : "offs",
             g->twod ? "rm" : "offs");
        return true;
    }
}

/* ---- loads ------------------------------------------------------------------------ */

static const char *other_for(gen *g, dtype dt)
{
    if (chance(g, 50))
        return "";
    if (dtype_is_float(dt)) {
        static const char *o[] = {", other=0.0", ", other=-1.5", ", other=float('-inf')",
                                  ", other=float('nan')"};
        return o[below(g, 4)];
    }
    if (dtype_is_signed(dt))
        return chance(g, 50) ? ", other=-1" : ", other=7";
    return ", other=3";
}

/* A dtype for a buffer: also int1 and the fp8 types. */
static dtype pick_buf_dt(gen *g)
{
    int c = below(g, 100);
    if (c < 4)
        return DTYPE_INT1;
    if (c < 6)
        return DTYPE_FP8E5;
    if (c < 8)
        return DTYPE_FP8E4NV;
    return pick_dt(g);
}

static bool st_load(gen *g)
{
    dtype dt = pick_buf_dt(g);
    bool own_other = false;
    int64_t numel;
    char ptr[TEXT], msk[TEXT] = "";
    shape sh = SH_F;
    opnd dm;
    bool have_dm = pick_var(g, P_NUM, true, &dm) && dm.rows && (dm.cols || !g->twod);
    if (!g->twod) {
        int64_t GB = g->g * g->B;
        switch (below(g, 15)) {
        case 0: case 1:
            numel = g->n, put(ptr, "+ offs"), put(msk, "mask");
            break;
        case 12:
            /* int32 index arithmetic that wraps on the way (affine records
             * must give up on it) */
            numel = g->n, put(msk, "mask");
            if (chance(g, 50))
                put(ptr, "+ ((offs + 2147483600) - 2147483600)");
            else
                put(ptr, "+ ((offs + s * 65536 * 32768) - s * 65536 * 32768)");
            break;
        case 13:
            numel = GB, put(ptr, "+ offs");
            put(msk, chance(g, 50) ? "s > 0" : "pid < %d", below(g, 4));
            break;
        case 14: {
            /* other= a tile */
            opnd o;
            if (!pick_var(g, P_ANY, true, &o) || !o.rows)
                return false;
            numel = g->n, put(ptr, "+ offs");
            put(msk, "mask, other=%s%s.to(%s)", o.t,
                     dt == DTYPE_FP8E5 || dt == DTYPE_FP8E4NV ? ".to(tl.float32)" : "", tl(dt));
            own_other = true;
            break;
        }
        case 2:
            numel = GB;
            switch (below(g, 3)) {
            case 0: put(ptr, "+ offs"); break;
            /* a pointer made in steps: scalar, then the lanes */
            case 1: put(ptr, "+ pid * B + tl.arange(0, B)"); break;
            /* masked-off lanes point at element 0 (a select of pointers) */
            default:
                numel = g->n;
                {
                    const char *name = buf_add(g, dt, numel, false);
                    if (!name)
                        return false;
                    assign(g, dt == DTYPE_FP8E5 || dt == DTYPE_FP8E4NV ? DTYPE_FP32 : dt, SH_F,
                           "tl.load(tl.where(mask, %s + offs, %s))%s", name, name,
                           dt == DTYPE_FP8E5 || dt == DTYPE_FP8E4NV ? ".to(tl.float32)" : "");
                    return true;
                }
            }
            break;
        case 3:
            numel = g->n;
            put(ptr, "+ (pid * B + (B - 1) - tl.arange(0, B))");
            put(msk, "(pid * B + (B - 1) - tl.arange(0, B)) < n");
            break;
        case 4:
            numel = 2 * g->n - 1, put(ptr, "+ offs * 2"), put(msk, "mask");
            break;
        case 5: numel = g->g, put(ptr, "+ pid + offs * 0"); break;
        case 6:
            numel = GB, put(ptr, "+ (offs * 5 + 3) %% %lld", (long long)GB);
            break;
        case 7:
            numel = g->n, put(ptr, "+ offs");
            put(msk, "(offs >= %d) & mask", below(g, (int)g->B + 1));
            break;
        case 8:
            numel = g->n, put(ptr, "+ offs");
            put(msk, "mask & (offs %% 3 != 1)");
            break;
        case 9:
            numel = g->n, put(ptr, "+ (offs - 1)");
            put(msk, "(offs >= 1) & mask");
            break;
        case 10:
            if (!have_dm)
                return false;
            numel = g->n, put(ptr, "+ offs");
            put(msk, "mask & (%s > 0)", dm.t);
            break;
        default:
            if (chance(g, 50)) {
                numel = g->n, put(ptr, "+ offs.to(tl.int64)");
                put(msk, "mask");
            } else {
                numel = g->g, put(ptr, "+ pid"), sh = SH_S;
            }
            break;
        }
    } else {
        int64_t MN = g->M * g->N, SP = g->gn * g->BN;
        switch (below(g, 15)) {
        case 0: case 1:
            numel = MN, put(ptr, "+ offs"), put(msk, "mask");
            break;
        case 12:
            numel = MN, put(msk, "mask");
            put(ptr, "+ ((offs + 2147483000) - 2147483000)");
            break;
        case 13:
            numel = g->gm * g->BM * SP;
            put(ptr, "+ rm[:, None] * %lld + rn[None, :]", (long long)SP);
            put(msk, chance(g, 50) ? "s > 0" : "pn < %d", below(g, 3));
            break;
        case 14: {
            opnd o;
            if (!pick_var(g, P_ANY, true, &o) || !o.rows || !o.cols)
                return false;
            numel = MN, put(ptr, "+ offs");
            put(msk, "mask, other=%s%s.to(%s)", o.t,
                     dt == DTYPE_FP8E5 || dt == DTYPE_FP8E4NV ? ".to(tl.float32)" : "", tl(dt));
            own_other = true;
            break;
        }
        case 2:
            numel = MN, put(ptr, "+ rn[None, :] * M + rm[:, None]");
            put(msk, "mask");
            break;
        case 3:
            numel = g->N, put(msk, "mask");
            if (chance(g, 50))
                put(ptr, "+ rn[None, :] + rm[:, None] * 0");
            else {
                /* a row of pointers broadcast to the tile */
                const char *name = buf_add(g, dt, numel, false);
                if (!name)
                    return false;
                bool fp8 = dt == DTYPE_FP8E5 || dt == DTYPE_FP8E4NV;
                assign(g, fp8 ? DTYPE_FP32 : dt, SH_F,
                       "tl.load(tl.broadcast_to(%s + rn[None, :], (BM, BN)), mask=mask)%s", name,
                       fp8 ? ".to(tl.float32)" : "");
                return true;
            }
            break;
        case 4:
            numel = g->M, put(ptr, "+ rm"), put(msk, "rm < M");
            sh = SH_VM;
            break;
        case 5:
            numel = g->N, put(ptr, "+ rn"), put(msk, "rn < N");
            sh = SH_VN;
            break;
        case 6:
            numel = g->gm * g->BM * SP;
            put(ptr, "+ rm[:, None] * %lld + rn[None, :]", (long long)SP);
            break;
        case 7: {
            if (dt == DTYPE_FP8E5 || dt == DTYPE_FP8E4NV)
                dt = DTYPE_FP32;            /* (see fp8 below) */
            numel = g->gm * g->gn * g->BM * g->BN;
            const char *name = buf_add(g, dt, numel, false);
            if (!name)
                return false;
            assign(g, dt, SH_F, "tl.reshape(tl.load(%s + (pm * %lld + pn) * (BM * BN) + "
                   "tl.arange(0, BM * BN)), (BM, BN))", name, (long long)g->gn);
            return true;
        }
        case 8:
            numel = MN, put(ptr, "+ offs");
            put(msk, "mask & ((rm[:, None] + rn[None, :]) %% 2 == 0)");
            break;
        case 9:
            numel = MN, put(ptr, "+ offs - N");
            put(msk, "mask & (rm[:, None] >= 1)");
            break;
        case 10:
            if (!have_dm)
                return false;
            numel = MN, put(ptr, "+ offs");
            put(msk, "mask & (%s > 0)", dm.t);
            break;
        default:
            if (chance(g, 50)) {
                numel = MN > 0 ? MN : 1;
                put(ptr, "+ (offs * 3 + rn[None, :]) %% %lld", (long long)numel);
                put(msk, "mask");
            } else {
                numel = g->gm * g->gn, put(ptr, "+ pm * %lld + pn", (long long)g->gn);
                sh = SH_S;
            }
            break;
        }
    }
    const char *name = buf_add(g, dt, numel, false);
    if (!name)
        return false;
    /* fp8 values are only converted (Triton computes on none of them) */
    bool fp8 = dt == DTYPE_FP8E5 || dt == DTYPE_FP8E4NV;
    const char *conv = fp8 ? ".to(tl.float32)" : "";
    dtype vdt = fp8 ? DTYPE_FP32 : dt;
    if (msk[0])
        assign(g, vdt, sh, "tl.load(%s %s, mask=%s%s)%s", name, ptr, msk,
               own_other || fp8 ? "" : other_for(g, dt), conv);
    else
        assign(g, vdt, sh, "tl.load(%s %s)%s", name, ptr, conv);
    return true;
}

/* ---- stores --------------------------------------------------------------------- */

static void store_var(gen *g, const var *v)
{
    dtype dt = chance(g, 60) ? v->dt : pick_buf_dt(g);
    const char *x = v->name;
    char ptr[TEXT], msk[TEXT] = "", val[TEXT];
    put(val, "%s", x);
    int64_t numel = 1;
    if (!g->twod) {
        if (v->sh == SH_S && chance(g, 70)) {
            numel = g->g, put(ptr, "+ pid");
        } else if (v->sh == SH_S) {
            /* a scalar stored through a tile of pointers */
            numel = g->n, put(ptr, "+ offs"), put(msk, "mask");
        } else {
            switch (below(g, 8)) {
            case 6:
                /* every lane to one element: the last active lane's value */
                numel = g->g, put(ptr, "+ pid + offs * 0");
                put(msk, "mask");
                break;
            case 7:
                /* four elements per program, each from several lanes */
                numel = 4 * g->g, put(ptr, "+ pid * 4 + offs %% 4");
                put(msk, "mask");
                break;
            case 0: numel = g->g * g->B, put(ptr, "+ offs"); break;
            case 1:
                numel = g->n, put(ptr, "+ (pid * B + (B - 1) - tl.arange(0, B))");
                put(msk, "(pid * B + (B - 1) - tl.arange(0, B)) < n");
                break;
            case 2:
                numel = 3 * g->n - 1, put(ptr, "+ offs * 3 + 1");
                put(msk, "mask");
                break;
            case 3:
                numel = g->n, put(ptr, "+ offs - 1");
                put(msk, "mask & (offs >= 1)");
                break;
            case 4: {
                opnd c;
                numel = g->n, put(ptr, "+ offs");
                if (pick_var(g, P_NUM, true, &c) && c.rows)
                    put(msk, "mask & (%s != 0)", c.t);
                else
                    put(msk, "mask");
                break;
            }
            default: numel = g->n, put(ptr, "+ offs"), put(msk, "mask"); break;
            }
        }
    } else {
        int64_t SP = g->gn * g->BN;
        switch (v->sh) {
        case SH_S:
            if (chance(g, 30)) {
                numel = g->M * g->N, put(ptr, "+ offs"), put(msk, "mask");
                break;
            }
            numel = g->gm * g->gn, put(ptr, "+ pm * %lld + pn", (long long)g->gn);
            break;
        case SH_VM: case SH_CM:
            numel = g->gn * g->gm * g->BM;
            put(ptr, "+ pn * %lld + rm%s", (long long)(g->gm * g->BM),
                     v->sh == SH_CM ? "[:, None]" : "");
            put(msk, "rm%s < M", v->sh == SH_CM ? "[:, None]" : "");
            break;
        case SH_VN: case SH_RN:
            numel = g->gm * g->gn * g->BN;
            put(ptr, "+ pm * %lld + rn%s", (long long)(g->gn * g->BN),
                     v->sh == SH_RN ? "[None, :]" : "");
            put(msk, "rn%s < N", v->sh == SH_RN ? "[None, :]" : "");
            break;
        case SH_F:
            switch (below(g, 5)) {
            case 0:
                numel = g->M * g->N, put(ptr, "+ rn[None, :] * M + rm[:, None]");
                put(msk, "mask");
                break;
            case 1:
                numel = g->gm * g->gn * g->BM * g->BN;
                put(ptr, "+ (pm * %lld + pn) * (BM * BN) + tl.arange(0, BM * BN)",
                         (long long)g->gn);
                put(val, "tl.reshape(%s, (BM * BN,))", x);
                break;
            case 2:
                numel = g->gm * g->BM * SP;
                put(ptr, "+ rm[:, None] * %lld + rn[None, :]", (long long)SP);
                break;
            default:
                numel = g->M * g->N, put(ptr, "+ offs"), put(msk, "mask");
                break;
            }
            break;
        }
    }
    const char *name = buf_add(g, dt, numel, true);
    if (!name)
        return;
    if ((dt == DTYPE_FP8E5 || dt == DTYPE_FP8E4NV) && !dtype_is_float(v->dt)) {
        char t[TEXT];
        put(t, "%s.to(tl.float32)", val);   /* (no int -> fp8 cast) */
        memcpy(val, t, TEXT);
    }
    if (msk[0])
        line(g, "tl.store(%s %s, %s, mask=%s)", name, ptr, val, msk);
    else
        line(g, "tl.store(%s %s, %s)", name, ptr, val);
}

/* A constant stored through a tile of pointers (one value for every lane). */
static void store_const(gen *g)
{
    dtype dt = pick_dt(g);
    const char *name = buf_add(g, dt, g->twod ? g->M * g->N : g->n, true);
    if (!name)
        return;
    const char *val = dtype_is_float(dt) ? (chance(g, 50) ? "1.5" : "-0.0") : "7";
    if (chance(g, 50))
        line(g, "tl.store(%s + offs, %s, mask=mask)", name, val);
    else
        line(g, "tl.store(%s + offs, tl.full(%s, %s, %s), mask=mask)", name,
             g->twod ? "(BM, BN)" : "(B,)", val, tl(dt));
}

/* ---- atomics ---------------------------------------------------------------------- */

static bool st_atomic(gen *g)
{
    static const char *ops[] = {"add", "max", "min", "and", "or", "xor", "xchg", "add", "cas"};
    int op = below(g, 9);
    bool fl = op <= 2 && chance(g, 30);
    dtype dt = fl ? DTYPE_FP32 : (chance(g, 70) ? DTYPE_INT32 : (chance(g, 50) ? DTYPE_INT64 : DTYPE_UINT32));
    opnd a;
    if (!pick_var(g, P_NUM, true, &a))
        return false;
    const char *name = buf_add(g, dt, 8, true);
    if (!name)
        return false;
    g->k->buf[g->k->nbuf - 1].zero = chance(g, 50);
    bool use_old = chance(g, 25);
    if (fl || op >= 6 || use_old)
        g->k->order_dependent = true;      /* (float max/min: which zero) */
    char idx[TEXT], msk[TEXT] = "";
    if (!a.rows && !a.cols) {
        put(idx, "%d", below(g, 8));
    } else if (!g->twod) {
        put(idx, "(offs %% 8)");
        put(msk, ", mask=mask");
    } else {
        put(idx, "((rm[:, None] + rn[None, :] * 3) %% 8)");
        put(msk, ", mask=mask");
    }
    char call[4 * TEXT];
    if (op == 8)        /* cmp: what some element may hold (0, 90 or a value) */
        snprintf(call, sizeof call, "tl.atomic_cas(%s + %s, %s, %s.to(%s))", name, idx,
                 chance(g, 50) ? "0" : "90", a.t, tl(dt));
    else
        snprintf(call, sizeof call, "tl.atomic_%s(%s + %s, %s.to(%s)%s)", ops[op], name, idx,
                 a.t, tl(dt), msk);
    if (use_old)
        assign(g, dt, shape_of(g, a.rows, a.cols), "%s", call);
    else
        line(g, "%s", call);
    return true;
}

/* ---- control flow -------------------------------------------------------------- */

static void statements(gen *g, int n);

/* `x = (x <op> y).to(dt)` for a carried full tile x: y a variable or a
 * number the operator accepts with x, else x itself. */
static void update(gen *g, const char *x, dtype dt)
{
    static const struct { const char *fmt; dtype_op op; } upd[] = {
        {"%s + %s", DTYPE_OP_ADD}, {"%s * %s", DTYPE_OP_MUL},
        {"tl.maximum(%s, %s)", DTYPE_OP_MAXIMUM}, {"%s - %s", DTYPE_OP_SUB},
        {"tl.minimum(%s, %s)", DTYPE_OP_MINIMUM},
    };
    int i = below(g, 5);
    opnd a = {.dt = dt, .rows = 1, .cols = g->twod}, y;
    put(a.t, "%s", x);
    if (!pick_opnd(g, P_NUM, false, &y) || binop_dt(upd[i].op, &a, &y) == DTYPE_INVALID)
        y = a;
    char e[3 * TEXT];
    snprintf(e, sizeof e, upd[i].fmt, x, y.t);
    line(g, "%s = (%s).to(%s)", x, e, tl(dt));
}

static bool st_loop(gen *g)
{
    if (g->in_loop || g->depth > 1)
        return false;
    opnd init;
    if (!pick_var(g, P_NUM, true, &init) || !init.rows || (g->twod && !init.cols))
        return false;
    dtype adt = chance(g, 50) ? init.dt : pick_dt(g);
    var *acc = var_new(g, adt, SH_F);
    char accname[16];
    snprintf(accname, sizeof accname, "%s", acc->name);
    line(g, "%s = %s.to(%s)", accname, init.t, tl(adt));
    /* a tile loaded in each iteration, i rows further on */
    dtype ldt = pick_dt(g);
    int64_t rows = g->it > 0 ? g->it : 1;
    const char *lname = buf_add(g, ldt, (g->twod ? g->M * g->N : g->n) * rows, false);
    if (!lname)
        return false;
    int kind = below(g, 6);
    char iv[16], pv[16];
    snprintf(iv, sizeof iv, "i%d", g->ids++);
    snprintf(pv, sizeof pv, "p%d", g->ids++);
    if (kind == 4) {
        /* a pointer tile carried through the loop */
        line(g, "%s = %s + offs", pv, lname);
        line(g, "for %s in range(0, it):", iv);
    } else if (kind == 5)
        line(g, "for %s in tl.static_range(%lld):", iv, (long long)g->it);
    else if (kind == 0)
        line(g, "for %s in range(0, it):", iv);
    else if (kind == 1)
        line(g, "for %s in range(it):", iv);
    else if (kind == 2) {
        line(g, "%s = 0", iv);
        line(g, "while %s < it:", iv);
    } else {
        line(g, "for %s in range(it - 1, -1, -1):", iv);
    }
    g->depth++;
    int saved = g->nv;
    bool was = g->in_loop;
    g->in_loop = true;
    if (kind == 4)
        assign(g, ldt, SH_F, "tl.load(%s, mask=mask%s)", pv, other_for(g, ldt));
    else if (g->twod)
        assign(g, ldt, SH_F, "tl.load(%s + offs + %s * (M * N), mask=mask%s)", lname, iv,
               other_for(g, ldt));
    else
        assign(g, ldt, SH_F, "tl.load(%s + offs + %s * n, mask=mask%s)", lname, iv,
               other_for(g, ldt));
    if (kind != 5)                  /* (a static_range index is a Python int) */
        var_named(g, iv, DTYPE_INT32, SH_S);
    statements(g, 1 + below(g, 3));
    update(g, accname, adt);
    if (kind == 2)
        line(g, "%s += 1", iv);
    if (kind == 4)
        line(g, "%s += %s", pv, g->twod ? "M * N" : "n");
    g->nv = saved;
    g->in_loop = was;
    g->depth--;
    return true;
}

static bool st_if(gen *g)
{
    if (g->depth > 2)
        return false;
    opnd init;
    if (!pick_var(g, P_NUM, true, &init) || !init.rows || (g->twod && !init.cols))
        return false;
    dtype dt = pick_dt(g);
    var *x = var_new(g, dt, SH_F);
    char xn[16];
    snprintf(xn, sizeof xn, "%s", x->name);
    line(g, "%s = %s.to(%s)", xn, init.t, tl(dt));
    char cond[TEXT];
    switch (below(g, 4)) {
    case 0: put(cond, "s > %d", below(g, 20) - 10); break;
    case 1: put(cond, "%s %% 2 == 0", g->twod ? "pm + pn" : "pid"); break;
    case 2: {
        opnd r;
        if (!pick_var(g, P_NUM, true, &r))
            return false;
        put(cond, "tl.sum(%s.to(tl.float32)) > 0", r.t);
        break;
    }
    default: put(cond, "f < 0.5"); break;
    }
    line(g, "if %s:", cond);
    for (int branch = 0; branch < 2; branch++) {
        if (branch) {
            if (chance(g, 30))
                break;
            line(g, "else:");
        }
        g->depth++;
        int saved = g->nv;
        statements(g, below(g, 3));
        update(g, xn, dt);
        g->nv = saved;
        g->depth--;
    }
    return true;
}

/* acc = sum over K of A[rows, k] @ B[k, cols], in a loop of `kt` steps. */
static bool st_dot(gen *g)
{
    if (!g->twod || g->BM < 16 || g->BN < 16 || g->in_loop || g->depth)
        return false;
    static const dtype in_dts[] = {DTYPE_FP32, DTYPE_FP16, DTYPE_BF16, DTYPE_INT8, DTYPE_FP32,
                                   DTYPE_FP64};
    dtype idt = in_dts[below(g, 6)];
    int64_t BK = g->k->cons[2].v, K = g->k->scal[5].v.i, KT = g->k->scal[6].v.i;
    if (idt == DTYPE_INT8 && BK < 32)
        idt = DTYPE_FP16;               /* (Triton: K >= 32 for int8) */
    dtype adt = idt == DTYPE_INT8 ? DTYPE_INT32 : idt == DTYPE_FP64 ? DTYPE_FP64 : DTYPE_FP32;
    /* an fp16 accumulator: each step rounds to fp16 (out_dtype) */
    bool acc16 = idt == DTYPE_FP16 && chance(g, 30);
    if (acc16)
        adt = DTYPE_FP16;
    bool padded = chance(g, 40);
    const char *a, *b;
    if (padded) {
        a = buf_add(g, idt, g->gm * g->BM * KT * BK, false);
        b = buf_add(g, idt, KT * BK * g->gn * g->BN, false);
    } else {
        a = buf_add(g, idt, g->M * K, false);
        b = buf_add(g, idt, K * g->N, false);
    }
    if (!a || !b)
        return false;
    var *acc = var_new(g, adt, SH_F);
    char an[16];
    snprintf(an, sizeof an, "%s", acc->name);
    line(g, "%s = tl.zeros((BM, BN), dtype=%s)", an, tl(adt));
    int id = g->ids++;
    line(g, "for k%d in range(0, kt):", id);
    g->depth++;
    line(g, "kk%d = k%d * BK + tl.arange(0, BK)", id, id);
    if (padded) {
        line(g, "a%d = tl.load(%s + rm[:, None] * %lld + kk%d[None, :])", id, a,
             (long long)(KT * BK), id);
        line(g, "b%d = tl.load(%s + kk%d[:, None] * %lld + rn[None, :])", id, b, id,
             (long long)(g->gn * g->BN));
    } else {
        line(g, "a%d = tl.load(%s + rm[:, None] * K + kk%d[None, :], "
             "mask=(rm[:, None] < M) & (kk%d[None, :] < K), other=0)", id, a, id, id);
        line(g, "b%d = tl.load(%s + kk%d[:, None] * N + rn[None, :], "
             "mask=(kk%d[:, None] < K) & (rn[None, :] < N), other=0)", id, b, id, id);
    }
    const char *prec = idt == DTYPE_FP32 && chance(g, 50) ? ", input_precision=\"ieee\""
                       : idt == DTYPE_INT8 ? ", out_dtype=tl.int32"
                       : idt == DTYPE_FP64 ? ", out_dtype=tl.float64"
                       : acc16 ? ", out_dtype=tl.float16" : "";
    switch (acc16 ? 1 : below(g, 3)) {
    case 0: line(g, "%s += tl.dot(a%d, b%d%s)", an, id, id, prec); break;
    case 1: line(g, "%s = tl.dot(a%d, b%d, %s%s)", an, id, id, an, prec); break;
    default: line(g, "%s = %s + tl.dot(a%d, b%d%s)", an, an, id, id, prec); break;
    }
    g->depth--;
    return true;
}

static void statement(gen *g)
{
    for (int tries = 0; tries < 20; tries++) {
        int c = below(g, 100);
        bool ok;
        if (c < 14) ok = st_load(g);
        else if (c < 38) ok = st_binary(g);
        else if (c < 48) ok = st_where(g);
        else if (c < 54) ok = st_unary(g);
        else if (c < 61) ok = st_math(g);
        else if (c < 68) ok = st_cast(g);
        else if (c < 76) ok = st_reduce(g);
        else if (c < 78) ok = st_scan(g);
        else if (c < 79) ok = st_combine(g);
        else if (c < 83) ok = st_shape(g);
        else if (c < 85) ok = st_full(g);
        else if (c < 88) ok = st_atomic(g);
        else if (c < 93) ok = st_loop(g);
        else if (c < 95) ok = st_if(g);
        else if (c < 98) ok = st_misc(g);
        else ok = st_dot(g);
        if (ok)
            return;
    }
}

static void statements(gen *g, int n)
{
    for (int i = 0; i < n; i++)
        statement(g);
}

/* ---- the kernel ------------------------------------------------------------------- */

static int64_t pow2(gen *g, int lo, int hi)
{
    return (int64_t)1 << (lo + below(g, hi - lo + 1));
}

/* A size in [0, full]: mostly a little short of full, sometimes full or 0. */
static int64_t extent(gen *g, int64_t full, int64_t block)
{
    int c = below(g, 10);
    if (c == 0)
        return 0;
    if (c < 4)
        return full;
    int64_t v = full - below(g, (int)block + 1);
    return v < 0 ? 0 : v;
}

static void scalars(gen *g)
{
    dtype_scalar v;
    /* s: a runtime int, small or large (int64 when it does not fit) */
    int64_t s = chance(g, 70) ? below(g, 41) - 20 : (int64_t)fz_rand(&g->r) >> below(g, 40);
    v.i = s;
    scal_add(g, "s", s == (int32_t)s ? DTYPE_INT32 : DTYPE_INT64, v);
    static const double fs[] = {0.25, -1.5, 3.0, 0.0, 1e-20, 7.5};
    v.f = fs[below(g, 6)];
    scal_add(g, "f", DTYPE_FP32, v);
    v.i = g->it;
    scal_add(g, "it", DTYPE_INT32, v);
}

void fz_generate(uint64_t seed, uint64_t index, fz_kernel *k)
{
    gen G;
    memset(&G, 0, sizeof G);
    gen *g = &G;
    g->r = seed * 0x2545f4914f6cdd1dull ^ (index + 1) * 0x9e3779b97f4a7c15ull;
    fz_rand(&g->r);
    strbuf src = k->src;
    strbuf_clear(&src);
    memset(k, 0, sizeof *k);
    k->src = src;
    k->data_seed = fz_rand(&g->r);
    g->k = k;
    strbuf_init(&g->body);
    g->twod = chance(g, 50);
    g->it = below(g, 4);
    if (!g->twod) {
        g->B = pow2(g, 0, 8);
        g->g = 1 + below(g, 5);
        g->n = extent(g, g->g * g->B, g->B);
        k->grid[0] = g->g, k->grid[1] = k->grid[2] = 1, k->rank = 1;
        dtype_scalar v = {.i = g->n};
        scal_add(g, "n", DTYPE_INT32, v);
        scalars(g);
        const_add(g, "B", g->B);
        line(g, "pid = tl.program_id(0)");
        /* the same index and mask, written in ways the affine records
         * must all see through (or give up on, correctly) */
        static const char *offs_forms[] = {
            "offs = pid * B + tl.arange(0, B)", "offs = tl.arange(0, B) + B * pid",
            "offs = (pid * B) + tl.arange(0, B) * 1", "offs = (pid.to(tl.int64) * B + tl.arange(0, B)).to(tl.int32)",
            "offs = tl.reshape(pid * B + tl.arange(0, B), (B,))",
            "offs = tl.broadcast_to(pid * B, (B,)) + tl.arange(0, B)",
        };
        static const char *mask_forms[] = {
            "mask = offs < n", "mask = n > offs", "mask = offs <= n - 1",
            "mask = (offs < n) & (offs >= 0)", "mask = ~(offs >= n)", "mask = (offs - n) < 0",
            "mask = (offs < n) | (offs < 0)",
        };
        line(g, "%s", offs_forms[chance(g, 50) ? 0 : below(g, 6)]);
        line(g, "%s", mask_forms[chance(g, 50) ? 0 : below(g, 7)]);
        var_named(g, "pid", DTYPE_INT32, SH_S);
        var_named(g, "offs", DTYPE_INT32, SH_F);
    } else {
        bool dot = chance(g, 20);
        g->BM = dot ? pow2(g, 4, 5) : pow2(g, 0, 5);
        g->BN = dot ? pow2(g, 4, 5) : pow2(g, 0, 6 - (g->BM >= 16));
        g->gm = 1 + below(g, 3);
        g->gn = 1 + below(g, 3);
        g->M = extent(g, g->gm * g->BM, g->BM);
        g->N = extent(g, g->gn * g->BN, g->BN);
        k->grid[0] = g->gm, k->grid[1] = g->gn, k->grid[2] = 1, k->rank = 2;
        dtype_scalar v = {.i = g->M};
        scal_add(g, "M", DTYPE_INT32, v);
        v.i = g->N;
        scal_add(g, "N", DTYPE_INT32, v);
        scalars(g);
        int64_t BK = pow2(g, 4, 5), KT = 1 + below(g, 3);
        v.i = extent(g, KT * BK, BK);
        scal_add(g, "K", DTYPE_INT32, v);
        v.i = KT;
        scal_add(g, "kt", DTYPE_INT32, v);
        const_add(g, "BM", g->BM);
        const_add(g, "BN", g->BN);
        const_add(g, "BK", BK);
        line(g, "pm = tl.program_id(0)");
        line(g, "pn = tl.program_id(1)");
        line(g, "rm = pm * BM + tl.arange(0, BM)");
        line(g, "rn = pn * BN + tl.arange(0, BN)");
        static const char *mask_forms[] = {
            "mask = (rm[:, None] < M) & (rn[None, :] < N)",
            "mask = (rm < M)[:, None] & (rn < N)[None, :]",
            "mask = (M > rm[:, None]) & (rn[None, :] <= N - 1)",
            "mask = tl.broadcast_to(rm[:, None] < M, (BM, BN)) & (rn[None, :] < N)",
            "mask = ((rm[:, None] < M) & (rn[None, :] < N)) & (rm[:, None] >= 0)",
        };
        static const char *offs_forms[] = {
            "offs = rm[:, None] * N + rn[None, :]", "offs = rn[None, :] + N * rm[:, None]",
            "offs = (rm * N)[:, None] + rn[None, :]",
            "offs = tl.reshape(tl.reshape(rm[:, None] * N + rn[None, :], (BM * BN,)), (BM, BN))",
        };
        line(g, "%s", mask_forms[chance(g, 50) ? 0 : below(g, 5)]);
        line(g, "%s", offs_forms[chance(g, 50) ? 0 : below(g, 4)]);
        var_named(g, "pm", DTYPE_INT32, SH_S);
        var_named(g, "pn", DTYPE_INT32, SH_S);
        var_named(g, "rm", DTYPE_INT32, SH_VM);
        var_named(g, "rn", DTYPE_INT32, SH_VN);
        var_named(g, "offs", DTYPE_INT32, SH_F);
    }
    int first = g->nv;                  /* the variables worth storing */
    if (g->twod && g->BM >= 16 && g->BN >= 16 && chance(g, 80))
        st_dot(g);
    var_named(g, "s", k->scal[g->twod ? 2 : 1].dt, SH_S);
    var_named(g, "f", DTYPE_FP32, SH_S);
    int nload = 1 + below(g, 3);
    for (int i = 0; i < nload; i++)
        while (!st_load(g))
            ;
    statements(g, 2 + below(g, 10));
    /* stores: the newest variable, and a few others */
    store_var(g, &g->v[g->nv - 1]);
    int nst = below(g, 3);
    for (int i = 0; i < nst && g->nv > first; i++)
        store_var(g, &g->v[first + below(g, g->nv - first)]);
    for (int i = first; i < g->nv; i++)
        if (g->v[i].sh != SH_F && chance(g, 40))
            store_var(g, &g->v[i]);
    if (chance(g, 10))
        store_const(g);

    strbuf_puts(&k->src, "import triton\nimport triton.language as tl\n\n\n"
                         "@triton.jit\ndef fz_max(a, b):\n    return tl.maximum(a, b)\n\n\n"
                         "@triton.jit\ndef fz_min(a, b):\n    return tl.minimum(a, b)\n\n\n"
                         "@triton.jit\ndef fz_add(a, b):\n    return a + b\n\n\n"
                         "@triton.jit\ndef fz_mul(a, b):\n    return a * b\n\n\n"
                         "@triton.jit\ndef kern(");
    for (int i = 0; i < k->nbuf; i++)
        strbuf_printf(&k->src, "%s, ", k->buf[i].name);
    for (int i = 0; i < k->nscal; i++)
        strbuf_printf(&k->src, "%s, ", k->scal[i].name);
    for (int i = 0; i < k->nconst; i++)
        strbuf_printf(&k->src, "%s: tl.constexpr%s", k->cons[i].name,
                      i + 1 < k->nconst ? ", " : "");
    strbuf_puts(&k->src, "):\n");
    strbuf_putn(&k->src, strbuf_cstr(&g->body), g->body.len);
    strbuf_free(&g->body);
}
