/* remod.c - the re module on PCRE2 (libpcre2-8, UTF and UCP modes):
 * compile, search, match, fullmatch, findall, finditer, sub, subn, split,
 * escape, purge; the flags I, M, S, X, A (and U, the default for str);
 * Pattern and Match objects with Python's attributes and reprs; re.error.
 *
 * Python's syntax is translated where PCRE2 reads it otherwise (\Z, \u,
 * \U, the inline flags a, u, L), and Python's rules are kept where PCRE2
 * has other defaults: spans count code points, not bytes; empty matches
 * in findall/sub/split follow Python 3.7+ (an empty match may not follow
 * another at the same place).  Matching is bounded by PCRE2's match and
 * depth limits: a catastrophic pattern raises a RuntimeError saying so
 * instead of running for ever.  Only str patterns: tritsim has no bytes. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "builtins_impl.h"

#include <pcre2.h>
#include <stdlib.h>
#include <string.h>

/* Python's flag values (re.RegexFlag) */
enum {
    RE_T = 1, RE_I = 2, RE_L = 4, RE_M = 8, RE_S = 16, RE_U = 32, RE_X = 64, RE_A = 256,
    RE_DEBUG = 128,
};

/* How many steps one match may take (PCRE2's match limit): a pattern that
 * backtracks catastrophically stops there. */
#define RE_MATCH_LIMIT 10000000u
#define RE_DEPTH_LIMIT 10000000u
#define RE_CACHE_MAX 512

typedef struct re_pattern {
    val_object o;
    pcre2_code *code;
    val pattern;        /* the str as given */
    int flags;          /* Python's flags, inline ones included */
    int groups;
    val groupindex;     /* dict name -> number */
    int *parent;        /* parent[g]: the capture group g is nested in (0: none) */
} re_pattern;

typedef struct re_match_obj {
    val_object o;
    val pattern;        /* the re_pattern */
    val string;
    int64_t pos, endpos;    /* code points */
    int ngroups;
    PCRE2_SIZE *ov;     /* 2 * (ngroups + 1) byte offsets, PCRE2_UNSET when unset */
} re_match_obj;

static const val_type re_pattern_type, re_match_type;

static re_pattern *re_pat(val v) { return (re_pattern *)v.u.o; }
static re_match_obj *re_m(val v) { return (re_match_obj *)v.u.o; }
static bool re_is_pattern(val v)
{
    return v.kind == VAL_OBJECT && v.u.o->type == &re_pattern_type;
}

/* ---- code points and bytes -------------------------------------------------------- */

/* The code point index of byte offset b of s. */
static int64_t re_char_of(const val_str *s, size_t b)
{
    if (s->ascii)
        return (int64_t)b;
    int64_t n = 0;
    for (size_t i = 0; i < b && i < s->len; i++)
        n += ((unsigned char)s->s[i] & 0xC0) != 0x80;
    return n;
}

/* The byte offset of code point index c of s (clamped to its length). */
static size_t re_byte_of(const val_str *s, int64_t c)
{
    if (c <= 0)
        return 0;
    if (s->ascii)
        return (size_t)c < s->len ? (size_t)c : s->len;
    size_t i = 0;
    for (int64_t n = 0; i < s->len; i++) {
        if (((unsigned char)s->s[i] & 0xC0) != 0x80 && n++ == c)
            return i;
    }
    return s->len;
}

/* ---- errors ------------------------------------------------------------------------ */

static val re_error_class(host *h)
{
    val m = host_module(h, "re");
    return m.kind == VAL_MISSING ? host_exc_class(h, HOST_EXC_EXCEPTION)
                                 : val_object_get(m, "error");
}

/* Raise re.error(msg, pattern, pos) with e.msg, e.pattern, e.pos. */
static val re_raise_error(host *h, src_span at, val pattern, int64_t pos, const char *msg)
{
    val cls = re_error_class(h);
    val text = pos >= 0 ? val_str_fmt("%s at position %lld", msg, (long long)pos)
                        : val_str_cstr(msg);
    val e = host_call(h, cls, 1, &text, NULL, at);
    val_unref(text);
    if (e.kind == VAL_ERR)
        return e;
    host_setattr(h, e, "msg", val_str_cstr(msg), at);
    host_setattr(h, e, "pattern", pattern, at);
    host_setattr(h, e, "pos", pos >= 0 ? val_int(pos) : val_none(), at);
    host_raise_value(h, e, at);
    val_unref(e);
    return val_err();
}

/* ---- translating Python's syntax ---------------------------------------------------- */

typedef struct re_scan {
    strbuf out;
    int flags;          /* inline global flags found */
    int groups;
    int *parent;        /* by group number, grown as groups are found */
    int cap;
    strbuf names;       /* "\0"-separated group names, in group order */
    int *name_group;    /* the group of each name */
    int nnames;
    char err_buf[160];
    const char *err;    /* a syntax error PCRE2 would not report as Python does */
    int64_t err_pos;
    int64_t open_paren; /* byte offset of the innermost unclosed '(', or -1 */
    int64_t open_class; /* byte offset of an unclosed '[', or -1 */
} re_scan;

static void re_add_group(re_scan *sc, int parent)
{
    sc->groups++;
    if (sc->groups >= sc->cap) {
        sc->cap = sc->cap ? sc->cap * 2 : 16;
        sc->parent = xrealloc(sc->parent, (size_t)sc->cap * sizeof *sc->parent);
    }
    sc->parent[sc->groups] = parent;
}

/* The group just added is named by p[start..'>'): a name used before is
 * Python's "redefinition of group name" error. */
static void re_note_name(re_scan *sc, const char *p, size_t start, size_t n)
{
    size_t end = start;
    while (end < n && p[end] != '>')
        end++;
    size_t len = end - start, off = 0;
    for (int k = 0; k < sc->nnames; k++) {
        const char *name = strbuf_cstr(&sc->names) + off;
        if (strlen(name) == len && !memcmp(name, p + start, len) && !sc->err) {
            snprintf(sc->err_buf, sizeof sc->err_buf, "redefinition of group name '%.*s' as "
                     "group %d; was group %d", (int)(len > 64 ? 64 : len), p + start,
                     sc->groups, sc->name_group[k]);
            sc->err = sc->err_buf;
            sc->err_pos = (int64_t)start;
        }
        off += strlen(name) + 1;
    }
    sc->name_group = xrealloc(sc->name_group, (size_t)(sc->nnames + 1) * sizeof(int));
    sc->name_group[sc->nnames++] = sc->groups;
    strbuf_putn(&sc->names, p + start, len);
    strbuf_putc(&sc->names, '\0');
}

