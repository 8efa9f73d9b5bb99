/* test_fpconv.c - unit tests of fpconv.h: its fast float16/bfloat16
 * conversions give dtype.c's bits, one element and whole arrays (with the
 * processor's conversion instructions and without), on every 16-bit
 * pattern, on the float32 and float64 values at and around every rounding
 * boundary (the midpoints between neighbouring float16 and bfloat16
 * values, ties included), on NaNs with many payloads (quiet and
 * signalling), infinities, zeros, subnormals of every width, and on a
 * million pseudo-random patterns. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dtype.h"
#include "fpconv.h"
#include "tap.h"

static float bits_f32(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static uint32_t f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static double bits_f64(uint64_t u)
{
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

static uint64_t f64_bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}

static uint64_t rng = 0x9e3779b97f4a7c15u;

static uint64_t next_random(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* ---- the float32 patterns ------------------------------------------------ */

static uint32_t *pats32;
static size_t npats32, cap32;

static void add32(uint32_t u)
{
    if (npats32 == cap32) {
        cap32 = cap32 ? 2 * cap32 : 1 << 16;
        pats32 = realloc(pats32, cap32 * sizeof *pats32);
    }
    pats32[npats32++] = u;
}

/* A pattern and its neighbours, both signs. */
static void add32_around(uint32_t u)
{
    for (int d = -2; d <= 2; d++) {
        uint32_t v = u + (uint32_t)d;
        add32(v & 0x7fffffffu);
        add32(v | 0x80000000u);
    }
}

static void make_patterns32(void)
{
    for (uint32_t h = 0; h < 0x7c00u; h++) {
        /* a float16 value and the midpoint to the next one (a tie) */
        uint32_t lo = f32_bits(dtype_f16_to_f32((uint16_t)h));
        uint32_t hi = f32_bits(dtype_f16_to_f32((uint16_t)(h + 1)));
        add32_around(lo);
        add32_around(f32_bits((bits_f32(lo) + bits_f32(hi)) / 2));
    }
    for (uint32_t b = 0; b < 0x7f80u; b += 7) {
        /* a bfloat16 value and the tie above it */
        add32_around(b << 16);
        add32_around((b << 16) + 0x8000u);
    }
    const uint32_t edges[] = {
        0x00000000u, 0x00000001u, 0x007fffffu, 0x00800000u,     /* float32 subnormals */
        0x33000000u, 0x33000001u, 0x387fffffu, 0x38800000u,     /* float16 subnormal range */
        0x477fe000u, 0x477fefffu, 0x477ff000u, 0x477ff001u,     /* 65504 .. 65520 */
        0x7f7f7fffu, 0x7f7f8000u, 0x7f7fffffu, 0x7f800000u,     /* bfloat16 overflow, inf */
    };
    for (size_t i = 0; i < sizeof edges / sizeof *edges; i++)
        add32_around(edges[i]);
    for (uint32_t p = 0; p < 0x800000u; p += 0x1fffu) {
        add32(0x7f800000u | p | 1u);                /* signalling NaNs (p | 1 > 0) */
        add32(0xffc00000u | p);                     /* quiet NaNs, negative */
    }
    for (int i = 0; i < 1000000; i++)
        add32((uint32_t)next_random());
}

/* ---- the tests -------------------------------------------------------------- */

/* Every float16 and bfloat16 pattern widens to dtype.c's float, one at a
 * time and as arrays (starting at an odd byte address, so the 16-bit side
 * is misaligned, and at every length's tail). */
