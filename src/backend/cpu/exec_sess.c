/* exec_sess.c - the CPU executor's debugger sessions (exec.h's exec_sess_*
 * and exec_prog_*): the same launch as exec_run, with programs started on
 * demand, each with its own registers, run an instruction at a time (their
 * text written at once), or the rest of the grid run on the pool, where
 * Ctrl-C holds the programs it catches running; and a program's slots
 * read out, or a debugger expression run on a copy of them. */
#define _POSIX_C_SOURCE 200809L
/* As in exec.c: let GCC vectorise the typed loops behind runtime checks. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("vect-cost-model=dynamic")
#endif
#include "exec_impl.h"

#include <stdlib.h>
#include <string.h>

#include "arena.h"

/* ======================================================================
 * Debugger sessions: the same launch, run a program at a time or an
 * instruction at a time.
 * ====================================================================== */

static exec_prog *prog_new(exec_ctx *x, int64_t pid);

/* A program of a debugger session run on the pool: it checks the stop flag
 * before each instruction, and when it is set (Ctrl-C) the program moves,
 * registers, place and text so far, into a program of its own, held for
 * the debugger (exec_sess_run hands it over).  P->state stays
 * EXEC_RUNNING then.  A program that fails is also copied and held, in
 * state EXEC_FAILED at the failing instruction, so the debugger can show
 * its variables. */
bool exec_run_program_stoppable(exec_prog *P)
{
    exec_ctx *x = P->x;
    int32_t pc = 0;
    int r;
    P->state = EXEC_DONE;
    while (!*x->stop) {
        int32_t at = pc;
        if ((r = exec_one(P, &pc)) == 0)
            return true;
        if (r < 0) {     /* keep it as it failed too, for the debugger to show */
            exec_prog *Q = prog_new(x, P->pid);
            memcpy(Q->own.regs, P->regs, x->plan.regbytes);
            Q->pc = at;
            Q->state = EXEC_FAILED;
            pthread_mutex_lock(&x->lock);
            x->held = xrealloc(x->held, (size_t)(x->nheld + 1) * sizeof *x->held);
            x->held[x->nheld++] = Q;
            pthread_mutex_unlock(&x->lock);
            return false;
        }
    }
    exec_prog *Q = prog_new(x, P->pid);
    memcpy(Q->own.regs, P->regs, x->plan.regbytes);
    Q->pc = pc;
    Q->lock = P->lock;
    strbuf_putn(&Q->own.out, strbuf_cstr(&P->w->out), P->w->out.len);
    strbuf_clear(&P->w->out);
    pthread_mutex_lock(&x->lock);
    x->held = xrealloc(x->held, (size_t)(x->nheld + 1) * sizeof *x->held);
    x->held[x->nheld++] = Q;
    pthread_mutex_unlock(&x->lock);
    P->state = EXEC_RUNNING;
    return true;
}

exec_sess *exec_sess_begin(const exec_launch *L)
{
    exec_ctx *x = xcalloc(1, sizeof *x);
    bool empty;
    if (!exec_ctx_init(x, L, &empty)) {
        exec_ctx_free(x);
        free(x);
        return NULL;
    }
    x->debug = true;
    x->session = true;
    return x;
}

int64_t exec_sess_nprog(const exec_sess *x)
{
    return x->nprog;
}

const exec_launch *exec_sess_launch(const exec_sess *x)
{
    return x->L;
}

void exec_sess_coord(const exec_sess *x, int64_t pid, int64_t coord[3])
{
    exec_pid_coords(x, pid, coord);
}

bool exec_sess_failed(const exec_sess *x)
{
    return x->err.pid != INT64_MAX;
}

