/* val.c - host values: allocation and reference counting (with the live
 * list that frees cycles at exit), constructors of the built-in kinds, the
 * insertion-ordered dict, hashing, equality, repr and str. */
#define _POSIX_C_SOURCE 200809L
#include "val.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "pyformat.h"

/* ---- allocation and the live list ---------------------------------------- */

static val_obj *val_live;          /* every allocated object */
static val_obj *val_pending;       /* objects whose count reached zero */
static bool val_releasing;         /* val_release's loop is running */
static bool val_shutdown;          /* val_free_all is running */
static const val_type *val_dtype_hooks;

void *val_obj_new(size_t size, val_kind kind, const val_type *type)
{
    if (size < sizeof(val_obj))
        size = sizeof(val_obj);
    val_obj *o = xcalloc(1, size);
    o->refs = 1;
    o->kind = kind;
    o->type = type;
    o->live_next = val_live;
    if (val_live)
        val_live->live_prev = o;
    val_live = o;
    return o;
}

static void val_unlink(val_obj *o)
{
    if (o->live_prev)
        o->live_prev->live_next = o->live_next;
    else
        val_live = o->live_next;
    if (o->live_next)
        o->live_next->live_prev = o->live_prev;
    o->live_prev = o->live_next = NULL;
}

/* Drop the references o holds and free its buffers; not o itself. */
static void val_free_contents(val_obj *o)
{
    switch (o->kind) {
    case VAL_TUPLE:
    case VAL_LIST: {
        val_seq *s = (val_seq *)o;
        for (size_t i = 0; i < s->len; i++)
            val_unref(s->items[i]);
        free(s->items);
        break;
    }
    case VAL_DICT: {
        val_dict *d = (val_dict *)o;
        for (size_t i = 0; i < d->nentries; i++) {
            val_unref(d->entries[i].key);
            val_unref(d->entries[i].value);
        }
        free(d->entries);
        free(d->index);
        break;
    }
    case VAL_SLICE: {
        val_slice *s = (val_slice *)o;
        val_unref(s->start);
        val_unref(s->stop);
        val_unref(s->step);
        break;
    }
    case VAL_FUNC: {
        val_func *f = (val_func *)o;
        val_unref(f->globals);
        val_unref(f->closure);
        for (int i = 0; i < f->nparams; i++)
            val_unref(f->defaults[i]);
        free(f->defaults);
        val_unref(f->attrs);
        val_unref(f->owner);
        break;
    }
    case VAL_BUILTIN:
        val_unref(((val_builtin *)o)->self);
        break;
    case VAL_CLASS: {
        val_class *c = (val_class *)o;
        val_unref(c->base);
        free(c->name);
        val_unref(c->o.attrs);
        break;
    }
    case VAL_INSTANCE: {
        val_instance *in = (val_instance *)o;
        if (o->type && o->type->free)
            o->type->free(o);
        val_unref(in->cls);
        if (in->raised)
            free(in->raised->message);
        free(in->raised);
        val_unref(in->o.attrs);
        break;
    }
    default:
        if (o->type && o->type->free)
            o->type->free(o);
        if (o->kind == VAL_OBJECT || o->kind == VAL_MODULE)
            val_unref(((val_object *)o)->attrs);
        break;
    }
}

/* Frees o and whatever only it kept alive.  Children whose count drops to
 * zero are queued rather than freed recursively, so a million nested
 * lists do not overflow the C stack. */
void val_release(val_obj *o)
{
    if (val_shutdown)
        return;
    val_unlink(o);
    o->live_next = val_pending;
    val_pending = o;
    if (val_releasing)
        return;
    val_releasing = true;
    while (val_pending) {
        val_obj *x = val_pending;
        val_pending = x->live_next;
        val_free_contents(x);
        free(x);
    }
    val_releasing = false;
}

bool val_shutting_down(void)
{
    return val_shutdown;
}

void val_free_all(void)
{
    /* Two passes: first every object drops what it holds (val_unref only
     * counts down: nothing is freed yet, so no count touches freed memory),
     * then the objects themselves go. */
    val_shutdown = true;
    for (val_obj *o = val_live; o; o = o->live_next)
        val_free_contents(o);
    while (val_live) {
        val_obj *next = val_live->live_next;
        free(val_live);
        val_live = next;
    }
    val_shutdown = false;
}

