/* make-test-image.c - renders the sample picture samples/images/pattern.png
 * (and .jpg) that the greyscale sample converts: colour bars, a rainbow
 * with a smiling face, a triangle and a diamond, a grey ramp and a
 * checkerboard.  The picture is deterministic; tests/unit/test_image.c
 * checks a few of its pixels, so change both together.
 *
 * Not part of the build.  From the top of the source tree:
 *
 *     cc -std=c11 -O2 -Isrc/torch tools/make-test-image.c src/torch/image.c \
 *        -o /tmp/make-test-image -lpng -ljpeg -lm
 *     /tmp/make-test-image samples/images/pattern 400 300
 *
 * writes samples/images/pattern.png and pattern.jpg.  Other sizes (for
 * benchmarks) scale the whole drawing. */
#define _POSIX_C_SOURCE 200809L

#include "image.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct rgb { double r, g, b; } rgb;

static const rgb bar_colors[8] = {
    {255, 255, 255}, {255, 255, 0}, {0, 255, 255}, {0, 255, 0},
    {255, 0, 255},   {255, 0, 0},   {0, 0, 255},   {0, 0, 0},
};
static const rgb face_yellow = {255, 210, 0};
static const rgb cheek_pink = {255, 120, 140};
static const rgb ink = {20, 20, 30};
static const rgb triangle_blue = {40, 60, 200};
static const rgb diamond_teal = {0, 150, 140};
static const rgb white = {255, 255, 255};

static rgb mix(rgb a, rgb b, double t)
{
    rgb m = { a.r + (b.r - a.r) * t, a.g + (b.g - a.g) * t,
              a.b + (b.b - a.b) * t };
    return m;
}

/* A fully saturated colour for hue h in [0, 6). */
static rgb hue(double h)
{
    double f = h - floor(h);
    switch ((int)h % 6) {
    case 0:  return (rgb){255, 255 * f, 0};
    case 1:  return (rgb){255 * (1 - f), 255, 0};
    case 2:  return (rgb){0, 255, 255 * f};
    case 3:  return (rgb){0, 255 * (1 - f), 255};
    case 4:  return (rgb){255 * f, 0, 255};
    default: return (rgb){255, 0, 255 * (1 - f)};
    }
}

/* The rainbow behind the shapes: hue across, pastel at the top, full in the
 * middle, darker at the bottom.  u, v in [0, 1). */
static rgb rainbow(double u, double v)
{
    rgb c = hue(6 * u);
    if (v < 0.5)
        return mix(white, c, 0.35 + 1.3 * v);
    return mix(c, (rgb){0, 0, 0}, (v - 0.5) * 1.2);
}

/* Signed-area test: is p left of the edge a->b? */
static double side(double ax, double ay, double bx, double by,
                   double px, double py)
{
    return (bx - ax) * (py - ay) - (by - ay) * (px - ax);
}

/* The drawing in a 400 x 300 coordinate space; px, py a point in it. */
static rgb scene(double px, double py)
{
    int ix = (int)px, iy = (int)py;
    if (iy < 60)                                    /* colour bars */
        return bar_colors[ix / 50];
    if (iy >= 270)                                  /* checkerboard */
        return ((ix / 10 + iy / 10) % 2) ? white : (rgb){0, 0, 0};
    if (iy >= 240) {                                /* grey ramp */
        double g = floor(ix * 255.0 / 399.0 + 0.5);
        return (rgb){g, g, g};
    }

    /* the smiling face */
    double dx = px - 200, dy = py - 150, d = sqrt(dx * dx + dy * dy);
    if (d < 70) {
        if (d > 66)
            return ink;
        double ex = fabs(dx) - 25, ey = dy + 25;    /* eyes */
        if ((ex * ex) / 81 + (ey * ey) / 169 < 1)
            return ink;
        double sx = dx, sy = dy - 5, sd = sqrt(sx * sx + sy * sy);
        if (sy > 12 && sd > 36 && sd < 44)          /* smile */
            return ink;
        double cx = fabs(dx) - 42, cy = dy - 15;    /* cheeks */
        if (cx * cx + cy * cy < 100)
            return mix(face_yellow, cheek_pink, 0.7);
        return face_yellow;
    }

    /* a triangle on the left */
    double t1 = side(70, 82, 22, 225, px, py);
    double t2 = side(22, 225, 118, 225, px, py);
    double t3 = side(118, 225, 70, 82, px, py);
    if (t1 <= 0 && t2 <= 0 && t3 <= 0) {
        double edge = fmin(-t1 / 151, fmin(-t2 / 96, -t3 / 151));
        return edge < 4 ? white : triangle_blue;
    }

    /* a diamond on the right */
    double m = fabs(px - 330) + fabs(py - 150);
    if (m < 58)
        return m > 53 ? white : diamond_teal;

    return rainbow(px / 400, (py - 60) / 180);
}

/* Renders width x height, scaling the 400 x 300 drawing, averaging 4 x 4
 * samples a pixel so that curved edges are smooth.  The bars, ramp and
 * checkerboard depend only on the whole-pixel position, so at 400 x 300 they
 * stay exact. */
static void render(image *img)
{
    size_t npix = (size_t)img->width * img->height;
    double sx = 400.0 / img->width, sy = 300.0 / img->height;
    for (int y = 0; y < img->height; y++)
        for (int x = 0; x < img->width; x++) {
            rgb sum = {0, 0, 0};
            for (int j = 0; j < 4; j++)
                for (int i = 0; i < 4; i++) {
                    rgb c = scene((x + (i + 0.5) / 4) * sx,
                                  (y + (j + 0.5) / 4) * sy);
                    sum.r += c.r; sum.g += c.g; sum.b += c.b;
                }
            size_t at = (size_t)y * img->width + x;
            img->data[at] = (unsigned char)lround(sum.r / 16);
            img->data[npix + at] = (unsigned char)lround(sum.g / 16);
            img->data[2 * npix + at] = (unsigned char)lround(sum.b / 16);
        }
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s OUTPUT-STEM WIDTH HEIGHT\n", argv[0]);
        return 2;
    }
    int width = atoi(argv[2]), height = atoi(argv[3]);
    char err[512], path[4096];
    image img;
    if (image_alloc(&img, 3, height, width, err, sizeof err) != 0) {
        fprintf(stderr, "make-test-image: %s\n", err);
        return 2;
    }
    render(&img);
    int rc = 0;
    snprintf(path, sizeof path, "%s.png", argv[1]);
    if (image_write_png(path, &img, err, sizeof err) != 0) {
        fprintf(stderr, "make-test-image: %s\n", err);
        rc = 1;
    }
    snprintf(path, sizeof path, "%s.jpg", argv[1]);
    if (image_write_jpeg(path, &img, 90, err, sizeof err) != 0) {
        fprintf(stderr, "make-test-image: %s\n", err);
        rc = 1;
    }
    image_free(&img);
    return rc;
}
