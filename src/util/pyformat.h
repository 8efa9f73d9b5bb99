/* pyformat.h - Python's text forms of numbers and strings, exactly as
 * CPython writes them.
 *
 *   - repr of floats: the shortest digit string that reads back to the same
 *     double ('0.1', '1e-05', '1e+16', 'inf', 'nan', '-0.0', '1.0');
 *   - repr of strings: quotes and escapes as CPython chooses them;
 *   - format specs [[fill]align][sign][z][#][0][width][,|_][.precision][type]
 *     for ints (b c d o x X n %, e f g ...), floats (e E f F g G n % and no
 *     type) and strings (s and no type), with CPython's error messages.
 *
 * Nothing here knows about host values: callers pass C numbers and byte
 * strings (UTF-8; widths and precisions count code points, as Python's do)
 * and append text to a strbuf.
 * The tensor printer can use pyformat_float with a spec of its own. */
#ifndef TRITSIM_PYFORMAT_H
#define TRITSIM_PYFORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "strbuf.h"

/* A parsed format spec.  Absent parts: fill 0 (meaning ' '), align 0,
 * sign 0, width -1, grouping 0, precision -1, type 0. */
typedef struct pyformat_spec {
    char fill[5];       /* one UTF-8 character, NUL-terminated; "" = none */
    char align;         /* '<' '>' '^' '=' or 0 */
    char sign;          /* '+' '-' ' ' or 0 */
    bool z;             /* 'z': negative zero becomes zero (floats) */
    bool alt;           /* '#' */
    bool zero;          /* '0' before the width */
    int64_t width;
    char grouping;      /* ',' '_' or 0 */
    int64_t precision;
    char type;
} pyformat_spec;

/* Parse spec[0..len).  On error, false with CPython's message in err,
 * e.g. "Invalid format specifier 'abc' for object of type 'int'";
 * type_name is the value's type, used only in that message. */
bool pyformat_parse_spec(const char *spec, size_t len, const char *type_name,
                         pyformat_spec *out, char *err, size_t errlen);

/* Append v formatted by spec (format(v, spec) in Python).  False with
 * CPython's ValueError message in err when the spec does not apply. */
bool pyformat_int(strbuf *b, int64_t v, const pyformat_spec *spec,
                  char *err, size_t errlen);
bool pyformat_float(strbuf *b, double v, const pyformat_spec *spec,
                    char *err, size_t errlen);
bool pyformat_str(strbuf *b, const char *s, size_t len,
                  const pyformat_spec *spec, char *err, size_t errlen);

/* repr(v) == str(v) for a float. */
void pyformat_float_repr(strbuf *b, double v);
/* repr(s): quoted and escaped as CPython does ('it''s' -> "it's"). */
void pyformat_str_repr(strbuf *b, const char *s, size_t len);

/* The shortest decimal digits that read back as v (v finite, not 0):
 * digits receives 1 to 17 ASCII digits without trailing zeros, *decpt the
 * position of the decimal point relative to them (0.25 -> "25", 0). */
void pyformat_shortest(double v, char digits[18], int *decpt);

/* Python's round(v, ndigits) for a float: correctly rounded, ties to even
 * on the exact binary value (round(2.675, 2) == 2.67). */
double pyformat_round(double v, int64_t ndigits);

/* Number of code points in s[0..len) (UTF-8; stray bytes count one each). */
size_t pyformat_utf8_len(const char *s, size_t len);

#endif
