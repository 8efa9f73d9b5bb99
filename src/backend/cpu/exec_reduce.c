/* exec_reduce.c - the CPU executor's DOT (gemm.c, OpenBLAS for fp64; a
 * 3-D dot is one 2-D product per batch; acc += tl.dot(a, b) accumulates in
 * place), REDUCE and SCAN.
 *
 * Semantics that C leaves open, decided here:
 *   - REDUCE sums floats in the type's own precision, sequentially along
 *     the axis (fp16/bf16: in fp32, rounded once at the end), so results
 *     can differ from the GPU's tree order in the last bits; max/min ignore
 *     NaN unless every element is NaN; argmax/argmin return the first index
 *     of the extreme value, skipping NaN (all NaN: index 0);
 *   - SCAN keeps its running value in the same precision (fp16/bf16 in
 *     fp32, every output rounded). */
#define _POSIX_C_SOURCE 200809L
/* As in exec.c: let GCC vectorise the typed loops behind runtime checks. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("vect-cost-model=dynamic")
#endif
#include "exec_impl.h"

#include <cblas.h>
#include <string.h>

#include "gemm.h"

/* A value missing from a switch over an enum is an error here (ir.h) */
#pragma GCC diagnostic error "-Wswitch"
#pragma GCC diagnostic error "-Wswitch-enum"

/* ======================================================================
 * dot, reduce, scan.
 * ====================================================================== */

/* The three matrix dimensions and the batch count of a DOT. */
typedef struct dot_dims {
    int64_t batch, M, N, K;
} dot_dims;

static dot_dims dot_dims_of(const ir_type *ta, const ir_type *tb)
{
    dot_dims d = {1, 1, 1, 1};
    int nd = ta->ndim;
    for (int i = 0; i < nd - 2; i++)   /* every leading dimension is a batch */
        d.batch *= ta->shape[i];
    if (nd >= 2) {
        d.M = ta->shape[nd - 2];
        d.K = ta->shape[nd - 1];
        d.N = tb->shape[nd - 1];
    }
    return d;
}

/* A float DOT's scratch (the plan sizes it, exec_plan_build): the tf32-rounded
 * copies of A and B, then a result that is not fp32, then gemm's work
 * area.  The layout's parts for the DOT at in. */
typedef struct dot_scratch {
    float *tf32_a, *tf32_b, *result, *work;
} dot_scratch;

static dot_scratch dot_scratch_of(exec_prog *P, dot_dims d)
{
    float *s = (float *)P->w->scratch;
    int64_t nA = d.batch * d.M * d.K, nB = d.batch * d.K * d.N;
    return (dot_scratch){.tf32_a = s, .tf32_b = s + nA, .result = s + nA + nB,
                         .work = s + nA + nB + d.batch * d.M * d.N};
}

/* C = A @ B (C + A @ B when accumulate) over the float lanes of a DOT's
 * operands (tf32-rounded copies in scratch under IR_PREC_TF32), summed as
 * gemm.h defines. */
static void dot_gemm(exec_prog *P, const ir_inst *in, dot_dims d, float *C, bool accumulate)
{
    dot_scratch sc = dot_scratch_of(P, d);
    const float *A = SLOT(P, in->a), *B = SLOT(P, in->b);
    int64_t lda = d.K, ldb = d.N;
    /* operands a fast-path load left in the tensor (FASTPATH_VIEW) */
    if ((P->x->plan.sflags[in->a] & FASTPATH_VIEW) && REC(P, in->a)->valid) {
        A = (const float *)(uintptr_t)REC(P, in->a)->base;
        lda = REC(P, in->a)->st[0];
    }
    if ((P->x->plan.sflags[in->b] & FASTPATH_VIEW) && REC(P, in->b)->valid) {
        B = (const float *)(uintptr_t)REC(P, in->b)->base;
        ldb = REC(P, in->b)->st[0];
    }
    if (in->imm == IR_PREC_TF32) {  /* (fastpath.c leaves tf32 operands in slots) */
        int64_t nA = d.batch * d.M * d.K, nB = d.batch * d.K * d.N;
        for (int64_t i = 0; i < nA; i++)
            sc.tf32_a[i] = round_tf32(A[i]);
        for (int64_t i = 0; i < nB; i++)
            sc.tf32_b[i] = round_tf32(B[i]);
        A = sc.tf32_a;
        B = sc.tf32_b;
    }
    for (int64_t b = 0; b < d.batch; b++)
        gemm_f32(d.M, d.N, d.K, A + b * d.M * lda, lda, B + b * d.K * ldb, ldb,
                 C + b * d.M * d.N, d.N, accumulate, sc.work);
}

