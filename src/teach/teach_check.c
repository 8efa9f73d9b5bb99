/* teach_check.c - the grader behind `tritsim check`: runs the learner's
 * file and the exercise's grader (NAME.check.tk) in one host, records
 * which program wrote which element, by a store or an atomic update (the
 * launches' access records, alog.h, through the host's recorder), for the
 * learner's kernel and for the reference, and turns a difference into
 * words a learner can act on: a missing mask, a wrong stride, an offset
 * that forgets the program id, a grid too small, elements no program
 * wrote, two programs racing for one element (a plain store and another
 * program's write; atomic updates of several programs are no race).
 *
 * The learner's file and the grader (NAME.check.tk) are one program: the
 * grader's text is appended to the learner's, so that every message about
 * the learner's code names its own lines, and the program runs with
 * __name__ "__check__" (the learner's example under `if __name__ ==
 * "__main__":` does not run).  The grader uses the module tritsim_check:
 *     tritsim_check.case(desc)          a new case ("n = 37, bs = 8")
 *     tritsim_check.trace(role)         "learner", "reference" or None:
 *                                       whose launches are recorded
 *     tritsim_check.compare(name, got, want, tol=0, order=False)
 *         prints "ok" for the case, or explains what is wrong and raises
 *         SystemExit(1); order: each program must also store exactly the
 *         elements the reference's program of that id stores.
 *     tritsim_check.halo(name)          the kernel's loads of tensor name
 *                                       reach past both of its ends on
 *                                       purpose (a convolution's taps):
 *                                       lanes outside it want a mask */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "alog.h"
#include "arena.h"
#include "backend.h"
#include "diag.h"
#include "host.h"
#include "parse.h"
#include "strbuf.h"
#include "teach_impl.h"
#include "tensor.h"
#include "val.h"

enum { CK_LEARNER, CK_REFERENCE, CK_ROLES };

/* One active lane of a STORE or an ATOMIC (both write their element). */
typedef struct ck_store {
    uint64_t addr;
    bool atomic;            /* an atomic update: programs may share it */
    int64_t coord[3];
    int64_t lane[3];        /* the lane's coordinates in its tile */
    int64_t shape[3];       /* the tile's shape (1 past its rank) */
    int lrank;
    size_t seq;             /* its place in the order of the stores */
} ck_store;

/* One active lane of a LOAD inside its tensor (the reference's). */
typedef struct ck_read {
    uint64_t base;          /* the tensor: its pointer argument's address */
    int launch;             /* the role's launch (1 for the first) */
    int64_t nth;            /* which load of the tensor in its program
                               (ck_nth_of) */
    int64_t elem;
    int64_t coord[3];
    int64_t lane[3];
    int64_t shape[3];
} ck_read;

/* The writes of one role's launches in the current case (and, for the
 * reference, its loads). */
typedef struct ck_log {
    ck_store *v;
    size_t n, cap;
    ck_read *reads;
    size_t nreads, capreads;
    int launches;
    int64_t grid[3];        /* of the last launch */
    int rank;
} ck_log;

/* The first failed access's lanes outside their tensor. */
typedef struct ck_outside {
    int64_t coord[3];
    int64_t lane[3];
    int64_t shape[3];
    int lrank;
    bool is_store;
    char arg[64];
    uint64_t base;          /* the tensor: its pointer argument's address */
    int launch;             /* the role's launch, -1 outside a role's */
    int64_t nth;            /* a load: which of the tensor's in its program
                               (ck_nth_of), else -1 */
    int64_t elem, numel;
} ck_outside;

typedef struct ck_state {
    int role;               /* CK_LEARNER, CK_REFERENCE, or -1 */
    ck_log log[CK_ROLES];
    ck_outside *out;
    size_t nout, capout;
    int64_t out_coord[3];   /* the program the outside lanes belong to */
    char desc[256];         /* the current case */
    int lines;              /* the learner's file's lines: the grader's follow */
    int cases, passed;
    bool explained;         /* a failure has been explained */
    char halo[4][64];       /* tensors read past both ends on purpose */
    int nhalo;
    FILE *o;
    access_log rec;         /* the launch being recorded */
    alog_arg *args;         /* its parameters */
} ck_state;

static ck_state *ck_cur;   /* the grading in progress (one at a time) */

/* ---- the record ------------------------------------------------------------ */

/* The lane's coordinates in its tile (out, shape: 1 past the tile's rank,
 * at most 3 axes); the tile's rank, 1 for a scalar or an unnamed shape. */
static int ck_lane_coords(const access_log *t, const alog_event *e, int64_t out[3],
                          int64_t shape[3])
{
    const alog_shape *sh = e->shape < t->nshapes ? &t->shapes[e->shape] : NULL;
    int nd = !sh ? 0 : sh->ndim > 3 ? 3 : sh->ndim;
    int64_t rest = e->lane;
    out[0] = out[1] = out[2] = 0;
    shape[0] = shape[1] = shape[2] = 1;
    for (int d = 0; d < nd; d++)
        shape[d] = sh->dims[d];
    if (nd == 0) {
        out[0] = rest;
        return 1;
    }
    for (int d = nd - 1; d >= 0; d--) {
        int64_t n = sh->dims[d] > 0 ? sh->dims[d] : 1;
        out[d] = rest % n;
        rest /= n;
    }
    return nd;
}

/* The host's recorder (host.h): every launch is recorded, the grader's
 * own included (its failed accesses are explained too). */
static access_log *ck_rec_begin(void *ctx, const char *kernel, const int64_t grid[3],
                                int rank, int nparams, const alog_arg *args)
{
    ck_state *s = ctx;
    (void)kernel;
    if (s->role >= 0) {
        ck_log *g = &s->log[s->role];
        g->launches++;
        memcpy(g->grid, grid, sizeof g->grid);
        g->rank = rank;
    }
    alog_init(&s->rec, nparams, grid, -1);
    s->args = xcalloc((size_t)nparams + 1, sizeof *s->args);
    memcpy(s->args, args, (size_t)nparams * sizeof *args);
    for (int i = 0; i < nparams; i++)
        if (args[i].tensor)
            alog_want(&s->rec, i, 0, false);
    return &s->rec;
}

