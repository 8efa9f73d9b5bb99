/* torch_convpool.c - the modules torch.nn.Conv1d, Conv2d, AvgPool1d and
 * AvgPool2d, all through torch.nn.functional.conv2d (whose backward
 * autograd has): a 1-d convolution is a 2-d one over a height of 1, and an
 * average pool a grouped convolution with a kernel of 1 / (kh * kw).
 *
 * The modules keep PyTorch's attributes as PyTorch stores them, which
 * programs deriving their own layers read: Conv*d's kernel_size, stride,
 * padding and dilation as tuples of 1 or 2 ints, AvgPool1d's as 1-tuples,
 * AvgPool2d's as given.  Conv weights start as PyTorch initialises them
 * (uniform within 1/sqrt(fan_in)), drawn from tritsim's generator.
 * Supported: padding_mode 'zeros', numeric padding, batched inputs;
 * AvgPool with ceil_mode=False, count_include_pad=True and no
 * divisor_override (others are refused with a message).
 *
 * torch.nn.grad.conv2d_input and conv2d_weight, the gradients of conv2d
 * with respect to its input and its weight, which layers with a backward of
 * their own call: autograd of conv2d, with grad mode on for the call. */
#define _POSIX_C_SOURCE 200809L
#include "torch_impl.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- helpers ------------------------------------------------------------------------ */

static bool cp_given(val v)
{
    return v.kind != VAL_MISSING && v.kind != VAL_NONE;
}

/* v (an int or a sequence of n ints; dflt when not given) as n ints. */
static bool cp_ints(host *h, val v, int n, int64_t dflt, src_span at, const char *fname,
                    const char *arg, int64_t *out)
{
    if (!cp_given(v)) {
        for (int i = 0; i < n; i++)
            out[i] = dflt;
        return true;
    }
    if (v.kind == VAL_INT) {
        for (int i = 0; i < n; i++)
            out[i] = v.u.i;
        return true;
    }
    int got = 0;
    if (!torch_int_list(h, v, at, fname, arg, &got, out, n))
        return false;
    if (got != n) {
        host_raise(h, HOST_EXC_VALUE, at, "%s: %s must be an int or %d ints", fname, arg, n);
        return false;
    }
    return true;
}

static val cp_tuple(int n, const int64_t *v)
{
    val t = val_tuple_new((size_t)n);
    for (int i = 0; i < n; i++)
        val_seq_set(t, (size_t)i, val_int(v[i]));
    return t;
}

/* self.name = v (v stolen) */
static bool cp_set(host *h, val self, const char *name, val v, src_span at)
{
    if (v.kind == VAL_ERR)
        return false;
    bool ok = host_setattr(h, self, name, v, at);
    val_unref(v);
    return ok;
}

/* F.conv2d(x, w, bias, stride, padding, dilation, groups) */
static val cp_conv2d(host *h, val x, val w, val bias, const int64_t *stride,
                     const int64_t *padding, const int64_t *dilation, int64_t groups,
                     src_span at)
{
    val f = host_getattr(h, host_module(h, "torch.nn.functional"), "conv2d", at);
    if (f.kind == VAL_ERR)
        return f;
    val args[7] = {x, w, bias, cp_tuple(2, stride), cp_tuple(2, padding),
                   cp_tuple(2, dilation), val_int(groups)};
    val r = host_call(h, f, 7, args, NULL, at);
    for (int i = 3; i < 6; i++)
        val_unref(args[i]);
    val_unref(f);
    return r;
}

/* ---- Conv1d, Conv2d ------------------------------------------------------------------- */

