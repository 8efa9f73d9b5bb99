/* classes.c - classes and their instances on the host: what a class
 * statement makes (host_stmt.c runs the body), attribute lookup through
 * single inheritance, methods bound to their instance, staticmethod,
 * classmethod, property, super(), and the special methods (__init__,
 * __call__, __repr__, __str__, __eq__, __add__, __getitem__, __len__,
 * __iter__, __bool__, __getattr__, ...) through the hooks of val.h.
 *
 * A class is a VAL_CLASS (val_class): a namespace dict and a base.  An
 * instance is a VAL_INSTANCE (val_instance): its own attribute dict and
 * its class.  Built-in classes (the exceptions, torch.autograd.Function)
 * are the same values, made from C with class_new and C functions in
 * their namespace, so that programs derive from them like from their own. */
#define _POSIX_C_SOURCE 200809L
#include "host_impl.h"

#include <stdlib.h>
#include <string.h>

#define CLASS_FN(name) \
    static val name(host *h, val self, int argc, const val *argv, const val_kwargs *kw, \
                    src_span at)

static const val_type class_type, instance_type, method_type, staticmethod_type,
    classmethod_type, property_type, super_type, notimpl_type;

static val_class *class_of(val cls)
{
    return (val_class *)cls.u.o;
}

static val object_attr_fn(const char *name, val obj);

static val instance_class(val inst)
{
    return ((val_instance *)inst.u.o)->cls;
}

static bool class_is_object(val cls)
{
    return cls.kind == VAL_CLASS && class_of(cls)->builtin &&
           !strcmp(class_of(cls)->name, "object");
}

/* ---- classes ------------------------------------------------------------------ */

val class_new(const char *name, val base, bool builtin)
{
    val_class *c = val_obj_new(sizeof *c, VAL_CLASS, &class_type);
    c->o.attrs = val_dict_new();
    size_t n = strlen(name) + 1;
    c->name = memcpy(xmalloc(n), name, n);
    c->base = val_ref(base);
    c->builtin = builtin;
    c->exception = base.kind == VAL_CLASS && class_of(base)->exception;
    c->exc_kind = -1;
    return val_of(c);
}

val class_lookup(val cls, const char *name)
{
    for (val c = cls; c.kind == VAL_CLASS; c = class_of(c)->base) {
        val v = val_dict_get_str(class_of(c)->o.attrs, name);
        if (v.kind != VAL_MISSING)
            return v;
    }
    return val_missing();
}

bool class_is_subclass(val cls, val base)
{
    if (class_is_object(base))
        return true;
    for (val c = cls; c.kind == VAL_CLASS; c = class_of(c)->base)
        if (c.u.o == base.u.o)
            return true;
    return false;
}

void class_print_name(val cls, strbuf *out)
{
    const val_class *c = class_of(cls);
    if (!c->builtin) {
        val m = c->o.attrs.kind == VAL_DICT ? val_dict_get_str(c->o.attrs, "__module__")
                                            : val_missing();
        strbuf_printf(out, "%s.", m.kind == VAL_STR ? val_as_str(m)->s : "__main__");
    }
    strbuf_puts(out, c->name);
}

void class_suggest(val obj, host_suggest *s)
{
    val cls = obj;
    if (obj.kind == VAL_INSTANCE) {
        val attrs = ((val_object *)obj.u.o)->attrs;
        size_t pos = 0;
        val k, v;
        while (val_dict_next(attrs, &pos, &k, &v))
            if (k.kind == VAL_STR)
                host_suggest_add(s, val_as_str(k)->s);
        cls = instance_class(obj);
    }
    for (val c = cls; c.kind == VAL_CLASS; c = class_of(c)->base) {
        size_t pos = 0;
        val k, v;
        while (val_dict_next(class_of(c)->o.attrs, &pos, &k, &v))
            if (k.kind == VAL_STR && val_as_str(k)->s[0] != '_')
                host_suggest_add(s, val_as_str(k)->s);
    }
}

/* ---- wrappers: bound methods, staticmethod, classmethod, property ----------- */

typedef struct class_wrap {
    val_object o;
    val fn;         /* the function (a property's getter) */
    val self;       /* a bound method's object; a property's setter */
} class_wrap;

static val wrap_new(const val_type *t, val fn, val self)
{
    class_wrap *w = val_obj_new(sizeof *w, VAL_OBJECT, t);
    w->o.attrs = val_none();
    w->fn = fn;
    w->self = self;
    return val_of(w);
}

static class_wrap *wrap_of(val v, const val_type *t)
{
    return v.kind == VAL_OBJECT && v.u.o->type == t ? (class_wrap *)v.u.o : NULL;
}

static void wrap_free(val_obj *o)
{
    class_wrap *w = (class_wrap *)o;
    val_unref(w->fn);
    val_unref(w->self);
}

val class_static(val fn)
{
    return wrap_new(&staticmethod_type, fn, val_none());
}

val class_method(val fn)
{
    return wrap_new(&classmethod_type, fn, val_none());
}

/* fn bound to self: a method object (both borrowed). */
static val method_new(val fn, val self)
{
    return wrap_new(&method_type, val_ref(fn), val_ref(self));
}

static val method_call(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                       src_span at)
{
    class_wrap *m = (class_wrap *)self.u.o;
    val stack[8];
    val *args = argc + 1 <= 8 ? stack : xmalloc((size_t)(argc + 1) * sizeof *args);
    args[0] = m->self;
    for (int i = 0; i < argc; i++)
        args[i + 1] = argv[i];
    val r = host_call(h, m->fn, argc + 1, args, kw, at);
    if (args != stack)
        free(args);
    return r;
}

static const char *fn_name(val fn)
{
    if (fn.kind == VAL_FUNC)
        return ((const val_func *)fn.u.o)->name;
    if (fn.kind == VAL_BUILTIN)
        return ((const val_builtin *)fn.u.o)->name;
    return "?";
}

