/* test_cgen_reduce.c - unit tests of the code cgen_emit writes for REDUCE
 * and SCAN (cgen_reduce.c), on kernels built by hand with irbuild.h: each
 * loads tiles of one dtype and reduces or scans them along each axis, with
 * every kind that dtype takes, and stores the results.
 *
 * Without a GPU the test checks which form each shape gets (the tree of
 * shuffles for power-of-two tiles, tensor-core accumulators included; the
 * sequential form for other sizes; no shared memory for a one-warp
 * reduction to a scalar) and that NVRTC compiles every kernel for sm_90
 * with 1, 4 and 8 warps; the NVRTC checks are skipped where libnvrtc
 * cannot be loaded (TRITSIM_NVRTC names it). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgen.h"
#include "ir.h"
#include "irbuild.h"
#include "nvrtc_test.h"
#include "tap.h"

/* ---- kernels ------------------------------------------------------------------ */

/* One reduction: a tile of [R] (C == 0) or [R, C], op REDUCE or SCAN,
 * kind, axis (-1: all). */
typedef struct rcase {
    int R, C;
    ir_opcode op;
    ir_reduce kind;
    int axis;
} rcase;

typedef struct kspec {
    const char *what;
    dtype dt;
    const rcase *cases;
    int ncases;
    bool mma;           /* also: a DOT's [64, 64] accumulator, reduced */
} kspec;

/* Offsets 0..numel-1 of a [R] or [R, C] tile. */
static int offsets(irb *b, int R, int C)
{
    return C ? irb_offs2d(b, R, C, C) : irb_arange(b, R);
}

/* dst = op(x) along axis, stored through pointer parameter p. */
static void reduce_store(irb *b, int x, ir_opcode op, ir_reduce kind, int axis, int p)
{
    const ir_type *t = &b->slots[x].type;
    bool arg = kind == IR_RED_ARGMAX || kind == IR_RED_ARGMIN;
    dtype dd = arg ? DTYPE_INT32 : t->dt;
    int R = t->shape[0], C = t->ndim == 2 ? t->shape[1] : 0, dst;
    if (op == IR_SCAN)
        dst = irb_like(b, x, dd);
    else if (axis < 0 || t->ndim == 1)
        dst = irb_slot(b, dd, 0, 0, 0);
    else
        dst = irb_slot(b, dd, 1, axis == 0 ? C : R, 0);
    irb_emit(b, op, kind, dst, x, -1, -1, axis);
    const ir_type *td = &b->slots[dst].type;
    int off = td->ndim == 0 ? irb_const(b, DTYPE_INT32, 0)
                            : offsets(b, td->shape[0], td->ndim == 2 ? td->shape[1] : 0);
    irb_store(b, irb_ptr_add(b, irb_arg(b, p), off), dst, -1);
}

static void build(irb *b, const kspec *k)
{
    irb_init(b, "reductions");
    irb_at(b, 3, 5, 20);
    int px = irb_param(b, "x_ptr", dtype_ptr_to(k->dt));
    int po = irb_param(b, "out_ptr", dtype_ptr_to(k->dt));
    int pi = irb_param(b, "idx_ptr", dtype_ptr_to(DTYPE_INT32));
    int x = -1, R = 0, C = 0;
    for (int i = 0; i < k->ncases; i++) {
        const rcase *c = &k->cases[i];
        if (x < 0 || c->R != R || c->C != C) {
            R = c->R;
            C = c->C;
            x = irb_load(b, irb_ptr_add(b, irb_arg(b, px), offsets(b, R, C)), -1, -1);
        }
        bool arg = c->kind == IR_RED_ARGMAX || c->kind == IR_RED_ARGMIN;
        reduce_store(b, x, c->op, c->kind, c->axis, arg ? pi : po);
    }
    if (k->mma) {
        /* acc = dot(a[64, 32], b[32, 64]) in fp16 -> fp32, as attention's qk */
        int ph = irb_param(b, "h_ptr", dtype_ptr_to(DTYPE_FP16));
        int pf = irb_param(b, "f_ptr", dtype_ptr_to(DTYPE_FP32));
        int a = irb_load(b, irb_ptr_add(b, irb_arg(b, ph), irb_offs2d(b, 64, 32, 32)), -1, -1);
        int bb = irb_load(b, irb_ptr_add(b, irb_arg(b, ph), irb_offs2d(b, 32, 64, 64)), -1, -1);
        int acc = irb_slot(b, DTYPE_FP32, 2, 64, 64);
        irb_emit(b, IR_DOT, 0, acc, a, bb, -1, 0);
        reduce_store(b, acc, IR_REDUCE, IR_RED_MAX, 1, pf);
        reduce_store(b, acc, IR_REDUCE, IR_RED_SUM, 0, pf);
        reduce_store(b, acc, IR_REDUCE, IR_RED_SUM, -1, pf);
        reduce_store(b, acc, IR_REDUCE, IR_RED_ARGMAX, 1, pi);
        reduce_store(b, acc, IR_SCAN, IR_RED_SUM, 1, pf);
    }
    irb_emit(b, IR_RETURN, 0, -1, -1, -1, -1, 0);
}

