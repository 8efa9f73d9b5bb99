/* parse.c - the parser: tokens (lex.h) to the syntax tree (ast.h).
 *
 * A recursive-descent parser in the style of Lua's lparser.c, with one
 * function per rule of CPython's grammar (Grammar/python.gram), trimmed to
 * the language of DESIGN.md section 1.  Binary operators from '|' to '*'
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
 * nest without brackets), so that later passes may recurse over it. */
#include "parse.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lex.h"

/* Nesting limit for expressions and blocks together (CPython stops at 200
 * nested brackets as well). */
enum { PARSE_MAX_DEPTH = 200 };

/* Chains of operators and trailers (a + b + c ..., a.b.c ...) nest to the
 * left without nesting in the source; their syntax tree may not grow
 * deeper than this, so that every later pass can walk it recursively. */
enum { PARSE_MAX_HEIGHT = 1000 };

/* The tail every "not supported" message shares. */
#define PARSE_SEE_DOC "see doc/language.md"

typedef struct parser {
    const src_file *f;
    diag_sink *d;
    arena *a;
    lexer *lx;
    lex_token tok;         /* the current token */
    bool tok_lexerr;       /* the lexer reported an error producing it */
    lex_token ahead;       /* one token of lookahead, when has_ahead */
    bool ahead_lexerr, has_ahead;
    lex_token prev;        /* the last token consumed */
    int brackets;          /* open brackets on this logical line */
    int bracket_line[PARSE_MAX_DEPTH + 1];  /* the line each one opened on */
    int depth;             /* current nesting, see parse_enter */
    int funcs, loops;      /* enclosing defs / loops of the current def */
    bool failed;           /* a syntax error in the current statement */
    /* A syntax error kept back because the lexer seemed to have explained
     * it; reported at the end if the lexer in fact reported nothing. */
    bool held;
    src_span held_span;
    char held_msg[256];
    /* A syntax error inside brackets opened on an earlier line, most likely
     * caused by a bracket never closed: kept until recovery has read on,
     * and dropped if the lexer then reports the bracket. */
    bool deferred;
    int deferred_nerrors;
    src_span deferred_span;
    char deferred_msg[256];
} parser;

/* ---- growable vectors, frozen into the arena ---- */

typedef struct vec {
    void **items;
    int len, cap;
} vec;

static void vec_push(vec *v, void *x)
{
    if (v->len == v->cap) {
        v->cap = v->cap ? 2 * v->cap : 8;
        v->items = xrealloc(v->items, (size_t)v->cap * sizeof *v->items);
    }
    v->items[v->len++] = x;
}

static ast_list vec_freeze(parser *p, vec *v)
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

static void advance(parser *p)
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
static tk_kind peek(parser *p)
{
    if (!p->has_ahead) {
        p->ahead = parse_fetch(p, &p->ahead_lexerr);
        p->has_ahead = true;
    }
    return p->ahead.kind;
}

static bool check(const parser *p, tk_kind k)
{
    return p->tok.kind == k;
}

static bool accept(parser *p, tk_kind k)
{
    if (p->tok.kind != k)
        return false;
    advance(p);
    return true;
}

/* ---- diagnostics ---- */

/* A semantic error: reported, but the parse goes on. */
static void report(parser *p, src_span sp, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void report(parser *p, src_span sp, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vreport(p->d, DIAG_ERROR, p->f, sp, fmt, ap);
    va_end(ap);
}

/* A syntax error at sp: the current statement is abandoned. */
static void fail_at(parser *p, src_span sp, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void fail_at(parser *p, src_span sp, const char *fmt, ...)
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
static void fail_here(parser *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void fail_here(parser *p, const char *fmt, ...)
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
static const char *describe(const parser *p, const lex_token *t, char *buf, size_t size)
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
static void fail_expected(parser *p, const char *what)
{
    char buf[96];
    fail_here(p, "expected %s, found %s", what, describe(p, &p->tok, buf, sizeof buf));
}

static bool expect(parser *p, tk_kind k, const char *what)
{
    if (p->failed)
        return false;
    if (accept(p, k))
        return true;
    fail_expected(p, what);
    return false;
}

/* For the messages that the brief fixes word for word ("expected ':' after
 * the 'if' condition"): the caret shows what was found. */
static bool expect_msg(parser *p, tk_kind k, const char *msg)
{
    if (p->failed)
        return false;
    if (accept(p, k))
        return true;
    fail_here(p, "%s", msg);
    return false;
}

/* ---- nodes ---- */

/* Every node the parser makes carries the height of its subtree, worked out
 * on demand (see node_height). */
typedef struct pnode {
    ast_node node;  /* first, so an ast_node * is also a pnode * */
    int height;     /* 0 until computed */
} pnode;

static ast_node *mk(parser *p, ast_kind k, src_span sp)
{
    pnode *pn = arena_alloc(p->a, sizeof *pn);
    pn->node.kind = k;
    pn->node.span = sp;
    return &pn->node;
}

/* The span from start to the end of the last token consumed. */
static src_span upto(const parser *p, src_span start)
{
    if (p->prev.span.end_off <= start.off)
        return start;  /* nothing consumed (only after an error) */
    return src_join(start, p->prev.span);
}

/* The empty span between the end of a and the start of b. */
static src_span span_between(src_span a, src_span b)
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
static ast_node *bad_expr(parser *p)
{
    ast_node *n = mk(p, AST_CONST, p->tok.span);
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
    default: break;  /* leaves; statements are never asked */
    }
    return pn->height = h + 1;
}

/* After adding a link to a chain: is the tree still shallow enough? */
static bool chain_ok(parser *p, ast_node *n)
{
    if (p->failed)
        return false;
    if (node_height(n) <= PARSE_MAX_HEIGHT)
        return true;
    fail_at(p, n->span, "expression too complex (its syntax tree would be more than "
            "%d levels deep); split it into several statements", PARSE_MAX_HEIGHT);
    return false;
}

/* Count one level of nesting; false (and an error) past the limit.  Every
 * call is paired with parse_leave. */
static bool parse_enter(parser *p, const char *what)
{
    p->depth++;
    if (p->depth > PARSE_MAX_DEPTH) {
        fail_at(p, p->tok.span, "%s nested too deeply (the limit is %d levels)",
                what, PARSE_MAX_DEPTH);
        return false;
    }
    return true;
}

static void parse_leave(parser *p)
{
    p->depth--;
}

static void unsupported(parser *p, src_span sp, const char *what, const char *hint)
{
    fail_at(p, sp, "%s not supported by tritsim (%s%s" PARSE_SEE_DOC ")", what,
            hint ? hint : "", hint ? "; " : "");
}

/* Tokens that can begin an expression (star_expression). */
static bool starts_expression(tk_kind k)
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
static const char *target_name(const ast_node *n)
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
static bool set_ctx(parser *p, ast_node *n, ast_ctx ctx, bool hint)
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
                fail_at(p, e->span, "multiple starred expressions in assignment");
                return false;
            }
            if (!set_ctx(p, e, ctx, false))
                return false;
        }
        n->u.seq.ctx = ctx;
        return true;
    }
    case AST_STARRED:
        if (ctx == AST_CTX_DEL) {
            fail_at(p, n->span, "cannot delete starred");
            return false;
        }
        n->u.starred.ctx = ctx;
        return set_ctx(p, n->u.starred.value, ctx, false);
    default:
        break;
    }
    const char *what = target_name(n);
    if (ctx == AST_CTX_DEL)
        fail_at(p, n->span, "cannot delete %s", what);
    else if (hint && n->kind != AST_CONST)
        fail_at(p, n->span, "cannot assign to %s here. Maybe you meant '==' "
                "instead of '='?", what);
    else
        fail_at(p, n->span, "cannot assign to %s", what);
    return false;
}

/* A whole assignment or loop target: a lone *x is not one. */
static bool set_store(parser *p, ast_node *n, bool hint)
{
    if (n->kind == AST_STARRED) {
        fail_at(p, n->span, "starred assignment target must be in a list or tuple");
        return false;
    }
    return set_ctx(p, n, AST_CTX_STORE, hint);
}

/* A *x where an ordinary value is needed. */
static void no_bare_star(parser *p, const ast_node *n)
{
    if (n->kind == AST_STARRED)
        fail_at(p, n->span, "cannot use starred expression here");
}

/* ---- expressions ---- */

static ast_node *expression(parser *p);
static ast_node *star_expression(parser *p);
static ast_node *star_expressions(parser *p);
static ast_node *disjunction(parser *p);
static ast_node *bitwise_or(parser *p);
static ast_node *factor(parser *p);
static ast_node *strings(parser *p);
static ast_list params(parser *p, tk_kind close, bool annotations);

/* star_targets of `for` loops and comprehensions: comma-separated operands
 * below the comparisons, so that `in` ends them.  The caller sets STORE. */
