/* jsonmod.c - the json module: dumps and dump (indent, separators,
 * sort_keys, ensure_ascii, allow_nan, skipkeys, default), loads (objects,
 * arrays, strings with every escape, numbers, true/false/null, NaN and
 * Infinity) with CPython's JSONDecodeError messages ("Expecting value:
 * line 1 column 5 (char 4)"). */
#include "builtins_impl.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- encoding ------------------------------------------------------------------------------- */

typedef struct json_enc {
    host *h;
    src_span at;
    const char *indent;         /* NULL: one line */
    const char *item_sep, *key_sep;
    bool sort_keys, ensure_ascii, allow_nan, skipkeys;
    val dflt;                   /* default= callable, or VAL_MISSING */
    int depth;
} json_enc;

/* Decode one UTF-8 sequence at s (n bytes left): the code point, and
 * *len its length (1 for a bad byte, taken as is). */
static uint32_t json_utf8(const unsigned char *s, size_t n, size_t *len)
{
    uint32_t c = s[0];
    size_t k = c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
    if (k > n)
        k = 1;
    if (k > 1) {
        c &= 0x3F >> (k - 1);
        for (size_t i = 1; i < k; i++)
            c = (c << 6) | (s[i] & 0x3F);
    }
    *len = k;
    return c;
}

static void json_put_string(json_enc *e, const val_str *s, strbuf *out)
{
    strbuf_putc(out, '"');
    const unsigned char *p = (const unsigned char *)s->s;
    for (size_t i = 0; i < s->len;) {
        unsigned char ch = p[i];
        switch (ch) {
        case '"': strbuf_puts(out, "\\\""); i++; continue;
        case '\\': strbuf_puts(out, "\\\\"); i++; continue;
        case '\n': strbuf_puts(out, "\\n"); i++; continue;
        case '\r': strbuf_puts(out, "\\r"); i++; continue;
        case '\t': strbuf_puts(out, "\\t"); i++; continue;
        case '\b': strbuf_puts(out, "\\b"); i++; continue;
        case '\f': strbuf_puts(out, "\\f"); i++; continue;
        default: break;
        }
        if (ch < 0x20) {
            strbuf_printf(out, "\\u%04x", ch);
            i++;
        } else if (ch < 0x80 || !e->ensure_ascii) {
            strbuf_putc(out, (char)ch);
            i++;
        } else {
            size_t len;
            uint32_t c = json_utf8(p + i, s->len - i, &len);
            if (c >= 0x10000) {
                c -= 0x10000;
                strbuf_printf(out, "\\u%04x\\u%04x", 0xD800 + (c >> 10), 0xDC00 + (c & 0x3FF));
            } else {
                strbuf_printf(out, "\\u%04x", c);
            }
            i += len;
        }
    }
    strbuf_putc(out, '"');
}

static bool json_put_float(json_enc *e, double f, strbuf *out)
{
    if (isnan(f) || isinf(f)) {
        if (!e->allow_nan) {
            host_raise(e->h, HOST_EXC_VALUE, e->at, "ValueError: Out of range float values "
                       "are not JSON compliant");
            return false;
        }
        strbuf_puts(out, isnan(f) ? "NaN" : f > 0 ? "Infinity" : "-Infinity");
        return true;
    }
    val r = host_repr(e->h, val_float(f));
    if (r.kind == VAL_ERR)
        return false;
    strbuf_puts(out, val_as_str(r)->s);
    val_unref(r);
    return true;
}

static void json_newline(json_enc *e, strbuf *out)
{
    strbuf_putc(out, '\n');
    for (int i = 0; i < e->depth; i++)
        strbuf_puts(out, e->indent);
}

static bool json_encode(json_enc *e, val v, strbuf *out);

/* A dict key as JSON: strs as they are; numbers, bools and None as text;
 * 1 done, 0 skipped (skipkeys), -1 error. */
