/* test_exec.c - unit tests of the CPU executor (exec.h) and the IR listing
 * (ir.h), on kernels built by hand with irbuild.h.
 *
 * Each test runs a launch and checks what a user would see: the tensors
 * after it, the text the programs printed, and the exact error message.
 * Expected values are worked out by hand in the comments (Triton's rules:
 * C-style integer division, wrapping integers, fp16 rounded to nearest
 * even). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec.h"
#include "ir.h"
#include "irbuild.h"
#include "pool.h"
#include "tap.h"

/* ---- running a launch ------------------------------------------------ */

static const char *SOURCE =
    "@triton.jit\n"
    "def kernel(x_ptr, z_ptr, n, BLOCK: tl.constexpr):\n"
    "    pid = tl.program_id(0)\n"
    "    offs = pid * BLOCK + tl.arange(0, BLOCK)\n"
    "    mask = offs < n\n"
    "    x = tl.load(x_ptr + offs, mask=mask)\n"
    "    tl.store(z_ptr + offs, x, mask=mask)\n"
    "    tl.device_assert(x > 0, \"x must be positive\")\n";

typedef struct result {
    bool ok;
    char *out, *err;     /* what the programs printed; the diagnostics */
} result;

static result run(irb *b, int threads, int64_t g0, int64_t g1, const exec_arg *args)
{
    static src_file *file;
    if (!file)
        file = src_from_string("k.tk", SOURCE, strlen(SOURCE));
    result r = {0};
    size_t olen, elen;
    FILE *out = open_memstream(&r.out, &olen);
    FILE *err = open_memstream(&r.err, &elen);
    diag_sink d;
    diag_sink_init(&d, err);
    d.color = false;
    pool *p = pool_create(threads);
    exec_launch L = {
        .kernel = &b->k, .file = file, .grid = {g0, g1, 1}, .args = args,
        .pool = p, .out = out, .diag = &d,
    };
    r.ok = exec_run(&L);
    pool_destroy(p);
    fclose(out);
    fclose(err);
    return r;
}

static void result_free(result *r)
{
    free(r->out);
    free(r->err);
}

static exec_arg ptr_arg(const char *name, const void *p, size_t numel)
{
    return (exec_arg){.value.u = (uint64_t)(uintptr_t)p, .numel = numel, .name = name};
}

static exec_arg int_arg(int64_t v)
{
    return (exec_arg){.value.i = v};
}

/* ---- copy with a mask (the lecture's first kernel) -------------------- */

/* z[offs] = x[offs], offs = pid * block + arange(block); masked by
 * offs < n when masked; the store goes to offs - store_shift. */
static void build_copy(irb *b, int block, bool masked, int store_shift)
{
    irb_init(b, "copy_kernel");
    int px = irb_param(b, "x_ptr", dtype_ptr_to(DTYPE_FP32));
    int pz = irb_param(b, "z_ptr", dtype_ptr_to(DTYPE_FP32));
    int pn = irb_param(b, "n", DTYPE_INT32);
    irb_at(b, 3, 11, 27);
    int pid = irb_pid(b, 0);
    irb_at(b, 4, 12, 45);
    int base = irb_bin(b, IR_MUL, pid, irb_const(b, DTYPE_INT32, block));
    int offs = irb_bin(b, IR_ADD, base, irb_arange(b, block));
    irb_at(b, 5, 12, 20);
    int mask = irb_cmp(b, IR_LT, offs, irb_arg(b, pn));
    irb_at(b, 6, 9, 41);
    int xp = irb_ptr_add(b, irb_arg(b, px), offs);
    int x = irb_load(b, xp, masked ? mask : -1, -1);
    irb_at(b, 7, 5, 41);
    int zoffs = store_shift ? irb_bin(b, IR_SUB, offs, irb_const(b, DTYPE_INT32, store_shift))
                            : offs;
    int zp = irb_ptr_add(b, irb_arg(b, pz), zoffs);
    irb_store(b, zp, x, masked ? mask : -1);
    irb_emit(b, IR_RETURN, 0, -1, -1, -1, -1, 0);
}

static void test_copy_masked(void)
{
    for (int block = 2; block <= 4; block += 2)
        for (int threads = 1; threads <= 4; threads += 3) {
            irb b;
            build_copy(&b, block, true, 0);
            /* x holds exactly 6 elements, so ASan catches any read of a
             * masked lane; z has two sentinels past the tensor's end. */
            float *x = malloc(6 * sizeof *x);
            float z[8];
            for (int i = 0; i < 6; i++)
                x[i] = (float)(i + 1) * 1.5f;
            for (int i = 0; i < 8; i++)
                z[i] = -99.0f;
            exec_arg args[] = {ptr_arg("x_ptr", x, 6), ptr_arg("z_ptr", z, 6), int_arg(6)};
            result r = run(&b, threads, (6 + block - 1) / block, 1, args);
            bool same = true;
            for (int i = 0; i < 6; i++)
                same &= z[i] == x[i];
            TAP_OK(r.ok && same, "masked copy of 6 elements, BLOCK %d, %d threads", block,
                   threads);
            TAP_OK(z[6] == -99.0f && z[7] == -99.0f,
                   "masked lanes leave memory alone (BLOCK %d, %d threads)", block, threads);
            TAP_STR_EQ(r.err, "", "no diagnostics from a correct copy");
            result_free(&r);
            free(x);
        }
}

static const char *OOB_LOAD =
    "k.tk:6:9: error: out-of-bounds load from 'x_ptr' in program (3, 0, 0): lane 0 "
    "reads element 6 of a 6-element tensor\n"
    "    x = tl.load(x_ptr + offs, mask=mask)\n"
    "        ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~\n"
    "k.tk:6:9: note: mask the lanes past the end: tl.load(ptr + offs, mask=offs < n)\n"
    "    x = tl.load(x_ptr + offs, mask=mask)\n"
    "        ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~\n";

static void test_oob_load(void)
{
    /* Eight programs of 2 over 6 elements, no mask: programs 3..7 fail;
     * the lowest, 3, is reported whatever the thread count. */
    for (int threads = 1; threads <= 4; threads += 3) {
        irb b;
        build_copy(&b, 2, false, 0);
        float x[6] = {1, 2, 3, 4, 5, 6}, z[6] = {0};
        exec_arg args[] = {ptr_arg("x_ptr", x, 6), ptr_arg("z_ptr", z, 6), int_arg(6)};
        result r = run(&b, threads, 8, 1, args);
        TAP_OK(!r.ok, "an unmasked load past the end fails (%d threads)", threads);
        TAP_STR_EQ(r.err, OOB_LOAD, "the lowest failing program is reported (%d threads)",
                   threads);
        TAP_OK(z[5] == 6.0f, "programs before the failing one ran (%d threads)", threads);
        result_free(&r);
    }
}

