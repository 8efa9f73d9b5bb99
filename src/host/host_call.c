/* host_call.c - calls: making a program function (def, lambda: defaults
 * evaluated once), binding a call's arguments to its parameters as Python
 * does (with the messages CPython gives, and the signature), running the
 * call in a new environment, host_call for every callable; and host_args,
 * the same matching for the parameters of C functions. */
#include "host_impl.h"

#include <stdio.h>
#include <string.h>

/* ---- calls ----------------------------------------------------------------------- */

static const ast_list *host_func_params(const val_func *f)
{
    return f->node->kind == AST_FUNCDEF ? &f->node->u.funcdef.params : &f->node->u.lambda.params;
}

/* " (def f(a, b=2, *args, c, **kw))", for messages about arguments. */
static const char *host_signature(host *h, const val_func *f, char *buf, size_t len)
{
    const ast_list *ps = host_func_params(f);
    strbuf b = {0};
    strbuf_printf(&b, " (%s %s(", f->node->kind == AST_FUNCDEF ? "def" : "lambda", f->name);
    bool star = false;
    for (int i = 0; i < ps->len; i++) {
        const ast_node *p = ps->items[i];
        if (i)
            strbuf_puts(&b, ", ");
        if (p->u.param.kind == AST_PARAM_KWONLY && !star) {
            strbuf_puts(&b, "*, ");
            star = true;
        }
        if (p->u.param.kind == AST_PARAM_VARARGS) {
            strbuf_putc(&b, '*');
            star = true;
        }
        if (p->u.param.kind == AST_PARAM_KWARGS)
            strbuf_puts(&b, "**");
        strbuf_puts(&b, p->u.param.name);
        if (f->defaults[i].kind != VAL_MISSING) {
            strbuf_putc(&b, '=');
            val_print_repr(h, f->defaults[i], &b);
        }
        if (p->u.param.kind == AST_PARAM_POSONLY &&
            (i + 1 == ps->len || ps->items[i + 1]->u.param.kind != AST_PARAM_POSONLY))
            strbuf_puts(&b, ", /");
    }
    strbuf_puts(&b, "))");
    if (b.len + 1 > len) {
        /* Long defaults: keep the start and close the parentheses. */
        snprintf(buf, len, "%.*s...)", (int)(len - 5), b.data);
    } else {
        snprintf(buf, len, "%s", b.data);
    }
    strbuf_free(&b);
    return buf;
}

/* "'a'", "'a' and 'b'", "'a', 'b', and 'c'" (CPython's wording). */
static void host_name_list(strbuf *b, const char **names, int n)
{
    for (int i = 0; i < n; i++) {
        if (i && n > 2)
            strbuf_puts(b, ", ");
        if (i == n - 1 && n > 1)
            strbuf_puts(b, n > 2 ? "and " : " and ");
        strbuf_printf(b, "'%s'", names[i]);
    }
}

/* Bind a call's arguments to the parameters of f: slots[i] for parameter
 * i, as Python does.  Reports and returns false on a mismatch. */
