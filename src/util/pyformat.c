/* pyformat.c - CPython's text forms of numbers and strings: float repr
 * (shortest round-trip digits), string repr, the format-spec mini-language
 * for int, float and str, and float round().
 *
 * Digits always come from the C library's correctly rounded printf (glibc
 * prints exact decimal expansions), so only the layout rules are
 * re-implemented here: where the decimal point and exponent go, grouping,
 * signs, fill and alignment, as in CPython's formatter_unicode.c. */
#define _POSIX_C_SOURCE 200809L
#include "pyformat.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "strbuf.h"

/* n copies of the UTF-8 character (or string) s. */
static void pyformat_repeat(strbuf *b, const char *s, int64_t times)
{
    size_t n = strlen(s);
    for (int64_t i = 0; i < times; i++)
        strbuf_putn(b, s, n);
}

size_t pyformat_utf8_len(const char *s, size_t len)
{
    size_t n = 0;
    for (size_t i = 0; i < len; i++)
        if (((unsigned char)s[i] & 0xC0) != 0x80)
            n++;
    return n;
}

/* ---- spec parsing ------------------------------------------------------- */

/* Specs bigger than this would only allocate memory for nothing. */
enum { PYFORMAT_MAX_WIDTH = 10000000, PYFORMAT_MAX_PREC = 100000 };

static bool pyformat_is_align(char c)
{
    return c == '<' || c == '>' || c == '^' || c == '=';
}

/* Length of the UTF-8 character starting at s (1 for a stray byte). */
static size_t pyformat_char_len(const char *s, size_t avail)
{
    unsigned char c = (unsigned char)s[0];
    size_t n = c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
    if (n > avail)
        n = 1;
    for (size_t i = 1; i < n; i++)
        if (((unsigned char)s[i] & 0xC0) != 0x80)
            return 1;
    return n;
}

/* Read a decimal number at spec[*pos]; -1 when there is none, -2 when it
 * is too large. */
static int64_t pyformat_read_num(const char *spec, size_t len, size_t *pos)
{
    int64_t n = -1;
    while (*pos < len && spec[*pos] >= '0' && spec[*pos] <= '9') {
        if (n < 0)
            n = 0;
        if (n > (INT64_MAX - 9) / 10)
            n = -3;   /* keep reading, remember the overflow */
        if (n >= 0)
            n = n * 10 + (spec[*pos] - '0');
        (*pos)++;
    }
    return n == -3 ? -2 : n;
}

static void pyformat_bad_sep(char sep, char type, char *err, size_t errlen)
{
    if (type > ' ' && type < 127)
        snprintf(err, errlen, "Cannot specify '%c' with '%c'.", sep, type);
    else
        snprintf(err, errlen, "Cannot specify '%c' with '\\x%x'.", sep,
                 (unsigned char)type);
}

