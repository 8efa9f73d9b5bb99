/* tensor_matmul.c - matrix products of tensors: torch.matmul (with its
 * 1-D and batched forms and broadcast batch dimensions), mm and bmm.
 *
 * Each matrix pair is gathered into contiguous buffers of the computation
 * type and multiplied there: float32 with cblas_sgemm, float64 with
 * cblas_dgemm, float16 and bfloat16 in float32 with gemm.c (rounded once
 * at the end, as the GPU's half-precision products accumulate in float32),
 * and integers with a plain loop of wrapping 64-bit sums.  Half types go
 * through gemm.c so that torch.matmul sums in the order tl.dot does: a
 * Triton matmul that walks K in blocks gives the same bits, as cuBLAS and
 * Triton's kernels agree on the GPU (tutorial 03's check).  Gathering costs O(mk + kn) next to
 * the O(mkn) product and frees the BLAS call from any stride question. */
#include "tensor.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cblas.h>

#include "blas.h"
#include "gemm.h"

/* The C++ type torch names in its dtype mismatch messages. */
static const char *cpp_name(dtype t)
{
    switch (t) {
    case DTYPE_FP32: return "float";
    case DTYPE_FP64: return "double";
    case DTYPE_FP16: return "c10::Half";
    case DTYPE_BF16: return "c10::BFloat16";
    case DTYPE_INT64: return "long int";
    case DTYPE_INT32: return "int";
    case DTYPE_INT16: return "short int";
    case DTYPE_INT8: return "signed char";
    case DTYPE_UINT8: return "unsigned char";
    case DTYPE_INT1: return "bool";
    default: return tensor_type_name(t);
    }
}

static bool check_types(const tensor *a, const tensor *b, char *err)
{
    if (a->type != b->type) {
        tensor_err(err, "expected mat1 and mat2 to have the same dtype, but got: %s != %s",
               cpp_name(a->type), cpp_name(b->type));
        return false;
    }
    if (a->type == DTYPE_INT1) {
        tensor_err(err, "\"addmm_impl_cpu_\" not implemented for 'Bool'");
        return false;
    }
    return tensor_no_fp8(a->type, err);
}

/* ---- one product ---------------------------------------------------------------- */

/* A strided matrix in memory. */
typedef struct mat {
    const unsigned char *p;
    int64_t rows, cols;
    int64_t rs, cs;          /* row and column steps in bytes */
} mat;

/* Copy matrix m of dtype t into doubles or floats (wide selects). */
static void gather_float(const mat *m, dtype t, void *buf, bool wide)
{
    int64_t k = 0;
    for (int64_t i = 0; i < m->rows; i++)
        for (int64_t j = 0; j < m->cols; j++, k++) {
            double v = dtype_load(t, m->p + i * m->rs + j * m->cs).f;
            if (wide)
                ((double *)buf)[k] = v;
            else
                ((float *)buf)[k] = (float)v;
        }
}

static void gather_int(const mat *m, dtype t, int64_t *buf)
{
    int64_t k = 0;
    for (int64_t i = 0; i < m->rows; i++)
        for (int64_t j = 0; j < m->cols; j++, k++)
            buf[k] = dtype_cast(dtype_load(t, m->p + i * m->rs + j * m->cs), t, DTYPE_INT64).i;
}

