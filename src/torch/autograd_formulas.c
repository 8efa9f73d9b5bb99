/* autograd_formulas.c - the first backward formulas of autograd (add,
 * sub, mul, div, neg, sum, mean, matmul/mm/bmm, relu, exp, the copies and
 * conversions, reshape/view, layer_norm) and the helpers the formulas of
 * autograd_ops.c and autograd_nn.c share (autograd_impl.h). */
#include "autograd_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tensor_loops.h"
#include "tensor_par.h"
#include "torch_impl.h"

tensor *ag_f64(const tensor *t, char *err)
{
    return tensor_to(t, DTYPE_FP64, t->cuda, err);
}

tensor *ag_from_f64(const double *d, const ag_meta *m, char *err)
{
    tensor *t = tensor_new(DTYPE_FP64, m->ndim, m->shape, m->cuda, err);
    if (!t)
        return NULL;
    memcpy(tensor_data(t), d, (size_t)tensor_numel(t) * sizeof *d);
    if (m->type == DTYPE_FP64)
        return t;
    tensor *r = tensor_to(t, m->type, m->cuda, err);
    tensor_unref(t);
    return r;
}

/* ---- tensor helpers of the formulas ---------------------------------------------- */

/* g summed over the dimensions it was broadcast along, so that it has
 * meta's shape, and converted to meta's dtype. */
tensor *ag_reduce_to(const tensor *g, const ag_meta *m, char *err)
{
    tensor *cur = tensor_ref((tensor *)g);
    int64_t dims[TENSOR_MAX_DIMS];
    int lead = cur->ndim - m->ndim;
    if (lead > 0) {
        for (int i = 0; i < lead; i++)
            dims[i] = i;
        tensor *r = tensor_reduce(TENSOR_SUM, cur, lead, dims, false, DTYPE_INVALID, err);
        tensor_unref(cur);
        if (!(cur = r))
            return NULL;
    }
    int nd = 0;
    for (int i = 0; i < m->ndim && i < cur->ndim; i++)
        if (m->shape[i] == 1 && cur->shape[i] != 1)
            dims[nd++] = i;
    if (nd) {
        tensor *r = tensor_reduce(TENSOR_SUM, cur, nd, dims, true, DTYPE_INVALID, err);
        tensor_unref(cur);
        if (!(cur = r))
            return NULL;
    }
    bool same = cur->ndim == m->ndim;
    for (int i = 0; same && i < m->ndim; i++)
        same = cur->shape[i] == m->shape[i];
    if (!same) {
        tensor_unref(cur);
        tensor_err(err, "autograd: a gradient's shape does not match its input's");
        return NULL;
    }
    if (cur->type != m->type) {
        tensor *r = tensor_to(cur, m->type, m->cuda, err);
        tensor_unref(cur);
        cur = r;
    }
    return cur;
}

/* g broadcast to meta's shape (a new contiguous tensor of its dtype). */
tensor *ag_expand_to(const tensor *g, const ag_meta *m, char *err)
{
    tensor *b = tensor_broadcast_to(g, m->ndim, m->shape, err);
    if (!b)
        return NULL;
    tensor *r = tensor_to(b, m->type, m->cuda, err);
    tensor_unref(b);
    return r;
}

static tensor *ag_op2(tensor_binop op, tensor_operand a, tensor_operand b, char *err)
{
    return tensor_binary(op, a, b, err);
}

/* ---- formulas ------------------------------------------------------------------- */

/* add(input, other, alpha=), sub: other's grad is alpha * g (negated) */
static bool rec_add(host *h, ag_node *n, int argc, const val *all, const val_kwargs *kw,
                    val result, src_span at)
{
    (void)result;
    ag_inputs(n, 2);
    ag_input(n, 0, all[0]);
    ag_input(n, 1, ag_arg(argc, all, kw, 1, "other"));
    val alpha = ag_arg(argc, all, kw, 2, "alpha");
    if (ag_present(alpha) && !host_to_float(h, alpha, at, "alpha", &n->scalar))
        return false;
    return true;
}

static bool bw_add_sub(ag_node *n, const tensor *g, tensor **gin, char *err, bool sub)
{
    if (n->next[0].kind != VAL_NONE && !(gin[0] = ag_reduce_to(g, &n->meta[0], err)))
        return false;
    if (n->next[1].kind != VAL_NONE) {
        double k = sub ? -n->scalar : n->scalar;
        tensor *s = k == 1 ? tensor_ref((tensor *)g)
                           : ag_op2(TENSOR_MUL, tensor_operand_of(g), tensor_operand_float(k), err);
        if (!s)
            return false;
        gin[1] = ag_reduce_to(s, &n->meta[1], err);
        tensor_unref(s);
        if (!gin[1])
            return false;
    }
    return true;
}

static bool bw_add(host *h, ag_node *n, const tensor *g, tensor **gin, char *err)
{
    (void)h;
    return bw_add_sub(n, g, gin, err, false);
}

static bool bw_sub(host *h, ag_node *n, const tensor *g, tensor **gin, char *err)
{
    (void)h;
    return bw_add_sub(n, g, gin, err, true);
}

/* mul(input, other), div(input, other): both kept (numbers or tensors) */
static bool bw_mul(host *h, ag_node *n, const tensor *g, tensor **gin, char *err);
static bool bw_div(host *h, ag_node *n, const tensor *g, tensor **gin, char *err);

