/* parse_impl.h - what the parser's files share: parse.c (tokens,
 * diagnostics, nodes, targets, the entry points), parse_expr.c
 * (expressions and parameters), parse_fstring.c (string literals and
 * f-strings) and parse_stmt.c (statements).  Not for other modules: their
 * interface is parse.h. */
#ifndef TRITSIM_PARSE_IMPL_H
#define TRITSIM_PARSE_IMPL_H

#include <stdbool.h>

#include "lex.h"
#include "parse.h"

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
    int lambdas;           /* enclosing lambdas */
    bool yields;           /* the current def has a yield (a generator) */
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

/* A growable vector of nodes, frozen into the arena (parse_vec_freeze). */
typedef struct vec {
    void **items;
    int len, cap;
} vec;

/* ---- parse.c ---------------------------------------------------------- */

void parse_vec_push(vec *v, void *x);
ast_list parse_vec_freeze(parser *p, vec *v);

/* Tokens: move to the next; the kind of the one after the current one;
 * is the current one k; consume it if it is k. */
void parse_advance(parser *p);
tk_kind parse_peek(parser *p);
bool parse_check(const parser *p, tk_kind k);
bool parse_accept(parser *p, tk_kind k);

/* A semantic error: reported, but the parse goes on. */
void parse_report(parser *p, src_span sp, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* A syntax error at sp: the current statement is abandoned. */
void parse_fail_at(parser *p, src_span sp, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* A syntax error at the current token. */
void parse_fail_here(parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* How a token is named in "found ..." (buf holds at least 64 bytes). */
const char *parse_describe(const parser *p, const lex_token *t, char *buf, size_t size);
/* "expected X, found Y" at the current token. */
void parse_fail_expected(parser *p, const char *what);
/* Consume a k, or fail: "expected what, found ...", or msg itself. */
bool parse_expect(parser *p, tk_kind k, const char *what);
bool parse_expect_msg(parser *p, tk_kind k, const char *msg);

/* A new node of kind k. */
ast_node *parse_mk(parser *p, ast_kind k, src_span sp);
/* The span from start to the end of the last token consumed. */
src_span parse_upto(const parser *p, src_span start);
/* The empty span between the end of a and the start of b. */
src_span parse_span_between(src_span a, src_span b);
/* What a failed rule returns, so that callers need no NULL checks. */
ast_node *parse_bad_expr(parser *p);
/* After adding a link to a chain: is the tree still shallow enough? */
bool parse_chain_ok(parser *p, ast_node *n);
/* Count one level of nesting; false (and an error) past the limit.  Every
 * call is paired with parse_leave. */
bool parse_enter(parser *p, const char *what);
void parse_leave(parser *p);
void parse_unsupported(parser *p, src_span sp, const char *what, const char *hint);
/* Tokens that can begin an expression (star_expression). */
bool parse_starts_expression(tk_kind k);

/* Targets: how CPython names an expression that cannot be one; set ctx on
 * a target and everything in it (false after an error); a whole
 * assignment or loop target; a *x where an ordinary value is needed. */
const char *parse_target_name(const ast_node *n);
bool parse_set_ctx(parser *p, ast_node *n, ast_ctx ctx, bool hint);
bool parse_set_store(parser *p, ast_node *n, bool hint);
void parse_no_bare_star(parser *p, const ast_node *n);

/* ---- parse_expr.c: the rules of Python's grammar they are named after -- */

ast_node *parse_target_list(parser *p);
/* The arguments of a call; the current token is '('. */
ast_node *parse_call(parser *p, ast_node *func, src_span start);
ast_node *parse_bitwise_or(parser *p);
ast_node *parse_expression(parser *p);
ast_node *parse_star_expressions(parser *p);
/* yield_expr ('yield' [star_expressions] | 'yield' 'from' expression) when
 * the current token is 'yield', else star_expressions: the right-hand side
 * of assignments and expression statements. */
ast_node *parse_star_expressions_or_yield(parser *p);
/* Parameters up to close (')' of a def, ':' of a lambda). */
ast_list parse_params(parser *p, tk_kind close, bool annotations);

/* ---- parse_fstring.c ---------------------------------------------------- */

/* Adjacent string literals and f-strings, joined into one node. */
ast_node *parse_strings(parser *p);

/* ---- parse_stmt.c ------------------------------------------------------- */

/* A statement, recovering from a syntax error in it. */
void parse_statement_recover(parser *p, vec *out);

#endif
