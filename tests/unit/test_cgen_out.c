/* test_cgen_out.c - unit tests of the host side of the GPU backends' prints
 * (cgen_out.h): print records written as an emitted kernel writes them
 * (cgen_abi.h) must come out as exactly the text, and the error words, the
 * CPU executor gives for the same launch.
 *
 * The records come from an emulated device: each program runs in a CPU
 * debugger session (exec.h) one instruction at a time, and at each PRINT,
 * BREAKPOINT and failing ASSERT the emulator writes the record the
 * emitted code writes (cgen_print.c), from the slots' values, into a
 * buffer, with the programs in a scrambled order as a GPU runs them.  The
 * same launch on the CPU executor gives the text to compare with. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgen_abi.h"
#include "cgen_out.h"
#include "exec.h"
#include "ir.h"
#include "irbuild.h"
#include "pool.h"
#include "tap.h"

static const char *SOURCE =
    "@triton.jit\n"
    "def kernel(x_ptr, n, BLOCK: tl.constexpr):\n"
    "    pid = tl.program_id(0)\n"
    "    x = tl.load(x_ptr + pid * BLOCK + tl.arange(0, BLOCK))\n"
    "    print(f'pid {pid} x {x}')\n"
    "    tl.device_print('x', x)\n"
    "    breakpoint()\n"
    "    tl.device_assert(x < n, f'x={x}')\n";

static src_file *file;
static pool *thepool;

/* ---- the CPU's text -------------------------------------------------------- */

typedef struct text {
    bool ok;
    char *out, *err;
} text;

static void text_free(text *t)
{
    free(t->out);
    free(t->err);
}

static exec_launch launch_of(irb *b, int64_t g0, int64_t g1, const exec_arg *args,
                             bool report, FILE *out, diag_sink *d)
{
    return (exec_launch){.kernel = &b->k, .file = file, .grid = {g0, g1, 1}, .rank = 2,
                         .args = args, .pool = thepool, .out = out, .diag = d,
                         .breaks = report ? EXEC_BREAK_REPORT : EXEC_BREAK_IGNORE};
}

static text cpu_run(irb *b, int64_t g0, int64_t g1, const exec_arg *args, bool report)
{
    text r = {0};
    size_t ol, el;
    FILE *out = open_memstream(&r.out, &ol), *err = open_memstream(&r.err, &el);
    diag_sink d;
    diag_sink_init(&d, err);
    d.color = false;
    exec_launch L = launch_of(b, g0, g1, args, report, out, &d);
    r.ok = exec_run(&L);
    fclose(out);
    fclose(err);
    return r;
}

/* ---- the emulated device ------------------------------------------------------ */

typedef struct device {
    unsigned char *buf;
    uint64_t used, cap;
    tk_err err;
    bool failed;
} device;

static void put32(unsigned char *p, uint32_t v)
{
    memcpy(p, &v, 4);
}

/* The record of instruction pc (flags: TK_REC_*) by program P, reserved at
 * print_used and written when it fits, as cgen_print.c's code does. */
static void emit_record(device *dv, exec_prog *P, const ir_kernel *k, int32_t pc,
                        uint32_t flags, uint32_t seq)
{
    uint64_t bytes = cgen_rec_bytes(k, pc), o = dv->used;
    dv->used += bytes;
    if (o + 8 <= dv->cap)
        put32(dv->buf + o, (uint32_t)bytes);
    if (o + bytes > dv->cap)
        return;
    const int64_t *c = exec_prog_coord(P);
    unsigned char *h = dv->buf + o;
    put32(h + 4, (uint32_t)pc | flags);
    for (int i = 0; i < 3; i++)
        put32(h + 8 + 4 * i, (uint32_t)c[i]);
    put32(h + 20, seq);
    const ir_print *pr = flags & TK_REC_BREAK ? NULL : ir_inst_print(k, &k->code[pc]);
    for (int32_t i = 0; pr && i < pr->npieces; i++) {
        if (pr->pieces[i].slot < 0)
            continue;
        exec_tile t;
        exec_prog_read(P, pr->pieces[i].slot, &t);
        dtype dt = t.type.dt;
        unsigned char *d = h + cgen_rec_piece_at(k, pc, i);
        for (int64_t e = 0; e < t.numel; e++)
            dtype_store(dt, d + e * dtype_size(dt), exec_tile_get(&t, e));
        exec_tile_free(&t);
    }
}

