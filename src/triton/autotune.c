/* autotune.c - triton.Config, @triton.heuristics and @triton.autotune.
 *
 * Both decorators make a wrapper object around what they decorate (a
 * @triton.jit kernel or another wrapper).  wrapper[grid] is a launcher
 * like kernel[grid]; calling it binds the positional arguments to the base
 * kernel's parameter names, chooses meta parameters (the heuristics'
 * values, or the autotuner's best Config for this key), and launches the
 * wrapped object with them as extra keywords.  Timing goes through
 * tritontesting_bench, the loop behind triton.testing.do_bench. */
#define _POSIX_C_SOURCE 200809L
#include "autotune.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "launch.h"
#include "tritontesting.h"

/* ---- triton.Config ------------------------------------------------------ */

typedef struct tune_config {
    val_object o;
    val kwargs;             /* dict str -> value: the meta parameters */
    int64_t num_warps, num_stages, num_ctas;
    val maxnreg;            /* None or an int */
    val pre_hook;           /* None or a callable */
} tune_config;

static const val_type tune_config_type;

static bool tune_is_config(val v)
{
    return v.kind == VAL_OBJECT && val_type_of(v) == &tune_config_type;
}

static void tune_config_free(val_obj *o)
{
    tune_config *c = (tune_config *)o;
    val_unref(c->kwargs);
    val_unref(c->maxnreg);
    val_unref(c->pre_hook);
}

/* Triton's Config.__str__: the kwargs, then the launch options. */
static void tune_config_repr(host *h, val self, strbuf *out)
{
    const tune_config *c = (const tune_config *)self.u.o;
    size_t pos = 0;
    val k, v;
    while (val_dict_next(c->kwargs, &pos, &k, &v)) {
        val_print_str(h, k, out);
        strbuf_puts(out, ": ");
        val_print_str(h, v, out);
        strbuf_puts(out, ", ");
    }
    strbuf_printf(out, "num_warps: %lld, num_ctas: %lld, num_stages: %lld, maxnreg: ",
                  (long long)c->num_warps, (long long)c->num_ctas, (long long)c->num_stages);
    val_print_str(h, c->maxnreg, out);
}

/* config.all_kwargs(): the kwargs and the launch options that are set. */
static val tune_all_kwargs(val config)
{
    const tune_config *c = (const tune_config *)config.u.o;
    val d = val_dict_new();
    size_t pos = 0;
    val k, v;
    while (val_dict_next(c->kwargs, &pos, &k, &v))
        val_dict_set(d, val_ref(k), val_ref(v));
    val_dict_set_str(d, "num_warps", val_int(c->num_warps));
    val_dict_set_str(d, "num_ctas", val_int(c->num_ctas));
    val_dict_set_str(d, "num_stages", val_int(c->num_stages));
    if (c->maxnreg.kind != VAL_NONE)
        val_dict_set_str(d, "maxnreg", val_ref(c->maxnreg));
    return d;
}

static val tune_config_all_kwargs(host *h, val self, int argc, const val *argv,
                                  const val_kwargs *kw, src_span at)
{
    if (!host_args(h, at, "all_kwargs", "", argc, argv, kw, NULL))
        return val_err();
    return tune_all_kwargs(self);
}

static val tune_config_getattr(host *h, val self, const char *name, src_span at)
{
    (void)h, (void)at;
    const tune_config *c = (const tune_config *)self.u.o;
    if (!strcmp(name, "kwargs"))
        return val_ref(c->kwargs);
    if (!strcmp(name, "num_warps"))
        return val_int(c->num_warps);
    if (!strcmp(name, "num_stages"))
        return val_int(c->num_stages);
    if (!strcmp(name, "num_ctas"))
        return val_int(c->num_ctas);
    if (!strcmp(name, "maxnreg"))
        return val_ref(c->maxnreg);
    if (!strcmp(name, "pre_hook"))
        return val_ref(c->pre_hook);
    if (!strcmp(name, "all_kwargs"))
        return val_builtin_new("Config.all_kwargs", tune_config_all_kwargs, val_ref(self));
    return val_missing();
}

static const char *const tune_config_attrs[] = {
    "kwargs", "num_warps", "num_stages", "num_ctas", "maxnreg", "pre_hook", "all_kwargs", NULL,
};

static const val_type tune_config_type = {
    .name = "Config",
    .getattr = tune_config_getattr,
    .repr = tune_config_repr,
    .free = tune_config_free,
    .attr_names = tune_config_attrs,
};

static bool tune_opt_int(host *h, val v, int64_t dflt, src_span at, const char *what,
                         int64_t *out)
{
    *out = dflt;
    return v.kind == VAL_MISSING || v.kind == VAL_NONE || host_to_int(h, v, at, what, out);
}

/* triton.Config(kwargs, num_warps=4, num_stages=3, num_ctas=1, maxnreg=None,
 * pre_hook=None, ir_override=None), as Triton 3.x: backend keys such as
 * waves_per_eu go in kwargs (ir_override is accepted and ignored). */
