/* autograd_ops.c - backward formulas of the torch functions that are not
 * torch.nn.functional's layers: the elementwise functions (their
 * derivatives in float64), pow, where, clamp, maximum/minimum, softmax
 * and log_softmax, the reductions (var/std and var_mean/std_mean, the
 * vector norms, logsumexp, cumsum, cumprod, amax/amin, and the values of
 * sort, topk and max/min(dim)), cat and stack, scatter and scatter_add,
 * and the ops that only move elements (transpose, permute, expand, flip,
 * roll, repeat, triu, gather, index_select, masked_fill, masked_select,
 * x[key], ...).
 *
 * The moving ops share one formula: backward runs the op again on a
 * tensor of the input's element numbers (1, 2, ...), which tells for
 * each output element where it came from (0: nowhere, a constant), and
 * adds each output gradient to its source.  That is the op's gradient,
 * sums over repeated elements included. */
#include "autograd_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "torch_impl.h"

/* ---- helpers ------------------------------------------------------------------- */

/* t broadcast to (ndim, shape) as a contiguous float64 tensor. */
static tensor *ops_f64_as(const tensor *t, int ndim, const int64_t *shape, char *err)
{
    tensor *b = tensor_broadcast_to(t, ndim, shape, err);
    tensor *r = b ? ag_f64(b, err) : NULL;
    tensor_unref(b);
    return r;
}

static double *ops_d(tensor *t)
{
    return tensor_data(t);
}

/* A number or a tensor operand kept in saved[] as a float64 tensor of the
 * shape (ndim, shape). */
static tensor *ops_operand_f64(val v, int ndim, const int64_t *shape, char *err)
{
    tensor *t = tensor_of(v);
    if (t)
        return ops_f64_as(t, ndim, shape, err);
    double x = 0;
    if (v.kind == VAL_FLOAT)
        x = v.u.f;
    else if (v.kind == VAL_INT)
        x = (double)v.u.i;
    else if (v.kind == VAL_BOOL)
        x = v.u.b;
    tensor *r = tensor_new(DTYPE_FP64, ndim, shape, false, err);
    if (r)
        for (int64_t i = 0, n = tensor_numel(r); i < n; i++)
            ops_d(r)[i] = x;
    return r;
}

/* gin[i] = d (float64, of the gradient's shape) reduced to input i. */
static bool ops_give(ag_node *n, int i, tensor *d, tensor **gin, char *err)
{
    if (!d)
        return false;
    if (n->next[i].kind != VAL_NONE)
        gin[i] = ag_reduce_to(d, &n->meta[i], err);
    tensor_unref(d);
    return n->next[i].kind == VAL_NONE || gin[i] != NULL;
}

/* g with the reduced dims put back (size 1) when the reduction dropped
 * them: dims (ndims of them, or every one of meta's when all). */
static tensor *ops_unsqueeze_dims(const tensor *g, const ag_meta *m, int ndims,
                                  const int64_t *dims, bool all, bool keep, char *err)
{
    if (keep || all) {
        if (!all || keep)
            return tensor_ref((tensor *)g);
        int64_t ones[TENSOR_MAX_DIMS];
        for (int i = 0; i < m->ndim; i++)
            ones[i] = 1;
        return tensor_reshape(g, m->ndim, ones, err);
    }
    bool mark[TENSOR_MAX_DIMS] = {false};
    for (int i = 0; i < ndims; i++) {
        int d;
        if (!tensor_wrap_dim(m->ndim, dims[i], &d, err))
            return NULL;
        mark[d] = true;
    }
    int64_t shape[TENSOR_MAX_DIMS];
    for (int i = 0, k = 0; i < m->ndim; i++)
        shape[i] = mark[i] ? 1 : g->shape[k++];
    return tensor_reshape(g, m->ndim, shape, err);
}

/* The dims of a reduction's dim= argument into n (all_dims when absent). */
static bool ops_rec_dims(host *h, ag_node *n, val dim, val keep, src_span at)
{
    n->all_dims = !ag_present(dim);
    n->ndims = 0;
    if (!n->all_dims && !torch_int_list(h, dim, at, n->op, "dim", &n->ndims, n->dims,
                                        TENSOR_MAX_DIMS))
        return false;
    if (n->ndims == 0)
        n->all_dims = true;
    n->keepdim = false;
    return !ag_present(keep) || torch_bool_arg(h, keep, at, n->op, "keepdim", &n->keepdim);
}

/* ---- elementwise functions ---------------------------------------------------------- */

typedef enum {
    U_ABS, U_SQRT, U_RSQRT, U_LOG, U_LOG2, U_LOG10, U_LOG1P, U_EXP2, U_EXPM1, U_SIN, U_COS,
    U_TAN, U_TANH, U_SIGMOID, U_ASIN, U_ACOS, U_ATAN, U_SINH, U_COSH, U_ASINH, U_ACOSH,
    U_ATANH, U_ERF, U_ERFC, U_ERFINV, U_SILU, U_GELU, U_SQUARE, U_ZERO,
} ops_unary;

static const struct { const char *op; ops_unary u; } unary_ops[] = {
    {"abs", U_ABS}, {"__abs__", U_ABS}, {"sqrt", U_SQRT}, {"rsqrt", U_RSQRT}, {"log", U_LOG},
    {"log2", U_LOG2}, {"log10", U_LOG10}, {"log1p", U_LOG1P}, {"exp2", U_EXP2},
    {"expm1", U_EXPM1}, {"sin", U_SIN}, {"cos", U_COS}, {"tan", U_TAN}, {"tanh", U_TANH},
    {"sigmoid", U_SIGMOID}, {"asin", U_ASIN}, {"arcsin", U_ASIN}, {"acos", U_ACOS},
    {"arccos", U_ACOS}, {"atan", U_ATAN}, {"arctan", U_ATAN}, {"sinh", U_SINH},
    {"cosh", U_COSH}, {"asinh", U_ASINH}, {"arcsinh", U_ASINH}, {"acosh", U_ACOSH},
    {"arccosh", U_ACOSH}, {"atanh", U_ATANH}, {"arctanh", U_ATANH}, {"erf", U_ERF},
    {"erfc", U_ERFC}, {"erfinv", U_ERFINV}, {"silu", U_SILU}, {"gelu", U_GELU},
    {"square", U_SQUARE}, {"floor", U_ZERO}, {"ceil", U_ZERO}, {"round", U_ZERO},
    {"trunc", U_ZERO},
};

static bool rec_unary(host *h, ag_node *n, int argc, const val *all, const val_kwargs *kw,
                      val result, src_span at)
{
    ag_rec_one(h, n, argc, all, kw, result, at);
    n->saved[0] = ag_detached(all[0]);
    n->saved[1] = ag_detached(result);
    for (size_t i = 0; i < sizeof unary_ops / sizeof *unary_ops; i++)
        if (!strcmp(unary_ops[i].op, n->f->op))
            n->mode = (int)unary_ops[i].u;
    val approx = ag_arg(argc, all, kw, 1, "approximate");
    n->ival = n->mode == U_GELU && approx.kind == VAL_STR &&
              !strcmp(val_as_str(approx)->s, "tanh");
    if (n->mode == U_ZERO && !strcmp(n->f->op, "round") && ag_kw_has(kw, "decimals"))
        ag_set_name(n, "RoundBackward1");
    return true;
}