static ast_node *target_list(parser *p)
{
    src_span start = p->tok.span;
    vec v = {0};
    for (;;) {
        ast_node *e;
        if (check(p, TK_STAR)) {
            src_span s = p->tok.span;
            advance(p);
            ast_node *val = bitwise_or(p);
            e = mk(p, AST_STARRED, upto(p, s));
            e->u.starred.value = val;
        } else {
            e = bitwise_or(p);
        }
        vec_push(&v, e);
        if (p->failed || !check(p, TK_COMMA))
            break;
        advance(p);
        if (!starts_expression(p->tok.kind))
            break;
    }
    if (v.len == 1 && p->prev.kind != TK_COMMA) {
        ast_node *only = v.items[0];
        free(v.items);
        return only;
    }
    ast_node *t = mk(p, AST_TUPLE, upto(p, start));
    t->u.seq.elts = vec_freeze(p, &v);
    return t;
}

/* for_if_clauses: ('for' targets 'in' disjunction ('if' disjunction)*)+ */
static ast_list comp_clauses(parser *p)
{
    vec v = {0};
    while (!p->failed && (check(p, TK_FOR) || check(p, TK_ASYNC))) {
        if (check(p, TK_ASYNC)) {
            unsupported(p, p->tok.span, "'async' comprehensions are", NULL);
            break;
        }
        src_span start = p->tok.span;
        advance(p);
        ast_node *target = target_list(p);
        if (!p->failed && !set_store(p, target, false))
            break;
        expect(p, TK_IN, "'in' after the comprehension's target");
        ast_node *iter = disjunction(p);
        vec ifs = {0};
        while (!p->failed && accept(p, TK_IF))
            vec_push(&ifs, disjunction(p));
        ast_node *c = mk(p, AST_COMPREHENSION, upto(p, start));
        c->u.comprehension.target = target;
        c->u.comprehension.iter = iter;
        c->u.comprehension.ifs = vec_freeze(p, &ifs);
        vec_push(&v, c);
    }
    return vec_freeze(p, &v);
}

/* A comprehension whose element (and, for dicts, value) is parsed; the
 * current token is 'for'. */
static ast_node *comprehension(parser *p, ast_kind kind, src_span start,
                               ast_node *elt, ast_node *value, tk_kind close,
                               const char *what)
{
    if (elt->kind == AST_STARRED)
        fail_at(p, elt->span, "iterable unpacking cannot be used in comprehension");
    ast_list gens = comp_clauses(p);
    expect(p, close, what);
    ast_node *n = mk(p, kind, upto(p, start));
    n->u.comp.elt = elt;
    n->u.comp.value = value;
    n->u.comp.generators = gens;
    return n;
}

/* The rest of a display after its first element: `, elt`* up to close. */
static ast_list display_rest(parser *p, ast_node *first, tk_kind close, const char *what)
{
    vec v = {0};
    vec_push(&v, first);
    while (!p->failed && accept(p, TK_COMMA)) {
        if (check(p, close))
            break;
        vec_push(&v, star_expression(p));
    }
    expect(p, close, what);
    return vec_freeze(p, &v);
}

/* '(' ... ')': empty tuple, tuple, generator expression or a parenthesised
 * expression (returned as it is, with its own span). */
static ast_node *paren(parser *p)
{
    src_span start = p->tok.span;
    advance(p);
    if (accept(p, TK_RPAR)) {
        ast_node *t = mk(p, AST_TUPLE, upto(p, start));
        return t;
    }
    ast_node *first = star_expression(p);
    if (p->failed)
        return first;
    if (check(p, TK_FOR))
        return comprehension(p, AST_GENEXP, start, first, NULL, TK_RPAR,
                             "')' after the generator expression");
    if (check(p, TK_COMMA)) {
        ast_list elts = display_rest(p, first, TK_RPAR, "',' or ')' in the tuple");
        ast_node *t = mk(p, AST_TUPLE, upto(p, start));
        t->u.seq.elts = elts;
        return t;
    }
    expect(p, TK_RPAR, "',' or ')'");
    no_bare_star(p, first);
    return first;
}

static ast_node *list_display(parser *p)
{
    src_span start = p->tok.span;
    advance(p);
    ast_node *n;
    if (accept(p, TK_RSQB))
        return mk(p, AST_LIST, upto(p, start));
    ast_node *first = star_expression(p);
    if (p->failed)
        return first;
    if (check(p, TK_FOR))
        return comprehension(p, AST_LISTCOMP, start, first, NULL, TK_RSQB,
                             "']' after the list comprehension");
    ast_list elts = display_rest(p, first, TK_RSQB, "',' or ']' in the list");
    n = mk(p, AST_LIST, upto(p, start));
    n->u.seq.elts = elts;
    return n;
}

/* The entries of a dict after the first key: value. */
static ast_node *dict_rest(parser *p, src_span start, vec *keys, vec *values)
{
    while (!p->failed && accept(p, TK_COMMA)) {
        if (check(p, TK_RBRACE))
            break;
        if (accept(p, TK_DSTAR)) {
            vec_push(keys, NULL);
            vec_push(values, bitwise_or(p));
            continue;
        }
        vec_push(keys, expression(p));
        expect(p, TK_COLON, "':' after the dict key");
        vec_push(values, expression(p));
    }
    expect(p, TK_RBRACE, "',' or '}' in the dict");
    ast_node *n = mk(p, AST_DICT, upto(p, start));
    n->u.dict.keys = vec_freeze(p, keys);
    n->u.dict.values = vec_freeze(p, values);
    return n;
}

/* '{' ... '}': dict, set, or their comprehensions. */
static ast_node *brace_display(parser *p)
{
    src_span start = p->tok.span;
    advance(p);
    vec keys = {0}, values = {0};
    if (accept(p, TK_RBRACE))
        return mk(p, AST_DICT, upto(p, start));
    if (accept(p, TK_DSTAR)) {
        vec_push(&keys, NULL);
        vec_push(&values, bitwise_or(p));
        return dict_rest(p, start, &keys, &values);
    }
    ast_node *first = star_expression(p);
    if (p->failed)
        return first;
    if (first->kind != AST_STARRED && accept(p, TK_COLON)) {
        ast_node *value = expression(p);
        if (!p->failed && check(p, TK_FOR))
            return comprehension(p, AST_DICTCOMP, start, first, value, TK_RBRACE,
                                 "'}' after the dict comprehension");
        vec_push(&keys, first);
        vec_push(&values, value);
        return dict_rest(p, start, &keys, &values);
    }
    if (check(p, TK_FOR))
        return comprehension(p, AST_SETCOMP, start, first, NULL, TK_RBRACE,
                             "'}' after the set comprehension");
    ast_list elts = display_rest(p, first, TK_RBRACE, "',' or '}' in the set");
    ast_node *n = mk(p, AST_SET, upto(p, start));
    n->u.seq.elts = elts;
    return n;
}

static ast_node *atom(parser *p)
{
    lex_token t = p->tok;
    ast_node *n;
    switch (t.kind) {
    case TK_NAME:
        advance(p);
        n = mk(p, AST_NAME, t.span);
        n->u.name.id = t.str;
        return n;
    case TK_INT:
        advance(p);
        n = mk(p, AST_INT, t.span);
        n->u.int_.value = t.ival;
        n->u.int_.big = (t.flags & TKF_INT_BIG) != 0;
        return n;
    case TK_FLOAT:
    case TK_IMAG:
        advance(p);
        n = mk(p, t.kind == TK_FLOAT ? AST_FLOAT : AST_IMAG, t.span);
        n->u.float_.value = t.fval;
        return n;
    case TK_STRING:
    case TK_FSTRING_START:
        return strings(p);
    case TK_NONE:
    case TK_TRUE:
    case TK_FALSE:
    case TK_ELLIPSIS:
        advance(p);
        n = mk(p, AST_CONST, t.span);
        n->u.const_.value = t.kind == TK_NONE ? AST_CONST_NONE
                          : t.kind == TK_TRUE ? AST_CONST_TRUE
                          : t.kind == TK_FALSE ? AST_CONST_FALSE
                          : AST_CONST_ELLIPSIS;
        return n;
    case TK_LPAR:
    case TK_LSQB:
    case TK_LBRACE:
        if (!parse_enter(p, "expression"))
            n = bad_expr(p);
        else if (t.kind == TK_LPAR)
            n = paren(p);
        else if (t.kind == TK_LSQB)
            n = list_display(p);
        else
            n = brace_display(p);
        parse_leave(p);
        return n;
    case TK_YIELD:
        unsupported(p, t.span, "'yield' expressions are",
                    "return a list or tuple instead");
        return bad_expr(p);
    case TK_AWAIT:
        unsupported(p, t.span, "'await' expressions are", NULL);
        return bad_expr(p);
    default:
        fail_expected(p, "an expression");
        return bad_expr(p);
    }
}

