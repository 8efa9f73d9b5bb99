/* enummod.c - the enum module: Enum, IntEnum and StrEnum as classes
 * written in C whose class_meta (host.h) makes the members of each class
 * derived from them when its class statement ends (every public attribute
 * of the body that is not a function, class or descriptor becomes an
 * instance of the class with .name and .value; equal values make aliases;
 * auto() counts from 1, or gives the lower-case name in a StrEnum, or asks
 * the class's _generate_next_value_), and gives the class Python's
 * EnumType behaviour: iteration in definition order (aliases left out),
 * len, `member in cls`, cls(value) (with _missing_), cls[name], and the
 * repr <enum 'Color'>.  A member of an IntEnum, a StrEnum or an enum with
 * a value type (class C(str, Enum), class N(int, Enum)) compares equal to
 * its value and converts like it (int(), operators of IntEnum); str() and
 * format() follow Python 3.11 (the value for IntEnum and StrEnum, else
 * Cls.NAME).  Also unique.
 *
 * The class keeps its members in its namespace as CPython does:
 * _member_names_, _member_map_, _value2member_map_ and __members__.
 * Not supported: Flag and IntFlag, the functional API Enum('Name', ...),
 * members with tuple values unpacked into __init__, _ignore_. */
#include "builtins_impl.h"

#include <ctype.h>
#include <string.h>

static const class_meta enum_meta;

static val enum_ns(val cls)
{
    return ((val_object *)cls.u.o)->attrs;
}

/* The class's own entry, or its nearest base's. */
static val enum_lookup(val cls, const char *name)
{
    return class_lookup(cls, name);
}

/* The built-in type of the members' values (int for IntEnum, str for
 * StrEnum, the mixin of class C(str, Enum)), or VAL_MISSING. */
static val enum_member_type(val cls)
{
    return enum_lookup(cls, "_member_type_");
}

static bool enum_is_member(val v)
{
    if (v.kind != VAL_INSTANCE)
        return false;
    val cls = ((val_instance *)v.u.o)->cls;
    return class_meta_of(cls) == &enum_meta &&
           val_object_get(v, "_value_").kind != VAL_MISSING;
}

static val enum_value(val member)
{
    return val_object_get(member, "_value_");
}

/* ---- making the members -------------------------------------------------------------------- */

typedef struct enum_auto {
    val_object o;
} enum_auto;

static const val_type enum_auto_type = {.name = "auto"};

BUILTIN_FN(enum_auto_new)
{
    (void)self, (void)argv;
    if (!builtin_nargs(h, "auto", argc, kw, 0, 0, at))
        return val_err();
    enum_auto *a = val_obj_new(sizeof *a, VAL_OBJECT, &enum_auto_type);
    return val_of(a);
}

/* Is a namespace entry a member's value (not a method or descriptor)? */
static bool enum_member_candidate(const char *name, val v)
{
    if (name[0] == '_')
        return false;
    if (v.kind == VAL_FUNC || v.kind == VAL_BUILTIN || v.kind == VAL_CLASS)
        return false;
    const val_type *t = val_type_of(v);
    if (t && t->name && (!strcmp(t->name, "staticmethod") || !strcmp(t->name, "classmethod") ||
                         !strcmp(t->name, "property")))
        return false;
    return true;
}

/* The value auto() stands for: _generate_next_value_(name, start, count,
 * last_values) if the class has one, else the name in lower case for a
 * StrEnum, else the last int value + 1 (1 for the first). */
static val enum_next_value(host *h, val cls, const char *name, val values, src_span at)
{
    val gen = enum_lookup(cls, "_generate_next_value_");
    if (gen.kind != VAL_MISSING && gen.kind != VAL_BUILTIN) {
        val fn = host_getattr(h, cls, "_generate_next_value_", at);
        if (fn.kind == VAL_ERR)
            return fn;
        val args[4] = {val_str_cstr(name), val_int(1), val_int((int64_t)val_as_seq(values)->len),
                       host_to_list(h, values, at)};
        val r = host_call(h, fn, 4, args, NULL, at);
        val_unref(fn);
        val_unref(args[0]);
        val_unref(args[3]);
        return r;
    }
    val mt = enum_member_type(cls);
    val str_type = val_dict_get_str(h->builtins, "str");
    if (val_is_heap(mt) && val_is_heap(str_type) && mt.u.o == str_type.u.o) {
        strbuf b = {0};
        for (const char *p = name; *p; p++)
            strbuf_putc(&b, (char)tolower((unsigned char)*p));
        return val_str_from_buf(&b);
    }
    const val_seq *s = val_as_seq(values);
    for (size_t i = s->len; i-- > 0;)
        if (builtin_is_int(s->items[i]))
            return val_int(builtin_int_of(s->items[i]) + 1);
    return val_int(1);
}

