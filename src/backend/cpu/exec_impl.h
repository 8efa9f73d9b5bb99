/* exec_impl.h - what the CPU executor's files (exec.c, exec_affine.c,
 * exec_tile.c, exec_mem.c, exec_reduce.c, exec_print.c, exec_sess.c)
 * share, and nothing else includes: how slots store their lanes, the plan
 * and the launch state, a program's register file and affine records, and
 * the functions each file offers the others.
 *
 * Slot storage (exec.h): int1 one byte 0/1, ints their C type, fp16, bf16
 * (and fp8) a float holding a value of that type, fp32 float, fp64
 * double, pointers a uint64_t address.
 *
 * The small helpers the typed loops call are static inline here, so that
 * every file's loops can still inline them. */
#ifndef TRITSIM_EXEC_IMPL_H
#define TRITSIM_EXEC_IMPL_H

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "affine.h"
#include "dtype.h"
#include "exec.h"
#include "fastpath.h"
#include "fpconv.h"
#include "ir.h"
#include "strbuf.h"

/* ======================================================================
 * Storage kinds: how a slot of some dtype holds its elements.
 * ====================================================================== */

typedef enum stk {
    ST_B, ST_I8, ST_I16, ST_I32, ST_I64, ST_U8, ST_U16, ST_U32, ST_U64,
    ST_F32, ST_F64,
} stk;

static inline stk st_of(dtype t)
{
    if (dtype_is_ptr(t))
        return ST_U64;
    switch (t) {
    case DTYPE_INT1: return ST_B;
    case DTYPE_INT8: return ST_I8;
    case DTYPE_INT16: return ST_I16;
    case DTYPE_INT32: return ST_I32;
    case DTYPE_INT64: return ST_I64;
    case DTYPE_UINT8: return ST_U8;
    case DTYPE_UINT16: return ST_U16;
    case DTYPE_UINT32: return ST_U32;
    case DTYPE_UINT64: return ST_U64;
    case DTYPE_FP64: return ST_F64;
    default: return ST_F32;    /* fp8, fp16, bf16, fp32 */
    }
}

static inline int st_size(stk s)
{
    static const int size[] = {1, 1, 2, 4, 8, 1, 2, 4, 8, 4, 8};
    return size[s];
}

static inline bool st_is_float(stk s)
{
    return s == ST_F32 || s == ST_F64;
}

/* Does the slot hold the same bytes as memory does (so loads and stores
 * are plain copies)?  Not for int1 (memory may hold any nonzero byte),
 * fp16/bf16/fp8 (slots hold floats). */
static inline bool same_repr(dtype t)
{
    return dtype_is_ptr(t) || (t != DTYPE_INT1 && t != DTYPE_FP8E4NV && t != DTYPE_FP8E5 &&
                               t != DTYPE_FP16 && t != DTYPE_BF16);
}

/* One element of a slot, in dtype.h's canonical form, and back. */
static inline dtype_scalar lane_get(dtype t, const void *p, int64_t i)
{
    dtype_scalar v = {.u = 0};
    switch (st_of(t)) {
    case ST_B: v.u = ((const uint8_t *)p)[i] != 0; break;
    case ST_I8: v.i = ((const int8_t *)p)[i]; break;
    case ST_I16: v.i = ((const int16_t *)p)[i]; break;
    case ST_I32: v.i = ((const int32_t *)p)[i]; break;
    case ST_I64: v.i = ((const int64_t *)p)[i]; break;
    case ST_U8: v.u = ((const uint8_t *)p)[i]; break;
    case ST_U16: v.u = ((const uint16_t *)p)[i]; break;
    case ST_U32: v.u = ((const uint32_t *)p)[i]; break;
    case ST_U64: v.u = ((const uint64_t *)p)[i]; break;
    case ST_F32: v.f = ((const float *)p)[i]; break;
    case ST_F64: v.f = ((const double *)p)[i]; break;
    }
    return v;
}

