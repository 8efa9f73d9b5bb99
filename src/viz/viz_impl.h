/* viz_impl.h - what the files of viz/ share: a recorded launch's tensors
 * laid out as cells (viz.c), drawn as PNG (viz_png.c) and as the page
 * (viz_html.c).  Nothing else includes it. */
#ifndef TRITSIM_VIZ_IMPL_H
#define TRITSIM_VIZ_IMPL_H

#include <stdbool.h>
#include <stdint.h>

#include "strbuf.h"
#include "viz.h"

/* A cell's flags. */
enum {
    VIZ_INSIDE = 1,         /* the cell is (the start of) tensor elements */
    VIZ_LMANY = 2,          /* loaded by several programs */
    VIZ_SMANY = 4,          /* stored by several programs */
    VIZ_LMASK = 8,          /* a masked-off load lane pointed here */
    VIZ_SMASK = 16,         /* a masked-off store lane pointed here */
    VIZ_OOB = 32,           /* an active lane here was outside the tensor */
    VIZ_ATOMIC = 64,        /* stored by an atomic update */
};

/* Kinds of a per-program entry (and of the page's data). */
enum { VIZ_K_LOAD = 1, VIZ_K_STORE = 2, VIZ_K_MASKED = 4, VIZ_K_OOB = 8 };

typedef struct viz_tensor {
    int arg;                /* ir_kernel.params index */
    char name[64];
    char desc[160];         /* "float32, shape (3, 4)" */
    /* layout: element (er, ec) of the element grid */
    bool strip;             /* elements in rows of w; else dense slices */
    int64_t extent;
    int64_t w;              /* elements per row */
    int nd;                 /* dense: the shape's axes, largest stride first */
    int64_t dshape[ALOG_MAX_DIMS], dstride[ALOG_MAX_DIMS];
    int daxis[ALOG_MAX_DIMS];    /* dense: the original axis of each */
    int64_t ndims;          /* dense: the original rank */
    int64_t shape[ALOG_MAX_DIMS];
    int64_t r;              /* dense: rows of a slice */
    int64_t erows;          /* element rows of the tensor (with gap rows) */
    /* cells */
    int64_t fr, fc;         /* elements per cell down and across */
    int64_t cols, rows;     /* cells of the tensor */
    int64_t top, bottom;    /* cell rows drawn above and below it */
    int32_t *load, *store;  /* per cell: lowest program number, -1 none */
    uint8_t *flags;
    int64_t outside;        /* accesses too far outside to draw */
    /* picture */
    int cw, ch;             /* pixels per cell */
    bool labels;            /* program numbers written in the cells */
    char file[128];         /* launchN-NAME.png, "" when not written */
    strbuf png;             /* the PNG's bytes, base64, for the page */
} viz_tensor;

/* One entry of a program's accesses: a cell of a tensor. */
typedef struct viz_entry {
    int32_t prog;
    int16_t t;
    uint8_t kind;
    int64_t cell;
} viz_entry;

typedef struct viz_launch {
    int index;              /* from 1 */
    char kernel[96];
    int64_t grid[3];
    int64_t nprog;
    bool ok;
    int ntensors;
    viz_tensor *t;
    viz_entry *entries;     /* sorted by program, tensor, kind, cell */
    int64_t nentries;
    strbuf notes;           /* lines for the page */
} viz_launch;

struct viz {
    char *dir;
    char *program;
    viz_launch *launches;
    int nlaunches;
    int64_t skipped;        /* launches past VIZ_MAX_LAUNCHES */
    int64_t entries;        /* per-program entries kept so far */
    bool failed;            /* a file could not be written */
    /* the launch being recorded */
    bool active;
    access_log trace;
    alog_arg *args;
    int nparams;
};

/* The colour of program number n (n < 0: none), as 0xRRGGBB. */
uint32_t viz_colour(int64_t n);
/* Draw t as a PNG: write dir/t->file and keep its bytes in t->png
 * (base64).  false after a message on stderr. */
bool viz_png_write(const char *dir, viz_tensor *t);
/* Write dir/index.html. */
bool viz_html_write(const viz *v);

#endif