static bool enum_created(host *h, val cls, src_span at)
{
    val ns = enum_ns(cls);
    val_class *c = (val_class *)cls.u.o;
    val inherited = c->base.kind == VAL_CLASS ? enum_lookup(c->base, "_member_names_")
                                              : val_missing();
    if (inherited.kind == VAL_LIST && val_as_seq(inherited)->len) {
        host_raise(h, HOST_EXC_TYPE, at, "<enum '%s'> cannot extend <enum '%s'>", c->name,
                   ((val_class *)c->base.u.o)->name);
        return false;
    }
    val names = val_list_new(4), map = val_dict_new(), v2m = val_dict_new();
    val values = val_list_new(4);
    val mt = enum_member_type(cls);
    /* the candidates first (the namespace changes as members replace them) */
    val todo = val_list_new(4);
    size_t pos = 0;
    val k, v;
    while (val_dict_next(ns, &pos, &k, &v))
        if (enum_member_candidate(val_as_str(k)->s, v))
            val_list_push(todo, val_ref(k));
    bool ok = true;
    for (size_t i = 0; ok && i < val_as_seq(todo)->len; i++) {
        val name = val_as_seq(todo)->items[i];
        val raw = val_ref(val_dict_get(ns, name));
        if (val_type_of(raw) == &enum_auto_type) {
            val_unref(raw);
            raw = enum_next_value(h, cls, val_as_str(name)->s, values, at);
            if (raw.kind == VAL_ERR) {
                ok = false;
                break;
            }
        }
        val value = raw;
        if (mt.kind != VAL_MISSING && val_type_of(raw) != &enum_auto_type) {
            value = host_call(h, mt, 1, &raw, NULL, at);
            val_unref(raw);
            if (value.kind == VAL_ERR) {
                ok = false;
                break;
            }
        }
        val_list_push(values, val_ref(value));
        /* an equal value makes an alias of the earlier member */
        val member = val_missing();
        for (size_t j = 0; j < val_as_seq(names)->len; j++) {
            val m = val_dict_get(map, val_as_seq(names)->items[j]);
            if (val_equal(enum_value(m), value)) {
                member = val_ref(m);
                break;
            }
        }
        if (member.kind == VAL_MISSING) {
            member = class_instance_new(cls);
            val_object_set(member, "_name_", val_ref(name));
            val_object_set(member, "_value_", val_ref(value));
            val_object_set(member, "name", val_ref(name));
            val_object_set(member, "value", val_ref(value));
            val_list_push(names, val_ref(name));
            if (val_hashable(value))
                val_dict_set(v2m, val_ref(value), val_ref(member));
        }
        val_dict_set(map, val_ref(name), val_ref(member));
        val_dict_set(ns, val_ref(name), member);
        val_unref(value);
    }
    val_unref(todo);
    val_unref(values);
    if (!ok) {
        val_unref(names);
        val_unref(map);
        val_unref(v2m);
        return false;
    }
    val_dict_set_str(ns, "_member_names_", names);
    val_dict_set_str(ns, "__members__", val_ref(map));
    val_dict_set_str(ns, "_member_map_", map);
    val_dict_set_str(ns, "_value2member_map_", v2m);
    return true;
}

/* ---- the class's behaviour ------------------------------------------------------------------ */

static val enum_members(val cls)
{
    val names = enum_lookup(cls, "_member_names_");
    val map = enum_lookup(cls, "_member_map_");
    val l = val_list_new(4);
    for (size_t i = 0; names.kind == VAL_LIST && i < val_as_seq(names)->len; i++)
        val_list_push(l, val_ref(val_dict_get(map, val_as_seq(names)->items[i])));
    return l;
}

static val enum_iter(host *h, val cls, src_span at)
{
    (void)h, (void)at;
    return enum_members(cls);
}

static int64_t enum_len(host *h, val cls, src_span at)
{
    (void)h, (void)at;
    val names = enum_lookup(cls, "_member_names_");
    return names.kind == VAL_LIST ? (int64_t)val_as_seq(names)->len : 0;
}

