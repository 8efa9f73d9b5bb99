/* torch_nnmore.c - more of torch.nn.functional: group_norm and
 * binary_cross_entropy_with_logits (computed here in float64, with their
 * backward formulas for autograd_nn.c), and
 * linear, l1_loss, smooth_l1_loss (and torch.lerp), which are compositions of recorded
 * torch operations (autograd differentiates them through their pieces,
 * so they are registered as functions autograd does not record
 * themselves). */
#include "torch_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MORE_FN(name) \
    static val name(host *h, val self, int argc, const val *argv, const val_kwargs *kw, \
                    src_span at)

/* "[2, 3]" as PyTorch writes shapes in messages. */
static void more_shape_text(char *buf, size_t cap, int n, const int64_t *shape)
{
    size_t len = (size_t)snprintf(buf, cap, "[");
    for (int i = 0; i < n && len < cap; i++)
        len += (size_t)snprintf(buf + len, cap - len, "%s%lld", i ? ", " : "",
                                (long long)shape[i]);
    if (len < cap)
        snprintf(buf + len, cap - len, "]");
}

static bool more_given(val v)
{
    return v.kind != VAL_MISSING && v.kind != VAL_NONE;
}

/* ---- group_norm ---------------------------------------------------------------------- */

bool torch_gn_args(host *h, int argc, const val *all, const val_kwargs *kw, src_span at,
                   torch_gn *g)
{
    val a[5];
    if (!host_args(h, at, "group_norm", "input, num_groups, weight=, bias=, eps=", argc, all,
                   kw, a))
        return false;
    memset(g, 0, sizeof *g);
    g->eps = 1e-5;
    if (!(g->input = torch_tensor_arg(h, a[0], at, "group_norm", "input")) ||
        !torch_int_arg(h, a[1], at, "group_norm", "num_groups", &g->G) ||
        (more_given(a[2]) && !(g->weight = torch_tensor_arg(h, a[2], at, "group_norm",
                                                           "weight"))) ||
        (more_given(a[3]) && !(g->bias = torch_tensor_arg(h, a[3], at, "group_norm",
                                                         "bias"))) ||
        (more_given(a[4]) && !host_to_float(h, a[4], at, "argument 'eps'", &g->eps)))
        return false;
    const tensor *x = g->input;
    char xs[96], ws[96];
    more_shape_text(xs, sizeof xs, x->ndim, x->shape);
    if (x->ndim < 2) {
        host_error(h, at, "Expected at least 2 dimensions for input tensor but received %d",
                   x->ndim);
        return false;
    }
    if (!dtype_is_float(x->type)) {
        host_error(h, at, "\"native_group_norm\" not implemented for '%s'",
                   tensor_type_name(x->type));
        return false;
    }
    g->N = x->shape[0];
    g->C = x->shape[1];
    g->HW = 1;
    for (int i = 2; i < x->ndim; i++)
        g->HW *= x->shape[i];
    /* the Python side's _verify_batch_size([N * C // G, G, *spatial]) */
    if (g->G > 0 && g->N * g->C / g->G * g->HW == 1) {
        strbuf sb;
        strbuf_init(&sb);
        strbuf_printf(&sb, "[%lld, %lld", (long long)(g->N * g->C / g->G), (long long)g->G);
        for (int i = 2; i < x->ndim; i++)
            strbuf_printf(&sb, ", %lld", (long long)x->shape[i]);
        strbuf_putc(&sb, ']');
        host_raise(h, HOST_EXC_VALUE, at, "Expected more than 1 value per channel when "
                   "training, got input size %s", strbuf_cstr(&sb));
        strbuf_free(&sb);
        return false;
    }
    if (g->G <= 0 || g->C % g->G != 0) {
        host_error(h, at, "Expected number of channels in input to be divisible by num_groups, "
                   "but got input of shape %s and num_groups=%lld", xs, (long long)g->G);
        return false;
    }
    const tensor *wb[2] = {g->weight, g->bias};
    for (int i = 0; i < 2; i++) {
        if (!wb[i] || (wb[i]->ndim == 1 && wb[i]->shape[0] == g->C))
            continue;
        /* PyTorch 2.11's bias message shows the weight's shape ([0] without
         * one): reproduced as it prints it */
        const tensor *shown = i ? g->weight : wb[i];
        if (shown)
            more_shape_text(ws, sizeof ws, shown->ndim, shown->shape);
        else
            snprintf(ws, sizeof ws, "[0]");
        host_error(h, at, "Expected %s to be a vector of size equal to the number of channels "
                   "in input, but got %s of shape %s and input of shape %s",
                   i ? "bias" : "weight", i ? "bias" : "weight", ws, xs);
        return false;
    }
    return true;
}