/* d/dx of the function u at x, whose value is y. */
static double unary_derivative(ops_unary u, bool tanh_gelu, double x, double y)
{
    const double pi = 3.14159265358979323846;
    switch (u) {
    case U_ABS: return x > 0 ? 1 : x < 0 ? -1 : 0;
    case U_SQRT: return 0.5 / y;
    case U_RSQRT: return -0.5 * y * y * y;
    case U_LOG: return 1 / x;
    case U_LOG2: return 1 / (x * log(2.0));
    case U_LOG10: return 1 / (x * log(10.0));
    case U_LOG1P: return 1 / (1 + x);
    case U_EXP2: return y * log(2.0);
    case U_EXPM1: return y + 1;
    case U_SIN: return cos(x);
    case U_COS: return -sin(x);
    case U_TAN: return 1 + y * y;
    case U_TANH: return 1 - y * y;
    case U_SIGMOID: return y * (1 - y);
    case U_ASIN: return 1 / sqrt(1 - x * x);
    case U_ACOS: return -1 / sqrt(1 - x * x);
    case U_ATAN: return 1 / (1 + x * x);
    case U_SINH: return cosh(x);
    case U_COSH: return sinh(x);
    case U_ASINH: return 1 / sqrt(x * x + 1);
    case U_ACOSH: return 1 / sqrt(x * x - 1);
    case U_ATANH: return 1 / (1 - x * x);
    case U_ERF: return 2 / sqrt(pi) * exp(-x * x);
    case U_ERFC: return -2 / sqrt(pi) * exp(-x * x);
    case U_ERFINV: return sqrt(pi) / 2 * exp(y * y);
    case U_SILU: {
        double s = 1 / (1 + exp(-x));
        return s * (1 + x * (1 - s));
    }
    case U_GELU:
        if (tanh_gelu) {
            double k = sqrt(2 / pi), inner = k * (x + 0.044715 * x * x * x), t = tanh(inner);
            return 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * k * (1 + 3 * 0.044715 * x * x);
        }
        return 0.5 * (1 + erf(x / sqrt(2.0))) + x * exp(-0.5 * x * x) / sqrt(2 * pi);
    case U_SQUARE: return 2 * x;
    case U_ZERO: return 0;
    }
    return 0;
}

static bool bw_unary(host *h, ag_node *n, const tensor *g, tensor **gin, char *err)
{
    (void)h;
    const tensor *x = tensor_of(n->saved[0]), *y = tensor_of(n->saved[1]);
    const ag_meta *m = &n->meta[0];
    tensor *xd = ops_f64_as(x, m->ndim, m->shape, err);
    tensor *yd = xd ? ops_f64_as(y, m->ndim, m->shape, err) : NULL;
    tensor *gd = yd ? ops_f64_as(g, m->ndim, m->shape, err) : NULL;
    bool ok = gd != NULL;
    if (ok) {
        double *xv = ops_d(xd), *yv = ops_d(yd), *gv = ops_d(gd);
        for (int64_t i = 0, k = tensor_numel(gd); i < k; i++)
            gv[i] *= unary_derivative((ops_unary)n->mode, n->ival != 0, xv[i], yv[i]);
        gin[0] = tensor_to(gd, m->type, m->cuda, err);
        ok = gin[0] != NULL;
    }
    tensor_unref(xd);
    tensor_unref(yd);
    tensor_unref(gd);
    return ok;
}

/* ---- pow, where, clamp, maximum/minimum ------------------------------------------------ */

/* pow(input, exponent): either may be a number; the node names follow
 * PyTorch: PowBackward0 (number exponent), 1 (tensor), 2 (number base). */
static bool rec_pow(host *h, ag_node *n, int argc, const val *all, const val_kwargs *kw,
                    val result, src_span at)
{
    ag_rec_two(h, n, argc, all, kw, result, at);
    val e = ag_arg(argc, all, kw, 1, "exponent");
    if (e.kind == VAL_MISSING)
        e = ag_arg(argc, all, kw, 1, "other");
    ag_input(n, 1, e);
    val_unref(n->saved[1]);
    n->saved[1] = ag_detached(e);
    if (!tensor_of(all[0]))
        ag_set_name(n, "PowBackward2");
    else if (tensor_of(e))
        ag_set_name(n, "PowBackward1");
    return true;
}

static bool bw_pow(host *h, ag_node *n, const tensor *g, tensor **gin, char *err)
{
    (void)h;
    tensor *a = ops_operand_f64(n->saved[0], g->ndim, g->shape, err);
    tensor *b = a ? ops_operand_f64(n->saved[1], g->ndim, g->shape, err) : NULL;
    tensor *gd = b ? ag_f64(g, err) : NULL;
    tensor *da = gd ? tensor_new(DTYPE_FP64, g->ndim, g->shape, false, err) : NULL;
    tensor *db = da ? tensor_new(DTYPE_FP64, g->ndim, g->shape, false, err) : NULL;
    bool ok = db != NULL;
    if (ok) {
        double *av = ops_d(a), *bv = ops_d(b), *gv = ops_d(gd), *dav = ops_d(da),
               *dbv = ops_d(db);
        for (int64_t i = 0, k = tensor_numel(gd); i < k; i++) {
            double x = av[i], e = bv[i];
            dav[i] = e == 0 ? 0 : gv[i] * e * pow(x, e - 1);
            dbv[i] = x == 0 && e >= 0 ? 0 : gv[i] * pow(x, e) * log(x);
        }
    }
    tensor_unref(a);
    tensor_unref(b);
    tensor_unref(gd);
    if (!ok) {
        tensor_unref(da);
        return false;
    }
    if (!ops_give(n, 0, da, gin, err)) {
        tensor_unref(db);
        return false;
    }
    return ops_give(n, 1, db, gin, err);
}

/* where(condition, input, other) */
static bool rec_where(host *h, ag_node *n, int argc, const val *all, const val_kwargs *kw,
                      val result, src_span at)
{
    (void)h, (void)result, (void)at;
    ag_inputs(n, 3);
    ag_input(n, 1, ag_arg(argc, all, kw, 1, "input"));
    ag_input(n, 2, ag_arg(argc, all, kw, 2, "other"));
    n->saved[0] = ag_detached(all[0]);
    return true;
}

static bool bw_where(host *h, ag_node *n, const tensor *g, tensor **gin, char *err)
{
    (void)h;
    const tensor *c = tensor_of(n->saved[0]);
    tensor *a = tensor_where(c, tensor_operand_of(g), tensor_operand_float(0), err);
    tensor *b = a ? tensor_where(c, tensor_operand_float(0), tensor_operand_of(g), err) : NULL;
    if (!b) {
        tensor_unref(a);
        return false;
    }
    if (!ops_give(n, 1, a, gin, err)) {
        tensor_unref(b);
        return false;
    }
    return ops_give(n, 2, b, gin, err);
}

/* clamp(input, min=, max=): the gradient passes where min <= x <= max */
static bool rec_clamp(host *h, ag_node *n, int argc, const val *all, const val_kwargs *kw,
                      val result, src_span at)
{
    ag_rec_keep_input(h, n, argc, all, kw, result, at);
    n->saved[1] = ag_detached(ag_arg(argc, all, kw, 1, "min"));
    n->saved[2] = ag_detached(ag_arg(argc, all, kw, 2, "max"));
    if (tensor_of(n->saved[1]) || tensor_of(n->saved[2]))
        ag_set_name(n, "ClampBackward0");
    return true;
}