static int json_put_key(json_enc *e, val k, strbuf *out)
{
    if (k.kind == VAL_STR) {
        json_put_string(e, val_as_str(k), out);
        return 1;
    }
    strbuf tmp = {0};
    bool ok = true;
    if (k.kind == VAL_BOOL)
        strbuf_puts(&tmp, k.u.b ? "true" : "false");
    else if (k.kind == VAL_NONE)
        strbuf_puts(&tmp, "null");
    else if (k.kind == VAL_INT)
        strbuf_printf(&tmp, "%lld", (long long)k.u.i);
    else if (k.kind == VAL_FLOAT)
        ok = json_put_float(e, k.u.f, &tmp);
    else {
        strbuf_free(&tmp);
        if (e->skipkeys)
            return 0;
        host_raise(e->h, HOST_EXC_TYPE, e->at, "keys must be str, int, float, bool or None, "
                   "not %s", val_type_name(k));
        return -1;
    }
    if (ok) {
        strbuf_putc(out, '"');
        strbuf_puts(out, strbuf_cstr(&tmp));
        strbuf_putc(out, '"');
    }
    strbuf_free(&tmp);
    return ok ? 1 : -1;
}

static bool json_encode_dict(json_enc *e, val d, strbuf *out)
{
    if (!val_as_dict(d)->len) {
        strbuf_puts(out, "{}");
        return true;
    }
    val keys = val_list_new(val_as_dict(d)->len);
    size_t pos = 0;
    val k, v;
    while (val_dict_next(d, &pos, &k, &v))
        val_list_push(keys, val_ref(k));
    if (e->sort_keys && !builtin_sort_list(e->h, keys, val_none(), false, e->at)) {
        val_unref(keys);
        return false;
    }
    strbuf_putc(out, '{');
    e->depth++;
    bool first = true, ok = true;
    for (size_t i = 0; ok && i < val_as_seq(keys)->len; i++) {
        val key = val_as_seq(keys)->items[i];
        strbuf item = {0};
        int r = json_put_key(e, key, &item);
        if (r == 1) {
            strbuf_puts(&item, e->key_sep);
            ok = json_encode(e, val_dict_get(d, key), &item);
            if (ok) {
                if (!first)
                    strbuf_puts(out, e->item_sep);
                if (e->indent)
                    json_newline(e, out);
                strbuf_puts(out, strbuf_cstr(&item));
                first = false;
            }
        } else if (r < 0) {
            ok = false;
        }
        strbuf_free(&item);
    }
    e->depth--;
    val_unref(keys);
    if (!ok)
        return false;
    if (e->indent)
        json_newline(e, out);
    strbuf_putc(out, '}');
    return true;
}

static bool json_encode(json_enc *e, val v, strbuf *out)
{
    if (e->depth > 500) {
        host_raise(e->h, HOST_EXC_RECURSION, e->at, "maximum recursion depth exceeded while "
                   "encoding a JSON object (a container that holds itself?)");
        return false;
    }
    switch (v.kind) {
    case VAL_NONE:
        strbuf_puts(out, "null");
        return true;
    case VAL_BOOL:
        strbuf_puts(out, v.u.b ? "true" : "false");
        return true;
    case VAL_INT:
        strbuf_printf(out, "%lld", (long long)v.u.i);
        return true;
    case VAL_FLOAT:
        return json_put_float(e, v.u.f, out);
    case VAL_STR:
        json_put_string(e, val_as_str(v), out);
        return true;
    case VAL_LIST:
    case VAL_TUPLE: {
        const val_seq *s = val_as_seq(v);
        if (!s->len) {
            strbuf_puts(out, "[]");
            return true;
        }
        strbuf_putc(out, '[');
        e->depth++;
        for (size_t i = 0; i < s->len; i++) {
            if (i)
                strbuf_puts(out, e->item_sep);
            if (e->indent)
                json_newline(e, out);
            if (!json_encode(e, s->items[i], out))
                return false;
        }
        e->depth--;
        if (e->indent)
            json_newline(e, out);
        strbuf_putc(out, ']');
        return true;
    }
    case VAL_DICT:
        return json_encode_dict(e, v, out);
    default:
        break;
    }
    if (e->dflt.kind == VAL_MISSING || e->dflt.kind == VAL_NONE) {
        host_raise(e->h, HOST_EXC_TYPE, e->at, "Object of type %s is not JSON serializable",
                   val_type_name(v));
        return false;
    }
    val r = host_call(e->h, e->dflt, 1, &v, NULL, e->at);
    if (r.kind == VAL_ERR)
        return false;
    e->depth++;
    bool ok = json_encode(e, r, out);
    e->depth--;
    val_unref(r);
    return ok;
}

