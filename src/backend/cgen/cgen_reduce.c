/* cgen_reduce.c - REDUCE and SCAN in parallel.
 *
 * A layout whose sizes are powers of two (every Triton tile) is a
 * permutation of bits: each bit of a tile's flat element index is one bit
 * of the register number, of the lane or of the warp that holds the
 * element (bit_map).  Reducing along an axis then means combining over
 * the element bits of that axis, level by level:
 *   1. within a thread, the registers that differ only in reduced bits
 *      (thread_combine), into one accumulator per output it holds;
 *   2. within a warp, over the reduced lane bits, by __shfl_xor(_sync)
 *      butterflies (warp_combine): every lane of a group ends with the same
 *      value, since both partners combine (lower lane, upper lane);
 *   3. across warps through shared memory (block_combine): each warp's
 *      partial at [output][warp], then every thread combines the partials
 *      of the outputs it holds in dst's layout, in warp order.
 * A SCAN runs the same levels from the axis's lowest bit up (a butterfly
 * scan: each element keeps the prefix of its block and the block's total).
 *
 * Exactness (doc/ir.md 3.7, 4.2): float SUM and PROD (and scans) differ
 * from the CPU's sequential order within the tolerance of 4.2; fp16 and
 * bf16 run in fp32 and round once per output.  MAX/MIN (NaN ignored unless
 * all are NaN), ARGMAX/ARGMIN (first index of the extreme, NaN skipped,
 * all NaN 0) and integer kinds (wrapping) give the CPU's bits in any
 * order.  Tiles of other sizes take the sequential form (serial_reduce),
 * the CPU's order through shared memory. */
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

static bool is_arg(ir_reduce kind)
{
    return kind == IR_RED_ARGMAX || kind == IR_RED_ARGMIN;
}

/* ---- combining steps ---------------------------------------------------- */

/* `lo op hi` in the running dtype, lo the elements of lower index (the
 * CPU's running value, hi its next element); false for ARGMAX/ARGMIN
 * (arg_step) and unsupported kinds. */
static bool combine_expr(strbuf *sb, ir_reduce kind, dtype dt, const char *lo, const char *hi)
{
    dtype rd = run_dtype(dt);
    switch (kind) {
    case IR_RED_SUM:
        return cgen_binary(sb, IR_ADD, rd, lo, hi, rd);
    case IR_RED_PROD:
        return cgen_binary(sb, IR_MUL, rd, lo, hi, rd);
    case IR_RED_XOR:
        return cgen_binary(sb, IR_XOR, rd, lo, hi, rd);
    case IR_RED_AND:
        return cgen_binary(sb, IR_AND, rd, lo, hi, rd);
    case IR_RED_OR:
        return cgen_binary(sb, IR_OR, rd, lo, hi, rd);
    case IR_RED_MAX:
    case IR_RED_MIN: {
        /* the CPU's step: a NaN running value gives way to the next */
        const char *cmp = kind == IR_RED_MAX ? ">" : "<";
        if (is_float(dt))
            strbuf_printf(sb, "(((%s) %s (%s) || (%s) != (%s)) ? (%s) : (%s))", hi, cmp, lo, lo,
                          lo, hi, lo);
        else
            strbuf_printf(sb, "(((%s) %s (%s)) ? (%s) : (%s))", hi, cmp, lo, hi, lo);
        return true;
    }
    case IR_RED_ARGMAX:
    case IR_RED_ARGMIN:
        return false;
    }
    return false;
}

/* ARGMAX/ARGMIN: the pair (av, ai) takes (bv, bi) when b is the better
 * candidate.  An index of -1 marks "no value yet" (NaN lanes); ties go
 * to the lower index, so the step is commutative and associative and
 * any tree gives the CPU's first extreme. */
static void arg_step(cg *g, ir_reduce kind, const char *av, const char *ai, const char *bv,
                     const char *bi)
{
    const char *cmp = kind == IR_RED_ARGMAX ? ">" : "<";
    cg_printf(g, "if (%s >= 0 && (%s < 0 || %s %s %s || (%s == %s && %s < %s))) "
              "{ %s = %s; %s = %s; }\n",
              bi, ai, bv, cmp, av, bv, av, bi, ai, av, bv, ai, bi);
}