static bool bw_clamp(host *h, ag_node *n, const tensor *g, tensor **gin, char *err)
{
    (void)h;
    const ag_meta *m = &n->meta[0];
    tensor *x = ops_f64_as(tensor_of(n->saved[0]), m->ndim, m->shape, err);
    tensor *gd = x ? ops_f64_as(g, m->ndim, m->shape, err) : NULL;
    tensor *lo = gd && ag_present(n->saved[1])
                 ? ops_operand_f64(n->saved[1], m->ndim, m->shape, err) : NULL;
    tensor *hi = gd && ag_present(n->saved[2])
                 ? ops_operand_f64(n->saved[2], m->ndim, m->shape, err) : NULL;
    bool ok = gd && (lo || !ag_present(n->saved[1])) && (hi || !ag_present(n->saved[2]));
    if (ok) {
        double *xv = ops_d(x), *gv = ops_d(gd);
        for (int64_t i = 0, k = tensor_numel(gd); i < k; i++)
            if ((lo && !(xv[i] >= ops_d(lo)[i])) || (hi && !(xv[i] <= ops_d(hi)[i])))
                gv[i] = 0;
        gin[0] = tensor_to(gd, m->type, m->cuda, err);
        ok = gin[0] != NULL;
    }
    tensor *tmp[] = {x, gd, lo, hi};
    for (size_t i = 0; i < sizeof tmp / sizeof *tmp; i++)
        tensor_unref(tmp[i]);
    return ok;
}

/* maximum(a, b) / minimum: the larger (smaller) one gets g, ties half */
static bool bw_max_min2(ag_node *n, const tensor *g, tensor **gin, char *err, bool is_max)
{
    tensor *a = ops_operand_f64(n->saved[0], g->ndim, g->shape, err);
    tensor *b = a ? ops_operand_f64(n->saved[1], g->ndim, g->shape, err) : NULL;
    tensor *ga = b ? ag_f64(g, err) : NULL;
    tensor *gb = ga ? ag_f64(g, err) : NULL;
    bool ok = gb != NULL;
    if (ok) {
        double *av = ops_d(a), *bv = ops_d(b), *gav = ops_d(ga), *gbv = ops_d(gb);
        for (int64_t i = 0, k = tensor_numel(ga); i < k; i++) {
            double wa = av[i] == bv[i] ? 0.5 : (av[i] > bv[i]) == is_max ? 1 : 0;
            gav[i] *= wa;
            gbv[i] *= 1 - wa;
        }
    }
    tensor_unref(a);
    tensor_unref(b);
    if (!ok) {
        tensor_unref(ga);
        return false;
    }
    if (!ops_give(n, 0, ga, gin, err)) {
        tensor_unref(gb);
        return false;
    }
    return ops_give(n, 1, gb, gin, err);
}

static bool bw_maximum(host *h, ag_node *n, const tensor *g, tensor **gin, char *err)
{
    (void)h;
    return bw_max_min2(n, g, gin, err, true);
}

static bool bw_minimum(host *h, ag_node *n, const tensor *g, tensor **gin, char *err)
{
    (void)h;
    return bw_max_min2(n, g, gin, err, false);
}

/* ---- softmax, log_softmax, logsumexp ----------------------------------------------------- */

static bool rec_softmax(host *h, ag_node *n, int argc, const val *all, const val_kwargs *kw,
                        val result, src_span at)
{
    ag_rec_keep_output(h, n, argc, all, kw, result, at);
    val dim = ag_arg(argc, all, kw, 1, "dim");
    if (!ag_present(dim))
        dim = ag_arg(0, all, kw, 99, "axis");
    const tensor *t = tensor_of(all[0]);
    if (!ag_present(dim))
        n->ival = t->ndim == 0 || t->ndim == 1 || t->ndim == 3 ? 0 : 1;
    else if (!torch_int_arg(h, dim, at, n->op, "dim", &n->ival))
        return false;
    int d;
    char err[TENSOR_ERR_LEN];
    if (!tensor_wrap_dim(t->ndim, n->ival, &d, err))
        return torch_fail(h, at, err).kind != VAL_ERR;
    n->ival = d;
    n->mode = !strcmp(n->f->op, "log_softmax");
    return true;
}

/* softmax: dx = y (g - sum(g y)); log_softmax: dx = g - exp(y) sum(g) */
static bool bw_softmax(host *h, ag_node *n, const tensor *g, tensor **gin, char *err)
{
    (void)h;
    tensor *y = ag_f64(tensor_of(n->saved[0]), err);
    tensor *gd = y ? ag_f64(g, err) : NULL;
    tensor *p = NULL, *s = NULL, *e = NULL, *t = NULL, *r = NULL;
    int64_t d = n->ival;
    if (gd && !n->mode) {
        p = tensor_binary(TENSOR_MUL, tensor_operand_of(gd), tensor_operand_of(y), err);
        s = p ? tensor_reduce(TENSOR_SUM, p, 1, &d, true, DTYPE_INVALID, err) : NULL;
        t = s ? tensor_binary(TENSOR_SUB, tensor_operand_of(gd), tensor_operand_of(s), err)
              : NULL;
        r = t ? tensor_binary(TENSOR_MUL, tensor_operand_of(t), tensor_operand_of(y), err) : NULL;
    } else if (gd) {
        s = tensor_reduce(TENSOR_SUM, gd, 1, &d, true, DTYPE_INVALID, err);
        e = s ? tensor_unary(TENSOR_EXP, y, err) : NULL;
        p = e ? tensor_binary(TENSOR_MUL, tensor_operand_of(e), tensor_operand_of(s), err) : NULL;
        r = p ? tensor_binary(TENSOR_SUB, tensor_operand_of(gd), tensor_operand_of(p), err)
              : NULL;
    }
    tensor *tmp[] = {y, gd, p, s, e, t};
    for (size_t i = 0; i < sizeof tmp / sizeof *tmp; i++)
        tensor_unref(tmp[i]);
    return ops_give(n, 0, r, gin, err);
}

static bool rec_logsumexp(host *h, ag_node *n, int argc, const val *all, const val_kwargs *kw,
                          val result, src_span at)
{
    ag_rec_keep_input(h, n, argc, all, kw, result, at);
    n->saved[1] = ag_detached(result);
    val dim = ag_arg(argc, all, kw, 1, "dim");
    if (!ag_present(dim))
        dim = ag_arg(0, all, kw, 99, "axis");
    return ops_rec_dims(h, n, dim, ag_arg(argc, all, kw, 2, "keepdim"), at);
}

/* dx = g exp(x - y), g and y with the reduced dims put back */
static bool bw_logsumexp(host *h, ag_node *n, const tensor *g, tensor **gin, char *err)
{
    (void)h;
    const ag_meta *m = &n->meta[0];
    tensor *gu = ops_unsqueeze_dims(g, m, n->ndims, n->dims, n->all_dims, n->keepdim, err);
    tensor *yu = gu ? ops_unsqueeze_dims(tensor_of(n->saved[1]), m, n->ndims, n->dims,
                                         n->all_dims, n->keepdim, err) : NULL;
    tensor *x = yu ? ag_f64(tensor_of(n->saved[0]), err) : NULL;
    tensor *yd = x ? ops_f64_as(yu, m->ndim, m->shape, err) : NULL;
    tensor *gd = yd ? ops_f64_as(gu, m->ndim, m->shape, err) : NULL;
    if (gd) {
        double *xv = ops_d(x), *yv = ops_d(yd), *gv = ops_d(gd);
        for (int64_t i = 0, k = tensor_numel(gd); i < k; i++)
            gv[i] *= exp(xv[i] - yv[i]);
    }
    tensor *tmp[] = {gu, yu, x, yd};
    for (size_t i = 0; i < sizeof tmp / sizeof *tmp; i++)
        tensor_unref(tmp[i]);
    return ops_give(n, 0, gd, gin, err);
}

/* ---- var, std, var_mean, std_mean ----------------------------------------------------- */

