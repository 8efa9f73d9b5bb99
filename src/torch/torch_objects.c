/* torch_objects.c - the small value types of the torch module:
 *
 *   torch.Size      a tuple of ints that prints as torch.Size([3, 4]); it
 *                   indexes, slices (giving a Size), unpacks, iterates and
 *                   compares equal to tuples and Sizes with the same ints;
 *   torch.device    device(type='cuda', index=0), str() 'cuda:0';
 *   return_types    torch.return_types.max(values=..., indices=...), the
 *                   named pair that max(dim) and min(dim) return;
 *   dtype           the hooks of VAL_DTYPE values, printed with torch's
 *                   names (torch.float32) and with torch.dtype's
 *                   attributes (is_floating_point, itemsize, is_signed).
 *
 * Each is an OBJECT whose C fields follow the val_object head. */
#include "torch_impl.h"

#include <string.h>

/* ---- torch.Size ---------------------------------------------------------------- */

typedef struct size_obj {
    val_object o;
    val items;              /* a tuple of ints */
} size_obj;

static const val_type size_type;

static val size_of_tuple(val tuple)
{
    size_obj *s = val_obj_new(sizeof *s, VAL_OBJECT, &size_type);
    s->items = tuple;
    return val_of(s);
}

val torch_size_new(int ndim, const int64_t *shape)
{
    val t = val_tuple_new((size_t)ndim);
    for (int i = 0; i < ndim; i++)
        val_seq_set(t, (size_t)i, val_int(shape[i]));
    return size_of_tuple(t);
}

static bool is_size(val v)
{
    return v.kind == VAL_OBJECT && v.u.o->type == &size_type;
}

static val size_items(val v)
{
    return ((size_obj *)v.u.o)->items;
}

bool torch_size_get(val v, int *ndim, int64_t *shape)
{
    if (!is_size(v))
        return false;
    const val_seq *s = val_as_seq(size_items(v));
    if (s->len > TENSOR_MAX_DIMS)
        return false;
    for (size_t i = 0; i < s->len; i++)
        shape[i] = s->items[i].u.i;
    *ndim = (int)s->len;
    return true;
}

static void size_free(val_obj *o)
{
    val_unref(((size_obj *)o)->items);
}

static void size_repr(host *h, val self, strbuf *out)
{
    (void)h;
    const val_seq *s = val_as_seq(size_items(self));
    strbuf_puts(out, "torch.Size([");
    for (size_t i = 0; i < s->len; i++)
        strbuf_printf(out, i ? ", %lld" : "%lld", (long long)s->items[i].u.i);
    strbuf_puts(out, "])");
}

static val size_getitem(host *h, val self, val key, src_span at)
{
    val r = host_getitem(h, size_items(self), key, at);
    if (key.kind == VAL_SLICE && r.kind == VAL_TUPLE)
        return size_of_tuple(r);
    return r;
}

static int64_t size_len(host *h, val self, src_span at)
{
    (void)h;
    (void)at;
    return (int64_t)val_as_seq(size_items(self))->len;
}

static val size_iter(host *h, val self, src_span at)
{
    (void)h;
    (void)at;
    return val_ref(size_items(self));
}

static int size_truth(host *h, val self, src_span at)
{
    return size_len(h, self, at) > 0;
}

/* Sizes act as their tuple in ==, !=, + and `in`. */
static val size_binop(host *h, ast_op op, bool inplace, val a, val b, src_span at)
{
    (void)inplace;
    val x = is_size(a) ? size_items(a) : a, y = is_size(b) ? size_items(b) : b;
    switch (op) {
    case AST_OP_EQ:
    case AST_OP_NE:
        if (x.kind != VAL_TUPLE || y.kind != VAL_TUPLE)
            return val_missing();
        return val_bool(val_equal(x, y) == (op == AST_OP_EQ));
    case AST_OP_ADD: {
        if (x.kind != VAL_TUPLE || y.kind != VAL_TUPLE)
            return val_missing();
        val r = host_binop(h, op, x, y, at);
        return r.kind == VAL_TUPLE ? size_of_tuple(r) : r;
    }
    case AST_OP_IN:
    case AST_OP_NOTIN:
    case AST_OP_LT:
    case AST_OP_LE:
    case AST_OP_GT:
    case AST_OP_GE:
        if (y.kind != VAL_TUPLE || (op != AST_OP_IN && op != AST_OP_NOTIN &&
                                    x.kind != VAL_TUPLE))
            return val_missing();
        return host_binop(h, op, x, y, at);
    default:
        return val_missing();
    }
}

