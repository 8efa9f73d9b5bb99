/* spec_stmt.c - the specializer's statements: assignments, returns
 * (early returns inside a runtime if too), and control flow: a constexpr
 * if picks a branch, a runtime if merges the names both branches assign,
 * for and while loops carry the names their bodies assign. */
#define _POSIX_C_SOURCE 200809L
#include "spec_impl.h"

#include <stdlib.h>
#include <string.h>

/* ---- statements ------------------------------------------------------------ */

/* Is a parameter annotated tl.constexpr (or triton.language.constexpr)? */
bool sp_is_constexpr_annotation(const ast_node *ann)
{
    if (!ann)
        return false;
    if (ann->kind == AST_ATTRIBUTE)
        return !strcmp(ann->u.attribute.attr, "constexpr");
    if (ann->kind == AST_NAME)
        return !strcmp(ann->u.name.id, "constexpr");
    return false;
}

/* What a plain assignment stores, as Triton 3.6's visit_Assign: a number
 * (also a tl.constexpr's value, and each number of a tuple) becomes a 0-d
 * tile of its own type, so `n = 16; tl.arange(0, n)` is refused there and
 * here, and `z = 0.0; 1.0 / z` is inf; strings, None, dtypes and tiles stay
 * as they are.  `n: tl.constexpr = 16` keeps the constant. */
static bool sp_assigned(spec *s, sval v, const ast_node *at, sval *out)
{
    *out = v;
    if (v.kind == SV_CONST && (v.c.kind == SC_INT || v.c.kind == SC_FLOAT ||
                               v.c.kind == SC_BOOL)) {
        int32_t slot;
        if (!sp_as_tile(s, v, at, &slot))
            return false;
        *out = sv_tile(slot);
        return true;
    }
    v = sp_tuple_view(s, v);
    if (v.kind != SV_TUPLE)
        return true;
    sval t = v;
    t.items = arena_alloc(s->a, (size_t)(v.n ? v.n : 1) * sizeof *t.items);
    for (int i = 0; i < v.n; i++)
        if (!sp_assigned(s, v.items[i], at, &t.items[i]))
            return false;
    *out = t;
    return true;
}

static bool sp_assign(spec *s, const ast_node *target, sval v)
{
    switch (target->kind) {
    case AST_NAME:
        if (v.kind == SV_TILE && !s->slots[v.slot].name)
            s->slots[v.slot].name = target->u.name.id;
        sp_bind(s, target->u.name.id, v);
        return true;
    case AST_TUPLE:
    case AST_LIST: {
        const ast_list *elts = &target->u.seq.elts;
        v = sp_tuple_view(s, v);
        if (v.kind != SV_TUPLE) {
            char buf[128];
            return sp_error(s, target, "cannot unpack %s into %d names",
                            sp_describe(s, v, buf, sizeof buf), elts->len);
        }
        if (v.n != elts->len)
            return sp_error(s, target, "cannot unpack a tuple of %d items into %d names",
                            v.n, elts->len);
        for (int i = 0; i < elts->len; i++)
            if (!sp_assign(s, elts->items[i], v.items[i]))
                return false;
        return true;
    }
    case AST_SUBSCRIPT:
        return sp_error(s, target, "a kernel cannot assign to an element of a tile or "
                        "tensor; write memory with tl.store");
    case AST_ATTRIBUTE:
        return sp_error(s, target, "a kernel cannot assign to attributes");
    default:
        return sp_error(s, target, "cannot assign to this in a kernel");
    }
}

/* Every name a statement list assigns (for loop-carried variables). */
static void sp_collect_target(const ast_node *t, const char ***names, int *n, int *cap)
{
    if (t->kind == AST_NAME) {
        for (int i = 0; i < *n; i++)
            if (!strcmp((*names)[i], t->u.name.id))
                return;
        SP_PUSH(*names, *n, *cap, t->u.name.id);
    } else if (t->kind == AST_TUPLE || t->kind == AST_LIST) {
        for (int i = 0; i < t->u.seq.elts.len; i++)
            sp_collect_target(t->u.seq.elts.items[i], names, n, cap);
    } else if (t->kind == AST_STARRED) {
        sp_collect_target(t->u.starred.value, names, n, cap);
    }
}

static void sp_collect_assigned(const ast_list *body, const char ***names, int *n, int *cap)
{
    for (int i = 0; i < body->len; i++) {
        const ast_node *st = body->items[i];
        switch (st->kind) {
        case AST_ASSIGN:
            for (int k = 0; k < st->u.assign.targets.len; k++)
                sp_collect_target(st->u.assign.targets.items[k], names, n, cap);
            break;
        case AST_AUGASSIGN:
            sp_collect_target(st->u.augassign.target, names, n, cap);
            break;
        case AST_ANNASSIGN:
            if (st->u.annassign.value)
                sp_collect_target(st->u.annassign.target, names, n, cap);
            break;
        case AST_FOR:
            sp_collect_target(st->u.for_.target, names, n, cap);
            sp_collect_assigned(&st->u.for_.body, names, n, cap);
            sp_collect_assigned(&st->u.for_.orelse, names, n, cap);
            break;
        case AST_IF:
        case AST_WHILE:
            sp_collect_assigned(&st->u.if_.body, names, n, cap);
            sp_collect_assigned(&st->u.if_.orelse, names, n, cap);
            break;
        default:
            break;
        }
    }
}

/* Two values are the same binding: nothing to merge after a runtime if's
 * branches, nothing to record in a debugger snapshot (spec_debug.c).  A
 * false "no" costs only a merge slot or a change record; a false "yes"
 * would lose a value, so constants compare exactly (1 is not 1.0 or True,
 * at any depth of a tuple; 0.0 is not -0.0) and the other kinds compare
 * every field they use (a method's tile, an f-string's pieces). */