bool ag_rec_two(host *h, ag_node *n, int argc, const val *all, const val_kwargs *kw,
                val result, src_span at)
{
    (void)h;
    (void)result;
    (void)at;
    val other = ag_arg(argc, all, kw, 1, "other");
    ag_inputs(n, 2);
    ag_input(n, 0, all[0]);
    ag_input(n, 1, other);
    n->saved[0] = ag_detached(all[0]);
    n->saved[1] = ag_detached(other);
    /* a product's backward reads one operand for the other's gradient,
     * a quotient's reads the dividend for the divisor's only */
    bool product = n->f->backward == bw_mul || n->f->backward == ag_bw_matmul;
    bool quotient = n->f->backward == bw_div;
    for (int k = 0; k < 2; k++)
        if ((product || (quotient && k == 0)) && n->next[1 - k].kind == VAL_NONE)
            n->saved_unread |= 1u << k;
    return true;
}

static bool bw_mul(host *h, ag_node *n, const tensor *g, tensor **gin, char *err)
{
    (void)h;
    tensor_operand a, b;
    if (!torch_operand(n->saved[0], &a) || !torch_operand(n->saved[1], &b)) {
        tensor_err(err, "autograd: mul of operands that are not numbers or tensors");
        return false;
    }
    for (int i = 0; i < 2; i++) {
        if (n->next[i].kind == VAL_NONE)
            continue;
        tensor *p = ag_op2(TENSOR_MUL, tensor_operand_of(g), i ? a : b, err);
        gin[i] = p ? ag_reduce_to(p, &n->meta[i], err) : NULL;
        tensor_unref(p);
        if (!gin[i])
            return false;
    }
    return true;
}

static bool bw_div(host *h, ag_node *n, const tensor *g, tensor **gin, char *err)
{
    (void)h;
    tensor_operand a, b;
    if (!torch_operand(n->saved[0], &a) || !torch_operand(n->saved[1], &b)) {
        tensor_err(err, "autograd: div of operands that are not numbers or tensors");
        return false;
    }
    tensor *q = ag_op2(TENSOR_DIV, tensor_operand_of(g), b, err);   /* g / b */
    if (!q)
        return false;
    bool ok = true;
    if (n->next[0].kind != VAL_NONE)
        ok = (gin[0] = ag_reduce_to(q, &n->meta[0], err)) != NULL;
    if (ok && n->next[1].kind != VAL_NONE) {
        /* -g * a / b^2 = -(g / b) * a / b */
        tensor *t1 = ag_op2(TENSOR_MUL, tensor_operand_of(q), a, err);
        tensor *t2 = t1 ? ag_op2(TENSOR_DIV, tensor_operand_of(t1), b, err) : NULL;
        tensor *t3 = t2 ? tensor_unary(TENSOR_NEG, t2, err) : NULL;
        gin[1] = t3 ? ag_reduce_to(t3, &n->meta[1], err) : NULL;
        tensor_unref(t1);
        tensor_unref(t2);
        tensor_unref(t3);
        ok = gin[1] != NULL;
    }
    tensor_unref(q);
    return ok;
}

/* one input, nothing kept (neg, to, clone, reshape, ...) */
bool ag_rec_one(host *h, ag_node *n, int argc, const val *all, const val_kwargs *kw,
                    val result, src_span at)
{
    (void)h;
    (void)argc;
    (void)kw;
    (void)result;
    (void)at;
    ag_inputs(n, 1);
    ag_input(n, 0, all[0]);
    return true;
}

static bool bw_neg(host *h, ag_node *n, const tensor *g, tensor **gin, char *err)
{
    (void)h;
    tensor *m = tensor_unary(TENSOR_NEG, g, err);
    gin[0] = m ? ag_reduce_to(m, &n->meta[0], err) : NULL;
    tensor_unref(m);
    return gin[0] != NULL;
}

/* to(dtype), float(), clone(), contiguous(): the same grad, in the
 * input's dtype */
static bool bw_same(host *h, ag_node *n, const tensor *g, tensor **gin, char *err)
{
    (void)h;
    gin[0] = ag_reduce_to(g, &n->meta[0], err);
    return gin[0] != NULL;
}

static bool bw_reshape(host *h, ag_node *n, const tensor *g, tensor **gin, char *err)
{
    (void)h;
    tensor *r = tensor_reshape(g, n->meta[0].ndim, n->meta[0].shape, err);
    gin[0] = r ? ag_reduce_to(r, &n->meta[0], err) : NULL;
    tensor_unref(r);
    return gin[0] != NULL;
}

/* relu keeps its input; exp its output */
bool ag_rec_keep_input(host *h, ag_node *n, int argc, const val *all,
                           const val_kwargs *kw, val result, src_span at)
{
    ag_rec_one(h, n, argc, all, kw, result, at);
    n->saved[0] = ag_detached(all[0]);
    return true;
}

bool ag_rec_keep_output(host *h, ag_node *n, int argc, const val *all,
                            const val_kwargs *kw, val result, src_span at)
{
    ag_rec_one(h, n, argc, all, kw, result, at);
    n->saved[0] = ag_detached(result);
    return true;
}

static bool bw_relu(host *h, ag_node *n, const tensor *g, tensor **gin, char *err)
{
    (void)h;
    tensor *x = tensor_of(n->saved[0]);
    tensor *pos = ag_op2(TENSOR_GT, tensor_operand_of(x), tensor_operand_int(0), err);
    tensor *r = pos ? tensor_where(pos, tensor_operand_of(g), tensor_operand_float(0), err) : NULL;
    gin[0] = r ? ag_reduce_to(r, &n->meta[0], err) : NULL;
    tensor_unref(pos);
    tensor_unref(r);
    return gin[0] != NULL;
}

