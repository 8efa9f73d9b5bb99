/* debug_cmd.c - the debugger's REPL: reading commands (GNU readline with
 * history and completion on a terminal, plain lines otherwise, echoed so a
 * transcript reads like a session), the commands themselves, and how
 * values are shown.
 *
 * Commands follow gdb's names and abbreviations (b, c, s, n, p, bt, ...);
 * an empty line repeats a stepping command or `list`.  A bad command or
 * expression prints a message and the session goes on. */
#define _POSIX_C_SOURCE 200809L
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>

#include <readline/history.h>
#include <readline/readline.h>

#include "debug_impl.h"
#include "format.h"
#include "pyformat.h"
#include "val.h"

/* ======================================================================
 * Showing values.
 * ====================================================================== */

static void dbg_put_const(strbuf *sb, const spec_const *c)
{
    switch (c->kind) {
    case SC_NONE: strbuf_puts(sb, "None"); break;
    case SC_BOOL: strbuf_puts(sb, c->u.b ? "True" : "False"); break;
    case SC_INT: strbuf_printf(sb, "%" PRId64, c->u.i); break;
    case SC_FLOAT: pyformat_float_repr(sb, c->u.f); break;
    case SC_STR: pyformat_str_repr(sb, c->u.str.s, c->u.str.len); break;
    case SC_DTYPE: strbuf_printf(sb, "triton.language.%s", dtype_name(c->u.dt)); break;
    case SC_TUPLE:
        strbuf_putc(sb, '(');
        for (int i = 0; i < c->u.tuple.n; i++) {
            if (i)
                strbuf_puts(sb, ", ");
            dbg_put_const(sb, &c->u.tuple.items[i]);
        }
        strbuf_puts(sb, c->u.tuple.n == 1 ? ",)" : ")");
        break;
    }
}

/* The bits of a lane in its type's memory format. */
static uint64_t dbg_lane_bits(const exec_tile *t, int64_t i)
{
    dtype_scalar v = exec_tile_get(t, i);
    if (dtype_is_ptr(t->type.dt))
        return v.u;
    uint64_t b = 0;
    dtype_store(t->type.dt, &b, v);     /* little-endian: the low bytes */
    return b;
}

/* p/x: every lane in hexadecimal (floats: their bits), nested like numpy;
 * lanes whose mask byte is 0 (mask may be NULL) as "--". */
static void dbg_put_hex(strbuf *sb, const exec_tile *t, const uint8_t *mask)
{
    int nd = t->type.ndim;
    int width = 0;
    char buf[40];
    size_t esz = dtype_is_ptr(t->type.dt) ? 8 : (size_t)dtype_size(t->type.dt);
    if (t->type.dt == DTYPE_INT1)
        esz = 1;
    uint64_t keep = esz >= 8 ? UINT64_MAX : (((uint64_t)1 << (8 * esz)) - 1);
    for (int64_t i = 0; i < t->numel; i++) {
        uint64_t bits = dbg_lane_bits(t, i);
        int n = snprintf(buf, sizeof buf, "0x%" PRIx64, bits & keep);
        width = n > width ? n : width;
    }
    if (nd == 0) {
        uint64_t bits = dbg_lane_bits(t, 0);
        strbuf_printf(sb, "0x%" PRIx64, bits & keep);
        return;
    }
    int64_t idx[IR_MAX_DIM] = {0};
    for (int d = 0; d < nd; d++)
        strbuf_putc(sb, '[');
    for (int64_t i = 0; i < t->numel; i++) {
        uint64_t bits = dbg_lane_bits(t, i);
        if (mask && !mask[i])
            snprintf(buf, sizeof buf, "--");
        else
            snprintf(buf, sizeof buf, "0x%" PRIx64, bits & keep);
        strbuf_printf(sb, "%*s", width, buf);
        int d = nd - 1;
        while (d >= 0 && ++idx[d] == t->type.shape[d])
            idx[d--] = 0;
        int closed = nd - 1 - d;
        if (d < 0) {
            strbuf_repeat(sb, ']', (size_t)nd);
            break;
        }
        strbuf_repeat(sb, ']', (size_t)closed);
        if (closed) {
            strbuf_repeat(sb, '\n', (size_t)closed);
            strbuf_repeat(sb, ' ', (size_t)(nd - closed));
            strbuf_repeat(sb, '[', (size_t)closed);
        } else {
            strbuf_putc(sb, ' ');
        }
    }
}

void dbg_print_value(debug *g, const char *name, const dbg_value *v, bool hex, strbuf *sb)
{
    char num[32];
    if (!name) {
        snprintf(num, sizeof num, "$%d", ++g->nvalues);
        name = num;
    }
    strbuf_printf(sb, "%s = ", name);
    if (v->kind == SPEC_DBG_CONST) {
        if (hex && v->c.kind == SC_INT)
            strbuf_printf(sb, "%s0x%" PRIx64, v->c.u.i < 0 ? "-" : "",
                          v->c.u.i < 0 ? -(uint64_t)v->c.u.i : (uint64_t)v->c.u.i);
        else
            dbg_put_const(sb, &v->c);
        strbuf_printf(sb, "  (constexpr %s)\n", spec_const_kind_name(&v->c));
        return;
    }
    if (v->kind == SPEC_DBG_OTHER) {
        strbuf_printf(sb, "<%s>\n", v->what ? v->what : "not a value");
        return;
    }
    const exec_tile *t = &v->tile;
    char ty[96];
    ir_type_str(&t->type, ty, sizeof ty);
    uint8_t *mask = NULL;
    int64_t off = 0;
    if (v->has_mask) {
        mask = xcalloc((size_t)t->numel + 1, 1);
        for (int64_t i = 0; i < t->numel; i++) {
            mask[i] = exec_tile_get(&v->mask, v->mask.numel == 1 ? 0 : i).u != 0;
            off += !mask[i];
        }
    }
    exec_tile shown = *t;
    if (off) {
        /* The masked-off lanes hold `other`, which must not change how the
         * others print (numpy picks one width and precision for all): they
         * print as the first active lane (zeros when none is), as "--". */
        size_t esz = dtype_is_ptr(t->data_type) ? 8 : (size_t)dtype_size(t->data_type);
        int64_t on = 0;
        while (on < t->numel && !mask[on])
            on++;
        shown.data = xcalloc((size_t)t->numel + 1, esz);
        for (int64_t i = 0; i < t->numel && on < t->numel; i++)
            memcpy((char *)shown.data + (size_t)i * esz,
                   (const char *)t->data + (size_t)(mask[i] ? i : on) * esz, esz);
        t = &shown;
    }
    if (t->type.ndim == 0) {
        if (off)       /* a masked-off scalar load: it holds `other` */
            strbuf_puts(sb, "--");
        else if (hex || dtype_is_ptr(t->type.dt))
            dbg_put_hex(sb, t, NULL);
        else
            format_numpy_scalar(sb, t->data_type, exec_tile_get(t, 0));
        strbuf_printf(sb, "  (%s%s)\n", ty, off ? ", masked off" : "");
        if (shown.data != v->tile.data)
            free(shown.data);
        free(mask);
        return;
    }
    if (off)
        strbuf_printf(sb, "%s, %" PRId64 " of %" PRId64 " lanes masked off (--)\n", ty, off,
                      t->numel);
    else
        strbuf_printf(sb, "%s\n", ty);
    if (hex || dtype_is_ptr(t->type.dt)) {     /* addresses read best in hex */
        dbg_put_hex(sb, t, off ? mask : NULL);
    } else {
        int64_t shape[IR_MAX_DIM];
        for (int d = 0; d < t->type.ndim; d++)
            shape[d] = t->type.shape[d];
        format_array a = {.data = t->data, .type = t->data_type, .ndim = t->type.ndim,
                          .shape = shape, .mask = off ? mask : NULL};
        if (!format_numpy(sb, &a))
            strbuf_puts(sb, "<cannot show this value>");
    }
    strbuf_putc(sb, '\n');
    if (shown.data != v->tile.data)
        free(shown.data);
    free(mask);
}

/* ======================================================================
 * Reading commands.
 * ====================================================================== */

static debug *dbg_completing;     /* the session readline completes for */

