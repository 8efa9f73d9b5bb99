/* diag.c - source files (reading, line table) and GNU-style diagnostics with
 * the source line and a caret under the offending span. */
#define _POSIX_C_SOURCE 200809L
#include "diag.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "arena.h"

static void src_index_lines(src_file *f)
{
    size_t cap = 64;
    f->line_start = xmalloc(cap * sizeof *f->line_start);
    f->nlines = 0;
    f->line_start[f->nlines++] = 0;
    for (size_t i = 0; i < f->len; i++) {
        char c = f->text[i];
        /* \n, \r\n and a lone \r all end a line, as in Python. */
        if (c == '\n' || (c == '\r' && (i + 1 >= f->len || f->text[i + 1] != '\n'))) {
            if ((size_t)f->nlines == cap) {
                cap *= 2;
                f->line_start = xrealloc(f->line_start, cap * sizeof *f->line_start);
            }
            f->line_start[f->nlines++] = i + 1;
        }
    }
}

src_file *src_from_string(const char *name, const char *text, size_t len)
{
    src_file *f = xcalloc(1, sizeof *f);
    f->name = xmalloc(strlen(name) + 1);
    strcpy(f->name, name);
    f->text = xmalloc(len + 1);
    if (len)
        memcpy(f->text, text, len);
    f->text[len] = '\0';
    f->len = len;
    src_index_lines(f);
    return f;
}

src_file *src_read(const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    /* A regular file or a pipe (/dev/stdin fed by one); a device such as
     * /dev/zero, a directory or a socket is no program. */
    struct stat st;
    if (fstat(fileno(fp), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode)) {
        fclose(fp);
        errno = S_ISDIR(st.st_mode) ? EISDIR : ENODEV;
        return NULL;
    }
    /* Read at most SRC_MAX_BYTES + 1 bytes, whatever the file says its size
     * is: a pipe has none, and a file may grow while it is read. */
    size_t cap = 4096, len = 0;
    char *buf = xmalloc(cap);
    for (;;) {
        size_t n = fread(buf + len, 1, cap - len, fp);
        len += n;
        if (len < cap) {
            if (ferror(fp)) {
                int e = errno;
                free(buf);
                fclose(fp);
                errno = e ? e : EIO;
                return NULL;
            }
            break;
        }
        if (len > SRC_MAX_BYTES) {
            free(buf);
            fclose(fp);
            errno = EFBIG;
            return NULL;
        }
        cap = cap * 2 > SRC_MAX_BYTES + 1 ? SRC_MAX_BYTES + 1 : cap * 2;
        buf = xrealloc(buf, cap);
    }
    fclose(fp);
    src_file *f = src_from_string(path, buf, len);
    free(buf);
    return f;
}

void src_free(src_file *f)
{
    if (!f)
        return;
    free(f->name);
    free(f->text);
    free(f->line_start);
    free(f);
}

src_span src_join(src_span a, src_span b)
{
    src_span s = a;
    s.end_line = b.end_line;
    s.end_col = b.end_col;
    s.end_off = b.end_off;
    return s;
}

const char *src_line(const src_file *f, int n, size_t *len)
{
    if (n < 1 || n > f->nlines)
        return NULL;
    size_t start = f->line_start[n - 1];
    size_t end = start;
    while (end < f->len && f->text[end] != '\n' && f->text[end] != '\r')
        end++;
    *len = end - start;
    return f->text + start;
}

void diag_sink_init(diag_sink *d, FILE *out)
{
    d->out = out;
    d->nerrors = 0;
    d->max_errors = 20;
    d->color = isatty(fileno(out)) && !getenv("NO_COLOR");
}

bool diag_full(const diag_sink *d)
{
    return d->max_errors > 0 && d->nerrors > d->max_errors;
}

static const char *diag_level_name[] = {"error", "warning", "note"};
static const char *diag_level_color[] = {"\033[1;31m", "\033[1;35m", "\033[1;36m"};