static void test_oob_store(void)
{
    irb b;
    build_copy(&b, 4, true, 1);
    float x[6] = {1, 2, 3, 4, 5, 6}, z[6] = {0};
    exec_arg args[] = {ptr_arg("x_ptr", x, 6), ptr_arg("z_ptr", z, 6), int_arg(6)};
    result r = run(&b, 2, 2, 1, args);
    TAP_OK(!r.ok, "a store before the start fails");
    TAP_STR_EQ(r.err,
               "k.tk:7:5: error: out-of-bounds store to 'z_ptr' in program (0, 0, 0): "
               "lane 0 writes element -1 of a 6-element tensor\n"
               "    tl.store(z_ptr + offs, x, mask=mask)\n"
               "    ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~\n"
               "k.tk:7:5: note: the offset is negative here; check how the offsets are "
               "computed from the program id\n"
               "    tl.store(z_ptr + offs, x, mask=mask)\n"
               "    ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~\n",
               "the store error names the lane, the element and the tensor");
    /* program 0's lanes 1..3 would write z[0..2]: the store checks first */
    TAP_OK(z[0] == 0.0f && z[1] == 0.0f && z[2] == 0.0f,
           "a failing store writes none of its lanes");
    result_free(&r);
}

/* A pointer whose tensor is not known statically (ptr_arg -1) is checked
 * against every tensor argument. */
static void test_dynamic_pointer(void)
{
    for (int inside = 0; inside <= 1; inside++) {
        irb b;
        irb_init(&b, "dyn");
        int px = irb_param(&b, "x_ptr", dtype_ptr_to(DTYPE_INT32));
        int pz = irb_param(&b, "z_ptr", dtype_ptr_to(DTYPE_INT32));
        irb_at(&b, 6, 9, 41);
        int xs = irb_arg(&b, px);
        b.slots[xs].ptr_arg = -1;
        /* x_ptr + 4 + arange(4): inside z when z follows x in memory */
        int p = irb_ptr_add(&b, irb_ptr_add(&b, xs, irb_const(&b, DTYPE_INT32, 4)),
                            irb_arange(&b, 4));
        int v = irb_load(&b, p, -1, -1);
        irb_store(&b, irb_ptr_add(&b, irb_arg(&b, pz), irb_arange(&b, 4)), v, -1);
        int32_t mem[8] = {0, 1, 2, 3, 4, 5, 6, 7}, out[4] = {0};
        exec_arg args[] = {ptr_arg("x_ptr", mem, 4),
                           inside ? ptr_arg("z_ptr", mem + 4, 4) : ptr_arg("z_ptr", out, 4)};
        result r = run(&b, 1, 1, 1, args);
        if (inside) {
            TAP_OK(r.ok && mem[4] == 4 && mem[7] == 7,
                   "a dynamic pointer into any tensor argument is accepted");
        } else {
            TAP_OK(!r.ok, "a dynamic pointer outside every tensor fails");
            TAP_OK(strstr(r.err, "error: out-of-bounds load in program (0, 0, 0): lane 0 "
                          "reads an address outside every tensor argument\n") != NULL,
                   "the message says no tensor holds the address");
        }
        result_free(&r);
    }
}

/* ---- 2-d broadcast ---------------------------------------------------- */

/* out[i, j] = x[i] + y[j] over [4, 8], through reshape + broadcast. */
static void build_outer_add(irb *b)
{
    irb_init(b, "outer_add");
    int px = irb_param(b, "x_ptr", dtype_ptr_to(DTYPE_FP32));
    int py = irb_param(b, "y_ptr", dtype_ptr_to(DTYPE_FP32));
    int po = irb_param(b, "out_ptr", dtype_ptr_to(DTYPE_FP32));
    irb_at(b, 7, 5, 41);
    int xv = irb_load(b, irb_ptr_add(b, irb_arg(b, px), irb_arange(b, 4)), -1, -1);
    int yv = irb_load(b, irb_ptr_add(b, irb_arg(b, py), irb_arange(b, 8)), -1, -1);
    int xb = irb_shape2(b, IR_BROADCAST, irb_shape2(b, IR_RESHAPE, xv, 4, 1), 4, 8);
    int yb = irb_shape2(b, IR_BROADCAST, irb_shape2(b, IR_RESHAPE, yv, 1, 8), 4, 8);
    int sum = irb_bin(b, IR_ADD, xb, yb);
    irb_store(b, irb_ptr_add(b, irb_arg(b, po), irb_offs2d(b, 4, 8, 8)), sum, -1);
}

static void test_broadcast_2d(void)
{
    irb b;
    build_outer_add(&b);
    float x[4] = {0, 10, 20, 30}, y[8] = {1, 2, 3, 4, 5, 6, 7, 8}, out[32] = {0};
    exec_arg args[] = {ptr_arg("x_ptr", x, 4), ptr_arg("y_ptr", y, 8),
                       ptr_arg("out_ptr", out, 32)};
    result r = run(&b, 1, 1, 1, args);
    bool same = true;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 8; j++)
            same &= out[i * 8 + j] == x[i] + y[j];
    TAP_OK(r.ok && same, "x[:, None] + y[None, :] broadcasts to [4, 8]");
    result_free(&r);

    /* The same kernel with a 30-element output: lane (3, 6) is the first
     * out of bounds, named by row and column. */
    build_outer_add(&b);
    args[2] = ptr_arg("out_ptr", out, 30);
    r = run(&b, 1, 1, 1, args);
    TAP_OK(!r.ok && strstr(r.err, "in program (0, 0, 0): lane (3, 6) writes element 30 of "
                           "a 30-element tensor\n") != NULL,
           "a 2-d lane is named (row, col)");
    result_free(&r);
}

/* ---- elementwise semantics ------------------------------------------- */

/* out[i] = a[i] op b[i] (a CMP when cmp) for n lanes of type t. */
static bool run_binop(dtype t, int op, bool cmp, const void *a, const void *bv, void *out,
                      int n)
{
    irb b;
    irb_init(&b, "binop");
    int pa = irb_param(&b, "a_ptr", dtype_ptr_to(t));
    int pb = irb_param(&b, "b_ptr", dtype_ptr_to(t));
    int po = irb_param(&b, "out_ptr", dtype_ptr_to(cmp ? DTYPE_INT1 : t));
    irb_at(&b, 7, 5, 41);
    int offs = irb_arange(&b, n);
    int x = irb_load(&b, irb_ptr_add(&b, irb_arg(&b, pa), offs), -1, -1);
    int y = irb_load(&b, irb_ptr_add(&b, irb_arg(&b, pb), offs), -1, -1);
    int r = cmp ? irb_cmp(&b, (ir_cmp)op, x, y) : irb_bin(&b, (ir_binop)op, x, y);
    irb_store(&b, irb_ptr_add(&b, irb_arg(&b, po), offs), r, -1);
    exec_arg args[] = {ptr_arg("a_ptr", a, (size_t)n), ptr_arg("b_ptr", bv, (size_t)n),
                       ptr_arg("out_ptr", out, (size_t)n)};
    result res = run(&b, 1, 1, 1, args);
    bool ok = res.ok;
    result_free(&res);
    return ok;
}

