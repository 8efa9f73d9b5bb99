/* parse.c - the parser: tokens (lex.h) to the syntax tree (ast.h).
 *
 * A recursive-descent parser in the style of Lua's lparser.c, with one
 * function per rule of CPython's grammar (Grammar/python.gram), trimmed to
 * the language doc/language.md lists.  Binary operators from '|' to '*'
 * use precedence climbing (Lua's subexpr) to keep the C stack shallow.
 *
 * Spans.  A node's span runs from the first token its rule consumed to the
 * last one, so the BINOP of `(a + b) * c` starts at the '(' while the inner
 * BINOP covers `a + b` only, as in CPython's ast.  Unlike CPython's arg, a
 * PARAM also covers its '*' or '**' and its default; the generator that is
 * a call's only argument, `sum(x for x in y)`, covers the parentheses.
 *
 * Errors.  The first syntax error of a statement is reported and sets
 * p->failed; from then on every rule returns at once (loops test the flag),
 * the statement is dropped and parse_recover skips to the next statement of
 * the current block, taking a compound statement's indented body and its
 * elif/else clauses with it.  Errors that leave the parse on track
 * ('return' outside a function, a repeated keyword argument) are reported
 * and parsing goes on.  There is no longjmp, so the temporary vectors are
 * freed on every path.  Where the lexer has already explained a problem
 * (a bad character, a bracket never closed) the parser stays quiet.
 *
 * Termination.  Every loop consumes a token or leaves, and recursion is
 * bounded by PARSE_MAX_DEPTH, so any input, however broken, ends.  The
 * tree itself is kept within PARSE_MAX_HEIGHT levels (long operator chains
 * nest without brackets), so that later passes may recurse over it.
 *
 * This file has the tokens, diagnostics, nodes, targets and the entry
 * points; the rules live in parse_expr.c (expressions, parameters),
 * parse_fstring.c (strings) and parse_stmt.c (statements), and
 * parse_impl.h is what they share. */
#include "parse_impl.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- growable vectors, frozen into the arena ---- */

void parse_vec_push(vec *v, void *x)
{
    if (v->len == v->cap) {
        v->cap = v->cap ? 2 * v->cap : 8;
        v->items = xrealloc(v->items, (size_t)v->cap * sizeof *v->items);
    }
    v->items[v->len++] = x;
}

ast_list parse_vec_freeze(parser *p, vec *v)
{
    ast_list l = {NULL, 0};
    if (v->len > 0) {
        l.items = (ast_node **)arena_copy_ptrs(p->a, v->items, (size_t)v->len);
        l.len = v->len;
    }
    free(v->items);
    v->items = NULL;
    v->len = v->cap = 0;
    return l;
}

/* ---- tokens ---- */

static lex_token parse_fetch(parser *p, bool *lexerr)
{
    int before = p->d->nerrors;
    lex_token t = lex_next(p->lx);
    *lexerr = p->d->nerrors != before || t.kind == TK_ERROR;
    return t;
}

void parse_advance(parser *p)
{
    p->prev = p->tok;
    switch (p->prev.kind) {
    case TK_LPAR: case TK_LSQB: case TK_LBRACE:
        if (p->brackets <= PARSE_MAX_DEPTH)
            p->bracket_line[p->brackets] = p->prev.span.line;
        p->brackets++;
        break;
    case TK_RPAR: case TK_RSQB: case TK_RBRACE:
        if (p->brackets > 0)
            p->brackets--;
        break;
    case TK_NEWLINE:
        p->brackets = 0;
        break;
    default:
        break;
    }
    if (p->has_ahead) {
        p->tok = p->ahead;
        p->tok_lexerr = p->ahead_lexerr;
        p->has_ahead = false;
    } else {
        p->tok = parse_fetch(p, &p->tok_lexerr);
    }
}

/* The kind of the token after the current one. */
tk_kind parse_peek(parser *p)
{
    if (!p->has_ahead) {
        p->ahead = parse_fetch(p, &p->ahead_lexerr);
        p->has_ahead = true;
    }
    return p->ahead.kind;
}

bool parse_check(const parser *p, tk_kind k)
{
    return p->tok.kind == k;
}

bool parse_accept(parser *p, tk_kind k)
{
    if (p->tok.kind != k)
        return false;
    parse_advance(p);
    return true;
}

/* ---- diagnostics ---- */

/* A semantic error: reported, but the parse goes on. */
void parse_report(parser *p, src_span sp, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vreport(p->d, DIAG_ERROR, p->f, sp, fmt, ap);
    va_end(ap);
}

