/* torch_create.c - the functions that make tensors: torch.tensor,
 * as_tensor, zeros, ones, empty, empty_strided, full, arange, linspace,
 * eye, rand, randn, randint, randperm, the *_like and Tensor.new_* forms, torch.Tensor(...),
 * and the generator's manual_seed / initial_seed.
 *
 * Every creation function takes dtype= and device=; device='cuda' only
 * labels the tensor (tensor.h).  torch.empty returns zeros: its contents
 * are unspecified in torch, and zeros make programs that read them by
 * mistake behave the same on every run. */
#include "torch_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The keyword arguments every creation function accepts. */
#define CREATE_KW "dtype=, device=, requires_grad=, layout=, pin_memory=, memory_format="

/* dtype=, device=, requires_grad= at k[0..2]. */
static bool create_kw(host *h, const val *k, src_span at, const char *fname, dtype *dt,
                      bool *cuda)
{
    return torch_dtype_arg(h, k[0], at, fname, dt) && torch_device_arg(h, k[1], at, fname, cuda) &&
           torch_requires_grad_arg(h, k[2], at, fname);
}

static dtype_scalar one_of(dtype t)
{
    return tensor_convert((dtype_scalar){.i = 1}, DTYPE_INT64, t);
}

/* The functions that compute their values (arange, linspace, eye, the
 * random ones) make no fp8 tensors, as the tensor operations guarded by
 * tensor_no_fp8 compute none: false with a message. */
static bool computed_dtype_ok(host *h, dtype t, src_span at)
{
    if (!dtype_is_fp8(t))
        return true;
    host_error(h, at, "tritsim computes no %s values here (PyTorch has almost no fp8 "
               "kernels): make a float32 tensor and convert it with .to(%s)",
               dtype_torch_name(t), dtype_torch_name(t));
    return false;
}

/* ---- zeros, ones, empty, rand, randn ------------------------------------------ */

typedef enum fill_kind { FILL_ZEROS, FILL_ONES, FILL_RAND, FILL_RANDN, FILL_EMPTY } fill_kind;

/* ---- --initcheck: torch.empty and its kin give memory never written ------ */

static host *initcheck_host;     /* the run's host, for the report */

/* A fresh tensor t from fname (torch.empty, ...) at `at`: unwritten under
 * --initcheck (tensor.h). */
static void empty_made(host *h, tensor *t, const char *fname, src_span at)
{
    if (!h->initcheck || !t)
        return;
    char from[512];
    snprintf(from, sizeof from, "%s at %s:%d:%d", fname, h->file ? h->file->name : "?",
             at.line, at.col);
    tensor_init_unwritten(t, from);
}

/* Host code is about to read element flat (row-major) of view t, which
 * nothing has written: report it at the running statement, with the
 * chain of calls, and end the run as a kernel's error does (nothing
 * catches it). */
static void initcheck_fail(const tensor *t, int64_t flat)
{
    host *h = initcheck_host;
    char idx[256] = "";
    size_t n = 0;
    int64_t rest = flat, co[TENSOR_MAX_DIMS];
    for (int d = t->ndim - 1; d >= 0; d--) {
        co[d] = t->shape[d] ? rest % t->shape[d] : 0;
        rest = t->shape[d] ? rest / t->shape[d] : 0;
    }
    for (int d = 0; d < t->ndim && n < sizeof idx - 32; d++)
        n += (size_t)snprintf(idx + n, sizeof idx - n, "%s%lld", d ? ", " : "",
                              (long long)co[d]);
    const char *from = t->storage->dev.init_from;
    fflush(stdout);
    diag_report(h->diag, DIAG_ERROR, h->file, h->stmt_at, "read of uninitialised memory: "
                "element [%s] of the tensor%s%s has never been written", idx,
                from ? " made by " : "", from ? from : "");
    diag_report(h->diag, DIAG_NOTE, h->file, h->stmt_at, "torch.empty and its kin "
                "(empty_like, new_empty, empty_strided) give memory with no values: write "
                "every element before reading it (fill_, copy_, an assignment, a kernel's "
                "store), or make the tensor with torch.zeros");
    host_traceback(h);
    fflush(h->diag->out);
    exit(1);
}

