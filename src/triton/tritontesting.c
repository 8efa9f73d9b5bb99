/* tritontesting.c - the triton.testing module: do_bench (timing of host
 * calls on the clock of the backend the kernels run on, the host's on the
 * CPU, with Triton's run-count estimate and statistics, the GPU's cache
 * flushed before each timed run as Triton does, and the launches' checks
 * deferred to the clock's reads: backend.h's clear_cache and defer),
 * Benchmark, perf_report and its .run(): the table printed exactly as
 * pandas' DataFrame.to_string() prints it, the PNG/SVG plot (plot.c), a CSV
 * under save_path; and the progress bar shared with autotune.c.
 *
 * pandas' to_string rules, as used here (the DataFrame Triton builds has a
 * RangeIndex and float64 columns):
 *   - cells of a float column are formatted "% .6f" (a space where the sign
 *     would go), then trailing zeros are cut from all cells together while
 *     every cell ends in '0', keeping one digit after the point: 32.0, 0.5,
 *     0.085106.  NaN prints as "NaN".  If some nonzero |value| < 1e-6, or
 *     the trimmed cells are longer than 12 characters and some |value| >
 *     1e6, the column uses "% .6e" instead (no trimming);
 *   - a numeric column's header is " " + name; the column is as wide as its
 *     widest cell or header, and everything is right-justified;
 *   - the index column (0, 1, ...) is left-justified under an empty header;
 *   - columns are joined by one space.
 * Columns of other values (strings) print str(value), with no extra space
 * in the header. */
#define _POSIX_C_SOURCE 200809L
#include "tritontesting.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backend.h"
#include "plot.h"

static char *testing_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(xmalloc(n), s, n);
}

/* ---- progress bar ------------------------------------------------------- */

/* Only one bar is on screen: the outermost sweep's (a perf_report whose
 * cells autotune keeps its own bar).  The cursor is left at the start of
 * the line, so that what the program prints meanwhile overwrites the bar
 * instead of following it. */
void tritontesting_progress(const char *what, int done, int total)
{
    static char owner[128];   /* whose bar is on screen; "" when none */
    if (!isatty(2))
        return;
    if (owner[0] && strncmp(owner, what, sizeof owner - 1))
        return;
    if (done >= total) {
        if (owner[0])
            fputs("\r\033[K", stderr);
        owner[0] = '\0';
        fflush(stderr);
        return;
    }
    snprintf(owner, sizeof owner, "%s", what);
    enum { width = 30 };
    int fill = total > 0 ? (int)((long long)done * width / total) : 0;
    char bar[width + 1];
    for (int i = 0; i < width; i++)
        bar[i] = i < fill ? '#' : ' ';
    bar[width] = '\0';
    fprintf(stderr, "\r%s [%s] %d/%d\r", what, bar, done, total);
    fflush(stderr);
}

/* ---- do_bench ------------------------------------------------------------ */

static bool testing_call(host *h, val fn, src_span at)
{
    val r = host_call(h, fn, 0, NULL, NULL, at);
    if (r.kind == VAL_ERR)
        return false;
    val_unref(r);
    return true;
}

/* Calls above this many are not worth waiting for: a cheap host function
 * would otherwise run millions of times. */
enum { testing_max_runs = 1000000 };

/* x.grad = None for each x of grad_to_none (as do_bench does). */
static bool testing_clear_grads(host *h, val grad_to_none, src_span at)
{
    if (grad_to_none.kind != VAL_LIST && grad_to_none.kind != VAL_TUPLE)
        return true;
    const val_seq *s = val_as_seq(grad_to_none);
    for (size_t i = 0; i < s->len; i++)
        if (!host_setattr(h, s->items[i], "grad", val_none(), at))
            return false;
    return true;
}

/* Timing of do_bench's runs: pairs of stamps (backend.h) on the clock of
 * the backend the kernels run on, recorded around each call and read in
 * batches, so that a GPU's queue stays full between the records as in
 * Triton's do_bench (which reads every pair after the last run).  Without
 * a device clock (the CPU backend, or no kernel launched) the stamps read
 * the host's clock when recorded, as do_bench always did here. */
enum { testing_batch = 256 };
typedef struct testing_clock {
    host *h;
    src_span at;
    backend_dev *d;         /* the kernels' backend, or NULL */
    backend_stamp *start[testing_batch], *end[testing_batch];
    int pending;            /* pairs recorded and not yet read */
} testing_clock;

static void testing_clock_init(testing_clock *c, host *h, src_span at)
{
    backend_dev *d = h->kernel_device ? h->kernel_device(h, false, at) : NULL;
    c->h = h;
    c->at = at;
    c->d = d;
    c->pending = 0;
    for (int i = 0; i < testing_batch; i++) {
        c->start[i] = backend_timer_new(d);
        c->end[i] = backend_timer_new(d);
    }
}

static void testing_clock_free(testing_clock *c)
{
    for (int i = 0; i < testing_batch; i++) {
        backend_timer_free(c->start[i]);
        backend_timer_free(c->end[i]);
    }
}

/* Record (end: false) the start of the next pair, or (end: true) its end;
 * false after reporting an error. */
