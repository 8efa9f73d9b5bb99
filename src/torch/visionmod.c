/* visionmod.c - torchvision.io for .tk programs: image files as (C, H, W)
 * uint8 tensors, through image.h (libpng and libjpeg).
 *
 *   read_image(path, mode=ImageReadMode.UNCHANGED)
 *   decode_image(data, mode=...)         data: the file's bytes, a uint8 tensor
 *   read_file(path)                      the file's bytes as a uint8 tensor
 *   write_png(input, filename, compression_level=6)
 *   write_jpeg(input, filename, quality=75)
 *   ImageReadMode.UNCHANGED / GRAY / GRAY_ALPHA / RGB / RGB_ALPHA
 *
 * Differences from torchvision: write_png also takes 2- and 4-channel
 * images, and compression_level is checked but libpng's default level is
 * used.  transforms.functional.resize is in visiontransforms.c; other
 * torchvision parts (models, the other transforms) are not provided. */
#define _POSIX_C_SOURCE 200809L
#include "visionmod.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "image.h"
#include "torch_impl.h"

/* ---- ImageReadMode ------------------------------------------------------------- */

typedef struct mode_obj {
    val_object o;
    image_mode mode;
} mode_obj;

static const char *const mode_names[] = {"UNCHANGED", "GRAY", "GRAY_ALPHA", "RGB", "RGB_ALPHA"};

static const val_type mode_type;

static void mode_repr(host *h, val self, strbuf *out)
{
    (void)h;
    image_mode m = ((const mode_obj *)self.u.o)->mode;
    strbuf_printf(out, "<ImageReadMode.%s: %d>", mode_names[m], (int)m);
}

static void mode_str(host *h, val self, strbuf *out)
{
    (void)h;
    strbuf_printf(out, "ImageReadMode.%s", mode_names[((const mode_obj *)self.u.o)->mode]);
}

static val mode_getattr(host *h, val self, const char *name, src_span at)
{
    (void)h;
    (void)at;
    image_mode m = ((const mode_obj *)self.u.o)->mode;
    if (!strcmp(name, "value"))
        return val_int((int64_t)m);
    if (!strcmp(name, "name"))
        return val_str_cstr(mode_names[m]);
    return val_missing();
}

static const char *const mode_attrs[] = {"value", "name", NULL};

static const val_type mode_type = {
    .name = "ImageReadMode",
    .getattr = mode_getattr,
    .repr = mode_repr,
    .str = mode_str,
    .attr_names = mode_attrs,
};

/* The mode= argument: an ImageReadMode, its name ("RGB", also "RGBA"), or
 * its number. */
static bool mode_arg(host *h, val v, src_span at, const char *fname, image_mode *out)
{
    *out = IMAGE_UNCHANGED;
    if (v.kind == VAL_MISSING || v.kind == VAL_NONE)
        return true;
    if (v.kind == VAL_OBJECT && v.u.o->type == &mode_type) {
        *out = ((const mode_obj *)v.u.o)->mode;
        return true;
    }
    if (v.kind == VAL_STR) {
        const char *s = val_as_str(v)->s;
        for (int i = 0; i < 5; i++)
            if (!strcmp(s, mode_names[i])) {
                *out = (image_mode)i;
                return true;
            }
        if (!strcmp(s, "RGBA")) {
            *out = IMAGE_RGB_ALPHA;
            return true;
        }
    }
    if (v.kind == VAL_INT && v.u.i >= 0 && v.u.i <= 4) {
        *out = (image_mode)v.u.i;
        return true;
    }
    host_error(h, at, "%s(): mode must be an ImageReadMode (UNCHANGED, GRAY, GRAY_ALPHA, RGB or "
               "RGB_ALPHA), not %s", fname, val_type_name(v));
    return false;
}

static val make_read_mode(void)
{
    val ns = val_module_new("torchvision.io.ImageReadMode");
    for (int i = 0; i < 5; i++) {
        mode_obj *m = val_obj_new(sizeof *m, VAL_OBJECT, &mode_type);
        m->mode = (image_mode)i;
        val_object_set(ns, mode_names[i], val_of(m));
    }
    return ns;
}

/* ---- images <-> tensors ------------------------------------------------------------ */

