/* torch_nn.c - torch.nn.functional's losses, normalisations and layers:
 * cross_entropy and nll_loss, mse_loss, kl_div, rms_norm, embedding,
 * dropout, conv2d and scaled_dot_product_attention (softmax, gelu, silu,
 * relu and layer_norm are torch_math.c's).  Each is computed in float64
 * and returned in its input's dtype.  The arguments of the functions with
 * a backward formula are read by one function here (torch_ce_args, ...)
 * that autograd_nn.c reads them with too, and their gradients are the
 * torch_*_backward functions below (torch_impl.h). */
#include "torch_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- helpers ---------------------------------------------------------------- */

/* A contiguous float64 copy of t (its elements in row-major order). */
static tensor *nn_f64(const tensor *t, char *err)
{
    return tensor_to(t, DTYPE_FP64, t->cuda, err);
}

static double *nn_d(tensor *t)
{
    return tensor_data(t);
}

static bool nn_given(val v)
{
    return v.kind != VAL_MISSING && v.kind != VAL_NONE;
}

/* An optional tensor argument: NULL in *out when absent or None. */
static bool nn_opt_tensor(host *h, val v, src_span at, const char *fname, const char *arg,
                          const tensor **out)
{
    *out = NULL;
    if (!nn_given(v))
        return true;
    return (*out = torch_tensor_arg(h, v, at, fname, arg)) != NULL;
}

/* A double-valued tensor of shape (ndim, shape) converted to dtype t. */
static tensor *nn_result(const double *data, dtype t, int ndim, const int64_t *shape, bool cuda,
                         char *err)
{
    tensor *d = tensor_new(DTYPE_FP64, ndim, shape, cuda, err);
    if (!d)
        return NULL;
    memcpy(tensor_data(d), data, (size_t)tensor_numel(d) * sizeof(double));
    tensor *r = t == DTYPE_FP64 ? tensor_ref(d) : tensor_to(d, t, cuda, err);
    tensor_unref(d);
    return r;
}

/* "[2, 3]" as PyTorch writes shapes in messages. */
static void nn_shape_text(char *buf, size_t cap, int n, const int64_t *shape)
{
    size_t len = (size_t)snprintf(buf, cap, "[");
    for (int i = 0; i < n && len < cap; i++)
        len += (size_t)snprintf(buf + len, cap - len, "%s%lld", i ? ", " : "",
                                (long long)shape[i]);
    if (len < cap)
        snprintf(buf + len, cap - len, "]");
}

bool torch_reduction_arg(host *h, val v, val size_average, val reduce, src_span at,
                         bool batchmean_ok, int *out)
{
    *out = TORCH_RED_MEAN;
    if (nn_given(size_average) || nn_given(reduce)) {
        /* the legacy pair: reduce=False gives none, size_average=False sum */
        bool avg = true, red = true;
        if ((nn_given(size_average) &&
             !torch_bool_arg(h, size_average, at, "loss", "size_average", &avg)) ||
            (nn_given(reduce) && !torch_bool_arg(h, reduce, at, "loss", "reduce", &red)))
            return false;
        *out = !red ? TORCH_RED_NONE : avg ? TORCH_RED_MEAN : TORCH_RED_SUM;
        return true;
    }
    if (!nn_given(v))
        return true;
    const char *s;
    if (!host_to_str(h, v, at, "argument 'reduction'", &s))
        return false;
    if (!strcmp(s, "none"))
        *out = TORCH_RED_NONE;
    else if (!strcmp(s, "mean"))
        *out = TORCH_RED_MEAN;
    else if (!strcmp(s, "sum"))
        *out = TORCH_RED_SUM;
    else if (batchmean_ok && !strcmp(s, "batchmean"))
        *out = TORCH_RED_BATCHMEAN;
    else {
        host_raise(h, HOST_EXC_VALUE, at, "%s is not a valid value for reduction", s);
        return false;
    }
    return true;
}

/* ---- cross_entropy and nll_loss ----------------------------------------------- */

bool torch_ce_args(host *h, bool nll, int argc, const val *all, const val_kwargs *kw,
                   src_span at, torch_ce *c)
{
    const char *fname = nll ? "nll_loss" : "cross_entropy";
    val a[8];
    if (!host_args(h, at, fname, nll ? "input, target, weight=, size_average=, ignore_index=, "
                   "reduce=, reduction=" : "input, target, weight=, size_average=, "
                   "ignore_index=, reduce=, reduction=, label_smoothing=", argc, all, kw, a))
        return false;
    memset(c, 0, sizeof *c);
    c->log_probs = nll;
    c->ignore_index = -100;
    if (!(c->input = torch_tensor_arg(h, a[0], at, fname, "input")) ||
        !(c->target = torch_tensor_arg(h, a[1], at, fname, "target")) ||
        !nn_opt_tensor(h, a[2], at, fname, "weight", &c->weight) ||
        (nn_given(a[4]) && !torch_int_arg(h, a[4], at, fname, "ignore_index",
                                          &c->ignore_index)) ||
        !torch_reduction_arg(h, a[6], a[3], a[5], at, false, &c->reduction) ||
        (!nll && nn_given(a[7]) && !host_to_float(h, a[7], at, "argument 'label_smoothing'",
                                                  &c->smoothing)))
        return false;
    const tensor *x = c->input, *t = c->target;
    if (c->smoothing < 0 || c->smoothing > 1) {
        host_error(h, at, "label_smoothing must be between 0.0 and 1.0. Got: %g", c->smoothing);
        return false;
    }
    if (x->ndim < 1) {
        host_raise(h, HOST_EXC_VALUE, at, "Expected 1 or more dimensions (got %d)", x->ndim);
        return false;
    }
    if (!dtype_is_float(x->type)) {
        host_error(h, at, "\"%s\" not implemented for '%s'",
                   nll ? "nll_loss_out_frame" : "log_softmax_lastdim_kernel_impl",
                   tensor_type_name(x->type));
        return false;
    }
    int cd = x->ndim == 1 ? 0 : 1;
    c->C = x->shape[cd];
    c->N = x->ndim == 1 ? 1 : x->shape[0];
    c->inner = 1;
    for (int i = 2; i < x->ndim; i++)
        c->inner *= x->shape[i];
    bool same = t->ndim == x->ndim;
    for (int i = 0; same && i < x->ndim; i++)
        same = t->shape[i] == x->shape[i];
    c->probs = !nll && same && dtype_is_float(t->type);
    if (!nll && same && !c->probs && t->ndim >= 1) {
        host_error(h, at, "Expected floating point type for target with class probabilities, "
                   "got %s", dtype_torch_name(t->type) + 6);
        return false;
    }
    if (c->probs && c->ignore_index >= 0) {
        host_error(h, at, "ignore_index is not supported for floating point target");
        return false;
    }
    if (!c->probs) {
        if (t->type != DTYPE_INT64 && t->type != DTYPE_UINT8) {
            host_error(h, at, "expected scalar type Long but found %s",
                       t->type == DTYPE_INT32 ? "Int" : tensor_type_name(t->type));
            return false;
        }
        if (x->ndim == 2 && (t->ndim != 1 || t->shape[0] != x->shape[0])) {
            host_raise(h, HOST_EXC_VALUE, at, "Expected input batch_size (%lld) to match "
                       "target batch_size (%lld).", (long long)x->shape[0],
                       (long long)(t->ndim ? t->shape[0] : 0));
            return false;
        }
        bool fits = t->ndim == x->ndim - 1;
        for (int i = 0; fits && i < t->ndim; i++)
            fits = t->shape[i] == x->shape[i < 1 ? 0 : i + 1];
        if (!fits) {
            char ts[64], want[64];
            int64_t ws[TENSOR_MAX_DIMS];
            int nw = 0;
            for (int i = 0; i < x->ndim; i++)
                if (i != cd)
                    ws[nw++] = x->shape[i];
            nn_shape_text(ts, sizeof ts, t->ndim, t->shape);
            nn_shape_text(want, sizeof want, nw, ws);
            host_error(h, at, "Expected target size %s, got %s", want, ts);
            return false;
        }
    }
    if (c->weight && (c->weight->ndim != 1 || c->weight->shape[0] != c->C)) {
        char ws[64];
        nn_shape_text(ws, sizeof ws, c->weight->ndim, c->weight->shape);
        host_error(h, at, "weight tensor should be defined either for all %lld classes or no "
                   "classes but got weight tensor of shape: %s", (long long)c->C, ws);
        return false;
    }
    return true;
}

