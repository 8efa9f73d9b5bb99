/* tensor_ops.c - elementwise tensor arithmetic with torch's rules: type
 * promotion (torch.result_type, promote_types, can_cast), broadcasting,
 * binary operators, unary functions, where and clamp.
 *
 * Every operation computes one element at a time: load each operand in its
 * own dtype, convert it to the computation type, apply the operator in
 * int64/uint64 or double, and convert the result to the output dtype.  The
 * computation type is the promoted dtype, except that float16 and bfloat16
 * compute in float32 and round once at the end, as torch's CPU kernels do
 * ("opmath").  A float32 result computed in double and rounded once equals
 * the float32 operation for + - * / (53 >= 2*24 + 2). */
#include "tensor.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "mathfn.h"
#include "tensor_loops.h"
#include "tensor_par.h"

/* ---- dtype rules ---------------------------------------------------------------- */

const char *tensor_type_name(dtype t)
{
    switch (t) {
    case DTYPE_INT1: return "Bool";
    case DTYPE_INT8: return "Char";
    case DTYPE_INT16: return "Short";
    case DTYPE_INT32: return "Int";
    case DTYPE_INT64: return "Long";
    case DTYPE_UINT8: return "Byte";
    case DTYPE_UINT16: return "UInt16";
    case DTYPE_UINT32: return "UInt32";
    case DTYPE_UINT64: return "UInt64";
    case DTYPE_FP8E4NV: return "Float8_e4m3fn";
    case DTYPE_FP8E5: return "Float8_e5m2";
    case DTYPE_FP16: return "Half";
    case DTYPE_BF16: return "BFloat16";
    case DTYPE_FP32: return "Float";
    case DTYPE_FP64: return "Double";
    default: return "Undefined";
    }
}

tensor_operand tensor_operand_int(int64_t v)
{
    tensor_operand o = {NULL, DTYPE_INT64, {.i = v}};
    return o;
}

tensor_operand tensor_operand_float(double v)
{
    tensor_operand o = {NULL, DTYPE_FP64, {.f = v}};
    return o;
}

tensor_operand tensor_operand_bool(bool v)
{
    tensor_operand o = {NULL, DTYPE_INT1, {.u = v}};
    return o;
}

static bool is_big_unsigned(dtype t)
{
    return t == DTYPE_UINT16 || t == DTYPE_UINT32 || t == DTYPE_UINT64;
}

/* Float rank for promotion; bf16 and fp16 tie (they meet at fp32). */
static int float_rank(dtype t)
{
    return t == DTYPE_FP64 ? 3 : t == DTYPE_FP32 ? 2 : 1;
}

bool tensor_no_fp8(dtype t, char *err)
{
    if (!dtype_is_fp8(t))
        return true;
    tensor_err(err, "tritsim does not compute on %s tensors (PyTorch has almost no arithmetic, "
               "comparisons or reductions for fp8): convert them with .float() first",
               tensor_type_name(t));
    return false;
}

dtype tensor_promote_types(dtype a, dtype b, char *err)
{
    if (a == DTYPE_INVALID)
        return b;
    if (b == DTYPE_INVALID || a == b)
        return a;
    if (dtype_is_fp8(a) || dtype_is_fp8(b)) {    /* c10's promoteTypes, before bool */
        tensor_err(err, "Promotion for Float8 Types is not supported, attempted to promote %s "
                   "and %s", tensor_type_name(a), tensor_type_name(b));
        return DTYPE_INVALID;
    }
    if (a == DTYPE_INT1)
        return b;
    if (b == DTYPE_INT1)
        return a;
    bool af = dtype_is_float(a), bf = dtype_is_float(b);
    if (af && bf) {
        if (float_rank(a) != float_rank(b))
            return float_rank(a) > float_rank(b) ? a : b;
        return DTYPE_FP32;    /* fp16 with bf16 */
    }
    if (af || bf)
        return af ? a : b;
    if (is_big_unsigned(a) || is_big_unsigned(b)) {
        tensor_err(err, "Promotion for uint16, uint32, uint64 types is not supported, attempted "
                "to promote %s and %s", tensor_type_name(a), tensor_type_name(b));
        return DTYPE_INVALID;
    }
    if (a == DTYPE_UINT8 || b == DTYPE_UINT8) {
        dtype s = a == DTYPE_UINT8 ? b : a;    /* the signed one */
        return s == DTYPE_INT8 ? DTYPE_INT16 : s;
    }
    return dtype_bits(a) > dtype_bits(b) ? a : b;
}

/* c10's combine_categories: the higher-priority group wins unless the
 * lower one brings a higher category. */
static dtype combine(dtype higher, dtype lower, char *err)
{
    if (dtype_is_float(higher))
        return higher;
    if (higher == DTYPE_INT1 || dtype_is_float(lower))
        return tensor_promote_types(higher, lower, err);
    return higher != DTYPE_INVALID ? higher : lower;
}

dtype tensor_result_type(int n, const tensor_operand *ops, char *err)
{
    dtype dim = DTYPE_INVALID, zero = DTYPE_INVALID, wrapped = DTYPE_INVALID;
    for (int i = 0; i < n; i++) {
        const tensor_operand *o = &ops[i];
        dtype *slot = !o->t ? &wrapped : o->t->ndim > 0 ? &dim : &zero;
        dtype cur = o->t ? o->t->type : o->type;
        if (!o->t && dtype_is_float(cur))
            cur = DTYPE_FP32;        /* torch.get_default_dtype() */
        else if (!o->t && cur != DTYPE_INT1)
            cur = DTYPE_INT64;
        *slot = tensor_promote_types(*slot, cur, err);
        if (*slot == DTYPE_INVALID)
            return DTYPE_INVALID;
    }
    dtype low = combine(zero, wrapped, err);
    if (low == DTYPE_INVALID && (zero != DTYPE_INVALID || wrapped != DTYPE_INVALID))
        return DTYPE_INVALID;
    return combine(dim, low, err);
}

