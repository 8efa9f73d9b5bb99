/* cgen_check.c - bounds checks hoisted out of a LOAD's or STORE's lanes.
 *
 * When an access's pointer tile is affine (affine.h: a pointer argument
 * plus offsets built from aranges and scalars) and its mask a box (or
 * absent), the addresses its active lanes touch follow from a few
 * scalars: the pointer's base and strides, the box's bounds.  Before the
 * access, every thread computes those (uniform scalar arithmetic, the same
 * in every thread) and tests the whole range at once against the
 * argument's bytes: tk_ok<pc> = the lowest and highest active addresses
 * inside [lo, hi), every address a whole element from lo.  The access's
 * chunks and lanes then check nothing: they only ask tk_ok<pc>.
 *
 * The closed form is trusted only where it is exact: every index tile it
 * goes through must stay inside its dtype and within +-2^30 (so that the
 * wrapping arithmetic that made the lanes did not wrap, and the scalars
 * here cannot overflow 64 bits), which the test checks too; boxes that
 * cannot be found in closed form are taken whole (a superset of the
 * active lanes: the test only gets stricter).  Where the test fails, a
 * __noinline__ function (tk_find<pc>) recomputes the thread's share of
 * the lanes exactly (the index expressions of cg_index_expr, from the
 * same scalars), notes the first one outside the argument as any failing
 * lane is noted (TK_NOTE), and the block skips the access when any of its
 * threads found one (a barrier: the test fails in every thread at once),
 * so the report is the CPU's (the lowest lane of the first failing
 * instruction) and no bad address is ever touched.  A test that failed only because the closed form could
 * not be trusted finds nothing, and the access goes on.
 *
 * The closed form is read at the access from the scalars the tiles were
 * made from, so each tile of it is either an index expression (made only
 * of values that never change) or made in a straight line before the
 * access with its scalar operands unchanged since (cg_held_until).
 *
 * An access in a counted loop whose closed form reads only what the
 * kernel's entry made, the loop's counter and scalars made from those is
 * also tested at the entry, for all the loop's rounds at once, by one
 * thread for the block ("whole loops" below); where that passes, its own
 * test is skipped, and where it fails, the search runs in each round.
 * Meanwhile every thread prefetches a line of the first loop's loads
 * (wc_prefetch); where the entry tests every access of the kernel, a
 * program whose tests all passed runs an unchecked copy of the body
 * (cg_entry_checks_all; cgen.c, emit_unchecked_copy). */
#include "cgen_impl.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "affine.h"
#include "cgen_abi.h"

#pragma GCC diagnostic error "-Wswitch"
#pragma GCC diagnostic error "-Wswitch-enum"

/* Index lanes the closed form trusts: within +-2^30 (and their dtype). */
#define HC_BOUND (INT64_C(1) << 30)

/* What the closed form knows of one slot. */
typedef struct hnode {
    uint8_t state;          /* 0: not looked at, 1: affine (or a box), 2: not */
    bool checked;           /* its range is in the test already */
    bool kst[IR_MAX_DIM];   /* stride d is the constant cst[d] */
    int64_t cst[IR_MAX_DIM];
} hnode;

/* The analysis of one access. */
typedef struct hc {
    cg *g;
    int32_t pc;
    hnode *n;               /* per slot */
    uint8_t *admit;         /* per slot: tiles the search recomputes */
    uint8_t *leaf;          /* per slot: scalars it reads (1), abase offsets
                               s<slot>_d it reads (2) */
    strbuf decl;            /* the closed form's declarations */
    strbuf trust;           /* " && condition" for each range it trusts */
} hc;

/* ---- the closed form of one slot ---------------------------------------
 * Slot s's base is tk_h<s>b (tk_i64 for an index tile, tk_u64 for a
 * pointer), stride d tk_h<s>s<d> unless known (kst), the range of an index
 * tile's lanes [tk_h<s>n, tk_h<s>x] (a superset), and a box's axis d
 * [tk_h<s>l<d>, tk_h<s>h<d>).  Arithmetic goes through tk_u64, which
 * wraps, so that an untrusted form is only wrong, never undefined. */

static bool node(hc *h, int32_t s);

/* Stride d of slot s as an expression. */
static void stride_ref(const hc *h, strbuf *sb, int32_t s, int d)
{
    const hnode *n = &h->n[s];
    if (n->kst[d])
        strbuf_printf(sb, "((tk_i64)%" PRId64 "ll)", n->cst[d]);
    else
        strbuf_printf(sb, "tk_h%ds%d", s, d);
}

/* Define stride d of slot s as expression x, or as the constant c when
 * known: strides along an axis of one element are always 0. */
static void set_stride(hc *h, int32_t s, int d, bool known, int64_t c, const char *x)
{
    const ir_type *t = cg_type(h->g, s);
    hnode *n = &h->n[s];
    if (t->shape[d] == 1) {
        known = true;
        c = 0;
    }
    n->kst[d] = known;
    n->cst[d] = c;
    if (!known)
        strbuf_printf(&h->decl, "TK_MU const tk_i64 tk_h%ds%d = (tk_i64)(%s);\n", s, d, x);
}

/* The range check of index slot s of dtype dt. */
static void trust_range(hc *h, int32_t s, dtype dt)
{
    int64_t lo, hi;
    if (h->n[s].checked)
        return;
    h->n[s].checked = true;
    affine_dtype_range(dt, &lo, &hi);
    lo = lo < -HC_BOUND ? -HC_BOUND : lo;
    hi = hi > HC_BOUND ? HC_BOUND : hi;
    strbuf_printf(&h->trust, " && tk_h%dn >= %" PRId64 "ll && tk_h%dx <= %" PRId64 "ll",
                  s, lo, s, hi);
}

/* A scalar: its own value, strides 0; an int1 scalar is a box that is
 * whole or empty (tk_h<s>v). */
static bool scalar_node(hc *h, int32_t s)
{
    dtype dt = cg_dt(h->g, s);
    h->leaf[s] = 1;
    if (dt == DTYPE_INT1) {
        strbuf_printf(&h->decl, "TK_MU const bool tk_h%dv = s%d;\n", s, s);
        return true;
    }
    if (dtype_is_ptr(dt)) {
        strbuf_printf(&h->decl, "TK_MU const tk_u64 tk_h%db = (tk_u64)s%d;\n", s, s);
        return true;
    }
    if (!affine_is_index(dt))
        return false;
    strbuf_printf(&h->decl, "TK_MU const tk_i64 tk_h%db = (tk_i64)s%d, tk_h%dn = tk_h%db, "
                  "tk_h%dx = tk_h%db;\n", s, s, s, s, s, s);
    /* (a scalar of 32 bits or fewer is exact and small by its dtype) */
    if (dtype_size(dt) > 4)
        trust_range(h, s, dt);
    return true;
}

/* The box of a scalar int1 operand on axis d of a shape with n lanes
 * there: whole or empty. */
static void box_of_scalar(hc *h, int32_t s, int32_t v, int d, int64_t n)
{
    strbuf_printf(&h->decl, "TK_MU const tk_i64 tk_h%dl%d = 0, tk_h%dh%d = tk_h%dv ? %" PRId64
                  "ll : 0;\n", s, d, s, d, v, n);
}

/* Slot s (ndim axes) takes operand a's form, axis d from a's axis map[d]
 * (-1: it repeats or has one element: stride 0, a box whole there). */
static void map_axes(hc *h, int32_t s, int32_t a, const int *map)
{
    cg *g = h->g;
    const ir_type *t = cg_type(g, s);
    dtype dt = cg_dt(g, s);
    bool scalar = cg_scalar(g, a);
    if (dt == DTYPE_INT1) {
        for (int d = 0; d < t->ndim; d++) {
            if (scalar)
                box_of_scalar(h, s, a, d, d == 0 ? t->shape[0] : t->shape[d]);
            else if (map[d] < 0)
                strbuf_printf(&h->decl, "TK_MU const tk_i64 tk_h%dl%d = 0, tk_h%dh%d = %" PRId64
                              "ll;\n", s, d, s, d, (int64_t)t->shape[d]);
            else
                strbuf_printf(&h->decl, "TK_MU const tk_i64 tk_h%dl%d = tk_h%dl%d, tk_h%dh%d = "
                              "tk_h%dh%d;\n", s, d, a, map[d], s, d, a, map[d]);
        }
        return;
    }
    strbuf_printf(&h->decl, "TK_MU const %s tk_h%db = tk_h%db;\n",
                  dtype_is_ptr(dt) ? "tk_u64" : "tk_i64", s, a);
    if (!dtype_is_ptr(dt))
        strbuf_printf(&h->decl, "TK_MU const tk_i64 tk_h%dn = tk_h%dn, tk_h%dx = tk_h%dx;\n",
                      s, a, s, a);
    for (int d = 0; d < t->ndim; d++) {
        if (scalar || map[d] < 0) {
            set_stride(h, s, d, true, 0, NULL);
            continue;
        }
        strbuf x = {0};
        stride_ref(h, &x, a, map[d]);
        set_stride(h, s, d, h->n[a].kst[map[d]], h->n[a].cst[map[d]], strbuf_cstr(&x));
        strbuf_free(&x);
    }
}

/* A known constant the emitter may add and scale without overflow. */
static bool small(int64_t c)
{
    return c > -(INT64_C(1) << 40) && c < (INT64_C(1) << 40);
}

