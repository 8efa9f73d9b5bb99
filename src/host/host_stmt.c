/* host_stmt.c - running statements (host_exec_block): assignment (targets,
 * unpacking, augmented assignment, del), def and class statements, if,
 * for and while, raise and assert, try/except/finally and with.  Imports
 * are in host.c.
 *
 * Control flow comes back from statements as a host_flow; errors as
 * FLOW_ERROR with the exception pending in h->exc (host.h,
 * exceptions.c), which `try` catches and `finally` and `with` let pass
 * after running their code.  Fatal errors (h->exiting) pass through all
 * of them. */
#include "host_impl.h"

#include <stdlib.h>
#include <string.h>

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
bool host_assign(host *h, const ast_node *target, val v)
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
        val args[3] = {val_ref(((const val_instance *)exc.u.o)->cls), exc,
                       exc_traceback(exc)};   /* type(exc): exceptions are instances */
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

/* `name: annotation` in a class body: the class's __annotations__ gets
 * the annotation's value (dataclasses read it).  An annotation that cannot
 * be evaluated (a name defined later) is kept as its source text, as
 * `from __future__ import annotations` would keep every one. */
static bool host_class_annotation(host *h, const ast_node *s)
{
    val ann = val_dict_get_str(h->class_ns, "__annotations__");
    if (ann.kind != VAL_DICT) {
        ann = val_dict_new();
        val_dict_set_str(h->class_ns, "__annotations__", ann);
    }
    const ast_node *a = s->u.annassign.annotation;
    val v = host_eval(h, a);
    if (v.kind == VAL_ERR) {
        if (h->exiting)
            return false;
        val_unref(host_exc_take(h));
        v = val_str_new(h->file->text + a->span.off, a->span.end_off - a->span.off);
    }
    val_dict_set_str(ann, s->u.annassign.target->u.name.id, v);
    return true;
}

static host_flow host_exec_classdef(host *h, const ast_node *s)
{
    const ast_list *decs = &s->u.classdef.decorators;
    int nd = decs->len;
    val *dv = xmalloc((size_t)(nd ? nd : 1) * sizeof *dv);
    int n = 0;
    val base = val_none(), cls = val_none(), mixin = val_none();
    src_span mixin_at = s->span;
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
        if (b.kind == VAL_BUILTIN && ((val_builtin *)b.u.o)->inst_kind != VAL_ERR &&
            mixin.kind == VAL_NONE) {
            /* class Color(str, Enum): a built-in type beside a class with a
             * meta (below) is the type of its members' values */
            mixin = b;
            mixin_at = bn->span;
            continue;
        }
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
    if (mixin.kind != VAL_NONE && !class_meta_of(base)) {
        host_raise(h, HOST_EXC_TYPE, mixin_at, "a class can derive from classes only, not "
                   "from a 'type' (tritsim's built-in types int, str, list, ... cannot be "
                   "subclassed, except as the value type of an enum: class E(str, Enum))");
        goto done;
    }
    cls = class_new(s->u.classdef.name, base, false);
    val ns = ((val_object *)cls.u.o)->attrs;
    if (mixin.kind != VAL_NONE)
        val_dict_set_str(ns, "_member_type_", val_ref(mixin));
    val modname = val_dict_get_str(h->frame->globals, "__name__");
    val_dict_set_str(ns, "__module__",
                     modname.kind == VAL_STR ? val_ref(modname) : val_str_cstr("__main__"));
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
    const class_meta *meta = class_meta_of(cls);
    if (meta && meta->created && !meta->created(h, cls, s->span))
        goto done;
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
    val_unref(mixin);
    for (int i = 0; i < n; i++)
        val_unref(dv[i]);
    free(dv);
    return fl;
}

/* ---- match ------------------------------------------------------------------ */

/* The names a pattern binds, with their values, kept until the whole
 * pattern matched. */
typedef struct host_binds {
    int n, cap;
    const char **names;
    val *values;
} host_binds;