static void test_int_wrap(void)
{
    int32_t a[4] = {INT32_MAX, INT32_MIN, 65536, -7}, b[4] = {1, -1, 65536, 3}, o[4];
    run_binop(DTYPE_INT32, IR_ADD, false, a, b, o, 4);
    TAP_OK(o[0] == INT32_MIN && o[3] == -4,
           "int32 add wraps: INT32_MAX + 1 == INT32_MIN");
    TAP_INT_EQ(o[1], INT32_MAX, "int32 add wraps: INT32_MIN + -1 == INT32_MAX");
    run_binop(DTYPE_INT32, IR_MUL, false, a, b, o, 4);
    TAP_INT_EQ(o[2], 0, "int32 mul wraps: 65536 * 65536 == 0");
    TAP_INT_EQ(o[0], INT32_MAX, "int32 mul: INT32_MAX * 1");
    run_binop(DTYPE_INT32, IR_SUB, false, a, b, o, 4);
    TAP_INT_EQ(o[1], INT32_MIN + 1, "int32 sub: INT32_MIN - -1");

    uint16_t ua[2] = {65535, 3}, ub[2] = {65535, 65535}, uo[2];
    run_binop(DTYPE_UINT16, IR_MUL, false, ua, ub, uo, 2);
    TAP_INT_EQ(uo[0], 1, "uint16 mul wraps: 65535 * 65535 == 1 (mod 2^16)");
    int8_t ca[2] = {127, -128}, cb[2] = {1, -1}, co[2];
    run_binop(DTYPE_INT8, IR_ADD, false, ca, cb, co, 2);
    TAP_OK(co[0] == -128 && co[1] == 127, "int8 add wraps both ways");

    int32_t sa[4] = {1, -8, 1, -1}, sb[4] = {31, 1, 32, 40}, so[4];
    run_binop(DTYPE_INT32, IR_SHL, false, sa, sb, so, 4);
    TAP_OK(so[0] == INT32_MIN && so[1] == -16 && so[2] == 0 && so[3] == 0,
           "shl: 1 << 31 wraps, shifts >= 32 give 0");
    run_binop(DTYPE_INT32, IR_SHR, false, sa, sb, so, 4);
    TAP_OK(so[0] == 0 && so[1] == -4 && so[2] == 0 && so[3] == -1,
           "shr on int32 is arithmetic; >= 32 gives the sign fill");
}

static void test_int8_divmod(void)
{
    /* Triton // and % on ints are C's: truncate, remainder takes the
     * dividend's sign; INT8_MIN // -1 wraps; x // 0 and x % 0 give 0. */
    int8_t a[8] = {-7, 7, -7, 7, -128, 5, 0, 100};
    int8_t b[8] = {2, -2, -2, 2, -1, 0, 3, 7};
    int8_t q[8], m[8];
    int8_t wq[8] = {-3, -3, 3, 3, -128, 0, 0, 14};
    int8_t wm[8] = {-1, 1, -1, 1, 0, 0, 0, 2};
    run_binop(DTYPE_INT8, IR_FLOORDIV, false, a, b, q, 8);
    run_binop(DTYPE_INT8, IR_MOD, false, a, b, m, 8);
    TAP_OK(memcmp(q, wq, 8) == 0, "int8 // truncates toward zero: -7 // 2 == -3");
    TAP_OK(memcmp(m, wm, 8) == 0, "int8 %% has the dividend's sign: -7 %% 2 == -1");
    uint8_t ua[2] = {250, 7}, ub[2] = {7, 0}, uq[2];
    run_binop(DTYPE_UINT8, IR_FLOORDIV, false, ua, ub, uq, 2);
    TAP_OK(uq[0] == 35 && uq[1] == 0, "uint8 // is unsigned; division by zero gives 0");
}

static uint16_t h(double v) { return dtype_f64_to_f16(v); }

static void test_fp16_rounding(void)
{
    /* 1 + 2^-11 is halfway between 1 and 1 + 2^-10: ties to even gives 1;
     * 1 + 1.5 * 2^-11 rounds up to 1 + 2^-10 (0x3c01); 65504 + 16 is a
     * tie that rounds to the even 65536, i.e. infinity; (1 + 2^-10)^2 =
     * 1 + 2^-9 + 2^-20 rounds to 1 + 2^-9. */
    uint16_t a[4] = {0x3c00, 0x3c00, 0x7bff, 0x3c01};
    uint16_t b[4] = {h(ldexp(1, -11)), h(1.5 * ldexp(1, -11)), h(16), 0x3c01};
    uint16_t o[4];
    run_binop(DTYPE_FP16, IR_ADD, false, a, b, o, 4);
    TAP_INT_EQ(o[0], 0x3c00, "fp16 1 + 2^-11 ties to even (1.0)");
    TAP_INT_EQ(o[1], 0x3c01, "fp16 1 + 1.5*2^-11 rounds up to 0x3c01");
    TAP_INT_EQ(o[2], 0x7c00, "fp16 65504 + 16 overflows to inf");
    run_binop(DTYPE_FP16, IR_MUL, false, a, b, o, 4);
    TAP_INT_EQ(o[3], 0x3c02, "fp16 (1 + 2^-10)^2 rounds to 1 + 2^-9");
    /* bf16: 1 + 2^-8 is a tie (7 mantissa bits): even gives 1. */
    uint16_t ba[1] = {0x3f80}, bb[1] = {dtype_f64_to_bf16(ldexp(1, -8))}, bo[1];
    run_binop(DTYPE_BF16, IR_ADD, false, ba, bb, bo, 1);
    TAP_INT_EQ(bo[0], 0x3f80, "bf16 1 + 2^-8 ties to even (1.0)");
}

static void test_float_compare_minmax(void)
{
    float a[4] = {1, NAN, 2, -0.0f}, b[4] = {NAN, 3, 2, 0.0f}, o[4];
    uint8_t c[4];
    run_binop(DTYPE_FP32, IR_MIN, false, a, b, o, 4);
    TAP_OK(o[0] == 1 && o[1] == 3 && o[2] == 2, "minimum returns the non-NaN operand");
    run_binop(DTYPE_FP32, IR_MAX_NAN, false, a, b, o, 4);
    TAP_OK(isnan(o[0]) && isnan(o[1]) && o[3] == 0 && !signbit(o[3]),
           "maximum(propagate_nan=ALL) propagates NaN; max(-0, +0) is +0");
    run_binop(DTYPE_FP32, IR_NE, true, a, b, c, 4);
    TAP_OK(c[0] == 1 && c[1] == 1 && c[2] == 0 && c[3] == 0, "!= is true for NaN");
    run_binop(DTYPE_FP32, IR_LT, true, a, b, c, 4);
    TAP_OK(c[0] == 0 && c[1] == 0 && c[2] == 0 && c[3] == 0, "< is false for NaN");
}

/* out = cast(in) for 4 lanes. */
static bool run_cast(dtype from, dtype to, const void *in, void *out, int n)
{
    irb b;
    irb_init(&b, "cast");
    int pi = irb_param(&b, "in_ptr", dtype_ptr_to(from));
    int po = irb_param(&b, "out_ptr", dtype_ptr_to(to));
    irb_at(&b, 7, 5, 41);
    int offs = irb_arange(&b, n);
    int x = irb_load(&b, irb_ptr_add(&b, irb_arg(&b, pi), offs), -1, -1);
    int y = irb_like(&b, x, to);
    irb_emit(&b, IR_CAST, 0, y, x, -1, -1, 0);
    irb_store(&b, irb_ptr_add(&b, irb_arg(&b, po), offs), y, -1);
    exec_arg args[] = {ptr_arg("in_ptr", in, (size_t)n), ptr_arg("out_ptr", out, (size_t)n)};
    result r = run(&b, 1, 1, 1, args);
    bool ok = r.ok;
    result_free(&r);
    return ok;
}

