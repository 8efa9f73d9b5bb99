/* spec_debug.c - the specializer's side of the kernel debugger (spec.h):
 * the statement table and the scope of each statement, recorded while
 * spec.c walks a kernel for a debugger (spec_host.debug_info), and what
 * the debugger asks of them afterwards: the names visible at a statement
 * (spec_dbg_vars) and a debugger expression compiled in a stopped
 * program's scope (spec_dbg_eval).
 *
 * Scope snapshots.  Each statement keeps the scope of its function as it
 * was when the statement started.  Copying the whole scope per statement
 * would cost (statements x variables) memory in big unrolled kernels, so a
 * snapshot stores only what changed since the previous statement of the
 * same function call: the positions of the scope array whose name or value
 * differ, and the scope's length.  A scope is rebuilt by walking back
 * through the call's snapshots and taking, for each position, the newest
 * change (every SP_DBG_KEYFRAME statements a snapshot records everything,
 * which bounds the walk).  This stays right whatever spec.c does to a
 * scope between two statements (rebinding, restoring the scope before a
 * runtime if's else, marking loop-only names unusable), because each
 * snapshot is a diff against the previous one.  Specializing a kernel
 * unrolled to 140,000 statements with 45 live names took 0.25 s instead of
 * 0.21 s and 37% more memory; the kernels of tests/ and samples/ show no
 * difference in time. */
#define _POSIX_C_SOURCE 200809L
#include "spec_impl.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* One changed position of a function's scope: its name and value, a
 * tile's slot (the common case) or else a copy of the whole value. */
typedef struct sp_dbg_change {
    int32_t pos;
    int32_t slot;              /* the value is sv_tile(slot), when full is NULL */
    const char *name;
    const sval *full;
} sp_dbg_change;

/* A statement's snapshot: its function call's previous statement (-1 at
 * the first), the scope's length, and its changes. */
typedef struct sp_dbg_snap {
    int32_t parent;
    int32_t n;
    int32_t first, count;      /* in sp_dbg_rec.changes */
    int32_t depth;             /* snapshots since the last complete one */
} sp_dbg_snap;

/* Every this many statements of a call, a snapshot records the whole
 * scope, so that rebuilding one walks back at most this far. */
enum { SP_DBG_KEYFRAME = 64 };

/* What frame i is: the FUNCDEF and its module (for global lookups). */
typedef struct sp_dbg_fn {
    const ast_node *def;
    void *env;
} sp_dbg_fn;

struct sp_dbg_rec {
    spec_host host;            /* the lookups the kernel was specialized with */
    sp_dbg_snap *snaps;        /* one per statement (spec.nstmts) */
    int32_t cap_snaps;
    sp_dbg_change *changes;
    int32_t nchanges, cap_changes;
    sp_dbg_fn *fns;            /* one per frame */
    int32_t nfns, cap_fns;
};

#define SP_DBG_GROW(arr, n, cap)                                          \
    do {                                                                  \
        if ((n) >= (cap)) {                                               \
            (cap) = (cap) ? 2 * (cap) : 64;                               \
            if ((cap) <= (n))                                             \
                (cap) = (n) + 1;                                          \
            (arr) = xrealloc((arr), (size_t)(cap) * sizeof *(arr));       \
        }                                                                 \
    } while (0)

/* ---- recording (called from spec.c) ---------------------------------------- */

static sp_dbg_rec *sp_dbg_rec_of(spec *s)
{
    if (!s->dbg)
        s->dbg = xcalloc(1, sizeof *s->dbg);
    return s->dbg;
}

void sp_dbg_emitted(spec *s)
{
    if (!s->host->debug_info)
        return;
    SP_DBG_GROW(s->inst_stmt, s->ncode - 1, s->cap_inst_stmt);
    s->inst_stmt[s->ncode - 1] = s->cur_stmt;
}

/* The same name with the same binding (sp_same, which the merge after a
 * runtime if uses too)?  A false "no" only costs a change record. */
static bool sp_dbg_same(const sp_var *a, const sp_var *b)
{
    return (a->name == b->name || !strcmp(a->name, b->name)) && sp_same(&a->v, &b->v);
}

