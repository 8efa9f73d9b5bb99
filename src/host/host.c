/* host.c - the host evaluator: a tree-walking interpreter of the Python
 * subset of DESIGN.md section 1 over the values of val.h.
 *
 * Scopes follow Python's rules.  Each def, lambda and comprehension is
 * analysed once (host_scope: its parameters, the names it binds, its
 * global and nonlocal declarations).  A call gets an environment (ENV
 * object) with one slot per local name and a link to the environment the
 * function was defined in, so closures see (and `nonlocal` rebinds) the
 * variables of enclosing calls.  Names not local to any enclosing
 * function are the module's globals, then the built-ins.
 *
 * A class body runs in the scope around it with its own namespace
 * (h->class_ns): the names it binds go there, and become the class's
 * attributes (classes.c has the rest of classes).
 *
 * Control flow comes back from statements as a host_flow; errors as
 * VAL_ERR / FLOW_ERROR with the exception pending in h->exc (host.h,
 * exceptions.c), which `try` catches and `finally` and `with` let pass
 * after running their code.  Fatal errors (h->exiting) pass through all
 * of them. */
#define _POSIX_C_SOURCE 200809L
#include "host_impl.h"
#include "pathlibmod.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pyformat.h"

/* Python's default recursion limit; how deep comparisons of nested
 * tuples may go; the most items a list made by the host may have (a
 * runaway list(range(10**18)) is an error, not an out-of-memory exit). */
enum { HOST_MAX_DEPTH = 1000, HOST_MAX_NEST = 500, HOST_MAX_ITEMS = 1 << 27 };

/* What a def, lambda or comprehension binds.  locals[0..nparams) are the
 * parameters in order. */
struct host_scope {
    const ast_node *node;
    const char **locals;
    int nlocals, nparams;
    const char **globals;
    int nglobals;
    const char **nonlocals;
    int nnonlocals;
};

/* The variables of one call (or comprehension). */
typedef struct host_env {
    val_obj h;
    const host_scope *scope;   /* lives in the host's scope arena */
    val parent;                /* ENV the function was defined in, or NONE */
    int nslots;
    val *slots;                /* VAL_MISSING while unbound */
} host_env;

typedef enum host_flow {
    FLOW_NEXT, FLOW_BREAK, FLOW_CONTINUE, FLOW_RETURN, FLOW_ERROR
} host_flow;

static val host_eval(host *h, const ast_node *e);
static host_flow host_exec_block(host *h, const ast_list *body);
static bool host_assign(host *h, const ast_node *target, val v);

/* ---- suggestions ---------------------------------------------------------- */

/* Levenshtein distance, giving up (returning limit + 1) beyond limit. */
static int host_edit_distance(const char *a, const char *b, int limit)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 64 || lb > 64)
        return limit + 1;
    if ((la > lb ? la - lb : lb - la) > (size_t)limit)
        return limit + 1;
    int row[65];
    for (size_t j = 0; j <= lb; j++)
        row[j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        int prev = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= lb; j++) {
            int cur = row[j];
            int cost = a[i - 1] == b[j - 1] ? 0 : 1;
            int best = prev + cost;
            if (row[j] + 1 < best)
                best = row[j] + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            prev = cur;
        }
    }
    return row[lb];
}

void host_suggest_init(host_suggest *s, const char *name)
{
    s->name = name;
    s->best = NULL;
    s->best_dist = 0;
}

void host_suggest_add(host_suggest *s, const char *cand)
{
    if (!cand || !strcmp(cand, s->name))
        return;
    /* Close enough: about a third of the name may differ. */
    int limit = (int)strlen(s->name) / 3;
    if (limit < 1)
        limit = 1;
    if (limit > 3)
        limit = 3;
    int d = host_edit_distance(s->name, cand, limit);
    if (d <= limit && (!s->best || d < s->best_dist)) {
        s->best = cand;
        s->best_dist = d;
    }
}

static void host_suggest_dict(host_suggest *s, val d)
{
    if (d.kind != VAL_DICT)
        return;
    size_t pos = 0;
    val k, v;
    while (val_dict_next(d, &pos, &k, &v))
        if (k.kind == VAL_STR)
            host_suggest_add(s, val_as_str(k)->s);
}

/* " (did you mean 'x'?)" or "". */
static const char *host_did_you_mean(const host_suggest *s, char *buf, size_t len)
{
    if (!s->best)
        return "";
    snprintf(buf, len, " (did you mean '%s'?)", s->best);
    return buf;
}

/* ---- scope analysis -------------------------------------------------------- */

typedef struct host_names {
    const char **v;
    int n, cap;
} host_names;

static bool host_names_has(const host_names *ns, const char *name)
{
    for (int i = 0; i < ns->n; i++)
        if (!strcmp(ns->v[i], name))
            return true;
    return false;
}

static void host_names_add(host_names *ns, const char *name)
{
    if (host_names_has(ns, name))
        return;
    if (ns->n == ns->cap) {
        ns->cap = ns->cap ? ns->cap * 2 : 8;
        ns->v = xrealloc(ns->v, (size_t)ns->cap * sizeof *ns->v);
    }
    ns->v[ns->n++] = name;
}

typedef struct host_scope_builder {
    host_names locals, globals, nonlocals;
} host_scope_builder;

/* Names bound by an assignment target. */
static void host_scope_target(host_names *ns, const ast_node *t)
{
    if (!t)
        return;
    switch (t->kind) {
    case AST_NAME:
        host_names_add(ns, t->u.name.id);
        break;
    case AST_TUPLE:
    case AST_LIST:
        for (int i = 0; i < t->u.seq.elts.len; i++)
            host_scope_target(ns, t->u.seq.elts.items[i]);
        break;
    case AST_STARRED:
        host_scope_target(ns, t->u.starred.value);
        break;
    default:
        break;   /* attributes and subscripts bind no name */
    }
}

/* The first component of a dotted import: `import a.b` binds a. */
static const char *host_import_binding(arena *a, const ast_node *alias)
{
    if (alias->u.alias.asname)
        return alias->u.alias.asname;
    const char *name = alias->u.alias.name;
    const char *dot = strchr(name, '.');
    return dot ? arena_strndup(a, name, (size_t)(dot - name)) : name;
}

static void host_scope_block(host *h, host_scope_builder *b, const ast_list *body);

static void host_scope_stmt(host *h, host_scope_builder *b, const ast_node *s)
{
    switch (s->kind) {
    case AST_ASSIGN:
        for (int i = 0; i < s->u.assign.targets.len; i++)
            host_scope_target(&b->locals, s->u.assign.targets.items[i]);
        break;
    case AST_AUGASSIGN:
        host_scope_target(&b->locals, s->u.augassign.target);
        break;
    case AST_ANNASSIGN:
        host_scope_target(&b->locals, s->u.annassign.target);
        break;
    case AST_FOR:
        host_scope_target(&b->locals, s->u.for_.target);
        host_scope_block(h, b, &s->u.for_.body);
        host_scope_block(h, b, &s->u.for_.orelse);
        break;
    case AST_IF:
    case AST_WHILE:
        host_scope_block(h, b, &s->u.if_.body);
        host_scope_block(h, b, &s->u.if_.orelse);
        break;
    case AST_FUNCDEF:
        host_names_add(&b->locals, s->u.funcdef.name);
        break;
    case AST_CLASSDEF:
        /* the class's body binds names in its own namespace, not here */
        host_names_add(&b->locals, s->u.classdef.name);
        break;
    case AST_TRY:
        host_scope_block(h, b, &s->u.try_.body);
        for (int i = 0; i < s->u.try_.handlers.len; i++) {
            const ast_node *hd = s->u.try_.handlers.items[i];
            if (hd->u.handler.name)
                host_names_add(&b->locals, hd->u.handler.name);
            host_scope_block(h, b, &hd->u.handler.body);
        }
        host_scope_block(h, b, &s->u.try_.orelse);
        host_scope_block(h, b, &s->u.try_.finalbody);
        break;
    case AST_WITH:
        for (int i = 0; i < s->u.with.items.len; i++)
            host_scope_target(&b->locals, s->u.with.items.items[i]->u.withitem.target);
        host_scope_block(h, b, &s->u.with.body);
        break;
    case AST_DEL:
        for (int i = 0; i < s->u.del.targets.len; i++)
            host_scope_target(&b->locals, s->u.del.targets.items[i]);
        break;
    case AST_IMPORT:
        for (int i = 0; i < s->u.import.names.len; i++)
            host_names_add(&b->locals,
                           host_import_binding(&h->scope_arena, s->u.import.names.items[i]));
        break;
    case AST_IMPORTFROM:
        for (int i = 0; i < s->u.importfrom.names.len; i++) {
            const ast_node *al = s->u.importfrom.names.items[i];
            if (strcmp(al->u.alias.name, "*"))
                host_names_add(&b->locals,
                               al->u.alias.asname ? al->u.alias.asname : al->u.alias.name);
        }
        break;
    case AST_GLOBAL:
        for (int i = 0; i < s->u.global.names.len; i++)
            host_names_add(&b->globals, s->u.global.names.items[i]->u.name.id);
        break;
    case AST_NONLOCAL:
        for (int i = 0; i < s->u.global.names.len; i++)
            host_names_add(&b->nonlocals, s->u.global.names.items[i]->u.name.id);
        break;
    default:
        break;
    }
}

static void host_scope_block(host *h, host_scope_builder *b, const ast_list *body)
{
    for (int i = 0; i < body->len; i++)
        host_scope_stmt(h, b, body->items[i]);
}

static const char **host_names_freeze(host *h, const host_names *ns)
{
    return (const char **)arena_copy_ptrs(&h->scope_arena, (void *const *)ns->v,
                                          (size_t)ns->n);
}

static host_scope *host_scope_build(host *h, const ast_node *node)
{
    host_scope_builder b;
    memset(&b, 0, sizeof b);
    const ast_list *params = NULL;
    if (node->kind == AST_FUNCDEF)
        params = &node->u.funcdef.params;
    else if (node->kind == AST_LAMBDA)
        params = &node->u.lambda.params;
    int nparams = 0;
    if (params) {
        for (int i = 0; i < params->len; i++)
            host_names_add(&b.locals, params->items[i]->u.param.name);
        nparams = b.locals.n;
    }
    if (node->kind == AST_FUNCDEF) {
        host_scope_block(h, &b, &node->u.funcdef.body);
    } else if (node->kind != AST_LAMBDA) {
        /* A comprehension binds its loop targets. */
        const ast_list *gens = &node->u.comp.generators;
        for (int i = 0; i < gens->len; i++)
            host_scope_target(&b.locals, gens->items[i]->u.comprehension.target);
    }
    /* Names declared global or nonlocal are not local. */
    host_names locals = {0};
    for (int i = 0; i < b.locals.n; i++) {
        const char *n = b.locals.v[i];
        if (i < nparams || (!host_names_has(&b.globals, n) &&
                            !host_names_has(&b.nonlocals, n)))
            host_names_add(&locals, n);
    }
    host_scope *sc = arena_alloc(&h->scope_arena, sizeof *sc);
    sc->node = node;
    sc->locals = host_names_freeze(h, &locals);
    sc->nlocals = locals.n;
    sc->nparams = nparams;
    sc->globals = host_names_freeze(h, &b.globals);
    sc->nglobals = b.globals.n;
    sc->nonlocals = host_names_freeze(h, &b.nonlocals);
    sc->nnonlocals = b.nonlocals.n;
    free(locals.v);
    free(b.locals.v);
    free(b.globals.v);
    free(b.nonlocals.v);
    return sc;
}

/* The analysis of node, made on first use (a hash table by address). */
static const host_scope *host_scope_of(host *h, const ast_node *node)
{
    if (h->scope_cap == 0 || (h->scope_count + 1) * 2 > h->scope_cap) {
        size_t cap = h->scope_cap ? h->scope_cap * 2 : 64;
        host_scope **t = xcalloc(cap, sizeof *t);
        for (size_t i = 0; i < h->scope_cap; i++) {
            host_scope *sc = h->scope_table[i];
            if (!sc)
                continue;
            size_t j = ((uintptr_t)sc->node >> 4) & (cap - 1);
            while (t[j])
                j = (j + 1) & (cap - 1);
            t[j] = sc;
        }
        free(h->scope_table);
        h->scope_table = t;
        h->scope_cap = cap;
    }
    size_t j = ((uintptr_t)node >> 4) & (h->scope_cap - 1);
    while (h->scope_table[j]) {
        if (h->scope_table[j]->node == node)
            return h->scope_table[j];
        j = (j + 1) & (h->scope_cap - 1);
    }
    host_scope *sc = host_scope_build(h, node);
    h->scope_table[j] = sc;
    h->scope_count++;
    return sc;
}

static int host_scope_index(const host_scope *sc, const char *name)
{
    for (int i = 0; i < sc->nlocals; i++)
        if (sc->locals[i][0] == name[0] && !strcmp(sc->locals[i], name))
            return i;
    return -1;
}

static bool host_scope_declares(const char **names, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(names[i], name))
            return true;
    return false;
}

/* ---- environments ------------------------------------------------------------ */

static void host_env_free(val_obj *o)
{
    host_env *e = (host_env *)o;
    for (int i = 0; i < e->nslots; i++)
        val_unref(e->slots[i]);
    free(e->slots);
    val_unref(e->parent);
}

static const val_type host_env_type = {
    .name = "environment",
    .free = host_env_free,
};

static val host_env_new(const host_scope *sc, val parent)
{
    host_env *e = val_obj_new(sizeof *e, VAL_ENV, &host_env_type);
    e->scope = sc;
    e->parent = val_ref(parent);
    e->nslots = sc->nlocals;
    e->slots = xmalloc((size_t)(sc->nlocals ? sc->nlocals : 1) * sizeof *e->slots);
    for (int i = 0; i < sc->nlocals; i++)
        e->slots[i] = val_missing();
    return val_of(e);
}

static host_env *host_env_of(val v)
{
    return v.kind == VAL_ENV ? (host_env *)v.u.o : NULL;
}

/* Drop the reference to the environment of a call that has returned.  A
 * function defined in the call and kept in one of its variables (an inner
 * def, a lambda assigned to a name) holds the environment as its closure
 * while the environment holds it: a cycle that reference counting never
 * frees (val_free_all would, at exit), and with it every tensor the call
 * had.  When nothing but such functions references the environment, and
 * nothing but the environment references them, the cycle is garbage: its
 * variables are cleared, which frees it. */
static void host_env_release(val env)
{
    host_env *e = host_env_of(env);
    if (!e || e->h.refs == 1) {
        val_unref(env);
        return;
    }
    int inner = 0;   /* distinct functions of the env that close over it */
    for (int i = 0; i < e->nslots; i++) {
        val v = e->slots[i];
        if (v.kind != VAL_FUNC || ((val_func *)v.u.o)->closure.u.o != env.u.o)
            continue;
        int occurrences = 0, first = i;
        for (int j = 0; j < e->nslots; j++)
            if (e->slots[j].kind == VAL_FUNC && e->slots[j].u.o == v.u.o) {
                occurrences++;
                if (j < first)
                    first = j;
            }
        if (v.u.o->refs != occurrences) {   /* held from outside too */
            val_unref(env);
            return;
        }
        inner += first == i;
    }
    if (e->h.refs == 1 + inner)
        for (int i = 0; i < e->nslots; i++) {
            val old = e->slots[i];
            e->slots[i] = val_missing();
            val_unref(old);
        }
    val_unref(env);
}

/* ---- names ------------------------------------------------------------------ */

/* Where `name` lives as seen from env: *slot points at an environment slot,
 * or NULL when it is global.  *own tells whether the slot belongs to env
 * itself (a local) or to an enclosing call (a free variable). */
static void host_resolve(val env, const char *name, val **slot, bool *own)
{
    *slot = NULL;
    *own = true;
    for (host_env *e = host_env_of(env); e; e = host_env_of(e->parent)) {
        const host_scope *sc = e->scope;
        if (host_scope_declares(sc->globals, sc->nglobals, name))
            return;
        int i = host_scope_index(sc, name);
        if (i >= 0) {
            *slot = &e->slots[i];
            return;
        }
        *own = false;
    }
}

static void host_suggest_names(host *h, host_suggest *s)
{
    for (host_env *e = host_env_of(h->env); e; e = host_env_of(e->parent))
        for (int i = 0; i < e->scope->nlocals; i++)
            host_suggest_add(s, e->scope->locals[i]);
    host_suggest_dict(s, h->frame->globals);
    host_suggest_dict(s, h->builtins);
}