static val tune_config_new(host *h, val self, int argc, const val *argv,
                           const val_kwargs *kw, src_span at)
{
    (void)self;
    val p[7];
    if (!host_args(h, at, "Config", "kwargs, num_warps=, num_stages=, num_ctas=, maxnreg=, "
                   "pre_hook=, ir_override=", argc, argv, kw, p))
        return val_err();
    if (p[0].kind != VAL_DICT)
        return host_error(h, at, "Config() argument 'kwargs' must be a dict of meta "
                          "parameters, e.g. {'BLOCK_SIZE': 128}, not %s", val_type_name(p[0]));
    tune_config *c = val_obj_new(sizeof *c, VAL_OBJECT, &tune_config_type);
    c->kwargs = val_dict_new();
    c->maxnreg = val_none();
    c->pre_hook = val_none();
    val result = val_of(c);
    size_t pos = 0;
    val k, v;
    while (val_dict_next(p[0], &pos, &k, &v)) {
        if (k.kind != VAL_STR) {
            val_unref(result);
            return host_error(h, at, "Config() keys must be parameter names (str), not %s",
                              val_type_name(k));
        }
        val_dict_set(c->kwargs, val_ref(k), val_ref(v));
    }
    if (!tune_opt_int(h, p[1], 4, at, "Config() num_warps", &c->num_warps) ||
        !tune_opt_int(h, p[2], 3, at, "Config() num_stages", &c->num_stages) ||
        !tune_opt_int(h, p[3], 1, at, "Config() num_ctas", &c->num_ctas)) {
        val_unref(result);
        return val_err();
    }
    if (p[4].kind != VAL_MISSING && p[4].kind != VAL_NONE) {
        int64_t n;
        if (!host_to_int(h, p[4], at, "Config() maxnreg", &n)) {
            val_unref(result);
            return val_err();
        }
        c->maxnreg = val_int(n);
    }
    if (p[5].kind != VAL_MISSING)
        c->pre_hook = val_ref(p[5]);
    return result;
}

/* ---- wrappers: the common part ------------------------------------------ */

/* Every wrapper starts with this: what it wraps. */
typedef struct tune_wrap {
    val_object o;           /* OBJECT layout; no attribute dict */
    val fn;                 /* a VAL_KERNEL or another wrapper */
} tune_wrap;

typedef struct tune_launcher {
    val_obj h;
    val wrapper;
    val grid;
} tune_launcher;

static const val_type tune_heur_type, tune_tuner_type, tune_launcher_type;

static bool tune_is_wrapper(val v)
{
    const val_type *t = val_type_of(v);
    return v.kind == VAL_OBJECT && (t == &tune_heur_type || t == &tune_tuner_type);
}

/* The @triton.jit function under any number of wrappers (its VAL_FUNC,
 * borrowed), or VAL_MISSING. */
static val tune_base_func(val v)
{
    while (tune_is_wrapper(v))
        v = ((tune_wrap *)v.u.o)->fn;
    return launch_kernel_func(v);
}

static const char *tune_base_name(val wrapper)
{
    val f = tune_base_func(wrapper);
    return f.kind == VAL_FUNC ? ((const val_func *)f.u.o)->name : "?";
}

/* {name: value} of a call: positional arguments under the kernel's
 * parameter names, then the keywords, then defaults not given. */
static val tune_named_args(host *h, val wrapper, int argc, const val *argv,
                           const val_kwargs *kw, src_span at)
{
    val fv = tune_base_func(wrapper);
    if (fv.kind != VAL_FUNC)
        return host_error(h, at, "@triton.autotune and @triton.heuristics decorate a "
                          "@triton.jit function");
    const val_func *f = (const val_func *)fv.u.o;
    const ast_list *ps = &f->node->u.funcdef.params;
    if (argc > ps->len)
        return host_error(h, at, "%s() takes %d arguments but %d were given", f->name,
                          ps->len, argc);
    val d = val_dict_new();
    for (int i = 0; i < argc; i++)
        val_dict_set_str(d, ps->items[i]->u.param.name, val_ref(argv[i]));
    for (int k = 0; kw && k < kw->n; k++)
        val_dict_set_str(d, kw->names[k], val_ref(kw->values[k]));
    for (int i = argc; f->defaults && i < ps->len; i++) {
        const char *n = ps->items[i]->u.param.name;
        if (f->defaults[i].kind != VAL_MISSING && val_dict_get_str(d, n).kind == VAL_MISSING)
            val_dict_set_str(d, n, val_ref(f->defaults[i]));
    }
    return d;
}

/* Launch fn[grid](*argv, **kw, **extra); extra is a dict str -> value
 * (borrowed), whose keys replace keywords of the same name. */
static val tune_launch(host *h, val fn, val grid, int argc, const val *argv,
                       const val_kwargs *kw, val extra, src_span at)
{
    int n = (kw ? kw->n : 0) + (int)val_as_dict(extra)->len;
    const char **names = xcalloc((size_t)n + 1, sizeof *names);
    val *values = xcalloc((size_t)n + 1, sizeof *values);
    int m = 0;
    for (int k = 0; kw && k < kw->n; k++)
        if (val_dict_get_str(extra, kw->names[k]).kind == VAL_MISSING) {
            names[m] = kw->names[k];
            values[m++] = kw->values[k];
        }
    size_t pos = 0;
    val k, v;
    while (val_dict_next(extra, &pos, &k, &v)) {
        names[m] = val_as_str(k)->s;
        values[m++] = v;
    }
    val_kwargs all = {m, names, values};
    val r = val_err();
    val l = host_getitem(h, fn, grid, at);
    if (l.kind != VAL_ERR) {
        r = host_call(h, l, argc, argv, &all, at);
        val_unref(l);
    }
    free(names);
    free(values);
    return r;
}