static val size_numel(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                      src_span at)
{
    if (!host_args(h, at, "numel", "", argc, argv, kw, NULL))
        return val_err();
    const val_seq *s = val_as_seq(size_items(self));
    int64_t n = 1;
    for (size_t i = 0; i < s->len; i++)
        n *= s->items[i].u.i;
    return val_int(n);
}

static val size_getattr(host *h, val self, const char *name, src_span at)
{
    (void)h;
    (void)at;
    if (!strcmp(name, "numel"))
        return val_builtin_new("Size.numel", size_numel, val_ref(self));
    return val_missing();
}

static const char *const size_attrs[] = {"numel", NULL};

static const val_type size_type = {
    .name = "Size",
    .getattr = size_getattr,
    .getitem = size_getitem,
    .binop = size_binop,
    .truth = size_truth,
    .len = size_len,
    .iter = size_iter,
    .repr = size_repr,
    .free = size_free,
    .attr_names = size_attrs,
};

/* torch.Size(iterable) */
static val size_call(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                     src_span at)
{
    (void)self;
    val a[1];
    if (!host_args(h, at, "Size", "sizes=", argc, argv, kw, a))
        return val_err();
    if (a[0].kind == VAL_MISSING)
        return size_of_tuple(val_tuple_new(0));
    val l = host_to_list(h, a[0], at);
    if (l.kind == VAL_ERR)
        return l;
    const val_seq *s = val_as_seq(l);
    for (size_t i = 0; i < s->len; i++)
        if (s->items[i].kind != VAL_INT) {
            host_error(h, at, "torch.Size() takes an iterable of 'int' (item %zu is '%s')", i,
                       val_type_name(s->items[i]));
            val_unref(l);
            return val_err();
        }
    val t = val_tuple_new(s->len);
    for (size_t i = 0; i < s->len; i++)
        val_seq_set(t, i, val_ref(s->items[i]));
    val_unref(l);
    return size_of_tuple(t);
}

val torch_size_type_val(void)
{
    val b = val_builtin_new("torch.Size", size_call, val_none());
    ((val_builtin *)b.u.o)->inst_kind = VAL_OBJECT;
    ((val_builtin *)b.u.o)->inst_type = &size_type;
    return b;
}

/* ---- torch.device ------------------------------------------------------------------ */

typedef struct device_obj {
    val_object o;
    bool cuda;
    int index;              /* -1: none given */
} device_obj;

static const val_type device_type;

val torch_device_new(bool cuda, int index)
{
    device_obj *d = val_obj_new(sizeof *d, VAL_OBJECT, &device_type);
    d->cuda = cuda;
    d->index = index;
    return val_of(d);
}

bool torch_device_get(val v, bool *cuda)
{
    if (v.kind != VAL_OBJECT || v.u.o->type != &device_type)
        return false;
    *cuda = ((device_obj *)v.u.o)->cuda;
    return true;
}

static void device_repr(host *h, val self, strbuf *out)
{
    (void)h;
    const device_obj *d = (const device_obj *)self.u.o;
    strbuf_printf(out, "device(type='%s'", d->cuda ? "cuda" : "cpu");
    if (d->index >= 0)
        strbuf_printf(out, ", index=%d", d->index);
    strbuf_putc(out, ')');
}

static void device_str(host *h, val self, strbuf *out)
{
    (void)h;
    const device_obj *d = (const device_obj *)self.u.o;
    strbuf_puts(out, d->cuda ? "cuda" : "cpu");
    if (d->index >= 0)
        strbuf_printf(out, ":%d", d->index);
}