/* fp16/bf16/fp32/fp8 inputs: the product of the float lanes, continuing
 * from the accumulator (a tile, or a scalar that combine.c fused in) in the
 * destination when it is fp32, else in scratch that is then rounded to the
 * destination type.  FASTPATH_DOT_INPLACE: in the accumulator's own slot,
 * which the loop's copy would have overwritten with the result anyway. */
static bool dot_f32(exec_prog *P, const ir_inst *in, dot_dims d)
{
    dtype dd = DT(P, in->dst);
    int64_t nC = d.batch * d.M * d.N;
    if (IFLAGS(P, in) & FASTPATH_DOT_INPLACE) {
        dot_gemm(P, in, d, SLOT(P, in->c), true);
        return true;
    }
    bool direct = dd == DTYPE_FP32;
    float *C = direct ? SLOT(P, in->dst) : dot_scratch_of(P, d).result;
    if (in->c >= 0) {
        dtype dc = DT(P, in->c);
        if (NUMEL(P, in->c) == 1 && nC > 1) {
            float v = (float)dtype_cast(lane_get(dc, SLOT(P, in->c), 0), dc, DTYPE_FP32).f;
            for (int64_t i = 0; i < nC; i++)
                C[i] = v;
        } else if (st_of(dc) == ST_F32) {
            if ((void *)C != SLOT(P, in->c))
                memcpy(C, SLOT(P, in->c), (size_t)nC * sizeof(float));
        } else {
            for (int64_t i = 0; i < nC; i++)
                C[i] = (float)dtype_cast(lane_get(dc, SLOT(P, in->c), i), dc, DTYPE_FP32).f;
        }
    }
    dot_gemm(P, in, d, C, in->c >= 0);
    if (!direct) {
        void *D = SLOT(P, in->dst);
        for (int64_t i = 0; i < nC; i++)
            lane_set(dd, D, i, dtype_cast((dtype_scalar){.f = C[i]}, DTYPE_FP32, dd));
    }
    return true;
}

/* Any fp64 operand: dgemm on double copies of what is not fp64 already. */
static bool dot_f64(exec_prog *P, const ir_inst *in, dot_dims d)
{
    dtype da = DT(P, in->a), db = DT(P, in->b), dd = DT(P, in->dst);
    int64_t nA = d.batch * d.M * d.K, nB = d.batch * d.K * d.N, nC = d.batch * d.M * d.N;
    double *scratch = (double *)P->w->scratch;
    const double *A = SLOT(P, in->a), *B = SLOT(P, in->b);
    if (da != DTYPE_FP64) {
        for (int64_t i = 0; i < nA; i++)
            scratch[i] = lane_get(da, SLOT(P, in->a), i).f;
        A = scratch;
    }
    if (db != DTYPE_FP64) {
        for (int64_t i = 0; i < nB; i++)
            scratch[nA + i] = lane_get(db, SLOT(P, in->b), i).f;
        B = scratch + nA;
    }
    bool direct = dd == DTYPE_FP64;
    double *C = direct ? SLOT(P, in->dst) : scratch + nA + nB;
    double beta = 0.0;
    if (in->c >= 0) {
        dtype dc = DT(P, in->c);
        int64_t sc = NUMEL(P, in->c) == 1 ? 0 : 1;      /* a fused scalar */
        for (int64_t i = 0; i < nC && (void *)C != SLOT(P, in->c); i++)
            C[i] = dtype_cast(lane_get(dc, SLOT(P, in->c), i * sc), dc, DTYPE_FP64).f;
        beta = 1.0;
    }
    for (int64_t b = 0; b < d.batch; b++)
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)d.M, (int)d.N,
                    (int)d.K, 1.0, A + b * d.M * d.K, (int)d.K, B + b * d.K * d.N,
                    (int)d.N, beta, C + b * d.M * d.N, (int)d.N);
    if (!direct) {
        void *D = SLOT(P, in->dst);
        for (int64_t i = 0; i < nC; i++)
            lane_set(dd, D, i, dtype_cast((dtype_scalar){.f = C[i]}, DTYPE_FP64, dd));
    }
    return true;
}

