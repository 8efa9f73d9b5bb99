/* builtins.c - Python's built-in functions and types (print, len, range,
 * int, str, sorted, ...), the methods of str, list, dict, tuple, int and
 * float, exceptions, str.format and %-formatting, and the standard modules
 * tritsim provides: math, functools, itertools, os, os.path, sys, typing,
 * time and random (a bit-exact copy of CPython's Mersenne Twister); it
 * registers pathlib (pathlibmod.c) and inspect (inspectmod.c) too.
 *
 * Where Python is lazy (map, filter, zip, generator expressions) these
 * compute their items up front and hand out an iterator over them; the
 * results are the same unless the functions involved print. */
#define _DEFAULT_SOURCE   /* M_PI, strncasecmp, with POSIX 2008 */
#include "host.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "inspectmod.h"
#include "pathlibmod.h"
#include "host_impl.h"
#include "pyformat.h"

#define BUILTIN_FN(name) \
    static val name(host *h, val self, int argc, const val *argv, const val_kwargs *kw, \
                    src_span at)
#define UNUSED_ARGS (void)h; (void)self; (void)argc; (void)argv; (void)kw; (void)at

static bool builtin_is_int(val v)
{
    return v.kind == VAL_INT || v.kind == VAL_BOOL;
}

static int64_t builtin_int_of(val v)
{
    return v.kind == VAL_BOOL ? (int64_t)v.u.b : v.u.i;
}

static bool builtin_is_num(val v)
{
    return builtin_is_int(v) || v.kind == VAL_FLOAT;
}

static double builtin_float_of(val v)
{
    return v.kind == VAL_FLOAT ? v.u.f : (double)builtin_int_of(v);
}

static bool builtin_no_kwargs(host *h, const char *fname, const val_kwargs *kw, src_span at)
{
    if (!kw || kw->n == 0)
        return true;
    host_raise(h, HOST_EXC_TYPE, at,
               "%s() takes no keyword arguments (got '%s')", fname, kw->names[0]);
    return false;
}

/* Check the number of positional arguments of fname (no keywords). */
static bool builtin_nargs(host *h, const char *fname, int argc, const val_kwargs *kw,
                          int min, int max, src_span at)
{
    if (!builtin_no_kwargs(h, fname, kw, at))
        return false;
    if (argc >= min && argc <= max)
        return true;
    if (min == max)
        host_raise(h, HOST_EXC_TYPE, at, "%s() takes exactly %d argument%s (%d given)", fname, min,
                   min == 1 ? "" : "s", argc);
    else if (argc < min)
        host_raise(h, HOST_EXC_TYPE, at, "%s() takes at least %d argument%s (%d given)", fname, min,
                   min == 1 ? "" : "s", argc);
    else
        host_raise(h, HOST_EXC_TYPE, at, "%s() takes at most %d argument%s (%d given)", fname, max,
                   max == 1 ? "" : "s", argc);
    return false;
}

/* Call obj.__name__() if obj's type provides it: how abs(), int(),
 * float() and round() reach objects such as tensors. */
static val builtin_dunder(host *h, val obj, const char *name, int argc, const val *argv,
                          src_span at)
{
    if (!val_type_of(obj))
        return val_missing();
    val m = host_getattr_opt(h, obj, name, at);
    if (m.kind == VAL_MISSING || m.kind == VAL_ERR)
        return m;
    val r = host_call(h, m, argc, argv, NULL, at);
    val_unref(m);
    return r;
}

/* ---- type objects ---------------------------------------------------------------- */

static val builtin_type_new(host *h, const char *name, val_cfunc fn, val_kind kind,
                            const val_type *type)
{
    val t = val_builtin_new(name, fn, val_none());
    ((val_builtin *)t.u.o)->inst_kind = kind;
    ((val_builtin *)t.u.o)->inst_type = type;
    val_dict_set_str(h->builtins, name, t);
    return t;
}

BUILTIN_FN(builtin_no_ctor)
{
    UNUSED_ARGS;
    return host_raise(h, HOST_EXC_TYPE, at, "cannot create objects of this type directly");
}

val builtin_type_of(host *h, val v)
{
    const char *name = NULL;
    switch (v.kind) {
    case VAL_NONE: {
        val t = val_builtin_new("NoneType", builtin_no_ctor, val_none());
        ((val_builtin *)t.u.o)->inst_kind = VAL_NONE;
        return t;
    }
    case VAL_BOOL: name = "bool"; break;
    case VAL_INT: name = "int"; break;
    case VAL_FLOAT: name = "float"; break;
    case VAL_STR: name = "str"; break;
    case VAL_TUPLE: name = "tuple"; break;
    case VAL_LIST: name = "list"; break;
    case VAL_DICT: name = "dict"; break;
    case VAL_RANGE: name = "range"; break;
    case VAL_SLICE: name = "slice"; break;
    default: break;
    }
    if (name)
        return val_ref(val_dict_get_str(h->builtins, name));
    if (v.kind == VAL_INSTANCE)
        return val_ref(((const val_instance *)v.u.o)->cls);
    if (v.kind == VAL_CLASS)
        return val_ref(val_dict_get_str(h->builtins, "type"));
    /* A type object made on the fly (compared by what it describes). */
    const val_type *t = val_type_of(v);
    val r = val_builtin_new(val_type_name(v), builtin_no_ctor, val_none());
    ((val_builtin *)r.u.o)->inst_kind = v.kind;
    ((val_builtin *)r.u.o)->inst_type = t;
    return r;
}

/* Does v belong to type object t? */
static bool builtin_isinstance1(val v, const val_builtin *t)
{
    if (t->inst_kind == VAL_BUILTIN && v.kind == VAL_CLASS)
        return true;   /* a class is a type */
    if (t->inst_kind == VAL_INT && v.kind == VAL_BOOL)
        return true;   /* bool is a subclass of int */
    if (t->inst_kind != v.kind)
        return false;
    return !t->inst_type || t->inst_type == val_type_of(v);
}

/* Is v an instance of class cls (every value is an object)? */
static bool builtin_isinstance_class(host *h, val v, val cls)
{
    if (val_is_heap(cls) && cls.u.o == val_dict_get_str(h->builtins, "object").u.o)
        return true;
    return v.kind == VAL_INSTANCE && class_is_subclass(((const val_instance *)v.u.o)->cls, cls);
}

BUILTIN_FN(builtin_isinstance)
{
    (void)self;
    if (!builtin_nargs(h, "isinstance", argc, kw, 2, 2, at))
        return val_err();
    val t = argv[1];
    if (t.kind == VAL_TUPLE) {
        const val_seq *s = val_as_seq(t);
        for (size_t i = 0; i < s->len; i++) {
            val x = s->items[i];
            if (x.kind == VAL_CLASS) {
                if (builtin_isinstance_class(h, argv[0], x))
                    return val_bool(true);
                continue;
            }
            if (x.kind != VAL_BUILTIN || ((const val_builtin *)x.u.o)->inst_kind == VAL_ERR)
                return host_raise(h, HOST_EXC_TYPE, at, "isinstance() arg 2 must be a type or "
                                  "a tuple of types, not a tuple holding a '%s'",
                                  val_type_name(x));
            if (builtin_isinstance1(argv[0], (const val_builtin *)x.u.o))
                return val_bool(true);
        }
        return val_bool(false);
    }
    if (t.kind == VAL_CLASS)
        return val_bool(builtin_isinstance_class(h, argv[0], t));
    if (t.kind != VAL_BUILTIN || ((const val_builtin *)t.u.o)->inst_kind == VAL_ERR)
        return host_raise(h, HOST_EXC_TYPE, at, "isinstance() arg 2 must be a type or a tuple "
                          "of types, not '%s'", val_type_name(t));
    return val_bool(builtin_isinstance1(argv[0], (const val_builtin *)t.u.o));
}

BUILTIN_FN(builtin_type)
{
    (void)self;
    if (!builtin_nargs(h, "type", argc, kw, 1, 1, at))
        return val_err();
    return builtin_type_of(h, argv[0]);
}

/* ---- conversions: int, float, str, bool ----------------------------------------- */

/* Python's int(text, base): optional sign, base prefix, underscores
 * between digits, surrounding whitespace. */
static bool builtin_parse_int(const char *s, size_t len, int base, int64_t *out, bool *overflow)
{
    *overflow = false;
    size_t i = 0;
    while (i < len && isspace((unsigned char)s[i]))
        i++;
    while (len > i && isspace((unsigned char)s[len - 1]))
        len--;
    bool neg = false;
    if (i < len && (s[i] == '+' || s[i] == '-'))
        neg = s[i++] == '-';
    if (i + 1 < len && s[i] == '0') {
        char p = (char)tolower((unsigned char)s[i + 1]);
        int pb = p == 'x' ? 16 : p == 'o' ? 8 : p == 'b' ? 2 : 0;
        if (pb && (base == 0 || base == pb)) {
            base = pb;
            i += 2;
            if (i < len && s[i] == '_')
                i++;
        }
    }
    if (base == 0) {
        base = 10;
        /* "010" is not a valid base-0 literal, but "0" and "00" are. */
        if (i < len && s[i] == '0')
            for (size_t k = i; k < len; k++)
                if (s[k] != '0' && s[k] != '_')
                    return false;
    }
    if (i >= len)
        return false;
    uint64_t v = 0;
    bool last_digit = false;
    for (; i < len; i++) {
        char c = s[i];
        if (c == '_') {
            if (!last_digit)
                return false;
            last_digit = false;
            continue;
        }
        int d = isdigit((unsigned char)c) ? c - '0'
                : isalpha((unsigned char)c) ? tolower((unsigned char)c) - 'a' + 10 : 99;
        if (d >= base)
            return false;
        if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
            *overflow = true;
        else
            v = v * (uint64_t)base + (uint64_t)d;
        last_digit = true;
    }
    if (!last_digit)
        return false;
    if (*overflow || v > (uint64_t)INT64_MAX + (neg ? 1 : 0)) {
        *overflow = true;
        return true;
    }
    *out = neg ? (int64_t)(0 - v) : (int64_t)v;
    return true;
}

static val builtin_float_to_int(host *h, double f, src_span at)
{
    if (isnan(f))
        return host_raise(h, HOST_EXC_VALUE, at, "cannot convert float NaN to integer");
    if (isinf(f))
        return host_raise(h, HOST_EXC_OVERFLOW, at, "cannot convert float infinity to integer");
    double t = trunc(f);
    if (!(t >= -9223372036854775808.0 && t < 9223372036854775808.0))
        return host_raise(h, HOST_EXC_OVERFLOW, at,
                          "integer overflow: %g does not fit in tritsim's 64-bit ints",
                          f);
    return val_int((int64_t)t);
}

BUILTIN_FN(builtin_int)
{
    (void)self;
    val a[2];
    if (!host_args(h, at, "int", "x=, base=", argc, argv, kw, a))
        return val_err();
    if (a[0].kind == VAL_MISSING)
        return val_int(0);
    val x = a[0];
    if (a[1].kind != VAL_MISSING) {
        int64_t base;
        if (!host_to_int(h, a[1], at, "int() base", &base))
            return val_err();
        if (x.kind != VAL_STR)
            return host_raise(h, HOST_EXC_TYPE, at,
                              "int() can't convert non-string with explicit base");
        if (base != 0 && (base < 2 || base > 36))
            return host_raise(h, HOST_EXC_VALUE, at, "int() base must be >= 2 and <= 36, or 0");
        int64_t v;
        bool ovf;
        if (!builtin_parse_int(val_as_str(x)->s, val_as_str(x)->len, (int)base, &v, &ovf)) {
            val r = host_repr(h, x);
            host_raise(h, HOST_EXC_VALUE, at,
                       "invalid literal for int() with base %lld: %s", (long long)base,
                       val_as_str(r)->s);
            val_unref(r);
            return val_err();
        }
        if (ovf)
            return host_raise(h, HOST_EXC_OVERFLOW, at,
                              "integer overflow: tritsim's ints are 64-bit");
        return val_int(v);
    }
    if (builtin_is_int(x))
        return val_int(builtin_int_of(x));
    if (x.kind == VAL_FLOAT)
        return builtin_float_to_int(h, x.u.f, at);
    if (x.kind == VAL_STR) {
        int64_t v;
        bool ovf;
        if (!builtin_parse_int(val_as_str(x)->s, val_as_str(x)->len, 10, &v, &ovf)) {
            val r = host_repr(h, x);
            host_raise(h, HOST_EXC_VALUE, at,
                       "invalid literal for int() with base 10: %s", val_as_str(r)->s);
            val_unref(r);
            return val_err();
        }
        if (ovf)
            return host_raise(h, HOST_EXC_OVERFLOW, at,
                              "integer overflow: tritsim's ints are 64-bit");
        return val_int(v);
    }
    val r = builtin_dunder(h, x, "__int__", 0, NULL, at);
    if (r.kind != VAL_MISSING)
        return r;
    return host_raise(h, HOST_EXC_TYPE, at, "int() argument must be a string or a number, not '%s'",
                      val_type_name(x));
}

/* Python's float(text): a decimal number, inf, infinity or nan, with
 * optional sign, underscores between digits and surrounding whitespace. */
static bool builtin_parse_float(const char *s, size_t len, double *out)
{
    size_t i = 0;
    while (i < len && isspace((unsigned char)s[i]))
        i++;
    while (len > i && isspace((unsigned char)s[len - 1]))
        len--;
    char buf[128];
    size_t n = 0;
    size_t start = i;
    if (i < len && (s[i] == '+' || s[i] == '-'))
        buf[n++] = s[i++];
    size_t rest = len - i;
    if ((rest == 3 && !strncasecmp(s + i, "inf", 3)) ||
        (rest == 8 && !strncasecmp(s + i, "infinity", 8))) {
        *out = n && buf[0] == '-' ? -INFINITY : INFINITY;
        return true;
    }
    if (rest == 3 && !strncasecmp(s + i, "nan", 3)) {
        *out = n && buf[0] == '-' ? -NAN : NAN;
        return true;
    }
    (void)start;
    /* digits [. digits] [e [sign] digits], underscores only between digits */
    int digits = 0, state = 0;   /* 0 int part, 1 fraction, 2 exponent */
    bool prev_digit = false, exp_digits = false;
    for (; i < len; i++) {
        char c = s[i];
        if (n >= sizeof buf - 1)
            return false;
        if (isdigit((unsigned char)c)) {
            buf[n++] = c;
            prev_digit = true;
            if (state == 2)
                exp_digits = true;
            else
                digits++;
        } else if (c == '_') {
            if (!prev_digit || i + 1 >= len || !isdigit((unsigned char)s[i + 1]))
                return false;
            prev_digit = false;
        } else if (c == '.' && state == 0) {
            buf[n++] = c;
            state = 1;
            prev_digit = false;
        } else if ((c == 'e' || c == 'E') && state < 2 && digits > 0) {
            buf[n++] = c;
            state = 2;
            prev_digit = false;
            if (i + 1 < len && (s[i + 1] == '+' || s[i + 1] == '-'))
                buf[n++] = s[++i];
        } else {
            return false;
        }
    }
    if (digits == 0 || (state == 2 && !exp_digits))
        return false;
    buf[n] = '\0';
    *out = strtod(buf, NULL);
    return true;
}

BUILTIN_FN(builtin_float)
{
    (void)self;
    if (!builtin_nargs(h, "float", argc, kw, 0, 1, at))
        return val_err();
    if (argc == 0)
        return val_float(0.0);
    val x = argv[0];
    if (builtin_is_num(x))
        return val_float(builtin_float_of(x));
    if (x.kind == VAL_STR) {
        double d;
        if (!builtin_parse_float(val_as_str(x)->s, val_as_str(x)->len, &d)) {
            val r = host_repr(h, x);
            host_raise(h, HOST_EXC_VALUE, at,
                       "could not convert string to float: %s", val_as_str(r)->s);
            val_unref(r);
            return val_err();
        }
        return val_float(d);
    }
    val r = builtin_dunder(h, x, "__float__", 0, NULL, at);
    if (r.kind != VAL_MISSING)
        return r;
    return host_raise(h, HOST_EXC_TYPE, at,
                      "float() argument must be a string or a number, not '%s'",
                      val_type_name(x));
}

BUILTIN_FN(builtin_str)
{
    (void)self;
    if (!builtin_nargs(h, "str", argc, kw, 0, 1, at))
        return val_err();
    return argc ? host_str(h, argv[0]) : val_str_cstr("");
}

BUILTIN_FN(builtin_repr)
{
    (void)self;
    if (!builtin_nargs(h, "repr", argc, kw, 1, 1, at))
        return val_err();
    return host_repr(h, argv[0]);
}

BUILTIN_FN(builtin_bool)
{
    (void)self;
    if (!builtin_nargs(h, "bool", argc, kw, 0, 1, at))
        return val_err();
    if (argc == 0)
        return val_bool(false);
    int t = host_truth(h, argv[0], at);
    return t < 0 ? val_err() : val_bool(t);
}

BUILTIN_FN(builtin_format)
{
    (void)self;
    if (!builtin_nargs(h, "format", argc, kw, 1, 2, at))
        return val_err();
    const char *spec = "";
    size_t len = 0;
    if (argc == 2) {
        if (!host_to_str(h, argv[1], at, "format() argument 2", &spec))
            return val_err();
        len = val_as_str(argv[1])->len;
    }
    return host_format(h, argv[0], spec, len, at);
}

/* ---- containers: list, tuple, dict, range, slice -------------------------------- */

BUILTIN_FN(builtin_list)
{
    (void)self;
    if (!builtin_nargs(h, "list", argc, kw, 0, 1, at))
        return val_err();
    return argc ? host_to_list(h, argv[0], at) : val_list_new(0);
}

BUILTIN_FN(builtin_tuple)
{
    (void)self;
    if (!builtin_nargs(h, "tuple", argc, kw, 0, 1, at))
        return val_err();
    if (argc == 0)
        return val_tuple_new(0);
    if (argv[0].kind == VAL_TUPLE)
        return val_ref(argv[0]);
    val l = host_to_list(h, argv[0], at);
    if (l.kind == VAL_ERR)
        return l;
    val_seq *s = val_as_seq(l);
    val t = val_tuple_of(s->len, s->items);
    s->len = 0;
    val_unref(l);
    return t;
}

/* Add the pairs of an iterable (or the entries of a dict) to d. */
static bool builtin_dict_merge(host *h, val d, val src, src_span at)
{
    if (src.kind == VAL_DICT) {
        size_t pos = 0;
        val k, v;
        while (val_dict_next(src, &pos, &k, &v))
            val_dict_set(d, val_ref(k), val_ref(v));
        return true;
    }
    val items = host_to_list(h, src, at);
    if (items.kind == VAL_ERR)
        return false;
    const val_seq *s = val_as_seq(items);
    for (size_t i = 0; i < s->len; i++) {
        val p = s->items[i];
        val pl = host_to_list(h, p, at);
        if (pl.kind == VAL_ERR) {
            val_unref(items);
            return false;
        }
        if (val_as_seq(pl)->len != 2) {
            host_raise(h, HOST_EXC_VALUE, at,
                       "dictionary update sequence element #%zu has length %zu; 2 is "
                       "required", i, val_as_seq(pl)->len);
            val_unref(pl);
            val_unref(items);
            return false;
        }
        val k = val_as_seq(pl)->items[0];
        if (!val_hashable(k)) {
            host_raise(h, HOST_EXC_TYPE, at, "unhashable type: '%s'", val_type_name(k));
            val_unref(pl);
            val_unref(items);
            return false;
        }
        val_dict_set(d, val_ref(k), val_ref(val_as_seq(pl)->items[1]));
        val_unref(pl);
    }
    val_unref(items);
    return true;
}

BUILTIN_FN(builtin_dict)
{
    (void)self;
    if (argc > 1)
        return host_raise(h, HOST_EXC_TYPE, at, "dict expected at most 1 argument, got %d", argc);
    val d = val_dict_new();
    if (argc == 1 && !builtin_dict_merge(h, d, argv[0], at)) {
        val_unref(d);
        return val_err();
    }
    for (int i = 0; kw && i < kw->n; i++)
        val_dict_set_str(d, kw->names[i], val_ref(kw->values[i]));
    return d;
}

BUILTIN_FN(builtin_range)
{
    (void)self;
    if (!builtin_nargs(h, "range", argc, kw, 1, 3, at))
        return val_err();
    int64_t v[3] = {0, 0, 1};
    for (int i = 0; i < argc; i++) {
        if (!builtin_is_int(argv[i]) && val_type_of(argv[i]) && argv[i].kind != VAL_DTYPE) {
            /* an object with __index__ (a 0-d integer tensor) */
            if (!host_to_int(h, argv[i], at, "range() argument", &v[i]))
                return val_err();
            continue;
        }
        if (!builtin_is_int(argv[i]))
            return host_raise(h, HOST_EXC_TYPE, at,
                              "'%s' object cannot be interpreted as an integer (range "
                              "needs ints%s)", val_type_name(argv[i]),
                              argv[i].kind == VAL_FLOAT ? ": convert with int(x) or use //"
                                                        : "");
        v[i] = builtin_int_of(argv[i]);
    }
    if (argc == 1) {
        v[1] = v[0];
        v[0] = 0;
    }
    if (v[2] == 0)
        return host_raise(h, HOST_EXC_VALUE, at, "range() arg 3 must not be zero");
    return val_range_new(v[0], v[1], v[2]);
}

BUILTIN_FN(builtin_slice)
{
    (void)self;
    if (!builtin_nargs(h, "slice", argc, kw, 1, 3, at))
        return val_err();
    if (argc == 1)
        return val_slice_new(val_none(), val_ref(argv[0]), val_none());
    return val_slice_new(val_ref(argv[0]), val_ref(argv[1]),
                         argc == 3 ? val_ref(argv[2]) : val_none());
}

/* ---- print and friends ------------------------------------------------------------ */

/* sys.stdout and sys.stderr. */
typedef struct builtin_file {
    val_object o;
    FILE *fp;
    const char *name;
} builtin_file;

static void builtin_file_repr(host *h, val self, strbuf *out)
{
    (void)h;
    strbuf_printf(out, "<_io.TextIOWrapper name='<%s>' mode='w' encoding='utf-8'>",
                  ((const builtin_file *)self.u.o)->name);
}

static val builtin_file_getattr(host *h, val self, const char *name, src_span at);

static const val_type builtin_file_type = {
    .name = "TextIOWrapper",
    .getattr = builtin_file_getattr,
    .repr = builtin_file_repr,
};

static void builtin_write(FILE *fp, const char *s, size_t n)
{
    if (fp == stderr)
        fflush(stdout);   /* keep stdout and stderr in program order */
    fwrite(s, 1, n, fp);
}

BUILTIN_FN(builtin_file_write)
{
    const char *s;
    if (!builtin_nargs(h, "write", argc, kw, 1, 1, at) ||
        !host_to_str(h, argv[0], at, "write() argument", &s))
        return val_err();
    builtin_write(((builtin_file *)self.u.o)->fp, s, val_as_str(argv[0])->len);
    return val_int((int64_t)val_str_chars(val_as_str(argv[0])));
}