#define RD IR_REDUCE
#define SC IR_SCAN
static const rcase f32_reduce[] = {
    {4096, 0, RD, IR_RED_SUM, -1}, {4096, 0, RD, IR_RED_MAX, 0}, {4096, 0, RD, IR_RED_PROD, -1},
    {4096, 0, RD, IR_RED_ARGMAX, 0}, {64, 64, RD, IR_RED_SUM, 1}, {64, 64, RD, IR_RED_MAX, 0},
    {64, 64, RD, IR_RED_ARGMIN, 1}, {64, 64, RD, IR_RED_MIN, -1}, {16, 256, RD, IR_RED_SUM, 1},
    {8, 4, RD, IR_RED_MAX, 1}, {8, 4, RD, IR_RED_ARGMAX, 0}, {32, 0, RD, IR_RED_SUM, 0},
    {1, 0, RD, IR_RED_SUM, 0},
};
static const rcase f32_scan[] = {
    {4096, 0, SC, IR_RED_SUM, 0}, {64, 64, SC, IR_RED_SUM, 0}, {64, 64, SC, IR_RED_MAX, 1},
    {16, 256, SC, IR_RED_PROD, 1}, {8, 4, SC, IR_RED_SUM, 1}, {8, 4, SC, IR_RED_MIN, 0},
    {32, 0, SC, IR_RED_SUM, 0},
};
static const rcase odd_shapes[] = {
    {3, 128, RD, IR_RED_SUM, 1}, {3, 128, RD, IR_RED_ARGMAX, 0}, {3, 128, SC, IR_RED_SUM, 1},
};
static const rcase narrow[] = {
    {64, 64, RD, IR_RED_SUM, 1}, {64, 64, RD, IR_RED_MAX, 0}, {64, 64, RD, IR_RED_ARGMAX, 1},
    {1024, 0, RD, IR_RED_SUM, -1}, {1024, 0, SC, IR_RED_SUM, 0}, {64, 64, SC, IR_RED_SUM, 1},
};
static const rcase f64[] = {
    {4096, 0, RD, IR_RED_SUM, -1}, {4096, 0, RD, IR_RED_MIN, 0}, {4096, 0, RD, IR_RED_ARGMIN, 0},
    {64, 64, SC, IR_RED_SUM, 0},
};
static const rcase ints[] = {
    {64, 64, RD, IR_RED_SUM, 1}, {64, 64, RD, IR_RED_XOR, 0}, {64, 64, RD, IR_RED_AND, 1},
    {64, 64, RD, IR_RED_OR, -1}, {64, 64, RD, IR_RED_MAX, 1}, {64, 64, RD, IR_RED_ARGMIN, 0},
    {64, 64, SC, IR_RED_SUM, 0}, {64, 64, SC, IR_RED_XOR, 1}, {64, 64, SC, IR_RED_MAX, 0},
    {256, 0, RD, IR_RED_PROD, 0}, {256, 0, SC, IR_RED_OR, 0},
};
static const rcase bools[] = {
    {256, 0, RD, IR_RED_XOR, 0}, {16, 16, RD, IR_RED_OR, 1}, {16, 16, RD, IR_RED_AND, 0},
    {16, 16, RD, IR_RED_ARGMAX, 1},
};
#define N(a) (int)(sizeof a / sizeof a[0])
static const kspec kernels[] = {
    {"fp32 reductions", DTYPE_FP32, f32_reduce, N(f32_reduce), true},
    {"fp32 scans", DTYPE_FP32, f32_scan, N(f32_scan), false},
    {"tiles of 3 x 128", DTYPE_FP32, odd_shapes, N(odd_shapes), false},
    {"fp16", DTYPE_FP16, narrow, N(narrow), false},
    {"bf16", DTYPE_BF16, narrow, N(narrow), false},
    {"fp64", DTYPE_FP64, f64, N(f64), false},
    {"int32", DTYPE_INT32, ints, N(ints), false},
    {"int8", DTYPE_INT8, ints, N(ints), false},
    {"uint64", DTYPE_UINT64, ints, N(ints), false},
    {"int1", DTYPE_INT1, bools, N(bools), false},
};

/* ---- emission --------------------------------------------------------------------- */

static bool emit(const irb *b, int warps, strbuf *src)
{
    cgen_options o = {.target = {CGEN_CUDA, 32, 90}, .num_warps = warps, .num_stages = 2,
                      .checked = true, .max_smem = 227 * 1024};
    cgen_fault f;
    cgen_info info;
    bool ok = cgen_emit(&b->k, &o, src, &info, &f);
    if (!ok)
        printf("# cgen_emit failed at %d: %s\n", f.pc, f.why);
    return ok;
}

/* The text of one instruction: from its "/ * pc: " mark to the next. */
static char *inst_text(const char *src, int pc)
{
    char mark[32];
    snprintf(mark, sizeof mark, "/* %d: ", pc);
    const char *p = strstr(src, mark);
    if (!p)
        return strdup("");
    const char *q = strstr(p + 1, "\n/* ");
    size_t n = q ? (size_t)(q - p) : strlen(p);
    char *s = malloc(n + 1);
    memcpy(s, p, n);
    s[n] = 0;
    return s;
}

