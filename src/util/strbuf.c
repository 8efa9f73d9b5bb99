/* strbuf.c - the growable string of strbuf.h. */
#include "strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"

void strbuf_init(strbuf *sb)
{
    sb->data = NULL;
    sb->len = sb->cap = 0;
}

void strbuf_free(strbuf *sb)
{
    free(sb->data);
    strbuf_init(sb);
}

void strbuf_clear(strbuf *sb)
{
    sb->len = 0;
    if (sb->data)
        sb->data[0] = '\0';
}

const char *strbuf_cstr(const strbuf *sb)
{
    return sb->data ? sb->data : "";
}

char *strbuf_detach(strbuf *sb)
{
    char *s = sb->data;
    if (!s) {
        s = xmalloc(1);
        s[0] = '\0';
    }
    strbuf_init(sb);
    return s;
}

/* Make room for n more bytes plus the NUL. */
static void reserve(strbuf *sb, size_t n)
{
    if (n > (size_t)-1 / 2 - sb->len)
        arena_oom();
    size_t need = sb->len + n + 1;
    if (need <= sb->cap)
        return;
    size_t cap = sb->cap ? sb->cap : 64;
    while (cap < need)
        cap *= 2;
    sb->data = xrealloc(sb->data, cap);
    sb->cap = cap;
}

void strbuf_putn(strbuf *sb, const char *s, size_t n)
{
    reserve(sb, n);
    if (n)
        memcpy(sb->data + sb->len, s, n);
    sb->len += n;
    sb->data[sb->len] = '\0';
}

void strbuf_putc(strbuf *sb, char c)
{
    strbuf_putn(sb, &c, 1);
}

void strbuf_puts(strbuf *sb, const char *s)
{
    strbuf_putn(sb, s, strlen(s));
}

void strbuf_repeat(strbuf *sb, char c, size_t n)
{
    reserve(sb, n);
    memset(sb->data + sb->len, c, n);
    sb->len += n;
    sb->data[sb->len] = '\0';
}

void strbuf_vprintf(strbuf *sb, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    char small[256];
    int n = vsnprintf(small, sizeof small, fmt, ap2);
    va_end(ap2);
    if (n < 0)
        return;    /* an encoding error: nothing sensible to append */
    if ((size_t)n < sizeof small) {
        strbuf_putn(sb, small, (size_t)n);
        return;
    }
    reserve(sb, (size_t)n);
    vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap);
    sb->len += (size_t)n;
}

void strbuf_printf(strbuf *sb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    strbuf_vprintf(sb, fmt, ap);
    va_end(ap);
}

void strbuf_truncate(strbuf *sb, size_t len)
{
    if (len < sb->len) {
        sb->len = len;
        sb->data[len] = '\0';
    }
}