void torch_initcheck_init(host *h)
{
    initcheck_host = h;
    tensor_init_fail = h->initcheck ? initcheck_fail : NULL;
}

/* A float dtype for rand/randn, or false with torch's message. */
static bool random_float_type(host *h, fill_kind k, dtype t, src_span at)
{
    if ((k == FILL_RAND || k == FILL_RANDN) && !computed_dtype_ok(h, t, at))
        return false;
    if ((k == FILL_RAND || k == FILL_RANDN) && !dtype_is_float(t)) {
        host_error(h, at, "\"%s\" not implemented for '%s'",
                   k == FILL_RAND ? "check_uniform_bounds" : "normal_kernel_cpu",
                   tensor_type_name(t));
        return false;
    }
    return true;
}

static void fill(tensor *t, fill_kind k)
{
    switch (k) {
    case FILL_ONES: tensor_fill(t, one_of(t->type)); break;
    case FILL_RAND: tensor_fill_uniform(t, 0.0, 1.0); break;
    case FILL_RANDN: tensor_fill_normal(t, 0.0, 1.0); break;
    default: break;    /* tensor_new gives zeros */
    }
}

static val make(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                src_span at, const char *fname, fill_kind k)
{
    (void)self;
    val kv[9];
    if (!host_args(h, at, fname, "*, " CREATE_KW ", size=, generator=, out=", 0, NULL, kw, kv))
        return val_err();
    dtype dt = DTYPE_FP32;
    bool cuda = false;
    if (!create_kw(h, kv, at, fname, &dt, &cuda) || !random_float_type(h, k, dt, at))
        return val_err();
    if (kv[8].kind != VAL_MISSING && kv[8].kind != VAL_NONE)
        return host_error(h, at, "%s(): out= is not supported in tritsim", fname);
    int nd;
    int64_t shape[TENSOR_MAX_DIMS];
    if (kv[6].kind != VAL_MISSING) {
        if (argc)
            return host_raise(h, HOST_EXC_TYPE, at,
                              "%s() got multiple values for argument 'size'", fname);
        if (!torch_shape_args(h, 1, &kv[6], at, fname, &nd, shape))
            return val_err();
    } else if (argc == 0) {
        return host_raise(h, HOST_EXC_TYPE, at, "%s() missing required argument 'size'", fname);
    } else if (!torch_shape_args(h, argc, argv, at, fname, &nd, shape)) {
        return val_err();
    }
    char err[TENSOR_ERR_LEN];
    tensor *t = tensor_new(dt, nd, shape, cuda, err);
    if (t)
        fill(t, k);
    if (k == FILL_EMPTY)
        empty_made(h, t, "torch.empty", at);
    return torch_result(h, at, t, err);
}

TORCH_NAMED(zeros, make, FILL_ZEROS)
TORCH_NAMED(ones, make, FILL_ONES)
TORCH_NAMED(empty, make, FILL_EMPTY)
TORCH_NAMED(rand, make, FILL_RAND)
TORCH_NAMED(randn, make, FILL_RANDN)

/* full(size, fill_value): the dtype follows fill_value (bool, int64,
 * float32) unless given. */
static dtype number_dtype(val v)
{
    tensor *t = tensor_of(v);
    return v.kind == VAL_BOOL ? DTYPE_INT1 : v.kind == VAL_INT ? DTYPE_INT64
         : t ? t->type : DTYPE_FP32;
}

static val fn_full(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                   src_span at)
{
    (void)self;
    val a[8];
    if (!host_args(h, at, "full", "size, fill_value, *, " CREATE_KW, argc, argv, kw, a))
        return val_err();
    dtype dt = number_dtype(a[1]);
    bool cuda = false;
    int nd;
    int64_t shape[TENSOR_MAX_DIMS];
    dtype_scalar v;
    if (!create_kw(h, a + 2, at, "full", &dt, &cuda) ||
        !torch_shape_args(h, 1, &a[0], at, "full", &nd, shape) ||
        !torch_number_to(h, a[1], dt, at, "full", &v))
        return val_err();
    char err[TENSOR_ERR_LEN];
    return torch_result(h, at, tensor_full(dt, nd, shape, v, cuda, err), err);
}