static int enum_contains(host *h, val cls, val x, src_span at)
{
    (void)h, (void)at;
    return enum_is_member(x) && class_is_subclass(((val_instance *)x.u.o)->cls, cls);
}

static val enum_getitem(host *h, val cls, val key, src_span at)
{
    val map = enum_lookup(cls, "_member_map_");
    val m = map.kind == VAL_DICT && val_hashable(key) ? val_dict_get(map, key) : val_missing();
    if (m.kind != VAL_MISSING)
        return val_ref(m);
    return host_raise_args(h, HOST_EXC_KEY, val_tuple_of(1, (val[]){val_ref(key)}), at,
                           "KeyError: %s has no member of that name",
                           ((val_class *)cls.u.o)->name);
}

/* cls(value): the member of that value. */
static val enum_call(host *h, val cls, int argc, const val *argv, const val_kwargs *kw,
                     src_span at)
{
    val_class *c = (val_class *)cls.u.o;
    if (argc != 1 || (kw && kw->n)) {
        if (enum_len(h, cls, at) == 0)
            return host_raise(h, HOST_EXC_NOT_IMPLEMENTED, at, "the functional API of enum "
                              "(%s('Name', members)) is not supported by tritsim", c->name);
        return host_raise(h, HOST_EXC_TYPE, at, "%s() takes 1 argument, the value of a member",
                          c->name);
    }
    val x = argv[0];
    if (enum_is_member(x) && ((val_instance *)x.u.o)->cls.u.o == cls.u.o)
        return val_ref(x);
    val v2m = enum_lookup(cls, "_value2member_map_");
    if (v2m.kind == VAL_DICT && val_hashable(x)) {
        val m = val_dict_get(v2m, x);
        if (m.kind != VAL_MISSING)
            return val_ref(m);
    }
    val members = enum_members(cls);
    for (size_t i = 0; i < val_as_seq(members)->len; i++) {
        val m = val_as_seq(members)->items[i];
        if (val_equal(enum_value(m), x)) {
            val r = val_ref(m);
            val_unref(members);
            return r;
        }
    }
    val_unref(members);
    val missing = enum_lookup(cls, "_missing_");
    if (missing.kind != VAL_MISSING) {
        val r = host_call_method(h, cls, "_missing_", 1, &x, NULL, at);
        if (r.kind == VAL_ERR || r.kind != VAL_NONE)
            return r;
    }
    val rep = host_repr(h, x);
    if (rep.kind == VAL_ERR)
        return rep;
    val qn = val_dict_get_str(enum_ns(cls), "__qualname__");
    val msg = val_str_fmt("%s is not a valid %s", val_as_str(rep)->s,
                          qn.kind == VAL_STR ? val_as_str(qn)->s : c->name);
    val_unref(rep);
    val e = host_call(h, host_exc_class(h, HOST_EXC_VALUE), 1, &msg, NULL, at);
    val_unref(msg);
    if (e.kind == VAL_ERR)
        return e;
    host_raise_value(h, e, at);
    val_unref(e);
    return val_err();
}

static void enum_class_repr(host *h, val cls, strbuf *out)
{
    (void)h;
    strbuf_printf(out, "<enum '%s'>", ((val_class *)cls.u.o)->name);
}

static const class_meta enum_meta = {
    .created = enum_created,
    .call = enum_call,
    .getitem = enum_getitem,
    .iter = enum_iter,
    .len = enum_len,
    .contains = enum_contains,
    .repr = enum_class_repr,
};

/* ---- the members' methods ------------------------------------------------------------------ */

/* The member a method was called on (self, or the first argument when
 * called through the class). */
static bool enum_self(host *h, val *self, int *argc, const val **argv, src_span at)
{
    if (self->kind == VAL_NONE && *argc > 0) {
        *self = (*argv)[0];
        (*argv)++;
        (*argc)--;
    }
    if (!enum_is_member(*self)) {
        host_raise(h, HOST_EXC_TYPE, at, "an enum method needs a member");
        return false;
    }
    return true;
}

static const char *enum_class_name(val member)
{
    return ((val_class *)((val_instance *)member.u.o)->cls.u.o)->name;
}

/* Does the member's class give str() the value (IntEnum, StrEnum)? */
static bool enum_str_is_value(val member)
{
    val cls = ((val_instance *)member.u.o)->cls;
    val r = class_lookup(cls, "_str_is_value_");
    return r.kind == VAL_BOOL && r.u.b;
}