/* mode: 0 var, 1 std, 2 var_mean, 3 std_mean; scalar: the correction */
static bool rec_var(host *h, ag_node *n, int argc, const val *all, const val_kwargs *kw,
                    val result, src_span at)
{
    ag_rec_keep_input(h, n, argc, all, kw, result, at);
    const char *op = n->f->op;
    n->mode = !strcmp(op, "var") ? 0 : !strcmp(op, "std") ? 1 : !strcmp(op, "var_mean") ? 2 : 3;
    if (n->mode == 1 || n->mode == 3) {
        tensor *r = tensor_of(result);
        if (!r)
            r = tensor_of(val_as_seq(result)->items[0]);
        n->saved[1] = ag_detached(val_of(r));
    }
    val dim = ag_arg(argc, all, kw, 1, "dim");
    if (!ag_present(dim))
        dim = ag_arg(0, all, kw, 99, "axis");
    val unbiased = ag_arg(argc, all, kw, 2, "unbiased");
    val corr = ag_arg(argc, all, kw, 99, "correction");
    n->scalar = 1;
    if (unbiased.kind == VAL_BOOL)
        n->scalar = unbiased.u.b;
    else if (ag_present(corr) && !host_to_float(h, corr, at, "correction", &n->scalar))
        return false;
    return ops_rec_dims(h, n, dim, ag_arg(argc, all, kw, 3, "keepdim"), at);
}

static bool bw_var(host *h, ag_node *n, const tensor *g, tensor **gin, char *err)
{
    (void)h;
    const ag_meta *m = &n->meta[0];
    tensor *x = ag_f64(tensor_of(n->saved[0]), err);
    const int64_t *dims = n->all_dims ? NULL : n->dims;
    int nd = n->all_dims ? 0 : n->ndims;
    tensor *mean = x ? tensor_reduce(TENSOR_MEAN, x, nd, dims, true, DTYPE_INVALID, err) : NULL;
    tensor *gu = mean ? ops_unsqueeze_dims(g, m, n->ndims, n->dims, n->all_dims, n->keepdim, err)
                      : NULL;
    tensor *gd = gu ? ops_f64_as(gu, m->ndim, m->shape, err) : NULL;
    tensor *md = gd ? ops_f64_as(mean, m->ndim, m->shape, err) : NULL;
    tensor *sd = NULL, *g2 = NULL;
    bool ok = md != NULL;
    if (ok && (n->mode == 1 || n->mode == 3)) {
        tensor *su = ops_unsqueeze_dims(tensor_of(n->saved[1]), m, n->ndims, n->dims,
                                        n->all_dims, n->keepdim, err);
        sd = su ? ops_f64_as(su, m->ndim, m->shape, err) : NULL;
        tensor_unref(su);
        ok = sd != NULL;
    }
    if (ok && n->g2) {
        tensor *u = ops_unsqueeze_dims(n->g2, m, n->ndims, n->dims, n->all_dims, n->keepdim,
                                       err);
        g2 = u ? ops_f64_as(u, m->ndim, m->shape, err) : NULL;
        tensor_unref(u);
        ok = g2 != NULL;
    }
    if (ok) {
        int64_t total = tensor_numel(x), count = tensor_numel(mean);
        double N = count ? (double)total / (double)count : 0, div = N - n->scalar;
        double *xv = ops_d(x), *mv = ops_d(md), *gv = ops_d(gd);
        for (int64_t i = 0; i < total; i++) {
            double d = gv[i] * 2 * (xv[i] - mv[i]) / (div > 0 ? div : 0);
            if (sd)
                d /= 2 * ops_d(sd)[i];
            gv[i] = d + (g2 ? ops_d(g2)[i] / N : 0);
        }
    }
    tensor *tmp[] = {x, mean, gu, md, sd, g2};
    for (size_t i = 0; i < sizeof tmp / sizeof *tmp; i++)
        tensor_unref(tmp[i]);
    if (!ok) {
        tensor_unref(gd);
        return false;
    }
    return ops_give(n, 0, gd, gin, err);
}

/* ---- vector norms ------------------------------------------------------------------- */

/* norm(input, p='fro', dim, keepdim) / linalg.vector_norm(x, ord=2, dim,
 * keepdim): scalar is p */
static bool rec_norm(host *h, ag_node *n, int argc, const val *all, const val_kwargs *kw,
                     val result, src_span at)
{
    ag_rec_keep_input(h, n, argc, all, kw, result, at);
    n->saved[1] = ag_detached(result);
    bool linalg = !strcmp(n->f->op, "vector_norm");
    val p = ag_arg(argc, all, kw, 1, linalg ? "ord" : "p");
    n->scalar = 2;
    if (ag_present(p) && p.kind != VAL_STR && !host_to_float(h, p, at, "p", &n->scalar))
        return false;
    return ops_rec_dims(h, n, ag_arg(argc, all, kw, 2, "dim"),
                        ag_arg(argc, all, kw, 3, "keepdim"), at);
}

static bool bw_norm(host *h, ag_node *n, const tensor *g, tensor **gin, char *err)
{
    (void)h;
    const ag_meta *m = &n->meta[0];
    tensor *gu = ops_unsqueeze_dims(g, m, n->ndims, n->dims, n->all_dims, n->keepdim, err);
    tensor *yu = gu ? ops_unsqueeze_dims(tensor_of(n->saved[1]), m, n->ndims, n->dims,
                                         n->all_dims, n->keepdim, err) : NULL;
    tensor *x = yu ? ag_f64(tensor_of(n->saved[0]), err) : NULL;
    tensor *yd = x ? ops_f64_as(yu, m->ndim, m->shape, err) : NULL;
    tensor *gd = yd ? ops_f64_as(gu, m->ndim, m->shape, err) : NULL;
    tensor *ties = NULL;
    double p = n->scalar;
    if (gd && isinf(p)) {
        /* the extreme elements share g evenly */
        tensor *hit = tensor_new(DTYPE_FP64, m->ndim, m->shape, false, err);
        double *xv = ops_d(x), *yv = ops_d(yd);
        for (int64_t i = 0, k = hit ? tensor_numel(hit) : 0; i < k; i++)
            ops_d(hit)[i] = fabs(xv[i]) == yv[i];
        const int64_t *dims = n->all_dims ? NULL : n->dims;
        tensor *c = hit ? tensor_reduce(TENSOR_SUM, hit, n->all_dims ? 0 : n->ndims, dims, true,
                                        DTYPE_INVALID, err) : NULL;
        tensor *cd = c ? ops_f64_as(c, m->ndim, m->shape, err) : NULL;
        if (cd)
            for (int64_t i = 0, k = tensor_numel(cd); i < k; i++)
                ops_d(cd)[i] = ops_d(hit)[i] / ops_d(cd)[i];
        tensor_unref(hit);
        tensor_unref(c);
        ties = cd;
    }
    bool ok = gd && (!isinf(p) || ties);
    if (ok) {
        double *xv = ops_d(x), *yv = ops_d(yd), *gv = ops_d(gd);
        for (int64_t i = 0, k = tensor_numel(gd); i < k; i++) {
            double a = fabs(xv[i]), s = xv[i] > 0 ? 1 : xv[i] < 0 ? -1 : 0, d;
            if (p == 0)
                d = 0;
            else if (p == 1)
                d = s;
            else if (isinf(p))
                d = s * ops_d(ties)[i];
            else if (p == 2)
                d = yv[i] == 0 ? 0 : xv[i] / yv[i];
            else
                d = yv[i] == 0 ? 0 : s * pow(a, p - 1) / pow(yv[i], p - 1);
            gv[i] *= d;
        }
    }
    tensor *tmp[] = {gu, yu, x, yd, ties};
    for (size_t i = 0; i < sizeof tmp / sizeof *tmp; i++)
        tensor_unref(tmp[i]);
    if (!ok) {
        tensor_unref(gd);
        return false;
    }
    return ops_give(n, 0, gd, gin, err);
}

/* ---- along one dim: cumsum, cumprod, and sort/topk/max(dim) values ------------------ */

