/* exec.c - the CPU executor (exec.h): runs every program of a launch over
 * the kernel's typed IR (ir.h) on the thread pool, one register file per
 * worker, with Triton's semantics and a bounds check on every memory lane.
 *
 * This file owns:
 *   - the plan: each slot's byte offset in a register file (64-byte
 *     aligned) and element count, fixed once per launch, and the fast-path
 *     analysis (fastpath.h): which slots are tracked as affine records
 *     (lazy ones keep no lanes), which instructions take a fast path; and
 *     the check of the IR that the typed loops rely on;
 *   - the interpreter loop, with the ops that cost next to nothing
 *     (constants, program ids, arguments, arange, copies) and the hook of
 *     the affine records (rec_op), kept here so that they inline into it;
 *   - the launch: program ids go to the pool; each program's text is
 *     flushed in program-id order; the lowest failing program's error is
 *     the one reported;
 *   - the errors every op reports (exec_fail, exec_internal).
 *
 * The rest of the executor, one file per part (exec_impl.h is what they
 * share):
 *   - exec_affine.c: affine records, index and pointer tiles as base +
 *     strides, masks as boxes;
 *   - exec_tile.c: elementwise and data-movement tile operations, casts,
 *     math functions;
 *   - exec_mem.c: loads, stores and atomics, and their bounds checks;
 *   - exec_reduce.c: dot, reduce, scan;
 *   - exec_print.c: print, device_print, assert, breakpoint;
 *   - exec_sess.c: debugger sessions (exec_sess_*, exec_prog_*).
 *
 * Errors stop the launch: the message of the lowest failing program id is
 * reported (the pool hands out ids in order, so every lower program has
 * run), after the output of the programs before it and its own. */
#define _POSIX_C_SOURCE 200809L
/* The typed loops below run over unknown lane counts with operands that may
 * alias the destination: GCC's default cost model at -O2 ("very-cheap")
 * leaves such loops scalar, so let it vectorise them behind runtime
 * checks.  Vectorising elementwise loops never changes a result; float
 * reductions stay in order (that would need -fassociative-math). */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("vect-cost-model=dynamic")
#endif
#include "exec_impl.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "blas.h"
#include "fault.h"
#include "gemm.h"

/* A value missing from a switch over an enum is an error here (ir.h) */
#pragma GCC diagnostic error "-Wswitch"
#pragma GCC diagnostic error "-Wswitch-enum"

/* ======================================================================
 * Errors.
 * ====================================================================== */

/* Stop the program with an error; the message is kept until the launch
 * decides which failing program to report.  Always returns false. */
bool exec_fail(exec_prog *P, const ir_inst *in, const char *note,
               const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(P->msg, sizeof P->msg, fmt, ap);
    va_end(ap);
    snprintf(P->note, sizeof P->note, "%s", note ? note : "");
    P->fail_at = in;
    return false;
}

bool exec_internal(exec_prog *P, const ir_inst *in, const char *what)
{
    int32_t s = in->a >= 0 ? in->a : in->dst;
    return exec_fail(P, in, NULL, "internal error: %s %s is not supported on %s",
                     ir_op_name((ir_opcode)in->op), what, s >= 0 ? dtype_name(DT(P, s)) : "?");
}

/* "lane 5", or "lane (1, 3)": every backend's words (fault.h). */
void exec_lane_name(char *buf, size_t len, const ir_type *t, int64_t lane)
{
    backend_lane_name(buf, len, t, lane);
}

/* The type whose shape names the lanes of an instruction: its largest
 * operand. */
const ir_type *exec_lane_type(const exec_prog *P, const ir_inst *in)
{
    int32_t s[1 + IR_MAX_READS] = {in->dst};
    int n = 1 + ir_reads(in, s + 1);
    int32_t best = -1;
    for (int i = 0; i < n; i++)
        if (s[i] >= 0 && (best < 0 || NUMEL(P, s[i]) > NUMEL(P, best)))
            best = s[i];
    return TYPE(P, best);
}

/* ======================================================================
 * The ops the interpreter loop inlines.
 * ====================================================================== */

/* ---- constants, ids, arguments, copies ------------------------------- */

