/* bytesmod.c - the built-in bytes type's constructor and str.encode: the
 * ways a program makes bytes besides literals (the value itself, its
 * operators and methods: host/bytesval.c).  Encodings: utf-8, ascii and
 * latin-1, errors='strict' only. */
#include "builtins_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytesval.h"

/* The largest bytes(n) made: a bigger one is a mistake, not a buffer. */
enum { BYTES_MAX = 1 << 30 };

/* 'UTF_8' -> 'utf-8': which of the three encodings name is, or -1. */
enum { ENC_UTF8, ENC_ASCII, ENC_LATIN1 };
static int bytes_encoding(const char *name)
{
    char e[32];
    size_t i = 0;
    for (; name[i] && i + 1 < sizeof e; i++)
        e[i] = name[i] == '_' ? '-' : (char)(name[i] >= 'A' && name[i] <= 'Z'
                                             ? name[i] - 'A' + 'a' : name[i]);
    e[i] = 0;
    if (!strcmp(e, "utf-8") || !strcmp(e, "utf8"))
        return ENC_UTF8;
    if (!strcmp(e, "ascii"))
        return ENC_ASCII;
    if (!strcmp(e, "latin-1") || !strcmp(e, "latin1") || !strcmp(e, "iso-8859-1"))
        return ENC_LATIN1;
    return -1;
}

/* The code point of the UTF-8 sequence at s, its length in *n. */
static uint32_t bytes_utf8_at(const unsigned char *s, size_t *n)
{
    if (s[0] < 0x80) {
        *n = 1;
        return s[0];
    }
    if (s[0] < 0xe0) {
        *n = 2;
        return ((uint32_t)(s[0] & 0x1f) << 6) | (s[1] & 0x3f);
    }
    if (s[0] < 0xf0) {
        *n = 3;
        return ((uint32_t)(s[0] & 0x0f) << 12) | ((uint32_t)(s[1] & 0x3f) << 6) | (s[2] & 0x3f);
    }
    *n = 4;
    return ((uint32_t)(s[0] & 0x07) << 18) | ((uint32_t)(s[1] & 0x3f) << 12) |
           ((uint32_t)(s[2] & 0x3f) << 6) | (s[3] & 0x3f);
}

/* str s encoded; raises UnicodeEncodeError or LookupError as CPython. */
static val bytes_encode(host *h, val s, const char *encoding, const char *errors, src_span at)
{
    int enc = bytes_encoding(encoding);
    if (enc < 0)
        return host_raise(h, HOST_EXC_LOOKUP, at, "unknown encoding: %s", encoding);
    if (strcmp(errors, "strict"))
        return host_raise(h, HOST_EXC_VALUE, at, "encode(): errors='%s' is not supported by "
                          "tritsim (only 'strict')", errors);
    const val_str *str = val_as_str(s);
    if (enc == ENC_UTF8)
        return bytesval_new(str->s, str->len);
    unsigned char *buf = xmalloc(str->len + 1);
    size_t k = 0, pos = 0;
    for (size_t i = 0; i < str->len; pos++) {
        size_t n;
        uint32_t cp = bytes_utf8_at((const unsigned char *)str->s + i, &n);
        if (cp >= (enc == ENC_ASCII ? 0x80u : 0x100u)) {
            free(buf);
            /* the character as CPython's message escapes it */
            char ch[16];
            snprintf(ch, sizeof ch, cp <= 0xff ? "\\x%02x" : cp <= 0xffff ? "\\u%04x"
                                                          : "\\U%08x", (unsigned)cp);
            return host_raise(h, HOST_EXC_UNICODE_ENCODE, at, "'%s' codec can't encode "
                              "character '%s' in position %zu: ordinal not in range(%d)",
                              enc == ENC_ASCII ? "ascii" : "latin-1", ch, pos,
                              enc == ENC_ASCII ? 128 : 256);
        }
        buf[k++] = (unsigned char)cp;
        i += n;
    }
    val r = bytesval_new(buf, k);
    free(buf);
    return r;
}

