/* host_access.c - subscripts and attributes: indexing and slicing of the
 * built-in sequences, strings (by code point), ranges and dicts, item
 * assignment and deletion, and obj.name for modules, functions, built-ins
 * (their methods, also taken unbound from the type: str.strip), slices,
 * ranges and numbers, with "did you mean" in the error; object types come
 * in through their val_type hooks, the built-in kinds' methods through the
 * tables pylib fills in (h->types, host.h). */
#include "host_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- indexing ------------------------------------------------------------------ */

/* A slice bound: None keeps the default, ints and bools count. */
static bool host_slice_bound(host *h, val v, src_span at, bool *given, int64_t *out)
{
    *given = v.kind != VAL_NONE;
    if (!*given)
        return true;
    if (host_is_int(v)) {
        *out = host_int_of(v);
        return true;
    }
    host_raise(h, HOST_EXC_TYPE, at,
               "slice indices must be integers or None, not '%s'", val_type_name(v));
    return false;
}

/* Python's PySlice_GetIndicesEx: the first index, the step and the number
 * of items that slice s picks from a sequence of len items. */
static bool host_slice_indices_ex(host *h, val slice, int64_t len, src_span at,
                                  int64_t *start, int64_t *stop, int64_t *step,
                                  int64_t *count)
{
    const val_slice *s = (const val_slice *)slice.u.o;
    bool given;
    int64_t st = 1, lo = 0, hi = 0;
    if (!host_slice_bound(h, s->step, at, &given, &st))
        return false;
    if (given && st == 0) {
        host_raise(h, HOST_EXC_VALUE, at, "slice step cannot be zero");
        return false;
    }
    if (st < -INT64_MAX)
        st = -INT64_MAX;
    bool back = st < 0;
    if (!host_slice_bound(h, s->start, at, &given, &lo))
        return false;
    if (!given)
        lo = back ? len - 1 : 0;
    else if (lo < 0) {
        lo += len;
        if (lo < 0)
            lo = back ? -1 : 0;
    } else if (lo >= len)
        lo = back ? len - 1 : len;
    if (!host_slice_bound(h, s->stop, at, &given, &hi))
        return false;
    if (!given)
        hi = back ? -1 : len;
    else if (hi < 0) {
        hi += len;
        if (hi < 0)
            hi = back ? -1 : 0;
    } else if (hi >= len)
        hi = back ? len - 1 : len;
    if (back)
        *count = hi < lo ? (lo - hi - 1) / -st + 1 : 0;
    else
        *count = lo < hi ? (hi - lo - 1) / st + 1 : 0;
    *start = lo;
    *stop = hi;
    *step = st;
    return true;
}

bool host_slice_indices(host *h, val slice, int64_t len, src_span at,
                        int64_t *start, int64_t *step, int64_t *count)
{
    int64_t stop;
    return host_slice_indices_ex(h, slice, len, at, start, &stop, step, count);
}

/* An int index into a sequence of len items, negative ones from the end. */
bool host_seq_index(host *h, val key, int64_t len, const char *what, src_span at,
                    int64_t *out)
{
    int64_t i;
    if (val_type_of(key) && key.kind != VAL_DTYPE) {
        /* an object with __index__ (a 0-d integer tensor) */
        if (!host_to_int(h, key, at, "an index", &i))
            return false;
    } else if (!host_is_int(key)) {
        host_raise(h, HOST_EXC_TYPE, at, "%s indices must be integers or slices, not '%s'%s", what,
                   val_type_name(key),
                   key.kind == VAL_FLOAT ? " (convert with int(x) or use //)" : "");
        return false;
    } else {
        i = host_int_of(key);
    }
    int64_t j = i < 0 ? i + len : i;
    if (j < 0 || j >= len) {
        /* e.args as Python has them: "list index out of range" */
        val args = val_tuple_new(1);
        val_seq_set(args, 0,
                    !strcmp(what, "str") ? val_str_cstr("string index out of range")
                    : !strcmp(what, "range") ? val_str_cstr("range object index out of range")
                    : !strcmp(what, "bytes") ? val_str_cstr("index out of range")
                    : val_str_fmt("%s index out of range", what));
        host_raise_args(h, HOST_EXC_INDEX, args, at,
                        "%s index %lld is out of range (the %s has %lld item%s)", what,
                        (long long)i, what, (long long)len, len == 1 ? "" : "s");
        return false;
    }
    *out = j;
    return true;
}

