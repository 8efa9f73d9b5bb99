/* mathmod.c - the math module: constants, the functions of one and two
 * floats (with Python's errors for a domain or range error), floor, ceil,
 * gcd, comb, isqrt, fsum (exactly rounded, as CPython's) and the rest. */
#define _DEFAULT_SOURCE   /* M_PI, M_E */
#include "builtins_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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
MATH1(exp2, exp2(x))
MATH1(cbrt, cbrt(x))
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
MATH2(nextafter, nextafter(x[0], x[1]))

/* ulp(x): the gap from |x| to the next float away from zero (CPython's
 * rule for the largest float: the gap below it). */
BUILTIN_FN(builtin_math_ulp)
{
    (void)self;
    double x;
    if (!builtin_math_arg(h, "ulp", argc, argv, kw, 1, &x, at))
        return val_err();
    if (isnan(x) || isinf(x))
        return val_float(fabs(x));
    x = fabs(x);
    double up = nextafter(x, INFINITY);
    if (isinf(up))
        return val_float(x - nextafter(x, 0));
    return val_float(up - x);
}

/* dist(p, q): the Euclidean distance of two points of as many
 * coordinates. */
BUILTIN_FN(builtin_math_dist)
{
    (void)self;
    if (!builtin_nargs(h, "dist", argc, kw, 2, 2, at))
        return val_err();
    val p = host_to_list(h, argv[0], at);
    if (p.kind == VAL_ERR)
        return p;
    val q = host_to_list(h, argv[1], at);
    if (q.kind == VAL_ERR) {
        val_unref(p);
        return q;
    }
    val r = val_none();
    const val_seq *a = val_as_seq(p), *b = val_as_seq(q);
    if (a->len != b->len) {
        r = host_raise(h, HOST_EXC_VALUE, at, "ValueError: both points must have the same "
                       "number of dimensions");
    } else {
        double acc = 0;
        for (size_t i = 0; i < a->len && r.kind != VAL_ERR; i++) {
            if (!builtin_is_num(a->items[i]) || !builtin_is_num(b->items[i]))
                r = host_raise(h, HOST_EXC_TYPE, at, "must be real number, not '%s'",
                               val_type_name(builtin_is_num(a->items[i]) ? b->items[i]
                                                                         : a->items[i]));
            else
                acc = hypot(acc, builtin_float_of(a->items[i]) - builtin_float_of(b->items[i]));
        }
        if (r.kind != VAL_ERR)
            r = val_float(acc);
    }
    val_unref(p);
    val_unref(q);
    return r;
}

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

void builtin_math_init(host *h)
{
    val m = val_module_new("math");
    val_object_set(m, "pi", val_float(M_PI));
    val_object_set(m, "e", val_float(M_E));
    val_object_set(m, "tau", val_float(2 * M_PI));
    val_object_set(m, "inf", val_float(INFINITY));
    val_object_set(m, "nan", val_float(NAN));
    static const struct { const char *name; val_cfunc fn; } fns[] = {
        {"math.sqrt", builtin_math_sqrt}, {"math.exp", builtin_math_exp},
        {"math.expm1", builtin_math_expm1}, {"math.exp2", builtin_math_exp2},
        {"math.cbrt", builtin_math_cbrt}, {"math.nextafter", builtin_math_nextafter},
        {"math.ulp", builtin_math_ulp}, {"math.dist", builtin_math_dist}, {"math.log", builtin_math_log},
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
    host_register_module(h, "math", m);
}