/* Integer dot: int8 x int8 -> int32 with a plain triple loop (wrapping
 * sums); other integer types through the generic lane accessors. */
static bool dot_int(exec_prog *P, const ir_inst *in, dot_dims d)
{
    dtype da = DT(P, in->a), db = DT(P, in->b), dd = DT(P, in->dst);
    int64_t nC = d.batch * d.M * d.N;
    void *D = SLOT(P, in->dst);
    if (in->c >= 0 && in->c != in->dst) {
        dtype dc = DT(P, in->c);
        int64_t sc = NUMEL(P, in->c) == 1 ? 0 : 1;      /* a fused scalar */
        for (int64_t i = 0; i < nC; i++)
            lane_set(dd, D, i, dtype_cast(lane_get(dc, SLOT(P, in->c), i * sc), dc, dd));
    } else if (in->c < 0) {
        memset(D, 0, (size_t)nC * (size_t)st_size(st_of(dd)));
    }
    const void *A = SLOT(P, in->a), *B = SLOT(P, in->b);
    if (da == DTYPE_INT8 && db == DTYPE_INT8 && dd == DTYPE_INT32) {
        /* As the GPU's int8 matrix instructions (.satfinite): each group of
         * DOT_I8_K products is summed exactly and added to the accumulator,
         * which saturates at int32's bounds instead of wrapping. */
        enum { DOT_I8_K = 32, DOT_I8_N = 256 };
        const int8_t *a = A, *b = B;
        int32_t *c = D;
        for (int64_t bt = 0; bt < d.batch; bt++)
            for (int64_t m = 0; m < d.M; m++) {
                int32_t *row = c + (bt * d.M + m) * d.N;
                const int8_t *arow = a + (bt * d.M + m) * d.K;
                for (int64_t n0 = 0; n0 < d.N; n0 += DOT_I8_N) {
                    int64_t nb = d.N - n0 < DOT_I8_N ? d.N - n0 : DOT_I8_N;
                    for (int64_t k0 = 0; k0 < d.K; k0 += DOT_I8_K) {
                        int64_t kb = d.K - k0 < DOT_I8_K ? d.K - k0 : DOT_I8_K;
                        int32_t s[DOT_I8_N] = {0};  /* |s| <= 32 * 2^14: exact */
                        for (int64_t k = k0; k < k0 + kb; k++) {
                            int32_t av = arow[k];
                            const int8_t *brow = b + (bt * d.K + k) * d.N + n0;
                            for (int64_t n = 0; n < nb; n++)
                                s[n] += av * brow[n];
                        }
                        for (int64_t n = 0; n < nb; n++) {
                            int64_t v = (int64_t)row[n0 + n] + s[n];
                            row[n0 + n] = v > INT32_MAX ? INT32_MAX
                                          : v < INT32_MIN ? INT32_MIN : (int32_t)v;
                        }
                    }
                }
            }
        return true;
    }
    for (int64_t bt = 0; bt < d.batch; bt++)
        for (int64_t m = 0; m < d.M; m++)
            for (int64_t n = 0; n < d.N; n++) {
                int64_t ci = (bt * d.M + m) * d.N + n;
                uint64_t acc = (uint64_t)lane_get(dd, D, ci).i;
                for (int64_t k = 0; k < d.K; k++) {
                    dtype_scalar x = dtype_cast(lane_get(da, A, (bt * d.M + m) * d.K + k), da, DTYPE_INT64);
                    dtype_scalar y = dtype_cast(lane_get(db, B, (bt * d.K + k) * d.N + n), db, DTYPE_INT64);
                    acc += x.u * y.u;
                }
                lane_set(dd, D, ci, dtype_wrap(dd, acc));
            }
    return true;
}

