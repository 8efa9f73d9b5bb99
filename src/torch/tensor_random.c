/* tensor_random.c - the random numbers of torch.rand, randn, randint,
 * randperm and friends.
 *
 * One generator for the whole program, xoshiro256** (Blackman and Vigna),
 * whose 256-bit state is filled from the 64-bit seed by splitmix64, as its
 * authors recommend.  torch.manual_seed(s) reseeds it; before that it
 * starts from torch's default seed, so a program always draws the same
 * numbers.  The numbers are good, but not PyTorch's: a program that prints
 * random tensors prints other values than under PyTorch.
 *
 * Uniform floats take as many random bits as their type has significand
 * bits (24 for float32, 11 for float16...), so they are exact multiples of
 * 2^-bits in [0, 1) before scaling.  Normal numbers come from the
 * Box-Muller transform in double precision. */
#include "tensor.h"

#include <math.h>
#include <stdlib.h>

#include "arena.h"

#include "tensor_loops.h"
#include "tensor_par.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define NORMAL_X86 1
#endif

#define TORCH_DEFAULT_SEED 67280421310721ULL

static uint64_t rng_state[4];
static uint64_t rng_seed;
static bool rng_ready;
static bool spare_ready;     /* Box-Muller makes two numbers at a time */
static double spare;

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void tensor_manual_seed(uint64_t seed)
{
    uint64_t x = seed;
    for (int i = 0; i < 4; i++)
        rng_state[i] = splitmix64(&x);
    rng_seed = seed;
    rng_ready = true;
    spare_ready = false;
}

uint64_t tensor_initial_seed(void)
{
    return rng_ready ? rng_seed : TORCH_DEFAULT_SEED;
}

static inline uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