/* ---- the *_like functions ----------------------------------------------------- */

typedef enum like_kind { LIKE_ZEROS, LIKE_ONES, LIKE_RAND, LIKE_RANDN, LIKE_FULL,
                         LIKE_RANDINT, LIKE_EMPTY } like_kind;

static val like(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                src_span at, const char *fname, like_kind k)
{
    val a[9];
    const char *params = k == LIKE_FULL ? "input, fill_value, *, " CREATE_KW
                       : k == LIKE_RANDINT ? "input, low=, high=, *, " CREATE_KW
                                           : "input, *, " CREATE_KW;
    TORCH_READ_ARGS(fname, params, a);
    int extra = k == LIKE_FULL ? 1 : k == LIKE_RANDINT ? 2 : 0;
    dtype dt = t->type;
    bool cuda = t->cuda;
    if (!create_kw(h, a + 1 + extra, at, fname, &dt, &cuda))
        return val_err();
    fill_kind fk = k == LIKE_RAND ? FILL_RAND : k == LIKE_RANDN ? FILL_RANDN : FILL_ZEROS;
    if (!random_float_type(h, fk, dt, at) ||
        (k == LIKE_RANDINT && !computed_dtype_ok(h, dt, at)))
        return val_err();
    char err[TENSOR_ERR_LEN];
    /* torch.preserve_format: a dense input (contiguous, transposed,
     * permuted) gives its strides to the result, whose storage is then
     * filled in memory order, as PyTorch's kernels fill it; any other
     * input gives a contiguous result */
    bool keep = tensor_is_dense(t);
    int64_t n = tensor_numel(t);
    tensor *r = keep ? tensor_new(dt, 1, &n, cuda, err) : tensor_new(dt, t->ndim, t->shape, cuda, err);
    if (!r)
        return torch_fail(h, at, err);
    if (k == LIKE_FULL) {
        dtype_scalar v;
        if (!torch_number_to(h, a[1], dt, at, fname, &v)) {
            tensor_unref(r);
            return val_err();
        }
        tensor_fill(r, v);
    } else if (k == LIKE_RANDINT) {
        /* randint_like(input, high) or (input, low, high) */
        int64_t lo = 0, hi;
        val vh = a[2].kind != VAL_MISSING ? a[2] : a[1];
        if ((a[2].kind != VAL_MISSING && !torch_int_arg(h, a[1], at, fname, "low", &lo)) ||
            !torch_int_arg(h, vh, at, fname, "high", &hi)) {
            tensor_unref(r);
            return val_err();
        }
        tensor_fill_randint(r, lo, hi);
    } else if (k == LIKE_ONES) {
        tensor_fill(r, one_of(dt));
    } else if (k == LIKE_EMPTY) {
        empty_made(h, r, "torch.empty_like", at);
    } else {
        fill(r, fk);
    }
    if (keep) {
        tensor *v = tensor_view_of(r, t->ndim, t->shape, t->strides, 0);
        tensor_unref(r);
        r = v;
    }
    return tensor_val(r);
}

TORCH_NAMED(zeros_like, like, LIKE_ZEROS)
TORCH_NAMED(ones_like, like, LIKE_ONES)
TORCH_NAMED(empty_like, like, LIKE_EMPTY)
TORCH_NAMED(rand_like, like, LIKE_RAND)
TORCH_NAMED(randn_like, like, LIKE_RANDN)
TORCH_NAMED(full_like, like, LIKE_FULL)
TORCH_NAMED(randint_like, like, LIKE_RANDINT)

/* x.new_zeros(size), x.new_ones(size), x.new_empty(size), x.new_full(size,
 * v), x.new_tensor(data): x's dtype and device unless given. */
