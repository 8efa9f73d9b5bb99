/* test_cgen_host.c - the numbers of the CUDA prelude's helpers
 * (cgen_expr_prelude): fp16/bf16/fp8 conversions, casts, rounding toward
 * zero, saturating float -> int, guarded // and %, shifts, min/max with
 * NaN, the integer helpers and the span of a mask's box (tk_span), compiled
 * with nvcc as a host program (the helpers are __host__ __device__) and run
 * on many inputs (every fp16, bf16 and fp8 pattern, the neighbours and
 * midpoints around them, edge integers, pseudo-random bits), each result
 * compared bit for bit with tritsim's own dtype.c / mathfn.c (or the CPU
 * executor's rule, or a lane-by-lane count for tk_span, where it has no
 * function).  A TAP skip without nvcc ($NVCC, /usr/local/cuda/bin/nvcc). */
#define _DEFAULT_SOURCE     /* mkdtemp */
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include "cgen_expr.h"
#include "mathfn.h"
#include "tap.h"

/* ---- inputs ------------------------------------------------------------------ */

typedef struct vec {
    uint64_t *a, *b;
    size_t n, cap;
} vec;

static void push(vec *v, uint64_t a, uint64_t b)
{
    if (v->n == v->cap) {
        v->cap = v->cap ? 2 * v->cap : 1024;
        v->a = realloc(v->a, v->cap * sizeof *v->a);
        v->b = realloc(v->b, v->cap * sizeof *v->b);
    }
    v->a[v->n] = a;
    v->b[v->n++] = b;
}

static uint64_t rng_state = 0x9e3779b97f4a7c15u;
static uint64_t rnd(void)       /* splitmix64 */
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static uint32_t fbits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float bitsf(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint64_t dbits(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }
static double bitsd(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }

/* floats: around every fp16 and bf16 value (itself, its float neighbours,
 * the midpoints to the next one and theirs), fp8 NaNs, random bits */
static void gen_floats(vec *v)
{
    for (uint32_t h = 0; h < 65536; h++) {
        float f16 = dtype_f16_to_f32((uint16_t)h), f16n = dtype_f16_to_f32((uint16_t)(h + 1));
        uint32_t bf = h << 16;
        uint32_t cands[] = {fbits(f16), fbits(f16) + 1, fbits(f16) - 1,
                            fbits((float)(((double)f16 + (double)f16n) / 2)),
                            fbits((float)(((double)f16 + (double)f16n) / 2)) + 1,
                            fbits((float)(((double)f16 + (double)f16n) / 2)) - 1,
                            bf, bf + 1, bf - 1, bf + 0x8000, bf + 0x7fff, bf + 0x8001};
        for (size_t i = 0; i < sizeof cands / sizeof cands[0]; i++)
            push(v, cands[i], 0);
    }
    for (uint32_t m = 0; m < 8; m++) {
        push(v, 0x7fc00000u | m, 0);
        push(v, 0xffc00000u | m, 0);
    }
    for (int i = 0; i < 50000; i++)
        push(v, (uint32_t)rnd(), 0);
}

/* doubles: fp16/bf16/fp8 values and midpoints nudged by a few double ulps,
 * the ranges' edges, NaNs with payloads, random bits and random values */
static void gen_doubles(vec *v)
{
    for (uint32_t h = 0; h < 65536; h += 11) {
        double x = dtype_f16_to_f32((uint16_t)h), y = dtype_f16_to_f32((uint16_t)(h + 1));
        double bx = dtype_bf16_to_f32((uint16_t)h), by = dtype_bf16_to_f32((uint16_t)(h + 1));
        double cands[] = {x, (x + y) / 2, bx, (bx + by) / 2};
        for (size_t i = 0; i < 4; i++)
            for (int d = -2; d <= 2; d++)
                push(v, dbits(cands[i]) + (uint64_t)(int64_t)d, 0);
    }
    for (int b = 0; b < 256; b++) {
        double e4 = dtype_fp8e4nv_to_f64((uint8_t)b), e4n = dtype_fp8e4nv_to_f64((uint8_t)(b + 1));
        double e5 = dtype_fp8e5_to_f64((uint8_t)b), e5n = dtype_fp8e5_to_f64((uint8_t)(b + 1));
        double cands[] = {e4, (e4 + e4n) / 2, e5, (e5 + e5n) / 2};
        for (size_t i = 0; i < 4; i++)
            for (int d = -1; d <= 1; d++)
                push(v, dbits(cands[i]) + (uint64_t)(int64_t)d, 0);
    }
    double edges[] = {0.0, -0.0, INFINITY, -INFINITY, 448.0, 464.0, 480.0, 57344.0, 61440.0,
                      65504.0, 65520.0, 1e300, -1e300, 3.4028234663852886e38, 3.4028235e38,
                      1e-320, 1.401298464324817e-45, 7e-46, 1.0 + 0x1p-11 + 0x1p-40};
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++) {
        push(v, dbits(edges[i]), 0);
        push(v, dbits(-edges[i]), 0);
    }
    push(v, 0x7ff8000000000000u, 0);
    push(v, 0xfff0000000000001u, 0);
    push(v, 0x7ff4000000000123u, 0);
    for (int i = 0; i < 30000; i++) {
        push(v, rnd(), 0);
        push(v, dbits(ldexp((double)(int64_t)rnd(), -(int)(rnd() % 140) - 20)), 0);
    }
}