static bool testing_clock_record(testing_clock *c, bool end)
{
    strbuf why = {0};
    backend_stamp *s = end ? c->end[c->pending] : c->start[c->pending];
    bool ok = backend_timer_record(s, c->h->diag, &why);
    if (!ok && why.len)
        host_error(c->h, c->at, "do_bench(): cannot time the runs: %s", strbuf_cstr(&why));
    else if (!ok)
        host_fail(c->h);
    strbuf_free(&why);
    if (ok && end)
        c->pending++;
    return ok;
}

/* The milliseconds of the pending pairs into out[0..pending); false after
 * reporting an error. */
static bool testing_clock_read(testing_clock *c, double *out)
{
    for (int i = 0; i < c->pending; i++) {
        strbuf why = {0};
        bool ok = backend_timer_elapsed_ms(c->start[i], c->end[i], &out[i], c->h->diag, &why);
        if (!ok && why.len)
            host_error(c->h, c->at, "do_bench(): cannot time the runs: %s", strbuf_cstr(&why));
        else if (!ok)
            host_fail(c->h);
        strbuf_free(&why);
        if (!ok)
            return false;
    }
    c->pending = 0;
    return true;
}

/* Flush the device's caches before a timed run (backend_clear_cache), as
 * Triton's do_bench zeroes a 256 MB buffer; false after reporting an
 * error. */
static bool testing_clear_cache(testing_clock *c)
{
    strbuf why = {0};
    bool ok = backend_clear_cache(c->d, &why);
    if (!ok)
        host_error(c->h, c->at, "do_bench(): cannot clear the GPU's cache: %s",
                   strbuf_cstr(&why));
    strbuf_free(&why);
    return ok;
}

/* The runs of do_bench after the first: an estimate from five, then the
 * warm-up and the timed runs (times[0..n_repeat)).  *n_repeat is set once
 * known. */
static bool testing_runs(host *h, val fn, double warmup, double rep, val grad_to_none,
                         src_span at, testing_clock *c, double **times, int *n)
{
    /* estimate the time of one call from five */
    double est;
    if (!testing_clock_record(c, false))
        return false;
    for (int i = 0; i < 5; i++)
        if (!testing_clear_cache(c) || !testing_call(h, fn, at))
            return false;
    if (!testing_clock_record(c, true) || !testing_clock_read(c, &est))
        return false;
    est /= 5;
    if (est < 1e-6)
        est = 1e-6;
    double nw = fmax(1, floor(warmup / est)), nr = fmax(1, floor(rep / est));
    int n_warmup = (int)fmin(nw, testing_max_runs), n_repeat = (int)fmin(nr, testing_max_runs);
    /* a bar only when the whole run takes more than a second */
    bool bar = est * (n_warmup + n_repeat) > 1000;
    int total = n_warmup + n_repeat, step = total / 100 + 1;
    for (int i = 0; i < n_warmup; i++) {
        if (bar && i % step == 0)
            tritontesting_progress("benchmarking", i, total);
        if (!testing_call(h, fn, at))
            return false;
    }
    double *t = xcalloc((size_t)n_repeat, sizeof *t);
    *times = t;
    for (int i = 0; i < n_repeat; i++) {
        if (bar && i % step == 0)
            tritontesting_progress("benchmarking", n_warmup + i, total);
        if (!testing_clear_grads(h, grad_to_none, at) || !testing_clear_cache(c) ||
            !testing_clock_record(c, false) ||
            !testing_call(h, fn, at) || !testing_clock_record(c, true))
            return false;
        if ((c->pending == testing_batch || i == n_repeat - 1) &&
            !testing_clock_read(c, t + i + 1 - c->pending))
            return false;
    }
    *n = n_repeat;
    return true;
}

bool tritontesting_bench(host *h, val fn, double warmup, double rep, val grad_to_none,
                         src_span at, double **times, int *n)
{
    *times = NULL;
    *n = 0;
    /* the first call opens the backend when fn launches a kernel */
    if (!testing_call(h, fn, at))
        return false;
    testing_clock *c = xmalloc(sizeof *c);
    testing_clock_init(c, h, at);
    /* The runs' launches return once enqueued and are checked at the
     * clock's reads (backend.h: the deferred mode), so that the host's
     * round trip after each launch is not timed; a failure is reported as
     * at its launch. */
    bool ok = backend_defer(c->d, true, h->diag) &&
              testing_runs(h, fn, warmup, rep, grad_to_none, at, c, times, n);
    if (!backend_defer(c->d, false, h->diag) && ok) {
        host_fail(h);
        ok = false;
    }
    testing_clock_free(c);
    free(c);
    tritontesting_progress("benchmarking", 1, 1);
    if (!ok) {
        free(*times);
        *times = NULL;
        *n = 0;
    }
    return ok;
}

static int testing_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* torch.quantile's linear interpolation on sorted values. */
static double testing_quantile(const double *s, int n, double q)
{
    double pos = q * (n - 1);
    int lo = (int)floor(pos), hi = (int)ceil(pos);
    return s[lo] + (s[hi] - s[lo]) * (pos - lo);
}