static val tune_wrapper_getitem(host *h, val self, val key, src_span at)
{
    (void)h, (void)at;
    tune_launcher *l = val_obj_new(sizeof *l, VAL_LAUNCHER, &tune_launcher_type);
    l->wrapper = val_ref(self);
    l->grid = val_ref(key);
    return val_of(l);
}

static val tune_wrapper_call(host *h, val self, int argc, const val *argv,
                             const val_kwargs *kw, src_span at)
{
    (void)argc, (void)argv, (void)kw;
    const char *n = tune_base_name(self);
    return host_error(h, at, "a @triton.jit function is launched with a grid: "
                      "%s[grid](...), e.g. %s[(n_blocks,)](x, z, n)", n, n);
}

/* ---- @triton.heuristics ------------------------------------------------- */

typedef struct tune_heur {
    tune_wrap w;
    val values;             /* dict: name -> function of the args dict */
} tune_heur;

static void tune_heur_free(val_obj *o)
{
    tune_heur *t = (tune_heur *)o;
    val_unref(t->w.fn);
    val_unref(t->values);
}

static val tune_heur_run(host *h, tune_heur *t, val grid, int argc, const val *argv,
                         const val_kwargs *kw, src_span at)
{
    val args = tune_named_args(h, val_of(t), argc, argv, kw, at);
    if (args.kind == VAL_ERR)
        return args;
    val extra = val_dict_new();
    size_t pos = 0;
    val k, fn;
    val r = val_err();
    while (val_dict_next(t->values, &pos, &k, &fn)) {
        val v = host_call(h, fn, 1, &args, NULL, at);
        if (v.kind == VAL_ERR)
            goto done;
        /* later heuristics see the values of earlier ones, as in Triton */
        val_dict_set(args, val_ref(k), val_ref(v));
        val_dict_set(extra, val_ref(k), v);
    }
    r = tune_launch(h, t->w.fn, grid, argc, argv, kw, extra, at);
done:
    val_unref(args);
    val_unref(extra);
    return r;
}

static val tune_heur_getattr(host *h, val self, const char *name, src_span at)
{
    (void)h, (void)at;
    const tune_heur *t = (const tune_heur *)self.u.o;
    if (!strcmp(name, "fn"))
        return val_ref(t->w.fn);
    if (!strcmp(name, "values"))
        return val_ref(t->values);
    if (!strcmp(name, "__name__"))
        return val_str_cstr(tune_base_name(self));
    return val_missing();
}

static void tune_heur_repr(host *h, val self, strbuf *out)
{
    (void)h;
    strbuf_printf(out, "Heuristics(__main__:%s)", tune_base_name(self));
}

static const char *const tune_heur_attrs[] = {"fn", "values", "__name__", NULL};

static const val_type tune_heur_type = {
    .name = "Heuristics",
    .getattr = tune_heur_getattr,
    .call = tune_wrapper_call,
    .getitem = tune_wrapper_getitem,
    .repr = tune_heur_repr,
    .free = tune_heur_free,
    .attr_names = tune_heur_attrs,
};

static bool tune_check_target(host *h, val fn, const char *deco, src_span at)
{
    if (fn.kind == VAL_KERNEL || tune_is_wrapper(fn))
        return true;
    host_error(h, at, "@triton.%s decorates a @triton.jit function (put it above "
               "@triton.jit), not %s", deco, val_type_name(fn));
    return false;
}

/* The decorator that triton.heuristics(values) returns; self = values. */
static val tune_heur_apply(host *h, val self, int argc, const val *argv,
                           const val_kwargs *kw, src_span at)
{
    val p[1];
    if (!host_args(h, at, "heuristics", "fn", argc, argv, kw, p) ||
        !tune_check_target(h, p[0], "heuristics", at))
        return val_err();
    tune_heur *t = val_obj_new(sizeof *t, VAL_OBJECT, &tune_heur_type);
    t->w.fn = val_ref(p[0]);
    t->values = val_ref(self);
    return val_of(t);
}

static val tune_heuristics(host *h, val self, int argc, const val *argv,
                           const val_kwargs *kw, src_span at)
{
    (void)self;
    val p[1];
    if (!host_args(h, at, "heuristics", "values", argc, argv, kw, p))
        return val_err();
    if (p[0].kind != VAL_DICT)
        return host_error(h, at, "heuristics() takes a dict of parameter name -> "
                          "function of the arguments, not %s", val_type_name(p[0]));
    size_t pos = 0;
    val k, v;
    while (val_dict_next(p[0], &pos, &k, &v))
        if (k.kind != VAL_STR)
            return host_error(h, at, "heuristics() keys must be parameter names (str)");
    return val_builtin_new("triton.heuristics", tune_heur_apply, val_ref(p[0]));
}

/* ---- @triton.autotune --------------------------------------------------- */

typedef struct tune_tuner {
    tune_wrap w;
    val configs;            /* list of Config */
    val keys;               /* list of str */
    val prune;              /* dict or None */
    val reset_to_zero;      /* list of str */
    val restore_value;      /* list of str */
    val pre_hook, post_hook, do_bench;   /* None or callables */
    double warmup, rep;
    val cache;              /* dict: key tuple -> Config */
    val best_config;        /* None until the first launch */
    val timings;            /* dict: Config -> timing list, of the last sweep */
    double bench_time;
} tune_tuner;

