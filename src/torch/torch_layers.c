/* torch_layers.c - the modules of torch.nn that programs use as they are or
 * compare their own against: Linear, LayerNorm, RMSNorm, GroupNorm,
 * Embedding, Dropout, the activations (GELU, SiLU, ReLU, Tanh, Sigmoid,
 * Softmax, LogSoftmax), Identity, the losses (CrossEntropyLoss, NLLLoss,
 * MSELoss, KLDivLoss, L1Loss, SmoothL1Loss, BCEWithLogitsLoss) and the containers
 * Sequential, ModuleList and ModuleDict.
 *
 * Each is a built-in class derived from torch.nn.Module (torch_module.c)
 * with PyTorch's constructor arguments, attributes and extra_repr; its
 * forward calls the torch.nn.functional operation with the module's
 * attributes, described by a table entry (layer_fwd) that the one forward
 * function reads.  Parameters start as PyTorch initialises them (Linear's
 * kaiming-uniform bounds, Embedding's normal rows, norms' ones and zeros),
 * drawn from tritsim's generator, so their random values are not
 * PyTorch's. */
#define _POSIX_C_SOURCE 200809L
#include "torch_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LAYER_FN(name) TORCH_MODULE_METHOD(name)

/* ---- helpers ------------------------------------------------------------------------ */

/* self.name = v (v stolen), through Module.__setattr__. */
static bool lay_set(host *h, val self, const char *name, val v, src_span at)
{
    if (v.kind == VAL_ERR)
        return false;
    bool ok = host_setattr(h, self, name, v, at);
    val_unref(v);
    return ok;
}

static bool lay_given(val v)
{
    return v.kind != VAL_MISSING && v.kind != VAL_NONE;
}

/* The device= and dtype= of a module's constructor. */
typedef struct lay_factory {
    dtype type;
    bool cuda;
} lay_factory;

static bool lay_factory_args(host *h, val device, val type, src_span at, const char *fname,
                             lay_factory *f)
{
    f->type = DTYPE_FP32;
    f->cuda = false;
    return torch_device_arg(h, device, at, fname, &f->cuda) &&
           torch_dtype_arg(h, type, at, fname, &f->type);
}

enum { LAY_ZEROS, LAY_ONES, LAY_UNIFORM, LAY_NORMAL };

/* A Parameter of the given shape, filled as init says (bound: the uniform
 * range's half-width). */
static val lay_param(host *h, const lay_factory *f, int ndim, const int64_t *shape, int init,
                     double bound, src_span at)
{
    char err[TENSOR_ERR_LEN];
    tensor *t = tensor_new(f->type, ndim, shape, f->cuda, err);
    if (!t)
        return torch_fail(h, at, err);
    if (init == LAY_ONES)
        tensor_fill(t, dtype_cast((dtype_scalar){.f = 1.0}, DTYPE_FP64, f->type));
    else if (init == LAY_UNIFORM)
        tensor_fill_uniform(t, -bound, bound);
    else if (init == LAY_NORMAL)
        tensor_fill_normal(t, 0.0, 1.0);
    val p = torch_parameter_new(h, t, true, at);
    tensor_unref(t);
    return p;
}

/* normalized_shape: an int or a sequence of ints, as a tuple. */
static val lay_shape_tuple(host *h, val v, src_span at, const char *fname, int *n,
                           int64_t *shape)
{
    if (!torch_int_list(h, v, at, fname, "normalized_shape", n, shape, TENSOR_MAX_DIMS))
        return val_err();
    val t = val_tuple_new((size_t)*n);
    for (int i = 0; i < *n; i++)
        val_seq_set(t, (size_t)i, val_int(shape[i]));
    return t;
}

static bool lay_bool(host *h, val v, bool dflt, src_span at, const char *fname,
                     const char *arg, bool *out)
{
    *out = dflt;
    return v.kind == VAL_MISSING || torch_bool_arg(h, v, at, fname, arg, out);
}

static bool lay_float(host *h, val v, double dflt, src_span at, const char *arg, double *out)
{
    *out = dflt;
    char what[64];
    snprintf(what, sizeof what, "argument '%s'", arg);
    return v.kind == VAL_MISSING || host_to_float(h, v, at, what, out);
}

static bool lay_int(host *h, val v, src_span at, const char *fname, const char *arg,
                    int64_t *out)
{
    return torch_int_arg(h, v, at, fname, arg, out);
}

