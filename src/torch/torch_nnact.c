/* torch_nnact.c - more modules of torch.nn: the activations that
 * torch_layers.c lacks (LogSigmoid, ReLU6, Hardsigmoid, Hardtanh,
 * Hardswish, SELU, Mish, Softplus, Softsign, Tanhshrink, LeakyReLU, ELU,
 * CELU, Hardshrink, Softshrink), Softmin, GLU and HuberLoss; and, so that
 * programs deriving their own layers from it load, the class
 * MultiheadAttention, whose constructor says that tritsim does not provide
 * it.  The activations, GLU and HuberLoss have their functional forms in
 * torch.nn.functional too (leaky_relu, elu, glu, huber_loss, ...).
 *
 * Each module stores its constructor's arguments under PyTorch's names;
 * its forward composes operations of torch (where, clamp, exp, ...) so
 * that autograd differentiates it.  The compositions give PyTorch's
 * derivative everywhere, its choices at the kinks included (hardtanh's
 * derivative is 0 at min_val and max_val, hardswish's is 0 at -3 and 1 at 3,
 * a shrink's is 0 at +-lambd): a branch whose derivative must not flow is
 * detached, and each torch.where picks the branch PyTorch's backward
 * formula picks. */
#define _POSIX_C_SOURCE 200809L
#include "torch_impl.h"

#include <stdio.h>
#include <string.h>

/* ---- composing torch operations ---------------------------------------------- */

/* The values made while composing, dropped together at the end; after the
 * first error every step returns the error. */
typedef struct act_scratch {
    host *h;
    src_span at;
    val keep[48];
    int n;
    bool err;
} act_scratch;

static val act_keep(act_scratch *s, val v)
{
    if (v.kind == VAL_ERR || s->err) {
        s->err = true;
        if (v.kind != VAL_ERR)
            val_unref(v);
        return val_err();
    }
    if (s->n == (int)(sizeof s->keep / sizeof *s->keep)) {
        val_unref(v);
        s->err = true;
        host_raise(s->h, HOST_EXC_RUNTIME, s->at, "internal: too many steps in an activation");
        return val_err();
    }
    s->keep[s->n++] = v;
    return v;
}

/* torch.<fn>(args...) */
static val act_call(act_scratch *s, const char *fn, int argc, const val *argv)
{
    if (s->err)
        return val_err();
    val f = host_getattr(s->h, host_module(s->h, "torch"), fn, s->at);
    if (f.kind == VAL_ERR)
        return act_keep(s, f);
    val r = host_call(s->h, f, argc, argv, NULL, s->at);
    val_unref(f);
    return act_keep(s, r);
}

static val act1(act_scratch *s, const char *fn, val a)
{
    return act_call(s, fn, 1, &a);
}

static val act2(act_scratch *s, const char *fn, val a, val b)
{
    val args[2] = {a, b};
    return act_call(s, fn, 2, args);
}

static val act3(act_scratch *s, const char *fn, val a, val b, val c)
{
    val args[3] = {a, b, c};
    return act_call(s, fn, 3, args);
}

/* x.detach() */
static val act_detach(act_scratch *s, val x)
{
    if (s->err)
        return val_err();
    val m = host_getattr(s->h, x, "detach", s->at);
    if (m.kind == VAL_ERR)
        return act_keep(s, m);
    val r = host_call(s->h, m, 0, NULL, NULL, s->at);
    val_unref(m);
    return act_keep(s, r);
}

/* self.<name> as a float */
static bool act_attr_float(act_scratch *s, val self, const char *name, double *out)
{
    if (s->err)
        return false;
    val v = host_getattr(s->h, self, name, s->at);
    if (v.kind == VAL_ERR) {
        s->err = true;
        return false;
    }
    char what[64];
    snprintf(what, sizeof what, "the module's %s", name);
    bool ok = host_to_float(s->h, v, s->at, what, out);
    val_unref(v);
    s->err = !ok;
    return ok;
}

/* where(lo < x < hi, x, clamp(x, lo, hi) detached): hardtanh's derivative,
 * 0 at both ends */
static val act_hardtanh(act_scratch *s, val x, double lo, double hi)
{
    val inside = act2(s, "logical_and", act2(s, "gt", x, val_float(lo)),
                      act2(s, "lt", x, val_float(hi)));
    val outer = act_detach(s, act3(s, "clamp", x, val_float(lo), val_float(hi)));
    return act3(s, "where", inside, x, outer);
}

/* log1p(exp(min(x, t))): the min keeps exp finite in the branch where()
 * does not pick, whose derivative would be NaN */