/* Byte offsets of each code point of s, plus the end (chars + 1 entries). */
static size_t *host_str_offsets(const val_str *s, size_t *chars)
{
    size_t n = val_str_chars(s);
    size_t *off = xmalloc((n + 1) * sizeof *off);
    size_t k = 0;
    for (size_t i = 0; i < s->len; i++)
        if (((unsigned char)s->s[i] & 0xC0) != 0x80)
            off[k++] = i;
    off[k] = s->len;
    *chars = n;
    return off;
}

static val host_str_getitem(host *h, val obj, val key, src_span at)
{
    const val_str *s = val_as_str(obj);
    size_t n;
    size_t *off = s->ascii ? NULL : host_str_offsets(s, &n);
    if (s->ascii)
        n = s->len;
    val r;
    if (key.kind == VAL_SLICE) {
        int64_t start, step, count;
        if (!host_slice_indices(h, key, (int64_t)n, at, &start, &step, &count)) {
            free(off);
            return val_err();
        }
        strbuf b = {0};
        for (int64_t k = 0, i = start; k < count; k++, i += step) {
            if (off)
                strbuf_putn(&b, s->s + off[i], off[i + 1] - off[i]);
            else
                strbuf_putc(&b, s->s[i]);
        }
        r = val_str_from_buf(&b);
    } else {
        int64_t i;
        if (!host_seq_index(h, key, (int64_t)n, "string", at, &i)) {
            free(off);
            return val_err();
        }
        r = off ? val_str_new(s->s + off[i], off[i + 1] - off[i]) : val_str_new(s->s + i, 1);
    }
    free(off);
    return r;
}

static val host_range_getitem(host *h, val obj, val key, src_span at)
{
    const val_range *r = (const val_range *)obj.u.o;
    int64_t len = val_range_len(r);
    if (key.kind == VAL_SLICE) {
        /* CPython's compute_slice: the slice's own start and stop, mapped
         * through the range. */
        int64_t start, stop, step, count, a, st, b;
        if (!host_slice_indices_ex(h, key, len, at, &start, &stop, &step, &count))
            return val_err();
        if (__builtin_mul_overflow(start, r->step, &a) || __builtin_add_overflow(a, r->start, &a) ||
            __builtin_mul_overflow(step, r->step, &st) ||
            __builtin_mul_overflow(stop, r->step, &b) || __builtin_add_overflow(b, r->start, &b))
            return host_overflow(h, at);
        return val_range_new(a, b, st);
    }
    int64_t i;
    if (!host_seq_index(h, key, len, "range", at, &i))
        return val_err();
    return val_int(r->start + i * r->step);
}

static val host_key_error(host *h, val d, val key, src_span at)
{
    val rk = host_repr(h, key);
    host_suggest s;
    host_suggest_init(&s, key.kind == VAL_STR ? val_as_str(key)->s : "");
    if (key.kind == VAL_STR)
        host_suggest_dict(&s, d);
    char buf[160];
    val args = val_tuple_new(1);
    val_seq_set(args, 0, val_ref(key));
    host_raise_args(h, HOST_EXC_KEY, args, at, "KeyError: %s (the dict has no such key%s)",
                    val_as_str(rk)->s,
                    s.best ? (snprintf(buf, sizeof buf, "; did you mean '%s'?", s.best), buf) : "");
    val_unref(rk);
    return val_err();
}

