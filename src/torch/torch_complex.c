/* torch_complex.c - the torch functions of complex tensors: those that
 * make and read them (complex, polar, view_as_real, view_as_complex,
 * real, imag, conj, angle, is_complex), the complex forms of existing
 * functions (arithmetic, sum/mean, views, item/tolist, to, cat/stack,
 * allclose, ...), creation with complex dtypes, and
 * torch_complex_dispatch: every call of a torch function passes through
 * it (from autograd_call), and a call with a complex tensor, a complex
 * dtype or a Python complex among its arguments comes to this file's form
 * of the function or fails naming the function.  The functions of tensor.h
 * never see a complex tensor.  Complex tensors have no autograd; Triton
 * has no complex dtype, so the kernel launcher refuses them by name.
 * tensor_complex.c holds the representation and arithmetic. */
#include "complex_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the functions ----------------------------------------------------------------- */

#define CX_FN(name) \
    static val name(host *h, val self, int argc, const val *argv, const val_kwargs *kw, \
                    src_span at)

/* Read "input, ..." (self first for methods) into a[]; t is the input,
 * complex or not. */
#define CX_ARGS(fname, params, a) \
    val all_[TORCH_ARGS_MAX]; \
    int n_ = torch_self_args(self, argc, argv, all_, TORCH_ARGS_MAX); \
    if (!host_args(h, at, fname, params, n_, all_, kw, a)) \
        return val_err(); \
    tensor *t = torch_tensor_arg(h, a[0], at, fname, "input"); \
    if (!t) \
        return val_err()

/* The complex tensor input of fname, or an error. */
#define CX_NEED_COMPLEX(fname) \
    if (!tensor_is_complex(t)) \
        return host_error(h, at, "%s(): expected a complex tensor, got %s", fname, \
                          tensor_type_name(t->type))

/* The two real inputs of torch.complex / torch.polar: float32 or float64
 * (float16 would make complex32), of one dtype, with PyTorch's messages. */
static bool cx_parts_pair_ok(host *h, const tensor *a, const tensor *b, src_span at)
{
    bool fa = !tensor_is_complex(a) && (a->type == DTYPE_FP32 || a->type == DTYPE_FP64);
    bool fb = !tensor_is_complex(b) && (b->type == DTYPE_FP32 || b->type == DTYPE_FP64);
    if (!fa || !fb) {
        host_error(h, at, "Expected both inputs to be Half, Float or Double tensors but got %s "
                   "and %s", tensor_type_name(a->type), tensor_type_name(b->type));
        return false;
    }
    if (a->type != b->type) {
        host_error(h, at, "Expected object of scalar type %s but got scalar type %s for second "
                   "argument", tensor_type_name(a->type), tensor_type_name(b->type));
        return false;
    }
    return true;
}

CX_FN(cx_fn_complex)
{
    (void)self;
    val a[2];
    char err[TENSOR_ERR_LEN];
    if (!host_args(h, at, "complex", "real, imag", argc, argv, kw, a))
        return val_err();
    tensor *re = torch_tensor_arg(h, a[0], at, "complex", "real");
    tensor *im = re ? torch_tensor_arg(h, a[1], at, "complex", "imag") : NULL;
    if (!im)
        return val_err();
    if (!cx_parts_pair_ok(h, re, im, at))
        return val_err();
    return torch_result(h, at, cx_from_parts(re, im, re->type, err), err);
}

CX_FN(cx_fn_polar)
{
    (void)self;
    val a[2];
    char err[TENSOR_ERR_LEN];
    if (!host_args(h, at, "polar", "abs, angle", argc, argv, kw, a))
        return val_err();
    tensor *m = torch_tensor_arg(h, a[0], at, "polar", "abs");
    tensor *ang = m ? torch_tensor_arg(h, a[1], at, "polar", "angle") : NULL;
    if (!ang)
        return val_err();
    if (!cx_parts_pair_ok(h, m, ang, at))
        return val_err();
    /* abs * cos(angle) + abs * sin(angle) j, each in the parts' precision */
    tensor *c = tensor_unary(TENSOR_COS, ang, err);
    tensor *s = c ? tensor_unary(TENSOR_SIN, ang, err) : NULL;
    tensor *re = s ? tensor_binary(TENSOR_MUL, tensor_operand_of(m), tensor_operand_of(c), err)
                   : NULL;
    tensor *im = re ? tensor_binary(TENSOR_MUL, tensor_operand_of(m), tensor_operand_of(s), err)
                    : NULL;
    tensor *r = im ? cx_from_parts(re, im, m->type, err) : NULL;
    tensor_unref(c);
    tensor_unref(s);
    tensor_unref(re);
    tensor_unref(im);
    return torch_result(h, at, r, err);
}

CX_FN(cx_fn_view_as_real)
{
    val a[1];
    CX_ARGS("view_as_real", "input", a);
    if (!tensor_is_complex(t))
        return host_error(h, at, "view_as_real is only supported for complex tensors");
    return tensor_val(cx_real(t));
}

CX_FN(cx_fn_view_as_complex)
{
    val a[1];
    CX_ARGS("view_as_complex", "input", a);
    if (tensor_is_complex(t) || (t->type != DTYPE_FP32 && t->type != DTYPE_FP64))
        return host_error(h, at, "view_as_complex is only supported for half, float and double "
                          "tensors, but got a tensor of scalar type: %s",
                          tensor_is_complex(t)
                              ? (t->type == DTYPE_FP64 ? "ComplexDouble" : "ComplexFloat")
                              : tensor_type_name(t->type));
    if (t->ndim == 0)
        return host_error(h, at, "Input tensor must have one or more dimensions");
    if (t->shape[t->ndim - 1] != 2)
        return host_error(h, at, "Tensor must have a last dimension of size 2");
    if (t->strides[t->ndim - 1] != 1)
        return host_error(h, at, "Tensor must have a last dimension with stride 1");
    for (int d = 0; d < t->ndim - 1; d++)
        if (t->strides[d] % 2)
            return host_error(h, at, "Tensor must have a stride divisible by 2 for all but "
                              "last dimension");
    if (t->offset % 2)
        return host_error(h, at, "Tensor must have a storage_offset divisible by 2");
    return tensor_val(cx_wrap(tensor_view_of(t, t->ndim, t->shape, t->strides, t->offset)));
}

CX_FN(cx_fn_is_tensor)
{
    (void)self;
    val a[1];
    if (!host_args(h, at, "is_tensor", "obj", argc, argv, kw, a))
        return val_err();
    return val_bool(a[0].kind == VAL_TENSOR);
}

