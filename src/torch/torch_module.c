/* torch_module.c - torch.nn.Module, the class that programs derive their
 * layers from, and torch.nn.Parameter.
 *
 * Module is a built-in class (class_new, as torch.autograd.Function) whose
 * methods are C functions, so that `class Net(nn.Module)` works as in
 * PyTorch.  Its state is PyTorch's: Module.__init__ puts `training` and
 * the dicts `_parameters`, `_buffers`, `_modules` (and the set
 * `_non_persistent_buffers_set`) into the instance, and Module.__setattr__
 * files a Parameter, a Module or a registered buffer assigned to an
 * attribute into its dict (insertion order is registration order), where
 * Module.__getattr__ finds it again.  parameters(), named_modules(),
 * state_dict(), ... walk the modules in PyTorch's order (pre-order,
 * children in registration order, each object once).  to() and its
 * shorthands convert parameters in place (param.data = converted, so a
 * reference kept to a parameter sees the change) and replace buffers.
 *
 * A Parameter is an ordinary tensor with the `param` flag: a leaf sharing
 * the elements of the tensor it was made from, printed "Parameter
 * containing:".  nn.Parameter is an object standing for the type (call
 * and isinstance), not a class a program can derive from.
 *
 * torch_layers.c builds the library's modules (Linear, LayerNorm, the
 * losses, Sequential, ...) on this. */
#define _POSIX_C_SOURCE 200809L
#include "torch_impl.h"

#include "autograd.h"

#include <stdlib.h>
#include <string.h>

#define MOD_FN(name) TORCH_MODULE_METHOD(name)

bool torch_method_self(host *h, val *self, int *argc, const val **argv, src_span at)
{
    if (self->kind != VAL_NONE)
        return true;
    const char *name = h->calling ? h->calling->name : "method";
    if (*argc < 1 || !torch_module_is((*argv)[0])) {
        host_raise(h, HOST_EXC_TYPE, at, "%s() needs a torch.nn.Module as its first argument "
                   "(called through the class)", name);
        return false;
    }
    *self = (*argv)[0];
    (*argc)--;
    (*argv)++;
    return true;
}

/* ---- Parameter --------------------------------------------------------------- */

val torch_parameter_new(host *h, const tensor *t, bool requires_grad, src_span at)
{
    tensor *p = tensor_view_of(t, t->ndim, t->shape, t->strides, t->offset);
    p->param = true;
    if (requires_grad) {
        if (!dtype_is_float(p->type)) {
            tensor_unref(p);
            return host_error(h, at, "Only Tensors of floating point and complex dtype can "
                              "require gradients");
        }
        p->requires_grad = true;
    }
    return tensor_val(p);
}

static val param_call(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                      src_span at)
{
    (void)self;
    val a[2];
    if (!host_args(h, at, "Parameter", "data=, requires_grad=", argc, argv, kw, a))
        return val_err();
    bool rg = true;
    if (a[1].kind != VAL_MISSING && !torch_bool_arg(h, a[1], at, "Parameter", "requires_grad",
                                                    &rg))
        return val_err();
    if (a[0].kind == VAL_MISSING || a[0].kind == VAL_NONE) {
        char err[TENSOR_ERR_LEN];
        int64_t zero = 0;
        tensor *e = tensor_new(DTYPE_FP32, 1, &zero, false, err);
        if (!e)
            return torch_fail(h, at, err);
        val r = torch_parameter_new(h, e, rg, at);
        tensor_unref(e);
        return r;
    }
    tensor *t = torch_tensor_arg(h, a[0], at, "Parameter", "data");
    return t ? torch_parameter_new(h, t, rg, at) : val_err();
}

static bool param_instancecheck(val self, val v)
{
    (void)self;
    tensor *t = tensor_of(v);
    return t && t->param;
}

static void param_type_repr(host *h, val self, strbuf *out)
{
    (void)h;
    (void)self;
    strbuf_puts(out, "<class 'torch.nn.parameter.Parameter'>");
}

static val param_type_getattr(host *h, val self, const char *name, src_span at)
{
    (void)h;
    (void)self;
    (void)at;
    if (!strcmp(name, "__name__") || !strcmp(name, "__qualname__"))
        return val_str_cstr("Parameter");
    if (!strcmp(name, "__module__"))
        return val_str_cstr("torch.nn.parameter");
    return val_missing();
}

static const val_type param_type = {
    .name = "type",
    .getattr = param_type_getattr,
    .call = param_call,
    .repr = param_type_repr,
    .instancecheck = param_instancecheck,
};

static bool mod_is_param(val v)
{
    tensor *t = tensor_of(v);
    return t && t->param;
}

/* ---- what a module holds --------------------------------------------------------- */

bool torch_module_is(val v)
{
    if (v.kind != VAL_INSTANCE)
        return false;
    for (val c = ((val_instance *)v.u.o)->cls; c.kind == VAL_CLASS;
         c = ((val_class *)c.u.o)->base) {
        val_class *k = (val_class *)c.u.o;
        if (k->builtin && !strcmp(k->name, "Module"))
            return true;
    }
    return false;
}

/* The instance's own dict `name` (_parameters, _buffers, _modules;
 * borrowed), or VAL_MISSING before Module.__init__ ran. */
static val mod_dict(val self, const char *name)
{
    val attrs = ((val_object *)self.u.o)->attrs;
    val d = attrs.kind == VAL_DICT ? val_dict_get_str(attrs, name) : val_missing();
    return d.kind == VAL_DICT ? d : val_missing();
}

static val mod_nonpersistent(val self)
{
    val attrs = ((val_object *)self.u.o)->attrs;
    return val_dict_get_str(attrs, "_non_persistent_buffers_set");
}

static const char *mod_class_name(val self)
{
    return ((val_class *)((val_instance *)self.u.o)->cls.u.o)->name;
}

void torch_module_init_self(val self)
{
    val attrs = ((val_object *)self.u.o)->attrs;
    if (val_dict_get_str(attrs, "_parameters").kind == VAL_DICT)
        return;     /* __init__ ran already (a subclass calls it twice) */
    val_dict_set_str(attrs, "training", val_bool(true));
    val_dict_set_str(attrs, "_parameters", val_dict_new());
    val_dict_set_str(attrs, "_buffers", val_dict_new());
    val_dict_set_str(attrs, "_non_persistent_buffers_set", set_new(false));
    val_dict_set_str(attrs, "_modules", val_dict_new());
}

