/* host_expr.c - evaluating expressions (host_eval): literals, names,
 * operators, comparisons and/or chains, f-strings, displays, comprehensions
 * and generator expressions, attribute access and subscripts, and calls
 * (their *args and **kwargs, and the direct call of a built-in kind's
 * method).  The operations themselves are in host_ops.c, host_access.c and
 * host_call.c; host.c has the overview. */
#include "host_impl.h"
#include "bytesval.h"
#include "complexval.h"

#include <stdlib.h>
#include <string.h>

/* ---- expressions --------------------------------------------------------------- */

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

/* Is e a constant after CPython's constant folding (a literal, a signed
 * number, a tuple of constants)? */
static bool host_const_node(const ast_node *e)
{
    switch (e->kind) {
    case AST_INT: case AST_FLOAT: case AST_IMAG: case AST_STR: case AST_CONST:
        return true;
    case AST_UNARYOP:
        return e->u.unaryop.op != AST_OP_NOT && host_const_node(e->u.unaryop.operand);
    case AST_TUPLE:
        for (int i = 0; i < e->u.seq.elts.len; i++)
            if (!host_const_node(e->u.seq.elts.items[i]))
                return false;
        return true;
    default:
        return false;
    }
}

/* A set display of more than two constants (CPython builds it from a
 * frozenset constant)? */
static bool host_const_display(const ast_list *elts)
{
    if (elts->len <= 2)
        return false;
    for (int i = 0; i < elts->len; i++)
        if (!host_const_node(elts->items[i]))
            return false;
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
        if (result.kind == VAL_NONE) {   /* a genexp's generator runs it */
            val sent = gen_yield(h, k, e->u.comp.elt->span);
            ok = sent.kind != VAL_ERR;
            val_unref(sent);
            continue;
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
    /* The first iterable belongs to the enclosing scope; the loop variables
     * to the comprehension's own. */
    const ast_node *first = e->u.comp.generators.items[0];
    val iterable = host_eval(h, first->u.comprehension.iter);
    if (iterable.kind == VAL_ERR)
        return iterable;
    val env = host_env_new(host_scope_of(h, e), h->env);
    if (e->kind == AST_GENEXP) {
        /* the first iterable is iterated now, the rest as items are asked */
        if (!host_is_iterator(iterable) && !gen_is(iterable)) {
            val items = host_to_list(h, iterable, first->u.comprehension.iter->span);
            val_unref(iterable);
            if (items.kind == VAL_ERR) {
                val_unref(env);
                return items;
            }
            iterable = items;
        }
        return gen_new_genexp(h, e, iterable, env);
    }
    val result = e->kind == AST_DICTCOMP ? val_dict_new() : val_list_new(0);
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
    if (e->kind == AST_SETCOMP) {
        val s = set_from(h, result, false, e->span);
        val_unref(result);
        return s;
    }
    return result;
}

bool host_comp_run(host *h, const ast_node *e, val iterable)
{
    return host_comp_loop(h, e, 0, iterable, val_none());
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
            m = host_method_of(h, self.kind, fn->u.attribute.attr);
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

val host_eval(host *h, const ast_node *e)
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
        return complexval_new(0.0, e->u.float_.value);
    case AST_STR:
        if (e->u.str.bytes)
            return bytesval_new(e->u.str.s, e->u.str.len);
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
    case AST_NAMEDEXPR: {
        /* target := value: bound (in the enclosing function when inside a
         * comprehension: host_scope.c), and the value is the result */
        val v = host_eval(h, e->u.namedexpr.value);
        if (v.kind == VAL_ERR)
            return v;
        const ast_node *t = e->u.namedexpr.target;
        if (!host_store_name(h, t->u.name.id, val_ref(v), t->span)) {
            val_unref(v);
            return val_err();
        }
        return v;
    }
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
    case AST_SET: {
        val items = val_list_new((size_t)e->u.seq.elts.len);
        if (!host_eval_spread(h, &e->u.seq.elts, items)) {
            val_unref(items);
            return val_err();
        }
        val s = set_from(h, items, false, e->span);
        val_unref(items);
        if (s.kind != VAL_ERR && host_const_display(&e->u.seq.elts)) {
            /* CPython makes a frozenset constant of it, which its compiler
             * rebuilds from its own items when it merges constants, and
             * copies that into the new set: each step can change the
             * table, and so the order of the items */
            val l = host_to_list(h, s, e->span);
            val c = set_from(h, l, true, e->span);
            val_unref(l);
            val_unref(s);
            s = set_from(h, c, false, e->span);
            val_unref(c);
        }
        return s;
    }
    case AST_LISTCOMP:
    case AST_DICTCOMP:
    case AST_SETCOMP:
    case AST_GENEXP:
        return host_eval_comp(h, e);
    case AST_YIELD: {
        val v = e->u.expr.value ? host_eval(h, e->u.expr.value) : val_none();
        if (v.kind == VAL_ERR)
            return v;
        return gen_yield(h, v, e->span);
    }
    case AST_YIELDFROM: {
        val v = host_eval(h, e->u.expr.value);
        if (v.kind == VAL_ERR)
            return v;
        val r = gen_yield_from(h, v, e->span);
        val_unref(v);
        return r;
    }
    case AST_STARRED:
        return host_error(h, e->span, "a starred expression can only be used in a call, a "
                          "tuple or a list, or as an assignment target");
    default:
        return host_error(h, e->span, "internal error: cannot evaluate a '%s' node",
                          ast_kind_name(e->kind));
    }
}
