/* trace.h - the access recorder of a launch (tritsim run --viz): which
 * program loaded, stored or atomically updated which element of which
 * pointer argument.  A backend that can record (the CPU executor,
 * cpu/exec_mem.c) appends one event per lane of each LOAD, STORE and
 * ATOMIC when backend_launch.trace is set, and nothing at all otherwise.
 *
 * Bounded: at most max_events events are kept per launch; the rest are
 * only counted (dropped), so a huge launch costs memory up to the cap and
 * time, never more.  Thread-safe: programs of a launch run on several
 * threads and append under the recorder's lock, a batch (one instruction's
 * lanes) at a time.  The order of the events is the order the threads
 * appended them in; readers must not depend on it.
 *
 * Who fills what: the caller (viz/, through the launcher) sets want and
 * max_events with trace_init, the backend appends with trace_add, the
 * caller reads ev[0..n) after the launch and frees with trace_free. */
#ifndef TRITSIM_TRACE_H
#define TRITSIM_TRACE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

/* What a lane did (bits of trace_event.what). */
enum {
    TRACE_LOAD = 1,
    TRACE_STORE = 2,
    TRACE_ATOMIC = 4,
    TRACE_MASKED = 8,       /* the lane was masked off: its address was
                               computed, nothing was read or written */
    TRACE_OOB = 16,         /* an active lane outside its tensor (the
                               launch stops there with an error) */
};

/* One lane of one memory instruction. */
typedef struct trace_event {
    int64_t elem;           /* element index from the argument's address
                               (in its parameter's element type; may be
                               negative or past the end with TRACE_OOB or
                               TRACE_MASKED) */
    int32_t pid;            /* the program: the backend's linear id
                               (x fastest: x + gx * (y + gy * z)) */
    int16_t arg;            /* ir_kernel.params index of the pointer */
    uint8_t what;           /* TRACE_* bits */
} trace_event;

typedef struct backend_trace {
    bool *want;             /* per parameter: record accesses through it */
    int nparams;
    int64_t max_events;
    pthread_mutex_t lock;   /* guards what follows */
    trace_event *ev;
    int64_t n, cap;
    int64_t dropped;        /* events past max_events, not kept */
    int64_t unplaced;       /* lanes that pointed into no recorded argument */
} backend_trace;

/* A recorder for a kernel of nparams parameters, recording none of them
 * until want[i] is set. */
void trace_init(backend_trace *t, int nparams, int64_t max_events);
void trace_free(backend_trace *t);
/* Append n events (under the lock); those past the cap are counted. */
void trace_add(backend_trace *t, const trace_event *ev, int64_t n);
/* Count n lanes that pointed into no recorded argument. */
void trace_unplaced(backend_trace *t, int64_t n);

#endif