/* An active lane stored or updated atomically (role >= 0: it is kept). */
static void ck_store_lane(ck_state *s, const access_log *t, const alog_event *e,
                          const int64_t coord[3])
{
    ck_log *g = &s->log[s->role];
    if (g->n == g->cap) {
        g->cap = g->cap ? 2 * g->cap : 256;
        g->v = xrealloc(g->v, g->cap * sizeof *g->v);
    }
    const alog_arg *a = &s->args[e->arg];
    ck_store *st = &g->v[g->n];
    st->seq = g->n++;
    st->atomic = e->what & ALOG_ATOMIC;
    st->addr = a->addr + (uint64_t)(e->elem * (int64_t)dtype_size(a->dt));
    memcpy(st->coord, coord, sizeof st->coord);
    st->lrank = ck_lane_coords(t, e, st->lane, st->shape);
}

/* Which of its program's loads of one tensor with one tile shape a load
 * is: the n-th (from 0) of them, so that the learner's and the
 * reference's loads of a tensor can be paired in the order they come. */
typedef struct ck_nth {
    int16_t arg;
    uint8_t shape;
    uint32_t access;        /* the last such load's alog_event.access */
    int64_t n;              /* its number among them */
} ck_nth;

/* The number of load e among its program's loads through the same
 * argument with the same tile shape; tab (*n entries, *cap allocated)
 * holds the program's loads so far. */
static int64_t ck_nth_of(ck_nth **tab, int *n, int *cap, const alog_event *e)
{
    for (int i = 0; i < *n; i++) {
        ck_nth *c = &(*tab)[i];
        if (c->arg != e->arg || c->shape != e->shape)
            continue;
        if (c->access != e->access) {
            c->access = e->access;
            c->n++;
        }
        return c->n;
    }
    if (*n == *cap) {
        *cap = *cap ? 2 * *cap : 16;
        *tab = xrealloc(*tab, (size_t)*cap * sizeof **tab);
    }
    (*tab)[(*n)++] = (ck_nth){.arg = e->arg, .shape = e->shape, .access = e->access};
    return 0;
}

/* An active lane of the reference's loads, inside its tensor: the nth
 * load of its kind in its program, in the role's launch-th launch. */
static void ck_read_lane(ck_state *s, const access_log *t, const alog_event *e,
                         const int64_t coord[3], int launch, int64_t nth)
{
    ck_log *g = &s->log[CK_REFERENCE];
    if (g->nreads == g->capreads) {
        g->capreads = g->capreads ? 2 * g->capreads : 256;
        g->reads = xrealloc(g->reads, g->capreads * sizeof *g->reads);
    }
    ck_read *r = &g->reads[g->nreads++];
    r->base = s->args[e->arg].addr;
    r->elem = e->elem;
    r->launch = launch;
    r->nth = nth;
    memcpy(r->coord, coord, sizeof r->coord);
    ck_lane_coords(t, e, r->lane, r->shape);
}

/* An active lane of a failed access outside its tensor: only the first
 * failed access's (its program is the one reported). */
static void ck_outside_lane(ck_state *s, const access_log *t, const alog_event *e,
                            const int64_t coord[3], int launch, int64_t nth)
{
    if (s->nout && memcmp(s->out_coord, coord, sizeof s->out_coord))
        return;
    memcpy(s->out_coord, coord, sizeof s->out_coord);
    if (s->nout == s->capout) {
        s->capout = s->capout ? 2 * s->capout : 64;
        s->out = xrealloc(s->out, s->capout * sizeof *s->out);
    }
    const alog_arg *a = &s->args[e->arg];
    ck_outside *o = &s->out[s->nout++];
    memcpy(o->coord, coord, sizeof o->coord);
    o->lrank = ck_lane_coords(t, e, o->lane, o->shape);
    o->is_store = !(e->what & ALOG_LOAD);
    snprintf(o->arg, sizeof o->arg, "%s", a->name ? a->name : "?");
    o->base = a->addr;
    o->launch = launch;
    o->nth = nth;
    o->elem = e->elem;
    o->numel = a->extent;
}

/* The launch has ended: its record, in the order the programs made it
 * (the grader runs on one thread), into the role's stores and the
 * outside lanes. */
static void ck_rec_end(void *ctx, access_log *t, bool ok)
{
    ck_state *s = ctx;
    (void)ok;
    const int64_t *g = t->grid;
    int launch = s->role >= 0 ? s->log[s->role].launches : -1;
    ck_nth *nth = NULL;
    int nnth = 0, cap = 0;
    int32_t pid = -1;
    for (int64_t i = 0; i < t->n; i++) {
        const alog_event *e = &t->ev[i];
        if (e->pid != pid) {        /* one program's events follow each other */
            pid = e->pid;
            nnth = 0;
        }
        int64_t n = (e->what & ALOG_LOAD) ? ck_nth_of(&nth, &nnth, &cap, e) : -1;
        if (e->what & ALOG_MASKED)
            continue;
        /* the program number (alog.h) back into coordinates */
        int64_t coord[3] = {e->pid / (g[1] * g[2]), e->pid / g[2] % g[1], e->pid % g[2]};
        if (e->what & ALOG_OOB)
            ck_outside_lane(s, t, e, coord, launch, n);
        else if (s->role >= 0 && (e->what & (ALOG_STORE | ALOG_ATOMIC)) &&
                 !(e->what & ALOG_FAILED))
            ck_store_lane(s, t, e, coord);
        else if (s->role == CK_REFERENCE && (e->what & ALOG_LOAD) && !(e->what & ALOG_FAILED))
            ck_read_lane(s, t, e, coord, launch, n);
    }
    free(nth);
    alog_free(t);
    free(s->args);
    s->args = NULL;
}

/* ---- words ----------------------------------------------------------------- */

/* "program 3" for a 1-axis grid, else "program (1, 2)"; "Program" at
 * the start of a sentence (b empty). */
static void ck_prog(strbuf *b, const int64_t c[3], int rank)
{
    strbuf_puts(b, b->len ? "program " : "Program ");
    if (rank <= 1)
        strbuf_printf(b, "%" PRId64, c[0]);
    else if (rank == 2)
        strbuf_printf(b, "(%" PRId64 ", %" PRId64 ")", c[0], c[1]);
    else
        strbuf_printf(b, "(%" PRId64 ", %" PRId64 ", %" PRId64 ")", c[0], c[1], c[2]);
}

static void ck_lane(strbuf *b, const int64_t l[3], int lrank)
{
    if (lrank <= 1)
        strbuf_printf(b, "%" PRId64, l[0]);
    else if (lrank == 2)
        strbuf_printf(b, "(%" PRId64 ", %" PRId64 ")", l[0], l[1]);
    else
        strbuf_printf(b, "(%" PRId64 ", %" PRId64 ", %" PRId64 ")", l[0], l[1], l[2]);
}