static const int64_t edge_ints[] = {
    0, 1, -1, 2, -2, 3, 7, -7, 100, 127, -128, 128, 255, 256, 32767, -32768, 65535, 65536,
    INT32_MAX, INT32_MIN, (int64_t)INT32_MAX + 1, (int64_t)UINT32_MAX, 1LL << 40,
    (1LL << 53) + 1, (1LL << 62) + 12345, INT64_MAX, INT64_MIN, INT64_MIN + 1, 2049, 4097,
    16777217, -16777217, 0x123456789abcdefLL,
};
enum { NEDGE = sizeof edge_ints / sizeof edge_ints[0] };

static void gen_ints(vec *v)
{
    for (int i = 0; i < NEDGE; i++)
        push(v, (uint64_t)edge_ints[i], 0);
    for (int i = 0; i < 100000; i++)
        push(v, rnd() >> (rnd() % 64), 0);
}

static void gen_int_pairs(vec *v)
{
    for (int i = 0; i < NEDGE; i++)
        for (int j = 0; j < NEDGE; j++)
            push(v, (uint64_t)edge_ints[i], (uint64_t)edge_ints[j]);
    for (int i = 0; i < 50000; i++)
        push(v, rnd() >> (rnd() % 64), rnd() >> (rnd() % 64));
}

static void gen_shifts(vec *v)
{
    static const int64_t counts[] = {0, 1, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65,
                                     -1, -8, INT64_MIN, 1LL << 32};
    for (int i = 0; i < NEDGE; i++)
        for (size_t j = 0; j < sizeof counts / sizeof counts[0]; j++)
            push(v, (uint64_t)edge_ints[i], (uint64_t)counts[j]);
}

/* doubles for float -> int: integers and halves around every width's edges */
/* tk_span's inputs: a = c, b = s (16 bits) | n << 16; c about the
 * interval's ends and far beyond them, steps of either sign */
static void gen_spans(vec *v)
{
    static const int64_t steps[] = {1, -1, 2, -2, 3, -3, 7, -7, 64, -64, 1000, -1000};
    static const int64_t sizes[] = {1, 2, 5, 64, 1024};
    static const int64_t far[] = {INT64_MIN, INT64_MIN + 1, -(INT64_C(1) << 62) - 5,
                                  (INT64_C(1) << 62) + 5, INT64_MAX, -(INT64_C(1) << 40),
                                  INT64_C(1) << 40};
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++)
        for (size_t j = 0; j < sizeof sizes / sizeof sizes[0]; j++) {
            uint64_t b = (uint64_t)(uint16_t)(int16_t)steps[i] | (uint64_t)sizes[j] << 16;
            for (int64_t c = -3000; c <= 3000; c++)
                push(v, (uint64_t)c, b);
            for (size_t k = 0; k < sizeof far / sizeof far[0]; k++)
                push(v, (uint64_t)far[k], b);
        }
}