static val new_like(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                    src_span at, const char *fname, int what)
{
    tensor *t = tensor_of(self);
    val kv[6];
    if (!host_args(h, at, fname, "*, " CREATE_KW, 0, NULL, kw, kv))
        return val_err();
    dtype dt = t->type;
    bool cuda = t->cuda;
    if (!create_kw(h, kv, at, fname, &dt, &cuda))
        return val_err();
    char err[TENSOR_ERR_LEN];
    if (what == 4) {    /* new_tensor(data) */
        if (argc != 1)
            return host_error(h, at, "new_tensor() takes one argument (the data)");
        tensor *r = torch_from_data(h, argv[0], dt, cuda, at);
        return r ? tensor_val(r) : val_err();
    }
    int nshape = what == 3 ? argc - 1 : argc;
    if (what == 3 && argc < 2)
        return host_error(h, at, "new_full() takes a size and a fill_value");
    int nd;
    int64_t shape[TENSOR_MAX_DIMS];
    if (!torch_shape_args(h, nshape, argv, at, fname, &nd, shape))
        return val_err();
    tensor *r = tensor_new(dt, nd, shape, cuda, err);
    if (!r)
        return torch_fail(h, at, err);
    if (what == 1)
        tensor_fill(r, one_of(dt));
    if (what == 2)
        empty_made(h, r, "Tensor.new_empty", at);
    if (what == 3) {
        dtype_scalar v;
        if (!torch_number_to(h, argv[argc - 1], dt, at, fname, &v)) {
            tensor_unref(r);
            return val_err();
        }
        tensor_fill(r, v);
    }
    return tensor_val(r);
}

TORCH_NAMED(new_zeros, new_like, 0)
TORCH_NAMED(new_ones, new_like, 1)
TORCH_NAMED(new_empty, new_like, 2)
TORCH_NAMED(new_full, new_like, 3)
TORCH_NAMED(new_tensor, new_like, 4)

/* torch.empty_strided(size, stride) and x.new_empty_strided(size, stride)
 * (x's dtype and device unless given): a view with those strides of a
 * storage that holds just the elements it reaches, zeros (or unwritten
 * under --initcheck, as torch.empty). */
static val empty_strided(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                         src_span at, const char *fname, bool method)
{
    val a[8];
    if (!host_args(h, at, fname, "size, stride, *, " CREATE_KW, argc, argv, kw, a))
        return val_err();
    const tensor *like = method ? tensor_of(self) : NULL;
    dtype dt = like ? like->type : DTYPE_FP32;
    bool cuda = like ? like->cuda : false;
    int nd, ns;
    int64_t shape[TENSOR_MAX_DIMS], strides[TENSOR_MAX_DIMS];
    if (!create_kw(h, a + 2, at, fname, &dt, &cuda) ||
        !torch_shape_args(h, 1, &a[0], at, fname, &nd, shape) ||
        !torch_int_list(h, a[1], at, fname, "stride", &ns, strides, TENSOR_MAX_DIMS))
        return val_err();
    if (ns != nd)
        return host_error(h, at, "mismatch in length of strides and shape");
    int64_t extent = 1;
    for (int d = 0; d < nd; d++) {
        if (strides[d] < 0)
            return host_error(h, at, "%s: negative strides are not supported", fname);
        if (shape[d] == 0)
            extent = 0;
    }
    for (int d = 0; d < nd && extent; d++)
        extent += (shape[d] - 1) * strides[d];
    char err[TENSOR_ERR_LEN];
    tensor *base = tensor_new(dt, 1, &extent, cuda, err);
    if (!base)
        return torch_fail(h, at, err);
    tensor *r = tensor_view_of(base, nd, shape, strides, 0);
    tensor_unref(base);
    empty_made(h, r, method ? "Tensor.new_empty_strided" : "torch.empty_strided", at);
    return tensor_val(r);
}

TORCH_NAMED(empty_strided, empty_strided, false)
TORCH_NAMED(new_empty_strided, empty_strided, true)

/* ---- torch.tensor and friends ----------------------------------------------------- */

static val fn_tensor(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                     src_span at)
{
    (void)self;
    val a[7];
    if (!host_args(h, at, "tensor", "data, *, " CREATE_KW, argc, argv, kw, a))
        return val_err();
    dtype dt = DTYPE_INVALID;
    bool cuda = a[0].kind == VAL_TENSOR && tensor_of(a[0])->cuda;    /* data's device */
    if (!create_kw(h, a + 1, at, "tensor", &dt, &cuda))
        return val_err();
    tensor *t = torch_from_data(h, a[0], dt, cuda, at);
    return t ? tensor_val(t) : val_err();
}