bool sp_same(const sval *a, const sval *b)
{
    if (a->kind != b->kind)
        return false;
    switch (a->kind) {
    case SV_TILE: return a->slot == b->slot;
    case SV_CONST: return spec_const_eq(&a->c, &b->c);
    default:
        return a->slot == b->slot && a->items == b->items && a->pieces == b->pieces &&
               a->n == b->n && a->name == b->name && a->def == b->def &&
               a->block == b->block && a->file == b->file && a->env == b->env &&
               spec_const_eq(&a->c, &b->c);
    }
}

static bool sp_same_type(const ir_type *a, const ir_type *b)
{
    if (a->dt != b->dt || a->ndim != b->ndim)
        return false;
    for (int i = 0; i < a->ndim; i++)
        if (a->shape[i] != b->shape[i])
            return false;
    return true;
}

/* Copy v into the existing slot dst (emitting into the current position),
 * or fail if its type differs.  what/name describe it for errors. */
static bool sp_copy_into(spec *s, int32_t dst, sval v, const char *name, const char *what,
                         const ast_node *at)
{
    const ir_type *dt = sp_slot_type(s, dst);
    int32_t src;
    if (v.kind == SV_CONST && (v.c.kind == SC_INT || v.c.kind == SC_FLOAT ||
                               v.c.kind == SC_BOOL)) {
        /* a number keeps its own type (int32/int64, fp32, int1), as Triton
         * makes it a tensor before comparing types: 1 into an fp32 variable
         * is a type change there ("Mismatched type ... int32 and fp32") */
        src = sp_const_slot(s, &v.c, sp_const_dtype(&v.c), at);
    } else if (v.kind == SV_TILE) {
        src = v.slot;
    } else {
        char buf[128];
        return sp_error(s, at, "%s '%s' is %s, which cannot change at run time", what, name,
                        sp_describe(s, v, buf, sizeof buf));
    }
    if (src == dst)
        return true;
    const ir_type *st = sp_slot_type(s, src);
    if (!sp_same_type(st, dt)) {
        char a[96], b[96];
        ir_type_str(dt, a, sizeof a);
        ir_type_str(st, b, sizeof b);
        return sp_error(s, at, "%s '%s' has type %s before but %s after; its type must "
                        "stay the same (cast with .to(), or start it with the right "
                        "type, e.g. tl.zeros(..., dtype=...))", what, name, a, b);
    }
    if (s->slots[src].ptr_arg != s->slots[dst].ptr_arg)
        s->slots[dst].ptr_arg = -1;
    sp_emit(s, IR_COPY, 0, dst, src, -1, -1, 0, at);
    return true;
}

/* A fresh slot holding v (a tile or a number), for a value that a loop or a
 * runtime if will change. */
static bool sp_carry_slot(spec *s, sval v, const char *name, const ast_node *at,
                          int32_t *out)
{
    int32_t src = -1;
    if (!sp_as_tile(s, v, at, &src))
        return false;
    int32_t dst = sp_slot(s, *sp_slot_type(s, src), name);
    s->slots[dst].ptr_arg = s->slots[src].ptr_arg;
    sp_emit(s, IR_COPY, 0, dst, src, -1, -1, 0, at);
    *out = dst;
    return true;
}

static bool sp_runtime_cond(spec *s, sval cond, const ast_node *at, int32_t *slot)
{
    if (cond.kind != SV_TILE) {
        char buf[128];
        return sp_error(s, at, "a condition must be a constant or a scalar, not %s",
                        sp_describe(s, cond, buf, sizeof buf));
    }
    if (sp_slot_type(s, cond.slot)->ndim != 0) {
        char t[96];
        ir_type_str(sp_slot_type(s, cond.slot), t, sizeof t);
        return sp_error(s, at, "a condition must be a scalar, but this is a tile of %s "
                        "(reduce it with tl.sum/tl.max, or use tl.where for per-lane "
                        "choices)", t);
    }
    *slot = cond.slot;
    return true;
}

static bool sp_copy_block_into(spec *s, sval dst, sval v, const char *name,
                               const ast_node *at);

/* A branch's value v into the merge value dst (a slot or a block pointer). */
static bool sp_merge_into(spec *s, sval dst, sval v, const char *name, const ast_node *at)
{
    if (dst.kind == SV_BLOCKPTR)
        return sp_copy_block_into(s, dst, v, name, at);
    return sp_copy_into(s, dst.slot, v, name, "variable", at);
}

/* ---- returns ------------------------------------------------------------ */

/* The first 'return' statement anywhere inside statement st (Triton's
 * ContainsReturnChecker looks at the syntax, constexpr branches included). */
static const ast_node *sp_find_return_in(const ast_list *body);

static const ast_node *sp_find_return(const ast_node *st)
{
    const ast_node *r = NULL;
    switch (st->kind) {
    case AST_RETURN:
        return st;
    case AST_IF:
    case AST_WHILE:
        if (!(r = sp_find_return_in(&st->u.if_.body)))
            r = sp_find_return_in(&st->u.if_.orelse);
        return r;
    case AST_FOR:
        if (!(r = sp_find_return_in(&st->u.for_.body)))
            r = sp_find_return_in(&st->u.for_.orelse);
        return r;
    default:
        return NULL;
    }
}

static const ast_node *sp_find_return_in(const ast_list *body)
{
    for (int i = 0; i < body->len; i++) {
        const ast_node *r = sp_find_return(body->items[i]);
        if (r)
            return r;
    }
    return NULL;
}

