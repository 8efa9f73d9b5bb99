/* collectionsmod.c - the collections module and collections.abc.
 *
 * collections.abc: the abstract classes (Iterable, Sequence, Mapping,
 * Callable, ...) as classes written in C whose class_meta answers
 * isinstance for the built-in values (a list is a MutableSequence, a dict
 * a Mapping) and for instances with the methods that make them one
 * (__iter__, __len__, __call__, ...); programs derive from them as from
 * any class, and Sequence[int] gives the class back (annotations).
 *
 * collections: OrderedDict (the dict type: dicts keep their order),
 * defaultdict and deque (objects around a dict or a list), namedtuple
 * (a class factory: instances index, iterate, unpack, compare and print
 * as tuples do, without being tuples). */
#include "builtins_impl.h"

#include <stdlib.h>
#include <string.h>

/* ---- collections.abc -------------------------------------------------------------------- */

enum {
    ABC_ITERABLE, ABC_ITERATOR, ABC_REVERSIBLE, ABC_SIZED, ABC_CONTAINER, ABC_COLLECTION,
    ABC_SEQUENCE, ABC_MUTABLE_SEQUENCE, ABC_MAPPING, ABC_MUTABLE_MAPPING, ABC_SET,
    ABC_MUTABLE_SET, ABC_CALLABLE, ABC_HASHABLE, ABC_GENERATOR,
};

static const char *const abc_names[] = {
    "Iterable", "Iterator", "Reversible", "Sized", "Container", "Collection", "Sequence",
    "MutableSequence", "Mapping", "MutableMapping", "Set", "MutableSet", "Callable",
    "Hashable", "Generator",
};

/* Does instance v's class (or a base) define name? */
static bool abc_has(val v, const char *name)
{
    return v.kind == VAL_INSTANCE &&
           class_lookup(((val_instance *)v.u.o)->cls, name).kind != VAL_MISSING;
}

static bool abc_is_set(val v, bool mutable_only)
{
    if (!set_is(v))
        return false;
    return !mutable_only || val_type_of(v) == set_val_type(false);
}

static bool abc_check(int kind, val v)
{
    const val_type *t = val_type_of(v);
    bool builtin_seq = v.kind == VAL_LIST || v.kind == VAL_TUPLE || v.kind == VAL_STR ||
                       v.kind == VAL_RANGE;
    bool gen = t && t->name && !strcmp(t->name, "generator");
    switch (kind) {
    case ABC_ITERABLE:
        return builtin_seq || v.kind == VAL_DICT || set_is(v) || host_is_iterator(v) ||
               (t && (t->iter || t->next)) ||
               abc_has(v, "__iter__") || v.kind == VAL_TENSOR;
    case ABC_ITERATOR:
        return host_is_iterator(v) || (abc_has(v, "__iter__") && abc_has(v, "__next__"));
    case ABC_REVERSIBLE:
        return builtin_seq || v.kind == VAL_DICT || abc_has(v, "__reversed__");
    case ABC_SIZED:
        return builtin_seq || v.kind == VAL_DICT || set_is(v) || (t && t->len && !gen) ||
               abc_has(v, "__len__");
    case ABC_CONTAINER:
        return builtin_seq || v.kind == VAL_DICT || set_is(v) || abc_has(v, "__contains__");
    case ABC_COLLECTION:
        return builtin_seq || v.kind == VAL_DICT || set_is(v) ||
               (abc_has(v, "__len__") && abc_has(v, "__iter__") &&
                abc_has(v, "__contains__"));
    case ABC_SEQUENCE:
        return builtin_seq;
    case ABC_MUTABLE_SEQUENCE:
        return v.kind == VAL_LIST;
    case ABC_MAPPING:
    case ABC_MUTABLE_MAPPING:
        return v.kind == VAL_DICT;
    case ABC_SET:
        return abc_is_set(v, false);
    case ABC_MUTABLE_SET:
        return abc_is_set(v, true);
    case ABC_CALLABLE:
        return v.kind == VAL_FUNC || v.kind == VAL_BUILTIN || v.kind == VAL_CLASS ||
               v.kind == VAL_KERNEL || v.kind == VAL_LAUNCHER ||
               (v.kind != VAL_INSTANCE && t && t->call) || abc_has(v, "__call__");
    case ABC_HASHABLE:
        return val_hashable(v);
    case ABC_GENERATOR:
        return gen;
    default:
        return false;
    }
}

