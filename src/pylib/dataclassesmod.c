/* dataclassesmod.c - the dataclasses module: @dataclass (bare or with
 * options) reads the class body's annotations (host_stmt.c keeps them in
 * __annotations__) and the fields of its dataclass bases, makes the Field
 * objects (__dataclass_fields__), and adds the methods CPython generates
 * as C functions that find the fields through the class they were made
 * for: __init__ (defaults, default_factory, init=False, kw_only, then
 * __post_init__), __repr__, __eq__, the order methods, and for frozen
 * classes a __setattr__ that raises FrozenInstanceError.  Also field,
 * fields, asdict, astuple, replace, is_dataclass, MISSING.
 *
 * Not supported: InitVar, KW_ONLY, make_dataclass, slots=True,
 * __hash__ (instances hash by identity, frozen or not). */
#include "builtins_impl.h"

#include <stdlib.h>
#include <string.h>

static const val_type dc_field_type, dc_missing_type;

static val dc_module(host *h)
{
    return host_module(h, "dataclasses");
}

static val dc_missing(host *h)
{
    return val_object_get(dc_module(h), "MISSING");
}

static bool dc_is_missing(host *h, val v)
{
    return v.kind == VAL_MISSING || (val_is_heap(v) && v.u.o == dc_missing(h).u.o);
}

static void dc_missing_repr(host *h, val self, strbuf *out)
{
    (void)h;
    strbuf_printf(out, "<dataclasses._MISSING_TYPE object at %p>", (void *)self.u.o);
}

static const val_type dc_missing_type = {
    .name = "_MISSING_TYPE",
    .repr = dc_missing_repr,
};

/* ---- Field -------------------------------------------------------------------------------- */

static void dc_field_repr(host *h, val self, strbuf *out)
{
    static const char *const names[] = {
        "name", "type", "default", "default_factory", "init", "repr", "hash", "compare",
        "metadata", "kw_only",
    };
    strbuf_puts(out, "Field(");
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        strbuf_printf(out, "%s%s=", i ? "," : "", names[i]);
        val_print_repr(h, val_object_get(self, names[i]), out);
    }
    strbuf_puts(out, ",_field_type=_FIELD)");
}

static const val_type dc_field_type = {
    .name = "Field",
    .repr = dc_field_repr,
};

static val dc_field_new(host *h, val dflt, val factory, bool init, bool repr, val hash,
                        bool compare, val metadata, val kw_only)
{
    val f = val_object_new(&dc_field_type);
    val miss = dc_missing(h);
    val_object_set(f, "name", val_none());
    val_object_set(f, "type", val_none());
    val_object_set(f, "default", val_ref(dc_is_missing(h, dflt) ? miss : dflt));
    val_object_set(f, "default_factory", val_ref(dc_is_missing(h, factory) ? miss : factory));
    val_object_set(f, "init", val_bool(init));
    val_object_set(f, "repr", val_bool(repr));
    val_object_set(f, "hash", val_ref(hash.kind == VAL_MISSING ? val_none() : hash));
    val_object_set(f, "compare", val_bool(compare));
    val_object_set(f, "metadata", metadata.kind == VAL_MISSING || metadata.kind == VAL_NONE
                                      ? val_dict_new()
                                      : val_ref(metadata));
    val_object_set(f, "kw_only", val_ref(kw_only.kind == VAL_MISSING ? miss : kw_only));
    return f;
}

static bool dc_flag(host *h, val v, bool dflt, src_span at, int *out)
{
    if (v.kind == VAL_MISSING) {
        *out = dflt;
        return true;
    }
    *out = host_truth(h, v, at);
    return *out >= 0;
}