MOD_FN(mod_init)
{
    (void)argv;
    if (argc || (kw && kw->n))
        return host_raise(h, HOST_EXC_TYPE, at, "Module.__init__() takes no arguments but "
                          "the instance (%d given)", argc + (kw ? kw->n : 0));
    torch_module_init_self(self);
    return val_none();
}

/* torch.typename(v) in messages: torch.FloatTensor, int, Linear. */
static void mod_typename(val v, char *buf, size_t cap)
{
    tensor *t = tensor_of(v);
    if (t)
        snprintf(buf, cap, "torch.%sTensor", tensor_type_name(t->type));
    else
        snprintf(buf, cap, "%s", val_type_name(v));
}

/* Remove name from each of the given dicts/sets of self (the instance
 * dict when d is "__dict__"). */
static void mod_remove_from(host *h, val self, const char *const *names, const char *key,
                            src_span at)
{
    (void)at;
    val k = val_str_cstr(key);
    for (int i = 0; names[i]; i++) {
        val d = !strcmp(names[i], "__dict__") ? ((val_object *)self.u.o)->attrs
                : !strcmp(names[i], "_non_persistent_buffers_set") ? mod_nonpersistent(self)
                : mod_dict(self, names[i]);
        if (d.kind == VAL_DICT) {
            val_unref(val_dict_pop(d, k));
        } else if (set_is(d)) {
            val r = host_getattr(h, d, "discard", at);
            if (r.kind != VAL_ERR)
                val_unref(host_call(h, r, 1, &k, NULL, at));
            val_unref(r);
        }
    }
    val_unref(k);
}

static bool mod_dict_has(val d, const char *key)
{
    return d.kind == VAL_DICT && val_dict_get_str(d, key).kind != VAL_MISSING;
}

static bool mod_check_name(host *h, val self, const char *what, const char *name, val dict,
                           src_span at)
{
    if (!*name) {
        host_raise(h, HOST_EXC_KEY, at, "%s name can't be empty string \"\"", what);
        return false;
    }
    if (strchr(name, '.')) {
        host_raise(h, HOST_EXC_KEY, at, "%s name can't contain \".\", got: %s", what, name);
        return false;
    }
    val attrs = ((val_object *)self.u.o)->attrs;
    bool exists = val_dict_get_str(attrs, name).kind != VAL_MISSING ||
                  class_lookup(((val_instance *)self.u.o)->cls, name).kind != VAL_MISSING;
    const char *const others[] = {"_parameters", "_buffers", "_modules", NULL};
    for (int i = 0; others[i]; i++)
        if (mod_dict(self, others[i]).u.o != dict.u.o && mod_dict_has(mod_dict(self, others[i]),
                                                                      name))
            exists = true;
    if (exists && !mod_dict_has(dict, name)) {
        host_raise(h, HOST_EXC_KEY, at, "attribute '%s' already exists", name);
        return false;
    }
    return true;
}

static bool mod_register_param(host *h, val self, const char *name, val p, src_span at)
{
    val params = mod_dict(self, "_parameters");
    if (params.kind == VAL_MISSING) {
        host_raise(h, HOST_EXC_ATTRIBUTE, at, "cannot assign parameter before "
                   "Module.__init__() call");
        return false;
    }
    if (!mod_check_name(h, self, "parameter", name, params, at))
        return false;
    if (p.kind != VAL_NONE && !mod_is_param(p)) {
        char tn[64];
        mod_typename(p, tn, sizeof tn);
        host_raise(h, HOST_EXC_TYPE, at, "cannot assign '%s' object to parameter '%s' "
                   "(torch.nn.Parameter or None required)", tn, name);
        return false;
    }
    val_dict_set_str(params, name, val_ref(p));
    return true;
}

MOD_FN(mod_register_parameter)
{
    val a[2];
    const char *name;
    if (!host_args(h, at, "register_parameter", "name, param", argc, argv, kw, a) ||
        !host_to_str(h, a[0], at, "parameter name", &name) ||
        !mod_register_param(h, self, name, a[1], at))
        return val_err();
    return val_none();
}

MOD_FN(mod_register_buffer)
{
    val a[3];
    const char *name;
    bool persistent = true;
    if (!host_args(h, at, "register_buffer", "name, tensor, persistent=", argc, argv, kw, a) ||
        !host_to_str(h, a[0], at, "buffer name", &name) ||
        (a[2].kind != VAL_MISSING &&
         !torch_bool_arg(h, a[2], at, "register_buffer", "persistent", &persistent)))
        return val_err();
    val bufs = mod_dict(self, "_buffers");
    if (bufs.kind == VAL_MISSING)
        return host_raise(h, HOST_EXC_ATTRIBUTE, at, "cannot assign buffer before "
                          "Module.__init__() call");
    if (!mod_check_name(h, self, "buffer", name, bufs, at))
        return val_err();
    if (a[1].kind != VAL_NONE && !tensor_of(a[1])) {
        char tn[64];
        mod_typename(a[1], tn, sizeof tn);
        return host_raise(h, HOST_EXC_TYPE, at, "cannot assign '%s' object to buffer '%s' "
                          "(torch Tensor or None required)", tn, name);
    }
    val_dict_set_str(bufs, name, val_ref(a[1]));
    val k = val_str_cstr(name);
    val np = mod_nonpersistent(self);
    bool ok = true;
    if (persistent) {
        const char *const sets[] = {"_non_persistent_buffers_set", NULL};
        mod_remove_from(h, self, sets, name, at);
    } else {
        ok = set_add(h, np, k, at);
    }
    val_unref(k);
    return ok ? val_none() : val_err();
}

static bool mod_add_module(host *h, val self, const char *name, val m, src_span at)
{
    val mods = mod_dict(self, "_modules");
    if (mods.kind == VAL_MISSING) {
        host_raise(h, HOST_EXC_ATTRIBUTE, at, "cannot assign module before Module.__init__() "
                   "call");
        return false;
    }
    if (m.kind != VAL_NONE && !torch_module_is(m)) {
        host_raise(h, HOST_EXC_TYPE, at, "%s is not a Module subclass", val_type_name(m));
        return false;
    }
    if (!mod_check_name(h, self, "module", name, mods, at))
        return false;
    val_dict_set_str(mods, name, val_ref(m));
    return true;
}

MOD_FN(mod_add_module_fn)
{
    val a[2];
    const char *name;
    if (!host_args(h, at, "add_module", "name, module", argc, argv, kw, a) ||
        !host_to_str(h, a[0], at, "module name", &name) ||
        !mod_add_module(h, self, name, a[1], at))
        return val_err();
    return val_none();
}

