/* containers.c - the constructors list(), tuple(), dict(), range(),
 * slice() and the methods of list, tuple, dict (with its keys/values/items
 * views) and range. */
#include "builtins_impl.h"

#include <math.h>

/* ---- containers: list, tuple, dict, range, slice -------------------------------- */

BUILTIN_FN(builtin_list)
{
    (void)self;
    if (!builtin_nargs(h, "list", argc, kw, 0, 1, at))
        return val_err();
    return argc ? host_to_list(h, argv[0], at) : val_list_new(0);
}

BUILTIN_FN(builtin_tuple)
{
    (void)self;
    if (!builtin_nargs(h, "tuple", argc, kw, 0, 1, at))
        return val_err();
    if (argc == 0)
        return val_tuple_new(0);
    if (argv[0].kind == VAL_TUPLE)
        return val_ref(argv[0]);
    val l = host_to_list(h, argv[0], at);
    if (l.kind == VAL_ERR)
        return l;
    val_seq *s = val_as_seq(l);
    val t = val_tuple_of(s->len, s->items);
    s->len = 0;
    val_unref(l);
    return t;
}

/* Add the pairs of an iterable (or the entries of a dict) to d. */
static bool builtin_dict_merge(host *h, val d, val src, src_span at)
{
    if (src.kind == VAL_DICT) {
        size_t pos = 0;
        val k, v;
        while (val_dict_next(src, &pos, &k, &v))
            val_dict_set(d, val_ref(k), val_ref(v));
        return true;
    }
    val items = host_to_list(h, src, at);
    if (items.kind == VAL_ERR)
        return false;
    const val_seq *s = val_as_seq(items);
    for (size_t i = 0; i < s->len; i++) {
        val p = s->items[i];
        val pl = host_to_list(h, p, at);
        if (pl.kind == VAL_ERR) {
            val_unref(items);
            return false;
        }
        if (val_as_seq(pl)->len != 2) {
            host_raise(h, HOST_EXC_VALUE, at,
                       "dictionary update sequence element #%zu has length %zu; 2 is "
                       "required", i, val_as_seq(pl)->len);
            val_unref(pl);
            val_unref(items);
            return false;
        }
        val k = val_as_seq(pl)->items[0];
        if (!val_hashable(k)) {
            host_raise(h, HOST_EXC_TYPE, at, "unhashable type: '%s'", val_type_name(k));
            val_unref(pl);
            val_unref(items);
            return false;
        }
        val_dict_set(d, val_ref(k), val_ref(val_as_seq(pl)->items[1]));
        val_unref(pl);
    }
    val_unref(items);
    return true;
}

BUILTIN_FN(builtin_dict)
{
    (void)self;
    if (argc > 1)
        return host_raise(h, HOST_EXC_TYPE, at, "dict expected at most 1 argument, got %d", argc);
    val d = val_dict_new();
    if (argc == 1 && !builtin_dict_merge(h, d, argv[0], at)) {
        val_unref(d);
        return val_err();
    }
    for (int i = 0; kw && i < kw->n; i++)
        val_dict_set_str(d, kw->names[i], val_ref(kw->values[i]));
    return d;
}

BUILTIN_FN(builtin_range)
{
    (void)self;
    if (!builtin_nargs(h, "range", argc, kw, 1, 3, at))
        return val_err();
    int64_t v[3] = {0, 0, 1};
    for (int i = 0; i < argc; i++) {
        if (!builtin_is_int(argv[i]) && val_type_of(argv[i]) && argv[i].kind != VAL_DTYPE) {
            /* an object with __index__ (a 0-d integer tensor) */
            if (!host_to_int(h, argv[i], at, "range() argument", &v[i]))
                return val_err();
            continue;
        }
        if (!builtin_is_int(argv[i]))
            return host_raise(h, HOST_EXC_TYPE, at,
                              "'%s' object cannot be interpreted as an integer (range "
                              "needs ints%s)", val_type_name(argv[i]),
                              argv[i].kind == VAL_FLOAT ? ": convert with int(x) or use //"
                                                        : "");
        v[i] = builtin_int_of(argv[i]);
    }
    if (argc == 1) {
        v[1] = v[0];
        v[0] = 0;
    }
    if (v[2] == 0)
        return host_raise(h, HOST_EXC_VALUE, at, "range() arg 3 must not be zero");
    return val_range_new(v[0], v[1], v[2]);
}