BUILTIN_FN(dc_field)
{
    (void)self;
    val a[8];
    int init, repr, compare;
    if (!host_args(h, at, "field", "*, default=, default_factory=, init=, repr=, hash=, "
                   "compare=, metadata=, kw_only=", argc, argv, kw, a) ||
        !dc_flag(h, a[2], true, at, &init) || !dc_flag(h, a[3], true, at, &repr) ||
        !dc_flag(h, a[5], true, at, &compare))
        return val_err();
    if (!dc_is_missing(h, a[0]) && !dc_is_missing(h, a[1]))
        return host_raise(h, HOST_EXC_VALUE, at, "ValueError: cannot specify both default and "
                          "default_factory");
    return dc_field_new(h, a[0], a[1], init, repr, a[4], compare, a[6], a[7]);
}

static bool dc_field_flag(val f, const char *name)
{
    val v = val_object_get(f, name);
    return v.kind == VAL_BOOL ? v.u.b : v.kind != VAL_NONE && v.kind != VAL_MISSING;
}

/* ---- what the generated methods share ---------------------------------------------------- */

/* The fields (a dict name -> Field, borrowed) of the dataclass a generated
 * method was made for (h->calling's data), or of self's class. */
static val dc_fields_of_call(host *h, val self)
{
    const val_builtin *b = h->calling;
    if (b && b->data) {
        val cls = val_of((void *)b->data);
        val f = class_lookup(cls, "__dataclass_fields__");
        if (f.kind == VAL_DICT)
            return f;
    }
    val cls = host_getattr_opt(h, self, "__class__", h->stmt_at);
    val f = cls.kind == VAL_CLASS ? class_lookup(cls, "__dataclass_fields__") : val_missing();
    val_unref(cls);
    return f;
}

/* A generated method called through the class (C.__init__(obj, ...)) has
 * no self: the first argument is it. */
static bool dc_self(host *h, val *self, int *argc, const val **argv, src_span at,
                    const char *fname)
{
    if (self->kind != VAL_NONE)
        return true;
    if (*argc < 1 || (*argv)[0].kind != VAL_INSTANCE) {
        host_raise(h, HOST_EXC_TYPE, at, "%s() needs an instance as its first argument",
                   fname);
        return false;
    }
    *self = (*argv)[0];
    (*argv)++;
    (*argc)--;
    return true;
}

static bool dc_is_frozen(val fields_owner_params)
{
    val p = fields_owner_params;
    return p.kind == VAL_DICT && val_dict_get_str(p, "frozen").kind == VAL_BOOL &&
           val_dict_get_str(p, "frozen").u.b;
}

/* ---- __init__ ----------------------------------------------------------------------------- */