/* A butterfly shuffle of v by mask (the dialect's __shfl_xor_sync or
 * __shfl_xor) for a register form (narrow ones travel as 32-bit
 * integers). */
static void shfl_expr(const cg *g, strbuf *sb, dtype dt, const char *v, int mask)
{
    const char *w;
    if (dt == DTYPE_FP64)
        w = "double";
    else if (is_float(dt))
        w = "float";
    else if (dt == DTYPE_INT64)
        w = "long long";
    else if (dt == DTYPE_UINT64)
        w = "unsigned long long";
    else if (dt == DTYPE_UINT8 || dt == DTYPE_UINT16 || dt == DTYPE_UINT32)
        w = "unsigned";
    else
        w = "int";
    strbuf_printf(sb, "((%s)", cgen_ctype(dt));
    strbuf_printf(sb, cgen_dialect_of(&g->o->target)->shfl_xor, w, v, mask);
    strbuf_putc(sb, ')');
}

/* ---- layouts as bit maps ---------------------------------------------------- */

typedef enum bit_kind { BIT_REG, BIT_LANE, BIT_WARP } bit_kind;

enum { MAX_BITS = 40 };

typedef struct bit_map {
    int nb;                     /* bits of the element index (n = 2^nb) */
    bit_kind kind[MAX_BITS];    /* element bit i is bit `bit[i]` of the */
    int bit[MAX_BITS];          /* register, lane or warp number */
    int lane_bits;              /* log2(warp size) */
    bool repl;                  /* replicated: threads tk_tid >= n hold copies */
} bit_map;

static int log2_exact(int64_t x)
{
    if (x < 1 || (x & (x - 1)))
        return -1;
    int k = 0;
    while ((INT64_C(1) << k) < x)
        k++;
    return k;
}

/* Element bit i is source bit b of kind k. */
static void map_bits(bit_map *m, int i, bit_kind k, int b, int count)
{
    for (int j = 0; j < count; j++) {
        m->kind[i + j] = k;
        m->bit[i + j] = b + j;
    }
}

/* Thread bits: lane bits first, then warp bits. */
static void map_thread_bits(bit_map *m, int i, int tb, int count)
{
    for (int j = 0; j < count; j++) {
        int b = tb + j;
        m->kind[i + j] = b < m->lane_bits ? BIT_LANE : BIT_WARP;
        m->bit[i + j] = b < m->lane_bits ? b : b - m->lane_bits;
    }
}

/* Fill m for layout L (cgen_impl.h, cg_elem_index); false when some size
 * is not a power of two. */
static bool bit_map_of(const cg *g, const cgen_layout *L, bit_map *m)
{
    *m = (bit_map){.nb = log2_exact(L->n), .lane_bits = log2_exact(g->o->target.warp_size)};
    int tb = log2_exact(g->T);
    if (m->nb < 0 || m->nb > MAX_BITS || m->lane_bits < 0 || tb < 0)
        return false;
    if (L->kind == CGEN_MFMA)   /* (not described here: the general path) */
        return false;
    if (L->kind == CGEN_MMA) {
        /* col = wc*WN + ni*8 + (lane&3)*2 + (r&1), row = wr*WM + mi*16 +
         * h*8 + (lane>>2), with r = (mi*nt + ni)*4 + h*2 + (r&1) */
        int lnt = log2_exact(L->nt), lmt = log2_exact(L->mt), lwn = log2_exact(L->wn),
            lwm = log2_exact(L->wm);
        if (lnt < 0 || lmt < 0 || lwn < 0 || lwm < 0 || m->lane_bits != 5)
            return false;
        int i = 0;
        map_bits(m, i, BIT_REG, 0, 1), i += 1;          /* col bit 0 */
        map_bits(m, i, BIT_LANE, 0, 2), i += 2;         /* col bits 1-2 */
        map_bits(m, i, BIT_REG, 2, lnt), i += lnt;      /* ni */
        map_bits(m, i, BIT_WARP, 0, lwn), i += lwn;     /* wc */
        map_bits(m, i, BIT_LANE, 2, 3), i += 3;         /* row bits 0-2 */
        map_bits(m, i, BIT_REG, 1, 1), i += 1;          /* h */
        map_bits(m, i, BIT_REG, 2 + lnt, lmt), i += lmt; /* mi */
        map_bits(m, i, BIT_WARP, lwn, lwm), i += lwm;   /* wr */
        return i == m->nb;
    }
    if (L->repl) {
        m->repl = true;
        map_thread_bits(m, 0, 0, m->nb);
        return true;
    }
    int vb = log2_exact(L->vec);
    if (vb < 0 || log2_exact(L->regs) < 0)
        return false;
    map_bits(m, 0, BIT_REG, 0, vb);
    map_thread_bits(m, vb, 0, tb);
    map_bits(m, vb + tb, BIT_REG, vb, m->nb - vb - tb);
    return true;
}

