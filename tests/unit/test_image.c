/* test_image.c - unit tests for src/torch/image.c (PNG/JPEG files <-> CHW uint8
 * images), printing TAP.  Reads $srcdir/samples/images/pattern.{png,jpg}
 * (drawn by tools/make-test-image.c) and writes its scratch files into a
 * fresh directory under $TMPDIR.
 *
 *     cc -std=c11 -Wall -Wextra -g -fsanitize=address,undefined -Isrc/torch -Isrc/util \
 *        src/torch/image.c src/util/arena.c tests/unit/test_image.c -o /tmp/ti \
 *        -lpng -ljpeg && srcdir=. /tmp/ti
 */
#define _POSIX_C_SOURCE 200809L

#include "image.h"

#include <math.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <png.h>
#include <jpeglib.h>

/* ---- TAP ---------------------------------------------------------------- */

static int test_count, failures;

/* Prints "ok N - desc" or "not ok N - desc"; returns cond. */
static bool ok(bool cond, const char *fmt, ...)
{
    va_list ap;
    printf("%sok %d - ", cond ? "" : "not ", ++test_count);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    if (!cond)
        failures++;
    return cond;
}

static void diag(const char *fmt, ...)
{
    va_list ap;
    printf("# ");
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
}

/* ---- helpers ------------------------------------------------------------ */

static char scratch[256];               /* our temporary directory */
static char pattern_png[1024], pattern_jpg[1024];

static const char *tmp_path(const char *name)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", scratch, name);
    return path;
}

static bool write_bytes(const char *path, const void *bytes, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return false;
    bool good = fwrite(bytes, 1, len, f) == len;
    return fclose(f) == 0 && good;
}

static unsigned char *read_bytes(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *buf = malloc(n > 0 ? (size_t)n : 1);
    *len = fread(buf, 1, (size_t)n, f);
    fclose(f);
    return buf;
}

static bool file_exists(const char *path)
{
    return access(path, F_OK) == 0;
}

/* A deterministic noisy image (a linear congruential generator), so that
 * the PNG round trip exercises every filter and byte value. */
static void fill_noise(image *img, unsigned seed)
{
    size_t n = (size_t)img->channels * img->height * img->width;
    for (size_t i = 0; i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        img->data[i] = (unsigned char)(seed >> 16);
    }
}

/* A smooth image (gradients, a different slope in each channel), which JPEG
 * keeps close to the original. */
static void fill_smooth(image *img)
{
    for (int c = 0; c < img->channels; c++)
        for (int y = 0; y < img->height; y++)
            for (int x = 0; x < img->width; x++)
                img->data[((size_t)c * img->height + y) * img->width + x] =
                    (unsigned char)(20 + 50 * c + x * (100 - 30 * c) / img->width
                                    + y * (40 + 20 * c) / img->height);
}

static bool same_pixels(const image *a, const image *b)
{
    return a->channels == b->channels && a->height == b->height
        && a->width == b->width
        && memcmp(a->data, b->data,
                  (size_t)a->channels * a->height * a->width) == 0;
}

/* Largest and mean absolute difference of two images of one shape. */
static void differences(const image *a, const image *b, int *max,
                        double *mean)
{
    size_t n = (size_t)a->channels * a->height * a->width;
    double sum = 0;
    *max = 0;
    for (size_t i = 0; i < n; i++) {
        int d = abs((int)a->data[i] - (int)b->data[i]);
        sum += d;
        if (d > *max)
            *max = d;
    }
    *mean = sum / (double)n;
}

/* ITU-R 601-2 luma, the weights of PIL's convert('L') and torchvision. */
static double luma(int r, int g, int b)
{
    return 0.299 * r + 0.587 * g + 0.114 * b;
}

/* Writes a PNG with libpng directly, for the formats image.c never writes:
 * rows are given in the file's own sample layout.  Without rows, the file
 * stops after its header and an empty IDAT chunk: libpng's png_read_info
 * reads that far, so the header is judged before any pixels. */
typedef struct raw_png {
    int width, height, bit_depth, color_type, interlace;
    const png_color *palette;
    int npalette;
    const unsigned char *alphas;        /* tRNS for a palette */
    int nalphas;
    unsigned char *const *rows;
} raw_png;

static bool write_raw_png(const char *path, const raw_png *spec)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return false;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING,
                                              NULL, NULL, NULL);
    png_infop info = png_create_info_struct(png);
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        fclose(f);
        return false;
    }
    png_init_io(png, f);
    png_set_IHDR(png, info, spec->width, spec->height, spec->bit_depth,
                 spec->color_type, spec->interlace,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (spec->palette)
        png_set_PLTE(png, info, spec->palette, spec->npalette);
    if (spec->alphas)
        png_set_tRNS(png, info, spec->alphas, spec->nalphas, NULL);
    png_write_info(png, info);
    if (spec->rows) {
        png_write_image(png, (png_bytepp)spec->rows);
        png_write_end(png, NULL);
    } else {
        png_write_chunk(png, (png_const_bytep)"IDAT", NULL, 0);
    }
    png_destroy_write_struct(&png, &info);
    return fclose(f) == 0;
}