/* C = A B for one (m x k) by (k x n) pair; c is contiguous m x n of t. */
static bool product(dtype t, const mat *a, const mat *b, unsigned char *c, char *err)
{
    int64_t m = a->rows, k = a->cols, n = b->cols;
    if (m == 0 || n == 0)
        return true;
    if (m > INT_MAX || n > INT_MAX || k > INT_MAX) {
        tensor_err(err, "matrix too large for BLAS (%lld x %lld x %lld)", (long long)m,
               (long long)k, (long long)n);
        return false;
    }
    bool fl = dtype_is_float(t), wide = t == DTYPE_FP64;
    size_t es = fl ? (wide ? sizeof(double) : sizeof(float)) : sizeof(int64_t);
    void *A = malloc(es * (size_t)(m * k + 1)), *B = malloc(es * (size_t)(k * n + 1));
    void *C = malloc(es * (size_t)(m * n));
    if (!A || !B || !C) {
        free(A);
        free(B);
        free(C);
        tensor_err(err, "cannot allocate memory for a %lld x %lld x %lld matrix product",
               (long long)m, (long long)k, (long long)n);
        return false;
    }
    int es_t = dtype_size(t);
    if (fl) {
        gather_float(a, t, A, wide);
        gather_float(b, t, B, wide);
        blas_ready();
        if (t == DTYPE_FP16 || t == DTYPE_BF16) {
            float *work = malloc(sizeof(float) * (size_t)gemm_work_floats(k));
            gemm_f32(m, n, k, A, k, B, n, C, n, false, work);
            free(work);
        } else if (wide)
            cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)m, (int)n, (int)k, 1.0,
                        A, (int)(k ? k : 1), B, (int)n, 0.0, C, (int)n);
        else
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)m, (int)n, (int)k, 1.0f,
                        A, (int)(k ? k : 1), B, (int)n, 0.0f, C, (int)n);
        for (int64_t i = 0; i < m * n; i++) {
            double v = wide ? ((double *)C)[i] : ((float *)C)[i];
            dtype_store(t, c + i * es_t, (dtype_scalar){.f = dtype_round_float(t, v)});
        }
    } else {
        int64_t *ia = A, *ib = B;
        gather_int(a, t, ia);
        gather_int(b, t, ib);
        for (int64_t i = 0; i < m; i++)
            for (int64_t j = 0; j < n; j++) {
                uint64_t s = 0;
                for (int64_t q = 0; q < k; q++)
                    s += (uint64_t)ia[i * k + q] * (uint64_t)ib[q * n + j];
                dtype_store(t, c + (i * n + j) * es_t, dtype_wrap(t, s));
            }
    }
    free(A);
    free(B);
    free(C);
    return true;
}

/* The last two dimensions of t (at batch offset p) as a matrix. */
static mat mat_of(const tensor *t, const unsigned char *p)
{
    int es = tensor_elsize(t), d = t->ndim;
    mat m = {p, t->shape[d - 2], t->shape[d - 1], t->strides[d - 2] * es,
             t->strides[d - 1] * es};
    return m;
}

/* ---- the public forms ----------------------------------------------------------- */

/* a (..., m, k) times b (..., k, n), batch dimensions already equal. */
static tensor *batched(const tensor *a, const tensor *b, char *err)
{
    int nb = a->ndim - 2;
    int64_t shape[TENSOR_MAX_DIMS];
    memcpy(shape, a->shape, sizeof *shape * (size_t)nb);
    shape[nb] = a->shape[nb];
    shape[nb + 1] = b->shape[nb + 1];
    tensor *out = tensor_new(a->type, nb + 2, shape, a->cuda || b->cuda, err);
    if (!out)
        return NULL;
    int ea = tensor_elsize(a);
    int64_t sa[TENSOR_MAX_DIMS], sb[TENSOR_MAX_DIMS];
    for (int i = 0; i < nb; i++) {
        sa[i] = a->strides[i] * ea;
        sb[i] = b->strides[i] * ea;
    }
    tensor_iter it;
    tensor_iter_init(&it, nb, shape);
    tensor_iter_add(&it, (void *)tensor_cdata(a), sa);
    tensor_iter_add(&it, (void *)tensor_cdata(b), sb);
    int64_t csize = shape[nb] * shape[nb + 1] * ea;
    unsigned char *c = tensor_data(out);
    for (int64_t i = 0; i < it.numel; i++, tensor_iter_next(&it)) {
        mat ma = mat_of(a, tensor_iter_ptr(&it, 0)), mb = mat_of(b, tensor_iter_ptr(&it, 1));
        if (!product(a->type, &ma, &mb, c + i * csize, err)) {
            tensor_unref(out);
            return NULL;
        }
    }
    return out;
}

tensor *tensor_mm(const tensor *a, const tensor *b, char *err)
{
    if (a->ndim != 2 || b->ndim != 2) {
        tensor_err(err, "%s must be a matrix", a->ndim != 2 ? "self" : "mat2");
        return NULL;
    }
    if (!check_types(a, b, err))
        return NULL;
    if (a->shape[1] != b->shape[0]) {
        tensor_err(err, "mat1 and mat2 shapes cannot be multiplied (%lldx%lld and %lldx%lld)",
               (long long)a->shape[0], (long long)a->shape[1], (long long)b->shape[0],
               (long long)b->shape[1]);
        return NULL;
    }
    return batched(a, b, err);
}