BUILTIN_FN(builtin_slice)
{
    (void)self;
    if (!builtin_nargs(h, "slice", argc, kw, 1, 3, at))
        return val_err();
    if (argc == 1)
        return val_slice_new(val_none(), val_ref(argv[0]), val_none());
    return val_slice_new(val_ref(argv[0]), val_ref(argv[1]),
                         argc == 3 ? val_ref(argv[2]) : val_none());
}

/* ---- list methods ------------------------------------------------------------------------ */

BUILTIN_FN(builtin_list_append)
{
    if (!builtin_nargs(h, "append", argc, kw, 1, 1, at))
        return val_err();
    val_list_push(self, val_ref(argv[0]));
    return val_none();
}

BUILTIN_FN(builtin_list_extend)
{
    if (!builtin_nargs(h, "extend", argc, kw, 1, 1, at))
        return val_err();
    val items = host_to_list(h, argv[0], at);
    if (items.kind == VAL_ERR)
        return items;
    for (size_t i = 0; i < val_as_seq(items)->len; i++)
        val_list_push(self, val_ref(val_as_seq(items)->items[i]));
    val_unref(items);
    return val_none();
}

BUILTIN_FN(builtin_list_insert)
{
    int64_t i;
    if (!builtin_nargs(h, "insert", argc, kw, 2, 2, at) ||
        !host_to_int(h, argv[0], at, "insert() index", &i))
        return val_err();
    int64_t n = (int64_t)val_as_seq(self)->len;
    if (i < 0)
        i = i + n < 0 ? 0 : i + n;
    if (i > n)
        i = n;
    val_list_insert(self, (size_t)i, val_ref(argv[1]));
    return val_none();
}

BUILTIN_FN(builtin_list_pop)
{
    int64_t i = -1;
    if (!builtin_nargs(h, "pop", argc, kw, 0, 1, at) ||
        (argc == 1 && !host_to_int(h, argv[0], at, "pop() index", &i)))
        return val_err();
    int64_t n = (int64_t)val_as_seq(self)->len;
    if (n == 0)
        return host_raise(h, HOST_EXC_INDEX, at, "IndexError: pop from empty list");
    int64_t j = i < 0 ? i + n : i;
    if (j < 0 || j >= n)
        return host_raise(h, HOST_EXC_INDEX, at,
                          "IndexError: pop index %lld out of range (the list has %lld "
                          "items)", (long long)i, (long long)n);
    return val_list_remove(self, (size_t)j);
}

/* Index of the first item equal to x in s[lo..hi), or -1; -2 on error. */
static int64_t builtin_seq_find(host *h, const val_seq *s, val x, int64_t lo, int64_t hi,
                                src_span at)
{
    for (int64_t i = lo; i < hi && (size_t)i < s->len; i++) {
        val e = host_binop(h, AST_OP_EQ, s->items[i], x, at);
        int t = e.kind == VAL_ERR ? -1 : host_truth(h, e, at);
        val_unref(e);
        if (t < 0)
            return -2;
        if (t)
            return i;
    }
    return -1;
}

BUILTIN_FN(builtin_seq_index)
{
    if (!builtin_nargs(h, "index", argc, kw, 1, 3, at))
        return val_err();
    const val_seq *s = val_as_seq(self);
    int64_t n = (int64_t)s->len, lo = 0, hi = n;
    for (int k = 1; k < argc; k++) {
        int64_t v;
        if (!host_to_int(h, argv[k], at, "index() bound", &v))
            return val_err();
        if (v < 0)
            v = v + n < 0 ? 0 : v + n;
        if (k == 1)
            lo = v;
        else
            hi = v;
    }
    int64_t i = builtin_seq_find(h, s, argv[0], lo, hi, at);
    if (i == -2)
        return val_err();
    if (i < 0) {
        val r = host_repr(h, argv[0]);
        host_raise(h, HOST_EXC_VALUE, at, "ValueError: %s is not in %s", val_as_str(r)->s,
                   val_type_name(self));
        val_unref(r);
        return val_err();
    }
    return val_int(i);
}

BUILTIN_FN(builtin_seq_count)
{
    if (!builtin_nargs(h, "count", argc, kw, 1, 1, at))
        return val_err();
    const val_seq *s = val_as_seq(self);
    int64_t n = 0;
    for (size_t i = 0; i < s->len; i++) {
        val e = host_binop(h, AST_OP_EQ, s->items[i], argv[0], at);
        int t = e.kind == VAL_ERR ? -1 : host_truth(h, e, at);
        val_unref(e);
        if (t < 0)
            return val_err();
        n += t;
    }
    return val_int(n);
}

