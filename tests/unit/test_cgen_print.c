/* test_cgen_print.c - unit tests of the device side of prints
 * (cgen_print.c): the code cgen_emit writes for PRINT, BREAKPOINT and a
 * failed ASSERT's message values, on kernels built by hand with irbuild.h.
 *
 * Without a GPU the test checks what the text must contain (the record's
 * size and mark as cgen_out.c reads them, the program-id conditions, the
 * barrier that shares a tile record's offset) and that NVRTC compiles it
 * for sm_90 without a warning, checked and unchecked; the NVRTC checks are
 * skipped where libnvrtc cannot be loaded (TRITSIM_NVRTC names it). */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgen.h"
#include "cgen_abi.h"
#include "cgen_out.h"
#include "ir.h"
#include "irbuild.h"
#include "nvrtc_test.h"
#include "tap.h"

/* ---- kernels ------------------------------------------------------------------ */

static const char *sl(int s, const char *spec)
{
    static char bufs[32][24];
    static int n;
    char *p = bufs[n++ % 32];
    if (spec)
        snprintf(p, sizeof bufs[0], "{%d:%s}", s, spec);
    else
        snprintf(p, sizeof bufs[0], "{%d}", s);
    return p;
}

static int cast(irb *b, int x, dtype dt)
{
    int s = irb_like(b, x, dt);
    irb_emit(b, IR_CAST, IR_CAST_PLAIN, s, x, -1, -1, 0);
    return s;
}

/* Prints of tiles of every width (1-byte int1 and fp8, 2-byte fp16, 4, 8
 * bytes), of a 2-D tile, of a tile smaller than the block (replicated), of
 * scalars; a print_if; device_print with several operands; breakpoints;
 * all inside a loop, so records follow one another at run time. */
static void build_prints(irb *b, int n)
{
    irb_init(b, "prints");
    irb_at(b, 5, 5, 30);
    int px = irb_param(b, "x_ptr", dtype_ptr_to(DTYPE_FP16));
    int pid = irb_pid(b, 0);
    int x = irb_bin(b, IR_ADD, irb_arange(b, n), pid);
    int xf = cast(b, x, DTYPE_FP32);
    int h = cast(b, xf, DTYPE_FP16), f8 = cast(b, xf, DTYPE_FP8E4NV);
    int small = irb_cmp(b, IR_LT, x, irb_const(b, DTYPE_INT32, 6));
    int u64 = cast(b, x, DTYPE_UINT64);
    int four = irb_arange(b, 4);
    int m = irb_offs2d(b, 8, 32, 100);
    int d64 = irb_fconst(b, DTYPE_FP64, 0.5);
    int p = irb_ptr_add(b, irb_arg(b, px), x);
    /* for i in range(3): */
    int i = irb_slot(b, DTYPE_INT32, 0, 0, 0);
    irb_emit(b, IR_CONST, 0, i, -1, -1, -1, 0);
    int top = b->k.ncode;
    int more = irb_cmp(b, IR_LT, i, irb_const(b, DTYPE_INT32, 3));
    int br = irb_emit(b, IR_BRANCH, 0, -1, more, -1, -1, 0);
    const char *p1[] = {"i ", sl(i, NULL), " x ", sl(x, NULL), " h ", sl(h, NULL), " f8 ",
                        sl(f8, NULL), " b ", sl(small, NULL), " u ", sl(u64, NULL)};
    irb_emit(b, IR_PRINT, 0, -1, -1, -1, -1, irb_print(b, IR_PRINT_TEXT, p1, 12));
    const char *p2[] = {"four ", sl(four, NULL), " m ", sl(m, NULL), " d ", sl(d64, ".2f"),
                        " p ", sl(p, NULL)};
    int pr2 = irb_print(b, IR_PRINT_TEXT, p2, 8);
    b->prints[pr2].pid_cond[0].op = IR_GE;
    b->prints[pr2].pid_cond[0].value = 1;
    irb_emit(b, IR_PRINT, 0, -1, -1, -1, -1, pr2);
    const char *p3[] = {"dev", sl(x, NULL), sl(d64, NULL), sl(small, NULL)};
    irb_emit(b, IR_PRINT, 0, -1, -1, -1, -1, irb_print(b, IR_PRINT_DEVICE, p3, 4));
    const char *p4[] = {"only text"};
    irb_emit(b, IR_PRINT, 0, -1, -1, -1, -1, irb_print(b, IR_PRINT_TEXT, p4, 1));
    irb_emit(b, IR_BREAKPOINT, 0, -1, -1, -1, -1, -1);
    const char *p5[] = {""};
    int pb = irb_print(b, IR_PRINT_TEXT, p5, 0);
    b->prints[pb].pid_cond[1].op = IR_EQ;
    b->prints[pb].pid_cond[1].value = 0;
    irb_emit(b, IR_BREAKPOINT, 0, -1, -1, -1, -1, pb);
    irb_emit(b, IR_BINARY, IR_ADD, i, i, irb_const(b, DTYPE_INT32, 1), -1, 0);
    irb_emit(b, IR_JUMP, 0, -1, -1, -1, -1, top);
    b->code[br].imm = b->k.ncode;
    irb_emit(b, IR_RETURN, 0, -1, -1, -1, -1, 0);
}