/* Module.__init__(self) */
static void lay_init(val self)
{
    torch_module_init_self(self);
}

/* ---- forward through torch.nn.functional ---------------------------------------------- */

/* forward(inputs...) = <module>.<fn>(inputs..., self.<pos>..., <kw>=self.<kw>...) */
typedef struct layer_fwd {
    const char *module, *fn;
    int ninputs;
    const char *pos[7];
    const char *kw[5];
} layer_fwd;

LAYER_FN(lay_forward)
{
    const layer_fwd *f = h->calling->data;
    if (argc != f->ninputs || (kw && kw->n))
        return host_raise(h, HOST_EXC_TYPE, at, "forward() takes %d positional argument%s but "
                          "%d were given", f->ninputs + 1, f->ninputs ? "s" : "",
                          argc + 1 + (kw ? kw->n : 0));
    val args[12];
    const char *kwnames[5];
    int n = 0, nk = 0;
    for (int i = 0; i < argc; i++)
        args[n++] = val_ref(argv[i]);
    bool ok = true;
    for (int i = 0; ok && f->pos[i]; i++)
        ok = (args[n++] = host_getattr(h, self, f->pos[i], at)).kind != VAL_ERR;
    for (int i = 0; ok && f->kw[i]; i++) {
        kwnames[nk++] = f->kw[i];
        ok = (args[n++] = host_getattr(h, self, f->kw[i], at)).kind != VAL_ERR;
    }
    val r = val_err();
    if (ok) {
        val mod = host_module(h, f->module);
        val_kwargs k = {nk, kwnames, args + n - nk};
        r = host_call_method(h, mod, f->fn, n - nk, args, &k, at);
    }
    for (int i = 0; i < n; i++)
        val_unref(args[i]);
    return r;
}

#define NNF "torch.nn.functional"

static const layer_fwd fwd_linear = {NNF, "linear", 1, {"weight", "bias"}, {NULL}};
static const layer_fwd fwd_layer_norm = {NNF, "layer_norm", 1,
                                         {"normalized_shape", "weight", "bias", "eps"}, {NULL}};
static const layer_fwd fwd_rms_norm = {NNF, "rms_norm", 1,
                                       {"normalized_shape", "weight", "eps"}, {NULL}};
static const layer_fwd fwd_group_norm = {NNF, "group_norm", 1,
                                         {"num_groups", "weight", "bias", "eps"}, {NULL}};
static const layer_fwd fwd_embedding = {NNF, "embedding", 1,
                                        {"weight", "padding_idx", "max_norm", "norm_type",
                                         "scale_grad_by_freq", "sparse"}, {NULL}};
static const layer_fwd fwd_dropout = {NNF, "dropout", 1, {"p", "training", "inplace"}, {NULL}};
static const layer_fwd fwd_gelu = {NNF, "gelu", 1, {NULL}, {"approximate"}};
static const layer_fwd fwd_silu = {NNF, "silu", 1, {NULL}, {"inplace"}};
static const layer_fwd fwd_relu = {NNF, "relu", 1, {NULL}, {"inplace"}};
static const layer_fwd fwd_tanh = {"torch", "tanh", 1, {NULL}, {NULL}};
static const layer_fwd fwd_sigmoid = {"torch", "sigmoid", 1, {NULL}, {NULL}};
static const layer_fwd fwd_softmax = {NNF, "softmax", 1, {"dim"}, {NULL}};
static const layer_fwd fwd_log_softmax = {NNF, "log_softmax", 1, {"dim"}, {NULL}};
static const layer_fwd fwd_ce = {NNF, "cross_entropy", 2, {NULL},
                                 {"weight", "ignore_index", "reduction", "label_smoothing"}};
static const layer_fwd fwd_nll = {NNF, "nll_loss", 2, {NULL},
                                  {"weight", "ignore_index", "reduction"}};
static const layer_fwd fwd_mse = {NNF, "mse_loss", 2, {NULL}, {"reduction"}};
static const layer_fwd fwd_kl = {NNF, "kl_div", 2, {NULL}, {"reduction", "log_target"}};
static const layer_fwd fwd_l1 = {NNF, "l1_loss", 2, {NULL}, {"reduction"}};
static const layer_fwd fwd_smooth_l1 = {NNF, "smooth_l1_loss", 2, {NULL},
                                        {"reduction", "beta"}};
