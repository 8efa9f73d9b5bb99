/* builtins.c - Python's built-in functions (print, len, isinstance,
 * type, sorted, min, sum, zip, abs, round, chr, ...), type objects (str,
 * bool and type here; numbers.c and containers.c make int, float, list,
 * ...), and builtin_init, which fills h->builtins and hands the evaluator
 * the built-in types' method tables (from str.c, containers.c, numbers.c)
 * and str % args (strformat.c) through h->types (host.h says why).
 *
 * The built-ins are split by responsibility, one file each: this file;
 * str.c, strformat.c, containers.c, numbers.c (the built-in types);
 * mathmod.c, functoolsmod.c, itertoolsmod.c, osmod.c, sysmod.c (sys and
 * time), typingmod.c, randommod.c (the standard modules).  They share
 * builtins_impl.h and the prefix builtin_.
 *
 * Where Python is lazy (map, filter, zip, generator expressions) these
 * compute their items up front and hand out an iterator over them; the
 * results are the same unless the functions involved print. */
#include "builtins_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pyformat.h"

/* ---- helpers the built-ins' files share (builtins_impl.h) --------------------------- */

bool builtin_no_kwargs(host *h, const char *fname, const val_kwargs *kw, src_span at)
{
    if (!kw || kw->n == 0)
        return true;
    host_raise(h, HOST_EXC_TYPE, at,
               "%s() takes no keyword arguments (got '%s')", fname, kw->names[0]);
    return false;
}

/* Check the number of positional arguments of fname (no keywords). */
bool builtin_nargs(host *h, const char *fname, int argc, const val_kwargs *kw,
                   int min, int max, src_span at)
{
    if (!builtin_no_kwargs(h, fname, kw, at))
        return false;
    if (argc >= min && argc <= max)
        return true;
    if (min == max)
        host_raise(h, HOST_EXC_TYPE, at, "%s() takes exactly %d argument%s (%d given)", fname, min,
                   min == 1 ? "" : "s", argc);
    else if (argc < min)
        host_raise(h, HOST_EXC_TYPE, at, "%s() takes at least %d argument%s (%d given)", fname, min,
                   min == 1 ? "" : "s", argc);
    else
        host_raise(h, HOST_EXC_TYPE, at, "%s() takes at most %d argument%s (%d given)", fname, max,
                   max == 1 ? "" : "s", argc);
    return false;
}

/* Call obj.__name__() if obj's type provides it: how abs(), int(),
 * float() and round() reach objects such as tensors. */
val builtin_dunder(host *h, val obj, const char *name, int argc, const val *argv,
                   src_span at)
{
    if (!val_type_of(obj))
        return val_missing();
    val m = host_getattr_opt(h, obj, name, at);
    if (m.kind == VAL_MISSING || m.kind == VAL_ERR)
        return m;
    val r = host_call(h, m, argc, argv, NULL, at);
    val_unref(m);
    return r;
}

/* ---- type objects ---------------------------------------------------------------- */

val builtin_type_new(host *h, const char *name, val_cfunc fn, val_kind kind,
                     const val_type *type)
{
    val t = val_builtin_new(name, fn, val_none());
    ((val_builtin *)t.u.o)->inst_kind = kind;
    ((val_builtin *)t.u.o)->inst_type = type;
    val_dict_set_str(h->builtins, name, t);
    return t;
}

BUILTIN_FN(builtin_no_ctor)
{
    UNUSED_ARGS;
    return host_raise(h, HOST_EXC_TYPE, at, "cannot create objects of this type directly");
}

/* What type(v) returns: the built-in type object (int, str, ...) or, for
 * objects, a type object made from their val_type (a new reference). */
static val builtin_type_of(host *h, val v)
{
    const char *name = NULL;
    switch (v.kind) {
    case VAL_NONE: {
        val t = val_builtin_new("NoneType", builtin_no_ctor, val_none());
        ((val_builtin *)t.u.o)->inst_kind = VAL_NONE;
        return t;
    }
    case VAL_BOOL: name = "bool"; break;
    case VAL_INT: name = "int"; break;
    case VAL_FLOAT: name = "float"; break;
    case VAL_STR: name = "str"; break;
    case VAL_TUPLE: name = "tuple"; break;
    case VAL_LIST: name = "list"; break;
    case VAL_DICT: name = "dict"; break;
    case VAL_RANGE: name = "range"; break;
    case VAL_SLICE: name = "slice"; break;
    default: break;
    }
    if (name)
        return val_ref(val_dict_get_str(h->builtins, name));
    if (v.kind == VAL_INSTANCE)
        return val_ref(((const val_instance *)v.u.o)->cls);
    if (v.kind == VAL_CLASS)
        return val_ref(val_dict_get_str(h->builtins, "type"));
    /* A type object made on the fly (compared by what it describes). */
    const val_type *t = val_type_of(v);
    val r = val_builtin_new(val_type_name(v), builtin_no_ctor, val_none());
    ((val_builtin *)r.u.o)->inst_kind = v.kind;
    ((val_builtin *)r.u.o)->inst_type = t;
    return r;
}

/* Does v belong to type object t? */
static bool builtin_isinstance1(val v, const val_builtin *t)
{
    if (t->inst_kind == VAL_BUILTIN && v.kind == VAL_CLASS)
        return true;   /* a class is a type */
    if (t->inst_kind == VAL_INT && v.kind == VAL_BOOL)
        return true;   /* bool is a subclass of int */
    if (t->inst_kind != v.kind)
        return false;
    return !t->inst_type || t->inst_type == val_type_of(v);
}

/* Is v an instance of class cls (every value is an object)? */
static bool builtin_isinstance_class(host *h, val v, val cls)
{
    if (val_is_heap(cls) && cls.u.o == val_dict_get_str(h->builtins, "object").u.o)
        return true;
    return v.kind == VAL_INSTANCE && class_is_subclass(((const val_instance *)v.u.o)->cls, cls);
}

