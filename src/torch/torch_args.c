/* torch_args.c - reading the arguments of torch functions (dtypes,
 * devices, shapes, dims, numbers) and moving data between Python values
 * and tensors (torch.tensor's nested lists, tolist, item). */
#include "torch_impl.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

val torch_fail(host *h, src_span at, const char *err)
{
    /* the class PyTorch raises: IndexError for dimensions and indices out
     * of range, RuntimeError for the rest */
    if (!strncmp(err, "Dimension out of range", 22) || strstr(err, "out of range for tensor") ||
        strstr(err, "is out of bounds for dimension"))
        return host_raise(h, HOST_EXC_INDEX, at, "%s", err);
    return host_error(h, at, "%s", err);
}

val torch_result(host *h, src_span at, tensor *t, const char *err)
{
    return t ? tensor_val(t) : torch_fail(h, at, err);
}

int torch_self_args(val self, int argc, const val *argv, val *buf, int cap)
{
    int n = 0;
    if (self.kind == VAL_TENSOR)
        buf[n++] = self;
    for (int i = 0; i < argc && n < cap; i++)
        buf[n++] = argv[i];
    return n;
}

const val_kwargs *torch_axis_alias(const val_kwargs *kw, val_kwargs *copy, const char **names,
                                   int cap)
{
    if (!kw || kw->n > cap)
        return kw;
    bool any = false;
    for (int i = 0; i < kw->n; i++) {
        any = any || !strcmp(kw->names[i], "axis");
        names[i] = strcmp(kw->names[i], "axis") ? kw->names[i] : "dim";
    }
    if (!any)
        return kw;
    copy->n = kw->n;
    copy->names = names;
    copy->values = kw->values;
    return copy;
}

tensor *torch_tensor_arg(host *h, val v, src_span at, const char *fname, const char *arg)
{
    tensor *t = tensor_of(v);
    if (!t && v.kind != VAL_ERR)
        host_error(h, at, "%s(): argument '%s' must be Tensor, not %s", fname, arg,
                   val_type_name(v));
    return t;
}

bool torch_dtype_arg(host *h, val v, src_span at, const char *fname, dtype *out)
{
    if (v.kind == VAL_MISSING || v.kind == VAL_NONE)
        return true;
    if (v.kind == VAL_DTYPE) {
        dtype t = (dtype)val_dtype_id(v);
        if (tensor_dtype_id_complex((int)t)) {
            host_error(h, at, "%s(): complex dtypes are not supported by this function in "
                       "tritsim (doc/language.md lists what complex tensors can do)", fname);
            return false;
        }
        if (!tensor_dtype_ok(t)) {
            const char *name = dtype_torch_name(t);
            host_error(h, at, "%s(): tensors of dtype %s are not supported in tritsim", fname,
                       name ? name : dtype_name(t));
            return false;
        }
        *out = t;
        return true;
    }
    if (v.kind == VAL_BUILTIN) {
        /* torch reads Python's own types: float -> float64, int -> int64 */
        switch (((const val_builtin *)v.u.o)->inst_kind) {
        case VAL_FLOAT: *out = DTYPE_FP64; return true;
        case VAL_INT: *out = DTYPE_INT64; return true;
        case VAL_BOOL: *out = DTYPE_INT1; return true;
        default: break;
        }
    }
    host_error(h, at, "%s(): argument 'dtype' must be torch.dtype, not %s", fname,
               val_type_name(v));
    return false;
}

/* Parse "cuda", "cuda:0", "cpu" into *cuda. */
static bool parse_device(host *h, const char *s, src_span at, bool *cuda)
{
    size_t n = strcspn(s, ":");
    bool is_cuda = n == 4 && !strncmp(s, "cuda", 4);
    bool is_cpu = n == 3 && !strncmp(s, "cpu", 3);
    if (!is_cuda && !is_cpu) {
        host_error(h, at, "Expected one of cpu, cuda device type at start of device string: %s",
                   s);
        return false;
    }
    if (s[n] == ':') {
        char *end;
        long idx = strtol(s + n + 1, &end, 10);
        if (*end || end == s + n + 1 || idx < 0) {
            host_error(h, at, "Invalid device string: '%s'", s);
            return false;
        }
        if (idx != 0) {
            host_error(h, at, "tritsim has one device, cuda:0 (and cpu); '%s' does not exist", s);
            return false;
        }
    }
    *cuda = is_cuda;
    return true;
}

