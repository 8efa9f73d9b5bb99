/* debug.c - the debugger's engine (debug.h): it takes over a launch from
 * the launcher, runs its programs in program-id order an instruction at a
 * time, decides where to stop (breakpoints, watchpoints, steps, a
 * breakpoint() in the kernel, Ctrl-C, a failing program), and evaluates
 * the user's expressions in the stopped program (the specializer compiles
 * them in the statement's scope: spec_dbg_eval; the executor runs them on
 * a copy of the program's registers: exec_prog_eval).
 *
 * Where a program can stop: before the first instruction of a statement
 * (ir_kernel.stmts), before a breakpoint() instruction, and anywhere on
 * Ctrl-C.  Before a program starts, the debugger decides whether anything
 * could stop it (dbg_pool_end: a breakpoint on a line of this kernel whose
 * condition may hold in it, a watchpoint, a breakpoint() for it, a step);
 * the programs that cannot go to the thread pool at full speed, in runs of
 * consecutive ids, so the output keeps program order. */
#define _POSIX_C_SOURCE 200809L
#include "debug.h"

#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_backend.h"
#include "debug_impl.h"
#include "parse.h"

volatile sig_atomic_t dbg_interrupted;
volatile sig_atomic_t dbg_catching;

/* ======================================================================
 * Expressions.
 * ====================================================================== */

static bool dbg_names_pid(const ast_node *e, void *ctx)
{
    (void)ctx;
    return e->kind == AST_NAME && !strcmp(e->u.name.id, "pid");
}

dbg_expr *dbg_expr_new(const char *text, FILE *out)
{
    char quote = 0;          /* gdb's $1, $2: say what instead of a lexer error */
    for (const char *p = text; *p; p++) {
        if (quote && *p == '\\' && p[1])
            p++;
        else if (quote && *p == quote)
            quote = 0;
        else if (!quote && (*p == '\'' || *p == '"'))
            quote = *p;
        else if (!quote && *p == '$') {
            fprintf(out, "'%s': the debugger keeps no value history ($1, $2, ...); write the "
                    "expression again.\n", text);
            return NULL;
        }
    }
    static uint64_t next_id;
    dbg_expr *x = xcalloc(1, sizeof *x);
    x->id = ++next_id;
    x->text = xstrdup(text);
    x->file = src_from_string("<expr>", text, strlen(text));
    arena_init(&x->a);
    diag_sink d;
    diag_sink_init(&d, out);
    x->e = parse_expr(x->file, &d, &x->a);
    if (!x->e || d.nerrors) {
        dbg_expr_free(x);
        return NULL;
    }
    x->uses_pid = ast_any(x->e, dbg_names_pid, NULL);
    return x;
}

void dbg_expr_free(dbg_expr *x)
{
    if (!x)
        return;
    free(x->text);
    src_free(x->file);
    arena_free(&x->a);
    free(x);
}

int dbg_frame_depth(const ir_kernel *k, int32_t frame)
{
    int d = 0;
    while (frame >= 0 && frame < k->nframes && k->frames[frame].parent >= 0) {
        frame = k->frames[frame].parent;
        d++;
    }
    return d;
}

int32_t dbg_stmt_at(const dbg_launch *D, int32_t pc)
{
    const ir_kernel *k = D->k;
    if (k->nstmts == 0)
        return -1;
    if (pc >= k->ncode)
        return k->nstmts - 1;
    if (D->last_stmt[pc] >= 0)
        return D->last_stmt[pc];
    return k->inst_stmt ? k->inst_stmt[pc] : -1;
}

int32_t dbg_prog_stmt(const dbg_launch *D, const exec_prog *P, int32_t stmt)
{
    int32_t pc = exec_prog_pc(P);
    if (stmt >= 0 && stmt < D->k->nstmts && D->k->stmts[stmt].pc == pc)
        return stmt;
    return dbg_stmt_at(D, pc);
}

int32_t dbg_cur_stmt(const debug *g)
{
    const dbg_launch *D = g->cur;
    if (!D || !D->focus)
        return -1;
    int32_t s = dbg_prog_stmt(D, D->focus, D->focus_stmt);
    if (s < 0 || D->frame_sel == 0)
        return s;
    /* frame N: the latest statement of that caller before pc (the one
     * making the call). */
    const ir_kernel *k = D->k;
    int32_t f = k->stmts[s].frame;
    for (int i = 0; i < D->frame_sel && f >= 0; i++)
        f = k->frames[f].parent;
    for (int32_t i = s; i >= 0; i--)
        if (k->stmts[i].frame == f)
            return i;
    return s;
}

/* Which slot a masked load wrote, and with which mask: lanes where the mask
 * is 0 hold `other`, not memory, and print as "--". */
int32_t dbg_load_mask(const ir_kernel *k, int32_t slot)
{
    int32_t mask = -1;
    for (int32_t pc = 0; pc < k->ncode; pc++) {
        const ir_inst *in = &k->code[pc];
        if (in->dst != slot)
            continue;
        if (in->op != IR_LOAD || in->b < 0 || (mask >= 0 && mask != in->b))
            return -1;
        mask = in->b;
    }
    return mask;
}

static bool dbg_is_pid(const ast_node *e)
{
    return e->kind == AST_NAME && !strcmp(e->u.name.id, "pid");
}

static bool dbg_is_number(const ast_node *e)
{
    if (e->kind == AST_UNARYOP &&
        (e->u.unaryop.op == AST_OP_USUB || e->u.unaryop.op == AST_OP_UADD))
        e = e->u.unaryop.operand;
    return e->kind == AST_INT || e->kind == AST_FLOAT;
}

