/* exec_tile.c - the CPU executor's tile operations: data movement
 * (BROADCAST, TRANS, FLIP: strided gathers; CONCAT, SLICE: block copies;
 * GATHER, HISTOGRAM), casts, arithmetic, comparisons, WHERE, MATH and
 * pointer arithmetic.  One function per opcode; each dispatches once on
 * the element type and runs a tight typed loop (the MAP macros), so no
 * per-element type switch happens on the common paths; data movement
 * moves raw lanes, whatever their type.
 *
 * Semantics that C leaves open, decided here:
 *   - integer arithmetic wraps at the type's width (done in unsigned C
 *     arithmetic so no signed overflow ever happens in C);
 *   - integer // and % truncate (C's, via dtype_floordiv_* / dtype_mod_*);
 *     division by zero gives 0 and reports nothing (the GPU gives garbage);
 *   - shifts by a count >= the width (or negative) give 0, or the sign
 *     fill for >> on signed types;
 *   - fp16/bf16 arithmetic is done in fp32 and rounded once to the type
 *     (exact-equivalent for + - * / sqrt, since 24 >= 2p + 2);
 *   - float -> int casts saturate and map NaN to 0 (dtype_cast);
 *   - libdevice's float functions (MATH) compute fp32 lanes in double and
 *     round once, so they are correctly rounded but for rare double
 *     roundings (CUDA's libdevice has ulp errors of its own); the *_rz,
 *     *_rd, *_ru operations set the rounding mode (fesetround) around
 *     their loop. */
#define _POSIX_C_SOURCE 200809L
/* As in exec.c: let GCC vectorise the typed loops behind runtime checks. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("vect-cost-model=dynamic")
#endif
#include "exec_impl.h"

#include <fenv.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "addrmap.h"
#include "fault.h"
#include "mathfn.h"

/* A value missing from a switch over an enum is an error here (ir.h) */
#pragma GCC diagnostic error "-Wswitch"
#pragma GCC diagnostic error "-Wswitch-enum"

/* ======================================================================
 * Elementwise loops.
 *
 * The macros use the names in scope: n (lanes), D (destination), A, B, C
 * (operands) and sa, sb, sc (their strides: 1, or 0 for a scalar that
 * broadcasts without being materialised).  Inside EXPR the current lane's
 * operands are a, b (and c).  MAP1 and MAP2 expand one loop per stride
 * pattern so the all-tile loop stays plain enough to vectorise.
 * ====================================================================== */

#define MAP1(TA, TD, EXPR) do { \
    const TA *pa_ = (const TA *)A; TD *pd_ = (TD *)D; \
    if (sa) { \
        for (int64_t i = 0; i < n; i++) { TA a = pa_[i]; pd_[i] = (TD)(EXPR); } \
    } else { \
        TA a = pa_[0]; TD r_ = (TD)(EXPR); \
        for (int64_t i = 0; i < n; i++) pd_[i] = r_; \
    } \
} while (0)

#define MAP2(TA, TD, EXPR) do { \
    const TA *pa_ = (const TA *)A, *pb_ = (const TA *)B; TD *pd_ = (TD *)D; \
    if (sa && sb) { \
        for (int64_t i = 0; i < n; i++) { TA a = pa_[i], b = pb_[i]; pd_[i] = (TD)(EXPR); } \
    } else if (sa) { \
        TA b = pb_[0]; \
        for (int64_t i = 0; i < n; i++) { TA a = pa_[i]; pd_[i] = (TD)(EXPR); } \
    } else if (sb) { \
        TA a = pa_[0]; \
        for (int64_t i = 0; i < n; i++) { TA b = pb_[i]; pd_[i] = (TD)(EXPR); } \
    } else { \
        TA a = pa_[0], b = pb_[0]; TD r_ = (TD)(EXPR); \
        for (int64_t i = 0; i < n; i++) pd_[i] = r_; \
    } \
} while (0)

#define MAP3(TA, TD, EXPR) do { \
    const TA *pa_ = (const TA *)A, *pb_ = (const TA *)B, *pc_ = (const TA *)C; \
    TD *pd_ = (TD *)D; \
    for (int64_t i = 0; i < n; i++) { \
        TA a = pa_[i * sa], b = pb_[i * sb], c = pc_[i * sc]; pd_[i] = (TD)(EXPR); \
    } \
} while (0)

/* Integer // and %: C's truncating division through dtype.h. */
#define IDIV(S, a, b) ((S) ? (uint64_t)dtype_floordiv_i64((int64_t)(a), (int64_t)(b)) \
                           : dtype_floordiv_u64((uint64_t)(a), (uint64_t)(b)))
#define IMOD(S, a, b) ((S) ? (uint64_t)dtype_mod_i64((int64_t)(a), (int64_t)(b)) \
                           : dtype_mod_u64((uint64_t)(a), (uint64_t)(b)))

/* IEEE minimum/maximum (NaN propagates; -0 < +0), for propagate_nan=ALL. */
static inline double fminnan(double a, double b)
{
    if (a != a || b != b)
        return a + b;
    return a < b ? a : b < a ? b : signbit(a) ? a : b;
}
static inline double fmaxnan(double a, double b)
{
    if (a != a || b != b)
        return a + b;
    return a > b ? a : b > a ? b : signbit(a) ? b : a;
}
static inline float fminnanf(float a, float b) { return (float)fminnan(a, b); }
static inline float fmaxnanf(float a, float b) { return (float)fmaxnan(a, b); }

/* ---- data movement --------------------------------------------------- */

/* D[index] = A[sum(index[i] * stride[i])] over the nd-dimensional shape,
 * elements of sz bytes: BROADCAST and TRANS are strided gathers. */
#define GATHER(T) do { \
    T *d_ = (T *)D; const T *s_ = (const T *)A; \
    int64_t idx_[IR_MAX_DIM] = {0}, off_ = 0; \
    int64_t inner_ = shape[nd - 1], st_ = stride[nd - 1]; \
    for (int64_t done_ = 0; done_ < total; done_ += inner_) { \
        for (int64_t j_ = 0; j_ < inner_; j_++) \
            *d_++ = s_[off_ + j_ * st_]; \
        for (int ax_ = nd - 2; ax_ >= 0; ax_--) { \
            off_ += stride[ax_]; \
            if (++idx_[ax_] < shape[ax_]) \
                break; \
            off_ -= stride[ax_] * shape[ax_]; \
            idx_[ax_] = 0; \
        } \
    } \
} while (0)

static void gather(void *D, const void *A, int sz, int nd, const int64_t *shape,
                   const int64_t *stride)
{
    int64_t total = 1;
    for (int i = 0; i < nd; i++)
        total *= shape[i];
    if (nd == 0) {
        memcpy(D, A, (size_t)sz);
        return;
    }
    switch (sz) {
    case 1: GATHER(uint8_t); break;
    case 2: GATHER(uint16_t); break;
    case 4: GATHER(uint32_t); break;
    default: GATHER(uint64_t); break;
    }
}

/* Row-major strides (in elements) of a type. */
static void row_strides(const ir_type *t, int64_t *stride)
{
    int64_t s = 1;
    for (int d = t->ndim - 1; d >= 0; d--) {
        stride[d] = s;
        s *= t->shape[d];
    }
}