static const layer_fwd fwd_bce_logits = {NNF, "binary_cross_entropy_with_logits", 2, {NULL},
                                         {"weight", "pos_weight", "reduction"}};

/* ---- extra_repr from a template ---------------------------------------------------------- */

/* "{a}, eps={eps}, x={x!r}": str() (repr() with !r) of the attributes. */
LAYER_FN(lay_extra_repr)
{
    (void)argv;
    (void)kw;
    (void)argc;
    const char *tpl = h->calling->data;
    strbuf out;
    strbuf_init(&out);
    for (const char *p = tpl; *p; p++) {
        if (*p != '{') {
            strbuf_putc(&out, *p);
            continue;
        }
        const char *end = strchr(p, '}');
        char name[64];
        size_t n = (size_t)(end - p - 1);
        bool rep = n > 2 && !strncmp(end - 2, "!r", 2);
        snprintf(name, sizeof name, "%.*s", (int)(rep ? n - 2 : n), p + 1);
        val v = host_getattr(h, self, name, at);
        val s = v.kind == VAL_ERR ? v : rep ? host_repr(h, v) : host_str(h, v);
        val_unref(v);
        if (s.kind == VAL_ERR) {
            strbuf_free(&out);
            return s;
        }
        strbuf_puts(&out, val_as_str(s)->s);
        val_unref(s);
        p = end;
    }
    return val_str_from_buf(&out);
}

/* "inplace=True" or nothing (ReLU, SiLU) */
LAYER_FN(lay_inplace_repr)
{
    (void)argc;
    (void)argv;
    (void)kw;
    val v = host_getattr(h, self, "inplace", at);
    if (v.kind == VAL_ERR)
        return v;
    int t = host_truth(h, v, at);
    val_unref(v);
    return t < 0 ? val_err() : val_str_cstr(t ? "inplace=True" : "");
}

/* ---- the layers' constructors ------------------------------------------------------------ */

LAYER_FN(linear_init)
{
    val a[5];
    int64_t in, out;
    bool bias;
    lay_factory f;
    if (!host_args(h, at, "Linear", "in_features, out_features, bias=, device=, dtype=", argc,
                   argv, kw, a) ||
        !lay_int(h, a[0], at, "Linear", "in_features", &in) ||
        !lay_int(h, a[1], at, "Linear", "out_features", &out) ||
        !lay_bool(h, a[2], true, at, "Linear", "bias", &bias) ||
        !lay_factory_args(h, a[3], a[4], at, "Linear", &f))
        return val_err();
    lay_init(self);
    /* kaiming_uniform_(a=sqrt(5)) and the bias: both U(-1/sqrt(in), 1/sqrt(in)) */
    double bound = in > 0 ? 1.0 / sqrt((double)in) : 0.0;
    int64_t wshape[2] = {out, in};
    if (!lay_set(h, self, "in_features", val_int(in), at) ||
        !lay_set(h, self, "out_features", val_int(out), at) ||
        !lay_set(h, self, "weight", lay_param(h, &f, 2, wshape, LAY_UNIFORM, bound, at), at))
        return val_err();
    val b = bias ? lay_param(h, &f, 1, &out, LAY_UNIFORM, bound, at) : val_none();
    if (b.kind == VAL_ERR)
        return b;
    val args[2] = {val_str_cstr("bias"), b};
    val r = host_call_method(h, self, "register_parameter", 2, args, NULL, at);
    val_unref(args[0]);
    val_unref(b);
    if (r.kind == VAL_ERR)
        return r;
    val_unref(r);
    return val_none();
}

/* weight (ones) and bias (zeros) of shape, or None for each. */
static bool lay_affine(host *h, val self, const lay_factory *f, int n, const int64_t *shape,
                       bool weight, bool bias, src_span at)
{
    val params = ((val_object *)self.u.o)->attrs;
    params = val_dict_get_str(params, "_parameters");
    if (!weight)
        val_dict_set_str(params, "weight", val_none());
    else if (!lay_set(h, self, "weight", lay_param(h, f, n, shape, LAY_ONES, 0, at), at))
        return false;
    if (!bias)
        val_dict_set_str(params, "bias", val_none());
    else if (!lay_set(h, self, "bias", lay_param(h, f, n, shape, LAY_ZEROS, 0, at), at))
        return false;
    return true;
}