/* The first counted lane of an ASSERT's condition that is false, or -1. */
static int64_t assert_lane(exec_prog *P, const ir_inst *in)
{
    exec_tile t;
    exec_prog_read(P, in->a, &t);
    int64_t lane = -1;
    for (int64_t i = 0; i < t.numel && lane < 0; i++) {
        dtype_scalar v = exec_tile_get(&t, i);
        bool truth = dtype_is_float(t.type.dt) && !dtype_is_ptr(t.type.dt) ? v.f != 0 : v.u != 0;
        if (!truth)
            lane = i;
    }
    exec_tile_free(&t);
    return lane;
}

static bool has_values(const ir_print *pr)
{
    for (int32_t i = 0; pr && i < pr->npieces; i++)
        if (pr->pieces[i].slot >= 0)
            return true;
    return false;
}

/* Run the launch's programs in a scrambled order, writing the records a
 * GPU's would; the lowest failing program's error as the runtime block
 * holds it (a failed PRINT is no failure on the device). */
static void device_run(irb *b, int64_t g0, int64_t g1, const exec_arg *args, device *dv)
{
    const ir_kernel *k = &b->k;
    char *junk;
    size_t jl;
    FILE *out = open_memstream(&junk, &jl), *err = fopen("/dev/null", "w");
    diag_sink d;
    diag_sink_init(&d, err);
    exec_launch L = launch_of(b, g0, g1, args, true, out, &d);
    L.keep_lanes = true;
    exec_sess *S = exec_sess_begin(&L);
    int64_t n = g0 * g1;
    memset(dv->buf, 0xab, dv->cap);    /* what a record not written leaves */
    dv->used = 0;
    dv->failed = false;
    for (int64_t i = 0; i < n; i++) {
        int64_t pid = (i * 7 + 3) % n;   /* 7 is prime to the grids used */
        exec_prog *P = exec_sess_start(S, pid);
        const int64_t *c = exec_prog_coord(P);
        uint32_t seq = 0;
        for (;;) {
            int32_t pc = exec_prog_pc(P);
            const ir_inst *in = pc < k->ncode ? &k->code[pc] : NULL;
            const ir_print *pr = in ? ir_inst_print(k, in) : NULL;
            int64_t lane = -1;
            if (in && in->op == IR_PRINT && ir_print_pid_passes(pr, c))
                emit_record(dv, P, k, pc, 0, seq++);
            if (in && in->op == IR_BREAKPOINT && (!pr || ir_print_pid_passes(pr, c)))
                emit_record(dv, P, k, pc, TK_REC_BREAK, seq++);
            if (in && in->op == IR_ASSERT && (lane = assert_lane(P, in)) >= 0 && has_values(pr))
                emit_record(dv, P, k, pc, TK_REC_ASSERT, seq++);
            exec_status st = exec_prog_step(P);
            if (st == EXEC_RUNNING)
                continue;
            if (st == EXEC_FAILED && in->op != IR_PRINT &&
                (!dv->failed || pid < dv->err.pid[0] + g0 * dv->err.pid[1])) {
                dv->failed = true;
                dv->err = (tk_err){.kind = in->op == IR_ASSERT ? TK_ERR_ASSERT : TK_ERR_TRAP,
                                   .pc = pc, .pid = {c[0], c[1], c[2]},
                                   .lane = lane < 0 ? 0 : lane, .arg = -1};
            }
            break;
        }
        exec_prog_free(P);
    }
    exec_sess_end(S);
    fclose(out);
    fclose(err);
    free(junk);
}

/* ---- cgen_out's text ------------------------------------------------------------ */

typedef struct gpu_text {
    bool ok;
    cgen_out_fail f;
    char *out, *err;
} gpu_text;