bool exec_op_broadcast(exec_prog *P, const ir_inst *in)
{
    const ir_type *td = TYPE(P, in->dst), *ta = TYPE(P, in->a);
    int64_t astride[IR_MAX_DIM], shape[IR_MAX_DIM], stride[IR_MAX_DIM];
    row_strides(ta, astride);
    /* numpy: align the shapes on the right; size-1 and missing axes
     * repeat (stride 0). */
    for (int d = 0; d < td->ndim; d++) {
        int j = d - (td->ndim - ta->ndim);
        shape[d] = td->shape[d];
        stride[d] = j < 0 || ta->shape[j] == 1 ? 0 : astride[j];
    }
    gather(SLOT(P, in->dst), SLOT(P, in->a), st_size(st_of(td->dt)), td->ndim,
           shape, stride);
    return true;
}

bool exec_op_trans(exec_prog *P, const ir_inst *in)
{
    const ir_type *td = TYPE(P, in->dst), *ta = TYPE(P, in->a);
    int64_t astride[IR_MAX_DIM], shape[IR_MAX_DIM], stride[IR_MAX_DIM];
    row_strides(ta, astride);
    for (int d = 0; d < td->ndim; d++) {
        int from = ir_trans_axis(in, d);
        shape[d] = td->shape[d];
        stride[d] = astride[from];
    }
    gather(SLOT(P, in->dst), SLOT(P, in->a), st_size(st_of(td->dt)), td->ndim,
           shape, stride);
    return true;
}

/* FLIP: the same gather, starting at the last element of the axis and
 * walking it backwards. */
bool exec_op_flip(exec_prog *P, const ir_inst *in)
{
    const ir_type *ta = TYPE(P, in->a);
    int64_t shape[IR_MAX_DIM], stride[IR_MAX_DIM];
    int sz = st_size(st_of(ta->dt)), ax = (int)in->imm;
    row_strides(ta, stride);
    for (int d = 0; d < ta->ndim; d++)
        shape[d] = ta->shape[d];
    const char *A = (const char *)SLOT(P, in->a) + (shape[ax] - 1) * stride[ax] * sz;
    stride[ax] = -stride[ax];
    gather(SLOT(P, in->dst), A, sz, ta->ndim, shape, stride);
    return true;
}

/* The byte size of one step along axis (the elements after it). */
static int64_t axis_block(const ir_type *t, int axis, int sz)
{
    int64_t inner = sz;
    for (int d = axis + 1; d < t->ndim; d++)
        inner *= t->shape[d];
    return inner;
}

/* CONCAT and SLICE copy whole blocks: for each index before the axis, a
 * contiguous run of rows along it. */
bool exec_op_concat(exec_prog *P, const ir_inst *in)
{
    const ir_type *ta = TYPE(P, in->a), *tb = TYPE(P, in->b);
    int ax = (int)in->imm, sz = st_size(st_of(ta->dt));
    int64_t blk = axis_block(ta, ax, sz), outer = 1;
    for (int d = 0; d < ax; d++)
        outer *= ta->shape[d];
    size_t na = (size_t)(ta->shape[ax] * blk), nb = (size_t)(tb->shape[ax] * blk);
    char *D = SLOT(P, in->dst);
    const char *A = SLOT(P, in->a), *B = SLOT(P, in->b);
    for (int64_t o = 0; o < outer; o++) {
        memcpy(D, A + o * (int64_t)na, na);
        memcpy(D + na, B + o * (int64_t)nb, nb);
        D += na + nb;
    }
    return true;
}

bool exec_op_slice(exec_prog *P, const ir_inst *in)
{
    const ir_type *ta = TYPE(P, in->a), *td = TYPE(P, in->dst);
    int ax = ir_slice_axis(in), sz = st_size(st_of(ta->dt));
    int64_t blk = axis_block(ta, ax, sz), outer = 1, start = ir_slice_start(in);
    for (int d = 0; d < ax; d++)
        outer *= ta->shape[d];
    size_t nd = (size_t)(td->shape[ax] * blk);
    char *D = SLOT(P, in->dst);
    const char *A = (const char *)SLOT(P, in->a) + start * blk;
    for (int64_t o = 0; o < outer; o++)
        memcpy(D + o * (int64_t)nd, A + o * ta->shape[ax] * blk, nd);
    return true;
}

/* GATHER: dst[i] = a[i with its axis coordinate replaced by b[i]]; an
 * index outside the axis stops the program, naming the lane. */
bool exec_op_gather(exec_prog *P, const ir_inst *in)
{
    const ir_type *ta = TYPE(P, in->a), *td = TYPE(P, in->dst);
    int ax = (int)in->imm, sz = st_size(st_of(ta->dt));
    dtype it = DT(P, in->b);
    bool sgn = dtype_is_signed(it);
    int64_t astride[IR_MAX_DIM], idx[IR_MAX_DIM] = {0}, n = NUMEL(P, in->dst);
    row_strides(ta, astride);
    char *D = SLOT(P, in->dst);
    const char *A = SLOT(P, in->a);
    const void *X = SLOT(P, in->b);
    for (int64_t lane = 0; lane < n; lane++) {
        dtype_scalar v = lane_get(it, X, lane);
        int64_t k = sgn ? v.i : (int64_t)v.u;
        if ((!sgn && v.u >= (uint64_t)ta->shape[ax]) || k < 0 || k >= ta->shape[ax]) {
            char ln[64];
            exec_lane_name(ln, sizeof ln, td, lane);
            bool neg = sgn && v.i < 0;
            strbuf msg = {0}, note = {0};
            backend_fault_gather(P->coord, ln, neg, neg ? (uint64_t)0 - (uint64_t)v.i
                                 : sgn ? (uint64_t)v.i : v.u, ax, ta->shape[ax], &msg, &note);
            exec_fail(P, in, strbuf_cstr(&note), "%s", strbuf_cstr(&msg));
            strbuf_free(&msg);
            strbuf_free(&note);
            return false;
        }
        int64_t off = 0;
        for (int d = 0; d < td->ndim; d++)
            off += (d == ax ? k : idx[d]) * astride[d];
        memcpy(D + lane * sz, A + off * sz, (size_t)sz);
        for (int d = td->ndim - 1; d >= 0 && ++idx[d] == td->shape[d]; d--)
            idx[d] = 0;
    }
    return true;
}

/* HISTOGRAM: dst(int32 [bins]) counts the values of a in [0, bins), for
 * lanes where b (int1; -1: all); values outside are not counted. */
bool exec_op_histogram(exec_prog *P, const ir_inst *in)
{
    dtype it = DT(P, in->a);
    bool sgn = dtype_is_signed(it);
    int64_t n = NUMEL(P, in->a), bins = NUMEL(P, in->dst);
    int32_t *D = SLOT(P, in->dst);
    const void *A = SLOT(P, in->a);
    const uint8_t *M = in->b >= 0 ? SLOT(P, in->b) : NULL;
    memset(D, 0, (size_t)bins * sizeof *D);
    for (int64_t i = 0; i < n; i++) {
        if (M && !M[i])
            continue;
        dtype_scalar v = lane_get(it, A, i);
        if (sgn ? v.i >= 0 && v.i < bins : v.u < (uint64_t)bins)
            D[sgn ? v.i : (int64_t)v.u]++;
    }
    return true;
}

