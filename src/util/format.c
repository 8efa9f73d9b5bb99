/* format.c - numpy-style and torch-style printing of arrays and numbers
 * (format.h).
 *
 * The two array printers are ports of the libraries' algorithms, written
 * from their documented behaviour: numpy's array2string (_formatArray with
 * FloatingFormat / IntegerFormat / BoolFormat) and torch's _tensor_str
 * (_Formatter, _vector_str, _tensor_str_with_formatter, _add_suffixes).
 * Each keeps the library's structure so that a difference in output can be
 * traced to one step.  Digits come from the C library's correctly rounded
 * printf plus a shortest-round-trip search (format_shortest_digits). */
#include "format.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    EDGEITEMS = 3,
    THRESHOLD = 1000,
    NP_LINEWIDTH = 75,
    NP_PRECISION = 8,
    TORCH_LINEWIDTH = 80,
    TORCH_PRECISION = 4,
    NUMBUF = 512,     /* any "%.Nf" of a double with N <= 8 fits */
};

/* ---- shortest digits ------------------------------------------------- */

static int float_emin(dtype t)
{
    switch (t) {
    case DTYPE_FP8E4NV: return -6;
    case DTYPE_FP8E5: case DTYPE_FP16: return -14;
    case DTYPE_BF16: case DTYPE_FP32: return -126;
    default: return -1022;
    }
}

/* Compare the decimal c * 10^p with the double b (both > 0) exactly, by
 * their decimal digits (glibc prints a double's exact expansion). */
static int cmp_decimal(uint64_t c, int p, double b)
{
    char bd[256], cd[32];
    snprintf(bd, sizeof bd, "%.200e", b);
    char *be = strchr(bd, 'e');
    int bexp = atoi(be + 1);
    *be = '\0';
    memmove(bd + 1, bd + 2, strlen(bd + 2) + 1);    /* drop the point */
    int clen = snprintf(cd, sizeof cd, "%llu", (unsigned long long)c);
    int cexp = p + clen - 1;
    if (cexp != bexp)
        return cexp < bexp ? -1 : 1;
    size_t blen = strlen(bd), n = blen > (size_t)clen ? blen : (size_t)clen;
    for (size_t i = 0; i < n; i++) {
        char x = i < (size_t)clen ? cd[i] : '0';
        char y = i < blen ? bd[i] : '0';
        if (x != y)
            return x < y ? -1 : 1;
    }
    return 0;
}

/* Does the decimal c * 10^p round to x (> 0) in type t?  Its rounding
 * interval's ends count when x's significand is even (round half to
 * even), as in numpy's Dragon4 and Python's repr.  For fp16, bf16 and fp32
 * the ends are doubles, so the nearest double of the decimal decides
 * unless it lands on an end; then the digits are compared exactly. */
static bool candidate_ok(uint64_t c, int p, double x, dtype t)
{
    char s[48];
    snprintf(s, sizeof s, "%llue%d", (unsigned long long)c, p);
    double d = strtod(s, NULL);
    if (t == DTYPE_FP64 || dtype_mantissa_bits(t) == 0)
        return d == x;
    int fb = dtype_mantissa_bits(t), emin = float_emin(t), e;
    double f = frexp(x, &e);
    int ex = e - 1 < emin ? emin : e - 1;
    double ulp = ldexp(1.0, ex - fb);
    bool even = fmod(x / ulp, 2.0) == 0;
    double hi = x + ulp / 2;
    /* just above a power of two the gap below is half as wide */
    double lo = (f == 0.5 && e - 1 > emin) ? x - ulp / 4 : x - ulp / 2;
    if (d > lo && d < hi)
        return true;
    if (d == hi) {
        int c_hi = cmp_decimal(c, p, hi);
        return c_hi < 0 || (c_hi == 0 && even);
    }
    if (d == lo) {
        int c_lo = cmp_decimal(c, p, lo);
        return c_lo > 0 || (c_lo == 0 && even);
    }
    return false;
}

/* Write c * 10^p as digits without trailing zeros. */
static int emit_digits(uint64_t c, int p, char *digits, int *exp10)
{
    int len = snprintf(digits, 21, "%llu", (unsigned long long)c);
    int zeros = 0;
    while (len > 1 && digits[len - 1] == '0') {
        digits[--len] = '\0';
        zeros++;
    }
    *exp10 = p + zeros + len - 1;
    return len;
}