static bool op_const(exec_prog *P, const ir_inst *in)
{
    dtype t = DT(P, in->dst);
    int64_t n = NUMEL(P, in->dst);
    void *D = SLOT(P, in->dst);
    dtype_scalar v;
    if (!dtype_is_ptr(t) && dtype_is_float(t))
        v.f = dtype_round_float(t, in->fimm);
    else
        v = dtype_wrap(t, (uint64_t)in->imm);
    /* Fill the first lane, then copy it over the rest. */
    lane_set(t, D, 0, v);
    int sz = st_size(st_of(t));
    for (int64_t i = 1; i < n; i++)
        memcpy((char *)D + i * sz, D, (size_t)sz);
    return true;
}

static bool op_program_id(exec_prog *P, const ir_inst *in)
{
    int64_t axis = in->imm < 0 || in->imm > 2 ? 0 : in->imm;
    int64_t v = in->op == IR_PROGRAM_ID ? P->coord[axis] : P->x->L->grid[axis];
    *(int32_t *)SLOT(P, in->dst) = (int32_t)v;
    return true;
}

static bool op_arg(exec_prog *P, const ir_inst *in)
{
    const exec_arg *arg = &P->x->L->args[in->imm];
    lane_set(DT(P, in->dst), SLOT(P, in->dst), 0, arg->value);
    return true;
}

static bool op_arange(exec_prog *P, const ir_inst *in)
{
    int32_t *d = SLOT(P, in->dst);
    int64_t n = NUMEL(P, in->dst);
    for (int64_t i = 0; i < n; i++)
        d[i] = (int32_t)(in->imm + i);
    return true;
}

static bool op_copy(exec_prog *P, const ir_inst *in)
{
    if (IFLAGS(P, in) & FASTPATH_COPY_SKIP)
        return true;         /* the dot before it worked in place */
    if (in->dst != in->a)
        memcpy(SLOT(P, in->dst), SLOT(P, in->a),
               (size_t)NUMEL(P, in->dst) * (size_t)st_size(st_of(DT(P, in->dst))));
    return true;
}

/* ======================================================================
 * The interpreter loop.
 * ====================================================================== */

static bool scalar_true(const exec_prog *P, int32_t s)
{
    dtype t = DT(P, s);
    dtype_scalar v = lane_get(t, SLOT(P, s), 0);
    return !dtype_is_ptr(t) && dtype_is_float(t) ? v.f != 0 : v.u != 0;
}

/* An instruction that writes a tracked slot: its record, and its lanes
 * unless the slot is lazy (exec_one calls it before the op).  Returns false
 * when the record cannot describe the result: the operands' lanes are then
 * in the register file and the op computes the lanes the ordinary way.
 * (Here rather than in exec_affine.c, so that it inlines into exec_one.) */
static bool rec_op(exec_prog *P, const ir_inst *in)
{
    exec_rec r;
    if (exec_rec_compute(P, in, &r)) {
        bool lazy = LAZY(P, in->dst);
        r.valid = true;
        r.mat = !lazy;
        *REC(P, in->dst) = r;
        if (!lazy)
            exec_rec_fill(P, in->dst, &r);
        return true;
    }
    exec_slot_sync(P, in->a);
    exec_slot_sync(P, in->b);
    exec_rec *d = REC(P, in->dst);
    d->valid = false;
    d->mat = true;
    return false;
}

/* Run the instruction at *pc and move *pc on.  1: go on; 0: the program
 * ended; -1: it failed (the error is in P). */