static val cp_conv_init(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                        src_span at, int nd)
{
    const char *fname = nd == 1 ? "Conv1d" : "Conv2d";
    val a[11];
    if (!host_args(h, at, fname, "in_channels, out_channels, kernel_size, stride=, padding=, "
                   "dilation=, groups=, bias=, padding_mode=, device=, dtype=", argc, argv, kw,
                   a))
        return val_err();
    int64_t in, out, groups = 1, k[2], s[2], p[2], d[2];
    bool bias = true, cuda = false;
    dtype type = DTYPE_FP32;
    const char *mode = "zeros";
    if (!torch_int_arg(h, a[0], at, fname, "in_channels", &in) ||
        !torch_int_arg(h, a[1], at, fname, "out_channels", &out) ||
        !cp_ints(h, a[2], nd, 1, at, fname, "kernel_size", k) ||
        !cp_ints(h, a[3], nd, 1, at, fname, "stride", s) ||
        !cp_ints(h, a[5], nd, 1, at, fname, "dilation", d) ||
        (cp_given(a[6]) && !torch_int_arg(h, a[6], at, fname, "groups", &groups)) ||
        (a[7].kind != VAL_MISSING && !torch_bool_arg(h, a[7], at, fname, "bias", &bias)) ||
        (cp_given(a[8]) && !host_to_str(h, a[8], at, "padding_mode", &mode)) ||
        !torch_device_arg(h, a[9], at, fname, &cuda) || !torch_dtype_arg(h, a[10], at, fname,
                                                                          &type))
        return val_err();
    if (a[4].kind == VAL_STR)
        return host_raise(h, HOST_EXC_NOT_IMPLEMENTED, at, "%s: padding given as a string is "
                          "not supported by tritsim (give the numbers)", fname);
    if (!cp_ints(h, a[4], nd, 0, at, fname, "padding", p))
        return val_err();
    if (strcmp(mode, "zeros"))
        return host_raise(h, HOST_EXC_NOT_IMPLEMENTED, at, "%s: padding_mode '%s' is not "
                          "supported by tritsim ('zeros' is)", fname, mode);
    if (groups < 1 || in % groups || out % groups)
        return host_raise(h, HOST_EXC_VALUE, at, "%s: in_channels and out_channels must be "
                          "divisible by groups", fname);
    torch_module_init_self(self);
    int64_t shape[4] = {out, in / groups, k[0], nd == 2 ? k[1] : 1};
    int64_t fan_in = in / groups * k[0] * (nd == 2 ? k[1] : 1);
    double bound = fan_in > 0 ? 1.0 / sqrt((double)fan_in) : 0.0;
    char err[TENSOR_ERR_LEN];
    tensor *w = tensor_new(type, nd + 2, shape, cuda, err);
    if (!w)
        return torch_fail(h, at, err);
    tensor_fill_uniform(w, -bound, bound);
    val wp = torch_parameter_new(h, w, true, at);
    tensor_unref(w);
    if (!cp_set(h, self, "in_channels", val_int(in), at) ||
        !cp_set(h, self, "out_channels", val_int(out), at) ||
        !cp_set(h, self, "kernel_size", cp_tuple(nd, k), at) ||
        !cp_set(h, self, "stride", cp_tuple(nd, s), at) ||
        !cp_set(h, self, "padding", cp_tuple(nd, p), at) ||
        !cp_set(h, self, "dilation", cp_tuple(nd, d), at) ||
        !cp_set(h, self, "groups", val_int(groups), at) ||
        !cp_set(h, self, "padding_mode", val_str_cstr(mode), at) ||
        !cp_set(h, self, "weight", wp, at))
        return val_err();
    val b = val_none();
    if (bias) {
        tensor *t = tensor_new(type, 1, &out, cuda, err);
        if (!t)
            return torch_fail(h, at, err);
        tensor_fill_uniform(t, -bound, bound);
        b = torch_parameter_new(h, t, true, at);
        tensor_unref(t);
        if (b.kind == VAL_ERR)
            return b;
    }
    val args[2] = {val_str_cstr("bias"), b};
    val r = host_call_method(h, self, "register_parameter", 2, args, NULL, at);
    val_unref(args[0]);
    val_unref(b);
    if (r.kind == VAL_ERR)
        return r;
    val_unref(r);
    return val_none();
}

/* self.name as nd ints */
static bool cp_attr_ints(host *h, val self, const char *name, int nd, src_span at,
                         int64_t *out)
{
    val v = host_getattr(h, self, name, at);
    if (v.kind == VAL_ERR)
        return false;
    bool ok = cp_ints(h, v, nd, 1, at, "forward", name, out);
    val_unref(v);
    return ok;
}

