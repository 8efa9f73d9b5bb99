/* parse_expr.c - the parser's expressions, one function per rule of
 * CPython's grammar: targets, comprehensions, displays, atoms, calls,
 * subscripts and attributes, the operators (binary operators from '|' to
 * '*' by precedence climbing, Lua's subexpr, to keep the C stack
 * shallow), lambdas, conditional and starred expressions; and the
 * parameters of a def or a lambda. */
#include "parse_impl.h"

#include <stdlib.h>
#include <string.h>

/* ---- expressions ---- */

static ast_node *star_expression(parser *p);
static ast_node *disjunction(parser *p);
static ast_node *factor(parser *p);

/* star_targets of `for` loops and comprehensions: comma-separated operands
 * below the comparisons, so that `in` ends them.  The caller sets STORE. */
ast_node *parse_target_list(parser *p)
{
    src_span start = p->tok.span;
    vec v = {0};
    for (;;) {
        ast_node *e;
        if (parse_check(p, TK_STAR)) {
            src_span s = p->tok.span;
            parse_advance(p);
            ast_node *val = parse_bitwise_or(p);
            e = parse_mk(p, AST_STARRED, parse_upto(p, s));
            e->u.starred.value = val;
        } else {
            e = parse_bitwise_or(p);
        }
        parse_vec_push(&v, e);
        if (p->failed || !parse_check(p, TK_COMMA))
            break;
        parse_advance(p);
        if (!parse_starts_expression(p->tok.kind))
            break;
    }
    if (v.len == 1 && p->prev.kind != TK_COMMA) {
        ast_node *only = v.items[0];
        free(v.items);
        return only;
    }
    ast_node *t = parse_mk(p, AST_TUPLE, parse_upto(p, start));
    t->u.seq.elts = parse_vec_freeze(p, &v);
    return t;
}

/* for_if_clauses: ('for' targets 'in' disjunction ('if' disjunction)*)+ */
static ast_list comp_clauses(parser *p)
{
    vec v = {0};
    while (!p->failed && (parse_check(p, TK_FOR) || parse_check(p, TK_ASYNC))) {
        if (parse_check(p, TK_ASYNC)) {
            parse_unsupported(p, p->tok.span, "'async' comprehensions are", NULL);
            break;
        }
        src_span start = p->tok.span;
        parse_advance(p);
        ast_node *target = parse_target_list(p);
        if (!p->failed && !parse_set_store(p, target, false))
            break;
        parse_expect(p, TK_IN, "'in' after the comprehension's target");
        ast_node *iter = disjunction(p);
        vec ifs = {0};
        while (!p->failed && parse_accept(p, TK_IF))
            parse_vec_push(&ifs, disjunction(p));
        ast_node *c = parse_mk(p, AST_COMPREHENSION, parse_upto(p, start));
        c->u.comprehension.target = target;
        c->u.comprehension.iter = iter;
        c->u.comprehension.ifs = parse_vec_freeze(p, &ifs);
        parse_vec_push(&v, c);
    }
    return parse_vec_freeze(p, &v);
}

/* A comprehension whose element (and, for dicts, value) is parsed; the
 * current token is 'for'. */
static ast_node *comprehension(parser *p, ast_kind kind, src_span start,
                               ast_node *elt, ast_node *value, tk_kind close,
                               const char *what)
{
    if (elt->kind == AST_STARRED)
        parse_fail_at(p, elt->span, "iterable unpacking cannot be used in comprehension");
    ast_list gens = comp_clauses(p);
    parse_expect(p, close, what);
    ast_node *n = parse_mk(p, kind, parse_upto(p, start));
    n->u.comp.elt = elt;
    n->u.comp.value = value;
    n->u.comp.generators = gens;
    return n;
}

/* The rest of a display after its first element: `, elt`* up to close. */
static ast_list display_rest(parser *p, ast_node *first, tk_kind close, const char *what)
{
    vec v = {0};
    parse_vec_push(&v, first);
    while (!p->failed && parse_accept(p, TK_COMMA)) {
        if (parse_check(p, close))
            break;
        parse_vec_push(&v, star_expression(p));
    }
    parse_expect(p, close, what);
    return parse_vec_freeze(p, &v);
}