bool tensor_can_cast(dtype from, dtype to)
{
    if (dtype_is_float(from) && !dtype_is_float(to))
        return false;
    if (from != DTYPE_INT1 && to == DTYPE_INT1)
        return false;
    return true;
}

bool tensor_broadcast_shapes(int na, const int64_t *a, int nb, const int64_t *b, int *nout,
                             int64_t *out, char *err)
{
    int n = na > nb ? na : nb;
    if (n > TENSOR_MAX_DIMS) {
        tensor_err(err, "tritsim tensors have at most %d dimensions", TENSOR_MAX_DIMS);
        return false;
    }
    for (int i = 0; i < n; i++) {
        int ia = na - n + i, ib = nb - n + i;
        int64_t sa = ia >= 0 ? a[ia] : 1, sb = ib >= 0 ? b[ib] : 1;
        if (sa != sb && sa != 1 && sb != 1) {
            tensor_err(err, "The size of tensor a (%lld) must match the size of tensor b (%lld) at "
                    "non-singleton dimension %d", (long long)sa, (long long)sb, i);
            return false;
        }
        out[i] = sa == 1 ? sb : sa;
    }
    *nout = n;
    return true;
}

/* ---- operands ------------------------------------------------------------------- */

/* An operand as a tensor: numbers become 0-d tensors (owned is set). */
static const tensor *operand_tensor(tensor_operand o, tensor **owned)
{
    *owned = NULL;
    if (o.t)
        return o.t;
    *owned = tensor_scalar(o.type, o.value, false);
    return *owned;
}

static bool is_reduced_float(dtype t)
{
    return t == DTYPE_FP16 || t == DTYPE_BF16;
}

/* The type arithmetic happens in for results of dtype t. */
static dtype opmath(dtype t)
{
    return is_reduced_float(t) ? DTYPE_FP32 : t;
}

/* ---- binary operators ------------------------------------------------------------ */

static bool is_compare(tensor_binop op)
{
    return op >= TENSOR_EQ && op <= TENSOR_GE;
}

static bool is_bitwise(tensor_binop op)
{
    return op >= TENSOR_AND && op <= TENSOR_SHR;
}

static const char *kernel_name(tensor_binop op)
{
    switch (op) {
    case TENSOR_AND: return "bitwise_and_cpu";
    case TENSOR_OR: return "bitwise_or_cpu";
    case TENSOR_XOR: return "bitwise_xor_cpu";
    case TENSOR_SHL: return "lshift_cpu";
    case TENSOR_SHR: return "rshift_cpu";
    case TENSOR_FLOORDIV: return "div_floor_cpu";
    case TENSOR_MOD: return "remainder_cpu";
    case TENSOR_POW: return "pow";
    case TENSOR_HYPOT: return "hypot_cpu";
    default: return "binary_op";
    }
}

/* Checks torch makes before computing; false with its message. */
static bool binop_allowed(tensor_binop op, tensor_operand a, tensor_operand b, dtype common,
                          char *err)
{
    dtype ta = a.t ? a.t->type : a.type, tb = b.t ? b.t->type : b.type;
    if (op == TENSOR_SUB && (ta == DTYPE_INT1 || tb == DTYPE_INT1)) {
        if (ta == DTYPE_INT1 && tb == DTYPE_INT1)
            tensor_err(err, "Subtraction, the `-` operator, with two bool tensors is not supported. "
                    "Use the `^` or `logical_xor()` operator instead.");
        else
            tensor_err(err, "Subtraction, the `-` operator, with a bool tensor is not supported. "
                    "If you are trying to invert a mask, use the `~` or `logical_not()` "
                    "operator instead.");
        return false;
    }
    if (is_bitwise(op) && dtype_is_float(common)) {
        tensor_err(err, "\"%s\" not implemented for '%s'", kernel_name(op), tensor_type_name(common));
        return false;
    }
    if (op == TENSOR_HYPOT && !dtype_is_float(common)) {
        tensor_err(err, "\"%s\" not implemented for '%s'", kernel_name(op),
                   tensor_type_name(common));
        return false;
    }
    if ((op == TENSOR_FLOORDIV || op == TENSOR_MOD || op == TENSOR_POW) && common == DTYPE_INT1) {
        tensor_err(err, "\"%s\" not implemented for 'Bool'", kernel_name(op));
        return false;
    }
    if (op == TENSOR_POW && !b.t && dtype_is_int(common) && b.type == DTYPE_INT64 &&
        b.value.i < 0) {
        tensor_err(err, "Integers to negative integer powers are not allowed.");
        return false;
    }
    return true;
}

/* a ** b on integers, wrapping; negative exponents as torch's powi. */
static uint64_t int_pow(int64_t a, int64_t b)
{
    if (b < 0)
        return a == 1 ? 1 : a == -1 ? (b % 2 ? (uint64_t)-1 : 1) : 0;
    uint64_t r = 1, x = (uint64_t)a;
    while (b) {
        if (b & 1)
            r *= x;
        x *= x;
        b >>= 1;
    }
    return r;
}

static double float_floordiv(double a, double b)
{
    if (b == 0)
        return a / b;
    double mod = fmod(a, b);
    double div = (a - mod) / b;
    if (mod != 0 && (b < 0) != (mod < 0))
        div -= 1;
    if (div == 0)
        return copysign(0.0, a / b);
    double fl = floor(div);
    return div - fl > 0.5 ? fl + 1 : fl;
}