static val cp_conv_forward(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                           src_span at, int nd)
{
    if (argc != 1 || (kw && kw->n))
        return host_raise(h, HOST_EXC_TYPE, at, "forward() takes 2 positional arguments");
    int64_t s[2] = {1, 1}, p[2] = {0, 0}, d[2] = {1, 1}, groups;
    val g = host_getattr(h, self, "groups", at);
    if (g.kind == VAL_ERR)
        return g;
    bool ok = torch_int_arg(h, g, at, "forward", "groups", &groups);
    val_unref(g);
    if (!ok || !cp_attr_ints(h, self, "stride", nd, at, nd == 2 ? s : s + 1) ||
        !cp_attr_ints(h, self, "padding", nd, at, nd == 2 ? p : p + 1) ||
        !cp_attr_ints(h, self, "dilation", nd, at, nd == 2 ? d : d + 1))
        return val_err();
    val w = host_getattr(h, self, "weight", at);
    val b = w.kind == VAL_ERR ? w : host_getattr(h, self, "bias", at);
    if (b.kind == VAL_ERR) {
        val_unref(w);
        return b;
    }
    val r;
    if (nd == 2) {
        r = cp_conv2d(h, argv[0], w, b, s, p, d, groups, at);
    } else {
        val m2 = val_int(-2);
        val x4 = host_call_method(h, argv[0], "unsqueeze", 1, &m2, NULL, at);
        val w4 = x4.kind == VAL_ERR ? x4 : host_call_method(h, w, "unsqueeze", 1, &m2, NULL, at);
        val y = w4.kind == VAL_ERR ? w4 : cp_conv2d(h, x4, w4, b, s, p, d, groups, at);
        r = y.kind == VAL_ERR ? y : host_call_method(h, y, "squeeze", 1, &m2, NULL, at);
        if (x4.kind != VAL_ERR)
            val_unref(x4);
        if (w4.kind != VAL_ERR && x4.kind != VAL_ERR)
            val_unref(w4);
        if (y.kind != VAL_ERR)
            val_unref(y);
    }
    val_unref(w);
    val_unref(b);
    return r;
}

TORCH_MODULE_METHOD(conv1d_init)
{
    return cp_conv_init(h, self, argc, argv, kw, at, 1);
}

TORCH_MODULE_METHOD(conv2d_init)
{
    return cp_conv_init(h, self, argc, argv, kw, at, 2);
}

TORCH_MODULE_METHOD(conv1d_forward)
{
    return cp_conv_forward(h, self, argc, argv, kw, at, 1);
}

TORCH_MODULE_METHOD(conv2d_forward)
{
    return cp_conv_forward(h, self, argc, argv, kw, at, 2);
}

/* ---- AvgPool1d, AvgPool2d ------------------------------------------------------------------ */

static val cp_pool_init(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                        src_span at, int nd)
{
    const char *fname = nd == 1 ? "AvgPool1d" : "AvgPool2d";
    val a[6] = {val_missing(), val_missing(), val_missing(), val_missing(), val_missing(),
                val_missing()};
    if (!host_args(h, at, fname, nd == 1 ? "kernel_size, stride=, padding=, ceil_mode=, "
                                           "count_include_pad="
                                         : "kernel_size, stride=, padding=, ceil_mode=, "
                                           "count_include_pad=, divisor_override=",
                   argc, argv, kw, a))
        return val_err();
    torch_module_init_self(self);
    val ks = val_ref(a[0]);
    val st = cp_given(a[1]) ? val_ref(a[1]) : val_ref(a[0]);
    val pd = a[2].kind == VAL_MISSING ? val_int(0) : val_ref(a[2]);
    if (nd == 1) {
        int64_t k, s, p;
        bool ok = cp_ints(h, ks, 1, 1, at, fname, "kernel_size", &k) &&
                  cp_ints(h, st, 1, 1, at, fname, "stride", &s) &&
                  cp_ints(h, pd, 1, 0, at, fname, "padding", &p);
        val_unref(ks), val_unref(st), val_unref(pd);
        if (!ok)
            return val_err();
        ks = cp_tuple(1, &k), st = cp_tuple(1, &s), pd = cp_tuple(1, &p);
    }
    if (!cp_set(h, self, "kernel_size", ks, at) || !cp_set(h, self, "stride", st, at) ||
        !cp_set(h, self, "padding", pd, at) ||
        !cp_set(h, self, "ceil_mode", a[3].kind == VAL_MISSING ? val_bool(false)
                                                               : val_ref(a[3]), at) ||
        !cp_set(h, self, "count_include_pad", a[4].kind == VAL_MISSING ? val_bool(true)
                                                                       : val_ref(a[4]), at))
        return val_err();
    if (nd == 2 && !cp_set(h, self, "divisor_override", a[5].kind == VAL_MISSING
                                                            ? val_none() : val_ref(a[5]), at))
        return val_err();
    return val_none();
}