bool torch_device_arg(host *h, val v, src_span at, const char *fname, bool *cuda)
{
    if (v.kind == VAL_MISSING || v.kind == VAL_NONE)
        return true;
    if (v.kind == VAL_STR)
        return parse_device(h, val_as_str(v)->s, at, cuda);
    if (torch_device_get(v, cuda))
        return true;
    if (v.kind == VAL_INT) {
        if (v.u.i != 0) {
            host_error(h, at, "tritsim has one device, cuda:0 (and cpu); device %lld does not "
                       "exist", (long long)v.u.i);
            return false;
        }
        *cuda = true;
        return true;
    }
    host_error(h, at, "%s(): argument 'device' must be torch.device, not %s", fname,
               val_type_name(v));
    return false;
}

bool torch_requires_grad_arg(host *h, val v, src_span at, const char *fname)
{
    if (v.kind == VAL_MISSING || v.kind == VAL_BOOL)
        return true;
    host_raise(h, HOST_EXC_TYPE, at, "%s(): argument 'requires_grad' must be bool, not %s",
               fname, val_type_name(v));
    return false;
}

bool torch_index_int(val v, int64_t *out)
{
    if (v.kind == VAL_INT) {
        *out = v.u.i;
        return true;
    }
    tensor *t = tensor_of(v);
    if (t && t->ndim == 0 && dtype_is_int(t->type) && t->type != DTYPE_INT1) {
        *out = dtype_cast(dtype_load(t->type, tensor_cdata(t)), t->type, DTYPE_INT64).i;
        return true;
    }
    return false;
}

/* The items of a tuple, list or torch.Size as ints. */
static bool seq_ints(host *h, val v, src_span at, const char *fname, const char *arg, int *n,
                     int64_t *out, int cap)
{
    int nd;
    int64_t shape[TENSOR_MAX_DIMS];
    if (torch_size_get(v, &nd, shape)) {
        if (nd > cap)
            goto too_many;
        memcpy(out, shape, sizeof *shape * (size_t)nd);
        *n = nd;
        return true;
    }
    const val_seq *s = val_as_seq(v);
    if ((int64_t)s->len > cap)
        goto too_many;
    for (size_t i = 0; i < s->len; i++)
        if (!torch_index_int(s->items[i], &out[i])) {
            host_error(h, at, "%s(): argument '%s' must be tuple of ints, but found element of "
                       "type %s at pos %zu", fname, arg, val_type_name(s->items[i]), i);
            return false;
        }
    *n = (int)s->len;
    return true;
too_many:
    host_error(h, at, "%s(): tritsim tensors have at most %d dimensions", fname, cap);
    return false;
}

static bool is_int_seq(val v)
{
    int nd;
    int64_t shape[TENSOR_MAX_DIMS];
    return v.kind == VAL_TUPLE || v.kind == VAL_LIST || torch_size_get(v, &nd, shape);
}

bool torch_shape_args(host *h, int argc, const val *argv, src_span at, const char *fname,
                      int *ndim, int64_t *shape)
{
    if (argc == 1 && is_int_seq(argv[0]))
        return seq_ints(h, argv[0], at, fname, "size", ndim, shape, TENSOR_MAX_DIMS);
    if (argc > TENSOR_MAX_DIMS) {
        host_error(h, at, "%s(): tritsim tensors have at most %d dimensions", fname,
                   TENSOR_MAX_DIMS);
        return false;
    }
    for (int i = 0; i < argc; i++)
        if (!torch_index_int(argv[i], &shape[i])) {
            host_error(h, at, "%s(): argument 'size' must be tuple of ints, but found element "
                       "of type %s at pos %d", fname, val_type_name(argv[i]), i);
            return false;
        }
    *ndim = argc;
    return true;
}