/* yield_expr: 'yield' [star_expressions] | 'yield' 'from' expression; the
 * current token is 'yield'.  It makes the enclosing def a generator. */
static ast_node *parse_yield_expr(parser *p)
{
    src_span start = p->tok.span;
    parse_advance(p);
    ast_node *n;
    if (parse_accept(p, TK_FROM)) {
        ast_node *v = parse_expression(p);
        n = parse_mk(p, AST_YIELDFROM, parse_upto(p, start));
        n->u.expr.value = v;
    } else {
        ast_node *v = NULL;
        if (parse_starts_expression(p->tok.kind) && !parse_check(p, TK_YIELD)) {
            v = parse_star_expressions(p);
            if (!p->failed)
                parse_no_bare_star(p, v);
        }
        n = parse_mk(p, AST_YIELD, parse_upto(p, start));
        n->u.expr.value = v;
    }
    if (p->failed)
        return n;
    if (p->lambdas > 0)
        parse_unsupported(p, n->span, "'yield' inside a lambda is", "use a def");
    else if (p->funcs == 0)
        parse_report(p, n->span, "'yield' outside function");
    else
        p->yields = true;
    return n;
}

ast_node *parse_star_expressions_or_yield(parser *p)
{
    return parse_check(p, TK_YIELD) ? parse_yield_expr(p) : parse_star_expressions(p);
}

/* '(' ... ')': empty tuple, tuple, generator expression or a parenthesised
 * expression (returned as it is, with its own span). */
static ast_node *paren(parser *p)
{
    src_span start = p->tok.span;
    parse_advance(p);
    if (parse_accept(p, TK_RPAR)) {
        ast_node *t = parse_mk(p, AST_TUPLE, parse_upto(p, start));
        return t;
    }
    if (parse_check(p, TK_YIELD)) {
        ast_node *y = parse_yield_expr(p);
        parse_expect(p, TK_RPAR, "')' after the yield expression");
        return y;
    }
    ast_node *first = star_expression(p);
    if (p->failed)
        return first;
    if (parse_check(p, TK_FOR))
        return comprehension(p, AST_GENEXP, start, first, NULL, TK_RPAR,
                             "')' after the generator expression");
    if (parse_check(p, TK_COMMA)) {
        ast_list elts = display_rest(p, first, TK_RPAR, "',' or ')' in the tuple");
        ast_node *t = parse_mk(p, AST_TUPLE, parse_upto(p, start));
        t->u.seq.elts = elts;
        return t;
    }
    parse_expect(p, TK_RPAR, "',' or ')'");
    parse_no_bare_star(p, first);
    return first;
}

static ast_node *list_display(parser *p)
{
    src_span start = p->tok.span;
    parse_advance(p);
    ast_node *n;
    if (parse_accept(p, TK_RSQB))
        return parse_mk(p, AST_LIST, parse_upto(p, start));
    ast_node *first = star_expression(p);
    if (p->failed)
        return first;
    if (parse_check(p, TK_FOR))
        return comprehension(p, AST_LISTCOMP, start, first, NULL, TK_RSQB,
                             "']' after the list comprehension");
    ast_list elts = display_rest(p, first, TK_RSQB, "',' or ']' in the list");
    n = parse_mk(p, AST_LIST, parse_upto(p, start));
    n->u.seq.elts = elts;
    return n;
}

/* The entries of a dict after the first key: value. */
static ast_node *dict_rest(parser *p, src_span start, vec *keys, vec *values)
{
    while (!p->failed && parse_accept(p, TK_COMMA)) {
        if (parse_check(p, TK_RBRACE))
            break;
        if (parse_accept(p, TK_DSTAR)) {
            parse_vec_push(keys, NULL);
            parse_vec_push(values, parse_bitwise_or(p));
            continue;
        }
        parse_vec_push(keys, parse_expression(p));
        parse_expect(p, TK_COLON, "':' after the dict key");
        parse_vec_push(values, parse_expression(p));
    }
    parse_expect(p, TK_RBRACE, "',' or '}' in the dict");
    ast_node *n = parse_mk(p, AST_DICT, parse_upto(p, start));
    n->u.dict.keys = parse_vec_freeze(p, keys);
    n->u.dict.values = parse_vec_freeze(p, values);
    return n;
}

