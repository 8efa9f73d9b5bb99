/* ast.h - the syntax tree of a .tk program.
 *
 * One node type for statements and expressions, tagged by ast_kind, with a
 * union of per-kind fields.  Every node carries the source span it came from,
 * so later stages (the host evaluator, the specializer, the debugger) can
 * point at the exact place.  Nodes, lists and strings live in the arena of
 * the parse that made them.  Identifiers are NUL-terminated strings.
 *
 * The shapes follow Python's own `ast` module, trimmed to what the language
 * needs; ast_print writes the stable S-expression of `tritsim parse --ast`. */
#ifndef TRITSIM_AST_H
#define TRITSIM_AST_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "diag.h"

typedef struct ast_node ast_node;

typedef struct ast_list {
    ast_node **items;
    int len;
} ast_list;

/* X(enum-suffix, printed-name) */
#define AST_KINDS(X) \
    /* module */ \
    X(MODULE, "module") \
    /* statements */ \
    X(EXPR_STMT, "expr") X(ASSIGN, "assign") X(AUGASSIGN, "augassign") \
    X(ANNASSIGN, "annassign") X(FUNCDEF, "def") X(RETURN, "return") \
    X(IF, "if") X(FOR, "for") X(WHILE, "while") X(BREAK, "break") \
    X(CONTINUE, "continue") X(PASS, "pass") X(ASSERT, "assert") \
    X(RAISE, "raise") X(DEL, "del") X(IMPORT, "import") \
    X(IMPORTFROM, "from") X(GLOBAL, "global") X(NONLOCAL, "nonlocal") \
    X(CLASSDEF, "class") X(TRY, "try") X(WITH, "with") X(MATCH, "match") \
    /* expressions */ \
    X(NAME, "name") X(INT, "int") X(FLOAT, "float") X(IMAG, "imag") \
    X(STR, "str") X(FSTRING, "fstring") X(FORMATTED, "field") \
    X(CONST, "const") /* None, True, False, ... */ \
    X(ATTRIBUTE, "attr") X(SUBSCRIPT, "index") X(SLICE, "slice") \
    X(CALL, "call") X(BINOP, "binop") X(UNARYOP, "unary") \
    X(BOOLOP, "boolop") X(COMPARE, "compare") X(IFEXP, "ifexp") \
    X(LAMBDA, "lambda") X(TUPLE, "tuple") X(LIST, "list") X(DICT, "dict") \
    X(SET, "set") X(LISTCOMP, "listcomp") X(DICTCOMP, "dictcomp") \
    X(SETCOMP, "setcomp") X(GENEXP, "genexp") X(STARRED, "starred") \
    X(YIELD, "yield") X(YIELDFROM, "yield-from") X(NAMEDEXPR, "walrus") \
    /* helpers that are not expressions on their own */ \
    X(COMPREHENSION, "for-in") X(KEYWORD, "kw") X(PARAM, "param") \
    X(ALIAS, "alias") X(EXCEPT, "except") X(WITHITEM, "withitem") X(CASE, "case")

typedef enum ast_kind {
#define AST_ENUM(name, text) AST_##name,
    AST_KINDS(AST_ENUM)
#undef AST_ENUM
    AST__COUNT
} ast_kind;

/* Operators of BINOP, AUGASSIGN and UNARYOP. */
#define AST_OPS(X) \
    X(ADD, "+") X(SUB, "-") X(MUL, "*") X(DIV, "/") X(FLOORDIV, "//") \
    X(MOD, "%") X(POW, "**") X(MATMUL, "@") X(LSHIFT, "<<") X(RSHIFT, ">>") \
    X(BITAND, "&") X(BITOR, "|") X(BITXOR, "^") \
    /* unary */ X(UADD, "u+") X(USUB, "u-") X(INVERT, "~") X(NOT, "not") \
    /* boolean */ X(AND, "and") X(OR, "or") \
    /* comparison */ X(EQ, "==") X(NE, "!=") X(LT, "<") X(LE, "<=") \
    X(GT, ">") X(GE, ">=") X(IS, "is") X(ISNOT, "is not") X(IN, "in") \
    X(NOTIN, "not in")

typedef enum ast_op {
#define AST_OP_ENUM(name, text) AST_OP_##name,
    AST_OPS(AST_OP_ENUM)
#undef AST_OP_ENUM
    AST_OP__COUNT
} ast_op;