/* ---- one reduction's plan --------------------------------------------------- */

typedef struct plan {
    bit_map m;
    const cgen_layout *L;
    int lo, hi;                 /* the reduced element bits: [lo, hi) */
    int nslots, nper;           /* accumulators per thread, registers each */
    int kept_reg[MAX_BITS], nkept;  /* register bits of the outputs */
    int red_reg[MAX_BITS], nred;    /* register bits reduced */
    int red_lane[MAX_BITS], nlane;  /* lane bits reduced */
    int red_warp[MAX_BITS], nwarp;  /* warp bits reduced */
} plan;

static bool reduced(const plan *p, int i)
{
    return i >= p->lo && i < p->hi;
}

static void make_plan(plan *p, const cgen_layout *L, int lo, int hi)
{
    p->L = L;
    p->lo = lo;
    p->hi = hi;
    p->nkept = p->nred = p->nlane = p->nwarp = 0;
    /* registers bits in increasing order, whatever element bits they are */
    for (int b = 0; b < MAX_BITS; b++)
        for (int i = 0; i < p->m.nb; i++) {
            if (p->m.bit[i] != b)
                continue;
            if (p->m.kind[i] == BIT_REG) {
                if (reduced(p, i))
                    p->red_reg[p->nred++] = b;
                else
                    p->kept_reg[p->nkept++] = b;
            } else if (p->m.kind[i] == BIT_LANE && reduced(p, i)) {
                p->red_lane[p->nlane++] = b;
            } else if (p->m.kind[i] == BIT_WARP && reduced(p, i)) {
                p->red_warp[p->nwarp++] = b;
            }
        }
    p->nslots = 1 << p->nkept;
    p->nper = 1 << p->nred;
}

/* The register of accumulator j's i-th element: j's bits deposited in the
 * kept register bits, i's in the reduced ones (an int expression). */
static void reg_expr(const plan *p, strbuf *sb, const char *j, const char *i)
{
    strbuf_puts(sb, "(0");
    for (int q = 0; q < p->nkept; q++)
        strbuf_printf(sb, " | (((%s) >> %d) & 1) << %d", j, q, p->kept_reg[q]);
    for (int q = 0; q < p->nred; q++)
        strbuf_printf(sb, " | (((%s) >> %d) & 1) << %d", i, q, p->red_reg[q]);
    strbuf_puts(sb, ")");
}

/* The output index of element e: its bits without the reduced ones. */
static void out_expr(const plan *p, strbuf *sb, const char *e)
{
    strbuf_printf(sb, "((((%s) >> %d) << %d) | ((%s) & %d))", e, p->hi, p->lo, e,
                  (1 << p->lo) - 1);
}

/* The operand's register `r` in the running dtype. */
static void src_value(const cg *g, const ir_inst *in, strbuf *sb, const char *r, bool run)
{
    dtype dt = cg_dt(g, in->a);
    if (run)
        strbuf_printf(sb, "((%s)s%d[%s])", cgen_ctype(run_dtype(dt)), in->a, r);
    else
        strbuf_printf(sb, "s%d[%s]", in->a, r);
}

/* ---- REDUCE, level by level ------------------------------------------------- */

/* Level 1: tk_a[j] (ARGMAX/ARGMIN: tk_av[j], tk_ai[j]) = the thread's
 * registers of output slot j combined, in register order. */