bool exec_op_dot(exec_prog *P, const ir_inst *in)
{
    dot_dims d = dot_dims_of(TYPE(P, in->a), TYPE(P, in->b));
    dtype da = DT(P, in->a), db = DT(P, in->b), dd = DT(P, in->dst);
    if (dtype_is_float(da) && dtype_is_float(db)) {
        if (da == DTYPE_FP64 || db == DTYPE_FP64 || dd == DTYPE_FP64)
            return dot_f64(P, in, d);
        return dot_f32(P, in, d);
    }
    if (dtype_is_int(da) && dtype_is_int(db))
        return dot_int(P, in, d);
    return exec_internal(P, in, "of mixed int and float operands");
}

/* The view [outer, len, inner] of a tile reduced or scanned along axis
 * (axis < 0: all elements in one row). */
static void axis_view(const ir_type *t, int64_t axis, int64_t *outer, int64_t *len,
                      int64_t *inner)
{
    *outer = *len = *inner = 1;
    for (int d = 0; d < t->ndim; d++) {
        if (axis < 0 || d == axis)
            *len *= t->shape[d];
        else if (d < axis)
            *outer *= t->shape[d];
        else
            *inner *= t->shape[d];
    }
}

/* D[o, i] = combine over r of A[o, r, i], in order of r; the accumulator
 * lives in D (the rows are contiguous, so the inner loop vectorises). */
#define RED_LOOP(T, EXPR) do { \
    const T *s_ = (const T *)A; T *d_ = (T *)D; \
    for (int64_t o = 0; o < outer; o++) { \
        const T *so_ = s_ + o * len * inner; T *do_ = d_ + o * inner; \
        if (inner == 1) { \
            T acc = so_[0]; \
            for (int64_t r = 1; r < len; r++) { T v = so_[r]; acc = (T)(EXPR); } \
            do_[0] = acc; \
            continue; \
        } \
        memcpy(do_, so_, (size_t)inner * sizeof(T)); \
        for (int64_t r = 1; r < len; r++) { \
            const T *x_ = so_ + r * inner; \
            for (int64_t i = 0; i < inner; i++) { T acc = do_[i], v = x_[i]; do_[i] = (T)(EXPR); } \
        } \
    } \
} while (0)

#define REDUCE_INT(T, W, S) do { \
    switch ((ir_reduce)in->sub) { \
    case IR_RED_SUM: RED_LOOP(T, (W)acc + (W)v); break; \
    case IR_RED_PROD: RED_LOOP(T, (W)acc * (W)v); break; \
    case IR_RED_MAX: RED_LOOP(T, v > acc ? v : acc); break; \
    case IR_RED_MIN: RED_LOOP(T, v < acc ? v : acc); break; \
    case IR_RED_XOR: RED_LOOP(T, acc ^ v); break; \
    case IR_RED_AND: RED_LOOP(T, acc & v); break; \
    case IR_RED_OR: RED_LOOP(T, acc | v); break; \
    case IR_RED_ARGMAX: case IR_RED_ARGMIN: return exec_internal(P, in, "variant"); \
    } \
} while (0)

