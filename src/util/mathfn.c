/* mathfn.c - scalar math functions C's libm lacks or leaves open
 * (mathfn.h). */
#define _DEFAULT_SOURCE   /* lgamma_r, j0 ... yn */
#include "mathfn.h"

#include <math.h>

/* erfinv: a first guess from M. Giles' single-precision approximation
 * ("Approximating the erfinv function", GPU Computing Gems, 2011), then
 * Halley steps on erf(y) = x (on erfc(y) = 1 - x for |x| > 1/2, where
 * 1 - x is exact and erf would lose the digits). */
static double erfinv_guess(double x)
{
    double w = -log((1.0 - x) * (1.0 + x)), p;
    if (w < 5.0) {
        w -= 2.5;
        p = 2.81022636e-08;
        p = 3.43273939e-07 + p * w;
        p = -3.5233877e-06 + p * w;
        p = -4.39150654e-06 + p * w;
        p = 0.00021858087 + p * w;
        p = -0.00125372503 + p * w;
        p = -0.00417768164 + p * w;
        p = 0.246640727 + p * w;
        p = 1.50140941 + p * w;
    } else {
        w = sqrt(w) - 3.0;
        p = -0.000200214257;
        p = 0.000100950558 + p * w;
        p = 0.00134934322 + p * w;
        p = -0.00367342844 + p * w;
        p = 0.00573950773 + p * w;
        p = -0.0076224613 + p * w;
        p = 0.00943887047 + p * w;
        p = 1.00167406 + p * w;
        p = 2.83297682 + p * w;
    }
    return p * x;
}

/* The y >= 0 with erf(y) = ax, given q = 1 - ax exactly (ax in [0, 1)). */
static double erfinv_pos(double ax, double q)
{
    double y;
    if (-log(q * (1.0 + ax)) < 16.0) {
        y = erfinv_guess(ax);
    } else {
        /* past Giles' range (q < 1e-7): erfc(y) ~ exp(-y^2) / (y sqrt(pi)) */
        double l = -log(q);
        y = sqrt(l);
        for (int i = 0; i < 2; i++)
            y = sqrt(l - log(y * 1.77245385090551602730));
    }
    const double two_over_sqrt_pi = 1.12837916709551257390;
    for (int i = 0; i < 8; i++) {
        /* f(y) = erf(y) - ax, f' = 2/sqrt(pi) exp(-y^2), f'' = -2 y f';
         * Halley: y -= f / (f' + y f).  Near 1, f = q - erfc(y). */
        double f = ax <= 0.5 ? erf(y) - ax : q - erfc(y);
        double d = two_over_sqrt_pi * exp(-y * y);
        double step = f / (d + y * f);
        y -= step;
        if (fabs(step) <= 0x1p-52 * y)
            break;
    }
    return y;
}

double mathfn_erfinv(double x)
{
    if (isnan(x) || x < -1.0 || x > 1.0)
        return NAN;
    if (x == 1.0 || x == -1.0)
        return x * INFINITY;
    if (x == 0.0)
        return x;
    double ax = fabs(x), y = erfinv_pos(ax, 1.0 - ax);
    return x < 0 ? -y : y;
}

/* erfcinv of a q so small that erfc(y) would lose digits to underflow
 * (y > 26): Newton on log erfc(y) = log q with erfc's asymptotic series,
 * erfc(y) = exp(-y^2) / (y sqrt(pi)) (1 - 1/(2y^2) + 3/(2y^2)^2 - ...). */
static double erfcinv_tiny(double q)
{
    double l = log(q), y = sqrt(-l);
    for (int i = 0; i < 8; i++) {
        double t = 1.0 / (2.0 * y * y);
        double series = 1.0 - t * (1.0 - 3.0 * t * (1.0 - 5.0 * t * (1.0 - 7.0 * t)));
        double h = -y * y - log(y) - 0.57236494292470008707 + log(series) - l;
        double step = h / (-2.0 * y - 1.0 / y);
        y -= step;
        if (fabs(step) <= 0x1p-52 * y)
            break;
    }
    return y;
}

double mathfn_erfcinv(double q)
{
    if (isnan(q) || q < 0.0 || q > 2.0)
        return NAN;
    if (q == 0.0 || q == 2.0)
        return q == 0.0 ? INFINITY : -INFINITY;
    if (q > 1.0)        /* erfcinv(q) = -erfcinv(2 - q); both exact */
        return -erfinv_pos(q - 1.0, 2.0 - q);
    if (q < 0x1p-1000)
        return erfcinv_tiny(q);
    return erfinv_pos(1.0 - q, q);
}

double mathfn_normcdfinv(double p)
{
    return -1.41421356237309504880 * mathfn_erfcinv(2.0 * p);
}

/* sin(pi r) or cos(pi r) for |r| <= 1/4 */
static double sinpi_small(double r) { return sin(M_PI * r); }
static double cospi_small(double r) { return cos(M_PI * r); }