/* A syntax error at sp: the current statement is abandoned. */
void parse_fail_at(parser *p, src_span sp, const char *fmt, ...)
{
    if (p->failed)
        return;
    p->failed = true;
    va_list ap;
    va_start(ap, fmt);
    diag_vreport(p->d, DIAG_ERROR, p->f, sp, fmt, ap);
    va_end(ap);
}

/* Has the lexer already said what is wrong at the current token?  Either it
 * reported an error while making it, or the line ended inside brackets,
 * which the lexer only does at the end of the file ("'(' was never
 * closed"). */
static bool lexer_explained(const parser *p)
{
    tk_kind k = p->tok.kind;
    if (p->tok_lexerr || k == TK_ERROR)
        return true;
    return p->brackets > 0 && (k == TK_NEWLINE || k == TK_EOF || k == TK_DEDENT);
}

/* A syntax error at the current token. */
void parse_fail_here(parser *p, const char *fmt, ...)
{
    if (p->failed)
        return;
    p->failed = true;
    va_list ap;
    va_start(ap, fmt);
    int b = p->brackets - 1;
    if (lexer_explained(p)) {
        if (!p->held) {
            p->held = true;
            p->held_span = p->tok.span;
            vsnprintf(p->held_msg, sizeof p->held_msg, fmt, ap);
        }
    } else if (b >= 0 && b <= PARSE_MAX_DEPTH && p->bracket_line[b] < p->tok.span.line) {
        p->deferred = true;
        p->deferred_nerrors = p->d->nerrors;
        p->deferred_span = p->tok.span;
        vsnprintf(p->deferred_msg, sizeof p->deferred_msg, fmt, ap);
    } else {
        diag_vreport(p->d, DIAG_ERROR, p->f, p->tok.span, fmt, ap);
    }
    va_end(ap);
}

/* How a token is named in "found ..." (buf holds at least 64 bytes). */
const char *parse_describe(const parser *p, const lex_token *t, char *buf, size_t size)
{
    const char *what;
    switch (t->kind) {
    case TK_NEWLINE: return "end of line";
    case TK_EOF: return "end of file";
    case TK_INDENT: return "an indented line";
    case TK_DEDENT: return "the end of the indented block";
    case TK_STRING: return "a string literal";
    case TK_FSTRING_START: return "an f-string";
    case TK_FSTRING_MIDDLE: return "f-string text";
    case TK_FSTRING_END: return "the end of the f-string";
    case TK_NAME: what = "NAME"; break;
    case TK_INT: case TK_FLOAT: case TK_IMAG: what = "number"; break;
    default:
        snprintf(buf, size, "'%s'", lex_kind_name(t->kind));
        return buf;
    }
    /* Quote the source text, cut to 32 bytes on a character boundary. */
    unsigned off = t->span.off, end = t->span.end_off;
    if (end > p->f->len || off > end)
        end = off = 0;
    size_t len = end - off;
    const char *dots = "";
    if (len > 32) {
        len = 32;
        while (len > 0 && ((unsigned char)p->f->text[off + len] & 0xC0) == 0x80)
            len--;
        dots = "...";
    }
    snprintf(buf, size, "%s '%.*s%s'", what, (int)len, p->f->text + off, dots);
    return buf;
}

/* "expected X, found Y" at the current token. */
void parse_fail_expected(parser *p, const char *what)
{
    char buf[96];
    parse_fail_here(p, "expected %s, found %s", what, parse_describe(p, &p->tok, buf, sizeof buf));
}

bool parse_expect(parser *p, tk_kind k, const char *what)
{
    if (p->failed)
        return false;
    if (parse_accept(p, k))
        return true;
    parse_fail_expected(p, what);
    return false;
}

/* For the messages that the brief fixes word for word ("expected ':' after
 * the 'if' condition"): the caret shows what was found. */
bool parse_expect_msg(parser *p, tk_kind k, const char *msg)
{
    if (p->failed)
        return false;
    if (parse_accept(p, k))
        return true;
    parse_fail_here(p, "%s", msg);
    return false;
}

/* ---- nodes ---- */

/* Every node the parser makes carries the height of its subtree, worked out
 * on demand (see node_height). */
typedef struct pnode {
    ast_node node;  /* first, so an ast_node * is also a pnode * */
    int height;     /* 0 until computed */
} pnode;