/* cgen_out_write on the device's records; an error reported as the CUDA
 * backend reports one with words (at the instruction, as exec.c does). */
static gpu_text gpu_out(irb *b, const device *dv, int64_t g0, int64_t g1, bool report,
                        const char *lane)
{
    gpu_text r = {0};
    size_t ol, el;
    FILE *out = open_memstream(&r.out, &ol), *err = open_memstream(&r.err, &el);
    diag_sink d;
    diag_sink_init(&d, err);
    d.color = false;
    cgen_out_launch o = {.k = &b->k, .file = file, .diag = &d, .buf = dv->buf,
                         .used = dv->used, .cap = dv->cap, .grid = {g0, g1, 1},
                         .err = dv->failed ? &dv->err : NULL, .err_lane = lane,
                         .breaks_report = report};
    r.ok = cgen_out_write(out, &o, &r.f);
    if (r.f.failed && r.f.words) {
        const ir_inst *in = &b->k.code[r.f.pc];
        diag_report(&d, DIAG_ERROR, file, in->at->span, "%s", r.f.msg);
        if (r.f.note[0])
            diag_report(&d, DIAG_NOTE, file, in->at->span, "%s", r.f.note);
    }
    fclose(out);
    fclose(err);
    return r;
}

static void gpu_free(gpu_text *t)
{
    free(t->out);
    free(t->err);
}

/* The CPU's launch and the emulated GPU's, compared: output, and the
 * error words when cgen_out gives them. */
static void compare(irb *b, int64_t g0, int64_t g1, const exec_arg *args, bool report,
                    const char *lane, const char *what)
{
    static unsigned char buf[1 << 16];
    device dv = {.buf = buf, .cap = sizeof buf};
    device_run(b, g0, g1, args, &dv);
    text c = cpu_run(b, g0, g1, args, report);
    gpu_text g = gpu_out(b, &dv, g0, g1, report, lane);
    TAP_OK(g.ok, "%s: the records read back", what);
    TAP_STR_EQ(g.out, c.out, "%s: the CPU's output", what);
    TAP_OK(g.f.failed == !c.ok, "%s: %s, as on the CPU", what,
           c.ok ? "no failure" : "a failure");
    if (g.f.words)
        TAP_STR_EQ(g.err, c.err, "%s: the CPU's error", what);
    text_free(&c);
    gpu_free(&g);
}

/* ---- kernels -------------------------------------------------------------------- */

static int cast(irb *b, int x, dtype dt)
{
    int s = irb_like(b, x, dt);
    irb_emit(b, IR_CAST, IR_CAST_PLAIN, s, x, -1, -1, 0);
    return s;
}

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

/* Prints of every kind of value: tiles of several dtypes (fp16, bf16, fp8,
 * int8, uint64, int1, 2-D), scalars with and without a format spec,
 * device_print with several operands and hex, a print_if, breakpoints. */
