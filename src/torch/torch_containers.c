/* torch_containers.c - torch.nn's containers: Sequential (modules called
 * in a row), ModuleList and ModuleDict, built-in classes derived from
 * torch.nn.Module (torch_module.c).  They keep their modules where every
 * module keeps its children, in `_modules` (keys "0", "1", ... for the
 * first two, in order), so that parameters(), to(), state_dict() and
 * repr() see them as PyTorch's do.  Sequential(OrderedDict(...)) is not
 * supported (tritsim has no collections.OrderedDict). */
#define _POSIX_C_SOURCE 200809L
#include "torch_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CONT_FN(name) TORCH_MODULE_METHOD(name)

/* self._modules (borrowed). */
static val cont_mods(val self)
{
    return val_dict_get_str(((val_object *)self.u.o)->attrs, "_modules");
}

static size_t cont_len(val self)
{
    val d = cont_mods(self);
    return d.kind == VAL_DICT ? val_as_dict(d)->len : 0;
}

/* The keys and values of _modules, in order, as two lists. */
static void cont_items(val self, val *keys, val *values)
{
    *keys = val_list_new(4);
    *values = val_list_new(4);
    val d = cont_mods(self);
    size_t pos = 0;
    val k, v;
    while (d.kind == VAL_DICT && val_dict_next(d, &pos, &k, &v)) {
        val_list_push(*keys, val_ref(k));
        val_list_push(*values, val_ref(v));
    }
}

/* self.add_module(name, m): checks that m is a Module. */
static bool cont_add(host *h, val self, val name, val m, src_span at)
{
    val args[2] = {name, m};
    val r = host_call_method(h, self, "add_module", 2, args, NULL, at);
    val_unref(r);
    return r.kind != VAL_ERR;
}

static bool cont_add_index(host *h, val self, size_t i, val m, src_span at)
{
    val name = val_str_fmt("%zu", i);
    bool ok = cont_add(h, self, name, m, at);
    val_unref(name);
    return ok;
}

/* An int index into n items (negative from the end); IndexError past it. */
static bool cont_index(host *h, val key, size_t n, src_span at, size_t *out)
{
    int64_t i;
    if (!host_to_int(h, key, at, "index", &i))
        return false;
    if (i < -(int64_t)n || i >= (int64_t)n) {
        host_raise(h, HOST_EXC_INDEX, at, "index %lld is out of range", (long long)i);
        return false;
    }
    *out = (size_t)(i < 0 ? i + (int64_t)n : i);
    return true;
}

/* A new, empty container of the torch.nn class `name`. */
static val cont_new(host *h, const char *name, src_span at)
{
    val nn = host_module(h, "torch.nn");
    val cls = val_object_get(nn, name);
    return host_call(h, cls, 0, NULL, NULL, at);
}

/* self[key] for Sequential and ModuleList: a module, or for a slice a new
 * container (Sequential keeps the keys, ModuleList numbers them again). */
static val cont_getitem(host *h, val self, val key, src_span at, const char *cls)
{
    val keys, values;
    cont_items(self, &keys, &values);
    size_t n = val_as_seq(values)->len, i;
    val r = val_err();
    if (key.kind == VAL_SLICE) {
        val ks = host_getitem(h, keys, key, at);
        val vs = ks.kind == VAL_ERR ? ks : host_getitem(h, values, key, at);
        if (vs.kind != VAL_ERR && (r = cont_new(h, cls, at)).kind != VAL_ERR) {
            for (size_t k = 0; k < val_as_seq(vs)->len; k++) {
                bool ok = !strcmp(cls, "Sequential")
                          ? cont_add(h, r, val_as_seq(ks)->items[k], val_as_seq(vs)->items[k],
                                     at)
                          : cont_add_index(h, r, k, val_as_seq(vs)->items[k], at);
                if (!ok) {
                    val_unref(r);
                    r = val_err();
                    break;
                }
            }
        }
        if (ks.kind != VAL_ERR)
            val_unref(ks);
        if (vs.kind != VAL_ERR)
            val_unref(vs);
    } else if (cont_index(h, key, n, at, &i)) {
        r = val_ref(val_as_seq(values)->items[i]);
    }
    val_unref(keys);
    val_unref(values);
    return r;
}

