/* parse_stmt.c - the parser's statements: compound ones (if, while, for,
 * def and decorators, class, try, with), simple ones (expressions and
 * assignments, pass, break, continue, return, raise, assert, del, import,
 * from, global, nonlocal), blocks, and the recovery after a syntax error
 * (parse_recover). */
#include "parse_impl.h"

#include <stdlib.h>
#include <string.h>

/* ---- statements ---- */

static void statement(parser *p, vec *out);
static void simple_stmts(parser *p, vec *out);

/* The span from start to the end of the last statement of body (or of the
 * last token when the body is empty). */
static src_span upto_body(const parser *p, src_span start, ast_list body)
{
    if (body.len == 0)
        return parse_upto(p, start);
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
        if (parse_check(p, TK_INDENT))
            level++;
        else if (parse_check(p, TK_DEDENT))
            level--;
        parse_advance(p);
    } while (level > 0 && !parse_check(p, TK_EOF));
}

/* Skip the rest of the logical line and an indented block after it. */
static void skip_line(parser *p)
{
    while (!parse_check(p, TK_EOF) && !parse_check(p, TK_DEDENT) && !parse_accept(p, TK_NEWLINE))
        parse_advance(p);
    if (parse_check(p, TK_INDENT))
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
        while (parse_check(p, TK_ELIF) || parse_check(p, TK_ELSE) || parse_check(p, TK_EXCEPT) ||
               parse_check(p, TK_FINALLY))
            skip_line(p);
    p->failed = false;
}

/* A statement, recovering from a syntax error in it. */
void parse_statement_recover(parser *p, vec *out)
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
        return parse_vec_freeze(p, &v);
    if (!parse_accept(p, TK_NEWLINE)) {
        if (is_compound_header(p->tok.kind))
            parse_fail_here(p, "a compound statement cannot follow ':' on the same line; "
                            "put it on a new, indented line");
        else
            simple_stmts(p, &v);
        return parse_vec_freeze(p, &v);
    }
    if (!parse_check(p, TK_INDENT)) {
        parse_fail_here(p, "expected an indented block after %s on line %d", what, line);
        return parse_vec_freeze(p, &v);
    }
    parse_advance(p);
    if (parse_enter(p, "block")) {
        while (!parse_check(p, TK_DEDENT) && !parse_check(p, TK_EOF) && !diag_full(p->d))
            parse_statement_recover(p, &v);
        parse_accept(p, TK_DEDENT);
    }
    parse_leave(p);
    return parse_vec_freeze(p, &v);
}

/* ['else' ':' block] of if, for and while */
static ast_list else_block(parser *p)
{
    if (p->failed || !parse_check(p, TK_ELSE))
        return (ast_list){NULL, 0};
    int line = p->tok.span.line;
    parse_advance(p);
    parse_expect_msg(p, TK_COLON, "expected ':' after 'else'");
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
        bool elif = parse_check(p, TK_ELIF);
        parse_advance(p);
        ast_node *n = parse_mk(p, AST_IF, start);
        n->u.if_.test = parse_expression(p);
        parse_expect_msg(p, TK_COLON, elif ? "expected ':' after the 'elif' condition"
                                     : "expected ':' after the 'if' condition");
        n->u.if_.body = block(p, elif ? "'elif' statement" : "'if' statement",
                              start.line);
        if (chain.len > 0) {
            ast_node *before = chain.items[chain.len - 1];
            before->u.if_.orelse.items =
                (ast_node **)arena_copy_ptrs(p->a, (void *const *)&n, 1);
            before->u.if_.orelse.len = 1;
        }
        parse_vec_push(&chain, n);
        if (!p->failed && parse_check(p, TK_ELIF) && p->depth + chain.len >= PARSE_MAX_HEIGHT)
            parse_fail_here(p, "too many 'elif' clauses (the limit is %d); split the "
                            "'if' statement", PARSE_MAX_HEIGHT - p->depth - 1);
    } while (!p->failed && parse_check(p, TK_ELIF));
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
    parse_advance(p);
    ast_node *test = parse_expression(p);
    parse_expect_msg(p, TK_COLON, "expected ':' after the 'while' condition");
    p->loops++;
    ast_list body = block(p, "'while' statement", start.line);
    p->loops--;
    ast_list orelse = else_block(p);
    ast_node *n = parse_mk(p, AST_WHILE, upto_body(p, start, orelse.len ? orelse : body));
    n->u.if_.test = test;
    n->u.if_.body = body;
    n->u.if_.orelse = orelse;
    return n;
}