/* The interval of i in [0, n) with c + s * i < 0, counted lane by lane
 * (exactly, in 128 bits): lo | hi << 32. */
static uint64_t ref_span(int64_t c, int64_t s, int64_t n)
{
    int64_t lo = -1, hi = -1;
    for (int64_t i = 0; i < n; i++)
        if ((__int128)c + (__int128)s * i < 0) {
            if (lo < 0)
                lo = i;
            hi = i + 1;
        }
    if (lo < 0)
        lo = hi = s > 0 ? 0 : n;     /* none: an empty interval, wherever */
    return (uint64_t)lo | (uint64_t)hi << 32;
}

static void gen_int_doubles(vec *v)
{
    for (int i = 0; i < NEDGE; i++) {
        double x = (double)edge_ints[i];
        double cands[] = {x, x + 0.5, x - 0.5, x + 1, x - 1, -x, nextafter(x, INFINITY),
                          nextafter(x, -INFINITY)};
        for (size_t j = 0; j < sizeof cands / sizeof cands[0]; j++)
            push(v, dbits(cands[j]), 0);
    }
    double specials[] = {NAN, -NAN, INFINITY, -INFINITY, 0x1p63, -0x1p63, 0x1p64, 1e30, -1e30,
                         0.25, -0.25, 2.5, -2.5, 3.5, -3.5};
    for (size_t j = 0; j < sizeof specials / sizeof specials[0]; j++)
        push(v, dbits(specials[j]), 0);
    for (int i = 0; i < 20000; i++)
        push(v, dbits(ldexp((double)(int64_t)rnd(), -(int)(rnd() % 70))), 0);
}

static void gen_float_pairs(vec *v)
{
    static const float fs[] = {0.0f, -0.0f, 1.0f, -1.0f, 2.5f, INFINITY, -INFINITY, NAN,
                               1e-45f, -1e-45f, 3.4e38f};
    for (size_t i = 0; i < sizeof fs / sizeof fs[0]; i++)
        for (size_t j = 0; j < sizeof fs / sizeof fs[0]; j++)
            push(v, fbits(fs[i]), fbits(fs[j]));
    for (int i = 0; i < 20000; i++)
        push(v, (uint32_t)rnd(), (uint32_t)rnd());
}

static void gen_all16(vec *v)
{
    for (uint32_t h = 0; h < 65536; h++)
        push(v, h, 0);
}

static void gen_all8(vec *v)
{
    for (uint32_t b = 0; b < 256; b++)
        push(v, b, 0);
}

/* ---- what the CPU gives ---------------------------------------------------------- */

static uint64_t cast_bits(double d, dtype from, dtype to)
{
    dtype_scalar s = {.f = d}, r = dtype_cast(s, from, to);
    return (uint64_t)r.i;
}

static uint64_t fp8_store(dtype t, float f)
{
    uint8_t b = 0;
    dtype_store(t, &b, (dtype_scalar){.f = f});
    return b;
}

/* shifts: ir.md 3.3 / exec_tile.c's SHIFT_INT, for `bits`-bit values */
static uint64_t sext(uint64_t x, int bits)
{
    return bits == 64 ? x : (uint64_t)((int64_t)(x << (64 - bits)) >> (64 - bits));
}

static uint64_t zext(uint64_t x, int bits)
{
    return bits == 64 ? x : x & ((1ULL << bits) - 1);
}

static uint64_t ref_shift(int kind, int bits, uint64_t a, uint64_t c)
{
    if (kind == 0)          /* shl, as the signed type */
        return c >= (uint64_t)bits ? 0 : sext(a << c, bits);
    if (kind == 1) {        /* sar */
        int64_t s = (int64_t)sext(a, bits);
        return (uint64_t)(c >= (uint64_t)bits ? s >> (bits - 1) : s >> c);
    }
    return c >= (uint64_t)bits ? 0 : zext(a, bits) >> c;      /* shr */
}