/* Reads path expecting failure; checks the message is exactly
 * "cannot read 'PATH': REASON" and that img was left empty. */
static void expect_read_error(const char *path, image_mode mode,
                              const char *reason, const char *what)
{
    image img = { 1, 1, 1, NULL };
    char err[512] = "", want[1024];
    int rc = image_read(path, mode, &img, err, sizeof err);
    snprintf(want, sizeof want, "cannot read '%s': %s", path, reason);
    if (!ok(rc == -1 && strcmp(err, want) == 0 && img.data == NULL
            && img.channels == 0, "%s is an error: %s", what, reason))
        diag("rc %d, message '%s', want '%s'", rc, err, want);
    image_free(&img);
}

/* ---- the sample picture ------------------------------------------------- */

/* Colours of tools/make-test-image.c's bars, left to right, 50 px each. */
static const unsigned char bars[8][3] = {
    {255, 255, 255}, {255, 255, 0}, {0, 255, 255}, {0, 255, 0},
    {255, 0, 255},   {255, 0, 0},   {0, 0, 255},   {0, 0, 0},
};

static void test_pattern_png(void)
{
    image img;
    char err[512];
    int rc = image_read(pattern_png, IMAGE_UNCHANGED, &img, err, sizeof err);
    if (!ok(rc == 0 && img.channels == 3 && img.height == 300
            && img.width == 400, "pattern.png reads as (3, 300, 400)")) {
        diag("rc %d: %s", rc, rc ? err : "");
        diag("shape (%d, %d, %d)", img.channels, img.height, img.width);
        return;
    }

    bool bars_ok = true;
    for (int b = 0; b < 8; b++)
        for (int c = 0; c < 3; c++)
            if (image_at(&img, c, 30, 25 + 50 * b) != bars[b][c]) {
                diag("bar %d channel %d is %d, want %d", b, c,
                     image_at(&img, c, 30, 25 + 50 * b), bars[b][c]);
                bars_ok = false;
            }
    ok(bars_ok, "pattern.png colour bars have the generator's colours");

    /* the grey ramp: round(x * 255 / 399) in rows 240..269 */
    bool ramp_ok = true;
    static const int xs[] = {0, 1, 100, 200, 398, 399};
    for (size_t i = 0; i < sizeof xs / sizeof xs[0]; i++) {
        int want = (int)floor(xs[i] * 255.0 / 399.0 + 0.5);
        for (int c = 0; c < 3; c++)
            if (image_at(&img, c, 255, xs[i]) != want) {
                diag("ramp at x=%d channel %d is %d, want %d", xs[i], c,
                     image_at(&img, c, 255, xs[i]), want);
                ramp_ok = false;
            }
    }
    ok(ramp_ok, "pattern.png grey ramp follows round(x * 255 / 399)");

    /* checkerboard of 10 px squares in rows 270..299, white where
     * x / 10 + y / 10 is odd; the smiling face is yellow (255, 210, 0) at
     * its forehead (200, 100) */
    ok(image_at(&img, 0, 275, 5) == 255 && image_at(&img, 0, 275, 15) == 0
       && image_at(&img, 2, 285, 5) == 0 && image_at(&img, 1, 285, 15) == 255
       && image_at(&img, 0, 100, 200) == 255
       && image_at(&img, 1, 100, 200) == 210
       && image_at(&img, 2, 100, 200) == 0,
       "pattern.png checkerboard and face pixels");

    /* GRAY: luma of each bar, within libpng's fixed-point rounding */
    image gray;
    rc = image_read(pattern_png, IMAGE_GRAY, &gray, err, sizeof err);
    bool gray_ok = rc == 0 && gray.channels == 1 && gray.height == 300
                   && gray.width == 400;
    for (int b = 0; gray_ok && b < 8; b++) {
        double want = luma(bars[b][0], bars[b][1], bars[b][2]);
        int got = image_at(&gray, 0, 30, 25 + 50 * b);
        if (fabs(got - want) > 1.0) {
            diag("bar %d grey %d, want %.2f", b, got, want);
            gray_ok = false;
        }
    }
    ok(gray_ok, "GRAY mode gives 0.299 R + 0.587 G + 0.114 B (+-1)");
    ok(rc == 0 && image_at(&gray, 0, 255, 200) == image_at(&img, 0, 255, 200)
       && image_at(&gray, 0, 30, 25) == 255 && image_at(&gray, 0, 30, 375) == 0,
       "GRAY mode leaves grey pixels (R = G = B) unchanged");
    if (rc == 0 && getenv("TEST_IMAGE_KEEP"))    /* to look at by hand */
        image_write_png(tmp_path("pattern-gray.png"), &gray, NULL, 0);
    image_free(&gray);

    image rgb;
    rc = image_read(pattern_png, IMAGE_RGB, &rgb, err, sizeof err);
    ok(rc == 0 && same_pixels(&rgb, &img), "RGB mode of an RGB PNG is unchanged");
    image_free(&rgb);

    image rgba;
    rc = image_read(pattern_png, IMAGE_RGB_ALPHA, &rgba, err, sizeof err);
    bool rgba_ok = rc == 0 && rgba.channels == 4
                   && memcmp(rgba.data, img.data, (size_t)3 * 300 * 400) == 0;
    for (size_t i = 0; rgba_ok && i < (size_t)300 * 400; i++)
        rgba_ok = rgba.data[(size_t)3 * 300 * 400 + i] == 255;
    ok(rgba_ok, "RGB_ALPHA mode adds an opaque alpha plane");
    image_free(&rgba);

    image jpg;
    rc = image_read(pattern_jpg, IMAGE_UNCHANGED, &jpg, err, sizeof err);
    if (ok(rc == 0 && jpg.channels == 3 && jpg.height == 300
           && jpg.width == 400, "pattern.jpg reads as (3, 300, 400)")) {
        int max;
        double mean;
        differences(&jpg, &img, &max, &mean);
        bool bars_close = true;
        for (int b = 0; b < 8; b++)
            for (int c = 0; c < 3; c++)
                bars_close &= abs(image_at(&jpg, c, 30, 25 + 50 * b)
                                  - bars[b][c]) <= 6;
        if (!ok(mean < 3.0 && bars_close,
                "pattern.jpg is close to pattern.png"))
            diag("mean difference %.2f, largest %d", mean, max);
    } else {
        diag("rc %d: %s", rc, rc ? err : "");
    }
    image_free(&jpg);

    rc = image_read(pattern_jpg, IMAGE_GRAY, &gray, err, sizeof err);
    bool jgray_ok = rc == 0 && gray.channels == 1;
    for (int b = 0; jgray_ok && b < 8; b++) {
        double want = luma(bars[b][0], bars[b][1], bars[b][2]);
        int got = image_at(&gray, 0, 30, 25 + 50 * b);
        if (fabs(got - want) > 4.0) {
            diag("JPEG bar %d grey %d, want %.2f", b, got, want);
            jgray_ok = false;
        }
    }
    ok(jgray_ok, "GRAY mode of pattern.jpg gives the bars' luma");
    image_free(&gray);

    image_free(&img);
}