ast_node *parse_mk(parser *p, ast_kind k, src_span sp)
{
    pnode *pn = arena_alloc(p->a, sizeof *pn);
    pn->node.kind = k;
    pn->node.span = sp;
    return &pn->node;
}

/* The span from start to the end of the last token consumed. */
src_span parse_upto(const parser *p, src_span start)
{
    if (p->prev.span.end_off <= start.off)
        return start;  /* nothing consumed (only after an error) */
    return src_join(start, p->prev.span);
}

/* The empty span between the end of a and the start of b. */
src_span parse_span_between(src_span a, src_span b)
{
    src_span s;
    s.line = a.end_line;
    s.col = a.end_col;
    s.off = a.end_off;
    s.end_line = b.line;
    s.end_col = b.col;
    s.end_off = b.off;
    return s;
}

/* What a failed rule returns, so that callers need no NULL checks. */
ast_node *parse_bad_expr(parser *p)
{
    ast_node *n = parse_mk(p, AST_CONST, p->tok.span);
    n->u.const_.value = AST_CONST_NONE;
    return n;
}

static int node_height(ast_node *n);

static int list_height(ast_list l)
{
    int h = 0;
    for (int i = 0; i < l.len; i++) {
        int c = node_height(l.items[i]);
        if (c > h)
            h = c;
    }
    return h;
}

static int max3(int a, int b, int c)
{
    int m = a > b ? a : b;
    return m > c ? m : c;
}

/* The height of an expression's subtree, remembered in its pnode.  Asked
 * for the links of chains only; since those remember theirs, the walk
 * below one goes no deeper than the brackets nest. */
static int node_height(ast_node *n)
{
    if (!n)
        return 0;
    pnode *pn = (pnode *)n;
    if (pn->height)
        return pn->height;
    int h = 0;
    switch (n->kind) {
    case AST_FSTRING: h = list_height(n->u.fstring.parts); break;
    case AST_FORMATTED:
        h = max3(node_height(n->u.formatted.value), node_height(n->u.formatted.spec), 0);
        break;
    case AST_ATTRIBUTE: h = node_height(n->u.attribute.value); break;
    case AST_SUBSCRIPT:
        h = max3(node_height(n->u.subscript.value), node_height(n->u.subscript.index), 0);
        break;
    case AST_SLICE:
        h = max3(node_height(n->u.slice.lower), node_height(n->u.slice.upper),
                 node_height(n->u.slice.step));
        break;
    case AST_CALL:
        h = max3(node_height(n->u.call.func), list_height(n->u.call.args),
                 list_height(n->u.call.keywords));
        break;
    case AST_KEYWORD: h = node_height(n->u.keyword.value); break;
    case AST_BINOP:
        h = max3(node_height(n->u.binop.left), node_height(n->u.binop.right), 0);
        break;
    case AST_UNARYOP: h = node_height(n->u.unaryop.operand); break;
    case AST_BOOLOP: h = list_height(n->u.boolop.values); break;
    case AST_COMPARE:
        h = max3(node_height(n->u.compare.left), list_height(n->u.compare.comparators), 0);
        break;
    case AST_NAMEDEXPR:
        h = max3(node_height(n->u.namedexpr.target), node_height(n->u.namedexpr.value), 0);
        break;
    case AST_IFEXP:
        h = max3(node_height(n->u.ifexp.test), node_height(n->u.ifexp.body),
                 node_height(n->u.ifexp.orelse));
        break;
    case AST_LAMBDA:
        h = max3(list_height(n->u.lambda.params), node_height(n->u.lambda.body), 0);
        break;
    case AST_PARAM:
        h = max3(node_height(n->u.param.annotation), node_height(n->u.param.default_), 0);
        break;
    case AST_TUPLE: case AST_LIST: case AST_SET: h = list_height(n->u.seq.elts); break;
    case AST_DICT:
        h = max3(list_height(n->u.dict.keys), list_height(n->u.dict.values), 0);
        break;
    case AST_LISTCOMP: case AST_SETCOMP: case AST_GENEXP: case AST_DICTCOMP:
        h = max3(node_height(n->u.comp.elt), node_height(n->u.comp.value),
                 list_height(n->u.comp.generators));
        break;
    case AST_COMPREHENSION:
        h = max3(node_height(n->u.comprehension.target),
                 node_height(n->u.comprehension.iter), list_height(n->u.comprehension.ifs));
        break;
    case AST_STARRED: h = node_height(n->u.starred.value); break;
    case AST_YIELD: case AST_YIELDFROM: h = node_height(n->u.expr.value); break;
    default: break;  /* leaves; statements are never asked */
    }
    return pn->height = h + 1;
}