int format_shortest_digits(double x, dtype t, char *digits, int *exp10)
{
    x = fabs(x);
    if (x == 0 || !isfinite(x)) {
        strcpy(digits, "0");
        *exp10 = 0;
        return 1;
    }
    uint64_t pow10 = 1;    /* 10^(n-1) */
    for (int n = 1; n <= 17; n++, pow10 *= 10) {
        char s[48];
        snprintf(s, sizeof s, "%.*e", n - 1, x);
        uint64_t m = 0;
        const char *q = s;
        for (; *q && *q != 'e'; q++)
            if (*q >= '0' && *q <= '9')
                m = m * 10 + (uint64_t)(*q - '0');
        int p = atoi(q + (*q == 'e')) - (n - 1);
        /* The correctly rounded n-digit decimal first (it is the nearest),
         * then the n-digit decimals on either side of it: one of the
         * three is the truncation of x, the other its successor. */
        if (candidate_ok(m, p, x, t))
            return emit_digits(m, p, digits, exp10);
        if (m == pow10 && candidate_ok(pow10 * 10 - 1, p - 1, x, t))
            return emit_digits(pow10 * 10 - 1, p - 1, digits, exp10);
        if (m != pow10 && candidate_ok(m - 1, p, x, t))
            return emit_digits(m - 1, p, digits, exp10);
        if (candidate_ok(m + 1, p, x, t))
            return emit_digits(m + 1, p, digits, exp10);
    }
    /* 17 significant digits identify every double; not reached */
    char s[48];
    snprintf(s, sizeof s, "%.16e", x);
    uint64_t m = 0;
    const char *q = s;
    for (; *q && *q != 'e'; q++)
        if (*q >= '0' && *q <= '9')
            m = m * 10 + (uint64_t)(*q - '0');
    return emit_digits(m, atoi(q + 1) - 16, digits, exp10);
}

/* ---- one float as text ---------------------------------------------- */

/* Positional digits of |x|: the shortest unique ones, but at most cap
 * after the point (then correctly rounded, trailing zeros dropped), as
 * Dragon4 in numpy's 'maxprec' mode.  With to_units, digits that the
 * shortest form leaves out before the point are the exact ones (numpy's
 * min_digits=0: an fp16 65504 prints 65504., not 65500.).  ip gets the
 * integer part, fp the fraction (possibly empty). */
static void pos_parts(double x, dtype t, int cap, bool to_units, char *ip,
                      char *fp)
{
    char d[24];
    int e, n = format_shortest_digits(x, t, d, &e);
    bool cut = n - 1 - e > cap;
    if (cut || (to_units && n - 1 < e)) {
        char s[NUMBUF];
        snprintf(s, sizeof s, "%.*f", cut ? cap : 0, fabs(x));
        char *dot = strchr(s, '.');
        if (dot)
            *dot = '\0';
        strcpy(ip, s);
        strcpy(fp, dot ? dot + 1 : "");
        size_t len = strlen(fp);
        while (len > 0 && fp[len - 1] == '0')
            fp[--len] = '\0';
        return;
    }
    if (e < 0) {
        strcpy(ip, "0");
        int z = -e - 1;
        memset(fp, '0', (size_t)z);
        strcpy(fp + z, d);
        return;
    }
    int i = 0;
    for (; i <= e; i++)
        ip[i] = i < n ? d[i] : '0';
    ip[i] = '\0';
    strcpy(fp, n > e + 1 ? d + e + 1 : "");
}

/* Scientific digits of |x|: first digit, fraction (shortest, at most cap
 * digits, trailing zeros dropped) and decimal exponent.  With exact, the
 * fraction has exactly cap digits, correctly rounded: numpy's min_digits,
 * which continues with the value's exact digits rather than zeros (fp16
 * 65504 next to a 4-digit value prints 6.5504e+04). */
static void sci_parts(double x, dtype t, int cap, bool exact, char *first,
                      char *fp, int *exp10)
{
    char d[24];
    int n = format_shortest_digits(x, t, d, exp10);
    if (n - 1 > cap || (exact && n - 1 < cap)) {
        char s[64];
        snprintf(s, sizeof s, "%.*e", cap, fabs(x));
        char *ep = strchr(s, 'e');
        *exp10 = atoi(ep + 1);
        *ep = '\0';
        first[0] = s[0];
        first[1] = '\0';
        strcpy(fp, s[1] == '.' ? s + 2 : "");
        size_t len = strlen(fp);
        while (!exact && len > 0 && fp[len - 1] == '0')
            fp[--len] = '\0';
        return;
    }
    first[0] = d[0];
    first[1] = '\0';
    strcpy(fp, d + 1);
}

