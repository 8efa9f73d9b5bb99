/* cgen_mem.c - LOAD, STORE and ATOMIC: per active lane, the bounds check
 * (cgen_options.checked), then the access; masked-off lanes touch no
 * memory and load `other` or 0.  A program's accesses keep their order
 * (doc/ir.md 3.9): a barrier comes between a STORE or ATOMIC and the next
 * LOAD or ATOMIC.  A lane that fails its check notes the failure in its
 * thread's registers (TK_NOTE) and skips the access; the block reports it
 * at its next stop (cg_check_stop).  Atomics run on
 * the owners of the lanes; when other threads hold replicas of the result,
 * it reaches them through shared memory.  A LOAD in a loop may find its
 * chunks' addresses once before the loop (cg_find_hoisted). */
#include "cgen_impl.h"

#include <inttypes.h>
#include <stdio.h>

#include "axis.h"
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

/* A lane whose pointer may have been made from an integer (cg_tagged),
 * after lane_head's names: when it carries a tk_amap number (cgen_abi.h),
 * its host address is checked against that storage (as the CPU's
 * check_access does) and tk_a becomes the device address; `untagged` is
 * the code for the other lanes (their check, or nothing). */
static void lane_translate(cg *g, int32_t pc, int esz, const char *untagged)
{
    cg_printf(g, "const unsigned int tk_t = tk_tag(tk_a, tk_nam);\nif (tk_t) {\n");
    cg_printf(g, "  const tk_amap *tk_e = &tk_am[tk_t - 1u];\n");
    cg_printf(g, "  const tk_u64 tk_h = tk_a - ((tk_u64)tk_t << %d), tk_b = tk_e->host;\n",
              TK_AMAP_SHIFT);
    if (g->o->checked) {
        cg_printf(g, "  const tk_u64 tk_n = tk_e->bytes;\n");
        cg_printf(g, "  if (tk_m && (tk_n < %dull || tk_h - tk_b > tk_n - %dull || "
                  "(tk_h & %dull) != 0)) {\n", esz, esz, esz - 1);
        cg_printf(g, "    TK_NOTE(%d, %d, e, tk_h, -1, (long long)tk_t - 1); tk_m = false;\n  }\n",
                  TK_ERR_TAGGED, pc);
    }
    cg_printf(g, "  tk_a = tk_e->dev + (tk_h - tk_b);\n}%s%s\n", *untagged ? " else " : "",
              untagged);
}

/* One lane's head, with r and e in scope: tk_a the lane's address, tk_m
 * its mask, and the check done: a failing lane is recorded and masked
 * off. */
static void lane_head_at(cg *g, int32_t pc, const ir_inst *in, int32_t mask, const char *addr,
                         const char *maskx)
{
    int esz = (int)dtype_size(dtype_elem(cg_dt(g, in->a)));
    bool tagged = cg_tagged(g, in->a);
    strbuf p = {0}, m = {0}, check = {0};
    if (addr)
        strbuf_puts(&p, addr);
    else
        cg_operand(g, &p, in->a);
    if (maskx)
        strbuf_puts(&m, maskx);
    else if (mask >= 0)
        cg_operand(g, &m, mask);
    cg_printf(g, "%stk_u64 tk_a = %s;\n", tagged ? "" : "const ", strbuf_cstr(&p));
    if (g->hoisted >= 0) {
        /* checked before the lanes (cgen_check.c) */
        cg_printf(g, "bool tk_m = %s%stk_ok%d; (void)tk_m;\n", mask >= 0 ? strbuf_cstr(&m) : "",
                  mask >= 0 ? " && " : "", g->hoisted);
    } else {
        cg_printf(g, "bool tk_m = %s; (void)tk_m;\n", mask >= 0 ? strbuf_cstr(&m) : "true");
    }
    if (g->o->checked && g->hoisted < 0) {
        strbuf ok = {0}, arg = {0};
        check_exprs(g, in->a, esz, &ok, &arg);
        strbuf_printf(&check, "if (tk_m && !%s) {\n", strbuf_cstr(&ok));
        strbuf_printf(&check, "  TK_NOTE(%d, %d, e, tk_a, %s, 0); tk_m = false;\n}",
                      TK_ERR_ACCESS, pc, strbuf_cstr(&arg));
        strbuf_free(&ok);
        strbuf_free(&arg);
    }
    if (tagged)
        lane_translate(g, pc, esz, strbuf_cstr(&check));
    else if (check.len)
        cg_printf(g, "%s\n", strbuf_cstr(&check));
    strbuf_free(&p);
    strbuf_free(&m);
    strbuf_free(&check);
}

static void lane_head(cg *g, int32_t pc, const ir_inst *in, int32_t mask)
{
    lane_head_at(g, pc, in, mask, NULL, NULL);
}

/* Open the lanes of a memory instruction over the shape of slot `shape`
 * (a scalar: one lane, e = 0, held by every thread; owned: thread 0 only),
 * each with lane_head's names.  Close with cg_loop_end. */
static void lanes_open(cg *g, int32_t pc, const ir_inst *in, int32_t shape, int32_t mask,
                       bool owned)
{
    if (cg_scalar(g, shape)) {
        cg_printf(g, "{ { const int r = 0, e = 0; (void)r; (void)e;\n");
        cg_printf(g, "  %s{\n", owned ? "if (tk_tid == 0) " : "");
    } else {
        cgen_layout L = cg_layout(g, shape);
        cg_loop_begin(g, &L, owned);
    }
    lane_head(g, pc, in, mask);
}

/* ---- vector accesses ----------------------------------------------------
 * A FLAT tile's thread holds chunks of vec consecutive elements.  When a
 * chunk's addresses are consecutive, aligned to the chunk's size, all
 * active and (checked) inside the argument, one 8- or 16-byte access moves
 * it; otherwise each lane goes its own way.  The test costs a few integer
 * compares per chunk and is decided at run time, so nothing depends on
 * what the compiler can prove about the pointers. */

