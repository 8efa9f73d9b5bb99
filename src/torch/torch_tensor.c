/* torch_tensor.c - the Tensor type as the evaluator sees it: attributes
 * (shape, dtype, device, T, ...), operators, truth, len, iteration,
 * printing and formatting, and the methods that describe, reshape, convert
 * and read tensors (size, view, permute, to, float, item, tolist, ...).
 * Arithmetic methods live in torch_math.c, indexing in torch_index.c. */
#include "torch_impl.h"

#include "autograd.h"
#include "complexval.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The tensor of a method call (self), which host_call guarantees. */
static tensor *self_of(val self)
{
    return tensor_of(self);
}

/* ---- attributes -------------------------------------------------------------- */

static val tensor_attr(host *h, val self, const char *name, src_span at)
{
    tensor *t = self_of(self);
    char err[TENSOR_ERR_LEN];
    if (!strcmp(name, "shape"))
        return torch_size_new(t->ndim, t->shape);
    if (!strcmp(name, "dtype"))
        return val_dtype(t->type);
    if (!strcmp(name, "device"))
        return torch_device_new(t->cuda, t->cuda ? 0 : -1);
    if (!strcmp(name, "is_cuda"))
        return val_bool(t->cuda);
    if (!strcmp(name, "ndim"))
        return val_int(t->ndim);
    if (!strcmp(name, "T") || !strcmp(name, "mT")) {
        int64_t dims[TENSOR_MAX_DIMS];
        for (int i = 0; i < t->ndim; i++)
            dims[i] = t->ndim - 1 - i;
        if (name[0] == 'm') {
            if (t->ndim < 2)
                return host_error(h, at, "tensor.mT is only supported on matrices or batches of "
                                  "matrices. Got %dD tensor.", t->ndim);
            return torch_result(h, at, tensor_transpose(t, -2, -1, err), err);
        }
        return torch_result(h, at, tensor_permute(t, t->ndim, dims, err), err);
    }
    if (!strcmp(name, "data"))
        return tensor_val(tensor_view_of(t, t->ndim, t->shape, t->strides, t->offset));
    val g = autograd_getattr(h, self, name);
    if (g.kind != VAL_MISSING)
        return g;
    if (!strcmp(name, "is_sparse") || !strcmp(name, "is_quantized") || !strcmp(name, "is_meta"))
        return val_bool(false);
    if (!strcmp(name, "itemsize"))
        return val_int(tensor_elsize(t));
    if (!strcmp(name, "nbytes"))
        return val_int(tensor_numel(t) * tensor_elsize(t));
    return val_missing();
}

static val tensor_getattr(host *h, val self, const char *name, src_span at)
{
    if (tensor_is_complex(self_of(self)))
        return torch_complex_hooks.getattr(h, self, name, at);
    val a = tensor_attr(h, self, name, at);
    if (a.kind != VAL_MISSING) {
        /* x.T is an operation autograd records (without a formula) */
        if (!strcmp(name, "T") || !strcmp(name, "mT"))
            return autograd_record(h, name[0] == 'T' ? "permute" : "mT", a, 1, &self, at);
        return a;
    }
    const torch_fn *m = torch_find_method(name);
    if (m)
        return torch_fn_value(m->qual_method, m, val_ref(self));
    return val_missing();
}

/* x.requires_grad = ..., x.grad = ... */
static bool tensor_setattr(host *h, val self, const char *name, val value, src_span at)
{
    if (tensor_is_complex(self_of(self)))
        return torch_complex_hooks.setattr(h, self, name, value, at);
    if (!strcmp(name, "data")) {
        tensor *src = tensor_of(value);
        if (!src) {
            host_raise(h, HOST_EXC_TYPE, at, "Tensor.data must be a Tensor, not '%s'",
                       val_type_name(value));
            return false;
        }
        tensor_set_data(self_of(self), src);
        return true;
    }
    int r = autograd_setattr(h, self, name, value, at);
    if (r == 0)
        host_raise(h, HOST_EXC_ATTRIBUTE, at, "cannot set attribute '%s' of a 'Tensor' object",
                   name);
    return r > 0;
}

static const char *const tensor_attr_names[] = {
    "shape", "dtype", "device", "is_cuda", "ndim", "T", "mT", "data", "grad",
    "requires_grad", "is_leaf", "grad_fn", "itemsize", "nbytes", "backward",
    "requires_grad_", "detach",
    "size", "stride", "numel", "dim", "element_size", "data_ptr", "is_contiguous",
    "contiguous", "view", "reshape", "permute", "transpose", "flatten", "unsqueeze",
    "squeeze", "expand", "clone", "copy_", "fill_", "zero_", "to", "float", "half",
    "bfloat16", "int", "long", "bool", "cpu", "cuda", "item", "tolist", "sum", "mean",
    "max", "min", "argmax", "argmin", "abs", "exp", "log", "sqrt", "relu", "softmax",
    NULL,
};

/* ---- operators -------------------------------------------------------------- */

static bool binop_of(ast_op op, tensor_binop *out)
{
    switch (op) {
    case AST_OP_ADD: *out = TENSOR_ADD; return true;
    case AST_OP_SUB: *out = TENSOR_SUB; return true;
    case AST_OP_MUL: *out = TENSOR_MUL; return true;
    case AST_OP_DIV: *out = TENSOR_DIV; return true;
    case AST_OP_FLOORDIV: *out = TENSOR_FLOORDIV; return true;
    case AST_OP_MOD: *out = TENSOR_MOD; return true;
    case AST_OP_POW: *out = TENSOR_POW; return true;
    case AST_OP_LSHIFT: *out = TENSOR_SHL; return true;
    case AST_OP_RSHIFT: *out = TENSOR_SHR; return true;
    case AST_OP_BITAND: *out = TENSOR_AND; return true;
    case AST_OP_BITOR: *out = TENSOR_OR; return true;
    case AST_OP_BITXOR: *out = TENSOR_XOR; return true;
    case AST_OP_EQ: *out = TENSOR_EQ; return true;
    case AST_OP_NE: *out = TENSOR_NE; return true;
    case AST_OP_LT: *out = TENSOR_LT; return true;
    case AST_OP_LE: *out = TENSOR_LE; return true;
    case AST_OP_GT: *out = TENSOR_GT; return true;
    case AST_OP_GE: *out = TENSOR_GE; return true;
    default: return false;
    }
}

/* `x in t`: (t == x).any() */
static val tensor_contains(host *h, val t, val x, src_span at)
{
    val eq = torch_binop(h, TENSOR_EQ, t, x, at);
    if (eq.kind != VAL_TENSOR)
        return eq;
    char err[TENSOR_ERR_LEN];
    tensor *any = tensor_reduce(TENSOR_ANY, tensor_of(eq), 0, NULL, false, DTYPE_INVALID, err);
    val_unref(eq);
    if (!any)
        return torch_fail(h, at, err);
    bool r = dtype_load(any->type, tensor_cdata(any)).u != 0;
    tensor_unref(any);
    return val_bool(r);
}