/* self[i] = module for Sequential and ModuleList */
CONT_FN(cont_setitem)
{
    val a[2];
    size_t i;
    if (!host_args(h, at, "__setitem__", "idx, module", argc, argv, kw, a) ||
        !cont_index(h, a[0], cont_len(self), at, &i))
        return val_err();
    val keys, values;
    cont_items(self, &keys, &values);
    bool ok = cont_add(h, self, val_as_seq(keys)->items[i], a[1], at);
    val_unref(keys);
    val_unref(values);
    return ok ? val_none() : val_err();
}

CONT_FN(cont_len_fn)
{
    (void)h;
    (void)argc;
    (void)argv;
    (void)kw;
    (void)at;
    return val_int((int64_t)cont_len(self));
}

/* iter(self): the modules (Sequential, ModuleList) */
CONT_FN(cont_iter_values)
{
    (void)h;
    (void)argc;
    (void)argv;
    (void)kw;
    (void)at;
    val keys, values;
    cont_items(self, &keys, &values);
    val_unref(keys);
    return values;
}

CONT_FN(cont_append)
{
    val a[1];
    if (!host_args(h, at, "append", "module", argc, argv, kw, a) ||
        !cont_add_index(h, self, cont_len(self), a[0], at))
        return val_err();
    return val_ref(self);
}

CONT_FN(cont_extend)
{
    val a[1];
    if (!host_args(h, at, "extend", "modules", argc, argv, kw, a))
        return val_err();
    val l = host_to_list(h, a[0], at);
    if (l.kind == VAL_ERR)
        return l;
    bool ok = true;
    for (size_t i = 0; ok && i < val_as_seq(l)->len; i++)
        ok = cont_add_index(h, self, cont_len(self), val_as_seq(l)->items[i], at);
    val_unref(l);
    return ok ? val_ref(self) : val_err();
}

/* ---- Sequential ----------------------------------------------------------------------- */

CONT_FN(seq_init)
{
    if (kw && kw->n)
        return host_raise(h, HOST_EXC_TYPE, at, "Sequential() takes no keyword arguments");
    torch_module_init_self(self);
    for (int i = 0; i < argc; i++)
        if (!cont_add_index(h, self, (size_t)i, argv[i], at))
            return val_err();
    return val_none();
}

CONT_FN(seq_forward)
{
    val a[1];
    if (!host_args(h, at, "forward", "input", argc, argv, kw, a))
        return val_err();
    val keys, values;
    cont_items(self, &keys, &values);
    val x = val_ref(a[0]);
    for (size_t i = 0; x.kind != VAL_ERR && i < val_as_seq(values)->len; i++) {
        val y = host_call(h, val_as_seq(values)->items[i], 1, &x, NULL, at);
        val_unref(x);
        x = y;
    }
    val_unref(keys);
    val_unref(values);
    return x;
}

CONT_FN(seq_getitem)
{
    val a[1];
    if (!host_args(h, at, "__getitem__", "idx", argc, argv, kw, a))
        return val_err();
    return cont_getitem(h, self, a[0], at, "Sequential");
}

/* ---- ModuleList ----------------------------------------------------------------------- */

CONT_FN(list_init)
{
    val a[1];
    if (!host_args(h, at, "ModuleList", "modules=", argc, argv, kw, a))
        return val_err();
    torch_module_init_self(self);
    if (a[0].kind == VAL_MISSING || a[0].kind == VAL_NONE)
        return val_none();
    val r = cont_extend(h, self, 1, a, NULL, at);
    if (r.kind == VAL_ERR)
        return r;
    val_unref(r);
    return val_none();
}

CONT_FN(list_getitem)
{
    val a[1];
    if (!host_args(h, at, "__getitem__", "idx", argc, argv, kw, a))
        return val_err();
    return cont_getitem(h, self, a[0], at, "ModuleList");
}

CONT_FN(list_insert)
{
    val a[2];
    int64_t index;
    if (!host_args(h, at, "insert", "index, module", argc, argv, kw, a) ||
        !host_to_int(h, a[0], at, "index", &index))
        return val_err();
    val keys, values;
    cont_items(self, &keys, &values);
    int64_t n = (int64_t)val_as_seq(values)->len;
    if (index < 0)
        index = index + n < 0 ? 0 : index + n;
    if (index > n)
        index = n;
    bool ok = true;
    /* modules[str(i)] = modules[str(i - 1)] from the end down to index */
    for (int64_t i = n; ok && i > index; i--)
        ok = cont_add_index(h, self, (size_t)i, val_as_seq(values)->items[i - 1], at);
    ok = ok && cont_add_index(h, self, (size_t)index, a[1], at);
    val_unref(keys);
    val_unref(values);
    return ok ? val_none() : val_err();
}