static const char *const dbg_command_names[] = {
    "args", "backtrace", "break", "condition", "continue", "delete", "disable", "display",
    "down", "enable", "exit", "finish", "frame", "help", "info", "kill", "list", "next",
    "pp", "print", "program", "ptype", "quit", "run", "step", "tbreak", "tensor",
    "undisplay", "until", "up", "watch", "whatis", "where", NULL,
};

static const char *const dbg_info_names[] = {
    "args", "breakpoints", "display", "frame", "locals", "programs", "watchpoints", NULL,
};

static char **dbg_words;          /* the candidates of the current completion */
static int dbg_nwords;

static void dbg_words_clear(void)
{
    for (int i = 0; i < dbg_nwords; i++)
        free(dbg_words[i]);
    free(dbg_words);
    dbg_words = NULL;
    dbg_nwords = 0;
}

static void dbg_words_add(const char *w)
{
    dbg_words = xrealloc(dbg_words, (size_t)(dbg_nwords + 1) * sizeof *dbg_words);
    dbg_words[dbg_nwords++] = xstrdup(w);
}

static char *dbg_complete_next(const char *text, int state)
{
    static int i;
    if (!state)
        i = 0;
    size_t n = strlen(text);
    while (i < dbg_nwords) {
        const char *w = dbg_words[i++];
        if (!strncmp(w, text, n))
            return strdup(w);
    }
    return NULL;
}

static void dbg_words_add_host(const char *name, void *ctx)
{
    (void)ctx;
    if (strncmp(name, "__", 2))
        dbg_words_add(name);
}

static const ast_node *dbg_each_jit(const ast_node *module,
                                    bool (*fn)(const ast_node *def, void *ctx), void *ctx);
static const char *dbg_cmd_name(const char *word, size_t len);

static bool dbg_words_add_def(const ast_node *def, void *ctx)
{
    (void)ctx;
    dbg_words_add(def->u.funcdef.name);
    return false;
}

/* Tab: the first word completes to a command; then what the command takes:
 * info's topics, help's commands, the host program's names after tensor,
 * the @triton.jit functions where break, tbreak, until and list want a
 * place, and else the kernel's names in scope (expressions, conditions). */
static char **dbg_complete(const char *text, int start, int end)
{
    (void)end;
    debug *g = dbg_completing;
    dbg_words_clear();
    rl_attempted_completion_over = 1;
    int i = 0;
    while (i < start && isspace((unsigned char)rl_line_buffer[i]))
        i++;
    size_t len = 0;
    while (i + (int)len < start && !isspace((unsigned char)rl_line_buffer[i + len]) &&
           rl_line_buffer[i + len] != '/')
        len++;
    const char *cmd = i == start ? NULL : dbg_cmd_name(rl_line_buffer + i, len);
    cmd = cmd ? cmd : "";
    bool place = !strcmp(cmd, "break") || !strcmp(cmd, "tbreak") || !strcmp(cmd, "until") ||
                 !strcmp(cmd, "list");
    for (int k = i + (int)len; place && k + 3 <= start; k++)    /* `break 12 if ...` */
        if (!strncmp(rl_line_buffer + k, " if", 3) &&
            (k + 3 == start || isspace((unsigned char)rl_line_buffer[k + 3])))
            place = false;
    if (i == start || !strcmp(cmd, "help")) {
        for (int k = 0; dbg_command_names[k]; k++)
            dbg_words_add(dbg_command_names[k]);
    } else if (!strcmp(cmd, "info")) {
        for (int k = 0; dbg_info_names[k]; k++)
            dbg_words_add(dbg_info_names[k]);
    } else if (!strcmp(cmd, "tensor")) {
        if (g && g->cur && g->cur->h)   /* a host expression: the program's names */
            host_each_name(g->cur->h, dbg_words_add_host, NULL);
    } else if (place) {
        if (g && g->o.module)
            dbg_each_jit(g->o.module, dbg_words_add_def, NULL);
    } else if (g && g->cur && g->cur->focus) {
        int32_t s = dbg_cur_stmt(g);
        arena a;
        arena_init(&a);
        spec_dbg_var *vars;
        int nv = s >= 0 ? spec_dbg_vars(g->cur->k, s, &vars, &a) : 0;
        for (int k = 0; k < nv; k++)
            dbg_words_add(vars[k].name);
        dbg_words_add("pid");
        dbg_words_add("tl");
        arena_free(&a);
    }
    return rl_completion_matches(text, dbg_complete_next);
}

/* readline through its callback interface, so that Ctrl-C at the prompt is
 * ours to handle: the line typed so far is dropped and a fresh prompt shown,
 * as in gdb, without losing the keys typed after it (readline's blocking
 * call goes on reading after a signal). */
static char *dbg_rl_line;
static bool dbg_rl_done;

static void dbg_rl_take(char *line)
{
    rl_callback_handler_remove();
    dbg_rl_line = line;
    dbg_rl_done = true;
}

static char *dbg_readline(const char *prompt)
{
    dbg_rl_done = false;
    dbg_rl_line = NULL;
    dbg_interrupted = 0;
    sig_atomic_t catching = dbg_catching;
    dbg_catching = 1;
    rl_callback_handler_install(prompt, dbg_rl_take);
    while (!dbg_rl_done) {
        int fd = fileno(rl_instream ? rl_instream : stdin);
        fd_set in;
        FD_ZERO(&in);
        FD_SET(fd, &in);
        int r = select(fd + 1, &in, NULL, NULL, NULL);
        if (r < 0 && errno != EINTR) {
            rl_callback_handler_remove();
            break;
        }
        if (dbg_interrupted) {
            dbg_interrupted = 0;
            rl_free_line_state();
            rl_callback_sigcleanup();
            rl_callback_handler_remove();
            printf("^C\nQuit\n");
            fflush(stdout);
            rl_callback_handler_install(prompt, dbg_rl_take);
            continue;
        }
        if (r > 0)
            rl_callback_read_char();
    }
    dbg_catching = catching;
    return dbg_rl_line;
}

static char *dbg_history_path(void)
{
    const char *home = getenv("HOME");
    if (!home || !*home)
        return NULL;
    size_t n = strlen(home) + 32;
    char *p = xmalloc(n);
    snprintf(p, n, "%s/.tritsim_history", home);
    return p;
}

void dbg_repl_init(debug *g)
{
    if (!g->o.tty)
        return;
    rl_readline_name = "tritsim";
    rl_attempted_completion_function = dbg_complete;
    char *p = dbg_history_path();
    if (p) {
        using_history();
        read_history(p);
        free(p);
    }
}

void dbg_repl_done(debug *g)
{
    dbg_words_clear();
    if (!g->o.tty)
        return;
    char *p = dbg_history_path();
    if (p) {
        write_history(p);
        history_truncate_file(p, 1000);
        free(p);
    }
}