static bool sp_return_in_loop(spec *s, const ast_node *ret)
{
    return sp_error(s, ret, "'return' inside a runtime 'for' or 'while' loop is not "
                    "supported by Triton (\"Cannot have `return` statements inside `while` "
                    "or `for` statements\"); end the loop through its condition (a while "
                    "loop with a flag) and return after it");
}

/* A returned value as Triton passes it out of a function: numbers become
 * scalar tiles (int32/int64, fp32, int1), tuples keep their shape. */
static bool sp_ret_decay(spec *s, sval v, const ast_node *at, sval *out)
{
    v = sp_tuple_view(s, v);
    if (v.kind == SV_TUPLE) {
        *out = v;
        out->items = arena_alloc(s->a, (size_t)(v.n + 1) * sizeof *out->items);
        for (int i = 0; i < v.n; i++)
            if (!sp_ret_decay(s, v.items[i], at, &out->items[i]))
                return false;
        return true;
    }
    if (v.kind == SV_TILE || (v.kind == SV_CONST && (v.c.kind == SC_INT ||
                                                    v.c.kind == SC_FLOAT ||
                                                    v.c.kind == SC_BOOL))) {
        int32_t slot;
        if (!sp_as_tile(s, v, at, &slot))
            return false;
        *out = sv_tile(slot);
        return true;
    }
    char buf[128];
    return sp_error(s, at, "a function that returns inside a runtime 'if' can return "
                    "tiles, numbers and tuples of them, not %s",
                    sp_describe(s, v, buf, sizeof buf));
}

/* The type of a decayed return value, as text ("None" for no value). */
static void sp_ret_type_str(spec *s, sval v, strbuf *b)
{
    if (sv_is_none(v)) {
        strbuf_puts(b, "None");
    } else if (v.kind == SV_TUPLE) {
        strbuf_putc(b, '(');
        for (int i = 0; i < v.n; i++) {
            if (i)
                strbuf_puts(b, ", ");
            sp_ret_type_str(s, v.items[i], b);
        }
        strbuf_puts(b, v.n == 1 ? ",)" : ")");
    } else {
        char t[96];
        ir_type_str(sp_slot_type(s, v.slot), t, sizeof t);
        strbuf_puts(b, t);
    }
}

/* Do decayed values a and b have the same type (Triton compares the
 * types of all returns of a function)? */
static bool sp_ret_same_type(spec *s, sval a, sval b)
{
    if (sv_is_none(a) || sv_is_none(b))
        return sv_is_none(a) && sv_is_none(b);
    if (a.kind != b.kind)
        return false;
    if (a.kind == SV_TUPLE) {
        if (a.n != b.n)
            return false;
        for (int i = 0; i < a.n; i++)
            if (!sp_ret_same_type(s, a.items[i], b.items[i]))
                return false;
        return true;
    }
    return sp_same_type(sp_slot_type(s, a.slot), sp_slot_type(s, b.slot));
}

/* Fresh slots shaped like the decayed value v: where every return of the
 * function leaves its value. */
static sval sp_ret_slots(spec *s, sval v)
{
    if (v.kind == SV_TUPLE) {
        sval r = v;
        r.items = arena_alloc(s->a, (size_t)(v.n + 1) * sizeof *r.items);
        for (int i = 0; i < v.n; i++)
            r.items[i] = sp_ret_slots(s, v.items[i]);
        return r;
    }
    int32_t dst = sp_slot(s, *sp_slot_type(s, v.slot), "return value");
    s->slots[dst].ptr_arg = s->slots[v.slot].ptr_arg;
    return sv_tile(dst);
}

static void sp_ret_copy(spec *s, sval dst, sval v, const ast_node *at)
{
    if (dst.kind == SV_TUPLE) {
        for (int i = 0; i < dst.n; i++)
            sp_ret_copy(s, dst.items[i], v.items[i], at);
        return;
    }
    if (s->slots[v.slot].ptr_arg != s->slots[dst.slot].ptr_arg)
        s->slots[dst.slot].ptr_arg = -1;
    sp_emit(s, IR_COPY, 0, dst.slot, v.slot, -1, -1, 0, at);
}

/* A return of a helper that has returned (or returns now) inside a runtime
 * 'if': the value goes into the function's return slots. */
static bool sp_ret_store(spec *s, sval v, const ast_node *st)
{
    sp_func *f = s->fn;
    sval d = sv_none();
    if (!sv_is_none(v) && !sp_ret_decay(s, v, st->u.expr.value ? st->u.expr.value : st, &d))
        return false;
    if (!f->first_ret) {
        f->first_ret = st;
        f->ret = sv_is_none(d) ? d : sp_ret_slots(s, d);
    } else if (!sp_ret_same_type(s, f->ret, d)) {
        strbuf a, b;
        strbuf_init(&a);
        strbuf_init(&b);
        sp_ret_type_str(s, d, &a);
        sp_ret_type_str(s, f->ret, &b);
        sp_error(s, st, "%s() returns %s here but %s at line %d; all its returns must give "
                 "the same type, as in Triton (\"Inconsistent return types\"): convert with "
                 ".to(...)", f->name, strbuf_cstr(&a), strbuf_cstr(&b), f->first_ret->span.line);
        strbuf_free(&a);
        strbuf_free(&b);
        return false;
    }
    if (!sv_is_none(d))
        sp_ret_copy(s, f->ret, d, st);
    return true;
}

