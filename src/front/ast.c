/* ast.c - names of node kinds and operators; ast_print, the stable
 * S-expression of `tritsim parse --ast` that the tests compare; and
 * ast_any, a search through a tree.
 *
 * What each node prints (atoms bare, children as S-expressions; [x] when
 * present; CTX is `store` or `del`, never shown for a load):
 *
 *   (module STMT...)
 *   (expr VALUE)
 *   (assign TARGET VALUE)                   one target
 *   (assign (targets T1 T2...) VALUE)       t1 = t2 = value
 *   (augassign += TARGET VALUE)             any of the 13 operators
 *   (annassign TARGET (annotation A) [VALUE])
 *   (def NAME [(decorators D...)] (params P...) [(returns R)] (body STMT...))
 *   (return [VALUE])
 *   (if TEST (body STMT...) [(else STMT...)])   an elif is an (if ...) alone
 *   (while TEST (body ...) [(else ...)])         in the (else ...)
 *   (for TARGET ITER (body ...) [(else ...)])
 *   (break)  (continue)  (pass)
 *   (assert TEST [MSG])
 *   (raise [EXC [(cause CAUSE)]])
 *   (del TARGET...)
 *   (import ALIAS...)
 *   (from MODULE ALIAS...)                  MODULE with its leading dots
 *   (alias NAME [as ASNAME])                NAME dotted, or * in from-import
 *   (global NAME...)  (nonlocal NAME...)    each NAME a (name ...) node
 *   (class NAME [(decorators D...)] [(bases B...)] [KEYWORD...] (body STMT...))
 *   (try (body ...) [HANDLER...] [(else ...)] [(finally ...)])
 *   (except [TYPE [(as NAME)]] (body ...))  one handler of a try
 *   (with ITEM... (body ...))
 *   (withitem CONTEXT [TARGET])             with CONTEXT [as TARGET]
 *   (name ID [CTX])
 *   (int 42)  (int big)                     big: beyond 64 bits
 *   (float 0.5)  (imag 2j)                  as Python's repr
 *   (str 'text')                            as Python's repr
 *   (fstring PART...)                       parts are (str ...) and (field ...)
 *   (field VALUE [!r|!s|!a] [SPEC])         SPEC an (fstring ...)
 *   (const None|True|False|...)
 *   (attr VALUE NAME [CTX])
 *   (index VALUE INDEX [CTX])
 *   (slice LOWER UPPER STEP)                _ for an absent part
 *   (call FUNC ARG... KEYWORD...)
 *   (kw NAME VALUE)  (kw ** VALUE)
 *   (binop OP LEFT RIGHT)  (unary OP X)     OP: + - * ... u+ u- ~ not
 *   (boolop and|or VALUE...)
 *   (compare LEFT OP RIGHT [OP RIGHT]...)   OP: == != < ... is, is not, in, not in
 *   (ifexp BODY if TEST else ORELSE)
 *   (lambda (params P...) BODY)
 *   (tuple ELT... [CTX])  (list ELT... [CTX])  (set ELT...)
 *   (dict (item KEY VALUE)... (item ** VALUE)...)
 *   (listcomp ELT GEN...)  (setcomp ELT GEN...)  (genexp ELT GEN...)
 *   (dictcomp KEY VALUE GEN...)
 *   (for-in TARGET ITER [(if COND)]...)
 *   (starred VALUE [CTX])
 *   (param NAME [posonly|kwonly] [(annotation A)] [(default D)])
 *   (param *NAME [(annotation A)])  (param **NAME [(annotation A)])
 *
 * Layout.  A node (or labelled group) goes on one line when it holds no
 * statement list and that line, from its indentation, is at most 80
 * columns (not counting the closing parentheses of its parents).  Otherwise
 * the atoms that start it stay on the first line and every later item goes
 * on a line of its own, two spaces deeper.  The module, (body ...) and
 * (else ...) always put each statement on its own line.  With spans, every
 * node's name is followed by @line:col-end_line:end_col. */
#include "ast.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "pyformat.h"
#include "strbuf.h"

static const char *const ast_kind_names[] = {
#define AST_KIND_NAME(name, text) text,
    AST_KINDS(AST_KIND_NAME)
#undef AST_KIND_NAME
};