CX_FN(cx_fn_is_complex)
{
    val a[1];
    CX_ARGS("is_complex", "input", a);
    return val_bool(tensor_is_complex(t));
}

/* real / imag: views of a complex tensor's parts; a real tensor's real is
 * itself, and it has no imag. */
static val cx_part_val(host *h, tensor *t, val tv, int which, src_span at)
{
    if (!tensor_is_complex(t)) {
        if (which == 0)
            return val_ref(tv);
        return host_error(h, at, "imag is not implemented for tensors with non-complex dtypes.");
    }
    return tensor_val(cx_part(t, which));
}

CX_FN(cx_fn_real)
{
    val a[1];
    CX_ARGS("real", "input", a);
    return cx_part_val(h, t, a[0], 0, at);
}

CX_FN(cx_fn_imag)
{
    val a[1];
    CX_ARGS("imag", "input", a);
    return cx_part_val(h, t, a[0], 1, at);
}

CX_FN(cx_fn_conj)
{
    val a[1];
    char err[TENSOR_ERR_LEN];
    CX_ARGS("conj", "input", a);
    if (!tensor_is_complex(t))
        return val_ref(a[0]);
    return torch_result(h, at, cx_map(t, false, cx_map_conj, cx_map_conj, err), err);
}

CX_FN(cx_fn_angle)
{
    val a[1];
    char err[TENSOR_ERR_LEN];
    CX_ARGS("angle", "input", a);
    if (!tensor_is_complex(t)) {
        /* a real tensor's angle: 0 or pi (nan stays nan) */
        if (!dtype_is_float(t->type))
            return host_error(h, at, "angle(): tritsim supports float and complex inputs");
        tensor *z = tensor_new(t->type, t->ndim, t->shape, t->cuda, err);
        tensor *r = z ? tensor_new(t->type, t->ndim, t->shape, t->cuda, err) : NULL;
        if (r) {
            for (int64_t i = 0, n = tensor_numel(t); i < n; i++) {
                double x = tensor_get_flat(t, i).f;
                double v = isnan(x) ? x : x < 0 ? 3.14159265358979323846 : 0.0;
                dtype_store(t->type, (unsigned char *)tensor_data(r) + i * tensor_elsize(r),
                            tensor_convert((dtype_scalar){.f = v}, DTYPE_FP64, t->type));
            }
        }
        tensor_unref(z);
        return torch_result(h, at, r, err);
    }
    return torch_result(h, at, cx_map(t, true, cx_map_angle32, cx_map_angle64, err), err);
}

CX_FN(cx_fn_abs)
{
    val a[1];
    char err[TENSOR_ERR_LEN];
    CX_ARGS("abs", "input", a);
    CX_NEED_COMPLEX("abs");
    return torch_result(h, at, cx_map(t, true, cx_map_abs32, cx_map_abs64, err), err);
}

CX_FN(cx_fn_exp)
{
    val a[1];
    char err[TENSOR_ERR_LEN];
    CX_ARGS("exp", "input", a);
    CX_NEED_COMPLEX("exp");
    return torch_result(h, at, cx_map(t, false, cx_map_exp32, cx_map_exp64, err), err);
}

CX_FN(cx_fn_neg)
{
    val a[1];
    char err[TENSOR_ERR_LEN];
    CX_ARGS("neg", "input", a);
    CX_NEED_COMPLEX("neg");
    return torch_result(h, at, cx_map(t, false, cx_map_neg, cx_map_neg, err), err);
}

/* add/sub/mul/div(input, other, *, alpha=) */
static val cx_arith(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                    src_span at, const char *fname, cx_op op)
{
    val all[TORCH_ARGS_MAX], a[3];
    int n = torch_self_args(self, argc, argv, all, TORCH_ARGS_MAX);
    bool alpha_ok = op == CX_ADD || op == CX_SUB;
    if (!host_args(h, at, fname, alpha_ok ? "input, other, *, alpha=" : "input, other", n, all,
                   kw, a))
        return val_err();
    if (alpha_ok && a[2].kind != VAL_MISSING) {
        val scaled = cx_binop_vals(h, CX_MUL, a[1], a[2], at);
        if (scaled.kind == VAL_ERR)
            return scaled;
        if (scaled.kind == VAL_MISSING)
            return host_error(h, at, "%s(): alpha must be a number", fname);
        val r = cx_binop_vals(h, op, a[0], scaled, at);
        val_unref(scaled);
        return r;
    }
    val r = cx_binop_vals(h, op, a[0], a[1], at);
    if (r.kind == VAL_MISSING)
        return host_error(h, at, "%s(): expected tensors or numbers, not %s and %s", fname,
                          val_type_name(a[0]), val_type_name(a[1]));
    return r;
}

CX_FN(cx_fn_add) { return cx_arith(h, self, argc, argv, kw, at, "add", CX_ADD); }
CX_FN(cx_fn_sub) { return cx_arith(h, self, argc, argv, kw, at, "sub", CX_SUB); }
CX_FN(cx_fn_mul) { return cx_arith(h, self, argc, argv, kw, at, "mul", CX_MUL); }
CX_FN(cx_fn_div) { return cx_arith(h, self, argc, argv, kw, at, "div", CX_DIV); }

/* sum / mean(input, dim=None, keepdim=False, *, dtype=None): over the
 * real view with the parts' dimension kept. */
static val cx_reduce(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                     src_span at, const char *fname, tensor_reduce_op op)
{
    val a[4];
    char err[TENSOR_ERR_LEN];
    CX_ARGS(fname, "input, dim=, keepdim=, *, dtype=", a);
    CX_NEED_COMPLEX(fname);
    int nd = cx_ndim(t), n = 0;
    int64_t dims[TENSOR_MAX_DIMS];
    bool keep = false;
    if (a[2].kind != VAL_MISSING && !torch_bool_arg(h, a[2], at, fname, "keepdim", &keep))
        return val_err();
    if (a[3].kind != VAL_MISSING && a[3].kind != VAL_NONE)
        return host_error(h, at, "%s(): dtype= is not supported for complex tensors in tritsim",
                          fname);
    if (a[1].kind == VAL_MISSING || a[1].kind == VAL_NONE) {
        for (int d = 0; d < nd; d++)
            dims[n++] = d;
    } else {
        int64_t raw[TENSOR_MAX_DIMS];
        if (!torch_int_list(h, a[1], at, fname, "dim", &n, raw, TENSOR_MAX_DIMS))
            return val_err();
        for (int i = 0; i < n; i++) {
            int d;
            if (!tensor_wrap_dim(nd, raw[i], &d, err))
                return torch_fail(h, at, err);
            dims[i] = d;
        }
    }
    tensor *r = cx_real(t);
    tensor *s = NULL;
    if (n == 0 && nd > 0) {
        s = tensor_contiguous(r, err);
    } else if (nd == 0) {
        s = tensor_contiguous(r, err);
    } else {
        s = tensor_reduce(op, r, n, dims, keep, DTYPE_INVALID, err);
    }
    tensor_unref(r);
    if (s && s->strides[s->ndim - 1] != 1) {
        tensor *k = tensor_contiguous(s, err);
        tensor_unref(s);
        s = k;
    }
    return torch_result(h, at, cx_wrap(s), err);
}