/* The text of the k-th REDUCE or SCAN of the kernel. */
static char *reduce_text(const irb *b, const char *src, int k)
{
    for (int pc = 0; pc < b->k.ncode; pc++)
        if ((b->code[pc].op == IR_REDUCE || b->code[pc].op == IR_SCAN) && k-- == 0)
            return inst_text(src, pc);
    return strdup("");
}

static void check_forms(void)
{
    irb b;
    strbuf src = {0};
    build(&b, &kernels[0]);
    TAP_OK(emit(&b, 4, &src), "fp32 reductions emit with 4 warps");
    const char *s = strbuf_cstr(&src);
    char *t = reduce_text(&b, s, 0);
    TAP_OK(strstr(t, "__shfl_xor_sync(0xffffffffu, (float)(tk_a[j]), 16)") &&
           strstr(t, "((float *)tk_smem)[tk_o * 4 + tk_w]") && !strstr(t, "for (long long l"),
           "a sum of 4096 elements: registers, shuffles, then the 4 warps' partials");
    free(t);
    t = reduce_text(&b, s, 4);
    TAP_OK(strstr(t, "__shfl_xor_sync(0xffffffffu, (float)(tk_a[j]), 8)") &&
           !strstr(t, "tk_a[j]), 16)") && !strstr(t, "for (long long l"),
           "a [64, 64] sum along axis 1: lanes 0-3 hold a row's columns");
    free(t);
    t = reduce_text(&b, s, 3);
    TAP_OK(strstr(t, "int tk_ai[1]") && strstr(t, "tk_x != tk_x ? -1 :"),
           "argmax carries an index and skips NaN");
    free(t);
    /* the accumulator's reductions come after the 13 cases */
    t = reduce_text(&b, s, 13);
    TAP_OK(strstr(t, "(float)(tk_a[j]), 1)") && strstr(t, "(float)(tk_a[j]), 2)") &&
           !strstr(t, "(float)(tk_a[j]), 4)") && !strstr(t, "for (long long l"),
           "a row max of an MMA accumulator: a quad's lanes, no shared-memory tile");
    free(t);
    strbuf_free(&src);

    strbuf_init(&src);
    build(&b, &kernels[0]);
    TAP_OK(emit(&b, 1, &src), "fp32 reductions emit with 1 warp");
    t = reduce_text(&b, strbuf_cstr(&src), 0);
    TAP_OK(strstr(t, "(float)(tk_a[j]), 16)") && !strstr(t, "tk_smem"),
           "one warp's sum to a scalar needs no shared memory");
    free(t);
    strbuf_free(&src);

    strbuf_init(&src);
    build(&b, &kernels[1]);
    TAP_OK(emit(&b, 4, &src), "fp32 scans emit");
    t = reduce_text(&b, strbuf_cstr(&src), 0);
    TAP_OK(strstr(t, "tk_p[r] = ") && strstr(t, "__shfl_xor_sync") &&
           strstr(t, "// scan level: element bit 11") && !strstr(t, "for (long long l"),
           "a scan of 4096 elements runs a level per element bit");
    free(t);
    strbuf_free(&src);

    strbuf_init(&src);
    build(&b, &kernels[2]);
    TAP_OK(emit(&b, 4, &src), "tiles of 3 x 128 emit");
    t = reduce_text(&b, strbuf_cstr(&src), 0);
    TAP_OK(strstr(t, "for (long long l") != NULL, "a length-3 axis takes the sequential form");
    free(t);
    strbuf_free(&src);
}

/* ---- NVRTC ----------------------------------------------------------------------- */

/* NVRTC compiles src for sm_90 with the CUDA backend's options. */
static void compiles(const cuda_nvrtc *rtc, const char *src, const char *what, int warps)
{
    char *log;
    TAP_OK(nvrtc_test_compile(rtc, src, "tk_reduce.cu", &log), "NVRTC compiles %s (%d warps)",
           what, warps);
    if (log)
        printf("# %.2000s\n", log);
    free(log);
}

static void check_compile(void)
{
    const cuda_nvrtc *rtc = nvrtc_test_load();
    if (!rtc) {
        printf("ok %d # SKIP libnvrtc not found (set TRITSIM_LIBNVRTC)\n", ++tap_count_);
        return;
    }
    for (int i = 0; i < N(kernels); i++) {
        /* every kernel with 4 warps; the fp32 ones with 1 and 8 too */
        int warps[] = {4, 1, 8};
        for (int w = 0; w < (kernels[i].dt == DTYPE_FP32 && i < 2 ? 3 : 1); w++) {
            irb b;
            build(&b, &kernels[i]);
            strbuf src = {0};
            if (emit(&b, warps[w], &src))
                compiles(rtc, strbuf_cstr(&src), kernels[i].what, warps[w]);
            else
                TAP_OK(false, "%s: emits", kernels[i].what);
            strbuf_free(&src);
        }
    }
}

int main(void)
{
    check_forms();
    check_compile();
    return tap_done();
}