static void method_repr(host *h, val self, strbuf *out)
{
    class_wrap *m = (class_wrap *)self.u.o;
    strbuf_printf(out, "<bound method %s of ", fn_name(m->fn));
    val_print_repr(h, m->self, out);
    strbuf_putc(out, '>');
}

static val method_getattr(host *h, val self, const char *name, src_span at)
{
    class_wrap *m = (class_wrap *)self.u.o;
    if (!strcmp(name, "__func__"))
        return val_ref(m->fn);
    if (!strcmp(name, "__self__"))
        return val_ref(m->self);
    return host_getattr_opt(h, m->fn, name, at);
}

static const val_type method_type = {
    .name = "method",
    .getattr = method_getattr,
    .call = method_call,
    .repr = method_repr,
    .free = wrap_free,
};

/* staticmethod objects are callable (Python 3.10). */
static val static_call(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                       src_span at)
{
    return host_call(h, ((class_wrap *)self.u.o)->fn, argc, argv, kw, at);
}

static val wrap_getattr(host *h, val self, const char *name, src_span at)
{
    (void)h;
    (void)at;
    if (!strcmp(name, "__func__"))
        return val_ref(((class_wrap *)self.u.o)->fn);
    return val_missing();
}

static void static_repr(host *h, val self, strbuf *out)
{
    class_wrap *w = (class_wrap *)self.u.o;
    strbuf_printf(out, "<%s(", self.u.o->type->name);
    val_print_repr(h, w->fn, out);
    strbuf_puts(out, ")>");
}

static const val_type staticmethod_type = {
    .name = "staticmethod",
    .getattr = wrap_getattr,
    .call = static_call,
    .repr = static_repr,
    .free = wrap_free,
};

static const val_type classmethod_type = {
    .name = "classmethod",
    .getattr = wrap_getattr,
    .repr = static_repr,
    .free = wrap_free,
};

CLASS_FN(property_setter)
{
    (void)kw;
    if (argc != 1)
        return host_raise(h, HOST_EXC_TYPE, at, "setter() takes exactly one argument");
    class_wrap *p = (class_wrap *)self.u.o;
    return wrap_new(&property_type, val_ref(p->fn), val_ref(argv[0]));
}

CLASS_FN(property_getter)
{
    (void)kw;
    if (argc != 1)
        return host_raise(h, HOST_EXC_TYPE, at, "getter() takes exactly one argument");
    class_wrap *p = (class_wrap *)self.u.o;
    return wrap_new(&property_type, val_ref(argv[0]), val_ref(p->self));
}

static val property_getattr(host *h, val self, const char *name, src_span at)
{
    (void)h;
    (void)at;
    class_wrap *p = (class_wrap *)self.u.o;
    if (!strcmp(name, "fget"))
        return val_ref(p->fn);
    if (!strcmp(name, "fset"))
        return val_ref(p->self);
    if (!strcmp(name, "setter"))
        return val_builtin_new("property.setter", property_setter, val_ref(self));
    if (!strcmp(name, "getter"))
        return val_builtin_new("property.getter", property_getter, val_ref(self));
    return val_missing();
}

static const val_type property_type = {
    .name = "property",
    .getattr = property_getattr,
    .free = wrap_free,
};

/* A value found in a class's namespace, as seen through instance inst
 * (VAL_NONE: through the class cls itself). */
static val class_bind(host *h, val v, val inst, val cls, src_span at)
{
    class_wrap *w;
    if ((w = wrap_of(v, &staticmethod_type)))
        return val_ref(w->fn);
    if ((w = wrap_of(v, &classmethod_type))) {
        if (w->fn.kind == VAL_BUILTIN) {
            /* a C classmethod gets the class as its self */
            const val_builtin *b = (const val_builtin *)w->fn.u.o;
            val r = val_builtin_new(b->name, b->fn, val_ref(cls));
            ((val_builtin *)r.u.o)->data = b->data;
            return r;
        }
        return method_new(w->fn, cls);
    }
    if ((w = wrap_of(v, &property_type))) {
        if (inst.kind == VAL_NONE)
            return val_ref(v);
        if (w->fn.kind == VAL_NONE)
            return host_raise(h, HOST_EXC_ATTRIBUTE, at, "property of '%s' object has no "
                              "getter", val_type_name(inst));
        return host_call(h, w->fn, 1, &inst, NULL, at);
    }
    if (inst.kind == VAL_NONE)
        return val_ref(v);
    if (v.kind == VAL_FUNC)
        return method_new(v, inst);
    if (v.kind == VAL_BUILTIN) {
        const val_builtin *b = (const val_builtin *)v.u.o;
        if (b->inst_kind == VAL_ERR && b->self.kind == VAL_NONE) {
            val r = val_builtin_new(b->name, b->fn, val_ref(inst));
            ((val_builtin *)r.u.o)->data = b->data;
            return r;
        }
    }
    return val_ref(v);
}

/* obj.name(args...) when obj's class has such a method; VAL_MISSING when
 * it has none. */
static val class_call_method(host *h, val obj, const char *name, int argc, const val *argv,
                             src_span at)
{
    val m = class_lookup(instance_class(obj), name);
    if (m.kind == VAL_MISSING)
        return m;
    val f = class_bind(h, m, obj, instance_class(obj), at);
    if (f.kind == VAL_ERR)
        return f;
    val r = host_call(h, f, argc, argv, NULL, at);
    val_unref(f);
    return r;
}

/* ---- attributes ------------------------------------------------------------------ */