BUILTIN_FN(builtin_file_flush)
{
    (void)argc; (void)argv; (void)kw; (void)h; (void)at;
    fflush(((builtin_file *)self.u.o)->fp);
    return val_none();
}

static val builtin_file_getattr(host *h, val self, const char *name, src_span at)
{
    (void)h;
    (void)at;
    if (!strcmp(name, "write"))
        return val_builtin_new("TextIOWrapper.write", builtin_file_write, val_ref(self));
    if (!strcmp(name, "flush"))
        return val_builtin_new("TextIOWrapper.flush", builtin_file_flush, val_ref(self));
    return val_missing();
}

BUILTIN_FN(builtin_print)
{
    (void)self;
    val o[4];
    if (!host_args(h, at, "print", "*, sep=, end=, file=, flush=", 0, NULL, kw, o))
        return val_err();
    const char *sep = " ", *end = "\n";
    size_t seplen = 1, endlen = 1;
    if (o[0].kind != VAL_MISSING && o[0].kind != VAL_NONE) {
        if (!host_to_str(h, o[0], at, "print() sep", &sep))
            return val_err();
        seplen = val_as_str(o[0])->len;
    }
    if (o[1].kind != VAL_MISSING && o[1].kind != VAL_NONE) {
        if (!host_to_str(h, o[1], at, "print() end", &end))
            return val_err();
        endlen = val_as_str(o[1])->len;
    }
    FILE *fp = stdout;
    val file = o[2];
    if (file.kind != VAL_MISSING && file.kind != VAL_NONE) {
        if (file.kind != VAL_OBJECT || file.u.o->type != &builtin_file_type)
            return host_raise(h, HOST_EXC_TYPE, at,
                              "print() file= must be sys.stdout or sys.stderr in "
                              "tritsim, not a '%s'", val_type_name(file));
        fp = ((builtin_file *)file.u.o)->fp;
    }
    strbuf b = {0};
    for (int i = 0; i < argc; i++) {
        if (i)
            strbuf_putn(&b, sep, seplen);
        val_print_str(h, argv[i], &b);
    }
    if (host_exc_pending(h)) {   /* a __str__ or __repr__ raised */
        strbuf_free(&b);
        return val_err();
    }
    strbuf_putn(&b, end, endlen);
    builtin_write(fp, strbuf_cstr(&b), b.len);
    strbuf_free(&b);
    if (o[3].kind != VAL_MISSING) {
        int t = host_truth(h, o[3], at);
        if (t < 0)
            return val_err();
        if (t)
            fflush(fp);
    }
    return val_none();
}

BUILTIN_FN(builtin_len)
{
    (void)self;
    if (!builtin_nargs(h, "len", argc, kw, 1, 1, at))
        return val_err();
    int64_t n = host_len(h, argv[0], at);
    return n < 0 ? val_err() : val_int(n);
}

BUILTIN_FN(builtin_callable)
{
    (void)self;
    if (!builtin_nargs(h, "callable", argc, kw, 1, 1, at))
        return val_err();
    val v = argv[0];
    const val_type *t = val_type_of(v);
    return val_bool(v.kind == VAL_FUNC || v.kind == VAL_BUILTIN || (t && t->call));
}

BUILTIN_FN(builtin_hasattr)
{
    (void)self;
    const char *name;
    if (!builtin_nargs(h, "hasattr", argc, kw, 2, 2, at) ||
        !host_to_str(h, argv[1], at, "hasattr() attribute name", &name))
        return val_err();
    val v = host_getattr_opt(h, argv[0], name, at);
    if (v.kind == VAL_ERR && host_exc_is(h, h->exc, HOST_EXC_ATTRIBUTE)) {
        val_unref(host_exc_take(h));   /* as Python: an AttributeError means no */
        v = val_missing();
    }
    if (v.kind == VAL_ERR)
        return v;
    bool has = v.kind != VAL_MISSING;
    val_unref(v);
    return val_bool(has);
}

BUILTIN_FN(builtin_getattr)
{
    (void)self;
    const char *name;
    if (!builtin_nargs(h, "getattr", argc, kw, 2, 3, at) ||
        !host_to_str(h, argv[1], at, "getattr() attribute name", &name))
        return val_err();
    if (argc == 2)
        return host_getattr(h, argv[0], name, at);
    val v = host_getattr_opt(h, argv[0], name, at);
    if (v.kind == VAL_ERR && host_exc_is(h, h->exc, HOST_EXC_ATTRIBUTE)) {
        val_unref(host_exc_take(h));
        v = val_missing();
    }
    return v.kind == VAL_MISSING ? val_ref(argv[2]) : v;
}

BUILTIN_FN(builtin_setattr)
{
    (void)self;
    const char *name;
    if (!builtin_nargs(h, "setattr", argc, kw, 3, 3, at) ||
        !host_to_str(h, argv[1], at, "setattr() attribute name", &name))
        return val_err();
    return host_setattr(h, argv[0], name, argv[2], at) ? val_none() : val_err();
}

BUILTIN_FN(builtin_not_supported)
{
    UNUSED_ARGS;
    return host_raise(h, HOST_EXC_NOT_IMPLEMENTED, at,
                      "this built-in function is not supported by tritsim (see "
                      "doc/language.md)");
}

BUILTIN_FN(builtin_set)
{
    UNUSED_ARGS;
    return host_raise(h, HOST_EXC_NOT_IMPLEMENTED, at,
                      "sets are not supported by tritsim (use a dict or a list)");
}

/* ---- iteration ---------------------------------------------------------------------- */

/* list(v) for an argument of fname (the error names the function). */
static val builtin_items(host *h, val v, src_span at)
{
    return host_to_list(h, v, at);
}

BUILTIN_FN(builtin_enumerate)
{
    (void)self;
    val a[2];
    if (!host_args(h, at, "enumerate", "iterable, start=", argc, argv, kw, a))
        return val_err();
    int64_t start = 0;
    if (a[1].kind != VAL_MISSING && !host_to_int(h, a[1], at, "enumerate() start", &start))
        return val_err();
    val items = builtin_items(h, a[0], at);
    if (items.kind == VAL_ERR)
        return items;
    val_seq *s = val_as_seq(items);
    val out = val_list_new(s->len);
    for (size_t i = 0; i < s->len; i++) {
        val pair[2] = {val_int(start + (int64_t)i), val_ref(s->items[i])};
        val_list_push(out, val_tuple_of(2, pair));
    }
    val_unref(items);
    return host_iterator_new(out, "enumerate");
}

BUILTIN_FN(builtin_zip)
{
    (void)self;
    val o[1];
    if (!host_args(h, at, "zip", "*, strict=", 0, NULL, kw, o))
        return val_err();
    int strict = 0;
    if (o[0].kind != VAL_MISSING && (strict = host_truth(h, o[0], at)) < 0)
        return val_err();
    val *lists = xmalloc((size_t)(argc ? argc : 1) * sizeof *lists);
    size_t n = SIZE_MAX;
    int got = 0;
    val out = val_err();
    for (; got < argc; got++) {
        lists[got] = builtin_items(h, argv[got], at);
        if (lists[got].kind == VAL_ERR)
            goto done;
        size_t len = val_as_seq(lists[got])->len;
        if (strict && got > 0 && len != n) {
            host_raise(h, HOST_EXC_VALUE, at,
                       "zip() argument %d has length %zu, not %zu (strict=True)",
                       got + 1, len, n);
            val_unref(lists[got]);
            goto done;
        }
        if (len < n)
            n = len;
    }
    if (argc == 0)
        n = 0;
    out = val_list_new(n);
    for (size_t i = 0; i < n; i++) {
        val t = val_tuple_new((size_t)argc);
        for (int k = 0; k < argc; k++)
            val_seq_set(t, (size_t)k, val_ref(val_as_seq(lists[k])->items[i]));
        val_list_push(out, t);
    }
    out = host_iterator_new(out, "zip");
done:
    for (int k = 0; k < got; k++)
        val_unref(lists[k]);
    free(lists);
    return out;
}

BUILTIN_FN(builtin_map)
{
    (void)self;
    if (!builtin_no_kwargs(h, "map", kw, at))
        return val_err();
    if (argc < 2)
        return host_raise(h, HOST_EXC_TYPE, at,
                          "map() must have at least two arguments: a function and an "
                          "iterable");
    int nl = argc - 1;
    val *lists = xmalloc((size_t)nl * sizeof *lists);
    val *args = xmalloc((size_t)nl * sizeof *args);
    size_t n = SIZE_MAX;
    int got = 0;
    val out = val_err();
    for (; got < nl; got++) {
        lists[got] = builtin_items(h, argv[got + 1], at);
        if (lists[got].kind == VAL_ERR)
            goto done;
        if (val_as_seq(lists[got])->len < n)
            n = val_as_seq(lists[got])->len;
    }
    out = val_list_new(n);
    for (size_t i = 0; i < n; i++) {
        for (int k = 0; k < nl; k++)
            args[k] = val_as_seq(lists[k])->items[i];
        val r = host_call(h, argv[0], nl, args, NULL, at);
        if (r.kind == VAL_ERR) {
            val_unref(out);
            out = r;
            goto done;
        }
        val_list_push(out, r);
    }
    out = host_iterator_new(out, "map");
done:
    for (int k = 0; k < got; k++)
        val_unref(lists[k]);
    free(lists);
    free(args);
    return out;
}

BUILTIN_FN(builtin_filter)
{
    (void)self;
    if (!builtin_nargs(h, "filter", argc, kw, 2, 2, at))
        return val_err();
    val items = builtin_items(h, argv[1], at);
    if (items.kind == VAL_ERR)
        return items;
    val out = val_list_new(0);
    const val_seq *s = val_as_seq(items);
    for (size_t i = 0; i < s->len; i++) {
        val t = argv[0].kind == VAL_NONE ? val_ref(s->items[i])
                                         : host_call(h, argv[0], 1, &s->items[i], NULL, at);
        int keep = t.kind == VAL_ERR ? -1 : host_truth(h, t, at);
        val_unref(t);
        if (keep < 0) {
            val_unref(out);
            val_unref(items);
            return val_err();
        }
        if (keep)
            val_list_push(out, val_ref(s->items[i]));
    }
    val_unref(items);
    return host_iterator_new(out, "filter");
}

BUILTIN_FN(builtin_reversed)
{
    (void)self;
    if (!builtin_nargs(h, "reversed", argc, kw, 1, 1, at))
        return val_err();
    val v = argv[0];
    if (v.kind != VAL_LIST && v.kind != VAL_TUPLE && v.kind != VAL_STR && v.kind != VAL_RANGE &&
        v.kind != VAL_DICT && !val_type_of(v))
        return host_raise(h, HOST_EXC_TYPE, at, "'%s' object is not reversible", val_type_name(v));
    val items = builtin_items(h, v, at);
    if (items.kind == VAL_ERR)
        return items;
    val_seq *s = val_as_seq(items);
    for (size_t i = 0; i < s->len / 2; i++) {
        val t = s->items[i];
        s->items[i] = s->items[s->len - 1 - i];
        s->items[s->len - 1 - i] = t;
    }
    return host_iterator_new(items, v.kind == VAL_LIST ? "list_reverseiterator"
                                    : v.kind == VAL_RANGE ? "range_iterator" : "reversed");
}

/* Stable merge sort of items by keys (a < b through host_less); with
 * reverse, b < a decides, which keeps equal items in their order as
 * Python's sort does. */
static bool builtin_merge_sort(host *h, val *items, val *keys, size_t n, bool reverse,
                               src_span at)
{
    if (n < 2)
        return true;
    val *ti = xmalloc(n * sizeof *ti), *tk = xmalloc(n * sizeof *tk);
    bool ok = true;
    for (size_t width = 1; ok && width < n; width *= 2) {
        for (size_t lo = 0; ok && lo < n; lo += 2 * width) {
            size_t mid = lo + width < n ? lo + width : n;
            size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) {
                /* take from the right only when it is strictly first */
                int lt = reverse ? host_less(h, keys[i], keys[j], at)
                                 : host_less(h, keys[j], keys[i], at);
                if (lt < 0) {
                    ok = false;
                    break;
                }
                if (lt) {
                    ti[k] = items[j];
                    tk[k++] = keys[j++];
                } else {
                    ti[k] = items[i];
                    tk[k++] = keys[i++];
                }
            }
            if (!ok)
                break;
            while (i < mid) {
                ti[k] = items[i];
                tk[k++] = keys[i++];
            }
            while (j < hi) {
                ti[k] = items[j];
                tk[k++] = keys[j++];
            }
            memcpy(items + lo, ti + lo, (hi - lo) * sizeof *items);
            memcpy(keys + lo, tk + lo, (hi - lo) * sizeof *keys);
        }
    }
    free(ti);
    free(tk);
    return ok;
}

/* Sort list in place (list.sort and sorted). */
static bool builtin_sort_list(host *h, val list, val key, bool reverse, src_span at)
{
    val_seq *s = val_as_seq(list);
    size_t n = s->len;
    val *keys = xmalloc((n ? n : 1) * sizeof *keys);
    /* Sort a private copy so a key function that changes the list cannot
     * pull items from under the sort. */
    val *items = xmalloc((n ? n : 1) * sizeof *items);
    memcpy(items, s->items, n * sizeof *items);
    bool ok = true;
    size_t nk = 0;
    for (; nk < n; nk++) {
        if (key.kind == VAL_MISSING || key.kind == VAL_NONE) {
            keys[nk] = val_ref(items[nk]);
            continue;
        }
        keys[nk] = host_call(h, key, 1, &items[nk], NULL, at);
        if (keys[nk].kind == VAL_ERR) {
            ok = false;
            break;
        }
    }
    if (ok)
        ok = builtin_merge_sort(h, items, keys, n, reverse, at);
    if (ok && s->len == n)
        memcpy(s->items, items, n * sizeof *items);
    else if (ok)
        ok = host_raise(h, HOST_EXC_VALUE, at,
                        "the list changed size while it was being sorted").kind != VAL_ERR;
    for (size_t i = 0; i < nk; i++)
        val_unref(keys[i]);
    free(keys);
    free(items);
    return ok;
}

BUILTIN_FN(builtin_sorted)
{
    (void)self;
    val a[3];
    if (!host_args(h, at, "sorted", "iterable, *, key=, reverse=", argc, argv, kw, a))
        return val_err();
    int rev = 0;
    if (a[2].kind != VAL_MISSING && (rev = host_truth(h, a[2], at)) < 0)
        return val_err();
    val l = host_to_list(h, a[0], at);
    if (l.kind == VAL_ERR)
        return l;
    if (!builtin_sort_list(h, l, a[1], rev, at)) {
        val_unref(l);
        return val_err();
    }
    return l;
}

static val builtin_minmax(host *h, val self, int argc, const val *argv,
                          const val_kwargs *kw, src_span at, bool is_max)
{
    (void)self;
    const char *name = is_max ? "max" : "min";
    val o[2];
    if (!host_args(h, at, name, "*, key=, default=", 0, NULL, kw, o))
        return val_err();
    if (argc == 0)
        return host_raise(h, HOST_EXC_TYPE, at, "%s expected at least 1 argument, got 0", name);
    val items;
    if (argc == 1) {
        items = host_to_list(h, argv[0], at);
        if (items.kind == VAL_ERR)
            return items;
    } else {
        if (o[1].kind != VAL_MISSING)
            return host_raise(h, HOST_EXC_TYPE, at,
                              "Cannot specify a default for %s() with multiple "
                              "positional arguments", name);
        items = val_list_new((size_t)argc);
        for (int i = 0; i < argc; i++)
            val_list_push(items, val_ref(argv[i]));
    }
    const val_seq *s = val_as_seq(items);
    if (s->len == 0) {
        val_unref(items);
        if (o[1].kind != VAL_MISSING)
            return val_ref(o[1]);
        return host_raise(h, HOST_EXC_VALUE, at,
                          "%s() arg is an empty sequence (pass default= to allow it)",
                          name);
    }
    bool keyed = o[0].kind != VAL_MISSING && o[0].kind != VAL_NONE;
    size_t best = 0;
    val bk = keyed ? host_call(h, o[0], 1, &s->items[0], NULL, at) : val_ref(s->items[0]);
    for (size_t i = 1; i < s->len && bk.kind != VAL_ERR; i++) {
        val k = keyed ? host_call(h, o[0], 1, &s->items[i], NULL, at) : val_ref(s->items[i]);
        if (k.kind == VAL_ERR) {
            val_unref(bk);
            bk = k;
            break;
        }
        int better = is_max ? host_less(h, bk, k, at) : host_less(h, k, bk, at);
        if (better < 0) {
            val_unref(k);
            val_unref(bk);
            bk = val_err();
            break;
        }
        if (better) {
            val_unref(bk);
            bk = k;
            best = i;
        } else {
            val_unref(k);
        }
    }
    val r = bk.kind == VAL_ERR ? bk : val_ref(s->items[best]);
    val_unref(bk);
    val_unref(items);
    return r;
}

HOST_CFUNC_CALLING(builtin_min, builtin_minmax, false)
HOST_CFUNC_CALLING(builtin_max, builtin_minmax, true)

/* sum() and math.prod(): acc (owned) op x for each x of iterable, left to
 * right, one operation at a time, as CPython 3.11 does. */
static val builtin_fold(host *h, ast_op op, val acc, val iterable, src_span at)
{
    host_iter it;
    if (!host_iter_begin(h, iterable, at, &it)) {
        val_unref(acc);
        return val_err();
    }
    val x;
    int st;
    while ((st = host_iter_next(h, &it, &x)) > 0) {
        val r = host_binop(h, op, acc, x, at);
        val_unref(x);
        val_unref(acc);
        acc = r;
        if (r.kind == VAL_ERR)
            break;
    }
    host_iter_end(&it);
    if (st < 0) {
        val_unref(acc);
        return val_err();
    }
    return acc;
}

BUILTIN_FN(builtin_sum)
{
    (void)self;
    val a[2];
    if (!host_args(h, at, "sum", "iterable, start=", argc, argv, kw, a))
        return val_err();
    val acc = a[1].kind == VAL_MISSING ? val_int(0) : val_ref(a[1]);
    if (acc.kind == VAL_STR) {
        val_unref(acc);
        return host_raise(h, HOST_EXC_TYPE, at,
                          "sum() can't sum strings (use ''.join(seq) instead)");
    }
    return builtin_fold(h, AST_OP_ADD, acc, a[0], at);
}

static val builtin_anyall(host *h, val self, int argc, const val *argv,
                          const val_kwargs *kw, src_span at, bool is_any)
{
    (void)self;
    if (!builtin_nargs(h, is_any ? "any" : "all", argc, kw, 1, 1, at))
        return val_err();
    host_iter it;
    if (!host_iter_begin(h, argv[0], at, &it))
        return val_err();
    val x;
    int st;
    bool result = !is_any;
    while ((st = host_iter_next(h, &it, &x)) > 0) {
        int t = host_truth(h, x, at);
        val_unref(x);
        if (t < 0) {
            st = -1;
            break;
        }
        if (t == is_any) {
            result = is_any;
            break;
        }
    }
    host_iter_end(&it);
    return st < 0 ? val_err() : val_bool(result);
}

HOST_CFUNC_CALLING(builtin_any, builtin_anyall, true)
HOST_CFUNC_CALLING(builtin_all, builtin_anyall, false)

BUILTIN_FN(builtin_iter)
{
    (void)self;
    if (!builtin_nargs(h, "iter", argc, kw, 1, 1, at))
        return val_err();
    val v = argv[0];
    if (host_is_iterator(v))
        return val_ref(v);   /* an iterator is its own iterator */
    val items = host_to_list(h, v, at);
    if (items.kind == VAL_ERR)
        return items;
    return host_iterator_new(items, v.kind == VAL_LIST ? "list_iterator"
                                    : v.kind == VAL_TUPLE ? "tuple_iterator"
                                    : v.kind == VAL_STR ? "str_ascii_iterator"
                                    : v.kind == VAL_DICT ? "dict_keyiterator"
                                    : v.kind == VAL_RANGE ? "range_iterator" : "iterator");
}

BUILTIN_FN(builtin_next)
{
    (void)self;
    if (!builtin_nargs(h, "next", argc, kw, 1, 2, at))
        return val_err();
    val v = argv[0];
    if (!host_is_iterator(v))
        return host_raise(h, HOST_EXC_TYPE, at,
                          "'%s' object is not an iterator (call iter() on it first)",
                          val_type_name(v));
    host_iter it;
    if (!host_iter_begin(h, v, at, &it))
        return val_err();
    val x;
    int st = host_iter_next(h, &it, &x);
    host_iter_end(&it);
    if (st > 0)
        return x;
    if (st < 0)
        return val_err();
    if (argc == 2)
        return val_ref(argv[1]);
    return host_raise_args(h, HOST_EXC_STOP_ITERATION, val_tuple_new(0), at,
                           "StopIteration (the iterator is exhausted; pass a default: "
                           "next(it, None))");
}

/* ---- numbers ------------------------------------------------------------------------- */

BUILTIN_FN(builtin_abs)
{
    (void)self;
    if (!builtin_nargs(h, "abs", argc, kw, 1, 1, at))
        return val_err();
    val v = argv[0];
    if (builtin_is_int(v)) {
        int64_t i = builtin_int_of(v);
        if (i == INT64_MIN)
            return host_raise(h, HOST_EXC_OVERFLOW, at,
                              "integer overflow: tritsim's ints are 64-bit");
        return val_int(i < 0 ? -i : i);
    }
    if (v.kind == VAL_FLOAT)
        return val_float(fabs(v.u.f));
    val r = builtin_dunder(h, v, "__abs__", 0, NULL, at);
    if (r.kind != VAL_MISSING)
        return r;
    return host_raise(h, HOST_EXC_TYPE, at, "bad operand type for abs(): '%s'", val_type_name(v));
}

/* round(i, nd) for an int: to a multiple of 10^-nd, ties to even. */
static val builtin_round_int(host *h, int64_t i, int64_t nd, src_span at)
{
    if (nd >= 0)
        return val_int(i);
    if (nd < -18)
        return val_int(0);
    int64_t p = 1;
    for (int64_t k = 0; k < -nd; k++)
        p *= 10;
    int64_t q = i / p, r = i % p;
    if (r < 0) {
        r += p;
        q--;
    }
    /* i = q*p + r with 0 <= r < p */
    if (r * 2 > p || (r * 2 == p && (q & 1)))
        q++;
    int64_t out;
    if (__builtin_mul_overflow(q, p, &out))
        return host_raise(h, HOST_EXC_OVERFLOW, at, "integer overflow: tritsim's ints are 64-bit");
    return val_int(out);
}