/* A contiguous float64 copy of t, or NULL. */
static double *more_f64(const tensor *t, tensor **keep, char *err)
{
    *keep = tensor_to(t, DTYPE_FP64, t->cuda, err);
    return *keep ? tensor_data(*keep) : NULL;
}

/* Normalise x (N*G groups of M values, float64, in place): mean and rstd
 * of each group into mean[] and rstd[]. */
static void gn_groups(double *x, int64_t groups, int64_t M, double eps, double *mean,
                      double *rstd)
{
    for (int64_t k = 0; k < groups; k++) {
        double *v = x + k * M, s = 0, q = 0;
        for (int64_t i = 0; i < M; i++)
            s += v[i];
        double mu = M ? s / (double)M : 0;
        for (int64_t i = 0; i < M; i++)
            q += (v[i] - mu) * (v[i] - mu);
        double r = 1.0 / sqrt((M ? q / (double)M : 0) + eps);
        for (int64_t i = 0; i < M; i++)
            v[i] = (v[i] - mu) * r;
        mean[k] = mu;
        rstd[k] = r;
    }
}

tensor *torch_gn_forward(const torch_gn *g, char *err)
{
    const tensor *x = g->input;
    tensor *xk, *wk = NULL, *bk = NULL;
    double *xv = more_f64(x, &xk, err);
    double *wv = xv && g->weight ? more_f64(g->weight, &wk, err) : NULL;
    double *bv = xv && g->bias ? more_f64(g->bias, &bk, err) : NULL;
    tensor *y = NULL;
    if (xv && (!g->weight || wv) && (!g->bias || bv)) {
        int64_t groups = g->N * g->G, M = (g->C / g->G) * g->HW;
        double *mean = xmalloc((size_t)(groups ? groups : 1) * sizeof *mean);
        double *rstd = xmalloc((size_t)(groups ? groups : 1) * sizeof *rstd);
        gn_groups(xv, groups, M, g->eps, mean, rstd);
        for (int64_t n = 0; n < g->N; n++)
            for (int64_t c = 0; c < g->C; c++) {
                double *row = xv + (n * g->C + c) * g->HW;
                for (int64_t i = 0; i < g->HW; i++)
                    row[i] = row[i] * (wv ? wv[c] : 1.0) + (bv ? bv[c] : 0.0);
            }
        free(mean);
        free(rstd);
        y = tensor_to(xk, x->type, x->cuda, err);
    }
    tensor_unref(xk);
    tensor_unref(wk);
    tensor_unref(bk);
    return y;
}

/* A float64 array of shape like (same dims) in dtype t. */
static tensor *more_result(const double *data, const tensor *like, char *err)
{
    tensor *d = tensor_new(DTYPE_FP64, like->ndim, like->shape, like->cuda, err);
    if (!d)
        return NULL;
    memcpy(tensor_data(d), data, (size_t)tensor_numel(d) * sizeof(double));
    tensor *r = tensor_to(d, like->type, like->cuda, err);
    tensor_unref(d);
    return r;
}