/* as_tensor(data): a tensor already of that dtype and device is returned
 * as it is. */
static val fn_as_tensor(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                        src_span at)
{
    (void)self;
    val a[3];
    if (!host_args(h, at, "as_tensor", "data, dtype=, device=", argc, argv, kw, a))
        return val_err();
    tensor *src = tensor_of(a[0]);
    dtype dt = src ? src->type : DTYPE_INVALID;
    bool cuda = src ? src->cuda : false;
    if (!torch_dtype_arg(h, a[1], at, "as_tensor", &dt) ||
        !torch_device_arg(h, a[2], at, "as_tensor", &cuda))
        return val_err();
    if (src && src->type == dt && src->cuda == cuda)
        return val_ref(a[0]);
    tensor *t = torch_from_data(h, a[0], dt, cuda, at);
    return t ? tensor_val(t) : val_err();
}

/* torch.Tensor(data) / torch.Tensor(*size): float32, as the legacy
 * constructor. */
static val tensor_type_call(host *h, val self, int argc, const val *argv,
                            const val_kwargs *kw, src_span at)
{
    (void)self;
    val kv[1];
    if (!host_args(h, at, "Tensor", "*, device=", 0, NULL, kw, kv))
        return val_err();
    if (argc == 1 && (argv[0].kind == VAL_LIST || argv[0].kind == VAL_TUPLE ||
                      argv[0].kind == VAL_TENSOR)) {
        tensor *t = torch_from_data(h, argv[0], DTYPE_FP32, false, at);
        return t ? tensor_val(t) : val_err();
    }
    int nd;
    int64_t shape[TENSOR_MAX_DIMS];
    if (!torch_shape_args(h, argc, argv, at, "Tensor", &nd, shape))
        return val_err();
    char err[TENSOR_ERR_LEN];
    return torch_result(h, at, tensor_new(DTYPE_FP32, nd, shape, false, err), err);
}

val torch_tensor_type_val(void)
{
    val b = val_builtin_new("torch.Tensor", tensor_type_call, val_none());
    ((val_builtin *)b.u.o)->inst_kind = VAL_TENSOR;
    ((val_builtin *)b.u.o)->inst_type = &tensor_type;
    return b;
}

/* ---- ranges ---------------------------------------------------------------- */

/* A number argument of arange/linspace: int or float. */
static bool range_number(host *h, val v, src_span at, const char *fname, const char *arg,
                         double *f, int64_t *i, bool *is_float)
{
    if (v.kind == VAL_INT || v.kind == VAL_BOOL) {
        *i = v.kind == VAL_INT ? v.u.i : v.u.b;
        *f = (double)*i;
        return true;
    }
    if (v.kind == VAL_FLOAT) {
        *f = v.u.f;
        *is_float = true;
        return true;
    }
    tensor *t = tensor_of(v);
    dtype_scalar x;
    if (t && tensor_numel(t) == 1 && tensor_item(t, &x, NULL)) {
        if (dtype_is_float(t->type)) {
            *f = x.f;
            *is_float = true;
        } else {
            *i = dtype_cast(x, t->type, DTYPE_INT64).i;
            *f = (double)*i;
        }
        return true;
    }
    host_error(h, at, "%s(): argument '%s' must be Number, not %s", fname, arg, val_type_name(v));
    return false;
}

