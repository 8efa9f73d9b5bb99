/* argparsemod.c - the argparse module of .tk programs, a subset of
 * Python's:
 *
 *   ArgumentParser(prog=, description=, epilog=, add_help=, allow_abbrev=)
 *   parser.add_argument(*flags, action=, nargs=, default=, type=, choices=,
 *                       required=, help=, metavar=, dest=)
 *       action: 'store' (default), 'store_true', 'store_false';
 *       nargs: None or '?' (a positional that may be left out)
 *   parser.parse_args(args=None)       args None: sys.argv[1:]
 *   parser.print_help(), format_help(), print_usage(), format_usage(),
 *   parser.error(message)
 *   Namespace(**kwargs)                what parse_args returns
 *
 * -h/--help prints the help text and exits with status 0; mistakes print
 * the usage and "prog: error: ..." to stderr and exit with status 2, all
 * worded and laid out as Python 3.11's argparse does (80 columns, or
 * $COLUMNS).  Not provided: sub-commands, argument groups, nargs other
 * than '?', actions other than the three above, prefix_chars. */
#define _POSIX_C_SOURCE 200809L
#include "argparsemod.h"
#include "host.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"

enum { AP_MAX_FLAGS = 8 };

typedef enum ap_kind { AP_STORE, AP_STORE_TRUE, AP_STORE_FALSE, AP_HELP } ap_kind;

typedef struct ap_action {
    char *flags[AP_MAX_FLAGS];  /* option strings; none for a positional */
    int nflags;
    char *dest;
    char *metavar;              /* NULL: dest (positional) or DEST */
    char *help;                 /* NULL: no help text */
    ap_kind kind;
    bool required;
    bool optional_value;        /* nargs='?' */
    int nvalues;                /* nargs=N (an option's N values, a list), or 0 */
    val type;                   /* a callable, or None */
    val dflt;                   /* the default */
    val choices;                /* a list or tuple, or None */
} ap_action;

typedef struct ap_parser {
    val_object o;
    char *prog, *description, *epilog;
    bool allow_abbrev;
    ap_action *acts;
    int n, cap;
} ap_parser;

static const val_type parser_type;
static const val_type namespace_type;

static char *dup_str(const char *s)
{
    return s ? strdup(s) : NULL;
}

static void parser_free(val_obj *self)
{
    ap_parser *p = (ap_parser *)self;
    for (int i = 0; i < p->n; i++) {
        ap_action *a = &p->acts[i];
        for (int j = 0; j < a->nflags; j++)
            free(a->flags[j]);
        free(a->dest);
        free(a->metavar);
        free(a->help);
        val_unref(a->type);
        val_unref(a->dflt);
        val_unref(a->choices);
    }
    free(p->acts);
    free(p->prog);
    free(p->description);
    free(p->epilog);
}

/* ---- layout ------------------------------------------------------------------- */

static int term_width(void)
{
    const char *c = getenv("COLUMNS");
    int w = c ? atoi(c) : 0;
    return (w > 0 ? w : 80) - 2;
}

/* The metavar of an action: {a,b} for choices, else metavar or dest
 * (upper-cased for options). */
static void put_metavar(host *h, strbuf *out, const ap_action *a)
{
    if (a->metavar) {
        strbuf_puts(out, a->metavar);
    } else if (a->choices.kind == VAL_LIST || a->choices.kind == VAL_TUPLE) {
        const val_seq *s = val_as_seq(a->choices);
        strbuf_putc(out, '{');
        for (size_t i = 0; i < s->len; i++) {
            val t = host_str(h, s->items[i]);
            if (i)
                strbuf_putc(out, ',');
            if (t.kind == VAL_STR)
                strbuf_puts(out, val_as_str(t)->s);
            val_unref(t);
        }
        strbuf_putc(out, '}');
    } else if (a->nflags == 0) {
        strbuf_puts(out, a->dest);
    } else {
        for (const char *c = a->dest; *c; c++)
            strbuf_putc(out, (char)(*c >= 'a' && *c <= 'z' ? *c - 32 : *c));
    }
}

static bool takes_value(const ap_action *a)
{
    return a->kind == AP_STORE;
}

/* The metavar, nargs=N times. */
static void put_metavars(host *h, strbuf *out, const ap_action *a)
{
    for (int i = 0; i < (a->nvalues ? a->nvalues : 1); i++) {
        if (i)
            strbuf_putc(out, ' ');
        put_metavar(h, out, a);
    }
}

/* "-s SCALE, --scale SCALE", "-v, --verbose" or "name". */
static void put_invocation(host *h, strbuf *out, const ap_action *a)
{
    if (a->nflags == 0) {
        put_metavar(h, out, a);
        return;
    }
    for (int i = 0; i < a->nflags; i++) {
        if (i)
            strbuf_puts(out, ", ");
        strbuf_puts(out, a->flags[i]);
        if (takes_value(a)) {
            strbuf_putc(out, ' ');
            if (a->optional_value)
                strbuf_putc(out, '[');
            put_metavars(h, out, a);
            if (a->optional_value)
                strbuf_putc(out, ']');
        }
    }
}