/* Module.__setattr__: PyTorch's rules for parameters, modules, buffers. */
MOD_FN(mod_setattr)
{
    val a[2];
    const char *name;
    if (!host_args(h, at, "__setattr__", "name, value", argc, argv, kw, a) ||
        !host_to_str(h, a[0], at, "attribute name", &name))
        return val_err();
    val value = a[1];
    val params = mod_dict(self, "_parameters");
    char tn[64];
    if (mod_is_param(value)) {
        if (params.kind == VAL_MISSING)
            return host_raise(h, HOST_EXC_ATTRIBUTE, at, "cannot assign parameters before "
                              "Module.__init__() call");
        const char *const from[] = {"__dict__", "_buffers", "_modules",
                                    "_non_persistent_buffers_set", NULL};
        mod_remove_from(h, self, from, name, at);
        return mod_register_param(h, self, name, value, at) ? val_none() : val_err();
    }
    if (mod_dict_has(params, name)) {
        if (value.kind != VAL_NONE) {
            mod_typename(value, tn, sizeof tn);
            return host_raise(h, HOST_EXC_TYPE, at, "cannot assign '%s' as parameter '%s' "
                              "(torch.nn.Parameter or None expected)", tn, name);
        }
        val_dict_set_str(params, name, val_none());
        return val_none();
    }
    val mods = mod_dict(self, "_modules");
    if (torch_module_is(value)) {
        if (mods.kind == VAL_MISSING)
            return host_raise(h, HOST_EXC_ATTRIBUTE, at, "cannot assign module before "
                              "Module.__init__() call");
        const char *const from[] = {"__dict__", "_parameters", "_buffers",
                                    "_non_persistent_buffers_set", NULL};
        mod_remove_from(h, self, from, name, at);
        val_dict_set_str(mods, name, val_ref(value));
        return val_none();
    }
    if (mod_dict_has(mods, name)) {
        if (value.kind != VAL_NONE) {
            mod_typename(value, tn, sizeof tn);
            return host_raise(h, HOST_EXC_TYPE, at, "cannot assign '%s' as child module '%s' "
                              "(torch.nn.Module or None expected)", tn, name);
        }
        val_dict_set_str(mods, name, val_none());
        return val_none();
    }
    val bufs = mod_dict(self, "_buffers");
    if (mod_dict_has(bufs, name)) {
        if (value.kind != VAL_NONE && !tensor_of(value)) {
            mod_typename(value, tn, sizeof tn);
            return host_raise(h, HOST_EXC_TYPE, at, "cannot assign '%s' as buffer '%s' "
                              "(torch.nn.Buffer, torch.Tensor or None expected)", tn, name);
        }
        val_dict_set_str(bufs, name, val_ref(value));
        return val_none();
    }
    return class_instance_setattr(h, self, name, value, at) ? val_none() : val_err();
}

MOD_FN(mod_getattr)
{
    val a[1];
    const char *name;
    if (!host_args(h, at, "__getattr__", "name", argc, argv, kw, a) ||
        !host_to_str(h, a[0], at, "attribute name", &name))
        return val_err();
    const char *const dicts[] = {"_parameters", "_buffers", "_modules"};
    for (int i = 0; i < 3; i++) {
        val d = mod_dict(self, dicts[i]);
        val v = d.kind == VAL_DICT ? val_dict_get_str(d, name) : val_missing();
        if (v.kind != VAL_MISSING)
            return val_ref(v);
    }
    return host_raise(h, HOST_EXC_ATTRIBUTE, at, "'%s' object has no attribute '%s'",
                      mod_class_name(self), name);
}

MOD_FN(mod_delattr)
{
    val a[1];
    const char *name;
    if (!host_args(h, at, "__delattr__", "name", argc, argv, kw, a) ||
        !host_to_str(h, a[0], at, "attribute name", &name))
        return val_err();
    const char *const dicts[] = {"_parameters", "_buffers", "_modules"};
    for (int i = 0; i < 3; i++) {
        val d = mod_dict(self, dicts[i]);
        if (mod_dict_has(d, name)) {
            const char *const from[] = {dicts[i], "_non_persistent_buffers_set", NULL};
            mod_remove_from(h, self, from, name, at);
            return val_none();
        }
    }
    return class_instance_delattr(h, self, name, at) ? val_none() : val_err();
}

/* ---- calling ------------------------------------------------------------------------ */

MOD_FN(mod_call)
{
    val f = host_getattr(h, self, "forward", at);
    if (f.kind == VAL_ERR)
        return f;
    val r = host_call(h, f, argc, argv, kw, at);
    val_unref(f);
    return r;
}

MOD_FN(mod_forward)
{
    (void)argc;
    (void)argv;
    (void)kw;
    return host_raise(h, HOST_EXC_NOT_IMPLEMENTED, at, "Module [%s] is missing the required "
                      "\"forward\" function", mod_class_name(self));
}

/* ---- walking the modules ------------------------------------------------------------ */

/* Objects met already (PyTorch's memo sets). */
typedef struct mod_memo {
    const void **seen;
    size_t n, cap;
} mod_memo;

/* True when p was met before; else remembers it. */
static bool mod_memo_seen(mod_memo *m, const void *p)
{
    for (size_t i = 0; i < m->n; i++)
        if (m->seen[i] == p)
            return true;
    if (m->n == m->cap) {
        m->cap = m->cap ? 2 * m->cap : 16;
        m->seen = xrealloc(m->seen, m->cap * sizeof *m->seen);
    }
    m->seen[m->n++] = p;
    return false;
}

static val mod_join(const char *prefix, const char *name)
{
    return *prefix ? val_str_fmt("%s.%s", prefix, name) : val_str_cstr(name);
}

/* Push (prefix, module) for m and its submodules, pre-order, onto out. */
static void mod_walk(val m, const char *prefix, mod_memo *memo, val out)
{
    if (memo && mod_memo_seen(memo, m.u.o))
        return;
    val pair[2] = {val_str_cstr(prefix), val_ref(m)};
    val_list_push(out, val_tuple_of(2, pair));
    val mods = mod_dict(m, "_modules");
    size_t pos = 0;
    val k, v;
    while (mods.kind == VAL_DICT && val_dict_next(mods, &pos, &k, &v)) {
        if (!torch_module_is(v))
            continue;
        val sub = mod_join(prefix, val_as_str(k)->s);
        mod_walk(v, val_as_str(sub)->s, memo, out);
        val_unref(sub);
    }
}

/* The (name, module) pairs of named_modules(prefix=...) as a list. */
static val mod_named_list(val self, const char *prefix, bool dedup)
{
    mod_memo memo = {0};
    val out = val_list_new(4);
    mod_walk(self, prefix, dedup ? &memo : NULL, out);
    free(memo.seen);
    return out;
}