const val_type *val_type_of(val v)
{
    if (v.kind == VAL_DTYPE)
        return val_dtype_hooks;
    return val_is_heap(v) ? v.u.o->type : NULL;
}

void val_set_dtype_type(const val_type *t)
{
    val_dtype_hooks = t;
}

/* ---- strings ------------------------------------------------------------- */

val val_str_new(const char *s, size_t len)
{
    val_str *o = val_obj_new(sizeof(val_str) + len + 1, VAL_STR, NULL);
    o->len = len;
    o->ascii = true;
    if (len)
        memcpy(o->s, s, len);
    o->s[len] = '\0';
    for (size_t i = 0; i < len; i++)
        if ((unsigned char)s[i] >= 0x80) {
            o->ascii = false;
            break;
        }
    return val_of(o);
}

val val_str_cstr(const char *s)
{
    return val_str_new(s, strlen(s));
}

val val_str_fmt(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        n = 0;
    char *buf = xmalloc((size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(buf, (size_t)n + 1, fmt, ap);
    va_end(ap);
    val v = val_str_new(buf, (size_t)n);
    free(buf);
    return v;
}

val val_str_from_buf(strbuf *b)
{
    val v = val_str_new(strbuf_cstr(b), b->len);
    strbuf_free(b);
    return v;
}

size_t val_str_chars(const val_str *s)
{
    return s->ascii ? s->len : pyformat_utf8_len(s->s, s->len);
}

/* ---- tuples and lists ---------------------------------------------------- */

static val val_seq_alloc(val_kind kind, size_t len, size_t cap)
{
    val_seq *s = val_obj_new(sizeof *s, kind, NULL);
    if (cap < len)
        cap = len;
    s->cap = cap;
    s->len = len;
    s->items = xmalloc((cap ? cap : 1) * sizeof *s->items);
    for (size_t i = 0; i < len; i++)
        s->items[i] = val_none();
    return val_of(s);
}

val val_tuple_new(size_t n)
{
    return val_seq_alloc(VAL_TUPLE, n, n);
}

val val_tuple_of(size_t n, const val *items)
{
    val t = val_tuple_new(n);
    for (size_t i = 0; i < n; i++)
        val_as_seq(t)->items[i] = items[i];
    return t;
}

val val_list_new(size_t cap)
{
    return val_seq_alloc(VAL_LIST, 0, cap);
}

void val_seq_set(val seq, size_t i, val v)
{
    val_seq *s = val_as_seq(seq);
    val old = s->items[i];
    s->items[i] = v;
    val_unref(old);
}

static void val_list_grow(val_seq *s, size_t need)
{
    if (need <= s->cap)
        return;
    size_t cap = s->cap ? s->cap * 2 : 4;
    while (cap < need)
        cap *= 2;
    s->items = xrealloc(s->items, cap * sizeof *s->items);
    s->cap = cap;
}

void val_list_push(val list, val v)
{
    val_seq *s = val_as_seq(list);
    val_list_grow(s, s->len + 1);
    s->items[s->len++] = v;
}

void val_list_insert(val list, size_t i, val v)
{
    val_seq *s = val_as_seq(list);
    val_list_grow(s, s->len + 1);
    memmove(s->items + i + 1, s->items + i, (s->len - i) * sizeof *s->items);
    s->items[i] = v;
    s->len++;
}

val val_list_remove(val list, size_t i)
{
    val_seq *s = val_as_seq(list);
    val v = s->items[i];
    memmove(s->items + i, s->items + i + 1, (s->len - i - 1) * sizeof *s->items);
    s->len--;
    return v;
}

/* ---- hashing and equality ------------------------------------------------ */

static uint64_t val_mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

static bool val_hashable_depth(val v, int depth)
{
    if (depth > 200)
        return true;   /* deeper parts do not take part in the hash */
    switch (v.kind) {
    case VAL_LIST:
    case VAL_DICT:
    case VAL_SLICE:
        return false;
    case VAL_TUPLE: {
        val_seq *s = val_as_seq(v);
        for (size_t i = 0; i < s->len; i++)
            if (!val_hashable_depth(s->items[i], depth + 1))
                return false;
        return true;
    }
    case VAL_ERR:
    case VAL_MISSING:
        return false;
    default:
        return !(val_is_heap(v) && v.u.o->type && v.u.o->type->unhashable);
    }
}

bool val_hashable(val v)
{
    return val_hashable_depth(v, 0);
}

/* Is f an integer that fits in int64?  Then *i receives it. */
static bool val_float_as_int(double f, int64_t *i)
{
    if (!(f >= -9223372036854775808.0 && f < 9223372036854775808.0) || f != trunc(f))
        return false;
    *i = (int64_t)f;
    return true;
}

static uint64_t val_hash_depth(val v, int depth)
{
    int64_t i;
    switch (v.kind) {
    case VAL_NONE: return 0x9e3779b97f4a7c15ULL;
    case VAL_ELLIPSIS: return 0x85ebca6b0badf00dULL;
    case VAL_BOOL: return val_mix((uint64_t)v.u.b);
    case VAL_INT: return val_mix((uint64_t)v.u.i);
    case VAL_FLOAT: {
        /* Equal numbers hash alike: 1 == 1.0 == True. */
        if (val_float_as_int(v.u.f, &i))
            return val_mix((uint64_t)i);
        uint64_t bits;
        memcpy(&bits, &v.u.f, sizeof bits);
        return val_mix(bits ^ 0x5555);
    }
    case VAL_DTYPE: return val_mix((uint64_t)v.u.dtype ^ 0xd7e0000ULL);
    case VAL_STR: {
        const val_str *s = val_as_str(v);
        uint64_t h = 1469598103934665603ULL;
        for (size_t k = 0; k < s->len; k++) {
            h ^= (unsigned char)s->s[k];
            h *= 1099511628211ULL;
        }
        return val_mix(h);
    }
    case VAL_TUPLE: {
        const val_seq *s = val_as_seq(v);
        uint64_t h = 0x27d4eb2f165667c5ULL + s->len;
        /* Equal tuples agree on their first 200 levels, which is all the
         * hash looks at (so deep nesting cannot overflow the stack). */
        for (size_t k = 0; k < s->len && depth < 200; k++)
            h = val_mix(h ^ val_hash_depth(s->items[k], depth + 1)) + k;
        return h;
    }
    case VAL_RANGE: {
        const val_range *r = (const val_range *)v.u.o;
        return val_mix((uint64_t)r->start * 31 + (uint64_t)r->stop * 7 + (uint64_t)r->step);
    }
    case VAL_BUILTIN: {
        const val_builtin *b = (const val_builtin *)v.u.o;
        if (b->inst_kind != VAL_ERR)
            return val_mix((uint64_t)b->inst_kind * 131 + (uint64_t)(uintptr_t)b->inst_type);
        return val_mix((uint64_t)(uintptr_t)v.u.o);
    }
    default:
        if (v.u.o->type && v.u.o->type->hash)
            return v.u.o->type->hash(v);
        return val_mix((uint64_t)(uintptr_t)v.u.o);
    }
}

static bool val_is_num(val v)
{
    return v.kind == VAL_INT || v.kind == VAL_BOOL || v.kind == VAL_FLOAT;
}

static bool val_num_equal(val a, val b)
{
    if (a.kind == VAL_FLOAT && b.kind == VAL_FLOAT)
        return a.u.f == b.u.f;
    if (a.kind == VAL_FLOAT || b.kind == VAL_FLOAT) {
        double f = a.kind == VAL_FLOAT ? a.u.f : b.u.f;
        val n = a.kind == VAL_FLOAT ? b : a;
        int64_t i = n.kind == VAL_BOOL ? n.u.b : n.u.i;
        int64_t fi;
        return val_float_as_int(f, &fi) && fi == i;
    }
    int64_t x = a.kind == VAL_BOOL ? a.u.b : a.u.i;
    int64_t y = b.kind == VAL_BOOL ? b.u.b : b.u.i;
    return x == y;
}

static bool val_equal_depth(val a, val b, int depth);

static bool val_seq_equal(const val_seq *x, const val_seq *y, int depth)
{
    if (x->len != y->len)
        return false;
    for (size_t i = 0; i < x->len; i++) {
        val p = x->items[i], q = y->items[i];
        /* Containers compare items by identity first, as CPython does. */
        if (val_is_heap(p) && val_is_heap(q) && p.u.o == q.u.o)
            continue;
        if (!val_equal_depth(p, q, depth + 1))
            return false;
    }
    return true;
}

static bool val_equal_depth(val a, val b, int depth)
{
    if (depth > 1000)
        return false;
    if (val_is_num(a) && val_is_num(b))
        return val_num_equal(a, b);
    /* a number and an object that may equal numbers (complex(2, 0) == 2) */
    if (val_is_num(a) && b.kind == VAL_OBJECT && b.u.o->type && b.u.o->type->equal)
        return b.u.o->type->equal(b, a);
    if (val_is_num(b) && a.kind == VAL_OBJECT && a.u.o->type && a.u.o->type->equal)
        return a.u.o->type->equal(a, b);
    if (a.kind != b.kind)
        return false;
    switch (a.kind) {
    case VAL_NONE:
    case VAL_ELLIPSIS:
        return true;
    case VAL_DTYPE:
        return a.u.dtype == b.u.dtype;
    case VAL_STR: {
        const val_str *x = val_as_str(a), *y = val_as_str(b);
        return x->len == y->len && memcmp(x->s, y->s, x->len) == 0;
    }
    case VAL_TUPLE:
    case VAL_LIST:
        return val_seq_equal(val_as_seq(a), val_as_seq(b), depth);
    case VAL_DICT: {
        if (val_as_dict(a)->len != val_as_dict(b)->len)
            return false;
        size_t pos = 0;
        val k, v;
        while (val_dict_next(a, &pos, &k, &v)) {
            val w = val_dict_get(b, k);
            if (w.kind == VAL_MISSING || !val_equal_depth(v, w, depth + 1))
                return false;
        }
        return true;
    }
    case VAL_RANGE: {
        const val_range *x = (const val_range *)a.u.o, *y = (const val_range *)b.u.o;
        int64_t n = val_range_len(x);
        if (n != val_range_len(y))
            return false;
        if (n == 0)
            return true;
        if (x->start != y->start)
            return false;
        return n == 1 || x->step == y->step;
    }
    case VAL_SLICE: {
        const val_slice *x = (const val_slice *)a.u.o, *y = (const val_slice *)b.u.o;
        return val_equal_depth(x->start, y->start, depth + 1) &&
               val_equal_depth(x->stop, y->stop, depth + 1) &&
               val_equal_depth(x->step, y->step, depth + 1);
    }
    case VAL_BUILTIN: {
        /* type(x) makes type objects on the fly: equal if they describe
         * the same type. */
        const val_builtin *x = (const val_builtin *)a.u.o, *y = (const val_builtin *)b.u.o;
        return x == y || (x->inst_kind != VAL_ERR && x->inst_kind == y->inst_kind &&
                          x->inst_type == y->inst_type);
    }
    default:
        if (a.u.o != b.u.o && a.u.o->type && a.u.o->type->equal)
            return a.u.o->type->equal(a, b);
        return a.u.o == b.u.o;
    }
}

bool val_equal(val a, val b)
{
    return val_equal_depth(a, b, 0);
}

uint64_t val_hash(val v)
{
    return val_hash_depth(v, 0);
}

/* ---- dicts ----------------------------------------------------------------- */

val val_dict_new(void)
{
    val_dict *d = val_obj_new(sizeof *d, VAL_DICT, NULL);
    return val_of(d);
}

/* Where key lives in the index: the slot holding its entry, or the empty
 * slot where it would go. */
static size_t val_dict_slot(const val_dict *d, val key, uint64_t hash, bool *found)
{
    size_t mask = d->index_cap - 1;
    size_t i = (size_t)hash & mask;
    for (;;) {
        int64_t e = d->index[i];
        if (e < 0) {
            *found = false;
            return i;
        }
        const val_dict_entry *en = &d->entries[e];
        if (en->hash == hash && en->key.kind != VAL_MISSING &&
            (val_is_heap(key) && val_is_heap(en->key) && key.u.o == en->key.u.o
                 ? true : val_equal(en->key, key))) {
            *found = true;
            return i;
        }
        i = (i + 1) & mask;
    }
}

/* Compact the entries (dropping holes) and rebuild the index with room
 * for at least `need` entries. */
static void val_dict_rebuild(val_dict *d, size_t need)
{
    size_t n = 0;
    for (size_t i = 0; i < d->nentries; i++)
        if (d->entries[i].key.kind != VAL_MISSING)
            d->entries[n++] = d->entries[i];
    d->nentries = n;
    size_t cap = 8;
    while (cap < need)
        cap *= 2;
    if (cap != d->cap) {
        d->entries = xrealloc(d->entries, cap * sizeof *d->entries);
        d->cap = cap;
    }
    d->index_cap = cap * 2;
    free(d->index);
    d->index = xmalloc(d->index_cap * sizeof *d->index);
    for (size_t i = 0; i < d->index_cap; i++)
        d->index[i] = -1;
    for (size_t i = 0; i < n; i++) {
        bool found;
        size_t s = val_dict_slot(d, d->entries[i].key, d->entries[i].hash, &found);
        d->index[s] = (int64_t)i;
    }
}

val val_dict_get(val dv, val key)
{
    val_dict *d = val_as_dict(dv);
    if (d->len == 0)
        return val_missing();
    bool found;
    size_t s = val_dict_slot(d, key, val_hash(key), &found);
    return found ? d->entries[d->index[s]].value : val_missing();
}

val val_dict_get_str(val d, const char *key)
{
    /* A str key without allocating: build it on the stack. */
    size_t n = strlen(key);
    if (n < 120) {
        union { val_str s; char raw[sizeof(val_str) + 128]; } tmp;
        memset(&tmp, 0, sizeof tmp);
        tmp.s.h.kind = VAL_STR;
        tmp.s.h.refs = 1;
        tmp.s.len = n;
        memcpy(tmp.s.s, key, n + 1);
        val k;
        k.kind = VAL_STR;
        k.u.o = &tmp.s.h;
        return val_dict_get(d, k);
    }
    val k = val_str_cstr(key);
    val r = val_dict_get(d, k);
    val_unref(k);
    return r;
}

void val_dict_set(val dv, val key, val value)
{
    val_dict *d = val_as_dict(dv);
    if (d->nentries + 1 > d->cap)
        val_dict_rebuild(d, d->len * 2 + 1);
    uint64_t hash = val_hash(key);
    bool found;
    size_t s = val_dict_slot(d, key, hash, &found);
    if (found) {
        val_dict_entry *e = &d->entries[d->index[s]];
        val old = e->value;
        e->value = value;
        val_unref(old);
        val_unref(key);
        return;
    }
    d->index[s] = (int64_t)d->nentries;
    d->entries[d->nentries].key = key;
    d->entries[d->nentries].value = value;
    d->entries[d->nentries].hash = hash;
    d->nentries++;
    d->len++;
}

void val_dict_set_str(val d, const char *key, val value)
{
    val_dict_set(d, val_str_cstr(key), value);
}

val val_dict_pop(val dv, val key)
{
    val_dict *d = val_as_dict(dv);
    if (d->len == 0)
        return val_missing();
    bool found;
    size_t s = val_dict_slot(d, key, val_hash(key), &found);
    if (!found)
        return val_missing();
    val_dict_entry *e = &d->entries[d->index[s]];
    val v = e->value;
    val_unref(e->key);
    /* The entry becomes a hole; the index keeps pointing at it so that
     * probe chains through it stay intact until the next rebuild. */
    e->key = val_missing();
    e->value = val_none();
    d->len--;
    return v;
}

bool val_dict_next(val dv, size_t *pos, val *key, val *value)
{
    val_dict *d = val_as_dict(dv);
    while (*pos < d->nentries) {
        val_dict_entry *e = &d->entries[(*pos)++];
        if (e->key.kind != VAL_MISSING) {
            *key = e->key;
            *value = e->value;
            return true;
        }
    }
    return false;
}

void val_dict_clear(val dv)
{
    val_dict *d = val_as_dict(dv);
    val_dict_entry *entries = d->entries;
    size_t n = d->nentries;
    d->entries = NULL;
    free(d->index);
    d->index = NULL;
    d->nentries = d->cap = d->len = d->index_cap = 0;
    for (size_t i = 0; i < n; i++) {
        val_unref(entries[i].key);
        val_unref(entries[i].value);
    }
    free(entries);
}

/* ---- slices, ranges, builtins, objects, modules ------------------------- */

val val_slice_new(val start, val stop, val step)
{
    val_slice *s = val_obj_new(sizeof *s, VAL_SLICE, NULL);
    s->start = start;
    s->stop = stop;
    s->step = step;
    return val_of(s);
}

val val_range_new(int64_t start, int64_t stop, int64_t step)
{
    val_range *r = val_obj_new(sizeof *r, VAL_RANGE, NULL);
    r->start = start;
    r->stop = stop;
    r->step = step;
    return val_of(r);
}

int64_t val_range_len(const val_range *r)
{
    /* Computed in unsigned arithmetic: stop - start may not fit int64. */
    if (r->step > 0 && r->start < r->stop)
        return (int64_t)(((uint64_t)r->stop - (uint64_t)r->start - 1) / (uint64_t)r->step + 1);
    if (r->step < 0 && r->start > r->stop)
        return (int64_t)(((uint64_t)r->start - (uint64_t)r->stop - 1) /
                         (uint64_t)(-(r->step + 1) + 1ULL) + 1);
    return 0;
}

val val_builtin_new(const char *name, val_cfunc fn, val self)
{
    val_builtin *b = val_obj_new(sizeof *b, VAL_BUILTIN, NULL);
    b->name = name;
    b->fn = fn;
    b->self = self;
    b->inst_kind = VAL_ERR;
    return val_of(b);
}

val val_method_bind(const val_method *tab, size_t n, const char *name, val self)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(name, tab[i].name))
            return val_builtin_new(tab[i].qual ? tab[i].qual : tab[i].name, tab[i].fn,
                                   val_ref(self));
    return val_missing();
}