/* Is v a complex tensor or a Python complex? */
static bool complex_operand(val v)
{
    return (v.kind == VAL_TENSOR && tensor_is_complex(tensor_of(v))) || complexval_is(v);
}

static val tensor_binop_hook(host *h, ast_op op, bool inplace, val a, val b, src_span at)
{
    char err[TENSOR_ERR_LEN];
    if (complex_operand(a) || complex_operand(b))
        return torch_complex_binop(h, op, inplace, a, b, at);
    if (op == AST_OP_MATMUL) {
        if (a.kind != VAL_TENSOR || b.kind != VAL_TENSOR)
            return val_missing();
        val r = torch_result(h, at, tensor_matmul(tensor_of(a), tensor_of(b), err), err);
        return autograd_record(h, "matmul", r, 2, (val[]){a, b}, at);
    }
    if (op == AST_OP_IN || op == AST_OP_NOTIN) {
        val r = tensor_contains(h, b, a, at);
        if (r.kind == VAL_BOOL && op == AST_OP_NOTIN)
            r.u.b = !r.u.b;
        return r;
    }
    tensor_binop top;
    tensor_operand x, y;
    if (!binop_of(op, &top) || !torch_operand(a, &x) || !torch_operand(b, &y))
        return val_missing();
    if (inplace && x.t) {
        if (!autograd_check_inplace(h, ast_op_name(op), a, 1, &b, at))
            return val_err();
        if (!tensor_binary_inplace(top, tensor_of(a), y, err))
            return torch_fail(h, at, err);
        return val_ref(a);
    }
    static const char *const names[] = {
        [TENSOR_ADD] = "add", [TENSOR_SUB] = "sub", [TENSOR_MUL] = "mul", [TENSOR_DIV] = "div",
        [TENSOR_FLOORDIV] = "floor_divide", [TENSOR_MOD] = "remainder", [TENSOR_POW] = "pow",
    };
    val r = torch_binop(h, top, a, b, at);
    if ((size_t)top < sizeof names / sizeof *names && names[top])
        r = autograd_record(h, names[top], r, 2, (val[]){a, b}, at);
    return r;
}

static val tensor_unop_hook(host *h, ast_op op, val self, src_span at)
{
    if (tensor_is_complex(self_of(self)))
        return torch_complex_hooks.unop(h, op, self, at);
    char err[TENSOR_ERR_LEN];
    tensor *t = self_of(self);
    switch (op) {
    case AST_OP_USUB:
        return autograd_record(h, "neg", torch_result(h, at, tensor_unary(TENSOR_NEG, t, err),
                                                      err), 1, &self, at);
    case AST_OP_INVERT: return torch_result(h, at, tensor_unary(TENSOR_INVERT, t, err), err);
    case AST_OP_UADD: return val_ref(self);
    default: return val_missing();
    }
}

/* ---- truth, len, iteration, text ----------------------------------------------- */

static int tensor_truth(host *h, val self, src_span at)
{
    if (tensor_is_complex(self_of(self)))
        return torch_complex_hooks.truth(h, self, at);
    tensor *t = self_of(self);
    int64_t n = tensor_numel(t);
    if (n != 1) {
        host_error(h, at, "Boolean value of Tensor with %s is ambiguous",
                   n ? "more than one value" : "no values");
        return -1;
    }
    dtype_scalar v = dtype_load(t->type, tensor_cdata(t));
    return dtype_is_float(t->type) ? v.f != 0.0 : v.u != 0;
}

static int64_t tensor_len(host *h, val self, src_span at)
{
    if (tensor_is_complex(self_of(self)))
        return torch_complex_hooks.len(h, self, at);
    tensor *t = self_of(self);
    if (t->ndim == 0) {
        host_error(h, at, "len() of a 0-d tensor");
        return -1;
    }
    return t->shape[0];
}

/* Iterating a tensor gives its slices along dimension 0 (views). */
static val tensor_iter_hook(host *h, val self, src_span at)
{
    if (tensor_is_complex(self_of(self)))
        return torch_complex_hooks.iter(h, self, at);
    tensor *t = self_of(self);
    if (t->ndim == 0)
        return host_error(h, at, "iteration over a 0-d tensor");
    val l = val_list_new((size_t)t->shape[0]);
    for (int64_t i = 0; i < t->shape[0]; i++)
        val_list_push(l, autograd_record(h, "select", tensor_val(tensor_select(t, 0, i, NULL)),
                                         2, (val[]){self, val_int(i)}, at));
    return l;
}

static void tensor_repr_hook(host *h, val self, strbuf *out)
{
    if (tensor_is_complex(self_of(self))) {
        torch_complex_hooks.repr(h, self, out);
        return;
    }
    (void)h;
    tensor *t = self_of(self);
    if (t->param)
        strbuf_puts(out, "Parameter containing:\n");
    tensor_repr(t, out);
    if (t->requires_grad && out->len && out->data[out->len - 1] == ')') {
        /* tensor([...], requires_grad=True), tensor([...], grad_fn=<...>) */
        strbuf_truncate(out, out->len - 1);
        autograd_repr_suffix(t, out);
        strbuf_putc(out, ')');
    }
}

/* x[key] is recorded (its backward indexes again, autograd_ops.c); so is
 * x[key] = v, an in-place write (autograd_setitem) */
static val tensor_getitem_hook(host *h, val self, val key, src_span at)
{
    if (tensor_is_complex(self_of(self)))
        return torch_complex_hooks.getitem(h, self, key, at);
    return autograd_record(h, "index", torch_getitem(h, self, key, at), 2,
                           (val[]){self, key}, at);
}

static bool tensor_setitem_hook(host *h, val self, val key, val value, src_span at)
{
    if (tensor_is_complex(self_of(self)))
        return torch_complex_hooks.setitem(h, self, key, value, at);
    return autograd_setitem(h, self, key, value, at);
}

/* format(x, spec) as Tensor.__format__: a 0-d tensor formats as its item
 * (f"{torch.tensor(1.)}" is "1.0"), others only with an empty spec. */
static val tensor_format_hook(host *h, val self, const char *spec, size_t len, src_span at)
{
    if (tensor_is_complex(self_of(self)))
        return torch_complex_hooks.format(h, self, spec, len, at);
    tensor *t = self_of(self);
    if (t->ndim != 0 && len == 0)
        return host_str(h, self);
    if (t->ndim != 0)
        return host_error(h, at, "unsupported format string passed to Tensor.__format__");
    val item = torch_scalar_val(t->type, dtype_load(t->type, tensor_cdata(t)));
    val r = host_format(h, item, spec, len, at);
    val_unref(item);
    return r;
}

const val_type tensor_type = {
    .name = "Tensor",
    .getattr = tensor_getattr,
    .setattr = tensor_setattr,
    .getitem = tensor_getitem_hook,
    .setitem = tensor_setitem_hook,
    .binop = tensor_binop_hook,
    .unop = tensor_unop_hook,
    .truth = tensor_truth,
    .len = tensor_len,
    .iter = tensor_iter_hook,
    .repr = tensor_repr_hook,
    .format = tensor_format_hook,
    .free = tensor_release,
    .attr_names = tensor_attr_names,
};