val host_getitem(host *h, val obj, val key, src_span at)
{
    if (obj.kind == VAL_ERR || key.kind == VAL_ERR)
        return val_err();
    switch (obj.kind) {
    case VAL_LIST:
    case VAL_TUPLE: {
        const val_seq *s = val_as_seq(obj);
        if (key.kind == VAL_SLICE) {
            int64_t start, step, count;
            if (!host_slice_indices(h, key, (int64_t)s->len, at, &start, &step, &count))
                return val_err();
            val r = obj.kind == VAL_TUPLE ? val_tuple_new((size_t)count)
                                          : val_list_new((size_t)count);
            val_seq *t = val_as_seq(r);
            for (int64_t k = 0, i = start; k < count; k++, i += step)
                t->items[k] = val_ref(s->items[i]);
            t->len = (size_t)count;
            return r;
        }
        int64_t i;
        if (!host_seq_index(h, key, (int64_t)s->len, val_type_name(obj), at, &i))
            return val_err();
        return val_ref(s->items[i]);
    }
    case VAL_STR:
        return host_str_getitem(h, obj, key, at);
    case VAL_RANGE:
        return host_range_getitem(h, obj, key, at);
    case VAL_DICT: {
        if (!val_hashable(key))
            return host_raise(h, HOST_EXC_TYPE, at, "unhashable type: '%s'", val_type_name(key));
        val v = val_dict_get(obj, key);
        if (v.kind == VAL_MISSING)
            return host_key_error(h, obj, key, at);
        return val_ref(v);
    }
    case VAL_BUILTIN:
        /* list[int], tuple[int, ...]: type hints, harmless. */
        if (((const val_builtin *)obj.u.o)->inst_kind != VAL_ERR)
            return val_ref(obj);
        break;
    default:
        break;
    }
    const val_type *t = val_type_of(obj);
    if (t && t->getitem)
        return t->getitem(h, obj, key, at);
    return host_raise(h, HOST_EXC_TYPE, at, "'%s' object is not subscriptable", val_type_name(obj));
}

/* lst[slice] = iterable. */
static bool host_list_set_slice(host *h, val list, val slice, val v, src_span at)
{
    val_seq *s = val_as_seq(list);
    int64_t start, step, count;
    if (!host_slice_indices(h, slice, (int64_t)s->len, at, &start, &step, &count))
        return false;
    val items = host_to_list(h, v, at);
    if (items.kind == VAL_ERR)
        return false;
    val_seq *src = val_as_seq(items);
    if (step == 1) {
        size_t keep_end = (size_t)(start + count);
        size_t n = (size_t)start + src->len + (s->len - keep_end);
        val *arr = xmalloc((n ? n : 1) * sizeof *arr);
        size_t k = 0;
        for (size_t i = 0; i < (size_t)start; i++)
            arr[k++] = s->items[i];
        for (size_t i = 0; i < src->len; i++)
            arr[k++] = val_ref(src->items[i]);
        for (size_t i = keep_end; i < s->len; i++)
            arr[k++] = s->items[i];
        val *old = s->items;
        size_t old_start = (size_t)start;
        s->items = arr;
        s->len = s->cap = n;
        for (size_t i = old_start; i < keep_end; i++)
            val_unref(old[i]);
        free(old);
    } else {
        if ((int64_t)src->len != count) {
            host_raise(h, HOST_EXC_VALUE, at,
                       "attempt to assign a sequence of size %zu to an extended slice "
                       "of size %lld", src->len, (long long)count);
            val_unref(items);
            return false;
        }
        for (int64_t k = 0, i = start; k < count; k++, i += step)
            val_seq_set(list, (size_t)i, val_ref(src->items[k]));
    }
    val_unref(items);
    return true;
}

bool host_setitem(host *h, val obj, val key, val v, src_span at)
{
    if (obj.kind == VAL_LIST) {
        if (key.kind == VAL_SLICE)
            return host_list_set_slice(h, obj, key, v, at);
        int64_t i;
        if (!host_seq_index(h, key, (int64_t)val_as_seq(obj)->len, "list", at, &i))
            return false;
        val_seq_set(obj, (size_t)i, val_ref(v));
        return true;
    }
    if (obj.kind == VAL_DICT) {
        if (!val_hashable(key)) {
            host_raise(h, HOST_EXC_TYPE, at, "unhashable type: '%s'", val_type_name(key));
            return false;
        }
        val_dict_set(obj, val_ref(key), val_ref(v));
        return true;
    }
    const val_type *t = val_type_of(obj);
    if (t && t->setitem)
        return t->setitem(h, obj, key, v, at);
    host_raise(h, HOST_EXC_TYPE, at,
               "'%s' object does not support item assignment%s", val_type_name(obj),
               obj.kind == VAL_STR ? " (strings cannot change: build a new one)"
               : obj.kind == VAL_TUPLE ? " (tuples cannot change: use a list)" : "");
    return false;
}

