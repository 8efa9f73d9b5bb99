/* plot.c - line charts in the manner of matplotlib's default figure
 * (640x480, white, boxed axes with outward ticks, legend in the upper
 * left), drawn once through cairo onto a PNG image surface and once onto an
 * SVG surface.  Only what triton.testing.perf_report needs. */
#define _POSIX_C_SOURCE 200809L
#include "plot.h"

#include <cairo-svg.h>
#include <cairo.h>
#include <fontconfig/fontconfig.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum { PLOT_W = 640, PLOT_H = 480 };
/* the axes box inside the figure */
static const double plot_left = 80, plot_right = 610, plot_top = 48, plot_bottom = 420;

typedef struct plot_rgb { double r, g, b; } plot_rgb;

typedef struct plot_named { const char *name; unsigned hex; } plot_named;

/* matplotlib's single letters, its tab10 cycle (C0..C9) and the CSS names
 * that benchmarks use most. */
static const plot_named plot_colors[] = {
    {"b", 0x0000ff}, {"g", 0x008000}, {"r", 0xff0000}, {"c", 0x00bfbf},
    {"m", 0xbf00bf}, {"y", 0xbfbf00}, {"k", 0x000000}, {"w", 0xffffff},
    {"C0", 0x1f77b4}, {"C1", 0xff7f0e}, {"C2", 0x2ca02c}, {"C3", 0xd62728},
    {"C4", 0x9467bd}, {"C5", 0x8c564b}, {"C6", 0xe377c2}, {"C7", 0x7f7f7f},
    {"C8", 0xbcbd22}, {"C9", 0x17becf},
    {"blue", 0x0000ff}, {"green", 0x008000}, {"red", 0xff0000}, {"orange", 0xffa500},
    {"purple", 0x800080}, {"black", 0x000000}, {"gray", 0x808080}, {"grey", 0x808080},
    {"cyan", 0x00ffff}, {"magenta", 0xff00ff}, {"yellow", 0xffff00}, {"brown", 0xa52a2a},
    {"pink", 0xffc0cb}, {"olive", 0x808000}, {"navy", 0x000080}, {"teal", 0x008080},
    {"lime", 0x00ff00}, {"darkgreen", 0x006400}, {"darkblue", 0x00008b},
    {"darkred", 0x8b0000}, {"darkorange", 0xff8c00}, {"gold", 0xffd700},
    {"tab:blue", 0x1f77b4}, {"tab:orange", 0xff7f0e}, {"tab:green", 0x2ca02c},
    {"tab:red", 0xd62728}, {"tab:purple", 0x9467bd}, {"tab:brown", 0x8c564b},
    {"tab:pink", 0xe377c2}, {"tab:gray", 0x7f7f7f}, {"tab:olive", 0xbcbd22},
    {"tab:cyan", 0x17becf},
};

static bool plot_lookup(const char *name, plot_rgb *out)
{
    unsigned hex = 0;
    bool found = false;
    if (name[0] == '#' && strlen(name) == 7) {
        char *end;
        hex = (unsigned)strtoul(name + 1, &end, 16);
        found = *end == '\0';
    }
    for (size_t i = 0; !found && i < sizeof plot_colors / sizeof plot_colors[0]; i++)
        if (!strcasecmp(plot_colors[i].name, name)) {
            hex = plot_colors[i].hex;
            found = true;
        }
    if (found && out) {
        out->r = ((hex >> 16) & 255) / 255.0;
        out->g = ((hex >> 8) & 255) / 255.0;
        out->b = (hex & 255) / 255.0;
    }
    return found;
}

bool plot_color_known(const char *name)
{
    return plot_lookup(name, NULL);
}

/* ---- scales and ticks --------------------------------------------------- */

typedef struct plot_axis {
    bool log;
    double lo, hi;          /* in data units (log: > 0) */
    double ticks[32];
    int nticks;
} plot_axis;

static double plot_t(const plot_axis *a, double v)
{
    return a->log ? log10(v) : v;
}

/* Position of v in [0, 1] along the axis. */
static double plot_frac(const plot_axis *a, double v)
{
    double l = plot_t(a, a->lo), h = plot_t(a, a->hi);
    return h > l ? (plot_t(a, v) - l) / (h - l) : 0.5;
}

/* A step of 1, 2, 2.5 or 5 times a power of ten near range/target. */
static double plot_nice_step(double range, int target)
{
    double raw = range / target;
    double p = pow(10, floor(log10(raw)));
    double m = raw / p;
    return (m < 1.5 ? 1 : m < 2.25 ? 2 : m < 3.5 ? 2.5 : m < 7.5 ? 5 : 10) * p;
}

