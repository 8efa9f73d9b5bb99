/* str.c - the methods of str (find, split, strip, replace, upper, ljust,
 * partition, ...), over strings of UTF-8 whose positions count code
 * points, as Python's do; str.format and str % args are in strformat.c. */
#include "builtins_impl.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "pyformat.h"

/* ---- str methods ----------------------------------------------------------------------- */

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

/* ---- method tables (builtin_init hands them to the evaluator: h->types) --------------- */

#define M BUILTIN_METHOD

const host_method builtin_str_methods[] = {
    M(VAL_STR, "str", format, builtin_str_format),
    M(VAL_STR, "str", encode, builtin_str_encode),
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

#undef M