static double float_mod(double a, double b)
{
    double mod = fmod(a, b);
    if (mod != 0 && (b < 0) != (mod < 0))
        mod += b;
    return mod;
}

/* One element of a op b computed in float type ct (fp32 or fp64). */
static dtype_scalar float_op(tensor_binop op, dtype ct, double a, double b)
{
    dtype_scalar r;
    double x;
    switch (op) {
    case TENSOR_ADD: x = a + b; break;
    case TENSOR_SUB: x = a - b; break;
    case TENSOR_MUL: x = a * b; break;
    case TENSOR_DIV: x = a / b; break;
    case TENSOR_FLOORDIV: x = float_floordiv(a, b); break;
    case TENSOR_MOD: x = float_mod(a, b); break;
    case TENSOR_POW: x = pow(a, b); break;
    case TENSOR_MAXIMUM: x = isnan(a) || isnan(b) ? NAN : a > b ? a : b; break;
    case TENSOR_MINIMUM: x = isnan(a) || isnan(b) ? NAN : a < b ? a : b; break;
    case TENSOR_ATAN2: x = atan2(a, b); break;
    case TENSOR_HYPOT: x = hypot(a, b); break;
    case TENSOR_EQ: r.u = a == b; return r;
    case TENSOR_NE: r.u = a != b; return r;
    case TENSOR_LT: r.u = a < b; return r;
    case TENSOR_LE: r.u = a <= b; return r;
    case TENSOR_GT: r.u = a > b; return r;
    case TENSOR_GE: r.u = a >= b; return r;
    default: x = NAN; break;
    }
    r.f = dtype_round_float(ct, x);
    return r;
}

/* One element of a op b on integer type ct (int1 included).  *zerodiv is
 * set for an integer // or % by zero. */
static dtype_scalar int_op(tensor_binop op, dtype ct, dtype_scalar a, dtype_scalar b,
                           bool *zerodiv)
{
    bool sgn = dtype_is_signed(ct);
    uint64_t ua = a.u, ub = b.u, x = 0;
    int64_t ia = a.i, ib = b.i;
    dtype_scalar r;
    switch (op) {
    case TENSOR_ADD: x = ct == DTYPE_INT1 ? (ua | ub) : ua + ub; break;
    case TENSOR_SUB: x = ua - ub; break;
    case TENSOR_MUL: x = ct == DTYPE_INT1 ? (ua & ub) : ua * ub; break;
    case TENSOR_FLOORDIV:
    case TENSOR_MOD:
        if (ub == 0) {
            *zerodiv = true;
            break;
        }
        if (op == TENSOR_FLOORDIV)
            x = sgn ? (uint64_t)dtype_pyfloordiv_i64(ia, ib) : ua / ub;
        else
            x = sgn ? (uint64_t)dtype_pymod_i64(ia, ib) : ua % ub;
        break;
    case TENSOR_POW: x = sgn ? int_pow(ia, ib) : int_pow((int64_t)ua, (int64_t)ub); break;
    case TENSOR_AND: x = ua & ub; break;
    case TENSOR_OR: x = ua | ub; break;
    case TENSOR_XOR: x = ua ^ ub; break;
    case TENSOR_SHL: x = ub >= 64 ? 0 : ua << ub; break;
    case TENSOR_SHR:
        if (sgn)
            x = (uint64_t)(ib >= 64 || ib < 0 ? (ia < 0 ? -1 : 0) : ia >> ib);
        else
            x = ub >= 64 ? 0 : ua >> ub;
        break;
    case TENSOR_MAXIMUM: x = (sgn ? ia > ib : ua > ub) ? ua : ub; break;
    case TENSOR_MINIMUM: x = (sgn ? ia < ib : ua < ub) ? ua : ub; break;
    case TENSOR_EQ: r.u = ua == ub; return r;
    case TENSOR_NE: r.u = ua != ub; return r;
    case TENSOR_LT: r.u = sgn ? ia < ib : ua < ub; return r;
    case TENSOR_LE: r.u = sgn ? ia <= ib : ua <= ub; return r;
    case TENSOR_GT: r.u = sgn ? ia > ib : ua > ub; return r;
    case TENSOR_GE: r.u = sgn ? ia >= ib : ua >= ub; return r;
    default: break;
    }
    return dtype_wrap(ct, x);
}

/* The types one binary operation uses. */
typedef struct binop_plan {
    dtype common;      /* promoted type of the operands */
    dtype compute;     /* what the operator works in */
    dtype result;      /* the output dtype */
    bool direct[2];    /* operand goes straight to compute (opmath scalars) */
} binop_plan;

static bool plan_binop(tensor_binop op, tensor_operand a, tensor_operand b, binop_plan *p,
                       char *err)
{
    tensor_operand both[2] = {a, b};
    p->common = tensor_result_type(2, both, err);
    if (p->common == DTYPE_INVALID || !tensor_no_fp8(p->common, err) ||
        !binop_allowed(op, a, b, p->common, err))
        return false;
    if (is_compare(op)) {
        /* Compare in the common type itself: 0.1 against a float16 tensor
         * means float16's 0.1. */
        p->compute = p->common;
        p->result = DTYPE_INT1;
    } else if ((op == TENSOR_DIV || op == TENSOR_ATAN2) && !dtype_is_float(p->common)) {
        p->compute = p->result = DTYPE_FP32;
        p->common = DTYPE_FP32;
    } else {
        p->result = p->common;
        p->compute = opmath(p->common);
    }
    /* torch's float16 * and / read a scalar operand at float32 precision. */
    for (int i = 0; i < 2; i++) {
        const tensor_operand *o = &both[i];
        p->direct[i] = (op == TENSOR_MUL || op == TENSOR_DIV) && is_reduced_float(p->common) &&
                       (!o->t || o->t->ndim == 0);
    }
    return true;
}