/* ---- describing ------------------------------------------------------------- */

/* x.size() and x.stride(): all of them (a torch.Size, a tuple), or the
 * one of dimension dim. */
static val size_or_stride(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                          src_span at, const char *fname, bool stride)
{
    val a[2];
    TORCH_READ_ARGS(fname, "input, dim=", a);
    const int64_t *per_dim = stride ? t->strides : t->shape;
    if (a[1].kind == VAL_MISSING || a[1].kind == VAL_NONE) {
        if (!stride)
            return torch_size_new(t->ndim, t->shape);
        val r = val_tuple_new((size_t)t->ndim);
        for (int i = 0; i < t->ndim; i++)
            val_seq_set(r, (size_t)i, val_int(t->strides[i]));
        return r;
    }
    int64_t dim;
    int d;
    char err[TENSOR_ERR_LEN];
    if (!torch_int_arg(h, a[1], at, fname, "dim", &dim))
        return val_err();
    if (!tensor_wrap_dim(t->ndim, dim, &d, err))
        return torch_fail(h, at, err);
    return val_int(t->ndim ? per_dim[d] : 1);
}

TORCH_NAMED(size, size_or_stride, false)
TORCH_NAMED(stride, size_or_stride, true)

/* Methods without arguments that answer a number about the tensor. */
typedef enum { Q_NUMEL, Q_DIM, Q_ELSIZE, Q_PTR, Q_OFFSET, Q_CONTIG } query;

static val ask(host *h, val self, int argc, const val *argv, const val_kwargs *kw, src_span at,
               const char *fname, query q)
{
    val a[2];
    TORCH_READ_ARGS(fname, "input, memory_format=", a);
    switch (q) {
    case Q_NUMEL: return val_int(tensor_numel(t));
    case Q_DIM: return val_int(t->ndim);
    case Q_ELSIZE: return val_int(tensor_elsize(t));
    case Q_PTR: {
        uint64_t ad;
        char err[TENSOR_ERR_LEN];
        if (!tensor_reveal(t, &ad, err))
            return torch_fail(h, at, err);
        return val_int((int64_t)ad);
    }
    case Q_OFFSET: return val_int(t->offset);
    default: return val_bool(tensor_is_contiguous(t));
    }
}

TORCH_NAMED(numel, ask, Q_NUMEL)
TORCH_NAMED(dim, ask, Q_DIM)
TORCH_NAMED(element_size, ask, Q_ELSIZE)
TORCH_NAMED(data_ptr, ask, Q_PTR)
TORCH_NAMED(storage_offset, ask, Q_OFFSET)
TORCH_NAMED(is_contiguous, ask, Q_CONTIG)

/* ---- reshaping ----------------------------------------------------------------- */

/* The shape given after the input: f(x, 2, 3), f(x, (2, 3)) or shape=. */
static bool shape_after_input(host *h, val self, int argc, const val *argv,
                              const val_kwargs *kw, src_span at, const char *fname,
                              const char *kwname, tensor **t, int *ndim, int64_t *shape)
{
    val all[TORCH_ARGS_MAX];
    int n = torch_self_args(self, argc, argv, all, TORCH_ARGS_MAX);
    val kwv[2];
    char params[64];
    snprintf(params, sizeof params, "*, %s=", kwname);
    if (!host_args(h, at, fname, params, 0, NULL, kw, kwv))
        return false;
    if (n < 1) {
        host_raise(h, HOST_EXC_TYPE, at, "%s() missing required argument 'input'", fname);
        return false;
    }
    *t = torch_tensor_arg(h, all[0], at, fname, "input");
    if (!*t)
        return false;
    if (kwv[0].kind != VAL_MISSING) {
        if (n > 1) {
            host_raise(h, HOST_EXC_TYPE, at,
                       "%s() got multiple values for argument '%s'", fname, kwname);
            return false;
        }
        return torch_shape_args(h, 1, &kwv[0], at, fname, ndim, shape);
    }
    return torch_shape_args(h, n - 1, all + 1, at, fname, ndim, shape);
}

static val fn_view(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                   src_span at)
{
    tensor *t;
    int nd;
    int64_t shape[TENSOR_MAX_DIMS];
    char err[TENSOR_ERR_LEN];
    if ((argc == 1 && argv[0].kind == VAL_DTYPE) ||
        (argc == 0 && kw && kw->n == 1 && !strcmp(kw->names[0], "dtype"))) {
        /* view(dtype): the same bytes as another dtype */
        dtype to = self_of(self)->type;
        if (!torch_dtype_arg(h, argc ? argv[0] : kw->values[0], at, "view", &to))
            return val_err();
        return torch_result(h, at, tensor_view_dtype(self_of(self), to, err), err);
    }
    if (!shape_after_input(h, self, argc, argv, kw, at, "view", "size", &t, &nd, shape))
        return val_err();
    return torch_result(h, at, tensor_view(t, nd, shape, err), err);
}

static val fn_reshape(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                      src_span at)
{
    tensor *t;
    int nd;
    int64_t shape[TENSOR_MAX_DIMS];
    char err[TENSOR_ERR_LEN];
    if (!shape_after_input(h, self, argc, argv, kw, at, "reshape", "shape", &t, &nd, shape))
        return val_err();
    return torch_result(h, at, tensor_reshape(t, nd, shape, err), err);
}

static val fn_expand(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                     src_span at)
{
    tensor *t;
    int nd;
    int64_t shape[TENSOR_MAX_DIMS];
    char err[TENSOR_ERR_LEN];
    if (!shape_after_input(h, self, argc, argv, kw, at, "expand", "size", &t, &nd, shape))
        return val_err();
    return torch_result(h, at, tensor_expand(t, nd, shape, err), err);
}

static val fn_permute(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                      src_span at)
{
    tensor *t;
    int nd;
    int64_t dims[TENSOR_MAX_DIMS];
    char err[TENSOR_ERR_LEN];
    if (!shape_after_input(h, self, argc, argv, kw, at, "permute", "dims", &t, &nd, dims))
        return val_err();
    return torch_result(h, at, tensor_permute(t, nd, dims, err), err);
}

/* x.view_as(y), x.reshape_as(y), x.expand_as(y) */
static val as_other(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                    src_span at, const char *fname,
                    tensor *(*f)(const tensor *, int, const int64_t *, char *))
{
    val a[2];
    TORCH_READ_ARGS_OTHER(fname, "input, other", a);
    char err[TENSOR_ERR_LEN];
    return torch_result(h, at, f(t, o->ndim, o->shape, err), err);
}

TORCH_NAMED(view_as, as_other, tensor_view)
TORCH_NAMED(reshape_as, as_other, tensor_reshape)
TORCH_NAMED(expand_as, as_other, tensor_expand)

static val fn_transpose(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                        src_span at)
{
    val a[3];
    TORCH_READ_ARGS("transpose", "input, dim0, dim1", a);
    int64_t d0, d1;
    char err[TENSOR_ERR_LEN];
    if (!torch_int_arg(h, a[1], at, "transpose", "dim0", &d0) ||
        !torch_int_arg(h, a[2], at, "transpose", "dim1", &d1))
        return val_err();
    return torch_result(h, at, tensor_transpose(t, d0, d1, err), err);
}