CX_FN(cx_fn_sum) { return cx_reduce(h, self, argc, argv, kw, at, "sum", TENSOR_SUM); }
CX_FN(cx_fn_mean) { return cx_reduce(h, self, argc, argv, kw, at, "mean", TENSOR_MEAN); }

/* ---- views ------------------------------------------------------------------------- */

/* view(*shape) and reshape(*shape): the real view's with 2 appended. */
static val cx_reshape(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                      src_span at, const char *fname, bool view)
{
    char err[TENSOR_ERR_LEN];
    tensor *t = tensor_of(self);
    val a[1];
    if (!t) {   /* torch.reshape(input, shape) */
        val b[2];
        if (!host_args(h, at, fname, "input, shape", argc, argv, kw, b))
            return val_err();
        t = torch_tensor_arg(h, b[0], at, fname, "input");
        if (!t)
            return val_err();
        argc = 1;
        a[0] = b[1];
        argv = a;
        kw = NULL;
    } else if (kw && kw->n) {
        if (kw->n != 1 || strcmp(kw->names[0], "shape"))
            return host_error(h, at, "%s(): unexpected keyword argument '%s'", fname,
                              kw->names[0]);
        argc = 1;
        argv = kw->values;
    }
    if (argc == 1 && argv[0].kind == VAL_DTYPE)
        return host_error(h, at, "view(dtype) of a complex tensor is not supported by tritsim");
    int nd;
    int64_t shape[TENSOR_MAX_DIMS + 1];
    if (!cx_shape_args(h, argc, argv, at, fname, &nd, shape))
        return val_err();
    tensor *r = cx_real(t);
    tensor *v = view ? tensor_view(r, nd, shape, err) : tensor_reshape(r, nd, shape, err);
    tensor_unref(r);
    return torch_result(h, at, cx_wrap(v), err);
}

CX_FN(cx_fn_view) { return cx_reshape(h, self, argc, argv, kw, at, "view", true); }
CX_FN(cx_fn_reshape) { return cx_reshape(h, self, argc, argv, kw, at, "reshape", false); }

CX_FN(cx_fn_transpose)
{
    val a[3];
    char err[TENSOR_ERR_LEN];
    CX_ARGS("transpose", "input, dim0, dim1", a);
    int d0, d1;
    if (!cx_dim(h, cx_ndim(t), a[1], at, "transpose", &d0) ||
        !cx_dim(h, cx_ndim(t), a[2], at, "transpose", &d1))
        return val_err();
    tensor *r = cx_real(t);
    tensor *v = tensor_transpose(r, d0, d1, err);
    tensor_unref(r);
    return torch_result(h, at, cx_wrap(v), err);
}

CX_FN(cx_fn_t)
{
    val a[1];
    char err[TENSOR_ERR_LEN];
    CX_ARGS("t", "input", a);
    if (cx_ndim(t) > 2)
        return host_error(h, at, "t() expects a tensor with <= 2 dimensions, but self is %dD",
                          cx_ndim(t));
    if (cx_ndim(t) < 2)
        return val_ref(a[0]);
    tensor *r = cx_real(t);
    tensor *v = tensor_transpose(r, 0, 1, err);
    tensor_unref(r);
    return torch_result(h, at, cx_wrap(v), err);
}

CX_FN(cx_fn_permute)
{
    char err[TENSOR_ERR_LEN];
    val all[TORCH_ARGS_MAX];
    int n = torch_self_args(self, argc, argv, all, TORCH_ARGS_MAX);
    tensor *t = n ? tensor_of(all[0]) : NULL;
    if (!t)
        return host_error(h, at, "permute(): expected a tensor");
    int nd;
    int64_t dims[TENSOR_MAX_DIMS + 1];
    val rest = kw && kw->n ? kw->values[0] : val_missing();
    if (rest.kind != VAL_MISSING) {
        if (!torch_int_list(h, rest, at, "permute", "dims", &nd, dims, TENSOR_MAX_DIMS))
            return val_err();
    } else if (!torch_shape_args(h, n - 1, all + 1, at, "permute", &nd, dims)) {
        return val_err();
    }
    if (nd != cx_ndim(t))
        return host_error(h, at, "permute(sparse_coo): number of dimensions in the tensor "
                          "input does not match the length of the desired ordering of "
                          "dimensions i.e. input.dim() = %d is not equal to len(dims) = %d",
                          cx_ndim(t), nd);
    for (int i = 0; i < nd; i++) {
        int d;
        if (!tensor_wrap_dim(nd, dims[i], &d, err))
            return torch_fail(h, at, err);
        dims[i] = d;
    }
    dims[nd] = nd;
    tensor *r = cx_real(t);
    tensor *v = tensor_permute(r, nd + 1, dims, err);
    tensor_unref(r);
    return torch_result(h, at, cx_wrap(v), err);
}

CX_FN(cx_fn_unsqueeze)
{
    val a[2];
    char err[TENSOR_ERR_LEN];
    CX_ARGS("unsqueeze", "input, dim", a);
    int d;
    if (!cx_dim(h, cx_ndim(t) + 1, a[1], at, "unsqueeze", &d))
        return val_err();
    tensor *r = cx_real(t);
    tensor *v = tensor_unsqueeze(r, d, err);
    tensor_unref(r);
    return torch_result(h, at, cx_wrap(v), err);
}

CX_FN(cx_fn_squeeze)
{
    val a[2];
    char err[TENSOR_ERR_LEN];
    CX_ARGS("squeeze", "input, dim=", a);
    tensor *v = cx_real(t);
    int nd = cx_ndim(t);
    for (int d = nd - 1; d >= 0; d--) {
        int want = -1;
        if (a[1].kind != VAL_MISSING && a[1].kind != VAL_NONE) {
            if (!cx_dim(h, nd, a[1], at, "squeeze", &want)) {
                tensor_unref(v);
                return val_err();
            }
        }
        if ((want < 0 || want == d) && v->shape[d] == 1) {
            tensor *s = tensor_squeeze(v, false, d, err);
            tensor_unref(v);
            v = s;
            if (!v)
                break;
        }
    }
    return torch_result(h, at, cx_wrap(v), err);
}