/* dumps's options after the object: the arguments from index 1 of a. */
static val json_dumps_impl(host *h, val obj, const val *a, src_span at)
{
    /* a: skipkeys, ensure_ascii, check_circular, allow_nan, cls, indent,
     * separators, default, sort_keys */
    json_enc e = {h, at, NULL, ", ", ": ", false, true, true, false, a[7], 0};
    int t;
    if (a[0].kind != VAL_MISSING) {
        if ((t = host_truth(h, a[0], at)) < 0)
            return val_err();
        e.skipkeys = t;
    }
    if (a[1].kind != VAL_MISSING) {
        if ((t = host_truth(h, a[1], at)) < 0)
            return val_err();
        e.ensure_ascii = t;
    }
    if (a[3].kind != VAL_MISSING) {
        if ((t = host_truth(h, a[3], at)) < 0)
            return val_err();
        e.allow_nan = t;
    }
    if (a[8].kind != VAL_MISSING) {
        if ((t = host_truth(h, a[8], at)) < 0)
            return val_err();
        e.sort_keys = t;
    }
    if (a[4].kind != VAL_MISSING && a[4].kind != VAL_NONE)
        return host_raise(h, HOST_EXC_NOT_IMPLEMENTED, at, "json.dumps(cls=...) is not "
                          "supported by tritsim (use default=)");
    char spaces[64];
    if (a[5].kind == VAL_STR) {
        e.indent = val_as_str(a[5])->s;
    } else if (builtin_is_int(a[5])) {
        int64_t n = builtin_int_of(a[5]);
        if (n < 0)
            n = 0;
        if (n > 63)
            n = 63;
        memset(spaces, ' ', (size_t)n);
        spaces[n] = '\0';
        e.indent = spaces;
    } else if (a[5].kind != VAL_MISSING && a[5].kind != VAL_NONE) {
        return host_raise(h, HOST_EXC_TYPE, at, "indent must be an int or a str");
    }
    if (e.indent)
        e.item_sep = ",";
    if (a[6].kind != VAL_MISSING && a[6].kind != VAL_NONE) {
        if ((a[6].kind != VAL_TUPLE && a[6].kind != VAL_LIST) || val_as_seq(a[6])->len != 2 ||
            val_as_seq(a[6])->items[0].kind != VAL_STR ||
            val_as_seq(a[6])->items[1].kind != VAL_STR)
            return host_raise(h, HOST_EXC_TYPE, at, "separators must be a pair of strs");
        e.item_sep = val_as_str(val_as_seq(a[6])->items[0])->s;
        e.key_sep = val_as_str(val_as_seq(a[6])->items[1])->s;
    }
    strbuf out = {0};
    if (!json_encode(&e, obj, &out)) {
        strbuf_free(&out);
        return val_err();
    }
    return val_str_from_buf(&out);
}

#define JSON_DUMP_OPTS "*, skipkeys=, ensure_ascii=, check_circular=, allow_nan=, cls=, " \
                       "indent=, separators=, default=, sort_keys="

BUILTIN_FN(json_dumps)
{
    (void)self;
    val a[10];
    if (!host_args(h, at, "dumps", "obj, " JSON_DUMP_OPTS, argc, argv, kw, a))
        return val_err();
    return json_dumps_impl(h, a[0], a + 1, at);
}