BUILTIN_FN(builtin_isinstance)
{
    (void)self;
    if (!builtin_nargs(h, "isinstance", argc, kw, 2, 2, at))
        return val_err();
    val t = argv[1];
    const val_type *tt = val_type_of(t);
    if (tt && tt->instancecheck)
        return val_bool(tt->instancecheck(t, argv[0]));
    if (t.kind == VAL_TUPLE) {
        const val_seq *s = val_as_seq(t);
        for (size_t i = 0; i < s->len; i++) {
            val x = s->items[i];
            const val_type *xt = val_type_of(x);
            if (xt && xt->instancecheck) {
                if (xt->instancecheck(x, argv[0]))
                    return val_bool(true);
                continue;
            }
            if (x.kind == VAL_CLASS) {
                if (builtin_isinstance_class(h, argv[0], x))
                    return val_bool(true);
                continue;
            }
            if (x.kind != VAL_BUILTIN || ((const val_builtin *)x.u.o)->inst_kind == VAL_ERR)
                return host_raise(h, HOST_EXC_TYPE, at, "isinstance() arg 2 must be a type or "
                                  "a tuple of types, not a tuple holding a '%s'",
                                  val_type_name(x));
            if (builtin_isinstance1(argv[0], (const val_builtin *)x.u.o))
                return val_bool(true);
        }
        return val_bool(false);
    }
    if (t.kind == VAL_CLASS)
        return val_bool(builtin_isinstance_class(h, argv[0], t));
    if (t.kind != VAL_BUILTIN || ((const val_builtin *)t.u.o)->inst_kind == VAL_ERR)
        return host_raise(h, HOST_EXC_TYPE, at, "isinstance() arg 2 must be a type or a tuple "
                          "of types, not '%s'", val_type_name(t));
    return val_bool(builtin_isinstance1(argv[0], (const val_builtin *)t.u.o));
}

BUILTIN_FN(builtin_type)
{
    (void)self;
    if (!builtin_nargs(h, "type", argc, kw, 1, 1, at))
        return val_err();
    return builtin_type_of(h, argv[0]);
}

/* ---- str, repr, bool, format ----------------------------------------------------------- */

BUILTIN_FN(builtin_str)
{
    (void)self;
    if (!builtin_nargs(h, "str", argc, kw, 0, 1, at))
        return val_err();
    return argc ? host_str(h, argv[0]) : val_str_cstr("");
}

BUILTIN_FN(builtin_repr)
{
    (void)self;
    if (!builtin_nargs(h, "repr", argc, kw, 1, 1, at))
        return val_err();
    return host_repr(h, argv[0]);
}

BUILTIN_FN(builtin_bool)
{
    (void)self;
    if (!builtin_nargs(h, "bool", argc, kw, 0, 1, at))
        return val_err();
    if (argc == 0)
        return val_bool(false);
    int t = host_truth(h, argv[0], at);
    return t < 0 ? val_err() : val_bool(t);
}

BUILTIN_FN(builtin_format)
{
    (void)self;
    if (!builtin_nargs(h, "format", argc, kw, 1, 2, at))
        return val_err();
    const char *spec = "";
    size_t len = 0;
    if (argc == 2) {
        if (!host_to_str(h, argv[1], at, "format() argument 2", &spec))
            return val_err();
        len = val_as_str(argv[1])->len;
    }
    return host_format(h, argv[0], spec, len, at);
}

/* ---- print and friends ------------------------------------------------------------ */

/* sys.stdout and sys.stderr. */
typedef struct builtin_file {
    val_object o;
    FILE *fp;
    const char *name;
} builtin_file;

static void builtin_file_repr(host *h, val self, strbuf *out)
{
    (void)h;
    strbuf_printf(out, "<_io.TextIOWrapper name='<%s>' mode='w' encoding='utf-8'>",
                  ((const builtin_file *)self.u.o)->name);
}

static val builtin_file_getattr(host *h, val self, const char *name, src_span at);

static const val_type builtin_file_type = {
    .name = "TextIOWrapper",
    .getattr = builtin_file_getattr,
    .repr = builtin_file_repr,
};

/* A file object writing to fp (sys.stdout, sys.stderr). */
val builtin_file_new(FILE *fp, const char *name)
{
    builtin_file *f = val_obj_new(sizeof *f, VAL_OBJECT, &builtin_file_type);
    f->fp = fp;
    f->name = name;
    return val_of(f);
}

static void builtin_write(FILE *fp, const char *s, size_t n)
{
    if (fp == stderr)
        fflush(stdout);   /* keep stdout and stderr in program order */
    fwrite(s, 1, n, fp);
}

BUILTIN_FN(builtin_file_write)
{
    const char *s;
    if (!builtin_nargs(h, "write", argc, kw, 1, 1, at) ||
        !host_to_str(h, argv[0], at, "write() argument", &s))
        return val_err();
    builtin_write(((builtin_file *)self.u.o)->fp, s, val_as_str(argv[0])->len);
    return val_int((int64_t)val_str_chars(val_as_str(argv[0])));
}

BUILTIN_FN(builtin_file_flush)
{
    (void)argc; (void)argv; (void)kw; (void)h; (void)at;
    fflush(((builtin_file *)self.u.o)->fp);
    return val_none();
}

static val builtin_file_getattr(host *h, val self, const char *name, src_span at)
{
    (void)h;
    (void)at;
    if (!strcmp(name, "write"))
        return val_builtin_new("TextIOWrapper.write", builtin_file_write, val_ref(self));
    if (!strcmp(name, "flush"))
        return val_builtin_new("TextIOWrapper.flush", builtin_file_flush, val_ref(self));
    return val_missing();
}