/* ---- casts ----------------------------------------------------------- */

/* Saturating float -> int (NaN -> 0), as dtype_cast does. */
static inline int32_t sat_i32(double x)
{
    if (x != x)
        return 0;
    if (x >= 2147483648.0)
        return INT32_MAX;
    if (x <= -2147483649.0)
        return INT32_MIN;
    return (int32_t)x;
}

static inline int64_t sat_i64(double x)
{
    if (x != x)
        return 0;
    if (x >= 9223372036854775808.0)
        return INT64_MAX;
    if (x < -9223372036854775808.0)
        return INT64_MIN;
    return (int64_t)x;
}

/* Integer (or pointer) -> integer of another width: C's conversions wrap
 * and sign-extend exactly as dtype_cast does (except to int1). */
#define CAST_INT_TO(T, W, S) do { \
    switch (ts) { \
    case ST_I8: MAP1(T, int8_t, a); break; \
    case ST_I16: MAP1(T, int16_t, a); break; \
    case ST_I32: MAP1(T, int32_t, a); break; \
    case ST_I64: MAP1(T, int64_t, a); break; \
    case ST_U8: MAP1(T, uint8_t, a); break; \
    case ST_U16: MAP1(T, uint16_t, a); break; \
    case ST_U32: MAP1(T, uint32_t, a); break; \
    case ST_U64: MAP1(T, uint64_t, a); break; \
    case ST_B: case ST_F32: case ST_F64: return false; \
    } \
} while (0)

/* Any type -> int1: nonzero (NaN counts as nonzero, fcmp UNE). */
#define CAST_TO_BOOL(T, W, S) MAP1(T, uint8_t, a != 0)
#define CAST_TO_BOOL_F(T, F) MAP1(T, uint8_t, a != 0)
/* Integer -> fp32 / fp64: C rounds correctly. */
#define CAST_INT_TO_F32(T, W, S) MAP1(T, float, a)
#define CAST_INT_TO_F64(T, W, S) MAP1(T, double, a)
#define CAST_NONE_F(T, F) return false

static bool cast_fast(dtype from, dtype to, void *D, const void *A, int64_t n,
                      int64_t sa)
{
    stk fs = st_of(from), ts = st_of(to);
    bool fint = !st_is_float(fs), tint = !st_is_float(ts);
    if (to == DTYPE_INT1) {
        FOR_STK(fs, CAST_TO_BOOL, CAST_TO_BOOL_F);
        return true;
    }
    if (fint && tint) {
        FOR_STK(fs, CAST_INT_TO, CAST_NONE_F);
        return true;
    }
    if (fint && to == DTYPE_FP32) {
        FOR_STK(fs, CAST_INT_TO_F32, CAST_NONE_F);
        return true;
    }
    if (fint && to == DTYPE_FP64) {
        FOR_STK(fs, CAST_INT_TO_F64, CAST_NONE_F);
        return true;
    }
    if (fint && (to == DTYPE_FP16 || to == DTYPE_BF16) && dtype_bits(from) <= 16) {
        /* exact in fp32, so one rounding */
        FOR_STK(fs, CAST_INT_TO_F32, CAST_NONE_F);
        round_lanes(to, D, n);
        return true;
    }
    if (fs == ST_F32 && to == DTYPE_FP32) {
        MAP1(float, float, a);                 /* fp16/bf16/fp8 values are exact */
        return true;
    }
    if (fs == ST_F32 && (to == DTYPE_FP16 || to == DTYPE_BF16)) {
        MAP1(float, float, a);
        round_lanes(to, D, n);
        return true;
    }
    if (fs == ST_F32 && to == DTYPE_FP64) { MAP1(float, double, a); return true; }
    if (fs == ST_F64 && to == DTYPE_FP32) { MAP1(double, float, a); return true; }
    /* fp64 -> fp16/bf16 rounds once from the double (fpconv.h) */
    if (fs == ST_F64 && to == DTYPE_FP16) {
        MAP1(double, float, fpconv_f16_to_f32(fpconv_f64_to_f16(a)));
        return true;
    }
    if (fs == ST_F64 && to == DTYPE_BF16) {
        MAP1(double, float, fpconv_bf16_to_f32(fpconv_f64_to_bf16(a)));
        return true;
    }
    if (fs == ST_F32 && to == DTYPE_INT32) { MAP1(float, int32_t, sat_i32(a)); return true; }
    if (fs == ST_F64 && to == DTYPE_INT32) { MAP1(double, int32_t, sat_i32(a)); return true; }
    if (fs == ST_F32 && to == DTYPE_INT64) { MAP1(float, int64_t, sat_i64(a)); return true; }
    if (fs == ST_F64 && to == DTYPE_INT64) { MAP1(double, int64_t, sat_i64(a)); return true; }
    return false;
}

/* A cast between pointers and integers.  int -> pointer: each address
 * that lies in a storage of the registry (addrmap.h: tensors whose
 * data_ptr() the program took) gets that storage's tag, so that accesses
 * through it are checked against it; any other address (one in a pointer
 * argument, or in nothing) stays as it is, and check_access decides.
 * pointer -> int: the address without its tag. */
static bool cast_pointer(exec_prog *P, const ir_inst *in, dtype from, dtype to, void *D,
                         const void *A, int64_t n, int64_t sa)
{
    (void)in;
    uint64_t *d = D;
    for (int64_t i = 0; i < n; i++) {
        dtype_scalar v = lane_get(from, A, i * sa);
        if (dtype_is_ptr(from)) {
            if (P->x->plan.int_ptrs)
                v.u = addrmap_untag(v.u);
            lane_set(to, D, i, dtype_cast(v, from, to));
            continue;
        }
        uint64_t ad = dtype_cast(v, from, to).u;
        int tag = addrmap_find(ad);
        d[i] = tag ? addrmap_tagged(ad, tag) : ad;
    }
    return true;
}

bool exec_op_cast(exec_prog *P, const ir_inst *in)
{
    dtype from = DT(P, in->a), to = DT(P, in->dst);
    int64_t n = NUMEL(P, in->dst), sa = STRIDE(P, in->a);
    void *D = SLOT(P, in->dst);
    const void *A = SLOT(P, in->a);
    bool tf32 = in->sub == IR_CAST_TF32 && from == DTYPE_FP32;
    bool rtz = in->sub == IR_CAST_RTZ;
    if (dtype_is_ptr(to) != dtype_is_ptr(from))
        return cast_pointer(P, in, from, to, D, A, n, sa);
    if (!tf32 && !rtz && !P->x->L->plain && cast_fast(from, to, D, A, n, sa))
        return true;
    /* Everything else, one lane at a time through dtype_cast. */
    for (int64_t i = 0; i < n; i++) {
        dtype_scalar v = lane_get(from, A, i * sa);
        if (tf32)
            v.f = round_tf32((float)v.f);
        if (rtz)
            v.f = dtype_round_float_rtz(to, v.f);   /* then exact in `to` */
        lane_set(to, D, i, dtype_cast(v, from, to));
    }
    return true;
}