/* Limits from the data with matplotlib's 5% margins, and the ticks. */
static void plot_axis_fit(plot_axis *a, double lo, double hi, const double *data, int n)
{
    if (!(lo <= hi)) {
        lo = a->log ? 1 : 0;
        hi = a->log ? 10 : 1;
    }
    if (a->log) {
        double l = log10(lo), h = log10(hi);
        if (h - l < 1e-12) {
            l -= 0.5;
            h += 0.5;
        }
        double pad = (h - l) * 0.05;
        a->lo = pow(10, l - pad);
        a->hi = pow(10, h + pad);
        a->nticks = 0;
        for (double e = ceil(l - pad); e <= h + pad && a->nticks < 32; e++)
            a->ticks[a->nticks++] = pow(10, e);
        /* a narrow log range: mark the data points themselves */
        if (a->nticks < 2 && data) {
            a->nticks = 0;
            for (int i = 0; i < n && a->nticks < 32; i++)
                if (data[i] > 0 && isfinite(data[i]))
                    a->ticks[a->nticks++] = data[i];
        }
        return;
    }
    if (hi - lo < 1e-12 * (fabs(hi) + 1)) {
        lo -= fabs(lo) * 0.1 + 0.5;
        hi += fabs(hi) * 0.1 + 0.5;
    }
    double pad = (hi - lo) * 0.05;
    a->lo = lo - pad;
    a->hi = hi + pad;
    double step = plot_nice_step(a->hi - a->lo, 6);
    a->nticks = 0;
    for (double t = ceil(a->lo / step) * step; t <= a->hi + step * 1e-9 && a->nticks < 32;
         t += step)
        a->ticks[a->nticks++] = fabs(t) < step * 1e-9 ? 0 : t;
}

/* Linear ticks share the decimals of their step (2.0, 2.5, 3.0), as
 * matplotlib prints them; log ticks are powers of ten or data values. */
static void plot_tick_label(const plot_axis *a, double v, char *buf, size_t len)
{
    double e = a->log ? log10(v) : 0;
    if (a->log && fabs(e - round(e)) < 1e-9 && (e >= 4 || e <= -3)) {
        snprintf(buf, len, "1e%d", (int)round(e));
        return;
    }
    double step = !a->log && a->nticks > 1 ? a->ticks[1] - a->ticks[0] : 1;
    if (a->log || fabs(v) >= 1e5 || step < 1e-6) {
        snprintf(buf, len, "%g", v);
        return;
    }
    int d = 0;
    while (d < 6 && fabs(step * pow(10, d) - round(step * pow(10, d))) > 1e-6)
        d++;
    snprintf(buf, len, "%.*f", d, v);
}

/* ---- drawing ---------------------------------------------------------------- */

static double plot_px(const plot_axis *x, double v)
{
    return plot_left + plot_frac(x, v) * (plot_right - plot_left);
}

static double plot_py(const plot_axis *y, double v)
{
    return plot_bottom - plot_frac(y, v) * (plot_bottom - plot_top);
}

static void plot_text(cairo_t *cr, const char *s, double x, double y, double ax, double ay)
{
    cairo_text_extents_t e;
    cairo_text_extents(cr, s, &e);
    cairo_move_to(cr, x - e.width * ax - e.x_bearing, y - e.height * ay - e.y_bearing);
    cairo_show_text(cr, s);
}

static void plot_set_dash(cairo_t *cr, const char *style)
{
    static const double dashed[] = {5.5, 2.4}, dotted[] = {1.5, 2.5},
                        dashdot[] = {6.4, 1.6, 1.5, 1.6};
    if (style && !strcmp(style, "--"))
        cairo_set_dash(cr, dashed, 2, 0);
    else if (style && !strcmp(style, ":"))
        cairo_set_dash(cr, dotted, 2, 0);
    else if (style && !strcmp(style, "-."))
        cairo_set_dash(cr, dashdot, 4, 0);
    else
        cairo_set_dash(cr, NULL, 0, 0);
}

static plot_rgb plot_line_color(const plot_line *l, int i)
{
    plot_rgb c;
    char cycle[4];
    if (!l->color || !plot_lookup(l->color, &c)) {
        snprintf(cycle, sizeof cycle, "C%d", i % 10);
        plot_lookup(cycle, &c);
    }
    return c;
}

static bool plot_ok(const plot_axis *a, double v)
{
    return isfinite(v) && (!a->log || v > 0);
}