/* ---- round trips -------------------------------------------------------- */

static void test_png_round_trip(int channels, int height, int width)
{
    image img, back;
    char err[512];
    image_alloc(&img, channels, height, width, NULL, 0);
    fill_noise(&img, (unsigned)(channels * 7919 + width));
    const char *path = tmp_path("round.png");
    int wrc = image_write_png(path, &img, err, sizeof err);
    int rrc = image_read(path, IMAGE_UNCHANGED, &back, err, sizeof err);
    if (!ok(wrc == 0 && rrc == 0 && same_pixels(&img, &back),
            "PNG round trip of (%d, %d, %d) is bit-exact",
            channels, height, width))
        diag("write %d, read %d: %s", wrc, rrc, err);
    image_free(&back);
    image_free(&img);
}

static void test_jpeg_round_trip(int channels)
{
    image img, back;
    char err[512];
    image_alloc(&img, channels, 64, 80, NULL, 0);
    fill_smooth(&img);
    const char *path = tmp_path("round.jpg");
    int wrc = image_write_jpeg(path, &img, 95, err, sizeof err);
    int rrc = image_read(path, IMAGE_UNCHANGED, &back, err, sizeof err);
    bool shape = rrc == 0 && back.channels == channels && back.height == 64
                 && back.width == 80;
    int max = 0;
    double mean = 0;
    if (shape)
        differences(&img, &back, &max, &mean);
    if (!ok(wrc == 0 && shape && mean < 1.5 && max <= 8,
            "JPEG round trip of %d channel(s) at quality 95 stays close",
            channels))
        diag("write %d, read %d (%s); mean %.2f, max %d", wrc, rrc,
             rrc ? err : "", mean, max);
    image_free(&back);
    image_free(&img);
}

