/* image.c - PNG and JPEG files to and from planar uint8 images (image.h).
 *
 * libpng and libjpeg do all the coding and the colour conversions; the
 * choices of conversion follow torchvision's decode_png/decode_jpeg so that
 * read_image gives the same numbers here as under PyTorch.  This file owns
 * the glue: telling the formats apart, feeding the libraries from memory,
 * catching their errors, and moving pixels between the libraries'
 * interleaved rows (HWC) and the planar layout (CHW) of image.h.
 *
 * Both libraries report errors by calling a function that must not return.
 * Ours longjmp back to a setjmp in a small function (png_decode, jpeg_decode,
 * ...) whose only job is to drive the library.  Everything those functions
 * allocate or must clean up lives in a "job" struct owned by their caller,
 * so nothing that changes between setjmp and longjmp is an automatic
 * variable of the function that called setjmp (C11 7.13.2.1), and the
 * caller can always free it. */
#define _POSIX_C_SOURCE 200809L

#include "image.h"

#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <png.h>
#include <jpeglib.h>
#include <jerror.h>

/* ---- messages ----------------------------------------------------------- */

/* Writes "cannot VERB 'NAME': REASON" into errbuf; returns -1. */
static int fail(char *errbuf, size_t errlen, const char *verb,
                const char *name, const char *fmt, ...)
{
    char reason[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(reason, sizeof reason, fmt, ap);
    va_end(ap);
    if (errbuf && errlen > 0)
        snprintf(errbuf, errlen, "cannot %s '%s': %s", verb, name, reason);
    return -1;
}

/* strerror, but thread-safe (the XSI strerror_r). */
static const char *errno_text(int err, char *buf, size_t len)
{
    if (strerror_r(err, buf, len) != 0)
        snprintf(buf, len, "error %d", err);
    return buf;
}

/* ---- pixel layout ------------------------------------------------------- */

/* Bytes for a channels x height x width image, or 0 when the shape is
 * invalid or over IMAGE_MAX_BYTES. */
static size_t image_bytes(int channels, long height, long width)
{
    if (channels < 1 || channels > 4 || height < 1 || width < 1)
        return 0;
    size_t limit = IMAGE_MAX_BYTES / (size_t)channels;
    if ((size_t)height > limit || (size_t)width > limit / (size_t)height)
        return 0;
    return (size_t)channels * (size_t)height * (size_t)width;
}

int image_alloc(image *img, int channels, int height, int width,
                char *errbuf, size_t errlen)
{
    img->channels = img->height = img->width = 0;
    img->data = NULL;
    size_t n = image_bytes(channels, height, width);
    if (n == 0) {
        if (errbuf && errlen > 0)
            snprintf(errbuf, errlen, "invalid image shape (%d, %d, %d): "
                     "it needs 1 to 4 channels and at most %zu bytes",
                     channels, height, width, (size_t)IMAGE_MAX_BYTES);
        return -1;
    }
    img->data = calloc(n, 1);
    if (!img->data) {
        if (errbuf && errlen > 0)
            snprintf(errbuf, errlen, "out of memory for an image of %zu bytes", n);
        return -1;
    }
    img->channels = channels;
    img->height = height;
    img->width = width;
    return 0;
}

void image_free(image *img)
{
    if (!img)
        return;
    free(img->data);
    img->data = NULL;
    img->channels = img->height = img->width = 0;
}

/* Fills img (already shaped, `channels` planes) from interleaved rows with
 * src_channels samples per pixel.  A plane beyond src_channels is an alpha
 * the file did not have: opaque. */
static void planes_from_rows(image *img, const unsigned char *rows,
                             int src_channels)
{
    size_t npix = (size_t)img->height * (size_t)img->width;
    for (int c = 0; c < img->channels; c++) {
        unsigned char *plane = img->data + (size_t)c * npix;
        if (c >= src_channels) {
            memset(plane, 255, npix);
            continue;
        }
        const unsigned char *src = rows + c;
        for (size_t i = 0; i < npix; i++, src += src_channels)
            plane[i] = *src;
    }
}

/* Interleaves row y of img's planes into row (channels bytes a pixel). */
static void row_from_planes(const image *img, int y, unsigned char *row)
{
    size_t npix = (size_t)img->height * (size_t)img->width;
    for (int c = 0; c < img->channels; c++) {
        const unsigned char *src = img->data + (size_t)c * npix
                                   + (size_t)y * (size_t)img->width;
        unsigned char *dst = row + c;
        for (int x = 0; x < img->width; x++, dst += img->channels)
            *dst = src[x];
    }
}

/* ---- PNG decoding ------------------------------------------------------- */

typedef struct png_job {
    png_structp png;
    png_infop info;
    const unsigned char *bytes;     /* the whole file */
    size_t len, pos;                /* read position for png_read_mem */
    image_mode mode;
    int width, height, channels;    /* of the decoded rows */
    unsigned char *pixels;          /* interleaved 8-bit rows */
    png_bytep *rows;                /* pointers into pixels */
    bool truncated;                 /* the reader ran out of bytes */
    char msg[200];                  /* why decoding stopped */
} png_job;

static void png_on_error(png_structp png, png_const_charp msg)
{
    png_job *job = png_get_error_ptr(png);
    snprintf(job->msg, sizeof job->msg, "invalid PNG data (%s)", msg);
    png_longjmp(png, 1);
}

/* libpng warns about recoverable oddities (unknown chunks, bad CRCs in
 * ancillary chunks); like torchvision we decode anyway, and stay quiet. */
static void png_on_warning(png_structp png, png_const_charp msg)
{
    (void)png;
    (void)msg;
}

static void png_read_mem(png_structp png, png_bytep out, size_t n)
{
    png_job *job = png_get_io_ptr(png);
    if (n > job->len - job->pos) {
        job->truncated = true;
        png_error(png, "truncated");
    }
    memcpy(out, job->bytes + job->pos, n);
    job->pos += n;
}

/* Asks libpng for 8-bit samples in the channels the mode wants; returns
 * that number of channels.  Mirrors torchvision's decode_png, except that a
 * palette image is expanded in UNCHANGED mode too (torchvision returns the
 * palette indices there, which are of no use as a picture). */
static int png_choose_conversions(png_structp png, png_infop info,
                                  image_mode mode)
{
    int color_type = png_get_color_type(png, info);
    int bit_depth = png_get_bit_depth(png, info);
    bool color = (color_type & PNG_COLOR_MASK_COLOR) != 0;
    bool alpha = (color_type & PNG_COLOR_MASK_ALPHA) != 0;

    if (bit_depth == 16)
        png_set_strip_16(png);          /* keep the high byte, as PIL does */
    if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8)
        png_set_expand_gray_1_2_4_to_8(png);
    if (color_type == PNG_COLOR_TYPE_PALETTE) {
        png_set_palette_to_rgb(png);    /* a tRNS chunk becomes alpha */
        alpha = png_get_valid(png, info, PNG_INFO_tRNS) != 0;
    }

    bool want_color = color, want_alpha = alpha;
    switch (mode) {
    case IMAGE_UNCHANGED:  break;
    case IMAGE_GRAY:       want_color = false; want_alpha = false; break;
    case IMAGE_GRAY_ALPHA: want_color = false; want_alpha = true;  break;
    case IMAGE_RGB:        want_color = true;  want_alpha = false; break;
    case IMAGE_RGB_ALPHA:  want_color = true;  want_alpha = true;  break;
    }
    if (alpha && !want_alpha)
        png_set_strip_alpha(png);
    if (!alpha && want_alpha)
        png_set_add_alpha(png, 0xff, PNG_FILLER_AFTER);
    if (color && !want_color)           /* torchvision's weights: 0.2989 R,
                                           0.587 G, the rest for B */
        png_set_rgb_to_gray_fixed(png, PNG_ERROR_ACTION_NONE, 29890, 58700);
    if (!color && want_color)
        png_set_gray_to_rgb(png);
    return (want_color ? 3 : 1) + (want_alpha ? 1 : 0);
}