/* exec_tile.c's fminnan / fmaxnan (propagate_nan=ALL), in fp32 */
static float ref_minmax_nan(float a, float b, bool max)
{
    double x = a, y = b;
    if (x != x || y != y)
        return (float)(x + y);
    if (max)
        return (float)(x > y ? x : y > x ? y : signbit(x) ? y : x);
    return (float)(x < y ? x : y < x ? y : signbit(x) ? x : y);
}

/* ---- the cases ------------------------------------------------------------------- */

typedef struct hcase {
    const char *name;
    void (*gen)(vec *);
    const char *expr;       /* of tk_u64 a, b: the bits of the result */
} hcase;

#define F "tk_u2f((tk_u32)a)"
#define D "tk_u2d(a)"
static const hcase cases[] = {
    {"fp32 -> fp16 bits", gen_floats, "tk_f32_to_f16(" F ")"},
    {"fp16 bits -> fp32", gen_all16, "tk_f2u(tk_f16_to_f32((tk_u16)a))"},
    {"fp32 -> bf16 bits", gen_floats, "tk_f32_to_bf16(" F ")"},
    {"bf16 bits -> fp32", gen_all16, "tk_f2u(tk_bf16_to_f32((tk_u16)a))"},
    {"fp64 -> fp16 bits", gen_doubles, "tk_d2f16(" D ")"},
    {"fp64 -> bf16 bits", gen_doubles, "tk_d2bf16(" D ")"},
    {"fp8e4nv byte -> fp32", gen_all8, "tk_f2u(tk_e4m3_to_f32((tk_u8)a))"},
    {"fp8e5 byte -> fp32", gen_all8, "tk_f2u(tk_e5m2_to_f32((tk_u8)a))"},
    {"cast fp64 -> fp8e4nv", gen_doubles, "tk_f2u(tk_rnd_e4m3(" D "))"},
    {"cast fp64 -> fp8e5", gen_doubles, "tk_f2u(tk_rnd_e5m2(" D "))"},
    {"store fp8e4nv", gen_floats, "tk_e4m3_store(" F ")"},
    {"store fp8e5", gen_floats, "tk_e5m2_store(" F ")"},
    {"rtz fp64 -> fp16", gen_doubles, "tk_f2u(tk_rtz_f16(" D "))"},
    {"rtz fp64 -> bf16", gen_doubles, "tk_f2u(tk_rtz_bf16(" D "))"},
    {"rtz fp64 -> fp32", gen_doubles, "tk_f2u(tk_rtz_f32(" D "))"},
    {"rtz fp64 -> fp8e4nv", gen_doubles, "tk_f2u(tk_rtz_e4m3(" D "))"},
    {"rtz fp64 -> fp8e5", gen_doubles, "tk_f2u(tk_rtz_e5m2(" D "))"},
    {"int64 -> fp16", gen_ints, "tk_f2u(tk_i64_to_f16((tk_i64)a))"},
    {"uint64 -> fp16", gen_ints, "tk_f2u(tk_u64_to_f16(a))"},
    {"int64 -> bf16", gen_ints, "tk_f2u(tk_i64_to_bf16((tk_i64)a))"},
    {"uint64 -> bf16", gen_ints, "tk_f2u(tk_u64_to_bf16(a))"},
    {"fp64 -> int8", gen_int_doubles, "(tk_u64)tk_d2i_sat(" D ", 8)"},
    {"fp64 -> int16", gen_int_doubles, "(tk_u64)tk_d2i_sat(" D ", 16)"},
    {"fp64 -> int32", gen_int_doubles, "(tk_u64)tk_d2i_sat(" D ", 32)"},
    {"fp64 -> int64", gen_int_doubles, "(tk_u64)tk_d2i_sat(" D ", 64)"},
    {"fp64 -> uint8", gen_int_doubles, "tk_d2u_sat(" D ", 8)"},
    {"fp64 -> uint16", gen_int_doubles, "tk_d2u_sat(" D ", 16)"},
    {"fp64 -> uint32", gen_int_doubles, "tk_d2u_sat(" D ", 32)"},
    {"fp64 -> uint64", gen_int_doubles, "tk_d2u_sat(" D ", 64)"},
    {"int8 //", gen_int_pairs, "(tk_u64)(tk_i64)(tk_i8)tk_floordiv_i32((tk_i8)a, (tk_i8)b)"},
    {"int32 //", gen_int_pairs, "(tk_u64)(tk_i64)tk_floordiv_i32((tk_i32)a, (tk_i32)b)"},
    {"int32 %", gen_int_pairs, "(tk_u64)(tk_i64)tk_mod_i32((tk_i32)a, (tk_i32)b)"},
    {"int64 //", gen_int_pairs, "(tk_u64)tk_floordiv_i64((tk_i64)a, (tk_i64)b)"},
    {"int64 %", gen_int_pairs, "(tk_u64)tk_mod_i64((tk_i64)a, (tk_i64)b)"},
    {"uint32 //", gen_int_pairs, "tk_floordiv_u32((tk_u32)a, (tk_u32)b)"},
    {"uint32 %", gen_int_pairs, "tk_mod_u32((tk_u32)a, (tk_u32)b)"},
    {"uint64 //", gen_int_pairs, "tk_floordiv_u64(a, b)"},
    {"uint64 %", gen_int_pairs, "tk_mod_u64(a, b)"},
    {"int8 <<", gen_shifts, "(tk_u64)(tk_i64)(tk_i8)tk_shl32((tk_u32)(tk_i8)a, b, 8)"},
    {"int8 >>", gen_shifts, "(tk_u64)(tk_i64)(tk_i8)tk_sar32((tk_i32)(tk_i8)a, b, 8)"},
    {"uint8 >>", gen_shifts, "(tk_u64)(tk_u8)tk_shr32((tk_u32)(tk_u8)a, b, 8)"},
    {"int16 <<", gen_shifts, "(tk_u64)(tk_i64)(tk_i16)tk_shl32((tk_u32)(tk_i16)a, b, 16)"},
    {"int16 >>", gen_shifts, "(tk_u64)(tk_i64)(tk_i16)tk_sar32((tk_i32)(tk_i16)a, b, 16)"},
    {"uint16 >>", gen_shifts, "(tk_u64)(tk_u16)tk_shr32((tk_u32)(tk_u16)a, b, 16)"},
    {"int32 <<", gen_shifts, "(tk_u64)(tk_i64)(tk_i32)tk_shl32((tk_u32)a, b, 32)"},
    {"int32 >>", gen_shifts, "(tk_u64)(tk_i64)tk_sar32((tk_i32)a, b, 32)"},
    {"uint32 >>", gen_shifts, "(tk_u64)tk_shr32((tk_u32)a, b, 32)"},
    {"int64 <<", gen_shifts, "tk_shl64(a, b)"},
    {"int64 >>", gen_shifts, "(tk_u64)tk_sar64((tk_i64)a, b)"},
    {"uint64 >>", gen_shifts, "tk_shr64(a, b)"},
    {"minimum nan", gen_float_pairs, "tk_f2u(tk_fminnanf(" F ", tk_u2f((tk_u32)b)))"},
    {"maximum nan", gen_float_pairs, "tk_f2u(tk_fmaxnanf(" F ", tk_u2f((tk_u32)b)))"},
    {"saturate", gen_doubles, "tk_d2u(tk_saturate(" D "))"},
    {"ilogb", gen_doubles, "(tk_u64)(tk_i64)tk_ilogb(" D ")"},
    {"llrint", gen_int_doubles, "(tk_u64)tk_llrint(" D ")"},
    {"llround", gen_int_doubles, "(tk_u64)tk_llround(" D ")"},
    {"int32 hadd", gen_int_pairs, "(tk_u64)(tk_i64)tk_hadd<tk_i32>((tk_i32)a, (tk_i32)b)"},
    {"uint32 rhadd", gen_int_pairs, "(tk_u64)tk_rhadd<tk_u32>((tk_u32)a, (tk_u32)b)"},
    {"int32 rhadd", gen_int_pairs, "(tk_u64)(tk_i64)tk_rhadd<tk_i32>((tk_i32)a, (tk_i32)b)"},
    {"int32 sad", gen_int_pairs,
     "(tk_u64)(tk_i64)tk_sad<tk_i32, tk_u32>((tk_i32)a, (tk_i32)b, (tk_i32)(a >> 7))"},
    {"uint32 sad", gen_int_pairs,
     "(tk_u64)tk_sad<tk_u32, tk_u32>((tk_u32)a, (tk_u32)b, (tk_u32)(a >> 7))"},
    {"int32 abs", gen_ints, "(tk_u64)(tk_i64)tk_iabs<tk_i32, tk_u32>((tk_i32)a)"},
    {"int64 mul24", gen_int_pairs, "(tk_u64)(tk_sext24((tk_u32)a) * tk_sext24((tk_u32)b))"},
    {"span", gen_spans,
     "[](tk_i64 c, tk_i64 s, tk_i64 n) { tk_i64 lo, hi; tk_span(c, s, n, &lo, &hi);"
     " return (tk_u64)lo | (tk_u64)hi << 32; }((tk_i64)a, (tk_i64)(tk_i16)(tk_u16)b,"
     " (tk_i64)(b >> 16))"},
};
#undef F
#undef D
enum { NCASES = sizeof cases / sizeof cases[0] };