/* ModuleList's repr: runs of equal modules shown once, "(0-2): 3 x Linear(...)". */
CONT_FN(list_repr)
{
    (void)at;
    (void)argc;
    (void)argv;
    (void)kw;
    val keys, values;
    cont_items(self, &keys, &values);
    size_t n = val_as_seq(values)->len;
    val *reprs = xcalloc(n ? n : 1, sizeof *reprs);
    bool ok = true;
    for (size_t i = 0; ok && i < n; i++)
        ok = (reprs[i] = host_repr(h, val_as_seq(values)->items[i])).kind != VAL_ERR;
    const char *name = ((val_class *)((val_instance *)self.u.o)->cls.u.o)->name;
    strbuf out;
    strbuf_init(&out);
    strbuf_printf(&out, "%s(", name);
    for (size_t i = 0; ok && i < n;) {
        size_t j = i;
        while (j + 1 < n && !strcmp(val_as_str(reprs[j + 1])->s, val_as_str(reprs[i])->s))
            j++;
        strbuf_puts(&out, "\n  ");
        if (j > i)
            strbuf_printf(&out, "(%zu-%zu): %zu x ", i, j, j - i + 1);
        else
            strbuf_printf(&out, "(%zu): ", i);
        for (const char *p = val_as_str(reprs[i])->s; *p; p++) {
            strbuf_putc(&out, *p);
            if (*p == '\n')
                strbuf_puts(&out, "  ");
        }
        i = j + 1;
    }
    if (n)
        strbuf_putc(&out, '\n');
    strbuf_putc(&out, ')');
    for (size_t i = 0; i < n; i++)
        if (reprs[i].kind == VAL_STR)
            val_unref(reprs[i]);
    free(reprs);
    val_unref(keys);
    val_unref(values);
    if (!ok) {
        strbuf_free(&out);
        return val_err();
    }
    return val_str_from_buf(&out);
}

/* ---- ModuleDict ----------------------------------------------------------------------- */

CONT_FN(dict_update)
{
    val a[1];
    if (!host_args(h, at, "update", "modules", argc, argv, kw, a))
        return val_err();
    bool ok = true;
    if (a[0].kind == VAL_DICT || torch_module_is(a[0])) {
        val d = a[0].kind == VAL_DICT ? a[0] : cont_mods(a[0]);
        size_t pos = 0;
        val k, v;
        while (ok && val_dict_next(d, &pos, &k, &v))
            ok = cont_add(h, self, k, v, at);
        return ok ? val_none() : val_err();
    }
    val l = host_to_list(h, a[0], at);
    if (l.kind == VAL_ERR)
        return l;
    for (size_t i = 0; ok && i < val_as_seq(l)->len; i++) {
        val p = val_as_seq(l)->items[i];
        if ((p.kind != VAL_TUPLE && p.kind != VAL_LIST) || val_as_seq(p)->len != 2) {
            host_raise(h, HOST_EXC_TYPE, at, "ModuleDict update sequence element #%zu should "
                       "be a (key, module) pair", i);
            ok = false;
            break;
        }
        ok = cont_add(h, self, val_as_seq(p)->items[0], val_as_seq(p)->items[1], at);
    }
    val_unref(l);
    return ok ? val_none() : val_err();
}

CONT_FN(dict_init)
{
    val a[1];
    if (!host_args(h, at, "ModuleDict", "modules=", argc, argv, kw, a))
        return val_err();
    torch_module_init_self(self);
    if (a[0].kind == VAL_MISSING || a[0].kind == VAL_NONE)
        return val_none();
    return dict_update(h, self, 1, a, NULL, at);
}

CONT_FN(dict_getitem)
{
    val a[1];
    if (!host_args(h, at, "__getitem__", "key", argc, argv, kw, a))
        return val_err();
    return host_getitem(h, cont_mods(self), a[0], at);
}

CONT_FN(dict_setitem)
{
    val a[2];
    if (!host_args(h, at, "__setitem__", "key, module", argc, argv, kw, a) ||
        !cont_add(h, self, a[0], a[1], at))
        return val_err();
    return val_none();
}

CONT_FN(dict_pop)
{
    val a[1];
    if (!host_args(h, at, "pop", "key", argc, argv, kw, a))
        return val_err();
    val v = host_getitem(h, cont_mods(self), a[0], at);
    if (v.kind != VAL_ERR)
        val_unref(val_dict_pop(cont_mods(self), a[0]));
    return v;
}