bool pyformat_parse_spec(const char *spec, size_t len, const char *type_name,
                         pyformat_spec *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->width = -1;
    out->precision = -1;
    size_t pos = 0;
    bool fill_given = false;

    size_t c0 = len ? pyformat_char_len(spec, len) : 0;
    if (len > c0 && pyformat_is_align(spec[c0])) {
        memcpy(out->fill, spec, c0);
        out->fill[c0] = '\0';
        out->align = spec[c0];
        fill_given = true;
        pos = c0 + 1;
    } else if (len && pyformat_is_align(spec[0])) {
        out->align = spec[0];
        pos = 1;
    }
    if (pos < len && (spec[pos] == '+' || spec[pos] == '-' || spec[pos] == ' '))
        out->sign = spec[pos++];
    if (pos < len && spec[pos] == 'z') {
        out->z = true;
        pos++;
    }
    if (pos < len && spec[pos] == '#') {
        out->alt = true;
        pos++;
    }
    if (!fill_given && pos < len && spec[pos] == '0') {
        out->zero = true;
        pos++;
    }
    out->width = pyformat_read_num(spec, len, &pos);
    if (out->width == -2 || out->width > PYFORMAT_MAX_WIDTH) {
        snprintf(err, errlen, "Too many decimal digits in format string");
        return false;
    }
    if (pos < len && (spec[pos] == ',' || spec[pos] == '_')) {
        out->grouping = spec[pos++];
        if (pos < len && (spec[pos] == ',' || spec[pos] == '_')) {
            if (spec[pos] == out->grouping)
                snprintf(err, errlen, "Cannot specify '%c' with '%c'.", spec[pos],
                         spec[pos]);
            else
                snprintf(err, errlen, "Cannot specify both ',' and '_'.");
            return false;
        }
    }
    if (pos < len && spec[pos] == '.') {
        pos++;
        out->precision = pyformat_read_num(spec, len, &pos);
        if (out->precision == -1) {
            snprintf(err, errlen, "Format specifier missing precision");
            return false;
        }
        if (out->precision == -2) {
            snprintf(err, errlen, "Too many decimal digits in format string");
            return false;
        }
    }
    if (len - pos > 1) {
        snprintf(err, errlen, "Invalid format specifier '%.*s' for object of type '%s'",
                 (int)len, spec, type_name);
        return false;
    }
    if (pos < len)
        out->type = spec[pos];
    if (out->grouping) {
        switch (out->type) {
        case 'd': case 'e': case 'f': case 'g': case 'E': case 'G': case '%':
        case 'F': case '\0':
            break;
        case 'b': case 'o': case 'x': case 'X':
            if (out->grouping == '_')
                break;
            /* fall through */
        default:
            pyformat_bad_sep(out->grouping, out->type, err, errlen);
            return false;
        }
    }
    return true;
}

/* The '0' flag: fill with zeros between sign and digits, unless a fill or
 * alignment was given.  Only numbers default to '=' this way. */
static void pyformat_number_defaults(const pyformat_spec *in, pyformat_spec *s)
{
    *s = *in;
    if (s->zero && !s->fill[0]) {
        strcpy(s->fill, "0");
        if (!s->align)
            s->align = '=';
    }
    if (!s->fill[0])
        strcpy(s->fill, " ");
    if (!s->align)
        s->align = '>';
}

/* ---- number layout ------------------------------------------------------ */

/* Write digits[0..n) grouped by sep every `every` digits, padded with
 * leading zeros (and separators) to at least min_width characters, as
 * CPython's _PyUnicode_InsertThousandsGrouping does. */
static void pyformat_group(strbuf *b, const char *digits, size_t n, char sep,
                           int every, int64_t min_width)
{
    /* Build right to left into a scratch buffer, then append reversed. */
    strbuf rev = {0};
    size_t i = n;
    int in_group = 0;
    while (i > 0 || (int64_t)rev.len < min_width) {
        if (in_group == every) {
            strbuf_putc(&rev, sep);
            in_group = 0;
        }
        strbuf_putc(&rev, i > 0 ? digits[--i] : '0');
        in_group++;
    }
    for (size_t k = rev.len; k > 0; k--)
        strbuf_putc(b, rev.data[k - 1]);
    strbuf_free(&rev);
}

/* Lay out a number: sign, prefix ("0x"), integer digits (grouped), rest
 * (fraction, exponent, '%', or "inf"), then fill and align. */
static void pyformat_number(strbuf *b, const pyformat_spec *spec, char sign,
                            const char *prefix, const char *digits, size_t ndigits,
                            const char *rest, int every)
{
    strbuf body = {0};
    int64_t lead = (sign ? 1 : 0) + (int64_t)strlen(prefix);
    int64_t rest_len = (int64_t)pyformat_utf8_len(rest, strlen(rest));
    if (spec->grouping && ndigits > 0) {
        int64_t min_width = 0;
        if (!strcmp(spec->fill, "0") && spec->align == '=' && spec->width > 0)
            min_width = spec->width - lead - rest_len;
        pyformat_group(&body, digits, ndigits, spec->grouping, every, min_width);
    } else {
        strbuf_putn(&body, digits, ndigits);
    }
    strbuf_puts(&body, rest);
    int64_t total = lead + (int64_t)pyformat_utf8_len(body.data, body.len);
    int64_t pad = spec->width > total ? spec->width - total : 0;
    int64_t left = 0, mid = 0, right = 0;
    switch (spec->align) {
    case '<': right = pad; break;
    case '^': left = pad / 2; right = pad - left; break;
    case '=': mid = pad; break;
    default: left = pad; break;
    }
    pyformat_repeat(b, spec->fill, left);
    if (sign)
        strbuf_putc(b, sign);
    strbuf_puts(b, prefix);
    pyformat_repeat(b, spec->fill, mid);
    strbuf_putn(b, body.data, body.len);
    pyformat_repeat(b, spec->fill, right);
    strbuf_free(&body);
}