BUILTIN_FN(builtin_print)
{
    (void)self;
    val o[4];
    if (!host_args(h, at, "print", "*, sep=, end=, file=, flush=", 0, NULL, kw, o))
        return val_err();
    const char *sep = " ", *end = "\n";
    size_t seplen = 1, endlen = 1;
    if (o[0].kind != VAL_MISSING && o[0].kind != VAL_NONE) {
        if (!host_to_str(h, o[0], at, "print() sep", &sep))
            return val_err();
        seplen = val_as_str(o[0])->len;
    }
    if (o[1].kind != VAL_MISSING && o[1].kind != VAL_NONE) {
        if (!host_to_str(h, o[1], at, "print() end", &end))
            return val_err();
        endlen = val_as_str(o[1])->len;
    }
    FILE *fp = stdout;
    val file = o[2];
    if (file.kind != VAL_MISSING && file.kind != VAL_NONE) {
        if (file.kind != VAL_OBJECT || file.u.o->type != &builtin_file_type)
            return host_raise(h, HOST_EXC_TYPE, at,
                              "print() file= must be sys.stdout or sys.stderr in "
                              "tritsim, not a '%s'", val_type_name(file));
        fp = ((builtin_file *)file.u.o)->fp;
    }
    strbuf b = {0};
    for (int i = 0; i < argc; i++) {
        if (i)
            strbuf_putn(&b, sep, seplen);
        val_print_str(h, argv[i], &b);
    }
    if (host_exc_pending(h)) {   /* a __str__ or __repr__ raised */
        strbuf_free(&b);
        return val_err();
    }
    strbuf_putn(&b, end, endlen);
    builtin_write(fp, strbuf_cstr(&b), b.len);
    strbuf_free(&b);
    if (o[3].kind != VAL_MISSING) {
        int t = host_truth(h, o[3], at);
        if (t < 0)
            return val_err();
        if (t)
            fflush(fp);
    }
    return val_none();
}

BUILTIN_FN(builtin_len)
{
    (void)self;
    if (!builtin_nargs(h, "len", argc, kw, 1, 1, at))
        return val_err();
    int64_t n = host_len(h, argv[0], at);
    return n < 0 ? val_err() : val_int(n);
}

BUILTIN_FN(builtin_callable)
{
    (void)self;
    if (!builtin_nargs(h, "callable", argc, kw, 1, 1, at))
        return val_err();
    val v = argv[0];
    const val_type *t = val_type_of(v);
    return val_bool(v.kind == VAL_FUNC || v.kind == VAL_BUILTIN || (t && t->call));
}

BUILTIN_FN(builtin_hasattr)
{
    (void)self;
    const char *name;
    if (!builtin_nargs(h, "hasattr", argc, kw, 2, 2, at) ||
        !host_to_str(h, argv[1], at, "hasattr() attribute name", &name))
        return val_err();
    val v = host_getattr_opt(h, argv[0], name, at);
    if (v.kind == VAL_ERR && host_exc_is(h, h->exc, HOST_EXC_ATTRIBUTE)) {
        val_unref(host_exc_take(h));   /* as Python: an AttributeError means no */
        v = val_missing();
    }
    if (v.kind == VAL_ERR)
        return v;
    bool has = v.kind != VAL_MISSING;
    val_unref(v);
    return val_bool(has);
}

BUILTIN_FN(builtin_getattr)
{
    (void)self;
    const char *name;
    if (!builtin_nargs(h, "getattr", argc, kw, 2, 3, at) ||
        !host_to_str(h, argv[1], at, "getattr() attribute name", &name))
        return val_err();
    if (argc == 2)
        return host_getattr(h, argv[0], name, at);
    val v = host_getattr_opt(h, argv[0], name, at);
    if (v.kind == VAL_ERR && host_exc_is(h, h->exc, HOST_EXC_ATTRIBUTE)) {
        val_unref(host_exc_take(h));
        v = val_missing();
    }
    return v.kind == VAL_MISSING ? val_ref(argv[2]) : v;
}

BUILTIN_FN(builtin_setattr)
{
    (void)self;
    const char *name;
    if (!builtin_nargs(h, "setattr", argc, kw, 3, 3, at) ||
        !host_to_str(h, argv[1], at, "setattr() attribute name", &name))
        return val_err();
    return host_setattr(h, argv[0], name, argv[2], at) ? val_none() : val_err();
}

/* eval(expression): a string, evaluated in the caller's scope.  The
 * globals and locals arguments are not supported. */
BUILTIN_FN(builtin_eval)
{
    (void)self;
    if (!builtin_nargs(h, "eval", argc, kw, 1, 1, at))
        return val_err();
    if (argv[0].kind != VAL_STR)
        return host_raise(h, HOST_EXC_TYPE, at, "eval() arg 1 must be a string, not %s "
                          "(tritsim evaluates only source text)", val_type_name(argv[0]));
    const val_str *s = val_as_str(argv[0]);
    return host_eval_string(h, s->s, s->len, at);
}

BUILTIN_FN(builtin_not_supported)
{
    UNUSED_ARGS;
    return host_raise(h, HOST_EXC_NOT_IMPLEMENTED, at,
                      "this built-in function is not supported by tritsim (see "
                      "doc/language.md)");
}

/* set(iterable=()) and frozenset(iterable=()) */
static val builtin_make_set(host *h, int argc, const val *argv, const val_kwargs *kw,
                            src_span at, bool frozen)
{
    const char *name = frozen ? "frozenset" : "set";
    if (!builtin_nargs(h, name, argc, kw, 0, 1, at))
        return val_err();
    if (frozen && argc == 1 && argv[0].kind == VAL_OBJECT && argv[0].u.o->type == set_val_type(true))
        return val_ref(argv[0]);
    return set_from(h, argc ? argv[0] : val_missing(), frozen, at);
}