static bool sp_if(spec *s, const ast_node *st)
{
    sval cond;
    if (!sp_expr(s, st->u.if_.test, &cond))
        return false;
    if (cond.kind == SV_CONST)
        return sp_block(s, sp_const_truth(&cond.c) ? &st->u.if_.body : &st->u.if_.orelse);
    int32_t cs;
    if (!sp_runtime_cond(s, cond, st->u.if_.test, &cs))
        return false;
    const ast_node *ret;
    if (s->fn->loop_depth > 0 && (ret = sp_find_return(st)))
        return sp_return_in_loop(s, ret);

    /* A branch that returns ends its path (returned); the code after the if
     * runs only if one of the branches did not return. */
    sp_scope before = sp_scope_copy(&s->fn->scope);
    int32_t br = sp_emit(s, IR_BRANCH, 0, -1, cs, -1, -1, 0, st);
    s->fn->runtime_depth++;
    bool ok = sp_block(s, &st->u.if_.body);
    bool then_ret = s->fn->returned;
    s->fn->returned = false;
    sp_scope then_sc = sp_scope_copy(&s->fn->scope);
    int32_t j1 = sp_emit(s, IR_JUMP, 0, -1, -1, -1, -1, 0, st);
    /* else: start again from the scope before the if */
    free(s->fn->scope.vars);
    s->fn->scope = sp_scope_copy(&before);
    s->code[br].imm = s->ncode;
    ok = ok && sp_block(s, &st->u.if_.orelse);
    bool else_ret = s->fn->returned;
    s->fn->returned = false;
    s->fn->runtime_depth--;
    sp_scope else_sc = sp_scope_copy(&s->fn->scope);
    int32_t j2 = sp_emit(s, IR_JUMP, 0, -1, -1, -1, -1, 0, st);

    /* Names bound differently by the two branches get a merge slot, written
     * at the end of each branch (blocks m1 and m2, placed after both). */
    int nm = 0;
    const char **mnames = xmalloc((size_t)(then_sc.n + else_sc.n + 1) * sizeof *mnames);
    sval *mvals = xmalloc((size_t)(then_sc.n + else_sc.n + 1) * sizeof *mvals);
    sp_scope *sides[2] = {&then_sc, &else_sc};
    for (int side = 0; ok && side < 2; side++)
        for (int i = 0; ok && i < sides[side]->n; i++) {
            const char *name = sides[side]->vars[i].name;
            bool dup = false;
            for (int k = 0; k < nm && !dup; k++)
                dup = !strcmp(mnames[k], name);
            if (dup)
                continue;
            sval *t = sp_scope_find(&then_sc, name), *e = sp_scope_find(&else_sc, name);
            if (t && e && sp_same(t, e)) {
                sp_bind(s, name, *t);
                continue;
            }
            if (!t || !e || t->kind == SV_UNDEF || e->kind == SV_UNDEF) {
                char *why = arena_alloc(s->a, 96);
                snprintf(why, 96, "it is assigned in only one branch of the 'if' at "
                         "line %d", st->span.line);
                sp_bind(s, name, (sval){.kind = SV_UNDEF, .name = why});
                continue;
            }
            mnames[nm] = name;
            if (t->kind == SV_BLOCKPTR) {
                /* a block pointer: merge slots for each of its scalars */
                mvals[nm] = *t;
                mvals[nm].items = arena_alloc(s->a, (size_t)t->n * sizeof *t->items);
                for (int j = 0; j < t->n; j++) {
                    int32_t m = sp_slot(s, *sp_slot_type(s, t->items[j].slot), name);
                    s->slots[m].ptr_arg = s->slots[t->items[j].slot].ptr_arg;
                    mvals[nm].items[j] = sv_tile(m);
                }
                nm++;
                continue;
            }
            /* Only tiles and numbers have a value at run time to merge. */
            if (!sp_mergeable(t) || !sp_mergeable(e)) {
                char bt[128], be[128];
                ok = sp_error(s, st, "'%s' differs between the branches of this 'if' "
                              "(%s, and %s); a runtime 'if' can only merge tiles and "
                              "numbers: bind it the same way in both branches, or branch "
                              "on a tl.constexpr", name, sp_describe(s, *t, bt, sizeof bt),
                              sp_describe(s, *e, be, sizeof be));
                break;
            }
            /* Both branches must give the same type, numbers as Triton
             * types them (int32/int64, fp32, int1): Triton refuses 1 in one
             * branch and 1.0 in the other. */
            ir_type tt = sp_merge_type(s, t), et = sp_merge_type(s, e);
            if (!sp_same_type(&tt, &et)) {
                char a[96], b[96];
                ir_type_str(&tt, a, sizeof a);
                ir_type_str(&et, b, sizeof b);
                ok = sp_error(s, st, "'%s' is %s after the 'then' branch of this 'if' but %s "
                              "after the 'else' branch; Triton refuses that (\"Mismatched "
                              "type for %s\"): give both the same type (1.0 rather than 1, "
                              "or .to(...))", name, a, b, name);
                break;
            }
            mvals[nm] = sv_tile(sp_slot(s, tt, name));
            nm++;
        }
    s->code[j1].imm = s->ncode;
    for (int k = 0; ok && k < nm; k++)
        ok = sp_merge_into(s, mvals[k], *sp_scope_find(&then_sc, mnames[k]), mnames[k], st);
    int32_t j3 = sp_emit(s, IR_JUMP, 0, -1, -1, -1, -1, 0, st);
    s->code[j2].imm = s->ncode;
    for (int k = 0; ok && k < nm; k++)
        ok = sp_merge_into(s, mvals[k], *sp_scope_find(&else_sc, mnames[k]), mnames[k], st);
    s->code[j3].imm = s->ncode;
    for (int k = 0; ok && k < nm; k++)
        sp_bind(s, mnames[k], mvals[k]);
    s->fn->returned = then_ret && else_ret;
    free(mnames);
    free(mvals);
    free(before.vars);
    free(then_sc.vars);
    free(else_sc.vars);
    return ok;
}