/* One usage part: "[-v]", "[--size SIZE]", "-x X", "name", "[extra]". */
static void put_usage_part(host *h, strbuf *out, const ap_action *a)
{
    bool bracket = a->nflags ? !a->required : a->optional_value;
    if (bracket)
        strbuf_putc(out, '[');
    if (a->nflags) {
        strbuf_puts(out, a->flags[0]);
        if (takes_value(a)) {
            strbuf_putc(out, ' ');
            if (a->optional_value)
                strbuf_putc(out, '[');
            put_metavars(h, out, a);
            if (a->optional_value)
                strbuf_putc(out, ']');
        }
    } else {
        put_metavar(h, out, a);
    }
    if (bracket)
        strbuf_putc(out, ']');
}

/* Greedy line filling as argparse's usage formatter does. */
static void usage_lines(strbuf *out, char **parts, int n, size_t indent, size_t first_len,
                        size_t width, bool first)
{
    size_t line_len = (first ? first_len : indent) - 1;
    bool empty = true;
    if (!first)
        strbuf_repeat(out, ' ', indent);
    for (int i = 0; i < n; i++) {
        size_t len = strlen(parts[i]);
        if (line_len + 1 + len > width && !empty) {
            strbuf_putc(out, '\n');
            strbuf_repeat(out, ' ', indent);
            line_len = indent - 1;
            empty = true;
        }
        if (!empty)
            strbuf_putc(out, ' ');
        strbuf_puts(out, parts[i]);
        line_len += len + 1;
        empty = false;
    }
}

static void format_usage(host *h, ap_parser *p, strbuf *out)
{
    int n = p->n;
    char **opt = calloc((size_t)n + 1, sizeof *opt), **pos = calloc((size_t)n + 1, sizeof *pos);
    int nopt = 0, npos = 0;
    strbuf line;
    strbuf_init(&line);
    strbuf_puts(&line, p->prog);
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < n; i++) {
            const ap_action *a = &p->acts[i];
            if ((pass == 0) != (a->nflags > 0))
                continue;
            strbuf part;
            strbuf_init(&part);
            put_usage_part(h, &part, a);
            strbuf_putc(&line, ' ');
            strbuf_puts(&line, part.data);
            if (pass == 0)
                opt[nopt++] = dup_str(part.data);
            else
                pos[npos++] = dup_str(part.data);
            strbuf_free(&part);
        }
    size_t width = (size_t)term_width();
    strbuf_puts(out, "usage: ");
    if (strlen("usage: ") + line.len <= width) {
        strbuf_puts(out, line.data);
    } else {
        /* prog, then the options filling lines, then the positionals on
         * lines of their own, all indented under the first option */
        size_t indent = strlen("usage: ") + strlen(p->prog) + 1;
        char *progp = p->prog;
        if (nopt) {
            char **first = calloc((size_t)nopt + 1, sizeof *first);
            first[0] = progp;
            memcpy(first + 1, opt, (size_t)nopt * sizeof *opt);
            usage_lines(out, first, nopt + 1, indent, strlen("usage: "), width, true);
            free(first);
            if (npos) {
                strbuf_putc(out, '\n');
                usage_lines(out, pos, npos, indent, 0, width, false);
            }
        } else {
            char **first = calloc((size_t)npos + 1, sizeof *first);
            first[0] = progp;
            memcpy(first + 1, pos, (size_t)npos * sizeof *pos);
            usage_lines(out, first, npos + 1, indent, strlen("usage: "), width, true);
            free(first);
        }
    }
    strbuf_putc(out, '\n');
    for (int i = 0; i < nopt; i++)
        free(opt[i]);
    for (int i = 0; i < npos; i++)
        free(pos[i]);
    free(opt);
    free(pos);
    strbuf_free(&line);
}

/* Words of text filled into lines of at most width columns, each line
 * after the first starting with indent spaces. */
static void wrap_text(strbuf *out, const char *text, size_t indent, size_t width)
{
    size_t col = 0;
    const char *s = text;
    bool first = true;
    for (;;) {
        while (*s == ' ' || *s == '\n' || *s == '\t')
            s++;
        if (!*s)
            break;
        size_t len = strcspn(s, " \n\t");
        if (!first && col + 1 + len > width) {
            strbuf_putc(out, '\n');
            strbuf_repeat(out, ' ', indent);
            col = 0;
        } else if (!first) {
            strbuf_putc(out, ' ');
            col++;
        }
        strbuf_putn(out, s, len);
        col += len;
        s += len;
        first = false;
    }
}