/* What the coefficients of a loss are made of: the target (int64 class
 * indices or float64 probabilities) and the weight, as contiguous copies. */
typedef struct ce_data {
    tensor *target, *weight;
    const int64_t *cls;      /* class indices, or NULL */
    const double *prob;      /* probabilities, or NULL */
    const double *w;         /* weights, or NULL */
    double denom;            /* the mean's denominator */
} ce_data;

static void ce_data_free(ce_data *d)
{
    tensor_unref(d->target);
    tensor_unref(d->weight);
}

/* Load the target and weight, check the classes and sum the mean's
 * denominator (the targets' weights, or the sample count for
 * probabilities); false (err) for a class out of range. */
static bool ce_data_load(const torch_ce *c, ce_data *d, char *err)
{
    memset(d, 0, sizeof *d);
    int64_t S = c->N * c->inner;
    if (c->weight && !(d->weight = nn_f64(c->weight, err)))
        return false;
    d->w = d->weight ? nn_d(d->weight) : NULL;
    if (c->probs) {
        if (!(d->target = nn_f64(c->target, err)))
            return false;
        d->prob = nn_d(d->target);
        d->denom = (double)S;
        return true;
    }
    if (!(d->target = tensor_to(c->target, DTYPE_INT64, false, err)))
        return false;
    d->cls = tensor_data(d->target);
    for (int64_t s = 0; s < S; s++) {
        int64_t k = d->cls[s];
        if (k == c->ignore_index)
            continue;
        if (k < 0 || k >= c->C) {
            tensor_err(err, "Target %lld is out of bounds.", (long long)k);
            return false;
        }
        d->denom += d->w ? d->w[k] : 1.0;
    }
    return true;
}

/* The coefficients a[j] (C of them) of sample s's loss, -sum_j a[j] *
 * logp[j]: the target's weight at its class (times 1 - label_smoothing)
 * plus label_smoothing / C times each class's weight; nothing for an
 * ignored sample.  Probabilities: (p (1 - ls) + ls / C) * weight. */
static void ce_coefs(const torch_ce *c, const ce_data *d, int64_t s, double *a)
{
    int64_t C = c->C, in = c->inner, n = s / in, k = s % in;
    double eps = c->smoothing;
    if (d->prob) {
        for (int64_t j = 0; j < C; j++)
            a[j] = (d->prob[(n * C + j) * in + k] * (1 - eps) + eps / (double)C) *
                   (d->w ? d->w[j] : 1.0);
        return;
    }
    for (int64_t j = 0; j < C; j++)
        a[j] = 0;
    int64_t cls = d->cls[s];
    if (cls == c->ignore_index)
        return;
    for (int64_t j = 0; j < C && eps > 0; j++)
        a[j] = eps / (double)C * (d->w ? d->w[j] : 1.0);
    a[cls] += (1 - eps) * (d->w ? d->w[cls] : 1.0);
}

/* logp of the input in float64 (log_softmax over the classes, max
 * subtracted; the input itself for nll_loss). */
static tensor *ce_logp(const torch_ce *c, char *err)
{
    tensor *x = nn_f64(c->input, err);
    if (!x || c->log_probs)
        return x;
    double *d = nn_d(x);
    int64_t C = c->C, in = c->inner;
    for (int64_t s = 0; s < c->N * in; s++) {
        double *row = d + (s / in) * C * in + s % in;
        double m = -INFINITY, sum = 0;
        for (int64_t j = 0; j < C; j++)
            m = row[j * in] > m ? row[j * in] : m;
        if (isinf(m))
            m = 0;
        for (int64_t j = 0; j < C; j++)
            sum += exp(row[j * in] - m);
        double lse = m + log(sum);
        for (int64_t j = 0; j < C; j++)
            row[j * in] -= lse;
    }
    return x;
}

/* The shape of an unreduced loss: the input's without the class dim. */
static int ce_loss_shape(const torch_ce *c, int64_t *shape)
{
    int n = 0;
    for (int i = 0; i < c->input->ndim; i++)
        if (i != (c->input->ndim == 1 ? 0 : 1))
            shape[n++] = c->input->shape[i];
    return n;
}

tensor *torch_ce_forward(const torch_ce *c, char *err)
{
    int64_t C = c->C, in = c->inner, S = c->N * in;
    ce_data d;
    tensor *lp = NULL, *r = NULL;
    if (ce_data_load(c, &d, err) && (lp = ce_logp(c, err))) {
        double *a = xmalloc((size_t)(C ? C : 1) * sizeof *a);
        double *loss = xcalloc((size_t)(S ? S : 1), sizeof *loss);
        const double *l = nn_d(lp);
        double sum = 0;
        for (int64_t s = 0; s < S; s++) {
            const double *row = l + (s / in) * C * in + s % in;
            ce_coefs(c, &d, s, a);
            for (int64_t j = 0; j < C; j++)
                if (a[j] != 0)
                    loss[s] -= a[j] * row[j * in];
            sum += loss[s];
        }
        int64_t shape[TENSOR_MAX_DIMS];
        if (c->reduction == TORCH_RED_NONE) {
            int n = ce_loss_shape(c, shape);
            r = nn_result(loss, c->input->type, n, shape, c->input->cuda, err);
        } else {
            double v = c->reduction == TORCH_RED_SUM ? sum : sum / d.denom;
            r = nn_result(&v, c->input->type, 0, shape, c->input->cuda, err);
        }
        free(a);
        free(loss);
    }
    tensor_unref(lp);
    ce_data_free(&d);
    return r;
}

/* dx = gs (softmax * sum(a) - a) for cross_entropy, -gs a for nll_loss,
 * where gs is the loss's gradient (divided by the mean's denominator) */
tensor *torch_ce_backward(const torch_ce *c, const tensor *g, char *err)
{
    int64_t C = c->C, in = c->inner, S = c->N * in;
    ce_data d;
    tensor *lp = NULL, *gd = NULL, *r = NULL;
    if (ce_data_load(c, &d, err) && (lp = ce_logp(c, err)) && (gd = nn_f64(g, err))) {
        const double *gv = nn_d(gd);
        double *dx = nn_d(lp);   /* overwritten in place */
        double *a = xmalloc((size_t)(C ? C : 1) * sizeof *a);
        for (int64_t s = 0; s < S; s++) {
            double gs = c->reduction == TORCH_RED_NONE ? gv[s]
                        : c->reduction == TORCH_RED_SUM ? gv[0] : gv[0] / d.denom;
            double *row = dx + (s / in) * C * in + s % in, A = 0;
            ce_coefs(c, &d, s, a);
            for (int64_t j = 0; j < C; j++)
                A += a[j];
            for (int64_t j = 0; j < C; j++)
                row[j * in] = c->log_probs ? -gs * a[j] : gs * (exp(row[j * in]) * A - a[j]);
        }
        free(a);
        r = nn_result(dx, c->input->type, c->input->ndim, c->input->shape, c->input->cuda, err);
    }
    tensor_unref(lp);
    tensor_unref(gd);
    ce_data_free(&d);
    return r;
}

static val nn_ce(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                 src_span at, bool nll)
{
    val all[TORCH_ARGS_MAX];
    int n = torch_self_args(self, argc, argv, all, TORCH_ARGS_MAX);
    torch_ce c;
    if (!torch_ce_args(h, nll, n, all, kw, at, &c))
        return val_err();
    char err[TENSOR_ERR_LEN];
    tensor *r = torch_ce_forward(&c, err);
    if (!r && !strncmp(err, "Target ", 7))
        return host_raise(h, HOST_EXC_INDEX, at, "%s", err);
    return torch_result(h, at, r, err);
}