/* '{' ... '}': dict, set, or their comprehensions. */
static ast_node *brace_display(parser *p)
{
    src_span start = p->tok.span;
    parse_advance(p);
    vec keys = {0}, values = {0};
    if (parse_accept(p, TK_RBRACE))
        return parse_mk(p, AST_DICT, parse_upto(p, start));
    if (parse_accept(p, TK_DSTAR)) {
        parse_vec_push(&keys, NULL);
        parse_vec_push(&values, parse_bitwise_or(p));
        return dict_rest(p, start, &keys, &values);
    }
    ast_node *first = star_expression(p);
    if (p->failed)
        return first;
    if (first->kind != AST_STARRED && parse_accept(p, TK_COLON)) {
        ast_node *value = parse_expression(p);
        if (!p->failed && parse_check(p, TK_FOR))
            return comprehension(p, AST_DICTCOMP, start, first, value, TK_RBRACE,
                                 "'}' after the dict comprehension");
        parse_vec_push(&keys, first);
        parse_vec_push(&values, value);
        return dict_rest(p, start, &keys, &values);
    }
    if (parse_check(p, TK_FOR))
        return comprehension(p, AST_SETCOMP, start, first, NULL, TK_RBRACE,
                             "'}' after the set comprehension");
    ast_list elts = display_rest(p, first, TK_RBRACE, "',' or '}' in the set");
    ast_node *n = parse_mk(p, AST_SET, parse_upto(p, start));
    n->u.seq.elts = elts;
    return n;
}

static ast_node *atom(parser *p)
{
    lex_token t = p->tok;
    ast_node *n;
    switch (t.kind) {
    case TK_NAME:
        parse_advance(p);
        n = parse_mk(p, AST_NAME, t.span);
        n->u.name.id = t.str;
        return n;
    case TK_INT:
        parse_advance(p);
        n = parse_mk(p, AST_INT, t.span);
        n->u.int_.value = t.ival;
        n->u.int_.big = (t.flags & TKF_INT_BIG) != 0;
        return n;
    case TK_FLOAT:
    case TK_IMAG:
        parse_advance(p);
        n = parse_mk(p, t.kind == TK_FLOAT ? AST_FLOAT : AST_IMAG, t.span);
        n->u.float_.value = t.fval;
        return n;
    case TK_STRING:
    case TK_FSTRING_START:
        return parse_strings(p);
    case TK_NONE:
    case TK_TRUE:
    case TK_FALSE:
    case TK_ELLIPSIS:
        parse_advance(p);
        n = parse_mk(p, AST_CONST, t.span);
        n->u.const_.value = t.kind == TK_NONE ? AST_CONST_NONE
                          : t.kind == TK_TRUE ? AST_CONST_TRUE
                          : t.kind == TK_FALSE ? AST_CONST_FALSE
                          : AST_CONST_ELLIPSIS;
        return n;
    case TK_LPAR:
    case TK_LSQB:
    case TK_LBRACE:
        if (!parse_enter(p, "expression"))
            n = parse_bad_expr(p);
        else if (t.kind == TK_LPAR)
            n = paren(p);
        else if (t.kind == TK_LSQB)
            n = list_display(p);
        else
            n = brace_display(p);
        parse_leave(p);
        return n;
    case TK_YIELD:
        parse_fail_at(p, t.span, "a 'yield' inside an expression needs parentheses: "
                      "(yield x)");
        return parse_bad_expr(p);
    case TK_AWAIT:
        parse_unsupported(p, t.span, "'await' expressions are", NULL);
        return parse_bad_expr(p);
    default:
        parse_fail_expected(p, "an expression");
        return parse_bad_expr(p);
    }
}

/* ---- calls, subscripts, attributes ---- */