static void test_casts(void)
{
    float f[4] = {3.9f, -3.9f, 3e9f, NAN};
    int32_t i[4];
    run_cast(DTYPE_FP32, DTYPE_INT32, f, i, 4);
    TAP_OK(i[0] == 3 && i[1] == -3 && i[2] == INT32_MAX && i[3] == 0,
           "fp32 -> int32 truncates, saturates, NaN -> 0");
    int32_t big[4] = {2049, 2051, -1, 65520};
    uint16_t hf[4];
    run_cast(DTYPE_INT32, DTYPE_FP16, big, hf, 4);
    TAP_OK(hf[0] == h(2048) && hf[1] == h(2052) && hf[2] == h(-1) && hf[3] == 0x7c00,
           "int32 -> fp16 rounds once to nearest even (65520 -> inf)");
    int64_t w[4] = {-1, 4294967296LL + 5, INT64_MIN, 127};
    int8_t n8[4];
    run_cast(DTYPE_INT64, DTYPE_INT8, w, n8, 4);
    TAP_OK(n8[0] == -1 && n8[1] == 5 && n8[2] == 0 && n8[3] == 127, "int64 -> int8 wraps");
    uint8_t u8[4] = {0, 1, 200, 255};
    int32_t wide[4];
    run_cast(DTYPE_UINT8, DTYPE_INT32, u8, wide, 4);
    TAP_OK(wide[2] == 200 && wide[3] == 255, "uint8 -> int32 zero-extends");
    uint8_t bools[4];
    float g[4] = {0.0f, -0.0f, 0.5f, NAN};
    run_cast(DTYPE_FP32, DTYPE_INT1, g, bools, 4);
    TAP_OK(bools[0] == 0 && bools[1] == 0 && bools[2] == 1 && bools[3] == 1,
           "float -> int1 is != 0 (NaN is true)");
}

/* ---- dot ----------------------------------------------------------------- */

/* out[16, 16] = a[16, 16] @ b[16, 16] (+ acc when with_acc) */
static void build_dot(irb *b, dtype in, dtype out, bool with_acc, ir_precision prec)
{
    irb_init(b, "dot");
    int pa = irb_param(b, "a_ptr", dtype_ptr_to(in));
    int pb = irb_param(b, "b_ptr", dtype_ptr_to(in));
    int po = irb_param(b, "c_ptr", dtype_ptr_to(out));
    irb_at(b, 7, 5, 41);
    int offs = irb_offs2d(b, 16, 16, 16);
    int x = irb_load(b, irb_ptr_add(b, irb_arg(b, pa), offs), -1, -1);
    int y = irb_load(b, irb_ptr_add(b, irb_arg(b, pb), offs), -1, -1);
    int acc = irb_slot(b, out, 2, 16, 16);
    if (with_acc)
        irb_emit(b, IR_CONST, 0, acc, -1, -1, -1, 1), b->code[b->k.ncode - 1].fimm = 1.0;
    irb_emit(b, IR_DOT, 0, acc, x, y, with_acc ? acc : -1, prec);
    /* program p writes its result at c_ptr + 256 * p */
    int base = irb_bin(b, IR_MUL, irb_pid(b, 0), irb_const(b, DTYPE_INT32, 256));
    irb_store(b, irb_ptr_add(b, irb_arg(b, po), irb_bin(b, IR_ADD, offs, base)), acc, -1);
}

static void test_dot(void)
{
    float a[256], bm[256], c[256];
    for (int i = 0; i < 256; i++) {
        a[i] = (float)((i * 7) % 9 - 4);    /* small integers: every sum is exact */
        bm[i] = (float)((i * 5) % 7 - 3);
    }
    for (int acc = 0; acc <= 1; acc++) {
        irb b;
        build_dot(&b, DTYPE_FP32, DTYPE_FP32, acc, IR_PREC_IEEE);
        exec_arg args[] = {ptr_arg("a_ptr", a, 256), ptr_arg("b_ptr", bm, 256),
                           ptr_arg("c_ptr", c, 256)};
        result r = run(&b, 2, 1, 1, args);
        bool same = true;
        for (int m = 0; m < 16; m++)
            for (int n = 0; n < 16; n++) {
                float want = acc ? 1.0f : 0.0f;
                for (int k = 0; k < 16; k++)
                    want += a[m * 16 + k] * bm[k * 16 + n];
                same &= c[m * 16 + n] == want;
            }
        TAP_OK(r.ok && same, "dot 16x16x16 fp32 equals the naive loop%s",
               acc ? " (with accumulator)" : "");
        result_free(&r);
    }

    /* 32 programs on 4 threads call sgemm at once: every result the same */
    {
        irb b;
        build_dot(&b, DTYPE_FP32, DTYPE_FP32, true, IR_PREC_IEEE);
        float *many = malloc(32 * 256 * sizeof *many);
        exec_arg args[] = {ptr_arg("a_ptr", a, 256), ptr_arg("b_ptr", bm, 256),
                           ptr_arg("c_ptr", many, 32 * 256)};
        result r = run(&b, 4, 32, 1, args);
        bool same = true;
        for (int p = 0; p < 32; p++)
            same &= memcmp(many + 256 * p, c, sizeof c) == 0;
        TAP_OK(r.ok && same, "dot from 32 programs on 4 threads");
        result_free(&r);
        free(many);
    }

    /* tf32: 1 + 2^-12 loses its low bit (10-bit mantissa); ieee keeps it. */
    for (int i = 0; i < 256; i++) {
        a[i] = i % 17 == 0 ? 1.0f + ldexpf(1, -12) : 0.0f;   /* identity-ish */
        bm[i] = 1.0f;
    }
    irb b;
    build_dot(&b, DTYPE_FP32, DTYPE_FP32, false, IR_PREC_TF32);
    exec_arg args[] = {ptr_arg("a_ptr", a, 256), ptr_arg("b_ptr", bm, 256),
                       ptr_arg("c_ptr", c, 256)};
    result r = run(&b, 1, 1, 1, args);
    TAP_OK(r.ok && c[0] == 1.0f, "tf32 precision rounds fp32 inputs to 10 mantissa bits");
    result_free(&r);
    build_dot(&b, DTYPE_FP32, DTYPE_FP32, false, IR_PREC_IEEE);
    r = run(&b, 1, 1, 1, args);
    TAP_OK(r.ok && c[0] == 1.0f + ldexpf(1, -12), "ieee precision keeps them");
    result_free(&r);

    /* int8 x int8 -> int32 */
    int8_t ia[256], ib[256];
    int32_t ic[256];
    for (int i = 0; i < 256; i++) {
        ia[i] = (int8_t)((i * 37) % 255 - 127);
        ib[i] = (int8_t)((i * 11) % 251 - 125);
    }
    build_dot(&b, DTYPE_INT8, DTYPE_INT32, false, IR_PREC_IEEE);
    exec_arg iargs[] = {ptr_arg("a_ptr", ia, 256), ptr_arg("b_ptr", ib, 256),
                        ptr_arg("c_ptr", ic, 256)};
    r = run(&b, 1, 1, 1, iargs);
    bool same = true;
    for (int m = 0; m < 16; m++)
        for (int n = 0; n < 16; n++) {
            int32_t want = 0;
            for (int k = 0; k < 16; k++)
                want += ia[m * 16 + k] * ib[k * 16 + n];
            same &= ic[m * 16 + n] == want;
        }
    TAP_OK(r.ok && same, "dot int8 x int8 accumulates in int32");
    result_free(&r);
}