BUILTIN_FN(json_dump)
{
    (void)self;
    val a[11];
    if (!host_args(h, at, "dump", "obj, fp, " JSON_DUMP_OPTS, argc, argv, kw, a))
        return val_err();
    val s = json_dumps_impl(h, a[0], a + 2, at);
    if (s.kind == VAL_ERR)
        return s;
    val r = host_call_method(h, a[1], "write", 1, &s, NULL, at);
    val_unref(s);
    if (r.kind == VAL_ERR)
        return r;
    val_unref(r);
    return val_none();
}

/* ---- decoding ------------------------------------------------------------------------------- */

typedef struct json_dec {
    host *h;
    src_span at;
    const char *s;
    size_t len, pos;
    int depth;
} json_dec;

/* Raise JSONDecodeError(msg, doc, pos): "msg: line L column C (char P)",
 * positions counted in characters. */
static val json_fail(json_dec *d, const char *msg, size_t pos)
{
    size_t chars = 0, line = 1, col = 1;
    for (size_t i = 0; i < pos && i < d->len; i++) {
        unsigned char c = (unsigned char)d->s[i];
        if ((c & 0xC0) == 0x80)
            continue;
        chars++;
        if (c == '\n') {
            line++;
            col = 1;
        } else {
            col++;
        }
    }
    val mod = host_module(d->h, "json");
    val cls = val_object_get(mod, "JSONDecodeError");
    val text = val_str_fmt("%s: line %zu column %zu (char %zu)", msg, line, col, chars);
    val e = host_call(d->h, cls, 1, &text, NULL, d->at);
    val_unref(text);
    if (e.kind == VAL_ERR)
        return e;
    val_object_set(e, "msg", val_str_cstr(msg));
    val_object_set(e, "doc", val_str_new(d->s, d->len));
    val_object_set(e, "pos", val_int((int64_t)chars));
    val_object_set(e, "lineno", val_int((int64_t)line));
    val_object_set(e, "colno", val_int((int64_t)col));
    host_raise_value(d->h, e, d->at);
    val_unref(e);
    return val_err();
}

static void json_ws(json_dec *d)
{
    while (d->pos < d->len && strchr(" \t\n\r", d->s[d->pos]) && d->s[d->pos])
        d->pos++;
}

static val json_value(json_dec *d);

static int json_hex4(const char *p)
{
    int v = 0;
    for (int i = 0; i < 4; i++) {
        char c = p[i];
        v <<= 4;
        if (c >= '0' && c <= '9')
            v |= c - '0';
        else if (c >= 'a' && c <= 'f')
            v |= c - 'a' + 10;
        else if (c >= 'A' && c <= 'F')
            v |= c - 'A' + 10;
        else
            return -1;
    }
    return v;
}