/* A list of pairs, or of their second items (names false), as a generator. */
static val mod_gen(val pairs, bool names)
{
    if (!names) {
        val_seq *s = val_as_seq(pairs);
        for (size_t i = 0; i < s->len; i++)
            val_seq_set(pairs, i, val_ref(val_as_seq(s->items[i])->items[1]));
    }
    return host_iterator_new(pairs, "generator");
}

/* named_parameters / named_buffers: dict (_parameters or _buffers) of each
 * module (or self alone), with persistent only (state_dict's buffers). */
static val mod_named_members(val self, const char *dict, const char *prefix, bool recurse,
                             bool dedup)
{
    val mods;
    if (recurse) {
        mods = mod_named_list(self, prefix, true);
    } else {
        mods = val_list_new(1);
        val pair[2] = {val_str_cstr(prefix), val_ref(self)};
        val_list_push(mods, val_tuple_of(2, pair));
    }
    mod_memo memo = {0};
    val out = val_list_new(4);
    const val_seq *ms = val_as_seq(mods);
    for (size_t i = 0; i < ms->len; i++) {
        const val_seq *pr = val_as_seq(ms->items[i]);
        val d = mod_dict(pr->items[1], dict);
        size_t pos = 0;
        val k, v;
        while (d.kind == VAL_DICT && val_dict_next(d, &pos, &k, &v)) {
            if (v.kind == VAL_NONE || (dedup && mod_memo_seen(&memo, v.u.o)))
                continue;
            val pair[2] = {mod_join(val_as_str(pr->items[0])->s, val_as_str(k)->s),
                           val_ref(v)};
            val_list_push(out, val_tuple_of(2, pair));
        }
    }
    free(memo.seen);
    val_unref(mods);
    return out;
}

static bool mod_opt_bool(host *h, val v, src_span at, const char *fname, const char *arg,
                         bool *out)
{
    return v.kind == VAL_MISSING || torch_bool_arg(h, v, at, fname, arg, out);
}

static bool mod_opt_str(host *h, val v, src_span at, const char **out)
{
    return v.kind == VAL_MISSING || host_to_str(h, v, at, "prefix", out);
}

static val mod_members_fn(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                          src_span at, const char *fname, const char *dict, bool names)
{
    if (!torch_method_self(h, &self, &argc, &argv, at))
        return val_err();
    val a[3];
    const char *prefix = "";
    bool recurse = true, dedup = true;
    if (names) {
        if (!host_args(h, at, fname, "prefix=, recurse=, remove_duplicate=", argc, argv, kw, a) ||
            !mod_opt_str(h, a[0], at, &prefix) ||
            !mod_opt_bool(h, a[1], at, fname, "recurse", &recurse) ||
            !mod_opt_bool(h, a[2], at, fname, "remove_duplicate", &dedup))
            return val_err();
    } else if (!host_args(h, at, fname, "recurse=", argc, argv, kw, a) ||
               !mod_opt_bool(h, a[0], at, fname, "recurse", &recurse)) {
        return val_err();
    }
    return mod_gen(mod_named_members(self, dict, prefix, recurse, dedup), names);
}

HOST_CFUNC_CALLING(mod_parameters, mod_members_fn, "parameters", "_parameters", false)
HOST_CFUNC_CALLING(mod_named_parameters, mod_members_fn, "named_parameters", "_parameters",
                   true)
HOST_CFUNC_CALLING(mod_buffers, mod_members_fn, "buffers", "_buffers", false)
HOST_CFUNC_CALLING(mod_named_buffers, mod_members_fn, "named_buffers", "_buffers", true)

static val mod_children_fn(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                           src_span at, const char *fname, bool names)
{
    if (!torch_method_self(h, &self, &argc, &argv, at))
        return val_err();
    (void)argv;
    if (argc || (kw && kw->n))
        return host_raise(h, HOST_EXC_TYPE, at, "%s() takes no arguments", fname);
    val out = val_list_new(4);
    mod_memo memo = {0};
    val mods = mod_dict(self, "_modules");
    size_t pos = 0;
    val k, v;
    while (mods.kind == VAL_DICT && val_dict_next(mods, &pos, &k, &v)) {
        if (!torch_module_is(v) || mod_memo_seen(&memo, v.u.o))
            continue;
        val pair[2] = {val_ref(k), val_ref(v)};
        val_list_push(out, val_tuple_of(2, pair));
    }
    free(memo.seen);
    return mod_gen(out, names);
}

HOST_CFUNC_CALLING(mod_children, mod_children_fn, "children", false)
HOST_CFUNC_CALLING(mod_named_children, mod_children_fn, "named_children", true)

MOD_FN(mod_modules)
{
    (void)argv;
    if (argc || (kw && kw->n))
        return host_raise(h, HOST_EXC_TYPE, at, "modules() takes no arguments");
    return mod_gen(mod_named_list(self, "", true), false);
}

MOD_FN(mod_named_modules)
{
    val a[3];
    const char *prefix = "";
    bool dedup = true;
    if (!host_args(h, at, "named_modules", "memo=, prefix=, remove_duplicate=", argc, argv, kw,
                   a) ||
        !mod_opt_str(h, a[1], at, &prefix) ||
        !mod_opt_bool(h, a[2], at, "named_modules", "remove_duplicate", &dedup))
        return val_err();
    if (a[0].kind != VAL_MISSING && a[0].kind != VAL_NONE)
        return host_raise(h, HOST_EXC_NOT_IMPLEMENTED, at, "named_modules(memo=...) is not "
                          "supported by tritsim");
    return mod_gen(mod_named_list(self, prefix, dedup), true);
}

/* Call method `name` of each child (args borrowed), each once, as
 * `for m in self.children()`; false after an error. */
static bool mod_each_child(host *h, val self, const char *name, int argc, const val *argv,
                           src_span at)
{
    val mods = mod_dict(self, "_modules");
    size_t pos = 0;
    val k, v;
    mod_memo memo = {0};
    while (mods.kind == VAL_DICT && val_dict_next(mods, &pos, &k, &v)) {
        if (!torch_module_is(v) || mod_memo_seen(&memo, v.u.o))
            continue;
        val r = host_call_method(h, v, name, argc, argv, NULL, at);
        if (r.kind == VAL_ERR) {
            free(memo.seen);
            return false;
        }
        val_unref(r);
    }
    free(memo.seen);
    return true;
}