bool dbg_pid_compare_ok(const ast_node *e, const src_file *f, int rank, diag_sink *d)
{
    if (!e)
        return true;
    const ast_node *kids[3] = {NULL, NULL, NULL};
    const ast_list *list = NULL;
    switch (e->kind) {
    case AST_COMPARE: {
        const ast_list *cs = &e->u.compare.comparators;
        for (int i = 0; i < cs->len; i++) {
            const ast_node *a = i ? cs->items[i - 1] : e->u.compare.left, *b = cs->items[i];
            ast_op op = e->u.compare.ops[i];
            if (op != AST_OP_EQ && op != AST_OP_NE && op != AST_OP_LT && op != AST_OP_LE &&
                op != AST_OP_GT && op != AST_OP_GE)
                continue;
            const ast_node *other = dbg_is_pid(a) ? b : dbg_is_pid(b) ? a : NULL;
            if (!other)
                continue;
            src_span sp = a->span;
            sp.end_line = b->span.end_line;
            sp.end_col = b->span.end_col;
            sp.end_off = b->span.end_off;
            int n = (int)(other->span.end_off - other->span.off);
            const char *text = f->text + other->span.off;
            if (dbg_is_number(other)) {
                if (other == b)
                    diag_report(d, DIAG_ERROR, f, sp, "pid is a tuple (the program id, an entry "
                                "per grid axis), not a number; compare an entry, e.g. "
                                "pid[0] %s %.*s", ast_op_name(op), n, text);
                else
                    diag_report(d, DIAG_ERROR, f, sp, "pid is a tuple (the program id, an entry "
                                "per grid axis), not a number; compare an entry, e.g. "
                                "%.*s %s pid[0]", n, text, ast_op_name(op));
                return false;
            }
            if (rank > 0 && other->kind == AST_TUPLE && (op == AST_OP_EQ || op == AST_OP_NE) &&
                other->u.seq.elts.len != rank) {
                diag_report(d, DIAG_ERROR, f, sp, "pid has %d entr%s (the grid is %d-d) but "
                            "%.*s has %d, so they are never equal; compare with a tuple of %d",
                            rank, rank == 1 ? "y" : "ies", rank, n, text,
                            other->u.seq.elts.len, rank);
                return false;
            }
        }
        kids[0] = e->u.compare.left;
        list = cs;
        break;
    }
    case AST_BINOP: kids[0] = e->u.binop.left; kids[1] = e->u.binop.right; break;
    case AST_UNARYOP: kids[0] = e->u.unaryop.operand; break;
    case AST_BOOLOP: list = &e->u.boolop.values; break;
    case AST_NAMEDEXPR: kids[0] = e->u.namedexpr.value; break;
    case AST_IFEXP:
        kids[0] = e->u.ifexp.test; kids[1] = e->u.ifexp.body; kids[2] = e->u.ifexp.orelse;
        break;
    case AST_CALL: kids[0] = e->u.call.func; list = &e->u.call.args; break;
    case AST_SUBSCRIPT: kids[0] = e->u.subscript.value; kids[1] = e->u.subscript.index; break;
    case AST_TUPLE: case AST_LIST: case AST_SET: list = &e->u.seq.elts; break;
    default: break;
    }
    for (int i = 0; i < 3; i++)
        if (!dbg_pid_compare_ok(kids[i], f, rank, d))
            return false;
    for (int i = 0; list && i < list->len; i++)
        if (!dbg_pid_compare_ok(list->items[i], f, rank, d))
            return false;
    if (e->kind == AST_CALL)
        for (int i = 0; i < e->u.call.keywords.len; i++)
            if (!dbg_pid_compare_ok(e->u.call.keywords.items[i]->u.keyword.value, f, rank, d))
                return false;
    return true;
}

bool dbg_eval(debug *g, dbg_expr *x, bool quiet, dbg_values *out)
{
    dbg_launch *D = g->cur;
    memset(out, 0, sizeof *out);
    arena_init(&out->a);
    if (!D || !D->focus) {
        if (!quiet)
            printf("No program is stopped; expressions are evaluated in a stopped kernel "
                   "program (use `break` and `run`).\n");
        return false;
    }
    int32_t stmt = dbg_cur_stmt(g);
    if (stmt < 0) {
        if (!quiet)
            printf("The kernel has no statement to evaluate in.\n");
        return false;
    }
    /* quiet: errors (a name not bound yet at this statement) go nowhere */
    FILE *null = quiet ? fopen("/dev/null", "w") : NULL;
    diag_sink d;
    diag_sink_init(&d, null ? null : stdout);
    spec_dbg_result r;
    const int64_t *coord = exec_prog_coord(D->focus);
    bool ok = dbg_pid_compare_ok(x->e, x->file, D->L->rank, &d) &&
              spec_dbg_eval(D->k, stmt, x->file, x->e, coord, D->L->rank, &d, &out->a, &r);
    if (ok) {
        /* The tiles asked for, then the masks of those a masked load of the
         * expression wrote (`print tl.load(p, mask=m)`), which exist only
         * in the expression's registers.  A kernel variable's mask is read
         * from the program's. */
        int32_t *slots = xcalloc(2 * (size_t)r.n + 1, sizeof *slots);
        int32_t *mask_of = xcalloc((size_t)r.n + 1, sizeof *mask_of);
        int nt = 0;
        for (int i = 0; i < r.n; i++)
            if (r.items[i].kind == SPEC_DBG_TILE)
                slots[nt++] = r.items[i].slot;
        int nall = nt;
        for (int i = 0; i < r.n; i++) {
            mask_of[i] = -1;
            int32_t s = r.items[i].slot;
            if (r.items[i].kind == SPEC_DBG_TILE && s >= D->k->nslots) {
                int32_t m = dbg_load_mask(r.k, s);
                if (m >= 0) {
                    mask_of[i] = nall;
                    slots[nall++] = m;
                }
            }
        }
        exec_tile *tiles = xcalloc((size_t)nall + 1, sizeof *tiles);
        fflush(stdout);
        ok = exec_prog_eval(D->focus, r.k, slots, nall, tiles);
        out->v = xcalloc((size_t)r.n + 1, sizeof *out->v);
        out->n = ok ? r.n : 0;
        for (int i = 0, t = 0; ok && i < r.n; i++) {
            dbg_value *v = &out->v[i];
            v->kind = r.items[i].kind;
            v->c = r.items[i].c;
            v->what = r.items[i].what;
            if (v->kind != SPEC_DBG_TILE)
                continue;
            v->tile = tiles[t++];
            int32_t s = r.items[i].slot;
            int32_t m = s < D->k->nslots ? dbg_load_mask(D->k, s) : -1;
            bool have = false;
            if (mask_of[i] >= 0) {
                v->mask = tiles[mask_of[i]];
                tiles[mask_of[i]].data = NULL;
                have = true;
            } else if (m >= 0) {
                have = exec_prog_read(D->focus, m, &v->mask);
            }
            v->has_mask = have && (v->mask.numel == v->tile.numel || v->mask.numel == 1);
            if (have && !v->has_mask)
                exec_tile_free(&v->mask);
        }
        if (!ok)
            for (int i = 0; i < nall; i++)
                exec_tile_free(&tiles[i]);
        free(tiles);
        free(mask_of);
        free(slots);
    }
    if (null)
        fclose(null);
    return ok;
}