static char pyformat_sign_char(const pyformat_spec *spec, bool negative)
{
    if (negative)
        return '-';
    if (spec->sign == '+')
        return '+';
    if (spec->sign == ' ')
        return ' ';
    return 0;
}

bool pyformat_int(strbuf *b, int64_t v, const pyformat_spec *in, char *err,
                  size_t errlen)
{
    switch (in->type) {
    case 'e': case 'E': case 'f': case 'F': case 'g': case 'G': case '%':
        return pyformat_float(b, (double)v, in, err, errlen);
    case 'b': case 'c': case 'd': case 'o': case 'x': case 'X': case 'n': case '\0':
        break;
    default:
        if (in->type > ' ' && in->type < 127)
            snprintf(err, errlen, "Unknown format code '%c' for object of type 'int'",
                     in->type);
        else
            snprintf(err, errlen, "Unknown format code '\\x%x' for object of type 'int'",
                     (unsigned char)in->type);
        return false;
    }
    if (in->precision >= 0) {
        snprintf(err, errlen, "Precision not allowed in integer format specifier");
        return false;
    }
    if (in->z) {
        snprintf(err, errlen,
                 "Negative zero coercion (z) not allowed in integer format specifier");
        return false;
    }
    pyformat_spec spec;
    pyformat_number_defaults(in, &spec);
    if (in->type == 'c') {
        if (in->sign) {
            snprintf(err, errlen, "Sign not allowed with integer format specifier 'c'");
            return false;
        }
        if (in->alt) {
            snprintf(err, errlen,
                     "Alternate form (#) not allowed with integer format specifier 'c'");
            return false;
        }
        if (v < 0 || v > 0x10FFFF) {
            snprintf(err, errlen, "%%c arg not in range(0x110000)");
            return false;
        }
        char ch[5];
        uint32_t c = (uint32_t)v;
        size_t n;
        if (c < 0x80) { ch[0] = (char)c; n = 1; }
        else if (c < 0x800) { ch[0] = (char)(0xC0 | c >> 6); ch[1] = (char)(0x80 | (c & 0x3F)); n = 2; }
        else if (c < 0x10000) { ch[0] = (char)(0xE0 | c >> 12); ch[1] = (char)(0x80 | ((c >> 6) & 0x3F)); ch[2] = (char)(0x80 | (c & 0x3F)); n = 3; }
        else { ch[0] = (char)(0xF0 | c >> 18); ch[1] = (char)(0x80 | ((c >> 12) & 0x3F)); ch[2] = (char)(0x80 | ((c >> 6) & 0x3F)); ch[3] = (char)(0x80 | (c & 0x3F)); n = 4; }
        ch[n] = '\0';
        pyformat_number(b, &spec, 0, "", "", 0, ch, 3);
        return true;
    }
    int base = 10;
    const char *prefix = "";
    switch (in->type) {
    case 'b': base = 2; prefix = "0b"; break;
    case 'o': base = 8; prefix = "0o"; break;
    case 'x': base = 16; prefix = "0x"; break;
    case 'X': base = 16; prefix = "0X"; break;
    default: break;
    }
    if (!in->alt)
        prefix = "";
    /* Digits of |v|, computed in unsigned arithmetic so INT64_MIN works. */
    uint64_t u = v < 0 ? -(uint64_t)v : (uint64_t)v;
    const char *dig = in->type == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
    char tmp[70];
    size_t n = 0;
    do {
        tmp[n++] = dig[u % (uint64_t)base];
        u /= (uint64_t)base;
    } while (u);
    char digits[70];
    for (size_t i = 0; i < n; i++)
        digits[i] = tmp[n - 1 - i];
    pyformat_number(b, &spec, pyformat_sign_char(&spec, v < 0), prefix, digits, n, "",
                    base == 10 ? 3 : 4);
    return true;
}