BUILTIN_FN(builtin_round)
{
    (void)self;
    val a[2];
    if (!host_args(h, at, "round", "number, ndigits=", argc, argv, kw, a))
        return val_err();
    bool has_nd = a[1].kind != VAL_MISSING && a[1].kind != VAL_NONE;
    int64_t nd = 0;
    if (has_nd && !host_to_int(h, a[1], at, "round() ndigits", &nd))
        return val_err();
    val x = a[0];
    if (builtin_is_int(x))
        return builtin_round_int(h, builtin_int_of(x), nd, at);
    if (x.kind == VAL_FLOAT) {
        if (has_nd)
            return val_float(pyformat_round(x.u.f, nd));
        double r = nearbyint(x.u.f);   /* ties to even in the default mode */
        return builtin_float_to_int(h, r, at);
    }
    val r = has_nd ? builtin_dunder(h, x, "__round__", 1, &a[1], at)
                   : builtin_dunder(h, x, "__round__", 0, NULL, at);
    if (r.kind != VAL_MISSING)
        return r;
    return host_raise(h, HOST_EXC_TYPE, at,
                      "type %s doesn't define __round__ method", val_type_name(x));
}

BUILTIN_FN(builtin_divmod)
{
    (void)self;
    if (!builtin_nargs(h, "divmod", argc, kw, 2, 2, at))
        return val_err();
    val q = host_binop(h, AST_OP_FLOORDIV, argv[0], argv[1], at);
    if (q.kind == VAL_ERR)
        return q;
    val r = host_binop(h, AST_OP_MOD, argv[0], argv[1], at);
    if (r.kind == VAL_ERR) {
        val_unref(q);
        return r;
    }
    val t[2] = {q, r};
    return val_tuple_of(2, t);
}

BUILTIN_FN(builtin_pow)
{
    (void)self;
    val a[3];
    if (!host_args(h, at, "pow", "base, exp, mod=", argc, argv, kw, a))
        return val_err();
    if (a[2].kind == VAL_MISSING || a[2].kind == VAL_NONE)
        return host_binop(h, AST_OP_POW, a[0], a[1], at);
    if (!builtin_is_int(a[0]) || !builtin_is_int(a[1]) || !builtin_is_int(a[2]))
        return host_raise(h, HOST_EXC_TYPE, at,
                          "pow() 3rd argument not allowed unless all arguments are "
                          "integers");
    int64_t b = builtin_int_of(a[0]), e = builtin_int_of(a[1]), m = builtin_int_of(a[2]);
    if (m == 0)
        return host_raise(h, HOST_EXC_VALUE, at, "pow() 3rd argument cannot be 0");
    if (e < 0)
        return host_raise(h, HOST_EXC_NOT_IMPLEMENTED, at,
                          "pow() with a negative exponent and a modulus is not "
                          "supported by tritsim");
    __int128 r = 1, base = b % m;
    if (base < 0)
        base += m < 0 ? -m : m;
    for (; e; e >>= 1) {
        if (e & 1)
            r = r * base % m;
        base = base * base % m;
    }
    int64_t out = (int64_t)(r % m);
    if (out != 0 && ((out < 0) != (m < 0)))
        out += m;
    return val_int(out);
}

static val builtin_int_text(host *h, val self, int argc, const val *argv,
                            const val_kwargs *kw, src_span at, const char *fname, char type)
{
    (void)self;
    if (!builtin_nargs(h, fname, argc, kw, 1, 1, at))
        return val_err();
    if (!builtin_is_int(argv[0]))
        return host_raise(h, HOST_EXC_TYPE, at, "'%s' object cannot be interpreted as an integer",
                          val_type_name(argv[0]));
    pyformat_spec sp;
    char err[128];
    char spec[3] = {'#', type, 0};
    pyformat_parse_spec(spec, 2, "int", &sp, err, sizeof err);
    strbuf b = {0};
    pyformat_int(&b, builtin_int_of(argv[0]), &sp, err, sizeof err);
    return val_str_from_buf(&b);
}

HOST_CFUNC_CALLING(builtin_hex, builtin_int_text, "hex", 'x')
HOST_CFUNC_CALLING(builtin_oct, builtin_int_text, "oct", 'o')
HOST_CFUNC_CALLING(builtin_bin, builtin_int_text, "bin", 'b')

/* Append code point c as UTF-8. */
static void builtin_put_utf8(strbuf *b, uint32_t c)
{
    if (c < 0x80) {
        strbuf_putc(b, (char)c);
    } else if (c < 0x800) {
        strbuf_putc(b, (char)(0xC0 | c >> 6));
        strbuf_putc(b, (char)(0x80 | (c & 0x3F)));
    } else if (c < 0x10000) {
        strbuf_putc(b, (char)(0xE0 | c >> 12));
        strbuf_putc(b, (char)(0x80 | ((c >> 6) & 0x3F)));
        strbuf_putc(b, (char)(0x80 | (c & 0x3F)));
    } else {
        strbuf_putc(b, (char)(0xF0 | c >> 18));
        strbuf_putc(b, (char)(0x80 | ((c >> 12) & 0x3F)));
        strbuf_putc(b, (char)(0x80 | ((c >> 6) & 0x3F)));
        strbuf_putc(b, (char)(0x80 | (c & 0x3F)));
    }
}

BUILTIN_FN(builtin_chr)
{
    (void)self;
    int64_t c;
    if (!builtin_nargs(h, "chr", argc, kw, 1, 1, at) ||
        !host_to_int(h, argv[0], at, "chr() argument", &c))
        return val_err();
    if (c < 0 || c > 0x10FFFF)
        return host_raise(h, HOST_EXC_OVERFLOW, at, "chr() arg not in range(0x110000)");
    strbuf b = {0};
    builtin_put_utf8(&b, (uint32_t)c);
    return val_str_from_buf(&b);
}

BUILTIN_FN(builtin_ord)
{
    (void)self;
    if (!builtin_nargs(h, "ord", argc, kw, 1, 1, at))
        return val_err();
    if (argv[0].kind != VAL_STR)
        return host_raise(h, HOST_EXC_TYPE, at, "ord() expected string of length 1, but %s found",
                          val_type_name(argv[0]));
    const val_str *s = val_as_str(argv[0]);
    size_t n = val_str_chars(s);
    if (n != 1)
        return host_raise(h, HOST_EXC_TYPE, at,
                          "ord() expected a character, but string of length %zu found",
                          n);
    const unsigned char *p = (const unsigned char *)s->s;
    uint32_t c = p[0];
    if (s->len == 1)
        return val_int(c);
    if (c >= 0xF0 && s->len >= 4)
        c = (c & 0x07) << 18 | (uint32_t)(p[1] & 0x3F) << 12 | (uint32_t)(p[2] & 0x3F) << 6 | (p[3] & 0x3F);
    else if (c >= 0xE0 && s->len >= 3)
        c = (c & 0x0F) << 12 | (uint32_t)(p[1] & 0x3F) << 6 | (p[2] & 0x3F);
    else if (c >= 0xC0 && s->len >= 2)
        c = (c & 0x1F) << 6 | (p[1] & 0x3F);
    return val_int(c);
}

/* ---- str methods ----------------------------------------------------------------------- */

#define STR_SELF (val_as_str(self))

/* Byte offset of code point cp (0 <= cp <= chars) of s. */
static size_t builtin_cp_to_byte(const val_str *s, int64_t cp)
{
    if (s->ascii)
        return (size_t)cp;
    size_t i = 0;
    for (int64_t k = 0; i < s->len; i++) {
        if (((unsigned char)s->s[i] & 0xC0) != 0x80) {
            if (k == cp)
                return i;
            k++;
        }
    }
    return s->len;
}

static int64_t builtin_byte_to_cp(const val_str *s, size_t b)
{
    return s->ascii ? (int64_t)b : (int64_t)pyformat_utf8_len(s->s, b);
}

/* The byte range [*b0, *b1) of s picked by optional start/end arguments
 * (interpreted as a slice, as str.find does). */
static bool builtin_str_range(host *h, const val_str *s, int argc, const val *argv, int first,
                              src_span at, size_t *b0, size_t *b1)
{
    int64_t n = (int64_t)val_str_chars(s), lo = 0, hi = n;
    for (int k = 0; k < 2; k++) {
        if (argc <= first + k || argv[first + k].kind == VAL_NONE)
            continue;
        int64_t v;
        if (!host_to_int(h, argv[first + k], at, "slice index", &v))
            return false;
        if (v < 0)
            v = v + n < 0 ? 0 : v + n;
        if (v > n)
            v = n;
        if (k == 0)
            lo = v;
        else
            hi = v;
    }
    if (hi < lo)
        hi = lo;   /* an empty range (find gives -1) */
    *b0 = builtin_cp_to_byte(s, lo);
    *b1 = builtin_cp_to_byte(s, hi);
    if (lo > n) {
        *b0 = *b1 = s->len + 1;   /* past the end: nothing, not even '' */
    }
    return true;
}

static const char *builtin_memmem(const char *hay, size_t hn, const char *needle, size_t nn)
{
    if (nn == 0)
        return hay;
    for (size_t i = 0; i + nn <= hn; i++)
        if (hay[i] == needle[0] && !memcmp(hay + i, needle, nn))
            return hay + i;
    return NULL;
}

static const char *builtin_memrmem(const char *hay, size_t hn, const char *needle, size_t nn)
{
    if (nn > hn)
        return NULL;
    for (size_t i = hn - nn + 1; i-- > 0;)
        if (!memcmp(hay + i, needle, nn))
            return hay + i;
    return NULL;
}

static val builtin_str_find_impl(host *h, val self, int argc, const val *argv,
                                 const val_kwargs *kw, src_span at, const char *name,
                                 bool reverse, bool raise)
{
    const char *sub;
    if (!builtin_nargs(h, name, argc, kw, 1, 3, at) ||
        !host_to_str(h, argv[0], at, "the substring", &sub))
        return val_err();
    const val_str *s = STR_SELF;
    size_t b0, b1;
    if (!builtin_str_range(h, s, argc, argv, 1, at, &b0, &b1))
        return val_err();
    size_t nn = val_as_str(argv[0])->len;
    const char *p = NULL;
    if (b0 <= s->len)
        p = reverse ? builtin_memrmem(s->s + b0, b1 - b0, sub, nn)
                    : builtin_memmem(s->s + b0, b1 - b0, sub, nn);
    if (!p) {
        if (raise)
            return host_raise(h, HOST_EXC_VALUE, at, "ValueError: substring not found");
        return val_int(-1);
    }
    return val_int(builtin_byte_to_cp(s, (size_t)(p - s->s)));
}

HOST_CFUNC_CALLING(builtin_str_find, builtin_str_find_impl, "find", false, false)
HOST_CFUNC_CALLING(builtin_str_rfind, builtin_str_find_impl, "rfind", true, false)
HOST_CFUNC_CALLING(builtin_str_index, builtin_str_find_impl, "index", false, true)
HOST_CFUNC_CALLING(builtin_str_rindex, builtin_str_find_impl, "rindex", true, true)

BUILTIN_FN(builtin_str_count)
{
    const char *sub;
    if (!builtin_nargs(h, "count", argc, kw, 1, 3, at) ||
        !host_to_str(h, argv[0], at, "the substring", &sub))
        return val_err();
    const val_str *s = STR_SELF;
    size_t b0, b1;
    if (!builtin_str_range(h, s, argc, argv, 1, at, &b0, &b1))
        return val_err();
    if (b0 > s->len)
        return val_int(0);
    size_t nn = val_as_str(argv[0])->len;
    if (nn == 0)
        return val_int(builtin_byte_to_cp(s, b1) - builtin_byte_to_cp(s, b0) + 1);
    int64_t n = 0;
    for (size_t i = b0; i + nn <= b1;) {
        if (!memcmp(s->s + i, sub, nn)) {
            n++;
            i += nn;
        } else {
            i++;
        }
    }
    return val_int(n);
}

BUILTIN_FN(builtin_str_join)
{
    if (!builtin_nargs(h, "join", argc, kw, 1, 1, at))
        return val_err();
    val items = host_to_list(h, argv[0], at);
    if (items.kind == VAL_ERR)
        return items;
    const val_seq *l = val_as_seq(items);
    strbuf b = {0};
    for (size_t i = 0; i < l->len; i++) {
        if (l->items[i].kind != VAL_STR) {
            strbuf_free(&b);
            host_raise(h, HOST_EXC_TYPE, at,
                       "sequence item %zu: expected str instance, %s found (convert "
                       "with str(x) first, e.g. ', '.join(map(str, items)))", i,
                       val_type_name(l->items[i]));
            val_unref(items);
            return val_err();
        }
        if (i)
            strbuf_putn(&b, STR_SELF->s, STR_SELF->len);
        strbuf_putn(&b, val_as_str(l->items[i])->s, val_as_str(l->items[i])->len);
    }
    val_unref(items);
    return val_str_from_buf(&b);
}

static bool builtin_is_space(unsigned char c)
{
    return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f);
}

static val builtin_split_impl(host *h, val self, int argc, const val *argv,
                              const val_kwargs *kw, src_span at, bool right)
{
    val a[2];
    if (!host_args(h, at, right ? "rsplit" : "split", "sep=, maxsplit=", argc, argv, kw, a))
        return val_err();
    int64_t maxsplit = -1;
    if (a[1].kind != VAL_MISSING && !host_to_int(h, a[1], at, "maxsplit", &maxsplit))
        return val_err();
    const val_str *s = STR_SELF;
    val parts = val_list_new(0);
    if (a[0].kind == VAL_MISSING || a[0].kind == VAL_NONE) {
        /* Runs of whitespace separate; no empty strings. */
        if (!right) {
            size_t i = 0;
            while (i < s->len) {
                while (i < s->len && builtin_is_space((unsigned char)s->s[i]))
                    i++;
                if (i >= s->len)
                    break;
                size_t j = i;
                if (maxsplit >= 0 && (int64_t)val_as_seq(parts)->len >= maxsplit) {
                    size_t e = s->len;
                    while (e > i && builtin_is_space((unsigned char)s->s[e - 1]))
                        e--;
                    val_list_push(parts, val_str_new(s->s + i, e - i));
                    break;
                }
                while (j < s->len && !builtin_is_space((unsigned char)s->s[j]))
                    j++;
                val_list_push(parts, val_str_new(s->s + i, j - i));
                i = j;
            }
        } else {
            size_t e = s->len;
            while (e > 0) {
                while (e > 0 && builtin_is_space((unsigned char)s->s[e - 1]))
                    e--;
                if (e == 0)
                    break;
                if (maxsplit >= 0 && (int64_t)val_as_seq(parts)->len >= maxsplit) {
                    size_t i = 0;
                    while (i < e && builtin_is_space((unsigned char)s->s[i]))
                        i++;
                    val_list_insert(parts, 0, val_str_new(s->s + i, e - i));
                    break;
                }
                size_t i = e;
                while (i > 0 && !builtin_is_space((unsigned char)s->s[i - 1]))
                    i--;
                val_list_insert(parts, 0, val_str_new(s->s + i, e - i));
                e = i;
            }
        }
        return parts;
    }
    const char *sep;
    if (!host_to_str(h, a[0], at, "the separator", &sep)) {
        val_unref(parts);
        return val_err();
    }
    size_t sn = val_as_str(a[0])->len;
    if (sn == 0) {
        val_unref(parts);
        return host_raise(h, HOST_EXC_VALUE, at, "ValueError: empty separator");
    }
    if (!right) {
        size_t i = 0;
        for (;;) {
            const char *p = maxsplit >= 0 && (int64_t)val_as_seq(parts)->len >= maxsplit
                                ? NULL : builtin_memmem(s->s + i, s->len - i, sep, sn);
            if (!p) {
                val_list_push(parts, val_str_new(s->s + i, s->len - i));
                break;
            }
            val_list_push(parts, val_str_new(s->s + i, (size_t)(p - s->s) - i));
            i = (size_t)(p - s->s) + sn;
        }
    } else {
        size_t e = s->len;
        for (;;) {
            const char *p = maxsplit >= 0 && (int64_t)val_as_seq(parts)->len >= maxsplit
                                ? NULL : builtin_memrmem(s->s, e, sep, sn);
            if (!p) {
                val_list_insert(parts, 0, val_str_new(s->s, e));
                break;
            }
            size_t ps = (size_t)(p - s->s);
            val_list_insert(parts, 0, val_str_new(p + sn, e - ps - sn));
            e = ps;
        }
    }
    return parts;
}

HOST_CFUNC_CALLING(builtin_str_split, builtin_split_impl, false)
HOST_CFUNC_CALLING(builtin_str_rsplit, builtin_split_impl, true)

BUILTIN_FN(builtin_str_splitlines)
{
    val a[1];
    if (!host_args(h, at, "splitlines", "keepends=", argc, argv, kw, a))
        return val_err();
    int keep = 0;
    if (a[0].kind != VAL_MISSING && (keep = host_truth(h, a[0], at)) < 0)
        return val_err();
    const val_str *s = STR_SELF;
    val parts = val_list_new(0);
    size_t i = 0;
    while (i < s->len) {
        size_t j = i;
        while (j < s->len && !strchr("\n\r\v\f\x1c\x1d\x1e", s->s[j]))
            j++;
        size_t eol = j;
        if (j < s->len)
            eol = j + (s->s[j] == '\r' && j + 1 < s->len && s->s[j + 1] == '\n' ? 2 : 1);
        val_list_push(parts, val_str_new(s->s + i, (keep ? eol : j) - i));
        i = eol;
    }
    return parts;
}

/* Does code point set `chars` (UTF-8) contain the character at s? */
static bool builtin_in_chars(const char *chars, size_t cn, const char *c, size_t clen)
{
    for (size_t i = 0; i < cn;) {
        size_t l = 1;
        while (i + l < cn && ((unsigned char)chars[i + l] & 0xC0) == 0x80)
            l++;
        if (l == clen && !memcmp(chars + i, c, l))
            return true;
        i += l;
    }
    return false;
}

static val builtin_strip_impl(host *h, val self, int argc, const val *argv,
                              const val_kwargs *kw, src_span at, const char *name, bool left,
                              bool right)
{
    if (!builtin_nargs(h, name, argc, kw, 0, 1, at))
        return val_err();
    const char *chars = NULL;
    size_t cn = 0;
    if (argc == 1 && argv[0].kind != VAL_NONE) {
        if (!host_to_str(h, argv[0], at, "the characters to strip", &chars))
            return val_err();
        cn = val_as_str(argv[0])->len;
    }
    const val_str *s = STR_SELF;
    size_t i = 0, e = s->len;
    if (left) {
        while (i < e) {
            size_t l = 1;
            while (i + l < e && ((unsigned char)s->s[i + l] & 0xC0) == 0x80)
                l++;
            bool strip = chars ? builtin_in_chars(chars, cn, s->s + i, l)
                               : l == 1 && builtin_is_space((unsigned char)s->s[i]);
            if (!strip)
                break;
            i += l;
        }
    }
    if (right) {
        while (e > i) {
            size_t st = e - 1;
            while (st > i && ((unsigned char)s->s[st] & 0xC0) == 0x80)
                st--;
            bool strip = chars ? builtin_in_chars(chars, cn, s->s + st, e - st)
                               : e - st == 1 && builtin_is_space((unsigned char)s->s[st]);
            if (!strip)
                break;
            e = st;
        }
    }
    return val_str_new(s->s + i, e - i);
}

HOST_CFUNC_CALLING(builtin_str_strip, builtin_strip_impl, "strip", true, true)
HOST_CFUNC_CALLING(builtin_str_lstrip, builtin_strip_impl, "lstrip", true, false)
HOST_CFUNC_CALLING(builtin_str_rstrip, builtin_strip_impl, "rstrip", false, true)

BUILTIN_FN(builtin_str_replace)
{
    const char *old, *new;
    int64_t count = -1;
    if (!builtin_nargs(h, "replace", argc, kw, 2, 3, at) ||
        !host_to_str(h, argv[0], at, "replace() argument 1", &old) ||
        !host_to_str(h, argv[1], at, "replace() argument 2", &new) ||
        (argc == 3 && !host_to_int(h, argv[2], at, "replace() count", &count)))
        return val_err();
    const val_str *s = STR_SELF;
    size_t on = val_as_str(argv[0])->len, nn = val_as_str(argv[1])->len;
    strbuf b = {0};
    int64_t done = 0;
    if (on == 0) {
        /* '' matches before every character and at the end. */
        for (size_t i = 0; i <= s->len;) {
            if (count < 0 || done < count) {
                strbuf_putn(&b, new, nn);
                done++;
            }
            if (i == s->len)
                break;
            size_t l = 1;
            while (i + l < s->len && ((unsigned char)s->s[i + l] & 0xC0) == 0x80)
                l++;
            strbuf_putn(&b, s->s + i, l);
            i += l;
        }
        return val_str_from_buf(&b);
    }
    size_t i = 0;
    while (i < s->len) {
        const char *p = count >= 0 && done >= count ? NULL
                        : builtin_memmem(s->s + i, s->len - i, old, on);
        if (!p) {
            strbuf_putn(&b, s->s + i, s->len - i);
            break;
        }
        strbuf_putn(&b, s->s + i, (size_t)(p - s->s) - i);
        strbuf_putn(&b, new, nn);
        i = (size_t)(p - s->s) + on;
        done++;
    }
    return val_str_from_buf(&b);
}

static val builtin_fix_impl(host *h, val self, int argc, const val *argv,
                            const val_kwargs *kw, src_span at, const char *name, bool end)
{
    if (!builtin_nargs(h, name, argc, kw, 1, 3, at))
        return val_err();
    const val_str *s = STR_SELF;
    size_t b0, b1;
    if (!builtin_str_range(h, s, argc, argv, 1, at, &b0, &b1))
        return val_err();
    if (b0 > s->len)
        return val_bool(false);
    val fx = argv[0];
    size_t n = fx.kind == VAL_TUPLE ? val_as_seq(fx)->len : 1;
    for (size_t k = 0; k < n; k++) {
        val p = fx.kind == VAL_TUPLE ? val_as_seq(fx)->items[k] : fx;
        if (p.kind != VAL_STR)
            return host_raise(h, HOST_EXC_TYPE, at,
                              "%s first arg must be str or a tuple of str, not %s",
                              name, val_type_name(p));
        size_t pn = val_as_str(p)->len;
        if (pn > b1 - b0)
            continue;
        const char *at_p = end ? s->s + b1 - pn : s->s + b0;
        if (!memcmp(at_p, val_as_str(p)->s, pn))
            return val_bool(true);
    }
    return val_bool(false);
}

HOST_CFUNC_CALLING(builtin_str_startswith, builtin_fix_impl, "startswith", false)
HOST_CFUNC_CALLING(builtin_str_endswith, builtin_fix_impl, "endswith", true)

/* Simple case mappings of the scripts most text uses: ASCII, Latin-1,
 * Latin Extended-A, Greek and Cyrillic.  Other code points have no case
 * here (CPython knows all of Unicode; tritsim's strings are mostly ASCII). */