int exec_one(exec_prog *P, int32_t *pc)
{
    const ir_kernel *k = P->x->k;
    if (*pc >= k->ncode)
        return 0;
    int32_t at = (*pc)++;
    const ir_inst *in = &k->code[at];
    uint8_t fl = P->x->plan.iflags[at];
    if (fl & (FASTPATH_INVARIANT | FASTPATH_RECORD)) {
        /* A program-invariant instruction runs once per worker and launch:
         * the register file keeps its result for the later programs. */
        if (fl & FASTPATH_INVARIANT) {
            uint8_t *done = P->regs + P->x->plan.doneat + at;
            if (*done)
                return 1;
            *done = 1;
        }
        /* One that writes a tracked slot makes the slot's record; the op
         * computes the lanes only when no record describes the result.
         * (FASTPATH_RECORD is never on the fused add or skipped copy of
         * acc += tl.dot, whose slots are fp32, so their ops see no
         * difference in order.) */
        if ((fl & FASTPATH_RECORD) && rec_op(P, in))
            return 1;
    }
    bool ok = true;
    switch ((ir_opcode)in->op) {
    case IR_CONST: ok = op_const(P, in); break;
    case IR_PROGRAM_ID: case IR_NUM_PROGRAMS: ok = op_program_id(P, in); break;
    case IR_ARG: ok = op_arg(P, in); break;
    case IR_ARANGE: ok = op_arange(P, in); break;
    case IR_COPY: case IR_RESHAPE: ok = op_copy(P, in); break;
    case IR_BROADCAST: ok = exec_op_broadcast(P, in); break;
    case IR_TRANS: ok = exec_op_trans(P, in); break;
    case IR_FLIP: ok = exec_op_flip(P, in); break;
    case IR_CONCAT: ok = exec_op_concat(P, in); break;
    case IR_SLICE: ok = exec_op_slice(P, in); break;
    case IR_GATHER: ok = exec_op_gather(P, in); break;
    case IR_HISTOGRAM: ok = exec_op_histogram(P, in); break;
    case IR_CAST: ok = exec_op_cast(P, in); break;
    case IR_BITCAST: ok = exec_op_bitcast(P, in); break;
    case IR_UNARY: ok = exec_op_unary(P, in); break;
    case IR_BINARY: ok = exec_op_binary(P, in); break;
    case IR_CMP: ok = exec_op_cmp(P, in); break;
    case IR_WHERE: ok = exec_op_where(P, in); break;
    case IR_MATH: ok = exec_op_math(P, in); break;
    case IR_PTR_ADD: ok = exec_op_ptr_add(P, in); break;
    case IR_LOAD: ok = exec_op_load(P, in); break;
    case IR_STORE: ok = exec_op_store(P, in); break;
    case IR_ATOMIC: ok = exec_op_atomic(P, in); break;
    case IR_DOT: ok = exec_op_dot(P, in); break;
    case IR_REDUCE: ok = exec_op_reduce(P, in); break;
    case IR_SCAN: ok = exec_op_scan(P, in); break;
    case IR_PRINT: ok = exec_op_print(P, in); break;
    case IR_ASSERT: ok = exec_op_assert(P, in); break;
    case IR_BREAKPOINT: ok = exec_op_breakpoint(P, in); break;
    case IR_JUMP: *pc = (int32_t)in->imm; break;
    case IR_BRANCH:
        if (!scalar_true(P, in->a))
            *pc = (int32_t)in->imm;
        break;
    case IR_RETURN: return 0;
    case IR_NOP: break;
    }
    return ok ? 1 : -1;
}

bool exec_run_program(exec_prog *P)
{
    int32_t pc = 0;
    int r;
    while ((r = exec_one(P, &pc)) > 0)
        ;
    return r == 0;
}

/* ======================================================================
 * The plan: slot layout and scratch size, after a check of the IR
 * (ir_verify: the specializer's invariants, checked once so that a bug
 * there is an internal error rather than memory corruption here).
 * ====================================================================== */

static void report_fault(const exec_launch *L, const ir_fault *f)
{
    const ir_inst *in = f->pc >= 0 ? &L->kernel->code[f->pc] : NULL;
    src_span sp = {0};
    if (in && in->at)
        sp = in->at->span;
    if (f->slot >= 0)
        diag_report(L->diag, DIAG_ERROR, L->file, sp,
                    "internal error: slot %" PRId32 " has an invalid type", f->slot);
    else if (!in)
        diag_report(L->diag, DIAG_ERROR, L->file, sp, "internal error: bad kernel IR: %s",
                    f->why);
    else
        diag_report(L->diag, DIAG_ERROR, L->file, sp,
                    "internal error: bad kernel IR at instruction %" PRId32 " (%s): %s",
                    f->pc, ir_op_name((ir_opcode)in->op), f->why);
}