static bool host_bind(host *h, const val_func *f, val *slots, int argc, const val *argv,
                      const val_kwargs *kw, src_span at)
{
    const ast_list *ps = host_func_params(f);
    int npos = 0, nposonly = 0, varargs = -1, kwargs = -1;
    for (int i = 0; i < ps->len; i++) {
        ast_param_kind k = ps->items[i]->u.param.kind;
        if (k == AST_PARAM_POSONLY) {
            npos++;
            nposonly++;
        } else if (k == AST_PARAM_NORMAL)
            npos++;
        else if (k == AST_PARAM_VARARGS)
            varargs = i;
        else if (k == AST_PARAM_KWARGS)
            kwargs = i;
    }
    char sig[256];
    if (argc > npos && varargs < 0) {
        int required = 0;
        for (int i = 0; i < npos; i++)
            if (f->defaults[i].kind == VAL_MISSING)
                required++;
        if (required == npos)
            host_raise(h, HOST_EXC_TYPE, at,
                       "%s() takes %d positional argument%s but %d %s given%s", f->name,
                       npos, npos == 1 ? "" : "s", argc, argc == 1 ? "was" : "were",
                       host_signature(h, f, sig, sizeof sig));
        else
            host_raise(h, HOST_EXC_TYPE, at,
                       "%s() takes from %d to %d positional arguments but %d %s "
                       "given%s", f->name, required, npos, argc, argc == 1 ? "was" : "were",
                       host_signature(h, f, sig, sizeof sig));
        return false;
    }
    int i = 0;
    for (; i < argc && i < npos; i++)
        slots[i] = val_ref(argv[i]);
    if (varargs >= 0) {
        int n = argc > npos ? argc - npos : 0;
        val t = val_tuple_new((size_t)n);
        for (int k = 0; k < n; k++)
            val_as_seq(t)->items[k] = val_ref(argv[npos + k]);
        slots[varargs] = t;
    }
    if (kwargs >= 0)
        slots[kwargs] = val_dict_new();
    for (int k = 0; kw && k < kw->n; k++) {
        const char *name = kw->names[k];
        int p = -1;
        for (int j = 0; j < ps->len; j++) {
            const ast_node *pn = ps->items[j];
            if (j != varargs && j != kwargs && !strcmp(pn->u.param.name, name)) {
                p = j;
                break;
            }
        }
        if (p >= 0 && p < nposonly && kwargs < 0) {
            host_raise(h, HOST_EXC_TYPE, at,
                       "%s() got a positional-only argument passed as a keyword "
                       "argument: '%s'%s", f->name, name, host_signature(h, f, sig, sizeof sig));
            return false;
        }
        if (p < 0 || p < nposonly) {
            if (kwargs >= 0) {
                val_dict_set_str(slots[kwargs], name, val_ref(kw->values[k]));
                continue;
            }
            host_suggest s;
            host_suggest_init(&s, name);
            for (int j = 0; j < ps->len; j++)
                if (j != varargs && j != kwargs)
                    host_suggest_add(&s, ps->items[j]->u.param.name);
            char buf[128];
            host_raise(h, HOST_EXC_TYPE, at,
                       "%s() got an unexpected keyword argument '%s'%s%s", f->name, name,
                       host_did_you_mean(&s, buf, sizeof buf),
                       host_signature(h, f, sig, sizeof sig));
            return false;
        }
        if (slots[p].kind != VAL_MISSING) {
            host_raise(h, HOST_EXC_TYPE, at,
                       "%s() got multiple values for argument '%s'%s", f->name, name,
                       host_signature(h, f, sig, sizeof sig));
            return false;
        }
        slots[p] = val_ref(kw->values[k]);
    }
    /* Defaults, then what is still missing. */
    const char *missing[64];
    int nmissing = 0;
    bool kwonly_missing = false;
    for (int j = 0; j < ps->len; j++) {
        if (slots[j].kind != VAL_MISSING)
            continue;
        if (f->defaults[j].kind != VAL_MISSING) {
            slots[j] = val_ref(f->defaults[j]);
            continue;
        }
        bool kwonly = ps->items[j]->u.param.kind == AST_PARAM_KWONLY;
        if (nmissing > 0 && kwonly != kwonly_missing)
            continue;   /* report the positional ones first */
        kwonly_missing = kwonly;
        if (nmissing < 64)
            missing[nmissing++] = ps->items[j]->u.param.name;
    }
    if (nmissing) {
        strbuf b = {0};
        host_name_list(&b, missing, nmissing);
        host_raise(h, HOST_EXC_TYPE, at,
                   "%s() missing %d required %s argument%s: %s%s", f->name, nmissing,
                   kwonly_missing ? "keyword-only" : "positional", nmissing == 1 ? "" : "s",
                   b.data, host_signature(h, f, sig, sizeof sig));
        strbuf_free(&b);
        return false;
    }
    return true;
}

static val host_call_func(host *h, val fn, int argc, const val *argv, const val_kwargs *kw,
                          src_span at)
{
    const val_func *f = (const val_func *)fn.u.o;
    if (h->depth >= HOST_MAX_DEPTH)
        return host_raise(h, HOST_EXC_RECURSION, at,
                          "maximum recursion depth exceeded (%d nested calls): is a "
                          "recursive function missing its base case?", HOST_MAX_DEPTH);
    const host_scope *sc = host_scope_of(h, f->node);
    val env = host_env_new(sc, f->closure);
    if (!host_bind(h, f, host_env_of(env)->slots, argc, argv, kw, at)) {
        val_unref(env);
        return val_err();
    }
    if (f->node->kind == AST_FUNCDEF && f->node->u.funcdef.generator)
        return gen_new_func(h, fn, env);
    host_frame frame = {h->frame, f->name, at, f->globals, val_none(), f, f->file, false};
    val saved_env = h->env, saved_ns = h->class_ns;
    const src_file *saved_file = h->file;
    h->frame = &frame;
    h->file = f->file;
    h->env = env;
    h->class_ns = val_none();
    h->depth++;
    val r;
    if (f->node->kind == AST_LAMBDA) {
        r = host_eval(h, f->node->u.lambda.body);
    } else {
        host_flow fl = host_exec_block(h, &f->node->u.funcdef.body);
        r = fl == FLOW_ERROR ? (val_unref(frame.retval), val_err()) : frame.retval;
    }
    h->depth--;
    h->env = saved_env;
    h->class_ns = saved_ns;
    h->frame = frame.prev;
    h->file = saved_file;
    host_env_release(env);
    return r;
}