HOST_CFUNC_CALLING(fn_cross_entropy, nn_ce, false)
HOST_CFUNC_CALLING(fn_nll_loss, nn_ce, true)

/* ---- mse_loss and kl_div -------------------------------------------------------- */

/* F.mse_loss(input, target, size_average=None, reduce=None, reduction='mean') */
static val fn_mse_loss(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                       src_span at)
{
    val a[5];
    TORCH_READ_ARGS("mse_loss", "input, target, size_average=, reduce=, reduction=", a);
    tensor *y = torch_tensor_arg(h, a[1], at, "mse_loss", "target");
    int red;
    if (!y || !torch_reduction_arg(h, a[4], a[2], a[3], at, false, &red))
        return val_err();
    char err[TENSOR_ERR_LEN];
    tensor *d = tensor_binary(TENSOR_SUB, tensor_operand_of(t), tensor_operand_of(y), err);
    tensor *sq = d ? tensor_binary(TENSOR_MUL, tensor_operand_of(d), tensor_operand_of(d), err)
                   : NULL;
    tensor *r = sq && red != TORCH_RED_NONE
                ? tensor_reduce(red == TORCH_RED_SUM ? TENSOR_SUM : TENSOR_MEAN, sq, 0, NULL,
                                false, DTYPE_INVALID, err)
                : (sq ? tensor_ref(sq) : NULL);
    tensor_unref(d);
    tensor_unref(sq);
    return torch_result(h, at, r, err);
}

bool torch_kl_args(host *h, int argc, const val *all, const val_kwargs *kw, src_span at,
                   torch_kl *k)
{
    val a[6];
    if (!host_args(h, at, "kl_div", "input, target, size_average=, reduce=, reduction=, "
                   "log_target=", argc, all, kw, a))
        return false;
    k->log_target = false;
    return (k->input = torch_tensor_arg(h, a[0], at, "kl_div", "input")) &&
           (k->target = torch_tensor_arg(h, a[1], at, "kl_div", "target")) &&
           torch_reduction_arg(h, a[4], a[2], a[3], at, true, &k->reduction) &&
           torch_bool_arg(h, a[5], at, "kl_div", "log_target", &k->log_target);
}

/* The divisor of a kl_div reduction over n elements of input x. */
static double kl_divisor(const torch_kl *k, int64_t n)
{
    if (k->reduction == TORCH_RED_MEAN)
        return (double)n;
    if (k->reduction == TORCH_RED_BATCHMEAN)
        return k->input->ndim ? (double)k->input->shape[0] : 1.0;
    return 1.0;
}

/* Both operands broadcast together, as float64, and the result's dtype. */
static bool kl_operands(const torch_kl *k, tensor **x, tensor **y, dtype *rt, char *err)
{
    *x = *y = NULL;
    *rt = tensor_promote_types(k->input->type, k->target->type, err);
    if (*rt == DTYPE_INVALID)
        return false;
    if (!dtype_is_float(*rt))
        *rt = DTYPE_FP32;
    int n;
    int64_t shape[TENSOR_MAX_DIMS];
    if (!tensor_broadcast_shapes(k->input->ndim, k->input->shape, k->target->ndim,
                                 k->target->shape, &n, shape, err))
        return false;
    tensor *bx = tensor_broadcast_to(k->input, n, shape, err);
    tensor *by = bx ? tensor_broadcast_to(k->target, n, shape, err) : NULL;
    *x = by ? nn_f64(bx, err) : NULL;
    *y = *x ? nn_f64(by, err) : NULL;
    tensor_unref(bx);
    tensor_unref(by);
    if (!*y) {
        tensor_unref(*x);
        *x = NULL;
    }
    return *y != NULL;
}

tensor *torch_kl_forward(const torch_kl *k, char *err)
{
    tensor *x, *y;
    dtype rt;
    if (!kl_operands(k, &x, &y, &rt, err))
        return NULL;
    int64_t n = tensor_numel(x);
    double *xv = nn_d(x), *yv = nn_d(y), sum = 0;
    for (int64_t i = 0; i < n; i++) {
        double v;
        if (k->log_target)
            v = exp(yv[i]) * (yv[i] - xv[i]);
        else
            v = yv[i] == 0 && !isnan(xv[i]) ? 0 : yv[i] * (log(yv[i]) - xv[i]);
        xv[i] = v;
        sum += v;
    }
    tensor *r;
    if (k->reduction == TORCH_RED_NONE) {
        r = nn_result(xv, rt, x->ndim, x->shape, k->input->cuda, err);
    } else {
        double v = sum / kl_divisor(k, n);
        r = nn_result(&v, rt, 0, NULL, k->input->cuda, err);
    }
    tensor_unref(x);
    tensor_unref(y);
    return r;
}

bool torch_kl_backward(const torch_kl *k, const tensor *g, tensor **gx, tensor **gy, char *err)
{
    tensor *x, *y, *gd = NULL;
    dtype rt;
    *gx = *gy = NULL;
    if (!kl_operands(k, &x, &y, &rt, err))
        return false;
    int64_t n = tensor_numel(x);
    tensor *dyt = tensor_new(DTYPE_FP64, x->ndim, x->shape, false, err);
    tensor *gb = dyt ? tensor_broadcast_to(g, x->ndim, x->shape, err) : NULL;
    gd = gb ? nn_f64(gb, err) : NULL;
    tensor_unref(gb);
    bool ok = gd != NULL;
    if (ok) {
        double *xv = nn_d(x), *yv = nn_d(y), *gv = nn_d(gd), *dy = nn_d(dyt);
        double div = kl_divisor(k, n);
        for (int64_t i = 0; i < n; i++) {
            double gi = gv[i] / div;
            if (k->log_target) {
                dy[i] = gi * exp(yv[i]) * (yv[i] - xv[i] + 1);
                xv[i] = -gi * exp(yv[i]);
            } else {
                dy[i] = yv[i] == 0 ? 0 : gi * (log(yv[i]) + 1 - xv[i]);
                xv[i] = -gi * yv[i];
            }
        }
        *gx = tensor_ref(x);
        *gy = tensor_ref(dyt);
    }
    tensor_unref(x);
    tensor_unref(y);
    tensor_unref(gd);
    tensor_unref(dyt);
    return ok;
}

/* F.kl_div(input, target, size_average=None, reduce=None, reduction='mean',
 * log_target=False): input holds log-probabilities. */
static val fn_kl_div(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                     src_span at)
{
    val all[TORCH_ARGS_MAX];
    int n = torch_self_args(self, argc, argv, all, TORCH_ARGS_MAX);
    torch_kl k;
    if (!torch_kl_args(h, n, all, kw, at, &k))
        return val_err();
    char err[TENSOR_ERR_LEN];
    return torch_result(h, at, torch_kl_forward(&k, err), err);
}

/* ---- rms_norm ----------------------------------------------------------------- */