/* Values of CONST nodes. */
typedef enum ast_const { AST_CONST_NONE, AST_CONST_TRUE, AST_CONST_FALSE,
                         AST_CONST_ELLIPSIS } ast_const;

/* Kinds of PARAM nodes. */
typedef enum ast_param_kind {
    AST_PARAM_NORMAL,   /* positional or keyword */
    AST_PARAM_KWONLY,   /* after * or *args */
    AST_PARAM_VARARGS,  /* *args */
    AST_PARAM_KWARGS,   /* **kwargs */
    AST_PARAM_POSONLY,  /* before / */
} ast_param_kind;

/* Contexts of NAME, ATTRIBUTE, SUBSCRIPT, TUPLE, LIST, STARRED nodes. */
typedef enum ast_ctx { AST_CTX_LOAD, AST_CTX_STORE, AST_CTX_DEL } ast_ctx;

struct ast_node {
    ast_kind kind;
    src_span span;
    union {
        /* MODULE */
        struct { ast_list body; } module;
        /* EXPR_STMT, RETURN, YIELD (value may be NULL), YIELDFROM */
        struct { ast_node *value; } expr;
        /* ASSIGN: t1 = t2 = value (targets has >= 1 item) */
        struct { ast_list targets; ast_node *value; } assign;
        /* AUGASSIGN: target op= value */
        struct { ast_node *target; ast_op op; ast_node *value; } augassign;
        /* ANNASSIGN: target: annotation [= value] (value may be NULL) */
        struct { ast_node *target, *annotation, *value; } annassign;
        /* FUNCDEF: decorators are expressions; params are PARAM nodes;
         * returns may be NULL.  name_span is the span of the name alone.
         * generator: the body (not a nested def) has a yield. */
        struct {
            const char *name;
            src_span name_span;
            ast_list decorators, params, body;
            ast_node *returns;
            bool generator;
        } funcdef;
        /* IF and WHILE (orelse empty when absent; elif is a nested IF
         * alone in orelse) */
        struct { ast_node *test; ast_list body, orelse; } if_;
        /* FOR: target (STORE context) in iter */
        struct { ast_node *target, *iter; ast_list body, orelse; } for_;
        /* ASSERT: msg may be NULL */
        struct { ast_node *test, *msg; } assert_;
        /* RAISE: exc and cause may be NULL */
        struct { ast_node *exc, *cause; } raise;
        /* DEL */
        struct { ast_list targets; } del;
        /* IMPORT: names are ALIAS nodes */
        struct { ast_list names; } import;
        /* IMPORTFROM: from ..module import names; module may be NULL
         * (from . import x); level counts the leading dots; names are ALIAS
         * nodes, a single ALIAS named "*" for `import *` */
        struct { const char *module; int level; ast_list names; } importfrom;
        /* ALIAS: name (dotted, e.g. "triton.language") [as asname] */
        struct { const char *name, *asname; } alias;
        /* GLOBAL, NONLOCAL: names are NAME nodes */
        struct { ast_list names; } global;
        /* BREAK, CONTINUE, PASS: no fields */
        /* CLASSDEF: decorators, bases and body as for FUNCDEF; keywords are
         * KEYWORD nodes (metaclass=...).  name_span is the name alone. */
        struct {
            const char *name;
            src_span name_span;
            ast_list decorators, bases, keywords, body;
        } classdef;
        /* TRY: handlers are EXCEPT nodes; orelse and finalbody may be
         * empty (a try has handlers, a finally, or both) */
        struct { ast_list body, handlers, orelse, finalbody; } try_;
        /* EXCEPT: except [type [as name]]: body (type and name may be NULL;
         * type is a tuple node for `except (A, B)`) */
        struct { ast_node *type; const char *name; ast_list body; } handler;
        /* WITH: items are WITHITEM nodes, entered in order */
        struct { ast_list items, body; } with;
        /* WITHITEM: context [as target]; target (STORE context) may be NULL */
        struct { ast_node *context, *target; } withitem;
        /* MATCH: match subject: cases (CASE nodes) */
        struct { ast_node *subject; ast_list cases; } match;
        /* CASE: case pattern [as as_name] [if guard]: body.  The pattern is
         * written as an expression and read as one: a NAME captures (`_`
         * matches anything), a dotted name or a literal is compared with ==
         * (None, True, False with `is`), `|` separates alternatives, a
         * LIST or TUPLE is a sequence pattern (a STARRED name takes the
         * rest), a DICT a mapping pattern (a NULL key: **rest), a CALL a
         * class pattern (its arguments patterns too).  as_name and guard
         * may be NULL. */
        struct { ast_node *pattern, *guard; const char *as_name; ast_list body; } case_;