/* Drives libpng over job->bytes; 0 or -1 with job->msg set. */
static int png_decode(png_job *job)
{
    if (setjmp(png_jmpbuf(job->png)))
        return -1;                      /* png_on_error filled job->msg */

    png_set_read_fn(job->png, job, png_read_mem);
    png_read_info(job->png, job->info);
    int want = png_choose_conversions(job->png, job->info, job->mode);
    png_set_interlace_handling(job->png);   /* libpng merges Adam7 passes */
    png_read_update_info(job->png, job->info);

    png_uint_32 width = png_get_image_width(job->png, job->info);
    png_uint_32 height = png_get_image_height(job->png, job->info);
    int channels = png_get_channels(job->png, job->info);
    if (channels != want || png_get_bit_depth(job->png, job->info) != 8
        || png_get_rowbytes(job->png, job->info) != (size_t)width * channels) {
        snprintf(job->msg, sizeof job->msg,
                 "unsupported PNG layout (%d channels at %d bits)",
                 channels, png_get_bit_depth(job->png, job->info));
        return -1;
    }
    if (image_bytes(channels, height, width) == 0) {
        snprintf(job->msg, sizeof job->msg,
                 "image of %lu x %lu pixels is too large",
                 (unsigned long)width, (unsigned long)height);
        return -1;
    }
    job->width = (int)width;
    job->height = (int)height;
    job->channels = channels;
    job->pixels = malloc((size_t)height * width * channels);
    job->rows = malloc((size_t)height * sizeof *job->rows);
    if (!job->pixels || !job->rows) {
        snprintf(job->msg, sizeof job->msg, "out of memory");
        return -1;
    }
    for (png_uint_32 y = 0; y < height; y++)
        job->rows[y] = job->pixels + (size_t)y * width * channels;
    png_read_image(job->png, job->rows);
    return 0;
}