static inline void lane_set(dtype t, void *p, int64_t i, dtype_scalar v)
{
    switch (st_of(t)) {
    case ST_B: ((uint8_t *)p)[i] = v.u != 0; break;
    case ST_I8: ((int8_t *)p)[i] = (int8_t)v.i; break;
    case ST_I16: ((int16_t *)p)[i] = (int16_t)v.i; break;
    case ST_I32: ((int32_t *)p)[i] = (int32_t)v.i; break;
    case ST_I64: ((int64_t *)p)[i] = v.i; break;
    case ST_U8: ((uint8_t *)p)[i] = (uint8_t)v.u; break;
    case ST_U16: ((uint16_t *)p)[i] = (uint16_t)v.u; break;
    case ST_U32: ((uint32_t *)p)[i] = (uint32_t)v.u; break;
    case ST_U64: ((uint64_t *)p)[i] = v.u; break;
    case ST_F32: ((float *)p)[i] = (float)v.f; break;
    case ST_F64: ((double *)p)[i] = v.f; break;
    }
}

/* Rounding of fp32 results to the narrow float types. */
static inline float round_f16(float x) { return fpconv_f16_to_f32(fpconv_f32_to_f16(x)); }
static inline float round_bf16(float x) { return fpconv_bf16_to_f32(fpconv_f32_to_bf16(x)); }

static inline void round_lanes(dtype t, void *p, int64_t n)
{
    if (t == DTYPE_FP16)
        fpconv_round_f16_n(p, n);
    else if (t == DTYPE_BF16)
        fpconv_round_bf16_n(p, n);
}

/* After integer arithmetic on int1 lanes: keep bit 0 (wrap at width 1). */
static inline void wrap_int1(void *p, int64_t n)
{
    uint8_t *b = p;
    for (int64_t i = 0; i < n; i++)
        b[i] &= 1;
}

/* fp32 rounded to tf32 (10 explicit mantissa bits, nearest even), as the
 * tensor cores read fp32 inputs under input_precision="tf32". */
static inline float round_tf32(float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    if ((u & 0x7f800000u) != 0x7f800000u) {    /* finite */
        u += 0xfffu + ((u >> 13) & 1);
        u &= ~0x1fffu;
    }
    memcpy(&x, &u, sizeof x);
    return x;
}

/* ======================================================================
 * The plan and the launch state.
 * ====================================================================== */

typedef struct exec_plan {
    size_t *off;           /* per slot: byte offset in a register file; the
                              one allocation that also holds argbytes,
                              sflags and iflags */
    int64_t *numel;        /* per slot: element count */
    uint8_t *sflags;       /* per slot: FASTPATH_TRACKED, FASTPATH_LAZY */
    uint8_t *iflags;       /* per instruction: FASTPATH_RECORD, ... */
    uint64_t *argbytes;    /* per parameter: bytes a pointer argument spans */
    size_t recat;          /* byte offset of the records (exec_rec per slot)
                              in a register file */
    size_t doneat;         /* byte offset of a byte per instruction: this
                              worker has run it (FASTPATH_INVARIANT) */
    size_t regbytes;       /* one register file */
    size_t scratchbytes;   /* per worker: dot operands, print conversions,
                              untagged addresses (check_access) */
    bool prints;           /* the kernel has PRINT: order its output */
    bool int_ptrs;         /* the kernel makes pointers from integers: its
                              pointer lanes may carry addrmap.h's tags */
} exec_plan;

typedef struct exec_worker {
    unsigned char *regs;
    unsigned char *scratch;
    strbuf out;            /* the running program's output */
} exec_worker;

/* A finished program's output, waiting for the programs before it. */
typedef struct exec_pending {
    char *text;            /* NULL when it printed nothing */
    size_t len;
    uint8_t state;         /* PEND_* */
} exec_pending;

enum { PEND_RUNNING, PEND_DONE, PEND_FAILED };

typedef struct exec_error {
    int64_t pid;           /* INT64_MAX: no error */
    const ir_inst *at;
    char *msg, *note;      /* malloc'd; note may be NULL */
    char *text;            /* the failing program's output before it failed */
    size_t len;
} exec_error;

typedef struct exec_check exec_check;