bool exec_op_bitcast(exec_prog *P, const ir_inst *in)
{
    dtype from = DT(P, in->a), to = DT(P, in->dst);
    int64_t n = NUMEL(P, in->dst), sa = STRIDE(P, in->a);
    const void *A = SLOT(P, in->a);
    void *D = SLOT(P, in->dst);
    if (same_repr(from) && same_repr(to) && sa == 1) {
        memcpy(D, A, (size_t)n * (size_t)st_size(st_of(to)));
        return true;
    }
    /* Through the memory format: fp16 <-> int16 needs the 16-bit pattern. */
    for (int64_t i = 0; i < n; i++) {
        unsigned char bits[8] = {0};
        dtype_store(from, bits, lane_get(from, A, i * sa));
        lane_set(to, D, i, dtype_load(to, bits));
    }
    return true;
}

/* ---- arithmetic ------------------------------------------------------ */

#define UNARY_INT(T, W, S) do { \
    switch ((ir_unop)in->sub) { \
    case IR_NEG: MAP1(T, T, (T)(0 - (W)a)); break; \
    case IR_INVERT: MAP1(T, T, (T)~(W)a); break; \
    case IR_NOT: MAP1(T, T, a == 0); break; \
    } \
} while (0)

#define UNARY_FLOAT(T, F) do { \
    switch ((ir_unop)in->sub) { \
    case IR_NEG: MAP1(T, T, -a); break; \
    case IR_NOT: MAP1(T, T, a == 0); break; \
    case IR_INVERT: return exec_internal(P, in, "variant"); \
    } \
} while (0)

bool exec_op_unary(exec_prog *P, const ir_inst *in)
{
    dtype t = DT(P, in->dst);
    int64_t n = NUMEL(P, in->dst), sa = STRIDE(P, in->a);
    void *D = SLOT(P, in->dst);
    const void *A = SLOT(P, in->a);
    FOR_STK(st_of(t), UNARY_INT, UNARY_FLOAT);
    if (t == DTYPE_INT1)
        wrap_int1(D, n);
    return true;
}

#define BINARY_INT(T, W, S) do { \
    switch ((ir_binop)in->sub) { \
    case IR_ADD: MAP2(T, T, (T)((W)a + (W)b)); break; \
    case IR_SUB: MAP2(T, T, (T)((W)a - (W)b)); break; \
    case IR_MUL: MAP2(T, T, (T)((W)a * (W)b)); break; \
    case IR_DIV: case IR_FLOORDIV: MAP2(T, T, (T)IDIV(S, a, b)); break; \
    case IR_MOD: MAP2(T, T, (T)IMOD(S, a, b)); break; \
    case IR_AND: MAP2(T, T, a & b); break; \
    case IR_OR: MAP2(T, T, a | b); break; \
    case IR_XOR: MAP2(T, T, a ^ b); break; \
    case IR_MIN: case IR_MIN_NAN: MAP2(T, T, a < b ? a : b); break; \
    case IR_MAX: case IR_MAX_NAN: MAP2(T, T, a > b ? a : b); break; \
    case IR_SHL: case IR_SHR:       /* op_shift */ \
    case IR_POW: case IR_ATAN2: case IR_FDIV_RN: \
        return exec_internal(P, in, "variant"); \
    } \
} while (0)