bool torch_rms_args(host *h, int argc, const val *all, const val_kwargs *kw, src_span at,
                    torch_rms *r)
{
    val a[4];
    if (!host_args(h, at, "rms_norm", "input, normalized_shape, weight=, eps=", argc, all, kw,
                   a))
        return false;
    int n;
    int64_t shape[TENSOR_MAX_DIMS];
    if (!(r->input = torch_tensor_arg(h, a[0], at, "rms_norm", "input")) ||
        !torch_int_list(h, a[1], at, "rms_norm", "normalized_shape", &n, shape,
                        TENSOR_MAX_DIMS) ||
        !nn_opt_tensor(h, a[2], at, "rms_norm", "weight", &r->weight))
        return false;
    const tensor *x = r->input;
    bool fits = n >= 1 && n <= x->ndim;
    for (int i = 0; fits && i < n; i++)
        fits = x->shape[x->ndim - n + i] == shape[i];
    if (!fits) {
        char ns[64], ts[64];
        nn_shape_text(ns, sizeof ns, n, shape);
        nn_shape_text(ts, sizeof ts, x->ndim, x->shape);
        host_error(h, at, "Given normalized_shape=%s, expected input with shape [*, %.*s, but "
                   "got input of size%s", ns, (int)(strlen(ns) - 1), ns + 1, ts);
        return false;
    }
    if (!dtype_is_float(x->type)) {
        host_error(h, at, "rms_norm only supports floating-point inputs");
        return false;
    }
    r->C = 1;
    for (int i = 0; i < n; i++)
        r->C *= shape[i];
    if (r->weight && tensor_numel(r->weight) != r->C) {
        char ws[64], ns[64];
        nn_shape_text(ws, sizeof ws, r->weight->ndim, r->weight->shape);
        nn_shape_text(ns, sizeof ns, n, shape);
        host_error(h, at, "Expected weight to be of same shape as normalized_shape, but got "
                   "weight of shape %s and normalized_shape = %s", ws, ns);
        return false;
    }
    /* eps=None: the machine epsilon of the input's dtype */
    r->eps = x->type == DTYPE_FP64 ? 2.220446049250313e-16
             : x->type == DTYPE_FP16 ? 0.0009765625
             : x->type == DTYPE_BF16 ? 0.0078125 : 1.1920928955078125e-07;
    return !nn_given(a[3]) || host_to_float(h, a[3], at, "argument 'eps'", &r->eps);
}

/* The rows of x (R rows of C, float64, in place) normalised; rstd[r]. */
static void rms_rows(double *x, double *rstd, int64_t R, int64_t C, double eps)
{
    for (int64_t r = 0; r < R; r++) {
        double s = 0, *row = x + r * C;
        for (int64_t c = 0; c < C; c++)
            s += row[c] * row[c];
        rstd[r] = 1.0 / sqrt(s / (double)(C ? C : 1) + eps);
        for (int64_t c = 0; c < C; c++)
            row[c] *= rstd[r];
    }
}

tensor *torch_rms_forward(const torch_rms *r, char *err)
{
    const tensor *x = r->input;
    tensor *xd = nn_f64(x, err);
    if (!xd)
        return NULL;
    int64_t R = r->C ? tensor_numel(x) / r->C : 0;
    double *rstd = xmalloc((size_t)(R ? R : 1) * sizeof *rstd);
    rms_rows(nn_d(xd), rstd, R, r->C, r->eps);
    free(rstd);
    /* normalised in float32 (float64 for float64), rounded to the input's
     * dtype, then times the weight in the promoted dtype (PyTorch's order) */
    tensor *y = tensor_to(xd, x->type, x->cuda, err);
    tensor_unref(xd);
    if (!y || !r->weight)
        return y;
    tensor *out = tensor_binary(TENSOR_MUL, tensor_operand_of(y), tensor_operand_of(r->weight),
                                err);
    tensor_unref(y);
    return out;
}

bool torch_rms_backward(const torch_rms *r, const tensor *g, tensor **gx, tensor **gw,
                        char *err)
{
    const tensor *x = r->input;
    int64_t C = r->C, R = C ? tensor_numel(x) / C : 0;
    *gx = *gw = NULL;
    tensor *xd = nn_f64(x, err);
    tensor *gb = xd ? tensor_broadcast_to(g, x->ndim, x->shape, err) : NULL;
    tensor *gd = gb ? nn_f64(gb, err) : NULL;
    tensor *wd = gd && r->weight ? nn_f64(r->weight, err) : NULL;
    tensor_unref(gb);
    if (!gd || (r->weight && !wd)) {
        tensor_unref(xd);
        tensor_unref(gd);
        return false;
    }
    double *xv = nn_d(xd), *gv = nn_d(gd), *wv = wd ? nn_d(wd) : NULL;
    double *rstd = xmalloc((size_t)(R ? R : 1) * sizeof *rstd);
    double *dw = xcalloc((size_t)(C ? C : 1), sizeof *dw);
    rms_rows(xv, rstd, R, C, r->eps);   /* xv is now xhat */
    for (int64_t i = 0; i < R; i++) {
        double *xh = xv + i * C, *gr = gv + i * C, dot = 0;
        for (int64_t c = 0; c < C; c++) {
            double gwc = gr[c] * (wv ? wv[c] : 1.0);
            dot += gwc * xh[c];
            dw[c] += gr[c] * xh[c];
        }
        dot /= (double)(C ? C : 1);
        for (int64_t c = 0; c < C; c++)
            gr[c] = rstd[i] * (gr[c] * (wv ? wv[c] : 1.0) - xh[c] * dot);
    }
    *gx = nn_result(gv, x->type, x->ndim, x->shape, x->cuda, err);
    if (*gx && r->weight)
        *gw = nn_result(dw, r->weight->type, r->weight->ndim, r->weight->shape,
                        r->weight->cuda, err);
    free(rstd);
    free(dw);
    tensor_unref(xd);
    tensor_unref(gd);
    tensor_unref(wd);
    return *gx && (!r->weight || *gw);
}

/* F.rms_norm(input, normalized_shape, weight=None, eps=None) */
static val fn_rms_norm(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                       src_span at)
{
    val all[TORCH_ARGS_MAX];
    int n = torch_self_args(self, argc, argv, all, TORCH_ARGS_MAX);
    torch_rms r;
    if (!torch_rms_args(h, n, all, kw, at, &r))
        return val_err();
    char err[TENSOR_ERR_LEN];
    return torch_result(h, at, torch_rms_forward(&r, err), err);
}

/* ---- embedding ------------------------------------------------------------------ */

bool torch_embedding_args(host *h, int argc, const val *all, const val_kwargs *kw,
                          src_span at, torch_embedding *e)
{
    val a[7];
    if (!host_args(h, at, "embedding", "input, weight, padding_idx=, max_norm=, norm_type=, "
                   "scale_grad_by_freq=, sparse=", argc, all, kw, a))
        return false;
    e->padding_idx = -1;
    e->has_padding = false;
    if (!(e->input = torch_tensor_arg(h, a[0], at, "embedding", "input")) ||
        !(e->weight = torch_tensor_arg(h, a[1], at, "embedding", "weight")))
        return false;
    if (nn_given(a[3])) {
        host_raise(h, HOST_EXC_NOT_IMPLEMENTED, at, "embedding(): max_norm= is not supported "
                   "by tritsim");
        return false;
    }
    bool flag = false;
    if ((nn_given(a[5]) && !torch_bool_arg(h, a[5], at, "embedding", "scale_grad_by_freq",
                                           &flag)) || flag ||
        (nn_given(a[6]) && !torch_bool_arg(h, a[6], at, "embedding", "sparse", &flag)) || flag) {
        if (flag)
            host_raise(h, HOST_EXC_NOT_IMPLEMENTED, at, "embedding(): scale_grad_by_freq= and "
                       "sparse= are not supported by tritsim");
        return false;
    }
    if (e->weight->ndim != 2) {
        host_error(h, at, "'weight' must be 2-D");
        return false;
    }
    if (nn_given(a[2])) {
        if (!torch_int_arg(h, a[2], at, "embedding", "padding_idx", &e->padding_idx))
            return false;
        int64_t rows = e->weight->shape[0];
        if (e->padding_idx >= rows || e->padding_idx < -rows) {
            host_raise(h, HOST_EXC_ASSERTION, at, "Padding_idx must be within num_embeddings");
            return false;
        }
        if (e->padding_idx < 0)
            e->padding_idx += rows;
        e->has_padding = true;
    }
    if (e->input->type != DTYPE_INT64 && e->input->type != DTYPE_INT32) {
        host_error(h, at, "Expected tensor for argument #1 'indices' to have one of the "
                   "following scalar types: Long, Int; but got %s instead (while checking "
                   "arguments for embedding)", dtype_torch_name(e->input->type));
        return false;
    }
    return true;
}

/* F.embedding(input, weight, padding_idx=None, ...): the rows of weight
 * that input names, shaped input.shape + (embedding_dim,). */