/* ---- strings and f-strings ---- */

/* An f-string (or a run of literals) being assembled: literal text is
 * gathered in text[] and becomes one STR part when a field or the end
 * comes, so adjacent pieces merge. */
typedef struct fs_build {
    vec parts;
    char *text;
    size_t len, cap;
    bool has_text;
    src_span text_span;
} fs_build;

static void fs_text(fs_build *b, const char *s, size_t len, src_span sp)
{
    if (b->len + len + 1 > b->cap) {
        b->cap = (b->len + len + 1) * 2;
        b->text = xrealloc(b->text, b->cap);
    }
    if (len)
        memcpy(b->text + b->len, s, len);
    b->len += len;
    b->text_span = b->has_text ? src_join(b->text_span, sp) : sp;
    b->has_text = true;
}

/* The gathered text as a STR node (NULL when there is none). */
static ast_node *fs_take_text(parser *p, fs_build *b)
{
    ast_node *n = NULL;
    if (b->has_text) {
        n = mk(p, AST_STR, b->text_span);
        n->u.str.s = arena_strndup(p->a, b->text ? b->text : "", b->len);
        n->u.str.len = b->len;
    }
    b->len = 0;
    b->has_text = false;
    return n;
}

/* Turn pending text into a part of the f-string; empty text is dropped as
 * CPython drops it. */
static void fs_flush(parser *p, fs_build *b)
{
    bool empty = b->len == 0;
    ast_node *s = fs_take_text(p, b);
    if (s && !empty)
        vec_push(&b->parts, s);
}

static void fs_pieces(parser *p, fs_build *b, tk_kind end);

/* A replacement field: '{' expr ['='] ['!' conv] [':' spec] '}'. */
static ast_node *fs_field(parser *p, fs_build *b)
{
    src_span start = p->tok.span;
    advance(p);
    if (check(p, TK_RBRACE)) {
        fail_here(p, "f-string: valid expression required before '}'");
        return bad_expr(p);
    }
    if (check(p, TK_LAMBDA)) {
        /* Its ':' would start the format spec. */
        fail_here(p, "f-string: lambda expressions are not allowed without parentheses");
        return bad_expr(p);
    }
    ast_node *value = star_expressions(p);
    if (p->failed)
        return value;
    int conv = 0;
    bool debug = false;
    if (check(p, TK_EQ)) {
        /* f'{x = }' shows its own text, from the '{' to the '!', ':' or
         * '}', before the value. */
        advance(p);
        src_span text = span_between(start, p->tok.span);
        if (text.off <= text.end_off && text.end_off <= p->f->len)
            fs_text(b, p->f->text + text.off, text.end_off - text.off, text);
        debug = true;
    }
    fs_flush(p, b);
    if (check(p, TK_EXCLAIM)) {
        src_span bang = p->tok.span;
        advance(p);
        if (!check(p, TK_NAME)) {
            fail_at(p, bang, "f-string: missing conversion character");
            return value;
        }
        const char *c = p->tok.str;
        if (strlen(c) != 1 || !strchr("rsa", c[0])) {
            fail_at(p, p->tok.span, "f-string: invalid conversion character '%s': "
                    "expected 's', 'r', or 'a'", c);
            return value;
        }
        conv = c[0];
        advance(p);
    }
    ast_node *spec = NULL;
    if (check(p, TK_COLON)) {
        src_span colon = p->tok.span;
        advance(p);
        fs_build sb = {0};
        fs_pieces(p, &sb, TK_RBRACE);
        fs_flush(p, &sb);
        free(sb.text);
        spec = mk(p, AST_FSTRING, span_between(colon, p->tok.span));
        spec->u.fstring.parts = vec_freeze(p, &sb.parts);
    } else if (debug && conv == 0) {
        conv = 'r';
    }
    expect(p, TK_RBRACE, "'}' to close the f-string field");
    ast_node *n = mk(p, AST_FORMATTED, upto(p, start));
    n->u.formatted.value = value;
    n->u.formatted.conv = conv;
    n->u.formatted.spec = spec;
    return n;
}

/* Literal text and fields up to (not including) end. */
static void fs_pieces(parser *p, fs_build *b, tk_kind end)
{
    while (!p->failed && !check(p, end)) {
        if (check(p, TK_FSTRING_MIDDLE)) {
            fs_text(b, p->tok.str, p->tok.len, p->tok.span);
            advance(p);
        } else if (check(p, TK_LBRACE)) {
            if (!parse_enter(p, "f-string")) {
                parse_leave(p);
                return;
            }
            ast_node *field = fs_field(p, b);
            parse_leave(p);
            vec_push(&b->parts, field);
        } else if (end == TK_RBRACE) {
            fail_expected(p, "'}' to close the f-string field");
        } else {
            fail_here(p, "unterminated f-string literal");
        }
    }
}

/* Adjacent string literals: one STR, or one FSTRING if any is an f-string. */
static ast_node *strings(parser *p)
{
    src_span start = p->tok.span;
    fs_build b = {0};
    bool fstring = false;
    while (!p->failed && (check(p, TK_STRING) || check(p, TK_FSTRING_START))) {
        if (p->tok.flags & TKF_BYTES) {
            unsupported(p, p->tok.span, "bytes literals are", "use a str");
            break;
        }
        if (check(p, TK_STRING)) {
            fs_text(&b, p->tok.str, p->tok.len, p->tok.span);
            advance(p);
            continue;
        }
        fstring = true;
        advance(p);
        fs_pieces(p, &b, TK_FSTRING_END);
        accept(p, TK_FSTRING_END);
    }
    ast_node *n;
    if (!fstring) {
        n = fs_take_text(p, &b);
        if (!n)
            n = bad_expr(p);
        else
            n->span = upto(p, start);
    } else {
        fs_flush(p, &b);
        n = mk(p, AST_FSTRING, upto(p, start));
        n->u.fstring.parts = vec_freeze(p, &b.parts);
    }
    free(b.text);
    free(b.parts.items);
    return n;
}

/* ---- calls, subscripts, attributes ---- */

/* The arguments of a call; the current token is '('. */
static ast_node *call(parser *p, ast_node *func, src_span start)
{
    src_span lpar = p->tok.span;
    advance(p);
    vec args = {0}, kws = {0};
    bool seen_kw = false, seen_dstar = false;
    while (!p->failed && !check(p, TK_RPAR)) {
        src_span as = p->tok.span;
        if (accept(p, TK_STAR)) {
            ast_node *val = expression(p);
            ast_node *s = mk(p, AST_STARRED, upto(p, as));
            s->u.starred.value = val;
            if (seen_dstar)
                report(p, s->span, "iterable argument unpacking follows keyword "
                       "argument unpacking");
            vec_push(&args, s);
        } else if (accept(p, TK_DSTAR)) {
            ast_node *val = expression(p);
            ast_node *k = mk(p, AST_KEYWORD, upto(p, as));
            k->u.keyword.value = val;
            seen_dstar = true;
            vec_push(&kws, k);
        } else {
            ast_node *e = expression(p);
            if (p->failed)
                break;
            if (check(p, TK_EQ)) {
                if (e->kind != AST_NAME || p->prev.span.off != as.off) {
                    fail_at(p, e->span, "expression cannot contain assignment, "
                            "perhaps you meant \"==\"?");
                    break;
                }
                advance(p);
                ast_node *val = expression(p);
                ast_node *k = mk(p, AST_KEYWORD, upto(p, as));
                k->u.keyword.arg = e->u.name.id;
                k->u.keyword.value = val;
                for (int i = 0; i < kws.len; i++) {
                    const ast_node *o = kws.items[i];
                    if (o->u.keyword.arg && !strcmp(o->u.keyword.arg, e->u.name.id))
                        report(p, k->span, "keyword argument repeated: %s", e->u.name.id);
                }
                seen_kw = true;
                vec_push(&kws, k);
            } else if (check(p, TK_FOR)) {
                /* f(x for x in y): the parentheses of the call are the
                 * generator's own. */
                ast_list gens = comp_clauses(p);
                ast_node *g = mk(p, AST_GENEXP, lpar);
                g->u.comp.elt = e;
                g->u.comp.generators = gens;
                if (!p->failed && (args.len || kws.len || !check(p, TK_RPAR))) {
                    fail_at(p, upto(p, as), "Generator expression must be parenthesized");
                    break;
                }
                if (check(p, TK_RPAR))
                    g->span = src_join(lpar, p->tok.span);
                vec_push(&args, g);
            } else {
                if (seen_dstar)
                    report(p, e->span, "positional argument follows keyword "
                           "argument unpacking");
                else if (seen_kw)
                    report(p, e->span, "positional argument follows keyword argument");
                vec_push(&args, e);
            }
        }
        if (!accept(p, TK_COMMA))
            break;
    }
    expect(p, TK_RPAR, "',' or ')' in the argument list");
    ast_node *n = mk(p, AST_CALL, upto(p, start));
    n->u.call.func = func;
    n->u.call.args = vec_freeze(p, &args);
    n->u.call.keywords = vec_freeze(p, &kws);
    return n;
}