static val fn_t(host *h, val self, int argc, const val *argv, const val_kwargs *kw, src_span at)
{
    val a[1];
    TORCH_READ_ARGS("t", "input", a);
    char err[TENSOR_ERR_LEN];
    if (t->ndim > 2)
        return host_error(h, at, "t() expects a tensor with <= 2 dimensions, but self is %dD",
                          t->ndim);
    return torch_result(h, at, tensor_transpose(t, 0, t->ndim == 2 ? 1 : 0, err), err);
}

static val fn_flatten(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                      src_span at)
{
    val a[3];
    TORCH_READ_ARGS("flatten", "input, start_dim=, end_dim=", a);
    int64_t s = 0, e = -1;
    char err[TENSOR_ERR_LEN];
    if ((a[1].kind != VAL_MISSING && !torch_int_arg(h, a[1], at, "flatten", "start_dim", &s)) ||
        (a[2].kind != VAL_MISSING && !torch_int_arg(h, a[2], at, "flatten", "end_dim", &e)))
        return val_err();
    return torch_result(h, at, tensor_flatten(t, s, e, err), err);
}

static val fn_unsqueeze(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                        src_span at)
{
    val a[2];
    TORCH_READ_ARGS("unsqueeze", "input, dim", a);
    int64_t d;
    char err[TENSOR_ERR_LEN];
    if (!torch_int_arg(h, a[1], at, "unsqueeze", "dim", &d))
        return val_err();
    return torch_result(h, at, tensor_unsqueeze(t, d, err), err);
}

static val fn_squeeze(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                      src_span at)
{
    val a[2];
    TORCH_READ_ARGS("squeeze", "input, dim=", a);
    char err[TENSOR_ERR_LEN];
    if (a[1].kind == VAL_MISSING || a[1].kind == VAL_NONE)
        return torch_result(h, at, tensor_squeeze(t, true, 0, err), err);
    int n;
    int64_t dims[TENSOR_MAX_DIMS];
    if (!torch_int_list(h, a[1], at, "squeeze", "dim", &n, dims, TENSOR_MAX_DIMS))
        return val_err();
    /* Squeeze the named dimensions from the last, so indices stay valid. */
    bool drop[TENSOR_MAX_DIMS] = {false};
    for (int i = 0; i < n; i++) {
        int d;
        if (!tensor_wrap_dim(t->ndim, dims[i], &d, err))
            return torch_fail(h, at, err);
        drop[d] = true;
    }
    tensor *r = tensor_ref(t);
    for (int d = t->ndim - 1; d >= 0 && r; d--)
        if (drop[d]) {
            tensor *s = tensor_squeeze(r, false, d, err);
            tensor_unref(r);
            r = s;
        }
    return torch_result(h, at, r, err);
}

static val fn_narrow(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                     src_span at)
{
    val a[4];
    TORCH_READ_ARGS("narrow", "input, dim, start, length", a);
    int64_t d, s, len;
    char err[TENSOR_ERR_LEN];
    if (!torch_int_arg(h, a[1], at, "narrow", "dim", &d) ||
        !torch_int_arg(h, a[2], at, "narrow", "start", &s) ||
        !torch_int_arg(h, a[3], at, "narrow", "length", &len))
        return val_err();
    int dd;
    if (!tensor_wrap_dim(t->ndim, d, &dd, err))
        return torch_fail(h, at, err);
    int64_t size = t->ndim ? t->shape[dd] : 1;
    if (s < 0)
        s += size;
    if (s < 0 || len < 0 || s + len > size)
        return host_error(h, at, "start (%lld) + length (%lld) exceeds dimension size (%lld).",
                          (long long)s, (long long)len, (long long)size);
    return torch_result(h, at, tensor_slice(t, dd, s, s + len, 1, err), err);
}

/* One piece of split/chunk/unbind as a value, recorded for autograd as
 * op applied to (input, dim, start, length) or (input, dim, index). */
static val piece(host *h, const char *op, val input, tensor *p, int n, const int64_t *args,
                 src_span at)
{
    val ops[4] = {input, val_int(args[0]), val_int(args[1]), val_int(n > 2 ? args[2] : 0)};
    return autograd_record(h, op, tensor_val(p), n + 1, ops, at);
}

static val fn_unbind(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                     src_span at)
{
    val a[2];
    TORCH_READ_ARGS("unbind", "input, dim=", a);
    int64_t d = 0;
    int dd;
    char err[TENSOR_ERR_LEN];
    if (a[1].kind != VAL_MISSING && !torch_int_arg(h, a[1], at, "unbind", "dim", &d))
        return val_err();
    if (t->ndim == 0)
        return host_error(h, at, "Dimension specified as 0 but tensor has no dimensions");
    if (!tensor_wrap_dim(t->ndim, d, &dd, err))
        return torch_fail(h, at, err);
    val r = val_tuple_new((size_t)t->shape[dd]);
    for (int64_t i = 0; i < t->shape[dd]; i++)
        val_seq_set(r, (size_t)i, piece(h, "unbind", a[0], tensor_select(t, dd, i, NULL), 2,
                                        (int64_t[]){dd, i}, at));
    return r;
}

/* The pieces of t along dim dd of the given sizes (n of them), a tuple;
 * each recorded as op (its backward formula: "split", "split_with_sizes"). */
static val pieces(host *h, const char *op, val input, tensor *t, int dd, int64_t n,
                  const int64_t *sizes, src_span at)
{
    char err[TENSOR_ERR_LEN];
    val r = val_tuple_new((size_t)n);
    int64_t start = 0;
    for (int64_t i = 0; i < n; i++) {
        tensor *p = tensor_slice(t, dd, start, start + sizes[i], 1, err);
        if (!p) {
            val_unref(r);
            return torch_fail(h, at, err);
        }
        val_seq_set(r, (size_t)i, piece(h, op, input, p, 3,
                                        (int64_t[]){dd, start, sizes[i]}, at));
        start += sizes[i];
    }
    return r;
}

/* torch.split(tensor, split_size_or_sections, dim=0) and x.split(...):
 * pieces of one size (the last one smaller), or of the sizes listed. */