static void tune_tuner_free(val_obj *o)
{
    tune_tuner *t = (tune_tuner *)o;
    val_unref(t->w.fn);
    val_unref(t->configs);
    val_unref(t->keys);
    val_unref(t->prune);
    val_unref(t->reset_to_zero);
    val_unref(t->restore_value);
    val_unref(t->pre_hook);
    val_unref(t->post_hook);
    val_unref(t->do_bench);
    val_unref(t->cache);
    val_unref(t->best_config);
    val_unref(t->timings);
}

/* One benchmarked launch: a callable object holding the call to repeat. */
typedef struct tune_run {
    val_object o;
    val tuner, grid, args, kwnames, kwvalues, config, nargs;
    val saved;              /* list: clones of restore_value tensors */
    src_span at;
} tune_run;

static void tune_run_free(val_obj *o)
{
    tune_run *r = (tune_run *)o;
    val vs[] = {r->tuner, r->grid, r->args, r->kwnames, r->kwvalues, r->config, r->nargs,
                r->saved};
    for (size_t i = 0; i < sizeof vs / sizeof vs[0]; i++)
        val_unref(vs[i]);
}

/* The tensors named in list names (each must be an argument). */
static bool tune_each_tensor(host *h, val nargs, val names, const char *what,
                             const char *method, val saved, bool restore, src_span at)
{
    const val_seq *s = val_as_seq(names);
    for (size_t i = 0; i < s->len; i++) {
        val t = val_dict_get_str(nargs, val_as_str(s->items[i])->s);
        if (t.kind != VAL_TENSOR) {
            host_error(h, at, "%s names '%s', which is not a tensor argument of this launch",
                       what, val_as_str(s->items[i])->s);
            return false;
        }
        val r;
        if (restore)
            r = host_call_method(h, t, "copy_", 1, &val_as_seq(saved)->items[i], NULL, at);
        else
            r = host_call_method(h, t, method, 0, NULL, NULL, at);
        if (r.kind == VAL_ERR)
            return false;
        if (saved.kind == VAL_LIST && !restore)
            val_list_push(saved, r);
        else
            val_unref(r);
    }
    return true;
}

static val tune_run_call(host *h, val self, int argc, const val *argv,
                         const val_kwargs *kw, src_span at)
{
    (void)argc, (void)argv, (void)kw, (void)at;
    tune_run *r = (tune_run *)self.u.o;
    tune_tuner *t = (tune_tuner *)r->tuner.u.o;
    const tune_config *c = (const tune_config *)r->config.u.o;
    at = r->at;
    if (c->pre_hook.kind != VAL_NONE) {
        val x = host_call(h, c->pre_hook, 1, &r->nargs, NULL, at);
        if (x.kind == VAL_ERR)
            return x;
        val_unref(x);
    }
    if (t->pre_hook.kind != VAL_NONE) {
        val x = host_call(h, t->pre_hook, 1, &r->nargs, NULL, at);
        if (x.kind == VAL_ERR)
            return x;
        val_unref(x);
    } else {
        /* Triton's default pre-hook: zero the outputs that accumulate */
        if (!tune_each_tensor(h, r->nargs, t->reset_to_zero, "reset_to_zero", "zero_",
                              val_none(), false, at))
            return val_err();
    }
    val_seq *ks = val_as_seq(r->kwnames);
    val_kwargs kwa = {(int)ks->len, NULL, val_as_seq(r->kwvalues)->items};
    const char **names = xcalloc(ks->len + 1, sizeof *names);
    for (size_t i = 0; i < ks->len; i++)
        names[i] = val_as_str(ks->items[i])->s;
    kwa.names = names;
    val extra = tune_all_kwargs(r->config);
    val_seq *as = val_as_seq(r->args);
    val res = tune_launch(h, t->w.fn, r->grid, (int)as->len, as->items, &kwa, extra, at);
    val_unref(extra);
    free(names);
    if (res.kind == VAL_ERR)
        return res;
    val_unref(res);
    if (t->post_hook.kind != VAL_NONE) {
        val pa[2] = {r->nargs, val_none()};
        val x = host_call(h, t->post_hook, 2, pa, NULL, at);
        if (x.kind == VAL_ERR)
            return x;
        val_unref(x);
    } else if (!tune_each_tensor(h, r->nargs, t->restore_value, "restore_value", NULL,
                                 r->saved, true, at)) {
        return val_err();
    }
    return val_none();
}

static const val_type tune_run_type = {
    .name = "autotune_benchmark",
    .call = tune_run_call,
    .free = tune_run_free,
};

/* The cache key: the key arguments' values, then the dtype of every tensor
 * argument (as Triton does). */
static val tune_key(host *h, tune_tuner *t, val nargs, src_span at)
{
    val key = val_list_new(4);
    const val_seq *ks = val_as_seq(t->keys);
    for (size_t i = 0; i < ks->len; i++) {
        val v = val_dict_get_str(nargs, val_as_str(ks->items[i])->s);
        if (v.kind != VAL_MISSING)
            val_list_push(key, val_ref(v));
    }
    size_t pos = 0;
    val k, v;
    while (val_dict_next(nargs, &pos, &k, &v))
        if (v.kind == VAL_TENSOR) {
            val d = host_getattr_opt(h, v, "dtype", at);
            if (d.kind == VAL_ERR) {
                val_unref(key);
                return d;
            }
            if (d.kind != VAL_MISSING)
                val_list_push(key, d);
        }
    const val_seq *s = val_as_seq(key);
    val tup = val_tuple_new(s->len);
    for (size_t i = 0; i < s->len; i++)
        val_seq_set(tup, i, val_ref(s->items[i]));
    val_unref(key);
    return tup;
}

