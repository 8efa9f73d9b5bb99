/* exec.h - the CPU executor: runs every program of a launch over a kernel's
 * IR (ir.h) on the thread pool (pool.h).
 *
 * Each worker owns one register file: a buffer per slot, sized from the
 * slot's static type once per kernel, so running a program allocates
 * nothing.  Slots hold elements in their natural C type (int1 as a byte
 * 0/1, intN/uintN as such, fp16 and bf16 as float holding an exactly
 * representable value, fp32 float, fp64 double, pointers as addresses).
 *
 * Loads and stores check every active lane against the tensor the pointer
 * points into; the first failure stops the launch with a message naming
 * the place, program, lane, element and tensor size.  What programs print
 * is buffered per program and written in program-id order, so the output
 * does not depend on the number of threads. */
#ifndef TRITSIM_EXEC_H
#define TRITSIM_EXEC_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "backend.h"
#include "diag.h"
#include "dtype.h"
#include "ir.h"
#include "pool.h"

/* One runtime argument of a launch, by ir_kernel.params index: the
 * backend interface's (backend.h), so a launch passes its arguments
 * through unchanged. */
typedef backend_arg exec_arg;

/* What a BREAKPOINT instruction (breakpoint(), breakpoint_if()) does
 * outside a debugger session. */
typedef enum exec_breaks {
    EXEC_BREAK_IGNORE,      /* --no-break: nothing */
    EXEC_BREAK_REPORT,      /* a line in the program's output saying where it
                               would have stopped (no terminal to ask) */
} exec_breaks;

typedef struct exec_launch {
    const ir_kernel *kernel;
    const src_file *file;   /* the program, for error messages */
    int64_t grid[3];        /* programs along each axis, each >= 1 */
    int rank;               /* how many axes the grid was given with (1-3) */
    const exec_arg *args;   /* kernel->nparams of them */
    pool *pool;             /* the threads to run on */
    FILE *out;              /* program output (prints) */
    diag_sink *diag;        /* errors */
    exec_breaks breaks;
    bool keep_lanes;        /* every slot's lanes in its register file after
                               each instruction: no lazy slots, no fused
                               instructions (fastpath.h); for a debugger */
    struct access_log *log;     /* record every memory lane (alog.h): the
                               plain path of every LOAD, STORE and ATOMIC,
                               no lazy slots; NULL (no cost) otherwise */
    bool plain;             /* no fast path at all: no affine records, lazy
                               slots, row copies, fused or invariant
                               instructions (fastpath.h), and casts lane by
                               lane through dtype_cast; the reference the
                               differential fuzzer (tests/fuzz/fuzz_exec.c)
                               compares the fast paths with.  The CPU
                               backend sets it when TRITSIM_NO_FASTPATH=1 is
                               in the environment. */
    /* Where the storages that pointers made from integers reach lie, when
     * not at the host's addresses (cpu_staged.c, the test double of a GPU
     * backend, runs on copies): nreloc entries by increasing tag; an
     * access through a pointer tagged t (addrmap.h) moves the bytes at its
     * address + delta.  NULL: at the host's addresses. */
    const struct exec_reloc *reloc;
    int nreloc;
    bool racecheck;         /* backend_launch's (backend.h, exec_check.c); */
    bool initcheck;         /* racecheck: every access down the plain path, no
                               lazy slots; initcheck: those through storages
                               with a bitmap of written bytes */
} exec_launch;

typedef struct exec_reloc {
    int tag;                /* addrmap.h's */
    int64_t delta;          /* the copy's address minus the storage's */
} exec_reloc;

/* Run the launch.  Returns false when a program failed; the error has been
 * reported to L->diag after the output of the programs before it. */
bool exec_run(const exec_launch *L);

/* ---- debugger sessions (debug.c) ------------------------------------------
 * The same launch, driven by the debugger: programs start on demand, each
 * with its own registers, and run an instruction at a time (their text is
 * written at once), or the rest of the grid goes to the pool. */
typedef struct exec_ctx exec_sess;
typedef struct exec_prog exec_prog;

typedef enum exec_status { EXEC_RUNNING, EXEC_DONE, EXEC_FAILED } exec_status;

/* NULL after reporting an error (a bad grid or IR). */
exec_sess *exec_sess_begin(const exec_launch *L);
int64_t exec_sess_nprog(const exec_sess *S);
const exec_launch *exec_sess_launch(const exec_sess *S);
void exec_sess_coord(const exec_sess *S, int64_t pid, int64_t coord[3]);
/* Has a program failed (its error reported already)? */
bool exec_sess_failed(const exec_sess *S);
/* Run programs [from, to) on the pool, text in program order (after the
 * text of the programs before from, which must have ended).  When *stop
 * becomes non-zero, programs not yet started are left out; *next receives
 * the lowest of them (to when none).  false when a program failed
 * (reported). */
bool exec_sess_run(exec_sess *S, int64_t from, int64_t to, const volatile sig_atomic_t *stop,
                   int64_t *next);
/* The programs the stop of the last exec_sess_run caught running, and
 * those that failed (EXEC_FAILED, at the failing instruction), now
 * programs of the session (the caller owns them and the array). */
int exec_sess_held(exec_sess *S, exec_prog ***out);
/* Did the stop of the last exec_sess_run leave program pid out? */
bool exec_sess_skipped(const exec_sess *S, int64_t pid);
/* Report a failure not yet reported, free the session.  false when a
 * program failed. */
bool exec_sess_end(exec_sess *S);

/* A program of the session, before its first instruction. */
exec_prog *exec_sess_start(exec_sess *S, int64_t pid);
void exec_prog_free(exec_prog *P);
/* Run one instruction.  EXEC_FAILED: the error has been reported. */
exec_status exec_prog_step(exec_prog *P);
exec_status exec_prog_state(const exec_prog *P);
int32_t exec_prog_pc(const exec_prog *P);    /* the next instruction */
int64_t exec_prog_pid(const exec_prog *P);
const int64_t *exec_prog_coord(const exec_prog *P);

/* A tile copied out of a program's registers, ready for format.h:
 * data holds numel elements of data_type in numpy's memory format (fp16
 * and bf16 as their bits; fp8 as fp32 values).  type is the slot's. */
typedef struct exec_tile {
    ir_type type;
    dtype data_type;
    void *data;
    int64_t numel;
} exec_tile;
bool exec_prog_read(const exec_prog *P, int32_t slot, exec_tile *out);
/* Run ek (P's kernel's slots followed by more, and instructions over them:
 * spec_dbg_eval) on a copy of P's registers; copy out the n slots asked
 * for.  false after reporting an error. */
bool exec_prog_eval(exec_prog *P, const ir_kernel *ek, const int32_t *slots, int n,
                    exec_tile *out);
/* Element i, canonical (dtype.h). */
dtype_scalar exec_tile_get(const exec_tile *t, int64_t i);
void exec_tile_free(exec_tile *t);

#endif