static void thread_combine(cg *g, const ir_inst *in, const plan *p, const char *step)
{
    ir_reduce kind = (ir_reduce)in->sub;
    dtype dt = cg_dt(g, in->a);
    const char *ct = cgen_ctype(dt), *rt = cgen_ctype(run_dtype(dt));
    strbuf r = {0}, x = {0};
    reg_expr(p, &r, "j", "i");
    bool arg = is_arg(kind);
    src_value(g, in, &x, "r", !arg);
    if (arg)
        cg_printf(g, "%s tk_av[%d]; int tk_ai[%d];\n", ct, p->nslots, p->nslots);
    else
        cg_printf(g, "%s tk_a[%d];\n", rt, p->nslots);
    cg_printf(g, "#pragma unroll\nfor (int j = 0; j < %d; j++) {\n", p->nslots);
    cg_printf(g, "#pragma unroll\nfor (int i = 0; i < %d; i++) {\n", p->nper);
    cg_printf(g, "const int r = %s; (void)r;\n", strbuf_cstr(&r));
    if (arg) {
        strbuf e = {0};
        cg_elem_index(g, p->L, &e, "r");
        cg_printf(g, "const %s tk_x = %s;\n", ct, strbuf_cstr(&x));
        cg_printf(g, "const int tk_xi = %s(%s >> %d) & %d;\n",
                  is_float(dt) ? "tk_x != tk_x ? -1 : " : "", strbuf_cstr(&e), p->lo,
                  (1 << (p->hi - p->lo)) - 1);
        cg_printf(g, "if (i == 0) { tk_av[j] = tk_x; tk_ai[j] = tk_xi; } else\n");
        arg_step(g, kind, "tk_av[j]", "tk_ai[j]", "tk_x", "tk_xi");
        strbuf_free(&e);
    } else {
        cg_printf(g, "const %s tk_x = %s;\n", rt, strbuf_cstr(&x));
        cg_printf(g, "if (i == 0) tk_a[j] = tk_x; else { const %s tk_lo = tk_a[j], tk_hi = tk_x; %s }\n",
                  rt, step);
    }
    cg_printf(g, "}}\n");
    strbuf_free(&r);
    strbuf_free(&x);
}

/* Level 2: butterflies over the reduced lane bits; each pair of lanes
 * combines (lower lane, upper lane), so the lanes of a group end equal. */
static void warp_combine(cg *g, const ir_inst *in, const plan *p, const char *step)
{
    ir_reduce kind = (ir_reduce)in->sub;
    dtype dt = cg_dt(g, in->a), rd = run_dtype(dt);
    for (int q = 0; q < p->nlane; q++) {
        int b = p->red_lane[q];
        cg_printf(g, "{\nconst bool tk_up = (tk_tid >> %d) & 1;\n", b);
        cg_printf(g, "#pragma unroll\nfor (int j = 0; j < %d; j++) {\n", p->nslots);
        strbuf y = {0}, yi = {0};
        if (is_arg(kind)) {
            shfl_expr(g, &y, dt, "tk_av[j]", 1 << b);
            shfl_expr(g, &yi, DTYPE_INT32, "tk_ai[j]", 1 << b);
            cg_printf(g, "const %s tk_yv = %s;\nconst int tk_yi = %s;\n", cgen_ctype(dt),
                      strbuf_cstr(&y), strbuf_cstr(&yi));
            cg_printf(g, "(void)tk_up;\n");
            arg_step(g, kind, "tk_av[j]", "tk_ai[j]", "tk_yv", "tk_yi");
        } else {
            const char *rt = cgen_ctype(rd);
            shfl_expr(g, &y, rd, "tk_a[j]", 1 << b);
            cg_printf(g, "const %s tk_y = %s;\n", rt, strbuf_cstr(&y));
            cg_printf(g, "const %s tk_lo = tk_up ? tk_y : tk_a[j], tk_hi = tk_up ? tk_a[j] : tk_y;\n",
                      rt);
            cg_printf(g, "%s\n", step);
        }
        cg_printf(g, "}}\n");
        strbuf_free(&y);
        strbuf_free(&yi);
    }
}