LAYER_FN(layer_norm_init)
{
    val a[6];
    int n;
    int64_t shape[TENSOR_MAX_DIMS];
    double eps;
    bool affine, bias;
    lay_factory f;
    if (!host_args(h, at, "LayerNorm", "normalized_shape, eps=, elementwise_affine=, bias=, "
                   "device=, dtype=", argc, argv, kw, a) ||
        !lay_float(h, a[1], 1e-5, at, "eps", &eps) ||
        !lay_bool(h, a[2], true, at, "LayerNorm", "elementwise_affine", &affine) ||
        !lay_bool(h, a[3], true, at, "LayerNorm", "bias", &bias) ||
        !lay_factory_args(h, a[4], a[5], at, "LayerNorm", &f))
        return val_err();
    val ns = lay_shape_tuple(h, a[0], at, "LayerNorm", &n, shape);
    if (ns.kind == VAL_ERR)
        return ns;
    lay_init(self);
    if (!lay_set(h, self, "normalized_shape", ns, at) ||
        !lay_set(h, self, "eps", val_float(eps), at) ||
        !lay_set(h, self, "elementwise_affine", val_bool(affine), at) ||
        !lay_affine(h, self, &f, n, shape, affine, affine && bias, at))
        return val_err();
    return val_none();
}

LAYER_FN(rms_norm_init)
{
    val a[5];
    int n;
    int64_t shape[TENSOR_MAX_DIMS];
    bool affine;
    lay_factory f;
    if (!host_args(h, at, "RMSNorm", "normalized_shape, eps=, elementwise_affine=, device=, "
                   "dtype=", argc, argv, kw, a) ||
        !lay_bool(h, a[2], true, at, "RMSNorm", "elementwise_affine", &affine) ||
        !lay_factory_args(h, a[3], a[4], at, "RMSNorm", &f))
        return val_err();
    double eps = 0;
    if (lay_given(a[1]) && !lay_float(h, a[1], 0, at, "eps", &eps))
        return val_err();
    val ns = lay_shape_tuple(h, a[0], at, "RMSNorm", &n, shape);
    if (ns.kind == VAL_ERR)
        return ns;
    lay_init(self);
    if (!lay_set(h, self, "normalized_shape", ns, at) ||
        !lay_set(h, self, "eps", lay_given(a[1]) ? val_float(eps) : val_none(), at) ||
        !lay_set(h, self, "elementwise_affine", val_bool(affine), at) ||
        !lay_affine(h, self, &f, n, shape, affine, false, at))
        return val_err();
    /* RMSNorm has no bias at all */
    val params = val_dict_get_str(((val_object *)self.u.o)->attrs, "_parameters");
    val k = val_str_cstr("bias");
    val_unref(val_dict_pop(params, k));
    val_unref(k);
    return val_none();
}

LAYER_FN(group_norm_init)
{
    val a[6];
    int64_t groups, channels;
    double eps;
    bool affine;
    lay_factory f;
    if (!host_args(h, at, "GroupNorm", "num_groups, num_channels, eps=, affine=, device=, "
                   "dtype=", argc, argv, kw, a) ||
        !lay_int(h, a[0], at, "GroupNorm", "num_groups", &groups) ||
        !lay_int(h, a[1], at, "GroupNorm", "num_channels", &channels) ||
        !lay_float(h, a[2], 1e-5, at, "eps", &eps) ||
        !lay_bool(h, a[3], true, at, "GroupNorm", "affine", &affine) ||
        !lay_factory_args(h, a[4], a[5], at, "GroupNorm", &f))
        return val_err();
    if (groups == 0 || channels % groups != 0)
        return host_raise(h, HOST_EXC_VALUE, at, "num_channels (%lld) must be divisible by "
                          "num_groups (%lld)", (long long)channels, (long long)groups);
    lay_init(self);
    if (!lay_set(h, self, "num_groups", val_int(groups), at) ||
        !lay_set(h, self, "num_channels", val_int(channels), at) ||
        !lay_set(h, self, "eps", val_float(eps), at) ||
        !lay_set(h, self, "affine", val_bool(affine), at) ||
        !lay_affine(h, self, &f, 1, &channels, affine, affine, at))
        return val_err();
    return val_none();
}