static int decode_png(const unsigned char *bytes, size_t len,
                      const char *name, image_mode mode, image *img,
                      char *errbuf, size_t errlen)
{
    png_job job = { .bytes = bytes, .len = len, .mode = mode };
    job.png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &job,
                                     png_on_error, png_on_warning);
    if (job.png)
        job.info = png_create_info_struct(job.png);
    int rc = -1;
    if (!job.png || !job.info)
        snprintf(job.msg, sizeof job.msg, "out of memory");
    else
        rc = png_decode(&job);
    if (rc == 0) {
        rc = image_alloc(img, job.channels, job.height, job.width, NULL, 0);
        if (rc == 0)
            planes_from_rows(img, job.pixels, job.channels);
        else
            snprintf(job.msg, sizeof job.msg, "out of memory");
    }
    png_destroy_read_struct(&job.png, &job.info, NULL);
    free(job.rows);
    free(job.pixels);
    if (rc != 0)
        return fail(errbuf, errlen, "read", name, "%s",
                    job.truncated ? "truncated PNG data" : job.msg);
    return 0;
}

/* ---- JPEG error handling, shared by decoding and encoding --------------- */

/* libjpeg's error manager plus where to jump; mgr comes first so that the
 * library's cinfo->err pointer is also a pointer to the whole struct. */
typedef struct jpeg_catch {
    struct jpeg_error_mgr mgr;
    jmp_buf jump;
    char msg[JMSG_LENGTH_MAX];
} jpeg_catch;

static void jpeg_on_error(j_common_ptr cinfo)
{
    jpeg_catch *catch = (jpeg_catch *)cinfo->err;
    catch->mgr.format_message(cinfo, catch->msg);
    longjmp(catch->jump, 1);
}

/* Warnings are libjpeg recovering from corrupt data; PIL and torchvision
 * decode such files, so do we, without printing. */
static void jpeg_on_message(j_common_ptr cinfo, int level)
{
    if (level < 0)
        cinfo->err->num_warnings++;
}

static struct jpeg_error_mgr *jpeg_catch_init(jpeg_catch *catch)
{
    struct jpeg_error_mgr *mgr = jpeg_std_error(&catch->mgr);
    mgr->error_exit = jpeg_on_error;
    mgr->emit_message = jpeg_on_message;
    return mgr;
}

/* ---- JPEG decoding ------------------------------------------------------ */

typedef struct jpeg_job {
    jpeg_catch catch;
    struct jpeg_decompress_struct cinfo;
    const unsigned char *bytes;
    size_t len;
    image_mode mode;
    int width, height, channels;    /* of the decoded rows */
    unsigned char *pixels;          /* interleaved rows */
    char msg[200];                  /* our own reasons (not libjpeg's) */
} jpeg_job;

/* jpeg_mem_src would pad a short file with a fake end marker and decode a
 * half-grey picture; a truncated file is an error, as in torchvision. */
static boolean jpeg_on_eof(j_decompress_ptr cinfo)
{
    ERREXIT(cinfo, JERR_INPUT_EOF);
    return FALSE;
}

/* Chooses libjpeg's output colour space for the mode; returns the number of
 * channels it gives, or 0 for a colour space we do not convert. */