static val act_softplus_core(act_scratch *s, val x, double t)
{
    return act1(s, "log1p", act1(s, "exp", act3(s, "clamp", x, val_none(), val_float(t))));
}

/* where(x > 0, x, alpha * (exp(x / beta) - 1)): ELU's form */
static val act_elu_form(act_scratch *s, val x, double alpha, double beta)
{
    val neg = act2(s, "mul", act1(s, "expm1", act2(s, "div", x, val_float(beta))),
                   val_float(alpha));
    return act3(s, "where", act2(s, "gt", x, val_float(0.0)), x, neg);
}

typedef val (*act_fwd)(act_scratch *s, val self, val x);

static val fwd_logsigmoid(act_scratch *s, val self, val x)
{
    (void)self;
    /* -softplus(-x) */
    val nx = act1(s, "neg", x);
    val sp = act3(s, "where", act2(s, "gt", nx, val_float(20.0)), nx,
                  act_softplus_core(s, nx, 20.0));
    return act1(s, "neg", sp);
}

static val fwd_relu6(act_scratch *s, val self, val x)
{
    (void)self;
    return act_hardtanh(s, x, 0.0, 6.0);
}

static val fwd_hardtanh(act_scratch *s, val self, val x)
{
    double lo = 0, hi = 0;
    if (!act_attr_float(s, self, "min_val", &lo) || !act_attr_float(s, self, "max_val", &hi))
        return val_err();
    return act_hardtanh(s, x, lo, hi);
}

static val fwd_hardsigmoid(act_scratch *s, val self, val x)
{
    (void)self;
    /* x/6 + 1/2 strictly inside (-3, 3), 0 or 1 outside, derivative 0 at +-3 */
    val inside = act2(s, "logical_and", act2(s, "gt", x, val_float(-3.0)),
                      act2(s, "lt", x, val_float(3.0)));
    val lin = act2(s, "add", act2(s, "div", x, val_float(6.0)), val_float(0.5));
    val outer = act_detach(s, act2(s, "div", act3(s, "clamp", act2(s, "add", x,
                                                                   val_float(3.0)),
                                                  val_float(0.0), val_float(6.0)),
                                   val_float(6.0)));
    return act3(s, "where", inside, lin, outer);
}

static val fwd_hardswish(act_scratch *s, val self, val x)
{
    (void)self;
    /* 0 up to -3 included, x (x + 3) / 6 below 3, x from 3 on (PyTorch 2.11's
     * derivative is 0 at -3 and 1 at 3) */
    val mid = act2(s, "div", act2(s, "mul", x, act2(s, "add", x, val_float(3.0))),
                   val_float(6.0));
    val upper = act3(s, "where", act2(s, "lt", x, val_float(3.0)), mid, x);
    val zero = act_detach(s, act2(s, "mul", x, val_float(0.0)));  /* -0.0 as PyTorch's */
    return act3(s, "where", act2(s, "le", x, val_float(-3.0)), zero, upper);
}

static val fwd_selu(act_scratch *s, val self, val x)
{
    (void)self;
    const double alpha = 1.6732632423543772848170429916717;
    const double scale = 1.0507009873554804934193349852946;
    return act2(s, "mul", act_elu_form(s, x, alpha, 1.0), val_float(scale));
}

static val fwd_elu(act_scratch *s, val self, val x)
{
    double alpha = 0;
    if (!act_attr_float(s, self, "alpha", &alpha))
        return val_err();
    return act_elu_form(s, x, alpha, 1.0);
}

static val fwd_celu(act_scratch *s, val self, val x)
{
    double alpha = 0;
    if (!act_attr_float(s, self, "alpha", &alpha))
        return val_err();
    return act_elu_form(s, x, alpha, alpha);
}

static val fwd_softplus(act_scratch *s, val self, val x)
{
    double beta = 0, t = 0;
    if (!act_attr_float(s, self, "beta", &beta) || !act_attr_float(s, self, "threshold", &t))
        return val_err();
    /* x where beta x > threshold, else log1p(exp(beta x)) / beta */
    val bx = act2(s, "mul", x, val_float(beta));
    val soft = act2(s, "div", act_softplus_core(s, bx, t), val_float(beta));
    return act3(s, "where", act2(s, "gt", bx, val_float(t)), x, soft);
}

static val fwd_mish(act_scratch *s, val self, val x)
{
    (void)self;
    val sp = act3(s, "where", act2(s, "gt", x, val_float(20.0)), x,
                  act_softplus_core(s, x, 20.0));
    return act2(s, "mul", x, act1(s, "tanh", sp));
}