bool torch_gn_backward(const torch_gn *g, const tensor *gy, tensor **gx, tensor **gw,
                       tensor **gb, char *err)
{
    const tensor *x = g->input;
    *gx = *gw = *gb = NULL;
    tensor *xk = NULL, *gk = NULL, *wk = NULL;
    tensor *gyb = tensor_broadcast_to(gy, x->ndim, x->shape, err);
    double *xv = gyb ? more_f64(x, &xk, err) : NULL;
    double *gv = xv ? more_f64(gyb, &gk, err) : NULL;
    double *wv = gv && g->weight ? more_f64(g->weight, &wk, err) : NULL;
    tensor_unref(gyb);
    if (!gyb)
        return false;
    bool ok = xv && gv && (!g->weight || wv);
    if (ok) {
        int64_t groups = g->N * g->G, CG = g->C / g->G, M = CG * g->HW;
        double *mean = xmalloc((size_t)(groups ? groups : 1) * sizeof *mean);
        double *rstd = xmalloc((size_t)(groups ? groups : 1) * sizeof *rstd);
        double *dw = xcalloc((size_t)(g->C ? g->C : 1), sizeof *dw);
        double *db = xcalloc((size_t)(g->C ? g->C : 1), sizeof *db);
        gn_groups(xv, groups, M, g->eps, mean, rstd);     /* xv is now xhat */
        for (int64_t k = 0; k < groups; k++) {
            double *xh = xv + k * M, *gr = gv + k * M, s1 = 0, s2 = 0;
            int64_t c0 = (k % g->G) * CG;
            for (int64_t i = 0; i < M; i++) {
                int64_t c = c0 + i / g->HW;
                double gwi = gr[i] * (wv ? wv[c] : 1.0);
                s1 += gwi;
                s2 += gwi * xh[i];
                dw[c] += gr[i] * xh[i];
                db[c] += gr[i];
            }
            s1 /= (double)(M ? M : 1);
            s2 /= (double)(M ? M : 1);
            for (int64_t i = 0; i < M; i++) {
                int64_t c = c0 + i / g->HW;
                gr[i] = rstd[k] * (gr[i] * (wv ? wv[c] : 1.0) - s1 - xh[i] * s2);
            }
        }
        *gx = more_result(gv, x, err);
        if (*gx && g->weight)
            *gw = more_result(dw, g->weight, err);
        if (*gx && g->bias)
            *gb = more_result(db, g->bias, err);
        ok = *gx && (!g->weight || *gw) && (!g->bias || *gb);
        free(mean);
        free(rstd);
        free(dw);
        free(db);
    }
    tensor_unref(xk);
    tensor_unref(gk);
    tensor_unref(wk);
    return ok;
}

/* F.group_norm(input, num_groups, weight=None, bias=None, eps=1e-05) */
MORE_FN(fn_group_norm)
{
    val all[TORCH_ARGS_MAX];
    int n = torch_self_args(self, argc, argv, all, TORCH_ARGS_MAX);
    torch_gn g;
    if (!torch_gn_args(h, n, all, kw, at, &g))
        return val_err();
    char err[TENSOR_ERR_LEN];
    return torch_result(h, at, torch_gn_forward(&g, err), err);
}

/* ---- binary_cross_entropy_with_logits ----------------------------------------------------- */

bool torch_bce_args(host *h, int argc, const val *all, const val_kwargs *kw, src_span at,
                    torch_bce *b)
{
    const char *fname = "binary_cross_entropy_with_logits";
    val a[7];
    if (!host_args(h, at, fname, "input, target, weight=, size_average=, reduce=, reduction=, "
                   "pos_weight=", argc, all, kw, a))
        return false;
    memset(b, 0, sizeof *b);
    if (!(b->input = torch_tensor_arg(h, a[0], at, fname, "input")) ||
        !(b->target = torch_tensor_arg(h, a[1], at, fname, "target")) ||
        (more_given(a[2]) && !(b->weight = torch_tensor_arg(h, a[2], at, fname, "weight"))) ||
        (more_given(a[6]) && !(b->pos_weight = torch_tensor_arg(h, a[6], at, fname,
                                                                "pos_weight"))) ||
        !torch_reduction_arg(h, a[5], a[3], a[4], at, false, &b->reduction))
        return false;
    const tensor *x = b->input, *y = b->target;
    bool same = x->ndim == y->ndim;
    for (int i = 0; same && i < x->ndim; i++)
        same = x->shape[i] == y->shape[i];
    if (!same) {
        char xs[96], ys[96];
        more_shape_text(xs, sizeof xs, x->ndim, x->shape);
        more_shape_text(ys, sizeof ys, y->ndim, y->shape);
        host_raise(h, HOST_EXC_VALUE, at, "Target size (torch.Size(%s)) must be the same as "
                   "input size (torch.Size(%s))", ys, xs);
        return false;
    }
    if (!dtype_is_float(x->type) || !dtype_is_float(y->type)) {
        host_error(h, at, "%s: input and target must be floating-point tensors", fname);
        return false;
    }
    return true;
}

