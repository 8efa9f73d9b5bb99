/* strbuf.h - a growable, always NUL-terminated byte string.
 *
 * The formatters (format.h) and anything else that builds text of unknown
 * length append to a strbuf and hand out its data.  Growth goes through
 * xrealloc (arena.h), so appending never fails; a zeroed strbuf (or one set
 * by strbuf_init) is empty and valid, and strbuf_cstr gives "" for it. */
#ifndef TRITSIM_STRBUF_H
#define TRITSIM_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

typedef struct strbuf {
    char *data;    /* NULL until the first append; then NUL-terminated */
    size_t len;    /* bytes, without the NUL */
    size_t cap;    /* bytes allocated */
} strbuf;

void strbuf_init(strbuf *sb);
void strbuf_free(strbuf *sb);           /* back to the empty state */
void strbuf_clear(strbuf *sb);          /* len = 0, keeps the memory */

/* The text so far; never NULL (an empty buffer gives ""). */
const char *strbuf_cstr(const strbuf *sb);

/* Hand the malloc'd text to the caller (never NULL) and reset sb. */
char *strbuf_detach(strbuf *sb);

void strbuf_putc(strbuf *sb, char c);
void strbuf_puts(strbuf *sb, const char *s);
void strbuf_putn(strbuf *sb, const char *s, size_t n);
void strbuf_repeat(strbuf *sb, char c, size_t n);   /* n copies of c */
void strbuf_printf(strbuf *sb, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void strbuf_vprintf(strbuf *sb, const char *fmt, va_list ap);

/* Cut the text back to its first len bytes (len <= sb->len). */
void strbuf_truncate(strbuf *sb, size_t len);

#endif
