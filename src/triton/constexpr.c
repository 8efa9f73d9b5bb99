/* constexpr.c - tl.constexpr on the host: the class and its objects.
 *
 * Triton's constexpr wraps a value known at compile time.  Kernel libraries
 * make module-level constants of them (`MODE_SUM = tl.constexpr(1)`), read
 * them on the host through `.value`, compare them, and let kernels use them
 * as constants.  The object here behaves as Triton 3.6's does: arithmetic,
 * comparisons and bitwise operators give new constexpr objects; bool(),
 * int(), indexing, calls and iteration go to the wrapped value; it prints as
 * constexpr[value].  Kernels never see the object: launch.c unwraps it
 * wherever a host value becomes a compile-time constant. */
#include "constexpr.h"

#include <string.h>

typedef struct constexpr_obj {
    val_object o;           /* attributes a program sets on it */
    val value;
} constexpr_obj;

static const val_type constexpr_type;

static bool constexpr_is(val v)
{
    return v.kind == VAL_OBJECT && val_type_of(v) == &constexpr_type;
}

val constexpr_value(val v)
{
    return constexpr_is(v) ? ((const constexpr_obj *)v.u.o)->value : val_missing();
}

/* A new constexpr holding value (a reference the object takes); a
 * constexpr of a constexpr holds the inner value, as in Triton. */
static val constexpr_wrap(val value)
{
    if (value.kind == VAL_ERR || value.kind == VAL_MISSING)
        return value;
    while (constexpr_is(value)) {
        val inner = val_ref(((const constexpr_obj *)value.u.o)->value);
        val_unref(value);
        value = inner;
    }
    constexpr_obj *c = val_obj_new(sizeof *c, VAL_OBJECT, &constexpr_type);
    c->o.attrs = val_dict_new();
    c->value = value;
    return val_of(c);
}

static val constexpr_unwrap(val v)
{
    return constexpr_is(v) ? ((const constexpr_obj *)v.u.o)->value : v;
}

static void constexpr_free(val_obj *o)
{
    val_unref(((constexpr_obj *)o)->value);
}

static void constexpr_repr(host *h, val self, strbuf *out)
{
    strbuf_puts(out, "constexpr[");
    val_print_str(h, constexpr_unwrap(self), out);
    strbuf_puts(out, "]");
}

static val constexpr_format(host *h, val self, const char *spec, size_t len, src_span at)
{
    (void)spec;
    if (len)
        return host_raise(h, HOST_EXC_TYPE, at, "unsupported format string passed to "
                          "constexpr.__format__");
    strbuf b = {0};
    constexpr_repr(h, self, &b);
    val r = val_str_new(b.data ? b.data : "", b.len);
    strbuf_free(&b);
    return r;
}

/* Triton defines the reflected forms of these operators only, so that
 * `1 + c` is a constexpr and `5 % c` a TypeError, as there.  Comparisons
 * reflect through Python's own rule (3 < c asks c > 3). */
static bool constexpr_reflects(ast_op op)
{
    switch (op) {
    case AST_OP_ADD: case AST_OP_SUB: case AST_OP_MUL: case AST_OP_DIV:
    case AST_OP_FLOORDIV: case AST_OP_POW: case AST_OP_EQ: case AST_OP_NE:
    case AST_OP_LT: case AST_OP_LE: case AST_OP_GT: case AST_OP_GE:
        return true;
    default:
        return false;
    }
}

static bool constexpr_has_op(ast_op op)
{
    switch (op) {
    case AST_OP_MOD: case AST_OP_LSHIFT: case AST_OP_RSHIFT: case AST_OP_BITAND:
    case AST_OP_BITOR: case AST_OP_BITXOR:
        return true;
    default:
        return constexpr_reflects(op);
    }
}

static val constexpr_binop(host *h, ast_op op, bool inplace, val a, val b, src_span at)
{
    (void)inplace;
    if (op == AST_OP_IN)    /* `x in c`: Triton iterates over the value */
        return host_binop(h, op, a, constexpr_unwrap(b), at);
    if (constexpr_is(a) ? !constexpr_has_op(op) : !constexpr_reflects(op))
        return val_missing();
    return constexpr_wrap(host_binop(h, op, constexpr_unwrap(a), constexpr_unwrap(b), at));
}

