/* copymod.c - the copy module: copy (a shallow copy: new lists, dicts,
 * sets and instances holding the same items) and deepcopy (items copied
 * too, each object once, so shared and cyclic structures keep their
 * shape), with the classes' __copy__ and __deepcopy__(memo).  Tensors are
 * cloned by deepcopy (what PyTorch's __deepcopy__ does) and kept by copy;
 * other objects written in C (functions, modules, classes, Configs) are
 * atomic, as CPython treats functions and classes. */
#include "builtins_impl.h"

#include <stdint.h>
#include <string.h>

/* The key of obj in a memo dict: its address. */
static val copy_key(val obj)
{
    return val_int((int64_t)(intptr_t)obj.u.o);
}

/* A class's __copy__ / __deepcopy__ of obj (an instance): its result,
 * or VAL_MISSING when the class has none. */
static val copy_hook(host *h, val obj, const char *name, int argc, const val *argv,
                     src_span at)
{
    if (obj.kind != VAL_INSTANCE)
        return val_missing();
    val cls = ((val_instance *)obj.u.o)->cls;
    if (class_lookup(cls, name).kind == VAL_MISSING)
        return val_missing();
    val m = host_getattr(h, obj, name, at);
    if (m.kind == VAL_ERR)
        return m;
    val r = host_call(h, m, argc, argv, NULL, at);
    val_unref(m);
    return r;
}

static val copy_deep(host *h, val v, val memo, int depth, src_span at);

/* A new instance of obj's class holding what fn makes of each attribute
 * (the same values, or deep copies). */
static val copy_instance(host *h, val obj, val memo, int depth, src_span at)
{
    val cls = ((val_instance *)obj.u.o)->cls;
    val r = class_instance_new(cls);
    if (memo.kind == VAL_DICT)
        val_dict_set(memo, copy_key(obj), val_ref(r));
    val attrs = ((val_object *)obj.u.o)->attrs;
    size_t pos = 0;
    val k, x;
    while (val_dict_next(attrs, &pos, &k, &x)) {
        val c = memo.kind == VAL_DICT ? copy_deep(h, x, memo, depth + 1, at) : val_ref(x);
        if (c.kind == VAL_ERR) {
            val_unref(r);
            return c;
        }
        val_object_set(r, val_as_str(k)->s, c);
    }
    return r;
}

static val copy_shallow(host *h, val v, src_span at)
{
    val r = copy_hook(h, v, "__copy__", 0, NULL, at);
    if (r.kind != VAL_MISSING)
        return r;
    switch (v.kind) {
    case VAL_LIST: {
        const val_seq *s = val_as_seq(v);
        val l = val_list_new(s->len);
        for (size_t i = 0; i < s->len; i++)
            val_list_push(l, val_ref(s->items[i]));
        return l;
    }
    case VAL_DICT: {
        val d = val_dict_new();
        size_t pos = 0;
        val k, x;
        while (val_dict_next(v, &pos, &k, &x))
            val_dict_set(d, val_ref(k), val_ref(x));
        return d;
    }
    case VAL_INSTANCE:
        if (((val_class *)((val_instance *)v.u.o)->cls.u.o)->exception)
            break;
        return copy_instance(h, v, val_none(), 0, at);
    default:
        break;
    }
    if (set_is(v) && val_type_of(v) == set_val_type(false))
        return set_from(h, v, false, at);
    return val_ref(v);
}