BUILTIN_FN(builtin_set)
{
    (void)self;
    return builtin_make_set(h, argc, argv, kw, at, false);
}

BUILTIN_FN(builtin_frozenset)
{
    (void)self;
    return builtin_make_set(h, argc, argv, kw, at, true);
}

/* ---- iteration ---------------------------------------------------------------------- */

/* list(v) for an argument of fname (the error names the function). */
static val builtin_items(host *h, val v, src_span at)
{
    return host_to_list(h, v, at);
}

BUILTIN_FN(builtin_enumerate)
{
    (void)self;
    val a[2];
    if (!host_args(h, at, "enumerate", "iterable, start=", argc, argv, kw, a))
        return val_err();
    int64_t start = 0;
    if (a[1].kind != VAL_MISSING && !host_to_int(h, a[1], at, "enumerate() start", &start))
        return val_err();
    val items = builtin_items(h, a[0], at);
    if (items.kind == VAL_ERR)
        return items;
    val_seq *s = val_as_seq(items);
    val out = val_list_new(s->len);
    for (size_t i = 0; i < s->len; i++) {
        val pair[2] = {val_int(start + (int64_t)i), val_ref(s->items[i])};
        val_list_push(out, val_tuple_of(2, pair));
    }
    val_unref(items);
    return host_iterator_new(out, "enumerate");
}

BUILTIN_FN(builtin_zip)
{
    (void)self;
    val o[1];
    if (!host_args(h, at, "zip", "*, strict=", 0, NULL, kw, o))
        return val_err();
    int strict = 0;
    if (o[0].kind != VAL_MISSING && (strict = host_truth(h, o[0], at)) < 0)
        return val_err();
    val *lists = xmalloc((size_t)(argc ? argc : 1) * sizeof *lists);
    size_t n = SIZE_MAX;
    int got = 0;
    val out = val_err();
    for (; got < argc; got++) {
        lists[got] = builtin_items(h, argv[got], at);
        if (lists[got].kind == VAL_ERR)
            goto done;
        size_t len = val_as_seq(lists[got])->len;
        if (strict && got > 0 && len != n) {
            host_raise(h, HOST_EXC_VALUE, at,
                       "zip() argument %d has length %zu, not %zu (strict=True)",
                       got + 1, len, n);
            val_unref(lists[got]);
            goto done;
        }
        if (len < n)
            n = len;
    }
    if (argc == 0)
        n = 0;
    out = val_list_new(n);
    for (size_t i = 0; i < n; i++) {
        val t = val_tuple_new((size_t)argc);
        for (int k = 0; k < argc; k++)
            val_seq_set(t, (size_t)k, val_ref(val_as_seq(lists[k])->items[i]));
        val_list_push(out, t);
    }
    out = host_iterator_new(out, "zip");
done:
    for (int k = 0; k < got; k++)
        val_unref(lists[k]);
    free(lists);
    return out;
}

BUILTIN_FN(builtin_map)
{
    (void)self;
    if (!builtin_no_kwargs(h, "map", kw, at))
        return val_err();
    if (argc < 2)
        return host_raise(h, HOST_EXC_TYPE, at,
                          "map() must have at least two arguments: a function and an "
                          "iterable");
    int nl = argc - 1;
    val *lists = xmalloc((size_t)nl * sizeof *lists);
    val *args = xmalloc((size_t)nl * sizeof *args);
    size_t n = SIZE_MAX;
    int got = 0;
    val out = val_err();
    for (; got < nl; got++) {
        lists[got] = builtin_items(h, argv[got + 1], at);
        if (lists[got].kind == VAL_ERR)
            goto done;
        if (val_as_seq(lists[got])->len < n)
            n = val_as_seq(lists[got])->len;
    }
    out = val_list_new(n);
    for (size_t i = 0; i < n; i++) {
        for (int k = 0; k < nl; k++)
            args[k] = val_as_seq(lists[k])->items[i];
        val r = host_call(h, argv[0], nl, args, NULL, at);
        if (r.kind == VAL_ERR) {
            val_unref(out);
            out = r;
            goto done;
        }
        val_list_push(out, r);
    }
    out = host_iterator_new(out, "map");
done:
    for (int k = 0; k < got; k++)
        val_unref(lists[k]);
    free(lists);
    free(args);
    return out;
}

BUILTIN_FN(builtin_filter)
{
    (void)self;
    if (!builtin_nargs(h, "filter", argc, kw, 2, 2, at))
        return val_err();
    val items = builtin_items(h, argv[1], at);
    if (items.kind == VAL_ERR)
        return items;
    val out = val_list_new(0);
    const val_seq *s = val_as_seq(items);
    for (size_t i = 0; i < s->len; i++) {
        val t = argv[0].kind == VAL_NONE ? val_ref(s->items[i])
                                         : host_call(h, argv[0], 1, &s->items[i], NULL, at);
        int keep = t.kind == VAL_ERR ? -1 : host_truth(h, t, at);
        val_unref(t);
        if (keep < 0) {
            val_unref(out);
            val_unref(items);
            return val_err();
        }
        if (keep)
            val_list_push(out, val_ref(s->items[i]));
    }
    val_unref(items);
    return host_iterator_new(out, "filter");
}