static int re_flag_bit(char c)
{
    switch (c) {
    case 'a': return RE_A;
    case 'i': return RE_I;
    case 'L': return RE_L;
    case 'm': return RE_M;
    case 's': return RE_S;
    case 'u': return RE_U;
    case 'x': return RE_X;
    default: return 0;
    }
}

/* Translate pattern p (n bytes) for PCRE2: \Z -> \z, \uXXXX and
 * \UXXXXXXXX -> \x{...}, inline flags a/u/L taken out (they are applied
 * as options); note the capture groups and their nesting. */
static void re_translate(re_scan *sc, const char *p, size_t n)
{
    int stack[256];
    size_t opened[256];
    int depth = 0;
    bool in_class = false;
    size_t i = 0;
    while (i < n) {
        char c = p[i];
        if (c == '\\' && i + 1 < n) {
            char d = p[i + 1];
            if (d == 'Z' && !in_class) {
                strbuf_puts(&sc->out, "\\z");
                i += 2;
                continue;
            }
            if (d == 'u' || d == 'U') {
                size_t k = d == 'u' ? 4 : 8, j = i + 2;
                while (j < n && j < i + 2 + k && strchr("0123456789abcdefABCDEF", p[j]) &&
                       p[j])
                    j++;
                if (j - (i + 2) != k) {
                    sc->err = "incomplete escape";
                    sc->err_pos = (int64_t)i;
                    return;
                }
                strbuf_puts(&sc->out, "\\x{");
                strbuf_putn(&sc->out, p + i + 2, k);
                strbuf_putc(&sc->out, '}');
                i = j;
                continue;
            }
            strbuf_putn(&sc->out, p + i, 2);
            i += 2;
            continue;
        }
        if (in_class) {
            if (c == ']')
                in_class = false;
            strbuf_putc(&sc->out, c);
            i++;
            continue;
        }
        if (c == '[') {
            in_class = true;
            sc->open_class = (int64_t)i;
            strbuf_putc(&sc->out, c);
            i++;
            /* a ']' first (after an optional '^') is a literal */
            if (i < n && p[i] == '^')
                strbuf_putc(&sc->out, p[i++]);
            if (i < n && p[i] == ']')
                strbuf_putc(&sc->out, p[i++]);
            continue;
        }
        if (c == '#' && (sc->flags & RE_X)) {   /* a comment of a verbose pattern */
            while (i < n && p[i] != '\n')
                strbuf_putc(&sc->out, p[i++]);
            continue;
        }
        if (c == ')') {
            if (depth > 0)
                depth--;
            strbuf_putc(&sc->out, c);
            i++;
            continue;
        }
        if (c != '(') {
            strbuf_putc(&sc->out, c);
            i++;
            continue;
        }
        /* an opening parenthesis: a capture group, another group, or flags */
        int parent = 0;
        for (int k = depth - 1; k >= 0; k--)
            if (stack[k] > 0) {
                parent = stack[k];
                break;
            }
        int kind = 0;   /* > 0: this capture group's number */
        if (i + 1 < n && p[i + 1] == '?') {
            size_t j = i + 2;
            if (j + 1 < n && p[j] == 'P' && p[j + 1] == '<') {
                re_add_group(sc, parent);
                kind = sc->groups;
                re_note_name(sc, p, j + 2, n);
            } else if (j < n && re_flag_bit(p[j])) {
                int on = 0;
                size_t k = j;
                while (k < n && re_flag_bit(p[k]))
                    on |= re_flag_bit(p[k++]);
                bool scoped = k < n && (p[k] == ':' || p[k] == '-');
                if (!scoped)
                    sc->flags |= on;
                strbuf b = {0};
                for (size_t q = j; q < k; q++)
                    if (!strchr("auL", p[q]))
                        strbuf_putc(&b, p[q]);
                if (b.len == 0 && k < n && p[k] == ')') {
                    strbuf_free(&b);    /* (?a) alone: nothing left for PCRE2 */
                    i = k + 1;
                    continue;
                }
                strbuf_puts(&sc->out, "(?");
                strbuf_puts(&sc->out, strbuf_cstr(&b));
                strbuf_free(&b);
                if (depth < 256) {
                    opened[depth] = i;
                    stack[depth++] = 0;
                }
                if (k < n && p[k] == ')')
                    depth--;    /* (?i) closes at once */
                i = k;
                continue;
            }
        } else {
            re_add_group(sc, parent);
            kind = sc->groups;
        }
        if (depth < 256) {
            opened[depth] = i;
            stack[depth++] = kind;
        }
        strbuf_putc(&sc->out, c);
        i++;
    }
    sc->open_paren = depth > 0 ? (int64_t)opened[depth - 1] : -1;
    if (!in_class)
        sc->open_class = -1;
}

/* PCRE2's messages for the errors Python words otherwise. */
static const char *re_python_message(int code)
{
    switch (code) {
    case PCRE2_ERROR_MISSING_CLOSING_PARENTHESIS: return "missing ), unterminated subpattern";
    case PCRE2_ERROR_QUANTIFIER_INVALID: return "nothing to repeat";
    case PCRE2_ERROR_UNMATCHED_CLOSING_PARENTHESIS: return "unbalanced parenthesis";
    case PCRE2_ERROR_MISSING_SQUARE_BRACKET: return "unterminated character set";
    case PCRE2_ERROR_END_BACKSLASH: return "bad escape (end of pattern)";
    case PCRE2_ERROR_QUANTIFIER_OUT_OF_ORDER: return "min repeat greater than max repeat";
    case PCRE2_ERROR_CLASS_RANGE_ORDER: return "bad character range";
    case PCRE2_ERROR_DUPLICATE_SUBPATTERN_NAME: return "redefinition of group name";
    default: return NULL;
    }
}

static void re_pattern_free(val_obj *o)
{
    re_pattern *p = (re_pattern *)o;
    pcre2_code_free(p->code);
    free(p->parent);
    val_unref(p->pattern);
    val_unref(p->groupindex);
}