static const char *nonfinite_text(double x)
{
    if (isnan(x))
        return "nan";
    return x < 0 ? "-inf" : "inf";
}

/* numpy's scalar str (which for float64 is Python's repr): shortest
 * digits, positional with at least one fraction digit, or scientific
 * without trailing zeros. */
static void put_float_repr(strbuf *out, double x, dtype t, bool positional)
{
    if (!isfinite(x)) {
        strbuf_puts(out, nonfinite_text(x));
        return;
    }
    if (signbit(x))
        strbuf_putc(out, '-');
    if (positional) {
        char ip[NUMBUF], fp[NUMBUF];
        pos_parts(x, t, NUMBUF / 2, false, ip, fp);
        strbuf_printf(out, "%s.%s", ip, fp[0] ? fp : "0");
        return;
    }
    char first[2], fp[32];
    int e;
    sci_parts(x, t, 32, false, first, fp, &e);
    strbuf_printf(out, "%s%s%se%c%02d", first, fp[0] ? "." : "", fp,
                  e < 0 ? '-' : '+', abs(e));
}

void format_numpy_scalar(strbuf *out, dtype t, dtype_scalar v)
{
    if (dtype_is_ptr(t)) {
        strbuf_printf(out, "%llu", (unsigned long long)v.u);
    } else if (t == DTYPE_INT1) {
        strbuf_puts(out, v.u ? "True" : "False");
    } else if (dtype_is_signed(t)) {
        strbuf_printf(out, "%lld", (long long)v.i);
    } else if (dtype_is_int(t)) {
        strbuf_printf(out, "%llu", (unsigned long long)v.u);
    } else {
        long double ax = fabsl((long double)v.f);
        bool positional = v.f == 0 || (ax < 1e16L && ax >= 1e-4L);
        put_float_repr(out, v.f, t, positional);
    }
}

/* ---- walking an array ----------------------------------------------- */

typedef struct view {
    const char *base;
    dtype type;
    int ndim, size;          /* size: bytes per element */
    int64_t numel;
    const int64_t *shape;
    int64_t strides[FORMAT_MAX_DIMS];
    const uint8_t *mask;
} view;

static bool view_init(view *v, const format_array *a)
{
    if (!a || !dtype_valid(a->type) || a->ndim < 0 ||
        a->ndim > FORMAT_MAX_DIMS || (a->ndim > 0 && !a->shape))
        return false;
    v->base = a->data;
    v->mask = a->mask;
    v->type = a->type;
    v->ndim = a->ndim;
    v->size = dtype_size(a->type);
    v->shape = a->shape;
    v->numel = 1;
    for (int k = 0; k < a->ndim; k++) {
        if (a->shape[k] < 0)
            return false;
        if (a->shape[k] > 0 && v->numel > INT64_MAX / a->shape[k])
            return false;
        v->numel *= a->shape[k];
    }
    if (v->numel > 0 && !a->data)
        return false;
    int64_t step = 1;
    for (int k = a->ndim - 1; k >= 0; k--) {
        v->strides[k] = a->strides ? a->strides[k] : step;
        step *= a->shape[k] > 0 ? a->shape[k] : 1;
    }
    return true;
}

static dtype_scalar view_at(const view *v, const int64_t *idx)
{
    int64_t off = 0;
    for (int k = 0; k < v->ndim; k++)
        off += idx[k] * v->strides[k];
    return dtype_load(v->type, v->base + off * v->size);
}

/* Index k of the values that are shown along an axis of length n: all of
 * them, or the first and last EDGEITEMS when summarising. */
static int64_t shown_count(int64_t n, bool summarize)
{
    return summarize && n > 2 * EDGEITEMS ? 2 * EDGEITEMS : n;
}

static int64_t shown_index(int64_t n, bool summarize, int64_t k)
{
    if (summarize && n > 2 * EDGEITEMS && k >= EDGEITEMS)
        return n - 2 * EDGEITEMS + k;
    return k;
}

/* Call fn on every value that will be shown (numpy's _leading_trailing,
 * torch's get_summarized_data): the formats are measured on these only. */
static void for_each_shown(const view *v, bool summarize,
                           void (*fn)(void *ctx, dtype_scalar x), void *ctx)
{
    int64_t k[FORMAT_MAX_DIMS] = {0}, idx[FORMAT_MAX_DIMS];
    if (v->numel == 0)
        return;
    for (;;) {
        for (int d = 0; d < v->ndim; d++)
            idx[d] = shown_index(v->shape[d], summarize, k[d]);
        fn(ctx, view_at(v, idx));
        int d = v->ndim - 1;
        while (d >= 0 && ++k[d] == shown_count(v->shape[d], summarize))
            k[d--] = 0;
        if (d < 0)
            return;
    }
}