static uint32_t builtin_lower_cp(uint32_t c)
{
    if (c < 0x80)
        return (uint32_t)tolower((int)c);
    if ((c >= 0xC0 && c <= 0xDE && c != 0xD7) || (c >= 0x391 && c <= 0x3AB && c != 0x3A2) ||
        (c >= 0x410 && c <= 0x42F))
        return c + 32;
    if (c >= 0x400 && c <= 0x40F)
        return c + 80;
    if (c == 0x178)
        return 0xFF;
    if (c == 0x386)
        return 0x3AC;
    if (c >= 0x388 && c <= 0x38A)
        return c + 37;
    if (c == 0x38C)
        return 0x3CC;
    if (c == 0x38E || c == 0x38F)
        return c + 63;
    if ((c >= 0x100 && c <= 0x137) || (c >= 0x14A && c <= 0x177))
        return c | 1;
    if ((c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17E))
        return (c & 1) ? c + 1 : c;
    return c;
}

static uint32_t builtin_upper_cp(uint32_t c)
{
    if (c < 0x80)
        return (uint32_t)toupper((int)c);
    if ((c >= 0xE0 && c <= 0xFE && c != 0xF7) || (c >= 0x3B1 && c <= 0x3CB && c != 0x3C2) ||
        (c >= 0x430 && c <= 0x44F))
        return c - 32;
    if (c >= 0x450 && c <= 0x45F)
        return c - 80;
    switch (c) {
    case 0xB5: return 0x39C;
    case 0xFF: return 0x178;
    case 0x3C2: return 0x3A3;
    case 0x3AC: return 0x386;
    case 0x3CC: return 0x38C;
    default: break;
    }
    if (c >= 0x3AD && c <= 0x3AF)
        return c - 37;
    if (c == 0x3CD || c == 0x3CE)
        return c - 63;
    if ((c >= 0x100 && c <= 0x137) || (c >= 0x14A && c <= 0x177))
        return c & ~1u;
    if ((c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17E))
        return (c & 1) ? c : c - 1;
    return c;
}

static bool builtin_cased(uint32_t c)
{
    return builtin_lower_cp(c) != c || builtin_upper_cp(c) != c || c == 0xDF;
}

/* Decode the code point at s[*i] (a stray byte is itself). */
static uint32_t builtin_decode(const char *s, size_t len, size_t *i)
{
    unsigned char c = (unsigned char)s[*i];
    size_t n = c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
    if (*i + n > len)
        n = 1;
    uint32_t cp = n == 1 ? c : c & (0x7Fu >> n);
    for (size_t k = 1; k < n; k++)
        cp = cp << 6 | ((unsigned char)s[*i + k] & 0x3F);
    *i += n;
    return cp;
}

static val builtin_case_impl(host *h, val self, int argc, const val *argv,
                             const val_kwargs *kw, src_span at, const char *name, int mode)
{
    (void)argv;
    if (!builtin_nargs(h, name, argc, kw, 0, 0, at))
        return val_err();
    const val_str *s = STR_SELF;
    strbuf b = {0};
    bool word_start = true, first = true;
    for (size_t i = 0; i < s->len;) {
        uint32_t c = builtin_decode(s->s, s->len, &i);
        bool up;
        switch (mode) {
        case 0: up = true; break;
        case 1: up = false; break;
        case 2: up = word_start; break;                      /* title */
        case 3: up = first; break;                           /* capitalize */
        default: up = builtin_lower_cp(c) != c ? false : true; /* swapcase */
        }
        if (up && c == 0xDF)
            strbuf_puts(&b, mode == 2 || mode == 3 ? "Ss" : "SS");   /* German sharp s */
        else
            builtin_put_utf8(&b, up ? builtin_upper_cp(c) : builtin_lower_cp(c));
        word_start = !builtin_cased(c);
        first = false;
    }
    return val_str_from_buf(&b);
}

HOST_CFUNC_CALLING(builtin_str_upper, builtin_case_impl, "upper", 0)
HOST_CFUNC_CALLING(builtin_str_lower, builtin_case_impl, "lower", 1)
HOST_CFUNC_CALLING(builtin_str_title, builtin_case_impl, "title", 2)
HOST_CFUNC_CALLING(builtin_str_capitalize, builtin_case_impl, "capitalize", 3)
HOST_CFUNC_CALLING(builtin_str_swapcase, builtin_case_impl, "swapcase", 4)

/* isdigit() and friends: every character in the class, at least one. */
static val builtin_is_impl(host *h, val self, int argc, const val *argv,
                           const val_kwargs *kw, src_span at, const char *name, int (*pred)(int))
{
    (void)argv;
    if (!builtin_nargs(h, name, argc, kw, 0, 0, at))
        return val_err();
    const val_str *s = STR_SELF;
    if (s->len == 0)
        return val_bool(false);
    for (size_t i = 0; i < s->len; i++)
        if ((unsigned char)s->s[i] >= 0x80 || !pred((unsigned char)s->s[i]))
            return val_bool(false);
    return val_bool(true);
}

static int builtin_pred_space(int c) { return builtin_is_space((unsigned char)c); }

HOST_CFUNC_CALLING(builtin_str_isdigit, builtin_is_impl, "isdigit", isdigit)
HOST_CFUNC_CALLING(builtin_str_isalpha, builtin_is_impl, "isalpha", isalpha)
HOST_CFUNC_CALLING(builtin_str_isalnum, builtin_is_impl, "isalnum", isalnum)
HOST_CFUNC_CALLING(builtin_str_isspace, builtin_is_impl, "isspace", builtin_pred_space)

static val builtin_case_test(host *h, val self, int argc, const val *argv,
                             const val_kwargs *kw, src_span at, const char *name, bool upper)
{
    (void)argv;
    if (!builtin_nargs(h, name, argc, kw, 0, 0, at))
        return val_err();
    const val_str *s = STR_SELF;
    bool cased = false;
    for (size_t i = 0; i < s->len; i++) {
        unsigned char c = (unsigned char)s->s[i];
        if (upper ? islower(c) : isupper(c))
            return val_bool(false);
        if (isalpha(c))
            cased = true;
    }
    return val_bool(cased);
}

HOST_CFUNC_CALLING(builtin_str_isupper, builtin_case_test, "isupper", true)
HOST_CFUNC_CALLING(builtin_str_islower, builtin_case_test, "islower", false)

BUILTIN_FN(builtin_str_isidentifier)
{
    (void)argv;
    if (!builtin_nargs(h, "isidentifier", argc, kw, 0, 0, at))
        return val_err();
    const val_str *s = STR_SELF;
    if (s->len == 0 || isdigit((unsigned char)s->s[0]))
        return val_bool(false);
    for (size_t i = 0; i < s->len; i++) {
        unsigned char c = (unsigned char)s->s[i];
        if (c < 0x80 && !isalnum(c) && c != '_')
            return val_bool(false);
    }
    return val_bool(true);
}

/* ljust/rjust/center: pad to width code points with fillchar. */
static val builtin_pad_impl(host *h, val self, int argc, const val *argv,
                            const val_kwargs *kw, src_span at, const char *name, int how)
{
    int64_t width;
    if (!builtin_nargs(h, name, argc, kw, 1, 2, at) ||
        !host_to_int(h, argv[0], at, "the width", &width))
        return val_err();
    const char *fill = " ";
    size_t fl = 1;
    if (argc == 2) {
        if (argv[1].kind != VAL_STR || val_str_chars(val_as_str(argv[1])) != 1)
            return host_raise(h, HOST_EXC_TYPE, at,
                              "The fill character must be exactly one character long");
        fill = val_as_str(argv[1])->s;
        fl = val_as_str(argv[1])->len;
    }
    const val_str *s = STR_SELF;
    int64_t n = (int64_t)val_str_chars(s);
    if (width <= n)
        return val_ref(self);
    if (width > 100000000)
        return host_raise(h, HOST_EXC_VALUE, at, "the width %lld is too large", (long long)width);
    int64_t pad = width - n, left;
    if (how == 0)
        left = 0;
    else if (how == 1)
        left = pad;
    else
        left = pad / 2 + (pad & width & 1);   /* CPython's centring */
    strbuf b = {0};
    for (int64_t i = 0; i < left; i++)
        strbuf_putn(&b, fill, fl);
    strbuf_putn(&b, s->s, s->len);
    for (int64_t i = 0; i < pad - left; i++)
        strbuf_putn(&b, fill, fl);
    return val_str_from_buf(&b);
}

HOST_CFUNC_CALLING(builtin_str_ljust, builtin_pad_impl, "ljust", 0)
HOST_CFUNC_CALLING(builtin_str_rjust, builtin_pad_impl, "rjust", 1)
HOST_CFUNC_CALLING(builtin_str_center, builtin_pad_impl, "center", 2)

BUILTIN_FN(builtin_str_zfill)
{
    int64_t width;
    if (!builtin_nargs(h, "zfill", argc, kw, 1, 1, at) ||
        !host_to_int(h, argv[0], at, "the width", &width))
        return val_err();
    const val_str *s = STR_SELF;
    int64_t n = (int64_t)val_str_chars(s);
    if (width <= n)
        return val_ref(self);
    if (width > 100000000)
        return host_raise(h, HOST_EXC_VALUE, at, "the width %lld is too large", (long long)width);
    strbuf b = {0};
    size_t i = 0;
    if (s->len && (s->s[0] == '+' || s->s[0] == '-'))
        strbuf_putc(&b, s->s[i++]);
    for (int64_t k = 0; k < width - n; k++)
        strbuf_putc(&b, '0');
    strbuf_putn(&b, s->s + i, s->len - i);
    return val_str_from_buf(&b);
}

static val builtin_partition_impl(host *h, val self, int argc, const val *argv,
                                  const val_kwargs *kw, src_span at, bool right)
{
    const char *sep;
    if (!builtin_nargs(h, right ? "rpartition" : "partition", argc, kw, 1, 1, at) ||
        !host_to_str(h, argv[0], at, "the separator", &sep))
        return val_err();
    size_t sn = val_as_str(argv[0])->len;
    if (sn == 0)
        return host_raise(h, HOST_EXC_VALUE, at, "ValueError: empty separator");
    const val_str *s = STR_SELF;
    const char *p = right ? builtin_memrmem(s->s, s->len, sep, sn)
                          : builtin_memmem(s->s, s->len, sep, sn);
    val t[3];
    if (!p) {
        t[0] = right ? val_str_cstr("") : val_ref(self);
        t[1] = val_str_cstr("");
        t[2] = right ? val_ref(self) : val_str_cstr("");
    } else {
        size_t ps = (size_t)(p - s->s);
        t[0] = val_str_new(s->s, ps);
        t[1] = val_ref(argv[0]);
        t[2] = val_str_new(p + sn, s->len - ps - sn);
    }
    return val_tuple_of(3, t);
}

HOST_CFUNC_CALLING(builtin_str_partition, builtin_partition_impl, false)
HOST_CFUNC_CALLING(builtin_str_rpartition, builtin_partition_impl, true)

static val builtin_remove_fix(host *h, val self, int argc, const val *argv,
                              const val_kwargs *kw, src_span at, bool suffix)
{
    const char *fx;
    if (!builtin_nargs(h, suffix ? "removesuffix" : "removeprefix", argc, kw, 1, 1, at) ||
        !host_to_str(h, argv[0], at, "the affix", &fx))
        return val_err();
    const val_str *s = STR_SELF;
    size_t n = val_as_str(argv[0])->len;
    if (n == 0 || n > s->len)
        return val_ref(self);
    if (suffix ? memcmp(s->s + s->len - n, fx, n) : memcmp(s->s, fx, n))
        return val_ref(self);
    return suffix ? val_str_new(s->s, s->len - n) : val_str_new(s->s + n, s->len - n);
}

HOST_CFUNC_CALLING(builtin_str_removeprefix, builtin_remove_fix, false)
HOST_CFUNC_CALLING(builtin_str_removesuffix, builtin_remove_fix, true)

BUILTIN_FN(builtin_str_expandtabs)
{
    int64_t tab = 8;
    if (!builtin_nargs(h, "expandtabs", argc, kw, 0, 1, at) ||
        (argc == 1 && !host_to_int(h, argv[0], at, "tabsize", &tab)))
        return val_err();
    const val_str *s = STR_SELF;
    strbuf b = {0};
    int64_t col = 0;
    for (size_t i = 0; i < s->len; i++) {
        char c = s->s[i];
        if (c == '\t') {
            if (tab > 0) {
                int64_t n = tab - col % tab;
                for (int64_t k = 0; k < n; k++)
                    strbuf_putc(&b, ' ');
                col += n;
            }
        } else {
            strbuf_putc(&b, c);
            if (c == '\n' || c == '\r')
                col = 0;
            else if (((unsigned char)c & 0xC0) != 0x80)
                col++;
        }
    }
    return val_str_from_buf(&b);
}

/* ---- str.format ------------------------------------------------------------------------ */

typedef struct builtin_fmt {
    host *h;
    int argc;
    const val *argv;
    const val_kwargs *kw;
    int auto_index;     /* next automatic field number; -1 once manual */
    bool manual;
    src_span at;
} builtin_fmt;

static bool builtin_format_str(builtin_fmt *f, const char *s, size_t n, strbuf *out, int depth);

/* The value a field name names: "0", "name", "", then .attr and [key]. */
static val builtin_field_value(builtin_fmt *f, const char *s, size_t n)
{
    host *h = f->h;
    size_t i = 0;
    while (i < n && s[i] != '.' && s[i] != '[')
        i++;
    val v;
    if (i == 0) {
        if (f->manual)
            return host_raise(h, HOST_EXC_VALUE, f->at, "cannot switch from manual field "
                              "specification to "
                              "automatic field numbering");
        f->auto_index++;
        int k = f->auto_index - 1;
        if (k >= f->argc)
            return host_raise(h, HOST_EXC_INDEX, f->at, "Replacement index %d out of range for "
                              "positional "
                              "args tuple", k);
        v = val_ref(f->argv[k]);
    } else if (isdigit((unsigned char)s[0])) {
        if (f->auto_index > 0)
            return host_raise(h, HOST_EXC_VALUE, f->at, "cannot switch from automatic field "
                              "numbering to "
                              "manual field specification");
        f->manual = true;
        long k = 0;
        for (size_t j = 0; j < i; j++) {
            if (!isdigit((unsigned char)s[j]))
                return host_raise(h, HOST_EXC_VALUE, f->at, "invalid field name '%.*s'", (int)n, s);
            k = k * 10 + (s[j] - '0');
            if (k > 100000)
                break;
        }
        if (k >= f->argc)
            return host_raise(h, HOST_EXC_INDEX, f->at, "Replacement index %ld out of range for "
                              "positional "
                              "args tuple", k);
        v = val_ref(f->argv[k]);
    } else {
        v = val_missing();
        for (int k = 0; f->kw && k < f->kw->n; k++)
            if (strlen(f->kw->names[k]) == i && !memcmp(f->kw->names[k], s, i))
                v = val_ref(f->kw->values[k]);
        if (v.kind == VAL_MISSING)
            return host_raise(h, HOST_EXC_KEY, f->at, "KeyError: '%.*s' (no keyword argument of "
                              "that name "
                              "was passed to format())", (int)i, s);
    }
    while (i < n) {
        char name[128];
        if (s[i] == '.') {
            size_t j = ++i;
            while (i < n && s[i] != '.' && s[i] != '[')
                i++;
            snprintf(name, sizeof name, "%.*s", (int)(i - j), s + j);
            val a = host_getattr(h, v, name, f->at);
            val_unref(v);
            v = a;
        } else {
            size_t j = ++i;
            while (i < n && s[i] != ']')
                i++;
            if (i >= n) {
                val_unref(v);
                return host_raise(h, HOST_EXC_VALUE, f->at, "Missing ']' in format string");
            }
            bool digits = i > j;
            for (size_t k = j; k < i; k++)
                digits = digits && isdigit((unsigned char)s[k]);
            val key = digits ? val_int(strtoll(s + j, NULL, 10)) : val_str_new(s + j, i - j);
            val a = host_getitem(h, v, key, f->at);
            val_unref(key);
            val_unref(v);
            v = a;
            i++;
        }
        if (v.kind == VAL_ERR)
            return v;
    }
    return v;
}

/* One replacement field s[0..n) (between the braces). */
static bool builtin_format_field(builtin_fmt *f, const char *s, size_t n, strbuf *out,
                                 int depth)
{
    size_t i = 0;
    int bracket = 0;
    while (i < n && (bracket || (s[i] != '!' && s[i] != ':'))) {
        if (s[i] == '[')
            bracket = 1;
        else if (s[i] == ']')
            bracket = 0;
        i++;
    }
    size_t name_end = i;
    char conv = 0;
    if (i < n && s[i] == '!') {
        if (i + 1 >= n || (i + 2 < n && s[i + 2] != ':') ) {
            host_error(f->h, f->at, "end of string while looking for conversion specifier");
            return false;
        }
        conv = s[i + 1];
        if (conv != 'r' && conv != 's' && conv != 'a') {
            host_error(f->h, f->at, "Unknown conversion specifier %c", conv);
            return false;
        }
        i += 2;
    }
    /* The value first, then the spec, which may hold fields of its own
     * ({x:{width}}): automatic numbering goes in that order. */
    val v = builtin_field_value(f, s, name_end);
    if (v.kind == VAL_ERR)
        return false;
    strbuf spec = {0};
    if (i < n && s[i] == ':' &&
        !builtin_format_str(f, s + i + 1, n - i - 1, &spec, depth + 1)) {
        strbuf_free(&spec);
        val_unref(v);
        return false;
    }
    if (conv) {
        val c = conv == 's' ? host_str(f->h, v) : host_repr(f->h, v);
        val_unref(v);
        v = c;
    }
    val r = host_format(f->h, v, strbuf_cstr(&spec), spec.len, f->at);
    val_unref(v);
    strbuf_free(&spec);
    if (r.kind == VAL_ERR)
        return false;
    strbuf_putn(out, val_as_str(r)->s, val_as_str(r)->len);
    val_unref(r);
    return true;
}

static bool builtin_format_str(builtin_fmt *f, const char *s, size_t n, strbuf *out, int depth)
{
    if (depth > 2) {
        host_error(f->h, f->at, "Max string recursion exceeded");
        return false;
    }
    for (size_t i = 0; i < n;) {
        char c = s[i];
        if (c == '}') {
            if (i + 1 < n && s[i + 1] == '}') {
                strbuf_putc(out, '}');
                i += 2;
                continue;
            }
            host_error(f->h, f->at, "Single '}' encountered in format string");
            return false;
        }
        if (c != '{') {
            strbuf_putc(out, c);
            i++;
            continue;
        }
        if (i + 1 < n && s[i + 1] == '{') {
            strbuf_putc(out, '{');
            i += 2;
            continue;
        }
        /* Find the matching '}', counting nested braces. */
        size_t j = i + 1;
        int level = 1;
        while (j < n && level) {
            if (s[j] == '{')
                level++;
            else if (s[j] == '}')
                level--;
            if (level)
                j++;
        }
        if (j >= n) {
            host_error(f->h, f->at, i + 1 >= n ? "Single '{' encountered in format string"
                                              : "expected '}' before end of string");
            return false;
        }
        if (!builtin_format_field(f, s + i + 1, j - i - 1, out, depth))
            return false;
        i = j + 1;
    }
    return true;
}

BUILTIN_FN(builtin_str_format)
{
    builtin_fmt f = {h, argc, argv, kw, 0, false, at};
    strbuf b = {0};
    if (!builtin_format_str(&f, STR_SELF->s, STR_SELF->len, &b, 0)) {
        strbuf_free(&b);
        return val_err();
    }
    return val_str_from_buf(&b);
}

/* ---- printf-style % ------------------------------------------------------------------- */

/* One %-conversion of v: flags, width, precision and type as parsed. */
static bool builtin_percent_one(host *h, val v, const char *flags, int64_t width,
                                int64_t prec, char type, strbuf *out, src_span at)
{
    pyformat_spec sp;
    memset(&sp, 0, sizeof sp);
    sp.width = width;
    sp.precision = -1;
    bool left = strchr(flags, '-') != NULL;
    sp.align = left ? '<' : '>';
    strcpy(sp.fill, " ");
    if (strchr(flags, '+'))
        sp.sign = '+';
    else if (strchr(flags, ' '))
        sp.sign = ' ';
    sp.alt = strchr(flags, '#') != NULL;
    bool zero = strchr(flags, '0') && !left;
    char err[200];
    bool ok = true;
    strbuf b = {0};
    switch (type) {
    case 's':
    case 'r':
    case 'a': {
        val t = type == 's' ? host_str(h, v) : host_repr(h, v);
        if (t.kind == VAL_ERR)
            return false;
        sp.sign = 0;
        sp.alt = false;
        sp.precision = prec;
        ok = pyformat_str(&b, val_as_str(t)->s, val_as_str(t)->len, &sp, err, sizeof err);
        val_unref(t);
        break;
    }
    case 'c': {
        int64_t c;
        if (v.kind == VAL_STR && val_str_chars(val_as_str(v)) == 1) {
            strbuf_putn(&b, val_as_str(v)->s, val_as_str(v)->len);
            break;
        }
        if (!builtin_is_int(v)) {
            host_raise(h, HOST_EXC_TYPE, at, "%%c requires an int or a unicode character, not %s",
                       val_type_name(v));
            return false;
        }
        c = builtin_int_of(v);
        if (c < 0 || c > 0x10FFFF) {
            host_raise(h, HOST_EXC_OVERFLOW, at, "%%c arg not in range(0x110000)");
            return false;
        }
        builtin_put_utf8(&b, (uint32_t)c);
        break;
    }
    case 'd': case 'i': case 'u': case 'o': case 'x': case 'X': {
        int64_t i;
        if (builtin_is_int(v))
            i = builtin_int_of(v);
        else if (v.kind == VAL_FLOAT && (type == 'd' || type == 'i' || type == 'u')) {
            val iv = builtin_float_to_int(h, v.u.f, at);
            if (iv.kind == VAL_ERR)
                return false;
            i = iv.u.i;
        } else {
            host_raise(h, HOST_EXC_TYPE, at, "%%%c format: %s is required, not %s", type,
                       type == 'd' || type == 'i' || type == 'u' ? "a real number"
                                                                 : "an integer",
                       val_type_name(v));
            return false;
        }
        sp.type = type == 'i' || type == 'u' ? 'd' : type;
        /* A precision is a minimum number of digits. */
        if (prec > 0) {
            pyformat_spec d = sp;
            d.width = -1;
            d.sign = 0;
            d.alt = false;
            strbuf digits = {0};
            pyformat_int(&digits, i < 0 ? -i : i, &d, err, sizeof err);
            strbuf num = {0};
            if (i < 0)
                strbuf_putc(&num, '-');
            else if (sp.sign)
                strbuf_putc(&num, sp.sign);
            if (sp.alt && type != 'd' && type != 'i' && type != 'u')
                strbuf_puts(&num, type == 'o' ? "0o" : type == 'x' ? "0x" : "0X");
            for (int64_t k = (int64_t)digits.len; k < prec; k++)
                strbuf_putc(&num, '0');
            strbuf_putn(&num, digits.data, digits.len);
            strbuf_free(&digits);
            pyformat_spec pad = sp;
            pad.sign = 0;
            pad.alt = false;
            pad.type = 0;
            ok = pyformat_str(&b, num.data, num.len, &pad, err, sizeof err);
            strbuf_free(&num);
            break;
        }
        if (zero) {
            strcpy(sp.fill, "0");
            sp.align = '=';
        }
        ok = pyformat_int(&b, i, &sp, err, sizeof err);
        break;
    }
    case 'e': case 'E': case 'f': case 'F': case 'g': case 'G': {
        if (!builtin_is_num(v)) {
            host_raise(h, HOST_EXC_TYPE, at, "must be real number, not %s", val_type_name(v));
            return false;
        }
        sp.type = type;
        sp.precision = prec < 0 ? 6 : prec;
        if (zero) {
            strcpy(sp.fill, "0");
            sp.align = '=';
        }
        ok = pyformat_float(&b, builtin_float_of(v), &sp, err, sizeof err);
        break;
    }
    default:
        if (type > ' ' && type < 127)
            host_raise(h, HOST_EXC_VALUE, at,
                       "unsupported format character '%c' (0x%x)", type, type);
        else
            host_raise(h, HOST_EXC_VALUE, at, "incomplete format");
        return false;
    }
    if (!ok) {
        strbuf_free(&b);
        host_raise(h, HOST_EXC_VALUE, at, "%s", err);
        return false;
    }
    strbuf_putn(out, strbuf_cstr(&b), b.len);
    strbuf_free(&b);
    return true;
}