/* The float64 elements of t broadcast to x's shape (kept in *keep), or of
 * ones when t is NULL (*keep NULL, returns NULL). */
static double *bce_operand(const tensor *t, const tensor *x, tensor **keep, bool *ok, char *err)
{
    *keep = NULL;
    if (!t)
        return NULL;
    tensor *bt = tensor_broadcast_to(t, x->ndim, x->shape, err);
    double *d = bt ? more_f64(bt, keep, err) : NULL;
    tensor_unref(bt);
    if (!d)
        *ok = false;
    return d;
}

/* Elementwise loss (per[i]) of the call, float64; false after an error. */
static bool bce_parts(const torch_bce *b, double **xv, double **yv, double **wv, double **pv,
                      tensor **keep, char *err)
{
    bool ok = true;
    *xv = more_f64(b->input, &keep[0], err);
    *yv = *xv ? more_f64(b->target, &keep[1], err) : NULL;
    ok = *xv && *yv;
    *wv = ok ? bce_operand(b->weight, b->input, &keep[2], &ok, err) : NULL;
    *pv = ok ? bce_operand(b->pos_weight, b->input, &keep[3], &ok, err) : NULL;
    return ok;
}

tensor *torch_bce_forward(const torch_bce *b, char *err)
{
    tensor *keep[4] = {NULL, NULL, NULL, NULL};
    double *xv, *yv, *wv, *pv;
    tensor *r = NULL;
    if (bce_parts(b, &xv, &yv, &wv, &pv, keep, err)) {
        int64_t n = tensor_numel(b->input);
        double sum = 0;
        for (int64_t i = 0; i < n; i++) {
            /* (1 - y) x + (1 + (pw - 1) y) (log1p(exp(-|x|)) + max(-x, 0)) */
            double x = xv[i], y = yv[i];
            double lw = pv ? 1 + (pv[i] - 1) * y : 1;
            double l = (1 - y) * x + lw * (log1p(exp(-fabs(x))) + (x < 0 ? -x : 0));
            if (wv)
                l *= wv[i];
            xv[i] = l;
            sum += l;
        }
        if (b->reduction == TORCH_RED_NONE) {
            r = more_result(xv, b->input, err);
        } else {
            if (b->reduction == TORCH_RED_MEAN)
                sum /= (double)n;      /* 0 elements: nan, as PyTorch */
            tensor *s = tensor_new(DTYPE_FP64, 0, NULL, b->input->cuda, err);
            if (s) {
                *(double *)tensor_data(s) = sum;
                r = tensor_to(s, b->input->type, b->input->cuda, err);
                tensor_unref(s);
            }
        }
    }
    for (int i = 0; i < 4; i++)
        tensor_unref(keep[i]);
    return r;
}

bool torch_bce_backward(const torch_bce *b, const tensor *g, tensor **gx, tensor **gy,
                        char *err)
{
    *gx = *gy = NULL;
    tensor *keep[4] = {NULL, NULL, NULL, NULL}, *gk = NULL;
    double *xv, *yv, *wv, *pv, *gv = NULL;
    bool ok = bce_parts(b, &xv, &yv, &wv, &pv, keep, err);
    int64_t n = tensor_numel(b->input);
    if (ok) {
        tensor *gb = tensor_broadcast_to(g, b->input->ndim, b->input->shape, err);
        gv = gb ? more_f64(gb, &gk, err) : NULL;
        tensor_unref(gb);
        ok = gv != NULL;
    }
    if (ok) {
        double scale = b->reduction == TORCH_RED_MEAN ? 1.0 / (double)(n ? n : 1) : 1.0;
        for (int64_t i = 0; i < n; i++) {
            double x = xv[i], y = yv[i], pw = pv ? pv[i] : 1, w = (wv ? wv[i] : 1) * gv[i] *
                                                                  scale;
            double sp = log1p(exp(-fabs(x))) + (x < 0 ? -x : 0);     /* softplus(-x) */
            double sig = x >= 0 ? 1 / (1 + exp(-x)) : exp(x) / (1 + exp(x));
            double lw = 1 + (pw - 1) * y;
            xv[i] = (lw * sig - pw * y) * w;
            yv[i] = (-x + (pw - 1) * sp) * w;
        }
        *gx = more_result(xv, b->input, err);
        *gy = *gx ? more_result(yv, b->target, err) : NULL;
        ok = *gx && *gy;
    }
    for (int i = 0; i < 4; i++)
        tensor_unref(keep[i]);
    tensor_unref(gk);
    return ok;
}