typedef struct exec_ctx {
    const exec_launch *L;
    const ir_kernel *k;
    exec_plan plan;
    exec_check *check;     /* --racecheck, --initcheck (exec_check.c), or NULL */
    exec_worker *workers;
    int nworkers;
    int64_t nprog;

    pthread_mutex_t lock;  /* guards everything below */
    int64_t cursor;        /* programs below it have been written */
    exec_pending *win;     /* programs [cursor, cursor + wincap), by pid % wincap */
    int64_t wincap;        /* a power of two */
    exec_error err;

    /* A debugger session (exec_sess_*): programs also run one instruction
     * at a time, and their text is written as soon as it is printed. */
    bool debug;
    bool session;          /* a debugger session, even while debug is off */
    const volatile sig_atomic_t *stop;   /* exec_sess_run: set to stop taking programs */
    uint8_t *skipped;      /* exec_sess_run: per program, 1 when the stop left it out */
    int64_t base;          /* exec_sess_run: pool item i is program base + i */
    exec_prog **held;      /* exec_sess_run: programs the stop caught running */
    int nheld;
    /* The buffers of the last program freed (exec_prog_free), for the next
     * exec_sess_start: a malloc and free of them per program made glibc
     * give the heap's top back and fault it in again for each program.
     * The debugger's thread only (not pool threads' held copies). */
    unsigned char *spare_regs, *spare_scratch;
    bool ready;            /* exec_ctx_init made the workers and the window */
    bool reported;         /* the error has been reported */
} exec_ctx;

/* One running program. */
typedef struct exec_prog {
    exec_ctx *x;
    exec_worker *w;
    unsigned char *regs;
    int64_t pid;
    int64_t coord[3];
    uint32_t naccess;       /* its memory accesses recorded so far
                               (alog_event.access) */
    uint64_t lock;          /* --racecheck: the address of the spin lock it
                               holds (exec_check_lock), or 0 */
    const ir_inst *fail_at;
    char msg[640];
    char note[256];
    /* debugger sessions only: the next instruction, and the program's own
     * registers and output (in own) */
    int32_t pc;
    exec_status state;
    exec_worker own;
} exec_prog;

/* The affine record of a tracked slot (fastpath.h): its lanes are
 * base + sum(st[d] * index[d]) (index and pointer tiles; pointers wrap
 * modulo 2^64), or, for int1 slots, 1 where lo[d] <= index[d] < hi[d] on
 * every axis.  valid: the record describes the slot's current value;
 * mat: the register file holds its lanes.  A lazy slot has valid || mat;
 * any other tracked slot always has mat.  (The record of a FASTPATH_VIEW
 * slot, a tile only a dot reads, says instead where its load left the rows
 * when valid: base their address, st[0] the row stride in elements.) */
typedef struct exec_rec {
    int64_t base;
    int64_t st[IR_MAX_DIM];
    int32_t lo[IR_MAX_DIM], hi[IR_MAX_DIM];
    bool valid, mat;
} exec_rec;

#define SLOT(P, s) ((void *)((P)->regs + (P)->x->plan.off[s]))
#define REC(P, s) ((exec_rec *)((P)->regs + (P)->x->plan.recat) + (s))
#define TRACKED(P, s) ((P)->x->plan.sflags[s] & FASTPATH_TRACKED)
#define LAZY(P, s) ((P)->x->plan.sflags[s] & FASTPATH_LAZY)
#define IFLAGS(P, in) ((P)->x->plan.iflags[(in) - (P)->x->k->code])
#define NUMEL(P, s) ((P)->x->plan.numel[s])
#define TYPE(P, s) (&(P)->x->k->slots[s].type)
#define DT(P, s) ((P)->x->k->slots[s].type.dt)
/* Stride of an elementwise operand: 0 for a scalar broadcast to all lanes. */
#define STRIDE(P, s) (NUMEL(P, s) == 1 ? 0 : 1)

/* ======================================================================
 * Shared helpers of the typed loops.
 * ====================================================================== */