void host_each_name(host *h, void (*fn)(const char *name, void *ctx), void *ctx)
{
    for (host_env *e = host_env_of(h->env); e; e = host_env_of(e->parent))
        for (int i = 0; i < e->scope->nlocals; i++)
            if (e->slots[i].kind != VAL_MISSING)
                fn(e->scope->locals[i], ctx);
    size_t pos = 0;
    val key, value;
    while (h->frame && val_dict_next(h->frame->globals, &pos, &key, &value))
        if (key.kind == VAL_STR)
            fn(val_as_str(key)->s, ctx);
}

/* The value of a name (borrowed), or VAL_ERR after reporting. */
static val host_load_name(host *h, const char *name, src_span at)
{
    if (h->class_ns.kind == VAL_DICT) {
        val v = val_dict_get_str(h->class_ns, name);
        if (v.kind != VAL_MISSING)
            return v;
    }
    val *slot;
    bool own;
    host_resolve(h->env, name, &slot, &own);
    if (slot) {
        if (slot->kind == VAL_MISSING) {
            if (own)
                return host_raise(h, HOST_EXC_UNBOUND_LOCAL, at,
                                  "local variable '%s' is used before it is "
                                  "assigned (it is local because the function assigns it "
                                  "somewhere; declare it 'global %s' to use the global)",
                                  name, name);
            return host_raise(h, HOST_EXC_NAME, at,
                              "variable '%s' of an enclosing function is used "
                              "before it is assigned", name);
        }
        return *slot;
    }
    val v = val_dict_get_str(h->frame->globals, name);
    if (v.kind != VAL_MISSING)
        return v;
    v = val_dict_get_str(h->builtins, name);
    if (v.kind != VAL_MISSING)
        return v;
    host_suggest s;
    host_suggest_init(&s, name);
    host_suggest_names(h, &s);
    char buf[128];
    val args = val_tuple_new(1);
    val_seq_set(args, 0, val_str_fmt("name '%s' is not defined", name));
    return host_raise_args(h, HOST_EXC_NAME, args, at, "name '%s' is not defined%s", name,
                           host_did_you_mean(&s, buf, sizeof buf));
}

/* Bind name to v (stolen). */
static bool host_store_name(host *h, const char *name, val v, src_span at)
{
    if (h->class_ns.kind == VAL_DICT) {
        val_dict_set_str(h->class_ns, name, v);
        return true;
    }
    host_env *e = host_env_of(h->env);
    if (e && host_scope_declares(e->scope->nonlocals, e->scope->nnonlocals, name)) {
        for (host_env *p = host_env_of(e->parent); p; p = host_env_of(p->parent)) {
            int i = host_scope_index(p->scope, name);
            if (i >= 0) {
                val old = p->slots[i];
                p->slots[i] = v;
                val_unref(old);
                return true;
            }
        }
        val_unref(v);
        host_error(h, at, "no binding for nonlocal '%s' found in an enclosing function",
                   name);
        return false;
    }
    if (e && !host_scope_declares(e->scope->globals, e->scope->nglobals, name)) {
        int i = host_scope_index(e->scope, name);
        if (i >= 0) {
            val old = e->slots[i];
            e->slots[i] = v;
            val_unref(old);
            return true;
        }
    }
    val_dict_set_str(h->frame->globals, name, v);
    return true;
}

static bool host_delete_name(host *h, const char *name, src_span at)
{
    if (h->class_ns.kind == VAL_DICT) {
        val k = val_str_cstr(name);
        val old = val_dict_pop(h->class_ns, k);
        val_unref(k);
        if (old.kind != VAL_MISSING) {
            val_unref(old);
            return true;
        }
    }
    val *slot;
    bool own;
    host_env *e = host_env_of(h->env);
    if (e && host_scope_declares(e->scope->nonlocals, e->scope->nnonlocals, name))
        host_resolve(e->parent, name, &slot, &own);
    else
        host_resolve(h->env, name, &slot, &own);
    if (slot && slot->kind != VAL_MISSING) {
        val old = *slot;
        *slot = val_missing();
        val_unref(old);
        return true;
    }
    if (!slot) {
        val k = val_str_cstr(name);
        val old = val_dict_pop(h->frame->globals, k);
        val_unref(k);
        if (old.kind != VAL_MISSING) {
            val_unref(old);
            return true;
        }
    }
    host_raise(h, HOST_EXC_NAME, at, "name '%s' is not defined", name);
    return false;
}

val host_func_lookup(host *h, val fn, const char *name)
{
    if (fn.kind != VAL_FUNC)
        return val_missing();
    const val_func *f = (const val_func *)fn.u.o;
    val *slot;
    bool own;
    host_resolve(f->closure, name, &slot, &own);
    if (slot)
        return *slot;
    val v = val_dict_get_str(f->globals, name);
    if (v.kind != VAL_MISSING)
        return v;
    return val_dict_get_str(h->builtins, name);
}

/* ---- conversions ---------------------------------------------------------- */

static bool host_is_int(val v)
{
    return v.kind == VAL_INT || v.kind == VAL_BOOL;
}

static bool host_is_num(val v)
{
    return v.kind == VAL_INT || v.kind == VAL_BOOL || v.kind == VAL_FLOAT;
}

static int64_t host_int_of(val v)
{
    return v.kind == VAL_BOOL ? (int64_t)v.u.b : v.u.i;
}

static double host_float_of(val v)
{
    return v.kind == VAL_FLOAT ? v.u.f : (double)host_int_of(v);
}

bool host_to_int(host *h, val v, src_span at, const char *what, int64_t *out)
{
    if (host_is_int(v)) {
        *out = host_int_of(v);
        return true;
    }
    if (v.kind == VAL_ERR)
        return false;
    /* Objects that stand for an integer (a 0-d integer tensor) say so with
     * __index__, as in Python: range(t), lst[t]. */
    const val_type *t = val_type_of(v);
    if (t && t->getattr) {
        val index = t->getattr(h, v, "__index__", at);
        if (index.kind == VAL_ERR)
            return false;
        if (index.kind != VAL_MISSING) {
            val r = host_call(h, index, 0, NULL, NULL, at);
            val_unref(index);
            if (r.kind == VAL_ERR)
                return false;
            bool ok = host_is_int(r);
            if (ok)
                *out = host_int_of(r);
            val_unref(r);
            if (ok)
                return true;
        }
    }
    host_raise(h, HOST_EXC_TYPE, at, "%s must be an int, not '%s'%s", what, val_type_name(v),
               v.kind == VAL_FLOAT ? " (convert with int(x) or use //)" : "");
    return false;
}

bool host_to_float(host *h, val v, src_span at, const char *what, double *out)
{
    if (host_is_num(v)) {
        *out = host_float_of(v);
        return true;
    }
    if (v.kind == VAL_ERR)
        return false;
    host_raise(h, HOST_EXC_TYPE, at, "%s must be a number, not '%s'", what, val_type_name(v));
    return false;
}

bool host_to_str(host *h, val v, src_span at, const char *what, const char **out)
{
    if (v.kind == VAL_STR) {
        *out = val_as_str(v)->s;
        return true;
    }
    if (v.kind == VAL_ERR)
        return false;
    host_raise(h, HOST_EXC_TYPE, at, "%s must be a str, not '%s'", what, val_type_name(v));
    return false;
}

/* ---- numbers ------------------------------------------------------------------ */

static val host_overflow(host *h, src_span at)
{
    return host_raise(h, HOST_EXC_OVERFLOW, at, "integer overflow: tritsim's ints are 64-bit "
                      "(Python's are unbounded); use a float if you need bigger values");
}

static val host_int_pow(host *h, int64_t a, int64_t b, src_span at)
{
    if (b < 0) {
        if (a == 0)
            return host_raise(h, HOST_EXC_ZERO_DIVISION, at,
                              "0.0 cannot be raised to a negative power");
        return val_float(pow((double)a, (double)b));
    }
    int64_t r = 1, base = a;
    while (b) {
        if (b & 1 && __builtin_mul_overflow(r, base, &r))
            return host_overflow(h, at);
        b >>= 1;
        if (b && __builtin_mul_overflow(base, base, &base))
            return host_overflow(h, at);
    }
    return val_int(r);
}

static val host_int_binop(host *h, ast_op op, val va, val vb, src_span at)
{
    int64_t a = host_int_of(va), b = host_int_of(vb), r;
    bool bools = va.kind == VAL_BOOL && vb.kind == VAL_BOOL;
    switch (op) {
    case AST_OP_ADD:
        if (__builtin_add_overflow(a, b, &r))
            return host_overflow(h, at);
        return val_int(r);
    case AST_OP_SUB:
        if (__builtin_sub_overflow(a, b, &r))
            return host_overflow(h, at);
        return val_int(r);
    case AST_OP_MUL:
        if (__builtin_mul_overflow(a, b, &r))
            return host_overflow(h, at);
        return val_int(r);
    case AST_OP_DIV:
        if (b == 0)
            return host_raise(h, HOST_EXC_ZERO_DIVISION, at, "division by zero");
        /* Exact below 2^53, as Python's int division. */
        return val_float((double)((long double)a / (long double)b));
    case AST_OP_FLOORDIV:
    case AST_OP_MOD:
        if (b == 0)
            return host_raise(h, HOST_EXC_ZERO_DIVISION, at, "integer division or modulo by zero");
        if (a == INT64_MIN && b == -1) {
            if (op == AST_OP_MOD)
                return val_int(0);
            return host_overflow(h, at);
        }
        if (op == AST_OP_FLOORDIV) {
            /* Python rounds toward minus infinity, C toward zero. */
            r = a / b;
            if (a % b != 0 && ((a < 0) != (b < 0)))
                r--;
        } else {
            r = a % b;
            if (r != 0 && ((r < 0) != (b < 0)))
                r += b;
        }
        return val_int(r);
    case AST_OP_POW:
        return host_int_pow(h, a, b, at);
    case AST_OP_LSHIFT:
        if (b < 0)
            return host_raise(h, HOST_EXC_VALUE, at, "negative shift count");
        if (a == 0)
            return val_int(0);
        if (b >= 63 || (a > 0 ? a > (INT64_MAX >> b) : a < (INT64_MIN >> b)))
            return host_overflow(h, at);
        return val_int((int64_t)((uint64_t)a << b));
    case AST_OP_RSHIFT:
        if (b < 0)
            return host_raise(h, HOST_EXC_VALUE, at, "negative shift count");
        if (b >= 64)
            return val_int(a < 0 ? -1 : 0);
        /* Arithmetic shift, written so it does not rely on C's
         * implementation-defined >> of negative numbers. */
        return val_int(a >= 0 ? a >> b : ~(~a >> b));
    case AST_OP_BITAND:
        return bools ? val_bool(a & b) : val_int(a & b);
    case AST_OP_BITOR:
        return bools ? val_bool(a | b) : val_int(a | b);
    case AST_OP_BITXOR:
        return bools ? val_bool(a ^ b) : val_int(a ^ b);
    default:
        return val_missing();
    }
}

static val host_float_binop(host *h, ast_op op, double a, double b, src_span at)
{
    switch (op) {
    case AST_OP_ADD: return val_float(a + b);
    case AST_OP_SUB: return val_float(a - b);
    case AST_OP_MUL: return val_float(a * b);
    case AST_OP_DIV:
        if (b == 0)
            return host_raise(h, HOST_EXC_ZERO_DIVISION, at, "float division by zero");
        return val_float(a / b);
    case AST_OP_FLOORDIV:
    case AST_OP_MOD: {
        if (b == 0)
            return host_raise(h, HOST_EXC_ZERO_DIVISION, at,
                              op == AST_OP_MOD ? "float modulo by zero"
                                                      : "float floor division by zero");
        /* CPython's float_divmod. */
        double mod = fmod(a, b);
        double div = (a - mod) / b;
        if (mod != 0) {
            if ((b < 0) != (mod < 0)) {
                mod += b;
                div -= 1.0;
            }
        } else {
            mod = copysign(0.0, b);
        }
        double floordiv;
        if (div != 0) {
            floordiv = floor(div);
            if (div - floordiv > 0.5)
                floordiv += 1.0;
        } else {
            floordiv = copysign(0.0, a / b);
        }
        return val_float(op == AST_OP_MOD ? mod : floordiv);
    }
    case AST_OP_POW: {
        if (b == 0 || a == 1)
            return val_float(1.0);
        if (isnan(a) || isnan(b))
            return val_float(NAN);
        if (a == 0 && b < 0)
            return host_raise(h, HOST_EXC_ZERO_DIVISION, at,
                              "0.0 cannot be raised to a negative power");
        if (a < 0 && isfinite(a) && isfinite(b) && b != floor(b))
            return host_raise(h, HOST_EXC_VALUE, at,
                              "a negative number to a fractional power is a complex "
                              "number, which tritsim does not support");
        double r = pow(a, b);
        if (isinf(r) && isfinite(a) && isfinite(b))
            return host_raise(h, HOST_EXC_OVERFLOW, at,
                              "float power overflows (the result is too large)");
        return val_float(r);
    }
    default:
        return val_missing();
    }
}

/* Compare numbers exactly (an int and a float too): -1, 0, 1, or 2 when
 * unordered (NaN). */
static int host_num_cmp(val a, val b)
{
    if (host_is_int(a) && host_is_int(b)) {
        int64_t x = host_int_of(a), y = host_int_of(b);
        return x < y ? -1 : x > y;
    }
    if (a.kind == VAL_FLOAT && b.kind == VAL_FLOAT) {
        if (isnan(a.u.f) || isnan(b.u.f))
            return 2;
        return a.u.f < b.u.f ? -1 : a.u.f > b.u.f;
    }
    bool flip = a.kind == VAL_FLOAT;
    int64_t i = host_int_of(flip ? b : a);
    double f = flip ? a.u.f : b.u.f;
    int r;
    if (isnan(f))
        return 2;
    if (f >= 9223372036854775808.0)
        r = -1;
    else if (f < -9223372036854775808.0)
        r = 1;
    else {
        double t = trunc(f);
        int64_t fi = (int64_t)t;
        if (i != fi)
            r = i < fi ? -1 : 1;
        else
            r = f > t ? -1 : f < t ? 1 : 0;
    }
    return flip ? -r : r;
}

/* ---- truth, equality, ordering ---------------------------------------------- */

int host_truth(host *h, val v, src_span at)
{
    int t = val_truth_builtin(v);
    if (t >= 0)
        return t;
    if (v.kind == VAL_ERR)
        return -1;
    const val_type *ty = val_type_of(v);
    return ty->truth(h, v, at);
}

static const char *host_op_text(ast_op op)
{
    switch (op) {
    case AST_OP_UADD: return "+";
    case AST_OP_USUB: return "-";
    default: return ast_op_name(op);
    }
}

static val host_binop_full(host *h, ast_op op, bool inplace, val a, val b, src_span at);

/* a == b as a C truth value: 1, 0, -1 after an error. */
static int host_eq(host *h, val a, val b, src_span at)
{
    if (val_is_heap(a) && val_is_heap(b) && a.u.o == b.u.o)
        return 1;
    if (!val_type_of(a) && !val_type_of(b))
        return val_equal(a, b);
    val r = host_binop_full(h, AST_OP_EQ, false, a, b, at);
    if (r.kind == VAL_ERR)
        return -1;
    int t = host_truth(h, r, at);
    val_unref(r);
    return t;
}

static val host_cmp_error(host *h, ast_op op, val a, val b, src_span at)
{
    return host_raise(h, HOST_EXC_TYPE, at,
                      "'%s' is not supported between instances of '%s' and '%s'",
                      ast_op_name(op), val_type_name(a), val_type_name(b));
}

static bool host_cmp_result(ast_op op, int c)
{
    switch (op) {
    case AST_OP_LT: return c < 0;
    case AST_OP_LE: return c <= 0;
    case AST_OP_GT: return c > 0;
    default: return c >= 0;
    }
}

