/* fpconv.c - the array conversions of fpconv.h: plain loops of its inline
 * element conversions, and on x86 processors with F16C (checked at run
 * time) the same float16 conversions eight elements at a time.  The F16C
 * instructions round to nearest even as the loops do and make the same
 * quiet NaNs from float32; only a signalling float16 NaN differs (they
 * make it quiet, dtype.c keeps it), so a group of eight holding an
 * infinity or a signalling NaN is converted by the loop instead. */
#include "fpconv.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define FPCONV_X86 1
#endif

static bool simd_off;

/* Element i of a 16-bit array of any alignment, and back. */
static inline uint16_t get16(const void *p, int64_t i)
{
    uint16_t v;
    memcpy(&v, (const unsigned char *)p + 2 * i, sizeof v);
    return v;
}

static inline void put16(void *p, int64_t i, uint16_t v)
{
    memcpy((unsigned char *)p + 2 * i, &v, sizeof v);
}

void fpconv_set_simd(bool on)
{
    simd_off = !on;
}

#ifdef FPCONV_X86

static bool has_f16c(void)
{
    return !simd_off && __builtin_cpu_supports("avx") && __builtin_cpu_supports("f16c");
}

/* Elements [0, return value) converted, a multiple of 8 (the loop in the
 * caller does the rest, and the groups of 8 it skipped). */
__attribute__((target("avx,f16c")))
static int64_t f16_to_f32_x86(float *dst, const void *src, int64_t n)
{
    const __m128i expo = _mm_set1_epi16(0x7e00), infq = _mm_set1_epi16(0x7c00);
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m128i h = _mm_loadu_si128((const __m128i *)(const void *)((const unsigned char *)src + 2 * i));
        /* exponent all ones and quiet bit clear: an infinity or a
         * signalling NaN */
        __m128i odd = _mm_cmpeq_epi16(_mm_and_si128(h, expo), infq);
        if (_mm_movemask_epi8(odd)) {
            for (int64_t j = i; j < i + 8; j++)
                dst[j] = fpconv_f16_to_f32(get16(src, j));
            continue;
        }
        _mm256_storeu_ps(dst + i, _mm256_cvtph_ps(h));
    }
    return i;
}

__attribute__((target("avx,f16c")))
static int64_t f32_to_f16_x86(void *dst, const float *src, int64_t n)
{
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256 f = _mm256_loadu_ps(src + i);
        __m128i h = _mm256_cvtps_ph(f, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
        _mm_storeu_si128((__m128i *)(void *)((unsigned char *)dst + 2 * i), h);
    }
    return i;
}

/* The round trip: the float16 made from a float32 is never a signalling
 * NaN, so the way back needs no check. */
__attribute__((target("avx,f16c")))
static int64_t round_f16_x86(float *p, int64_t n)
{
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256 f = _mm256_loadu_ps(p + i);
        __m128i h = _mm256_cvtps_ph(f, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
        _mm256_storeu_ps(p + i, _mm256_cvtph_ps(h));
    }
    return i;
}

#else

static bool has_f16c(void)
{
    return false;
}

static int64_t f16_to_f32_x86(float *dst, const void *src, int64_t n)
{
    (void)dst, (void)src, (void)n;
    return 0;
}

static int64_t f32_to_f16_x86(void *dst, const float *src, int64_t n)
{
    (void)dst, (void)src, (void)n;
    return 0;
}

static int64_t round_f16_x86(float *p, int64_t n)
{
    (void)p, (void)n;
    return 0;
}

#endif

void fpconv_f16_to_f32_n(float *dst, const void *src, int64_t n)
{
    int64_t i = has_f16c() ? f16_to_f32_x86(dst, src, n) : 0;
    for (; i < n; i++)
        dst[i] = fpconv_f16_to_f32(get16(src, i));
}

void fpconv_f32_to_f16_n(void *dst, const float *src, int64_t n)
{
    int64_t i = has_f16c() ? f32_to_f16_x86(dst, src, n) : 0;
    for (; i < n; i++)
        put16(dst, i, fpconv_f32_to_f16(src[i]));
}

void fpconv_round_f16_n(float *p, int64_t n)
{
    int64_t i = has_f16c() ? round_f16_x86(p, n) : 0;
    for (; i < n; i++)
        p[i] = fpconv_f16_to_f32(fpconv_f32_to_f16(p[i]));
}

void fpconv_bf16_to_f32_n(float *dst, const void *src, int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        dst[i] = fpconv_bf16_to_f32(get16(src, i));
}

void fpconv_f32_to_bf16_n(void *dst, const float *src, int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        put16(dst, i, fpconv_f32_to_bf16(src[i]));
}

void fpconv_round_bf16_n(float *p, int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        p[i] = fpconv_bf16_to_f32(fpconv_f32_to_bf16(p[i]));
}
