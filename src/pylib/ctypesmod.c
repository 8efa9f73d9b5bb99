/* ctypesmod.c - ctypes, as far as a program can use it without native
 * code: the simple C types (c_int, c_int32, c_void_p, c_float, ...) as
 * value boxes with .value, wrapping as C does, and sizeof.  Loading a
 * library (CDLL, cdll.LoadLibrary) is refused with OSError: tritsim runs
 * no native code, so a program's `try: ... except OSError:` takes its
 * fallback.  Kernel libraries bind ctypes handles of vendor libraries at
 * import and wrap stream pointers in c_void_p; those lines run here. */
#include "builtins_impl.h"

#include <math.h>
#include <string.h>

typedef enum ctypes_kind { CT_SIGNED, CT_UNSIGNED, CT_FLOAT, CT_BOOL, CT_POINTER } ctypes_kind;

typedef struct ctypes_info {
    const char *name;           /* the class's own name: c_int32 is c_int */
    ctypes_kind kind;
    int size;                   /* bytes */
} ctypes_info;

/* One class per C type, as on x86-64 Linux: the fixed-width names are
 * aliases of these (ctypes_aliases). */
static const ctypes_info ctypes_infos[] = {
    {"c_byte", CT_SIGNED, 1}, {"c_ubyte", CT_UNSIGNED, 1},
    {"c_short", CT_SIGNED, 2}, {"c_ushort", CT_UNSIGNED, 2},
    {"c_int", CT_SIGNED, 4}, {"c_uint", CT_UNSIGNED, 4},
    {"c_long", CT_SIGNED, 8}, {"c_ulong", CT_UNSIGNED, 8},
    {"c_longlong", CT_SIGNED, 8}, {"c_ulonglong", CT_UNSIGNED, 8},
    {"c_float", CT_FLOAT, 4}, {"c_double", CT_FLOAT, 8},
    {"c_bool", CT_BOOL, 1}, {"c_void_p", CT_POINTER, 8},
};

static const char *const ctypes_aliases[][2] = {
    {"c_int8", "c_byte"}, {"c_uint8", "c_ubyte"}, {"c_int16", "c_short"},
    {"c_uint16", "c_ushort"}, {"c_int32", "c_int"}, {"c_uint32", "c_uint"},
    {"c_int64", "c_long"}, {"c_uint64", "c_ulong"}, {"c_size_t", "c_ulong"},
    {"c_ssize_t", "c_long"},
};

/* ---- instances ------------------------------------------------------------ */

typedef struct ctypes_obj {
    val_object o;
    const ctypes_info *info;
    val value;                  /* int, float, bool, or None (a null c_void_p) */
} ctypes_obj;

static const val_type ctypes_obj_type;
static const val_type ctypes_class_type;

static void ctypes_obj_free(val_obj *o)
{
    val_unref(((ctypes_obj *)o)->value);
}

/* v as this C type holds it: ints wrap to the width (and sign), floats
 * round to float for c_float; false after raising a TypeError. */
static bool ctypes_convert(host *h, const ctypes_info *t, val v, src_span at, val *out)
{
    if (t->kind == CT_BOOL) {
        int b = host_truth(h, v, at);
        if (b < 0)
            return false;
        *out = val_bool(b);
        return true;
    }
    if (t->kind == CT_FLOAT) {
        double d;
        if (v.kind == VAL_FLOAT)
            d = v.u.f;
        else if (builtin_is_int(v))
            d = (double)builtin_int_of(v);
        else {
            host_raise(h, HOST_EXC_TYPE, at, "must be real number, not %s", val_type_name(v));
            return false;
        }
        *out = val_float(t->size == 4 ? (double)(float)d : d);
        return true;
    }
    if (t->kind == CT_POINTER && v.kind == VAL_NONE) {
        *out = val_none();
        return true;
    }
    if (!builtin_is_int(v)) {
        if (t->kind == CT_POINTER)
            host_raise(h, HOST_EXC_TYPE, at, "cannot be converted to pointer");
        else
            host_raise(h, HOST_EXC_TYPE, at, "'%s' object cannot be interpreted as an integer",
                       val_type_name(v));
        return false;
    }
    uint64_t u = (uint64_t)builtin_int_of(v);
    int bits = 8 * t->size;
    if (bits < 64)
        u &= ((uint64_t)1 << bits) - 1;
    if (t->kind == CT_POINTER) {
        *out = u ? val_int((int64_t)u) : val_none();    /* c_void_p(0).value is None */
        return true;
    }
    if (t->kind == CT_SIGNED && bits < 64 && (u >> (bits - 1)) & 1)
        u |= ~(((uint64_t)1 << bits) - 1);
    if (t->kind == CT_UNSIGNED && bits == 64 && (int64_t)u < 0) {
        host_raise(h, HOST_EXC_OVERFLOW, at, "integer overflow: tritsim's ints are 64-bit "
                   "(%s of a negative number)", t->name);
        return false;
    }
    *out = val_int((int64_t)u);
    return true;
}

static val ctypes_obj_getattr(host *h, val self, const char *name, src_span at)
{
    (void)h, (void)at;
    if (!strcmp(name, "value"))
        return val_ref(((ctypes_obj *)self.u.o)->value);
    return val_missing();
}