static bool abc_instancecheck(val cls, val v)
{
    /* only the ABC itself checks structurally; a program's class deriving
     * from it is a plain class */
    val k = val_dict_get_str(((val_object *)cls.u.o)->attrs, "_abc_kind_");
    return k.kind == VAL_INT && abc_check((int)k.u.i, v);
}

static val abc_getitem(host *h, val cls, val key, src_span at)
{
    (void)h, (void)key, (void)at;
    return val_ref(cls);
}

static const class_meta abc_meta = {
    .getitem = abc_getitem,
    .instancecheck = abc_instancecheck,
};

static void coll_abc_init(host *h)
{
    val m = val_module_new("collections.abc");
    for (int i = 0; i < (int)(sizeof abc_names / sizeof abc_names[0]); i++) {
        val c = class_new(abc_names[i], val_none(), true);
        ((val_class *)c.u.o)->meta = &abc_meta;
        val_object_set(c, "__module__", val_str_cstr("collections.abc"));
        val_object_set(c, "_abc_kind_", val_int(i));
        val_object_set(m, abc_names[i], c);
    }
    host_register_module(h, "collections.abc", m);
}

/* ---- defaultdict ---------------------------------------------------------------------------- */

typedef struct coll_dd {
    val_object o;
    val dict, factory;
} coll_dd;

static const val_type coll_dd_type;

static void coll_dd_free(val_obj *o)
{
    val_unref(((coll_dd *)o)->dict);
    val_unref(((coll_dd *)o)->factory);
}

static val coll_dd_getitem(host *h, val self, val key, src_span at)
{
    coll_dd *d = (coll_dd *)self.u.o;
    if (!val_hashable(key))
        return host_getitem(h, d->dict, key, at);
    val v = val_dict_get(d->dict, key);
    if (v.kind != VAL_MISSING)
        return val_ref(v);
    if (d->factory.kind == VAL_NONE)
        return host_getitem(h, d->dict, key, at);
    val nv = host_call(h, d->factory, 0, NULL, NULL, at);
    if (nv.kind == VAL_ERR)
        return nv;
    val_dict_set(d->dict, val_ref(key), val_ref(nv));
    return nv;
}

static bool coll_dd_setitem(host *h, val self, val key, val value, src_span at)
{
    return host_setitem(h, ((coll_dd *)self.u.o)->dict, key, value, at);
}

static int64_t coll_dd_len(host *h, val self, src_span at)
{
    return host_len(h, ((coll_dd *)self.u.o)->dict, at);
}

static val coll_dd_iter(host *h, val self, src_span at)
{
    return host_to_list(h, ((coll_dd *)self.u.o)->dict, at);
}

static val coll_dd_binop(host *h, ast_op op, bool inplace, val a, val b, src_span at)
{
    (void)inplace;
    if (op == AST_OP_IN && val_type_of(b) == &coll_dd_type)
        return host_binop(h, AST_OP_IN, a, ((coll_dd *)b.u.o)->dict, at);
    if ((op == AST_OP_EQ || op == AST_OP_NE) && val_type_of(a) == &coll_dd_type) {
        val other = val_type_of(b) == &coll_dd_type ? ((coll_dd *)b.u.o)->dict : b;
        return host_binop(h, op, ((coll_dd *)a.u.o)->dict, other, at);
    }
    return val_missing();
}

static val coll_dd_getattr(host *h, val self, const char *name, src_span at)
{
    coll_dd *d = (coll_dd *)self.u.o;
    if (!strcmp(name, "default_factory"))
        return val_ref(d->factory);
    return host_getattr_opt(h, d->dict, name, at);
}

static bool coll_dd_setattr(host *h, val self, const char *name, val value, src_span at)
{
    if (strcmp(name, "default_factory")) {
        host_raise(h, HOST_EXC_ATTRIBUTE, at, "'collections.defaultdict' object attribute "
                   "'%s' is read-only", name);
        return false;
    }
    coll_dd *d = (coll_dd *)self.u.o;
    val_unref(d->factory);
    d->factory = val_ref(value);
    return true;
}

static void coll_dd_repr(host *h, val self, strbuf *out)
{
    coll_dd *d = (coll_dd *)self.u.o;
    strbuf_puts(out, "defaultdict(");
    val_print_repr(h, d->factory, out);
    strbuf_puts(out, ", ");
    val_print_repr(h, d->dict, out);
    strbuf_putc(out, ')');
}