static void plot_series(cairo_t *cr, const plot_chart *c, const plot_axis *xa,
                        const plot_axis *ya)
{
    cairo_save(cr);
    cairo_rectangle(cr, plot_left, plot_top, plot_right - plot_left, plot_bottom - plot_top);
    cairo_clip(cr);
    for (int i = 0; i < c->nlines; i++) {
        const plot_line *l = &c->lines[i];
        plot_rgb rgb = plot_line_color(l, i);
        if (l->ymin && l->ymax) {
            /* the band between min and max, as fill_between(alpha=0.15) */
            bool open = false;
            int first = -1, last = -1;
            for (int k = 0; k < c->n; k++)
                if (plot_ok(xa, c->x[k]) && plot_ok(ya, l->ymax[k]) && plot_ok(ya, l->ymin[k])) {
                    double px = plot_px(xa, c->x[k]), py = plot_py(ya, l->ymax[k]);
                    if (!open)
                        cairo_move_to(cr, px, py);
                    else
                        cairo_line_to(cr, px, py);
                    open = true;
                    if (first < 0)
                        first = k;
                    last = k;
                }
            for (int k = last; open && k >= first; k--)
                if (plot_ok(xa, c->x[k]) && plot_ok(ya, l->ymin[k]) && plot_ok(ya, l->ymax[k]))
                    cairo_line_to(cr, plot_px(xa, c->x[k]), plot_py(ya, l->ymin[k]));
            if (open) {
                cairo_close_path(cr);
                cairo_set_source_rgba(cr, rgb.r, rgb.g, rgb.b, 0.15);
                cairo_fill(cr);
            }
        }
        bool open = false;
        for (int k = 0; k < c->n; k++) {
            if (!plot_ok(xa, c->x[k]) || !plot_ok(ya, l->y[k])) {
                open = false;
                continue;
            }
            double px = plot_px(xa, c->x[k]), py = plot_py(ya, l->y[k]);
            if (open)
                cairo_line_to(cr, px, py);
            else
                cairo_move_to(cr, px, py);
            open = true;
        }
        cairo_set_source_rgb(cr, rgb.r, rgb.g, rgb.b);
        cairo_set_line_width(cr, 1.5);
        plot_set_dash(cr, l->style);
        cairo_stroke(cr);
    }
    cairo_restore(cr);
}

static void plot_axes(cairo_t *cr, const plot_chart *c, const plot_axis *xa,
                      const plot_axis *ya)
{
    char buf[64];
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_set_line_width(cr, 0.8);
    cairo_set_dash(cr, NULL, 0, 0);
    cairo_rectangle(cr, plot_left, plot_top, plot_right - plot_left, plot_bottom - plot_top);
    cairo_stroke(cr);
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, 11);
    for (int i = 0; i < xa->nticks; i++) {
        double v = xa->ticks[i], px = plot_px(xa, v);
        if (px < plot_left - 0.5 || px > plot_right + 0.5)
            continue;
        cairo_move_to(cr, px, plot_bottom);
        cairo_line_to(cr, px, plot_bottom + 4);
        cairo_stroke(cr);
        plot_tick_label(xa, v, buf, sizeof buf);
        plot_text(cr, buf, px, plot_bottom + 7, 0.5, 0);
    }
    for (int i = 0; i < ya->nticks; i++) {
        double v = ya->ticks[i], py = plot_py(ya, v);
        if (py < plot_top - 0.5 || py > plot_bottom + 0.5)
            continue;
        cairo_move_to(cr, plot_left, py);
        cairo_line_to(cr, plot_left - 4, py);
        cairo_stroke(cr);
        plot_tick_label(ya, v, buf, sizeof buf);
        plot_text(cr, buf, plot_left - 7, py, 1, 0.5);
    }
    cairo_set_font_size(cr, 13);
    if (c->xlabel && *c->xlabel)
        plot_text(cr, c->xlabel, (plot_left + plot_right) / 2, plot_bottom + 30, 0.5, 0);
    if (c->ylabel && *c->ylabel) {
        cairo_save(cr);
        cairo_translate(cr, plot_left - 58, (plot_top + plot_bottom) / 2);
        cairo_rotate(cr, -1.5707963267948966);
        plot_text(cr, c->ylabel, 0, 0, 0.5, 0.5);
        cairo_restore(cr);
    }
    if (c->title && *c->title) {
        cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
                               CAIRO_FONT_WEIGHT_BOLD);
        cairo_set_font_size(cr, 14);
        plot_text(cr, c->title, (plot_left + plot_right) / 2, plot_top - 12, 0.5, 1);
    }
}