bool exec_plan_build(const exec_launch *L, exec_plan *pl)
{
    const ir_kernel *k = L->kernel;
    ir_fault fault;
    if (!ir_verify(k, &fault)) {
        report_fault(L, &fault);
        return false;
    }
    /* off, argbytes, sflags and iflags share one allocation (freed
     * through off) */
    size_t ns = (size_t)k->nslots + 1, nc = (size_t)k->ncode + 1;
    size_t na = (size_t)k->nparams + 1;
    pl->off = xcalloc(1, ns * sizeof *pl->off + na * sizeof *pl->argbytes + ns + nc);
    pl->argbytes = (uint64_t *)(pl->off + ns);
    pl->sflags = (uint8_t *)(pl->argbytes + na);
    pl->iflags = pl->sflags + ns;
    for (int32_t i = 0; i < k->nparams; i++)
        if (dtype_is_ptr(k->params[i].dt))
            pl->argbytes[i] = (uint64_t)L->args[i].numel *
                              (uint64_t)dtype_size(dtype_elem(k->params[i].dt));
    pl->numel = xcalloc(ns, sizeof *pl->numel);
    size_t at = 0;
    int64_t maxn = 1;
    for (int32_t s = 0; s < k->nslots; s++) {
        const ir_type *t = &k->slots[s].type;
        int64_t n = ir_type_numel(t);
        pl->off[s] = at;
        pl->numel[s] = n;
        at += align64((size_t)n * (size_t)st_size(st_of(t->dt)));
        maxn = n > maxn ? n : maxn;
    }
    pl->recat = at;
    at += align64((size_t)k->nslots * sizeof(exec_rec));
    pl->doneat = at;
    at += align64((size_t)k->ncode);
    pl->regbytes = at ? at : 64;
    pl->scratchbytes = (size_t)maxn * 8;
    for (int32_t pc = 0; pc < k->ncode; pc++) {
        const ir_inst *in = &k->code[pc];
        if (in->op == IR_PRINT ||
            (in->op == IR_BREAKPOINT && L->breaks == EXEC_BREAK_REPORT))
            pl->prints = true;
        if (in->op == IR_CAST && dtype_is_ptr(k->slots[in->dst].type.dt) &&
            !dtype_is_ptr(k->slots[in->a].type.dt))
            pl->int_ptrs = true;
        if (in->op == IR_DOT) {
            /* operands and result as doubles, or fp32 copies, a result and
             * gemm's work area (dot_scratch_of) */
            const ir_type *ta = &k->slots[in->a].type;
            int64_t K = ta->ndim ? ta->shape[ta->ndim - 1] : 1;
            size_t need = 8 * (size_t)(pl->numel[in->a] + pl->numel[in->b] +
                                       pl->numel[in->dst]) +
                          4 * (size_t)gemm_work_floats(K);
            pl->scratchbytes = need > pl->scratchbytes ? need : pl->scratchbytes;
        }
    }
    pl->scratchbytes = align64(pl->scratchbytes);
    bool lanes = L->log || L->racecheck;
    fastpath_analyse(k, pl->numel, !L->keep_lanes && !lanes && !L->plain, pl->sflags,
                     pl->iflags);
    if (L->plain) {        /* every instruction the ordinary way */
        memset(pl->sflags, 0, (size_t)k->nslots);
        memset(pl->iflags, 0, (size_t)k->ncode);
    }
    if (lanes)             /* every lane through exec_mem.c's access log and
                              --racecheck (exec_check.c) */
        for (int32_t pc = 0; pc < k->ncode; pc++)
            pl->iflags[pc] &= (uint8_t)~(FASTPATH_MEMORY | FASTPATH_LOAD_VIEW);
    return true;
}

/* ======================================================================
 * Output in program-id order, and the first error.
 * ====================================================================== */

void exec_write_text(exec_ctx *x, const char *s, size_t len)
{
    if (len)
        fwrite(s, 1, len, x->L->out);
}

exec_pending *exec_pending_at(exec_ctx *x, int64_t pid)
{
    return &x->win[pid & (x->wincap - 1)];
}