/* Call fn(*pos, **dict) where dict maps str -> value. */
static val tune_call_dict(host *h, val fn, int argc, const val *argv, val dict, src_span at)
{
    size_t n = val_as_dict(dict)->len;
    const char **names = xcalloc(n + 1, sizeof *names);
    val *values = xcalloc(n + 1, sizeof *values);
    size_t pos = 0, m = 0;
    val k, v;
    while (val_dict_next(dict, &pos, &k, &v)) {
        names[m] = val_as_str(k)->s;
        values[m++] = v;
    }
    val_kwargs kw = {(int)m, names, values};
    val r = host_call(h, fn, argc, argv, &kw, at);
    free(names);
    free(values);
    return r;
}

/* Triton's prune_configs: early_config_prune(configs, nargs, **kwargs),
 * then the top_k of perf_model(**nargs, **kwargs, **config.all_kwargs()). */
static val tune_prune(host *h, tune_tuner *t, val nargs, val kwargs, src_span at)
{
    val configs = val_ref(t->configs);
    if (t->prune.kind != VAL_DICT)
        return configs;
    val early = val_dict_get_str(t->prune, "early_config_prune");
    if (early.kind != VAL_MISSING && early.kind != VAL_NONE) {
        val pa[2] = {configs, nargs};
        val r = tune_call_dict(h, early, 2, pa, kwargs, at);
        val_unref(configs);
        if (r.kind == VAL_ERR)
            return r;
        configs = host_to_list(h, r, at);
        val_unref(r);
        if (configs.kind == VAL_ERR)
            return configs;
        if (val_as_seq(configs)->len == 0) {
            val_unref(configs);
            return host_error(h, at, "early_config_prune left no configs to try");
        }
    }
    val model = val_dict_get_str(t->prune, "perf_model");
    if (model.kind == VAL_MISSING || model.kind == VAL_NONE)
        return configs;
    val topv = val_dict_get_str(t->prune, "top_k");
    int64_t top_k = (int64_t)val_as_seq(t->configs)->len;
    if (topv.kind == VAL_FLOAT && topv.u.f <= 1.0)
        top_k = (int64_t)(top_k * topv.u.f);
    else if (topv.kind == VAL_INT)
        top_k = topv.u.i;
    else if (topv.kind != VAL_MISSING && topv.kind != VAL_NONE) {
        val_unref(configs);
        return host_error(h, at, "prune_configs_by['top_k'] must be an int or a float "
                          "<= 1.0, not %s", val_type_name(topv));
    }
    size_t n = val_as_seq(configs)->len;
    if ((int64_t)n <= top_k)
        return configs;
    double *est = xcalloc(n, sizeof *est);
    size_t *order = xcalloc(n, sizeof *order);
    for (size_t i = 0; i < n; i++) {
        val all = val_dict_new();
        size_t pos = 0;
        val k, v;
        while (val_dict_next(nargs, &pos, &k, &v))
            val_dict_set(all, val_ref(k), val_ref(v));
        val ck = tune_all_kwargs(val_as_seq(configs)->items[i]);
        pos = 0;
        while (val_dict_next(ck, &pos, &k, &v))
            val_dict_set(all, val_ref(k), val_ref(v));
        val_unref(ck);
        val r = tune_call_dict(h, model, 0, NULL, all, at);
        val_unref(all);
        bool ok = r.kind != VAL_ERR &&
                  host_to_float(h, r, at, "the perf_model result", &est[i]);
        val_unref(r);
        if (!ok) {
            free(est);
            free(order);
            val_unref(configs);
            return val_err();
        }
        /* insertion sort, stable: equal estimates keep the configs' order */
        size_t j = i;
        while (j > 0 && est[order[j - 1]] > est[i]) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = i;
    }
    val out = val_list_new((size_t)top_k);
    for (int64_t i = 0; i < top_k; i++)
        val_list_push(out, val_ref(val_as_seq(configs)->items[order[i]]));
    free(est);
    free(order);
    val_unref(configs);
    return out;
}

static double tune_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Time one config; *ms gets its median time (inf when the user's do_bench
 * returns something else than numbers, or when the config's kernel needs
 * more of the GPU than it has or fails a tl.static_assert: Triton's
 * OutOfResources and CompileTimeAssertionFailure, which its autotuner
 * skips so; launch.h). */