/* arange(end), arange(start, end), arange(start, end, step) */
static val fn_arange(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                     src_span at)
{
    (void)self;
    val a[9];
    if (!host_args(h, at, "arange", "start, end=, step=, *, " CREATE_KW, argc, argv, kw, a))
        return val_err();
    if (a[1].kind == VAL_MISSING) {    /* arange(end) */
        a[1] = a[0];
        a[0] = val_int(0);
    }
    if (a[2].kind == VAL_MISSING)
        a[2] = val_int(1);
    double f[3];
    int64_t i[3] = {0, 0, 0};
    bool is_float = false;
    static const char *const names[] = {"start", "end", "step"};
    for (int k = 0; k < 3; k++)
        if (!range_number(h, a[k], at, "arange", names[k], &f[k], &i[k], &is_float))
            return val_err();
    dtype dt = is_float ? DTYPE_FP32 : DTYPE_INT64;
    bool cuda = false;
    if (!create_kw(h, a + 3, at, "arange", &dt, &cuda) || !computed_dtype_ok(h, dt, at))
        return val_err();
    if (!isfinite(f[0]) || !isfinite(f[1]) || !isfinite(f[2]))
        return host_error(h, at, "unsupported range: %g -> %g", f[0], f[1]);
    if (f[2] == 0)
        return host_error(h, at, "step must be nonzero");
    if (fabs((f[1] - f[0]) / f[2]) > 1e15)
        return host_error(h, at, "arange(): %g elements are too many", (f[1] - f[0]) / f[2]);
    if ((f[2] > 0 && f[1] < f[0]) || (f[2] < 0 && f[1] > f[0]))
        return host_error(h, at, "upper bound and larger bound inconsistent with step sign");
    int64_t n;
    if (is_float)
        n = (int64_t)ceil((f[1] - f[0]) / f[2]);
    else
        n = (i[1] - i[0] + i[2] + (i[2] > 0 ? -1 : 1)) / i[2];
    char err[TENSOR_ERR_LEN];
    tensor *t = tensor_new(dt, 1, &n, cuda, err);
    if (!t)
        return torch_fail(h, at, err);
    for (int64_t k = 0; k < n; k++) {
        dtype_scalar v;
        if (is_float || dtype_is_float(dt))
            v = dtype_cast((dtype_scalar){.f = f[0] + (double)k * f[2]}, DTYPE_FP64, dt);
        else
            v = dtype_cast((dtype_scalar){.i = i[0] + k * i[2]}, DTYPE_INT64, dt);
        tensor_set(t, &k, v);
    }
    return tensor_val(t);
}

/* linspace(start, end, steps), computed as torch's CPU kernel does: the
 * first half counts up from start, the second half down from end. */
static val fn_linspace(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                       src_span at)
{
    (void)self;
    val a[9];
    if (!host_args(h, at, "linspace", "start, end, steps, *, " CREATE_KW, argc, argv, kw, a))
        return val_err();
    double f[2];
    int64_t i[2], steps;
    bool is_float = false;
    dtype dt = DTYPE_FP32;
    bool cuda = false;
    if (!range_number(h, a[0], at, "linspace", "start", &f[0], &i[0], &is_float) ||
        !range_number(h, a[1], at, "linspace", "end", &f[1], &i[1], &is_float) ||
        !torch_int_arg(h, a[2], at, "linspace", "steps", &steps) ||
        !create_kw(h, a + 3, at, "linspace", &dt, &cuda) || !computed_dtype_ok(h, dt, at))
        return val_err();
    if (steps < 0)
        return host_error(h, at, "linspace(): number of steps must be non-negative");
    char err[TENSOR_ERR_LEN];
    tensor *t = tensor_new(dt, 1, &steps, cuda, err);
    if (!t)
        return torch_fail(h, at, err);
    /* float types below float64 compute in float, as torch's scalar_t */
    bool single = dtype_is_float(dt) && dt != DTYPE_FP64;
    int64_t half = steps / 2;
    double dstep = steps > 1 ? (f[1] - f[0]) / (double)(steps - 1) : 0;
    float fstep = steps > 1 ? ((float)f[1] - (float)f[0]) / (float)(steps - 1) : 0;
    for (int64_t k = 0; k < steps; k++) {
        double x;
        if (single)
            x = k < half ? (float)f[0] + fstep * (float)k
                         : (float)f[1] - fstep * (float)(steps - k - 1);
        else
            x = k < half ? f[0] + dstep * (double)k : f[1] - dstep * (double)(steps - k - 1);
        tensor_set(t, &k, dtype_cast((dtype_scalar){.f = x}, DTYPE_FP64, dt));
    }
    return tensor_val(t);
}

