/* randommod.c - the random module: a bit-exact copy of CPython's Mersenne
 * Twister (seed, random, getrandbits) and the functions built on it as
 * CPython builds them (randrange, randint, choice, shuffle, sample, gauss,
 * ...), so that a seeded program draws what python3 draws. */
#define _DEFAULT_SOURCE   /* M_PI */
#include "builtins_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---- random: CPython's Mersenne Twister, bit for bit ------------------------------------ */

enum { MT_N = 624, MT_M = 397 };

static struct {
    uint32_t mt[MT_N];
    int mti;
    bool seeded;
    bool has_gauss;
    double gauss_next;
} builtin_mt;

static void builtin_mt_init(uint32_t s)
{
    builtin_mt.mt[0] = s;
    for (int i = 1; i < MT_N; i++)
        builtin_mt.mt[i] = 1812433253U * (builtin_mt.mt[i - 1] ^ (builtin_mt.mt[i - 1] >> 30)) +
                           (uint32_t)i;
    builtin_mt.mti = MT_N;
}

static void builtin_mt_init_by_array(const uint32_t *key, size_t len)
{
    builtin_mt_init(19650218U);
    uint32_t *mt = builtin_mt.mt;
    size_t i = 1, j = 0;
    for (size_t k = MT_N > len ? MT_N : len; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525U)) + key[j] + (uint32_t)j;
        i++;
        j++;
        if (i >= MT_N) {
            mt[0] = mt[MT_N - 1];
            i = 1;
        }
        if (j >= len)
            j = 0;
    }
    for (size_t k = MT_N - 1; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941U)) - (uint32_t)i;
        i++;
        if (i >= MT_N) {
            mt[0] = mt[MT_N - 1];
            i = 1;
        }
    }
    mt[0] = 0x80000000U;
    builtin_mt.seeded = true;
    builtin_mt.has_gauss = false;
}

static void builtin_mt_seed_int(uint64_t u)
{
    uint32_t key[2] = {(uint32_t)u, (uint32_t)(u >> 32)};
    builtin_mt_init_by_array(key, key[1] ? 2 : 1);
}