/* Load an element and bring it to the plan's compute type. */
static inline dtype_scalar load_operand(const binop_plan *p, int which, dtype t, const void *ptr)
{
    dtype_scalar v = dtype_load(t, ptr);
    if (!p->direct[which] && t != p->common) {
        v = dtype_cast(v, t, p->common);
        t = p->common;
    }
    return t == p->compute ? v : dtype_cast(v, t, p->compute);
}

/* ---- the float loops -------------------------------------------------------- */

/* r = x op y over n elements, in float32 or float64.  A float32 + - * /
 * gives the float64 result rounded to float32 (the comment at the top). */
static void float_run_f32(tensor_binop op, const float *x, const float *y, float *r, int64_t n)
{
    switch (op) {
    case TENSOR_ADD: for (int64_t i = 0; i < n; i++) r[i] = x[i] + y[i]; break;
    case TENSOR_SUB: for (int64_t i = 0; i < n; i++) r[i] = x[i] - y[i]; break;
    case TENSOR_MUL: for (int64_t i = 0; i < n; i++) r[i] = x[i] * y[i]; break;
    case TENSOR_DIV: for (int64_t i = 0; i < n; i++) r[i] = x[i] / y[i]; break;
    default: break;
    }
}

static void float_run_f64(tensor_binop op, const double *x, const double *y, double *r, int64_t n)
{
    switch (op) {
    case TENSOR_ADD: for (int64_t i = 0; i < n; i++) r[i] = x[i] + y[i]; break;
    case TENSOR_SUB: for (int64_t i = 0; i < n; i++) r[i] = x[i] - y[i]; break;
    case TENSOR_MUL: for (int64_t i = 0; i < n; i++) r[i] = x[i] * y[i]; break;
    case TENSOR_DIV: for (int64_t i = 0; i < n; i++) r[i] = x[i] / y[i]; break;
    default: break;
    }
}

/* One operand of binop_fast: a single element, loaded once by load_operand
 * (numbers and 0-d tensors, with the plan's conversions), or a run of a
 * float tensor whose elements convert to the compute type exactly. */
typedef struct fast_operand {
    dtype type;
    bool one;
    dtype_scalar value;     /* when one: in the compute type */
} fast_operand;

static bool fast_operand_of(const binop_plan *p, int which, const tensor *t, fast_operand *o)
{
    o->type = t->type;
    o->one = tensor_numel(t) == 1;
    if (o->one) {
        o->value = load_operand(p, which, t->type, tensor_cdata(t));
        return true;
    }
    /* a tensor with dimensions promotes to at least its own dtype: it
     * converts to the common type, and from there to compute, exactly */
    return tensor_loop_float(t->type) && (p->compute == DTYPE_FP64 || t->type != DTYPE_FP64);
}

/* Chunk [0, m) of operand o from src (byte stride ss) into buf. */
static void fast_load_f32(const fast_operand *o, const unsigned char *src, int64_t ss,
                          float *buf, int64_t m)
{
    if (!o->one) {
        tensor_loop_load_f32(o->type, src, ss, buf, m);
        return;
    }
    for (int64_t i = 0; i < m; i++)
        buf[i] = (float)o->value.f;
}

static void fast_load_f64(const fast_operand *o, const unsigned char *src, int64_t ss,
                          double *buf, int64_t m)
{
    if (!o->one) {
        tensor_loop_load_f64(o->type, src, ss, buf, m);
        return;
    }
    for (int64_t i = 0; i < m; i++)
        buf[i] = o->value.f;
}

/* One segment of binop_fast: n elements of out, a and b (operands 0, 1,
 * 2), a chunk at a time. */
typedef struct fast_job {
    tensor_binop op;
    dtype compute, out;
    fast_operand x, y;
} fast_job;

static void binop_fast_seg(void *ctx, unsigned char *const *ptr, const int64_t *step,
                           int64_t first, int64_t len)
{
    (void)first;
    const fast_job *j = ctx;
    for (int64_t done = 0; done < len; done += TENSOR_LOOP_CHUNK) {
        int64_t m = len - done < TENSOR_LOOP_CHUNK ? len - done : TENSOR_LOOP_CHUNK;
        unsigned char *po = ptr[0] + done * step[0];
        const unsigned char *pa = ptr[1] + done * step[1];
        const unsigned char *pb = ptr[2] + done * step[2];
        if (j->compute == DTYPE_FP32) {
            float bx[TENSOR_LOOP_CHUNK], by[TENSOR_LOOP_CHUNK], br[TENSOR_LOOP_CHUNK];
            fast_load_f32(&j->x, pa, step[1], bx, m);
            fast_load_f32(&j->y, pb, step[2], by, m);
            float_run_f32(j->op, bx, by, br, m);
            tensor_loop_store_f32(j->out, po, step[0], br, m);
        } else {
            double bx[TENSOR_LOOP_CHUNK], by[TENSOR_LOOP_CHUNK], br[TENSOR_LOOP_CHUNK];
            fast_load_f64(&j->x, pa, step[1], bx, m);
            fast_load_f64(&j->y, pb, step[2], by, m);
            float_run_f64(j->op, bx, by, br, m);
            tensor_loop_store_f64(j->out, po, step[0], br, m);
        }
    }
}