/* max/min skip NaN: a NaN accumulator is replaced by the next value. */
#define REDUCE_FLOAT(T, F) do { \
    switch ((ir_reduce)in->sub) { \
    case IR_RED_SUM: RED_LOOP(T, acc + v); break; \
    case IR_RED_PROD: RED_LOOP(T, acc * v); break; \
    case IR_RED_MAX: RED_LOOP(T, v > acc || acc != acc ? v : acc); break; \
    case IR_RED_MIN: RED_LOOP(T, v < acc || acc != acc ? v : acc); break; \
    case IR_RED_ARGMAX: case IR_RED_ARGMIN: case IR_RED_XOR: case IR_RED_AND: \
    case IR_RED_OR: \
        return exec_internal(P, in, "variant"); \
    } \
} while (0)

/* argmax/argmin: the first index of the extreme value along the axis. */
#define ARG_LOOP(T, BETTER) do { \
    const T *s_ = (const T *)A; \
    for (int64_t o = 0; o < outer; o++) \
        for (int64_t i = 0; i < inner; i++) { \
            const T *x_ = s_ + o * len * inner + i; \
            T best = x_[0]; int64_t at = 0; \
            for (int64_t r = 1; r < len; r++) { \
                T v = x_[r * inner]; \
                if (BETTER) { best = v; at = r; } \
            } \
            lane_set(dd, D, o * inner + i, (dtype_scalar){.i = at}); \
        } \
} while (0)

#define ARG_INT(T, W, S) do { \
    if (in->sub == IR_RED_ARGMAX) ARG_LOOP(T, v > best); \
    else ARG_LOOP(T, v < best); \
} while (0)
#define ARG_FLOAT(T, F) do { \
    if (in->sub == IR_RED_ARGMAX) ARG_LOOP(T, v > best || (best != best && v == v)); \
    else ARG_LOOP(T, v < best || (best != best && v == v)); \
} while (0)

/* A float32 sum along a contiguous axis (RED_LOOP's order and bits):
 * acc + (+0.0) is acc for every acc but -0.0, which becomes +0.0, and a
 * signalling NaN, made quiet; adding +0.0 again changes nothing more.  So
 * a run of +0.0 at the end of the axis (the masked-off lanes of a
 * power-of-two block, where() set to 0) costs one addition, not one
 * dependent addition per lane. */
static void sum_f32_rows(const float *s, float *d, int64_t outer, int64_t len)
{
    for (int64_t o = 0; o < outer; o++) {
        const float *x = s + o * len;
        int64_t end = len;
        for (uint32_t b; end > 1; end--) {
            memcpy(&b, &x[end - 1], sizeof b);
            if (b)
                break;
        }
        float acc = x[0];
        for (int64_t r = 1; r < end; r++)
            acc += x[r];
        if (end < len)
            acc += 0.0f;
        d[o] = acc;
    }
}

bool exec_op_reduce(exec_prog *P, const ir_inst *in)
{
    int64_t outer, len, inner;
    axis_view(TYPE(P, in->a), in->imm, &outer, &len, &inner);
    dtype t = DT(P, in->a), dd = DT(P, in->dst);
    const void *A = SLOT(P, in->a);
    void *D = SLOT(P, in->dst);
    if (in->sub == IR_RED_ARGMAX || in->sub == IR_RED_ARGMIN) {
        FOR_STK(st_of(t), ARG_INT, ARG_FLOAT);
        return true;
    }
    if (in->sub == IR_RED_SUM && st_of(t) == ST_F32 && inner == 1 && len > 0)
        sum_f32_rows(A, D, outer, len);
    else
        FOR_STK(st_of(t), REDUCE_INT, REDUCE_FLOAT);
    if (t == DTYPE_INT1)
        wrap_int1(D, NUMEL(P, in->dst));
    else
        round_lanes(t, D, NUMEL(P, in->dst));
    return true;
}

/* Inclusive scan along the axis: D[o, r, i] = combine(D[o, r-1, i],
 * A[o, r, i]).  D may be A. */
