/* tabulatemod.c - the tabulate module of .tk programs: tabulate.tabulate()
 * as the Python package lays out a table in its "simple" and "plain"
 * formats, which Triton's tutorials print their small tables with.
 *
 * The package's rules, kept here: each column gets the most generic type
 * of its cells (None < bool < int < float < str; strings that read as
 * numbers count as numbers), numbers are formatted with floatfmt ("g") or
 * intfmt and aligned on their decimal point ("decimal", right-aligned, an
 * int counting as no decimals), other columns left-aligned; columns are
 * two spaces apart and at least as wide as their header plus two, and
 * lines end without blanks (checked against tabulate 0.10 on the GPU
 * machine). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "host.h"
#include "pyformat.h"
#include "strbuf.h"
#include "tabulatemod.h"
#include "val.h"

/* Column types in the order of generality. */
enum { TAB_NONE, TAB_BOOL, TAB_INT, TAB_FLOAT, TAB_STR };

/* Does s (all of it, spaces around allowed) read as a Python int/float? */
static bool tabulate_str_is_int(const char *s)
{
    char *end;
    errno = 0;
    (void)strtoll(s, &end, 10);
    if (end == s)
        return false;
    while (*end == ' ')
        end++;
    return *end == '\0' && errno == 0;
}

static bool tabulate_str_is_float(const char *s, double *out)
{
    char *end;
    double d = strtod(s, &end);
    if (end == s)
        return false;
    while (*end == ' ')
        end++;
    if (*end != '\0')
        return false;
    *out = d;
    return true;
}

/* The type of one cell, as tabulate's _type() sees it. */
static int tabulate_cell_type(val v)
{
    double d;
    switch (v.kind) {
    case VAL_NONE: return TAB_NONE;
    case VAL_BOOL: return TAB_BOOL;
    case VAL_INT: return TAB_INT;
    case VAL_FLOAT: return TAB_FLOAT;
    case VAL_STR: {
        const char *s = val_as_str(v)->s;
        if (!strcmp(s, "True") || !strcmp(s, "False"))
            return TAB_BOOL;
        if (tabulate_str_is_int(s))
            return TAB_INT;
        if (tabulate_str_is_float(s, &d) &&
            (isfinite(d) || !strcasecmp(s, "inf") || !strcasecmp(s, "-inf") ||
             !strcasecmp(s, "nan")))
            return TAB_FLOAT;
        return TAB_STR;
    }
    default: return TAB_STR;
    }
}

/* The digits after the point of a formatted number ("2.50" -> 2), or -1
 * for an int or a non-number, as tabulate's _afterpoint(). */
static int tabulate_afterpoint(const char *s)
{
    double d;
    if (!tabulate_str_is_float(s, &d) || tabulate_str_is_int(s))
        return -1;
    const char *p = strrchr(s, '.');
    if (!p) {
        p = strrchr(s, 'e');
        if (!p)
            p = strrchr(s, 'E');
    }
    return p ? (int)(strlen(s) - (size_t)(p - s) - 1) : -1;
}

/* Cell v of a column of type t, as text (tabulate's _format()): None as
 * missingval, ints of an int column as they are, every cell of a float
 * column (bools and numeric strings too) through floatfmt, the rest as
 * str() gives them. */
static bool tabulate_format(host *h, val v, int t, const pyformat_spec *ff,
                            const char *missing, src_span at, strbuf *out)
{
    if (v.kind == VAL_NONE) {
        strbuf_puts(out, missing);
        return true;
    }
    if (t == TAB_INT && v.kind == VAL_INT) {
        strbuf_printf(out, "%lld", (long long)v.u.i);
        return true;
    }
    if (t == TAB_FLOAT) {
        double d = 0;
        if (v.kind == VAL_STR)
            (void)tabulate_str_is_float(val_as_str(v)->s, &d);
        else
            d = v.kind == VAL_FLOAT ? v.u.f : v.kind == VAL_BOOL ? v.u.b : (double)v.u.i;
        char err[160];
        if (!pyformat_float(out, d, ff, err, sizeof err)) {
            host_raise(h, HOST_EXC_VALUE, at, "ValueError: %s", err);
            return false;
        }
        return true;
    }
    val s = host_str(h, v);
    if (s.kind == VAL_ERR)
        return false;
    strbuf_putn(out, val_as_str(s)->s, val_as_str(s)->len);
    val_unref(s);
    return true;
}

static size_t tabulate_width(const char *s)
{
    return pyformat_utf8_len(s, strlen(s));
}

/* s padded with spaces to width w, on the left (right) or the right. */
static void tabulate_pad(strbuf *out, const char *s, size_t w, bool right)
{
    size_t n = tabulate_width(s);
    if (right)
        for (size_t i = n; i < w; i++)
            strbuf_putc(out, ' ');
    strbuf_puts(out, s);
    if (!right)
        for (size_t i = n; i < w; i++)
            strbuf_putc(out, ' ');
}