static val cp_pool_forward(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                           src_span at, int nd)
{
    const char *fname = nd == 1 ? "AvgPool1d" : "AvgPool2d";
    if (argc != 1 || (kw && kw->n))
        return host_raise(h, HOST_EXC_TYPE, at, "forward() takes 2 positional arguments");
    int64_t k[2] = {1, 1}, s[2] = {1, 1}, p[2] = {0, 0}, dil[2] = {1, 1};
    if (!cp_attr_ints(h, self, "kernel_size", nd, at, nd == 2 ? k : k + 1) ||
        !cp_attr_ints(h, self, "stride", nd, at, nd == 2 ? s : s + 1))
        return val_err();
    val pv = host_getattr(h, self, "padding", at);
    if (pv.kind == VAL_ERR)
        return pv;
    bool ok = cp_ints(h, pv, nd, 0, at, fname, "padding", nd == 2 ? p : p + 1);
    val_unref(pv);
    if (!ok)
        return val_err();
    const char *flags[3] = {"ceil_mode", "count_include_pad", "divisor_override"};
    for (int i = 0; i < (nd == 2 ? 3 : 2); i++) {
        val f = host_getattr(h, self, flags[i], at);
        if (f.kind == VAL_ERR)
            return f;
        int t = i == 2 ? f.kind != VAL_NONE : host_truth(h, f, at);
        val_unref(f);
        if (t < 0)
            return val_err();
        if (t != (i == 1))
            return host_raise(h, HOST_EXC_NOT_IMPLEMENTED, at, "%s with %s=%s is not "
                              "supported by tritsim", fname, flags[i],
                              i == 0 ? "True" : i == 1 ? "False" : "a number");
    }
    val x = argv[0];
    val dimv = host_call_method(h, x, "dim", 0, NULL, NULL, at);
    if (dimv.kind == VAL_ERR)
        return dimv;
    int64_t rank = dimv.kind == VAL_INT ? dimv.u.i : -1;
    val_unref(dimv);
    if (rank != nd + 2)
        return host_raise(h, HOST_EXC_NOT_IMPLEMENTED, at, "%s: tritsim takes a batched "
                          "input of %d dimensions", fname, nd + 2);
    val one = val_int(1);
    val cv = host_call_method(h, x, "size", 1, &one, NULL, at);
    if (cv.kind == VAL_ERR)
        return cv;
    int64_t c = cv.kind == VAL_INT ? cv.u.i : 1;
    val_unref(cv);
    /* the kernel: torch.full((c, 1, kh, kw), 1 / (kh kw), dtype=x.dtype, device=x.device) */
    int64_t kshape[4] = {c, 1, k[0], k[1]};
    val dt = host_getattr(h, x, "dtype", at);
    val dev = dt.kind == VAL_ERR ? dt : host_getattr(h, x, "device", at);
    if (dev.kind == VAL_ERR) {
        if (dt.kind != VAL_ERR)
            val_unref(dt);
        return dev;
    }
    val full = host_getattr(h, host_module(h, "torch"), "full", at);
    val r = full;
    if (full.kind != VAL_ERR) {
        const char *names[2] = {"dtype", "device"};
        val args[4] = {cp_tuple(4, kshape), val_float(1.0 / (double)(k[0] * k[1])), dt, dev};
        val_kwargs kwa = {2, names, args + 2};
        val w = host_call(h, full, 2, args, &kwa, at);
        val_unref(args[0]);
        val_unref(full);
        r = w;
        if (w.kind != VAL_ERR) {
            if (nd == 2) {
                r = cp_conv2d(h, x, w, val_none(), s, p, dil, c, at);
            } else {
                val m2 = val_int(-2);
                val x4 = host_call_method(h, x, "unsqueeze", 1, &m2, NULL, at);
                val y = x4.kind == VAL_ERR ? x4
                                           : cp_conv2d(h, x4, w, val_none(), s, p, dil, c, at);
                r = y.kind == VAL_ERR ? y : host_call_method(h, y, "squeeze", 1, &m2, NULL, at);
                if (x4.kind != VAL_ERR)
                    val_unref(x4);
                if (y.kind != VAL_ERR)
                    val_unref(y);
            }
            val_unref(w);
        }
    }
    val_unref(dt);
    val_unref(dev);
    return r;
}