/* Can the lanes of slot `shape` go by chunks: the chunk's bytes. */
static int vec_bytes(const cg *g, const ir_inst *in, int32_t shape)
{
    if (cg_scalar(g, shape))
        return 0;
    cgen_layout L = cg_layout(g, shape);
    dtype dt = dtype_elem(cg_dt(g, in->a));
    int esz = (int)dtype_size(dt);
    int bytes = esz * L.vec;
    if (L.kind != CGEN_FLAT || L.repl || L.vec < 2 || esz < 2 || (bytes != 8 && bytes != 16))
        return 0;
    if (dt == DTYPE_FP8E4NV || dt == DTYPE_FP8E5 || dtype_is_ptr(dt))
        return 0;
    /* checked: only through a pointer of a known argument; never through
     * one that may have been made from an integer (each lane translates) */
    int32_t pa = g->k->slots[in->a].ptr_arg;
    if ((g->o->checked && (pa < 0 || pa >= g->k->nparams)) || cg_tagged(g, in->a))
        return 0;
    return bytes;
}

/* Are a chunk's V addresses consecutive by construction: it lies in one
 * row, along which the pointer grows by one element (in the whole row, or
 * in runs of a multiple of V lanes: axis.h)? */
static bool chunks_consecutive(const cg *g, const ir_inst *in, int32_t shape, int V)
{
    int esz = (int)dtype_size(dtype_elem(cg_dt(g, in->a)));
    const ir_type *ts = cg_type(g, shape);
    return ts->shape[ts->ndim - 1] % V == 0 && axis_chunks_step(&g->axis[in->a], V, esz);
}

/* Is each chunk's first address a multiple of its bytes by construction
 * (the launch's 16-byte arguments and the arithmetic on them: axis.h)? */
static bool chunks_aligned(const cg *g, const ir_inst *in, int V, int bytes)
{
    return axis_div_at(&g->axis[in->a], V) % bytes == 0;
}

/* " && addr(e0 + v) == tk_a0 + v * esz" for v = 1 .. V - 1, appended to
 * sb: the chunk's addresses consecutive, computed from pointer slot s (its
 * registers or index expression) or, with pure, from index expression
 * slot s alone. */
static void chunk_consecutive_test(cg *g, strbuf *sb, int32_t s, bool pure, int V, int esz)
{
    for (int v = 1; v < V; v++) {
        char rv[32], ev[32];
        snprintf(rv, sizeof rv, "r0 + %d", v);
        snprintf(ev, sizeof ev, "e0 + %d", v);
        strbuf pv = {0}, ex = {0};
        if (pure) {
            cg_pure_expr(g, &ex, s, ev, 0);
            strbuf_printf(&pv, "(tk_u64)(%s)", strbuf_cstr(&ex));
        } else {
            cg_operand_at(g, &pv, s, rv, ev);
        }
        strbuf_printf(sb, " && %s == tk_a0 + %d", strbuf_cstr(&pv), v * esz);
        strbuf_free(&pv);
        strbuf_free(&ex);
    }
}

bool cg_held_until(const cg *g, int32_t def, int32_t pc, int32_t a, int32_t b)
{
    for (int32_t p = def + 1; p <= pc; p++) {
        int32_t d = g->k->code[p].dst;
        if (g->label[p] || (p < pc && d >= 0 && (d == a || d == b)))
            return false;
    }
    return true;
}

/* A mask `idx < n` (or `<=`) of a signed index that grows by one along
 * a chunk of V lanes, with n a scalar: the CMP, or NULL.  Lane v of a
 * chunk is then active when idx(first lane) + v < n, in 64 bits (so the
 * whole chunk when its last lane is; a chunk whose index would wrap goes
 * lane by lane), and the mask's tile need not be held. */
static const ir_inst *chunk_mask_cmp(const cg *g, int32_t pc, int32_t mask, int V)
{
    if (mask < 0 || cg_scalar(g, mask))
        return NULL;
    int32_t def = g->def[mask];
    /* (not for a pipelined loop's loads, which run out of order) */
    if (def < 0 || def >= pc || g->pf_dot[pc] >= 0 || g->moved[pc])
        return NULL;
    const ir_inst *cmp = &g->k->code[def];
    if (cmp->op != IR_CMP || (cmp->sub != IR_LT && cmp->sub != IR_LE) || cmp->a < 0 ||
        cmp->b < 0 || cg_scalar(g, cmp->a) || !cg_scalar(g, cmp->b) || g->def[cmp->b] < 0 ||
        g->alias[cmp->a] || g->alias[cmp->b])
        return NULL;
    dtype dt = cg_dt(g, cmp->a);
    const ir_type *t = cg_type(g, mask);
    if ((dt != DTYPE_INT32 && dt != DTYPE_INT64) || cg_dt(g, cmp->b) != dt ||
        !axis_chunks_step(&g->axis[cmp->a], V, 1) || t->shape[t->ndim - 1] % V != 0)
        return NULL;
    /* the operands must hold at the access what they held at the CMP */
    return cg_held_until(g, def, pc, cmp->a, cmp->b) ? cmp : NULL;
}

/* r0 and e0, the first register and element of chunk c (in scope) of V
 * lanes. */
static void chunk_head(cg *g, int V)
{
    cg_printf(g, "const int r0 = c * %d, e0 = (c * %d + tk_tid) * %d; (void)e0;\n", V, g->T, V);
}

/* The address of a chunk's first lane (r0, e0 and c in scope). */
static void chunk_base(const cg *g, const ir_inst *in, strbuf *sb)
{
    int32_t pc = (int32_t)(in - g->k->code);
    if (in->op == IR_LOAD && g->hoist_head[pc] >= 0)
        strbuf_printf(sb, "tk_cb%d[c] + (tk_u64)s%d_d", pc, in->a);
    else
        cg_operand_at(g, sb, in->a, "r0", "e0");
}

/* The head of lane v of a chunk that goes lane by lane (r0, e0, c and v in
 * scope; base: an expression of the chunk's first address, or NULL): the
 * lane's address and mask follow from the chunk's first lane where they
 * can (consecutive addresses; an `idx < n` mask), so that this rare path
 * keeps neither the pointer's tile nor the mask's in registers. */