static ast_node *for_stmt(parser *p)
{
    src_span start = p->tok.span;
    parse_advance(p);
    ast_node *target = parse_target_list(p);
    if (!p->failed)
        parse_set_store(p, target, false);
    parse_expect(p, TK_IN, "'in' after the 'for' loop's target");
    ast_node *iter = p->failed ? parse_bad_expr(p) : parse_star_expressions(p);
    parse_expect_msg(p, TK_COLON, "expected ':' after the 'for' loop's iterable");
    p->loops++;
    ast_list body = block(p, "'for' statement", start.line);
    p->loops--;
    ast_list orelse = else_block(p);
    ast_node *n = parse_mk(p, AST_FOR, upto_body(p, start, orelse.len ? orelse : body));
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
    parse_advance(p);
    ast_node *n = parse_mk(p, AST_FUNCDEF, start);
    n->u.funcdef.decorators = decorators;
    if (!parse_check(p, TK_NAME)) {
        parse_fail_expected(p, "a function name after 'def'");
        return n;
    }
    n->u.funcdef.name = p->tok.str;
    n->u.funcdef.name_span = p->tok.span;
    parse_advance(p);
    parse_expect(p, TK_LPAR, "'(' after the function name");
    if (!p->failed)
        n->u.funcdef.params = parse_params(p, TK_RPAR, true);
    parse_expect(p, TK_RPAR, "',' or ')' in the parameter list");
    if (!p->failed && parse_accept(p, TK_ARROW))
        n->u.funcdef.returns = parse_expression(p);
    parse_expect_msg(p, TK_COLON, "expected ':' after the function's signature");
    int loops = p->loops, lambdas = p->lambdas;
    bool yields = p->yields;
    p->loops = 0;
    p->lambdas = 0;
    p->yields = false;
    p->funcs++;
    n->u.funcdef.body = block(p, "'def' statement", start.line);
    n->u.funcdef.generator = p->yields;
    p->funcs--;
    p->loops = loops;
    p->lambdas = lambdas;
    p->yields = yields;
    n->span = upto_body(p, start, n->u.funcdef.body);
    return n;
}

/* 'class' NAME ['(' arguments ')'] ':' block */
static ast_node *classdef(parser *p, ast_list decorators)
{
    src_span start = p->tok.span;
    parse_advance(p);
    ast_node *n = parse_mk(p, AST_CLASSDEF, start);
    n->u.classdef.decorators = decorators;
    if (!parse_check(p, TK_NAME)) {
        parse_fail_expected(p, "a class name after 'class'");
        return n;
    }
    n->u.classdef.name = p->tok.str;
    n->u.classdef.name_span = p->tok.span;
    parse_advance(p);
    if (parse_check(p, TK_LPAR)) {
        /* The bases read as a call's arguments: class C(A, metaclass=M). */
        ast_node *c = parse_call(p, NULL, start);
        n->u.classdef.bases = c->u.call.args;
        n->u.classdef.keywords = c->u.call.keywords;
    }
    parse_expect_msg(p, TK_COLON, "expected ':' after the class name");
    /* A class body is no function: 'return' there is an error, and the
     * loops of an enclosing def do not reach into it. */
    int loops = p->loops, funcs = p->funcs;
    bool yields = p->yields;
    p->loops = 0;
    p->funcs = 0;
    n->u.classdef.body = block(p, "'class' definition", start.line);
    p->funcs = funcs;
    p->loops = loops;
    p->yields = yields;
    n->span = upto_body(p, start, n->u.classdef.body);
    return n;
}

/* 'try' ':' block (except_block+ ['else' ':' block] ['finally' ':' block]
 *                  | 'finally' ':' block)
 * except_block: 'except' [expression ['as' NAME]] ':' block */