static bool bw_exp(host *h, ag_node *n, const tensor *g, tensor **gin, char *err)
{
    (void)h;
    tensor *y = tensor_of(n->saved[0]);
    tensor *r = ag_op2(TENSOR_MUL, tensor_operand_of(g), tensor_operand_of(y), err);
    gin[0] = r ? ag_reduce_to(r, &n->meta[0], err) : NULL;
    tensor_unref(r);
    return gin[0] != NULL;
}

/* sum(input, dim=None, keepdim=False), mean */
static bool rec_reduce(host *h, ag_node *n, int argc, const val *all, const val_kwargs *kw,
                       val result, src_span at)
{
    (void)result;
    ag_rec_one(h, n, argc, all, kw, result, at);
    val dim = ag_arg(argc, all, kw, 1, "dim");
    if (dim.kind == VAL_MISSING)
        dim = ag_arg(0, all, kw, 99, "axis");
    val keep = ag_arg(argc, all, kw, 2, "keepdim");
    n->all_dims = !ag_present(dim);
    if (!n->all_dims && !torch_int_list(h, dim, at, n->op, "dim", &n->ndims, n->dims,
                                        TENSOR_MAX_DIMS))
        return false;
    if (ag_present(keep) && !torch_bool_arg(h, keep, at, n->op, "keepdim", &n->keepdim))
        return false;
    int nd = tensor_of(all[0])->ndim;
    for (int i = 0; i < n->ndims; i++) {
        int d;
        char err[TENSOR_ERR_LEN];
        if (!tensor_wrap_dim(nd, n->dims[i], &d, err))
            return torch_fail(h, at, err).kind != VAL_ERR;
        n->dims[i] = d;
    }
    if (n->ndims == 0 && !n->all_dims)
        n->all_dims = true;   /* sum(x, dim=()) sums everything */
    return true;
}

static bool bw_sum_mean(ag_node *n, const tensor *g, tensor **gin, char *err, bool mean)
{
    const ag_meta *m = &n->meta[0];
    tensor *cur = tensor_ref((tensor *)g);
    if (!n->all_dims && !n->keepdim) {
        /* put the summed dimensions back, in increasing order */
        int64_t d[TENSOR_MAX_DIMS];
        int k = n->ndims;
        memcpy(d, n->dims, (size_t)k * sizeof *d);
        for (int i = 1; i < k; i++)
            for (int j = i; j > 0 && d[j - 1] > d[j]; j--) {
                int64_t t = d[j];
                d[j] = d[j - 1];
                d[j - 1] = t;
            }
        for (int i = 0; i < k; i++) {
            tensor *u = tensor_unsqueeze(cur, d[i], err);
            tensor_unref(cur);
            if (!(cur = u))
                return false;
        }
    } else if (n->all_dims && n->keepdim == false && cur->ndim != 0) {
        /* sum() of everything is 0-d; nothing to put back */
    }
    tensor *r = ag_expand_to(cur, m, err);
    tensor_unref(cur);
    if (!r)
        return false;
    if (mean) {
        int64_t total = 1, kept = 1;
        for (int i = 0; i < m->ndim; i++)
            total *= m->shape[i];
        for (int i = 0; i < n->out.ndim; i++)
            kept *= n->out.shape[i];
        double count = kept ? (double)total / (double)kept : 1;
        tensor *q = ag_op2(TENSOR_DIV, tensor_operand_of(r), tensor_operand_float(count), err);
        tensor_unref(r);
        if (!(r = q))
            return false;
    }
    gin[0] = r;
    return true;
}

static bool bw_sum(host *h, ag_node *n, const tensor *g, tensor **gin, char *err)
{
    (void)h;
    return bw_sum_mean(n, g, gin, err, false);
}

static bool bw_mean(host *h, ag_node *n, const tensor *g, tensor **gin, char *err)
{
    (void)h;
    return bw_sum_mean(n, g, gin, err, true);
}

/* matmul(a, b): ga = g @ b^T, gb = a^T @ g, with 1-D operands as a row
 * (a) or a column (b), summed over broadcast batch dimensions. */
bool ag_bw_matmul(host *h, ag_node *n, const tensor *g, tensor **gin, char *err)
{
    (void)h;
    tensor *a = tensor_of(n->saved[0]), *b = tensor_of(n->saved[1]);
    if (!a || !b) {
        tensor_err(err, "autograd: matmul of operands that are not tensors");
        return false;
    }
    tensor *A = tensor_ref(a), *B = tensor_ref(b), *G = tensor_ref((tensor *)g);
    bool ok = true;
    if (a->ndim == 1) {
        tensor *x = tensor_unsqueeze(A, 0, err);
        tensor *y = x ? tensor_unsqueeze(G, G->ndim == 0 ? 0 : G->ndim - 1, err) : NULL;
        tensor_unref(A);
        tensor_unref(G);
        A = x;
        G = y;
        ok = A && G;
    }
    if (ok && b->ndim == 1) {
        tensor *x = tensor_unsqueeze(B, 1, err);
        tensor *y = x ? tensor_unsqueeze(G, G->ndim, err) : NULL;
        tensor_unref(B);
        tensor_unref(G);
        B = x;
        G = y;
        ok = B && G;
    }
    for (int i = 0; ok && i < 2; i++) {
        if (n->next[i].kind == VAL_NONE)
            continue;
        tensor *tr = tensor_transpose(i ? A : B, -2, -1, err);
        tensor *p = tr ? (i ? tensor_matmul(tr, G, err) : tensor_matmul(G, tr, err)) : NULL;
        tensor_unref(tr);
        if (p && (i ? b : a)->ndim == 1) {
            /* back to the 1-D operand's shape */
            tensor *s = tensor_squeeze(p, false, i ? -1 : -2, err);
            tensor_unref(p);
            p = s;
        }
        gin[i] = p ? ag_reduce_to(p, &n->meta[i], err) : NULL;
        tensor_unref(p);
        ok = gin[i] != NULL;
    }
    tensor_unref(A);
    tensor_unref(B);
    tensor_unref(G);
    return ok;
}