static bool tune_bench_one(host *h, tune_tuner *t, val grid, int argc, const val *argv,
                           const val_kwargs *kw, val nargs, val config, src_span at,
                           double *ms)
{
    tune_run *r = val_obj_new(sizeof *r, VAL_OBJECT, &tune_run_type);
    r->tuner = val_ref(val_of(t));
    r->grid = val_ref(grid);
    r->args = val_tuple_new((size_t)argc);
    for (int i = 0; i < argc; i++)
        val_seq_set(r->args, (size_t)i, val_ref(argv[i]));
    int nk = kw ? kw->n : 0;
    r->kwnames = val_tuple_new((size_t)nk);
    r->kwvalues = val_tuple_new((size_t)nk);
    for (int i = 0; i < nk; i++) {
        val_seq_set(r->kwnames, (size_t)i, val_str_cstr(kw->names[i]));
        val_seq_set(r->kwvalues, (size_t)i, val_ref(kw->values[i]));
    }
    r->config = val_ref(config);
    r->nargs = val_dict_new();
    size_t pos = 0;
    val k, v;
    while (val_dict_next(nargs, &pos, &k, &v))
        val_dict_set(r->nargs, val_ref(k), val_ref(v));
    val ck = tune_all_kwargs(config);
    pos = 0;
    while (val_dict_next(ck, &pos, &k, &v))
        val_dict_set(r->nargs, val_ref(k), val_ref(v));
    val_unref(ck);
    r->saved = val_list_new(2);
    r->at = at;
    val run = val_of(r);
    bool ok = tune_each_tensor(h, nargs, t->restore_value, "restore_value", "clone",
                               r->saved, false, at);
    launch_set_tuning(h, true);
    if (ok && t->do_bench.kind != VAL_NONE) {
        val q = val_tuple_new(3);
        val_seq_set(q, 0, val_float(0.5));
        val_seq_set(q, 1, val_float(0.2));
        val_seq_set(q, 2, val_float(0.8));
        const char *qn[] = {"quantiles"};
        val_kwargs qkw = {1, qn, &q};
        val res = host_call(h, t->do_bench, 1, &run, &qkw, at);
        val_unref(q);
        ok = res.kind != VAL_ERR;
        *ms = INFINITY;
        if (res.kind == VAL_INT || res.kind == VAL_FLOAT)
            host_to_float(h, res, at, "do_bench()", ms);
        else if ((res.kind == VAL_LIST || res.kind == VAL_TUPLE) && val_as_seq(res)->len &&
                 (val_as_seq(res)->items[0].kind == VAL_FLOAT ||
                  val_as_seq(res)->items[0].kind == VAL_INT))
            host_to_float(h, val_as_seq(res)->items[0], at, "do_bench()", ms);
        val_unref(res);
    } else if (ok) {
        double *times;
        int n;
        ok = tritontesting_bench(h, run, t->warmup, t->rep, val_none(), at, &times, &n);
        if (ok) {
            /* the median, as Triton compares quantiles (0.5, 0.2, 0.8) */
            val m = tritontesting_summarize(h, times, n, val_none(), "median", at);
            *ms = m.kind == VAL_FLOAT ? m.u.f : INFINITY;
            free(times);
        }
    }
    launch_set_tuning(h, false);
    if (!ok && launch_take_skipped(h)) {
        *ms = INFINITY;
        ok = true;
    }
    val_unref(run);
    return ok;
}

static val tune_tuner_run(host *h, tune_tuner *t, val grid, int argc, const val *argv,
                          const val_kwargs *kw, src_span at)
{
    val nargs = tune_named_args(h, val_of(t), argc, argv, kw, at);
    if (nargs.kind == VAL_ERR)
        return nargs;
    val kwargs = val_dict_new();
    for (int k = 0; kw && k < kw->n; k++)
        val_dict_set_str(kwargs, kw->names[k], val_ref(kw->values[k]));
    val result = val_err();
    val config = val_none();
    val key = val_none();
    /* Keywords that a config sets would be silently overridden. */
    const val_seq *cs = val_as_seq(t->configs);
    for (size_t i = 0; i < cs->len; i++) {
        const tune_config *c = (const tune_config *)cs->items[i].u.o;
        for (int k = 0; kw && k < kw->n; k++)
            if (val_dict_get_str(c->kwargs, kw->names[k]).kind != VAL_MISSING) {
                host_raise(h, HOST_EXC_VALUE, at,
                           "ValueError: Conflicting meta-parameters: %s. Make sure "
                           "that you don't re-define auto-tuned symbols.", kw->names[k]);
                goto done;
            }
    }
    bool tuned = false;
    if (cs->len > 1) {
        key = tune_key(h, t, nargs, at);
        if (key.kind == VAL_ERR)
            goto done;
        val hit = val_dict_get(t->cache, key);
        if (hit.kind != VAL_MISSING) {
            config = val_ref(hit);
        } else {
            double start = tune_now();
            val pruned = tune_prune(h, t, nargs, kwargs, at);
            if (pruned.kind == VAL_ERR)
                goto done;
            const val_seq *ps = val_as_seq(pruned);
            val_unref(t->timings);
            t->timings = val_dict_new();
            double best = INFINITY;
            size_t best_i = 0;
            char what[96];
            snprintf(what, sizeof what, "autotuning %s", tune_base_name(val_of(t)));
            for (size_t i = 0; i < ps->len; i++) {
                double ms;
                tritontesting_progress(what, (int)i, (int)ps->len);
                if (!tune_is_config(ps->items[i])) {
                    host_error(h, at, "autotune configs must be triton.Config objects, "
                               "not %s", val_type_name(ps->items[i]));
                    tritontesting_progress(what, 1, 1);
                    val_unref(pruned);
                    goto done;
                }
                if (!tune_bench_one(h, t, grid, argc, argv, kw, nargs, ps->items[i], at,
                                    &ms)) {
                    tritontesting_progress(what, 1, 1);
                    val_unref(pruned);
                    goto done;
                }
                val_dict_set(t->timings, val_ref(ps->items[i]), val_float(ms));
                if (ms < best || i == 0) {
                    best = ms;
                    best_i = i;
                }
            }
            tritontesting_progress(what, (int)ps->len, (int)ps->len);
            config = val_ref(ps->items[best_i]);
            val_unref(pruned);
            val_dict_set(t->cache, val_ref(key), val_ref(config));
            t->bench_time = tune_now() - start;
            tuned = true;
            /* as Triton: zero the reset_to_zero outputs once more before the
             * real launch, since the timing runs accumulated into them */
            if (t->pre_hook.kind == VAL_NONE &&
                !tune_each_tensor(h, nargs, t->reset_to_zero, "reset_to_zero", "zero_",
                                  val_none(), false, at))
                goto done;
        }
    } else {
        config = val_ref(cs->items[0]);
    }
    val_unref(t->best_config);
    t->best_config = val_ref(config);
    /* Triton reads TRITON_PRINT_AUTOTUNING at each launch that tunes */
    const char *pr = getenv("TRITON_PRINT_AUTOTUNING");
    if (tuned && pr && !strcmp(pr, "1")) {
        strbuf sb;
        strbuf_init(&sb);
        tune_config_repr(h, config, &sb);
        printf("Triton autotuning for function %s finished after %.2fs; best config "
               "selected: %s;\n", tune_base_name(val_of(t)), t->bench_time, strbuf_cstr(&sb));
        strbuf_free(&sb);
        fflush(stdout);
    }
    const tune_config *c = (const tune_config *)config.u.o;
    if (c->pre_hook.kind != VAL_NONE) {
        val full = val_dict_new();
        size_t pos = 0;
        val k, v;
        while (val_dict_next(nargs, &pos, &k, &v))
            val_dict_set(full, val_ref(k), val_ref(v));
        val ck = tune_all_kwargs(config);
        pos = 0;
        while (val_dict_next(ck, &pos, &k, &v))
            val_dict_set(full, val_ref(k), val_ref(v));
        val_unref(ck);
        val x = host_call(h, c->pre_hook, 1, &full, NULL, at);
        val_unref(full);
        if (x.kind == VAL_ERR)
            goto done;
        val_unref(x);
    }
    val extra = tune_all_kwargs(config);
    result = tune_launch(h, t->w.fn, grid, argc, argv, kw, extra, at);
    val_unref(extra);
done:
    val_unref(nargs);
    val_unref(kwargs);
    val_unref(config);
    val_unref(key);
    return result;
}