static ast_node *try_stmt(parser *p)
{
    src_span start = p->tok.span;
    parse_advance(p);
    parse_expect_msg(p, TK_COLON, "expected ':' after 'try'");
    ast_node *n = parse_mk(p, AST_TRY, start);
    n->u.try_.body = block(p, "'try' statement", start.line);
    vec handlers = {0};
    bool bare = false;
    ast_list last = n->u.try_.body;
    while (!p->failed && parse_check(p, TK_EXCEPT)) {
        src_span hs = p->tok.span;
        parse_advance(p);
        if (parse_check(p, TK_STAR)) {
            parse_unsupported(p, p->tok.span, "'except*' (exception groups) is", NULL);
            break;
        }
        if (bare)
            parse_report(p, hs, "default 'except:' must be last");
        ast_node *h = parse_mk(p, AST_EXCEPT, hs);
        if (!parse_check(p, TK_COLON)) {
            h->u.handler.type = parse_expression(p);
            if (!p->failed && parse_check(p, TK_COMMA)) {
                parse_fail_here(p, "multiple exception types must be parenthesized: "
                                "except (A, B):");
                break;
            }
            if (!p->failed && parse_accept(p, TK_AS)) {
                if (parse_check(p, TK_NAME)) {
                    h->u.handler.name = p->tok.str;
                    parse_advance(p);
                } else {
                    parse_fail_expected(p, "a name after 'as'");
                }
            }
        } else {
            bare = true;
        }
        parse_expect_msg(p, TK_COLON, "expected ':' after the 'except' clause");
        h->u.handler.body = block(p, "'except' statement", hs.line);
        h->span = upto_body(p, hs, h->u.handler.body);
        last = h->u.handler.body;
        parse_vec_push(&handlers, h);
    }
    n->u.try_.handlers = parse_vec_freeze(p, &handlers);
    if (!p->failed && parse_check(p, TK_ELSE)) {
        if (n->u.try_.handlers.len == 0)
            parse_report(p, p->tok.span, "a 'try' statement's 'else' needs an 'except' before it");
        n->u.try_.orelse = else_block(p);
        last = n->u.try_.orelse;
    }
    if (!p->failed && parse_check(p, TK_FINALLY)) {
        int line = p->tok.span.line;
        parse_advance(p);
        parse_expect_msg(p, TK_COLON, "expected ':' after 'finally'");
        n->u.try_.finalbody = block(p, "'finally' statement", line);
        last = n->u.try_.finalbody;
    }
    if (!p->failed && n->u.try_.handlers.len == 0 && n->u.try_.finalbody.len == 0)
        parse_fail_here(p, "expected 'except' or 'finally' block");
    n->span = upto_body(p, start, last);
    return n;
}

/* 'with' with_item (',' with_item)* ':' block
 * with_item: expression ['as' star_target] */
static ast_node *with_stmt(parser *p)
{
    src_span start = p->tok.span;
    parse_advance(p);
    vec items = {0};
    do {
        src_span is = p->tok.span;
        ast_node *it = parse_mk(p, AST_WITHITEM, is);
        it->u.withitem.context = parse_expression(p);
        if (!p->failed && parse_accept(p, TK_AS)) {
            it->u.withitem.target = parse_bitwise_or(p);
            if (!p->failed)
                parse_set_store(p, it->u.withitem.target, false);
        }
        it->span = parse_upto(p, is);
        parse_vec_push(&items, it);
    } while (!p->failed && parse_accept(p, TK_COMMA));
    parse_expect_msg(p, TK_COLON, "expected ':' after the 'with' statement's items");
    ast_node *n = parse_mk(p, AST_WITH, start);
    n->u.with.items = parse_vec_freeze(p, &items);
    n->u.with.body = block(p, "'with' statement", start.line);
    n->span = upto_body(p, start, n->u.with.body);
    return n;
}

/* ---- match ------------------------------------------------------------------ */

/* Is the current token the soft keyword `match` starting a match
 * statement?  It is when a token that can start an expression follows and
 * the logical line ends with ':' outside brackets (`match(x)` and
 * `match = 3` are ordinary statements). */