static int jpeg_choose_output(struct jpeg_decompress_struct *ci,
                              image_mode mode)
{
    if (ci->jpeg_color_space != JCS_GRAYSCALE
        && ci->jpeg_color_space != JCS_YCbCr && ci->jpeg_color_space != JCS_RGB)
        return 0;                       /* CMYK, YCCK */
    bool gray = ci->jpeg_color_space == JCS_GRAYSCALE;
    switch (mode) {
    case IMAGE_UNCHANGED:
        ci->out_color_space = gray ? JCS_GRAYSCALE : JCS_RGB;
        return gray ? 1 : 3;
    case IMAGE_GRAY:
    case IMAGE_GRAY_ALPHA:              /* alpha is added by the caller */
        ci->out_color_space = JCS_GRAYSCALE;    /* the luma plane, Y */
        return 1;
    case IMAGE_RGB:
        ci->out_color_space = JCS_RGB;
        return 3;
    case IMAGE_RGB_ALPHA:
        ci->out_color_space = JCS_EXT_RGBA;     /* libjpeg-turbo: alpha 255 */
        return 4;
    }
    return 0;
}

/* Drives libjpeg over job->bytes; 0 or -1 (job->msg or the catch's msg). */
static int jpeg_decode(jpeg_job *job)
{
    struct jpeg_decompress_struct *ci = &job->cinfo;
    ci->err = jpeg_catch_init(&job->catch);
    if (setjmp(job->catch.jump))
        return -1;

    jpeg_create_decompress(ci);
    ci->mem->max_memory_to_use = (long)(IMAGE_MAX_BYTES < LONG_MAX
                                        ? IMAGE_MAX_BYTES : LONG_MAX);
    jpeg_mem_src(ci, job->bytes, (unsigned long)job->len);
    ci->src->fill_input_buffer = jpeg_on_eof;
    jpeg_read_header(ci, TRUE);

    int channels = jpeg_choose_output(ci, job->mode);
    if (channels == 0) {
        snprintf(job->msg, sizeof job->msg,
                 "CMYK JPEG files are not supported (convert it to RGB)");
        return -1;
    }
    /* 4: room for the alpha plane GRAY_ALPHA and RGB_ALPHA add */
    if (image_bytes(4, ci->image_height, ci->image_width) == 0) {
        snprintf(job->msg, sizeof job->msg,
                 "image of %u x %u pixels is too large",
                 (unsigned)ci->image_width, (unsigned)ci->image_height);
        return -1;
    }
    jpeg_start_decompress(ci);
    if (ci->output_components != channels) {
        snprintf(job->msg, sizeof job->msg,
                 "unsupported JPEG layout (%d components)", ci->output_components);
        return -1;
    }
    job->width = (int)ci->output_width;
    job->height = (int)ci->output_height;
    job->channels = channels;
    size_t stride = (size_t)job->width * (size_t)channels;
    job->pixels = malloc(stride * (size_t)job->height);
    if (!job->pixels) {
        snprintf(job->msg, sizeof job->msg, "out of memory");
        return -1;
    }
    while (ci->output_scanline < ci->output_height) {
        JSAMPROW row = job->pixels + (size_t)ci->output_scanline * stride;
        jpeg_read_scanlines(ci, &row, 1);
    }
    jpeg_finish_decompress(ci);
    return 0;
}

static int decode_jpeg(const unsigned char *bytes, size_t len,
                       const char *name, image_mode mode, image *img,
                       char *errbuf, size_t errlen)
{
    jpeg_job job = { .bytes = bytes, .len = len, .mode = mode };
    int rc = jpeg_decode(&job);
    const char *why = job.msg[0] ? job.msg : job.catch.msg;
    if (rc != 0 && !job.msg[0] && job.catch.mgr.msg_code == JERR_INPUT_EOF)
        why = "truncated JPEG data";
    if (rc == 0) {
        int channels = mode == IMAGE_GRAY_ALPHA ? 2 : job.channels;
        rc = image_alloc(img, channels, job.height, job.width, NULL, 0);
        if (rc == 0)
            planes_from_rows(img, job.pixels, job.channels);
        else
            why = "out of memory";
    }
    jpeg_destroy_decompress(&job.cinfo);
    free(job.pixels);
    if (rc != 0) {
        if (why == job.catch.msg)
            return fail(errbuf, errlen, "read", name,
                        "invalid JPEG data (%s)", why);
        return fail(errbuf, errlen, "read", name, "%s", why);
    }
    return 0;
}

/* ---- reading ------------------------------------------------------------ */