static void test_widen(bool simd)
{
    fpconv_set_simd(simd);
    int bad1 = 0, badn = 0, badbf1 = 0, badbfn = 0;
    unsigned char *raw = malloc(2 * 65536 + 1);
    float *out = malloc(65536 * sizeof *out);
    for (uint32_t x = 0; x < 65536; x++) {
        uint16_t h = (uint16_t)x;
        memcpy(raw + 1 + 2 * x, &h, 2);
        bad1 += f32_bits(fpconv_f16_to_f32(h)) != f32_bits(dtype_f16_to_f32(h));
        badbf1 += f32_bits(fpconv_bf16_to_f32(h)) != f32_bits(dtype_bf16_to_f32(h));
    }
    for (int pass = 0; pass < 2; pass++) {
        for (int64_t start = 0; start < 65536; start += 4093) {
            int64_t n = 65536 - start < 4093 ? 65536 - start : 4093;
            if (pass == 0)
                fpconv_f16_to_f32_n(out + start, raw + 1 + 2 * start, n);
            else
                fpconv_bf16_to_f32_n(out + start, raw + 1 + 2 * start, n);
        }
        for (uint32_t x = 0; x < 65536; x++) {
            float want = pass == 0 ? dtype_f16_to_f32((uint16_t)x)
                                   : dtype_bf16_to_f32((uint16_t)x);
            *(pass == 0 ? &badn : &badbfn) += f32_bits(out[x]) != f32_bits(want);
        }
    }
    if (!simd) {
        TAP_INT_EQ(bad1, 0, "fpconv_f16_to_f32 = dtype_f16_to_f32 on all 65536 patterns");
        TAP_INT_EQ(badbf1, 0, "fpconv_bf16_to_f32 = dtype_bf16_to_f32 on all 65536 patterns");
    }
    TAP_INT_EQ(badn, 0, "fpconv_f16_to_f32_n (simd %s) = dtype_f16_to_f32 on all patterns",
               simd ? "on" : "off");
    TAP_INT_EQ(badbfn, 0, "fpconv_bf16_to_f32_n (simd %s) = dtype_bf16_to_f32 on all patterns",
               simd ? "on" : "off");
    free(raw);
    free(out);
}

/* float32 narrows to dtype.c's float16 and bfloat16 bits, and rounds in
 * place to dtype.c's round trip. */
static void test_narrow32(bool simd)
{
    fpconv_set_simd(simd);
    size_t n = npats32;
    float *src = malloc(n * sizeof *src), *rt = malloc(n * sizeof *rt);
    float *rtb = malloc(n * sizeof *rtb);
    unsigned char *h = malloc(2 * n + 1), *b = malloc(2 * n + 1);
    for (size_t i = 0; i < n; i++)
        src[i] = bits_f32(pats32[i]);
    memcpy(rt, src, n * sizeof *rt);
    memcpy(rtb, src, n * sizeof *rtb);
    /* in uneven pieces, into odd addresses */
    for (size_t at = 0; at < n; at += 1021) {
        size_t m = n - at < 1021 ? n - at : 1021;
        fpconv_f32_to_f16_n(h + 1 + 2 * at, src + at, (int64_t)m);
        fpconv_f32_to_bf16_n(b + 1 + 2 * at, src + at, (int64_t)m);
        fpconv_round_f16_n(rt + at, (int64_t)m);
        fpconv_round_bf16_n(rtb + at, (int64_t)m);
    }
    int bad1 = 0, badn = 0, badr = 0, badb1 = 0, badbn = 0, badbr = 0;
    for (size_t i = 0; i < n; i++) {
        uint16_t want = dtype_f32_to_f16(src[i]), wantb = dtype_f32_to_bf16(src[i]), got;
        bad1 += fpconv_f32_to_f16(src[i]) != want;
        badb1 += fpconv_f32_to_bf16(src[i]) != wantb;
        memcpy(&got, h + 1 + 2 * i, 2);
        badn += got != want;
        memcpy(&got, b + 1 + 2 * i, 2);
        badbn += got != wantb;
        badr += f32_bits(rt[i]) != f32_bits(dtype_f16_to_f32(want));
        badbr += f32_bits(rtb[i]) != f32_bits(dtype_bf16_to_f32(wantb));
    }
    if (!simd) {
        TAP_INT_EQ(bad1, 0, "fpconv_f32_to_f16 = dtype_f32_to_f16 on %zu float32 patterns", n);
        TAP_INT_EQ(badb1, 0, "fpconv_f32_to_bf16 = dtype_f32_to_bf16 on %zu float32 patterns",
                   n);
    }
    const char *how = simd ? "on" : "off";
    TAP_INT_EQ(badn, 0, "fpconv_f32_to_f16_n (simd %s) = dtype_f32_to_f16", how);
    TAP_INT_EQ(badbn, 0, "fpconv_f32_to_bf16_n (simd %s) = dtype_f32_to_bf16", how);
    TAP_INT_EQ(badr, 0, "fpconv_round_f16_n (simd %s) = dtype.c's float16 round trip", how);
    TAP_INT_EQ(badbr, 0, "fpconv_round_bf16_n (simd %s) = dtype.c's bfloat16 round trip", how);
    free(src);
    free(rt);
    free(rtb);
    free(h);
    free(b);
}