val builtin_percent_format(host *h, val fmt, val args, src_span at)
{
    const val_str *s = val_as_str(fmt);
    const val *items = &args;
    size_t nitems = 1, next = 0;
    if (args.kind == VAL_TUPLE) {
        items = val_as_seq(args)->items;
        nitems = val_as_seq(args)->len;
    }
    bool mapping = args.kind == VAL_DICT;
    strbuf b = {0};
    for (size_t i = 0; i < s->len;) {
        char c = s->s[i];
        if (c != '%') {
            strbuf_putc(&b, c);
            i++;
            continue;
        }
        i++;
        val v = val_missing();
        if (i < s->len && s->s[i] == '(') {
            size_t j = ++i;
            int level = 1;
            while (i < s->len && level) {
                if (s->s[i] == '(')
                    level++;
                else if (s->s[i] == ')')
                    level--;
                i++;
            }
            if (level) {
                strbuf_free(&b);
                return host_raise(h, HOST_EXC_VALUE, at, "incomplete format key");
            }
            if (!mapping) {
                strbuf_free(&b);
                return host_raise(h, HOST_EXC_TYPE, at, "format requires a mapping");
            }
            val key = val_str_new(s->s + j, i - 1 - j);
            v = val_dict_get(args, key);
            if (v.kind == VAL_MISSING) {
                host_raise(h, HOST_EXC_KEY, at, "KeyError: '%s'", val_as_str(key)->s);
                val_unref(key);
                strbuf_free(&b);
                return val_err();
            }
            val_unref(key);
        }
        char flags[8] = "";
        size_t nf = 0;
        while (i < s->len && strchr("-+ #0", s->s[i])) {
            if (nf < sizeof flags - 1)
                flags[nf++] = s->s[i];
            i++;
        }
        flags[nf] = '\0';
        int64_t width = -1, prec = -1;
        for (int part = 0; part < 2; part++) {
            int64_t *dst = part ? &prec : &width;
            if (part) {
                if (i >= s->len || s->s[i] != '.')
                    break;
                i++;
                prec = 0;
            }
            if (i < s->len && s->s[i] == '*') {
                i++;
                if (next >= nitems || mapping) {
                    strbuf_free(&b);
                    return host_raise(h, HOST_EXC_TYPE, at,
                                      "not enough arguments for format string");
                }
                if (!host_to_int(h, items[next++], at, "* wants int", dst)) {
                    strbuf_free(&b);
                    return val_err();
                }
                if (*dst > 100000000) {
                    strbuf_free(&b);
                    return host_raise(h, HOST_EXC_VALUE, at, "width too big");
                }
                continue;
            }
            while (i < s->len && isdigit((unsigned char)s->s[i])) {
                *dst = (*dst < 0 ? 0 : *dst) * 10 + (s->s[i++] - '0');
                if (*dst > 100000000) {
                    strbuf_free(&b);
                    return host_raise(h, HOST_EXC_VALUE, at, "width too big");
                }
            }
        }
        while (i < s->len && strchr("hlL", s->s[i]))
            i++;
        if (i >= s->len) {
            strbuf_free(&b);
            return host_raise(h, HOST_EXC_VALUE, at, "incomplete format");
        }
        char type = s->s[i++];
        if (type == '%') {
            strbuf_putc(&b, '%');
            continue;
        }
        if (v.kind == VAL_MISSING) {
            if (mapping && nitems == 1)
                v = args;
            else if (next >= nitems) {
                strbuf_free(&b);
                return host_raise(h, HOST_EXC_TYPE, at, "not enough arguments for format string");
            } else
                v = items[next++];
        }
        if (!builtin_percent_one(h, v, flags, width, prec, type, &b, at)) {
            strbuf_free(&b);
            return val_err();
        }
    }
    /* As CPython: an unused argument is an error unless it could be a
     * mapping (anything with __getitem__ but a tuple or str counts). */
    const val_type *at_type = val_type_of(args);
    bool has_getitem = args.kind == VAL_LIST || args.kind == VAL_RANGE ||
                       (at_type && at_type->getitem);
    if (!mapping && !has_getitem && next < nitems) {
        strbuf_free(&b);
        return host_raise(h, HOST_EXC_TYPE, at,
                          "not all arguments converted during string formatting");
    }
    return val_str_from_buf(&b);
}

/* ---- list methods ------------------------------------------------------------------------ */

BUILTIN_FN(builtin_list_append)
{
    if (!builtin_nargs(h, "append", argc, kw, 1, 1, at))
        return val_err();
    val_list_push(self, val_ref(argv[0]));
    return val_none();
}

BUILTIN_FN(builtin_list_extend)
{
    if (!builtin_nargs(h, "extend", argc, kw, 1, 1, at))
        return val_err();
    val items = host_to_list(h, argv[0], at);
    if (items.kind == VAL_ERR)
        return items;
    for (size_t i = 0; i < val_as_seq(items)->len; i++)
        val_list_push(self, val_ref(val_as_seq(items)->items[i]));
    val_unref(items);
    return val_none();
}

BUILTIN_FN(builtin_list_insert)
{
    int64_t i;
    if (!builtin_nargs(h, "insert", argc, kw, 2, 2, at) ||
        !host_to_int(h, argv[0], at, "insert() index", &i))
        return val_err();
    int64_t n = (int64_t)val_as_seq(self)->len;
    if (i < 0)
        i = i + n < 0 ? 0 : i + n;
    if (i > n)
        i = n;
    val_list_insert(self, (size_t)i, val_ref(argv[1]));
    return val_none();
}

BUILTIN_FN(builtin_list_pop)
{
    int64_t i = -1;
    if (!builtin_nargs(h, "pop", argc, kw, 0, 1, at) ||
        (argc == 1 && !host_to_int(h, argv[0], at, "pop() index", &i)))
        return val_err();
    int64_t n = (int64_t)val_as_seq(self)->len;
    if (n == 0)
        return host_raise(h, HOST_EXC_INDEX, at, "IndexError: pop from empty list");
    int64_t j = i < 0 ? i + n : i;
    if (j < 0 || j >= n)
        return host_raise(h, HOST_EXC_INDEX, at,
                          "IndexError: pop index %lld out of range (the list has %lld "
                          "items)", (long long)i, (long long)n);
    return val_list_remove(self, (size_t)j);
}

/* Index of the first item equal to x in s[lo..hi), or -1; -2 on error. */
static int64_t builtin_seq_find(host *h, const val_seq *s, val x, int64_t lo, int64_t hi,
                                src_span at)
{
    for (int64_t i = lo; i < hi && (size_t)i < s->len; i++) {
        val e = host_binop(h, AST_OP_EQ, s->items[i], x, at);
        int t = e.kind == VAL_ERR ? -1 : host_truth(h, e, at);
        val_unref(e);
        if (t < 0)
            return -2;
        if (t)
            return i;
    }
    return -1;
}

BUILTIN_FN(builtin_seq_index)
{
    if (!builtin_nargs(h, "index", argc, kw, 1, 3, at))
        return val_err();
    const val_seq *s = val_as_seq(self);
    int64_t n = (int64_t)s->len, lo = 0, hi = n;
    for (int k = 1; k < argc; k++) {
        int64_t v;
        if (!host_to_int(h, argv[k], at, "index() bound", &v))
            return val_err();
        if (v < 0)
            v = v + n < 0 ? 0 : v + n;
        if (k == 1)
            lo = v;
        else
            hi = v;
    }
    int64_t i = builtin_seq_find(h, s, argv[0], lo, hi, at);
    if (i == -2)
        return val_err();
    if (i < 0) {
        val r = host_repr(h, argv[0]);
        host_raise(h, HOST_EXC_VALUE, at, "ValueError: %s is not in %s", val_as_str(r)->s,
                   val_type_name(self));
        val_unref(r);
        return val_err();
    }
    return val_int(i);
}

BUILTIN_FN(builtin_seq_count)
{
    if (!builtin_nargs(h, "count", argc, kw, 1, 1, at))
        return val_err();
    const val_seq *s = val_as_seq(self);
    int64_t n = 0;
    for (size_t i = 0; i < s->len; i++) {
        val e = host_binop(h, AST_OP_EQ, s->items[i], argv[0], at);
        int t = e.kind == VAL_ERR ? -1 : host_truth(h, e, at);
        val_unref(e);
        if (t < 0)
            return val_err();
        n += t;
    }
    return val_int(n);
}

BUILTIN_FN(builtin_list_remove)
{
    if (!builtin_nargs(h, "remove", argc, kw, 1, 1, at))
        return val_err();
    const val_seq *s = val_as_seq(self);
    int64_t i = builtin_seq_find(h, s, argv[0], 0, (int64_t)s->len, at);
    if (i == -2)
        return val_err();
    if (i < 0) {
        val r = host_repr(h, argv[0]);
        host_raise(h, HOST_EXC_VALUE, at, "ValueError: list.remove(x): x not in list (x is %s)",
                   val_as_str(r)->s);
        val_unref(r);
        return val_err();
    }
    val_unref(val_list_remove(self, (size_t)i));
    return val_none();
}

BUILTIN_FN(builtin_list_sort)
{
    val a[2];
    if (!host_args(h, at, "sort", "*, key=, reverse=", argc, argv, kw, a))
        return val_err();
    int rev = 0;
    if (a[1].kind != VAL_MISSING && (rev = host_truth(h, a[1], at)) < 0)
        return val_err();
    return builtin_sort_list(h, self, a[0], rev, at) ? val_none() : val_err();
}

BUILTIN_FN(builtin_list_reverse)
{
    (void)argv;
    if (!builtin_nargs(h, "reverse", argc, kw, 0, 0, at))
        return val_err();
    val_seq *s = val_as_seq(self);
    for (size_t i = 0; i < s->len / 2; i++) {
        val t = s->items[i];
        s->items[i] = s->items[s->len - 1 - i];
        s->items[s->len - 1 - i] = t;
    }
    return val_none();
}

BUILTIN_FN(builtin_list_copy)
{
    (void)argv;
    if (!builtin_nargs(h, "copy", argc, kw, 0, 0, at))
        return val_err();
    return host_to_list(h, self, at);
}

BUILTIN_FN(builtin_list_clear)
{
    (void)argv;
    if (!builtin_nargs(h, "clear", argc, kw, 0, 0, at))
        return val_err();
    val_seq *s = val_as_seq(self);
    while (s->len)
        val_unref(val_list_remove(self, s->len - 1));
    return val_none();
}

/* ---- dict methods and views ------------------------------------------------------------- */

/* d.keys(), d.values(), d.items(): live views of the dict. */
typedef struct builtin_view {
    val_object o;
    val dict;
    int what;   /* 0 keys, 1 values, 2 items */
} builtin_view;

static const char *const builtin_view_names[] = {"dict_keys", "dict_values", "dict_items"};

static void builtin_view_free(val_obj *o)
{
    val_unref(((builtin_view *)o)->dict);
}

static val builtin_view_list(const builtin_view *v)
{
    val l = val_list_new(val_as_dict(v->dict)->len);
    size_t pos = 0;
    val k, x;
    while (val_dict_next(v->dict, &pos, &k, &x)) {
        if (v->what == 0)
            val_list_push(l, val_ref(k));
        else if (v->what == 1)
            val_list_push(l, val_ref(x));
        else {
            val p[2] = {val_ref(k), val_ref(x)};
            val_list_push(l, val_tuple_of(2, p));
        }
    }
    return l;
}

static val builtin_view_iter(host *h, val self, src_span at)
{
    (void)h;
    (void)at;
    return builtin_view_list((const builtin_view *)self.u.o);
}

static int64_t builtin_view_len(host *h, val self, src_span at)
{
    (void)h;
    (void)at;
    return (int64_t)val_as_dict(((const builtin_view *)self.u.o)->dict)->len;
}

static void builtin_view_repr(host *h, val self, strbuf *out)
{
    const builtin_view *v = (const builtin_view *)self.u.o;
    val l = builtin_view_list(v);
    strbuf_printf(out, "%s(", builtin_view_names[v->what]);
    val_print_repr(h, l, out);
    strbuf_putc(out, ')');
    val_unref(l);
}

static val builtin_view_binop(host *h, ast_op op, bool inplace, val a, val b, src_span at)
{
    (void)inplace;
    if (op != AST_OP_IN)
        return val_missing();
    const builtin_view *v = (const builtin_view *)b.u.o;
    if (v->what == 0) {
        if (!val_hashable(a))
            return host_raise(h, HOST_EXC_TYPE, at, "unhashable type: '%s'", val_type_name(a));
        return val_bool(val_dict_get(v->dict, a).kind != VAL_MISSING);
    }
    val l = builtin_view_list(v);
    val r = host_binop(h, AST_OP_IN, a, l, at);
    val_unref(l);
    return r;
}

static const val_type builtin_view_type = {
    .name = "dict_view",
    .binop = builtin_view_binop,
    .len = builtin_view_len,
    .iter = builtin_view_iter,
    .repr = builtin_view_repr,
    .free = builtin_view_free,
};

static val builtin_view_new(val dict, int what)
{
    builtin_view *v = val_obj_new(sizeof *v, VAL_OBJECT, &builtin_view_type);
    v->dict = val_ref(dict);
    v->what = what;
    return val_of(v);
}

/* dict.keys(), .values() and .items(): no arguments, a live view. */
static val builtin_dict_view(host *h, val self, int argc, const val *argv,
                             const val_kwargs *kw, src_span at, const char *name, int what)
{
    (void)argv;
    if (!builtin_nargs(h, name, argc, kw, 0, 0, at))
        return val_err();
    return builtin_view_new(self, what);
}

HOST_CFUNC_CALLING(builtin_dict_keys, builtin_dict_view, "keys", 0)
HOST_CFUNC_CALLING(builtin_dict_values, builtin_dict_view, "values", 1)
HOST_CFUNC_CALLING(builtin_dict_items, builtin_dict_view, "items", 2)

static bool builtin_check_key(host *h, val k, src_span at)
{
    if (val_hashable(k))
        return true;
    host_raise(h, HOST_EXC_TYPE, at, "unhashable type: '%s'", val_type_name(k));
    return false;
}

BUILTIN_FN(builtin_dict_get)
{
    if (!builtin_nargs(h, "get", argc, kw, 1, 2, at) || !builtin_check_key(h, argv[0], at))
        return val_err();
    val v = val_dict_get(self, argv[0]);
    if (v.kind != VAL_MISSING)
        return val_ref(v);
    return argc == 2 ? val_ref(argv[1]) : val_none();
}

BUILTIN_FN(builtin_dict_pop)
{
    if (!builtin_nargs(h, "pop", argc, kw, 1, 2, at) || !builtin_check_key(h, argv[0], at))
        return val_err();
    val v = val_dict_pop(self, argv[0]);
    if (v.kind != VAL_MISSING)
        return v;
    if (argc == 2)
        return val_ref(argv[1]);
    val r = host_repr(h, argv[0]);
    host_raise(h, HOST_EXC_KEY, at, "KeyError: %s", val_as_str(r)->s);
    val_unref(r);
    return val_err();
}

BUILTIN_FN(builtin_dict_popitem)
{
    (void)argv;
    if (!builtin_nargs(h, "popitem", argc, kw, 0, 0, at))
        return val_err();
    val_dict *d = val_as_dict(self);
    for (size_t i = d->nentries; i-- > 0;) {
        if (d->entries[i].key.kind == VAL_MISSING)
            continue;
        val k = val_ref(d->entries[i].key);
        val v = val_dict_pop(self, k);
        val p[2] = {k, v};
        return val_tuple_of(2, p);
    }
    return host_raise(h, HOST_EXC_KEY, at, "KeyError: 'popitem(): dictionary is empty'");
}

BUILTIN_FN(builtin_dict_setdefault)
{
    if (!builtin_nargs(h, "setdefault", argc, kw, 1, 2, at) ||
        !builtin_check_key(h, argv[0], at))
        return val_err();
    val v = val_dict_get(self, argv[0]);
    if (v.kind != VAL_MISSING)
        return val_ref(v);
    val d = argc == 2 ? argv[1] : val_none();
    val_dict_set(self, val_ref(argv[0]), val_ref(d));
    return val_ref(d);
}

BUILTIN_FN(builtin_dict_update)
{
    if (argc > 1)
        return host_raise(h, HOST_EXC_TYPE, at, "update expected at most 1 argument, got %d", argc);
    if (argc == 1 && !builtin_dict_merge(h, self, argv[0], at))
        return val_err();
    for (int i = 0; kw && i < kw->n; i++)
        val_dict_set_str(self, kw->names[i], val_ref(kw->values[i]));
    return val_none();
}

BUILTIN_FN(builtin_dict_copy)
{
    (void)argv;
    if (!builtin_nargs(h, "copy", argc, kw, 0, 0, at))
        return val_err();
    val d = val_dict_new();
    size_t pos = 0;
    val k, v;
    while (val_dict_next(self, &pos, &k, &v))
        val_dict_set(d, val_ref(k), val_ref(v));
    return d;
}

BUILTIN_FN(builtin_dict_clear)
{
    (void)argv;
    if (!builtin_nargs(h, "clear", argc, kw, 0, 0, at))
        return val_err();
    val_dict_clear(self);
    return val_none();
}

/* ---- range methods ------------------------------------------------------------------- */

/* The position of x in range r, or -1. */
static int64_t builtin_range_find(const val_range *r, val x)
{
    int64_t i;
    if (builtin_is_int(x))
        i = builtin_int_of(x);
    else if (x.kind == VAL_FLOAT && x.u.f == trunc(x.u.f) && fabs(x.u.f) < 9.2e18)
        i = (int64_t)x.u.f;
    else
        return -1;
    if (r->step > 0 ? (i < r->start || i >= r->stop) : (i > r->start || i <= r->stop))
        return -1;
    uint64_t off = (uint64_t)i - (uint64_t)r->start;
    uint64_t st = r->step > 0 ? (uint64_t)r->step : -(uint64_t)r->step;
    if (r->step < 0)
        off = -off;
    return off % st == 0 ? (int64_t)(off / st) : -1;
}

BUILTIN_FN(builtin_range_count)
{
    if (!builtin_nargs(h, "count", argc, kw, 1, 1, at))
        return val_err();
    return val_int(builtin_range_find((const val_range *)self.u.o, argv[0]) >= 0);
}

BUILTIN_FN(builtin_range_index)
{
    if (!builtin_nargs(h, "index", argc, kw, 1, 1, at))
        return val_err();
    int64_t i = builtin_range_find((const val_range *)self.u.o, argv[0]);
    if (i < 0) {
        val r = host_repr(h, argv[0]);
        host_raise(h, HOST_EXC_VALUE, at, "ValueError: %s is not in range", val_as_str(r)->s);
        val_unref(r);
        return val_err();
    }
    return val_int(i);
}

/* ---- int and float methods ----------------------------------------------------------- */

BUILTIN_FN(builtin_int_bit_length)
{
    (void)argv;
    if (!builtin_nargs(h, "bit_length", argc, kw, 0, 0, at))
        return val_err();
    int64_t i = builtin_int_of(self);
    uint64_t u = i < 0 ? -(uint64_t)i : (uint64_t)i;
    int n = 0;
    while (u) {
        n++;
        u >>= 1;
    }
    return val_int(n);
}

BUILTIN_FN(builtin_int_conjugate)
{
    (void)argv;
    if (!builtin_nargs(h, "conjugate", argc, kw, 0, 0, at))
        return val_err();
    return self.kind == VAL_FLOAT ? self : val_int(builtin_int_of(self));
}

BUILTIN_FN(builtin_float_is_integer)
{
    (void)argv;
    if (!builtin_nargs(h, "is_integer", argc, kw, 0, 0, at))
        return val_err();
    double f = self.kind == VAL_FLOAT ? self.u.f : (double)builtin_int_of(self);
    return val_bool(isfinite(f) && f == floor(f));
}

/* ---- method tables ---------------------------------------------------------------------- */

#define M(kind, tname, name, fn) {#name, tname "." #name, fn, kind}

static const host_method builtin_str_methods[] = {
    M(VAL_STR, "str", format, builtin_str_format),
    M(VAL_STR, "str", join, builtin_str_join),
    M(VAL_STR, "str", split, builtin_str_split),
    M(VAL_STR, "str", rsplit, builtin_str_rsplit),
    M(VAL_STR, "str", splitlines, builtin_str_splitlines),
    M(VAL_STR, "str", strip, builtin_str_strip),
    M(VAL_STR, "str", lstrip, builtin_str_lstrip),
    M(VAL_STR, "str", rstrip, builtin_str_rstrip),
    M(VAL_STR, "str", replace, builtin_str_replace),
    M(VAL_STR, "str", startswith, builtin_str_startswith),
    M(VAL_STR, "str", endswith, builtin_str_endswith),
    M(VAL_STR, "str", upper, builtin_str_upper),
    M(VAL_STR, "str", lower, builtin_str_lower),
    M(VAL_STR, "str", casefold, builtin_str_lower),
    M(VAL_STR, "str", title, builtin_str_title),
    M(VAL_STR, "str", capitalize, builtin_str_capitalize),
    M(VAL_STR, "str", swapcase, builtin_str_swapcase),
    M(VAL_STR, "str", find, builtin_str_find),
    M(VAL_STR, "str", rfind, builtin_str_rfind),
    M(VAL_STR, "str", index, builtin_str_index),
    M(VAL_STR, "str", rindex, builtin_str_rindex),
    M(VAL_STR, "str", count, builtin_str_count),
    M(VAL_STR, "str", ljust, builtin_str_ljust),
    M(VAL_STR, "str", rjust, builtin_str_rjust),
    M(VAL_STR, "str", center, builtin_str_center),
    M(VAL_STR, "str", zfill, builtin_str_zfill),
    M(VAL_STR, "str", isdigit, builtin_str_isdigit),
    M(VAL_STR, "str", isdecimal, builtin_str_isdigit),
    M(VAL_STR, "str", isnumeric, builtin_str_isdigit),
    M(VAL_STR, "str", isalpha, builtin_str_isalpha),
    M(VAL_STR, "str", isalnum, builtin_str_isalnum),
    M(VAL_STR, "str", isspace, builtin_str_isspace),
    M(VAL_STR, "str", isupper, builtin_str_isupper),
    M(VAL_STR, "str", islower, builtin_str_islower),
    M(VAL_STR, "str", isidentifier, builtin_str_isidentifier),
    M(VAL_STR, "str", partition, builtin_str_partition),
    M(VAL_STR, "str", rpartition, builtin_str_rpartition),
    M(VAL_STR, "str", removeprefix, builtin_str_removeprefix),
    M(VAL_STR, "str", removesuffix, builtin_str_removesuffix),
    M(VAL_STR, "str", expandtabs, builtin_str_expandtabs),
    {NULL, NULL, NULL, VAL_ERR},
};

