/* tensor_complex.c - complex tensors (torch.complex64 / cfloat and
 * torch.complex128 / cdouble) on the host: their representation, type
 * promotion and elementwise arithmetic, and the Tensor type's hooks for
 * them (attributes, operators, indexing, printing).  complex_impl.h says
 * what torch_complex.c, the torch functions, takes from here.
 *
 * Representation (tensor.h): a complex tensor is the view that
 * torch.view_as_real would give, flagged cplx: a last dimension of size 2
 * and stride 1 holds the real and imaginary parts, type is the parts'
 * dtype.  So view_as_real and view_as_complex are the same view with the
 * flag changed, .real/.imag select the last dimension (writable views),
 * and the views (reshape, transpose, indexing, ...) are the real view's
 * with one more dimension at the end.  Strides and offsets shown to the
 * program count complex elements (half the real view's).  The Tensor
 * type's hooks (torch_tensor.c) hand complex tensors to
 * torch_complex_hooks below.
 *
 * Arithmetic is PyTorch's (c10/util/complex.h) in the parts' own
 * precision: the textbook product, the scaled quotient, exp and abs
 * through the C library. */
#include "complex_impl.h"

#include "format.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- representation ------------------------------------------------------------ */

/* The complex view of real view r (last dimension 2, stride 1), taking
 * over the reference to r; NULL stays NULL. */
tensor *cx_wrap(tensor *r)
{
    if (!r)
        return NULL;
    tensor *c = tensor_view_of(r, r->ndim, r->shape, r->strides, r->offset);
    tensor_unref(r);
    c->cplx = true;
    return c;
}

/* The real view of complex c (view_as_real): a new reference. */
tensor *cx_real(const tensor *c)
{
    return tensor_view_of(c, c->ndim, c->shape, c->strides, c->offset);
}

/* Dimensions of complex c as the program sees them. */
int cx_ndim(const tensor *c)
{
    return c->ndim - 1;
}

/* The complex dtype value of parts' dtype t. */
val cx_dtype_val(dtype t)
{
    return val_dtype(TENSOR_DTYPE_COMPLEX | (int)t);
}

/* A zero complex tensor of shape (ndim dims) with parts of dtype t. */
tensor *cx_zeros(dtype t, int ndim, const int64_t *shape, bool cuda, char *err)
{
    int64_t s[TENSOR_MAX_DIMS + 1];
    if (ndim >= TENSOR_MAX_DIMS) {
        tensor_err(err, "tritsim's complex tensors have at most %d dimensions",
                   TENSOR_MAX_DIMS - 1);
        return NULL;
    }
    if (ndim > 0)
        memcpy(s, shape, (size_t)ndim * sizeof *s);     /* shape may be NULL for 0-d */
    s[ndim] = 2;
    return cx_wrap(tensor_new(t, ndim + 1, s, cuda, err));
}

/* The parts of complex c as real views (new references). */
tensor *cx_part(const tensor *c, int which)
{
    tensor *r = cx_real(c);
    tensor *p = tensor_select(r, -1, which, NULL);
    tensor_unref(r);
    return p;
}

/* A complex tensor from real parts re and im (im may be NULL: zero),
 * broadcast together, parts converted to dtype t. */
tensor *cx_from_parts(const tensor *re, const tensor *im, dtype t, char *err)
{
    int nd = re->ndim;
    int64_t shape[TENSOR_MAX_DIMS];
    memcpy(shape, re->shape, sizeof shape);
    if (im && !tensor_broadcast_shapes(re->ndim, re->shape, im->ndim, im->shape, &nd, shape,
                                       err))
        return NULL;
    tensor *c = cx_zeros(t, nd, shape, re->cuda || (im && im->cuda), err);
    if (!c)
        return NULL;
    tensor *pr = cx_part(c, 0);
    bool ok = tensor_copy_into(pr, re, err);
    tensor_unref(pr);
    if (ok && im) {
        tensor *pi = cx_part(c, 1);
        ok = tensor_copy_into(pi, im, err);
        tensor_unref(pi);
    }
    if (!ok) {
        tensor_unref(c);
        return NULL;
    }
    return c;
}