/* slice: [expr] ':' [expr] [':' [expr]] | expression | '*' expression */
static ast_node *slice_item(parser *p)
{
    src_span start = p->tok.span;
    ast_node *lower = NULL;
    if (check(p, TK_STAR)) {
        advance(p);
        ast_node *val = bitwise_or(p);
        ast_node *s = mk(p, AST_STARRED, upto(p, start));
        s->u.starred.value = val;
        return s;
    }
    if (!check(p, TK_COLON)) {
        lower = expression(p);
        if (p->failed || !check(p, TK_COLON))
            return lower;
    }
    advance(p);
    ast_node *upper = NULL, *step = NULL;
    if (!check(p, TK_COLON) && !check(p, TK_COMMA) && !check(p, TK_RSQB))
        upper = expression(p);
    if (!p->failed && accept(p, TK_COLON) && !check(p, TK_COMMA) && !check(p, TK_RSQB))
        step = expression(p);
    ast_node *n = mk(p, AST_SLICE, upto(p, start));
    n->u.slice.lower = lower;
    n->u.slice.upper = upper;
    n->u.slice.step = step;
    return n;
}

/* value '[' slices ']' */
static ast_node *subscript(parser *p, ast_node *value, src_span start)
{
    advance(p);
    src_span istart = p->tok.span;
    ast_node *index = slice_item(p);
    /* x[*a] indexes with a tuple, as x[*a,] does. */
    if (!p->failed && (check(p, TK_COMMA) || index->kind == AST_STARRED)) {
        vec v = {0};
        vec_push(&v, index);
        while (!p->failed && accept(p, TK_COMMA)) {
            if (check(p, TK_RSQB))
                break;
            vec_push(&v, slice_item(p));
        }
        index = mk(p, AST_TUPLE, upto(p, istart));
        index->u.seq.elts = vec_freeze(p, &v);
    }
    expect(p, TK_RSQB, "',' or ']' in the subscript");
    ast_node *n = mk(p, AST_SUBSCRIPT, upto(p, start));
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
        if (check(p, TK_DOT)) {
            advance(p);
            if (!check(p, TK_NAME)) {
                fail_expected(p, "an attribute name after '.'");
                break;
            }
            const char *attr = p->tok.str;
            advance(p);
            ast_node *n = mk(p, AST_ATTRIBUTE, upto(p, start));
            n->u.attribute.value = e;
            n->u.attribute.attr = attr;
            e = n;
        } else if (check(p, TK_LPAR) || check(p, TK_LSQB)) {
            if (parse_enter(p, "expression"))
                e = check(p, TK_LPAR) ? call(p, e, start) : subscript(p, e, start);
            parse_leave(p);
        } else {
            break;
        }
        if (!chain_ok(p, e))
            break;
    }
    return e;
}

/* power: primary ['**' factor]  (so -2**2 is -(2**2) and 2**-1 works) */
static ast_node *power(parser *p)
{
    src_span start = p->tok.span;
    ast_node *base = primary(p);
    if (p->failed || !accept(p, TK_DSTAR))
        return base;
    ast_node *exp = parse_enter(p, "expression") ? factor(p) : bad_expr(p);
    parse_leave(p);
    ast_node *n = mk(p, AST_BINOP, upto(p, start));
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
    advance(p);
    ast_node *operand = parse_enter(p, "expression") ? factor(p) : bad_expr(p);
    parse_leave(p);
    ast_node *n = mk(p, AST_UNARYOP, upto(p, start));
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
        advance(p);
        ast_node *right = binary(p, prec + 1);
        ast_node *n = mk(p, AST_BINOP, upto(p, start));
        n->u.binop.op = op;
        n->u.binop.left = left;
        n->u.binop.right = right;
        left = n;
        if (!chain_ok(p, left))
            break;
    }
    return left;
}

static ast_node *bitwise_or(parser *p)
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
        advance(p);
        *op = accept(p, TK_NOT) ? AST_OP_ISNOT : AST_OP_IS;
        return true;
    case TK_NOT:
        if (peek(p) != TK_IN)
            return false;
        advance(p);
        *op = AST_OP_NOTIN;
        break;
    default:
        return false;
    }
    advance(p);
    return true;
}

/* comparison: bitwise_or (compare_op bitwise_or)*, chained */
static ast_node *comparison(parser *p)
{
    src_span start = p->tok.span;
    ast_node *left = bitwise_or(p);
    ast_op op;
    if (p->failed || !comp_op(p, &op))
        return left;
    ast_op *ops = NULL;
    int nops = 0;
    vec rights = {0};
    do {
        ops = xrealloc(ops, (size_t)(nops + 1) * sizeof *ops);
        ops[nops++] = op;
        vec_push(&rights, bitwise_or(p));
    } while (!p->failed && comp_op(p, &op));
    ast_node *n = mk(p, AST_COMPARE, upto(p, start));
    n->u.compare.left = left;
    n->u.compare.ops = arena_alloc(p->a, (size_t)nops * sizeof *ops);
    memcpy(n->u.compare.ops, ops, (size_t)nops * sizeof *ops);
    n->u.compare.comparators = vec_freeze(p, &rights);
    free(ops);
    return n;
}

/* inversion: 'not' inversion | comparison */
static ast_node *inversion(parser *p)
{
    if (!check(p, TK_NOT))
        return comparison(p);
    src_span start = p->tok.span;
    advance(p);
    ast_node *operand = parse_enter(p, "expression") ? inversion(p) : bad_expr(p);
    parse_leave(p);
    ast_node *n = mk(p, AST_UNARYOP, upto(p, start));
    n->u.unaryop.op = AST_OP_NOT;
    n->u.unaryop.operand = operand;
    return n;
}

/* sub (tk sub)* as one BOOLOP */
static ast_node *boolop(parser *p, tk_kind tk, ast_op op, ast_node *(*sub)(parser *))
{
    src_span start = p->tok.span;
    ast_node *first = sub(p);
    if (p->failed || !check(p, tk))
        return first;
    vec v = {0};
    vec_push(&v, first);
    while (!p->failed && accept(p, tk))
        vec_push(&v, sub(p));
    ast_node *n = mk(p, AST_BOOLOP, upto(p, start));
    n->u.boolop.op = op;
    n->u.boolop.values = vec_freeze(p, &v);
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
    advance(p);
    ast_list ps = params(p, TK_COLON, false);
    expect(p, TK_COLON, "':' after the lambda's parameters");
    ast_node *body = p->failed ? bad_expr(p) : expression(p);
    ast_node *n = mk(p, AST_LAMBDA, upto(p, start));
    n->u.lambda.params = ps;
    n->u.lambda.body = body;
    return n;
}

/* expression: disjunction ['if' disjunction 'else' expression] | lambdef.
 * A lambda and the 'else' branch nest without brackets, so they count as
 * a level each. */
static ast_node *expression(parser *p)
{
    ast_node *e;
    if (check(p, TK_LAMBDA)) {
        e = parse_enter(p, "expression") ? lambdef(p) : bad_expr(p);
        parse_leave(p);
    } else {
        src_span start = p->tok.span;
        e = disjunction(p);
        if (!p->failed && accept(p, TK_IF)) {
            ast_node *test = disjunction(p);
            ast_node *orelse;
            if (!p->failed && !accept(p, TK_ELSE))
                fail_here(p, "expected 'else' after 'if' expression");
            if (p->failed) {
                orelse = bad_expr(p);
            } else {
                orelse = parse_enter(p, "expression") ? expression(p) : bad_expr(p);
                parse_leave(p);
            }
            ast_node *n = mk(p, AST_IFEXP, upto(p, start));
            n->u.ifexp.test = test;
            n->u.ifexp.body = e;
            n->u.ifexp.orelse = orelse;
            e = n;
        }
    }
    if (!p->failed && check(p, TK_WALRUS))
        unsupported(p, p->tok.span, "assignment expressions (:=) are",
                    "assign on a line of its own");
    return e;
}

/* star_expression: '*' bitwise_or | expression */
static ast_node *star_expression(parser *p)
{
    if (!check(p, TK_STAR))
        return expression(p);
    src_span start = p->tok.span;
    advance(p);
    ast_node *val = bitwise_or(p);
    ast_node *n = mk(p, AST_STARRED, upto(p, start));
    n->u.starred.value = val;
    return n;
}