TORCH_MODULE_METHOD(pool1d_init)
{
    return cp_pool_init(h, self, argc, argv, kw, at, 1);
}

TORCH_MODULE_METHOD(pool2d_init)
{
    return cp_pool_init(h, self, argc, argv, kw, at, 2);
}

TORCH_MODULE_METHOD(pool1d_forward)
{
    return cp_pool_forward(h, self, argc, argv, kw, at, 1);
}

TORCH_MODULE_METHOD(pool2d_forward)
{
    return cp_pool_forward(h, self, argc, argv, kw, at, 2);
}

/* torch.<a>.<b>(args...) */
static val cp_torch_call(host *h, const char *mod, const char *fn, int argc, const val *argv,
                         const val_kwargs *kw, src_span at)
{
    val f = host_getattr(h, host_module(h, mod), fn, at);
    if (f.kind == VAL_ERR)
        return f;
    val r = host_call(h, f, argc, argv, kw, at);
    val_unref(f);
    return r;
}

/* The gradient of conv2d(input, weight, ...) with respect to input (wrt 0)
 * or weight (wrt 1), given grad_output: the other operand is detached, the
 * one asked for a zero leaf of the given size. */
static val cp_conv_grad(host *h, int argc, const val *argv, const val_kwargs *kw, src_span at,
                        int wrt)
{
    const char *fname = wrt ? "conv2d_weight" : "conv2d_input";
    val a[7];
    if (!host_args(h, at, fname, wrt ? "input, weight_size, grad_output, stride=, padding=, "
                                       "dilation=, groups="
                                     : "input_size, weight, grad_output, stride=, padding=, "
                                       "dilation=, groups=", argc, argv, kw, a))
        return val_err();
    int64_t s[2], p[2], d[2], groups = 1;
    if (!cp_ints(h, a[3], 2, 1, at, fname, "stride", s) ||
        !cp_ints(h, a[4], 2, 0, at, fname, "padding", p) ||
        !cp_ints(h, a[5], 2, 1, at, fname, "dilation", d) ||
        (cp_given(a[6]) && !torch_int_arg(h, a[6], at, fname, "groups", &groups)))
        return val_err();
    val known = wrt ? a[0] : a[1];
    val was = cp_torch_call(h, "torch", "is_grad_enabled", 0, NULL, NULL, at);
    if (was.kind == VAL_ERR)
        return was;
    val on = val_bool(true);
    val t = cp_torch_call(h, "torch", "set_grad_enabled", 1, &on, NULL, at);
    if (t.kind == VAL_ERR)
        return t;
    val_unref(t);
    /* torch.zeros(size, dtype=known.dtype, device=known.device).requires_grad_() */
    val r = val_err();
    val dt = host_getattr(h, known, "dtype", at);
    val dev = dt.kind == VAL_ERR ? dt : host_getattr(h, known, "device", at);
    if (dev.kind != VAL_ERR) {
        const char *names[2] = {"dtype", "device"};
        val zargs[3] = {wrt ? a[1] : a[0], dt, dev};
        val_kwargs zk = {2, names, zargs + 1};
        val z = cp_torch_call(h, "torch", "zeros", 1, zargs, &zk, at);
        val leaf = z.kind == VAL_ERR ? z
                                     : host_call_method(h, z, "requires_grad_", 0, NULL, NULL, at);
        val kd = leaf.kind == VAL_ERR ? leaf
                                      : host_call_method(h, known, "detach", 0, NULL, NULL, at);
        val out = val_err();
        if (kd.kind != VAL_ERR)
            out = cp_conv2d(h, wrt ? kd : leaf, wrt ? leaf : kd, val_none(), s, p, d, groups,
                            at);
        if (out.kind != VAL_ERR) {
            val gargs[3] = {out, leaf, a[2]};
            val gr = cp_torch_call(h, "torch.autograd", "grad", 3, gargs, NULL, at);
            if (gr.kind == VAL_TUPLE && val_as_seq(gr)->len == 1)
                r = val_ref(val_as_seq(gr)->items[0]);
            else if (gr.kind != VAL_ERR)
                r = host_raise(h, HOST_EXC_RUNTIME, at, "%s: no gradient", fname);
            if (gr.kind != VAL_ERR)
                val_unref(gr);
            val_unref(out);
        }
        if (kd.kind != VAL_ERR)
            val_unref(kd);
        if (leaf.kind != VAL_ERR)
            val_unref(leaf);
        if (z.kind != VAL_ERR)
            val_unref(z);
        val_unref(dev);
    }
    if (dt.kind != VAL_ERR)
        val_unref(dt);
    /* grad mode back as it was, keeping the first error */
    val saved = r.kind == VAL_ERR ? host_exc_take(h) : val_none();
    t = cp_torch_call(h, "torch", "set_grad_enabled", 1, &was, NULL, at);
    val_unref(was);
    if (t.kind != VAL_ERR)
        val_unref(t);
    if (r.kind == VAL_ERR) {
        if (t.kind == VAL_ERR)
            val_unref(host_exc_take(h));
        h->exc = saved;
    }
    return r;
}

