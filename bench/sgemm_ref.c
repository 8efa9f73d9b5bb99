/* sgemm_ref.c - the BLAS reference of bench/run: OpenBLAS cblas_sgemm on
 * N x N x N fp32 matrices with THREADS threads (the best of half a second
 * of calls).
 *
 *   bench/sgemm_ref [N [THREADS]]   prints "ms<TAB>GFLOP/s" (default 1024, 1) */
#define _POSIX_C_SOURCE 200809L
#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench_ref.h"

typedef struct sgemm_ref_mats {
    int n;
    const float *a, *b;
    float *c;
} sgemm_ref_mats;

static void sgemm_ref_call(void *arg, int rep)
{
    sgemm_ref_mats *m = arg;
    (void)rep;
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m->n, m->n, m->n, 1.0f, m->a,
                m->n, m->b, m->n, 0.0f, m->c, m->n);
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
    bench_fill(a, b, nn);
    /* the best of at least half a second of calls (and 3), as the
     * benchmarks time their launches */
    sgemm_ref_mats m = {n, a, b, c};
    double best = bench_best(3, sgemm_ref_call, &m);
    printf("%.3f\t%.1f\n", best * 1e3, 2.0 * n * (double)nn / best / 1e9);
    free(a);
    free(b);
    free(c);
    return 0;
}
