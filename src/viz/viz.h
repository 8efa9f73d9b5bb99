/* viz.h - pictures of a launch (tritsim run --viz[=DIR]): for each kernel
 * launch, which program loaded and stored each element of each tensor
 * argument, as a PNG per tensor, a text dump per launch, and one
 * self-contained HTML page per run in which the learner steps through the
 * programs of a launch.
 *
 * The launcher (triton/launch.c, through the host's recorder that main.c
 * makes of these functions, host.h) asks for a record before each launch
 * (viz_launch_begin), hands it to the backend (backend_launch.log: the
 * CPU executor fills it, alog.h) and gives the launch back after it,
 * failed or not (viz_launch_end), which draws it.  viz_close writes the
 * page.  What DIR holds:
 *
 *   index.html            the page: every recorded launch, its pictures
 *                         (the PNGs inlined) and each program's accesses;
 *                         inline CSS, JS and data only
 *   launchN-ARG.png       launch N's (from 1) picture of tensor ARG
 *   launchN.txt           the same maps as text (the tests' goldens), for
 *                         tensors of at most VIZ_TEXT_CELLS cells
 *
 * Cells and colours (the page's legend says the same): one cell per
 * element (or per block of elements when the tensor is large: see the
 * limits), coloured by program number: solid, the program that stored it
 * (or updated it atomically); pale, the program that only loaded it; the
 * number in the cell is that program's, with a '+' when several programs
 * did; grey hatching, only masked-off lanes pointed there; red, an active
 * lane outside the tensor (drawn in the grey rows before or after the
 * tensor); white, untouched.  Program numbers count the grid row-major,
 * as the lecture numbers blocks: (pid0 * G1 + pid1) * G2 + pid2.
 *
 * Layout: a 0-d or 1-d tensor (or a view whose elements are not one dense
 * block) is a strip of its elements wrapped into rows of at most 64; a
 * 2-d tensor its shape; higher ones their 2-d slices stacked, a blank row
 * between two.
 *
 * Limits (never a crash, always a note in the page): the first
 * VIZ_MAX_LAUNCHES launches of a run are recorded, the rest counted; the
 * tensors of a launch are mapped element by element (alog.h) up to
 * VIZ_MAX_MAPPED elements in all, so their pictures are complete; a
 * launch keeps VIZ_MAX_EVENTS lane accesses, from which the page steps
 * through the programs (none when there were more), and from which lanes
 * outside a tensor and tensors past the mapped budget are drawn; a
 * tensor wider or taller
 * than VIZ_MAX_SIDE cells is downsampled (a cell then stands for a block
 * of elements); accesses more than VIZ_MAX_OUTSIDE cell rows outside a
 * tensor are counted, not drawn; the page holds at most VIZ_MAX_ENTRIES
 * per-program cell entries in all. */
#ifndef TRITSIM_VIZ_H
#define TRITSIM_VIZ_H

#include <stdbool.h>
#include <stdint.h>

#include "dtype.h"
#include "alog.h"

enum {
    VIZ_MAX_LAUNCHES = 32,
    VIZ_MAX_EVENTS = 4 << 20,
    VIZ_MAX_MAPPED = 8 << 20,   /* elements of a launch's tensors mapped */
    VIZ_MAX_SIDE = 256,
    VIZ_MAX_OUTSIDE = 64,
    VIZ_MAX_ENTRIES = 400000,
    VIZ_TEXT_CELLS = 4096,  /* larger maps are left out of launchN.txt */
};

typedef struct viz viz;

/* A recorder writing into dir (made if missing); NULL after a message on
 * stderr when dir cannot be made.  program names the run in the page. */
viz *viz_open(const char *dir, const char *program);
/* The recorder for the next launch, or NULL when it is not recorded (past
 * VIZ_MAX_LAUNCHES); then viz_launch_end must not be called. */
access_log *viz_launch_begin(viz *v, const char *kernel, const int64_t grid[3],
                                int nparams, const alog_arg *args);
/* The launch has ended (ok false: a program failed): draw it. */
void viz_launch_end(viz *v, bool ok);
/* Write the page, say where on stderr, free v.  false when a file could
 * not be written (said on stderr).  NULL does nothing. */
bool viz_close(viz *v);

#endif