/* t (float64) with dim d moved last, contiguous; *len its length. */
static tensor *ops_lines(const tensor *t, int d, char *err)
{
    tensor *tr = tensor_transpose(t, d, -1, err);
    tensor *r = tr ? ag_f64(tr, err) : NULL;
    tensor_unref(tr);
    return r;
}

/* lines (dim d moved last) back to meta's layout and dtype */
static tensor *ops_unlines(tensor *lines, int d, const ag_meta *m, char *err)
{
    tensor *tr = tensor_transpose(lines, d, -1, err);
    tensor *r = tr ? tensor_to(tr, m->type, m->cuda, err) : NULL;
    tensor_unref(tr);
    tensor_unref(lines);
    return r;
}

static bool rec_cum(host *h, ag_node *n, int argc, const val *all, const val_kwargs *kw,
                    val result, src_span at)
{
    ag_rec_keep_input(h, n, argc, all, kw, result, at);
    val dim = ag_arg(argc, all, kw, 1, "dim");
    if (!ag_present(dim))
        dim = ag_arg(0, all, kw, 99, "axis");
    int d;
    char err[TENSOR_ERR_LEN];
    if (!torch_int_arg(h, dim, at, n->op, "dim", &n->ival))
        return false;
    int nd = tensor_of(all[0])->ndim;
    if (!tensor_wrap_dim(nd ? nd : 1, n->ival, &d, err))
        return torch_fail(h, at, err).kind != VAL_ERR;
    n->ival = d;
    n->mode = !strcmp(n->f->op, "cumprod");
    return true;
}

/* cumsum: dx_i = sum_{j >= i} g_j; cumprod: dx_i = sum_{j >= i} g_j *
 * prod_{k <= j, k != i} x_k (exact where x has zeros) */
static bool bw_cum(host *h, ag_node *n, const tensor *g, tensor **gin, char *err)
{
    (void)h;
    const ag_meta *m = &n->meta[0];
    if (m->ndim == 0) {
        gin[0] = tensor_to(g, m->type, m->cuda, err);
        return gin[0] != NULL;
    }
    int d = (int)n->ival;
    tensor *gl = ops_lines(g, d, err);
    tensor *xl = gl ? ops_lines(tensor_of(n->saved[0]), d, err) : NULL;
    if (!xl) {
        tensor_unref(gl);
        return false;
    }
    int64_t L = m->shape[d], rows = L ? tensor_numel(gl) / L : 0;
    double *gv = ops_d(gl), *xv = ops_d(xl);
    double *out = xmalloc((size_t)(L ? L : 1) * sizeof *out);
    for (int64_t r = 0; r < rows; r++) {
        double *gr = gv + r * L, *xr = xv + r * L;
        for (int64_t i = 0; i < L; i++) {
            double s = 0;
            if (!n->mode) {
                for (int64_t j = i; j < L; j++)
                    s += gr[j];
            } else {
                double before = 1;   /* prod_{k < i} x_k */
                for (int64_t k = 0; k < i; k++)
                    before *= xr[k];
                double after = 1;    /* prod_{i < k <= j} x_k */
                for (int64_t j = i; j < L; j++) {
                    if (j > i)
                        after *= xr[j];
                    s += gr[j] * before * after;
                }
            }
            out[i] = s;
        }
        memcpy(gr, out, (size_t)L * sizeof *out);
    }
    free(out);
    tensor_unref(xl);
    gin[0] = ops_unlines(gl, d, m, err);
    return gin[0] != NULL;
}

/* sort, topk, max/min(dim) values: the indices (saved[0]) say where each
 * value came from; max/min of everything and amax/amin share g among ties */
static bool rec_pick(host *h, ag_node *n, int argc, const val *all, const val_kwargs *kw,
                     val result, src_span at)
{
    (void)h;
    ag_rec_one(h, n, argc, all, kw, result, at);
    const char *op = n->f->op;
    val items = torch_return_items(result);
    bool is_topk = !strcmp(op, "topk"), is_sort = !strcmp(op, "sort");
    val dim = ag_arg(argc, all, kw, is_topk ? 2 : 1, "dim");
    if (!ag_present(dim))
        dim = ag_arg(0, all, kw, 99, "axis");
    n->mode = 0;
    if (items.kind == VAL_TUPLE) {
        n->saved[0] = ag_detached(val_as_seq(items)->items[1]);
        int64_t dv = is_sort || is_topk ? -1 : 0;
        if (ag_present(dim) && !torch_int_arg(h, dim, at, op, "dim", &dv))
            return false;
        int nd = tensor_of(all[0])->ndim, d;
        char err[TENSOR_ERR_LEN];
        if (!tensor_wrap_dim(nd ? nd : 1, dv, &d, err))
            return torch_fail(h, at, err).kind != VAL_ERR;
        n->ival = d;
        val keep = ag_arg(argc, all, kw, 2, "keepdim");
        n->keepdim = is_sort || is_topk || (keep.kind == VAL_BOOL && keep.u.b);
        return true;
    }
    /* max(input, other): maximum */
    val other = ag_arg(argc, all, kw, 1, "other");
    if (tensor_of(other)) {
        n->mode = 2;
        ag_inputs(n, 2);
        ag_input(n, 0, all[0]);
        ag_input(n, 1, other);
        n->saved[0] = ag_detached(all[0]);
        n->saved[1] = ag_detached(other);
        ag_set_name(n, !strcmp(op, "max") ? "MaximumBackward0" : "MinimumBackward0");
        return true;
    }
    /* the extreme values over dims: amax/amin(dim), max()/min() */
    n->mode = 1;
    n->saved[0] = ag_detached(all[0]);
    n->saved[1] = ag_detached(result);
    if (!strcmp(op, "max") || !strcmp(op, "min")) {
        ag_set_name(n, !strcmp(op, "max") ? "MaxBackward1" : "MinBackward1");
        n->all_dims = true;
        n->keepdim = false;
        return true;
    }
    return ops_rec_dims(h, n, dim, ag_arg(argc, all, kw, 2, "keepdim"), at);
}