/* Compile pattern (a str) with Python flags. */
static val re_compile_new(host *h, val pattern, int flags, src_span at)
{
    const val_str *ps = val_as_str(pattern);
    if ((flags & RE_A) && (flags & RE_U))
        return host_raise(h, HOST_EXC_VALUE, at, "ValueError: ASCII and UNICODE flags are "
                          "incompatible");
    if (flags & RE_L)
        return host_raise(h, HOST_EXC_VALUE, at, "ValueError: cannot use LOCALE flag with a "
                          "str pattern");
    re_scan sc = {.flags = flags};
    /* global inline flags come first in Python: scan once for (?x) */
    for (size_t i = 0; i + 2 < ps->len && ps->s[i] == '(' && ps->s[i + 1] == '?';) {
        size_t k = i + 2;
        int on = 0;
        while (k < ps->len && re_flag_bit(ps->s[k]))
            on |= re_flag_bit(ps->s[k++]);
        if (k >= ps->len || ps->s[k] != ')' || !on)
            break;
        sc.flags |= on;
        i = k + 1;
    }
    re_translate(&sc, ps->s, ps->len);
    strbuf_free(&sc.names);
    free(sc.name_group);
    if (sc.err) {
        strbuf_free(&sc.out);
        free(sc.parent);
        return re_raise_error(h, at, pattern, re_char_of(ps, (size_t)sc.err_pos), sc.err);
    }
    int f = sc.flags;
    uint32_t opts = PCRE2_UTF | PCRE2_MATCH_INVALID_UTF;
    if (!(f & RE_A))
        opts |= PCRE2_UCP;
    if (f & RE_I)
        opts |= PCRE2_CASELESS;
    if (f & RE_M)
        opts |= PCRE2_MULTILINE;
    if (f & RE_S)
        opts |= PCRE2_DOTALL;
    if (f & RE_X)
        opts |= PCRE2_EXTENDED;
    int code;
    PCRE2_SIZE off;
    pcre2_code *re = pcre2_compile((PCRE2_SPTR)strbuf_cstr(&sc.out), sc.out.len, opts, &code,
                                   &off, NULL);
    strbuf_free(&sc.out);
    if (!re) {
        free(sc.parent);
        const char *pm = re_python_message(code);
        PCRE2_UCHAR buf[256];
        if (!pm) {
            pcre2_get_error_message(code, buf, sizeof buf);
            pm = (const char *)buf;
        }
        int64_t pos = re_char_of(ps, off < ps->len ? off : ps->len);
        if (code == PCRE2_ERROR_MISSING_CLOSING_PARENTHESIS && sc.open_paren >= 0)
            pos = re_char_of(ps, (size_t)sc.open_paren);
        if (code == PCRE2_ERROR_QUANTIFIER_OUT_OF_ORDER) {
            /* Python points just after the '{' */
            size_t b = off < ps->len ? off : ps->len;
            while (b > 0 && ps->s[b - 1] != '{')
                b--;
            pos = re_char_of(ps, b);
        }
        if (code == PCRE2_ERROR_MISSING_SQUARE_BRACKET && sc.open_class >= 0)
            pos = re_char_of(ps, (size_t)sc.open_class);
        if (code == PCRE2_ERROR_QUANTIFIER_INVALID && pos > 0)
            pos--;      /* Python points at the quantifier */
        return re_raise_error(h, at, pattern, pos, pm);
    }
    uint32_t ncap = 0, nnames = 0, esize = 0;
    pcre2_pattern_info(re, PCRE2_INFO_CAPTURECOUNT, &ncap);
    pcre2_pattern_info(re, PCRE2_INFO_NAMECOUNT, &nnames);
    pcre2_pattern_info(re, PCRE2_INFO_NAMEENTRYSIZE, &esize);
    re_pattern *p = val_obj_new(sizeof *p, VAL_OBJECT, &re_pattern_type);
    p->code = re;
    p->pattern = val_ref(pattern);
    p->flags = f | (f & RE_A ? 0 : RE_U);
    p->groups = (int)ncap;
    p->parent = xcalloc(ncap + 1, sizeof *p->parent);
    for (int g = 1; g <= (int)ncap && g <= sc.groups; g++)
        p->parent[g] = sc.parent[g];
    free(sc.parent);
    p->groupindex = val_dict_new();
    PCRE2_SPTR table;
    pcre2_pattern_info(re, PCRE2_INFO_NAMETABLE, &table);
    for (uint32_t i = 0; i < nnames; i++) {
        const unsigned char *e = table + (size_t)i * esize;
        val_dict_set(p->groupindex, val_str_cstr((const char *)e + 2),
                     val_int(e[0] << 8 | e[1]));
    }
    return val_of(p);
}

/* The cache of compiled patterns: a dict (pattern, flags) -> Pattern kept
 * on the module (re.purge empties it). */
static val re_cache(host *h)
{
    val m = host_module(h, "re");
    return m.kind == VAL_MISSING ? val_missing() : val_object_get(m, "_cache");
}

/* The Pattern for a pattern argument (a str or a Pattern) and flags: a new
 * reference, VAL_ERR after reporting. */
static val re_get(host *h, val pattern, val flagsv, src_span at)
{
    int64_t flags = 0;
    if (flagsv.kind != VAL_MISSING && !host_to_int(h, flagsv, at, "flags", &flags))
        return val_err();
    if (re_is_pattern(pattern)) {
        if (flags)
            return host_raise(h, HOST_EXC_VALUE, at, "ValueError: cannot process flags "
                              "argument with a compiled pattern");
        return val_ref(pattern);
    }
    if (pattern.kind != VAL_STR)
        return host_raise(h, HOST_EXC_TYPE, at, "first argument must be string or compiled "
                          "pattern%s", "");
    val cache = re_cache(h);
    val key = val_missing();
    if (cache.kind == VAL_DICT) {
        val parts[2] = {pattern, val_int(flags)};
        key = val_tuple_of(2, parts);
        val_ref(pattern);
        val hit = val_dict_get(cache, key);
        if (hit.kind != VAL_MISSING) {
            val_unref(key);
            return val_ref(hit);
        }
    }
    val p = re_compile_new(h, pattern, (int)flags, at);
    if (p.kind != VAL_ERR && key.kind != VAL_MISSING) {
        if (val_as_dict(cache)->len >= RE_CACHE_MAX)
            val_dict_clear(cache);
        val_dict_set(cache, key, val_ref(p));
    } else {
        val_unref(key);
    }
    return p;
}

/* ---- matching ---------------------------------------------------------------------- */

/* One match of p in s at byte offset start, within [0, end) bytes, with
 * PCRE2 options opts: 1 with *out a new Match, 0 none, -1 error. */