/* tl.device_assert(x < 100, f"x={x} n={n}") (values: a tile and a
 * scalar), or with a message of text only. */
static void build_assert(irb *b, bool values)
{
    irb_init(b, "asserts");
    irb_at(b, 8, 5, 40);
    int x = irb_arange(b, 256);
    int lim = irb_const(b, DTYPE_INT32, 100);
    int ok = irb_cmp(b, IR_LT, x, lim);
    const char *pm[] = {"x=", sl(x, NULL), " n=", sl(lim, NULL)};
    int pr = irb_print(b, IR_PRINT_TEXT, pm, values ? 4 : 1);
    irb_emit(b, IR_ASSERT, IR_ASSERT_DEVICE, -1, ok, -1, -1, pr);
    irb_emit(b, IR_RETURN, 0, -1, -1, -1, -1, 0);
}

/* ---- emission --------------------------------------------------------------------- */

static bool emit(const irb *b, bool checked, strbuf *src, cgen_info *info)
{
    cgen_options o = {.target = {CGEN_CUDA, 32, 90}, .num_warps = 4, .num_stages = 2,
                      .checked = checked, .max_smem = 227 * 1024};
    cgen_fault f;
    bool ok = cgen_emit(&b->k, &o, src, info, &f);
    if (!ok)
        printf("# cgen_emit failed at %d: %s\n", f.pc, f.why);
    return ok;
}

static int count(const char *s, const char *what)
{
    int n = 0;
    for (const char *p = strstr(s, what); p; p = strstr(p + 1, what))
        n++;
    return n;
}

static void check_text(void)
{
    irb b;
    build_prints(&b, 128);
    strbuf src = {0};
    cgen_info info;
    TAP_OK(emit(&b, true, &src, &info), "a kernel with prints emits");
    const char *s = strbuf_cstr(&src);
    TAP_OK(info.has_prints, "cgen_info says it prints");
    /* one reservation per PRINT and BREAKPOINT, of the size cgen_out reads */
    TAP_INT_EQ(count(s, "atomicAdd(&tk_rt_p->print_used"), 6, "six records reserved");
    int ok_sizes = 0, ok_marks = 0;
    for (int32_t pc = 0; pc < b.k.ncode; pc++) {
        int op = b.k.code[pc].op;
        if (op != IR_PRINT && op != IR_BREAKPOINT)
            continue;
        char want[96];
        snprintf(want, sizeof want, "atomicAdd(&tk_rt_p->print_used, %" PRIu64 "ull)",
                 cgen_rec_bytes(&b.k, pc));
        ok_sizes += strstr(s, want) != NULL;
        snprintf(want, sizeof want, "tk_h[1] = %" PRIu32 "u;",
                 (uint32_t)pc | (op == IR_BREAKPOINT ? TK_REC_BREAK : 0));
        ok_marks += strstr(s, want) != NULL;
    }
    TAP_INT_EQ(ok_sizes, 6, "each record's size is cgen_rec_bytes's");
    TAP_INT_EQ(ok_marks, 6, "each record names its instruction, breakpoints marked");
    TAP_OK(strstr(s, "if (true && (long long)blockIdx.x >= 1ll)") != NULL,
           "print_if's condition on the program id");
    TAP_OK(strstr(s, "if (true && (long long)blockIdx.y == 0ll)") != NULL,
           "breakpoint_if's condition");
    TAP_OK(count(s, "tk_print_at[tk_pslot]") == 6,
           "the three records with tiles share their offset through shared memory");
    strbuf_free(&src);

    build_assert(&b, true);
    strbuf_init(&src);
    TAP_OK(emit(&b, true, &src, &info), "an assertion with values emits");
    s = strbuf_cstr(&src);
    char mark[64];
    snprintf(mark, sizeof mark, "tk_h[1] = %" PRIu32 "u;", 3u | TK_REC_ASSERT);
    TAP_OK(strstr(s, "if (__syncthreads_or(tk_bad)) {") != NULL && strstr(s, mark) != NULL,
           "a failed assertion writes its values' record, then stops");
    TAP_OK(info.has_prints, "so the kernel has a print buffer");
    strbuf_free(&src);
    strbuf_init(&src);
    TAP_OK(emit(&b, false, &src, &info) && !info.has_prints &&
           !strstr(strbuf_cstr(&src), "atomicAdd(&tk_rt_p->print_used"), "unchecked: no assertion, no record");
    strbuf_free(&src);
    build_assert(&b, false);
    strbuf_init(&src);
    TAP_OK(emit(&b, true, &src, &info) && !info.has_prints &&
           !strstr(strbuf_cstr(&src), "atomicAdd(&tk_rt_p->print_used"), "a plain message needs no record");
    strbuf_free(&src);
}