/* ---- numpy: element formats ----------------------------------------- */

typedef struct np_fmt {
    dtype type;
    /* ints */
    int width;
    /* floats (FloatingFormat) */
    bool exp_format;
    int precision, pad_left, pad_right, exp_size;
    /* measuring pass */
    bool any_nonzero, any_finite, any_nonfinite, neg_inf;
    double max_abs, min_abs;
    int64_t imax, imin;
    uint64_t umax;
} np_fmt;

static void np_measure_value(void *ctx, dtype_scalar x)
{
    np_fmt *f = ctx;
    if (dtype_is_float(f->type)) {
        if (!isfinite(x.f)) {
            f->any_nonfinite = true;
            f->neg_inf |= isinf(x.f) && x.f < 0;
            return;
        }
        f->any_finite = true;
        double a = fabs(x.f);
        if (a == 0)
            return;
        if (!f->any_nonzero || a > f->max_abs)
            f->max_abs = a;
        if (!f->any_nonzero || a < f->min_abs)
            f->min_abs = a;
        f->any_nonzero = true;
    } else if (dtype_is_signed(f->type)) {
        if (!f->any_finite || x.i > f->imax)
            f->imax = x.i;
        if (!f->any_finite || x.i < f->imin)
            f->imin = x.i;
        f->any_finite = true;
    } else {
        if (x.u > f->umax)
            f->umax = x.u;
    }
}

/* The widths of the fixed or scientific texts (FloatingFormat.fillFormat). */
static void np_measure_text(void *ctx, dtype_scalar x)
{
    np_fmt *f = ctx;
    if (!isfinite(x.f))
        return;
    int neg = signbit(x.f) ? 1 : 0;
    char ip[NUMBUF], fp[NUMBUF];
    int len_int, len_frac;
    if (f->exp_format) {
        int e;
        sci_parts(x.f, f->type, NP_PRECISION, false, ip, fp, &e);
        char es[16];
        int len_exp = snprintf(es, sizeof es, "%02d", abs(e));
        if (len_exp > f->exp_size)
            f->exp_size = len_exp;
        len_int = 1 + neg;
        len_frac = (int)strlen(fp);
    } else {
        pos_parts(x.f, f->type, NP_PRECISION, false, ip, fp);
        len_int = (int)strlen(ip) + neg;
        len_frac = (int)strlen(fp);
    }
    if (len_int > f->pad_left)
        f->pad_left = len_int;
    if (len_frac > f->precision)
        f->precision = len_frac;
}

/* max / min computed in the array's own type, as numpy does. */
static double ratio_in_type(dtype t, double hi, double lo)
{
    if (t == DTYPE_FP64)
        return hi / lo;
    float r = (float)hi / (float)lo;
    return t == DTYPE_FP32 ? r : dtype_round_float(t, r);
}

static void np_fmt_init(np_fmt *f, const view *v, bool summarize)
{
    memset(f, 0, sizeof *f);
    f->type = v->type;
    for_each_shown(v, summarize, np_measure_value, f);
    if (dtype_is_ptr(v->type) || (dtype_is_int(v->type) && v->type != DTYPE_INT1)) {
        char a[32], b[32];
        if (dtype_is_signed(v->type)) {
            int la = snprintf(a, sizeof a, "%lld", (long long)f->imax);
            int lb = snprintf(b, sizeof b, "%lld", (long long)f->imin);
            f->width = la > lb ? la : lb;
        } else {
            f->width = snprintf(a, sizeof a, "%llu", (unsigned long long)f->umax);
        }
        return;
    }
    if (!dtype_is_float(v->type))
        return;
    if (f->any_nonzero)
        f->exp_format = f->max_abs >= 1e8 || f->min_abs < 1e-4 ||
                        ratio_in_type(v->type, f->max_abs, f->min_abs) > 1000.0;
    /* precision holds the widest fraction while measuring */
    for_each_shown(v, summarize, np_measure_text, f);
    if (!f->any_finite) {
        f->pad_left = f->pad_right = 0;
    } else if (f->exp_format) {
        f->pad_right = f->exp_size + 2 + f->precision;
    } else {
        f->pad_right = f->precision;
        f->precision = NP_PRECISION;
    }
    if (f->any_nonfinite) {
        int offset = f->pad_right + 1;
        int need = 3 + (f->neg_inf ? 1 : 0) - offset;
        if (need > f->pad_left)
            f->pad_left = need;
    }
}