static int re_exec(host *h, val pv, val s, size_t start, size_t end, uint32_t opts,
                   int64_t pos, int64_t endpos, val *out, src_span at)
{
    re_pattern *p = re_pat(pv);
    const val_str *str = val_as_str(s);
    pcre2_match_data *md = pcre2_match_data_create_from_pattern(p->code, NULL);
    pcre2_match_context *mc = pcre2_match_context_create(NULL);
    pcre2_set_match_limit(mc, RE_MATCH_LIMIT);
    pcre2_set_depth_limit(mc, RE_DEPTH_LIMIT);
    int rc = pcre2_match(p->code, (PCRE2_SPTR)str->s, end, start, opts, md, mc);
    pcre2_match_context_free(mc);
    if (rc == PCRE2_ERROR_NOMATCH) {
        pcre2_match_data_free(md);
        return 0;
    }
    if (rc < 0) {
        pcre2_match_data_free(md);
        PCRE2_UCHAR buf[256];
        pcre2_get_error_message(rc, buf, sizeof buf);
        if (rc == PCRE2_ERROR_MATCHLIMIT || rc == PCRE2_ERROR_DEPTHLIMIT ||
            rc == PCRE2_ERROR_HEAPLIMIT)
            host_raise(h, HOST_EXC_RUNTIME, at, "re: matching %s gave up after PCRE2's limit "
                       "of %u steps (%s): the pattern backtracks catastrophically on this "
                       "string (nested repeats such as (a+)+?)",
                       val_as_str(p->pattern)->s, RE_MATCH_LIMIT, (const char *)buf);
        else
            host_raise(h, HOST_EXC_RUNTIME, at, "re: PCRE2 failed: %s", (const char *)buf);
        return -1;
    }
    re_match_obj *m = val_obj_new(sizeof *m, VAL_OBJECT, &re_match_type);
    m->pattern = val_ref(pv);
    m->string = val_ref(s);
    m->pos = pos;
    m->endpos = endpos;
    m->ngroups = p->groups;
    m->ov = xmalloc(2 * ((size_t)p->groups + 1) * sizeof *m->ov);
    PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
    uint32_t n = pcre2_get_ovector_count(md);
    for (int g = 0; g <= p->groups; g++) {
        bool set = (uint32_t)g < n && g < rc && ov[2 * g] != PCRE2_UNSET;
        m->ov[2 * g] = set ? ov[2 * g] : PCRE2_UNSET;
        m->ov[2 * g + 1] = set ? ov[2 * g + 1] : PCRE2_UNSET;
    }
    pcre2_match_data_free(md);
    *out = val_of(m);
    return 1;
}

/* Resolve pos and endpos (code points, Python's clamping) of s to bytes. */
static bool re_bounds(host *h, val s, val posv, val endv, src_span at, int64_t *pos,
                      int64_t *endpos, size_t *bstart, size_t *bend)
{
    const val_str *str = val_as_str(s);
    int64_t len = (int64_t)val_str_chars(str);
    *pos = 0;
    *endpos = len;
    if (posv.kind != VAL_MISSING && !host_to_int(h, posv, at, "pos", pos))
        return false;
    if (endv.kind != VAL_MISSING && endv.kind != VAL_NONE &&
        !host_to_int(h, endv, at, "endpos", endpos))
        return false;
    if (*pos < 0)
        *pos = 0;
    if (*pos > len)
        *pos = len;
    if (*endpos < 0)
        *endpos = 0;
    if (*endpos > len)
        *endpos = len;
    *bstart = re_byte_of(str, *pos);
    *bend = re_byte_of(str, *endpos);
    return true;
}

static bool re_str_arg(host *h, val v, src_span at)
{
    if (v.kind == VAL_STR)
        return true;
    host_raise(h, HOST_EXC_TYPE, at, "expected string or bytes-like object, got '%s'",
               val_type_name(v));
    return false;
}

/* Pattern.search/match/fullmatch(string, pos=0, endpos=None) with pv the
 * Pattern (owned by the caller). */
static val re_do_match(host *h, val pv, val s, val posv, val endv, int how, src_span at)
{
    if (!re_str_arg(h, s, at))
        return val_err();
    int64_t pos, endpos;
    size_t bs, be;
    if (!re_bounds(h, s, posv, endv, at, &pos, &endpos, &bs, &be))
        return val_err();
    if (bs > be)
        return val_none();
    uint32_t opts = how == 0 ? 0 : how == 1 ? PCRE2_ANCHORED : PCRE2_ANCHORED | PCRE2_ENDANCHORED;
    val m;
    int r = re_exec(h, pv, s, bs, be, opts, pos, endpos, &m, at);
    return r < 0 ? val_err() : r == 0 ? val_none() : m;
}

/* Each match of pv in s from bs to be bytes, as Python 3.7+ finds them:
 * fn(ctx, match) for each (0 stop, -1 error), at most max (0: all).
 * Returns false after an error. */
static bool re_each(host *h, val pv, val s, int64_t pos, int64_t endpos, size_t bs, size_t be,
                    int64_t max, int (*fn)(void *ctx, val m), void *ctx, src_span at)
{
    const val_str *str = val_as_str(s);
    size_t at_b = bs;
    bool after_empty = false;
    int64_t count = 0;
    while (at_b <= be && (!max || count < max)) {
        val m;
        int r = re_exec(h, pv, s, at_b, be, after_empty ? PCRE2_NOTEMPTY_ATSTART : 0, pos,
                        endpos, &m, at);
        if (r < 0)
            return false;
        if (r == 0)
            break;
        size_t ms = re_m(m)->ov[0], me = re_m(m)->ov[1];
        (void)ms;
        count++;
        int k = fn(ctx, m);
        val_unref(m);
        if (k <= 0)
            return k == 0;
        after_empty = ms == me;
        at_b = me;
        (void)str;
    }
    return true;
}

/* ---- Match objects ---------------------------------------------------------------- */

/* Group g's text, or dflt (borrowed) when it did not take part. */
static val re_group_text(re_match_obj *m, int g, val dflt)
{
    if (m->ov[2 * g] == PCRE2_UNSET)
        return val_ref(dflt);
    return val_str_new(val_as_str(m->string)->s + m->ov[2 * g],
                       m->ov[2 * g + 1] - m->ov[2 * g]);
}

/* The group number that v names (an int or a group name), -1 after an
 * IndexError. */
static int re_group_index(host *h, re_match_obj *m, val v, src_span at)
{
    if (builtin_is_int(v)) {
        int64_t g = builtin_int_of(v);
        if (g >= 0 && g <= m->ngroups)
            return (int)g;
    } else if (v.kind == VAL_STR) {
        val g = val_dict_get(re_pat(m->pattern)->groupindex, v);
        if (g.kind == VAL_INT)
            return (int)g.u.i;
    }
    host_raise(h, HOST_EXC_INDEX, at, "no such group");
    return -1;
}

BUILTIN_FN(re_match_group)
{
    re_match_obj *m = re_m(self);
    if (!builtin_no_kwargs(h, "group", kw, at))
        return val_err();
    if (argc <= 1) {
        int g = argc ? re_group_index(h, m, argv[0], at) : 0;
        return g < 0 ? val_err() : re_group_text(m, g, val_none());
    }
    val t = val_tuple_new((size_t)argc);
    for (int i = 0; i < argc; i++) {
        int g = re_group_index(h, m, argv[i], at);
        if (g < 0) {
            val_unref(t);
            return val_err();
        }
        val_seq_set(t, (size_t)i, re_group_text(m, g, val_none()));
    }
    return t;
}

