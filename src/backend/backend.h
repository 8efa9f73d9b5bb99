/* backend.h - where kernels run: the interface every executor of the IR
 * (ir.h; what each instruction means is doc/ir.md) implements, and the
 * registry of the executors of this build.
 *
 * A backend is a table of functions (struct backend), one static const
 * table per executor, as MicroPython's emitters are.  The CPU executor
 * (cpu/cpu_backend.c, over exec.h and the thread pool) is the first
 * entry; the CUDA backend (cuda/cuda_backend.c) the second, available
 * where the NVIDIA driver and NVRTC can be loaded; the HIP backend
 * (hip/hip_backend.c, the CUDA backend's driver-API core over AMD's HIP
 * runtime) the third, where libamdhip64 and hiprtc can be.  Asking for
 * a backend that cannot run here is an error that says why, never a run
 * on the CPU in disguise.
 *
 * The life of a kernel on a backend:
 *
 *     const backend *be = backend_find("cpu");
 *     strbuf why = {0};
 *     if (!be->available(&why)) ... report strbuf_cstr(&why) ...
 *     backend_dev *d = backend_open(be, &(backend_config){.threads = 0}, &why);
 *     backend_kernel *k = backend_compile(d, ir, file, diag);  once per
 *                                                   specialization
 *     backend_run(d, k, &L);                        each launch
 *     backend_sync(d, diag);                        before the host reads
 *                                                   what launches wrote
 *     backend_free(k);                              with the specialization
 *     backend_close(d);                             when the run ends
 *
 * Who caches.  The caller caches compiled kernels, one per specialization:
 * the launcher (triton/launch.c) keeps the backend_kernel beside the IR in
 * its specialization cache and frees both together.  A backend does not
 * look kernels up itself (a GPU backend may keep an on-disk cache of its
 * compiler's output, keyed by what it compiled: that is its own business).
 * The IR must outlive the kernel object compiled from it.
 *
 * Lifetimes.  A backend_dev belongs to one run of a program (one host, see
 * launch.c); it owns the backend's resources: the CPU backend's thread
 * pool, a GPU backend's context, streams and modules.  Kernel objects are
 * freed with the specializations that hold them, which are host values and
 * may be freed after the run's backend_dev is closed: free must work after
 * close, so a backend that holds device resources per kernel releases them
 * at close and keeps in the kernel object only what free still needs.
 *
 * Errors.  compile, launch and sync return NULL/false after reporting to
 * the diag_sink they were given (a kernel's out-of-bounds access, a failed
 * assertion, a compiler's message), with the programs' output before the
 * failure written to the launch's FILE first, as exec.h describes.  A
 * kernel too big for the device is also flagged (out_of_resources below).
 *
 * The debugger.  tritsim's debugger (debug/) drives the CPU executor
 * itself, an instruction at a time (exec_sess_*, exec_prog_*): that path
 * stays CPU-only; it reaches the CPU backend's thread pool through
 * cpu_backend_exec_launch (cpu_backend.h).
 *
 * Host buffers and device copies.  A GPU runs on its own memory, so each
 * host buffer a kernel may use (a tensor's storage) carries a
 * backend_buffer: the hook through which a GPU backend keeps a device copy
 * of it.  The tensor layer embeds one in every storage (tensor.h), the
 * launcher passes it with each pointer argument (backend_arg.buffer); the
 * CPU backend never looks at it, so the CPU pays nothing. */
#ifndef TRITSIM_BACKEND_H
#define TRITSIM_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "diag.h"
#include "dtype.h"
#include "ir.h"
#include "strbuf.h"

typedef struct backend backend;