/* The CPU's result for case i (by its index in cases[]). */
static uint64_t expect(int i, uint64_t a, uint64_t b)
{
    float f = bitsf((uint32_t)a);
    double d = bitsd(a);
    int32_t a32 = (int32_t)a, b32 = (int32_t)b;
    switch (i) {
    case 0: return dtype_f32_to_f16(f);
    case 1: return fbits(dtype_f16_to_f32((uint16_t)a));
    case 2: return dtype_f32_to_bf16(f);
    case 3: return fbits(dtype_bf16_to_f32((uint16_t)a));
    case 4: return dtype_f64_to_f16(d);
    case 5: return dtype_f64_to_bf16(d);
    case 6: return fbits((float)dtype_fp8e4nv_to_f64((uint8_t)a));
    case 7: return fbits((float)dtype_fp8e5_to_f64((uint8_t)a));
    case 8: return fbits((float)dtype_round_float(DTYPE_FP8E4NV, d));
    case 9: return fbits((float)dtype_round_float(DTYPE_FP8E5, d));
    case 10: return fp8_store(DTYPE_FP8E4NV, f);
    case 11: return fp8_store(DTYPE_FP8E5, f);
    case 12: return fbits((float)dtype_round_float_rtz(DTYPE_FP16, d));
    case 13: return fbits((float)dtype_round_float_rtz(DTYPE_BF16, d));
    case 14: return fbits((float)dtype_round_float_rtz(DTYPE_FP32, d));
    case 15: return fbits((float)dtype_round_float_rtz(DTYPE_FP8E4NV, d));
    case 16: return fbits((float)dtype_round_float_rtz(DTYPE_FP8E5, d));
    case 17: return fbits((float)dtype_cast((dtype_scalar){.u = a}, DTYPE_INT64, DTYPE_FP16).f);
    case 18: return fbits((float)dtype_cast((dtype_scalar){.u = a}, DTYPE_UINT64, DTYPE_FP16).f);
    case 19: return fbits((float)dtype_cast((dtype_scalar){.u = a}, DTYPE_INT64, DTYPE_BF16).f);
    case 20: return fbits((float)dtype_cast((dtype_scalar){.u = a}, DTYPE_UINT64, DTYPE_BF16).f);
    case 21: return cast_bits(d, DTYPE_FP64, DTYPE_INT8);
    case 22: return cast_bits(d, DTYPE_FP64, DTYPE_INT16);
    case 23: return cast_bits(d, DTYPE_FP64, DTYPE_INT32);
    case 24: return cast_bits(d, DTYPE_FP64, DTYPE_INT64);
    case 25: return cast_bits(d, DTYPE_FP64, DTYPE_UINT8);
    case 26: return cast_bits(d, DTYPE_FP64, DTYPE_UINT16);
    case 27: return cast_bits(d, DTYPE_FP64, DTYPE_UINT32);
    case 28: return cast_bits(d, DTYPE_FP64, DTYPE_UINT64);
    case 29: return sext((uint64_t)dtype_floordiv_i64((int8_t)a, (int8_t)b), 8);
    case 30: return sext((uint64_t)dtype_floordiv_i64(a32, b32), 32);
    case 31: return sext((uint64_t)dtype_mod_i64(a32, b32), 32);
    case 32: return (uint64_t)dtype_floordiv_i64((int64_t)a, (int64_t)b);
    case 33: return (uint64_t)dtype_mod_i64((int64_t)a, (int64_t)b);
    case 34: return dtype_floordiv_u64((uint32_t)a, (uint32_t)b);
    case 35: return dtype_mod_u64((uint32_t)a, (uint32_t)b);
    case 36: return dtype_floordiv_u64(a, b);
    case 37: return dtype_mod_u64(a, b);
    case 38: case 39: case 40: return ref_shift(i - 38, 8, a, b);
    case 41: case 42: case 43: return ref_shift(i - 41, 16, a, b);
    case 44: case 45: case 46: return ref_shift(i - 44, 32, a, b);
    case 47: case 48: case 49: return ref_shift(i - 47, 64, a, b);
    case 50: return fbits(ref_minmax_nan(f, bitsf((uint32_t)b), false));
    case 51: return fbits(ref_minmax_nan(f, bitsf((uint32_t)b), true));
    case 52: return dbits(mathfn_saturate(d));
    case 53: return (uint64_t)(int64_t)mathfn_ilogb(d);
    case 54: return (uint64_t)mathfn_llrint(d);
    case 55: return (uint64_t)mathfn_llround(d);
    /* exec_tile.c's MATH_INT: in int64, exact for 32-bit operands */
    case 56: return (uint64_t)(((int64_t)a32 + b32) >> 1);
    case 57: return ((uint64_t)(uint32_t)a + (uint32_t)b + 1) >> 1;
    case 58: return (uint64_t)(((int64_t)a32 + b32 + 1) >> 1);
    case 59: {
        uint64_t dist = a32 > b32 ? (uint64_t)(int64_t)a32 - (uint64_t)(int64_t)b32
                                  : (uint64_t)(int64_t)b32 - (uint64_t)(int64_t)a32;
        return sext((uint32_t)dist + (uint32_t)(a >> 7), 32);
    }
    case 60: {
        uint32_t x = (uint32_t)a, y = (uint32_t)b;
        return (uint32_t)((x > y ? x - y : y - x) + (uint32_t)(a >> 7));
    }
    case 61: return sext(a32 < 0 ? 0u - (uint32_t)a32 : (uint32_t)a32, 32);
    case 62: {
        int64_t x = (int32_t)((uint32_t)a << 8) >> 8, y = (int32_t)((uint32_t)b << 8) >> 8;
        return (uint64_t)(x * y);
    }
    case 63: return ref_span((int64_t)a, (int16_t)(uint16_t)b, (int64_t)(b >> 16));
    default: return 0;
    }
}