static val re_match_getitem(host *h, val self, val key, src_span at)
{
    int g = re_group_index(h, re_m(self), key, at);
    return g < 0 ? val_err() : re_group_text(re_m(self), g, val_none());
}

BUILTIN_FN(re_match_groups)
{
    val a[1];
    if (!host_args(h, at, "groups", "default=", argc, argv, kw, a))
        return val_err();
    re_match_obj *m = re_m(self);
    val dflt = a[0].kind == VAL_MISSING ? val_none() : a[0];
    val t = val_tuple_new((size_t)m->ngroups);
    for (int g = 1; g <= m->ngroups; g++)
        val_seq_set(t, (size_t)g - 1, re_group_text(m, g, dflt));
    return t;
}

BUILTIN_FN(re_match_groupdict)
{
    val a[1];
    if (!host_args(h, at, "groupdict", "default=", argc, argv, kw, a))
        return val_err();
    re_match_obj *m = re_m(self);
    val dflt = a[0].kind == VAL_MISSING ? val_none() : a[0];
    val d = val_dict_new();
    /* in the order of the group numbers, as Python's groupindex */
    val gi = re_pat(m->pattern)->groupindex;
    for (int g = 1; g <= m->ngroups; g++) {
        size_t pos = 0;
        val k, v;
        while (val_dict_next(gi, &pos, &k, &v))
            if (v.u.i == g)
                val_dict_set(d, val_ref(k), re_group_text(m, g, dflt));
    }
    return d;
}

/* start (what 0), end (1) or span (2) of a group */
static val re_match_where(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                          src_span at, const char *fname, int what)
{
    re_match_obj *m = re_m(self);
    if (!builtin_nargs(h, fname, argc, kw, 0, 1, at))
        return val_err();
    int g = argc ? re_group_index(h, m, argv[0], at) : 0;
    if (g < 0)
        return val_err();
    const val_str *s = val_as_str(m->string);
    int64_t a = -1, b = -1;
    if (m->ov[2 * g] != PCRE2_UNSET) {
        a = re_char_of(s, m->ov[2 * g]);
        b = re_char_of(s, m->ov[2 * g + 1]);
    }
    if (what == 0)
        return val_int(a);
    if (what == 1)
        return val_int(b);
    val t[2] = {val_int(a), val_int(b)};
    return val_tuple_of(2, t);
}

static val re_match_start(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                          src_span at)
{
    return re_match_where(h, self, argc, argv, kw, at, "start", 0);
}
static val re_match_end(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                        src_span at)
{
    return re_match_where(h, self, argc, argv, kw, at, "end", 1);
}
static val re_match_span(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                         src_span at)
{
    return re_match_where(h, self, argc, argv, kw, at, "span", 2);
}

/* The group that closed last (Python's lastindex), 0 when none matched:
 * the latest end; among groups ending there, an outer group closes after
 * those nested in it, a later sibling after an earlier one. */
static int re_lastindex(re_match_obj *m)
{
    const int *parent = re_pat(m->pattern)->parent;
    int best = 0;
    for (int g = 1; g <= m->ngroups; g++) {
        if (m->ov[2 * g] == PCRE2_UNSET)
            continue;
        if (!best || m->ov[2 * g + 1] > m->ov[2 * best + 1]) {
            best = g;
            continue;
        }
        if (m->ov[2 * g + 1] < m->ov[2 * best + 1])
            continue;
        /* same end: g (later in the pattern) closes last unless it is
         * nested in best */
        bool nested = false;
        for (int a = parent[g]; a; a = parent[a])
            if (a == best)
                nested = true;
        if (!nested)
            best = g;
    }
    return best;
}

/* ---- substitution templates ---------------------------------------------------------- */

/* Expand template t (Python's repl string) for m into out; false after an
 * error. */
static bool re_expand(host *h, re_match_obj *m, val t, strbuf *out, src_span at)
{
    const val_str *ts = val_as_str(t);
    const char *s = ts->s;
    size_t n = ts->len;
    for (size_t i = 0; i < n; i++) {
        if (s[i] != '\\') {
            strbuf_putc(out, s[i]);
            continue;
        }
        if (i + 1 >= n) {
            re_raise_error(h, at, t, (int64_t)i, "bad escape (end of pattern)");
            return false;
        }
        char c = s[++i];
        int g = -1;
        if (c == 'g') {
            if (i + 1 >= n || s[i + 1] != '<') {
                re_raise_error(h, at, t, (int64_t)i + 1, "missing <");
                return false;
            }
            const char *close = memchr(s + i + 2, '>', n - i - 2);
            if (!close) {
                re_raise_error(h, at, t, (int64_t)i + 2, "missing >, unterminated name");
                return false;
            }
            val name = val_str_new(s + i + 2, (size_t)(close - (s + i + 2)));
            const char *nm = val_as_str(name)->s;
            if (*nm && strspn(nm, "0123456789") == strlen(nm)) {
                g = atoi(nm);
                if (g > m->ngroups) {
                    char msg[48];
                    snprintf(msg, sizeof msg, "invalid group reference %d", g);
                    re_raise_error(h, at, t, (int64_t)i + 2, msg);
                    val_unref(name);
                    return false;
                }
            } else {
                val gv = val_dict_get(re_pat(m->pattern)->groupindex, name);
                if (gv.kind != VAL_INT) {
                    host_raise(h, HOST_EXC_INDEX, at, "unknown group name '%s'", nm);
                    val_unref(name);    /* nm is its text */
                    return false;
                }
                g = (int)gv.u.i;
            }
            val_unref(name);
            i = (size_t)(close - s);
        } else if (c >= '0' && c <= '9') {
            if (c == '0' || (i + 2 < n && s[i + 1] >= '0' && s[i + 1] <= '7' &&
                             s[i + 2] >= '0' && s[i + 2] <= '7' && c <= '7')) {
                /* an octal escape: \0, \012, \123 */
                int v = 0, k = 0;
                while (k < 3 && i < n && s[i] >= '0' && s[i] <= '7') {
                    v = v * 8 + (s[i] - '0');
                    i++, k++;
                }
                i--;
                builtin_put_utf8(out, (uint32_t)v);
                continue;
            }
            g = c - '0';
            if (i + 1 < n && s[i + 1] >= '0' && s[i + 1] <= '9')
                g = g * 10 + (s[++i] - '0');
            if (g > m->ngroups) {
                char msg[48];
                snprintf(msg, sizeof msg, "invalid group reference %d", g);
                re_raise_error(h, at, t, (int64_t)(i - (g >= 10 ? 1 : 0)), msg);
                return false;
            }
        } else {
            const char *esc = strchr("abfnrtv\\", c);
            if (esc) {
                static const char real[] = "\a\b\f\n\r\t\v\\";
                strbuf_putc(out, real[esc - "abfnrtv\\"]);
                continue;
            }
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
                char msg[32];
                snprintf(msg, sizeof msg, "bad escape \\%c", c);
                re_raise_error(h, at, t, (int64_t)i - 1, msg);
                return false;
            }
            strbuf_putc(out, '\\');
            strbuf_putc(out, c);
            continue;
        }
        if (m->ov[2 * g] != PCRE2_UNSET)
            strbuf_putn(out, val_as_str(m->string)->s + m->ov[2 * g],
                        m->ov[2 * g + 1] - m->ov[2 * g]);
    }
    return true;
}