static int coll_dd_truth(host *h, val self, src_span at)
{
    return host_truth(h, ((coll_dd *)self.u.o)->dict, at);
}

static const val_type coll_dd_type = {
    .name = "defaultdict",
    .getattr = coll_dd_getattr,
    .setattr = coll_dd_setattr,
    .getitem = coll_dd_getitem,
    .setitem = coll_dd_setitem,
    .binop = coll_dd_binop,
    .truth = coll_dd_truth,
    .len = coll_dd_len,
    .iter = coll_dd_iter,
    .repr = coll_dd_repr,
    .free = coll_dd_free,
    .unhashable = true,
};

BUILTIN_FN(coll_defaultdict)
{
    (void)self;
    if (argc > 2)
        return host_raise(h, HOST_EXC_TYPE, at, "defaultdict() takes at most 2 positional "
                          "arguments");
    val factory = argc ? argv[0] : val_none();
    if (factory.kind != VAL_NONE && factory.kind != VAL_FUNC && factory.kind != VAL_BUILTIN &&
        factory.kind != VAL_CLASS && !(val_type_of(factory) && val_type_of(factory)->call))
        return host_raise(h, HOST_EXC_TYPE, at, "first argument must be callable or None");
    val dict_type = val_dict_get_str(h->builtins, "dict");
    val d = host_call(h, dict_type, argc > 1 ? 1 : 0, argv + 1, kw, at);
    if (d.kind == VAL_ERR)
        return d;
    coll_dd *dd = val_obj_new(sizeof *dd, VAL_OBJECT, &coll_dd_type);
    dd->dict = d;
    dd->factory = val_ref(factory);
    return val_of(dd);
}

/* ---- deque -------------------------------------------------------------------------------- */

typedef struct coll_deque {
    val_object o;
    val list;
    int64_t maxlen;     /* -1: none */
} coll_deque;

static const val_type coll_deque_type;

static void coll_deque_free(val_obj *o)
{
    val_unref(((coll_deque *)o)->list);
}

static void coll_deque_trim(coll_deque *q, bool from_left)
{
    while (q->maxlen >= 0 && (int64_t)val_as_seq(q->list)->len > q->maxlen)
        val_unref(val_list_remove(q->list, from_left ? 0 : val_as_seq(q->list)->len - 1));
}

static coll_deque *coll_deque_of(val v)
{
    return (coll_deque *)v.u.o;
}

BUILTIN_FN(coll_deque_append)
{
    if (!builtin_nargs(h, "append", argc, kw, 1, 1, at))
        return val_err();
    coll_deque *q = coll_deque_of(self);
    val_list_push(q->list, val_ref(argv[0]));
    coll_deque_trim(q, true);
    return val_none();
}

BUILTIN_FN(coll_deque_appendleft)
{
    if (!builtin_nargs(h, "appendleft", argc, kw, 1, 1, at))
        return val_err();
    coll_deque *q = coll_deque_of(self);
    val_list_insert(q->list, 0, val_ref(argv[0]));
    coll_deque_trim(q, false);
    return val_none();
}

static val coll_deque_pop_at(host *h, val self, bool left, src_span at)
{
    coll_deque *q = coll_deque_of(self);
    size_t n = val_as_seq(q->list)->len;
    if (!n)
        return host_raise(h, HOST_EXC_INDEX, at, "pop from an empty deque");
    return val_list_remove(q->list, left ? 0 : n - 1);
}

BUILTIN_FN(coll_deque_pop)
{
    (void)argv;
    if (!builtin_nargs(h, "pop", argc, kw, 0, 0, at))
        return val_err();
    return coll_deque_pop_at(h, self, false, at);
}

BUILTIN_FN(coll_deque_popleft)
{
    (void)argv;
    if (!builtin_nargs(h, "popleft", argc, kw, 0, 0, at))
        return val_err();
    return coll_deque_pop_at(h, self, true, at);
}

static val coll_deque_extend_impl(host *h, val self, val it, bool left, src_span at)
{
    val items = host_to_list(h, it, at);
    if (items.kind == VAL_ERR)
        return items;
    coll_deque *q = coll_deque_of(self);
    for (size_t i = 0; i < val_as_seq(items)->len; i++) {
        if (left)
            val_list_insert(q->list, 0, val_ref(val_as_seq(items)->items[i]));
        else
            val_list_push(q->list, val_ref(val_as_seq(items)->items[i]));
        coll_deque_trim(q, !left);
    }
    val_unref(items);
    return val_none();
}