static void build_values(irb *b)
{
    irb_init(b, "values");
    irb_at(b, 5, 5, 30);
    int pid = irb_pid(b, 0), pid1 = irb_pid(b, 1);
    int x = irb_bin(b, IR_ADD, irb_arange(b, 8), irb_bin(b, IR_MUL, pid,
                                                          irb_const(b, DTYPE_INT32, 8)));
    int tenth = irb_fconst(b, DTYPE_FP32, 0.1);
    int xf = irb_bin(b, IR_MUL, cast(b, x, DTYPE_FP32), tenth);
    int h = cast(b, xf, DTYPE_FP16), bf = cast(b, xf, DTYPE_BF16);
    int f8 = cast(b, xf, DTYPE_FP8E5);
    int i8 = cast(b, irb_bin(b, IR_SUB, x, irb_const(b, DTYPE_INT32, 5)), DTYPE_INT8);
    int u64 = cast(b, x, DTYPE_UINT64);
    int small = irb_cmp(b, IR_LT, x, irb_const(b, DTYPE_INT32, 6));
    int m = irb_bin(b, IR_ADD, irb_offs2d(b, 2, 4, 10), pid);
    int d64 = irb_fconst(b, DTYPE_FP64, 2.0 / 3.0);
    const char *p1[] = {"pid ", sl(pid, NULL), " h ", sl(h, NULL), " bf ", sl(bf, NULL),
                        " f8 ", sl(f8, NULL), " i8 ", sl(i8, NULL)};
    irb_emit(b, IR_PRINT, 0, -1, -1, -1, -1, irb_print(b, IR_PRINT_TEXT, p1, 10));
    const char *p2[] = {"u64 ", sl(u64, NULL), " small ", sl(small, NULL), " m\n",
                        sl(m, NULL), " d ", sl(d64, ".3f"), " pid1 ", sl(pid1, ">4")};
    irb_emit(b, IR_PRINT, 0, -1, -1, -1, -1, irb_print(b, IR_PRINT_TEXT, p2, 10));
    irb_at(b, 6, 5, 20);
    const char *p3[] = {"x", sl(i8, NULL), sl(h, NULL)};
    irb_emit(b, IR_PRINT, 0, -1, -1, -1, -1, irb_print(b, IR_PRINT_DEVICE, p3, 3));
    const char *p4[] = {"m: ", sl(m, NULL)};
    irb_emit(b, IR_PRINT, 0, -1, -1, -1, -1, irb_print(b, IR_PRINT_DEVICE, p4, 2));
    const char *p5[] = {"hex", sl(i8, NULL), sl(d64, NULL), sl(u64, NULL)};
    int ph = irb_print(b, IR_PRINT_DEVICE, p5, 4);
    b->prints[ph].hex = true;
    b->prints[ph].pid_cond[0].op = IR_EQ;      /* print_if(pid(0) == 1) */
    b->prints[ph].pid_cond[0].value = 1;
    irb_emit(b, IR_PRINT, 0, -1, -1, -1, -1, ph);
    const char *p6[] = {"here"};
    irb_emit(b, IR_PRINT, 0, -1, -1, -1, -1, irb_print(b, IR_PRINT_DEVICE, p6, 1));
    irb_at(b, 7, 5, 17);
    irb_emit(b, IR_BREAKPOINT, 0, -1, -1, -1, -1, -1);
    const char *p7[] = {""};
    int pb = irb_print(b, IR_PRINT_TEXT, p7, 0);
    b->prints[pb].pid_cond[1].op = IR_GE;      /* breakpoint_if(pid(1) >= 1) */
    b->prints[pb].pid_cond[1].value = 1;
    irb_emit(b, IR_BREAKPOINT, 0, -1, -1, -1, -1, pb);
    irb_emit(b, IR_RETURN, 0, -1, -1, -1, -1, 0);
}

static void test_values(void)
{
    irb b;
    build_values(&b);
    compare(&b, 3, 2, NULL, true, NULL, "values, breakpoints reported");
    compare(&b, 3, 2, NULL, false, NULL, "values, --no-break");
    compare(&b, 1, 1, NULL, true, NULL, "values, one program");
}

/* x = arange(4) + pid * 4; print; tl.device_assert(x < limit, f"x={x} limit
 * {limit}") (or a rule's check, sub IR_ASSERT_RULE, "HEAD" then the tail);
 * then another print. */