static bool match_ahead(parser *p)
{
    if (!parse_check(p, TK_NAME) || strcmp(p->tok.str, "match"))
        return false;
    tk_kind next = parse_peek(p);
    if (!parse_starts_expression(next) || next == TK_STAR)
        return false;
    const char *t = p->f->text;
    size_t i = p->tok.span.end_off, n = p->f->len;
    int depth = 0;
    char last = 0;
    while (i < n) {
        char c = t[i];
        if (c == '#') {
            while (i < n && t[i] != '\n')
                i++;
            continue;
        }
        if (c == '\\' && i + 1 < n && t[i + 1] == '\n') {
            i += 2;
            continue;
        }
        if (c == '\n' && depth == 0)
            break;
        if (c == '\'' || c == '"') {
            bool triple = i + 2 < n && t[i + 1] == c && t[i + 2] == c;
            size_t q = triple ? 3 : 1;
            i += q;
            while (i < n) {
                if (t[i] == '\\') {
                    i += 2;
                    continue;
                }
                if (t[i] == c && (!triple || (i + 2 < n && t[i + 1] == c && t[i + 2] == c))) {
                    i += q;
                    break;
                }
                if (t[i] == '\n' && !triple)
                    break;
                i++;
            }
            last = c;
            continue;
        }
        if (c == '(' || c == '[' || c == '{')
            depth++;
        else if ((c == ')' || c == ']' || c == '}') && depth > 0)
            depth--;
        if (c != ' ' && c != '\t' && c != '\r' && c != '\n')
            last = depth == 0 || c == ')' || c == ']' || c == '}' ? c : 0;
        i++;
    }
    return last == ':';
}

/* Is pattern n (an expression read as a pattern) one the grammar allows?
 * Reports a syntax error at the first part that is not. */
static bool pattern_ok(parser *p, const ast_node *n, bool in_seq)
{
    switch (n->kind) {
    case AST_NAME:
    case AST_INT:
    case AST_FLOAT:
    case AST_IMAG:
    case AST_STR:
    case AST_CONST:
        return true;
    case AST_ATTRIBUTE: {
        const ast_node *v = n;
        while (v->kind == AST_ATTRIBUTE)
            v = v->u.attribute.value;
        if (v->kind == AST_NAME)
            return true;
        break;
    }
    case AST_UNARYOP:
        if (n->u.unaryop.op == AST_OP_USUB && (n->u.unaryop.operand->kind == AST_INT ||
                                               n->u.unaryop.operand->kind == AST_FLOAT))
            return true;
        break;
    case AST_BINOP:
        if (n->u.binop.op == AST_OP_BITOR)
            return pattern_ok(p, n->u.binop.left, false) &&
                   pattern_ok(p, n->u.binop.right, false);
        break;
    case AST_STARRED:
        if (in_seq && n->u.starred.value->kind == AST_NAME)
            return true;
        break;
    case AST_TUPLE:
    case AST_LIST: {
        int stars = 0;
        for (int i = 0; i < n->u.seq.elts.len; i++) {
            const ast_node *e = n->u.seq.elts.items[i];
            stars += e->kind == AST_STARRED;
            if (stars > 1) {
                parse_fail_at(p, e->span, "multiple starred names in sequence pattern");
                return false;
            }
            if (!pattern_ok(p, e, true))
                return false;
        }
        return true;
    }
    case AST_DICT:
        for (int i = 0; i < n->u.dict.keys.len; i++) {
            const ast_node *k = n->u.dict.keys.items[i], *v = n->u.dict.values.items[i];
            if (!k) {
                if (v->kind != AST_NAME || i != n->u.dict.keys.len - 1) {
                    parse_fail_at(p, v->span, "a mapping pattern's **rest must be a name, "
                                  "last");
                    return false;
                }
                continue;
            }
            if (k->kind == AST_NAME) {
                parse_fail_at(p, k->span, "a mapping pattern's keys must be literals or "
                              "dotted names, not a capture");
                return false;
            }
            if (!pattern_ok(p, k, false) || !pattern_ok(p, v, false))
                return false;
        }
        return true;
    case AST_CALL: {
        const ast_node *f = n->u.call.func;
        while (f->kind == AST_ATTRIBUTE)
            f = f->u.attribute.value;
        if (f->kind != AST_NAME)
            break;
        for (int i = 0; i < n->u.call.args.len; i++)
            if (n->u.call.args.items[i]->kind == AST_STARRED ||
                !pattern_ok(p, n->u.call.args.items[i], false)) {
                if (n->u.call.args.items[i]->kind == AST_STARRED)
                    parse_fail_at(p, n->u.call.args.items[i]->span, "invalid pattern");
                return false;
            }
        for (int i = 0; i < n->u.call.keywords.len; i++) {
            const ast_node *k = n->u.call.keywords.items[i];
            if (!k->u.keyword.arg) {
                parse_fail_at(p, k->span, "invalid pattern");
                return false;
            }
            if (!pattern_ok(p, k->u.keyword.value, false))
                return false;
        }
        return true;
    }
    default:
        break;
    }
    parse_fail_at(p, n->span, "invalid pattern (a pattern is a name, a literal, a dotted "
                  "name, [..], (..), {..}, Class(..) or alternatives with |)");
    return false;
}