bool torch_int_list(host *h, val v, src_span at, const char *fname, const char *arg, int *n,
                    int64_t *out, int cap)
{
    if (is_int_seq(v))
        return seq_ints(h, v, at, fname, arg, n, out, cap);
    if (!torch_int_arg(h, v, at, fname, arg, out))
        return false;
    *n = 1;
    return true;
}

bool torch_int_arg(host *h, val v, src_span at, const char *fname, const char *arg,
                   int64_t *out)
{
    if (torch_index_int(v, out))
        return true;
    if (v.kind == VAL_BOOL) {
        *out = v.u.b;
        return true;
    }
    host_error(h, at, "%s(): argument '%s' must be int, not %s", fname, arg, val_type_name(v));
    return false;
}

bool torch_bool_arg(host *h, val v, src_span at, const char *fname, const char *arg, bool *out)
{
    if (v.kind == VAL_MISSING)
        return true;
    if (v.kind == VAL_BOOL) {
        *out = v.u.b;
        return true;
    }
    host_error(h, at, "%s(): argument '%s' must be bool, not %s", fname, arg, val_type_name(v));
    return false;
}

bool torch_operand(val v, tensor_operand *out)
{
    switch (v.kind) {
    case VAL_BOOL: *out = tensor_operand_bool(v.u.b); return true;
    case VAL_INT: *out = tensor_operand_int(v.u.i); return true;
    case VAL_FLOAT: *out = tensor_operand_float(v.u.f); return true;
    case VAL_TENSOR: *out = tensor_operand_of(tensor_of(v)); return true;
    default: return false;
    }
}

/* ---- numbers into elements ----------------------------------------------------- */

/* The C++ type torch names in overflow messages. */
static const char *cpp_type(dtype t)
{
    switch (t) {
    case DTYPE_UINT8: return "uint8_t";
    case DTYPE_INT8: return "int8_t";
    case DTYPE_INT16: return "int16_t";
    case DTYPE_INT32: return "int";
    case DTYPE_INT64: return "int64_t";
    case DTYPE_UINT16: return "uint16_t";
    case DTYPE_UINT32: return "uint32_t";
    case DTYPE_UINT64: return "uint64_t";
    case DTYPE_FP8E4NV: return "at::Float8_e4m3fn";
    case DTYPE_FP8E5: return "at::Float8_e5m2";
    case DTYPE_FP16: return "at::Half";
    case DTYPE_BF16: return "at::BFloat16";
    case DTYPE_FP32: return "float";
    case DTYPE_FP64: return "double";
    default: return "bool";
    }
}

static double float_max(dtype t)
{
    switch (t) {
    case DTYPE_FP8E4NV: return 448.0;
    case DTYPE_FP8E5: return 57344.0;
    case DTYPE_FP16: return 65504.0;
    case DTYPE_BF16: return 3.38953138925153547590e38;
    case DTYPE_FP32: return FLT_MAX;
    default: return DBL_MAX;
    }
}

/* c10's overflows<To>(from): whether v does not fit type t.  Ints into
 * unsigned types may be negative down to -max (they wrap, so that a - b
 * works as a + (-b)); floats must lie in [lowest, max], and infinities
 * fit only float types that have them (not float8_e4m3fn). */