/* A block pointer whose runtime scalars are fresh slots (copies of v's),
 * for a loop that changes it (tl.advance). */
static bool sp_carry_block(spec *s, sval v, const char *name, const ast_node *at, sval *out)
{
    *out = v;
    out->items = arena_alloc(s->a, (size_t)v.n * sizeof *out->items);
    for (int j = 0; j < v.n; j++) {
        int32_t slot;
        if (!sp_carry_slot(s, v.items[j], name, at, &slot))
            return false;
        out->items[j] = sv_tile(slot);
    }
    return true;
}

/* Copy block pointer v's scalars into the carried block pointer dst; v must
 * point to blocks of the same element type and shape. */
static bool sp_copy_block_into(spec *s, sval dst, sval v, const char *name,
                               const ast_node *at)
{
    const sp_blockinfo *a = dst.block, *b = v.block;
    if (v.kind != SV_BLOCKPTR || b->nd != a->nd || b->elem != a->elem ||
        b->desc != a->desc || b->pad_nan != a->pad_nan ||
        memcmp(b->block, a->block, sizeof a->block)) {
        char x[128], y[128];
        return sp_error(s, at, "variable '%s' is %s on one path but %s on another; it "
                        "must stay the same kind of block pointer or descriptor", name,
                        sp_describe(s, dst, x, sizeof x), sp_describe(s, v, y, sizeof y));
    }
    for (int j = 0; j < dst.n; j++)
        if (!sp_copy_into(s, dst.items[j].slot, v.items[j], name, "loop-carried variable", at))
            return false;
    return true;
}

/* Loop-carried variables: before the loop, each name the body assigns that
 * already has a value gets its own slot, which the body reads; at the end
 * of each iteration the body's new value is copied back. */
typedef struct sp_carry {
    const char **names;
    sval *vals;            /* a tile, or a block pointer of carried scalars */
    int n;
    sp_scope before;       /* to find names first bound in the loop */
    /* Constants other than numbers (None, a str, a tuple) that the body
     * assigns only where a tl.constexpr condition is false, as Triton
     * compiles no such branch: they cannot be carried, so the body must
     * leave each as it was (sp_carry_back checks). */
    const char **fixed;
    sval *fixed_vals;
    int nfixed;
} sp_carry;

static bool sp_carry_begin(spec *s, const ast_list *body, const ast_node *at,
                           const char *skip, sp_carry *c)
{
    const char **names = NULL;
    int n = 0, cap = 0;
    sp_collect_assigned(body, &names, &n, &cap);
    c->names = xmalloc((size_t)(n + 1) * sizeof *c->names);
    c->vals = xmalloc((size_t)(n + 1) * sizeof *c->vals);
    c->n = 0;
    c->fixed = xmalloc((size_t)(n + 1) * sizeof *c->fixed);
    c->fixed_vals = xmalloc((size_t)(n + 1) * sizeof *c->fixed_vals);
    c->nfixed = 0;
    c->before = sp_scope_copy(&s->fn->scope);
    bool ok = true;
    for (int i = 0; ok && i < n; i++) {
        sval *v = sp_lookup_local(s, names[i]);
        if (!v || v->kind == SV_UNDEF || (skip && !strcmp(names[i], skip)))
            continue;
        int32_t slot;
        if (v->kind == SV_BLOCKPTR) {
            if (!(ok = sp_carry_block(s, *v, names[i], at, &c->vals[c->n])))
                break;
            c->names[c->n] = names[i];
            sp_bind(s, names[i], c->vals[c->n++]);
            continue;
        }
        if (v->kind == SV_CONST && v->c.kind != SC_INT && v->c.kind != SC_FLOAT &&
            v->c.kind != SC_BOOL) {
            c->fixed[c->nfixed] = names[i];
            c->fixed_vals[c->nfixed++] = *v;
            continue;
        }
        if (v->kind != SV_TILE && !(v->kind == SV_CONST && (v->c.kind == SC_INT ||
                                                            v->c.kind == SC_FLOAT ||
                                                            v->c.kind == SC_BOOL))) {
            char buf[128];
            ok = sp_error(s, at, "'%s' is %s and the loop assigns it; only tiles and "
                          "numbers (and block pointers) can change in a loop", names[i],
                          sp_describe(s, *v, buf, sizeof buf));
            break;
        }
        if (!(ok = sp_carry_slot(s, *v, names[i], at, &slot)))
            break;
        c->names[c->n] = names[i];
        c->vals[c->n] = sv_tile(slot);
        c->n++;
        sp_bind(s, names[i], sv_tile(slot));
    }
    free(names);
    if (!ok) {
        free(c->names);
        free(c->vals);
        free(c->fixed);
        free(c->fixed_vals);
        free(c->before.vars);
    }
    return ok;
}