void val_method_set_all(val obj, const val_method *tab, size_t n, val self)
{
    for (size_t i = 0; i < n; i++)
        val_object_set(obj, tab[i].name, val_builtin_new(tab[i].qual ? tab[i].qual : tab[i].name,
                                                         tab[i].fn, val_ref(self)));
}

static void val_module_repr(host *h, val self, strbuf *out)
{
    (void)h;
    val name = val_object_get(self, "__name__");
    val file = val_object_get(self, "__file__");
    strbuf_printf(out, "<module '%s'", name.kind == VAL_STR ? val_as_str(name)->s : "?");
    if (file.kind == VAL_STR)
        strbuf_printf(out, " from '%s'", val_as_str(file)->s);
    strbuf_putc(out, '>');
}

static const val_type val_module_type = {
    .name = "module",
    .repr = val_module_repr,
};

val val_object_new(const val_type *type)
{
    val_object *o = val_obj_new(sizeof *o, VAL_OBJECT, type);
    o->attrs = val_dict_new();
    return val_of(o);
}

val val_module_new(const char *name)
{
    val_object *o = val_obj_new(sizeof *o, VAL_MODULE, &val_module_type);
    o->attrs = val_dict_new();
    val_object_set(val_of(o), "__name__", val_str_cstr(name));
    return val_of(o);
}