double mathfn_sinpi(double x)
{
    if (!isfinite(x))
        return x - x;   /* NaN */
    double y = fabs(fmod(x, 2.0)), sign = 1.0;   /* exact, in [0, 2) */
    if (y >= 1.0) {     /* sin(pi (1 + t)) = -sin(pi t) */
        y -= 1.0;
        sign = -1.0;
    }
    if (y > 0.5)        /* sin(pi (1 - t)) = sin(pi t); 1 - y is exact */
        y = 1.0 - y;
    double r = y <= 0.25 ? sinpi_small(y) : cospi_small(0.5 - y);
    if (r == 0.0)
        return copysign(0.0, x);
    return x < 0 ? -sign * r : sign * r;
}

double mathfn_cospi(double x)
{
    if (!isfinite(x))
        return x - x;
    double y = fabs(fmod(x, 2.0)), sign = 1.0;
    if (y > 1.0)        /* cos(pi (2 - t)) = cos(pi t); 2 - y is exact */
        y = 2.0 - y;
    if (y > 0.5) {      /* cos(pi (1 - t)) = -cos(pi t) */
        y = 1.0 - y;
        sign = -1.0;
    }
    double r = y <= 0.25 ? cospi_small(y) : sinpi_small(0.5 - y);
    return r == 0.0 ? 0.0 : sign * r;
}

double mathfn_exp10(double x)
{
    return pow(10.0, x);
}

double mathfn_lgamma(double x)
{
    int sign;
    return lgamma_r(x, &sign);
}

/* 0.5 erfc(t), t = -x / sqrt 2 carried to twice double's precision
 * (t + lo) and erfc's slope applied to lo: the rounding of t alone would
 * cost 2 t^2 ulps (a hundred at x = -10).  The infinities are the limits,
 * 1 and 0, as libdevice's normcdf gives them (the correction term would
 * be inf - inf there). */
double mathfn_normcdf(double x)
{
    if (isinf(x))
        return x > 0 ? 1.0 : 0.0;
    const double c_hi = 0.70710678118654757, c_lo = -4.8336466567264567e-17;
    double t = -x * c_hi;
    double lo = fma(-x, c_hi, -t) - x * c_lo;
    return 0.5 * (erfc(t) - lo * 1.12837916709551257390 * exp(-t * t));
}

double mathfn_j0(double x) { return j0(x); }
double mathfn_j1(double x) { return j1(x); }
double mathfn_y0(double x) { return y0(x); }
double mathfn_y1(double x) { return y1(x); }
/* CUDA's jn and yn (and libdevice's) return NaN for a negative order,
 * where glibc would use J(-n) = (-1)^n J(n); kernels follow CUDA. */
double mathfn_jn(int n, double x) { return n < 0 ? NAN : jn(n, x); }
double mathfn_yn(int n, double x) { return n < 0 ? NAN : yn(n, x); }

double mathfn_saturate(double x)
{
    return x > 0.0 ? (x < 1.0 ? x : 1.0) : 0.0;
}

int32_t mathfn_ilogb(double x)
{
    if (x == 0.0 || isnan(x))
        return INT32_MIN;
    if (isinf(x))
        return INT32_MAX;
    return (int32_t)ilogb(x);
}

static int64_t to_int64_sat(double r)
{
    if (isnan(r))
        return 0;
    if (r >= 9223372036854775808.0)
        return INT64_MAX;
    if (r < -9223372036854775808.0)
        return INT64_MIN;
    return (int64_t)r;
}

int64_t mathfn_llrint(double x)
{
    return to_int64_sat(nearbyint(x));
}

int64_t mathfn_llround(double x)
{
    return to_int64_sat(round(x));
}

/* ---- bits ---------------------------------------------------------------- */

uint64_t mathfn_brev(uint64_t x, int bits)
{
    uint64_t r = 0;
    for (int i = 0; i < bits; i++, x >>= 1)
        r = (r << 1) | (x & 1);
    return r;
}

uint64_t mathfn_mulhi_u(uint64_t a, uint64_t b, int bits)
{
    if (bits < 64) {
        uint64_t m = ((uint64_t)1 << bits) - 1;
        return ((a & m) * (b & m)) >> bits;
    }
    uint64_t al = a & 0xffffffffu, ah = a >> 32, bl = b & 0xffffffffu, bh = b >> 32;
    uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
    uint64_t mid = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);
    return hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}

uint64_t mathfn_mulhi_s(int64_t a, int64_t b, int bits)
{
    if (bits <= 32)     /* the product fits: its high half, sign and all */
        return (uint64_t)((a * b) >> bits);
    /* the unsigned high half, less b where a < 0 and a where b < 0 */
    uint64_t h = mathfn_mulhi_u((uint64_t)a, (uint64_t)b, 64);
    if (a < 0)
        h -= (uint64_t)b;
    if (b < 0)
        h -= (uint64_t)a;
    return h;
}

uint32_t mathfn_byte_perm(uint32_t x, uint32_t y, uint32_t s)
{
    uint64_t in = ((uint64_t)y << 32) | x;
    uint32_t r = 0;
    for (int n = 0; n < 4; n++) {
        uint32_t sel = (s >> (4 * n)) & 7;
        r |= ((uint32_t)(in >> (8 * sel)) & 0xff) << (8 * n);
    }
    return r;
}
