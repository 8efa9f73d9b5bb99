/* bytesval.c - the bytes type (bytesval.h): its value, operators,
 * indexing, iteration, hashing, repr, and the methods decode and hex.
 * decode knows 'utf-8' (strict: a malformed sequence raises
 * UnicodeDecodeError with CPython's message) and 'ascii' / 'latin-1'. */
#include "bytesval.h"

#include <stdlib.h>
#include <string.h>

#include "host_impl.h"

typedef struct bytesval {
    val_object o;     /* an OBJECT starts so; no attributes */
    size_t len;
    unsigned char *data;
} bytesval;

val bytesval_new(const void *data, size_t len)
{
    bytesval *b = val_obj_new(sizeof *b, VAL_OBJECT, &bytesval_type);
    b->len = len;
    b->data = xmalloc(len + 1);
    if (len)
        memcpy(b->data, data, len);
    b->data[len] = 0;
    return val_of(b);
}

bool bytesval_is(val v)
{
    return v.kind == VAL_OBJECT && v.u.o->type == &bytesval_type;
}

const unsigned char *bytesval_data(val v, size_t *len)
{
    const bytesval *b = (const bytesval *)v.u.o;
    *len = b->len;
    return b->data;
}

static void bv_free(val_obj *o)
{
    free(((bytesval *)o)->data);
}

/* CPython's bytes repr: single quotes unless the data has ' and no ". */
static void bv_repr(host *h, val self, strbuf *out)
{
    (void)h;
    const bytesval *b = (const bytesval *)self.u.o;
    char q = memchr(b->data, '\'', b->len) && !memchr(b->data, '"', b->len) ? '"' : '\'';
    strbuf_putc(out, 'b');
    strbuf_putc(out, q);
    for (size_t i = 0; i < b->len; i++) {
        unsigned c = b->data[i];
        if (c == (unsigned)q || c == '\\')
            strbuf_printf(out, "\\%c", c);
        else if (c == '\t')
            strbuf_puts(out, "\\t");
        else if (c == '\n')
            strbuf_puts(out, "\\n");
        else if (c == '\r')
            strbuf_puts(out, "\\r");
        else if (c < 0x20 || c >= 0x7f)
            strbuf_printf(out, "\\x%02x", c);
        else
            strbuf_putc(out, (char)c);
    }
    strbuf_putc(out, q);
}

static int64_t bv_len(host *h, val self, src_span at)
{
    (void)h, (void)at;
    return (int64_t)((const bytesval *)self.u.o)->len;
}

static int bv_truth(host *h, val self, src_span at)
{
    (void)h, (void)at;
    return ((const bytesval *)self.u.o)->len != 0;
}

static val bv_getitem(host *h, val self, val key, src_span at)
{
    const bytesval *b = (const bytesval *)self.u.o;
    if (key.kind == VAL_SLICE) {
        int64_t start, step, count;
        if (!host_slice_indices(h, key, (int64_t)b->len, at, &start, &step, &count))
            return val_err();
        unsigned char *buf = xmalloc((size_t)count + 1);
        for (int64_t k = 0, i = start; k < count; k++, i += step)
            buf[k] = b->data[i];
        val r = bytesval_new(buf, (size_t)count);
        free(buf);
        return r;
    }
    int64_t i;
    if (!host_seq_index(h, key, (int64_t)b->len, "bytes", at, &i))
        return val_err();
    return val_int(b->data[i]);
}

static val bv_iter(host *h, val self, src_span at)
{
    (void)h, (void)at;
    const bytesval *b = (const bytesval *)self.u.o;
    val t = val_tuple_new(b->len);
    for (size_t i = 0; i < b->len; i++)
        val_seq_set(t, i, val_int(b->data[i]));
    return t;
}

static int bv_compare(const bytesval *x, const bytesval *y)
{
    size_t n = x->len < y->len ? x->len : y->len;
    int c = n ? memcmp(x->data, y->data, n) : 0;
    if (c)
        return c;
    return x->len < y->len ? -1 : x->len > y->len;
}