/* out = a op b for + - * / computed in float32 or float64 on float
 * tensors, a chunk of each run at a time: the operands are converted into
 * buffers of the compute type, the operator runs over the buffers and the
 * results are stored rounded to out's dtype; segments of the runs go to
 * the host threads (tensor_par.h).  The bits of binop_loop.  false, with
 * nothing done, for the cases binop_loop keeps.  out must not overlap a
 * or b except as the same elements (in place). */
static bool binop_fast(tensor_binop op, const binop_plan *p, tensor *out, const tensor *a,
                       const tensor *b)
{
    dtype ct = p->compute;
    if ((op != TENSOR_ADD && op != TENSOR_SUB && op != TENSOR_MUL && op != TENSOR_DIV) ||
        (ct != DTYPE_FP32 && ct != DTYPE_FP64) || !tensor_loop_float(out->type) ||
        tensor_par_threads() == 0)
        return false;
    fast_job j = {.op = op, .compute = ct, .out = out->type};
    if (!fast_operand_of(p, 0, a, &j.x) || !fast_operand_of(p, 1, b, &j.y))
        return false;
    tensor_iter it;
    tensor_iter_init(&it, out->ndim, out->shape);
    tensor_iter_add_tensor(&it, out);
    tensor_iter_add_src(&it, a);
    tensor_iter_add_src(&it, b);
    int64_t len, step[TENSOR_ITER_OPS];
    tensor_iter_runs(&it, &len, step);
    tensor_par_segments(&it, len, step, binop_fast_seg, &j);
    return true;
}

/* ---- comparisons and logic into bool tensors ---------------------------------- */

/* One segment of binop_fast_bool: n bool results from a and b (operands 1
 * and 2), a chunk at a time, the operands as doubles (comparisons) or as
 * 0/1 (logic). */
typedef struct bool_job {
    tensor_binop op;
    bool logic;
    fast_operand x, y;
} bool_job;

static void bool_load(const bool_job *j, const fast_operand *o, const unsigned char *src,
                      int64_t ss, double *buf, int64_t m)
{
    if (!j->logic) {
        fast_load_f64(o, src, ss, buf, m);
        return;
    }
    for (int64_t i = 0; i < m; i++)
        buf[i] = o->one ? (o->value.u != 0) : (src[i * ss] != 0);
}

static void binop_bool_seg(void *ctx, unsigned char *const *ptr, const int64_t *step,
                           int64_t first, int64_t len)
{
    (void)first;
    const bool_job *j = ctx;
    double bx[TENSOR_LOOP_CHUNK], by[TENSOR_LOOP_CHUNK];
    for (int64_t done = 0; done < len; done += TENSOR_LOOP_CHUNK) {
        int64_t m = len - done < TENSOR_LOOP_CHUNK ? len - done : TENSOR_LOOP_CHUNK;
        unsigned char *po = ptr[0] + done * step[0];
        bool_load(j, &j->x, ptr[1] + done * step[1], step[1], bx, m);
        bool_load(j, &j->y, ptr[2] + done * step[2], step[2], by, m);
        int64_t so = step[0];
        switch (j->op) {
        case TENSOR_EQ: for (int64_t i = 0; i < m; i++) po[i * so] = bx[i] == by[i]; break;
        case TENSOR_NE: for (int64_t i = 0; i < m; i++) po[i * so] = bx[i] != by[i]; break;
        case TENSOR_LT: for (int64_t i = 0; i < m; i++) po[i * so] = bx[i] < by[i]; break;
        case TENSOR_LE: for (int64_t i = 0; i < m; i++) po[i * so] = bx[i] <= by[i]; break;
        case TENSOR_GT: for (int64_t i = 0; i < m; i++) po[i * so] = bx[i] > by[i]; break;
        case TENSOR_GE: for (int64_t i = 0; i < m; i++) po[i * so] = bx[i] >= by[i]; break;
        case TENSOR_MUL:
        case TENSOR_AND:
            for (int64_t i = 0; i < m; i++) po[i * so] = bx[i] != 0 && by[i] != 0;
            break;
        case TENSOR_ADD:
        case TENSOR_OR:
            for (int64_t i = 0; i < m; i++) po[i * so] = bx[i] != 0 || by[i] != 0;
            break;
        case TENSOR_XOR: for (int64_t i = 0; i < m; i++) po[i * so] = (bx[i] != 0) != (by[i] != 0); break;
        default: break;
        }
    }
}

/* out (bool) = a op b for the comparisons of float operands (compared as
 * doubles: the common dtype's values widen exactly) and for & | ^ (and
 * bool + *) of two bool operands: the bits of binop_loop, a chunk of each
 * run at a time over the host threads.  false, with nothing done, for the
 * cases binop_loop keeps. */