val tritontesting_summarize(host *h, const double *times, int n, val quantiles,
                            const char *mode, src_span at)
{
    if (n <= 0)
        return host_error(h, at, "do_bench() measured no runs");
    double *s = xcalloc((size_t)n, sizeof *s);
    memcpy(s, times, (size_t)n * sizeof *s);
    qsort(s, (size_t)n, sizeof *s, testing_cmp);
    val r = val_err();
    if (quantiles.kind != VAL_NONE && quantiles.kind != VAL_MISSING) {
        val q = host_to_list(h, quantiles, at);
        if (q.kind == VAL_ERR)
            goto done;
        const val_seq *qs = val_as_seq(q);
        val out = val_list_new(qs->len);
        for (size_t i = 0; i < qs->len; i++) {
            double x;
            if (!host_to_float(h, qs->items[i], at, "a quantile", &x)) {
                val_unref(out);
                val_unref(q);
                goto done;
            }
            if (!(x >= 0 && x <= 1)) {
                val_unref(out);
                val_unref(q);
                host_error(h, at, "quantiles must be between 0 and 1, not %g", x);
                goto done;
            }
            val_list_push(out, val_float(testing_quantile(s, n, x)));
        }
        val_unref(q);
        if (val_as_seq(out)->len == 1) {
            r = val_ref(val_as_seq(out)->items[0]);
            val_unref(out);
        } else {
            r = out;
        }
    } else if (!strcmp(mode, "all")) {
        r = val_list_new((size_t)n);
        for (int i = 0; i < n; i++)
            val_list_push(r, val_float(times[i]));
    } else if (!strcmp(mode, "min")) {
        r = val_float(s[0]);
    } else if (!strcmp(mode, "max")) {
        r = val_float(s[n - 1]);
    } else if (!strcmp(mode, "median")) {
        r = val_float(s[(n - 1) / 2]);   /* torch.median: the lower middle */
    } else {
        double sum = 0;
        for (int i = 0; i < n; i++)
            sum += s[i];
        r = val_float(sum / n);
    }
done:
    free(s);
    return r;
}

static val testing_do_bench(host *h, val self, int argc, const val *argv,
                            const val_kwargs *kw, src_span at)
{
    (void)self;
    val p[6];
    if (!host_args(h, at, "do_bench", "fn, warmup=, rep=, grad_to_none=, quantiles=, "
                   "return_mode=", argc, argv, kw, p))
        return val_err();
    double warmup = 25, rep = 100;
    const char *mode = "mean";
    if ((p[1].kind != VAL_MISSING && !host_to_float(h, p[1], at, "do_bench() warmup", &warmup)) ||
        (p[2].kind != VAL_MISSING && !host_to_float(h, p[2], at, "do_bench() rep", &rep)) ||
        (p[5].kind != VAL_MISSING && !host_to_str(h, p[5], at, "do_bench() return_mode", &mode)))
        return val_err();
    static const char *const modes[] = {"min", "max", "mean", "median", "all"};
    bool known = false;
    for (int i = 0; i < 5; i++)
        known |= !strcmp(mode, modes[i]);
    if (!known)
        return host_error(h, at, "do_bench() return_mode must be one of 'min', 'max', "
                          "'mean', 'median', 'all', not '%s'", mode);
    val grads = p[3].kind == VAL_MISSING ? val_none() : p[3];
    if (grads.kind != VAL_NONE && grads.kind != VAL_LIST && grads.kind != VAL_TUPLE)
        return host_raise(h, HOST_EXC_TYPE, at, "do_bench() grad_to_none must be a list of "
                          "tensors, not '%s'", val_type_name(grads));
    double *times;
    int n;
    if (!tritontesting_bench(h, p[0], warmup, rep, grads, at, &times, &n))
        return val_err();
    val r = tritontesting_summarize(h, times, n, p[4].kind == VAL_MISSING ? val_none() : p[4],
                                    mode, at);
    free(times);
    return r;
}

/* triton.testing.do_bench_cudagraph(fn, rep=20, grad_to_none=, quantiles=,
 * return_mode=): on a GPU it times a CUDA graph of fn's launches; here it
 * times fn as do_bench does. */
static val testing_do_bench_cudagraph(host *h, val self, int argc, const val *argv,
                                      const val_kwargs *kw, src_span at)
{
    val p[5];
    if (!host_args(h, at, "do_bench_cudagraph", "fn, rep=, grad_to_none=, quantiles=, "
                   "return_mode=", argc, argv, kw, p))
        return val_err();
    static const char *const names[] = {"rep", "grad_to_none", "quantiles", "return_mode"};
    const char *kn[5];
    val kv[5];
    int n = 0;
    kn[n] = "warmup";
    kv[n++] = val_int(0);
    for (int i = 0; i < 4; i++)
        if (p[i + 1].kind != VAL_MISSING) {
            kn[n] = names[i];
            kv[n++] = p[i + 1];
        }
    if (p[1].kind == VAL_MISSING) {
        kn[n] = "rep";
        kv[n++] = val_int(20);
    }
    val_kwargs k = {n, kn, kv};
    return testing_do_bench(h, self, 1, p, &k, at);
}

/* ---- Benchmark -------------------------------------------------------------- */

static const val_type testing_bench_type = {.name = "Benchmark"};