/* ---- reduce and scan ----------------------------------------------------- */

/* From x[4, 8] (int32 or fp32): sums along axis 0 -> o0[8], along axis 1
 * -> o1[4], and of everything -> all[0]; with kind `sub`. */
static bool run_reduce(dtype t, ir_reduce sub, const void *x, void *o0, void *o1, void *all)
{
    dtype rt = sub == IR_RED_ARGMAX || sub == IR_RED_ARGMIN ? DTYPE_INT32 : t;
    irb b;
    irb_init(&b, "reduce");
    int px = irb_param(&b, "x_ptr", dtype_ptr_to(t));
    int p0 = irb_param(&b, "o0_ptr", dtype_ptr_to(rt));
    int p1 = irb_param(&b, "o1_ptr", dtype_ptr_to(rt));
    int pa = irb_param(&b, "all_ptr", dtype_ptr_to(rt));
    irb_at(&b, 7, 5, 41);
    int v = irb_load(&b, irb_ptr_add(&b, irb_arg(&b, px), irb_offs2d(&b, 4, 8, 8)), -1, -1);
    int r0 = irb_slot(&b, rt, 1, 8, 0), r1 = irb_slot(&b, rt, 1, 4, 0);
    int ra = irb_slot(&b, rt, 0, 0, 0);
    irb_emit(&b, IR_REDUCE, sub, r0, v, -1, -1, 0);
    irb_emit(&b, IR_REDUCE, sub, r1, v, -1, -1, 1);
    irb_emit(&b, IR_REDUCE, sub, ra, v, -1, -1, -1);
    irb_store(&b, irb_ptr_add(&b, irb_arg(&b, p0), irb_arange(&b, 8)), r0, -1);
    irb_store(&b, irb_ptr_add(&b, irb_arg(&b, p1), irb_arange(&b, 4)), r1, -1);
    irb_store(&b, irb_arg(&b, pa), ra, -1);
    exec_arg args[] = {ptr_arg("x_ptr", x, 32), ptr_arg("o0_ptr", o0, 8),
                       ptr_arg("o1_ptr", o1, 4), ptr_arg("all_ptr", all, 1)};
    result r = run(&b, 1, 1, 1, args);
    bool ok = r.ok;
    result_free(&r);
    return ok;
}

static void test_reduce(void)
{
    /* x[i][j] = i * 8 + j, with x[2][5] raised to tie the row-2 max and
     * column 5 holding the maximum twice. */
    int32_t x[32], o0[8], o1[4], all[1];
    for (int i = 0; i < 32; i++)
        x[i] = i;
    x[2 * 8 + 5] = 31;          /* ties x[3][7] == 31 overall */
    x[1 * 8 + 3] = 15;          /* ties x[1][7] == 15 in row 1 */
    run_reduce(DTYPE_INT32, IR_RED_SUM, x, o0, o1, all);
    int32_t want_all = 0, want0[8] = {0}, want1[4] = {0};
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 8; j++) {
            want_all += x[i * 8 + j];
            want0[j] += x[i * 8 + j];
            want1[i] += x[i * 8 + j];
        }
    TAP_OK(memcmp(o0, want0, sizeof o0) == 0, "sum along axis 0");
    TAP_OK(memcmp(o1, want1, sizeof o1) == 0, "sum along axis 1");
    TAP_INT_EQ(all[0], want_all, "sum of everything");

    run_reduce(DTYPE_INT32, IR_RED_MAX, x, o0, o1, all);
    TAP_OK(o0[0] == 24 && o0[5] == 31 && o0[7] == 31, "max along axis 0");
    TAP_OK(o1[0] == 7 && o1[1] == 15 && o1[2] == 31 && o1[3] == 31, "max along axis 1");
    TAP_INT_EQ(all[0], 31, "max of everything");

    run_reduce(DTYPE_INT32, IR_RED_ARGMAX, x, o0, o1, all);
    TAP_OK(o0[0] == 3 && o0[5] == 2 && o0[7] == 3, "argmax along axis 0 (first on ties)");
    TAP_OK(o1[0] == 7 && o1[1] == 3 && o1[2] == 5 && o1[3] == 7,
           "argmax along axis 1 takes the first of tied maxima");
    TAP_INT_EQ(all[0], 21, "argmax of everything is the first 31, at flat index 21");

    float f[32], fo0[8], fo1[4], fall[1];
    for (int i = 0; i < 32; i++)
        f[i] = (float)(i % 5) - 2.0f;
    f[8] = NAN;    /* first in row 1, second in column 0 */
    run_reduce(DTYPE_FP32, IR_RED_MAX, f, fo0, fo1, fall);
    TAP_OK(fo0[0] == 2.0f && fo1[1] == 2.0f && fall[0] == 2.0f,
           "float max skips NaN, wherever it comes");
    run_reduce(DTYPE_FP32, IR_RED_SUM, f, fo0, fo1, fall);
    TAP_OK(isnan(fo0[0]) && fo0[1] == f[1] + f[9] + f[17] + f[25],
           "float sum along axis 0 (NaN propagates)");

    /* rows ending in +0.0 (a masked block's lanes): the bits of the
     * sequential sum, -0.0 + +0.0 = +0.0 included, and a row of -0.0 is
     * -0.0 */
    const float rows[4][8] = {{-0.0f, 0, 0, 0, 0, 0, 0, 0},
                              {-0.0f, -0.0f, -0.0f, 0, 0, 0, 0, 0},
                              {1.5f, 1e-8f, 3.25f, -7e7f, 7e7f, 0, 0, 0},
                              {-0.0f, -0.0f, -0.0f, -0.0f, -0.0f, -0.0f, -0.0f, -0.0f}};
    memcpy(f, rows, sizeof f);
    run_reduce(DTYPE_FP32, IR_RED_SUM, f, fo0, fo1, fall);
    bool same = true;
    for (int i = 0; i < 4; i++) {
        float acc = rows[i][0];
        for (int j = 1; j < 8; j++)
            acc += rows[i][j];
        same = same && memcmp(&acc, &fo1[i], sizeof acc) == 0;
    }
    float acc = f[0];
    for (int i = 1; i < 32; i++)
        acc += f[i];
    same = same && memcmp(&acc, &fall[0], sizeof acc) == 0;
    TAP_OK(same && !signbit(fo1[0]) && !signbit(fo1[1]) && signbit(fo1[3]),
           "float sums of rows ending in zeros keep the sequential sum's bits");
}