val class_getattr(host *h, val obj, const char *name, src_span at)
{
    if (obj.kind == VAL_INSTANCE) {
        val attrs = ((val_object *)obj.u.o)->attrs;
        val v = val_dict_get_str(attrs, name);
        if (v.kind != VAL_MISSING)
            return val_ref(v);
        val cls = instance_class(obj);
        if (!strcmp(name, "__class__"))
            return val_ref(cls);
        if (!strcmp(name, "__dict__"))
            return val_ref(attrs);
        v = class_lookup(cls, name);
        if (v.kind != VAL_MISSING)
            return class_bind(h, v, obj, cls, at);
        /* __getattr__ answers for ordinary names; special methods are looked
         * up on the class only, as Python's implicit lookups do (with,
         * int(x), abs(x) ask for them through here) */
        size_t len = strlen(name);
        bool dunder = len > 4 && !strncmp(name, "__", 2) && !strcmp(name + len - 2, "__");
        if (!dunder && class_lookup(cls, "__getattr__").kind != VAL_MISSING) {
            val n = val_str_cstr(name);
            val r = class_call_method(h, obj, "__getattr__", 1, &n, at);
            val_unref(n);
            return r;
        }
        return val_missing();
    }
    if (obj.kind != VAL_CLASS)
        return val_missing();
    val_class *c = class_of(obj);
    if (!strcmp(name, "__name__"))
        return val_str_cstr(c->name);
    if (!strcmp(name, "__qualname__")) {
        val q = val_dict_get_str(c->o.attrs, name);
        return q.kind == VAL_STR ? val_ref(q) : val_str_cstr(c->name);
    }
    if (!strcmp(name, "__bases__") || !strcmp(name, "__base__")) {
        val b = c->base.kind == VAL_CLASS ? val_ref(c->base)
                                          : val_ref(val_dict_get_str(h->builtins, "object"));
        if (class_is_object(obj))
            b = (val_unref(b), val_none());
        if (name[6] == '_')     /* __base__ */
            return b;
        return b.kind == VAL_NONE ? val_tuple_new(0) : val_tuple_of(1, &b);
    }
    if (!strcmp(name, "__mro__")) {
        val l = val_list_new(4);
        for (val k = obj; k.kind == VAL_CLASS; k = class_of(k)->base)
            val_list_push(l, val_ref(k));
        if (!class_is_object(obj))
            val_list_push(l, val_ref(val_dict_get_str(h->builtins, "object")));
        val t = val_tuple_of(val_as_seq(l)->len, val_as_seq(l)->items);
        val_as_seq(l)->len = 0;
        val_unref(l);
        return t;
    }
    if (!strcmp(name, "__dict__"))
        return val_ref(c->o.attrs);
    val v = class_lookup(obj, name);
    if (v.kind != VAL_MISSING)
        return class_bind(h, v, val_none(), obj, at);
    if (class_is_object(obj) && (v = object_attr_fn(name, val_none())).kind != VAL_MISSING)
        return v;
    if (!strcmp(name, "__doc__"))
        return val_none();
    if (!strcmp(name, "__module__"))
        return val_str_cstr(c->builtin ? "builtins" : "__main__");
    return val_missing();
}

static val class_getattr_hook(host *h, val self, const char *name, src_span at)
{
    return class_getattr(h, self, name, at);
}

bool class_instance_setattr(host *h, val self, const char *name, val value, src_span at)
{
    if (self.kind == VAL_INSTANCE) {
        class_wrap *p = wrap_of(class_lookup(instance_class(self), name), &property_type);
        if (p) {
            if (p->self.kind == VAL_NONE) {
                host_raise(h, HOST_EXC_ATTRIBUTE, at, "property '%s' of '%s' object has no "
                           "setter", name, val_type_name(self));
                return false;
            }
            val args[2] = {self, value};
            val r = host_call(h, p->self, 2, args, NULL, at);
            val_unref(r);
            return r.kind != VAL_ERR;
        }
    }
    val_object_set(self, name, val_ref(value));
    return true;
}

/* x.name = value: through the class's __setattr__ when it has one (a
 * program's, or torch.nn.Module's), else object's way. */
static bool class_setattr_hook(host *h, val self, const char *name, val value, src_span at)
{
    val m = self.kind == VAL_INSTANCE ? class_lookup(instance_class(self), "__setattr__")
                                      : val_missing();
    if (m.kind == VAL_MISSING)
        return class_instance_setattr(h, self, name, value, at);
    val args[2] = {val_str_cstr(name), value};
    val r = class_call_method(h, self, "__setattr__", 2, args, at);
    val_unref(args[0]);
    val_unref(r);
    return r.kind != VAL_ERR;
}

bool class_instance_delattr(host *h, val self, const char *name, src_span at)
{
    val attrs = ((val_object *)self.u.o)->attrs;
    val k = val_str_cstr(name);
    val old = attrs.kind == VAL_DICT ? val_dict_pop(attrs, k) : val_missing();
    val_unref(k);
    bool ok = old.kind != VAL_MISSING;
    val_unref(old);
    if (!ok)
        host_raise(h, HOST_EXC_ATTRIBUTE, at, "'%s' object has no attribute '%s'",
                   val_type_name(self), name);
    return ok;
}

int class_delattr(host *h, val self, const char *name, src_span at)
{
    if (self.kind != VAL_INSTANCE ||
        class_lookup(instance_class(self), "__delattr__").kind == VAL_MISSING)
        return 0;
    val n = val_str_cstr(name);
    val r = class_call_method(h, self, "__delattr__", 1, &n, at);
    val_unref(n);
    val_unref(r);
    return r.kind == VAL_ERR ? -1 : 1;
}

/* object.__setattr__(obj, name, value) and object.__delattr__(obj, name),
 * also bound (super().__setattr__(name, value)). */
