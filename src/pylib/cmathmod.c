/* cmathmod.c - the built-in type complex (its constructor, with
 * complex("1+2j") strings) and the cmath module's basics: exp, log, sqrt,
 * phase, polar, rect, isnan/isinf/isfinite/isclose and the constants, each
 * as CPython 3.11's Modules/cmathmodule.c computes it for finite values.
 * The value type itself lives in src/host/complexval.c. */
#define _DEFAULT_SOURCE   /* M_PI, M_E, strncasecmp */
#include "builtins.h"
#include "builtins_impl.h"
#include "complexval.h"

#include <ctype.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- complex(real=0, imag=0) ------------------------------------------------------ */

/* One float of a complex string at s: its end in *end, false if none. */
static bool parse_float_at(const char *s, const char **end, double *out)
{
    char *e;
    if (!strncasecmp(s, "inf", 3) || !strncasecmp(s, "nan", 3) || isdigit((unsigned char)*s) ||
        *s == '.') {
        *out = strtod(s, &e);
        if (e == s)
            return false;
        *end = e;
        return true;
    }
    return false;
}

/* CPython's complex_from_string_inner: "1", "2j", "1+2j", "(1-2.5j)", "j",
 * surrounded by optional spaces and parentheses. */
static bool parse_complex(const char *s, cplx *out)
{
    while (isspace((unsigned char)*s))
        s++;
    bool paren = *s == '(';
    if (paren) {
        s++;
        while (isspace((unsigned char)*s))
            s++;
    }
    double x = 0, y = 0, z;
    const char *end;
    int sign = 1;
    if (*s == '+' || *s == '-')
        sign = *s++ == '-' ? -1 : 1;
    if (parse_float_at(s, &end, &z)) {
        s = end;
        if (*s == '+' || *s == '-') {
            x = sign * z;
            int sign2 = *s++ == '-' ? -1 : 1;
            if (parse_float_at(s, &end, &z))
                s = end;
            else
                z = 1.0;
            if (*s != 'j' && *s != 'J')
                return false;
            s++;
            y = sign2 * z;
        } else if (*s == 'j' || *s == 'J') {
            s++;
            y = sign * z;
        } else {
            x = sign * z;
        }
    } else if (*s == 'j' || *s == 'J') {
        s++;
        y = sign;
    } else {
        return false;
    }
    while (isspace((unsigned char)*s))
        s++;
    if (paren) {
        if (*s != ')')
            return false;
        s++;
        while (isspace((unsigned char)*s))
            s++;
    }
    if (*s)
        return false;
    out->re = x;
    out->im = y;
    return true;
}

static val builtin_complex(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                           src_span at)
{
    (void)self;
    val a[2];
    if (!host_args(h, at, "complex", "real=, imag=", argc, argv, kw, a))
        return val_err();
    if (a[0].kind == VAL_STR) {
        if (a[1].kind != VAL_MISSING)
            return host_raise(h, HOST_EXC_TYPE, at,
                              "complex() can't take second arg if first is a string");
        cplx z;
        if (!parse_complex(val_as_str(a[0])->s, &z))
            return host_raise(h, HOST_EXC_VALUE, at, "complex() arg is a malformed string");
        return complexval_new(z.re, z.im);
    }
    cplx r = {0, 0}, i = {0, 0};
    if (a[0].kind != VAL_MISSING && !complexval_parts(a[0], &r))
        return host_raise(h, HOST_EXC_TYPE, at, "complex() first argument must be a string or a "
                          "number, not '%s'", val_type_name(a[0]));
    if (a[1].kind == VAL_STR)
        return host_raise(h, HOST_EXC_TYPE, at, "complex() second arg can't be a string");
    if (a[1].kind != VAL_MISSING && !complexval_parts(a[1], &i))
        return host_raise(h, HOST_EXC_TYPE, at, "complex() second argument must be a number, "
                          "not '%s'", val_type_name(a[1]));
    /* complex(r, i) is r + i*1j, the parts of real operands left alone (so
     * that complex(0, -0.0) keeps its negative zero) */
    double re = complexval_is(a[1]) ? r.re - i.im : r.re;
    double im = complexval_is(a[0]) ? i.re + r.im : i.re;
    return complexval_new(re, im);
}