bool exec_sess_run(exec_sess *x, int64_t from, int64_t to, const volatile sig_atomic_t *stop,
                   int64_t *next)
{
    if (to > x->nprog)
        to = x->nprog;
    *next = to;
    if (from >= to || exec_sess_failed(x))
        return !exec_sess_failed(x);
    if (!x->skipped)
        x->skipped = xcalloc((size_t)x->nprog, 1);
    memset(x->skipped + from, 0, (size_t)(x->nprog - from));   /* this run's only */
    x->stop = stop;
    x->base = from;
    x->cursor = from;
    x->debug = false;      /* programs print through the window again */
    if (exec_check_races(x->check)) {
        /* one after the other: the access that shows a race is then the
         * same on every run (exec_check.c) */
        for (int64_t i = 0; i < to - from && exec_run_item(x, i, 0); i++)
            ;
    } else {
        pool_run(x->L->pool, to - from, exec_run_item, x);
    }
    x->debug = true;
    x->stop = NULL;
    /* Text of programs that ran after one the stop left out: write it now,
     * in program order. */
    for (int64_t p = x->cursor; p < x->cursor + x->wincap && p < to; p++) {
        exec_pending *e = exec_pending_at(x, p);
        if (e->state == PEND_DONE)
            exec_write_text(x, e->text, e->len);
        free(e->text);
        *e = (exec_pending){0};
    }
    for (int i = 0; i < x->nheld; i++) {      /* their text so far */
        strbuf *o = &x->held[i]->own.out;
        exec_write_text(x, strbuf_cstr(o), o->len);
        strbuf_clear(o);
    }
    for (int64_t p = from; p < to; p++)
        if (x->skipped[p]) {
            *next = p;
            break;
        }
    if (exec_sess_failed(x)) {
        exec_report_error(x);
        *next = to;
    }
    fflush(x->L->out);
    return !exec_sess_failed(x);
}

/* A program with these (zeroed) registers and scratch. */
static exec_prog *prog_make(exec_ctx *x, int64_t pid, unsigned char *regs,
                            unsigned char *scratch)
{
    exec_prog *P = xcalloc(1, sizeof *P);
    P->x = x;
    P->pid = pid;
    P->w = &P->own;
    P->own.regs = regs;
    P->own.scratch = scratch;
    P->regs = P->own.regs;
    P->state = EXEC_RUNNING;
    exec_pid_coords(x, pid, P->coord);
    return P;
}

exec_prog *exec_sess_start(exec_sess *x, int64_t pid)
{
    if (!x->spare_regs)
        return prog_new(x, pid);
    unsigned char *regs = x->spare_regs, *scratch = x->spare_scratch;
    x->spare_regs = x->spare_scratch = NULL;
    memset(regs, 0, align64(x->plan.regbytes ? x->plan.regbytes : 64));   /* as exec_alloc64 */
    memset(scratch, 0, align64(x->plan.scratchbytes ? x->plan.scratchbytes : 64));
    return prog_make(x, pid, regs, scratch);
}

static exec_prog *prog_new(exec_ctx *x, int64_t pid)
{
    return prog_make(x, pid, exec_alloc64(x->plan.regbytes), exec_alloc64(x->plan.scratchbytes));
}

void exec_prog_free(exec_prog *P)
{
    if (!P)
        return;
    exec_ctx *x = P->x;
    if (!x->spare_regs) {
        x->spare_regs = P->own.regs;
        x->spare_scratch = P->own.scratch;
    } else {
        free(P->own.regs);
        free(P->own.scratch);
    }
    strbuf_free(&P->own.out);
    free(P);
}

exec_status exec_prog_step(exec_prog *P)
{
    if (P->state != EXEC_RUNNING)
        return P->state;
    exec_ctx *x = P->x;
    int32_t at = P->pc;
    int r = exec_one(P, &P->pc);
    strbuf *out = &P->w->out;
    if (r < 0) {
        P->pc = at;         /* stay at the failing instruction */
        /* this program's own error, now; x->err keeps the lowest failing
         * program's for the launch's result */
        exec_report_at(x, P->fail_at, P->msg, P->note[0] ? P->note : NULL, strbuf_cstr(out),
                       out->len);
        strbuf_clear(out);
        exec_record_error(x, P);
        x->reported = true;
        P->state = EXEC_FAILED;
    } else if (r == 0) {
        P->state = EXEC_DONE;
    }
    if (out->len) {
        exec_write_text(x, strbuf_cstr(out), out->len);
        fflush(x->L->out);
        strbuf_clear(out);
    }
    return P->state;
}