static val fn_split(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                    src_span at)
{
    val a[3];
    TORCH_READ_ARGS("split", "input, split_size_or_sections, dim=", a);
    int64_t d = 0;
    int dd;
    char err[TENSOR_ERR_LEN];
    if (a[2].kind != VAL_MISSING && !torch_int_arg(h, a[2], at, "split", "dim", &d))
        return val_err();
    if (t->ndim == 0)
        return host_error(h, at, "split expects at least a 1-dimensional tensor");
    if (!tensor_wrap_dim(t->ndim, d, &dd, err))
        return torch_fail(h, at, err);
    int64_t size = t->shape[dd];
    if (a[1].kind == VAL_LIST || a[1].kind == VAL_TUPLE) {
        int64_t sizes[256];
        int n;
        if (!torch_int_list(h, a[1], at, "split", "split_size_or_sections", &n, sizes, 256))
            return val_err();
        int64_t sum = 0;
        for (int i = 0; i < n; i++)
            sum += sizes[i];
        bool neg = false;
        for (int i = 0; i < n; i++)
            neg = neg || sizes[i] < 0;
        if (sum != size || neg) {
            strbuf sb = {0};
            tensor_shape_str(n, sizes, &sb);
            val e = host_error(h, at, "split_with_sizes expects split_sizes to sum exactly to "
                               "%lld (input tensor's size at dimension %d), but got "
                               "split_sizes=%s", (long long)size, dd, strbuf_cstr(&sb));
            strbuf_free(&sb);
            return e;
        }
        return pieces(h, "split_with_sizes", a[0], t, dd, n, sizes, at);
    }
    int64_t step;
    if (!torch_int_arg(h, a[1], at, "split", "split_size", &step))
        return val_err();
    if (step < 0 || (step == 0 && size != 0))
        return host_error(h, at, "split_size can only be 0 if dimension size is 0, but got "
                          "dimension size of %lld", (long long)size);
    int64_t n = step ? (size + step - 1) / step : 1;
    if (n == 0)
        n = 1;
    int64_t *sizes = xmalloc((size_t)n * sizeof *sizes);
    for (int64_t i = 0; i < n; i++)
        sizes[i] = step && size - i * step < step ? size - i * step : step;
    val r = pieces(h, "split", a[0], t, dd, n, sizes, at);
    free(sizes);
    return r;
}

/* torch.chunk(input, chunks, dim=0) and x.chunk(...): pieces of
 * ceil(size / chunks) (the last smaller; there may be fewer pieces). */
static val fn_chunk(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                    src_span at)
{
    val a[3];
    TORCH_READ_ARGS("chunk", "input, chunks, dim=", a);
    int64_t chunks, d = 0;
    int dd;
    char err[TENSOR_ERR_LEN];
    if (!torch_int_arg(h, a[1], at, "chunk", "chunks", &chunks) ||
        (a[2].kind != VAL_MISSING && !torch_int_arg(h, a[2], at, "chunk", "dim", &d)))
        return val_err();
    if (t->ndim == 0)
        return host_error(h, at, "chunk expects at least a 1-dimensional tensor");
    if (chunks <= 0)
        return host_error(h, at, "chunk expects `chunks` to be greater than 0, got: %lld",
                          (long long)chunks);
    if (!tensor_wrap_dim(t->ndim, d, &dd, err))
        return torch_fail(h, at, err);
    int64_t size = t->shape[dd], step = (size + chunks - 1) / chunks;
    int64_t n = step ? (size + step - 1) / step : chunks;
    int64_t *sizes = xmalloc((size_t)(n ? n : 1) * sizeof *sizes);
    for (int64_t i = 0; i < n; i++)
        sizes[i] = step && size - i * step < step ? size - i * step : step;
    val r = pieces(h, "split", a[0], t, dd, n, sizes, at);
    free(sizes);
    return r;
}

/* ---- triangles: triu, tril ------------------------------------------------------- */

/* torch.triu/tril(input, diagonal=0) and x.triu/tril(...)(_): element
 * (i, j) of each matrix of the last two dims is kept when j - i >=
 * diagonal (triu) or <= diagonal (tril), else zero; x.triu_/tril_ write
 * the result into x. */
static val triangle(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                    src_span at, const char *fname, bool upper, bool inplace)
{
    val a[2];
    TORCH_READ_ARGS(fname, "input, diagonal=", a);
    int64_t diag = 0;
    if (a[1].kind != VAL_MISSING && !torch_int_arg(h, a[1], at, fname, "diagonal", &diag))
        return val_err();
    if (t->ndim < 2)
        return host_error(h, at, "%s: input tensor must have at least 2 dimensions", fname);
    char err[TENSOR_ERR_LEN];
    tensor *r = tensor_new(t->type, t->ndim, t->shape, t->cuda, err);
    if (!r || !tensor_copy_into(r, t, err)) {
        tensor_unref(r);
        return torch_fail(h, at, err);
    }
    int64_t rows = t->shape[t->ndim - 2], cols = t->shape[t->ndim - 1];
    int64_t es = tensor_elsize(r), n = tensor_numel(r);
    unsigned char *p = tensor_data(r);
    for (int64_t k = 0; k < n; k++) {
        int64_t i = k / cols % rows, j = k % cols;
        if (upper ? j - i < diag : j - i > diag)
            memset(p + k * es, 0, (size_t)es);
    }
    if (inplace) {
        bool ok = tensor_copy_into(t, r, err);
        tensor_unref(r);
        return ok ? val_ref(a[0]) : torch_fail(h, at, err);
    }
    return tensor_val(r);
}

TORCH_NAMED(triu, triangle, true, false)
TORCH_NAMED(tril, triangle, false, false)
TORCH_NAMED(triu_, triangle, true, true)
TORCH_NAMED(tril_, triangle, false, true)

/* ---- rearranging copies: flip, roll, repeat, repeat_interleave ------------------ */

/* torch.flip(input, dims) and x.flip(*dims) */
static val fn_flip(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                   src_span at)
{
    tensor *t;
    int n;
    int64_t dims[TENSOR_MAX_DIMS];
    char err[TENSOR_ERR_LEN];
    if (argc + (self.kind == VAL_TENSOR) < 2 && !(kw && kw->n))
        return host_raise(h, HOST_EXC_TYPE, at, "flip() missing 1 required positional "
                          "arguments: \"dims\"");
    if (!shape_after_input(h, self, argc, argv, kw, at, "flip", "dims", &t, &n, dims))
        return val_err();
    return torch_result(h, at, tensor_flip(t, n, dims, err), err);
}

/* torch.roll(input, shifts, dims=None): one roll per (shift, dim) pair;
 * with no dims, the flattened tensor rolls and gets its shape back. */
static val fn_roll(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                   src_span at)
{
    val a[3];
    TORCH_READ_ARGS("roll", "input, shifts, dims=", a);
    int ns, nd = 0;
    int64_t shifts[TENSOR_MAX_DIMS], dims[TENSOR_MAX_DIMS];
    if (!torch_int_list(h, a[1], at, "roll", "shifts", &ns, shifts, TENSOR_MAX_DIMS) ||
        (a[2].kind != VAL_MISSING && a[2].kind != VAL_NONE &&
         !torch_int_list(h, a[2], at, "roll", "dims", &nd, dims, TENSOR_MAX_DIMS)))
        return val_err();
    char err[TENSOR_ERR_LEN];
    if (ns == 0)
        return host_error(h, at, "`shifts` required");
    if (nd == 0 && ns == 1) {
        int64_t numel = tensor_numel(t);
        tensor *flat = tensor_reshape(t, 1, &numel, err);
        tensor *rolled = flat ? tensor_roll(flat, shifts[0], 0, err) : NULL;
        tensor *r = rolled ? tensor_view(rolled, t->ndim, t->shape, err) : NULL;
        tensor_unref(flat);
        tensor_unref(rolled);
        return torch_result(h, at, r, err);
    }
    if (ns != nd)
        return host_error(h, at, "shifts and dimensions must align. shifts: %d, dims:%d", ns,
                          nd);
    tensor *r = tensor_ref(t);
    for (int i = 0; r && i < ns; i++) {
        tensor *next = tensor_roll(r, shifts[i], dims[i], err);
        tensor_unref(r);
        r = next;
    }
    return torch_result(h, at, r, err);
}