BUILTIN_FN(re_match_expand)
{
    if (!builtin_nargs(h, "expand", argc, kw, 1, 1, at) || !re_str_arg(h, argv[0], at))
        return val_err();
    strbuf b = {0};
    if (!re_expand(h, re_m(self), argv[0], &b, at)) {
        strbuf_free(&b);
        return val_err();
    }
    return val_str_from_buf(&b);
}

static const char *const re_match_attrs[] = {
    "group", "groups", "groupdict", "start", "end", "span", "expand", "string", "re", "pos",
    "endpos", "lastindex", "lastgroup", "regs", NULL,
};

static val re_match_getattr(host *h, val self, const char *name, src_span at)
{
    (void)h, (void)at;
    re_match_obj *m = re_m(self);
    static const val_method methods[] = {
        {"group", "Match.group", re_match_group},
        {"groups", "Match.groups", re_match_groups},
        {"groupdict", "Match.groupdict", re_match_groupdict},
        {"start", "Match.start", re_match_start},
        {"end", "Match.end", re_match_end},
        {"span", "Match.span", re_match_span},
        {"expand", "Match.expand", re_match_expand},
    };
    val bound = val_method_bind(methods, sizeof methods / sizeof methods[0], name, self);
    if (bound.kind != VAL_MISSING)
        return bound;
    if (!strcmp(name, "string"))
        return val_ref(m->string);
    if (!strcmp(name, "re"))
        return val_ref(m->pattern);
    if (!strcmp(name, "pos"))
        return val_int(m->pos);
    if (!strcmp(name, "endpos"))
        return val_int(m->endpos);
    if (!strcmp(name, "lastindex") || !strcmp(name, "lastgroup")) {
        int g = re_lastindex(m);
        if (!g)
            return val_none();
        if (name[4] == 'i')
            return val_int(g);
        size_t pos = 0;
        val k, v;
        while (val_dict_next(re_pat(m->pattern)->groupindex, &pos, &k, &v))
            if (v.u.i == g)
                return val_ref(k);
        return val_none();
    }
    if (!strcmp(name, "regs")) {
        val t = val_tuple_new((size_t)m->ngroups + 1);
        const val_str *s = val_as_str(m->string);
        for (int g = 0; g <= m->ngroups; g++) {
            bool set = m->ov[2 * g] != PCRE2_UNSET;
            val sp[2] = {val_int(set ? re_char_of(s, m->ov[2 * g]) : -1),
                         val_int(set ? re_char_of(s, m->ov[2 * g + 1]) : -1)};
            val_seq_set(t, (size_t)g, val_tuple_of(2, sp));
        }
        return t;
    }
    return val_missing();
}

static void re_match_repr(host *h, val self, strbuf *out)
{
    re_match_obj *m = re_m(self);
    const val_str *s = val_as_str(m->string);
    val text = re_group_text(m, 0, val_none());
    val r = host_repr(h, text);
    strbuf_printf(out, "<re.Match object; span=(%lld, %lld), match=%s>",
                  (long long)re_char_of(s, m->ov[0]), (long long)re_char_of(s, m->ov[1]),
                  r.kind == VAL_STR ? val_as_str(r)->s : "?");
    val_unref(r);
    val_unref(text);
}

static void re_match_free(val_obj *o)
{
    re_match_obj *m = (re_match_obj *)o;
    val_unref(m->pattern);
    val_unref(m->string);
    free(m->ov);
}

static const val_type re_match_type = {
    .name = "re.Match",
    .getattr = re_match_getattr,
    .getitem = re_match_getitem,
    .repr = re_match_repr,
    .free = re_match_free,
    .attr_names = re_match_attrs,
};

/* ---- findall, sub, split ----------------------------------------------------------- */

typedef struct re_collect {
    host *h;
    val list;
    src_span at;
    /* sub */
    val repl;           /* a str template or a callable */
    strbuf out;
    size_t last;        /* bytes of the string copied so far */
    int64_t n;
    /* split */
    bool split;
} re_collect;

static int re_findall_one(void *ctx, val mv)
{
    re_collect *c = ctx;
    re_match_obj *m = re_m(mv);
    if (m->ngroups == 0) {
        val_list_push(c->list, re_group_text(m, 0, val_none()));
    } else if (m->ngroups == 1) {
        val e = val_str_cstr("");
        val_list_push(c->list, re_group_text(m, 1, e));
        val_unref(e);
    } else {
        val e = val_str_cstr("");
        val t = val_tuple_new((size_t)m->ngroups);
        for (int g = 1; g <= m->ngroups; g++)
            val_seq_set(t, (size_t)g - 1, re_group_text(m, g, e));
        val_unref(e);
        val_list_push(c->list, t);
    }
    return 1;
}

static int re_finditer_one(void *ctx, val m)
{
    val_list_push(((re_collect *)ctx)->list, val_ref(m));
    return 1;
}

static int re_sub_one(void *ctx, val mv)
{
    re_collect *c = ctx;
    re_match_obj *m = re_m(mv);
    const char *s = val_as_str(m->string)->s;
    strbuf_putn(&c->out, s + c->last, m->ov[0] - c->last);
    c->last = m->ov[1];
    c->n++;
    if (c->repl.kind == VAL_STR)
        return re_expand(c->h, m, c->repl, &c->out, c->at) ? 1 : -1;
    val r = host_call(c->h, c->repl, 1, &mv, NULL, c->at);
    if (r.kind == VAL_ERR)
        return -1;
    if (r.kind != VAL_STR) {
        host_raise(c->h, HOST_EXC_TYPE, c->at, "expected str instance, %s found",
                   val_type_name(r));
        val_unref(r);
        return -1;
    }
    strbuf_putn(&c->out, val_as_str(r)->s, val_as_str(r)->len);
    val_unref(r);
    return 1;
}

static int re_split_one(void *ctx, val mv)
{
    re_collect *c = ctx;
    re_match_obj *m = re_m(mv);
    const char *s = val_as_str(m->string)->s;
    val_list_push(c->list, val_str_new(s + c->last, m->ov[0] - c->last));
    for (int g = 1; g <= m->ngroups; g++)
        val_list_push(c->list, re_group_text(m, g, val_none()));
    c->last = m->ov[1];
    return 1;
}