/* A contiguous copy of complex c with parts of dtype t. */
tensor *cx_convert(const tensor *c, dtype t, char *err)
{
    tensor *r = cx_real(c);
    tensor *k = tensor_to(r, t, c->cuda, err);
    tensor_unref(r);
    if (!k)
        return NULL;
    tensor *kc = tensor_contiguous(k, err);
    tensor_unref(k);
    return cx_wrap(kc);
}

/* ---- dtypes and operands -------------------------------------------------------- */

/* The parts' dtype of a complex tensor made from real dtype t (float64 ->
 * complex128, other floats and every int -> complex64); DTYPE_INVALID for
 * float16 / bfloat16 (complex32 is not supported). */
dtype cx_parts_of_real(dtype t)
{
    if (t == DTYPE_FP64)
        return DTYPE_FP64;
    if (t == DTYPE_FP16 || t == DTYPE_BF16 || dtype_is_fp8(t))
        return DTYPE_INVALID;
    return DTYPE_FP32;
}


bool cx_operand_of(val v, cx_operand *o)
{
    memset(o, 0, sizeof *o);
    if (v.kind == VAL_TENSOR) {
        o->t = tensor_of(v);
        o->is_complex = tensor_is_complex(o->t);
        return true;
    }
    o->is_complex = complexval_is(v);
    return complexval_parts(v, &o->z);
}

/* The parts' dtype of a result of operands a and b (at least one
 * complex), as torch's type promotion gives it: complex128 when a complex
 * operand is, or when a float64 tensor takes part that outranks the
 * complex ones (a tensor with dimensions, or a 0-d tensor beside 0-d
 * complex ones and Python numbers); else complex64.  DTYPE_INVALID with a
 * message for a float16/bfloat16 tensor with a Python complex (complex32). */
dtype cx_result_parts(const cx_operand *a, const cx_operand *b, char *err)
{
    const cx_operand *ops[2] = {a, b};
    bool cx_tensor = (a->t && a->is_complex) || (b->t && b->is_complex);
    bool cx_dims = (a->t && a->is_complex && cx_ndim(a->t) > 0) ||
                   (b->t && b->is_complex && cx_ndim(b->t) > 0);
    dtype r = DTYPE_FP32;
    for (int i = 0; i < 2; i++) {
        const cx_operand *o = ops[i];
        if (!o->t)
            continue;
        if (o->is_complex) {
            if (o->t->type == DTYPE_FP64)
                r = DTYPE_FP64;
            continue;
        }
        if (!dtype_is_float(o->t->type) || (cx_dims && o->t->ndim == 0))
            continue;
        dtype p = cx_parts_of_real(o->t->type);
        if (p == DTYPE_INVALID && !cx_tensor) {
            tensor_err(err, "tritsim has no complex32 (ComplexHalf) tensors: convert the %s "
                       "tensor to float32 first", dtype_torch_name(o->t->type));
            return DTYPE_INVALID;
        }
        if (p == DTYPE_FP64)
            r = DTYPE_FP64;
    }
    return r;
}

/* Operand o as a complex tensor with parts of dtype t (a new reference). */
tensor *cx_operand_tensor(const cx_operand *o, dtype t, bool cuda, char *err)
{
    if (!o->t) {
        tensor *c = cx_zeros(t, 0, NULL, cuda, err);
        if (!c)
            return NULL;
        unsigned char *p = tensor_data(c);
        dtype_store(t, p, (dtype_scalar){.f = o->z.re});
        dtype_store(t, p + dtype_size(t), (dtype_scalar){.f = o->z.im});
        return c;
    }
    if (o->is_complex)
        return o->t->type == t ? tensor_ref(o->t) : cx_convert(o->t, t, err);
    return cx_from_parts(o->t, NULL, t, err);
}