/* The running value(s) -> dst's register s<dst>[r] or s<dst>. */
static void store_result(cg *g, const ir_inst *in, const char *fin, bool scalar)
{
    if (scalar)
        cg_printf(g, "s%d = %s;\n", in->dst, fin);
    else
        cg_printf(g, "s%d[r] = %s;\n", in->dst, fin);
}

/* Level 3: each warp's partials to shared memory at [output][warp], then
 * every thread combines, in warp order, those of the outputs it holds in
 * dst's layout.  fin converts tk_acc (ARGMAX/ARGMIN: the index) to dst. */
static void block_combine(cg *g, const ir_inst *in, const plan *p, const char *step,
                          const char *fin)
{
    ir_reduce kind = (ir_reduce)in->sub;
    bool arg = is_arg(kind), scalar = cg_scalar(g, in->dst);
    dtype dt = cg_dt(g, in->a);
    const char *ct = cgen_ctype(dt), *rt = cgen_ctype(run_dtype(dt));
    int64_t m = ir_type_numel(cg_type(g, in->dst));
    int nw = 1 << p->nwarp;
    size_t vals = (size_t)m * (size_t)nw * 8;
    cg_need_smem(g, vals + (arg ? (size_t)m * (size_t)nw * 4 : 0));
    const char *vt = arg ? ct : rt;
    /* the writers: one lane per group, no replicas */
    int lane_mask = 0;
    for (int q = 0; q < p->nlane; q++)
        lane_mask |= 1 << p->red_lane[q];
    strbuf w = {0}, r = {0}, e = {0}, o = {0};
    strbuf_puts(&w, "(0");
    for (int q = 0; q < p->nwarp; q++)
        strbuf_printf(&w, " | ((tk_tid >> %d) & 1) << %d", p->m.lane_bits + p->red_warp[q], q);
    strbuf_puts(&w, ")");
    reg_expr(p, &r, "j", "0");
    cg_elem_index(g, p->L, &e, "r");
    out_expr(p, &o, "e");
    cg_barrier(g);
    cg_printf(g, "if ((tk_tid & %d) == 0", lane_mask);
    if (p->m.repl)
        cg_printf(g, " && tk_tid < %" PRId64, p->L->n);
    cg_printf(g, ") {\nconst int tk_w = %s;\n", strbuf_cstr(&w));
    cg_printf(g, "#pragma unroll\nfor (int j = 0; j < %d; j++) {\n", p->nslots);
    cg_printf(g, "const int r = %s; (void)r;\nconst int e = %s; (void)e;\nconst int tk_o = %s;\n",
              strbuf_cstr(&r),
              strbuf_cstr(&e), strbuf_cstr(&o));
    if (arg) {
        cg_printf(g, "((%s *)tk_smem)[tk_o * %d + tk_w] = tk_av[j];\n", ct, nw);
        cg_printf(g, "((int *)(tk_smem + %zu))[tk_o * %d + tk_w] = tk_ai[j];\n", vals, nw);
    } else {
        cg_printf(g, "((%s *)tk_smem)[tk_o * %d + tk_w] = tk_a[j];\n", rt, nw);
    }
    cg_printf(g, "}}\n");
    cg_barrier(g);
    if (scalar) {
        cg_printf(g, "{ const int e = 0; {\n");
    } else {
        cgen_layout Ld = cg_layout(g, in->dst);
        cg_loop_begin(g, &Ld, false);
    }
    cg_printf(g, "const %s *tk_pv = (const %s *)tk_smem + e * %d;\n", vt, vt, nw);
    if (arg) {
        cg_printf(g, "const int *tk_pi = (const int *)(tk_smem + %zu) + e * %d;\n", vals, nw);
        cg_printf(g, "%s tk_av = tk_pv[0]; int tk_ai = tk_pi[0];\n", ct);
        cg_printf(g, "for (int w = 1; w < %d; w++) {\n", nw);
        arg_step(g, kind, "tk_av", "tk_ai", "tk_pv[w]", "tk_pi[w]");
        cg_printf(g, "}\nconst int tk_acc = tk_ai < 0 ? 0 : tk_ai;\n");
    } else {
        cg_printf(g, "%s tk_acc = tk_pv[0];\n", rt);
        cg_printf(g, "for (int w = 1; w < %d; w++) { const %s tk_lo = tk_acc, tk_hi = tk_pv[w]; "
                  "%s }\n", nw, rt, step);
    }
    store_result(g, in, fin, scalar);
    if (scalar)
        cg_printf(g, "}}\n");
    else
        cg_loop_end(g);
    strbuf_free(&w);
    strbuf_free(&r);
    strbuf_free(&e);
    strbuf_free(&o);
}