/* x.repeat(*repeats) */
static val fn_repeat(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                     src_span at)
{
    tensor *t;
    int n;
    int64_t reps[TENSOR_MAX_DIMS];
    char err[TENSOR_ERR_LEN];
    if (argc == 0 && !(kw && kw->n))
        return host_raise(h, HOST_EXC_TYPE, at, "repeat() missing 1 required positional "
                          "arguments: \"repeats\"");
    if (!shape_after_input(h, self, argc, argv, kw, at, "repeat", "repeats", &t, &n, reps))
        return val_err();
    return torch_result(h, at, tensor_repeat(t, n, reps, err), err);
}

/* The counts of a repeats tensor (1-D, int32 or int64, none negative), as
 * torch.repeat_interleave(repeats) checks them; NULL after reporting. */
static int64_t *repeat_counts(host *h, const tensor *r, src_span at)
{
    if (!dtype_is_int(r->type) || dtype_is_bool(r->type)) {
        host_error(h, at, "\"repeat_interleave_cpu\" not implemented for '%s'",
                   tensor_type_name(r->type));
        return NULL;
    }
    if (r->ndim != 1) {
        host_error(h, at, "repeat_interleave only accept 1D vector as repeat");
        return NULL;
    }
    if (r->type != DTYPE_INT64 && r->type != DTYPE_INT32) {
        host_error(h, at, "repeats has to be Long or Int tensor");
        return NULL;
    }
    int64_t *counts = xcalloc((size_t)r->shape[0] + 1, sizeof *counts);
    for (int64_t i = 0; i < r->shape[0]; i++) {
        counts[i] = tensor_get_flat(r, i).i;
        if (counts[i] < 0) {
            free(counts);
            host_error(h, at, "repeats can not be negative");
            return NULL;
        }
    }
    return counts;
}

/* Slice i of x along d repeated counts[i] times, for each i in turn. */
static tensor *interleave(const tensor *x, int d, const int64_t *counts, char *err)
{
    int64_t shape[TENSOR_MAX_DIMS], total = 0;
    for (int64_t i = 0; i < x->shape[d]; i++)
        total += counts[i];
    memcpy(shape, x->shape, sizeof shape);
    shape[d] = total;
    tensor *r = tensor_new(x->type, x->ndim, shape, x->cuda, err);
    for (int64_t i = 0, pos = 0; r && i < x->shape[d]; pos += counts[i], i++) {
        if (counts[i] == 0)
            continue;
        tensor *to = tensor_slice(r, d, pos, pos + counts[i], 1, err);
        tensor *from = to ? tensor_slice(x, d, i, i + 1, 1, err) : NULL;
        bool ok = from && tensor_copy_into(to, from, err);
        tensor_unref(to);
        tensor_unref(from);
        if (!ok) {
            tensor_unref(r);
            r = NULL;
        }
    }
    return r;
}

/* torch.repeat_interleave(repeats): each index i, repeats[i] times. */
static val repeat_indices(host *h, const tensor *reps, int64_t out_size, src_span at)
{
    int64_t *counts = repeat_counts(h, reps, at);
    if (!counts)
        return val_err();
    int64_t total = 0;
    for (int64_t i = 0; i < reps->shape[0]; i++)
        total += counts[i];
    char err[TENSOR_ERR_LEN];
    tensor *r = NULL;
    if (out_size >= 0 && out_size != total)
        snprintf(err, sizeof err, "allocated size does not match required size");
    else
        r = tensor_new(reps->type, 1, &total, reps->cuda, err);
    for (int64_t i = 0, pos = 0; r && i < reps->shape[0]; i++)
        for (int64_t k = 0; k < counts[i]; k++)
            tensor_set(r, (int64_t[]){pos++}, (dtype_scalar){.i = i});
    free(counts);
    return torch_result(h, at, r, err);
}

/* size counts, each c (one more, as repeat_counts allocates) */
static int64_t *same_counts(int64_t size, int64_t c)
{
    int64_t *counts = xcalloc((size_t)size + 1, sizeof *counts);
    for (int64_t i = 0; i < size; i++)
        counts[i] = c;
    return counts;
}

/* torch.repeat_interleave(input, repeats, dim=None, *, output_size=None):
 * repeats an int or a tensor of one count, or of one count per slice of
 * input along dim; with no dim, input is flattened first. */
static val fn_repeat_interleave(host *h, val self, int argc, const val *argv,
                                const val_kwargs *kw, src_span at)
{
    val a[4];
    TORCH_READ_ARGS("repeat_interleave", "input, repeats=, dim=, *, output_size=", a);
    int64_t dim = 0, out_size = -1;
    bool has_dim = a[2].kind != VAL_MISSING && a[2].kind != VAL_NONE;
    if ((has_dim && !torch_int_arg(h, a[2], at, "repeat_interleave", "dim", &dim)) ||
        (a[3].kind != VAL_MISSING && a[3].kind != VAL_NONE &&
         !torch_int_arg(h, a[3], at, "repeat_interleave", "output_size", &out_size)))
        return val_err();
    if (a[1].kind == VAL_MISSING)
        return repeat_indices(h, t, out_size, at);
    char err[TENSOR_ERR_LEN];
    int d;
    if (!tensor_wrap_dim(t->ndim, dim, &d, err))
        return torch_fail(h, at, err);
    int64_t numel = tensor_numel(t);
    tensor *x = has_dim ? tensor_ref(t) : tensor_reshape(t, 1, &numel, err);
    if (!x)
        return torch_fail(h, at, err);
    if (!has_dim)
        d = 0;
    int64_t size = x->ndim ? x->shape[d] : 1;
    int64_t *counts = NULL, n;
    if (a[1].kind == VAL_TENSOR) {
        const tensor *reps = tensor_of(a[1]);
        if (reps->ndim > 1 || (reps->ndim == 1 && reps->shape[0] != 1 &&
                               reps->shape[0] != size)) {
            tensor_unref(x);
            if (reps->ndim > 1)
                return host_error(h, at, "repeats must be 0-dim or 1-dim tensor");
            return host_error(h, at, "repeats must have the same size as input along dim, but "
                              "got repeats.size(0) = %lld and input.size(%lld) = %lld",
                              (long long)reps->shape[0], (long long)dim, (long long)size);
        }
        int64_t one = 1;
        tensor *flat = tensor_reshape(reps, 1, &one, NULL);
        const tensor *src = reps->ndim == 1 && reps->shape[0] == size ? reps : flat;
        counts = repeat_counts(h, src, at);
        n = src->shape[0];
        tensor_unref(flat);     /* (src may be flat: read it first) */
        if (counts && n != size) {      /* one count for every slice */
            int64_t c = counts[0];
            free(counts);
            counts = same_counts(size, c);
        }
    } else {
        int64_t c;
        if (!torch_int_arg(h, a[1], at, "repeat_interleave", "repeats", &c)) {
            tensor_unref(x);
            return val_err();
        }
        if (c < 0) {
            tensor_unref(x);
            return host_error(h, at, "Repeats must be non-negative");
        }
        counts = same_counts(size, c);
    }
    if (!counts) {
        tensor_unref(x);
        return val_err();
    }
    tensor *r = NULL;
    int64_t total = 0;
    for (int64_t i = 0; i < size; i++)
        total += counts[i];
    if (out_size >= 0 && out_size != total)
        snprintf(err, sizeof err, "allocated size does not match required size");
    else
        r = interleave(x, d, counts, err);
    free(counts);
    tensor_unref(x);
    return torch_result(h, at, r, err);
}