/* Operand v (a tensor or number) as a complex tensor of parts t. */
tensor *cx_val_tensor(host *h, val v, dtype t, src_span at, const char *fname)
{
    cx_operand o;
    char err[TENSOR_ERR_LEN];
    if (!cx_operand_of(v, &o)) {
        host_error(h, at, "%s(): expected a tensor or a number, not %s", fname,
                   val_type_name(v));
        return NULL;
    }
    tensor *c = cx_operand_tensor(&o, t, false, err);
    if (!c)
        torch_fail(h, at, err);
    return c;
}

/* ---- elementwise arithmetic ----------------------------------------------------- */


/* c10::complex<T>'s operators, in T's precision. */
#define CX_ARITH(T, SUFFIX) \
    static void cx_apply_##SUFFIX(cx_op op, const T *a, const T *b, T *r) \
    { \
        T x = a[0], y = a[1], u = b[0], v = b[1]; \
        switch (op) { \
        case CX_ADD: r[0] = x + u; r[1] = y + v; return; \
        case CX_SUB: r[0] = x - u; r[1] = y - v; return; \
        case CX_MUL: r[0] = x * u - y * v; r[1] = x * v + y * u; return; \
        case CX_DIV: { \
            T au = u < 0 ? -u : u, av = v < 0 ? -v : v; \
            if (au >= av) { \
                if (au == 0 && av == 0) { \
                    r[0] = x / au; \
                    r[1] = y / av; \
                } else { \
                    T rat = v / u, scl = (T)1.0 / (u + v * rat); \
                    r[0] = (x + y * rat) * scl; \
                    r[1] = (y - x * rat) * scl; \
                } \
            } else { \
                T rat = u / v, scl = (T)1.0 / (v + u * rat); \
                r[0] = (x * rat + y) * scl; \
                r[1] = (y * rat - x) * scl; \
            } \
            return; \
        } \
        default: return; \
        } \
    }
CX_ARITH(float, f32)
CX_ARITH(double, f64)

/* a op b for complex tensors a and b (parts of one dtype), broadcast. */
tensor *cx_binary(cx_op op, const tensor *a, const tensor *b, char *err)
{
    int nd;
    int64_t shape[TENSOR_MAX_DIMS];
    if (!tensor_broadcast_shapes(cx_ndim(a), a->shape, cx_ndim(b), b->shape, &nd, shape, err))
        return NULL;
    shape[nd] = 2;
    tensor *ra = cx_real(a), *rb = cx_real(b);
    tensor *ba = tensor_broadcast_to(ra, nd + 1, shape, err);
    tensor *bb = ba ? tensor_broadcast_to(rb, nd + 1, shape, err) : NULL;
    tensor_unref(ra);
    tensor_unref(rb);
    tensor *ca = bb ? tensor_contiguous(ba, err) : NULL;
    tensor *cb = ca ? tensor_contiguous(bb, err) : NULL;
    tensor_unref(ba);
    tensor_unref(bb);
    bool cmp = op == CX_EQ || op == CX_NE;
    tensor *r = cb ? tensor_new(cmp ? DTYPE_INT1 : a->type, cmp ? nd : nd + 1, shape,
                                a->cuda || b->cuda, err) : NULL;
    if (r) {
        int64_t n = tensor_numel(r) / (cmp ? 1 : 2);
        const unsigned char *pa = tensor_cdata(ca), *pb = tensor_cdata(cb);
        unsigned char *pr = tensor_data(r);
        for (int64_t i = 0; i < n; i++) {
            if (a->type == DTYPE_FP32) {
                const float *x = (const float *)pa + 2 * i, *y = (const float *)pb + 2 * i;
                if (cmp)
                    pr[i] = (unsigned char)((x[0] == y[0] && x[1] == y[1]) == (op == CX_EQ));
                else
                    cx_apply_f32(op, x, y, (float *)pr + 2 * i);
            } else {
                const double *x = (const double *)pa + 2 * i, *y = (const double *)pb + 2 * i;
                if (cmp)
                    pr[i] = (unsigned char)((x[0] == y[0] && x[1] == y[1]) == (op == CX_EQ));
                else
                    cx_apply_f64(op, x, y, (double *)pr + 2 * i);
            }
        }
    }
    tensor_unref(ca);
    tensor_unref(cb);
    return cmp ? r : cx_wrap(r);
}