static val fwd_softsign(act_scratch *s, val self, val x)
{
    (void)self;
    return act2(s, "div", x, act2(s, "add", act1(s, "abs", x), val_float(1.0)));
}

static val fwd_tanhshrink(act_scratch *s, val self, val x)
{
    (void)self;
    return act2(s, "sub", x, act1(s, "tanh", x));
}

static val fwd_leaky_relu(act_scratch *s, val self, val x)
{
    double slope = 0;
    if (!act_attr_float(s, self, "negative_slope", &slope))
        return val_err();
    return act3(s, "where", act2(s, "gt", x, val_float(0.0)), x,
                act2(s, "mul", x, val_float(slope)));
}

static val fwd_hardshrink(act_scratch *s, val self, val x)
{
    double l = 0;
    if (!act_attr_float(s, self, "lambd", &l))
        return val_err();
    val out = act2(s, "logical_or", act2(s, "gt", x, val_float(l)),
                   act2(s, "lt", x, val_float(-l)));
    return act3(s, "where", out, x, act1(s, "zeros_like", x));
}

static val fwd_softshrink(act_scratch *s, val self, val x)
{
    double l = 0;
    if (!act_attr_float(s, self, "lambd", &l))
        return val_err();
    val below = act3(s, "where", act2(s, "lt", x, val_float(-l)),
                     act2(s, "add", x, val_float(l)), act1(s, "zeros_like", x));
    return act3(s, "where", act2(s, "gt", x, val_float(l)), act2(s, "sub", x, val_float(l)),
                below);
}

static val fwd_softmin(act_scratch *s, val self, val x)
{
    if (s->err)
        return val_err();
    val dim = act_keep(s, host_getattr(s->h, self, "dim", s->at));
    if (dim.kind == VAL_NONE) {
        s->err = true;
        return host_raise(s->h, HOST_EXC_NOT_IMPLEMENTED, s->at, "Softmin() without dim is "
                          "not supported by tritsim (PyTorch's choice of dimension is "
                          "deprecated): pass dim=");
    }
    return act2(s, "softmax", act1(s, "neg", x), dim);
}

static val fwd_glu(act_scratch *s, val self, val x)
{
    if (s->err)
        return val_err();
    val dim = act_keep(s, host_getattr(s->h, self, "dim", s->at));
    val halves = act3(s, "chunk", x, val_int(2), dim);
    if (s->err)
        return val_err();
    if (halves.kind != VAL_TUPLE || val_as_seq(halves)->len != 2) {
        s->err = true;
        return host_raise(s->h, HOST_EXC_RUNTIME, s->at, "Halving dimension must be even");
    }
    val a = val_as_seq(halves)->items[0], b = val_as_seq(halves)->items[1];
    return act2(s, "mul", a, act1(s, "sigmoid", b));
}

/* ---- the modules --------------------------------------------------------------- */

/* A constructor argument: its name, kind ('f' float, 'b' bool, 'i' int,
 * 's' str, 'n' None) and default. */
typedef struct act_arg {
    const char *name;
    char kind;
    double num;
    const char *str;
} act_arg;

typedef struct act_def {
    const char *name;
    const char *params;         /* for host_args */
    act_arg args[3];
    act_fwd fwd;
    int ninputs;                /* 1, or 2 for a loss */
} act_def;