/* A string; d->pos is at its opening quote. */
static val json_string(json_dec *d)
{
    size_t start = d->pos++;
    strbuf b = {0};
    for (;;) {
        if (d->pos >= d->len) {
            strbuf_free(&b);
            return json_fail(d, "Unterminated string starting at", start);
        }
        unsigned char c = (unsigned char)d->s[d->pos];
        if (c == '"') {
            d->pos++;
            return val_str_from_buf(&b);
        }
        if (c < 0x20) {
            strbuf_free(&b);
            return json_fail(d, "Invalid control character at", d->pos);
        }
        if (c != '\\') {
            strbuf_putc(&b, (char)c);
            d->pos++;
            continue;
        }
        if (d->pos + 1 >= d->len) {
            strbuf_free(&b);
            return json_fail(d, "Unterminated string starting at", start);
        }
        char esc = d->s[d->pos + 1];
        const char *simple = strchr("\"\\/bfnrt", esc);
        if (simple && esc) {
            static const char repl[] = "\"\\/\b\f\n\r\t";
            strbuf_putc(&b, repl[simple - "\"\\/bfnrt"]);
            d->pos += 2;
            continue;
        }
        if (esc != 'u' || d->pos + 6 > d->len || json_hex4(d->s + d->pos + 2) < 0) {
            strbuf_free(&b);
            return json_fail(d, esc == 'u' ? "Invalid \\uXXXX escape" : "Invalid \\escape",
                             d->pos);
        }
        uint32_t cp = (uint32_t)json_hex4(d->s + d->pos + 2);
        d->pos += 6;
        if (cp >= 0xD800 && cp < 0xDC00 && d->pos + 6 <= d->len && d->s[d->pos] == '\\' &&
            d->s[d->pos + 1] == 'u') {
            int lo = json_hex4(d->s + d->pos + 2);
            if (lo >= 0xDC00 && lo < 0xE000) {
                cp = 0x10000 + ((cp - 0xD800) << 10) + (uint32_t)(lo - 0xDC00);
                d->pos += 6;
            }
        }
        builtin_put_utf8(&b, cp);
    }
}

static val json_number(json_dec *d)
{
    size_t start = d->pos;
    const char *s = d->s;
    size_t i = d->pos;
    if (i < d->len && s[i] == '-')
        i++;
    if (i >= d->len || s[i] < '0' || s[i] > '9')
        return json_fail(d, "Expecting value", start);
    if (s[i] == '0')
        i++;
    else
        while (i < d->len && s[i] >= '0' && s[i] <= '9')
            i++;
    bool is_float = false;
    if (i + 1 < d->len && s[i] == '.' && s[i + 1] >= '0' && s[i + 1] <= '9') {
        is_float = true;
        i++;
        while (i < d->len && s[i] >= '0' && s[i] <= '9')
            i++;
    }
    if (i < d->len && (s[i] == 'e' || s[i] == 'E')) {
        size_t j = i + 1;
        if (j < d->len && (s[j] == '+' || s[j] == '-'))
            j++;
        if (j < d->len && s[j] >= '0' && s[j] <= '9') {
            is_float = true;
            i = j;
            while (i < d->len && s[i] >= '0' && s[i] <= '9')
                i++;
        }
    }
    char buf[128];
    size_t n = i - start;
    if (n >= sizeof buf)
        return host_raise(d->h, HOST_EXC_VALUE, d->at, "ValueError: a JSON number of %zu "
                          "characters is beyond tritsim's numbers", n);
    memcpy(buf, s + start, n);
    buf[n] = '\0';
    d->pos = i;
    if (is_float)
        return val_float(strtod(buf, NULL));
    errno = 0;
    long long v = strtoll(buf, NULL, 10);
    if (errno)
        return host_raise(d->h, HOST_EXC_OVERFLOW, d->at, "OverflowError: the JSON integer %s "
                          "does not fit in 64 bits (tritsim's ints)", buf);
    return val_int(v);
}

static bool json_word(json_dec *d, const char *w)
{
    size_t n = strlen(w);
    if (d->pos + n <= d->len && !strncmp(d->s + d->pos, w, n)) {
        d->pos += n;
        return true;
    }
    return false;
}