static bool overflows(dtype t, dtype from, dtype_scalar v)
{
    if (t == DTYPE_INT1 || from == DTYPE_INT1)
        return false;
    if (dtype_is_float(from)) {
        double x = v.f;
        if (isinf(x))
            return !dtype_is_float(t) || t == DTYPE_FP8E4NV;
        if (isnan(x))
            return !dtype_is_float(t);
        if (dtype_is_float(t))
            return fabs(x) > float_max(t);
        return x < (double)dtype_int_min(t) || x > (double)dtype_int_max(t);
    }
    int64_t x = v.i;
    if (dtype_is_float(t))
        return fabs((double)x) > float_max(t);
    if (dtype_is_unsigned(t))
        return t != DTYPE_UINT64 && (x > (int64_t)dtype_int_max(t) ||
                                     (x < 0 && -(uint64_t)x > dtype_int_max(t)));
    return x < dtype_int_min(t) || (t != DTYPE_INT64 && x > (int64_t)dtype_int_max(t));
}

bool torch_number_to(host *h, val v, dtype t, src_span at, const char *fname, dtype_scalar *out)
{
    dtype from;
    dtype_scalar x;
    tensor *tv = tensor_of(v);
    char err[TENSOR_ERR_LEN];
    if (v.kind == VAL_BOOL) {
        from = DTYPE_INT1;
        x.u = v.u.b;
    } else if (v.kind == VAL_INT) {
        from = DTYPE_INT64;
        x.i = v.u.i;
    } else if (v.kind == VAL_FLOAT) {
        from = DTYPE_FP64;
        x.f = v.u.f;
    } else if (tv) {
        if (!tensor_item(tv, &x, err)) {
            torch_fail(h, at, err);
            return false;
        }
        from = tv->type;
    } else {
        host_error(h, at, "%s(): expected a number, not %s", fname, val_type_name(v));
        return false;
    }
    if (!tv && overflows(t, from, x)) {
        host_error(h, at, "value cannot be converted to type %s without overflow", cpp_type(t));
        return false;
    }
    *out = tensor_convert(x, from, t);
    return true;
}

val torch_scalar_val(dtype t, dtype_scalar v)
{
    if (t == DTYPE_INT1)
        return val_bool(v.u != 0);
    if (dtype_is_float(t))
        return val_float(v.f);
    if (dtype_is_signed(t))
        return val_int(v.i);
    return val_int((int64_t)v.u);
}

/* ---- nested lists <-> tensors ------------------------------------------------ */

/* The leaves of torch.tensor's data, gathered in row-major order. */
typedef struct leaves {
    val *items;
    int64_t n, cap;
    int ndim;
    int64_t shape[TENSOR_MAX_DIMS];
} leaves;

static bool is_seq(val v)
{
    return v.kind == VAL_LIST || v.kind == VAL_TUPLE;
}

/* The shape, from the first element at each depth. */
static bool data_shape(host *h, val v, src_span at, leaves *L)
{
    L->ndim = 0;
    while (is_seq(v)) {
        if (L->ndim == TENSOR_MAX_DIMS) {
            host_error(h, at, "tensor(): tritsim tensors have at most %d dimensions",
                       TENSOR_MAX_DIMS);
            return false;
        }
        const val_seq *s = val_as_seq(v);
        L->shape[L->ndim++] = (int64_t)s->len;
        if (s->len == 0)
            break;
        v = s->items[0];
    }
    return true;
}

static bool collect(host *h, val v, int depth, src_span at, leaves *L)
{
    if (depth < L->ndim) {
        if (!is_seq(v)) {
            host_error(h, at, "expected sequence of length %lld at dim %d (got %s)",
                       (long long)L->shape[depth], depth, val_type_name(v));
            return false;
        }
        const val_seq *s = val_as_seq(v);
        if ((int64_t)s->len != L->shape[depth]) {
            host_error(h, at, "expected sequence of length %lld at dim %d (got %zu)",
                       (long long)L->shape[depth], depth, s->len);
            return false;
        }
        for (size_t i = 0; i < s->len; i++)
            if (!collect(h, s->items[i], depth + 1, at, L))
                return false;
        return true;
    }
    tensor *t = tensor_of(v);
    if (is_seq(v) || (t && tensor_numel(t) != 1)) {
        host_error(h, at, "%s", t ? "only one element tensors can be converted to Python scalars"
                                  : "expected a number, found a nested sequence deeper than "
                                    "the first element's");
        return false;
    }
    if (!t && v.kind != VAL_BOOL && v.kind != VAL_INT && v.kind != VAL_FLOAT) {
        host_error(h, at, "Could not infer dtype of %s", val_type_name(v));
        return false;
    }
    if (L->n == L->cap) {
        L->cap = L->cap ? 2 * L->cap : 64;
        L->items = xrealloc(L->items, sizeof *L->items * (size_t)L->cap);
    }
    L->items[L->n++] = v;
    return true;
}