/* A UTF-8 continuation byte does not start a column. */
static bool diag_is_cont(unsigned char c)
{
    return (c & 0xC0) == 0x80;
}

/* The byte offset in line (len bytes) where column col (1-based) starts. */
static size_t diag_col_off(const char *line, size_t len, int col)
{
    int c = 0;
    for (size_t i = 0; i < len; i++)
        if (!diag_is_cont((unsigned char)line[i]) && ++c == col)
            return i;
    return len;
}

/* Print the source line and the caret line under columns [col, end_col).
 * A line wider than DIAG_MAX_ECHO columns shows only a window of that many
 * around the span's start, "..." marking what is left out on either side. */
static void diag_show_span(diag_sink *d, const src_file *f, src_span sp)
{
    size_t len;
    const char *line = src_line(f, sp.line, &len);
    if (!line)
        return;
    /* Width of the line in columns, to clip a span that runs past it. */
    int width = 0;
    for (size_t i = 0; i < len; i++)
        if (!diag_is_cont((unsigned char)line[i]))
            width++;
    int end_col = sp.end_line == sp.line ? sp.end_col : 0;
    if (sp.end_line != sp.line || end_col > width + 1)
        end_col = width + 1;
    if (end_col <= sp.col)
        end_col = sp.col + 1;
    /* The window of columns [first, last] shown. */
    int first = 1, last = width;
    if (width > DIAG_MAX_ECHO) {
        first = sp.col - DIAG_MAX_ECHO / 4;
        if (first > width - DIAG_MAX_ECHO + 1)
            first = width - DIAG_MAX_ECHO + 1;
        if (first < 1)
            first = 1;
        last = first + DIAG_MAX_ECHO - 1;
        if (end_col > last + 1)
            end_col = last + 1;
    }
    size_t from = diag_col_off(line, len, first), to = diag_col_off(line, len, last + 1);
    fprintf(d->out, "%s%.*s%s\n", first > 1 ? "..." : "", (int)(to - from), line + from,
            last < width ? "..." : "");
    /* Reproduce tabs so the caret lines up whatever the tab width. */
    if (first > 1)
        fputs("   ", d->out);
    int col = first;
    for (size_t i = from; i < to && col < sp.col; i++) {
        if (diag_is_cont((unsigned char)line[i]))
            continue;
        fputc(line[i] == '\t' ? '\t' : ' ', d->out);
        col++;
    }
    for (; col < sp.col; col++)
        fputc(' ', d->out);
    if (d->color)
        fputs("\033[1;32m", d->out);
    fputc('^', d->out);
    for (int c = sp.col + 1; c < end_col; c++)
        fputc('~', d->out);
    if (d->color)
        fputs("\033[0m", d->out);
    fputc('\n', d->out);
}

void diag_repeated(diag_sink *d, int n)
{
    fprintf(d->out, "  [the call above repeated %d more time%s]\n", n, n == 1 ? "" : "s");
}

void diag_vreport(diag_sink *d, diag_level level, const src_file *f,
                  src_span sp, const char *fmt, va_list ap)
{
    if (level == DIAG_ERROR) {
        d->nerrors++;
        if (d->max_errors > 0 && d->nerrors > d->max_errors) {
            if (d->nerrors == d->max_errors + 1)
                fprintf(d->out, "%s: error: too many errors (stopped after %d); "
                        "fix these and run again\n", f->name, d->max_errors);
            return;
        }
    }
    if (d->color)
        fprintf(d->out, "\033[1m%s:%d:%d: %s%s:\033[0m ", f->name, sp.line, sp.col,
                diag_level_color[level], diag_level_name[level]);
    else
        fprintf(d->out, "%s:%d:%d: %s: ", f->name, sp.line, sp.col,
                diag_level_name[level]);
    vfprintf(d->out, fmt, ap);
    fputc('\n', d->out);
    diag_show_span(d, f, sp);
}

void diag_report(diag_sink *d, diag_level level, const src_file *f,
                 src_span sp, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vreport(d, level, f, sp, fmt, ap);
    va_end(ap);
}