int32_t exec_prog_pc(const exec_prog *P)
{
    return P->pc;
}

int64_t exec_prog_pid(const exec_prog *P)
{
    return P->pid;
}

const int64_t *exec_prog_coord(const exec_prog *P)
{
    return P->coord;
}

exec_status exec_prog_state(const exec_prog *P)
{
    return P->state;
}

/* ---- reading values ------------------------------------------------------ */

/* Copy slot s of a register file into a tile, in numpy's memory format
 * (exec_numpy_lanes), as format_slot prints it. */
static void tile_from(const exec_ctx *x, const unsigned char *regs, int32_t s,
                      exec_tile *t)
{
    const ir_type *ty = &x->k->slots[s].type;
    int64_t n = x->plan.numel[s];
    size_t bytes = (size_t)n * (size_t)st_size(st_of(ty->dt));
    t->type = *ty;
    t->numel = n;
    t->data = xcalloc(1, bytes ? bytes : 1);
    t->data_type = exec_numpy_lanes(ty->dt, t->data, regs + x->plan.off[s], n);
}

bool exec_prog_read(const exec_prog *P, int32_t slot, exec_tile *out)
{
    if (slot < 0 || slot >= P->x->k->nslots)
        return false;
    tile_from(P->x, P->regs, slot, out);
    return true;
}

void exec_tile_free(exec_tile *t)
{
    free(t->data);
    t->data = NULL;
}

dtype_scalar exec_tile_get(const exec_tile *t, int64_t i)
{
    if (t->data_type == DTYPE_FP16 || t->data_type == DTYPE_BF16) {
        uint16_t h = ((const uint16_t *)t->data)[i];
        dtype_scalar v;
        v.f = t->data_type == DTYPE_FP16 ? dtype_f16_to_f32(h) : dtype_bf16_to_f32(h);
        return v;
    }
    return lane_get(t->data_type, t->data, i);
}

bool exec_prog_eval(exec_prog *P, const ir_kernel *ek, const int32_t *slots, int n,
                    exec_tile *out)
{
    exec_ctx *x = P->x;
    exec_launch L = *x->L;
    L.kernel = ek;
    exec_ctx e = {.L = &L, .k = ek, .debug = true, .err.pid = INT64_MAX};
    if (!exec_plan_build(&L, &e.plan)) {
        exec_ctx_free(&e);
        return false;
    }
    e.plan.int_ptrs |= x->plan.int_ptrs;   /* P's pointers may carry tags */
    exec_prog *Q = prog_new(&e, P->pid);   /* L has P's grid: the same coordinates */
    int32_t nold = x->k->nslots < ek->nslots ? x->k->nslots : ek->nslots;
    for (int32_t s = 0; s < nold; s++)
        memcpy(Q->regs + e.plan.off[s], P->regs + x->plan.off[s],
               (size_t)x->plan.numel[s] * (size_t)st_size(st_of(x->k->slots[s].type.dt)));
    bool ok = exec_run_program(Q);
    if (!ok) {
        exec_record_error(&e, Q);
        exec_report_error(&e);
    }
    for (int i = 0; ok && i < n; i++)
        tile_from(&e, Q->regs, slots[i], &out[i]);
    exec_prog_free(Q);
    exec_ctx_free(&e);
    return ok;
}

bool exec_sess_skipped(const exec_sess *x, int64_t pid)
{
    return x->skipped && pid >= 0 && pid < x->nprog && x->skipped[pid];
}

int exec_sess_held(exec_sess *x, exec_prog ***out)
{
    int n = x->nheld;
    *out = x->held;
    x->held = NULL;
    x->nheld = 0;
    return n;
}

bool exec_sess_end(exec_sess *x)
{
    bool ok = !exec_sess_failed(x);
    if (!ok && !x->reported)
        exec_report_error(x);
    if (ok)
        ok = exec_check_end(x);      /* a race no program's access saw */
    fflush(x->L->out);
    exec_ctx_free(x);
    free(x);
    return ok;
}