BUILTIN_FN(builtin_reversed)
{
    (void)self;
    if (!builtin_nargs(h, "reversed", argc, kw, 1, 1, at))
        return val_err();
    val v = argv[0];
    if (v.kind != VAL_LIST && v.kind != VAL_TUPLE && v.kind != VAL_STR && v.kind != VAL_RANGE &&
        v.kind != VAL_DICT && !val_type_of(v))
        return host_raise(h, HOST_EXC_TYPE, at, "'%s' object is not reversible", val_type_name(v));
    val items = builtin_items(h, v, at);
    if (items.kind == VAL_ERR)
        return items;
    val_seq *s = val_as_seq(items);
    for (size_t i = 0; i < s->len / 2; i++) {
        val t = s->items[i];
        s->items[i] = s->items[s->len - 1 - i];
        s->items[s->len - 1 - i] = t;
    }
    return host_iterator_new(items, v.kind == VAL_LIST ? "list_reverseiterator"
                                    : v.kind == VAL_RANGE ? "range_iterator" : "reversed");
}

/* Stable merge sort of items by keys (a < b through host_less); with
 * reverse, b < a decides, which keeps equal items in their order as
 * Python's sort does. */
static bool builtin_merge_sort(host *h, val *items, val *keys, size_t n, bool reverse,
                               src_span at)
{
    if (n < 2)
        return true;
    val *ti = xmalloc(n * sizeof *ti), *tk = xmalloc(n * sizeof *tk);
    bool ok = true;
    for (size_t width = 1; ok && width < n; width *= 2) {
        for (size_t lo = 0; ok && lo < n; lo += 2 * width) {
            size_t mid = lo + width < n ? lo + width : n;
            size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) {
                /* take from the right only when it is strictly first */
                int lt = reverse ? host_less(h, keys[i], keys[j], at)
                                 : host_less(h, keys[j], keys[i], at);
                if (lt < 0) {
                    ok = false;
                    break;
                }
                if (lt) {
                    ti[k] = items[j];
                    tk[k++] = keys[j++];
                } else {
                    ti[k] = items[i];
                    tk[k++] = keys[i++];
                }
            }
            if (!ok)
                break;
            while (i < mid) {
                ti[k] = items[i];
                tk[k++] = keys[i++];
            }
            while (j < hi) {
                ti[k] = items[j];
                tk[k++] = keys[j++];
            }
            memcpy(items + lo, ti + lo, (hi - lo) * sizeof *items);
            memcpy(keys + lo, tk + lo, (hi - lo) * sizeof *keys);
        }
    }
    free(ti);
    free(tk);
    return ok;
}

/* Sort list in place (list.sort and sorted). */
bool builtin_sort_list(host *h, val list, val key, bool reverse, src_span at)
{
    val_seq *s = val_as_seq(list);
    size_t n = s->len;
    val *keys = xmalloc((n ? n : 1) * sizeof *keys);
    /* Sort a private copy so a key function that changes the list cannot
     * pull items from under the sort. */
    val *items = xmalloc((n ? n : 1) * sizeof *items);
    memcpy(items, s->items, n * sizeof *items);
    bool ok = true;
    size_t nk = 0;
    for (; nk < n; nk++) {
        if (key.kind == VAL_MISSING || key.kind == VAL_NONE) {
            keys[nk] = val_ref(items[nk]);
            continue;
        }
        keys[nk] = host_call(h, key, 1, &items[nk], NULL, at);
        if (keys[nk].kind == VAL_ERR) {
            ok = false;
            break;
        }
    }
    if (ok)
        ok = builtin_merge_sort(h, items, keys, n, reverse, at);
    if (ok && s->len == n)
        memcpy(s->items, items, n * sizeof *items);
    else if (ok)
        ok = host_raise(h, HOST_EXC_VALUE, at,
                        "the list changed size while it was being sorted").kind != VAL_ERR;
    for (size_t i = 0; i < nk; i++)
        val_unref(keys[i]);
    free(keys);
    free(items);
    return ok;
}

BUILTIN_FN(builtin_sorted)
{
    (void)self;
    val a[3];
    if (!host_args(h, at, "sorted", "iterable, *, key=, reverse=", argc, argv, kw, a))
        return val_err();
    int rev = 0;
    if (a[2].kind != VAL_MISSING && (rev = host_truth(h, a[2], at)) < 0)
        return val_err();
    val l = host_to_list(h, a[0], at);
    if (l.kind == VAL_ERR)
        return l;
    if (!builtin_sort_list(h, l, a[1], rev, at)) {
        val_unref(l);
        return val_err();
    }
    return l;
}

static val builtin_minmax(host *h, val self, int argc, const val *argv,
                          const val_kwargs *kw, src_span at, bool is_max)
{
    (void)self;
    const char *name = is_max ? "max" : "min";
    val o[2];
    if (!host_args(h, at, name, "*, key=, default=", 0, NULL, kw, o))
        return val_err();
    if (argc == 0)
        return host_raise(h, HOST_EXC_TYPE, at, "%s expected at least 1 argument, got 0", name);
    val items;
    if (argc == 1) {
        items = host_to_list(h, argv[0], at);
        if (items.kind == VAL_ERR)
            return items;
    } else {
        if (o[1].kind != VAL_MISSING)
            return host_raise(h, HOST_EXC_TYPE, at,
                              "Cannot specify a default for %s() with multiple "
                              "positional arguments", name);
        items = val_list_new((size_t)argc);
        for (int i = 0; i < argc; i++)
            val_list_push(items, val_ref(argv[i]));
    }
    const val_seq *s = val_as_seq(items);
    if (s->len == 0) {
        val_unref(items);
        if (o[1].kind != VAL_MISSING)
            return val_ref(o[1]);
        return host_raise(h, HOST_EXC_VALUE, at,
                          "%s() arg is an empty sequence (pass default= to allow it)",
                          name);
    }
    bool keyed = o[0].kind != VAL_MISSING && o[0].kind != VAL_NONE;
    size_t best = 0;
    val bk = keyed ? host_call(h, o[0], 1, &s->items[0], NULL, at) : val_ref(s->items[0]);
    for (size_t i = 1; i < s->len && bk.kind != VAL_ERR; i++) {
        val k = keyed ? host_call(h, o[0], 1, &s->items[i], NULL, at) : val_ref(s->items[i]);
        if (k.kind == VAL_ERR) {
            val_unref(bk);
            bk = k;
            break;
        }
        int better = is_max ? host_less(h, bk, k, at) : host_less(h, k, bk, at);
        if (better < 0) {
            val_unref(k);
            val_unref(bk);
            bk = val_err();
            break;
        }
        if (better) {
            val_unref(bk);
            bk = k;
            best = i;
        } else {
            val_unref(k);
        }
    }
    val r = bk.kind == VAL_ERR ? bk : val_ref(s->items[best]);
    val_unref(bk);
    val_unref(items);
    return r;
}