void dbg_values_free(dbg_values *v)
{
    for (int i = 0; i < v->n; i++) {
        exec_tile_free(&v->v[i].tile);
        if (v->v[i].has_mask)
            exec_tile_free(&v->v[i].mask);
    }
    free(v->v);
    arena_free(&v->a);
    memset(v, 0, sizeof *v);
}

/* ======================================================================
 * Showing where a program is.
 * ====================================================================== */

void dbg_coord_str(const dbg_launch *D, int64_t pid, char *buf, size_t len)
{
    int64_t c[3];
    exec_sess_coord(D->S, pid, c);
    snprintf(buf, len, "(%" PRId64 ", %" PRId64 ", %" PRId64 ")", c[0], c[1], c[2]);
}

const src_file *dbg_frame_file(const dbg_launch *D, int32_t frame)
{
    if (frame >= 0 && frame < D->k->nframes && D->k->frames[frame].file)
        return D->k->frames[frame].file;
    return D->L->file;
}

void dbg_print_line(const src_file *f, int line)
{
    size_t len;
    const char *text = f ? src_line(f, line, &len) : NULL;
    if (text)
        printf("%d\t%.*s\n", line, (int)len, text);
    else
        printf("%d\t<no source>\n", line);
}

void dbg_show_where(debug *g, bool always)
{
    dbg_launch *D = g->cur;
    if (!D || !D->focus)
        return;
    int32_t s = dbg_prog_stmt(D, D->focus, D->focus_stmt);
    if (s < 0)
        return;
    const ir_stmt *st = &D->k->stmts[s];
    const src_file *f = dbg_frame_file(D, st->frame);
    int64_t pid = exec_prog_pid(D->focus);
    if (always || pid != g->last_pid || st->frame != g->last_frame) {
        char c[80];
        dbg_coord_str(D, pid, c, sizeof c);
        const char *fn = st->frame >= 0 && st->frame < D->k->nframes
                         ? D->k->frames[st->frame].func : D->k->name;
        printf("program %s, %s() at %s:%d\n", c, fn, f ? f->name : "?", st->at->span.line);
    }
    dbg_print_line(f, st->at->span.line);
    g->last_pid = pid;
    g->last_frame = st->frame;
    g->list_line = st->at->span.line;
}

void dbg_show_display(debug *g, const dbg_display *ds, bool quiet)
{
    dbg_values v;
    if (dbg_eval(g, ds->expr, quiet, &v)) {
        strbuf sb = {0};
        char name[320];
        snprintf(name, sizeof name, "%d: %s", ds->num, ds->expr->text);
        for (int j = 0; j < v.n; j++)
            dbg_print_value(g, name, &v.v[j], ds->hex, &sb);
        fputs(strbuf_cstr(&sb), stdout);
        strbuf_free(&sb);
    }
    dbg_values_free(&v);
}

void dbg_show_displays(debug *g)
{
    for (int i = 0; i < g->ndisps; i++)
        dbg_show_display(g, &g->disps[i], true);
}

/* ======================================================================
 * Deciding where to stop.
 * ====================================================================== */

bool dbg_file_matches(const char *want, const src_file *f)
{
    if (!want)
        return true;
    if (!f)
        return false;
    if (!strcmp(want, f->name))
        return true;
    const char *base = strrchr(f->name, '/');
    return base && !strcmp(want, base + 1);
}

/* Python's truth of a constant. */
static int dbg_const_truth(const spec_const *c)
{
    switch (c->kind) {
    case SC_NONE: return 0;
    case SC_BOOL: return c->u.b;
    case SC_INT: return c->u.i != 0;
    case SC_FLOAT: return c->u.f != 0;
    case SC_STR: return c->u.str.len != 0;
    case SC_TUPLE: return c->u.tuple.n != 0;
    default: return 1;
    }
}

/* Is v true (every lane, for a tile)?  -1 when it is not a value. */
static int dbg_truth(const dbg_values *v)
{
    if (v->n != 1)
        return -1;
    const dbg_value *x = &v->v[0];
    if (x->kind == SPEC_DBG_CONST)
        return dbg_const_truth(&x->c);
    if (x->kind != SPEC_DBG_TILE)
        return -1;
    bool fl = !dtype_is_ptr(x->tile.type.dt) && dtype_is_float(x->tile.type.dt);
    for (int64_t i = 0; i < x->tile.numel; i++) {
        dtype_scalar s = exec_tile_get(&x->tile, i);
        if (fl ? s.f == 0 : s.u == 0)
            return 0;
    }
    return 1;
}

/* A breakpoint's condition at this stop: 1 stop, 0 not; an error stops
 * (so the user sees it), after printing it. */
static int dbg_cond_holds(debug *g, dbg_bp *b)
{
    if (!b->expr)
        return 1;
    dbg_values v;
    if (!dbg_eval(g, b->expr, false, &v)) {
        printf("Error in the condition of breakpoint %d; stopping.\n", b->num);
        dbg_values_free(&v);
        return 1;
    }
    int t = dbg_truth(&v);
    dbg_values_free(&v);
    if (t < 0) {
        printf("The condition of breakpoint %d is not a value; stopping.\n", b->num);
        return 1;
    }
    return t;
}