/* star_expressions: a tuple without parentheses when there is a comma. */
static ast_node *star_expressions(parser *p)
{
    src_span start = p->tok.span;
    ast_node *first = star_expression(p);
    if (p->failed || !check(p, TK_COMMA))
        return first;
    vec v = {0};
    vec_push(&v, first);
    while (!p->failed && accept(p, TK_COMMA)) {
        if (!starts_expression(p->tok.kind) || check(p, TK_YIELD))
            break;
        vec_push(&v, star_expression(p));
    }
    ast_node *t = mk(p, AST_TUPLE, upto(p, start));
    t->u.seq.elts = vec_freeze(p, &v);
    return t;
}

/* ---- parameters ---- */

static ast_node *param(parser *p, ast_param_kind kind, bool annotations)
{
    src_span start = p->tok.span;
    if (!check(p, TK_NAME)) {
        fail_expected(p, "a parameter name");
        return bad_expr(p);
    }
    ast_node *n = mk(p, AST_PARAM, start);
    n->u.param.name = p->tok.str;
    n->u.param.kind = kind;
    advance(p);
    if (annotations && accept(p, TK_COLON))
        n->u.param.annotation = expression(p);
    n->span = upto(p, start);
    return n;
}

/* Parameters up to close (')' of a def, ':' of a lambda), which is left for
 * the caller.  A bare '*' and '/' are not nodes: they set the kinds of the
 * parameters around them. */
static ast_list params(parser *p, tk_kind close, bool annotations)
{
    vec v = {0};
    bool kwonly = false, seen_default = false, seen_slash = false;
    bool seen_kwargs = false;
    src_span bare_star = {0};
    bool need_named = false;
    while (!p->failed && !check(p, close)) {
        src_span start = p->tok.span;
        if (seen_kwargs) {
            fail_here(p, "parameters cannot follow the '**' parameter");
            break;
        }
        if (check(p, TK_SLASH)) {
            if (seen_slash)
                fail_here(p, "'/' may appear only once");
            else if (kwonly)
                fail_here(p, "'/' must be ahead of '*'");
            else if (v.len == 0)
                fail_here(p, "at least one parameter must precede '/'");
            advance(p);
            seen_slash = true;
            for (int i = 0; i < v.len; i++)
                ((ast_node *)v.items[i])->u.param.kind = AST_PARAM_POSONLY;
        } else if (check(p, TK_STAR)) {
            if (kwonly) {
                fail_here(p, "'*' may appear only once");
                break;
            }
            advance(p);
            kwonly = true;
            if (check(p, TK_NAME)) {
                ast_node *n = param(p, AST_PARAM_VARARGS, annotations);
                n->span = upto(p, start);
                vec_push(&v, n);
            } else if (check(p, TK_COMMA)) {
                bare_star = start;
                need_named = true;
            } else {
                fail_at(p, start, "named parameters must follow bare '*'");
                break;
            }
        } else if (check(p, TK_DSTAR)) {
            advance(p);
            ast_node *n = param(p, AST_PARAM_KWARGS, annotations);
            n->span = upto(p, start);
            if (!p->failed && check(p, TK_EQ))
                fail_here(p, "the '**' parameter cannot have a default value");
            vec_push(&v, n);
            seen_kwargs = true;
        } else {
            ast_node *n = param(p, kwonly ? AST_PARAM_KWONLY : AST_PARAM_NORMAL,
                                annotations);
            if (!p->failed && accept(p, TK_EQ)) {
                n->u.param.default_ = expression(p);
                n->span = upto(p, start);
                if (!kwonly)
                    seen_default = true;
            } else if (!p->failed && seen_default && !kwonly) {
                fail_at(p, n->span, "parameter without a default follows "
                        "parameter with a default");
            }
            need_named = false;
            vec_push(&v, n);
        }
        if (!accept(p, TK_COMMA))
            break;
    }
    if (!p->failed && need_named)
        fail_at(p, bare_star, "named parameters must follow bare '*'");
    /* Two parameters of one name (CPython finds this later, we can now). */
    for (int i = 0; !p->failed && i < v.len; i++) {
        const ast_node *a = v.items[i];
        for (int j = 0; j < i; j++) {
            const ast_node *b = v.items[j];
            if (!strcmp(a->u.param.name, b->u.param.name)) {
                report(p, a->span, "duplicate parameter '%s' in function definition",
                       a->u.param.name);
                break;
            }
        }
    }
    return vec_freeze(p, &v);
}

/* ---- statements ---- */

static void statement(parser *p, vec *out);
static void simple_stmts(parser *p, vec *out);

/* The span from start to the end of the last statement of body (or of the
 * last token when the body is empty). */
static src_span upto_body(const parser *p, src_span start, ast_list body)
{
    if (body.len == 0)
        return upto(p, start);
    return src_join(start, body.items[body.len - 1]->span);
}

static bool is_compound_start(tk_kind k)
{
    switch (k) {
    case TK_IF: case TK_WHILE: case TK_FOR: case TK_DEF: case TK_AT:
    case TK_CLASS: case TK_TRY: case TK_WITH: case TK_ASYNC:
    case TK_ELIF: case TK_ELSE: case TK_EXCEPT: case TK_FINALLY:
        return true;
    default:
        return false;
    }
}

/* Statements that need a line of their own. */
static bool is_compound_header(tk_kind k)
{
    switch (k) {
    case TK_IF: case TK_WHILE: case TK_FOR: case TK_DEF: case TK_AT:
    case TK_CLASS: case TK_TRY: case TK_WITH: case TK_ASYNC:
        return true;
    default:
        return false;
    }
}

/* Skip an indented block: INDENT ... its DEDENT. */
static void skip_block(parser *p)
{
    int level = 0;
    do {
        if (check(p, TK_INDENT))
            level++;
        else if (check(p, TK_DEDENT))
            level--;
        advance(p);
    } while (level > 0 && !check(p, TK_EOF));
}

/* Skip the rest of the logical line and an indented block after it. */
static void skip_line(parser *p)
{
    while (!check(p, TK_EOF) && !check(p, TK_DEDENT) && !accept(p, TK_NEWLINE))
        advance(p);
    if (check(p, TK_INDENT))
        skip_block(p);
}

/* After a failed statement: go to the start of the next statement of this
 * block.  When the error was found at the start of a line (a missing
 * indented block) that line goes too: it was most likely meant as the
 * body, and parsing it at the outer level would only add noise such as
 * "'return' outside function". */
static void parse_recover(parser *p, tk_kind first)
{
    skip_line(p);
    if (p->deferred) {
        if (p->d->nerrors == p->deferred_nerrors)
            diag_report(p->d, DIAG_ERROR, p->f, p->deferred_span, "%s", p->deferred_msg);
        p->deferred = false;
    }
    /* A compound statement's later clauses go with it. */
    if (is_compound_start(first))
        while (check(p, TK_ELIF) || check(p, TK_ELSE) || check(p, TK_EXCEPT) ||
               check(p, TK_FINALLY))
            skip_line(p);
    p->failed = false;
}

/* A statement, recovering from a syntax error in it. */
static void statement_recover(parser *p, vec *out)
{
    tk_kind first = p->tok.kind;
    int nout = out->len;
    statement(p, out);
    if (p->failed) {
        out->len = nout;  /* keep only statements that parsed */
        parse_recover(p, first);
    }
}

/* The body of a compound statement: simple statements on the same line, or
 * NEWLINE INDENT statements DEDENT.  what and line name the header for
 * "expected an indented block after 'if' statement on line 3". */
static ast_list block(parser *p, const char *what, int line)
{
    vec v = {0};
    if (p->failed)
        return vec_freeze(p, &v);
    if (!accept(p, TK_NEWLINE)) {
        if (is_compound_header(p->tok.kind))
            fail_here(p, "a compound statement cannot follow ':' on the same line; "
                      "put it on a new, indented line");
        else
            simple_stmts(p, &v);
        return vec_freeze(p, &v);
    }
    if (!check(p, TK_INDENT)) {
        fail_here(p, "expected an indented block after %s on line %d", what, line);
        return vec_freeze(p, &v);
    }
    advance(p);
    if (parse_enter(p, "block")) {
        while (!check(p, TK_DEDENT) && !check(p, TK_EOF) && !diag_full(p->d))
            statement_recover(p, &v);
        accept(p, TK_DEDENT);
    }
    parse_leave(p);
    return vec_freeze(p, &v);
}

/* ['else' ':' block] of if, for and while */
static ast_list else_block(parser *p)
{
    if (p->failed || !check(p, TK_ELSE))
        return (ast_list){NULL, 0};
    int line = p->tok.span.line;
    advance(p);
    expect_msg(p, TK_COLON, "expected ':' after 'else'");
    return block(p, "'else' statement", line);
}