/* Make room in the window for pid (which is >= cursor). */
static void window_fit(exec_ctx *x, int64_t pid)
{
    if (pid - x->cursor < x->wincap)
        return;
    int64_t cap = x->wincap;
    while (pid - x->cursor >= cap)
        cap *= 2;
    exec_pending *win = xcalloc((size_t)cap, sizeof *win);
    for (int64_t p = x->cursor; p < x->cursor + x->wincap; p++)
        win[p & (cap - 1)] = *exec_pending_at(x, p);
    free(x->win);
    x->win = win;
    x->wincap = cap;
}

/* Write every finished program from the cursor on, in order. */
static void drain(exec_ctx *x)
{
    while (x->cursor < x->nprog) {
        exec_pending *e = exec_pending_at(x, x->cursor);
        if (e->state != PEND_DONE)
            break;
        exec_write_text(x, e->text, e->len);
        free(e->text);
        *e = (exec_pending){0};
        x->cursor++;
    }
}

void exec_record_error(exec_ctx *x, exec_prog *P)
{
    if (P->pid >= x->err.pid)
        return;
    free(x->err.msg);
    free(x->err.note);
    free(x->err.text);
    x->err.pid = P->pid;
    x->err.at = P->fail_at;
    x->err.msg = strdup(P->msg);
    x->err.note = P->note[0] ? strdup(P->note) : NULL;
    x->err.len = P->w->out.len;
    x->err.text = strbuf_detach(&P->w->out);
    if (!x->err.msg || (P->note[0] && !x->err.note))
        arena_oom();
}

/* A program ended: pass its output on (now, if every program before it
 * has been written; else into the window) or record its error. */
static void finish_program(exec_ctx *x, exec_prog *P, bool ok)
{
    strbuf *out = &P->w->out;
    if (ok && !x->plan.prints)
        return;
    pthread_mutex_lock(&x->lock);
    if (!ok) {
        exec_record_error(x, P);
        if (x->plan.prints && P->pid >= x->cursor) {
            window_fit(x, P->pid);
            exec_pending_at(x, P->pid)->state = PEND_FAILED;
        }
    } else if (P->pid < x->err.pid) {
        if (P->pid == x->cursor) {
            exec_write_text(x, strbuf_cstr(out), out->len);
            x->cursor++;
            drain(x);
        } else {
            window_fit(x, P->pid);
            exec_pending *e = exec_pending_at(x, P->pid);
            e->len = out->len;
            e->text = out->len ? strbuf_detach(out) : NULL;
            e->state = PEND_DONE;
        }
    }
    pthread_mutex_unlock(&x->lock);
    strbuf_clear(out);
}

/* Program pid's (x, y, z) in the launch's grid; pids run along x first. */
void exec_pid_coords(const exec_ctx *x, int64_t pid, int64_t coord[3])
{
    int64_t g0 = x->L->grid[0], g1 = x->L->grid[1];
    coord[0] = pid % g0;
    coord[1] = pid / g0 % g1;
    coord[2] = pid / (g0 * g1);
}

bool exec_run_item(void *ctx, int64_t item, int worker)
{
    exec_ctx *x = ctx;
    item += x->base;
    if (x->stop && *x->stop) {     /* interrupted: leave it to the debugger */
        x->skipped[item] = 1;
        return true;
    }
    exec_worker *w = &x->workers[worker];
    exec_prog P = {.x = x, .w = w, .regs = w->regs, .pid = item};
    exec_pid_coords(x, item, P.coord);
    bool ok = x->stop ? exec_run_program_stoppable(&P) : exec_run_program(&P);
    if (ok && P.state == EXEC_RUNNING && x->stop)
        return true;               /* held for the debugger */
    finish_program(x, &P, ok);
    return ok;
}

/* A program's error at instruction in, after the text it printed before
 * it, with a note per inlined call the instruction sits in. */
void exec_report_at(exec_ctx *x, const ir_inst *in, const char *msg, const char *note,
                    const char *text, size_t len)
{
    const exec_launch *L = x->L;
    exec_write_text(x, text, len);
    fflush(L->out);
    backend_report_at(L->diag, x->k, L->file, in, msg, note);
}

