/* tensor_reduce.c - reductions over tensor dimensions (sum, prod, mean,
 * max/min with and without their indices, argmax/argmin, all/any) and the
 * operations made of a reduction along one dimension (softmax,
 * log_softmax, cumsum, cumprod).
 *
 * Floats accumulate in double and round once at the end; ints accumulate
 * with 64-bit wrap-around.  torch's CPU kernels sum float32 in float32
 * with a cascade, so a long float32 sum may differ from torch in its last
 * bit. */
#include "tensor.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "tensor_loops.h"

static const char *reduce_name(tensor_reduce_op op)
{
    static const char *const names[] = {
        [TENSOR_SUM] = "sum", [TENSOR_PROD] = "prod", [TENSOR_MEAN] = "mean",
        [TENSOR_AMAX] = "max", [TENSOR_AMIN] = "min", [TENSOR_ARGMAX] = "argmax",
        [TENSOR_ARGMIN] = "argmin", [TENSOR_ALL] = "all", [TENSOR_ANY] = "any",
    };
    return names[op];
}

/* Which dimensions are reduced; false with torch's message. */
static bool reduce_mask(const tensor *t, int ndims, const int64_t *dims, bool *mask, char *err)
{
    for (int i = 0; i < TENSOR_MAX_DIMS; i++)
        mask[i] = dims == NULL || ndims == 0;
    if (dims == NULL || ndims == 0)
        return true;
    for (int i = 0; i < ndims; i++) {
        int d;
        if (!tensor_wrap_dim(t->ndim, dims[i], &d, err))
            return false;
        if (t->ndim == 0)
            continue;
        if (mask[d]) {
            tensor_err(err, "dim %d appears multiple times in the list of dims", d);
            return false;
        }
        mask[d] = true;
    }
    return true;
}

/* The running state of one reduction. */
typedef struct acc {
    double f;          /* float sum/prod/extreme */
    uint64_t u;        /* int sum/prod; int extreme (as the canonical bits) */
    int64_t index;     /* arg of the extreme */
    bool has;          /* an extreme was seen */
    bool nan;          /* a NaN was seen (it wins max/min) */
} acc;

static bool better(bool is_max, dtype t, dtype_scalar v, const acc *a)
{
    if (dtype_is_float(t))
        return is_max ? v.f > a->f : v.f < a->f;
    if (dtype_is_signed(t))
        return is_max ? v.i > (int64_t)a->u : v.i < (int64_t)a->u;
    return is_max ? v.u > a->u : v.u < a->u;
}

static void acc_add(tensor_reduce_op op, dtype t, acc *a, dtype_scalar v, int64_t k)
{
    bool fl = dtype_is_float(t);
    switch (op) {
    case TENSOR_SUM:
    case TENSOR_MEAN:
        if (fl)
            a->f += v.f;
        else
            a->u += t == DTYPE_INT1 ? v.u : dtype_cast(v, t, DTYPE_INT64).u;
        break;
    case TENSOR_PROD:
        if (fl)
            a->f *= v.f;
        else
            a->u *= dtype_cast(v, t, DTYPE_INT64).u;
        break;
    case TENSOR_ALL:
        if (fl ? v.f == 0.0 : v.u == 0)
            a->u = 0;
        break;
    case TENSOR_ANY:
        if (fl ? v.f != 0.0 : v.u != 0)
            a->u = 1;
        break;
    default: {    /* max, min and their args */
        bool is_max = op == TENSOR_AMAX || op == TENSOR_ARGMAX;
        if (a->nan)
            break;
        if (fl && isnan(v.f)) {
            a->nan = true;
            a->f = v.f;
            a->index = k;
        } else if (!a->has || better(is_max, t, v, a)) {
            a->f = v.f;
            a->u = v.u;
            a->index = k;
        }
        a->has = true;
        break;
    }
    }
}

static void acc_init(tensor_reduce_op op, acc *a)
{
    memset(a, 0, sizeof *a);
    if (op == TENSOR_PROD) {
        a->f = 1.0;
        a->u = 1;
    }
    if (op == TENSOR_ALL)
        a->u = 1;
}

/* The output dtype of a reduction of type t; DTYPE_INVALID + message. */
static dtype reduce_type(tensor_reduce_op op, dtype t, char *err)
{
    switch (op) {
    case TENSOR_SUM:
    case TENSOR_PROD:
        return dtype_is_float(t) ? t : DTYPE_INT64;
    case TENSOR_MEAN:
        if (!dtype_is_float(t)) {
            tensor_err(err, "mean(): could not infer output dtype. Input dtype must be either a "
                    "floating point or complex dtype. Got: %s", tensor_type_name(t));
            return DTYPE_INVALID;
        }
        return t;
    case TENSOR_ARGMAX:
    case TENSOR_ARGMIN:
        return DTYPE_INT64;
    case TENSOR_ALL:
    case TENSOR_ANY:
        return t == DTYPE_UINT8 ? DTYPE_UINT8 : DTYPE_INT1;
    default:
        return t;
    }
}

