/* exec_check.c - the CPU executor's checkers, `tritsim run --racecheck`
 * and `--initcheck` (backend.h: backend_launch.racecheck, .initcheck).
 * exec_mem.c hands every checked access's active lanes to
 * exec_check_access (the plan sends every access down the plain path
 * while a checker is on, exec.c); a launch with neither option has no
 * exec_check and pays one untaken branch per memory instruction.
 *
 * Races.  Within one launch Triton orders no program before another, so
 * two programs that touch the same element race when one of the accesses
 * is a plain store, or when one is plain and the other atomic; atomics
 * among themselves do not race, nor does a program with itself.  The
 * shadow state is per cell of each storage the launch's pointer
 * arguments point into (arguments on the same storage share it; a cell is
 * the smallest element size of those arguments), one kind of access at a
 * time (plain store, plain load, atomic): three words, the smallest and
 * the largest key of the lanes that did that to the cell, where a key is
 *
 *     program (31 bits) | memory instruction (13 bits) | lane (20 bits)
 *
 * so the smallest key is the lowest program's first memory instruction
 * (in code order) and lowest lane there, the largest the highest
 * program's last.  Threads update the words with compare-and-swap loops
 * (a minimum and a maximum do not depend on the order the updates come
 * in), so when the launch ends the words are the same on every run, and
 * the race reported is found by a scan in a fixed order: by argument,
 * then element, then kind (store/store, store/load, store/atomic,
 * load/atomic).  The smallest and largest program of each kind are
 * enough to find two different programs wherever there are two.
 *
 * Spin locks.  Triton's own tutorials serialise programs with a lock:
 * `while tl.atomic_cas(lock, 0, 1) == 1: pass`, plain loads and stores,
 * then `tl.atomic_xchg(lock, 0)`.  A program holds the lock from a CAS of
 * one active lane that found the value it compared with until its XCHG
 * (or plain store) of the same address (exec_check_lock); the third word
 * of a cell says which lock every access of that kind held: 0 none yet, 1
 * no lock, a lock's address, or all ones when they differed (an order-free
 * summary again).  Two kinds whose accesses all held the same lock do not
 * race.  One lock at a time is followed.  A kernel without
 * tl.atomic_cas takes no lock, and its cells have no third word.
 *
 * Pages of cells are made on first touch, per kind: an input only loaded
 * costs 16 (24) bytes a cell, an element touched in every way 48 (72).  Kernels
 * that make pointers from integers also get a region per storage whose
 * address the program took (addrmap.h), with cells of one byte.  A memory
 * instruction past the 8191st or a lane past 2^20 - 1 keeps that number
 * (its place or lane is then named less exactly).
 *
 * A race makes the launch fail after every program has run (exec_run),
 * reported at the higher program's access with the lower one's in the
 * message: the run stops there as on any kernel error.  A debugger
 * session (exec_sess_*) checks each access as it runs instead, so that
 * the program stops at the access that made the race visible.
 *
 * Uninitialised reads.  A storage made by torch.empty and its kin carries
 * a bitmap of the bytes written so far (backend_buffer.init, tensor.c);
 * a load or atomic whose active lane reaches a byte not written fails
 * the program there, as an out-of-bounds lane does, and stores and
 * atomics set the bits of the bytes they write; lanes through pointers
 * made from integers find their storage's bitmap through addrmap.h.
 * Under --initcheck alone the memory fast paths stay on for the accesses
 * through arguments whose storage has no bitmap (exec_check_lanes), and
 * a storage whose every byte has been written loses its bitmap when the
 * launch ends. */
#include "exec_impl.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "addrmap.h"
#include "arena.h"
#include "fault.h"

/* A value missing from a switch over an enum is an error here (ir.h) */
#pragma GCC diagnostic error "-Wswitch"
#pragma GCC diagnostic error "-Wswitch-enum"

enum {
    RC_PAGE_BITS = 12,              /* cells per page: 4096 */
    RC_PAGE = 1 << RC_PAGE_BITS,
    RC_KINDS = 3,                   /* exec_acc: load, store, atomic */
    RC_MINST_MAX = (1 << 13) - 1,
    RC_LANE_MAX = (1 << 20) - 1,
    RC_WORDS = 3,                   /* per cell and kind, at most */
};