/* ---- host buffers: the device side of a tensor's storage ------------------
 * Who sets what:
 *  - the owner of the host memory (tensor.c) sets host and size when it
 *    makes the buffer, copy, release and download to NULL and both flags
 *    to false, and calls release(b) (when not NULL) just before it frees
 *    the host memory;
 *  - a GPU backend makes the device copy the first time a kernel uses the
 *    buffer: it sets copy, release (release frees the copy, whatever the
 *    backend needs to reach it lives behind copy) and download, uploads
 *    the host bytes when host_dirty is set (then clears it) and sets
 *    dev_dirty after a launch that may have written the buffer;
 *  - whoever writes the host bytes of a buffer that has a copy sets
 *    host_dirty, and whoever reads them first calls download(b) when
 *    dev_dirty is set (download clears it): the torch layer does
 *    both in a few central places (tensor.h: tensor_host_read and
 *    tensor_host_write).  download waits for the
 *    launches that may write the buffer (it is a synchronisation point).
 *  - when the backend is closed it downloads every copy still dev_dirty,
 *    frees the copies and sets copy, release and download back to NULL:
 *    after close the host bytes are the truth again.
 * The CPU backend touches none of it: copy stays NULL. */
typedef struct backend_buffer {
    unsigned char *host;    /* the host bytes (a tensor storage's data) */
    size_t size;            /* how many */
    void *copy;             /* the device copy, owned by the backend that
                               made it; NULL when there is none */
    void (*release)(struct backend_buffer *b);   /* frees copy; NULL when none */
    /* Copies the device bytes back into host and clears dev_dirty; false
     * with a reason in why when the device failed (the host bytes are then
     * unchanged).  NULL when there is no copy. */
    bool (*download)(struct backend_buffer *b, strbuf *why);
    bool host_dirty;        /* host bytes changed since the last upload */
    bool dev_dirty;         /* the device copy changed since the last download */
    /* host is no host memory but an address of the GPU backend's own
     * device (another library's allocation there: a PyTorch CUDA tensor
     * under python3 -m tritsim): the backend passes it to kernels as it is,
     * makes no copy, and nobody uploads or downloads it.  Never set for a
     * backend whose kernels run at host addresses. */
    bool on_device;
    /* --initcheck (tensor.c makes and frees them; the CPU executor reads
     * and sets bits from its threads): one bit per byte of host, set once
     * the byte has been written, bit (i & 7) of init[i >> 3] for byte i;
     * NULL when every byte counts as written (storage not made by
     * torch.empty and its kin, or the option off).  init_from says where
     * the storage was made ("torch.empty at prog.tk:5:5"), or NULL. */
    unsigned char *init;
    char *init_from;
} backend_buffer;

/* A buffer over host bytes its caller owns (on_device: a device address
 * of the backend's own GPU), as its owner sets one up: no copy yet, the
 * host bytes to be uploaded unless they are on the device already. */
void backend_buffer_over(backend_buffer *b, void *host, size_t size, bool on_device);
/* The end of a buffer whose owner is done with it: its device copy
 * written back to the host first when the device changed it (only while
 * fetch: earlier downloads went well), then released, and b cleared.
 * false with why when that download failed. */
bool backend_buffer_end(backend_buffer *b, bool fetch, strbuf *why);

/* ---- a launch ------------------------------------------------------------- */

/* One runtime argument of a launch, by ir_kernel.params index. */
typedef struct backend_arg {
    dtype_scalar value;     /* scalars canonical (dtype.h); pointers: .u the
                               address of the tensor's first element */
    /* pointers only: the tensor's extent, for bounds checks */
    size_t numel;           /* elements reachable from the address (for a
                               strided view: 1 + sum((shape_i - 1) * stride_i)) */
    const char *name;       /* the parameter's name, e.g. "x_ptr" */
    backend_buffer *buffer; /* pointers only: the storage the address points
                               into (its device side), or NULL */
} backend_arg;

/* What a BREAKPOINT instruction (breakpoint(), breakpoint_if()) does
 * outside a debugger session. */
typedef enum backend_breaks {
    BACKEND_BREAK_IGNORE,   /* --no-break: nothing */
    BACKEND_BREAK_REPORT,   /* a line in the program's output saying where it
                               would have stopped (no terminal to ask) */
} backend_breaks;

/* Is name one of the keyword options a launch takes beside the kernel's
 * arguments (num_warps=, num_stages=, ... as Triton 3.6's launcher)? */
bool backend_is_launch_option(const char *name);

