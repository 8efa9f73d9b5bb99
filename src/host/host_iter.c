/* host_iter.c - iteration in the host evaluator: iterator objects (what
 * zip(), map(), iter() and generator expressions return), host_iter over
 * every iterable, list(v) and len(v). */
#include "host_impl.h"

#include <string.h>

/* ---- iteration ---------------------------------------------------------------- */

/* Iterator objects: what zip(), map(), iter() and generator expressions
 * return.  Their items are computed up front; the object only remembers
 * how far iteration got, so it is exhausted after one pass, as in Python. */
typedef struct host_iterator {
    val_object o;
    val items;          /* a tuple or list */
    size_t pos;
    const char *name;   /* "zip", "generator", ... */
} host_iterator;

static void host_iterator_free(val_obj *o)
{
    val_unref(((host_iterator *)o)->items);
}

static void host_iterator_repr(host *h, val self, strbuf *out)
{
    (void)h;
    const host_iterator *it = (const host_iterator *)self.u.o;
    if (!strcmp(it->name, "generator"))
        strbuf_printf(out, "<generator object <genexpr> at %p>", (void *)self.u.o);
    else
        strbuf_printf(out, "<%s object at %p>", it->name, (void *)self.u.o);
}

static const val_type host_iterator_type = {
    .name = "iterator",
    .repr = host_iterator_repr,
    .free = host_iterator_free,
};

val host_iterator_new(val items, const char *name)
{
    host_iterator *it = val_obj_new(sizeof *it, VAL_OBJECT, &host_iterator_type);
    it->items = items;
    it->name = name;
    return val_of(it);
}

bool host_is_iterator(val v)
{
    if (v.kind == VAL_OBJECT && v.u.o->type == &host_iterator_type)
        return true;
    const val_type *t = val_type_of(v);
    return t && t->next;
}

/* The items an iterator object has left (borrowed list/tuple), or MISSING. */
val host_iterator_items(val v)
{
    if (v.kind == VAL_OBJECT && v.u.o->type == &host_iterator_type)
        return ((host_iterator *)v.u.o)->items;
    return val_missing();
}

bool host_iter_begin(host *h, val v, src_span at, host_iter *it)
{
    it->src = val_none();
    it->pos = 0;
    it->len = 0;
    it->at = at;
    switch (v.kind) {
    case VAL_ERR:
        return false;
    case VAL_LIST:
    case VAL_TUPLE:
    case VAL_STR:
    case VAL_RANGE:
        it->src = val_ref(v);
        return true;
    case VAL_DICT:
        it->src = val_ref(v);
        it->len = (int64_t)val_as_dict(v)->len;
        return true;
    default:
        break;
    }
    if (host_is_iterator(v)) {
        it->src = val_ref(v);
        return true;
    }
    const val_type *t = val_type_of(v);
    if (t && t->iter) {
        val seq = t->iter(h, v, at);
        if (seq.kind == VAL_ERR)
            return false;
        if (seq.kind != VAL_LIST && seq.kind != VAL_TUPLE && !host_is_iterator(seq)) {
            val_unref(seq);
            host_error(h, at, "internal error: the iter hook of '%s' returned a '%s'",
                       val_type_name(v), val_type_name(seq));
            return false;
        }
        it->src = seq;
        return true;
    }
    host_raise(h, HOST_EXC_TYPE, at, "'%s' object is not iterable", val_type_name(v));
    return false;
}

int host_iter_next(host *h, host_iter *it, val *out)
{
    val s = it->src;
    switch (s.kind) {
    case VAL_LIST:
    case VAL_TUPLE:
        if ((size_t)it->pos >= val_as_seq(s)->len)
            return 0;
        *out = val_ref(val_as_seq(s)->items[it->pos++]);
        return 1;
    case VAL_STR: {
        const val_str *str = val_as_str(s);
        if ((size_t)it->pos >= str->len)
            return 0;
        size_t start = (size_t)it->pos, end = start + 1;
        while (end < str->len && ((unsigned char)str->s[end] & 0xC0) == 0x80)
            end++;
        it->pos = (int64_t)end;
        *out = val_str_new(str->s + start, end - start);
        return 1;
    }
    case VAL_RANGE: {
        const val_range *r = (const val_range *)s.u.o;
        if (it->pos >= val_range_len(r))
            return 0;
        *out = val_int(r->start + it->pos++ * r->step);
        return 1;
    }
    case VAL_DICT: {
        if ((int64_t)val_as_dict(s)->len != it->len) {
            host_error(h, it->at, "dictionary changed size during iteration (iterate over "
                       "list(d) to change the dict in the loop)");
            return -1;
        }
        size_t pos = (size_t)it->pos;
        val k, v;
        if (!val_dict_next(s, &pos, &k, &v))
            return 0;
        it->pos = (int64_t)pos;
        *out = val_ref(k);
        return 1;
    }
    case VAL_OBJECT: {
        const val_type *t = val_type_of(s);
        if (t->next)
            return t->next(h, s, out, it->at);
        host_iterator *x = (host_iterator *)s.u.o;
        if (x->pos >= val_as_seq(x->items)->len)
            return 0;
        *out = val_ref(val_as_seq(x->items)->items[x->pos++]);
        return 1;
    }
    default:
        return 0;
    }
}

void host_iter_end(host_iter *it)
{
    val_unref(it->src);
    it->src = val_none();
}

val host_to_list(host *h, val v, src_span at)
{
    if (v.kind == VAL_LIST || v.kind == VAL_TUPLE) {
        const val_seq *s = val_as_seq(v);
        val r = val_list_new(s->len);
        for (size_t i = 0; i < s->len; i++)
            val_list_push(r, val_ref(s->items[i]));
        return r;
    }
    if (v.kind == VAL_RANGE && val_range_len((const val_range *)v.u.o) > HOST_MAX_ITEMS)
        return host_raise(h, HOST_EXC_MEMORY, at,
                          "a list of %lld items is more than tritsim makes (at most %d)",
                          (long long)val_range_len((const val_range *)v.u.o), HOST_MAX_ITEMS);
    host_iter it;
    if (!host_iter_begin(h, v, at, &it))
        return val_err();
    val r = val_list_new(0), x;
    int st;
    while ((st = host_iter_next(h, &it, &x)) > 0)
        val_list_push(r, x);
    host_iter_end(&it);
    if (st < 0) {
        val_unref(r);
        return val_err();
    }
    return r;
}

int64_t host_len(host *h, val v, src_span at)
{
    switch (v.kind) {
    case VAL_STR: return (int64_t)val_str_chars(val_as_str(v));
    case VAL_LIST:
    case VAL_TUPLE: return (int64_t)val_as_seq(v)->len;
    case VAL_DICT: return (int64_t)val_as_dict(v)->len;
    case VAL_RANGE: return val_range_len((const val_range *)v.u.o);
    case VAL_ERR: return -1;
    default: break;
    }
    const val_type *t = val_type_of(v);
    if (t && t->len)
        return t->len(h, v, at);
    host_raise(h, HOST_EXC_TYPE, at, "object of type '%s' has no len()", val_type_name(v));
    return -1;
}