static bool binop_fast_bool(tensor_binop op, const binop_plan *p, tensor *out, const tensor *a,
                            const tensor *b)
{
    if (out->type != DTYPE_INT1 || tensor_par_threads() == 0)
        return false;
    bool logic = a->type == DTYPE_INT1 && b->type == DTYPE_INT1 && p->compute == DTYPE_INT1 &&
                 (op == TENSOR_AND || op == TENSOR_OR || op == TENSOR_XOR || op == TENSOR_ADD ||
                  op == TENSOR_MUL);
    bool cmp = is_compare(op) && tensor_loop_float(p->compute);
    if (!logic && !cmp)
        return false;
    bool_job j = {.op = op, .logic = logic};
    if (logic) {
        j.x = (fast_operand){.type = a->type, .one = tensor_numel(a) == 1};
        j.y = (fast_operand){.type = b->type, .one = tensor_numel(b) == 1};
        if (j.x.one)
            j.x.value = dtype_load(DTYPE_INT1, tensor_cdata(a));
        if (j.y.one)
            j.y.value = dtype_load(DTYPE_INT1, tensor_cdata(b));
    } else if (!fast_operand_of(p, 0, a, &j.x) || !fast_operand_of(p, 1, b, &j.y)) {
        return false;
    }
    tensor_iter it;
    tensor_iter_init(&it, out->ndim, out->shape);
    tensor_iter_add_tensor(&it, out);
    tensor_iter_add_src(&it, a);
    tensor_iter_add_src(&it, b);
    int64_t len, step[TENSOR_ITER_OPS];
    tensor_iter_runs(&it, &len, step);
    tensor_par_segments(&it, len, step, binop_bool_seg, &j);
    return true;
}

/* out = a op b over out's shape (a and b broadcast to it). */
static bool binop_loop(tensor_binop op, const binop_plan *p, tensor *out, const tensor *a,
                       const tensor *b, char *err)
{
    if (binop_fast(op, p, out, a, b) || binop_fast_bool(op, p, out, a, b))
        return true;
    tensor_iter it;
    tensor_iter_init(&it, out->ndim, out->shape);
    tensor_iter_add_tensor(&it, out);
    tensor_iter_add_src(&it, a);
    tensor_iter_add_src(&it, b);
    dtype ta = a->type, tb = b->type, ct = p->compute;
    dtype rt = is_compare(op) ? DTYPE_INT1 : ct;
    bool fl = dtype_is_float(ct), zerodiv = false;
    for (int64_t i = 0; i < it.numel; i++, tensor_iter_next(&it)) {
        dtype_scalar x = load_operand(p, 0, ta, tensor_iter_ptr(&it, 1));
        dtype_scalar y = load_operand(p, 1, tb, tensor_iter_ptr(&it, 2));
        dtype_scalar r = fl ? float_op(op, ct, x.f, y.f) : int_op(op, ct, x, y, &zerodiv);
        dtype_store(out->type, tensor_iter_ptr(&it, 0), rt == out->type ? r : dtype_cast(r, rt, out->type));
    }
    if (zerodiv) {
        tensor_err(err, "ZeroDivisionError");
        return false;
    }
    return true;
}

tensor *tensor_binary(tensor_binop op, tensor_operand a, tensor_operand b, char *err)
{
    binop_plan p;
    if (!plan_binop(op, a, b, &p, err))
        return NULL;
    tensor *own_a, *own_b;
    const tensor *ta = operand_tensor(a, &own_a), *tb = operand_tensor(b, &own_b);
    int n;
    int64_t shape[TENSOR_MAX_DIMS];
    tensor *out = NULL;
    if (tensor_broadcast_shapes(ta->ndim, ta->shape, tb->ndim, tb->shape, &n, shape, err))
        out = tensor_new_uninit(p.result, n, shape, ta->cuda || tb->cuda, err);
    if (out && !binop_loop(op, &p, out, ta, tb, err)) {
        tensor_unref(out);
        out = NULL;
    }
    tensor_unref(own_a);
    tensor_unref(own_b);
    return out;
}

bool tensor_binary_inplace(tensor_binop op, tensor *self, tensor_operand b, char *err)
{
    binop_plan p;
    if (!plan_binop(op, tensor_operand_of(self), b, &p, err) ||
        tensor_internal_overlap(self, err))
        return false;
    if (!tensor_can_cast(p.result, self->type)) {
        tensor_err(err, "result type %s can't be cast to the desired output type %s",
                tensor_type_name(p.result), tensor_type_name(self->type));
        return false;
    }
    tensor *own_b;
    const tensor *tb = operand_tensor(b, &own_b);
    int n;
    int64_t shape[TENSOR_MAX_DIMS];
    bool ok = tensor_broadcast_shapes(self->ndim, self->shape, tb->ndim, tb->shape, &n, shape,
                                      err);
    if (ok && (n != self->ndim || memcmp(shape, self->shape, sizeof *shape * (size_t)n))) {
        char b1[120], b2[120];
        strbuf s1 = {0}, s2 = {0};
        tensor_shape_str(n, shape, &s1);
        tensor_shape_str(self->ndim, self->shape, &s2);
        snprintf(b1, sizeof b1, "%s", strbuf_cstr(&s1));
        snprintf(b2, sizeof b2, "%s", strbuf_cstr(&s2));
        strbuf_free(&s1);
        strbuf_free(&s2);
        tensor_err(err, "output with shape %s doesn't match the broadcast shape %s", b2, b1);
        ok = false;
    }
    if (ok && tensor_partial_overlap(self, tb, err))
        ok = false;
    if (ok && tensor_same_storage(self, tb)) {
        /* x += x.flip-like views: read the operand in full first. */
        tensor *c = tensor_to(tb, tb->type, tb->cuda, err);
        tensor_unref(own_b);
        own_b = c;
        tb = c;
        ok = c != NULL;
    }
    if (ok)
        ok = binop_loop(op, &p, self, self, tb, err);
    tensor_unref(own_b);
    return ok;
}

/* ---- unary functions --------------------------------------------------------- */

static bool unop_is_float_fn(tensor_unop op)
{
    return op >= TENSOR_EXP && op <= TENSOR_SILU && op != TENSOR_RELU;
}

static const char *unop_name(tensor_unop op)
{
    switch (op) {
    case TENSOR_GELU: case TENSOR_GELU_TANH: return "GeluKernelImpl";
    case TENSOR_SILU: return "silu_cpu";
    case TENSOR_INVERT: return "bitwise_not_cpu";
    case TENSOR_ABS: return "abs_cpu";
    default: return "unary_op";
    }
}