/* a op b for values a, b (at least one complex). */
val cx_binop_vals(host *h, cx_op op, val a, val b, src_span at)
{
    cx_operand x, y;
    char err[TENSOR_ERR_LEN];
    if (!cx_operand_of(a, &x) || !cx_operand_of(b, &y))
        return val_missing();
    dtype t = cx_result_parts(&x, &y, err);
    if (t == DTYPE_INVALID)
        return torch_fail(h, at, err);
    bool cuda = (x.t && x.t->cuda) || (y.t && y.t->cuda);
    tensor *ca = cx_operand_tensor(&x, t, cuda, err);
    tensor *cb = ca ? cx_operand_tensor(&y, t, cuda, err) : NULL;
    tensor *r = cb ? cx_binary(op, ca, cb, err) : NULL;
    tensor_unref(ca);
    tensor_unref(cb);
    return torch_result(h, at, r, err);
}

/* Elementwise f over the parts of complex c, giving a complex (real_out
 * false) or real (true) tensor. */

tensor *cx_map(const tensor *c, bool real_out, cx_map_fn f32, cx_map_fn f64, char *err)
{
    tensor *k = cx_convert(c, c->type, err);
    if (!k)
        return NULL;
    int nd = cx_ndim(k);
    tensor *r = tensor_new(k->type, real_out ? nd : nd + 1, k->shape, k->cuda, err);
    if (r) {
        int64_t n = tensor_numel(k) / 2;
        const unsigned char *p = tensor_cdata(k);
        unsigned char *q = tensor_data(r);
        int sz = dtype_size(k->type), step = real_out ? 1 : 2;
        for (int64_t i = 0; i < n; i++) {
            double re = dtype_load(k->type, p + 2 * i * sz).f;
            double im = dtype_load(k->type, p + (2 * i + 1) * sz).f;
            double out[2];
            (k->type == DTYPE_FP32 ? f32 : f64)(re, im, out);
            for (int j = 0; j < step; j++)
                dtype_store(k->type, q + (step * i + j) * sz, (dtype_scalar){.f = out[j]});
        }
    }
    tensor_unref(k);
    return real_out ? r : cx_wrap(r);
}

void cx_map_abs32(double re, double im, double *o) { o[0] = hypotf((float)re, (float)im); }
void cx_map_abs64(double re, double im, double *o) { o[0] = hypot(re, im); }
void cx_map_angle32(double re, double im, double *o) { o[0] = atan2f((float)im, (float)re); }
void cx_map_angle64(double re, double im, double *o) { o[0] = atan2(im, re); }
void cx_map_neg(double re, double im, double *o) { o[0] = -re; o[1] = -im; }
void cx_map_conj(double re, double im, double *o) { o[0] = re; o[1] = -im; }

void cx_map_exp32(double re, double im, double *o)
{
    float e = expf((float)re);
    if (im == 0) {
        o[0] = e;
        o[1] = im;
        return;
    }
    o[0] = (float)(e * cosf((float)im));
    o[1] = (float)(e * sinf((float)im));
}

void cx_map_exp64(double re, double im, double *o)
{
    double e = exp(re);
    if (im == 0) {
        o[0] = e;
        o[1] = im;
        return;
    }
    o[0] = e * cos(im);
    o[1] = e * sin(im);
}

/* ---- dims ----------------------------------------------------------------------- */

/* Dim d of a complex tensor of nd dimensions, wrapped. */
bool cx_dim(host *h, int nd, val v, src_span at, const char *fname, int *out)
{
    int64_t d;
    char err[TENSOR_ERR_LEN];
    if (!torch_int_arg(h, v, at, fname, "dim", &d))
        return false;
    if (!tensor_wrap_dim(nd, d, out, err)) {
        torch_fail(h, at, err);
        return false;
    }
    return true;
}