bool host_delitem(host *h, val obj, val key, src_span at)
{
    if (obj.kind == VAL_LIST) {
        val_seq *s = val_as_seq(obj);
        if (key.kind == VAL_SLICE) {
            int64_t start, step, count;
            if (!host_slice_indices(h, key, (int64_t)s->len, at, &start, &step, &count))
                return false;
            /* Remove from the highest index down so the others stay put. */
            int64_t first = step > 0 ? start : start + (count - 1) * step;
            int64_t st = step > 0 ? step : -step;
            for (int64_t k = count - 1; k >= 0; k--)
                val_unref(val_list_remove(obj, (size_t)(first + k * st)));
            return true;
        }
        int64_t i;
        if (!host_seq_index(h, key, (int64_t)s->len, "list", at, &i))
            return false;
        val_unref(val_list_remove(obj, (size_t)i));
        return true;
    }
    if (obj.kind == VAL_DICT) {
        if (!val_hashable(key)) {
            host_raise(h, HOST_EXC_TYPE, at, "unhashable type: '%s'", val_type_name(key));
            return false;
        }
        val old = val_dict_pop(obj, key);
        if (old.kind == VAL_MISSING) {
            host_key_error(h, obj, key, at);
            return false;
        }
        val_unref(old);
        return true;
    }
    host_raise(h, HOST_EXC_TYPE, at,
               "'%s' object does not support item deletion", val_type_name(obj));
    return false;
}

/* ---- attributes -------------------------------------------------------------- */

const host_method *host_method_of(host *h, val_kind kind, const char *name)
{
    if (kind > VAL_RANGE)
        return NULL;
    const host_method *m = h->types.methods[kind];
    for (; m && m->name; m++)
        if (!strcmp(m->name, name))
            return m;
    return NULL;
}

/* str.strip and friends taken from the type: called with self first. */
val host_call_unbound(host *h, val self, int argc, const val *argv,
                      const val_kwargs *kw, src_span at)
{
    (void)h; (void)self; (void)argc; (void)argv; (void)kw; (void)at;
    return val_err();   /* never called directly: host_call routes it */
}

val host_unbound_invoke(host *h, const val_builtin *b, int argc, const val *argv,
                        const val_kwargs *kw, src_span at)
{
    const host_method *m = b->data;
    if (argc < 1)
        return host_raise(h, HOST_EXC_TYPE, at,
                          "%s() needs the %s to work on as its first argument",
                          m->qualname, val_type_name((val){m->kind, {0}}));
    val_kind want = m->kind;
    val_kind got = argv[0].kind == VAL_BOOL && want == VAL_INT ? VAL_INT : argv[0].kind;
    if (got != want) {
        val tmp = val_none();
        if (want == VAL_FLOAT && host_is_int(argv[0]))
            tmp = val_float(host_float_of(argv[0]));
        else
            return host_raise(h, HOST_EXC_TYPE, at,
                              "%s() needs a '%s' as its first argument, not '%s'",
                              m->qualname, val_type_name((val){m->kind, {0}}),
                              val_type_name(argv[0]));
        return m->fn(h, tmp, argc - 1, argv + 1, kw, at);
    }
    return m->fn(h, argv[0], argc - 1, argv + 1, kw, at);
}

/* A function's docstring: the string its body starts with. */
static val host_func_doc(const val_func *f)
{
    if (f->node->kind != AST_FUNCDEF || f->node->u.funcdef.body.len == 0)
        return val_none();
    const ast_node *s = f->node->u.funcdef.body.items[0];
    if (s->kind == AST_EXPR_STMT && s->u.expr.value->kind == AST_STR)
        return val_str_new(s->u.expr.value->u.str.s, s->u.expr.value->u.str.len);
    return val_none();
}

const char *host_short_name(const char *qualname)
{
    const char *dot = strrchr(qualname, '.');
    return dot ? dot + 1 : qualname;
}

