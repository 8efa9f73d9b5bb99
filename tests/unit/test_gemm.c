/* test_gemm.c - unit tests of gemm.h: the fp32 product behind tl.dot.
 *
 * Every variant the CPU runs must give exactly the bits of the definition
 * in gemm.h (computed here by a separate, plain loop), for odd shapes,
 * strides wider than the rows, with and without accumulating, with and
 * without a work area, without touching memory outside C; and hand-made
 * cases pin the definition itself: the products are summed in k order,
 * with fused multiply-adds, continuing from the accumulator. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gemm.h"
#include "tap.h"

/* Deterministic values in [-2, 2) with full mantissas. */
static uint32_t rng_state = 12345;
static float rnd(void)
{
    rng_state = rng_state * 1664525u + 1013904223u;
    return (float)(rng_state >> 8) / (float)(1u << 24) * 4.0f - 2.0f;
}

/* The definition, element by element. */
static void reference(int64_t M, int64_t N, int64_t K, const float *A, int64_t lda,
                      const float *B, int64_t ldb, float *C, int64_t ldc, bool acc)
{
    for (int64_t i = 0; i < M; i++)
        for (int64_t j = 0; j < N; j++) {
            float t = acc ? C[i * ldc + j] : 0.0f;
            for (int64_t k = 0; k < K; k++)
                t = fmaf(A[i * lda + k], B[k * ldb + j], t);
            C[i * ldc + j] = t;
        }
}

static const float GUARD = 1234.5f;

static void check_shape(const gemm_variant *v, int64_t M, int64_t N, int64_t K, int64_t pad,
                        bool acc)
{
    int64_t lda = K + pad, ldb = N + pad, ldc = N + pad;
    size_t na = (size_t)(M * lda), nb = (size_t)(K * ldb), nc = (size_t)(M * ldc) + 16;
    float *A = malloc(na * sizeof *A), *B = malloc(nb * sizeof *B);
    float *C0 = malloc(nc * sizeof *C0), *C1 = malloc(nc * sizeof *C1);
    for (size_t i = 0; i < na; i++)
        A[i] = rnd();
    for (size_t i = 0; i < nb; i++)
        B[i] = rnd();
    for (size_t i = 0; i < nc; i++)
        C0[i] = GUARD;
    for (int64_t i = 0; i < M; i++)
        for (int64_t j = 0; j < N; j++)
            C0[i * ldc + j] = rnd();
    memcpy(C1, C0, nc * sizeof *C1);
    reference(M, N, K, A, lda, B, ldb, C0, ldc, acc);
    /* with a work area (panels of B copied) when accumulating, without
     * otherwise: both ways for every shape */
    float *work = acc ? malloc((size_t)(gemm_work_floats(K) + 1) * sizeof *work) : NULL;
    v->fn(M, N, K, A, lda, B, ldb, C1, ldc, acc, work);
    free(work);
    int64_t bad = -1;
    for (size_t i = 0; i < nc && bad < 0; i++)
        if (memcmp(&C0[i], &C1[i], sizeof *C0) != 0)
            bad = (int64_t)i;
    if (!TAP_OK(bad < 0, "%s: %" PRId64 "x%" PRId64 "x%" PRId64 ", row pad %" PRId64 ", %s",
                v->name, M, N, K, pad, acc ? "C + A@B, work area" : "A@B"))
        printf("# element %" PRId64 " (row %" PRId64 ", column %" PRId64 "): got %.9g, "
               "expected %.9g\n", bad, bad / ldc, bad % ldc, C1[bad], C0[bad]);
    free(A);
    free(B);
    free(C0);
    free(C1);
}

static void test_variants(void)
{
    static const int64_t shapes[][3] = {
        {1, 1, 1},    {16, 16, 16},  {64, 64, 32}, {32, 64, 16}, {128, 128, 64},
        {3, 5, 7},    {17, 33, 9},   {9, 47, 20},  {8, 40, 3},   {5, 100, 1},
        {1, 16, 200}, {7, 31, 17},   {12, 24, 0},  {2, 18, 5},   {64, 16, 256},
    };
    gemm_variant v[8];
    int nv = gemm_variants(v, 8);
    TAP_OK(nv >= 1 && strcmp(v[0].name, "scalar") == 0, "the scalar variant is always there");
    for (int i = 0; i < nv; i++)
        for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++) {
            check_shape(&v[i], shapes[s][0], shapes[s][1], shapes[s][2], 0, true);
            check_shape(&v[i], shapes[s][0], shapes[s][1], shapes[s][2], 3, false);
        }
}

/* Hand-made cases, through gemm_f32 (the variant tl.dot uses). */
static void test_definition(void)
{
    /* k order: 1e8 + 1 is 1e8 in fp32, so in order the 1 is lost */
    float A[3] = {1e8f, 1.0f, -1e8f}, B[3] = {1.0f, 1.0f, 1.0f}, C = 0.0f;
    gemm_f32(1, 1, 3, A, 3, B, 1, &C, 1, false, NULL);
    TAP_OK(C == 0.0f, "products are summed in k order ((1e8 + 1) - 1e8 = 0): %.9g", C);
    /* fused: (1 + 2^-12)^2 rounds to 1 + 2^-11, and the second product
     * exactly cancels all but 2^-24 of it only when it is not rounded */
    float e = 1.0f + ldexpf(1.0f, -12);
    float A2[2] = {e, e}, B2[2] = {e, -e}, C2 = 7.0f;
    gemm_f32(1, 1, 2, A2, 2, B2, 1, &C2, 1, false, NULL);
    TAP_OK(C2 == -ldexpf(1.0f, -24), "products are fused multiply-adds: %.9g (-2^-24)", C2);
    /* the sum continues from the accumulator (D = A B + C, as the GPU's
     * matrix instructions do), rather than adding it to a finished sum:
     * each 2^-24 alone is half an ulp of 1, and rounds away (to even) */
    float C3 = 1.0f;
    float A3[2] = {ldexpf(1.0f, -24), ldexpf(1.0f, -24)}, B3[2] = {1.0f, 1.0f};
    gemm_f32(1, 1, 2, A3, 2, B3, 1, &C3, 1, true, NULL);
    TAP_OK(C3 == 1.0f,
           "the sum continues from the accumulator: (1 + 2^-24) + 2^-24 = 1, got %.9g", C3);
    /* so a product over K in two blocks, continuing, is the product over K */
    float A4[4], B4[4], whole = 0.0f, halves = 0.0f;
    for (int k = 0; k < 4; k++) {
        A4[k] = rnd();
        B4[k] = rnd();
    }
    gemm_f32(1, 1, 4, A4, 4, B4, 1, &whole, 1, false, NULL);
    gemm_f32(1, 1, 2, A4, 4, B4, 1, &halves, 1, false, NULL);
    gemm_f32(1, 1, 2, A4 + 2, 4, B4 + 2, 1, &halves, 1, true, NULL);
    TAP_OK(memcmp(&whole, &halves, sizeof whole) == 0,
           "K in two blocks, the second continuing, gives the bits of K at once: %.9g, %.9g",
           whole, halves);
}

int main(void)
{
    test_variants();
    test_definition();
    return tap_done();
}
