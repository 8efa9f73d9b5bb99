/* torch_nninit.c - torch.nn.init: the in-place initialisers that modules
 * and tests call (uniform_, normal_, constant_, ones_, zeros_,
 * xavier_uniform_, xavier_normal_, kaiming_uniform_, kaiming_normal_,
 * trunc_normal_), calculate_gain and _calculate_fan_in_and_fan_out, with
 * PyTorch's bounds and messages.  Random values come from tritsim's
 * generator (tensor_random.c), not PyTorch's.  Each writes its tensor
 * without recording anything (PyTorch runs them under no_grad) and
 * returns it. */
#include "torch_impl.h"

#include <math.h>
#include <string.h>

#define INIT_FN(name) \
    static val name(host *h, val self, int argc, const val *argv, const val_kwargs *kw, \
                    src_span at)

static bool init_float(host *h, val v, double dflt, src_span at, const char *arg, double *out)
{
    *out = dflt;
    char what[64];
    snprintf(what, sizeof what, "argument '%s'", arg);
    return v.kind == VAL_MISSING || host_to_float(h, v, at, what, out);
}

/* fan_in and fan_out of a weight (out, in, *receptive). */
static bool init_fans(host *h, const tensor *t, src_span at, double *fan_in, double *fan_out)
{
    if (t->ndim < 2) {
        host_raise(h, HOST_EXC_VALUE, at, "Fan in and fan out can not be computed for tensor "
                   "with fewer than 2 dimensions");
        return false;
    }
    double receptive = 1;
    for (int i = 2; i < t->ndim; i++)
        receptive *= (double)t->shape[i];
    *fan_in = (double)t->shape[1] * receptive;
    *fan_out = (double)t->shape[0] * receptive;
    return true;
}

/* calculate_gain(nonlinearity, param) */
static bool init_gain(host *h, const char *nl, val param, src_span at, double *out,
                      bool *unit_gain)
{
    *unit_gain = false;
    static const char *const unit[] = {"linear", "conv1d", "conv2d", "conv3d",
                                       "conv_transpose1d", "conv_transpose2d",
                                       "conv_transpose3d", "sigmoid", NULL};
    for (int i = 0; unit[i]; i++)
        if (!strcmp(nl, unit[i])) {
            *out = 1;
            *unit_gain = true;      /* PyTorch returns the int 1 */
            return true;
        }
    if (!strcmp(nl, "tanh")) {
        *out = 5.0 / 3;
    } else if (!strcmp(nl, "relu")) {
        *out = sqrt(2.0);
    } else if (!strcmp(nl, "leaky_relu")) {
        double slope = 0.01;
        if (param.kind != VAL_MISSING && param.kind != VAL_NONE) {
            if (param.kind == VAL_BOOL || (param.kind != VAL_INT && param.kind != VAL_FLOAT)) {
                strbuf sb;
                strbuf_init(&sb);
                val_print_repr(h, param, &sb);
                host_raise(h, HOST_EXC_VALUE, at, "negative_slope %s not a valid number",
                           strbuf_cstr(&sb));
                strbuf_free(&sb);
                return false;
            }
            slope = param.kind == VAL_INT ? (double)param.u.i : param.u.f;
        }
        *out = sqrt(2.0 / (1 + slope * slope));
    } else if (!strcmp(nl, "selu")) {
        *out = 3.0 / 4;
    } else {
        host_raise(h, HOST_EXC_VALUE, at, "Unsupported nonlinearity %s", nl);
        return false;
    }
    return true;
}

INIT_FN(fn_calculate_gain)
{
    (void)self;
    val a[2];
    const char *nl;
    double g;
    bool unit;
    if (!host_args(h, at, "calculate_gain", "nonlinearity, param=", argc, argv, kw, a) ||
        !host_to_str(h, a[0], at, "argument 'nonlinearity'", &nl) ||
        !init_gain(h, nl, a[1], at, &g, &unit))
        return val_err();
    return unit ? val_int(1) : val_float(g);
}

INIT_FN(fn_fans)
{
    (void)self;
    val a[1];
    double fi, fo;
    if (!host_args(h, at, "_calculate_fan_in_and_fan_out", "tensor", argc, argv, kw, a))
        return val_err();
    tensor *t = torch_tensor_arg(h, a[0], at, "_calculate_fan_in_and_fan_out", "tensor");
    if (!t || !init_fans(h, t, at, &fi, &fo))
        return val_err();
    val r[2] = {val_int((int64_t)fi), val_int((int64_t)fo)};
    return val_tuple_of(2, r);
}

enum { INIT_UNIFORM, INIT_NORMAL, INIT_CONST, INIT_TRUNC };

/* Fill t: uniform in [a, b), normal(a, b) (b the std), the constant a, or
 * normal(a, b) redrawn until inside [lo, hi]; returns t itself. */