/* The patterns of a case: one, or an open sequence `a, *rest` (a tuple),
 * each parsed as a bitwise_or expression so that `if` stays the guard's. */
static ast_node *case_patterns(parser *p)
{
    src_span start = p->tok.span;
    vec items = {0};
    bool comma = false;
    do {
        if (parse_check(p, TK_COLON) || parse_check(p, TK_IF) || parse_check(p, TK_AS))
            break;
        if (parse_check(p, TK_STAR)) {
            src_span ss = p->tok.span;
            parse_advance(p);
            ast_node *st = parse_mk(p, AST_STARRED, ss);
            st->u.starred.value = parse_bitwise_or(p);
            st->span = parse_upto(p, ss);
            parse_vec_push(&items, st);
        } else {
            parse_vec_push(&items, parse_bitwise_or(p));
        }
        if (p->failed)
            break;
    } while ((comma = parse_accept(p, TK_COMMA)));
    if (!items.len) {
        parse_fail_expected(p, "a pattern");
        return parse_bad_expr(p);
    }
    if (items.len == 1 && !comma && ((ast_node *)items.items[0])->kind != AST_STARRED) {
        ast_node *only = items.items[0];
        free(items.items);
        return only;
    }
    ast_node *t = parse_mk(p, AST_TUPLE, parse_upto(p, start));
    t->u.seq.elts = parse_vec_freeze(p, &items);
    return t;
}

/* 'case' patterns ['as' NAME] ['if' named_expression] ':' block */
static ast_node *case_block(parser *p)
{
    src_span start = p->tok.span;
    parse_advance(p);
    ast_node *n = parse_mk(p, AST_CASE, start);
    n->u.case_.pattern = case_patterns(p);
    if (p->failed || !pattern_ok(p, n->u.case_.pattern, false))
        return n;
    if (parse_accept(p, TK_AS)) {
        if (!parse_check(p, TK_NAME)) {
            parse_fail_expected(p, "a name after 'as'");
            return n;
        }
        n->u.case_.as_name = p->tok.str;
        parse_advance(p);
    }
    if (parse_accept(p, TK_IF))
        n->u.case_.guard = parse_expression(p);
    parse_expect_msg(p, TK_COLON, "expected ':' after the 'case' pattern");
    n->u.case_.body = block(p, "'case' statement", start.line);
    n->span = upto_body(p, start, n->u.case_.body);
    return n;
}

/* "match" subject ':' NEWLINE INDENT case_block+ DEDENT */
static ast_node *match_stmt(parser *p)
{
    src_span start = p->tok.span;
    parse_advance(p);
    ast_node *n = parse_mk(p, AST_MATCH, start);
    n->u.match.subject = parse_star_expressions(p);
    vec cases = {0};
    if (!p->failed)
        parse_expect_msg(p, TK_COLON, "expected ':' after the 'match' subject");
    if (!p->failed && !parse_accept(p, TK_NEWLINE))
        parse_fail_here(p, "expected a new line and 'case' blocks after 'match ...:'");
    if (!p->failed && !parse_accept(p, TK_INDENT))
        parse_fail_here(p, "expected an indented block after 'match' statement on line %d",
                        start.line);
    if (!p->failed) {
        if (parse_enter(p, "match")) {
            while (!p->failed && parse_check(p, TK_NAME) && !strcmp(p->tok.str, "case"))
                parse_vec_push(&cases, case_block(p));
            if (!p->failed && !cases.len)
                parse_fail_here(p, "expected 'case' after 'match ...:'");
            else if (!p->failed && !parse_check(p, TK_DEDENT))
                parse_fail_here(p, "expected 'case' or the end of the 'match' block");
            parse_accept(p, TK_DEDENT);
        }
        parse_leave(p);
    }
    n->u.match.cases = parse_vec_freeze(p, &cases);
    n->span = parse_upto(p, start);
    return n;
}

