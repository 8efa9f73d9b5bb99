/* tap.h - a tiny Test Anything Protocol harness for the C unit tests.
 *
 * Each check prints "ok N - description" or "not ok N - description"
 * followed by "# ..." diagnostic lines saying what was got and expected.
 * tap_done() prints the plan "1..N" (at the end, which TAP allows) unless
 * tap_plan() printed it first, and returns the exit status: 0 when every
 * check passed and the plan was met, 1 otherwise.
 *
 *     int main(void) {
 *         TAP_OK(1 + 1 == 2, "addition works for %d", 1);
 *         TAP_STR_EQ(got, "[0 1]", "numpy prints a range");
 *         return tap_done();
 *     }
 */
#ifndef TRITSIM_TAP_H
#define TRITSIM_TAP_H

#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static int tap_count_, tap_failed_, tap_planned_ = -1;

static inline void tap_plan(int n)
{
    tap_planned_ = n;
    printf("1..%d\n", n);
}

/* Print "ok"/"not ok", the number and the description; true if ok. */
static inline bool tap_vresult(bool ok, const char *file, int line,
                               const char *fmt, va_list ap)
{
    tap_count_++;
    if (!ok)
        tap_failed_++;
    printf("%s %d - ", ok ? "ok" : "not ok", tap_count_);
    vprintf(fmt, ap);
    putchar('\n');
    if (!ok)
        printf("# failed at %s:%d\n", file, line);
    return ok;
}

static inline bool tap_result(bool ok, const char *file, int line,
                              const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static inline bool tap_result(bool ok, const char *file, int line,
                              const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    bool r = tap_vresult(ok, file, line, fmt, ap);
    va_end(ap);
    return r;
}

/* A diagnostic value, one "# " line per line of text so that multi-line
 * strings stay readable and cannot break the TAP stream. */
static inline void tap_diag_text(const char *label, const char *s)
{
    if (!s) {
        printf("# %s: (null)\n", label);
        return;
    }
    printf("# %s:\n", label);
    for (;;) {
        const char *nl = strchr(s, '\n');
        int n = nl ? (int)(nl - s) : (int)strlen(s);
        printf("#   |%.*s|\n", n, s);
        if (!nl)
            break;
        s = nl + 1;
    }
}

static inline bool tap_str_eq(const char *got, const char *want,
                              const char *file, int line,
                              const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static inline bool tap_str_eq(const char *got, const char *want,
                              const char *file, int line,
                              const char *fmt, ...)
{
    bool ok = got && want && strcmp(got, want) == 0;
    va_list ap;
    va_start(ap, fmt);
    tap_vresult(ok, file, line, fmt, ap);
    va_end(ap);
    if (!ok) {
        tap_diag_text("got", got);
        tap_diag_text("expected", want);
    }
    return ok;
}

static inline bool tap_int_eq(long long got, long long want,
                              const char *file, int line,
                              const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static inline bool tap_int_eq(long long got, long long want,
                              const char *file, int line,
                              const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    bool ok = tap_vresult(got == want, file, line, fmt, ap);
    va_end(ap);
    if (!ok)
        printf("# got %lld (0x%llx) expected %lld (0x%llx)\n", got,
               (unsigned long long)got, want, (unsigned long long)want);
    return ok;
}

/* Doubles compare by bit pattern, so -0.0 differs from 0.0 and any NaN
 * matches any NaN. */
static inline bool tap_dbl_eq(double got, double want, const char *file,
                              int line, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static inline bool tap_dbl_eq(double got, double want, const char *file,
                              int line, const char *fmt, ...)
{
    bool ok;
    if (got != got || want != want) {
        ok = got != got && want != want;
    } else {
        uint64_t a, b;
        memcpy(&a, &got, sizeof a);
        memcpy(&b, &want, sizeof b);
        ok = a == b;
    }
    va_list ap;
    va_start(ap, fmt);
    tap_vresult(ok, file, line, fmt, ap);
    va_end(ap);
    if (!ok)
        printf("# got %.17g expected %.17g\n", got, want);
    return ok;
}

static inline int tap_done(void)
{
    if (tap_planned_ < 0)
        printf("1..%d\n", tap_count_);
    else if (tap_planned_ != tap_count_)
        printf("# planned %d tests but ran %d\n", tap_planned_, tap_count_);
    if (tap_failed_)
        printf("# %d of %d tests failed\n", tap_failed_, tap_count_);
    return tap_failed_ || (tap_planned_ >= 0 && tap_planned_ != tap_count_);
}

#define TAP_OK(cond, ...) tap_result((cond), __FILE__, __LINE__, __VA_ARGS__)
#define TAP_STR_EQ(got, want, ...) \
    tap_str_eq((got), (want), __FILE__, __LINE__, __VA_ARGS__)
#define TAP_INT_EQ(got, want, ...) \
    tap_int_eq((long long)(got), (long long)(want), __FILE__, __LINE__, __VA_ARGS__)
#define TAP_DBL_EQ(got, want, ...) \
    tap_dbl_eq((got), (want), __FILE__, __LINE__, __VA_ARGS__)

#endif