/* The arguments of a call; the current token is '('. */
ast_node *parse_call(parser *p, ast_node *func, src_span start)
{
    src_span lpar = p->tok.span;
    parse_advance(p);
    vec args = {0}, kws = {0};
    bool seen_kw = false, seen_dstar = false;
    while (!p->failed && !parse_check(p, TK_RPAR)) {
        src_span as = p->tok.span;
        if (parse_accept(p, TK_STAR)) {
            ast_node *val = parse_expression(p);
            ast_node *s = parse_mk(p, AST_STARRED, parse_upto(p, as));
            s->u.starred.value = val;
            if (seen_dstar)
                parse_report(p, s->span, "iterable argument unpacking follows keyword "
                             "argument unpacking");
            parse_vec_push(&args, s);
        } else if (parse_accept(p, TK_DSTAR)) {
            ast_node *val = parse_expression(p);
            ast_node *k = parse_mk(p, AST_KEYWORD, parse_upto(p, as));
            k->u.keyword.value = val;
            seen_dstar = true;
            parse_vec_push(&kws, k);
        } else {
            ast_node *e = parse_expression(p);
            if (p->failed)
                break;
            if (parse_check(p, TK_EQ)) {
                if (e->kind != AST_NAME || p->prev.span.off != as.off) {
                    parse_fail_at(p, e->span, "expression cannot contain assignment, "
                                  "perhaps you meant \"==\"?");
                    break;
                }
                parse_advance(p);
                ast_node *val = parse_expression(p);
                ast_node *k = parse_mk(p, AST_KEYWORD, parse_upto(p, as));
                k->u.keyword.arg = e->u.name.id;
                k->u.keyword.value = val;
                for (int i = 0; i < kws.len; i++) {
                    const ast_node *o = kws.items[i];
                    if (o->u.keyword.arg && !strcmp(o->u.keyword.arg, e->u.name.id))
                        parse_report(p, k->span, "keyword argument repeated: %s", e->u.name.id);
                }
                seen_kw = true;
                parse_vec_push(&kws, k);
            } else if (parse_check(p, TK_FOR)) {
                /* f(x for x in y): the parentheses of the call are the
                 * generator's own. */
                ast_list gens = comp_clauses(p);
                ast_node *g = parse_mk(p, AST_GENEXP, lpar);
                g->u.comp.elt = e;
                g->u.comp.generators = gens;
                if (!p->failed && (args.len || kws.len || !parse_check(p, TK_RPAR))) {
                    parse_fail_at(p, parse_upto(p, as),
                                  "Generator expression must be parenthesized");
                    break;
                }
                if (parse_check(p, TK_RPAR))
                    g->span = src_join(lpar, p->tok.span);
                parse_vec_push(&args, g);
            } else {
                if (seen_dstar)
                    parse_report(p, e->span, "positional argument follows keyword "
                                 "argument unpacking");
                else if (seen_kw)
                    parse_report(p, e->span, "positional argument follows keyword argument");
                parse_vec_push(&args, e);
            }
        }
        if (!parse_accept(p, TK_COMMA))
            break;
    }
    parse_expect(p, TK_RPAR, "',' or ')' in the argument list");
    ast_node *n = parse_mk(p, AST_CALL, parse_upto(p, start));
    n->u.call.func = func;
    n->u.call.args = parse_vec_freeze(p, &args);
    n->u.call.keywords = parse_vec_freeze(p, &kws);
    return n;
}

/* slice: [expr] ':' [expr] [':' [expr]] | expression | '*' expression */
static ast_node *slice_item(parser *p)
{
    src_span start = p->tok.span;
    ast_node *lower = NULL;
    if (parse_check(p, TK_STAR)) {
        parse_advance(p);
        ast_node *val = parse_bitwise_or(p);
        ast_node *s = parse_mk(p, AST_STARRED, parse_upto(p, start));
        s->u.starred.value = val;
        return s;
    }
    if (!parse_check(p, TK_COLON)) {
        lower = parse_expression(p);
        if (p->failed || !parse_check(p, TK_COLON))
            return lower;
    }
    parse_advance(p);
    ast_node *upper = NULL, *step = NULL;
    if (!parse_check(p, TK_COLON) && !parse_check(p, TK_COMMA) && !parse_check(p, TK_RSQB))
        upper = parse_expression(p);
    if (!p->failed && parse_accept(p, TK_COLON) && !parse_check(p, TK_COMMA) &&
        !parse_check(p, TK_RSQB))
        step = parse_expression(p);
    ast_node *n = parse_mk(p, AST_SLICE, parse_upto(p, start));
    n->u.slice.lower = lower;
    n->u.slice.upper = upper;
    n->u.slice.step = step;
    return n;
}