/* The value a finished accumulator gives, in dtype out. */
static dtype_scalar acc_result(tensor_reduce_op op, dtype in, dtype out, const acc *a,
                               int64_t count)
{
    dtype_scalar r;
    switch (op) {
    case TENSOR_SUM:
    case TENSOR_PROD:
        if (dtype_is_float(out))
            r.f = dtype_round_float(out, a->f);
        else
            r = dtype_wrap(out, a->u);
        return r;
    case TENSOR_MEAN:
        r.f = dtype_round_float(out, count ? a->f / (double)count : NAN);
        return r;
    case TENSOR_ARGMAX:
    case TENSOR_ARGMIN:
        r.i = a->index;
        return r;
    case TENSOR_ALL:
    case TENSOR_ANY:
        r.u = a->u;
        return r;
    default:
        if (dtype_is_float(in))
            r.f = a->f;
        else
            r.u = a->u;
        return r;
    }
}

/* s plus the n elements of a run of float dtype t, added one at a time in
 * double, in order (as acc_add adds them). */
static double sum_run(dtype t, const unsigned char *p, int64_t stride, int64_t n, double s)
{
    double buf[TENSOR_LOOP_CHUNK];
    for (int64_t done = 0; done < n; done += TENSOR_LOOP_CHUNK) {
        int64_t m = n - done < TENSOR_LOOP_CHUNK ? n - done : TENSOR_LOOP_CHUNK;
        tensor_loop_load_f64(t, p + done * stride, stride, buf, m);
        for (int64_t i = 0; i < m; i++)
            s += buf[i];
    }
    return s;
}

/* Reduce t over the dimensions in mask: values into vals (dtype vtype) and,
 * when idx is not NULL, the argmax/argmin into idx (int64).  Both outputs
 * are contiguous with the kept dimensions in order. */
static void reduce_core(tensor_reduce_op op, const tensor *t, const bool *mask, tensor *vals,
                        tensor *idx)
{
    int64_t oshape[TENSOR_MAX_DIMS], ostep[TENSOR_MAX_DIMS];
    int64_t ishape[TENSOR_MAX_DIMS], istep[TENSOR_MAX_DIMS];
    int on = 0, in = 0, es = tensor_elsize(t);
    for (int d = 0; d < t->ndim; d++) {
        if (mask[d]) {
            ishape[in] = t->shape[d];
            istep[in++] = t->strides[d] * es;
        } else {
            oshape[on] = t->shape[d];
            ostep[on++] = t->strides[d] * es;
        }
    }
    tensor_iter outer;
    tensor_iter_init(&outer, on, oshape);
    tensor_iter_add(&outer, (void *)tensor_cdata(t), ostep);
    unsigned char *vp = vals ? tensor_data(vals) : NULL;
    int64_t *ip = idx ? tensor_data(idx) : NULL;
    int vs = vals ? tensor_elsize(vals) : 0;
    /* float sums run over runs of elements converted to double (exactly)
     * in chunks, adding in the same order */
    bool fast_sum = (op == TENSOR_SUM || op == TENSOR_MEAN) && tensor_loop_float(t->type);
    for (int64_t o = 0; o < outer.numel; o++, tensor_iter_next(&outer)) {
        tensor_iter inner;
        tensor_iter_init(&inner, in, ishape);
        tensor_iter_add(&inner, tensor_iter_ptr(&outer, 0), istep);
        int64_t count = inner.numel;
        acc a;
        acc_init(op, &a);
        if (fast_sum) {
            int64_t len, step[TENSOR_ITER_OPS];
            tensor_iter_runs(&inner, &len, step);
            for (int64_t r = 0; r < inner.numel; r++, tensor_iter_next(&inner))
                a.f = sum_run(t->type, tensor_iter_ptr(&inner, 0), step[0], len, a.f);
        } else {
            for (int64_t k = 0; k < inner.numel; k++, tensor_iter_next(&inner))
                acc_add(op, t->type, &a, dtype_load(t->type, tensor_iter_ptr(&inner, 0)), k);
        }
        if (vals) {
            dtype_store(vals->type, vp, acc_result(op, t->type, vals->type, &a, count));
            vp += vs;
        }
        if (ip)
            *ip++ = a.index;
    }
}

/* The shape of a reduction's output. */
static int reduced_shape(const tensor *t, const bool *mask, bool keepdim, int64_t *shape)
{
    int n = 0;
    for (int d = 0; d < t->ndim; d++) {
        if (!mask[d])
            shape[n++] = t->shape[d];
        else if (keepdim)
            shape[n++] = 1;
    }
    return n;
}

