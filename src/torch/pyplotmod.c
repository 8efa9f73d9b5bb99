/* pyplotmod.c - the part of matplotlib.pyplot the lecture's show_img uses:
 * figure(figsize=...), axis('off'), imshow(x, cmap=...), and show().
 *
 * tritsim draws no windows, so nothing is displayed, as with matplotlib's
 * non-interactive backend in a script; the calls check their arguments as
 * matplotlib does, so that a program that runs here runs there:
 * imshow takes an image of shape (H, W) or (H, W, 3 or 4), and a tensor on
 * the GPU is refused with PyTorch's message (matplotlib converts it to a
 * numpy array, which needs .cpu() first).  To look at an image, write it
 * with torchvision.io.write_png. */
#define _POSIX_C_SOURCE 200809L
#include "pyplotmod.h"

#include <string.h>

#include "torch_impl.h"

static void plt_figure_repr(host *h, val self, strbuf *out)
{
    (void)h;
    val w = val_object_get(self, "_w"), ht = val_object_get(self, "_h");
    strbuf_printf(out, "<Figure size %gx%g with 0 Axes>", w.kind == VAL_FLOAT ? w.u.f : 640.0,
                  ht.kind == VAL_FLOAT ? ht.u.f : 480.0);
}

static const val_type plt_figure_type = {
    .name = "Figure",
    .repr = plt_figure_repr,
};

static const val_type plt_image_type = {
    .name = "AxesImage",
};

/* figure(figsize=(w, h), ...): the size in inches (100 dots each). */
static val plt_figure(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                      src_span at)
{
    (void)self, (void)argc, (void)argv;
    double fw = 6.4, fh = 4.8;
    for (int i = 0; kw && i < kw->n; i++) {
        if (strcmp(kw->names[i], "figsize"))
            continue;
        val v = kw->values[i];
        if ((v.kind != VAL_TUPLE && v.kind != VAL_LIST) || val_as_seq(v)->len != 2 ||
            !host_to_float(h, val_as_seq(v)->items[0], at, "figsize width", &fw) ||
            !host_to_float(h, val_as_seq(v)->items[1], at, "figsize height", &fh))
            return host_exc_pending(h) ? val_err()
                                       : host_raise(h, HOST_EXC_TYPE, at, "figure(figsize=...) "
                                                    "takes (width, height) in inches");
    }
    val fig = val_object_new(&plt_figure_type);
    val_object_set(fig, "_w", val_float(fw * 100));
    val_object_set(fig, "_h", val_float(fh * 100));
    return fig;
}

/* axis('off'), axis('on'), axis('equal'), ...: accepted. */
static val plt_axis(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                    src_span at)
{
    (void)self, (void)kw;
    if (argc > 1)
        return host_raise(h, HOST_EXC_TYPE, at, "axis() takes at most one argument");
    if (argc == 1 && argv[0].kind != VAL_STR && argv[0].kind != VAL_BOOL &&
        argv[0].kind != VAL_TUPLE && argv[0].kind != VAL_LIST)
        return host_raise(h, HOST_EXC_TYPE, at, "axis() takes a string such as 'off', a bool "
                          "or the limits [xmin, xmax, ymin, ymax]");
    return val_none();
}

/* imshow(X, cmap=None, ...): X an image matplotlib can show. */
static val plt_imshow(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                      src_span at)
{
    (void)self, (void)kw;
    if (argc != 1)
        return host_raise(h, HOST_EXC_TYPE, at, "imshow() takes the image, then keywords");
    tensor *t = torch_tensor_arg(h, argv[0], at, "imshow", "X");
    if (!t)
        return val_err();
    if (t->cuda)
        return host_raise(h, HOST_EXC_TYPE, at, "can't convert cuda:0 device type tensor to "
                          "numpy. Use Tensor.cpu() to copy the tensor to host memory first.");
    if (t->ndim != 2 && !(t->ndim == 3 && (t->shape[2] == 3 || t->shape[2] == 4))) {
        strbuf b;
        strbuf_init(&b);
        for (int d = 0; d < t->ndim; d++)
            strbuf_printf(&b, "%s%lld", d ? ", " : "", (long long)t->shape[d]);
        if (t->ndim == 1)
            strbuf_putc(&b, ',');
        host_raise(h, HOST_EXC_TYPE, at, "Invalid shape (%s) for image data (imshow takes "
                   "(H, W) or (H, W, 3 or 4): a (C, H, W) image needs .permute(1, 2, 0))",
                   strbuf_cstr(&b));
        strbuf_free(&b);
        return val_err();
    }
    return val_object_new(&plt_image_type);
}

/* show(), close(...): nothing to show or close. */
static val plt_nothing(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                       src_span at)
{
    (void)h, (void)self, (void)argc, (void)argv, (void)kw, (void)at;
    return val_none();
}

void pyplot_init(host *h)
{
    val mpl = val_module_new("matplotlib");
    val plt = val_module_new("matplotlib.pyplot");
    host_def(plt, "matplotlib.pyplot.figure", plt_figure);
    host_def(plt, "matplotlib.pyplot.axis", plt_axis);
    host_def(plt, "matplotlib.pyplot.imshow", plt_imshow);
    host_def(plt, "matplotlib.pyplot.show", plt_nothing);
    host_def(plt, "matplotlib.pyplot.close", plt_nothing);
    val_object_set(mpl, "pyplot", val_ref(plt));
    host_register_module(h, "matplotlib", mpl);
    host_register_module(h, "matplotlib.pyplot", plt);
}