tensor *tensor_bmm(const tensor *a, const tensor *b, char *err)
{
    if (a->ndim != 3 || b->ndim != 3) {
        tensor_err(err, "batch%d must be a 3D tensor", a->ndim != 3 ? 1 : 2);
        return NULL;
    }
    if (!check_types(a, b, err))
        return NULL;
    if (b->shape[0] != a->shape[0] || b->shape[1] != a->shape[2]) {
        tensor_err(err, "Expected size for first two dimensions of batch2 tensor to be: [%lld, %lld] "
               "but got: [%lld, %lld].", (long long)a->shape[0], (long long)a->shape[2],
               (long long)b->shape[0], (long long)b->shape[1]);
        return NULL;
    }
    return batched(a, b, err);
}

tensor *tensor_matmul(const tensor *a, const tensor *b, char *err)
{
    if (a->ndim == 0 || b->ndim == 0) {
        tensor_err(err, "both arguments to matmul need to be at least 1D, but they are %dD and %dD",
               a->ndim, b->ndim);
        return NULL;
    }
    if (!check_types(a, b, err))
        return NULL;
    int64_t ka = a->shape[a->ndim - 1];
    int64_t kb = b->ndim == 1 ? b->shape[0] : b->shape[b->ndim - 2];
    if (ka != kb) {
        if (a->ndim == 1 && b->ndim == 1)
            tensor_err(err, "inconsistent tensor size, expected tensor [%lld] and src [%lld] to have "
                   "the same number of elements, but got %lld and %lld elements respectively",
                   (long long)ka, (long long)kb, (long long)ka, (long long)kb);
        else if (b->ndim == 1 && a->ndim == 2)
            tensor_err(err, "size mismatch, got input (%lld), mat (%lldx%lld), vec (%lld)",
                   (long long)a->shape[0], (long long)a->shape[0], (long long)ka, (long long)kb);
        else
            tensor_err(err, "mat1 and mat2 shapes cannot be multiplied (%lldx%lld and %lldx%lld)",
                   (long long)(tensor_numel(a) / (ka ? ka : 1)), (long long)ka, (long long)kb,
                   (long long)b->shape[b->ndim - 1]);
        return NULL;
    }
    /* 1-D operands become matrices: a row (1, k) or a column (k, 1). */
    tensor *a2 = a->ndim == 1 ? tensor_unsqueeze(a, 0, err) : tensor_ref((tensor *)a);
    tensor *b2 = b->ndim == 1 ? tensor_unsqueeze(b, 1, err) : tensor_ref((tensor *)b);
    tensor *ea = NULL, *eb = NULL, *prod = NULL, *out = NULL;
    int nb;
    int64_t batch[TENSOR_MAX_DIMS], sa[TENSOR_MAX_DIMS], sb[TENSOR_MAX_DIMS];
    bool ok = a2 && b2 && tensor_broadcast_shapes(a2->ndim - 2, a2->shape, b2->ndim - 2,
                                                  b2->shape, &nb, batch, err);
    if (ok && nb + 2 > TENSOR_MAX_DIMS) {
        tensor_err(err, "tritsim tensors have at most %d dimensions", TENSOR_MAX_DIMS);
        ok = false;
    }
    if (ok) {
        memcpy(sa, batch, sizeof *sa * (size_t)nb);
        memcpy(sb, batch, sizeof *sb * (size_t)nb);
        sa[nb] = a2->shape[a2->ndim - 2];
        sa[nb + 1] = a2->shape[a2->ndim - 1];
        sb[nb] = b2->shape[b2->ndim - 2];
        sb[nb + 1] = b2->shape[b2->ndim - 1];
        ea = tensor_expand(a2, nb + 2, sa, err);
        eb = ea ? tensor_expand(b2, nb + 2, sb, err) : NULL;
        prod = eb ? batched(ea, eb, err) : NULL;
    }
    if (prod) {
        /* Drop the dimensions the 1-D operands added. */
        int64_t shape[TENSOR_MAX_DIMS];
        int n = 0;
        for (int i = 0; i < nb; i++)
            shape[n++] = batch[i];
        if (a->ndim > 1)
            shape[n++] = prod->shape[nb];
        if (b->ndim > 1)
            shape[n++] = prod->shape[nb + 1];
        out = tensor_view(prod, n, shape, err);
    }
    tensor_unref(a2);
    tensor_unref(b2);
    tensor_unref(ea);
    tensor_unref(eb);
    tensor_unref(prod);
    return out;
}
