/* gemm.c - the fp32 matrix product behind tl.dot (see gemm.h for the
 * result it defines).
 *
 * Tiles are small (Triton's dots are 16 to 256 on a side), so A is read
 * where it lies: the product walks B in panels of a few vectors' width
 * (copied side by side into the caller's work area when several blocks of
 * rows read them), and for each panel runs a register-blocked kernel over
 * blocks of rows, with one accumulator register per (row, vector) summing
 * that block's products in k order.  Every variant performs, for each
 * element, the same sequence of fused multiply-adds, starting from the
 * accumulator (or zero), so they give the same bits; the vector ones differ
 * only in how many elements they carry at once.  The variant is picked once, from
 * what the CPU supports. */
#include "config.h"

#include "gemm.h"

#include <math.h>
#include <pthread.h>
#include <string.h>

#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
#define GEMM_X86 1
#endif

/* ======================================================================
 * Scalar: any machine.
 * ====================================================================== */

enum { GEMM_ROW_CHUNK = 64 };

/* Columns [j0, N) of every row, a chunk of columns at a time; also the
 * vector variants' tail. */
#define GEMM_SCALAR_BODY                                                      \
    for (int64_t i = 0; i < M; i++) {                                         \
        const float *a = A + i * lda;                                         \
        float *c = C + i * ldc;                                               \
        for (int64_t j = j0; j < N; j += GEMM_ROW_CHUNK) {                    \
            int64_t nb = N - j < GEMM_ROW_CHUNK ? N - j : GEMM_ROW_CHUNK;     \
            float t[GEMM_ROW_CHUNK];                                          \
            for (int64_t q = 0; q < nb; q++)                                  \
                t[q] = accumulate ? c[j + q] : 0.0f;                          \
            for (int64_t k = 0; k < K; k++) {                                 \
                const float *b = B + k * ldb + j;                             \
                for (int64_t q = 0; q < nb; q++)                              \
                    t[q] = fmaf(a[k], b[q], t[q]);                            \
            }                                                                 \
            memcpy(c + j, t, (size_t)nb * sizeof *t);                         \
        }                                                                     \
    }

static void gemm_scalar_from(int64_t j0, int64_t M, int64_t N, int64_t K, const float *A,
                             int64_t lda, const float *B, int64_t ldb, float *C,
                             int64_t ldc, bool accumulate)
{
    GEMM_SCALAR_BODY
}

static void gemm_scalar(int64_t M, int64_t N, int64_t K, const float *A, int64_t lda,
                        const float *B, int64_t ldb, float *C, int64_t ldc, bool accumulate,
                        float *work)
{
    (void)work;      /* one row at a time: B's rows are read in order */
    gemm_scalar_from(0, M, N, K, A, lda, B, ldb, C, ldc, accumulate);
}

#ifdef GEMM_X86
/* The panel of B (K rows, w columns, row stride ldb) as a kernel reads
 * it: copied side by side into work when pack (several blocks of rows
 * read it, and rows far apart in memory fight over cache sets), else where
 * it lies; *ld is its row stride. */
static const float *gemm_panel(float *work, bool pack, int64_t w, int64_t K, const float *B,
                               int64_t ldb, int64_t *ld)
{
    if (!pack) {
        *ld = ldb;
        return B;
    }
    for (int64_t k = 0; k < K; k++)
        memcpy(work + k * w, B + k * ldb, (size_t)w * sizeof *work);
    *ld = w;
    return work;
}

/* ======================================================================
 * AVX2 + FMA: blocks of 4 rows x 16 columns (8 accumulators of 8 lanes).
 * ====================================================================== */

/* The columns the vector kernels leave, with the FMA instruction. */
__attribute__((target("avx2,fma")))
static void gemm_fma_tail(int64_t j0, int64_t M, int64_t N, int64_t K, const float *A,
                          int64_t lda, const float *B, int64_t ldb, float *C,
                          int64_t ldc, bool accumulate)
{
    GEMM_SCALAR_BODY
}