/* a < b, a <= b, ... on the built-in kinds. */
static val host_order(host *h, ast_op op, val a, val b, src_span at)
{
    if (host_is_num(a) && host_is_num(b)) {
        int c = host_num_cmp(a, b);
        return val_bool(c != 2 && host_cmp_result(op, c));
    }
    if (a.kind == VAL_STR && b.kind == VAL_STR) {
        const val_str *x = val_as_str(a), *y = val_as_str(b);
        size_t n = x->len < y->len ? x->len : y->len;
        int c = memcmp(x->s, y->s, n);
        if (c == 0)
            c = x->len < y->len ? -1 : x->len > y->len;
        return val_bool(host_cmp_result(op, c));
    }
    if ((a.kind == VAL_TUPLE || a.kind == VAL_LIST) && a.kind == b.kind) {
        /* Lexicographic: the first items that differ decide. */
        const val_seq *x = val_as_seq(a), *y = val_as_seq(b);
        size_t i = 0;
        for (; i < x->len && i < y->len; i++) {
            int e = host_eq(h, x->items[i], y->items[i], at);
            if (e < 0)
                return val_err();
            if (!e) {
                if (h->nest >= HOST_MAX_NEST)
                    return host_raise(h, HOST_EXC_RECURSION, at,
                                      "the values compared are nested too deeply");
                h->nest++;
                val r = host_binop_full(h, op, false, x->items[i], y->items[i], at);
                h->nest--;
                return r;
            }
        }
        int c = x->len < y->len ? -1 : x->len > y->len;
        return val_bool(host_cmp_result(op, c));
    }
    return host_cmp_error(h, op, a, b, at);
}

int host_less(host *h, val a, val b, src_span at)
{
    val r = host_binop_full(h, AST_OP_LT, false, a, b, at);
    if (r.kind == VAL_ERR)
        return -1;
    int t = host_truth(h, r, at);
    val_unref(r);
    return t;
}

static bool host_is_same(val a, val b)
{
    if (a.kind != b.kind)
        return false;
    switch (a.kind) {
    case VAL_NONE:
    case VAL_ELLIPSIS:
        return true;
    case VAL_BOOL: return a.u.b == b.u.b;
    case VAL_INT: return a.u.i == b.u.i;
    case VAL_FLOAT: return memcmp(&a.u.f, &b.u.f, sizeof a.u.f) == 0;
    case VAL_DTYPE: return a.u.dtype == b.u.dtype;
    default: return a.u.o == b.u.o;
    }
}

/* ---- membership ------------------------------------------------------------ */

static val host_iterator_items(val it);

/* item in container: 1, 0, -1 after an error. */
static int host_contains(host *h, val container, val item, src_span at)
{
    switch (container.kind) {
    case VAL_STR: {
        if (item.kind != VAL_STR) {
            host_raise(h, HOST_EXC_TYPE, at, "'in <string>' requires a str on the left, not '%s'",
                       val_type_name(item));
            return -1;
        }
        const val_str *s = val_as_str(container), *t = val_as_str(item);
        if (t->len == 0)
            return 1;
        if (t->len > s->len)
            return 0;
        for (size_t i = 0; i + t->len <= s->len; i++)
            if (!memcmp(s->s + i, t->s, t->len))
                return 1;
        return 0;
    }
    case VAL_TUPLE:
    case VAL_LIST: {
        const val_seq *s = val_as_seq(container);
        for (size_t i = 0; i < s->len; i++) {
            int e = host_eq(h, s->items[i], item, at);
            if (e != 0)
                return e;
        }
        return 0;
    }
    case VAL_DICT:
        if (!val_hashable(item)) {
            host_raise(h, HOST_EXC_TYPE, at, "unhashable type: '%s'", val_type_name(item));
            return -1;
        }
        return val_dict_get(container, item).kind != VAL_MISSING;
    case VAL_RANGE: {
        const val_range *r = (const val_range *)container.u.o;
        int64_t i;
        if (host_is_int(item))
            i = host_int_of(item);
        else if (item.kind == VAL_FLOAT && item.u.f == trunc(item.u.f) &&
                 fabs(item.u.f) < 9.2e18)
            i = (int64_t)item.u.f;
        else
            return 0;
        if (r->step > 0 ? (i < r->start || i >= r->stop) : (i > r->start || i <= r->stop))
            return 0;
        return ((uint64_t)i - (uint64_t)r->start) % (uint64_t)(r->step > 0 ? r->step : -r->step) == 0;
    }
    default:
        break;
    }
    const val_type *t = val_type_of(container);
    if (t && t->binop) {
        val r = t->binop(h, AST_OP_IN, false, item, container, at);
        if (r.kind == VAL_ERR)
            return -1;
        if (r.kind != VAL_MISSING) {
            int tr = host_truth(h, r, at);
            val_unref(r);
            return tr;
        }
    }
    val items = host_iterator_items(container);
    if (items.kind != VAL_MISSING)
        return host_contains(h, items, item, at);
    if (t && t->iter) {
        val seq = t->iter(h, container, at);
        if (seq.kind == VAL_ERR)
            return -1;
        int r = host_contains(h, seq, item, at);
        val_unref(seq);
        return r;
    }
    host_raise(h, HOST_EXC_TYPE, at,
               "argument of type '%s' is not iterable", val_type_name(container));
    return -1;
}

/* ---- binary operators on the built-in kinds ---------------------------------- */

/* Refuse absurd repetitions before allocating them. */
static bool host_repeat_count(host *h, val n, size_t len, src_span at, size_t *out)
{
    int64_t k = host_int_of(n);
    if (k <= 0 || len == 0) {
        *out = 0;
        return true;
    }
    if ((uint64_t)k > (size_t)HOST_MAX_ITEMS / len) {
        host_raise(h, HOST_EXC_MEMORY, at,
                   "the repeated sequence would be too long (%zu * %lld items)", len,
                   (long long)k);
        return false;
    }
    *out = (size_t)k;
    return true;
}

static val host_seq_concat(val a, val b)
{
    const val_seq *x = val_as_seq(a), *y = val_as_seq(b);
    val r = a.kind == VAL_TUPLE ? val_tuple_new(x->len + y->len) : val_list_new(x->len + y->len);
    val_seq *s = val_as_seq(r);
    for (size_t i = 0; i < x->len; i++)
        s->items[i] = val_ref(x->items[i]);
    for (size_t i = 0; i < y->len; i++)
        s->items[x->len + i] = val_ref(y->items[i]);
    s->len = x->len + y->len;
    return r;
}

static val host_seq_repeat(host *h, val seq, val n, src_span at)
{
    const val_seq *x = val_as_seq(seq);
    size_t k;
    if (!host_repeat_count(h, n, x->len, at, &k))
        return val_err();
    val r = seq.kind == VAL_TUPLE ? val_tuple_new(x->len * k) : val_list_new(x->len * k);
    val_seq *s = val_as_seq(r);
    for (size_t j = 0; j < k; j++)
        for (size_t i = 0; i < x->len; i++)
            s->items[j * x->len + i] = val_ref(x->items[i]);
    s->len = x->len * k;
    return r;
}

static val host_str_repeat(host *h, val str, val n, src_span at)
{
    const val_str *s = val_as_str(str);
    size_t k;
    if (!host_repeat_count(h, n, s->len * 8, at, &k))
        return val_err();
    strbuf b = {0};
    for (size_t i = 0; i < k; i++)
        strbuf_putn(&b, s->s, s->len);
    return val_str_from_buf(&b);
}

static val host_binop_error(host *h, ast_op op, val a, val b, src_span at)
{
    const char *hint = "";
    if (op == AST_OP_ADD && (a.kind == VAL_STR) != (b.kind == VAL_STR) &&
        (a.kind == VAL_STR || b.kind == VAL_STR))
        hint = " (convert the number with str(x), or use an f-string)";
    if (op == AST_OP_ADD && a.kind == VAL_STR)
        return host_raise(h, HOST_EXC_TYPE, at, "can only concatenate str (not \"%s\") to str%s",
                          val_type_name(b), hint);
    if (op == AST_OP_ADD && (a.kind == VAL_LIST || a.kind == VAL_TUPLE))
        return host_raise(h, HOST_EXC_TYPE, at, "can only concatenate %s (not \"%s\") to %s",
                          val_type_name(a), val_type_name(b), val_type_name(a));
    return host_raise(h, HOST_EXC_TYPE, at, "unsupported operand type(s) for %s: '%s' and '%s'%s",
                      host_op_text(op), val_type_name(a), val_type_name(b), hint);
}

static val host_arith(host *h, ast_op op, bool inplace, val a, val b, src_span at)
{
    if (host_is_int(a) && host_is_int(b)) {
        val r = host_int_binop(h, op, a, b, at);
        if (r.kind != VAL_MISSING)
            return r;
    } else if (host_is_num(a) && host_is_num(b)) {
        val r = host_float_binop(h, op, host_float_of(a), host_float_of(b), at);
        if (r.kind != VAL_MISSING)
            return r;
    }
    switch (op) {
    case AST_OP_ADD:
        if (a.kind == VAL_STR && b.kind == VAL_STR) {
            strbuf s = {0};
            strbuf_putn(&s, val_as_str(a)->s, val_as_str(a)->len);
            strbuf_putn(&s, val_as_str(b)->s, val_as_str(b)->len);
            return val_str_from_buf(&s);
        }
        if (inplace && a.kind == VAL_LIST) {
            /* list += iterable extends the list itself. */
            val items = host_to_list(h, b, at);
            if (items.kind == VAL_ERR)
                return items;
            for (size_t i = 0; i < val_as_seq(items)->len; i++)
                val_list_push(a, val_ref(val_as_seq(items)->items[i]));
            val_unref(items);
            return val_ref(a);
        }
        if ((a.kind == VAL_LIST || a.kind == VAL_TUPLE) && a.kind == b.kind)
            return host_seq_concat(a, b);
        break;
    case AST_OP_MUL:
        if (a.kind == VAL_STR && host_is_int(b))
            return host_str_repeat(h, a, b, at);
        if (b.kind == VAL_STR && host_is_int(a))
            return host_str_repeat(h, b, a, at);
        if ((a.kind == VAL_LIST || a.kind == VAL_TUPLE) && host_is_int(b)) {
            val r = host_seq_repeat(h, a, b, at);
            if (inplace && a.kind == VAL_LIST && r.kind == VAL_LIST) {
                /* list *= n repeats in place. */
                val_seq *x = val_as_seq(a), *y = val_as_seq(r);
                val *old = x->items;
                size_t oldlen = x->len;
                x->items = y->items;
                x->len = y->len;
                x->cap = y->cap;
                y->items = old;
                y->len = oldlen;
                y->cap = oldlen;
                val_unref(r);
                return val_ref(a);
            }
            return r;
        }
        if ((b.kind == VAL_LIST || b.kind == VAL_TUPLE) && host_is_int(a))
            return host_seq_repeat(h, b, a, at);
        break;
    case AST_OP_MOD:
        if (a.kind == VAL_STR)
            return builtin_percent_format(h, a, b, at);
        break;
    case AST_OP_BITOR:
        if (a.kind == VAL_DICT && b.kind == VAL_DICT) {
            val r = a;
            if (!inplace) {
                r = val_dict_new();
                size_t pos = 0;
                val k, v;
                while (val_dict_next(a, &pos, &k, &v))
                    val_dict_set(r, val_ref(k), val_ref(v));
            } else {
                val_ref(r);
            }
            size_t pos = 0;
            val k, v;
            while (val_dict_next(b, &pos, &k, &v))
                val_dict_set(r, val_ref(k), val_ref(v));
            return r;
        }
        break;
    default:
        break;
    }
    return host_binop_error(h, op, a, b, at);
}

/* a op b with the object types' hooks first (in place when asked). */
static val host_binop_full(host *h, ast_op op, bool inplace, val a, val b, src_span at)
{
    if (a.kind == VAL_ERR || b.kind == VAL_ERR)
        return val_err();
    if (op == AST_OP_IN || op == AST_OP_NOTIN) {
        int c = host_contains(h, b, a, at);
        if (c < 0)
            return val_err();
        return val_bool(op == AST_OP_IN ? c : !c);
    }
    if (op == AST_OP_IS || op == AST_OP_ISNOT)
        return val_bool(host_is_same(a, b) == (op == AST_OP_IS));
    const val_type *ta = val_type_of(a), *tb = val_type_of(b);
    if (ta && ta->binop) {
        val r = ta->binop(h, op, inplace, a, b, at);
        if (r.kind != VAL_MISSING)
            return r;
    }
    if (tb && tb->binop && tb != ta) {
        val r = tb->binop(h, op, false, a, b, at);
        if (r.kind != VAL_MISSING)
            return r;
    }
    switch (op) {
    case AST_OP_EQ:
    case AST_OP_NE: {
        /* Objects without an == of their own compare by identity. */
        bool eq = (ta || tb) ? host_is_same(a, b) : val_equal(a, b);
        return val_bool(op == AST_OP_EQ ? eq : !eq);
    }
    case AST_OP_LT:
    case AST_OP_LE:
    case AST_OP_GT:
    case AST_OP_GE:
        return host_order(h, op, a, b, at);
    default:
        return host_arith(h, op, inplace, a, b, at);
    }
}

val host_binop(host *h, ast_op op, val a, val b, src_span at)
{
    return host_binop_full(h, op, false, a, b, at);
}

static val host_unop(host *h, ast_op op, val v, src_span at)
{
    if (op == AST_OP_NOT) {
        int t = host_truth(h, v, at);
        return t < 0 ? val_err() : val_bool(!t);
    }
    if (host_is_int(v)) {
        int64_t i = host_int_of(v);
        switch (op) {
        case AST_OP_USUB:
            if (i == INT64_MIN)
                return host_overflow(h, at);
            return val_int(-i);
        case AST_OP_UADD: return val_int(i);
        case AST_OP_INVERT: return val_int(~i);
        default: break;
        }
    }
    if (v.kind == VAL_FLOAT) {
        if (op == AST_OP_USUB)
            return val_float(-v.u.f);
        if (op == AST_OP_UADD)
            return val_float(v.u.f);
    }
    const val_type *t = val_type_of(v);
    if (t && t->unop) {
        val r = t->unop(h, op, v, at);
        if (r.kind != VAL_MISSING)
            return r;
    }
    return host_raise(h, HOST_EXC_TYPE, at, "bad operand type for unary %s: '%s'", host_op_text(op),
                      val_type_name(v));
}

/* ---- indexing ------------------------------------------------------------------ */

/* A slice bound: None keeps the default, ints and bools count. */
static bool host_slice_bound(host *h, val v, src_span at, bool *given, int64_t *out)
{
    *given = v.kind != VAL_NONE;
    if (!*given)
        return true;
    if (host_is_int(v)) {
        *out = host_int_of(v);
        return true;
    }
    host_raise(h, HOST_EXC_TYPE, at,
               "slice indices must be integers or None, not '%s'", val_type_name(v));
    return false;
}

/* Python's PySlice_GetIndicesEx: the first index, the step and the number
 * of items that slice s picks from a sequence of len items. */
static bool host_slice_indices_ex(host *h, val slice, int64_t len, src_span at,
                                  int64_t *start, int64_t *stop, int64_t *step,
                                  int64_t *count)
{
    const val_slice *s = (const val_slice *)slice.u.o;
    bool given;
    int64_t st = 1, lo = 0, hi = 0;
    if (!host_slice_bound(h, s->step, at, &given, &st))
        return false;
    if (given && st == 0) {
        host_raise(h, HOST_EXC_VALUE, at, "slice step cannot be zero");
        return false;
    }
    if (st < -INT64_MAX)
        st = -INT64_MAX;
    bool back = st < 0;
    if (!host_slice_bound(h, s->start, at, &given, &lo))
        return false;
    if (!given)
        lo = back ? len - 1 : 0;
    else if (lo < 0) {
        lo += len;
        if (lo < 0)
            lo = back ? -1 : 0;
    } else if (lo >= len)
        lo = back ? len - 1 : len;
    if (!host_slice_bound(h, s->stop, at, &given, &hi))
        return false;
    if (!given)
        hi = back ? -1 : len;
    else if (hi < 0) {
        hi += len;
        if (hi < 0)
            hi = back ? -1 : 0;
    } else if (hi >= len)
        hi = back ? len - 1 : len;
    if (back)
        *count = hi < lo ? (lo - hi - 1) / -st + 1 : 0;
    else
        *count = lo < hi ? (hi - lo - 1) / st + 1 : 0;
    *start = lo;
    *stop = hi;
    *step = st;
    return true;
}

static bool host_slice_indices(host *h, val slice, int64_t len, src_span at,
                               int64_t *start, int64_t *step, int64_t *count)
{
    int64_t stop;
    return host_slice_indices_ex(h, slice, len, at, start, &stop, step, count);
}

