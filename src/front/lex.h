/* lex.h - the lexer: Python 3 source text to tokens.
 *
 * Produces NEWLINE / INDENT / DEDENT from an indent stack as CPython's
 * tokenizer does (tabs to the next multiple of 8, and an indentation that is
 * ambiguous between tab sizes 1 and 8 is an error), no NEWLINE inside
 * brackets, backslash continuation, comments skipped.
 *
 * f-strings are split as in PEP 701 (Python 3.12): FSTRING_START, then
 * FSTRING_MIDDLE pieces of literal text, and for each replacement field an
 * LBRACE, the expression's own tokens, optionally EXCLAIM NAME (conversion)
 * and COLON followed by the format spec (FSTRING_MIDDLE pieces and nested
 * fields), then RBRACE; finally FSTRING_END.  The parser therefore sees every
 * expression inside an f-string with its exact position. */
#ifndef TRITSIM_LEX_H
#define TRITSIM_LEX_H

#include <stdbool.h>
#include <stdint.h>

#include "arena.h"
#include "diag.h"

/* X(enum-suffix, printed-name) */
#define LEX_TOKENS(X) \
    X(EOF, "EOF") X(NEWLINE, "NEWLINE") X(INDENT, "INDENT") X(DEDENT, "DEDENT") \
    X(NAME, "NAME") X(INT, "INT") X(FLOAT, "FLOAT") X(IMAG, "IMAG") \
    X(STRING, "STRING") \
    X(FSTRING_START, "FSTRING_START") X(FSTRING_MIDDLE, "FSTRING_MIDDLE") \
    X(FSTRING_END, "FSTRING_END") \
    /* keywords */ \
    X(FALSE, "False") X(NONE, "None") X(TRUE, "True") X(AND, "and") \
    X(AS, "as") X(ASSERT, "assert") X(ASYNC, "async") X(AWAIT, "await") \
    X(BREAK, "break") X(CLASS, "class") X(CONTINUE, "continue") X(DEF, "def") \
    X(DEL, "del") X(ELIF, "elif") X(ELSE, "else") X(EXCEPT, "except") \
    X(FINALLY, "finally") X(FOR, "for") X(FROM, "from") X(GLOBAL, "global") \
    X(IF, "if") X(IMPORT, "import") X(IN, "in") X(IS, "is") X(LAMBDA, "lambda") \
    X(NONLOCAL, "nonlocal") X(NOT, "not") X(OR, "or") X(PASS, "pass") \
    X(RAISE, "raise") X(RETURN, "return") X(TRY, "try") X(WHILE, "while") \
    X(WITH, "with") X(YIELD, "yield") \
    /* delimiters */ \
    X(LPAR, "(") X(RPAR, ")") X(LSQB, "[") X(RSQB, "]") X(LBRACE, "{") \
    X(RBRACE, "}") X(COMMA, ",") X(COLON, ":") X(SEMI, ";") X(DOT, ".") \
    X(ELLIPSIS, "...") X(ARROW, "->") X(EXCLAIM, "!") X(WALRUS, ":=") \
    /* operators */ \
    X(PLUS, "+") X(MINUS, "-") X(STAR, "*") X(SLASH, "/") \
    X(DSLASH, "//") X(PERCENT, "%") X(DSTAR, "**") X(AT, "@") \
    X(LSHIFT, "<<") X(RSHIFT, ">>") X(AMP, "&") X(PIPE, "|") X(CARET, "^") \
    X(TILDE, "~") X(LT, "<") X(GT, ">") X(LE, "<=") X(GE, ">=") X(EQEQ, "==") \
    X(NE, "!=") X(EQ, "=") \
    X(PLUSEQ, "+=") X(MINUSEQ, "-=") X(STAREQ, "*=") X(SLASHEQ, "/=") \
    X(DSLASHEQ, "//=") X(PERCENTEQ, "%=") X(DSTAREQ, "**=") X(ATEQ, "@=") \
    X(LSHIFTEQ, "<<=") X(RSHIFTEQ, ">>=") X(AMPEQ, "&=") X(PIPEEQ, "|=") \
    X(CARETEQ, "^=") \
    /* a character that starts no token; the lexer has reported it */ \
    X(ERROR, "ERROR")

typedef enum tk_kind {
#define LEX_ENUM(name, text) TK_##name,
    LEX_TOKENS(LEX_ENUM)
#undef LEX_ENUM
    TK__COUNT
} tk_kind;

/* Flags of STRING / FSTRING_START tokens. */
enum {
    TKF_RAW = 1,      /* r'' prefix: backslashes kept */
    TKF_BYTES = 2,    /* b'' prefix: the parser reports it as unsupported */
    TKF_TRIPLE = 4,   /* triple-quoted */
    TKF_INT_BIG = 8,  /* INT literal that does not fit in 64 bits */
};

typedef struct lex_token {
    tk_kind kind;
    unsigned flags;
    src_span span;
    /* Decoded value:
     *  INT: ival (values above INT64_MAX up to UINT64_MAX keep their bits);
     *  FLOAT, IMAG: fval;
     *  NAME: str is the identifier;
     *  STRING, FSTRING_MIDDLE: str/len are the text with escapes processed
     *  (may contain NUL bytes), allocated in the lexer's arena. */
    uint64_t ival;
    double fval;
    const char *str;
    size_t len;
} lex_token;

typedef struct lexer lexer;

/* The lexer reads f's text, reports errors to d and allocates decoded text
 * in a (which must outlive the tokens). */
lexer *lex_open(const src_file *f, diag_sink *d, arena *a);
void lex_close(lexer *lx);

/* The next token.  After EOF it keeps returning EOF.  Errors are reported
 * to the diag_sink and the lexer carries on (a bad character becomes an
 * ERROR token; an unterminated string ends at the end of its line). */
lex_token lex_next(lexer *lx);

/* The printed name of a token kind ("NAME", "+=", "def"). */
const char *lex_kind_name(tk_kind k);

/* Write one token per line, as `tritsim parse --tokens` shows them:
 *     3:5-3:9 NAME 'offs'
 *     3:12-3:13 INT 4
 *     4:1-4:1 DEDENT
 * STRING/FSTRING_MIDDLE values are printed with Python-style escapes. */
void lex_dump(const src_file *f, diag_sink *d, FILE *out);

#endif