int32_t sp_dbg_stmt(spec *s, const ast_node *st)
{
    int32_t outer = s->cur_stmt;
    if (s->dbg_expr || !s->host->debug_info)
        return outer;  /* a helper called from a debugger expression, or no debugger */
    sp_dbg_rec *r = sp_dbg_rec_of(s);
    sp_func *f = s->fn;
    int32_t idx = s->nstmts;
    SP_DBG_GROW(s->stmts, idx, s->cap_stmts);
    s->stmts[idx] = (ir_stmt){.pc = s->ncode, .at = st, .frame = f->frame};
    s->nstmts++;

    /* The snapshot: positions that differ from this call's last one. */
    const sp_scope *sc = &f->scope;
    sp_scope *sh = &f->dbg_shadow;
    sp_dbg_snap snap = {.parent = f->dbg_prev - 1, .n = sc->n, .first = r->nchanges};
    if (snap.parent >= 0 && r->snaps[snap.parent].depth + 1 < SP_DBG_KEYFRAME)
        snap.depth = r->snaps[snap.parent].depth + 1;
    else
        sh->n = 0;  /* record everything */
    if (sh->cap < sc->n) {
        sh->cap = sc->n;
        sh->vars = xrealloc(sh->vars, (size_t)sh->cap * sizeof *sh->vars);
    }
    for (int i = 0; i < sc->n; i++) {
        if (i < sh->n && sp_dbg_same(&sh->vars[i], &sc->vars[i]))
            continue;
        const sp_var *v = &sc->vars[i];
        sp_dbg_change c = {.pos = i, .slot = v->v.slot, .name = v->name};
        if (v->v.kind != SV_TILE) {
            sval *full = arena_alloc(s->a, sizeof *full);
            *full = v->v;
            c.full = full;
        }
        SP_DBG_GROW(r->changes, r->nchanges, r->cap_changes);
        r->changes[r->nchanges++] = c;
        sh->vars[i] = sc->vars[i];
        snap.count++;
    }
    sh->n = sc->n;
    SP_DBG_GROW(r->snaps, idx, r->cap_snaps);
    r->snaps[idx] = snap;
    f->dbg_prev = idx + 1;
    s->cur_stmt = idx;
    return outer;
}

void sp_dbg_frame(spec *s, int32_t frame, const ast_node *def, void *env)
{
    if (s->dbg_expr || !s->host->debug_info)
        return;
    sp_dbg_rec *r = sp_dbg_rec_of(s);
    while (r->nfns <= frame) {
        SP_DBG_GROW(r->fns, r->nfns, r->cap_fns);
        r->fns[r->nfns++] = (sp_dbg_fn){0};
    }
    r->fns[frame] = (sp_dbg_fn){.def = def, .env = env};
}

void sp_dbg_func_end(sp_func *f)
{
    free(f->dbg_shadow.vars);
    f->dbg_shadow = (sp_scope){0};
}

void sp_dbg_finish(spec *s, ir_kernel *k)
{
    sp_dbg_rec *r = s->dbg;
    if (k && s->host->debug_info) {
        k->stmts = sp_freeze(s->a, s->stmts, (size_t)s->nstmts, sizeof *s->stmts);
        k->nstmts = s->nstmts;
        k->inst_stmt = sp_freeze(s->a, s->inst_stmt, (size_t)s->ncode,
                                 sizeof *s->inst_stmt);
        sp_dbg_rec *kr = arena_alloc(s->a, sizeof *kr);
        memset(kr, 0, sizeof *kr);
        kr->host = *s->host;
        if (r) {
            kr->snaps = sp_freeze(s->a, r->snaps, (size_t)s->nstmts, sizeof *r->snaps);
            kr->changes = sp_freeze(s->a, r->changes, (size_t)r->nchanges,
                                    sizeof *r->changes);
            kr->nchanges = r->nchanges;
            kr->fns = sp_freeze(s->a, r->fns, (size_t)r->nfns, sizeof *r->fns);
            kr->nfns = r->nfns;
        }
        k->debug = kr;
    }
    if (r) {
        free(r->snaps);
        free(r->changes);
        free(r->fns);
        free(r);
    }
    s->dbg = NULL;
    free(s->stmts);
    free(s->inst_stmt);
    s->stmts = NULL;
    s->inst_stmt = NULL;
}

/* ---- side effects ------------------------------------------------------------ */

/* The one guard against side effects in debugger expressions.  Every
 * instruction with an effect (IR_STORE, IR_ATOMIC, IR_PRINT, IR_ASSERT,
 * IR_BREAKPOINT) is emitted by a built-in, and every call of a built-in
 * comes through sp_call_builtin, tile methods and the bodies of helpers
 * included, which passes the effects its table entry states
 * (tl.static_print emits nothing but prints at once, so it says
 * SPEC_FX_PRINTS too).  An entry that states nothing (0) is refused: a
 * forgotten flag must not let a write through; test_spec_debug checks
 * that no entry forgets.  (IR_RETURN ends a kernel only; a debugger
 * expression is never one.) */