/* layer_norm(input, normalized_shape, weight, bias, eps) */
static bool rec_layer_norm(host *h, ag_node *n, int argc, const val *all,
                           const val_kwargs *kw, val result, src_span at)
{
    (void)result;
    val shape = ag_arg(argc, all, kw, 1, "normalized_shape");
    val w = ag_arg(argc, all, kw, 2, "weight"), b = ag_arg(argc, all, kw, 3, "bias");
    val eps = ag_arg(argc, all, kw, 4, "eps");
    n->scalar = 1e-5;
    if (!torch_int_list(h, shape, at, "layer_norm", "normalized_shape", &n->ndims, n->dims,
                        TENSOR_MAX_DIMS) ||
        (ag_present(eps) && !host_to_float(h, eps, at, "eps", &n->scalar)))
        return false;
    ag_inputs(n, 3);
    ag_input(n, 0, all[0]);
    n->saved[0] = ag_detached(all[0]);
    if (ag_present(w)) {
        ag_input(n, 1, w);
        n->saved[1] = ag_detached(w);
    }
    if (ag_present(b)) {
        ag_input(n, 2, b);
        n->saved[2] = ag_detached(b);
    }
    return true;
}

/* One row of C elements of x and g in work's precision: xhat = (x - mean)
 * * rstd, wdy = g * w; dx = rstd * (wdy - mean(wdy) - xhat * mean(wdy *
 * xhat)); the row's mean and rstd go to *mean_out and *rstd_out for the
 * sums over rows (AG_LAYER_NORM_COLS). */
#define AG_LAYER_NORM_ROW(T)                                                               \
    static void ag_layer_norm_row_##T(const T *xr, const T *gr, const T *w, T *dxr,        \
                                      int64_t C, double eps, double *mean_out,             \
                                      double *rstd_out)                                    \
    {                                                                                      \
        double s = 0, v = 0;                                                               \
        for (int64_t c = 0; c < C; c++)                                                    \
            s += xr[c];                                                                    \
        double mean = s / (double)C;                                                       \
        for (int64_t c = 0; c < C; c++)                                                    \
            v += (xr[c] - mean) * (xr[c] - mean);                                          \
        double rstd = 1.0 / sqrt(v / (double)C + eps);                                     \
        *mean_out = mean;                                                                  \
        *rstd_out = rstd;                                                                  \
        if (!dxr)                                                                          \
            return;                                                                        \
        double s1 = 0, s2 = 0;                                                             \
        for (int64_t c = 0; c < C; c++) {                                                  \
            double xh = (xr[c] - mean) * rstd, wdy = gr[c] * (w ? w[c] : 1.0);             \
            s1 += wdy;                                                                     \
            s2 += wdy * xh;                                                                \
        }                                                                                  \
        for (int64_t c = 0; c < C; c++) {                                                  \
            double xh = (xr[c] - mean) * rstd, wdy = gr[c] * (w ? w[c] : 1.0);             \
            dxr[c] = (T)(rstd * (wdy - (s1 + xh * s2) / (double)C));                       \
        }                                                                                  \
    }
AG_LAYER_NORM_ROW(float)
AG_LAYER_NORM_ROW(double)

/* Two float32 rows a and b at once, each with the operations of
 * ag_layer_norm_row_float in the same order (the same bits): every sum
 * is a chain of dependent additions, and two independent chains in one
 * loop run about twice as fast as one. */
static void ag_layer_norm_row2_float(const float *xa, const float *ga, const float *xb,
                                     const float *gb, const float *w, float *dxa, float *dxb,
                                     int64_t C, double eps, double *mean_out, double *rstd_out)
{
    double sa = 0, sb = 0, va = 0, vb = 0;
    for (int64_t c = 0; c < C; c++) {
        sa += xa[c];
        sb += xb[c];
    }
    double ma = sa / (double)C, mb = sb / (double)C;
    for (int64_t c = 0; c < C; c++) {
        va += (xa[c] - ma) * (xa[c] - ma);
        vb += (xb[c] - mb) * (xb[c] - mb);
    }
    double ra = 1.0 / sqrt(va / (double)C + eps), rb = 1.0 / sqrt(vb / (double)C + eps);
    mean_out[0] = ma, mean_out[1] = mb;
    rstd_out[0] = ra, rstd_out[1] = rb;
    double s1a = 0, s2a = 0, s1b = 0, s2b = 0;
    for (int64_t c = 0; c < C; c++) {
        double wc = w ? w[c] : 1.0;
        double xha = (xa[c] - ma) * ra, wdya = ga[c] * wc;
        double xhb = (xb[c] - mb) * rb, wdyb = gb[c] * wc;
        s1a += wdya;
        s2a += wdya * xha;
        s1b += wdyb;
        s2b += wdyb * xhb;
    }
    for (int64_t c = 0; c < C; c++) {
        double wc = w ? w[c] : 1.0;
        double xha = (xa[c] - ma) * ra, wdya = ga[c] * wc;
        double xhb = (xb[c] - mb) * rb, wdyb = gb[c] * wc;
        dxa[c] = (float)(ra * (wdya - (s1a + xha * s2a) / (double)C));
        dxb[c] = (float)(rb * (wdyb - (s1b + xhb * s2b) / (double)C));
    }
}