static void test_mode_conversions(void)
{
    image img, back;
    char err[512];

    /* a grey PNG read as RGB replicates the plane; as RGB_ALPHA adds 255 */
    image_alloc(&img, 1, 20, 30, NULL, 0);
    fill_noise(&img, 42);
    const char *path = tmp_path("gray.png");
    image_write_png(path, &img, err, sizeof err);
    size_t plane = (size_t)20 * 30;
    int rc = image_read(path, IMAGE_RGB, &back, err, sizeof err);
    ok(rc == 0 && back.channels == 3
       && memcmp(back.data, img.data, plane) == 0
       && memcmp(back.data + plane, img.data, plane) == 0
       && memcmp(back.data + 2 * plane, img.data, plane) == 0,
       "GRAY -> RGB replicates the grey plane");
    image_free(&back);
    rc = image_read(path, IMAGE_RGB_ALPHA, &back, err, sizeof err);
    ok(rc == 0 && back.channels == 4
       && memcmp(back.data + 2 * plane, img.data, plane) == 0
       && back.data[3 * plane] == 255 && back.data[4 * plane - 1] == 255,
       "GRAY -> RGB_ALPHA replicates and adds opaque alpha");
    image_free(&back);
    rc = image_read(path, IMAGE_GRAY_ALPHA, &back, err, sizeof err);
    ok(rc == 0 && back.channels == 2 && memcmp(back.data, img.data, plane) == 0
       && back.data[plane] == 255, "GRAY -> GRAY_ALPHA adds opaque alpha");
    image_free(&back);
    image_free(&img);

    /* an RGBA PNG: RGB drops alpha, GRAY converts and drops it */
    image_alloc(&img, 4, 2, 3, NULL, 0);
    static const unsigned char px[4][6] = {
        {255, 0, 0, 10, 200, 77},       /* R plane */
        {0, 255, 0, 20, 100, 77},       /* G plane */
        {0, 0, 255, 30, 50, 77},        /* B plane */
        {0, 64, 128, 192, 255, 1},      /* alpha */
    };
    for (int c = 0; c < 4; c++)
        memcpy(img.data + c * 6, px[c], 6);
    path = tmp_path("rgba.png");
    image_write_png(path, &img, err, sizeof err);
    rc = image_read(path, IMAGE_RGB, &back, err, sizeof err);
    ok(rc == 0 && back.channels == 3 && memcmp(back.data, img.data, 18) == 0,
       "RGBA -> RGB drops the alpha plane");
    image_free(&back);
    rc = image_read(path, IMAGE_GRAY, &back, err, sizeof err);
    bool gray_ok = rc == 0 && back.channels == 1;
    for (int i = 0; gray_ok && i < 6; i++) {
        double want = luma(px[0][i], px[1][i], px[2][i]);
        if (fabs(back.data[i] - want) > 1.0) {
            diag("pixel %d grey %d, want %.2f", i, back.data[i], want);
            gray_ok = false;
        }
    }
    ok(gray_ok, "RGBA -> GRAY is the luma of R, G, B (+-1)");
    image_free(&back);
    image_free(&img);

    /* a grey JPEG read as RGB: three equal planes */
    image_alloc(&img, 1, 16, 16, NULL, 0);
    fill_smooth(&img);
    path = tmp_path("gray.jpg");
    image_write_jpeg(path, &img, 90, err, sizeof err);
    rc = image_read(path, IMAGE_RGB, &back, err, sizeof err);
    ok(rc == 0 && back.channels == 3
       && memcmp(back.data, back.data + 256, 256) == 0
       && memcmp(back.data, back.data + 512, 256) == 0,
       "grey JPEG -> RGB gives three equal planes");
    image_free(&back);
    rc = image_read(path, IMAGE_RGB_ALPHA, &back, err, sizeof err);
    ok(rc == 0 && back.channels == 4 && back.data[3 * 256] == 255
       && back.data[4 * 256 - 1] == 255, "grey JPEG -> RGB_ALPHA is opaque");
    image_free(&back);
    image_free(&img);
}

/* ---- PNG formats image.c does not write --------------------------------- */