static val fn_embedding(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                        src_span at)
{
    val all[TORCH_ARGS_MAX];
    int n = torch_self_args(self, argc, argv, all, TORCH_ARGS_MAX);
    torch_embedding e;
    if (!torch_embedding_args(h, n, all, kw, at, &e))
        return val_err();
    char err[TENSOR_ERR_LEN];
    const tensor *ix = e.input, *w = e.weight;
    if (ix->ndim + 1 > TENSOR_MAX_DIMS)
        return host_error(h, at, "embedding(): too many dimensions");
    int64_t shape[TENSOR_MAX_DIMS], rows = w->shape[0], D = w->shape[1];
    memcpy(shape, ix->shape, sizeof *shape * (size_t)ix->ndim);
    shape[ix->ndim] = D;
    tensor *r = tensor_new(w->type, ix->ndim + 1, shape, w->cuda, err);
    if (!r)
        return torch_fail(h, at, err);
    tensor *flat = tensor_reshape(r, 2, (int64_t[]){tensor_numel(ix), D}, err);
    bool ok = flat != NULL;
    for (int64_t i = 0, k = tensor_numel(ix); ok && i < k; i++) {
        int64_t row = tensor_get_flat(ix, i).i;
        if (row < 0 || row >= rows) {
            tensor_unref(flat);
            tensor_unref(r);
            return host_raise(h, HOST_EXC_INDEX, at, "index out of range in self");
        }
        tensor *to = tensor_select(flat, 0, i, err);
        tensor *from = to ? tensor_select(w, 0, row, err) : NULL;
        ok = from && tensor_copy_into(to, from, err);
        tensor_unref(to);
        tensor_unref(from);
    }
    tensor_unref(flat);
    if (!ok) {
        tensor_unref(r);
        return torch_fail(h, at, err);
    }
    return tensor_val(r);
}

tensor *torch_embedding_backward(const torch_embedding *e, const tensor *g, char *err)
{
    const tensor *w = e->weight, *ix = e->input;
    int64_t D = w->shape[1], n = tensor_numel(ix);
    tensor *gd = nn_f64(g, err);
    if (!gd)
        return NULL;
    double *dw = xcalloc((size_t)(tensor_numel(w) ? tensor_numel(w) : 1), sizeof *dw);
    const double *gv = nn_d(gd);
    for (int64_t i = 0; i < n; i++) {
        int64_t row = tensor_get_flat(ix, i).i;
        if (e->has_padding && row == e->padding_idx)
            continue;
        for (int64_t c = 0; c < D; c++)
            dw[row * D + c] += gv[i * D + c];
    }
    tensor *r = nn_result(dw, w->type, w->ndim, w->shape, w->cuda, err);
    free(dw);
    tensor_unref(gd);
    return r;
}

/* ---- dropout ------------------------------------------------------------------ */

/* F.dropout(input, p=0.5, training=True, inplace=False): with training and
 * 0 < p < 1 each element is zeroed with probability p and the rest scaled
 * by 1/(1-p), drawn from tritsim's generator (not PyTorch's numbers); p=0
 * or training=False give the input itself, p=1 zeros. */
static val fn_dropout(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                      src_span at)
{
    val a[4];
    TORCH_READ_ARGS("dropout", "input, p=, training=, inplace=", a);
    double p = 0.5;
    bool training = true, inplace = false;
    if ((nn_given(a[1]) && !host_to_float(h, a[1], at, "argument 'p'", &p)) ||
        !torch_bool_arg(h, a[2], at, "dropout", "training", &training) ||
        !torch_bool_arg(h, a[3], at, "dropout", "inplace", &inplace))
        return val_err();
    if (p < 0 || p > 1)
        return host_raise(h, HOST_EXC_VALUE, at, "dropout probability has to be between 0 and "
                          "1, but got %g", p);
    if (!training || p == 0 || tensor_numel(t) == 0)
        return val_ref(a[0]);
    char err[TENSOR_ERR_LEN];
    if (!dtype_is_float(t->type))
        return host_error(h, at, "result type Float can't be cast to the desired output type "
                          "%s", dtype_torch_name(t->type) + 6);
    tensor *u = tensor_new(DTYPE_FP64, t->ndim, t->shape, t->cuda, err);
    if (!u)
        return torch_fail(h, at, err);
    tensor_fill_uniform(u, 0, 1);
    double *uv = nn_d(u);
    for (int64_t i = 0, n = tensor_numel(u); i < n; i++)
        uv[i] = p == 1 ? 0 : uv[i] < p ? 0 : 1 / (1 - p);
    tensor *r = tensor_binary(TENSOR_MUL, tensor_operand_of(t), tensor_operand_of(u), err);
    tensor_unref(u);
    tensor *out = r ? tensor_to(r, t->type, t->cuda, err) : NULL;
    tensor_unref(r);
    if (out && inplace) {
        bool ok = tensor_copy_into(t, out, err);
        tensor_unref(out);
        return ok ? val_ref(a[0]) : torch_fail(h, at, err);
    }
    return torch_result(h, at, out, err);
}

/* ---- conv2d ------------------------------------------------------------------- */

/* One of stride, padding, dilation: an int or a pair. */
static bool pair_arg(host *h, val v, src_span at, const char *arg, int64_t dflt, int64_t *out)
{
    out[0] = out[1] = dflt;
    if (!nn_given(v))
        return true;
    int n;
    int64_t vals[2];
    if (!torch_int_list(h, v, at, "conv2d", arg, &n, vals, 2))
        return false;
    if (n == 1)
        vals[1] = vals[0];
    else if (n != 2) {
        host_error(h, at, "expected %s to be a single integer value or a list of 2 values to "
                   "match the convolution dimensions, but got %s=[]", arg, arg);
        return false;
    }
    out[0] = vals[0];
    out[1] = vals[1];
    return true;
}