/* max/min/argmax/argmin need at least one element in each reduction. */
static bool check_nonempty(tensor_reduce_op op, const tensor *t, const bool *mask, bool all,
                           char *err)
{
    if (op != TENSOR_AMAX && op != TENSOR_AMIN && op != TENSOR_ARGMAX && op != TENSOR_ARGMIN)
        return true;
    if (tensor_numel(t) != 0)
        return true;
    if (all) {
        tensor_err(err, "%s(): Expected reduction dim to be specified for input.numel() == 0. "
                "Specify the reduction dim with the 'dim' argument.", reduce_name(op));
        return false;
    }
    for (int d = 0; d < t->ndim; d++)
        if (mask[d] && t->shape[d] == 0) {
            tensor_err(err, "%s(): Expected reduction dim %d to have non-zero size.",
                    reduce_name(op), d);
            return false;
        }
    return true;
}

tensor *tensor_reduce(tensor_reduce_op op, const tensor *t, int ndims, const int64_t *dims,
                      bool keepdim, dtype out_type, char *err)
{
    bool mask[TENSOR_MAX_DIMS];
    bool arg = op == TENSOR_ARGMAX || op == TENSOR_ARGMIN;
    if (!tensor_no_fp8(t->type, err) || !tensor_no_fp8(out_type, err))
        return NULL;
    if (arg && dims && ndims > 1) {
        tensor_err(err, "%s() takes one dimension (dim=int), not several", reduce_name(op));
        return NULL;
    }
    if (!reduce_mask(t, ndims, dims, mask, err))
        return NULL;
    bool all = dims == NULL || ndims == 0;
    if (!check_nonempty(op, t, mask, all, err))
        return NULL;
    tensor *conv = NULL;
    if (out_type != DTYPE_INVALID && out_type != t->type) {
        conv = tensor_to(t, out_type, t->cuda, err);
        if (!conv)
            return NULL;
        t = conv;
    }
    /* sum(dtype=int8) sums in int8: the dtype= argument is the result's */
    dtype rt = out_type != DTYPE_INVALID && (op == TENSOR_SUM || op == TENSOR_PROD)
             ? out_type : reduce_type(op, t->type, err);
    tensor *out = NULL;
    if (rt != DTYPE_INVALID) {
        int64_t shape[TENSOR_MAX_DIMS];
        int n = reduced_shape(t, mask, keepdim && !(arg && all), shape);
        out = tensor_new(rt, n, shape, t->cuda, err);
    }
    if (out)
        reduce_core(op, t, mask, arg ? NULL : out, arg ? out : NULL);
    tensor_unref(conv);
    return out;
}

bool tensor_max_dim(bool is_max, const tensor *t, int64_t dim, bool keepdim, tensor **values,
                    tensor **indices, char *err)
{
    bool mask[TENSOR_MAX_DIMS];
    tensor_reduce_op op = is_max ? TENSOR_AMAX : TENSOR_AMIN;
    if (!tensor_no_fp8(t->type, err) || !reduce_mask(t, 1, &dim, mask, err) ||
        !check_nonempty(op, t, mask, false, err))
        return false;
    int64_t shape[TENSOR_MAX_DIMS];
    int n = reduced_shape(t, mask, keepdim, shape);
    *values = tensor_new(t->type, n, shape, t->cuda, err);
    *indices = *values ? tensor_new(DTYPE_INT64, n, shape, t->cuda, err) : NULL;
    if (!*indices) {
        tensor_unref(*values);
        *values = NULL;
        return false;
    }
    reduce_core(op, t, mask, *values, *indices);
    return true;
}

/* ---- along one dimension ---------------------------------------------------------- */

/* Calls fn(line, n, step, out, ostep, ctx) for every 1-D line of t along
 * dim, with out the matching line of a contiguous output of t's shape. */
typedef void line_fn(const tensor *t, const unsigned char *in, int64_t istep,
                     const tensor *out, unsigned char *o, int64_t ostep, int64_t n);

static void for_each_line(const tensor *t, int d, tensor *out, line_fn *fn)
{
    int64_t shape[TENSOR_MAX_DIMS];
    memcpy(shape, t->shape, sizeof shape);
    int64_t n = t->ndim ? t->shape[d] : 1;
    if (t->ndim)
        shape[d] = 1;
    tensor_iter it;
    tensor_iter_init(&it, t->ndim, shape);
    tensor_iter_add_src(&it, t);
    tensor_iter_add_tensor(&it, out);
    int64_t istep = t->ndim ? t->strides[d] * tensor_elsize(t) : 0;
    int64_t ostep = t->ndim ? out->strides[d] * tensor_elsize(out) : 0;
    for (int64_t i = 0; i < it.numel; i++, tensor_iter_next(&it))
        fn(t, tensor_iter_ptr(&it, 0), istep, out, tensor_iter_ptr(&it, 1), ostep, n);
}