/* After adding a link to a chain: is the tree still shallow enough? */
bool parse_chain_ok(parser *p, ast_node *n)
{
    if (p->failed)
        return false;
    if (node_height(n) <= PARSE_MAX_HEIGHT)
        return true;
    parse_fail_at(p, n->span, "expression too complex (its syntax tree would be more than "
                  "%d levels deep); split it into several statements", PARSE_MAX_HEIGHT);
    return false;
}

/* Count one level of nesting; false (and an error) past the limit.  Every
 * call is paired with parse_leave. */
bool parse_enter(parser *p, const char *what)
{
    p->depth++;
    if (p->depth > PARSE_MAX_DEPTH) {
        parse_fail_at(p, p->tok.span, "%s nested too deeply (the limit is %d levels)",
                      what, PARSE_MAX_DEPTH);
        return false;
    }
    return true;
}

void parse_leave(parser *p)
{
    p->depth--;
}

void parse_unsupported(parser *p, src_span sp, const char *what, const char *hint)
{
    parse_fail_at(p, sp, "%s not supported by tritsim (%s%s" PARSE_SEE_DOC ")", what,
                  hint ? hint : "", hint ? "; " : "");
}

/* Tokens that can begin an expression (star_expression). */
bool parse_starts_expression(tk_kind k)
{
    switch (k) {
    case TK_NAME: case TK_INT: case TK_FLOAT: case TK_IMAG: case TK_STRING:
    case TK_FSTRING_START: case TK_TRUE: case TK_FALSE: case TK_NONE:
    case TK_ELLIPSIS: case TK_LPAR: case TK_LSQB: case TK_LBRACE:
    case TK_MINUS: case TK_PLUS: case TK_TILDE: case TK_NOT: case TK_LAMBDA:
    case TK_STAR: case TK_AWAIT: case TK_YIELD:
        return true;
    default:
        return false;
    }
}

/* ---- store and delete contexts ---- */

/* How CPython names an expression that cannot be a target. */
const char *parse_target_name(const ast_node *n)
{
    switch (n->kind) {
    case AST_CALL: return "function call";
    case AST_BINOP: case AST_UNARYOP: case AST_BOOLOP: return "expression";
    case AST_COMPARE: return "comparison";
    case AST_IFEXP: return "conditional expression";
    case AST_LAMBDA: return "lambda";
    case AST_INT: case AST_FLOAT: case AST_IMAG: case AST_STR: return "literal";
    case AST_FSTRING: case AST_FORMATTED: return "f-string expression";
    case AST_DICT: return "dict literal";
    case AST_SET: return "set display";
    case AST_LISTCOMP: return "list comprehension";
    case AST_SETCOMP: return "set comprehension";
    case AST_DICTCOMP: return "dict comprehension";
    case AST_GENEXP: return "generator expression";
    case AST_TUPLE: return "tuple";
    case AST_LIST: return "list";
    case AST_STARRED: return "starred";
    case AST_YIELD: case AST_YIELDFROM: return "yield expression";
    case AST_CONST:
        switch (n->u.const_.value) {
        case AST_CONST_NONE: return "None";
        case AST_CONST_TRUE: return "True";
        case AST_CONST_FALSE: return "False";
        case AST_CONST_ELLIPSIS: return "ellipsis";
        }
        return "constant";
    default: return "expression";
    }
}

/* Set ctx on a target and everything in it; false (after an error naming
 * the bad piece) when it cannot be assigned or deleted.  hint adds the
 * "Maybe you meant '=='" of a plain assignment. */