BUILTIN_FN(dc_init)
{
    if (!dc_self(h, &self, &argc, &argv, at, "__init__"))
        return val_err();
    val fields = dc_fields_of_call(h, self);
    if (fields.kind != VAL_DICT)
        return host_raise(h, HOST_EXC_TYPE, at, "__init__(): not a dataclass instance");
    const val_builtin *b = h->calling;
    val cls = b && b->data ? val_of((void *)b->data) : val_none();
    val params = cls.kind == VAL_CLASS ? class_lookup(cls, "__dataclass_params__")
                                       : val_missing();
    bool frozen = dc_is_frozen(params);
    /* positional fields first, in order */
    size_t npos = 0, pos = 0;
    val k, f;
    while (val_dict_next(fields, &pos, &k, &f))
        if (dc_field_flag(f, "init") && !dc_field_flag(f, "kw_only"))
            npos++;
    if ((size_t)argc > npos)
        return host_raise(h, HOST_EXC_TYPE, at, "__init__() takes %zu positional argument%s "
                          "but %d were given", npos + 1, npos ? "s" : "", argc + 1);
    for (int i = 0; kw && i < kw->n; i++) {
        val fi = val_dict_get_str(fields, kw->names[i]);
        if (fi.kind == VAL_MISSING || !dc_field_flag(fi, "init"))
            return host_raise(h, HOST_EXC_TYPE, at, "__init__() got an unexpected keyword "
                              "argument '%s'", kw->names[i]);
    }
    size_t ipos = 0;
    pos = 0;
    while (val_dict_next(fields, &pos, &k, &f)) {
        const char *name = val_as_str(k)->s;
        bool init = dc_field_flag(f, "init");
        val v = val_missing();
        if (init && !dc_field_flag(f, "kw_only") && ipos < (size_t)argc) {
            v = val_ref(argv[ipos]);
        } else {
            for (int i = 0; init && kw && i < kw->n; i++)
                if (!strcmp(kw->names[i], name)) {
                    if (!dc_field_flag(f, "kw_only") && ipos < (size_t)argc)
                        return host_raise(h, HOST_EXC_TYPE, at, "__init__() got multiple "
                                          "values for argument '%s'", name);
                    v = val_ref(kw->values[i]);
                }
        }
        if (init && !dc_field_flag(f, "kw_only"))
            ipos++;
        if (v.kind == VAL_MISSING) {
            val d = val_object_get(f, "default"), fac = val_object_get(f, "default_factory");
            if (!dc_is_missing(h, d))
                v = val_ref(d);
            else if (!dc_is_missing(h, fac)) {
                v = host_call(h, fac, 0, NULL, NULL, at);
                if (v.kind == VAL_ERR)
                    return v;
            } else if (init) {
                val qn = cls.kind == VAL_CLASS ? val_object_get(cls, "__qualname__")
                                               : val_missing();
                return host_raise(h, HOST_EXC_TYPE, at, "%s%s__init__() missing 1 required %s "
                                  "argument: '%s'", qn.kind == VAL_STR ? val_as_str(qn)->s : "",
                                  qn.kind == VAL_STR ? "." : "", dc_field_flag(f, "kw_only")
                                  ? "keyword-only" : "positional", name);
            } else {
                continue;
            }
        }
        bool ok = true;
        if (frozen)
            val_object_set(self, name, val_ref(v));
        else
            ok = host_setattr(h, self, name, v, at);
        val_unref(v);
        if (!ok)
            return val_err();
    }
    val post = host_getattr_opt(h, self, "__post_init__", at);
    if (post.kind == VAL_MISSING)
        return val_none();
    val r = host_call(h, post, 0, NULL, NULL, at);
    val_unref(post);
    if (r.kind == VAL_ERR)
        return r;
    val_unref(r);
    return val_none();
}

/* ---- __repr__, __eq__, order ---------------------------------------------------------------- */