static val testing_benchmark(host *h, val self, int argc, const val *argv,
                             const val_kwargs *kw, src_span at)
{
    (void)self;
    static const char *const names[] = {
        "x_names", "x_vals", "line_arg", "line_vals", "line_names", "plot_name", "args",
        "xlabel", "ylabel", "x_log", "y_log", "styles",
    };
    val p[12];
    if (!host_args(h, at, "Benchmark", "x_names, x_vals, line_arg, line_vals, line_names, "
                   "plot_name, args, xlabel=, ylabel=, x_log=, y_log=, styles=",
                   argc, argv, kw, p))
        return val_err();
    val b = val_object_new(&testing_bench_type);
    for (int i = 0; i < 12; i++) {
        val v = p[i];
        if (v.kind == VAL_MISSING)
            v = i < 9 ? val_str_cstr("") : i < 11 ? val_bool(false) : val_none();
        else
            v = val_ref(v);
        val_object_set(b, names[i], v);
    }
    return b;
}

/* ---- the table ---------------------------------------------------------------- */

typedef struct testing_col {
    const char *name;       /* the x name or line name (plot legends) */
    char *header;           /* the table's and CSV's column title (owned) */
    bool numeric;
    double *num;            /* numeric cells */
    val *obj;               /* other cells (owned) */
} testing_col;

/* Cells of a float column in fixed or scientific notation; fixed cells
 * lose their common trailing zeros. */
static char **testing_float_cells(const double *v, int n, bool sci)
{
    char **cells = xcalloc((size_t)n + 1, sizeof *cells);
    char buf[512];
    for (int i = 0; i < n; i++) {
        if (isnan(v[i]))
            snprintf(buf, sizeof buf, "NaN");
        else if (isinf(v[i]))
            snprintf(buf, sizeof buf, v[i] > 0 ? " inf" : "-inf");
        else
            snprintf(buf, sizeof buf, sci ? "% .6e" : "% .6f", v[i]);
        cells[i] = testing_strdup(buf);
    }
    if (sci)
        return cells;
    for (;;) {
        int numbers = 0;
        bool all_zero = true;
        for (int i = 0; i < n; i++)
            if (isfinite(v[i])) {
                numbers++;
                all_zero &= cells[i][strlen(cells[i]) - 1] == '0';
            }
        if (!numbers || !all_zero)
            break;
        for (int i = 0; i < n; i++)
            if (isfinite(v[i]))
                cells[i][strlen(cells[i]) - 1] = '\0';
    }
    for (int i = 0; i < n; i++) {
        size_t len = strlen(cells[i]);
        if (isfinite(v[i]) && cells[i][len - 1] == '.') {
            char *c = xcalloc(len + 2, 1);
            memcpy(c, cells[i], len);
            c[len] = '0';
            free(cells[i]);
            cells[i] = c;
        }
    }
    return cells;
}

static void testing_free_cells(char **cells, int n)
{
    for (int i = 0; i < n; i++)
        free(cells[i]);
    free(cells);
}

/* Format a float column as pandas does (see the top of the file): fixed,
 * unless a tiny value would show as 0, or the trimmed cells are too long
 * and hold a huge value. */
static char **testing_format_floats(const double *v, int n)
{
    bool small = false, large = false;
    for (int i = 0; i < n; i++) {
        double a = fabs(v[i]);
        small |= a > 0 && a < 1e-6;
        large |= a > 1e6 && !isnan(a);
    }
    char **cells = testing_float_cells(v, n, false);
    size_t maxlen = 0;
    for (int i = 0; i < n; i++)
        if (strlen(cells[i]) > maxlen)
            maxlen = strlen(cells[i]);
    if (small || (large && maxlen > 12)) {
        testing_free_cells(cells, n);
        cells = testing_float_cells(v, n, true);
    }
    return cells;
}

static void testing_pad(strbuf *out, const char *s, size_t width, bool right)
{
    size_t len = strlen(s);
    if (right && len < width)
        strbuf_repeat(out, ' ', width - len);
    strbuf_puts(out, s);
    if (!right && len < width)
        strbuf_repeat(out, ' ', width - len);
}

static bool testing_print_table(host *h, const testing_col *cols, int ncols, int nrows,
                                strbuf *out)
{
    char ***cells = xcalloc((size_t)ncols + 1, sizeof *cells);
    size_t *width = xcalloc((size_t)ncols + 1, sizeof *width);
    bool ok = true;
    for (int c = 0; c < ncols; c++) {
        if (cols[c].numeric) {
            cells[c] = testing_format_floats(cols[c].num, nrows);
        } else {
            cells[c] = xcalloc((size_t)nrows + 1, sizeof **cells);
            for (int r = 0; r < nrows; r++) {
                val s = host_str(h, cols[c].obj[r]);
                if (s.kind == VAL_ERR) {
                    cells[c][r] = testing_strdup("");
                    ok = false;
                    continue;
                }
                cells[c][r] = testing_strdup(val_as_str(s)->s);
                val_unref(s);
            }
        }
        width[c] = strlen(cols[c].header) + cols[c].numeric;
        for (int r = 0; r < nrows; r++)
            if (strlen(cells[c][r]) > width[c])
                width[c] = strlen(cells[c][r]);
    }
    char idx[32];
    snprintf(idx, sizeof idx, "%d", nrows > 0 ? nrows - 1 : 0);
    size_t iw = nrows > 0 ? strlen(idx) : 0;
    /* the header */
    strbuf_repeat(out, ' ', iw);
    for (int c = 0; c < ncols; c++) {
        strbuf_putc(out, ' ');
        size_t len = strlen(cols[c].header) + cols[c].numeric;
        strbuf_repeat(out, ' ', width[c] - len + cols[c].numeric);
        strbuf_puts(out, cols[c].header);
    }
    strbuf_putc(out, '\n');
    for (int r = 0; r < nrows; r++) {
        snprintf(idx, sizeof idx, "%d", r);
        testing_pad(out, idx, iw, false);
        for (int c = 0; c < ncols; c++) {
            strbuf_putc(out, ' ');
            testing_pad(out, cells[c][r], width[c], true);
        }
        strbuf_putc(out, '\n');
    }
    for (int c = 0; c < ncols; c++) {
        for (int r = 0; r < nrows; r++)
            free(cells[c][r]);
        free(cells[c]);
    }
    free(cells);
    free(width);
    return ok;
}