static val device_getattr(host *h, val self, const char *name, src_span at)
{
    (void)h;
    (void)at;
    const device_obj *d = (const device_obj *)self.u.o;
    if (!strcmp(name, "type"))
        return val_str_cstr(d->cuda ? "cuda" : "cpu");
    if (!strcmp(name, "index"))
        return d->index >= 0 ? val_int(d->index) : val_none();
    return val_missing();
}

static val device_binop(host *h, ast_op op, bool inplace, val a, val b, src_span at)
{
    (void)h;
    (void)inplace;
    (void)at;
    if ((op != AST_OP_EQ && op != AST_OP_NE) || a.kind != VAL_OBJECT || b.kind != VAL_OBJECT ||
        a.u.o->type != &device_type || b.u.o->type != &device_type)
        return val_missing();
    const device_obj *x = (const device_obj *)a.u.o, *y = (const device_obj *)b.u.o;
    bool eq = x->cuda == y->cuda && x->index == y->index;
    return val_bool(eq == (op == AST_OP_EQ));
}

static const char *const device_attrs[] = {"type", "index", NULL};

static const val_type device_type = {
    .name = "device",
    .getattr = device_getattr,
    .binop = device_binop,
    .repr = device_repr,
    .str = device_str,
    .attr_names = device_attrs,
};

/* torch.device('cuda'), torch.device('cuda:0'), torch.device('cuda', 0) */
static val device_call(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                       src_span at)
{
    (void)self;
    val a[2];
    if (!host_args(h, at, "device", "type, index=", argc, argv, kw, a))
        return val_err();
    bool cuda = false;
    if (a[0].kind == VAL_OBJECT && torch_device_get(a[0], &cuda))
        return val_ref(a[0]);
    const char *s;
    if (!host_to_str(h, a[0], at, "device() argument 'type'", &s) ||
        !torch_device_arg(h, a[0], at, "device", &cuda))
        return val_err();
    int index = -1;
    const char *colon = strchr(s, ':');
    if (colon)
        index = 0;    /* torch_device_arg accepted only :0 */
    if (a[1].kind != VAL_MISSING && a[1].kind != VAL_NONE) {
        int64_t i;
        if (!torch_int_arg(h, a[1], at, "device", "index", &i))
            return val_err();
        if (colon)
            return host_error(h, at, "type (string) must not include an index because index "
                              "was passed explicitly: %s", s);
        if (i != 0)
            return host_error(h, at, "tritsim has one device, cuda:0 (and cpu); index %lld does "
                              "not exist", (long long)i);
        index = 0;
    }
    return torch_device_new(cuda, index);
}

val torch_device_type_val(void)
{
    val b = val_builtin_new("torch.device", device_call, val_none());
    ((val_builtin *)b.u.o)->inst_kind = VAL_OBJECT;
    ((val_builtin *)b.u.o)->inst_type = &device_type;
    return b;
}

/* ---- torch.return_types ---------------------------------------------------- */

typedef struct pair_obj {
    val_object o;
    const char *name;       /* "max", "min" */
    val items;              /* the tuple (values, indices) */
} pair_obj;

static void pair_free(val_obj *o)
{
    val_unref(((pair_obj *)o)->items);
}

static void pair_repr(host *h, val self, strbuf *out)
{
    const pair_obj *p = (const pair_obj *)self.u.o;
    const val_seq *s = val_as_seq(p->items);
    strbuf_printf(out, "torch.return_types.%s(\nvalues=", p->name);
    val_print_repr(h, s->items[0], out);
    strbuf_puts(out, ",\nindices=");
    val_print_repr(h, s->items[1], out);
    strbuf_putc(out, ')');
}

static val pair_getattr(host *h, val self, const char *name, src_span at)
{
    (void)h;
    (void)at;
    const val_seq *s = val_as_seq(((pair_obj *)self.u.o)->items);
    if (!strcmp(name, "values"))
        return val_ref(s->items[0]);
    if (!strcmp(name, "indices"))
        return val_ref(s->items[1]);
    return val_missing();
}