static void test_png_formats(void)
{
    image back;
    char err[512];

    /* 16-bit RGB: the high byte of each sample survives */
    unsigned char row16[2][3 * 2 * 2];
    unsigned char *rows16[2] = { row16[0], row16[1] };
    for (int i = 0; i < (int)sizeof row16; i++)
        ((unsigned char *)row16)[i] = (unsigned char)(i * 37 + 5);
    raw_png spec = { .width = 2, .height = 2, .bit_depth = 16,
                     .color_type = PNG_COLOR_TYPE_RGB, .rows = rows16 };
    const char *path = tmp_path("rgb16.png");
    bool written = write_raw_png(path, &spec);
    int rc = image_read(path, IMAGE_UNCHANGED, &back, err, sizeof err);
    bool hi_ok = written && rc == 0 && back.channels == 3 && back.width == 2;
    for (int y = 0; hi_ok && y < 2; y++)
        for (int x = 0; x < 2; x++)
            for (int c = 0; c < 3; c++)
                hi_ok &= image_at(&back, c, y, x) == row16[y][(x * 3 + c) * 2];
    ok(hi_ok, "16-bit RGB PNG reads as 8-bit RGB (high bytes)");
    image_free(&back);

    /* palette, without and with transparency */
    static const png_color palette[3] = { {255, 0, 0}, {0, 128, 0}, {10, 20, 30} };
    static const unsigned char alphas[2] = { 0, 100 };
    unsigned char prow[2][3] = { {0, 1, 2}, {2, 2, 1} };
    unsigned char *prows[2] = { prow[0], prow[1] };
    spec = (raw_png){ .width = 3, .height = 2, .bit_depth = 8,
                      .color_type = PNG_COLOR_TYPE_PALETTE,
                      .palette = palette, .npalette = 3, .rows = prows };
    path = tmp_path("palette.png");
    written = write_raw_png(path, &spec);
    rc = image_read(path, IMAGE_UNCHANGED, &back, err, sizeof err);
    bool pal_ok = written && rc == 0 && back.channels == 3 && back.height == 2
                  && back.width == 3;
    for (int y = 0; pal_ok && y < 2; y++)
        for (int x = 0; x < 3; x++) {
            const png_color *e = &palette[prow[y][x]];
            pal_ok &= image_at(&back, 0, y, x) == e->red
                      && image_at(&back, 1, y, x) == e->green
                      && image_at(&back, 2, y, x) == e->blue;
        }
    ok(pal_ok, "palette PNG reads as 8-bit RGB");
    image_free(&back);
    rc = image_read(path, IMAGE_GRAY, &back, err, sizeof err);
    ok(rc == 0 && back.channels == 1
       && fabs(image_at(&back, 0, 0, 0) - luma(255, 0, 0)) <= 1.0,
       "palette PNG reads in GRAY mode");
    image_free(&back);

    spec.alphas = alphas;
    spec.nalphas = 2;
    path = tmp_path("palette-trns.png");
    written = write_raw_png(path, &spec);
    rc = image_read(path, IMAGE_UNCHANGED, &back, err, sizeof err);
    ok(written && rc == 0 && back.channels == 4
       && image_at(&back, 3, 0, 0) == 0 && image_at(&back, 3, 0, 1) == 100
       && image_at(&back, 3, 0, 2) == 255 && image_at(&back, 1, 0, 1) == 128,
       "palette PNG with tRNS reads as RGBA");
    image_free(&back);
    rc = image_read(path, IMAGE_RGB, &back, err, sizeof err);
    ok(rc == 0 && back.channels == 3 && image_at(&back, 0, 0, 0) == 255,
       "palette PNG with tRNS in RGB mode drops the alpha");
    image_free(&back);

    /* 16-bit grey, 1-bit grey */
    unsigned char g16[1][4] = { {0xAB, 0xCD, 0x12, 0x34} };
    unsigned char *g16rows[1] = { g16[0] };
    spec = (raw_png){ .width = 2, .height = 1, .bit_depth = 16,
                      .color_type = PNG_COLOR_TYPE_GRAY, .rows = g16rows };
    path = tmp_path("gray16.png");
    written = write_raw_png(path, &spec);
    rc = image_read(path, IMAGE_RGB, &back, err, sizeof err);
    ok(written && rc == 0 && back.channels == 3
       && image_at(&back, 0, 0, 0) == 0xAB && image_at(&back, 2, 0, 1) == 0x12,
       "16-bit grey PNG reads as 8-bit RGB");
    image_free(&back);

    unsigned char bits[1][1] = { {0xA0} };      /* 1 0 1 0 */
    unsigned char *bitrows[1] = { bits[0] };
    spec = (raw_png){ .width = 4, .height = 1, .bit_depth = 1,
                      .color_type = PNG_COLOR_TYPE_GRAY, .rows = bitrows };
    path = tmp_path("gray1.png");
    written = write_raw_png(path, &spec);
    rc = image_read(path, IMAGE_UNCHANGED, &back, err, sizeof err);
    ok(written && rc == 0 && back.channels == 1 && back.width == 4
       && back.data[0] == 255 && back.data[1] == 0 && back.data[2] == 255
       && back.data[3] == 0, "1-bit grey PNG reads as 0 and 255");
    image_free(&back);

    /* Adam7 interlaced RGB */
    enum { IW = 13, IH = 11 };
    static unsigned char irow[IH][IW * 3];
    unsigned char *irows[IH];
    for (int y = 0; y < IH; y++) {
        irows[y] = irow[y];
        for (int i = 0; i < IW * 3; i++)
            irow[y][i] = (unsigned char)(y * 31 + i * 7);
    }
    spec = (raw_png){ .width = IW, .height = IH, .bit_depth = 8,
                      .color_type = PNG_COLOR_TYPE_RGB,
                      .interlace = PNG_INTERLACE_ADAM7, .rows = irows };
    path = tmp_path("interlaced.png");
    written = write_raw_png(path, &spec);
    rc = image_read(path, IMAGE_UNCHANGED, &back, err, sizeof err);
    bool il_ok = written && rc == 0 && back.channels == 3 && back.width == IW
                 && back.height == IH;
    for (int y = 0; il_ok && y < IH; y++)
        for (int x = 0; x < IW; x++)
            for (int c = 0; c < 3; c++)
                il_ok &= image_at(&back, c, y, x) == irow[y][x * 3 + c];
    ok(il_ok, "interlaced PNG reads exactly");
    image_free(&back);

    /* a header asking for 100000 x 100000 RGBA pixels (40 GB) */
    spec = (raw_png){ .width = 100000, .height = 100000, .bit_depth = 8,
                      .color_type = PNG_COLOR_TYPE_RGB_ALPHA };
    path = tmp_path("huge.png");
    written = write_raw_png(path, &spec);
    back.data = NULL;
    rc = image_read(path, IMAGE_UNCHANGED, &back, err, sizeof err);
    if (!ok(written && rc == -1 && back.data == NULL
            && strstr(err, "image of 100000 x 100000 pixels is too large"),
            "a PNG header asking for 40 GB is refused before allocating"))
        diag("rc %d: %s", rc, err);
}