LAYER_FN(embedding_init)
{
    val a[11];
    int64_t num, dim, pad = 0;
    bool scale, sparse;
    lay_factory f;
    if (!host_args(h, at, "Embedding", "num_embeddings, embedding_dim, padding_idx=, max_norm=, "
                   "norm_type=, scale_grad_by_freq=, sparse=, _weight=, _freeze=, device=, "
                   "dtype=", argc, argv, kw, a) ||
        !lay_int(h, a[0], at, "Embedding", "num_embeddings", &num) ||
        !lay_int(h, a[1], at, "Embedding", "embedding_dim", &dim) ||
        (lay_given(a[2]) && !lay_int(h, a[2], at, "Embedding", "padding_idx", &pad)) ||
        !lay_bool(h, a[5], false, at, "Embedding", "scale_grad_by_freq", &scale) ||
        !lay_bool(h, a[6], false, at, "Embedding", "sparse", &sparse) ||
        !lay_factory_args(h, a[9], a[10], at, "Embedding", &f))
        return val_err();
    double norm_type = 2.0;
    if (!lay_float(h, a[4], 2.0, at, "norm_type", &norm_type))
        return val_err();
    if (lay_given(a[2])) {
        if (pad >= num || pad < -num)
            return host_raise(h, HOST_EXC_ASSERTION, at, "Padding_idx must be within "
                              "num_embeddings");
        if (pad < 0)
            pad += num;
    }
    lay_init(self);
    int64_t shape[2] = {num, dim};
    val w;
    if (lay_given(a[7])) {
        tensor *wt = torch_tensor_arg(h, a[7], at, "Embedding", "_weight");
        if (!wt)
            return val_err();
        if (wt->ndim != 2 || wt->shape[0] != num || wt->shape[1] != dim)
            return host_error(h, at, "Shape of weight does not match num_embeddings and "
                              "embedding_dim");
        bool freeze = false;
        if (!lay_bool(h, a[8], false, at, "Embedding", "_freeze", &freeze))
            return val_err();
        w = torch_parameter_new(h, wt, !freeze, at);
    } else {
        w = lay_param(h, &f, 2, shape, LAY_NORMAL, 0, at);
        tensor *wt = tensor_of(w);
        if (wt && lay_given(a[2])) {
            tensor *row = tensor_select(wt, 0, pad, NULL);
            if (row)
                tensor_fill(row, (dtype_scalar){.u = 0});
            tensor_unref(row);
        }
    }
    if (!lay_set(h, self, "num_embeddings", val_int(num), at) ||
        !lay_set(h, self, "embedding_dim", val_int(dim), at) ||
        !lay_set(h, self, "padding_idx", lay_given(a[2]) ? val_int(pad) : val_none(), at) ||
        !lay_set(h, self, "max_norm", lay_given(a[3]) ? val_ref(a[3]) : val_none(), at) ||
        !lay_set(h, self, "norm_type", val_float(norm_type), at) ||
        !lay_set(h, self, "scale_grad_by_freq", val_bool(scale), at) ||
        !lay_set(h, self, "weight", w, at) ||
        !lay_set(h, self, "sparse", val_bool(sparse), at))
        return val_err();
    return val_none();
}

LAYER_FN(embedding_extra_repr)
{
    (void)argc;
    (void)argv;
    (void)kw;
    static const char *const names[] = {"num_embeddings", "embedding_dim", "padding_idx",
                                        "max_norm", "norm_type", "scale_grad_by_freq",
                                        "sparse"};
    val v[7];
    for (int i = 0; i < 7; i++)
        if ((v[i] = host_getattr(h, self, names[i], at)).kind == VAL_ERR) {
            for (int j = 0; j < i; j++)
                val_unref(v[j]);
            return val_err();
        }
    strbuf out;
    strbuf_init(&out);
    val_print_str(h, v[0], &out);
    strbuf_puts(&out, ", ");
    val_print_str(h, v[1], &out);
    if (v[2].kind != VAL_NONE) {
        strbuf_puts(&out, ", padding_idx=");
        val_print_str(h, v[2], &out);
    }
    if (v[3].kind != VAL_NONE) {
        strbuf_puts(&out, ", max_norm=");
        val_print_str(h, v[3], &out);
    }
    if (!(v[4].kind == VAL_FLOAT && v[4].u.f == 2.0) && !(v[4].kind == VAL_INT && v[4].u.i == 2)) {
        strbuf_puts(&out, ", norm_type=");
        val_print_str(h, v[4], &out);
    }
    if (!(v[5].kind == VAL_BOOL && !v[5].u.b)) {
        strbuf_puts(&out, ", scale_grad_by_freq=");
        val_print_str(h, v[5], &out);
    }
    if (!(v[6].kind == VAL_BOOL && !v[6].u.b))
        strbuf_puts(&out, ", sparse=True");
    for (int i = 0; i < 7; i++)
        val_unref(v[i]);
    return val_str_from_buf(&out);
}