/* An int index into a sequence of len items, negative ones from the end. */
static bool host_seq_index(host *h, val key, int64_t len, const char *what, src_span at,
                           int64_t *out)
{
    int64_t i;
    if (val_type_of(key) && key.kind != VAL_DTYPE) {
        /* an object with __index__ (a 0-d integer tensor) */
        if (!host_to_int(h, key, at, "an index", &i))
            return false;
    } else if (!host_is_int(key)) {
        host_raise(h, HOST_EXC_TYPE, at, "%s indices must be integers or slices, not '%s'%s", what,
                   val_type_name(key),
                   key.kind == VAL_FLOAT ? " (convert with int(x) or use //)" : "");
        return false;
    } else {
        i = host_int_of(key);
    }
    int64_t j = i < 0 ? i + len : i;
    if (j < 0 || j >= len) {
        /* e.args as Python has them: "list index out of range" */
        val args = val_tuple_new(1);
        val_seq_set(args, 0,
                    !strcmp(what, "str") ? val_str_cstr("string index out of range")
                    : !strcmp(what, "range") ? val_str_cstr("range object index out of range")
                    : val_str_fmt("%s index out of range", what));
        host_raise_args(h, HOST_EXC_INDEX, args, at,
                        "%s index %lld is out of range (the %s has %lld item%s)", what,
                        (long long)i, what, (long long)len, len == 1 ? "" : "s");
        return false;
    }
    *out = j;
    return true;
}

/* Byte offsets of each code point of s, plus the end (chars + 1 entries). */
static size_t *host_str_offsets(const val_str *s, size_t *chars)
{
    size_t n = val_str_chars(s);
    size_t *off = xmalloc((n + 1) * sizeof *off);
    size_t k = 0;
    for (size_t i = 0; i < s->len; i++)
        if (((unsigned char)s->s[i] & 0xC0) != 0x80)
            off[k++] = i;
    off[k] = s->len;
    *chars = n;
    return off;
}

static val host_str_getitem(host *h, val obj, val key, src_span at)
{
    const val_str *s = val_as_str(obj);
    size_t n;
    size_t *off = s->ascii ? NULL : host_str_offsets(s, &n);
    if (s->ascii)
        n = s->len;
    val r;
    if (key.kind == VAL_SLICE) {
        int64_t start, step, count;
        if (!host_slice_indices(h, key, (int64_t)n, at, &start, &step, &count)) {
            free(off);
            return val_err();
        }
        strbuf b = {0};
        for (int64_t k = 0, i = start; k < count; k++, i += step) {
            if (off)
                strbuf_putn(&b, s->s + off[i], off[i + 1] - off[i]);
            else
                strbuf_putc(&b, s->s[i]);
        }
        r = val_str_from_buf(&b);
    } else {
        int64_t i;
        if (!host_seq_index(h, key, (int64_t)n, "string", at, &i)) {
            free(off);
            return val_err();
        }
        r = off ? val_str_new(s->s + off[i], off[i + 1] - off[i]) : val_str_new(s->s + i, 1);
    }
    free(off);
    return r;
}

static val host_range_getitem(host *h, val obj, val key, src_span at)
{
    const val_range *r = (const val_range *)obj.u.o;
    int64_t len = val_range_len(r);
    if (key.kind == VAL_SLICE) {
        /* CPython's compute_slice: the slice's own start and stop, mapped
         * through the range. */
        int64_t start, stop, step, count, a, st, b;
        if (!host_slice_indices_ex(h, key, len, at, &start, &stop, &step, &count))
            return val_err();
        if (__builtin_mul_overflow(start, r->step, &a) || __builtin_add_overflow(a, r->start, &a) ||
            __builtin_mul_overflow(step, r->step, &st) ||
            __builtin_mul_overflow(stop, r->step, &b) || __builtin_add_overflow(b, r->start, &b))
            return host_overflow(h, at);
        return val_range_new(a, b, st);
    }
    int64_t i;
    if (!host_seq_index(h, key, len, "range", at, &i))
        return val_err();
    return val_int(r->start + i * r->step);
}

static val host_key_error(host *h, val d, val key, src_span at)
{
    val rk = host_repr(h, key);
    host_suggest s;
    host_suggest_init(&s, key.kind == VAL_STR ? val_as_str(key)->s : "");
    if (key.kind == VAL_STR)
        host_suggest_dict(&s, d);
    char buf[160];
    val args = val_tuple_new(1);
    val_seq_set(args, 0, val_ref(key));
    host_raise_args(h, HOST_EXC_KEY, args, at, "KeyError: %s (the dict has no such key%s)",
                    val_as_str(rk)->s,
                    s.best ? (snprintf(buf, sizeof buf, "; did you mean '%s'?", s.best), buf) : "");
    val_unref(rk);
    return val_err();
}

val host_getitem(host *h, val obj, val key, src_span at)
{
    if (obj.kind == VAL_ERR || key.kind == VAL_ERR)
        return val_err();
    switch (obj.kind) {
    case VAL_LIST:
    case VAL_TUPLE: {
        const val_seq *s = val_as_seq(obj);
        if (key.kind == VAL_SLICE) {
            int64_t start, step, count;
            if (!host_slice_indices(h, key, (int64_t)s->len, at, &start, &step, &count))
                return val_err();
            val r = obj.kind == VAL_TUPLE ? val_tuple_new((size_t)count)
                                          : val_list_new((size_t)count);
            val_seq *t = val_as_seq(r);
            for (int64_t k = 0, i = start; k < count; k++, i += step)
                t->items[k] = val_ref(s->items[i]);
            t->len = (size_t)count;
            return r;
        }
        int64_t i;
        if (!host_seq_index(h, key, (int64_t)s->len, val_type_name(obj), at, &i))
            return val_err();
        return val_ref(s->items[i]);
    }
    case VAL_STR:
        return host_str_getitem(h, obj, key, at);
    case VAL_RANGE:
        return host_range_getitem(h, obj, key, at);
    case VAL_DICT: {
        if (!val_hashable(key))
            return host_raise(h, HOST_EXC_TYPE, at, "unhashable type: '%s'", val_type_name(key));
        val v = val_dict_get(obj, key);
        if (v.kind == VAL_MISSING)
            return host_key_error(h, obj, key, at);
        return val_ref(v);
    }
    case VAL_BUILTIN:
        /* list[int], tuple[int, ...]: type hints, harmless. */
        if (((const val_builtin *)obj.u.o)->inst_kind != VAL_ERR)
            return val_ref(obj);
        break;
    default:
        break;
    }
    const val_type *t = val_type_of(obj);
    if (t && t->getitem)
        return t->getitem(h, obj, key, at);
    return host_raise(h, HOST_EXC_TYPE, at, "'%s' object is not subscriptable", val_type_name(obj));
}

/* lst[slice] = iterable. */
static bool host_list_set_slice(host *h, val list, val slice, val v, src_span at)
{
    val_seq *s = val_as_seq(list);
    int64_t start, step, count;
    if (!host_slice_indices(h, slice, (int64_t)s->len, at, &start, &step, &count))
        return false;
    val items = host_to_list(h, v, at);
    if (items.kind == VAL_ERR)
        return false;
    val_seq *src = val_as_seq(items);
    if (step == 1) {
        size_t keep_end = (size_t)(start + count);
        size_t n = (size_t)start + src->len + (s->len - keep_end);
        val *arr = xmalloc((n ? n : 1) * sizeof *arr);
        size_t k = 0;
        for (size_t i = 0; i < (size_t)start; i++)
            arr[k++] = s->items[i];
        for (size_t i = 0; i < src->len; i++)
            arr[k++] = val_ref(src->items[i]);
        for (size_t i = keep_end; i < s->len; i++)
            arr[k++] = s->items[i];
        val *old = s->items;
        size_t old_start = (size_t)start;
        s->items = arr;
        s->len = s->cap = n;
        for (size_t i = old_start; i < keep_end; i++)
            val_unref(old[i]);
        free(old);
    } else {
        if ((int64_t)src->len != count) {
            host_raise(h, HOST_EXC_VALUE, at,
                       "attempt to assign a sequence of size %zu to an extended slice "
                       "of size %lld", src->len, (long long)count);
            val_unref(items);
            return false;
        }
        for (int64_t k = 0, i = start; k < count; k++, i += step)
            val_seq_set(list, (size_t)i, val_ref(src->items[k]));
    }
    val_unref(items);
    return true;
}

bool host_setitem(host *h, val obj, val key, val v, src_span at)
{
    if (obj.kind == VAL_LIST) {
        if (key.kind == VAL_SLICE)
            return host_list_set_slice(h, obj, key, v, at);
        int64_t i;
        if (!host_seq_index(h, key, (int64_t)val_as_seq(obj)->len, "list", at, &i))
            return false;
        val_seq_set(obj, (size_t)i, val_ref(v));
        return true;
    }
    if (obj.kind == VAL_DICT) {
        if (!val_hashable(key)) {
            host_raise(h, HOST_EXC_TYPE, at, "unhashable type: '%s'", val_type_name(key));
            return false;
        }
        val_dict_set(obj, val_ref(key), val_ref(v));
        return true;
    }
    const val_type *t = val_type_of(obj);
    if (t && t->setitem)
        return t->setitem(h, obj, key, v, at);
    host_raise(h, HOST_EXC_TYPE, at,
               "'%s' object does not support item assignment%s", val_type_name(obj),
               obj.kind == VAL_STR ? " (strings cannot change: build a new one)"
               : obj.kind == VAL_TUPLE ? " (tuples cannot change: use a list)" : "");
    return false;
}

static bool host_delitem(host *h, val obj, val key, src_span at)
{
    if (obj.kind == VAL_LIST) {
        val_seq *s = val_as_seq(obj);
        if (key.kind == VAL_SLICE) {
            int64_t start, step, count;
            if (!host_slice_indices(h, key, (int64_t)s->len, at, &start, &step, &count))
                return false;
            /* Remove from the highest index down so the others stay put. */
            int64_t first = step > 0 ? start : start + (count - 1) * step;
            int64_t st = step > 0 ? step : -step;
            for (int64_t k = count - 1; k >= 0; k--)
                val_unref(val_list_remove(obj, (size_t)(first + k * st)));
            return true;
        }
        int64_t i;
        if (!host_seq_index(h, key, (int64_t)s->len, "list", at, &i))
            return false;
        val_unref(val_list_remove(obj, (size_t)i));
        return true;
    }
    if (obj.kind == VAL_DICT) {
        if (!val_hashable(key)) {
            host_raise(h, HOST_EXC_TYPE, at, "unhashable type: '%s'", val_type_name(key));
            return false;
        }
        val old = val_dict_pop(obj, key);
        if (old.kind == VAL_MISSING) {
            host_key_error(h, obj, key, at);
            return false;
        }
        val_unref(old);
        return true;
    }
    host_raise(h, HOST_EXC_TYPE, at,
               "'%s' object does not support item deletion", val_type_name(obj));
    return false;
}

/* ---- attributes -------------------------------------------------------------- */

/* str.strip and friends taken from the type: called with self first. */
static val host_call_unbound(host *h, val self, int argc, const val *argv,
                             const val_kwargs *kw, src_span at)
{
    (void)h; (void)self; (void)argc; (void)argv; (void)kw; (void)at;
    return val_err();   /* never called directly: host_call routes it */
}

static val host_unbound_invoke(host *h, const val_builtin *b, int argc, const val *argv,
                               const val_kwargs *kw, src_span at)
{
    const host_method *m = b->data;
    if (argc < 1)
        return host_raise(h, HOST_EXC_TYPE, at,
                          "%s() needs the %s to work on as its first argument",
                          m->qualname, val_type_name((val){m->kind, {0}}));
    val_kind want = m->kind;
    val_kind got = argv[0].kind == VAL_BOOL && want == VAL_INT ? VAL_INT : argv[0].kind;
    if (got != want) {
        val tmp = val_none();
        if (want == VAL_FLOAT && host_is_int(argv[0]))
            tmp = val_float(host_float_of(argv[0]));
        else
            return host_raise(h, HOST_EXC_TYPE, at,
                              "%s() needs a '%s' as its first argument, not '%s'",
                              m->qualname, val_type_name((val){m->kind, {0}}),
                              val_type_name(argv[0]));
        return m->fn(h, tmp, argc - 1, argv + 1, kw, at);
    }
    return m->fn(h, argv[0], argc - 1, argv + 1, kw, at);
}

/* A function's docstring: the string its body starts with. */
static val host_func_doc(const val_func *f)
{
    if (f->node->kind != AST_FUNCDEF || f->node->u.funcdef.body.len == 0)
        return val_none();
    const ast_node *s = f->node->u.funcdef.body.items[0];
    if (s->kind == AST_EXPR_STMT && s->u.expr.value->kind == AST_STR)
        return val_str_new(s->u.expr.value->u.str.s, s->u.expr.value->u.str.len);
    return val_none();
}

static const char *host_short_name(const char *qualname)
{
    const char *dot = strrchr(qualname, '.');
    return dot ? dot + 1 : qualname;
}

val host_getattr_opt(host *h, val obj, const char *name, src_span at)
{
    if (obj.kind == VAL_ERR)
        return val_err();
    switch (obj.kind) {
    case VAL_MODULE:
    case VAL_OBJECT: {
        val v = val_object_get(obj, name);
        if (v.kind != VAL_MISSING)
            return val_ref(v);
        break;
    }
    case VAL_FUNC: {
        const val_func *f = (const val_func *)obj.u.o;
        if (f->attrs.kind == VAL_DICT) {
            val v = val_dict_get_str(f->attrs, name);
            if (v.kind != VAL_MISSING)
                return val_ref(v);
        }
        if (!strcmp(name, "__name__") || !strcmp(name, "__qualname__"))
            return val_str_cstr(f->name);
        if (!strcmp(name, "__module__"))
            return val_str_cstr("__main__");
        if (!strcmp(name, "__doc__"))
            return host_func_doc(f);
        return val_missing();
    }
    case VAL_BUILTIN: {
        const val_builtin *b = (const val_builtin *)obj.u.o;
        if (!strcmp(name, "__name__"))
            return val_str_cstr(host_short_name(b->name));
        if (!strcmp(name, "__qualname__"))
            return val_str_cstr(b->name);
        if (b->inst_kind != VAL_ERR && b->inst_kind < VAL_MODULE) {
            const host_method *m = builtin_method(b->inst_kind, name);
            if (m) {
                val u = val_builtin_new(m->qualname, host_call_unbound, val_none());
                ((val_builtin *)u.u.o)->data = m;
                return u;
            }
        }
        return val_missing();
    }
    case VAL_SLICE: {
        const val_slice *s = (const val_slice *)obj.u.o;
        if (!strcmp(name, "start"))
            return val_ref(s->start);
        if (!strcmp(name, "stop"))
            return val_ref(s->stop);
        if (!strcmp(name, "step"))
            return val_ref(s->step);
        return val_missing();
    }
    case VAL_RANGE: {
        const val_range *r = (const val_range *)obj.u.o;
        if (!strcmp(name, "start"))
            return val_int(r->start);
        if (!strcmp(name, "stop"))
            return val_int(r->stop);
        if (!strcmp(name, "step"))
            return val_int(r->step);
        break;
    }
    case VAL_INT:
    case VAL_BOOL:
        if (!strcmp(name, "real") || !strcmp(name, "numerator"))
            return val_int(host_int_of(obj));
        if (!strcmp(name, "imag"))
            return val_int(0);
        if (!strcmp(name, "denominator"))
            return val_int(1);
        break;
    case VAL_FLOAT:
        if (!strcmp(name, "real"))
            return obj;
        if (!strcmp(name, "imag"))
            return val_float(0);
        break;
    default:
        break;
    }
    if (obj.kind >= VAL_BOOL && obj.kind <= VAL_RANGE && obj.kind != VAL_DTYPE &&
        obj.kind != VAL_ELLIPSIS) {
        const host_method *m = builtin_method(obj.kind == VAL_BOOL ? VAL_INT : obj.kind, name);
        if (m)
            return val_builtin_new(m->qualname, m->fn, val_ref(obj));
    }
    const val_type *t = val_type_of(obj);
    if (t && t->getattr)
        return t->getattr(h, obj, name, at);
    return val_missing();
}