static bool object_attr_args(host *h, val self, int argc, const val *argv, int want,
                             const char *fname, src_span at, val *obj, const char **name,
                             val *value)
{
    int off = self.kind == VAL_NONE ? 0 : -1;
    if (argc + (off ? 1 : 0) != want) {
        host_raise(h, HOST_EXC_TYPE, at, "%s expected %d arguments, got %d", fname, want,
                   argc + (off ? 1 : 0));
        return false;
    }
    *obj = off ? self : argv[0];
    if (argv[1 + off].kind != VAL_STR) {
        host_raise(h, HOST_EXC_TYPE, at, "attribute name must be string, not '%s'",
                   val_type_name(argv[1 + off]));
        return false;
    }
    *name = val_as_str(argv[1 + off])->s;
    if (value)
        *value = argv[2 + off];
    if (obj->kind != VAL_INSTANCE) {
        host_raise(h, HOST_EXC_TYPE, at, "%s: '%s' is not an instance of a class", fname,
                   val_type_name(*obj));
        return false;
    }
    return true;
}

CLASS_FN(object_setattr)
{
    (void)kw;
    val obj, value;
    const char *name;
    if (!object_attr_args(h, self, argc, argv, 3, "__setattr__", at, &obj, &name, &value))
        return val_err();
    return class_instance_setattr(h, obj, name, value, at) ? val_none() : val_err();
}

CLASS_FN(object_delattr)
{
    (void)kw;
    val obj;
    const char *name;
    if (!object_attr_args(h, self, argc, argv, 2, "__delattr__", at, &obj, &name, NULL))
        return val_err();
    return class_instance_delattr(h, obj, name, at) ? val_none() : val_err();
}

/* object's own __setattr__ / __delattr__, unbound or bound to obj. */
static val object_attr_fn(const char *name, val obj)
{
    if (!strcmp(name, "__setattr__"))
        return val_builtin_new("object.__setattr__", object_setattr, val_ref(obj));
    if (!strcmp(name, "__delattr__"))
        return val_builtin_new("object.__delattr__", object_delattr, val_ref(obj));
    return val_missing();
}

/* ---- making instances -------------------------------------------------------- */

val class_instance_new(val cls)
{
    val_instance *in = val_obj_new(sizeof *in, VAL_INSTANCE, &instance_type);
    in->o.attrs = val_dict_new();
    in->cls = val_ref(cls);
    return val_of(in);
}

val class_call(host *h, val cls, int argc, const val *argv, const val_kwargs *kw, src_span at)
{
    val_class *c = class_of(cls);
    val init = class_lookup(cls, "__init__");
    bool has_kw = kw && kw->n;
    val inst = class_instance_new(cls);
    if (c->exception) {
        /* as BaseException.__new__: args are the call's arguments, whatever
         * __init__ does with them */
        if (has_kw && init.kind == VAL_BUILTIN) {
            val_unref(inst);
            return host_raise(h, HOST_EXC_TYPE, at, "%s() takes no keyword arguments", c->name);
        }
        val args = val_tuple_new((size_t)argc);
        for (int i = 0; i < argc; i++)
            val_seq_set(args, (size_t)i, val_ref(argv[i]));
        val_object_set(inst, "args", args);
        if (init.kind == VAL_BUILTIN) {
            /* BaseException.__init__: sets the same args (and code, value) */
            val *all = xmalloc((size_t)(argc + 1) * sizeof *all);
            all[0] = inst;
            for (int i = 0; i < argc; i++)
                all[i + 1] = argv[i];
            val r = host_call(h, init, argc + 1, all, NULL, at);
            free(all);
            if (r.kind == VAL_ERR) {
                val_unref(inst);
                return r;
            }
            val_unref(r);
            return inst;
        }
    }
    if (init.kind == VAL_MISSING) {
        if (argc || has_kw) {
            val_unref(inst);
            return host_raise(h, HOST_EXC_TYPE, at, "%s() takes no arguments (the class has "
                              "no __init__)", c->name);
        }
        return inst;
    }
    val f = class_bind(h, init, inst, cls, at);
    val r = f.kind == VAL_ERR ? f : host_call(h, f, argc, argv, kw, at);
    val_unref(f);
    if (r.kind == VAL_ERR) {
        val_unref(inst);
        return r;
    }
    if (r.kind != VAL_NONE) {
        host_raise(h, HOST_EXC_TYPE, at, "__init__() should return None, not '%s'",
                   val_type_name(r));
        val_unref(r);
        val_unref(inst);
        return val_err();
    }
    return inst;
}

const class_meta *class_meta_of(val cls)
{
    for (val c = cls; c.kind == VAL_CLASS; c = class_of(c)->base)
        if (class_of(c)->meta)
            return class_of(c)->meta;
    return NULL;
}

static val class_call_hook(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                           src_span at)
{
    const class_meta *m = class_meta_of(self);
    if (m && m->call)
        return m->call(h, self, argc, argv, kw, at);
    return class_call(h, self, argc, argv, kw, at);
}

static void class_repr(host *h, val self, strbuf *out)
{
    const class_meta *m = class_meta_of(self);
    if (m && m->repr) {
        m->repr(h, self, out);
        return;
    }
    strbuf_puts(out, "<class '");
    class_print_name(self, out);
    strbuf_puts(out, "'>");
}

static val class_getitem_hook(host *h, val self, val key, src_span at)
{
    const class_meta *m = class_meta_of(self);
    if (m && m->getitem)
        return m->getitem(h, self, key, at);
    return host_raise(h, HOST_EXC_TYPE, at, "type '%s' is not subscriptable",
                      class_of(self)->name);
}

static val class_iter_hook(host *h, val self, src_span at)
{
    const class_meta *m = class_meta_of(self);
    if (m && m->iter)
        return m->iter(h, self, at);
    return host_raise(h, HOST_EXC_TYPE, at, "'type' object is not iterable");
}