bool sp_dbg_pure(spec *s, const char *qual, int effects, const ast_node *call)
{
    if (effects == SPEC_FX_NONE)
        return true;
    char buf[128];
    if (!effects)
        return sp_error(s, call, "tritsim's table of built-ins does not say whether %s "
                        "has side effects, so a debugger expression cannot call it; "
                        "please report this as a tritsim bug",
                        sp_display_name(qual, buf, sizeof buf));
    return sp_error(s, call, "%s cannot be used in a debugger expression (it %s); "
                    "show values without changing the program",
                    sp_display_name(qual, buf, sizeof buf),
                    effects & SPEC_FX_WRITES ? "writes memory" : "has side effects");
}

/* ---- element access ---------------------------------------------------------- */

/* A constant int index or slice bound, or `absent` when b is NULL or None. */
static bool sp_dbg_bound(spec *s, const ast_node *b, int64_t absent, int64_t *out)
{
    if (!b) {
        *out = absent;
        return true;
    }
    sval v;
    if (!sp_expr(s, b, &v))
        return false;
    if (sv_is_none(v)) {
        *out = absent;
        return true;
    }
    if (v.kind != SV_CONST || (v.c.kind != SC_INT && v.c.kind != SC_BOOL)) {
        char buf[128];
        return sp_error(s, b, "a tile index in a debugger expression must be a constant "
                        "int, not %s", sp_describe(s, v, buf, sizeof buf));
    }
    *out = v.c.kind == SC_BOOL ? v.c.u.b : v.c.u.i;
    return true;
}

bool sp_dbg_axis(spec *s, const ast_node *it, int axis, int64_t size, int64_t *start,
                 int64_t *stop)
{
    if (it->kind == AST_SLICE) {
        int64_t step;
        if (!sp_dbg_bound(s, it->u.slice.step, 1, &step) ||
            !sp_dbg_bound(s, it->u.slice.lower, 0, start) ||
            !sp_dbg_bound(s, it->u.slice.upper, size, stop))
            return false;
        if (step != 1)
            return sp_error(s, it, "slices with a step are not supported in debugger "
                            "expressions");
        /* Python's clamping */
        int64_t b = *start, e = *stop;
        *start = b < 0 ? (b + size < 0 ? 0 : b + size) : b > size ? size : b;
        *stop = e < 0 ? (e + size < 0 ? 0 : e + size) : e > size ? size : e;
        if (*stop <= *start)
            return sp_error(s, it, "this slice of an axis of size %lld is empty",
                            (long long)size);
        return true;
    }
    int64_t i;
    if (!sp_dbg_bound(s, it, INT64_MIN, &i))
        return false;
    if (i == INT64_MIN || i < -size || i >= size)
        return sp_error(s, it, "index %lld is out of range for axis %d of size %lld",
                        i == INT64_MIN ? 0LL : (long long)i, axis, (long long)size);
    *start = i < 0 ? i + size : i;
    *stop = *start + 1;
    return true;
}

/* ---- scopes at a statement ------------------------------------------------- */

/* The scope of statement stmt's function when it started (vars are
 * xmalloc'ed, the caller frees them). */
static sp_scope sp_dbg_scope(const sp_dbg_rec *r, int32_t stmt)
{
    int32_t n = r->snaps[stmt].n;
    sp_scope sc = {.n = 0, .cap = n};
    sc.vars = xcalloc((size_t)n + 1, sizeof *sc.vars);
    bool *have = xcalloc((size_t)n + 1, sizeof *have);
    int32_t left = n;
    for (int32_t i = stmt; i >= 0 && left > 0; i = r->snaps[i].parent) {
        const sp_dbg_snap *sn = &r->snaps[i];
        for (int32_t j = 0; j < sn->count; j++) {
            const sp_dbg_change *c = &r->changes[sn->first + j];
            if (c->pos < n && !have[c->pos]) {
                have[c->pos] = true;
                sc.vars[c->pos].name = c->name;
                sc.vars[c->pos].v = c->full ? *c->full : sv_tile(c->slot);
                left--;
            }
        }
    }
    /* Every position is found (the first snapshot of a call records all);
     * keep the ones that were, in order. */
    for (int32_t i = 0; i < n; i++)
        if (have[i])
            sc.vars[sc.n++] = sc.vars[i];
    free(have);
    return sc;
}

