/* autograd.c - reverse-mode automatic differentiation of host tensors, as
 * PyTorch's autograd does it for the operations tritsim has formulas for
 * (autograd.h), torch.autograd.Function, and the grad modes.
 *
 * The graph.  Each recorded operation makes a node (an OBJECT of type
 * ag_node_type, the tensor's grad_fn) with one edge per input: the
 * input's own grad_fn, the input itself when it is a leaf that requires
 * grad, or nothing.  What a formula needs later is kept as detached views
 * (tensors without autograd state), so that a node never holds the tensor
 * it made.
 *
 * backward() walks the nodes reachable from the tensor's grad_fn in an
 * order where every node comes after all the nodes that feed gradient
 * into it (Kahn's algorithm over the reachable part), sums the gradients
 * that reach each node, applies its formula, and adds what reaches a leaf
 * to its .grad.  Without retain_graph the nodes drop what they kept, and a
 * second backward through them is PyTorch's error. */
#define _POSIX_C_SOURCE 200809L
#include "autograd.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "host.h"
#include "tensor_loops.h"
#include "torch_impl.h"

#define AG_FN(name) \
    static val name(host *h, val self, int argc, const val *argv, const val_kwargs *kw, \
                    src_span at)

typedef struct ag_meta {
    dtype type;
    int ndim;
    int64_t shape[TENSOR_MAX_DIMS];
    bool cuda;
} ag_meta;

typedef struct ag_node ag_node;

/* The grads of a node's inputs for the gradient g of its output: gin[i]
 * a new tensor (of input i's shape and dtype) or NULL where there is
 * none; false with a message in err (or after raising: err empty). */
typedef bool (*ag_backward_fn)(host *h, ag_node *n, const tensor *g, tensor **gin, char *err);
/* Read a call's arguments (all: the input first) into the node: its
 * inputs (ag_inputs, ag_input) and what the formula keeps. */
typedef bool (*ag_record_fn)(host *h, ag_node *n, int argc, const val *all,
                             const val_kwargs *kw, val result, src_span at);

typedef struct ag_formula {
    const char *op;          /* the torch name: "add" */
    const char *node;        /* the grad_fn's name: "AddBackward0" */
    ag_record_fn record;
    ag_backward_fn backward;
} ag_formula;

struct ag_node {
    val_object o;
    const ag_formula *f;     /* NULL: a Function's node, or an op without formula */
    char *name;              /* "AddBackward0" (owned) */
    char *op;                /* what was called, for messages (owned) */
    src_span at;
    const src_file *file;
    int n;
    val *next;               /* per input: a node, a leaf tensor, or NONE */
    ag_meta *meta;           /* per input that is a tensor */
    val saved[3];            /* what the formula keeps */
    int64_t dims[TENSOR_MAX_DIMS];
    int ndims;               /* sum/mean: the dims (all_dims: every one) */
    bool all_dims, keepdim;
    double scalar;           /* add/sub: alpha; layer_norm: eps */
    ag_meta out;
    val cls, ctx;            /* a Function's class and ctx */
    bool released;           /* backward ran without retain_graph and
                                dropped saved[] */
    /* backward()'s scratch */
    unsigned mark;
    int pending;
    tensor *grad;
};

/* ---- nodes --------------------------------------------------------------------- */

static void ag_node_free(val_obj *o)
{
    ag_node *n = (ag_node *)o;
    for (int i = 0; i < n->n; i++)
        val_unref(n->next[i]);
    free(n->next);
    free(n->meta);
    for (int i = 0; i < 3; i++)
        val_unref(n->saved[i]);
    val_unref(n->cls);
    val_unref(n->ctx);
    tensor_unref(n->grad);
    free(n->name);
    free(n->op);
}

static void ag_node_repr(host *h, val self, strbuf *out)
{
    (void)h;
    strbuf_printf(out, "<%s object at %p>", ((ag_node *)self.u.o)->name, (void *)self.u.o);
}

AG_FN(ag_node_name)
{
    (void)argv;
    (void)kw;
    if (argc)
        return host_raise(h, HOST_EXC_TYPE, at, "name() takes no arguments");
    return val_str_cstr(((ag_node *)self.u.o)->name);
}

static val ag_node_getattr(host *h, val self, const char *name, src_span at)
{
    (void)h;
    (void)at;
    ag_node *n = (ag_node *)self.u.o;
    if (!strcmp(name, "name"))
        return val_builtin_new("Node.name", ag_node_name, val_ref(self));
    if (!strcmp(name, "next_functions")) {
        /* ((node, 0), ...): a leaf's edge is the leaf here (PyTorch has an
         * AccumulateGrad node there) */
        val t = val_tuple_new((size_t)n->n);
        for (int i = 0; i < n->n; i++) {
            val pair[2] = {val_ref(n->next[i]), val_int(0)};
            val_seq_set(t, (size_t)i, val_tuple_of(2, pair));
        }
        return t;
    }
    return val_missing();
}

static const val_type ag_node_type = {
    .name = "Node",
    .getattr = ag_node_getattr,
    .repr = ag_node_repr,
    .free = ag_node_free,
};

static char *ag_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(xmalloc(n), s, n);
}

static ag_node *ag_node_new(host *h, const char *name, const char *op, src_span at)
{
    ag_node *n = val_obj_new(sizeof *n, VAL_OBJECT, &ag_node_type);
    n->o.attrs = val_none();
    n->name = ag_strdup(name);
    n->op = ag_strdup(op);
    n->at = at;
    n->file = h->file;
    for (int i = 0; i < 3; i++)
        n->saved[i] = val_none();
    n->cls = val_none();
    n->ctx = val_none();
    n->scalar = 1;
    return n;
}

static ag_node *ag_node_of(val v)
{
    return v.kind == VAL_OBJECT && v.u.o->type == &ag_node_type ? (ag_node *)v.u.o : NULL;
}

static void ag_meta_of(const tensor *t, ag_meta *m)
{
    m->type = t->type;
    m->ndim = t->ndim;
    for (int i = 0; i < t->ndim; i++)
        m->shape[i] = t->shape[i];
    m->cuda = t->cuda;
}

static bool ag_requires(val v)
{
    tensor *t = tensor_of(v);
    return t && t->requires_grad;
}

/* What an input's edge points at. */
static val ag_edge(val v)
{
    tensor *t = tensor_of(v);
    if (!t || !t->requires_grad)
        return val_none();
    return t->grad_fn.kind != VAL_NONE ? val_ref(t->grad_fn) : val_ref(v);
}