MOD_FN(mod_train)
{
    val a[1];
    if (!host_args(h, at, "train", "mode=", argc, argv, kw, a))
        return val_err();
    bool mode = true;
    if (a[0].kind != VAL_MISSING) {
        if (a[0].kind != VAL_BOOL)
            return host_raise(h, HOST_EXC_VALUE, at, "training mode is expected to be boolean");
        mode = a[0].u.b;
    }
    if (!class_instance_setattr(h, self, "training", val_bool(mode), at))
        return val_err();
    val m = val_bool(mode);
    return mod_each_child(h, self, "train", 1, &m, at) ? val_ref(self) : val_err();
}

MOD_FN(mod_eval)
{
    (void)argv;
    if (argc || (kw && kw->n))
        return host_raise(h, HOST_EXC_TYPE, at, "eval() takes no arguments");
    val m = val_bool(false);
    val r = host_call_method(h, self, "train", 1, &m, NULL, at);
    return r;
}

MOD_FN(mod_apply)
{
    val a[1];
    if (!host_args(h, at, "apply", "fn", argc, argv, kw, a) ||
        !mod_each_child(h, self, "apply", 1, a, at))
        return val_err();
    val r = host_call(h, a[0], 1, &self, NULL, at);
    if (r.kind == VAL_ERR)
        return r;
    val_unref(r);
    return val_ref(self);
}

/* The parameters of self and its submodules, as a list (each once). */
static val mod_param_list(val self)
{
    val pairs = mod_named_members(self, "_parameters", "", true, true);
    val_seq *s = val_as_seq(pairs);
    for (size_t i = 0; i < s->len; i++)
        val_seq_set(pairs, i, val_ref(val_as_seq(s->items[i])->items[1]));
    return pairs;
}

MOD_FN(mod_requires_grad_)
{
    val a[1];
    bool rg = true;
    if (!host_args(h, at, "requires_grad_", "requires_grad=", argc, argv, kw, a) ||
        !mod_opt_bool(h, a[0], at, "requires_grad_", "requires_grad", &rg))
        return val_err();
    val ps = mod_param_list(self);
    bool ok = true;
    for (size_t i = 0; ok && i < val_as_seq(ps)->len; i++)
        ok = host_setattr(h, val_as_seq(ps)->items[i], "requires_grad", val_bool(rg), at);
    val_unref(ps);
    return ok ? val_ref(self) : val_err();
}

MOD_FN(mod_zero_grad)
{
    val a[1];
    bool to_none = true;
    if (!host_args(h, at, "zero_grad", "set_to_none=", argc, argv, kw, a) ||
        !mod_opt_bool(h, a[0], at, "zero_grad", "set_to_none", &to_none))
        return val_err();
    val ps = mod_param_list(self);
    for (size_t i = 0; i < val_as_seq(ps)->len; i++) {
        tensor *p = tensor_of(val_as_seq(ps)->items[i]);
        tensor *g = tensor_of(p->grad);
        if (!g)
            continue;
        if (to_none) {
            val old = p->grad;
            p->grad = val_none();
            val_unref(old);
        } else {
            /* grad.detach_(); grad.zero_() */
            val_unref(g->grad_fn);
            g->grad_fn = val_none();
            g->requires_grad = false;
            tensor_fill(g, (dtype_scalar){.u = 0});
        }
    }
    val_unref(ps);
    return val_none();
}

/* ---- conversions: to(), cuda(), half(), ... --------------------------------------------- */

typedef struct mod_conv {
    bool set_dtype, set_device, cuda;
    dtype type;
} mod_conv;

/* t converted (a new reference; t itself when nothing changes). */
static tensor *mod_convert(const mod_conv *c, tensor *t, char *err)
{
    dtype to = c->set_dtype && dtype_is_float(t->type) ? c->type : t->type;
    bool cuda = c->set_device ? c->cuda : t->cuda;
    if (to == t->type && cuda == t->cuda)
        return tensor_ref(t);
    return tensor_to_preserving(t, to, cuda, err);
}

static bool mod_apply_conv(host *h, val self, const mod_conv *c, src_span at)
{
    char err[TENSOR_ERR_LEN];
    val mods = mod_named_list(self, "", true);
    const val_seq *ms = val_as_seq(mods);
    bool ok = true;
    for (size_t i = 0; ok && i < ms->len; i++) {
        val m = val_as_seq(ms->items[i])->items[1];
        val d = mod_dict(m, "_parameters");
        size_t pos = 0;
        val k, v;
        while (ok && d.kind == VAL_DICT && val_dict_next(d, &pos, &k, &v)) {
            tensor *p = tensor_of(v);
            if (!p)
                continue;
            tensor *n = mod_convert(c, p, err);
            if (!n) {
                ok = false;
                break;
            }
            if (n != p)
                tensor_set_data(p, n);
            tensor_unref(n);
            tensor *g = tensor_of(p->grad);
            if (g && (n = mod_convert(c, g, err)) != NULL) {
                if (n != g)
                    tensor_set_data(g, n);
                tensor_unref(n);
            } else if (g) {
                ok = false;
            }
        }
        d = mod_dict(m, "_buffers");
        pos = 0;
        while (ok && d.kind == VAL_DICT && val_dict_next(d, &pos, &k, &v)) {
            tensor *b = tensor_of(v);
            if (!b)
                continue;
            tensor *n = mod_convert(c, b, err);
            if (!n)
                ok = false;
            else if (n == b)
                tensor_unref(n);
            else
                val_dict_set(d, val_ref(k), tensor_val(n));
        }
    }
    val_unref(mods);
    if (!ok)
        torch_fail(h, at, err);
    return ok;
}

/* to(device=None, dtype=None, non_blocking=False), to(dtype), to(tensor),
 * to(device, dtype) */
MOD_FN(mod_to)
{
    mod_conv c = {0};
    val a[7];
    if (!host_args(h, at, "to", "a=, b=, c=, *, device=, dtype=, non_blocking=, copy=", argc,
                   argv, kw, a))
        return val_err();
    a[2] = a[3];    /* the third positional is non_blocking: ignored */
    a[3] = a[4];
    for (int i = 0; i < 4; i++) {
        val v = a[i];
        if (v.kind == VAL_MISSING || v.kind == VAL_NONE)
            continue;
        tensor *t = tensor_of(v);
        if (v.kind == VAL_DTYPE && i != 2) {
            c.set_dtype = true;
            c.type = (dtype)val_dtype_id(v);
        } else if (t && i == 0) {
            c.set_dtype = c.set_device = true;
            c.type = t->type;
            c.cuda = t->cuda;
        } else if (i != 3) {
            c.set_device = true;
            if (!torch_device_arg(h, v, at, "to", &c.cuda))
                return val_err();
        } else {
            return host_raise(h, HOST_EXC_TYPE, at, "to() argument 'dtype' must be "
                              "torch.dtype, not %s", val_type_name(v));
        }
    }
    if (c.set_dtype && !dtype_is_float(c.type)) {
        char name[64];
        strbuf sb;
        strbuf_init(&sb);
        val_print_repr(h, val_dtype(c.type), &sb);
        snprintf(name, sizeof name, "%s", strbuf_cstr(&sb));
        strbuf_free(&sb);
        return host_raise(h, HOST_EXC_TYPE, at, "nn.Module.to only accepts floating point or "
                          "complex dtypes, but got desired dtype=%s", name);
    }
    return mod_apply_conv(h, self, &c, at) ? val_ref(self) : val_err();
}