/* F.binary_cross_entropy_with_logits(input, target, weight=None,
 * size_average=None, reduce=None, reduction='mean', pos_weight=None) */
MORE_FN(fn_bce_with_logits)
{
    val all[TORCH_ARGS_MAX];
    int n = torch_self_args(self, argc, argv, all, TORCH_ARGS_MAX);
    torch_bce b;
    if (!torch_bce_args(h, n, all, kw, at, &b))
        return val_err();
    char err[TENSOR_ERR_LEN];
    return torch_result(h, at, torch_bce_forward(&b, err), err);
}

/* ---- compositions of torch operations ----------------------------------------------------- */

/* torch.<name>(args...) through its function value (recorded by autograd). */
static val more_call(host *h, const char *name, int argc, const val *argv,
                     const val_kwargs *kw, src_span at)
{
    return host_call_method(h, host_module(h, "torch"), name, argc, argv, kw, at);
}

/* F.linear(input, weight, bias=None) = input @ weight.t() + bias */
MORE_FN(fn_linear)
{
    val a[3];
    TORCH_READ_ARGS("linear", "input, weight, bias=", a);
    (void)t;
    if (!torch_tensor_arg(h, a[1], at, "linear", "weight") ||
        (more_given(a[2]) && !torch_tensor_arg(h, a[2], at, "linear", "bias")))
        return val_err();
    val wt = more_call(h, "t", 1, &a[1], NULL, at);
    if (wt.kind == VAL_ERR)
        return wt;
    val y = host_binop(h, AST_OP_MATMUL, a[0], wt, at);
    val_unref(wt);
    if (y.kind == VAL_ERR || !more_given(a[2]))
        return y;
    val r = host_binop(h, AST_OP_ADD, y, a[2], at);
    val_unref(y);
    return r;
}

/* The loss per element reduced as reduction= says (stealing l). */
static val more_reduce(host *h, val l, int red, src_span at)
{
    if (l.kind == VAL_ERR || red == TORCH_RED_NONE)
        return l;
    val r = more_call(h, red == TORCH_RED_SUM ? "sum" : "mean", 1, &l, NULL, at);
    val_unref(l);
    return r;
}

/* F.l1_loss(input, target, size_average=None, reduce=None, reduction='mean') */
MORE_FN(fn_l1_loss)
{
    val a[5];
    TORCH_READ_ARGS("l1_loss", "input, target, size_average=, reduce=, reduction=", a);
    (void)t;
    int red;
    if (!torch_tensor_arg(h, a[1], at, "l1_loss", "target") ||
        !torch_reduction_arg(h, a[4], a[2], a[3], at, false, &red))
        return val_err();
    val d = host_binop(h, AST_OP_SUB, a[0], a[1], at);
    if (d.kind == VAL_ERR)
        return d;
    val l = more_call(h, "abs", 1, &d, NULL, at);
    val_unref(d);
    return more_reduce(h, l, red, at);
}

/* F.smooth_l1_loss(input, target, size_average=None, reduce=None,
 * reduction='mean', beta=1.0): |d| < beta ? 0.5 d^2 / beta : |d| - beta/2 */