static int64_t class_len_hook(host *h, val self, src_span at)
{
    const class_meta *m = class_meta_of(self);
    if (m && m->len)
        return m->len(h, self, at);
    host_raise(h, HOST_EXC_TYPE, at, "object of type 'type' has no len()");
    return -1;
}

static val class_binop_hook(host *h, ast_op op, bool inplace, val a, val b, src_span at)
{
    (void)inplace;
    const class_meta *m = b.kind == VAL_CLASS ? class_meta_of(b) : NULL;
    if (op == AST_OP_IN && m && m->contains) {
        int r = m->contains(h, b, a, at);
        return r < 0 ? val_err() : val_bool(r);
    }
    return val_missing();
}

/* isinstance(v, cls): v's class derives from cls (everything is an
 * object), or cls's meta says so. */
static bool class_instancecheck(val self, val v)
{
    if (class_is_object(self))
        return true;
    if (v.kind == VAL_INSTANCE && class_is_subclass(instance_class(v), self))
        return true;
    const class_meta *m = class_meta_of(self);
    return m && m->instancecheck && m->instancecheck(self, v);
}

static const val_type class_type = {
    .name = "type",
    .instancecheck = class_instancecheck,
    .getattr = class_getattr_hook,
    .setattr = class_setattr_hook,
    .call = class_call_hook,
    .getitem = class_getitem_hook,
    .iter = class_iter_hook,
    .len = class_len_hook,
    .binop = class_binop_hook,
    .repr = class_repr,
};

void class_adopt(val cls)
{
    size_t pos = 0;
    val k, v;
    while (val_dict_next(class_of(cls)->o.attrs, &pos, &k, &v)) {
        class_wrap *w = wrap_of(v, &staticmethod_type);
        if (!w)
            w = wrap_of(v, &classmethod_type);
        if (!w)
            w = wrap_of(v, &property_type);
        val fns[2] = {w ? w->fn : v, w && w->o.h.type == &property_type ? w->self : val_none()};
        for (int i = 0; i < 2; i++) {
            if (fns[i].kind != VAL_FUNC)
                continue;
            val_func *f = (val_func *)fns[i].u.o;
            if (f->owner.kind == VAL_NONE)
                f->owner = val_ref(cls);
        }
    }
}

/* ---- the special methods of instances ------------------------------------------ */

static bool class_is_notimpl(val v)
{
    return v.kind == VAL_OBJECT && v.u.o->type == &notimpl_type;
}

static val instance_call(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                         src_span at)
{
    val m = class_lookup(instance_class(self), "__call__");
    if (m.kind == VAL_MISSING)
        return host_raise(h, HOST_EXC_TYPE, at, "'%s' object is not callable",
                          val_type_name(self));
    val f = class_bind(h, m, self, instance_class(self), at);
    val r = f.kind == VAL_ERR ? f : host_call(h, f, argc, argv, kw, at);
    val_unref(f);
    return r;
}

static val instance_getitem(host *h, val self, val key, src_span at)
{
    val r = class_call_method(h, self, "__getitem__", 1, &key, at);
    if (r.kind == VAL_MISSING)
        return host_raise(h, HOST_EXC_TYPE, at, "'%s' object is not subscriptable",
                          val_type_name(self));
    return r;
}

static bool instance_setitem(host *h, val self, val key, val value, src_span at)
{
    val args[2] = {key, value};
    val r = class_call_method(h, self, "__setitem__", 2, args, at);
    if (r.kind == VAL_MISSING) {
        host_raise(h, HOST_EXC_TYPE, at, "'%s' object does not support item assignment",
                   val_type_name(self));
        return false;
    }
    val_unref(r);
    return r.kind != VAL_ERR;
}

static const struct {
    ast_op op;
    const char *name, *rname;
} class_binops[] = {
    {AST_OP_ADD, "__add__", "__radd__"}, {AST_OP_SUB, "__sub__", "__rsub__"},
    {AST_OP_MUL, "__mul__", "__rmul__"}, {AST_OP_DIV, "__truediv__", "__rtruediv__"},
    {AST_OP_FLOORDIV, "__floordiv__", "__rfloordiv__"}, {AST_OP_MOD, "__mod__", "__rmod__"},
    {AST_OP_POW, "__pow__", "__rpow__"}, {AST_OP_MATMUL, "__matmul__", "__rmatmul__"},
    {AST_OP_LSHIFT, "__lshift__", "__rlshift__"}, {AST_OP_RSHIFT, "__rshift__", "__rrshift__"},
    {AST_OP_BITAND, "__and__", "__rand__"}, {AST_OP_BITOR, "__or__", "__ror__"},
    {AST_OP_BITXOR, "__xor__", "__rxor__"},
    {AST_OP_EQ, "__eq__", "__eq__"}, {AST_OP_NE, "__ne__", "__ne__"},
    {AST_OP_LT, "__lt__", "__gt__"}, {AST_OP_LE, "__le__", "__ge__"},
    {AST_OP_GT, "__gt__", "__lt__"}, {AST_OP_GE, "__ge__", "__le__"},
};

/* self.name(other), or MISSING when there is no such method or it says
 * NotImplemented. */
static val instance_try(host *h, val self, const char *name, val other, src_span at)
{
    if (self.kind != VAL_INSTANCE)
        return val_missing();
    val r = class_call_method(h, self, name, 1, &other, at);
    if (class_is_notimpl(r)) {
        val_unref(r);
        return val_missing();
    }
    return r;
}