static val mod_conv_fn(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                       src_span at, const char *fname, int type, int device)
{
    if (!torch_method_self(h, &self, &argc, &argv, at))
        return val_err();
    val a[1];
    if (!host_args(h, at, fname, device >= 0 ? "device=" : "", argc, argv, kw, a))
        return val_err();
    mod_conv c = {0};
    if (type >= 0) {
        c.set_dtype = true;
        c.type = (dtype)type;
    }
    if (device >= 0) {
        c.set_device = true;
        c.cuda = device;
    }
    return mod_apply_conv(h, self, &c, at) ? val_ref(self) : val_err();
}

HOST_CFUNC_CALLING(mod_float, mod_conv_fn, "float", DTYPE_FP32, -1)
HOST_CFUNC_CALLING(mod_double, mod_conv_fn, "double", DTYPE_FP64, -1)
HOST_CFUNC_CALLING(mod_half, mod_conv_fn, "half", DTYPE_FP16, -1)
HOST_CFUNC_CALLING(mod_bfloat16, mod_conv_fn, "bfloat16", DTYPE_BF16, -1)
HOST_CFUNC_CALLING(mod_cuda, mod_conv_fn, "cuda", -1, 1)
HOST_CFUNC_CALLING(mod_cpu, mod_conv_fn, "cpu", -1, 0)

/* ---- state_dict -------------------------------------------------------------------- */

/* The (key, tensor) entries of state_dict(): per module, pre-order, its
 * parameters, then its persistent buffers; a module held under two names
 * gives its entries under both, as PyTorch's. */
static val mod_state_entries(host *h, val self, const char *prefix, src_span at)
{
    val mods = mod_named_list(self, prefix, false);
    val out = val_list_new(4);
    const val_seq *ms = val_as_seq(mods);
    for (size_t i = 0; i < ms->len; i++) {
        const val_seq *pr = val_as_seq(ms->items[i]);
        const char *mp = val_as_str(pr->items[0])->s;
        val np = mod_nonpersistent(pr->items[1]);
        for (int pass = 0; pass < 2; pass++) {
            val d = mod_dict(pr->items[1], pass ? "_buffers" : "_parameters");
            size_t pos = 0;
            val k, v;
            while (d.kind == VAL_DICT && val_dict_next(d, &pos, &k, &v)) {
                if (v.kind == VAL_NONE)
                    continue;
                if (pass && set_is(np)) {
                    val in = host_binop(h, AST_OP_IN, k, np, at);
                    bool skip = in.kind == VAL_BOOL && in.u.b;
                    val_unref(in);
                    if (skip)
                        continue;
                }
                val pair[2] = {mod_join(mp, val_as_str(k)->s), val_ref(v)};
                val_list_push(out, val_tuple_of(2, pair));
            }
        }
    }
    val_unref(mods);
    return out;
}

MOD_FN(mod_state_dict)
{
    val a[3];
    const char *prefix = "";
    bool keep = false;
    if (!host_args(h, at, "state_dict", "destination=, prefix=, keep_vars=", argc, argv, kw,
                   a) ||
        !mod_opt_str(h, a[1], at, &prefix) ||
        !mod_opt_bool(h, a[2], at, "state_dict", "keep_vars", &keep))
        return val_err();
    val dest = a[0].kind == VAL_DICT ? val_ref(a[0]) : val_dict_new();
    if (a[0].kind != VAL_MISSING && a[0].kind != VAL_NONE && a[0].kind != VAL_DICT) {
        val_unref(dest);
        return host_raise(h, HOST_EXC_TYPE, at, "state_dict(destination=...) must be a dict");
    }
    val ents = mod_state_entries(h, self, prefix, at);
    const val_seq *es = val_as_seq(ents);
    for (size_t i = 0; i < es->len; i++) {
        const val_seq *pr = val_as_seq(es->items[i]);
        tensor *t = tensor_of(pr->items[1]);
        val v = keep ? val_ref(pr->items[1])
                     : tensor_val(tensor_view_of(t, t->ndim, t->shape, t->strides, t->offset));
        val_dict_set(dest, val_ref(pr->items[0]), v);
    }
    val_unref(ents);
    return dest;
}

/* load_state_dict's result: _IncompatibleKeys(missing_keys, unexpected_keys). */
typedef struct mod_keys {
    val_object o;
    val missing, unexpected;
} mod_keys;

static void mod_keys_free(val_obj *o)
{
    mod_keys *k = (mod_keys *)o;
    val_unref(k->missing);
    val_unref(k->unexpected);
}

static void mod_keys_repr(host *h, val self, strbuf *out)
{
    mod_keys *k = (mod_keys *)self.u.o;
    if (!val_as_seq(k->missing)->len && !val_as_seq(k->unexpected)->len) {
        strbuf_puts(out, "<All keys matched successfully>");
        return;
    }
    strbuf_puts(out, "_IncompatibleKeys(missing_keys=");
    val_print_repr(h, k->missing, out);
    strbuf_puts(out, ", unexpected_keys=");
    val_print_repr(h, k->unexpected, out);
    strbuf_putc(out, ')');
}

static val mod_keys_getattr(host *h, val self, const char *name, src_span at)
{
    (void)h;
    (void)at;
    mod_keys *k = (mod_keys *)self.u.o;
    if (!strcmp(name, "missing_keys"))
        return val_ref(k->missing);
    if (!strcmp(name, "unexpected_keys"))
        return val_ref(k->unexpected);
    return val_missing();
}

static val mod_keys_iter(host *h, val self, src_span at)
{
    (void)h;
    (void)at;
    mod_keys *k = (mod_keys *)self.u.o;
    val items[2] = {val_ref(k->missing), val_ref(k->unexpected)};
    return val_tuple_of(2, items);
}