#define BINARY_FLOAT(T, F) do { \
    switch ((ir_binop)in->sub) { \
    case IR_ADD: MAP2(T, T, a + b); break; \
    case IR_SUB: MAP2(T, T, a - b); break; \
    case IR_MUL: MAP2(T, T, a * b); break; \
    case IR_DIV: case IR_FDIV_RN: MAP2(T, T, a / b); break; \
    case IR_FLOORDIV: MAP2(T, T, floor##F(a / b)); break; \
    case IR_MOD: MAP2(T, T, fmod##F(a, b)); break; \
    case IR_MIN: MAP2(T, T, fmin##F(a, b)); break; \
    case IR_MAX: MAP2(T, T, fmax##F(a, b)); break; \
    case IR_MIN_NAN: MAP2(T, T, fminnan##F(a, b)); break; \
    case IR_MAX_NAN: MAP2(T, T, fmaxnan##F(a, b)); break; \
    case IR_POW: MAP2(T, T, pow(a, b)); break;       /* fp32: in double, as MATH */ \
    case IR_ATAN2: MAP2(T, T, atan2(a, b)); break; \
    case IR_AND: case IR_OR: case IR_XOR: \
    case IR_SHL: case IR_SHR:       /* op_shift */ \
        return exec_internal(P, in, "variant"); \
    } \
} while (0)

/* A shift count as uint64 (negative counts become huge: shifted out). */
static inline uint64_t shift_count(stk s, const void *p, int64_t i)
{
    switch (s) {
    case ST_B: case ST_U8: return ((const uint8_t *)p)[i];
    case ST_I8: return (uint64_t)((const int8_t *)p)[i];
    case ST_I16: return (uint64_t)((const int16_t *)p)[i];
    case ST_U16: return ((const uint16_t *)p)[i];
    case ST_I32: return (uint64_t)((const int32_t *)p)[i];
    case ST_U32: return ((const uint32_t *)p)[i];
    case ST_I64: return (uint64_t)((const int64_t *)p)[i];
    case ST_U64: return ((const uint64_t *)p)[i];
    case ST_F32: case ST_F64: break;     /* not a count (ir_verify: ints only) */
    }
    return UINT64_MAX;
}

/* a << c and a >> c with the count in b's own type; counts >= the width
 * give 0 (or the sign fill for >> on signed types) instead of C's UB. */
#define SHIFT_INT(T, W, S) do { \
    const T *pa_ = (const T *)A; T *pd_ = (T *)D; \
    const uint64_t bits_ = (uint64_t)dtype_bits(t); \
    for (int64_t i = 0; i < n; i++) { \
        T a = pa_[i * sa]; \
        uint64_t c = shift_count(bs, B, i * sb); \
        if (left) \
            pd_[i] = c >= bits_ ? (T)0 : (T)((W)a << c); \
        else \
            pd_[i] = c >= bits_ ? ((S) ? (T)(a >> (bits_ - 1)) : (T)0) : (T)(a >> c); \
    } \
} while (0)
#define SHIFT_FLOAT(T, F) return exec_internal(P, in, "shift")

static bool op_shift(exec_prog *P, const ir_inst *in)
{
    dtype t = DT(P, in->dst);
    int64_t n = NUMEL(P, in->dst), sa = STRIDE(P, in->a), sb = STRIDE(P, in->b);
    void *D = SLOT(P, in->dst);
    const void *A = SLOT(P, in->a), *B = SLOT(P, in->b);
    stk bs = st_of(DT(P, in->b));
    bool left = in->sub == IR_SHL;
    FOR_STK(st_of(t), SHIFT_INT, SHIFT_FLOAT);
    if (t == DTYPE_INT1)
        wrap_int1(D, n);
    return true;
}

bool exec_op_binary(exec_prog *P, const ir_inst *in)
{
    if (in->sub == IR_SHL || in->sub == IR_SHR)
        return op_shift(P, in);
    dtype t = DT(P, in->dst);
    int64_t n = NUMEL(P, in->dst), sa = STRIDE(P, in->a), sb = STRIDE(P, in->b);
    void *D = SLOT(P, in->dst);
    const void *A = SLOT(P, in->a), *B = SLOT(P, in->b);
    FOR_STK(st_of(t), BINARY_INT, BINARY_FLOAT);
    if (t == DTYPE_INT1)
        wrap_int1(D, n);
    else
        round_lanes(t, D, n);
    return true;
}

#define CMP_ANY(T) do { \
    switch ((ir_cmp)in->sub) { \
    case IR_EQ: MAP2(T, uint8_t, a == b); break; \
    case IR_NE: MAP2(T, uint8_t, a != b); break; \
    case IR_LT: MAP2(T, uint8_t, a < b); break; \
    case IR_LE: MAP2(T, uint8_t, a <= b); break; \
    case IR_GT: MAP2(T, uint8_t, a > b); break; \
    case IR_GE: MAP2(T, uint8_t, a >= b); break; \
    } \
} while (0)
#define CMP_INT(T, W, S) CMP_ANY(T)
#define CMP_FLOAT(T, F) CMP_ANY(T)

bool exec_op_cmp(exec_prog *P, const ir_inst *in)
{
    int64_t n = NUMEL(P, in->dst), sa = STRIDE(P, in->a), sb = STRIDE(P, in->b);
    void *D = SLOT(P, in->dst);
    const void *A = SLOT(P, in->a), *B = SLOT(P, in->b);
    FOR_STK(st_of(DT(P, in->a)), CMP_INT, CMP_FLOAT);
    return true;
}

/* Contiguous operands (or a scalar x or y) select by bits, with no branch
 * and both sides read, so that GCC vectorises the loop. */
#define WHERE_SEL(T, XI, YI) do { \
    for (int64_t i = 0; i < n; i++) { \
        T k_ = (T)0 - (T)(m_[i] != 0), xv_ = (XI), yv_ = (YI); \
        d_[i] = (T)((xv_ & k_) | (yv_ & (T)~k_)); \
    } \
} while (0)
#define WHERE_LOOP(T) do { \
    const uint8_t *m_ = A; const T *x_ = B, *y_ = C; T *d_ = D; \
    if (sa == 1 && sb == 1 && sc == 1) { \
        WHERE_SEL(T, x_[i], y_[i]); \
    } else if (sa == 1 && sb == 1 && sc == 0) { \
        T y0_ = y_[0]; \
        WHERE_SEL(T, x_[i], y0_); \
    } else if (sa == 1 && sb == 0 && sc == 1) { \
        T x0_ = x_[0]; \
        WHERE_SEL(T, x0_, y_[i]); \
    } else { \
        for (int64_t i = 0; i < n; i++) \
            d_[i] = m_[i * sa] ? x_[i * sb] : y_[i * sc]; \
    } \
} while (0)

bool exec_op_where(exec_prog *P, const ir_inst *in)
{
    int64_t n = NUMEL(P, in->dst);
    int64_t sa = STRIDE(P, in->a), sb = STRIDE(P, in->b), sc = STRIDE(P, in->c);
    void *D = SLOT(P, in->dst);
    const void *A = SLOT(P, in->a), *B = SLOT(P, in->b), *C = SLOT(P, in->c);
    switch (st_size(st_of(DT(P, in->dst)))) {
    case 1: WHERE_LOOP(uint8_t); break;
    case 2: WHERE_LOOP(uint16_t); break;
    case 4: WHERE_LOOP(uint32_t); break;
    default: WHERE_LOOP(uint64_t); break;
    }
    return true;
}

/* ---- math functions -------------------------------------------------- */

static inline double sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }
static inline float sigmoidf(float x) { return 1.0f / (1.0f + expf(-x)); }
static inline double rsqrt(double x) { return 1.0 / sqrt(x); }
static inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }

/* High half of the double-width unsigned product. */
static inline uint64_t mulhi64(uint64_t a, uint64_t b)
{
    uint64_t al = a & 0xffffffffu, ah = a >> 32, bl = b & 0xffffffffu, bh = b >> 32;
    uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
    uint64_t mid = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);
    return hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}

/* High half of the product of the low `bits` bits of a and b, unsigned. */
static inline uint64_t mulhi(uint64_t a, uint64_t b, int bits)
{
    if (bits == 64)
        return mulhi64(a, b);
    uint64_t m = ((uint64_t)1 << bits) - 1;
    return ((a & m) * (b & m)) >> bits;
}

/* MATH's functions by how exec_op_math runs them, as lists of case labels
 * ("case MATH_INT_FNS:").  Every switch over ir_math here names each
 * function once, some through these lists: the compiler refuses a
 * function named twice in one switch, and -Wswitch-enum one named in none,
 * so the lists and the switches' own cases cannot drift apart.  IR_ABS,
 * for ints and floats, is in none. */
#define MATH_FLOAT_FNS      /* float lanes only: MATH_FLOAT */ \
    IR_EXP: case IR_EXP2: case IR_LOG: case IR_LOG2: case IR_SQRT: case IR_SQRT_RN: \
    case IR_RSQRT: case IR_SIN: case IR_COS: case IR_TAN: case IR_TANH: case IR_FLOOR: \
    case IR_CEIL: case IR_ERF: case IR_SIGMOID: case IR_FMA: case IR_ASIN: \
    case IR_ACOS: case IR_ATAN: case IR_SINH: case IR_COSH: case IR_ASINH: \
    case IR_ACOSH: case IR_ATANH: case IR_EXP10: case IR_EXPM1: case IR_LOG10: \
    case IR_LOG1P: case IR_CBRT: case IR_RCBRT: case IR_RSQRT_RN: case IR_ERFC: \
    case IR_ERFINV: case IR_ERFCINV: case IR_NORMCDF: case IR_NORMCDFINV: \
    case IR_LGAMMA: case IR_TGAMMA: case IR_SINPI: case IR_COSPI: case IR_J0: \
    case IR_J1: case IR_Y0: case IR_Y1: case IR_TRUNC: case IR_ROUND: case IR_RINT: \
    case IR_LOGB: case IR_SATURATE: case IR_HYPOT: case IR_RHYPOT: case IR_COPYSIGN: \
    case IR_NEXTAFTER: case IR_FDIM: case IR_REMAINDER
#define MATH_INT_FNS        /* integer lanes only: MATH_INT */ \
    IR_UMULHI: case IR_BREV: case IR_MULHI: case IR_MUL24: case IR_HADD: case IR_RHADD: \
    case IR_SAD: case IR_BYTE_PERM
#define MATH_MIXED_FNS      /* other operand or result types: op_math_mixed */ \
    IR_LDEXP: case IR_POWI: case IR_JN: case IR_YN: case IR_ILOGB: case IR_SIGNBIT: \
    case IR_ISNAN: case IR_ISINF: case IR_ISFINITE: case IR_LLRINT: case IR_LLROUND: \
    case IR_HILO2DOUBLE: case IR_DOUBLE2LO: case IR_DOUBLE2HI: case IR_POPC: \
    case IR_CLZ: case IR_FFS