/* R rows x V vectors of 8 columns; R and V are constants after inlining. */
__attribute__((always_inline, target("avx2,fma")))
static inline void gemm_avx2_block(const int R, const int V, int64_t K, const float *A,
                                   int64_t lda, const float *B, int64_t ldb, float *C,
                                   int64_t ldc, bool accumulate)
{
    __m256 t[4][2];
#pragma GCC unroll 4
    for (int r = 0; r < R; r++)
#pragma GCC unroll 2
        for (int v = 0; v < V; v++)
            t[r][v] = accumulate ? _mm256_loadu_ps(C + r * ldc + 8 * v) : _mm256_setzero_ps();
    for (int64_t k = 0; k < K; k++) {
        const float *b = B + k * ldb;
        __m256 b0 = _mm256_loadu_ps(b);
        __m256 b1 = V > 1 ? _mm256_loadu_ps(b + 8) : b0;
#pragma GCC unroll 4
        for (int r = 0; r < R; r++) {
            __m256 a = _mm256_broadcast_ss(A + r * lda + k);
            t[r][0] = _mm256_fmadd_ps(a, b0, t[r][0]);
            if (V > 1)
                t[r][1] = _mm256_fmadd_ps(a, b1, t[r][1]);
        }
    }
#pragma GCC unroll 4
    for (int r = 0; r < R; r++)
#pragma GCC unroll 2
        for (int v = 0; v < V; v++)
            _mm256_storeu_ps(C + r * ldc + 8 * v, t[r][v]);
}

/* All rows of a panel V vectors wide: blocks of 4 rows, then one row at a
 * time (Triton's tile sides are powers of two, so that is rare). */
__attribute__((always_inline, target("avx2,fma")))
static inline void gemm_avx2_panel(const int V, int64_t M, int64_t K, const float *A,
                                   int64_t lda, const float *B, int64_t ldb, float *C,
                                   int64_t ldc, bool accumulate)
{
    int64_t i = 0;
    for (; i + 4 <= M; i += 4)
        gemm_avx2_block(4, V, K, A + i * lda, lda, B, ldb, C + i * ldc, ldc, accumulate);
    for (; i < M; i++)
        gemm_avx2_block(1, V, K, A + i * lda, lda, B, ldb, C + i * ldc, ldc, accumulate);
}

__attribute__((target("avx2,fma")))
static void gemm_avx2(int64_t M, int64_t N, int64_t K, const float *A, int64_t lda,
                      const float *B, int64_t ldb, float *C, int64_t ldc, bool accumulate,
                      float *work)
{
    int64_t j = 0;
    bool pack = work && M > 4;       /* more than one block reads the panel */
    for (; j + 16 <= N; j += 16) {
        int64_t ld;
        const float *b = gemm_panel(work, pack, 16, K, B + j, ldb, &ld);
        gemm_avx2_panel(2, M, K, A, lda, b, ld, C + j, ldc, accumulate);
    }
    if (j + 8 <= N) {
        gemm_avx2_panel(1, M, K, A, lda, B + j, ldb, C + j, ldc, accumulate);
        j += 8;
    }
    if (j < N)
        gemm_fma_tail(j, M, N, K, A, lda, B, ldb, C, ldc, accumulate);
}

/* ======================================================================
 * AVX-512: blocks of 8 rows x 32 columns (16 accumulators of 16 lanes);
 * the last columns through masked loads and stores.
 * ====================================================================== */