static val bv_binop(host *h, ast_op op, bool inplace, val a, val b, src_span at)
{
    (void)inplace;
    if (op == AST_OP_IN) {
        /* a in b, b the bytes: an int 0..255 or a bytes subsequence */
        const bytesval *hay = (const bytesval *)b.u.o;
        if (a.kind == VAL_INT || a.kind == VAL_BOOL) {
            int64_t v = a.kind == VAL_INT ? a.u.i : a.u.b;
            if (v < 0 || v > 255)
                return host_raise(h, HOST_EXC_VALUE, at, "byte must be in range(0, 256)");
            return val_bool(memchr(hay->data, (int)v, hay->len) != NULL);
        }
        if (!bytesval_is(a))
            return host_raise(h, HOST_EXC_TYPE, at, "a bytes-like object is required, not '%s'",
                              val_type_name(a));
        const bytesval *nd = (const bytesval *)a.u.o;
        if (nd->len == 0)
            return val_bool(true);
        for (size_t i = 0; i + nd->len <= hay->len; i++)
            if (!memcmp(hay->data + i, nd->data, nd->len))
                return val_bool(true);
        return val_bool(false);
    }
    if (op == AST_OP_MUL) {
        val bytes = bytesval_is(a) ? a : b, n = bytesval_is(a) ? b : a;
        if (n.kind != VAL_INT && n.kind != VAL_BOOL)
            return val_missing();
        const bytesval *x = (const bytesval *)bytes.u.o;
        int64_t k = n.kind == VAL_INT ? n.u.i : n.u.b;
        if (k < 0)
            k = 0;
        if (x->len && (uint64_t)k > (uint64_t)HOST_MAX_ITEMS / x->len)
            return host_raise(h, HOST_EXC_MEMORY, at, "a bytes of more than %d bytes is more "
                              "than tritsim makes", HOST_MAX_ITEMS);
        size_t total = x->len * (size_t)k;
        unsigned char *buf = xmalloc(total + 1);
        for (int64_t i = 0; i < k; i++)
            memcpy(buf + (size_t)i * x->len, x->data, x->len);
        val r = bytesval_new(buf, total);
        free(buf);
        return r;
    }
    if (!bytesval_is(a) || !bytesval_is(b)) {
        if (op == AST_OP_ADD)
            return host_raise(h, HOST_EXC_TYPE, at, "can't concat %s to %s",
                              val_type_name(bytesval_is(a) ? b : a),
                              bytesval_is(a) ? "bytes" : val_type_name(a));
        return val_missing();
    }
    const bytesval *x = (const bytesval *)a.u.o, *y = (const bytesval *)b.u.o;
    switch (op) {
    case AST_OP_ADD: {
        unsigned char *buf = xmalloc(x->len + y->len + 1);
        memcpy(buf, x->data, x->len);
        memcpy(buf + x->len, y->data, y->len);
        val r = bytesval_new(buf, x->len + y->len);
        free(buf);
        return r;
    }
    case AST_OP_EQ: return val_bool(bv_compare(x, y) == 0);
    case AST_OP_NE: return val_bool(bv_compare(x, y) != 0);
    case AST_OP_LT: return val_bool(bv_compare(x, y) < 0);
    case AST_OP_LE: return val_bool(bv_compare(x, y) <= 0);
    case AST_OP_GT: return val_bool(bv_compare(x, y) > 0);
    case AST_OP_GE: return val_bool(bv_compare(x, y) >= 0);
    default: return val_missing();
    }
}

static uint64_t bv_hash(val self)
{
    const bytesval *b = (const bytesval *)self.u.o;
    uint64_t x = 1469598103934665603u;      /* FNV-1a */
    for (size_t i = 0; i < b->len; i++)
        x = (x ^ b->data[i]) * 1099511628211u;
    return x;
}

static bool bv_equal(val self, val other)
{
    return bytesval_is(self) && bytesval_is(other) &&
           bv_compare((const bytesval *)self.u.o, (const bytesval *)other.u.o) == 0;
}

/* The length of the well-formed UTF-8 sequence at s (n bytes left), or 0
 * with *why CPython's reason and *bad the number of bytes it names. */
static size_t bv_utf8_len(const unsigned char *s, size_t n, const char **why, size_t *bad)
{
    *bad = 1;
    unsigned c = s[0];
    size_t need;
    unsigned lo = 0x80, hi = 0xbf;
    if (c < 0x80)
        return 1;
    if (c >= 0xc2 && c <= 0xdf)
        need = 2;
    else if (c >= 0xe0 && c <= 0xef) {
        need = 3;
        if (c == 0xe0)
            lo = 0xa0;
        if (c == 0xed)
            hi = 0x9f;
    } else if (c >= 0xf0 && c <= 0xf4) {
        need = 4;
        if (c == 0xf0)
            lo = 0x90;
        if (c == 0xf4)
            hi = 0x8f;
    } else {
        *why = "invalid start byte";
        return 0;
    }
    for (size_t k = 1; k < need; k++) {
        if (k >= n) {
            *why = "unexpected end of data";
            *bad = k;
            return 0;
        }
        unsigned d = s[k];
        if (d < (k == 1 ? lo : 0x80) || d > (k == 1 ? hi : 0xbf)) {
            *why = "invalid continuation byte";
            return 0;
        }
    }
    return need;
}