void val_object_set(val obj, const char *name, val v)
{
    val_object *o = (val_object *)obj.u.o;
    if (o->attrs.kind != VAL_DICT)
        o->attrs = val_dict_new();
    val_dict_set_str(o->attrs, name, v);
}

val val_object_get(val obj, const char *name)
{
    val attrs = ((val_object *)obj.u.o)->attrs;
    return attrs.kind == VAL_DICT ? val_dict_get_str(attrs, name) : val_missing();
}

/* ---- names, truth, repr --------------------------------------------------- */

const char *val_type_name(val v)
{
    switch (v.kind) {
    case VAL_ERR: return "<error>";
    case VAL_MISSING: return "<missing>";
    case VAL_NONE: return "NoneType";
    case VAL_BOOL: return "bool";
    case VAL_INT: return "int";
    case VAL_FLOAT: return "float";
    case VAL_DTYPE: return val_dtype_hooks ? val_dtype_hooks->name : "dtype";
    case VAL_ELLIPSIS: return "ellipsis";
    case VAL_STR: return "str";
    case VAL_TUPLE: return "tuple";
    case VAL_LIST: return "list";
    case VAL_DICT: return "dict";
    case VAL_SLICE: return "slice";
    case VAL_RANGE: return "range";
    case VAL_FUNC: return "function";
    case VAL_BUILTIN: {
        const val_builtin *b = (const val_builtin *)v.u.o;
        return b->inst_kind != VAL_ERR ? "type" : "builtin_function_or_method";
    }
    case VAL_CLASS: return "type";
    case VAL_INSTANCE: return ((const val_class *)((const val_instance *)v.u.o)->cls.u.o)->name;
    default:
        return v.u.o->type && v.u.o->type->name ? v.u.o->type->name : "object";
    }
}

