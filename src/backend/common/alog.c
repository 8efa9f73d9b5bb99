/* alog.c - the access recorder of a launch (alog.h): a growing array of
 * events under a lock, capped, and the per-element maps. */
#include "alog.h"

#include <stdlib.h>
#include <string.h>

#include "arena.h"

void alog_init(access_log *t, int nparams, const int64_t grid[3], int64_t max_events)
{
    memset(t, 0, sizeof *t);
    t->nparams = nparams;
    t->want = xcalloc((size_t)nparams + 1, sizeof *t->want);
    t->map = xcalloc((size_t)nparams + 1, sizeof *t->map);
    for (int d = 0; d < 3; d++)
        t->grid[d] = grid[d];
    t->max_events = max_events < 0 ? INT64_MAX : max_events;
    pthread_mutex_init(&t->lock, NULL);
}

void alog_want(access_log *t, int i, int64_t numel, bool map)
{
    t->want[i] = true;
    if (!map || numel <= 0)
        return;
    alog_map *m = &t->map[i];
    m->numel = numel;
    m->load = xcalloc((size_t)numel, sizeof *m->load);
    m->store = xcalloc((size_t)numel, sizeof *m->store);
    m->flags = xcalloc((size_t)numel, 1);
    memset(m->load, 0xff, (size_t)numel * sizeof *m->load);      /* -1: none */
    memset(m->store, 0xff, (size_t)numel * sizeof *m->store);
}

void alog_free(access_log *t)
{
    for (int i = 0; i < t->nparams; i++) {
        free(t->map[i].load);
        free(t->map[i].store);
        free(t->map[i].flags);
    }
    free(t->map);
    free(t->want);
    free(t->ev);
    pthread_mutex_destroy(&t->lock);
    memset(t, 0, sizeof *t);
}

int64_t trace_prog_number(const access_log *t, int64_t pid)
{
    const int64_t *g = t->grid;
    int64_t c0 = pid % g[0], c1 = pid / g[0] % g[1], c2 = pid / (g[0] * g[1]);
    return (c0 * g[1] + c1) * g[2] + c2;
}

/* *who = the lowest of the programs so far, many set when there are two. */
static void trace_mark(int32_t *who, uint8_t *flags, uint8_t many, int32_t n)
{
    if (*who < 0) {
        *who = n;
    } else if (*who != n) {
        *flags |= many;
        if (n < *who)
            *who = n;
    }
}

/* Event e (its pid a program number) into its argument's map. */
static void alog_map_add(alog_map *m, const alog_event *e)
{
    uint8_t *f = &m->flags[e->elem];
    bool load = e->what & ALOG_LOAD;
    if (e->what & ALOG_MASKED) {
        *f |= load ? ALOG_M_LMASK : ALOG_M_SMASK;
        return;
    }
    if (e->what & ALOG_OOB)
        *f |= ALOG_M_OOB;
    if (e->what & ALOG_ATOMIC)
        *f |= ALOG_M_ATOMIC;
    if (load)
        trace_mark(&m->load[e->elem], f, ALOG_M_LMANY, e->pid);
    else
        trace_mark(&m->store[e->elem], f, ALOG_M_SMANY, e->pid);
}

uint8_t alog_shape_of(access_log *t, int ndim, const int32_t *dims)
{
    if (ndim < 0 || ndim > ALOG_MAX_DIMS)
        return ALOG_NO_SHAPE;
    pthread_mutex_lock(&t->lock);
    int i = 0;
    for (; i < t->nshapes; i++)
        if (t->shapes[i].ndim == ndim &&
            !memcmp(t->shapes[i].dims, dims, (size_t)ndim * sizeof *dims))
            break;
    if (i == t->nshapes && i < ALOG_MAX_SHAPES) {
        t->shapes[i].ndim = ndim;
        memcpy(t->shapes[i].dims, dims, (size_t)ndim * sizeof *dims);
        t->nshapes++;
    }
    pthread_mutex_unlock(&t->lock);
    return i < ALOG_MAX_SHAPES ? (uint8_t)i : ALOG_NO_SHAPE;
}

void alog_add(access_log *t, const alog_event *in, int64_t n)
{
    pthread_mutex_lock(&t->lock);
    for (int64_t i = 0; i < n; i++) {
        alog_event e = in[i];
        int64_t num = trace_prog_number(t, e.pid);
        e.pid = num > INT32_MAX ? INT32_MAX : (int32_t)num;
        alog_map *m = &t->map[e.arg];
        if (m->numel && e.elem >= 0 && e.elem < m->numel)
            alog_map_add(m, &e);
        if (t->n == t->max_events) {
            t->dropped++;
            continue;
        }
        if (t->n == t->cap) {
            int64_t cap = t->cap ? 2 * t->cap : 1024;
            t->cap = cap < t->max_events ? cap : t->max_events;
            t->ev = xrealloc(t->ev, (size_t)t->cap * sizeof *t->ev);
        }
        t->ev[t->n++] = e;
    }
    pthread_mutex_unlock(&t->lock);
}

void alog_unplaced(access_log *t, int64_t n)
{
    pthread_mutex_lock(&t->lock);
    t->unplaced += n;
    pthread_mutex_unlock(&t->lock);
}