static void host_bind_push(host_binds *b, const char *name, val v)
{
    if (b->n == b->cap) {
        b->cap = b->cap ? 2 * b->cap : 8;
        b->names = xrealloc(b->names, (size_t)b->cap * sizeof *b->names);
        b->values = xrealloc(b->values, (size_t)b->cap * sizeof *b->values);
    }
    b->names[b->n] = name;
    b->values[b->n++] = v;
}

static void host_binds_drop(host_binds *b, int keep)
{
    while (b->n > keep)
        val_unref(b->values[--b->n]);
}

static int host_match(host *h, const ast_node *pat, val v, host_binds *b);

/* A value pattern (a literal or a dotted name): v == value; None, True
 * and False by identity. */
static int host_match_value(host *h, const ast_node *pat, val v)
{
    if (pat->kind == AST_CONST) {
        switch (pat->u.const_.value) {
        case AST_CONST_NONE: return v.kind == VAL_NONE;
        case AST_CONST_TRUE: return v.kind == VAL_BOOL && v.u.b;
        case AST_CONST_FALSE: return v.kind == VAL_BOOL && !v.u.b;
        case AST_CONST_ELLIPSIS: return v.kind == VAL_ELLIPSIS;
        }
    }
    val x = host_eval(h, pat);
    if (x.kind == VAL_ERR)
        return -1;
    val r = host_binop(h, AST_OP_EQ, v, x, pat->span);
    val_unref(x);
    int t = r.kind == VAL_ERR ? -1 : host_truth(h, r, pat->span);
    val_unref(r);
    return t;
}

/* A sequence pattern: lists, tuples and ranges (not strs), item by item,
 * a starred name taking the middle as a list. */
static int host_match_seq(host *h, const ast_node *pat, val v, host_binds *b)
{
    if (v.kind != VAL_LIST && v.kind != VAL_TUPLE && v.kind != VAL_RANGE)
        return 0;
    val items = v.kind == VAL_RANGE ? host_to_list(h, v, pat->span) : val_ref(v);
    if (items.kind == VAL_ERR)
        return -1;
    const val_seq *s = val_as_seq(items);
    const ast_list *elts = &pat->u.seq.elts;
    int star = -1;
    for (int i = 0; i < elts->len; i++)
        if (elts->items[i]->kind == AST_STARRED)
            star = i;
    size_t n = (size_t)elts->len;
    int r = 1;
    if (star < 0 ? s->len != n : s->len < n - 1)
        r = 0;
    for (int i = 0; r == 1 && i < elts->len; i++) {
        const ast_node *e = elts->items[i];
        if (i == star) {
            size_t nrest = s->len - (n - 1);
            const ast_node *name = e->u.starred.value;
            if (strcmp(name->u.name.id, "_")) {
                val rest = val_list_new(nrest);
                for (size_t k = 0; k < nrest; k++)
                    val_list_push(rest, val_ref(s->items[(size_t)i + k]));
                host_bind_push(b, name->u.name.id, rest);
            }
            continue;
        }
        size_t idx = star >= 0 && i > star ? s->len - (n - (size_t)i) : (size_t)i;
        r = host_match(h, e, s->items[idx], b);
    }
    val_unref(items);
    return r;
}

/* A mapping pattern: dicts having each key, its value matching; **rest
 * gets the other items. */
static int host_match_mapping(host *h, const ast_node *pat, val v, host_binds *b)
{
    if (v.kind != VAL_DICT)
        return 0;
    const ast_list *keys = &pat->u.dict.keys, *values = &pat->u.dict.values;
    val seen = val_list_new(4);
    int r = 1;
    for (int i = 0; r == 1 && i < keys->len; i++) {
        if (!keys->items[i]) {
            val rest = val_dict_new();
            size_t pos = 0;
            val k, x;
            while (val_dict_next(v, &pos, &k, &x)) {
                bool used = false;
                for (size_t j = 0; j < val_as_seq(seen)->len && !used; j++)
                    used = val_equal(val_as_seq(seen)->items[j], k);
                if (!used)
                    val_dict_set(rest, val_ref(k), val_ref(x));
            }
            host_bind_push(b, values->items[i]->u.name.id, rest);
            continue;
        }
        val key = host_eval(h, keys->items[i]);
        if (key.kind == VAL_ERR) {
            r = -1;
            break;
        }
        val x = val_hashable(key) ? val_dict_get(v, key) : val_missing();
        if (x.kind == VAL_MISSING) {
            val_unref(key);
            r = 0;
            break;
        }
        val_list_push(seen, key);
        r = host_match(h, values->items[i], x, b);
    }
    val_unref(seen);
    return r;
}

