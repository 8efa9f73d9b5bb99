/* torch_batchnorm.c - torch.nn.BatchNorm1d and BatchNorm2d, composed of
 * torch operations (mean, var, sqrt, ...) so that autograd differentiates
 * them.  In training mode (or without running statistics) a batch is
 * normalised by its own mean and biased variance over every dimension but
 * the channels (1), and the running statistics, when kept, move by
 * momentum towards the batch's mean and unbiased variance; in eval mode
 * with running statistics those are used.  Attributes and buffers as
 * PyTorch names them (num_features, eps, momentum, affine,
 * track_running_stats, weight, bias, running_mean, running_var,
 * num_batches_tracked); momentum=None (a cumulative average) is refused. */
#include "torch_impl.h"

#include <stdio.h>
#include <string.h>

/* The values made while composing, dropped together (as in torch_nnact.c). */
typedef struct bn_scratch {
    host *h;
    src_span at;
    val keep[40];
    int n;
    bool err;
} bn_scratch;

static val bn_keep(bn_scratch *s, val v)
{
    if (v.kind == VAL_ERR || s->err || s->n == (int)(sizeof s->keep / sizeof *s->keep)) {
        if (v.kind != VAL_ERR)
            val_unref(v);
        if (!s->err && v.kind != VAL_ERR)
            host_raise(s->h, HOST_EXC_RUNTIME, s->at, "internal: too many steps in BatchNorm");
        s->err = true;
        return val_err();
    }
    s->keep[s->n++] = v;
    return v;
}

/* obj.name(args..., **kw) */
static val bn_method(bn_scratch *s, val obj, const char *name, int argc, const val *argv,
                     const val_kwargs *kw)
{
    if (s->err)
        return val_err();
    return bn_keep(s, host_call_method(s->h, obj, name, argc, argv, kw, s->at));
}

/* torch.name(a, b) */
static val bn_torch2(bn_scratch *s, const char *name, val a, val b)
{
    val args[2] = {a, b};
    return bn_method(s, host_module(s->h, "torch"), name, 2, args, NULL);
}

static val bn_attr(bn_scratch *s, val obj, const char *name)
{
    if (s->err)
        return val_err();
    return bn_keep(s, host_getattr(s->h, obj, name, s->at));
}

static bool bn_set(host *h, val self, const char *name, val v, src_span at)
{
    if (v.kind == VAL_ERR)
        return false;
    bool ok = host_setattr(h, self, name, v, at);
    val_unref(v);
    return ok;
}

static val bn_init(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                   src_span at, int nd)
{
    const char *fname = nd == 1 ? "BatchNorm1d" : "BatchNorm2d";
    val a[7];
    if (!host_args(h, at, fname, "num_features, eps=, momentum=, affine=, "
                   "track_running_stats=, device=, dtype=", argc, argv, kw, a))
        return val_err();
    int64_t n;
    double eps = 1e-5, momentum = 0.1;
    bool affine = true, track = true, cuda = false;
    dtype type = DTYPE_FP32;
    if (!torch_int_arg(h, a[0], at, fname, "num_features", &n) ||
        (a[1].kind != VAL_MISSING && !host_to_float(h, a[1], at, "eps", &eps)) ||
        (a[3].kind != VAL_MISSING && !torch_bool_arg(h, a[3], at, fname, "affine", &affine)) ||
        (a[4].kind != VAL_MISSING &&
         !torch_bool_arg(h, a[4], at, fname, "track_running_stats", &track)) ||
        !torch_device_arg(h, a[5], at, fname, &cuda) ||
        !torch_dtype_arg(h, a[6], at, fname, &type))
        return val_err();
    if (a[2].kind == VAL_NONE)
        return host_raise(h, HOST_EXC_NOT_IMPLEMENTED, at, "%s with momentum=None (a "
                          "cumulative average) is not supported by tritsim", fname);
    if (a[2].kind != VAL_MISSING && !host_to_float(h, a[2], at, "momentum", &momentum))
        return val_err();
    torch_module_init_self(self);
    if (!bn_set(h, self, "num_features", val_int(n), at) ||
        !bn_set(h, self, "eps", val_float(eps), at) ||
        !bn_set(h, self, "momentum", val_float(momentum), at) ||
        !bn_set(h, self, "affine", val_bool(affine), at) ||
        !bn_set(h, self, "track_running_stats", val_bool(track), at))
        return val_err();
    char err[TENSOR_ERR_LEN];
    static const char *const pnames[2] = {"weight", "bias"};
    for (int i = 0; i < 2; i++) {
        val p = val_none();
        if (affine) {
            tensor *t = tensor_new(type, 1, &n, cuda, err);
            if (!t)
                return torch_fail(h, at, err);
            tensor_fill(t, dtype_cast((dtype_scalar){.f = i ? 0.0 : 1.0}, DTYPE_FP64, type));
            p = torch_parameter_new(h, t, true, at);
            tensor_unref(t);
            if (p.kind == VAL_ERR)
                return p;
        }
        val args[2] = {val_str_cstr(pnames[i]), p};
        val r = host_call_method(h, self, "register_parameter", 2, args, NULL, at);
        val_unref(args[0]);
        val_unref(p);
        if (r.kind == VAL_ERR)
            return r;
        val_unref(r);
    }
    static const char *const bnames[3] = {"running_mean", "running_var", "num_batches_tracked"};
    for (int i = 0; i < 3; i++) {
        val b = val_none();
        if (track) {
            tensor *t = i == 2 ? tensor_new(DTYPE_INT64, 0, NULL, cuda, err)
                               : tensor_new(type, 1, &n, cuda, err);
            if (!t)
                return torch_fail(h, at, err);
            tensor_fill(t, dtype_cast((dtype_scalar){.f = i == 1 ? 1.0 : 0.0}, DTYPE_FP64,
                                      i == 2 ? DTYPE_INT64 : type));
            b = torch_result(h, at, t, NULL);
        }
        val args[2] = {val_str_cstr(bnames[i]), b};
        val r = host_call_method(h, self, "register_buffer", 2, args, NULL, at);
        val_unref(args[0]);
        val_unref(b);
        if (r.kind == VAL_ERR)
            return r;
        val_unref(r);
    }
    return val_none();
}