/* ---- perf_report's run ---------------------------------------------------------- */

/* Attribute of a Benchmark (borrowed). */
static val testing_attr(val bench, const char *name)
{
    return val_object_get(bench, name);
}

static bool testing_is_number(val v)
{
    return v.kind == VAL_INT || v.kind == VAL_FLOAT || v.kind == VAL_BOOL;
}

static double testing_num(val v)
{
    return v.kind == VAL_FLOAT ? v.u.f : v.kind == VAL_INT ? (double)v.u.i : (double)v.u.b;
}

/* A list (new) of the items of a list/tuple attribute, or VAL_ERR. */
static val testing_list_attr(host *h, val bench, const char *name, src_span at)
{
    val v = testing_attr(bench, name);
    if (v.kind != VAL_LIST && v.kind != VAL_TUPLE)
        return host_error(h, at, "Benchmark %s must be a list, not %s", name,
                          val_type_name(v));
    return host_to_list(h, v, at);
}

/* save_path must be a directory already: Triton's run() writes into it
 * and creates nothing (matplotlib's savefig fails there). */
static bool testing_save_dir(host *h, const char *dir, src_span at)
{
    struct stat st;
    if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode))
        return true;
    host_raise(h, HOST_EXC_FILE_NOT_FOUND, at,
               "FileNotFoundError: save_path '%s' is not a directory; Triton writes "
               "the plots into it but does not create it: make it first, e.g. "
               "os.makedirs('%s', exist_ok=True)", dir, dir);
    return false;
}

typedef struct testing_run {
    val xnames, xvals, lvals, lnames, args;
    const char *line_arg, *plot_name, *ylabel;
    int nx, nl, nxn;
    testing_col *cols;      /* nxn x columns, then nl means */
    double *ymin, *ymax;    /* nl * nx each */
} testing_run;

static void testing_run_free(testing_run *r)
{
    int ncols = r->nxn + r->nl;
    for (int c = 0; r->cols && c < ncols; c++) {
        free(r->cols[c].num);
        free(r->cols[c].header);
        for (int i = 0; r->cols[c].obj && i < r->nx; i++)
            val_unref(r->cols[c].obj[i]);
        free(r->cols[c].obj);
    }
    free(r->cols);
    free(r->ymin);
    free(r->ymax);
    val_unref(r->xnames);
    val_unref(r->xvals);
    val_unref(r->lvals);
    val_unref(r->lnames);
}

/* Call fn(**x_args, line_arg=y, **bench.args, **extra) for one cell. */
static val testing_cell(host *h, val fn, testing_run *r, val xrow, val y, val extra,
                        src_span at)
{
    val kwd = val_dict_new();
    for (int i = 0; i < r->nxn; i++) {
        val xv = (xrow.kind == VAL_LIST || xrow.kind == VAL_TUPLE)
                     ? val_as_seq(xrow)->items[i] : xrow;
        val_dict_set(kwd, val_ref(val_as_seq(r->xnames)->items[i]), val_ref(xv));
    }
    val_dict_set_str(kwd, r->line_arg, val_ref(y));
    val srcs[2] = {r->args, extra};
    for (int s = 0; s < 2; s++) {
        if (srcs[s].kind != VAL_DICT)
            continue;
        size_t pos = 0;
        val k, v;
        while (val_dict_next(srcs[s], &pos, &k, &v))
            if (k.kind == VAL_STR)
                val_dict_set(kwd, val_ref(k), val_ref(v));
    }
    size_t n = val_as_dict(kwd)->len, m = 0, pos = 0;
    const char **names = xcalloc(n + 1, sizeof *names);
    val *values = xcalloc(n + 1, sizeof *values);
    val k, v;
    while (val_dict_next(kwd, &pos, &k, &v)) {
        names[m] = val_as_str(k)->s;
        values[m++] = v;
    }
    val_kwargs kw = {(int)m, names, values};
    val ret = host_call(h, fn, 0, NULL, &kw, at);
    free(names);
    free(values);
    val_unref(kwd);
    return ret;
}