/* A shape of the arguments (a tuple, or the ints themselves) with 2
 * appended. */
bool cx_shape_args(host *h, int argc, const val *argv, src_span at, const char *fname,
                          int *nd, int64_t *shape)
{
    if (!torch_shape_args(h, argc, argv, at, fname, nd, shape))
        return false;
    if (*nd >= TENSOR_MAX_DIMS) {
        host_error(h, at, "%s(): tritsim's complex tensors have at most %d dimensions", fname,
                   TENSOR_MAX_DIMS - 1);
        return false;
    }
    shape[(*nd)++] = 2;
    return true;
}

tensor *torch_complex_close(const tensor *a, const tensor *b, double rtol, double atol,
                            bool equal_nan, tensor **absd, tensor **abse, char *err)
{
    *absd = *abse = NULL;
    tensor *eq = cx_binary(CX_EQ, a, b, err);
    if (!eq)
        return NULL;
    int nd = eq->ndim;
    int64_t shape[TENSOR_MAX_DIMS + 1];
    memcpy(shape, eq->shape, sizeof eq->shape);
    shape[nd] = 2;
    tensor *rb = cx_real(b), *ra = cx_real(a);
    tensor *bb = tensor_broadcast_to(rb, nd + 1, shape, err);
    tensor *ba = bb ? tensor_broadcast_to(ra, nd + 1, shape, err) : NULL;
    tensor_unref(rb);
    tensor_unref(ra);
    tensor *cb = ba ? tensor_contiguous(bb, err) : NULL;
    tensor *ca = cb ? tensor_contiguous(ba, err) : NULL;
    tensor_unref(bb);
    tensor_unref(ba);
    int64_t n = tensor_numel(eq);
    /* |a - b| and |b| in the parts' dtype, as the mismatch message of
     * torch.testing computes them (the difference rounded to it first, as
     * a complex64 subtraction does); the test itself in double */
    bool f32 = a->type == DTYPE_FP32;
    tensor *dabs = ca ? tensor_new(a->type, 1, &n, false, err) : NULL;
    tensor *babs = dabs ? tensor_new(a->type, 1, &n, false, err) : NULL;
    if (babs) {
        unsigned char *q = tensor_data(eq);
        for (int64_t i = 0; i < n; i++) {
            double br = tensor_get_flat(cb, 2 * i).f, bi = tensor_get_flat(cb, 2 * i + 1).f;
            double ar = tensor_get_flat(ca, 2 * i).f, ai = tensor_get_flat(ca, 2 * i + 1).f;
            double dr = ar - br, di = ai - bi;
            double actual = hypot(dr, di), mag = hypot(br, bi);
            double allowed = atol + fabs(rtol) * mag;
            bool nan_a = isnan(ar) || isnan(ai), nan_b = isnan(br) || isnan(bi);
            if ((equal_nan && nan_a && nan_b) || (isfinite(actual) && actual <= allowed))
                q[i] = 1;
            if (f32)
                actual = (float)hypot((float)dr, (float)di);
            int64_t k = i;
            tensor_set(dabs, &k, dtype_cast((dtype_scalar){.f = actual}, DTYPE_FP64, a->type));
            tensor_set(babs, &k, dtype_cast((dtype_scalar){.f = mag}, DTYPE_FP64, a->type));
        }
    }
    tensor_unref(ca);
    tensor_unref(cb);
    if (!babs) {
        tensor_unref(dabs);
        tensor_unref(eq);
        return NULL;
    }
    /* filled flat, returned in the result's shape */
    *absd = tensor_reshape(dabs, nd, shape, NULL);
    *abse = tensor_reshape(babs, nd, shape, NULL);
    tensor_unref(dabs);
    tensor_unref(babs);
    return eq;
}

/* isclose of complex a and b as a bool tensor. */
/* ---- the value type ------------------------------------------------------------------ */