static void chunk_lane_head(cg *g, int32_t pc, const ir_inst *in, int32_t shape, int32_t mask,
                            int V, const char *base)
{
    int esz = (int)dtype_size(dtype_elem(cg_dt(g, in->a)));
    strbuf a = {0}, m = {0}, x = {0};
    if (chunks_consecutive(g, in, shape, V)) {
        if (base)
            strbuf_puts(&x, base);
        else
            chunk_base(g, in, &x);
        strbuf_printf(&a, "(%s) + (tk_u64)v * %dull", strbuf_cstr(&x), esz);
    }
    const ir_inst *mcmp = chunk_mask_cmp(g, pc, mask, V);
    if (mcmp) {
        strbuf i0 = {0};
        cg_operand_at(g, &i0, mcmp->a, "r0", "e0");
        strbuf_printf(&m, "(tk_i64)(%s) + v %s (tk_i64)s%d", strbuf_cstr(&i0),
                      mcmp->sub == IR_LT ? "<" : "<=", mcmp->b);
        strbuf_free(&i0);
    }
    lane_head_at(g, pc, in, mask, a.len ? strbuf_cstr(&a) : NULL, m.len ? strbuf_cstr(&m) : NULL);
    strbuf_free(&a);
    strbuf_free(&m);
    strbuf_free(&x);
}

/* Open the chunk loop: tk_a0 the chunk's first address, tk_v whether it
 * goes as one access; r0 its first register. */
static void chunks_open(cg *g, const ir_inst *in, int32_t shape, int32_t mask, int bytes,
                        bool rolled)
{
    cgen_layout L = cg_layout(g, shape);
    int esz = (int)dtype_size(dtype_elem(cg_dt(g, in->a)));
    int V = L.vec;
    /* rolled: nothing is indexed by register, so the loop need not be
     * unrolled whole; four chunks at a time keep loads in flight without
     * the compiler holding every chunk's address across the kernel's loop */
    cg_printf(g, "{\n#pragma unroll%s\nfor (int c = 0; c < %d; c++) {\n", rolled ? " 4" : "",
              L.regs / V);
    chunk_head(g, V);
    int32_t pc = (int32_t)(in - g->k->code);
    bool table = in->op == IR_LOAD && g->hoist_head[pc] >= 0;
    strbuf pa0 = {0};
    chunk_base(g, in, &pa0);
    cg_printf(g, "const tk_u64 tk_a0 = %s;\n", strbuf_cstr(&pa0));
    strbuf_free(&pa0);
    /* the tests, each as " && test" */
    strbuf t = {0};
    if (!chunks_aligned(g, in, V, bytes))
        strbuf_printf(&t, " && (tk_a0 & %dull) == 0", bytes - 1);
    /* consecutive by construction: a chunk lies in one row, along which the
     * pointer grows by one element */
    bool known = chunks_consecutive(g, in, shape, V);
    if (table && !known)
        strbuf_printf(&t, " && tk_cc%d[c]", pc);
    if (!known && !table)
        chunk_consecutive_test(g, &t, in->a, false, V, esz);
    const ir_inst *mcmp = chunk_mask_cmp(g, pc, mask, V);
    if (mcmp) {
        strbuf i0 = {0};
        cg_operand_at(g, &i0, mcmp->a, "r0", "e0");
        strbuf_printf(&t, " && (tk_i64)(%s) + %d %s (tk_i64)s%d", strbuf_cstr(&i0), V - 1,
                      mcmp->sub == IR_LT ? "<" : "<=", mcmp->b);
        strbuf_free(&i0);
    } else if (mask >= 0 && !cg_scalar(g, mask)) {
        for (int v = 0; v < V; v++) {
            char rv[32], ev[32];
            snprintf(rv, sizeof rv, "r0 + %d", v);
            snprintf(ev, sizeof ev, "e0 + %d", v);
            strbuf m = {0};
            cg_operand_at(g, &m, mask, rv, ev);
            strbuf_printf(&t, " && %s", strbuf_cstr(&m));
            strbuf_free(&m);
        }
    } else if (mask >= 0) {
        strbuf_printf(&t, " && s%d", mask);
    }
    if (g->o->checked && g->hoisted >= 0) {
        /* the whole access was checked before its chunks (cgen_check.c) */
        strbuf_printf(&t, " && tk_ok%d", g->hoisted);
    } else if (g->o->checked) {
        /* inside the argument, at a whole element from its start: tk_a0 is
         * a multiple of the chunk's bytes already, so that is its start's
         * alignment (a value of the launch, which the compiler computes
         * once) */
        int32_t pa = g->k->slots[in->a].ptr_arg;
        /* (16 bytes of the argument's own elements: the launch's tk_c, the
         * offsets from its start where 16 bytes fit, one comparison; its
         * start is a multiple of its element size) */
        if (bytes == 16 && (size_t)esz == (size_t)dtype_size(dtype_elem(g->k->params[pa].dt)))
            strbuf_printf(&t, " && tk_a0 - tk_lo%d < tk_c%d", pa, pa);
        else
            strbuf_printf(&t, " && tk_a0 >= tk_lo%d && tk_a0 + %d <= tk_hi%d && "
                          "(tk_lo%d & %dull) == 0", pa, bytes, pa, pa, esz - 1);
    }
    cg_printf(g, "bool tk_v = %s;\n", t.len ? strbuf_cstr(&t) + 4 : "true");
    strbuf_free(&t);
}

/* Does a LOAD's lane code read no per-register operand (its pointer,
 * mask and other are scalars, index expressions or pointer offsets)? */
static bool lanes_free(const cg *g, const ir_inst *in)
{
    int32_t ops[3] = {in->a, in->b, in->c};
    for (int i = 0; i < 3; i++) {
        int32_t s = ops[i];
        if (s < 0 || cg_scalar(g, s) || g->abase[s] >= 0)
            continue;
        if (g->alias[s] || !g->pure[s])
            return false;
    }
    return true;
}

/* The unsigned vector type of a chunk and the bits of its element v. */
static const char *vec_type(int bytes)
{
    return bytes == 16 ? "uint4" : "uint2";
}

static void vec_elem_bits(strbuf *sb, int esz, int v)
{
    static const char *const w[] = {"x", "y", "z", "w"};
    if (esz == 4)
        strbuf_printf(sb, "tk_w.%s", w[v]);
    else if (esz == 2)
        strbuf_printf(sb, "((tk_w.%s >> %d) & 0xffffu)", w[v / 2], (v % 2) * 16);
    else
        strbuf_printf(sb, "((unsigned long long)tk_w.%s | ((unsigned long long)tk_w.%s << 32))",
                      w[2 * v], w[2 * v + 1]);
}

/* "s5" or "s5[r]" */
static void dst_ref(const cg *g, strbuf *sb, int32_t slot)
{
    cg_operand(g, sb, slot);
}