static void build_assert(irb *b, int sub, bool values, int limit)
{
    irb_init(b, "asserts");
    irb_at(b, 5, 5, 30);
    int pid = irb_pid(b, 0);
    int x = irb_bin(b, IR_ADD, irb_arange(b, 4), irb_bin(b, IR_MUL, pid,
                                                          irb_const(b, DTYPE_INT32, 4)));
    const char *p1[] = {"before ", sl(x, NULL)};
    irb_emit(b, IR_PRINT, 0, -1, -1, -1, -1, irb_print(b, IR_PRINT_TEXT, p1, 2));
    int lim = irb_const(b, DTYPE_INT32, limit);
    int ok = irb_cmp(b, IR_LT, x, lim);
    irb_at(b, 8, 5, 40);
    int pr;
    if (sub == IR_ASSERT_RULE) {
        const char *pm[] = {"tensor descriptor check failed", "offset ", sl(lim, NULL),
                            " for ", sl(x, NULL)};
        pr = irb_print(b, IR_PRINT_TEXT, pm, values ? 5 : 2);
    } else {
        const char *pm[] = {"x=", sl(x, NULL), " limit ", sl(lim, "03d")};
        pr = irb_print(b, IR_PRINT_TEXT, pm, values ? 4 : 1);
    }
    irb_emit(b, IR_ASSERT, sub, -1, ok, -1, -1, pr);
    irb_at(b, 9, 5, 30);
    const char *p2[] = {"after ", sl(pid, NULL)};
    irb_emit(b, IR_PRINT, 0, -1, -1, -1, -1, irb_print(b, IR_PRINT_TEXT, p2, 2));
    irb_emit(b, IR_RETURN, 0, -1, -1, -1, -1, 0);
}

static void test_asserts(void)
{
    irb b;
    /* programs 0..2 pass; program 3 fails at lane 2 (x = 14); 4.. fail too */
    build_assert(&b, IR_ASSERT_DEVICE, true, 14);
    compare(&b, 6, 1, NULL, true, "lane 2", "device_assert with values in its message");
    build_assert(&b, IR_ASSERT_DEVICE, false, 14);
    compare(&b, 6, 1, NULL, true, "lane 2", "device_assert with a plain message");
    build_assert(&b, IR_ASSERT_RULE, true, 14);
    compare(&b, 6, 1, NULL, true, "lane 2", "a rule's check with values");
    build_assert(&b, IR_ASSERT_RULE, false, 14);
    compare(&b, 6, 1, NULL, true, "lane 2", "a rule's check without values");
    build_assert(&b, IR_ASSERT_DEVICE, true, 100);
    compare(&b, 6, 1, NULL, true, "lane 0", "assertions that hold");

    /* the record of the message's values lost with the buffer: "?" and a
     * note */
    build_assert(&b, IR_ASSERT_DEVICE, true, 2);
    static unsigned char buf[4096];
    device dv = {.buf = buf, .cap = sizeof buf};
    device_run(&b, 1, 1, NULL, &dv);
    dv.cap = 8;     /* only the first record's size fits */
    gpu_text g = gpu_out(&b, &dv, 1, 1, true, "lane 2");
    TAP_STR_EQ(g.f.msg, "device assertion failed in program (0, 0, 0), lane 2: x=? limit ?",
               "a lost message record: the values print as ?");
    TAP_OK(strstr(g.f.note, "TRITSIM_PRINT_BUFFER") != NULL, "and a note says why");
    TAP_STR_EQ(g.out, "", "the print before it was lost too");
    TAP_OK(strstr(g.err, "warning: the GPU's print buffer of 8 bytes was too small") != NULL,
           "a warning says output was lost");
    gpu_free(&g);
}

/* A print whose format spec does not apply fails the program on the CPU;
 * cgen_out fails it at the same record. */
static void test_format_failure(void)
{
    irb b;
    irb_init(&b, "badspec");
    irb_at(&b, 5, 5, 30);
    int pid = irb_pid(&b, 0);
    int x = irb_bin(&b, IR_ADD, irb_arange(&b, 4), pid);
    const char *p1[] = {"ok ", sl(pid, NULL)};
    irb_emit(&b, IR_PRINT, 0, -1, -1, -1, -1, irb_print(&b, IR_PRINT_TEXT, p1, 2));
    irb_at(&b, 6, 5, 30);
    const char *p2[] = {"tile ", sl(x, ">4")};
    int pt = irb_print(&b, IR_PRINT_TEXT, p2, 2);
    b.prints[pt].pid_cond[0].op = IR_GE;
    b.prints[pt].pid_cond[0].value = 2;
    irb_emit(&b, IR_PRINT, 0, -1, -1, -1, -1, pt);
    compare(&b, 5, 1, NULL, true, NULL, "a format spec on a tile");

    irb_init(&b, "badspec2");
    irb_at(&b, 5, 5, 30);
    pid = irb_pid(&b, 0);
    const char *p3[] = {"ok ", sl(pid, NULL)};
    irb_emit(&b, IR_PRINT, 0, -1, -1, -1, -1, irb_print(&b, IR_PRINT_TEXT, p3, 2));
    irb_at(&b, 6, 5, 30);
    const char *p4[] = {"pid ", sl(pid, "q")};
    int pq = irb_print(&b, IR_PRINT_TEXT, p4, 2);
    b.prints[pq].pid_cond[0].op = IR_EQ;
    b.prints[pq].pid_cond[0].value = 1;
    irb_emit(&b, IR_PRINT, 0, -1, -1, -1, -1, pq);
    compare(&b, 3, 1, NULL, true, NULL, "an unknown format code");
}

