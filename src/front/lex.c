/* lex.c - the lexer: Python 3 source text to the tokens of lex.h.
 *
 * Owns tokenization: indentation (NEWLINE / INDENT / DEDENT), brackets,
 * names and keywords, numbers, string literals with their escapes, f-strings
 * split into pieces as in PEP 701, operators, and the lexical errors.  Its
 * shape follows CPython's Parser/tokenizer.c and Lua's llex.c.
 *
 * State kept between tokens:
 *   - the indent stack (columns with tab size 8 and with tab size 1);
 *   - the bracket stack: every open ( [ { with its span; a '{' that opens an
 *     f-string replacement field is marked `field`, and `in_spec` once the
 *     field's ':' has been seen;
 *   - the f-string stack: every open f-string with its quote and the bracket
 *     depth at which it started (`base`);
 *   - a queue of tokens already decided (DEDENTs, closers made up to recover
 *     from an error, the tokens that close everything at end of file).
 *
 * Which scanner runs next follows from the two stacks: inside the innermost
 * f-string, at its base depth we are in its literal text; with a field on
 * top of the bracket stack that has seen its ':' we are in a format spec
 * (literal text again); everywhere else we read ordinary tokens.
 *
 * Error recovery keeps the token stream well formed where it can, so that
 * the parser does not pile its own errors on top of ours: an unterminated
 * string still becomes a STRING token, a closer that does not match is
 * turned into the closer the parser expects (or dropped when nothing could
 * match), and at end of file every open bracket and f-string gets a made-up
 * zero-width closer.  Only a character that starts no token becomes ERROR. */
#define _POSIX_C_SOURCE 200809L
#include "lex.h"

#include <limits.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pyformat.h"
#include "strbuf.h"

enum {
    LEX_TABSIZE = 8,
    LEX_MAX_INDENT = 100, /* CPython's limits: beyond them Python refuses */
    LEX_MAX_NEST = 200,   /* the file, so a .tk file must stay within them */
    LEX_MAX_WIDTH = 1 << 24, /* indentation columns are counted up to this */
};

/* A position in the text: byte offset, 1-based line and code-point column. */
typedef struct lex_pos {
    size_t off;
    int line, col;
} lex_pos;

typedef struct lex_indent {
    int col, altcol; /* with tab size 8 and with tab size 1 */
    bool phantom;    /* pushed to recover from a bad dedent: no INDENT was
                        sent for it, so no DEDENT is sent when it goes */
} lex_indent;

typedef struct lex_bracket {
    char ch;         /* '(' '[' '{' */
    bool field;      /* '{' of an f-string replacement field */
    bool in_spec;    /* field only: its ':' has been seen */
    src_span span;
} lex_bracket;

typedef struct lex_fstring {
    char quote;
    bool triple, raw;
    bool reported;   /* "unterminated" already said */
    size_t base;     /* bracket depth outside the f-string */
    src_span start;  /* prefix and opening quotes */
} lex_fstring;

struct lexer {
    const src_file *f;
    diag_sink *d;
    arena *a;
    const unsigned char *s;
    size_t len;
    lex_pos pos;

    bool at_bol;          /* indentation of a new logical line comes next */
    bool line_has_tokens; /* the current logical line produced a token */
    bool done;            /* EOF has been queued */
    bool eof_reported;    /* an error about end of file has been given */
    bool tab_reported, deep_reported, nest_reported;

    lex_indent *ind;
    size_t nind, capind;
    lex_bracket *br;
    size_t nbr, capbr;
    lex_fstring *fs;
    size_t nfs, capfs;
    lex_token *q;         /* tokens decided ahead: q[qhead..qlen) */
    size_t qhead, qlen, capq;
    char *buf;            /* decoded text of the string being read */
    size_t blen, capbuf;
};

static const char *const lex_names[] = {
#define LEX_NAME(name, text) text,
    LEX_TOKENS(LEX_NAME)
#undef LEX_NAME
};

const char *lex_kind_name(tk_kind k)
{
    return (unsigned)k < TK__COUNT ? lex_names[k] : "?";
}

/* ---- growable arrays ---------------------------------------------------- */

/* Make room for one more element of size `elem` in p[0..n). */
static void *lex_grow(void *p, size_t n, size_t *cap, size_t elem)
{
    if (n < *cap)
        return p;
    *cap = *cap ? *cap * 2 : 16;
    return xrealloc(p, *cap * elem);
}

static void lex_buf_add(lexer *lx, char c)
{
    lx->buf = lex_grow(lx->buf, lx->blen, &lx->capbuf, 1);
    lx->buf[lx->blen++] = c;
}

/* Append code point cp as UTF-8 (surrogates are encoded as they come, as
 * Python keeps them in a str). */