static uint64_t next_u64(void)
{
    if (!rng_ready)
        tensor_manual_seed(TORCH_DEFAULT_SEED);
    uint64_t *s = rng_state;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

/* A uniform number in [0, 1) with the given number of random bits. */
static double next_unit(int bits)
{
    /* 2^-bits as a product of powers of two (exact), not ldexp: a call per
     * number was a tenth of randn's time */
    return (double)(next_u64() >> (64 - bits)) * (0x1p-64 * (double)(UINT64_C(1) << (64 - bits)));
}

/* A uniform integer in [0, range) without modulo bias. */
static uint64_t next_below(uint64_t range)
{
    if (range == 0)
        return next_u64();
    uint64_t limit = UINT64_MAX - UINT64_MAX % range;
    uint64_t x;
    do
        x = next_u64();
    while (x >= limit);
    return x % range;
}

static double next_normal(void)
{
    if (spare_ready) {
        spare_ready = false;
        return spare;
    }
    double u1 = 1.0 - next_unit(53);    /* (0, 1]: log never sees 0 */
    double u2 = next_unit(53);
    double r = sqrt(-2.0 * log(u1));
    const double two_pi = 6.283185307179586476925;
    spare = r * sin(two_pi * u2);
    spare_ready = true;
    return r * cos(two_pi * u2);
}

/* Store a double into every element of t, one fresh value per element. */
static void fill_with(tensor *t, double (*gen)(const void *), const void *ctx)
{
    tensor_iter it;
    tensor_iter_init(&it, t->ndim, t->shape);
    tensor_iter_add_tensor(&it, t);
    if (tensor_loop_float(t->type)) {
        /* a chunk of values at a time, each rounded once to t's dtype */
        int64_t len, step[TENSOR_ITER_OPS];
        tensor_iter_runs(&it, &len, step);
        double buf[TENSOR_LOOP_CHUNK];
        for (int64_t r = 0; r < it.numel; r++, tensor_iter_next(&it))
            for (int64_t done = 0; done < len; done += TENSOR_LOOP_CHUNK) {
                int64_t m = len - done < TENSOR_LOOP_CHUNK ? len - done : TENSOR_LOOP_CHUNK;
                for (int64_t i = 0; i < m; i++)
                    buf[i] = gen(ctx);
                tensor_loop_store_f64(t->type, tensor_iter_ptr(&it, 0) + done * step[0],
                                      step[0], buf, m);
            }
        return;
    }
    for (int64_t i = 0; i < it.numel; i++, tensor_iter_next(&it)) {
        dtype_scalar v = {.f = gen(ctx)};
        dtype_store(t->type, tensor_iter_ptr(&it, 0), dtype_cast(v, DTYPE_FP64, t->type));
    }
}

typedef struct span { double a, b; int bits; } span;

static double gen_uniform(const void *ctx)
{
    const span *s = ctx;
    return next_unit(s->bits) * (s->b - s->a) + s->a;
}

static double gen_normal(const void *ctx)
{
    const span *s = ctx;
    return s->a + s->b * next_normal();
}

void tensor_fill_uniform(tensor *t, double lo, double hi)
{
    int bits = dtype_is_float(t->type) ? dtype_mantissa_bits(t->type) + 1 : 53;
    span s = {lo, hi, bits};
    fill_with(t, gen_uniform, &s);
}

/* ---- normal numbers over threads ---------------------------------------------- */

/* tensor_fill_normal on a float tensor: the same numbers as fill_with's
 * gen_normal, with Box-Muller's logarithms, square roots and sines over
 * the host threads (tensor_par.h).  The uniform numbers are drawn in the
 * generator's order, a block of pairs at a time, into two buffers; each
 * pair then makes elements 2i and 2i + 1 (after the spare left by the
 * last call, which comes first), and an odd last one leaves its sine as
 * the next spare, as next_normal does.
 *
 * For float16, bfloat16 and float32 tensors (the element rounds from the
 * double) the pairs go four at a time through normal_fast_x86 where the
 * processor has AVX2 and FMA: polynomial logarithms, sines and cosines
 * whose error is far below a bound E on the distance of the computed
 * value from the exact one (libm's, as gen_normal computes it).  When
 * both ends of [v - E, v + E] round to the same float32 g, and g is no
 * tie between two values of the tensor's dtype (nor near its edges), the
 * exact value rounds to the same element as g: rounding is monotone, and
 * a tie of the narrower dtype lying between v and g would be a float32
 * nearer to v than g.  Any other pair (about one in a million for
 * float16; one in a few thousand for float32) is computed the plain way.
 * The bits are gen_normal's in every case. */
enum { NORMAL_BLOCK = 1 << 17, NORMAL_PIECE = 2048 };  /* pairs drawn at a time, per item */

typedef struct normal_job {
    const tensor_iter *it;
    int64_t len;
    const int64_t *step;
    dtype type;
    double mean, std;
    const double *u1, *u2;    /* per pair: u1 in (0, 1], u2 in [0, 1) */
    double *next1, *next2;    /* item 0 draws the next block's into these */
    int64_t next_pairs;       /* (its pairs; 0: none) */
    int64_t pair0;            /* the block's first pair */
    int64_t npairs;           /* in the block */
    int64_t lead;             /* elements before pair 0 (the old spare) */
    int64_t numel;
    int64_t piece;            /* pairs per item */
    bool fast;                /* normal_fast_x86 applies */
    double last_sin;          /* the sine of an odd last pair */
} normal_job;

static bool normal_simd_off;

void tensor_random_set_simd(bool on)
{
    normal_simd_off = !on;
}

/* The two numbers of a pair as gen_normal makes them; returns the sine's. */
static double normal_pair(double u1, double u2, double mean, double std, double *vc, double *vs)
{
    const double two_pi = 6.283185307179586476925;
    double r = sqrt(-2.0 * log(u1));
    double s = r * sin(two_pi * u2);
    double c = r * cos(two_pi * u2);
    *vc = mean + std * c;
    *vs = mean + std * s;
    return s;
}

/* A float32 that rounds to the element that v rounds to in dtype t
 * (float16, bfloat16 or float32). */
static float normal_as_float(dtype t, double v)
{
    if (t == DTYPE_FP16)
        return fpconv_f16_to_f32(fpconv_f64_to_f16(v));
    if (t == DTYPE_BF16)
        return fpconv_bf16_to_f32(fpconv_f64_to_bf16(v));
    return (float)v;
}

/* Pair k (of u1, u2) the plain way into out[2k], out[2k + 1]; returns the
 * sine's number. */
static double normal_pair_float(const normal_job *j, int64_t k, float *out)
{
    double vc, vs, s = normal_pair(j->u1[k], j->u2[k], j->mean, j->std, &vc, &vs);
    out[2 * k] = normal_as_float(j->type, vc);
    out[2 * k + 1] = normal_as_float(j->type, vs);
    return s;
}

#ifdef NORMAL_X86

/* Whether normal_fast_x86 applies to dtype t with mean and std: the
 * processor has it, t is float16/bfloat16/float32, mean and std are
 * finite and of a size that keeps every value far from overflow. */
static bool normal_fast_ok(dtype t, double mean, double std)
{
    return !normal_simd_off && (t == DTYPE_FP16 || t == DTYPE_BF16 || t == DTYPE_FP32) &&
           fabs(mean) <= 1e30 && fabs(std) <= 1e30 && __builtin_cpu_supports("avx2") &&
           __builtin_cpu_supports("fma");
}

/* Pairs [k0, k1) of j four at a time into out[2k], out[2k + 1] (float32s
 * that round to the elements, as normal_pair_float makes them); returns
 * the first pair not done (the caller does the last few).
 *
 * log(u1): u1 = 2^e m with m in [sqrt(1/2), sqrt(2)), log m = 2 atanh(f),
 * f = (m - 1) / (m + 1), |f| <= 0.172, by its series to f^21 (the rest is
 * below 1e-17 relative).  sin and cos of x = 2 pi u2 (the same double
 * product as gen_normal's): x - k pi/2 in three parts (|r| <= pi/4 + a
 * little), Taylor's series of sin to r^15 and of cos to r^16 (the rest
 * below 5e-17), the quadrant k choosing and negating them.  Each value is
 * within a few units in the last place of the double of libm's (the sine
 * and cosine within 1e-15, r within 2e-15 of its size: the value within
 * 4e-15 (|mean| + |std| (r + 1)) by the sum of the steps' roundings; over
 * 10^7 pairs of the unit tests the largest was 3.6e-16 of it), and the bound E = 2^-44
 * (|mean| + |std| (r + 1)) = 5.7e-14 (...) is more than ten times that. */
__attribute__((target("avx2,fma")))
static int64_t normal_fast_x86(const normal_job *j, int64_t k0, int64_t k1, float *out)
{
    const __m256d one = _mm256_set1_pd(1.0), half = _mm256_set1_pd(0.5);
    const __m256d vmean = _mm256_set1_pd(j->mean), vstd = _mm256_set1_pd(j->std);
    const __m256d amean = _mm256_set1_pd(fabs(j->mean)), astd = _mm256_set1_pd(fabs(j->std));
    const __m256d signbit = _mm256_castsi256_pd(_mm256_set1_epi64x((long long)0x8000000000000000ULL));
    /* the float32 patterns that stand for one element of the dtype: at
     * least lo and at most hi in magnitude, and no tie (bits under tmask
     * equal to tval) */
    int32_t lo, hi, tmask, tval;
    if (j->type == DTYPE_FP16)
        lo = 0x38800000, hi = 0x477fe000, tmask = 0x1fff, tval = 0x1000;
    else if (j->type == DTYPE_BF16)
        lo = 0x00800000, hi = 0x7effffff, tmask = 0xffff, tval = 0x8000;
    else
        lo = 0x00800000, hi = 0x7f7fffff, tmask = 0, tval = 1;
    const __m128i vlo = _mm_set1_epi32(lo - 1), vhi = _mm_set1_epi32(hi + 1);
    const __m128i vtmask = _mm_set1_epi32(tmask), vtval = _mm_set1_epi32(tval);
    const __m128i abs32 = _mm_set1_epi32(0x7fffffff);
    int64_t k = k0;
    for (; k + 4 <= k1; k += 4) {
        __m256d u1 = _mm256_loadu_pd(j->u1 + k), u2 = _mm256_loadu_pd(j->u2 + k);
        /* log(u1) */
        __m256i bits = _mm256_castpd_si256(u1);
        __m256d ef = _mm256_sub_pd(
            _mm256_castsi256_pd(_mm256_or_si256(_mm256_srli_epi64(bits, 52),
                                                _mm256_set1_epi64x(0x4330000000000000LL))),
            _mm256_set1_pd(0x1p52 + 1023.0));
        __m256d m = _mm256_castsi256_pd(
            _mm256_or_si256(_mm256_and_si256(bits, _mm256_set1_epi64x(0x000fffffffffffffLL)),
                            _mm256_set1_epi64x(0x3ff0000000000000LL)));
        __m256d big = _mm256_cmp_pd(m, _mm256_set1_pd(1.4142135623730951), _CMP_GT_OQ);
        m = _mm256_blendv_pd(m, _mm256_mul_pd(m, half), big);
        ef = _mm256_add_pd(ef, _mm256_and_pd(big, one));
        __m256d f = _mm256_div_pd(_mm256_sub_pd(m, one), _mm256_add_pd(m, one));
        __m256d z = _mm256_mul_pd(f, f);
        __m256d p = _mm256_set1_pd(1.0 / 21);
        p = _mm256_fmadd_pd(p, z, _mm256_set1_pd(1.0 / 19));
        p = _mm256_fmadd_pd(p, z, _mm256_set1_pd(1.0 / 17));
        p = _mm256_fmadd_pd(p, z, _mm256_set1_pd(1.0 / 15));
        p = _mm256_fmadd_pd(p, z, _mm256_set1_pd(1.0 / 13));
        p = _mm256_fmadd_pd(p, z, _mm256_set1_pd(1.0 / 11));
        p = _mm256_fmadd_pd(p, z, _mm256_set1_pd(1.0 / 9));
        p = _mm256_fmadd_pd(p, z, _mm256_set1_pd(1.0 / 7));
        p = _mm256_fmadd_pd(p, z, _mm256_set1_pd(1.0 / 5));
        p = _mm256_fmadd_pd(p, z, _mm256_set1_pd(1.0 / 3));
        __m256d f2 = _mm256_add_pd(f, f);
        __m256d lm = _mm256_fmadd_pd(_mm256_mul_pd(f2, z), p, f2);
        __m256d lg = _mm256_fmadd_pd(ef, _mm256_set1_pd(0.69314718055994530942), lm);
        __m256d r = _mm256_sqrt_pd(_mm256_mul_pd(lg, _mm256_set1_pd(-2.0)));
        /* sin and cos of x */
        __m256d x = _mm256_mul_pd(u2, _mm256_set1_pd(6.283185307179586476925));
        __m256d q = _mm256_round_pd(_mm256_mul_pd(x, _mm256_set1_pd(0.63661977236758134308)),
                                    _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
        __m256d t = _mm256_fnmadd_pd(q, _mm256_set1_pd(1.57079632673412561417e+00), x);
        t = _mm256_fnmadd_pd(q, _mm256_set1_pd(6.07710050630396597660e-11), t);
        t = _mm256_fnmadd_pd(q, _mm256_set1_pd(2.02226624871116645580e-21), t);
        __m256d t2 = _mm256_mul_pd(t, t);
        __m256d ps = _mm256_set1_pd(-1.0 / 1307674368000.0);
        ps = _mm256_fmadd_pd(ps, t2, _mm256_set1_pd(1.0 / 6227020800.0));
        ps = _mm256_fmadd_pd(ps, t2, _mm256_set1_pd(-1.0 / 39916800.0));
        ps = _mm256_fmadd_pd(ps, t2, _mm256_set1_pd(1.0 / 362880.0));
        ps = _mm256_fmadd_pd(ps, t2, _mm256_set1_pd(-1.0 / 5040.0));
        ps = _mm256_fmadd_pd(ps, t2, _mm256_set1_pd(1.0 / 120.0));
        ps = _mm256_fmadd_pd(ps, t2, _mm256_set1_pd(-1.0 / 6.0));
        __m256d sn = _mm256_fmadd_pd(_mm256_mul_pd(t, t2), ps, t);
        __m256d pc = _mm256_set1_pd(1.0 / 20922789888000.0);
        pc = _mm256_fmadd_pd(pc, t2, _mm256_set1_pd(-1.0 / 87178291200.0));
        pc = _mm256_fmadd_pd(pc, t2, _mm256_set1_pd(1.0 / 479001600.0));
        pc = _mm256_fmadd_pd(pc, t2, _mm256_set1_pd(-1.0 / 3628800.0));
        pc = _mm256_fmadd_pd(pc, t2, _mm256_set1_pd(1.0 / 40320.0));
        pc = _mm256_fmadd_pd(pc, t2, _mm256_set1_pd(-1.0 / 720.0));
        pc = _mm256_fmadd_pd(pc, t2, _mm256_set1_pd(1.0 / 24.0));
        pc = _mm256_fmadd_pd(pc, t2, _mm256_set1_pd(-0.5));
        __m256d cs = _mm256_fmadd_pd(t2, pc, one);
        /* quadrant q in 0..4: q odd swaps sin and cos; sin is negated for
         * q = 2, 3, cos for q = 1, 2 */
        __m256d q1 = _mm256_cmp_pd(q, one, _CMP_EQ_OQ);
        __m256d q2 = _mm256_cmp_pd(q, _mm256_set1_pd(2.0), _CMP_EQ_OQ);
        __m256d q3 = _mm256_cmp_pd(q, _mm256_set1_pd(3.0), _CMP_EQ_OQ);
        __m256d odd = _mm256_or_pd(q1, q3);
        __m256d sv = _mm256_blendv_pd(sn, cs, odd), cv = _mm256_blendv_pd(cs, sn, odd);
        sv = _mm256_xor_pd(sv, _mm256_and_pd(_mm256_or_pd(q2, q3), signbit));
        cv = _mm256_xor_pd(cv, _mm256_and_pd(_mm256_or_pd(q1, q2), signbit));
        /* the values, their bound, and the float32s at both ends */
        __m256d vc = _mm256_add_pd(vmean, _mm256_mul_pd(vstd, _mm256_mul_pd(r, cv)));
        __m256d vs = _mm256_add_pd(vmean, _mm256_mul_pd(vstd, _mm256_mul_pd(r, sv)));
        __m256d e = _mm256_mul_pd(_mm256_fmadd_pd(astd, _mm256_add_pd(r, one), amean),
                                  _mm256_set1_pd(0x1p-44));
        __m128 clo = _mm256_cvtpd_ps(_mm256_sub_pd(vc, e)), chi = _mm256_cvtpd_ps(_mm256_add_pd(vc, e));
        __m128 slo = _mm256_cvtpd_ps(_mm256_sub_pd(vs, e)), shi = _mm256_cvtpd_ps(_mm256_add_pd(vs, e));
        __m128i ci = _mm_castps_si128(clo), si = _mm_castps_si128(slo);
        __m128i ok = _mm_and_si128(_mm_cmpeq_epi32(ci, _mm_castps_si128(chi)),
                                   _mm_cmpeq_epi32(si, _mm_castps_si128(shi)));
        __m128i ca = _mm_and_si128(ci, abs32), sa = _mm_and_si128(si, abs32);
        ok = _mm_and_si128(ok, _mm_and_si128(_mm_cmpgt_epi32(ca, vlo), _mm_cmpgt_epi32(vhi, ca)));
        ok = _mm_and_si128(ok, _mm_and_si128(_mm_cmpgt_epi32(sa, vlo), _mm_cmpgt_epi32(vhi, sa)));
        ok = _mm_andnot_si128(_mm_cmpeq_epi32(_mm_and_si128(ci, vtmask), vtval), ok);
        ok = _mm_andnot_si128(_mm_cmpeq_epi32(_mm_and_si128(si, vtmask), vtval), ok);
        _mm_storeu_ps(out + 2 * k, _mm_unpacklo_ps(clo, slo));
        _mm_storeu_ps(out + 2 * k + 4, _mm_unpackhi_ps(clo, slo));
        int good = _mm_movemask_ps(_mm_castsi128_ps(ok));
        for (int i = 0; good != 0xf && i < 4; i++)
            if (!(good >> i & 1))
                normal_pair_float(j, k + i, out);
    }
    return k;
}
#else
static bool normal_fast_ok(dtype t, double mean, double std)
{
    (void)t, (void)mean, (void)std;
    return false;
}
#endif

/* The values of one item: elements [lo, lo + n) of the walk, as doubles
 * (v) or as float32s that round to them (f). */
typedef struct normal_vals {
    const double *v;
    const float *f;
    int64_t lo;
    dtype type;
} normal_vals;

static void normal_seg(void *ctx, unsigned char *const *ptr, const int64_t *step, int64_t first,
                       int64_t n)
{
    const normal_vals *nv = ctx;
    if (nv->f)
        tensor_loop_store_f32(nv->type, ptr[0], step[0], nv->f + (first - nv->lo), n);
    else
        tensor_loop_store_f64(nv->type, ptr[0], step[0], nv->v + (first - nv->lo), n);
}

static void normal_draw(double *u1, double *u2, int64_t n);

/* Item 0 draws the next block's uniforms (in the generator's order: the
 * blocks go one after the other) while the other items transform this
 * block's, piece item - 1 each. */
static void normal_item(void *ctx, int64_t item)
{
    normal_job *j = ctx;
    if (item == 0) {
        if (j->next_pairs)
            normal_draw(j->next1, j->next2, j->next_pairs);
        return;
    }
    item--;
    int64_t k0 = item * j->piece;
    int64_t k1 = k0 + j->piece < j->npairs ? k0 + j->piece : j->npairs;
    double v[2 * NORMAL_PIECE];
    float fv[2 * NORMAL_PIECE];
    normal_vals nv = {NULL, NULL, j->lead + 2 * (j->pair0 + k0), j->type};
    if (j->fast) {
        float *out = fv - 2 * k0;       /* out[2k] is pair k's */
        int64_t k = k0;
#ifdef NORMAL_X86
        k = normal_fast_x86(j, k0, k1, out);
#endif
        for (; k < k1; k++)
            normal_pair_float(j, k, out);
        if (k1 == j->npairs)
            j->last_sin = normal_pair_float(j, k1 - 1, out);
        nv.f = fv;
    } else {
        for (int64_t k = k0; k < k1; k++) {
            double s = normal_pair(j->u1[k], j->u2[k], j->mean, j->std, &v[2 * (k - k0)],
                                   &v[2 * (k - k0) + 1]);
            if (k == j->npairs - 1)
                j->last_sin = s;
        }
        nv.v = v;
    }
    int64_t hi = j->lead + 2 * (j->pair0 + k1);
    if (hi > j->numel)            /* an odd last pair: its sine is the spare */
        hi = j->numel;
    tensor_par_range(j->it, j->len, j->step, nv.lo, hi, normal_seg, &nv);
}

/* The uniform numbers of n pairs, in next_normal's order (next_unit(53)
 * with the generator's state in locals). */
static void normal_draw(double *u1, double *u2, int64_t n)
{
    if (!rng_ready)
        tensor_manual_seed(TORCH_DEFAULT_SEED);
    uint64_t s0 = rng_state[0], s1 = rng_state[1], s2 = rng_state[2], s3 = rng_state[3];
    for (int64_t k = 0; k < 2 * n; k++) {
        uint64_t result = rotl(s1 * 5, 7) * 9, t = s1 << 17;
        s2 ^= s0;
        s3 ^= s1;
        s1 ^= s2;
        s0 ^= s3;
        s2 ^= t;
        s3 = rotl(s3, 45);
        double unit = (double)(result >> 11) * 0x1p-53;
        if (k % 2)
            u2[k / 2] = unit;
        else
            u1[k / 2] = 1.0 - unit;
    }
    rng_state[0] = s0, rng_state[1] = s1, rng_state[2] = s2, rng_state[3] = s3;
}

static void fill_normal_par(tensor *t, double mean, double std)
{
    tensor_iter it;
    tensor_iter_init(&it, t->ndim, t->shape);
    tensor_iter_add_tensor(&it, t);
    int64_t len, step[TENSOR_ITER_OPS];
    tensor_iter_runs(&it, &len, step);
    int64_t numel = it.numel * len;
    if (numel == 0)
        return;
    int64_t lead = 0;
    if (spare_ready) {
        /* the first element is the spare: mean + std * spare */
        double v = mean + std * spare;
        tensor_loop_store_f64(t->type, tensor_iter_ptr(&it, 0), step[0], &v, 1);
        spare_ready = false;
        lead = 1;
    }
    int64_t pairs = (numel - lead + 1) / 2;
    size_t bl = (size_t)(pairs < NORMAL_BLOCK ? pairs : NORMAL_BLOCK);
    /* two blocks' uniforms: one transformed while the next is drawn */
    double *u = xmalloc(sizeof *u * 4 * bl), *cur = u, *nxt = u + 2 * bl;
    normal_job j = {.it = &it, .len = len, .step = step, .type = t->type, .mean = mean,
                    .std = std, .lead = lead, .numel = numel,
                    .fast = normal_fast_ok(t->type, mean, std)};
    normal_draw(cur, cur + bl, pairs < NORMAL_BLOCK ? pairs : NORMAL_BLOCK);
    for (int64_t p0 = 0; p0 < pairs; p0 += NORMAL_BLOCK) {
        int64_t np = pairs - p0 < NORMAL_BLOCK ? pairs - p0 : NORMAL_BLOCK;
        int64_t left = pairs - p0 - np;
        j.u1 = cur;
        j.u2 = cur + bl;
        j.next1 = nxt;
        j.next2 = nxt + bl;
        j.next_pairs = left < NORMAL_BLOCK ? left : NORMAL_BLOCK;
        j.pair0 = p0;
        j.npairs = np;
        j.piece = NORMAL_PIECE;
        tensor_par_for(1 + (np + j.piece - 1) / j.piece, normal_item, &j);
        double *w = cur;
        cur = nxt;
        nxt = w;
    }
    free(u);
    if ((numel - lead) % 2) {
        spare = j.last_sin;
        spare_ready = true;
    }
}

void tensor_fill_normal(tensor *t, double mean, double std)
{
    if (tensor_loop_float(t->type) && tensor_par_threads() != 0) {
        fill_normal_par(t, mean, std);
        return;
    }
    span s = {mean, std, 53};
    fill_with(t, gen_normal, &s);
}

void tensor_fill_randint(tensor *t, int64_t low, int64_t high)
{
    uint64_t range = (uint64_t)high - (uint64_t)low;
    tensor_iter it;
    tensor_iter_init(&it, t->ndim, t->shape);
    tensor_iter_add_tensor(&it, t);
    for (int64_t i = 0; i < it.numel; i++, tensor_iter_next(&it)) {
        dtype_scalar v = {.i = (int64_t)((uint64_t)low + next_below(range))};
        dtype_store(t->type, tensor_iter_ptr(&it, 0), dtype_cast(v, DTYPE_INT64, t->type));
    }
}

void tensor_fill_randperm(tensor *t)
{
    int64_t n = tensor_numel(t);
    int64_t *p = malloc(sizeof *p * (size_t)(n ? n : 1));
    if (!p)
        return;
    for (int64_t i = 0; i < n; i++)
        p[i] = i;
    for (int64_t i = n - 1; i > 0; i--) {      /* Fisher-Yates */
        int64_t j = (int64_t)next_below((uint64_t)i + 1);
        int64_t x = p[i];
        p[i] = p[j];
        p[j] = x;
    }
    for (int64_t i = 0; i < n; i++)
        tensor_set(t, &i, dtype_cast((dtype_scalar){.i = p[i]}, DTYPE_INT64, t->type));
    free(p);
}