/* 'if' test ':' block ('elif' test ':' block)* ['else' ':' block]
 * Each elif is an IF alone in the orelse of the one before; the chain is
 * built in a loop, so a thousand elifs cost no stack. */
static ast_node *if_stmt(parser *p)
{
    vec chain = {0};
    do {
        src_span start = p->tok.span;
        bool elif = check(p, TK_ELIF);
        advance(p);
        ast_node *n = mk(p, AST_IF, start);
        n->u.if_.test = expression(p);
        expect_msg(p, TK_COLON, elif ? "expected ':' after the 'elif' condition"
                                     : "expected ':' after the 'if' condition");
        n->u.if_.body = block(p, elif ? "'elif' statement" : "'if' statement",
                              start.line);
        if (chain.len > 0) {
            ast_node *before = chain.items[chain.len - 1];
            before->u.if_.orelse.items =
                (ast_node **)arena_copy_ptrs(p->a, (void *const *)&n, 1);
            before->u.if_.orelse.len = 1;
        }
        vec_push(&chain, n);
        if (!p->failed && check(p, TK_ELIF) && p->depth + chain.len >= PARSE_MAX_HEIGHT)
            fail_here(p, "too many 'elif' clauses (the limit is %d); split the "
                      "'if' statement", PARSE_MAX_HEIGHT - p->depth - 1);
    } while (!p->failed && check(p, TK_ELIF));
    ast_node *last = chain.items[chain.len - 1];
    last->u.if_.orelse = else_block(p);
    /* Every IF of the chain ends where the last clause ends. */
    ast_list tail = last->u.if_.orelse.len ? last->u.if_.orelse : last->u.if_.body;
    for (int i = 0; i < chain.len; i++) {
        ast_node *n = chain.items[i];
        n->span = upto_body(p, n->span, tail);
    }
    ast_node *first = chain.items[0];
    free(chain.items);
    return first;
}

static ast_node *while_stmt(parser *p)
{
    src_span start = p->tok.span;
    advance(p);
    ast_node *test = expression(p);
    expect_msg(p, TK_COLON, "expected ':' after the 'while' condition");
    p->loops++;
    ast_list body = block(p, "'while' statement", start.line);
    p->loops--;
    ast_list orelse = else_block(p);
    ast_node *n = mk(p, AST_WHILE, upto_body(p, start, orelse.len ? orelse : body));
    n->u.if_.test = test;
    n->u.if_.body = body;
    n->u.if_.orelse = orelse;
    return n;
}

static ast_node *for_stmt(parser *p)
{
    src_span start = p->tok.span;
    advance(p);
    ast_node *target = target_list(p);
    if (!p->failed)
        set_store(p, target, false);
    expect(p, TK_IN, "'in' after the 'for' loop's target");
    ast_node *iter = p->failed ? bad_expr(p) : star_expressions(p);
    expect_msg(p, TK_COLON, "expected ':' after the 'for' loop's iterable");
    p->loops++;
    ast_list body = block(p, "'for' statement", start.line);
    p->loops--;
    ast_list orelse = else_block(p);
    ast_node *n = mk(p, AST_FOR, upto_body(p, start, orelse.len ? orelse : body));
    n->u.for_.target = target;
    n->u.for_.iter = iter;
    n->u.for_.body = body;
    n->u.for_.orelse = orelse;
    return n;
}

/* 'def' NAME '(' params ')' ['->' expression] ':' block */
static ast_node *funcdef(parser *p, ast_list decorators)
{
    src_span start = p->tok.span;
    advance(p);
    ast_node *n = mk(p, AST_FUNCDEF, start);
    n->u.funcdef.decorators = decorators;
    if (!check(p, TK_NAME)) {
        fail_expected(p, "a function name after 'def'");
        return n;
    }
    n->u.funcdef.name = p->tok.str;
    n->u.funcdef.name_span = p->tok.span;
    advance(p);
    expect(p, TK_LPAR, "'(' after the function name");
    if (!p->failed)
        n->u.funcdef.params = params(p, TK_RPAR, true);
    expect(p, TK_RPAR, "',' or ')' in the parameter list");
    if (!p->failed && accept(p, TK_ARROW))
        n->u.funcdef.returns = expression(p);
    expect_msg(p, TK_COLON, "expected ':' after the function's signature");
    int loops = p->loops;
    p->loops = 0;
    p->funcs++;
    n->u.funcdef.body = block(p, "'def' statement", start.line);
    p->funcs--;
    p->loops = loops;
    n->span = upto_body(p, start, n->u.funcdef.body);
    return n;
}

/* 'class' NAME ['(' arguments ')'] ':' block */
static ast_node *classdef(parser *p, ast_list decorators)
{
    src_span start = p->tok.span;
    advance(p);
    ast_node *n = mk(p, AST_CLASSDEF, start);
    n->u.classdef.decorators = decorators;
    if (!check(p, TK_NAME)) {
        fail_expected(p, "a class name after 'class'");
        return n;
    }
    n->u.classdef.name = p->tok.str;
    n->u.classdef.name_span = p->tok.span;
    advance(p);
    if (check(p, TK_LPAR)) {
        /* The bases read as a call's arguments: class C(A, metaclass=M). */
        ast_node *c = call(p, NULL, start);
        n->u.classdef.bases = c->u.call.args;
        n->u.classdef.keywords = c->u.call.keywords;
    }
    expect_msg(p, TK_COLON, "expected ':' after the class name");
    /* A class body is no function: 'return' there is an error, and the
     * loops of an enclosing def do not reach into it. */
    int loops = p->loops, funcs = p->funcs;
    p->loops = 0;
    p->funcs = 0;
    n->u.classdef.body = block(p, "'class' definition", start.line);
    p->funcs = funcs;
    p->loops = loops;
    n->span = upto_body(p, start, n->u.classdef.body);
    return n;
}

/* 'try' ':' block (except_block+ ['else' ':' block] ['finally' ':' block]
 *                  | 'finally' ':' block)
 * except_block: 'except' [expression ['as' NAME]] ':' block */
static ast_node *try_stmt(parser *p)
{
    src_span start = p->tok.span;
    advance(p);
    expect_msg(p, TK_COLON, "expected ':' after 'try'");
    ast_node *n = mk(p, AST_TRY, start);
    n->u.try_.body = block(p, "'try' statement", start.line);
    vec handlers = {0};
    bool bare = false;
    ast_list last = n->u.try_.body;
    while (!p->failed && check(p, TK_EXCEPT)) {
        src_span hs = p->tok.span;
        advance(p);
        if (check(p, TK_STAR)) {
            unsupported(p, p->tok.span, "'except*' (exception groups) is", NULL);
            break;
        }
        if (bare)
            report(p, hs, "default 'except:' must be last");
        ast_node *h = mk(p, AST_EXCEPT, hs);
        if (!check(p, TK_COLON)) {
            h->u.handler.type = expression(p);
            if (!p->failed && check(p, TK_COMMA)) {
                fail_here(p, "multiple exception types must be parenthesized: "
                          "except (A, B):");
                break;
            }
            if (!p->failed && accept(p, TK_AS)) {
                if (check(p, TK_NAME)) {
                    h->u.handler.name = p->tok.str;
                    advance(p);
                } else {
                    fail_expected(p, "a name after 'as'");
                }
            }
        } else {
            bare = true;
        }
        expect_msg(p, TK_COLON, "expected ':' after the 'except' clause");
        h->u.handler.body = block(p, "'except' statement", hs.line);
        h->span = upto_body(p, hs, h->u.handler.body);
        last = h->u.handler.body;
        vec_push(&handlers, h);
    }
    n->u.try_.handlers = vec_freeze(p, &handlers);
    if (!p->failed && check(p, TK_ELSE)) {
        if (n->u.try_.handlers.len == 0)
            report(p, p->tok.span, "a 'try' statement's 'else' needs an 'except' before it");
        n->u.try_.orelse = else_block(p);
        last = n->u.try_.orelse;
    }
    if (!p->failed && check(p, TK_FINALLY)) {
        int line = p->tok.span.line;
        advance(p);
        expect_msg(p, TK_COLON, "expected ':' after 'finally'");
        n->u.try_.finalbody = block(p, "'finally' statement", line);
        last = n->u.try_.finalbody;
    }
    if (!p->failed && n->u.try_.handlers.len == 0 && n->u.try_.finalbody.len == 0)
        fail_here(p, "expected 'except' or 'finally' block");
    n->span = upto_body(p, start, last);
    return n;
}

/* 'with' with_item (',' with_item)* ':' block
 * with_item: expression ['as' star_target] */
