/* tritontesting.h - the triton.testing module (do_bench, Benchmark,
 * perf_report) and the timing loop and progress bar that autotune.c
 * shares. */
#ifndef TRITSIM_TRITONTESTING_H
#define TRITSIM_TRITONTESTING_H

#include <stdbool.h>

#include "host.h"
#include "val.h"

/* Register triton.testing (and set it as attribute `testing` of triton). */
void tritontesting_init(host *h, val triton);

/* Time fn() as triton.testing.do_bench does, on the clock of the backend
 * kernels run on (backend.h's timer API; the host's clock on the CPU,
 * whose launches end before they return): one call, an
 * estimate from 5 calls, then warmup and rep (milliseconds) worth of
 * calls, each rep call timed alone.  Before each of those the .grad of
 * the tensors in grad_to_none (a list or tuple, or VAL_NONE) is set to
 * None.  *times (malloc'd, *n entries, in ms) on success; false after an
 * error was reported. */
bool tritontesting_bench(host *h, val fn, double warmup, double rep, val grad_to_none,
                         src_span at, double **times, int *n);

/* The statistics do_bench returns for times: the quantiles (a list, or a
 * float for one), else mean/median/min/max/all as return_mode says. */
val tritontesting_summarize(host *h, const double *times, int n, val quantiles,
                            const char *mode, src_span at);

/* A progress bar on stderr, only when stderr is a terminal: "what
 * [#####     ] done/total"; done == total clears the line. */
void tritontesting_progress(const char *what, int done, int total);

#endif