/* REDUCE on a power-of-two layout: levels 1 to 3 (a scalar result that
 * level 2 left in every thread skips level 3). */
static void tree_reduce(cg *g, const ir_inst *in, plan *p, const char *fin)
{
    ir_reduce kind = (ir_reduce)in->sub;
    dtype dt = cg_dt(g, in->a);
    strbuf ex = {0}, step = {0};
    if (!is_arg(kind)) {
        combine_expr(&ex, kind, dt, "tk_lo", "tk_hi");
        strbuf_printf(&step, "tk_a[j] = %s;", strbuf_cstr(&ex));
    }
    cg_printf(g, "{\n");
    thread_combine(g, in, p, strbuf_cstr(&step));
    warp_combine(g, in, p, strbuf_cstr(&step));
    if (cg_scalar(g, in->dst) && p->nwarp == 0) {
        /* every thread holds the whole result */
        if (is_arg(kind))
            cg_printf(g, "const int tk_acc = tk_ai[0] < 0 ? 0 : tk_ai[0];\n");
        else
            cg_printf(g, "const %s tk_acc = tk_a[0];\n", cgen_ctype(run_dtype(dt)));
        store_result(g, in, fin, true);
    } else {
        strbuf fstep = {0};
        if (!is_arg(kind))
            strbuf_printf(&fstep, "tk_acc = %s;", strbuf_cstr(&ex));
        block_combine(g, in, p, strbuf_cstr(&fstep), fin);
        strbuf_free(&fstep);
    }
    cg_printf(g, "}\n");
    strbuf_free(&ex);
    strbuf_free(&step);
}

/* ---- SCAN ----------------------------------------------------------------- */

/* One level of the butterfly scan: each element's prefix tk_p[r] and its
 * block's total tk_t[r] meet the total tk_y of the partner block; `up`
 * says that the element is in the upper block. */
static void scan_update(cg *g, const char *step_pre, const char *step_tot_up,
                        const char *step_tot_down, const char *up)
{
    cg_printf(g, "if (%s) { %s %s } else { %s }\n", up, step_pre, step_tot_up, step_tot_down);
}

/* SCAN on a power-of-two layout: the axis's element bits from the lowest,
 * each a level within the thread, the warp or the block. */
