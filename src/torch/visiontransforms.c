/* visiontransforms.c - torchvision.transforms.functional.resize for .tk
 * programs (the lecture shrinks its photo with tvf.resize(img, 150,
 * antialias=True) before greying it).
 *
 *   resize(img, size, interpolation=None, max_size=None, antialias=True)
 *
 * img is a tensor of shape (..., H, W); size an int (the shorter side
 * becomes size, the longer keeps the aspect ratio, rounded down, as
 * torchvision computes it) or [h, w] (or [s], as an int).  Interpolation
 * is bilinear, the default; with antialias the filter widens by the
 * shrink factor, as PyTorch's antialiased bilinear interpolate does
 * (separable: rows of weights that sum to 1, width first).  As
 * torchvision 0.16's tensor path does, integer images are resized as
 * float32 and rounded (half to even) back to their dtype.  The result is
 * contiguous.  Other interpolations and max_size are not supported. */
#define _POSIX_C_SOURCE 200809L
#include "visionmod.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "torch_impl.h"

/* The source taps of one output index along an axis of in -> out. */
typedef struct rs_taps {
    int64_t first;          /* the first source index */
    int n;                  /* how many */
    double *w;              /* n weights summing to 1 */
} rs_taps;

/* Bilinear's triangle. */
static double rs_filter(double x)
{
    x = fabs(x);
    return x < 1.0 ? 1.0 - x : 0.0;
}

/* The taps of every output index of an axis of in samples resized to out:
 * PyTorch's antialiased weights (with antialias, when shrinking, the
 * triangle is stretched over `scale` source samples); plain bilinear with
 * half-pixel centres otherwise. */
static rs_taps *rs_axis(int64_t in, int64_t out, bool antialias)
{
    rs_taps *t = xcalloc((size_t)out, sizeof *t);
    double scale = (double)in / (double)out;
    double stretch = antialias && scale > 1.0 ? scale : 1.0;
    double support = stretch;       /* the triangle's half-width */
    for (int64_t i = 0; i < out; i++) {
        double center = scale * ((double)i + 0.5);
        int64_t lo = (int64_t)(center - support + 0.5);
        int64_t hi = (int64_t)(center + support + 0.5);
        if (lo < 0)
            lo = 0;
        if (hi > in)
            hi = in;
        if (hi <= lo) {         /* keep one tap inside the axis */
            if (lo > in - 1)
                lo = in - 1;
            hi = lo + 1;
        }
        t[i].first = lo;
        t[i].n = (int)(hi - lo);
        t[i].w = xcalloc((size_t)t[i].n, sizeof *t[i].w);
        double total = 0;
        for (int j = 0; j < t[i].n; j++) {
            t[i].w[j] = rs_filter(((double)(lo + j) - center + 0.5) / stretch);
            total += t[i].w[j];
        }
        for (int j = 0; j < t[i].n; j++)
            t[i].w[j] = total > 0 ? t[i].w[j] / total : (j == 0);
    }
    return t;
}

static void rs_axis_free(rs_taps *t, int64_t out)
{
    for (int64_t i = 0; i < out; i++)
        free(t[i].w);
    free(t);
}

/* The output size for an int size: torchvision's _compute_resized_output_size. */
static void rs_size_for(int64_t h, int64_t w, int64_t size, int64_t *oh, int64_t *ow)
{
    int64_t s = h < w ? h : w, l = h < w ? w : h;
    int64_t ns = size, nl = (int64_t)((double)size * (double)l / (double)s);
    if (w <= h) {
        *ow = ns;
        *oh = nl;
    } else {
        *oh = ns;
        *ow = nl;
    }
}

/* Resize each (h, w) plane of src (contiguous doubles) into dst. */
static void rs_planes(const double *src, double *dst, int64_t planes, int64_t h, int64_t w,
                      int64_t oh, int64_t ow, bool antialias)
{
    rs_taps *tw = rs_axis(w, ow, antialias), *th = rs_axis(h, oh, antialias);
    double *mid = xcalloc((size_t)(h * ow) + 1, sizeof *mid);
    for (int64_t p = 0; p < planes; p++) {
        const double *in = src + p * h * w;
        for (int64_t y = 0; y < h; y++)
            for (int64_t x = 0; x < ow; x++) {
                double acc = 0;
                for (int j = 0; j < tw[x].n; j++)
                    acc += tw[x].w[j] * in[y * w + tw[x].first + j];
                mid[y * ow + x] = acc;
            }
        double *o = dst + p * oh * ow;
        for (int64_t y = 0; y < oh; y++)
            for (int64_t x = 0; x < ow; x++) {
                double acc = 0;
                for (int j = 0; j < th[y].n; j++)
                    acc += th[y].w[j] * mid[(th[y].first + j) * ow + x];
                o[y * ow + x] = acc;
            }
    }
    free(mid);
    rs_axis_free(tw, ow);
    rs_axis_free(th, oh);
}

