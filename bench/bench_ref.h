/* bench_ref.h - what bench/run's reference helpers (memcpy_ref, sgemm_ref,
 * tiles_ref) share: the clock, the "best of half a second" loop that the
 * benchmarks' launches are timed with too, and the matrices' contents. */
#ifndef TRITSIM_BENCH_REF_H
#define TRITSIM_BENCH_REF_H

#include <stddef.h>
#include <time.h>

static inline double bench_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* The best time in seconds of calls of fn(arg, rep) over at least half a
 * second and at least min_reps calls. */
static inline double bench_best(int min_reps, void (*fn)(void *arg, int rep), void *arg)
{
    double best = 1e30, start = bench_now();
    for (int rep = 0; rep < min_reps || bench_now() - start < 0.5; rep++) {
        double t0 = bench_now();
        fn(arg, rep);
        double t = bench_now() - t0;
        best = t < best ? t : best;
    }
    return best;
}

/* a and b (nn floats each) filled with the same values in [0, 1) every run */
static inline void bench_fill(float *a, float *b, size_t nn)
{
    unsigned s = 12345;
    for (size_t i = 0; i < nn; i++) {
        s = s * 1103515245u + 12345u;
        a[i] = (float)(s >> 8) / 16777216.0f;
        s = s * 1103515245u + 12345u;
        b[i] = (float)(s >> 8) / 16777216.0f;
    }
}

#endif