LAYER_FN(dropout_init)
{
    val a[2];
    double p;
    bool inplace;
    if (!host_args(h, at, "Dropout", "p=, inplace=", argc, argv, kw, a) ||
        !lay_float(h, a[0], 0.5, at, "p", &p) ||
        !lay_bool(h, a[1], false, at, "Dropout", "inplace", &inplace))
        return val_err();
    if (p < 0 || p > 1) {
        strbuf sb;
        strbuf_init(&sb);
        val_print_repr(h, a[0], &sb);
        val r = host_raise(h, HOST_EXC_VALUE, at, "dropout probability has to be between 0 and "
                           "1, but got %s", strbuf_cstr(&sb));
        strbuf_free(&sb);
        return r;
    }
    lay_init(self);
    if (!lay_set(h, self, "p", a[0].kind == VAL_MISSING ? val_float(0.5) : val_ref(a[0]), at) ||
        !lay_set(h, self, "inplace", val_bool(inplace), at))
        return val_err();
    return val_none();
}

LAYER_FN(gelu_init)
{
    val a[1];
    const char *approx = "none";
    if (!host_args(h, at, "GELU", "approximate=", argc, argv, kw, a) ||
        (a[0].kind != VAL_MISSING && !host_to_str(h, a[0], at, "argument 'approximate'",
                                                  &approx)))
        return val_err();
    lay_init(self);
    return lay_set(h, self, "approximate", val_str_cstr(approx), at) ? val_none() : val_err();
}

/* SiLU(inplace=False), ReLU(inplace=False) */
LAYER_FN(inplace_init)
{
    val a[1];
    bool inplace;
    if (!host_args(h, at, "__init__", "inplace=", argc, argv, kw, a) ||
        !lay_bool(h, a[0], false, at, "__init__", "inplace", &inplace))
        return val_err();
    lay_init(self);
    return lay_set(h, self, "inplace", val_bool(inplace), at) ? val_none() : val_err();
}

/* Tanh(), Sigmoid() */
LAYER_FN(plain_init)
{
    (void)argv;
    if (argc || (kw && kw->n))
        return host_raise(h, HOST_EXC_TYPE, at, "__init__() takes no arguments");
    lay_init(self);
    return val_none();
}

/* Identity(*args, **kwargs): arguments ignored, as PyTorch does */
LAYER_FN(identity_init)
{
    (void)h;
    (void)argc;
    (void)argv;
    (void)kw;
    (void)at;
    lay_init(self);
    return val_none();
}

LAYER_FN(identity_forward)
{
    (void)self;
    val a[1];
    if (!host_args(h, at, "forward", "input", argc, argv, kw, a))
        return val_err();
    return val_ref(a[0]);
}

/* Softmax(dim=None), LogSoftmax(dim=None) */
LAYER_FN(softmax_init)
{
    val a[1];
    int64_t dim;
    if (!host_args(h, at, "Softmax", "dim=", argc, argv, kw, a) ||
        (lay_given(a[0]) && !lay_int(h, a[0], at, "Softmax", "dim", &dim)))
        return val_err();
    lay_init(self);
    return lay_set(h, self, "dim", lay_given(a[0]) ? val_ref(a[0]) : val_none(), at)
           ? val_none() : val_err();
}

/* ---- losses ------------------------------------------------------------------------------ */

/* _Loss: reduction from reduction= or the legacy size_average=/reduce=. */
static bool loss_base(host *h, val self, val size_average, val reduce, val reduction,
                      src_span at)
{
    int red;
    if (!torch_reduction_arg(h, reduction, size_average, reduce, at, true, &red))
        return false;
    static const char *const names[] = {
        [TORCH_RED_NONE] = "none", [TORCH_RED_MEAN] = "mean", [TORCH_RED_SUM] = "sum",
        [TORCH_RED_BATCHMEAN] = "batchmean",
    };
    lay_init(self);
    return lay_set(h, self, "reduction", val_str_cstr(names[red]), at);
}