/* "z[5]" or "out[3, 17]": element flat (row-major) of tensor t. */
static void ck_elem(strbuf *b, const char *name, const tensor *t, int64_t flat)
{
    int64_t idx[8];
    int nd = t->ndim;
    for (int d = nd - 1; d >= 0; d--) {
        int64_t s = t->shape[d] > 0 ? t->shape[d] : 1;
        idx[d] = flat % s;
        flat /= s;
    }
    strbuf_printf(b, "%s[", name);
    for (int d = 0; d < nd; d++)
        strbuf_printf(b, "%s%" PRId64, d ? ", " : "", idx[d]);
    if (nd == 0)
        strbuf_printf(b, "%" PRId64, flat);
    strbuf_puts(b, "]");
}

/* A list of elements (sorted flat indices): "z[2], z[3] and z[5]", a run
 * of a 1-d tensor as "z[32:37] (5 elements)", at most 4 named. */
static void ck_elems(strbuf *b, const char *name, const tensor *t, const int64_t *v, size_t n)
{
    if (t->ndim == 1 && n > 2 && v[n - 1] - v[0] == (int64_t)n - 1) {
        strbuf_printf(b, "%s[%" PRId64 ":%" PRId64 "] (%zu elements)", name, v[0],
                      v[n - 1] + 1, n);
        return;
    }
    size_t show = n > 4 ? 3 : n;
    for (size_t i = 0; i < show; i++) {
        if (i)
            strbuf_puts(b, i + 1 == n ? " and " : ", ");
        ck_elem(b, name, t, v[i]);
    }
    if (show < n)
        strbuf_printf(b, " and %zu more", n - show);
}

static void ck_num(strbuf *b, double v, bool is_float)
{
    if (isnan(v))
        strbuf_puts(b, "nan");
    else if (isinf(v))
        strbuf_puts(b, v < 0 ? "-inf" : "inf");
    else if (!is_float)
        strbuf_printf(b, "%.0f", v);
    else if (v == floor(v) && fabs(v) < 1e15)
        strbuf_printf(b, "%.1f", v);
    else
        strbuf_printf(b, "%.6g", v);
}

/* Print one paragraph of the explanation, indented. */
static void ck_say(ck_state *s, strbuf *b)
{
    fprintf(s->o, "    %s\n", strbuf_cstr(b));
    strbuf_clear(b);
}

/* ---- the elements each program stored -------------------------------------- */

/* Who wrote element i of a tensor (stores and atomic updates): the first
 * write's program and lane, and whether two programs race for it: one
 * stored it with a plain store and another wrote it too.  Atomic updates
 * of several programs on one element are not a race. */
typedef struct ck_who {
    int n;                  /* writes */
    bool shared;            /* raced for, by programs racer and other */
    int64_t coord[3];
    int64_t racer[3], other[3];
    int64_t lane[3];
    int lrank;
    bool plain, two;        /* a plain store seen; a second writer seen */
    int64_t store[3];       /* plain: the first plain store's program */
    int64_t second[3];      /* two: a program other than coord's */
} ck_who;

/* Element w's writes so far, and one more by program c (a plain store
 * unless atomic): a race, its two programs in w, when the new write
 * meets another program's write and one of the two is a plain store. */
static void ck_who_add(ck_who *w, const int64_t c[3], bool atomic)
{
    size_t cs = 3 * sizeof *c;
    const int64_t *rival = NULL;
    if (!atomic && memcmp(w->coord, c, cs))
        rival = w->coord;
    else if (!atomic && w->two && memcmp(w->second, c, cs))
        rival = w->second;
    else if (w->plain && memcmp(w->store, c, cs))
        rival = w->store;
    if (rival && !w->shared) {
        w->shared = true;
        memcpy(w->racer, rival, cs);
        memcpy(w->other, c, cs);
    }
    if (!w->two && memcmp(w->coord, c, cs)) {
        w->two = true;
        memcpy(w->second, c, cs);
    }
    if (!atomic && !w->plain) {
        w->plain = true;
        memcpy(w->store, c, cs);
    }
}

/* Map log g's writes into tensor t (contiguous): who[i] for each element. */
static void ck_map(const ck_log *g, const tensor *t, ck_who *who)
{
    int64_t numel = tensor_numel(t);
    uint64_t base = (uint64_t)(uintptr_t)tensor_addr(t);
    int64_t esz = dtype_size(t->type);
    for (size_t k = 0; k < g->n; k++) {
        const ck_store *st = &g->v[k];
        if (st->addr < base || (st->addr - base) % (uint64_t)esz)
            continue;
        int64_t i = (int64_t)((st->addr - base) / (uint64_t)esz);
        if (i >= numel)
            continue;
        ck_who *w = &who[i];
        if (w->n == 0) {
            memcpy(w->coord, st->coord, sizeof w->coord);
            memcpy(w->lane, st->lane, sizeof w->lane);
            w->lrank = st->lrank;
        }
        ck_who_add(w, st->coord, st->atomic);
        w->n++;
    }
}

/* The order of a sorted log: by program in launch order (axis 0
 * fastest), then lane, then the order of the stores. */
static int ck_key(const int64_t ca[3], const int64_t la[3], const int64_t cb[3],
                  const int64_t lb[3])
{
    for (int d = 2; d >= 0; d--)
        if (ca[d] != cb[d])
            return ca[d] < cb[d] ? -1 : 1;
    for (int d = 0; d < 3; d++)
        if (la[d] != lb[d])
            return la[d] < lb[d] ? -1 : 1;
    return 0;
}

static int ck_store_cmp(const void *pa, const void *pb)
{
    const ck_store *a = pa, *b = pb;
    int k = ck_key(a->coord, a->lane, b->coord, b->lane);
    return k ? k : (a->seq > b->seq) - (a->seq < b->seq);
}

/* Sort a log (ck_key), for the searches below. */
static void ck_sort(ck_log *g)
{
    if (g->n > 1)
        qsort(g->v, g->n, sizeof *g->v, ck_store_cmp);
}