static const char *const ast_op_names[] = {
#define AST_OP_NAME(name, text) text,
    AST_OPS(AST_OP_NAME)
#undef AST_OP_NAME
};

const char *ast_kind_name(ast_kind k)
{
    return (unsigned)k < AST__COUNT ? ast_kind_names[k] : "?";
}

const char *ast_op_name(ast_op op)
{
    return (unsigned)op < AST_OP__COUNT ? ast_op_names[op] : "?";
}

/* ---- the S-expression being built ---- */

enum { AST_WIDTH = 80 };

#define SX_NO_FIT SIZE_MAX  /* flat width of an sx that never fits one line */

typedef struct sx sx;

/* One item: an atom (text) or a nested S-expression. */
typedef struct sx_item {
    char *atom;
    sx *sub;
} sx_item;

struct sx {
    char *head;      /* "(name" with its span */
    bool block;      /* a statement list: one item per line, always */
    size_t flat;     /* width of the one-line form, or SX_NO_FIT */
    sx_item *items;
    int n, cap;
};

static char *ast_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = xmalloc(n);
    memcpy(d, s, n);
    return d;
}

static sx *sx_new(const char *label, const ast_node *n, bool spans)
{
    sx *s = xcalloc(1, sizeof *s);
    strbuf b = {0};
    strbuf_printf(&b, "(%s", label);
    if (n && spans)
        strbuf_printf(&b, " @%d:%d-%d:%d", n->span.line, n->span.col,
                      n->span.end_line, n->span.end_col);
    s->head = strbuf_detach(&b);
    return s;
}

static void sx_push(sx *s, char *atom, sx *sub)
{
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 4;
        s->items = xrealloc(s->items, (size_t)s->cap * sizeof *s->items);
    }
    s->items[s->n].atom = atom;
    s->items[s->n].sub = sub;
    s->n++;
}

static void sx_atom(sx *s, const char *text)
{
    sx_push(s, ast_strdup(text), NULL);
}