/* ---- floats ------------------------------------------------------------- */

/* Split printf's "%.*e" output "d.dddde+XX" into digits and a decimal-point
 * position. */
static void pyformat_split_e(const char *buf, char *digits, int *decpt)
{
    size_t n = 0;
    const char *p = buf;
    for (; *p && *p != 'e'; p++)
        if (*p >= '0' && *p <= '9')
            digits[n++] = *p;
    digits[n] = '\0';
    *decpt = (*p == 'e' ? atoi(p + 1) : 0) + 1;
}

void pyformat_shortest(double v, char digits[18], int *decpt)
{
    char buf[64], d[24];
    int dp = 0;
    v = fabs(v);
    for (int p = 1; p <= 17; p++) {
        snprintf(buf, sizeof buf, "%.*e", p - 1, v);
        pyformat_split_e(buf, d, &dp);   /* v ~ 0.d * 10^dp, d has p digits */
        if (strtod(buf, NULL) != v) {
            /* The correctly rounded p digits miss; at a power of two the
             * rounding interval is lopsided and a neighbour may still hit. */
            unsigned long long m = strtoull(d, NULL, 10);
            bool found = false;
            for (int delta = -1; delta <= 1 && !found; delta += 2) {
                unsigned long long c = delta < 0 ? m - 1 : m + 1;
                if (c == 0)
                    continue;
                snprintf(buf, sizeof buf, "%llue%d", c, dp - p);
                if (strtod(buf, NULL) == v) {
                    snprintf(d, sizeof d, "%llu", c);
                    dp += (int)strlen(d) - p;   /* 999+1 gained a digit */
                    found = true;
                }
            }
            if (!found)
                continue;
        }
        break;
    }
    size_t n = strlen(d);
    while (n > 1 && d[n - 1] == '0')
        n--;
    if (n > 17)
        n = 17;
    memcpy(digits, d, n);
    digits[n] = '\0';
    *decpt = dp;
}

/* CPython's format_float_short layout of digits with the decimal point at
 * decpt: fixed or exponent notation, at least `min_frac` digits after the
 * point (padded with zeros), '.0' appended to integers when add_dot_0, the
 * point kept when alt.  Writes into out. */