static bool bw_pick(host *h, ag_node *n, const tensor *g, tensor **gin, char *err)
{
    (void)h;
    const ag_meta *m = &n->meta[0];
    if (n->mode == 2)
        return bw_max_min2(n, g, gin, err, strstr(n->name, "Maximum") != NULL);
    if (n->mode == 1) {
        /* ties share: mask = (x == y), dx = g * mask / count */
        tensor *gu = ops_unsqueeze_dims(g, m, n->ndims, n->dims, n->all_dims, n->keepdim, err);
        tensor *yu = gu ? ops_unsqueeze_dims(tensor_of(n->saved[1]), m, n->ndims, n->dims,
                                             n->all_dims, n->keepdim, err) : NULL;
        tensor *x = yu ? ag_f64(tensor_of(n->saved[0]), err) : NULL;
        tensor *yd = x ? ops_f64_as(yu, m->ndim, m->shape, err) : NULL;
        tensor *gd = yd ? ops_f64_as(gu, m->ndim, m->shape, err) : NULL;
        tensor *c = NULL, *cd = NULL;
        if (gd) {
            for (int64_t i = 0, k = tensor_numel(x); i < k; i++)
                ops_d(x)[i] = ops_d(x)[i] == ops_d(yd)[i] ||
                              (isnan(ops_d(x)[i]) && isnan(ops_d(yd)[i]));
            const int64_t *dims = n->all_dims ? NULL : n->dims;
            c = tensor_reduce(TENSOR_SUM, x, n->all_dims ? 0 : n->ndims, dims, true,
                              DTYPE_INVALID, err);
            cd = c ? ops_f64_as(c, m->ndim, m->shape, err) : NULL;
        }
        if (cd)
            for (int64_t i = 0, k = tensor_numel(gd); i < k; i++)
                ops_d(gd)[i] *= ops_d(x)[i] / ops_d(cd)[i];
        tensor *tmp[] = {gu, yu, x, yd, c};
        for (size_t i = 0; i < sizeof tmp / sizeof *tmp; i++)
            tensor_unref(tmp[i]);
        if (!cd) {
            tensor_unref(gd);
            return false;
        }
        tensor_unref(cd);
        return ops_give(n, 0, gd, gin, err);
    }
    /* values with indices along dim ival */
    int d = (int)n->ival;
    const tensor *idx = tensor_of(n->saved[0]);
    tensor *gk = NULL, *ik = NULL;
    if (!n->keepdim && m->ndim > 0) {
        gk = tensor_unsqueeze(g, d, err);
        ik = gk ? tensor_unsqueeze(idx, d, err) : NULL;
    } else {
        gk = tensor_ref((tensor *)g);
        ik = tensor_ref((tensor *)idx);
    }
    tensor *gd = ik ? ag_f64(gk, err) : NULL;
    int64_t total = 1;
    for (int i = 0; i < m->ndim; i++)
        total *= m->shape[i];
    double *dx = gd ? xcalloc((size_t)(total ? total : 1), sizeof *dx) : NULL;
    if (dx) {
        int64_t pos[TENSOR_MAX_DIMS] = {0};
        for (int64_t i = 0, k = tensor_numel(gd); i < k; i++) {
            int64_t flat = 0;
            for (int j = 0; j < m->ndim; j++)
                flat = flat * m->shape[j] + (j == d ? tensor_get_flat(ik, i).i : pos[j]);
            dx[flat] += ops_d(gd)[i];
            for (int j = gd->ndim - 1; j >= 0; j--) {
                if (++pos[j] < gd->shape[j])
                    break;
                pos[j] = 0;
            }
        }
        gin[0] = ag_from_f64(dx, m, err);
    }
    free(dx);
    tensor_unref(gk);
    tensor_unref(ik);
    tensor_unref(gd);
    return gin[0] != NULL;
}

/* ---- cat, stack -------------------------------------------------------------------- */

static bool rec_cat(host *h, ag_node *n, int argc, const val *all, const val_kwargs *kw,
                    val result, src_span at)
{
    (void)result;
    val list = ag_arg(argc, all, kw, 0, "tensors");
    const val_seq *s = val_as_seq(list);
    ag_inputs(n, (int)s->len);
    for (size_t i = 0; i < s->len; i++)
        ag_input(n, (int)i, s->items[i]);
    n->ival = 0;
    val dim = ag_arg(argc, all, kw, 1, "dim");
    if (!ag_present(dim))
        dim = ag_arg(0, all, kw, 99, "axis");
    if (ag_present(dim) && !torch_int_arg(h, dim, at, n->op, "dim", &n->ival))
        return false;
    n->mode = !strcmp(n->f->op, "stack");
    return true;
}

static bool bw_cat(host *h, ag_node *n, const tensor *g, tensor **gin, char *err)
{
    (void)h;
    int d;
    if (!tensor_wrap_dim(g->ndim, n->ival, &d, err))
        return false;
    int64_t pos = 0;
    for (int i = 0; i < n->n; i++) {
        const ag_meta *m = &n->meta[i];
        if (!n->mode && m->ndim == 1 && m->shape[0] == 0)
            continue;   /* cat skips 1-D empty tensors */
        int64_t len = n->mode ? 1 : m->shape[d];
        tensor *part = tensor_slice(g, d, pos, pos + len, 1, err);
        pos += len;
        if (!part)
            return false;
        if (n->next[i].kind == VAL_NONE) {
            tensor_unref(part);
            continue;
        }
        tensor *shaped = tensor_reshape(part, m->ndim, m->shape, err);
        tensor_unref(part);
        gin[i] = shaped ? tensor_to(shaped, m->type, m->cuda, err) : NULL;
        tensor_unref(shaped);
        if (!gin[i])
            return false;
    }
    return true;
}

/* ---- scatter, scatter_add ------------------------------------------------------------ */

/* inputs: self (0), src (1); saved: index; ival: dim; mode: 1 for scatter
 * (overwritten elements get no gradient) */
static bool rec_scatter(host *h, ag_node *n, int argc, const val *all, const val_kwargs *kw,
                        val result, src_span at)
{
    (void)result;
    ag_inputs(n, 2);
    ag_input(n, 0, all[0]);
    val src = ag_arg(argc, all, kw, 3, "src");
    if (tensor_of(src))
        ag_input(n, 1, src);
    n->saved[0] = ag_detached(ag_arg(argc, all, kw, 2, "index"));
    n->mode = !strcmp(n->f->op, "scatter");
    if (n->mode && !tensor_of(src))
        ag_set_name(n, "ScatterBackward1");
    int d;
    char err[TENSOR_ERR_LEN];
    if (!torch_int_arg(h, ag_arg(argc, all, kw, 1, "dim"), at, n->op, "dim", &n->ival))
        return false;
    int nd = tensor_of(all[0])->ndim;
    if (!tensor_wrap_dim(nd ? nd : 1, n->ival, &d, err))
        return torch_fail(h, at, err).kind != VAL_ERR;
    n->ival = d;
    return true;
}

static bool bw_scatter(host *h, ag_node *n, const tensor *g, tensor **gin, char *err)
{
    (void)h;
    const tensor *idx = tensor_of(n->saved[0]);
    const ag_meta *m = &n->meta[0];
    int d = (int)n->ival;
    tensor *gd = ag_f64(g, err);
    if (!gd)
        return false;
    int64_t ni = tensor_numel(idx);
    double *gs = xcalloc((size_t)(ni ? ni : 1), sizeof *gs);
    bool *hit = xcalloc((size_t)(tensor_numel(gd) ? tensor_numel(gd) : 1), sizeof *hit);
    int64_t pos[TENSOR_MAX_DIMS] = {0};
    for (int64_t i = 0; i < ni; i++) {
        int64_t flat = 0;
        for (int j = 0; j < m->ndim; j++)
            flat = flat * m->shape[j] + (j == d ? tensor_get(idx, pos).i : pos[j]);
        gs[i] = ops_d(gd)[flat];
        hit[flat] = true;
        for (int j = idx->ndim - 1; j >= 0; j--) {
            if (++pos[j] < idx->shape[j])
                break;
            pos[j] = 0;
        }
    }
    bool ok = true;
    if (n->mode)
        for (int64_t i = 0, k = tensor_numel(gd); i < k; i++)
            if (hit[i])
                ops_d(gd)[i] = 0;
    if (n->next[0].kind != VAL_NONE)
        ok = (gin[0] = tensor_to(gd, m->type, m->cuda, err)) != NULL;
    if (ok && n->next[1].kind != VAL_NONE) {
        ag_meta im = n->meta[1];
        im.ndim = idx->ndim;
        memcpy(im.shape, idx->shape, sizeof im.shape);
        tensor *small = ag_from_f64(gs, &im, err);
        /* src may be larger than index: its other elements get 0 */
        tensor *full = small ? tensor_new(n->meta[1].type, n->meta[1].ndim, n->meta[1].shape,
                                          n->meta[1].cuda, err) : NULL;
        tensor *view = full;
        for (int j = 0; full && view && j < idx->ndim; j++) {
            tensor *v = tensor_slice(view, j, 0, idx->shape[j], 1, err);
            if (view != full)
                tensor_unref(view);
            view = v;
        }
        ok = view && tensor_copy_into(view, small, err);
        if (view != full)
            tensor_unref(view);
        tensor_unref(small);
        if (ok)
            gin[1] = full;
        else
            tensor_unref(full);
    }
    free(gs);
    free(hit);
    tensor_unref(gd);
    return ok;
}