static val cx_getattr(host *h, val self, const char *name, src_span at)
{
    tensor *t = tensor_of(self);
    (void)at;
    if (!strcmp(name, "shape"))
        return torch_size_new(cx_ndim(t), t->shape);
    if (!strcmp(name, "dtype"))
        return cx_dtype_val(t->type);
    if (!strcmp(name, "device"))
        return torch_device_new(t->cuda, t->cuda ? 0 : -1);
    if (!strcmp(name, "is_cuda"))
        return val_bool(t->cuda);
    if (!strcmp(name, "ndim"))
        return val_int(cx_ndim(t));
    if (!strcmp(name, "real"))
        return tensor_val(cx_part(t, 0));
    if (!strcmp(name, "imag"))
        return tensor_val(cx_part(t, 1));
    if (!strcmp(name, "requires_grad") || !strcmp(name, "is_sparse") ||
        !strcmp(name, "is_quantized") || !strcmp(name, "is_meta"))
        return val_bool(false);
    if (!strcmp(name, "is_leaf"))
        return val_bool(true);
    if (!strcmp(name, "grad") || !strcmp(name, "grad_fn"))
        return val_none();
    if (!strcmp(name, "itemsize"))
        return val_int(2 * tensor_elsize(t));
    if (!strcmp(name, "nbytes"))
        return val_int(tensor_numel(t) * tensor_elsize(t));
    if (!strcmp(name, "data"))
        return tensor_val(cx_wrap(cx_real(t)));
    if (!strcmp(name, "T") || !strcmp(name, "mT")) {
        int nd = cx_ndim(t);
        int64_t dims[TENSOR_MAX_DIMS];
        char err[TENSOR_ERR_LEN];
        for (int i = 0; i < nd; i++)
            dims[i] = nd - 1 - i;
        if (name[0] == 'm') {
            for (int i = 0; i < nd; i++)
                dims[i] = i;
            if (nd >= 2) {
                dims[nd - 2] = nd - 1;
                dims[nd - 1] = nd - 2;
            }
        }
        dims[nd] = nd;
        tensor *r = cx_real(t);
        tensor *v = tensor_permute(r, nd + 1, dims, err);
        tensor_unref(r);
        return torch_result(h, at, cx_wrap(v), err);
    }
    /* methods: the torch functions, dispatched here again when called */
    const torch_fn *m = torch_find_method(name);
    if (m)
        return torch_fn_value(m->qual_method, m, val_ref(self));
    return val_missing();
}

static bool cx_setattr(host *h, val self, const char *name, val value, src_span at)
{
    tensor *t = tensor_of(self);
    if (!strcmp(name, "real") || !strcmp(name, "imag")) {
        tensor *p = cx_part(t, name[0] == 'i');
        char err[TENSOR_ERR_LEN];
        tensor_operand o;
        bool ok;
        if (value.kind == VAL_TENSOR && !tensor_is_complex(tensor_of(value))) {
            ok = tensor_copy_into(p, tensor_of(value), err);
        } else if (torch_operand(value, &o) && !o.t) {
            tensor *s = tensor_scalar(o.type, o.value, false);
            ok = tensor_copy_into(p, s, err);
            tensor_unref(s);
        } else {
            tensor_unref(p);
            host_error(h, at, "%s must be set to a real tensor or number", name);
            return false;
        }
        tensor_unref(p);
        if (!ok)
            torch_fail(h, at, err);
        return ok;
    }
    if (!strcmp(name, "requires_grad")) {
        host_error(h, at, "tritsim has no autograd for complex tensors");
        return false;
    }
    host_error(h, at, "'Tensor' object attribute '%s' cannot be set", name);
    return false;
}

static bool cx_op_of(ast_op op, cx_op *out)
{
    switch (op) {
    case AST_OP_ADD: *out = CX_ADD; return true;
    case AST_OP_SUB: *out = CX_SUB; return true;
    case AST_OP_MUL: *out = CX_MUL; return true;
    case AST_OP_DIV: *out = CX_DIV; return true;
    case AST_OP_EQ: *out = CX_EQ; return true;
    case AST_OP_NE: *out = CX_NE; return true;
    default: return false;
    }
}