/* A 4-component (CMYK) JPEG, written with libjpeg directly. */
static void test_cmyk_jpeg(void)
{
    const char *path = tmp_path("cmyk.jpg");
    FILE *f = fopen(path, "wb");
    struct jpeg_compress_struct ci;
    struct jpeg_error_mgr jerr;
    ci.err = jpeg_std_error(&jerr);
    jpeg_create_compress(&ci);
    jpeg_stdio_dest(&ci, f);
    ci.image_width = 8;
    ci.image_height = 8;
    ci.input_components = 4;
    ci.in_color_space = JCS_CMYK;
    jpeg_set_defaults(&ci);
    jpeg_start_compress(&ci, TRUE);
    unsigned char row[8 * 4];
    memset(row, 90, sizeof row);
    while (ci.next_scanline < ci.image_height) {
        JSAMPROW r = row;
        jpeg_write_scanlines(&ci, &r, 1);
    }
    jpeg_finish_compress(&ci);
    jpeg_destroy_compress(&ci);
    fclose(f);
    char reason[200];
    snprintf(reason, sizeof reason,
             "CMYK JPEG files are not supported (convert it to RGB)");
    expect_read_error(path, IMAGE_RGB, reason, "a CMYK JPEG");
}

/* ---- bad files ---------------------------------------------------------- */

static void test_bad_files(void)
{
    size_t plen, jlen;
    unsigned char *png = read_bytes(pattern_png, &plen);
    unsigned char *jpg = read_bytes(pattern_jpg, &jlen);
    if (!png || !jpg) {
        ok(false, "sample files readable for the bad-file tests");
        free(png);
        free(jpg);
        return;
    }

    char path[512];
    snprintf(path, sizeof path, "%s", tmp_path("half.png"));
    write_bytes(path, png, plen / 2);
    expect_read_error(path, IMAGE_UNCHANGED, "truncated PNG data",
                      "half a PNG");
    snprintf(path, sizeof path, "%s", tmp_path("header-only.png"));
    write_bytes(path, png, 20);
    expect_read_error(path, IMAGE_GRAY, "truncated PNG data",
                      "a PNG cut inside its header");
    snprintf(path, sizeof path, "%s", tmp_path("signature.png"));
    write_bytes(path, png, 5);
    expect_read_error(path, IMAGE_UNCHANGED, "truncated PNG data",
                      "a PNG cut inside its signature");
    snprintf(path, sizeof path, "%s", tmp_path("half.jpg"));
    write_bytes(path, jpg, jlen / 2);
    expect_read_error(path, IMAGE_UNCHANGED, "truncated JPEG data",
                      "half a JPEG");
    snprintf(path, sizeof path, "%s", tmp_path("empty.png"));
    write_bytes(path, "", 0);
    expect_read_error(path, IMAGE_UNCHANGED, "empty file", "an empty file");
    snprintf(path, sizeof path, "%s", tmp_path("text.png"));
    const char *text = "import torch\nprint('not a picture')\n";
    write_bytes(path, text, strlen(text));
    expect_read_error(path, IMAGE_UNCHANGED, "not a PNG or JPEG file",
                      "a text file named .png");
    snprintf(path, sizeof path, "%s", tmp_path("missing.png"));
    expect_read_error(path, IMAGE_UNCHANGED, "No such file or directory",
                      "a missing file");
    expect_read_error(scratch, IMAGE_UNCHANGED, "Is a directory",
                      "a directory");

    /* a flipped byte in the middle of the compressed data */
    unsigned char *bad = malloc(plen);
    memcpy(bad, png, plen);
    bad[plen / 2] ^= 0x55;
    image img = { 0, 0, 0, NULL };
    char err[512] = "";
    int rc = image_decode(bad, plen, "flipped.png", IMAGE_UNCHANGED, &img,
                          err, sizeof err);
    if (!ok(rc == -1 && img.data == NULL
            && strncmp(err, "cannot read 'flipped.png': invalid PNG data (", 45) == 0,
            "a corrupt PNG is an error naming libpng's complaint"))
        diag("rc %d: %s", rc, err);
    diag("%s", err);
    free(bad);

    static const unsigned char junk_jpeg[] = {
        0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x03, 0x01, 0x02, 0x03, 0x04, 0x05
    };
    rc = image_decode(junk_jpeg, sizeof junk_jpeg, "junk.jpg",
                      IMAGE_UNCHANGED, &img, err, sizeof err);
    if (!ok(rc == -1 && img.data == NULL
            && strncmp(err, "cannot read 'junk.jpg': ", 24) == 0,
            "a corrupt JPEG header is an error"))
        diag("rc %d: %s", rc, err);
    diag("%s", err);

    /* a complete JPEG whose frame header claims 7-bit samples */
    bad = malloc(jlen);
    memcpy(bad, jpg, jlen);
    size_t sof = 2;
    while (sof + 4 < jlen && !(bad[sof] == 0xFF && bad[sof + 1] == 0xC0))
        sof++;
    bad[sof + 4] = 7;
    rc = image_decode(bad, jlen, "seven.jpg", IMAGE_UNCHANGED, &img, err,
                      sizeof err);
    if (!ok(rc == -1 && img.data == NULL
            && strncmp(err, "cannot read 'seven.jpg': invalid JPEG data (", 44) == 0,
            "a corrupt JPEG is an error naming libjpeg's complaint"))
        diag("rc %d: %s", rc, err);
    diag("%s", err);
    free(bad);

    rc = image_decode(png, plen, NULL, (image_mode)9, &img, err, sizeof err);
    ok(rc == -1 && strcmp(err, "cannot read '<memory>': unknown read mode 9") == 0,
       "an unknown read mode is an error");

    /* Every prefix of a small PNG and JPEG, and damage at every few bytes:
     * each decode either works or fails cleanly (the sanitizers and this
     * loop finding no crash is the test).  A PNG missing only its 12-byte
     * IEND trailer still has all its pixels and decodes, as in torchvision;
     * any shorter prefix must fail. */
    image small;
    image_alloc(&small, 3, 24, 40, NULL, 0);
    fill_smooth(&small);
    image_write_png(tmp_path("small.png"), &small, NULL, 0);
    image_write_jpeg(tmp_path("small.jpg"), &small, 80, NULL, 0);
    image_free(&small);
    const char *names[2] = { "small.png", "small.jpg" };
    bool clean = true;
    int failed = 0, decoded = 0;
    for (int f = 0; f < 2; f++) {
        size_t len;
        unsigned char *bytes = read_bytes(tmp_path(names[f]), &len);
        size_t must_fail = f == 0 ? len - 12 : len;
        for (size_t cut = 0; bytes && cut < len; cut++) {
            rc = image_decode(bytes, cut, names[f], IMAGE_UNCHANGED, &img,
                              err, sizeof err);
            bool fine = cut < must_fail
                ? rc == -1 && img.data == NULL && strstr(err, names[f])
                : rc == 0 && img.data != NULL;
            if (!fine)
                diag("%s cut to %zu of %zu bytes: rc %d", names[f], cut, len, rc);
            clean &= fine;
            image_free(&img);
        }
        for (size_t at = 0; bytes && at < len; at += 3) {
            unsigned char saved = bytes[at];
            bytes[at] ^= (unsigned char)(0x5A + at);
            for (int mode = 0; mode <= 4; mode++) {
                rc = image_decode(bytes, len, names[f], (image_mode)mode,
                                  &img, err, sizeof err);
                clean &= rc == 0 ? img.data != NULL : img.data == NULL;
                rc == 0 ? decoded++ : failed++;
                image_free(&img);
            }
            bytes[at] = saved;
        }
        free(bytes);
    }
    ok(clean, "every truncation fails cleanly; damaged files decode or fail");
    diag("damaged files: %d decoded, %d failed", decoded, failed);

    free(png);
    free(jpg);
}