static bool testing_plot(host *h, val bench, testing_run *r, const char *dir, bool note,
                         src_span at)
{
    if (!r->cols[0].numeric) {
        host_error(h, at, "cannot plot '%s': the x values of '%s' are not numbers",
                   r->plot_name, r->cols[0].name);
        return false;
    }
    plot_line *lines = xcalloc((size_t)r->nl + 1, sizeof *lines);
    val styles = testing_attr(bench, "styles");
    bool ok = true;
    for (int i = 0; i < r->nl; i++) {
        plot_line *l = &lines[i];
        l->label = r->cols[r->nxn + i].name;
        l->y = r->cols[r->nxn + i].num;
        bool band = false;
        for (int k = 0; k < r->nx; k++)
            band |= !isnan(r->ymin[i * r->nx + k]) && !isnan(r->ymax[i * r->nx + k]);
        if (band) {
            l->ymin = &r->ymin[i * r->nx];
            l->ymax = &r->ymax[i * r->nx];
        }
        if ((styles.kind == VAL_LIST || styles.kind == VAL_TUPLE) &&
            (size_t)i < val_as_seq(styles)->len) {
            val st = val_as_seq(styles)->items[i];
            if ((st.kind == VAL_TUPLE || st.kind == VAL_LIST) && val_as_seq(st)->len >= 1) {
                val c = val_as_seq(st)->items[0];
                if (c.kind == VAL_STR)
                    l->color = val_as_str(c)->s;
                if (val_as_seq(st)->len >= 2 && val_as_seq(st)->items[1].kind == VAL_STR)
                    l->style = val_as_str(val_as_seq(st)->items[1])->s;
            }
            if (l->color && !plot_color_known(l->color)) {
                host_error(h, at, "unknown colour '%s' in styles (use a name like 'blue', "
                           "'C1' or '#1f77b4')", l->color);
                ok = false;
            }
        }
    }
    val xl = testing_attr(bench, "xlabel"), yl = testing_attr(bench, "ylabel");
    plot_chart c = {
        .title = r->plot_name,
        .xlabel = xl.kind == VAL_STR && val_as_str(xl)->len ? val_as_str(xl)->s : r->cols[0].name,
        .ylabel = yl.kind == VAL_STR ? val_as_str(yl)->s : "",
        .x_log = host_truth(h, testing_attr(bench, "x_log"), at) == 1,
        .y_log = host_truth(h, testing_attr(bench, "y_log"), at) == 1,
        .n = r->nx, .x = r->cols[0].num, .nlines = r->nl, .lines = lines,
    };
    strbuf png, svg;
    strbuf_init(&png);
    strbuf_init(&svg);
    strbuf_printf(&png, "%s/%s.png", dir, r->plot_name);
    strbuf_printf(&svg, "%s/%s.svg", dir, r->plot_name);
    char err[512];
    if (ok && !plot_write(&c, strbuf_cstr(&png), strbuf_cstr(&svg), err, sizeof err)) {
        host_error(h, at, "%s", err);
        ok = false;
    }
    if (ok && note) {
        fflush(stdout);
        fprintf(stderr, "plot saved to %s and %s\n", strbuf_cstr(&png), strbuf_cstr(&svg));
    }
    strbuf_free(&png);
    strbuf_free(&svg);
    free(lines);
    return ok;
}

static bool testing_csv(host *h, testing_run *r, const char *dir, src_span at)
{
    strbuf path;
    strbuf_init(&path);
    strbuf_printf(&path, "%s/%s.csv", dir, r->plot_name);
    FILE *f = fopen(strbuf_cstr(&path), "w");
    if (!f) {
        host_error(h, at, "cannot write '%s': %s", strbuf_cstr(&path), strerror(errno));
        strbuf_free(&path);
        return false;
    }
    int ncols = r->nxn + r->nl;
    for (int c = 0; c < ncols; c++)
        fprintf(f, "%s%s", c ? "," : "", r->cols[c].header);
    fputc('\n', f);
    for (int i = 0; i < r->nx; i++) {
        for (int c = 0; c < ncols; c++) {
            if (c)
                fputc(',', f);
            if (!r->cols[c].numeric) {
                val s = host_str(h, r->cols[c].obj[i]);
                if (s.kind == VAL_STR)
                    fputs(val_as_str(s)->s, f);
                val_unref(s);
            } else if (!isnan(r->cols[c].num[i])) {
                fprintf(f, "%.1f", r->cols[c].num[i]);   /* Triton 3.0's float_format */
            }
        }
        fputc('\n', f);
    }
    fclose(f);
    strbuf_free(&path);
    return true;
}