/* The first store of sorted log g at or after (c, l) in its order. */
static size_t ck_lower(const ck_log *g, const int64_t c[3], const int64_t l[3])
{
    size_t lo = 0, hi = g->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (ck_key(g->v[mid].coord, g->v[mid].lane, c, l) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Does sorted log g have a store of program c? */
static bool ck_has_program(const ck_log *g, const int64_t c[3])
{
    static const int64_t first[3] = {INT64_MIN, INT64_MIN, INT64_MIN};
    size_t k = ck_lower(g, c, first);
    return k < g->n && !memcmp(g->v[k].coord, c, sizeof g->v[k].coord);
}

/* Element program c's lane l stored into t (its first store there), or -1;
 * g sorted. */
static int64_t ck_lane_elem(const ck_log *g, const tensor *t, const int64_t c[3],
                            const int64_t l[3])
{
    uint64_t base = (uint64_t)(uintptr_t)tensor_addr(t);
    int64_t esz = dtype_size(t->type), numel = tensor_numel(t);
    for (size_t k = ck_lower(g, c, l); k < g->n; k++) {
        const ck_store *st = &g->v[k];
        if (ck_key(st->coord, st->lane, c, l))
            break;
        int64_t d = (int64_t)(st->addr - base);
        if (d >= 0 && d % esz == 0 && d / esz < numel)
            return d / esz;
    }
    return -1;
}

/* Does one lane further along an axis of the tile from r's lane move as
 * far in the learner's program c as in the reference's?  When not, say so
 * (a wrong stride) and return true. */
static bool ck_stride(ck_state *s, const char *name, const tensor *got, const tensor *want,
                      const int64_t c[3], int rank, const ck_store *r, strbuf *b)
{
    const ck_log *L = &s->log[CK_LEARNER], *R = &s->log[CK_REFERENCE];
    int64_t er = ck_lane_elem(R, want, c, r->lane), el = ck_lane_elem(L, got, c, r->lane);
    if (er < 0 || el < 0)
        return false;
    for (int d = 0; d < r->lrank; d++) {
        int64_t l2[3];
        memcpy(l2, r->lane, sizeof l2);
        l2[d]++;
        int64_t er2 = ck_lane_elem(R, want, c, l2), el2 = ck_lane_elem(L, got, c, l2);
        if (er2 < 0 || el2 < 0 || er2 - er == el2 - el)
            continue;
        int64_t want_step = er2 - er, got_step = el2 - el;
        ck_prog(b, c, rank);
        strbuf_puts(b, " stored lane ");
        ck_lane(b, r->lane, r->lrank);
        strbuf_puts(b, " to ");
        ck_elem(b, name, got, el);
        strbuf_puts(b, " and lane ");
        ck_lane(b, l2, r->lrank);
        strbuf_puts(b, " to ");
        ck_elem(b, name, got, el2);
        strbuf_printf(b, ": one lane further along axis %d of the block moves %" PRId64
                      " element%s, and should move %" PRId64 ".", d, got_step,
                      got_step == 1 || got_step == -1 ? "" : "s", want_step);
        for (int k2 = 0; k2 < want->ndim; k2++)
            if (want->shape[k2] > 1 && want->strides[k2] == want_step) {
                strbuf_printf(b, " %" PRId64 " is the stride of %s's dimension %d "
                              "(%s.stride(%d)): check the stride the offsets of that "
                              "axis are multiplied by.", want_step, name, k2, name, k2);
                break;
            }
        ck_say(s, b);
        return true;
    }
    return false;
}

/* Compare program c's stores in the learner's and the reference's logs
 * (into got and want, which have one shape).  Explains the first
 * difference and returns true, or false when they store alike. */
static bool ck_compare_program(ck_state *s, const char *name, const tensor *got,
                               const tensor *want, const int64_t c[3], int rank, strbuf *b)
{
    const ck_log *L = &s->log[CK_LEARNER], *R = &s->log[CK_REFERENCE];
    bool any = ck_has_program(L, c);
    static const int64_t first[3] = {INT64_MIN, INT64_MIN, INT64_MIN};
    size_t from = ck_lower(R, c, first);
    /* the program's steps between lanes, from its first lane */
    if (any && from < R->n && ck_stride(s, name, got, want, c, rank, &R->v[from], b))
        return true;
    /* the reference's lanes of c, in order */
    for (size_t k = from; k < R->n; k++) {
        const ck_store *r = &R->v[k];
        if (memcmp(r->coord, c, sizeof r->coord))
            break;
        int64_t er = ck_lane_elem(R, want, c, r->lane);
        int64_t el = ck_lane_elem(L, got, c, r->lane);
        if (er == el)
            continue;
        if (!any) {
            ck_prog(b, c, rank);
            strbuf_puts(b, " stored nothing; it should store ");
            ck_elem(b, name, want, er);
            strbuf_puts(b, " and the rest of its block. Did its mask switch every lane off "
                        "(offsets past the end), or does its tl.store never run?");
            ck_say(s, b);
            return true;
        }
        if (el < 0) {
            strbuf_puts(b, "Lane ");
            ck_lane(b, r->lane, r->lrank);
            strbuf_puts(b, " of ");
            ck_prog(b, c, rank);
            strbuf_puts(b, " stored nothing; it should store ");
            ck_elem(b, name, want, er);
            strbuf_puts(b, ". Is the store's mask too strict (< where it should be <=, or "
                        "the wrong bound)?");
            ck_say(s, b);
            return true;
        }
        /* Both stored, to different elements: a stride along one axis of
         * the lanes, or the block's start. */
        if (ck_stride(s, name, got, want, c, rank, r, b))
            return true;
        ck_prog(b, c, rank);
        strbuf_puts(b, "'s block starts at ");
        ck_elem(b, name, got, el);
        strbuf_puts(b, "; it should start at ");
        ck_elem(b, name, want, er);
        strbuf_puts(b, ".");
        /* the same start as program 0: the offsets forget the program id */
        int64_t zero[3] = {0, 0, 0};
        int64_t e0 = ck_lane_elem(L, got, zero, r->lane);
        if (memcmp(c, zero, sizeof zero) && e0 == el)
            strbuf_puts(b, " That is where program 0's block starts too: the offsets do not "
                        "depend on the program id (tl.program_id).");
        ck_say(s, b);
        return true;
    }
    return false;
}

/* ---- explanations ------------------------------------------------------------- */

static void ck_grid(strbuf *b, const ck_log *g)
{
    if (g->rank <= 1)
        strbuf_printf(b, "(%" PRId64 ",)", g->grid[0]);
    else if (g->rank == 2)
        strbuf_printf(b, "(%" PRId64 ", %" PRId64 ")", g->grid[0], g->grid[1]);
    else
        strbuf_printf(b, "(%" PRId64 ", %" PRId64 ", %" PRId64 ")", g->grid[0], g->grid[1],
                      g->grid[2]);
}

/* The failed case's first line. */
static void ck_fail_line(ck_state *s)
{
    fprintf(s->o, "  FAIL %s\n", s->desc);
    s->explained = true;
}

/* Explain got != want (bad[i] for the wrong elements; nbad of them, maybe
 * 0 when only the order is wrong). */
static void ck_explain(ck_state *s, const char *name, const tensor *got, const tensor *want,
                       const double *gv, const double *wv, const bool *bad, int64_t nbad,
                       int64_t nvalue)
{
    int64_t numel = tensor_numel(want);
    bool is_float = dtype_is_float(want->type);
    const ck_log *L = &s->log[CK_LEARNER], *R = &s->log[CK_REFERENCE];
    strbuf b = {0};
    ck_fail_line(s);
    if (nvalue)
        strbuf_printf(&b, "%s is wrong in %" PRId64 " of its %" PRId64
                      " elements.", name, nvalue, numel);
    else if (nbad)
        strbuf_printf(&b, "%s holds the right values, but your kernel did not write %" PRId64
                      " of its %" PRId64 " elements (they held the right value already).",
                      name, nbad, numel);
    else
        strbuf_printf(&b, "%s has the right values, but its programs did not compute the "
                      "blocks this exercise asks of them: each program must compute the "
                      "block the order described at the top of the exercise gives it.", name);
    ck_say(s, &b);
    if (L->launches == 0) {
        strbuf_puts(&b, "No kernel was launched: call the kernel from the host function.");
        ck_say(s, &b);
        strbuf_free(&b);
        return;
    }
    if (L->n == 0 && nbad) {
        strbuf_puts(&b, "Your kernel stores nothing yet: write its body (the TODO in the "
                    "starting file), ending in a tl.store.");
        ck_say(s, &b);
        strbuf_free(&b);
        return;
    }
    int rank = R->rank > L->rank ? R->rank : L->rank;
    ck_who *lw = xcalloc((size_t)numel + 1, sizeof *lw);
    ck_who *rw = xcalloc((size_t)numel + 1, sizeof *rw);
    int64_t *list = xcalloc((size_t)numel + 1, sizeof *list);
    ck_map(L, got, lw);
    ck_map(R, want, rw);
    bool landed = false;
    for (int64_t i = 0; i < numel && !landed; i++)
        landed = lw[i].n > 0;
    if (!landed) {
        strbuf_printf(&b, "None of your kernel's stores landed in %s, the tensor the host "
                      "function returns: does it return the tensor the kernel writes, and "
                      "does the kernel store through that tensor's pointer?", name);
        ck_say(s, &b);
        free(lw);
        free(rw);
        free(list);
        strbuf_free(&b);
        return;
    }

    /* a grid that differs from the reference's */
    if (memcmp(L->grid, R->grid, sizeof L->grid)) {
        strbuf_puts(&b, "Your launch's grid is ");
        ck_grid(&b, L);
        strbuf_puts(&b, "; for this case it needs ");
        ck_grid(&b, R);
        int64_t nl = L->grid[0] * L->grid[1] * L->grid[2];
        int64_t nr = R->grid[0] * R->grid[1] * R->grid[2];
        strbuf_puts(&b, nl < nr ? ": too few programs. Round the number of blocks up "
                    "(cdiv(n, bs)), not down (n // bs)."
                    : ": more programs than blocks.");
        ck_say(s, &b);
    }
    /* the first program that stores unlike the reference's */
    bool told = false;
    for (size_t k = 0; k < R->n && !told; k++) {
        bool seen = k > 0 && !memcmp(R->v[k - 1].coord, R->v[k].coord, sizeof R->v[k].coord);
        const int64_t *c = R->v[k].coord;
        bool in_grid = c[0] < L->grid[0] && c[1] < L->grid[1] && c[2] < L->grid[2];
        if (!seen && in_grid)
            told = ck_compare_program(s, name, got, want, c, rank, &b);
    }
    /* elements no program wrote */
    size_t nmiss = 0;
    for (int64_t i = 0; i < numel; i++)
        if (bad[i] && lw[i].n == 0)
            list[nmiss++] = i;
    if (nmiss) {
        strbuf_puts(&b, "No program wrote ");
        ck_elems(&b, name, got, list, nmiss);
        strbuf_printf(&b, ": %s still hold%s what %s held before the launch.",
                      nmiss == 1 ? "it" : "they", nmiss == 1 ? "s" : "", name);
        ck_say(s, &b);
    }
    /* elements two programs wrote */
    size_t nshared = 0;
    int64_t first_shared = -1;
    for (int64_t i = 0; i < numel; i++)
        if (lw[i].shared && !rw[i].shared) {
            if (first_shared < 0)
                first_shared = i;
            nshared++;
        }
    if (nshared) {
        const ck_who *w = &lw[first_shared];
        ck_elem(&b, name, got, first_shared);
        strbuf_puts(&b, " was written by ");
        ck_prog(&b, w->racer, rank);
        strbuf_puts(&b, " and by ");
        ck_prog(&b, w->other, rank);
        strbuf_printf(&b, " (%zu element%s had more than one writer): the blocks of the "
                      "programs overlap, so the programs race for those elements.",
                      nshared, nshared == 1 ? "" : "s");
        ck_say(s, &b);
    }
    /* right places, wrong values */
    if (!told && nbad) {
        size_t nw = 0;
        for (int64_t i = 0; i < numel; i++)
            if (bad[i] && lw[i].n)
                list[nw++] = i;
        if (nw) {
            int64_t i = list[0];
            ck_prog(&b, lw[i].coord, rank);
            strbuf_puts(&b, " stored ");
            ck_elem(&b, name, got, i);
            strbuf_puts(&b, " = ");
            ck_num(&b, gv[i], is_float);
            strbuf_puts(&b, "; it should be ");
            ck_num(&b, wv[i], is_float);
            strbuf_printf(&b, " (%zu element%s wrong like this).", nw, nw == 1 ? "" : "s");
            /* the value of another element: loaded from the wrong place */
            int64_t match = -1, nmatch = 0;
            for (int64_t j = 0; j < numel && nmatch < 2; j++)
                if (wv[j] == gv[i]) {
                    match = j;
                    nmatch++;
                }
            if (!isfinite(gv[i]) && isfinite(wv[i])) {
                strbuf_puts(&b, " A nan or inf where a finite value belongs often comes from "
                            "an overflow (exp of a large value is inf: subtract the row's "
                            "max first) or from a division by zero.");
            } else if (nmatch == 1 && match != i) {
                strbuf_puts(&b, " That is the value of ");
                ck_elem(&b, name, want, match);
                strbuf_puts(&b, ": the program stores to the right place but loaded from the "
                            "wrong one; check the offsets of the load.");
            } else {
                strbuf_puts(&b, " The program stores to the right places: check what it "
                            "loads and how it computes the value.");
            }
            ck_say(s, &b);
        }
    }
    free(lw);
    free(rw);
    free(list);
    strbuf_free(&b);
}

/* Does the reference's program of o store with o's lane, in a tile of
 * the same shape (so that the lane means the same element of the block)? */
static bool ck_ref_uses(const ck_state *s, const ck_outside *o)
{
    const ck_log *R = &s->log[CK_REFERENCE];
    for (size_t k = 0; k < R->n; k++) {
        const ck_store *r = &R->v[k];
        if (!memcmp(r->coord, o->coord, sizeof r->coord) &&
            !memcmp(r->shape, o->shape, sizeof r->shape) &&
            !memcmp(r->lane, o->lane, sizeof r->lane))
            return true;
    }
    return false;
}

/* Does the reference's program of o, in its load of o's tensor that
 * pairs with o's (the same launch, the same tile shape, as many such
 * loads before it), read it with o's lane, inside the tensor?  Then the
 * lane stands for a real element and o's offsets are wrong.  The element
 * it reads there widens [*lo, *hi]. */
static bool ck_ref_reads(const ck_state *s, const ck_outside *o, int64_t *lo, int64_t *hi)
{
    const ck_log *R = &s->log[CK_REFERENCE];
    bool found = false;
    if (o->launch < 0 || o->nth < 0)
        return false;
    for (size_t k = 0; k < R->nreads; k++) {
        const ck_read *r = &R->reads[k];
        if (r->base == o->base && r->launch == o->launch && r->nth == o->nth &&
            !memcmp(r->coord, o->coord, sizeof r->coord) &&
            !memcmp(r->shape, o->shape, sizeof r->shape) &&
            !memcmp(r->lane, o->lane, sizeof r->lane)) {
            *lo = r->elem < *lo ? r->elem : *lo;
            *hi = r->elem > *hi ? r->elem : *hi;
            found = true;
        }
    }
    return found;
}

/* Whether the grader declared tensor name a halo (tritsim_check.halo). */
static bool ck_is_halo(const ck_state *s, const char *name)
{
    for (int i = 0; i < s->nhalo; i++)
        if (!strcmp(s->halo[i], name))
            return true;
    return false;
}

/* ck_ref_reads for every outside lane: [*lo, *hi] the elements the
 * reference reads with them. */
static bool ck_ref_reads_all(const ck_state *s, int64_t *lo, int64_t *hi)
{
    *lo = INT64_MAX;
    *hi = INT64_MIN;
    for (size_t i = 0; i < s->nout; i++)
        if (!ck_ref_reads(s, &s->out[i], lo, hi))
            return false;
    return s->nout > 0;
}

/* After a launch stopped with an out-of-bounds access: say which lanes of
 * which program were outside, and what to do: a mask, unless the
 * reference uses those lanes for real elements (then the offsets are
 * wrong). */
static void ck_explain_outside(ck_state *s)
{
    const ck_log *L = &s->log[CK_LEARNER], *R = &s->log[CK_REFERENCE];
    int rank = R->rank > L->rank ? R->rank : L->rank;
    const ck_outside *o = &s->out[0];
    strbuf b = {0};
    ck_fail_line(s);
    fprintf(s->o, "    tritsim stopped the launch: the error above (its lines past %d are "
            "the grader's, which calls your code).\n", s->lines);
    bool before = o->elem < 0;
    int64_t rlo, rhi;
    size_t show = s->nout > 4 ? 3 : s->nout;
    strbuf_puts(&b, s->nout == 1 ? "Lane " : "Lanes ");
    for (size_t i = 0; i < show; i++) {
        if (i)
            strbuf_puts(&b, i + 1 == s->nout ? " and " : ", ");
        ck_lane(&b, s->out[i].lane, s->out[i].lrank);
    }
    if (show < s->nout)
        strbuf_printf(&b, " and %zu more", s->nout - show);
    strbuf_puts(&b, " of ");
    ck_prog(&b, o->coord, rank);
    /* the tensor: x_ptr -> x */
    char arg[64];
    snprintf(arg, sizeof arg, "%s", o->arg);
    size_t al = strlen(arg);
    if (al > 4 && !strcmp(arg + al - 4, "_ptr"))
        arg[al - 4] = 0;
    strbuf_printf(&b, " %s %s %s (%s element %" PRId64, s->nout == 1 ? "is" : "are",
                  before ? "before the start of" : "past the end of", arg,
                  o->is_store ? "writing" : "reading", o->elem);
    int64_t lo = o->elem, hi = o->elem;
    for (size_t i = 1; i < s->nout; i++) {
        lo = s->out[i].elem < lo ? s->out[i].elem : lo;
        hi = s->out[i].elem > hi ? s->out[i].elem : hi;
    }
    if (hi > lo)
        strbuf_printf(&b, " .. element %" PRId64, before ? lo : hi);
    strbuf_printf(&b, " of %s; %s has %" PRId64 " elements)", arg, arg, o->numel);
    if (!o->is_store && ck_is_halo(s, arg))
        strbuf_printf(&b, ": mask %s. Near its edges this kernel reads outside %s on "
                      "purpose, so the load's mask must switch off the lanes before the "
                      "start as well as those past the end (e.g. mask=(offs >= 0) & "
                      "(offs < n), other=0.0).", s->nout == 1 ? "it" : "them", arg);
    else if (before)
        strbuf_puts(&b, ": an offset is negative; check how the offsets are computed.");
    else if (ck_ref_uses(s, o))
        strbuf_puts(&b, ". That lane stands for a real element (the reference's program "
                    "stores with it), so masking it would hide the bug: the offsets of this "
                    "access are wrong.");
    else if (!o->is_store && ck_ref_reads_all(s, &rlo, &rhi)) {
        strbuf_printf(&b, ". The reference's ");
        ck_prog(&b, o->coord, rank);
        strbuf_printf(&b, " reads %s with %s too, inside it (element %" PRId64, arg,
                      s->nout == 1 ? "that lane" : "these lanes", rlo);
        if (rhi > rlo)
            strbuf_printf(&b, " .. element %" PRId64, rhi);
        strbuf_printf(&b, "): %s for real elements, so masking %s would hide the bug: the "
                      "offsets of this load are wrong.", s->nout == 1 ? "it stands" : "they stand",
                      s->nout == 1 ? "it" : "them");
    } else
        strbuf_puts(&b, ": mask them (tl.load and tl.store take mask=..., true for the "
                    "lanes inside the tensor, e.g. offs < n).");
    ck_say(s, &b);
    strbuf_free(&b);
}

/* ---- the tritsim_check module ------------------------------------------------- */

static val ck_fn_case(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                      src_span at)
{
    (void)self;
    val a[1];
    const char *desc;
    if (!host_args(h, at, "case", "desc", argc, argv, kw, a) ||
        !host_to_str(h, a[0], at, "case() argument", &desc))
        return val_err();
    ck_state *s = ck_cur;
    snprintf(s->desc, sizeof s->desc, "%s", desc);
    for (int r = 0; r < CK_ROLES; r++) {
        s->log[r].n = 0;
        s->log[r].nreads = 0;
        s->log[r].launches = 0;
        memset(s->log[r].grid, 0, sizeof s->log[r].grid);
    }
    s->nout = 0;
    s->role = -1;
    s->cases++;
    return val_none();
}

static val ck_fn_trace(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                       src_span at)
{
    (void)self;
    val a[1];
    if (!host_args(h, at, "trace", "role", argc, argv, kw, a))
        return val_err();
    int role = -1;
    if (a[0].kind != VAL_NONE) {
        const char *r;
        if (!host_to_str(h, a[0], at, "trace() argument", &r))
            return val_err();
        role = !strcmp(r, "learner") ? CK_LEARNER : CK_REFERENCE;
    }
    ck_cur->role = role;
    return val_none();
}

/* halo(name): the kernel's loads of tensor name (its pointer parameter
 * name_ptr) reach outside it at both ends on purpose, so a lane outside
 * it, before the start too, wants a mask rather than other offsets. */
static val ck_fn_halo(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                      src_span at)
{
    (void)self;
    val a[1];
    const char *name;
    if (!host_args(h, at, "halo", "name", argc, argv, kw, a) ||
        !host_to_str(h, a[0], at, "halo() argument", &name))
        return val_err();
    ck_state *s = ck_cur;
    if (s->nhalo < (int)(sizeof s->halo / sizeof s->halo[0]))
        snprintf(s->halo[s->nhalo++], sizeof s->halo[0], "%s", name);
    return val_none();
}

/* Raise SystemExit(1): the case failed, stop grading. */
static val ck_stop(host *h, src_span at);

/* requires(name, call): the learner's file must still define the host
 * function the grader calls (call shows how, "copy(x, bs)"). */
static val ck_fn_requires(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                          src_span at)
{
    (void)self;
    val a[2];
    const char *name, *call;
    if (!host_args(h, at, "requires", "name, call", argc, argv, kw, a) ||
        !host_to_str(h, a[0], at, "requires() argument 1", &name) ||
        !host_to_str(h, a[1], at, "requires() argument 2", &call))
        return val_err();
    val f = val_dict_get_str(h->main_globals, name);
    if (f.kind == VAL_FUNC)
        return val_none();
    ck_state *s = ck_cur;
    fprintf(s->o, "  FAIL before the first case\n");
    fprintf(s->o, "    %s has no function %s: the grader calls %s, the host function of "
            "the starting file. Keep its name and parameters.\n", h->file->name, name, call);
    s->explained = true;
    return ck_stop(h, at);
}

static val ck_stop(host *h, src_span at)
{
    val e = exc_new(h, HOST_EXC_SYSTEM_EXIT, val_tuple_of(1, (val[]){val_int(1)}));
    host_raise_value(h, e, at);
    val_unref(e);
    return val_err();
}

static double ck_value(const tensor *t, int64_t i)
{
    dtype_scalar v = tensor_get_flat(t, i);
    if (dtype_is_float(t->type))
        return v.f;
    if (t->type == DTYPE_UINT64)
        return (double)v.u;
    return (double)v.i;
}

static val ck_fn_compare(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                         src_span at)
{
    (void)self;
    ck_state *s = ck_cur;
    val a[5];
    const char *name;
    double tol = 0;
    if (!host_args(h, at, "compare", "name, got, want, tol=, order=", argc, argv, kw, a) ||
        !host_to_str(h, a[0], at, "compare() argument 1", &name) ||
        (a[3].kind != VAL_MISSING && !host_to_float(h, a[3], at, "tol", &tol)))
        return val_err();
    bool order = a[4].kind == VAL_BOOL && a[4].u.b;
    const tensor *want = tensor_of(a[2]);
    const tensor *got = tensor_of(a[1]);
    if (!want)
        return host_error(h, at, "compare(): want must be a tensor");
    if (!got || got->ndim != want->ndim ||
        memcmp(got->shape, want->shape, (size_t)want->ndim * sizeof want->shape[0])) {
        strbuf b = {0};
        ck_fail_line(s);
        if (!got)
            strbuf_printf(&b, "The host function returned no tensor; it should return %s.",
                          name);
        else
            strbuf_printf(&b, "%s has the wrong shape: return the tensor the kernel wrote.",
                          name);
        ck_say(s, &b);
        strbuf_free(&b);
        return ck_stop(h, at);
    }
    int64_t n = tensor_numel(want);
    double *gv = xcalloc((size_t)n + 1, sizeof *gv), *wv = xcalloc((size_t)n + 1, sizeof *wv);
    bool *bad = xcalloc((size_t)n + 1, sizeof *bad);
    int64_t nbad = 0;
    for (int64_t i = 0; i < n; i++) {
        gv[i] = ck_value(got, i);
        wv[i] = ck_value(want, i);
        bool same = fabs(gv[i] - wv[i]) <= tol || (isnan(gv[i]) && isnan(wv[i]));
        bad[i] = !same;
        nbad += !same;
    }
    int64_t nvalue = nbad;      /* wrong values; nbad adds unwritten elements */
    ck_sort(&s->log[CK_LEARNER]);
    ck_sort(&s->log[CK_REFERENCE]);
    bool contiguous = tensor_is_contiguous(got) && tensor_is_contiguous(want);
    if (contiguous) {
        /* An element the reference writes and the learner's kernel does
         * not is wrong even when it holds the right value already (a zero
         * pixel, or the host function returning its input). */
        ck_who *lw = xcalloc((size_t)n + 1, sizeof *lw);
        ck_who *rw = xcalloc((size_t)n + 1, sizeof *rw);
        ck_map(&s->log[CK_LEARNER], got, lw);
        ck_map(&s->log[CK_REFERENCE], want, rw);
        for (int64_t i = 0; i < n; i++)
            if (!bad[i] && rw[i].n && !lw[i].n) {
                bad[i] = true;
                nbad++;
            }
        free(lw);
        free(rw);
    }
    bool order_bad = false;
    if (order && !nbad) {
        /* every program stores where the reference's of its id does */
        const ck_log *L = &s->log[CK_LEARNER], *R = &s->log[CK_REFERENCE];
        for (size_t k = 0; k < R->n && !order_bad; k++)
            order_bad = ck_lane_elem(L, got, R->v[k].coord, R->v[k].lane) !=
                        ck_lane_elem(R, want, R->v[k].coord, R->v[k].lane);
    }
    if (nbad || order_bad) {
        if (contiguous)
            ck_explain(s, name, got, want, gv, wv, bad, nbad, nvalue);
        else {
            ck_fail_line(s);
            fprintf(s->o, "    %s is wrong in %" PRId64 " elements.\n", name, nbad);
        }
    }
    free(gv);
    free(wv);
    free(bad);
    if (nbad || order_bad)
        return ck_stop(h, at);
    fprintf(s->o, "  ok   %s\n", s->desc);
    s->passed++;
    return val_none();
}

/* The image the grayscale exercise's grader uses: TRITSIM_DATA, the
 * installed copy, the source tree's; NULL when none is there. */
static const char *ck_image(void)
{
    static char path[4096];
    const char *env = getenv("TRITSIM_DATA");
    const char *dirs[] = {env, TEACH_DATADIR "/images", TEACH_SRCDIR "/samples/images"};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        if (!dirs[i])
            continue;
        snprintf(path, sizeof path, "%s/pattern.png", dirs[i]);
        FILE *f = fopen(path, "rb");
        if (f) {
            fclose(f);
            return path;
        }
    }
    return NULL;
}

static void ck_register(host *h)
{
    val m = val_module_new("tritsim_check");
    host_def(m, "tritsim_check.requires", ck_fn_requires);
    host_def(m, "tritsim_check.case", ck_fn_case);
    host_def(m, "tritsim_check.trace", ck_fn_trace);
    host_def(m, "tritsim_check.compare", ck_fn_compare);
    host_def(m, "tritsim_check.halo", ck_fn_halo);
    const char *img = ck_image();
    val_object_set(m, "image", img ? val_str_cstr(img) : val_none());
    host_register_module(h, "tritsim_check", m);
}

/* ---- grading ----------------------------------------------------------------- */

int teach_grade(const teach_exercise *e, const char *path, teach_modules_fn init, FILE *out)
{
    char gname[128];
    snprintf(gname, sizeof gname, "%s.check.tk", e->name);
    const char *gtext = teach_file_text(gname);
    src_file *lf = src_read(path);
    if (!lf || !gtext) {
        fprintf(out, "tritsim: cannot read '%s'\n", path);
        src_free(lf);
        return 2;
    }
    /* One program: the learner's text, then the grader's.  The learner's
     * lines keep their numbers in every message; the grader's follow. */
    int lines = lf->nlines;
    if (lf->len && lf->text[lf->len - 1] == '\n' && lines > 0)
        lines--;    /* the line table counts the empty line after the last newline */
    strbuf text = {0};
    strbuf_putn(&text, lf->text, lf->len);
    if (lf->len && lf->text[lf->len - 1] != '\n')
        strbuf_putc(&text, '\n');
    strbuf_puts(&text, gtext);
    src_file *f = src_from_string(path, strbuf_cstr(&text), text.len);
    strbuf_free(&text);
    src_free(lf);
    fflush(out);
    diag_sink d;
    diag_sink_init(&d, stdout);
    arena a;
    arena_init(&a);
    int status = 1;
    ast_node *m = parse_file(f, &d, &a);
    if (d.nerrors) {
        fflush(stdout);
        fprintf(out, "check: %s does not parse (the errors are above)\n", path);
        arena_free(&a);
        src_free(f);
        return 1;
    }
    ck_state s = {.role = -1, .o = out, .lines = lines};
    ck_cur = &s;
    host_recorder rec = {.ctx = &s, .begin = ck_rec_begin, .end = ck_rec_end};
    host *h = host_new(&d, f);
    h->threads = 1;
    h->no_break = true;
    h->recorder = &rec;
    init(h);
    ck_register(h);
    char *argv[] = {(char *)path, NULL};
    fprintf(out, "checking %s (exercise '%s')\n", path, e->name);
    fflush(out);
    /* not "__main__": the learner's example at the bottom stays out */
    int st = host_run_as(h, m, "__check__", 1, argv);
    fflush(stdout);
    if (s.nout && !s.explained) {
        ck_explain_outside(&s);
    } else if (st != 0 && !s.explained) {
        if (s.cases)
            ck_fail_line(&s);
        else
            fprintf(out, "  FAIL before the first case\n");
        fprintf(out, "    Your code stopped with the error above (its lines past %d are the "
                "grader's, which calls your code).\n", s.lines);
    }
    if (st == 0 && s.passed == s.cases && s.cases > 0) {
        fprintf(out, "passed: %d of %d cases\n", s.passed, s.cases);
        status = 0;
    } else if (s.cases == 0) {
        fprintf(out, "failed before the first case; `tritsim check --hint %s` gives a hint\n",
                path);
    } else {
        fprintf(out, "failed: case %d of the exercise's checks; `tritsim check --hint %s` "
                "gives a hint\n", s.passed + 1, path);
    }
    fflush(out);
    h->recorder = NULL;
    host_free(h);
    val_free_all();
    ck_cur = NULL;
    for (int r = 0; r < CK_ROLES; r++) {
        free(s.log[r].v);
        free(s.log[r].reads);
    }
    free(s.out);
    arena_free(&a);
    src_free(f);
    return status;
}