/* Is slot s the same on every lane: a scalar, or strides all 0? */
static bool uniform(const hc *h, int32_t s)
{
    if (cg_scalar(h->g, s))
        return true;
    const ir_type *t = cg_type(h->g, s);
    for (int d = 0; d < t->ndim; d++)
        if (!h->n[s].kst[d] || h->n[s].cst[d] != 0)
            return false;
    return true;
}

/* ADD, SUB or MUL of two index forms (scalars or tiles of s's shape). */
static bool arith_node(hc *h, int32_t s, const ir_inst *in)
{
    cg *g = h->g;
    const ir_type *t = cg_type(g, s);
    int32_t a = in->a, b = in->b;
    for (int i = 0; i < 2; i++) {
        int32_t o = i ? b : a;
        if (!cg_scalar(g, o) && cg_type(g, o)->ndim != t->ndim)
            return false;
    }
    if (in->sub == IR_ADD || in->sub == IR_SUB) {
        const char *op = in->sub == IR_ADD ? "+" : "-";
        strbuf_printf(&h->decl, "TK_MU const tk_i64 tk_h%db = (tk_i64)((tk_u64)tk_h%db %s "
                      "(tk_u64)tk_h%db);\n", s, a, op, b);
        if (in->sub == IR_ADD)
            strbuf_printf(&h->decl, "TK_MU const tk_i64 tk_h%dn = (tk_i64)((tk_u64)tk_h%dn + "
                          "(tk_u64)tk_h%dn), tk_h%dx = (tk_i64)((tk_u64)tk_h%dx + "
                          "(tk_u64)tk_h%dx);\n", s, a, b, s, a, b);
        else
            strbuf_printf(&h->decl, "TK_MU const tk_i64 tk_h%dn = (tk_i64)((tk_u64)tk_h%dn - "
                          "(tk_u64)tk_h%dx), tk_h%dx = (tk_i64)((tk_u64)tk_h%dx - "
                          "(tk_u64)tk_h%dn);\n", s, a, b, s, a, b);
        for (int d = 0; d < t->ndim; d++) {
            bool ka = cg_scalar(g, a) || h->n[a].kst[d], kb = cg_scalar(g, b) || h->n[b].kst[d];
            int64_t ca = cg_scalar(g, a) ? 0 : h->n[a].cst[d];
            int64_t cb = cg_scalar(g, b) ? 0 : h->n[b].cst[d];
            strbuf x = {0}, sa = {0}, sbb = {0};
            if (cg_scalar(g, a))
                strbuf_puts(&sa, "0");
            else
                stride_ref(h, &sa, a, d);
            if (cg_scalar(g, b))
                strbuf_puts(&sbb, "0");
            else
                stride_ref(h, &sbb, b, d);
            strbuf_printf(&x, "(tk_u64)%s %s (tk_u64)%s", strbuf_cstr(&sa), op, strbuf_cstr(&sbb));
            bool known = ka && kb && small(ca) && small(cb);
            set_stride(h, s, d, known, in->sub == IR_ADD ? ca + cb : ca - cb, strbuf_cstr(&x));
            strbuf_free(&x);
            strbuf_free(&sa);
            strbuf_free(&sbb);
        }
        return true;
    }
    /* MUL: one side the same on every lane (a scalar, or strides all 0)
     * scales the other */
    bool ua = uniform(h, a), ub = uniform(h, b);
    if (!ua && !ub)
        return false;
    int32_t f = ua ? a : b, x = ua ? b : a;
    /* both factors within the bound, so that the products below cannot
     * overflow (a scalar or a broadcast one is not checked by itself) */
    trust_range(h, f, cg_dt(g, f));
    trust_range(h, x, cg_dt(g, x));
    int64_t fc = 0;
    bool kf = cg_scalar(g, f) && cg_const_value(g, f, &fc) && fc > -(1 << 20) && fc < (1 << 20);
    strbuf_printf(&h->decl, "TK_MU const tk_i64 tk_h%db = (tk_i64)((tk_u64)tk_h%db * (tk_u64)tk_h%db);\n",
                  s, f, x);
    strbuf_printf(&h->decl, "TK_MU const tk_i64 tk_h%dp = (tk_i64)((tk_u64)tk_h%db * (tk_u64)tk_h%dn), "
                  "tk_h%dq = (tk_i64)((tk_u64)tk_h%db * (tk_u64)tk_h%dx);\n", s, f, x, s, f, x);
    strbuf_printf(&h->decl, "TK_MU const tk_i64 tk_h%dn = tk_h%dp < tk_h%dq ? tk_h%dp : tk_h%dq, "
                  "tk_h%dx = tk_h%dp < tk_h%dq ? tk_h%dq : tk_h%dp;\n",
                  s, s, s, s, s, s, s, s, s, s);
    for (int d = 0; d < t->ndim; d++) {
        bool kx = cg_scalar(g, x) || h->n[x].kst[d];
        int64_t cx = cg_scalar(g, x) ? 0 : h->n[x].cst[d];
        strbuf e = {0}, sx = {0};
        if (cg_scalar(g, x))
            strbuf_puts(&sx, "0");
        else
            stride_ref(h, &sx, x, d);
        strbuf_printf(&e, "(tk_u64)tk_h%db * (tk_u64)%s", f, strbuf_cstr(&sx));
        bool known = kx && (cx == 0 || (kf && small(cx)));
        set_stride(h, s, d, known, cx == 0 ? 0 : fc * cx, strbuf_cstr(&e));
        strbuf_free(&e);
        strbuf_free(&sx);
    }
    return true;
}

/* CMP of two index forms: the box of lanes where a - b op 0, when the
 * difference grows by a known constant along one axis at most; the whole
 * tile otherwise (a superset, which the test may take). */
static bool cmp_node(hc *h, int32_t s, const ir_inst *in)
{
    cg *g = h->g;
    const ir_type *t = cg_type(g, s);
    int32_t a = in->a, b = in->b;
    if ((!cg_scalar(g, a) && cg_type(g, a)->ndim != t->ndim) ||
        (!cg_scalar(g, b) && cg_type(g, b)->ndim != t->ndim))
        return false;
    int axis = -1, nvary = 0;
    int64_t sd = 0;
    bool known = true;
    for (int d = 0; d < t->ndim; d++) {
        if (t->shape[d] == 1)
            continue;
        bool ka = cg_scalar(g, a) || h->n[a].kst[d], kb = cg_scalar(g, b) || h->n[b].kst[d];
        int64_t ca = cg_scalar(g, a) ? 0 : h->n[a].cst[d];
        int64_t cb = cg_scalar(g, b) ? 0 : h->n[b].cst[d];
        if (ka && kb && ca == cb)
            continue;
        nvary++;
        axis = d;
        known = ka && kb;
        sd = ca - cb;
    }
    ir_cmp op = (ir_cmp)in->sub;
    bool order = op == IR_LT || op == IR_LE || op == IR_GT || op == IR_GE;
    strbuf_printf(&h->decl, "TK_MU const tk_i64 tk_h%dc = (tk_i64)((tk_u64)tk_h%db - (tk_u64)tk_h%db);\n",
                  s, a, b);
    /* c + sd * i op 0 as c' + s' * i < 0 */
    const char *cx = op == IR_LT ? "tk_h%dc" : op == IR_LE ? "tk_h%dc - 1"
                     : op == IR_GT ? "-tk_h%dc" : "-tk_h%dc - 1";
    int64_t sx = op == IR_GT || op == IR_GE ? -sd : sd;
    for (int d = 0; d < t->ndim; d++) {
        if (nvary == 0 && d == 0) {
            strbuf c = {0};
            if (order)
                strbuf_printf(&c, cx, s);
            strbuf_printf(&h->decl, "TK_MU const tk_i64 tk_h%dl0 = 0, tk_h%dh0 = ", s, s);
            if (order)
                strbuf_printf(&h->decl, "%s < 0", strbuf_cstr(&c));
            else
                strbuf_printf(&h->decl, "tk_h%dc %s 0", s, op == IR_EQ ? "==" : "!=");
            strbuf_printf(&h->decl, " ? %" PRId64 "ll : 0;\n", (int64_t)t->shape[0]);
            strbuf_free(&c);
        } else if (nvary == 1 && d == axis && known && order) {
            strbuf c = {0};
            strbuf_printf(&c, cx, s);
            strbuf_printf(&h->decl, "TK_MU tk_i64 tk_h%dl%d, tk_h%dh%d;\ntk_span(%s, %" PRId64 "ll, %"
                          PRId64 "ll, &tk_h%dl%d, &tk_h%dh%d);\n", s, d, s, d, strbuf_cstr(&c),
                          sx, (int64_t)t->shape[d], s, d, s, d);
            strbuf_free(&c);
        } else {
            strbuf_printf(&h->decl, "TK_MU const tk_i64 tk_h%dl%d = 0, tk_h%dh%d = %" PRId64 "ll;\n",
                          s, d, s, d, (int64_t)t->shape[d]);
        }
    }
    return true;
}