/* findall (what 0), finditer (1) */
static val re_do_findall(host *h, val pv, val s, val posv, val endv, int what, src_span at)
{
    if (!re_str_arg(h, s, at))
        return val_err();
    int64_t pos, endpos;
    size_t bs, be;
    if (!re_bounds(h, s, posv, endv, at, &pos, &endpos, &bs, &be))
        return val_err();
    re_collect c = {.h = h, .list = val_list_new(4), .at = at};
    if (bs <= be && !re_each(h, pv, s, pos, endpos, bs, be, 0,
                             what ? re_finditer_one : re_findall_one, &c, at)) {
        val_unref(c.list);
        return val_err();
    }
    return what ? host_iterator_new(c.list, "callable_iterator") : c.list;
}

/* sub (subn false) and subn */
static val re_do_sub(host *h, val pv, val repl, val s, val countv, bool subn, src_span at)
{
    if (!re_str_arg(h, s, at))
        return val_err();
    int64_t count = 0;
    if (countv.kind != VAL_MISSING && !host_to_int(h, countv, at, "count", &count))
        return val_err();
    re_collect c = {.h = h, .at = at, .repl = repl};
    const val_str *str = val_as_str(s);
    if (!re_each(h, pv, s, 0, (int64_t)val_str_chars(str), 0, str->len, count < 0 ? -1 : count,
                 re_sub_one, &c, at)) {
        strbuf_free(&c.out);
        return val_err();
    }
    strbuf_putn(&c.out, str->s + c.last, str->len - c.last);
    val r = val_str_from_buf(&c.out);
    if (!subn)
        return r;
    val t[2] = {r, val_int(c.n)};
    return val_tuple_of(2, t);
}

static val re_do_split(host *h, val pv, val s, val maxv, src_span at)
{
    if (!re_str_arg(h, s, at))
        return val_err();
    int64_t max = 0;
    if (maxv.kind != VAL_MISSING && !host_to_int(h, maxv, at, "maxsplit", &max))
        return val_err();
    const val_str *str = val_as_str(s);
    re_collect c = {.h = h, .at = at, .list = val_list_new(4), .split = true};
    if (max >= 0 && !re_each(h, pv, s, 0, (int64_t)val_str_chars(str), 0, str->len, max,
                             re_split_one, &c, at)) {
        val_unref(c.list);
        return val_err();
    }
    val_list_push(c.list, val_str_new(str->s + c.last, str->len - c.last));
    return c.list;
}

/* ---- Pattern objects --------------------------------------------------------------- */

static val re_pattern_match_how(host *h, val self, int argc, const val *argv,
                                const val_kwargs *kw, src_span at, const char *fname, int how)
{
    val a[3];
    if (!host_args(h, at, fname, "string, pos=, endpos=", argc, argv, kw, a))
        return val_err();
    if (how >= 3)
        return re_do_findall(h, self, a[0], a[1], a[2], how - 3, at);
    return re_do_match(h, self, a[0], a[1], a[2], how, at);
}

HOST_CFUNC_CALLING(re_pattern_search, re_pattern_match_how, "search", 0)
HOST_CFUNC_CALLING(re_pattern_match, re_pattern_match_how, "match", 1)
HOST_CFUNC_CALLING(re_pattern_fullmatch, re_pattern_match_how, "fullmatch", 2)
HOST_CFUNC_CALLING(re_pattern_findall, re_pattern_match_how, "findall", 3)
HOST_CFUNC_CALLING(re_pattern_finditer, re_pattern_match_how, "finditer", 4)

static val re_pattern_sub_how(host *h, val self, int argc, const val *argv,
                              const val_kwargs *kw, src_span at, const char *fname, bool subn)
{
    val a[3];
    if (!host_args(h, at, fname, "repl, string, count=", argc, argv, kw, a))
        return val_err();
    return re_do_sub(h, self, a[0], a[1], a[2], subn, at);
}

HOST_CFUNC_CALLING(re_pattern_sub, re_pattern_sub_how, "sub", false)
HOST_CFUNC_CALLING(re_pattern_subn, re_pattern_sub_how, "subn", true)

BUILTIN_FN(re_pattern_split)
{
    val a[2];
    if (!host_args(h, at, "split", "string, maxsplit=", argc, argv, kw, a))
        return val_err();
    return re_do_split(h, self, a[0], a[1], at);
}

static const char *const re_pattern_attrs[] = {
    "search", "match", "fullmatch", "findall", "finditer", "sub", "subn", "split", "pattern",
    "flags", "groups", "groupindex", NULL,
};

static val re_pattern_getattr(host *h, val self, const char *name, src_span at)
{
    (void)h, (void)at;
    re_pattern *p = re_pat(self);
    static const val_method methods[] = {
        {"search", "Pattern.search", re_pattern_search},
        {"match", "Pattern.match", re_pattern_match},
        {"fullmatch", "Pattern.fullmatch", re_pattern_fullmatch},
        {"findall", "Pattern.findall", re_pattern_findall},
        {"finditer", "Pattern.finditer", re_pattern_finditer},
        {"sub", "Pattern.sub", re_pattern_sub},
        {"subn", "Pattern.subn", re_pattern_subn},
        {"split", "Pattern.split", re_pattern_split},
    };
    val bound = val_method_bind(methods, sizeof methods / sizeof methods[0], name, self);
    if (bound.kind != VAL_MISSING)
        return bound;
    if (!strcmp(name, "pattern"))
        return val_ref(p->pattern);
    if (!strcmp(name, "flags"))
        return val_int(p->flags);
    if (!strcmp(name, "groups"))
        return val_int(p->groups);
    if (!strcmp(name, "groupindex"))
        return val_ref(p->groupindex);   /* a mappingproxy in Python */
    return val_missing();
}

static void re_pattern_repr(host *h, val self, strbuf *out)
{
    re_pattern *p = re_pat(self);
    val r = host_repr(h, p->pattern);
    strbuf_printf(out, "re.compile(%s", r.kind == VAL_STR ? val_as_str(r)->s : "?");
    val_unref(r);
    static const struct { int bit; const char *name; } names[] = {
        {RE_T, "TEMPLATE"}, {RE_I, "IGNORECASE"}, {RE_L, "LOCALE"}, {RE_M, "MULTILINE"},
        {RE_S, "DOTALL"}, {RE_X, "VERBOSE"}, {RE_DEBUG, "DEBUG"}, {RE_A, "ASCII"},
    };
    int f = p->flags & ~RE_U;
    bool first = true;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (f & names[i].bit) {
            strbuf_printf(out, "%sre.%s", first ? ", " : "|", names[i].name);
            first = false;
        }
    strbuf_putc(out, ')');
}