static double gelu(double x)
{
    return 0.5 * x * (1.0 + erf(x * 0.70710678118654752440));
}

static double gelu_tanh(double x)
{
    const double k = 0.79788456080286535588;    /* sqrt(2 / pi) */
    return 0.5 * x * (1.0 + tanh(k * (x + 0.044715 * x * x * x)));
}

static double sigmoid(double x)
{
    return 1.0 / (1.0 + exp(-x));
}

static double float_unop(tensor_unop op, double x)
{
    switch (op) {
    case TENSOR_NEG: return -x;
    case TENSOR_ABS: return fabs(x);
    case TENSOR_EXP: return exp(x);
    case TENSOR_EXP2: return exp2(x);
    case TENSOR_LOG: return log(x);
    case TENSOR_LOG2: return log2(x);
    case TENSOR_SQRT: return sqrt(x);
    case TENSOR_RSQRT: return 1.0 / sqrt(x);
    case TENSOR_SIN: return sin(x);
    case TENSOR_COS: return cos(x);
    case TENSOR_TANH: return tanh(x);
    case TENSOR_SIGMOID: return sigmoid(x);
    case TENSOR_TAN: return tan(x);
    case TENSOR_ASIN: return asin(x);
    case TENSOR_ACOS: return acos(x);
    case TENSOR_ATAN: return atan(x);
    case TENSOR_SINH: return sinh(x);
    case TENSOR_COSH: return cosh(x);
    case TENSOR_ASINH: return asinh(x);
    case TENSOR_ACOSH: return acosh(x);
    case TENSOR_ATANH: return atanh(x);
    case TENSOR_EXPM1: return expm1(x);
    case TENSOR_LOG10: return log10(x);
    case TENSOR_LOG1P: return log1p(x);
    case TENSOR_ERF: return erf(x);
    case TENSOR_ERFC: return erfc(x);
    case TENSOR_ERFINV: return mathfn_erfinv(x);
    case TENSOR_LGAMMA: return mathfn_lgamma(x);
    case TENSOR_RELU: return isnan(x) ? x : x > 0 ? x : 0.0;
    case TENSOR_GELU: return gelu(x);
    case TENSOR_GELU_TANH: return gelu_tanh(x);
    case TENSOR_SILU: return x * sigmoid(x);
    case TENSOR_FLOOR: return floor(x);
    case TENSOR_CEIL: return ceil(x);
    case TENSOR_ROUND: return nearbyint(x);
    case TENSOR_TRUNC: return trunc(x);
    default: return x;
    }
}

static dtype_scalar int_unop(tensor_unop op, dtype t, dtype_scalar v)
{
    switch (op) {
    case TENSOR_NEG: return dtype_wrap(t, 0 - v.u);
    case TENSOR_ABS:
        return dtype_is_signed(t) && v.i < 0 ? dtype_wrap(t, 0 - v.u) : v;
    case TENSOR_INVERT:
        return t == DTYPE_INT1 ? dtype_wrap(t, !v.u) : dtype_wrap(t, ~v.u);
    case TENSOR_RELU:
        return dtype_is_signed(t) && v.i < 0 ? dtype_wrap(t, 0) : v;
    default:
        return v;    /* floor, ceil, round, trunc of an int */
    }
}

static bool unop_check(tensor_unop op, dtype t, char *err)
{
    if (!tensor_no_fp8(t, err))
        return false;
    if (op == TENSOR_NEG && t == DTYPE_INT1) {
        tensor_err(err, "Negation, the `-` operator, on a bool tensor is not supported. If you are "
                "trying to invert a mask, use the `~` or `logical_not()` operator instead.");
        return false;
    }
    if ((op == TENSOR_INVERT && dtype_is_float(t)) ||
        ((op == TENSOR_GELU || op == TENSOR_GELU_TANH || op == TENSOR_SILU) &&
         !dtype_is_float(t)) ||
        (op == TENSOR_ABS && t == DTYPE_INT1)) {
        tensor_err(err, "\"%s\" not implemented for '%s'", unop_name(op), tensor_type_name(t));
        return false;
    }
    return true;
}

/* tensor_unary on a float16, bfloat16, float32 or float64 tensor, a chunk
 * of a run at a time: the elements as doubles (exact), the function in
 * double, the result rounded once to out_t (tensor_loop_store_f64), or
 * the predicate's 0/1: the bits of the element-at-a-time loop below.
 * Segments of the runs go to the host threads (tensor_par.h). */
typedef struct unary_job {
    tensor_unop op;
    dtype in, out;
} unary_job;

static void unary_float_seg(void *ctx, unsigned char *const *ptr, const int64_t *step,
                            int64_t first, int64_t len)
{
    (void)first;
    const unary_job *j = ctx;
    double buf[TENSOR_LOOP_CHUNK];
    for (int64_t done = 0; done < len; done += TENSOR_LOOP_CHUNK) {
        int64_t m = len - done < TENSOR_LOOP_CHUNK ? len - done : TENSOR_LOOP_CHUNK;
        unsigned char *d = ptr[0] + done * step[0];
        tensor_loop_load_f64(j->in, ptr[1] + done * step[1], step[1], buf, m);
        if (!dtype_is_float(j->out)) {       /* a predicate: int1 out */
            tensor_unop op = j->op;
            for (int64_t i = 0; i < m; i++) {
                double x = buf[i];
                d[i * step[0]] = op == TENSOR_ISNAN ? isnan(x) != 0
                               : op == TENSOR_ISINF ? isinf(x) != 0 : isfinite(x) != 0;
            }
            continue;
        }
        for (int64_t i = 0; i < m; i++)
            buf[i] = float_unop(j->op, buf[i]);
        tensor_loop_store_f64(j->out, d, step[0], buf, m);
    }
}