/* ---- cmath ------------------------------------------------------------------------ */

static bool one_arg(host *h, const char *fname, int argc, const val *argv, const val_kwargs *kw,
                    src_span at, cplx *z)
{
    val a[1];
    if (!host_args(h, at, fname, "z", argc, argv, kw, a))
        return false;
    if (!complexval_parts(a[0], z)) {
        host_raise(h, HOST_EXC_TYPE, at, "must be real number, not %s", val_type_name(a[0]));
        return false;
    }
    return true;
}

#define CMATH_FN(name) \
    static val cmath_##name(host *h, val self, int argc, const val *argv, const val_kwargs *kw, \
                            src_span at)

CMATH_FN(exp)
{
    (void)self;
    cplx z;
    if (!one_arg(h, "exp", argc, argv, kw, at, &z))
        return val_err();
    double l = exp(z.re);
    if (isinf(l) && isfinite(z.re) && isfinite(z.im))
        return host_raise(h, HOST_EXC_OVERFLOW, at, "math range error");
    if (z.im == 0)
        return complexval_new(l, z.im);
    return complexval_new(l * cos(z.im), l * sin(z.im));
}

static cplx c_log(cplx z)
{
    cplx r;
    double ax = fabs(z.re), ay = fabs(z.im);
    double hyp = hypot(ax, ay);
    if (0.71 <= hyp && hyp <= 1.73) {
        double am = ax > ay ? ax : ay, an = ax > ay ? ay : ax;
        r.re = log1p((am - 1) * (am + 1) + an * an) / 2.;
    } else {
        r.re = log(hyp);
    }
    r.im = atan2(z.im, z.re);
    return r;
}

CMATH_FN(log)
{
    (void)self;
    val a[2];
    cplx z, b;
    if (!host_args(h, at, "log", "x, base=", argc, argv, kw, a))
        return val_err();
    if (!complexval_parts(a[0], &z) || (a[1].kind != VAL_MISSING && !complexval_parts(a[1], &b)))
        return host_raise(h, HOST_EXC_TYPE, at, "must be real number, not %s",
                          val_type_name(complexval_parts(a[0], &z) ? a[1] : a[0]));
    if (z.re == 0 && z.im == 0)
        return host_raise(h, HOST_EXC_VALUE, at, "math domain error");
    cplx r = c_log(z);
    if (a[1].kind != VAL_MISSING) {
        cplx q;
        if (!complexval_div(r, c_log(b), &q))
            return host_raise(h, HOST_EXC_ZERO_DIVISION, at, "complex division by zero");
        r = q;
    }
    return complexval_new(r.re, r.im);
}

CMATH_FN(sqrt)
{
    (void)self;
    cplx z;
    if (!one_arg(h, "sqrt", argc, argv, kw, at, &z))
        return val_err();
    if (z.re == 0 && z.im == 0)
        return complexval_new(0.0, z.im);
    double ax = fabs(z.re), ay = fabs(z.im), s;
    if (ax < DBL_MIN && ay < DBL_MIN) {
        ax = ldexp(ax, 53);
        s = ldexp(sqrt(ax + hypot(ax, ldexp(ay, 53))), -27);
    } else {
        ax /= 8.;
        s = 2. * sqrt(ax + hypot(ax, ay / 8.));
    }
    double d = ay / (2. * s);
    if (z.re >= 0)
        return complexval_new(s, copysign(d, z.im));
    return complexval_new(d, copysign(s, z.im));
}

CMATH_FN(phase)
{
    (void)self;
    cplx z;
    if (!one_arg(h, "phase", argc, argv, kw, at, &z))
        return val_err();
    return val_float(atan2(z.im, z.re));
}

CMATH_FN(polar)
{
    (void)self;
    cplx z;
    if (!one_arg(h, "polar", argc, argv, kw, at, &z))
        return val_err();
    double r = hypot(z.re, z.im);
    if (isinf(r) && isfinite(z.re) && isfinite(z.im))
        return host_raise(h, HOST_EXC_OVERFLOW, at, "math range error");
    val parts[2] = {val_float(r), val_float(atan2(z.im, z.re))};
    return val_tuple_of(2, parts);
}

