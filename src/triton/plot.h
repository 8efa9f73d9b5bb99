/* plot.h - line charts as PNG and SVG files through cairo: what
 * triton.testing's perf_report draws (axes with ticks and labels, a title,
 * a legend, one line per provider, optional min/max bands, log axes). */
#ifndef TRITSIM_PLOT_H
#define TRITSIM_PLOT_H

#include <stdbool.h>
#include <stddef.h>

typedef struct plot_line {
    const char *label;
    const double *y;            /* n values (NaN: no point) */
    const double *ymin, *ymax;  /* a shaded band, or NULL */
    const char *color;          /* matplotlib name ("blue", "C1", "#ff8800")
                                   or NULL for the default cycle */
    const char *style;          /* "-", "--", ":", "-." or NULL */
} plot_line;

typedef struct plot_chart {
    const char *title, *xlabel, *ylabel;
    bool x_log, y_log;
    int n;                      /* points per line */
    const double *x;
    int nlines;
    const plot_line *lines;
} plot_chart;

/* Is name a colour plot_write understands? */
bool plot_color_known(const char *name);

/* Draw chart into png_path and svg_path (either may be NULL).  False with
 * a message in err when a file cannot be written. */
bool plot_write(const plot_chart *c, const char *png_path, const char *svg_path,
                char *err, size_t errlen);

#endif
