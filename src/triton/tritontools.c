/* tritontools.c - triton.tools.tensor_descriptor.TensorDescriptor on the
 * host (tritontools.h), with the checks and messages of Triton 3.6's
 * python/triton/tools/tensor_descriptor.py. */
#define _POSIX_C_SOURCE 200809L
#include "tritontools.h"

#include <string.h>

static const char *const desc_fields[] = {"base", "shape", "strides", "block_shape", "padding",
                                          NULL};

static void desc_repr(host *h, val self, strbuf *out)
{
    val_print_fields(h, self, "TensorDescriptor", desc_fields, out);
}

static const val_type desc_type = {
    .name = "TensorDescriptor",
    .repr = desc_repr,
    .attr_names = desc_fields,
};

bool tritontools_is_desc(val v)
{
    return v.kind == VAL_OBJECT && val_type_of(v) == &desc_type;
}

/* An AssertionError with the message of __post_init__'s assert. */
static val desc_assert(host *h, src_span at, val self, const char *msg, bool with_self)
{
    if (!with_self)
        return host_error(h, at, "AssertionError: %s", msg);
    val r = host_repr(h, self);
    if (r.kind == VAL_ERR)
        return r;
    val e = host_error(h, at, "AssertionError: %s: %s", msg, val_as_str(r)->s);
    val_unref(r);
    return e;
}

/* A field as a list of ints; false after an error (what names it). */
static bool desc_ints(host *h, val v, src_span at, const char *what, int64_t *out, int *n)
{
    val l = host_to_list(h, v, at);
    if (l.kind == VAL_ERR)
        return false;
    const val_seq *s = val_as_seq(l);
    bool ok = true;
    *n = (int)s->len;
    for (size_t i = 0; ok && i < s->len && i < TRITONTOOLS_MAX_DIM; i++)
        ok = host_to_int(h, s->items[i], at, what, &out[i]);
    val_unref(l);
    return ok;
}

/* validate_block_shape (triton/_utils.py) */
static val desc_validate_block(host *h, src_span at, val block)
{
    val l = host_to_list(h, block, at);
    if (l.kind == VAL_ERR)
        return l;
    const val_seq *s = val_as_seq(l);
    int64_t numel = 1;
    val r = val_none();
    for (size_t i = 0; i < s->len; i++) {
        val d = s->items[i];
        if (d.kind != VAL_INT) {
            r = host_error(h, at, "TypeError: Shape element %zu must have type "
                           "`constexpr[int]`, got `constexpr[<class '%s'>]", i,
                           val_type_name(d));
            break;
        }
        if (d.u.i & (d.u.i - 1)) {
            r = host_error(h, at, "ValueError: Shape element %zu must be a power of 2", i);
            break;
        }
        numel = numel > (1 << 21) ? numel : numel * d.u.i;
    }
    if (r.kind != VAL_ERR && numel > (1 << 20))
        r = host_error(h, at, "ValueError: numel (%lld) exceeds triton maximum tensor numel "
                       "(1048576)", (long long)numel);
    val_unref(l);
    return r;
}

/* TensorDescriptor(base, shape, strides, block_shape, padding="zero") */
static val desc_new(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                    src_span at)
{
    (void)self;
    val p[5];
    if (!host_args(h, at, "TensorDescriptor", "base, shape, strides, block_shape, padding=",
                   argc, argv, kw, p))
        return val_err();
    val d = val_object_new(&desc_type);
    for (int i = 0; i < 4; i++)
        val_object_set(d, desc_fields[i], val_ref(p[i]));
    val_object_set(d, "padding", p[4].kind == VAL_MISSING ? val_str_cstr("zero")
                                                          : val_ref(p[4]));
    /* __post_init__ */
    int64_t n[3];
    for (int i = 0; i < 3; i++) {
        val l = host_to_list(h, p[i + 1], at);
        if (l.kind == VAL_ERR) {
            val_unref(d);
            return l;
        }
        n[i] = (int64_t)val_as_seq(l)->len;
        val_unref(l);
    }
    val r = val_none();
    const tensor *t = tensor_of(p[0]);
    uint64_t addr = 0;
    char err[TENSOR_ERR_LEN];
    if (n[1] != n[0] || n[2] != n[0])
        r = desc_assert(h, at, d, "rank mismatch", true);
    else if (n[0] == 0)
        r = desc_assert(h, at, d, "rank must not be zero", false);
    else if (n[0] > 5)
        r = desc_assert(h, at, d, "rank cannot be more than 5", false);
    else if (!t)
        r = host_error(h, at, "TensorDescriptor: base must be a tensor, not %s",
                       val_type_name(p[0]));
    else if (!tensor_reveal(t, &addr, err))
        r = host_error(h, at, "%s", err);
    else if (addr % 16)
        r = desc_assert(h, at, d, "base must be 16-byte aligned", false);
    if (r.kind != VAL_ERR)
        r = desc_validate_block(h, at, p[3]);
    if (r.kind != VAL_ERR) {
        int64_t st[TRITONTOOLS_MAX_DIM];
        int ns;
        if (!desc_ints(h, p[2], at, "a stride", st, &ns)) {
            r = val_err();
        } else {
            for (int i = 0; i + 1 < ns && r.kind != VAL_ERR; i++)
                if ((st[i] * tensor_elsize(t)) % 16)
                    r = desc_assert(h, at, d, "strides must be 16-byte aligned", false);
            if (r.kind != VAL_ERR && st[ns - 1] != 1)
                r = desc_assert(h, at, d, "Last dimension must be contiguous", false);
        }
    }
    if (r.kind != VAL_ERR) {
        val pad = val_object_get(d, "padding");
        if (pad.kind != VAL_STR || (strcmp(val_as_str(pad)->s, "zero") &&
                                    strcmp(val_as_str(pad)->s, "nan")))
            r = desc_assert(h, at, d, "Illegal value for padding", false);
    }
    if (r.kind == VAL_ERR) {
        val_unref(d);
        return r;
    }
    return d;
}