static val fn_resize(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                     src_span at)
{
    (void)self;
    val a[5];
    if (!host_args(h, at, "resize", "img, size, interpolation=, max_size=, antialias=", argc,
                   argv, kw, a))
        return val_err();
    tensor *t = torch_tensor_arg(h, a[0], at, "resize", "img");
    if (!t)
        return val_err();
    bool antialias = true;
    if (a[4].kind != VAL_MISSING && a[4].kind != VAL_NONE &&
        !torch_bool_arg(h, a[4], at, "resize", "antialias", &antialias))
        return val_err();
    if (a[2].kind != VAL_MISSING && a[2].kind != VAL_NONE)
        return host_raise(h, HOST_EXC_NOT_IMPLEMENTED, at, "resize(interpolation=...) is not "
                          "supported by tritsim: only the default, bilinear");
    if (a[3].kind != VAL_MISSING && a[3].kind != VAL_NONE)
        return host_raise(h, HOST_EXC_NOT_IMPLEMENTED, at,
                          "resize(max_size=...) is not supported by tritsim");
    if (t->ndim < 2)
        return host_raise(h, HOST_EXC_TYPE, at, "resize() takes an image of shape (..., H, W), "
                          "not one with %d dimension%s", t->ndim, t->ndim == 1 ? "" : "s");
    if (t->type == DTYPE_INT1 || !(dtype_is_float(t->type) || dtype_is_int(t->type)))
        return host_raise(h, HOST_EXC_TYPE, at, "resize() takes an integer or float image");
    int64_t ih = t->shape[t->ndim - 2], iw = t->shape[t->ndim - 1];
    int64_t sizes[2];
    int n = 0;
    if (!torch_int_list(h, a[1], at, "resize", "size", &n, sizes, 2))
        return val_err();
    int64_t oh, ow;
    if (n == 1 && (ih == 0 || iw == 0))
        return host_raise(h, HOST_EXC_VALUE, at, "resize() of an empty image");
    if (n == 1)
        rs_size_for(ih, iw, sizes[0], &oh, &ow);
    else if (n == 2)
        oh = sizes[0], ow = sizes[1];
    else
        return host_raise(h, HOST_EXC_TYPE, at, "Size must be an int or a 1 or 2 element "
                          "tuple/list, not a %d element tuple/list", n);
    if (oh <= 0 || ow <= 0)
        return host_raise(h, HOST_EXC_VALUE, at, "resize() to %lld x %lld: sizes must be "
                          "positive", (long long)oh, (long long)ow);
    char err[TENSOR_ERR_LEN];
    if (oh == ih && ow == iw)
        return tensor_val(tensor_ref(t));
    /* Work in float64 (float32 input rounds to its own type at the end). */
    tensor *src = tensor_to(t, DTYPE_FP64, t->cuda, err);
    tensor *srcc = src ? tensor_contiguous(src, err) : NULL;
    tensor_unref(src);
    if (!srcc)
        return torch_fail(h, at, err);
    int64_t shape[TENSOR_MAX_DIMS];
    memcpy(shape, t->shape, sizeof shape);
    shape[t->ndim - 2] = oh;
    shape[t->ndim - 1] = ow;
    int64_t planes = 1;
    for (int d = 0; d < t->ndim - 2; d++)
        planes *= t->shape[d];
    tensor *out = tensor_new(DTYPE_FP64, t->ndim, shape, t->cuda, err);
    if (!out) {
        tensor_unref(srcc);
        return torch_fail(h, at, err);
    }
    double *o = tensor_data(out);
    rs_planes(tensor_cdata(srcc), o, planes, ih, iw, oh, ow, antialias);
    tensor_unref(srcc);
    int64_t total = planes * oh * ow;
    if (dtype_is_int(t->type)) {
        for (int64_t i = 0; i < total; i++)
            o[i] = nearbyint((double)(float)o[i]);   /* torch.round of the float32 result */
    }
    tensor *r = tensor_to(out, t->type, t->cuda, err);
    tensor_unref(out);
    return torch_result(h, at, r, err);
}

void vision_transforms_add(host *h, val tv)
{
    val transforms = val_module_new("torchvision.transforms");
    val functional = val_module_new("torchvision.transforms.functional");
    host_def(functional, "torchvision.transforms.functional.resize", fn_resize);
    val_object_set(transforms, "functional", val_ref(functional));
    val_object_set(tv, "transforms", val_ref(transforms));
    host_register_module(h, "torchvision.transforms", transforms);
    host_register_module(h, "torchvision.transforms.functional", functional);
}
