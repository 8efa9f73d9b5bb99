/* functoolsmod.c - the functools module: partial (a type whose objects
 * have a call hook), reduce, and cache, lru_cache and wraps as decorators
 * that give the function back unchanged. */
#include "builtins_impl.h"

#include <stdlib.h>
#include <string.h>

/* ---- functools ------------------------------------------------------------------------- */

/* functools.partial(func, *args, **keywords) */
typedef struct builtin_partial {
    val_object o;
    val func, args, keywords;   /* callable, tuple, dict */
} builtin_partial;

static void builtin_partial_free(val_obj *o)
{
    builtin_partial *p = (builtin_partial *)o;
    val_unref(p->func);
    val_unref(p->args);
    val_unref(p->keywords);
}

static val builtin_partial_call(host *h, val self, int argc, const val *argv,
                                const val_kwargs *kw, src_span at)
{
    const builtin_partial *p = (const builtin_partial *)self.u.o;
    const val_seq *pa = val_as_seq(p->args);
    int n = (int)pa->len + argc;
    val *args = xmalloc((size_t)(n ? n : 1) * sizeof *args);
    for (size_t i = 0; i < pa->len; i++)
        args[i] = pa->items[i];
    for (int i = 0; i < argc; i++)
        args[pa->len + (size_t)i] = argv[i];
    /* The call's keywords override the stored ones. */
    size_t nk = val_as_dict(p->keywords)->len + (size_t)(kw ? kw->n : 0);
    const char **names = xmalloc((nk ? nk : 1) * sizeof *names);
    val *values = xmalloc((nk ? nk : 1) * sizeof *values);
    int m = 0;
    size_t pos = 0;
    val k, v;
    while (val_dict_next(p->keywords, &pos, &k, &v)) {
        bool overridden = false;
        for (int i = 0; kw && i < kw->n; i++)
            overridden = overridden || !strcmp(kw->names[i], val_as_str(k)->s);
        if (!overridden) {
            names[m] = val_as_str(k)->s;
            values[m++] = v;
        }
    }
    for (int i = 0; kw && i < kw->n; i++) {
        names[m] = kw->names[i];
        values[m++] = kw->values[i];
    }
    val_kwargs all = {m, names, values};
    val r = host_call(h, p->func, n, args, &all, at);
    free(args);
    free(names);
    free(values);
    return r;
}

static void builtin_partial_repr(host *h, val self, strbuf *out)
{
    const builtin_partial *p = (const builtin_partial *)self.u.o;
    strbuf_puts(out, "functools.partial(");
    val_print_repr(h, p->func, out);
    const val_seq *a = val_as_seq(p->args);
    for (size_t i = 0; i < a->len; i++) {
        strbuf_puts(out, ", ");
        val_print_repr(h, a->items[i], out);
    }
    size_t pos = 0;
    val k, v;
    while (val_dict_next(p->keywords, &pos, &k, &v)) {
        strbuf_printf(out, ", %s=", val_as_str(k)->s);
        val_print_repr(h, v, out);
    }
    strbuf_putc(out, ')');
}

static val builtin_partial_getattr(host *h, val self, const char *name, src_span at)
{
    (void)h;
    (void)at;
    const builtin_partial *p = (const builtin_partial *)self.u.o;
    if (!strcmp(name, "func"))
        return val_ref(p->func);
    if (!strcmp(name, "args"))
        return val_ref(p->args);
    if (!strcmp(name, "keywords"))
        return val_ref(p->keywords);
    return val_missing();
}

static const char *const builtin_partial_attrs[] = {"func", "args", "keywords", NULL};

static const val_type builtin_partial_type = {
    .name = "partial",
    .getattr = builtin_partial_getattr,
    .call = builtin_partial_call,
    .repr = builtin_partial_repr,
    .free = builtin_partial_free,
    .attr_names = builtin_partial_attrs,
};

BUILTIN_FN(builtin_functools_partial)
{
    (void)self;
    if (argc < 1)
        return host_raise(h, HOST_EXC_TYPE, at,
                          "partial() takes at least one argument (the function)");
    const val_type *t = val_type_of(argv[0]);
    if (argv[0].kind != VAL_FUNC && argv[0].kind != VAL_BUILTIN && !(t && t->call))
        return host_raise(h, HOST_EXC_TYPE, at,
                          "the first argument of partial() must be callable, not a "
                          "'%s'", val_type_name(argv[0]));
    builtin_partial *p = val_obj_new(sizeof *p, VAL_OBJECT, &builtin_partial_type);
    p->func = val_ref(argv[0]);
    p->args = val_tuple_new((size_t)argc - 1);
    for (int i = 1; i < argc; i++)
        val_seq_set(p->args, (size_t)i - 1, val_ref(argv[i]));
    p->keywords = val_dict_new();
    for (int i = 0; kw && i < kw->n; i++)
        val_dict_set_str(p->keywords, kw->names[i], val_ref(kw->values[i]));
    return val_of(p);
}

BUILTIN_FN(builtin_functools_reduce)
{
    (void)self;
    if (!builtin_nargs(h, "reduce", argc, kw, 2, 3, at))
        return val_err();
    val items = host_to_list(h, argv[1], at);
    if (items.kind == VAL_ERR)
        return items;
    const val_seq *s = val_as_seq(items);
    size_t i = 0;
    val acc;
    if (argc == 3) {
        acc = val_ref(argv[2]);
    } else if (s->len == 0) {
        val_unref(items);
        return host_raise(h, HOST_EXC_TYPE, at, "reduce() of empty iterable with no initial value");
    } else {
        acc = val_ref(s->items[i++]);
    }
    for (; i < s->len && acc.kind != VAL_ERR; i++) {
        val args[2] = {acc, s->items[i]};
        val r = host_call(h, argv[0], 2, args, NULL, at);
        val_unref(acc);
        acc = r;
    }
    val_unref(items);
    return acc;
}

/* functools.cache / lru_cache / wraps: decorators that give the function
 * back unchanged (memoising only saves time; results are the same). */
BUILTIN_FN(builtin_functools_identity)
{
    (void)self;
    if (!builtin_nargs(h, "cache", argc, kw, 1, 1, at))
        return val_err();
    return val_ref(argv[0]);
}

BUILTIN_FN(builtin_functools_lru_cache)
{
    (void)h;
    (void)at;
    (void)self;
    (void)kw;
    if (argc == 1 && (argv[0].kind == VAL_FUNC || argv[0].kind == VAL_BUILTIN))
        return val_ref(argv[0]);   /* @lru_cache without parentheses */
    return val_builtin_new("functools.lru_cache", builtin_functools_identity, val_none());
}

BUILTIN_FN(builtin_functools_wraps)
{
    (void)self;
    (void)argc;
    (void)argv;
    (void)kw;
    (void)at;
    (void)h;
    return val_builtin_new("functools.wraps", builtin_functools_identity, val_none());
}

void builtin_functools_init(host *h)
{
    val m = val_module_new("functools");
    val p = val_builtin_new("functools.partial", builtin_functools_partial, val_none());
    ((val_builtin *)p.u.o)->inst_kind = VAL_OBJECT;
    ((val_builtin *)p.u.o)->inst_type = &builtin_partial_type;
    val_object_set(m, "partial", p);
    host_def(m, "functools.reduce", builtin_functools_reduce);
    host_def(m, "functools.cache", builtin_functools_identity);
    host_def(m, "functools.lru_cache", builtin_functools_lru_cache);
    host_def(m, "functools.wraps", builtin_functools_wraps);
    host_register_module(h, "functools", m);
}