BUILTIN_FN(enum_m_repr)
{
    (void)kw;
    if (!enum_self(h, &self, &argc, &argv, at))
        return val_err();
    val rep = host_repr(h, enum_value(self));
    if (rep.kind == VAL_ERR)
        return rep;
    val r = val_str_fmt("<%s.%s: %s>", enum_class_name(self),
                        val_as_str(val_object_get(self, "_name_"))->s, val_as_str(rep)->s);
    val_unref(rep);
    return r;
}

BUILTIN_FN(enum_m_str)
{
    (void)kw;
    if (!enum_self(h, &self, &argc, &argv, at))
        return val_err();
    if (enum_str_is_value(self))
        return host_str(h, enum_value(self));
    return val_str_fmt("%s.%s", enum_class_name(self),
                       val_as_str(val_object_get(self, "_name_"))->s);
}

/* The value to compare or compute with: a member's value when the enum
 * has a value type, else the member itself. */
static val enum_operand(val v)
{
    if (enum_is_member(v) && enum_member_type(((val_instance *)v.u.o)->cls).kind != VAL_MISSING)
        return enum_value(v);
    return v;
}

/* __eq__ of the enums with a value type: compared as their values. */
BUILTIN_FN(enum_m_eq)
{
    (void)kw;
    if (!enum_self(h, &self, &argc, &argv, at))
        return val_err();
    if (argc != 1)
        return host_raise(h, HOST_EXC_TYPE, at, "__eq__ takes 1 argument");
    if (enum_member_type(((val_instance *)self.u.o)->cls).kind == VAL_MISSING)
        return val_bool(val_is_heap(argv[0]) && argv[0].u.o == self.u.o);
    return host_binop(h, AST_OP_EQ, enum_value(self), enum_operand(argv[0]), at);
}

/* Operators of the enums with a value type: on the values (the result is
 * a plain value, as int's operators give an int). */
static val enum_m_op(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                     src_span at, ast_op op, bool reflected)
{
    (void)kw;
    if (!enum_self(h, &self, &argc, &argv, at))
        return val_err();
    if (argc != 1)
        return host_raise(h, HOST_EXC_TYPE, at, "an operator takes 1 argument");
    if (enum_member_type(((val_instance *)self.u.o)->cls).kind == VAL_MISSING)
        return val_ref(val_dict_get_str(h->builtins, "NotImplemented"));
    val a = enum_value(self), b = enum_operand(argv[0]);
    return reflected ? host_binop(h, op, b, a, at) : host_binop(h, op, a, b, at);
}

HOST_CFUNC_CALLING(enum_m_lt, enum_m_op, AST_OP_LT, false)
HOST_CFUNC_CALLING(enum_m_le, enum_m_op, AST_OP_LE, false)
HOST_CFUNC_CALLING(enum_m_gt, enum_m_op, AST_OP_GT, false)
HOST_CFUNC_CALLING(enum_m_ge, enum_m_op, AST_OP_GE, false)
HOST_CFUNC_CALLING(enum_m_add, enum_m_op, AST_OP_ADD, false)
HOST_CFUNC_CALLING(enum_m_radd, enum_m_op, AST_OP_ADD, true)
HOST_CFUNC_CALLING(enum_m_sub, enum_m_op, AST_OP_SUB, false)
HOST_CFUNC_CALLING(enum_m_rsub, enum_m_op, AST_OP_SUB, true)
HOST_CFUNC_CALLING(enum_m_mul, enum_m_op, AST_OP_MUL, false)
HOST_CFUNC_CALLING(enum_m_rmul, enum_m_op, AST_OP_MUL, true)
HOST_CFUNC_CALLING(enum_m_floordiv, enum_m_op, AST_OP_FLOORDIV, false)
HOST_CFUNC_CALLING(enum_m_truediv, enum_m_op, AST_OP_DIV, false)
HOST_CFUNC_CALLING(enum_m_mod, enum_m_op, AST_OP_MOD, false)
HOST_CFUNC_CALLING(enum_m_and, enum_m_op, AST_OP_BITAND, false)
HOST_CFUNC_CALLING(enum_m_or, enum_m_op, AST_OP_BITOR, false)
HOST_CFUNC_CALLING(enum_m_lshift, enum_m_op, AST_OP_LSHIFT, false)
HOST_CFUNC_CALLING(enum_m_rshift, enum_m_op, AST_OP_RSHIFT, false)