static val instance_binop(host *h, ast_op op, bool inplace, val a, val b, src_span at)
{
    if (op == AST_OP_IN) {
        val r = instance_try(h, b, "__contains__", a, at);
        if (r.kind == VAL_MISSING || r.kind == VAL_ERR)
            return r;
        int t = host_truth(h, r, at);
        val_unref(r);
        return t < 0 ? val_err() : val_bool(t);
    }
    size_t i = 0, n = sizeof class_binops / sizeof class_binops[0];
    while (i < n && class_binops[i].op != op)
        i++;
    if (i == n)
        return val_missing();
    val r;
    if (inplace && op < AST_OP_EQ) {
        char iname[32];
        snprintf(iname, sizeof iname, "__i%s", class_binops[i].name + 2);
        r = instance_try(h, a, iname, b, at);
        if (r.kind != VAL_MISSING)
            return r;
    }
    r = instance_try(h, a, class_binops[i].name, b, at);
    if (r.kind != VAL_MISSING)
        return r;
    r = instance_try(h, b, class_binops[i].rname, a, at);
    if (r.kind != VAL_MISSING || op != AST_OP_NE)
        return r;
    /* no __ne__: the opposite of __eq__ */
    r = instance_try(h, a, "__eq__", b, at);
    if (r.kind == VAL_MISSING)
        r = instance_try(h, b, "__eq__", a, at);
    if (r.kind == VAL_MISSING || r.kind == VAL_ERR)
        return r;
    int t = host_truth(h, r, at);
    val_unref(r);
    return t < 0 ? val_err() : val_bool(!t);
}

static val instance_unop(host *h, ast_op op, val self, src_span at)
{
    const char *name = op == AST_OP_USUB ? "__neg__" : op == AST_OP_UADD ? "__pos__"
                                                                         : "__invert__";
    return class_call_method(h, self, name, 0, NULL, at);
}

static int64_t instance_len(host *h, val self, src_span at)
{
    val r = class_call_method(h, self, "__len__", 0, NULL, at);
    if (r.kind == VAL_MISSING) {
        host_raise(h, HOST_EXC_TYPE, at, "object of type '%s' has no len()",
                   val_type_name(self));
        return -1;
    }
    if (r.kind == VAL_ERR)
        return -1;
    int64_t n;
    bool ok = r.kind == VAL_INT && r.u.i >= 0;
    n = ok ? r.u.i : -1;
    if (!ok)
        host_raise(h, r.kind == VAL_INT ? HOST_EXC_VALUE : HOST_EXC_TYPE, at,
                   r.kind == VAL_INT ? "__len__() should return >= 0"
                                     : "'%s' object cannot be interpreted as an integer",
                   val_type_name(r));
    val_unref(r);
    return n;
}

static int instance_truth(host *h, val self, src_span at)
{
    val r = class_call_method(h, self, "__bool__", 0, NULL, at);
    if (r.kind == VAL_ERR)
        return -1;
    if (r.kind != VAL_MISSING) {
        int t = r.kind == VAL_BOOL ? r.u.b : -1;
        if (t < 0)
            host_raise(h, HOST_EXC_TYPE, at, "__bool__ should return bool, returned %s",
                       val_type_name(r));
        val_unref(r);
        return t;
    }
    if (class_lookup(instance_class(self), "__len__").kind == VAL_MISSING)
        return 1;
    int64_t n = instance_len(h, self, at);
    return n < 0 ? -1 : n > 0;
}

/* iter(x): __iter__'s result, run to its end (an object with __next__ is
 * asked until it raises StopIteration). */
static val instance_iter(host *h, val self, src_span at)
{
    val it = class_call_method(h, self, "__iter__", 0, NULL, at);
    if (it.kind == VAL_MISSING)
        return host_raise(h, HOST_EXC_TYPE, at, "'%s' object is not iterable",
                          val_type_name(self));
    if (it.kind == VAL_ERR)
        return it;
    if (it.kind != VAL_INSTANCE) {
        val l = host_to_list(h, it, at);
        val_unref(it);
        return l;
    }
    val l = val_list_new(0);
    for (int64_t n = 0;; n++) {
        val x = class_call_method(h, it, "__next__", 0, NULL, at);
        if (x.kind == VAL_MISSING) {
            val_unref(l);
            l = host_raise(h, HOST_EXC_TYPE, at, "iter() returned non-iterator of type '%s'",
                           val_type_name(it));
            break;
        }
        if (x.kind == VAL_ERR) {
            if (host_exc_is(h, h->exc, HOST_EXC_STOP_ITERATION)) {
                val_unref(host_exc_take(h));
                break;
            }
            val_unref(l);
            l = x;
            break;
        }
        val_list_push(l, x);
        if (n >= (1 << 27)) {
            val_unref(l);
            l = host_raise(h, HOST_EXC_MEMORY, at, "an iterator that gives more than %d items "
                           "(tritsim collects them first)", 1 << 27);
            break;
        }
    }
    val_unref(it);
    return l;
}

/* repr(x) / str(x) through __repr__ / __str__; a hook cannot fail, so an
 * exception stays pending (host_repr sees it). */
static void instance_text(host *h, val self, strbuf *out, const char *name)
{
    val r = val_missing();
    if (h && !host_exc_pending(h) && !h->exiting)
        r = class_call_method(h, self, name, 0, NULL, h->stmt_at);
    if (r.kind == VAL_STR) {
        strbuf_putn(out, val_as_str(r)->s, val_as_str(r)->len);
    } else if (r.kind == VAL_MISSING) {
        if (!strcmp(name, "__str__")) {
            instance_text(h, self, out, "__repr__");
            return;
        }
        strbuf_putc(out, '<');
        class_print_name(instance_class(self), out);
        strbuf_printf(out, " object at %p>", (void *)self.u.o);
    } else if (r.kind != VAL_ERR) {
        host_raise(h, HOST_EXC_TYPE, h->stmt_at, "%s returned non-string (type %s)", name,
                   val_type_name(r));
    }
    val_unref(r);
}

static void instance_repr(host *h, val self, strbuf *out)
{
    instance_text(h, self, out, "__repr__");
}