static void np_put_float(strbuf *out, const np_fmt *f, double x)
{
    if (!isfinite(x)) {
        const char *s = nonfinite_text(x);
        int w = f->pad_left + f->pad_right + 1 - (int)strlen(s);
        strbuf_repeat(out, ' ', w > 0 ? (size_t)w : 0);
        strbuf_puts(out, s);
        return;
    }
    const char *sign = signbit(x) ? "-" : "";
    char ip[NUMBUF], fp[NUMBUF];
    if (f->exp_format) {
        int e;
        sci_parts(x, f->type, f->precision, true, ip, fp, &e);
        int pad = f->pad_left - (int)strlen(ip) - (int)strlen(sign);
        strbuf_repeat(out, ' ', pad > 0 ? (size_t)pad : 0);
        strbuf_printf(out, "%s%s.%s", sign, ip, fp);
        strbuf_printf(out, "e%c%0*d", e < 0 ? '-' : '+', f->exp_size, abs(e));
        return;
    }
    pos_parts(x, f->type, NP_PRECISION, true, ip, fp);
    int pad = f->pad_left - (int)strlen(ip) - (int)strlen(sign);
    strbuf_repeat(out, ' ', pad > 0 ? (size_t)pad : 0);
    strbuf_printf(out, "%s%s.%s", sign, ip, fp);
    int rpad = f->pad_right - (int)strlen(fp);
    strbuf_repeat(out, ' ', rpad > 0 ? (size_t)rpad : 0);
}

static void np_put_elem(strbuf *out, const np_fmt *f, dtype_scalar x)
{
    if (f->type == DTYPE_INT1) {
        strbuf_puts(out, x.u ? " True" : "False");
    } else if (dtype_is_float(f->type)) {
        np_put_float(out, f, x.f);
    } else if (dtype_is_signed(f->type)) {
        strbuf_printf(out, "%*lld", f->width, (long long)x.i);
    } else {
        strbuf_printf(out, "%*llu", f->width, (unsigned long long)x.u);
    }
}

/* ---- numpy: _formatArray -------------------------------------------- */

typedef struct np_ctx {
    const view *v;
    const np_fmt *f;
    bool summarize;
    int64_t idx[FORMAT_MAX_DIMS];
} np_ctx;

/* _extendLine: append word to line, first moving line to s when it would
 * grow past width (unless the line holds no more than its indent). */
static void np_extend_line(strbuf *s, strbuf *line, const char *word,
                           int width, size_t hang)
{
    size_t wlen = strlen(word);
    bool wrap = line->len + wlen > (size_t)width && line->len > hang;
    if (wrap) {
        size_t n = line->len;
        while (n > 0 && line->data[n - 1] == ' ')
            n--;
        strbuf_putn(s, line->data, n);
        strbuf_putc(s, '\n');
        strbuf_clear(line);
        strbuf_repeat(line, ' ', hang);
    }
    strbuf_puts(line, word);
}

static void np_rec(np_ctx *c, int axis, size_t hang, int width, strbuf *res);

/* The text of the sub-array at position i of axis, for _formatArray. */
static void np_item(np_ctx *c, int axis, int64_t i, size_t hang, int width,
                    strbuf *word)
{
    strbuf_clear(word);
    c->idx[axis] = i;
    if (axis + 1 == c->v->ndim) {
        np_put_elem(word, c->f, view_at(c->v, c->idx));
        int64_t lin = 0;
        for (int k = 0; k < c->v->ndim; k++)
            lin = lin * c->v->shape[k] + c->idx[k];
        if (c->v->mask && !c->v->mask[lin]) {    /* "--", as wide as the value */
            size_t w = word->len > 2 ? word->len : 2;
            strbuf_clear(word);
            strbuf_repeat(word, ' ', w - 2);
            strbuf_puts(word, "--");
        }
    } else
        np_rec(c, axis + 1, hang, width, word);
}