static val json_container(json_dec *d, bool object)
{
    if (++d->depth > 1000)
        return host_raise(d->h, HOST_EXC_RECURSION, d->at, "maximum recursion depth exceeded "
                          "while decoding a JSON document");
    d->pos++;
    val r = object ? val_dict_new() : val_list_new(4);
    json_ws(d);
    char close = object ? '}' : ']';
    if (d->pos < d->len && d->s[d->pos] == close) {
        d->pos++;
        d->depth--;
        return r;
    }
    for (;;) {
        val key = val_none();
        if (object) {
            json_ws(d);
            if (d->pos >= d->len || d->s[d->pos] != '"') {
                val_unref(r);
                return json_fail(d, "Expecting property name enclosed in double quotes",
                                 d->pos);
            }
            key = json_string(d);
            if (key.kind == VAL_ERR) {
                val_unref(r);
                return key;
            }
            json_ws(d);
            if (d->pos >= d->len || d->s[d->pos] != ':') {
                val_unref(key);
                val_unref(r);
                return json_fail(d, "Expecting ':' delimiter", d->pos);
            }
            d->pos++;
        }
        json_ws(d);
        val v = json_value(d);
        if (v.kind == VAL_ERR) {
            val_unref(key);
            val_unref(r);
            return v;
        }
        if (object)
            val_dict_set(r, key, v);
        else
            val_list_push(r, v);
        json_ws(d);
        if (d->pos < d->len && d->s[d->pos] == ',') {
            d->pos++;
            json_ws(d);
            if (object && (d->pos >= d->len || d->s[d->pos] != '"')) {
                val_unref(r);
                return json_fail(d, "Expecting property name enclosed in double quotes",
                                 d->pos);
            }
            continue;
        }
        if (d->pos < d->len && d->s[d->pos] == close) {
            d->pos++;
            d->depth--;
            return r;
        }
        val_unref(r);
        return json_fail(d, "Expecting ',' delimiter", d->pos);
    }
}

static val json_value(json_dec *d)
{
    if (d->pos >= d->len)
        return json_fail(d, "Expecting value", d->pos);
    char c = d->s[d->pos];
    if (c == '{' || c == '[')
        return json_container(d, c == '{');
    if (c == '"')
        return json_string(d);
    if (json_word(d, "true"))
        return val_bool(true);
    if (json_word(d, "false"))
        return val_bool(false);
    if (json_word(d, "null"))
        return val_none();
    if (json_word(d, "NaN"))
        return val_float(NAN);
    if (json_word(d, "Infinity"))
        return val_float(INFINITY);
    if (json_word(d, "-Infinity"))
        return val_float(-INFINITY);
    return json_number(d);
}

static val json_loads_text(host *h, const char *s, size_t len, src_span at)
{
    json_dec d = {h, at, s, len, 0, 0};
    json_ws(&d);
    val v = json_value(&d);
    if (v.kind == VAL_ERR)
        return v;
    json_ws(&d);
    if (d.pos < d.len) {
        val_unref(v);
        return json_fail(&d, "Extra data", d.pos);
    }
    return v;
}

BUILTIN_FN(json_loads)
{
    (void)self;
    val a[1];
    if (!host_args(h, at, "loads", "s", argc, argv, kw, a))
        return val_err();
    if (a[0].kind != VAL_STR)
        return host_raise(h, HOST_EXC_TYPE, at, "the JSON object must be str, bytes or "
                          "bytearray, not %s", val_type_name(a[0]));
    return json_loads_text(h, val_as_str(a[0])->s, val_as_str(a[0])->len, at);
}

BUILTIN_FN(json_load)
{
    (void)self;
    val a[1];
    if (!host_args(h, at, "load", "fp", argc, argv, kw, a))
        return val_err();
    val s = host_call_method(h, a[0], "read", 0, NULL, NULL, at);
    if (s.kind == VAL_ERR)
        return s;
    val r = s.kind == VAL_STR ? json_loads_text(h, val_as_str(s)->s, val_as_str(s)->len, at)
                              : host_raise(h, HOST_EXC_TYPE, at, "read() must give a str");
    val_unref(s);
    return r;
}

void builtin_json_init(host *h)
{
    val m = val_module_new("json");
    host_def(m, "json.dumps", json_dumps);
    host_def(m, "json.dump", json_dump);
    host_def(m, "json.loads", json_loads);
    host_def(m, "json.load", json_load);
    val err = class_new("JSONDecodeError", host_exc_class(h, HOST_EXC_VALUE), true);
    val_object_set(err, "__module__", val_str_cstr("json.decoder"));
    val_object_set(m, "JSONDecodeError", err);
    host_register_module(h, "json", m);
}