static void ag_inputs(ag_node *n, int count)
{
    n->n = count;
    n->next = xmalloc((size_t)(count ? count : 1) * sizeof *n->next);
    n->meta = xcalloc((size_t)(count ? count : 1), sizeof *n->meta);
    for (int i = 0; i < count; i++)
        n->next[i] = val_none();
}

static void ag_input(ag_node *n, int i, val v)
{
    val_unref(n->next[i]);
    n->next[i] = ag_edge(v);
    tensor *t = tensor_of(v);
    if (t)
        ag_meta_of(t, &n->meta[i]);
}

/* A tensor's data without its autograd state (what nodes keep). */
static val ag_detached(val v)
{
    tensor *t = tensor_of(v);
    if (!t)
        return val_ref(v);
    return tensor_val(tensor_view_of(t, t->ndim, t->shape, t->strides, t->offset));
}

/* Make result (a tensor) the output of node n. */
static void ag_attach(val result, ag_node *n)
{
    tensor *t = tensor_of(result);
    t->requires_grad = true;
    val_unref(t->grad_fn);
    t->grad_fn = val_ref(val_of(n));
    ag_meta_of(t, &n->out);
}

/* "layer_norm" -> "LayerNormBackward0"; the functions PyTorch implements
 * with another op take that op's name. */
static void ag_node_name_of(const char *op, char *buf, size_t cap)
{
    if (!strcmp(op, "norm") || !strcmp(op, "vector_norm")) {
        snprintf(buf, cap, "LinalgVectorNormBackward0");
        return;
    }
    size_t k = 0;
    bool up = true;
    for (const char *p = op; *p && k + 12 < cap; p++) {
        if (*p == '_' || *p == '.') {
            up = true;
            continue;
        }
        buf[k++] = up && *p >= 'a' && *p <= 'z' ? (char)(*p - 'a' + 'A') : *p;
        up = false;
    }
    snprintf(buf + k, cap - k, "Backward0");
}

/* ---- reading arguments -------------------------------------------------------------- */

/* Argument i of a call (all: the input first), or keyword name; MISSING. */
static val ag_arg(int argc, const val *all, const val_kwargs *kw, int i, const char *name)
{
    if (i < argc)
        return all[i];
    for (int k = 0; kw && k < kw->n; k++)
        if (!strcmp(kw->names[k], name))
            return kw->values[k];
    return val_missing();
}

static bool kw_has(const val_kwargs *kw, const char *name)
{
    for (int k = 0; kw && k < kw->n; k++)
        if (!strcmp(kw->names[k], name))
            return true;
    return false;
}

static bool ag_present(val v)
{
    return v.kind != VAL_MISSING && v.kind != VAL_NONE;
}

/* ---- tensor helpers of the formulas ---------------------------------------------- */

/* g summed over the dimensions it was broadcast along, so that it has
 * meta's shape, and converted to meta's dtype. */
static tensor *ag_reduce_to(const tensor *g, const ag_meta *m, char *err)
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
static tensor *ag_expand_to(const tensor *g, const ag_meta *m, char *err)
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
static bool rec_two(host *h, ag_node *n, int argc, const val *all, const val_kwargs *kw,
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
static bool rec_one(host *h, ag_node *n, int argc, const val *all, const val_kwargs *kw,
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
static bool rec_keep_input(host *h, ag_node *n, int argc, const val *all,
                           const val_kwargs *kw, val result, src_span at)
{
    rec_one(h, n, argc, all, kw, result, at);
    n->saved[0] = ag_detached(all[0]);
    return true;
}

static bool rec_keep_output(host *h, ag_node *n, int argc, const val *all,
                            const val_kwargs *kw, val result, src_span at)
{
    rec_one(h, n, argc, all, kw, result, at);
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
    rec_one(h, n, argc, all, kw, result, at);
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
static bool bw_matmul(host *h, ag_node *n, const tensor *g, tensor **gin, char *err)
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
 * xhat)); dw += g * xhat, db += g (the sums over rows). */
#define AG_LAYER_NORM_ROW(T)                                                               \
    static void ag_layer_norm_row_##T(const T *xr, const T *gr, const T *w, T *dxr, T *dw, \
                                      T *db, int64_t C, double eps)                        \
    {                                                                                      \
        double s = 0, v = 0;                                                               \
        for (int64_t c = 0; c < C; c++)                                                    \
            s += xr[c];                                                                    \
        double mean = s / (double)C;                                                       \
        for (int64_t c = 0; c < C; c++)                                                    \
            v += (xr[c] - mean) * (xr[c] - mean);                                          \
        double rstd = 1.0 / sqrt(v / (double)C + eps);                                     \
        double s1 = 0, s2 = 0;                                                             \
        for (int64_t c = 0; c < C; c++) {                                                  \
            double xh = (xr[c] - mean) * rstd, wdy = gr[c] * (w ? w[c] : 1.0);             \
            s1 += wdy;                                                                     \
            s2 += wdy * xh;                                                                \
            if (dw)                                                                        \
                dw[c] += (T)(gr[c] * xh);                                                  \
            if (db)                                                                        \
                db[c] += gr[c];                                                            \
        }                                                                                  \
        if (dxr)                                                                           \
            for (int64_t c = 0; c < C; c++) {                                              \
                double xh = (xr[c] - mean) * rstd, wdy = gr[c] * (w ? w[c] : 1.0);         \
                dxr[c] = (T)(rstd * (wdy - (s1 + xh * s2) / (double)C));                   \
            }                                                                              \
    }
AG_LAYER_NORM_ROW(float)
AG_LAYER_NORM_ROW(double)

/* The R rows of C elements of x and g (contiguous, float dtypes) in work's
 * precision (float32, or float64 for float64): each row is converted into
 * a buffer once, and its dx row (when dx is not NULL: contiguous, of a
 * float dtype) is stored rounded from the buffer, as a float32 dx tensor
 * converted afterwards would be.  dw and db (work's dtype) accumulate over
 * the rows; w is NULL or C elements of work's dtype. */