/* value '[' slices ']' */
static ast_node *subscript(parser *p, ast_node *value, src_span start)
{
    parse_advance(p);
    src_span istart = p->tok.span;
    ast_node *index = slice_item(p);
    /* x[*a] indexes with a tuple, as x[*a,] does. */
    if (!p->failed && (parse_check(p, TK_COMMA) || index->kind == AST_STARRED)) {
        vec v = {0};
        parse_vec_push(&v, index);
        while (!p->failed && parse_accept(p, TK_COMMA)) {
            if (parse_check(p, TK_RSQB))
                break;
            parse_vec_push(&v, slice_item(p));
        }
        index = parse_mk(p, AST_TUPLE, parse_upto(p, istart));
        index->u.seq.elts = parse_vec_freeze(p, &v);
    }
    parse_expect(p, TK_RSQB, "',' or ']' in the subscript");
    ast_node *n = parse_mk(p, AST_SUBSCRIPT, parse_upto(p, start));
    n->u.subscript.value = value;
    n->u.subscript.index = index;
    return n;
}

/* primary: atom ('.' NAME | '(' args ')' | '[' slices ']')* */
static ast_node *primary(parser *p)
{
    src_span start = p->tok.span;
    ast_node *e = atom(p);
    while (!p->failed) {
        if (parse_check(p, TK_DOT)) {
            parse_advance(p);
            if (!parse_check(p, TK_NAME)) {
                parse_fail_expected(p, "an attribute name after '.'");
                break;
            }
            const char *attr = p->tok.str;
            parse_advance(p);
            ast_node *n = parse_mk(p, AST_ATTRIBUTE, parse_upto(p, start));
            n->u.attribute.value = e;
            n->u.attribute.attr = attr;
            e = n;
        } else if (parse_check(p, TK_LPAR) || parse_check(p, TK_LSQB)) {
            if (parse_enter(p, "expression"))
                e = parse_check(p, TK_LPAR) ? parse_call(p, e, start) : subscript(p, e, start);
            parse_leave(p);
        } else {
            break;
        }
        if (!parse_chain_ok(p, e))
            break;
    }
    return e;
}

/* power: primary ['**' factor]  (so -2**2 is -(2**2) and 2**-1 works) */
static ast_node *power(parser *p)
{
    src_span start = p->tok.span;
    ast_node *base = primary(p);
    if (p->failed || !parse_accept(p, TK_DSTAR))
        return base;
    ast_node *exp = parse_enter(p, "expression") ? factor(p) : parse_bad_expr(p);
    parse_leave(p);
    ast_node *n = parse_mk(p, AST_BINOP, parse_upto(p, start));
    n->u.binop.op = AST_OP_POW;
    n->u.binop.left = base;
    n->u.binop.right = exp;
    return n;
}

/* factor: ('+' | '-' | '~') factor | power */
static ast_node *factor(parser *p)
{
    ast_op op;
    switch (p->tok.kind) {
    case TK_PLUS: op = AST_OP_UADD; break;
    case TK_MINUS: op = AST_OP_USUB; break;
    case TK_TILDE: op = AST_OP_INVERT; break;
    default: return power(p);
    }
    src_span start = p->tok.span;
    parse_advance(p);
    ast_node *operand = parse_enter(p, "expression") ? factor(p) : parse_bad_expr(p);
    parse_leave(p);
    ast_node *n = parse_mk(p, AST_UNARYOP, parse_upto(p, start));
    n->u.unaryop.op = op;
    n->u.unaryop.operand = operand;
    return n;
}

/* Binding power of a binary operator from '|' (1) to '*' (6); 0 if none. */
static int binop_prec(tk_kind k, ast_op *op)
{
    switch (k) {
    case TK_PIPE: *op = AST_OP_BITOR; return 1;
    case TK_CARET: *op = AST_OP_BITXOR; return 2;
    case TK_AMP: *op = AST_OP_BITAND; return 3;
    case TK_LSHIFT: *op = AST_OP_LSHIFT; return 4;
    case TK_RSHIFT: *op = AST_OP_RSHIFT; return 4;
    case TK_PLUS: *op = AST_OP_ADD; return 5;
    case TK_MINUS: *op = AST_OP_SUB; return 5;
    case TK_STAR: *op = AST_OP_MUL; return 6;
    case TK_SLASH: *op = AST_OP_DIV; return 6;
    case TK_DSLASH: *op = AST_OP_FLOORDIV; return 6;
    case TK_PERCENT: *op = AST_OP_MOD; return 6;
    case TK_AT: *op = AST_OP_MATMUL; return 6;
    default: return 0;
    }
}