/* ---- writing errors ----------------------------------------------------- */

static void test_write_errors(void)
{
    image img;
    char err[512] = "", want[1024];
    image_alloc(&img, 4, 4, 4, NULL, 0);

    int rc = image_write_png("/nonexistent-dir/x.png", &img, err, sizeof err);
    ok(rc == -1 && strcmp(err, "cannot write '/nonexistent-dir/x.png': "
                               "No such file or directory") == 0,
       "writing into a missing directory is an error");

    const char *path = tmp_path("rgba.jpg");
    rc = image_write_jpeg(path, &img, 75, err, sizeof err);
    snprintf(want, sizeof want,
             "cannot write '%s': JPEG needs 1 or 3 channels, the image has 4",
             path);
    ok(rc == -1 && strcmp(err, want) == 0 && !file_exists(path),
       "JPEG refuses 4 channels and writes nothing");
    image_free(&img);

    image_alloc(&img, 3, 4, 4, NULL, 0);
    rc = image_write_jpeg(path, &img, 0, err, sizeof err);
    ok(rc == -1 && strstr(err, "quality must be between 1 and 100, not 0"),
       "JPEG quality 0 is an error");
    rc = image_write_jpeg(path, &img, 101, err, sizeof err);
    ok(rc == -1 && strstr(err, "not 101"), "JPEG quality 101 is an error");
    image_free(&img);

    image none = { 3, 0, 4, NULL };
    rc = image_write_png(tmp_path("none.png"), &none, err, sizeof err);
    ok(rc == -1 && strstr(err, "has no pixels") && !file_exists(tmp_path("none.png")),
       "writing an empty image is an error");

    /* /dev/full fails every write, where it is the real device */
    struct stat st;
    if (stat("/dev/full", &st) == 0 && S_ISCHR(st.st_mode)
        && access("/dev/full", W_OK) == 0) {
        image big;
        image_alloc(&big, 3, 200, 200, NULL, 0);
        fill_noise(&big, 7);
        rc = image_write_png("/dev/full", &big, err, sizeof err);
        if (!ok(rc == -1 && strncmp(err, "cannot write '/dev/full': ", 26) == 0,
                "a full disk is an error (PNG)"))
            diag("rc %d: %s", rc, err);
        rc = image_write_jpeg("/dev/full", &big, 90, err, sizeof err);
        if (!ok(rc == -1 && strncmp(err, "cannot write '/dev/full': ", 26) == 0,
                "a full disk is an error (JPEG)"))
            diag("rc %d: %s", rc, err);
        ok(stat("/dev/full", &st) == 0 && S_ISCHR(st.st_mode),
           "a failed write leaves a device it wrote to in place");
        image_free(&big);
    } else {
        for (int i = 0; i < 3; i++)
            printf("ok %d # SKIP no /dev/full device\n", ++test_count);
    }

    ok(image_alloc(&img, 5, 2, 2, err, sizeof err) == -1 && img.data == NULL
       && image_alloc(&img, 3, 100000, 100000, err, sizeof err) == -1
       && strstr(err, "(3, 100000, 100000)"),
       "image_alloc refuses 5 channels and 30 GB");
}