BUILTIN_FN(builtin_list_remove)
{
    if (!builtin_nargs(h, "remove", argc, kw, 1, 1, at))
        return val_err();
    const val_seq *s = val_as_seq(self);
    int64_t i = builtin_seq_find(h, s, argv[0], 0, (int64_t)s->len, at);
    if (i == -2)
        return val_err();
    if (i < 0) {
        val r = host_repr(h, argv[0]);
        host_raise(h, HOST_EXC_VALUE, at, "ValueError: list.remove(x): x not in list (x is %s)",
                   val_as_str(r)->s);
        val_unref(r);
        return val_err();
    }
    val_unref(val_list_remove(self, (size_t)i));
    return val_none();
}

BUILTIN_FN(builtin_list_sort)
{
    val a[2];
    if (!host_args(h, at, "sort", "*, key=, reverse=", argc, argv, kw, a))
        return val_err();
    int rev = 0;
    if (a[1].kind != VAL_MISSING && (rev = host_truth(h, a[1], at)) < 0)
        return val_err();
    return builtin_sort_list(h, self, a[0], rev, at) ? val_none() : val_err();
}

BUILTIN_FN(builtin_list_reverse)
{
    (void)argv;
    if (!builtin_nargs(h, "reverse", argc, kw, 0, 0, at))
        return val_err();
    val_seq *s = val_as_seq(self);
    for (size_t i = 0; i < s->len / 2; i++) {
        val t = s->items[i];
        s->items[i] = s->items[s->len - 1 - i];
        s->items[s->len - 1 - i] = t;
    }
    return val_none();
}

BUILTIN_FN(builtin_list_copy)
{
    (void)argv;
    if (!builtin_nargs(h, "copy", argc, kw, 0, 0, at))
        return val_err();
    return host_to_list(h, self, at);
}

BUILTIN_FN(builtin_list_clear)
{
    (void)argv;
    if (!builtin_nargs(h, "clear", argc, kw, 0, 0, at))
        return val_err();
    val_seq *s = val_as_seq(self);
    while (s->len)
        val_unref(val_list_remove(self, s->len - 1));
    return val_none();
}

/* ---- dict methods and views ------------------------------------------------------------- */

/* d.keys(), d.values(), d.items(): live views of the dict. */
typedef struct builtin_view {
    val_object o;
    val dict;
    int what;   /* 0 keys, 1 values, 2 items */
} builtin_view;

static const char *const builtin_view_names[] = {"dict_keys", "dict_values", "dict_items"};

static void builtin_view_free(val_obj *o)
{
    val_unref(((builtin_view *)o)->dict);
}

static val builtin_view_list(const builtin_view *v)
{
    val l = val_list_new(val_as_dict(v->dict)->len);
    size_t pos = 0;
    val k, x;
    while (val_dict_next(v->dict, &pos, &k, &x)) {
        if (v->what == 0)
            val_list_push(l, val_ref(k));
        else if (v->what == 1)
            val_list_push(l, val_ref(x));
        else {
            val p[2] = {val_ref(k), val_ref(x)};
            val_list_push(l, val_tuple_of(2, p));
        }
    }
    return l;
}

static val builtin_view_iter(host *h, val self, src_span at)
{
    (void)h;
    (void)at;
    return builtin_view_list((const builtin_view *)self.u.o);
}

static int64_t builtin_view_len(host *h, val self, src_span at)
{
    (void)h;
    (void)at;
    return (int64_t)val_as_dict(((const builtin_view *)self.u.o)->dict)->len;
}

static void builtin_view_repr(host *h, val self, strbuf *out)
{
    const builtin_view *v = (const builtin_view *)self.u.o;
    val l = builtin_view_list(v);
    strbuf_printf(out, "%s(", builtin_view_names[v->what]);
    val_print_repr(h, l, out);
    strbuf_putc(out, ')');
    val_unref(l);
}

static val builtin_view_binop(host *h, ast_op op, bool inplace, val a, val b, src_span at)
{
    (void)inplace;
    if (op != AST_OP_IN)
        return val_missing();
    const builtin_view *v = (const builtin_view *)b.u.o;
    if (v->what == 0) {
        if (!val_hashable(a))
            return host_raise(h, HOST_EXC_TYPE, at, "unhashable type: '%s'", val_type_name(a));
        return val_bool(val_dict_get(v->dict, a).kind != VAL_MISSING);
    }
    val l = builtin_view_list(v);
    val r = host_binop(h, AST_OP_IN, a, l, at);
    val_unref(l);
    return r;
}