/* ---- NVRTC ----------------------------------------------------------------------- */

/* NVRTC compiles src for sm_90 with the CUDA backend's options. */
static void compiles(const cuda_nvrtc *rtc, const char *src, const char *what)
{
    char *log;
    TAP_OK(nvrtc_test_compile(rtc, src, "tk_print.cu", &log), "NVRTC compiles %s", what);
    if (log)
        printf("# %s\n", log);
    free(log);
}

static void check_compile(void)
{
    const cuda_nvrtc *rtc = nvrtc_test_load();
    if (!rtc) {
        printf("ok %d # SKIP libnvrtc not found (set TRITSIM_LIBNVRTC)\n", ++tap_count_);
        return;
    }
    struct { int n; bool checked; bool assert_values; const char *what; } cases[] = {
        {128, true, false, "prints of 128-element tiles (a register each)"},
        {2048, true, false, "prints of 2048-element tiles (16 registers each)"},
        {32, false, false, "prints of 32-element tiles (replicated), unchecked"},
        {0, true, true, "an assertion's record"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        irb b;
        if (cases[c].assert_values)
            build_assert(&b, true);
        else
            build_prints(&b, cases[c].n);
        strbuf src = {0};
        cgen_info info;
        if (emit(&b, cases[c].checked, &src, &info))
            compiles(rtc, strbuf_cstr(&src), cases[c].what);
        else
            TAP_OK(false, "%s: emits", cases[c].what);
        const char *dump = getenv("TRITSIM_CGEN_DUMP");
        FILE *f = dump && c == 0 ? fopen(dump, "w") : NULL;
        if (f) {
            fputs(strbuf_cstr(&src), f);
            fclose(f);
        }
        strbuf_free(&src);
    }
}

/* A kernel that needs more shared memory than the target has fails as
 * out of resources (Triton's OutOfResources, which autotune skips); other
 * failures do not say so. */
static void check_resources(void)
{
    irb b;
    irb_init(&b, "transposed");
    irb_at(&b, 3, 5, 20);
    int t = irb_shape2(&b, IR_TRANS, irb_offs2d(&b, 64, 64, 64), 64, 64);
    const char *pm[] = {"t=", sl(t, NULL)};
    irb_emit(&b, IR_PRINT, 0, -1, -1, -1, -1, irb_print(&b, IR_PRINT_TEXT, pm, 2));
    irb_emit(&b, IR_RETURN, 0, -1, -1, -1, -1, 0);
    strbuf src = {0};
    cgen_info info;
    cgen_options o = {.target = {CGEN_CUDA, 32, 90}, .num_warps = 4, .num_stages = 2,
                      .checked = true, .max_smem = 227 * 1024};
    cgen_fault f;
    TAP_OK(cgen_emit(&b.k, &o, &src, &info, &f) && !f.resources && info.smem_bytes > 0,
           "a transposed tile needs some shared memory, which the target has");
    o.max_smem = info.smem_bytes - 1;
    strbuf_clear(&src);
    TAP_OK(!cgen_emit(&b.k, &o, &src, &info, &f) && f.resources &&
           strstr(f.why, "bytes of shared memory per program, more than the") != NULL,
           "one byte less is a failure for want of resources");
    o.max_smem = 227 * 1024;
    o.num_warps = 3;
    strbuf_clear(&src);
    TAP_OK(!cgen_emit(&b.k, &o, &src, &info, &f) && !f.resources,
           "num_warps=3 fails, but not for want of resources");
    strbuf_free(&src);
}

int main(void)
{
    check_text();
    check_resources();
    check_compile();
    return tap_done();
}