typedef struct backend_launch {
    const src_file *file;   /* the program, for error messages */
    int64_t grid[3];        /* programs along each axis, each >= 1 */
    int rank;               /* how many axes the grid was given with (1-3) */
    const backend_arg *args;    /* the kernel's nparams of them */
    int num_warps;          /* launch options (Triton's defaults 4 and 3); */
    int num_stages;         /* the CPU backend has no use for them */
    int waves_per_eu;       /* AMD's launch option: the HIP backend's
                               amdgpu_waves_per_eu; 0 none (the others
                               ignore it) */
    int matrix_instr_nonkdim;   /* AMD's: the MFMA shape (16 or 32) of the
                               HIP backend's tl.dot; 0 its own choice */
    FILE *out;              /* program output (prints), in program-id order */
    diag_sink *diag;        /* errors */
    backend_breaks breaks;
    /* The record of the launch's memory accesses (alog.h: tritsim run
     * --viz draws it, tritsim check grades with it): every lane of every
     * LOAD, STORE and ATOMIC, the failed access's included; NULL (no cost)
     * otherwise.  Only the CPU backend records (and runs a recorded launch
     * without its memory fast paths or lazy slots, lane by lane); the
     * others leave it alone. */
    struct access_log *log;
    /* Pointers made from integers, on a backend whose kernels do not run
     * at the host's addresses (host_addresses false), when the kernel
     * makes some (a CAST from an integer to a pointer): the device side of
     * every live storage whose address the program took (data_ptr(), a
     * TensorDescriptor, the allocator's scratch: addrmap.h), by increasing
     * host address (buffer->host), nrevealed of them, at most
     * BACKEND_MAX_REVEALED (the launcher refuses more).  The backend gives
     * the kernel a device copy of each, made and uploaded as for a pointer
     * argument, turns each host address the kernel makes a pointer from
     * into its copy's (an access through it checked against that storage,
     * as the CPU checks it), and treats each as written by the launch
     * (dev_dirty).  NULL and 0 otherwise. */
    backend_buffer *const *revealed;
    int nrevealed;
    /* --racecheck: report two programs of the launch that touch the same
     * element where one access is a plain store, or a plain access and an
     * atomic (the launch then fails).  --initcheck: a load (or atomic)
     * through an active lane of a byte nothing has written
     * (backend_buffer.init) fails the program; stores mark the bytes
     * written.  Only the CPU backend checks (main.c refuses the options
     * with another; cpu/exec_check.c says how). */
    bool racecheck;
    bool initcheck;
} backend_launch;

/* The most storages a launch passes in backend_launch.revealed: a GPU
 * kernel gets a table of them (cgen_abi.h: tk_amap), one per ring slot of
 * launches in flight, so it is kept well below addrmap.h's 65535 tags. */
enum { BACKEND_MAX_REVEALED = 4096 };

/* ---- the table -------------------------------------------------------------- */

/* A backend opened for one run.  Every backend's own state begins with
 * this header (its first member), so a backend_dev * converts to the
 * backend's type and back. */
typedef struct backend_dev {
    const backend *be;
    int defer_depth;        /* backend_defer's nesting (backend.c) */
    /* Set by compile or launch when the failure it has just reported is
     * that the kernel needs more of the device than it has (shared memory
     * or registers per program: Triton's OutOfResources, which an
     * autotuner skips; smaller blocks or fewer warps may fit).  Cleared by
     * backend_compile and backend_run before each call. */
    bool out_of_resources;
} backend_dev;

/* A kernel compiled by a backend; begins with this header, as above. */
typedef struct backend_kernel {
    const backend *be;
} backend_kernel;

/* How to open a backend (from the command line). */
typedef struct backend_config {
    int threads;            /* --threads: CPU workers, 0 = one per core */
    bool unchecked;         /* --unchecked: GPU backends emit no bounds checks
                               (the CPU always checks) */
} backend_config;

/* A mark in a device's stream of work, for timing it (torch.cuda.Event,
 * triton.testing.do_bench on a GPU); the backend's own type. */
typedef struct backend_timer backend_timer;