static bool dbg_tiles_equal(const exec_tile *a, const exec_tile *b)
{
    if (a->numel != b->numel || a->data_type != b->data_type ||
        a->type.ndim != b->type.ndim)
        return false;
    for (int64_t i = 0; i < a->numel; i++)
        if (exec_tile_get(a, i).u != exec_tile_get(b, i).u)
            return false;
    return true;
}

/* A watchpoint at the focus's statement: stop when its value differs from
 * the one last seen in this program (just remember it when report is
 * false).  It is looked at only in the frame it watches. */
bool dbg_watch_hit(debug *g, dbg_bp *b, bool report)
{
    const dbg_launch *D = g->cur;
    int32_t s = dbg_cur_stmt(g);
    if (s < 0)
        return false;
    int32_t frame = D->k->stmts[s].frame;
    if (b->frame >= 0 && b->frame != frame)
        return false;
    dbg_values v;
    int64_t pid = exec_prog_pid(D->focus);
    if (!dbg_eval(g, b->expr, true, &v) || v.n != 1 || v.v[0].kind == SPEC_DBG_OTHER) {
        if (!(b->have_old && b->old_pid == pid)) {
            b->absent = true;       /* nothing to compare with in this program yet */
            b->absent_pid = pid;
        }
        dbg_values_free(&v);
        return false;
    }
    b->frame = frame;
    exec_tile now = {0};      /* a constant never changes: no data, no hit */
    if (v.v[0].kind == SPEC_DBG_TILE) {
        now = v.v[0].tile;
        v.v[0].tile.data = NULL;
    }
    bool hit = false;
    bool first = b->absent && b->absent_pid == pid && !(b->have_old && b->old_pid == pid);
    if (report && now.data &&
        (first || (b->have_old && b->old_pid == pid && !dbg_tiles_equal(&b->old, &now)))) {
        hit = true;
        b->hits++;
        printf("\nWatchpoint %d: %s\n", b->num, b->expr->text);
        strbuf sb = {0};
        dbg_value ov = {.kind = SPEC_DBG_TILE, .tile = b->old};
        dbg_value nv = {.kind = SPEC_DBG_TILE, .tile = now};
        if (first)
            strbuf_puts(&sb, "Old value = (none: it had no value yet)\n");
        else
            dbg_print_value(g, "Old value", &ov, false, &sb);
        dbg_print_value(g, "New value", &nv, false, &sb);
        fputs(strbuf_cstr(&sb), stdout);
        strbuf_free(&sb);
    }
    b->absent = false;
    exec_tile_free(&b->old);
    b->old = now;
    b->have_old = now.data != NULL;
    b->old_pid = pid;
    dbg_values_free(&v);
    return hit;
}

typedef enum dbg_why {
    WHY_NONE, WHY_BREAK, WHY_WATCH, WHY_STEP, WHY_KERNEL_BREAK, WHY_INTERRUPT,
} dbg_why;

/* A breakpoint() (or a breakpoint_if whose condition holds) in the kernel
 * at pc, for the focus? */
static bool dbg_kernel_break(debug *g, dbg_launch *D, int32_t pc)
{
    const ir_kernel *k = D->k;
    exec_prog *P = D->focus;
    if (pc >= k->ncode || k->code[pc].op != IR_BREAKPOINT || g->o.no_break)
        return false;
    const ir_print *cond = ir_inst_print(k, &k->code[pc]);
    if (cond && !ir_print_pid_passes(cond, exec_prog_coord(P)))
        return false;
    char c[80];
    dbg_coord_str(D, exec_prog_pid(P), c, sizeof c);
    printf("\nProgram %s reached a breakpoint in the kernel.\n", c);
    return true;
}

/* Should the focus stop at statement s, where it stands (D->focus_stmt)?
 * Every watchpoint is looked at, so that each reports its own change and
 * remembers the value; then the breakpoints; then the step under way. */
static dbg_why dbg_stmt_stop(debug *g, dbg_launch *D, int32_t s)
{
    const ir_kernel *k = D->k;
    const ir_stmt *st = &k->stmts[s];
    int depth = dbg_frame_depth(k, st->frame), line = st->at->span.line;
    dbg_why why = WHY_NONE;
    for (int i = 0; i < g->nbps; i++)
        if (g->bps[i].enabled && g->bps[i].kind == DBG_WATCH && dbg_watch_hit(g, &g->bps[i], true))
            why = WHY_WATCH;
    for (int i = 0; i < g->nbps; i++) {
        dbg_bp *b = &g->bps[i];
        if (!b->enabled || b->kind != DBG_BREAK || line != b->line ||
            !dbg_file_matches(b->file, dbg_frame_file(D, st->frame)) || !dbg_cond_holds(g, b))
            continue;
        b->hits++;
        char c[80];
        dbg_coord_str(D, exec_prog_pid(D->focus), c, sizeof c);
        printf("\n%s %d, program %s\n", b->temporary ? "Temporary breakpoint" : "Breakpoint",
               b->num, c);
        if (b->temporary) {
            dbg_expr_free(b->expr);
            free(b->file);
            memmove(b, b + 1, (size_t)(g->nbps - i - 1) * sizeof *b);
            g->nbps--;
        }
        g->last_pid = -1;
        return WHY_BREAK;
    }
    if (why != WHY_NONE)
        return why;
    switch (g->mode) {
    case DBG_STEP: case DBG_STOP: return WHY_STEP;
    case DBG_NEXT:
        if (depth <= g->mode_depth)
            return WHY_STEP;
        break;
    case DBG_FINISH:
        if (depth < g->mode_depth)
            return WHY_STEP;
        break;
    case DBG_UNTIL:
        if (depth < g->mode_depth ||
            (depth == g->mode_depth &&
             (g->until_line ? line == g->until_line : line > g->mode_line)))
            return WHY_STEP;
        break;
    case DBG_CONTINUE: break;
    }
    return WHY_NONE;
}