/* ---- copies and conversions -------------------------------------------------- */

static val fn_contiguous(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                         src_span at)
{
    val a[2];
    TORCH_READ_ARGS("contiguous", "input, memory_format=", a);
    char err[TENSOR_ERR_LEN];
    return torch_result(h, at, tensor_contiguous(t, err), err);
}

static val fn_clone(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                    src_span at)
{
    val a[2];
    TORCH_READ_ARGS("clone", "input, *, memory_format=", a);
    char err[TENSOR_ERR_LEN];
    return torch_result(h, at, tensor_to(t, t->type, t->cuda, err), err);
}

static val fn_detach(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                     src_span at)
{
    val a[1];
    TORCH_READ_ARGS("detach", "input", a);
    return tensor_val(tensor_view_of(t, t->ndim, t->shape, t->strides, t->offset));
}

static val fn_copy_(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                    src_span at)
{
    val a[3];
    TORCH_READ_ARGS("copy_", "input, src, non_blocking=", a);
    char err[TENSOR_ERR_LEN];
    tensor *src = torch_tensor_arg(h, a[1], at, "copy_", "src");
    if (!src)
        return val_err();
    if (!tensor_copy_into(t, src, err))
        return torch_fail(h, at, err);
    return val_ref(a[0]);
}

static val fn_fill_(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                    src_span at)
{
    val a[2];
    TORCH_READ_ARGS("fill_", "input, value", a);
    dtype_scalar v;
    char err[TENSOR_ERR_LEN];
    if (!torch_number_to(h, a[1], t->type, at, "fill_", &v))
        return val_err();
    if (tensor_internal_overlap(t, err))
        return torch_fail(h, at, err);
    tensor_fill(t, v);
    return val_ref(a[0]);
}

static val fn_zero_(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                    src_span at)
{
    val a[1];
    TORCH_READ_ARGS("zero_", "input", a);
    char err[TENSOR_ERR_LEN];
    if (tensor_internal_overlap(t, err))
        return torch_fail(h, at, err);
    tensor_fill(t, (dtype_scalar){.u = 0});
    return val_ref(a[0]);
}

/* t converted to dtype and device, or t itself when nothing changes (as
 * torch's .to() does). */
static val convert(host *h, val tv, dtype to, bool cuda, bool copy, src_span at)
{
    tensor *t = tensor_of(tv);
    if (to == t->type && cuda == t->cuda && !copy)
        return val_ref(tv);
    char err[TENSOR_ERR_LEN];
    return torch_result(h, at, tensor_to_preserving(t, to, cuda, err), err);
}

/* x.to(dtype), x.to(device), x.to(device, dtype), x.to(other),
 * x.to(dtype=..., device=..., non_blocking=..., copy=...) */
static val fn_to(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                 src_span at)
{
    val a[5];
    if (!host_args(h, at, "to", "*, dtype=, device=, non_blocking=, copy=, memory_format=", 0,
                   NULL, kw, a))
        return val_err();
    tensor *t = self_of(self);
    dtype to = t->type;
    bool cuda = t->cuda, copy = false;
    for (int i = 0; i < argc; i++) {
        val v = argv[i];
        tensor *o = tensor_of(v);
        if (o) {
            to = o->type;
            cuda = o->cuda;
        } else if (v.kind == VAL_DTYPE || v.kind == VAL_BUILTIN) {
            if (!torch_dtype_arg(h, v, at, "to", &to))
                return val_err();
        } else if (v.kind == VAL_BOOL) {
            /* non_blocking / copy given positionally */
        } else if (!torch_device_arg(h, v, at, "to", &cuda)) {
            return val_err();
        }
    }
    if (!torch_dtype_arg(h, a[0], at, "to", &to) || !torch_device_arg(h, a[1], at, "to", &cuda) ||
        !torch_bool_arg(h, a[3], at, "to", "copy", &copy))
        return val_err();
    return convert(h, self, to, cuda, copy, at);
}

static val fn_type_as(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                      src_span at)
{
    val a[2];
    TORCH_READ_ARGS_OTHER("type_as", "input, other", a);
    return convert(h, a[0], o->type, t->cuda, false, at);
}

/* x.float(), x.half(), ... */
static val to_dtype(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                    src_span at, const char *fname, dtype to)
{
    val a[2];
    TORCH_READ_ARGS(fname, "input, memory_format=", a);
    return convert(h, a[0], to, t->cuda, false, at);
}

TORCH_NAMED(float, to_dtype, DTYPE_FP32)
TORCH_NAMED(double, to_dtype, DTYPE_FP64)
TORCH_NAMED(half, to_dtype, DTYPE_FP16)
TORCH_NAMED(bfloat16, to_dtype, DTYPE_BF16)
TORCH_NAMED(int, to_dtype, DTYPE_INT32)
TORCH_NAMED(long, to_dtype, DTYPE_INT64)
TORCH_NAMED(short, to_dtype, DTYPE_INT16)
TORCH_NAMED(char, to_dtype, DTYPE_INT8)
TORCH_NAMED(byte, to_dtype, DTYPE_UINT8)
TORCH_NAMED(bool, to_dtype, DTYPE_INT1)

static val fn_cpu(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                  src_span at)
{
    val a[2];
    TORCH_READ_ARGS("cpu", "input, memory_format=", a);
    return convert(h, a[0], t->type, false, false, at);
}

static val fn_cuda(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                   src_span at)
{
    val a[4];
    TORCH_READ_ARGS("cuda", "input, device=, non_blocking=, memory_format=", a);
    bool cuda = true;
    if (!torch_device_arg(h, a[1], at, "cuda", &cuda))
        return val_err();
    return convert(h, a[0], t->type, true, false, at);
}

/* ---- reading values ------------------------------------------------------------ */

static val fn_item(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                   src_span at)
{
    val a[1];
    TORCH_READ_ARGS("item", "input", a);
    dtype_scalar v;
    char err[TENSOR_ERR_LEN];
    if (!tensor_item(t, &v, err))
        return torch_fail(h, at, err);
    return torch_scalar_val(t->type, v);
}

static val fn_tolist(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                     src_span at)
{
    val a[1];
    TORCH_READ_ARGS("tolist", "input", a);
    return torch_to_list(t);
}