CX_FN(cx_fn_flatten)
{
    val a[3];
    char err[TENSOR_ERR_LEN];
    CX_ARGS("flatten", "input, start_dim=, end_dim=", a);
    int nd = cx_ndim(t), s = 0, e = nd ? nd - 1 : 0;
    if (nd == 0) {
        int64_t one[2] = {1, 2};
        tensor *r = cx_real(t);
        tensor *v = tensor_reshape(r, 2, one, err);
        tensor_unref(r);
        return torch_result(h, at, cx_wrap(v), err);
    }
    if ((a[1].kind != VAL_MISSING && !cx_dim(h, nd, a[1], at, "flatten", &s)) ||
        (a[2].kind != VAL_MISSING && !cx_dim(h, nd, a[2], at, "flatten", &e)))
        return val_err();
    if (s > e)
        return host_error(h, at, "flatten() has invalid args: start_dim cannot come after "
                          "end_dim");
    tensor *r = cx_real(t);
    tensor *v = tensor_flatten(r, s, e, err);
    tensor_unref(r);
    return torch_result(h, at, cx_wrap(v), err);
}

CX_FN(cx_fn_expand)
{
    char err[TENSOR_ERR_LEN];
    tensor *t = tensor_of(self);
    int nd;
    int64_t shape[TENSOR_MAX_DIMS + 1];
    if (!t || !cx_shape_args(h, argc, argv, at, "expand", &nd, shape))
        return val_err();
    (void)kw;
    tensor *r = cx_real(t);
    tensor *v = tensor_expand(r, nd, shape, err);
    tensor_unref(r);
    return torch_result(h, at, cx_wrap(v), err);
}

/* contiguous, clone, detach: the real view's */
CX_FN(cx_fn_contiguous)
{
    val a[2];
    char err[TENSOR_ERR_LEN];
    CX_ARGS("contiguous", "input, memory_format=", a);
    if (tensor_is_contiguous(t))
        return val_ref(a[0]);
    tensor *r = cx_real(t);
    tensor *v = tensor_contiguous(r, err);
    tensor_unref(r);
    return torch_result(h, at, cx_wrap(v), err);
}

CX_FN(cx_fn_clone)
{
    val a[2];
    char err[TENSOR_ERR_LEN];
    CX_ARGS("clone", "input, memory_format=", a);
    return torch_result(h, at, cx_convert(t, t->type, err), err);
}

CX_FN(cx_fn_detach)
{
    val a[1];
    CX_ARGS("detach", "input", a);
    tensor *r = cx_real(t);
    return tensor_val(cx_wrap(r));
}

/* size(dim=None), stride(dim=None): the complex dimensions; strides in
 * complex elements. */
static val cx_size_or_stride(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                             src_span at, bool stride)
{
    const char *fname = stride ? "stride" : "size";
    val a[2];
    CX_ARGS(fname, "input, dim=", a);
    int nd = cx_ndim(t);
    int64_t v[TENSOR_MAX_DIMS];
    for (int d = 0; d < nd; d++)
        v[d] = stride ? t->strides[d] / 2 : t->shape[d];
    if (a[1].kind != VAL_MISSING && a[1].kind != VAL_NONE) {
        int d;
        if (!cx_dim(h, nd, a[1], at, fname, &d))
            return val_err();
        return val_int(v[d]);
    }
    if (!stride)
        return torch_size_new(nd, v);
    val r = val_tuple_new((size_t)nd);
    for (int d = 0; d < nd; d++)
        val_seq_set(r, (size_t)d, val_int(v[d]));
    return r;
}

CX_FN(cx_fn_size) { return cx_size_or_stride(h, self, argc, argv, kw, at, false); }
CX_FN(cx_fn_stride) { return cx_size_or_stride(h, self, argc, argv, kw, at, true); }

CX_FN(cx_fn_dim)
{
    val a[1];
    CX_ARGS("dim", "input", a);
    return val_int(cx_ndim(t));
}

CX_FN(cx_fn_numel)
{
    val a[1];
    CX_ARGS("numel", "input", a);
    return val_int(tensor_numel(t) / 2);
}

CX_FN(cx_fn_is_contiguous)
{
    val a[2];
    CX_ARGS("is_contiguous", "input, memory_format=", a);
    return val_bool(tensor_is_contiguous(t));
}

CX_FN(cx_fn_element_size)
{
    val a[1];
    CX_ARGS("element_size", "input", a);
    return val_int(2 * tensor_elsize(t));
}

CX_FN(cx_fn_storage_offset)
{
    val a[1];
    CX_ARGS("storage_offset", "input", a);
    return val_int(t->offset / 2);
}

CX_FN(cx_fn_is_floating_point)
{
    val a[1];
    CX_ARGS("is_floating_point", "input", a);
    return val_bool(false);
}

/* ---- conversions ------------------------------------------------------------------- */

/* One element as a Python complex. */
static val cx_scalar_at(const tensor *k, int64_t i)
{
    dtype_scalar re = tensor_get_flat(k, 2 * i), im = tensor_get_flat(k, 2 * i + 1);
    return complexval_new(re.f, im.f);
}

CX_FN(cx_fn_item)
{
    val a[1];
    CX_ARGS("item", "input", a);
    if (tensor_numel(t) != 2)
        return host_error(h, at, "a Tensor with %lld elements cannot be converted to Scalar",
                          (long long)(tensor_numel(t) / 2));
    tensor *r = cx_real(t);
    val v = cx_scalar_at(r, 0);
    tensor_unref(r);
    return v;
}

static val cx_list_rec(const tensor *r, int nd, int axis, int64_t *base)
{
    if (axis == nd)
        return cx_scalar_at(r, *base);
    int64_t n = r->shape[axis];
    int64_t inner = 1;
    for (int d = axis + 1; d < nd; d++)
        inner *= r->shape[d];
    val l = val_list_new((size_t)n);
    for (int64_t i = 0; i < n; i++) {
        int64_t b = *base + i * inner;
        val_list_push(l, cx_list_rec(r, nd, axis + 1, &b));
    }
    return l;
}

CX_FN(cx_fn_tolist)
{
    val a[1];
    CX_ARGS("tolist", "input", a);
    tensor *r = cx_real(t);
    int64_t base = 0;
    val l = cx_list_rec(r, cx_ndim(t), 0, &base);
    tensor_unref(r);
    return l;
}