static const act_def act_defs[] = {
    {"LogSigmoid", "", {{NULL, 0, 0, NULL}}, fwd_logsigmoid, 1},
    {"ReLU6", "inplace=", {{"inplace", 'b', 0, NULL}}, fwd_relu6, 1},
    {"Hardsigmoid", "inplace=", {{"inplace", 'b', 0, NULL}}, fwd_hardsigmoid, 1},
    {"Hardtanh", "min_val=, max_val=, inplace=",
     {{"min_val", 'f', -1.0, NULL}, {"max_val", 'f', 1.0, NULL}, {"inplace", 'b', 0, NULL}},
     fwd_hardtanh, 1},
    {"Hardswish", "inplace=", {{"inplace", 'b', 0, NULL}}, fwd_hardswish, 1},
    {"SELU", "inplace=", {{"inplace", 'b', 0, NULL}}, fwd_selu, 1},
    {"Mish", "inplace=", {{"inplace", 'b', 0, NULL}}, fwd_mish, 1},
    {"Softplus", "beta=, threshold=", {{"beta", 'f', 1.0, NULL}, {"threshold", 'f', 20.0, NULL}},
     fwd_softplus, 1},
    {"Softsign", "", {{NULL, 0, 0, NULL}}, fwd_softsign, 1},
    {"Tanhshrink", "", {{NULL, 0, 0, NULL}}, fwd_tanhshrink, 1},
    {"LeakyReLU", "negative_slope=, inplace=",
     {{"negative_slope", 'f', 0.01, NULL}, {"inplace", 'b', 0, NULL}}, fwd_leaky_relu, 1},
    {"ELU", "alpha=, inplace=", {{"alpha", 'f', 1.0, NULL}, {"inplace", 'b', 0, NULL}},
     fwd_elu, 1},
    {"CELU", "alpha=, inplace=", {{"alpha", 'f', 1.0, NULL}, {"inplace", 'b', 0, NULL}},
     fwd_celu, 1},
    {"Hardshrink", "lambd=", {{"lambd", 'f', 0.5, NULL}}, fwd_hardshrink, 1},
    {"Softshrink", "lambd=", {{"lambd", 'f', 0.5, NULL}}, fwd_softshrink, 1},
    {"Softmin", "dim=", {{"dim", 'n', 0, NULL}}, fwd_softmin, 1},
    {"GLU", "dim=", {{"dim", 'i', -1, NULL}}, fwd_glu, 1},
    {"HuberLoss", "reduction=, delta=",
     {{"reduction", 's', 0, "mean"}, {"delta", 'f', 1.0, NULL}}, NULL, 2},
};

/* HuberLoss: the elementwise loss of input x and target, reduced. */
static val fwd_huber_with(act_scratch *s, val self, val x, val target)
{
    double delta = 0;
    if (!act_attr_float(s, self, "delta", &delta))
        return val_err();
    val red = act_keep(s, host_getattr(s->h, self, "reduction", s->at));
    if (s->err)
        return val_err();
    const char *r = red.kind == VAL_STR ? val_as_str(red)->s : "";
    /* PyTorch's derivative: d where |d| <= delta, +-delta outside */
    val d = act2(s, "sub", x, target);
    val ad = act1(s, "abs", d);
    val quad = act2(s, "mul", act2(s, "mul", d, d), val_float(0.5));
    val lin = act2(s, "mul", act2(s, "sub", ad, val_float(0.5 * delta)), val_float(delta));
    val l = act3(s, "where", act2(s, "le", ad, val_float(delta)), quad, lin);
    if (!strcmp(r, "none"))
        return l;
    if (!strcmp(r, "mean"))
        return act1(s, "mean", l);
    if (!strcmp(r, "sum"))
        return act1(s, "sum", l);
    s->err = true;
    return host_raise(s->h, HOST_EXC_VALUE, s->at, "%s is not a valid value for reduction", r);
}

static const act_def *act_def_of(host *h)
{
    return h->calling->data;
}

TORCH_MODULE_METHOD(act_init)
{
    const act_def *d = act_def_of(h);
    val a[3] = {val_missing(), val_missing(), val_missing()};
    if (!host_args(h, at, d->name, d->params, argc, argv, kw, a))
        return val_err();
    torch_module_init_self(self);
    for (int i = 0; i < 3 && d->args[i].name; i++) {
        const act_arg *g = &d->args[i];
        val v;
        if (a[i].kind != VAL_MISSING)
            v = val_ref(a[i]);
        else if (g->kind == 'f')
            v = val_float(g->num);
        else if (g->kind == 'b')
            v = val_bool(g->num != 0);
        else if (g->kind == 'i')
            v = val_int((int64_t)g->num);
        else if (g->kind == 's')
            v = val_str_cstr(g->str);
        else
            v = val_none();
        bool ok = host_setattr(h, self, g->name, v, at);
        val_unref(v);
        if (!ok)
            return val_err();
    }
    return val_none();
}

TORCH_MODULE_METHOD(act_forward)
{
    const act_def *d = act_def_of(h);
    if (argc != d->ninputs || (kw && kw->n))
        return host_raise(h, HOST_EXC_TYPE, at, "forward() takes %d positional argument%s but "
                          "%d were given", d->ninputs + 1, d->ninputs ? "s" : "",
                          argc + 1 + (kw ? kw->n : 0));
    act_scratch s = {.h = h, .at = at};
    val r = d->ninputs == 2 ? fwd_huber_with(&s, self, argv[0], argv[1])
                            : d->fwd(&s, self, argv[0]);
    if (!s.err)
        r = val_ref(r);
    else
        r = val_err();
    for (int i = 0; i < s.n; i++)
        val_unref(s.keep[i]);
    return r;
}

/* The classes programs derive from, which tritsim does not provide. */
static const char *const act_absent[] = {
    "MultiheadAttention",
};