static val fn_eye(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                  src_span at)
{
    (void)self;
    val a[8];
    if (!host_args(h, at, "eye", "n, m=, *, " CREATE_KW, argc, argv, kw, a))
        return val_err();
    int64_t n, m;
    dtype dt = DTYPE_FP32;
    bool cuda = false;
    if (!torch_int_arg(h, a[0], at, "eye", "n", &n) ||
        (a[1].kind != VAL_MISSING && a[1].kind != VAL_NONE &&
         !torch_int_arg(h, a[1], at, "eye", "m", &m)) ||
        !create_kw(h, a + 2, at, "eye", &dt, &cuda) || !computed_dtype_ok(h, dt, at))
        return val_err();
    if (a[1].kind == VAL_MISSING || a[1].kind == VAL_NONE)
        m = n;
    if (n < 0 || m < 0)
        return host_error(h, at, "%s must be greater or equal to 0, got %lld", n < 0 ? "n" : "m",
                          (long long)(n < 0 ? n : m));
    char err[TENSOR_ERR_LEN];
    tensor *t = tensor_new(dt, 2, (int64_t[]){n, m}, cuda, err);
    if (!t)
        return torch_fail(h, at, err);
    for (int64_t k = 0; k < n && k < m; k++)
        tensor_set(t, (int64_t[]){k, k}, one_of(dt));
    return tensor_val(t);
}

/* ---- random integers and the generator ------------------------------------- */

/* randint(high, size) or randint(low, high, size) */
static val fn_randint(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                      src_span at)
{
    (void)self;
    val a[10];
    if (!host_args(h, at, "randint", "low, high=, size=, *, generator=, " CREATE_KW, argc, argv,
                   kw, a))
        return val_err();
    val vlow = a[0], vhigh = a[1], vsize = a[2];
    if (a[2].kind == VAL_MISSING) {            /* randint(high, size) */
        vlow = val_int(0);
        vhigh = a[0];
        vsize = a[1];
    } else if (a[1].kind == VAL_MISSING) {     /* randint(high, size=...) */
        vlow = val_int(0);
        vhigh = a[0];
    }
    int nd_check;
    int64_t shape_check[TENSOR_MAX_DIMS];
    if (vsize.kind == VAL_MISSING || vhigh.kind == VAL_MISSING ||
        (vsize.kind != VAL_TUPLE && vsize.kind != VAL_LIST &&
         !torch_size_get(vsize, &nd_check, shape_check)))
        return host_error(h, at, "randint() needs high and a size tuple: randint(high, size) or "
                          "randint(low, high, size)");
    int64_t lo, hi;
    int nd;
    int64_t shape[TENSOR_MAX_DIMS];
    dtype dt = DTYPE_INT64;
    bool cuda = false;
    if (!torch_int_arg(h, vlow, at, "randint", "low", &lo) ||
        !torch_int_arg(h, vhigh, at, "randint", "high", &hi) ||
        !torch_shape_args(h, 1, &vsize, at, "randint", &nd, shape) ||
        !create_kw(h, a + 4, at, "randint", &dt, &cuda) || !computed_dtype_ok(h, dt, at))
        return val_err();
    if (lo >= hi)
        return host_error(h, at, "random_ expects 'from' to be less than 'to', but got "
                          "from=%lld >= to=%lld", (long long)lo, (long long)hi);
    char err[TENSOR_ERR_LEN];
    tensor *t = tensor_new(dt, nd, shape, cuda, err);
    if (t)
        tensor_fill_randint(t, lo, hi);
    return torch_result(h, at, t, err);
}

static val fn_randperm(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                       src_span at)
{
    (void)self;
    val a[8];
    if (!host_args(h, at, "randperm", "n, *, generator=, " CREATE_KW, argc, argv, kw, a))
        return val_err();
    int64_t n;
    dtype dt = DTYPE_INT64;
    bool cuda = false;
    if (!torch_int_arg(h, a[0], at, "randperm", "n", &n) ||
        !create_kw(h, a + 2, at, "randperm", &dt, &cuda) || !computed_dtype_ok(h, dt, at))
        return val_err();
    if (n < 0)    /* torch's message, missing space included */
        return host_error(h, at, "n must be non-negative, got%lld", (long long)n);
    char err[TENSOR_ERR_LEN];
    tensor *t = tensor_new(dt, 1, &n, cuda, err);
    if (t)
        tensor_fill_randperm(t);
    return torch_result(h, at, t, err);
}

