/* sgemm_ref.c - the BLAS reference of bench/run: OpenBLAS cblas_sgemm on
 * N x N x N fp32 matrices with THREADS threads (the best of half a second
 * of calls).
 *
 *   bench/sgemm_ref [N [THREADS]]   prints "ms<TAB>GFLOP/s" (default 1024, 1) */
#define _POSIX_C_SOURCE 200809L
#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double sgemm_ref_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1024;
    int threads = argc > 2 ? atoi(argv[2]) : 1;
    if (n < 1 || threads < 1) {
        fprintf(stderr, "usage: sgemm_ref [N [THREADS]]\n");
        return 2;
    }
#ifdef OPENBLAS_VERSION
    openblas_set_num_threads(threads);
#endif
    size_t nn = (size_t)n * (size_t)n;
    float *a = malloc(nn * sizeof *a), *b = malloc(nn * sizeof *b), *c = malloc(nn * sizeof *c);
    if (!a || !b || !c) {
        fprintf(stderr, "sgemm_ref: cannot allocate 3 %d x %d matrices\n", n, n);
        return 1;
    }
    unsigned s = 12345;
    for (size_t i = 0; i < nn; i++) {
        s = s * 1103515245u + 12345u;
        a[i] = (float)(s >> 8) / 16777216.0f;
        s = s * 1103515245u + 12345u;
        b[i] = (float)(s >> 8) / 16777216.0f;
    }
    /* the best of at least half a second of calls (and 3), as the
     * benchmarks time their launches */
    double best = 1e30, start = sgemm_ref_now();
    for (int rep = 0; rep < 3 || sgemm_ref_now() - start < 0.5; rep++) {
        double t0 = sgemm_ref_now();
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, a, n, b, n,
                    0.0f, c, n);
        double t = sgemm_ref_now() - t0;
        best = t < best ? t : best;
    }
    printf("%.3f\t%.1f\n", best * 1e3, 2.0 * n * (double)nn / best / 1e9);
    free(a);
    free(b);
    free(c);
    return 0;
}