/* Is v a torch complex dtype?  Its parts' dtype in *parts. */
static bool cx_dtype_arg(val v, dtype *parts)
{
    if (v.kind != VAL_DTYPE || !tensor_dtype_id_complex(val_dtype_id(v)))
        return false;
    *parts = (dtype)(val_dtype_id(v) & ~TENSOR_DTYPE_COMPLEX);
    return true;
}

/* A complex dtype argument that tritsim can make (complex32 refused). */
static bool cx_parts_ok(host *h, dtype parts, src_span at, const char *fname)
{
    if (parts == DTYPE_FP32 || parts == DTYPE_FP64)
        return true;
    host_error(h, at, "%s(): tritsim has no torch.complex32 (chalf) tensors: use "
               "torch.complex64", fname);
    return false;
}

/* x.to(dtype) / x.to(device) / x.to(other) for complex x, and any tensor's
 * .to(complex dtype). */
/* t on device cuda: t itself (a new reference to tv) when it is there, else
 * a copy labelled so (tensor.h: devices are labels). */
static val cx_on_device(host *h, val tv, bool cuda, src_span at)
{
    char err[TENSOR_ERR_LEN];
    tensor *t = tensor_of(tv);
    if (t->cuda == cuda)
        return tv;
    tensor *c = tensor_is_complex(t) ? cx_convert(t, t->type, err) : tensor_contiguous(t, err);
    val_unref(tv);
    if (c)
        c->cuda = cuda;
    return torch_result(h, at, c, err);
}

CX_FN(cx_fn_to)
{
    char err[TENSOR_ERR_LEN];
    tensor *t = tensor_of(self);
    if (!t)
        return host_error(h, at, "to(): expected a tensor");
    val target = val_missing();
    bool cuda = t->cuda;
    for (int i = 0; i < argc; i++) {
        if (argv[i].kind == VAL_DTYPE || argv[i].kind == VAL_TENSOR)
            target = argv[i];
        else if (argv[i].kind != VAL_BOOL && !torch_device_arg(h, argv[i], at, "to", &cuda))
            return val_err();
    }
    for (int i = 0; kw && i < kw->n; i++) {
        if (!strcmp(kw->names[i], "dtype"))
            target = kw->values[i];
        else if (!strcmp(kw->names[i], "device") &&
                 !torch_device_arg(h, kw->values[i], at, "to", &cuda))
            return val_err();
    }
    if (target.kind == VAL_TENSOR) {
        tensor *o = tensor_of(target);
        cuda = o->cuda;
        target = tensor_is_complex(o) ? cx_dtype_val(o->type) : val_dtype(o->type);
    }
    if (target.kind == VAL_MISSING || target.kind == VAL_NONE)
        return cx_on_device(h, val_ref(self), cuda, at);
    dtype parts;
    if (cx_dtype_arg(target, &parts)) {
        if (!cx_parts_ok(h, parts, at, "to"))
            return val_err();
        cx_operand o = {.t = t, .is_complex = tensor_is_complex(t)};
        if (o.is_complex && t->type == parts)
            return cx_on_device(h, val_ref(self), cuda, at);
        tensor *r = cx_operand_tensor(&o, parts, cuda, err);
        if (r)
            r->cuda = cuda;
        return torch_result(h, at, r, err);
    }
    /* complex -> real keeps the real part (PyTorch warns) */
    dtype to = (dtype)val_dtype_id(target);
    if (!tensor_dtype_ok(to))
        return host_error(h, at, "to(): unsupported dtype");
    fflush(stdout);
    fprintf(stderr, "UserWarning: Casting complex values to real discards the imaginary part\n");
    tensor *re = cx_part(t, 0);
    tensor *r = tensor_to(re, to, cuda, err);
    tensor_unref(re);
    return torch_result(h, at, r, err);
}

/* cuda() / cpu(): a copy labelled with the device, or the tensor itself. */
CX_FN(cx_fn_cuda)
{
    val a[3];
    CX_ARGS("cuda", "input, device=, non_blocking=", a);
    return cx_on_device(h, val_ref(a[0]), true, at);
}

CX_FN(cx_fn_cpu)
{
    val a[1];
    CX_ARGS("cpu", "input", a);
    return cx_on_device(h, val_ref(a[0]), false, at);
}

/* ---- creation ---------------------------------------------------------------------- */

/* The data with each number x replaced by [x.real, x.imag]. */
static val cx_data_pairs(host *h, val v, src_span at)
{
    cplx z;
    if (complexval_parts(v, &z) && v.kind != VAL_BOOL) {
        val l = val_list_new(2);
        val_list_push(l, val_float(z.re));
        val_list_push(l, val_float(z.im));
        return l;
    }
    if (v.kind != VAL_LIST && v.kind != VAL_TUPLE)
        return host_error(h, at, "tensor(): tritsim makes complex tensors from nested lists of "
                          "numbers, not %s", val_type_name(v));
    const val_seq *s = val_as_seq(v);
    val l = val_list_new(s->len);
    for (size_t i = 0; i < s->len; i++) {
        val e = cx_data_pairs(h, s->items[i], at);
        if (e.kind == VAL_ERR) {
            val_unref(l);
            return e;
        }
        val_list_push(l, e);
    }
    return l;
}

/* torch.tensor(data, dtype=, device=, requires_grad=) with complex data or
 * a complex dtype. */
static val cx_tensor_data(host *h, val data, dtype parts, bool cuda, src_span at)
{
    val pairs = cx_data_pairs(h, data, at);
    if (pairs.kind == VAL_ERR)
        return pairs;
    tensor *r = torch_from_data(h, pairs, parts, cuda, at);
    val_unref(pairs);
    if (!r)
        return val_err();
    return tensor_val(cx_wrap(r));
}

/* Find keyword `name` in kw: its value or VAL_MISSING. */
static val cx_kw(const val_kwargs *kw, const char *name)
{
    for (int i = 0; kw && i < kw->n; i++)
        if (!strcmp(kw->names[i], name))
            return kw->values[i];
    return val_missing();
}

/* kw without `name` (names/values hold room for kw->n). */
static const val_kwargs *cx_kw_without(const val_kwargs *kw, const char *name, val_kwargs *out,
                                       const char **names, val *values)
{
    out->n = 0;
    for (int i = 0; kw && i < kw->n; i++)
        if (strcmp(kw->names[i], name)) {
            names[out->n] = kw->names[i];
            values[out->n++] = kw->values[i];
        }
    out->names = names;
    out->values = values;
    return out;
}

/* The creation functions with a complex dtype: made as the real tensor
 * the plain function makes (zeros, or full of the real part), whose shape
 * and device give the complex one. */