/* LOAD: dst = *a where mask b, else c (or 0); a LOAD that feeds a DOT
 * directly puts the value where the DOT reads it instead. */
static void load_lane(cg *g, int32_t pc, const ir_inst *in)
{
    dtype dt = cg_dt(g, in->dst);
    strbuf d = {0}, ld = {0}, other = {0};
    dst_ref(g, &d, in->dst);
    cgen_load_expr(&ld, dt, "tk_a");
    if (in->c >= 0)
        cg_operand(g, &other, in->c);
    else
        cgen_literal(&other, dt, 0, 0.0);
    if (g->packed[in->dst]) {
        /* the lane's bits into its half of the register; the other value
         * (an fp16/bf16 value in its register form) as bits */
        strbuf ob = {0};
        cgen_bitcast(&ob, DTYPE_UINT16, dt, strbuf_cstr(&other));
        cg_printf(g, "{ const tk_u32 tk_h = tk_m ? *(const tk_u16 *)(tk_a) : %s;\n",
                  strbuf_cstr(&ob));
        cg_printf(g, "  const int tk_sh = (r & 1) * 16;\n");
        cg_printf(g, "  s%d[r >> 1] = (s%d[r >> 1] & ~(0xffffu << tk_sh)) | (tk_h << tk_sh); }\n",
                  in->dst, in->dst);
        strbuf_free(&ob);
    } else if (g->fuse_into[pc] >= 0) {
        cg_printf(g, "%s tk_lv;\nif (tk_m) tk_lv = %s; else tk_lv = %s;\n", cg_ctype(g, in->dst),
                  strbuf_cstr(&ld), strbuf_cstr(&other));
        cgen_dot_stage(g, &g->k->code[g->fuse_into[pc]], g->fuse_which[pc], "e", "tk_lv");
    } else {
        cg_printf(g, "if (tk_m) %s = %s; else %s = %s;\n", strbuf_cstr(&d), strbuf_cstr(&ld),
                  strbuf_cstr(&d), strbuf_cstr(&other));
    }
    strbuf_free(&d);
    strbuf_free(&ld);
    strbuf_free(&other);
}

/* A LOAD's values from the chunk tk_w of V elements of esz bytes, into
 * their registers (or a DOT's staging area). */
static void chunk_values(cg *g, int32_t pc, const ir_inst *in, int V, int esz)
{
    dtype dt = cg_dt(g, in->dst);
    int32_t dot = g->fuse_into[pc];
    for (int v = 0; v < V; v++) {
        strbuf bits = {0}, val = {0};
        vec_elem_bits(&bits, esz, v);
        cgen_bitcast(&val, dt, esz == 2 ? DTYPE_UINT16 : esz == 4 ? DTYPE_UINT32
                                                                  : DTYPE_UINT64,
                     strbuf_cstr(&bits));
        if (dot >= 0) {
            char ev[32];
            snprintf(ev, sizeof ev, "e0 + %d", v);
            cgen_dot_stage(g, &g->k->code[dot], g->fuse_which[pc], ev, strbuf_cstr(&val));
        } else {
            cg_printf(g, "  s%d[r0 + %d] = %s;\n", in->dst, v, strbuf_cstr(&val));
        }
        strbuf_free(&bits);
        strbuf_free(&val);
    }
}

/* A LOAD into registers by chunks, in two passes.  The first is
 * straight-line code: every chunk's one access, predicated on tk_v, so
 * that the compiler can have all of them in flight at once (a branch
 * between them would make each wait for the one before).  The second
 * does, lane by lane, the chunks that could not go whole. */
static void load_chunks(cg *g, int32_t pc, const ir_inst *in, int bytes)
{
    dtype dt = cg_dt(g, in->dst);
    cgen_layout L = cg_layout(g, in->dst);
    int esz = (int)dtype_size(dt), V = bytes / esz;
    cg_printf(g, "{\nbool tk_vs[%d];\n", L.regs / V);
    chunks_open(g, in, in->dst, in->b, bytes, false);
    cg_printf(g, "%s tk_w = make_%s(%s);\n", vec_type(bytes), vec_type(bytes),
              bytes == 16 ? "0u, 0u, 0u, 0u" : "0u, 0u");
    cg_printf(g, "if (tk_v) tk_w = *(const %s *)tk_a0;\n", vec_type(bytes));
    if (g->packed[in->dst])
        for (int i = 0; i < bytes / 4; i++)
            cg_printf(g, "s%d[r0 / 2 + %d] = tk_w.%c;\n", in->dst, i, "xyzw"[i]);
    else
        chunk_values(g, pc, in, V, esz);
    cg_printf(g, "tk_vs[c] = tk_v;\n}\n");
    cg_printf(g, "#pragma unroll\nfor (int c = 0; c < %d; c++) {\n", L.regs / V);
    cg_printf(g, "if (tk_vs[c]) continue;\n");
    chunk_head(g, V);
    cg_printf(g, "#pragma unroll\nfor (int v = 0; v < %d; v++) {\n", V);
    cg_printf(g, "const int r = r0 + v, e = e0 + v; (void)r; (void)e;\n");
    chunk_lane_head(g, pc, in, in->dst, in->b, V, NULL);
    load_lane(g, pc, in);
    cg_printf(g, "}}}}\n");
}

/* A LOAD of a pipelined tensor-core loop's operand whose chunks go to
 * shared memory through cp.async, unmasked and unchecked, with its chunk
 * addresses in a table (cg_find_hoisted): it gets a straight path of
 * cp.async alone for the rounds where every chunk of the thread is whole
 * and aligned, which one test per round shows (tk_cbo, tk_cca: the OR of
 * the table's addresses and whether every chunk is consecutive). */
static bool async_table(const cg *g, int32_t pc)
{
    const ir_inst *in = &g->k->code[pc];
    int32_t dot = g->fuse_into[pc];
    if (in->op != IR_LOAD || dot < 0 || !g->pipe_async[dot] || g->hoist_head[pc] < 0 ||
        in->b >= 0 || g->o->checked || vec_bytes(g, in, in->dst) != 16)
        return false;
    strbuf place = {0};
    bool raw = cgen_dot_chunk_place(g, &g->k->code[dot], g->fuse_which[pc], cg_dt(g, in->dst),
                                    16 / (int)dtype_size(cg_dt(g, in->dst)), &place);
    strbuf_free(&place);
    return raw;
}