static const val_type builtin_view_type = {
    .name = "dict_view",
    .binop = builtin_view_binop,
    .len = builtin_view_len,
    .iter = builtin_view_iter,
    .repr = builtin_view_repr,
    .free = builtin_view_free,
};

val builtin_view_new(val dict, int what)
{
    builtin_view *v = val_obj_new(sizeof *v, VAL_OBJECT, &builtin_view_type);
    v->dict = val_ref(dict);
    v->what = what;
    return val_of(v);
}

/* dict.keys(), .values() and .items(): no arguments, a live view. */
static val builtin_dict_view(host *h, val self, int argc, const val *argv,
                             const val_kwargs *kw, src_span at, const char *name, int what)
{
    (void)argv;
    if (!builtin_nargs(h, name, argc, kw, 0, 0, at))
        return val_err();
    return builtin_view_new(self, what);
}

HOST_CFUNC_CALLING(builtin_dict_keys, builtin_dict_view, "keys", 0)
HOST_CFUNC_CALLING(builtin_dict_values, builtin_dict_view, "values", 1)
HOST_CFUNC_CALLING(builtin_dict_items, builtin_dict_view, "items", 2)

static bool builtin_check_key(host *h, val k, src_span at)
{
    if (val_hashable(k))
        return true;
    host_raise(h, HOST_EXC_TYPE, at, "unhashable type: '%s'", val_type_name(k));
    return false;
}

BUILTIN_FN(builtin_dict_get)
{
    if (!builtin_nargs(h, "get", argc, kw, 1, 2, at) || !builtin_check_key(h, argv[0], at))
        return val_err();
    val v = val_dict_get(self, argv[0]);
    if (v.kind != VAL_MISSING)
        return val_ref(v);
    return argc == 2 ? val_ref(argv[1]) : val_none();
}

BUILTIN_FN(builtin_dict_pop)
{
    if (!builtin_nargs(h, "pop", argc, kw, 1, 2, at) || !builtin_check_key(h, argv[0], at))
        return val_err();
    val v = val_dict_pop(self, argv[0]);
    if (v.kind != VAL_MISSING)
        return v;
    if (argc == 2)
        return val_ref(argv[1]);
    val r = host_repr(h, argv[0]);
    host_raise(h, HOST_EXC_KEY, at, "KeyError: %s", val_as_str(r)->s);
    val_unref(r);
    return val_err();
}

BUILTIN_FN(builtin_dict_popitem)
{
    (void)argv;
    if (!builtin_nargs(h, "popitem", argc, kw, 0, 0, at))
        return val_err();
    val_dict *d = val_as_dict(self);
    for (size_t i = d->nentries; i-- > 0;) {
        if (d->entries[i].key.kind == VAL_MISSING)
            continue;
        val k = val_ref(d->entries[i].key);
        val v = val_dict_pop(self, k);
        val p[2] = {k, v};
        return val_tuple_of(2, p);
    }
    return host_raise(h, HOST_EXC_KEY, at, "KeyError: 'popitem(): dictionary is empty'");
}

BUILTIN_FN(builtin_dict_setdefault)
{
    if (!builtin_nargs(h, "setdefault", argc, kw, 1, 2, at) ||
        !builtin_check_key(h, argv[0], at))
        return val_err();
    val v = val_dict_get(self, argv[0]);
    if (v.kind != VAL_MISSING)
        return val_ref(v);
    val d = argc == 2 ? argv[1] : val_none();
    val_dict_set(self, val_ref(argv[0]), val_ref(d));
    return val_ref(d);
}

BUILTIN_FN(builtin_dict_update)
{
    if (argc > 1)
        return host_raise(h, HOST_EXC_TYPE, at, "update expected at most 1 argument, got %d", argc);
    if (argc == 1 && !builtin_dict_merge(h, self, argv[0], at))
        return val_err();
    for (int i = 0; kw && i < kw->n; i++)
        val_dict_set_str(self, kw->names[i], val_ref(kw->values[i]));
    return val_none();
}

BUILTIN_FN(builtin_dict_copy)
{
    (void)argv;
    if (!builtin_nargs(h, "copy", argc, kw, 0, 0, at))
        return val_err();
    val d = val_dict_new();
    size_t pos = 0;
    val k, v;
    while (val_dict_next(self, &pos, &k, &v))
        val_dict_set(d, val_ref(k), val_ref(v));
    return d;
}

BUILTIN_FN(builtin_dict_clear)
{
    (void)argv;
    if (!builtin_nargs(h, "clear", argc, kw, 0, 0, at))
        return val_err();
    val_dict_clear(self);
    return val_none();
}