static void test_scan(void)
{
    irb b;
    irb_init(&b, "cumsum");
    int px = irb_param(&b, "x_ptr", dtype_ptr_to(DTYPE_INT32));
    int po = irb_param(&b, "o_ptr", dtype_ptr_to(DTYPE_INT32));
    irb_at(&b, 7, 5, 41);
    int offs = irb_offs2d(&b, 2, 4, 4);
    int v = irb_load(&b, irb_ptr_add(&b, irb_arg(&b, px), offs), -1, -1);
    int s = irb_like(&b, v, DTYPE_INT32);
    irb_emit(&b, IR_SCAN, IR_RED_SUM, s, v, -1, -1, 1);
    irb_store(&b, irb_ptr_add(&b, irb_arg(&b, po), offs), s, -1);
    int32_t x[8] = {1, 2, 3, 4, 10, 20, 30, 40}, o[8];
    exec_arg args[] = {ptr_arg("x_ptr", x, 8), ptr_arg("o_ptr", o, 8)};
    result r = run(&b, 1, 1, 1, args);
    int32_t want[8] = {1, 3, 6, 10, 10, 30, 60, 100};
    TAP_OK(r.ok && memcmp(o, want, sizeof o) == 0, "cumsum along axis 1 of a [2, 4] tile");
    result_free(&r);
}

static void test_trans_bitcast(void)
{
    /* out[8, 4] = trans(x[4, 8]) */
    irb b;
    irb_init(&b, "trans");
    int px = irb_param(&b, "x_ptr", dtype_ptr_to(DTYPE_INT16));
    int po = irb_param(&b, "o_ptr", dtype_ptr_to(DTYPE_INT16));
    irb_at(&b, 7, 5, 41);
    int v = irb_load(&b, irb_ptr_add(&b, irb_arg(&b, px), irb_offs2d(&b, 4, 8, 8)), -1, -1);
    int t = irb_slot(&b, DTYPE_INT16, 2, 8, 4);
    irb_emit(&b, IR_TRANS, 0, t, v, -1, -1, 1 | 0 << 4);    /* dst axis 0 <- a axis 1 */
    irb_store(&b, irb_ptr_add(&b, irb_arg(&b, po), irb_offs2d(&b, 8, 4, 4)), t, -1);
    int16_t x[32], o[32];
    for (int i = 0; i < 32; i++)
        x[i] = (int16_t)(i * 3 - 40);
    exec_arg args[] = {ptr_arg("x_ptr", x, 32), ptr_arg("o_ptr", o, 32)};
    result r = run(&b, 1, 1, 1, args);
    bool same = true;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 8; j++)
            same &= o[j * 4 + i] == x[i * 8 + j];
    TAP_OK(r.ok && same, "trans of a [4, 8] tile");
    result_free(&r);

    /* fp16 -> int16 bitcast gives the 16-bit pattern; fp16 cumsum rounds
     * every output: 2048 + 1 stays 2048 in fp16, and the running value
     * (kept in fp32) reaches 2050 at the third step; 2049.5 rounds to
     * 2050. */
    irb_init(&b, "bits");
    px = irb_param(&b, "x_ptr", dtype_ptr_to(DTYPE_FP16));
    po = irb_param(&b, "o_ptr", dtype_ptr_to(DTYPE_INT16));
    int pc = irb_param(&b, "c_ptr", dtype_ptr_to(DTYPE_FP16));
    irb_at(&b, 7, 5, 41);
    int offs = irb_arange(&b, 4);
    v = irb_load(&b, irb_ptr_add(&b, irb_arg(&b, px), offs), -1, -1);
    int bits = irb_like(&b, v, DTYPE_INT16);
    irb_emit(&b, IR_BITCAST, 0, bits, v, -1, -1, 0);
    irb_store(&b, irb_ptr_add(&b, irb_arg(&b, po), offs), bits, -1);
    int cs = irb_like(&b, v, DTYPE_FP16);
    irb_emit(&b, IR_SCAN, IR_RED_SUM, cs, v, -1, -1, 0);
    irb_store(&b, irb_ptr_add(&b, irb_arg(&b, pc), offs), cs, -1);
    uint16_t hx[4] = {h(2048), h(1), h(1), h(-0.5)}, hc[4];
    int16_t hb[4];
    exec_arg args2[] = {ptr_arg("x_ptr", hx, 4), ptr_arg("o_ptr", hb, 4),
                        ptr_arg("c_ptr", hc, 4)};
    r = run(&b, 1, 1, 1, args2);
    TAP_OK(r.ok && (uint16_t)hb[0] == 0x6800 && (uint16_t)hb[3] == 0xb800,
           "bitcast fp16 -> int16 gives the bit pattern");
    TAP_OK(hc[1] == h(2048) && hc[2] == h(2050) && hc[3] == h(2050),
           "fp16 cumsum accumulates in fp32 and rounds each output");
    result_free(&r);
}

/* ---- control flow -------------------------------------------------------- */

static void test_loop(void)
{
    /* i = 0; s = 0; while i < 10: s += i; i += 1;  *out = s */
    irb b;
    irb_init(&b, "loop");
    int po = irb_param(&b, "out_ptr", dtype_ptr_to(DTYPE_INT32));
    irb_at(&b, 4, 5, 20);
    int i = irb_const(&b, DTYPE_INT32, 0);
    int s = irb_const(&b, DTYPE_INT32, 0);
    int ten = irb_const(&b, DTYPE_INT32, 10);
    int one = irb_const(&b, DTYPE_INT32, 1);
    int cond = irb_slot(&b, DTYPE_INT1, 0, 0, 0);
    int top = irb_emit(&b, IR_CMP, IR_LT, cond, i, ten, -1, 0);
    int br = irb_emit(&b, IR_BRANCH, 0, -1, cond, -1, -1, 0);
    irb_emit(&b, IR_BINARY, IR_ADD, s, s, i, -1, 0);
    irb_emit(&b, IR_BINARY, IR_ADD, i, i, one, -1, 0);
    irb_emit(&b, IR_JUMP, 0, -1, -1, -1, -1, top);
    b.code[br].imm = b.k.ncode;
    irb_store(&b, irb_arg(&b, po), s, -1);
    int32_t out = -1;
    exec_arg args[] = {ptr_arg("out_ptr", &out, 1)};
    result r = run(&b, 1, 1, 1, args);
    TAP_OK(r.ok, "a BRANCH/JUMP loop runs");
    TAP_INT_EQ(out, 45, "the loop sums 0..9");
    result_free(&r);
}

/* ---- printing ------------------------------------------------------------ */

/* print_if(f"pid {pid} offs {offs} x {x:>6.2f}", "> 4"), or the same
 * print from every program when cond_all. */
static void build_print(irb *b, bool cond_all)
{
    irb_init(b, "printer");
    irb_at(b, 3, 11, 27);
    int pid = irb_pid(b, 0);
    int offs = irb_bin(b, IR_ADD, irb_bin(b, IR_MUL, pid, irb_const(b, DTYPE_INT32, 4)),
                       irb_arange(b, 4));
    int x = irb_fconst(b, DTYPE_FP32, 3.14159);
    char ps[16], os[16], xs[24];
    snprintf(ps, sizeof ps, "{%d}", pid);
    snprintf(os, sizeof os, "{%d}", offs);
    snprintf(xs, sizeof xs, "{%d:>6.2f}", x);
    const char *parts[] = {"pid ", ps, " offs ", os, " x ", xs};
    int pr = irb_print(b, IR_PRINT_TEXT, parts, 6);   /* parses the slot pieces now */
    if (!cond_all) {
        b->prints[pr].pid_cond[0].op = IR_GT;
        b->prints[pr].pid_cond[0].value = 4;
    }
    irb_emit(b, IR_PRINT, 0, -1, -1, -1, -1, pr);
}