#define SCAN_LOOP(T, EXPR) do { \
    const T *s_ = (const T *)A; T *d_ = (T *)D; \
    for (int64_t o = 0; o < outer; o++) { \
        const T *so_ = s_ + o * len * inner; T *do_ = d_ + o * inner * len; \
        memmove(do_, so_, (size_t)inner * sizeof(T)); \
        for (int64_t r = 1; r < len; r++) \
            for (int64_t i = 0; i < inner; i++) { \
                T acc = do_[(r - 1) * inner + i], v = so_[r * inner + i]; \
                do_[r * inner + i] = (T)(EXPR); \
            } \
    } \
} while (0)

#define SCAN_INT(T, W, S) do { \
    switch ((ir_reduce)in->sub) { \
    case IR_RED_SUM: SCAN_LOOP(T, (W)acc + (W)v); break; \
    case IR_RED_PROD: SCAN_LOOP(T, (W)acc * (W)v); break; \
    case IR_RED_MAX: SCAN_LOOP(T, v > acc ? v : acc); break; \
    case IR_RED_MIN: SCAN_LOOP(T, v < acc ? v : acc); break; \
    case IR_RED_XOR: SCAN_LOOP(T, acc ^ v); break; \
    case IR_RED_AND: SCAN_LOOP(T, acc & v); break; \
    case IR_RED_OR: SCAN_LOOP(T, acc | v); break; \
    case IR_RED_ARGMAX: case IR_RED_ARGMIN: return exec_internal(P, in, "variant"); \
    } \
} while (0)

#define SCAN_FLOAT(T, F) do { \
    switch ((ir_reduce)in->sub) { \
    case IR_RED_SUM: SCAN_LOOP(T, acc + v); break; \
    case IR_RED_PROD: SCAN_LOOP(T, acc * v); break; \
    case IR_RED_MAX: SCAN_LOOP(T, v > acc || acc != acc ? v : acc); break; \
    case IR_RED_MIN: SCAN_LOOP(T, v < acc || acc != acc ? v : acc); break; \
    case IR_RED_ARGMAX: case IR_RED_ARGMIN: case IR_RED_XOR: case IR_RED_AND: \
    case IR_RED_OR: \
        return exec_internal(P, in, "variant"); \
    } \
} while (0)

/* fp16/bf16 scans: the running value stays in fp32; each output rounds. */
static bool scan_narrow(exec_prog *P, const ir_inst *in, int64_t outer, int64_t len,
                        int64_t inner)
{
    dtype t = DT(P, in->dst);
    const float *s = SLOT(P, in->a);
    float *d = SLOT(P, in->dst);
    for (int64_t o = 0; o < outer; o++)
        for (int64_t i = 0; i < inner; i++) {
            float acc = 0;
            for (int64_t r = 0; r < len; r++) {
                int64_t at = (o * len + r) * inner + i;
                float v = s[at];
                if (r == 0)
                    acc = v;
                else if (in->sub == IR_RED_SUM)
                    acc += v;
                else if (in->sub == IR_RED_PROD)
                    acc *= v;
                else if (in->sub == IR_RED_MAX)
                    acc = v > acc || acc != acc ? v : acc;
                else if (in->sub == IR_RED_MIN)
                    acc = v < acc || acc != acc ? v : acc;
                else
                    return exec_internal(P, in, "variant");
                d[at] = t == DTYPE_FP16 ? round_f16(acc) : round_bf16(acc);
            }
        }
    return true;
}

bool exec_op_scan(exec_prog *P, const ir_inst *in)
{
    int64_t outer, len, inner;
    axis_view(TYPE(P, in->a), in->imm, &outer, &len, &inner);
    dtype t = DT(P, in->a);
    if (t == DTYPE_FP16 || t == DTYPE_BF16)
        return scan_narrow(P, in, outer, len, inner);
    const void *A = SLOT(P, in->a);
    void *D = SLOT(P, in->dst);
    FOR_STK(st_of(t), SCAN_INT, SCAN_FLOAT);
    if (t == DTYPE_INT1)
        wrap_int1(D, NUMEL(P, in->dst));
    return true;
}