static void ag_layer_norm_rows(dtype work, const tensor *x, const tensor *g, const tensor *w,
                               tensor *dx, tensor *dw, tensor *db, int64_t R, int64_t C,
                               double eps)
{
    size_t es = (size_t)dtype_size(work);
    unsigned char *buf = xmalloc(3 * (size_t)(C ? C : 1) * es);
    unsigned char *xr = buf, *gr = buf + (size_t)C * es, *dxr = buf + 2 * (size_t)C * es;
    const unsigned char *xp = tensor_cdata(x), *gp = tensor_cdata(g);
    unsigned char *dp = dx ? tensor_data(dx) : NULL;
    int64_t xs = tensor_elsize(x), gs = tensor_elsize(g), ds = dx ? tensor_elsize(dx) : 0;
    const void *wp = w ? tensor_cdata(w) : NULL;
    void *dwp = dw ? tensor_data(dw) : NULL, *dbp = db ? tensor_data(db) : NULL;
    for (int64_t r = 0; r < R; r++) {
        const unsigned char *xrow = xp + r * C * xs, *grow = gp + r * C * gs;
        unsigned char *drow = dp ? dp + r * C * ds : NULL;
        if (work == DTYPE_FP32) {
            tensor_loop_load_f32(x->type, xrow, xs, (float *)xr, C);
            tensor_loop_load_f32(g->type, grow, gs, (float *)gr, C);
            ag_layer_norm_row_float((const float *)xr, (const float *)gr, wp,
                                    drow ? (float *)dxr : NULL, dwp, dbp, C, eps);
            if (drow)
                tensor_loop_store_f32(dx->type, drow, ds, (const float *)dxr, C);
        } else {
            tensor_loop_load_f64(x->type, xrow, xs, (double *)xr, C);
            tensor_loop_load_f64(g->type, grow, gs, (double *)gr, C);
            ag_layer_norm_row_double((const double *)xr, (const double *)gr, wp,
                                     drow ? (double *)dxr : NULL, dwp, dbp, C, eps);
            if (drow)
                tensor_loop_store_f64(dx->type, drow, ds, (const double *)dxr, C);
        }
    }
    free(buf);
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

static const ag_formula ag_formulas[] = {
    {"add", "AddBackward0", rec_add, bw_add},
    {"sub", "SubBackward0", rec_add, bw_sub},
    {"subtract", "SubBackward0", rec_add, bw_sub},
    {"mul", "MulBackward0", rec_two, bw_mul},
    {"multiply", "MulBackward0", rec_two, bw_mul},
    {"div", "DivBackward0", rec_two, bw_div},
    {"divide", "DivBackward0", rec_two, bw_div},
    {"true_divide", "DivBackward0", rec_two, bw_div},
    {"neg", "NegBackward0", rec_one, bw_neg},
    {"negative", "NegBackward0", rec_one, bw_neg},
    {"sum", "SumBackward1", rec_reduce, bw_sum},
    {"mean", "MeanBackward1", rec_reduce, bw_mean},
    {"matmul", "MmBackward0", rec_two, bw_matmul},
    {"mm", "MmBackward0", rec_two, bw_matmul},
    {"relu", "ReluBackward0", rec_keep_input, bw_relu},
    {"exp", "ExpBackward0", rec_keep_output, bw_exp},
    {"clone", "CloneBackward0", rec_one, bw_same},
    {"contiguous", "CloneBackward0", rec_one, bw_same},
    {"to", "ToCopyBackward0", rec_one, bw_same},
    {"float", "ToCopyBackward0", rec_one, bw_same},
    {"double", "ToCopyBackward0", rec_one, bw_same},
    {"half", "ToCopyBackward0", rec_one, bw_same},
    {"bfloat16", "ToCopyBackward0", rec_one, bw_same},
    {"type_as", "ToCopyBackward0", rec_one, bw_same},
    {"reshape", "ViewBackward0", rec_one, bw_reshape},
    {"view", "ViewBackward0", rec_one, bw_reshape},
    {"flatten", "ViewBackward0", rec_one, bw_reshape},
    {"layer_norm", "NativeLayerNormBackward0", rec_layer_norm, bw_layer_norm},
    {NULL, NULL, NULL, NULL},
};

static const ag_formula *ag_formula_of(const char *op)
{
    for (const ag_formula *f = ag_formulas; f->op; f++)
        if (!strcmp(f->op, op))
            return f;
    return NULL;
}

/* ---- recording -------------------------------------------------------------------- */

/* Record a call of op (what `called` names in messages) with arguments
 * all[0..argc) and kw that made result (stolen; returned). */
static val ag_record(host *h, const char *op, const char *called, val result, int argc,
                     const val *all, const val_kwargs *kw, src_span at)
{
    tensor *rt = tensor_of(result);
    bool any = false;
    for (int i = 0; i < argc; i++)
        any |= ag_requires(all[i]);
    for (int i = 0; kw && i < kw->n; i++)
        any |= ag_requires(kw->values[i]);
    if (h->no_grad || !any)
        return result;
    /* results that are an input itself (x.to(x.dtype), x.contiguous()) keep
     * their identity; tensors of ints and bools are never differentiable */
    for (int i = 0; rt && i < argc; i++)
        if (all[i].kind == VAL_TENSOR && all[i].u.o == result.u.o)
            return result;
    const ag_formula *f = rt && dtype_is_float(rt->type) ? ag_formula_of(op) : NULL;
    char name[96];
    if (f && (f->backward == bw_sum || f->backward == bw_mean) &&
        !ag_present(ag_arg(argc, all, kw, 1, "dim")) && !kw_has(kw, "axis"))
        snprintf(name, sizeof name, "%s0", f->backward == bw_sum ? "SumBackward" : "MeanBackward");
    else if (f)
        snprintf(name, sizeof name, "%s", f->node);
    else
        ag_node_name_of(op, name, sizeof name);
    ag_node *n = ag_node_new(h, name, called, at);
    if (f) {
        n->f = f;
        if (!f->record(h, n, argc, all, kw, result, at)) {
            val_unref(val_of(n));
            val_unref(result);
            return val_err();
        }
    } else {
        /* no formula: the tensor arguments are its inputs */
        int count = 0;
        for (int i = 0; i < argc; i++)
            count += tensor_of(all[i]) != NULL;
        for (int i = 0; kw && i < kw->n; i++)
            count += tensor_of(kw->values[i]) != NULL;
        ag_inputs(n, count);
        int k = 0;
        for (int i = 0; i < argc; i++)
            if (tensor_of(all[i]))
                ag_input(n, k++, all[i]);
        for (int i = 0; kw && i < kw->n; i++)
            if (tensor_of(kw->values[i]))
                ag_input(n, k++, kw->values[i]);
    }
    if (rt) {
        if (dtype_is_float(rt->type))
            ag_attach(result, n);
    } else if (result.kind == VAL_TUPLE || result.kind == VAL_LIST) {
        const val_seq *s = val_as_seq(result);
        for (size_t i = 0; i < s->len; i++) {
            tensor *t = tensor_of(s->items[i]);
            if (t && dtype_is_float(t->type) && !t->requires_grad)
                ag_attach(s->items[i], n);
        }
    }
    val_unref(val_of(n));
    return result;
}

val autograd_record(host *h, const char *op, val result, int n, const val *operands,
                    src_span at)
{
    if (result.kind == VAL_ERR || h->no_grad)
        return result;
    return ag_record(h, op, op, result, n, operands, NULL, at);
}

bool autograd_check_inplace(host *h, const char *op, val target, int n, const val *others,
                            src_span at)
{
    if (h->no_grad)
        return true;
    tensor *t = tensor_of(target);
    if (t && t->requires_grad && t->grad_fn.kind == VAL_NONE) {
        host_error(h, at, "a leaf Variable that requires grad is being used in an in-place "
                   "operation.");
        return false;
    }
    bool any = t && t->requires_grad;
    for (int i = 0; i < n; i++)
        any |= ag_requires(others[i]);
    if (!any)
        return true;
    host_raise(h, HOST_EXC_NOT_IMPLEMENTED, at, "tritsim's autograd does not record in-place "
               "operations ('%s' on a tensor that requires grad): use the out-of-place form, "
               "or do it under torch.no_grad()", op);
    return false;
}

/* requires_grad= of a creation function, applied to what it made. */
static val ag_created(host *h, val r, const val_kwargs *kw, src_span at)
{
    val rg = ag_arg(0, NULL, kw, 0, "requires_grad");
    if (r.kind == VAL_ERR || rg.kind != VAL_BOOL || !rg.u.b)
        return r;
    tensor *t = tensor_of(r);
    if (t && !dtype_is_float(t->type)) {
        val_unref(r);
        return host_error(h, at, "Only Tensors of floating point and complex dtype can require "
                          "gradients");
    }
    if (t)
        t->requires_grad = true;
    return r;
}

val autograd_call(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                  src_span at)
{
    const torch_fn *f = h->calling->data;
    if (f->grad == TORCH_AG_CREATE)
        return ag_created(h, f->fn(h, self, argc, argv, kw, at), kw, at);
    if (f->grad == TORCH_AG_NONE || h->no_grad)
        return f->fn(h, self, argc, argv, kw, at);
    val all[TORCH_ARGS_MAX];
    int n = torch_self_args(self, argc, argv, all, TORCH_ARGS_MAX);
    bool any = false;
    for (int i = 0; i < n; i++)
        any |= ag_requires(all[i]);
    for (int i = 0; kw && i < kw->n; i++)
        any |= ag_requires(kw->values[i]);
    if (!any)
        return f->fn(h, self, argc, argv, kw, at);
    size_t len = strlen(f->name);
    if (len > 1 && f->name[len - 1] == '_' && f->name[len - 2] != '_' &&
        !autograd_check_inplace(h, h->calling->name, n ? all[0] : val_none(), n - 1, all + 1, at))
        return val_err();
    const char *called = h->calling->name;   /* f->fn may call other builtins */
    val r = f->fn(h, self, argc, argv, kw, at);
    if (r.kind == VAL_ERR)
        return r;
    return ag_record(h, f->name, called, r, n, all, kw, at);
}

/* ---- backward() -------------------------------------------------------------------- */

static unsigned ag_generation;

/* Add g (borrowed) to the gradient a node has collected. */
static bool ag_collect(ag_node *n, tensor *g, char *err)
{
    if (!n->grad) {
        n->grad = tensor_ref(g);
        return true;
    }
    tensor *s = tensor_binary(TENSOR_ADD, tensor_operand_of(n->grad), tensor_operand_of(g), err);
    if (!s)
        return false;
    tensor_unref(n->grad);
    n->grad = s;
    return true;
}

/* leaf.grad += g (g borrowed, of the leaf's shape and dtype). */
static bool ag_accumulate(tensor *leaf, tensor *g, char *err)
{
    tensor *old = tensor_of(leaf->grad);
    if (old)
        return tensor_binary_inplace(TENSOR_ADD, old, tensor_operand_of(g), err);
    tensor *c = tensor_to(g, leaf->type, leaf->cuda, err);   /* a copy of its own */
    if (!c)
        return false;
    val_unref(leaf->grad);
    leaf->grad = tensor_val(c);
    return true;
}

/* Drop what node n kept (backward without retain_graph); a later backward
 * through it is an error if it kept something (as in PyTorch, where a
 * node without saved tensors can run again). */
static void ag_release(ag_node *n)
{
    for (int i = 0; i < 3; i++) {
        if (n->saved[i].kind != VAL_TENSOR)
            continue;   /* numbers stay: they are no saved tensors */
        n->released = true;
        val_unref(n->saved[i]);
        n->saved[i] = val_none();
    }
}

static bool ag_function_backward(host *h, ag_node *n, const tensor *g, tensor **gin,
                                 src_span at);
static void ag_ctx_release(val ctx);

/* The grads of node n's inputs (gin, n->n of them) for its output grad g. */
static bool ag_apply(host *h, ag_node *n, tensor *g, tensor **gin, src_span at)
{
    char err[TENSOR_ERR_LEN];
    err[0] = '\0';
    if (n->released) {
        host_error(h, at, "Trying to backward through the graph a second time (or directly "
                   "access saved tensors after they have already been freed). Saved "
                   "intermediate values of the graph are freed when you call .backward() or "
                   "autograd.grad(). Specify retain_graph=True if you need to backward through "
                   "the graph a second time or if you need to access saved tensors after "
                   "calling backward.");
        return false;
    }
    if (n->cls.kind == VAL_CLASS)
        return ag_function_backward(h, n, g, gin, at);
    if (!n->f) {
        char where[160] = "";
        if (n->file)
            snprintf(where, sizeof where, " (recorded at %s:%d:%d)", n->file->name, n->at.line,
                     n->at.col);
        host_raise(h, HOST_EXC_NOT_IMPLEMENTED, at, "autograd: backward reached '%s'%s, which "
                   "tritsim has no backward formula for (it has them for add, sub, mul, div, "
                   "neg, sum, mean, matmul, relu, exp, clone, reshape, view, to, layer_norm "
                   "and torch.autograd.Function)", n->op, where);
        return false;
    }
    bool was = h->no_grad;
    h->no_grad = true;
    bool ok = n->f->backward(h, n, g, gin, err);
    h->no_grad = was;
    if (!ok && !host_exc_pending(h))
        host_error(h, at, "autograd: the backward of '%s' failed: %s", n->op, err);
    return ok;
}

/* Run backward from node root with gradient g0 (borrowed). */
static bool ag_run(host *h, ag_node *root, tensor *g0, bool retain, src_span at)
{
    unsigned gen = ++ag_generation;
    if (gen == 0)
        gen = ++ag_generation;
    /* the reachable nodes, and how many edges reach each */
    int cap = 16, count = 0;
    ag_node **all = xmalloc((size_t)cap * sizeof *all);
    root->mark = gen;
    root->pending = 0;
    all[count++] = root;
    for (int i = 0; i < count; i++) {
        ag_node *n = all[i];
        for (int k = 0; k < n->n; k++) {
            ag_node *m = ag_node_of(n->next[k]);
            if (!m)
                continue;
            if (m->mark != gen) {
                m->mark = gen;
                m->pending = 0;
                if (count == cap) {
                    cap *= 2;
                    all = xrealloc(all, (size_t)cap * sizeof *all);
                }
                all[count++] = m;
            }
            m->pending++;
        }
    }
    ag_node **ready = xmalloc((size_t)count * sizeof *ready);
    int nready = 0;
    ready[nready++] = root;
    root->grad = tensor_ref(g0);
    bool ok = true;
    char err[TENSOR_ERR_LEN];
    while (ok && nready) {
        ag_node *n = ready[--nready];
        tensor *g = n->grad;
        n->grad = NULL;
        tensor **gin = xcalloc((size_t)(n->n ? n->n : 1), sizeof *gin);
        if (g)
            ok = ag_apply(h, n, g, gin, at);
        for (int k = 0; k < n->n; k++) {
            ag_node *m = ag_node_of(n->next[k]);
            tensor *leaf = tensor_of(n->next[k]);
            if (ok && gin[k] && m) {
                ok = ag_collect(m, gin[k], err);
                if (!ok)
                    host_error(h, at, "autograd: %s", err);
            } else if (ok && gin[k] && leaf) {
                ok = ag_accumulate(leaf, gin[k], err);
                if (!ok)
                    host_error(h, at, "autograd: %s", err);
            }
            if (m && --m->pending == 0)
                ready[nready++] = m;
            tensor_unref(gin[k]);
        }
        free(gin);
        tensor_unref(g);
        if (ok && !retain) {
            ag_release(n);
            if (n->ctx.kind != VAL_NONE)
                ag_ctx_release(n->ctx);
        }
    }
    for (int i = 0; i < count; i++) {
        tensor_unref(all[i]->grad);
        all[i]->grad = NULL;
        all[i]->mark = 0;
    }
    free(ready);
    free(all);
    return ok;
}

/* tensor.backward(gradient=None, retain_graph=None, create_graph=False,
 * inputs=None) */
AG_FN(fn_backward)
{
    val a[5];
    TORCH_READ_ARGS("backward", "input, gradient=, retain_graph=, create_graph=, inputs=", a);
    bool retain = false, create = false;
    if ((ag_present(a[2]) && !torch_bool_arg(h, a[2], at, "backward", "retain_graph", &retain)) ||
        (ag_present(a[3]) && !torch_bool_arg(h, a[3], at, "backward", "create_graph", &create)))
        return val_err();
    if (create || ag_present(a[4]))
        return host_raise(h, HOST_EXC_NOT_IMPLEMENTED, at, "backward(): %s is not supported by "
                          "tritsim", create ? "create_graph=True" : "inputs=");
    if (!t->requires_grad)
        return host_error(h, at, "element 0 of tensors does not require grad and does not "
                          "have a grad_fn");
    char err[TENSOR_ERR_LEN];
    tensor *g;
    if (ag_present(a[1])) {
        tensor *given = torch_tensor_arg(h, a[1], at, "backward", "gradient");
        if (!given)
            return val_err();
        bool same = given->ndim == t->ndim;
        for (int i = 0; same && i < t->ndim; i++)
            same = given->shape[i] == t->shape[i];
        if (!same) {
            strbuf gs = {0}, ts = {0};
            tensor_shape_str(given->ndim, given->shape, &gs);
            tensor_shape_str(t->ndim, t->shape, &ts);
            host_error(h, at, "Mismatch in shape: grad_output[0] has a shape of torch.Size(%s) "
                       "and output[0] has a shape of torch.Size(%s).", strbuf_cstr(&gs),
                       strbuf_cstr(&ts));
            strbuf_free(&gs);
            strbuf_free(&ts);
            return val_err();
        }
        g = given->type == t->type ? tensor_ref(given) : tensor_to(given, t->type, t->cuda, err);
    } else {
        if (tensor_numel(t) != 1)
            return host_error(h, at, "grad can be implicitly created only for scalar outputs");
        dtype_scalar one = tensor_convert((dtype_scalar){.f = 1.0}, DTYPE_FP64, t->type);
        g = tensor_full(t->type, t->ndim, t->shape, one, t->cuda, err);
    }
    if (!g)
        return torch_fail(h, at, err);
    bool ok;
    ag_node *root = ag_node_of(t->grad_fn);
    if (root) {
        ok = ag_run(h, root, g, retain, at);
    } else {
        ok = ag_accumulate(t, g, err);
        if (!ok)
            torch_fail(h, at, err);
    }
    tensor_unref(g);
    return ok ? val_none() : val_err();
}

/* ---- tensor attributes and methods --------------------------------------------------- */

static bool ag_set_requires(host *h, tensor *t, bool on, src_span at)
{
    if (t->grad_fn.kind != VAL_NONE) {
        if (on)
            return true;
        host_error(h, at, "you can only change requires_grad flags of leaf variables. If you "
                   "want to use a computed variable in a subgraph that doesn't require "
                   "differentiation use var_no_grad = var.detach().");
        return false;
    }
    if (on && !dtype_is_float(t->type)) {
        host_error(h, at, "only Tensors of floating point dtype can require gradients");
        return false;
    }
    t->requires_grad = on;
    return true;
}

AG_FN(fn_requires_grad_)
{
    val a[2];
    TORCH_READ_ARGS("requires_grad_", "input, requires_grad=", a);
    bool on = true;
    if (ag_present(a[1]) && !torch_bool_arg(h, a[1], at, "requires_grad_", "requires_grad", &on))
        return val_err();
    if (!ag_set_requires(h, t, on, at))
        return val_err();
    return val_ref(a[0]);
}

val autograd_getattr(host *h, val self, const char *name)
{
    (void)h;
    tensor *t = tensor_of(self);
    if (!strcmp(name, "requires_grad"))
        return val_bool(t->requires_grad);
    if (!strcmp(name, "grad"))
        return val_ref(t->grad);
    if (!strcmp(name, "grad_fn"))
        return val_ref(t->grad_fn);
    if (!strcmp(name, "is_leaf"))
        return val_bool(t->grad_fn.kind == VAL_NONE);
    return val_missing();
}

int autograd_setattr(host *h, val self, const char *name, val value, src_span at)
{
    tensor *t = tensor_of(self);
    if (!strcmp(name, "requires_grad")) {
        if (value.kind != VAL_BOOL) {
            host_raise(h, HOST_EXC_TYPE, at, "requires_grad must be a bool, not '%s'",
                       val_type_name(value));
            return -1;
        }
        return ag_set_requires(h, t, value.u.b, at) ? 1 : -1;
    }
    if (!strcmp(name, "grad")) {
        tensor *g = tensor_of(value);
        if (value.kind != VAL_NONE && !g) {
            host_raise(h, HOST_EXC_TYPE, at, "assigned grad expected to be a Tensor or None "
                       "but got grad of type %s", val_type_name(value));
            return -1;
        }
        if (g) {
            bool same = g->ndim == t->ndim;
            for (int i = 0; same && i < t->ndim; i++)
                same = g->shape[i] == t->shape[i];
            if (!same) {
                host_error(h, at, "assigned grad has data of a different size");
                return -1;
            }
            if (g->type != t->type) {
                host_error(h, at, "assigned grad has data of a different type");
                return -1;
            }
        }
        val old = t->grad;
        t->grad = val_ref(value);
        val_unref(old);
        return 1;
    }
    return 0;
}

void autograd_repr_suffix(const tensor *t, strbuf *out)
{
    ag_node *n = ag_node_of(t->grad_fn);
    if (n)
        strbuf_printf(out, ", grad_fn=<%s>", n->name);
    else if (t->requires_grad)
        strbuf_puts(out, ", requires_grad=True");
}

const torch_fn torch_autograd_fns[] = {
    TORCH_METHOD_NO_GRAD("backward", fn_backward),
    TORCH_METHOD_NO_GRAD("requires_grad_", fn_requires_grad_),
    {NULL, NULL, NULL, NULL, NULL, 0},
};

/* ---- torch.autograd.Function ---------------------------------------------------------- */

/* What forward and backward see as ctx. */
typedef struct ag_ctx {
    val_object o;            /* attrs: what the program stores on it */
    val saved;               /* the tuple save_for_backward got, or NONE */
    val needs;               /* needs_input_grad: a tuple of bools */
    bool released;
} ag_ctx;

static void ag_ctx_free(val_obj *o)
{
    ag_ctx *c = (ag_ctx *)o;
    val_unref(c->saved);
    val_unref(c->needs);
}

static void ag_ctx_release(val ctx)
{
    ag_ctx *c = (ag_ctx *)ctx.u.o;
    c->released = true;
    val_unref(c->saved);
    c->saved = val_none();
}

AG_FN(ctx_save_for_backward)
{
    if (kw && kw->n)
        return host_raise(h, HOST_EXC_TYPE, at, "save_for_backward() takes no keyword "
                          "arguments");
    ag_ctx *c = (ag_ctx *)self.u.o;
    for (int i = 0; i < argc; i++)
        if (argv[i].kind != VAL_NONE && !tensor_of(argv[i]))
            return host_raise(h, HOST_EXC_TYPE, at, "save_for_backward can only save variables, "
                              "but argument %d is of type %s", i, val_type_name(argv[i]));
    val t = val_tuple_new((size_t)argc);
    for (int i = 0; i < argc; i++)
        val_seq_set(t, (size_t)i, val_ref(argv[i]));
    val_unref(c->saved);
    c->saved = t;
    return val_none();
}

AG_FN(ctx_noop)
{
    (void)h;
    (void)self;
    (void)argc;
    (void)argv;
    (void)kw;
    (void)at;
    return val_none();
}

static val ag_ctx_getattr(host *h, val self, const char *name, src_span at)
{
    ag_ctx *c = (ag_ctx *)self.u.o;
    if (!strcmp(name, "save_for_backward"))
        return val_builtin_new("FunctionCtx.save_for_backward", ctx_save_for_backward,
                               val_ref(self));
    if (!strcmp(name, "saved_tensors")) {
        if (c->released)
            return host_error(h, at, "Trying to backward through the graph a second time (or "
                              "directly access saved tensors after they have already been "
                              "freed). Specify retain_graph=True if you need to backward "
                              "through the graph a second time.");
        return c->saved.kind == VAL_TUPLE ? val_ref(c->saved) : val_tuple_new(0);
    }
    if (!strcmp(name, "needs_input_grad"))
        return val_ref(c->needs);
    if (!strcmp(name, "mark_dirty") || !strcmp(name, "mark_non_differentiable") ||
        !strcmp(name, "set_materialize_grads"))
        return val_builtin_new("FunctionCtx.mark", ctx_noop, val_ref(self));
    return val_missing();
}

static const char *const ag_ctx_attr_names[] = {
    "save_for_backward", "saved_tensors", "needs_input_grad", "mark_dirty",
    "mark_non_differentiable", "set_materialize_grads", NULL,
};

static const val_type ag_ctx_type = {
    .name = "FunctionCtx",
    .getattr = ag_ctx_getattr,
    .free = ag_ctx_free,
    .attr_names = ag_ctx_attr_names,
};

/* cls.name as a plain function (a staticmethod unwrapped). */
static val ag_static(host *h, val cls, const char *name, src_span at)
{
    return host_getattr(h, cls, name, at);
}

/* Fn.apply(*args): forward(ctx, *args) without recording, then one node
 * for the whole call, whose backward calls backward(ctx, *grads). */
AG_FN(fn_function_apply)
{
    val cls = self;
    if (cls.kind != VAL_CLASS)
        return host_raise(h, HOST_EXC_TYPE, at, "apply() must be called on a subclass of "
                          "torch.autograd.Function");
    if (kw && kw->n)
        return host_raise(h, HOST_EXC_TYPE, at, "apply() takes no keyword arguments");
    val forward = ag_static(h, cls, "forward", at);
    if (forward.kind == VAL_ERR)
        return forward;
    bool record = false;
    ag_ctx *c = val_obj_new(sizeof *c, VAL_OBJECT, &ag_ctx_type);
    c->o.attrs = val_dict_new();
    c->saved = val_none();
    c->needs = val_tuple_new((size_t)argc);
    for (int i = 0; i < argc; i++) {
        bool need = !h->no_grad && ag_requires(argv[i]);
        record |= need;
        val_seq_set(c->needs, (size_t)i, val_bool(need));
    }
    val ctx = val_of(c);
    val *args = xmalloc((size_t)(argc + 1) * sizeof *args);
    args[0] = ctx;
    for (int i = 0; i < argc; i++)
        args[i + 1] = argv[i];
    bool was = h->no_grad;
    h->no_grad = true;
    val r = host_call(h, forward, argc + 1, args, NULL, at);
    h->no_grad = was;
    free(args);
    val_unref(forward);
    if (r.kind == VAL_ERR || !record) {
        val_unref(ctx);
        return r;
    }
    /* the output: one tensor (a tuple holding one) */
    val out = r;
    if (r.kind == VAL_TUPLE) {
        int nt = 0;
        for (size_t i = 0; i < val_as_seq(r)->len; i++)
            if (tensor_of(val_as_seq(r)->items[i])) {
                nt++;
                out = val_as_seq(r)->items[i];
            }
        if (nt > 1) {
            val_unref(r);
            val_unref(ctx);
            return host_raise(h, HOST_EXC_NOT_IMPLEMENTED, at, "a torch.autograd.Function "
                              "whose forward returns several tensors is not supported by "
                              "tritsim");
        }
    }
    tensor *ot = tensor_of(out);
    if (!ot || !dtype_is_float(ot->type)) {
        val_unref(ctx);
        return r;
    }
    for (int i = 0; i < argc; i++) {
        if (argv[i].kind != VAL_TENSOR || argv[i].u.o != out.u.o)
            continue;
        if (r.kind == VAL_TUPLE) {
            val_unref(r);
            val_unref(ctx);
            return host_raise(h, HOST_EXC_NOT_IMPLEMENTED, at, "a torch.autograd.Function "
                              "whose forward returns one of its inputs in a tuple is not "
                              "supported by tritsim (return x.clone() or a view)");
        }
        /* forward returned an input: the output is a view of it */
        val v = ag_detached(r);
        val_unref(r);
        r = v;
        break;
    }
    char name[96];
    snprintf(name, sizeof name, "%sBackward", ((val_class *)cls.u.o)->name);
    ag_node *n = ag_node_new(h, name, name, at);
    n->cls = val_ref(cls);
    n->ctx = ctx;
    ag_inputs(n, argc);
    for (int i = 0; i < argc; i++)
        ag_input(n, i, argv[i]);
    if (r.kind == VAL_TUPLE) {
        for (size_t k = 0; k < val_as_seq(r)->len; k++)
            if (tensor_of(val_as_seq(r)->items[k]))
                ag_attach(val_as_seq(r)->items[k], n);
    } else {
        ag_attach(r, n);
    }
    val_unref(val_of(n));
    return r;
}

static bool ag_function_backward(host *h, ag_node *n, const tensor *g, tensor **gin,
                                 src_span at)
{
    val backward = ag_static(h, n->cls, "backward", at);
    if (backward.kind == VAL_ERR)
        return false;
    val args[2] = {n->ctx, val_of((tensor *)g)};
    bool was = h->no_grad;
    h->no_grad = true;
    val r = host_call(h, backward, 2, args, NULL, at);
    h->no_grad = was;
    val_unref(backward);
    if (r.kind == VAL_ERR)
        return false;
    val grads = r.kind == VAL_TUPLE ? val_ref(r) : val_tuple_of(1, (val[]){val_ref(r)});
    val_unref(r);
    const val_seq *s = val_as_seq(grads);
    bool ok = true;
    /* more gradients than inputs are fine when the extra ones are None */
    bool extra_none = (int)s->len > n->n;
    for (size_t i = (size_t)n->n; extra_none && i < s->len; i++)
        extra_none = s->items[i].kind == VAL_NONE;
    if ((int)s->len != n->n && !extra_none) {
        host_error(h, at, "function %s returned an incorrect number of gradients (expected %d, "
                   "got %zu)", n->name, n->n, s->len);
        ok = false;
    }
    char err[TENSOR_ERR_LEN];
    for (int i = 0; ok && i < n->n; i++) {
        val gi = s->items[i];
        if (gi.kind == VAL_NONE)
            continue;
        tensor *gt = tensor_of(gi);
        if (!gt) {
            host_raise(h, HOST_EXC_TYPE, at, "function %s returned a gradient of type '%s' at "
                       "position %d (a gradient is a Tensor or None)", n->name,
                       val_type_name(gi), i);
            ok = false;
            break;
        }
        if (n->next[i].kind == VAL_NONE)
            continue;   /* that input does not require grad */
        const ag_meta *m = &n->meta[i];
        bool same = gt->ndim == m->ndim;
        for (int k = 0; same && k < m->ndim; k++)
            same = gt->shape[k] == m->shape[k];
        if (!same) {
            strbuf gs = {0}, ms = {0};
            tensor_shape_str(gt->ndim, gt->shape, &gs);
            tensor_shape_str(m->ndim, m->shape, &ms);
            host_error(h, at, "Function %s returned an invalid gradient at index %d - got %s "
                       "but expected shape compatible with %s", n->name, i, strbuf_cstr(&gs),
                       strbuf_cstr(&ms));
            strbuf_free(&gs);
            strbuf_free(&ms);
            ok = false;
            break;
        }
        gin[i] = gt->type == m->type ? tensor_ref(gt) : tensor_to(gt, m->type, m->cuda, err);
        if (!gin[i]) {
            torch_fail(h, at, err);
            ok = false;
        }
    }
    val_unref(grads);
    return ok;
}

/* The base class's forward and backward, with PyTorch's messages. */
AG_FN(fn_function_no_forward)
{
    (void)self;
    (void)argc;
    (void)argv;
    (void)kw;
    return host_raise(h, HOST_EXC_NOT_IMPLEMENTED, at,
                      "You must implement the forward function for custom autograd.Function.");
}

AG_FN(fn_function_no_backward)
{
    (void)self;
    (void)argc;
    (void)argv;
    (void)kw;
    return host_raise(h, HOST_EXC_NOT_IMPLEMENTED, at,
                      "You must implement either the backward or vjp method for your custom "
                      "autograd.Function to use it with backward mode AD.");
}

/* ---- grad modes: no_grad, enable_grad, set_grad_enabled, inference_mode -------- */

typedef struct ag_mode {
    val_object o;
    bool enable;             /* what the mode turns grad on to */
    int depth;               /* entered and not left */
    bool prev[16];           /* the modes before, per entry */
} ag_mode;

AG_FN(mode_enter)
{
    (void)argc;
    (void)argv;
    (void)kw;
    (void)at;
    ag_mode *m = (ag_mode *)self.u.o;
    if (m->depth < 16)
        m->prev[m->depth] = !h->no_grad;
    m->depth++;
    h->no_grad = !m->enable;
    return val_none();
}

AG_FN(mode_exit)
{
    (void)argc;
    (void)argv;
    (void)kw;
    (void)at;
    ag_mode *m = (ag_mode *)self.u.o;
    if (m->depth > 0) {
        m->depth--;
        h->no_grad = m->depth < 16 ? !m->prev[m->depth] : h->no_grad;
    }
    return val_bool(false);
}

/* @torch.no_grad(): the function runs in the mode */
typedef struct ag_wrapped {
    val_object o;
    val fn;
    bool enable;
} ag_wrapped;

static void ag_wrapped_free(val_obj *o)
{
    val_unref(((ag_wrapped *)o)->fn);
}

static val ag_wrapped_call(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                           src_span at)
{
    ag_wrapped *w = (ag_wrapped *)self.u.o;
    bool was = h->no_grad;
    h->no_grad = !w->enable;
    val r = host_call(h, w->fn, argc, argv, kw, at);
    h->no_grad = was;
    return r;
}

static val ag_wrapped_getattr(host *h, val self, const char *name, src_span at)
{
    return host_getattr_opt(h, ((ag_wrapped *)self.u.o)->fn, name, at);
}

static const val_type ag_wrapped_type = {
    .name = "function",
    .getattr = ag_wrapped_getattr,
    .call = ag_wrapped_call,
    .free = ag_wrapped_free,
};

static val ag_mode_call(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                        src_span at)
{
    if (argc != 1 || (kw && kw->n))
        return host_raise(h, HOST_EXC_TYPE, at, "a grad mode decorates one function");
    ag_wrapped *w = val_obj_new(sizeof *w, VAL_OBJECT, &ag_wrapped_type);
    w->o.attrs = val_none();
    w->fn = val_ref(argv[0]);
    w->enable = ((ag_mode *)self.u.o)->enable;
    return val_of(w);
}

static val ag_mode_getattr(host *h, val self, const char *name, src_span at)
{
    (void)h;
    (void)at;
    if (!strcmp(name, "__enter__"))
        return val_builtin_new("no_grad.__enter__", mode_enter, val_ref(self));
    if (!strcmp(name, "__exit__"))
        return val_builtin_new("no_grad.__exit__", mode_exit, val_ref(self));
    return val_missing();
}

static void ag_mode_repr(host *h, val self, strbuf *out)
{
    (void)h;
    strbuf_printf(out, "<torch.autograd.grad_mode.%s object at %p>",
                  ((ag_mode *)self.u.o)->enable ? "enable_grad" : "no_grad", (void *)self.u.o);
}

static const val_type ag_mode_type = {
    .name = "grad_mode",
    .getattr = ag_mode_getattr,
    .call = ag_mode_call,
    .repr = ag_mode_repr,
};

static val ag_mode_new(bool enable)
{
    ag_mode *m = val_obj_new(sizeof *m, VAL_OBJECT, &ag_mode_type);
    m->o.attrs = val_none();
    m->enable = enable;
    return val_of(m);
}

AG_FN(fn_no_grad)
{
    (void)self;
    (void)argv;
    if (argc || (kw && kw->n))
        return host_raise(h, HOST_EXC_TYPE, at, "no_grad() takes no arguments");
    return ag_mode_new(false);
}

AG_FN(fn_enable_grad)
{
    (void)self;
    (void)argv;
    if (argc || (kw && kw->n))
        return host_raise(h, HOST_EXC_TYPE, at, "enable_grad() takes no arguments");
    return ag_mode_new(true);
}

/* set_grad_enabled(mode): sets the mode now, and is a context manager
 * that puts the old one back */
AG_FN(fn_set_grad_enabled)
{
    (void)self;
    val a[1];
    bool on;
    if (!host_args(h, at, "set_grad_enabled", "mode", argc, argv, kw, a) ||
        !torch_bool_arg(h, a[0], at, "set_grad_enabled", "mode", &on))
        return val_err();
    val m = ag_mode_new(on);
    ag_mode *mm = (ag_mode *)m.u.o;
    mm->prev[0] = !h->no_grad;
    mm->depth = 0;
    h->no_grad = !on;
    return m;
}

AG_FN(fn_is_grad_enabled)
{
    (void)self;
    (void)argv;
    if (argc || (kw && kw->n))
        return host_raise(h, HOST_EXC_TYPE, at, "is_grad_enabled() takes no arguments");
    return val_bool(!h->no_grad);
}

AG_FN(fn_inference_mode)
{
    (void)self;
    bool on = true;
    val a[1];
    if (!host_args(h, at, "inference_mode", "mode=", argc, argv, kw, a) ||
        (ag_present(a[0]) && !torch_bool_arg(h, a[0], at, "inference_mode", "mode", &on)))
        return val_err();
    return ag_mode_new(!on);
}

void autograd_init(host *h, val torch)
{
    val ag = val_module_new("torch.autograd");
    val fn = class_new("Function", val_none(), true);
    val_object_set(fn, "__module__", val_str_cstr("torch.autograd"));
    val_object_set(fn, "apply", class_method(val_builtin_new("torch.autograd.Function.apply",
                                                             fn_function_apply, val_none())));
    val_object_set(fn, "forward", class_static(val_builtin_new(
                                      "torch.autograd.Function.forward",
                                      fn_function_no_forward, val_none())));
    val_object_set(fn, "backward", class_static(val_builtin_new(
                                       "torch.autograd.Function.backward",
                                       fn_function_no_backward, val_none())));
    val_object_set(ag, "Function", fn);
    static const struct {
        const char *name, *qual;
        val_cfunc fn;
    } fns[] = {
        {"no_grad", "torch.no_grad", fn_no_grad},
        {"enable_grad", "torch.enable_grad", fn_enable_grad},
        {"set_grad_enabled", "torch.set_grad_enabled", fn_set_grad_enabled},
        {"is_grad_enabled", "torch.is_grad_enabled", fn_is_grad_enabled},
        {"inference_mode", "torch.inference_mode", fn_inference_mode},
    };
    for (size_t i = 0; i < sizeof fns / sizeof *fns; i++) {
        val_object_set(torch, fns[i].name, val_builtin_new(fns[i].qual, fns[i].fn, val_none()));
        if (i < 3)
            val_object_set(ag, fns[i].name, val_builtin_new(fns[i].qual, fns[i].fn,
                                                            val_none()));
    }
    val_object_set(torch, "autograd", val_ref(ag));
    host_register_module(h, "torch.autograd", ag);
}