/* The error of the lowest failing program (x->err). */
void exec_report_error(exec_ctx *x)
{
    exec_report_at(x, x->err.at, x->err.msg, x->err.note, x->err.text, x->err.len);
    x->reported = true;
}

/* ======================================================================
 * The launch.
 * ====================================================================== */

void *exec_alloc64(size_t bytes)
{
    void *p = aligned_alloc(64, align64(bytes ? bytes : 64));
    if (!p)
        arena_oom();
    memset(p, 0, align64(bytes ? bytes : 64));
    return p;
}

/* Check the grid, build the plan, make the workers.  false after
 * reporting; *empty when the grid has no programs (nothing to run). */
bool exec_ctx_init(exec_ctx *x, const exec_launch *L, bool *empty)
{
    blas_ready();        /* fp64 dots call dgemm on the pool's threads */
    *x = (exec_ctx){.L = L, .k = L->kernel};
    *empty = false;
    for (int i = 0; i < 3; i++)
        if (L->grid[i] < 1) {
            *empty = true;
            return true;
        }
    if (L->grid[0] > INT64_MAX / L->grid[1] ||
        L->grid[0] * L->grid[1] > INT64_MAX / L->grid[2]) {
        diag_report(L->diag, DIAG_ERROR, L->file, (src_span){0},
                    "the grid (%" PRId64 ", %" PRId64 ", %" PRId64 ") has too many programs",
                    L->grid[0], L->grid[1], L->grid[2]);
        return false;
    }
    if (!exec_plan_build(L, &x->plan)) {
        free(x->plan.off);
        free(x->plan.numel);
        x->plan.off = NULL;
        x->plan.numel = NULL;
        return false;
    }
    x->nprog = L->grid[0] * L->grid[1] * L->grid[2];
    if (L->racecheck && x->nprog >= INT32_MAX) {
        diag_report(L->diag, DIAG_ERROR, L->file, (src_span){0},
                    "--racecheck: the grid (%" PRId64 ", %" PRId64 ", %" PRId64 ") has more "
                    "programs than the %d it can check", L->grid[0], L->grid[1], L->grid[2],
                    INT32_MAX - 1);
        return false;
    }
    x->check = exec_check_new(x);
    x->nworkers = pool_size(L->pool);
    x->workers = xcalloc((size_t)x->nworkers, sizeof *x->workers);
    for (int i = 0; i < x->nworkers; i++) {
        x->workers[i].regs = exec_alloc64(x->plan.regbytes);
        x->workers[i].scratch = exec_alloc64(x->plan.scratchbytes);
    }
    pthread_mutex_init(&x->lock, NULL);
    x->wincap = 64;
    x->win = xcalloc((size_t)x->wincap, sizeof *x->win);
    x->err.pid = INT64_MAX;
    x->ready = true;
    return true;
}

void exec_ctx_free(exec_ctx *x)
{
    if (x->ready) {
        for (int64_t i = 0; i < x->wincap; i++)
            free(x->win[i].text);
        free(x->win);
        pthread_mutex_destroy(&x->lock);
        for (int i = 0; i < x->nworkers; i++) {
            free(x->workers[i].regs);
            free(x->workers[i].scratch);
            strbuf_free(&x->workers[i].out);
        }
        free(x->workers);
    }
    free(x->err.msg);
    free(x->err.note);
    free(x->err.text);
    free(x->skipped);
    for (int i = 0; i < x->nheld; i++)
        exec_prog_free(x->held[i]);
    free(x->held);
    free(x->spare_regs);
    free(x->spare_scratch);
    exec_check_free(x->check);
    free(x->plan.off);
    free(x->plan.numel);
}

bool exec_run(const exec_launch *L)
{
    exec_ctx x;
    bool empty;
    if (!exec_ctx_init(&x, L, &empty))
        return false;
    if (!empty)
        pool_run(L->pool, x.nprog, exec_run_item, &x);
    bool ok = x.err.pid == INT64_MAX;
    if (!ok)
        exec_report_error(&x);
    else
        ok = exec_check_end(&x);     /* the first race, if any */
    fflush(L->out);
    exec_ctx_free(&x);
    return ok;
}