static void plot_legend(cairo_t *cr, const plot_chart *c)
{
    if (c->nlines == 0)
        return;
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, 11);
    double wmax = 0;
    for (int i = 0; i < c->nlines; i++) {
        cairo_text_extents_t e;
        cairo_text_extents(cr, c->lines[i].label ? c->lines[i].label : "", &e);
        if (e.x_advance > wmax)
            wmax = e.x_advance;
    }
    double x = plot_left + 10, y = plot_top + 10, row = 18;
    double w = 44 + wmax, hgt = row * c->nlines + 8;
    cairo_set_dash(cr, NULL, 0, 0);
    cairo_rectangle(cr, x, y, w, hgt);
    cairo_set_source_rgba(cr, 1, 1, 1, 0.8);
    cairo_fill_preserve(cr);
    cairo_set_source_rgb(cr, 0.8, 0.8, 0.8);
    cairo_set_line_width(cr, 0.8);
    cairo_stroke(cr);
    for (int i = 0; i < c->nlines; i++) {
        double cy = y + 4 + row * i + row / 2;
        plot_rgb rgb = plot_line_color(&c->lines[i], i);
        cairo_set_source_rgb(cr, rgb.r, rgb.g, rgb.b);
        cairo_set_line_width(cr, 1.5);
        plot_set_dash(cr, c->lines[i].style);
        cairo_move_to(cr, x + 6, cy);
        cairo_line_to(cr, x + 32, cy);
        cairo_stroke(cr);
        cairo_set_source_rgb(cr, 0, 0, 0);
        plot_text(cr, c->lines[i].label ? c->lines[i].label : "", x + 38, cy, 0, 0.5);
    }
}

static void plot_draw(cairo_t *cr, const plot_chart *c)
{
    plot_axis xa = {.log = c->x_log}, ya = {.log = c->y_log};
    double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;
    for (int k = 0; k < c->n; k++)
        if (plot_ok(&xa, c->x[k])) {
            xlo = fmin(xlo, c->x[k]);
            xhi = fmax(xhi, c->x[k]);
        }
    for (int i = 0; i < c->nlines; i++)
        for (int k = 0; k < c->n; k++) {
            const plot_line *l = &c->lines[i];
            double vs[3] = {l->y[k], l->ymin ? l->ymin[k] : NAN, l->ymax ? l->ymax[k] : NAN};
            for (int j = 0; j < 3; j++)
                if (plot_ok(&ya, vs[j])) {
                    ylo = fmin(ylo, vs[j]);
                    yhi = fmax(yhi, vs[j]);
                }
        }
    plot_axis_fit(&xa, xlo, xhi, c->x, c->n);
    plot_axis_fit(&ya, ylo, yhi, NULL, 0);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    plot_series(cr, c, &xa, &ya);
    plot_axes(cr, c, &xa, &ya);
    plot_legend(cr, c);
}

static bool plot_write_files(const plot_chart *c, const char *png_path,
                             const char *svg_path, char *err, size_t errlen)
{
    if (png_path) {
        cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, PLOT_W, PLOT_H);
        cairo_t *cr = cairo_create(s);
        plot_draw(cr, c);
        cairo_destroy(cr);
        cairo_status_t st = cairo_surface_write_to_png(s, png_path);
        cairo_surface_destroy(s);
        if (st != CAIRO_STATUS_SUCCESS) {
            snprintf(err, errlen, "cannot write '%s': %s", png_path,
                     cairo_status_to_string(st));
            return false;
        }
    }
    if (svg_path) {
        cairo_surface_t *s = cairo_svg_surface_create(svg_path, PLOT_W, PLOT_H);
        cairo_status_t st = cairo_surface_status(s);
        if (st == CAIRO_STATUS_SUCCESS) {
            cairo_t *cr = cairo_create(s);
            plot_draw(cr, c);
            cairo_destroy(cr);
            cairo_surface_finish(s);
            st = cairo_surface_status(s);
        }
        cairo_surface_destroy(s);
        if (st != CAIRO_STATUS_SUCCESS) {
            snprintf(err, errlen, "cannot write '%s': %s", svg_path,
                     cairo_status_to_string(st));
            return false;
        }
    }
    return true;
}

bool plot_write(const plot_chart *c, const char *png_path, const char *svg_path,
                char *err, size_t errlen)
{
    bool ok = plot_write_files(c, png_path, svg_path, err, errlen);
    /* Drop cairo's and fontconfig's caches: plots are rare, and leak
     * checkers (--enable-asan) would otherwise report them at exit. */
    cairo_debug_reset_static_data();
    FcFini();
    return ok;
}