BUILTIN_FN(coll_deque_extend)
{
    if (!builtin_nargs(h, "extend", argc, kw, 1, 1, at))
        return val_err();
    return coll_deque_extend_impl(h, self, argv[0], false, at);
}

BUILTIN_FN(coll_deque_extendleft)
{
    if (!builtin_nargs(h, "extendleft", argc, kw, 1, 1, at))
        return val_err();
    return coll_deque_extend_impl(h, self, argv[0], true, at);
}

BUILTIN_FN(coll_deque_clear)
{
    (void)argv;
    if (!builtin_nargs(h, "clear", argc, kw, 0, 0, at))
        return val_err();
    coll_deque *q = coll_deque_of(self);
    while (val_as_seq(q->list)->len)
        val_unref(val_list_remove(q->list, val_as_seq(q->list)->len - 1));
    return val_none();
}

static val coll_deque_getattr(host *h, val self, const char *name, src_span at)
{
    (void)h, (void)at;
    static const val_method methods[] = {
        {"append", NULL, coll_deque_append}, {"appendleft", NULL, coll_deque_appendleft},
        {"pop", NULL, coll_deque_pop}, {"popleft", NULL, coll_deque_popleft},
        {"extend", NULL, coll_deque_extend}, {"extendleft", NULL, coll_deque_extendleft},
        {"clear", NULL, coll_deque_clear},
    };
    if (!strcmp(name, "maxlen")) {
        int64_t m = coll_deque_of(self)->maxlen;
        return m < 0 ? val_none() : val_int(m);
    }
    return val_method_bind(methods, sizeof methods / sizeof methods[0], name, self);
}

static val coll_deque_getitem(host *h, val self, val key, src_span at)
{
    if (!builtin_is_int(key))
        return host_raise(h, HOST_EXC_TYPE, at, "sequence index must be integer, not '%s'",
                          val_type_name(key));
    return host_getitem(h, coll_deque_of(self)->list, key, at);
}

static bool coll_deque_setitem(host *h, val self, val key, val value, src_span at)
{
    return host_setitem(h, coll_deque_of(self)->list, key, value, at);
}

static int64_t coll_deque_len(host *h, val self, src_span at)
{
    (void)h, (void)at;
    return (int64_t)val_as_seq(coll_deque_of(self)->list)->len;
}

static val coll_deque_iter(host *h, val self, src_span at)
{
    return host_to_list(h, coll_deque_of(self)->list, at);
}

static val coll_deque_binop(host *h, ast_op op, bool inplace, val a, val b, src_span at)
{
    (void)inplace;
    if (op == AST_OP_IN && val_type_of(b) == &coll_deque_type)
        return host_binop(h, AST_OP_IN, a, coll_deque_of(b)->list, at);
    if ((op == AST_OP_EQ || op == AST_OP_NE) && val_type_of(a) == &coll_deque_type &&
        val_type_of(b) == &coll_deque_type)
        return host_binop(h, op, coll_deque_of(a)->list, coll_deque_of(b)->list, at);
    return val_missing();
}

static void coll_deque_repr(host *h, val self, strbuf *out)
{
    coll_deque *q = coll_deque_of(self);
    strbuf_puts(out, "deque(");
    val_print_repr(h, q->list, out);
    if (q->maxlen >= 0)
        strbuf_printf(out, ", maxlen=%lld", (long long)q->maxlen);
    strbuf_putc(out, ')');
}

static int coll_deque_truth(host *h, val self, src_span at)
{
    (void)h, (void)at;
    return val_as_seq(coll_deque_of(self)->list)->len > 0;
}

static const char *const coll_deque_attrs[] = {
    "append", "appendleft", "pop", "popleft", "extend", "extendleft", "clear", "maxlen", NULL,
};

static const val_type coll_deque_type = {
    .name = "deque",
    .getattr = coll_deque_getattr,
    .getitem = coll_deque_getitem,
    .setitem = coll_deque_setitem,
    .binop = coll_deque_binop,
    .truth = coll_deque_truth,
    .len = coll_deque_len,
    .iter = coll_deque_iter,
    .repr = coll_deque_repr,
    .free = coll_deque_free,
    .attr_names = coll_deque_attrs,
    .unhashable = true,
};