static void instance_str(host *h, val self, strbuf *out)
{
    instance_text(h, self, out, "__str__");
}

static const val_type instance_type = {
    .name = "object",
    .getattr = class_getattr_hook,
    .setattr = class_setattr_hook,
    .call = instance_call,
    .getitem = instance_getitem,
    .setitem = instance_setitem,
    .binop = instance_binop,
    .unop = instance_unop,
    .truth = instance_truth,
    .len = instance_len,
    .iter = instance_iter,
    .repr = instance_repr,
    .str = instance_str,
};

/* ---- super() ---------------------------------------------------------------------- */

typedef struct class_super {
    val_object o;
    val cls;        /* the class super() was asked in */
    val obj;        /* the instance (or class) it works on */
} class_super;

static void super_free(val_obj *o)
{
    class_super *s = (class_super *)o;
    val_unref(s->cls);
    val_unref(s->obj);
}

CLASS_FN(object_init)
{
    (void)self;
    (void)argv;
    if (argc > 1 || (kw && kw->n))
        return host_raise(h, HOST_EXC_TYPE, at, "object.__init__() takes exactly one argument "
                          "(the instance to initialize)");
    return val_none();
}

static val super_getattr(host *h, val self, const char *name, src_span at)
{
    class_super *s = (class_super *)self.u.o;
    val start = class_of(s->cls)->base;
    val v = class_lookup(start, name);
    bool inst = s->obj.kind == VAL_INSTANCE;
    if (v.kind == VAL_MISSING) {
        if (!strcmp(name, "__init__"))
            return val_builtin_new("object.__init__", object_init, val_ref(s->obj));
        if (inst)
            return object_attr_fn(name, s->obj);
        return val_missing();
    }
    return class_bind(h, v, inst ? s->obj : val_none(), inst ? instance_class(s->obj) : s->obj,
                      at);
}

static void super_repr(host *h, val self, strbuf *out)
{
    class_super *s = (class_super *)self.u.o;
    strbuf_puts(out, "<super: ");
    class_repr(h, s->cls, out);
    strbuf_puts(out, ", <");
    strbuf_puts(out, val_type_name(s->obj));
    strbuf_puts(out, " object>>");
}

static const val_type super_type = {
    .name = "super",
    .getattr = super_getattr,
    .repr = super_repr,
    .free = super_free,
};

CLASS_FN(builtin_super)
{
    (void)self;
    if (kw && kw->n)
        return host_raise(h, HOST_EXC_TYPE, at, "super() takes no keyword arguments");
    val cls, obj;
    if (argc == 0) {
        const host_frame *f = h->frame;
        cls = f && f->func ? f->func->owner : val_none();
        obj = host_frame_self(h);
        if (cls.kind != VAL_CLASS || obj.kind == VAL_MISSING)
            return host_raise(h, HOST_EXC_RUNTIME, at, "super(): no arguments (super() "
                              "without arguments works in a method defined in a class body)");
    } else if (argc == 2) {
        cls = argv[0];
        obj = argv[1];
        if (cls.kind != VAL_CLASS)
            return host_raise(h, HOST_EXC_TYPE, at, "super() argument 1 must be a class, not "
                              "'%s'", val_type_name(cls));
    } else {
        return host_raise(h, HOST_EXC_TYPE, at, "super() takes 0 or 2 arguments (%d given)",
                          argc);
    }
    bool ok = obj.kind == VAL_INSTANCE ? class_is_subclass(instance_class(obj), cls)
              : obj.kind == VAL_CLASS && class_is_subclass(obj, cls);
    if (!ok)
        return host_raise(h, HOST_EXC_TYPE, at, "super(type, obj): obj must be an instance or "
                          "subtype of type");
    class_super *s = val_obj_new(sizeof *s, VAL_OBJECT, &super_type);
    s->o.attrs = val_none();
    s->cls = val_ref(cls);
    s->obj = val_ref(obj);
    return val_of(s);
}

/* ---- the other built-ins ------------------------------------------------------------ */

static void notimpl_repr(host *h, val self, strbuf *out)
{
    (void)h;
    (void)self;
    strbuf_puts(out, "NotImplemented");
}

static const val_type notimpl_type = {
    .name = "NotImplementedType",
    .repr = notimpl_repr,
};

static bool one_arg(host *h, const char *fname, int argc, const val_kwargs *kw, src_span at)
{
    if (argc == 1 && !(kw && kw->n))
        return true;
    host_raise(h, HOST_EXC_TYPE, at, "%s() takes exactly one argument (%d given)", fname, argc);
    return false;
}

CLASS_FN(builtin_staticmethod)
{
    (void)self;
    return one_arg(h, "staticmethod", argc, kw, at) ? class_static(val_ref(argv[0]))
                                                    : val_err();
}

CLASS_FN(builtin_classmethod)
{
    (void)self;
    return one_arg(h, "classmethod", argc, kw, at) ? class_method(val_ref(argv[0]))
                                                   : val_err();
}

CLASS_FN(builtin_property)
{
    (void)self;
    val a[4];
    if (!host_args(h, at, "property", "fget=, fset=, fdel=, doc=", argc, argv, kw, a))
        return val_err();
    return wrap_new(&property_type, a[0].kind == VAL_MISSING ? val_none() : val_ref(a[0]),
                    a[1].kind == VAL_MISSING ? val_none() : val_ref(a[1]));
}