/* TensorDescriptor.from_tensor(tensor, block_shape, padding="zero") */
static val desc_from_tensor(host *h, val self, int argc, const val *argv,
                            const val_kwargs *kw, src_span at)
{
    (void)self;
    val p[3];
    if (!host_args(h, at, "from_tensor", "tensor, block_shape, padding=", argc, argv, kw, p))
        return val_err();
    val shape = host_getattr(h, p[0], "shape", at);
    if (shape.kind == VAL_ERR)
        return shape;
    val strides = host_call_method(h, p[0], "stride", 0, NULL, NULL, at);
    if (strides.kind == VAL_ERR) {
        val_unref(shape);
        return strides;
    }
    val a[5] = {p[0], shape, strides, p[1], p[2].kind == VAL_MISSING ? val_none() : p[2]};
    val r = desc_new(h, val_none(), p[2].kind == VAL_MISSING ? 4 : 5, a, NULL, at);
    val_unref(shape);
    val_unref(strides);
    return r;
}

/* The class: TensorDescriptor(...) makes one, TensorDescriptor.from_tensor. */
static val desc_class_call(host *h, val self, int argc, const val *argv,
                           const val_kwargs *kw, src_span at)
{
    return desc_new(h, self, argc, argv, kw, at);
}

static void desc_class_repr(host *h, val self, strbuf *out)
{
    (void)h, (void)self;
    strbuf_puts(out, "<class 'triton.tools.tensor_descriptor.TensorDescriptor'>");
}

static bool desc_class_instancecheck(val self, val v)
{
    (void)self;
    return tritontools_is_desc(v);
}

static const val_type desc_class_type = {
    .name = "type",
    .call = desc_class_call,
    .repr = desc_class_repr,
    .instancecheck = desc_class_instancecheck,
};

bool tritontools_desc_of(host *h, val v, src_span at, const char *param,
                         tritontools_desc *out)
{
    memset(out, 0, sizeof *out);
    val base = val_object_get(v, "base"), pad = val_object_get(v, "padding");
    out->base = tensor_of(base);
    if (!out->base) {
        host_error(h, at, "argument '%s' is a TensorDescriptor whose base is %s, not a tensor",
                   param, val_type_name(base));
        return false;
    }
    int n[3];
    int64_t *dst[3] = {out->shape, out->strides, out->block};
    static const char *const what[] = {"a TensorDescriptor's shape", "a TensorDescriptor's "
                                       "stride", "a TensorDescriptor's block_shape"};
    for (int i = 0; i < 3; i++)
        if (!desc_ints(h, val_object_get(v, desc_fields[i + 1]), at, what[i], dst[i], &n[i]))
            return false;
    if (n[0] < 1 || n[0] > TRITONTOOLS_MAX_DIM || n[1] != n[0] || n[2] != n[0]) {
        host_error(h, at, "argument '%s' is a TensorDescriptor with %d sizes, %d strides and "
                   "a block of %d dimensions; they must agree, 1 to 5", param, n[0], n[1],
                   n[2]);
        return false;
    }
    out->nd = n[0];
    out->pad_nan = pad.kind == VAL_STR && !strcmp(val_as_str(pad)->s, "nan");
    return true;
}

void tritontools_init(host *h, val triton)
{
    val tools = val_module_new("triton.tools");
    val td = val_module_new("triton.tools.tensor_descriptor");
    val cls = val_object_new(&desc_class_type);
    val_object_set(cls, "from_tensor",
                   val_builtin_new("TensorDescriptor.from_tensor", desc_from_tensor,
                                   val_none()));
    val_object_set(td, "TensorDescriptor", cls);
    val_object_set(tools, "tensor_descriptor", val_ref(td));
    val_object_set(triton, "tools", val_ref(tools));
    host_register_module(h, "triton.tools", tools);
    host_register_module(h, "triton.tools.tensor_descriptor", td);
    tritonmxfp_init(h);
}