__attribute__((always_inline, target("avx512f")))
static inline void gemm_avx512_block(const int R, const int V, __mmask16 m1, int64_t K,
                                     const float *A, int64_t lda, const float *B,
                                     int64_t ldb, float *C, int64_t ldc, bool accumulate)
{
    /* V vectors of 16 columns; the last one's lanes are those of m1 */
    const __mmask16 m0 = V > 1 ? (__mmask16)0xffff : m1;
    __m512 t[8][2];
#pragma GCC unroll 8
    for (int r = 0; r < R; r++)
#pragma GCC unroll 2
        for (int v = 0; v < V; v++)
            t[r][v] = accumulate ? _mm512_maskz_loadu_ps(v == V - 1 ? m1 : (__mmask16)0xffff,
                                                         C + r * ldc + 16 * v)
                                 : _mm512_setzero_ps();
    for (int64_t k = 0; k < K; k++) {
        const float *b = B + k * ldb;
        __m512 b0 = _mm512_maskz_loadu_ps(m0, b);
        __m512 b1 = V > 1 ? _mm512_maskz_loadu_ps(m1, b + 16) : b0;
#pragma GCC unroll 8
        for (int r = 0; r < R; r++) {
            __m512 a = _mm512_set1_ps(A[r * lda + k]);
            t[r][0] = _mm512_fmadd_ps(a, b0, t[r][0]);
            if (V > 1)
                t[r][1] = _mm512_fmadd_ps(a, b1, t[r][1]);
        }
    }
#pragma GCC unroll 8
    for (int r = 0; r < R; r++)
#pragma GCC unroll 2
        for (int v = 0; v < V; v++)
            _mm512_mask_storeu_ps(C + r * ldc + 16 * v, v == V - 1 ? m1 : (__mmask16)0xffff,
                                  t[r][v]);
}

/* All rows of a panel: blocks of 8 rows, then one row at a time. */
__attribute__((always_inline, target("avx512f")))
static inline void gemm_avx512_panel(const int V, __mmask16 m1, int64_t M, int64_t K,
                                     const float *A, int64_t lda, const float *B,
                                     int64_t ldb, float *C, int64_t ldc, bool accumulate)
{
    int64_t i = 0;
    for (; i + 8 <= M; i += 8)
        gemm_avx512_block(8, V, m1, K, A + i * lda, lda, B, ldb, C + i * ldc, ldc,
                          accumulate);
    for (; i < M; i++)
        gemm_avx512_block(1, V, m1, K, A + i * lda, lda, B, ldb, C + i * ldc, ldc,
                          accumulate);
}

__attribute__((target("avx512f")))
static void gemm_avx512(int64_t M, int64_t N, int64_t K, const float *A, int64_t lda,
                        const float *B, int64_t ldb, float *C, int64_t ldc,
                        bool accumulate, float *work)
{
    int64_t j = 0;
    bool pack = work && M > 8;       /* more than one block reads the panel */
    for (; j + 32 <= N; j += 32) {
        int64_t ld;
        const float *b = gemm_panel(work, pack, 32, K, B + j, ldb, &ld);
        gemm_avx512_panel(2, 0xffff, M, K, A, lda, b, ld, C + j, ldc, accumulate);
    }
    int64_t left = N - j;
    if (left > 16)
        gemm_avx512_panel(2, (__mmask16)((1u << (left - 16)) - 1), M, K, A, lda, B + j,
                          ldb, C + j, ldc, accumulate);
    else if (left > 0)
        gemm_avx512_panel(1, (__mmask16)((1u << left) - 1), M, K, A, lda, B + j, ldb,
                          C + j, ldc, accumulate);
}
#endif /* GEMM_X86 */

/* ======================================================================
 * Choosing a variant.
 * ====================================================================== */

int gemm_variants(gemm_variant *out, int max)
{
    int n = 0;
    if (n < max)
        out[n++] = (gemm_variant){"scalar", gemm_scalar};
#ifdef GEMM_X86
    __builtin_cpu_init();
    if (n < max && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        out[n++] = (gemm_variant){"avx2", gemm_avx2};
    if (n < max && __builtin_cpu_supports("avx512f"))
        out[n++] = (gemm_variant){"avx512", gemm_avx512};
#endif
    return n;
}

static gemm_f32_fn *gemm_best;
static pthread_once_t gemm_once = PTHREAD_ONCE_INIT;

static void gemm_pick(void)
{
    gemm_variant v[4];
    int n = gemm_variants(v, 4);
    gemm_best = v[n - 1].fn;
}

void gemm_f32(int64_t M, int64_t N, int64_t K, const float *A, int64_t lda,
              const float *B, int64_t ldb, float *C, int64_t ldc, bool accumulate,
              float *work)
{
    pthread_once(&gemm_once, gemm_pick);
    gemm_best(M, N, K, A, lda, B, ldb, C, ldc, accumulate, work);
}