/* ---- which programs can stop ---------------------------------------------
 * Before programs start, the debugger decides which of them could stop:
 * those run an instruction at a time (in dbg_run_focus), and the others,
 * in runs of consecutive program ids, on the thread pool at full speed.
 * Anything that could stop every program (a step under way, a watchpoint,
 * a breakpoint without a condition on a line of this kernel, a plain
 * breakpoint() in it) makes every program one to step.  A breakpoint's
 * condition, and the pid conditions of breakpoint_if(), are decided per
 * program when their value does not depend on the program's data: the
 * condition is compiled for that program id exactly as a stop compiles it
 * (spec_dbg_eval, with pid bound to the program id), in the scope of each
 * statement on the breakpoint's line, and a constant (pid == (1, 0),
 * pid[0] > BLOCK // 16, False) says whether it can hold there.  A
 * condition that needs registers (a tile), code to run, or is an error
 * (which would stop, to say so) counts as one that can stop. */

/* A breakpoint condition to decide per program: x at statement stmt. */
typedef struct dbg_cond_at {
    const dbg_expr *x;
    int32_t stmt;
} dbg_cond_at;

/* What could stop the programs about to start.  all: every one of them
 * (no need to look at each); else a program stops at most where one of
 * conds holds for it or one of kbreaks' pid conditions matches it. */
struct dbg_stoppers {
    bool all;
    dbg_cond_at *conds;
    int nconds, capconds;
    const ir_print **kbreaks;
    int nkbreaks, capkbreaks;
    FILE *null;              /* where the conditions' errors go (opened when
                                one is compiled) */
    diag_sink quiet;
};
typedef struct dbg_stoppers dbg_stoppers;

/* What could stop the programs from D->next on, now; the launch's, its
 * arrays kept from one decision to the next. */
static dbg_stoppers *dbg_stoppers_of(debug *g, dbg_launch *D)
{
    if (!D->stoppers)
        D->stoppers = xcalloc(1, sizeof *D->stoppers);
    dbg_stoppers *st = D->stoppers;
    st->all = g->mode != DBG_CONTINUE || g->kill;
    st->nconds = st->nkbreaks = 0;
    const ir_kernel *k = D->k;
    for (int i = 0; i < g->nbps && !st->all; i++) {
        const dbg_bp *b = &g->bps[i];
        if (!b->enabled)
            continue;
        if (b->kind == DBG_WATCH)
            st->all = true;
        for (int32_t s = 0; s < k->nstmts && !st->all; s++) {
            if (k->stmts[s].at->span.line != b->line ||
                !dbg_file_matches(b->file, dbg_frame_file(D, k->stmts[s].frame)))
                continue;
            if (!b->expr) {
                st->all = true;
                break;
            }
            if (st->nconds == st->capconds) {
                st->capconds = st->capconds ? 2 * st->capconds : 8;
                st->conds = xrealloc(st->conds, (size_t)st->capconds * sizeof *st->conds);
            }
            st->conds[st->nconds++] = (dbg_cond_at){b->expr, s};
        }
    }
    for (int32_t pc = 0; pc < k->ncode && !g->o.no_break && !st->all; pc++) {
        const ir_inst *in = &k->code[pc];
        if (in->op != IR_BREAKPOINT)
            continue;
        const ir_print *cond = ir_inst_print(k, in);
        if (!cond) {
            st->all = true;
            break;
        }
        if (st->nkbreaks == st->capkbreaks) {
            st->capkbreaks = st->capkbreaks ? 2 * st->capkbreaks : 8;
            st->kbreaks = xrealloc(st->kbreaks, (size_t)st->capkbreaks * sizeof *st->kbreaks);
        }
        st->kbreaks[st->nkbreaks++] = cond;
    }
    return st;
}

static void dbg_stoppers_free(dbg_stoppers *st)
{
    if (!st)
        return;
    free(st->conds);
    free(st->kbreaks);
    if (st->null)
        fclose(st->null);
    free(st);
}

/* Condition x at statement stmt for the program at coord, when its value
 * does not depend on the program's data: 1 true, 0 false; -1 when it
 * does, or cannot be compiled there. */
static int dbg_cond_static(const dbg_launch *D, dbg_stoppers *st, const dbg_expr *x,
                           int32_t stmt, const int64_t *coord)
{
    if (!st->null) {
        st->null = fopen("/dev/null", "w");
        if (!st->null)
            return -1;
        diag_sink_init(&st->quiet, st->null);
    }
    arena a;
    arena_init(&a);
    spec_dbg_result r;
    int t = -1;
    st->quiet.nerrors = 0;
    if (dbg_pid_compare_ok(x->e, x->file, D->L->rank, &st->quiet) &&
        spec_dbg_eval(D->k, stmt, x->file, x->e, coord, D->L->rank, &st->quiet, &a, &r) &&
        r.k && r.k->ncode == 0 && r.n == 1 && r.items[0].kind == SPEC_DBG_CONST)
        t = dbg_const_truth(&r.items[0].c);
    arena_free(&a);
    return t;
}

/* Did condition x at statement stmt, which does not name pid, need a
 * program's data before, in this launch?  Then it does for every program
 * (compiling it anew for each cost a data-dependent breakpoint about 7% of
 * a launch of 1024 programs).  One that names pid is compiled for each:
 * `pid == (1, 0) and x[0] > 3` is the constant False in the programs it
 * does not name. */
static bool dbg_data_cond(const dbg_launch *D, const dbg_expr *x, int32_t stmt)
{
    for (int i = 0; i < D->ndata_conds; i++)
        if (D->data_conds[i].id == x->id && D->data_conds[i].stmt == stmt)
            return true;
    return false;
}