/* ---- running -------------------------------------------------------------------- */

static const char *find_nvcc(void)
{
    const char *env = getenv("NVCC");
    if (env && *env)
        return access(env, X_OK) == 0 ? env : NULL;
    return access("/usr/local/cuda/bin/nvcc", X_OK) == 0 ? "/usr/local/cuda/bin/nvcc" : NULL;
}

static bool write_file(const char *path, const void *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    bool ok = f && fwrite(p, 1, n, f) == n;
    if (f)
        ok = fclose(f) == 0 && ok;
    return ok;
}

int main(void)
{
    const char *nvcc = find_nvcc();
    if (!nvcc) {
        printf("1..0 # SKIP nvcc not found (set NVCC)\n");
        return 0;
    }
    char dir[] = "/tmp/tk_cgen_host.XXXXXX";
    if (!mkdtemp(dir)) {
        printf("1..0 # SKIP no temporary directory\n");
        return 0;
    }
    /* the program: the prelude, one function per case, and a loop that
     * reads (case, n, a[n], b[n]) sections and writes the results */
    strbuf src;
    strbuf_init(&src);
    strbuf_puts(&src, "#include <cstdio>\n#include <cstdlib>\n#include <cmath>\n");
    cgen_target target = {CGEN_CUDA, 32, 90};
    cgen_expr_prelude(&src, &target);
    strbuf_puts(&src, "\nstatic tk_u64 apply(int i, tk_u64 a, tk_u64 b)\n{\n    switch (i) {\n");
    for (int i = 0; i < NCASES; i++)
        strbuf_printf(&src, "    case %d: return (tk_u64)(%s);\n", i, cases[i].expr);
    strbuf_puts(&src,
                "    }\n    return 0;\n}\n\n"
                "int main(int argc, char **argv)\n{\n"
                "    FILE *in = fopen(argv[1], \"rb\"), *out = fopen(argv[2], \"wb\");\n"
                "    int hdr[2];\n"
                "    while (in && out && fread(hdr, sizeof hdr, 1, in) == 1) {\n"
                "        size_t n = (size_t)hdr[1];\n"
                "        tk_u64 *a = (tk_u64 *)malloc(8 * n), *b = (tk_u64 *)malloc(8 * n);\n"
                "        if (fread(a, 8, n, in) != n || fread(b, 8, n, in) != n)\n"
                "            return 1;\n"
                "        for (size_t k = 0; k < n; k++)\n"
                "            a[k] = apply(hdr[0], a[k], b[k]);\n"
                "        fwrite(a, 8, n, out);\n"
                "        free(a);\n        free(b);\n    }\n"
                "    return !(in && out && fclose(out) == 0);\n}\n");
    char cu[64], exe[64], inp[64], outp[64], cmd[512];
    snprintf(cu, sizeof cu, "%s/host.cu", dir);
    snprintf(exe, sizeof exe, "%s/host", dir);
    snprintf(inp, sizeof inp, "%s/in.bin", dir);
    snprintf(outp, sizeof outp, "%s/out.bin", dir);
    bool ok = write_file(cu, src.data, src.len);
    snprintf(cmd, sizeof cmd, "'%s' -O1 -w -o '%s' '%s' 2>&1", nvcc, exe, cu);
    int rc = ok ? system(cmd) : -1;
    TAP_OK(rc == 0, "nvcc builds the prelude's helpers as a host program");
    /* inputs */
    vec in[NCASES];
    FILE *f = fopen(inp, "wb");
    for (int i = 0; i < NCASES; i++) {
        memset(&in[i], 0, sizeof in[i]);
        cases[i].gen(&in[i]);
        int hdr[2] = {i, (int)in[i].n};
        fwrite(hdr, sizeof hdr, 1, f);
        fwrite(in[i].a, 8, in[i].n, f);
        fwrite(in[i].b, 8, in[i].n, f);
    }
    fclose(f);
    snprintf(cmd, sizeof cmd, "'%s' '%s' '%s'", exe, inp, outp);
    rc = rc == 0 ? system(cmd) : -1;
    TAP_OK(rc == 0, "the host program runs");
    f = rc == 0 ? fopen(outp, "rb") : NULL;
    for (int i = 0; i < NCASES; i++) {
        size_t bad = 0, n = in[i].n;
        uint64_t *got = calloc(n ? n : 1, 8);
        bool read = f && fread(got, 8, n, f) == n;
        for (size_t k = 0; read && k < n; k++) {
            uint64_t want = expect(i, in[i].a[k], in[i].b[k]);
            /* min/max of two NaNs: which payload comes out is open (ir.md 4.2) */
            bool nans = (i == 50 || i == 51) && isnan(bitsf((uint32_t)want)) &&
                        isnan(bitsf((uint32_t)got[k]));
            if (got[k] != want && !nans && bad++ < 4)
                printf("# %s: a=0x%016" PRIx64 " b=0x%016" PRIx64 ": got 0x%" PRIx64
                       ", dtype.c gives 0x%" PRIx64 "\n", cases[i].name, in[i].a[k], in[i].b[k],
                       got[k], want);
        }
        TAP_OK(read && bad == 0, "%s: %zu inputs, the CPU's bits (%zu differ)", cases[i].name,
               n, bad);
        free(got);
        free(in[i].a);
        free(in[i].b);
    }
    if (f)
        fclose(f);
    remove(cu);
    remove(exe);
    remove(inp);
    remove(outp);
    rmdir(dir);
    strbuf_free(&src);
    return tap_done();
}