HOST_CFUNC_CALLING(builtin_min, builtin_minmax, false)
HOST_CFUNC_CALLING(builtin_max, builtin_minmax, true)

/* sum() and math.prod(): acc (owned) op x for each x of iterable, left to
 * right, one operation at a time, as CPython 3.11 does. */
val builtin_fold(host *h, ast_op op, val acc, val iterable, src_span at)
{
    host_iter it;
    if (!host_iter_begin(h, iterable, at, &it)) {
        val_unref(acc);
        return val_err();
    }
    val x;
    int st;
    while ((st = host_iter_next(h, &it, &x)) > 0) {
        val r = host_binop(h, op, acc, x, at);
        val_unref(x);
        val_unref(acc);
        acc = r;
        if (r.kind == VAL_ERR)
            break;
    }
    host_iter_end(&it);
    if (st < 0) {
        val_unref(acc);
        return val_err();
    }
    return acc;
}

BUILTIN_FN(builtin_sum)
{
    (void)self;
    val a[2];
    if (!host_args(h, at, "sum", "iterable, start=", argc, argv, kw, a))
        return val_err();
    val acc = a[1].kind == VAL_MISSING ? val_int(0) : val_ref(a[1]);
    if (acc.kind == VAL_STR) {
        val_unref(acc);
        return host_raise(h, HOST_EXC_TYPE, at,
                          "sum() can't sum strings (use ''.join(seq) instead)");
    }
    return builtin_fold(h, AST_OP_ADD, acc, a[0], at);
}

static val builtin_anyall(host *h, val self, int argc, const val *argv,
                          const val_kwargs *kw, src_span at, bool is_any)
{
    (void)self;
    if (!builtin_nargs(h, is_any ? "any" : "all", argc, kw, 1, 1, at))
        return val_err();
    host_iter it;
    if (!host_iter_begin(h, argv[0], at, &it))
        return val_err();
    val x;
    int st;
    bool result = !is_any;
    while ((st = host_iter_next(h, &it, &x)) > 0) {
        int t = host_truth(h, x, at);
        val_unref(x);
        if (t < 0) {
            st = -1;
            break;
        }
        if (t == is_any) {
            result = is_any;
            break;
        }
    }
    host_iter_end(&it);
    return st < 0 ? val_err() : val_bool(result);
}

HOST_CFUNC_CALLING(builtin_any, builtin_anyall, true)
HOST_CFUNC_CALLING(builtin_all, builtin_anyall, false)

BUILTIN_FN(builtin_iter)
{
    (void)self;
    if (!builtin_nargs(h, "iter", argc, kw, 1, 1, at))
        return val_err();
    val v = argv[0];
    if (host_is_iterator(v))
        return val_ref(v);   /* an iterator is its own iterator */
    val items = host_to_list(h, v, at);
    if (items.kind == VAL_ERR)
        return items;
    return host_iterator_new(items, v.kind == VAL_LIST ? "list_iterator"
                                    : v.kind == VAL_TUPLE ? "tuple_iterator"
                                    : v.kind == VAL_STR ? "str_ascii_iterator"
                                    : v.kind == VAL_DICT ? "dict_keyiterator"
                                    : v.kind == VAL_RANGE ? "range_iterator" : "iterator");
}

BUILTIN_FN(builtin_next)
{
    (void)self;
    if (!builtin_nargs(h, "next", argc, kw, 1, 2, at))
        return val_err();
    val v = argv[0];
    if (!host_is_iterator(v))
        return host_raise(h, HOST_EXC_TYPE, at,
                          "'%s' object is not an iterator (call iter() on it first)",
                          val_type_name(v));
    const val_type *t = val_type_of(v);
    if (t && t->next && t->getattr) {
        /* a generator: its StopIteration carries its return value */
        val r = host_call_method(h, v, "__next__", 0, NULL, NULL, at);
        if (r.kind == VAL_ERR && argc == 2 && !h->exiting &&
            host_exc_is(h, h->exc, HOST_EXC_STOP_ITERATION)) {
            val_unref(host_exc_take(h));
            return val_ref(argv[1]);
        }
        return r;
    }
    host_iter it;
    if (!host_iter_begin(h, v, at, &it))
        return val_err();
    val x;
    int st = host_iter_next(h, &it, &x);
    host_iter_end(&it);
    if (st > 0)
        return x;
    if (st < 0)
        return val_err();
    if (argc == 2)
        return val_ref(argv[1]);
    return host_raise_args(h, HOST_EXC_STOP_ITERATION, val_tuple_new(0), at,
                           "StopIteration (the iterator is exhausted; pass a default: "
                           "next(it, None))");
}

/* ---- numbers ------------------------------------------------------------------------- */