BUILTIN_FN(coll_deque_new)
{
    (void)self;
    val a[2];
    int64_t maxlen = -1;
    if (!host_args(h, at, "deque", "iterable=, maxlen=", argc, argv, kw, a) ||
        (a[1].kind != VAL_MISSING && a[1].kind != VAL_NONE &&
         !host_to_int(h, a[1], at, "maxlen", &maxlen)))
        return val_err();
    if (a[1].kind != VAL_MISSING && a[1].kind != VAL_NONE && maxlen < 0)
        return host_raise(h, HOST_EXC_VALUE, at, "maxlen must be non-negative");
    coll_deque *q = val_obj_new(sizeof *q, VAL_OBJECT, &coll_deque_type);
    q->list = val_list_new(4);
    q->maxlen = maxlen;
    val self_v = val_of(q);
    if (a[0].kind != VAL_MISSING) {
        val r = coll_deque_extend_impl(h, self_v, a[0], false, at);
        if (r.kind == VAL_ERR) {
            val_unref(self_v);
            return r;
        }
    }
    return self_v;
}

/* ---- namedtuple ----------------------------------------------------------------------------- */

/* The fields of the namedtuple class a method was called on (its
 * _fields tuple, borrowed). */
static val nt_fields(val self)
{
    if (self.kind != VAL_INSTANCE)
        return val_missing();
    return class_lookup(((val_instance *)self.u.o)->cls, "_fields");
}

/* The values of an instance, in field order, as a new tuple. */
static val nt_values(host *h, val self, src_span at)
{
    val f = nt_fields(self);
    if (f.kind != VAL_TUPLE)
        return host_raise(h, HOST_EXC_TYPE, at, "not a namedtuple instance");
    size_t n = val_as_seq(f)->len;
    val t = val_tuple_new(n);
    for (size_t i = 0; i < n; i++) {
        val v = val_object_get(self, val_as_str(val_as_seq(f)->items[i])->s);
        val_seq_set(t, i, val_ref(v.kind == VAL_MISSING ? val_none() : v));
    }
    return t;
}

static bool nt_self(host *h, val *self, int *argc, const val **argv, src_span at)
{
    if (self->kind == VAL_NONE && *argc > 0) {
        *self = (*argv)[0];
        (*argv)++;
        (*argc)--;
    }
    if (nt_fields(*self).kind != VAL_TUPLE) {
        host_raise(h, HOST_EXC_TYPE, at, "a namedtuple method needs an instance");
        return false;
    }
    return true;
}

BUILTIN_FN(nt_init)
{
    if (!nt_self(h, &self, &argc, &argv, at))
        return val_err();
    val f = nt_fields(self);
    val cls = ((val_instance *)self.u.o)->cls;
    val defaults = class_lookup(cls, "_field_defaults");
    size_t n = val_as_seq(f)->len;
    const char *cname = ((val_class *)cls.u.o)->name;
    if ((size_t)argc > n)
        return host_raise(h, HOST_EXC_TYPE, at, "%s.__new__() takes %zu positional arguments "
                          "but %d were given", cname, n + 1, argc + 1);
    for (size_t i = 0; i < n; i++) {
        const char *name = val_as_str(val_as_seq(f)->items[i])->s;
        val v = (size_t)argc > i ? argv[i] : val_missing();
        for (int k = 0; kw && k < kw->n; k++)
            if (!strcmp(kw->names[k], name)) {
                if (v.kind != VAL_MISSING)
                    return host_raise(h, HOST_EXC_TYPE, at, "%s.__new__() got multiple values "
                                      "for argument '%s'", cname, name);
                v = kw->values[k];
            }
        if (v.kind == VAL_MISSING && defaults.kind == VAL_DICT)
            v = val_dict_get_str(defaults, name);
        if (v.kind == VAL_MISSING)
            return host_raise(h, HOST_EXC_TYPE, at, "%s.__new__() missing 1 required positional "
                              "argument: '%s'", cname, name);
        val_object_set(self, name, val_ref(v));
    }
    for (int k = 0; kw && k < kw->n; k++) {
        bool known = false;
        for (size_t i = 0; i < n; i++)
            known = known || !strcmp(kw->names[k], val_as_str(val_as_seq(f)->items[i])->s);
        if (!known)
            return host_raise(h, HOST_EXC_TYPE, at, "%s.__new__() got an unexpected keyword "
                              "argument '%s'", cname, kw->names[k]);
    }
    return val_none();
}