int image_decode(const unsigned char *bytes, size_t len, const char *name,
                 image_mode mode, image *img, char *errbuf, size_t errlen)
{
    static const unsigned char jpeg_magic[3] = { 0xFF, 0xD8, 0xFF };

    img->channels = img->height = img->width = 0;
    img->data = NULL;
    if (!name)
        name = "<memory>";
    if (mode < IMAGE_UNCHANGED || mode > IMAGE_RGB_ALPHA)
        return fail(errbuf, errlen, "read", name, "unknown read mode %d",
                    (int)mode);
    if (len == 0)
        return fail(errbuf, errlen, "read", name, "empty file");
    if (len >= 8 && png_sig_cmp(bytes, 0, 8) == 0)
        return decode_png(bytes, len, name, mode, img, errbuf, errlen);
    if (len >= 3 && memcmp(bytes, jpeg_magic, 3) == 0)
        return decode_jpeg(bytes, len, name, mode, img, errbuf, errlen);
    if (len < 8 && png_sig_cmp(bytes, 0, len) == 0)
        return fail(errbuf, errlen, "read", name, "truncated PNG data");
    return fail(errbuf, errlen, "read", name, "not a PNG or JPEG file");
}

/* Reads all of path into a malloc'd buffer; 0, or -1 with a reason. */
static int slurp(const char *path, unsigned char **out, size_t *outlen,
                 char *why, size_t whylen)
{
    *out = NULL;
    *outlen = 0;
    FILE *f = fopen(path, "rb");
    if (!f) {
        errno_text(errno, why, whylen);
        return -1;
    }
    size_t cap = 1 << 16, len = 0;
    unsigned char *buf = malloc(cap);
    int rc = 0;
    while (buf) {
        len += fread(buf + len, 1, cap - len, f);
        if (ferror(f)) {
            errno_text(errno, why, whylen);
            rc = -1;
            break;
        }
        if (len < cap)
            break;                      /* end of file */
        if (cap > IMAGE_MAX_BYTES) {
            snprintf(why, whylen, "file is larger than %zu bytes",
                     (size_t)IMAGE_MAX_BYTES);
            rc = -1;
            break;
        }
        unsigned char *bigger = realloc(buf, cap * 2);
        if (!bigger)
            free(buf);
        buf = bigger;
        cap *= 2;
    }
    fclose(f);
    if (!buf) {
        snprintf(why, whylen, "out of memory");
        return -1;
    }
    if (rc != 0) {
        free(buf);
        return -1;
    }
    *out = buf;
    *outlen = len;
    return 0;
}

int image_read(const char *path, image_mode mode, image *img,
               char *errbuf, size_t errlen)
{
    img->channels = img->height = img->width = 0;
    img->data = NULL;
    unsigned char *bytes;
    size_t len;
    char why[256];
    if (slurp(path, &bytes, &len, why, sizeof why) != 0)
        return fail(errbuf, errlen, "read", path, "%s", why);
    int rc = image_decode(bytes, len, path, mode, img, errbuf, errlen);
    free(bytes);
    return rc;
}

/* ---- writing ------------------------------------------------------------ */

/* Checks that img is something we can write; a reason or NULL. */
static const char *unwritable(const image *img)
{
    if (!img || !img->data)
        return "the image has no pixels";
    if (image_bytes(img->channels, img->height, img->width) == 0)
        return "the image must have 1 to 4 channels and at least 1 x 1 pixels";
    return NULL;
}

/* Closes f after a write.  On any failure a half-written regular file is
 * removed, but never anything else: the path may be /dev/stdout or a
 * device, whose name must survive a failed write. */
static int finish_file(FILE *f, int rc, const char *path, char *why,
                       size_t whylen)
{
    struct stat st;
    bool regular = fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode);
    if (fclose(f) != 0 && rc == 0) {
        errno_text(errno, why, whylen);
        rc = -1;
    }
    if (rc != 0 && regular)
        remove(path);
    return rc;
}

typedef struct png_wjob {
    png_structp png;
    png_infop info;
    FILE *file;
    unsigned char *row;
    char msg[200];
} png_wjob;

static void png_on_write_error(png_structp png, png_const_charp msg)
{
    png_wjob *job = png_get_error_ptr(png);
    snprintf(job->msg, sizeof job->msg, "%s", msg);
    png_longjmp(png, 1);
}