/* One Benchmark: fill the table by calling fn, then print / plot / save. */
static bool testing_run_bench(host *h, val fn, val bench, bool show, bool print,
                              const char *save, val extra, src_span at)
{
    if (bench.kind != VAL_OBJECT || val_type_of(bench) != &testing_bench_type) {
        host_error(h, at, "perf_report takes a triton.testing.Benchmark or a list of them, "
                   "not %s", val_type_name(bench));
        return false;
    }
    testing_run r = {0};
    r.xnames = testing_list_attr(h, bench, "x_names", at);
    r.xvals = r.xnames.kind == VAL_ERR ? val_err() : testing_list_attr(h, bench, "x_vals", at);
    r.lvals = r.xvals.kind == VAL_ERR ? val_err() : testing_list_attr(h, bench, "line_vals", at);
    r.lnames = r.lvals.kind == VAL_ERR ? val_err() : testing_list_attr(h, bench, "line_names", at);
    bool ok = r.lnames.kind != VAL_ERR;
    val la = testing_attr(bench, "line_arg"), pn = testing_attr(bench, "plot_name");
    r.args = testing_attr(bench, "args");
    if (ok && (la.kind != VAL_STR || pn.kind != VAL_STR)) {
        host_error(h, at, "Benchmark line_arg and plot_name must be strings");
        ok = false;
    }
    if (ok) {
        r.line_arg = val_as_str(la)->s;
        r.plot_name = val_as_str(pn)->s;
        val yl = testing_attr(bench, "ylabel");
        r.ylabel = yl.kind == VAL_STR ? val_as_str(yl)->s : "";
        r.nxn = (int)val_as_seq(r.xnames)->len;
        r.nx = (int)val_as_seq(r.xvals)->len;
        r.nl = (int)val_as_seq(r.lvals)->len;
        if (r.nxn == 0 || (int)val_as_seq(r.lnames)->len != r.nl) {
            host_error(h, at, "Benchmark needs at least one x name and one line name per "
                       "line value (%d line_vals, %zu line_names)", r.nl,
                       val_as_seq(r.lnames)->len);
            ok = false;
        }
        for (int i = 0; ok && i < r.nxn; i++)
            if (val_as_seq(r.xnames)->items[i].kind != VAL_STR) {
                host_error(h, at, "Benchmark x_names must be strings");
                ok = false;
            }
        for (int i = 0; ok && i < r.nl; i++)
            if (val_as_seq(r.lnames)->items[i].kind != VAL_STR) {
                host_error(h, at, "Benchmark line_names must be strings");
                ok = false;
            }
        for (int i = 0; ok && i < r.nx; i++) {
            val x = val_as_seq(r.xvals)->items[i];
            if ((x.kind == VAL_LIST || x.kind == VAL_TUPLE) &&
                (int)val_as_seq(x)->len != r.nxn) {
                host_error(h, at, "x_vals[%d] has %zu values for %d x_names", i,
                           val_as_seq(x)->len, r.nxn);
                ok = false;
            }
        }
    }
    if (!ok) {
        testing_run_free(&r);
        return false;
    }
    int ncols = r.nxn + r.nl;
    r.cols = xcalloc((size_t)ncols, sizeof *r.cols);
    for (int c = 0; c < ncols; c++) {
        r.cols[c].name = c < r.nxn ? val_as_str(val_as_seq(r.xnames)->items[c])->s
                                   : val_as_str(val_as_seq(r.lnames)->items[c - r.nxn])->s;
        /* Triton 3.x titles a line's column "name (ylabel)" */
        strbuf title;
        strbuf_init(&title);
        if (c < r.nxn)
            strbuf_puts(&title, r.cols[c].name);
        else
            strbuf_printf(&title, "%s (%s)", r.cols[c].name, r.ylabel);
        r.cols[c].header = strbuf_detach(&title);
        r.cols[c].numeric = true;
        r.cols[c].num = xcalloc((size_t)r.nx + 1, sizeof(double));
        r.cols[c].obj = xcalloc((size_t)r.nx + 1, sizeof(val));
    }
    r.ymin = xcalloc((size_t)(r.nl * r.nx) + 1, sizeof *r.ymin);
    r.ymax = xcalloc((size_t)(r.nl * r.nx) + 1, sizeof *r.ymax);
    char what[128];
    snprintf(what, sizeof what, "%s", r.plot_name);
    for (int i = 0; ok && i < r.nx; i++) {
        val xrow = val_as_seq(r.xvals)->items[i];
        for (int c = 0; c < r.nxn; c++) {
            val xv = (xrow.kind == VAL_LIST || xrow.kind == VAL_TUPLE)
                         ? val_as_seq(xrow)->items[c] : xrow;
            r.cols[c].obj[i] = val_ref(xv);
            r.cols[c].numeric &= testing_is_number(xv);
            r.cols[c].num[i] = testing_is_number(xv) ? testing_num(xv) : NAN;
        }
        for (int l = 0; ok && l < r.nl; l++) {
            tritontesting_progress(what, i * r.nl + l, r.nx * r.nl);
            val ret = testing_cell(h, fn, &r, xrow, val_as_seq(r.lvals)->items[l], extra, at);
            if (ret.kind == VAL_ERR) {
                ok = false;
                break;
            }
            /* (y, y_min, y_max) as the tutorials return; else just y */
            val parts[3] = {ret, val_none(), val_none()};
            if ((ret.kind == VAL_TUPLE || ret.kind == VAL_LIST) && val_as_seq(ret)->len == 3)
                for (int j = 0; j < 3; j++)
                    parts[j] = val_as_seq(ret)->items[j];
            double d[3];
            for (int j = 0; j < 3; j++) {
                d[j] = NAN;
                if (testing_is_number(parts[j]))
                    d[j] = testing_num(parts[j]);
                else if (parts[j].kind != VAL_NONE) {
                    host_error(h, at, "the benchmarked function returned %s; it must return "
                               "a number or a tuple (y, y_min, y_max)",
                               val_type_name(parts[j]));
                    ok = false;
                }
            }
            val_unref(ret);
            r.cols[r.nxn + l].num[i] = d[0];
            r.cols[r.nxn + l].obj[i] = val_float(d[0]);
            r.ymin[l * r.nx + i] = d[1];
            r.ymax[l * r.nx + i] = d[2];
        }
    }
    tritontesting_progress(what, 1, 1);
    if (ok && print) {
        strbuf out;
        strbuf_init(&out);
        strbuf_printf(&out, "%s:\n", r.plot_name);
        ok = testing_print_table(h, r.cols, ncols, r.nx, &out);
        fputs(strbuf_cstr(&out), stdout);
        fflush(stdout);
        strbuf_free(&out);
    }
    if (ok && (show || (save && *save))) {
        const char *dir = save && *save ? save : ".";
        ok = testing_plot(h, bench, &r, dir, show && !(save && *save), at);
    }
    if (ok && save && *save)
        ok = testing_csv(h, &r, save, at);
    testing_run_free(&r);
    return ok;
}