val host_getattr(host *h, val obj, const char *name, src_span at)
{
    val v = host_getattr_opt(h, obj, name, at);
    if (v.kind != VAL_MISSING)
        return v;
    host_suggest s;
    host_suggest_init(&s, name);
    if (obj.kind == VAL_MODULE || obj.kind == VAL_OBJECT)
        host_suggest_dict(&s, ((val_object *)obj.u.o)->attrs);
    if (obj.kind == VAL_CLASS || obj.kind == VAL_INSTANCE)
        class_suggest(obj, &s);
    if (obj.kind >= VAL_BOOL && obj.kind <= VAL_RANGE)
        builtin_suggest_methods(obj.kind == VAL_BOOL ? VAL_INT : obj.kind, &s);
    const val_type *t = val_type_of(obj);
    if (t && t->attr_names)
        for (const char *const *n = t->attr_names; *n; n++)
            host_suggest_add(&s, *n);
    char buf[128];
    /* e.args holds Python's message, without the suggestion */
    val args = val_tuple_new(1);
    if (obj.kind == VAL_MODULE) {
        val mname = val_object_get(obj, "__name__");
        const char *mn = mname.kind == VAL_STR ? val_as_str(mname)->s : "?";
        val_seq_set(args, 0, val_str_fmt("module '%s' has no attribute '%s'", mn, name));
        if (s.best)
            return host_raise_args(h, HOST_EXC_ATTRIBUTE, args, at,
                                   "module '%s' has no attribute '%s'%s", mn, name,
                                   host_did_you_mean(&s, buf, sizeof buf));
        return host_raise_args(h, HOST_EXC_ATTRIBUTE, args, at, "module '%s' has no attribute "
                               "'%s' in tritsim (see doc/language.md for what is supported)",
                               mn, name);
    }
    if (obj.kind == VAL_CLASS) {
        const char *cn = ((const val_class *)obj.u.o)->name;
        val_seq_set(args, 0, val_str_fmt("type object '%s' has no attribute '%s'", cn, name));
        return host_raise_args(h, HOST_EXC_ATTRIBUTE, args, at, "type object '%s' has no "
                               "attribute '%s'%s", cn, name,
                               host_did_you_mean(&s, buf, sizeof buf));
    }
    val_seq_set(args, 0, val_str_fmt("'%s' object has no attribute '%s'", val_type_name(obj),
                                     name));
    return host_raise_args(h, HOST_EXC_ATTRIBUTE, args, at, "'%s' object has no attribute "
                           "'%s'%s", val_type_name(obj), name,
                           host_did_you_mean(&s, buf, sizeof buf));
}


bool host_setattr(host *h, val obj, const char *name, val v, src_span at)
{
    const val_type *t = val_type_of(obj);
    if (t && t->setattr)
        return t->setattr(h, obj, name, v, at);
    if (obj.kind == VAL_OBJECT || obj.kind == VAL_MODULE) {
        val_object_set(obj, name, val_ref(v));
        return true;
    }
    if (obj.kind == VAL_FUNC) {
        val_func *f = (val_func *)obj.u.o;
        if (f->attrs.kind != VAL_DICT)
            f->attrs = val_dict_new();
        val_dict_set_str(f->attrs, name, val_ref(v));
        return true;
    }
    host_raise(h, HOST_EXC_ATTRIBUTE, at,
               "cannot set attribute '%s' of a '%s' object", name, val_type_name(obj));
    return false;
}

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
    host_frame frame = {h->frame, f->name, at, f->globals, val_none(), f};
    val saved_env = h->env, saved_ns = h->class_ns;
    h->frame = &frame;
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

/* ---- iteration ---------------------------------------------------------------- */

/* Iterator objects: what zip(), map(), iter() and generator expressions
 * return.  Their items are computed up front; the object only remembers
 * how far iteration got, so it is exhausted after one pass, as in Python. */
typedef struct host_iterator {
    val_object o;
    val items;          /* a tuple or list */
    size_t pos;
    const char *name;   /* "zip", "generator", ... */
} host_iterator;

static void host_iterator_free(val_obj *o)
{
    val_unref(((host_iterator *)o)->items);
}

static void host_iterator_repr(host *h, val self, strbuf *out)
{
    (void)h;
    const host_iterator *it = (const host_iterator *)self.u.o;
    if (!strcmp(it->name, "generator"))
        strbuf_printf(out, "<generator object <genexpr> at %p>", (void *)self.u.o);
    else
        strbuf_printf(out, "<%s object at %p>", it->name, (void *)self.u.o);
}

static const val_type host_iterator_type = {
    .name = "iterator",
    .repr = host_iterator_repr,
    .free = host_iterator_free,
};

val host_iterator_new(val items, const char *name)
{
    host_iterator *it = val_obj_new(sizeof *it, VAL_OBJECT, &host_iterator_type);
    it->items = items;
    it->name = name;
    return val_of(it);
}

bool host_is_iterator(val v)
{
    return v.kind == VAL_OBJECT && v.u.o->type == &host_iterator_type;
}

/* The items an iterator object has left (borrowed list/tuple), or MISSING. */
static val host_iterator_items(val v)
{
    if (v.kind == VAL_OBJECT && v.u.o->type == &host_iterator_type)
        return ((host_iterator *)v.u.o)->items;
    return val_missing();
}

bool host_iter_begin(host *h, val v, src_span at, host_iter *it)
{
    it->src = val_none();
    it->pos = 0;
    it->len = 0;
    it->at = at;
    switch (v.kind) {
    case VAL_ERR:
        return false;
    case VAL_LIST:
    case VAL_TUPLE:
    case VAL_STR:
    case VAL_RANGE:
        it->src = val_ref(v);
        return true;
    case VAL_DICT:
        it->src = val_ref(v);
        it->len = (int64_t)val_as_dict(v)->len;
        return true;
    default:
        break;
    }
    if (v.kind == VAL_OBJECT && v.u.o->type == &host_iterator_type) {
        it->src = val_ref(v);
        return true;
    }
    const val_type *t = val_type_of(v);
    if (t && t->iter) {
        val seq = t->iter(h, v, at);
        if (seq.kind == VAL_ERR)
            return false;
        if (seq.kind != VAL_LIST && seq.kind != VAL_TUPLE) {
            val_unref(seq);
            host_error(h, at, "internal error: the iter hook of '%s' returned a '%s'",
                       val_type_name(v), val_type_name(seq));
            return false;
        }
        it->src = seq;
        return true;
    }
    host_raise(h, HOST_EXC_TYPE, at, "'%s' object is not iterable", val_type_name(v));
    return false;
}

int host_iter_next(host *h, host_iter *it, val *out)
{
    val s = it->src;
    switch (s.kind) {
    case VAL_LIST:
    case VAL_TUPLE:
        if ((size_t)it->pos >= val_as_seq(s)->len)
            return 0;
        *out = val_ref(val_as_seq(s)->items[it->pos++]);
        return 1;
    case VAL_STR: {
        const val_str *str = val_as_str(s);
        if ((size_t)it->pos >= str->len)
            return 0;
        size_t start = (size_t)it->pos, end = start + 1;
        while (end < str->len && ((unsigned char)str->s[end] & 0xC0) == 0x80)
            end++;
        it->pos = (int64_t)end;
        *out = val_str_new(str->s + start, end - start);
        return 1;
    }
    case VAL_RANGE: {
        const val_range *r = (const val_range *)s.u.o;
        if (it->pos >= val_range_len(r))
            return 0;
        *out = val_int(r->start + it->pos++ * r->step);
        return 1;
    }
    case VAL_DICT: {
        if ((int64_t)val_as_dict(s)->len != it->len) {
            host_error(h, it->at, "dictionary changed size during iteration (iterate over "
                       "list(d) to change the dict in the loop)");
            return -1;
        }
        size_t pos = (size_t)it->pos;
        val k, v;
        if (!val_dict_next(s, &pos, &k, &v))
            return 0;
        it->pos = (int64_t)pos;
        *out = val_ref(k);
        return 1;
    }
    case VAL_OBJECT: {
        host_iterator *x = (host_iterator *)s.u.o;
        if (x->pos >= val_as_seq(x->items)->len)
            return 0;
        *out = val_ref(val_as_seq(x->items)->items[x->pos++]);
        return 1;
    }
    default:
        return 0;
    }
}

void host_iter_end(host_iter *it)
{
    val_unref(it->src);
    it->src = val_none();
}

val host_to_list(host *h, val v, src_span at)
{
    if (v.kind == VAL_LIST || v.kind == VAL_TUPLE) {
        const val_seq *s = val_as_seq(v);
        val r = val_list_new(s->len);
        for (size_t i = 0; i < s->len; i++)
            val_list_push(r, val_ref(s->items[i]));
        return r;
    }
    if (v.kind == VAL_RANGE && val_range_len((const val_range *)v.u.o) > HOST_MAX_ITEMS)
        return host_raise(h, HOST_EXC_MEMORY, at,
                          "a list of %lld items is more than tritsim makes (at most %d)",
                          (long long)val_range_len((const val_range *)v.u.o), HOST_MAX_ITEMS);
    host_iter it;
    if (!host_iter_begin(h, v, at, &it))
        return val_err();
    val r = val_list_new(0), x;
    int st;
    while ((st = host_iter_next(h, &it, &x)) > 0)
        val_list_push(r, x);
    host_iter_end(&it);
    if (st < 0) {
        val_unref(r);
        return val_err();
    }
    return r;
}

int64_t host_len(host *h, val v, src_span at)
{
    switch (v.kind) {
    case VAL_STR: return (int64_t)val_str_chars(val_as_str(v));
    case VAL_LIST:
    case VAL_TUPLE: return (int64_t)val_as_seq(v)->len;
    case VAL_DICT: return (int64_t)val_as_dict(v)->len;
    case VAL_RANGE: return val_range_len((const val_range *)v.u.o);
    case VAL_ERR: return -1;
    default: break;
    }
    const val_type *t = val_type_of(v);
    if (t && t->len)
        return t->len(h, v, at);
    host_raise(h, HOST_EXC_TYPE, at, "object of type '%s' has no len()", val_type_name(v));
    return -1;
}

/* ---- text ------------------------------------------------------------------ */

/* repr hooks cannot fail: one that runs program code (a class's
 * __repr__) leaves an exception pending instead. */
val host_repr(host *h, val v)
{
    bool before = host_exc_pending(h);
    strbuf b = {0};
    val_print_repr(h, v, &b);
    if (!before && host_exc_pending(h)) {
        strbuf_free(&b);
        return val_err();
    }
    return val_str_from_buf(&b);
}

val host_str(host *h, val v)
{
    if (v.kind == VAL_STR)
        return val_ref(v);
    bool before = host_exc_pending(h);
    strbuf b = {0};
    val_print_str(h, v, &b);
    if (!before && host_exc_pending(h)) {
        strbuf_free(&b);
        return val_err();
    }
    return val_str_from_buf(&b);
}

val host_format(host *h, val v, const char *spec, size_t len, src_span at)
{
    /* A type with a format hook decides even for an empty spec: a 0-d
     * tensor formats as its number (f"{loss}" is "1.5", not "tensor(1.5)"). */
    const val_type *t = val_type_of(v);
    if (t && t->format)
        return t->format(h, v, spec, len, at);
    if (len == 0)
        return host_str(h, v);
    const char *tn = val_type_name(v);
    if (v.kind != VAL_INT && v.kind != VAL_BOOL && v.kind != VAL_FLOAT && v.kind != VAL_STR)
        return host_error(h, at, "a '%s' cannot be formatted with a format spec ('%.*s'); "
                          "format str(x) instead", tn, (int)len, spec);
    pyformat_spec ps;
    char err[200];
    strbuf b = {0};
    bool ok = pyformat_parse_spec(spec, len, tn, &ps, err, sizeof err);
    if (ok) {
        if (v.kind == VAL_FLOAT)
            ok = pyformat_float(&b, v.u.f, &ps, err, sizeof err);
        else if (v.kind == VAL_STR)
            ok = pyformat_str(&b, val_as_str(v)->s, val_as_str(v)->len, &ps, err, sizeof err);
        else
            ok = pyformat_int(&b, host_int_of(v), &ps, err, sizeof err);
    }
    if (!ok) {
        strbuf_free(&b);
        return host_raise(h, HOST_EXC_VALUE, at, "%s", err);
    }
    return val_str_from_buf(&b);
}

/* ---- expressions --------------------------------------------------------------- */