CONT_FN(dict_contains)
{
    val a[1];
    if (!host_args(h, at, "__contains__", "key", argc, argv, kw, a))
        return val_err();
    return val_bool(a[0].kind == VAL_STR &&
                    val_dict_get(cont_mods(self), a[0]).kind != VAL_MISSING);
}

CONT_FN(dict_clear)
{
    (void)h;
    (void)argc;
    (void)argv;
    (void)kw;
    (void)at;
    val_dict_clear(cont_mods(self));
    return val_none();
}

/* keys() (and iter()), values(), items() as lists */
static val dict_view(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                     src_span at, int which)
{
    if (!torch_method_self(h, &self, &argc, &argv, at))
        return val_err();
    (void)h;
    (void)argc;
    (void)argv;
    (void)kw;
    (void)at;
    val keys, values;
    cont_items(self, &keys, &values);
    if (which == 0) {
        val_unref(values);
        return keys;
    }
    if (which == 1) {
        val_unref(keys);
        return values;
    }
    val items = val_list_new(val_as_seq(keys)->len);
    for (size_t i = 0; i < val_as_seq(keys)->len; i++) {
        val pair[2] = {val_ref(val_as_seq(keys)->items[i]), val_ref(val_as_seq(values)->items[i])};
        val_list_push(items, val_tuple_of(2, pair));
    }
    val_unref(keys);
    val_unref(values);
    return items;
}

HOST_CFUNC_CALLING(dict_keys, dict_view, 0)
HOST_CFUNC_CALLING(dict_values, dict_view, 1)
HOST_CFUNC_CALLING(dict_items, dict_view, 2)

/* ---- the classes ------------------------------------------------------------------------ */

static void cont_class(val nn, val module, const char *name, const val_method *methods,
                       size_t n)
{
    val cls = class_new(name, module, true);
    val_object_set(cls, "__module__", val_str_cstr("torch.nn"));
    val_method_set_all(cls, methods, n, val_none());
    val_object_set(nn, name, cls);
}

void torch_containers_add(host *h, val nn, val module)
{
    (void)h;
    static const val_method seq[] = {
        {"__init__", "Sequential.__init__", seq_init},
        {"forward", "Sequential.forward", seq_forward},
        {"__getitem__", "Sequential.__getitem__", seq_getitem},
        {"__setitem__", "Sequential.__setitem__", cont_setitem},
        {"__len__", "Sequential.__len__", cont_len_fn},
        {"__iter__", "Sequential.__iter__", cont_iter_values},
        {"append", "Sequential.append", cont_append},
        {"extend", "Sequential.extend", cont_extend},
    };
    static const val_method list[] = {
        {"__init__", "ModuleList.__init__", list_init},
        {"__getitem__", "ModuleList.__getitem__", list_getitem},
        {"__setitem__", "ModuleList.__setitem__", cont_setitem},
        {"__len__", "ModuleList.__len__", cont_len_fn},
        {"__iter__", "ModuleList.__iter__", cont_iter_values},
        {"__iadd__", "ModuleList.__iadd__", cont_extend},
        {"__repr__", "ModuleList.__repr__", list_repr},
        {"append", "ModuleList.append", cont_append},
        {"extend", "ModuleList.extend", cont_extend},
        {"insert", "ModuleList.insert", list_insert},
    };
    static const val_method dict[] = {
        {"__init__", "ModuleDict.__init__", dict_init},
        {"__getitem__", "ModuleDict.__getitem__", dict_getitem},
        {"__setitem__", "ModuleDict.__setitem__", dict_setitem},
        {"__len__", "ModuleDict.__len__", cont_len_fn},
        {"__iter__", "ModuleDict.__iter__", dict_keys},
        {"__contains__", "ModuleDict.__contains__", dict_contains},
        {"keys", "ModuleDict.keys", dict_keys},
        {"values", "ModuleDict.values", dict_values},
        {"items", "ModuleDict.items", dict_items},
        {"update", "ModuleDict.update", dict_update},
        {"pop", "ModuleDict.pop", dict_pop},
        {"clear", "ModuleDict.clear", dict_clear},
    };
    cont_class(nn, module, "Sequential", seq, sizeof seq / sizeof seq[0]);
    cont_class(nn, module, "ModuleList", list, sizeof list / sizeof list[0]);
    cont_class(nn, module, "ModuleDict", dict, sizeof dict / sizeof dict[0]);
}