static val init_fill(host *h, val tv, tensor *t, int how, double a, double b, double lo,
                     double hi, src_span at)
{
    (void)h;
    (void)at;
    if (how == INIT_UNIFORM) {
        tensor_fill_uniform(t, a, b);
    } else if (how == INIT_NORMAL) {
        tensor_fill_normal(t, a, b);
    } else if (how == INIT_CONST) {
        tensor_fill(t, dtype_cast((dtype_scalar){.f = a}, DTYPE_FP64, t->type));
    } else {
        /* truncated normal: PyTorch draws through the inverse CDF; here
         * values outside [lo, hi] are drawn again (a different sequence,
         * the same distribution) */
        char err[TENSOR_ERR_LEN];
        int64_t one = 1;
        tensor *s = tensor_new(DTYPE_FP64, 1, &one, false, err);
        int64_t n = tensor_numel(t);
        tensor *flat = tensor_contiguous(t, err);
        for (int64_t i = 0; s && flat && i < n; i++) {
            double v;
            do {
                tensor_fill_normal(s, a, b);
                v = *(double *)tensor_data(s);
            } while (v < lo || v > hi);
            dtype_store(t->type, (char *)tensor_data(flat) + i * dtype_size(t->type),
                        dtype_cast((dtype_scalar){.f = v}, DTYPE_FP64, t->type));
        }
        if (flat && flat != t)
            tensor_copy_into(t, flat, err);
        tensor_unref(flat);
        tensor_unref(s);
    }
    return val_ref(tv);
}

static tensor *init_target(host *h, val v, src_span at, const char *fname)
{
    tensor *t = torch_tensor_arg(h, v, at, fname, "tensor");
    if (t && !dtype_is_float(t->type)) {
        host_error(h, at, "%s: the tensor must have a floating-point dtype", fname);
        return NULL;
    }
    return t;
}

INIT_FN(fn_uniform_)
{
    (void)self;
    val a[4];
    double lo, hi;
    tensor *t;
    if (!host_args(h, at, "uniform_", "tensor, a=, b=, generator=", argc, argv, kw, a) ||
        !(t = init_target(h, a[0], at, "uniform_")) ||
        !init_float(h, a[1], 0.0, at, "a", &lo) || !init_float(h, a[2], 1.0, at, "b", &hi))
        return val_err();
    return init_fill(h, a[0], t, INIT_UNIFORM, lo, hi, 0, 0, at);
}

INIT_FN(fn_normal_)
{
    (void)self;
    val a[4];
    double mean, std;
    tensor *t;
    if (!host_args(h, at, "normal_", "tensor, mean=, std=, generator=", argc, argv, kw, a) ||
        !(t = init_target(h, a[0], at, "normal_")) ||
        !init_float(h, a[1], 0.0, at, "mean", &mean) || !init_float(h, a[2], 1.0, at, "std", &std))
        return val_err();
    return init_fill(h, a[0], t, INIT_NORMAL, mean, std, 0, 0, at);
}

INIT_FN(fn_trunc_normal_)
{
    (void)self;
    val a[6];
    double mean, std, lo, hi;
    tensor *t;
    if (!host_args(h, at, "trunc_normal_", "tensor, mean=, std=, a=, b=, generator=", argc, argv,
                   kw, a) ||
        !(t = init_target(h, a[0], at, "trunc_normal_")) ||
        !init_float(h, a[1], 0.0, at, "mean", &mean) ||
        !init_float(h, a[2], 1.0, at, "std", &std) || !init_float(h, a[3], -2.0, at, "a", &lo) ||
        !init_float(h, a[4], 2.0, at, "b", &hi))
        return val_err();
    if (!(lo < hi) || std <= 0)
        return host_raise(h, HOST_EXC_VALUE, at, "trunc_normal_ needs a < b and std > 0");
    return init_fill(h, a[0], t, INIT_TRUNC, mean, std, lo, hi, at);
}

INIT_FN(fn_constant_)
{
    (void)self;
    val a[2];
    double v;
    tensor *t;
    if (!host_args(h, at, "constant_", "tensor, val", argc, argv, kw, a) ||
        !(t = torch_tensor_arg(h, a[0], at, "constant_", "tensor")) ||
        !host_to_float(h, a[1], at, "argument 'val'", &v))
        return val_err();
    return init_fill(h, a[0], t, INIT_CONST, v, 0, 0, 0, at);
}

static val init_const(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                      src_span at, const char *fname, double v)
{
    (void)self;
    val a[1];
    tensor *t;
    if (!host_args(h, at, fname, "tensor", argc, argv, kw, a) ||
        !(t = torch_tensor_arg(h, a[0], at, fname, "tensor")))
        return val_err();
    return init_fill(h, a[0], t, INIT_CONST, v, 0, 0, 0, at);
}

