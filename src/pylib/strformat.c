/* strformat.c - str.format (fields, conversions, nested specs) and
 * printf-style str % args; the format spec of one value is host_format's
 * (util/pyformat.c). */
#include "builtins_impl.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "pyformat.h"

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

BUILTIN_SHARED_FN(builtin_str_format)
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
            /* an object that stands for an int says so with __index__ */
            val r = builtin_dunder(h, v, "__index__", 0, NULL, at);
            if (r.kind == VAL_ERR)
                return false;
            if (!builtin_is_int(r)) {
                val_unref(r);
                host_raise(h, HOST_EXC_TYPE, at, "%%%c format: %s is required, not %s", type,
                           type == 'd' || type == 'i' || type == 'u' ? "a real number"
                                                                     : "an integer",
                           val_type_name(v));
                return false;
            }
            i = builtin_int_of(r);
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