/* mark.run(show_plots=False, print_data=False, save_path='', return_df=False,
 * **kwargs): the other keywords go to the benchmarked function. */
static val testing_mark_run(host *h, val self, int argc, const val *argv,
                            const val_kwargs *kw, src_span at)
{
    (void)argv;
    if (argc > 0)
        return host_error(h, at, "run() takes keyword arguments only (show_plots=, "
                          "print_data=, save_path=)");
    bool show = false, print = false, want_df = false;
    const char *save = "";
    val extra = val_dict_new();
    val r = val_err();
    for (int k = 0; kw && k < kw->n; k++) {
        const char *n = kw->names[k];
        val v = kw->values[k];
        int t;
        if (!strcmp(n, "show_plots") || !strcmp(n, "print_data") || !strcmp(n, "return_df")) {
            if ((t = host_truth(h, v, at)) < 0)
                goto done;
            *(!strcmp(n, "show_plots") ? &show : !strcmp(n, "print_data") ? &print
                                                                           : &want_df) = t;
        } else if (!strcmp(n, "save_path")) {
            if (v.kind != VAL_NONE && !host_to_str(h, v, at, "run() save_path", &save))
                goto done;
        } else {
            val_dict_set_str(extra, n, val_ref(v));
        }
    }
    if (want_df) {
        host_error(h, at, "run(return_df=True) returns pandas DataFrames, which tritsim does "
                   "not have; use print_data=True or save_path= (a CSV is written there)");
        goto done;
    }
    if (*save && !testing_save_dir(h, save, at))
        goto done;
    val fn = val_object_get(self, "fn"), benches = val_object_get(self, "benchmarks");
    val list;
    if (benches.kind == VAL_LIST || benches.kind == VAL_TUPLE) {
        list = val_ref(benches);
    } else {
        list = val_list_new(1);
        val_list_push(list, val_ref(benches));
    }
    bool ok = true;
    for (size_t i = 0; ok && i < val_as_seq(list)->len; i++)
        ok = testing_run_bench(h, fn, val_as_seq(list)->items[i], show, print, save, extra, at);
    if (ok && *save) {
        /* results.html showing every plot, as Triton writes it */
        strbuf p;
        strbuf_init(&p);
        strbuf_printf(&p, "%s/results.html", save);
        FILE *f = fopen(strbuf_cstr(&p), "w");
        if (f) {
            fputs("<html><body>\n", f);
            for (size_t i = 0; i < val_as_seq(list)->len; i++) {
                val pn = val_object_get(val_as_seq(list)->items[i], "plot_name");
                if (pn.kind == VAL_STR)
                    fprintf(f, "<image src=\"%s.png\"/>\n", val_as_str(pn)->s);
            }
            fputs("</body></html>\n", f);
            fclose(f);
        } else {
            ok = false;
            host_error(h, at, "cannot write '%s': %s", strbuf_cstr(&p), strerror(errno));
        }
        strbuf_free(&p);
    }
    val_unref(list);
    if (ok)
        r = val_none();
done:
    val_unref(extra);
    return r;
}

static val testing_mark_getattr(host *h, val self, const char *name, src_span at)
{
    (void)h, (void)at;
    if (!strcmp(name, "run"))
        return val_builtin_new("Mark.run", testing_mark_run, val_ref(self));
    return val_missing();
}

static const char *const testing_mark_attrs[] = {"run", "fn", "benchmarks", NULL};

static const val_type testing_mark_type = {
    .name = "Mark",
    .getattr = testing_mark_getattr,
    .attr_names = testing_mark_attrs,
};

/* The decorator perf_report(benchmarks) returns; self = benchmarks. */
static val testing_perf_apply(host *h, val self, int argc, const val *argv,
                              const val_kwargs *kw, src_span at)
{
    val p[1];
    if (!host_args(h, at, "perf_report", "fn", argc, argv, kw, p))
        return val_err();
    val m = val_object_new(&testing_mark_type);
    val_object_set(m, "fn", val_ref(p[0]));
    val_object_set(m, "benchmarks", val_ref(self));
    return m;
}

static val testing_perf_report(host *h, val self, int argc, const val *argv,
                               const val_kwargs *kw, src_span at)
{
    (void)self;
    val p[1];
    if (!host_args(h, at, "perf_report", "benchmarks", argc, argv, kw, p))
        return val_err();
    return val_builtin_new("triton.testing.perf_report", testing_perf_apply, val_ref(p[0]));
}

void tritontesting_init(host *h, val triton)
{
    val t = val_module_new("triton.testing");
    host_def(t, "triton.testing.do_bench", testing_do_bench);
    host_def(t, "triton.testing.do_bench_cudagraph", testing_do_bench_cudagraph);
    host_def(t, "triton.testing.Benchmark", testing_benchmark);
    host_def(t, "triton.testing.perf_report", testing_perf_report);
    val_object_set(triton, "testing", val_ref(t));
    host_register_module(h, "triton.testing", t);
}