static const char *sp_dbg_what(const sval *v)
{
    switch (v->kind) {
    case SV_TUPLE: return "a tuple";
    case SV_MODULE: return "a module";
    case SV_FUNC: return "a function";
    case SV_JIT: return v->host_fn ? "a Python function" : "a @triton.jit function";
    case SV_METHOD: return "a method";
    case SV_FMT: return "an f-string";
    case SV_BLOCKPTR: return v->block->desc ? "a tensor descriptor" : "a block pointer";
    default: return "a value";
    }
}

/* v as the debugger shows it: a constant, a tile, or something else. */
static spec_dbg_var sp_dbg_var_of(const char *name, sval v, arena *a)
{
    spec_dbg_var dv = {.name = name, .slot = -1};
    if (v.kind == SV_TILE) {
        dv.kind = SPEC_DBG_TILE;
        dv.slot = v.slot;
    } else if (sp_const_tuple(a, v, &dv.c)) {
        dv.kind = SPEC_DBG_CONST;
    } else {
        dv.kind = SPEC_DBG_OTHER;
        dv.what = sp_dbg_what(&v);
    }
    return dv;
}

int spec_dbg_vars(const ir_kernel *k, int32_t stmt, spec_dbg_var **out, arena *a)
{
    const sp_dbg_rec *r = k->debug;
    *out = NULL;
    if (!r || !r->snaps || stmt < 0 || stmt >= k->nstmts)
        return 0;
    sp_scope sc = sp_dbg_scope(r, stmt);
    int32_t frame = k->stmts[stmt].frame;
    const ast_node *def = frame >= 0 && frame < r->nfns ? r->fns[frame].def : NULL;
    const ast_list *params = def ? &def->u.funcdef.params : NULL;
    spec_dbg_var *vars = arena_alloc(a, (size_t)(sc.n + 1) * sizeof *vars);
    bool *used = xcalloc((size_t)sc.n + 1, sizeof *used);
    int n = 0;
    /* The parameters, in order, then the other names. */
    for (int p = 0; params && p < params->len; p++)
        for (int i = 0; i < sc.n; i++)
            if (!used[i] && !strcmp(sc.vars[i].name, params->items[p]->u.param.name)) {
                used[i] = true;
                if (sc.vars[i].v.kind == SV_UNDEF)
                    break;
                vars[n] = sp_dbg_var_of(sc.vars[i].name, sc.vars[i].v, a);
                vars[n++].is_arg = true;
                break;
            }
    for (int i = 0; i < sc.n; i++)
        if (!used[i] && sc.vars[i].v.kind != SV_UNDEF)
            vars[n++] = sp_dbg_var_of(sc.vars[i].name, sc.vars[i].v, a);
    free(used);
    free(sc.vars);
    *out = vars;
    return n;
}

/* ---- debugger expressions ------------------------------------------------ */

/* The expression's value as result items. */
static bool sp_dbg_result(spec *s, sval v, const ast_node *e, spec_dbg_result *out)
{
    spec_const c;
    if (v.kind == SV_TILE || sp_const_tuple(s->a, v, &c)) {
        out->n = 1;
        out->tuple = false;
        out->items = arena_alloc(s->a, sizeof *out->items);
        out->items[0] = sp_dbg_var_of(NULL, v, s->a);
        return true;
    }
    char buf[128];
    if (v.kind != SV_TUPLE)
        return sp_error(s, e, "this is %s, which the debugger cannot show; a debugger "
                        "expression must give a tile, a number or another constant",
                        sp_describe(s, v, buf, sizeof buf));
    out->n = v.n;
    out->tuple = true;
    out->items = arena_alloc(s->a, (size_t)(v.n + 1) * sizeof *out->items);
    for (int i = 0; i < v.n; i++) {
        out->items[i] = sp_dbg_var_of(NULL, v.items[i], s->a);
        if (out->items[i].kind == SPEC_DBG_OTHER)
            return sp_error(s, e, "item %d of this tuple is %s, which the debugger cannot "
                            "show; show tiles and constants", i,
                            sp_describe(s, v.items[i], buf, sizeof buf));
    }
    return true;
}

