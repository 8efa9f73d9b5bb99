/* numbers.c - the constructors int() and float() (with Python's parsing
 * of their text: bases, underscores, inf and nan) and the methods of int
 * and float. */
#define _DEFAULT_SOURCE   /* strncasecmp */
#include "builtins_impl.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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

val builtin_float_to_int(host *h, double f, src_span at)
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
    if (r.kind == VAL_MISSING)  /* then __index__, as Python does */
        r = builtin_dunder(h, x, "__index__", 0, NULL, at);
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
    if (r.kind == VAL_MISSING) {    /* then __index__, as Python does */
        r = builtin_dunder(h, x, "__index__", 0, NULL, at);
        if (builtin_is_int(r)) {
            val f = val_float((double)builtin_int_of(r));
            val_unref(r);
            return f;
        }
    }
    if (r.kind != VAL_MISSING)
        return r;
    return host_raise(h, HOST_EXC_TYPE, at,
                      "float() argument must be a string or a number, not '%s'",
                      val_type_name(x));
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

/* The type objects int and float (builtin_init calls this where they come
 * among the built-in names). */
void builtin_numbers_init(host *h)
{
    builtin_type_new(h, "int", builtin_int, VAL_INT, NULL);
    builtin_type_new(h, "float", builtin_float, VAL_FLOAT, NULL);
}

/* ---- method tables (builtin_init hands them to the evaluator: h->types) --------------- */

#define M BUILTIN_METHOD

const host_method builtin_int_methods[] = {
    M(VAL_INT, "int", bit_length, builtin_int_bit_length),
    M(VAL_INT, "int", conjugate, builtin_int_conjugate),
    {NULL, NULL, NULL, VAL_ERR},
};

const host_method builtin_float_methods[] = {
    M(VAL_FLOAT, "float", is_integer, builtin_float_is_integer),
    M(VAL_FLOAT, "float", conjugate, builtin_int_conjugate),
    {NULL, NULL, NULL, VAL_ERR},
};

#undef M