static val constexpr_unop(host *h, ast_op op, val self, src_span at)
{
    return constexpr_wrap(host_unop(h, op, constexpr_unwrap(self), at));
}

static int constexpr_truth(host *h, val self, src_span at)
{
    return host_truth(h, constexpr_unwrap(self), at);
}

static val constexpr_call(host *h, val self, int argc, const val *argv,
                          const val_kwargs *kw, src_span at)
{
    return host_call(h, constexpr_unwrap(self), argc, argv, kw, at);
}

static val constexpr_getitem(host *h, val self, val key, src_span at)
{
    return host_getitem(h, constexpr_unwrap(self), constexpr_unwrap(key), at);
}

static val constexpr_iter(host *h, val self, src_span at)
{
    return host_to_list(h, constexpr_unwrap(self), at);
}

/* c.__index__(): the value, for int(c), range(c) and list[c]. */
static val constexpr_index(host *h, val self, int argc, const val *argv,
                           const val_kwargs *kw, src_span at)
{
    if (!host_args(h, at, "__index__", "", argc, argv, kw, NULL))
        return val_err();
    val v = constexpr_unwrap(self);
    if (v.kind != VAL_INT && v.kind != VAL_BOOL)
        return host_raise(h, HOST_EXC_TYPE, at, "'%s' object cannot be interpreted as an "
                          "integer", val_type_name(v));
    return val_ref(v);
}

static val constexpr_getattr(host *h, val self, const char *name, src_span at)
{
    (void)h, (void)at;
    if (!strcmp(name, "value"))
        return val_ref(constexpr_unwrap(self));
    if (!strcmp(name, "__index__"))
        return val_builtin_new("constexpr.__index__", constexpr_index, val_ref(self));
    return val_missing();
}

/* Triton hashes (value, type): equal constexprs are one dict key, and a
 * constexpr is not the key of its plain value. */
static uint64_t constexpr_hash(val self)
{
    return val_hash(constexpr_unwrap(self)) * 0x9e3779b97f4a7c15u + 0xc0;
}

static bool constexpr_equal(val self, val other)
{
    return constexpr_is(other) && val_equal(constexpr_unwrap(self), constexpr_unwrap(other));
}

static const char *const constexpr_attrs[] = {"value", NULL};

static const val_type constexpr_type = {
    .name = "constexpr",
    .getattr = constexpr_getattr,
    .call = constexpr_call,
    .getitem = constexpr_getitem,
    .binop = constexpr_binop,
    .unop = constexpr_unop,
    .truth = constexpr_truth,
    .iter = constexpr_iter,
    .repr = constexpr_repr,
    .format = constexpr_format,
    .free = constexpr_free,
    .attr_names = constexpr_attrs,
    .hash = constexpr_hash,
    .equal = constexpr_equal,
};

/* ---- the class: tl.constexpr ------------------------------------------ */

static const val_type constexpr_class_type;

bool constexpr_is_class(val v)
{
    return v.kind == VAL_OBJECT && val_type_of(v) == &constexpr_class_type;
}

static val constexpr_class_call(host *h, val self, int argc, const val *argv,
                                const val_kwargs *kw, src_span at)
{
    (void)self;
    val p[1];
    if (!host_args(h, at, "constexpr", "value", argc, argv, kw, p))
        return val_err();
    return constexpr_wrap(val_ref(p[0]));
}

static void constexpr_class_repr(host *h, val self, strbuf *out)
{
    (void)h, (void)self;
    strbuf_puts(out, "<class 'triton.language.core.constexpr'>");
}

static bool constexpr_class_instancecheck(val self, val v)
{
    (void)self;
    return constexpr_is(v);
}

static const val_type constexpr_class_type = {
    .name = "type",
    .call = constexpr_class_call,
    .repr = constexpr_class_repr,
    .instancecheck = constexpr_class_instancecheck,
};

val constexpr_class_new(void)
{
    return val_object_new(&constexpr_class_type);
}