/* Left-associative binary operators binding at least min_prec. */
static ast_node *binary(parser *p, int min_prec)
{
    src_span start = p->tok.span;
    ast_node *left = factor(p);
    ast_op op;
    int prec;
    while (!p->failed && (prec = binop_prec(p->tok.kind, &op)) >= min_prec && prec) {
        parse_advance(p);
        ast_node *right = binary(p, prec + 1);
        ast_node *n = parse_mk(p, AST_BINOP, parse_upto(p, start));
        n->u.binop.op = op;
        n->u.binop.left = left;
        n->u.binop.right = right;
        left = n;
        if (!parse_chain_ok(p, left))
            break;
    }
    return left;
}

ast_node *parse_bitwise_or(parser *p)
{
    return binary(p, 1);
}

/* The comparison operator at the current token, consumed; false if none. */
static bool comp_op(parser *p, ast_op *op)
{
    switch (p->tok.kind) {
    case TK_EQEQ: *op = AST_OP_EQ; break;
    case TK_NE: *op = AST_OP_NE; break;
    case TK_LT: *op = AST_OP_LT; break;
    case TK_LE: *op = AST_OP_LE; break;
    case TK_GT: *op = AST_OP_GT; break;
    case TK_GE: *op = AST_OP_GE; break;
    case TK_IN: *op = AST_OP_IN; break;
    case TK_IS:
        parse_advance(p);
        *op = parse_accept(p, TK_NOT) ? AST_OP_ISNOT : AST_OP_IS;
        return true;
    case TK_NOT:
        if (parse_peek(p) != TK_IN)
            return false;
        parse_advance(p);
        *op = AST_OP_NOTIN;
        break;
    default:
        return false;
    }
    parse_advance(p);
    return true;
}

/* comparison: bitwise_or (compare_op bitwise_or)*, chained */
static ast_node *comparison(parser *p)
{
    src_span start = p->tok.span;
    ast_node *left = parse_bitwise_or(p);
    ast_op op;
    if (p->failed || !comp_op(p, &op))
        return left;
    ast_op *ops = NULL;
    int nops = 0;
    vec rights = {0};
    do {
        ops = xrealloc(ops, (size_t)(nops + 1) * sizeof *ops);
        ops[nops++] = op;
        parse_vec_push(&rights, parse_bitwise_or(p));
    } while (!p->failed && comp_op(p, &op));
    ast_node *n = parse_mk(p, AST_COMPARE, parse_upto(p, start));
    n->u.compare.left = left;
    n->u.compare.ops = arena_alloc(p->a, (size_t)nops * sizeof *ops);
    memcpy(n->u.compare.ops, ops, (size_t)nops * sizeof *ops);
    n->u.compare.comparators = parse_vec_freeze(p, &rights);
    free(ops);
    return n;
}

/* inversion: 'not' inversion | comparison */
static ast_node *inversion(parser *p)
{
    if (!parse_check(p, TK_NOT))
        return comparison(p);
    src_span start = p->tok.span;
    parse_advance(p);
    ast_node *operand = parse_enter(p, "expression") ? inversion(p) : parse_bad_expr(p);
    parse_leave(p);
    ast_node *n = parse_mk(p, AST_UNARYOP, parse_upto(p, start));
    n->u.unaryop.op = AST_OP_NOT;
    n->u.unaryop.operand = operand;
    return n;
}

/* sub (tk sub)* as one BOOLOP */
static ast_node *boolop(parser *p, tk_kind tk, ast_op op, ast_node *(*sub)(parser *))
{
    src_span start = p->tok.span;
    ast_node *first = sub(p);
    if (p->failed || !parse_check(p, tk))
        return first;
    vec v = {0};
    parse_vec_push(&v, first);
    while (!p->failed && parse_accept(p, tk))
        parse_vec_push(&v, sub(p));
    ast_node *n = parse_mk(p, AST_BOOLOP, parse_upto(p, start));
    n->u.boolop.op = op;
    n->u.boolop.values = parse_vec_freeze(p, &v);
    return n;
}