static val cx_create(host *h, const torch_fn *f, val self, int argc, const val *argv,
                     const val_kwargs *kw, src_span at, dtype parts)
{
    char err[TENSOR_ERR_LEN];
    const char *name = f->name;
    if (!cx_parts_ok(h, parts, at, name))
        return val_err();
    const char *names[TORCH_ARGS_MAX];
    val values[TORCH_ARGS_MAX];
    val_kwargs rest;
    cx_kw_without(kw, "dtype", &rest, names, values);
    names[rest.n] = "dtype";
    values[rest.n++] = val_dtype(parts);
    bool is_full = !strcmp(name, "full") || !strcmp(name, "full_like") ||
                   !strcmp(name, "new_full");
    bool random = !strncmp(name, "rand", 4);
    cplx fillz = {0, 0};
    val args[TORCH_ARGS_MAX];
    if (argc > TORCH_ARGS_MAX)
        return host_error(h, at, "%s(): too many arguments", name);
    memcpy(args, argv, (size_t)argc * sizeof *args);
    if (is_full) {
        /* the fill value: the last positional argument or fill_value= */
        val *fv = NULL;
        for (int i = 0; i < rest.n; i++)
            if (!strcmp(rest.names[i], "fill_value"))
                fv = &values[i];
        if (!fv && argc)
            fv = &args[argc - 1];
        if (!fv || !complexval_parts(*fv, &fillz))
            return host_error(h, at, "%s(): fill_value must be a number", name);
        *fv = val_float(0.0);
    }
    /* the shape from the zero-filled real tensor of the same call */
    const torch_fn *zf = NULL;
    const char *zname = random ? (strstr(name, "_like") ? "zeros_like" : "zeros") : name;
    for (const torch_fn *g = torch_create_fns; g->name; g++)
        if (!strcmp(g->name, zname))
            zf = g;
    if (!zf)
        return host_error(h, at, "%s(): complex dtypes are not supported here by tritsim", name);
    val shape_src = zf->fn(h, self, argc, args, &rest, at);
    tensor *base = tensor_of(shape_src);
    if (!base) {
        val_unref(shape_src);
        return val_err();
    }
    tensor *c = cx_zeros(parts, base->ndim, base->shape, base->cuda, err);
    val_unref(shape_src);
    if (!c)
        return torch_fail(h, at, err);
    tensor *r = cx_real(c);
    if (random) {
        /* PyTorch draws both parts: normal with variance 1/2 each, or
         * uniform in [0, 1) */
        if (!strncmp(name, "randn", 5))
            tensor_fill_normal(r, 0.0, sqrt(0.5));
        else
            tensor_fill_uniform(r, 0.0, 1.0);
    } else if (!strcmp(name, "ones") || !strcmp(name, "ones_like") ||
               !strcmp(name, "new_ones") || is_full) {
        cplx z = is_full ? fillz : (cplx){1, 0};
        tensor *re = tensor_select(r, -1, 0, NULL), *im = tensor_select(r, -1, 1, NULL);
        tensor_fill(re, (dtype_scalar){.f = (double)z.re});
        tensor_fill(im, (dtype_scalar){.f = (double)z.im});
        if (parts == DTYPE_FP32) {
            tensor_fill(re, tensor_convert((dtype_scalar){.f = z.re}, DTYPE_FP64, parts));
            tensor_fill(im, tensor_convert((dtype_scalar){.f = z.im}, DTYPE_FP64, parts));
        }
        tensor_unref(re);
        tensor_unref(im);
    }
    tensor_unref(r);
    return tensor_val(c);
}

/* ---- joining and comparing ------------------------------------------------------------ */

/* cat / stack(tensors, dim=0): every tensor made complex (parts of the
 * widest dtype), their real views joined by the real function. */
static val cx_join(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                   src_span at, const char *fname, bool stack)
{
    (void)self;
    val a[2];
    char err[TENSOR_ERR_LEN];
    if (!host_args(h, at, fname, "tensors, dim=", argc, argv, kw, a))
        return val_err();
    if (a[0].kind != VAL_LIST && a[0].kind != VAL_TUPLE)
        return host_error(h, at, "%s(): argument 'tensors' must be tuple of Tensors, not %s",
                          fname, val_type_name(a[0]));
    const val_seq *s = val_as_seq(a[0]);
    if (s->len == 0)
        return host_error(h, at, "%s(): expected a non-empty list of Tensors", fname);
    dtype parts = DTYPE_FP32;
    for (size_t i = 0; i < s->len; i++) {
        tensor *t = torch_tensor_arg(h, s->items[i], at, fname, "tensors");
        if (!t)
            return val_err();
        if (t->type == DTYPE_FP64)
            parts = DTYPE_FP64;
    }
    int nd = tensor_is_complex(tensor_of(s->items[0])) ? cx_ndim(tensor_of(s->items[0]))
                                                       : tensor_of(s->items[0])->ndim;
    int d = 0;
    if (a[1].kind != VAL_MISSING && !cx_dim(h, stack ? nd + 1 : nd, a[1], at, fname, &d))
        return val_err();
    val list = val_list_new(s->len);
    for (size_t i = 0; i < s->len; i++) {
        cx_operand o;
        cx_operand_of(s->items[i], &o);
        tensor *c = cx_operand_tensor(&o, parts, o.t->cuda, err);
        if (!c) {
            val_unref(list);
            return torch_fail(h, at, err);
        }
        val_list_push(list, tensor_val(cx_real(c)));
        tensor_unref(c);
    }
    const torch_fn *f = NULL;
    for (const torch_fn *g = torch_math_fns; g->name; g++)
        if (!strcmp(g->name, fname))
            f = g;
    val r = f ? f->fn(h, val_none(), 2, (val[]){list, val_int(d)}, NULL, at)
              : host_error(h, at, "%s(): not available", fname);
    val_unref(list);
    tensor *rt = tensor_of(r);
    if (!rt)
        return r;
    tensor *c = cx_wrap(tensor_ref(rt));
    val_unref(r);
    return tensor_val(c);
}

