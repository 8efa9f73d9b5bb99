/* host_scope.c - scopes, environments and names: where the host evaluator
 * (host.c) keeps variables and how it finds them.
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
 * attributes (host_stmt.c runs the class statement, classes.c has the
 * rest of classes). */
#include "host_impl.h"

#include <stdlib.h>
#include <string.h>

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
    const char **outers;        /* a comprehension's := targets: bound in the
                                   scope around it (Python's rule) */
    int nouters;
};

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

/* The names a match pattern captures (host_stmt.c reads patterns). */
static void host_scope_pattern(host_names *out, const ast_node *n)
{
    switch (n->kind) {
    case AST_NAME:
        if (strcmp(n->u.name.id, "_"))
            host_names_add(out, n->u.name.id);
        break;
    case AST_STARRED:
        host_scope_pattern(out, n->u.starred.value);
        break;
    case AST_BINOP:
        host_scope_pattern(out, n->u.binop.left);
        host_scope_pattern(out, n->u.binop.right);
        break;
    case AST_TUPLE:
    case AST_LIST:
        for (int i = 0; i < n->u.seq.elts.len; i++)
            host_scope_pattern(out, n->u.seq.elts.items[i]);
        break;
    case AST_DICT:
        for (int i = 0; i < n->u.dict.values.len; i++)
            host_scope_pattern(out, n->u.dict.values.items[i]);
        break;
    case AST_CALL:
        for (int i = 0; i < n->u.call.args.len; i++)
            host_scope_pattern(out, n->u.call.args.items[i]);
        for (int i = 0; i < n->u.call.keywords.len; i++)
            host_scope_pattern(out, n->u.call.keywords.items[i]->u.keyword.value);
        break;
    default:
        break;   /* literals and dotted names bind nothing */
    }
}

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
    case AST_MATCH:
        for (int i = 0; i < s->u.match.cases.len; i++) {
            const ast_node *c = s->u.match.cases.items[i];
            host_scope_pattern(&b->locals, c->u.case_.pattern);
            if (c->u.case_.as_name)
                host_names_add(&b->locals, c->u.case_.as_name);
            host_scope_block(h, b, &c->u.case_.body);
        }
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

/* The targets of the assignment expressions (:=) inside root, not those
 * of a def or lambda nested in it (they bind there); ast_any walks in
 * pre-order, so a nested function is met before what it holds. */
typedef struct host_walrus_walk {
    const ast_node *root;
    host_names *out;
    unsigned skip_from[32], skip_to[32];
    int nskip;
} host_walrus_walk;

static bool host_walrus_visit(const ast_node *n, void *ctx)
{
    host_walrus_walk *w = ctx;
    if (n == w->root)
        return false;
    if (n->kind == AST_FUNCDEF || n->kind == AST_LAMBDA || n->kind == AST_CLASSDEF) {
        if (w->nskip < 32) {
            w->skip_from[w->nskip] = n->span.off;
            w->skip_to[w->nskip++] = n->span.end_off;
        }
        return false;
    }
    if (n->kind != AST_NAMEDEXPR)
        return false;
    for (int i = 0; i < w->nskip; i++)
        if (n->span.off >= w->skip_from[i] && n->span.end_off <= w->skip_to[i])
            return false;
    host_names_add(w->out, n->u.namedexpr.target->u.name.id);
    return false;
}

static void host_scope_walrus(const ast_node *root, const ast_node *from, host_names *out)
{
    host_walrus_walk w = {root, out, {0}, {0}, 0};
    ast_any(from, host_walrus_visit, &w);
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
    host_names outers = {0};
    if (node->kind == AST_FUNCDEF) {
        host_scope_block(h, &b, &node->u.funcdef.body);
        for (int i = 0; i < node->u.funcdef.body.len; i++)
            host_scope_walrus(node, node->u.funcdef.body.items[i], &b.locals);
    } else if (node->kind == AST_LAMBDA) {
        host_scope_walrus(node, node->u.lambda.body, &b.locals);
    } else {
        /* A comprehension binds its loop targets; its := targets belong
         * to the scope around it. */
        const ast_list *gens = &node->u.comp.generators;
        for (int i = 0; i < gens->len; i++)
            host_scope_target(&b.locals, gens->items[i]->u.comprehension.target);
        host_scope_walrus(node, node, &outers);
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
    sc->outers = host_names_freeze(h, &outers);
    sc->nouters = outers.n;
    free(outers.v);
    free(locals.v);
    free(b.locals.v);
    free(b.globals.v);
    free(b.nonlocals.v);
    return sc;
}

/* The analysis of node, made on first use (a hash table by address). */
const host_scope *host_scope_of(host *h, const ast_node *node)
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

val host_env_new(const host_scope *sc, val parent)
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

host_env *host_env_of(val v)
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
void host_env_release(val env)
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
val host_load_name(host *h, const char *name, src_span at)
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
/* Bind name to v (taken) in the first function enclosing e's that has
 * the name; false (v untouched) when none has it. */
static bool store_enclosing(host_env *e, const char *name, val v)
{
    for (host_env *p = host_env_of(e->parent); p; p = host_env_of(p->parent)) {
        int i = host_scope_index(p->scope, name);
        if (i >= 0) {
            val old = p->slots[i];
            p->slots[i] = v;
            val_unref(old);
            return true;
        }
    }
    return false;
}

bool host_store_name(host *h, const char *name, val v, src_span at)
{
    if (h->class_ns.kind == VAL_DICT) {
        val_dict_set_str(h->class_ns, name, v);
        return true;
    }
    host_env *e = host_env_of(h->env);
    if (e && host_scope_declares(e->scope->outers, e->scope->nouters, name)) {
        /* := in a comprehension: the first enclosing function that has the
         * name, else the module */
        if (store_enclosing(e, name, v))
            return true;
        val_dict_set_str(h->frame->globals, name, v);
        return true;
    }
    if (e && host_scope_declares(e->scope->nonlocals, e->scope->nnonlocals, name)) {
        if (store_enclosing(e, name, v))
            return true;
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

bool host_delete_name(host *h, const char *name, src_span at)
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

/* Unbind name if it is bound (the name of an except clause, after it). */
void host_unbind_name(host *h, const char *name)
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