        /* NAME */
        struct { const char *id; ast_ctx ctx; } name;
        /* INT: value; big is set when the literal needs more than 64 bits */
        struct { uint64_t value; bool big; } int_;
        /* FLOAT, IMAG */
        struct { double value; } float_;
        /* STR: text with escapes processed (may hold NUL bytes);
         * adjacent literals are joined into one node; bytes: a bytes
         * literal (b'...'), its bytes in s */
        struct { const char *s; size_t len; bool bytes; } str;
        /* FSTRING: parts are STR and FORMATTED nodes, in order */
        struct { ast_list parts; } fstring;
        /* FORMATTED: {value!conv:spec}; conv is 0, 'r', 's' or 'a';
         * spec is an FSTRING node or NULL */
        struct { ast_node *value; int conv; ast_node *spec; } formatted;
        /* CONST */
        struct { ast_const value; } const_;
        /* ATTRIBUTE: value.attr */
        struct { ast_node *value; const char *attr; ast_ctx ctx; } attribute;
        /* SUBSCRIPT: value[index]; x[a, b] has a TUPLE index, x[1:2] a SLICE */
        struct { ast_node *value, *index; ast_ctx ctx; } subscript;
        /* SLICE: any part may be NULL */
        struct { ast_node *lower, *upper, *step; } slice;
        /* CALL: args may contain STARRED (*a); keywords are KEYWORD nodes
         * (arg NULL for **kw) */
        struct { ast_node *func; ast_list args, keywords; } call;
        /* KEYWORD: arg=value, or **value when arg is NULL */
        struct { const char *arg; ast_node *value; } keyword;
        /* BINOP */
        struct { ast_op op; ast_node *left, *right; } binop;
        /* UNARYOP */
        struct { ast_op op; ast_node *operand; } unaryop;
        /* BOOLOP: values has >= 2 items */
        struct { ast_op op; ast_list values; } boolop;
        /* COMPARE: left ops[0] comparators[0] ops[1] comparators[1] ... */
        struct { ast_node *left; ast_op *ops; ast_list comparators; } compare;
        /* NAMEDEXPR: target := value (target a NAME, ctx STORE) */
        struct { ast_node *target, *value; } namedexpr;
        /* IFEXP: body if test else orelse */
        struct { ast_node *test, *body, *orelse; } ifexp;
        /* LAMBDA: params are PARAM nodes; body an expression */
        struct { ast_list params; ast_node *body; } lambda;
        /* TUPLE, LIST, SET */
        struct { ast_list elts; ast_ctx ctx; } seq;
        /* DICT: keys[i] NULL for a **mapping entry */
        struct { ast_list keys, values; } dict;
        /* LISTCOMP, SETCOMP, GENEXP: elt; DICTCOMP: key (elt) and value.
         * generators are COMPREHENSION nodes */
        struct { ast_node *elt, *value; ast_list generators; } comp;
        /* COMPREHENSION: for target in iter if ifs... */
        struct { ast_node *target, *iter; ast_list ifs; } comprehension;
        /* STARRED: *value */
        struct { ast_node *value; ast_ctx ctx; } starred;
        /* PARAM: annotation and default may be NULL */
        struct {
            const char *name;
            ast_param_kind kind;
            ast_node *annotation, *default_;
        } param;
    } u;
};

const char *ast_kind_name(ast_kind k);
const char *ast_op_name(ast_op op);

/* Write the tree as an indented S-expression, two spaces a level, one node
 * per line where it has children, for example
 *
 *   (module
 *     (def copy_k
 *       (decorators (attr (name triton) jit))
 *       (params (param x_ptr) (param bs (annotation (attr (name tl) constexpr))))
 *       (body
 *         (assign (name pid store) (call (attr (name tl) program_id) (int 0))))))
 *
 * With spans set, every node is followed by @line:col-end_line:end_col. */
void ast_print(FILE *out, const ast_node *n, bool spans);

/* Does pred hold for n or a node inside it (statements and expressions)?
 * n may be NULL (false). */
bool ast_any(const ast_node *n, bool (*pred)(const ast_node *n, void *ctx), void *ctx);

#endif