/* torch.manual_seed(seed).  torch returns its Generator object; tritsim
 * returns None (programs call it for its effect). */
/* torch.manual_seed, also torch.cuda.manual_seed(_all): one generator
 * serves every device. */
val torch_manual_seed_fn(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                          src_span at)
{
    (void)self;
    val a[1];
    int64_t seed;
    if (!host_args(h, at, "manual_seed", "seed", argc, argv, kw, a) ||
        !torch_int_arg(h, a[0], at, "manual_seed", "seed", &seed))
        return val_err();
    tensor_manual_seed((uint64_t)seed);
    return val_none();
}

static val fn_initial_seed(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                           src_span at)
{
    (void)self;
    if (!host_args(h, at, "initial_seed", "", argc, argv, kw, NULL))
        return val_err();
    return val_int((int64_t)tensor_initial_seed());
}

/* In-place random fills: x.uniform_(a, b), x.normal_(mean, std). */
static val random_fill(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                       src_span at, bool normal)
{
    const char *fname = normal ? "normal_" : "uniform_";
    val a[4];
    TORCH_READ_ARGS(fname, normal ? "input, mean=, std=, *, generator="
                                  : "input, from=, to=, *, generator=", a);
    double p[2] = {0.0, 1.0};
    for (int i = 0; i < 2; i++)
        if (a[1 + i].kind != VAL_MISSING &&
            !host_to_float(h, a[1 + i], at, i ? "the second argument" : "the first argument",
                           &p[i]))
            return val_err();
    if (!random_float_type(h, normal ? FILL_RANDN : FILL_RAND, t->type, at))
        return val_err();
    if (normal)
        tensor_fill_normal(t, p[0], p[1]);
    else
        tensor_fill_uniform(t, p[0], p[1]);
    return val_ref(a[0]);
}

HOST_CFUNC_CALLING(fn_uniform_, random_fill, false)
HOST_CFUNC_CALLING(fn_normal_, random_fill, true)

const torch_fn torch_create_fns[] = {
    TORCH_CREATE("tensor", fn_tensor),
    TORCH_CREATE("as_tensor", fn_as_tensor),
    TORCH_CREATE("zeros", fn_zeros),
    TORCH_CREATE("ones", fn_ones),
    TORCH_CREATE("empty", fn_empty),
    TORCH_CREATE("empty_strided", fn_empty_strided),
    TORCH_CREATE("full", fn_full),
    TORCH_CREATE("rand", fn_rand),
    TORCH_CREATE("randn", fn_randn),
    TORCH_CREATE("randint", fn_randint),
    TORCH_CREATE("randperm", fn_randperm),
    TORCH_CREATE("zeros_like", fn_zeros_like),
    TORCH_CREATE("ones_like", fn_ones_like),
    TORCH_CREATE("empty_like", fn_empty_like),
    TORCH_CREATE("full_like", fn_full_like),
    TORCH_CREATE("rand_like", fn_rand_like),
    TORCH_CREATE("randn_like", fn_randn_like),
    TORCH_CREATE("randint_like", fn_randint_like),
    TORCH_CREATE("arange", fn_arange),
    TORCH_CREATE("linspace", fn_linspace),
    TORCH_CREATE("eye", fn_eye),
    TORCH_CREATE("manual_seed", torch_manual_seed_fn),
    TORCH_CREATE("initial_seed", fn_initial_seed),
    TORCH_METHOD_CREATE("new_zeros", fn_new_zeros),
    TORCH_METHOD_CREATE("new_ones", fn_new_ones),
    TORCH_METHOD_CREATE("new_empty", fn_new_empty),
    TORCH_METHOD_CREATE("new_empty_strided", fn_new_empty_strided),
    TORCH_METHOD_CREATE("new_full", fn_new_full),
    TORCH_METHOD_CREATE("new_tensor", fn_new_tensor),
    TORCH_METHOD("uniform_", fn_uniform_),
    TORCH_METHOD("normal_", fn_normal_),
    {NULL, NULL, NULL, NULL, NULL, 0},
};