bool torch_conv_args(host *h, int argc, const val *all, const val_kwargs *kw, src_span at,
                     torch_conv *c)
{
    val a[7];
    if (!host_args(h, at, "conv2d", "input, weight, bias=, stride=, padding=, dilation=, "
                   "groups=", argc, all, kw, a))
        return false;
    c->groups = 1;
    if (!(c->input = torch_tensor_arg(h, a[0], at, "conv2d", "input")) ||
        !(c->weight = torch_tensor_arg(h, a[1], at, "conv2d", "weight")) ||
        !nn_opt_tensor(h, a[2], at, "conv2d", "bias", &c->bias) ||
        !pair_arg(h, a[3], at, "stride", 1, c->stride) ||
        !pair_arg(h, a[5], at, "dilation", 1, c->dilation) ||
        (nn_given(a[6]) && !torch_int_arg(h, a[6], at, "conv2d", "groups", &c->groups)))
        return false;
    const tensor *x = c->input, *w = c->weight;
    if (w->ndim != 4) {
        host_error(h, at, "conv2d(): expected a 4-D weight (out_channels, in_channels / groups, "
                   "kH, kW), got %d dimensions", w->ndim);
        return false;
    }
    if (x->ndim != 3 && x->ndim != 4) {
        char xs[64];
        nn_shape_text(xs, sizeof xs, x->ndim, x->shape);
        host_error(h, at, "Expected 3D (unbatched) or 4D (batched) input to conv2d, but got "
                   "input of size: %s", xs);
        return false;
    }
    c->batched = x->ndim == 4;
    c->N = c->batched ? x->shape[0] : 1;
    int o = c->batched ? 1 : 0;
    c->Cin = x->shape[o];
    c->H = x->shape[o + 1];
    c->W = x->shape[o + 2];
    if (a[4].kind == VAL_STR) {
        const char *s;
        if (!host_to_str(h, a[4], at, "argument 'padding'", &s))
            return false;
        if (!strcmp(s, "valid")) {
            c->pad[0] = c->pad[1] = 0;
        } else if (!strcmp(s, "same")) {
            if (c->stride[0] != 1 || c->stride[1] != 1) {
                host_error(h, at, "padding='same' is not supported for strided convolutions");
                return false;
            }
            for (int i = 0; i < 2; i++) {
                int64_t total = c->dilation[i] * (w->shape[2 + i] - 1);
                if (total % 2) {
                    host_raise(h, HOST_EXC_NOT_IMPLEMENTED, at, "conv2d(): padding='same' "
                               "with an uneven total padding is not supported by tritsim");
                    return false;
                }
                c->pad[i] = total / 2;
            }
        } else {
            host_error(h, at, "Invalid padding string '%s'", s);
            return false;
        }
    } else if (!pair_arg(h, a[4], at, "padding", 0, c->pad)) {
        return false;
    }
    for (int i = 0; i < 2; i++)
        if (c->stride[i] <= 0 || c->dilation[i] <= 0 || c->pad[i] < 0) {
            host_error(h, at, "%s", c->stride[i] <= 0 ? "non-positive stride is not supported"
                       : c->dilation[i] <= 0 ? "dilation should be greater than zero"
                       : "negative padding is not supported");
            return false;
        }
    if (c->groups <= 0) {
        host_error(h, at, "non-positive groups is not supported");
        return false;
    }
    c->Cout = w->shape[0];
    c->kH = w->shape[2];
    c->kW = w->shape[3];
    if (c->Cout % c->groups) {
        char ws[64];
        nn_shape_text(ws, sizeof ws, w->ndim, w->shape);
        host_error(h, at, "Given groups=%lld, expected weight to be divisible by %lld at "
                   "dimension 0, but got weight of size %s instead", (long long)c->groups,
                   (long long)c->groups, ws);
        return false;
    }
    if (w->shape[1] * c->groups != c->Cin) {
        char ws[64], xs[64];
        nn_shape_text(ws, sizeof ws, w->ndim, w->shape);
        nn_shape_text(xs, sizeof xs, x->ndim, x->shape);
        host_error(h, at, "Given groups=%lld, weight of size %s, expected input%s to have %lld "
                   "channels, but got %lld channels instead", (long long)c->groups, ws, xs,
                   (long long)(w->shape[1] * c->groups), (long long)c->Cin);
        return false;
    }
    if (c->bias && (c->bias->ndim != 1 || c->bias->shape[0] != c->Cout)) {
        host_error(h, at, "Given weight of size [%lld, ...], expected bias to be 1-dimensional "
                   "with %lld elements", (long long)c->Cout, (long long)c->Cout);
        return false;
    }
    if (x->type != w->type || (c->bias && c->bias->type != x->type)) {
        host_error(h, at, "Input type (%s) and %s type (%s) should be the same",
                   tensor_type_name(x->type), x->type != w->type ? "weight" : "bias",
                   tensor_type_name(x->type != w->type ? w->type : c->bias->type));
        return false;
    }
    if (!dtype_is_float(x->type)) {
        host_error(h, at, "\"slow_conv2d_cpu\" not implemented for '%s'",
                   tensor_type_name(x->type));
        return false;
    }
    for (int i = 0; i < 2; i++) {
        int64_t in = i ? c->W : c->H, k = i ? c->kW : c->kH;
        int64_t span = c->dilation[i] * (k - 1) + 1;
        int64_t out = (in + 2 * c->pad[i] - span) / c->stride[i] + 1;
        if (in + 2 * c->pad[i] < span) {
            host_error(h, at, "Calculated padded input size per channel: (%lld x %lld). Kernel "
                       "size: (%lld x %lld). Kernel size can't be greater than actual input "
                       "size", (long long)(c->H + 2 * c->pad[0]),
                       (long long)(c->W + 2 * c->pad[1]), (long long)c->kH, (long long)c->kW);
            return false;
        }
        if (i)
            c->Wo = out;
        else
            c->Ho = out;
    }
    return true;
}

/* Visit every (output, input, weight) element triple of the convolution:
 * f(o, i, w) with flat indices into the output, input and weight. */
#define CONV_FOR_EACH(c, BODY)                                                                \
    do {                                                                                      \
        int64_t cpg_ = (c)->Cin / (c)->groups, opg_ = (c)->Cout / (c)->groups;                \
        for (int64_t n_ = 0; n_ < (c)->N; n_++)                                               \
            for (int64_t co_ = 0; co_ < (c)->Cout; co_++) {                                   \
                int64_t g_ = co_ / opg_;                                                      \
                for (int64_t y_ = 0; y_ < (c)->Ho; y_++)                                      \
                    for (int64_t x_ = 0; x_ < (c)->Wo; x_++) {                                \
                        int64_t o = ((n_ * (c)->Cout + co_) * (c)->Ho + y_) * (c)->Wo + x_;   \
                        for (int64_t ci_ = 0; ci_ < cpg_; ci_++)                              \
                            for (int64_t ky_ = 0; ky_ < (c)->kH; ky_++) {                     \
                                int64_t iy_ = y_ * (c)->stride[0] - (c)->pad[0] +             \
                                              ky_ * (c)->dilation[0];                         \
                                if (iy_ < 0 || iy_ >= (c)->H)                                 \
                                    continue;                                                 \
                                for (int64_t kx_ = 0; kx_ < (c)->kW; kx_++) {                 \
                                    int64_t ix_ = x_ * (c)->stride[1] - (c)->pad[1] +         \
                                                  kx_ * (c)->dilation[1];                     \
                                    if (ix_ < 0 || ix_ >= (c)->W)                             \
                                        continue;                                             \
                                    int64_t i = ((n_ * (c)->Cin + g_ * cpg_ + ci_) * (c)->H + \
                                                 iy_) * (c)->W + ix_;                         \
                                    int64_t w = ((co_ * cpg_ + ci_) * (c)->kH + ky_) *        \
                                                (c)->kW + kx_;                                \
                                    BODY;                                                     \
                                }                                                             \
                            }                                                                 \
                    }                                                                         \
            }                                                                                 \
    } while (0)

/* The output's shape: (N, Cout, Ho, Wo), or without N when unbatched. */
static int conv_out_shape(const torch_conv *c, int64_t *shape)
{
    int n = 0;
    if (c->batched)
        shape[n++] = c->N;
    shape[n++] = c->Cout;
    shape[n++] = c->Ho;
    shape[n++] = c->Wo;
    return n;
}

tensor *torch_conv_forward(const torch_conv *c, char *err)
{
    tensor *xd = nn_f64(c->input, err);
    tensor *wd = xd ? nn_f64(c->weight, err) : NULL;
    tensor *bd = wd && c->bias ? nn_f64(c->bias, err) : NULL;
    tensor *r = NULL;
    if (wd && (!c->bias || bd)) {
        int64_t total = c->N * c->Cout * c->Ho * c->Wo;
        double *out = xcalloc((size_t)(total ? total : 1), sizeof *out);
        const double *xv = nn_d(xd), *wv = nn_d(wd);
        CONV_FOR_EACH(c, out[o] += xv[i] * wv[w]);
        if (bd) {
            const double *bv = nn_d(bd);
            for (int64_t k = 0; k < total; k++)
                out[k] += bv[k / (c->Ho * c->Wo) % c->Cout];
        }
        int64_t shape[4];
        int n = conv_out_shape(c, shape);
        r = nn_result(out, c->input->type, n, shape, c->input->cuda, err);
        free(out);
    }
    tensor_unref(xd);
    tensor_unref(wd);
    tensor_unref(bd);
    return r;
}