int val_truth_builtin(val v)
{
    switch (v.kind) {
    case VAL_NONE: return 0;
    case VAL_BOOL: return v.u.b;
    case VAL_INT: return v.u.i != 0;
    case VAL_FLOAT: return v.u.f != 0;
    case VAL_STR: return val_as_str(v)->len != 0;
    case VAL_TUPLE:
    case VAL_LIST: return val_as_seq(v)->len != 0;
    case VAL_DICT: return val_as_dict(v)->len != 0;
    case VAL_RANGE: return val_range_len((const val_range *)v.u.o) != 0;
    case VAL_DTYPE:
    case VAL_ELLIPSIS:
    case VAL_SLICE:
    case VAL_FUNC:
    case VAL_BUILTIN:
        return 1;
    default:
        return v.u.o->type && v.u.o->type->truth ? -1 : 1;
    }
}

/* Containers being printed, to show a list that holds itself as [...]
 * and to stop at absurd depths. */
typedef struct val_repr_ctx {
    const val_obj *open[64];
    int depth;
} val_repr_ctx;

static void val_repr_in(host *h, val v, strbuf *out, val_repr_ctx *cx);

static void val_repr_items(host *h, const val_seq *s, strbuf *out, val_repr_ctx *cx)
{
    for (size_t i = 0; i < s->len; i++) {
        if (i)
            strbuf_puts(out, ", ");
        val_repr_in(h, s->items[i], out, cx);
    }
}