static void tree_scan(cg *g, const ir_inst *in, const plan *p, const char *fin)
{
    ir_reduce kind = (ir_reduce)in->sub;
    dtype dt = cg_dt(g, in->a), rd = run_dtype(dt);
    const char *rt = cgen_ctype(rd);
    int R = p->L->regs;
    strbuf pre = {0}, tup = {0}, tdn = {0}, x = {0}, e = {0};
    strbuf c1 = {0}, c2 = {0}, c3 = {0};
    combine_expr(&c1, kind, dt, "tk_y", "tk_p[r]");
    combine_expr(&c2, kind, dt, "tk_y", "tk_t[r]");
    combine_expr(&c3, kind, dt, "tk_t[r]", "tk_y");
    strbuf_printf(&pre, "tk_p[r] = %s;", strbuf_cstr(&c1));
    strbuf_printf(&tup, "tk_t[r] = %s;", strbuf_cstr(&c2));
    strbuf_printf(&tdn, "tk_t[r] = %s;", strbuf_cstr(&c3));
    src_value(g, in, &x, "r", true);
    cg_elem_index(g, p->L, &e, "r");
    cg_printf(g, "{\n%s tk_p[%d], tk_t[%d];\n", rt, R, R);
    cg_printf(g, "#pragma unroll\nfor (int r = 0; r < %d; r++) tk_p[r] = tk_t[r] = %s;\n", R,
              strbuf_cstr(&x));
    for (int i = p->lo; i < p->hi; i++) {
        int b = p->m.bit[i];
        cg_printf(g, "// scan level: element bit %d\n", i);
        switch (p->m.kind[i]) {
        case BIT_REG:
            cg_printf(g, "#pragma unroll\nfor (int r = 0; r < %d; r++) if (r & %d) {\n", R, 1 << b);
            cg_printf(g, "const %s tk_y = tk_t[r ^ %d];\n", rt, 1 << b);
            cg_printf(g, "%s %s tk_t[r ^ %d] = tk_t[r];\n}\n", strbuf_cstr(&pre),
                      strbuf_cstr(&tup), 1 << b);
            break;
        case BIT_LANE: {
            strbuf y = {0}, up = {0};
            shfl_expr(g, &y, rd, "tk_t[r]", 1 << b);
            strbuf_printf(&up, "(tk_tid >> %d) & 1", b);
            cg_printf(g, "#pragma unroll\nfor (int r = 0; r < %d; r++) {\n", R);
            cg_printf(g, "const %s tk_y = %s;\n", rt, strbuf_cstr(&y));
            scan_update(g, strbuf_cstr(&pre), strbuf_cstr(&tup), strbuf_cstr(&tdn),
                        strbuf_cstr(&up));
            cg_printf(g, "}\n");
            strbuf_free(&y);
            strbuf_free(&up);
            break;
        }
        case BIT_WARP: {
            strbuf up = {0};
            strbuf_printf(&up, "(tk_tid >> %d) & 1", p->m.lane_bits + b);
            cg_need_smem(g, (size_t)p->L->n * 8);
            cg_barrier(g);
            /* the owners write (no replicas) */
            cg_printf(g, "if (tk_tid < %" PRId64 ") {\n", p->m.repl ? p->L->n : (int64_t)g->T);
            cg_printf(g, "#pragma unroll\nfor (int r = 0; r < %d; r++) ((%s *)tk_smem)[%s] = tk_t[r];\n}\n",
                      R, rt, strbuf_cstr(&e));
            cg_barrier(g);
            cg_printf(g, "#pragma unroll\nfor (int r = 0; r < %d; r++) {\n", R);
            cg_printf(g, "const %s tk_y = ((const %s *)tk_smem)[%s ^ %d];\n", rt, rt,
                      strbuf_cstr(&e), 1 << i);
            scan_update(g, strbuf_cstr(&pre), strbuf_cstr(&tup), strbuf_cstr(&tdn),
                        strbuf_cstr(&up));
            cg_printf(g, "}\n");
            strbuf_free(&up);
            break;
        }
        }
    }
    cg_printf(g, "#pragma unroll\nfor (int r = 0; r < %d; r++) { const %s tk_acc = tk_p[r]; ", R, rt);
    store_result(g, in, fin, false);
    cg_printf(g, "}\n}\n");
    strbuf_free(&pre);
    strbuf_free(&tup);
    strbuf_free(&tdn);
    strbuf_free(&x);
    strbuf_free(&e);
    strbuf_free(&c1);
    strbuf_free(&c2);
    strbuf_free(&c3);
}

/* ---- the sequential form ------------------------------------------------------ */


/* Any layout: the tile to shared memory; each thread combines, for every
 * output element it holds, the elements along the axis from index 0 (the
 * CPU's order). */