static const host_method builtin_list_methods[] = {
    M(VAL_LIST, "list", append, builtin_list_append),
    M(VAL_LIST, "list", extend, builtin_list_extend),
    M(VAL_LIST, "list", insert, builtin_list_insert),
    M(VAL_LIST, "list", pop, builtin_list_pop),
    M(VAL_LIST, "list", index, builtin_seq_index),
    M(VAL_LIST, "list", count, builtin_seq_count),
    M(VAL_LIST, "list", remove, builtin_list_remove),
    M(VAL_LIST, "list", sort, builtin_list_sort),
    M(VAL_LIST, "list", reverse, builtin_list_reverse),
    M(VAL_LIST, "list", copy, builtin_list_copy),
    M(VAL_LIST, "list", clear, builtin_list_clear),
    {NULL, NULL, NULL, VAL_ERR},
};

static const host_method builtin_tuple_methods[] = {
    M(VAL_TUPLE, "tuple", index, builtin_seq_index),
    M(VAL_TUPLE, "tuple", count, builtin_seq_count),
    {NULL, NULL, NULL, VAL_ERR},
};

static const host_method builtin_dict_methods[] = {
    M(VAL_DICT, "dict", get, builtin_dict_get),
    M(VAL_DICT, "dict", items, builtin_dict_items),
    M(VAL_DICT, "dict", keys, builtin_dict_keys),
    M(VAL_DICT, "dict", values, builtin_dict_values),
    M(VAL_DICT, "dict", pop, builtin_dict_pop),
    M(VAL_DICT, "dict", popitem, builtin_dict_popitem),
    M(VAL_DICT, "dict", update, builtin_dict_update),
    M(VAL_DICT, "dict", setdefault, builtin_dict_setdefault),
    M(VAL_DICT, "dict", copy, builtin_dict_copy),
    M(VAL_DICT, "dict", clear, builtin_dict_clear),
    {NULL, NULL, NULL, VAL_ERR},
};

static const host_method builtin_range_methods[] = {
    M(VAL_RANGE, "range", count, builtin_range_count),
    M(VAL_RANGE, "range", index, builtin_range_index),
    {NULL, NULL, NULL, VAL_ERR},
};

static const host_method builtin_int_methods[] = {
    M(VAL_INT, "int", bit_length, builtin_int_bit_length),
    M(VAL_INT, "int", conjugate, builtin_int_conjugate),
    {NULL, NULL, NULL, VAL_ERR},
};

static const host_method builtin_float_methods[] = {
    M(VAL_FLOAT, "float", is_integer, builtin_float_is_integer),
    M(VAL_FLOAT, "float", conjugate, builtin_int_conjugate),
    {NULL, NULL, NULL, VAL_ERR},
};

#undef M

static const host_method *builtin_methods_of(val_kind kind)
{
    switch (kind) {
    case VAL_STR: return builtin_str_methods;
    case VAL_LIST: return builtin_list_methods;
    case VAL_TUPLE: return builtin_tuple_methods;
    case VAL_DICT: return builtin_dict_methods;
    case VAL_RANGE: return builtin_range_methods;
    case VAL_INT:
    case VAL_BOOL: return builtin_int_methods;
    case VAL_FLOAT: return builtin_float_methods;
    default: return NULL;
    }
}

const host_method *builtin_method(val_kind kind, const char *name)
{
    const host_method *m = builtin_methods_of(kind);
    for (; m && m->name; m++)
        if (!strcmp(m->name, name))
            return m;
    return NULL;
}

void builtin_suggest_methods(val_kind kind, host_suggest *s)
{
    const host_method *m = builtin_methods_of(kind);
    for (; m && m->name; m++)
        host_suggest_add(s, m->name);
}

/* ---- math ------------------------------------------------------------------------------ */

static bool builtin_math_arg(host *h, const char *fname, int argc, const val *argv,
                             const val_kwargs *kw, int n, double *out, src_span at)
{
    if (!builtin_nargs(h, fname, argc, kw, n, n, at))
        return false;
    for (int i = 0; i < n; i++) {
        if (!builtin_is_num(argv[i])) {
            host_raise(h, HOST_EXC_TYPE, at,
                       "%s() must be called with a real number, not '%s'", fname,
                       val_type_name(argv[i]));
            return false;
        }
        out[i] = builtin_float_of(argv[i]);
    }
    return true;
}

/* A float result, with CPython's domain and range errors. */
static val builtin_math_result(host *h, double r, double x, src_span at)
{
    if (isnan(r) && !isnan(x))
        return host_raise(h, HOST_EXC_VALUE, at, "ValueError: math domain error");
    if (isinf(r) && isfinite(x))
        return host_raise(h, HOST_EXC_OVERFLOW, at, "OverflowError: math range error");
    return val_float(r);
}

