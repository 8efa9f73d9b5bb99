/* tiles_ref.c - what one product call per tile costs, the way tritsim's
 * tl.dot works for bench/matmul.tk's 1024^3 case: THREADS threads share
 * out the 64 x 64 tiles of C; each steps through K 32 at a time with one
 * product call reading A and B in place (lda = ldb = 1024) and
 * accumulating into its tile, which is then stored.  No interpreter, so
 * the ceiling of that approach on this machine.  KIND picks the product:
 * `tritsim` (gemm_f32 from src/backend/cpu/gemm.c, what tl.dot calls) or `openblas`
 * (cblas_sgemm with beta = 1, what tl.dot called before it).
 *
 *   bench/tiles_ref [THREADS [KIND]]   prints "ms<TAB>GFLOP/s" (best of half a second) */
#define _POSIX_C_SOURCE 200809L
#include <cblas.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_ref.h"
#include "gemm.h"

enum { TILES_N = 1024, TILES_BM = 64, TILES_BN = 64, TILES_BK = 32, TILES_MAX_THREADS = 64 };

static const float *tiles_a, *tiles_b;
static float *tiles_c;
static int tiles_threads;
static int tiles_openblas;    /* cblas_sgemm instead of gemm_f32 */

static void *tiles_work(void *arg)
{
    long id = (long)arg;
    static _Thread_local float acc[TILES_BM * TILES_BN], work[TILES_BK * 32];
    enum { NT = TILES_N / TILES_BN, NTILES = (TILES_N / TILES_BM) * NT };
    for (long t = id; t < NTILES; t += tiles_threads) {
        long i = t / NT * TILES_BM, j = t % NT * TILES_BN;
        memset(acc, 0, sizeof acc);
        for (long k = 0; k < TILES_N; k += TILES_BK) {
            const float *a = tiles_a + i * TILES_N + k, *b = tiles_b + k * TILES_N + j;
            if (tiles_openblas)
                cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, TILES_BM, TILES_BN,
                            TILES_BK, 1.0f, a, TILES_N, b, TILES_N, 1.0f, acc, TILES_BN);
            else
                gemm_f32(TILES_BM, TILES_BN, TILES_BK, a, TILES_N, b, TILES_N, acc, TILES_BN,
                         true, work);
        }
        for (long r = 0; r < TILES_BM; r++)
            memcpy(tiles_c + (i + r) * TILES_N + j, acc + r * TILES_BN,
                   TILES_BN * sizeof *acc);
    }
    return NULL;
}

/* One product of the whole matrices: THREADS threads, this one among them. */
static void tiles_run(void *arg, int rep)
{
    (void)arg;
    (void)rep;
    pthread_t th[TILES_MAX_THREADS];
    for (long i = 1; i < tiles_threads; i++)
        if (pthread_create(&th[i], NULL, tiles_work, (void *)i) != 0) {
            fprintf(stderr, "tiles_ref: cannot start a thread\n");
            exit(1);
        }
    tiles_work((void *)0);
    for (long i = 1; i < tiles_threads; i++)
        pthread_join(th[i], NULL);
}

int main(int argc, char **argv)
{
    tiles_threads = argc > 1 ? atoi(argv[1]) : 1;
    const char *kind = argc > 2 ? argv[2] : "tritsim";
    tiles_openblas = strcmp(kind, "openblas") == 0;
    if (tiles_threads < 1 || tiles_threads > TILES_MAX_THREADS ||
        (!tiles_openblas && strcmp(kind, "tritsim") != 0)) {
        fprintf(stderr, "usage: tiles_ref [THREADS (1 to %d) [tritsim|openblas]]\n",
                TILES_MAX_THREADS);
        return 2;
    }
#ifdef OPENBLAS_VERSION
    openblas_set_num_threads(1);
#endif
    size_t nn = (size_t)TILES_N * TILES_N;
    float *a = malloc(nn * sizeof *a), *b = malloc(nn * sizeof *b);
    tiles_c = malloc(nn * sizeof *tiles_c);
    if (!a || !b || !tiles_c) {
        fprintf(stderr, "tiles_ref: cannot allocate the matrices\n");
        return 1;
    }
    bench_fill(a, b, nn);
    tiles_a = a;
    tiles_b = b;
    double best = bench_best(3, tiles_run, NULL);
    printf("%.3f\t%.1f\n", best * 1e3, 2.0 * TILES_N * (double)nn / best / 1e9);
    free(a);
    free(b);
    free(tiles_c);
    return 0;
}
