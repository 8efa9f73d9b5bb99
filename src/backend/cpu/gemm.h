/* gemm.h - the fp32 matrix product behind tl.dot.
 *
 * One definition of the result, whatever the machine, the thread count or
 * the instruction set: element (i, j) is
 *
 *     t = accumulate ? C[i, j] : 0
 *     for k in 0 .. K-1:  t = fma(A[i, k], B[k, j], t)
 *     C[i, j] = t
 *
 * one chain of fused multiply-adds in k order that continues from the
 * accumulator, as the GPU's matrix instructions compute D = A B + C.  So a
 * loop of `acc = tl.dot(a, b, acc)` over blocks of K gives the same bits as
 * one product over the whole of K (and as torch.matmul on half types, which
 * uses this too).  The vector variants (AVX2 + FMA, AVX-512) compute
 * exactly that sequence for every element, so they differ from the scalar
 * one only in speed. */
#ifndef TRITSIM_GEMM_H
#define TRITSIM_GEMM_H

#include <stdbool.h>
#include <stdint.h>

/* C (M x N, row stride ldc) = A (M x K, row stride lda) @ B (K x N, row
 * stride ldb), continuing from C when accumulate (as above), with the best
 * variant this CPU runs.  work: room for gemm_work_floats(K) floats, where
 * panels of B are copied side by side (rows of B far apart in memory would
 * fight over the same cache sets), or NULL to read B where it lies.  work
 * changes nothing in the result. */
void gemm_f32(int64_t M, int64_t N, int64_t K, const float *A, int64_t lda,
              const float *B, int64_t ldb, float *C, int64_t ldc, bool accumulate,
              float *work);

static inline int64_t gemm_work_floats(int64_t K)
{
    return K * 32;
}

typedef void gemm_f32_fn(int64_t M, int64_t N, int64_t K, const float *A, int64_t lda,
                         const float *B, int64_t ldb, float *C, int64_t ldc,
                         bool accumulate, float *work);

/* The variants this CPU can run, best last ("scalar" first, always there);
 * for tests and benchmarks.  Returns how many were written (at most max). */
typedef struct gemm_variant {
    const char *name;
    gemm_f32_fn *fn;
} gemm_variant;
int gemm_variants(gemm_variant *out, int max);

#endif