struct backend {
    const char *name;       /* as --backend names it: "cpu" */
    /* Kernels run on the host's memory, at the host's addresses: a pointer
     * made from an integer (a data_ptr() address) reaches its tensor.
     * Only the CPU; the others get the storages such a pointer may reach
     * with the launch (backend_launch.revealed) and translate. */
    bool host_addresses;
    /* Can it run here?  When not, false with a reason in why for a person:
     * what is missing and what to install or do. */
    bool (*available)(strbuf *why);
    /* A fresh state for one run, or NULL after writing why.  Cheap: heavy
     * resources (the CPU's threads) may wait for the first launch. */
    backend_dev *(*open)(const backend_config *c, strbuf *why);
    /* Release everything of the run.  Kernel objects it compiled may still
     * be freed afterwards (see Lifetimes above). */
    void (*close)(backend_dev *d);
    /* A specialization's IR -> the backend's kernel object, or NULL after
     * reporting to diag (file names the program). */
    backend_kernel *(*compile)(backend_dev *d, const ir_kernel *ir, const src_file *file,
                               diag_sink *diag);
    /* Run every program of the launch.  false when one failed (reported to
     * L->diag after the output of the programs before it).  A GPU backend
     * may return before the programs end; sync waits for them. */
    bool (*launch)(backend_dev *d, backend_kernel *k, const backend_launch *L);
    /* Wait until every launch so far has ended; false after reporting a
     * failure that only now came to light.  The CPU's launches end before
     * launch returns. */
    bool (*sync)(backend_dev *d, diag_sink *diag);
    /* Free a kernel object (before or after close). */
    void (*free)(backend_kernel *k);

    /* ---- timing (optional: all four NULL where launches end before
     * launch returns, as on the CPU, whose callers time with the host's
     * clock) ----
     * A timer is a mark recorded in the order of the device's work, as
     * CUDA events are:
     *     backend_timer *a = be->timer_new(d, why), *b = be->timer_new(d, why);
     *     be->timer_record(d, a, why);      after the work before it
     *     ... launches ...
     *     be->timer_record(d, b, why);
     *     be->timer_elapsed_ms(d, a, b, &ms, why);   waits for b
     *     be->timer_free(a); be->timer_free(b);
     * Each returns NULL/false with a reason for a person in why (a device
     * failure, or elapsed_ms on a timer never recorded).  A timer may be
     * recorded again (it then marks the newer place).  timer_sync waits for
     * the work before the timer's last record (torch.cuda.Event.synchronize).
     * Timers belong to the backend_dev: close makes every timer dead (its
     * calls fail, saying so) but timer_free works before or after close,
     * as kernel objects' free does. */
    backend_timer *(*timer_new)(backend_dev *d, strbuf *why);
    bool (*timer_record)(backend_dev *d, backend_timer *t, strbuf *why);
    bool (*timer_sync)(backend_dev *d, backend_timer *t, strbuf *why);
    bool (*timer_elapsed_ms)(backend_dev *d, backend_timer *start, backend_timer *end,
                             double *ms, strbuf *why);
    void (*timer_free)(backend_timer *t);

    /* ---- benchmarking (optional: NULL where it means nothing) ----
     * The deferred mode, for timing many launches (do_bench's runs):
     * while it is on, a launch may return once its kernel is enqueued,
     * before its programs end and before its failure, if any, is known;
     * the pending launches are checked, in launch order, at the next sync
     * point: sync, a download, a timer's elapsed_ms or sync, a launch
     * that is checked at once (one whose kernel prints), the mode turned
     * off, or the backend's own limit on pending launches.  There the
     * first failing launch is reported exactly as it would have been at
     * its launch (its programs' output, then the failure, to its own
     * L->out and L->diag), and the sync point's call fails (a timer's
     * with why left empty, as after any device failure).  defer(d,
     * false, diag) checks the pending launches: false after reporting a
     * failure.  Nothing else changes: results, and what a launch
     * checked at once reports. */
    bool (*defer)(backend_dev *d, bool on, diag_sink *diag);
    /* Flush the device's caches before a timed run, as Triton's do_bench
     * does (a GPU: overwrite a buffer larger than its L2, in the order
     * of its work); false with why after a device failure. */
    bool (*clear_cache)(backend_dev *d, strbuf *why);
};