/* int(t), float(t), operator.index(t): one-element tensors only. */
static val to_python(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                     src_span at, const char *fname, val_kind want)
{
    val a[1];
    TORCH_READ_ARGS(fname, "input", a);
    dtype_scalar v;
    if (tensor_numel(t) != 1)
        return host_error(h, at, "only one element tensors can be converted to Python scalars");
    if (!tensor_item(t, &v, NULL))
        return val_err();
    if (want == VAL_FLOAT)
        return val_float(dtype_cast(v, t->type, DTYPE_FP64).f);
    if (want == VAL_ERR && (dtype_is_float(t->type) || t->type == DTYPE_INT1))
        return host_error(h, at, "only integer tensors of a single element can be converted to "
                          "an index");
    if (dtype_is_float(t->type)) {
        double f = trunc(v.f);
        if (!(f >= -9223372036854775808.0 && f < 9223372036854775808.0))
            return host_error(h, at, "cannot convert %g to a 64-bit integer", v.f);
        return val_int((int64_t)f);
    }
    return val_int(dtype_cast(v, t->type, DTYPE_INT64).i);
}

HOST_CFUNC_CALLING(fn_dunder_int, to_python, "__int__", VAL_INT)
HOST_CFUNC_CALLING(fn_dunder_float, to_python, "__float__", VAL_FLOAT)
HOST_CFUNC_CALLING(fn_dunder_index, to_python, "__index__", VAL_ERR)

static val fn_numpy(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                    src_span at)
{
    (void)self;
    (void)argc;
    (void)argv;
    (void)kw;
    return host_error(h, at, "tritsim has no numpy: use .tolist() or print the tensor");
}

static val fn_nonzero(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                      src_span at)
{
    val a[2];
    TORCH_READ_ARGS("nonzero", "input, *, as_tuple=", a);
    bool as_tuple = false;
    char err[TENSOR_ERR_LEN];
    if (!torch_bool_arg(h, a[1], at, "nonzero", "as_tuple", &as_tuple))
        return val_err();
    tensor *nz = tensor_nonzero(t, err);
    if (!nz || !as_tuple)
        return torch_result(h, at, nz, err);
    /* one index tensor per dimension; a 0-d input gives (tensor([0]),) when
     * its value is non-zero, (tensor([]),) otherwise */
    int nd = t->ndim ? t->ndim : 1;
    val r = val_tuple_new((size_t)nd);
    for (int d = 0; d < nd; d++) {
        tensor *col = t->ndim ? tensor_select(nz, 1, d, NULL) : NULL;
        tensor *c = col ? tensor_contiguous(col, NULL)
                        : tensor_new(DTYPE_INT64, 1, &nz->shape[0], t->cuda, NULL);
        tensor_unref(col);
        val_seq_set(r, (size_t)d, tensor_val(c));
    }
    tensor_unref(nz);
    return r;
}

const torch_fn torch_tensor_fns[] = {
    TORCH_METHOD("size", fn_size),
    TORCH_METHOD("stride", fn_stride),
    TORCH_BOTH("numel", fn_numel),
    TORCH_METHOD("dim", fn_dim),
    TORCH_METHOD("ndimension", fn_dim),
    TORCH_METHOD("element_size", fn_element_size),
    TORCH_METHOD("data_ptr", fn_data_ptr),
    TORCH_METHOD("storage_offset", fn_storage_offset),
    TORCH_METHOD("is_contiguous", fn_is_contiguous),
    TORCH_METHOD("contiguous", fn_contiguous),
    TORCH_METHOD("view", fn_view),
    TORCH_METHOD("view_as", fn_view_as),
    TORCH_BOTH("reshape", fn_reshape),
    TORCH_METHOD("reshape_as", fn_reshape_as),
    TORCH_METHOD("expand", fn_expand),
    TORCH_METHOD("expand_as", fn_expand_as),
    TORCH_BOTH("permute", fn_permute),
    TORCH_BOTH("transpose", fn_transpose),
    TORCH_BOTH("swapaxes", fn_transpose),
    TORCH_BOTH("t", fn_t),
    TORCH_BOTH("flatten", fn_flatten),
    TORCH_BOTH("unsqueeze", fn_unsqueeze),
    TORCH_BOTH("squeeze", fn_squeeze),
    TORCH_BOTH("narrow", fn_narrow),
    TORCH_BOTH_NO_GRAD("unbind", fn_unbind),
    TORCH_BOTH_NO_GRAD("split", fn_split),
    TORCH_BOTH_NO_GRAD("chunk", fn_chunk),
    TORCH_BOTH("flip", fn_flip),
    TORCH_BOTH("roll", fn_roll),
    TORCH_METHOD("repeat", fn_repeat),
    TORCH_BOTH("repeat_interleave", fn_repeat_interleave),
    TORCH_BOTH("clone", fn_clone),
    TORCH_METHOD_NO_GRAD("detach", fn_detach),
    TORCH_METHOD("copy_", fn_copy_),
    TORCH_METHOD("fill_", fn_fill_),
    TORCH_METHOD("zero_", fn_zero_),
    TORCH_METHOD("to", fn_to),
    TORCH_METHOD("type_as", fn_type_as),
    TORCH_METHOD("float", fn_float),
    TORCH_METHOD("double", fn_double),
    TORCH_METHOD("half", fn_half),
    TORCH_METHOD("bfloat16", fn_bfloat16),
    TORCH_METHOD("int", fn_int),
    TORCH_METHOD("long", fn_long),
    TORCH_METHOD("short", fn_short),
    TORCH_METHOD("char", fn_char),
    TORCH_METHOD("byte", fn_byte),
    TORCH_METHOD("bool", fn_bool),
    TORCH_METHOD("cpu", fn_cpu),
    TORCH_METHOD("cuda", fn_cuda),
    TORCH_METHOD("item", fn_item),
    TORCH_METHOD("tolist", fn_tolist),
    TORCH_METHOD("numpy", fn_numpy),
    TORCH_METHOD("__int__", fn_dunder_int),
    TORCH_METHOD("__float__", fn_dunder_float),
    TORCH_METHOD("__index__", fn_dunder_index),
    TORCH_BOTH("nonzero", fn_nonzero),
    TORCH_BOTH("triu", fn_triu),
    TORCH_BOTH("tril", fn_tril),
    TORCH_METHOD("triu_", fn_triu_),
    TORCH_METHOD("tril_", fn_tril_),
    {NULL, NULL, NULL, NULL, NULL, 0},
};

const torch_fn *torch_find_method(const char *name)
{
    const torch_fn *tables[] = {torch_tensor_fns, torch_math_fns, torch_create_fns,
                                torch_testing_fns, torch_misc_fns, torch_autograd_fns,
                                torch_index_fns, torch_sort_fns, torch_complex_fns, torch_nnmore_fns};
    for (size_t k = 0; k < sizeof tables / sizeof *tables; k++)
        for (const torch_fn *f = tables[k]; f->name; f++)
            if (f->qual_method && !strcmp(f->name, name))
                return f;
    return NULL;
}