/* outer(input, vec2) with a complex operand: input[:, None] * vec2[None, :] */
CX_FN(cx_fn_outer)
{
    val a[2];
    char err[TENSOR_ERR_LEN];
    CX_ARGS("outer", "input, vec2", a);
    cx_operand x, y;
    if (!cx_operand_of(a[0], &x) || !cx_operand_of(a[1], &y) || !y.t)
        return host_error(h, at, "outer(): argument 'vec2' must be Tensor, not %s",
                          val_type_name(a[1]));
    int nx = x.is_complex ? cx_ndim(x.t) : x.t->ndim, ny = y.is_complex ? cx_ndim(y.t)
                                                                       : y.t->ndim;
    if (nx != 1 || ny != 1)
        return host_error(h, at, "outer: Expected 1-D argument %s, but got %d-D",
                          nx != 1 ? "self" : "vec2", nx != 1 ? nx : ny);
    dtype parts = cx_result_parts(&x, &y, err);
    tensor *cx = parts != DTYPE_INVALID ? cx_operand_tensor(&x, parts, t->cuda, err) : NULL;
    tensor *cy = cx ? cx_operand_tensor(&y, parts, t->cuda, err) : NULL;
    tensor *rx = cy ? cx_real(cx) : NULL, *ry = cy ? cx_real(cy) : NULL;
    tensor *col = rx ? cx_wrap(tensor_unsqueeze(rx, 1, err)) : NULL;
    tensor *row = col ? cx_wrap(tensor_unsqueeze(ry, 0, err)) : NULL;
    tensor *r = row ? cx_binary(CX_MUL, col, row, err) : NULL;
    tensor *all[] = {cx, cy, rx, ry, col, row};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        tensor_unref(all[i]);
    return torch_result(h, at, r, err);
}

CX_FN(cx_fn_cat) { return cx_join(h, self, argc, argv, kw, at, "cat", false); }
CX_FN(cx_fn_stack) { return cx_join(h, self, argc, argv, kw, at, "stack", true); }

static tensor *cx_isclose(const tensor *a, const tensor *b, double rtol, double atol,
                          bool equal_nan, char *err)
{
    tensor *absd, *abse;
    tensor *m = torch_complex_close(a, b, rtol, atol, equal_nan, &absd, &abse, err);
    tensor_unref(absd);
    tensor_unref(abse);
    return m;
}

static val cx_close(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                    src_span at, const char *fname, bool all)
{
    val a[5];
    char err[TENSOR_ERR_LEN];
    CX_ARGS(fname, "input, other, rtol=, atol=, equal_nan=", a);
    tensor *o = torch_tensor_arg(h, a[1], at, fname, "other");
    if (!o)
        return val_err();
    double rtol = 1e-05, atol = 1e-08;
    bool equal_nan = false;
    if ((a[2].kind != VAL_MISSING && !host_to_float(h, a[2], at, "rtol", &rtol)) ||
        (a[3].kind != VAL_MISSING && !host_to_float(h, a[3], at, "atol", &atol)) ||
        !torch_bool_arg(h, a[4], at, fname, "equal_nan", &equal_nan))
        return val_err();
    if (!tensor_is_complex(t) || !tensor_is_complex(o) || t->type != o->type)
        return host_error(h, at, "%s(): %s did not match %s", fname,
                          tensor_is_complex(t) ? (t->type == DTYPE_FP64 ? "ComplexDouble"
                                                                        : "ComplexFloat")
                                               : tensor_type_name(t->type),
                          tensor_is_complex(o) ? (o->type == DTYPE_FP64 ? "ComplexDouble"
                                                                        : "ComplexFloat")
                                               : tensor_type_name(o->type));
    tensor *c = cx_isclose(t, o, rtol, atol, equal_nan, err);
    if (!c || !all)
        return torch_result(h, at, c, err);
    bool r = true;
    for (int64_t i = 0, n = tensor_numel(c); i < n && r; i++)
        r = tensor_get_flat(c, i).u != 0;
    tensor_unref(c);
    return val_bool(r);
}

CX_FN(cx_fn_isclose) { return cx_close(h, self, argc, argv, kw, at, "isclose", false); }
CX_FN(cx_fn_allclose) { return cx_close(h, self, argc, argv, kw, at, "allclose", true); }

CX_FN(cx_fn_equal)
{
    val a[2];
    char err[TENSOR_ERR_LEN];
    CX_ARGS("equal", "input, other", a);
    tensor *o = torch_tensor_arg(h, a[1], at, "equal", "other");
    if (!o)
        return val_err();
    if (tensor_is_complex(t) != tensor_is_complex(o) || t->ndim != o->ndim)
        return val_bool(false);
    for (int d = 0; d < t->ndim; d++)
        if (t->shape[d] != o->shape[d])
            return val_bool(false);
    tensor *eq = cx_binary(CX_EQ, t, o->type == t->type ? o : t, err);
    if (o->type != t->type) {
        tensor_unref(eq);
        return host_error(h, at, "equal(): complex tensors of different dtypes");
    }
    if (!eq)
        return torch_fail(h, at, err);
    bool r = true;
    for (int64_t i = 0, n = tensor_numel(eq); i < n && r; i++)
        r = tensor_get_flat(eq, i).u != 0;
    tensor_unref(eq);
    return val_bool(r);
}

/* ---- the table ------------------------------------------------------------------- */

typedef struct cx_entry {
    const char *name;
    val_cfunc fn;
} cx_entry;

/* The torch functions and methods that accept complex tensors. */
static const cx_entry cx_table[] = {
    {"complex", cx_fn_complex}, {"polar", cx_fn_polar},
    {"view_as_real", cx_fn_view_as_real}, {"view_as_complex", cx_fn_view_as_complex},
    {"is_complex", cx_fn_is_complex}, {"real", cx_fn_real}, {"imag", cx_fn_imag},
    {"conj", cx_fn_conj}, {"conj_physical", cx_fn_conj}, {"resolve_conj", cx_fn_clone},
    {"angle", cx_fn_angle}, {"abs", cx_fn_abs}, {"absolute", cx_fn_abs},
    {"exp", cx_fn_exp}, {"neg", cx_fn_neg}, {"negative", cx_fn_neg},
    {"add", cx_fn_add}, {"sub", cx_fn_sub}, {"subtract", cx_fn_sub},
    {"mul", cx_fn_mul}, {"multiply", cx_fn_mul}, {"div", cx_fn_div}, {"divide", cx_fn_div},
    {"true_divide", cx_fn_div}, {"sum", cx_fn_sum}, {"mean", cx_fn_mean},
    {"view", cx_fn_view}, {"reshape", cx_fn_reshape}, {"transpose", cx_fn_transpose},
    {"swapaxes", cx_fn_transpose}, {"permute", cx_fn_permute}, {"t", cx_fn_t},
    {"unsqueeze", cx_fn_unsqueeze}, {"squeeze", cx_fn_squeeze}, {"flatten", cx_fn_flatten},
    {"expand", cx_fn_expand}, {"contiguous", cx_fn_contiguous}, {"clone", cx_fn_clone},
    {"detach", cx_fn_detach}, {"size", cx_fn_size}, {"stride", cx_fn_stride},
    {"dim", cx_fn_dim}, {"ndimension", cx_fn_dim}, {"numel", cx_fn_numel},
    {"is_contiguous", cx_fn_is_contiguous}, {"element_size", cx_fn_element_size},
    {"storage_offset", cx_fn_storage_offset}, {"is_floating_point", cx_fn_is_floating_point},
    {"item", cx_fn_item}, {"tolist", cx_fn_tolist}, {"to", cx_fn_to},
    {"cat", cx_fn_cat}, {"concat", cx_fn_cat}, {"concatenate", cx_fn_cat},
    {"stack", cx_fn_stack}, {"isclose", cx_fn_isclose}, {"allclose", cx_fn_allclose},
    {"equal", cx_fn_equal}, {"is_tensor", cx_fn_is_tensor}, {"outer", cx_fn_outer},
    {"ger", cx_fn_outer}, {"cuda", cx_fn_cuda}, {"cpu", cx_fn_cpu},
    {NULL, NULL},
};