BUILTIN_FN(builtin_abs)
{
    (void)self;
    if (!builtin_nargs(h, "abs", argc, kw, 1, 1, at))
        return val_err();
    val v = argv[0];
    if (builtin_is_int(v)) {
        int64_t i = builtin_int_of(v);
        if (i == INT64_MIN)
            return host_raise(h, HOST_EXC_OVERFLOW, at,
                              "integer overflow: tritsim's ints are 64-bit");
        return val_int(i < 0 ? -i : i);
    }
    if (v.kind == VAL_FLOAT)
        return val_float(fabs(v.u.f));
    val r = builtin_dunder(h, v, "__abs__", 0, NULL, at);
    if (r.kind != VAL_MISSING)
        return r;
    return host_raise(h, HOST_EXC_TYPE, at, "bad operand type for abs(): '%s'", val_type_name(v));
}

/* round(i, nd) for an int: to a multiple of 10^-nd, ties to even. */
static val builtin_round_int(host *h, int64_t i, int64_t nd, src_span at)
{
    if (nd >= 0)
        return val_int(i);
    if (nd < -18)
        return val_int(0);
    int64_t p = 1;
    for (int64_t k = 0; k < -nd; k++)
        p *= 10;
    int64_t q = i / p, r = i % p;
    if (r < 0) {
        r += p;
        q--;
    }
    /* i = q*p + r with 0 <= r < p */
    if (r * 2 > p || (r * 2 == p && (q & 1)))
        q++;
    int64_t out;
    if (__builtin_mul_overflow(q, p, &out))
        return host_raise(h, HOST_EXC_OVERFLOW, at, "integer overflow: tritsim's ints are 64-bit");
    return val_int(out);
}

BUILTIN_FN(builtin_round)
{
    (void)self;
    val a[2];
    if (!host_args(h, at, "round", "number, ndigits=", argc, argv, kw, a))
        return val_err();
    bool has_nd = a[1].kind != VAL_MISSING && a[1].kind != VAL_NONE;
    int64_t nd = 0;
    if (has_nd && !host_to_int(h, a[1], at, "round() ndigits", &nd))
        return val_err();
    val x = a[0];
    if (builtin_is_int(x))
        return builtin_round_int(h, builtin_int_of(x), nd, at);
    if (x.kind == VAL_FLOAT) {
        if (has_nd)
            return val_float(pyformat_round(x.u.f, nd));
        double r = nearbyint(x.u.f);   /* ties to even in the default mode */
        return builtin_float_to_int(h, r, at);
    }
    val r = has_nd ? builtin_dunder(h, x, "__round__", 1, &a[1], at)
                   : builtin_dunder(h, x, "__round__", 0, NULL, at);
    if (r.kind != VAL_MISSING)
        return r;
    return host_raise(h, HOST_EXC_TYPE, at,
                      "type %s doesn't define __round__ method", val_type_name(x));
}

BUILTIN_FN(builtin_divmod)
{
    (void)self;
    if (!builtin_nargs(h, "divmod", argc, kw, 2, 2, at))
        return val_err();
    val q = host_binop(h, AST_OP_FLOORDIV, argv[0], argv[1], at);
    if (q.kind == VAL_ERR)
        return q;
    val r = host_binop(h, AST_OP_MOD, argv[0], argv[1], at);
    if (r.kind == VAL_ERR) {
        val_unref(q);
        return r;
    }
    val t[2] = {q, r};
    return val_tuple_of(2, t);
}

BUILTIN_FN(builtin_pow)
{
    (void)self;
    val a[3];
    if (!host_args(h, at, "pow", "base, exp, mod=", argc, argv, kw, a))
        return val_err();
    if (a[2].kind == VAL_MISSING || a[2].kind == VAL_NONE)
        return host_binop(h, AST_OP_POW, a[0], a[1], at);
    if (!builtin_is_int(a[0]) || !builtin_is_int(a[1]) || !builtin_is_int(a[2]))
        return host_raise(h, HOST_EXC_TYPE, at,
                          "pow() 3rd argument not allowed unless all arguments are "
                          "integers");
    int64_t b = builtin_int_of(a[0]), e = builtin_int_of(a[1]), m = builtin_int_of(a[2]);
    if (m == 0)
        return host_raise(h, HOST_EXC_VALUE, at, "pow() 3rd argument cannot be 0");
    if (e < 0)
        return host_raise(h, HOST_EXC_NOT_IMPLEMENTED, at,
                          "pow() with a negative exponent and a modulus is not "
                          "supported by tritsim");
    __int128 r = 1, base = b % m;
    if (base < 0)
        base += m < 0 ? -m : m;
    for (; e; e >>= 1) {
        if (e & 1)
            r = r * base % m;
        base = base * base % m;
    }
    int64_t out = (int64_t)(r % m);
    if (out != 0 && ((out < 0) != (m < 0)))
        out += m;
    return val_int(out);
}

static val builtin_int_text(host *h, val self, int argc, const val *argv,
                            const val_kwargs *kw, src_span at, const char *fname, char type)
{
    (void)self;
    if (!builtin_nargs(h, fname, argc, kw, 1, 1, at))
        return val_err();
    if (!builtin_is_int(argv[0]))
        return host_raise(h, HOST_EXC_TYPE, at, "'%s' object cannot be interpreted as an integer",
                          val_type_name(argv[0]));
    pyformat_spec sp;
    char err[128];
    char spec[3] = {'#', type, 0};
    pyformat_parse_spec(spec, 2, "int", &sp, err, sizeof err);
    strbuf b = {0};
    pyformat_int(&b, builtin_int_of(argv[0]), &sp, err, sizeof err);
    return val_str_from_buf(&b);
}

HOST_CFUNC_CALLING(builtin_hex, builtin_int_text, "hex", 'x')
HOST_CFUNC_CALLING(builtin_oct, builtin_int_text, "oct", 'o')
HOST_CFUNC_CALLING(builtin_bin, builtin_int_text, "bin", 'b')

