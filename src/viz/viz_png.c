/* viz_png.c - a recorded tensor's cells drawn as a PNG (viz.h says what
 * the colours mean), written with the image module (libpng) and kept in
 * base64 for the page.  Program numbers are written into the cells with a
 * small built-in 3 x 5 pixel font when the cells are large enough. */
#define _POSIX_C_SOURCE 200809L
#include "viz_impl.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "image.h"

enum {
    RGB_OUTSIDE = 0xd0d0d0,     /* a cell outside the tensor */
    RGB_EMPTY = 0xffffff,       /* a cell of the tensor nobody touched */
    RGB_OOB = 0xe53935,         /* an active lane outside the tensor */
    RGB_HATCH = 0x8c8c8c,       /* masked-off lanes only */
    RGB_GRID = 0xb8b8b8,
    RGB_EDGE = 0x000000,        /* where the tensor ends */
};

uint32_t viz_colour(int64_t n)
{
    if (n < 0)
        return RGB_EMPTY;
    /* hues around the circle by the golden ratio, keeping clear of red */
    double h = fmod((double)n * 0.618033988749895, 1.0);
    h = (0.08 + 0.84 * h) * 6.0;
    double s = 0.55, v = 0.95;
    int i = (int)h;
    double f = h - i, p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f));
    double r, g, b;
    switch (i % 6) {
    case 0: r = v, g = t, b = p; break;
    case 1: r = q, g = v, b = p; break;
    case 2: r = p, g = v, b = t; break;
    case 3: r = p, g = q, b = v; break;
    case 4: r = t, g = p, b = v; break;
    default: r = v, g = p, b = q; break;
    }
    return (uint32_t)(r * 255 + 0.5) << 16 | (uint32_t)(g * 255 + 0.5) << 8 |
           (uint32_t)(b * 255 + 0.5);
}

/* c mixed half and half with white: a program that only loaded. */
static uint32_t viz_pale(uint32_t c)
{
    uint32_t r = ((c >> 16 & 255) + 255) / 2, g = ((c >> 8 & 255) + 255) / 2,
             b = ((c & 255) + 255) / 2;
    return r << 16 | g << 8 | b;
}

static void viz_px(image *img, int x, int y, uint32_t rgb)
{
    if (x < 0 || y < 0 || x >= img->width || y >= img->height)
        return;
    size_t plane = (size_t)img->width * (size_t)img->height, at = (size_t)y * img->width + x;
    img->data[at] = (unsigned char)(rgb >> 16);
    img->data[plane + at] = (unsigned char)(rgb >> 8);
    img->data[2 * plane + at] = (unsigned char)rgb;
}

/* 3 x 5 glyphs, row by row */
static const char *viz_glyph(char c)
{
    static const char *const digit[10] = {
        "111101101101111", "010110010010111", "111001111100111", "111001111001111",
        "101101111001001", "111100111001111", "111100111101111", "111001001001001",
        "111101111101111", "111101111001111",
    };
    if (c >= '0' && c <= '9')
        return digit[c - '0'];
    return c == '+' ? "000010111010000" : "000000000000000";
}

/* s centred in the cell at (x0, y0), at the largest scale that fits. */
static void viz_text(image *img, int x0, int y0, int cw, int ch, const char *s, uint32_t rgb)
{
    int n = (int)strlen(s);
    int scale = (4 * n - 1) * 2 <= cw - 4 && 10 <= ch - 4 ? 2 : 1;
    int w = (4 * n - 1) * scale, h = 5 * scale;
    if (w > cw - 2 || h > ch - 2)
        return;
    int x = x0 + (cw - w) / 2, y = y0 + (ch - h) / 2;
    for (int i = 0; i < n; i++, x += 4 * scale) {
        const char *g = viz_glyph(s[i]);
        for (int gy = 0; gy < 5; gy++)
            for (int gx = 0; gx < 3; gx++)
                if (g[gy * 3 + gx] == '1')
                    for (int dy = 0; dy < scale; dy++)
                        for (int dx = 0; dx < scale; dx++)
                            viz_px(img, x + gx * scale + dx, y + gy * scale + dy, rgb);
    }
}