MORE_FN(fn_smooth_l1_loss)
{
    val a[6];
    TORCH_READ_ARGS("smooth_l1_loss", "input, target, size_average=, reduce=, reduction=, beta=",
                    a);
    (void)t;
    int red;
    double beta = 1.0;
    if (!torch_tensor_arg(h, a[1], at, "smooth_l1_loss", "target") ||
        !torch_reduction_arg(h, a[4], a[2], a[3], at, false, &red) ||
        (more_given(a[5]) && !host_to_float(h, a[5], at, "argument 'beta'", &beta)))
        return val_err();
    if (beta < 0)
        return host_error(h, at, "smooth_l1_loss does not support negative values for beta.");
    val d = host_binop(h, AST_OP_SUB, a[0], a[1], at);
    val ad = d.kind == VAL_ERR ? d : more_call(h, "abs", 1, &d, NULL, at);
    if (ad.kind == VAL_ERR || beta == 0) {
        val_unref(d);
        return more_reduce(h, ad, red, at);
    }
    /* where(|d| < beta, 0.5 * d * d / beta, |d| - 0.5 * beta) */
    val cond = host_binop(h, AST_OP_LT, ad, val_float(beta), at);
    val sq = cond.kind == VAL_ERR ? cond : host_binop(h, AST_OP_MUL, d, d, at);
    val q = sq.kind == VAL_ERR ? sq : host_binop(h, AST_OP_MUL, sq, val_float(0.5 / beta), at);
    val lin = q.kind == VAL_ERR ? q : host_binop(h, AST_OP_SUB, ad, val_float(0.5 * beta), at);
    val l = lin;
    if (lin.kind != VAL_ERR) {
        val args[3] = {cond, q, lin};
        l = more_call(h, "where", 3, args, NULL, at);
        val_unref(lin);
    }
    val_unref(d);
    val_unref(ad);
    if (cond.kind != VAL_ERR)
        val_unref(cond);
    if (sq.kind != VAL_ERR)
        val_unref(sq);
    if (q.kind != VAL_ERR)
        val_unref(q);
    return more_reduce(h, l, red, at);
}

/* torch.lerp(input, end, weight) = input + weight * (end - input), as
 * PyTorch computes it for |weight| < 0.5, and end - (end - input) * (1 -
 * weight) otherwise (weight a number or a tensor) */
MORE_FN(fn_lerp)
{
    val a[3];
    TORCH_READ_ARGS("lerp", "input, end, weight", a);
    (void)t;
    if (!torch_tensor_arg(h, a[1], at, "lerp", "end"))
        return val_err();
    double w;
    bool low = true;
    if (a[2].kind == VAL_INT || a[2].kind == VAL_FLOAT || a[2].kind == VAL_BOOL) {
        if (!host_to_float(h, a[2], at, "argument 'weight'", &w))
            return val_err();
        low = fabs(w) < 0.5;
    } else if (!torch_tensor_arg(h, a[2], at, "lerp", "weight")) {
        return val_err();
    }
    val d = host_binop(h, AST_OP_SUB, a[1], a[0], at);
    if (d.kind == VAL_ERR)
        return d;
    val r;
    if (low || tensor_of(a[2])) {
        /* a tensor weight: the low formula for every element (within
         * rounding of PyTorch's choice per element) */
        val p = host_binop(h, AST_OP_MUL, a[2], d, at);
        r = p.kind == VAL_ERR ? p : host_binop(h, AST_OP_ADD, a[0], p, at);
        if (p.kind != VAL_ERR)
            val_unref(p);
    } else {
        val p = host_binop(h, AST_OP_MUL, d, val_float(1.0 - w), at);
        r = p.kind == VAL_ERR ? p : host_binop(h, AST_OP_SUB, a[1], p, at);
        if (p.kind != VAL_ERR)
            val_unref(p);
    }
    val_unref(d);
    return r;
}

/* Compositions are not recorded as one node: their pieces are. */
#define MORE_COMPOSED(n, f) {n, f, NULL, NULL, "torch.nn.functional." n, TORCH_AG_NONE}

const torch_fn torch_nnmore_fns[] = {
    TORCH_NNF("group_norm", fn_group_norm),
    TORCH_NNF("binary_cross_entropy_with_logits", fn_bce_with_logits),
    MORE_COMPOSED("linear", fn_linear),
    MORE_COMPOSED("l1_loss", fn_l1_loss),
    MORE_COMPOSED("smooth_l1_loss", fn_smooth_l1_loss),
    {"lerp", fn_lerp, "torch.lerp", "Tensor.lerp", NULL, TORCH_AG_NONE},
    {NULL, NULL, NULL, NULL, NULL, 0},
};