CMATH_FN(rect)
{
    (void)self;
    val a[2];
    if (!host_args(h, at, "rect", "r, phi", argc, argv, kw, a))
        return val_err();
    cplx r, phi;
    for (int i = 0; i < 2; i++)
        if (complexval_is(a[i]) || !complexval_parts(a[i], i ? &phi : &r))
            return host_raise(h, HOST_EXC_TYPE, at, "must be real number, not %s",
                              val_type_name(a[i]));
    if (phi.re == 0)    /* keeps the sign of zero, and rect(inf, 0) finite */
        return complexval_new(r.re, r.re * phi.re);
    return complexval_new(r.re * cos(phi.re), r.re * sin(phi.re));
}

static val cmath_test(host *h, const char *fname, int argc, const val *argv,
                      const val_kwargs *kw, src_span at, int which)
{
    cplx z;
    if (!one_arg(h, fname, argc, argv, kw, at, &z))
        return val_err();
    switch (which) {
    case 0: return val_bool(isnan(z.re) || isnan(z.im));
    case 1: return val_bool(isinf(z.re) || isinf(z.im));
    default: return val_bool(isfinite(z.re) && isfinite(z.im));
    }
}

CMATH_FN(isnan) { (void)self; return cmath_test(h, "isnan", argc, argv, kw, at, 0); }
CMATH_FN(isinf) { (void)self; return cmath_test(h, "isinf", argc, argv, kw, at, 1); }
CMATH_FN(isfinite) { (void)self; return cmath_test(h, "isfinite", argc, argv, kw, at, 2); }

/* cmath.isclose(a, b, *, rel_tol=1e-09, abs_tol=0.0) */
CMATH_FN(isclose)
{
    (void)self;
    val a[4];
    cplx x, y;
    double rel = 1e-9, abs_tol = 0.0;
    if (!host_args(h, at, "isclose", "a, b, *, rel_tol=, abs_tol=", argc, argv, kw, a))
        return val_err();
    if (!complexval_parts(a[0], &x) || !complexval_parts(a[1], &y))
        return host_raise(h, HOST_EXC_TYPE, at, "must be real number, not %s",
                          val_type_name(complexval_parts(a[0], &x) ? a[1] : a[0]));
    cplx t;
    if (a[2].kind != VAL_MISSING && complexval_parts(a[2], &t))
        rel = t.re;
    if (a[3].kind != VAL_MISSING && complexval_parts(a[3], &t))
        abs_tol = t.re;
    if (rel < 0 || abs_tol < 0)
        return host_raise(h, HOST_EXC_VALUE, at, "tolerances must be non-negative");
    if (x.re == y.re && x.im == y.im)
        return val_bool(true);
    if (isinf(x.re) || isinf(x.im) || isinf(y.re) || isinf(y.im))
        return val_bool(false);
    double diff = hypot(x.re - y.re, x.im - y.im);
    return val_bool((diff <= rel * hypot(y.re, y.im)) || (diff <= rel * hypot(x.re, x.im)) ||
                    diff <= abs_tol);
}

void builtin_cmath_init(host *h)
{
    builtin_type_new(h, "complex", builtin_complex, VAL_OBJECT, &complexval_type);
    val m = val_module_new("cmath");
    val_object_set(m, "pi", val_float(M_PI));
    val_object_set(m, "e", val_float(M_E));
    val_object_set(m, "tau", val_float(2 * M_PI));
    val_object_set(m, "inf", val_float(INFINITY));
    val_object_set(m, "nan", val_float(NAN));
    val_object_set(m, "infj", complexval_new(0.0, INFINITY));
    val_object_set(m, "nanj", complexval_new(0.0, NAN));
    static const struct { const char *name; val_cfunc fn; } fns[] = {
        {"cmath.exp", cmath_exp}, {"cmath.log", cmath_log}, {"cmath.sqrt", cmath_sqrt},
        {"cmath.phase", cmath_phase}, {"cmath.polar", cmath_polar}, {"cmath.rect", cmath_rect},
        {"cmath.isnan", cmath_isnan}, {"cmath.isinf", cmath_isinf},
        {"cmath.isfinite", cmath_isfinite}, {"cmath.isclose", cmath_isclose},
    };
    for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++)
        host_def(m, fns[i].name, fns[i].fn);
    host_register_module(h, "cmath", m);
}