/* Could program pid stop, by st? */
static bool dbg_prog_can_stop(dbg_launch *D, dbg_stoppers *st, int64_t pid)
{
    if (st->all)
        return true;
    int64_t c[3];
    exec_sess_coord(D->S, pid, c);
    for (int i = 0; i < st->nkbreaks; i++)
        if (ir_print_pid_passes(st->kbreaks[i], c))
            return true;
    for (int i = 0; i < st->nconds; i++) {
        const dbg_cond_at *ca = &st->conds[i];
        if (dbg_data_cond(D, ca->x, ca->stmt))
            return true;
        int t = dbg_cond_static(D, st, ca->x, ca->stmt, c);
        if (t < 0 && !ca->x->uses_pid) {
            if (D->ndata_conds == D->capdata_conds) {
                D->capdata_conds = D->capdata_conds ? 2 * D->capdata_conds : 8;
                D->data_conds = xrealloc(D->data_conds,
                                         (size_t)D->capdata_conds * sizeof *D->data_conds);
            }
            D->data_conds[D->ndata_conds++] = (struct dbg_data_cond){ca->x->id, ca->stmt};
        }
        if (t != 0)
            return true;
    }
    return false;
}

/* At most this many programs are decided ahead of running them (a run of
 * the pool may be shorter; one over a big grid is not held up by
 * deciding every program first). */
enum { DBG_DECIDE_AHEAD = 4096 };

/* The end of the programs from D->next on that can run on the pool: the
 * first one that could stop, or that has started already (`program`
 * started it out of order), or the end of the grid. */
static int64_t dbg_pool_end(debug *g, dbg_launch *D)
{
    int64_t nprog = exec_sess_nprog(D->S), p = D->next;
    dbg_stoppers *st = dbg_stoppers_of(g, D);
    if (st->all)
        return p;
    bool decide = st->nconds || st->nkbreaks;
    int64_t limit = decide && nprog - p > DBG_DECIDE_AHEAD ? p + DBG_DECIDE_AHEAD : nprog;
    while (p < limit && !D->started[p] && !(decide && dbg_prog_can_stop(D, st, p)))
        p++;
    return p;
}

/* Stop: show where, the displays, and take commands until one resumes. */
static void dbg_stop(debug *g, dbg_launch *D, dbg_why why)
{
    (void)why;
    D->frame_sel = 0;
    dbg_show_where(g, why == WHY_BREAK || why == WHY_KERNEL_BREAK || why == WHY_INTERRUPT);
    dbg_show_displays(g);
    fflush(stdout);
    g->mode = DBG_CONTINUE;
    dbg_repl(g);
    D->frame_sel = 0;
}

/* ======================================================================
 * Programs.
 * ====================================================================== */

/* Hold P (not the focus any more), standing at statement stmt. */
static void dbg_park(dbg_launch *D, exec_prog *P, int32_t stmt)
{
    if (D->npaused == D->cappaused) {
        D->cappaused = D->cappaused ? 2 * D->cappaused : 8;
        D->paused = xrealloc(D->paused, (size_t)D->cappaused * sizeof *D->paused);
    }
    D->paused[D->npaused++] = (dbg_paused){P, stmt};
}

/* Make the paused program pid the focus (false when it is not paused),
 * holding the focus there was (if any). */
static bool dbg_unpark(dbg_launch *D, int64_t pid)
{
    for (int i = 0; i < D->npaused; i++)
        if (exec_prog_pid(D->paused[i].P) == pid) {
            dbg_paused p = D->paused[i];
            D->paused[i] = D->paused[--D->npaused];
            if (D->focus)
                dbg_park(D, D->focus, D->focus_stmt);
            D->focus = p.P;
            D->focus_stmt = p.stmt;
            D->focus_fresh = false;
            return true;
        }
    return false;
}

static exec_prog *dbg_start(dbg_launch *D, int64_t pid)
{
    D->started[pid] = 1;
    while (D->next < exec_sess_nprog(D->S) && D->started[D->next])
        D->next++;
    return exec_sess_start(D->S, pid);
}

static void dbg_finished(dbg_launch *D, exec_prog *P)
{
    if (exec_prog_state(P) == EXEC_FAILED)
        D->failed = true;
    D->done++;
    exec_prog_free(P);
}

bool dbg_switch_program(debug *g, int64_t pid)
{
    dbg_launch *D = g->cur;
    char c[80];
    dbg_coord_str(D, pid, c, sizeof c);
    if (D->focus && exec_prog_pid(D->focus) == pid) {
        printf("Program %s is the one stopped here already.\n", c);
        return false;
    }
    if (dbg_unpark(D, pid)) {
        printf("[Switching to program %s, paused here earlier]\n", c);
        D->frame_sel = 0;
        dbg_show_where(g, true);
        return true;
    }
    if (D->started[pid]) {
        printf("Program %s has finished: what it stored is in the tensors (see `tensor`).\n",
               c);
        return false;
    }
    /* Not started: run it to the place the focus is stopped at. */
    int32_t target = exec_prog_pc(D->focus);
    exec_prog *P = dbg_start(D, pid);
    while (exec_prog_state(P) == EXEC_RUNNING && exec_prog_pc(P) != target &&
           !dbg_interrupted)
        exec_prog_step(P);
    if (exec_prog_state(P) != EXEC_RUNNING) {
        bool failed = exec_prog_state(P) == EXEC_FAILED;
        dbg_finished(D, P);
        printf("Program %s %s before reaching this place.\n", c,
               failed ? "failed" : "finished (it took another path)");
        return false;
    }
    dbg_park(D, D->focus, D->focus_stmt);
    D->focus = P;          /* where the other one stands, at the same pc */
    D->focus_fresh = false;
    if (dbg_interrupted) {
        dbg_interrupted = 0;
        printf("[Switching to program %s: interrupted on its way here]\n", c);
    } else {
        printf("[Switching to program %s: started it and ran it until it first reached "
               "this place]\n", c);
    }
    D->frame_sel = 0;
    dbg_show_where(g, true);
    return true;
}

/* ======================================================================
 * The launch.
 * ====================================================================== */

/* Ctrl-C is caught while a launch runs or the prompt waits; elsewhere (the
 * host part of the program) it ends tritsim as it would without us. */