static int png_encode(png_wjob *job, const image *img)
{
    static const int color_types[5] = {
        0, PNG_COLOR_TYPE_GRAY, PNG_COLOR_TYPE_GRAY_ALPHA,
        PNG_COLOR_TYPE_RGB, PNG_COLOR_TYPE_RGB_ALPHA
    };
    if (setjmp(png_jmpbuf(job->png)))
        return -1;
    png_init_io(job->png, job->file);
    png_set_IHDR(job->png, job->info, (png_uint_32)img->width,
                 (png_uint_32)img->height, 8, color_types[img->channels],
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    png_write_info(job->png, job->info);
    for (int y = 0; y < img->height; y++) {
        row_from_planes(img, y, job->row);
        png_write_row(job->png, job->row);
    }
    png_write_end(job->png, NULL);
    return 0;
}

int image_write_png(const char *path, const image *img,
                    char *errbuf, size_t errlen)
{
    const char *bad = unwritable(img);
    if (bad)
        return fail(errbuf, errlen, "write", path, "%s", bad);
    png_wjob job = { .file = NULL };
    job.row = malloc((size_t)img->width * (size_t)img->channels);
    if (!job.row)
        return fail(errbuf, errlen, "write", path, "out of memory");
    job.file = fopen(path, "wb");
    if (!job.file) {
        free(job.row);
        return fail(errbuf, errlen, "write", path, "%s",
                    errno_text(errno, job.msg, sizeof job.msg));
    }
    job.png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &job,
                                      png_on_write_error, png_on_warning);
    if (job.png)
        job.info = png_create_info_struct(job.png);
    int rc = -1;
    if (!job.png || !job.info)
        snprintf(job.msg, sizeof job.msg, "out of memory");
    else
        rc = png_encode(&job, img);
    png_destroy_write_struct(&job.png, &job.info);
    free(job.row);
    rc = finish_file(job.file, rc, path, job.msg, sizeof job.msg);
    if (rc != 0)
        return fail(errbuf, errlen, "write", path, "%s", job.msg);
    return 0;
}

typedef struct jpeg_wjob {
    jpeg_catch catch;
    struct jpeg_compress_struct cinfo;
    FILE *file;
    unsigned char *row;
} jpeg_wjob;

static int jpeg_encode(jpeg_wjob *job, const image *img, int quality)
{
    struct jpeg_compress_struct *ci = &job->cinfo;
    ci->err = jpeg_catch_init(&job->catch);
    if (setjmp(job->catch.jump))
        return -1;
    jpeg_create_compress(ci);
    jpeg_stdio_dest(ci, job->file);
    ci->image_width = (JDIMENSION)img->width;
    ci->image_height = (JDIMENSION)img->height;
    ci->input_components = img->channels;
    ci->in_color_space = img->channels == 1 ? JCS_GRAYSCALE : JCS_RGB;
    jpeg_set_defaults(ci);
    jpeg_set_quality(ci, quality, TRUE);
    jpeg_start_compress(ci, TRUE);
    for (int y = 0; y < img->height; y++) {
        row_from_planes(img, y, job->row);
        JSAMPROW row = job->row;
        jpeg_write_scanlines(ci, &row, 1);
    }
    jpeg_finish_compress(ci);
    return 0;
}

int image_write_jpeg(const char *path, const image *img, int quality,
                     char *errbuf, size_t errlen)
{
    const char *bad = unwritable(img);
    if (bad)
        return fail(errbuf, errlen, "write", path, "%s", bad);
    if (img->channels != 1 && img->channels != 3)
        return fail(errbuf, errlen, "write", path,
                    "JPEG needs 1 or 3 channels, the image has %d",
                    img->channels);
    if (img->width > JPEG_MAX_DIMENSION || img->height > JPEG_MAX_DIMENSION)
        return fail(errbuf, errlen, "write", path,
                    "JPEG images are at most %d pixels wide and high",
                    JPEG_MAX_DIMENSION);
    if (quality < 1 || quality > 100)
        return fail(errbuf, errlen, "write", path,
                    "quality must be between 1 and 100, not %d", quality);
    jpeg_wjob job = { .file = NULL };
    job.row = malloc((size_t)img->width * (size_t)img->channels);
    if (!job.row)
        return fail(errbuf, errlen, "write", path, "out of memory");
    job.file = fopen(path, "wb");
    if (!job.file) {
        char why[128];
        free(job.row);
        return fail(errbuf, errlen, "write", path, "%s",
                    errno_text(errno, why, sizeof why));
    }
    int rc = jpeg_encode(&job, img, quality);
    jpeg_destroy_compress(&job.cinfo);
    free(job.row);
    char why[JMSG_LENGTH_MAX];
    snprintf(why, sizeof why, "%s", job.catch.msg);
    rc = finish_file(job.file, rc, path, why, sizeof why);
    if (rc != 0)
        return fail(errbuf, errlen, "write", path, "%s", why);
    return 0;
}