static void test_print(void)
{
    const char *want =
        "pid [5] offs [20 21 22 23] x   3.14\n"
        "pid [6] offs [24 25 26 27] x   3.14\n"
        "pid [7] offs [28 29 30 31] x   3.14\n";
    for (int threads = 1; threads <= 4; threads += 3) {
        irb b;
        build_print(&b, false);
        result r = run(&b, threads, 8, 1, NULL);
        TAP_STR_EQ(r.out, want, "print_if prints from programs 5, 6, 7 in order (%d threads)",
                   threads);
        result_free(&r);
    }
    /* 300 programs all printing: the same text with 1 and 4 threads. */
    irb b;
    build_print(&b, true);
    result r1 = run(&b, 1, 300, 1, NULL);
    result r4 = run(&b, 4, 300, 1, NULL);
    char line[64];
    snprintf(line, sizeof line, "pid [299] offs [1196 1197 1198 1199] x   3.14\n");
    TAP_OK(strlen(r1.out) > strlen(line) &&
           strcmp(r1.out + strlen(r1.out) - strlen(line), line) == 0,
           "the last program's line comes last");
    TAP_STR_EQ(r4.out, r1.out, "300 programs print the same text with 4 threads as with 1");
    result_free(&r1);
    result_free(&r4);
}

static void test_device_print(void)
{
    irb b;
    irb_init(&b, "dprint");
    irb_at(&b, 3, 11, 27);
    int t = irb_arange(&b, 16);
    int y = irb_fconst(&b, DTYPE_FP32, 1.5);
    char ts[8], ys[8];
    snprintf(ts, sizeof ts, "{%d}", t);
    snprintf(ys, sizeof ys, "{%d}", y);
    const char *p1[] = {"x", ts};
    const char *p2[] = {" y: ", ys};
    int a = irb_print(&b, IR_PRINT_DEVICE, p1, 2);
    int c = irb_print(&b, IR_PRINT_DEVICE, p2, 2);
    b.prints[a].pid_cond[1].op = IR_EQ;   /* only programs with pid[1] == 1 */
    b.prints[a].pid_cond[1].value = 1;
    b.prints[c].pid_cond[0].op = IR_EQ;
    b.prints[c].pid_cond[0].value = 0;
    b.prints[c].pid_cond[1].op = IR_EQ;
    b.prints[c].pid_cond[1].value = 1;
    irb_emit(&b, IR_PRINT, 0, -1, -1, -1, -1, a);
    irb_emit(&b, IR_PRINT, 0, -1, -1, -1, -1, c);
    result r = run(&b, 2, 1, 2, NULL);
    char want[4096] = "";
    for (int i = 0; i < 16; i++)
        snprintf(want + strlen(want), sizeof want - strlen(want),
                 "pid (0, 1, 0) idx (%2d) x: %d\n", i, i);
    strcat(want, "pid (0, 1, 0) idx () y: 1.500000\n");
    TAP_STR_EQ(r.out, want, "device_print: a line per element, Triton's GPU format");
    result_free(&r);
}

/* ---- errors: ordering, assert ------------------------------------------- */

static void test_output_before_error(void)
{
    /* Each program prints, then loads without a mask: programs 3.. fail.
     * The output of 0..3 comes first, then program 3's error. */
    for (int threads = 1; threads <= 4; threads += 3) {
        irb b;
        build_copy(&b, 2, false, 0);
        char pid[8];
        snprintf(pid, sizeof pid, "{%d}", 0);   /* slot 0 is the program id */
        const char *parts[] = {"program ", pid};
        int pr = irb_print(&b, IR_PRINT_TEXT, parts, 2);
        /* insert the print right after PROGRAM_ID (instruction 0) */
        memmove(&b.code[2], &b.code[1], sizeof b.code[0] * (size_t)(b.k.ncode - 1));
        b.code[1] = (ir_inst){.op = IR_PRINT, .dst = -1, .a = -1, .b = -1, .c = -1, .d = -1,
                              .imm = pr, .at = b.code[0].at, .frame = -1};
        b.k.ncode++;
        float x[6] = {1, 2, 3, 4, 5, 6}, z[6];
        exec_arg args[] = {ptr_arg("x_ptr", x, 6), ptr_arg("z_ptr", z, 6), int_arg(6)};
        result r = run(&b, threads, 40, 1, args);
        TAP_STR_EQ(r.out, "program [0]\nprogram [1]\nprogram [2]\nprogram [3]\n",
                   "output up to the failing program, none after (%d threads)", threads);
        TAP_STR_EQ(r.err, OOB_LOAD, "then program 3's error (%d threads)", threads);
        result_free(&r);
    }
}

static void test_assert(void)
{
    irb b;
    irb_init(&b, "asserting");
    int px = irb_param(&b, "x_ptr", dtype_ptr_to(DTYPE_INT32));
    irb_at(&b, 8, 5, 50);
    int x = irb_load(&b, irb_ptr_add(&b, irb_arg(&b, px), irb_arange(&b, 4)), -1, -1);
    int pos = irb_cmp(&b, IR_GT, x, irb_const(&b, DTYPE_INT32, 0));
    const char *parts[] = {"x must be positive"};
    int pr = irb_print(&b, IR_PRINT_TEXT, parts, 1);
    irb_emit(&b, IR_ASSERT, 0, -1, pos, -1, -1, pr);
    int32_t xs[4] = {1, 2, -3, 4};
    exec_arg args[] = {ptr_arg("x_ptr", xs, 4)};
    result r = run(&b, 1, 1, 1, args);
    TAP_OK(!r.ok, "a false device_assert stops the launch");
    TAP_STR_EQ(r.err,
               "k.tk:8:5: error: device assertion failed in program (0, 0, 0), lane 2: "
               "x must be positive\n"
               "    tl.device_assert(x > 0, \"x must be positive\")\n"
               "    ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~\n",
               "the assertion names the program and the lane");
    result_free(&r);
}

/* ---- atomics ------------------------------------------------------------- */