/* A line of input without its newline (malloc'd), or NULL at the end. */
static char *dbg_read(debug *g)
{
    static const char prompt[] = "(tritsim) ";
    fflush(stdout);
    if (g->o.tty) {
        dbg_completing = g;
        char *line = dbg_readline(prompt);
        dbg_completing = NULL;
        if (line && *line)
            add_history(line);
        return line;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t n = getline(&line, &cap, stdin);
    if (n < 0) {
        free(line);
        return NULL;
    }
    while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
        line[--n] = 0;
    printf("%s%s\n", prompt, line);     /* the transcript shows the command */
    return line;
}

/* ======================================================================
 * The commands.
 * ====================================================================== */

typedef enum { CMD_STAY, CMD_RESUME } cmd_result;

static bool dbg_stopped(debug *g)
{
    if (g->cur && g->cur->focus)
        return true;
    printf(g->running ? "No kernel program is stopped.\n"
                      : "The program is not being run (use `run`).\n");
    return false;
}

static const char *dbg_skip(const char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    return s;
}

/* "N" as an int; false (and a message) when it is not one. */
static bool dbg_int(const char *s, const char *what, long *out)
{
    char *end;
    s = dbg_skip(s);
    long v = strtol(s, &end, 10);
    if (end == s || *dbg_skip(end)) {
        printf("%s wants a number, not '%s'.\n", what, s);
        return false;
    }
    *out = v;
    return true;
}

static dbg_bp *dbg_new_bp(debug *g, dbg_bp_kind kind)
{
    if (g->nbps == g->capbps) {
        g->capbps = g->capbps ? 2 * g->capbps : 8;
        g->bps = xrealloc(g->bps, (size_t)g->capbps * sizeof *g->bps);
    }
    dbg_bp *b = &g->bps[g->nbps++];
    memset(b, 0, sizeof *b);
    b->num = g->next_num++;
    b->kind = kind;
    b->enabled = true;
    b->frame = -1;
    return b;
}

/* ---- where a breakpoint goes: lines of @triton.jit functions ------------- */

static bool dbg_is_jit_name(const ast_node *e)
{
    return (e->kind == AST_NAME && !strcmp(e->u.name.id, "jit")) ||
           (e->kind == AST_ATTRIBUTE && !strcmp(e->u.attribute.attr, "jit"));
}

/* `jit(name)` or `triton.jit(name)` for ctx, a function's name? */
static bool dbg_jits_name(const ast_node *n, void *ctx)
{
    return n->kind == AST_CALL && dbg_is_jit_name(n->u.call.func) && n->u.call.args.len >= 1 &&
           n->u.call.args.items[0]->kind == AST_NAME &&
           !strcmp(n->u.call.args.items[0]->u.name.id, (const char *)ctx);
}

/* Is def a kernel or helper: decorated with @jit / @triton.jit (maybe
 * called, maybe under @triton.autotune), or passed to triton.jit(...)
 * somewhere in module? */
static bool dbg_is_jit(const ast_node *module, const ast_node *def)
{
    for (int i = 0; i < def->u.funcdef.decorators.len; i++) {
        const ast_node *d = def->u.funcdef.decorators.items[i];
        if (dbg_is_jit_name(d->kind == AST_CALL ? d->u.call.func : d))
            return true;
    }
    return ast_any(module, dbg_jits_name, (void *)def->u.funcdef.name);
}

/* A def's first line: its first decorator's. */
static int dbg_def_first_line(const ast_node *def)
{
    int line = def->span.line;
    for (int i = 0; i < def->u.funcdef.decorators.len; i++)
        if (def->u.funcdef.decorators.items[i]->span.line < line)
            line = def->u.funcdef.decorators.items[i]->span.line;
    return line;
}

/* The statement lists inside statement st (a body and an else branch). */
static int dbg_sub_bodies(const ast_node *st, const ast_list *out[2])
{
    switch (st->kind) {
    case AST_IF: case AST_WHILE:
        out[0] = &st->u.if_.body;
        out[1] = &st->u.if_.orelse;
        return 2;
    case AST_FOR:
        out[0] = &st->u.for_.body;
        out[1] = &st->u.for_.orelse;
        return 2;
    case AST_FUNCDEF:
        out[0] = &st->u.funcdef.body;
        return 1;
    default:
        return 0;
    }
}

static const ast_node *dbg_each_jit_in(const ast_node *module, const ast_list *body,
                                       bool (*fn)(const ast_node *def, void *ctx), void *ctx)
{
    for (int i = 0; body && i < body->len; i++) {
        const ast_node *st = body->items[i];
        if (st->kind == AST_FUNCDEF && dbg_is_jit(module, st) && fn(st, ctx))
            return st;
        const ast_list *sub[2];
        int n = dbg_sub_bodies(st, sub);
        for (int j = 0; j < n; j++) {
            const ast_node *r = dbg_each_jit_in(module, sub[j], fn, ctx);
            if (r)
                return r;
        }
    }
    return NULL;
}

/* Call fn on every @triton.jit def of module (NULL: none), nested ones
 * too; stop at the first for which it returns true (and return that def). */
static const ast_node *dbg_each_jit(const ast_node *module,
                                    bool (*fn)(const ast_node *def, void *ctx), void *ctx)
{
    return module ? dbg_each_jit_in(module, &module->u.module.body, fn, ctx) : NULL;
}

static bool dbg_def_holds(const ast_node *def, void *ctx)
{
    int line = *(const int *)ctx;
    return dbg_def_first_line(def) <= line && line <= def->span.end_line;
}

static bool dbg_def_named(const ast_node *def, void *ctx)
{
    return !strcmp(def->u.funcdef.name, (const char *)ctx);
}

/* Append "name (lines a-b)" of each def to the strbuf ctx. */
static bool dbg_def_list(const ast_node *def, void *ctx)
{
    strbuf *sb = ctx;
    strbuf_printf(sb, "%s%s (lines %d-%d)", sb->len ? ", " : "", def->u.funcdef.name,
                  dbg_def_first_line(def), def->span.end_line);
    return false;
}

/* The line of the statement of body that holds line (any line of a simple
 * statement, the header of a compound one), or of the first statement after
 * it; 0 when there is none. */
static int dbg_code_line(const ast_list *body, int line)
{
    for (int i = 0; i < body->len; i++) {
        const ast_node *st = body->items[i];
        if (st->span.line >= line)
            return st->span.line;
        if (line > st->span.end_line)
            continue;
        const ast_list *sub[2];
        int n = st->kind == AST_FUNCDEF ? 0 : dbg_sub_bodies(st, sub);
        if (!n)
            return st->span.line;
        for (int j = 0; j < n; j++) {
            int r = dbg_code_line(sub[j], line);
            if (r)
                return r;
        }
    }
    return 0;
}

/* Where a breakpoint on line of the program stops: that line when a
 * statement of a @triton.jit function starts there, else the next line of
 * the function that has one (as gdb moves a breakpoint to the next line
 * with code).  0 after saying why there is none (a line of host code). */
static int dbg_resolve_line(debug *g, int line)
{
    const ast_node *m = g->o.module;
    if (!m)
        return line;
    const ast_node *def = dbg_each_jit(m, dbg_def_holds, &line);
    int to = def ? dbg_code_line(&def->u.funcdef.body, line) : 0;
    if (to)
        return to;
    strbuf sb = {0};
    dbg_each_jit(m, dbg_def_list, &sb);
    if (sb.len)
        fprintf(g->say, "Line %d is not in a @triton.jit function; the debugger stops in "
                "kernels and their helpers: %s.\n", line, strbuf_cstr(&sb));
    else
        fprintf(g->say, "Line %d is not in a @triton.jit function, and %s has none; the "
                "debugger stops in kernels.\n", line, g->o.file ? g->o.file->name : "the program");
    strbuf_free(&sb);
    return 0;
}

/* A breakpoint's condition for line, parsed and its uses of pid checked
 * (their length too when the line is in the kernel stopped in); NULL after
 * saying what is wrong. */
static dbg_expr *dbg_cond_new(debug *g, const char *cond, int line)
{
    int rank = 0;
    for (int32_t i = 0; g->cur && i < g->cur->k->nstmts && !rank; i++)
        if (g->cur->k->stmts[i].at->span.line == line)
            rank = g->cur->L->rank;
    dbg_expr *x = dbg_expr_new(cond, g->say);
    diag_sink d;
    diag_sink_init(&d, g->say);
    if (x && !dbg_pid_compare_ok(x->e, x->file, rank, &d)) {
        dbg_expr_free(x);
        return NULL;
    }
    return x;
}

/* "[FILE:]LINE [if COND]" */
static bool dbg_set_break(debug *g, const char *spec, bool temporary)
{
    spec = dbg_skip(spec);
    const char *cond = NULL;
    size_t len = strlen(spec);
    for (const char *p = spec; *p; p++)
        if (!strncmp(p, "if", 2) && (p == spec || isspace((unsigned char)p[-1])) &&
            (isspace((unsigned char)p[2]) || p[2] == '(' || !p[2])) {
            cond = p + 2;
            len = (size_t)(p - spec);
            break;
        }
    while (len && isspace((unsigned char)spec[len - 1]))
        len--;
    if (!len) {
        fprintf(g->say, "break wants a line: `break LINE`, `break FILE:LINE`, "
                "`break FUNCTION`, `break LINE if COND`.\n");
        return false;
    }
    char *where = strndup(spec, len);
    char *colon = strrchr(where, ':');
    char *file = NULL;
    const char *num = where;
    if (colon) {
        *colon = 0;
        file = xstrdup(where);
        num = colon + 1;
    }
    const src_file *main = g->o.file;
    if (file && main && !dbg_file_matches(file, main)) {
        fprintf(g->say, "No source file named '%s'; the program is %s.\n", file, main->name);
        free(where);
        free(file);
        return false;
    }
    char *end;
    long asked = strtol(num, &end, 10), line = asked;
    const ast_node *def = NULL;
    if ((end == num || *end) && g->o.module)      /* break FUNCTION */
        def = dbg_each_jit(g->o.module, dbg_def_named, (void *)num);
    if (def) {
        line = dbg_code_line(&def->u.funcdef.body, def->span.line);
    } else if (end == num || *end || line < 1) {
        fprintf(g->say, "'%s' is not a line number or a @triton.jit function; use "
                "`break LINE`, `break FILE:LINE` or `break FUNCTION`.\n", num);
        line = 0;
    } else if (main && line > main->nlines) {
        fprintf(g->say, "Line %ld is past the end of %s (%d lines).\n", line, main->name,
                main->nlines);
        line = 0;
    } else {
        line = dbg_resolve_line(g, (int)line);
    }
    if (line <= 0) {
        free(where);
        free(file);
        return false;
    }
    dbg_expr *x = NULL;
    if (cond) {
        cond = dbg_skip(cond);
        if (!*cond) {
            fprintf(g->say, "`if` wants a condition, e.g. `break %ld if pid == (1, 0)`.\n",
                    line);
            free(where);
            free(file);
            return false;
        }
        x = dbg_cond_new(g, cond, (int)line);
        if (!x) {
            free(where);
            free(file);
            return false;
        }
    }
    dbg_bp *b = dbg_new_bp(g, DBG_BREAK);
    b->line = (int)line;
    b->file = file;
    b->expr = x;
    b->temporary = temporary;
    printf("%s %d at %s:%ld%s%s", temporary ? "Temporary breakpoint" : "Breakpoint", b->num,
           file ? file : main ? main->name : "?", line, x ? " if " : "", x ? x->text : "");
    if (def)
        printf(" (the first line of %s())", def->u.funcdef.name);
    else if (line > asked)
        printf(" (line %ld has no kernel statement; the next one is on line %ld)", asked, line);
    else if (line < asked)
        printf(" (line %ld is part of the statement that starts on line %ld)", asked, line);
    putchar('\n');
    free(where);
    return true;
}

bool debug_break(debug *g, const char *spec)
{
    g->say = stderr;          /* a usage error of tritsim run */
    bool ok = dbg_set_break(g, spec, false);
    g->say = stdout;
    return ok;
}

static cmd_result cmd_break(debug *g, const char *arg)
{
    dbg_set_break(g, arg, false);
    return CMD_STAY;
}

static cmd_result cmd_tbreak(debug *g, const char *arg)
{
    dbg_set_break(g, arg, true);
    return CMD_STAY;
}

static cmd_result cmd_watch(debug *g, const char *arg)
{
    arg = dbg_skip(arg);
    if (!*arg) {
        printf("watch wants an expression, e.g. `watch acc`.\n");
        return CMD_STAY;
    }
    dbg_expr *x = dbg_expr_new(arg, stdout);
    if (!x)
        return CMD_STAY;
    bool stopped = g->cur && g->cur->focus, ok = false;
    if (stopped) {            /* what it is here, or why it cannot be evaluated */
        dbg_values v;
        ok = dbg_eval(g, x, false, &v);
        const char *why = !ok || (v.n == 1 && v.v[0].kind == SPEC_DBG_TILE) ? NULL
                          : v.n != 1 ? "it is a tuple: watch each of its items"
                          : v.v[0].kind == SPEC_DBG_CONST ? "it is a constant, which never changes"
                          : "it is not a value";
        dbg_values_free(&v);
        if (why) {
            printf("Cannot watch %s: %s.\n", x->text, why);
            dbg_expr_free(x);
            return CMD_STAY;
        }
    }
    dbg_bp *b = dbg_new_bp(g, DBG_WATCH);
    b->expr = x;
    printf("Watchpoint %d: %s\n", b->num, x->text);
    if (ok) {                 /* the value now is the one to compare with */
        dbg_watch_hit(g, b, false);
    } else if (stopped) {
        /* it may get a value further on (a variable assigned later): then
         * it reports that first value */
        b->absent = true;
        b->absent_pid = exec_prog_pid(g->cur->focus);
        printf("Watchpoint %d cannot be evaluated here; it is kept, and watches where it can be, "
               "reporting its first value (`delete %d` removes it).\n", b->num, b->num);
    }
    return CMD_STAY;
}

/* Apply fn to the breakpoints numbered in arg (all when arg is empty). */
static void dbg_each_bp(debug *g, const char *arg, const char *what,
                        void (*fn)(debug *g, int i))
{
    arg = dbg_skip(arg);
    if (!*arg) {
        for (int i = g->nbps - 1; i >= 0; i--)
            fn(g, i);
        return;
    }
    while (*arg) {
        char *end;
        long n = strtol(arg, &end, 10);
        if (end == arg) {
            printf("%s wants breakpoint numbers, not '%s'.\n", what, arg);
            return;
        }
        int found = -1;
        for (int i = 0; i < g->nbps; i++)
            if (g->bps[i].num == n)
                found = i;
        if (found < 0)
            printf("No breakpoint number %ld.\n", n);
        else
            fn(g, found);
        arg = dbg_skip(end);
    }
}

static void dbg_delete_one(debug *g, int i)
{
    dbg_expr_free(g->bps[i].expr);
    free(g->bps[i].file);
    exec_tile_free(&g->bps[i].old);
    memmove(&g->bps[i], &g->bps[i + 1], (size_t)(g->nbps - i - 1) * sizeof *g->bps);
    g->nbps--;
}

static void dbg_enable_one(debug *g, int i) { g->bps[i].enabled = true; }
static void dbg_disable_one(debug *g, int i) { g->bps[i].enabled = false; }

static cmd_result cmd_delete(debug *g, const char *arg)
{
    dbg_each_bp(g, arg, "delete", dbg_delete_one);
    return CMD_STAY;
}

static cmd_result cmd_enable(debug *g, const char *arg)
{
    dbg_each_bp(g, arg, "enable", dbg_enable_one);
    return CMD_STAY;
}

static cmd_result cmd_disable(debug *g, const char *arg)
{
    dbg_each_bp(g, arg, "disable", dbg_disable_one);
    return CMD_STAY;
}

/* info breakpoints (all), info watchpoints (watch_only) */
/* condition N [COND]: give breakpoint N a condition, or take it away. */
static cmd_result cmd_condition(debug *g, const char *arg)
{
    arg = dbg_skip(arg);
    char *end;
    long n = strtol(arg, &end, 10);
    if (end == arg || (*end && !isspace((unsigned char)*end))) {
        printf("condition wants a breakpoint number: `condition N COND`, or `condition N` to "
               "remove its condition.\n");
        return CMD_STAY;
    }
    dbg_bp *b = NULL;
    for (int i = 0; i < g->nbps; i++)
        if (g->bps[i].num == n)
            b = &g->bps[i];
    if (!b || b->kind != DBG_BREAK) {
        printf(b ? "%ld is a watchpoint; conditions are for breakpoints.\n"
                 : "No breakpoint number %ld.\n", n);
        return CMD_STAY;
    }
    const char *cond = dbg_skip(end);
    dbg_expr *x = NULL;
    if (*cond) {
        x = dbg_cond_new(g, cond, b->line);
        if (!x)
            return CMD_STAY;
    }
    dbg_expr_free(b->expr);
    b->expr = x;
    if (x)
        printf("Breakpoint %d stops where %s.\n", b->num, x->text);
    else
        printf("Breakpoint %d now unconditional.\n", b->num);
    return CMD_STAY;
}

static void dbg_info_breakpoints(debug *g, bool watch_only)
{
    int n = 0;
    for (int i = 0; i < g->nbps; i++)
        n += !watch_only || g->bps[i].kind == DBG_WATCH;
    if (!n) {
        printf(watch_only ? "No watchpoints.\n" : "No breakpoints or watchpoints.\n");
        return;
    }
    printf("Num  Type        Enb  Where / what\n");
    for (int i = 0; i < g->nbps; i++) {
        const dbg_bp *b = &g->bps[i];
        if (watch_only && b->kind != DBG_WATCH)
            continue;
        printf("%-4d %-11s %-4s ", b->num,
               b->kind == DBG_WATCH ? "watchpoint" : b->temporary ? "tbreakpoint" : "breakpoint",
               b->enabled ? "y" : "n");
        if (b->kind == DBG_WATCH)
            printf("%s\n", b->expr->text);
        else
            printf("%s:%d%s%s\n", b->file ? b->file : g->o.file ? g->o.file->name : "?",
                   b->line, b->expr ? " if " : "", b->expr ? b->expr->text : "");
        if (b->hits)
            printf("     hit %" PRId64 " time%s\n", b->hits, b->hits == 1 ? "" : "s");
    }
}

/* A variable's value at the current statement, as a dbg_value. */
static bool dbg_var_value(debug *g, const spec_dbg_var *v, dbg_value *out)
{
    memset(out, 0, sizeof *out);
    out->kind = v->kind;
    out->c = v->c;
    out->what = v->what;
    if (v->kind != SPEC_DBG_TILE)
        return true;
    if (!exec_prog_read(g->cur->focus, v->slot, &out->tile))
        return false;
    int32_t m = dbg_load_mask(g->cur->k, v->slot);
    if (m >= 0 && exec_prog_read(g->cur->focus, m, &out->mask))
        out->has_mask = true;
    return true;
}

static void dbg_info_vars(debug *g, bool args)
{
    if (!dbg_stopped(g))
        return;
    int32_t s = dbg_cur_stmt(g);
    arena a;
    arena_init(&a);
    spec_dbg_var *vars;
    int nv = s >= 0 ? spec_dbg_vars(g->cur->k, s, &vars, &a) : 0;
    int shown = 0;
    strbuf sb = {0};
    for (int i = 0; i < nv; i++) {
        if (vars[i].is_arg != args)
            continue;
        dbg_value v;
        if (dbg_var_value(g, &vars[i], &v))
            dbg_print_value(g, vars[i].name, &v, false, &sb);
        exec_tile_free(&v.tile);
        if (v.has_mask)
            exec_tile_free(&v.mask);
        shown++;
    }
    fputs(strbuf_cstr(&sb), stdout);
    strbuf_free(&sb);
    if (!shown)
        printf(args ? "No arguments.\n" : "No locals yet.\n");
    arena_free(&a);
}

static void dbg_info_programs(debug *g)
{
    if (!dbg_stopped(g))
        return;
    dbg_launch *D = g->cur;
    int64_t n = exec_sess_nprog(D->S);
    int64_t focus = exec_prog_pid(D->focus);
    /* 0 not started, 1 finished, 2 paused, 3 the focus */
    int64_t run_start = 0;
    int run_state = -1;
    char c0[80], c1[80];
    for (int64_t p = 0; p <= n; p++) {
        int st = -1;
        if (p < n) {
            st = D->started[p] ? 1 : 0;
            if (p == focus)
                st = 3;
            for (int i = 0; i < D->npaused; i++)
                if (exec_prog_pid(D->paused[i].P) == p)
                    st = 2;
        }
        if (st == run_state && st < 2)
            continue;
        if (run_state >= 0 && run_state < 2) {
            dbg_coord_str(D, run_start, c0, sizeof c0);
            dbg_coord_str(D, p - 1, c1, sizeof c1);
            const char *what = run_state ? "finished" : "not started";
            if (p - 1 == run_start)
                printf("  program %s  %s\n", c0, what);
            else
                printf("  programs %s .. %s  %s (%" PRId64 " programs)\n", c0, c1, what,
                       p - run_start);
        }
        if (st >= 2) {
            int32_t s = st == 3 ? dbg_prog_stmt(D, D->focus, D->focus_stmt) : -1;
            for (int i = 0; st == 2 && i < D->npaused; i++)
                if (exec_prog_pid(D->paused[i].P) == p)
                    s = dbg_prog_stmt(D, D->paused[i].P, D->paused[i].stmt);
            dbg_coord_str(D, p, c0, sizeof c0);
            const src_file *f = s >= 0 ? dbg_frame_file(D, D->k->stmts[s].frame) : NULL;
            printf("%s program %s  %s at %s:%d\n", st == 3 ? "*" : " ", c0,
                   st == 3 ? "stopped" : "paused", f ? f->name : "?",
                   s >= 0 ? D->k->stmts[s].at->span.line : 0);
            run_state = -1;
        } else {
            run_state = st;
        }
        run_start = p;
    }
}

static void dbg_info_display(debug *g)
{
    if (!g->ndisps) {
        printf("No displays.\n");
        return;
    }
    for (int i = 0; i < g->ndisps; i++)
        printf("%d: %s%s\n", g->disps[i].num, g->disps[i].hex ? "/x " : "",
               g->disps[i].expr->text);
}

static cmd_result cmd_backtrace(debug *g, const char *arg);

static cmd_result cmd_info(debug *g, const char *arg)
{
    arg = dbg_skip(arg);
    size_t n = strlen(arg);
    while (n && isspace((unsigned char)arg[n - 1]))
        n--;
    const char *full = NULL;
    int matches = 0;
    for (int k = 0; dbg_info_names[k]; k++)
        if (n && !strncmp(dbg_info_names[k], arg, n)) {
            full = dbg_info_names[k];
            matches++;
            if (strlen(full) == n) {
                matches = 1;
                break;
            }
        }
    if (matches != 1) {
        printf("info what?  info breakpoints | watchpoints | locals | args | programs | "
               "display | frame\n");
        return CMD_STAY;
    }
    if (!strcmp(full, "breakpoints") || !strcmp(full, "watchpoints"))
        dbg_info_breakpoints(g, !strcmp(full, "watchpoints"));
    else if (!strcmp(full, "locals"))
        dbg_info_vars(g, false);
    else if (!strcmp(full, "args"))
        dbg_info_vars(g, true);
    else if (!strcmp(full, "programs"))
        dbg_info_programs(g);
    else if (!strcmp(full, "display"))
        dbg_info_display(g);
    else
        cmd_backtrace(g, "");
    return CMD_STAY;
}

/* pdb's `args`: info args */
static cmd_result cmd_args(debug *g, const char *arg)
{
    (void)arg;
    dbg_info_vars(g, true);
    return CMD_STAY;
}

/* Run the program once under the debugger. */
static int dbg_run_program(debug *g, int argc, char **argv)
{
    g->running = true;
    g->kill = false;
    g->mode = DBG_CONTINUE;
    fflush(stdout);
    int status = g->o.run(g->o.run_ctx, g, argc, argv);
    fflush(stdout);
    fflush(stderr);
    g->running = false;
    if (g->kill) {
        printf("[program killed]\n");
        status = 1;
    }
    return status;
}

int debug_run(debug *g, int argc, char **argv)
{
    g->argc = argc;
    g->argv = argv;
    return dbg_run_program(g, argc, argv);
}

static cmd_result cmd_run(debug *g, const char *arg)
{
    if (g->running) {
        printf("The program is already running; `continue` it, or `kill` it and `run` "
               "again.\n");
        return CMD_STAY;
    }
    /* sys.argv: the file, then the words of arg (or of the last run's) */
    if (*dbg_skip(arg)) {
        free(g->run_args);
        g->run_args = xstrdup(dbg_skip(arg));
    }
    char *copy = xstrdup(g->run_args ? g->run_args : "");
    int argc = 1, cap = 8;
    char **argv = xcalloc((size_t)cap, sizeof *argv);
    argv[0] = g->o.file ? g->o.file->name : "program";
    for (int i = 1; !g->run_args && i < g->argc; i++) {    /* the command line's */
        if (argc + 2 > cap) {
            cap *= 2;
            argv = xrealloc(argv, (size_t)cap * sizeof *argv);
        }
        argv[argc++] = g->argv[i];
    }
    for (char *w = strtok(copy, " \t"); w; w = strtok(NULL, " \t")) {
        if (argc + 2 > cap) {
            cap *= 2;
            argv = xrealloc(argv, (size_t)cap * sizeof *argv);
        }
        argv[argc++] = w;
    }
    argv[argc] = NULL;
    if (argc > 1) {           /* say which arguments, as they may be an earlier run's */
        printf("Starting program: %s", argv[0]);
        for (int i = 1; i < argc; i++)
            printf(" %s", argv[i]);
        putchar('\n');
    }
    int status = dbg_run_program(g, argc, argv);
    if (!g->kill)
        printf("[program exited with status %d]\n", status);
    g->kill = false;
    free(argv);
    free(copy);
    return CMD_STAY;
}

/* The frames of the focused program, innermost first: #0 is the statement
 * it is at, #i the call site in its caller. */
static int dbg_frames(debug *g, int32_t *frames, int *lines, int cap)
{
    const dbg_launch *D = g->cur;
    int32_t s = dbg_prog_stmt(D, D->focus, D->focus_stmt);
    if (s < 0)
        return 0;
    int n = 0;
    int32_t f = D->k->stmts[s].frame;
    int line = D->k->stmts[s].at->span.line;
    while (n < cap) {
        frames[n] = f;
        lines[n++] = line;
        if (f < 0 || f >= D->k->nframes || D->k->frames[f].parent < 0 || !D->k->frames[f].call)
            break;
        line = D->k->frames[f].call->span.line;
        f = D->k->frames[f].parent;
    }
    return n;
}

/* "#1  inner() at f.tk:19" after lead ("*" marks the selected frame) */
static void dbg_show_frame(debug *g, const char *lead, int i, int32_t f, int line)
{
    const dbg_launch *D = g->cur;
    const char *fn = f >= 0 && f < D->k->nframes ? D->k->frames[f].func : D->k->name;
    const src_file *file = dbg_frame_file(D, f);
    printf("%s#%d  %s() at %s:%d\n", lead, i, fn, file ? file->name : "?", line);
}

static cmd_result dbg_resume(debug *g, dbg_mode mode)
{
    if (!dbg_stopped(g))
        return CMD_STAY;
    const dbg_launch *D = g->cur;
    int32_t s = dbg_cur_stmt(g);
    g->mode = mode;       /* s is in the selected frame already */
    g->mode_depth = s >= 0 ? dbg_frame_depth(D->k, D->k->stmts[s].frame) : 0;
    g->mode_line = s >= 0 ? D->k->stmts[s].at->span.line : 0;
    return CMD_RESUME;
}

static cmd_result cmd_continue(debug *g, const char *arg)
{
    (void)arg;
    return dbg_resume(g, DBG_CONTINUE);
}

static cmd_result cmd_step(debug *g, const char *arg)
{
    (void)arg;
    return dbg_resume(g, DBG_STEP);
}

static cmd_result cmd_next(debug *g, const char *arg)
{
    (void)arg;
    return dbg_resume(g, DBG_NEXT);
}

static cmd_result cmd_finish(debug *g, const char *arg)
{
    (void)arg;
    if (!dbg_stopped(g))
        return CMD_STAY;
    int32_t s = dbg_cur_stmt(g);
    if (s < 0 || dbg_frame_depth(g->cur->k, g->cur->k->stmts[s].frame) == 0) {
        printf("`finish` is for a helper function; this is the kernel itself (use `continue`, "
               "or `until LINE`).\n");
        return CMD_STAY;
    }
    int32_t frames[64];
    int lines[64];
    int n = dbg_frames(g, frames, lines, 64), sel = g->cur->frame_sel;
    if (sel < n) {
        printf("Run till exit from ");
        dbg_show_frame(g, "", sel, frames[sel], lines[sel]);
    }
    return dbg_resume(g, DBG_FINISH);
}

static cmd_result cmd_until(debug *g, const char *arg)
{
    long line = 0;
    if ((*dbg_skip(arg) && !dbg_int(arg, "until", &line)) || !dbg_stopped(g))
        return CMD_STAY;
    const src_file *f = g->o.file;
    if (*dbg_skip(arg) && (line < 1 || (f && line > f->nlines))) {
        printf("There is no line %ld in %s (%d lines).\n", line, f ? f->name : "the program",
               f ? f->nlines : 0);
        return CMD_STAY;
    }
    if (line) {               /* a line without code: the one a breakpoint would use */
        int to = dbg_resolve_line(g, (int)line);
        if (!to)
            return CMD_STAY;
        if (to != line)
            printf("Line %ld has no kernel statement of its own; until line %d.\n", line, to);
        line = to;
    }
    cmd_result r = dbg_resume(g, DBG_UNTIL);
    g->until_line = (int)line;
    return r;
}

static cmd_result cmd_kill(debug *g, const char *arg)
{
    (void)arg;
    if (!g->running) {
        printf("The program is not being run.\n");
        return CMD_STAY;
    }
    if (!g->cur) {
        printf("No launch is stopped.\n");
        return CMD_STAY;
    }
    g->kill = true;
    return CMD_RESUME;
}

static cmd_result cmd_quit(debug *g, const char *arg)
{
    (void)arg;
    g->quit = true;
    if (g->running && g->cur) {
        g->kill = true;
        return CMD_RESUME;
    }
    return CMD_RESUME;
}

/* print and ptype: parse arg and evaluate it in the stopped program.
 * false after saying why; *x and *v are freed by the caller either way. */
static bool dbg_eval_arg(debug *g, const char *arg, const char *usage, dbg_expr **x,
                         dbg_values *v)
{
    *x = NULL;
    memset(v, 0, sizeof *v);
    arg = dbg_skip(arg);
    if (!*arg) {
        printf("%s\n", usage);
        return false;
    }
    if (!dbg_stopped(g) || !(*x = dbg_expr_new(arg, stdout)))
        return false;
    return dbg_eval(g, *x, false, v);
}

/* The /FMT of print and display: *hex for /x; false after saying what is
 * wrong.  *arg moves past it. */
static bool dbg_format(const char **arg, bool *hex)
{
    const char *a = *arg;
    *hex = false;
    if (a[0] != '/')
        return true;
    if ((a[1] != 'x' && a[1] != 'd') || (a[2] && !isspace((unsigned char)a[2]))) {
        printf("Unknown format '%.*s': /x is hexadecimal (floats: their bits), /d decimal "
               "(the default).\n", (int)strcspn(a, " \t"), a);
        return false;
    }
    *hex = a[1] == 'x';
    *arg = a + 2;
    return true;
}

/* print[/x] EXPR */
static cmd_result cmd_print(debug *g, const char *arg)
{
    bool hex;
    if (!dbg_format(&arg, &hex))
        return CMD_STAY;
    dbg_expr *x;
    dbg_values v;
    if (dbg_eval_arg(g, arg, "print wants an expression, e.g. `print offs` or `p/x mask`.",
                     &x, &v)) {
        strbuf sb = {0};
        for (int i = 0; i < v.n; i++)
            dbg_print_value(g, NULL, &v.v[i], hex, &sb);
        fputs(strbuf_cstr(&sb), stdout);
        strbuf_free(&sb);
    }
    dbg_values_free(&v);
    dbg_expr_free(x);
    return CMD_STAY;
}

static cmd_result cmd_ptype(debug *g, const char *arg)
{
    dbg_expr *x;
    dbg_values v;
    if (dbg_eval_arg(g, arg, "ptype wants an expression.", &x, &v))
        for (int i = 0; i < v.n; i++) {
            char ty[96];
            if (v.v[i].kind == SPEC_DBG_TILE) {
                ir_type_str(&v.v[i].tile.type, ty, sizeof ty);
                printf("type = %s\n", ty);
            } else if (v.v[i].kind == SPEC_DBG_CONST) {
                printf("type = constexpr %s\n", spec_const_kind_name(&v.v[i].c));
            } else {
                printf("type = %s\n", v.v[i].what ? v.v[i].what : "?");
            }
        }
    dbg_values_free(&v);
    dbg_expr_free(x);
    return CMD_STAY;
}

static cmd_result cmd_display(debug *g, const char *arg)
{
    bool hex;
    if (!dbg_format(&arg, &hex))
        return CMD_STAY;
    arg = dbg_skip(arg);
    if (!*arg) {
        dbg_show_displays(g);
        return CMD_STAY;
    }
    dbg_expr *x = dbg_expr_new(arg, stdout);
    if (!x)
        return CMD_STAY;
    if (g->ndisps == g->capdisps) {
        g->capdisps = g->capdisps ? 2 * g->capdisps : 8;
        g->disps = xrealloc(g->disps, (size_t)g->capdisps * sizeof *g->disps);
    }
    dbg_display *d = &g->disps[g->ndisps++];
    d->num = g->next_disp++;
    d->expr = x;
    d->hex = hex;
    if (g->cur && g->cur->focus)     /* show it now, or why it cannot be */
        dbg_show_display(g, d, false);
    return CMD_STAY;
}

static cmd_result cmd_undisplay(debug *g, const char *arg)
{
    arg = dbg_skip(arg);
    if (!*arg) {
        for (int i = 0; i < g->ndisps; i++)
            dbg_expr_free(g->disps[i].expr);
        g->ndisps = 0;
        return CMD_STAY;
    }
    long n;
    if (!dbg_int(arg, "undisplay", &n))
        return CMD_STAY;
    for (int i = 0; i < g->ndisps; i++)
        if (g->disps[i].num == n) {
            dbg_expr_free(g->disps[i].expr);
            memmove(&g->disps[i], &g->disps[i + 1],
                    (size_t)(g->ndisps - i - 1) * sizeof *g->disps);
            g->ndisps--;
            return CMD_STAY;
        }
    printf("No display number %ld.\n", n);
    return CMD_STAY;
}

static cmd_result cmd_program(debug *g, const char *arg)
{
    if (!dbg_stopped(g))
        return CMD_STAY;
    const dbg_launch *D = g->cur;
    int64_t c[3] = {0, 0, 0};
    int n = 0;
    const char *p = dbg_skip(arg);
    while (*p && n < 4) {
        if (*p == '(' || *p == ')' || *p == ',') {
            p = dbg_skip(p + 1);
            continue;
        }
        char *end;
        long long v = strtoll(p, &end, 10);
        if (end == p || n == 3) {
            printf("program wants up to three program ids, e.g. `program 1 0`.\n");
            return CMD_STAY;
        }
        c[n++] = v;
        p = dbg_skip(end);
    }
    if (!n) {
        char cs[80];
        dbg_coord_str(D, exec_prog_pid(D->focus), cs, sizeof cs);
        printf("Stopped in program %s (`info programs` lists them all).\n", cs);
        return CMD_STAY;
    }
    const int64_t *gr = D->L->grid;
    for (int i = 0; i < 3; i++)
        if (c[i] < 0 || c[i] >= gr[i]) {
            printf("There is no program (%" PRId64 ", %" PRId64 ", %" PRId64 "): the grid is "
                   "(%" PRId64 ", %" PRId64 ", %" PRId64 ").\n", c[0], c[1], c[2], gr[0], gr[1],
                   gr[2]);
            return CMD_STAY;
        }
    dbg_switch_program(g, c[0] + c[1] * gr[0] + c[2] * gr[0] * gr[1]);
    return CMD_STAY;
}

static cmd_result cmd_backtrace(debug *g, const char *arg)
{
    (void)arg;
    if (!dbg_stopped(g))
        return CMD_STAY;
    int32_t frames[64];
    int lines[64];
    int n = dbg_frames(g, frames, lines, 64);
    char c[80];
    dbg_coord_str(g->cur, exec_prog_pid(g->cur->focus), c, sizeof c);
    printf("program %s:\n", c);
    for (int i = 0; i < n; i++)
        dbg_show_frame(g, i == g->cur->frame_sel ? "*" : " ", i, frames[i], lines[i]);
    return CMD_STAY;
}

static void dbg_select_frame(debug *g, long n)
{
    int32_t frames[64];
    int lines[64];
    int count = dbg_frames(g, frames, lines, 64);
    if (n < 0 || n >= count) {
        printf("No frame %ld (frames 0 to %d; see `backtrace`).\n", n, count - 1);
        return;
    }
    g->cur->frame_sel = (int)n;
    dbg_show_frame(g, "*", (int)n, frames[n], lines[n]);
    dbg_print_line(dbg_frame_file(g->cur, frames[n]), lines[n]);
    g->list_line = lines[n];
}

static cmd_result cmd_frame(debug *g, const char *arg)
{
    if (!dbg_stopped(g))
        return CMD_STAY;
    long n = g->cur->frame_sel;
    if (*dbg_skip(arg) && !dbg_int(arg, "frame", &n))
        return CMD_STAY;
    dbg_select_frame(g, n);
    return CMD_STAY;
}

static cmd_result cmd_up(debug *g, const char *arg)
{
    (void)arg;
    if (!dbg_stopped(g))
        return CMD_STAY;
    int32_t frames[64];
    int lines[64];
    if (g->cur->frame_sel + 1 >= dbg_frames(g, frames, lines, 64))
        printf("Initial frame selected (the kernel); you cannot go up.\n");
    else
        dbg_select_frame(g, g->cur->frame_sel + 1);
    return CMD_STAY;
}

static cmd_result cmd_down(debug *g, const char *arg)
{
    (void)arg;
    if (!dbg_stopped(g))
        return CMD_STAY;
    if (g->cur->frame_sel == 0)
        printf("Bottom (innermost) frame selected; you cannot go down.\n");
    else
        dbg_select_frame(g, g->cur->frame_sel - 1);
    return CMD_STAY;
}

static cmd_result cmd_list(debug *g, const char *arg)
{
    const src_file *f = g->o.file;
    if (g->cur && g->cur->focus) {
        int32_t frames[64];
        int lines[64];
        int n = dbg_frames(g, frames, lines, 64);
        if (n > g->cur->frame_sel)
            f = dbg_frame_file(g->cur, frames[g->cur->frame_sel]);
    }
    if (!f)
        return CMD_STAY;
    long center = g->list_line ? g->list_line : 6;
    int first;
    if (*dbg_skip(arg)) {
        const ast_node *def = NULL;       /* list FUNCTION */
        if (g->o.module)
            def = dbg_each_jit(g->o.module, dbg_def_named, (void *)dbg_skip(arg));
        char *end;
        if (def) {
            center = def->span.line;
        } else {
            center = strtol(dbg_skip(arg), &end, 10);
            if (end == dbg_skip(arg) || *dbg_skip(end)) {
                printf("list wants a line number or a @triton.jit function, not '%s'.\n",
                       dbg_skip(arg));
                return CMD_STAY;
            }
        }
        if (center > f->nlines) {
            printf("Line %ld is past the end of %s (%d lines).\n", center, f->name, f->nlines);
            return CMD_STAY;
        }
        first = center < 6 ? 1 : (int)center - 5;
    } else if (g->list_line < 0) {
        first = -g->list_line;           /* go on after the last listing */
    } else {
        first = (int)center - 5;
    }
    if (first < 1)
        first = 1;
    if (first > f->nlines) {
        printf("Line %d is past the end of %s (%d lines).\n", first, f->name, f->nlines);
        return CMD_STAY;
    }
    int last = first + 9 < f->nlines ? first + 9 : f->nlines;
    for (int l = first; l <= last; l++)
        dbg_print_line(f, l);
    g->list_line = -(last + 1);
    return CMD_STAY;
}

static cmd_result cmd_tensor(debug *g, const char *arg)
{
    arg = dbg_skip(arg);
    if (!*arg) {
        printf("tensor wants a host expression, e.g. `tensor y` or `tensor y[0:8]`.\n");
        return CMD_STAY;
    }
    if (!g->cur) {
        printf("Host tensors can be shown while a launch is stopped.\n");
        return CMD_STAY;
    }
    if (!g->cur->h) {
        printf("The host program is your own Python: print its tensors there (tensor shows "
               "tritsim run's host values).\n");
        return CMD_STAY;
    }
    dbg_expr *x = dbg_expr_new(arg, stdout);
    if (!x)
        return CMD_STAY;
    fflush(stdout);
    host *h = g->cur->h;
    diag_sink *saved = h->diag;
    diag_sink d;
    diag_sink_init(&d, stdout);
    h->diag = &d;
    val v = host_eval_in(h, x->file, x->e);
    h->diag = saved;
    if (v.kind != VAL_ERR) {
        val r = host_repr(h, v);
        if (r.kind == VAL_STR)
            printf("%s\n", val_as_str(r)->s);
        val_unref(r);
    }
    val_unref(v);
    dbg_expr_free(x);
    return CMD_STAY;
}

static cmd_result cmd_help(debug *g, const char *arg);

typedef struct dbg_cmd {
    const char *name, *alias;
    cmd_result (*fn)(debug *g, const char *arg);
    const char *help;
    bool repeats;            /* an empty line repeats it */
} dbg_cmd;

static const dbg_cmd dbg_cmds[] = {
    {"break", "b", cmd_break,
     "break WHERE [if COND]       stop before WHERE: LINE, FILE:LINE or FUNCTION (if COND)", false},
    {"tbreak", NULL, cmd_tbreak,
     "tbreak WHERE [if COND]      the same, deleted after one stop", false},
    {"watch", NULL, cmd_watch, "watch EXPR                  stop when EXPR's value changes", false},
    {"condition", NULL, cmd_condition,
     "condition N [COND]          set breakpoint N's condition (none: remove it)", false},
    {"delete", "d", cmd_delete, "delete [N...]               delete breakpoints (all without N)", false},
    {"disable", NULL, cmd_disable, "disable [N...]              disable breakpoints", false},
    {"enable", NULL, cmd_enable, "enable [N...]               enable breakpoints", false},
    {"info", "i", cmd_info,
     "info breakpoints|watchpoints|locals|args|programs|display|frame", false},
    {"args", "a", cmd_args, "args                        the same as info args (pdb)", false},
    {"run", "r", cmd_run,
     "run [ARGS]                  run the program (sys.argv[1:] = ARGS, or the last ARGS)", false},
    {"continue", "c", cmd_continue, "continue                    run to the next stop", true},
    {"step", "s", cmd_step, "step                        the next statement, into helpers", true},
    {"next", "n", cmd_next, "next                        the next statement here, over helpers", true},
    {"finish", NULL, cmd_finish, "finish                      run until this helper returns", false},
    {"until", "u", cmd_until, "until [LINE]                run to LINE (or past this line's loop)", true},
    {"kill", "k", cmd_kill, "kill                        stop the program being run", false},
    {"quit", "q", cmd_quit, "quit                        leave tritsim", false},
    {"exit", NULL, cmd_quit, "exit                        the same as quit (pdb)", false},
    {"print", "p", cmd_print, "print[/x|/d] EXPR           a kernel expression's value", false},
    {"pp", NULL, cmd_print, "pp EXPR                     the same as print (pdb)", false},
    {"display", NULL, cmd_display, "display[/x] EXPR            print EXPR at every stop", false},
    {"undisplay", NULL, cmd_undisplay, "undisplay [N]               remove displays", false},
    {"ptype", NULL, cmd_ptype, "ptype EXPR                  the type of EXPR", false},
    {"whatis", NULL, cmd_ptype, "whatis EXPR                 the same as ptype", false},
    {"program", NULL, cmd_program, "program X [Y Z]             switch to another program of the launch", false},
    {"backtrace", "bt", cmd_backtrace, "backtrace                   the helper calls the program is in", false},
    {"where", "w", cmd_backtrace, "where                       the same as backtrace", false},
    {"frame", "f", cmd_frame, "frame [N]                   select a frame of the backtrace", false},
    {"up", NULL, cmd_up, "up                          the caller's frame", false},
    {"down", NULL, cmd_down, "down                        the callee's frame", false},
    {"list", "l", cmd_list, "list [LINE|FUNCTION]        source lines around LINE", true},
    {"tensor", NULL, cmd_tensor, "tensor EXPR                 a host tensor's contents, e.g. tensor y[:8]", false},
    {"help", "h", cmd_help, "help [COMMAND]              this list, or what COMMAND does", false},
};

static const dbg_cmd *dbg_find(const char *word, size_t len);

static cmd_result cmd_help(debug *g, const char *arg)
{
    (void)g;
    arg = dbg_skip(arg);
    size_t len = strcspn(arg, " \t");
    if (len) {                /* help CMD */
        const dbg_cmd *c = dbg_find(arg, len);
        if (c)
            printf("%s%s%s\n", c->help, c->alias ? "\nAbbreviation: " : "",
                   c->alias ? c->alias : "");
        else
            printf("No command '%.*s'; `help` lists the commands.\n", (int)len, arg);
        return CMD_STAY;
    }
    printf("Commands (gdb's names; an empty line repeats step, next, until, continue, "
           "list):\n");
    for (size_t i = 0; i < sizeof dbg_cmds / sizeof *dbg_cmds; i++)
        printf("  %s\n", dbg_cmds[i].help);
    printf("Expressions are kernel expressions in the stopped program: its variables, "
           "constexprs,\ntl.* and `pid`, the program id tuple, e.g. `break 14 if pid == (1, 0)`.\n");
    return CMD_STAY;
}

static const dbg_cmd *dbg_find(const char *word, size_t len)
{
    const dbg_cmd *prefix = NULL;
    int nprefix = 0;
    for (size_t i = 0; i < sizeof dbg_cmds / sizeof *dbg_cmds; i++) {
        const dbg_cmd *c = &dbg_cmds[i];
        if ((strlen(c->name) == len && !strncmp(c->name, word, len)) ||
            (c->alias && strlen(c->alias) == len && !strncmp(c->alias, word, len)))
            return c;
        if (!strncmp(c->name, word, len)) {
            prefix = c;
            nprefix++;
        }
    }
    return nprefix == 1 ? prefix : NULL;
}

/* The full name of the command word names (NULL: none), for completion. */
static const char *dbg_cmd_name(const char *word, size_t len)
{
    const dbg_cmd *c = len ? dbg_find(word, len) : NULL;
    return c ? c->name : NULL;
}

/* Run one command line. */
/* The command a line names: its first word (up to a space or a '/') in
 * *word, *len bytes; NULL when no command has that name. */
static const dbg_cmd *dbg_command_of(const char *line, const char **word, size_t *len)
{
    const char *p = dbg_skip(line);
    size_t n = 0;
    while (p[n] && !isspace((unsigned char)p[n]) && p[n] != '/')
        n++;
    *word = p;
    *len = n;
    return dbg_find(p, n);
}

static cmd_result dbg_command(debug *g, const char *line)
{
    const char *p;
    size_t len;
    const dbg_cmd *c = dbg_command_of(line, &p, &len);
    if (!*p || *p == '#')
        return CMD_STAY;
    if (!c) {
        int n = 0;            /* a prefix of several: name them, as gdb does */
        for (size_t i = 0; i < sizeof dbg_cmds / sizeof *dbg_cmds; i++)
            if (!strncmp(dbg_cmds[i].name, p, len))
                printf("%s%s", n++ ? ", " : "Ambiguous command: ", dbg_cmds[i].name);
        if (n)
            printf(".\n");
        else
            printf("Unknown command '%.*s'; `help` lists the commands.\n", (int)len, p);
        return CMD_STAY;
    }
    const char *arg = p + len;
    if (*arg != '/')
        arg = dbg_skip(arg);
    if (*arg == '/' && c->fn != cmd_print && c->fn != cmd_display) {
        printf("'%s' takes no /format.\n", c->name);
        return CMD_STAY;
    }
    return c->fn(g, arg);
}

void dbg_repl(debug *g)
{
    for (;;) {
        char *line = dbg_read(g);
        if (!line) {          /* end of input: as `quit` */
            if (!g->o.tty)
                printf("(end of input: quit)\n");
            else
                printf("quit\n");
            cmd_quit(g, "");
            return;
        }
        size_t n = strlen(line);  /* commands never see trailing blanks (Tab adds one) */
        while (n && isspace((unsigned char)line[n - 1]))
            line[--n] = 0;
        const char *cmd = line;
        if (!*dbg_skip(line) && g->last_cmd)
            cmd = g->last_cmd;
        else if (*dbg_skip(line)) {
            free(g->last_cmd);
            g->last_cmd = NULL;
            const char *p;
            size_t len;
            const dbg_cmd *c = dbg_command_of(line, &p, &len);
            if (c && c->repeats)      /* `list 20`, then Enter: the lines after those */
                g->last_cmd = xstrdup(c->fn == cmd_list ? "list" : line);
        }
        cmd_result r = dbg_command(g, cmd);
        free(line);
        fflush(stdout);
        if (r == CMD_RESUME || g->quit)    /* quit inside `run`: the program has unwound */
            return;
    }
}

int debug_main(debug *g, int argc, char **argv)
{
    g->argc = argc;
    g->argv = argv;
    g->session = true;
    printf("tritsim debugger: `break LINE [if COND]`, then `run`; `help` lists the "
           "commands.\n");
    while (!g->quit)
        dbg_repl(g);
    return 0;
}