static val tune_get_best_config(host *h, val self, int argc, const val *argv,
                                const val_kwargs *kw, src_span at)
{
    if (!host_args(h, at, "get_best_config", "", argc, argv, kw, NULL))
        return val_err();
    return val_ref(((const tune_tuner *)self.u.o)->best_config);
}

static val tune_tuner_getattr(host *h, val self, const char *name, src_span at)
{
    (void)h, (void)at;
    const tune_tuner *t = (const tune_tuner *)self.u.o;
    if (!strcmp(name, "fn"))
        return val_ref(t->w.fn);
    if (!strcmp(name, "configs"))
        return val_ref(t->configs);
    if (!strcmp(name, "keys"))
        return val_ref(t->keys);
    if (!strcmp(name, "cache"))
        return val_ref(t->cache);
    if (!strcmp(name, "best_config"))   /* Triton sets it at the first tuning */
        return t->best_config.kind == VAL_NONE ? val_missing() : val_ref(t->best_config);
    if (!strcmp(name, "configs_timings"))
        return val_ref(t->timings);
    if (!strcmp(name, "bench_time"))
        return val_float(t->bench_time);
    if (!strcmp(name, "get_best_config"))   /* ROCm's fork of Triton has it */
        return val_builtin_new("Autotuner.get_best_config", tune_get_best_config,
                               val_ref(self));
    if (!strcmp(name, "__name__"))
        return val_str_cstr(tune_base_name(self));
    return val_missing();
}

static void tune_tuner_repr(host *h, val self, strbuf *out)
{
    (void)h;
    strbuf_printf(out, "Autotuner(__main__:%s)", tune_base_name(self));
}

static const char *const tune_tuner_attrs[] = {
    "fn", "configs", "keys", "cache", "best_config", "configs_timings", "bench_time",
    "get_best_config", "__name__", NULL,
};

static const val_type tune_tuner_type = {
    .name = "Autotuner",
    .getattr = tune_tuner_getattr,
    .call = tune_wrapper_call,
    .getitem = tune_wrapper_getitem,
    .repr = tune_tuner_repr,
    .free = tune_tuner_free,
    .attr_names = tune_tuner_attrs,
};

/* The decorator that triton.autotune(...) returns; self is a prototype
 * tuner holding the options, copied for each function decorated. */
static val tune_tuner_apply(host *h, val self, int argc, const val *argv,
                            const val_kwargs *kw, src_span at)
{
    val p[1];
    if (!host_args(h, at, "autotune", "fn", argc, argv, kw, p) ||
        !tune_check_target(h, p[0], "autotune", at))
        return val_err();
    const tune_tuner *proto = (const tune_tuner *)self.u.o;
    tune_tuner *t = val_obj_new(sizeof *t, VAL_OBJECT, &tune_tuner_type);
    t->w.fn = val_ref(p[0]);
    t->configs = val_ref(proto->configs);
    t->keys = val_ref(proto->keys);
    t->prune = val_ref(proto->prune);
    t->reset_to_zero = val_ref(proto->reset_to_zero);
    t->restore_value = val_ref(proto->restore_value);
    t->pre_hook = val_ref(proto->pre_hook);
    t->post_hook = val_ref(proto->post_hook);
    t->do_bench = val_ref(proto->do_bench);
    t->warmup = proto->warmup;
    t->rep = proto->rep;
    t->cache = val_dict_new();
    t->best_config = val_none();
    t->timings = val_dict_new();
    return val_of(t);
}