/* Expand M(T, W, S) for the integer storage kind s: T the C type, W the
 * unsigned type its arithmetic wraps in (at least unsigned int, so that no
 * promotion to signed int can overflow), S 1 for signed types.  Pointers
 * count as uint64.  Floats run F(T, suffix) with suffix f or nothing. */
#define FOR_STK(s, M, F) switch (s) { \
    case ST_B: M(uint8_t, uint32_t, 0); break; \
    case ST_I8: M(int8_t, uint32_t, 1); break; \
    case ST_I16: M(int16_t, uint32_t, 1); break; \
    case ST_I32: M(int32_t, uint32_t, 1); break; \
    case ST_I64: M(int64_t, uint64_t, 1); break; \
    case ST_U8: M(uint8_t, uint32_t, 0); break; \
    case ST_U16: M(uint16_t, uint32_t, 0); break; \
    case ST_U32: M(uint32_t, uint32_t, 0); break; \
    case ST_U64: M(uint64_t, uint64_t, 0); break; \
    case ST_F32: F(float, f); break; \
    case ST_F64: F(double, ); break; \
}

/* A tracked tile's shape (at most AFFINE_MAX_DIM axes) padded on the left
 * to exactly AFFINE_MAX_DIM axes. */
static inline void rec_shape4(const ir_type *t, int64_t *n)
{
    int pad = AFFINE_MAX_DIM - t->ndim;
    for (int d = 0; d < AFFINE_MAX_DIM; d++)
        n[d] = d < pad ? 1 : t->shape[d - pad];
}

/* n rounded up to a multiple of 64. */
static inline size_t align64(size_t n)
{
    return (n + 63) & ~(size_t)63;
}


/* ======================================================================
 * What each file offers the others.
 * ====================================================================== */

/* ---- exec.c: errors, the loop, the plan, the launch ------------------- */

/* Stop the program with an error; the message is kept until the launch
 * decides which failing program to report.  Always returns false. */