static void np_rec(np_ctx *c, int axis, size_t hang, int width, strbuf *res)
{
    int axes_left = c->v->ndim - axis;
    int64_t n = c->v->shape[axis];
    bool summary = c->summarize && 2 * EDGEITEMS < n;
    int64_t leading = summary ? EDGEITEMS : 0;
    int64_t trailing = summary ? EDGEITEMS : n;
    size_t next_hang = hang + 1;
    int next_width = width - 1;
    strbuf s, word;
    strbuf_init(&s);
    strbuf_init(&word);

    if (axes_left == 1) {
        int elem_width = width - 1;    /* room for the closing ']' */
        strbuf line;
        strbuf_init(&line);
        strbuf_repeat(&line, ' ', hang);
        for (int64_t i = 0; i < leading; i++) {
            np_item(c, axis, i, next_hang, next_width, &word);
            np_extend_line(&s, &line, strbuf_cstr(&word), elem_width, hang);
            strbuf_putc(&line, ' ');
        }
        if (summary) {
            np_extend_line(&s, &line, "...", elem_width, hang);
            strbuf_putc(&line, ' ');
        }
        for (int64_t i = trailing; i > 1; i--) {
            np_item(c, axis, n - i, next_hang, next_width, &word);
            np_extend_line(&s, &line, strbuf_cstr(&word), elem_width, hang);
            strbuf_putc(&line, ' ');
        }
        np_item(c, axis, n - 1, next_hang, next_width, &word);
        np_extend_line(&s, &line, strbuf_cstr(&word), elem_width, hang);
        strbuf_putn(&s, line.data, line.len);
        strbuf_free(&line);
    } else {
        for (int64_t j = 0; j < leading + trailing + summary; j++) {
            bool dots = summary && j == leading;
            int64_t i = j < leading ? j : n - (leading + trailing + summary - j);
            strbuf_repeat(&s, ' ', hang);
            if (dots) {
                strbuf_puts(&s, "...");
            } else {
                np_item(c, axis, i, next_hang, next_width, &word);
                strbuf_putn(&s, word.data, word.len);
            }
            if (j + 1 < leading + trailing + summary)
                strbuf_repeat(&s, '\n', (size_t)(axes_left - 1));
        }
    }
    strbuf_putc(res, '[');
    strbuf_puts(res, strbuf_cstr(&s) + (s.len >= hang ? hang : s.len));
    strbuf_putc(res, ']');
    strbuf_free(&s);
    strbuf_free(&word);
}

bool format_numpy(strbuf *out, const format_array *a)
{
    view v;
    if (!view_init(&v, a))
        return false;
    if (v.ndim == 0) {
        format_numpy_scalar(out, v.type, dtype_load(v.type, v.base));
        return true;
    }
    if (v.numel == 0) {
        strbuf_puts(out, "[]");
        return true;
    }
    np_fmt f;
    np_ctx c = {.v = &v, .f = &f, .summarize = v.numel > THRESHOLD};
    np_fmt_init(&f, &v, c.summarize);
    np_rec(&c, 0, 1, NP_LINEWIDTH, out);
    return true;
}

/* ---- torch: _Formatter ---------------------------------------------- */

typedef struct torch_fmt {
    dtype type;
    bool floating, int_mode, sci_mode;
    int max_width;
    /* measuring pass */
    bool any;
    double max_abs, min_abs;
} torch_fmt;

static int put_int_text(char *buf, size_t n, dtype t, dtype_scalar x)
{
    if (t == DTYPE_INT1)
        return snprintf(buf, n, "%s", x.u ? "True" : "False");
    if (dtype_is_signed(t))
        return snprintf(buf, n, "%lld", (long long)x.i);
    return snprintf(buf, n, "%llu", (unsigned long long)x.u);
}

/* The text of one float before padding (_Formatter.format). */
static int torch_float_text(char *buf, size_t n, const torch_fmt *f, double x)
{
    if (!isfinite(x))
        return snprintf(buf, n, "%s", nonfinite_text(x));
    if (f->sci_mode)
        return snprintf(buf, n, "%.*e", TORCH_PRECISION, x);
    if (f->int_mode)
        return snprintf(buf, n, "%.0f.", x);
    return snprintf(buf, n, "%.*f", TORCH_PRECISION, x);
}

static void torch_measure_value(void *ctx, dtype_scalar x)
{
    torch_fmt *f = ctx;
    if (!f->floating) {
        char buf[32];
        int len = put_int_text(buf, sizeof buf, f->type, x);
        if (len > f->max_width)
            f->max_width = len;
        return;
    }
    if (!isfinite(x.f) || x.f == 0)
        return;
    double a = fabs(x.f);
    if (!f->any || a > f->max_abs)
        f->max_abs = a;
    if (!f->any || a < f->min_abs)
        f->min_abs = a;
    f->any = true;
    if (x.f != ceil(x.f))
        f->int_mode = false;
}