/* End of one iteration: copy the body's values into the carried slots. */
static bool sp_carry_back(spec *s, sp_carry *c, const ast_node *at)
{
    for (int i = 0; i < c->nfixed; i++) {
        sval *v = sp_lookup_local(s, c->fixed[i]);
        if (!v || v->kind != SV_CONST || !spec_const_eq(&v->c, &c->fixed_vals[i].c)) {
            char buf[128];
            return sp_error(s, at, "'%s' is %s and the loop assigns it; only tiles and "
                            "numbers (and block pointers) can change in a loop", c->fixed[i],
                            sp_describe(s, c->fixed_vals[i], buf, sizeof buf));
        }
    }
    for (int i = 0; i < c->n; i++) {
        sval *v = sp_lookup_local(s, c->names[i]);
        if (!v || v->kind == SV_UNDEF)
            return sp_error(s, at, "'%s' is not defined at the end of the loop body",
                            c->names[i]);
        bool ok = c->vals[i].kind == SV_BLOCKPTR
                  ? sp_copy_block_into(s, c->vals[i], *v, c->names[i], at)
                  : sp_copy_into(s, c->vals[i].slot, *v, c->names[i], "loop-carried variable",
                                 at);
        if (!ok)
            return false;
    }
    return true;
}

/* After the loop: carried names hold their slots; names first bound inside
 * the loop are not usable after it. */
static void sp_carry_end(spec *s, sp_carry *c, const ast_node *at)
{
    for (int i = 0; i < c->n; i++)
        sp_bind(s, c->names[i], c->vals[i]);
    sp_scope *sc = &s->fn->scope;
    for (int i = 0; i < sc->n; i++)
        if (!sp_scope_find(&c->before, sc->vars[i].name)) {
            char *why = arena_alloc(s->a, 96);
            snprintf(why, 96, "it is assigned only inside the loop at line %d",
                     at->span.line);
            sc->vars[i].v = (sval){.kind = SV_UNDEF, .name = why};
        }
    free(c->names);
    free(c->vals);
    free(c->fixed);
    free(c->fixed_vals);
    free(c->before.vars);
}

/* The loop forms: range/tl.range (a loop at run time) and tl.static_range
 * (unrolled now). */
static bool sp_for(spec *s, const ast_node *st)
{
    const ast_node *it = st->u.for_.iter;
    if (st->u.for_.orelse.len)
        return sp_error(s, st, "'for ... else' is not supported in kernels");
    sval fn = {.kind = SV_CONST};
    if (it->kind == AST_CALL && !sp_expr(s, it->u.call.func, &fn))
        return false;
    bool is_static = fn.kind == SV_FUNC && !strcmp(fn.name, "triton.language.static_range");
    bool is_range = fn.kind == SV_FUNC && (!strcmp(fn.name, "builtins.range") ||
                                           !strcmp(fn.name, "triton.language.range"));
    if (!is_static && !is_range) {
        /* A constant tuple: unrolled. */
        sval t;
        if (!sp_expr(s, it, &t))
            return false;
        t = sp_tuple_view(s, t);
        if (t.kind != SV_TUPLE)
            return sp_error(s, it, "kernels loop over range(...), tl.range(...) or "
                            "tl.static_range(...)");
        for (int i = 0; i < t.n && !s->fn->returned; i++)
            if (!sp_assign(s, st->u.for_.target, t.items[i]) || !sp_block(s, &st->u.for_.body))
                return false;
        return true;
    }
    /* start, end, step from the call's positional arguments */
    const ast_list *args = &it->u.call.args;
    if (args->len < 1 || args->len > 3)
        return sp_error(s, it, "range takes 1 to 3 arguments, not %d", args->len);
    sval b[3] = {sv_int(0), sv_int(0), sv_int(1)};
    for (int i = 0; i < args->len; i++)
        if (!sp_expr(s, args->items[i], &b[args->len == 1 ? 1 : i]))
            return false;
    for (int i = 0; i < it->u.call.keywords.len; i++) {
        const char *k = it->u.call.keywords.items[i]->u.keyword.arg;
        static const char *const ok_kw[] = {"num_stages", "loop_unroll_factor",
                                             "disallow_acc_multi_buffer", "flatten",
                                             "warp_specialize", NULL};
        bool known = false;
        for (int j = 0; k && ok_kw[j] && !known; j++)
            known = !strcmp(k, ok_kw[j]);
        if (!known)
            return sp_error(s, it->u.call.keywords.items[i], "unexpected keyword "
                            "argument '%s' for range", k ? k : "**");
    }
    if (is_static) {
        int64_t v[3];
        for (int i = 0; i < 3; i++)
            if (!sp_const_int(s, b[i], it, "a tl.static_range bound", &v[i]))
                return false;
        if (v[2] == 0)
            return sp_error(s, it, "range step must not be zero");
        /* the trip count, in unsigned arithmetic: bounds are any int64 */
        uint64_t span = v[2] > 0 ? (v[1] > v[0] ? (uint64_t)v[1] - (uint64_t)v[0] : 0)
                                 : (v[0] > v[1] ? (uint64_t)v[0] - (uint64_t)v[1] : 0);
        uint64_t step = v[2] > 0 ? (uint64_t)v[2] : -(uint64_t)v[2];
        uint64_t trips = span / step + (span % step != 0);
        if (trips > (uint64_t)SP_MAX_UNROLL)
            return sp_error(s, it, "tl.static_range unrolls its loop while compiling, and "
                            "this one has %llu iterations: tritsim unrolls at most %lld; "
                            "use tl.range (or range) for a loop at run time",
                            (unsigned long long)trips, (long long)SP_MAX_UNROLL);
        for (uint64_t n = 0; n < trips && !s->fn->returned; n++) {
            /* v[0] + n * v[2], which stays between the bounds (no overflow) */
            int64_t i = (int64_t)((uint64_t)v[0] + n * (uint64_t)v[2]);
            if (++s->unrolled > SP_MAX_UNROLL_ALL)
                return sp_error(s, it, "the tl.static_range loops of this kernel have "
                                "unrolled %lld iterations in all, tritsim's limit (nested "
                                "loops multiply); use tl.range (or range) for a loop at run "
                                "time", (long long)SP_MAX_UNROLL_ALL);
            if (!sp_assign(s, st->u.for_.target, sv_int(i)) || !sp_block(s, &st->u.for_.body))
                return false;
        }
        return true;
    }
    if (st->u.for_.target->kind != AST_NAME)
        return sp_error(s, st->u.for_.target, "the variable of a range loop must be a name");
    const char *var = st->u.for_.target->u.name.id;
    /* The induction variable is int32, or int64 if a bound needs it. */
    dtype ivt = DTYPE_INT32;
    for (int i = 0; i < 3; i++) {
        if (b[i].kind == SV_TILE) {
            dtype t = sp_slot_type(s, b[i].slot)->dt;
            if (!dtype_is_int(t) || sp_slot_type(s, b[i].slot)->ndim != 0)
                return sp_error(s, it, "range bounds must be integer scalars");
            if (dtype_bits(t) == 64)
                ivt = DTYPE_INT64;
        } else if (b[i].kind != SV_CONST || (b[i].c.kind != SC_INT && b[i].c.kind != SC_BOOL)) {
            return sp_error(s, it, "range bounds must be integers");
        } else if (dtype_of_pyint(b[i].c.u.i) != DTYPE_INT32) {
            ivt = DTYPE_INT64;
        }
    }
    if (b[2].kind == SV_CONST && b[2].c.u.i == 0)
        return sp_error(s, it, "range step must not be zero");
    int32_t start = sp_operand_slot(s, b[0], ivt, it);
    int32_t end = sp_operand_slot(s, b[1], ivt, it);
    int32_t step = sp_operand_slot(s, b[2], ivt, it);
    sp_carry c;
    if (!sp_carry_begin(s, &st->u.for_.body, st, var, &c))
        return false;
    int32_t iv = sp_slot(s, sp_scalar_type(ivt), var);
    sp_emit(s, IR_COPY, 0, iv, start, -1, -1, 0, st);
    int32_t head = s->ncode;
    int32_t cond = sp_slot(s, sp_scalar_type(DTYPE_INT1), NULL);
    if (b[2].kind == SV_CONST) {
        sp_emit(s, IR_CMP, b[2].c.u.i > 0 ? IR_LT : IR_GT, cond, iv, end, -1, 0, st);
    } else {
        /* step's sign is known only at run time */
        int32_t up = sp_slot(s, sp_scalar_type(DTYPE_INT1), NULL);
        int32_t lt = sp_slot(s, sp_scalar_type(DTYPE_INT1), NULL);
        int32_t gt = sp_slot(s, sp_scalar_type(DTYPE_INT1), NULL);
        int32_t zero = sp_const_slot(s, &(spec_const){.kind = SC_INT}, ivt, st);
        sp_emit(s, IR_CMP, IR_GT, up, step, zero, -1, 0, st);
        sp_emit(s, IR_CMP, IR_LT, lt, iv, end, -1, 0, st);
        sp_emit(s, IR_CMP, IR_GT, gt, iv, end, -1, 0, st);
        sp_emit(s, IR_WHERE, 0, cond, up, lt, gt, 0, st);
    }
    int32_t br = sp_emit(s, IR_BRANCH, 0, -1, cond, -1, -1, 0, st);
    sp_bind(s, var, sv_tile(iv));
    s->fn->runtime_depth++;
    s->fn->loop_depth++;
    bool ok = sp_block(s, &st->u.for_.body) && sp_carry_back(s, &c, st);
    s->fn->loop_depth--;
    s->fn->runtime_depth--;
    if (ok) {
        sp_emit(s, IR_BINARY, IR_ADD, iv, iv, step, -1, 0, st);
        sp_emit(s, IR_JUMP, 0, -1, -1, -1, -1, head, st);
        s->code[br].imm = s->ncode;
    }
    sp_carry_end(s, &c, st);
    sp_bind(s, var, sv_tile(iv));
    return ok;
}