/* Print a container: guard against cycles and depth, then call print. */
static void val_repr_container(host *h, val v, strbuf *out, val_repr_ctx *cx)
{
    const char *ellipsis = v.kind == VAL_LIST ? "[...]" : v.kind == VAL_DICT ? "{...}" : "(...)";
    for (int i = 0; i < cx->depth && i < 64; i++)
        if (cx->open[i] == v.u.o) {
            strbuf_puts(out, ellipsis);
            return;
        }
    if (cx->depth >= 64) {
        strbuf_puts(out, ellipsis);
        return;
    }
    cx->open[cx->depth++] = v.u.o;
    if (v.kind == VAL_LIST) {
        strbuf_putc(out, '[');
        val_repr_items(h, val_as_seq(v), out, cx);
        strbuf_putc(out, ']');
    } else if (v.kind == VAL_TUPLE) {
        strbuf_putc(out, '(');
        val_repr_items(h, val_as_seq(v), out, cx);
        if (val_as_seq(v)->len == 1)
            strbuf_putc(out, ',');
        strbuf_putc(out, ')');
    } else {
        strbuf_putc(out, '{');
        size_t pos = 0;
        val k, x;
        bool first = true;
        while (val_dict_next(v, &pos, &k, &x)) {
            if (!first)
                strbuf_puts(out, ", ");
            first = false;
            val_repr_in(h, k, out, cx);
            strbuf_puts(out, ": ");
            val_repr_in(h, x, out, cx);
        }
        strbuf_putc(out, '}');
    }
    cx->depth--;
}