/* ---- range methods ------------------------------------------------------------------- */

/* The position of x in range r, or -1. */
static int64_t builtin_range_find(const val_range *r, val x)
{
    int64_t i;
    if (builtin_is_int(x))
        i = builtin_int_of(x);
    else if (x.kind == VAL_FLOAT && x.u.f == trunc(x.u.f) && fabs(x.u.f) < 9.2e18)
        i = (int64_t)x.u.f;
    else
        return -1;
    if (r->step > 0 ? (i < r->start || i >= r->stop) : (i > r->start || i <= r->stop))
        return -1;
    uint64_t off = (uint64_t)i - (uint64_t)r->start;
    uint64_t st = r->step > 0 ? (uint64_t)r->step : -(uint64_t)r->step;
    if (r->step < 0)
        off = -off;
    return off % st == 0 ? (int64_t)(off / st) : -1;
}

BUILTIN_FN(builtin_range_count)
{
    if (!builtin_nargs(h, "count", argc, kw, 1, 1, at))
        return val_err();
    return val_int(builtin_range_find((const val_range *)self.u.o, argv[0]) >= 0);
}

BUILTIN_FN(builtin_range_index)
{
    if (!builtin_nargs(h, "index", argc, kw, 1, 1, at))
        return val_err();
    int64_t i = builtin_range_find((const val_range *)self.u.o, argv[0]);
    if (i < 0) {
        val r = host_repr(h, argv[0]);
        host_raise(h, HOST_EXC_VALUE, at, "ValueError: %s is not in range", val_as_str(r)->s);
        val_unref(r);
        return val_err();
    }
    return val_int(i);
}

/* The type objects list, tuple, dict, range and slice (builtin_init calls
 * this where they come among the built-in names). */
void builtin_containers_init(host *h)
{
    builtin_type_new(h, "list", builtin_list, VAL_LIST, NULL);
    builtin_type_new(h, "tuple", builtin_tuple, VAL_TUPLE, NULL);
    builtin_type_new(h, "dict", builtin_dict, VAL_DICT, NULL);
    builtin_type_new(h, "range", builtin_range, VAL_RANGE, NULL);
    builtin_type_new(h, "slice", builtin_slice, VAL_SLICE, NULL);
}

/* ---- method tables (builtin_init hands them to the evaluator: h->types) --------------- */

#define M BUILTIN_METHOD

const host_method builtin_list_methods[] = {
    M(VAL_LIST, "list", append, builtin_list_append),
    M(VAL_LIST, "list", extend, builtin_list_extend),
    M(VAL_LIST, "list", insert, builtin_list_insert),
    M(VAL_LIST, "list", pop, builtin_list_pop),
    M(VAL_LIST, "list", index, builtin_seq_index),
    M(VAL_LIST, "list", count, builtin_seq_count),
    M(VAL_LIST, "list", remove, builtin_list_remove),
    M(VAL_LIST, "list", sort, builtin_list_sort),
    M(VAL_LIST, "list", reverse, builtin_list_reverse),
    M(VAL_LIST, "list", copy, builtin_list_copy),
    M(VAL_LIST, "list", clear, builtin_list_clear),
    {NULL, NULL, NULL, VAL_ERR},
};

const host_method builtin_tuple_methods[] = {
    M(VAL_TUPLE, "tuple", index, builtin_seq_index),
    M(VAL_TUPLE, "tuple", count, builtin_seq_count),
    {NULL, NULL, NULL, VAL_ERR},
};

const host_method builtin_dict_methods[] = {
    M(VAL_DICT, "dict", get, builtin_dict_get),
    M(VAL_DICT, "dict", items, builtin_dict_items),
    M(VAL_DICT, "dict", keys, builtin_dict_keys),
    M(VAL_DICT, "dict", values, builtin_dict_values),
    M(VAL_DICT, "dict", pop, builtin_dict_pop),
    M(VAL_DICT, "dict", popitem, builtin_dict_popitem),
    M(VAL_DICT, "dict", update, builtin_dict_update),
    M(VAL_DICT, "dict", setdefault, builtin_dict_setdefault),
    M(VAL_DICT, "dict", copy, builtin_dict_copy),
    M(VAL_DICT, "dict", clear, builtin_dict_clear),
    {NULL, NULL, NULL, VAL_ERR},
};

const host_method builtin_range_methods[] = {
    M(VAL_RANGE, "range", count, builtin_range_count),
    M(VAL_RANGE, "range", index, builtin_range_index),
    {NULL, NULL, NULL, VAL_ERR},
};

#undef M