#define RC_NO_LOCK ((uint64_t)1)
#define RC_MIXED (~(uint64_t)0)

#define RC_PID_SHIFT 33
#define RC_MINST_SHIFT 20

/* The cells of one storage (or of an argument with no storage). */
typedef struct rc_region {
    uint64_t lo, bytes;             /* its bytes */
    int shift;                      /* log2 of a cell's bytes */
    int first_arg;                  /* the lowest parameter on it, or -1: a
                                       storage reached through pointers
                                       made from integers */
    int64_t npages;
    uint64_t **page[RC_KINDS];      /* per kind: npages pages of RC_PAGE
                                       cells, exec_check.words words each
                                       (~smallest key, largest key + 1, lock;
                                       0: none), or NULL while untouched */
} rc_region;

struct exec_check {
    bool race, init;
    int words;                      /* per cell and kind: 3, or 2 (no lock
                                       word) when the kernel has no CAS */
    int nregions;
    rc_region *region;              /* by first_arg, then those of no
                                       argument by address */
    int first_extra;                /* the first region of no argument */
    int *region_of;                 /* per parameter: its region, or -1 */
    uint32_t *minst;                /* per instruction: its number among the
                                       memory instructions */
    int32_t *minst_pc;              /* per such number: the instruction */
};

static int log2_of(int64_t n)
{
    int s = 0;
    while (((int64_t)1 << (s + 1)) <= n)
        s++;
    return s;
}

/* Pages of cells given back by earlier launches, for the next ones: a
 * launch that checks a large tensor touches a page of shadow for every
 * 4,096 elements, and memory that malloc returned to the system would
 * fault in again, page by page, at every launch.  A list per size (two or
 * three words a cell), linked through each page's first word, at most
 * RC_POOL_MAX pages in all (then free). */
enum { RC_POOL_MAX = 8192 };
static pthread_mutex_t rc_pool_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t *rc_pool[RC_WORDS + 1];
static int rc_pooled;

static void rc_page_give(uint64_t *pg, int words)
{
    pthread_mutex_lock(&rc_pool_lock);
    if (rc_pooled < RC_POOL_MAX) {
        pg[0] = (uint64_t)(uintptr_t)rc_pool[words];
        rc_pool[words] = pg;
        rc_pooled++;
        pg = NULL;
    }
    pthread_mutex_unlock(&rc_pool_lock);
    free(pg);
}

/* A zeroed page of cells of `words` words. */
static uint64_t *rc_page_take(int words)
{
    pthread_mutex_lock(&rc_pool_lock);
    uint64_t *pg = rc_pool[words];
    if (pg) {
        rc_pool[words] = (uint64_t *)(uintptr_t)pg[0];
        rc_pooled--;
    }
    pthread_mutex_unlock(&rc_pool_lock);
    if (!pg)
        return xcalloc((size_t)words * RC_PAGE, sizeof *pg);
    memset(pg, 0, (size_t)words * RC_PAGE * sizeof *pg);
    return pg;
}