static void val_repr_in(host *h, val v, strbuf *out, val_repr_ctx *cx)
{
    switch (v.kind) {
    case VAL_ERR: strbuf_puts(out, "<error>"); return;
    case VAL_MISSING: strbuf_puts(out, "<missing>"); return;
    case VAL_NONE: strbuf_puts(out, "None"); return;
    case VAL_BOOL: strbuf_puts(out, v.u.b ? "True" : "False"); return;
    case VAL_INT: strbuf_printf(out, "%lld", (long long)v.u.i); return;
    case VAL_FLOAT: pyformat_float_repr(out, v.u.f); return;
    case VAL_ELLIPSIS: strbuf_puts(out, "Ellipsis"); return;
    case VAL_DTYPE:
        if (val_dtype_hooks && val_dtype_hooks->repr)
            val_dtype_hooks->repr(h, v, out);
        else
            strbuf_printf(out, "<dtype %d>", v.u.dtype);
        return;
    case VAL_STR:
        pyformat_str_repr(out, val_as_str(v)->s, val_as_str(v)->len);
        return;
    case VAL_TUPLE:
    case VAL_LIST:
    case VAL_DICT:
        val_repr_container(h, v, out, cx);
        return;
    case VAL_SLICE: {
        const val_slice *s = (const val_slice *)v.u.o;
        strbuf_puts(out, "slice(");
        val_repr_in(h, s->start, out, cx);
        strbuf_puts(out, ", ");
        val_repr_in(h, s->stop, out, cx);
        strbuf_puts(out, ", ");
        val_repr_in(h, s->step, out, cx);
        strbuf_putc(out, ')');
        return;
    }
    case VAL_RANGE: {
        const val_range *r = (const val_range *)v.u.o;
        strbuf_printf(out, "range(%lld, %lld", (long long)r->start, (long long)r->stop);
        if (r->step != 1)
            strbuf_printf(out, ", %lld", (long long)r->step);
        strbuf_putc(out, ')');
        return;
    }
    case VAL_FUNC:
        strbuf_printf(out, "<function %s at %p>", ((const val_func *)v.u.o)->name,
                        (void *)v.u.o);
        return;
    case VAL_BUILTIN: {
        const val_builtin *b = (const val_builtin *)v.u.o;
        if (b->inst_kind != VAL_ERR)
            strbuf_printf(out, "<class '%s'>", b->name);
        else if (b->self.kind != VAL_NONE)
            strbuf_printf(out, "<built-in method %s of %s object at %p>",
                            strrchr(b->name, '.') ? strrchr(b->name, '.') + 1 : b->name,
                            val_type_name(b->self), (void *)b->self.u.o);
        else
            strbuf_printf(out, "<built-in function %s>", b->name);
        return;
    }
    default: {
        const val_type *t = v.u.o->type;
        if (t && t->repr)
            t->repr(h, v, out);
        else
            strbuf_printf(out, "<%s object at %p>", val_type_name(v), (void *)v.u.o);
        return;
    }
    }
}

void val_print_fields(host *h, val self, const char *name, const char *const *fields,
                      strbuf *out)
{
    strbuf_printf(out, "%s(", name);
    for (int i = 0; fields[i]; i++) {
        strbuf_printf(out, "%s%s=", i ? ", " : "", fields[i]);
        val_print_repr(h, val_object_get(self, fields[i]), out);
    }
    strbuf_putc(out, ')');
}

void val_print_repr(host *h, val v, strbuf *out)
{
    val_repr_ctx cx;
    cx.depth = 0;
    val_repr_in(h, v, out, &cx);
}

void val_print_str(host *h, val v, strbuf *out)
{
    if (v.kind == VAL_STR) {
        strbuf_putn(out, val_as_str(v)->s, val_as_str(v)->len);
        return;
    }
    const val_type *t = val_type_of(v);
    if (t && t->str) {
        t->str(h, v, out);
        return;
    }
    val_print_repr(h, v, out);
}