/* Four float32 rows at once (row k at x + k P, g + k P, dx + k P), each
 * with the operations of ag_layer_norm_row_float in the same order (the
 * same bits): the lanes of a vector of four doubles are the four rows, so
 * that one vector addition advances four chains of dependent additions. */
typedef double ln_v4 __attribute__((vector_size(32)));

/* Column c of the four rows of p (a macro: a function returning the
 * vector would change the ABI without AVX) */
#define ln_gather4(p, C, c) ((ln_v4){(p)[c], (p)[(C) + (c)], (p)[2 * (C) + (c)], (p)[3 * (C) + (c)]})

#if defined(__x86_64__) && defined(__GNUC__)
#define LN_ROW4 1
/* The last pass of four rows: dx from their means m, rstds r and the
 * sums s1, s2 of the pass before (vectors by address, as ln_gather4 is a
 * macro: the same ABI with and without AVX). */
__attribute__((target("avx2")))
static inline void ln_dx4(const float *x, const float *g, const float *w, float *dx, int64_t C,
                          int64_t P, const ln_v4 *m, const ln_v4 *r, const ln_v4 *s1,
                          const ln_v4 *s2)
{
    for (int64_t c = 0; c < C; c++) {
        double wc = w ? w[c] : 1.0;
        ln_v4 xh = (ln_gather4(x, P, c) - *m) * *r, wdy = ln_gather4(g, P, c) * wc;
        ln_v4 d = *r * (wdy - (*s1 + xh * *s2) / (double)C);
        for (int k = 0; k < 4; k++)
            dx[k * P + c] = (float)d[k];
    }
}

__attribute__((target("avx2")))
static void ag_layer_norm_row4_float(const float *x, const float *g, const float *w, float *dx,
                                     int64_t C, int64_t P, double eps, double *mean_out,
                                     double *rstd_out)
{
    ln_v4 s = {0, 0, 0, 0}, v = {0, 0, 0, 0}, s1 = {0, 0, 0, 0}, s2 = {0, 0, 0, 0};
    for (int64_t c = 0; c < C; c++)
        s += ln_gather4(x, P, c);
    ln_v4 m = s / (double)C;
    for (int64_t c = 0; c < C; c++) {
        ln_v4 d = ln_gather4(x, P, c) - m;
        v += d * d;
    }
    ln_v4 r;
    for (int k = 0; k < 4; k++) {
        r[k] = 1.0 / sqrt(v[k] / (double)C + eps);
        mean_out[k] = m[k];
        rstd_out[k] = r[k];
    }
    for (int64_t c = 0; c < C; c++) {
        double wc = w ? w[c] : 1.0;
        ln_v4 xh = (ln_gather4(x, P, c) - m) * r, wdy = ln_gather4(g, P, c) * wc;
        s1 += wdy;
        s2 += wdy * xh;
    }
    ln_dx4(x, g, w, dx, C, P, &m, &r, &s1, &s2);
}

/* Eight rows: ag_layer_norm_row4_float's work for rows 0-3 and 4-7
 * side by side, two independent vectors of chains per sum (a fifth less
 * time than four rows, once the rows were apart in the cache's sets;
 * before, eight rows thrashed them and were slower). */
__attribute__((target("avx2")))
static void ag_layer_norm_row8_float(const float *x, const float *g, const float *w, float *dx,
                                     int64_t C, int64_t P, double eps, double *mean_out,
                                     double *rstd_out)
{
    const float *xb = x + 4 * P, *gb = g + 4 * P;
    float *dxb = dx + 4 * P;
    ln_v4 sa = {0, 0, 0, 0}, va = {0, 0, 0, 0}, s1a = {0, 0, 0, 0}, s2a = {0, 0, 0, 0};
    ln_v4 sb = {0, 0, 0, 0}, vb = {0, 0, 0, 0}, s1b = {0, 0, 0, 0}, s2b = {0, 0, 0, 0};
    for (int64_t c = 0; c < C; c++) {
        sa += ln_gather4(x, P, c);
        sb += ln_gather4(xb, P, c);
    }
    ln_v4 ma = sa / (double)C, mb = sb / (double)C;
    for (int64_t c = 0; c < C; c++) {
        ln_v4 da = ln_gather4(x, P, c) - ma, db = ln_gather4(xb, P, c) - mb;
        va += da * da;
        vb += db * db;
    }
    ln_v4 ra, rb;
    for (int k = 0; k < 4; k++) {
        ra[k] = 1.0 / sqrt(va[k] / (double)C + eps);
        rb[k] = 1.0 / sqrt(vb[k] / (double)C + eps);
        mean_out[k] = ma[k];
        mean_out[4 + k] = mb[k];
        rstd_out[k] = ra[k];
        rstd_out[4 + k] = rb[k];
    }
    for (int64_t c = 0; c < C; c++) {
        double wc = w ? w[c] : 1.0;
        ln_v4 xha = (ln_gather4(x, P, c) - ma) * ra, wdya = ln_gather4(g, P, c) * wc;
        ln_v4 xhb = (ln_gather4(xb, P, c) - mb) * rb, wdyb = ln_gather4(gb, P, c) * wc;
        s1a += wdya;
        s2a += wdya * xha;
        s1b += wdyb;
        s2b += wdyb * xhb;
    }
    ln_dx4(x, g, w, dx, C, P, &ma, &ra, &s1a, &s2a);
    ln_dx4(xb, gb, w, dxb, C, P, &mb, &rb, &s1b, &s2b);
}