BUILTIN_FN(nt_repr)
{
    (void)kw;
    if (!nt_self(h, &self, &argc, &argv, at))
        return val_err();
    val f = nt_fields(self);
    strbuf b = {0};
    strbuf_printf(&b, "%s(", ((val_class *)((val_instance *)self.u.o)->cls.u.o)->name);
    for (size_t i = 0; i < val_as_seq(f)->len; i++) {
        const char *name = val_as_str(val_as_seq(f)->items[i])->s;
        strbuf_printf(&b, "%s%s=", i ? ", " : "", name);
        val r = host_repr(h, val_object_get(self, name));
        if (r.kind == VAL_ERR) {
            strbuf_free(&b);
            return r;
        }
        strbuf_puts(&b, val_as_str(r)->s);
        val_unref(r);
    }
    strbuf_putc(&b, ')');
    return val_str_from_buf(&b);
}

BUILTIN_FN(nt_getitem)
{
    (void)kw;
    if (!nt_self(h, &self, &argc, &argv, at))
        return val_err();
    if (argc != 1)
        return host_raise(h, HOST_EXC_TYPE, at, "__getitem__ takes 1 argument");
    val t = nt_values(h, self, at);
    if (t.kind == VAL_ERR)
        return t;
    val r = host_getitem(h, t, argv[0], at);
    val_unref(t);
    return r;
}

BUILTIN_FN(nt_iter)
{
    (void)kw;
    if (!nt_self(h, &self, &argc, &argv, at))
        return val_err();
    val t = nt_values(h, self, at);
    if (t.kind == VAL_ERR)
        return t;
    return host_iterator_new(t, "tuple_iterator");
}

BUILTIN_FN(nt_len)
{
    (void)kw, (void)argv;
    if (!nt_self(h, &self, &argc, &argv, at))
        return val_err();
    return val_int((int64_t)val_as_seq(nt_fields(self))->len);
}

BUILTIN_FN(nt_eq)
{
    (void)kw;
    if (!nt_self(h, &self, &argc, &argv, at))
        return val_err();
    if (argc != 1)
        return host_raise(h, HOST_EXC_TYPE, at, "__eq__ takes 1 argument");
    val a = nt_values(h, self, at);
    val other = argv[0];
    val b = nt_fields(other).kind == VAL_TUPLE ? nt_values(h, other, at) : val_ref(other);
    val r = host_binop(h, AST_OP_EQ, a, b, at);
    val_unref(a);
    val_unref(b);
    return r;
}

BUILTIN_FN(nt_asdict)
{
    (void)kw;
    if (!nt_self(h, &self, &argc, &argv, at))
        return val_err();
    val f = nt_fields(self);
    val d = val_dict_new();
    for (size_t i = 0; i < val_as_seq(f)->len; i++) {
        val name = val_as_seq(f)->items[i];
        val_dict_set(d, val_ref(name), val_ref(val_object_get(self, val_as_str(name)->s)));
    }
    return d;
}

BUILTIN_FN(nt_replace)
{
    if (!nt_self(h, &self, &argc, &argv, at))
        return val_err();
    if (argc)
        return host_raise(h, HOST_EXC_TYPE, at, "_replace() takes keyword arguments only");
    val f = nt_fields(self);
    val cls = ((val_instance *)self.u.o)->cls;
    val r = class_instance_new(cls);
    for (size_t i = 0; i < val_as_seq(f)->len; i++) {
        const char *name = val_as_str(val_as_seq(f)->items[i])->s;
        val_object_set(r, name, val_ref(val_object_get(self, name)));
    }
    for (int k = 0; kw && k < kw->n; k++) {
        bool known = false;
        for (size_t i = 0; i < val_as_seq(f)->len; i++)
            known = known || !strcmp(kw->names[k], val_as_str(val_as_seq(f)->items[i])->s);
        if (!known) {
            val_unref(r);
            return host_raise(h, HOST_EXC_VALUE, at, "ValueError: Got unexpected field names: "
                              "['%s']", kw->names[k]);
        }
        val_object_set(r, kw->names[k], val_ref(kw->values[k]));
    }
    return r;
}

/* namedtuple(typename, field_names, *, defaults=None, rename=False,
 * module=None) */