/* A ruled line: dashes as wide as each column, two spaces apart. */
static void tabulate_rule(strbuf *out, const size_t *w, int ncols)
{
    for (int c = 0; c < ncols; c++) {
        if (c)
            strbuf_puts(out, "  ");
        for (size_t i = 0; i < w[c]; i++)
            strbuf_putc(out, '-');
    }
    strbuf_putc(out, '\n');
}

static val tabulate_fn(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                       src_span at)
{
    (void)self;
    val a[6];
    if (!host_args(h, at, "tabulate", "tabular_data, headers=, tablefmt=, floatfmt=, "
                   "missingval=, intfmt=", argc, argv, kw, a))
        return val_err();
    const char *fmt = a[2].kind == VAL_STR ? val_as_str(a[2])->s : "simple";
    if (strcmp(fmt, "simple") && strcmp(fmt, "plain"))
        return host_raise(h, HOST_EXC_NOT_IMPLEMENTED, at,
                          "tabulate: tablefmt '%s' is not supported by tritsim "
                          "(use 'simple' or 'plain'; see doc/language.md)", fmt);
    if (a[5].kind != VAL_MISSING && !(a[5].kind == VAL_STR && !val_as_str(a[5])->len))
        return host_raise(h, HOST_EXC_NOT_IMPLEMENTED, at,
                          "tabulate: intfmt is not supported by tritsim");
    const char *ffs = a[3].kind == VAL_STR ? val_as_str(a[3])->s : "g";
    const char *missing = a[4].kind == VAL_STR ? val_as_str(a[4])->s : "";
    pyformat_spec ff;
    char err[160];
    if (!pyformat_parse_spec(ffs, strlen(ffs), "float", &ff, err, sizeof err))
        return host_raise(h, HOST_EXC_VALUE, at, "ValueError: %s", err);

    /* rows: a list of sequences; headers: a sequence or "firstrow" */
    val rows = host_to_list(h, a[0], at);
    if (rows.kind == VAL_ERR)
        return rows;
    val_seq *rs = val_as_seq(rows);
    size_t nrows = rs->len, first = 0;
    int ncols = 0;
    val *cells = NULL;            /* nrows x ncols, None where a row is short */
    val hdr = val_none();
    bool ok = true;
    val *rowlists = xcalloc(nrows ? nrows : 1, sizeof *rowlists);
    for (size_t r = 0; ok && r < nrows; r++) {
        rowlists[r] = host_to_list(h, rs->items[r], at);
        if (rowlists[r].kind == VAL_ERR)
            ok = false;
        else if ((int)val_as_seq(rowlists[r])->len > ncols)
            ncols = (int)val_as_seq(rowlists[r])->len;
    }
    if (ok && a[1].kind == VAL_STR && !strcmp(val_as_str(a[1])->s, "firstrow") && nrows) {
        hdr = val_ref(rowlists[0]);
        first = 1;
    } else if (ok && a[1].kind != VAL_MISSING && !(a[1].kind == VAL_STR)) {
        hdr = host_to_list(h, a[1], at);
        ok = hdr.kind != VAL_ERR;
    } else if (ok && a[1].kind == VAL_STR && strcmp(val_as_str(a[1])->s, "firstrow")) {
        ok = false;
        host_raise(h, HOST_EXC_NOT_IMPLEMENTED, at,
                   "tabulate: headers='%s' is not supported by tritsim (give a list "
                   "of names or 'firstrow')", val_as_str(a[1])->s);
    }
    if (!ok) {
        for (size_t r = 0; r < nrows; r++)
            val_unref(rowlists[r]);
        free(rowlists);
        val_unref(rows);
        return val_err();
    }
    size_t nbody = nrows - first;
    int nh = hdr.kind == VAL_LIST ? (int)val_as_seq(hdr)->len : 0;
    if (first)                  /* the header row is not data */
        ncols = 0;
    for (size_t r = first; r < nrows; r++)
        if ((int)val_as_seq(rowlists[r])->len > ncols)
            ncols = (int)val_as_seq(rowlists[r])->len;
    if (!nbody)                 /* no data: the headers alone */
        ncols = nh;
    int hskip = nh > ncols ? 0 : ncols - nh;   /* headers pad on the left... */
    if (nh > ncols)
        nh = ncols;                            /* ...and past the columns drop */
    cells = xcalloc((nbody ? nbody : 1) * (size_t)(ncols ? ncols : 1), sizeof *cells);
    for (size_t r = 0; r < nbody; r++) {
        const val_seq *row = val_as_seq(rowlists[first + r]);
        for (int c = 0; c < ncols; c++)
            cells[r * (size_t)ncols + (size_t)c] = (size_t)c < row->len ? row->items[c]
                                                                       : val_none();
    }

    /* each column: its type, its cells as text, aligned */
    char **text = xcalloc((nbody ? nbody : 1) * (size_t)(ncols ? ncols : 1), sizeof *text);
    char **htext = xcalloc(ncols ? (size_t)ncols : 1, sizeof *htext);
    size_t *width = xcalloc(ncols ? (size_t)ncols : 1, sizeof *width);
    bool *right = xcalloc(ncols ? (size_t)ncols : 1, sizeof *right);
    for (int c = 0; ok && c < ncols; c++) {
        int t = TAB_BOOL;
        for (size_t r = 0; r < nbody; r++) {
            int ct = tabulate_cell_type(cells[r * (size_t)ncols + (size_t)c]);
            if (ct > t)
                t = ct;
        }
        right[c] = t == TAB_INT || t == TAB_FLOAT;
        int maxdec = -1;
        for (size_t r = 0; ok && r < nbody; r++) {
            strbuf b;
            strbuf_init(&b);
            ok = tabulate_format(h, cells[r * (size_t)ncols + (size_t)c], t, &ff, missing, at,
                                 &b);
            text[r * (size_t)ncols + (size_t)c] = xstrdup(strbuf_cstr(&b));
            strbuf_free(&b);
            int d = tabulate_afterpoint(text[r * (size_t)ncols + (size_t)c]);
            if (right[c] && d > maxdec)
                maxdec = d;
        }
        /* decimal alignment: pad each number's end to the most decimals */
        for (size_t r = 0; ok && right[c] && r < nbody; r++) {
            char **cell = &text[r * (size_t)ncols + (size_t)c];
            int d = tabulate_afterpoint(*cell);
            strbuf b;
            strbuf_init(&b);
            strbuf_puts(&b, *cell);
            for (int i = d; i < maxdec; i++)
                strbuf_putc(&b, ' ');
            free(*cell);
            *cell = xstrdup(strbuf_cstr(&b));
            strbuf_free(&b);
        }
        /* headers are padded on the left to the column count */
        int hi = c - hskip;
        if (nh && hi >= 0) {
            val s = host_str(h, val_as_seq(hdr)->items[hi]);
            if (s.kind == VAL_ERR) {
                ok = false;
            } else {
                htext[c] = xstrdup(val_as_str(s)->s);
                val_unref(s);
            }
        } else {
            htext[c] = xstrdup("");
        }
        width[c] = nh ? tabulate_width(htext[c]) + 2 : 0;
        for (size_t r = 0; ok && r < nbody; r++) {
            size_t w = tabulate_width(text[r * (size_t)ncols + (size_t)c]);
            if (w > width[c])
                width[c] = w;
        }
    }

    val result = val_err();
    if (ok) {
        bool rules = !strcmp(fmt, "simple");
        strbuf out;
        strbuf_init(&out);
        if (nh) {
            for (int c = 0; c < ncols; c++) {
                if (c)
                    strbuf_puts(&out, "  ");
                tabulate_pad(&out, htext[c], width[c], right[c]);
            }
            strbuf_putc(&out, '\n');
            if (rules)
                tabulate_rule(&out, width, ncols);
        } else if (rules && ncols) {
            tabulate_rule(&out, width, ncols);
        }
        for (size_t r = 0; r < nbody; r++) {
            for (int c = 0; c < ncols; c++) {
                if (c)
                    strbuf_puts(&out, "  ");
                tabulate_pad(&out, text[r * (size_t)ncols + (size_t)c], width[c], right[c]);
            }
            strbuf_putc(&out, '\n');
        }
        if (!nh && rules && ncols)
            tabulate_rule(&out, width, ncols);
        /* no blanks at the ends of lines, no newline after the last one */
        strbuf t;
        strbuf_init(&t);
        const char *p = strbuf_cstr(&out);
        while (*p) {
            const char *nl = strchr(p, '\n');
            size_t n = (size_t)(nl - p);
            while (n && p[n - 1] == ' ')
                n--;
            strbuf_putn(&t, p, n);
            if (nl[1])
                strbuf_putc(&t, '\n');
            p = nl + 1;
        }
        result = val_str_new(strbuf_cstr(&t), t.len);
        strbuf_free(&t);
        strbuf_free(&out);
    }
    for (size_t i = 0; i < nbody * (size_t)ncols; i++)
        free(text[i]);
    for (int c = 0; c < ncols; c++)
        free(htext[c]);
    free(text);
    free(htext);
    free(width);
    free(right);
    free(cells);
    for (size_t r = 0; r < nrows; r++)
        val_unref(rowlists[r]);
    free(rowlists);
    val_unref(hdr);
    val_unref(rows);
    return result;
}

void tabulate_init(host *h)
{
    val m = val_module_new("tabulate");
    host_def(m, "tabulate.tabulate", tabulate_fn);
    host_register_module(h, "tabulate", m);
}