BUILTIN_SHARED_FN(builtin_str_encode)
{
    val a[2];
    const char *encoding = "utf-8", *errors = "strict";
    if (!host_args(h, at, "encode", "encoding=, errors=", argc, argv, kw, a) ||
        (a[0].kind != VAL_MISSING &&
         !host_to_str(h, a[0], at, "encode() argument 'encoding'", &encoding)) ||
        (a[1].kind != VAL_MISSING &&
         !host_to_str(h, a[1], at, "encode() argument 'errors'", &errors)))
        return val_err();
    return bytes_encode(h, self, encoding, errors, at);
}

/* bytes(source=b'', encoding=, errors=) */
BUILTIN_FN(builtin_bytes)
{
    (void)self;
    val a[3];
    if (!host_args(h, at, "bytes", "source=, encoding=, errors=", argc, argv, kw, a))
        return val_err();
    val src = a[0];
    if (src.kind == VAL_STR) {
        const char *encoding, *errors = "strict";
        if (a[1].kind == VAL_MISSING)
            return host_raise(h, HOST_EXC_TYPE, at, "string argument without an encoding");
        if (!host_to_str(h, a[1], at, "bytes() argument 'encoding'", &encoding) ||
            (a[2].kind != VAL_MISSING &&
             !host_to_str(h, a[2], at, "bytes() argument 'errors'", &errors)))
            return val_err();
        return bytes_encode(h, src, encoding, errors, at);
    }
    if (a[1].kind != VAL_MISSING || a[2].kind != VAL_MISSING)
        return host_raise(h, HOST_EXC_TYPE, at, src.kind == VAL_MISSING
                          ? "encoding or errors without sequence argument"
                          : "encoding without a string argument");
    if (src.kind == VAL_MISSING)
        return bytesval_new("", 0);
    if (bytesval_is(src))
        return val_ref(src);
    if (src.kind == VAL_INT) {
        if (src.u.i < 0)
            return host_raise(h, HOST_EXC_VALUE, at, "negative count");
        if (src.u.i > BYTES_MAX)
            return host_raise(h, HOST_EXC_MEMORY, at, "bytes(%lld) is more than tritsim makes",
                              (long long)src.u.i);
        unsigned char *zero = calloc((size_t)src.u.i + 1, 1);
        val r = bytesval_new(zero, (size_t)src.u.i);
        free(zero);
        return r;
    }
    if (src.kind == VAL_FLOAT || src.kind == VAL_NONE || src.kind == VAL_BOOL)
        return host_raise(h, HOST_EXC_TYPE, at, "cannot convert '%s' object to bytes",
                          val_type_name(src));
    host_iter it;
    if (!host_iter_begin(h, src, at, &it))
        return val_err();
    strbuf b = {0};
    val x;
    int r;
    while ((r = host_iter_next(h, &it, &x)) > 0) {
        if (x.kind != VAL_INT && x.kind != VAL_BOOL) {
            host_raise(h, HOST_EXC_TYPE, at, "'%s' object cannot be interpreted as an integer",
                       val_type_name(x));
            val_unref(x);
            r = -1;
            break;
        }
        int64_t v = x.kind == VAL_INT ? x.u.i : x.u.b;
        val_unref(x);
        if (v < 0 || v > 255) {
            host_raise(h, HOST_EXC_VALUE, at, "bytes must be in range(0, 256)");
            r = -1;
            break;
        }
        strbuf_putc(&b, (char)v);
    }
    host_iter_end(&it);
    val out = r < 0 ? val_err() : bytesval_new(b.data ? b.data : "", b.len);
    strbuf_free(&b);
    return out;
}

void builtin_bytes_init(host *h)
{
    builtin_type_new(h, "bytes", builtin_bytes, VAL_OBJECT, &bytesval_type);
}