val torch_complex_binop(host *h, ast_op op, bool inplace, val a, val b, src_span at)
{
    cx_op cop;
    if (!cx_op_of(op, &cop)) {
        if (op == AST_OP_IN || op == AST_OP_NOTIN)
            return val_missing();
        return host_error(h, at, "the operator %s is not supported for complex tensors in "
                          "tritsim", ast_op_name(op));
    }
    val r = cx_binop_vals(h, cop, a, b, at);
    if (!inplace || r.kind != VAL_TENSOR || a.kind != VAL_TENSOR)
        return r;
    /* a op= b: the result written into a */
    tensor *dst = tensor_of(a), *src = tensor_of(r);
    char err[TENSOR_ERR_LEN];
    if (!tensor_is_complex(dst) || dst->type != src->type) {
        val_unref(r);
        return host_error(h, at, "result type %s can't be cast to the desired output type %s",
                          src->type == DTYPE_FP64 ? "ComplexDouble" : "ComplexFloat",
                          tensor_is_complex(dst) ? "ComplexFloat" : tensor_type_name(dst->type));
    }
    tensor *rd = cx_real(dst), *rs = cx_real(src);
    bool ok = tensor_copy_into(rd, rs, err);
    tensor_unref(rd);
    tensor_unref(rs);
    val_unref(r);
    return ok ? val_ref(a) : torch_fail(h, at, err);
}

static val cx_unop(host *h, ast_op op, val self, src_span at)
{
    char err[TENSOR_ERR_LEN];
    tensor *t = tensor_of(self);
    if (op == AST_OP_USUB)
        return torch_result(h, at, cx_map(t, false, cx_map_neg, cx_map_neg, err), err);
    if (op == AST_OP_UADD)
        return val_ref(self);
    return val_missing();
}

static int cx_truth(host *h, val self, src_span at)
{
    tensor *t = tensor_of(self);
    int64_t n = tensor_numel(t) / 2;
    if (n != 1) {
        host_error(h, at, "Boolean value of Tensor with %s is ambiguous",
                   n ? "more than one value" : "no values");
        return -1;
    }
    return tensor_get_flat(t, 0).f != 0 || tensor_get_flat(t, 1).f != 0;
}

static int64_t cx_len(host *h, val self, src_span at)
{
    tensor *t = tensor_of(self);
    if (cx_ndim(t) == 0) {
        host_error(h, at, "len() of a 0-d tensor");
        return -1;
    }
    return t->shape[0];
}

static val cx_iter(host *h, val self, src_span at)
{
    tensor *t = tensor_of(self);
    if (cx_ndim(t) == 0)
        return host_error(h, at, "iteration over a 0-d tensor");
    val l = val_list_new((size_t)t->shape[0]);
    tensor *r = cx_real(t);
    for (int64_t i = 0; i < t->shape[0]; i++)
        val_list_push(l, tensor_val(cx_wrap(tensor_select(r, 0, i, NULL))));
    tensor_unref(r);
    return l;
}

static void cx_repr(host *h, val self, strbuf *out)
{
    (void)h;
    tensor *t = tensor_of(self);
    format_array a = {.data = tensor_cdata(t), .type = t->type, .ndim = t->ndim,
                      .shape = t->shape, .strides = t->strides};
    format_torch_opts o = {.device = t->cuda ? "cuda:0" : NULL, .complex = true};
    if (!format_torch(out, &a, &o))
        strbuf_puts(out, "tensor(<complex values>)");
}

/* A key of the complex tensor as a key of its real view: the parts'
 * dimension is left whole (an Ellipsis first when the key has none). */