/* ---- x[key] = value (CopySlices) ------------------------------------------------------ */

/* inputs: x before the write (0), value (1); saved: key */
static bool rec_setitem(host *h, ag_node *n, int argc, const val *all, const val_kwargs *kw,
                        val result, src_span at)
{
    (void)h, (void)argc, (void)kw, (void)result, (void)at;
    ag_inputs(n, 2);
    ag_input(n, 0, all[0]);
    ag_input(n, 1, all[2]);
    n->saved[0] = val_ref(all[1]);
    return true;
}

/* x's gradient: g with the written elements zero; value's: g[key],
 * summed over what value was broadcast along. */
static bool bw_setitem(host *h, ag_node *n, const tensor *g, tensor **gin, char *err)
{
    val key = n->saved[0];
    if (n->next[0].kind != VAL_NONE) {
        tensor *c = tensor_new(g->type, g->ndim, g->shape, g->cuda, err);
        if (!c || !tensor_copy_into(c, g, err)) {
            tensor_unref(c);
            return false;
        }
        val cv = tensor_val(c);
        bool ok = torch_setitem(h, cv, key, val_int(0), n->at);
        if (!ok) {
            val_unref(cv);
            tensor_err(err, "x[key] = value: the gradient could not be indexed again");
            return false;
        }
        gin[0] = c;
    }
    if (n->next[1].kind != VAL_NONE) {
        val gv = tensor_val(tensor_ref((tensor *)g));
        val piece = torch_getitem(h, gv, key, n->at);
        val_unref(gv);
        tensor *pt = tensor_of(piece);
        if (!pt) {
            val_unref(piece);
            tensor_err(err, "x[key] = value: the gradient could not be indexed again");
            return false;
        }
        gin[1] = ag_reduce_to(pt, &n->meta[1], err);
        val_unref(piece);
        if (!gin[1])
            return false;
    }
    return true;
}

/* ---- the ops that move elements -------------------------------------------------------- */

/* Keep the call (to run it again on element numbers); the input is 0. */
static bool rec_move(host *h, ag_node *n, int argc, const val *all, const val_kwargs *kw,
                     val result, src_span at)
{
    ag_rec_one(h, n, argc, all, kw, result, at);
    ag_keep_call(n, argc, all, kw);
    const char *op = n->f->op;
    if (!strcmp(op, "squeeze") && (argc > 1 || ag_kw_has(kw, "dim"))) {
        val dim = ag_arg(argc, all, kw, 1, "dim");
        ag_set_name(n, dim.kind == VAL_TUPLE || dim.kind == VAL_LIST ? "SqueezeBackward2"
                                                                     : "SqueezeBackward1");
    }
    if (!strcmp(op, "index")) {
        /* x[key]: the grad_fn of the last indexing step PyTorch takes */
        val key = argc > 1 ? all[1] : val_none();
        const val_seq *s = key.kind == VAL_TUPLE ? val_as_seq(key) : NULL;
        int nk = s ? (int)s->len : 1;
        const char *name = "AliasBackward0";
        bool adv = false;
        for (int i = 0; i < nk; i++) {
            val k = s ? s->items[i] : key;
            if (k.kind == VAL_INT || k.kind == VAL_BOOL)
                name = k.kind == VAL_BOOL ? "IndexBackward0" : "SelectBackward0";
            else if (k.kind == VAL_NONE)
                name = "UnsqueezeBackward0";
            else if (k.kind == VAL_SLICE) {
                const val_slice *sl = (const val_slice *)k.u.o;
                if (sl->start.kind != VAL_NONE || sl->stop.kind != VAL_NONE ||
                    sl->step.kind != VAL_NONE)
                    name = "SliceBackward0";
            } else if (k.kind == VAL_TENSOR || k.kind == VAL_LIST) {
                adv = true;
            }
        }
        ag_set_name(n, adv ? "IndexBackward0" : name);
    }
    (void)h;
    (void)at;
    return true;
}

/* The op run again on t (the element numbers) in the node's call. */
static tensor *move_again(host *h, ag_node *n, tensor *t, char *err)
{
    ag_call c;
    if (!ag_call_of(n, &c))
        return NULL;
    const char *op = n->f->op;
    val tv = tensor_val(t);
    if (!strcmp(op, "index")) {
        val r = torch_getitem(h, tv, c.all[1], n->at);
        if (r.kind != VAL_ERR && !tensor_of(r)) {
            val_unref(r);
            tensor_err(err, "x[key] did not give a tensor");
            return NULL;
        }
        return r.kind == VAL_ERR ? NULL : tensor_of(r);
    }
    if (!strcmp(op, "select")) {
        int64_t i = 0;
        torch_index_int(c.all[1], &i);
        return tensor_select(t, 0, i, err);
    }
    if (!strcmp(op, "mT"))
        return tensor_transpose(t, -2, -1, err);
    if (!strcmp(op, "split") || !strcmp(op, "split_with_sizes") || !strcmp(op, "unbind")) {
        /* a piece: (input, dim, start, length) or (input, dim, index) */
        int64_t v[3] = {0, 0, 0};
        for (int i = 0; i < 3 && i + 1 < c.argc; i++)
            torch_index_int(c.all[i + 1], &v[i]);
        return op[0] == 's' ? tensor_slice(t, v[0], v[1], v[1] + v[2], 1, err)
                            : tensor_select(t, v[0], v[1], err);
    }
    if (!strcmp(op, "permute") && c.argc == 1 && c.kw.n == 0) {
        int64_t dims[TENSOR_MAX_DIMS];
        for (int i = 0; i < t->ndim; i++)
            dims[i] = t->ndim - 1 - i;
        return tensor_permute(t, t->ndim, dims, err);
    }
    const torch_fn *f = torch_find_method(op);
    if (!f) {
        tensor_err(err, "no method %s", op);
        return NULL;
    }
    val args[TORCH_ARGS_MAX], kwv[TORCH_ARGS_MAX];
    int argc = c.argc < TORCH_ARGS_MAX ? c.argc : TORCH_ARGS_MAX;
    memcpy(args, c.all, (size_t)argc * sizeof *args);
    memcpy(kwv, c.kw.values, (size_t)c.kw.n * sizeof *kwv);
    args[0] = tv;
    /* masked_fill's value: a constant, element number 0 */
    if (!strcmp(op, "masked_fill")) {
        if (argc > 2)
            args[2] = val_int(0);
        for (int i = 0; i < c.kw.n; i++)
            if (!strcmp(c.kw.names[i], "value"))
                kwv[i] = val_int(0);
    }
    val_kwargs kw = {c.kw.n, c.kw.names, kwv};
    val r = f->fn(h, val_none(), argc, args, &kw, n->at);
    if (r.kind == VAL_ERR)
        return NULL;
    tensor *rt = tensor_of(r);
    if (!rt) {
        val_unref(r);
        tensor_err(err, "%s did not give a tensor", op);
        return NULL;
    }
    return rt;
}