/* torch's inference: bools -> bool, ints -> int64, floats -> float32,
 * tensors their dtype, promoted together. */
static dtype infer_dtype(const leaves *L)
{
    dtype t = DTYPE_INVALID;
    for (int64_t i = 0; i < L->n; i++) {
        val v = L->items[i];
        dtype cur = v.kind == VAL_BOOL ? DTYPE_INT1 : v.kind == VAL_INT ? DTYPE_INT64
                  : v.kind == VAL_FLOAT ? DTYPE_FP32 : tensor_of(v)->type;
        dtype p = tensor_promote_types(t, cur, NULL);
        t = p == DTYPE_INVALID ? DTYPE_INT64 : p;
    }
    return t == DTYPE_INVALID ? DTYPE_FP32 : t;
}

/* One number of torch.tensor's data as an element of dtype t: as torch's
 * store_scalar, a Python number goes into a float type through a double
 * without an overflow check (float16 70000.0 is inf, float8_e4m3fn 500.0
 * is NaN), into the other types with one (torch_number_to). */
static bool data_number_to(host *h, val v, dtype t, src_span at, dtype_scalar *out)
{
    if (!dtype_is_float(t) || (v.kind != VAL_BOOL && v.kind != VAL_INT && v.kind != VAL_FLOAT))
        return torch_number_to(h, v, t, at, "tensor", out);
    double d = v.kind == VAL_FLOAT ? v.u.f : v.kind == VAL_INT ? (double)v.u.i : v.u.b;
    *out = tensor_convert((dtype_scalar){.f = d}, DTYPE_FP64, t);
    return true;
}

tensor *torch_from_data(host *h, val data, dtype t, bool cuda, src_span at)
{
    char err[TENSOR_ERR_LEN];
    tensor *src = tensor_of(data);
    if (src) {
        tensor *r = tensor_to(src, t == DTYPE_INVALID ? src->type : t, cuda, err);
        if (!r)
            torch_fail(h, at, err);
        return r;
    }
    leaves L = {0};
    tensor *r = NULL;
    if (data_shape(h, data, at, &L) && collect(h, data, 0, at, &L)) {
        if (t == DTYPE_INVALID)
            t = infer_dtype(&L);
        r = tensor_new(t, L.ndim, L.shape, cuda, err);
        if (!r)
            torch_fail(h, at, err);
        unsigned char *p = r ? tensor_data(r) : NULL;
        int es = dtype_size(t);
        for (int64_t i = 0; r && i < L.n; i++, p += es) {
            dtype_scalar x;
            if (!data_number_to(h, L.items[i], t, at, &x)) {
                tensor_unref(r);
                r = NULL;
                break;
            }
            dtype_store(t, p, x);
        }
    }
    free(L.items);
    return r;
}

static val list_of(const tensor *t, int d, const unsigned char *p)
{
    if (d == t->ndim)
        return torch_scalar_val(t->type, dtype_load(t->type, p));
    val l = val_list_new((size_t)t->shape[d]);
    int64_t step = t->strides[d] * tensor_elsize(t);
    for (int64_t i = 0; i < t->shape[d]; i++)
        val_list_push(l, list_of(t, d + 1, p + i * step));
    return l;
}

val torch_to_list(const tensor *t)
{
    return list_of(t, 0, tensor_cdata(t));
}
