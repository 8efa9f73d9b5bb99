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
 * generator's order, a block of pairs at a time, into a buffer; each
 * pair then makes elements 2i and 2i + 1 (after the spare left by the
 * last call, which comes first), and an odd last one leaves its sine as
 * the next spare, as next_normal does. */
enum { NORMAL_BLOCK = 1 << 17, NORMAL_PIECE = 2048 };  /* pairs drawn at a time, per item */

typedef struct normal_job {
    const tensor_iter *it;
    int64_t len;
    const int64_t *step;
    dtype type;
    double mean, std;
    const double *u;          /* 2 per pair: u1 (in (0, 1]) and u2 */
    int64_t pair0;            /* the block's first pair */
    int64_t npairs;           /* in the block */
    int64_t lead;             /* elements before pair 0 (the old spare) */
    int64_t numel;
    int64_t piece;            /* pairs per item */
    double last_sin;          /* the sine of an odd last pair */
} normal_job;

/* The values of one item: elements [lo, lo + n) of the walk. */
typedef struct normal_vals {
    const double *v;
    int64_t lo;
    dtype type;
} normal_vals;

static void normal_seg(void *ctx, unsigned char *const *ptr, const int64_t *step, int64_t first,
                       int64_t n)
{
    const normal_vals *nv = ctx;
    tensor_loop_store_f64(nv->type, ptr[0], step[0], nv->v + (first - nv->lo), n);
}

static void normal_item(void *ctx, int64_t item)
{
    normal_job *j = ctx;
    int64_t k0 = item * j->piece;
    int64_t k1 = k0 + j->piece < j->npairs ? k0 + j->piece : j->npairs;
    double v[2 * NORMAL_PIECE];
    const double two_pi = 6.283185307179586476925;
    for (int64_t k = k0; k < k1; k++) {
        double u1 = j->u[2 * k], u2 = j->u[2 * k + 1];
        double r = sqrt(-2.0 * log(u1));
        double s = r * sin(two_pi * u2);
        double c = r * cos(two_pi * u2);
        v[2 * (k - k0)] = j->mean + j->std * c;
        v[2 * (k - k0) + 1] = j->mean + j->std * s;
        if (k == j->npairs - 1)
            j->last_sin = s;
    }
    int64_t lo = j->lead + 2 * (j->pair0 + k0), hi = j->lead + 2 * (j->pair0 + k1);
    if (hi > j->numel)            /* an odd last pair: its sine is the spare */
        hi = j->numel;
    normal_vals nv = {v, lo, j->type};
    tensor_par_range(j->it, j->len, j->step, lo, hi, normal_seg, &nv);
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
    double *u = xmalloc(sizeof *u * 2 * (size_t)(pairs < NORMAL_BLOCK ? pairs : NORMAL_BLOCK));
    normal_job j = {.it = &it, .len = len, .step = step, .type = t->type, .mean = mean,
                    .std = std, .u = u, .lead = lead, .numel = numel};
    for (int64_t p0 = 0; p0 < pairs; p0 += NORMAL_BLOCK) {
        int64_t np = pairs - p0 < NORMAL_BLOCK ? pairs - p0 : NORMAL_BLOCK;
        for (int64_t k = 0; k < np; k++) {
            u[2 * k] = 1.0 - next_unit(53);
            u[2 * k + 1] = next_unit(53);
        }
        j.pair0 = p0;
        j.npairs = np;
        j.piece = NORMAL_PIECE;
        tensor_par_for((np + j.piece - 1) / j.piece, normal_item, &j);
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
