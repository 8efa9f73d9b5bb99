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

#include "autograd_impl.h"
#include "host.h"
#include "torch_impl.h"

#define AG_FN(name) \
    static val name(host *h, val self, int argc, const val *argv, const val_kwargs *kw, \
                    src_span at)

/* ---- nodes --------------------------------------------------------------------- */

static void ag_node_free(val_obj *o)
{
    ag_node *n = (ag_node *)o;
    for (int i = 0; i < n->n; i++)
        val_unref(n->next[i]);
    free(n->next);
    free(n->next_index);
    free(n->meta);
    for (int i = 0; i < AG_SAVED; i++)
        val_unref(n->saved[i]);
    val_unref(n->args);
    val_unref(n->kwargs);
    val_unref(n->cls);
    val_unref(n->ctx);
    for (int i = 0; i < AG_OUTS; i++)
        tensor_unref(n->grad[i]);
    free(n->outs);
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
    for (int i = 0; i < AG_SAVED; i++)
        n->saved[i] = val_none();
    n->args = val_none();
    n->kwargs = val_none();
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

bool ag_requires(val v)
{
    tensor *t = tensor_of(v);
    return t && t->requires_grad;
}

/* Does argument v of a call bring a tensor that requires grad: v itself,
 * or one in a list or tuple (cat and stack take their tensors so). */
static bool ag_arg_requires(val v)
{
    if (v.kind == VAL_LIST || v.kind == VAL_TUPLE) {
        const val_seq *s = val_as_seq(v);
        for (size_t i = 0; i < s->len; i++)
            if (ag_requires(s->items[i]))
                return true;
    }
    return ag_requires(v);
}

/* What an input's edge points at. */
static val ag_edge(val v)
{
    tensor *t = tensor_of(v);
    if (!t || !t->requires_grad)
        return val_none();
    return t->grad_fn.kind != VAL_NONE ? val_ref(t->grad_fn) : val_ref(v);
}

void ag_inputs(ag_node *n, int count)
{
    n->n = count;
    n->next = xmalloc((size_t)(count ? count : 1) * sizeof *n->next);
    n->next_index = xcalloc((size_t)(count ? count : 1), sizeof *n->next_index);
    n->meta = xcalloc((size_t)(count ? count : 1), sizeof *n->meta);
    for (int i = 0; i < count; i++)
        n->next[i] = val_none();
}

void ag_input(ag_node *n, int i, val v)
{
    val_unref(n->next[i]);
    n->next[i] = ag_edge(v);
    tensor *t = tensor_of(v);
    if (t)
        ag_meta_of(t, &n->meta[i]);
    n->next_index[i] = t && t->grad_fn.kind != VAL_NONE ? t->grad_index : 0;
}

/* A tensor's data without its autograd state (what nodes keep). */
val ag_detached(val v)
{
    tensor *t = tensor_of(v);
    if (!t)
        return val_ref(v);
    tensor *d = tensor_view_of(t, t->ndim, t->shape, t->strides, t->offset);
    d->kept = true;     /* not a view the program can write through */
    d->storage->kept++;
    return tensor_val(d);
}

void ag_keep_call(ag_node *n, int argc, const val *all, const val_kwargs *kw)
{
    val args = val_tuple_new((size_t)argc);
    for (int i = 0; i < argc; i++)
        val_seq_set(args, (size_t)i, ag_detached(all[i]));
    int nk = kw ? kw->n : 0;
    val names = val_tuple_new((size_t)nk), values = val_tuple_new((size_t)nk);
    for (int i = 0; i < nk; i++) {
        val_seq_set(names, (size_t)i, val_str_cstr(kw->names[i]));
        val_seq_set(values, (size_t)i, ag_detached(kw->values[i]));
    }
    val_unref(n->args);
    val_unref(n->kwargs);
    n->args = args;
    n->kwargs = val_tuple_of(2, (val[]){names, values});
}

bool ag_call_of(const ag_node *n, ag_call *c)
{
    if (n->args.kind != VAL_TUPLE || n->kwargs.kind != VAL_TUPLE)
        return false;
    const val_seq *a = val_as_seq(n->args), *k = val_as_seq(n->kwargs);
    const val_seq *names = val_as_seq(k->items[0]), *values = val_as_seq(k->items[1]);
    c->argc = (int)a->len;
    c->all = a->items;
    c->kw.n = (int)names->len < TORCH_ARGS_MAX ? (int)names->len : TORCH_ARGS_MAX;
    for (int i = 0; i < c->kw.n; i++)
        c->names[i] = val_as_str(names->items[i])->s;
    c->kw.names = c->names;
    c->kw.values = values->items;
    return true;
}

void ag_set_name(ag_node *n, const char *name)
{
    free(n->name);
    n->name = ag_strdup(name);
}

/* Make result (a tensor) output number index of node n. */
static void ag_attach(val result, ag_node *n, int index)
{
    tensor *t = tensor_of(result);
    t->requires_grad = true;
    val_unref(t->grad_fn);
    t->grad_fn = val_ref(val_of(n));
    t->grad_index = index;
    if (index == 0)
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
val ag_arg(int argc, const val *all, const val_kwargs *kw, int i, const char *name)
{
    if (i < argc)
        return all[i];
    for (int k = 0; kw && k < kw->n; k++)
        if (!strcmp(kw->names[k], name))
            return kw->values[k];
    return val_missing();
}

bool ag_kw_has(const val_kwargs *kw, const char *name)
{
    for (int k = 0; kw && k < kw->n; k++)
        if (!strcmp(kw->names[k], name))
            return true;
    return false;
}

bool ag_present(val v)
{
    return v.kind != VAL_MISSING && v.kind != VAL_NONE;
}

static const ag_formula *ag_formula_of(const char *op)
{
    const ag_formula *tables[] = {ag_formulas_base, ag_formulas_ops, ag_formulas_nn};
    for (size_t i = 0; i < sizeof tables / sizeof *tables; i++)
        for (const ag_formula *f = tables[i]; f->op; f++)
            if (!strcmp(f->op, op))
                return f;
    return NULL;
}

/* ---- recording -------------------------------------------------------------------- */

/* Record a call of op (what `called` names in messages) with arguments
 * all[0..argc) and kw that made result (stolen; returned). */
/* The versions of what node n keeps, for ag_saved_intact. */
static void ag_note_versions(ag_node *n)
{
    for (int k = 0; k < AG_SAVED; k++) {
        tensor *t = tensor_of(n->saved[k]);
        n->saved_version[k] = t ? t->storage->version : 0;
    }
}

/* False, with PyTorch's error, when an in-place write autograd recorded
 * (x[key] = v) changed data node n kept for its backward. */
static bool ag_saved_intact(host *h, const ag_node *n, src_span at)
{
    for (int k = 0; k < AG_SAVED; k++) {
        const tensor *t = tensor_of(n->saved[k]);
        if (!t || t->storage->version == n->saved_version[k] || (n->saved_unread >> k & 1))
            continue;
        strbuf s = {0};
        tensor_shape_str(t->ndim, t->shape, &s);
        host_error(h, at, "one of the variables needed for gradient computation has been "
                   "modified by an inplace operation: [torch.%sTensor %s], which %s needs, is "
                   "at version %u; expected version %u instead. Write into a clone, or do "
                   "the in-place write before the operation", tensor_type_name(t->type),
                   strbuf_cstr(&s), n->name, t->storage->version, n->saved_version[k]);
        strbuf_free(&s);
        return false;
    }
    return true;
}

static val ag_record(host *h, const char *op, const char *called, val result, int argc,
                     const val *all, const val_kwargs *kw, src_span at)
{
    tensor *rt = tensor_of(result);
    bool any = false;
    for (int i = 0; i < argc; i++)
        any |= ag_arg_requires(all[i]);
    for (int i = 0; kw && i < kw->n; i++)
        any |= ag_arg_requires(kw->values[i]);
    if (h->no_grad || !any)
        return result;
    /* results that are an input itself (x.to(x.dtype), x.contiguous()) keep
     * their identity; tensors of ints and bools are never differentiable */
    for (int i = 0; rt && i < argc; i++)
        if (all[i].kind == VAL_TENSOR && all[i].u.o == result.u.o)
            return result;
    const ag_formula *f = !rt || dtype_is_float(rt->type) ? ag_formula_of(op) : NULL;
    char name[96];
    if (f && (!strcmp(f->op, "sum") || !strcmp(f->op, "mean")) &&
        !ag_present(ag_arg(argc, all, kw, 1, "dim")) && !ag_kw_has(kw, "axis"))
        snprintf(name, sizeof name, "%s0", !strcmp(f->op, "sum") ? "SumBackward" : "MeanBackward");
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
        ag_note_versions(n);
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
    val items = torch_return_items(result);   /* sort, topk, max(dim): (values, indices) */
    if (rt) {
        if (dtype_is_float(rt->type))
            ag_attach(result, n, 0);
    } else if (result.kind == VAL_TUPLE || result.kind == VAL_LIST ||
               items.kind == VAL_TUPLE) {
        /* each float tensor is an output of its own (var_mean's two) */
        const val_seq *s = val_as_seq(items.kind == VAL_TUPLE ? items : result);
        for (size_t i = 0, k = 0; i < s->len && k < AG_FORMULA_OUTS; i++) {
            tensor *t = tensor_of(s->items[i]);
            if (t && dtype_is_float(t->type) && !t->requires_grad)
                ag_attach(s->items[i], n, (int)k++);
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
        /* x[key] = value writes through a view of x, and PyTorch says so */
        host_error(h, at, "a %sleaf Variable that requires grad is being used in an in-place "
                   "operation.", strcmp(op, "x[key] = value") == 0 ? "view of a " : "");
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

/* x[key] = value where autograd records it: x is not a leaf that requires
 * grad (PyTorch's error) and no other tensor of the program views its
 * storage (a write through a view would change its base's graph too, which
 * tritsim does not follow; the views nodes keep do not count).  x's old place in the graph and value become the inputs
 * of a CopySlices node, which is x's grad_fn from then on; the storage's
 * version goes up, so nodes that kept x's old data refuse to run. */
bool autograd_setitem(host *h, val self, val key, val value, src_span at)
{
    tensor *t = tensor_of(self);
    bool any = t->requires_grad || ag_requires(value);
    if (h->no_grad || !any)
        return torch_setitem(h, self, key, value, at);
    if (t->requires_grad && t->grad_fn.kind == VAL_NONE)
        return autograd_check_inplace(h, "x[key] = value", self, 1, &value, at);
    if (t->storage->refs - t->storage->kept > 1) {
        host_raise(h, HOST_EXC_NOT_IMPLEMENTED, at, "tritsim's autograd does not record "
                   "'x[key] = value' on a tensor that shares its storage with another (a view "
                   "or a view's base) while one of them requires grad: write into a clone, or "
                   "do it under torch.no_grad()");
        return false;
    }
    if (!dtype_is_float(t->type)) {
        host_error(h, at, "x[key] = value: a %s tensor cannot take a value that requires grad",
                   dtype_torch_name(t->type));
        return false;
    }
    const ag_formula *f = ag_formula_of("setitem");
    /* PyTorch's name: a key with a tensor (a mask, an index list) is an
     * index_put_, a key of ints and slices writes a view (CopySlices) */
    bool advanced = tensor_of(key) != NULL || key.kind == VAL_LIST;
    for (size_t i = 0; key.kind == VAL_TUPLE && i < val_as_seq(key)->len; i++) {
        val k = val_as_seq(key)->items[i];
        advanced |= tensor_of(k) != NULL || k.kind == VAL_LIST;
    }
    ag_node *n = ag_node_new(h, advanced ? "IndexPutBackward0" : f->node, "x[key] = value", at);
    n->f = f;
    val all[3] = {self, key, value};
    /* the inputs first: self's place in the graph before the write */
    if (!f->record(h, n, 3, all, NULL, self, at) ||
        !torch_setitem(h, self, key, value, at)) {
        val_unref(val_of(n));
        return false;
    }
    ag_note_versions(n);
    t->storage->version++;
    ag_attach(self, n, 0);
    val_unref(val_of(n));
    return true;
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

/* f(..., out=t) for a function that computes a new tensor: the result
 * is computed without out, then written into t, which must have its shape;
 * t is the call's value.  As in PyTorch, a dtype the result cannot be cast
 * to safely is an error, and so is out= while autograd records. */
static val ag_call_plain(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                         src_span at);

static val ag_call_out(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                       int oi, src_span at)
{
    const char *called = h->calling->name, *dot = strrchr(called, '.');
    const char *shortname = dot ? dot + 1 : called;   /* PyTorch's messages say add() */
    const char *names[TORCH_ARGS_MAX];
    val values[TORCH_ARGS_MAX];
    val_kwargs rest = {.n = 0, .names = names, .values = values};
    for (int i = 0; i < kw->n && rest.n < TORCH_ARGS_MAX; i++)
        if (i != oi) {
            names[rest.n] = kw->names[i];
            values[rest.n++] = kw->values[i];
        }
    if (kw->values[oi].kind == VAL_NONE)    /* out=None: no out */
        return ag_call_plain(h, self, argc, argv, rest.n ? &rest : NULL, at);
    tensor *out = tensor_of(kw->values[oi]);
    if (!out)
        return host_raise(h, HOST_EXC_TYPE, at, "%s(): argument 'out' must be Tensor, not %s",
                          shortname, val_type_name(kw->values[oi]));
    const torch_fn *f = h->calling->data;
    bool any = false;
    val all[TORCH_ARGS_MAX];
    int n = torch_self_args(self, argc, argv, all, TORCH_ARGS_MAX);
    for (int i = 0; i < n; i++)
        any |= ag_arg_requires(all[i]);
    for (int i = 0; i < rest.n; i++)
        any |= ag_arg_requires(values[i]);
    if (any && !h->no_grad)
        return host_error(h, at, "%s(): functions with out=... arguments don't support "
                          "automatic differentiation, but one of the arguments requires grad.",
                          shortname);
    val r = f->fn(h, self, argc, argv, rest.n ? &rest : NULL, at);
    tensor *t = tensor_of(r);
    if (r.kind == VAL_ERR || !t)
        return r;
    char err[TENSOR_ERR_LEN];
    bool same = t->ndim == out->ndim;
    for (int i = 0; same && i < t->ndim; i++)
        same = t->shape[i] == out->shape[i];
    bool ok = false;
    if (!same) {
        strbuf a = {0}, b = {0};
        tensor_shape_str(t->ndim, t->shape, &a);
        tensor_shape_str(out->ndim, out->shape, &b);
        host_error(h, at, "%s(): the result has shape %s and out= has shape %s; tritsim does "
                   "not resize out= tensors (make out the result's shape)", shortname,
                   strbuf_cstr(&a), strbuf_cstr(&b));
        strbuf_free(&a);
        strbuf_free(&b);
    } else if (!tensor_can_cast(t->type, out->type)) {
        host_error(h, at, "result type %s can't be cast to the desired output type %s",
                   tensor_type_name(t->type), tensor_type_name(out->type));
    } else if (!tensor_copy_into(out, t, err)) {
        torch_fail(h, at, err);
    } else {
        ok = true;
    }
    val_unref(r);
    return ok ? val_ref(kw->values[oi]) : val_err();
}

val autograd_call(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                  src_span at)
{
    const torch_fn *f = h->calling->data;
    val cx;
    if (torch_complex_dispatch(h, f, self, argc, argv, kw, at, &cx))
        return cx;
    /* out=: the creation functions and norm read it themselves */
    for (int i = 0; f->grad != TORCH_AG_CREATE && kw && i < kw->n; i++)
        if (!strcmp(kw->names[i], "out") && strcmp(f->name, "norm"))
            return ag_call_out(h, self, argc, argv, kw, i, at);
    return ag_call_plain(h, self, argc, argv, kw, at);
}

static val ag_call_plain(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
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
        any |= ag_arg_requires(all[i]);
    for (int i = 0; kw && i < kw->n; i++)
        any |= ag_arg_requires(kw->values[i]);
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

/* Add g (borrowed) to the gradient a node's output k has collected. */
static bool ag_collect(ag_node *n, int k, tensor *g, char *err)
{
    if (!n->grad[k]) {
        n->grad[k] = tensor_ref(g);
        return true;
    }
    tensor *s = tensor_binary(TENSOR_ADD, tensor_operand_of(n->grad[k]), tensor_operand_of(g),
                              err);
    if (!s)
        return false;
    tensor_unref(n->grad[k]);
    n->grad[k] = s;
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
    for (int i = 0; i < AG_SAVED; i++) {
        if (n->saved[i].kind != VAL_TENSOR)
            continue;   /* numbers stay: they are no saved tensors */
        n->released = true;
        val_unref(n->saved[i]);
        n->saved[i] = val_none();
    }
}

static bool ag_function_backward(host *h, ag_node *n, tensor *const *gs, tensor **gin,
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
        return ag_function_backward(h, n, (tensor *const[]){g}, gin, at);
    if (!n->f) {
        char where[160] = "";
        if (n->file)
            snprintf(where, sizeof where, " (recorded at %s:%d:%d)", n->file->name, n->at.line,
                     n->at.col);
        host_raise(h, HOST_EXC_NOT_IMPLEMENTED, at, "autograd: backward reached '%s'%s, which "
                   "tritsim has no backward formula for (doc/language.md lists those it has)",
                   n->op, where);
        return false;
    }
    if (!ag_saved_intact(h, n, at))
        return false;
    bool was = h->no_grad;
    h->no_grad = true;
    bool ok = n->f->backward(h, n, g, gin, err);
    h->no_grad = was;
    if (!ok && !host_exc_pending(h))
        host_error(h, at, "autograd: the backward of '%s' failed: %s", n->op, err);
    return ok;
}

/* Run backward from output out of node root with gradient g0 (borrowed). */
/* A Function's node with several outputs: backward(ctx, *grads) with the
 * gradient collected for each output, zeros for a float output no
 * gradient reached (PyTorch materializes them), None for the others. */
static bool ag_function_outputs(host *h, ag_node *n, tensor **gin, src_span at)
{
    tensor *gs[AG_OUTS] = {NULL};
    bool any = false, ok = true;
    char err[TENSOR_ERR_LEN];
    for (int k = 0; k < n->nout; k++) {
        gs[k] = n->grad[k];
        n->grad[k] = NULL;
        any |= gs[k] != NULL;
    }
    for (int k = 0; ok && any && k < n->nout; k++) {
        const ag_meta *m = &n->outs[k];
        if (gs[k] || m->type == DTYPE_INVALID)
            continue;
        gs[k] = tensor_new(m->type, m->ndim, m->shape, m->cuda, err);
        if (!gs[k]) {
            host_error(h, at, "autograd: %s", err);
            ok = false;
        }
    }
    if (ok && any)
        ok = ag_function_backward(h, n, gs, gin, at);
    for (int k = 0; k < n->nout; k++)
        tensor_unref(gs[k]);
    return ok;
}

/* torch.autograd.grad's leaves: the gradients reaching them are summed
 * here instead of into their .grad, and other leaves get nothing. */
typedef struct ag_capture {
    int n;
    tensor **leaves;         /* borrowed */
    tensor **grads;          /* per leaf: the sum so far, or NULL */
} ag_capture;

/* A gradient g reaching leaf: its .grad, or the capture's slot. */
static bool ag_deliver(ag_capture *cap, tensor *leaf, tensor *g, char *err)
{
    if (!cap)
        return ag_accumulate(leaf, g, err);
    for (int i = 0; i < cap->n; i++) {
        if (cap->leaves[i] != leaf)
            continue;
        if (cap->grads[i])
            return tensor_binary_inplace(TENSOR_ADD, cap->grads[i], tensor_operand_of(g), err);
        cap->grads[i] = tensor_to(g, leaf->type, leaf->cuda, err);   /* a copy of its own */
        return cap->grads[i] != NULL;
    }
    return true;
}

static bool ag_run(host *h, ag_node *root, int out, tensor *g0, bool retain, ag_capture *into,
                   src_span at)
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
    root->grad[out] = tensor_ref(g0);
    bool ok = true;
    char err[TENSOR_ERR_LEN];
    while (ok && nready) {
        ag_node *n = ready[--nready];
        tensor **gin = xcalloc((size_t)(n->n ? n->n : 1), sizeof *gin);
        tensor *g = NULL, *g2 = NULL;
        if (n->nout > 1) {
            ok = ag_function_outputs(h, n, gin, at);
        } else {
            g = n->grad[0];
            g2 = n->grad[1];
            n->grad[0] = n->grad[1] = NULL;
        }
        if (!g && g2) {
            /* only the second output was used: the first's gradient is 0 */
            g = tensor_new(n->out.type, n->out.ndim, n->out.shape, n->out.cuda, err);
            if (!g) {
                host_error(h, at, "autograd: %s", err);
                ok = false;
            }
        }
        n->g2 = g2;
        if (g)
            ok = ag_apply(h, n, g, gin, at);
        n->g2 = NULL;
        tensor_unref(g2);
        for (int k = 0; k < n->n; k++) {
            ag_node *m = ag_node_of(n->next[k]);
            tensor *leaf = tensor_of(n->next[k]);
            if (ok && gin[k] && m) {
                ok = ag_collect(m, n->next_index[k], gin[k], err);
                if (!ok)
                    host_error(h, at, "autograd: %s", err);
            } else if (ok && gin[k] && leaf) {
                ok = ag_deliver(into, leaf, gin[k], err);
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
        for (int k = 0; k < AG_OUTS; k++) {
            tensor_unref(all[i]->grad[k]);
            all[i]->grad[k] = NULL;
        }
        all[i]->mark = 0;
    }
    free(ready);
    free(all);
    return ok;
}

/* The gradient of output t to start from: given (a tensor, or MISSING or
 * None for ones, which only a scalar output may have); NULL after an
 * error.  k: the output's position, for messages. */
static tensor *ag_output_grad(host *h, tensor *t, val given_v, int k, src_span at)
{
    char err[TENSOR_ERR_LEN];
    tensor *g;
    if (ag_present(given_v) && given_v.kind != VAL_NONE) {
        tensor *given = torch_tensor_arg(h, given_v, at, "backward", "gradient");
        if (!given)
            return NULL;
        bool same = given->ndim == t->ndim;
        for (int i = 0; same && i < t->ndim; i++)
            same = given->shape[i] == t->shape[i];
        if (!same) {
            strbuf gs = {0}, ts = {0};
            tensor_shape_str(given->ndim, given->shape, &gs);
            tensor_shape_str(t->ndim, t->shape, &ts);
            host_error(h, at, "Mismatch in shape: grad_output[%d] has a shape of "
                       "torch.Size(%s) and output[%d] has a shape of torch.Size(%s).", k,
                       strbuf_cstr(&gs), k, strbuf_cstr(&ts));
            strbuf_free(&gs);
            strbuf_free(&ts);
            return NULL;
        }
        g = given->type == t->type ? tensor_ref(given) : tensor_to(given, t->type, t->cuda, err);
    } else {
        if (tensor_numel(t) != 1) {
            host_error(h, at, "grad can be implicitly created only for scalar outputs");
            return NULL;
        }
        dtype_scalar one = tensor_convert((dtype_scalar){.f = 1.0}, DTYPE_FP64, t->type);
        g = tensor_full(t->type, t->ndim, t->shape, one, t->cuda, err);
    }
    if (!g)
        torch_fail(h, at, err);
    return g;
}

/* Send gradient g back from output t (through its graph, or straight to
 * it when it is a leaf). */
static bool ag_from_output(host *h, tensor *t, tensor *g, bool retain, ag_capture *cap,
                           src_span at)
{
    ag_node *root = ag_node_of(t->grad_fn);
    if (root)
        return ag_run(h, root, t->grad_index, g, retain, cap, at);
    char err[TENSOR_ERR_LEN];
    if (!ag_deliver(cap, t, g, err)) {
        torch_fail(h, at, err);
        return false;
    }
    return true;
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
    tensor *g = ag_output_grad(h, t, a[1], 0, at);
    if (!g)
        return val_err();
    bool ok = ag_from_output(h, t, g, retain, NULL, at);
    tensor_unref(g);
    return ok ? val_none() : val_err();
}

/* The tensors of a tensor-or-sequence argument into out (at most cap);
 * -1 after an error. */
static int ag_tensor_list(host *h, val v, const char *what, val *out, int cap, src_span at)
{
    if (tensor_of(v)) {
        out[0] = v;
        return 1;
    }
    if (v.kind != VAL_TUPLE && v.kind != VAL_LIST) {
        host_raise(h, HOST_EXC_TYPE, at, "grad(): %s must be a Tensor or a sequence of "
                   "Tensors, not '%s'", what, val_type_name(v));
        return -1;
    }
    const val_seq *s = val_as_seq(v);
    if ((int)s->len > cap) {
        host_raise(h, HOST_EXC_NOT_IMPLEMENTED, at, "grad(): more than %d %s are not "
                   "supported by tritsim", cap, what);
        return -1;
    }
    for (size_t i = 0; i < s->len; i++) {
        if (!tensor_of(s->items[i]) && !(s->items[i].kind == VAL_NONE && !strcmp(what,
                                                                           "grad_outputs"))) {
            host_raise(h, HOST_EXC_TYPE, at, "grad(): %s[%zu] must be a Tensor, not '%s'", what,
                       i, val_type_name(s->items[i]));
            return -1;
        }
        out[i] = s->items[i];
    }
    return (int)s->len;
}

enum { AG_GRAD_MAX = 64 };

/* torch.autograd.backward(tensors, grad_tensors=None, retain_graph=None,
 * create_graph=False, grad_variables=None, inputs=None): tensor.backward
 * for each tensor in turn, the gradients adding up in the leaves' .grad. */
AG_FN(fn_autograd_backward)
{
    (void)self;
    val a[6];
    if (!host_args(h, at, "backward", "tensors, grad_tensors=, retain_graph=, create_graph=, "
                   "grad_variables=, inputs=", argc, argv, kw, a))
        return val_err();
    bool retain = false, create = false;
    if ((ag_present(a[2]) && a[2].kind != VAL_NONE &&
         !torch_bool_arg(h, a[2], at, "backward", "retain_graph", &retain)) ||
        (ag_present(a[3]) && !torch_bool_arg(h, a[3], at, "backward", "create_graph", &create)))
        return val_err();
    if (create || (ag_present(a[5]) && a[5].kind != VAL_NONE))
        return host_raise(h, HOST_EXC_NOT_IMPLEMENTED, at, "torch.autograd.backward(): %s is "
                          "not supported by tritsim", create ? "create_graph=True" : "inputs=");
    val outs[AG_GRAD_MAX], gos[AG_GRAD_MAX];
    int no = ag_tensor_list(h, a[0], "tensors", outs, AG_GRAD_MAX, at);
    int ng = 0;
    if (no >= 0 && ag_present(a[1]) && a[1].kind != VAL_NONE) {
        ng = ag_tensor_list(h, a[1], "grad_outputs", gos, AG_GRAD_MAX, at);
        if (ng >= 0 && ng != no) {
            host_error(h, at, "grad_tensors has %d items for %d tensors", ng, no);
            ng = -1;
        }
    }
    if (no < 0 || ng < 0)
        return val_err();
    for (int k = 0; k < no; k++)
        if (!tensor_of(outs[k])->requires_grad)
            return host_error(h, at, "element %d of tensors does not require grad and does "
                              "not have a grad_fn", k);
    bool ok = true;
    for (int k = 0; ok && k < no; k++) {
        tensor *t = tensor_of(outs[k]);
        tensor *g = ag_output_grad(h, t, ng ? gos[k] : val_none(), k, at);
        ok = g && ag_from_output(h, t, g, retain || k + 1 < no, NULL, at);
        tensor_unref(g);
    }
    return ok ? val_none() : val_err();
}

/* torch.autograd.grad(outputs, inputs, grad_outputs=None, retain_graph=None,
 * create_graph=False, only_inputs=True, allow_unused=None,
 * is_grads_batched=False, materialize_grads=False): the gradients of the
 * outputs with respect to the inputs (leaves), without touching any .grad. */
AG_FN(fn_autograd_grad)
{
    (void)self;
    val a[9];
    if (!host_args(h, at, "grad", "outputs, inputs, grad_outputs=, retain_graph=, "
                   "create_graph=, only_inputs=, allow_unused=, is_grads_batched=, "
                   "materialize_grads=", argc, argv, kw, a))
        return val_err();
    bool retain = false, create = false, unused = false, batched = false, materialize = false;
    if ((ag_present(a[3]) && a[3].kind != VAL_NONE &&
         !torch_bool_arg(h, a[3], at, "grad", "retain_graph", &retain)) ||
        (ag_present(a[4]) && !torch_bool_arg(h, a[4], at, "grad", "create_graph", &create)) ||
        (ag_present(a[6]) && a[6].kind != VAL_NONE &&
         !torch_bool_arg(h, a[6], at, "grad", "allow_unused", &unused)) ||
        (ag_present(a[7]) && !torch_bool_arg(h, a[7], at, "grad", "is_grads_batched",
                                              &batched)) ||
        (ag_present(a[8]) && !torch_bool_arg(h, a[8], at, "grad", "materialize_grads",
                                              &materialize)))
        return val_err();
    if (create || batched)
        return host_raise(h, HOST_EXC_NOT_IMPLEMENTED, at, "torch.autograd.grad(): %s is not "
                          "supported by tritsim", create ? "create_graph=True"
                                                         : "is_grads_batched=True");
    val outs[AG_GRAD_MAX], ins[AG_GRAD_MAX], gos[AG_GRAD_MAX];
    int no = ag_tensor_list(h, a[0], "outputs", outs, AG_GRAD_MAX, at);
    int ni = no < 0 ? -1 : ag_tensor_list(h, a[1], "inputs", ins, AG_GRAD_MAX, at);
    int ng = 0;
    if (ni >= 0 && ag_present(a[2]) && a[2].kind != VAL_NONE) {
        ng = ag_tensor_list(h, a[2], "grad_outputs", gos, AG_GRAD_MAX, at);
        if (ng >= 0 && ng != no) {
            host_error(h, at, "grad requires one grad_output per output (%d outputs, %d "
                       "grad_outputs)", no, ng);
            ng = -1;
        }
    }
    if (no < 0 || ni < 0 || ng < 0)
        return val_err();
    tensor *leaves[AG_GRAD_MAX], *grads[AG_GRAD_MAX] = {NULL};
    for (int i = 0; i < ni; i++) {
        leaves[i] = tensor_of(ins[i]);
        if (!leaves[i]->requires_grad)
            return host_error(h, at, "One of the differentiated Tensors does not require grad");
        if (leaves[i]->grad_fn.kind != VAL_NONE)
            return host_raise(h, HOST_EXC_NOT_IMPLEMENTED, at, "torch.autograd.grad() with "
                              "respect to a tensor that is not a leaf (input %d) is not "
                              "supported by tritsim", i);
    }
    for (int k = 0; k < no; k++)
        if (!tensor_of(outs[k])->requires_grad)
            return host_error(h, at, "element %d of tensors does not require grad and does "
                              "not have a grad_fn", k);
    ag_capture cap = {ni, leaves, grads};
    bool ok = true;
    for (int k = 0; ok && k < no; k++) {
        tensor *t = tensor_of(outs[k]);
        tensor *g = ag_output_grad(h, t, ng ? gos[k] : val_none(), k, at);
        /* one pass per output: the graph stays for the next ones */
        ok = g && ag_from_output(h, t, g, retain || k + 1 < no, &cap, at);
        tensor_unref(g);
    }
    val r = ok ? val_tuple_new((size_t)ni) : val_err();
    char err[TENSOR_ERR_LEN];
    for (int i = 0; ok && i < ni; i++) {
        if (!grads[i] && materialize) {
            const tensor *l = leaves[i];
            grads[i] = tensor_new(l->type, l->ndim, l->shape, l->cuda, err);
            if (!grads[i]) {
                torch_fail(h, at, err);
                ok = false;
                break;
            }
        }
        if (!grads[i] && !unused) {
            host_error(h, at, "One of the differentiated Tensors appears to not have been used "
                       "in the graph. Set allow_unused=True if this is the desired behavior.");
            ok = false;
            break;
        }
        val_seq_set(r, (size_t)i, grads[i] ? tensor_val(grads[i]) : val_none());
        grads[i] = NULL;
    }
    for (int i = 0; i < ni; i++)
        tensor_unref(grads[i]);
    if (!ok) {
        val_unref(r);
        return val_err();
    }
    return r;
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

/* Fn.apply's node when forward returned a tuple of several tensors: item
 * k of the tuple is output k of the node (its float tensors; an input
 * returned as it is becomes a view of it first, as a single output
 * does). */
static val ag_function_several(host *h, val cls, val ctx, int argc, const val *argv, val r,
                               src_span at)
{
    const val_seq *s = val_as_seq(r);
    const size_t len = s->len;
    if (len > AG_OUTS) {
        val_unref(r);
        val_unref(ctx);
        return host_raise(h, HOST_EXC_NOT_IMPLEMENTED, at, "a torch.autograd.Function whose "
                          "forward returns more than %d items is not supported by tritsim",
                          AG_OUTS);
    }
    val items = val_tuple_new(len);
    for (size_t k = 0; k < len; k++) {
        val v = s->items[k];
        for (int i = 0; i < argc && tensor_of(v); i++)
            if (argv[i].kind == VAL_TENSOR && argv[i].u.o == v.u.o) {
                val_seq_set(items, k, ag_detached(v));
                v = val_missing();
                break;
            }
        if (v.kind != VAL_MISSING)
            val_seq_set(items, k, val_ref(v));
    }
    val_unref(r);   /* s is gone with it */
    char name[96];
    snprintf(name, sizeof name, "%sBackward", ((val_class *)cls.u.o)->name);
    ag_node *n = ag_node_new(h, name, name, at);
    n->cls = val_ref(cls);
    n->ctx = ctx;
    n->nout = (int)len;
    n->outs = xcalloc(len, sizeof *n->outs);
    ag_inputs(n, argc);
    for (int i = 0; i < argc; i++)
        ag_input(n, i, argv[i]);
    const val_seq *o = val_as_seq(items);
    for (size_t k = 0; k < o->len; k++) {
        tensor *t = tensor_of(o->items[k]);
        n->outs[k].type = DTYPE_INVALID;
        if (t && dtype_is_float(t->type)) {
            ag_attach(o->items[k], n, (int)k);
            ag_meta_of(t, &n->outs[k]);
        }
    }
    val_unref(val_of(n));
    return items;
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
    /* the output: one tensor, or a tuple whose float tensors are the
     * node's outputs (backward gets one gradient per item of the tuple,
     * None for the items that are not tensors) */
    if (r.kind == VAL_TUPLE) {
        for (size_t i = 0; i < val_as_seq(r)->len; i++)
            if (tensor_of(val_as_seq(r)->items[i]))
                return ag_function_several(h, cls, ctx, argc, argv, r, at);
    }
    val out = r;
    tensor *ot = tensor_of(out);
    if (!ot || !dtype_is_float(ot->type)) {
        val_unref(ctx);
        return r;
    }
    for (int i = 0; i < argc; i++) {
        if (argv[i].kind != VAL_TENSOR || argv[i].u.o != out.u.o)
            continue;
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
    ag_attach(r, n, 0);
    val_unref(val_of(n));
    return r;
}

static bool ag_function_backward(host *h, ag_node *n, tensor *const *gs, tensor **gin,
                                 src_span at)
{
    val backward = ag_static(h, n->cls, "backward", at);
    if (backward.kind == VAL_ERR)
        return false;
    int ng = n->nout > 1 ? n->nout : 1;
    val args[AG_OUTS + 1];
    args[0] = n->ctx;
    for (int k = 0; k < ng; k++)
        args[k + 1] = gs[k] ? val_of(gs[k]) : val_none();
    bool was = h->no_grad;
    h->no_grad = true;
    val r = host_call(h, backward, ng + 1, args, NULL, at);
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

/* Something `@torch.no_grad` (without parentheses) may decorate. */
static bool ag_is_function(val v)
{
    const val_type *t = val_type_of(v);
    return v.kind == VAL_FUNC || v.kind == VAL_BUILTIN || v.kind == VAL_KERNEL ||
           (v.kind != VAL_CLASS && t && t->call);
}

/* torch.no_grad() or, used bare as a decorator, torch.no_grad(fn) */
static val ag_mode_make(host *h, bool enable, const char *name, int argc, const val *argv,
                        const val_kwargs *kw, src_span at)
{
    if (kw && kw->n)
        return host_raise(h, HOST_EXC_TYPE, at, "%s() takes no arguments", name);
    if (argc == 1 && ag_is_function(argv[0])) {
        val m = ag_mode_new(enable);
        val r = ag_mode_call(h, m, argc, argv, kw, at);
        val_unref(m);
        return r;
    }
    if (argc)
        return host_raise(h, HOST_EXC_TYPE, at, "%s() takes no arguments", name);
    return ag_mode_new(enable);
}

AG_FN(fn_no_grad)
{
    (void)self;
    return ag_mode_make(h, false, "no_grad", argc, argv, kw, at);
}

AG_FN(fn_enable_grad)
{
    (void)self;
    return ag_mode_make(h, true, "enable_grad", argc, argv, kw, at);
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
    if (argc == 1 && !(kw && kw->n) && ag_is_function(argv[0]))
        return ag_mode_make(h, false, "inference_mode", argc, argv, kw, at);
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
    /* torch.autograd.function: where Function is defined in PyTorch, with
     * FunctionCtx, the class of ctx, which programs import for their
     * annotations (tritsim's ctx objects are not instances of it). */
    val agf = val_module_new("torch.autograd.function");
    val_object_set(agf, "Function", val_ref(fn));
    val_object_set(agf, "FunctionCtx", class_new("FunctionCtx", val_none(), true));
    val_object_set(ag, "function", val_ref(agf));
    host_register_module(h, "torch.autograd.function", agf);
    val_object_set(ag, "Function", fn);
    val_object_set(ag, "grad", val_builtin_new("torch.autograd.grad", fn_autograd_grad,
                                               val_none()));
    val_object_set(ag, "backward", val_builtin_new("torch.autograd.backward",
                                                   fn_autograd_backward, val_none()));
    static const val_method fns[] = {
        {"no_grad", "torch.no_grad", fn_no_grad},
        {"enable_grad", "torch.enable_grad", fn_enable_grad},
        {"set_grad_enabled", "torch.set_grad_enabled", fn_set_grad_enabled},
        {"is_grad_enabled", "torch.is_grad_enabled", fn_is_grad_enabled},
        {"inference_mode", "torch.inference_mode", fn_inference_mode},
    };
    val_method_set_all(torch, fns, sizeof fns / sizeof *fns, val_none());
    val_method_set_all(ag, fns, 3, val_none());     /* torch.autograd has the first three */
    val_object_set(torch, "autograd", val_ref(ag));
    host_register_module(h, "torch.autograd", ag);
}