static val copy_deep(host *h, val v, val memo, int depth, src_span at)
{
    if (!val_is_heap(v) || v.kind == VAL_STR)
        return val_ref(v);
    if (depth > 900)
        return host_raise(h, HOST_EXC_RECURSION, at, "maximum recursion depth exceeded in "
                          "deepcopy()");
    val seen = val_dict_get(memo, copy_key(v));
    if (seen.kind != VAL_MISSING)
        return val_ref(seen);
    val r = copy_hook(h, v, "__deepcopy__", 1, &memo, at);
    if (r.kind != VAL_MISSING) {
        if (r.kind != VAL_ERR)
            val_dict_set(memo, copy_key(v), val_ref(r));
        return r;
    }
    switch (v.kind) {
    case VAL_LIST: {
        const val_seq *s = val_as_seq(v);
        val l = val_list_new(s->len);
        val_dict_set(memo, copy_key(v), val_ref(l));
        for (size_t i = 0; i < s->len; i++) {
            val c = copy_deep(h, s->items[i], memo, depth + 1, at);
            if (c.kind == VAL_ERR) {
                val_unref(l);
                return c;
            }
            val_list_push(l, c);
        }
        return l;
    }
    case VAL_TUPLE: {
        const val_seq *s = val_as_seq(v);
        val t = val_tuple_new(s->len);
        bool same = true;
        for (size_t i = 0; i < s->len; i++) {
            val c = copy_deep(h, s->items[i], memo, depth + 1, at);
            if (c.kind == VAL_ERR) {
                val_unref(t);
                return c;
            }
            same = same && (!val_is_heap(c) ? val_equal(c, s->items[i])
                                            : c.u.o == s->items[i].u.o);
            val_seq_set(t, i, c);
        }
        if (same) {
            val_unref(t);
            t = val_ref(v);
        }
        val_dict_set(memo, copy_key(v), val_ref(t));
        return t;
    }
    case VAL_DICT: {
        val d = val_dict_new();
        val_dict_set(memo, copy_key(v), val_ref(d));
        size_t pos = 0;
        val k, x;
        while (val_dict_next(v, &pos, &k, &x)) {
            val ck = copy_deep(h, k, memo, depth + 1, at);
            val cx = ck.kind == VAL_ERR ? ck : copy_deep(h, x, memo, depth + 1, at);
            if (cx.kind == VAL_ERR) {
                val_unref(ck);
                val_unref(d);
                return cx;
            }
            val_dict_set(d, ck, cx);
        }
        return d;
    }
    case VAL_INSTANCE:
        if (((val_class *)((val_instance *)v.u.o)->cls.u.o)->exception)
            return val_ref(v);
        return copy_instance(h, v, memo, depth, at);
    case VAL_TENSOR: {
        val c = host_call_method(h, v, "clone", 0, NULL, NULL, at);
        if (c.kind != VAL_ERR)
            val_dict_set(memo, copy_key(v), val_ref(c));
        return c;
    }
    default:
        break;
    }
    if (set_is(v)) {
        /* set items are hashable: ints, strs, tuples, frozensets, objects */
        val c = set_from(h, v, val_type_of(v) == set_val_type(true), at);
        if (c.kind != VAL_ERR)
            val_dict_set(memo, copy_key(v), val_ref(c));
        return c;
    }
    return val_ref(v);
}

BUILTIN_FN(copy_copy)
{
    (void)self;
    if (!builtin_nargs(h, "copy", argc, kw, 1, 1, at))
        return val_err();
    return copy_shallow(h, argv[0], at);
}

BUILTIN_FN(copy_deepcopy)
{
    (void)self;
    val a[2];
    if (!host_args(h, at, "deepcopy", "x, memo=", argc, argv, kw, a))
        return val_err();
    val memo = a[1].kind == VAL_DICT ? val_ref(a[1]) : val_dict_new();
    val r = copy_deep(h, a[0], memo, 0, at);
    val_unref(memo);
    return r;
}

void builtin_copy_init(host *h)
{
    val m = val_module_new("copy");
    host_def(m, "copy.copy", copy_copy);
    host_def(m, "copy.deepcopy", copy_deepcopy);
    val err = class_new("Error", host_exc_class(h, HOST_EXC_EXCEPTION), true);
    val_object_set(err, "__module__", val_str_cstr("copy"));
    val_object_set(m, "Error", err);
    host_register_module(h, "copy", m);
}