/* int(m), float(m), m.__index__() of the enums with a value type. */
static val enum_m_conv(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                       src_span at, const char *type)
{
    (void)kw;
    if (!enum_self(h, &self, &argc, &argv, at))
        return val_err();
    val t = val_dict_get_str(h->builtins, type);
    val v = enum_value(self);
    return host_call(h, t, 1, &v, NULL, at);
}

HOST_CFUNC_CALLING(enum_m_int, enum_m_conv, "int")
HOST_CFUNC_CALLING(enum_m_float, enum_m_conv, "float")

/* ---- the module ---------------------------------------------------------------------------- */

BUILTIN_FN(enum_unique)
{
    (void)self;
    if (!builtin_nargs(h, "unique", argc, kw, 1, 1, at))
        return val_err();
    val cls = argv[0];
    if (cls.kind != VAL_CLASS || class_meta_of(cls) != &enum_meta)
        return host_raise(h, HOST_EXC_TYPE, at, "@unique applies to enum classes");
    val map = enum_lookup(cls, "_member_map_");
    strbuf b = {0};
    size_t pos = 0;
    val k, m;
    while (map.kind == VAL_DICT && val_dict_next(map, &pos, &k, &m)) {
        val canon = val_object_get(m, "_name_");
        if (!val_equal(canon, k))
            strbuf_printf(&b, "%s%s -> %s", b.len ? ", " : "", val_as_str(k)->s,
                          val_as_str(canon)->s);
    }
    if (b.len) {
        val r = host_raise(h, HOST_EXC_VALUE, at, "ValueError: duplicate values found in <enum "
                           "'%s'>: %s", ((val_class *)cls.u.o)->name, strbuf_cstr(&b));
        strbuf_free(&b);
        return r;
    }
    strbuf_free(&b);
    return val_ref(cls);
}

static void enum_method(val cls, const char *name, val_cfunc fn)
{
    val_object_set(cls, name, val_builtin_new(name, fn, val_none()));
}

void builtin_enum_init(host *h)
{
    val m = val_module_new("enum");
    val e = class_new("Enum", val_none(), true);
    ((val_class *)e.u.o)->meta = &enum_meta;
    val_object_set(e, "__module__", val_str_cstr("enum"));
    val_object_set(e, "_member_names_", val_list_new(0));
    enum_method(e, "__repr__", enum_m_repr);
    enum_method(e, "__str__", enum_m_str);
    enum_method(e, "__eq__", enum_m_eq);
    static const struct { const char *name; val_cfunc fn; } ops[] = {
        {"__lt__", enum_m_lt}, {"__le__", enum_m_le}, {"__gt__", enum_m_gt},
        {"__ge__", enum_m_ge}, {"__add__", enum_m_add}, {"__radd__", enum_m_radd},
        {"__sub__", enum_m_sub}, {"__rsub__", enum_m_rsub}, {"__mul__", enum_m_mul},
        {"__rmul__", enum_m_rmul}, {"__floordiv__", enum_m_floordiv},
        {"__truediv__", enum_m_truediv}, {"__mod__", enum_m_mod}, {"__and__", enum_m_and},
        {"__or__", enum_m_or}, {"__lshift__", enum_m_lshift}, {"__rshift__", enum_m_rshift},
        {"__int__", enum_m_int}, {"__index__", enum_m_int}, {"__float__", enum_m_float},
    };
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        enum_method(e, ops[i].name, ops[i].fn);
    val ie = class_new("IntEnum", e, true);
    val_object_set(ie, "__module__", val_str_cstr("enum"));
    val_object_set(ie, "_member_type_", val_ref(val_dict_get_str(h->builtins, "int")));
    val_object_set(ie, "_str_is_value_", val_bool(true));
    val se = class_new("StrEnum", e, true);
    val_object_set(se, "__module__", val_str_cstr("enum"));
    val_object_set(se, "_member_type_", val_ref(val_dict_get_str(h->builtins, "str")));
    val_object_set(se, "_str_is_value_", val_bool(true));
    val_object_set(m, "Enum", e);
    val_object_set(m, "IntEnum", ie);
    val_object_set(m, "StrEnum", se);
    host_def(m, "enum.auto", enum_auto_new);
    host_def(m, "enum.unique", enum_unique);
    host_register_module(h, "enum", m);
}