static void format_action(host *h, strbuf *out, const ap_action *a, size_t help_pos,
                          size_t width)
{
    strbuf inv;
    strbuf_init(&inv);
    put_invocation(h, &inv, a);
    strbuf_puts(out, "  ");
    strbuf_puts(out, inv.data);
    if (a->help) {
        size_t action_width = help_pos - 4;
        if (inv.len <= action_width) {
            strbuf_repeat(out, ' ', help_pos - 2 - inv.len);
        } else {
            strbuf_putc(out, '\n');
            strbuf_repeat(out, ' ', help_pos);
        }
        size_t help_width = width > help_pos + 11 ? width - help_pos : 11;
        wrap_text(out, a->help, help_pos, help_width);
    }
    strbuf_putc(out, '\n');
    strbuf_free(&inv);
}

static void format_help(host *h, ap_parser *p, strbuf *out)
{
    size_t width = (size_t)term_width();
    format_usage(h, p, out);
    if (p->description) {
        strbuf_putc(out, '\n');
        wrap_text(out, p->description, 0, width);
        strbuf_putc(out, '\n');
    }
    size_t longest = 0;
    for (int i = 0; i < p->n; i++) {
        strbuf inv;
        strbuf_init(&inv);
        put_invocation(h, &inv, &p->acts[i]);
        if (inv.len + 2 > longest)
            longest = inv.len + 2;
        strbuf_free(&inv);
    }
    size_t help_pos = longest + 2 < 24 ? longest + 2 : 24;
    for (int pass = 0; pass < 2; pass++) {
        bool any = false;
        for (int i = 0; i < p->n; i++) {
            const ap_action *a = &p->acts[i];
            if ((pass == 0) != (a->nflags == 0))
                continue;
            if (!any)
                strbuf_puts(out, pass == 0 ? "\npositional arguments:\n" : "\noptions:\n");
            any = true;
            format_action(h, out, a, help_pos, width);
        }
    }
    if (p->epilog) {
        strbuf_putc(out, '\n');
        wrap_text(out, p->epilog, 0, width);
        strbuf_putc(out, '\n');
    }
}

/* Ends the program as sys.exit(status) does: raises SystemExit. */
static val ap_exit(host *h, int status)
{
    fflush(stdout);
    val code = val_int(status);
    val e = exc_new(h, HOST_EXC_SYSTEM_EXIT, val_tuple_of(1, &code));
    host_raise_value(h, e, (src_span){0});
    val_unref(e);
    return val_err();
}