static bool loss_weight(host *h, val self, const char *name, val w, src_span at)
{
    if (lay_given(w) && !torch_tensor_arg(h, w, at, "loss", name))
        return false;
    val args[2] = {val_str_cstr(name), lay_given(w) ? w : val_none()};
    val r = host_call_method(h, self, "register_buffer", 2, args, NULL, at);
    val_unref(args[0]);
    val_unref(r);
    return r.kind != VAL_ERR;
}

/* CrossEntropyLoss(weight=None, size_average=None, ignore_index=-100,
 * reduce=None, reduction='mean', label_smoothing=0.0) and NLLLoss (the
 * same but label_smoothing) */
static val ce_init(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                   src_span at, const char *fname, bool smoothing)
{
    if (!torch_method_self(h, &self, &argc, &argv, at))
        return val_err();
    val a[6];
    int64_t ignore = -100;
    double ls = 0;
    if (!host_args(h, at, fname, smoothing ? "weight=, size_average=, ignore_index=, reduce=, "
                   "reduction=, label_smoothing=" : "weight=, size_average=, ignore_index=, "
                   "reduce=, reduction=", argc, argv, kw, a) ||
        (a[2].kind != VAL_MISSING && !lay_int(h, a[2], at, fname, "ignore_index", &ignore)) ||
        (smoothing && !lay_float(h, a[5], 0.0, at, "label_smoothing", &ls)) ||
        !loss_base(h, self, a[1], a[3], a[4], at) || !loss_weight(h, self, "weight", a[0], at) ||
        !lay_set(h, self, "ignore_index", val_int(ignore), at) ||
        (smoothing && !lay_set(h, self, "label_smoothing", val_float(ls), at)))
        return val_err();
    return val_none();
}

HOST_CFUNC_CALLING(cross_entropy_init, ce_init, "CrossEntropyLoss", true)
HOST_CFUNC_CALLING(nll_init, ce_init, "NLLLoss", false)

/* MSELoss, L1Loss(size_average=None, reduce=None, reduction='mean') */
LAYER_FN(plain_loss_init)
{
    val a[3];
    if (!host_args(h, at, "__init__", "size_average=, reduce=, reduction=", argc, argv, kw, a) ||
        !loss_base(h, self, a[0], a[1], a[2], at))
        return val_err();
    return val_none();
}

LAYER_FN(kl_init)
{
    val a[4];
    bool log_target;
    if (!host_args(h, at, "KLDivLoss", "size_average=, reduce=, reduction=, log_target=", argc,
                   argv, kw, a) ||
        !lay_bool(h, a[3], false, at, "KLDivLoss", "log_target", &log_target) ||
        !loss_base(h, self, a[0], a[1], a[2], at) ||
        !lay_set(h, self, "log_target", val_bool(log_target), at))
        return val_err();
    return val_none();
}

LAYER_FN(smooth_l1_init)
{
    val a[4];
    double beta;
    if (!host_args(h, at, "SmoothL1Loss", "size_average=, reduce=, reduction=, beta=", argc,
                   argv, kw, a) ||
        !lay_float(h, a[3], 1.0, at, "beta", &beta) ||
        !loss_base(h, self, a[0], a[1], a[2], at) ||
        !lay_set(h, self, "beta", val_float(beta), at))
        return val_err();
    return val_none();
}

/* BCEWithLogitsLoss(weight=None, size_average=None, reduce=None,
 * reduction='mean', pos_weight=None): weight and pos_weight are buffers */
LAYER_FN(bce_logits_init)
{
    val a[5];
    if (!host_args(h, at, "BCEWithLogitsLoss", "weight=, size_average=, reduce=, reduction=, "
                   "pos_weight=", argc, argv, kw, a) ||
        !loss_base(h, self, a[1], a[2], a[3], at) || !loss_weight(h, self, "weight", a[0], at) ||
        !loss_weight(h, self, "pos_weight", a[4], at))
        return val_err();
    return val_none();
}

/* ---- the table ---------------------------------------------------------------------------- */

typedef struct layer_def {
    const char *name;
    val_cfunc init;
    const layer_fwd *fwd;
    const char *repr;           /* extra_repr template, or NULL */
    val_cfunc repr_fn;          /* or a function of its own */
} layer_def;