exec_check *exec_check_new(exec_ctx *x)
{
    const exec_launch *L = x->L;
    const ir_kernel *k = x->k;
    if (!L->racecheck && !L->initcheck)
        return NULL;
    exec_check *c = xcalloc(1, sizeof *c);
    c->race = L->racecheck;
    c->init = L->initcheck;
    if (!c->race)
        return c;
    c->minst = xcalloc((size_t)k->ncode + 1, sizeof *c->minst);
    c->minst_pc = xcalloc(RC_MINST_MAX + 1, sizeof *c->minst_pc);
    uint32_t m = 0;
    c->words = 2;
    for (int32_t pc = 0; pc < k->ncode; pc++) {
        ir_opcode op = (ir_opcode)k->code[pc].op;
        if (op == IR_ATOMIC && k->code[pc].sub == IR_ATOMIC_CAS)
            c->words = 3;
        if (op != IR_LOAD && op != IR_STORE && op != IR_ATOMIC)
            continue;
        c->minst[pc] = m;
        if (m < RC_MINST_MAX)
            c->minst_pc[m++] = pc;
        else
            c->minst_pc[RC_MINST_MAX] = pc;     /* the ones past: named by the last */
    }
    /* One region per storage, in the order of the lowest parameter on it. */
    c->region_of = xcalloc((size_t)k->nparams + 1, sizeof *c->region_of);
    c->region = xcalloc((size_t)k->nparams + 1, sizeof *c->region);
    for (int i = 0; i < k->nparams; i++) {
        c->region_of[i] = -1;
        if (!dtype_is_ptr(k->params[i].dt) || !x->plan.argbytes[i])
            continue;
        const backend_buffer *b = L->args[i].buffer;
        uint64_t lo = b && b->host ? (uint64_t)(uintptr_t)b->host : L->args[i].value.u;
        uint64_t bytes = b && b->host ? b->size : x->plan.argbytes[i];
        int shift = log2_of(dtype_size(dtype_elem(k->params[i].dt)));
        int r = 0;
        while (r < c->nregions && c->region[r].lo != lo)
            r++;
        if (r == c->nregions) {
            c->region[r] = (rc_region){.lo = lo, .bytes = bytes, .shift = shift,
                                       .first_arg = i};
            c->nregions++;
        } else if (shift < c->region[r].shift) {
            c->region[r].shift = shift;
        }
        c->region_of[i] = r;
    }
    /* storages that pointers made from integers may reach, by address */
    c->first_extra = c->nregions;
    int nmap = x->plan.int_ptrs ? addrmap_count() : 0;
    if (nmap) {
        c->region = xrealloc(c->region, (size_t)(c->nregions + nmap + 1) * sizeof *c->region);
        for (int i = 0; i < nmap; i++) {
            const addrmap_entry *e = addrmap_nth(i);
            bool known = false;
            for (int r = 0; r < c->first_extra; r++)
                known |= c->region[r].lo == e->base;
            if (!known && e->bytes)
                c->region[c->nregions++] = (rc_region){.lo = e->base, .bytes = e->bytes,
                                                       .first_arg = -1};
        }
    }
    for (int r = 0; r < c->nregions; r++) {
        rc_region *g = &c->region[r];
        int64_t cells = (int64_t)((g->bytes + ((uint64_t)1 << g->shift) - 1) >> g->shift);
        g->npages = (cells + RC_PAGE - 1) >> RC_PAGE_BITS;
        for (int kd = 0; kd < RC_KINDS; kd++)
            g->page[kd] = xcalloc((size_t)g->npages + 1, sizeof *g->page[kd]);
    }
    return c;
}

void exec_check_free(exec_check *c)
{
    if (!c)
        return;
    for (int r = 0; r < c->nregions; r++)
        for (int kd = 0; kd < RC_KINDS; kd++) {
            for (int64_t p = 0; p < c->region[r].npages; p++)
                if (c->region[r].page[kd][p])
                    rc_page_give(c->region[r].page[kd][p], c->words);
            free(c->region[r].page[kd]);
        }
    free(c->region);
    free(c->region_of);
    free(c->minst);
    free(c->minst_pc);
    free(c);
}

/* ---- keys and cells ----------------------------------------------------- */

static uint64_t rc_key(int64_t pid, uint32_t minst, int64_t lane)
{
    uint64_t m = minst < RC_MINST_MAX ? minst : RC_MINST_MAX;
    uint64_t l = lane < RC_LANE_MAX ? (uint64_t)lane : RC_LANE_MAX;
    return (uint64_t)pid << RC_PID_SHIFT | m << RC_MINST_SHIFT | l;
}

static int64_t rc_pid(uint64_t key) { return (int64_t)(key >> RC_PID_SHIFT); }

/* The words of cell `cell` of region g for kind kd; made when make, else
 * NULL while its page is untouched. */