static bool sp_while(spec *s, const ast_node *st)
{
    if (st->u.if_.orelse.len)
        return sp_error(s, st, "'while ... else' is not supported in kernels");
    sp_carry c;
    if (!sp_carry_begin(s, &st->u.if_.body, st, NULL, &c))
        return false;
    int32_t head = s->ncode;
    /* the condition, where each iteration comes back to, is the while
     * statement again for the debugger (a second entry of it, its "loop
     * head", with the loop's variables in scope) */
    int32_t outer = sp_dbg_stmt(s, st);
    sval cond;
    int32_t cs;
    bool ok = sp_expr(s, st->u.if_.test, &cond);
    if (ok && cond.kind == SV_CONST) {
        if (sp_const_truth(&cond.c))
            ok = sp_error(s, st->u.if_.test, "this loop would never end: its condition "
                          "is a constant");
        s->cur_stmt = outer;
        sp_carry_end(s, &c, st);
        return ok;
    }
    ok = ok && sp_runtime_cond(s, cond, st->u.if_.test, &cs);
    int32_t br = ok ? sp_emit(s, IR_BRANCH, 0, -1, cs, -1, -1, 0, st) : -1;
    s->fn->runtime_depth++;
    s->fn->loop_depth++;
    ok = ok && sp_block(s, &st->u.if_.body) && sp_carry_back(s, &c, st);
    s->fn->loop_depth--;
    s->fn->runtime_depth--;
    if (ok) {
        sp_emit(s, IR_JUMP, 0, -1, -1, -1, -1, head, st);
        s->code[br].imm = s->ncode;
    }
    s->cur_stmt = outer;
    sp_carry_end(s, &c, st);
    return ok;
}