BUILTIN_FN(coll_namedtuple)
{
    (void)self;
    val a[5];
    const char *tname;
    if (!host_args(h, at, "namedtuple", "typename, field_names, *, rename=, defaults=, module=",
                   argc, argv, kw, a) ||
        !host_to_str(h, a[0], at, "namedtuple() typename", &tname))
        return val_err();
    val names = val_list_new(4);
    if (a[1].kind == VAL_STR) {
        const char *s = val_as_str(a[1])->s;
        while (*s) {
            size_t skip = strspn(s, " ,\t\n");
            s += skip;
            size_t n = strcspn(s, " ,\t\n");
            if (n)
                val_list_push(names, val_str_new(s, n));
            s += n;
        }
    } else {
        val l = host_to_list(h, a[1], at);
        if (l.kind == VAL_ERR) {
            val_unref(names);
            return l;
        }
        for (size_t i = 0; i < val_as_seq(l)->len; i++) {
            val x = val_as_seq(l)->items[i];
            if (x.kind != VAL_STR) {
                val_unref(l);
                val_unref(names);
                return host_raise(h, HOST_EXC_TYPE, at, "Type names and field names must be "
                                  "strings");
            }
            val_list_push(names, val_ref(x));
        }
        val_unref(l);
    }
    size_t n = val_as_seq(names)->len;
    for (size_t i = 0; i < n; i++) {
        const char *fname = val_as_str(val_as_seq(names)->items[i])->s;
        if (fname[0] == '_') {
            val_unref(names);
            return host_raise(h, HOST_EXC_VALUE, at, "ValueError: Field names cannot start "
                              "with an underscore: '%s'", fname);
        }
    }
    val fields = val_tuple_of(n, val_as_seq(names)->items);
    val_as_seq(names)->len = 0;
    val_unref(names);
    val cls = class_new(tname, val_none(), false);
    val_object_set(cls, "__module__", val_str_cstr("__main__"));
    val_object_set(cls, "__qualname__", val_str_cstr(tname));
    val_object_set(cls, "__match_args__", val_ref(fields));
    val_object_set(cls, "_fields", fields);
    val defaults = val_dict_new();
    if (a[3].kind != VAL_MISSING && a[3].kind != VAL_NONE) {
        val dl = host_to_list(h, a[3], at);
        if (dl.kind == VAL_ERR) {
            val_unref(defaults);
            val_unref(cls);
            return dl;
        }
        size_t nd = val_as_seq(dl)->len;
        if (nd > n) {
            val_unref(dl);
            val_unref(defaults);
            val_unref(cls);
            return host_raise(h, HOST_EXC_TYPE, at, "Got more default values than field "
                              "names");
        }
        for (size_t i = 0; i < nd; i++)
            val_dict_set(defaults, val_ref(val_as_seq(fields)->items[n - nd + i]),
                         val_ref(val_as_seq(dl)->items[i]));
        val_unref(dl);
    }
    val_object_set(cls, "_field_defaults", defaults);
    static const val_method methods[] = {
        {"__init__", NULL, nt_init}, {"__repr__", NULL, nt_repr}, {"__getitem__", NULL, nt_getitem},
        {"__iter__", NULL, nt_iter}, {"__len__", NULL, nt_len}, {"__eq__", NULL, nt_eq},
        {"_asdict", NULL, nt_asdict}, {"_replace", NULL, nt_replace},
    };
    for (size_t i = 0; i < sizeof methods / sizeof methods[0]; i++)
        val_object_set(cls, methods[i].name,
                       val_builtin_new(methods[i].name, methods[i].fn, val_none()));
    return cls;
}

void builtin_collections_init(host *h)
{
    val m = val_module_new("collections");
    host_def(m, "collections.defaultdict", coll_defaultdict);
    host_def(m, "collections.deque", coll_deque_new);
    /* the two are types too, for isinstance */
    val t = val_object_get(m, "defaultdict");
    ((val_builtin *)t.u.o)->inst_kind = VAL_OBJECT;
    ((val_builtin *)t.u.o)->inst_type = &coll_dd_type;
    t = val_object_get(m, "deque");
    ((val_builtin *)t.u.o)->inst_kind = VAL_OBJECT;
    ((val_builtin *)t.u.o)->inst_type = &coll_deque_type;
    host_def(m, "collections.namedtuple", coll_namedtuple);
    val_object_set(m, "OrderedDict", val_ref(val_dict_get_str(h->builtins, "dict")));
    host_register_module(h, "collections", m);
    coll_abc_init(h);
    val_object_set(m, "abc", val_ref(host_module(h, "collections.abc")));
}