static bool bw_move(host *h, ag_node *n, const tensor *g, tensor **gin, char *err)
{
    const ag_meta *m = &n->meta[0];
    int64_t total = 1;
    for (int i = 0; i < m->ndim; i++)
        total *= m->shape[i];
    tensor *num = tensor_new(DTYPE_INT64, m->ndim, m->shape, false, err);
    if (!num)
        return false;
    int64_t *nv = tensor_data(num);
    for (int64_t i = 0; i < total; i++)
        nv[i] = i + 1;
    tensor *from = move_again(h, n, num, err);
    tensor_unref(num);
    if (!from)
        return false;
    tensor *gd = ops_f64_as(g, from->ndim, from->shape, err);
    double *dx = gd ? xcalloc((size_t)(total ? total : 1), sizeof *dx) : NULL;
    if (dx) {
        for (int64_t i = 0, k = tensor_numel(gd); i < k; i++) {
            int64_t src = tensor_get_flat(from, i).i;
            if (src > 0)
                dx[src - 1] += ops_d(gd)[i];
        }
        gin[0] = ag_from_f64(dx, m, err);
    }
    free(dx);
    tensor_unref(gd);
    tensor_unref(from);
    return gin[0] != NULL;
}

const ag_formula ag_formulas_ops[] = {
    {"abs", "AbsBackward0", rec_unary, bw_unary},
    {"__abs__", "AbsBackward0", rec_unary, bw_unary},
    {"sqrt", "SqrtBackward0", rec_unary, bw_unary},
    {"rsqrt", "RsqrtBackward0", rec_unary, bw_unary},
    {"log", "LogBackward0", rec_unary, bw_unary},
    {"log2", "Log2Backward0", rec_unary, bw_unary},
    {"log10", "Log10Backward0", rec_unary, bw_unary},
    {"log1p", "Log1PBackward0", rec_unary, bw_unary},
    {"exp2", "Exp2Backward0", rec_unary, bw_unary},
    {"expm1", "Expm1Backward0", rec_unary, bw_unary},
    {"sin", "SinBackward0", rec_unary, bw_unary},
    {"cos", "CosBackward0", rec_unary, bw_unary},
    {"tan", "TanBackward0", rec_unary, bw_unary},
    {"tanh", "TanhBackward0", rec_unary, bw_unary},
    {"sigmoid", "SigmoidBackward0", rec_unary, bw_unary},
    {"asin", "AsinBackward0", rec_unary, bw_unary},
    {"arcsin", "AsinBackward0", rec_unary, bw_unary},
    {"acos", "AcosBackward0", rec_unary, bw_unary},
    {"arccos", "AcosBackward0", rec_unary, bw_unary},
    {"atan", "AtanBackward0", rec_unary, bw_unary},
    {"arctan", "AtanBackward0", rec_unary, bw_unary},
    {"sinh", "SinhBackward0", rec_unary, bw_unary},
    {"cosh", "CoshBackward0", rec_unary, bw_unary},
    {"asinh", "AsinhBackward0", rec_unary, bw_unary},
    {"arcsinh", "AsinhBackward0", rec_unary, bw_unary},
    {"acosh", "AcoshBackward0", rec_unary, bw_unary},
    {"arccosh", "AcoshBackward0", rec_unary, bw_unary},
    {"atanh", "AtanhBackward0", rec_unary, bw_unary},
    {"arctanh", "AtanhBackward0", rec_unary, bw_unary},
    {"erf", "ErfBackward0", rec_unary, bw_unary},
    {"erfc", "ErfcBackward0", rec_unary, bw_unary},
    {"erfinv", "ErfinvBackward0", rec_unary, bw_unary},
    {"silu", "SiluBackward0", rec_unary, bw_unary},
    {"gelu", "GeluBackward0", rec_unary, bw_unary},
    {"square", "PowBackward0", rec_unary, bw_unary},
    {"floor", "FloorBackward0", rec_unary, bw_unary},
    {"ceil", "CeilBackward0", rec_unary, bw_unary},
    {"round", "RoundBackward0", rec_unary, bw_unary},
    {"trunc", "TruncBackward0", rec_unary, bw_unary},
    {"pow", "PowBackward0", rec_pow, bw_pow},
    {"where", "WhereBackward0", rec_where, bw_where},
    {"clamp", "ClampBackward1", rec_clamp, bw_clamp},
    {"clip", "ClampBackward1", rec_clamp, bw_clamp},
    {"maximum", "MaximumBackward0", ag_rec_two, bw_maximum},
    {"minimum", "MinimumBackward0", ag_rec_two, bw_minimum},
    {"softmax", "SoftmaxBackward0", rec_softmax, bw_softmax},
    {"log_softmax", "LogSoftmaxBackward0", rec_softmax, bw_softmax},
    {"logsumexp", "LogsumexpBackward0", rec_logsumexp, bw_logsumexp},
    {"var", "VarBackward0", rec_var, bw_var},
    {"std", "StdBackward0", rec_var, bw_var},
    {"var_mean", "VarMeanBackward0", rec_var, bw_var},
    {"std_mean", "StdMeanBackward0", rec_var, bw_var},
    {"norm", "LinalgVectorNormBackward0", rec_norm, bw_norm},
    {"vector_norm", "LinalgVectorNormBackward0", rec_norm, bw_norm},
    {"cumsum", "CumsumBackward0", rec_cum, bw_cum},
    {"cumprod", "CumprodBackward0", rec_cum, bw_cum},
    {"sort", "SortBackward0", rec_pick, bw_pick},
    {"topk", "TopkBackward0", rec_pick, bw_pick},
    {"max", "MaxBackward0", rec_pick, bw_pick},
    {"min", "MinBackward0", rec_pick, bw_pick},
    {"amax", "AmaxBackward0", rec_pick, bw_pick},
    {"amin", "AminBackward0", rec_pick, bw_pick},
    {"cat", "CatBackward0", rec_cat, bw_cat},
    {"concat", "CatBackward0", rec_cat, bw_cat},
    {"concatenate", "CatBackward0", rec_cat, bw_cat},
    {"stack", "StackBackward0", rec_cat, bw_cat},
    {"scatter", "ScatterBackward0", rec_scatter, bw_scatter},
    {"scatter_add", "ScatterAddBackward0", rec_scatter, bw_scatter},
    {"transpose", "TransposeBackward0", rec_move, bw_move},
    {"swapaxes", "TransposeBackward0", rec_move, bw_move},
    {"permute", "PermuteBackward0", rec_move, bw_move},
    {"mT", "TransposeBackward0", rec_move, bw_move},
    {"t", "TBackward0", rec_move, bw_move},
    {"expand", "ExpandBackward0", rec_move, bw_move},
    {"expand_as", "ExpandBackward0", rec_move, bw_move},
    {"narrow", "SliceBackward0", rec_move, bw_move},
    {"squeeze", "SqueezeBackward0", rec_move, bw_move},
    {"unsqueeze", "UnsqueezeBackward0", rec_move, bw_move},
    {"view_as", "ViewBackward0", rec_move, bw_move},
    {"reshape_as", "ViewBackward0", rec_move, bw_move},
    {"flip", "FlipBackward0", rec_move, bw_move},
    {"roll", "RollBackward0", rec_move, bw_move},
    {"repeat", "RepeatBackward0", rec_move, bw_move},
    {"repeat_interleave", "IndexSelectBackward0", rec_move, bw_move},
    {"triu", "TriuBackward0", rec_move, bw_move},
    {"tril", "TrilBackward0", rec_move, bw_move},
    {"gather", "GatherBackward0", rec_move, bw_move},
    {"index_select", "IndexSelectBackward0", rec_move, bw_move},
    {"masked_fill", "MaskedFillBackward0", rec_move, bw_move},
    {"masked_select", "MaskedSelectBackward0", rec_move, bw_move},
    {"index", "IndexBackward0", rec_move, bw_move},
    {"select", "SelectBackward0", rec_move, bw_move},
    {"split", "SplitBackward0", rec_move, bw_move},
    {"split_with_sizes", "SplitWithSizesBackward0", rec_move, bw_move},
    {"unbind", "UnbindBackward0", rec_move, bw_move},
    {"setitem", "CopySlices", rec_setitem, bw_setitem},
    {NULL, NULL, NULL, NULL},
};