static val cx_key(val key)
{
    bool has_ellipsis = key.kind == VAL_ELLIPSIS;
    if (key.kind == VAL_TUPLE) {
        const val_seq *s = val_as_seq(key);
        for (size_t i = 0; i < s->len; i++)
            has_ellipsis |= s->items[i].kind == VAL_ELLIPSIS;
    }
    val whole = val_slice_new(val_none(), val_none(), val_none());
    val items[TENSOR_MAX_DIMS * 2 + 4];
    size_t n = 0;
    if (key.kind == VAL_TUPLE) {
        const val_seq *s = val_as_seq(key);
        for (size_t i = 0; i < s->len && n < TENSOR_MAX_DIMS * 2; i++)
            items[n++] = val_ref(s->items[i]);
    } else {
        items[n++] = val_ref(key);
    }
    if (!has_ellipsis)
        items[n++] = val_ellipsis();
    items[n++] = whole;
    val t = val_tuple_new(n);
    for (size_t i = 0; i < n; i++)
        val_seq_set(t, i, items[i]);
    return t;
}

static val cx_getitem(host *h, val self, val key, src_span at)
{
    tensor *t = tensor_of(self);
    if (key.kind == VAL_TENSOR && tensor_is_complex(tensor_of(key)))
        return host_error(h, at, "complex tensors cannot be used as indices");
    tensor *r = cx_real(t);
    val k = cx_key(key);
    val v = torch_getitem(h, tensor_val(r), k, at);
    val_unref(k);
    tensor_unref(r);
    tensor *vt = tensor_of(v);
    if (!vt)
        return v;
    /* a copy (advanced indexing) may have lost the parts' stride 1 */
    if (vt->strides[vt->ndim - 1] != 1) {
        char err[TENSOR_ERR_LEN];
        tensor *c = tensor_contiguous(vt, err);
        val_unref(v);
        return torch_result(h, at, cx_wrap(c), err);
    }
    tensor *c = cx_wrap(tensor_ref(vt));
    val_unref(v);
    return tensor_val(c);
}

static bool cx_setitem(host *h, val self, val key, val value, src_span at)
{
    tensor *t = tensor_of(self);
    tensor *vc = cx_val_tensor(h, value, t->type, at, "__setitem__");
    if (!vc)
        return false;
    tensor *r = cx_real(t), *vr = cx_real(vc);
    val k = cx_key(key);
    bool ok = torch_setitem(h, tensor_val(r), k, tensor_val(vr), at);
    val_unref(k);
    tensor_unref(r);
    tensor_unref(vr);
    tensor_unref(vc);
    return ok;
}

static val cx_format(host *h, val self, const char *spec, size_t len, src_span at)
{
    (void)spec;
    if (len)
        return host_error(h, at, "format specs of complex tensors are not supported by "
                          "tritsim");
    strbuf s = {0};
    cx_repr(h, self, &s);
    val r = val_str_new(s.data ? s.data : "", s.len);
    strbuf_free(&s);
    return r;
}

static const char *const cx_attrs[] = {
    "shape", "dtype", "device", "is_cuda", "ndim", "real", "imag", "T", "mT", "data",
    "requires_grad", "is_leaf", "grad", "grad_fn", "itemsize", "nbytes", NULL,
};

const val_type torch_complex_hooks = {
    .name = "Tensor",
    .getattr = cx_getattr,
    .setattr = cx_setattr,
    .binop = torch_complex_binop,
    .unop = cx_unop,
    .truth = cx_truth,
    .len = cx_len,
    .iter = cx_iter,
    .repr = cx_repr,
    .getitem = cx_getitem,
    .setitem = cx_setitem,
    .format = cx_format,
    .attr_names = cx_attrs,
};

/* ---- torch.complex64 and its kin --------------------------------------------------- */

void torch_complex_add(val torch)
{
    static const struct { const char *name; dtype parts; } names[] = {
        {"complex64", DTYPE_FP32}, {"cfloat", DTYPE_FP32}, {"complex128", DTYPE_FP64},
        {"cdouble", DTYPE_FP64}, {"complex32", DTYPE_FP16}, {"chalf", DTYPE_FP16},
    };
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        val_object_set(torch, names[i].name, cx_dtype_val(names[i].parts));
}