static void sx_atomf(sx *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sx_atomf(sx *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int len = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *text = xmalloc((size_t)len + 1);
    va_start(ap, fmt);
    vsnprintf(text, (size_t)len + 1, fmt, ap);
    va_end(ap);
    sx_push(s, text, NULL);
}

/* The width of s on one line, once all its items are in. */
static void sx_close(sx *s)
{
    if (s->block) {
        s->flat = SX_NO_FIT;
        return;
    }
    size_t w = strlen(s->head) + 1;  /* and the ')' */
    for (int i = 0; i < s->n; i++) {
        size_t iw = s->items[i].atom ? strlen(s->items[i].atom) : s->items[i].sub->flat;
        if (iw == SX_NO_FIT) {
            s->flat = SX_NO_FIT;
            return;
        }
        w += 1 + iw;
    }
    s->flat = w;
}

static void sx_free(sx *s)
{
    for (int i = 0; i < s->n; i++) {
        free(s->items[i].atom);
        if (s->items[i].sub)
            sx_free(s->items[i].sub);
    }
    free(s->items);
    free(s->head);
    free(s);
}

/* ---- nodes to S-expressions ---- */

static sx *sx_of(const ast_node *n, bool spans);

static void sx_child(sx *s, const ast_node *n, bool spans)
{
    sx_push(s, NULL, sx_of(n, spans));
}

static void sx_children(sx *s, ast_list l, bool spans)
{
    for (int i = 0; i < l.len; i++)
        sx_child(s, l.items[i], spans);
}

/* (label child...), a statement list when block is set. */
static void sx_group(sx *s, const char *label, ast_list l, bool block, bool spans)
{
    sx *g = sx_new(label, NULL, spans);
    g->block = block;
    sx_children(g, l, spans);
    sx_close(g);
    sx_push(s, NULL, g);
}

/* (label child) for a single optional child. */
static void sx_labelled(sx *s, const char *label, const ast_node *n, bool spans)
{
    if (!n)
        return;
    sx *g = sx_new(label, NULL, spans);
    sx_child(g, n, spans);
    sx_close(g);
    sx_push(s, NULL, g);
}

static void sx_ctx(sx *s, ast_ctx ctx)
{
    if (ctx == AST_CTX_STORE)
        sx_atom(s, "store");
    else if (ctx == AST_CTX_DEL)
        sx_atom(s, "del");
}

/* A child, or _ where an optional one is absent. */
static void sx_child_or_blank(sx *s, const ast_node *n, bool spans)
{
    if (n)
        sx_child(s, n, spans);
    else
        sx_atom(s, "_");
}

static void sx_float(sx *s, double v, bool imag)
{
    strbuf b = {0};
    pyformat_float_repr(&b, v);
    /* Python writes 2j, not 2.0j. */
    if (imag) {
        if (b.len >= 2 && !strcmp(strbuf_cstr(&b) + b.len - 2, ".0"))
            strbuf_truncate(&b, b.len - 2);
        strbuf_putc(&b, 'j');
    }
    sx_push(s, strbuf_detach(&b), NULL);
}

static void sx_str(sx *s, const char *text, size_t len)
{
    strbuf b = {0};
    pyformat_str_repr(&b, text ? text : "", text ? len : 0);
    sx_push(s, strbuf_detach(&b), NULL);
}

static void sx_param(sx *s, const ast_node *n, bool spans)
{
    const char *prefix = "";
    if (n->u.param.kind == AST_PARAM_VARARGS)
        prefix = "*";
    else if (n->u.param.kind == AST_PARAM_KWARGS)
        prefix = "**";
    sx_atomf(s, "%s%s", prefix, n->u.param.name);
    if (n->u.param.kind == AST_PARAM_POSONLY)
        sx_atom(s, "posonly");
    else if (n->u.param.kind == AST_PARAM_KWONLY)
        sx_atom(s, "kwonly");
    sx_labelled(s, "annotation", n->u.param.annotation, spans);
    sx_labelled(s, "default", n->u.param.default_, spans);
}

static void sx_dict(sx *s, const ast_node *n, bool spans)
{
    for (int i = 0; i < n->u.dict.values.len; i++) {
        sx *item = sx_new("item", NULL, spans);
        const ast_node *key = i < n->u.dict.keys.len ? n->u.dict.keys.items[i] : NULL;
        if (key)
            sx_child(item, key, spans);
        else
            sx_atom(item, "**");
        sx_child(item, n->u.dict.values.items[i], spans);
        sx_close(item);
        sx_push(s, NULL, item);
    }
}

static void sx_fields(sx *s, const ast_node *n, bool spans)
{
    switch (n->kind) {
    case AST_MODULE:
        s->block = true;
        sx_children(s, n->u.module.body, spans);
        break;
    case AST_EXPR_STMT:
    case AST_RETURN:
    case AST_YIELD:
    case AST_YIELDFROM:
        if (n->u.expr.value)
            sx_child(s, n->u.expr.value, spans);
        break;
    case AST_ASSIGN:
        if (n->u.assign.targets.len == 1)
            sx_child(s, n->u.assign.targets.items[0], spans);
        else
            sx_group(s, "targets", n->u.assign.targets, false, spans);
        sx_child(s, n->u.assign.value, spans);
        break;
    case AST_AUGASSIGN:
        sx_atomf(s, "%s=", ast_op_name(n->u.augassign.op));
        sx_child(s, n->u.augassign.target, spans);
        sx_child(s, n->u.augassign.value, spans);
        break;
    case AST_ANNASSIGN:
        sx_child(s, n->u.annassign.target, spans);
        sx_labelled(s, "annotation", n->u.annassign.annotation, spans);
        if (n->u.annassign.value)
            sx_child(s, n->u.annassign.value, spans);
        break;
    case AST_FUNCDEF:
        sx_atom(s, n->u.funcdef.name ? n->u.funcdef.name : "?");
        if (n->u.funcdef.decorators.len)
            sx_group(s, "decorators", n->u.funcdef.decorators, false, spans);
        sx_group(s, "params", n->u.funcdef.params, false, spans);
        sx_labelled(s, "returns", n->u.funcdef.returns, spans);
        sx_group(s, "body", n->u.funcdef.body, true, spans);
        break;
    case AST_IF:
    case AST_WHILE:
        sx_child(s, n->u.if_.test, spans);
        sx_group(s, "body", n->u.if_.body, true, spans);
        if (n->u.if_.orelse.len)
            sx_group(s, "else", n->u.if_.orelse, true, spans);
        break;
    case AST_FOR:
        sx_child(s, n->u.for_.target, spans);
        sx_child(s, n->u.for_.iter, spans);
        sx_group(s, "body", n->u.for_.body, true, spans);
        if (n->u.for_.orelse.len)
            sx_group(s, "else", n->u.for_.orelse, true, spans);
        break;
    case AST_BREAK:
    case AST_CONTINUE:
    case AST_PASS:
        break;
    case AST_ASSERT:
        sx_child(s, n->u.assert_.test, spans);
        if (n->u.assert_.msg)
            sx_child(s, n->u.assert_.msg, spans);
        break;
    case AST_RAISE:
        if (n->u.raise.exc)
            sx_child(s, n->u.raise.exc, spans);
        sx_labelled(s, "cause", n->u.raise.cause, spans);
        break;
    case AST_DEL:
        sx_children(s, n->u.del.targets, spans);
        break;
    case AST_IMPORT:
        sx_children(s, n->u.import.names, spans);
        break;
    case AST_IMPORTFROM: {
        strbuf b = {0};
        strbuf_repeat(&b, '.', n->u.importfrom.level > 0 ? (size_t)n->u.importfrom.level : 0);
        strbuf_puts(&b, n->u.importfrom.module ? n->u.importfrom.module : "");
        sx_push(s, strbuf_detach(&b), NULL);
        sx_children(s, n->u.importfrom.names, spans);
        break;
    }
    case AST_ALIAS:
        sx_atom(s, n->u.alias.name);
        if (n->u.alias.asname) {
            sx_atom(s, "as");
            sx_atom(s, n->u.alias.asname);
        }
        break;
    case AST_GLOBAL:
    case AST_NONLOCAL:
        sx_children(s, n->u.global.names, spans);
        break;
    case AST_CLASSDEF:
        sx_atom(s, n->u.classdef.name ? n->u.classdef.name : "?");
        if (n->u.classdef.decorators.len)
            sx_group(s, "decorators", n->u.classdef.decorators, false, spans);
        if (n->u.classdef.bases.len)
            sx_group(s, "bases", n->u.classdef.bases, false, spans);
        sx_children(s, n->u.classdef.keywords, spans);
        sx_group(s, "body", n->u.classdef.body, true, spans);
        break;
    case AST_TRY:
        sx_group(s, "body", n->u.try_.body, true, spans);
        sx_children(s, n->u.try_.handlers, spans);
        if (n->u.try_.orelse.len)
            sx_group(s, "else", n->u.try_.orelse, true, spans);
        if (n->u.try_.finalbody.len)
            sx_group(s, "finally", n->u.try_.finalbody, true, spans);
        break;
    case AST_EXCEPT:
        if (n->u.handler.type)
            sx_child(s, n->u.handler.type, spans);
        if (n->u.handler.name) {
            sx *as = sx_new("as", NULL, spans);
            sx_atom(as, n->u.handler.name);
            sx_close(as);
            sx_push(s, NULL, as);
        }
        sx_group(s, "body", n->u.handler.body, true, spans);
        break;
    case AST_WITH:
        sx_children(s, n->u.with.items, spans);
        sx_group(s, "body", n->u.with.body, true, spans);
        break;
    case AST_WITHITEM:
        sx_child(s, n->u.withitem.context, spans);
        if (n->u.withitem.target)
            sx_child(s, n->u.withitem.target, spans);
        break;
    case AST_MATCH:
        sx_child(s, n->u.match.subject, spans);
        sx_children(s, n->u.match.cases, spans);
        break;
    case AST_CASE:
        sx_child(s, n->u.case_.pattern, spans);
        if (n->u.case_.as_name) {
            sx *as = sx_new("as", NULL, spans);
            sx_atom(as, n->u.case_.as_name);
            sx_close(as);
            sx_push(s, NULL, as);
        }
        if (n->u.case_.guard) {
            sx *g = sx_new("if", NULL, spans);
            sx_child(g, n->u.case_.guard, spans);
            sx_close(g);
            sx_push(s, NULL, g);
        }
        sx_group(s, "body", n->u.case_.body, true, spans);
        break;
    case AST_NAME:
        sx_atom(s, n->u.name.id);
        sx_ctx(s, n->u.name.ctx);
        break;
    case AST_INT:
        if (n->u.int_.big)
            sx_atom(s, "big");
        else
            sx_atomf(s, "%" PRIu64, n->u.int_.value);
        break;
    case AST_FLOAT:
    case AST_IMAG:
        sx_float(s, n->u.float_.value, n->kind == AST_IMAG);
        break;
    case AST_STR:
        if (n->u.str.bytes) {
            /* a bytes literal: its text with a 'b' before it */
            strbuf b = {0};
            strbuf_putc(&b, 'b');
            pyformat_str_repr(&b, n->u.str.s, n->u.str.len);
            sx_push(s, strbuf_detach(&b), NULL);
        } else
            sx_str(s, n->u.str.s, n->u.str.len);
        break;
    case AST_FSTRING:
        sx_children(s, n->u.fstring.parts, spans);
        break;
    case AST_FORMATTED:
        sx_child(s, n->u.formatted.value, spans);
        if (n->u.formatted.conv)
            sx_atomf(s, "!%c", n->u.formatted.conv);
        if (n->u.formatted.spec)
            sx_child(s, n->u.formatted.spec, spans);
        break;
    case AST_CONST: {
        static const char *const names[] = {"None", "True", "False", "..."};
        unsigned v = n->u.const_.value;
        sx_atom(s, v < 4 ? names[v] : "?");
        break;
    }
    case AST_ATTRIBUTE:
        sx_child(s, n->u.attribute.value, spans);
        sx_atom(s, n->u.attribute.attr);
        sx_ctx(s, n->u.attribute.ctx);
        break;
    case AST_SUBSCRIPT:
        sx_child(s, n->u.subscript.value, spans);
        sx_child(s, n->u.subscript.index, spans);
        sx_ctx(s, n->u.subscript.ctx);
        break;
    case AST_SLICE:
        sx_child_or_blank(s, n->u.slice.lower, spans);
        sx_child_or_blank(s, n->u.slice.upper, spans);
        sx_child_or_blank(s, n->u.slice.step, spans);
        break;
    case AST_CALL:
        sx_child(s, n->u.call.func, spans);
        sx_children(s, n->u.call.args, spans);
        sx_children(s, n->u.call.keywords, spans);
        break;
    case AST_KEYWORD:
        sx_atom(s, n->u.keyword.arg ? n->u.keyword.arg : "**");
        sx_child(s, n->u.keyword.value, spans);
        break;
    case AST_BINOP:
        sx_atom(s, ast_op_name(n->u.binop.op));
        sx_child(s, n->u.binop.left, spans);
        sx_child(s, n->u.binop.right, spans);
        break;
    case AST_UNARYOP:
        sx_atom(s, ast_op_name(n->u.unaryop.op));
        sx_child(s, n->u.unaryop.operand, spans);
        break;
    case AST_BOOLOP:
        sx_atom(s, ast_op_name(n->u.boolop.op));
        sx_children(s, n->u.boolop.values, spans);
        break;
    case AST_COMPARE:
        sx_child(s, n->u.compare.left, spans);
        for (int i = 0; i < n->u.compare.comparators.len; i++) {
            sx_atom(s, ast_op_name(n->u.compare.ops[i]));
            sx_child(s, n->u.compare.comparators.items[i], spans);
        }
        break;
    case AST_NAMEDEXPR:
        sx_child(s, n->u.namedexpr.target, spans);
        sx_child(s, n->u.namedexpr.value, spans);
        break;
    case AST_IFEXP:
        sx_child(s, n->u.ifexp.body, spans);
        sx_atom(s, "if");
        sx_child(s, n->u.ifexp.test, spans);
        sx_atom(s, "else");
        sx_child(s, n->u.ifexp.orelse, spans);
        break;
    case AST_LAMBDA:
        sx_group(s, "params", n->u.lambda.params, false, spans);
        sx_child(s, n->u.lambda.body, spans);
        break;
    case AST_TUPLE:
    case AST_LIST:
    case AST_SET:
        sx_children(s, n->u.seq.elts, spans);
        if (n->kind != AST_SET)
            sx_ctx(s, n->u.seq.ctx);
        break;
    case AST_DICT:
        sx_dict(s, n, spans);
        break;
    case AST_LISTCOMP:
    case AST_SETCOMP:
    case AST_GENEXP:
    case AST_DICTCOMP:
        sx_child(s, n->u.comp.elt, spans);
        if (n->kind == AST_DICTCOMP)
            sx_child(s, n->u.comp.value, spans);
        sx_children(s, n->u.comp.generators, spans);
        break;
    case AST_COMPREHENSION:
        sx_child(s, n->u.comprehension.target, spans);
        sx_child(s, n->u.comprehension.iter, spans);
        for (int i = 0; i < n->u.comprehension.ifs.len; i++)
            sx_labelled(s, "if", n->u.comprehension.ifs.items[i], spans);
        break;
    case AST_STARRED:
        sx_child(s, n->u.starred.value, spans);
        sx_ctx(s, n->u.starred.ctx);
        break;
    case AST_PARAM:
        sx_param(s, n, spans);
        break;
    case AST__COUNT:
        break;
    }
}

static sx *sx_of(const ast_node *n, bool spans)
{
    sx *s = sx_new(ast_kind_name(n->kind), n, spans);
    sx_fields(s, n, spans);
    sx_close(s);
    return s;
}

/* ---- printing ---- */

static void sx_print_flat(FILE *out, const sx *s)
{
    fputs(s->head, out);
    for (int i = 0; i < s->n; i++) {
        fputc(' ', out);
        if (s->items[i].atom)
            fputs(s->items[i].atom, out);
        else
            sx_print_flat(out, s->items[i].sub);
    }
    fputc(')', out);
}

static void sx_print(FILE *out, const sx *s, int indent)
{
    if (s->flat != SX_NO_FIT && (size_t)indent + s->flat <= AST_WIDTH) {
        sx_print_flat(out, s);
        return;
    }
    fputs(s->head, out);
    int i = 0;
    for (; i < s->n && s->items[i].atom; i++) {
        fputc(' ', out);
        fputs(s->items[i].atom, out);
    }
    for (; i < s->n; i++) {
        fprintf(out, "\n%*s", indent + 2, "");
        if (s->items[i].atom)
            fputs(s->items[i].atom, out);
        else
            sx_print(out, s->items[i].sub, indent + 2);
    }
    fputc(')', out);
}

void ast_print(FILE *out, const ast_node *n, bool spans)
{
    if (!n)
        return;
    sx *s = sx_of(n, spans);
    sx_print(out, s, 0);
    fputc('\n', out);
    sx_free(s);
}

/* ---- searching a tree ------------------------------------------------------ */

static bool ast_any_list(const ast_list *l, bool (*pred)(const ast_node *n, void *ctx),
                         void *ctx);

bool ast_any(const ast_node *n, bool (*pred)(const ast_node *n, void *ctx), void *ctx)
{
    if (!n)
        return false;
    if (pred(n, ctx))
        return true;
    const ast_node *kid[4] = {NULL, NULL, NULL, NULL};
    const ast_list *list[4] = {NULL, NULL, NULL, NULL};
    switch (n->kind) {
    case AST_MODULE: list[0] = &n->u.module.body; break;
    case AST_EXPR_STMT: case AST_RETURN: case AST_YIELD: case AST_YIELDFROM:
        kid[0] = n->u.expr.value;
        break;
    case AST_ASSIGN: list[0] = &n->u.assign.targets; kid[0] = n->u.assign.value; break;
    case AST_AUGASSIGN: kid[0] = n->u.augassign.target; kid[1] = n->u.augassign.value; break;
    case AST_ANNASSIGN:
        kid[0] = n->u.annassign.target;
        kid[1] = n->u.annassign.annotation;
        kid[2] = n->u.annassign.value;
        break;
    case AST_FUNCDEF:
        list[0] = &n->u.funcdef.decorators;
        list[1] = &n->u.funcdef.params;
        list[2] = &n->u.funcdef.body;
        kid[0] = n->u.funcdef.returns;
        break;
    case AST_IF: case AST_WHILE:
        kid[0] = n->u.if_.test;
        list[0] = &n->u.if_.body;
        list[1] = &n->u.if_.orelse;
        break;
    case AST_FOR:
        kid[0] = n->u.for_.target;
        kid[1] = n->u.for_.iter;
        list[0] = &n->u.for_.body;
        list[1] = &n->u.for_.orelse;
        break;
    case AST_ASSERT: kid[0] = n->u.assert_.test; kid[1] = n->u.assert_.msg; break;
    case AST_RAISE: kid[0] = n->u.raise.exc; kid[1] = n->u.raise.cause; break;
    case AST_DEL: list[0] = &n->u.del.targets; break;
    case AST_FSTRING: list[0] = &n->u.fstring.parts; break;
    case AST_FORMATTED: kid[0] = n->u.formatted.value; kid[1] = n->u.formatted.spec; break;
    case AST_ATTRIBUTE: kid[0] = n->u.attribute.value; break;
    case AST_SUBSCRIPT: kid[0] = n->u.subscript.value; kid[1] = n->u.subscript.index; break;
    case AST_SLICE:
        kid[0] = n->u.slice.lower;
        kid[1] = n->u.slice.upper;
        kid[2] = n->u.slice.step;
        break;
    case AST_CALL:
        kid[0] = n->u.call.func;
        list[0] = &n->u.call.args;
        list[1] = &n->u.call.keywords;
        break;
    case AST_KEYWORD: kid[0] = n->u.keyword.value; break;
    case AST_BINOP: kid[0] = n->u.binop.left; kid[1] = n->u.binop.right; break;
    case AST_UNARYOP: kid[0] = n->u.unaryop.operand; break;
    case AST_BOOLOP: list[0] = &n->u.boolop.values; break;
    case AST_COMPARE: kid[0] = n->u.compare.left; list[0] = &n->u.compare.comparators; break;
    case AST_NAMEDEXPR: kid[0] = n->u.namedexpr.target; kid[1] = n->u.namedexpr.value; break;
    case AST_IFEXP:
        kid[0] = n->u.ifexp.test;
        kid[1] = n->u.ifexp.body;
        kid[2] = n->u.ifexp.orelse;
        break;
    case AST_LAMBDA: list[0] = &n->u.lambda.params; kid[0] = n->u.lambda.body; break;
    case AST_TUPLE: case AST_LIST: case AST_SET: list[0] = &n->u.seq.elts; break;
    case AST_DICT: list[0] = &n->u.dict.keys; list[1] = &n->u.dict.values; break;
    case AST_LISTCOMP: case AST_SETCOMP: case AST_GENEXP: case AST_DICTCOMP:
        kid[0] = n->u.comp.elt;
        kid[1] = n->u.comp.value;
        list[0] = &n->u.comp.generators;
        break;
    case AST_COMPREHENSION:
        kid[0] = n->u.comprehension.target;
        kid[1] = n->u.comprehension.iter;
        list[0] = &n->u.comprehension.ifs;
        break;
    case AST_STARRED: kid[0] = n->u.starred.value; break;
    case AST_PARAM: kid[0] = n->u.param.annotation; kid[1] = n->u.param.default_; break;
    case AST_TRY:
        list[0] = &n->u.try_.body;
        list[1] = &n->u.try_.handlers;
        list[2] = &n->u.try_.orelse;
        list[3] = &n->u.try_.finalbody;
        break;
    case AST_EXCEPT: kid[0] = n->u.handler.type; list[0] = &n->u.handler.body; break;
    case AST_WITH: list[0] = &n->u.with.items; list[1] = &n->u.with.body; break;
    case AST_WITHITEM: kid[0] = n->u.withitem.context; kid[1] = n->u.withitem.target; break;
    case AST_MATCH: kid[0] = n->u.match.subject; list[0] = &n->u.match.cases; break;
    case AST_CASE:
        kid[0] = n->u.case_.pattern;
        kid[1] = n->u.case_.guard;
        list[0] = &n->u.case_.body;
        break;
    default: break;
    }
    for (int i = 0; i < 4; i++)
        if (ast_any(kid[i], pred, ctx))
            return true;
    for (int i = 0; i < 4; i++)
        if (list[i] && ast_any_list(list[i], pred, ctx))
            return true;
    return false;
}

static bool ast_any_list(const ast_list *l, bool (*pred)(const ast_node *n, void *ctx),
                         void *ctx)
{
    for (int i = 0; i < l->len; i++)
        if (ast_any(l->items[i], pred, ctx))   /* DICT keys may be NULL: ast_any allows it */
            return true;
    return false;
}