bool torch_conv_backward(const torch_conv *c, const tensor *g, tensor **gx, tensor **gw,
                         tensor **gb, char *err)
{
    *gx = *gw = *gb = NULL;
    tensor *xd = nn_f64(c->input, err);
    tensor *wd = xd ? nn_f64(c->weight, err) : NULL;
    tensor *gd = wd ? nn_f64(g, err) : NULL;
    bool ok = gd != NULL;
    if (ok) {
        int64_t nx = tensor_numel(c->input), nw = tensor_numel(c->weight);
        double *dx = xcalloc((size_t)(nx ? nx : 1), sizeof *dx);
        double *dw = xcalloc((size_t)(nw ? nw : 1), sizeof *dw);
        double *db = xcalloc((size_t)(c->Cout ? c->Cout : 1), sizeof *db);
        const double *xv = nn_d(xd), *wv = nn_d(wd), *gv = nn_d(gd);
        CONV_FOR_EACH(c, (dx[i] += gv[o] * wv[w], dw[w] += gv[o] * xv[i]));
        for (int64_t k = 0, total = c->N * c->Cout * c->Ho * c->Wo; k < total; k++)
            db[k / (c->Ho * c->Wo) % c->Cout] += gv[k];
        const tensor *x = c->input, *w = c->weight;
        *gx = nn_result(dx, x->type, x->ndim, x->shape, x->cuda, err);
        *gw = *gx ? nn_result(dw, w->type, w->ndim, w->shape, w->cuda, err) : NULL;
        if (*gw && c->bias)
            *gb = nn_result(db, c->bias->type, 1, c->bias->shape, c->bias->cuda, err);
        ok = *gw && (!c->bias || *gb);
        free(dx);
        free(dw);
        free(db);
    }
    tensor_unref(xd);
    tensor_unref(wd);
    tensor_unref(gd);
    return ok;
}

/* F.conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1,
 * groups=1): a direct loop in float64. */
static val fn_conv2d(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                     src_span at)
{
    val all[TORCH_ARGS_MAX];
    int n = torch_self_args(self, argc, argv, all, TORCH_ARGS_MAX);
    torch_conv c;
    if (!torch_conv_args(h, n, all, kw, at, &c))
        return val_err();
    char err[TENSOR_ERR_LEN];
    return torch_result(h, at, torch_conv_forward(&c, err), err);
}

/* ---- scaled_dot_product_attention ------------------------------------------------ */

bool torch_sdpa_args(host *h, int argc, const val *all, const val_kwargs *kw, src_span at,
                     torch_sdpa *s)
{
    val a[8];
    const char *fname = "scaled_dot_product_attention";
    if (!host_args(h, at, fname, "query, key, value, attn_mask=, dropout_p=, is_causal=, *, "
                   "scale=, enable_gqa=", argc, all, kw, a))
        return false;
    double p = 0;
    s->causal = s->gqa = false;
    s->scale = NAN;
    if (!(s->q = torch_tensor_arg(h, a[0], at, fname, "query")) ||
        !(s->k = torch_tensor_arg(h, a[1], at, fname, "key")) ||
        !(s->v = torch_tensor_arg(h, a[2], at, fname, "value")) ||
        !nn_opt_tensor(h, a[3], at, fname, "attn_mask", &s->mask) ||
        (nn_given(a[4]) && !host_to_float(h, a[4], at, "argument 'dropout_p'", &p)) ||
        !torch_bool_arg(h, a[5], at, fname, "is_causal", &s->causal) ||
        (nn_given(a[6]) && !host_to_float(h, a[6], at, "argument 'scale'", &s->scale)) ||
        !torch_bool_arg(h, a[7], at, fname, "enable_gqa", &s->gqa))
        return false;
    if (p != 0) {
        host_raise(h, HOST_EXC_NOT_IMPLEMENTED, at, "scaled_dot_product_attention(): "
                   "dropout_p=%g is not supported by tritsim (only 0)", p);
        return false;
    }
    const tensor *q = s->q, *k = s->k, *v = s->v;
    if (q->ndim < 2 || k->ndim != q->ndim || v->ndim != q->ndim) {
        host_error(h, at, "scaled_dot_product_attention(): query, key and value must have the "
                   "same number of dimensions, at least 2 (got %d, %d and %d)", q->ndim,
                   k->ndim, v->ndim);
        return false;
    }
    if (q->type != k->type || q->type != v->type) {
        host_error(h, at, "Expected query, key, and value to have the same dtype, but got "
                   "query.dtype: %s key.dtype: %s and value.dtype: %s instead.",
                   dtype_torch_name(q->type), dtype_torch_name(k->type),
                   dtype_torch_name(v->type));
        return false;
    }
    if (!dtype_is_float(q->type)) {
        host_error(h, at, "scaled_dot_product_attention(): expected floating point inputs, "
                   "got %s", dtype_torch_name(q->type));
        return false;
    }
    if (s->causal && s->mask) {
        host_error(h, at, "_scaled_dot_product_attention: Explicit attn_mask should not be set "
                   "when is_causal=True");
        return false;
    }
    int nd = q->ndim;
    s->L = q->shape[nd - 2];
    s->E = q->shape[nd - 1];
    s->S = k->shape[nd - 2];
    s->Ev = v->shape[nd - 1];
    bool ok = k->shape[nd - 1] == s->E && v->shape[nd - 2] == s->S;
    /* the batch dims must agree, but for the heads (dim -3) under GQA */
    s->B = 1;
    s->Hq = nd >= 3 ? q->shape[nd - 3] : 1;
    s->Hk = nd >= 3 ? k->shape[nd - 3] : 1;
    for (int i = 0; ok && i < nd - 2; i++) {
        bool heads = i == nd - 3;
        if (heads && s->gqa)
            ok = k->shape[i] == v->shape[i] && k->shape[i] > 0 && q->shape[i] % k->shape[i] == 0;
        else
            ok = q->shape[i] == k->shape[i] && q->shape[i] == v->shape[i];
        if (!heads)
            s->B *= q->shape[i];
    }
    if (!s->gqa)
        s->Hk = s->Hq;
    if (!ok) {
        host_error(h, at, "scaled_dot_product_attention(): the shapes of query, key and value "
                   "do not fit (query (..., L, E), key (..., S, E), value (..., S, Ev), equal "
                   "batch dims%s)", s->gqa ? ", key/value heads dividing query's" : "");
        return false;
    }
    if (s->mask && s->mask->type != DTYPE_INT1 && s->mask->type != q->type) {
        host_error(h, at, "Expected attn_mask dtype to be bool or float or to match query "
                   "dtype, but got attn_mask.dtype: %s and  query.dtype: %s instead.",
                   dtype_torch_name(s->mask->type), dtype_torch_name(q->type));
        return false;
    }
    if (isnan(s->scale))
        s->scale = 1.0 / sqrt((double)s->E);
    return true;
}

/* The mask broadcast to (batch..., L, S) as float64 additive values
 * (bool False and causal positions -inf), or NULL for none. */
static tensor *sdpa_bias(const torch_sdpa *s, char *err)
{
    const tensor *q = s->q;
    int nd = q->ndim;
    int64_t shape[TENSOR_MAX_DIMS];
    memcpy(shape, q->shape, sizeof *shape * (size_t)nd);
    shape[nd - 1] = s->S;
    if (s->causal) {
        tensor *b = tensor_new(DTYPE_FP64, nd, shape, false, err);
        if (!b)
            return NULL;
        double *bv = nn_d(b);
        for (int64_t i = 0, n = tensor_numel(b); i < n; i++)
            bv[i] = i % s->S > i / s->S % s->L ? -INFINITY : 0;
        return b;
    }
    if (!s->mask)
        return NULL;
    tensor *m = tensor_broadcast_to(s->mask, nd, shape, err);
    if (!m)
        return NULL;
    tensor *b = nn_f64(m, err);
    if (b && s->mask->type == DTYPE_INT1) {
        double *bv = nn_d(b);
        for (int64_t i = 0, n = tensor_numel(b); i < n; i++)
            bv[i] = bv[i] != 0 ? 0 : -INFINITY;
    }
    tensor_unref(m);
    return b;
}

/* The attention probabilities P (B*Hq, L, S) in float64 (rows that are
 * masked everywhere give zeros); NULL on error. */