/* ---- the registry ------------------------------------------------------------- */

/* The backend called name in this build, or NULL (an unknown name, or one
 * reserved for a backend not built yet). */
const backend *backend_find(const char *name);

typedef enum backend_status {
    BACKEND_OK,             /* *out is the backend */
    BACKEND_UNKNOWN,        /* no backend has that name */
    BACKEND_UNAVAILABLE,    /* it cannot run here: why says what is missing */
} backend_status;

/* Resolve --backend name: the backend when it can run here, else why not.
 * A name reserved for a backend this build lacks ("hip" today), or one
 * whose available() says no, is BACKEND_UNAVAILABLE. */
backend_status backend_select(const char *name, const backend **out, strbuf *why);

/* ---- calls through the table ------------------------------------------------- */

backend_dev *backend_open(const backend *be, const backend_config *c, strbuf *why);
void backend_close(backend_dev *d);
backend_kernel *backend_compile(backend_dev *d, const ir_kernel *ir, const src_file *file,
                                diag_sink *diag);
bool backend_run(backend_dev *d, backend_kernel *k, const backend_launch *L);
bool backend_sync(backend_dev *d, diag_sink *diag);
void backend_free(backend_kernel *k);

/* The deferred mode of d (above), for timing: on or off, nested (it stays
 * on until every on has its off; each off checks the pending launches:
 * false after reporting a failure).  Does nothing (true) where d is NULL
 * or its backend has no deferred mode. */
bool backend_defer(backend_dev *d, bool on, diag_sink *diag);
/* d's clear_cache; true doing nothing where d is NULL or has none. */
bool backend_clear_cache(backend_dev *d, strbuf *why);

/* ---- timing: the device's clock, else the host's ------------------------------
 * A backend_stamp is one point in time: on the device's clock when d (open)
 * has the timer API, else on the host's monotonic clock, taken when
 * recorded (the CPU's launches have ended by then).  torch.cuda.Event and
 * triton.testing.do_bench time with these:
 *
 *     backend_stamp *a = backend_timer_new(d), *b = backend_timer_new(d);
 *     backend_timer_record(a, diag, why);  ...launches...  backend_timer_record(b, ...);
 *     double ms;  backend_timer_elapsed_ms(a, b, &ms, diag, why);
 *     backend_timer_free(a);  backend_timer_free(b);
 *
 * d may be NULL (no backend opened yet: the host's clock).  A stamp may
 * outlive d (its device timer goes with d's close).  record and elapsed_ms
 * return false either after reporting a device's failure to diag (why
 * left empty) or with why saying what was asked wrongly: a stamp used
 * after its device was closed, elapsed_ms of stamps not both recorded, or
 * recorded on different clocks (one made before d was opened). */
typedef struct backend_stamp backend_stamp;
backend_stamp *backend_timer_new(backend_dev *d);
bool backend_timer_record(backend_stamp *s, diag_sink *diag, strbuf *why);
/* Whether s has been recorded. */
bool backend_timer_recorded(const backend_stamp *s);
/* *ms from start to end, waiting for end on a device. */
bool backend_timer_elapsed_ms(backend_stamp *start, backend_stamp *end, double *ms,
                              diag_sink *diag, strbuf *why);
void backend_timer_free(backend_stamp *s);

/* ---- test backends -------------------------------------------------------------
 * With TRITSIM_TEST_BACKENDS=1 in the environment, backend_find and
 * backend_select also know "cpu-staged" (cpu_staged.c), a test double
 * of a GPU backend for `make check` on machines without one: the CPU
 * executor running on a separate copy of every buffer, kept through
 * backend_buffer exactly as a GPU backend keeps its device copies, so that
 * a hole in the host side's coherence protocol shows as a wrong result.
 * It is for tests only: never listed, and slower than cpu.  Its timer API
 * reads the host clock, so that the device-clock path of the timing
 * wrappers is tested too. */

#endif