val host_getattr_opt(host *h, val obj, const char *name, src_span at)
{
    if (obj.kind == VAL_ERR)
        return val_err();
    switch (obj.kind) {
    case VAL_MODULE:
    case VAL_OBJECT: {
        val v = val_object_get(obj, name);
        if (v.kind != VAL_MISSING)
            return val_ref(v);
        if (obj.kind == VAL_MODULE) {
            /* a submodule of tritsim's written in Python (torch._inductor.config)
             * is there once its package is, as the packages it stands for
             * import it: imported on first use */
            val mn = val_object_get(obj, "__name__");
            if (mn.kind == VAL_STR && val_object_get(obj, "__file__").kind != VAL_STR) {
                char full[256];
                int n = snprintf(full, sizeof full, "%s.%s", val_as_str(mn)->s, name);
                if (n > 0 && (size_t)n < sizeof full &&
                    val_dict_get_str(h->source_modules, full).kind == VAL_STR)
                    return host_import_module(h, full, at);
            }
        }
        break;
    }
    case VAL_FUNC: {
        const val_func *f = (const val_func *)obj.u.o;
        if (f->attrs.kind == VAL_DICT) {
            val v = val_dict_get_str(f->attrs, name);
            if (v.kind != VAL_MISSING)
                return val_ref(v);
        }
        if (!strcmp(name, "__name__") || !strcmp(name, "__qualname__"))
            return val_str_cstr(f->name);
        if (!strcmp(name, "__module__")) {
            val mn = val_dict_get_str(f->globals, "__name__");
            return mn.kind == VAL_STR ? val_ref(mn) : val_str_cstr("__main__");
        }
        if (!strcmp(name, "__doc__"))
            return host_func_doc(f);
        return val_missing();
    }
    case VAL_BUILTIN: {
        const val_builtin *b = (const val_builtin *)obj.u.o;
        if (!strcmp(name, "__name__"))
            return val_str_cstr(host_short_name(b->name));
        if (!strcmp(name, "__qualname__"))
            return val_str_cstr(b->name);
        if (b->inst_kind != VAL_ERR && b->inst_kind < VAL_MODULE) {
            const host_method *m = host_method_of(h, b->inst_kind, name);
            if (m) {
                val u = val_builtin_new(m->qualname, host_call_unbound, val_none());
                ((val_builtin *)u.u.o)->data = m;
                return u;
            }
        }
        if (b->inst_type && b->inst_type->type_getattr)
            return b->inst_type->type_getattr(h, obj, name, at);
        return val_missing();
    }
    case VAL_SLICE: {
        const val_slice *s = (const val_slice *)obj.u.o;
        if (!strcmp(name, "start"))
            return val_ref(s->start);
        if (!strcmp(name, "stop"))
            return val_ref(s->stop);
        if (!strcmp(name, "step"))
            return val_ref(s->step);
        return val_missing();
    }
    case VAL_RANGE: {
        const val_range *r = (const val_range *)obj.u.o;
        if (!strcmp(name, "start"))
            return val_int(r->start);
        if (!strcmp(name, "stop"))
            return val_int(r->stop);
        if (!strcmp(name, "step"))
            return val_int(r->step);
        break;
    }
    case VAL_INT:
    case VAL_BOOL:
        if (!strcmp(name, "real") || !strcmp(name, "numerator"))
            return val_int(host_int_of(obj));
        if (!strcmp(name, "imag"))
            return val_int(0);
        if (!strcmp(name, "denominator"))
            return val_int(1);
        break;
    case VAL_FLOAT:
        if (!strcmp(name, "real"))
            return obj;
        if (!strcmp(name, "imag"))
            return val_float(0);
        break;
    default:
        break;
    }
    if (obj.kind >= VAL_BOOL && obj.kind <= VAL_RANGE && obj.kind != VAL_DTYPE &&
        obj.kind != VAL_ELLIPSIS) {
        const host_method *m = host_method_of(h, obj.kind, name);
        if (m)
            return val_builtin_new(m->qualname, m->fn, val_ref(obj));
    }
    const val_type *t = val_type_of(obj);
    if (t && t->getattr)
        return t->getattr(h, obj, name, at);
    return val_missing();
}

