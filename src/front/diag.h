/* diag.h - source files and diagnostics.
 *
 * A src_file owns the text of one program and knows where its lines start.
 * A src_span names a piece of it; every token and AST node carries one.
 * diag_* print GNU-style messages:
 *
 *     copy.tk:3:9: error: unterminated string literal
 *         x = 'abc
 *             ^~~~
 *
 * Lines and columns are 1-based; a column counts Unicode code points, as
 * Python's own tracebacks do.  Colour only on a terminal and never when
 * NO_COLOR is set. */
#ifndef TRITSIM_DIAG_H
#define TRITSIM_DIAG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct src_file {
    char *name;          /* as given on the command line */
    char *text;          /* NUL-terminated contents */
    size_t len;          /* bytes, without the NUL */
    size_t *line_start;  /* byte offset of each line's first byte */
    int nlines;
} src_file;

/* A half-open range [start, end) of the text.  line/col are the start's
 * position; end_line/end_col the position just past the last character.
 * off/end_off are byte offsets, for slicing the text. */
typedef struct src_span {
    int line, col;
    int end_line, end_col;
    unsigned off, end_off;
} src_span;

/* The largest source file tritsim reads: 16 MiB, hundreds of times the
 * largest real program, and within the 2^24 columns the lexer counts. */
#define SRC_MAX_BYTES ((size_t)1 << 24)

/* Read a regular file or a pipe; NULL (and errno set) when it cannot be
 * read: EFBIG when it has more than SRC_MAX_BYTES bytes, ENODEV when it is a
 * device (/dev/zero) or a socket, EISDIR for a directory. */
src_file *src_read(const char *path);
/* Wrap text already in memory (copied), e.g. for tests and the fuzzer. */
src_file *src_from_string(const char *name, const char *text, size_t len);
void src_free(src_file *f);

/* The span covering a and b (a before b). */
src_span src_join(src_span a, src_span b);

/* The text of line n (1-based), without its newline; *len receives its
 * length in bytes.  NULL when n is out of range. */
const char *src_line(const src_file *f, int n, size_t *len);

typedef enum diag_level { DIAG_ERROR, DIAG_WARNING, DIAG_NOTE } diag_level;

typedef struct diag_sink {
    FILE *out;           /* where messages go (stderr by default) */
    bool color;          /* decided by diag_sink_init from isatty/NO_COLOR */
    int nerrors;
    int max_errors;      /* stop reporting after this many; 0 = no limit */
} diag_sink;

/* The most columns of a source line a diagnostic echoes: a longer line
 * (minified or generated code) shows a window of this many around the
 * span, so that one message stays a few lines long. */
enum { DIAG_MAX_ECHO = 320 };

void diag_sink_init(diag_sink *d, FILE *out);

/* Print "file:line:col: level: message", the source line and a caret under
 * the span (^ then ~ to its end on that line).  Errors beyond max_errors
 * are counted but not printed. */
void diag_report(diag_sink *d, diag_level level, const src_file *f,
                 src_span sp, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
void diag_vreport(diag_sink *d, diag_level level, const src_file *f,
                  src_span sp, const char *fmt, va_list ap);

/* True once an error beyond max_errors has arrived (and the line saying
 * "too many errors" has been printed): the caller should stop. */
bool diag_full(const diag_sink *d);
/* The line under a chain of call notes that stands for n more notes of the
 * same call (recursion): "  [the call above repeated n more times]". */
void diag_repeated(diag_sink *d, int n);

#endif