val host_call(host *h, val fn, int argc, const val *argv, const val_kwargs *kw, src_span at)
{
    switch (fn.kind) {
    case VAL_ERR:
        return fn;
    case VAL_FUNC:
        return host_call_func(h, fn, argc, argv, kw, at);
    case VAL_BUILTIN: {
        const val_builtin *b = (const val_builtin *)fn.u.o;
        if (b->fn == host_call_unbound)
            return host_unbound_invoke(h, b, argc, argv, kw, at);
        static const val_kwargs none = {0, NULL, NULL};
        h->calling = b;
        return b->fn(h, b->self, argc, argv, kw ? kw : &none, at);
    }
    default:
        break;
    }
    const val_type *t = val_type_of(fn);
    if (t && t->call) {
        static const val_kwargs none = {0, NULL, NULL};
        return t->call(h, fn, argc, argv, kw ? kw : &none, at);
    }
    return host_raise(h, HOST_EXC_TYPE, at, "'%s' object is not callable", val_type_name(fn));
}

/* ---- arguments of C functions ------------------------------------------------ */

typedef struct host_param {
    char name[48];
    bool optional, kwonly;
} host_param;

static int host_parse_params(const char *spec, host_param *ps, int max)
{
    int n = 0;
    bool kwonly = false;
    const char *p = spec;
    while (*p && n < max) {
        while (*p == ' ' || *p == ',')
            p++;
        if (!*p)
            break;
        size_t len = strcspn(p, ",");
        while (len && p[len - 1] == ' ')
            len--;
        if (len == 1 && *p == '*') {
            kwonly = true;
        } else {
            host_param *q = &ps[n++];
            q->optional = p[len - 1] == '=';
            size_t nl = q->optional ? len - 1 : len;
            if (nl >= sizeof q->name)
                nl = sizeof q->name - 1;
            memcpy(q->name, p, nl);
            q->name[nl] = '\0';
            q->kwonly = kwonly;
        }
        p += strcspn(p, ",");
    }
    return n;
}

bool host_args(host *h, src_span at, const char *fname, const char *params, int argc,
               const val *argv, const val_kwargs *kw, val *out)
{
    host_param ps[32];
    int n = host_parse_params(params, ps, 32);
    int npos = 0;
    while (npos < n && !ps[npos].kwonly)
        npos++;
    for (int i = 0; i < n; i++)
        out[i] = val_missing();
    if (argc > npos) {
        host_error(h, at, "%s() takes at most %d positional argument%s (%d given); its "
                   "parameters are (%s)", fname, npos, npos == 1 ? "" : "s", argc, params);
        return false;
    }
    for (int i = 0; i < argc; i++)
        out[i] = argv[i];
    for (int k = 0; kw && k < kw->n; k++) {
        int p = -1;
        for (int i = 0; i < n; i++)
            if (!strcmp(ps[i].name, kw->names[k]))
                p = i;
        if (p < 0) {
            host_suggest s;
            host_suggest_init(&s, kw->names[k]);
            for (int i = 0; i < n; i++)
                host_suggest_add(&s, ps[i].name);
            char buf[128];
            host_raise(h, HOST_EXC_TYPE, at,
                       "%s() got an unexpected keyword argument '%s'%s; its parameters "
                       "are (%s)", fname, kw->names[k], host_did_you_mean(&s, buf, sizeof buf),
                       params);
            return false;
        }
        if (out[p].kind != VAL_MISSING) {
            host_raise(h, HOST_EXC_TYPE, at,
                       "%s() got multiple values for argument '%s'", fname, ps[p].name);
            return false;
        }
        out[p] = kw->values[k];
    }
    for (int i = 0; i < n; i++)
        if (out[i].kind == VAL_MISSING && !ps[i].optional) {
            host_raise(h, HOST_EXC_TYPE, at,
                       "%s() missing required argument '%s'; its parameters are (%s)",
                       fname, ps[i].name, params);
            return false;
        }
    return true;
}

/* ---- making functions ------------------------------------------------------ */

val host_make_func(host *h, const ast_node *node, const char *name,
                   const ast_list *params)
{
    val_func *f = val_obj_new(sizeof *f, VAL_FUNC, NULL);
    f->name = name;
    f->node = node;
    f->file = h->file;
    f->globals = val_ref(h->frame->globals);
    f->closure = val_ref(h->env);
    f->attrs = val_none();
    f->owner = val_none();
    f->nparams = params->len;
    f->defaults = xmalloc((size_t)(params->len ? params->len : 1) * sizeof *f->defaults);
    for (int i = 0; i < params->len; i++)
        f->defaults[i] = val_missing();
    /* Defaults are evaluated once, now, in the defining scope. */
    for (int i = 0; i < params->len; i++) {
        const ast_node *d = params->items[i]->u.param.default_;
        if (!d)
            continue;
        val v = host_eval(h, d);
        if (v.kind == VAL_ERR) {
            val_unref(val_of(f));
            return v;
        }
        f->defaults[i] = v;
    }
    return val_of(f);
}