/* A class pattern Cls(p1, ..., k=p): isinstance(v, Cls), then the
 * positional sub-patterns against the attributes __match_args__ names (or
 * v itself for one pattern of bool, int, float, str, list, tuple, dict,
 * set, frozenset), the keyword ones against the attributes named. */
static int host_match_class(host *h, const ast_node *pat, val v, host_binds *b)
{
    src_span at = pat->span;
    val cls = host_eval(h, pat->u.call.func);
    if (cls.kind == VAL_ERR)
        return -1;
    bool is_type = cls.kind == VAL_CLASS ||
                   (cls.kind == VAL_BUILTIN && ((val_builtin *)cls.u.o)->inst_kind != VAL_ERR);
    if (!is_type) {
        val_unref(cls);
        host_raise(h, HOST_EXC_TYPE, pat->u.call.func->span, "called match pattern must be a "
                   "class");
        return -1;
    }
    val isinst = val_dict_get_str(h->builtins, "isinstance");
    val args[2] = {v, cls};
    val ok = host_call(h, isinst, 2, args, NULL, at);
    int r = ok.kind == VAL_ERR ? -1 : host_truth(h, ok, at);
    val_unref(ok);
    const ast_list *pos = &pat->u.call.args;
    if (r == 1 && pos->len) {
        static const char *const self_types[] = {
            "bool", "int", "float", "str", "list", "tuple", "dict", "set", "frozenset", NULL,
        };
        bool self_match = false;
        for (int i = 0; cls.kind == VAL_BUILTIN && self_types[i]; i++) {
            val t = val_dict_get_str(h->builtins, self_types[i]);
            self_match = self_match || (val_is_heap(t) && t.u.o == cls.u.o);
        }
        if (self_match) {
            if (pos->len > 1) {
                host_raise(h, HOST_EXC_TYPE, at, "%s() accepts 1 positional sub-pattern "
                           "(%d given)", ((val_builtin *)cls.u.o)->name, pos->len);
                r = -1;
            } else {
                r = host_match(h, pos->items[0], v, b);
            }
        } else {
            val ma = host_getattr_opt(h, cls, "__match_args__", at);
            if (ma.kind != VAL_TUPLE || (int)val_as_seq(ma)->len < pos->len) {
                host_raise(h, HOST_EXC_TYPE, at, "%s() accepts %d positional sub-pattern%s (%d "
                           "given)", cls.kind == VAL_CLASS ? ((val_class *)cls.u.o)->name
                                                           : ((val_builtin *)cls.u.o)->name,
                           ma.kind == VAL_TUPLE ? (int)val_as_seq(ma)->len : 0,
                           ma.kind == VAL_TUPLE && val_as_seq(ma)->len == 1 ? "" : "s",
                           pos->len);
                r = -1;
            }
            for (int i = 0; r == 1 && i < pos->len; i++) {
                val name = val_as_seq(ma)->items[i];
                if (name.kind != VAL_STR) {
                    host_raise(h, HOST_EXC_TYPE, at, "__match_args__ elements must be strings");
                    r = -1;
                    break;
                }
                val x = host_getattr_opt(h, v, val_as_str(name)->s, at);
                if (x.kind == VAL_ERR)
                    r = -1;
                else if (x.kind == VAL_MISSING)
                    r = 0;
                else
                    r = host_match(h, pos->items[i], x, b);
                val_unref(x);
            }
            val_unref(ma);
        }
    }
    for (int i = 0; r == 1 && i < pat->u.call.keywords.len; i++) {
        const ast_node *k = pat->u.call.keywords.items[i];
        val x = host_getattr_opt(h, v, k->u.keyword.arg, at);
        if (x.kind == VAL_ERR)
            r = -1;
        else if (x.kind == VAL_MISSING)
            r = 0;
        else
            r = host_match(h, k->u.keyword.value, x, b);
        val_unref(x);
    }
    val_unref(cls);
    return r;
}