static void lex_buf_add_utf8(lexer *lx, uint32_t cp)
{
    if (cp < 0x80) {
        lex_buf_add(lx, (char)cp);
    } else if (cp < 0x800) {
        lex_buf_add(lx, (char)(0xC0 | cp >> 6));
        lex_buf_add(lx, (char)(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
        lex_buf_add(lx, (char)(0xE0 | cp >> 12));
        lex_buf_add(lx, (char)(0x80 | (cp >> 6 & 0x3F)));
        lex_buf_add(lx, (char)(0x80 | (cp & 0x3F)));
    } else {
        lex_buf_add(lx, (char)(0xF0 | cp >> 18));
        lex_buf_add(lx, (char)(0x80 | (cp >> 12 & 0x3F)));
        lex_buf_add(lx, (char)(0x80 | (cp >> 6 & 0x3F)));
        lex_buf_add(lx, (char)(0x80 | (cp & 0x3F)));
    }
}

/* ---- reading the text --------------------------------------------------- */

/* The byte at off, or -1 past the end (the text may hold NUL bytes). */
static int lex_at(const lexer *lx, size_t off)
{
    return off < lx->len ? lx->s[off] : -1;
}

static int lex_peek(const lexer *lx, size_t k)
{
    return lex_at(lx, lx->pos.off + k);
}

/* Length of the line end at off (\n, \r\n or a lone \r), 0 if none. */
static size_t lex_newline_len(const lexer *lx, size_t off)
{
    int c = lex_at(lx, off);
    if (c == '\n')
        return 1;
    if (c == '\r')
        return lex_at(lx, off + 1) == '\n' ? 2 : 1;
    return 0;
}

/* Step over one byte, keeping line and column.  The \r of \r\n leaves the
 * position alone (its \n ends the line); a UTF-8 continuation byte does not
 * start a column. */
static void lex_advance(lexer *lx)
{
    if (lx->pos.off >= lx->len)
        return;
    unsigned char c = lx->s[lx->pos.off++];
    if (c == '\n' || (c == '\r' && lex_peek(lx, 0) != '\n')) {
        lx->pos.line++;
        lx->pos.col = 1;
    } else if (c != '\r' && (c & 0xC0) != 0x80) {
        lx->pos.col++;
    }
}

static void lex_skip(lexer *lx, size_t n)
{
    while (n-- > 0)
        lex_advance(lx);
}

static void lex_skip_to(lexer *lx, size_t off)
{
    while (lx->pos.off < off && lx->pos.off < lx->len)
        lex_advance(lx);
}

static bool lex_is_digit(int c) { return c >= '0' && c <= '9'; }

static bool lex_is_alpha(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool lex_is_alnum(int c) { return lex_is_alpha(c) || lex_is_digit(c); }

static int lex_hex_value(int c)
{
    if (lex_is_digit(c))
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Decode the UTF-8 sequence at s (n bytes available) into *cp; its length,
 * or 0 when it is malformed (bad lead byte, truncated, overlong, surrogate,
 * beyond U+10FFFF). */
static size_t lex_utf8_decode(const unsigned char *s, size_t n, uint32_t *cp)
{
    size_t len;
    uint32_t v, min;
    if (n == 0)
        return 0;
    if (s[0] < 0x80) {
        *cp = s[0];
        return 1;
    } else if (s[0] >= 0xC2 && s[0] <= 0xDF) {
        len = 2, v = s[0] & 0x1F, min = 0x80;
    } else if (s[0] >= 0xE0 && s[0] <= 0xEF) {
        len = 3, v = s[0] & 0x0F, min = 0x800;
    } else if (s[0] >= 0xF0 && s[0] <= 0xF4) {
        len = 4, v = s[0] & 0x07, min = 0x10000;
    } else {
        return 0;
    }
    if (len > n)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        v = v << 6 | (uint32_t)(s[i] & 0x3F);
    }
    if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
        return 0;
    *cp = v;
    return len;
}

static size_t lex_utf8(const lexer *lx, size_t off, uint32_t *cp)
{
    return off < lx->len ? lex_utf8_decode(lx->s + off, lx->len - off, cp) : 0;
}

/* Non-ASCII code points that can never be part of a Python identifier:
 * spaces, punctuation and symbols that turn up in pasted text (smart
 * quotes, a non-breaking space, CJK punctuation, arrows, emoji...).  Every
 * other non-ASCII character is taken as a letter; the list need not be
 * complete, only right. */
static bool lex_cp_is_symbol(uint32_t cp)
{
    static const struct { uint32_t lo, hi; } ranges[] = {
        {0x80, 0xA9}, {0xAB, 0xB4}, {0xB6, 0xB6}, {0xB8, 0xB9}, {0xBB, 0xBF},
        {0xD7, 0xD7}, {0xF7, 0xF7},
        {0x2000, 0x203E}, {0x2041, 0x2053}, {0x2055, 0x206F}, /* punctuation */
        {0x20A0, 0x20CF},                                     /* currency */
        {0x2190, 0x2BFF}, /* arrows, maths, boxes, shapes, dingbats */
        {0x2E00, 0x2E7F},
        {0x3000, 0x3004}, {0x3008, 0x3020}, {0x3030, 0x3030},
        {0x3036, 0x3037}, {0x303D, 0x303F}, /* CJK punctuation */
        {0xE000, 0xF8FF},                   /* private use */
        {0xFE10, 0xFE19}, {0xFE30, 0xFE32}, {0xFE35, 0xFE4C}, {0xFE50, 0xFE6F},
        {0xFEFF, 0xFEFF},
        {0xFF01, 0xFF0F}, {0xFF1A, 0xFF20}, {0xFF3B, 0xFF3E}, {0xFF40, 0xFF40},
        {0xFF5B, 0xFF65}, /* full-width punctuation */
        {0xFFF0, 0xFFFF}, {0x1F000, 0x1FAFF}, /* specials, emoji */
    };
    for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++)
        if (cp >= ranges[i].lo && cp <= ranges[i].hi)
            return true;
    return false;
}

/* Characters Python calls non-printable: named by number only. */
static bool lex_cp_is_unprintable(uint32_t cp)
{
    return cp < 0x20 || (cp >= 0x7F && cp <= 0xA0) || cp == 0xAD ||
           (cp >= 0x2000 && cp <= 0x200F) || (cp >= 0x2028 && cp <= 0x202F) ||
           (cp >= 0x205F && cp <= 0x206F) || cp == 0x3000 || cp == 0xFEFF;
}

/* Length of the identifier character at off (a start character when
 * `first`), 0 if there is none. */
static size_t lex_ident_char(const lexer *lx, size_t off, bool first)
{
    int c = lex_at(lx, off);
    if (c < 0)
        return 0;
    if (c < 0x80)
        return (first ? lex_is_alpha(c) : lex_is_alnum(c)) ? 1 : 0;
    uint32_t cp;
    size_t n = lex_utf8(lx, off, &cp);
    return n && !lex_cp_is_symbol(cp) ? n : 0;
}

/* ---- tokens, spans and errors ------------------------------------------- */

static src_span lex_span(lex_pos a, lex_pos b)
{
    src_span sp = {a.line, a.col, b.line, b.col, (unsigned)a.off, (unsigned)b.off};
    return sp;
}

static lex_pos lex_span_start(src_span sp)
{
    lex_pos p = {sp.off, sp.line, sp.col};
    return p;
}

static lex_token lex_token_at(tk_kind k, lex_pos a, lex_pos b)
{
    lex_token t;
    memset(&t, 0, sizeof t);
    t.kind = k;
    t.span = lex_span(a, b);
    return t;
}

/* A real token from start to the current position. */
static lex_token lex_make(lexer *lx, tk_kind k, lex_pos start)
{
    lx->line_has_tokens = true;
    return lex_token_at(k, start, lx->pos);
}

static void lex_queue(lexer *lx, lex_token t)
{
    lx->q = lex_grow(lx->q, lx->qlen, &lx->capq, sizeof *lx->q);
    lx->q[lx->qlen++] = t;
}

__attribute__((format(printf, 3, 4)))
static void lex_error(lexer *lx, src_span sp, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vreport(lx->d, DIAG_ERROR, lx->f, sp, fmt, ap);
    va_end(ap);
}

/* The text decoded so far, copied into the arena. */
static lex_token lex_text_token(lexer *lx, tk_kind k, lex_pos start, unsigned flags)
{
    lex_token t = lex_make(lx, k, start);
    t.flags = flags;
    t.str = arena_strndup(lx->a, lx->buf, lx->blen);
    t.len = lx->blen;
    return t;
}

/* ---- brackets and f-strings ---------------------------------------------- */

static void lex_push_bracket(lexer *lx, char ch, bool field, src_span sp)
{
    if (lx->nbr >= LEX_MAX_NEST && !lx->nest_reported) {
        lx->nest_reported = true;
        lex_error(lx, sp, "too many nested parentheses (the limit is %d)", LEX_MAX_NEST);
    }
    lx->br = lex_grow(lx->br, lx->nbr, &lx->capbr, sizeof *lx->br);
    lex_bracket b = {ch, field, false, sp};
    lx->br[lx->nbr++] = b;
}

static tk_kind lex_closer_kind(char opener)
{
    return opener == '(' ? TK_RPAR : opener == '[' ? TK_RSQB : TK_RBRACE;
}

static lex_fstring *lex_top_fstring(lexer *lx)
{
    return lx->nfs ? &lx->fs[lx->nfs - 1] : NULL;
}

/* Brackets below this depth belong outside the innermost f-string. */
static size_t lex_bracket_floor(const lexer *lx)
{
    return lx->nfs ? lx->fs[lx->nfs - 1].base : 0;
}

/* Queue zero-width closers at p for the brackets above depth `to`. */
static void lex_close_brackets(lexer *lx, size_t to, lex_pos p)
{
    while (lx->nbr > to) {
        lx->nbr--;
        lex_queue(lx, lex_token_at(lex_closer_kind(lx->br[lx->nbr].ch), p, p));
    }
}

/* End the innermost f-string at p (already reported): close its open
 * fields, then FSTRING_END spanning p..end. */
static void lex_close_fstring(lexer *lx, lex_pos p, lex_pos end)
{
    lex_fstring *fs = lex_top_fstring(lx);
    lex_close_brackets(lx, fs->base, p);
    lex_queue(lx, lex_token_at(TK_FSTRING_END, p, end));
    lx->nfs--;
}

/* At end of file: close every f-string and bracket still open. */
static void lex_close_all(lexer *lx)
{
    while (lx->nfs > 0 || lx->nbr > 0) {
        if (lx->nfs > 0 && lx->fs[lx->nfs - 1].base == lx->nbr)
            lex_close_fstring(lx, lx->pos, lx->pos);
        else
            lex_close_brackets(lx, lx->nbr - 1, lx->pos);
    }
}

/* True when the next thing to read is literal text of an f-string (its
 * body, or the format spec of one of its fields). */
static bool lex_in_fstring_text(const lexer *lx)
{
    if (lx->nfs == 0)
        return false;
    if (lx->nbr == lx->fs[lx->nfs - 1].base)
        return true;
    const lex_bracket *top = &lx->br[lx->nbr - 1];
    return top->field && top->in_spec;
}

/* ---- indentation ---------------------------------------------------------- */

static void lex_push_indent(lexer *lx, int col, int altcol, bool phantom, src_span sp)
{
    if (lx->nind > LEX_MAX_INDENT - 1 && !lx->deep_reported) {
        lx->deep_reported = true;
        lex_error(lx, sp, "too many levels of indentation (the limit is %d)",
                  LEX_MAX_INDENT - 1);
    }
    lx->ind = lex_grow(lx->ind, lx->nind, &lx->capind, sizeof *lx->ind);
    lex_indent in = {col, altcol, phantom};
    lx->ind[lx->nind++] = in;
}

/* Reported once per file: one mixed-up editor setting tends to produce it
 * on many lines. */
static void lex_tab_error(lexer *lx, src_span sp)
{
    if (lx->tab_reported)
        return;
    lx->tab_reported = true;
    lex_error(lx, sp, "inconsistent use of tabs and spaces in indentation "
              "(indent with spaces only)");
}

/* Compare a line's indentation with the stack, as CPython does: the
 * decision is taken with tab size 8, and tab size 1 must agree with it. */
static void lex_compare_indent(lexer *lx, int col, int altcol, lex_pos line_start)
{
    lex_pos here = lx->pos;
    uint32_t cp;
    size_t n = lex_utf8(lx, here.off, &cp);
    lex_pos next = {here.off + (n ? n : 1), here.line, here.col + 1};
    src_span at = lex_span(here, next); /* the line's first character */
    lex_indent *top = &lx->ind[lx->nind - 1];

    if (col == top->col) {
        if (altcol != top->altcol)
            lex_tab_error(lx, at);
    } else if (col > top->col) {
        if (altcol <= top->altcol)
            lex_tab_error(lx, at);
        lex_push_indent(lx, col, altcol, false, at);
        lex_queue(lx, lex_token_at(TK_INDENT, line_start, here));
    } else {
        while (lx->nind > 1 && col < lx->ind[lx->nind - 1].col) {
            if (!lx->ind[lx->nind - 1].phantom)
                lex_queue(lx, lex_token_at(TK_DEDENT, here, here));
            lx->nind--;
        }
        top = &lx->ind[lx->nind - 1];
        if (col != top->col) {
            lex_error(lx, at, "unindent does not match any outer indentation level");
            /* Take the line as part of the enclosing block; lines indented
             * like it later stay in that block without more errors. */
            lex_push_indent(lx, col, altcol, true, at);
        } else if (altcol != top->altcol) {
            lex_tab_error(lx, at);
        }
    }
}

static void lex_skip_comment(lexer *lx)
{
    while (lex_peek(lx, 0) >= 0 && !lex_newline_len(lx, lx->pos.off))
        lex_advance(lx);
}

/* At the start of a line: measure its indentation, skip blank and
 * comment-only lines, and queue INDENT/DEDENT tokens. */
static void lex_indentation(lexer *lx)
{
    for (;;) {
        lex_pos line_start = lx->pos;
        int col = 0, altcol = 0;
        for (;;) {
            int c = lex_peek(lx, 0);
            if (col > LEX_MAX_WIDTH) { /* absurd, but must not overflow */
                col = LEX_MAX_WIDTH;
                altcol = altcol > LEX_MAX_WIDTH ? LEX_MAX_WIDTH : altcol;
            }
            if (c == ' ') {
                col++, altcol++;
            } else if (c == '\t') {
                col = (col / LEX_TABSIZE + 1) * LEX_TABSIZE;
                altcol++;
            } else if (c == '\f') {
                col = altcol = 0; /* form feed resets, as in CPython */
            } else {
                break;
            }
            lex_advance(lx);
        }
        if (lex_peek(lx, 0) == '#')
            lex_skip_comment(lx);
        size_t nl = lex_newline_len(lx, lx->pos.off);
        if (nl) {
            lex_skip(lx, nl); /* blank line: no tokens at all */
            continue;
        }
        lx->at_bol = false;
        if (lex_peek(lx, 0) >= 0)
            lex_compare_indent(lx, col, altcol, line_start);
        return;
    }
}

/* ---- names and keywords ----------------------------------------------------- */

static tk_kind lex_keyword(const char *s, size_t n)
{
    for (int k = TK_FALSE; k <= TK_YIELD; k++)
        if (strlen(lex_names[k]) == n && memcmp(lex_names[k], s, n) == 0)
            return (tk_kind)k;
    return TK_NAME;
}

/* Is s[0..n) a string prefix?  Sets the flags and whether it is an f. */
static bool lex_string_prefix(const unsigned char *s, size_t n, unsigned *flags, bool *fstr)
{
    bool r = false, b = false, f = false, u = false;
    for (size_t i = 0; i < n; i++) {
        switch (s[i] | 0x20) { /* ASCII lower case */
        case 'r': if (r) return false; r = true; break;
        case 'b': if (b) return false; b = true; break;
        case 'f': if (f) return false; f = true; break;
        case 'u': if (u) return false; u = true; break;
        default: return false;
        }
    }
    if ((u && n > 1) || (b && f))
        return false;
    *flags = (r ? TKF_RAW : 0) | (b ? TKF_BYTES : 0);
    *fstr = f;
    return true;
}

static lex_token lex_string(lexer *lx, lex_pos start, unsigned flags);
static lex_token lex_fstring_start(lexer *lx, lex_pos start, unsigned flags);

/* A name, a keyword, or the prefix of a string. */
static lex_token lex_word(lexer *lx)
{
    lex_pos start = lx->pos;
    size_t end = start.off, n;
    while ((n = lex_ident_char(lx, end, end == start.off)) > 0)
        end += n;
    int q = lex_at(lx, end);
    unsigned flags;
    bool fstr;
    if ((q == '\'' || q == '"') && end - start.off <= 2 &&
        lex_string_prefix(lx->s + start.off, end - start.off, &flags, &fstr)) {
        lex_skip_to(lx, end);
        return fstr ? lex_fstring_start(lx, start, flags) : lex_string(lx, start, flags);
    }
    lex_skip_to(lx, end);
    const char *text = (const char *)lx->s + start.off;
    tk_kind k = lex_keyword(text, end - start.off);
    lex_token t = lex_make(lx, k, start);
    t.str = k == TK_NAME ? arena_strndup(lx->a, text, end - start.off) : lex_names[k];
    t.len = end - start.off;
    return t;
}

/* ---- numbers -------------------------------------------------------------- */

static bool lex_is_base_digit(int c, int base)
{
    int v = lex_hex_value(c);
    return v >= 0 && v < base;
}

/* A number may be followed directly by a keyword that can follow it in
 * valid code ("1if x else 2"); any other letter glued to it is an error. */
static bool lex_number_end_ok(const lexer *lx, size_t p)
{
    static const char *const after[] = {"and", "else", "for", "if", "in", "is", "or", "not"};
    if (!lex_is_alnum(lex_at(lx, p)))
        return true;
    for (size_t i = 0; i < sizeof after / sizeof after[0]; i++) {
        size_t n = strlen(after[i]);
        if (p + n <= lx->len && memcmp(lx->s + p, after[i], n) == 0)
            return true;
    }
    return false;
}

/* Digits with single underscores between them, from p (at a digit).  Sets
 * *bad when an underscore is not followed by a digit. */
static size_t lex_decimal_tail(const lexer *lx, size_t p, bool *bad)
{
    for (;;) {
        while (lex_is_digit(lex_at(lx, p)))
            p++;
        if (lex_at(lx, p) != '_')
            return p;
        if (!lex_is_digit(lex_at(lx, p + 1))) {
            *bad = true;
            return p + 1;
        }
        p++;
    }
}

/* 0x / 0o / 0b literals; p is past the prefix.  Returns the end, and an
 * error message in err (empty when fine). */
static size_t lex_scan_prefixed(const lexer *lx, size_t p, int base, char *err, size_t errsz)
{
    const char *name = base == 16 ? "hexadecimal" : base == 8 ? "octal" : "binary";
    for (;;) {
        if (lex_at(lx, p) == '_')
            p++;
        int c = lex_at(lx, p);
        if (!lex_is_base_digit(c, base)) {
            if (lex_is_digit(c))
                snprintf(err, errsz, "invalid digit '%c' in %s literal", c, name);
            else
                snprintf(err, errsz, "invalid %s literal", name);
            return p;
        }
        while (lex_is_base_digit(lex_at(lx, p), base))
            p++;
        if (lex_at(lx, p) != '_')
            break;
    }
    if (lex_is_digit(lex_at(lx, p)))
        snprintf(err, errsz, "invalid digit '%c' in %s literal", lex_at(lx, p), name);
    else if (!lex_number_end_ok(lx, p))
        snprintf(err, errsz, "invalid %s literal", name);
    return p;
}

/* The fraction, exponent and 'j' of a decimal number; p is where the
 * integer part ended.  Updates *kind. */
static size_t lex_scan_float_tail(const lexer *lx, size_t p, tk_kind *kind,
                                  char *err, size_t errsz)
{
    const char *invalid = "invalid decimal literal";
    bool bad = false;
    if (lex_at(lx, p) == '.') {
        *kind = TK_FLOAT;
        p++;
        if (lex_is_digit(lex_at(lx, p)))
            p = lex_decimal_tail(lx, p, &bad);
    }
    int e = lex_at(lx, p);
    if (!bad && (e == 'e' || e == 'E')) {
        size_t q = p + 1;
        if (lex_at(lx, q) == '+' || lex_at(lx, q) == '-') {
            q++;
            if (!lex_is_digit(lex_at(lx, q))) {
                snprintf(err, errsz, "%s", invalid);
                return q;
            }
        }
        if (lex_is_digit(lex_at(lx, q))) {
            *kind = TK_FLOAT;
            p = lex_decimal_tail(lx, q, &bad);
        } else {
            /* "1else": the number ends before the keyword */
            if (!lex_number_end_ok(lx, p))
                snprintf(err, errsz, "%s", invalid);
            return p;
        }
    }
    if (bad) {
        snprintf(err, errsz, "%s", invalid);
        return p;
    }
    if (lex_at(lx, p) == 'j' || lex_at(lx, p) == 'J') {
        *kind = TK_IMAG;
        p++;
        if (!lex_number_end_ok(lx, p))
            snprintf(err, errsz, "invalid imaginary literal");
        return p;
    }
    if (!lex_number_end_ok(lx, p))
        snprintf(err, errsz, "%s", invalid);
    return p;
}

/* A decimal integer or float starting at p (a digit or '.'). */
static size_t lex_scan_decimal(const lexer *lx, size_t p, tk_kind *kind, char *err, size_t errsz)
{
    bool bad = false;
    if (lex_at(lx, p) == '.')
        return lex_scan_float_tail(lx, p, kind, err, errsz);
    if (lex_at(lx, p) != '0') {
        p = lex_decimal_tail(lx, p, &bad);
    } else {
        /* zeros, then maybe more digits: only a float may have them */
        bool nonzero = false;
        for (;;) {
            if (lex_at(lx, p) == '_') {
                if (!lex_is_digit(lex_at(lx, p + 1))) {
                    bad = true;
                    p++;
                    break;
                }
                p++;
            }
            if (lex_at(lx, p) != '0')
                break;
            p++;
        }
        if (!bad && lex_is_digit(lex_at(lx, p))) {
            nonzero = true;
            p = lex_decimal_tail(lx, p, &bad);
        }
        int c = lex_at(lx, p);
        if (!bad && nonzero && c != '.' && c != 'e' && c != 'E' && c != 'j' && c != 'J') {
            snprintf(err, errsz, "leading zeros in decimal integer literals are not "
                     "permitted; use an 0o prefix for octal integers");
            return p;
        }
    }
    if (bad) {
        snprintf(err, errsz, "invalid decimal literal");
        return p;
    }
    return lex_scan_float_tail(lx, p, kind, err, errsz);
}

/* strtod, whatever LC_NUMERIC says the decimal point is. */
static double lex_strtod(char *text)
{
    const char *point = localeconv()->decimal_point;
    if (point && point[0] && strcmp(point, ".") != 0 && strlen(point) == 1) {
        char *dot = strchr(text, '.');
        if (dot)
            *dot = point[0];
    }
    return strtod(text, NULL);
}

/* Fill in the value of a well-formed number s[start..end). */
static void lex_number_value(lexer *lx, lex_token *t, size_t start, size_t end)
{
    lx->blen = 0;
    for (size_t i = start; i < end; i++)
        if (lx->s[i] != '_' && lx->s[i] != 'j' && lx->s[i] != 'J')
            lex_buf_add(lx, (char)lx->s[i]);
    lex_buf_add(lx, '\0');
    if (t->kind != TK_INT) {
        t->fval = lex_strtod(lx->buf);
        return;
    }
    const char *d = lx->buf;
    unsigned base = 10;
    if (d[0] == '0' && d[1] && !lex_is_digit((unsigned char)d[1])) {
        int p = d[1] | 0x20;
        base = p == 'x' ? 16 : p == 'o' ? 8 : 2;
        d += 2;
    }
    uint64_t v = 0;
    for (; *d; d++) {
        unsigned digit = (unsigned)lex_hex_value((unsigned char)*d);
        if (v > (UINT64_MAX - digit) / base)
            t->flags |= TKF_INT_BIG;
        v = v * base + digit;
    }
    t->ival = v;
}

static lex_token lex_number(lexer *lx)
{
    lex_pos start = lx->pos;
    size_t p = start.off;
    tk_kind kind = TK_INT;
    char err[128] = "";
    int c1 = lex_at(lx, p + 1) | 0x20;
    if (lex_at(lx, p) == '0' && (c1 == 'x' || c1 == 'o' || c1 == 'b'))
        p = lex_scan_prefixed(lx, p + 2, c1 == 'x' ? 16 : c1 == 'o' ? 8 : 2, err, sizeof err);
    else
        p = lex_scan_decimal(lx, p, &kind, err, sizeof err);
    if (err[0]) {
        while (lex_is_alnum(lex_at(lx, p))) /* the rest of the bad literal */
            p++;
    }
    lex_skip_to(lx, p);
    lex_token t = lex_make(lx, kind, start);
    if (err[0])
        lex_error(lx, t.span, "%s", err);
    else
        lex_number_value(lx, &t, start.off, p);
    return t;
}

/* ---- strings ------------------------------------------------------------- */

/* Read n hex digits at off into *v; false if there are fewer. */
static bool lex_hex_digits(const lexer *lx, size_t off, int n, uint32_t *v)
{
    *v = 0;
    for (int i = 0; i < n; i++) {
        int h = lex_hex_value(lex_at(lx, off + (size_t)i));
        if (h < 0)
            return false;
        *v = *v << 4 | (uint32_t)h;
    }
    return true;
}

/* \x, \u and \U: `n` hex digits after the letter. */
static void lex_hex_escape(lexer *lx, int n, bool bytes)
{
    lex_pos at = lx->pos;
    int letter = lex_peek(lx, 1);
    uint32_t v;
    if (!lex_hex_digits(lx, at.off + 2, n, &v)) {
        lex_skip(lx, 2);
        while (lex_hex_value(lex_peek(lx, 0)) >= 0)
            lex_advance(lx);
        lex_error(lx, lex_span(at, lx->pos), "truncated \\%c%s escape (it needs %d hex digits)",
                  letter, n == 2 ? "XX" : n == 4 ? "XXXX" : "XXXXXXXX", n);
        return;
    }
    lex_skip(lx, 2 + (size_t)n);
    if (v > 0x10FFFF)
        lex_error(lx, lex_span(at, lx->pos), "illegal Unicode character in \\U escape "
                  "(the largest is \\U0010ffff)");
    else if (bytes)
        lex_buf_add(lx, (char)v);
    else
        lex_buf_add_utf8(lx, v);
}

/* One escape sequence of a non-raw string, at a backslash. */
static void lex_escape(lexer *lx, bool bytes)
{
    static const char simple[] = "\\\\''\"\"a\ab\bf\fn\nr\rt\tv\v";
    lex_pos at = lx->pos;
    int c = lex_peek(lx, 1);
    size_t nl = lex_newline_len(lx, at.off + 1);
    if (nl) { /* backslash-newline: the string goes on, without the newline */
        lex_skip(lx, 1 + nl);
        return;
    }
    for (const char *p = simple; c > 0 && *p; p += 2) {
        if (c == *p) {
            lex_buf_add(lx, p[1]);
            lex_skip(lx, 2);
            return;
        }
    }
    if (c >= '0' && c <= '7') {
        uint32_t v = 0;
        lex_skip(lx, 1);
        for (int i = 0; i < 3 && lex_peek(lx, 0) >= '0' && lex_peek(lx, 0) <= '7'; i++) {
            v = v * 8 + (uint32_t)(lex_peek(lx, 0) - '0');
            lex_advance(lx);
        }
        if (bytes)
            lex_buf_add(lx, (char)(v & 0xFF));
        else
            lex_buf_add_utf8(lx, v);
    } else if (c == 'x') {
        lex_hex_escape(lx, 2, bytes);
    } else if ((c == 'u' || c == 'U') && !bytes) {
        lex_hex_escape(lx, c == 'u' ? 4 : 8, bytes);
    } else if (c == 'N' && !bytes) {
        lex_skip(lx, 2);
        if (lex_peek(lx, 0) == '{') {
            int ch;
            lex_advance(lx);
            while ((ch = lex_peek(lx, 0)) >= 0 && (lex_is_alnum(ch) || ch == ' ' || ch == '-'))
                lex_advance(lx);
            if (lex_peek(lx, 0) == '}')
                lex_advance(lx);
        }
        lex_error(lx, lex_span(at, lx->pos), "\\N{...} escapes are not supported; "
                  "write the character itself or use \\uXXXX");
    } else {
        /* unknown escape (or backslash at end of file): kept as written */
        lex_buf_add(lx, '\\');
        lex_advance(lx);
    }
}

/* A backslash in a raw string: kept, and so is the character after it
 * (so that r"\"" does not end at the escaped quote); a newline after it is
 * kept too.  In an f-string a brace after it is left for the caller. */
static void lex_raw_backslash(lexer *lx, bool fstring)
{
    lex_buf_add(lx, '\\');
    lex_advance(lx);
    int c = lex_peek(lx, 0);
    size_t nl = lex_newline_len(lx, lx->pos.off);
    if (c < 0 || (fstring && (c == '{' || c == '}')))
        return;
    if (nl) {
        lex_buf_add(lx, '\n');
        lex_skip(lx, nl);
    } else {
        lex_buf_add(lx, (char)c);
        lex_advance(lx);
    }
}

/* Is the closing quote (one or three) at the current position? */
static bool lex_at_close_quote(const lexer *lx, char quote, bool triple)
{
    if (lex_peek(lx, 0) != quote)
        return false;
    return !triple || (lex_peek(lx, 1) == quote && lex_peek(lx, 2) == quote);
}

/* A string literal; the prefix (from start) has been read, the position is
 * at the opening quote. */
static lex_token lex_string(lexer *lx, lex_pos start, unsigned flags)
{
    char quote = (char)lex_peek(lx, 0);
    bool triple = lex_peek(lx, 1) == quote && lex_peek(lx, 2) == quote;
    lex_pos open = lx->pos;
    lex_skip(lx, triple ? 3 : 1);
    lex_pos open_end = lx->pos;
    if (triple)
        flags |= TKF_TRIPLE;
    lx->blen = 0;
    for (;;) {
        int c = lex_peek(lx, 0);
        size_t nl = lex_newline_len(lx, lx->pos.off);
        if (c < 0 || (nl && !triple))
            break;
        if (lex_at_close_quote(lx, quote, triple)) {
            lex_skip(lx, triple ? 3 : 1);
            return lex_text_token(lx, TK_STRING, start, flags);
        }
        if (nl) {
            lex_buf_add(lx, '\n'); /* \r\n and \r read as \n, as Python does */
            lex_skip(lx, nl);
        } else if (c == '\\') {
            if (flags & TKF_RAW)
                lex_raw_backslash(lx, false);
            else
                lex_escape(lx, flags & TKF_BYTES);
        } else {
            lex_buf_add(lx, (char)c);
            lex_advance(lx);
        }
    }
    if (lex_peek(lx, 0) < 0)
        lx->eof_reported = true; /* no "never closed" error on top */
    if (triple)
        lex_error(lx, lex_span(open, open_end), "unterminated triple-quoted string literal");
    else
        lex_error(lx, lex_span(start, lx->pos),
                  "unterminated string literal (the closing %c is missing)", quote);
    return lex_text_token(lx, TK_STRING, start, flags);
}

/* FSTRING_START: prefix and opening quotes; the f-string's text follows. */
static lex_token lex_fstring_start(lexer *lx, lex_pos start, unsigned flags)
{
    lex_fstring fs;
    fs.quote = (char)lex_peek(lx, 0);
    fs.triple = lex_peek(lx, 1) == fs.quote && lex_peek(lx, 2) == fs.quote;
    fs.raw = flags & TKF_RAW;
    fs.reported = false;
    fs.base = lx->nbr;
    lex_skip(lx, fs.triple ? 3 : 1);
    fs.start = lex_span(start, lx->pos);
    lx->fs = lex_grow(lx->fs, lx->nfs, &lx->capfs, sizeof *lx->fs);
    lx->fs[lx->nfs++] = fs;
    lex_token t = lex_make(lx, TK_FSTRING_START, start);
    t.flags = flags | (fs.triple ? TKF_TRIPLE : 0);
    return t;
}

/* The f-string ends without its closing quote, at a line end or at the end
 * of the file. */
static void lex_fstring_unterminated(lexer *lx, lex_fstring *fs)
{
    if (fs->reported || lx->eof_reported)
        return;
    fs->reported = true;
    if (lex_peek(lx, 0) < 0)
        lx->eof_reported = true;
    if (fs->triple)
        lex_error(lx, fs->start, "unterminated triple-quoted f-string literal");
    else
        lex_error(lx, lex_span(lex_span_start(fs->start), lx->pos),
                  "unterminated f-string literal (the closing %c is missing)", fs->quote);
}

/* Literal text of the innermost f-string up to the next '{', '}', closing
 * quote or (single-quoted) line end.  `{{` and `}}` stand for one brace. */
static void lex_fstring_literal(lexer *lx, const lex_fstring *fs, bool in_spec)
{
    for (;;) {
        int c = lex_peek(lx, 0), c1 = lex_peek(lx, 1);
        size_t nl = lex_newline_len(lx, lx->pos.off);
        if (c < 0 || (nl && !fs->triple) || lex_at_close_quote(lx, fs->quote, fs->triple))
            return;
        if (c == '{' || c == '}') {
            if (in_spec || (c == '{' && c1 != '{'))
                return; /* a field opens or (in a spec) closes */
            if (c == '}' && c1 != '}') {
                lex_pos at = lx->pos;
                lex_advance(lx);
                lex_error(lx, lex_span(at, lx->pos),
                          "single '}' is not allowed in an f-string (write '}}')");
                lex_buf_add(lx, '}');
                continue;
            }
            lex_buf_add(lx, (char)c);
            lex_skip(lx, 2);
        } else if (c == '\\') {
            if (fs->raw)
                lex_raw_backslash(lx, true);
            else if (c1 == '{' || c1 == '}') { /* the brace is not escaped */
                lex_buf_add(lx, '\\');
                lex_advance(lx);
            } else {
                lex_escape(lx, false);
            }
        } else if (nl) {
            lex_buf_add(lx, '\n');
            lex_skip(lx, nl);
        } else {
            lex_buf_add(lx, (char)c);
            lex_advance(lx);
        }
    }
}

/* In an f-string's text: an FSTRING_MIDDLE, or what ends the text (a
 * field's '{', a spec's '}', FSTRING_END).  False when the tokens were
 * queued instead. */
static bool lex_fstring_text(lexer *lx, lex_token *out)
{
    lex_fstring *fs = lex_top_fstring(lx);
    bool in_spec = lx->nbr > fs->base;
    lex_pos start = lx->pos;
    lx->blen = 0;
    lex_fstring_literal(lx, fs, in_spec);
    if (lx->blen > 0) {
        *out = lex_text_token(lx, TK_FSTRING_MIDDLE, start, 0);
        return true;
    }
    start = lx->pos;
    int c = lex_peek(lx, 0);
    if (c < 0 || (lex_newline_len(lx, start.off) && !fs->triple)) {
        lex_fstring_unterminated(lx, fs);
        lex_close_fstring(lx, start, start);
        return false;
    }
    if (c == '{') {
        lex_advance(lx);
        lex_push_bracket(lx, '{', true, lex_span(start, lx->pos));
        *out = lex_make(lx, TK_LBRACE, start);
        return true;
    }
    if (c == '}') { /* end of a format spec, so of its field */
        lex_advance(lx);
        lx->nbr--;
        *out = lex_make(lx, TK_RBRACE, start);
        return true;
    }
    /* the closing quote */
    lex_skip(lx, fs->triple ? 3 : 1);
    if (in_spec)
        lex_error(lx, lex_span(start, lx->pos), "f-string: expecting '}'");
    lex_close_fstring(lx, start, lx->pos);
    return false;
}

/* ---- operators and brackets --------------------------------------------------- */

static const struct lex_op {
    const char *text;
    tk_kind kind;
} lex_ops[] = {
    /* longest first */
    {"**=", TK_DSTAREQ}, {"//=", TK_DSLASHEQ}, {">>=", TK_RSHIFTEQ}, {"<<=", TK_LSHIFTEQ},
    {"...", TK_ELLIPSIS},
    {"->", TK_ARROW}, {":=", TK_WALRUS}, {"!=", TK_NE}, {"**", TK_DSTAR}, {"//", TK_DSLASH},
    {"<<", TK_LSHIFT}, {">>", TK_RSHIFT}, {"<=", TK_LE}, {">=", TK_GE}, {"==", TK_EQEQ},
    {"+=", TK_PLUSEQ}, {"-=", TK_MINUSEQ}, {"*=", TK_STAREQ}, {"/=", TK_SLASHEQ},
    {"%=", TK_PERCENTEQ}, {"@=", TK_ATEQ}, {"&=", TK_AMPEQ}, {"|=", TK_PIPEEQ},
    {"^=", TK_CARETEQ},
    {"(", TK_LPAR}, {")", TK_RPAR}, {"[", TK_LSQB}, {"]", TK_RSQB}, {"{", TK_LBRACE},
    {"}", TK_RBRACE}, {",", TK_COMMA}, {":", TK_COLON}, {";", TK_SEMI}, {".", TK_DOT},
    {"!", TK_EXCLAIM}, {"+", TK_PLUS}, {"-", TK_MINUS}, {"*", TK_STAR}, {"/", TK_SLASH},
    {"%", TK_PERCENT}, {"@", TK_AT}, {"&", TK_AMP}, {"|", TK_PIPE}, {"^", TK_CARET},
    {"~", TK_TILDE}, {"<", TK_LT}, {">", TK_GT}, {"=", TK_EQ},
};

static const struct lex_op *lex_match_op(const lexer *lx)
{
    size_t left = lx->len - lx->pos.off;
    for (size_t i = 0; i < sizeof lex_ops / sizeof lex_ops[0]; i++) {
        size_t n = strlen(lex_ops[i].text);
        if (n <= left && memcmp(lx->s + lx->pos.off, lex_ops[i].text, n) == 0)
            return &lex_ops[i];
    }
    return NULL;
}

/* A closing bracket that is read (the position is past it).  False when the
 * token was queued or dropped. */
static bool lex_closer(lexer *lx, char closer, lex_pos start, lex_token *out)
{
    char opener = closer == ')' ? '(' : closer == ']' ? '[' : '{';
    src_span sp = lex_span(start, lx->pos);
    size_t floor = lex_bracket_floor(lx);
    if (lx->nbr <= floor) {
        lex_error(lx, sp, "unmatched '%c'", closer);
        return false;
    }
    lex_bracket top = lx->br[lx->nbr - 1];
    if (top.ch == opener) {
        lx->nbr--;
        *out = lex_make(lx, lex_closer_kind(opener), start);
        return true;
    }
    if (top.span.line != start.line)
        lex_error(lx, sp, "closing parenthesis '%c' does not match opening parenthesis "
                  "'%c' on line %d", closer, top.ch, top.span.line);
    else
        lex_error(lx, sp, "closing parenthesis '%c' does not match opening parenthesis '%c'",
                  closer, top.ch);
    /* An opener deeper down that it matches (not past a replacement field):
     * close what lies above it with made-up closers. */
    for (size_t i = lx->nbr; i-- > floor;) {
        if (lx->br[i].ch == opener) {
            lex_close_brackets(lx, i + 1, start);
            lx->nbr--;
            lx->line_has_tokens = true;
            lex_queue(lx, lex_token_at(lex_closer_kind(opener), start, lx->pos));
            return false;
        }
        if (lx->br[i].field)
            break;
    }
    if (top.field) /* a stray closer in a field: leave the field open */
        return false;
    /* Most likely a typo for the closer that was expected. */
    lx->nbr--;
    *out = lex_make(lx, lex_closer_kind(top.ch), start);
    return true;
}

/* An operator or delimiter; false when none starts here. */
static bool lex_operator(lexer *lx, lex_token *out, bool *produced)
{
    lex_pos start = lx->pos;
    const struct lex_op *op = lex_match_op(lx);
    if (!op)
        return false;
    tk_kind k = op->kind;
    lex_bracket *top = lx->nbr ? &lx->br[lx->nbr - 1] : NULL;
    if (k == TK_WALRUS && top && top->field)
        k = TK_COLON; /* f"{x:=5}": the spec is "=5", as in Python */
    lex_skip(lx, k == TK_COLON ? 1 : strlen(op->text));
    *produced = true;
    switch (k) {
    case TK_LPAR: case TK_LSQB: case TK_LBRACE:
        lex_push_bracket(lx, op->text[0], false, lex_span(start, lx->pos));
        break;
    case TK_RPAR: case TK_RSQB: case TK_RBRACE:
        *produced = lex_closer(lx, op->text[0], start, out);
        return true;
    case TK_COLON:
        if (top && top->field)
            top->in_spec = true; /* the format spec follows */
        break;
    default:
        break;
    }
    *out = lex_make(lx, k, start);
    return true;
}

/* ---- everything else ---------------------------------------------------------- */

/* A character that starts no token: report it and make an ERROR token. */
static lex_token lex_bad_char(lexer *lx)
{
    lex_pos start = lx->pos;
    uint32_t cp;
    size_t n = lex_utf8(lx, start.off, &cp);
    int c = lex_peek(lx, 0);
    lex_skip(lx, n ? n : 1);
    lex_token t = lex_make(lx, TK_ERROR, start);
    if (!n)
        lex_error(lx, t.span, "invalid byte 0x%02X: the file must be UTF-8 text", (unsigned)c);
    else if (lex_cp_is_unprintable(cp))
        lex_error(lx, t.span, "invalid non-printable character U+%04X", (unsigned)cp);
    else
        lex_error(lx, t.span, "invalid character '%.*s' (U+%04X)", (int)n,
                  (const char *)lx->s + start.off, (unsigned)cp);
    return t;
}

/* At end of file: close what is open, finish the line, dedent, EOF. */
static void lex_at_eof(lexer *lx)
{
    if (lx->nbr > 0 && !lx->eof_reported) {
        lex_bracket *b = &lx->br[lx->nbr - 1];
        lex_error(lx, b->span, "'%c' was never closed", b->ch);
    }
    lx->eof_reported = true;
    lex_close_all(lx);
    if (lx->line_has_tokens)
        lex_queue(lx, lex_token_at(TK_NEWLINE, lx->pos, lx->pos));
    lx->line_has_tokens = false;
    for (; lx->nind > 1; lx->nind--)
        if (!lx->ind[lx->nind - 1].phantom)
            lex_queue(lx, lex_token_at(TK_DEDENT, lx->pos, lx->pos));
    lex_queue(lx, lex_token_at(TK_EOF, lx->pos, lx->pos));
    lx->done = true;
}

static void lex_skip_blanks(lexer *lx)
{
    for (;;) {
        int c = lex_peek(lx, 0);
        if (c == ' ' || c == '\t' || c == '\f')
            lex_advance(lx);
        else if (c == '#')
            lex_skip_comment(lx);
        else
            return;
    }
}

/* A line end outside brackets ends the logical line: NEWLINE. */
static bool lex_line_end(lexer *lx, size_t nl, lex_token *out)
{
    lex_pos start = lx->pos;
    lex_skip(lx, nl);
    if (lx->nbr > 0) /* inside brackets a line end is only a space */
        return false;
    lx->at_bol = true;
    if (!lx->line_has_tokens)
        return false;
    lx->line_has_tokens = false;
    lex_pos end = start;
    end.col++;
    end.off += nl;
    *out = lex_token_at(TK_NEWLINE, start, end);
    return true;
}

/* A backslash outside strings: it must end the line. */
static bool lex_continuation(lexer *lx, lex_token *out)
{
    lex_pos start = lx->pos;
    size_t nl = lex_newline_len(lx, start.off + 1);
    lex_advance(lx);
    if (nl) {
        lex_skip(lx, nl);
        return false;
    }
    if (lex_peek(lx, 0) < 0) {
        lex_error(lx, lex_span(start, lx->pos),
                  "unexpected end of file after a line continuation character");
        return false;
    }
    *out = lex_make(lx, TK_ERROR, start);
    lex_error(lx, out->span, "unexpected character after line continuation character "
              "(a '\\' outside a string must end its line)");
    return true;
}

/* In a field of a single-quoted f-string, that f-string's own quote most
 * often means a '}' was forgotten (f"{x"), though Python 3.12 allows a
 * string with the same quotes there (f"{d["k"]}").  Take the quote as the
 * start of a string only when that string closes on its line. */
static bool lex_quote_ends_fstring(const lexer *lx, int quote)
{
    const lex_fstring *fs = lx->nfs ? &lx->fs[lx->nfs - 1] : NULL;
    if (!fs || fs->triple || fs->quote != quote)
        return false;
    if (lex_peek(lx, 1) == quote && lex_peek(lx, 2) == quote)
        return false; /* a triple-quoted string */
    for (size_t p = lx->pos.off + 1;; p++) {
        int c = lex_at(lx, p);
        if (c < 0 || c == '\n' || c == '\r')
            return true;
        if (c == quote)
            return false;
        if (c == '\\')
            p++;
    }
}

/* Ordinary tokens (outside f-string text).  False when nothing was
 * produced this time (blank line, queued tokens, a dropped closer). */
static bool lex_regular(lexer *lx, lex_token *out)
{
    if (lx->at_bol) {
        lex_indentation(lx);
        return false;
    }
    lex_skip_blanks(lx);
    int c = lex_peek(lx, 0);
    size_t nl = lex_newline_len(lx, lx->pos.off);
    if (c < 0) {
        lex_at_eof(lx);
        return false;
    }
    if (nl)
        return lex_line_end(lx, nl, out);
    if (c == '\\')
        return lex_continuation(lx, out);
    if (lex_ident_char(lx, lx->pos.off, true)) {
        *out = lex_word(lx);
        return true;
    }
    if (lex_is_digit(c) || (c == '.' && lex_is_digit(lex_peek(lx, 1)))) {
        *out = lex_number(lx);
        return true;
    }
    if ((c == '\'' || c == '"') && lex_quote_ends_fstring(lx, c)) {
        lex_pos start = lx->pos;
        lex_advance(lx);
        lex_error(lx, lex_span(start, lx->pos), "f-string: expecting '}'");
        lex_close_fstring(lx, start, lx->pos);
        return false;
    }
    if (c == '\'' || c == '"') {
        *out = lex_string(lx, lx->pos, 0);
        return true;
    }
    bool produced;
    if (lex_operator(lx, out, &produced))
        return produced;
    *out = lex_bad_char(lx);
    return true;
}

/* ---- public interface --------------------------------------------------------- */

/* CPython refuses a whole file that is not UTF-8 or that holds a NUL byte,
 * wherever the byte is (in a string literal or a comment too), before it
 * reads a token: the first such byte is the file's one error, and the
 * lexer then sees an empty file. */
static void lex_check_text(lexer *lx)
{
    lex_pos begin = lx->pos;
    size_t off = begin.off;
    uint32_t cp = 0;
    size_t n = 0;
    while (off < lx->len && (n = lex_utf8(lx, off, &cp)) != 0 && cp != 0)
        off += n;
    if (off >= lx->len)
        return;
    lex_skip_to(lx, off);
    lex_pos at = lx->pos;
    lex_skip(lx, n ? n : 1);
    src_span sp = lex_span(at, lx->pos);
    sp.end_line = sp.line;          /* one column, even for a byte that ends a line */
    sp.end_col = sp.col + 1;
    if (n)
        lex_error(lx, sp, "source code cannot contain null bytes (as in Python)");
    else
        lex_error(lx, sp, "invalid byte 0x%02X: the file must be UTF-8 text, as Python "
                  "requires (a string literal or a comment too)", (unsigned)lx->s[off]);
    lx->pos = begin;
    lx->len = 0;
}

lexer *lex_open(const src_file *f, diag_sink *d, arena *a)
{
    lexer *lx = xcalloc(1, sizeof *lx);
    lx->f = f;
    lx->d = d;
    lx->a = a;
    lx->s = (const unsigned char *)f->text;
    lx->len = f->len;
    if (lx->len > INT_MAX) { /* spans hold lines, columns and offsets in ints */
        src_span start = {1, 1, 1, 2, 0, 1};
        lex_error(lx, start, "the file is too large (more than 2 GiB)");
        lx->len = 0;
    }
    lx->pos.line = 1;
    lx->pos.col = 1;
    if (lx->len >= 3 && memcmp(lx->s, "\xEF\xBB\xBF", 3) == 0)
        lx->pos.off = 3; /* a UTF-8 byte order mark takes no column */
    lex_check_text(lx);
    lx->at_bol = true;
    src_span none = {0, 0, 0, 0, 0, 0};
    lex_push_indent(lx, 0, 0, false, none);
    return lx;
}

void lex_close(lexer *lx)
{
    if (!lx)
        return;
    free(lx->ind);
    free(lx->br);
    free(lx->fs);
    free(lx->q);
    free(lx->buf);
    free(lx);
}

lex_token lex_next(lexer *lx)
{
    for (;;) {
        if (lx->qhead < lx->qlen) {
            lex_token t = lx->q[lx->qhead++];
            if (lx->qhead == lx->qlen)
                lx->qhead = lx->qlen = 0;
            return t;
        }
        if (lx->done)
            return lex_token_at(TK_EOF, lx->pos, lx->pos);
        lex_token t;
        bool got = lex_in_fstring_text(lx) ? lex_fstring_text(lx, &t) : lex_regular(lx, &t);
        if (got)
            return t;
    }
}

/* ---- lex_dump --------------------------------------------------------------------- */

/* One line of lex_dump.  FLOAT and IMAG values are printed as Python's
 * repr() of the float (the shortest digits that read back: 0.5, 1e-05,
 * 1000.0, inf), an IMAG without its 'j'; STRING and FSTRING_MIDDLE as
 * repr() of the decoded text, a bytes literal with a 'b' before it; an INT
 * too big for 64 bits as "big" and its source text. */
static void lex_print_token(FILE *out, const src_file *f, const lex_token *t)
{
    strbuf b;
    strbuf_init(&b);
    strbuf_printf(&b, "%d:%d-%d:%d %s", t->span.line, t->span.col, t->span.end_line,
                  t->span.end_col, lex_kind_name(t->kind));
    switch (t->kind) {
    case TK_NAME:
        strbuf_printf(&b, " '%s'", t->str);
        break;
    case TK_INT:
        if (t->flags & TKF_INT_BIG)
            strbuf_printf(&b, " big %.*s", (int)(t->span.end_off - t->span.off),
                          f->text + t->span.off);
        else
            strbuf_printf(&b, " %llu", (unsigned long long)t->ival);
        break;
    case TK_FLOAT:
    case TK_IMAG:
        strbuf_putc(&b, ' ');
        pyformat_float_repr(&b, t->fval);
        break;
    case TK_STRING:
    case TK_FSTRING_MIDDLE:
        strbuf_puts(&b, t->flags & TKF_BYTES ? " b" : " ");
        pyformat_str_repr(&b, t->str, t->len);
        break;
    default:
        break;
    }
    fprintf(out, "%s\n", strbuf_cstr(&b));
    strbuf_free(&b);
}

void lex_dump(const src_file *f, diag_sink *d, FILE *out)
{
    arena a;
    arena_init(&a);
    lexer *lx = lex_open(f, d, &a);
    for (;;) {
        lex_token t = lex_next(lx);
        lex_print_token(out, f, &t);
        if (t.kind == TK_EOF)
            break;
    }
    lex_close(lx);
    arena_free(&a);
}