/* The usage and "prog: error: message" on stderr, then exit status 2. */
static val ap_error(host *h, ap_parser *p, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static val ap_error(host *h, ap_parser *p, const char *fmt, ...)
{
    strbuf out;
    strbuf_init(&out);
    format_usage(h, p, &out);
    strbuf_printf(&out, "%s: error: ", p->prog);
    va_list ap;
    va_start(ap, fmt);
    strbuf_vprintf(&out, fmt, ap);
    va_end(ap);
    fflush(stdout);
    fprintf(stderr, "%s\n", out.data);
    strbuf_free(&out);
    return ap_exit(h, 2);
}

/* "-s/--scale" or "name", as errors name an argument. */
static void put_arg_name(host *h, strbuf *out, const ap_action *a)
{
    if (a->nflags == 0) {
        put_metavar(h, out, a);
        return;
    }
    for (int i = 0; i < a->nflags; i++) {
        if (i)
            strbuf_putc(out, '/');
        strbuf_puts(out, a->flags[i]);
    }
}

/* ---- ArgumentParser ------------------------------------------------------------- */

static bool opt_str(host *h, val v, src_span at, const char *what, char **out)
{
    const char *s;
    *out = NULL;
    if (v.kind == VAL_MISSING || v.kind == VAL_NONE)
        return true;
    if (!host_to_str(h, v, at, what, &s))
        return false;
    *out = strdup(s);
    return true;
}

static val fn_parser_new(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                         src_span at)
{
    (void)self;
    val a[13];
    if (!host_args(h, at, "ArgumentParser",
                   "prog=, usage=, description=, epilog=, parents=, formatter_class=, "
                   "prefix_chars=, fromfile_prefix_chars=, argument_default=, "
                   "conflict_handler=, add_help=, allow_abbrev=, exit_on_error=",
                   argc, argv, kw, a))
        return val_err();
    ap_parser *p = val_obj_new(sizeof *p, VAL_OBJECT, &parser_type);
    val pv = val_of(p);
    p->o.attrs = val_dict_new();
    p->allow_abbrev = a[11].kind == VAL_MISSING || host_truth(h, a[11], at) == 1;
    if (!opt_str(h, a[0], at, "ArgumentParser() argument 'prog'", &p->prog) ||
        !opt_str(h, a[2], at, "ArgumentParser() argument 'description'", &p->description) ||
        !opt_str(h, a[3], at, "ArgumentParser() argument 'epilog'", &p->epilog)) {
        val_unref(pv);
        return val_err();
    }
    if (!p->prog) {
        /* os.path.basename(sys.argv[0]) */
        val sys = host_module(h, "sys");
        val args = sys.kind == VAL_MODULE ? val_object_get(sys, "argv") : val_missing();
        const char *name = "tritsim";
        if (args.kind == VAL_LIST && val_as_seq(args)->len &&
            val_as_seq(args)->items[0].kind == VAL_STR)
            name = val_as_str(val_as_seq(args)->items[0])->s;
        const char *slash = strrchr(name, '/');
        p->prog = strdup(slash ? slash + 1 : name);
    }
    bool add_help = a[10].kind == VAL_MISSING || host_truth(h, a[10], at) == 1;
    if (add_help) {
        p->cap = 8;
        p->acts = calloc((size_t)p->cap, sizeof *p->acts);
        ap_action *ha = &p->acts[p->n++];
        ha->flags[0] = strdup("-h");
        ha->flags[1] = strdup("--help");
        ha->nflags = 2;
        ha->dest = strdup("help");
        ha->help = strdup("show this help message and exit");
        ha->kind = AP_HELP;
        ha->type = val_none();
        ha->dflt = val_none();
        ha->choices = val_none();
    }
    return pv;
}

/* dest from the flags: the first long one, else the first, without its
 * dashes, other dashes made underscores. */
static char *dest_of(char *const *flags, int n)
{
    const char *pick = flags[0];
    for (int i = 0; i < n; i++)
        if (!strncmp(flags[i], "--", 2)) {
            pick = flags[i];
            break;
        }
    while (*pick == '-')
        pick++;
    char *d = strdup(pick);
    for (char *c = d; *c; c++)
        if (*c == '-')
            *c = '_';
    return d;
}

static val fn_add_argument(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                           src_span at)
{
    ap_parser *p = (ap_parser *)self.u.o;
    val a[10];
    if (!host_args(h, at, "add_argument",
                   "action=, nargs=, const=, default=, type=, choices=, required=, help=, "
                   "metavar=, dest=", 0, NULL, kw, a))
        return val_err();
    if (argc < 1 && a[9].kind == VAL_MISSING)
        return host_error(h, at, "add_argument() needs a name or flags ('-v', '--size', 'file')");
    if (argc > AP_MAX_FLAGS)
        return host_error(h, at, "add_argument(): at most %d option strings", AP_MAX_FLAGS);
    const char *flags[AP_MAX_FLAGS];
    for (int i = 0; i < argc; i++) {
        if (!host_to_str(h, argv[i], at, "add_argument() option string", &flags[i]))
            return val_err();
        if (!flags[i][0] || (i > 0 && flags[i][0] != '-') || (i == 0 && argc > 1 &&
                                                             flags[0][0] != '-'))
            return host_error(h, at, "invalid option string '%s': must start with a character "
                              "'-'", flags[i]);
    }
    bool positional = argc > 0 && flags[0][0] != '-';
    ap_kind kind = AP_STORE;
    if (a[0].kind != VAL_MISSING) {
        const char *act;
        if (!host_to_str(h, a[0], at, "add_argument() argument 'action'", &act))
            return val_err();
        if (!strcmp(act, "store_true"))
            kind = AP_STORE_TRUE;
        else if (!strcmp(act, "store_false"))
            kind = AP_STORE_FALSE;
        else if (strcmp(act, "store"))
            return host_raise(h, HOST_EXC_NOT_IMPLEMENTED, at,
                              "add_argument(): action '%s' is not supported by tritsim "
                              "(use 'store', 'store_true' or 'store_false')", act);
        if (kind != AP_STORE && positional)
            return host_raise(h, HOST_EXC_TYPE, at,
                              "add_argument(): a positional argument cannot be '%s'",
                              act);
    }
    bool optional_value = false;
    int nvalues = 0;
    if (a[1].kind == VAL_INT && !positional && kind == AP_STORE) {
        if (a[1].u.i < 1 || a[1].u.i > 64)
            return host_raise(h, HOST_EXC_VALUE, at, "add_argument(): nargs=%lld is not "
                              "supported by tritsim (1 to 64 values)", (long long)a[1].u.i);
        nvalues = (int)a[1].u.i;
    } else if (a[1].kind != VAL_MISSING && a[1].kind != VAL_NONE) {
        const char *nargs;
        if (a[1].kind != VAL_STR || (nargs = val_as_str(a[1])->s, strcmp(nargs, "?")))
            return host_error(h, at, "add_argument(): only nargs='?' and, for options, "
                              "nargs=N are supported by tritsim");
        optional_value = true;
    }
    if (a[2].kind != VAL_MISSING)
        return host_raise(h, HOST_EXC_NOT_IMPLEMENTED, at,
                          "add_argument(): const= is not supported by tritsim");
    if (a[5].kind != VAL_MISSING && a[5].kind != VAL_NONE && a[5].kind != VAL_LIST &&
        a[5].kind != VAL_TUPLE)
        return host_error(h, at, "add_argument(): choices must be a list or tuple");
    bool required = positional && !optional_value;
    if (a[6].kind != VAL_MISSING) {
        int t = host_truth(h, a[6], at);
        if (t < 0)
            return val_err();
        if (positional)
            return host_error(h, at, "'required' is an invalid argument for positionals");
        required = t == 1;
    }
    if (p->n == p->cap) {
        int cap = p->cap ? p->cap * 2 : 8;
        ap_action *acts = realloc(p->acts, (size_t)cap * sizeof *acts);
        if (!acts)
            return host_error(h, at, "out of memory");
        p->acts = acts;
        p->cap = cap;
    }
    ap_action *act = &p->acts[p->n];
    memset(act, 0, sizeof *act);
    act->kind = kind;
    act->required = required;
    act->optional_value = optional_value;
    act->nvalues = nvalues;
    act->type = val_none();
    act->dflt = val_none();
    act->choices = val_none();
    if (!opt_str(h, a[7], at, "add_argument() argument 'help'", &act->help) ||
        !opt_str(h, a[8], at, "add_argument() argument 'metavar'", &act->metavar) ||
        !opt_str(h, a[9], at, "add_argument() argument 'dest'", &act->dest)) {
        free(act->help);
        free(act->metavar);
        return val_err();
    }
    if (!positional) {
        for (int i = 0; i < argc; i++)
            act->flags[act->nflags++] = strdup(flags[i]);
        if (!act->dest)
            act->dest = dest_of(act->flags, act->nflags);
    } else if (!act->dest) {
        act->dest = strdup(flags[0]);
    }
    if (a[4].kind != VAL_MISSING)
        act->type = val_ref(a[4]);
    if (a[5].kind != VAL_MISSING)
        act->choices = val_ref(a[5]);
    if (a[3].kind != VAL_MISSING)
        act->dflt = val_ref(a[3]);
    else if (kind != AP_STORE)
        act->dflt = val_bool(kind == AP_STORE_FALSE);
    p->n++;
    return val_none();
}

/* The action of an option string ("--size", "--si" when abbreviations are
 * allowed), NULL when there is none; *ambiguous when two match. */
static ap_action *find_option(ap_parser *p, const char *opt, size_t len, bool *ambiguous)
{
    *ambiguous = false;
    for (int i = 0; i < p->n; i++)
        for (int j = 0; j < p->acts[i].nflags; j++)
            if (strlen(p->acts[i].flags[j]) == len && !strncmp(p->acts[i].flags[j], opt, len))
                return &p->acts[i];
    if (!p->allow_abbrev || strncmp(opt, "--", 2))
        return NULL;
    ap_action *found = NULL;
    for (int i = 0; i < p->n; i++)
        for (int j = 0; j < p->acts[i].nflags; j++)
            if (!strncmp(p->acts[i].flags[j], opt, len)) {
                if (found && found != &p->acts[i])
                    *ambiguous = true;
                found = &p->acts[i];
            }
    return found;
}

/* The value of an argument string: type(s), checked against choices. */
static val convert(host *h, ap_parser *p, const ap_action *a, const char *s, src_span at,
                   bool *failed)
{
    *failed = false;
    val str = val_str_cstr(s);
    val v = str;
    const char *tname = a->type.kind == VAL_BUILTIN ? ((val_builtin *)a->type.u.o)->name : "";
    if (!strcmp(tname, "int") || !strcmp(tname, "float")) {
        /* int('q') would stop the program: argparse reports it instead */
        char *end;
        errno = 0;
        if (!strcmp(tname, "int"))
            (void)strtoll(s, &end, 10);
        else
            (void)strtod(s, &end);
        while (*end == ' ' || *end == '\t' || *end == '\n')
            end++;
        if (end == s || *end || errno == ERANGE) {
            strbuf an;
            strbuf_init(&an);
            put_arg_name(h, &an, a);
            ap_error(h, p, "argument %s: invalid %s value: '%s'", an.data, tname, s);
            strbuf_free(&an);
            val_unref(str);
            *failed = true;
            return val_err();
        }
    }
    if (a->type.kind != VAL_NONE) {
        v = host_call(h, a->type, 1, &str, NULL, at);
        val_unref(str);
        if (v.kind == VAL_ERR) {
            if (!host_exc_is(h, h->exc, HOST_EXC_VALUE) && !host_exc_is(h, h->exc, HOST_EXC_TYPE))
                return v;
            /* argparse turns the type's ValueError or TypeError into a
             * usage error */
            val_unref(host_exc_take(h));
            val name = host_getattr_opt(h, a->type, "__name__", at);
            strbuf an;
            strbuf_init(&an);
            put_arg_name(h, &an, a);
            ap_error(h, p, "argument %s: invalid %s value: '%s'", an.data,
                     name.kind == VAL_STR ? val_as_str(name)->s : "type", s);
            strbuf_free(&an);
            val_unref(name);
            *failed = true;
            return val_err();
        }
    }
    if (a->choices.kind == VAL_LIST || a->choices.kind == VAL_TUPLE) {
        const val_seq *c = val_as_seq(a->choices);
        bool ok = false;
        for (size_t i = 0; i < c->len && !ok; i++) {
            val eq = host_binop(h, AST_OP_EQ, v, c->items[i], at);
            int t = eq.kind == VAL_ERR ? -1 : host_truth(h, eq, at);
            val_unref(eq);
            if (t < 0) {
                val_unref(v);
                return val_err();
            }
            ok = t == 1;
        }
        if (!ok) {
            strbuf msg;
            strbuf_init(&msg);
            put_arg_name(h, &msg, a);
            val r = host_repr(h, v);
            strbuf_printf(&msg, ": invalid choice: %s (choose from ",
                          r.kind == VAL_STR ? val_as_str(r)->s : "?");
            val_unref(r);
            for (size_t i = 0; i < c->len; i++) {
                val ri = host_repr(h, c->items[i]);
                strbuf_printf(&msg, "%s%s", i ? ", " : "",
                              ri.kind == VAL_STR ? val_as_str(ri)->s : "?");
                val_unref(ri);
            }
            strbuf_putc(&msg, ')');
            val_unref(v);
            ap_error(h, p, "argument %s", msg.data);
            strbuf_free(&msg);
            *failed = true;
            return val_err();
        }
    }
    return v;
}

/* Does s look like an option ("-v", "--size=3") rather than a value? */
static bool is_option(const char *s)
{
    if (s[0] != '-' || !s[1])
        return false;
    /* a negative number is a value (no option here looks like one) */
    char *end;
    strtod(s, &end);
    return *end != '\0';
}

static val parse(host *h, ap_parser *p, val args, src_span at)
{
    val list = host_to_list(h, args, at);
    if (list.kind == VAL_ERR)
        return list;
    const val_seq *s = val_as_seq(list);
    for (size_t i = 0; i < s->len; i++)
        if (s->items[i].kind != VAL_STR) {
            val_unref(list);
            return host_error(h, at, "parse_args(): the arguments must be strs, not %s",
                              val_type_name(s->items[i]));
        }
    val ns = val_object_new(&namespace_type);
    bool *seen = calloc((size_t)p->n + 1, sizeof *seen);
    strbuf extra;
    strbuf_init(&extra);
    int next_pos = 0;
    bool only_values = false, failed = false;
    /* defaults first, in the order of add_argument, as argparse does;
     * string defaults go through type= */
    for (int i = 0; i < p->n && !failed; i++) {
        ap_action *a = &p->acts[i];
        if (a->kind == AP_HELP)
            continue;
        val d = val_ref(a->dflt);
        if (d.kind == VAL_STR && a->type.kind != VAL_NONE) {
            val_unref(d);
            d = host_call(h, a->type, 1, &a->dflt, NULL, at);
            if (d.kind == VAL_ERR) {
                failed = true;
                break;
            }
        }
        val_object_set(ns, a->dest, d);
    }
    for (size_t i = 0; i < s->len && !failed; i++) {
        const char *arg = val_as_str(s->items[i])->s;
        if (!only_values && !strcmp(arg, "--")) {
            only_values = true;
            continue;
        }
        if (only_values || !is_option(arg)) {
            /* a run of values goes to the positionals still to come, as
             * many as it can fill (a '?' one may take none); the rest of
             * the run is unrecognized */
            size_t end = i;
            while (end < s->len && (only_values || !is_option(val_as_str(s->items[end])->s)))
                end++;
            size_t left = end - i;
            int k = next_pos, need = 0, last = next_pos;
            for (; k < p->n; k++) {
                if (p->acts[k].nflags)
                    continue;
                need += !p->acts[k].optional_value;
                if ((size_t)need > left)
                    break;
                last = k + 1;
            }
            for (k = next_pos; k < last && !failed; k++) {
                ap_action *a = &p->acts[k];
                if (a->nflags)
                    continue;
                int later = 0;
                for (int m = k + 1; m < last; m++)
                    later += !p->acts[m].nflags && !p->acts[m].optional_value;
                seen[k] = true;
                if (a->optional_value && left <= (size_t)later)
                    continue;
                val v = convert(h, p, a, val_as_str(s->items[i])->s, at, &failed);
                if (failed || v.kind == VAL_ERR)
                    failed = true;
                else
                    val_object_set(ns, a->dest, v);
                i++;
                left--;
            }
            next_pos = last;
            for (; i < end && !failed; i++)
                strbuf_printf(&extra, "%s%s", extra.len ? " " : "", val_as_str(s->items[i])->s);
            i = end - 1;
            continue;
        }
        const char *eq = strchr(arg, '=');
        size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
        bool ambiguous;
        ap_action *a = find_option(p, arg, len, &ambiguous);
        const char *attached = eq ? eq + 1 : NULL;
        if (!a && !ambiguous && arg[1] != '-' && strlen(arg) > 2) {
            /* -s2.5: a short option with its value attached */
            a = find_option(p, arg, 2, &ambiguous);
            if (a)
                attached = arg + 2;
        }
        if (ambiguous) {
            ap_error(h, p, "ambiguous option: %.*s could match ...", (int)len, arg);
            failed = true;
            break;
        }
        if (!a) {
            strbuf_printf(&extra, "%s%s", extra.len ? " " : "", arg);
            continue;
        }
        strbuf an;
        strbuf_init(&an);
        put_arg_name(h, &an, a);
        if (a->kind == AP_HELP) {
            strbuf out;
            strbuf_init(&out);
            format_help(h, p, &out);
            fputs(out.data, stdout);
            strbuf_free(&out);
            strbuf_free(&an);
            failed = true;
            ap_exit(h, 0);
            break;
        }
        if (!takes_value(a)) {
            if (attached) {
                ap_error(h, p, "argument %s: ignored explicit argument '%s'", an.data, attached);
                strbuf_free(&an);
                failed = true;
                break;
            }
            val_object_set(ns, a->dest, val_bool(a->kind == AP_STORE_TRUE));
            seen[a - p->acts] = true;
            strbuf_free(&an);
            continue;
        }
        if (a->nvalues) {
            /* nargs=N: the next N arguments, as a list */
            val l = val_list_new((size_t)a->nvalues);
            int got = 0;
            while (!attached && got < a->nvalues && i + 1 < s->len &&
                   !is_option(val_as_str(s->items[i + 1])->s)) {
                val v = convert(h, p, a, val_as_str(s->items[++i])->s, at, &failed);
                if (failed || v.kind == VAL_ERR) {
                    failed = true;
                    break;
                }
                val_list_push(l, v);
                got++;
            }
            if (!failed && got < a->nvalues) {
                ap_error(h, p, "argument %s: expected %d arguments", an.data, a->nvalues);
                failed = true;
            }
            strbuf_free(&an);
            if (failed) {
                val_unref(l);
                break;
            }
            val_object_set(ns, a->dest, l);
            seen[a - p->acts] = true;
            continue;
        }
        const char *value = attached;
        if (!value && i + 1 < s->len && !is_option(val_as_str(s->items[i + 1])->s))
            value = val_as_str(s->items[++i])->s;
        if (!value) {
            if (!a->optional_value) {
                ap_error(h, p, "argument %s: expected one argument", an.data);
                strbuf_free(&an);
                failed = true;
                break;
            }
            val_object_set(ns, a->dest, val_none());
        } else {
            val v = convert(h, p, a, value, at, &failed);
            if (failed || v.kind == VAL_ERR) {
                strbuf_free(&an);
                failed = true;
                break;
            }
            val_object_set(ns, a->dest, v);
        }
        seen[a - p->acts] = true;
        strbuf_free(&an);
    }
    if (!failed) {
        strbuf missing;
        strbuf_init(&missing);
        for (int i = 0; i < p->n; i++)
            if (p->acts[i].required && !seen[i]) {
                if (missing.len)
                    strbuf_puts(&missing, ", ");
                put_arg_name(h, &missing, &p->acts[i]);
            }
        if (missing.len) {
            ap_error(h, p, "the following arguments are required: %s", missing.data);
            failed = true;
        } else if (extra.len) {
            ap_error(h, p, "unrecognized arguments: %s", extra.data);
            failed = true;
        }
        strbuf_free(&missing);
    }
    strbuf_free(&extra);
    free(seen);
    val_unref(list);
    if (failed) {
        val_unref(ns);
        return val_err();
    }
    return ns;
}

static val fn_parse_args(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                         src_span at)
{
    val a[2];
    if (!host_args(h, at, "parse_args", "args=, namespace=", argc, argv, kw, a))
        return val_err();
    if (a[1].kind != VAL_MISSING && a[1].kind != VAL_NONE)
        return host_raise(h, HOST_EXC_NOT_IMPLEMENTED, at,
                          "parse_args(): namespace= is not supported by tritsim");
    ap_parser *p = (ap_parser *)self.u.o;
    if (a[0].kind != VAL_MISSING && a[0].kind != VAL_NONE)
        return parse(h, p, a[0], at);
    val sys = host_module(h, "sys");
    val sargv = sys.kind == VAL_MODULE ? val_object_get(sys, "argv") : val_missing();
    val rest = val_list_new(4);
    if (sargv.kind == VAL_LIST)
        for (size_t i = 1; i < val_as_seq(sargv)->len; i++)
            val_list_push(rest, val_ref(val_as_seq(sargv)->items[i]));
    val r = parse(h, p, rest, at);
    val_unref(rest);
    return r;
}

/* print_help(), format_help(), print_usage(), format_usage(): the help
 * (else the usage) text, printed (else returned). */
static val fn_format(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                     src_span at, bool help, bool print)
{
    const char *name = help ? (print ? "print_help" : "format_help")
                            : (print ? "print_usage" : "format_usage");
    val a[1];
    if (!host_args(h, at, name, print ? "file=" : "", argc, argv, kw, a))
        return val_err();
    if (print && a[0].kind != VAL_MISSING && a[0].kind != VAL_NONE)
        return host_raise(h, HOST_EXC_NOT_IMPLEMENTED, at,
                          "%s(): file= is not supported by tritsim", name);
    strbuf out;
    strbuf_init(&out);
    if (help)
        format_help(h, (ap_parser *)self.u.o, &out);
    else
        format_usage(h, (ap_parser *)self.u.o, &out);
    if (!print)
        return val_str_from_buf(&out);
    fputs(out.data, stdout);
    strbuf_free(&out);
    return val_none();
}

HOST_CFUNC_CALLING(fn_print_help, fn_format, true, true)
HOST_CFUNC_CALLING(fn_format_help, fn_format, true, false)
HOST_CFUNC_CALLING(fn_print_usage, fn_format, false, true)
HOST_CFUNC_CALLING(fn_format_usage, fn_format, false, false)

static val fn_error(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                    src_span at)
{
    val a[1];
    const char *msg;
    if (!host_args(h, at, "error", "message", argc, argv, kw, a) ||
        !host_to_str(h, a[0], at, "error() argument 'message'", &msg))
        return val_err();
    return ap_error(h, (ap_parser *)self.u.o, "%s", msg);
}

static const struct {
    const char *name;
    val_cfunc fn;
} parser_methods[] = {
    {"add_argument", fn_add_argument},
    {"parse_args", fn_parse_args},
    {"print_help", fn_print_help},
    {"format_help", fn_format_help},
    {"print_usage", fn_print_usage},
    {"format_usage", fn_format_usage},
    {"error", fn_error},
};

static val parser_getattr(host *h, val self, const char *name, src_span at)
{
    (void)h;
    (void)at;
    ap_parser *p = (ap_parser *)self.u.o;
    for (size_t i = 0; i < sizeof parser_methods / sizeof parser_methods[0]; i++)
        if (!strcmp(name, parser_methods[i].name))
            return val_builtin_new(parser_methods[i].name, parser_methods[i].fn, val_ref(self));
    if (!strcmp(name, "prog"))
        return val_str_cstr(p->prog);
    if (!strcmp(name, "description"))
        return p->description ? val_str_cstr(p->description) : val_none();
    if (!strcmp(name, "epilog"))
        return p->epilog ? val_str_cstr(p->epilog) : val_none();
    return val_missing();
}

static void parser_repr(host *h, val self, strbuf *out)
{
    (void)h;
    ap_parser *p = (ap_parser *)self.u.o;
    strbuf_printf(out, "ArgumentParser(prog='%s', usage=None, description=", p->prog);
    if (p->description)
        strbuf_printf(out, "'%s'", p->description);
    else
        strbuf_puts(out, "None");
    strbuf_puts(out, ", formatter_class=<class 'argparse.HelpFormatter'>, conflict_handler='error', "
                "add_help=True)");
}

static const char *const parser_attrs[] = {
    "add_argument", "parse_args", "print_help", "format_help", "print_usage",
    "format_usage", "error", "prog", "description", "epilog", NULL,
};

static const val_type parser_type = {
    .name = "ArgumentParser",
    .getattr = parser_getattr,
    .repr = parser_repr,
    .free = parser_free,
    .attr_names = parser_attrs,
};

/* ---- Namespace ------------------------------------------------------------------- */

static void namespace_repr(host *h, val self, strbuf *out)
{
    val attrs = ((val_object *)self.u.o)->attrs;
    strbuf_puts(out, "Namespace(");
    size_t pos = 0;
    val k, v;
    bool first = true;
    while (attrs.kind == VAL_DICT && val_dict_next(attrs, &pos, &k, &v)) {
        val r = host_repr(h, v);
        strbuf_printf(out, "%s%s=%s", first ? "" : ", ", val_as_str(k)->s,
                      r.kind == VAL_STR ? val_as_str(r)->s : "?");
        val_unref(r);
        first = false;
    }
    strbuf_putc(out, ')');
}

static val namespace_binop(host *h, ast_op op, bool inplace, val a, val b, src_span at)
{
    (void)inplace;
    if (op != AST_OP_EQ && op != AST_OP_NE)
        return val_missing();
    if (a.kind != VAL_OBJECT || b.kind != VAL_OBJECT || a.u.o->type != &namespace_type ||
        b.u.o->type != &namespace_type)
        return val_missing();
    return host_binop(h, op, ((val_object *)a.u.o)->attrs, ((val_object *)b.u.o)->attrs, at);
}

static const val_type namespace_type = {
    .name = "Namespace",
    .repr = namespace_repr,
    .binop = namespace_binop,
};

static val fn_namespace_new(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                            src_span at)
{
    (void)self;
    (void)argv;
    if (argc)
        return host_error(h, at, "Namespace() takes keyword arguments only");
    val ns = val_object_new(&namespace_type);
    for (int i = 0; kw && i < kw->n; i++)
        val_object_set(ns, kw->names[i], val_ref(kw->values[i]));
    return ns;
}

void argparse_init(host *h)
{
    val m = val_module_new("argparse");
    host_def(m, "argparse.ArgumentParser", fn_parser_new);
    host_def(m, "argparse.Namespace", fn_namespace_new);
    host_register_module(h, "argparse", m);
}