static uint64_t *rc_cell(const exec_check *c, rc_region *g, int kd, uint64_t cell, bool make)
{
    uint64_t **slot = &g->page[kd][cell >> RC_PAGE_BITS];
    uint64_t *pg = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
    if (!pg && make) {
        uint64_t *fresh = rc_page_take(c->words);
        uint64_t *seen = NULL;
        if (__atomic_compare_exchange_n(slot, &seen, fresh, false, __ATOMIC_ACQ_REL,
                                        __ATOMIC_ACQUIRE))
            pg = fresh;
        else {
            rc_page_give(fresh, c->words);
            pg = seen;
        }
    }
    return pg ? pg + c->words * (cell & (RC_PAGE - 1)) : NULL;
}

/* w = max(w, v), atomically. */
static void rc_max(uint64_t *w, uint64_t v)
{
    uint64_t cur = __atomic_load_n(w, __ATOMIC_RELAXED);
    while (v > cur && !__atomic_compare_exchange_n(w, &cur, v, true, __ATOMIC_RELAXED,
                                                   __ATOMIC_RELAXED))
        ;
}

/* w = the lock of every access so far: the first one's, or RC_MIXED. */
static void rc_lock_word(uint64_t *w, uint64_t lock)
{
    uint64_t cur = __atomic_load_n(w, __ATOMIC_RELAXED);
    while (cur != lock && cur != RC_MIXED &&
           !__atomic_compare_exchange_n(w, &cur, cur ? RC_MIXED : lock, true,
                                        __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        ;
}

/* A cell's smallest and largest key of one kind; false when none. */
typedef struct rc_side {
    uint64_t key;
    int kind;                       /* exec_acc */
    uint64_t lock;                  /* the kind's lock word */
} rc_side;

static bool rc_read(const exec_check *c, uint64_t *w, int kd, rc_side *lo, rc_side *hi)
{
    if (!w)
        return false;
    uint64_t a = __atomic_load_n(&w[0], __ATOMIC_RELAXED);
    uint64_t b = __atomic_load_n(&w[1], __ATOMIC_RELAXED);
    uint64_t l = c->words > 2 ? __atomic_load_n(&w[2], __ATOMIC_RELAXED) : RC_NO_LOCK;
    if (!a || !b)
        return false;
    *lo = (rc_side){~a, kd, l};
    *hi = (rc_side){b - 1, kd, l};
    return true;
}

/* Did every access of both sides' kinds hold one and the same lock? */
static bool rc_locked(const rc_side *a, const rc_side *b)
{
    return a->lock == b->lock && a->lock != 0 && a->lock != RC_NO_LOCK &&
           a->lock != RC_MIXED;
}

/* ---- the report ------------------------------------------------------------ */

/* "element 5 of 'out_ptr'": the cell's first byte, named through the
 * lowest parameter on its storage that reaches it. */
static void rc_name_cell(const exec_ctx *x, int r, uint64_t cell, strbuf *out)
{
    const exec_check *c = x->check;
    const rc_region *g = &c->region[r];
    uint64_t ad = g->lo + (cell << g->shift);
    for (int i = g->first_arg; i >= 0 && i < x->k->nparams; i++) {
        if (c->region_of[i] != r)
            continue;
        uint64_t base = x->L->args[i].value.u;
        if (ad < base || ad - base >= x->plan.argbytes[i])
            continue;
        int64_t esz = dtype_size(dtype_elem(x->k->params[i].dt));
        const char *name = x->L->args[i].name ? x->L->args[i].name
                           : x->k->params[i].name ? x->k->params[i].name : "?";
        strbuf_printf(out, "element %" PRIu64 " of '%s'", (ad - base) / (uint64_t)esz, name);
        return;
    }
    if (g->first_arg < 0)
        strbuf_printf(out, "byte %" PRIu64 " of the tensor at 0x%" PRIx64 " (reached through "
                      "a pointer made from an integer)", ad - g->lo, g->lo);
    else
        strbuf_printf(out, "byte %" PRIu64 " of the storage of '%s'", ad - g->lo,
                      x->L->args[g->first_arg].name ? x->L->args[g->first_arg].name : "?");
}

static const char *const rc_verb[RC_KINDS] = {"loads", "stores to", "atomically updates"};

/* "program (1, 0, 0) stores to it (lane 3)" and the place of its access
 * (where is set: ", at f.tk:9:5"). */
static void rc_side_text(const exec_ctx *x, const rc_side *s, bool where, strbuf *out)
{
    int64_t co[3];
    exec_pid_coords(x, rc_pid(s->key), co);
    uint32_t m = (uint32_t)(s->key >> RC_MINST_SHIFT) & RC_MINST_MAX;
    int64_t lane = (int64_t)(s->key & RC_LANE_MAX);
    const ir_inst *in = &x->k->code[x->check->minst_pc[m]];
    char ln[64];
    if (lane == RC_LANE_MAX)
        snprintf(ln, sizeof ln, "a lane");
    else
        backend_lane_name(ln, sizeof ln, backend_lane_type(x->k, in), lane);
    strbuf_printf(out, "program (%" PRId64 ", %" PRId64 ", %" PRId64 ") %s it (%s)", co[0],
                  co[1], co[2], rc_verb[s->kind], ln);
    if (where) {
        const src_file *f = backend_inst_file(x->k, x->L->file, in);
        src_span sp = in->at ? in->at->span : (src_span){0};
        strbuf_printf(out, " at %s:%d:%d", f ? f->name : "?", sp.line, sp.col);
    }
}

/* The message and note of a race between a (elsewhere) and b (here). */
static void rc_message(const exec_ctx *x, int r, uint64_t cell, const rc_side *a,
                       const rc_side *b, strbuf *msg, strbuf *note)
{
    strbuf_puts(msg, "data race on ");
    rc_name_cell(x, r, cell, msg);
    strbuf_puts(msg, ": ");
    rc_side_text(x, b, false, msg);
    strbuf_puts(msg, " here, and ");
    rc_side_text(x, a, true, msg);
    strbuf_puts(msg, ", in the same launch");
    bool sa = a->kind == EXEC_ACC_STORE, sb = b->kind == EXEC_ACC_STORE;
    bool atomic = a->kind == EXEC_ACC_ATOMIC || b->kind == EXEC_ACC_ATOMIC;
    if (sa && sb)
        strbuf_puts(note, "Triton runs the programs of a launch in no particular order, so "
                    "the last store wins by chance: if the programs add up into this "
                    "element, use tl.atomic_add (or another tl.atomic_*); if each program "
                    "should write its own elements, check the grid and the offsets (a "
                    "block size or stride that does not match the grid makes tiles overlap)");
    else if (atomic)
        strbuf_puts(note, "an atomic does not order a plain load or store of the same "
                    "element in another program: make every access to it atomic "
                    "(tl.atomic_add, tl.atomic_xchg), or move the plain access into a "
                    "separate launch");
    else
        strbuf_puts(note, "Triton runs the programs of a launch in no particular order, so "
                    "the load may see the element before or after the store: accumulate "
                    "with tl.atomic_add, split the work into two launches, or give each "
                    "program its own elements (check the grid and the offsets)");
}

/* A race in the cell's words, a before b by program, when there is one
 * (the order of the kinds is fixed: store/store, store/load,
 * store/atomic, load/atomic). */
static bool rc_race_in(const exec_check *c, rc_region *g, uint64_t cell, rc_side *a,
                       rc_side *b)
{
    rc_side lo[RC_KINDS], hi[RC_KINDS];
    bool has[RC_KINDS];
    for (int kd = 0; kd < RC_KINDS; kd++)
        has[kd] = rc_read(c, rc_cell(c, g, kd, cell, false), kd, &lo[kd], &hi[kd]);
    const int S = EXEC_ACC_STORE, Ld = EXEC_ACC_LOAD, A = EXEC_ACC_ATOMIC;
    rc_side found[2];
    bool ok = false;
    if (has[S] && rc_pid(lo[S].key) != rc_pid(hi[S].key) && !rc_locked(&lo[S], &hi[S])) {
        found[0] = lo[S];
        found[1] = hi[S];
        ok = true;
    }
    /* otherwise the stores are one program's (or all under one lock): any
     * other program's load or atomic races with them, unless it held the
     * same lock */
    for (int o = 0; o < 2 && !ok; o++) {
        int kd = o == 0 ? Ld : A;
        if (!has[S] || !has[kd] || rc_locked(&lo[S], &lo[kd]))
            continue;
        int64_t s = rc_pid(lo[S].key);
        if (rc_pid(lo[kd].key) != s)
            found[0] = lo[S], found[1] = lo[kd], ok = true;
        else if (rc_pid(hi[kd].key) != s)
            found[0] = lo[S], found[1] = hi[kd], ok = true;
        else if (rc_pid(hi[S].key) != s)
            found[0] = hi[S], found[1] = lo[kd], ok = true;
    }
    if (!ok && has[Ld] && has[A] && !rc_locked(&lo[Ld], &lo[A])) {
        const rc_side *pairs[4][2] = {{&lo[Ld], &lo[A]}, {&lo[Ld], &hi[A]},
                                      {&hi[Ld], &lo[A]}, {&hi[Ld], &hi[A]}};
        for (int i = 0; i < 4 && !ok; i++)
            if (rc_pid(pairs[i][0]->key) != rc_pid(pairs[i][1]->key))
                found[0] = *pairs[i][0], found[1] = *pairs[i][1], ok = true;
    }
    if (!ok)
        return false;
    bool swap = rc_pid(found[0].key) > rc_pid(found[1].key);
    *a = found[swap];
    *b = found[!swap];
    return true;
}

bool exec_check_races(const exec_check *c)
{
    return c && c->race;
}

bool exec_check_lanes(const exec_check *c, const exec_launch *L, int arg)
{
    return c->race || arg < 0 || (L->args[arg].buffer && L->args[arg].buffer->init);
}

/* --initcheck, after a launch: a storage every byte of which has been
 * written needs its bitmap no more (its accesses go back to the fast
 * paths).  Only the launch's own threads read the bitmaps, and they have
 * ended. */
static void ic_drop_written(const exec_ctx *x)
{
    for (int i = 0; i < x->k->nparams; i++) {
        backend_buffer *b = x->L->args[i].buffer;
        if (!dtype_is_ptr(x->k->params[i].dt) || !b || !b->init)
            continue;
        size_t full = b->size / 8;
        bool all = true;
        for (size_t j = 0; j < full && all; j++)
            all = b->init[j] == 0xff;
        if (all && (b->size & 7))
            all = (b->init[full] & ((1u << (b->size & 7)) - 1)) == ((1u << (b->size & 7)) - 1);
        if (all) {
            free(b->init);
            b->init = NULL;
        }
    }
}

bool exec_check_end(exec_ctx *x)
{
    exec_check *c = x->check;
    if (c && c->init)
        ic_drop_written(x);
    if (!c || !c->race)
        return true;
    for (int r = 0; r < c->nregions; r++) {
        rc_region *g = &c->region[r];
        for (int64_t p = 0; p < g->npages; p++) {
            int touched = 0;
            for (int kd = 0; kd < RC_KINDS; kd++)
                touched += g->page[kd][p] != NULL;
            if (touched < 2 && !g->page[EXEC_ACC_STORE][p])
                continue;           /* loads only, or atomics only: no race */
            for (uint64_t cell = (uint64_t)p << RC_PAGE_BITS;
                 cell < (uint64_t)(p + 1) << RC_PAGE_BITS; cell++) {
                rc_side a, b;
                if (!rc_race_in(c, g, cell, &a, &b))
                    continue;
                strbuf msg = {0}, note = {0};
                rc_message(x, r, cell, &a, &b, &msg, &note);
                uint32_t m = (uint32_t)(b.key >> RC_MINST_SHIFT) & RC_MINST_MAX;
                fflush(x->L->out);
                backend_report_at(x->L->diag, x->k, x->L->file,
                                  &x->k->code[c->minst_pc[m]], strbuf_cstr(&msg),
                                  strbuf_cstr(&note));
                strbuf_free(&msg);
                strbuf_free(&note);
                x->reported = true;
                return false;
            }
        }
    }
    return true;
}

/* A debugger session: does the access (kind kd, key) that program pid
 * just made to the cell race with what other programs did to it?  The
 * race then fails the program here. */
static bool rc_now(exec_prog *P, const ir_inst *in, int r, uint64_t cell, int kd,
                   uint64_t key)
{
    exec_check *c = P->x->check;
    rc_region *g = &c->region[r];
    for (int o = 0; o < RC_KINDS; o++) {
        if (kd != EXEC_ACC_STORE && o == kd)
            continue;               /* load/load, atomic/atomic */
        rc_side lo, hi;
        if (!rc_read(c, rc_cell(c, g, o, cell, false), o, &lo, &hi))
            continue;
        const rc_side *other = rc_pid(lo.key) != P->pid ? &lo
                               : rc_pid(hi.key) != P->pid ? &hi : NULL;
        if (!other || (P->lock && lo.lock == P->lock))
            continue;
        rc_side me = {key, kd, P->lock ? P->lock : RC_NO_LOCK};
        strbuf msg = {0}, note = {0};
        rc_message(P->x, r, cell, other, &me, &msg, &note);
        exec_fail(P, in, strbuf_cstr(&note), "%s", strbuf_cstr(&msg));
        strbuf_free(&msg);
        strbuf_free(&note);
        return false;
    }
    return true;
}

/* ---- initialisation ---------------------------------------------------------- */

/* The bits of the esz bytes at byte off of a bitmap: within one byte of
 * it for an aligned element of up to 8 bytes. */
static unsigned char ic_mask(uint64_t off, int esz)
{
    return (unsigned char)(((1u << esz) - 1u) << (off & 7));
}

static bool ic_fail(exec_prog *P, const ir_inst *in, int kd, int64_t lane, int arg,
                    uint64_t ad, const backend_buffer *b)
{
    const exec_ctx *x = P->x;
    char ln[64], from[320] = "", what[320];
    exec_lane_name(ln, sizeof ln, exec_lane_type(P, in), lane);
    if (b->init_from)
        snprintf(from, sizeof from, " (the tensor was made by %s)", b->init_from);
    if (arg >= 0) {
        int64_t esz = dtype_size(dtype_elem(x->k->params[arg].dt));
        const char *name = x->L->args[arg].name ? x->L->args[arg].name
                           : x->k->params[arg].name ? x->k->params[arg].name : "?";
        snprintf(what, sizeof what, "%s '%s' in program (%" PRId64 ", %" PRId64 ", %" PRId64
                 "): %s reads element %" PRId64, kd == EXEC_ACC_LOAD ? "from" : "in", name,
                 P->coord[0], P->coord[1], P->coord[2], ln,
                 (int64_t)(ad - x->L->args[arg].value.u) / esz);
    } else {
        snprintf(what, sizeof what, "through a pointer made from an integer in program (%"
                 PRId64 ", %" PRId64 ", %" PRId64 "): %s reads byte %" PRIu64 " of its tensor",
                 P->coord[0], P->coord[1], P->coord[2], ln,
                 ad - (uint64_t)(uintptr_t)b->host);
    }
    return exec_fail(P, in,
                     "torch.empty and its kin (empty_like, new_empty, empty_strided) "
                     "give memory with no values: write every element before a kernel "
                     "reads it (a kernel's store, fill_, copy_ or an assignment), or make "
                     "the tensor with torch.zeros",
                     "%s of uninitialised memory %s, which nothing has written%s",
                     kd == EXEC_ACC_LOAD ? "load" : "atomic update", what, from);
}

/* ---- the hook ------------------------------------------------------------------- */

/* The parameter whose bytes hold [ad, ad + esz): hint first (the pointer's
 * argument, when the IR knows it), else a search; -1 for none. */
static int arg_of(const exec_ctx *x, int hint, uint64_t ad, int esz)
{
    const exec_launch *L = x->L;
    if (hint >= 0 && ad - L->args[hint].value.u < x->plan.argbytes[hint] &&
        x->plan.argbytes[hint] - (ad - L->args[hint].value.u) >= (uint64_t)esz)
        return hint;
    for (int j = 0; j < x->k->nparams; j++)
        if (dtype_is_ptr(x->k->params[j].dt) && ad - L->args[j].value.u < x->plan.argbytes[j] &&
            x->plan.argbytes[j] - (ad - L->args[j].value.u) >= (uint64_t)esz)
            return j;
    return -1;
}

/* The region of no argument that holds ad (they are sorted by address),
 * or -1. */
static int extra_region_of(const exec_check *c, uint64_t ad)
{
    int lo = c->first_extra, hi = c->nregions;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (c->region[mid].lo + c->region[mid].bytes <= ad)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < c->nregions && ad >= c->region[lo].lo ? lo : -1;
}

/* Check (or mark) the esz bytes at ad, in storage b, for --initcheck;
 * false after failing P. */
static bool ic_access(exec_prog *P, const ir_inst *in, exec_acc kind, int64_t lane, int arg,
                      uint64_t ad, int esz, const backend_buffer *b)
{
    if (!b || !b->init)
        return true;
    uint64_t off = ad - (uint64_t)(uintptr_t)b->host;
    if (off >= b->size)
        return true;
    unsigned char m = ic_mask(off, esz);
    unsigned char *w = &b->init[off >> 3];
    bool written = (__atomic_load_n(w, __ATOMIC_RELAXED) & m) == m;
    if (kind != EXEC_ACC_STORE && !written)
        return ic_fail(P, in, kind, lane, arg, ad, b);
    if (kind != EXEC_ACC_LOAD && !written)
        __atomic_fetch_or(w, m, __ATOMIC_RELAXED);
    return true;
}

void exec_check_lock(exec_prog *P, ir_atomic op, uint64_t ad, bool ok)
{
    if (!P->x->check->race)
        return;
    if (op == IR_ATOMIC_CAS && ok && !P->lock)
        P->lock = ad;
    else if (op == IR_ATOMIC_XCHG && ad == P->lock)
        P->lock = 0;
}

bool exec_check_access(exec_prog *P, const ir_inst *in, exec_acc kind, int32_t pslot,
                       const uint64_t *ptr, int64_t sp, const uint8_t *mask, int64_t sm,
                       int64_t n, int esz)
{
    exec_ctx *x = P->x;
    exec_check *c = x->check;
    int hint = x->k->slots[pslot].ptr_arg;
    /* every active lane is in the pointer's argument (exec_mem.c's
     * check): without a bitmap there, --initcheck alone has nothing to do */
    if (!c->race && hint >= 0 &&
        (!x->L->args[hint].buffer || !x->L->args[hint].buffer->init))
        return true;
    uint32_t minst = c->race ? c->minst[in - x->k->code] : 0;
    uint64_t lock = P->lock ? P->lock : RC_NO_LOCK;
    for (int64_t i = 0; i < n; i++) {
        if (mask && !mask[i * sm])
            continue;
        uint64_t ad = ptr[i * sp];
        int arg = arg_of(x, hint, ad, esz);
        if (c->init) {
            const backend_buffer *b = NULL;
            if (arg >= 0) {
                b = x->L->args[arg].buffer;
            } else if (!x->L->reloc) {      /* at the host's addresses */
                const addrmap_entry *e = addrmap_get(addrmap_find(ad));
                b = e ? e->owner : NULL;
            }
            if (!ic_access(P, in, kind, i, arg, ad, esz, b))
                return false;
        }
        if (c->race) {
            int r = arg >= 0 ? c->region_of[arg] : extra_region_of(c, ad);
            if (r < 0)
                continue;
            rc_region *g = &c->region[r];
            uint64_t key = rc_key(P->pid, minst, i);
            uint64_t first = (ad - g->lo) >> g->shift;
            uint64_t last = (ad + (uint64_t)esz - 1 - g->lo) >> g->shift;
            for (uint64_t cell = first; cell <= last; cell++) {
                uint64_t *w = rc_cell(c, g, kind, cell, true);
                rc_max(&w[0], ~key);
                rc_max(&w[1], key + 1);
                if (c->words > 2)
                    rc_lock_word(&w[2], lock);
                if (x->session && !rc_now(P, in, r, cell, kind, key))
                    return false;
            }
            if (kind == EXEC_ACC_STORE && ad == P->lock)
                P->lock = 0;            /* a plain store releases it too */
        }
    }
    return true;
}