/* A (C, H, W) uint8 tensor holding img's pixels; img is freed.  Like
 * torchvision's, it is a view of pixels stored channel-last (H, W, C):
 * strides (1, W*C, C), so it is not contiguous.  A kernel that assumes a
 * contiguous CHW layout reads the wrong bytes, on a GPU and here alike;
 * .contiguous() gives the planar copy. */
static val image_tensor(host *h, image *img, src_span at)
{
    char err[TENSOR_ERR_LEN];
    int64_t c = img->channels, hh = img->height, w = img->width;
    int64_t hwc[3] = {hh, w, c}, perm[3] = {2, 0, 1};
    tensor *t = NULL, *stored = tensor_new(DTYPE_UINT8, 3, hwc, false, err);
    if (stored) {
        unsigned char *dst = tensor_data(stored);
        for (int64_t ch = 0; ch < c; ch++)
            for (int64_t i = 0; i < hh * w; i++)
                dst[i * c + ch] = img->data[ch * hh * w + i];
        t = tensor_permute(stored, 3, perm, err);
        tensor_unref(stored);
    }
    image_free(img);
    return torch_result(h, at, t, err);
}

static val fn_read_image(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                         src_span at)
{
    (void)self;
    val a[3];
    const char *path;
    image_mode mode;
    if (!host_args(h, at, "read_image", "path, mode=, apply_exif_orientation=", argc, argv, kw,
                   a) ||
        !host_to_str(h, a[0], at, "read_image() argument 'path'", &path) ||
        !mode_arg(h, a[1], at, "read_image", &mode))
        return val_err();
    image img;
    char err[512];
    if (image_read(path, mode, &img, err, sizeof err) != 0)
        return host_error(h, at, "%s", err);
    return image_tensor(h, &img, at);
}

/* The bytes of a 1-D uint8 tensor (contiguous copy owned by *keep). */
static const unsigned char *tensor_bytes(host *h, val v, src_span at, const char *fname,
                                         size_t *len, tensor **keep)
{
    tensor *t = torch_tensor_arg(h, v, at, fname, "input");
    if (!t)
        return NULL;
    if (t->type != DTYPE_UINT8 || t->ndim != 1) {
        host_error(h, at, "%s(): Expected a one dimensional uint8 tensor", fname);
        return NULL;
    }
    char err[TENSOR_ERR_LEN];
    *keep = tensor_contiguous(t, err);
    if (!*keep) {
        torch_fail(h, at, err);
        return NULL;
    }
    *len = (size_t)t->shape[0];
    return tensor_cdata(*keep);
}

static val fn_decode_image(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                           src_span at)
{
    (void)self;
    val a[3];
    image_mode mode;
    if (!host_args(h, at, "decode_image", "input, mode=, apply_exif_orientation=", argc, argv,
                   kw, a) ||
        !mode_arg(h, a[1], at, "decode_image", &mode))
        return val_err();
    size_t len;
    tensor *keep = NULL;
    const unsigned char *bytes = tensor_bytes(h, a[0], at, "decode_image", &len, &keep);
    if (!bytes)
        return val_err();
    image img;
    char err[512];
    int rc = image_decode(bytes, len, "<tensor>", mode, &img, err, sizeof err);
    tensor_unref(keep);
    if (rc != 0)
        return host_error(h, at, "%s", err);
    return image_tensor(h, &img, at);
}

static val fn_read_file(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                        src_span at)
{
    (void)self;
    val a[1];
    const char *path;
    if (!host_args(h, at, "read_file", "path", argc, argv, kw, a) ||
        !host_to_str(h, a[0], at, "read_file() argument 'path'", &path))
        return val_err();
    FILE *f = fopen(path, "rb");
    if (!f)
        return host_error(h, at, "cannot read '%s': %s", path, strerror(errno));
    strbuf b = {0};
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        strbuf_putn(&b, buf, n);
    bool bad = ferror(f);
    fclose(f);
    if (bad) {
        strbuf_free(&b);
        return host_error(h, at, "cannot read '%s': read error", path);
    }
    char err[TENSOR_ERR_LEN];
    int64_t len = (int64_t)b.len;
    tensor *t = tensor_new(DTYPE_UINT8, 1, &len, false, err);
    if (t && b.len)
        memcpy(tensor_data(t), b.data, b.len);
    strbuf_free(&b);
    return torch_result(h, at, t, err);
}