static const layer_def layer_defs[] = {
    {"Linear", linear_init, &fwd_linear,
     "in_features={in_features}, out_features={out_features}, bias=", NULL},
    {"LayerNorm", layer_norm_init, &fwd_layer_norm,
     "{normalized_shape}, eps={eps}, elementwise_affine={elementwise_affine}", NULL},
    {"RMSNorm", rms_norm_init, &fwd_rms_norm,
     "{normalized_shape}, eps={eps}, elementwise_affine={elementwise_affine}", NULL},
    {"GroupNorm", group_norm_init, &fwd_group_norm,
     "{num_groups}, {num_channels}, eps={eps}, affine={affine}", NULL},
    {"Embedding", embedding_init, &fwd_embedding, NULL, embedding_extra_repr},
    {"Dropout", dropout_init, &fwd_dropout, "p={p}, inplace={inplace}", NULL},
    {"GELU", gelu_init, &fwd_gelu, "approximate={approximate!r}", NULL},
    {"SiLU", inplace_init, &fwd_silu, NULL, lay_inplace_repr},
    {"ReLU", inplace_init, &fwd_relu, NULL, lay_inplace_repr},
    {"Tanh", plain_init, &fwd_tanh, NULL, NULL},
    {"Sigmoid", plain_init, &fwd_sigmoid, NULL, NULL},
    {"Softmax", softmax_init, &fwd_softmax, "dim={dim}", NULL},
    {"LogSoftmax", softmax_init, &fwd_log_softmax, "dim={dim}", NULL},
    {"Identity", identity_init, NULL, NULL, NULL},
    {"CrossEntropyLoss", cross_entropy_init, &fwd_ce, NULL, NULL},
    {"NLLLoss", nll_init, &fwd_nll, NULL, NULL},
    {"MSELoss", plain_loss_init, &fwd_mse, NULL, NULL},
    {"KLDivLoss", kl_init, &fwd_kl, NULL, NULL},
    {"L1Loss", plain_loss_init, &fwd_l1, NULL, NULL},
    {"SmoothL1Loss", smooth_l1_init, &fwd_smooth_l1, NULL, NULL},
    {"BCEWithLogitsLoss", bce_logits_init, &fwd_bce_logits, NULL, NULL},
};

LAYER_FN(linear_extra_repr)
{
    val base = lay_extra_repr(h, self, argc, argv, kw, at);
    if (base.kind == VAL_ERR)
        return base;
    val b = host_getattr(h, self, "bias", at);
    if (b.kind == VAL_ERR) {
        val_unref(base);
        return b;
    }
    val r = val_str_fmt("%s%s", val_as_str(base)->s, b.kind == VAL_NONE ? "False" : "True");
    val_unref(base);
    val_unref(b);
    return r;
}

/* The qualified names of the methods ("Linear.forward"): static, as
 * builtins need, and the same at every start. */
static char lay_names[3 * sizeof layer_defs / sizeof *layer_defs][48];

static val lay_method(int slot, const char *cls, const char *name, val_cfunc fn,
                      const void *data)
{
    snprintf(lay_names[slot], sizeof lay_names[slot], "%s.%s", cls, name);
    val r = val_builtin_new(lay_names[slot], fn, val_none());
    ((val_builtin *)r.u.o)->data = data;
    return r;
}

void torch_layers_add(host *h, val nn)
{
    val module = val_object_get(nn, "Module");
    for (size_t i = 0; i < sizeof layer_defs / sizeof *layer_defs; i++) {
        const layer_def *d = &layer_defs[i];
        val cls = class_new(d->name, module, true);
        val_object_set(cls, "__module__", val_str_cstr("torch.nn"));
        int slot = 3 * (int)i;
        val_object_set(cls, "__init__", lay_method(slot, d->name, "__init__", d->init, NULL));
        val_object_set(cls, "forward", d->fwd ? lay_method(slot + 1, d->name, "forward",
                                                           lay_forward, d->fwd)
                                              : lay_method(slot + 1, d->name, "forward",
                                                           identity_forward, NULL));
        if (!strcmp(d->name, "Linear"))
            val_object_set(cls, "extra_repr", lay_method(slot + 2, d->name, "extra_repr",
                                                         linear_extra_repr, d->repr));
        else if (d->repr)
            val_object_set(cls, "extra_repr", lay_method(slot + 2, d->name, "extra_repr",
                                                         lay_extra_repr, d->repr));
        else if (d->repr_fn)
            val_object_set(cls, "extra_repr", lay_method(slot + 2, d->name, "extra_repr",
                                                         d->repr_fn, NULL));
        val_object_set(nn, d->name, cls);
    }
    torch_containers_add(h, nn, module);
}