/* Whether ag_layer_norm_row4_float and ag_layer_norm_cols_both can run
 * (AVX2; without it the vectors of four doubles go through memory and the
 * pairs of rows are faster). */
static bool ln_row4_ok(void)
{
    return __builtin_cpu_supports("avx2");
}
#endif

/* One row's part of the sums over rows, n columns of it: dw += g * xhat
 * (rounded to work's dtype first), db += g. */
#define AG_LAYER_NORM_COLS(T)                                                              \
    static void ag_layer_norm_cols_##T(const T *xr, const T *gr, T *dw, T *db, int64_t n,  \
                                       double mean, double rstd)                           \
    {                                                                                      \
        for (int64_t c = 0; c < n; c++) {                                                  \
            double xh = (xr[c] - mean) * rstd;                                             \
            if (dw)                                                                        \
                dw[c] += (T)(gr[c] * xh);                                                  \
            if (db)                                                                        \
                db[c] += gr[c];                                                            \
        }                                                                                  \
    }
AG_LAYER_NORM_COLS(float)
AG_LAYER_NORM_COLS(double)

#ifdef LN_ROW4
/* ag_layer_norm_cols_float with both sums, compiled for AVX2 and
 * vectorised over the columns (each column's operations as there: the
 * same bits; GCC's default cost model at -O2 leaves loops of unknown
 * length scalar). */
#pragma GCC push_options
#pragma GCC optimize("vect-cost-model=dynamic")
__attribute__((target("avx2")))
static void ag_layer_norm_cols_both(const float *restrict xr, const float *restrict gr,
                                    float *restrict dw, float *restrict db, int64_t n,
                                    double mean, double rstd)
{
    for (int64_t c = 0; c < n; c++) {
        double xh = (xr[c] - mean) * rstd;
        dw[c] += (float)(gr[c] * xh);
        db[c] += gr[c];
    }
}
#pragma GCC pop_options
#endif

/* The work of ag_layer_norm_rows: items of LN_ROWS rows (their dx rows,
 * means and rstds), then items of cols columns (dw and db, adding the
 * rows in order, so that the sums do not depend on the threads or the
 * cut).  Wide items read longer runs of each row (1024 columns took a
 * quarter less time than 256 on 4096 x 8192 float16), narrower ones keep
 * the threads busy on narrow tensors. */
enum { LN_ROWS = 8, LN_COLS = 1024 };
typedef struct ln_job {
    dtype work;
    const tensor *x, *g;      /* their dtypes and element sizes */
    tensor *dx;
    const unsigned char *xp, *gp;   /* the elements (read on the caller's */
    unsigned char *dp;              /* thread: coherence is not threaded) */
    const void *w;
    void *dw, *db;
    int64_t R, C;
    double eps;
    double *mean, *rstd;      /* R each */
    int64_t cols;             /* columns per item, at most LN_COLS */
} ln_job;

static void ln_rows_item(void *ctx, int64_t item)
{
    const ln_job *j = ctx;
    dtype work = j->work;
    size_t es = (size_t)dtype_size(work);
    int64_t C = j->C;
    unsigned char *buf = xmalloc(24 * (size_t)(C + 16) * es);
    unsigned char *xr = buf, *gr = buf + (size_t)C * es, *dxr = buf + 2 * (size_t)C * es;
    const unsigned char *xp = j->xp, *gp = j->gp;
    unsigned char *dp = j->dp;
    int64_t xs = tensor_elsize(j->x), gs = tensor_elsize(j->g), ds = dp ? tensor_elsize(j->dx) : 0;
    int64_t r1 = (item + 1) * LN_ROWS < j->R ? (item + 1) * LN_ROWS : j->R;
    int64_t r = item * LN_ROWS;
#ifdef LN_ROW4
    /* float32 rows with dx eight or four at a time (ag_layer_norm_row8_float,
     * ag_layer_norm_row4_float), P = C + 16 floats apart in the buffer: C
     * apart, a multiple of 1024 put the rows read together in the same
     * sets of the cache */
    while (work == DTYPE_FP32 && dp && r + 4 <= r1 && ln_row4_ok()) {
        int64_t P = C + 16, n = r + 8 <= r1 ? 8 : 4;
        float *xb = (float *)(void *)buf, *gb = xb + n * P, *dxb = xb + 2 * n * P;
        for (int64_t k = 0; k < n; k++) {
            tensor_loop_load_f32(j->x->type, xp + (r + k) * C * xs, xs, xb + k * P, C);
            tensor_loop_load_f32(j->g->type, gp + (r + k) * C * gs, gs, gb + k * P, C);
        }
        if (n == 8)
            ag_layer_norm_row8_float(xb, gb, j->w, dxb, C, P, j->eps, &j->mean[r], &j->rstd[r]);
        else
            ag_layer_norm_row4_float(xb, gb, j->w, dxb, C, P, j->eps, &j->mean[r], &j->rstd[r]);
        for (int64_t k = 0; k < n; k++)
            tensor_loop_store_f32(j->dx->type, dp + (r + k) * C * ds, ds, dxb + k * P, C);
        r += n;
    }
#endif
    /* then two at a time (ag_layer_norm_row2_float) */
    for (; work == DTYPE_FP32 && dp && r + 2 <= r1; r += 2) {
        float *x2 = (float *)(void *)buf, *g2 = x2 + 2 * C, *d2 = x2 + 4 * C;
        tensor_loop_load_f32(j->x->type, xp + r * C * xs, xs, x2, 2 * C);
        tensor_loop_load_f32(j->g->type, gp + r * C * gs, gs, g2, 2 * C);
        ag_layer_norm_row2_float(x2, g2, x2 + C, g2 + C, j->w, d2, d2 + C, C, j->eps,
                                 &j->mean[r], &j->rstd[r]);
        tensor_loop_store_f32(j->dx->type, dp + r * C * ds, ds, d2, 2 * C);
    }
    for (; r < r1; r++) {
        const unsigned char *xrow = xp + r * C * xs, *grow = gp + r * C * gs;
        unsigned char *drow = dp ? dp + r * C * ds : NULL;
        if (work == DTYPE_FP32) {
            tensor_loop_load_f32(j->x->type, xrow, xs, (float *)xr, C);
            if (drow)
                tensor_loop_load_f32(j->g->type, grow, gs, (float *)gr, C);
            ag_layer_norm_row_float((const float *)xr, (const float *)gr, j->w,
                                    drow ? (float *)dxr : NULL, C, j->eps, &j->mean[r],
                                    &j->rstd[r]);
            if (drow)
                tensor_loop_store_f32(j->dx->type, drow, ds, (const float *)dxr, C);
        } else {
            tensor_loop_load_f64(j->x->type, xrow, xs, (double *)xr, C);
            if (drow)
                tensor_loop_load_f64(j->g->type, grow, gs, (double *)gr, C);
            ag_layer_norm_row_double((const double *)xr, (const double *)gr, j->w,
                                     drow ? (double *)dxr : NULL, C, j->eps, &j->mean[r],
                                     &j->rstd[r]);
            if (drow)
                tensor_loop_store_f64(j->dx->type, drow, ds, (const double *)dxr, C);
        }
    }
    free(buf);
}