int sp_dbg_later_line(const spec *s, const char *name, const char **func)
{
    const ir_kernel *k = s->dbg_kernel;
    const sp_dbg_rec *r = k ? k->debug : NULL;
    if (!r || !r->snaps || s->dbg_at < 0 || s->dbg_at >= k->nstmts)
        return 0;
    int32_t frame = k->stmts[s->dbg_at].frame;
    *func = frame >= 0 && frame < k->nframes ? k->frames[frame].func : k->name;
    int32_t prev = -1;          /* the frame's statement before i */
    for (int32_t i = 0; i < k->nstmts; i++) {
        if (k->stmts[i].frame != frame)
            continue;
        const sp_dbg_snap *sn = &r->snaps[i];
        for (int32_t j = 0; prev >= 0 && j < sn->count; j++) {
            const sp_dbg_change *c = &r->changes[sn->first + j];
            if (!strcmp(c->name, name) && !(c->full && c->full->kind == SV_UNDEF))
                return k->stmts[prev].at->span.line;
        }
        prev = i;
    }
    return 0;
}

bool spec_dbg_eval(const ir_kernel *k, int32_t stmt, const src_file *ef, const ast_node *e,
                   const int64_t *pid, int pid_rank, diag_sink *d, arena *a,
                   spec_dbg_result *out)
{
    memset(out, 0, sizeof *out);
    const sp_dbg_rec *r = k->debug;
    if (!r || !r->snaps || stmt < 0 || stmt >= k->nstmts) {
        diag_report(d, DIAG_ERROR, ef, e->span, "no scope is known for statement %d of "
                    "kernel '%s' (internal error)", (int)stmt, k->name ? k->name : "?");
        return false;
    }
    const ir_stmt *st = &k->stmts[stmt];
    spec s = {.d = d, .a = a, .host = &r->host, .cur_stmt = -1, .dbg_expr = true,
              .dbg_kernel = k, .dbg_at = stmt};
    s.slots = xmalloc((size_t)(k->nslots + 1) * sizeof *s.slots);
    if (k->nslots)
        memcpy(s.slots, k->slots, (size_t)k->nslots * sizeof *s.slots);
    s.nslots = s.cap_slots = k->nslots;
    s.frames = xmalloc((size_t)(k->nframes + 1) * sizeof *s.frames);
    if (k->nframes)
        memcpy(s.frames, k->frames, (size_t)k->nframes * sizeof *s.frames);
    s.frames[k->nframes] = (ir_frame){.func = "(debugger)", .parent = st->frame, .file = ef};
    s.nframes = s.cap_frames = k->nframes + 1;
    s.prints = xmalloc((size_t)(k->nprints + 1) * sizeof *s.prints);
    if (k->nprints)
        memcpy(s.prints, k->prints, (size_t)k->nprints * sizeof *s.prints);
    s.nprints = s.cap_prints = k->nprints;

    sp_func f = {.name = "(debugger)", .file = ef, .frame = k->nframes,
                 .env = st->frame >= 0 && st->frame < r->nfns ? r->fns[st->frame].env : NULL};
    f.scope = sp_dbg_scope(r, stmt);
    s.fn = &f;
    if (pid && pid_rank > 0) {
        spec_const t = {.kind = SC_TUPLE};
        t.u.tuple.n = pid_rank;
        t.u.tuple.items = arena_alloc(a, (size_t)pid_rank * sizeof *t.u.tuple.items);
        for (int i = 0; i < pid_rank; i++)
            t.u.tuple.items[i] = (spec_const){.kind = SC_INT, .u.i = pid[i]};
        sp_bind(&s, "pid", sv_const(t));
    }

    sval v;
    bool ok = sp_expr(&s, e, &v) && !s.too_big && sp_dbg_result(&s, v, e, out);
    if (ok) {
        ir_kernel *rk = sp_freeze_kernel(&s, k->name);
        rk->params = k->params;
        rk->nparams = k->nparams;
        rk->inst_stmt = arena_alloc(a, (size_t)(s.ncode + 1) * sizeof *rk->inst_stmt);
        for (int32_t i = 0; i < s.ncode; i++)
            rk->inst_stmt[i] = -1;
        out->k = rk;
    } else {
        memset(out, 0, sizeof *out);
    }
    free(f.scope.vars);
    sp_dbg_func_end(&f);
    free(s.code);
    free(s.slots);
    free(s.frames);
    free(s.prints);
    free(s.inst_stmt);
    free(s.stmts);
    return ok;
}
