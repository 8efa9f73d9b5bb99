/* trace.c - the access recorder of a launch (trace.h): a growing array of
 * events under a lock, capped. */
#include "trace.h"

#include <stdlib.h>
#include <string.h>

#include "arena.h"

void trace_init(backend_trace *t, int nparams, int64_t max_events)
{
    memset(t, 0, sizeof *t);
    t->nparams = nparams;
    t->want = xcalloc((size_t)nparams + 1, sizeof *t->want);
    t->max_events = max_events;
    pthread_mutex_init(&t->lock, NULL);
}

void trace_free(backend_trace *t)
{
    free(t->want);
    free(t->ev);
    pthread_mutex_destroy(&t->lock);
    memset(t, 0, sizeof *t);
}

void trace_add(backend_trace *t, const trace_event *ev, int64_t n)
{
    pthread_mutex_lock(&t->lock);
    int64_t room = t->max_events - t->n;
    int64_t take = n < room ? n : room < 0 ? 0 : room;
    if (take > 0) {
        if (t->n + take > t->cap) {
            int64_t cap = t->cap ? t->cap : 1024;
            while (cap < t->n + take)
                cap *= 2;
            if (cap > t->max_events)
                cap = t->max_events;
            t->ev = xrealloc(t->ev, (size_t)cap * sizeof *t->ev);
            t->cap = cap;
        }
        memcpy(t->ev + t->n, ev, (size_t)take * sizeof *ev);
        t->n += take;
    }
    t->dropped += n - take;
    pthread_mutex_unlock(&t->lock);
}

void trace_unplaced(backend_trace *t, int64_t n)
{
    pthread_mutex_lock(&t->lock);
    t->unplaced += n;
    pthread_mutex_unlock(&t->lock);
}