/* The form of tile s from its one writer (or its abase). */
static bool tile_node(hc *h, int32_t s)
{
    cg *g = h->g;
    const ir_type *t = cg_type(g, s);
    dtype dt = t->dt;
    if (g->abase[s] >= 0) {
        /* a pointer tile held as an index expression plus s<s>_d */
        int32_t base = g->abase[s];
        if (!node(h, base))
            return false;
        h->leaf[s] = 2;
        strbuf_printf(&h->decl, "TK_MU const tk_u64 tk_h%db = tk_h%db + (tk_u64)s%d_d;\n", s, base, s);
        for (int d = 0; d < t->ndim; d++) {
            strbuf x = {0};
            stride_ref(h, &x, base, d);
            set_stride(h, s, d, h->n[base].kst[d], h->n[base].cst[d], strbuf_cstr(&x));
            strbuf_free(&x);
        }
        return true;
    }
    int32_t def = g->def[s];
    if (def < 0 || def >= h->pc || !(g->tracked[s] & AFFINE_TRACKED))
        return false;
    const ir_inst *in = &g->k->code[def];
    int32_t rd[IR_MAX_READS];
    int nr = ir_reads(in, rd);
    if (!g->pure[s]) {
        /* made in a straight line before the access from scalars that still
         * hold what they held */
        if (!cg_held_until(g, def, h->pc, -1, -1))
            return false;
        for (int i = 0; i < nr; i++)
            if (cg_scalar(g, rd[i]) && !cg_held_until(g, def, h->pc, rd[i], -1))
                return false;
    }
    for (int i = 0; i < nr; i++)
        if (!node(h, rd[i]))
            return false;
    h->admit[s] = 1;
    int map[IR_MAX_DIM];
    switch ((ir_opcode)in->op) {
    case IR_CONST:
        if (dt == DTYPE_INT1) {
            for (int d = 0; d < t->ndim; d++)
                strbuf_printf(&h->decl, "TK_MU const tk_i64 tk_h%dl%d = 0, tk_h%dh%d = %" PRId64 "ll;\n",
                              s, d, s, d, d == 0 && !in->imm ? (int64_t)0 : (int64_t)t->shape[d]);
            return true;
        }
        if (dtype_is_ptr(dt)) {
            strbuf_printf(&h->decl, "TK_MU const tk_u64 tk_h%db = (tk_u64)%" PRId64 "ll;\n", s, in->imm);
        } else {
            strbuf_printf(&h->decl, "TK_MU const tk_i64 tk_h%db = (tk_i64)%" PRId64 "ll, tk_h%dn = "
                          "tk_h%db, tk_h%dx = tk_h%db;\n", s, in->imm, s, s, s, s);
            trust_range(h, s, dt);
        }
        for (int d = 0; d < t->ndim; d++)
            set_stride(h, s, d, true, 0, NULL);
        return true;
    case IR_ARANGE:
        if (t->ndim != 1)
            return false;
        strbuf_printf(&h->decl, "TK_MU const tk_i64 tk_h%db = %" PRId64 "ll, tk_h%dn = tk_h%db, "
                      "tk_h%dx = tk_h%db + %" PRId64 "ll;\n", s, in->imm, s, s, s, s,
                      (int64_t)t->shape[0] - 1);
        set_stride(h, s, 0, true, 1, NULL);
        trust_range(h, s, dt);
        return true;
    case IR_COPY: case IR_CAST:
        if (!cg_scalar(g, in->a) && cg_type(g, in->a)->ndim != t->ndim)
            return false;
        for (int d = 0; d < t->ndim; d++)
            map[d] = cg_scalar(g, in->a) ? -1 : d;
        map_axes(h, s, in->a, map);
        if (in->op == IR_CAST)
            trust_range(h, s, dt);
        return true;
    case IR_BROADCAST:
        for (int d = 0; d < t->ndim; d++)
            map[d] = cg_scalar(g, in->a) ? -1 : affine_bcast_axis(cg_type(g, in->a), t, d);
        map_axes(h, s, in->a, map);
        return true;
    case IR_RESHAPE:
        if (cg_scalar(g, in->a)) {
            for (int d = 0; d < t->ndim; d++)
                map[d] = -1;
        } else if (!affine_reshape_axes(cg_type(g, in->a), t, map)) {
            return false;
        }
        map_axes(h, s, in->a, map);
        return true;
    case IR_BINARY:
        if (dt == DTYPE_INT1) {     /* AND of two boxes */
            for (int d = 0; d < t->ndim; d++) {
                strbuf l[2] = {{0}}, e[2] = {{0}};
                for (int i = 0; i < 2; i++) {
                    int32_t o = i ? in->b : in->a;
                    if (cg_scalar(g, o)) {
                        strbuf_puts(&l[i], "0");
                        if (d == 0)
                            strbuf_printf(&e[i], "(tk_h%dv ? %" PRId64 "ll : 0)", o, (int64_t)t->shape[0]);
                        else
                            strbuf_printf(&e[i], "%" PRId64 "ll", (int64_t)t->shape[d]);
                    } else {
                        strbuf_printf(&l[i], "tk_h%dl%d", o, d);
                        strbuf_printf(&e[i], "tk_h%dh%d", o, d);
                    }
                }
                const char *la = strbuf_cstr(&l[0]), *lb = strbuf_cstr(&l[1]);
                const char *ea = strbuf_cstr(&e[0]), *eb = strbuf_cstr(&e[1]);
                strbuf_printf(&h->decl, "TK_MU const tk_i64 tk_h%dl%d = %s > %s ? %s : %s, "
                              "tk_h%dh%d = %s < %s ? %s : %s;\n", s, d, la, lb, la, lb,
                              s, d, ea, eb, ea, eb);
                for (int i = 0; i < 2; i++) {
                    strbuf_free(&l[i]);
                    strbuf_free(&e[i]);
                }
            }
            return true;
        }
        if (!arith_node(h, s, in))
            return false;
        trust_range(h, s, dt);
        return true;
    case IR_CMP:
        return cmp_node(h, s, in);
    case IR_PTR_ADD: {
        int esz = (int)dtype_size(dtype_elem(dt));
        strbuf_printf(&h->decl, "TK_MU const tk_u64 tk_h%db = tk_h%db + (tk_u64)tk_h%db * %dull;\n",
                      s, in->a, in->b, esz);
        for (int d = 0; d < t->ndim; d++) {
            bool ka = cg_scalar(g, in->a) || h->n[in->a].kst[d];
            bool kb = cg_scalar(g, in->b) || h->n[in->b].kst[d];
            int64_t ca = cg_scalar(g, in->a) ? 0 : h->n[in->a].cst[d];
            int64_t cb = cg_scalar(g, in->b) ? 0 : h->n[in->b].cst[d];
            strbuf x = {0}, sa = {0}, sbb = {0};
            if (cg_scalar(g, in->a))
                strbuf_puts(&sa, "0");
            else
                stride_ref(h, &sa, in->a, d);
            if (cg_scalar(g, in->b))
                strbuf_puts(&sbb, "0");
            else
                stride_ref(h, &sbb, in->b, d);
            strbuf_printf(&x, "(tk_u64)%s + (tk_u64)%s * %dull", strbuf_cstr(&sa),
                          strbuf_cstr(&sbb), esz);
            bool known = ka && kb && small(ca) && small(cb);
            set_stride(h, s, d, known, ca + cb * esz, strbuf_cstr(&x));
            strbuf_free(&x);
            strbuf_free(&sa);
            strbuf_free(&sbb);
        }
        return true;
    }
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

static bool node(hc *h, int32_t s)
{
    if (h->n[s].state)
        return h->n[s].state == 1;
    h->n[s].state = 2;
    bool ok = cg_scalar(h->g, s) ? scalar_node(h, s) : tile_node(h, s);
    if (ok)
        h->n[s].state = 1;
    return ok;
}

/* ---- the access ---------------------------------------------------------- */

static bool same_shape(const ir_type *a, const ir_type *b)
{
    if (a->ndim != b->ndim)
        return false;
    for (int d = 0; d < a->ndim; d++)
        if (a->shape[d] != b->shape[d])
            return false;
    return true;
}

/* A LOAD or STORE the test can take: a tile of pointers into one known
 * argument, its mask absent, a scalar or a tile of its shape; not a LOAD
 * that a DOT's loop moves or feeds (their chunks go their own ways). */
static bool hoistable(const cg *g, int32_t pc, const ir_inst *in, int32_t *mask)
{
    if (!g->o->checked || (in->op != IR_LOAD && in->op != IR_STORE))
        return false;
    const ir_kernel *k = g->k;
    int32_t p = in->a, pa = k->slots[p].ptr_arg;
    if (pa < 0 || pa >= k->nparams || !dtype_is_ptr(k->params[pa].dt) ||
        cg_tagged(g, p))
        return false;
    if (in->op == IR_LOAD && (g->fuse_into[pc] >= 0 || g->pf_dot[pc] >= 0 || g->moved[pc] ||
                              g->hoist_head[pc] >= 0))
        return false;
    const ir_type *tp = cg_type(g, p);
    *mask = in->op == IR_LOAD ? in->b : in->c;
    if (*mask >= 0 && !cg_scalar(g, *mask) && !same_shape(cg_type(g, *mask), tp))
        return false;
    int32_t data = in->op == IR_LOAD ? in->dst : in->b;
    return cg_scalar(g, data) || ir_type_numel(cg_type(g, data)) == ir_type_numel(tp);
}

/* The search: tk_find<pc>, over the thread's share of the lanes (e = tid,
 * tid + T, ...), the first whose exact address (ptr, mask: expressions of
 * e) is active and outside [tk_lo, tk_hi) or not a whole element from
 * tk_lo: it notes it in the thread's record (TK_NOTE, through tk_fr; none
 * when the thread has noted a failure already) and returns false.  Its
 * parameters are few, as each costs the kernel a register around the
 * call: the runtime block (the argument's bounds are there too), the
 * record, the round, and the scalars the expressions read.  (The note is made in the function: where the kernel
 * itself copied a returned lane into tk_fr, the checked layer norm took 48
 * registers instead of 40.) */
static void emit_search(hc *h, const ir_inst *in, const char *ptr, const char *mask)
{
    cg *g = h->g;
    int esz = (int)dtype_size(dtype_elem(cg_dt(g, in->a)));
    int64_t n = ir_type_numel(cg_type(g, in->a));
    int32_t pa = g->k->slots[in->a].ptr_arg;
    strbuf *f = &g->fns;
    strbuf_printf(f, "/* %d: the first lane of the thread's share outside its argument */\n"
                  "__device__ __noinline__ bool tk_find%d(const tk_rt *tk_rt_p, "
                  "volatile long long *tk_fr,\n    const unsigned int tk_ep", h->pc, h->pc);
    for (int32_t s = 0; s < g->k->nslots; s++) {
        if (h->leaf[s] == 1)
            strbuf_printf(f, ",\n    const %s s%d", cg_ctype(g, s), s);
        else if (h->leaf[s] == 2)
            strbuf_printf(f, ",\n    const tk_i64 s%d_d", s);
    }
    strbuf_printf(f, ")\n{\n"
                  "  const tk_u64 tk_lo = tk_rt_p->arg_lo[%d], tk_hi = tk_rt_p->arg_hi[%d];\n"
                  "  int tk_bad = tk_fr == 0;\n"
                  "  for (int e = (int)threadIdx.x; e < %" PRId64 "; e += %d) {\n"
                  "    const tk_u64 tk_a = %s;\n"
                  "    if ((%s) && !tk_in(tk_a, tk_lo, tk_hi, %d)) {\n"
                  "      TK_NOTE(%d, %d, e, tk_a, %d, 0);\n"
                  "      return false;\n    }\n  }\n"
                  "  return true;\n}\n", pa, pa, n, g->T, ptr, mask, esz, TK_ERR_ACCESS, h->pc, pa);
    cg_printf(g, "if (!tk_ok%d) {\n  tk_ok%d = tk_find%d(tk_rt_p, tk_bad ? 0 : tk_fr, tk_ep",
              h->pc, h->pc, h->pc);
    for (int32_t s = 0; s < g->k->nslots; s++) {
        if (h->leaf[s] == 1)
            cg_printf(g, ", s%d", s);
        else if (h->leaf[s] == 2)
            cg_printf(g, ", s%d_d", s);
    }
    /* every thread of the block came here (the test is the same in all);
     * the access goes on only where no thread found a bad lane, since a
     * thread's lanes are not its share of the search */
    cg_printf(g, ");\n  if (!tk_ok%d) tk_bad = 1;\n  tk_ok%d = !__syncthreads_or(!tk_ok%d);\n}\n",
              h->pc, h->pc, h->pc);
}

/* The closed form's declarations and the lowest and highest byte offsets
 * of the active lanes from tk_h<p>b (tk_ol, tk_oh; tk_z: no lane is
 * active), where mask (-1: none) is access in's; odd gets " | stride" for
 * each stride that may not be whole elements. */
static void emit_offsets(const hc *h, const ir_inst *in, int32_t mask, strbuf *odd)
{
    cg *g = h->g;
    int32_t p = in->a;
    const ir_type *t = cg_type(g, p);
    int esz = (int)dtype_size(dtype_elem(t->dt));
    cg_printf(g, "%s", strbuf_cstr(&h->decl));
    cg_printf(g, "tk_i64 tk_ol = 0, tk_oh = 0;\n");
    if (mask >= 0 && cg_scalar(g, mask))
        cg_printf(g, "bool tk_z = !tk_h%dv;\n", mask);
    else
        cg_printf(g, "bool tk_z = false;\n");
    for (int d = 0; d < t->ndim; d++) {
        if (mask >= 0 && !cg_scalar(g, mask))
            cg_printf(g, "{ const tk_i64 tk_l = tk_h%dl%d, tk_e = tk_h%dh%d;\n", mask, d, mask, d);
        else
            cg_printf(g, "{ const tk_i64 tk_l = 0, tk_e = %" PRId64 "ll;\n", (int64_t)t->shape[d]);
        strbuf st = {0};
        stride_ref(h, &st, p, d);
        cg_printf(g, "  const tk_i64 tk_u = (tk_i64)((tk_u64)%s * (tk_u64)tk_l), "
                  "tk_v = (tk_i64)((tk_u64)%s * (tk_u64)(tk_e - 1));\n",
                  strbuf_cstr(&st), strbuf_cstr(&st));
        cg_printf(g, "  tk_z = tk_z || tk_l >= tk_e;\n");
        /* the lowest and highest offsets along the axis: at its ends, in
         * the order a stride of known sign says */
        if (h->n[p].kst[d] && h->n[p].cst[d] >= 0)
            cg_printf(g, "  tk_ol += tk_u;\n  tk_oh += tk_v; }\n");
        else if (h->n[p].kst[d])
            cg_printf(g, "  tk_ol += tk_v;\n  tk_oh += tk_u; }\n");
        else
            cg_printf(g, "  tk_ol += tk_u < tk_v ? tk_u : tk_v;\n"
                      "  tk_oh += tk_u < tk_v ? tk_v : tk_u; }\n");
        if (odd && (!h->n[p].kst[d] || h->n[p].cst[d] % esz != 0))
            strbuf_printf(odd, " | (tk_u64)%s", strbuf_cstr(&st));
        strbuf_free(&st);
    }
}

/* The test: dest (tk_ok<pc>) = every range trusted and the box empty, or
 * its lowest and highest addresses inside the argument at whole elements;
 * with and, dest && that.  whole: every lane taken, the mask ignored (a
 * superset of the active lanes). */
static void emit_test(const hc *h, const ir_inst *in, int32_t mask, const char *dest, bool and,
                      bool whole)
{
    cg *g = h->g;
    if (whole)
        mask = -1;
    int32_t p = in->a, pa = g->k->slots[p].ptr_arg;
    int esz = (int)dtype_size(dtype_elem(cg_type(g, p)->dt));
    cg_printf(g, "{\n");
    strbuf odd = {0};
    emit_offsets(h, in, mask, &odd);
    /* the lowest address's offset from lo, unsigned, at most the bytes
     * left for the highest element: one comparison (tk_w >= 0 keeps an
     * argument too small for the span from passing) */
    cg_printf(g, "const tk_u64 tk_r = tk_h%db + (tk_u64)tk_ol - tk_lo%d;\n", p, pa);
    cg_printf(g, "const tk_i64 tk_w = (tk_i64)(tk_hi%d - tk_lo%d) - %d - (tk_oh - tk_ol);\n",
              pa, pa, esz);
    if (!and) {
        cg_printf(g, "%s = true%s && (tk_z || (tk_w >= 0 && tk_r <= (tk_u64)tk_w && "
                  "(((tk_u64)tk_r%s) & %dull) == 0));\n}\n", dest, strbuf_cstr(&h->trust),
                  strbuf_cstr(&odd), esz - 1);
    } else {
        /* at the entry, & and | rather than && and ||: every operand is a
         * comparison of values already made, and the tests stay one
         * straight line, which the compiler shares among them */
        cg_printf(g, "%s &= !!(tk_z | ((tk_w >= 0) & (tk_r <= (tk_u64)tk_w) & "
                  "((((tk_u64)tk_r%s) & %dull) == 0)));\n", dest, strbuf_cstr(&odd), esz - 1);
        const char *t = strbuf_cstr(&h->trust);
        while ((t = strstr(t, " && ")) != NULL) {
            const char *e = strstr(t + 4, " && ");
            int n = e ? (int)(e - t - 4) : (int)strlen(t + 4);
            cg_printf(g, "%s &= !!(%.*s);\n", dest, n, t + 4);
            t += 4;
        }
        cg_printf(g, "}\n");
    }
    strbuf_free(&odd);
}

/* One access as the emitter sees it: its closed form (h), the search's
 * exact lanes (ptr, m: expressions of e), its mask slot and, for an access
 * tested for its whole loop, that loop (w) and its key (loops of one key
 * share a block at the entry).  Made by access_open, freed by
 * access_close. */
typedef struct wloop {
    cg_count c;
    strbuf start, bound;    /* the counter's first value and its bound */
    uint8_t *need;          /* per slot: what the test reads (W_ENTRY, a
                               value the entry made; W_MADE, a scalar the
                               round makes from those and the counter, made
                               again at the entry; W_COUNTER) */
} wloop;

enum { W_ENTRY = 1, W_MADE, W_COUNTER };

typedef struct access {
    int32_t pc, mask;
    hc h;
    strbuf ptr, m;
    bool whole;             /* tested for its whole loop (w, key) */
    wloop w;
    strbuf key;
} access;

/* The analysis of access pc (ok: the closed form and the search's exact
 * lanes exist); a to be freed by access_close. */
static bool analyse_access(cg *g, int32_t pc, access *a)
{
    const ir_inst *in = &g->k->code[pc];
    size_t ns = (size_t)g->k->nslots + 1;
    hc *h = &a->h;
    *h = (hc){.g = g, .pc = pc};
    if (!hoistable(g, pc, in, &a->mask))
        return false;
    h->n = calloc(ns, sizeof *h->n);
    h->admit = calloc(ns, 1);
    h->leaf = calloc(ns, 1);
    bool ok = h->n && h->admit && h->leaf && node(h, in->a) && dtype_is_ptr(cg_dt(g, in->a)) &&
              (a->mask < 0 || node(h, a->mask));
    /* the search's exact lanes, from the same scalars */
    if (ok && g->abase[in->a] >= 0) {
        strbuf base = {0};
        ok = cg_index_expr(g, &base, g->abase[in->a], "e", 0, h->admit);
        strbuf_printf(&a->ptr, "((tk_u64)(%s) + (tk_u64)s%d_d)", strbuf_cstr(&base), in->a);
        strbuf_free(&base);
    } else if (ok) {
        ok = cg_index_expr(g, &a->ptr, in->a, "e", 0, h->admit);
    }
    if (ok && a->mask >= 0)
        ok = cg_index_expr(g, &a->m, a->mask, "e", 0, h->admit);
    else if (ok)
        strbuf_puts(&a->m, "true");
    return ok;
}

static bool wc_access(cg *g, int32_t pc, const hc *h, wloop *w);
static void wc_key(const cg *g, const wloop *w, strbuf *key);

/* Access pc analysed (false: not checked at once); with whole, also its
 * loop, where the entry can test it whole (a->whole). */
static bool access_open(cg *g, int32_t pc, bool whole, access *a)
{
    *a = (access){.pc = pc, .mask = -1, .w = {.c = {.ctr = -1}}};
    if (!analyse_access(g, pc, a))
        return false;
    if (whole && wc_access(g, pc, &a->h, &a->w)) {
        a->whole = true;
        wc_key(g, &a->w, &a->key);
    }
    return true;
}

static void wloop_free(wloop *w)
{
    strbuf_free(&w->start);
    strbuf_free(&w->bound);
    free(w->need);
    w->need = NULL;
}

static void access_close(access *a)
{
    hc *h = &a->h;
    strbuf_free(&a->ptr);
    strbuf_free(&a->m);
    strbuf_free(&h->decl);
    strbuf_free(&h->trust);
    free(h->n);
    free(h->admit);
    free(h->leaf);
    wloop_free(&a->w);
    strbuf_free(&a->key);
}

/* ---- whole loops, tested once at the kernel's entry ----------------------
 * An access in a counted loop (cg_counted_loop) whose closed form reads
 * only values the kernel's entry made (arguments, the program id, scalars
 * of the first straight line, written there and nowhere else) and at most
 * the loop's counter is tested a second time at the end of the entry, for
 * all its loop's rounds at once: with its mask at the last round, and with
 * every lane (a superset of the active ones) at the first round and the
 * one before the last.  The counter goes into its pointers only by adding
 * and by scaling uniform values (wc_linear), so there the lowest and
 * highest addresses move by a constant a round, and the rounds between
 * those two lie between them.  Where every such test passes (tk_all), the
 * accesses' own tests are skipped; where one fails (or the loop's rounds
 * cannot be counted: a bound beyond +-2^30, a step that would wrap), every
 * round tests itself as before and notes the first bad lane.  Accesses of
 * loops whose rounds are written the same way go in one block, where the
 * compiler shares what their tests compute, and accesses whose tests are
 * the same code (wc_canon) share one test and clear their bits together. */

/* Scalar s's value at the entry's end as an expression: a constant (its
 * one writer anywhere) or the slot itself (written only in the entry). */
static bool entry_value(const cg *g, int32_t s, strbuf *out)
{
    int32_t d = g->def[s];
    if (!cg_scalar(g, s) || !dtype_is_int(cg_dt(g, s)))
        return false;
    if (d >= 0 && g->k->code[d].op == IR_CONST) {
        strbuf_printf(out, "((tk_i64)%" PRId64 "ll)", g->k->code[d].imm);
        return true;
    }
    if (!g->entry_made[s])
        return false;
    strbuf_printf(out, "((tk_i64)s%d)", s);
    return true;
}

/* Does slot s depend on the counter ctr (memo: 0 not known, 1 no, 2 yes)?
 * (need: the scalars made again at the entry are looked through.) */
static bool wc_dep(const hc *h, const uint8_t *need, int32_t s, int32_t ctr, uint8_t *memo)
{
    if (s == ctr)
        return true;
    if (memo[s])
        return memo[s] == 2;
    memo[s] = 1;
    const cg *g = h->g;
    bool dep = false;
    if (g->abase[s] >= 0) {
        dep = wc_dep(h, need, g->abase[s], ctr, memo);
    } else if ((h->leaf[s] != 1 || need[s] == W_MADE) && g->def[s] >= 0) {
        int32_t rd[IR_MAX_READS];
        int nr = ir_reads(&g->k->code[g->def[s]], rd);
        for (int i = 0; i < nr && !dep; i++)
            dep = wc_dep(h, need, rd[i], ctr, memo);
    }
    memo[s] = dep ? 2 : 1;
    return dep;
}

/* Are pointer tile s's addresses the counter times a constant plus lanes
 * whose offsets the counter does not change: no product of the counter
 * with a tile that varies along its lanes, nor with itself? */
static bool wc_linear(const hc *h, const uint8_t *need, int32_t s, int32_t ctr, uint8_t *memo)
{
    const cg *g = h->g;
    if (s == ctr || (h->leaf[s] == 1 && need[s] != W_MADE) || need[s] == W_ENTRY)
        return true;
    if (g->abase[s] >= 0)
        return wc_linear(h, need, g->abase[s], ctr, memo);
    if (g->def[s] < 0)
        return false;
    const ir_inst *in = &g->k->code[g->def[s]];
    if (in->op == IR_BINARY && in->sub == IR_MUL) {
        bool da = wc_dep(h, need, in->a, ctr, memo), db = wc_dep(h, need, in->b, ctr, memo);
        if ((da && db) || (da && !uniform(h, in->b)) || (db && !uniform(h, in->a)))
            return false;
    }
    int32_t rd[IR_MAX_READS];
    int nr = ir_reads(in, rd);
    for (int i = 0; i < nr; i++)
        if (!wc_linear(h, need, rd[i], ctr, memo))
            return false;
    return true;
}

/* The counted loop around access pc whose counter is ctr, its first value
 * set in a straight line before its head. */
static bool wc_loop(const cg *g, int32_t pc, int32_t ctr, wloop *w)
{
    const ir_kernel *k = g->k;
    for (int32_t J = pc + 1; J < k->ncode; J++) {
        if (k->code[J].op != IR_JUMP || k->code[J].imm > pc || !g->counted[J] ||
            !cg_counted_loop(g, J, &w->c) || w->c.ctr != ctr || w->c.step_at <= pc)
            continue;
        int32_t H = w->c.head, init = -1;
        for (int32_t q = 0; q < k->ncode; q++)
            if ((q < H || q > J) && ir_writes_dst(&k->code[q]) && k->code[q].dst == ctr) {
                if (init >= 0 || q > H)
                    return false;
                init = q;
            }
        if (init < 0)
            return false;
        for (int32_t q = init + 1; q < H; q++)
            if (g->label[q] || k->code[q].op == IR_JUMP || k->code[q].op == IR_BRANCH ||
                k->code[q].op == IR_RETURN)
                return false;
        const ir_inst *in = &k->code[init];
        bool ok = in->op == IR_CONST || (in->op == IR_COPY && entry_value(g, in->a, &w->start));
        if (in->op == IR_CONST)
            strbuf_printf(&w->start, "((tk_i64)%" PRId64 "ll)", in->imm);
        /* within +-2^30 (tested at the entry), a step no larger */
        return ok && entry_value(g, w->c.bound, &w->bound) &&
               w->c.step > -HC_BOUND &&
               w->c.step < HC_BOUND;
    }
    return false;
}

/* Scalar s's value from its instruction, of the slots s<operand> (the
 * scalars the round makes, made again at the entry). */
static bool made_expr(const cg *g, int32_t s, strbuf *e)
{
    const ir_inst *in = &g->k->code[g->def[s]];
    dtype dt = cg_dt(g, s);
    char a[24], b[24];
    snprintf(a, sizeof a, "s%d", in->a);
    snprintf(b, sizeof b, "s%d", in->b);
    switch ((ir_opcode)in->op) {
    case IR_CONST:
        strbuf_printf(e, "((%s)%" PRId64 "ll)", cg_ctype(g, s), in->imm);
        return true;
    case IR_BINARY:
        return cgen_binary(e, (ir_binop)in->sub, dt, a, b, cg_dt(g, in->b));
    case IR_CAST:
        return cgen_cast(e, (ir_cast_kind)in->sub, dt, cg_dt(g, in->a), a);
    case IR_PTR_ADD:
        strbuf_printf(e, "((tk_u64)(%s) + (tk_u64)(tk_i64)(%s) * %dull)", a, b,
                      (int)dtype_size(dtype_elem(dt)));
        return true;
    case IR_COPY:
        strbuf_puts(e, a);
        return true;
    case IR_PROGRAM_ID: case IR_NUM_PROGRAMS: case IR_ARG: case IR_ARANGE: case IR_UNARY:
    case IR_CMP: case IR_WHERE: case IR_BROADCAST: case IR_RESHAPE: case IR_TRANS:
    case IR_FLIP: case IR_CONCAT: case IR_SLICE: case IR_GATHER: case IR_HISTOGRAM:
    case IR_BITCAST: case IR_MATH: case IR_LOAD: case IR_STORE: case IR_ATOMIC: case IR_DOT:
    case IR_REDUCE: case IR_SCAN: case IR_PRINT: case IR_ASSERT: case IR_BREAKPOINT:
    case IR_JUMP: case IR_BRANCH: case IR_RETURN: case IR_NOP:
        break;
    }
    return false;
}

/* Can scalar s, which the round makes, be made again at the entry: an
 * integer or pointer ADD, SUB, MUL, PTR_ADD, COPY or CAST of values the
 * entry made, constants, the counter and other such scalars, made once, in
 * the straight line before the access (after the loop's head when it reads
 * the counter), where nothing changes what it read? */
static bool wc_made(const cg *g, int32_t pc, int32_t s, int32_t head, uint8_t *need, int depth)
{
    if (need[s])
        return need[s] != W_COUNTER || head >= 0;
    if (g->entry_made[s]) {
        need[s] = W_ENTRY;
        return true;
    }
    int32_t d = g->def[s];
    if (depth > 8 || d < 0 || d >= pc || !cg_scalar(g, s) || d <= head)
        return false;
    const ir_inst *in = &g->k->code[d];
    dtype dt = cg_dt(g, s);
    bool ok;
    switch ((ir_opcode)in->op) {
    case IR_CONST:
        need[s] = W_MADE;
        return dtype_is_int(dt);
    case IR_BINARY:
        ok = dtype_is_int(dt) && (in->sub == IR_ADD || in->sub == IR_SUB || in->sub == IR_MUL);
        break;
    case IR_CAST:
        ok = dtype_is_int(dt) && dtype_is_int(cg_dt(g, in->a));
        break;
    case IR_PTR_ADD: case IR_COPY:
        ok = true;
        break;
    case IR_PROGRAM_ID: case IR_NUM_PROGRAMS: case IR_ARG: case IR_ARANGE: case IR_UNARY:
    case IR_CMP: case IR_WHERE: case IR_BROADCAST: case IR_RESHAPE: case IR_TRANS:
    case IR_FLIP: case IR_CONCAT: case IR_SLICE: case IR_GATHER: case IR_HISTOGRAM:
    case IR_BITCAST: case IR_MATH: case IR_LOAD: case IR_STORE: case IR_ATOMIC: case IR_DOT:
    case IR_REDUCE: case IR_SCAN: case IR_PRINT: case IR_ASSERT: case IR_BREAKPOINT:
    case IR_JUMP: case IR_BRANCH: case IR_RETURN: case IR_NOP:
    default:
        ok = false;
        break;
    }
    int32_t rd[IR_MAX_READS];
    int nr = ir_reads(in, rd);
    for (int i = 0; ok && i < nr; i++)
        ok = cg_scalar(g, rd[i]) && cg_held_until(g, d, pc, rd[i], s) &&
             wc_made(g, pc, rd[i], head, need, depth + 1);
    if (ok) {
        strbuf e = {0};
        ok = made_expr(g, s, &e);
        strbuf_free(&e);
    }
    if (ok)
        need[s] = W_MADE;
    return ok;
}

/* Is access pc (analysed in h) tested for its whole loop (w, freed by
 * wloop_free)?  Its leaves: values the entry made, at most one counter,
 * and scalars the round makes from them (wc_made). */
static bool wc_access(cg *g, int32_t pc, const hc *h, wloop *w)
{
    const ir_kernel *k = g->k;
    *w = (wloop){.c = {.ctr = -1}};
    if (pc <= g->entry_end || g->check_at[pc] < 0)
        return false;
    w->need = calloc((size_t)k->nslots + 1, 1);
    uint8_t *memo = calloc((size_t)k->nslots + 1, 1);
    bool ok = w->need && memo;
    /* the counter: a leaf, or read by a scalar the round makes, that a
     * counted loop around the access steps */
    for (int32_t J = pc + 1; ok && J < k->ncode && w->c.ctr < 0; J++) {
        cg_count c;
        if (k->code[J].op == IR_JUMP && k->code[J].imm <= pc && g->counted[J] &&
            cg_counted_loop(g, J, &c) && c.step_at > pc && !g->entry_made[c.ctr])
            w->c = c;
    }
    if (ok && w->c.ctr >= 0)
        w->need[w->c.ctr] = W_COUNTER;
    for (int32_t s = 0; ok && s < k->nslots; s++)
        if (h->leaf[s] && s != w->c.ctr)
            ok = (h->leaf[s] == 1 || g->entry_made[s]) &&
                 wc_made(g, pc, s, w->c.ctr >= 0 ? w->c.head : -1, w->need, 0);
    if (ok && w->c.ctr >= 0) {
        bool reads = false;
        for (int32_t s = 0; s < k->nslots && !reads; s++)
            reads = s != w->c.ctr && w->need[s] == W_MADE && wc_dep(h, w->need, s, w->c.ctr, memo);
        if (!reads && !h->leaf[w->c.ctr]) {
            w->need[w->c.ctr] = 0;      /* the test does not read it */
            w->c.ctr = -1;
        }
    }
    if (ok && w->c.ctr >= 0) {
        cg_count c = w->c;
        uint8_t *need = w->need;
        w->need = NULL;
        ok = wc_loop(g, pc, c.ctr, w) && w->c.jump == c.jump;
        w->need = need;
        memset(memo, 0, (size_t)k->nslots + 1);
        ok = ok && wc_linear(h, w->need, k->code[pc].a, w->c.ctr, memo);
    }
    free(memo);
    return ok;
}

/* The key of a loop's rounds: loops of the same key share a block. */
static void wc_key(const cg *g, const wloop *w, strbuf *key)
{
    if (w->c.ctr < 0)
        return;
    strbuf_printf(key, "%s %s %" PRId64 " %d %s", strbuf_cstr(&w->start), strbuf_cstr(&w->bound),
                  w->c.step, (int)w->c.cmp, cg_ctype(g, w->c.ctr));
}

/* The scalars access a's closed form reads that its round makes: the
 * counter at value v (NULL: none) and the scalars made from it. */
static void wc_scalars(cg *g, const access *a, const char *v)
{
    int32_t pc = a->pc;
    const wloop *w = &a->w;
    if (v)
        cg_printf(g, "const %s s%d = (%s)(%s);\n", cg_ctype(g, w->c.ctr), w->c.ctr,
                  cg_ctype(g, w->c.ctr), v);
    /* the scalars the round makes, in the order it makes them */
    for (int32_t q = 0; q < pc; q++) {
        const ir_inst *in = &g->k->code[q];
        if (!ir_writes_dst(in) || in->dst < 0 || w->need[in->dst] != W_MADE ||
            g->def[in->dst] != q)
            continue;
        strbuf e = {0};
        if (!made_expr(g, in->dst, &e))
            strbuf_puts(&e, "0 /* not made again */");
        cg_printf(g, "const %s s%d = %s;\n", cg_ctype(g, in->dst), in->dst, strbuf_cstr(&e));
        strbuf_free(&e);
    }
}

/* Access a's test at counter value v (NULL: none), into dest. */
static void wc_test(cg *g, const access *a, const char *dest, const char *v, bool whole)
{
    cg_printf(g, "{ /* %d%s */\n", a->pc, whole ? ", every lane" : "");
    wc_scalars(g, a, v);
    emit_test(&a->h, &g->k->code[a->pc], a->mask, dest, true, whole);
    cg_printf(g, "}\n");
}

/* While one thread makes the entry's tests, the block's other warps wait
 * at the barrier, and a memory-bound kernel has nothing in flight: layer
 * norm spent 10% of its time there (doc/performance.md, tenth session).
 * So every thread first asks L2 for its share of the bytes that the first
 * round of load a (of the first loop) reads, every lane (a superset of the
 * active ones), 128-byte lines: a prefetch, which reads nothing into the
 * program and cannot fail, and only at addresses inside the load's
 * argument, whatever the closed form says (it need not be trusted: a
 * wrong range prefetches useless lines).  Only ranges no wider than the
 * tile's own bytes (dense or narrower), a line a thread (a larger tile has
 * its first lines prefetched): written as a loop over the lines, the
 * prefetch made ptxas keep values alive into the unchecked copy of the
 * body (cgen.c, emit_unchecked_copy), 48 registers instead of 40. */
static void wc_prefetch(cg *g, const access *a)
{
    const ir_inst *in = &g->k->code[a->pc];
    int32_t p = in->a, pa = g->k->slots[p].ptr_arg;
    int esz = (int)dtype_size(dtype_elem(cg_dt(g, p)));
    int64_t bytes = ir_type_numel(cg_type(g, p)) * esz;
    cg_printf(g, "{ /* %d: its first round's lines into L2 while the tests run */\n", a->pc);
    wc_scalars(g, a, a->w.c.ctr < 0 ? NULL : strbuf_cstr(&a->w.start));
    emit_offsets(&a->h, in, -1, NULL);
    cg_printf(g, "const tk_u64 tk_s = tk_h%db + (tk_u64)tk_ol, tk_e = tk_s + (tk_u64)(tk_oh - tk_ol) "
              "+ %dull;\n", p, esz);
    cg_printf(g, "const tk_u64 tk_a0 = tk_s < tk_lo%d ? tk_lo%d : tk_s, "
              "tk_a1 = tk_e > tk_hi%d ? tk_hi%d : tk_e;\n", pa, pa, pa, pa);
    cg_printf(g, "if ((tk_u64)(tk_oh - tk_ol) < %" PRId64 "ull && tk_a0 < tk_a1) {\n", bytes);
    cg_printf(g, "  const tk_u64 tk_a = (tk_a0 & ~127ull) + (tk_u64)tk_tid * 128ull;\n");
    cg_printf(g, "  if (tk_a < tk_a1) asm volatile(\"prefetch.global.L2 [%%0];\" :: "
              "\"l\"(tk_a < tk_a0 ? tk_a0 : tk_a));\n}\n}\n");
}

/* The prefetches (wc_prefetch) of the entry's tests: the loads of the
 * first loop whose accesses the entry tests, one a test. */
static void wc_prefetches(cg *g, const access *acc, int na, const int *test)
{
    if (!cgen_dialect_of(&g->o->target)->ptx)
        return;
    int32_t head = -1;
    for (int i = 0; i < na; i++)
        if (acc[i].w.c.ctr >= 0 && (head < 0 || acc[i].w.c.head < head))
            head = acc[i].w.c.head;
    for (int i = 0; i < na; i++) {
        bool seen = false;
        for (int j = 0; j < i && !seen; j++)
            seen = test[j] == test[i] && g->k->code[acc[j].pc].op == IR_LOAD &&
                   acc[j].w.c.ctr >= 0 && acc[j].w.c.head == head;
        if (!seen && head >= 0 && g->k->code[acc[i].pc].op == IR_LOAD && acc[i].w.c.ctr >= 0 &&
            acc[i].w.c.head == head)
            wc_prefetch(g, &acc[i]);
    }
}

/* The bit of tk_all that says access pc passed the entry's test: one per
 * access tested there, in the order of the code (beyond 32 they share,
 * and a bit is set only where all of its accesses passed). */
static int whole_bit(const cg *g, int32_t pc)
{
    int n = 0;
    for (int32_t q = 0; q < pc; q++)
        n += g->whole[q];
    return n % 32;
}

/* Access a's tests of every round, into dest: at the last round with its
 * mask, then with every lane at the first and the one before the last
 * (the block's tk_wl, tk_ws, tk_wn). */
static void wc_rounds(cg *g, const access *a, const char *dest)
{
    char before_last[64];
    snprintf(before_last, sizeof before_last, "tk_wl - (%" PRId64 "ll)", a->w.c.step);
    wc_test(g, a, dest, a->w.c.ctr < 0 ? NULL : "tk_wl", false);
    if (a->w.c.ctr < 0)
        return;
    cg_printf(g, "if (tk_wn > 0) {\n");
    wc_test(g, a, dest, "tk_ws", true);
    wc_test(g, a, dest, before_last, true);
    cg_printf(g, "}\n");
}

/* The tests tl[0..n) of the entry (all of one loop key), in one block that
 * counts the loop's rounds once, then makes each test's passes in turn,
 * where the compiler shares what they compute alike.  Test t is made by
 * its first access (acc[rep[t]]) into tk_w<its pc> and stands for every
 * access acc[i] with test[i] == t, whose bits it clears where it fails. */
static void wc_block(cg *g, const access *acc, int na, const int *test, const int *rep,
                     const int *tl, int n)
{
    const wloop *w0 = &acc[rep[tl[0]]].w;
    char before_last[64];
    snprintf(before_last, sizeof before_last, "tk_wl - (%" PRId64 "ll)", w0->c.step);
    cg_printf(g, "{\nbool tk_wok = true;\n");
    if (w0->c.ctr >= 0) {
        bool up = w0->c.cmp == IR_LT || w0->c.cmp == IR_LE;
        bool strict = w0->c.cmp == IR_LT || w0->c.cmp == IR_GT;
        int64_t lo, hi;
        affine_dtype_range(cg_dt(g, w0->c.ctr), &lo, &hi);
        /* the rounds: tk_wn + 1 of them (none when !tk_wr), the last
         * at tk_wl, the value after it still in the counter's dtype */
        cg_printf(g, "const tk_i64 tk_ws = %s, tk_wb = %s;\n", strbuf_cstr(&w0->start),
                  strbuf_cstr(&w0->bound));
        cg_printf(g, "const tk_i64 tk_wd = %s - %d;\n", up ? "tk_wb - tk_ws" : "tk_ws - tk_wb",
                  strict ? 1 : 0);
        cg_printf(g, "const bool tk_wr = tk_wd >= 0;\n");
        cg_printf(g, "const tk_i64 tk_wn = tk_wr ? tk_wd / %" PRId64 "ll : 0, tk_wl = tk_ws + "
                  "tk_wn * %" PRId64 "ll;\n", up ? w0->c.step : -w0->c.step, w0->c.step);
        cg_printf(g, "tk_wok = tk_ws >= -%" PRId64 "ll && tk_ws <= %" PRId64 "ll && tk_wb >= -%"
                  PRId64 "ll && tk_wb <= %" PRId64 "ll && tk_wl + %" PRId64 "ll >= %" PRId64
                  "ll && tk_wl + %" PRId64 "ll <= %" PRId64 "ll;\n", HC_BOUND, HC_BOUND, HC_BOUND,
                  HC_BOUND, w0->c.step, lo, w0->c.step, hi);
    }
    for (int i = 0; i < n; i++)
        cg_printf(g, "bool tk_w%d = tk_wok;\n", acc[rep[tl[i]]].pc);
    if (w0->c.ctr >= 0)
        cg_printf(g, "if (tk_wr && tk_wok) {\n");
    for (int pass = 0; pass < 3; pass++) {
        if (pass == 1) {
            if (w0->c.ctr < 0)
                break;
            cg_printf(g, "if (tk_wn > 0) {\n");
        }
        for (int i = 0; i < n; i++) {
            const access *a = &acc[rep[tl[i]]];
            char dest[32];
            snprintf(dest, sizeof dest, "tk_w%d", a->pc);
            wc_test(g, a, dest, a->w.c.ctr < 0 ? NULL : pass == 0 ? "tk_wl" : pass == 1 ?
                    "tk_ws" : before_last, pass > 0);
        }
    }
    if (w0->c.ctr >= 0)
        cg_printf(g, "}\n}\n");
    /* the bits of each test's accesses, cleared at once where it failed */
    for (int i = 0; i < n; i++) {
        unsigned int bits = 0;
        for (int j = 0; j < na; j++)
            if (test[j] == tl[i])
                bits |= 1u << whole_bit(g, acc[j].pc);
        cg_printf(g, "if (!tk_w%d) tk_all &= ~0x%xu;\n", acc[rep[tl[i]]].pc, bits);
    }
    cg_printf(g, "}\n");
}

/* The tests set[0..n) (test numbers), a block for each loop key in the
 * order of its first test; tl is room for n numbers. */
static void wc_blocks(cg *g, const access *acc, int na, const int *test, const int *rep,
                      const int *set, int n, int *tl)
{
    for (int i = 0; i < n; i++) {
        const char *key = strbuf_cstr(&acc[rep[set[i]]].key);
        bool seen = false;
        for (int j = 0; j < i && !seen; j++)
            seen = strcmp(strbuf_cstr(&acc[rep[set[j]]].key), key) == 0;
        if (seen)
            continue;
        int nb = 0;
        for (int j = i; j < n; j++)
            if (strcmp(strbuf_cstr(&acc[rep[set[j]]].key), key) == 0)
                tl[nb++] = set[j];
        wc_block(g, acc, na, test, rep, tl, nb);
    }
}

/* Access a's tests as text whose own names are numbered in the order they
 * first appear (tk_h<slot> and the scalars made again: the counter and
 * W_MADE), into out: two accesses with the same text and loop key test the
 * same addresses. */
static void wc_canon(cg *g, const access *a, strbuf *out)
{
    strbuf text = {0};
    strbuf *save = g->out;
    g->out = &text;
    wc_rounds(g, a, "tk_w");
    g->out = save;
    int32_t ns = g->k->nslots;
    int32_t *hn = malloc(((size_t)ns + 1) * sizeof *hn), *sn = malloc(((size_t)ns + 1) * sizeof *sn);
    int nh = 0, nsn = 0;
    for (int32_t i = 0; hn && sn && i <= ns; i++)
        hn[i] = sn[i] = -1;
    const char *t = strbuf_cstr(&text);
    /* skip the comments, which name the access */
    for (size_t i = 0; hn && sn && t[i]; ) {
        if (t[i] == '/' && t[i + 1] == '*') {
            const char *e = strstr(t + i + 2, "*/");
            i = e ? (size_t)(e - t) + 2 : strlen(t);
            continue;
        }
        bool word = i == 0 || !(t[i - 1] == '_' || (t[i - 1] >= 'a' && t[i - 1] <= 'z') ||
                                (t[i - 1] >= 'A' && t[i - 1] <= 'Z') ||
                                (t[i - 1] >= '0' && t[i - 1] <= '9'));
        size_t d = strncmp(t + i, "tk_h", 4) == 0 ? 4 : t[i] == 's' ? 1 : 0;
        if (word && d && t[i + d] >= '0' && t[i + d] <= '9') {
            char *end;
            long v = strtol(t + i + d, &end, 10);
            bool local = v >= 0 && v < ns && (d == 4 || (a->w.need[v] == W_MADE || v == a->w.c.ctr));
            bool tail = *end == '_' || (*end >= '0' && *end <= '9') ||
                        (d == 1 && ((*end >= 'a' && *end <= 'z') || (*end >= 'A' && *end <= 'Z')));
            if (local && !tail) {
                int32_t *map = d == 4 ? hn : sn;
                if (map[v] < 0)
                    map[v] = d == 4 ? nh++ : nsn++;
                strbuf_printf(out, "%s#%d", d == 4 ? "tk_h" : "s", map[v]);
                i = (size_t)(end - t);
                continue;
            }
        }
        strbuf_printf(out, "%c", t[i]);
        i++;
    }
    if (!hn || !sn)     /* (no memory: a text no other access has) */
        strbuf_printf(out, "#%d", a->pc);
    free(hn);
    free(sn);
    strbuf_free(&text);
}

/* One thread of the block makes the tests, and the others read its answer,
 * a bit per access (tk_all), after a barrier: the tests cost a warp's
 * instructions once a program, not once a warp.  (Spread over the warps,
 * a test each, the block waited less but issued more: the same
 * computations of the loops' rounds and of shared index forms in every
 * warp, and layer norm, bound by instruction issue, was slower.)  They are
 * written in the kernel (the scalars they read are the kernel's own): in
 * a function of their own, the call's parameters made them slower, not
 * faster.  Accesses whose tests are the same code share one.  Before the
 * tests, every thread prefetches its line of the first loop's loads
 * (wc_prefetches), so that the block has memory in flight while it waits. */
void cg_emit_entry_checks(cg *g, int32_t pc)
{
    const ir_kernel *k = g->k;
    if (pc != g->entry_end)
        return;
    /* every access tested here, analysed once */
    int n = 0;
    for (int32_t q = 0; q < k->ncode; q++)
        n += g->whole[q];
    if (!n)
        return;
    access *acc = calloc((size_t)n, sizeof *acc);
    int *rep = calloc((size_t)n, sizeof *rep), *set = calloc((size_t)n, sizeof *set);
    int *tl = calloc((size_t)n, sizeof *tl);
    int *test = calloc((size_t)n, sizeof *test);
    strbuf *canon = calloc((size_t)n, sizeof *canon);
    int na = 0;
    if (!acc || !rep || !set || !tl || !test || !canon) {
        cg_fail(g, -1, "out of memory");
        goto out;
    }
    for (int32_t q = 0; q < k->ncode; q++) {
        if (!g->whole[q])
            continue;
        if (access_open(g, q, true, &acc[na]) && acc[na].whole)
            na++;
        else
            access_close(&acc[na]);
    }
    /* accesses whose tests are the same code share one (test[i]: its
     * number, in the order of the first access) */
    int nt = 0;
    for (int i = 0; i < na; i++) {
        wc_canon(g, &acc[i], &canon[i]);
        test[i] = -1;
        for (int j = 0; j < i && test[i] < 0; j++)
            if (strcmp(strbuf_cstr(&acc[j].key), strbuf_cstr(&acc[i].key)) == 0 &&
                strcmp(strbuf_cstr(&canon[j]), strbuf_cstr(&canon[i])) == 0)
                test[i] = test[j];
        if (test[i] < 0) {
            rep[nt] = i;
            test[i] = nt++;
        }
    }
    cg_printf(g, "/* the accesses of whole loops, tested for all their rounds at the kernel's "
              "entry (cgen_check.c) */\n{\n__shared__ unsigned int tk_alls;\n");
    wc_prefetches(g, acc, na, test);
    cg_printf(g, "if (tk_tid == 0) {\nunsigned int tk_all = ~0u;\n");
    for (int t = 0; t < nt; t++)
        set[t] = t;
    wc_blocks(g, acc, na, test, rep, set, nt, tl);
    cg_printf(g, "tk_alls = tk_all;\n}\n__syncthreads();\ntk_all = tk_alls;\n}\n");
    for (int i = 0; i < na; i++) {
        access_close(&acc[i]);
        strbuf_free(&canon[i]);
    }
out:
    free(acc);
    free(rep);
    free(set);
    free(tl);
    free(test);
    free(canon);
}

/* May the test of an access move up over instruction q: it cannot fail
 * a check itself (so that the tests still note failures in the order of
 * the program), moves nothing out of order and is no stop? */
static bool quiet(const cg *g, int32_t q)
{
    const ir_inst *in = &g->k->code[q];
    if (g->moved[q] || g->pf_dot[q] >= 0 || g->pipe_head[q] >= 0)
        return false;
    switch ((ir_opcode)in->op) {
    case IR_CONST: case IR_PROGRAM_ID: case IR_NUM_PROGRAMS: case IR_ARG: case IR_ARANGE:
    case IR_COPY: case IR_BROADCAST: case IR_RESHAPE: case IR_TRANS: case IR_FLIP:
    case IR_CONCAT: case IR_SLICE: case IR_HISTOGRAM: case IR_CAST: case IR_BITCAST:
    case IR_UNARY: case IR_BINARY: case IR_CMP: case IR_WHERE: case IR_MATH: case IR_PTR_ADD:
    case IR_REDUCE: case IR_SCAN: case IR_NOP:
        return true;
    case IR_GATHER: case IR_LOAD: case IR_STORE: case IR_ATOMIC: case IR_DOT: case IR_PRINT:
    case IR_ASSERT: case IR_BREAKPOINT: case IR_JUMP: case IR_BRANCH: case IR_RETURN:
        break;
    }
    return false;
}

bool cg_entry_checks_all(const cg *g)
{
    const ir_kernel *k = g->k;
    if (!g->o->checked || g->int_ptrs)
        return false;
    int n = 0;
    for (int32_t pc = 0; pc < k->ncode; pc++) {
        ir_opcode op = (ir_opcode)k->code[pc].op;
        if (op == IR_LOAD || op == IR_STORE) {
            if (!g->whole[pc])
                return false;
            n++;
        } else if (op != IR_JUMP && op != IR_BRANCH && op != IR_RETURN && !quiet(g, pc)) {
            return false;
        }
    }
    return n > 0;
}

void cg_find_checks(cg *g)
{
    const ir_kernel *k = g->k;
    g->entry_end = 0;
    while (g->entry_end < k->ncode && !g->label[g->entry_end] &&
           k->code[g->entry_end].op != IR_JUMP && k->code[g->entry_end].op != IR_BRANCH &&
           k->code[g->entry_end].op != IR_RETURN)
        g->entry_end++;
    for (int32_t s = 0; s < k->nslots; s++)
        g->entry_made[s] = g->last_write[s] < g->entry_end;
    for (int32_t pc = 0; pc < k->ncode; pc++) {
        g->check_at[pc] = -1;
        access a;
        if (access_open(g, pc, false, &a)) {
            /* Up to the start of the straight line of quiet instructions
             * and accesses checked this way before it, where the scalars
             * the test reads already hold what they hold at the access:
             * there few values are live around the search's call.  Not
             * above the test of an earlier access (the tests note failures
             * in the program's order). */
            int32_t at = pc;
            while (at > 0 && !g->label[at]) {
                int32_t q = at - 1, d = ir_writes_dst(&k->code[q]) ? k->code[q].dst : -1;
                bool writes_leaf = d >= 0 && a.h.leaf[d];
                if (writes_leaf || (!quiet(g, q) && g->check_at[q] < 0))
                    break;
                at = q;
            }
            for (int32_t q = at; q < pc; q++)
                if (g->check_at[q] > at)
                    at = g->check_at[q];
            g->check_at[pc] = at;
            /* (its loop is looked at once check_at says where its own
             * test goes) */
            g->whole[pc] = wc_access(g, pc, &a.h, &a.w);
        }
        access_close(&a);
    }
}

void cg_check_decls(cg *g)
{
    bool any = false;
    for (int32_t pc = 0; pc < g->k->ncode && !any; pc++)
        any = g->whole[pc];
    if (any)
        cg_printf(g, "unsigned int tk_all = ~0u;   /* a bit for each access whose test at "
                  "the entry passed (cg_emit_entry_checks) */\n");
    for (int32_t pc = 0; pc < g->k->ncode; pc++)
        if (g->check_at[pc] >= 0)
            cg_printf(g, "bool tk_ok%d;   /* %d: checked at %d (cgen_check.c) */\n", pc, pc,
                      g->check_at[pc]);
}

void cg_emit_checks(cg *g, int32_t at)
{
    for (int32_t pc = at; pc < g->k->ncode; pc++) {
        if (g->check_at[pc] != at)
            continue;
        access a;
        if (access_open(g, pc, false, &a)) {
            const ir_inst *in = &g->k->code[pc];
            cg_printf(g, "/* %d: its lanes' addresses in closed form, checked at once "
                      "(cgen_check.c) */\n", pc);
            char dest[32];
            snprintf(dest, sizeof dest, "tk_ok%d", pc);
            /* an access the entry tested (its bit of tk_all): where that
             * test failed, no closed form here, only the search (the closed
             * form beside the entry's test raised layer norm from 39 to 48
             * registers) */
            if (g->whole[pc])
                cg_printf(g, "%s = (tk_all >> %d) & 1u;\n", dest, whole_bit(g, pc));
            else
                emit_test(&a.h, in, a.mask, dest, false, false);
            emit_search(&a.h, in, strbuf_cstr(&a.ptr), strbuf_cstr(&a.m));
        }
        access_close(&a);
    }
}

bool cg_check_hoist(cg *g, int32_t pc, const ir_inst *in)
{
    (void)in;
    if (g->check_at[pc] < 0)
        return false;
    g->hoisted = pc;
    return true;
}

void cg_check_hoist_end(cg *g)
{
    g->hoisted = -1;
}

void cg_check_functions(cg *g)
{
    if (!g->fns.len)
        return;
    strbuf tail = {0};
    strbuf_puts(&tail, strbuf_cstr(g->out) + g->sig_at);
    strbuf_truncate(g->out, g->sig_at);
    strbuf_puts(g->out, strbuf_cstr(&g->fns));
    strbuf_puts(g->out, strbuf_cstr(&tail));
    strbuf_free(&tail);
}