static double *sdpa_probs(const torch_sdpa *s, const double *q, const double *k,
                          const double *bias)
{
    int64_t BH = s->B * s->Hq, L = s->L, S = s->S, E = s->E, rep = s->Hq / s->Hk;
    int64_t np = BH * L * S;
    double *p = xmalloc((size_t)(np ? np : 1) * sizeof *p);
    for (int64_t bh = 0; bh < BH; bh++) {
        int64_t kh = (bh / s->Hq) * s->Hk + (bh % s->Hq) / rep;
        for (int64_t i = 0; i < L; i++) {
            double *row = p + (bh * L + i) * S, m = -INFINITY;
            const double *qi = q + (bh * L + i) * E;
            for (int64_t j = 0; j < S; j++) {
                const double *kj = k + (kh * S + j) * E;
                double dot = 0;
                for (int64_t e = 0; e < E; e++)
                    dot += qi[e] * kj[e];
                row[j] = dot * s->scale + (bias ? bias[(bh * L + i) * S + j] : 0);
                m = row[j] > m ? row[j] : m;
            }
            double sum = 0;
            for (int64_t j = 0; j < S; j++)
                sum += row[j] = isinf(m) && m < 0 ? 0 : exp(row[j] - m);
            for (int64_t j = 0; j < S; j++)
                row[j] = sum > 0 ? row[j] / sum : 0;
        }
    }
    return p;
}

/* q, k, v (and the bias) as float64 arrays; false on error. */
static bool sdpa_load(const torch_sdpa *s, tensor **q, tensor **k, tensor **v, tensor **bias,
                      char *err)
{
    *q = nn_f64(s->q, err);
    *k = *q ? nn_f64(s->k, err) : NULL;
    *v = *k ? nn_f64(s->v, err) : NULL;
    *bias = NULL;
    if (*v && (s->mask || s->causal))
        *bias = sdpa_bias(s, err);
    if (*v && (*bias || (!s->mask && !s->causal)))
        return true;
    tensor_unref(*q);
    tensor_unref(*k);
    tensor_unref(*v);
    return false;
}

tensor *torch_sdpa_forward(const torch_sdpa *s, char *err)
{
    tensor *q, *k, *v, *bias;
    if (!sdpa_load(s, &q, &k, &v, &bias, err))
        return NULL;
    int64_t BH = s->B * s->Hq, L = s->L, S = s->S, Ev = s->Ev, rep = s->Hq / s->Hk;
    double *p = sdpa_probs(s, nn_d(q), nn_d(k), bias ? nn_d(bias) : NULL);
    int64_t nout = BH * L * Ev;
    double *out = xcalloc((size_t)(nout ? nout : 1), sizeof *out);
    const double *vv = nn_d(v);
    for (int64_t bh = 0; bh < BH; bh++) {
        int64_t kh = (bh / s->Hq) * s->Hk + (bh % s->Hq) / rep;
        for (int64_t i = 0; i < L; i++)
            for (int64_t j = 0; j < S; j++) {
                double pij = p[(bh * L + i) * S + j];
                for (int64_t e = 0; pij != 0 && e < Ev; e++)
                    out[(bh * L + i) * Ev + e] += pij * vv[(kh * S + j) * Ev + e];
            }
    }
    int64_t shape[TENSOR_MAX_DIMS];
    memcpy(shape, s->q->shape, sizeof *shape * (size_t)s->q->ndim);
    shape[s->q->ndim - 1] = Ev;
    tensor *r = nn_result(out, s->q->type, s->q->ndim, shape, s->q->cuda, err);
    free(p);
    free(out);
    tensor *tmp[] = {q, k, v, bias};
    for (size_t i = 0; i < sizeof tmp / sizeof *tmp; i++)
        tensor_unref(tmp[i]);
    return r;
}

bool torch_sdpa_backward(const torch_sdpa *s, const tensor *g, tensor **gq, tensor **gk,
                         tensor **gv, char *err)
{
    tensor *q, *k, *v, *bias, *gd;
    *gq = *gk = *gv = NULL;
    if (!sdpa_load(s, &q, &k, &v, &bias, err))
        return false;
    if (!(gd = nn_f64(g, err))) {
        tensor *tmp[] = {q, k, v, bias};
        for (size_t i = 0; i < sizeof tmp / sizeof *tmp; i++)
            tensor_unref(tmp[i]);
        return false;
    }
    int64_t BH = s->B * s->Hq, L = s->L, S = s->S, E = s->E, Ev = s->Ev;
    int64_t rep = s->Hq / s->Hk;
    const double *qv = nn_d(q), *kv = nn_d(k), *vv = nn_d(v), *go = nn_d(gd);
    double *p = sdpa_probs(s, qv, kv, bias ? nn_d(bias) : NULL);
    double *dq = xcalloc((size_t)(tensor_numel(q) ? tensor_numel(q) : 1), sizeof *dq);
    double *dk = xcalloc((size_t)(tensor_numel(k) ? tensor_numel(k) : 1), sizeof *dk);
    double *dv = xcalloc((size_t)(tensor_numel(v) ? tensor_numel(v) : 1), sizeof *dv);
    double *dp = xmalloc((size_t)(S ? S : 1) * sizeof *dp);
    for (int64_t bh = 0; bh < BH; bh++) {
        int64_t kh = (bh / s->Hq) * s->Hk + (bh % s->Hq) / rep;
        for (int64_t i = 0; i < L; i++) {
            const double *pr = p + (bh * L + i) * S, *gr = go + (bh * L + i) * Ev;
            double dot = 0;
            for (int64_t j = 0; j < S; j++) {
                const double *vj = vv + (kh * S + j) * Ev;
                double d = 0;
                for (int64_t e = 0; e < Ev; e++) {
                    d += gr[e] * vj[e];
                    dv[(kh * S + j) * Ev + e] += pr[j] * gr[e];
                }
                dp[j] = d;
                dot += d * pr[j];
            }
            for (int64_t j = 0; j < S; j++) {
                double ds = pr[j] * (dp[j] - dot) * s->scale;
                if (ds == 0)
                    continue;
                for (int64_t e = 0; e < E; e++) {
                    dq[(bh * L + i) * E + e] += ds * kv[(kh * S + j) * E + e];
                    dk[(kh * S + j) * E + e] += ds * qv[(bh * L + i) * E + e];
                }
            }
        }
    }
    *gq = nn_result(dq, s->q->type, s->q->ndim, s->q->shape, s->q->cuda, err);
    *gk = *gq ? nn_result(dk, s->k->type, s->k->ndim, s->k->shape, s->k->cuda, err) : NULL;
    *gv = *gk ? nn_result(dv, s->v->type, s->v->ndim, s->v->shape, s->v->cuda, err) : NULL;
    free(p);
    free(dq);
    free(dk);
    free(dv);
    free(dp);
    tensor *tmp[] = {q, k, v, bias, gd};
    for (size_t i = 0; i < sizeof tmp / sizeof *tmp; i++)
        tensor_unref(tmp[i]);
    return *gv != NULL;
}

/* F.scaled_dot_product_attention(query, key, value, attn_mask=None,
 * dropout_p=0.0, is_causal=False, *, scale=None, enable_gqa=False):
 * softmax(q @ k^T * scale + mask) @ v, in float64. */
static val fn_sdpa(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                   src_span at)
{
    val all[TORCH_ARGS_MAX];
    int n = torch_self_args(self, argc, argv, all, TORCH_ARGS_MAX);
    torch_sdpa s;
    if (!torch_sdpa_args(h, n, all, kw, at, &s))
        return val_err();
    char err[TENSOR_ERR_LEN];
    return torch_result(h, at, torch_sdpa_forward(&s, err), err);
}

const torch_fn torch_nn_fns[] = {
    TORCH_NNF("cross_entropy", fn_cross_entropy),
    TORCH_NNF("nll_loss", fn_nll_loss),
    TORCH_NNF("mse_loss", fn_mse_loss),
    TORCH_NNF("kl_div", fn_kl_div),
    TORCH_NNF("rms_norm", fn_rms_norm),
    TORCH_NNF("embedding", fn_embedding),
    TORCH_NNF("dropout", fn_dropout),
    TORCH_NNF("conv2d", fn_conv2d),
    TORCH_NNF("scaled_dot_product_attention", fn_sdpa),
    {NULL, NULL, NULL, NULL, NULL, 0},
};