static void unary_float_runs(tensor_unop op, tensor_iter *it, dtype in, dtype out_t)
{
    int64_t len, step[TENSOR_ITER_OPS];
    tensor_iter_runs(it, &len, step);
    unary_job j = {op, in, out_t};
    tensor_par_segments(it, len, step, unary_float_seg, &j);
}

tensor *tensor_unary(tensor_unop op, const tensor *t, char *err)
{
    dtype in = t->type;
    if (!unop_check(op, in, err))
        return NULL;
    bool predicate = op >= TENSOR_ISNAN;
    dtype out_t = predicate ? DTYPE_INT1
                : unop_is_float_fn(op) && !dtype_is_float(in) ? DTYPE_FP32 : in;
    tensor *out = tensor_new_uninit(out_t, t->ndim, t->shape, t->cuda, err);
    if (!out)
        return NULL;
    tensor_iter it;
    tensor_iter_init(&it, t->ndim, t->shape);
    tensor_iter_add_tensor(&it, out);
    tensor_iter_add_src(&it, t);
    if (tensor_loop_float(in) && tensor_par_threads() != 0) {
        unary_float_runs(op, &it, in, out_t);
        return out;
    }
    for (int64_t i = 0; i < it.numel; i++, tensor_iter_next(&it)) {
        dtype_scalar v = dtype_load(in, tensor_iter_ptr(&it, 1)), r;
        if (predicate) {
            double x = dtype_is_float(in) ? v.f : 0.0;
            r.u = op == TENSOR_ISNAN ? isnan(x) != 0 : op == TENSOR_ISINF ? isinf(x) != 0
                                                                            : isfinite(x) != 0;
        } else if (dtype_is_float(out_t)) {
            double x = dtype_is_float(in) ? v.f : dtype_cast(v, in, DTYPE_FP64).f;
            r.f = dtype_round_float(out_t, float_unop(op, x));
        } else {
            r = int_unop(op, in, v);
        }
        dtype_store(out_t, tensor_iter_ptr(&it, 0), r);
    }
    return out;
}

/* ---- where and clamp --------------------------------------------------------- */

tensor *tensor_where(const tensor *cond, tensor_operand a, tensor_operand b, char *err)
{
    if (cond->type != DTYPE_INT1 && cond->type != DTYPE_UINT8) {
        tensor_err(err, "where expected condition to be a boolean tensor, but got a tensor with "
                "dtype %s", tensor_type_name(cond->type));
        return NULL;
    }
    tensor_operand both[2] = {a, b};
    dtype rt = tensor_result_type(2, both, err);
    if (rt == DTYPE_INVALID || !tensor_no_fp8(rt, err))
        return NULL;
    tensor *own_a, *own_b;
    const tensor *ta = operand_tensor(a, &own_a), *tb = operand_tensor(b, &own_b);
    int n1, n2;
    int64_t s1[TENSOR_MAX_DIMS], s2[TENSOR_MAX_DIMS];
    tensor *out = NULL;
    if (tensor_broadcast_shapes(cond->ndim, cond->shape, ta->ndim, ta->shape, &n1, s1, err) &&
        tensor_broadcast_shapes(n1, s1, tb->ndim, tb->shape, &n2, s2, err))
        out = tensor_new(rt, n2, s2, cond->cuda || ta->cuda || tb->cuda, err);
    if (out) {
        tensor_iter it;
        tensor_iter_init(&it, n2, s2);
        tensor_iter_add_tensor(&it, out);
        tensor_iter_add_src(&it, cond);
        tensor_iter_add_src(&it, ta);
        tensor_iter_add_src(&it, tb);
        for (int64_t i = 0; i < it.numel; i++, tensor_iter_next(&it)) {
            bool c = dtype_load(cond->type, tensor_iter_ptr(&it, 1)).u != 0;
            const tensor *src = c ? ta : tb;
            dtype_scalar v = dtype_load(src->type, tensor_iter_ptr(&it, c ? 2 : 3));
            dtype_store(rt, tensor_iter_ptr(&it, 0), dtype_cast(v, src->type, rt));
        }
    }
    tensor_unref(own_a);
    tensor_unref(own_b);
    return out;
}

tensor *tensor_clamp(const tensor *t, const tensor_operand *lo, const tensor_operand *hi,
                     char *err)
{
    if (!lo && !hi) {
        tensor_err(err, "torch.clamp: At least one of 'min' or 'max' must not be None");
        return NULL;
    }
    tensor_operand ops[3] = {tensor_operand_of(t)};
    int n = 1;
    if (lo)
        ops[n++] = *lo;
    if (hi)
        ops[n++] = *hi;
    dtype rt = tensor_result_type(n, ops, err);
    if (rt == DTYPE_INVALID)
        return NULL;
    /* clamp(x, lo, hi) = minimum(maximum(x, lo), hi), computed in rt. */
    tensor *out = tensor_to(t, rt, t->cuda, err);
    for (int i = 0; out && i < 2; i++) {
        const tensor_operand *b = i == 0 ? lo : hi;
        if (b && !tensor_binary_inplace(i == 0 ? TENSOR_MAXIMUM : TENSOR_MINIMUM, out, *b,
                                        err)) {
            tensor_unref(out);
            out = NULL;
        }
    }
    return out;
}
