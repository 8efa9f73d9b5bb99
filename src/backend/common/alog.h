/* alog.h - the access record of a launch: which program loaded, stored
 * or atomically updated which element of which pointer argument, through
 * which lane of which tile.  It is the one record of a launch's memory
 * accesses: `tritsim run --viz` draws it (viz/) and `tritsim check`
 * grades with it (teach/).  A backend that can record (the CPU executor,
 * cpu/exec_mem.c) appends one event per lane of each LOAD, STORE and
 * ATOMIC when backend_launch.log is set, and nothing at all otherwise.
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
 * order of the events is the order the threads appended them in: with
 * one thread, program by program in launch order, each program's in the
 * order it made them; readers that run with more must not depend on it.
 *
 * Who fills what: the caller (the recorder a host has, host.h: viz/ or
 * teach/) sets want and max_events with alog_init, the backend appends
 * with alog_shape and alog_add, the caller reads ev[0..n) after the
 * launch and frees with alog_free. */
#ifndef TRITSIM_ALOG_H
#define TRITSIM_ALOG_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "dtype.h"

enum {
    ALOG_MAX_DIMS = 8,      /* dimensions of an argument's tensor kept */
    ALOG_MAX_SHAPES = 255,  /* tile shapes of a launch named (alog_shape) */
    ALOG_NO_SHAPE = 255,    /* alog_event.shape past that: lanes unnamed */
};

/* What the recorder knows of one parameter of a launch (the launcher
 * fills it, triton/launch.c), by ir_kernel.params index. */
typedef struct alog_arg {
    const char *name;
    bool tensor;            /* a pointer to a tensor's elements: recordable */
    dtype dt;               /* the tensor's element type */
    int ndim;               /* 0 past ALOG_MAX_DIMS: a strip of elements */
    int64_t shape[ALOG_MAX_DIMS];
    int64_t strides[ALOG_MAX_DIMS];  /* in elements */
    int64_t extent;         /* elements reachable from the pointer */
    uint64_t addr;          /* the address the pointer holds */
} alog_arg;

/* What a lane did (bits of alog_event.what). */
enum {
    ALOG_LOAD = 1,
    ALOG_STORE = 2,
    ALOG_ATOMIC = 4,
    ALOG_MASKED = 8,       /* the lane was masked off: its address was
                               computed, nothing was read or written */
    ALOG_OOB = 16,         /* an active lane outside its tensor (the
                               launch stops there with an error) */
    ALOG_FAILED = 32,      /* a lane of an access that failed its check
                               (every lane of it: the one that stopped the
                               program is ALOG_OOB, or misaligned) */
};

/* A tile shape: the lanes of an access are numbered row-major in it. */
typedef struct alog_shape {
    int ndim;
    int32_t dims[ALOG_MAX_DIMS];
} alog_shape;

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
    int32_t lane;           /* the lane, row-major in its tile */
    uint32_t access;        /* the access: its program's memory instructions
                               recorded before it (0 for the first), so
                               that the n-th access of two programs' runs
                               can be compared */
    int16_t arg;            /* ir_kernel.params index of the pointer */
    uint8_t what;           /* ALOG_* bits */
    uint8_t shape;          /* the tile: access_log.shapes[shape], or
                               ALOG_NO_SHAPE */
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
    alog_shape shapes[ALOG_MAX_SHAPES];
    int nshapes;
    alog_event *ev;
    int64_t n, cap;
    int64_t dropped;        /* events past max_events, not kept */
    int64_t unplaced;       /* lanes that pointed into no recorded argument */
} access_log;

/* A recorder for a launch of grid of a kernel of nparams parameters,
 * recording none of them until alog_want; max_events < 0: no cap. */
void alog_init(access_log *t, int nparams, const int64_t grid[3], int64_t max_events);
/* Record the accesses through parameter i, with a map of its numel
 * elements when map is set. */
void alog_want(access_log *t, int i, int64_t numel, bool map);
void alog_free(access_log *t);
/* The program number (alog_event.pid) of the backend's linear id pid. */
int64_t trace_prog_number(const access_log *t, int64_t pid);
/* The index of the tile shape of ndim dims (under the lock; an access
 * asks once for all its lanes), ALOG_NO_SHAPE when the table is full or
 * the shape has more than ALOG_MAX_DIMS dimensions. */
uint8_t alog_shape_of(access_log *t, int ndim, const int32_t *dims);
/* Append n events (under the lock), their pid the backend's linear id;
 * update the maps; those past the cap are counted. */
void alog_add(access_log *t, const alog_event *ev, int64_t n);
/* Count n lanes that pointed into no recorded argument. */
void alog_unplaced(access_log *t, int64_t n);

#endif