static val host_make_func(host *h, const ast_node *node, const char *name,
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

/* Evaluate a list of expressions with *starred ones spread out, appending
 * to list out. */
static bool host_eval_spread(host *h, const ast_list *elts, val out)
{
    for (int i = 0; i < elts->len; i++) {
        const ast_node *x = elts->items[i];
        if (x->kind == AST_STARRED) {
            val it = host_eval(h, x->u.starred.value);
            val items = it.kind == VAL_ERR ? it : host_to_list(h, it, x->span);
            val_unref(it);
            if (items.kind == VAL_ERR)
                return false;
            for (size_t k = 0; k < val_as_seq(items)->len; k++)
                val_list_push(out, val_ref(val_as_seq(items)->items[k]));
            val_unref(items);
        } else {
            val v = host_eval(h, x);
            if (v.kind == VAL_ERR)
                return false;
            val_list_push(out, v);
        }
    }
    return true;
}

static val host_eval_seq(host *h, const ast_node *e)
{
    val items = val_list_new((size_t)e->u.seq.elts.len);
    if (!host_eval_spread(h, &e->u.seq.elts, items)) {
        val_unref(items);
        return val_err();
    }
    if (e->kind == AST_LIST)
        return items;
    val_seq *s = val_as_seq(items);
    val t = val_tuple_of(s->len, s->items);
    s->len = 0;   /* the tuple took the references */
    val_unref(items);
    return t;
}

static val host_eval_dict(host *h, const ast_node *e)
{
    val d = val_dict_new();
    for (int i = 0; i < e->u.dict.keys.len; i++) {
        const ast_node *kn = e->u.dict.keys.items[i], *vn = e->u.dict.values.items[i];
        if (!kn) {
            /* {**other} */
            val m = host_eval(h, vn);
            if (m.kind == VAL_ERR)
                goto fail;
            if (m.kind != VAL_DICT) {
                host_raise(h, HOST_EXC_TYPE, vn->span,
                           "'%s' object is not a mapping (** needs a dict)",
                           val_type_name(m));
                val_unref(m);
                goto fail;
            }
            size_t pos = 0;
            val k, v;
            while (val_dict_next(m, &pos, &k, &v))
                val_dict_set(d, val_ref(k), val_ref(v));
            val_unref(m);
            continue;
        }
        val k = host_eval(h, kn);
        if (k.kind == VAL_ERR)
            goto fail;
        if (!val_hashable(k)) {
            host_raise(h, HOST_EXC_TYPE, kn->span,
                       "unhashable type: '%s' (dict keys must be hashable: use "
                       "a tuple instead of a list)", val_type_name(k));
            val_unref(k);
            goto fail;
        }
        val v = host_eval(h, vn);
        if (v.kind == VAL_ERR) {
            val_unref(k);
            goto fail;
        }
        val_dict_set(d, k, v);
    }
    return d;
fail:
    val_unref(d);
    return val_err();
}

static val host_eval_fstring(host *h, const ast_node *e)
{
    strbuf b = {0};
    for (int i = 0; i < e->u.fstring.parts.len; i++) {
        const ast_node *p = e->u.fstring.parts.items[i];
        if (p->kind == AST_STR) {
            strbuf_putn(&b, p->u.str.s, p->u.str.len);
            continue;
        }
        if (p->kind != AST_FORMATTED)
            continue;
        val v = host_eval(h, p->u.formatted.value);
        if (v.kind == VAL_ERR)
            goto fail;
        if (p->u.formatted.conv == 'r' || p->u.formatted.conv == 'a') {
            val r = host_repr(h, v);
            val_unref(v);
            v = r;
        } else if (p->u.formatted.conv == 's') {
            val r = host_str(h, v);
            val_unref(v);
            v = r;
        }
        val spec = val_none();
        if (p->u.formatted.spec) {
            spec = host_eval_fstring(h, p->u.formatted.spec);
            if (spec.kind == VAL_ERR) {
                val_unref(v);
                goto fail;
            }
        }
        val s = spec.kind == VAL_STR
                    ? host_format(h, v, val_as_str(spec)->s, val_as_str(spec)->len, p->span)
                    : host_format(h, v, "", 0, p->span);
        val_unref(spec);
        val_unref(v);
        if (s.kind == VAL_ERR)
            goto fail;
        strbuf_putn(&b, val_as_str(s)->s, val_as_str(s)->len);
        val_unref(s);
    }
    return val_str_from_buf(&b);
fail:
    strbuf_free(&b);
    return val_err();
}

static bool host_comp_loop(host *h, const ast_node *e, int gi, val iterable, val result)
{
    const ast_node *gen = e->u.comp.generators.items[gi];
    host_iter it;
    if (!host_iter_begin(h, iterable, gen->u.comprehension.iter->span, &it))
        return false;
    bool ok = true;
    val x;
    int st;
    while (ok && (st = host_iter_next(h, &it, &x)) > 0) {
        if (!host_assign(h, gen->u.comprehension.target, x)) {
            ok = false;
            break;
        }
        bool keep = true;
        for (int i = 0; keep && i < gen->u.comprehension.ifs.len; i++) {
            const ast_node *c = gen->u.comprehension.ifs.items[i];
            val cv = host_eval(h, c);
            int t = cv.kind == VAL_ERR ? -1 : host_truth(h, cv, c->span);
            val_unref(cv);
            if (t < 0)
                ok = false;
            keep = t > 0;
        }
        if (!ok || !keep)
            continue;
        if (gi + 1 < e->u.comp.generators.len) {
            const ast_node *next = e->u.comp.generators.items[gi + 1];
            val inner = host_eval(h, next->u.comprehension.iter);
            ok = inner.kind != VAL_ERR && host_comp_loop(h, e, gi + 1, inner, result);
            val_unref(inner);
            continue;
        }
        val k = host_eval(h, e->u.comp.elt);
        if (k.kind == VAL_ERR) {
            ok = false;
            break;
        }
        if (e->kind != AST_DICTCOMP) {
            val_list_push(result, k);
            continue;
        }
        if (!val_hashable(k)) {
            host_raise(h, HOST_EXC_TYPE, e->u.comp.elt->span,
                       "unhashable type: '%s'", val_type_name(k));
            val_unref(k);
            ok = false;
            break;
        }
        val v = host_eval(h, e->u.comp.value);
        if (v.kind == VAL_ERR) {
            val_unref(k);
            ok = false;
            break;
        }
        val_dict_set(result, k, v);
    }
    host_iter_end(&it);
    return ok && st >= 0;
}

static val host_eval_comp(host *h, const ast_node *e)
{
    if (e->kind == AST_SETCOMP)
        return host_raise(h, HOST_EXC_NOT_IMPLEMENTED, e->span,
                          "sets are not supported by tritsim (use a dict or a "
                          "list)");
    /* The first iterable belongs to the enclosing scope; the loop variables
     * to the comprehension's own. */
    const ast_node *first = e->u.comp.generators.items[0];
    val iterable = host_eval(h, first->u.comprehension.iter);
    if (iterable.kind == VAL_ERR)
        return iterable;
    val result = e->kind == AST_DICTCOMP ? val_dict_new() : val_list_new(0);
    val env = host_env_new(host_scope_of(h, e), h->env);
    val saved = h->env;
    h->env = env;
    bool ok = host_comp_loop(h, e, 0, iterable, result);
    h->env = saved;
    val_unref(env);
    val_unref(iterable);
    if (!ok) {
        val_unref(result);
        return val_err();
    }
    if (e->kind == AST_GENEXP)
        return host_iterator_new(result, "generator");
    return result;
}

typedef struct host_callargs {
    val *args;
    int nargs, cap;
    const char **names;
    val *values;
    int nkw, kwcap;
    val keep;       /* list of ** dicts whose key strings names point into */
} host_callargs;

static void host_callargs_push(host_callargs *c, val v)
{
    if (c->nargs == c->cap) {
        c->cap = c->cap ? c->cap * 2 : 8;
        c->args = xrealloc(c->args, (size_t)c->cap * sizeof *c->args);
    }
    c->args[c->nargs++] = v;
}

static bool host_callargs_kw(host *h, host_callargs *c, const char *name, val v, src_span at)
{
    for (int i = 0; i < c->nkw; i++)
        if (!strcmp(c->names[i], name)) {
            host_raise(h, HOST_EXC_TYPE, at, "keyword argument '%s' is given twice", name);
            val_unref(v);
            return false;
        }
    if (c->nkw == c->kwcap) {
        c->kwcap = c->kwcap ? c->kwcap * 2 : 8;
        c->names = xrealloc(c->names, (size_t)c->kwcap * sizeof *c->names);
        c->values = xrealloc(c->values, (size_t)c->kwcap * sizeof *c->values);
    }
    c->names[c->nkw] = name;
    c->values[c->nkw++] = v;
    return true;
}

static void host_callargs_free(host_callargs *c)
{
    for (int i = 0; i < c->nargs; i++)
        val_unref(c->args[i]);
    for (int i = 0; i < c->nkw; i++)
        val_unref(c->values[i]);
    free(c->args);
    free(c->names);
    free(c->values);
    val_unref(c->keep);
}

static bool host_eval_args(host *h, const ast_node *e, host_callargs *c)
{
    for (int i = 0; i < e->u.call.args.len; i++) {
        const ast_node *a = e->u.call.args.items[i];
        if (a->kind == AST_STARRED) {
            val it = host_eval(h, a->u.starred.value);
            val items = it.kind == VAL_ERR ? it : host_to_list(h, it, a->span);
            val_unref(it);
            if (items.kind == VAL_ERR)
                return false;
            for (size_t k = 0; k < val_as_seq(items)->len; k++)
                host_callargs_push(c, val_ref(val_as_seq(items)->items[k]));
            val_unref(items);
        } else {
            val v = host_eval(h, a);
            if (v.kind == VAL_ERR)
                return false;
            host_callargs_push(c, v);
        }
    }
    for (int i = 0; i < e->u.call.keywords.len; i++) {
        const ast_node *k = e->u.call.keywords.items[i];
        val v = host_eval(h, k->u.keyword.value);
        if (v.kind == VAL_ERR)
            return false;
        if (k->u.keyword.arg) {
            if (!host_callargs_kw(h, c, k->u.keyword.arg, v, k->span))
                return false;
            continue;
        }
        if (v.kind != VAL_DICT) {
            host_raise(h, HOST_EXC_TYPE, k->span, "argument after ** must be a dict, not '%s'",
                       val_type_name(v));
            val_unref(v);
            return false;
        }
        if (c->keep.kind != VAL_LIST)
            c->keep = val_list_new(1);
        val_list_push(c->keep, v);
        size_t pos = 0;
        val dk, dv;
        while (val_dict_next(v, &pos, &dk, &dv)) {
            if (dk.kind != VAL_STR) {
                host_raise(h, HOST_EXC_TYPE, k->span,
                           "keywords must be strings, not '%s'", val_type_name(dk));
                return false;
            }
            if (!host_callargs_kw(h, c, val_as_str(dk)->s, val_ref(dv), k->span))
                return false;
        }
    }
    return true;
}

static val host_eval_call(host *h, const ast_node *e)
{
    host_callargs c;
    memset(&c, 0, sizeof c);
    c.keep = val_none();
    const ast_node *fn = e->u.call.func;
    val self = val_none(), f;
    const host_method *m = NULL;
    /* obj.method(...) on a built-in kind: call the C method directly
     * rather than making a bound method first. */
    if (fn->kind == AST_ATTRIBUTE) {
        self = host_eval(h, fn->u.attribute.value);
        if (self.kind == VAL_ERR)
            return self;
        if (self.kind >= VAL_BOOL && self.kind <= VAL_RANGE && self.kind != VAL_DTYPE &&
            self.kind != VAL_ELLIPSIS)
            m = builtin_method(self.kind == VAL_BOOL ? VAL_INT : self.kind, fn->u.attribute.attr);
        f = m ? val_none() : host_getattr(h, self, fn->u.attribute.attr, fn->span);
    } else {
        f = host_eval(h, fn);
    }
    val r = val_err();
    if (f.kind != VAL_ERR && host_eval_args(h, e, &c)) {
        val_kwargs kw = {c.nkw, c.names, c.values};
        if (m)
            r = m->fn(h, self, c.nargs, c.args, &kw, e->span);
        else
            r = host_call(h, f, c.nargs, c.args, &kw, e->span);
    }
    host_callargs_free(&c);
    val_unref(f);
    val_unref(self);
    return r;
}

static val host_eval_compare(host *h, const ast_node *e)
{
    val left = host_eval(h, e->u.compare.left);
    if (left.kind == VAL_ERR)
        return left;
    int n = e->u.compare.comparators.len;
    for (int i = 0; i < n; i++) {
        const ast_node *rn = e->u.compare.comparators.items[i];
        val right = host_eval(h, rn);
        if (right.kind == VAL_ERR) {
            val_unref(left);
            return right;
        }
        val r = host_binop_full(h, e->u.compare.ops[i], false, left, right,
                                src_join(i ? e->u.compare.comparators.items[i - 1]->span
                                           : e->u.compare.left->span, rn->span));
        val_unref(left);
        if (i == n - 1 || r.kind == VAL_ERR) {
            val_unref(right);
            return r;
        }
        /* a < b < c: stop at the first false link, returning it. */
        int t = host_truth(h, r, e->span);
        if (t <= 0) {
            val_unref(right);
            if (t < 0) {
                val_unref(r);
                return val_err();
            }
            return r;
        }
        val_unref(r);
        left = right;
    }
    return left;
}

static val host_eval_boolop(host *h, const ast_node *e)
{
    const ast_list *vs = &e->u.boolop.values;
    val v = val_none();
    for (int i = 0; i < vs->len; i++) {
        v = host_eval(h, vs->items[i]);
        if (v.kind == VAL_ERR || i == vs->len - 1)
            return v;
        int t = host_truth(h, v, vs->items[i]->span);
        if (t < 0) {
            val_unref(v);
            return val_err();
        }
        /* `and` stops at the first false operand, `or` at the first true. */
        if ((e->u.boolop.op == AST_OP_AND) != (t != 0))
            return v;
        val_unref(v);
    }
    return v;
}

static val host_eval_int(host *h, const ast_node *e, bool negate)
{
    uint64_t u = e->u.int_.value;
    if (!e->u.int_.big && negate && u == (uint64_t)INT64_MAX + 1)
        return val_int(INT64_MIN);
    if (e->u.int_.big || u > (uint64_t)INT64_MAX)
        return host_raise(h, HOST_EXC_OVERFLOW, e->span,
                          "integer literal too large: tritsim's ints are 64-bit "
                          "(at most %lld)", (long long)INT64_MAX);
    return val_int(negate ? -(int64_t)u : (int64_t)u);
}

static val host_eval(host *h, const ast_node *e)
{
    switch (e->kind) {
    case AST_NAME: {
        val v = host_load_name(h, e->u.name.id, e->span);
        return val_ref(v);
    }
    case AST_INT:
        return host_eval_int(h, e, false);
    case AST_FLOAT:
        return val_float(e->u.float_.value);
    case AST_IMAG:
        return host_raise(h, HOST_EXC_NOT_IMPLEMENTED, e->span,
                          "complex numbers are not supported by tritsim");
    case AST_STR:
        return val_str_new(e->u.str.s, e->u.str.len);
    case AST_FSTRING:
        return host_eval_fstring(h, e);
    case AST_CONST:
        switch (e->u.const_.value) {
        case AST_CONST_TRUE: return val_bool(true);
        case AST_CONST_FALSE: return val_bool(false);
        case AST_CONST_ELLIPSIS: return val_ellipsis();
        default: return val_none();
        }
    case AST_ATTRIBUTE: {
        val obj = host_eval(h, e->u.attribute.value);
        if (obj.kind == VAL_ERR)
            return obj;
        val r = host_getattr(h, obj, e->u.attribute.attr, e->span);
        val_unref(obj);
        return r;
    }
    case AST_SUBSCRIPT: {
        val obj = host_eval(h, e->u.subscript.value);
        if (obj.kind == VAL_ERR)
            return obj;
        val key = host_eval(h, e->u.subscript.index);
        val r = host_getitem(h, obj, key, e->span);
        val_unref(key);
        val_unref(obj);
        return r;
    }
    case AST_SLICE: {
        val parts[3];
        const ast_node *ns[3] = {e->u.slice.lower, e->u.slice.upper, e->u.slice.step};
        for (int i = 0; i < 3; i++) {
            parts[i] = ns[i] ? host_eval(h, ns[i]) : val_none();
            if (parts[i].kind == VAL_ERR) {
                for (int k = 0; k < i; k++)
                    val_unref(parts[k]);
                return val_err();
            }
        }
        return val_slice_new(parts[0], parts[1], parts[2]);
    }
    case AST_CALL:
        return host_eval_call(h, e);
    case AST_BINOP: {
        val a = host_eval(h, e->u.binop.left);
        if (a.kind == VAL_ERR)
            return a;
        val b = host_eval(h, e->u.binop.right);
        val r = host_binop_full(h, e->u.binop.op, false, a, b, e->span);
        val_unref(a);
        val_unref(b);
        return r;
    }
    case AST_UNARYOP: {
        const ast_node *x = e->u.unaryop.operand;
        if (e->u.unaryop.op == AST_OP_USUB && x->kind == AST_INT)
            return host_eval_int(h, x, true);
        val v = host_eval(h, x);
        if (v.kind == VAL_ERR)
            return v;
        val r = host_unop(h, e->u.unaryop.op, v, e->span);
        val_unref(v);
        return r;
    }
    case AST_BOOLOP:
        return host_eval_boolop(h, e);
    case AST_COMPARE:
        return host_eval_compare(h, e);
    case AST_IFEXP: {
        val t = host_eval(h, e->u.ifexp.test);
        int c = t.kind == VAL_ERR ? -1 : host_truth(h, t, e->u.ifexp.test->span);
        val_unref(t);
        if (c < 0)
            return val_err();
        return host_eval(h, c ? e->u.ifexp.body : e->u.ifexp.orelse);
    }
    case AST_LAMBDA:
        return host_make_func(h, e, "<lambda>", &e->u.lambda.params);
    case AST_TUPLE:
    case AST_LIST:
        return host_eval_seq(h, e);
    case AST_DICT:
        return host_eval_dict(h, e);
    case AST_SET:
        return host_raise(h, HOST_EXC_NOT_IMPLEMENTED, e->span,
                          "sets are not supported by tritsim (use a dict or a "
                          "list)");
    case AST_LISTCOMP:
    case AST_DICTCOMP:
    case AST_SETCOMP:
    case AST_GENEXP:
        return host_eval_comp(h, e);
    case AST_STARRED:
        return host_error(h, e->span, "a starred expression can only be used in a call, a "
                          "tuple or a list, or as an assignment target");
    default:
        return host_error(h, e->span, "internal error: cannot evaluate a '%s' node",
                          ast_kind_name(e->kind));
    }
}

/* ---- assignment ------------------------------------------------------------------ */

static bool host_unpack(host *h, const ast_node *target, val v)
{
    const ast_list *elts = &target->u.seq.elts;
    val items = host_to_list(h, v, target->span);
    val_unref(v);
    if (items.kind == VAL_ERR)
        return false;
    val_seq *s = val_as_seq(items);
    int star = -1;
    for (int i = 0; i < elts->len; i++)
        if (elts->items[i]->kind == AST_STARRED)
            star = i;
    size_t n = (size_t)elts->len;
    bool bad = star < 0 ? s->len != n : s->len < n - 1;
    if (bad) {
        if (star >= 0)
            host_raise(h, HOST_EXC_VALUE, target->span,
                       "not enough values to unpack (expected at least %zu, "
                       "got %zu)", n - 1, s->len);
        else if (s->len > n)
            host_raise(h, HOST_EXC_VALUE, target->span,
                       "too many values to unpack (expected %zu, got %zu)",
                       n, s->len);
        else
            host_raise(h, HOST_EXC_VALUE, target->span,
                       "not enough values to unpack (expected %zu, got %zu)",
                       n, s->len);
        val_unref(items);
        return false;
    }
    bool ok = true;
    size_t k = 0;
    for (int i = 0; ok && i < elts->len; i++) {
        const ast_node *t = elts->items[i];
        if (i == star) {
            size_t rest = s->len - (n - 1);
            val l = val_list_new(rest);
            for (size_t j = 0; j < rest; j++)
                val_list_push(l, val_ref(s->items[k++]));
            ok = host_assign(h, t->u.starred.value, l);
        } else {
            ok = host_assign(h, t, val_ref(s->items[k++]));
        }
    }
    val_unref(items);
    return ok;
}

/* target = v, stealing v. */
static bool host_assign(host *h, const ast_node *target, val v)
{
    switch (target->kind) {
    case AST_NAME:
        return host_store_name(h, target->u.name.id, v, target->span);
    case AST_ATTRIBUTE: {
        val obj = host_eval(h, target->u.attribute.value);
        bool ok = obj.kind != VAL_ERR &&
                  host_setattr(h, obj, target->u.attribute.attr, v, target->span);
        val_unref(obj);
        val_unref(v);
        return ok;
    }
    case AST_SUBSCRIPT: {
        val obj = host_eval(h, target->u.subscript.value);
        bool ok = false;
        if (obj.kind != VAL_ERR) {
            val key = host_eval(h, target->u.subscript.index);
            ok = key.kind != VAL_ERR && host_setitem(h, obj, key, v, target->span);
            val_unref(key);
        }
        val_unref(obj);
        val_unref(v);
        return ok;
    }
    case AST_TUPLE:
    case AST_LIST:
        return host_unpack(h, target, v);
    default:
        val_unref(v);
        host_error(h, target->span, "cannot assign to this expression");
        return false;
    }
}

static bool host_delete(host *h, const ast_node *t)
{
    switch (t->kind) {
    case AST_NAME:
        return host_delete_name(h, t->u.name.id, t->span);
    case AST_SUBSCRIPT: {
        val obj = host_eval(h, t->u.subscript.value);
        if (obj.kind == VAL_ERR)
            return false;
        val key = host_eval(h, t->u.subscript.index);
        bool ok = key.kind != VAL_ERR && host_delitem(h, obj, key, t->span);
        val_unref(key);
        val_unref(obj);
        return ok;
    }
    case AST_ATTRIBUTE: {
        val obj = host_eval(h, t->u.attribute.value);
        if (obj.kind == VAL_ERR)
            return false;
        bool ok = false;
        val attrs = obj.kind == VAL_OBJECT || obj.kind == VAL_MODULE || obj.kind == VAL_CLASS ||
                    obj.kind == VAL_INSTANCE ? ((val_object *)obj.u.o)->attrs
                    : obj.kind == VAL_FUNC ? ((val_func *)obj.u.o)->attrs : val_none();
        if (attrs.kind == VAL_DICT) {
            val k = val_str_cstr(t->u.attribute.attr);
            val old = val_dict_pop(attrs, k);
            val_unref(k);
            ok = old.kind != VAL_MISSING;
            val_unref(old);
        }
        if (!ok)
            host_raise(h, HOST_EXC_ATTRIBUTE, t->span,
                       "'%s' object has no attribute '%s' to delete",
                       val_type_name(obj), t->u.attribute.attr);
        val_unref(obj);
        return ok;
    }
    case AST_TUPLE:
    case AST_LIST:
        for (int i = 0; i < t->u.seq.elts.len; i++)
            if (!host_delete(h, t->u.seq.elts.items[i]))
                return false;
        return true;
    default:
        host_error(h, t->span, "cannot delete this expression");
        return false;
    }
}

static bool host_augassign(host *h, const ast_node *s)
{
    const ast_node *t = s->u.augassign.target;
    ast_op op = s->u.augassign.op;
    val rhs;
    switch (t->kind) {
    case AST_NAME: {
        val cur = host_load_name(h, t->u.name.id, t->span);
        if (cur.kind == VAL_ERR)
            return false;
        val_ref(cur);
        rhs = host_eval(h, s->u.augassign.value);
        val r = rhs.kind == VAL_ERR ? rhs : host_binop_full(h, op, true, cur, rhs, s->span);
        val_unref(cur);
        val_unref(rhs);
        return r.kind != VAL_ERR && host_store_name(h, t->u.name.id, r, t->span);
    }
    case AST_ATTRIBUTE: {
        val obj = host_eval(h, t->u.attribute.value);
        if (obj.kind == VAL_ERR)
            return false;
        val cur = host_getattr(h, obj, t->u.attribute.attr, t->span);
        rhs = cur.kind == VAL_ERR ? cur : host_eval(h, s->u.augassign.value);
        val r = rhs.kind == VAL_ERR ? rhs : host_binop_full(h, op, true, cur, rhs, s->span);
        bool ok = r.kind != VAL_ERR && host_setattr(h, obj, t->u.attribute.attr, r, t->span);
        val_unref(r);
        val_unref(rhs);
        val_unref(cur);
        val_unref(obj);
        return ok;
    }
    case AST_SUBSCRIPT: {
        val obj = host_eval(h, t->u.subscript.value);
        if (obj.kind == VAL_ERR)
            return false;
        val key = host_eval(h, t->u.subscript.index);
        val cur = key.kind == VAL_ERR ? key : host_getitem(h, obj, key, t->span);
        rhs = cur.kind == VAL_ERR ? cur : host_eval(h, s->u.augassign.value);
        val r = rhs.kind == VAL_ERR ? rhs : host_binop_full(h, op, true, cur, rhs, s->span);
        bool ok = r.kind != VAL_ERR && host_setitem(h, obj, key, r, t->span);
        val_unref(r);
        val_unref(rhs);
        val_unref(cur);
        val_unref(key);
        val_unref(obj);
        return ok;
    }
    default:
        host_error(h, t->span, "cannot assign to this expression");
        return false;
    }
}

/* ---- imports --------------------------------------------------------------------- */

/* Make registered submodules "name.x" attributes of module `name`, as
 * Python packages that import their submodules do. */
static void host_link_submodules(host *h, const char *name, val m)
{
    size_t n = strlen(name);
    size_t pos = 0;
    val k, v;
    while (val_dict_next(h->modules, &pos, &k, &v)) {
        const char *sub = val_as_str(k)->s;
        if (strncmp(sub, name, n) || sub[n] != '.' || strchr(sub + n + 1, '.'))
            continue;
        if (val_object_get(m, sub + n + 1).kind == VAL_MISSING)
            val_object_set(m, sub + n + 1, val_ref(v));
    }
}

/* The registered module (borrowed), or VAL_ERR after reporting. */
static val host_import(host *h, const char *name, src_span at)
{
    val m = val_dict_get_str(h->modules, name);
    if (m.kind == VAL_MISSING)
    {
        val args = val_tuple_new(1);
        val_seq_set(args, 0, val_str_fmt("No module named '%s'", name));
        return host_raise_args(h, HOST_EXC_MODULE_NOT_FOUND, args, at, "module '%s' is not "
                               "supported by tritsim (see doc/language.md)", name);
    }
    host_link_submodules(h, name, m);
    return m;
}

static bool host_exec_import(host *h, const ast_node *s)
{
    for (int i = 0; i < s->u.import.names.len; i++) {
        const ast_node *al = s->u.import.names.items[i];
        const char *name = al->u.alias.name;
        if (al->u.alias.asname) {
            val m = host_import(h, name, al->span);
            if (m.kind == VAL_ERR ||
                !host_store_name(h, al->u.alias.asname, val_ref(m), al->span))
                return false;
            continue;
        }
        /* import a.b.c: every prefix must exist; a is bound. */
        char prefix[256];
        val top = val_none();
        for (const char *p = name;; p++) {
            if (*p != '.' && *p != '\0')
                continue;
            size_t n = (size_t)(p - name);
            if (n >= sizeof prefix)
                return host_raise(h, HOST_EXC_MODULE_NOT_FOUND, al->span,
                                  "module name too long").kind != VAL_ERR;
            memcpy(prefix, name, n);
            prefix[n] = '\0';
            val m = host_import(h, prefix, al->span);
            if (m.kind == VAL_ERR)
                return false;
            if (top.kind == VAL_NONE)
                top = m;
            if (*p == '\0')
                break;
        }
        char first[256];
        size_t n = strcspn(name, ".");
        snprintf(first, sizeof first, "%.*s", (int)n, name);
        if (!host_store_name(h, first, val_ref(top), al->span))
            return false;
    }
    return true;
}

static bool host_exec_importfrom(host *h, const ast_node *s)
{
    if (s->u.importfrom.level > 0 || !s->u.importfrom.module) {
        host_raise(h, HOST_EXC_IMPORT, s->span,
                   "relative imports are not supported by tritsim (a program is "
                   "a single file)");
        return false;
    }
    const char *mname = s->u.importfrom.module;
    val m = host_import(h, mname, s->span);
    if (m.kind == VAL_ERR)
        return false;
    for (int i = 0; i < s->u.importfrom.names.len; i++) {
        const ast_node *al = s->u.importfrom.names.items[i];
        const char *name = al->u.alias.name;
        if (!strcmp(name, "*")) {
            size_t pos = 0;
            val k, v;
            val attrs = ((val_object *)m.u.o)->attrs;
            while (attrs.kind == VAL_DICT && val_dict_next(attrs, &pos, &k, &v))
                if (val_as_str(k)->s[0] != '_' &&
                    !host_store_name(h, val_as_str(k)->s, val_ref(v), al->span))
                    return false;
            continue;
        }
        val v = val_object_get(m, name);
        if (v.kind == VAL_MISSING) {
            char sub[512];
            snprintf(sub, sizeof sub, "%s.%s", mname, name);
            v = val_dict_get_str(h->modules, sub);
            if (v.kind != VAL_MISSING)
                host_link_submodules(h, sub, v);
        }
        if (v.kind == VAL_MISSING) {
            host_suggest sg;
            host_suggest_init(&sg, name);
            host_suggest_dict(&sg, ((val_object *)m.u.o)->attrs);
            char buf[128];
            host_raise(h, HOST_EXC_IMPORT, al->span,
                       "cannot import name '%s' from '%s'%s", name, mname,
                       sg.best ? host_did_you_mean(&sg, buf, sizeof buf)
                               : " (tritsim does not support it: see doc/language.md)");
            return false;
        }
        if (!host_store_name(h, al->u.alias.asname ? al->u.alias.asname : name, val_ref(v),
                             al->span))
            return false;
    }
    return true;
}

/* ---- statements ---------------------------------------------------------------- */

static host_flow host_exec_funcdef(host *h, const ast_node *s)
{
    const ast_list *decs = &s->u.funcdef.decorators;
    val *dv = xmalloc((size_t)(decs->len ? decs->len : 1) * sizeof *dv);
    int n = 0;
    host_flow fl = FLOW_ERROR;
    /* Decorators are evaluated first, applied last, innermost first. */
    for (; n < decs->len; n++) {
        dv[n] = host_eval(h, decs->items[n]);
        if (dv[n].kind == VAL_ERR)
            goto done;
    }
    val f = host_make_func(h, s, s->u.funcdef.name, &s->u.funcdef.params);
    for (int i = decs->len - 1; i >= 0 && f.kind != VAL_ERR; i--) {
        val g = host_call(h, dv[i], 1, &f, NULL, decs->items[i]->span);
        val_unref(f);
        f = g;
    }
    if (f.kind != VAL_ERR && host_store_name(h, s->u.funcdef.name, f, s->u.funcdef.name_span))
        fl = FLOW_NEXT;
done:
    for (int i = 0; i < n; i++)
        val_unref(dv[i]);
    free(dv);
    return fl;
}

static host_flow host_exec_raise(host *h, const ast_node *s)
{
    if (!s->u.raise.exc) {
        /* a bare raise re-raises what the except block handles */
        if (h->handling.kind != VAL_NONE) {
            host_raise_value(h, h->handling, s->span);
            return FLOW_ERROR;
        }
        val args = val_tuple_new(1);
        val_seq_set(args, 0, val_str_cstr("No active exception to reraise"));
        host_raise_args(h, HOST_EXC_RUNTIME, args, s->span,
                        "RuntimeError: No active exception to reraise");
        return FLOW_ERROR;
    }
    val v = host_eval(h, s->u.raise.exc);
    if (v.kind == VAL_ERR)
        return FLOW_ERROR;
    val cause = val_missing();
    if (s->u.raise.cause) {
        cause = host_eval(h, s->u.raise.cause);
        if (cause.kind == VAL_ERR) {
            val_unref(v);
            return FLOW_ERROR;
        }
    }
    exc_raise_from(h, v, cause, s->u.raise.exc->span);
    val_unref(cause);
    val_unref(v);
    return FLOW_ERROR;
}

static host_flow host_exec_assert(host *h, const ast_node *s)
{
    val t = host_eval(h, s->u.assert_.test);
    int c = t.kind == VAL_ERR ? -1 : host_truth(h, t, s->u.assert_.test->span);
    val_unref(t);
    if (c < 0)
        return FLOW_ERROR;
    if (c)
        return FLOW_NEXT;
    val args;
    if (s->u.assert_.msg) {
        val m = host_eval(h, s->u.assert_.msg);
        if (m.kind == VAL_ERR)
            return FLOW_ERROR;
        args = val_tuple_of(1, &m);
    } else {
        args = val_tuple_new(0);
    }
    /* Shown, when nothing catches it, as "AssertionError: msg". */
    val e = exc_new(h, HOST_EXC_ASSERTION, args);
    host_raise_value(h, e, s->u.assert_.test->span);
    val_unref(e);
    return FLOW_ERROR;
}

/* Unbind name if it is bound (the name of an except clause, after it). */
static void host_unbind_name(host *h, const char *name)
{
    if (h->class_ns.kind == VAL_DICT) {
        val k = val_str_cstr(name);
        val_unref(val_dict_pop(h->class_ns, k));
        val_unref(k);
        return;
    }
    val *slot;
    bool own;
    host_resolve(h->env, name, &slot, &own);
    if (slot) {
        val old = *slot;
        *slot = val_missing();
        val_unref(old);
        return;
    }
    val k = val_str_cstr(name);
    val_unref(val_dict_pop(h->frame->globals, k));
    val_unref(k);
}

/* Does exception exc match the type of an except clause (a class or a
 * tuple of them)?  1, 0, or -1 after raising a TypeError. */
static int host_exc_match(host *h, val exc, val type, src_span at)
{
    if (type.kind == VAL_TUPLE) {
        const val_seq *t = val_as_seq(type);
        for (size_t i = 0; i < t->len; i++) {
            int m = host_exc_match(h, exc, t->items[i], at);
            if (m != 0)
                return m;
        }
        return 0;
    }
    if (type.kind != VAL_CLASS || !((const val_class *)type.u.o)->exception) {
        host_raise(h, HOST_EXC_TYPE, at, "catching classes that do not inherit from "
                   "BaseException is not allowed (an except clause names exception classes, "
                   "not a '%s')", val_type_name(type));
        return -1;
    }
    return exc.kind == VAL_INSTANCE && class_is_subclass(((val_instance *)exc.u.o)->cls, type);
}

/* The except clauses of try statement s, with the exception pending. */
static host_flow host_exec_handlers(host *h, const ast_node *s)
{
    val exc = host_exc_take(h);
    for (int i = 0; i < s->u.try_.handlers.len; i++) {
        const ast_node *hd = s->u.try_.handlers.items[i];
        val saved = h->handling;
        if (hd->u.handler.type) {
            /* an error here has the exception as its context */
            h->handling = exc;
            val t = host_eval(h, hd->u.handler.type);
            int m = t.kind == VAL_ERR ? -1 : host_exc_match(h, exc, t, hd->u.handler.type->span);
            h->handling = saved;
            val_unref(t);
            if (m < 0) {
                val_unref(exc);
                return FLOW_ERROR;
            }
            if (!m)
                continue;
        }
        host_flow fl = FLOW_NEXT;
        if (hd->u.handler.name &&
            !host_store_name(h, hd->u.handler.name, val_ref(exc), hd->span))
            fl = FLOW_ERROR;
        h->handling = exc;
        if (fl == FLOW_NEXT)
            fl = host_exec_block(h, &hd->u.handler.body);
        h->handling = saved;
        if (hd->u.handler.name)
            host_unbind_name(h, hd->u.handler.name);
        val_unref(exc);
        return fl;
    }
    host_exc_restore(h, exc);
    return FLOW_ERROR;
}

/* A finally block after its try ended with fl: it runs, and then fl goes
 * on (the pending exception raised again) unless the block itself ended
 * otherwise (return, break, continue or an error win). */
static host_flow host_exec_finally(host *h, const ast_list *body, host_flow fl)
{
    val exc = fl == FLOW_ERROR ? host_exc_take(h) : val_none();
    val saved = h->handling;
    if (exc.kind != VAL_NONE)
        h->handling = exc;
    host_flow f2 = host_exec_block(h, body);
    h->handling = saved;
    if (f2 != FLOW_NEXT) {
        val_unref(exc);
        return f2;
    }
    if (exc.kind != VAL_NONE)
        host_exc_restore(h, exc);
    return fl;
}

static host_flow host_exec_try(host *h, const ast_node *s)
{
    host_flow fl = host_exec_block(h, &s->u.try_.body);
    if (fl == FLOW_ERROR && !h->exiting && host_exc_pending(h) && s->u.try_.handlers.len)
        fl = host_exec_handlers(h, s);
    else if (fl == FLOW_NEXT)
        fl = host_exec_block(h, &s->u.try_.orelse);
    if (s->u.try_.finalbody.len && !h->exiting)
        fl = host_exec_finally(h, &s->u.try_.finalbody, fl);
    return fl;
}

/* with items[i:]: body, entering each context manager in turn. */
static host_flow host_exec_with(host *h, const ast_node *s, int i)
{
    if (i == s->u.with.items.len)
        return host_exec_block(h, &s->u.with.body);
    const ast_node *it = s->u.with.items.items[i];
    src_span at = it->u.withitem.context->span;
    val mgr = host_eval(h, it->u.withitem.context);
    if (mgr.kind == VAL_ERR)
        return FLOW_ERROR;
    val enter = host_getattr_opt(h, mgr, "__enter__", at);
    val exit = enter.kind == VAL_ERR ? val_missing() : host_getattr_opt(h, mgr, "__exit__", at);
    host_flow fl = FLOW_ERROR;
    if (enter.kind == VAL_MISSING || exit.kind == VAL_MISSING) {
        if (enter.kind != VAL_ERR && exit.kind != VAL_ERR)
            host_raise(h, HOST_EXC_TYPE, at, "'%s' object does not support the context "
                       "manager protocol (it has no __enter__ and __exit__)",
                       val_type_name(mgr));
        goto done;
    }
    if (enter.kind == VAL_ERR || exit.kind == VAL_ERR)
        goto done;
    val v = host_call(h, enter, 0, NULL, NULL, at);
    if (v.kind == VAL_ERR)
        goto done;
    if (it->u.withitem.target)
        fl = host_assign(h, it->u.withitem.target, v) ? FLOW_NEXT : FLOW_ERROR;
    else {
        val_unref(v);
        fl = FLOW_NEXT;
    }
    if (fl == FLOW_NEXT)
        fl = host_exec_with(h, s, i + 1);
    if (h->exiting)
        goto done;
    if (fl == FLOW_ERROR && host_exc_pending(h)) {
        /* __exit__(type, value, traceback) sees the exception and may
         * swallow it by returning a true value */
        val exc = host_exc_take(h);
        val args[3] = {builtin_type_of(h, exc), exc, exc_traceback(exc)};
        val saved = h->handling;
        h->handling = exc;
        val r = host_call(h, exit, 3, args, NULL, at);
        h->handling = saved;
        val_unref(args[0]);
        val_unref(args[2]);
        int t = r.kind == VAL_ERR ? -1 : host_truth(h, r, at);
        val_unref(r);
        if (t == 0)
            host_exc_restore(h, exc);
        else
            val_unref(exc);
        fl = t > 0 ? FLOW_NEXT : FLOW_ERROR;
    } else if (fl != FLOW_ERROR) {
        val args[3] = {val_none(), val_none(), val_none()};
        val r = host_call(h, exit, 3, args, NULL, at);
        if (r.kind == VAL_ERR)
            fl = FLOW_ERROR;
        val_unref(r);
    }
done:
    val_unref(enter);
    val_unref(exit);
    val_unref(mgr);
    return fl;
}

static host_flow host_exec_classdef(host *h, const ast_node *s)
{
    const ast_list *decs = &s->u.classdef.decorators;
    int nd = decs->len;
    val *dv = xmalloc((size_t)(nd ? nd : 1) * sizeof *dv);
    int n = 0;
    val base = val_none(), cls = val_none();
    host_flow fl = FLOW_ERROR;
    for (; n < nd; n++) {
        dv[n] = host_eval(h, decs->items[n]);
        if (dv[n].kind == VAL_ERR)
            goto done;
    }
    if (s->u.classdef.keywords.len) {
        const ast_node *k = s->u.classdef.keywords.items[0];
        host_raise(h, HOST_EXC_NOT_IMPLEMENTED, k->span, "class keyword arguments (%s=...) "
                   "are not supported by tritsim", k->u.keyword.arg ? k->u.keyword.arg : "**");
        goto done;
    }
    val object = val_dict_get_str(h->builtins, "object");
    for (int i = 0; i < s->u.classdef.bases.len; i++) {
        const ast_node *bn = s->u.classdef.bases.items[i];
        val b = bn->kind == AST_STARRED ? host_raise(h, HOST_EXC_NOT_IMPLEMENTED, bn->span,
                                                     "*bases are not supported by tritsim")
                                        : host_eval(h, bn);
        if (b.kind == VAL_ERR)
            goto done;
        if (b.kind != VAL_CLASS) {
            host_raise(h, HOST_EXC_TYPE, bn->span, "a class can derive from classes only, not "
                       "from a '%s'%s", val_type_name(b), b.kind == VAL_BUILTIN
                       ? " (tritsim's built-in types int, str, list, ... cannot be subclassed)"
                       : "");
            val_unref(b);
            goto done;
        }
        if (val_is_heap(object) && b.u.o == object.u.o) {
            val_unref(b);
            continue;
        }
        if (base.kind != VAL_NONE) {
            val_unref(b);
            host_raise(h, HOST_EXC_NOT_IMPLEMENTED, bn->span, "multiple inheritance is not "
                       "supported by tritsim (a class has one base class)");
            goto done;
        }
        base = b;
    }
    cls = class_new(s->u.classdef.name, base, false);
    val ns = ((val_object *)cls.u.o)->attrs;
    val_dict_set_str(ns, "__module__", val_str_cstr("__main__"));
    /* Outer.Inner, f.<locals>.Local */
    val outer = h->class_ns.kind == VAL_DICT ? val_dict_get_str(h->class_ns, "__qualname__")
                                             : val_missing();
    if (outer.kind == VAL_STR)
        val_dict_set_str(ns, "__qualname__", val_str_fmt("%s.%s", val_as_str(outer)->s,
                                                         s->u.classdef.name));
    else if (h->frame->func)
        val_dict_set_str(ns, "__qualname__", val_str_fmt("%s.<locals>.%s", h->frame->func->name,
                                                         s->u.classdef.name));
    else
        val_dict_set_str(ns, "__qualname__", val_str_cstr(s->u.classdef.name));
    const ast_list *body = &s->u.classdef.body;
    if (body->len && body->items[0]->kind == AST_EXPR_STMT &&
        body->items[0]->u.expr.value->kind == AST_STR)
        val_dict_set_str(ns, "__doc__", val_str_new(body->items[0]->u.expr.value->u.str.s,
                                                    body->items[0]->u.expr.value->u.str.len));
    val saved = h->class_ns;
    h->class_ns = ns;
    host_flow bf = host_exec_block(h, body);
    h->class_ns = saved;
    if (bf != FLOW_NEXT)
        goto done;
    class_adopt(cls);
    for (int i = nd - 1; i >= 0; i--) {
        val g = host_call(h, dv[i], 1, &cls, NULL, decs->items[i]->span);
        val_unref(cls);
        cls = g;
        if (cls.kind == VAL_ERR)
            goto done;
    }
    if (host_store_name(h, s->u.classdef.name, cls, s->u.classdef.name_span))
        fl = FLOW_NEXT;
    cls = val_none();
done:
    val_unref(cls);
    val_unref(base);
    for (int i = 0; i < n; i++)
        val_unref(dv[i]);
    free(dv);
    return fl;
}

static host_flow host_exec_for(host *h, const ast_node *s)
{
    val seq = host_eval(h, s->u.for_.iter);
    if (seq.kind == VAL_ERR)
        return FLOW_ERROR;
    host_iter it;
    bool ok = host_iter_begin(h, seq, s->u.for_.iter->span, &it);
    val_unref(seq);
    if (!ok)
        return FLOW_ERROR;
    host_flow fl = FLOW_NEXT;
    bool broke = false;
    val x;
    int st;
    while ((st = host_iter_next(h, &it, &x)) > 0) {
        if (!host_assign(h, s->u.for_.target, x)) {
            fl = FLOW_ERROR;
            break;
        }
        fl = host_exec_block(h, &s->u.for_.body);
        if (fl == FLOW_BREAK) {
            broke = true;
            fl = FLOW_NEXT;
            break;
        }
        if (fl == FLOW_CONTINUE)
            fl = FLOW_NEXT;
        if (fl != FLOW_NEXT)
            break;
    }
    host_iter_end(&it);
    if (st < 0)
        return FLOW_ERROR;
    if (fl == FLOW_NEXT && !broke)
        fl = host_exec_block(h, &s->u.for_.orelse);
    return fl;
}

static host_flow host_exec_while(host *h, const ast_node *s)
{
    for (;;) {
        val t = host_eval(h, s->u.if_.test);
        int c = t.kind == VAL_ERR ? -1 : host_truth(h, t, s->u.if_.test->span);
        val_unref(t);
        if (c < 0)
            return FLOW_ERROR;
        if (!c)
            return host_exec_block(h, &s->u.if_.orelse);
        host_flow fl = host_exec_block(h, &s->u.if_.body);
        if (fl == FLOW_BREAK)
            return FLOW_NEXT;
        if (fl != FLOW_NEXT && fl != FLOW_CONTINUE)
            return fl;
    }
}

static host_flow host_exec(host *h, const ast_node *s)
{
    switch (s->kind) {
    case AST_EXPR_STMT: {
        val v = host_eval(h, s->u.expr.value);
        if (v.kind == VAL_ERR)
            return FLOW_ERROR;
        val_unref(v);
        return FLOW_NEXT;
    }
    case AST_ASSIGN: {
        val v = host_eval(h, s->u.assign.value);
        if (v.kind == VAL_ERR)
            return FLOW_ERROR;
        bool ok = true;
        for (int i = 0; ok && i < s->u.assign.targets.len; i++)
            ok = host_assign(h, s->u.assign.targets.items[i], val_ref(v));
        val_unref(v);
        return ok ? FLOW_NEXT : FLOW_ERROR;
    }
    case AST_AUGASSIGN:
        return host_augassign(h, s) ? FLOW_NEXT : FLOW_ERROR;
    case AST_ANNASSIGN: {
        if (!s->u.annassign.value)
            return FLOW_NEXT;
        val v = host_eval(h, s->u.annassign.value);
        if (v.kind == VAL_ERR)
            return FLOW_ERROR;
        return host_assign(h, s->u.annassign.target, v) ? FLOW_NEXT : FLOW_ERROR;
    }
    case AST_FUNCDEF:
        return host_exec_funcdef(h, s);
    case AST_RETURN: {
        if (!h->frame->prev) {
            host_error(h, s->span, "'return' outside a function");
            return FLOW_ERROR;
        }
        val v = s->u.expr.value ? host_eval(h, s->u.expr.value) : val_none();
        if (v.kind == VAL_ERR)
            return FLOW_ERROR;
        val_unref(h->frame->retval);
        h->frame->retval = v;
        return FLOW_RETURN;
    }
    case AST_IF: {
        val t = host_eval(h, s->u.if_.test);
        int c = t.kind == VAL_ERR ? -1 : host_truth(h, t, s->u.if_.test->span);
        val_unref(t);
        if (c < 0)
            return FLOW_ERROR;
        return host_exec_block(h, c ? &s->u.if_.body : &s->u.if_.orelse);
    }
    case AST_FOR:
        return host_exec_for(h, s);
    case AST_WHILE:
        return host_exec_while(h, s);
    case AST_BREAK:
        return FLOW_BREAK;
    case AST_CONTINUE:
        return FLOW_CONTINUE;
    case AST_PASS:
        return FLOW_NEXT;
    case AST_ASSERT:
        return host_exec_assert(h, s);
    case AST_RAISE:
        return host_exec_raise(h, s);
    case AST_TRY:
        return host_exec_try(h, s);
    case AST_WITH:
        return host_exec_with(h, s, 0);
    case AST_CLASSDEF:
        return host_exec_classdef(h, s);
    case AST_DEL:
        for (int i = 0; i < s->u.del.targets.len; i++)
            if (!host_delete(h, s->u.del.targets.items[i]))
                return FLOW_ERROR;
        return FLOW_NEXT;
    case AST_IMPORT:
        return host_exec_import(h, s) ? FLOW_NEXT : FLOW_ERROR;
    case AST_IMPORTFROM:
        return host_exec_importfrom(h, s) ? FLOW_NEXT : FLOW_ERROR;
    case AST_GLOBAL:
        return FLOW_NEXT;   /* the scope analysis did the work */
    case AST_NONLOCAL:
        if (h->env.kind != VAL_ENV) {
            host_error(h, s->span, "nonlocal declaration not allowed at module level");
            return FLOW_ERROR;
        }
        return FLOW_NEXT;
    default:
        host_error(h, s->span, "internal error: cannot run a '%s' statement",
                   ast_kind_name(s->kind));
        return FLOW_ERROR;
    }
}

static host_flow host_exec_block(host *h, const ast_list *body)
{
    for (int i = 0; i < body->len; i++) {
        host_flow fl = host_exec(h, body->items[i]);
        /* An exception raised where nothing could return VAL_ERR (inside
         * a repr hook) ends the statement here. */
        if (fl == FLOW_NEXT && host_exc_pending(h))
            fl = FLOW_ERROR;
        if (fl != FLOW_NEXT)
            return fl;
    }
    return FLOW_NEXT;
}

val host_frame_self(host *h)
{
    const host_frame *f = h->frame;
    if (!f || !f->func)
        return val_missing();
    for (host_env *e = host_env_of(h->env); e; e = host_env_of(e->parent))
        if (e->scope->node == f->func->node)
            return e->scope->nparams > 0 && e->slots[0].kind != VAL_MISSING ? e->slots[0]
                                                                             : val_missing();
    return val_missing();
}

/* ---- the host ------------------------------------------------------------------- */

host *host_new(diag_sink *d, const src_file *f)
{
    host *h = xcalloc(1, sizeof *h);
    h->diag = d;
    h->file = f;
    h->threads = 0;
    h->backend = "cpu";
    h->builtins = val_dict_new();
    h->modules = val_dict_new();
    h->main_globals = val_dict_new();
    h->env = val_none();
    h->class_ns = val_none();
    h->exc = val_none();
    h->handling = val_none();
    arena_init(&h->scope_arena);
    builtin_init(h);
    class_init(h);
    exc_init(h);
    return h;
}

void host_free(host *h)
{
    if (!h)
        return;
    if (h->kernel_ctx_free)
        h->kernel_ctx_free(h->kernel_ctx);
    val_unref(h->builtins);
    val_unref(h->modules);
    val_unref(h->main_globals);
    val_unref(h->exc);
    val_unref(h->handling);
    for (int i = 0; i < HOST_EXC__COUNT; i++)
        val_unref(h->exc_classes[i]);
    arena_free(&h->scope_arena);
    free(h->scope_table);
    free(h);
}

void host_register_module(host *h, const char *name, val module)
{
    val_dict_set_str(h->modules, name, module);
}

val host_module(host *h, const char *name)
{
    return val_dict_get_str(h->modules, name);
}

void host_def(val module, const char *qualname, val_cfunc fn)
{
    val_object_set(module, host_short_name(qualname), val_builtin_new(qualname, fn, val_none()));
}

int host_run_file(host *h, const ast_node *module, int argc, char **argv)
{
    val g = h->main_globals;
    val_dict_set_str(g, "__name__", val_str_cstr("__main__"));
    /* absolute, as Python 3.9+ makes a script's __file__ */
    char *abs = pathlib_abspath(h->file->name);
    val_dict_set_str(g, "__file__", val_str_cstr(abs ? abs : h->file->name));
    free(abs);
    val_dict_set_str(g, "__doc__", val_none());
    val sys = host_module(h, "sys");
    if (sys.kind == VAL_MODULE) {
        val args = val_list_new((size_t)argc);
        for (int i = 0; i < argc; i++)
            val_list_push(args, val_str_cstr(argv[i]));
        val_object_set(sys, "argv", args);
    }
    host_frame top = {NULL, "<module>", module->span, g, val_none(), NULL};
    h->frame = &top;
    h->env = val_none();
    host_flow fl = host_exec_block(h, &module->u.module.body);
    if (fl == FLOW_BREAK || fl == FLOW_CONTINUE)
        host_error(h, module->span, "'break' or 'continue' outside a loop");
    int status = 0;
    if (host_exc_pending(h)) {
        host_exc_report(h);   /* an exception nobody caught */
        status = h->exit_status;
    }
    if (h->exiting)
        status = h->exit_status;
    h->frame = NULL;
    val_unref(top.retval);
    fflush(stdout);
    return status;
}

val host_eval_in(host *h, const src_file *f, const ast_node *e)
{
    if (!h->frame)
        return host_error(h, e->span, "no program is running");
    /* A frame with no caller: an error prints no traceback of the program,
     * and is reported at f's positions. */
    host_frame top = {NULL, "<debugger>", e->span, h->frame->globals, val_none(), NULL};
    host_frame *saved = h->frame;
    const src_file *file = h->file;
    bool exiting = h->exiting;
    int status = h->exit_status;
    h->frame = &top;
    h->file = f;
    val v = host_eval(h, e);
    if (host_exc_pending(h))
        host_exc_report(h);
    h->frame = saved;
    h->file = file;
    h->exiting = exiting;
    h->exit_status = status;
    val_unref(top.retval);
    return v;
}