#define MATH_ROUNDED_FNS    /* in a rounding mode: op_math_rounded */ \
    IR_ADD_R: case IR_SUB_R: case IR_MUL_R: case IR_DIV_R: case IR_RCP_R: \
    case IR_SQRT_R: case IR_FMA_R: case IR_CVT_R

#define MATH_FLOAT(T, F) do { \
    switch ((ir_math)in->sub) { \
    case IR_EXP: MAP1(T, T, exp##F(a)); break; \
    case IR_EXP2: MAP1(T, T, exp2##F(a)); break; \
    case IR_LOG: MAP1(T, T, log##F(a)); break; \
    case IR_LOG2: MAP1(T, T, log2##F(a)); break; \
    case IR_SQRT: case IR_SQRT_RN: MAP1(T, T, sqrt##F(a)); break; \
    case IR_RSQRT: MAP1(T, T, rsqrt##F(a)); break; \
    case IR_SIN: MAP1(T, T, sin##F(a)); break; \
    case IR_COS: MAP1(T, T, cos##F(a)); break; \
    case IR_TAN: MAP1(T, T, tan(a)); break; \
    case IR_TANH: MAP1(T, T, tanh(a)); break; \
    case IR_ABS: MAP1(T, T, fabs##F(a)); break; \
    case IR_FLOOR: MAP1(T, T, floor##F(a)); break; \
    case IR_CEIL: MAP1(T, T, ceil##F(a)); break; \
    case IR_ERF: MAP1(T, T, erf##F(a)); break; \
    case IR_SIGMOID: MAP1(T, T, sigmoid##F(a)); break; \
    case IR_FMA: MAP3(T, T, fma##F(a, b, c)); break; \
    case IR_ASIN: MAP1(T, T, asin(a)); break; \
    case IR_ACOS: MAP1(T, T, acos(a)); break; \
    case IR_ATAN: MAP1(T, T, atan(a)); break; \
    case IR_SINH: MAP1(T, T, sinh(a)); break; \
    case IR_COSH: MAP1(T, T, cosh(a)); break; \
    case IR_ASINH: MAP1(T, T, asinh(a)); break; \
    case IR_ACOSH: MAP1(T, T, acosh(a)); break; \
    case IR_ATANH: MAP1(T, T, atanh(a)); break; \
    case IR_EXP10: MAP1(T, T, mathfn_exp10(a)); break; \
    case IR_EXPM1: MAP1(T, T, expm1(a)); break; \
    case IR_LOG10: MAP1(T, T, log10(a)); break; \
    case IR_LOG1P: MAP1(T, T, log1p(a)); break; \
    case IR_CBRT: MAP1(T, T, cbrt(a)); break; \
    case IR_RCBRT: MAP1(T, T, 1.0 / cbrt(a)); break; \
    case IR_RSQRT_RN: MAP1(T, T, 1.0 / sqrt(a)); break; \
    case IR_ERFC: MAP1(T, T, erfc(a)); break; \
    case IR_ERFINV: MAP1(T, T, mathfn_erfinv(a)); break; \
    case IR_ERFCINV: MAP1(T, T, mathfn_erfcinv(a)); break; \
    case IR_NORMCDF: MAP1(T, T, mathfn_normcdf(a)); break; \
    case IR_NORMCDFINV: MAP1(T, T, mathfn_normcdfinv(a)); break; \
    case IR_LGAMMA: MAP1(T, T, mathfn_lgamma(a)); break; \
    case IR_TGAMMA: MAP1(T, T, tgamma(a)); break; \
    case IR_SINPI: MAP1(T, T, mathfn_sinpi(a)); break; \
    case IR_COSPI: MAP1(T, T, mathfn_cospi(a)); break; \
    case IR_J0: MAP1(T, T, mathfn_j0(a)); break; \
    case IR_J1: MAP1(T, T, mathfn_j1(a)); break; \
    case IR_Y0: MAP1(T, T, mathfn_y0(a)); break; \
    case IR_Y1: MAP1(T, T, mathfn_y1(a)); break; \
    case IR_TRUNC: MAP1(T, T, trunc##F(a)); break; \
    case IR_ROUND: MAP1(T, T, round##F(a)); break; \
    case IR_RINT: MAP1(T, T, nearbyint##F(a)); break; \
    case IR_LOGB: MAP1(T, T, logb##F(a)); break; \
    case IR_SATURATE: MAP1(T, T, mathfn_saturate(a)); break; \
    case IR_HYPOT: MAP2(T, T, hypot(a, b)); break; \
    case IR_RHYPOT: MAP2(T, T, 1.0 / hypot(a, b)); break; \
    case IR_COPYSIGN: MAP2(T, T, copysign##F(a, b)); break; \
    case IR_NEXTAFTER: MAP2(T, T, nextafter##F(a, b)); break; \
    case IR_FDIM: MAP2(T, T, fdim##F(a, b)); break; \
    case IR_REMAINDER: MAP2(T, T, remainder##F(a, b)); break; \
    case MATH_INT_FNS: case MATH_MIXED_FNS: case MATH_ROUNDED_FNS: \
        return exec_internal(P, in, "function"); \
    } \
} while (0)

/* abs wraps (abs(INT_MIN) == INT_MIN); umulhi is the high half of the
 * unsigned double-width product. */
#define MATH_INT(T, W, S) do { \
    switch ((ir_math)in->sub) { \
    case IR_ABS: MAP1(T, T, (S) && !(a >= (T)1 || a == 0) ? (T)(0 - (W)a) : a); break; \
    case IR_UMULHI: MAP2(T, T, mulhi((uint64_t)a, (uint64_t)b, 8 * (int)sizeof(T))); break; \
    case IR_BREV: MAP1(T, T, mathfn_brev((W)a, 8 * (int)sizeof(T))); break; \
    case IR_MULHI: \
        MAP2(T, T, (S) ? mathfn_mulhi_s((int64_t)a, (int64_t)b, 8 * (int)sizeof(T)) \
                       : mathfn_mulhi_u((uint64_t)a, (uint64_t)b, 8 * (int)sizeof(T))); \
        break; \
    case IR_MUL24: \
        MAP2(T, T, (S) ? (uint64_t)((int64_t)sext24((uint32_t)a) * sext24((uint32_t)b)) \
                       : ((uint64_t)a & 0xffffff) * ((uint64_t)b & 0xffffff)); \
        break; \
    case IR_HADD: MAP2(T, T, (S) ? (uint64_t)(((int64_t)a + (int64_t)b) >> 1) \
                                 : ((uint64_t)a + (uint64_t)b) >> 1); break; \
    case IR_RHADD: MAP2(T, T, (S) ? (uint64_t)(((int64_t)a + (int64_t)b + 1) >> 1) \
                                  : ((uint64_t)a + (uint64_t)b + 1) >> 1); break; \
    case IR_SAD: \
        MAP3(T, T, (W)(a > b ? (uint64_t)a - (uint64_t)b : (uint64_t)b - (uint64_t)a) + (W)c); \
        break; \
    case IR_BYTE_PERM: MAP3(T, T, mathfn_byte_perm((uint32_t)a, (uint32_t)b, (uint32_t)c)); \
        break; \
    case MATH_FLOAT_FNS: case MATH_MIXED_FNS: case MATH_ROUNDED_FNS: \
        return exec_internal(P, in, "function"); \
    } \
} while (0)

/* The low 24 bits of x as a signed number (mul24's operands). */
static inline int32_t sext24(uint32_t x)
{
    return (int32_t)(x << 8) >> 8;
}

/* Loops over operands of different types: MIXED1 dst = f(a), MIXED2
 * dst = f(a, b) (for ldexp's int exponent, the Bessel functions' order,
 * float tests with int results). */
#define MIXED1(TA, TD, EXPR) do { \
    const TA *pa_ = (const TA *)A; TD *pd_ = (TD *)D; \
    for (int64_t i = 0; i < n; i++) { TA a = pa_[i * sa]; pd_[i] = (TD)(EXPR); } \
} while (0)
#define MIXED2(TA, TB, TD, EXPR) do { \
    const TA *pa_ = (const TA *)A; const TB *pb_ = (const TB *)B; TD *pd_ = (TD *)D; \
    for (int64_t i = 0; i < n; i++) { \
        TA a = pa_[i * sa]; TB b = pb_[i * sb]; pd_[i] = (TD)(EXPR); \
    } \
} while (0)

/* float a: f is the fp32 expression, d the fp64 one */
#define MIXED_FLOAT(st, F1, D1) do { \
    if ((st) == ST_F32) F1; else if ((st) == ST_F64) D1; \
    else return exec_internal(P, in, "function"); \
} while (0)

static inline double bits_double(uint64_t u)
{
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

static inline uint64_t double_bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}

/* The MATH variants whose operands or result have other types than dst's
 * (ir.h: IR_LDEXP .. IR_FFS). */
static bool op_math_mixed(exec_prog *P, const ir_inst *in)
{
    int64_t n = NUMEL(P, in->dst), sa = STRIDE(P, in->a);
    int64_t sb = in->b >= 0 ? STRIDE(P, in->b) : 0;
    void *D = SLOT(P, in->dst);
    const void *A = SLOT(P, in->a);
    const void *B = in->b >= 0 ? SLOT(P, in->b) : A;
    stk st = st_of(DT(P, in->a));
    switch ((ir_math)in->sub) {
    case IR_LDEXP:
        MIXED_FLOAT(st, MIXED2(float, int32_t, float, ldexpf(a, b)),
                    MIXED2(double, int32_t, double, ldexp(a, b)));
        break;
    case IR_POWI:
        MIXED_FLOAT(st, MIXED2(float, int32_t, float, pow(a, b)),
                    MIXED2(double, int32_t, double, pow(a, b)));
        break;
    case IR_JN: case IR_YN: {
        bool j = in->sub == IR_JN;
        MIXED_FLOAT(st_of(DT(P, in->b)),
                    MIXED2(int32_t, float, float, j ? mathfn_jn(a, b) : mathfn_yn(a, b)),
                    MIXED2(int32_t, double, double, j ? mathfn_jn(a, b) : mathfn_yn(a, b)));
        break;
    }
    case IR_ILOGB:
        MIXED_FLOAT(st, MIXED1(float, int32_t, mathfn_ilogb(a)),
                    MIXED1(double, int32_t, mathfn_ilogb(a)));
        break;
    case IR_SIGNBIT:
        MIXED_FLOAT(st, MIXED1(float, int32_t, signbit(a) != 0),
                    MIXED1(double, int32_t, signbit(a) != 0));
        break;
    case IR_ISNAN:
        MIXED_FLOAT(st, MIXED1(float, uint8_t, isnan(a) != 0),
                    MIXED1(double, uint8_t, isnan(a) != 0));
        break;
    case IR_ISINF:
        MIXED_FLOAT(st, MIXED1(float, uint8_t, isinf(a) != 0),
                    MIXED1(double, uint8_t, isinf(a) != 0));
        break;
    case IR_ISFINITE:
        MIXED_FLOAT(st, MIXED1(float, uint8_t, isfinite(a) != 0),
                    MIXED1(double, uint8_t, isfinite(a) != 0));
        break;
    case IR_LLRINT:
        MIXED_FLOAT(st, MIXED1(float, int64_t, mathfn_llrint(a)),
                    MIXED1(double, int64_t, mathfn_llrint(a)));
        break;
    case IR_LLROUND:
        MIXED_FLOAT(st, MIXED1(float, int64_t, mathfn_llround(a)),
                    MIXED1(double, int64_t, mathfn_llround(a)));
        break;
    case IR_HILO2DOUBLE:
        MIXED2(int32_t, int32_t, double, bits_double(((uint64_t)(uint32_t)a << 32) | (uint32_t)b));
        break;
    case IR_DOUBLE2LO:
        MIXED1(double, int32_t, (uint32_t)double_bits(a));
        break;
    case IR_DOUBLE2HI:
        MIXED1(double, int32_t, (uint32_t)(double_bits(a) >> 32));
        break;
    case IR_POPC: case IR_CLZ: case IR_FFS: {
        int bits = st == ST_I64 || st == ST_U64 ? 64 : 32;
        ir_math f = (ir_math)in->sub;
#define BITS_OF(x) (f == IR_POPC ? mathfn_popc(x) : f == IR_CLZ ? mathfn_clz(x, bits) \
                                                                : mathfn_ffs(x))
        if (bits == 64)
            MIXED1(uint64_t, int32_t, BITS_OF(a));
        else
            MIXED1(uint32_t, int32_t, BITS_OF(a));
#undef BITS_OF
        break;
    }
    case IR_ABS: case MATH_FLOAT_FNS: case MATH_INT_FNS: case MATH_ROUNDED_FNS:
        return exec_internal(P, in, "function");
    }
    return true;
}

/* IR_ADD_R .. IR_CVT_R: the IEEE operation or conversion in the rounding
 * mode in->imm.  The operands are read and the results written between
 * the two fesetround calls, which the compiler cannot move them across (it
 * must assume a call reads and writes memory). */
#define ROUNDED(T, F) do { \
    switch ((ir_math)in->sub) { \
    case IR_ADD_R: MAP2(T, T, a + b); break; \
    case IR_SUB_R: MAP2(T, T, a - b); break; \
    case IR_MUL_R: MAP2(T, T, a * b); break; \
    case IR_DIV_R: MAP2(T, T, a / b); break; \
    case IR_RCP_R: MAP1(T, T, (T)1 / a); break; \
    case IR_SQRT_R: MAP1(T, T, sqrt##F(a)); break; \
    case IR_FMA_R: MAP3(T, T, fma##F(a, b, c)); break; \
    case IR_CVT_R:                  /* math_convert */ \
    case IR_ABS: case MATH_FLOAT_FNS: case MATH_INT_FNS: case MATH_MIXED_FNS: \
        ok = false; \
        break; \
    } \
} while (0)

/* Saturating conversions of an integral double to the unsigned types
 * (NaN and negatives give 0), as the GPU's cvt. */
static inline uint32_t sat_u32(double x)
{
    return x != x || x <= 0 ? 0 : x >= 4294967296.0 ? UINT32_MAX : (uint32_t)x;
}

static inline uint64_t sat_u64(double x)
{
    return x != x || x <= 0 ? 0 : x >= 18446744073709551616.0 ? UINT64_MAX : (uint64_t)x;
}

#define CVT_LOOP(TA, TD, EXPR) MIXED1(TA, TD, EXPR)
/* From a float: to floats by C's conversion, to ints through nearbyint
 * (both in the current rounding mode). */
#define CVT_FROM_FLOAT(TA) do { \
    switch (to) { \
    case ST_F32: CVT_LOOP(TA, float, a); break; \
    case ST_F64: CVT_LOOP(TA, double, a); break; \
    case ST_I32: CVT_LOOP(TA, int32_t, sat_i32(nearbyint(a))); break; \
    case ST_U32: CVT_LOOP(TA, uint32_t, sat_u32(nearbyint(a))); break; \
    case ST_I64: CVT_LOOP(TA, int64_t, sat_i64(nearbyint(a))); break; \
    case ST_U64: CVT_LOOP(TA, uint64_t, sat_u64(nearbyint(a))); break; \
    case ST_B: case ST_I8: case ST_I16: case ST_U8: case ST_U16: return false; \
    } \
} while (0)
#define CVT_FROM_INT(TA) do { \
    switch (to) { \
    case ST_F32: CVT_LOOP(TA, float, a); break; \
    case ST_F64: CVT_LOOP(TA, double, a); break; \
    case ST_B: case ST_I8: case ST_I16: case ST_I32: case ST_I64: case ST_U8: \
    case ST_U16: case ST_U32: case ST_U64: \
        return false; \
    } \
} while (0)

/* IR_CVT_R, in the rounding mode already set; false for a pair of types
 * it does not convert. */
static bool math_convert(exec_prog *P, const ir_inst *in)
{
    int64_t n = NUMEL(P, in->dst), sa = STRIDE(P, in->a);
    void *D = SLOT(P, in->dst);
    const void *A = SLOT(P, in->a);
    stk to = st_of(DT(P, in->dst));
    switch (st_of(DT(P, in->a))) {
    case ST_F32: CVT_FROM_FLOAT(float); break;
    case ST_F64: CVT_FROM_FLOAT(double); break;
    case ST_I32: CVT_FROM_INT(int32_t); break;
    case ST_U32: CVT_FROM_INT(uint32_t); break;
    case ST_I64: CVT_FROM_INT(int64_t); break;
    case ST_U64: CVT_FROM_INT(uint64_t); break;
    case ST_B: case ST_I8: case ST_I16: case ST_U8: case ST_U16: return false;
    }
    return true;
}

static bool op_math_rounded(exec_prog *P, const ir_inst *in)
{
    static const int modes[] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};
    dtype t = DT(P, in->dst);
    int64_t n = NUMEL(P, in->dst), sa = STRIDE(P, in->a);
    int64_t sb = in->b >= 0 ? STRIDE(P, in->b) : 0;
    int64_t sc = in->c >= 0 ? STRIDE(P, in->c) : 0;
    void *D = SLOT(P, in->dst);
    const void *A = SLOT(P, in->a);
    const void *B = in->b >= 0 ? SLOT(P, in->b) : A;
    const void *C = in->c >= 0 ? SLOT(P, in->c) : A;
    bool cvt = in->sub == IR_CVT_R;
    if (in->imm < IR_RN || in->imm > IR_RU ||
        (!cvt && t != DTYPE_FP32 && t != DTYPE_FP64))
        return exec_internal(P, in, "rounding");
    bool ok = true;
    int saved = fegetround();
    if (in->imm != IR_RN)
        fesetround(modes[in->imm]);
    if (cvt)
        ok = math_convert(P, in);
    else if (t == DTYPE_FP32)
        ROUNDED(float, f);
    else
        ROUNDED(double, );
    fesetround(saved);
    return ok || exec_internal(P, in, "function");
}

bool exec_op_math(exec_prog *P, const ir_inst *in)
{
    switch ((ir_math)in->sub) {
    case MATH_MIXED_FNS: return op_math_mixed(P, in);
    case MATH_ROUNDED_FNS: return op_math_rounded(P, in);
    case IR_ABS: case MATH_FLOAT_FNS: case MATH_INT_FNS: break;
    }
    dtype t = DT(P, in->dst);
    int64_t n = NUMEL(P, in->dst), sa = STRIDE(P, in->a);
    int64_t sb = in->b >= 0 ? STRIDE(P, in->b) : 0;
    int64_t sc = in->c >= 0 ? STRIDE(P, in->c) : 0;
    void *D = SLOT(P, in->dst);
    const void *A = SLOT(P, in->a);
    const void *B = in->b >= 0 ? SLOT(P, in->b) : A;
    const void *C = in->c >= 0 ? SLOT(P, in->c) : A;
    FOR_STK(st_of(t), MATH_INT, MATH_FLOAT);
    round_lanes(t, D, n);
    return true;
}

/* dst = a + b * sizeof(element), in wrapping 64-bit address arithmetic;
 * the usual case, a scalar base plus a tile of offsets, gets its own loop. */
#define PTR_ADD_LOOP(TB) do { \
    const TB *pb_ = (const TB *)B; \
    if (!sa && sb) { \
        uint64_t base_ = pa[0]; \
        for (int64_t i = 0; i < n; i++) \
            d[i] = base_ + (uint64_t)pb_[i] * esz; \
    } else { \
        for (int64_t i = 0; i < n; i++) \
            d[i] = pa[i * sa] + (uint64_t)pb_[i * sb] * esz; \
    } \
} while (0)

bool exec_op_ptr_add(exec_prog *P, const ir_inst *in)
{
    int64_t n = NUMEL(P, in->dst), sa = STRIDE(P, in->a), sb = STRIDE(P, in->b);
    uint64_t *d = SLOT(P, in->dst);
    const uint64_t *pa = SLOT(P, in->a);
    const void *B = SLOT(P, in->b);
    uint64_t esz = (uint64_t)dtype_size(dtype_elem(DT(P, in->dst)));
    switch (st_of(DT(P, in->b))) {
    case ST_B: case ST_U8: PTR_ADD_LOOP(uint8_t); break;
    case ST_I8: PTR_ADD_LOOP(int8_t); break;
    case ST_I16: PTR_ADD_LOOP(int16_t); break;
    case ST_U16: PTR_ADD_LOOP(uint16_t); break;
    case ST_I32: PTR_ADD_LOOP(int32_t); break;
    case ST_U32: PTR_ADD_LOOP(uint32_t); break;
    case ST_I64: PTR_ADD_LOOP(int64_t); break;
    case ST_U64: PTR_ADD_LOOP(uint64_t); break;
    case ST_F32: case ST_F64: return exec_internal(P, in, "offset");
    }
    return true;
}