/* A list of str from a list/tuple of str (or None: empty). */
static val tune_names(host *h, val v, const char *what, src_span at)
{
    if (v.kind == VAL_MISSING || v.kind == VAL_NONE)
        return val_list_new(0);
    if (v.kind == VAL_STR) {
        val l = val_list_new(1);
        val_list_push(l, val_ref(v));
        return l;
    }
    val l = host_to_list(h, v, at);
    if (l.kind == VAL_ERR)
        return l;
    const val_seq *s = val_as_seq(l);
    for (size_t i = 0; i < s->len; i++)
        if (s->items[i].kind != VAL_STR) {
            val_unref(l);
            return host_error(h, at, "autotune() %s must be a list of argument names, not "
                              "a list holding %s", what, val_type_name(s->items[i]));
        }
    return l;
}

static val tune_autotune(host *h, val self, int argc, const val *argv,
                         const val_kwargs *kw, src_span at)
{
    (void)self;
    val p[11];
    if (!host_args(h, at, "autotune", "configs, key, prune_configs_by=, reset_to_zero=, "
                   "restore_value=, pre_hook=, post_hook=, warmup=, rep=, use_cuda_graph=, "
                   "do_bench=", argc, argv, kw, p))
        return val_err();
    tune_tuner *t = val_obj_new(sizeof *t, VAL_OBJECT, &tune_tuner_type);
    t->w.fn = val_none();
    t->prune = val_none();
    t->pre_hook = val_none();
    t->post_hook = val_none();
    t->do_bench = val_none();
    t->cache = val_none();
    t->best_config = val_none();
    t->timings = val_none();
    t->configs = val_list_new(0);
    t->keys = val_list_new(0);
    t->reset_to_zero = val_list_new(0);
    t->restore_value = val_list_new(0);
    val proto = val_of(t);
    val l = host_to_list(h, p[0], at);
    if (l.kind == VAL_ERR)
        goto fail;
    val_unref(t->configs);
    t->configs = l;
    if (val_as_seq(l)->len == 0) {
        host_error(h, at, "autotune() needs at least one triton.Config in configs");
        goto fail;
    }
    for (size_t i = 0; i < val_as_seq(l)->len; i++)
        if (!tune_is_config(val_as_seq(l)->items[i])) {
            host_error(h, at, "autotune() configs must be triton.Config objects, not %s",
                       val_type_name(val_as_seq(l)->items[i]));
            goto fail;
        }
    val *lists[3] = {&t->keys, &t->reset_to_zero, &t->restore_value};
    const char *what[3] = {"key", "reset_to_zero", "restore_value"};
    int idx[3] = {1, 3, 4};
    for (int i = 0; i < 3; i++) {
        val n = tune_names(h, p[idx[i]], what[i], at);
        if (n.kind == VAL_ERR)
            goto fail;
        val_unref(*lists[i]);
        *lists[i] = n;
    }
    if (p[2].kind != VAL_MISSING && p[2].kind != VAL_NONE) {
        if (p[2].kind != VAL_DICT) {
            host_error(h, at, "prune_configs_by must be a dict with 'early_config_prune', "
                       "'perf_model' and 'top_k', not %s", val_type_name(p[2]));
            goto fail;
        }
        t->prune = val_ref(p[2]);
    }
    if (p[5].kind != VAL_MISSING)
        t->pre_hook = val_ref(p[5]);
    if (p[6].kind != VAL_MISSING)
        t->post_hook = val_ref(p[6]);
    if (p[10].kind != VAL_MISSING)
        t->do_bench = val_ref(p[10]);
    t->warmup = 25;
    t->rep = 100;
    if ((p[7].kind != VAL_MISSING && p[7].kind != VAL_NONE &&
         !host_to_float(h, p[7], at, "autotune() warmup", &t->warmup)) ||
        (p[8].kind != VAL_MISSING && p[8].kind != VAL_NONE &&
         !host_to_float(h, p[8], at, "autotune() rep", &t->rep)))
        goto fail;
    return val_builtin_new("triton.autotune", tune_tuner_apply, proto);
fail:
    val_unref(proto);
    return val_err();
}

/* ---- the launcher: wrapper[grid] ---------------------------------------- */

static void tune_launcher_free(val_obj *o)
{
    tune_launcher *l = (tune_launcher *)o;
    val_unref(l->wrapper);
    val_unref(l->grid);
}

static val tune_launcher_call(host *h, val self, int argc, const val *argv,
                              const val_kwargs *kw, src_span at)
{
    tune_launcher *l = (tune_launcher *)self.u.o;
    if (val_type_of(l->wrapper) == &tune_heur_type)
        return tune_heur_run(h, (tune_heur *)l->wrapper.u.o, l->grid, argc, argv, kw, at);
    return tune_tuner_run(h, (tune_tuner *)l->wrapper.u.o, l->grid, argc, argv, kw, at);
}

static const val_type tune_launcher_type = {
    .name = "Launcher",
    .call = tune_launcher_call,
    .free = tune_launcher_free,
};

void autotune_init(val triton)
{
    host_def(triton, "triton.Config", tune_config_new);
    host_def(triton, "triton.autotune", tune_autotune);
    host_def(triton, "triton.heuristics", tune_heuristics);
}