/* Is a a subclass of b, for type objects of either kind? */
static int subclass1(host *h, val a, val b, src_span at)
{
    if (b.kind == VAL_CLASS) {
        if (class_is_object(b))
            return 1;
        return a.kind == VAL_CLASS && class_is_subclass(a, b);
    }
    if (b.kind == VAL_BUILTIN && ((const val_builtin *)b.u.o)->inst_kind != VAL_ERR) {
        if (a.kind != VAL_BUILTIN)
            return 0;
        const val_builtin *x = (const val_builtin *)a.u.o, *y = (const val_builtin *)b.u.o;
        if (x->inst_kind == VAL_BOOL && y->inst_kind == VAL_INT)
            return 1;
        return x->inst_kind == y->inst_kind && x->inst_type == y->inst_type;
    }
    host_raise(h, HOST_EXC_TYPE, at, "issubclass() arg 2 must be a class or tuple of classes, "
               "not '%s'", val_type_name(b));
    return -1;
}

CLASS_FN(builtin_issubclass)
{
    (void)self;
    if (argc != 2 || (kw && kw->n))
        return host_raise(h, HOST_EXC_TYPE, at, "issubclass() takes exactly 2 arguments (%d "
                          "given)", argc);
    val a = argv[0], b = argv[1];
    if (a.kind != VAL_CLASS &&
        !(a.kind == VAL_BUILTIN && ((const val_builtin *)a.u.o)->inst_kind != VAL_ERR))
        return host_raise(h, HOST_EXC_TYPE, at, "issubclass() arg 1 must be a class, not '%s'",
                          val_type_name(a));
    if (b.kind == VAL_TUPLE) {
        const val_seq *t = val_as_seq(b);
        for (size_t i = 0; i < t->len; i++) {
            int r = subclass1(h, a, t->items[i], at);
            if (r != 0)
                return r < 0 ? val_err() : val_bool(true);
        }
        return val_bool(false);
    }
    int r = subclass1(h, a, b, at);
    return r < 0 ? val_err() : val_bool(r);
}

/* vars(x): x.__dict__ of an instance, a class or a module. */
CLASS_FN(builtin_vars)
{
    (void)self;
    if (argc != 1 || (kw && kw->n))
        return host_raise(h, HOST_EXC_NOT_IMPLEMENTED, at, "vars() takes one argument in "
                          "tritsim (vars() of the local scope is not supported)");
    val x = argv[0];
    if ((x.kind == VAL_INSTANCE || x.kind == VAL_CLASS || x.kind == VAL_MODULE ||
         x.kind == VAL_OBJECT) && ((val_object *)x.u.o)->attrs.kind == VAL_DICT)
        return val_ref(((val_object *)x.u.o)->attrs);
    return host_raise(h, HOST_EXC_TYPE, at, "vars() argument must have __dict__ attribute");
}

/* Add the str keys of attrs (a dict) to seen (a dict used as a set). */
static void dir_add_keys(val attrs, val seen)
{
    size_t pos = 0;
    val k, v;
    while (attrs.kind == VAL_DICT && val_dict_next(attrs, &pos, &k, &v))
        if (k.kind == VAL_STR)
            val_dict_set(seen, val_ref(k), val_none());
}

static int dir_cmp(const void *a, const void *b)
{
    const val *x = a, *y = b;
    return strcmp(val_as_str(*x)->s, val_as_str(*y)->s);
}

/* dir(x) of a module, an instance, a class or a built-in object: the sorted
 * names of its attributes, an instance's and a class's together with those
 * of its classes.  Python adds the special methods every object has
 * (__class__, __init__, ...); tritsim lists what the object and its classes
 * define.  Of other values (numbers, strs, tensors) it is refused. */
CLASS_FN(builtin_dir)
{
    (void)self;
    if (argc != 1 || (kw && kw->n))
        return host_raise(h, HOST_EXC_NOT_IMPLEMENTED, at, "dir() takes one argument in "
                          "tritsim (dir() of the local scope is not supported)");
    val x = argv[0];
    if (!((x.kind == VAL_INSTANCE || x.kind == VAL_CLASS || x.kind == VAL_MODULE ||
           x.kind == VAL_OBJECT) && ((val_object *)x.u.o)->attrs.kind == VAL_DICT))
        return host_raise(h, HOST_EXC_NOT_IMPLEMENTED, at, "dir() of a '%s' is not supported "
                          "by tritsim (modules, classes and their instances are)",
                          val_type_name(x));
    val seen = val_dict_new();
    dir_add_keys(((val_object *)x.u.o)->attrs, seen);
    val cls = x.kind == VAL_INSTANCE ? instance_class(x) : x.kind == VAL_CLASS ? x : val_none();
    for (val k = cls; k.kind == VAL_CLASS; k = class_of(k)->base)
        dir_add_keys(class_of(k)->o.attrs, seen);
    val l = val_list_new(8);
    size_t pos = 0;
    val k, v;
    while (val_dict_next(seen, &pos, &k, &v))
        val_list_push(l, val_ref(k));
    val_unref(seen);
    val_seq *q = val_as_seq(l);
    qsort(q->items, q->len, sizeof *q->items, dir_cmp);
    return l;
}

void class_init(host *h)
{
    val object = class_new("object", val_none(), true);
    val_object_set(object, "__init__", val_builtin_new("object.__init__", object_init,
                                                       val_none()));
    val_dict_set_str(h->builtins, "object", object);
    static const struct {
        const char *name;
        val_cfunc fn;
    } fns[] = {
        {"super", builtin_super}, {"staticmethod", builtin_staticmethod},
        {"classmethod", builtin_classmethod}, {"property", builtin_property},
        {"issubclass", builtin_issubclass}, {"vars", builtin_vars},
        {"dir", builtin_dir},
    };
    for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++)
        val_dict_set_str(h->builtins, fns[i].name,
                         val_builtin_new(fns[i].name, fns[i].fn, val_none()));
    class_wrap *ni = val_obj_new(sizeof *ni, VAL_OBJECT, &notimpl_type);
    ni->o.attrs = val_none();
    ni->fn = val_none();
    ni->self = val_none();
    val_dict_set_str(h->builtins, "NotImplemented", val_of(ni));
}