static void torch_measure_text(void *ctx, dtype_scalar x)
{
    torch_fmt *f = ctx;
    if (!isfinite(x.f) || x.f == 0)
        return;
    char buf[NUMBUF];
    int len = torch_float_text(buf, sizeof buf, f, x.f);
    if (len > f->max_width)
        f->max_width = len;
}

static void torch_fmt_init(torch_fmt *f, const view *v, bool summarize)
{
    memset(f, 0, sizeof *f);
    f->type = v->type;
    f->floating = dtype_is_float(v->type);
    f->int_mode = true;
    f->max_width = 1;
    for_each_shown(v, summarize, torch_measure_value, f);
    if (!f->floating || !f->any)
        return;
    double ratio = f->max_abs / f->min_abs;
    if (f->int_mode)
        f->sci_mode = ratio > 1000.0 || f->max_abs > 1.0e8;
    else
        f->sci_mode = ratio > 1000.0 || f->max_abs > 1.0e8 || f->min_abs < 1.0e-4;
    for_each_shown(v, summarize, torch_measure_text, f);
}

static void torch_put_elem(strbuf *out, const torch_fmt *f, dtype_scalar x)
{
    char buf[NUMBUF];
    int len = f->floating ? torch_float_text(buf, sizeof buf, f, x.f)
                          : put_int_text(buf, sizeof buf, f->type, x);
    if (len < f->max_width)
        strbuf_repeat(out, ' ', (size_t)(f->max_width - len));
    strbuf_puts(out, buf);
}

/* A complex element (_vector_str's _val_formatter): the real part padded,
 * then the imaginary part padded, "j" added and the padding stripped,
 * joined by "+" unless it starts with a sign. */
static void torch_put_complex(strbuf *out, const torch_fmt *f, const torch_fmt *fi,
                              dtype_scalar re, dtype_scalar im)
{
    torch_put_elem(out, f, re);
    strbuf s = {0};
    torch_put_elem(&s, fi, im);
    const char *t = strbuf_cstr(&s);
    while (*t == ' ')
        t++;
    if (*t != '+' && *t != '-')
        strbuf_putc(out, '+');
    strbuf_puts(out, t);
    strbuf_putc(out, 'j');
    strbuf_free(&s);
}

/* ---- torch: _tensor_str_with_formatter ------------------------------ */

typedef struct torch_ctx {
    const view *v;
    const torch_fmt *f;
    const view *vi;          /* complex: the imaginary parts (v: the real) */
    const torch_fmt *fi;
    bool summarize;
    int64_t idx[FORMAT_MAX_DIMS];
} torch_ctx;

/* The element at c->idx, real or complex. */
static void torch_put_at(strbuf *out, const torch_ctx *c)
{
    if (c->vi)
        torch_put_complex(out, c->f, c->fi, view_at(c->v, c->idx), view_at(c->vi, c->idx));
    else
        torch_put_elem(out, c->f, view_at(c->v, c->idx));
}

/* _vector_str: the last axis, wrapped to whole elements per line. */
static void torch_vector(torch_ctx *c, int axis, int indent, strbuf *out)
{
    int64_t n = c->v->shape[axis];
    bool summary = c->summarize && n > 2 * EDGEITEMS;
    int64_t count = summary ? 2 * EDGEITEMS + 1 : n;
    int element_length = c->f->max_width + 2;
    if (c->vi)    /* the imaginary part and its "j" */
        element_length += c->fi->max_width + 1;
    int per_line = TORCH_LINEWIDTH - indent > 0
                   ? (TORCH_LINEWIDTH - indent) / element_length : 0;
    if (per_line < 1)
        per_line = 1;
    strbuf_putc(out, '[');
    for (int64_t j = 0; j < count; j++) {
        if (j > 0 && j % per_line == 0) {
            strbuf_puts(out, ",\n");
            strbuf_repeat(out, ' ', (size_t)indent + 1);
        } else if (j > 0) {
            strbuf_puts(out, ", ");
        }
        if (summary && j == EDGEITEMS) {
            strbuf_puts(out, " ...");
            continue;
        }
        c->idx[axis] = summary && j > EDGEITEMS ? n - (count - j) : j;
        torch_put_at(out, c);
    }
    strbuf_putc(out, ']');
}