HOST_CFUNC_CALLING(fn_zeros_, init_const, "zeros_", 0.0)
HOST_CFUNC_CALLING(fn_ones_, init_const, "ones_", 1.0)

/* xavier_uniform_(tensor, gain=1.0), xavier_normal_(tensor, gain=1.0) */
static val init_xavier(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                       src_span at, const char *fname, int how)
{
    (void)self;
    val a[3];
    double gain, fi, fo;
    tensor *t;
    if (!host_args(h, at, fname, "tensor, gain=, generator=", argc, argv, kw, a) ||
        !(t = init_target(h, a[0], at, fname)) || !init_float(h, a[1], 1.0, at, "gain", &gain) ||
        !init_fans(h, t, at, &fi, &fo))
        return val_err();
    double std = gain * sqrt(2.0 / (fi + fo));
    if (how == INIT_UNIFORM)
        return init_fill(h, a[0], t, INIT_UNIFORM, -sqrt(3.0) * std, sqrt(3.0) * std, 0, 0, at);
    return init_fill(h, a[0], t, INIT_NORMAL, 0, std, 0, 0, at);
}

HOST_CFUNC_CALLING(fn_xavier_uniform_, init_xavier, "xavier_uniform_", INIT_UNIFORM)
HOST_CFUNC_CALLING(fn_xavier_normal_, init_xavier, "xavier_normal_", INIT_NORMAL)

/* kaiming_uniform_/kaiming_normal_(tensor, a=0, mode='fan_in',
 * nonlinearity='leaky_relu', generator=None) */
static val init_kaiming(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                        src_span at, const char *fname, int how)
{
    (void)self;
    val a[5];
    const char *mode = "fan_in", *nl = "leaky_relu";
    double fi, fo, gain;
    tensor *t;
    if (!host_args(h, at, fname, "tensor, a=, mode=, nonlinearity=, generator=", argc, argv, kw,
                   a) ||
        !(t = init_target(h, a[0], at, fname)) ||
        (a[2].kind != VAL_MISSING && !host_to_str(h, a[2], at, "argument 'mode'", &mode)) ||
        (a[3].kind != VAL_MISSING && !host_to_str(h, a[3], at, "argument 'nonlinearity'", &nl)))
        return val_err();
    if (strcmp(mode, "fan_in") && strcmp(mode, "fan_out"))
        return host_raise(h, HOST_EXC_VALUE, at, "Mode %s not supported, please use one of "
                          "['fan_in', 'fan_out']", mode);
    val slope = a[1].kind == VAL_MISSING ? val_int(0) : a[1];
    bool unit;
    if (!init_fans(h, t, at, &fi, &fo) || !init_gain(h, nl, slope, at, &gain, &unit))
        return val_err();
    double fan = strcmp(mode, "fan_in") ? fo : fi;
    if (fan == 0)
        return val_ref(a[0]);   /* PyTorch warns and leaves the tensor */
    double std = gain / sqrt(fan);
    if (how == INIT_UNIFORM)
        return init_fill(h, a[0], t, INIT_UNIFORM, -sqrt(3.0) * std, sqrt(3.0) * std, 0, 0, at);
    return init_fill(h, a[0], t, INIT_NORMAL, 0, std, 0, 0, at);
}

HOST_CFUNC_CALLING(fn_kaiming_uniform_, init_kaiming, "kaiming_uniform_", INIT_UNIFORM)
HOST_CFUNC_CALLING(fn_kaiming_normal_, init_kaiming, "kaiming_normal_", INIT_NORMAL)

void torch_nninit_add(host *h, val nn)
{
    static const struct {
        const char *name;
        val_cfunc fn;
    } fns[] = {
        {"torch.nn.init.uniform_", fn_uniform_},
        {"torch.nn.init.normal_", fn_normal_},
        {"torch.nn.init.trunc_normal_", fn_trunc_normal_},
        {"torch.nn.init.constant_", fn_constant_},
        {"torch.nn.init.zeros_", fn_zeros_},
        {"torch.nn.init.ones_", fn_ones_},
        {"torch.nn.init.xavier_uniform_", fn_xavier_uniform_},
        {"torch.nn.init.xavier_normal_", fn_xavier_normal_},
        {"torch.nn.init.kaiming_uniform_", fn_kaiming_uniform_},
        {"torch.nn.init.kaiming_normal_", fn_kaiming_normal_},
        {"torch.nn.init.calculate_gain", fn_calculate_gain},
        {"torch.nn.init._calculate_fan_in_and_fan_out", fn_fans},
    };
    val init = val_module_new("torch.nn.init");
    for (size_t i = 0; i < sizeof fns / sizeof *fns; i++)
        host_def(init, fns[i].name, fns[i].fn);
    val_object_set(nn, "init", val_ref(init));
    host_register_module(h, "torch.nn.init", init);
}