/* ('@' expression NEWLINE)+ then a def */
static ast_node *decorated(parser *p)
{
    vec decos = {0};
    while (!p->failed && parse_accept(p, TK_AT)) {
        parse_vec_push(&decos, parse_expression(p));
        if (!p->failed && !parse_accept(p, TK_NEWLINE))
            parse_fail_expected(p, "the end of the line after the decorator");
    }
    ast_list list = parse_vec_freeze(p, &decos);
    if (p->failed)
        return parse_bad_expr(p);
    if (parse_check(p, TK_DEF))
        return funcdef(p, list);
    if (parse_check(p, TK_CLASS))
        return classdef(p, list);
    if (parse_check(p, TK_ASYNC))
        parse_unsupported(p, p->tok.span, "'async' functions are", NULL);
    else
        parse_fail_expected(p, "'def' after the decorators");
    return parse_bad_expr(p);
}

/* NAME ('.' NAME)* as one string in the arena. */
static const char *dotted_name(parser *p)
{
    if (!parse_check(p, TK_NAME)) {
        parse_fail_expected(p, "a module name");
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
        parse_advance(p);
        if (!parse_check(p, TK_DOT))
            break;
        parse_advance(p);
        if (!parse_check(p, TK_NAME)) {
            parse_fail_expected(p, "a name after '.' in the module name");
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
    } else if (parse_check(p, TK_NAME)) {
        name = p->tok.str;
        parse_advance(p);
    } else {
        parse_fail_expected(p, "a name to import");
        return parse_bad_expr(p);
    }
    const char *asname = NULL;
    if (!p->failed && parse_accept(p, TK_AS)) {
        if (parse_check(p, TK_NAME)) {
            asname = p->tok.str;
            parse_advance(p);
        } else {
            parse_fail_expected(p, "a name after 'as'");
        }
    }
    ast_node *n = parse_mk(p, AST_ALIAS, parse_upto(p, start));
    n->u.alias.name = name;
    n->u.alias.asname = asname;
    return n;
}

static ast_node *import_stmt(parser *p)
{
    src_span start = p->tok.span;
    parse_advance(p);
    vec v = {0};
    do
        parse_vec_push(&v, alias(p, true));
    while (!p->failed && parse_accept(p, TK_COMMA));
    ast_node *n = parse_mk(p, AST_IMPORT, parse_upto(p, start));
    n->u.import.names = parse_vec_freeze(p, &v);
    return n;
}

/* 'from' ('.' | '...')* [dotted_name] 'import' ('*' | names | '(' names ')') */
static ast_node *from_stmt(parser *p)
{
    src_span start = p->tok.span;
    parse_advance(p);
    int level = 0;
    for (;;) {
        if (parse_accept(p, TK_DOT))
            level++;
        else if (parse_accept(p, TK_ELLIPSIS))
            level += 3;
        else
            break;
    }
    const char *module = NULL;
    if (level == 0 || parse_check(p, TK_NAME))
        module = dotted_name(p);
    parse_expect(p, TK_IMPORT, "'import' after the module name");
    vec v = {0};
    if (!p->failed && parse_check(p, TK_STAR)) {
        ast_node *a = parse_mk(p, AST_ALIAS, p->tok.span);
        a->u.alias.name = "*";
        parse_advance(p);
        parse_vec_push(&v, a);
    } else if (!p->failed) {
        bool parens = parse_accept(p, TK_LPAR);
        for (;;) {
            parse_vec_push(&v, alias(p, false));
            if (p->failed || !parse_accept(p, TK_COMMA))
                break;
            if (!parse_check(p, TK_NAME)) {
                if (!parens)
                    parse_fail_at(p, p->prev.span, "trailing comma not allowed without "
                                  "surrounding parentheses");
                break;
            }
        }
        if (parens)
            parse_expect(p, TK_RPAR, "',' or ')' after the imported names");
    }
    ast_node *n = parse_mk(p, AST_IMPORTFROM, parse_upto(p, start));
    n->u.importfrom.module = module;
    n->u.importfrom.level = level;
    n->u.importfrom.names = parse_vec_freeze(p, &v);
    return n;
}

static ast_node *global_stmt(parser *p)
{
    src_span start = p->tok.span;
    ast_kind kind = parse_check(p, TK_GLOBAL) ? AST_GLOBAL : AST_NONLOCAL;
    parse_advance(p);
    vec v = {0};
    do {
        if (!parse_check(p, TK_NAME)) {
            parse_fail_expected(p, "a name");
            break;
        }
        ast_node *n = parse_mk(p, AST_NAME, p->tok.span);
        n->u.name.id = p->tok.str;
        parse_advance(p);
        parse_vec_push(&v, n);
    } while (parse_accept(p, TK_COMMA));
    ast_node *n = parse_mk(p, kind, parse_upto(p, start));
    n->u.global.names = parse_vec_freeze(p, &v);
    if (!p->failed && kind == AST_NONLOCAL && p->funcs == 0)
        parse_report(p, n->span, "nonlocal declaration not allowed at module level");
    return n;
}

static ast_node *del_stmt(parser *p)
{
    src_span start = p->tok.span;
    parse_advance(p);
    vec v = {0};
    do {
        ast_node *t = parse_bitwise_or(p);
        if (!p->failed)
            parse_set_ctx(p, t, AST_CTX_DEL, false);
        parse_vec_push(&v, t);
    } while (!p->failed && parse_accept(p, TK_COMMA) && parse_starts_expression(p->tok.kind));
    ast_node *n = parse_mk(p, AST_DEL, parse_upto(p, start));
    n->u.del.targets = parse_vec_freeze(p, &v);
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
    ast_node *first = parse_star_expressions_or_yield(p);
    if (p->failed)
        return first;
    ast_op op;
    ast_node *n;
    if (parse_check(p, TK_EQ)) {
        vec v = {0};
        parse_vec_push(&v, first);
        while (!p->failed && parse_accept(p, TK_EQ))
            parse_vec_push(&v, parse_star_expressions_or_yield(p));
        ast_node *value = v.items[--v.len];
        if (!p->failed)
            parse_no_bare_star(p, value);
        for (int i = 0; i < v.len && !p->failed; i++)
            parse_set_store(p, v.items[i], true);
        n = parse_mk(p, AST_ASSIGN, parse_upto(p, start));
        n->u.assign.targets = parse_vec_freeze(p, &v);
        n->u.assign.value = value;
    } else if (augassign_op(p->tok.kind, &op)) {
        if (!single_target(first)) {
            parse_fail_at(p, first->span, "'%s' is an illegal expression for augmented "
                          "assignment", parse_target_name(first));
            return first;
        }
        parse_set_ctx(p, first, AST_CTX_STORE, false);
        parse_advance(p);
        ast_node *value = parse_star_expressions_or_yield(p);
        if (!p->failed)
            parse_no_bare_star(p, value);
        n = parse_mk(p, AST_AUGASSIGN, parse_upto(p, start));
        n->u.augassign.target = first;
        n->u.augassign.op = op;
        n->u.augassign.value = value;
    } else if (parse_check(p, TK_COLON)) {
        if (first->kind == AST_TUPLE || first->kind == AST_LIST) {
            parse_fail_at(p, first->span, "only single target (not %s) can be annotated",
                          first->kind == AST_TUPLE ? "tuple" : "list");
            return first;
        }
        if (!single_target(first)) {
            parse_fail_at(p, first->span, "illegal target for annotation");
            return first;
        }
        parse_set_ctx(p, first, AST_CTX_STORE, false);
        parse_advance(p);
        ast_node *ann = parse_expression(p);
        ast_node *value = NULL;
        if (!p->failed && parse_accept(p, TK_EQ)) {
            value = parse_star_expressions_or_yield(p);
            if (!p->failed)
                parse_no_bare_star(p, value);
        }
        n = parse_mk(p, AST_ANNASSIGN, parse_upto(p, start));
        n->u.annassign.target = first;
        n->u.annassign.annotation = ann;
        n->u.annassign.value = value;
    } else {
        parse_no_bare_star(p, first);
        n = parse_mk(p, AST_EXPR_STMT, parse_upto(p, start));
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
        parse_advance(p);
        n = parse_mk(p, k == TK_PASS ? AST_PASS : k == TK_BREAK ? AST_BREAK : AST_CONTINUE,
                     start);
        if (k == TK_BREAK && p->loops == 0)
            parse_report(p, start, "'break' outside loop");
        if (k == TK_CONTINUE && p->loops == 0)
            parse_report(p, start, "'continue' not properly in loop");
        return n;
    }
    case TK_RETURN:
        parse_advance(p);
        n = parse_mk(p, AST_RETURN, start);
        if (parse_starts_expression(p->tok.kind)) {
            n->u.expr.value = parse_star_expressions(p);
            if (!p->failed)
                parse_no_bare_star(p, n->u.expr.value);
        }
        n->span = parse_upto(p, start);
        if (!p->failed && p->funcs == 0)
            parse_report(p, n->span, "'return' outside function");
        return n;
    case TK_RAISE:
        parse_advance(p);
        n = parse_mk(p, AST_RAISE, start);
        if (parse_starts_expression(p->tok.kind)) {
            n->u.raise.exc = parse_expression(p);
            if (!p->failed && parse_accept(p, TK_FROM))
                n->u.raise.cause = parse_expression(p);
        }
        n->span = parse_upto(p, start);
        return n;
    case TK_ASSERT:
        parse_advance(p);
        n = parse_mk(p, AST_ASSERT, start);
        n->u.assert_.test = parse_expression(p);
        if (!p->failed && parse_accept(p, TK_COMMA))
            n->u.assert_.msg = parse_expression(p);
        n->span = parse_upto(p, start);
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
    const char *found = parse_describe(p, &p->tok, buf, sizeof buf);
    if (last && last->kind == AST_EXPR_STMT && last->u.expr.value->kind == AST_NAME &&
        !strcmp(last->u.expr.value->u.name.id, "print") &&
        parse_starts_expression(p->tok.kind))
        parse_fail_here(p, "missing parentheses in call to 'print'; did you mean print(...)?");
    else if (parse_starts_expression(p->tok.kind))
        parse_fail_here(p, "invalid syntax: found %s where an operator or end of statement "
                        "was expected. Maybe a missing ',' or operator?", found);
    else
        parse_fail_here(p, "invalid syntax: found %s where an operator or end of statement "
                        "was expected", found);
}

/* simple_stmt (';' simple_stmt)* [';'] NEWLINE */
static void simple_stmts(parser *p, vec *out)
{
    for (;;) {
        ast_node *s = simple_stmt(p);
        if (p->failed)
            return;
        parse_vec_push(out, s);
        if (parse_accept(p, TK_SEMI)) {
            if (parse_accept(p, TK_NEWLINE) || parse_check(p, TK_EOF))
                return;
            continue;
        }
        if (parse_accept(p, TK_NEWLINE) || parse_check(p, TK_EOF))
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
        parse_vec_push(out, if_stmt(p));
        return;
    case TK_WHILE:
        parse_vec_push(out, while_stmt(p));
        return;
    case TK_FOR:
        parse_vec_push(out, for_stmt(p));
        return;
    case TK_DEF:
        parse_vec_push(out, funcdef(p, (ast_list){NULL, 0}));
        return;
    case TK_AT:
        parse_vec_push(out, decorated(p));
        return;
    case TK_CLASS:
        parse_vec_push(out, classdef(p, (ast_list){NULL, 0}));
        return;
    case TK_TRY:
        parse_vec_push(out, try_stmt(p));
        return;
    case TK_EXCEPT:
        parse_fail_here(p, "'except' without a matching 'try' (check the indentation)");
        return;
    case TK_FINALLY:
        parse_fail_here(p, "'finally' without a matching 'try' (check the indentation)");
        return;
    case TK_WITH:
        parse_vec_push(out, with_stmt(p));
        return;
    case TK_ASYNC:
        parse_unsupported(p, sp, parse_peek(p) == TK_DEF ? "'async' functions are"
                                             : "'async' statements are", NULL);
        return;
    case TK_ELIF:
        parse_fail_here(p, "'elif' without a matching 'if' (check the indentation)");
        return;
    case TK_ELSE:
        parse_fail_here(p, "'else' without a matching 'if', 'for' or 'while' "
                        "(check the indentation)");
        return;
    case TK_INDENT:
        /* Point at the first token of the indented line. */
        parse_peek(p);
        if (!p->tok_lexerr)
            parse_report(p, p->ahead.span, "unexpected indent");
        skip_block(p);
        return;
    case TK_NEWLINE:
    case TK_SEMI:
        if (parse_check(p, TK_SEMI))
            parse_fail_expected(p, "a statement");
        else
            parse_advance(p);  /* an empty line (the lexer normally drops them) */
        return;
    default:
        if (match_ahead(p)) {
            parse_vec_push(out, match_stmt(p));
            return;
        }
        simple_stmts(p, out);
        return;
    }
}