TORCH_MODULE_METHOD(act_absent_init)
{
    (void)argc, (void)argv, (void)kw, (void)self;
    return host_raise(h, HOST_EXC_NOT_IMPLEMENTED, at, "torch.nn.%s is not supported by "
                      "tritsim: the class exists so that programs deriving from it load, "
                      "but it cannot be constructed (see doc/language.md)",
                      (const char *)h->calling->data);
}

/* Static qualified names of the methods ("ELU.forward"). */
static char act_names[2 * (sizeof act_defs / sizeof *act_defs +
                           sizeof act_absent / sizeof *act_absent)][40];

static val act_method(int slot, const char *cls, const char *name, val_cfunc fn,
                      const void *data)
{
    snprintf(act_names[slot], sizeof act_names[slot], "%s.%s", cls, name);
    val r = val_builtin_new(act_names[slot], fn, val_none());
    ((val_builtin *)r.u.o)->data = data;
    return r;
}

/* The functional forms (torch.nn.functional.leaky_relu(input, negative_slope=0.01,
 * inplace=False), ...): the module made with the arguments after the inputs,
 * applied to the inputs.  inplace=True is accepted and, as by the modules,
 * not honoured: the result is a new tensor. */
static const struct {
    const char *fn, *cls;
} act_functionals[] = {
    {"logsigmoid", "LogSigmoid"}, {"relu6", "ReLU6"}, {"hardsigmoid", "Hardsigmoid"},
    {"hardtanh", "Hardtanh"}, {"hardswish", "Hardswish"}, {"selu", "SELU"}, {"mish", "Mish"},
    {"softplus", "Softplus"}, {"softsign", "Softsign"}, {"tanhshrink", "Tanhshrink"},
    {"leaky_relu", "LeakyReLU"}, {"elu", "ELU"}, {"celu", "CELU"},
    {"hardshrink", "Hardshrink"}, {"softshrink", "Softshrink"}, {"glu", "GLU"},
    {"huber_loss", "HuberLoss"},
};

static val act_functional(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                          src_span at)
{
    const act_def *d = &act_defs[self.u.i];
    if (argc < d->ninputs)
        return host_raise(h, HOST_EXC_TYPE, at, "%s takes %s as its first positional "
                          "argument%s", d->name, d->ninputs == 2 ? "input and target" : "input",
                          d->ninputs == 2 ? "s" : "");
    val cls = host_getattr(h, host_module(h, "torch.nn"), d->name, at);
    if (cls.kind == VAL_ERR)
        return cls;
    val m = host_call(h, cls, argc - d->ninputs, argv + d->ninputs, kw, at);
    val_unref(cls);
    if (m.kind == VAL_ERR)
        return m;
    val r = host_call(h, m, d->ninputs, argv, NULL, at);
    val_unref(m);
    return r;
}

static char act_fn_names[sizeof act_functionals / sizeof *act_functionals][48];

void torch_nnact_add(host *h, val nn)
{
    val nnf = val_object_get(nn, "functional");
    for (size_t i = 0; i < sizeof act_functionals / sizeof *act_functionals; i++) {
        size_t j = 0;
        while (strcmp(act_defs[j].name, act_functionals[i].cls))
            j++;
        snprintf(act_fn_names[i], sizeof act_fn_names[i], "torch.nn.functional.%s",
                 act_functionals[i].fn);
        if (nnf.kind == VAL_MODULE)
            val_object_set(nnf, act_functionals[i].fn,
                           val_builtin_new(act_fn_names[i], act_functional, val_int((int64_t)j)));
    }
    (void)h;
    val module = val_object_get(nn, "Module");
    int slot = 0;
    for (size_t i = 0; i < sizeof act_defs / sizeof *act_defs; i++) {
        const act_def *d = &act_defs[i];
        val cls = class_new(d->name, module, true);
        val_object_set(cls, "__module__", val_str_cstr("torch.nn"));
        val_object_set(cls, "__init__", act_method(slot++, d->name, "__init__", act_init, d));
        val_object_set(cls, "forward", act_method(slot++, d->name, "forward", act_forward, d));
        val_object_set(nn, d->name, cls);
    }
    for (size_t i = 0; i < sizeof act_absent / sizeof *act_absent; i++) {
        val cls = class_new(act_absent[i], module, true);
        val_object_set(cls, "__module__", val_str_cstr("torch.nn"));
        val_object_set(cls, "__init__", act_method(slot++, act_absent[i], "__init__",
                                                   act_absent_init, act_absent[i]));
        slot++;
        val_object_set(nn, act_absent[i], cls);
    }
}