static const char *const mod_keys_attrs[] = {"missing_keys", "unexpected_keys", NULL};

static const val_type mod_keys_type = {
    .name = "_IncompatibleKeys",
    .getattr = mod_keys_getattr,
    .iter = mod_keys_iter,
    .repr = mod_keys_repr,
    .free = mod_keys_free,
    .attr_names = mod_keys_attrs,
};

/* "a", "b" as load_state_dict's message lists keys */
static void mod_key_list(val keys, strbuf *out)
{
    const val_seq *s = val_as_seq(keys);
    for (size_t i = 0; i < s->len; i++)
        strbuf_printf(out, "%s\"%s\"", i ? ", " : "", val_as_str(s->items[i])->s);
}

static void mod_shape_text(const tensor *t, strbuf *out)
{
    strbuf_puts(out, "torch.Size([");
    for (int i = 0; i < t->ndim; i++)
        strbuf_printf(out, "%s%lld", i ? ", " : "", (long long)t->shape[i]);
    strbuf_puts(out, "])");
}

MOD_FN(mod_load_state_dict)
{
    val a[3];
    bool strict = true, assign = false;
    if (!host_args(h, at, "load_state_dict", "state_dict, strict=, assign=", argc, argv, kw,
                   a) ||
        !mod_opt_bool(h, a[1], at, "load_state_dict", "strict", &strict) ||
        !mod_opt_bool(h, a[2], at, "load_state_dict", "assign", &assign))
        return val_err();
    if (a[0].kind != VAL_DICT)
        return host_raise(h, HOST_EXC_TYPE, at, "Expected state_dict to be dict-like, got %s.",
                          val_type_name(a[0]));
    if (assign)
        return host_raise(h, HOST_EXC_NOT_IMPLEMENTED, at, "load_state_dict(assign=True) is "
                          "not supported by tritsim");
    val sd = a[0];
    val ents = mod_state_entries(h, self, "", at);
    val missing = val_list_new(0), unexpected = val_list_new(0);
    strbuf errs;
    strbuf_init(&errs);
    bool saved = h->no_grad, ok = true;
    h->no_grad = true;
    char err[TENSOR_ERR_LEN];
    const val_seq *es = val_as_seq(ents);
    for (size_t i = 0; ok && i < es->len; i++) {
        const val_seq *pr = val_as_seq(es->items[i]);
        val in = val_dict_get(sd, pr->items[0]);
        if (in.kind == VAL_MISSING) {
            val_list_push(missing, val_ref(pr->items[0]));
            continue;
        }
        tensor *dst = tensor_of(pr->items[1]), *src = tensor_of(in);
        if (!src) {
            strbuf_printf(&errs, "\n\tWhile copying the parameter named \"%s\", expected "
                          "torch.Tensor or Tensor-like object from checkpoint but received "
                          "%s", val_as_str(pr->items[0])->s, val_type_name(in));
            continue;
        }
        bool same = src->ndim == dst->ndim;
        for (int d = 0; same && d < dst->ndim; d++)
            same = src->shape[d] == dst->shape[d];
        if (!same) {
            strbuf_printf(&errs, "\n\tsize mismatch for %s: copying a param with shape ",
                          val_as_str(pr->items[0])->s);
            mod_shape_text(src, &errs);
            strbuf_puts(&errs, " from checkpoint, the shape in current model is ");
            mod_shape_text(dst, &errs);
            strbuf_putc(&errs, '.');
            continue;
        }
        if (!tensor_copy_into(dst, src, err)) {
            torch_fail(h, at, err);
            ok = false;
        }
    }
    h->no_grad = saved;
    /* keys that name nothing of the model */
    size_t pos = 0;
    val k, v;
    while (ok && val_dict_next(sd, &pos, &k, &v)) {
        bool known = false;
        for (size_t i = 0; !known && i < es->len; i++)
            known = val_equal(k, val_as_seq(es->items[i])->items[0]);
        if (!known)
            val_list_push(unexpected, val_ref(k));
    }
    val_unref(ents);
    if (ok && (errs.len || (strict && (val_as_seq(missing)->len ||
                                       val_as_seq(unexpected)->len)))) {
        strbuf msg;
        strbuf_init(&msg);
        strbuf_printf(&msg, "Error(s) in loading state_dict for %s:", mod_class_name(self));
        if (strict && val_as_seq(missing)->len) {
            strbuf_puts(&msg, "\n\tMissing key(s) in state_dict: ");
            mod_key_list(missing, &msg);
            strbuf_puts(&msg, ". ");
        }
        if (strict && val_as_seq(unexpected)->len) {
            strbuf_puts(&msg, "\n\tUnexpected key(s) in state_dict: ");
            mod_key_list(unexpected, &msg);
            strbuf_puts(&msg, ". ");
        }
        strbuf_puts(&msg, strbuf_cstr(&errs));
        host_raise(h, HOST_EXC_RUNTIME, at, "%s", strbuf_cstr(&msg));
        strbuf_free(&msg);
        ok = false;
    }
    strbuf_free(&errs);
    if (!ok) {
        val_unref(missing);
        val_unref(unexpected);
        return val_err();
    }
    mod_keys *r = val_obj_new(sizeof *r, VAL_OBJECT, &mod_keys_type);
    r->o.attrs = val_none();
    r->missing = missing;
    r->unexpected = unexpected;
    return val_of(r);
}

/* ---- looking up by dotted name ----------------------------------------------------- */

static val mod_submodule(host *h, val self, const char *target, src_span at)
{
    val m = val_ref(self);
    const char *p = target;
    while (*p) {
        const char *dot = strchr(p, '.');
        size_t n = dot ? (size_t)(dot - p) : strlen(p);
        char name[256];
        snprintf(name, sizeof name, "%.*s", (int)(n < 255 ? n : 255), p);
        val mods = mod_dict(m, "_modules");
        val next = mods.kind == VAL_DICT ? val_dict_get_str(mods, name) : val_missing();
        if (!torch_module_is(next)) {
            val r = host_raise(h, HOST_EXC_ATTRIBUTE, at, "%s has no attribute `%s`",
                               mod_class_name(m), name);
            val_unref(m);
            return r;
        }
        val_unref(m);
        m = val_ref(next);
        p += n;
        if (*p == '.')
            p++;
    }
    return m;
}

MOD_FN(mod_get_submodule)
{
    val a[1];
    const char *target;
    if (!host_args(h, at, "get_submodule", "target", argc, argv, kw, a) ||
        !host_to_str(h, a[0], at, "target", &target))
        return val_err();
    return mod_submodule(h, self, target, at);
}