static void torch_rec(torch_ctx *c, int axis, int indent, strbuf *out)
{
    int dim = c->v->ndim - axis;
    if (dim == 1) {
        torch_vector(c, axis, indent, out);
        return;
    }
    int64_t n = c->v->shape[axis];
    bool summary = c->summarize && n > 2 * EDGEITEMS;
    int64_t count = summary ? 2 * EDGEITEMS + 1 : n;
    strbuf_putc(out, '[');
    for (int64_t j = 0; j < count; j++) {
        if (j > 0) {
            strbuf_putc(out, ',');
            strbuf_repeat(out, '\n', (size_t)(dim - 1));
            strbuf_repeat(out, ' ', (size_t)indent + 1);
        }
        if (summary && j == EDGEITEMS) {
            strbuf_puts(out, "...");
            continue;
        }
        c->idx[axis] = summary && j > EDGEITEMS ? n - (count - j) : j;
        torch_rec(c, axis + 1, indent + 1, out);
    }
    strbuf_putc(out, ']');
}

/* _add_suffixes: ", name=value" pieces, each moved to a new line when the
 * current one would pass the line width. */
static void torch_add_suffixes(strbuf *out, size_t start, int indent,
                               const char *const *suffixes, int n)
{
    const char *text = out->data + start;
    const char *nl = strrchr(text, '\n');
    /* Python: len(s) - s.rfind("\n") + 1, with rfind -1 when absent */
    long last_line_len = (long)(out->len - start) -
                         (nl ? (long)(nl - text) : -1) + 1;
    for (int i = 0; i < n; i++) {
        long slen = (long)strlen(suffixes[i]);
        if (last_line_len + slen + 2 > TORCH_LINEWIDTH) {
            strbuf_puts(out, ",\n");
            strbuf_repeat(out, ' ', (size_t)indent);
            last_line_len = indent + slen;
        } else {
            strbuf_puts(out, ", ");
            last_line_len += slen + 2;
        }
        strbuf_puts(out, suffixes[i]);
    }
    strbuf_putc(out, ')');
}

bool format_torch(strbuf *out, const format_array *a,
                  const format_torch_opts *opts)
{
    view v, vi;
    bool cx = opts && opts->complex;
    if (!view_init(&v, a) || dtype_is_ptr(v.type))
        return false;
    if (cx) {
        /* the last dimension holds the parts: drop it from both views */
        if (v.ndim < 1 || v.shape[v.ndim - 1] != 2 ||
            (v.type != DTYPE_FP32 && v.type != DTYPE_FP64))
            return false;
        v.ndim--;
        v.numel /= 2;
        vi = v;
        vi.base += v.strides[v.ndim] * v.size;
    }
    static const char prefix[] = "tensor(";
    const int indent = (int)sizeof prefix - 1;
    char device[128], dtype_text[64], size_text[FORMAT_MAX_DIMS * 22 + 16];
    const char *suffixes[4];
    int nsuffix = 0;

    if (opts && opts->device) {
        snprintf(device, sizeof device, "device='%s'", opts->device);
        suffixes[nsuffix++] = device;
    }
    snprintf(dtype_text, sizeof dtype_text, "dtype=%s",
             !cx ? dtype_torch_name(v.type)
                 : v.type == DTYPE_FP32 ? "torch.complex64" : "torch.complex128");
    size_t start = out->len;
    strbuf_puts(out, prefix);
    if (v.numel == 0) {
        if (v.ndim != 1) {
            size_t k = (size_t)snprintf(size_text, sizeof size_text, "size=(");
            for (int d = 0; d < v.ndim; d++)
                k += (size_t)snprintf(size_text + k, sizeof size_text - k,
                                      d ? ", %lld" : "%lld", (long long)v.shape[d]);
            snprintf(size_text + k, sizeof size_text - k, ")");
            suffixes[nsuffix++] = size_text;
        }
        if (v.type != DTYPE_FP32 || cx)
            suffixes[nsuffix++] = dtype_text;
        strbuf_puts(out, "[]");
    } else {
        /* complex64 is the default complex dtype: no suffix, as float32 */
        if (v.type != DTYPE_FP32 && v.type != DTYPE_INT64 && v.type != DTYPE_INT1)
            suffixes[nsuffix++] = dtype_text;
        torch_fmt f, fi;
        torch_ctx c = {.v = &v, .f = &f, .summarize = v.numel > THRESHOLD};
        torch_fmt_init(&f, &v, c.summarize);
        if (cx) {
            torch_fmt_init(&fi, &vi, c.summarize);
            c.vi = &vi;
            c.fi = &fi;
        }
        if (v.ndim == 0)
            torch_put_at(out, &c);
        else
            torch_rec(&c, 0, indent, out);
    }
    if (opts && opts->requires_grad)
        suffixes[nsuffix++] = "requires_grad=True";
    torch_add_suffixes(out, start, indent, suffixes, nsuffix);
    return true;
}