#define MATH1(name, expr) \
    BUILTIN_FN(builtin_math_##name) \
    { \
        (void)self; \
        double x; \
        if (!builtin_math_arg(h, #name, argc, argv, kw, 1, &x, at)) \
            return val_err(); \
        return builtin_math_result(h, (expr), x, at); \
    }

MATH1(exp, exp(x))
MATH1(expm1, expm1(x))
MATH1(sin, sin(x))
MATH1(cos, cos(x))
MATH1(tan, tan(x))
MATH1(asin, asin(x))
MATH1(acos, acos(x))
MATH1(atan, atan(x))
MATH1(sinh, sinh(x))
MATH1(cosh, cosh(x))
MATH1(tanh, tanh(x))
MATH1(asinh, asinh(x))
MATH1(acosh, acosh(x))
MATH1(atanh, fabs(x) >= 1 ? NAN : atanh(x))
MATH1(erf, erf(x))
MATH1(erfc, erfc(x))
MATH1(fabs, fabs(x))
MATH1(degrees, x * (180.0 / M_PI))
MATH1(radians, x * (M_PI / 180.0))
MATH1(sqrt, x < 0 ? NAN : sqrt(x))
MATH1(log2, x <= 0 ? NAN : log2(x))
MATH1(log10, x <= 0 ? NAN : log10(x))
MATH1(log1p, x <= -1 ? NAN : log1p(x))
MATH1(gamma, (x <= 0 && x == floor(x)) ? NAN : tgamma(x))
MATH1(lgamma, (x <= 0 && x == floor(x)) ? INFINITY : lgamma(x))

BUILTIN_FN(builtin_math_log)
{
    (void)self;
    if (!builtin_nargs(h, "log", argc, kw, 1, 2, at))
        return val_err();
    double x[2];
    for (int i = 0; i < argc; i++) {
        if (!builtin_is_num(argv[i]))
            return host_raise(h, HOST_EXC_TYPE, at,
                              "log() must be called with a real number, not '%s'",
                              val_type_name(argv[i]));
        x[i] = builtin_float_of(argv[i]);
        if (x[i] <= 0)
            return host_raise(h, HOST_EXC_VALUE, at, "ValueError: math domain error");
    }
    if (argc == 1)
        return val_float(log(x[0]));
    if (x[1] == 1)
        return host_raise(h, HOST_EXC_ZERO_DIVISION, at,
                          "ZeroDivisionError: float division by zero");
    return val_float(log(x[0]) / log(x[1]));
}

static val builtin_math_round(host *h, val self, int argc, const val *argv,
                              const val_kwargs *kw, src_span at, const char *name,
                              double (*fn)(double))
{
    (void)self;
    if (!builtin_nargs(h, name, argc, kw, 1, 1, at))
        return val_err();
    if (builtin_is_int(argv[0]))
        return val_int(builtin_int_of(argv[0]));
    if (argv[0].kind != VAL_FLOAT) {
        val r = builtin_dunder(h, argv[0], !strcmp(name, "floor") ? "__floor__"
                               : !strcmp(name, "ceil") ? "__ceil__" : "__trunc__", 0, NULL, at);
        if (r.kind != VAL_MISSING)
            return r;
        return host_raise(h, HOST_EXC_TYPE, at,
                          "%s() must be called with a real number, not '%s'", name,
                          val_type_name(argv[0]));
    }
    return builtin_float_to_int(h, fn(argv[0].u.f), at);
}

HOST_CFUNC_CALLING(builtin_math_floor, builtin_math_round, "floor", floor)
HOST_CFUNC_CALLING(builtin_math_ceil, builtin_math_round, "ceil", ceil)
HOST_CFUNC_CALLING(builtin_math_trunc, builtin_math_round, "trunc", trunc)

#define MATH2(name, expr) \
    BUILTIN_FN(builtin_math_##name) \
    { \
        (void)self; \
        double x[2]; \
        if (!builtin_math_arg(h, #name, argc, argv, kw, 2, x, at)) \
            return val_err(); \
        return builtin_math_result(h, (expr), x[0] + x[1], at); \
    }

MATH2(atan2, atan2(x[0], x[1]))
MATH2(copysign, copysign(x[0], x[1]))
MATH2(fmod, (x[1] == 0 || isinf(x[0])) ? NAN : fmod(x[0], x[1]))
MATH2(remainder, x[1] == 0 ? NAN : remainder(x[0], x[1]))

BUILTIN_FN(builtin_math_pow)
{
    (void)self;
    double x[2];
    if (!builtin_math_arg(h, "pow", argc, argv, kw, 2, x, at))
        return val_err();
    if (x[0] == 0 && x[1] < 0)
        return host_raise(h, HOST_EXC_VALUE, at, "ValueError: math domain error");
    if (x[0] < 0 && isfinite(x[1]) && x[1] != floor(x[1]))
        return host_raise(h, HOST_EXC_VALUE, at, "ValueError: math domain error");
    double r = pow(x[0], x[1]);
    if (isinf(r) && isfinite(x[0]) && isfinite(x[1]))
        return host_raise(h, HOST_EXC_OVERFLOW, at, "OverflowError: math range error");
    return val_float(r);
}

BUILTIN_FN(builtin_math_hypot)
{
    (void)self;
    if (!builtin_no_kwargs(h, "hypot", kw, at))
        return val_err();
    double r = 0;
    for (int i = 0; i < argc; i++) {
        if (!builtin_is_num(argv[i]))
            return host_raise(h, HOST_EXC_TYPE, at,
                              "hypot() must be called with real numbers, not '%s'",
                              val_type_name(argv[i]));
        r = hypot(r, builtin_float_of(argv[i]));
    }
    return val_float(r);
}

BUILTIN_FN(builtin_math_isclose)
{
    (void)self;
    val a[4];
    if (!host_args(h, at, "isclose", "a, b, *, rel_tol=, abs_tol=", argc, argv, kw, a))
        return val_err();
    double x, y, rel = 1e-9, abs_tol = 0.0;
    if (!host_to_float(h, a[0], at, "isclose() a", &x) ||
        !host_to_float(h, a[1], at, "isclose() b", &y) ||
        (a[2].kind != VAL_MISSING && !host_to_float(h, a[2], at, "rel_tol", &rel)) ||
        (a[3].kind != VAL_MISSING && !host_to_float(h, a[3], at, "abs_tol", &abs_tol)))
        return val_err();
    if (rel < 0 || abs_tol < 0)
        return host_raise(h, HOST_EXC_VALUE, at, "ValueError: tolerances must be non-negative");
    if (x == y)
        return val_bool(true);
    if (isinf(x) || isinf(y))
        return val_bool(false);
    double diff = fabs(y - x);
    return val_bool(diff <= fabs(rel * y) || diff <= fabs(rel * x) || diff <= abs_tol);
}

static val builtin_math_test(host *h, val self, int argc, const val *argv,
                             const val_kwargs *kw, src_span at, const char *name, int which)
{
    (void)self;
    double x;
    if (!builtin_math_arg(h, name, argc, argv, kw, 1, &x, at))
        return val_err();
    return val_bool(which == 0 ? isnan(x) : which == 1 ? isinf(x) : isfinite(x));
}

HOST_CFUNC_CALLING(builtin_math_isnan, builtin_math_test, "isnan", 0)
HOST_CFUNC_CALLING(builtin_math_isinf, builtin_math_test, "isinf", 1)
HOST_CFUNC_CALLING(builtin_math_isfinite, builtin_math_test, "isfinite", 2)

BUILTIN_FN(builtin_math_prod)
{
    (void)self;
    val a[2];
    if (!host_args(h, at, "prod", "iterable, *, start=", argc, argv, kw, a))
        return val_err();
    val acc = a[1].kind == VAL_MISSING ? val_int(1) : val_ref(a[1]);
    return builtin_fold(h, AST_OP_MUL, acc, a[0], at);
}

static int64_t builtin_gcd2(int64_t a, int64_t b)
{
    uint64_t x = a < 0 ? -(uint64_t)a : (uint64_t)a, y = b < 0 ? -(uint64_t)b : (uint64_t)b;
    while (y) {
        uint64_t t = x % y;
        x = y;
        y = t;
    }
    return (int64_t)x;
}

BUILTIN_FN(builtin_math_gcd)
{
    (void)self;
    if (!builtin_no_kwargs(h, "gcd", kw, at))
        return val_err();
    int64_t g = 0;
    for (int i = 0; i < argc; i++) {
        int64_t v;
        if (!host_to_int(h, argv[i], at, "gcd() argument", &v))
            return val_err();
        g = builtin_gcd2(g, v);
    }
    if (g < 0)
        return host_raise(h, HOST_EXC_OVERFLOW, at, "integer overflow: tritsim's ints are 64-bit");
    return val_int(g);
}

BUILTIN_FN(builtin_math_lcm)
{
    (void)self;
    if (!builtin_no_kwargs(h, "lcm", kw, at))
        return val_err();
    int64_t l = 1;
    for (int i = 0; i < argc; i++) {
        int64_t v;
        if (!host_to_int(h, argv[i], at, "lcm() argument", &v))
            return val_err();
        if (v == 0 || l == 0) {
            l = 0;
            continue;
        }
        int64_t g = builtin_gcd2(l, v);
        int64_t r;
        if (__builtin_mul_overflow(l / g, v < 0 ? -v : v, &r))
            return host_raise(h, HOST_EXC_OVERFLOW, at,
                              "integer overflow: tritsim's ints are 64-bit");
        l = r;
    }
    return val_int(l);
}

BUILTIN_FN(builtin_math_factorial)
{
    (void)self;
    int64_t n;
    if (!builtin_nargs(h, "factorial", argc, kw, 1, 1, at) ||
        !host_to_int(h, argv[0], at, "factorial() argument", &n))
        return val_err();
    if (n < 0)
        return host_raise(h, HOST_EXC_VALUE, at,
                          "ValueError: factorial() not defined for negative values");
    int64_t r = 1;
    for (int64_t i = 2; i <= n; i++)
        if (__builtin_mul_overflow(r, i, &r))
            return host_raise(h, HOST_EXC_OVERFLOW, at,
                              "integer overflow: tritsim's ints are 64-bit");
    return val_int(r);
}

static val builtin_comb_perm(host *h, val self, int argc, const val *argv,
                             const val_kwargs *kw, src_span at, bool comb)
{
    (void)self;
    const char *name = comb ? "comb" : "perm";
    int64_t n, k;
    if (!builtin_nargs(h, name, argc, kw, comb ? 2 : 1, 2, at) ||
        !host_to_int(h, argv[0], at, "n", &n))
        return val_err();
    k = n;
    if (argc == 2 && argv[1].kind != VAL_NONE && !host_to_int(h, argv[1], at, "k", &k))
        return val_err();
    if (n < 0 || k < 0)
        return host_raise(h, HOST_EXC_VALUE, at,
                          "ValueError: n and k must be non-negative integers");
    if (k > n)
        return val_int(0);
    if (comb && k > n - k)
        k = n - k;
    __int128 r = 1;
    for (int64_t i = 0; i < k; i++) {
        r *= n - i;
        if (comb)
            r /= i + 1;
        if (r > INT64_MAX)
            return host_raise(h, HOST_EXC_OVERFLOW, at,
                              "integer overflow: tritsim's ints are 64-bit");
    }
    return val_int((int64_t)r);
}

HOST_CFUNC_CALLING(builtin_math_comb, builtin_comb_perm, true)
HOST_CFUNC_CALLING(builtin_math_perm, builtin_comb_perm, false)

BUILTIN_FN(builtin_math_isqrt)
{
    (void)self;
    int64_t n;
    if (!builtin_nargs(h, "isqrt", argc, kw, 1, 1, at) ||
        !host_to_int(h, argv[0], at, "isqrt() argument", &n))
        return val_err();
    if (n < 0)
        return host_raise(h, HOST_EXC_VALUE, at,
                          "ValueError: isqrt() argument must be nonnegative");
    int64_t r = (int64_t)sqrt((double)n);
    while (r > 0 && (__int128)r * r > n)
        r--;
    while ((__int128)(r + 1) * (r + 1) <= n)
        r++;
    return val_int(r);
}

BUILTIN_FN(builtin_math_ldexp)
{
    (void)self;
    double x;
    int64_t e;
    if (!builtin_nargs(h, "ldexp", argc, kw, 2, 2, at) ||
        !host_to_float(h, argv[0], at, "ldexp() x", &x) ||
        !host_to_int(h, argv[1], at, "ldexp() i", &e))
        return val_err();
    double r = ldexp(x, e > 100000 ? 100000 : e < -100000 ? -100000 : (int)e);
    return builtin_math_result(h, r, x, at);
}

BUILTIN_FN(builtin_math_frexp)
{
    (void)self;
    double x;
    if (!builtin_math_arg(h, "frexp", argc, argv, kw, 1, &x, at))
        return val_err();
    int e = 0;
    double m = isfinite(x) ? frexp(x, &e) : x;
    val t[2] = {val_float(m), val_int(e)};
    return val_tuple_of(2, t);
}

BUILTIN_FN(builtin_math_modf)
{
    (void)self;
    double x;
    if (!builtin_math_arg(h, "modf", argc, argv, kw, 1, &x, at))
        return val_err();
    double ip, fp = isinf(x) ? copysign(0.0, x) : modf(x, &ip);
    if (isinf(x))
        ip = x;
    val t[2] = {val_float(fp), val_float(ip)};
    return val_tuple_of(2, t);
}

/* math.fsum: exactly rounded (Shewchuk's partials, as CPython). */
BUILTIN_FN(builtin_math_fsum)
{
    (void)self;
    if (!builtin_nargs(h, "fsum", argc, kw, 1, 1, at))
        return val_err();
    val items = host_to_list(h, argv[0], at);
    if (items.kind == VAL_ERR)
        return items;
    const val_seq *s = val_as_seq(items);
    double *p = xmalloc((s->len + 1) * sizeof *p);
    size_t n = 0;
    double special = 0, inf_sum = 0;
    bool have_special = false;
    for (size_t i = 0; i < s->len; i++) {
        if (!builtin_is_num(s->items[i])) {
            free(p);
            val_unref(items);
            return host_raise(h, HOST_EXC_TYPE, at, "must be real number, not %s",
                              val_type_name(s->items[i]));
        }
        double x = builtin_float_of(s->items[i]);
        if (!isfinite(x)) {
            if (isinf(x))
                inf_sum += x;
            special += x;
            have_special = true;
            continue;
        }
        size_t k = 0;
        for (size_t j = 0; j < n; j++) {
            double y = p[j];
            if (fabs(x) < fabs(y)) {
                double t = x;
                x = y;
                y = t;
            }
            double hi = x + y, lo = y - (hi - x);
            if (lo != 0)
                p[k++] = lo;
            x = hi;
        }
        n = k;
        if (x != 0)
            p[n++] = x;
    }
    val_unref(items);
    if (have_special) {
        free(p);
        if (isnan(inf_sum))
            return host_raise(h, HOST_EXC_VALUE, at, "ValueError: -inf + inf in fsum");
        return val_float(special);
    }
    double hi = 0;
    if (n > 0) {
        hi = p[--n];
        double lo = 0;
        while (n > 0) {
            double x = hi, y = p[--n];
            hi = x + y;
            double yr = hi - x;
            lo = y - yr;
            if (lo != 0)
                break;
        }
        if (n > 0 && ((lo < 0 && p[n - 1] < 0) || (lo > 0 && p[n - 1] > 0))) {
            double y = lo * 2, x = hi + y, yr = x - hi;
            if (y == yr)
                hi = x;
        }
    }
    free(p);
    return val_float(hi);
}

static val builtin_math_module(void)
{
    val m = val_module_new("math");
    val_object_set(m, "pi", val_float(M_PI));
    val_object_set(m, "e", val_float(M_E));
    val_object_set(m, "tau", val_float(2 * M_PI));
    val_object_set(m, "inf", val_float(INFINITY));
    val_object_set(m, "nan", val_float(NAN));
    static const struct { const char *name; val_cfunc fn; } fns[] = {
        {"math.sqrt", builtin_math_sqrt}, {"math.exp", builtin_math_exp},
        {"math.expm1", builtin_math_expm1}, {"math.log", builtin_math_log},
        {"math.log2", builtin_math_log2}, {"math.log10", builtin_math_log10},
        {"math.log1p", builtin_math_log1p}, {"math.sin", builtin_math_sin},
        {"math.cos", builtin_math_cos}, {"math.tan", builtin_math_tan},
        {"math.asin", builtin_math_asin}, {"math.acos", builtin_math_acos},
        {"math.atan", builtin_math_atan}, {"math.atan2", builtin_math_atan2},
        {"math.sinh", builtin_math_sinh}, {"math.cosh", builtin_math_cosh},
        {"math.tanh", builtin_math_tanh}, {"math.asinh", builtin_math_asinh},
        {"math.acosh", builtin_math_acosh}, {"math.atanh", builtin_math_atanh},
        {"math.erf", builtin_math_erf}, {"math.erfc", builtin_math_erfc},
        {"math.gamma", builtin_math_gamma}, {"math.lgamma", builtin_math_lgamma},
        {"math.fabs", builtin_math_fabs}, {"math.floor", builtin_math_floor},
        {"math.ceil", builtin_math_ceil}, {"math.trunc", builtin_math_trunc},
        {"math.degrees", builtin_math_degrees}, {"math.radians", builtin_math_radians},
        {"math.copysign", builtin_math_copysign}, {"math.fmod", builtin_math_fmod},
        {"math.remainder", builtin_math_remainder}, {"math.pow", builtin_math_pow},
        {"math.hypot", builtin_math_hypot}, {"math.isclose", builtin_math_isclose},
        {"math.isnan", builtin_math_isnan}, {"math.isinf", builtin_math_isinf},
        {"math.isfinite", builtin_math_isfinite}, {"math.prod", builtin_math_prod},
        {"math.gcd", builtin_math_gcd}, {"math.lcm", builtin_math_lcm},
        {"math.factorial", builtin_math_factorial}, {"math.comb", builtin_math_comb},
        {"math.perm", builtin_math_perm}, {"math.isqrt", builtin_math_isqrt},
        {"math.ldexp", builtin_math_ldexp}, {"math.frexp", builtin_math_frexp},
        {"math.modf", builtin_math_modf}, {"math.fsum", builtin_math_fsum},
    };
    for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++)
        host_def(m, fns[i].name, fns[i].fn);
    return m;
}

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

static val builtin_functools_module(void)
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
    return m;
}

/* ---- itertools --------------------------------------------------------------------------- */

BUILTIN_FN(builtin_itertools_product)
{
    (void)self;
    val o[1];
    if (!host_args(h, at, "product", "*, repeat=", 0, NULL, kw, o))
        return val_err();
    int64_t repeat = 1;
    if (o[0].kind != VAL_MISSING && !host_to_int(h, o[0], at, "repeat", &repeat))
        return val_err();
    if (repeat < 0)
        return host_raise(h, HOST_EXC_VALUE, at, "ValueError: repeat argument cannot be negative");
    if ((int64_t)argc * repeat > 64)
        return host_raise(h, HOST_EXC_NOT_IMPLEMENTED, at,
                          "product() of more than 64 iterables is not supported");
    int n = (int)(argc * repeat);
    val *pools = xmalloc((size_t)(argc ? argc : 1) * sizeof *pools);
    int got = 0;
    val out = val_err();
    for (; got < argc; got++) {
        pools[got] = host_to_list(h, argv[got], at);
        if (pools[got].kind == VAL_ERR)
            goto done;
    }
    out = val_list_new(0);
    size_t idx[64] = {0}, total = 1;
    for (int k = 0; k < n; k++) {
        size_t len = val_as_seq(pools[k % (argc ? argc : 1)])->len;
        if (len && total > ((size_t)1 << 26) / len) {
            val_unref(out);
            out = host_raise(h, HOST_EXC_MEMORY, at, "product() would have too many items");
            goto done;
        }
        total *= len;
    }
    for (size_t c = 0; c < total; c++) {
        val t = val_tuple_new((size_t)n);
        for (int k = 0; k < n; k++)
            val_seq_set(t, (size_t)k, val_ref(val_as_seq(pools[k % argc])->items[idx[k]]));
        val_list_push(out, t);
        for (int k = n - 1; k >= 0; k--) {
            if (++idx[k] < val_as_seq(pools[k % argc])->len)
                break;
            idx[k] = 0;
        }
    }
    out = host_iterator_new(out, "itertools.product");
done:
    for (int k = 0; k < got; k++)
        val_unref(pools[k]);
    free(pools);
    return out;
}

BUILTIN_FN(builtin_itertools_chain)
{
    (void)self;
    if (!builtin_no_kwargs(h, "chain", kw, at))
        return val_err();
    val out = val_list_new(0);
    for (int i = 0; i < argc; i++) {
        val l = host_to_list(h, argv[i], at);
        if (l.kind == VAL_ERR) {
            val_unref(out);
            return l;
        }
        for (size_t k = 0; k < val_as_seq(l)->len; k++)
            val_list_push(out, val_ref(val_as_seq(l)->items[k]));
        val_unref(l);
    }
    return host_iterator_new(out, "itertools.chain");
}

/* combinations (ordered index sets) and permutations of r items. */
static bool builtin_choose(host *h, const val_seq *pool, size_t r, bool perm, size_t *idx,
                           bool *used, size_t depth, size_t start, val out, src_span at)
{
    if (depth == r) {
        if (val_as_seq(out)->len >= ((size_t)1 << 22)) {
            host_raise(h, HOST_EXC_MEMORY, at, "too many combinations");
            return false;
        }
        val t = val_tuple_new(r);
        for (size_t k = 0; k < r; k++)
            val_seq_set(t, k, val_ref(pool->items[idx[k]]));
        val_list_push(out, t);
        return true;
    }
    for (size_t i = perm ? 0 : start; i < pool->len; i++) {
        if (perm && used[i])
            continue;
        idx[depth] = i;
        used[i] = true;
        bool ok = builtin_choose(h, pool, r, perm, idx, used, depth + 1, i + 1, out, at);
        used[i] = false;
        if (!ok)
            return false;
    }
    return true;
}

static val builtin_combinatoric(host *h, val self, int argc, const val *argv,
                                const val_kwargs *kw, src_span at, bool perm)
{
    (void)self;
    val a[2];
    if (!host_args(h, at, perm ? "permutations" : "combinations", perm ? "iterable, r=" : "iterable, r",
                   argc, argv, kw, a))
        return val_err();
    val pool = host_to_list(h, a[0], at);
    if (pool.kind == VAL_ERR)
        return pool;
    int64_t r = (int64_t)val_as_seq(pool)->len;
    if (a[1].kind != VAL_MISSING && a[1].kind != VAL_NONE &&
        !host_to_int(h, a[1], at, "r", &r)) {
        val_unref(pool);
        return val_err();
    }
    if (r < 0) {
        val_unref(pool);
        return host_raise(h, HOST_EXC_VALUE, at, "ValueError: r must be non-negative");
    }
    val out = val_list_new(0);
    size_t n = val_as_seq(pool)->len;
    if ((size_t)r <= n) {
        size_t *idx = xcalloc((size_t)r + 1, sizeof *idx);
        bool *used = xcalloc(n + 1, sizeof *used);
        bool ok = builtin_choose(h, val_as_seq(pool), (size_t)r, perm, idx, used, 0, 0, out, at);
        free(idx);
        free(used);
        if (!ok) {
            val_unref(out);
            val_unref(pool);
            return val_err();
        }
    }
    val_unref(pool);
    return host_iterator_new(out, perm ? "itertools.permutations" : "itertools.combinations");
}

HOST_CFUNC_CALLING(builtin_itertools_permutations, builtin_combinatoric, true)
HOST_CFUNC_CALLING(builtin_itertools_combinations, builtin_combinatoric, false)

BUILTIN_FN(builtin_itertools_accumulate)
{
    (void)self;
    val a[3];
    if (!host_args(h, at, "accumulate", "iterable, func=, *, initial=", argc, argv, kw, a))
        return val_err();
    val items = host_to_list(h, a[0], at);
    if (items.kind == VAL_ERR)
        return items;
    val out = val_list_new(0);
    val acc = val_missing();
    if (a[2].kind != VAL_MISSING && a[2].kind != VAL_NONE) {
        acc = val_ref(a[2]);
        val_list_push(out, val_ref(acc));
    }
    const val_seq *s = val_as_seq(items);
    for (size_t i = 0; i < s->len; i++) {
        val r;
        if (acc.kind == VAL_MISSING)
            r = val_ref(s->items[i]);
        else if (a[1].kind != VAL_MISSING && a[1].kind != VAL_NONE) {
            val args[2] = {acc, s->items[i]};
            r = host_call(h, a[1], 2, args, NULL, at);
        } else
            r = host_binop(h, AST_OP_ADD, acc, s->items[i], at);
        val_unref(acc);
        acc = r;
        if (r.kind == VAL_ERR) {
            val_unref(out);
            val_unref(items);
            return r;
        }
        val_list_push(out, val_ref(acc));
    }
    val_unref(acc);
    val_unref(items);
    return host_iterator_new(out, "itertools.accumulate");
}

static val builtin_itertools_module(void)
{
    val m = val_module_new("itertools");
    host_def(m, "itertools.product", builtin_itertools_product);
    host_def(m, "itertools.chain", builtin_itertools_chain);
    host_def(m, "itertools.permutations", builtin_itertools_permutations);
    host_def(m, "itertools.combinations", builtin_itertools_combinations);
    host_def(m, "itertools.accumulate", builtin_itertools_accumulate);
    return m;
}

/* ---- os and os.path -------------------------------------------------------------------- */

extern char **environ;

/* os.environ: a mapping that reads and writes the process environment. */
static val builtin_environ_dict(void)
{
    val d = val_dict_new();
    for (char **e = environ; e && *e; e++) {
        const char *eq = strchr(*e, '=');
        if (!eq)
            continue;
        val_dict_set(d, val_str_new(*e, (size_t)(eq - *e)), val_str_cstr(eq + 1));
    }
    return d;
}

static bool builtin_environ_key(host *h, val key, src_span at, const char **out)
{
    if (key.kind != VAL_STR) {
        host_raise(h, HOST_EXC_TYPE, at, "str expected, not %s", val_type_name(key));
        return false;
    }
    *out = val_as_str(key)->s;
    return true;
}

static val builtin_environ_getitem(host *h, val self, val key, src_span at)
{
    (void)self;
    const char *k;
    if (!builtin_environ_key(h, key, at, &k))
        return val_err();
    const char *v = getenv(k);
    if (!v)
        return host_raise(h, HOST_EXC_KEY, at,
                          "KeyError: '%s' (the environment variable is not set; use "
                          "os.environ.get('%s') to get None instead)", k, k);
    return val_str_cstr(v);
}

static bool builtin_environ_setitem(host *h, val self, val key, val v, src_span at)
{
    (void)self;
    const char *k, *s;
    if (!builtin_environ_key(h, key, at, &k))
        return false;
    if (v.kind != VAL_STR) {
        host_raise(h, HOST_EXC_TYPE, at,
                   "str expected, not %s (environment values are strings: write "
                   "'1', not 1)", val_type_name(v));
        return false;
    }
    s = val_as_str(v)->s;
    if (!*k || strchr(k, '=') || setenv(k, s, 1) != 0) {
        host_raise(h, HOST_EXC_OS, at, "cannot set the environment variable '%s'", k);
        return false;
    }
    return true;
}

static val builtin_environ_binop(host *h, ast_op op, bool inplace, val a, val b, src_span at)
{
    (void)inplace;
    (void)b;
    if (op != AST_OP_IN)
        return val_missing();
    const char *k;
    if (!builtin_environ_key(h, a, at, &k))
        return val_err();
    return val_bool(getenv(k) != NULL);
}

static val builtin_environ_iter(host *h, val self, src_span at)
{
    (void)h;
    (void)self;
    (void)at;
    val d = builtin_environ_dict();
    val l = val_list_new(val_as_dict(d)->len);
    size_t pos = 0;
    val k, v;
    while (val_dict_next(d, &pos, &k, &v))
        val_list_push(l, val_ref(k));
    val_unref(d);
    return l;
}

static int64_t builtin_environ_len(host *h, val self, src_span at)
{
    (void)h;
    (void)self;
    (void)at;
    int64_t n = 0;
    for (char **e = environ; e && *e; e++)
        n++;
    return n;
}

static void builtin_environ_repr(host *h, val self, strbuf *out)
{
    (void)self;
    val d = builtin_environ_dict();
    strbuf_puts(out, "environ(");
    val_print_repr(h, d, out);
    strbuf_putc(out, ')');
    val_unref(d);
}

BUILTIN_FN(builtin_environ_get)
{
    (void)self;
    const char *k;
    if (!builtin_nargs(h, "get", argc, kw, 1, 2, at) ||
        !builtin_environ_key(h, argv[0], at, &k))
        return val_err();
    const char *v = getenv(k);
    if (v)
        return val_str_cstr(v);
    return argc == 2 ? val_ref(argv[1]) : val_none();
}

BUILTIN_FN(builtin_environ_setdefault)
{
    const char *k;
    if (!builtin_nargs(h, "setdefault", argc, kw, 2, 2, at) ||
        !builtin_environ_key(h, argv[0], at, &k))
        return val_err();
    const char *v = getenv(k);
    if (v)
        return val_str_cstr(v);
    if (!builtin_environ_setitem(h, self, argv[0], argv[1], at))
        return val_err();
    return val_ref(argv[1]);
}

BUILTIN_FN(builtin_environ_pop)
{
    (void)self;
    const char *k;
    if (!builtin_nargs(h, "pop", argc, kw, 1, 2, at) ||
        !builtin_environ_key(h, argv[0], at, &k))
        return val_err();
    const char *v = getenv(k);
    if (!v) {
        if (argc == 2)
            return val_ref(argv[1]);
        return host_raise(h, HOST_EXC_KEY, at, "KeyError: '%s'", k);
    }
    val r = val_str_cstr(v);
    unsetenv(k);
    return r;
}

/* os.environ.keys(), .values() and .items(): a view of a snapshot of the
 * environment taken now. */
static val builtin_environ_view(host *h, val self, int argc, const val *argv,
                                const val_kwargs *kw, src_span at, const char *name, int what)
{
    (void)self;
    (void)argv;
    if (!builtin_nargs(h, name, argc, kw, 0, 0, at))
        return val_err();
    val d = builtin_environ_dict();
    val v = builtin_view_new(d, what);
    val_unref(d);
    return v;
}

HOST_CFUNC_CALLING(builtin_environ_keys, builtin_environ_view, "keys", 0)
HOST_CFUNC_CALLING(builtin_environ_values, builtin_environ_view, "values", 1)
HOST_CFUNC_CALLING(builtin_environ_items, builtin_environ_view, "items", 2)

BUILTIN_FN(builtin_environ_copy)
{
    (void)argv;
    (void)self;
    if (!builtin_nargs(h, "copy", argc, kw, 0, 0, at))
        return val_err();
    return builtin_environ_dict();
}

static const char *const builtin_environ_attrs[] = {
    "get", "setdefault", "pop", "keys", "values", "items", "copy", NULL,
};

static val builtin_environ_getattr(host *h, val self, const char *name, src_span at)
{
    (void)h;
    (void)at;
    static const struct { const char *name; val_cfunc fn; } ms[] = {
        {"os.environ.get", builtin_environ_get},
        {"os.environ.setdefault", builtin_environ_setdefault},
        {"os.environ.pop", builtin_environ_pop},
        {"os.environ.keys", builtin_environ_keys},
        {"os.environ.values", builtin_environ_values},
        {"os.environ.items", builtin_environ_items},
        {"os.environ.copy", builtin_environ_copy},
    };
    for (size_t i = 0; i < sizeof ms / sizeof ms[0]; i++)
        if (!strcmp(ms[i].name + strlen("os.environ."), name))
            return val_builtin_new(ms[i].name, ms[i].fn, val_ref(self));
    return val_missing();
}

static const val_type builtin_environ_type = {
    .name = "_Environ",
    .getattr = builtin_environ_getattr,
    .getitem = builtin_environ_getitem,
    .setitem = builtin_environ_setitem,
    .binop = builtin_environ_binop,
    .len = builtin_environ_len,
    .iter = builtin_environ_iter,
    .repr = builtin_environ_repr,
    .attr_names = builtin_environ_attrs,
};

BUILTIN_FN(builtin_os_getenv)
{
    (void)self;
    return builtin_environ_get(h, val_none(), argc, argv, kw, at);
}

BUILTIN_FN(builtin_os_getcwd)
{
    (void)self;
    (void)argv;
    if (!builtin_nargs(h, "getcwd", argc, kw, 0, 0, at))
        return val_err();
    char buf[4096];
    if (!getcwd(buf, sizeof buf))
        return host_raise(h, HOST_EXC_OS, at, "OSError: cannot read the current directory: %s",
                          strerror(errno));
    return val_str_cstr(buf);
}

BUILTIN_FN(builtin_os_cpu_count)
{
    (void)self;
    (void)argv;
    if (!builtin_nargs(h, "cpu_count", argc, kw, 0, 0, at))
        return val_err();
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? val_int(n) : val_none();
}

/* os.makedirs(name, mode=0o777, exist_ok=False): every missing directory
 * of the path, as Python makes them. */
BUILTIN_FN(builtin_os_makedirs)
{
    (void)self;
    val a[3];
    const char *path;
    if (!host_args(h, at, "makedirs", "name, mode=, exist_ok=", argc, argv, kw, a) ||
        !host_to_str(h, a[0], at, "the path", &path))
        return val_err();
    int exist_ok = 0;
    if (a[2].kind != VAL_MISSING && (exist_ok = host_truth(h, a[2], at)) < 0)
        return val_err();
    mode_t mode = a[1].kind == VAL_INT ? (mode_t)a[1].u.i : 0777;
    struct stat st;
    if (stat(path, &st) == 0) {
        if (exist_ok && S_ISDIR(st.st_mode))
            return val_none();
        return host_raise(h, HOST_EXC_OS, at,
                          "FileExistsError: [Errno 17] File exists: '%s'", path);
    }
    char *buf = xstrdup(path);
    bool ok = true;
    for (char *c = buf + 1; ok && *c; c++)
        if (*c == '/') {
            *c = '\0';
            ok = mkdir(buf, mode) == 0 || errno == EEXIST;
            *c = '/';
        }
    ok = ok && (mkdir(buf, mode) == 0 || (exist_ok && errno == EEXIST));
    int err = errno;
    free(buf);
    if (!ok)
        return host_raise(h, HOST_EXC_OS, at, "OSError: cannot create directory '%s': %s", path,
                          strerror(err));
    return val_none();
}

/* A path argument of the os.path functions: a str, or what an object's
 * __fspath__() gives (pathlib.Path); a new reference, VAL_ERR after
 * reporting. */
static val builtin_fspath(host *h, val v, src_span at, const char *fname)
{
    if (v.kind == VAL_STR || v.kind == VAL_ERR)
        return val_ref(v);
    val f = v.kind == VAL_OBJECT ? host_getattr_opt(h, v, "__fspath__", at) : val_missing();
    if (f.kind == VAL_ERR)
        return f;
    if (f.kind != VAL_MISSING) {
        val r = host_call(h, f, 0, NULL, NULL, at);
        val_unref(f);
        if (r.kind == VAL_STR || r.kind == VAL_ERR)
            return r;
        val_unref(r);
    }
    return host_error(h, at, "%s() argument must be str or os.PathLike object, not '%s'",
                      fname, val_type_name(v));
}

static val builtin_stat_test(host *h, val self, int argc, const val *argv,
                             const val_kwargs *kw, src_span at, const char *name, int which)
{
    (void)self;
    if (!builtin_nargs(h, name, argc, kw, 1, 1, at))
        return val_err();
    val p = builtin_fspath(h, argv[0], at, name);
    if (p.kind == VAL_ERR)
        return p;
    struct stat st;
    bool found = stat(val_as_str(p)->s, &st) == 0;
    val_unref(p);
    if (!found)
        return val_bool(false);
    return val_bool(which == 0 || (which == 1 ? S_ISREG(st.st_mode) : S_ISDIR(st.st_mode)));
}

HOST_CFUNC_CALLING(builtin_path_exists, builtin_stat_test, "exists", 0)
HOST_CFUNC_CALLING(builtin_path_isfile, builtin_stat_test, "isfile", 1)
HOST_CFUNC_CALLING(builtin_path_isdir, builtin_stat_test, "isdir", 2)

BUILTIN_FN(builtin_path_join)
{
    (void)self;
    if (!builtin_no_kwargs(h, "join", kw, at))
        return val_err();
    if (argc < 1)
        return host_raise(h, HOST_EXC_TYPE, at,
                          "join() missing 1 required positional argument: 'a'");
    strbuf b = {0};
    for (int i = 0; i < argc; i++) {
        val pv = builtin_fspath(h, argv[i], at, "join");
        if (pv.kind == VAL_ERR) {
            strbuf_free(&b);
            return pv;
        }
        const char *p = val_as_str(pv)->s;
        if (p[0] == '/')
            strbuf_clear(&b);
        else if (b.len && b.data[b.len - 1] != '/')
            strbuf_putc(&b, '/');
        strbuf_puts(&b, p);
        val_unref(pv);
    }
    return val_str_from_buf(&b);
}

/* basename, dirname, splitext, abspath */
static val builtin_path_part(host *h, val self, int argc, const val *argv,
                             const val_kwargs *kw, src_span at, const char *name, int which)
{
    (void)self;
    if (!builtin_nargs(h, name, argc, kw, 1, 1, at))
        return val_err();
    val pv = builtin_fspath(h, argv[0], at, name);
    if (pv.kind == VAL_ERR)
        return pv;
    const char *p = val_as_str(pv)->s;
    size_t n = val_as_str(pv)->len;
    const char *slash = strrchr(p, '/');
    size_t base = slash ? (size_t)(slash - p) + 1 : 0;
    val r;
    if (which == 0) {
        r = val_str_new(p + base, n - base);
    } else if (which == 1) {
        size_t e = base;
        while (e > 1 && p[e - 1] == '/')
            e--;   /* dirname('/a/b') is '/a', dirname('/a') is '/' */
        r = val_str_new(p, e);
    } else if (which == 3) {
        char *a = pathlib_abspath(p);
        r = a ? val_str_cstr(a)
              : host_error(h, at, "OSError: cannot read the current directory: %s",
                           strerror(errno));
        free(a);
    } else {
        const char *dot = strrchr(p + base, '.');
        size_t lead = base;
        while (lead < n && p[lead] == '.')
            lead++;
        if (!dot || dot < p + lead) {
            val t[2] = {val_ref(pv), val_str_cstr("")};
            r = val_tuple_of(2, t);
        } else {
            val t[2] = {val_str_new(p, (size_t)(dot - p)), val_str_cstr(dot)};
            r = val_tuple_of(2, t);
        }
    }
    val_unref(pv);
    return r;
}

HOST_CFUNC_CALLING(builtin_path_basename, builtin_path_part, "basename", 0)
HOST_CFUNC_CALLING(builtin_path_dirname, builtin_path_part, "dirname", 1)
HOST_CFUNC_CALLING(builtin_path_splitext, builtin_path_part, "splitext", 2)
HOST_CFUNC_CALLING(builtin_path_abspath, builtin_path_part, "abspath", 3)

static void builtin_os_modules(host *h)
{
    val os = val_module_new("os");
    val_object *eo = val_obj_new(sizeof *eo, VAL_OBJECT, &builtin_environ_type);
    val_object_set(os, "environ", val_of(eo));
    host_def(os, "os.getenv", builtin_os_getenv);
    host_def(os, "os.getcwd", builtin_os_getcwd);
    host_def(os, "os.cpu_count", builtin_os_cpu_count);
    host_def(os, "os.makedirs", builtin_os_makedirs);
    val_object_set(os, "sep", val_str_cstr("/"));
    val_object_set(os, "name", val_str_cstr("posix"));
    val path = val_module_new("os.path");
    host_def(path, "os.path.exists", builtin_path_exists);
    host_def(path, "os.path.isfile", builtin_path_isfile);
    host_def(path, "os.path.isdir", builtin_path_isdir);
    host_def(path, "os.path.join", builtin_path_join);
    host_def(path, "os.path.basename", builtin_path_basename);
    host_def(path, "os.path.dirname", builtin_path_dirname);
    host_def(path, "os.path.splitext", builtin_path_splitext);
    host_def(path, "os.path.abspath", builtin_path_abspath);
    val_object_set(os, "path", val_ref(path));
    host_register_module(h, "os", os);
    host_register_module(h, "os.path", path);
}

/* ---- sys and time -------------------------------------------------------------------- */

BUILTIN_FN(builtin_sys_exit)
{
    (void)self;
    if (!builtin_nargs(h, "exit", argc, kw, 0, 1, at))
        return val_err();
    /* raises SystemExit(code): when nothing catches it, an int code is the
     * exit status and anything else is printed to stderr, status 1 */
    val args = argc ? val_tuple_of(1, (val[]){val_ref(argv[0])}) : val_tuple_new(0);
    val e = exc_new(h, HOST_EXC_SYSTEM_EXIT, args);
    host_raise_value(h, e, at);
    val_unref(e);
    return val_err();
}

static val builtin_file_new(FILE *fp, const char *name)
{
    builtin_file *f = val_obj_new(sizeof *f, VAL_OBJECT, &builtin_file_type);
    f->fp = fp;
    f->name = name;
    return val_of(f);
}

static void builtin_sys_module(host *h)
{
    val sys = val_module_new("sys");
    host_def(sys, "sys.exit", builtin_sys_exit);
    val_object_set(sys, "argv", val_list_new(0));
    val_object_set(sys, "stdout", builtin_file_new(stdout, "stdout"));
    val_object_set(sys, "stderr", builtin_file_new(stderr, "stderr"));
    val_object_set(sys, "maxsize", val_int(INT64_MAX));
    val_object_set(sys, "platform", val_str_cstr("linux"));
    val_object_set(sys, "byteorder", val_str_cstr("little"));
    val vi[3] = {val_int(3), val_int(11), val_int(0)};
    val_object_set(sys, "version_info", val_tuple_of(3, vi));
    val_object_set(sys, "version", val_str_cstr("3.11.0 (tritsim)"));
    host_register_module(h, "sys", sys);
}

/* ---- typing: names for annotations ---------------------------------------- */

/* repr of a typing name: "typing.Optional". */
static void builtin_typing_repr(host *h, val self, strbuf *out)
{
    (void)h;
    val name = val_object_get(self, "_name");
    strbuf_printf(out, "typing.%s", name.kind == VAL_STR ? val_as_str(name)->s : "?");
}

/* Optional[int], Dict[str, int]: the name itself (tritsim keeps no type
 * arguments; annotations are not checked, as in Python). */
static val builtin_typing_getitem(host *h, val self, val key, src_span at)
{
    (void)h, (void)key, (void)at;
    return val_ref(self);
}

static val builtin_typing_call(host *h, val self, int argc, const val *argv,
                               const val_kwargs *kw, src_span at)
{
    (void)argc, (void)argv, (void)kw;
    val name = val_object_get(self, "_name");
    return host_raise(h, HOST_EXC_TYPE, at, "TypeError: Cannot instantiate typing.%s",
                      name.kind == VAL_STR ? val_as_str(name)->s : "?");
}

static const val_type builtin_typing_type = {
    .name = "_SpecialForm",
    .call = builtin_typing_call,
    .getitem = builtin_typing_getitem,
    .repr = builtin_typing_repr,
};

/* typing: the common names, usable in annotations and subscripted. */
static void builtin_typing_module(host *h)
{
    static const char *const names[] = {
        "Any", "Callable", "Dict", "Iterable", "List", "Optional", "Sequence", "Tuple",
        "Union", NULL,
    };
    val m = val_module_new("typing");
    for (int i = 0; names[i]; i++) {
        val t = val_object_new(&builtin_typing_type);
        val_object_set(t, "_name", val_str_cstr(names[i]));
        val_object_set(m, names[i], t);
    }
    val_object_set(m, "TYPE_CHECKING", val_bool(false));
    host_register_module(h, "typing", m);
}

static double builtin_clock(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int64_t builtin_clock_ns(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* time.time(), time.perf_counter() and their _ns forms: no arguments, a
 * clock's reading in float seconds or int nanoseconds. */
#define TIME_CLOCK(name, reading) \
    BUILTIN_FN(builtin_time_##name) \
    { \
        (void)self; \
        (void)argv; \
        if (!builtin_nargs(h, #name, argc, kw, 0, 0, at)) \
            return val_err(); \
        return reading; \
    }

TIME_CLOCK(time, val_float(builtin_clock(CLOCK_REALTIME)))
TIME_CLOCK(time_ns, val_int(builtin_clock_ns(CLOCK_REALTIME)))
TIME_CLOCK(perf_counter, val_float(builtin_clock(CLOCK_MONOTONIC)))
TIME_CLOCK(perf_counter_ns, val_int(builtin_clock_ns(CLOCK_MONOTONIC)))

BUILTIN_FN(builtin_time_sleep)
{
    (void)self;
    double s;
    if (!builtin_nargs(h, "sleep", argc, kw, 1, 1, at) ||
        !host_to_float(h, argv[0], at, "sleep() argument", &s))
        return val_err();
    if (s < 0)
        return host_raise(h, HOST_EXC_VALUE, at, "ValueError: sleep length must be non-negative");
    fflush(stdout);
    struct timespec ts = {(time_t)s, (long)((s - floor(s)) * 1e9)};
    nanosleep(&ts, NULL);
    return val_none();
}

static void builtin_time_module(host *h)
{
    val t = val_module_new("time");
    host_def(t, "time.time", builtin_time_time);
    host_def(t, "time.time_ns", builtin_time_time_ns);
    host_def(t, "time.perf_counter", builtin_time_perf_counter);
    host_def(t, "time.perf_counter_ns", builtin_time_perf_counter_ns);
    host_def(t, "time.monotonic", builtin_time_perf_counter);
    host_def(t, "time.sleep", builtin_time_sleep);
    host_register_module(h, "time", t);
}

/* ---- random: CPython's Mersenne Twister, bit for bit ------------------------------------ */

enum { MT_N = 624, MT_M = 397 };

static struct {
    uint32_t mt[MT_N];
    int mti;
    bool seeded;
    bool has_gauss;
    double gauss_next;
} builtin_mt;

static void builtin_mt_init(uint32_t s)
{
    builtin_mt.mt[0] = s;
    for (int i = 1; i < MT_N; i++)
        builtin_mt.mt[i] = 1812433253U * (builtin_mt.mt[i - 1] ^ (builtin_mt.mt[i - 1] >> 30)) +
                           (uint32_t)i;
    builtin_mt.mti = MT_N;
}

static void builtin_mt_init_by_array(const uint32_t *key, size_t len)
{
    builtin_mt_init(19650218U);
    uint32_t *mt = builtin_mt.mt;
    size_t i = 1, j = 0;
    for (size_t k = MT_N > len ? MT_N : len; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525U)) + key[j] + (uint32_t)j;
        i++;
        j++;
        if (i >= MT_N) {
            mt[0] = mt[MT_N - 1];
            i = 1;
        }
        if (j >= len)
            j = 0;
    }
    for (size_t k = MT_N - 1; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941U)) - (uint32_t)i;
        i++;
        if (i >= MT_N) {
            mt[0] = mt[MT_N - 1];
            i = 1;
        }
    }
    mt[0] = 0x80000000U;
    builtin_mt.seeded = true;
    builtin_mt.has_gauss = false;
}

static void builtin_mt_seed_int(uint64_t u)
{
    uint32_t key[2] = {(uint32_t)u, (uint32_t)(u >> 32)};
    builtin_mt_init_by_array(key, key[1] ? 2 : 1);
}

static uint32_t builtin_mt_next(void)
{
    static const uint32_t mag01[2] = {0, 0x9908b0dfU};
    uint32_t *mt = builtin_mt.mt;
    if (!builtin_mt.seeded)
        builtin_mt_seed_int((uint64_t)builtin_clock_ns(CLOCK_REALTIME) ^ (uint64_t)getpid());
    if (builtin_mt.mti >= MT_N) {
        int kk;
        uint32_t y;
        for (kk = 0; kk < MT_N - MT_M; kk++) {
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
            mt[kk] = mt[kk + MT_M] ^ (y >> 1) ^ mag01[y & 1];
        }
        for (; kk < MT_N - 1; kk++) {
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
            mt[kk] = mt[kk + (MT_M - MT_N)] ^ (y >> 1) ^ mag01[y & 1];
        }
        y = (mt[MT_N - 1] & 0x80000000U) | (mt[0] & 0x7fffffffU);
        mt[MT_N - 1] = mt[MT_M - 1] ^ (y >> 1) ^ mag01[y & 1];
        builtin_mt.mti = 0;
    }
    uint32_t y = mt[builtin_mt.mti++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= y >> 18;
    return y;
}

static double builtin_mt_random(void)
{
    uint32_t a = builtin_mt_next() >> 5, b = builtin_mt_next() >> 6;
    return ((double)a * 67108864.0 + (double)b) * (1.0 / 9007199254740992.0);
}

/* getrandbits(k) for 0 < k <= 64: 32-bit words, least significant first. */
static uint64_t builtin_mt_bits(int k)
{
    if (k <= 32)
        return builtin_mt_next() >> (32 - k);
    uint64_t lo = builtin_mt_next();
    uint64_t hi = builtin_mt_next() >> (64 - k);
    return lo | hi << 32;
}

/* _randbelow(n) for n > 0: rejection sampling on bit_length(n) bits. */
static uint64_t builtin_mt_below(uint64_t n)
{
    int k = 0;
    for (uint64_t t = n; t; t >>= 1)
        k++;
    uint64_t r = builtin_mt_bits(k);
    while (r >= n)
        r = builtin_mt_bits(k);
    return r;
}

BUILTIN_FN(builtin_random_seed)
{
    (void)self;
    val a[2];
    if (!host_args(h, at, "seed", "a=, version=", argc, argv, kw, a))
        return val_err();
    if (a[0].kind == VAL_MISSING || a[0].kind == VAL_NONE) {
        builtin_mt_seed_int((uint64_t)builtin_clock_ns(CLOCK_REALTIME) ^ (uint64_t)getpid());
        return val_none();
    }
    if (!builtin_is_int(a[0]))
        return host_raise(h, HOST_EXC_TYPE, at,
                          "random.seed() in tritsim takes an int (or None), not '%s'",
                          val_type_name(a[0]));
    int64_t s = builtin_int_of(a[0]);
    builtin_mt_seed_int(s < 0 ? -(uint64_t)s : (uint64_t)s);
    return val_none();
}

BUILTIN_FN(builtin_random_random)
{
    (void)self;
    (void)argv;
    if (!builtin_nargs(h, "random", argc, kw, 0, 0, at))
        return val_err();
    return val_float(builtin_mt_random());
}

BUILTIN_FN(builtin_random_getrandbits)
{
    (void)self;
    int64_t k;
    if (!builtin_nargs(h, "getrandbits", argc, kw, 1, 1, at) ||
        !host_to_int(h, argv[0], at, "getrandbits() argument", &k))
        return val_err();
    if (k < 0)
        return host_raise(h, HOST_EXC_VALUE, at, "ValueError: number of bits must be non-negative");
    if (k > 63)
        return host_raise(h, HOST_EXC_OVERFLOW, at,
                          "getrandbits(%lld) does not fit in tritsim's 64-bit ints",
                          (long long)k);
    return val_int(k == 0 ? 0 : (int64_t)builtin_mt_bits((int)k));
}

static val builtin_randrange_impl(host *h, int64_t start, int64_t stop, int64_t step,
                                  src_span at)
{
    if (step == 0)
        return host_raise(h, HOST_EXC_VALUE, at, "ValueError: zero step for randrange()");
    __int128 width = (__int128)stop - start, n;
    if (step > 0)
        n = (width + step - 1) / step;
    else
        n = (width + step + 1) / step;
    if (n <= 0)
        return host_raise(h, HOST_EXC_VALUE, at,
                          "ValueError: empty range for randrange() (%lld, %lld, %lld)",
                          (long long)start, (long long)stop, (long long)step);
    return val_int((int64_t)(start + (__int128)step * (__int128)builtin_mt_below((uint64_t)n)));
}

BUILTIN_FN(builtin_random_randrange)
{
    (void)self;
    val a[3];
    if (!host_args(h, at, "randrange", "start, stop=, step=", argc, argv, kw, a))
        return val_err();
    int64_t v[3] = {0, 0, 1};
    for (int i = 0; i < 3; i++)
        if (a[i].kind != VAL_MISSING && a[i].kind != VAL_NONE &&
            !host_to_int(h, a[i], at, "randrange() argument", &v[i]))
            return val_err();
    if (a[1].kind == VAL_MISSING || a[1].kind == VAL_NONE) {
        if (v[0] <= 0)
            return host_raise(h, HOST_EXC_VALUE, at, "ValueError: empty range for randrange()");
        return val_int((int64_t)builtin_mt_below((uint64_t)v[0]));
    }
    return builtin_randrange_impl(h, v[0], v[1], v[2], at);
}

BUILTIN_FN(builtin_random_randint)
{
    (void)self;
    int64_t a, b;
    if (!builtin_nargs(h, "randint", argc, kw, 2, 2, at) ||
        !host_to_int(h, argv[0], at, "randint() a", &a) ||
        !host_to_int(h, argv[1], at, "randint() b", &b))
        return val_err();
    if (b == INT64_MAX)
        return host_raise(h, HOST_EXC_OVERFLOW, at, "integer overflow: tritsim's ints are 64-bit");
    return builtin_randrange_impl(h, a, b + 1, 1, at);
}

BUILTIN_FN(builtin_random_uniform)
{
    (void)self;
    double a, b;
    if (!builtin_nargs(h, "uniform", argc, kw, 2, 2, at) ||
        !host_to_float(h, argv[0], at, "uniform() a", &a) ||
        !host_to_float(h, argv[1], at, "uniform() b", &b))
        return val_err();
    return val_float(a + (b - a) * builtin_mt_random());
}

BUILTIN_FN(builtin_random_choice)
{
    (void)self;
    if (!builtin_nargs(h, "choice", argc, kw, 1, 1, at))
        return val_err();
    int64_t n = host_len(h, argv[0], at);
    if (n < 0)
        return val_err();
    if (n == 0)
        return host_raise(h, HOST_EXC_INDEX, at,
                          "IndexError: Cannot choose from an empty sequence");
    return host_getitem(h, argv[0], val_int((int64_t)builtin_mt_below((uint64_t)n)), at);
}

BUILTIN_FN(builtin_random_shuffle)
{
    (void)self;
    if (!builtin_nargs(h, "shuffle", argc, kw, 1, 1, at))
        return val_err();
    if (argv[0].kind != VAL_LIST)
        return host_raise(h, HOST_EXC_TYPE, at,
                          "shuffle() needs a list, not a '%s'", val_type_name(argv[0]));
    val_seq *s = val_as_seq(argv[0]);
    for (size_t i = s->len; i-- > 1;) {
        size_t j = (size_t)builtin_mt_below(i + 1);
        val t = s->items[i];
        s->items[i] = s->items[j];
        s->items[j] = t;
    }
    return val_none();
}

BUILTIN_FN(builtin_random_sample)
{
    (void)self;
    val a[2];
    int64_t k;
    if (!host_args(h, at, "sample", "population, k", argc, argv, kw, a) ||
        !host_to_int(h, a[1], at, "sample() k", &k))
        return val_err();
    val pop = host_to_list(h, a[0], at);
    if (pop.kind == VAL_ERR)
        return pop;
    int64_t n = (int64_t)val_as_seq(pop)->len;
    if (k < 0 || k > n) {
        val_unref(pop);
        return host_raise(h, HOST_EXC_VALUE, at,
                          "ValueError: Sample larger than population or is negative");
    }
    val out = val_list_new((size_t)k);
    /* CPython's two strategies, chosen the same way, so results match. */
    int64_t setsize = 21;
    if (k > 5)
        setsize += (int64_t)pow(4, ceil(log((double)(k * 3)) / log(4)));
    if (n <= setsize) {
        val pool = host_to_list(h, pop, at);
        val_seq *p = val_as_seq(pool);
        for (int64_t i = 0; i < k; i++) {
            size_t j = (size_t)builtin_mt_below((uint64_t)(n - i));
            val_list_push(out, val_ref(p->items[j]));
            val_seq_set(pool, j, val_ref(p->items[n - i - 1]));
        }
        val_unref(pool);
    } else {
        bool *selected = xcalloc((size_t)n, sizeof *selected);
        for (int64_t i = 0; i < k; i++) {
            size_t j = (size_t)builtin_mt_below((uint64_t)n);
            while (selected[j])
                j = (size_t)builtin_mt_below((uint64_t)n);
            selected[j] = true;
            val_list_push(out, val_ref(val_as_seq(pop)->items[j]));
        }
        free(selected);
    }
    val_unref(pop);
    return out;
}

/* The arguments (mu=0, sigma=1) of random.gauss() and normalvariate(). */
static bool builtin_mu_sigma(host *h, const char *name, int argc, const val *argv,
                             const val_kwargs *kw, src_span at, double *mu, double *sigma)
{
    val a[2];
    *mu = 0;
    *sigma = 1;
    return host_args(h, at, name, "mu=, sigma=", argc, argv, kw, a) &&
           (a[0].kind == VAL_MISSING || host_to_float(h, a[0], at, "mu", mu)) &&
           (a[1].kind == VAL_MISSING || host_to_float(h, a[1], at, "sigma", sigma));
}

BUILTIN_FN(builtin_random_gauss)
{
    (void)self;
    double mu, sigma;
    if (!builtin_mu_sigma(h, "gauss", argc, argv, kw, at, &mu, &sigma))
        return val_err();
    double z;
    if (builtin_mt.has_gauss) {
        z = builtin_mt.gauss_next;
        builtin_mt.has_gauss = false;
    } else {
        double x2pi = builtin_mt_random() * (2 * M_PI);
        double g2rad = sqrt(-2.0 * log(1.0 - builtin_mt_random()));
        z = cos(x2pi) * g2rad;
        builtin_mt.gauss_next = sin(x2pi) * g2rad;
        builtin_mt.has_gauss = true;
    }
    return val_float(mu + z * sigma);
}

BUILTIN_FN(builtin_random_normalvariate)
{
    (void)self;
    double mu, sigma;
    if (!builtin_mu_sigma(h, "normalvariate", argc, argv, kw, at, &mu, &sigma))
        return val_err();
    const double magic = 4 * exp(-0.5) / sqrt(2.0);
    double z;
    for (;;) {
        double u1 = builtin_mt_random();
        double u2 = 1.0 - builtin_mt_random();
        z = magic * (u1 - 0.5) / u2;
        if (z * z / 4.0 <= -log(u2))
            break;
    }
    return val_float(mu + z * sigma);
}

static void builtin_random_module(host *h)
{
    val r = val_module_new("random");
    host_def(r, "random.seed", builtin_random_seed);
    host_def(r, "random.random", builtin_random_random);
    host_def(r, "random.getrandbits", builtin_random_getrandbits);
    host_def(r, "random.randrange", builtin_random_randrange);
    host_def(r, "random.randint", builtin_random_randint);
    host_def(r, "random.uniform", builtin_random_uniform);
    host_def(r, "random.choice", builtin_random_choice);
    host_def(r, "random.shuffle", builtin_random_shuffle);
    host_def(r, "random.sample", builtin_random_sample);
    host_def(r, "random.gauss", builtin_random_gauss);
    host_def(r, "random.normalvariate", builtin_random_normalvariate);
    host_register_module(h, "random", r);
}

/* ---- registration --------------------------------------------------------------------- */

void builtin_init(host *h)
{
    static const struct { const char *name; val_cfunc fn; } fns[] = {
        {"print", builtin_print}, {"len", builtin_len}, {"repr", builtin_repr},
        {"format", builtin_format}, {"isinstance", builtin_isinstance},
        {"enumerate", builtin_enumerate}, {"zip", builtin_zip}, {"map", builtin_map},
        {"filter", builtin_filter}, {"reversed", builtin_reversed},
        {"sorted", builtin_sorted}, {"min", builtin_min}, {"max", builtin_max},
        {"sum", builtin_sum}, {"any", builtin_any}, {"all", builtin_all},
        {"iter", builtin_iter}, {"next", builtin_next}, {"abs", builtin_abs},
        {"round", builtin_round}, {"divmod", builtin_divmod}, {"pow", builtin_pow},
        {"hex", builtin_hex}, {"oct", builtin_oct}, {"bin", builtin_bin},
        {"chr", builtin_chr}, {"ord", builtin_ord}, {"callable", builtin_callable},
        {"hasattr", builtin_hasattr}, {"getattr", builtin_getattr},
        {"setattr", builtin_setattr}, {"exit", builtin_sys_exit}, {"quit", builtin_sys_exit},
        {"open", builtin_not_supported}, {"input", builtin_not_supported},
        {"eval", builtin_not_supported}, {"exec", builtin_not_supported},
        {"compile", builtin_not_supported}, {"set", builtin_set},
        {"frozenset", builtin_set},
    };
    for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++)
        val_dict_set_str(h->builtins, fns[i].name,
                         val_builtin_new(fns[i].name, fns[i].fn, val_none()));
    builtin_type_new(h, "int", builtin_int, VAL_INT, NULL);
    builtin_type_new(h, "float", builtin_float, VAL_FLOAT, NULL);
    builtin_type_new(h, "str", builtin_str, VAL_STR, NULL);
    builtin_type_new(h, "bool", builtin_bool, VAL_BOOL, NULL);
    builtin_type_new(h, "list", builtin_list, VAL_LIST, NULL);
    builtin_type_new(h, "tuple", builtin_tuple, VAL_TUPLE, NULL);
    builtin_type_new(h, "dict", builtin_dict, VAL_DICT, NULL);
    builtin_type_new(h, "range", builtin_range, VAL_RANGE, NULL);
    builtin_type_new(h, "slice", builtin_slice, VAL_SLICE, NULL);
    builtin_type_new(h, "type", builtin_type, VAL_BUILTIN, NULL);
    val_dict_set_str(h->builtins, "Ellipsis", val_ellipsis());

    host_register_module(h, "math", builtin_math_module());
    host_register_module(h, "functools", builtin_functools_module());
    host_register_module(h, "itertools", builtin_itertools_module());
    builtin_os_modules(h);
    builtin_sys_module(h);
    builtin_typing_module(h);
    builtin_time_module(h);
    builtin_random_module(h);
    pathlib_init(h);
    inspect_init(h);
}