/* Its straight path, and whether that is the only path (every chunk
 * whole and aligned by construction), which the caller then omits. */
static bool emit_async_straight(cg *g, int32_t pc, const ir_inst *in, const char *place)
{
    cgen_layout L = cg_layout(g, in->dst);
    int V = L.vec;
    bool aligned = chunks_aligned(g, in, V, 16), known = chunks_consecutive(g, in, in->dst, V);
    if (!aligned)
        cg_printf(g, "if (((tk_cbo%d | (tk_u64)s%d_d) & 15ull) == 0%s", pc, in->a,
                  known ? ") " : "");
    if (!known)
        cg_printf(g, "%stk_cca%d) ", aligned ? "if (" : " && ", pc);
    cg_printf(g, "{\n#pragma unroll\nfor (int c = 0; c < %d; c++) {\n", L.regs / V);
    chunk_head(g, V);
    cg_printf(g, "tk_cp_async(%s, tk_cb%d[c] + (tk_u64)s%d_d);\n}\n}%s\n", place, pc,
              in->a, aligned && known ? "" : " else");
    return aligned && known;
}

static bool emit_load(cg *g, int32_t pc, const ir_inst *in)
{
    dtype dt = cg_dt(g, in->dst);
    int32_t dot = g->fuse_into[pc];
    /* the first LOAD into a DOT's shared memory waits for its last readers
     * (with two buffers, cgen_pipe.c, the DOT's own barrier saw to that) */
    if (g->stored || (dot >= 0 && g->fuse_first[dot] == pc && !g->pipe_async[dot]))
        cg_barrier(g);
    bool hoisted = cg_check_hoist(g, pc, in);
    int bytes = vec_bytes(g, in, in->dst);
    /* (a pipelined DOT's next operands keep the one-pass form: the H100
     * ran the lecture's 1024^3 fp32 matmul 13% slower with two passes) */
    if (bytes && dot < 0 && g->pf_dot[pc] < 0) {
        load_chunks(g, pc, in, bytes);
    } else if (bytes) {
        int esz = (int)dtype_size(dt), V = bytes / esz;
        strbuf place = {0};
        bool raw = dot >= 0 && bytes == 16 &&
                   cgen_dot_chunk_place(g, &g->k->code[dot], g->fuse_which[pc], dt, V, &place);
        if (raw && async_table(g, pc) && emit_async_straight(g, pc, in, strbuf_cstr(&place))) {
            strbuf_free(&place);
            goto done;
        }
        chunks_open(g, in, in->dst, in->b, bytes,
                    dot >= 0 && lanes_free(g, in) && g->hoist_head[pc] < 0);
        if (raw && g->pipe_async[dot])
            cg_printf(g, "if (tk_v) {\n  tk_cp_async(%s, tk_a0);\n", strbuf_cstr(&place));
        else if (raw)
            cg_printf(g, "if (tk_v) {\n  *(uint4 *)%s = *(const uint4 *)tk_a0;\n",
                      strbuf_cstr(&place));
        else
            cg_printf(g, "if (tk_v) {\n  const %s tk_w = *(const %s *)tk_a0;\n",
                      vec_type(bytes), vec_type(bytes));
        strbuf_free(&place);
        if (!raw)
            chunk_values(g, pc, in, V, esz);
        /* the lane-by-lane way: rare, so kept out of the registers'
         * way when nothing it reads is held per register (a load into a
         * DOT's shared memory through a computable pointer) */
        cg_printf(g, "} else {\n#pragma unroll %s\nfor (int v = 0; v < %d; v++) {\n",
                  dot >= 0 && lanes_free(g, in) ? "1" : "", V);
        cg_printf(g, "const int r = r0 + v, e = e0 + v; (void)r; (void)e;\n");
        lane_head(g, pc, in, in->b);
        load_lane(g, pc, in);
        cg_printf(g, "}}}}\n");
    } else {
        lanes_open(g, pc, in, in->dst, in->b, false);
        load_lane(g, pc, in);
        cg_loop_end(g);
    }
done:
    if (hoisted)
        cg_check_hoist_end(g);
    cg_check_pending(g);
    return true;
}

/* STORE: *a = b where mask c (b's value read from slot value): one
 * lane's code, appended to sb. */
static void store_lane_code(cg *g, const ir_inst *in, int32_t value, strbuf *sb)
{
    dtype dt = dtype_elem(cg_dt(g, in->a));
    strbuf v = {0}, st = {0};
    if (g->packed[value]) {
        cg_packed_bits(&v, value, "r");
        strbuf_printf(sb, "if (tk_m) { *(tk_u16 *)(tk_a) = %s; }\n", strbuf_cstr(&v));
        strbuf_free(&v);
        return;
    }
    cg_operand(g, &v, value);
    cgen_store_stmt(&st, dt, "tk_a", strbuf_cstr(&v));
    strbuf_printf(sb, "if (tk_m) { %s }\n", strbuf_cstr(&st));
    strbuf_free(&v);
    strbuf_free(&st);
}

static void store_lane(cg *g, const ir_inst *in, int32_t value)
{
    strbuf sb = {0};
    store_lane_code(g, in, value, &sb);
    cg_printf(g, "%s", strbuf_cstr(&sb));
    strbuf_free(&sb);
}

/* A STORE by chunks of `bytes` (chunks_open's): a chunk that goes whole
 * runs `whole` (tk_a0 its address, r0 and e0 its first lane), any other
 * runs `lane` for each of its lanes (chunk_lane_head's tk_a and tk_m, r
 * and e). */
static void store_chunks(cg *g, int32_t pc, const ir_inst *in, int bytes, const char *whole,
                         const char *lane)
{
    int V = bytes / (int)dtype_size(dtype_elem(cg_dt(g, in->a)));
    chunks_open(g, in, in->a, in->c, bytes, false);
    cg_printf(g, "if (tk_v) {\n%s} else {\n#pragma unroll\nfor (int v = 0; v < %d; v++) {\n",
              whole, V);
    cg_printf(g, "const int r = r0 + v, e = e0 + v; (void)r; (void)e;\n");
    chunk_lane_head(g, pc, in, in->a, in->c, V, "tk_a0");
    cg_printf(g, "%s}}}}\n", lane);
}