static uint32_t builtin_mt_next(void)
{
    static const uint32_t mag01[2] = {0, 0x9908b0dfU};
    uint32_t *mt = builtin_mt.mt;
    if (!builtin_mt.seeded)
        builtin_mt_seed_int((uint64_t)builtin_time_ns() ^ (uint64_t)getpid());
    if (builtin_mt.mti >= MT_N) {
        int kk;
        uint32_t y;
        for (kk = 0; kk < MT_N - MT_M; kk++) {
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
            mt[kk] = mt[kk + MT_M] ^ (y >> 1) ^ mag01[y & 1];
        }
        for (; kk < MT_N - 1; kk++) {
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
            mt[kk] = mt[kk + (MT_M - MT_N)] ^ (y >> 1) ^ mag01[y & 1];
        }
        y = (mt[MT_N - 1] & 0x80000000U) | (mt[0] & 0x7fffffffU);
        mt[MT_N - 1] = mt[MT_M - 1] ^ (y >> 1) ^ mag01[y & 1];
        builtin_mt.mti = 0;
    }
    uint32_t y = mt[builtin_mt.mti++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= y >> 18;
    return y;
}

static double builtin_mt_random(void)
{
    uint32_t a = builtin_mt_next() >> 5, b = builtin_mt_next() >> 6;
    return ((double)a * 67108864.0 + (double)b) * (1.0 / 9007199254740992.0);
}

/* getrandbits(k) for 0 < k <= 64: 32-bit words, least significant first. */
static uint64_t builtin_mt_bits(int k)
{
    if (k <= 32)
        return builtin_mt_next() >> (32 - k);
    uint64_t lo = builtin_mt_next();
    uint64_t hi = builtin_mt_next() >> (64 - k);
    return lo | hi << 32;
}

/* _randbelow(n) for n > 0: rejection sampling on bit_length(n) bits. */
static uint64_t builtin_mt_below(uint64_t n)
{
    int k = 0;
    for (uint64_t t = n; t; t >>= 1)
        k++;
    uint64_t r = builtin_mt_bits(k);
    while (r >= n)
        r = builtin_mt_bits(k);
    return r;
}

BUILTIN_FN(builtin_random_seed)
{
    (void)self;
    val a[2];
    if (!host_args(h, at, "seed", "a=, version=", argc, argv, kw, a))
        return val_err();
    if (a[0].kind == VAL_MISSING || a[0].kind == VAL_NONE) {
        builtin_mt_seed_int((uint64_t)builtin_time_ns() ^ (uint64_t)getpid());
        return val_none();
    }
    if (!builtin_is_int(a[0]))
        return host_raise(h, HOST_EXC_TYPE, at,
                          "random.seed() in tritsim takes an int (or None), not '%s'",
                          val_type_name(a[0]));
    int64_t s = builtin_int_of(a[0]);
    builtin_mt_seed_int(s < 0 ? -(uint64_t)s : (uint64_t)s);
    return val_none();
}

BUILTIN_FN(builtin_random_random)
{
    (void)self;
    (void)argv;
    if (!builtin_nargs(h, "random", argc, kw, 0, 0, at))
        return val_err();
    return val_float(builtin_mt_random());
}

BUILTIN_FN(builtin_random_getrandbits)
{
    (void)self;
    int64_t k;
    if (!builtin_nargs(h, "getrandbits", argc, kw, 1, 1, at) ||
        !host_to_int(h, argv[0], at, "getrandbits() argument", &k))
        return val_err();
    if (k < 0)
        return host_raise(h, HOST_EXC_VALUE, at, "ValueError: number of bits must be non-negative");
    if (k > 63)
        return host_raise(h, HOST_EXC_OVERFLOW, at,
                          "getrandbits(%lld) does not fit in tritsim's 64-bit ints",
                          (long long)k);
    return val_int(k == 0 ? 0 : (int64_t)builtin_mt_bits((int)k));
}

static val builtin_randrange_impl(host *h, int64_t start, int64_t stop, int64_t step,
                                  src_span at)
{
    if (step == 0)
        return host_raise(h, HOST_EXC_VALUE, at, "ValueError: zero step for randrange()");
    __int128 width = (__int128)stop - start, n;
    if (step > 0)
        n = (width + step - 1) / step;
    else
        n = (width + step + 1) / step;
    if (n <= 0)
        return host_raise(h, HOST_EXC_VALUE, at,
                          "ValueError: empty range for randrange() (%lld, %lld, %lld)",
                          (long long)start, (long long)stop, (long long)step);
    return val_int((int64_t)(start + (__int128)step * (__int128)builtin_mt_below((uint64_t)n)));
}

BUILTIN_FN(builtin_random_randrange)
{
    (void)self;
    val a[3];
    if (!host_args(h, at, "randrange", "start, stop=, step=", argc, argv, kw, a))
        return val_err();
    int64_t v[3] = {0, 0, 1};
    for (int i = 0; i < 3; i++)
        if (a[i].kind != VAL_MISSING && a[i].kind != VAL_NONE &&
            !host_to_int(h, a[i], at, "randrange() argument", &v[i]))
            return val_err();
    if (a[1].kind == VAL_MISSING || a[1].kind == VAL_NONE) {
        if (v[0] <= 0)
            return host_raise(h, HOST_EXC_VALUE, at, "ValueError: empty range for randrange()");
        return val_int((int64_t)builtin_mt_below((uint64_t)v[0]));
    }
    return builtin_randrange_impl(h, v[0], v[1], v[2], at);
}

BUILTIN_FN(builtin_random_randint)
{
    (void)self;
    int64_t a, b;
    if (!builtin_nargs(h, "randint", argc, kw, 2, 2, at) ||
        !host_to_int(h, argv[0], at, "randint() a", &a) ||
        !host_to_int(h, argv[1], at, "randint() b", &b))
        return val_err();
    if (b == INT64_MAX)
        return host_raise(h, HOST_EXC_OVERFLOW, at, "integer overflow: tritsim's ints are 64-bit");
    return builtin_randrange_impl(h, a, b + 1, 1, at);
}

BUILTIN_FN(builtin_random_uniform)
{
    (void)self;
    double a, b;
    if (!builtin_nargs(h, "uniform", argc, kw, 2, 2, at) ||
        !host_to_float(h, argv[0], at, "uniform() a", &a) ||
        !host_to_float(h, argv[1], at, "uniform() b", &b))
        return val_err();
    return val_float(a + (b - a) * builtin_mt_random());
}

BUILTIN_FN(builtin_random_choice)
{
    (void)self;
    if (!builtin_nargs(h, "choice", argc, kw, 1, 1, at))
        return val_err();
    int64_t n = host_len(h, argv[0], at);
    if (n < 0)
        return val_err();
    if (n == 0)
        return host_raise(h, HOST_EXC_INDEX, at,
                          "IndexError: Cannot choose from an empty sequence");
    return host_getitem(h, argv[0], val_int((int64_t)builtin_mt_below((uint64_t)n)), at);
}

BUILTIN_FN(builtin_random_shuffle)
{
    (void)self;
    if (!builtin_nargs(h, "shuffle", argc, kw, 1, 1, at))
        return val_err();
    if (argv[0].kind != VAL_LIST)
        return host_raise(h, HOST_EXC_TYPE, at,
                          "shuffle() needs a list, not a '%s'", val_type_name(argv[0]));
    val_seq *s = val_as_seq(argv[0]);
    for (size_t i = s->len; i-- > 1;) {
        size_t j = (size_t)builtin_mt_below(i + 1);
        val t = s->items[i];
        s->items[i] = s->items[j];
        s->items[j] = t;
    }
    return val_none();
}

BUILTIN_FN(builtin_random_sample)
{
    (void)self;
    val a[2];
    int64_t k;
    if (!host_args(h, at, "sample", "population, k", argc, argv, kw, a) ||
        !host_to_int(h, a[1], at, "sample() k", &k))
        return val_err();
    val pop = host_to_list(h, a[0], at);
    if (pop.kind == VAL_ERR)
        return pop;
    int64_t n = (int64_t)val_as_seq(pop)->len;
    if (k < 0 || k > n) {
        val_unref(pop);
        return host_raise(h, HOST_EXC_VALUE, at,
                          "ValueError: Sample larger than population or is negative");
    }
    val out = val_list_new((size_t)k);
    /* CPython's two strategies, chosen the same way, so results match. */
    int64_t setsize = 21;
    if (k > 5)
        setsize += (int64_t)pow(4, ceil(log((double)(k * 3)) / log(4)));
    if (n <= setsize) {
        val pool = host_to_list(h, pop, at);
        val_seq *p = val_as_seq(pool);
        for (int64_t i = 0; i < k; i++) {
            size_t j = (size_t)builtin_mt_below((uint64_t)(n - i));
            val_list_push(out, val_ref(p->items[j]));
            val_seq_set(pool, j, val_ref(p->items[n - i - 1]));
        }
        val_unref(pool);
    } else {
        bool *selected = xcalloc((size_t)n, sizeof *selected);
        for (int64_t i = 0; i < k; i++) {
            size_t j = (size_t)builtin_mt_below((uint64_t)n);
            while (selected[j])
                j = (size_t)builtin_mt_below((uint64_t)n);
            selected[j] = true;
            val_list_push(out, val_ref(val_as_seq(pop)->items[j]));
        }
        free(selected);
    }
    val_unref(pop);
    return out;
}

/* The arguments (mu=0, sigma=1) of random.gauss() and normalvariate(). */
static bool builtin_mu_sigma(host *h, const char *name, int argc, const val *argv,
                             const val_kwargs *kw, src_span at, double *mu, double *sigma)
{
    val a[2];
    *mu = 0;
    *sigma = 1;
    return host_args(h, at, name, "mu=, sigma=", argc, argv, kw, a) &&
           (a[0].kind == VAL_MISSING || host_to_float(h, a[0], at, "mu", mu)) &&
           (a[1].kind == VAL_MISSING || host_to_float(h, a[1], at, "sigma", sigma));
}

BUILTIN_FN(builtin_random_gauss)
{
    (void)self;
    double mu, sigma;
    if (!builtin_mu_sigma(h, "gauss", argc, argv, kw, at, &mu, &sigma))
        return val_err();
    double z;
    if (builtin_mt.has_gauss) {
        z = builtin_mt.gauss_next;
        builtin_mt.has_gauss = false;
    } else {
        double x2pi = builtin_mt_random() * (2 * M_PI);
        double g2rad = sqrt(-2.0 * log(1.0 - builtin_mt_random()));
        z = cos(x2pi) * g2rad;
        builtin_mt.gauss_next = sin(x2pi) * g2rad;
        builtin_mt.has_gauss = true;
    }
    return val_float(mu + z * sigma);
}

BUILTIN_FN(builtin_random_normalvariate)
{
    (void)self;
    double mu, sigma;
    if (!builtin_mu_sigma(h, "normalvariate", argc, argv, kw, at, &mu, &sigma))
        return val_err();
    const double magic = 4 * exp(-0.5) / sqrt(2.0);
    double z;
    for (;;) {
        double u1 = builtin_mt_random();
        double u2 = 1.0 - builtin_mt_random();
        z = magic * (u1 - 0.5) / u2;
        if (z * z / 4.0 <= -log(u2))
            break;
    }
    return val_float(mu + z * sigma);
}

void builtin_random_init(host *h)
{
    val r = val_module_new("random");
    host_def(r, "random.seed", builtin_random_seed);
    host_def(r, "random.random", builtin_random_random);
    host_def(r, "random.getrandbits", builtin_random_getrandbits);
    host_def(r, "random.randrange", builtin_random_randrange);
    host_def(r, "random.randint", builtin_random_randint);
    host_def(r, "random.uniform", builtin_random_uniform);
    host_def(r, "random.choice", builtin_random_choice);
    host_def(r, "random.shuffle", builtin_random_shuffle);
    host_def(r, "random.sample", builtin_random_sample);
    host_def(r, "random.gauss", builtin_random_gauss);
    host_def(r, "random.normalvariate", builtin_random_normalvariate);
    host_register_module(h, "random", r);
}