static val pair_getitem(host *h, val self, val key, src_span at)
{
    return host_getitem(h, ((pair_obj *)self.u.o)->items, key, at);
}

static int64_t pair_len(host *h, val self, src_span at)
{
    (void)h;
    (void)self;
    (void)at;
    return 2;
}

static val pair_iter(host *h, val self, src_span at)
{
    (void)h;
    (void)at;
    return val_ref(((pair_obj *)self.u.o)->items);
}

static const char *const pair_attrs[] = {"values", "indices", NULL};

static const val_type pair_type = {
    .name = "return_types",
    .getattr = pair_getattr,
    .getitem = pair_getitem,
    .len = pair_len,
    .iter = pair_iter,
    .repr = pair_repr,
    .free = pair_free,
    .attr_names = pair_attrs,
};

val torch_return_items(val v)
{
    if (v.kind != VAL_OBJECT || v.u.o->type != &pair_type)
        return val_missing();
    return ((pair_obj *)v.u.o)->items;
}

val torch_return_pair(const char *name, val values, val indices)
{
    pair_obj *p = val_obj_new(sizeof *p, VAL_OBJECT, &pair_type);
    p->name = name;
    val both[2] = {values, indices};
    p->items = val_tuple_of(2, both);
    return val_of(p);
}

/* ---- torch.dtype ------------------------------------------------------------- */

static void dtype_repr(host *h, val self, strbuf *out)
{
    (void)h;
    dtype t = (dtype)val_dtype_id(self);
    if (tensor_dtype_id_complex((int)t)) {    /* torch.complex64, ... */
        dtype parts = (dtype)(t & ~TENSOR_DTYPE_COMPLEX);
        strbuf_puts(out, parts == DTYPE_FP16 ? "torch.complex32"
                         : parts == DTYPE_FP32 ? "torch.complex64" : "torch.complex128");
        return;
    }
    const char *name = dtype_torch_name(t);
    /* tl.float32 prints as Triton prints it: fp32 */
    strbuf_puts(out, name && !(self.u.dtype & VAL_DTYPE_TL) ? name : dtype_name(t));
}

static val dtype_getattr(host *h, val self, const char *name, src_span at)
{
    (void)h;
    (void)at;
    dtype t = (dtype)val_dtype_id(self);
    if (tensor_dtype_id_complex((int)t)) {
        dtype parts = (dtype)(t & ~TENSOR_DTYPE_COMPLEX);
        if (!strcmp(name, "is_complex") || !strcmp(name, "is_signed"))
            return val_bool(true);
        if (!strcmp(name, "is_floating_point"))
            return val_bool(false);
        if (!strcmp(name, "itemsize"))
            return val_int(2 * dtype_size(parts));
        return val_missing();
    }
    if (!strcmp(name, "primitive_bitwidth") && (self.u.dtype & VAL_DTYPE_TL))
        return val_int(dtype_bits(t));
    if (!strcmp(name, "element_ty") && dtype_is_ptr(t))
        return val_tl_dtype(dtype_elem(t));
    if (!strcmp(name, "address_space") && dtype_is_ptr(t))
        return val_int(1);
    if (!strcmp(name, "is_floating_point"))
        return val_bool(dtype_is_float(t));
    if (!strcmp(name, "is_complex"))
        return val_bool(false);
    if (!strcmp(name, "is_signed"))
        return val_bool(dtype_is_signed(t) || dtype_is_float(t));
    if (!strcmp(name, "itemsize"))
        return val_int(dtype_size(t));
    return val_missing();
}

static const char *const dtype_attrs[] = {"is_floating_point", "is_complex", "is_signed",
                                          "itemsize", NULL};

static const val_type dtype_type = {
    .name = "dtype",
    .getattr = dtype_getattr,
    .repr = dtype_repr,
    .attr_names = dtype_attrs,
};

void torch_register_dtype_type(void)
{
    if (!val_type_of(val_dtype(DTYPE_FP32)))
        val_set_dtype_type(&dtype_type);
}