static val bn_forward(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                      src_span at, int nd)
{
    const char *fname = nd == 1 ? "BatchNorm1d" : "BatchNorm2d";
    if (argc != 1 || (kw && kw->n))
        return host_raise(h, HOST_EXC_TYPE, at, "forward() takes 2 positional arguments");
    bn_scratch s = {.h = h, .at = at};
    val x = argv[0], y = val_none(), r;
    val dimv = bn_method(&s, x, "dim", 0, NULL, NULL);
    if (s.err)
        goto done;
    int64_t rank = dimv.kind == VAL_INT ? dimv.u.i : 0;
    if (nd == 1 ? rank != 2 && rank != 3 : rank != 4) {
        host_raise(h, HOST_EXC_VALUE, at, "%s: expected %s input (got %lldD input)", fname,
                   nd == 1 ? "2D or 3D" : "4D", (long long)rank);
        s.err = true;
        goto done;
    }
    /* the dimensions reduced, and the shape (1, C, 1, ...) of the statistics */
    val dims = bn_keep(&s, val_list_new(4));
    val shape = bn_keep(&s, val_list_new(4));
    for (int64_t i = 0; !s.err && i < rank; i++) {
        if (i != 1)
            val_list_push(dims, val_int(i));
        val_list_push(shape, val_int(i == 1 ? -1 : 1));
    }
    val training = bn_attr(&s, self, "training");
    val rm = bn_attr(&s, self, "running_mean");
    val rv = bn_attr(&s, self, "running_var");
    val epsv = bn_attr(&s, self, "eps");
    val mom = bn_attr(&s, self, "momentum");
    if (s.err)
        goto done;
    int tr = host_truth(h, training, at);
    if (tr < 0) {
        s.err = true;
        goto done;
    }
    bool batch_stats = tr || rm.kind == VAL_NONE || rv.kind == VAL_NONE;
    val mean, var;
    if (batch_stats) {
        const char *kn[2] = {"dim", "keepdim"};
        val ka[2] = {dims, val_bool(true)};
        val_kwargs mk = {2, kn, ka};
        mean = bn_method(&s, x, "mean", 0, NULL, &mk);
        const char *vn[3] = {"dim", "unbiased", "keepdim"};
        val va[3] = {dims, val_bool(false), val_bool(true)};
        val_kwargs vk = {3, vn, va};
        var = bn_method(&s, x, "var", 0, NULL, &vk);
        if (tr && rm.kind != VAL_NONE && rv.kind != VAL_NONE && !s.err) {
            /* running statistics, without autograd: (1 - m) r + m batch (unbiased var) */
            double m = 0.1;
            if (!host_to_float(h, mom, at, "momentum", &m)) {
                s.err = true;
                goto done;
            }
            val numel = bn_method(&s, x, "numel", 0, NULL, NULL);
            val c = bn_method(&s, x, "size", 1, (val[]){val_int(1)}, NULL);
            if (s.err)
                goto done;
            double cnt = (double)numel.u.i / (double)(c.u.i ? c.u.i : 1);
            double unb = cnt > 1 ? cnt / (cnt - 1) : 1.0;
            val md = bn_method(&s, bn_method(&s, mean, "detach", 0, NULL, NULL), "reshape", 1,
                               (val[]){val_int(-1)}, NULL);
            val vd = bn_method(&s, bn_method(&s, var, "detach", 0, NULL, NULL), "reshape", 1,
                               (val[]){val_int(-1)}, NULL);
            val nm = bn_torch2(&s, "add", bn_torch2(&s, "mul", rm, val_float(1 - m)),
                               bn_torch2(&s, "mul", md, val_float(m)));
            val nv = bn_torch2(&s, "add", bn_torch2(&s, "mul", rv, val_float(1 - m)),
                               bn_torch2(&s, "mul", vd, val_float(m * unb)));
            bn_method(&s, rm, "copy_", 1, &nm, NULL);
            bn_method(&s, rv, "copy_", 1, &nv, NULL);
            val nb = bn_attr(&s, self, "num_batches_tracked");
            if (!s.err && nb.kind != VAL_NONE)
                bn_method(&s, nb, "add_", 1, (val[]){val_int(1)}, NULL);
        }
    } else {
        mean = bn_method(&s, rm, "reshape", 1, &shape, NULL);
        var = bn_method(&s, rv, "reshape", 1, &shape, NULL);
    }
    y = bn_torch2(&s, "div", bn_torch2(&s, "sub", x, mean),
                      bn_method(&s, bn_torch2(&s, "add", var, epsv), "sqrt", 0, NULL, NULL));
    val w = bn_attr(&s, self, "weight");
    val b = bn_attr(&s, self, "bias");
    if (!s.err && w.kind != VAL_NONE)
        y = bn_torch2(&s, "mul", y, bn_method(&s, w, "reshape", 1, &shape, NULL));
    if (!s.err && b.kind != VAL_NONE)
        y = bn_torch2(&s, "add", y, bn_method(&s, b, "reshape", 1, &shape, NULL));
done:
    r = s.err ? val_err() : val_ref(y);
    for (int i = 0; i < s.n; i++)
        val_unref(s.keep[i]);
    return r;
}