BUILTIN_FN(dc_repr)
{
    if (!dc_self(h, &self, &argc, &argv, at, "__repr__"))
        return val_err();
    (void)argv, (void)kw;
    val fields = dc_fields_of_call(h, self);
    val cls = host_getattr_opt(h, self, "__class__", at);
    val qn = cls.kind == VAL_CLASS ? host_getattr_opt(h, cls, "__qualname__", at)
                                   : val_missing();
    strbuf b = {0};
    strbuf_puts(&b, qn.kind == VAL_STR ? val_as_str(qn)->s : val_type_name(self));
    val_unref(qn);
    val_unref(cls);
    strbuf_putc(&b, '(');
    size_t pos = 0;
    int n = 0;
    val k, f;
    while (fields.kind == VAL_DICT && val_dict_next(fields, &pos, &k, &f)) {
        if (!dc_field_flag(f, "repr"))
            continue;
        val v = host_getattr(h, self, val_as_str(k)->s, at);
        if (v.kind == VAL_ERR) {
            strbuf_free(&b);
            return v;
        }
        strbuf_printf(&b, "%s%s=", n++ ? ", " : "", val_as_str(k)->s);
        val r = host_repr(h, v);
        val_unref(v);
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

/* The tuple of obj's compare=True fields. */
static val dc_compare_tuple(host *h, val obj, val fields, src_span at)
{
    val t = val_list_new(4);
    size_t pos = 0;
    val k, f;
    while (val_dict_next(fields, &pos, &k, &f)) {
        if (!dc_field_flag(f, "compare"))
            continue;
        val v = host_getattr(h, obj, val_as_str(k)->s, at);
        if (v.kind == VAL_ERR) {
            val_unref(t);
            return v;
        }
        val_list_push(t, v);
    }
    val r = val_tuple_of(val_as_seq(t)->len, val_as_seq(t)->items);
    val_as_seq(t)->len = 0;
    val_unref(t);
    return r;
}

static bool dc_same_class(host *h, val a, val b)
{
    if (a.kind != VAL_INSTANCE || b.kind != VAL_INSTANCE)
        return false;
    (void)h;
    return ((val_instance *)a.u.o)->cls.u.o == ((val_instance *)b.u.o)->cls.u.o;
}

static val dc_compare(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                      src_span at, const char *fname, ast_op op)
{
    if (!dc_self(h, &self, &argc, &argv, at, fname))
        return val_err();
    if (!builtin_nargs(h, fname, argc, kw, 1, 1, at))
        return val_err();
    if (!dc_same_class(h, self, argv[0]))
        return val_ref(val_dict_get_str(h->builtins, "NotImplemented"));
    val fields = dc_fields_of_call(h, self);
    val a = dc_compare_tuple(h, self, fields, at);
    if (a.kind == VAL_ERR)
        return a;
    val b = dc_compare_tuple(h, argv[0], fields, at);
    if (b.kind == VAL_ERR) {
        val_unref(a);
        return b;
    }
    val r = host_binop(h, op, a, b, at);
    val_unref(a);
    val_unref(b);
    return r;
}

HOST_CFUNC_CALLING(dc_eq, dc_compare, "__eq__", AST_OP_EQ)
HOST_CFUNC_CALLING(dc_lt, dc_compare, "__lt__", AST_OP_LT)
HOST_CFUNC_CALLING(dc_le, dc_compare, "__le__", AST_OP_LE)
HOST_CFUNC_CALLING(dc_gt, dc_compare, "__gt__", AST_OP_GT)
HOST_CFUNC_CALLING(dc_ge, dc_compare, "__ge__", AST_OP_GE)

BUILTIN_FN(dc_frozen_setattr)
{
    if (!dc_self(h, &self, &argc, &argv, at, "__setattr__"))
        return val_err();
    (void)kw;
    const char *name = argc && argv[0].kind == VAL_STR ? val_as_str(argv[0])->s : "?";
    val fields = dc_fields_of_call(h, self);
    val exc_cls = val_object_get(dc_module(h), "FrozenInstanceError");
    bool field = fields.kind == VAL_DICT && val_dict_get_str(fields, name).kind != VAL_MISSING;
    (void)field;
    val msg = val_str_fmt("cannot assign to field '%s'", name);
    val e = host_call(h, exc_cls, 1, &msg, NULL, at);
    val_unref(msg);
    if (e.kind == VAL_ERR)
        return e;
    host_raise_value(h, e, at);
    val_unref(e);
    return val_err();
}

/* ---- @dataclass -------------------------------------------------------------------------------- */

typedef struct dc_opts {
    int init, repr, eq, order, frozen, kw_only, match_args;
} dc_opts;

/* Is annotation a ClassVar (typing.ClassVar, subscripted or not, or the
 * text "ClassVar[...]")? */
static bool dc_is_classvar(host *h, val ann)
{
    val typing = host_module(h, "typing");
    val cv = typing.kind == VAL_MODULE ? val_object_get(typing, "ClassVar") : val_missing();
    if (val_is_heap(cv) && val_is_heap(ann) && ann.u.o == cv.u.o)
        return true;
    if (ann.kind == VAL_STR) {
        const char *s = val_as_str(ann)->s;
        return !strncmp(s, "ClassVar", 8) || !strncmp(s, "typing.ClassVar", 15);
    }
    return false;
}

/* Put a C method named name in cls's namespace unless the class body
 * defined one. */
static void dc_add_method(val cls, const char *name, const char *qual, val_cfunc fn, bool force)
{
    val ns = ((val_object *)cls.u.o)->attrs;
    if (!force && val_dict_get_str(ns, name).kind != VAL_MISSING)
        return;
    val m = val_builtin_new(qual, fn, val_none());
    ((val_builtin *)m.u.o)->data = cls.u.o;
    val_dict_set_str(ns, name, m);
}

static val dc_process(host *h, val cls, const dc_opts *o, src_span at)
{
    if (cls.kind != VAL_CLASS)
        return host_raise(h, HOST_EXC_TYPE, at, "@dataclass applies to classes, not to a '%s'",
                          val_type_name(cls));
    val_class *c = (val_class *)cls.u.o;
    val ns = c->o.attrs;
    val fields = val_dict_new();
    /* the fields of the dataclass bases come first */
    val inherited = c->base.kind == VAL_CLASS ? class_lookup(c->base, "__dataclass_fields__")
                                              : val_missing();
    size_t pos = 0;
    val k, v;
    while (inherited.kind == VAL_DICT && val_dict_next(inherited, &pos, &k, &v))
        val_dict_set(fields, val_ref(k), val_ref(v));
    val anns = val_dict_get_str(ns, "__annotations__");
    pos = 0;
    while (anns.kind == VAL_DICT && val_dict_next(anns, &pos, &k, &v)) {
        if (dc_is_classvar(h, v))
            continue;
        const char *name = val_as_str(k)->s;
        val dflt = val_dict_get_str(ns, name);
        val f;
        if (val_type_of(dflt) == &dc_field_type) {
            f = val_ref(dflt);
            val d = val_object_get(f, "default");
            if (dc_is_missing(h, d))
                val_unref(val_dict_pop(ns, k));
            else
                val_dict_set_str(ns, name, val_ref(d));
        } else {
            if (dflt.kind == VAL_LIST || dflt.kind == VAL_DICT || set_is(dflt)) {
                val_unref(fields);
                return host_raise(h, HOST_EXC_VALUE, at, "ValueError: mutable default <class "
                                  "'%s'> for field %s is not allowed: use default_factory",
                                  val_type_name(dflt), name);
            }
            f = dc_field_new(h, dflt, val_missing(), true, true, val_none(), true,
                             val_missing(), val_missing());
        }
        val_object_set(f, "name", val_ref(k));
        val_object_set(f, "type", val_ref(v));
        if (dc_is_missing(h, val_object_get(f, "kw_only")))
            val_object_set(f, "kw_only", val_bool(o->kw_only));
        val_dict_set(fields, val_ref(k), f);
    }
    /* a field without a default may not follow one with a default */
    bool seen_default = false;
    pos = 0;
    while (val_dict_next(fields, &pos, &k, &v)) {
        if (!dc_field_flag(v, "init") || dc_field_flag(v, "kw_only"))
            continue;
        bool has = !dc_is_missing(h, val_object_get(v, "default")) ||
                   !dc_is_missing(h, val_object_get(v, "default_factory"));
        if (has)
            seen_default = true;
        else if (seen_default) {
            val_unref(fields);
            return host_raise(h, HOST_EXC_TYPE, at, "non-default argument '%s' follows "
                              "default argument", val_as_str(k)->s);
        }
    }
    val_dict_set_str(ns, "__dataclass_fields__", fields);
    val params = val_dict_new();
    val_dict_set_str(params, "init", val_bool(o->init));
    val_dict_set_str(params, "repr", val_bool(o->repr));
    val_dict_set_str(params, "eq", val_bool(o->eq));
    val_dict_set_str(params, "order", val_bool(o->order));
    val_dict_set_str(params, "frozen", val_bool(o->frozen));
    val_dict_set_str(ns, "__dataclass_params__", params);
    if (o->init)
        dc_add_method(cls, "__init__", "__init__", dc_init, false);
    if (o->repr)
        dc_add_method(cls, "__repr__", "__repr__", dc_repr, false);
    if (o->eq)
        dc_add_method(cls, "__eq__", "__eq__", dc_eq, false);
    if (o->order) {
        static const char *const names[] = {"__lt__", "__le__", "__gt__", "__ge__"};
        static const val_cfunc fns[] = {dc_lt, dc_le, dc_gt, dc_ge};
        for (int i = 0; i < 4; i++) {
            if (val_dict_get_str(ns, names[i]).kind != VAL_MISSING)
                return host_raise(h, HOST_EXC_TYPE, at, "Cannot overwrite attribute %s in "
                                  "class %s. Consider using functools.total_ordering",
                                  names[i], c->name);
            dc_add_method(cls, names[i], names[i], fns[i], true);
        }
    }
    if (o->frozen)
        dc_add_method(cls, "__setattr__", "__setattr__", dc_frozen_setattr, true);
    if (o->match_args && val_dict_get_str(ns, "__match_args__").kind == VAL_MISSING) {
        val names = val_list_new(4);
        pos = 0;
        while (val_dict_next(fields, &pos, &k, &v))
            if (dc_field_flag(v, "init") && !dc_field_flag(v, "kw_only"))
                val_list_push(names, val_ref(k));
        val t = val_tuple_of(val_as_seq(names)->len, val_as_seq(names)->items);
        val_as_seq(names)->len = 0;
        val_unref(names);
        val_dict_set_str(ns, "__match_args__", t);
    }
    return val_ref(cls);
}


/* What dataclass(...) with options returns: self holds the options (a
 * tuple of ints). */
BUILTIN_FN(dc_apply)
{
    if (!builtin_nargs(h, "dataclass", argc, kw, 1, 1, at))
        return val_err();
    const val *it = val_as_seq(self)->items;
    dc_opts o = {(int)it[0].u.i, (int)it[1].u.i, (int)it[2].u.i, (int)it[3].u.i,
                 (int)it[4].u.i, (int)it[5].u.i, (int)it[6].u.i};
    return dc_process(h, argv[0], &o, at);
}

BUILTIN_FN(dc_dataclass)
{
    (void)self;
    val a[11];
    if (!host_args(h, at, "dataclass", "cls=, *, init=, repr=, eq=, order=, unsafe_hash=, "
                   "frozen=, match_args=, kw_only=, slots=, weakref_slot=", argc, argv, kw, a))
        return val_err();
    dc_opts o;
    if (!dc_flag(h, a[1], true, at, &o.init) || !dc_flag(h, a[2], true, at, &o.repr) ||
        !dc_flag(h, a[3], true, at, &o.eq) || !dc_flag(h, a[4], false, at, &o.order) ||
        !dc_flag(h, a[6], false, at, &o.frozen) || !dc_flag(h, a[7], true, at, &o.match_args) ||
        !dc_flag(h, a[8], false, at, &o.kw_only))
        return val_err();
    int slots;
    if (!dc_flag(h, a[9], false, at, &slots))
        return val_err();
    if (slots)
        return host_raise(h, HOST_EXC_NOT_IMPLEMENTED, at, "@dataclass(slots=True) is not "
                          "supported by tritsim");
    if (o.order && !o.eq)
        return host_raise(h, HOST_EXC_VALUE, at, "ValueError: eq must be true if order is true");
    if (a[0].kind != VAL_MISSING && a[0].kind != VAL_NONE)
        return dc_process(h, a[0], &o, at);
    val opts[7] = {val_int(o.init), val_int(o.repr), val_int(o.eq), val_int(o.order),
                   val_int(o.frozen), val_int(o.kw_only), val_int(o.match_args)};
    return val_builtin_new("dataclass", dc_apply, val_tuple_of(7, opts));
}

/* ---- fields, asdict, astuple, replace, is_dataclass ------------------------------------------ */

static val dc_fields_dict(host *h, val x, src_span at)
{
    val cls = x.kind == VAL_CLASS ? val_ref(x) : host_getattr_opt(h, x, "__class__", at);
    val f = cls.kind == VAL_CLASS ? class_lookup(cls, "__dataclass_fields__") : val_missing();
    val_unref(cls);
    return f;
}

BUILTIN_FN(dc_is_dataclass)
{
    (void)self;
    if (!builtin_nargs(h, "is_dataclass", argc, kw, 1, 1, at))
        return val_err();
    return val_bool(argv[0].kind == VAL_CLASS || argv[0].kind == VAL_INSTANCE
                        ? dc_fields_dict(h, argv[0], at).kind == VAL_DICT
                        : false);
}

BUILTIN_FN(dc_fields)
{
    (void)self;
    if (!builtin_nargs(h, "fields", argc, kw, 1, 1, at))
        return val_err();
    val f = argv[0].kind == VAL_CLASS || argv[0].kind == VAL_INSTANCE
                ? dc_fields_dict(h, argv[0], at)
                : val_missing();
    if (f.kind != VAL_DICT)
        return host_raise(h, HOST_EXC_TYPE, at, "must be called with a dataclass type or "
                          "instance");
    val r = val_tuple_new(val_as_dict(f)->len);
    size_t pos = 0, i = 0;
    val k, v;
    while (val_dict_next(f, &pos, &k, &v))
        val_seq_set(r, i++, val_ref(v));
    return r;
}

/* asdict/astuple of one value, recursively: dataclass instances become
 * dicts (tuples), lists and tuples and dicts are rebuilt. */
static val dc_convert(host *h, val v, bool as_tuple, int depth, src_span at)
{
    if (depth > 200)
        return host_raise(h, HOST_EXC_RECURSION, at, "maximum recursion depth exceeded in "
                          "asdict()");
    if (v.kind == VAL_INSTANCE) {
        val f = dc_fields_dict(h, v, at);
        if (f.kind == VAL_DICT) {
            val out = as_tuple ? val_list_new(4) : val_dict_new();
            size_t pos = 0;
            val k, fv;
            while (val_dict_next(f, &pos, &k, &fv)) {
                val x = host_getattr(h, v, val_as_str(k)->s, at);
                val c = x.kind == VAL_ERR ? x : dc_convert(h, x, as_tuple, depth + 1, at);
                val_unref(x);
                if (c.kind == VAL_ERR) {
                    val_unref(out);
                    return c;
                }
                if (as_tuple)
                    val_list_push(out, c);
                else
                    val_dict_set(out, val_ref(k), c);
            }
            if (!as_tuple)
                return out;
            val t = val_tuple_of(val_as_seq(out)->len, val_as_seq(out)->items);
            val_as_seq(out)->len = 0;
            val_unref(out);
            return t;
        }
    }
    if (v.kind == VAL_LIST || v.kind == VAL_TUPLE) {
        const val_seq *s = val_as_seq(v);
        val out = val_list_new(s->len);
        for (size_t i = 0; i < s->len; i++) {
            val c = dc_convert(h, s->items[i], as_tuple, depth + 1, at);
            if (c.kind == VAL_ERR) {
                val_unref(out);
                return c;
            }
            val_list_push(out, c);
        }
        if (v.kind == VAL_LIST)
            return out;
        val t = val_tuple_of(val_as_seq(out)->len, val_as_seq(out)->items);
        val_as_seq(out)->len = 0;
        val_unref(out);
        return t;
    }
    if (v.kind == VAL_DICT) {
        val out = val_dict_new();
        size_t pos = 0;
        val k, x;
        while (val_dict_next(v, &pos, &k, &x)) {
            val ck = dc_convert(h, k, as_tuple, depth + 1, at);
            val cx = ck.kind == VAL_ERR ? ck : dc_convert(h, x, as_tuple, depth + 1, at);
            if (cx.kind == VAL_ERR) {
                val_unref(ck);
                val_unref(out);
                return cx;
            }
            val_dict_set(out, ck, cx);
        }
        return out;
    }
    return val_ref(v);
}

static val dc_as(host *h, int argc, const val *argv, const val_kwargs *kw, src_span at,
                 bool as_tuple)
{
    const char *fname = as_tuple ? "astuple" : "asdict";
    if (!builtin_nargs(h, fname, argc, kw, 1, 1, at))
        return val_err();
    if (argv[0].kind != VAL_INSTANCE || dc_fields_dict(h, argv[0], at).kind != VAL_DICT)
        return host_raise(h, HOST_EXC_TYPE, at, "%s() should be called on dataclass instances",
                          fname);
    return dc_convert(h, argv[0], as_tuple, 0, at);
}

BUILTIN_FN(dc_asdict)
{
    (void)self;
    return dc_as(h, argc, argv, kw, at, false);
}

BUILTIN_FN(dc_astuple)
{
    (void)self;
    return dc_as(h, argc, argv, kw, at, true);
}

BUILTIN_FN(dc_replace)
{
    (void)self;
    if (argc != 1)
        return host_raise(h, HOST_EXC_TYPE, at, "replace() takes 1 positional argument but %d "
                          "were given", argc);
    val obj = argv[0];
    val f = obj.kind == VAL_INSTANCE ? dc_fields_dict(h, obj, at) : val_missing();
    if (f.kind != VAL_DICT)
        return host_raise(h, HOST_EXC_TYPE, at, "replace() should be called on dataclass "
                          "instances");
    size_t n = val_as_dict(f)->len + (size_t)(kw ? kw->n : 0);
    const char **names = xmalloc((n ? n : 1) * sizeof *names);
    val *values = xmalloc((n ? n : 1) * sizeof *values);
    int m = 0;
    val r = val_err();
    for (int i = 0; kw && i < kw->n; i++) {
        val fi = val_dict_get_str(f, kw->names[i]);
        if (fi.kind != VAL_MISSING && !dc_field_flag(fi, "init")) {
            host_raise(h, HOST_EXC_VALUE, at, "ValueError: field %s is declared with init=False, "
                       "it cannot be specified with replace()", kw->names[i]);
            goto done;
        }
        names[m] = kw->names[i];
        values[m++] = val_ref(kw->values[i]);
    }
    size_t pos = 0;
    val k, fv;
    while (val_dict_next(f, &pos, &k, &fv)) {
        if (!dc_field_flag(fv, "init"))
            continue;
        bool given = false;
        for (int i = 0; kw && i < kw->n; i++)
            given = given || !strcmp(kw->names[i], val_as_str(k)->s);
        if (given)
            continue;
        val x = host_getattr(h, obj, val_as_str(k)->s, at);
        if (x.kind == VAL_ERR)
            goto done;
        names[m] = val_as_str(k)->s;
        values[m++] = x;
    }
    {
        val_kwargs all = {m, names, values};
        r = host_call_method(h, obj, "__class__", 0, NULL, &all, at);
    }
done:
    for (int i = 0; i < m; i++)
        val_unref(values[i]);
    free(names);
    free(values);
    return r;
}

void builtin_dataclasses_init(host *h)
{
    val m = val_module_new("dataclasses");
    host_register_module(h, "dataclasses", m);
    val miss = val_object_new(&dc_missing_type);
    val_object_set(m, "MISSING", miss);
    host_def(m, "dataclasses.dataclass", dc_dataclass);
    host_def(m, "dataclasses.field", dc_field);
    host_def(m, "dataclasses.fields", dc_fields);
    host_def(m, "dataclasses.asdict", dc_asdict);
    host_def(m, "dataclasses.astuple", dc_astuple);
    host_def(m, "dataclasses.replace", dc_replace);
    host_def(m, "dataclasses.is_dataclass", dc_is_dataclass);
    val fie = class_new("FrozenInstanceError", host_exc_class(h, HOST_EXC_ATTRIBUTE), true);
    val_object_set(fie, "__module__", val_str_cstr("dataclasses"));
    val_object_set(m, "FrozenInstanceError", fie);
    val ft = val_builtin_new("dataclasses.Field", dc_field, val_none());
    ((val_builtin *)ft.u.o)->inst_kind = VAL_OBJECT;
    ((val_builtin *)ft.u.o)->inst_type = &dc_field_type;
    val_object_set(m, "Field", ft);
}