/* Append code point c as UTF-8. */
void builtin_put_utf8(strbuf *b, uint32_t c)
{
    if (c < 0x80) {
        strbuf_putc(b, (char)c);
    } else if (c < 0x800) {
        strbuf_putc(b, (char)(0xC0 | c >> 6));
        strbuf_putc(b, (char)(0x80 | (c & 0x3F)));
    } else if (c < 0x10000) {
        strbuf_putc(b, (char)(0xE0 | c >> 12));
        strbuf_putc(b, (char)(0x80 | ((c >> 6) & 0x3F)));
        strbuf_putc(b, (char)(0x80 | (c & 0x3F)));
    } else {
        strbuf_putc(b, (char)(0xF0 | c >> 18));
        strbuf_putc(b, (char)(0x80 | ((c >> 12) & 0x3F)));
        strbuf_putc(b, (char)(0x80 | ((c >> 6) & 0x3F)));
        strbuf_putc(b, (char)(0x80 | (c & 0x3F)));
    }
}

BUILTIN_FN(builtin_chr)
{
    (void)self;
    int64_t c;
    if (!builtin_nargs(h, "chr", argc, kw, 1, 1, at) ||
        !host_to_int(h, argv[0], at, "chr() argument", &c))
        return val_err();
    if (c < 0 || c > 0x10FFFF)
        return host_raise(h, HOST_EXC_OVERFLOW, at, "chr() arg not in range(0x110000)");
    strbuf b = {0};
    builtin_put_utf8(&b, (uint32_t)c);
    return val_str_from_buf(&b);
}

BUILTIN_FN(builtin_ord)
{
    (void)self;
    if (!builtin_nargs(h, "ord", argc, kw, 1, 1, at))
        return val_err();
    if (argv[0].kind != VAL_STR)
        return host_raise(h, HOST_EXC_TYPE, at, "ord() expected string of length 1, but %s found",
                          val_type_name(argv[0]));
    const val_str *s = val_as_str(argv[0]);
    size_t n = val_str_chars(s);
    if (n != 1)
        return host_raise(h, HOST_EXC_TYPE, at,
                          "ord() expected a character, but string of length %zu found",
                          n);
    const unsigned char *p = (const unsigned char *)s->s;
    uint32_t c = p[0];
    if (s->len == 1)
        return val_int(c);
    if (c >= 0xF0 && s->len >= 4)
        c = (c & 0x07) << 18 | (uint32_t)(p[1] & 0x3F) << 12 | (uint32_t)(p[2] & 0x3F) << 6 | (p[3] & 0x3F);
    else if (c >= 0xE0 && s->len >= 3)
        c = (c & 0x0F) << 12 | (uint32_t)(p[1] & 0x3F) << 6 | (p[2] & 0x3F);
    else if (c >= 0xC0 && s->len >= 2)
        c = (c & 0x1F) << 6 | (p[1] & 0x3F);
    return val_int(c);
}

/* ---- registration --------------------------------------------------------------------- */

void builtin_init(host *h)
{
    static const struct { const char *name; val_cfunc fn; } fns[] = {
        {"print", builtin_print}, {"len", builtin_len}, {"repr", builtin_repr},
        {"format", builtin_format}, {"isinstance", builtin_isinstance},
        {"enumerate", builtin_enumerate}, {"zip", builtin_zip}, {"map", builtin_map},
        {"filter", builtin_filter}, {"reversed", builtin_reversed},
        {"sorted", builtin_sorted}, {"min", builtin_min}, {"max", builtin_max},
        {"sum", builtin_sum}, {"any", builtin_any}, {"all", builtin_all},
        {"iter", builtin_iter}, {"next", builtin_next}, {"abs", builtin_abs},
        {"round", builtin_round}, {"divmod", builtin_divmod}, {"pow", builtin_pow},
        {"hex", builtin_hex}, {"oct", builtin_oct}, {"bin", builtin_bin},
        {"chr", builtin_chr}, {"ord", builtin_ord}, {"callable", builtin_callable},
        {"hasattr", builtin_hasattr}, {"getattr", builtin_getattr},
        {"setattr", builtin_setattr}, {"exit", builtin_sys_exit}, {"quit", builtin_sys_exit},
        {"input", builtin_not_supported},
        {"eval", builtin_eval}, {"exec", builtin_not_supported},
        {"compile", builtin_not_supported},
    };
    for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++)
        val_dict_set_str(h->builtins, fns[i].name,
                         val_builtin_new(fns[i].name, fns[i].fn, val_none()));
    builtin_numbers_init(h);      /* int, float */
    builtin_type_new(h, "str", builtin_str, VAL_STR, NULL);
    builtin_bytes_init(h);
    builtin_type_new(h, "bool", builtin_bool, VAL_BOOL, NULL);
    builtin_containers_init(h);   /* list, tuple, dict, range, slice */
    builtin_type_new(h, "type", builtin_type, VAL_BUILTIN, NULL);
    builtin_type_new(h, "set", builtin_set, VAL_OBJECT, set_val_type(false));
    builtin_type_new(h, "frozenset", builtin_frozenset, VAL_OBJECT, set_val_type(true));
    val_dict_set_str(h->builtins, "Ellipsis", val_ellipsis());

    /* what the evaluator needs of the built-in types (host.h: host_types) */
    h->types.methods[VAL_STR] = builtin_str_methods;
    h->types.methods[VAL_LIST] = builtin_list_methods;
    h->types.methods[VAL_TUPLE] = builtin_tuple_methods;
    h->types.methods[VAL_DICT] = builtin_dict_methods;
    h->types.methods[VAL_RANGE] = builtin_range_methods;
    h->types.methods[VAL_INT] = builtin_int_methods;
    h->types.methods[VAL_BOOL] = builtin_int_methods;    /* bool is a subclass of int */
    h->types.methods[VAL_FLOAT] = builtin_float_methods;
    h->types.str_percent = builtin_percent_format;
}