static bool re_pattern_equal(val a, val b)
{
    if (!re_is_pattern(b))
        return false;
    return re_pat(a)->flags == re_pat(b)->flags &&
           val_equal(re_pat(a)->pattern, re_pat(b)->pattern);
}

static uint64_t re_pattern_hash(val self)
{
    return val_hash(re_pat(self)->pattern) ^ (uint64_t)re_pat(self)->flags;
}

static const val_type re_pattern_type = {
    .name = "re.Pattern",
    .getattr = re_pattern_getattr,
    .repr = re_pattern_repr,
    .free = re_pattern_free,
    .attr_names = re_pattern_attrs,
    .hash = re_pattern_hash,
    .equal = re_pattern_equal,
};

/* ---- the module's functions ------------------------------------------------------------ */

BUILTIN_FN(re_compile)
{
    (void)self;
    val a[2];
    if (!host_args(h, at, "compile", "pattern, flags=", argc, argv, kw, a))
        return val_err();
    return re_get(h, a[0], a[1], at);
}

/* search (0), match (1), fullmatch (2), findall (3), finditer (4) */
static val re_fn_match(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                       src_span at, const char *fname, int how)
{
    (void)self;
    val a[3];
    if (!host_args(h, at, fname, "pattern, string, flags=", argc, argv, kw, a))
        return val_err();
    val p = re_get(h, a[0], a[2], at);
    if (p.kind == VAL_ERR)
        return p;
    val r = how >= 3 ? re_do_findall(h, p, a[1], val_missing(), val_missing(), how - 3, at)
                     : re_do_match(h, p, a[1], val_missing(), val_missing(), how, at);
    val_unref(p);
    return r;
}

HOST_CFUNC_CALLING(re_search, re_fn_match, "search", 0)
HOST_CFUNC_CALLING(re_fn_match1, re_fn_match, "match", 1)
HOST_CFUNC_CALLING(re_fullmatch, re_fn_match, "fullmatch", 2)
HOST_CFUNC_CALLING(re_findall, re_fn_match, "findall", 3)
HOST_CFUNC_CALLING(re_finditer, re_fn_match, "finditer", 4)

static val re_fn_sub(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                     src_span at, const char *fname, bool subn)
{
    (void)self;
    val a[5];
    if (!host_args(h, at, fname, "pattern, repl, string, count=, flags=", argc, argv, kw, a))
        return val_err();
    val p = re_get(h, a[0], a[4], at);
    if (p.kind == VAL_ERR)
        return p;
    val r = re_do_sub(h, p, a[1], a[2], a[3], subn, at);
    val_unref(p);
    return r;
}

HOST_CFUNC_CALLING(re_sub, re_fn_sub, "sub", false)
HOST_CFUNC_CALLING(re_subn, re_fn_sub, "subn", true)

BUILTIN_FN(re_split)
{
    (void)self;
    val a[4];
    if (!host_args(h, at, "split", "pattern, string, maxsplit=, flags=", argc, argv, kw, a))
        return val_err();
    val p = re_get(h, a[0], a[3], at);
    if (p.kind == VAL_ERR)
        return p;
    val r = re_do_split(h, p, a[1], a[2], at);
    val_unref(p);
    return r;
}

/* re.escape: Python 3.7+ escapes the ASCII characters that are special
 * anywhere in a pattern, and nothing else. */
BUILTIN_FN(re_escape)
{
    (void)self;
    val a[1];
    if (!host_args(h, at, "escape", "pattern", argc, argv, kw, a) || !re_str_arg(h, a[0], at))
        return val_err();
    static const char special[] = "()[]{}?*+-|^$\\.&~# \t\n\r\v\f";
    const val_str *s = val_as_str(a[0]);
    strbuf b = {0};
    for (size_t i = 0; i < s->len; i++) {
        if (s->s[i] && strchr(special, s->s[i]))
            strbuf_putc(&b, '\\');
        strbuf_putc(&b, s->s[i]);
    }
    return val_str_from_buf(&b);
}

BUILTIN_FN(re_purge)
{
    (void)self, (void)argv;
    if (!builtin_nargs(h, "purge", argc, kw, 0, 0, at))
        return val_err();
    val cache = re_cache(h);
    if (cache.kind == VAL_DICT)
        val_dict_clear(cache);
    return val_none();
}

static val re_type_refuse(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                          src_span at)
{
    (void)self, (void)argc, (void)argv, (void)kw;
    return host_raise(h, HOST_EXC_TYPE, at, "cannot create 're.%s' instances",
                      h->calling ? h->calling->name + 3 : "Pattern");
}

void builtin_re_init(host *h)
{
    val m = val_module_new("re");
    host_def(m, "re.compile", re_compile);
    host_def(m, "re.search", re_search);
    host_def(m, "re.match", re_fn_match1);
    host_def(m, "re.fullmatch", re_fullmatch);
    host_def(m, "re.findall", re_findall);
    host_def(m, "re.finditer", re_finditer);
    host_def(m, "re.sub", re_sub);
    host_def(m, "re.subn", re_subn);
    host_def(m, "re.split", re_split);
    host_def(m, "re.escape", re_escape);
    host_def(m, "re.purge", re_purge);
    static const struct { const char *name; int v; } flags[] = {
        {"I", RE_I}, {"IGNORECASE", RE_I}, {"M", RE_M}, {"MULTILINE", RE_M},
        {"S", RE_S}, {"DOTALL", RE_S}, {"X", RE_X}, {"VERBOSE", RE_X},
        {"A", RE_A}, {"ASCII", RE_A}, {"U", RE_U}, {"UNICODE", RE_U},
        {"L", RE_L}, {"LOCALE", RE_L}, {"T", RE_T}, {"TEMPLATE", RE_T},
        {"DEBUG", RE_DEBUG}, {"NOFLAG", 0},
    };
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        val_object_set(m, flags[i].name, val_int(flags[i].v));
    static const char *const types[] = {"re.Pattern", "re.Match"};
    const val_type *vt[] = {&re_pattern_type, &re_match_type};
    for (int i = 0; i < 2; i++) {
        val t = val_builtin_new(types[i], re_type_refuse, val_none());
        ((val_builtin *)t.u.o)->inst_kind = VAL_OBJECT;
        ((val_builtin *)t.u.o)->inst_type = vt[i];
        val_object_set(m, types[i] + 3, t);
    }
    val err = class_new("error", host_exc_class(h, HOST_EXC_EXCEPTION), false);
    val_object_set(err, "__module__", val_str_cstr("re"));
    val_object_set(err, "msg", val_none());
    val_object_set(err, "pattern", val_none());
    val_object_set(err, "pos", val_none());
    val_object_set(m, "error", err);
    val_object_set(m, "_cache", val_dict_new());
    host_register_module(h, "re", m);
}