/* Does v match pattern pat (parse_stmt.c's pattern_ok shapes)?  1 with
 * its captures pushed on b, 0, or -1 after an error. */
static int host_match(host *h, const ast_node *pat, val v, host_binds *b)
{
    int keep = b->n, r;
    switch (pat->kind) {
    case AST_NAME:
        if (strcmp(pat->u.name.id, "_"))
            host_bind_push(b, pat->u.name.id, val_ref(v));
        return 1;
    case AST_BINOP:
        if (pat->u.binop.op == AST_OP_BITOR) {
            r = host_match(h, pat->u.binop.left, v, b);
            if (r != 0)
                return r;
            host_binds_drop(b, keep);
            r = host_match(h, pat->u.binop.right, v, b);
            break;
        }
        r = host_match_value(h, pat, v);
        break;
    case AST_TUPLE:
    case AST_LIST:
        r = host_match_seq(h, pat, v, b);
        break;
    case AST_DICT:
        r = host_match_mapping(h, pat, v, b);
        break;
    case AST_CALL:
        r = host_match_class(h, pat, v, b);
        break;
    default:
        r = host_match_value(h, pat, v);
        break;
    }
    if (r != 1)
        host_binds_drop(b, keep);
    return r;
}

static host_flow host_exec_match(host *h, const ast_node *s)
{
    val subject = host_eval(h, s->u.match.subject);
    if (subject.kind == VAL_ERR)
        return FLOW_ERROR;
    host_binds b = {0};
    host_flow fl = FLOW_NEXT;
    for (int i = 0; i < s->u.match.cases.len; i++) {
        const ast_node *c = s->u.match.cases.items[i];
        int r = host_match(h, c->u.case_.pattern, subject, &b);
        if (r < 0) {
            fl = FLOW_ERROR;
            break;
        }
        if (!r)
            continue;
        bool ok = true;
        for (int k = 0; k < b.n && ok; k++) {
            ok = host_store_name(h, b.names[k], b.values[k], c->u.case_.pattern->span);
            b.values[k] = val_none();
        }
        host_binds_drop(&b, 0);
        if (ok && c->u.case_.as_name)
            ok = host_store_name(h, c->u.case_.as_name, val_ref(subject), c->span);
        if (!ok) {
            fl = FLOW_ERROR;
            break;
        }
        if (c->u.case_.guard) {
            val g = host_eval(h, c->u.case_.guard);
            int t = g.kind == VAL_ERR ? -1 : host_truth(h, g, c->u.case_.guard->span);
            val_unref(g);
            if (t < 0) {
                fl = FLOW_ERROR;
                break;
            }
            if (!t)
                continue;
        }
        fl = host_exec_block(h, &c->u.case_.body);
        break;
    }
    host_binds_drop(&b, 0);
    free(b.names);
    free(b.values);
    val_unref(subject);
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
        if (h->class_ns.kind == VAL_DICT && s->u.annassign.target->kind == AST_NAME &&
            !host_class_annotation(h, s))
            return FLOW_ERROR;
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
    case AST_MATCH:
        return host_exec_match(h, s);
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

host_flow host_exec_block(host *h, const ast_list *body)
{
    src_span outer = h->stmt_at;
    host_flow fl = FLOW_NEXT;
    for (int i = 0; i < body->len && fl == FLOW_NEXT; i++) {
        h->stmt_at = body->items[i]->span;
        fl = host_exec(h, body->items[i]);
        /* An exception raised where nothing could return VAL_ERR (inside
         * a repr hook) ends the statement here. */
        if (fl == FLOW_NEXT && host_exc_pending(h))
            fl = FLOW_ERROR;
        if (fl == FLOW_NEXT && gen_pending() && !h->exiting) {
            gen_collect(h);   /* close the unfinished generators dropped */
            if (host_exc_pending(h))
                fl = FLOW_ERROR;
        }
    }
    h->stmt_at = outer;
    return fl;
}