static void pyformat_layout(strbuf *out, const char *digits, int decpt,
                            bool use_exp, int64_t min_frac, bool add_dot_0, bool alt,
                            char e_char)
{
    size_t n = strlen(digits);
    int exp = 0;
    if (use_exp) {
        exp = decpt - 1;
        decpt = 1;
    }
    int64_t frac = 0;
    if (decpt <= 0) {
        strbuf_puts(out, "0.");
        pyformat_repeat(out, "0", -decpt);
        strbuf_putn(out, digits, n);
        frac = -decpt + (int64_t)n;
    } else if ((size_t)decpt >= n) {
        strbuf_putn(out, digits, n);
        pyformat_repeat(out, "0", decpt - (int64_t)n);
        if (min_frac > 0)
            strbuf_putc(out, '.');
        else if (add_dot_0 && !use_exp)
            strbuf_puts(out, ".0");
        else if (alt)
            strbuf_putc(out, '.');
    } else {
        strbuf_putn(out, digits, (size_t)decpt);
        strbuf_putc(out, '.');
        strbuf_putn(out, digits + decpt, n - (size_t)decpt);
        frac = (int64_t)n - decpt;
    }
    if (frac < min_frac)
        pyformat_repeat(out, "0", min_frac - frac);
    if (use_exp)
        strbuf_printf(out, "%c%c%02d", e_char, exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
}

void pyformat_float_repr(strbuf *b, double v)
{
    if (isnan(v)) {
        strbuf_puts(b, "nan");
        return;
    }
    if (signbit(v))
        strbuf_putc(b, '-');
    if (isinf(v)) {
        strbuf_puts(b, "inf");
        return;
    }
    if (v == 0) {
        strbuf_puts(b, "0.0");
        return;
    }
    char digits[18];
    int decpt;
    pyformat_shortest(v, digits, &decpt);
    pyformat_layout(b, digits, decpt, decpt <= -4 || decpt > 16, 0, true, false, 'e');
}

/* Python's 'g' of a >= 0 with precision prec: prec significant digits,
 * exponent notation when the exponent is < -4 or >= the threshold (prec,
 * or prec - 1 with add_dot_0, the format of no type), trailing zeros
 * dropped unless alt. */
static void pyformat_g(strbuf *body, double a, int64_t prec, bool alt,
                       bool add_dot_0, char e_char)
{
    if (prec == 0)
        prec = 1;
    strbuf e = {0};
    strbuf_printf(&e, "%.*e", (int)prec - 1, a);
    char *dg = xmalloc(e.len + 1);
    int decpt;
    pyformat_split_e(e.data, dg, &decpt);
    size_t n = strlen(dg);
    if (!alt)
        while (n > 1 && dg[n - 1] == '0')
            dg[--n] = '\0';
    if (a == 0)
        decpt = 1;
    bool use_exp = decpt <= -4 || decpt > (add_dot_0 ? prec - 1 : prec);
    int64_t min_frac = 0;
    if (alt)   /* keep prec significant digits */
        min_frac = use_exp ? prec - 1 : prec - decpt;
    pyformat_layout(body, dg, decpt, use_exp, min_frac, add_dot_0, alt, e_char);
    free(dg);
    strbuf_free(&e);
}

/* The body (no sign) of |v| formatted for spec's type, in *body. */
static bool pyformat_float_body(strbuf *body, double a, const pyformat_spec *s,
                                char *err, size_t errlen)
{
    char type = s->type;
    int64_t prec = s->precision;
    if (prec > PYFORMAT_MAX_PREC) {
        snprintf(err, errlen, "precision too big");
        return false;
    }
    bool upper = type == 'E' || type == 'F' || type == 'G';
    if (isinf(a) || isnan(a)) {
        strbuf_puts(body, isnan(a) ? (upper ? "NAN" : "nan") : (upper ? "INF" : "inf"));
        if (type == '%')
            strbuf_putc(body, '%');
        return true;
    }
    if (type == '\0') {
        char digits[40];
        int decpt;
        if (prec < 0) {
            if (a == 0) {
                digits[0] = '0';
                digits[1] = '\0';
                decpt = 1;
            } else {
                pyformat_shortest(a, digits, &decpt);
            }
            pyformat_layout(body, digits, decpt, decpt <= -4 || decpt > 16, 0, true,
                            s->alt, 'e');
        } else {
            /* Like 'g', but integers keep a '.0' and exponent notation
             * starts one digit earlier. */
            pyformat_g(body, a, prec, s->alt, true, 'e');
        }
        return true;
    }
    if (type == 'g' || type == 'G' || type == 'n') {
        /* Not printf's %g: glibc's %#g loses digits when rounding carries
         * into a new exponent (999.9999 -> "1.e+03"). */
        pyformat_g(body, a, prec < 0 ? 6 : prec, s->alt, false, upper ? 'E' : 'e');
        return true;
    }
    char fmt[8];
    int p = (int)(prec < 0 ? 6 : prec);
    char conv = type == '%' ? 'f' : type;   /* e E f F */
    snprintf(fmt, sizeof fmt, "%%%s.*%c", s->alt ? "#" : "", conv);
    if (type == '%')
        a *= 100;
    strbuf_printf(body, fmt, p, a);
    if (type == '%')
        strbuf_putc(body, '%');
    return true;
}

bool pyformat_float(strbuf *b, double v, const pyformat_spec *in, char *err,
                    size_t errlen)
{
    switch (in->type) {
    case 'e': case 'E': case 'f': case 'F': case 'g': case 'G': case 'n': case '%':
    case '\0':
        break;
    default:
        if (in->type > ' ' && in->type < 127)
            snprintf(err, errlen, "Unknown format code '%c' for object of type 'float'",
                     in->type);
        else
            snprintf(err, errlen,
                     "Unknown format code '\\x%x' for object of type 'float'",
                     (unsigned char)in->type);
        return false;
    }
    pyformat_spec spec;
    pyformat_number_defaults(in, &spec);
    strbuf body = {0};
    if (!pyformat_float_body(&body, fabs(v), &spec, err, errlen)) {
        strbuf_free(&body);
        return false;
    }
    bool negative = signbit(v) && !isnan(v);
    if (negative && spec.z && isfinite(v)) {
        /* 'z': a result that rounded to zero drops its minus sign. */
        bool all_zero = true;
        for (size_t i = 0; i < body.len; i++) {
            char c = body.data[i];
            if (c == 'e' || c == 'E')
                break;
            if (c >= '1' && c <= '9')
                all_zero = false;
        }
        if (all_zero)
            negative = false;
    }
    /* Split the body into leading integer digits and the rest. */
    size_t nd = 0;
    while (nd < body.len && body.data[nd] >= '0' && body.data[nd] <= '9')
        nd++;
    pyformat_number(b, &spec, pyformat_sign_char(&spec, negative), "", body.data, nd,
                    body.data + nd, 3);
    strbuf_free(&body);
    return true;
}

/* ---- strings ------------------------------------------------------------ */

bool pyformat_str(strbuf *b, const char *s, size_t len, const pyformat_spec *in,
                  char *err, size_t errlen)
{
    if (in->type && in->type != 's') {
        if (in->type > ' ' && in->type < 127)
            snprintf(err, errlen, "Unknown format code '%c' for object of type 'str'",
                     in->type);
        else
            snprintf(err, errlen, "Unknown format code '\\x%x' for object of type 'str'",
                     (unsigned char)in->type);
        return false;
    }
    if (in->sign) {
        snprintf(err, errlen, "Sign not allowed in string format specifier");
        return false;
    }
    if (in->z) {
        snprintf(err, errlen, "Negative zero coercion (z) not allowed in format specifier");
        return false;
    }
    if (in->alt) {
        snprintf(err, errlen, "Alternate form (#) not allowed in string format specifier");
        return false;
    }
    if (in->align == '=') {
        snprintf(err, errlen, "'=' alignment not allowed in string format specifier");
        return false;
    }
    if (in->grouping) {
        pyformat_bad_sep(in->grouping, 's', err, errlen);
        return false;
    }
    pyformat_spec spec = *in;
    if (spec.zero && !spec.fill[0])
        strcpy(spec.fill, "0");
    if (!spec.fill[0])
        strcpy(spec.fill, " ");
    if (!spec.align)
        spec.align = '<';
    /* Precision truncates to that many code points. */
    size_t nbytes = len;
    int64_t chars = (int64_t)pyformat_utf8_len(s, len);
    if (spec.precision >= 0 && chars > spec.precision) {
        int64_t seen = 0;
        size_t i = 0;
        for (; i < len; i++) {
            if (((unsigned char)s[i] & 0xC0) != 0x80) {
                if (seen == spec.precision)
                    break;
                seen++;
            }
        }
        nbytes = i;
        chars = spec.precision;
    }
    int64_t pad = spec.width > chars ? spec.width - chars : 0;
    int64_t left = spec.align == '>' ? pad : spec.align == '^' ? pad / 2 : 0;
    pyformat_repeat(b, spec.fill, left);
    strbuf_putn(b, s, nbytes);
    pyformat_repeat(b, spec.fill, pad - left);
    return true;
}

/* Decode one UTF-8 code point at s[*i]; -1 for a byte that starts none. */
static long pyformat_decode(const char *s, size_t len, size_t *i)
{
    unsigned char c = (unsigned char)s[*i];
    size_t n = pyformat_char_len(s + *i, len - *i);
    if (n == 1) {
        (*i)++;
        return c < 0x80 ? (long)c : -1;
    }
    long cp = c & (0x7F >> n);
    for (size_t k = 1; k < n; k++)
        cp = (cp << 6) | ((unsigned char)s[*i + k] & 0x3F);
    *i += n;
    return cp;
}

/* Python's str.isprintable for code points above ASCII, without the
 * Unicode database: C1 controls, separators and the common format
 * characters are not printable. */
static bool pyformat_printable(long cp)
{
    if (cp < 0xA1)
        return false;   /* C1 controls and NO-BREAK SPACE */
    switch (cp) {
    case 0xAD: case 0x1680: case 0x180E: case 0x202F: case 0x205F: case 0x3000:
    case 0xFEFF: case 0x2028: case 0x2029:
        return false;
    default:
        break;
    }
    if ((cp >= 0x2000 && cp <= 0x200F) || (cp >= 0x202A && cp <= 0x202E) ||
        (cp >= 0x2060 && cp <= 0x206F) || (cp >= 0xD800 && cp <= 0xDFFF) ||
        (cp >= 0xE000 && cp <= 0xF8FF) || cp > 0x10FFFF || (cp & 0xFFFE) == 0xFFFE)
        return false;
    return true;
}

void pyformat_str_repr(strbuf *b, const char *s, size_t len)
{
    bool has_single = memchr(s, '\'', len) != NULL;
    bool has_double = memchr(s, '"', len) != NULL;
    char q = has_single && !has_double ? '"' : '\'';
    strbuf_putc(b, q);
    size_t i = 0;
    while (i < len) {
        size_t start = i;
        long cp = pyformat_decode(s, len, &i);
        if (cp < 0) {
            /* A byte that is not UTF-8: show it as an escape. */
            strbuf_printf(b, "\\x%02x", (unsigned char)s[start]);
        } else if (cp == q || cp == '\\') {
            strbuf_putc(b, '\\');
            strbuf_putc(b, (char)cp);
        } else if (cp == '\n') {
            strbuf_puts(b, "\\n");
        } else if (cp == '\r') {
            strbuf_puts(b, "\\r");
        } else if (cp == '\t') {
            strbuf_puts(b, "\\t");
        } else if (cp < 0x20 || cp == 0x7F) {
            strbuf_printf(b, "\\x%02lx", cp);
        } else if (cp < 0x7F) {
            strbuf_putc(b, (char)cp);
        } else if (pyformat_printable(cp)) {
            strbuf_putn(b, s + start, i - start);
        } else if (cp <= 0xFF) {
            strbuf_printf(b, "\\x%02lx", cp);
        } else if (cp <= 0xFFFF) {
            strbuf_printf(b, "\\u%04lx", cp);
        } else {
            strbuf_printf(b, "\\U%08lx", cp);
        }
    }
    strbuf_putc(b, q);
}

/* ---- round -------------------------------------------------------------- */

double pyformat_round(double v, int64_t ndigits)
{
    if (!isfinite(v) || v == 0)
        return v;
    if (ndigits > 323)
        return v;
    if (ndigits < -308)
        return 0.0 * v;
    char buf[400];
    if (ndigits >= 0) {
        /* printf rounds the exact binary value, ties to even. */
        snprintf(buf, sizeof buf, "%.*f", (int)ndigits, v);
        return strtod(buf, NULL);
    }
    /* Rounding left of the point: the exact integer part and whether any
     * fraction is left decide the ties. */
    double ip;
    double frac = modf(v, &ip);
    snprintf(buf, sizeof buf, "%.0f", fabs(ip));
    size_t n = strlen(buf);
    size_t keep_digits = (size_t)-ndigits;
    if (keep_digits > n)
        return 0.0 * v;
    size_t cut = n - keep_digits;   /* digits kept: buf[0..cut) */
    bool above = frac != 0, half = buf[cut] == '5', over = buf[cut] > '5';
    for (size_t i = cut + 1; i < n; i++)
        if (buf[i] != '0')
            above = true;
    bool up = over || (buf[cut] == '5' && above) ||
              (half && !above && cut > 0 && (buf[cut - 1] - '0') % 2 == 1);
    /* buf[0..cut) + zeros, plus one unit at position cut-1 if up. */
    for (size_t i = cut; i < n; i++)
        buf[i] = '0';
    double r;
    if (up) {
        char big[402];
        big[0] = '0';
        memcpy(big + 1, buf, n + 1);
        size_t i = cut;   /* index in big of the last kept digit */
        while (big[i] == '9') {
            big[i] = '0';
            i--;
        }
        big[i]++;
        r = strtod(big, NULL);
    } else {
        r = strtod(buf, NULL);
    }
    return v < 0 ? -r : r;
}