bool exec_fail(exec_prog *P, const ir_inst *in, const char *note, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* "internal error: OP WHAT is not supported on TYPE"; false. */
bool exec_internal(exec_prog *P, const ir_inst *in, const char *what);
/* "lane 5", or "lane (1, 3)" for a lane of a 2-d (or larger) tile. */
void exec_lane_name(char *buf, size_t len, const ir_type *t, int64_t lane);
/* The type whose shape names the lanes of an instruction. */
const ir_type *exec_lane_type(const exec_prog *P, const ir_inst *in);
/* Run the instruction at *pc and move *pc on.  1: go on; 0: the program
 * ended; -1: it failed (the error is in P). */
int exec_one(exec_prog *P, int32_t *pc);
/* Run a program to its end; false when it failed. */
bool exec_run_program(exec_prog *P);
/* The plan of L's kernel (false after reporting bad IR). */
bool exec_plan_build(const exec_launch *L, exec_plan *pl);
void exec_write_text(exec_ctx *x, const char *s, size_t len);
exec_pending *exec_pending_at(exec_ctx *x, int64_t pid);
/* Keep P's error as the launch's when P is the lowest failing program. */
void exec_record_error(exec_ctx *x, exec_prog *P);
/* Program pid's (x, y, z) in the launch's grid. */
void exec_pid_coords(const exec_ctx *x, int64_t pid, int64_t coord[3]);
/* The pool's work item: program base + item. */
bool exec_run_item(void *ctx, int64_t item, int worker);
void exec_report_at(exec_ctx *x, const ir_inst *in, const char *msg, const char *note,
                    const char *text, size_t len);
void exec_report_error(exec_ctx *x);
/* Zeroed, 64-byte aligned memory. */
void *exec_alloc64(size_t bytes);
bool exec_ctx_init(exec_ctx *x, const exec_launch *L, bool *empty);
void exec_ctx_free(exec_ctx *x);

/* ---- exec_affine.c: affine records ------------------------------------ */

bool exec_rec_compute(exec_prog *P, const ir_inst *in, exec_rec *r);
void exec_rec_fill(exec_prog *P, int32_t s, const exec_rec *r);
void exec_slot_sync(exec_prog *P, int32_t s);

/* ---- the ops: one per opcode (false: the program failed) -------------- */

/* exec_tile.c */
bool exec_op_broadcast(exec_prog *P, const ir_inst *in);
bool exec_op_trans(exec_prog *P, const ir_inst *in);
bool exec_op_flip(exec_prog *P, const ir_inst *in);
bool exec_op_concat(exec_prog *P, const ir_inst *in);
bool exec_op_slice(exec_prog *P, const ir_inst *in);
bool exec_op_gather(exec_prog *P, const ir_inst *in);
bool exec_op_histogram(exec_prog *P, const ir_inst *in);
bool exec_op_cast(exec_prog *P, const ir_inst *in);
bool exec_op_bitcast(exec_prog *P, const ir_inst *in);
bool exec_op_unary(exec_prog *P, const ir_inst *in);
bool exec_op_binary(exec_prog *P, const ir_inst *in);
bool exec_op_cmp(exec_prog *P, const ir_inst *in);
bool exec_op_where(exec_prog *P, const ir_inst *in);
bool exec_op_math(exec_prog *P, const ir_inst *in);
bool exec_op_ptr_add(exec_prog *P, const ir_inst *in);
/* exec_mem.c */
bool exec_op_load(exec_prog *P, const ir_inst *in);
bool exec_op_store(exec_prog *P, const ir_inst *in);
bool exec_op_atomic(exec_prog *P, const ir_inst *in);
/* exec_reduce.c */
bool exec_op_dot(exec_prog *P, const ir_inst *in);
bool exec_op_reduce(exec_prog *P, const ir_inst *in);
bool exec_op_scan(exec_prog *P, const ir_inst *in);
/* exec_print.c */
bool exec_op_print(exec_prog *P, const ir_inst *in);
bool exec_op_assert(exec_prog *P, const ir_inst *in);
bool exec_op_breakpoint(exec_prog *P, const ir_inst *in);

/* ---- exec_print.c ----------------------------------------------------- */

/* n lanes of a slot of type t (at A) in numpy's memory format, at D;
 * returns the type of D's elements. */
dtype exec_numpy_lanes(dtype t, void *D, const void *A, int64_t n);

/* ---- exec_check.c: --racecheck and --initcheck ------------------------- */

typedef enum exec_acc { EXEC_ACC_LOAD, EXEC_ACC_STORE, EXEC_ACC_ATOMIC } exec_acc;

/* The checkers' state for x's launch (x->L asks for them; x's plan is
 * built), or NULL when neither is on. */
exec_check *exec_check_new(exec_ctx *x);
void exec_check_free(exec_check *c);
/* The lanes of a memory instruction that passed its bounds check: n
 * addresses ptr[i * sp] of esz bytes, those with mask[i * sm] set (mask
 * NULL: all) through pointer slot pslot.  false after failing P: an
 * uninitialised read, or (in a debugger session) a race. */
bool exec_check_access(exec_prog *P, const ir_inst *in, exec_acc kind, int32_t pslot,
                       const uint64_t *ptr, int64_t sp, const uint8_t *mask, int64_t sm,
                       int64_t n, int esz);
/* An ATOMIC of one active lane at address ad has run: a CAS that
 * succeeded (ok) takes a spin lock there, an XCHG of the lock held
 * releases it (tl.atomic_cas(lock, 0, 1) ... tl.atomic_xchg(lock, 0)). */
void exec_check_lock(exec_prog *P, ir_atomic op, uint64_t ad, bool ok);
/* After every program ran: report the launch's first race (false), if
 * any. */
bool exec_check_end(exec_ctx *x);
/* Does c look for races (a debugger session then runs its programs one
 * after the other, so that the same access is caught on every run)? */
bool exec_check_races(const exec_check *c);
/* Must an access through parameter arg (-1: unknown) take the plain
 * path, lane by lane, for c (mem_fast asks)? */
bool exec_check_lanes(const exec_check *c, const exec_launch *L, int arg);

/* ---- exec_sess.c ------------------------------------------------------ */

/* A debugger session's program run on the pool, stopping when asked. */
bool exec_run_program_stoppable(exec_prog *P);

#endif