static void dbg_on_sigint(int sig)
{
    if (!dbg_catching) {
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    dbg_interrupted = 1;
}

/* Stop the focus at statement stmt (-1: mid-statement); afterwards *seen
 * is what the focus (maybe another program now) has dealt with where it
 * stands: the statements up to *seen; all of them when it is mid-statement. */
static void dbg_stop_at(debug *g, dbg_launch *D, int32_t stmt, dbg_why why, int32_t *seen)
{
    D->focus_stmt = stmt;
    dbg_stop(g, D, why);
    if (D->focus)
        D->focus_fresh = false;
    *seen = D->focus_stmt >= 0 ? D->focus_stmt : INT32_MAX;
}

/* A while loop's statement appears twice in the kernel's table: where the
 * loop starts, and again at its condition (spec_stmt.c's loop head), which
 * every iteration comes back to.  Coming in from above, the program has
 * stopped at the first already: skip the loop head.  Coming back from the
 * body, the loop head is the one to consider, with the loop's variables. */
static bool dbg_skip_twin(const ir_kernel *k, int32_t s, bool came_back)
{
    bool head = s > 0 && k->stmts[s - 1].at == k->stmts[s].at &&
                k->stmts[s].at->kind == AST_WHILE;
    bool has_head = s + 1 < k->nstmts && k->stmts[s + 1].at == k->stmts[s].at &&
                    k->stmts[s].at->kind == AST_WHILE;
    return came_back ? has_head && k->stmts[s + 1].pc == k->stmts[s].pc : head;
}

/* Run the focused program until it stops, ends or fails.  At a pc where
 * statements start it stops before the kernel's breakpoint() there (if
 * any), then considers each statement in turn (they are consecutive in
 * k->stmts), then runs the instruction. */
static void dbg_run_focus(debug *g, dbg_launch *D)
{
    const ir_kernel *k = D->k;
    bool fresh = D->focus_fresh;   /* nothing looked at where it stands yet */
    int32_t seen = fresh ? -1 : D->focus_stmt >= 0 ? D->focus_stmt : INT32_MAX;
    bool came_back = false;     /* the last instruction jumped backwards */
    while (D->focus && !g->kill) {
        exec_prog *P = D->focus;
        if (exec_prog_state(P) != EXEC_RUNNING) {
            bool failed = exec_prog_state(P) == EXEC_FAILED;
            char c[80];
            dbg_coord_str(D, exec_prog_pid(P), c, sizeof c);
            if (failed) {
                printf("\nProgram %s failed (the error is above); inspect it, then "
                       "`continue` ends the launch.\n", c);
                dbg_stop_at(g, D, -1, WHY_INTERRUPT, &seen);
                fresh = false;
                if (D->focus != P)      /* `program` switched away: P is paused */
                    continue;
            } else if (g->mode != DBG_CONTINUE) {
                printf("[Program %s finished]\n", c);
                g->mode = DBG_STOP;
            }
            D->focus = NULL;
            dbg_finished(D, P);
            return;
        }
        int32_t pc = exec_prog_pc(P);
        int32_t first = pc < k->ncode ? D->first_stmt[pc] : -1;
        if (dbg_interrupted) {
            dbg_interrupted = 0;
            char c[80];
            dbg_coord_str(D, exec_prog_pid(P), c, sizeof c);
            printf("\nInterrupted (Ctrl-C) in program %s.\n", c);
            if (fresh && first >= 0) {
                dbg_stop_at(g, D, first, WHY_INTERRUPT, &seen);
                fresh = false;
            } else {
                /* Mid-statement (in a loop's condition, say) the scope of the
                 * statement would show its variables as they were before the
                 * loop: stop at the next statement instead. */
                g->mode = DBG_STOP;
            }
            continue;
        }
        if (fresh) {
            fresh = false;
            if (dbg_kernel_break(g, D, pc)) {
                dbg_stop_at(g, D, first >= 0 ? D->last_stmt[pc] : -1, WHY_KERNEL_BREAK, &seen);
                continue;     /* the focus may have changed */
            }
        }
        if (first >= 0 && seen < D->last_stmt[pc]) {
            int32_t s = seen < first ? first : seen + 1;
            seen = s;
            if (dbg_skip_twin(k, s, came_back))
                continue;
            D->focus_stmt = s;      /* conditions and watches are evaluated here */
            dbg_why why = dbg_stmt_stop(g, D, s);
            if (why != WHY_NONE)
                dbg_stop_at(g, D, s, why, &seen);
            continue;
        }
        exec_prog_step(P);
        came_back = exec_prog_state(P) == EXEC_RUNNING && exec_prog_pc(P) <= pc;
        D->focus_stmt = -1;
        fresh = true;
        seen = -1;
    }
}

static void dbg_drive(debug *g, dbg_launch *D)
{
    int64_t nprog = exec_sess_nprog(D->S);
    while (!g->kill && !D->failed) {
        if (!D->focus) {
            if (D->npaused) {
                int best = 0;
                for (int i = 1; i < D->npaused; i++)
                    if (exec_prog_pid(D->paused[i].P) < exec_prog_pid(D->paused[best].P))
                        best = i;
                int64_t pid = exec_prog_pid(D->paused[best].P);
                dbg_unpark(D, pid);
                if (g->mode == DBG_STOP) {
                    /* a step ended with its program: show the next one
                     * where it waits, before any of it runs */
                    char c[80];
                    dbg_coord_str(D, pid, c, sizeof c);
                    printf("[Switching to program %s, paused here earlier]\n", c);
                    dbg_stop(g, D, WHY_BREAK);
                    continue;
                }
            } else if (D->next < nprog) {
                int64_t end = dbg_pool_end(g, D);
                if (end > D->next) {
                    int64_t next;
                    bool ok = exec_sess_run(D->S, D->next, end, &dbg_interrupted, &next);
                    exec_prog **held;
                    int nheld = exec_sess_held(D->S, &held);
                    for (int64_t p = D->next; p < end; p++)
                        if (!exec_sess_skipped(D->S, p)) {
                            D->started[p] = 1;
                            D->done++;
                        }
                    exec_prog *failed = NULL;
                    for (int i = 0; i < nheld; i++) {
                        if (exec_prog_state(held[i]) == EXEC_FAILED) {
                            if (!failed || exec_prog_pid(held[i]) < exec_prog_pid(failed)) {
                                exec_prog_free(failed);
                                failed = held[i];
                            } else {
                                exec_prog_free(held[i]);
                            }
                            continue;
                        }
                        D->done--;
                        dbg_park(D, held[i], -1);
                    }
                    free(held);
                    while (D->next < nprog && D->started[D->next])
                        D->next++;
                    if (!ok) {      /* stop where the lowest failing program failed */
                        D->failed = true;
                        if (failed) {
                            D->focus = failed;
                            D->focus_stmt = -1;
                            D->focus_fresh = false;
                            dbg_run_focus(g, D);
                        }
                        return;
                    }
                    exec_prog_free(failed);
                    if (nheld || next < end) {     /* Ctrl-C: stop where it is */
                        dbg_interrupted = 0;
                        printf("\nInterrupted (Ctrl-C).\n");
                        g->mode = DBG_STOP;
                    }
                    continue;
                }
                D->focus = dbg_start(D, D->next);
                D->focus_stmt = -1;
                D->focus_fresh = true;
                if (g->mode == DBG_STOP) {   /* stepping: it stops at its first line */
                    char c[80];
                    dbg_coord_str(D, exec_prog_pid(D->focus), c, sizeof c);
                    printf("[Switching to program %s, the next to start]\n", c);
                }
            } else {
                return;
            }
        }
        dbg_run_focus(g, D);
    }
}

void debug_attach(debug *g)
{
    g->running = true;
}

bool debug_wants(debug *g, const ir_kernel *ir)
{
    if (g->running && (g->session || g->mode != DBG_CONTINUE || g->nbps > 0))
        return true;
    if (!g->o.no_break)
        for (int32_t pc = 0; pc < ir->ncode; pc++)
            if (ir->code[pc].op == IR_BREAKPOINT)
                return true;
    return false;
}

bool debug_launch(debug *g, host *h, backend_dev *dev, const ir_kernel *ir,
                  const backend_launch *BL, bool *killed)
{
    *killed = false;
    exec_launch DL;
    cpu_backend_exec_launch(dev, ir, BL, &DL);
    DL.keep_lanes = true;         /* every variable's lanes, for `print` */
    DL.breaks = EXEC_BREAK_IGNORE;  /* breakpoint() is ours: the programs that
                                       could stop at one do not run on the pool */
    const exec_launch *L = &DL;
    exec_sess *S = exec_sess_begin(L);
    if (!S)
        return false;
    const ir_kernel *k = L->kernel;
    dbg_launch D = {.h = h, .L = L, .k = k, .S = S, .focus_stmt = -1};
    D.first_stmt = xcalloc((size_t)k->ncode + 1, sizeof *D.first_stmt);
    D.last_stmt = xcalloc((size_t)k->ncode + 1, sizeof *D.last_stmt);
    for (int32_t pc = 0; pc <= k->ncode; pc++)
        D.first_stmt[pc] = D.last_stmt[pc] = -1;
    for (int32_t s = 0; s < k->nstmts; s++) {
        int32_t pc = k->stmts[s].pc;
        if (pc < 0 || pc > k->ncode)
            continue;
        if (D.first_stmt[pc] < 0)
            D.first_stmt[pc] = s;
        D.last_stmt[pc] = s;
    }
    D.started = xcalloc((size_t)exec_sess_nprog(S) + 1, 1);
    dbg_launch *outer = g->cur;
    g->cur = &D;
    g->last_pid = -1;
    dbg_interrupted = 0;
    sig_atomic_t catching = dbg_catching;
    dbg_catching = 1;

    dbg_drive(g, &D);

    dbg_catching = catching;

    for (int i = 0; i < D.npaused; i++)
        exec_prog_free(D.paused[i].P);
    exec_prog_free(D.focus);
    free(D.paused);
    bool ok = exec_sess_end(S);
    free(D.first_stmt);
    free(D.last_stmt);
    free(D.started);
    free(D.data_conds);
    dbg_stoppers_free(D.stoppers);
    g->cur = outer;
    for (int i = 0; i < g->nbps; i++) {      /* watch values belong to this launch */
        exec_tile_free(&g->bps[i].old);
        g->bps[i].have_old = false;
        g->bps[i].frame = -1;
    }
    if (g->kill) {
        *killed = true;
        return false;
    }
    return ok && !D.failed;
}

/* ======================================================================
 * Set-up.
 * ====================================================================== */

debug *debug_new(const debug_opts *o)
{
    debug *g = xcalloc(1, sizeof *g);
    g->o = *o;
    g->next_num = 1;
    g->next_disp = 1;
    g->last_pid = -1;
    g->say = stdout;
    if (g->o.tty) {     /* Ctrl-C stops a launch or clears the prompt's line */
        struct sigaction sa = {0};
        sa.sa_handler = dbg_on_sigint;
        sigemptyset(&sa.sa_mask);
        g->sigint_set = sigaction(SIGINT, &sa, &g->old_sigint) == 0;
    }
    dbg_repl_init(g);
    return g;
}

void debug_free(debug *g)
{
    if (!g)
        return;
    dbg_repl_done(g);
    if (g->sigint_set)
        sigaction(SIGINT, &g->old_sigint, NULL);
    for (int i = 0; i < g->nbps; i++) {
        dbg_expr_free(g->bps[i].expr);
        free(g->bps[i].file);
        exec_tile_free(&g->bps[i].old);
    }
    free(g->bps);
    for (int i = 0; i < g->ndisps; i++)
        dbg_expr_free(g->disps[i].expr);
    free(g->disps);
    free(g->last_cmd);
    free(g->run_args);
    free(g);
}