/* A device failure (an out-of-bounds load): the output up to and with the
 * failing program's, the failure left to the caller's words. */
static void test_device_failure(void)
{
    irb b;
    irb_init(&b, "oob");
    int px = irb_param(&b, "x_ptr", dtype_ptr_to(DTYPE_FP32));
    irb_at(&b, 4, 5, 60);
    int pid = irb_pid(&b, 0);
    int offs = irb_bin(&b, IR_ADD, irb_bin(&b, IR_MUL, pid, irb_const(&b, DTYPE_INT32, 4)),
                       irb_arange(&b, 4));
    const char *p1[] = {"pid ", sl(pid, NULL)};
    irb_emit(&b, IR_PRINT, 0, -1, -1, -1, -1, irb_print(&b, IR_PRINT_TEXT, p1, 2));
    int x = irb_load(&b, irb_ptr_add(&b, irb_arg(&b, px), offs), -1, -1);
    const char *p2[] = {"x ", sl(x, NULL)};
    irb_emit(&b, IR_PRINT, 0, -1, -1, -1, -1, irb_print(&b, IR_PRINT_TEXT, p2, 2));
    irb_emit(&b, IR_RETURN, 0, -1, -1, -1, -1, 0);
    float xs[10] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    exec_arg args[] = {{.value.u = (uint64_t)(uintptr_t)xs, .numel = 10, .name = "x_ptr"}};
    compare(&b, 5, 1, args, true, NULL, "an out-of-bounds load in program 2");

    static unsigned char buf[4096];
    device dv = {.buf = buf, .cap = sizeof buf};
    device_run(&b, 5, 1, args, &dv);
    gpu_text g = gpu_out(&b, &dv, 5, 1, true, NULL);
    TAP_OK(g.f.failed && !g.f.words && g.f.pid[0] == 2 && g.f.pc == dv.err.pc,
           "the failure is the runtime block's, for the caller to word");
    gpu_free(&g);
}

/* The first whole line of text at or after `from` that is line[0, len),
 * and the text after it; NULL when none. */
static const char *find_line(const char *from, const char *line, size_t len)
{
    for (const char *p = from; p && *p;) {
        if (strncmp(p, line, len) == 0)
            return p + len;
        p = strchr(p, '\n');
        p = p ? p + 1 : NULL;
    }
    return NULL;
}

/* Records that do not fit: what fit is written, in order, and a warning
 * says how to get the rest. */