/* Removes the scratch directory and the plain files the tests made in it. */
static void remove_scratch(void)
{
    DIR *dir = opendir(scratch);
    if (!dir)
        return;
    struct dirent *e;
    while ((e = readdir(dir)) != NULL)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            unlink(tmp_path(e->d_name));
    closedir(dir);
    if (rmdir(scratch) != 0)
        diag("could not remove %s", scratch);
}

/* ---- threads ------------------------------------------------------------ */

typedef struct reader_arg {
    const image *want_png, *want_jpg;
    bool same;
} reader_arg;

static void *reader(void *p)
{
    reader_arg *arg = p;
    arg->same = true;
    for (int i = 0; i < 4; i++) {
        image png, jpg;
        char err[512];
        arg->same &= image_read(pattern_png, IMAGE_UNCHANGED, &png, err,
                                sizeof err) == 0
                     && same_pixels(&png, arg->want_png);
        arg->same &= image_read(pattern_jpg, IMAGE_UNCHANGED, &jpg, err,
                                sizeof err) == 0
                     && same_pixels(&jpg, arg->want_jpg);
        image_free(&png);
        image_free(&jpg);
    }
    return NULL;
}

static void test_threads(void)
{
    image png, jpg;
    char err[512];
    if (image_read(pattern_png, IMAGE_UNCHANGED, &png, err, sizeof err) != 0
        || image_read(pattern_jpg, IMAGE_UNCHANGED, &jpg, err, sizeof err) != 0) {
        ok(false, "threads read the samples alike (%s)", err);
        return;
    }
    enum { N = 4 };
    pthread_t threads[N];
    reader_arg args[N];
    bool all = true;
    for (int i = 0; i < N; i++) {
        args[i] = (reader_arg){ &png, &jpg, false };
        all &= pthread_create(&threads[i], NULL, reader, &args[i]) == 0;
    }
    for (int i = 0; i < N; i++) {
        pthread_join(threads[i], NULL);
        all &= args[i].same;
    }
    ok(all, "%d threads decoding at once get identical pixels", N);
    image_free(&png);
    image_free(&jpg);
}

int main(void)
{
    const char *srcdir = getenv("srcdir");
    if (!srcdir || !*srcdir)
        srcdir = ".";
    snprintf(pattern_png, sizeof pattern_png,
             "%s/samples/images/pattern.png", srcdir);
    snprintf(pattern_jpg, sizeof pattern_jpg,
             "%s/samples/images/pattern.jpg", srcdir);
    if (access(pattern_png, R_OK) != 0 || access(pattern_jpg, R_OK) != 0) {
        printf("Bail out! %s or .jpg not found; set srcdir to the top of "
               "the source tree\n", pattern_png);
        return 1;
    }
    const char *tmp = getenv("TMPDIR");
    snprintf(scratch, sizeof scratch, "%s/test_image.XXXXXX",
             tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(scratch)) {
        printf("Bail out! cannot make a temporary directory in %s\n",
               tmp && *tmp ? tmp : "/tmp");
        return 1;
    }

    test_pattern_png();
    for (int c = 1; c <= 4; c++)
        test_png_round_trip(c, 37, 53);
    test_png_round_trip(3, 1, 1);
    test_jpeg_round_trip(1);
    test_jpeg_round_trip(3);
    test_mode_conversions();
    test_png_formats();
    test_cmyk_jpeg();
    test_bad_files();
    test_write_errors();
    test_threads();
    printf("1..%d\n", test_count);

    if (getenv("TEST_IMAGE_KEEP"))
        diag("scratch files kept in %s", scratch);
    else
        remove_scratch();
    return failures ? 1 : 0;
}
