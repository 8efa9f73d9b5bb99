/* alog.h - the access recorder of a launch (tritsim run --viz): which
 * program loaded, stored or atomically updated which element of which
 * pointer argument.  A backend that can record (the CPU executor,
 * cpu/exec_mem.c) appends one event per lane of each LOAD, STORE and
 * ATOMIC when backend_launch.trace is set, and nothing at all otherwise.
 *
 * Two records.  The events: one per lane, at most max_events per launch,
 * the rest only counted (dropped).  The maps: for the arguments given one
 * (alog_want), a summary per element of the tensor (the lowest program
 * that loaded it, that stored it, and flags), complete however many
 * events were dropped, and the same whatever the order the programs ran
 * in; lanes outside the tensor are only in the events.  Memory is
 * bounded by the cap and by the maps the caller asks for.  Thread-safe:
 * programs of a launch run on several threads and append under the
 * recorder's lock, a batch (one instruction's lanes) at a time.  The
 * order of the events is the order the threads appended them in; readers
 * must not depend on it.
 *
 * Who fills what: the caller (viz/, through the launcher) sets want and
 * max_events with alog_init, the backend appends with alog_add, the
 * caller reads ev[0..n) after the launch and frees with alog_free. */
#ifndef TRITSIM_ALOG_H
#define TRITSIM_ALOG_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

/* What a lane did (bits of alog_event.what). */
enum {
    ALOG_LOAD = 1,
    ALOG_STORE = 2,
    ALOG_ATOMIC = 4,
    ALOG_MASKED = 8,       /* the lane was masked off: its address was
                               computed, nothing was read or written */
    ALOG_OOB = 16,         /* an active lane outside its tensor (the
                               launch stops there with an error) */
};

/* One lane of one memory instruction. */
typedef struct alog_event {
    int64_t elem;           /* element index from the argument's address
                               (in its parameter's element type; may be
                               negative or past the end with ALOG_OOB or
                               ALOG_MASKED) */
    int32_t pid;            /* the program: given to alog_add as the
                               backend's linear id (x fastest: x + gx *
                               (y + gy * z)), kept as its number, row-major
                               as the lecture counts blocks:
                               (pid0 * gy + pid1) * gz + pid2 */
    int16_t arg;            /* ir_kernel.params index of the pointer */
    uint8_t what;           /* ALOG_* bits */
} alog_event;

/* A map's flags per element. */
enum {
    ALOG_M_LMANY = 1,      /* loaded by several programs */
    ALOG_M_SMANY = 2,      /* stored by several programs */
    ALOG_M_LMASK = 4,      /* a masked-off load lane pointed here */
    ALOG_M_SMASK = 8,      /* a masked-off store lane pointed here */
    ALOG_M_OOB = 16,       /* an active lane here failed its check
                               (misaligned) */
    ALOG_M_ATOMIC = 32,    /* stored by an atomic update */
};

/* The summary of every element of one argument. */
typedef struct alog_map {
    int64_t numel;          /* 0: no map */
    int32_t *load, *store;  /* the lowest program number, -1 none */
    uint8_t *flags;         /* ALOG_M_* */
} alog_map;

typedef struct access_log {
    bool *want;             /* per parameter: record accesses through it */
    alog_map *map;         /* per parameter */
    int nparams;
    int64_t grid[3];
    int64_t max_events;
    pthread_mutex_t lock;   /* guards what follows */
    alog_event *ev;
    int64_t n, cap;
    int64_t dropped;        /* events past max_events, not kept */
    int64_t unplaced;       /* lanes that pointed into no recorded argument */
} access_log;

/* A recorder for a launch of grid of a kernel of nparams parameters,
 * recording none of them until alog_want. */
void alog_init(access_log *t, int nparams, const int64_t grid[3], int64_t max_events);
/* Record the accesses through parameter i, with a map of its numel
 * elements when map is set. */
void alog_want(access_log *t, int i, int64_t numel, bool map);
void alog_free(access_log *t);
/* The program number (alog_event.pid) of the backend's linear id pid. */
int64_t trace_prog_number(const access_log *t, int64_t pid);
/* Append n events (under the lock), their pid the backend's linear id;
 * update the maps; those past the cap are counted. */
void alog_add(access_log *t, const alog_event *ev, int64_t n);
/* Count n lanes that pointed into no recorded argument. */
void alog_unplaced(access_log *t, int64_t n);

#endif