static void serial_reduce(cg *g, const ir_inst *in, int64_t L, int64_t inner, const char *fin)
{
    ir_reduce kind = (ir_reduce)in->sub;
    dtype dt = cg_dt(g, in->a);
    int64_t n = ir_type_numel(cg_type(g, in->a));
    const char *ct = cgen_ctype(dt), *rt = cgen_ctype(run_dtype(dt));
    cg_need_smem(g, (size_t)n * 8);
    cg_barrier(g);
    cg_tile_to_smem(g, in->a, 0);
    cg_barrier(g);
    bool scalar = cg_scalar(g, in->dst);
    if (scalar) {
        cg_printf(g, "{ { const int e = 0; (void)e; {\n");
    } else {
        cgen_layout Ld = cg_layout(g, in->dst);
        cg_loop_begin(g, &Ld, false);
    }
    if (in->op == IR_SCAN) {
        cg_printf(g, "const long long tk_l = (e / %" PRId64 ") %% %" PRId64 ";\n", inner, L);
        cg_printf(g, "const long long tk_base = e - tk_l * %" PRId64 ";\n", inner);
        cg_printf(g, "const long long tk_end = tk_l;\n");
    } else {
        cg_printf(g, "const long long tk_base = (e / %" PRId64 ") * %" PRId64 " + e %% %" PRId64 ";\n",
                  inner, L * inner, inner);
        cg_printf(g, "const long long tk_end = %" PRId64 ";\n", L - 1);
    }
    if (is_arg(kind)) {
        cg_printf(g, "%s tk_best = 0; int tk_ai = -1;\n", ct);
        cg_printf(g, "for (long long l = 0; l <= tk_end; l++) {\n");
        cg_printf(g, "  const %s tk_x = ((const %s *)tk_smem)[tk_base + l * %" PRId64 "];\n", ct,
                  ct, inner);
        cg_printf(g, "  const int tk_xi = %s(int)l;\n", is_float(dt) ? "tk_x != tk_x ? -1 : " : "");
        arg_step(g, kind, "tk_best", "tk_ai", "tk_x", "tk_xi");
        cg_printf(g, "}\nconst int tk_acc = tk_ai < 0 ? 0 : tk_ai;\n");
    } else {
        strbuf ex = {0};
        combine_expr(&ex, kind, dt, "tk_acc", "tk_x");
        cg_printf(g, "%s tk_acc = (%s)((const %s *)tk_smem)[tk_base];\n", rt, rt, ct);
        cg_printf(g, "for (long long l = 1; l <= tk_end; l++) {\n");
        cg_printf(g, "  const %s tk_x = (%s)((const %s *)tk_smem)[tk_base + l * %" PRId64 "];\n",
                  rt, rt, ct, inner);
        cg_printf(g, "  tk_acc = %s;\n}\n", strbuf_cstr(&ex));
        strbuf_free(&ex);
    }
    store_result(g, in, fin, scalar);
    if (scalar)
        cg_printf(g, "}}}\n");
    else
        cg_loop_end(g);
}

/* ---- the instruction ------------------------------------------------------------ */

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
        inner = cg_stride(ta, (int)in->imm);
    }
    strbuf probe = {0}, fin = {0};
    bool ok = is_arg(kind) ? !scan : combine_expr(&probe, kind, dt, "a", "b");
    strbuf_free(&probe);
    if (!ok)
        return cg_fail(g, pc, "%s %d on %s is not supported by the GPU backends",
                       ir_op_name((ir_opcode)in->op), in->sub, dtype_name(dt));
    /* the running value tk_acc -> dst's dtype */
    dtype rd = is_arg(kind) ? DTYPE_INT32 : run_dtype(dt);
    if (rd == ddt)
        strbuf_puts(&fin, "tk_acc");
    else if (!cgen_cast(&fin, IR_CAST_PLAIN, ddt, rd, "tk_acc")) {
        strbuf_free(&fin);
        return cg_fail(g, pc, "%s to %s is not supported by the GPU backends",
                       ir_op_name((ir_opcode)in->op), dtype_name(ddt));
    }

    plan p;
    cgen_layout La = cg_layout(g, in->a), Ld = cg_layout(g, in->dst);
    int lo = log2_exact(inner), len = log2_exact(L);
    bool tree = !cg_scalar(g, in->a) && lo >= 0 && len >= 0 && bit_map_of(g, &La, &p.m) &&
                (!scan || cg_same_layout(&La, &Ld));
    if (tree)
        make_plan(&p, &La, lo, lo + len);
    if (tree && scan)
        tree_scan(g, in, &p, strbuf_cstr(&fin));
    else if (tree)
        tree_reduce(g, in, &p, strbuf_cstr(&fin));
    else
        serial_reduce(g, in, L, inner, strbuf_cstr(&fin));
    strbuf_free(&fin);
    return true;
}