static ast_node *conjunction(parser *p)
{
    return boolop(p, TK_AND, AST_OP_AND, inversion);
}

static ast_node *disjunction(parser *p)
{
    return boolop(p, TK_OR, AST_OP_OR, conjunction);
}

/* lambdef: 'lambda' [params] ':' expression */
static ast_node *lambdef(parser *p)
{
    src_span start = p->tok.span;
    parse_advance(p);
    ast_list ps = parse_params(p, TK_COLON, false);
    parse_expect(p, TK_COLON, "':' after the lambda's parameters");
    p->lambdas++;
    ast_node *body = p->failed ? parse_bad_expr(p) : parse_expression(p);
    p->lambdas--;
    ast_node *n = parse_mk(p, AST_LAMBDA, parse_upto(p, start));
    n->u.lambda.params = ps;
    n->u.lambda.body = body;
    return n;
}

/* expression: disjunction ['if' disjunction 'else' expression] | lambdef.
 * A lambda and the 'else' branch nest without brackets, so they count as
 * a level each. */
ast_node *parse_expression(parser *p)
{
    ast_node *e;
    if (parse_check(p, TK_LAMBDA)) {
        e = parse_enter(p, "expression") ? lambdef(p) : parse_bad_expr(p);
        parse_leave(p);
    } else {
        src_span start = p->tok.span;
        e = disjunction(p);
        if (!p->failed && parse_accept(p, TK_IF)) {
            ast_node *test = disjunction(p);
            ast_node *orelse;
            if (!p->failed && !parse_accept(p, TK_ELSE))
                parse_fail_here(p, "expected 'else' after 'if' expression");
            if (p->failed) {
                orelse = parse_bad_expr(p);
            } else {
                orelse = parse_enter(p, "expression") ? parse_expression(p) : parse_bad_expr(p);
                parse_leave(p);
            }
            ast_node *n = parse_mk(p, AST_IFEXP, parse_upto(p, start));
            n->u.ifexp.test = test;
            n->u.ifexp.body = e;
            n->u.ifexp.orelse = orelse;
            e = n;
        }
    }
    if (!p->failed && parse_check(p, TK_WALRUS)) {
        /* NAME := expression (Python's named_expression) */
        if (e->kind != AST_NAME) {
            parse_fail_here(p, "cannot use assignment expressions with %s (only a name can "
                            "be assigned with :=)",
                            e->kind == AST_ATTRIBUTE ? "attribute" :
                            e->kind == AST_SUBSCRIPT ? "subscript" : "expression");
            return e;
        }
        parse_advance(p);
        ast_node *value = parse_enter(p, "expression") ? parse_expression(p)
                                                       : parse_bad_expr(p);
        parse_leave(p);
        ast_node *n = parse_mk(p, AST_NAMEDEXPR, src_join(e->span, value->span));
        e->u.name.ctx = AST_CTX_STORE;
        n->u.namedexpr.target = e;
        n->u.namedexpr.value = value;
        e = n;
    }
    return e;
}

/* star_expression: '*' bitwise_or | expression */
static ast_node *star_expression(parser *p)
{
    if (!parse_check(p, TK_STAR))
        return parse_expression(p);
    src_span start = p->tok.span;
    parse_advance(p);
    ast_node *val = parse_bitwise_or(p);
    ast_node *n = parse_mk(p, AST_STARRED, parse_upto(p, start));
    n->u.starred.value = val;
    return n;
}

/* star_expressions: a tuple without parentheses when there is a comma. */
ast_node *parse_star_expressions(parser *p)
{
    src_span start = p->tok.span;
    ast_node *first = star_expression(p);
    if (p->failed || !parse_check(p, TK_COMMA))
        return first;
    vec v = {0};
    parse_vec_push(&v, first);
    while (!p->failed && parse_accept(p, TK_COMMA)) {
        if (!parse_starts_expression(p->tok.kind) || parse_check(p, TK_YIELD))
            break;
        parse_vec_push(&v, star_expression(p));
    }
    ast_node *t = parse_mk(p, AST_TUPLE, parse_upto(p, start));
    t->u.seq.elts = parse_vec_freeze(p, &v);
    return t;
}