static ast_node *with_stmt(parser *p)
{
    src_span start = p->tok.span;
    advance(p);
    vec items = {0};
    do {
        src_span is = p->tok.span;
        ast_node *it = mk(p, AST_WITHITEM, is);
        it->u.withitem.context = expression(p);
        if (!p->failed && accept(p, TK_AS)) {
            it->u.withitem.target = bitwise_or(p);
            if (!p->failed)
                set_store(p, it->u.withitem.target, false);
        }
        it->span = upto(p, is);
        vec_push(&items, it);
    } while (!p->failed && accept(p, TK_COMMA));
    expect_msg(p, TK_COLON, "expected ':' after the 'with' statement's items");
    ast_node *n = mk(p, AST_WITH, start);
    n->u.with.items = vec_freeze(p, &items);
    n->u.with.body = block(p, "'with' statement", start.line);
    n->span = upto_body(p, start, n->u.with.body);
    return n;
}

/* ('@' expression NEWLINE)+ then a def */
static ast_node *decorated(parser *p)
{
    vec decos = {0};
    while (!p->failed && accept(p, TK_AT)) {
        vec_push(&decos, expression(p));
        if (!p->failed && !accept(p, TK_NEWLINE))
            fail_expected(p, "the end of the line after the decorator");
    }
    ast_list list = vec_freeze(p, &decos);
    if (p->failed)
        return bad_expr(p);
    if (check(p, TK_DEF))
        return funcdef(p, list);
    if (check(p, TK_CLASS))
        return classdef(p, list);
    if (check(p, TK_ASYNC))
        unsupported(p, p->tok.span, "'async' functions are", NULL);
    else
        fail_expected(p, "'def' after the decorators");
    return bad_expr(p);
}

/* NAME ('.' NAME)* as one string in the arena. */
static const char *dotted_name(parser *p)
{
    if (!check(p, TK_NAME)) {
        fail_expected(p, "a module name");
        return "";
    }
    size_t len = 0, cap = 0;
    char *buf = NULL;
    for (;;) {
        size_t n = strlen(p->tok.str);
        if (len + n + 2 > cap) {
            cap = 2 * (len + n + 2);
            buf = xrealloc(buf, cap);
        }
        memcpy(buf + len, p->tok.str, n);
        len += n;
        advance(p);
        if (!check(p, TK_DOT))
            break;
        advance(p);
        if (!check(p, TK_NAME)) {
            fail_expected(p, "a name after '.' in the module name");
            break;
        }
        buf[len++] = '.';
    }
    const char *s = arena_strndup(p->a, buf, len);
    free(buf);
    return s;
}

/* dotted_name ['as' NAME], or NAME ['as' NAME] when !dotted. */
static ast_node *alias(parser *p, bool dotted)
{
    src_span start = p->tok.span;
    const char *name;
    if (dotted) {
        name = dotted_name(p);
    } else if (check(p, TK_NAME)) {
        name = p->tok.str;
        advance(p);
    } else {
        fail_expected(p, "a name to import");
        return bad_expr(p);
    }
    const char *asname = NULL;
    if (!p->failed && accept(p, TK_AS)) {
        if (check(p, TK_NAME)) {
            asname = p->tok.str;
            advance(p);
        } else {
            fail_expected(p, "a name after 'as'");
        }
    }
    ast_node *n = mk(p, AST_ALIAS, upto(p, start));
    n->u.alias.name = name;
    n->u.alias.asname = asname;
    return n;
}

static ast_node *import_stmt(parser *p)
{
    src_span start = p->tok.span;
    advance(p);
    vec v = {0};
    do
        vec_push(&v, alias(p, true));
    while (!p->failed && accept(p, TK_COMMA));
    ast_node *n = mk(p, AST_IMPORT, upto(p, start));
    n->u.import.names = vec_freeze(p, &v);
    return n;
}

/* 'from' ('.' | '...')* [dotted_name] 'import' ('*' | names | '(' names ')') */
static ast_node *from_stmt(parser *p)
{
    src_span start = p->tok.span;
    advance(p);
    int level = 0;
    for (;;) {
        if (accept(p, TK_DOT))
            level++;
        else if (accept(p, TK_ELLIPSIS))
            level += 3;
        else
            break;
    }
    const char *module = NULL;
    if (level == 0 || check(p, TK_NAME))
        module = dotted_name(p);
    expect(p, TK_IMPORT, "'import' after the module name");
    vec v = {0};
    if (!p->failed && check(p, TK_STAR)) {
        ast_node *a = mk(p, AST_ALIAS, p->tok.span);
        a->u.alias.name = "*";
        advance(p);
        vec_push(&v, a);
    } else if (!p->failed) {
        bool parens = accept(p, TK_LPAR);
        for (;;) {
            vec_push(&v, alias(p, false));
            if (p->failed || !accept(p, TK_COMMA))
                break;
            if (!check(p, TK_NAME)) {
                if (!parens)
                    fail_at(p, p->prev.span, "trailing comma not allowed without "
                            "surrounding parentheses");
                break;
            }
        }
        if (parens)
            expect(p, TK_RPAR, "',' or ')' after the imported names");
    }
    ast_node *n = mk(p, AST_IMPORTFROM, upto(p, start));
    n->u.importfrom.module = module;
    n->u.importfrom.level = level;
    n->u.importfrom.names = vec_freeze(p, &v);
    return n;
}

static ast_node *global_stmt(parser *p)
{
    src_span start = p->tok.span;
    ast_kind kind = check(p, TK_GLOBAL) ? AST_GLOBAL : AST_NONLOCAL;
    advance(p);
    vec v = {0};
    do {
        if (!check(p, TK_NAME)) {
            fail_expected(p, "a name");
            break;
        }
        ast_node *n = mk(p, AST_NAME, p->tok.span);
        n->u.name.id = p->tok.str;
        advance(p);
        vec_push(&v, n);
    } while (accept(p, TK_COMMA));
    ast_node *n = mk(p, kind, upto(p, start));
    n->u.global.names = vec_freeze(p, &v);
    if (!p->failed && kind == AST_NONLOCAL && p->funcs == 0)
        report(p, n->span, "nonlocal declaration not allowed at module level");
    return n;
}

static ast_node *del_stmt(parser *p)
{
    src_span start = p->tok.span;
    advance(p);
    vec v = {0};
    do {
        ast_node *t = bitwise_or(p);
        if (!p->failed)
            set_ctx(p, t, AST_CTX_DEL, false);
        vec_push(&v, t);
    } while (!p->failed && accept(p, TK_COMMA) && starts_expression(p->tok.kind));
    ast_node *n = mk(p, AST_DEL, upto(p, start));
    n->u.del.targets = vec_freeze(p, &v);
    return n;
}

/* The operator of an augmented assignment token; false if it is not one. */
static bool augassign_op(tk_kind k, ast_op *op)
{
    switch (k) {
    case TK_PLUSEQ: *op = AST_OP_ADD; return true;
    case TK_MINUSEQ: *op = AST_OP_SUB; return true;
    case TK_STAREQ: *op = AST_OP_MUL; return true;
    case TK_SLASHEQ: *op = AST_OP_DIV; return true;
    case TK_DSLASHEQ: *op = AST_OP_FLOORDIV; return true;
    case TK_PERCENTEQ: *op = AST_OP_MOD; return true;
    case TK_DSTAREQ: *op = AST_OP_POW; return true;
    case TK_ATEQ: *op = AST_OP_MATMUL; return true;
    case TK_LSHIFTEQ: *op = AST_OP_LSHIFT; return true;
    case TK_RSHIFTEQ: *op = AST_OP_RSHIFT; return true;
    case TK_AMPEQ: *op = AST_OP_BITAND; return true;
    case TK_PIPEEQ: *op = AST_OP_BITOR; return true;
    case TK_CARETEQ: *op = AST_OP_BITXOR; return true;
    default: return false;
    }
}

static bool single_target(const ast_node *n)
{
    return n->kind == AST_NAME || n->kind == AST_ATTRIBUTE || n->kind == AST_SUBSCRIPT;
}

/* Expression statements and the assignments: t = ... = value,
 * t op= value, t: annotation [= value]. */