static void ln_cols_item(void *ctx, int64_t item)
{
    const ln_job *j = ctx;
    dtype work = j->work;
    size_t es = (size_t)dtype_size(work);
    int64_t c0 = item * j->cols, n = j->C - c0 < j->cols ? j->C - c0 : j->cols;
    unsigned char xr[LN_COLS * sizeof(double)], gr[LN_COLS * sizeof(double)];
    const unsigned char *xp = j->xp, *gp = j->gp;
    int64_t xs = tensor_elsize(j->x), gs = tensor_elsize(j->g);
    unsigned char *dw = j->dw ? (unsigned char *)j->dw + (size_t)c0 * es : NULL;
    unsigned char *db = j->db ? (unsigned char *)j->db + (size_t)c0 * es : NULL;
    for (int64_t r = 0; r < j->R; r++) {
        const unsigned char *xrow = xp + (r * j->C + c0) * xs, *grow = gp + (r * j->C + c0) * gs;
        if (work == DTYPE_FP32) {
            tensor_loop_load_f32(j->x->type, xrow, xs, (float *)xr, n);
            tensor_loop_load_f32(j->g->type, grow, gs, (float *)gr, n);
#ifdef LN_ROW4
            if (dw && db && ln_row4_ok()) {
                ag_layer_norm_cols_both((const float *)xr, (const float *)gr, (float *)dw,
                                        (float *)db, n, j->mean[r], j->rstd[r]);
                continue;
            }
#endif
            ag_layer_norm_cols_float((const float *)xr, (const float *)gr, (float *)dw,
                                     (float *)db, n, j->mean[r], j->rstd[r]);
        } else {
            tensor_loop_load_f64(j->x->type, xrow, xs, (double *)xr, n);
            tensor_loop_load_f64(j->g->type, grow, gs, (double *)gr, n);
            ag_layer_norm_cols_double((const double *)xr, (const double *)gr, (double *)dw,
                                      (double *)db, n, j->mean[r], j->rstd[r]);
        }
    }
}

/* The R rows of C elements of x and g (contiguous, float dtypes) in work's
 * precision (float32, or float64 for float64): each row is converted into
 * a buffer once, and its dx row (when dx is not NULL: contiguous, of a
 * float dtype) is stored rounded from the buffer, as a float32 dx tensor
 * converted afterwards would be.  dw and db (work's dtype) accumulate over
 * the rows, in row order; w is NULL or C elements of work's dtype.  Rows,
 * then columns, go to the host threads (tensor_par.h): the same bits with
 * any number of them. */
static void ag_layer_norm_rows(dtype work, const tensor *x, const tensor *g, const tensor *w,
                               tensor *dx, tensor *dw, tensor *db, int64_t R, int64_t C,
                               double eps)
{
    ln_job j = {work, x, g, dx, tensor_cdata(x), tensor_cdata(g), dx ? tensor_data(dx) : NULL,
                w ? tensor_cdata(w) : NULL, dw ? tensor_data(dw) : NULL,
                db ? tensor_data(db) : NULL, R, C, eps, NULL, NULL, 0};
    j.cols = C >= 8 * LN_COLS ? LN_COLS : C >= 2 * LN_COLS ? LN_COLS / 2 : LN_COLS / 4;
    j.mean = xmalloc(2 * sizeof *j.mean * (size_t)(R ? R : 1));
    j.rstd = j.mean + R;
    tensor_par_for((R + LN_ROWS - 1) / LN_ROWS, ln_rows_item, &j);
    if (dw || db)
        tensor_par_for((C + j.cols - 1) / j.cols, ln_cols_item, &j);
    free(j.mean);
}