val host_getattr(host *h, val obj, const char *name, src_span at)
{
    val v = host_getattr_opt(h, obj, name, at);
    if (v.kind != VAL_MISSING)
        return v;
    host_suggest s;
    host_suggest_init(&s, name);
    if (obj.kind == VAL_MODULE || obj.kind == VAL_OBJECT)
        host_suggest_dict(&s, ((val_object *)obj.u.o)->attrs);
    if (obj.kind == VAL_CLASS || obj.kind == VAL_INSTANCE)
        class_suggest(obj, &s);
    if (obj.kind >= VAL_BOOL && obj.kind <= VAL_RANGE && h->types.methods[obj.kind])
        for (const host_method *m = h->types.methods[obj.kind]; m->name; m++)
            host_suggest_add(&s, m->name);
    const val_type *t = val_type_of(obj);
    if (t && t->attr_names)
        for (const char *const *n = t->attr_names; *n; n++)
            host_suggest_add(&s, *n);
    char buf[128];
    /* e.args holds Python's message, without the suggestion */
    val args = val_tuple_new(1);
    if (obj.kind == VAL_MODULE) {
        val mname = val_object_get(obj, "__name__");
        const char *mn = mname.kind == VAL_STR ? val_as_str(mname)->s : "?";
        if (host_module_initializing(h, obj)) {
            val_seq_set(args, 0, val_str_fmt("partially initialized module '%s' has no "
                                             "attribute '%s' (most likely due to a circular "
                                             "import)", mn, name));
            return host_raise_args(h, HOST_EXC_ATTRIBUTE, args, at, "partially initialized "
                                   "module '%s' has no attribute '%s' (most likely due to a "
                                   "circular import)", mn, name);
        }
        val_seq_set(args, 0, val_str_fmt("module '%s' has no attribute '%s'", mn, name));
        if (val_object_get(obj, "__file__").kind == VAL_STR)
            return host_raise_args(h, HOST_EXC_ATTRIBUTE, args, at,
                                   "module '%s' has no attribute '%s'%s", mn, name,
                                   host_did_you_mean(&s, buf, sizeof buf));
        if (s.best)
            return host_raise_args(h, HOST_EXC_ATTRIBUTE, args, at,
                                   "module '%s' has no attribute '%s'%s", mn, name,
                                   host_did_you_mean(&s, buf, sizeof buf));
        return host_raise_args(h, HOST_EXC_ATTRIBUTE, args, at, "module '%s' has no attribute "
                               "'%s' in tritsim (see doc/language.md for what is supported)",
                               mn, name);
    }
    if (obj.kind == VAL_CLASS) {
        const char *cn = ((const val_class *)obj.u.o)->name;
        val_seq_set(args, 0, val_str_fmt("type object '%s' has no attribute '%s'", cn, name));
        return host_raise_args(h, HOST_EXC_ATTRIBUTE, args, at, "type object '%s' has no "
                               "attribute '%s'%s", cn, name,
                               host_did_you_mean(&s, buf, sizeof buf));
    }
    val_seq_set(args, 0, val_str_fmt("'%s' object has no attribute '%s'", val_type_name(obj),
                                     name));
    return host_raise_args(h, HOST_EXC_ATTRIBUTE, args, at, "'%s' object has no attribute "
                           "'%s'%s", val_type_name(obj), name,
                           host_did_you_mean(&s, buf, sizeof buf));
}

val host_call_method(host *h, val obj, const char *name, int argc, const val *argv,
                     const val_kwargs *kw, src_span at)
{
    val m = host_getattr(h, obj, name, at);
    if (m.kind == VAL_ERR)
        return m;
    val r = host_call(h, m, argc, argv, kw, at);
    val_unref(m);
    return r;
}


bool host_setattr(host *h, val obj, const char *name, val v, src_span at)
{
    const val_type *t = val_type_of(obj);
    if (t && t->setattr)
        return t->setattr(h, obj, name, v, at);
    if (obj.kind == VAL_OBJECT || obj.kind == VAL_MODULE) {
        val_object_set(obj, name, val_ref(v));
        return true;
    }
    if (obj.kind == VAL_FUNC) {
        val_func *f = (val_func *)obj.u.o;
        if (f->attrs.kind != VAL_DICT)
            f->attrs = val_dict_new();
        val_dict_set_str(f->attrs, name, val_ref(v));
        return true;
    }
    host_raise(h, HOST_EXC_ATTRIBUTE, at,
               "cannot set attribute '%s' of a '%s' object", name, val_type_name(obj));
    return false;
}
