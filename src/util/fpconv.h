/* fpconv.h - fast conversions between float16/bfloat16 bit patterns and
 * float32/float64, one element inline and whole arrays, for the loops that
 * convert many elements (the CPU executor's fp16/bf16 loads, stores and
 * casts; host tensor copies).
 *
 * Every function gives exactly the bits of dtype.c's conversions
 * (dtype_f16_to_f32, dtype_f32_to_f16, dtype_f64_to_f16, ...): widening is
 * exact, a NaN keeps its payload; narrowing rounds once to nearest even
 * from the source value (float64 -> float16 never goes through float32),
 * too large is infinity, and a NaN becomes a quiet NaN that keeps the
 * payload's top bits.  tests/unit/test_dtype.c compares them with dtype.c
 * on every 16-bit pattern and many float32/float64 ones.
 *
 * The array functions use the processor's F16C conversions where it has
 * them (checked at run time; they round the same way, and a signalling
 * float16 NaN, which they would make quiet, takes the scalar path). */
#ifndef TRITSIM_FPCONV_H
#define TRITSIM_FPCONV_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* ---- one element ---------------------------------------------------------- */

/* float32 to float16 bits. */
static inline uint16_t fpconv_f32_to_f16(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    uint32_t sign = (u >> 16) & 0x8000u, a = u & 0x7fffffffu, h;
    if (a > 0x7f800000u) {                  /* NaN: quiet, top payload bits */
        h = 0x7e00u | ((a >> 13) & 0x3ffu);
    } else if (a >= 0x477ff000u) {          /* 65520 and up round to infinity */
        h = 0x7c00u;
    } else if (a >= 0x38800000u) {          /* a normal float16 */
        /* rebias the exponent, round the 13 dropped bits to nearest even */
        h = (a - 0x38000000u + 0xfffu + ((a >> 13) & 1u)) >> 13;
    } else {
        /* a subnormal (or zero, or 2^-14 after rounding): adding 0.5 puts
         * float16's subnormal step 2^-24 in the last place of the float,
         * and the addition rounds to nearest even */
        float m;
        uint32_t tb;
        memcpy(&m, &a, sizeof m);
        m += 0.5f;
        memcpy(&tb, &m, sizeof tb);
        h = tb - 0x3f000000u;
    }
    return (uint16_t)(sign | h);
}

/* float64 to float16 bits, rounded once from the double. */
static inline uint16_t fpconv_f64_to_f16(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    uint32_t sign = (uint32_t)(u >> 48) & 0x8000u, h;
    uint64_t a = u & 0x7fffffffffffffffu;
    if (a > 0x7ff0000000000000u) {                  /* NaN */
        h = 0x7e00u | (uint32_t)((a >> 42) & 0x3ffu);
    } else if (a >= 0x40effe0000000000u) {          /* 65520 and up */
        h = 0x7c00u;
    } else if (a >= 0x3f10000000000000u) {          /* 2^-14 and up: normal */
        h = (uint32_t)((a - 0x3f00000000000000u + 0x1ffffffffffu + ((a >> 42) & 1u)) >> 42);
    } else {
        /* subnormal: 2^28 has float16's step 2^-24 as its last place */
        double m;
        uint64_t tb;
        memcpy(&m, &a, sizeof m);
        m += 0x1p28;
        memcpy(&tb, &m, sizeof tb);
        h = (uint32_t)(tb - 0x41b0000000000000u);
    }
    return (uint16_t)(sign | h);
}

/* float16 bits to float32, exactly. */
static inline float fpconv_f16_to_f32(uint16_t x)
{
    uint32_t sign = (uint32_t)(x & 0x8000u) << 16, e = (x >> 10) & 0x1fu, m = x & 0x3ffu;
    uint32_t bits;
    float f;
    if (e == 0) {
        /* m * 2^-24, exactly: 0.5 + m * 2^-24 less 0.5 */
        bits = 0x3f000000u | m;
        memcpy(&f, &bits, sizeof f);
        f -= 0.5f;
        memcpy(&bits, &f, sizeof bits);
        bits |= sign;
    } else if (e == 0x1f) {
        bits = sign | 0x7f800000u | (m << 13);
    } else {
        bits = sign | (((x & 0x7fffu) << 13) + 0x38000000u);    /* rebias */
    }
    memcpy(&f, &bits, sizeof f);
    return f;
}

/* float32 to bfloat16 bits: bfloat16 has float32's exponent, so the 16
 * dropped bits round to nearest even (into the exponent, up to infinity,
 * as needed). */
static inline uint16_t fpconv_f32_to_bf16(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    if ((u & 0x7fffffffu) > 0x7f800000u)
        return (uint16_t)((u >> 16) | 0x40u);
    return (uint16_t)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

/* float64 to bfloat16 bits, rounded once from the double. */
static inline uint16_t fpconv_f64_to_bf16(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    uint32_t sign = (uint32_t)(u >> 48) & 0x8000u, h;
    uint64_t a = u & 0x7fffffffffffffffu;
    if (a > 0x7ff0000000000000u) {                  /* NaN */
        h = 0x7fc0u | (uint32_t)((a >> 45) & 0x7fu);
    } else if (a >= 0x47eff00000000000u) {          /* (2 - 2^-8) * 2^127 and up */
        h = 0x7f80u;
    } else if (a >= 0x3810000000000000u) {          /* 2^-126 and up: normal */
        h = (uint32_t)((a - 0x3800000000000000u + 0xfffffffffffu + ((a >> 45) & 1u)) >> 45);
    } else {
        /* subnormal: 2^-81 has bfloat16's step 2^-133 as its last place */
        double m;
        uint64_t tb;
        memcpy(&m, &a, sizeof m);
        m += 0x1p-81;
        memcpy(&tb, &m, sizeof tb);
        h = (uint32_t)(tb - 0x3ae0000000000000u);
    }
    return (uint16_t)(sign | h);
}

/* bfloat16 bits to float32, exactly. */
static inline float fpconv_bf16_to_f32(uint16_t b)
{
    uint32_t u = (uint32_t)b << 16;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* ---- arrays (contiguous; src and dst do not overlap) ---------------------- */

/* The 16-bit side may have any alignment (it is tensor memory); the float
 * side is an aligned float array. */
void fpconv_f16_to_f32_n(float *dst, const void *src, int64_t n);
void fpconv_f32_to_f16_n(void *dst, const float *src, int64_t n);
void fpconv_bf16_to_f32_n(float *dst, const void *src, int64_t n);
void fpconv_f32_to_bf16_n(void *dst, const float *src, int64_t n);

/* p[i] = p[i] rounded to the nearest float16 (bfloat16) value, in place:
 * the float32 -> float16 -> float32 round trip. */
void fpconv_round_f16_n(float *p, int64_t n);
void fpconv_round_bf16_n(float *p, int64_t n);

/* Whether the array functions may use the processor's conversion
 * instructions (default: yes, where it has them); the unit tests turn them
 * off to check the portable loops too. */
void fpconv_set_simd(bool on);

#endif
