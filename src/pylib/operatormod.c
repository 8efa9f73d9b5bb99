/* operatormod.c - the operator module: Python's operators as functions
 * (add, mul, ge, not_, getitem, contains, ...) through the evaluator's
 * own operations, and the callables itemgetter, attrgetter (dotted names
 * too) and methodcaller. */
#include "builtins_impl.h"

#include <string.h>

/* ---- the operators --------------------------------------------------------- */

/* operator.NAME(a, b) is a op b. */
#define OPERATOR_BINARY(name, op) \
    BUILTIN_FN(operator_##name) \
    { \
        (void)self; \
        if (!builtin_nargs(h, #name, argc, kw, 2, 2, at)) \
            return val_err(); \
        return host_binop(h, op, argv[0], argv[1], at); \
    }

OPERATOR_BINARY(add, AST_OP_ADD)
OPERATOR_BINARY(sub, AST_OP_SUB)
OPERATOR_BINARY(mul, AST_OP_MUL)
OPERATOR_BINARY(truediv, AST_OP_DIV)
OPERATOR_BINARY(floordiv, AST_OP_FLOORDIV)
OPERATOR_BINARY(mod, AST_OP_MOD)
OPERATOR_BINARY(pow, AST_OP_POW)
OPERATOR_BINARY(matmul, AST_OP_MATMUL)
OPERATOR_BINARY(lshift, AST_OP_LSHIFT)
OPERATOR_BINARY(rshift, AST_OP_RSHIFT)
OPERATOR_BINARY(and_, AST_OP_BITAND)
OPERATOR_BINARY(or_, AST_OP_BITOR)
OPERATOR_BINARY(xor, AST_OP_BITXOR)
OPERATOR_BINARY(eq, AST_OP_EQ)
OPERATOR_BINARY(ne, AST_OP_NE)
OPERATOR_BINARY(lt, AST_OP_LT)
OPERATOR_BINARY(le, AST_OP_LE)
OPERATOR_BINARY(gt, AST_OP_GT)
OPERATOR_BINARY(ge, AST_OP_GE)
OPERATOR_BINARY(is_, AST_OP_IS)
OPERATOR_BINARY(is_not, AST_OP_ISNOT)

/* operator.concat(a, b): a + b for sequences only. */
BUILTIN_FN(operator_concat)
{
    (void)self;
    if (!builtin_nargs(h, "concat", argc, kw, 2, 2, at))
        return val_err();
    if (argv[0].kind != VAL_LIST && argv[0].kind != VAL_TUPLE && argv[0].kind != VAL_STR)
        return host_raise(h, HOST_EXC_TYPE, at, "'%s' object can't be concatenated",
                          val_type_name(argv[0]));
    return host_binop(h, AST_OP_ADD, argv[0], argv[1], at);
}

/* operator.contains(a, b): b in a. */
BUILTIN_FN(operator_contains)
{
    (void)self;
    if (!builtin_nargs(h, "contains", argc, kw, 2, 2, at))
        return val_err();
    return host_binop(h, AST_OP_IN, argv[1], argv[0], at);
}

/* operator.NAME(a) is op a. */
#define OPERATOR_UNARY(name, op) \
    BUILTIN_FN(operator_##name) \
    { \
        (void)self; \
        if (!builtin_nargs(h, #name, argc, kw, 1, 1, at)) \
            return val_err(); \
        return host_unop(h, op, argv[0], at); \
    }

OPERATOR_UNARY(neg, AST_OP_USUB)
OPERATOR_UNARY(pos, AST_OP_UADD)
OPERATOR_UNARY(invert, AST_OP_INVERT)
OPERATOR_UNARY(not_, AST_OP_NOT)

BUILTIN_FN(operator_truth)
{
    (void)self;
    if (!builtin_nargs(h, "truth", argc, kw, 1, 1, at))
        return val_err();
    int t = host_truth(h, argv[0], at);
    return t < 0 ? val_err() : val_bool(t);
}

/* abs and index: the built-ins of those names. */
static val operator_call_builtin(host *h, const char *name, val x, src_span at)
{
    val fn = val_dict_get_str(h->builtins, name);
    if (fn.kind == VAL_MISSING)
        return host_error(h, at, "operator.%s needs the built-in %s()", name, name);
    return host_call(h, fn, 1, &x, NULL, at);
}

BUILTIN_FN(operator_abs)
{
    (void)self;
    if (!builtin_nargs(h, "abs", argc, kw, 1, 1, at))
        return val_err();
    return operator_call_builtin(h, "abs", argv[0], at);
}

BUILTIN_FN(operator_index)
{
    (void)self;
    if (!builtin_nargs(h, "index", argc, kw, 1, 1, at))
        return val_err();
    if (!builtin_is_int(argv[0]))
        return host_raise(h, HOST_EXC_TYPE, at, "'%s' object cannot be interpreted as an "
                          "integer", val_type_name(argv[0]));
    return val_int(builtin_int_of(argv[0]));
}

BUILTIN_FN(operator_getitem)
{
    (void)self;
    if (!builtin_nargs(h, "getitem", argc, kw, 2, 2, at))
        return val_err();
    return host_getitem(h, argv[0], argv[1], at);
}

BUILTIN_FN(operator_setitem)
{
    (void)self;
    if (!builtin_nargs(h, "setitem", argc, kw, 3, 3, at))
        return val_err();
    return host_setitem(h, argv[0], argv[1], argv[2], at) ? val_none() : val_err();
}

/* ---- itemgetter, attrgetter, methodcaller ----------------------------------- */

/* The three are objects holding what they apply (attribute "_args": a
 * tuple; methodcaller also "_name" and "_kwargs") and a call hook. */
typedef enum { GETTER_ITEM, GETTER_ATTR, GETTER_METHOD } operator_getter_kind;

static const char *const operator_getter_names[] = {"itemgetter", "attrgetter",
                                                    "methodcaller"};

static operator_getter_kind operator_getter_of(val self)
{
    val k = val_object_get(self, "_kind");
    return (operator_getter_kind)(k.kind == VAL_INT ? k.u.i : 0);
}

/* obj.a.b.c for attrgetter("a.b.c"); a new reference or VAL_ERR. */
static val operator_dotted_attr(host *h, val obj, val name, src_span at)
{
    const char *s;
    if (!host_to_str(h, name, at, "attribute name", &s))
        return val_err();
    val cur = val_ref(obj);
    for (;;) {
        size_t n = strcspn(s, ".");
        char part[256];
        snprintf(part, sizeof part, "%.*s", (int)n, s);
        val next = host_getattr(h, cur, part, at);
        val_unref(cur);
        if (next.kind == VAL_ERR || !s[n])
            return next;
        cur = next;
        s += n + 1;
    }
}

static val operator_getter_call(host *h, val self, int argc, const val *argv,
                                const val_kwargs *kw, src_span at)
{
    operator_getter_kind k = operator_getter_of(self);
    const val_seq *args = val_as_seq(val_object_get(self, "_args"));
    if (!builtin_nargs(h, operator_getter_names[k], argc, kw, 1, 1, at))
        return val_err();
    if (k == GETTER_METHOD) {
        const char *name = val_as_str(val_object_get(self, "_name"))->s;
        val m = host_getattr(h, argv[0], name, at);
        if (m.kind == VAL_ERR)
            return m;
        val kd = val_object_get(self, "_kwargs");
        size_t n = 0, pos = 0;
        val key, value;
        while (val_dict_next(kd, &pos, &key, &value))
            n++;
        const char *names[32];
        val values[32];
        pos = 0;
        int i = 0;
        while (i < 32 && val_dict_next(kd, &pos, &key, &value)) {
            names[i] = val_as_str(key)->s;
            values[i++] = value;
        }
        val_kwargs mk = {i, names, values};
        val r = host_call(h, m, (int)args->len, args->items, n ? &mk : NULL, at);
        val_unref(m);
        return r;
    }
    if (args->len == 1)
        return k == GETTER_ITEM ? host_getitem(h, argv[0], args->items[0], at)
                                : operator_dotted_attr(h, argv[0], args->items[0], at);
    val t = val_tuple_new(args->len);
    for (size_t i = 0; i < args->len; i++) {
        val v = k == GETTER_ITEM ? host_getitem(h, argv[0], args->items[i], at)
                                 : operator_dotted_attr(h, argv[0], args->items[i], at);
        if (v.kind == VAL_ERR) {
            val_unref(t);
            return v;
        }
        val_seq_set(t, i, v);
    }
    return t;
}

/* operator.itemgetter(1, 0) prints as Python's. */
static void operator_getter_repr(host *h, val self, strbuf *out)
{
    operator_getter_kind k = operator_getter_of(self);
    const val_seq *args = val_as_seq(val_object_get(self, "_args"));
    strbuf_printf(out, "operator.%s(", operator_getter_names[k]);
    if (k == GETTER_METHOD) {
        val_print_repr(h, val_object_get(self, "_name"), out);
        if (args->len)
            strbuf_puts(out, ", ");
    }
    for (size_t i = 0; i < args->len; i++) {
        if (i)
            strbuf_puts(out, ", ");
        val_print_repr(h, args->items[i], out);
    }
    if (k == GETTER_METHOD) {
        size_t pos = 0;
        val key, value;
        while (val_dict_next(val_object_get(self, "_kwargs"), &pos, &key, &value)) {
            strbuf_printf(out, ", %s=", val_as_str(key)->s);
            val_print_repr(h, value, out);
        }
    }
    strbuf_putc(out, ')');
}

static const val_type operator_getter_type = {
    .name = "operator",
    .call = operator_getter_call,
    .repr = operator_getter_repr,
};

static val operator_getter_new(host *h, operator_getter_kind k, int argc, const val *argv,
                               const val_kwargs *kw, src_span at)
{
    const char *name = operator_getter_names[k];
    if (k != GETTER_METHOD && kw->n)
        return host_raise(h, HOST_EXC_TYPE, at, "%s() takes no keyword arguments", name);
    int first = k == GETTER_METHOD ? 1 : 0;
    if (argc < 1)
        return host_raise(h, HOST_EXC_TYPE, at, k == GETTER_METHOD ?
                          "methodcaller needs at least one argument, the method name" :
                          "%s expected 1 argument, got 0", name);
    if (k == GETTER_ATTR || k == GETTER_METHOD)
        for (int i = 0; i < (k == GETTER_METHOD ? 1 : argc); i++)
            if (argv[i].kind != VAL_STR)
                return host_raise(h, HOST_EXC_TYPE, at, k == GETTER_METHOD ?
                                  "method name must be a string" :
                                  "attribute name must be a string");
    val g = val_object_new(&operator_getter_type);
    val_object_set(g, "_kind", val_int(k));
    val t = val_tuple_new((size_t)(argc - first));
    for (int i = first; i < argc; i++)
        val_seq_set(t, (size_t)(i - first), val_ref(argv[i]));
    val_object_set(g, "_args", t);
    if (k == GETTER_METHOD) {
        val_object_set(g, "_name", val_ref(argv[0]));
        val d = val_dict_new();
        for (int i = 0; i < kw->n; i++)
            val_dict_set_str(d, kw->names[i], val_ref(kw->values[i]));
        val_object_set(g, "_kwargs", d);
    }
    return g;
}

BUILTIN_FN(operator_itemgetter)
{
    (void)self;
    return operator_getter_new(h, GETTER_ITEM, argc, argv, kw, at);
}

BUILTIN_FN(operator_attrgetter)
{
    (void)self;
    return operator_getter_new(h, GETTER_ATTR, argc, argv, kw, at);
}

BUILTIN_FN(operator_methodcaller)
{
    (void)self;
    return operator_getter_new(h, GETTER_METHOD, argc, argv, kw, at);
}

void builtin_operator_init(host *h)
{
    static const struct {
        const char *qualname;
        val_cfunc fn;
    } fns[] = {
        {"operator.add", operator_add}, {"operator.sub", operator_sub},
        {"operator.mul", operator_mul}, {"operator.truediv", operator_truediv},
        {"operator.floordiv", operator_floordiv}, {"operator.mod", operator_mod},
        {"operator.pow", operator_pow}, {"operator.matmul", operator_matmul},
        {"operator.lshift", operator_lshift}, {"operator.rshift", operator_rshift},
        {"operator.and_", operator_and_}, {"operator.or_", operator_or_},
        {"operator.xor", operator_xor}, {"operator.eq", operator_eq},
        {"operator.ne", operator_ne}, {"operator.lt", operator_lt},
        {"operator.le", operator_le}, {"operator.gt", operator_gt},
        {"operator.ge", operator_ge}, {"operator.is_", operator_is_},
        {"operator.is_not", operator_is_not}, {"operator.concat", operator_concat},
        {"operator.contains", operator_contains}, {"operator.neg", operator_neg},
        {"operator.pos", operator_pos}, {"operator.invert", operator_invert},
        {"operator.inv", operator_invert}, {"operator.not_", operator_not_},
        {"operator.truth", operator_truth}, {"operator.abs", operator_abs},
        {"operator.index", operator_index}, {"operator.getitem", operator_getitem},
        {"operator.setitem", operator_setitem},
        {"operator.itemgetter", operator_itemgetter},
        {"operator.attrgetter", operator_attrgetter},
        {"operator.methodcaller", operator_methodcaller},
    };
    val m = val_module_new("operator");
    for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++)
        host_def(m, fns[i].qualname, fns[i].fn);
    host_register_module(h, "operator", m);
}
