/* parse_fstring.c - the parser's string literals: adjacent literals and
 * f-strings joined into one node, f-string fields with their conversion
 * and format spec (which may hold fields of its own). */
#include "parse_impl.h"

#include <stdlib.h>
#include <string.h>

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
        n = parse_mk(p, AST_STR, b->text_span);
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
        parse_vec_push(&b->parts, s);
}

static void fs_pieces(parser *p, fs_build *b, tk_kind end);

/* A replacement field: '{' expr ['='] ['!' conv] [':' spec] '}'. */
static ast_node *fs_field(parser *p, fs_build *b)
{
    src_span start = p->tok.span;
    parse_advance(p);
    if (parse_check(p, TK_RBRACE)) {
        parse_fail_here(p, "f-string: valid expression required before '}'");
        return parse_bad_expr(p);
    }
    if (parse_check(p, TK_LAMBDA)) {
        /* Its ':' would start the format spec. */
        parse_fail_here(p, "f-string: lambda expressions are not allowed without parentheses");
        return parse_bad_expr(p);
    }
    ast_node *value = parse_star_expressions(p);
    if (p->failed)
        return value;
    int conv = 0;
    bool debug = false;
    if (parse_check(p, TK_EQ)) {
        /* f'{x = }' shows its own text, from the '{' to the '!', ':' or
         * '}', before the value. */
        parse_advance(p);
        src_span text = parse_span_between(start, p->tok.span);
        if (text.off <= text.end_off && text.end_off <= p->f->len)
            fs_text(b, p->f->text + text.off, text.end_off - text.off, text);
        debug = true;
    }
    fs_flush(p, b);
    if (parse_check(p, TK_EXCLAIM)) {
        src_span bang = p->tok.span;
        parse_advance(p);
        if (!parse_check(p, TK_NAME)) {
            parse_fail_at(p, bang, "f-string: missing conversion character");
            return value;
        }
        const char *c = p->tok.str;
        if (strlen(c) != 1 || !strchr("rsa", c[0])) {
            parse_fail_at(p, p->tok.span, "f-string: invalid conversion character '%s': "
                          "expected 's', 'r', or 'a'", c);
            return value;
        }
        conv = c[0];
        parse_advance(p);
    }
    ast_node *spec = NULL;
    if (parse_check(p, TK_COLON)) {
        src_span colon = p->tok.span;
        parse_advance(p);
        fs_build sb = {0};
        fs_pieces(p, &sb, TK_RBRACE);
        fs_flush(p, &sb);
        free(sb.text);
        spec = parse_mk(p, AST_FSTRING, parse_span_between(colon, p->tok.span));
        spec->u.fstring.parts = parse_vec_freeze(p, &sb.parts);
    } else if (debug && conv == 0) {
        conv = 'r';
    }
    parse_expect(p, TK_RBRACE, "'}' to close the f-string field");
    ast_node *n = parse_mk(p, AST_FORMATTED, parse_upto(p, start));
    n->u.formatted.value = value;
    n->u.formatted.conv = conv;
    n->u.formatted.spec = spec;
    return n;
}

/* Literal text and fields up to (not including) end. */
static void fs_pieces(parser *p, fs_build *b, tk_kind end)
{
    while (!p->failed && !parse_check(p, end)) {
        if (parse_check(p, TK_FSTRING_MIDDLE)) {
            fs_text(b, p->tok.str, p->tok.len, p->tok.span);
            parse_advance(p);
        } else if (parse_check(p, TK_LBRACE)) {
            if (!parse_enter(p, "f-string")) {
                parse_leave(p);
                return;
            }
            ast_node *field = fs_field(p, b);
            parse_leave(p);
            parse_vec_push(&b->parts, field);
        } else if (end == TK_RBRACE) {
            parse_fail_expected(p, "'}' to close the f-string field");
        } else {
            parse_fail_here(p, "unterminated f-string literal");
        }
    }
}

/* Adjacent string literals: one STR, or one FSTRING if any is an f-string. */
ast_node *parse_strings(parser *p)
{
    src_span start = p->tok.span;
    fs_build b = {0};
    bool fstring = false;
    /* bytes literals join only with bytes literals, as in Python */
    bool bytes = parse_check(p, TK_STRING) && (p->tok.flags & TKF_BYTES);
    while (!p->failed && (parse_check(p, TK_STRING) || parse_check(p, TK_FSTRING_START))) {
        if (parse_check(p, TK_FSTRING_START) ? bytes : bytes != !!(p->tok.flags & TKF_BYTES)) {
            parse_fail_at(p, p->tok.span, "cannot mix bytes and nonbytes literals");
            break;
        }
        if (parse_check(p, TK_STRING)) {
            fs_text(&b, p->tok.str, p->tok.len, p->tok.span);
            parse_advance(p);
            continue;
        }
        fstring = true;
        parse_advance(p);
        fs_pieces(p, &b, TK_FSTRING_END);
        parse_accept(p, TK_FSTRING_END);
    }
    ast_node *n;
    if (!fstring) {
        n = fs_take_text(p, &b);
        if (!n)
            n = parse_bad_expr(p);
        else {
            n->span = parse_upto(p, start);
            n->u.str.bytes = bytes;
        }
    } else {
        fs_flush(p, &b);
        n = parse_mk(p, AST_FSTRING, parse_upto(p, start));
        n->u.fstring.parts = parse_vec_freeze(p, &b.parts);
    }
    free(b.text);
    free(b.parts.items);
    return n;
}
