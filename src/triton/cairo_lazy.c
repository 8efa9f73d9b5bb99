/* cairo_lazy.c - the cairo and fontconfig functions that plot.c draws with,
 * loaded with dlopen the first time a plot is drawn.
 *
 * Linking cairo made every run of tritsim load it and the libraries it
 * pulls in (pixman, fontconfig, freetype, X11, xcb and more, sixteen in
 * all), about 1.5 ms of start-up for a feature few programs use (issue 6: a
 * run of a small program within 5 ms).  So tritsim does not link them:
 * these definitions, with cairo's own prototypes (the compiler checks them
 * against cairo.h), forward to the real functions, found in libcairo.so.2
 * on first use.  plot.c is unchanged.  Without the library a plot stops
 * the program with a message saying what to install.
 *
 * Only the host thread draws plots, so the function pointers need no
 * locking. */
#define _POSIX_C_SOURCE 200809L
#include <cairo-svg.h>
#include <cairo.h>
#include <dlfcn.h>
#include <fontconfig/fontconfig.h>
#include <stdio.h>
#include <stdlib.h>

enum { CAIRO_LAZY_CAIRO, CAIRO_LAZY_FONTCONFIG };

static const char *const cairo_lazy_names[] = {"libcairo.so.2", "libfontconfig.so.1"};
static const char *const cairo_lazy_packages[] = {"libcairo2", "libfontconfig1"};
static void *cairo_lazy_handles[2];

static void *cairo_lazy_open(int lib)
{
    if (!cairo_lazy_handles[lib]) {
        cairo_lazy_handles[lib] = dlopen(cairo_lazy_names[lib], RTLD_NOW | RTLD_LOCAL);
        if (!cairo_lazy_handles[lib]) {
            fprintf(stderr, "tritsim: drawing a plot needs %s, which cannot be loaded: %s\n"
                    "(Debian: apt-get install %s)\n", cairo_lazy_names[lib], dlerror(),
                    cairo_lazy_packages[lib]);
            exit(1);
        }
    }
    return cairo_lazy_handles[lib];
}

static void *cairo_lazy_sym(int lib, const char *name)
{
    void *p = dlsym(cairo_lazy_open(lib), name);
    if (!p) {
        fprintf(stderr, "tritsim: %s has no function %s: %s\n", cairo_lazy_names[lib], name,
                dlerror());
        exit(1);
    }
    return p;
}

/* A function returning a value, and one returning nothing. */
#define CAIRO_LAZY(ret, name, params, args) \
    ret name params \
    { \
        static ret (*fn_) params; \
        if (!fn_) \
            *(void **)(&fn_) = cairo_lazy_sym(CAIRO_LAZY_CAIRO, #name); \
        return fn_ args; \
    }
#define CAIRO_LAZY_VOID(name, params, args) \
    void name params \
    { \
        static void (*fn_) params; \
        if (!fn_) \
            *(void **)(&fn_) = cairo_lazy_sym(CAIRO_LAZY_CAIRO, #name); \
        fn_ args; \
    }

CAIRO_LAZY(cairo_surface_t *, cairo_image_surface_create,
           (cairo_format_t format, int width, int height), (format, width, height))
CAIRO_LAZY(cairo_surface_t *, cairo_svg_surface_create,
           (const char *filename, double width_in_points, double height_in_points),
           (filename, width_in_points, height_in_points))
CAIRO_LAZY(cairo_status_t, cairo_surface_status, (cairo_surface_t *surface), (surface))
CAIRO_LAZY(cairo_status_t, cairo_surface_write_to_png,
           (cairo_surface_t *surface, const char *filename), (surface, filename))
CAIRO_LAZY_VOID(cairo_surface_finish, (cairo_surface_t *surface), (surface))
CAIRO_LAZY_VOID(cairo_surface_destroy, (cairo_surface_t *surface), (surface))
CAIRO_LAZY(const char *, cairo_status_to_string, (cairo_status_t status), (status))

CAIRO_LAZY(cairo_t *, cairo_create, (cairo_surface_t *target), (target))
CAIRO_LAZY_VOID(cairo_destroy, (cairo_t *cr), (cr))
CAIRO_LAZY_VOID(cairo_save, (cairo_t *cr), (cr))
CAIRO_LAZY_VOID(cairo_restore, (cairo_t *cr), (cr))
CAIRO_LAZY_VOID(cairo_translate, (cairo_t *cr, double tx, double ty), (cr, tx, ty))
CAIRO_LAZY_VOID(cairo_rotate, (cairo_t *cr, double angle), (cr, angle))
CAIRO_LAZY_VOID(cairo_set_source_rgb, (cairo_t *cr, double red, double green, double blue),
                (cr, red, green, blue))
CAIRO_LAZY_VOID(cairo_set_source_rgba,
                (cairo_t *cr, double red, double green, double blue, double alpha),
                (cr, red, green, blue, alpha))
CAIRO_LAZY_VOID(cairo_set_line_width, (cairo_t *cr, double width), (cr, width))
CAIRO_LAZY_VOID(cairo_set_dash,
                (cairo_t *cr, const double *dashes, int num_dashes, double offset),
                (cr, dashes, num_dashes, offset))
CAIRO_LAZY_VOID(cairo_move_to, (cairo_t *cr, double x, double y), (cr, x, y))
CAIRO_LAZY_VOID(cairo_line_to, (cairo_t *cr, double x, double y), (cr, x, y))
CAIRO_LAZY_VOID(cairo_rectangle, (cairo_t *cr, double x, double y, double width, double height),
                (cr, x, y, width, height))
CAIRO_LAZY_VOID(cairo_close_path, (cairo_t *cr), (cr))
CAIRO_LAZY_VOID(cairo_paint, (cairo_t *cr), (cr))
CAIRO_LAZY_VOID(cairo_stroke, (cairo_t *cr), (cr))
CAIRO_LAZY_VOID(cairo_fill, (cairo_t *cr), (cr))
CAIRO_LAZY_VOID(cairo_fill_preserve, (cairo_t *cr), (cr))
CAIRO_LAZY_VOID(cairo_clip, (cairo_t *cr), (cr))
CAIRO_LAZY_VOID(cairo_select_font_face,
                (cairo_t *cr, const char *family, cairo_font_slant_t slant,
                 cairo_font_weight_t weight),
                (cr, family, slant, weight))
CAIRO_LAZY_VOID(cairo_set_font_size, (cairo_t *cr, double size), (cr, size))
CAIRO_LAZY_VOID(cairo_show_text, (cairo_t *cr, const char *utf8), (cr, utf8))
CAIRO_LAZY_VOID(cairo_text_extents, (cairo_t *cr, const char *utf8, cairo_text_extents_t *extents),
                (cr, utf8, extents))

/* Dropping the caches at the end of a plot: nothing to drop if no plot
 * loaded the libraries. */
void cairo_debug_reset_static_data(void)
{
    static void (*fn)(void);
    if (!cairo_lazy_handles[CAIRO_LAZY_CAIRO])
        return;
    if (!fn)
        *(void **)(&fn) = cairo_lazy_sym(CAIRO_LAZY_CAIRO, "cairo_debug_reset_static_data");
    fn();
}

void FcFini(void)
{
    static void (*fn)(void);
    if (!cairo_lazy_handles[CAIRO_LAZY_CAIRO])
        return;
    if (!fn)
        *(void **)(&fn) = cairo_lazy_sym(CAIRO_LAZY_FONTCONFIG, "FcFini");
    fn();
}