MOD_FN(mod_get_parameter)
{
    val a[1];
    const char *target;
    if (!host_args(h, at, "get_parameter", "target", argc, argv, kw, a) ||
        !host_to_str(h, a[0], at, "target", &target))
        return val_err();
    const char *dot = strrchr(target, '.');
    char path[512];
    snprintf(path, sizeof path, "%.*s", dot ? (int)(dot - target) : 0, target);
    val m = mod_submodule(h, self, path, at);
    if (m.kind == VAL_ERR)
        return m;
    const char *name = dot ? dot + 1 : target;
    val params = mod_dict(m, "_parameters");
    val p = params.kind == VAL_DICT ? val_dict_get_str(params, name) : val_missing();
    val r = mod_is_param(p) ? val_ref(p)
            : host_raise(h, HOST_EXC_ATTRIBUTE, at, "%s has no parameter `%s`",
                         mod_class_name(m), name);
    val_unref(m);
    return r;
}

/* ---- printing ------------------------------------------------------------------------ */

/* _addindent(s, 2): every line but the first indented by two spaces. */
static void mod_addindent(const char *s, strbuf *out)
{
    for (; *s; s++) {
        strbuf_putc(out, *s);
        if (*s == '\n')
            strbuf_puts(out, "  ");
    }
}

MOD_FN(mod_repr)
{
    (void)argv;
    (void)kw;
    (void)argc;
    val extra = val_missing();
    extra = host_call_method(h, self, "extra_repr", 0, NULL, NULL, at);
    if (extra.kind == VAL_ERR)
        return extra;
    if (extra.kind != VAL_STR) {
        val_unref(extra);
        return host_raise(h, HOST_EXC_TYPE, at, "extra_repr() must return a str");
    }
    strbuf child;
    strbuf_init(&child);
    int nchild = 0;
    val mods = mod_dict(self, "_modules");
    size_t pos = 0;
    val k, v;
    while (mods.kind == VAL_DICT && val_dict_next(mods, &pos, &k, &v)) {
        val r = host_repr(h, v);
        if (r.kind == VAL_ERR) {
            strbuf_free(&child);
            val_unref(extra);
            return r;
        }
        strbuf_printf(&child, "\n  (%s): ", val_as_str(k)->s);
        mod_addindent(val_as_str(r)->s, &child);
        val_unref(r);
        nchild++;
    }
    strbuf out;
    strbuf_init(&out);
    strbuf_printf(&out, "%s(", mod_class_name(self));
    const char *e = val_as_str(extra)->s;
    if (*e && !strchr(e, '\n') && !nchild) {
        strbuf_puts(&out, e);
    } else if (*e || nchild) {
        if (*e) {
            strbuf_puts(&out, "\n  ");
            for (const char *p = e; *p; p++) {
                strbuf_putc(&out, *p);
                if (*p == '\n')
                    strbuf_puts(&out, "  ");
            }
        }
        strbuf_puts(&out, strbuf_cstr(&child));
        strbuf_putc(&out, '\n');
    }
    strbuf_putc(&out, ')');
    strbuf_free(&child);
    val_unref(extra);
    return val_str_from_buf(&out);
}

MOD_FN(mod_extra_repr)
{
    (void)h;
    (void)self;
    (void)argc;
    (void)argv;
    (void)kw;
    (void)at;
    return val_str_cstr("");
}

MOD_FN(mod_get_name)
{
    (void)h;
    (void)argc;
    (void)argv;
    (void)kw;
    (void)at;
    return val_str_cstr(mod_class_name(self));
}

/* ---- the class ---------------------------------------------------------------------- */

void torch_module_add(host *h, val nn)
{
    (void)h;
    val cls = class_new("Module", val_none(), true);
    val_object_set(cls, "__module__", val_str_cstr("torch.nn"));
    static const val_method methods[] = {
        {"__init__", "Module.__init__", mod_init},
        {"__setattr__", "Module.__setattr__", mod_setattr},
        {"__getattr__", "Module.__getattr__", mod_getattr},
        {"__delattr__", "Module.__delattr__", mod_delattr},
        {"__call__", "Module.__call__", mod_call},
        {"__repr__", "Module.__repr__", mod_repr},
        {"forward", "Module.forward", mod_forward},
        {"extra_repr", "Module.extra_repr", mod_extra_repr},
        {"_get_name", "Module._get_name", mod_get_name},
        {"register_parameter", "Module.register_parameter", mod_register_parameter},
        {"register_buffer", "Module.register_buffer", mod_register_buffer},
        {"add_module", "Module.add_module", mod_add_module_fn},
        {"register_module", "Module.register_module", mod_add_module_fn},
        {"parameters", "Module.parameters", mod_parameters},
        {"named_parameters", "Module.named_parameters", mod_named_parameters},
        {"buffers", "Module.buffers", mod_buffers},
        {"named_buffers", "Module.named_buffers", mod_named_buffers},
        {"children", "Module.children", mod_children},
        {"named_children", "Module.named_children", mod_named_children},
        {"modules", "Module.modules", mod_modules},
        {"named_modules", "Module.named_modules", mod_named_modules},
        {"get_submodule", "Module.get_submodule", mod_get_submodule},
        {"get_parameter", "Module.get_parameter", mod_get_parameter},
        {"train", "Module.train", mod_train},
        {"eval", "Module.eval", mod_eval},
        {"apply", "Module.apply", mod_apply},
        {"requires_grad_", "Module.requires_grad_", mod_requires_grad_},
        {"zero_grad", "Module.zero_grad", mod_zero_grad},
        {"to", "Module.to", mod_to},
        {"cuda", "Module.cuda", mod_cuda},
        {"cpu", "Module.cpu", mod_cpu},
        {"float", "Module.float", mod_float},
        {"double", "Module.double", mod_double},
        {"half", "Module.half", mod_half},
        {"bfloat16", "Module.bfloat16", mod_bfloat16},
        {"state_dict", "Module.state_dict", mod_state_dict},
        {"load_state_dict", "Module.load_state_dict", mod_load_state_dict},
    };
    val_method_set_all(cls, methods, sizeof methods / sizeof *methods, val_none());
    val_object_set(nn, "Module", cls);
    val param = val_object_new(&param_type);
    val_object_set(nn, "Parameter", param);
    val parameter = val_module_new("torch.nn.parameter");
    val_object_set(parameter, "Parameter", val_ref(param));
    val_object_set(nn, "parameter", val_ref(parameter));
    host_register_module(h, "torch.nn.parameter", parameter);
}