/* return: in the kernel the program ends here; in a helper the value is
 * the call's.  A return inside a runtime 'if' (Triton's early return) ends
 * only that path: the helper's returns then meet in return slots at the end
 * of its inlined body.  Returns inside runtime loops are refused, as by
 * Triton. */
static bool sp_return(spec *s, const ast_node *st)
{
    sp_func *f = s->fn;
    if (f->loop_depth > 0)
        return sp_return_in_loop(s, st);
    sval v = sv_none();
    if (st->u.expr.value && !sp_expr(s, st->u.expr.value, &v))
        return false;
    if (!f->caller) {
        if (!sv_is_none(v))
            return sp_error(s, st, "a kernel cannot return a value; store it with tl.store");
        sp_emit(s, IR_RETURN, 0, -1, -1, -1, -1, 0, st);
        f->returned = true;
        return true;
    }
    if (f->runtime_depth == 0 && !f->rt_ret) {
        /* Every path returns here: the value stays as it is (a constant
         * stays a constant). */
        f->ret = v;
        f->returned = true;
        return true;
    }
    if (!sp_ret_store(s, v, st))
        return false;
    if (f->runtime_depth > 0) {
        int32_t j = sp_emit(s, IR_JUMP, 0, -1, -1, -1, -1, 0, st);
        SP_PUSH(f->ret_jumps, f->nret_jumps, f->cap_ret_jumps, j);
        f->rt_ret = true;
    }
    f->returned = true;
    return true;
}

static bool sp_stmt_kind(spec *s, const ast_node *st)
{
    switch (st->kind) {
    case AST_EXPR_STMT: {
        sval v;
        return sp_expr(s, st->u.expr.value, &v);
    }
    case AST_ASSIGN: {
        sval v;
        if (!sp_expr(s, st->u.assign.value, &v) || !sp_assigned(s, v, st, &v))
            return false;
        for (int i = 0; i < st->u.assign.targets.len; i++)
            if (!sp_assign(s, st->u.assign.targets.items[i], v))
                return false;
        return true;
    }
    case AST_AUGASSIGN: {
        sval cur, v;
        const ast_node *t = st->u.augassign.target;
        if (t->kind != AST_NAME)
            return sp_error(s, t, "a kernel can only update names with %s=",
                            ast_op_name(st->u.augassign.op));
        return sp_expr(s, t, &cur) && sp_expr(s, st->u.augassign.value, &v) &&
               sp_binop(s, st->u.augassign.op, cur, v, st, &v) &&
               sp_assigned(s, v, st, &v) && sp_assign(s, t, v);
    }
    case AST_ANNASSIGN: {
        sval v;
        if (!st->u.annassign.value)
            return true;
        return sp_expr(s, st->u.annassign.value, &v) &&
               (sp_is_constexpr_annotation(st->u.annassign.annotation) ||
                sp_assigned(s, v, st, &v)) &&
               sp_assign(s, st->u.annassign.target, v);
    }
    case AST_IF:
        return sp_if(s, st);
    case AST_FOR:
        return sp_for(s, st);
    case AST_WHILE:
        return sp_while(s, st);
    case AST_RETURN:
        return sp_return(s, st);
    case AST_PASS:
        return true;
    case AST_ASSERT: {
        sval v;
        if (!sp_expr(s, st->u.assert_.test, &v))
            return false;
        sval msg = sv_none();
        if (st->u.assert_.msg && !sp_expr(s, st->u.assert_.msg, &msg))
            return false;
        sp_args a = {.argc = 2, .argv = (sval[]){v, msg}};
        sval r;
        return sp_call_builtin(s, "triton.language.device_assert", &a, st, &r);
    }
    case AST_BREAK:
    case AST_CONTINUE:
        return sp_error(s, st, "'%s' is not supported in Triton kernels; use a while loop "
                        "with a condition, or tl.where", st->kind == AST_BREAK ? "break"
                                                                              : "continue");
    case AST_FUNCDEF:
        return sp_error(s, st, "functions cannot be defined inside a kernel; define a "
                        "@triton.jit function at the top level");
    case AST_IMPORT:
    case AST_IMPORTFROM:
        return sp_error(s, st, "imports are not allowed inside a kernel; import at the top "
                        "of the file");
    case AST_GLOBAL:
    case AST_NONLOCAL:
        return sp_error(s, st, "'global' and 'nonlocal' are not supported in kernels");
    case AST_RAISE:
        return sp_error(s, st, "'raise' is not supported in kernels; use tl.device_assert");
    case AST_DEL:
        return sp_error(s, st, "'del' is not supported in kernels");
    case AST_CLASSDEF:
        return sp_error(s, st, "classes cannot be defined inside a kernel; define them "
                        "in host code");
    case AST_TRY:
        return sp_error(s, st, "'try' is not supported in kernels (a kernel raises no "
                        "exceptions: use tl.device_assert)");
    case AST_WITH:
        return sp_error(s, st, "'with' is not supported in kernels");
    case AST_MATCH:
        return sp_error(s, st, "'match' is not supported in kernels; use if/elif on "
                        "constexpr values");
    default:
        return sp_error(s, st, "this statement is not supported in kernels");
    }
}

/* A statement, recorded in the debugger's statement table first. */
static bool sp_stmt(spec *s, const ast_node *st)
{
    int32_t outer = sp_dbg_stmt(s, st);
    bool ok = sp_stmt_kind(s, st) && !s->too_big;
    s->cur_stmt = outer;
    return ok;
}

bool sp_block(spec *s, const ast_list *body)
{
    for (int i = 0; i < body->len && !s->fn->returned; i++)
        if (!sp_stmt(s, body->items[i]))
            return false;
    return true;
}