static bool ctypes_obj_setattr(host *h, val self, const char *name, val v, src_span at)
{
    ctypes_obj *c = (ctypes_obj *)self.u.o;
    if (strcmp(name, "value")) {
        host_raise(h, HOST_EXC_ATTRIBUTE, at, "'%s' object has no attribute '%s'",
                   c->info->name, name);
        return false;
    }
    val nv;
    if (!ctypes_convert(h, c->info, v, at, &nv))
        return false;
    val_unref(c->value);
    c->value = nv;
    return true;
}

static void ctypes_obj_repr(host *h, val self, strbuf *out)
{
    const ctypes_obj *c = (const ctypes_obj *)self.u.o;
    strbuf_printf(out, "%s(", c->info->name);
    val_print_repr(h, c->value, out);
    strbuf_puts(out, ")");
}

static const char *const ctypes_obj_attrs[] = {"value", NULL};

static const val_type ctypes_obj_type = {
    .name = "ctypes",
    .getattr = ctypes_obj_getattr,
    .setattr = ctypes_obj_setattr,
    .repr = ctypes_obj_repr,
    .free = ctypes_obj_free,
    .attr_names = ctypes_obj_attrs,
};

/* ---- the classes --------------------------------------------------------- */

typedef struct ctypes_class {
    val_object o;
    const ctypes_info *info;
} ctypes_class;

static val ctypes_class_call(host *h, val self, int argc, const val *argv,
                             const val_kwargs *kw, src_span at)
{
    const ctypes_info *t = ((const ctypes_class *)self.u.o)->info;
    val a[1];
    if (!host_args(h, at, t->name, "value=", argc, argv, kw, a))
        return val_err();
    val v = a[0].kind == VAL_MISSING
                ? (t->kind == CT_FLOAT ? val_float(0) : t->kind == CT_BOOL ? val_bool(false)
                   : t->kind == CT_POINTER ? val_none() : val_int(0))
                : a[0];
    val nv;
    if (!ctypes_convert(h, t, v, at, &nv))
        return val_err();
    ctypes_obj *c = val_obj_new(sizeof *c, VAL_OBJECT, &ctypes_obj_type);
    c->o.attrs = val_dict_new();
    c->info = t;
    c->value = nv;
    return val_of(c);
}

static void ctypes_class_repr(host *h, val self, strbuf *out)
{
    (void)h;
    strbuf_printf(out, "<class 'ctypes.%s'>", ((const ctypes_class *)self.u.o)->info->name);
}

static val ctypes_class_getattr(host *h, val self, const char *name, src_span at)
{
    (void)h, (void)at;
    if (!strcmp(name, "__name__"))
        return val_str_cstr(((const ctypes_class *)self.u.o)->info->name);
    return val_missing();
}

static bool ctypes_class_instancecheck(val self, val v)
{
    return v.kind == VAL_OBJECT && val_type_of(v) == &ctypes_obj_type &&
           ((const ctypes_obj *)v.u.o)->info == ((const ctypes_class *)self.u.o)->info;
}

static const val_type ctypes_class_type = {
    .name = "PyCSimpleType",
    .getattr = ctypes_class_getattr,
    .call = ctypes_class_call,
    .repr = ctypes_class_repr,
    .instancecheck = ctypes_class_instancecheck,
};

/* ---- functions ----------------------------------------------------------- */

BUILTIN_FN(ctypes_sizeof)
{
    (void)self;
    if (!builtin_nargs(h, "sizeof", argc, kw, 1, 1, at))
        return val_err();
    val v = argv[0];
    if (v.kind == VAL_OBJECT && val_type_of(v) == &ctypes_class_type)
        return val_int(((const ctypes_class *)v.u.o)->info->size);
    if (v.kind == VAL_OBJECT && val_type_of(v) == &ctypes_obj_type)
        return val_int(((const ctypes_obj *)v.u.o)->info->size);
    return host_raise(h, HOST_EXC_TYPE, at, "this type has no size");
}

/* CDLL(name), cdll.LoadLibrary(name), ...: no native code runs here. */
BUILTIN_FN(ctypes_no_library)
{
    (void)self, (void)kw;
    const char *name = argc > 0 && argv[0].kind == VAL_STR ? val_as_str(argv[0])->s
                                                           : "a shared library";
    return host_raise(h, HOST_EXC_OS, at, "%s: cannot open shared object file: tritsim runs "
                      "no native code (ctypes can make values, not load libraries)", name);
}

void builtin_ctypes_init(host *h)
{
    val m = val_module_new("ctypes");
    size_t n = sizeof ctypes_infos / sizeof *ctypes_infos;
    for (size_t i = 0; i < n; i++) {
        ctypes_class *c = val_obj_new(sizeof *c, VAL_OBJECT, &ctypes_class_type);
        c->o.attrs = val_dict_new();
        c->info = &ctypes_infos[i];
        val_object_set(m, ctypes_infos[i].name, val_of(c));
    }
    for (size_t i = 0; i < sizeof ctypes_aliases / sizeof *ctypes_aliases; i++)
        val_object_set(m, ctypes_aliases[i][0], val_ref(val_object_get(m, ctypes_aliases[i][1])));
    host_def(m, "ctypes.sizeof", ctypes_sizeof);
    host_def(m, "ctypes.CDLL", ctypes_no_library);
    host_def(m, "ctypes.PyDLL", ctypes_no_library);
    val cdll = val_module_new("ctypes.cdll");
    host_def(cdll, "ctypes.cdll.LoadLibrary", ctypes_no_library);
    val_object_set(m, "cdll", cdll);
    host_register_module(h, "ctypes", m);
}