/* ---- parameters ---- */

static ast_node *param(parser *p, ast_param_kind kind, bool annotations)
{
    src_span start = p->tok.span;
    if (!parse_check(p, TK_NAME)) {
        parse_fail_expected(p, "a parameter name");
        return parse_bad_expr(p);
    }
    ast_node *n = parse_mk(p, AST_PARAM, start);
    n->u.param.name = p->tok.str;
    n->u.param.kind = kind;
    parse_advance(p);
    if (annotations && parse_accept(p, TK_COLON))
        n->u.param.annotation = parse_expression(p);
    n->span = parse_upto(p, start);
    return n;
}

/* Parameters up to close (')' of a def, ':' of a lambda), which is left for
 * the caller.  A bare '*' and '/' are not nodes: they set the kinds of the
 * parameters around them. */
ast_list parse_params(parser *p, tk_kind close, bool annotations)
{
    vec v = {0};
    bool kwonly = false, seen_default = false, seen_slash = false;
    bool seen_kwargs = false;
    src_span bare_star = {0};
    bool need_named = false;
    while (!p->failed && !parse_check(p, close)) {
        src_span start = p->tok.span;
        if (seen_kwargs) {
            parse_fail_here(p, "parameters cannot follow the '**' parameter");
            break;
        }
        if (parse_check(p, TK_SLASH)) {
            if (seen_slash)
                parse_fail_here(p, "'/' may appear only once");
            else if (kwonly)
                parse_fail_here(p, "'/' must be ahead of '*'");
            else if (v.len == 0)
                parse_fail_here(p, "at least one parameter must precede '/'");
            parse_advance(p);
            seen_slash = true;
            for (int i = 0; i < v.len; i++)
                ((ast_node *)v.items[i])->u.param.kind = AST_PARAM_POSONLY;
        } else if (parse_check(p, TK_STAR)) {
            if (kwonly) {
                parse_fail_here(p, "'*' may appear only once");
                break;
            }
            parse_advance(p);
            kwonly = true;
            if (parse_check(p, TK_NAME)) {
                ast_node *n = param(p, AST_PARAM_VARARGS, annotations);
                n->span = parse_upto(p, start);
                parse_vec_push(&v, n);
            } else if (parse_check(p, TK_COMMA)) {
                bare_star = start;
                need_named = true;
            } else {
                parse_fail_at(p, start, "named parameters must follow bare '*'");
                break;
            }
        } else if (parse_check(p, TK_DSTAR)) {
            parse_advance(p);
            ast_node *n = param(p, AST_PARAM_KWARGS, annotations);
            n->span = parse_upto(p, start);
            if (!p->failed && parse_check(p, TK_EQ))
                parse_fail_here(p, "the '**' parameter cannot have a default value");
            parse_vec_push(&v, n);
            seen_kwargs = true;
        } else {
            ast_node *n = param(p, kwonly ? AST_PARAM_KWONLY : AST_PARAM_NORMAL,
                                annotations);
            if (!p->failed && parse_accept(p, TK_EQ)) {
                n->u.param.default_ = parse_expression(p);
                n->span = parse_upto(p, start);
                if (!kwonly)
                    seen_default = true;
            } else if (!p->failed && seen_default && !kwonly) {
                parse_fail_at(p, n->span, "parameter without a default follows "
                              "parameter with a default");
            }
            need_named = false;
            parse_vec_push(&v, n);
        }
        if (!parse_accept(p, TK_COMMA))
            break;
    }
    if (!p->failed && need_named)
        parse_fail_at(p, bare_star, "named parameters must follow bare '*'");
    /* Two parameters of one name (CPython finds this later, we can now). */
    for (int i = 0; !p->failed && i < v.len; i++) {
        const ast_node *a = v.items[i];
        for (int j = 0; j < i; j++) {
            const ast_node *b = v.items[j];
            if (!strcmp(a->u.param.name, b->u.param.name)) {
                parse_report(p, a->span, "duplicate parameter '%s' in function definition",
                             a->u.param.name);
                break;
            }
        }
    }
    return parse_vec_freeze(p, &v);
}