/* The slot whose value a STORE at pc writes.  A tile that a CAST from
 * fp32 to fp16 or bf16 made just before (y = x.to(tl.float16); the store
 * of y, reached from it in a straight line that does not write x) is
 * stored from x: the store's conversion rounds x exactly as the cast did,
 * and the cast result's widening and second rounding are dropped. */
static int32_t store_source(const cg *g, int32_t pc, const ir_inst *in)
{
    int32_t v = in->b, def = v >= 0 ? g->def[v] : -1;
    if (def < 0 || def >= pc || cg_scalar(g, v) || g->alias[v])
        return v;
    const ir_inst *cast = &g->k->code[def];
    dtype to = cg_dt(g, v);
    if (cast->op != IR_CAST || cast->sub != IR_CAST_PLAIN || cast->a < 0 ||
        (to != DTYPE_FP16 && to != DTYPE_BF16) || cg_dt(g, cast->a) != DTYPE_FP32 ||
        cg_scalar(g, cast->a) || g->alias[cast->a])
        return v;
    cgen_layout lv = cg_layout(g, v), lx = cg_layout(g, cast->a);
    if (!cg_same_layout(&lv, &lx))
        return v;
    return cg_held_until(g, def, pc, cast->a, -1) ? cast->a : v;
}

/* ---- a tensor-core result stored by way of shared memory ----------------
 * A DOT's accumulator (CGEN_MMA) gives each thread pairs of neighbouring
 * columns in rows 8 apart, so a STORE from it writes 4 bytes to each of 8
 * rows at a time.  When the pointer's own layout goes by 16-byte chunks
 * along its rows, the value goes through shared memory first, in
 * row-major order: one write per pair, the rows padded by 8 elements so
 * that a warp's writes fall in distinct banks.  Then each thread stores
 * whole chunks, as a FLAT tile's STORE does (its masks and checks per
 * chunk, lane by lane where a chunk cannot go whole).  The same bits land
 * in memory. */

/* Bytes of a staged row: its elements and the padding. */
static size_t staged_pitch(const ir_type *t, int esz)
{
    return (size_t)t->shape[1] * (size_t)esz + 8 * (size_t)esz;
}

bool cg_store_staged(const cg *g, const ir_inst *in)
{
    if (in->op != IR_STORE || in->b < 0 || cg_scalar(g, in->a) || cg_scalar(g, in->b) ||
        g->lay[in->b].kind != CGEN_MMA || !(g->pure[in->a] || g->abase[in->a] >= 0) ||
        g->packed[in->b] || cg_tagged(g, in->a))
        return false;
    const ir_type *t = cg_type(g, in->a);
    int esz = (int)dtype_size(dtype_elem(cg_dt(g, in->a)));
    if (t->ndim != 2 || (esz != 2 && esz != 4) || vec_bytes(g, in, in->a) != 16 ||
        !chunks_consecutive(g, in, in->a, 16 / esz))
        return false;
    size_t need = (size_t)t->shape[0] * staged_pitch(t, esz);
    return need <= (g->o->max_smem ? g->o->max_smem : (size_t)100 * 1024);
}

static void store_staged(cg *g, int32_t pc, const ir_inst *in, int32_t value)
{
    dtype dt = dtype_elem(cg_dt(g, in->a));
    const ir_type *t = cg_type(g, in->a);
    int esz = (int)dtype_size(dt), cols = (int)t->shape[1];
    size_t pitch = staged_pitch(t, esz);
    dtype bd = esz == 2 ? DTYPE_UINT16 : DTYPE_UINT32;
    const char *pair = esz == 2 ? "unsigned int" : "unsigned long long";
    const char *elem = esz == 2 ? "tk_u16" : "tk_u32";
    cg_need_smem(g, (size_t)t->shape[0] * pitch);
    cg_printf(g, "/* %d: the value to shared memory by pairs, row-major, then stored by "
              "16-byte chunks */\n", pc);
    cg_barrier(g);
    cgen_layout L = cg_layout(g, value);
    strbuf ex = {0}, v0 = {0}, v1 = {0}, b0 = {0}, b1 = {0};
    cg_elem_index(g, &L, &ex, "r");
    cg_operand_at(g, &v0, value, "r", "e");
    cg_operand_at(g, &v1, value, "r + 1", "e + 1");
    cgen_bitcast(&b0, bd, dt, strbuf_cstr(&v0));
    cgen_bitcast(&b1, bd, dt, strbuf_cstr(&v1));
    cg_printf(g, "{\n#pragma unroll\nfor (int q = 0; q < %d; q++) {\n", L.regs / 2);
    cg_printf(g, "const int r = 2 * q, e = %s; (void)r;\n", strbuf_cstr(&ex));
    cg_printf(g, "*(%s *)(tk_smem + e / %d * %zu + e %% %d * %d) = (%s)(%s) | ((%s)(%s) << %d);\n",
              pair, cols, pitch, cols, esz, pair, strbuf_cstr(&b0), pair, strbuf_cstr(&b1),
              8 * esz);
    cg_printf(g, "}}\n");
    strbuf_free(&ex);
    strbuf_free(&v0);
    strbuf_free(&v1);
    strbuf_free(&b0);
    strbuf_free(&b1);
    cg_barrier(g);
    strbuf whole = {0}, lane = {0};
    strbuf_printf(&whole, "  *(uint4 *)tk_a0 = *(const uint4 *)(tk_smem + e0 / %d * %zu + "
                  "e0 %% %d * %d);\n", cols, pitch, cols, esz);
    strbuf_printf(&lane, "if (tk_m) { *(%s *)(tk_a) = *(const %s *)(tk_smem + e / %d * %zu + "
                  "e %% %d * %d); }\n", elem, elem, cols, pitch, cols, esz);
    store_chunks(g, pc, in, 16, strbuf_cstr(&whole), strbuf_cstr(&lane));
    strbuf_free(&whole);
    strbuf_free(&lane);
}