/* Lower-case the encoding's name, '_' as '-': 'UTF_8' -> 'utf-8'. */
static void bv_norm_encoding(const char *e, char *out, size_t cap)
{
    size_t i = 0;
    for (; e[i] && i + 1 < cap; i++)
        out[i] = e[i] == '_' ? '-' : (char)(e[i] >= 'A' && e[i] <= 'Z' ? e[i] - 'A' + 'a' : e[i]);
    out[i] = 0;
}

static val bv_decode(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                     src_span at)
{
    val a[2];
    const char *enc = "utf-8", *errors = "strict";
    if (!host_args(h, at, "decode", "encoding=, errors=", argc, argv, kw, a) ||
        (a[0].kind != VAL_MISSING && !host_to_str(h, a[0], at, "decode() argument 'encoding'",
                                                  &enc)) ||
        (a[1].kind != VAL_MISSING && !host_to_str(h, a[1], at, "decode() argument 'errors'",
                                                  &errors)))
        return val_err();
    char e[32];
    bv_norm_encoding(enc, e, sizeof e);
    if (strcmp(errors, "strict"))
        return host_raise(h, HOST_EXC_VALUE, at, "decode(): errors='%s' is not supported by "
                          "tritsim (only 'strict')", errors);
    const bytesval *b = (const bytesval *)self.u.o;
    strbuf out = {0};
    bool utf8 = !strcmp(e, "utf-8") || !strcmp(e, "utf8");
    bool ascii = !strcmp(e, "ascii");
    bool latin1 = !strcmp(e, "latin-1") || !strcmp(e, "latin1") || !strcmp(e, "iso-8859-1");
    if (!utf8 && !ascii && !latin1) {
        strbuf_free(&out);
        return host_raise(h, HOST_EXC_LOOKUP, at, "unknown encoding: %s", enc);
    }
    for (size_t i = 0; i < b->len;) {
        unsigned c = b->data[i];
        if (latin1) {
            if (c < 0x80)
                strbuf_putc(&out, (char)c);
            else {
                strbuf_putc(&out, (char)(0xc0 | (c >> 6)));
                strbuf_putc(&out, (char)(0x80 | (c & 0x3f)));
            }
            i++;
            continue;
        }
        const char *why = "ordinal not in range(128)";
        size_t bad = 1;
        size_t n = ascii ? (c < 0x80) : bv_utf8_len(b->data + i, b->len - i, &why, &bad);
        if (!n) {
            strbuf_free(&out);
            if (bad > 1)
                return host_raise(h, HOST_EXC_UNICODE_DECODE, at, "'utf-8' codec can't decode "
                                  "bytes in position %zu-%zu: %s", i, i + bad - 1, why);
            return host_raise(h, HOST_EXC_UNICODE_DECODE, at, "'%s' codec can't decode byte "
                              "0x%02x in position %zu: %s", ascii ? "ascii" : "utf-8", c, i,
                              why);
        }
        strbuf_putn(&out, (const char *)b->data + i, n);
        i += n;
    }
    return val_str_from_buf(&out);
}

static val bv_hex(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                  src_span at)
{
    if (!host_args(h, at, "hex", "", argc, argv, kw, NULL))
        return val_err();
    const bytesval *b = (const bytesval *)self.u.o;
    strbuf out = {0};
    for (size_t i = 0; i < b->len; i++)
        strbuf_printf(&out, "%02x", b->data[i]);
    if (!b->len)
        return val_str_cstr("");
    return val_str_from_buf(&out);
}

static val bv_getattr(host *h, val self, const char *name, src_span at)
{
    (void)h, (void)at;
    if (!strcmp(name, "decode"))
        return val_builtin_new("bytes.decode", bv_decode, val_ref(self));
    if (!strcmp(name, "hex"))
        return val_builtin_new("bytes.hex", bv_hex, val_ref(self));
    return val_missing();
}

static const char *const bv_attrs[] = {"decode", "hex", NULL};

const val_type bytesval_type = {
    .name = "bytes",
    .getattr = bv_getattr,
    .getitem = bv_getitem,
    .binop = bv_binop,
    .truth = bv_truth,
    .len = bv_len,
    .iter = bv_iter,
    .repr = bv_repr,
    .free = bv_free,
    .attr_names = bv_attrs,
    .hash = bv_hash,
    .equal = bv_equal,
};