static bool bw_layer_norm(host *h, ag_node *n, const tensor *g, tensor **gin, char *err)
{
    (void)h;
    const tensor *x = tensor_of(n->saved[0]), *w = tensor_of(n->saved[1]);
    /* float32 for float16/bfloat16/float32 (PyTorch's accumulate type),
     * float64 for float64 */
    dtype work = x->type == DTYPE_FP64 ? DTYPE_FP64 : DTYPE_FP32;
    int64_t C = 1, R;
    for (int i = 0; i < n->ndims; i++)
        C *= n->dims[i];
    R = C ? tensor_numel(x) / C : 0;
    bool want[3];
    for (int i = 0; i < 3; i++)
        want[i] = n->next[i].kind != VAL_NONE;
    const ag_meta *mx = &n->meta[0];
    int64_t cshape[1] = {C};
    /* the rows are read in place where x and g are contiguous float
     * tensors (anything else is converted to work's dtype first) */
    tensor *xc = tensor_loop_float(x->type) ? tensor_contiguous(x, err)
                                            : tensor_to(x, work, false, err);
    tensor *gc = !xc ? NULL : tensor_loop_float(g->type) ? tensor_contiguous(g, err)
                                                         : tensor_to(g, work, false, err);
    tensor *wf = gc && w ? tensor_to(w, work, false, err) : NULL;
    /* dx in x's dtype from the start (rows rounded from work's precision);
     * dw and db accumulate in work's precision */
    tensor *dx = gc && want[0] ? tensor_new(mx->type, mx->ndim, mx->shape, mx->cuda, err) : NULL;
    tensor *dw = gc && want[1] ? tensor_new(work, 1, cshape, false, err) : NULL;
    tensor *db = gc && want[2] ? tensor_new(work, 1, cshape, false, err) : NULL;
    bool ok = gc && (!w || wf) && (!want[0] || dx) && (!want[1] || dw) && (!want[2] || db);
    if (ok && dx && !tensor_loop_float(dx->type)) {
        tensor_err(err, "layer_norm backward: tensors of dtype %s are not supported",
                   dtype_torch_name(dx->type));
        ok = false;
    }
    if (ok)
        ag_layer_norm_rows(work, xc, gc, wf, dx, dw, db, R, C, n->scalar);
    if (ok)
        gin[0] = dx;
    else
        tensor_unref(dx);
    tensor *outs[3] = {NULL, dw, db};
    for (int i = 1; ok && i < 3; i++) {
        if (!outs[i])
            continue;
        const ag_meta *m = &n->meta[i];
        tensor *v = tensor_reshape(outs[i], m->ndim, m->shape, err);
        gin[i] = v ? tensor_to(v, m->type, m->cuda, err) : NULL;
        tensor_unref(v);
        ok = gin[i] != NULL;
    }
    tensor *tmp[] = {xc, gc, wf, dw, db};
    for (size_t i = 0; i < sizeof tmp / sizeof *tmp; i++)
        tensor_unref(tmp[i]);
    return ok;
}

const ag_formula ag_formulas_base[] = {
    {"add", "AddBackward0", rec_add, bw_add},
    {"sub", "SubBackward0", rec_add, bw_sub},
    {"subtract", "SubBackward0", rec_add, bw_sub},
    {"mul", "MulBackward0", ag_rec_two, bw_mul},
    {"multiply", "MulBackward0", ag_rec_two, bw_mul},
    {"div", "DivBackward0", ag_rec_two, bw_div},
    {"divide", "DivBackward0", ag_rec_two, bw_div},
    {"true_divide", "DivBackward0", ag_rec_two, bw_div},
    {"neg", "NegBackward0", ag_rec_one, bw_neg},
    {"negative", "NegBackward0", ag_rec_one, bw_neg},
    {"sum", "SumBackward1", rec_reduce, bw_sum},
    {"mean", "MeanBackward1", rec_reduce, bw_mean},
    {"matmul", "MmBackward0", ag_rec_two, ag_bw_matmul},
    {"mm", "MmBackward0", ag_rec_two, ag_bw_matmul},
    {"mv", "MvBackward0", ag_rec_two, ag_bw_matmul},
    {"relu", "ReluBackward0", ag_rec_keep_input, bw_relu},
    {"exp", "ExpBackward0", ag_rec_keep_output, bw_exp},
    {"clone", "CloneBackward0", ag_rec_one, bw_same},
    {"contiguous", "CloneBackward0", ag_rec_one, bw_same},
    {"to", "ToCopyBackward0", ag_rec_one, bw_same},
    {"float", "ToCopyBackward0", ag_rec_one, bw_same},
    {"double", "ToCopyBackward0", ag_rec_one, bw_same},
    {"half", "ToCopyBackward0", ag_rec_one, bw_same},
    {"bfloat16", "ToCopyBackward0", ag_rec_one, bw_same},
    {"type_as", "ToCopyBackward0", ag_rec_one, bw_same},
    {"reshape", "ViewBackward0", ag_rec_one, bw_reshape},
    {"view", "ViewBackward0", ag_rec_one, bw_reshape},
    {"flatten", "ViewBackward0", ag_rec_one, bw_reshape},
    {"layer_norm", "NativeLayerNormBackward0", rec_layer_norm, bw_layer_norm},
    {NULL, NULL, NULL, NULL},
};