static ast_node *expr_stmt(parser *p)
{
    src_span start = p->tok.span;
    ast_node *first = star_expressions(p);
    if (p->failed)
        return first;
    ast_op op;
    ast_node *n;
    if (check(p, TK_EQ)) {
        vec v = {0};
        vec_push(&v, first);
        while (!p->failed && accept(p, TK_EQ))
            vec_push(&v, star_expressions(p));
        ast_node *value = v.items[--v.len];
        if (!p->failed)
            no_bare_star(p, value);
        for (int i = 0; i < v.len && !p->failed; i++)
            set_store(p, v.items[i], true);
        n = mk(p, AST_ASSIGN, upto(p, start));
        n->u.assign.targets = vec_freeze(p, &v);
        n->u.assign.value = value;
    } else if (augassign_op(p->tok.kind, &op)) {
        if (!single_target(first)) {
            fail_at(p, first->span, "'%s' is an illegal expression for augmented "
                    "assignment", target_name(first));
            return first;
        }
        set_ctx(p, first, AST_CTX_STORE, false);
        advance(p);
        ast_node *value = star_expressions(p);
        if (!p->failed)
            no_bare_star(p, value);
        n = mk(p, AST_AUGASSIGN, upto(p, start));
        n->u.augassign.target = first;
        n->u.augassign.op = op;
        n->u.augassign.value = value;
    } else if (check(p, TK_COLON)) {
        if (first->kind == AST_TUPLE || first->kind == AST_LIST) {
            fail_at(p, first->span, "only single target (not %s) can be annotated",
                    first->kind == AST_TUPLE ? "tuple" : "list");
            return first;
        }
        if (!single_target(first)) {
            fail_at(p, first->span, "illegal target for annotation");
            return first;
        }
        set_ctx(p, first, AST_CTX_STORE, false);
        advance(p);
        ast_node *ann = expression(p);
        ast_node *value = NULL;
        if (!p->failed && accept(p, TK_EQ)) {
            value = star_expressions(p);
            if (!p->failed)
                no_bare_star(p, value);
        }
        n = mk(p, AST_ANNASSIGN, upto(p, start));
        n->u.annassign.target = first;
        n->u.annassign.annotation = ann;
        n->u.annassign.value = value;
    } else {
        no_bare_star(p, first);
        n = mk(p, AST_EXPR_STMT, upto(p, start));
        n->u.expr.value = first;
    }
    return n;
}

/* One simple statement, without its ';' or NEWLINE. */
static ast_node *simple_stmt(parser *p)
{
    src_span start = p->tok.span;
    ast_node *n;
    switch (p->tok.kind) {
    case TK_PASS:
    case TK_BREAK:
    case TK_CONTINUE: {
        tk_kind k = p->tok.kind;
        advance(p);
        n = mk(p, k == TK_PASS ? AST_PASS : k == TK_BREAK ? AST_BREAK : AST_CONTINUE,
               start);
        if (k == TK_BREAK && p->loops == 0)
            report(p, start, "'break' outside loop");
        if (k == TK_CONTINUE && p->loops == 0)
            report(p, start, "'continue' not properly in loop");
        return n;
    }
    case TK_RETURN:
        advance(p);
        n = mk(p, AST_RETURN, start);
        if (starts_expression(p->tok.kind)) {
            n->u.expr.value = star_expressions(p);
            if (!p->failed)
                no_bare_star(p, n->u.expr.value);
        }
        n->span = upto(p, start);
        if (!p->failed && p->funcs == 0)
            report(p, n->span, "'return' outside function");
        return n;
    case TK_RAISE:
        advance(p);
        n = mk(p, AST_RAISE, start);
        if (starts_expression(p->tok.kind)) {
            n->u.raise.exc = expression(p);
            if (!p->failed && accept(p, TK_FROM))
                n->u.raise.cause = expression(p);
        }
        n->span = upto(p, start);
        return n;
    case TK_ASSERT:
        advance(p);
        n = mk(p, AST_ASSERT, start);
        n->u.assert_.test = expression(p);
        if (!p->failed && accept(p, TK_COMMA))
            n->u.assert_.msg = expression(p);
        n->span = upto(p, start);
        return n;
    case TK_DEL:
        return del_stmt(p);
    case TK_IMPORT:
        return import_stmt(p);
    case TK_FROM:
        return from_stmt(p);
    case TK_GLOBAL:
    case TK_NONLOCAL:
        return global_stmt(p);
    default:
        return expr_stmt(p);
    }
}

/* The complaint when a simple statement is followed by something other
 * than ';' or the end of the line. */
static void fail_after_statement(parser *p, const ast_node *last)
{
    char buf[96];
    const char *found = describe(p, &p->tok, buf, sizeof buf);
    if (last && last->kind == AST_EXPR_STMT && last->u.expr.value->kind == AST_NAME &&
        !strcmp(last->u.expr.value->u.name.id, "print") &&
        starts_expression(p->tok.kind))
        fail_here(p, "missing parentheses in call to 'print'; did you mean print(...)?");
    else if (starts_expression(p->tok.kind))
        fail_here(p, "invalid syntax: found %s where an operator or end of statement "
                  "was expected. Maybe a missing ',' or operator?", found);
    else
        fail_here(p, "invalid syntax: found %s where an operator or end of statement "
                  "was expected", found);
}

/* simple_stmt (';' simple_stmt)* [';'] NEWLINE */
static void simple_stmts(parser *p, vec *out)
{
    for (;;) {
        ast_node *s = simple_stmt(p);
        if (p->failed)
            return;
        vec_push(out, s);
        if (accept(p, TK_SEMI)) {
            if (accept(p, TK_NEWLINE) || check(p, TK_EOF))
                return;
            continue;
        }
        if (accept(p, TK_NEWLINE) || check(p, TK_EOF))
            return;
        fail_after_statement(p, s);
        return;
    }
}

static void statement(parser *p, vec *out)
{
    src_span sp = p->tok.span;
    switch (p->tok.kind) {
    case TK_IF:
        vec_push(out, if_stmt(p));
        return;
    case TK_WHILE:
        vec_push(out, while_stmt(p));
        return;
    case TK_FOR:
        vec_push(out, for_stmt(p));
        return;
    case TK_DEF:
        vec_push(out, funcdef(p, (ast_list){NULL, 0}));
        return;
    case TK_AT:
        vec_push(out, decorated(p));
        return;
    case TK_CLASS:
        vec_push(out, classdef(p, (ast_list){NULL, 0}));
        return;
    case TK_TRY:
        vec_push(out, try_stmt(p));
        return;
    case TK_EXCEPT:
        fail_here(p, "'except' without a matching 'try' (check the indentation)");
        return;
    case TK_FINALLY:
        fail_here(p, "'finally' without a matching 'try' (check the indentation)");
        return;
    case TK_WITH:
        vec_push(out, with_stmt(p));
        return;
    case TK_ASYNC:
        unsupported(p, sp, peek(p) == TK_DEF ? "'async' functions are"
                                             : "'async' statements are", NULL);
        return;
    case TK_ELIF:
        fail_here(p, "'elif' without a matching 'if' (check the indentation)");
        return;
    case TK_ELSE:
        fail_here(p, "'else' without a matching 'if', 'for' or 'while' "
                  "(check the indentation)");
        return;
    case TK_INDENT:
        /* Point at the first token of the indented line. */
        peek(p);
        if (!p->tok_lexerr)
            report(p, p->ahead.span, "unexpected indent");
        skip_block(p);
        return;
    case TK_NEWLINE:
    case TK_SEMI:
        if (check(p, TK_SEMI))
            fail_expected(p, "a statement");
        else
            advance(p);  /* an empty line (the lexer normally drops them) */
        return;
    default:
        simple_stmts(p, out);
        return;
    }
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
    while (!check(&p, TK_EOF) && !diag_full(d)) {
        if (check(&p, TK_DEDENT)) {  /* the lexer reported a bad dedent */
            advance(&p);
            continue;
        }
        statement_recover(&p, &body);
    }
    if (p.held && d->nerrors == 0)
        diag_report(d, DIAG_ERROR, f, p.held_span, "%s", p.held_msg);
    lex_close(p.lx);

    ast_node *m = mk(&p, AST_MODULE, (src_span){1, 1, 1, 1, 0, 0});
    m->u.module.body = vec_freeze(&p, &body);
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

    accept(&p, TK_INDENT);  /* eval() ignores leading blanks */
    ast_node *e = NULL;
    if (check(&p, TK_NEWLINE) || check(&p, TK_EOF) || check(&p, TK_DEDENT))
        fail_expected(&p, "an expression");
    else
        e = star_expressions(&p);
    while (!p.failed && (accept(&p, TK_NEWLINE) || accept(&p, TK_DEDENT)))
        ;
    if (!p.failed && !check(&p, TK_EOF)) {
        char buf[96];
        const char *found = describe(&p, &p.tok, buf, sizeof buf);
        fail_here(&p, "invalid syntax: found %s after the end of the expression%s", found,
                  starts_expression(p.tok.kind) ? "; maybe a missing ',' or operator?" : "");
    }
    /* Let the lexer report what it still has (a bracket never closed). */
    while (!check(&p, TK_EOF))
        advance(&p);
    if (p.deferred && d->nerrors == p.deferred_nerrors)
        diag_report(d, DIAG_ERROR, f, p.deferred_span, "%s", p.deferred_msg);
    if (p.held && d->nerrors == before)
        diag_report(d, DIAG_ERROR, f, p.held_span, "%s", p.held_msg);
    lex_close(p.lx);
    return d->nerrors == before ? e : NULL;
}
