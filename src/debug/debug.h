/* debug.h - the kernel debugger: breakpoints, stepping and inspection of
 * the programs of a launch, driven from a REPL (tritsim debug, run --break,
 * or a breakpoint() in a kernel when stdin is a terminal).
 *
 * The debugger sits between the launcher and the executor: when it wants a
 * launch (debug_wants), launch.c hands it over (debug_launch), and the
 * debugger runs the programs itself on the CPU executor (exec.h: it needs
 * every program's registers), in program-id order, an instruction at a
 * time while something could stop them and on the CPU backend's thread
 * pool when nothing can.  While it is stopped nothing else of the launch runs, so what
 * `print` shows is consistent. */
#ifndef TRITSIM_DEBUG_H
#define TRITSIM_DEBUG_H

#include <stdbool.h>

#include "backend.h"
#include "diag.h"
#include "host.h"
#include "ir.h"

typedef struct debug debug;

/* Runs the program once (a fresh host, sys.argv = argv) and returns its
 * exit status; the runner sets host->debugger to the debugger. */
typedef int (*debug_runner)(void *ctx, debug *g, int argc, char **argv);

typedef struct debug_opts {
    const src_file *file;   /* the program */
    const ast_node *module; /* its syntax tree: which lines have kernel code */
    debug_runner run;
    void *run_ctx;
    bool no_break;          /* --no-break: breakpoint() and breakpoint_if() do nothing */
    bool tty;               /* stdin is a terminal: readline, history, Ctrl-C */
} debug_opts;

debug *debug_new(const debug_opts *o);
void debug_free(debug *g);

/* tritsim debug FILE [-- ARGS]: the REPL, until `quit` or end of input.
 * Returns the exit status of tritsim. */
int debug_main(debug *g, int argc, char **argv);

/* tritsim run with a debugger: run the program once (the REPL opens at
 * each stop); its exit status (1 when it was killed). */
int debug_run(debug *g, int argc, char **argv);

/* tritsim run --break SPEC: set a breakpoint before the program runs.
 * SPEC is "LINE", "FILE:LINE" or "FUNCTION", maybe followed by " if COND";
 * a line without a kernel statement moves to the next one.  false after
 * printing what is wrong. */
bool debug_break(debug *g, const char *spec);

/* A program that runs outside tritsim (the Python extension: python3 -m
 * tritsim --break): from now on the debugger counts the program as
 * running, and its launches come to debug_launch as the program makes
 * them, with no host (h NULL: the `tensor` command has no host values to
 * show). */
void debug_attach(debug *g);

/* Should this launch go through the debugger?  (A breakpoint, watchpoint
 * or step is pending, or the kernel has a breakpoint() that can stop.) */
bool debug_wants(debug *g, const ir_kernel *ir);

/* Run the launch of ir under the debugger (the REPL opens at each stop);
 * dev is the run's backend, which must be the CPU backend's; h the host
 * program, or NULL (debug_attach).  Returns
 * false when a program failed or the user killed the run; in the latter
 * case *killed is set and nothing has been reported. */
bool debug_launch(debug *g, host *h, backend_dev *dev, const ir_kernel *ir,
                  const backend_launch *L, bool *killed);

#endif