/* The image of a (C, H, W) uint8 tensor; *keep holds its contiguous copy. */
static bool tensor_image(host *h, val v, src_span at, const char *fname, int max_channels,
                         image *img, tensor **keep)
{
    tensor *t = torch_tensor_arg(h, v, at, fname, "input");
    if (!t)
        return false;
    if (t->type != DTYPE_UINT8) {
        host_error(h, at, "Input tensor dtype should be uint8");
        return false;
    }
    if (t->ndim != 3) {
        host_error(h, at, "Input tensor should have 3 dimensions, but got %d", t->ndim);
        return false;
    }
    if (t->shape[0] < 1 || t->shape[0] > max_channels) {
        host_error(h, at, max_channels == 3 ? "The number of channels should be 1 or 3, got: %lld"
                                            : "The number of channels should be 1 to 4, got: %lld",
                   (long long)t->shape[0]);
        return false;
    }
    if (max_channels == 3 && t->shape[0] == 2) {
        host_error(h, at, "The number of channels should be 1 or 3, got: 2");
        return false;
    }
    if (t->shape[1] > (1 << 30) || t->shape[2] > (1 << 30)) {
        host_error(h, at, "image too large (%lld x %lld)", (long long)t->shape[1],
                   (long long)t->shape[2]);
        return false;
    }
    char err[TENSOR_ERR_LEN];
    *keep = tensor_contiguous(t, err);
    if (!*keep) {
        torch_fail(h, at, err);
        return false;
    }
    img->channels = (int)t->shape[0];
    img->height = (int)t->shape[1];
    img->width = (int)t->shape[2];
    img->data = (unsigned char *)tensor_cdata(*keep);    /* only read */
    return true;
}

static val fn_write_png(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                        src_span at)
{
    (void)self;
    val a[3];
    const char *path;
    int64_t level = 6;
    if (!host_args(h, at, "write_png", "input, filename, compression_level=", argc, argv, kw, a) ||
        !host_to_str(h, a[1], at, "write_png() argument 'filename'", &path) ||
        (a[2].kind != VAL_MISSING &&
         !torch_int_arg(h, a[2], at, "write_png", "compression_level", &level)))
        return val_err();
    if (level < 0 || level > 9)
        return host_error(h, at, "Compression level should be between 0 and 9");
    image img;
    tensor *keep = NULL;
    if (!tensor_image(h, a[0], at, "write_png", 4, &img, &keep))
        return val_err();
    char err[512];
    int rc = image_write_png(path, &img, err, sizeof err);
    tensor_unref(keep);
    return rc == 0 ? val_none() : host_error(h, at, "%s", err);
}

static val fn_write_jpeg(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                         src_span at)
{
    (void)self;
    val a[3];
    const char *path;
    int64_t quality = 75;
    if (!host_args(h, at, "write_jpeg", "input, filename, quality=", argc, argv, kw, a) ||
        !host_to_str(h, a[1], at, "write_jpeg() argument 'filename'", &path) ||
        (a[2].kind != VAL_MISSING &&
         !torch_int_arg(h, a[2], at, "write_jpeg", "quality", &quality)))
        return val_err();
    if (quality < 1 || quality > 100)
        return host_error(h, at, "Image quality should be a positive number between 1 and 100");
    image img;
    tensor *keep = NULL;
    if (!tensor_image(h, a[0], at, "write_jpeg", 3, &img, &keep))
        return val_err();
    char err[512];
    int rc = image_write_jpeg(path, &img, (int)quality, err, sizeof err);
    tensor_unref(keep);
    return rc == 0 ? val_none() : host_error(h, at, "%s", err);
}

void vision_init(host *h)
{
    val tv = val_module_new("torchvision");
    val io = val_module_new("torchvision.io");
    host_def(io, "torchvision.io.read_image", fn_read_image);
    host_def(io, "torchvision.io.decode_image", fn_decode_image);
    host_def(io, "torchvision.io.read_file", fn_read_file);
    host_def(io, "torchvision.io.write_png", fn_write_png);
    host_def(io, "torchvision.io.write_jpeg", fn_write_jpeg);
    val_object_set(io, "ImageReadMode", make_read_mode());
    val_object_set(tv, "__version__", val_str_cstr("0.16.0+tritsim"));
    val_object_set(tv, "io", val_ref(io));
    vision_transforms_add(h, tv);
    host_register_module(h, "torchvision.io", io);
    host_register_module(h, "torchvision", tv);
}