bool parse_set_ctx(parser *p, ast_node *n, ast_ctx ctx, bool hint)
{
    switch (n->kind) {
    case AST_NAME:
        n->u.name.ctx = ctx;
        return true;
    case AST_ATTRIBUTE:
        n->u.attribute.ctx = ctx;
        return true;
    case AST_SUBSCRIPT:
        n->u.subscript.ctx = ctx;
        return true;
    case AST_TUPLE:
    case AST_LIST: {
        int stars = 0;
        for (int i = 0; i < n->u.seq.elts.len; i++) {
            ast_node *e = n->u.seq.elts.items[i];
            if (e->kind == AST_STARRED && ++stars == 2 && ctx == AST_CTX_STORE) {
                parse_fail_at(p, e->span, "multiple starred expressions in assignment");
                return false;
            }
            if (!parse_set_ctx(p, e, ctx, false))
                return false;
        }
        n->u.seq.ctx = ctx;
        return true;
    }
    case AST_STARRED:
        if (ctx == AST_CTX_DEL) {
            parse_fail_at(p, n->span, "cannot delete starred");
            return false;
        }
        n->u.starred.ctx = ctx;
        return parse_set_ctx(p, n->u.starred.value, ctx, false);
    default:
        break;
    }
    const char *what = parse_target_name(n);
    if (ctx == AST_CTX_DEL)
        parse_fail_at(p, n->span, "cannot delete %s", what);
    else if (hint && n->kind != AST_CONST)
        parse_fail_at(p, n->span, "cannot assign to %s here. Maybe you meant '==' "
                      "instead of '='?", what);
    else
        parse_fail_at(p, n->span, "cannot assign to %s", what);
    return false;
}

/* A whole assignment or loop target: a lone *x is not one. */
bool parse_set_store(parser *p, ast_node *n, bool hint)
{
    if (n->kind == AST_STARRED) {
        parse_fail_at(p, n->span, "starred assignment target must be in a list or tuple");
        return false;
    }
    return parse_set_ctx(p, n, AST_CTX_STORE, hint);
}

/* A *x where an ordinary value is needed. */
void parse_no_bare_star(parser *p, const ast_node *n)
{
    if (n->kind == AST_STARRED)
        parse_fail_at(p, n->span, "cannot use starred expression here");
}

/* A parser for f, on its first token. */
static void parse_begin(parser *p, const src_file *f, diag_sink *d, arena *a)
{
    memset(p, 0, sizeof *p);
    p->f = f;
    p->d = d;
    p->a = a;
    p->lx = lex_open(f, d, a);
    p->prev.kind = TK_NEWLINE;
    p->tok = parse_fetch(p, &p->tok_lexerr);
}

ast_node *parse_file(const src_file *f, diag_sink *d, arena *a)
{
    parser p;
    parse_begin(&p, f, d, a);

    vec body = {0};
    while (!parse_check(&p, TK_EOF) && !diag_full(d)) {
        if (parse_check(&p, TK_DEDENT)) {  /* the lexer reported a bad dedent */
            parse_advance(&p);
            continue;
        }
        parse_statement_recover(&p, &body);
    }
    if (p.held && d->nerrors == 0)
        diag_report(d, DIAG_ERROR, f, p.held_span, "%s", p.held_msg);
    lex_close(p.lx);

    ast_node *m = parse_mk(&p, AST_MODULE, (src_span){1, 1, 1, 1, 0, 0});
    m->u.module.body = parse_vec_freeze(&p, &body);
    if (m->u.module.body.len > 0)
        m->span = src_join(m->u.module.body.items[0]->span,
                           m->u.module.body.items[m->u.module.body.len - 1]->span);
    return m;
}

ast_node *parse_expr(const src_file *f, diag_sink *d, arena *a)
{
    parser p;
    parse_begin(&p, f, d, a);
    int before = d->nerrors;

    parse_accept(&p, TK_INDENT);  /* eval() ignores leading blanks */
    ast_node *e = NULL;
    if (parse_check(&p, TK_NEWLINE) || parse_check(&p, TK_EOF) || parse_check(&p, TK_DEDENT))
        parse_fail_expected(&p, "an expression");
    else
        e = parse_star_expressions(&p);
    while (!p.failed && (parse_accept(&p, TK_NEWLINE) || parse_accept(&p, TK_DEDENT)))
        ;
    if (!p.failed && !parse_check(&p, TK_EOF)) {
        char buf[96];
        const char *found = parse_describe(&p, &p.tok, buf, sizeof buf);
        parse_fail_here(&p, "invalid syntax: found %s after the end of the expression%s", found,
                        parse_starts_expression(p.tok.kind)
                            ? "; maybe a missing ',' or operator?" : "");
    }
    /* Let the lexer report what it still has (a bracket never closed). */
    while (!parse_check(&p, TK_EOF))
        parse_advance(&p);
    if (p.deferred && d->nerrors == p.deferred_nerrors)
        diag_report(d, DIAG_ERROR, f, p.deferred_span, "%s", p.deferred_msg);
    if (p.held && d->nerrors == before)
        diag_report(d, DIAG_ERROR, f, p.held_span, "%s", p.held_msg);
    lex_close(p.lx);
    return d->nerrors == before ? e : NULL;
}