static const cx_entry *cx_find(const char *name)
{
    for (const cx_entry *e = cx_table; e->name; e++)
        if (!strcmp(e->name, name))
            return e;
    return NULL;
}

/* The new torch functions (torch.X and Tensor.X) that work on real
 * tensors too; the rest of cx_table are complex forms of existing ones. */
const torch_fn torch_complex_fns[] = {
    TORCH_FUNC("complex", cx_fn_complex),
    TORCH_FUNC("polar", cx_fn_polar),
    TORCH_FUNC("view_as_real", cx_fn_view_as_real),
    TORCH_FUNC("view_as_complex", cx_fn_view_as_complex),
    TORCH_BOTH("is_complex", cx_fn_is_complex),
    TORCH_FUNC("real", cx_fn_real),
    TORCH_FUNC("imag", cx_fn_imag),
    TORCH_BOTH("conj", cx_fn_conj),
    TORCH_BOTH("conj_physical", cx_fn_conj),
    TORCH_BOTH("resolve_conj", cx_fn_conj),
    TORCH_BOTH("angle", cx_fn_angle),
    {NULL, NULL, NULL, NULL, NULL, 0},
};

/* ---- dispatch ---------------------------------------------------------------------- */

/* Is v (or an item of a list/tuple v) a complex tensor, a complex dtype or
 * a Python complex? */
static bool cx_involved(val v, int depth)
{
    if (v.kind == VAL_TENSOR)
        return tensor_is_complex(tensor_of(v));
    if (v.kind == VAL_DTYPE)
        return tensor_dtype_id_complex(val_dtype_id(v));
    if (complexval_is(v))
        return true;
    if ((v.kind == VAL_LIST || v.kind == VAL_TUPLE) && depth < 32) {
        const val_seq *s = val_as_seq(v);
        for (size_t i = 0; i < s->len; i++)
            if (cx_involved(s->items[i], depth + 1))
                return true;
    }
    return false;
}

bool torch_complex_dispatch(host *h, const torch_fn *f, val self, int argc, const val *argv,
                            const val_kwargs *kw, src_span at, val *out)
{
    bool any = cx_involved(self, 0);
    for (int i = 0; !any && i < argc; i++)
        any = cx_involved(argv[i], 0);
    for (int i = 0; !any && kw && i < kw->n; i++)
        any = cx_involved(kw->values[i], 0);
    if (!any)
        return false;
    const char *qual = f->qual_torch ? f->qual_torch : f->qual_method ? f->qual_method
                                                                       : f->name;
    /* creation: a complex dtype= (or complex data for torch.tensor) */
    dtype parts = DTYPE_INVALID;
    val dt = cx_kw(kw, "dtype");
    bool cx_dtype = cx_dtype_arg(dt, &parts);
    if (!strcmp(f->name, "tensor") || !strcmp(f->name, "as_tensor")) {
        bool cuda = false;
        val data = argc ? argv[0] : cx_kw(kw, "data");
        if (!torch_device_arg(h, cx_kw(kw, "device"), at, f->name, &cuda)) {
            *out = val_err();
            return true;
        }
        if (!cx_dtype) {
            if (dt.kind != VAL_MISSING && dt.kind != VAL_NONE) {
                *out = host_error(h, at, "%s(): complex values cannot be stored in a tensor of "
                                  "a real dtype", f->name);
                return true;
            }
            parts = DTYPE_FP32;
        } else if (!cx_parts_ok(h, parts, at, f->name)) {
            *out = val_err();
            return true;
        }
        *out = cx_tensor_data(h, data, parts, cuda, at);
        return true;
    }
    if (f->grad == TORCH_AG_CREATE || !strcmp(f->name, "new_zeros") ||
        !strcmp(f->name, "new_ones") || !strcmp(f->name, "new_full") ||
        !strcmp(f->name, "new_empty")) {
        if (!cx_dtype) {
            /* *_like of a complex tensor: its dtype */
            tensor *src = self.kind == VAL_TENSOR ? tensor_of(self)
                          : argc ? tensor_of(argv[0]) : NULL;
            if (src && tensor_is_complex(src))
                parts = src->type;
            else if (strcmp(f->name, "full") && strcmp(f->name, "full_like")) {
                *out = host_error(h, at, "%s(): complex values are not supported here by "
                                  "tritsim", qual);
                return true;
            } else {
                parts = DTYPE_FP32;   /* full(..., complex fill) -> complex64 */
            }
            if (src && tensor_is_complex(src)) {
                /* call with the real view as input (same shape but 2) */
                tensor *re = cx_part(src, 0);
                val args[TORCH_ARGS_MAX];
                int n = argc < TORCH_ARGS_MAX ? argc : TORCH_ARGS_MAX;
                memcpy(args, argv, (size_t)n * sizeof *args);
                val sv = self;
                if (argc && tensor_of(argv[0]) == src)
                    args[0] = tensor_val(re);
                else
                    sv = tensor_val(re);
                *out = cx_create(h, f, sv, n, args, kw, at, parts);
                tensor_unref(re);
                return true;
            }
        }
        *out = cx_create(h, f, self, argc, argv, kw, at, parts);
        return true;
    }
    const cx_entry *e = cx_find(f->name);
    if (!e) {
        *out = host_error(h, at, "%s(): complex tensors are not supported by this function in "
                          "tritsim (doc/language.md lists what complex tensors can do; "
                          "torch.view_as_real gives a real view of one)", qual);
        return true;
    }
    *out = e->fn(h, self, argc, argv, kw, at);
    return true;
}