/* float64 narrows to dtype.c's bits, rounding once: around every float16
 * and bfloat16 tie (where rounding through float32 would differ), and on
 * random patterns of every exponent. */
static void test_narrow64(void)
{
    int bad = 0, badb = 0, cases = 0;
    for (int i = 0; i < 2600000; i++) {
        double d;
        if (i < 2 * 0x7c00 * 5) {
            /* the tie above float16 value h, nudged by -2..2 double ulps */
            uint32_t h = (uint32_t)(i / 10);
            double lo = dtype_f16_to_f32((uint16_t)h), hi = dtype_f16_to_f32((uint16_t)(h + 1));
            d = bits_f64(f64_bits((lo + hi) / 2) + (uint64_t)(i % 5) - 2);
            if (i % 10 >= 5)
                d = -d;
        } else if (i < 600000) {
            /* a bfloat16 tie nudged the same way */
            uint32_t b = (uint32_t)(next_random() % 0x7f80u);
            double lo = dtype_bf16_to_f32((uint16_t)b);
            double hi = dtype_bf16_to_f32((uint16_t)(b + 1));
            d = bits_f64(f64_bits((lo + hi) / 2) + next_random() % 5 - 2);
        } else if (i < 1600000) {
            /* random bits with an exponent near float16's and bfloat16's range */
            uint64_t u = next_random();
            uint64_t e = 1023 - 140 + next_random() % 290;
            d = bits_f64((u & 0x800fffffffffffffu) | e << 52);
        } else {
            d = bits_f64(next_random());        /* anything: NaNs, infinities, tiny, huge */
        }
        cases++;
        bad += fpconv_f64_to_f16(d) != dtype_f64_to_f16(d);
        badb += fpconv_f64_to_bf16(d) != dtype_f64_to_bf16(d);
    }
    const double special[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, -NAN, 65504.0, 65520.0,
                              65519.999, 0x1p-24, 0x1p-25, 0x1.0000000001p-25, 0x1p-14,
                              0x1p-1074, 0x1p-133, 0x1p-134, 0x1.0000000001p-134, 0x1p-126,
                              0x1.fep127, 0x1.feffffffffp127, DBL_MAX};
    for (size_t i = 0; i < sizeof special / sizeof *special; i++) {
        cases++;
        bad += fpconv_f64_to_f16(special[i]) != dtype_f64_to_f16(special[i]);
        badb += fpconv_f64_to_bf16(special[i]) != dtype_f64_to_bf16(special[i]);
    }
    uint64_t nans[] = {0x7ff0000000000001u, 0x7ff4000000000000u, 0xfff8000000000001u,
                       0x7fffffffffffffffu, 0x7ff0040000000000u, 0xfff7ffffffffffffu};
    for (size_t i = 0; i < sizeof nans / sizeof *nans; i++) {
        cases++;
        bad += fpconv_f64_to_f16(bits_f64(nans[i])) != dtype_f64_to_f16(bits_f64(nans[i]));
        badb += fpconv_f64_to_bf16(bits_f64(nans[i])) != dtype_f64_to_bf16(bits_f64(nans[i]));
    }
    TAP_INT_EQ(bad, 0, "fpconv_f64_to_f16 = dtype_f64_to_f16 on %d float64 patterns", cases);
    TAP_INT_EQ(badb, 0, "fpconv_f64_to_bf16 = dtype_f64_to_bf16 on %d float64 patterns", cases);
    /* one rounding, not two: 1 + 2^-11 + 2^-40 is above the tie */
    TAP_INT_EQ(fpconv_f64_to_f16(1.0 + 0x1p-11 + 0x1p-40), 0x3c01,
               "float64 1 + 2^-11 + 2^-40 -> float16 rounds up (not through float32)");
    TAP_INT_EQ(fpconv_f64_to_bf16(1.0 + 0x1p-8 + 0x1p-40), 0x3f81,
               "float64 1 + 2^-8 + 2^-40 -> bfloat16 rounds up (not through float32)");
}

int main(void)
{
    make_patterns32();
    test_widen(true);
    test_widen(false);
    test_narrow32(true);
    test_narrow32(false);
    test_narrow64();
    free(pats32);
    return tap_done();
}