/* _check_input_dim(input): what forward checks, for layers derived from these */
static val bn_check(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                    src_span at, int nd)
{
    (void)self, (void)kw;
    if (argc != 1)
        return host_raise(h, HOST_EXC_TYPE, at, "_check_input_dim() takes one input");
    val d = host_getattr(h, argv[0], "dim", at);
    val r = d.kind == VAL_ERR ? d : host_call(h, d, 0, NULL, NULL, at);
    if (d.kind != VAL_ERR)
        val_unref(d);
    if (r.kind == VAL_ERR)
        return r;
    int64_t rank = r.kind == VAL_INT ? r.u.i : 0;
    val_unref(r);
    if (nd == 1 ? rank != 2 && rank != 3 : rank != 4)
        return host_raise(h, HOST_EXC_VALUE, at, "expected %s input (got %lldD input)",
                          nd == 1 ? "2D or 3D" : "4D", (long long)rank);
    return val_none();
}

TORCH_MODULE_METHOD(bn1_init) { return bn_init(h, self, argc, argv, kw, at, 1); }
TORCH_MODULE_METHOD(bn2_init) { return bn_init(h, self, argc, argv, kw, at, 2); }
TORCH_MODULE_METHOD(bn1_forward) { return bn_forward(h, self, argc, argv, kw, at, 1); }
TORCH_MODULE_METHOD(bn2_forward) { return bn_forward(h, self, argc, argv, kw, at, 2); }
TORCH_MODULE_METHOD(bn1_check) { return bn_check(h, self, argc, argv, kw, at, 1); }
TORCH_MODULE_METHOD(bn2_check) { return bn_check(h, self, argc, argv, kw, at, 2); }

void torch_batchnorm_add(host *h, val nn)
{
    (void)h;
    val module = val_object_get(nn, "Module");
    static const struct {
        const char *name, *q[3];
        val_cfunc fn[3];
    } defs[] = {
        {"BatchNorm1d", {"BatchNorm1d.__init__", "BatchNorm1d.forward",
                         "BatchNorm1d._check_input_dim"}, {bn1_init, bn1_forward, bn1_check}},
        {"BatchNorm2d", {"BatchNorm2d.__init__", "BatchNorm2d.forward",
                         "BatchNorm2d._check_input_dim"}, {bn2_init, bn2_forward, bn2_check}},
    };
    static const char *const meth[3] = {"__init__", "forward", "_check_input_dim"};
    for (size_t i = 0; i < 2; i++) {
        val cls = class_new(defs[i].name, module, true);
        val_object_set(cls, "__module__", val_str_cstr("torch.nn"));
        for (int j = 0; j < 3; j++)
            val_object_set(cls, meth[j], val_builtin_new(defs[i].q[j], defs[i].fn[j],
                                                         val_none()));
        val_object_set(nn, defs[i].name, cls);
    }
}