static void viz_draw_cell(image *img, const viz_tensor *t, int64_t c)
{
    int x0 = (int)(c % t->cols) * t->cw, y0 = (int)(c / t->cols) * t->ch;
    uint8_t f = t->flags[c];
    int32_t who = t->store[c] >= 0 ? t->store[c] : t->load[c];
    bool many = t->store[c] >= 0 ? f & VIZ_SMANY : f & VIZ_LMANY;
    uint32_t bg = f & VIZ_INSIDE ? RGB_EMPTY : RGB_OUTSIDE;
    if (f & VIZ_OOB)
        bg = RGB_OOB;
    else if (t->store[c] >= 0)
        bg = viz_colour(t->store[c]);
    else if (t->load[c] >= 0)
        bg = viz_pale(viz_colour(t->load[c]));
    bool hatch = who < 0 && (f & (VIZ_LMASK | VIZ_SMASK));
    bool grid = t->cw >= 6;
    for (int y = 0; y < t->ch; y++)
        for (int x = 0; x < t->cw; x++) {
            uint32_t rgb = bg;
            if (hatch && (x + y) % 4 == 0)
                rgb = RGB_HATCH;
            if (grid && (x == t->cw - 1 || y == t->ch - 1))
                rgb = RGB_GRID;
            viz_px(img, x0 + x, y0 + y, rgb);
        }
    if (t->labels && who >= 0) {
        char s[32];
        snprintf(s, sizeof s, "%d%s", who, many ? "+" : "");
        viz_text(img, x0, y0, t->cw, t->ch, s, f & VIZ_OOB ? 0xffffff : 0x000000);
    }
}

static const char viz_b64[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static void viz_base64(strbuf *out, const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < n ? (uint32_t)p[i + 1] << 8 : 0) |
                     (i + 2 < n ? p[i + 2] : 0);
        strbuf_putc(out, viz_b64[v >> 18 & 63]);
        strbuf_putc(out, viz_b64[v >> 12 & 63]);
        strbuf_putc(out, i + 1 < n ? viz_b64[v >> 6 & 63] : '=');
        strbuf_putc(out, i + 2 < n ? viz_b64[v & 63] : '=');
    }
}

/* The file's bytes in base64 into out. */
static bool viz_slurp64(const char *path, strbuf *out)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    unsigned char buf[3 * 4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        viz_base64(out, buf, n);
    bool ok = !ferror(f);
    fclose(f);
    return ok;
}

bool viz_png_write(const char *dir, viz_tensor *t)
{
    int64_t nrow = t->top + t->rows + t->bottom;
    t->labels = t->cols <= 40 && nrow <= 120;
    if (t->labels) {
        t->cw = 32;
        t->ch = 20;
    } else {
        int64_t side = t->cols > nrow ? t->cols : nrow;
        t->cw = t->ch = side <= 64 ? 12 : side <= 128 ? 6 : 3;
    }
    image img = {0};
    char err[512];
    if (image_alloc(&img, 3, (int)(nrow * t->ch), (int)(t->cols * t->cw), err, sizeof err)) {
        fprintf(stderr, "tritsim: --viz: %s\n", err);
        return false;
    }
    for (int64_t c = 0; c < nrow * t->cols; c++)
        viz_draw_cell(&img, t, c);
    /* a black line where the tensor ends and the rows outside begin */
    for (int x = 0; x < img.width; x++) {
        if (t->top)
            viz_px(&img, x, (int)(t->top * t->ch) - 1, RGB_EDGE);
        if (t->bottom)
            viz_px(&img, x, (int)((t->top + t->rows) * t->ch) - 1, RGB_EDGE);
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, t->file);
    bool ok = image_write_png(path, &img, err, sizeof err) == 0;
    image_free(&img);
    if (!ok) {
        fprintf(stderr, "tritsim: --viz: %s\n", err);
        return false;
    }
    if (!viz_slurp64(path, &t->png)) {
        fprintf(stderr, "tritsim: --viz: cannot read back '%s': %s\n", path, strerror(errno));
        return false;
    }
    return true;
}