static val fn_conv2d_input(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                           src_span at)
{
    (void)self;
    return cp_conv_grad(h, argc, argv, kw, at, 0);
}

static val fn_conv2d_weight(host *h, val self, int argc, const val *argv,
                            const val_kwargs *kw, src_span at)
{
    (void)self;
    return cp_conv_grad(h, argc, argv, kw, at, 1);
}

void torch_convpool_add(host *h, val nn)
{
    val module = val_object_get(nn, "Module");
    static const struct {
        const char *name, *init_q, *fwd_q;
        val_cfunc init, fwd;
    } defs[] = {
        {"Conv1d", "Conv1d.__init__", "Conv1d.forward", conv1d_init, conv1d_forward},
        {"Conv2d", "Conv2d.__init__", "Conv2d.forward", conv2d_init, conv2d_forward},
        {"AvgPool1d", "AvgPool1d.__init__", "AvgPool1d.forward", pool1d_init, pool1d_forward},
        {"AvgPool2d", "AvgPool2d.__init__", "AvgPool2d.forward", pool2d_init, pool2d_forward},
    };
    for (size_t i = 0; i < sizeof defs / sizeof *defs; i++) {
        val cls = class_new(defs[i].name, module, true);
        val_object_set(cls, "__module__", val_str_cstr("torch.nn"));
        val_object_set(cls, "__init__", val_builtin_new(defs[i].init_q, defs[i].init, val_none()));
        val_object_set(cls, "forward", val_builtin_new(defs[i].fwd_q, defs[i].fwd, val_none()));
        val_object_set(nn, defs[i].name, cls);
    }
    val grad = val_module_new("torch.nn.grad");
    val_object_set(grad, "conv2d_input", val_builtin_new("torch.nn.grad.conv2d_input",
                                                         fn_conv2d_input, val_none()));
    val_object_set(grad, "conv2d_weight", val_builtin_new("torch.nn.grad.conv2d_weight",
                                                          fn_conv2d_weight, val_none()));
    val_object_set(nn, "grad", val_ref(grad));
    host_register_module(h, "torch.nn.grad", grad);
}