static void softmax_line(const tensor *t, const unsigned char *in, int64_t istep,
                         const tensor *out, unsigned char *o, int64_t ostep, int64_t n, bool take_log)
{
    /* Subtract the largest value so exp cannot overflow (a NaN anywhere
     * makes the whole line NaN, as in torch). */
    double mx = -INFINITY, sum = 0;
    for (int64_t k = 0; k < n; k++) {
        double x = dtype_load(t->type, in + k * istep).f;
        if (x > mx)
            mx = x;
    }
    for (int64_t k = 0; k < n; k++)
        sum += exp(dtype_load(t->type, in + k * istep).f - mx);
    for (int64_t k = 0; k < n; k++) {
        double x = dtype_load(t->type, in + k * istep).f - mx;
        dtype_scalar r = {.f = dtype_round_float(out->type, take_log ? x - log(sum) : exp(x) / sum)};
        dtype_store(out->type, o + k * ostep, r);
    }
}

static void softmax_fn(const tensor *t, const unsigned char *in, int64_t istep,
                       const tensor *out, unsigned char *o, int64_t ostep, int64_t n)
{
    softmax_line(t, in, istep, out, o, ostep, n, false);
}

static void log_softmax_fn(const tensor *t, const unsigned char *in, int64_t istep,
                           const tensor *out, unsigned char *o, int64_t ostep, int64_t n)
{
    softmax_line(t, in, istep, out, o, ostep, n, true);
}

tensor *tensor_softmax(const tensor *t, int64_t dim, bool log, dtype out_type, char *err)
{
    int d;
    if (!tensor_wrap_dim(t->ndim, dim, &d, err))
        return NULL;
    dtype rt = out_type != DTYPE_INVALID ? out_type : t->type;
    if (!tensor_no_fp8(t->type, err) || !tensor_no_fp8(rt, err))
        return NULL;
    if (!dtype_is_float(rt)) {
        tensor_err(err, "\"%s_lastdim_kernel_impl\" not implemented for '%s'",
                log ? "log_softmax" : "softmax", tensor_type_name(rt));
        return NULL;
    }
    tensor *src = tensor_to(t, rt, t->cuda, err);
    tensor *out = src ? tensor_new(rt, t->ndim, t->shape, t->cuda, err) : NULL;
    if (out)
        for_each_line(src, d, out, log ? log_softmax_fn : softmax_fn);
    tensor_unref(src);
    return out;
}

/* One line of a cumulative sum (prod false) or product (prod true). */
static void cumulate_line(const tensor *t, const unsigned char *in, int64_t istep,
                          const tensor *out, unsigned char *o, int64_t ostep, int64_t n, bool prod)
{
    double facc = prod ? 1 : 0;
    uint64_t iacc = prod ? 1 : 0;
    bool fl = dtype_is_float(t->type);
    for (int64_t k = 0; k < n; k++) {
        dtype_scalar v = dtype_load(t->type, in + k * istep), r;
        if (fl) {
            facc = prod ? facc * v.f : facc + v.f;
            r.f = dtype_round_float(out->type, facc);
        } else {
            uint64_t x = dtype_cast(v, t->type, DTYPE_INT64).u;
            iacc = prod ? iacc * x : iacc + x;
            r.u = iacc;
        }
        dtype_store(out->type, o + k * ostep, r);
    }
}

static void cumsum_fn(const tensor *t, const unsigned char *in, int64_t istep,
                      const tensor *out, unsigned char *o, int64_t ostep, int64_t n)
{
    cumulate_line(t, in, istep, out, o, ostep, n, false);
}

static void cumprod_fn(const tensor *t, const unsigned char *in, int64_t istep,
                       const tensor *out, unsigned char *o, int64_t ostep, int64_t n)
{
    cumulate_line(t, in, istep, out, o, ostep, n, true);
}

static tensor *cumulate(const tensor *t, int64_t dim, line_fn *fn, char *err)
{
    int d;
    if (!tensor_no_fp8(t->type, err) || !tensor_wrap_dim(t->ndim, dim, &d, err))
        return NULL;
    dtype rt = dtype_is_float(t->type) ? t->type : DTYPE_INT64;
    tensor *out = tensor_new(rt, t->ndim, t->shape, t->cuda, err);
    if (out)
        for_each_line(t, d, out, fn);
    return out;
}

tensor *tensor_cumsum(const tensor *t, int64_t dim, char *err)
{
    return cumulate(t, dim, cumsum_fn, err);
}

tensor *tensor_cumprod(const tensor *t, int64_t dim, char *err)
{
    return cumulate(t, dim, cumprod_fn, err);
}