static void test_overflow(void)
{
    irb b;
    build_values(&b);
    static unsigned char buf[1 << 16];
    device dv = {.buf = buf, .cap = sizeof buf};
    device_run(&b, 3, 2, NULL, &dv);
    uint64_t used = dv.used;
    text c = cpu_run(&b, 3, 2, NULL, true);
    bool all_ok = true, warned = true, subset = true;
    for (uint64_t cap = 0; cap < used; cap += used / 37 + 1) {
        dv.cap = cap;
        device_run(&b, 3, 2, NULL, &dv);
        gpu_text g = gpu_out(&b, &dv, 3, 2, true, NULL);
        all_ok &= g.ok && !g.f.failed;
        warned &= strstr(g.err, "TRITSIM_PRINT_BUFFER") != NULL;
        /* every line written is one of the CPU's, in the CPU's order */
        const char *at = c.out;
        for (const char *line = g.out; *line && subset;) {
            size_t len = strcspn(line, "\n") + (line[strcspn(line, "\n")] == '\n');
            at = find_line(at, line, len);
            subset &= at != NULL;
            line += len;
        }
        gpu_free(&g);
    }
    TAP_OK(all_ok, "records cut off at any buffer size read back without errors");
    TAP_OK(warned, "each time a warning names TRITSIM_PRINT_BUFFER");
    TAP_OK(subset, "and the lines written are the CPU's, in its order");
    dv.cap = used;
    device_run(&b, 3, 2, NULL, &dv);
    gpu_text g = gpu_out(&b, &dv, 3, 2, true, NULL);
    TAP_STR_EQ(g.out, c.out, "a buffer of exactly the bytes used holds everything");
    TAP_STR_EQ(g.err, "", "and warns of nothing");
    gpu_free(&g);
    text_free(&c);
}

/* Records the kernel does not write are an internal error, not a crash. */
static void test_malformed(void)
{
    irb b;
    build_values(&b);
    static unsigned char buf[1 << 16];
    device dv = {.buf = buf, .cap = sizeof buf};
    device_run(&b, 2, 1, NULL, &dv);
    put32(buf + 4, 0);     /* the first record claims instruction 0, a PROGRAM_ID */
    gpu_text g = gpu_out(&b, &dv, 2, 1, true, NULL);
    TAP_OK(!g.ok && strstr(g.err, "internal error: the GPU's print records") != NULL,
           "a record of an instruction that does not print: an internal error");
    gpu_free(&g);
    device_run(&b, 2, 1, NULL, &dv);
    put32(buf + 8, 7);     /* program (7, 0, 0) of a grid of 2 */
    g = gpu_out(&b, &dv, 2, 1, true, NULL);
    TAP_OK(!g.ok && strstr(g.err, "outside the grid") != NULL,
           "a record of a program outside the grid: an internal error");
    gpu_free(&g);
}

static void test_buffer_size(void)
{
    char *e;
    size_t el;
    FILE *err = open_memstream(&e, &el);
    diag_sink d;
    diag_sink_init(&d, err);
    d.color = false;
    unsetenv("TRITSIM_PRINT_BUFFER");
    TAP_OK(cgen_out_buffer_bytes(&d, file) == CGEN_OUT_BUFFER_DEFAULT, "the default size");
    setenv("TRITSIM_PRINT_BUFFER", "1000", 1);
    TAP_OK(cgen_out_buffer_bytes(&d, file) == 1000, "TRITSIM_PRINT_BUFFER=1000");
    setenv("TRITSIM_PRINT_BUFFER", "64M", 1);
    TAP_OK(cgen_out_buffer_bytes(&d, file) == (uint64_t)64 << 20, "TRITSIM_PRINT_BUFFER=64M");
    setenv("TRITSIM_PRINT_BUFFER", "2G", 1);
    TAP_OK(cgen_out_buffer_bytes(&d, file) == (uint64_t)2 << 30, "TRITSIM_PRINT_BUFFER=2G");
    setenv("TRITSIM_PRINT_BUFFER", "lots", 1);
    TAP_OK(cgen_out_buffer_bytes(&d, file) == CGEN_OUT_BUFFER_DEFAULT, "a bad size: the default");
    unsetenv("TRITSIM_PRINT_BUFFER");
    fclose(err);
    TAP_OK(strstr(e, "warning: TRITSIM_PRINT_BUFFER=lots is not a size in bytes") != NULL,
           "and a warning");
    free(e);
}

int main(void)
{
    file = src_from_string("k.tk", SOURCE, strlen(SOURCE));
    thepool = pool_create(2);
    test_values();
    test_asserts();
    test_format_failure();
    test_device_failure();
    test_overflow();
    test_malformed();
    test_buffer_size();
    pool_destroy(thepool);
    src_free(file);
    return tap_done();
}