static bool emit_store(cg *g, int32_t pc, const ir_inst *in)
{
    dtype dt = dtype_elem(cg_dt(g, in->a));
    int32_t shape = g->work >= 0 && !cg_scalar(g, g->work) ? g->work : in->a;
    int bytes = shape == in->a ? vec_bytes(g, in, in->a) : 0;
    int32_t value = store_source(g, pc, in);
    bool hoisted = cg_check_hoist(g, pc, in);
    if (cg_store_staged(g, in)) {
        store_staged(g, pc, in, value);
    } else if (bytes && !cg_scalar(g, in->b)) {
        int esz = (int)dtype_size(dt), V = bytes / esz;
        strbuf whole = {0}, lane = {0};
        strbuf_printf(&whole, "  %s tk_w;\n", vec_type(bytes));
        static const char *const w[] = {"x", "y", "z", "w"};
        dtype bd = esz == 2 ? DTYPE_UINT16 : esz == 4 ? DTYPE_UINT32 : DTYPE_UINT64;
        strbuf val[8] = {{0}};     /* V: at most 8 (2-byte elements) */
        for (int v = 0; v < V; v++) {
            char rv[32], ev[32];
            snprintf(rv, sizeof rv, "r0 + %d", v);
            snprintf(ev, sizeof ev, "e0 + %d", v);
            strbuf src = {0};
            if (g->packed[value]) {
                cg_packed_bits(&val[v], value, rv);
            } else {
                cg_operand_at(g, &src, value, rv, ev);
                cgen_bitcast(&val[v], bd, dt, strbuf_cstr(&src));
            }
            strbuf_free(&src);
        }
        for (int i = 0; i < bytes / 4; i++) {
            if (esz == 4)
                strbuf_printf(&whole, "  tk_w.%s = (unsigned int)(%s);\n", w[i],
                              strbuf_cstr(&val[i]));
            else if (esz == 2)
                strbuf_printf(&whole, "  tk_w.%s = (unsigned int)(%s) | ((unsigned int)(%s) << 16);\n",
                              w[i], strbuf_cstr(&val[2 * i]), strbuf_cstr(&val[2 * i + 1]));
            else
                strbuf_printf(&whole, "  tk_w.%s = (unsigned int)((unsigned long long)(%s) >> %d);\n",
                              w[i], strbuf_cstr(&val[i / 2]), (i % 2) * 32);
        }
        for (int v = 0; v < V; v++)
            strbuf_free(&val[v]);
        strbuf_printf(&whole, "  *(%s *)tk_a0 = tk_w;\n", vec_type(bytes));
        store_lane_code(g, in, value, &lane);
        store_chunks(g, pc, in, bytes, strbuf_cstr(&whole), strbuf_cstr(&lane));
        strbuf_free(&whole);
        strbuf_free(&lane);
    } else {
        lanes_open(g, pc, in, shape, in->c, true);
        store_lane(g, in, value);
        cg_loop_end(g);
    }
    if (hoisted)
        cg_check_hoist_end(g);
    g->stored = true;
    cg_check_pending(g);
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
                     const char *res, const char *cas16)
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
        strbuf_printf(sb, "    tk_old = %s((%s *)tk_a, tk_as, (%s)(%s));\n",
                      w == 2 ? cas16 : "atomicCAS", bt, bt, strbuf_cstr(&to));
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
        if (!cas_loop(&loop, op, dt, strbuf_cstr(&v), strbuf_cstr(&c), "tk_r",
                      cgen_dialect_of(&g->o->target)->cas16)) {
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
    cg_check_pending(g);
    if (share) {
        int64_t n = ir_type_numel(cg_type(g, in->dst));
        cg_need_smem(g, (size_t)n * cg_reg_size(dt));
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

/* ---- chunk tables computed before a loop --------------------------------
 * A LOAD in a loop through a pointer tile held as a loop-invariant base
 * plus a uniform step (a GEMM's a_ptrs += BLOCK_K) finds its chunks'
 * addresses and whether each chunk is consecutive (which the step does not
 * change) once, before the loop, instead of in every round: where the base
 * is costly (rows wrapped with % M), that was most of the loop's work. */

/* Is every value pure slot s is computed from defined before pc head? */
static bool ready_before(const cg *g, int32_t s, int32_t head, int depth)
{
    int32_t d = g->def[s];
    if (d < 0 || d >= head || depth > 64)
        return false;
    if (cg_scalar(g, s))
        return true;
    int32_t rd[IR_MAX_READS];
    int n = ir_reads(&g->k->code[d], rd);
    for (int i = 0; i < n; i++)
        if (!ready_before(g, rd[i], head, depth + 1))
            return false;
    return true;
}

/* What pure slot s costs to recompute, roughly in instructions: integer
 * division and remainder weigh as the dozens they are. */
static int pure_cost(const cg *g, int32_t s, int depth)
{
    int32_t d = g->def[s];
    if (d < 0 || cg_scalar(g, s) || depth > 64)
        return 0;
    const ir_inst *in = &g->k->code[d];
    int cost = in->op == IR_BINARY && (in->sub == IR_DIV || in->sub == IR_FLOORDIV ||
                                       in->sub == IR_MOD) ? 20 : 1;
    int32_t rd[IR_MAX_READS];
    int n = ir_reads(in, rd);
    for (int i = 0; i < n; i++)
        cost += pure_cost(g, rd[i], depth + 1);
    return cost;
}

void cg_find_hoisted(cg *g)
{
    const ir_kernel *k = g->k;
    for (int32_t p = 0; p < k->ncode; p++) {
        const ir_inst *in = &k->code[p];
        if (in->op != IR_LOAD || cg_scalar(g, in->dst) || g->abase[in->a] < 0)
            continue;
        int bytes = vec_bytes(g, in, in->dst);
        cgen_layout L = cg_layout(g, in->dst);
        /* worth its registers where a chunk's consecutiveness must be
         * tested, its address is costly (rows wrapped with % M), or a
         * DOT it feeds leaves room: its accumulator and both operands'
         * tables (two registers a chunk) within 128 registers.  On the
         * H100, fp32 matmul 1024^3 (64 x 64 tiles) ran at 27.8 TFLOP/s with
         * tables, 24.5 without; 4096^3 (128 x 128) at 21.9 with, 27.4
         * without. */
        int32_t dot = g->fuse_into[p] >= 0 ? g->fuse_into[p] : g->pf_dot[p];
        bool room = dot >= 0 &&
                    ir_type_numel(cg_type(g, k->code[dot].dst)) / g->T + 4 * (L.regs / L.vec) <= 128;
        if (!bytes || L.regs / L.vec > 16 ||
            (chunks_consecutive(g, in, in->dst, L.vec) && pure_cost(g, g->abase[in->a], 0) < 20 &&
             !room))
            continue;
        /* the innermost loop around it: the first jump back over it */
        int32_t head = -1;
        for (int32_t j = p + 1; j < k->ncode && head < 0; j++)
            if (k->code[j].op == IR_JUMP && k->code[j].imm >= 0 && k->code[j].imm <= p)
                head = (int32_t)k->code[j].imm;
        if (head >= 0 && ready_before(g, g->abase[in->a], head, 0))
            g->hoist_head[p] = head;
    }
}

void cg_emit_hoisted(cg *g, int32_t head)
{
    const ir_kernel *k = g->k;
    for (int32_t p = 0; p < k->ncode; p++) {
        if (g->hoist_head[p] != head)
            continue;
        const ir_inst *in = &k->code[p];
        cgen_layout L = cg_layout(g, in->dst);
        int V = L.vec, C = L.regs / V, esz = (int)dtype_size(dtype_elem(cg_dt(g, in->a)));
        int32_t base = g->abase[in->a];
        cg_printf(g, "/* %d: load's chunks, before its loop */\n", p);
        bool known = chunks_consecutive(g, in, in->dst, V);
        cg_printf(g, "tk_u64 tk_cb%d[%d];%s", p, C, known ? "\n" : "");
        if (!known)
            cg_printf(g, " bool tk_cc%d[%d];\n", p, C);
        /* (the straight path's test, unless it is the only path) */
        bool straight = async_table(g, p) && !(known && chunks_aligned(g, in, V, 16));
        if (straight)
            cg_printf(g, "tk_u64 tk_cbo%d = 0;%s", p, known ? "\n" : "");
        if (straight && !known)
            cg_printf(g, " bool tk_cca%d = true;\n", p);
        cg_printf(g, "{\n#pragma unroll\nfor (int c = 0; c < %d; c++) {\n", C);
        cg_printf(g, "const int e0 = (c * %d + tk_tid) * %d; (void)e0;\n", g->T, V);
        strbuf a0 = {0};
        cg_pure_expr(g, &a0, base, "e0", 0);
        cg_printf(g, "const tk_u64 tk_a0 = (tk_u64)(%s);\ntk_cb%d[c] = tk_a0;\n",
                  strbuf_cstr(&a0), p);
        strbuf_free(&a0);
        if (!known) {
            strbuf t = {0};
            chunk_consecutive_test(g, &t, base, true, V, esz);
            cg_printf(g, "tk_cc%d[c] = true%s;\n", p, strbuf_cstr(&t));
            strbuf_free(&t);
        }
        if (straight)
            cg_printf(g, "tk_cbo%d |= tk_a0;\n", p);
        if (straight && !known)
            cg_printf(g, "tk_cca%d = tk_cca%d && tk_cc%d[c];\n", p, p, p);
        cg_printf(g, "}}\n");
    }
}

/* ---- tiles held as their memory bits ------------------------------------
 * An fp16 or bf16 tile that a LOAD brings in is held as it was in memory,
 * two elements to a register, and widened to its register form (a float)
 * where an elementwise instruction reads it: half the registers of the
 * float form, and a STORE of it writes the bits it read.  Only for a tile
 * that the LOAD alone writes, by chunks, and that only instructions whose
 * lanes go through cg_operand_at in the tile's own layout read. */

void cg_packed_bits(strbuf *sb, int32_t slot, const char *r)
{
    strbuf_printf(sb, "((tk_u16)(s%d[(%s) >> 1] >> (((%s) & 1) * 16)))", slot, r, r);
}

/* Does instruction in read slot s only as a lane of its own layout L? */
static bool reads_lanewise(const cg *g, const ir_inst *in, int32_t s, const cgen_layout *L)
{
    int32_t work = -1;
    switch ((ir_opcode)in->op) {
    case IR_BINARY: case IR_UNARY: case IR_CMP: case IR_CAST: case IR_WHERE: case IR_COPY:
        work = in->dst;
        break;
    case IR_STORE:
        if (in->a == s || in->c == s || in->b != s ||
            dtype_elem(cg_dt(g, in->a)) != cg_dt(g, s))
            return false;
        work = in->a;
        break;
    case IR_CONST: case IR_PROGRAM_ID: case IR_NUM_PROGRAMS: case IR_ARG: case IR_ARANGE:
    case IR_BROADCAST: case IR_RESHAPE: case IR_TRANS: case IR_FLIP: case IR_CONCAT:
    case IR_SLICE: case IR_GATHER: case IR_HISTOGRAM: case IR_BITCAST: case IR_MATH:
    case IR_PTR_ADD: case IR_LOAD: case IR_ATOMIC: case IR_DOT: case IR_REDUCE: case IR_SCAN:
    case IR_PRINT: case IR_ASSERT: case IR_BREAKPOINT: case IR_JUMP: case IR_BRANCH:
    case IR_RETURN: case IR_NOP:
        return false;
    }
    if (work < 0 || cg_scalar(g, work))
        return false;
    cgen_layout W = cg_layout(g, work);
    return cg_same_layout(&W, L);
}

void cg_find_packed(cg *g)
{
    const ir_kernel *k = g->k;
    for (int32_t pc = 0; pc < k->ncode; pc++) {
        const ir_inst *in = &k->code[pc];
        int32_t s = in->dst;
        if (in->op != IR_LOAD || s < 0 || g->def[s] != pc || g->fuse_into[pc] >= 0 ||
            g->pf_dot[pc] >= 0 || cg_scalar(g, s))
            continue;
        dtype dt = cg_dt(g, s);
        cgen_layout L = cg_layout(g, s);
        if ((dt != DTYPE_FP16 && dt != DTYPE_BF16) || L.kind != CGEN_FLAT || L.repl ||
            L.vec % 2 != 0 || vec_bytes(g, in, s) == 0)
            continue;
        bool ok = true;
        for (int32_t q = 0; q < k->ncode && ok; q++) {
            int32_t rd[IR_MAX_READS];
            int n = ir_reads(&k->code[q], rd);
            for (int i = 0; i < n && ok; i++)
                if (rd[i] == s)
                    ok = reads_lanewise(g, &k->code[q], s, &L);
        }
        g->packed[s] = ok;
    }
}