static void test_atomics(void)
{
    /* 64 programs x 16 lanes add 1 (int32) and 0.5 (fp32) to one counter
     * each; and each program adds 1 to a third counter, storing the old
     * value at out[pid]: the olds must be 0..63, each once. */
    irb b;
    irb_init(&b, "atomics");
    int pc = irb_param(&b, "count_ptr", dtype_ptr_to(DTYPE_INT32));
    int pf = irb_param(&b, "fsum_ptr", dtype_ptr_to(DTYPE_FP32));
    int pt = irb_param(&b, "ticket_ptr", dtype_ptr_to(DTYPE_INT32));
    int po = irb_param(&b, "out_ptr", dtype_ptr_to(DTYPE_INT32));
    irb_at(&b, 7, 5, 41);
    int pid = irb_pid(&b, 0);
    int zeros = irb_bin(&b, IR_MUL, irb_arange(&b, 16), irb_const(&b, DTYPE_INT32, 0));
    int cp = irb_ptr_add(&b, irb_arg(&b, pc), zeros);
    int fp = irb_ptr_add(&b, irb_arg(&b, pf), zeros);
    int ones = irb_slot(&b, DTYPE_INT32, 1, 16, 0);
    irb_emit(&b, IR_CONST, 0, ones, -1, -1, -1, 1);
    int halves = irb_slot(&b, DTYPE_FP32, 1, 16, 0);
    irb_emit(&b, IR_CONST, 0, halves, -1, -1, -1, 0);
    b.code[b.k.ncode - 1].fimm = 0.5;
    irb_emit(&b, IR_ATOMIC, IR_ATOMIC_ADD, -1, cp, ones, -1, 0);
    irb_emit(&b, IR_ATOMIC, IR_ATOMIC_ADD, -1, fp, halves, -1, 0);
    int old = irb_slot(&b, DTYPE_INT32, 0, 0, 0);
    irb_emit(&b, IR_ATOMIC, IR_ATOMIC_ADD, old, irb_arg(&b, pt), irb_const(&b, DTYPE_INT32, 1),
             -1, 0);
    irb_store(&b, irb_ptr_add(&b, irb_arg(&b, po), pid), old, -1);
    int32_t count = 0, ticket = 0, out[64];
    float fsum = 0;
    exec_arg args[] = {ptr_arg("count_ptr", &count, 1), ptr_arg("fsum_ptr", &fsum, 1),
                       ptr_arg("ticket_ptr", &ticket, 1), ptr_arg("out_ptr", out, 64)};
    result r = run(&b, 4, 64, 1, args);
    TAP_OK(r.ok, "64 programs of atomics run on 4 threads");
    TAP_INT_EQ(count, 1024, "int32 atomic_add from 64 x 16 lanes");
    TAP_DBL_EQ(fsum, 512.0, "fp32 atomic_add (CAS loop) from 64 x 16 lanes");
    bool seen[64] = {false}, perm = true;
    for (int i = 0; i < 64; i++) {
        perm &= out[i] >= 0 && out[i] < 64 && !seen[out[i]];
        if (out[i] >= 0 && out[i] < 64)
            seen[out[i]] = true;
    }
    TAP_OK(perm, "atomic_add returns the old values: each of 0..63 once");
    result_free(&r);

    /* masked lanes: only lanes < 3 add */
    irb_init(&b, "masked_atomic");
    pc = irb_param(&b, "count_ptr", dtype_ptr_to(DTYPE_INT32));
    irb_at(&b, 7, 5, 41);
    int lanes = irb_arange(&b, 8);
    int m = irb_cmp(&b, IR_LT, lanes, irb_const(&b, DTYPE_INT32, 3));
    int p = irb_ptr_add(&b, irb_arg(&b, pc), irb_bin(&b, IR_MUL, lanes, irb_const(&b, DTYPE_INT32, 0)));
    irb_emit(&b, IR_ATOMIC, IR_ATOMIC_ADD, -1, p, lanes, m, 0);
    count = 100;
    exec_arg margs[] = {ptr_arg("count_ptr", &count, 1)};
    r = run(&b, 1, 1, 1, margs);
    TAP_INT_EQ(count, 103, "masked atomic lanes do nothing (100 + 0 + 1 + 2)");
    result_free(&r);
}

/* ---- the IR listing -------------------------------------------------------- */

static void test_ir_dump(void)
{
    irb b;
    build_copy(&b, 4, true, 0);
    char *text = NULL;
    size_t len;
    FILE *f = open_memstream(&text, &len);
    ir_dump(&b.k, f);
    fclose(f);
    TAP_STR_EQ(text,
               "kernel copy_kernel(x_ptr: pointer<fp32>, z_ptr: pointer<fp32>, n: int32)\n"
               "   0: program_id     %0:int32 <- axis 0  @3:11\n"
               "   1: const          %1:int32 <- 4  @4:12\n"
               "   2: binary.mul     %2:int32 <- %0:int32, %1:int32  @4:12\n"
               "   3: arange         %3:int32[4] <- start 0  @4:12\n"
               "   4: binary.add     %4:int32[4] <- %2:int32, %3:int32[4]  @4:12\n"
               "   5: arg            %5:int32 <- arg 2 'n'  @5:12\n"
               "   6: cmp.lt         %6:int1[4] <- %4:int32[4], %5:int32  @5:12\n"
               "   7: arg            %7:pointer<fp32> <- arg 0 'x_ptr'  @6:9\n"
               "   8: ptr_add        %8:pointer<fp32>[4] <- %7:pointer<fp32>, %4:int32[4]  @6:9\n"
               "   9: load           %9:fp32[4] <- %8:pointer<fp32>[4], mask %6:int1[4]  @6:9\n"
               "  10: arg            %10:pointer<fp32> <- arg 1 'z_ptr'  @7:5\n"
               "  11: ptr_add        %11:pointer<fp32>[4] <- %10:pointer<fp32>, %4:int32[4]  @7:5\n"
               "  12: store          %11:pointer<fp32>[4], %9:fp32[4], mask %6:int1[4]  @7:5\n"
               "  13: return  @7:5\n",
               "ir_dump lists one instruction a line");
    free(text);
    char ty[64];
    ir_type t = {.dt = DTYPE_FP32, .ndim = 2, .shape = {16, 16}};
    ir_type_str(&t, ty, sizeof ty);
    TAP_STR_EQ(ty, "fp32[16, 16]", "ir_type_str of a 2-d tile");
    t = (ir_type){.dt = DTYPE_INT32};
    ir_type_str(&t, ty, sizeof ty);
    TAP_STR_EQ(ty, "int32", "ir_type_str of a scalar");
    t = (ir_type){.dt = dtype_ptr_to(DTYPE_FP16), .ndim = 1, .shape = {64}};
    ir_type_str(&t, ty, sizeof ty);
    TAP_STR_EQ(ty, "pointer<fp16>[64]", "ir_type_str of a pointer tile");
}

/* A kernel the specializer got wrong is an internal error, not a crash. */
static void test_bad_ir(void)
{
    irb b;
    irb_init(&b, "bad");
    irb_at(&b, 3, 11, 27);
    int x = irb_arange(&b, 4);
    int y = irb_slot(&b, DTYPE_INT32, 1, 8, 0);
    irb_emit(&b, IR_BINARY, IR_ADD, y, x, x, -1, 0);   /* [4] + [4] -> [8] */
    result r = run(&b, 1, 1, 1, NULL);
    TAP_OK(!r.ok && strstr(r.err, "internal error: bad kernel IR at instruction 1 (binary)") != NULL,
           "mismatched shapes are reported as an internal error");
    result_free(&r);
}

int main(void)
{
    test_copy_masked();
    test_oob_load();
    test_oob_store();
    test_dynamic_pointer();
    test_broadcast_2d();
    test_int_wrap();
    test_int8_divmod();
    test_fp16_rounding();
    test_float_compare_minmax();
    test_casts();
    test_dot();
    test_reduce();
    test_scan();
    test_trans_bitcast();
    test_loop();
    test_print();
    test_device_print();
    test_output_before_error();
    test_assert();
    test_atomics();
    test_ir_dump();
    test_bad_ir();
    return tap_done();
}
