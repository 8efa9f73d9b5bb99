/* exec.c - the CPU executor (exec.h): runs every program of a launch over
 * the kernel's typed IR (ir.h) on the thread pool, one register file per
 * worker, with Triton's semantics and a bounds check on every memory lane.
 *
 * How it is laid out:
 *   - the plan: each slot's byte offset in a register file (64-byte
 *     aligned) and element count, fixed once per launch, and the fast-path
 *     analysis (fastpath.h): which slots are tracked as affine records
 *     (lazy ones keep no lanes), which instructions take a fast path;
 *   - affine records: index and pointer tiles as base + strides, masks as
 *     boxes, computed by the instructions that write tracked slots;
 *   - tile operations: one function per opcode; each dispatches once on
 *     the element type and runs a tight typed loop (the MAP macros), so no
 *     per-element type switch happens on the common paths; data movement
 *     (BROADCAST, TRANS, FLIP: strided gathers; CONCAT, SLICE: block
 *     copies) moves raw lanes, whatever their type;
 *   - memory: loads, stores and atomics check the active lanes first (a
 *     min/max pass, then a per-lane search only when something is wrong),
 *     then move the data (a memcpy when the lanes are contiguous); through
 *     a tracked pointer the check is one address range and the data moves
 *     by rows, and anything doubtful goes the lane-by-lane way, which
 *     reports the exact failing lane;
 *   - dot (gemm.c, OpenBLAS for fp64; a 3-D dot is one 2-D product per
 *     batch; acc += tl.dot(a, b) accumulates in place), reduce, scan,
 *     print, assert;
 *   - the interpreter loop and the launch: program ids go to the pool;
 *     each program's text is flushed in program-id order; the lowest
 *     failing program's error is the one reported.
 *
 * Slot storage (exec.h): int1 one byte 0/1, ints their C type, fp16, bf16
 * (and fp8) a float holding a value of that type, fp32 float, fp64
 * double, pointers a uint64_t address.
 *
 * Semantics that C leaves open, decided here:
 *   - integer arithmetic wraps at the type's width (done in unsigned C
 *     arithmetic so no signed overflow ever happens in C);
 *   - integer // and % truncate (C's, via dtype_floordiv_* / dtype_mod_*);
 *     division by zero gives 0 and reports nothing (the GPU gives garbage);
 *   - shifts by a count >= the width (or negative) give 0, or the sign
 *     fill for >> on signed types;
 *   - fp16/bf16 arithmetic is done in fp32 and rounded once to the type
 *     (exact-equivalent for + - * / sqrt, since 24 >= 2p + 2);
 *   - float -> int casts saturate and map NaN to 0 (dtype_cast);
 *   - REDUCE sums floats in the type's own precision, sequentially along
 *     the axis (fp16/bf16: in fp32, rounded once at the end), so results
 *     can differ from the GPU's tree order in the last bits; max/min ignore
 *     NaN unless every element is NaN; argmax/argmin return the first index
 *     of the extreme value, skipping NaN (all NaN: index 0);
 *   - SCAN keeps its running value in the same precision (fp16/bf16 in
 *     fp32, every output rounded);
 *   - ATOMIC lanes run one at a time, in lane order, each a real atomic
 *     (fetch-add for 4/8-byte ints, a compare-and-swap loop otherwise);
 *     masked lanes return 0;
 *   - libdevice's float functions (MATH) compute fp32 lanes in double and
 *     round once, so they are correctly rounded but for rare double
 *     roundings (CUDA's libdevice has ulp errors of its own); the *_rz,
 *     *_rd, *_ru operations set the rounding mode (fesetround) around
 *     their loop;
 *   - tl.device_print writes Triton's GPU format (PrintOpToLLVM.cpp), not
 *     the interpreter's: "pid (0, 1, 0) idx ( 3) x: 1.500000".
 *
 * Errors stop the launch: the message of the lowest failing program id is
 * reported (the pool hands out ids in order, so every lower program has
 * run), after the output of the programs before it and its own. */
#define _POSIX_C_SOURCE 200809L
/* The typed loops below run over unknown lane counts with operands that may
 * alias the destination: GCC's default cost model at -O2 ("very-cheap")
 * leaves such loops scalar, so let it vectorise them behind runtime
 * checks.  Vectorising elementwise loops never changes a result; float
 * reductions stay in order (that would need -fassociative-math). */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("vect-cost-model=dynamic")
#endif
#include "exec.h"

#include <cblas.h>
#include <fenv.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "addrmap.h"
#include "arena.h"
#include "blas.h"
#include "fastpath.h"
#include "gemm.h"
#include "format.h"
#include "mathfn.h"
#include "pyformat.h"
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

static bool st_is_float(stk s)
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
static dtype_scalar lane_get(dtype t, const void *p, int64_t i)
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

static void lane_set(dtype t, void *p, int64_t i, dtype_scalar v)
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

/* n lanes of a slot of type t (at A) copied to D in numpy's memory format,
 * the one format.h and exec_tile want: fp16 and bf16 lanes (floats in a
 * slot) become their 16-bit patterns, any other lane is copied as it is.
 * D has room for n lanes of the slot's size.  Returns the type of D's
 * elements: t, except fp8, whose values D holds as fp32. */
static dtype numpy_lanes(dtype t, void *D, const void *A, int64_t n)
{
    if (t == DTYPE_FP16 || t == DTYPE_BF16) {
        uint16_t *h = D;
        const float *f = A;
        for (int64_t i = 0; i < n; i++)
            h[i] = t == DTYPE_FP16 ? dtype_f32_to_f16(f[i]) : dtype_f32_to_bf16(f[i]);
        return t;
    }
    if (dtype_is_ptr(t)) {       /* the addresses, without addrmap.h's tags */
        uint64_t *d = D;
        const uint64_t *a = A;
        for (int64_t i = 0; i < n; i++)
            d[i] = addrmap_untag(a[i]);
        return t;
    }
    memcpy(D, A, (size_t)n * (size_t)st_size(st_of(t)));
    return dtype_is_fp8(t) ? DTYPE_FP32 : t;
}

/* Rounding of fp32 results to the narrow float types. */
static inline float round_f16(float x) { return dtype_f16_to_f32(dtype_f32_to_f16(x)); }
static inline float round_bf16(float x) { return dtype_bf16_to_f32(dtype_f32_to_bf16(x)); }

static void round_lanes(dtype t, void *p, int64_t n)
{
    float *f = p;
    if (t == DTYPE_FP16)
        for (int64_t i = 0; i < n; i++)
            f[i] = round_f16(f[i]);
    else if (t == DTYPE_BF16)
        for (int64_t i = 0; i < n; i++)
            f[i] = round_bf16(f[i]);
}

/* After integer arithmetic on int1 lanes: keep bit 0 (wrap at width 1). */
static void wrap_int1(void *p, int64_t n)
{
    uint8_t *b = p;
    for (int64_t i = 0; i < n; i++)
        b[i] &= 1;
}

/* fp32 rounded to tf32 (10 explicit mantissa bits, nearest even), as the
 * tensor cores read fp32 inputs under input_precision="tf32". */
static float round_tf32(float x)
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

typedef struct exec_ctx {
    const exec_launch *L;
    const ir_kernel *k;
    exec_plan plan;
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
    bool ready;            /* ctx_init made the workers and the window */
    bool reported;         /* the error has been reported */
} exec_ctx;

/* One running program. */
typedef struct exec_prog {
    exec_ctx *x;
    exec_worker *w;
    unsigned char *regs;
    int64_t pid;
    int64_t coord[3];
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

/* Stop the program with an error; the message is kept until the launch
 * decides which failing program to report.  Always returns false. */
static bool fail(exec_prog *P, const ir_inst *in, const char *note,
                 const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static bool fail(exec_prog *P, const ir_inst *in, const char *note,
                 const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(P->msg, sizeof P->msg, fmt, ap);
    va_end(ap);
    snprintf(P->note, sizeof P->note, "%s", note ? note : "");
    P->fail_at = in;
    return false;
}

static bool internal(exec_prog *P, const ir_inst *in, const char *what)
{
    int32_t s = in->a >= 0 ? in->a : in->dst;
    return fail(P, in, NULL, "internal error: %s %s is not supported on %s",
                ir_op_name((ir_opcode)in->op), what, s >= 0 ? dtype_name(DT(P, s)) : "?");
}

/* "lane 5", or "lane (1, 3)" for a lane of a 2-d (or larger) tile. */
static void lane_name(char *buf, size_t len, const ir_type *t, int64_t lane)
{
    if (t->ndim <= 1) {
        snprintf(buf, len, "lane %" PRId64, lane);
        return;
    }
    int64_t idx[IR_MAX_DIM];
    for (int d = t->ndim - 1; d >= 0; d--) {
        idx[d] = lane % t->shape[d];
        lane /= t->shape[d];
    }
    size_t n = (size_t)snprintf(buf, len, "lane (");
    for (int d = 0; d < t->ndim && n < len; d++)
        n += (size_t)snprintf(buf + n, len - n, "%s%" PRId64, d ? ", " : "", idx[d]);
    if (n < len)
        snprintf(buf + n, len - n, ")");
}

/* The type whose shape names the lanes of an instruction: its largest
 * operand. */
static const ir_type *lane_type(const exec_prog *P, const ir_inst *in)
{
    int32_t s[4] = {in->dst, in->a, in->b, in->c};
    int32_t best = -1;
    for (int i = 0; i < 4; i++)
        if (s[i] >= 0 && (best < 0 || NUMEL(P, s[i]) > NUMEL(P, best)))
            best = s[i];
    return TYPE(P, best);
}

/* ======================================================================
 * Elementwise loops.
 *
 * The macros use the names in scope: n (lanes), D (destination), A, B, C
 * (operands) and sa, sb, sc (their strides: 1, or 0 for a scalar that
 * broadcasts without being materialised).  Inside EXPR the current lane's
 * operands are a, b (and c).  MAP1 and MAP2 expand one loop per stride
 * pattern so the all-tile loop stays plain enough to vectorise.
 * ====================================================================== */

#define MAP1(TA, TD, EXPR) do { \
    const TA *pa_ = (const TA *)A; TD *pd_ = (TD *)D; \
    if (sa) { \
        for (int64_t i = 0; i < n; i++) { TA a = pa_[i]; pd_[i] = (TD)(EXPR); } \
    } else { \
        TA a = pa_[0]; TD r_ = (TD)(EXPR); \
        for (int64_t i = 0; i < n; i++) pd_[i] = r_; \
    } \
} while (0)

#define MAP2(TA, TD, EXPR) do { \
    const TA *pa_ = (const TA *)A, *pb_ = (const TA *)B; TD *pd_ = (TD *)D; \
    if (sa && sb) { \
        for (int64_t i = 0; i < n; i++) { TA a = pa_[i], b = pb_[i]; pd_[i] = (TD)(EXPR); } \
    } else if (sa) { \
        TA b = pb_[0]; \
        for (int64_t i = 0; i < n; i++) { TA a = pa_[i]; pd_[i] = (TD)(EXPR); } \
    } else if (sb) { \
        TA a = pa_[0]; \
        for (int64_t i = 0; i < n; i++) { TA b = pb_[i]; pd_[i] = (TD)(EXPR); } \
    } else { \
        TA a = pa_[0], b = pb_[0]; TD r_ = (TD)(EXPR); \
        for (int64_t i = 0; i < n; i++) pd_[i] = r_; \
    } \
} while (0)

#define MAP3(TA, TD, EXPR) do { \
    const TA *pa_ = (const TA *)A, *pb_ = (const TA *)B, *pc_ = (const TA *)C; \
    TD *pd_ = (TD *)D; \
    for (int64_t i = 0; i < n; i++) { \
        TA a = pa_[i * sa], b = pb_[i * sb], c = pc_[i * sc]; pd_[i] = (TD)(EXPR); \
    } \
} while (0)

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

/* Integer // and %: C's truncating division through dtype.h. */
#define IDIV(S, a, b) ((S) ? (uint64_t)dtype_floordiv_i64((int64_t)(a), (int64_t)(b)) \
                           : dtype_floordiv_u64((uint64_t)(a), (uint64_t)(b)))
#define IMOD(S, a, b) ((S) ? (uint64_t)dtype_mod_i64((int64_t)(a), (int64_t)(b)) \
                           : dtype_mod_u64((uint64_t)(a), (uint64_t)(b)))

/* IEEE minimum/maximum (NaN propagates; -0 < +0), for propagate_nan=ALL. */
static inline double fminnan(double a, double b)
{
    if (a != a || b != b)
        return a + b;
    return a < b ? a : b < a ? b : signbit(a) ? a : b;
}
static inline double fmaxnan(double a, double b)
{
    if (a != a || b != b)
        return a + b;
    return a > b ? a : b > a ? b : signbit(a) ? b : a;
}
static inline float fminnanf(float a, float b) { return (float)fminnan(a, b); }
static inline float fmaxnanf(float a, float b) { return (float)fmaxnan(a, b); }

/* ======================================================================
 * Affine records (fastpath.h): index, pointer and mask tiles described by
 * a base and a stride per axis (masks: a box of lanes), so that loads and
 * stores through them check one address range and copy whole rows, and
 * lazy slots never have their lanes written at all.
 * ====================================================================== */

/* A tile's shape padded on the left to IR_MAX_DIM axes. */
static void rec_shape4(const ir_type *t, int64_t *n)
{
    int pad = IR_MAX_DIM - t->ndim;
    for (int d = 0; d < IR_MAX_DIM; d++)
        n[d] = d < pad ? 1 : t->shape[d - pad];
}

/* The record of operand s: a scalar (its value, zero strides; int1: all
 * lanes or none), or the valid record of a tracked slot; NULL otherwise. */
static const exec_rec *rec_of(exec_prog *P, int32_t s, exec_rec *tmp)
{
    if (NUMEL(P, s) == 1) {
        dtype t = DT(P, s);
        dtype_scalar v = lane_get(t, SLOT(P, s), 0);
        memset(tmp, 0, sizeof *tmp);
        if (t == DTYPE_INT1) {
            for (int d = 0; d < IR_MAX_DIM; d++)
                tmp->hi[d] = v.u ? INT32_MAX : 0;
        } else if (dtype_is_ptr(t) || dtype_is_signed(t)) {
            tmp->base = v.i;
        } else {
            if (v.u > INT64_MAX)
                return NULL;
            tmp->base = (int64_t)v.u;
        }
        tmp->valid = true;
        return tmp;
    }
    if (TRACKED(P, s) && REC(P, s)->valid)
        return REC(P, s);
    return NULL;
}

/* Do the lanes of an index record fit its type, so that the wrapping
 * arithmetic that made them was exact?  (Pointers always fit: their
 * records wrap as the lanes do.) */
static bool rec_fits(const exec_rec *r, const ir_type *t)
{
    if (dtype_is_ptr(t->dt))
        return true;
    int64_t lo = r->base, hi = r->base;
    for (int d = 0; d < t->ndim; d++) {
        int64_t span;
        if (__builtin_mul_overflow(r->st[d], (int64_t)t->shape[d] - 1, &span))
            return false;
        if (__builtin_add_overflow(span < 0 ? lo : hi, span, span < 0 ? &lo : &hi))
            return false;
    }
    static const int64_t min[] = {0, INT8_MIN, INT16_MIN, INT32_MIN, INT64_MIN, 0, 0, 0, 0};
    static const int64_t max[] = {1, INT8_MAX, INT16_MAX, INT32_MAX, INT64_MAX,
                                  UINT8_MAX, UINT16_MAX, UINT32_MAX, INT64_MAX};
    stk k = st_of(t->dt);
    return k <= ST_U64 && lo >= min[k] && hi <= max[k];
}

/* Map operand record a (of type ta) onto the axes of td, numpy's
 * broadcast: axes aligned on the right, size-1 and missing axes repeat. */
static void rec_broadcast(const exec_rec *a, const ir_type *ta, const ir_type *td,
                          exec_rec *r)
{
    r->base = a->base;
    for (int d = 0; d < td->ndim; d++) {
        int j = d - (td->ndim - ta->ndim);
        bool rep = j < 0 || ta->shape[j] == 1;
        r->st[d] = rep ? 0 : a->st[j];
        /* a repeated axis is on everywhere, unless a's box is empty */
        r->lo[d] = rep ? 0 : a->lo[j];
        r->hi[d] = rep ? INT32_MAX : a->hi[j];
    }
    for (int j = 0; j < ta->ndim; j++)
        if (a->lo[j] >= a->hi[j] && td->ndim > 0)
            r->hi[0] = r->lo[0] = 0;
}

/* RESHAPE: when a and dst have the same axes of size > 1 (only size-1
 * axes come or go), or a's index record is affine in its row-major lane
 * number (so any reshape is). */
static bool rec_reshape(const exec_rec *a, const ir_type *ta, const ir_type *td,
                        bool box, exec_rec *r)
{
    int ja = 0;
    bool same = true;
    int64_t st[IR_MAX_DIM] = {0};
    int32_t lo[IR_MAX_DIM] = {0}, hi[IR_MAX_DIM] = {0};
    bool empty = false;
    for (int j = 0; j < ta->ndim; j++)
        empty |= box && a->lo[j] >= a->hi[j];
    for (int d = 0; d < td->ndim; d++) {
        if (td->shape[d] == 1) {
            hi[d] = 1;
            continue;
        }
        while (ja < ta->ndim && ta->shape[ja] == 1)
            ja++;
        if (ja >= ta->ndim || ta->shape[ja] != td->shape[d]) {
            same = false;
            break;
        }
        st[d] = a->st[ja];
        lo[d] = a->lo[ja];
        hi[d] = a->hi[ja];
        ja++;
    }
    while (same && ja < ta->ndim && ta->shape[ja] == 1)
        ja++;
    if (same && ja == ta->ndim) {
        r->base = a->base;
        memcpy(r->st, st, sizeof st);
        memcpy(r->lo, lo, sizeof lo);
        memcpy(r->hi, hi, sizeof hi);
        if (empty && td->ndim > 0)
            r->lo[0] = r->hi[0] = 0;
        return true;
    }
    if (box)
        return false;
    /* Affine in the lane number f: st[d] == step * (elements after d). */
    int64_t step = ta->ndim ? a->st[ta->ndim - 1] : 0, after = 1, want;
    for (int j = ta->ndim - 1; j >= 0; j--) {
        if (ta->shape[j] > 1 &&
            (__builtin_mul_overflow(step, after, &want) || a->st[j] != want))
            return false;
        after *= ta->shape[j];
    }
    r->base = a->base;
    after = 1;
    for (int d = td->ndim - 1; d >= 0; d--) {
        if (__builtin_mul_overflow(step, after, &r->st[d]))
            return false;
        after *= td->shape[d];
    }
    return true;
}

/* CMP of two index records whose difference varies along one axis at most:
 * the box of lanes where (a - b) op 0. */
static bool rec_compare(const exec_rec *a, const exec_rec *b, ir_cmp op,
                        const ir_type *td, exec_rec *r)
{
    int64_t c, st[IR_MAX_DIM];
    if (__builtin_sub_overflow(a->base, b->base, &c))
        return false;
    int axis = -1;
    for (int d = 0; d < td->ndim; d++) {
        if (__builtin_sub_overflow(a->st[d], b->st[d], &st[d]))
            return false;
        r->lo[d] = 0;
        r->hi[d] = td->shape[d];
        if (st[d] != 0 && td->shape[d] > 1) {
            if (axis >= 0)
                return false;
            axis = d;
        }
    }
    /* c + s * i op 0 for i in [0, n) */
    int64_t s = axis >= 0 ? st[axis] : 0, n = axis >= 0 ? td->shape[axis] : 1;
    int64_t lo = 0, hi = n, lim;
    switch (op) {
    case IR_LT: lim = 0; break;                  /* c + s*i < 0 */
    case IR_LE: lim = 1; break;                  /* c + s*i < 1 */
    case IR_GT: case IR_GE:                      /* -c - s*i < 0 (or < 1) */
        if (c == INT64_MIN || s == INT64_MIN)
            return false;
        c = -c;
        s = -s;
        lim = op == IR_GT ? 0 : 1;
        break;
    default:
        if (s != 0)
            return false;
        lim = 0;
        break;
    }
    if (op == IR_EQ || op == IR_NE) {
        bool on = (c == 0) == (op == IR_EQ);
        hi = on ? n : 0;
    } else {
        /* c + s*i < lim, i.e. s*i < lim - c */
        int64_t t;
        if (__builtin_sub_overflow(lim, c, &t) || t == INT64_MIN)
            return false;
        if (s == 0) {
            hi = 0 < t ? n : 0;
        } else if (s > 0) {             /* i < t / s, rounded up */
            int64_t q = t / s + (t % s != 0 && t > 0);
            hi = q < 0 ? 0 : q > n ? n : q;
        } else {                        /* i > -t / -s: i >= floor(t / s) + 1 */
            int64_t q = t / s - (t % s != 0 && t > 0);   /* floor(t / s), s < 0 */
            int64_t first = q + 1;
            lo = first < 0 ? 0 : first > n ? n : first;
        }
    }
    if (lo >= hi) {
        lo = hi = 0;
        if (axis < 0 && td->ndim > 0)
            r->lo[0] = r->hi[0] = 0;
    }
    if (axis >= 0) {
        r->lo[axis] = (int32_t)lo;
        r->hi[axis] = (int32_t)hi;
        if (lo >= hi)
            r->lo[axis] = r->hi[axis] = 0;
    }
    return true;
}

/* The record of instruction in's result, from its operands' records;
 * false when the result is not affine (or would wrap). */
static bool rec_compute(exec_prog *P, const ir_inst *in, exec_rec *r)
{
    const ir_type *td = TYPE(P, in->dst);
    dtype t = td->dt;
    bool box = t == DTYPE_INT1;
    exec_rec ta, tb;
    const exec_rec *a = NULL, *b = NULL;
    memset(r, 0, sizeof *r);
    switch ((ir_opcode)in->op) {
    case IR_CONST: {
        dtype_scalar v = dtype_wrap(t, (uint64_t)in->imm);
        if (box) {
            for (int d = 0; d < td->ndim; d++)
                r->hi[d] = v.u ? td->shape[d] : 0;
            return true;
        }
        if (!dtype_is_ptr(t) && !dtype_is_signed(t) && v.u > INT64_MAX)
            return false;
        r->base = v.i;
        break;
    }
    case IR_ARANGE:
        r->base = in->imm;
        r->st[0] = 1;
        break;
    case IR_COPY: case IR_CAST:
        if (!(a = rec_of(P, in->a, &ta)))
            return false;
        *r = *a;
        break;
    case IR_BROADCAST:
        if (!(a = rec_of(P, in->a, &ta)))
            return false;
        rec_broadcast(a, NUMEL(P, in->a) == 1 ? td : TYPE(P, in->a), td, r);
        break;
    case IR_RESHAPE:
        if (!(a = rec_of(P, in->a, &ta)))
            return false;
        if (NUMEL(P, in->a) == 1)
            *r = *a;
        else if (!rec_reshape(a, TYPE(P, in->a), td, box, r))
            return false;
        break;
    case IR_BINARY: case IR_CMP: case IR_PTR_ADD:
        if (!(a = rec_of(P, in->a, &ta)) || !(b = rec_of(P, in->b, &tb)))
            return false;
        break;
    default:
        return false;
    }
    if (in->op == IR_BINARY && box) {          /* AND of two boxes */
        for (int d = 0; d < td->ndim; d++) {
            r->lo[d] = a->lo[d] > b->lo[d] ? a->lo[d] : b->lo[d];
            r->hi[d] = a->hi[d] < b->hi[d] ? a->hi[d] : b->hi[d];
        }
    } else if (in->op == IR_BINARY && in->sub == IR_MUL) {
        /* one side must be the same on every lane: it scales the other */
        bool ua = true, ub = true;
        for (int d = 0; d < td->ndim; d++) {
            ua &= a->st[d] == 0;
            ub &= b->st[d] == 0;
        }
        if (!ua && !ub)
            return false;
        int64_t f = ua ? a->base : b->base;
        const exec_rec *x = ua ? b : a;
        if (__builtin_mul_overflow(f, x->base, &r->base))
            return false;
        for (int d = 0; d < td->ndim; d++)
            if (__builtin_mul_overflow(f, x->st[d], &r->st[d]))
                return false;
    } else if (in->op == IR_BINARY) {       /* ADD, SUB */
        bool add = in->sub == IR_ADD;
        if (add ? __builtin_add_overflow(a->base, b->base, &r->base)
                : __builtin_sub_overflow(a->base, b->base, &r->base))
            return false;
        for (int d = 0; d < td->ndim; d++)
            if (add ? __builtin_add_overflow(a->st[d], b->st[d], &r->st[d])
                    : __builtin_sub_overflow(a->st[d], b->st[d], &r->st[d]))
                return false;
    } else if (in->op == IR_CMP) {
        if (!rec_compare(a, b, (ir_cmp)in->sub, td, r))
            return false;
    } else if (in->op == IR_PTR_ADD) {
        uint64_t esz = (uint64_t)dtype_size(dtype_elem(t));
        r->base = (int64_t)((uint64_t)a->base + (uint64_t)b->base * esz);
        for (int d = 0; d < td->ndim; d++) {
            int64_t bs;
            if (__builtin_mul_overflow(b->st[d], (int64_t)esz, &bs) ||
                __builtin_add_overflow(a->st[d], bs, &r->st[d]))
                return false;
        }
    }
    if (box) {
        for (int d = 0; d < td->ndim; d++) {
            if (r->hi[d] > td->shape[d])
                r->hi[d] = td->shape[d];
            if (r->lo[d] < 0)
                r->lo[d] = 0;
        }
        return true;
    }
    return rec_fits(r, td);
}

/* Write a record's lanes into slot s. */
#define REC_FILL(T) do { \
    T *d_ = (T *)D; \
    for (int64_t i0 = 0; i0 < n[0]; i0++) \
        for (int64_t i1 = 0; i1 < n[1]; i1++) \
            for (int64_t i2 = 0; i2 < n[2]; i2++) { \
                uint64_t row_ = (uint64_t)r->base + (uint64_t)i0 * st[0] + \
                                (uint64_t)i1 * st[1] + (uint64_t)i2 * st[2]; \
                for (int64_t j = 0; j < n[3]; j++) \
                    *d_++ = (T)(row_ + (uint64_t)j * st[3]); \
            } \
} while (0)

static void rec_fill(exec_prog *P, int32_t s, const exec_rec *r)
{
    const ir_type *t = TYPE(P, s);
    void *D = SLOT(P, s);
    int64_t n[IR_MAX_DIM];
    uint64_t st[IR_MAX_DIM] = {0};
    int pad = IR_MAX_DIM - t->ndim;
    rec_shape4(t, n);
    if (t->dt == DTYPE_INT1) {
        int32_t lo[IR_MAX_DIM] = {0}, hi[IR_MAX_DIM] = {1, 1, 1, 1};
        for (int d = 0; d < t->ndim; d++) {
            lo[d + pad] = r->lo[d];
            hi[d + pad] = r->hi[d];
        }
        uint8_t *b = D;
        for (int64_t i0 = 0; i0 < n[0]; i0++)
            for (int64_t i1 = 0; i1 < n[1]; i1++)
                for (int64_t i2 = 0; i2 < n[2]; i2++) {
                    bool on = i0 >= lo[0] && i0 < hi[0] && i1 >= lo[1] && i1 < hi[1] &&
                              i2 >= lo[2] && i2 < hi[2] && lo[3] < hi[3];
                    memset(b, 0, (size_t)n[3]);
                    if (on)
                        memset(b + lo[3], 1, (size_t)(hi[3] - lo[3]));
                    b += n[3];
                }
        return;
    }
    for (int d = 0; d < t->ndim; d++)
        st[d + pad] = (uint64_t)r->st[d];
    switch (st_of(t->dt)) {
    case ST_I8: case ST_U8: case ST_B: REC_FILL(uint8_t); break;
    case ST_I16: case ST_U16: REC_FILL(uint16_t); break;
    case ST_I32: case ST_U32: REC_FILL(uint32_t); break;
    default: REC_FILL(uint64_t); break;
    }
}

/* Make slot s's lanes available in the register file (a lazy slot holds
 * only its record until something needs them): an instruction whose
 * record could not be made (rec_op), or a fast-path load or store that
 * falls back to the lane-by-lane way, reads its tracked operands' lanes.
 * (Debugger sessions have no lazy slots: they plan with keep_lanes.) */
static void slot_sync(exec_prog *P, int32_t s)
{
    if (s < 0 || !LAZY(P, s))
        return;
    exec_rec *r = REC(P, s);
    if (!r->mat) {
        rec_fill(P, s, r);
        r->mat = true;
    }
}

/* An instruction that writes a tracked slot: its record, and its lanes
 * unless the slot is lazy (exec_one calls it before the op).  Returns false
 * when the record cannot describe the result: the operands' lanes are then
 * in the register file and the op computes the lanes the ordinary way. */
static bool rec_op(exec_prog *P, const ir_inst *in)
{
    exec_rec r;
    if (rec_compute(P, in, &r)) {
        bool lazy = LAZY(P, in->dst);
        r.valid = true;
        r.mat = !lazy;
        *REC(P, in->dst) = r;
        if (!lazy)
            rec_fill(P, in->dst, &r);
        return true;
    }
    slot_sync(P, in->a);
    slot_sync(P, in->b);
    exec_rec *d = REC(P, in->dst);
    d->valid = false;
    d->mat = true;
    return false;
}

/* ---- constants, ids, arguments --------------------------------------- */

static bool op_const(exec_prog *P, const ir_inst *in)
{
    dtype t = DT(P, in->dst);
    int64_t n = NUMEL(P, in->dst);
    void *D = SLOT(P, in->dst);
    dtype_scalar v;
    if (!dtype_is_ptr(t) && dtype_is_float(t))
        v.f = dtype_round_float(t, in->fimm);
    else
        v = dtype_wrap(t, (uint64_t)in->imm);
    /* Fill the first lane, then copy it over the rest. */
    lane_set(t, D, 0, v);
    int sz = st_size(st_of(t));
    for (int64_t i = 1; i < n; i++)
        memcpy((char *)D + i * sz, D, (size_t)sz);
    return true;
}

static bool op_program_id(exec_prog *P, const ir_inst *in)
{
    int64_t axis = in->imm < 0 || in->imm > 2 ? 0 : in->imm;
    int64_t v = in->op == IR_PROGRAM_ID ? P->coord[axis] : P->x->L->grid[axis];
    *(int32_t *)SLOT(P, in->dst) = (int32_t)v;
    return true;
}

static bool op_arg(exec_prog *P, const ir_inst *in)
{
    const exec_arg *arg = &P->x->L->args[in->imm];
    lane_set(DT(P, in->dst), SLOT(P, in->dst), 0, arg->value);
    return true;
}

static bool op_arange(exec_prog *P, const ir_inst *in)
{
    int32_t *d = SLOT(P, in->dst);
    int64_t n = NUMEL(P, in->dst);
    for (int64_t i = 0; i < n; i++)
        d[i] = (int32_t)(in->imm + i);
    return true;
}

/* ---- data movement --------------------------------------------------- */

static bool op_copy(exec_prog *P, const ir_inst *in)
{
    if (IFLAGS(P, in) & FASTPATH_COPY_SKIP)
        return true;         /* the dot before it worked in place */
    if (in->dst != in->a)
        memcpy(SLOT(P, in->dst), SLOT(P, in->a),
               (size_t)NUMEL(P, in->dst) * (size_t)st_size(st_of(DT(P, in->dst))));
    return true;
}

/* D[index] = A[sum(index[i] * stride[i])] over the nd-dimensional shape,
 * elements of sz bytes: BROADCAST and TRANS are strided gathers. */
#define GATHER(T) do { \
    T *d_ = (T *)D; const T *s_ = (const T *)A; \
    int64_t idx_[IR_MAX_DIM] = {0}, off_ = 0; \
    int64_t inner_ = shape[nd - 1], st_ = stride[nd - 1]; \
    for (int64_t done_ = 0; done_ < total; done_ += inner_) { \
        for (int64_t j_ = 0; j_ < inner_; j_++) \
            *d_++ = s_[off_ + j_ * st_]; \
        for (int ax_ = nd - 2; ax_ >= 0; ax_--) { \
            off_ += stride[ax_]; \
            if (++idx_[ax_] < shape[ax_]) \
                break; \
            off_ -= stride[ax_] * shape[ax_]; \
            idx_[ax_] = 0; \
        } \
    } \
} while (0)

static void gather(void *D, const void *A, int sz, int nd, const int64_t *shape,
                   const int64_t *stride)
{
    int64_t total = 1;
    for (int i = 0; i < nd; i++)
        total *= shape[i];
    if (nd == 0) {
        memcpy(D, A, (size_t)sz);
        return;
    }
    switch (sz) {
    case 1: GATHER(uint8_t); break;
    case 2: GATHER(uint16_t); break;
    case 4: GATHER(uint32_t); break;
    default: GATHER(uint64_t); break;
    }
}

/* Row-major strides (in elements) of a type. */
static void row_strides(const ir_type *t, int64_t *stride)
{
    int64_t s = 1;
    for (int d = t->ndim - 1; d >= 0; d--) {
        stride[d] = s;
        s *= t->shape[d];
    }
}

static bool op_broadcast(exec_prog *P, const ir_inst *in)
{
    const ir_type *td = TYPE(P, in->dst), *ta = TYPE(P, in->a);
    int64_t astride[IR_MAX_DIM], shape[IR_MAX_DIM], stride[IR_MAX_DIM];
    row_strides(ta, astride);
    /* numpy: align the shapes on the right; size-1 and missing axes
     * repeat (stride 0). */
    for (int d = 0; d < td->ndim; d++) {
        int j = d - (td->ndim - ta->ndim);
        shape[d] = td->shape[d];
        stride[d] = j < 0 || ta->shape[j] == 1 ? 0 : astride[j];
    }
    gather(SLOT(P, in->dst), SLOT(P, in->a), st_size(st_of(td->dt)), td->ndim,
           shape, stride);
    return true;
}

static bool op_trans(exec_prog *P, const ir_inst *in)
{
    const ir_type *td = TYPE(P, in->dst), *ta = TYPE(P, in->a);
    int64_t astride[IR_MAX_DIM], shape[IR_MAX_DIM], stride[IR_MAX_DIM];
    row_strides(ta, astride);
    for (int d = 0; d < td->ndim; d++) {
        int from = (int)((in->imm >> (4 * d)) & 15);
        shape[d] = td->shape[d];
        stride[d] = astride[from];
    }
    gather(SLOT(P, in->dst), SLOT(P, in->a), st_size(st_of(td->dt)), td->ndim,
           shape, stride);
    return true;
}

/* FLIP: the same gather, starting at the last element of the axis and
 * walking it backwards. */
static bool op_flip(exec_prog *P, const ir_inst *in)
{
    const ir_type *ta = TYPE(P, in->a);
    int64_t shape[IR_MAX_DIM], stride[IR_MAX_DIM];
    int sz = st_size(st_of(ta->dt)), ax = (int)in->imm;
    row_strides(ta, stride);
    for (int d = 0; d < ta->ndim; d++)
        shape[d] = ta->shape[d];
    const char *A = (const char *)SLOT(P, in->a) + (shape[ax] - 1) * stride[ax] * sz;
    stride[ax] = -stride[ax];
    gather(SLOT(P, in->dst), A, sz, ta->ndim, shape, stride);
    return true;
}

/* The byte size of one step along axis (the elements after it). */
static int64_t axis_block(const ir_type *t, int axis, int sz)
{
    int64_t inner = sz;
    for (int d = axis + 1; d < t->ndim; d++)
        inner *= t->shape[d];
    return inner;
}

/* CONCAT and SLICE copy whole blocks: for each index before the axis, a
 * contiguous run of rows along it. */
static bool op_concat(exec_prog *P, const ir_inst *in)
{
    const ir_type *ta = TYPE(P, in->a), *tb = TYPE(P, in->b);
    int ax = (int)in->imm, sz = st_size(st_of(ta->dt));
    int64_t blk = axis_block(ta, ax, sz), outer = 1;
    for (int d = 0; d < ax; d++)
        outer *= ta->shape[d];
    size_t na = (size_t)(ta->shape[ax] * blk), nb = (size_t)(tb->shape[ax] * blk);
    char *D = SLOT(P, in->dst);
    const char *A = SLOT(P, in->a), *B = SLOT(P, in->b);
    for (int64_t o = 0; o < outer; o++) {
        memcpy(D, A + o * (int64_t)na, na);
        memcpy(D + na, B + o * (int64_t)nb, nb);
        D += na + nb;
    }
    return true;
}

static bool op_slice(exec_prog *P, const ir_inst *in)
{
    const ir_type *ta = TYPE(P, in->a), *td = TYPE(P, in->dst);
    int ax = (int)(in->imm & 15), sz = st_size(st_of(ta->dt));
    int64_t blk = axis_block(ta, ax, sz), outer = 1, start = in->imm >> 4;
    for (int d = 0; d < ax; d++)
        outer *= ta->shape[d];
    size_t nd = (size_t)(td->shape[ax] * blk);
    char *D = SLOT(P, in->dst);
    const char *A = (const char *)SLOT(P, in->a) + start * blk;
    for (int64_t o = 0; o < outer; o++)
        memcpy(D + o * (int64_t)nd, A + o * ta->shape[ax] * blk, nd);
    return true;
}

/* GATHER: dst[i] = a[i with its axis coordinate replaced by b[i]]; an
 * index outside the axis stops the program, naming the lane. */
static bool op_gather(exec_prog *P, const ir_inst *in)
{
    const ir_type *ta = TYPE(P, in->a), *td = TYPE(P, in->dst);
    int ax = (int)in->imm, sz = st_size(st_of(ta->dt));
    dtype it = DT(P, in->b);
    bool sgn = dtype_is_signed(it);
    int64_t astride[IR_MAX_DIM], idx[IR_MAX_DIM] = {0}, n = NUMEL(P, in->dst);
    row_strides(ta, astride);
    char *D = SLOT(P, in->dst);
    const char *A = SLOT(P, in->a);
    const void *X = SLOT(P, in->b);
    for (int64_t lane = 0; lane < n; lane++) {
        dtype_scalar v = lane_get(it, X, lane);
        int64_t k = sgn ? v.i : (int64_t)v.u;
        if ((!sgn && v.u >= (uint64_t)ta->shape[ax]) || k < 0 || k >= ta->shape[ax]) {
            char ln[64];
            lane_name(ln, sizeof ln, td, lane);
            const int64_t *c = P->coord;
            return fail(P, in, "clamp or mask the indices: they must lie in [0, size of "
                        "the axis)",
                        "tl.gather index out of range in program (%" PRId64 ", %" PRId64
                        ", %" PRId64 "): %s has index %s%" PRIu64 ", but axis %d has %d "
                        "elements", c[0], c[1], c[2], ln, sgn && v.i < 0 ? "-" : "",
                        sgn && v.i < 0 ? (uint64_t)0 - (uint64_t)v.i : sgn ? (uint64_t)v.i
                                                                         : v.u,
                        ax, ta->shape[ax]);
        }
        int64_t off = 0;
        for (int d = 0; d < td->ndim; d++)
            off += (d == ax ? k : idx[d]) * astride[d];
        memcpy(D + lane * sz, A + off * sz, (size_t)sz);
        for (int d = td->ndim - 1; d >= 0 && ++idx[d] == td->shape[d]; d--)
            idx[d] = 0;
    }
    return true;
}

/* HISTOGRAM: dst(int32 [bins]) counts the values of a in [0, bins), for
 * lanes where b (int1; -1: all); values outside are not counted. */
static bool op_histogram(exec_prog *P, const ir_inst *in)
{
    dtype it = DT(P, in->a);
    bool sgn = dtype_is_signed(it);
    int64_t n = NUMEL(P, in->a), bins = NUMEL(P, in->dst);
    int32_t *D = SLOT(P, in->dst);
    const void *A = SLOT(P, in->a);
    const uint8_t *M = in->b >= 0 ? SLOT(P, in->b) : NULL;
    memset(D, 0, (size_t)bins * sizeof *D);
    for (int64_t i = 0; i < n; i++) {
        if (M && !M[i])
            continue;
        dtype_scalar v = lane_get(it, A, i);
        if (sgn ? v.i >= 0 && v.i < bins : v.u < (uint64_t)bins)
            D[sgn ? v.i : (int64_t)v.u]++;
    }
    return true;
}

/* ---- casts ----------------------------------------------------------- */

/* Saturating float -> int (NaN -> 0), as dtype_cast does. */
static inline int32_t sat_i32(double x)
{
    if (x != x)
        return 0;
    if (x >= 2147483648.0)
        return INT32_MAX;
    if (x <= -2147483649.0)
        return INT32_MIN;
    return (int32_t)x;
}

static inline int64_t sat_i64(double x)
{
    if (x != x)
        return 0;
    if (x >= 9223372036854775808.0)
        return INT64_MAX;
    if (x < -9223372036854775808.0)
        return INT64_MIN;
    return (int64_t)x;
}

/* Integer (or pointer) -> integer of another width: C's conversions wrap
 * and sign-extend exactly as dtype_cast does (except to int1). */
#define CAST_INT_TO(T, W, S) do { \
    switch (ts) { \
    case ST_I8: MAP1(T, int8_t, a); break; \
    case ST_I16: MAP1(T, int16_t, a); break; \
    case ST_I32: MAP1(T, int32_t, a); break; \
    case ST_I64: MAP1(T, int64_t, a); break; \
    case ST_U8: MAP1(T, uint8_t, a); break; \
    case ST_U16: MAP1(T, uint16_t, a); break; \
    case ST_U32: MAP1(T, uint32_t, a); break; \
    case ST_U64: MAP1(T, uint64_t, a); break; \
    default: return false; \
    } \
} while (0)

/* Any type -> int1: nonzero (NaN counts as nonzero, fcmp UNE). */
#define CAST_TO_BOOL(T, W, S) MAP1(T, uint8_t, a != 0)
#define CAST_TO_BOOL_F(T, F) MAP1(T, uint8_t, a != 0)
/* Integer -> fp32 / fp64: C rounds correctly. */
#define CAST_INT_TO_F32(T, W, S) MAP1(T, float, a)
#define CAST_INT_TO_F64(T, W, S) MAP1(T, double, a)
#define CAST_NONE_F(T, F) return false

static bool cast_fast(dtype from, dtype to, void *D, const void *A, int64_t n,
                      int64_t sa)
{
    stk fs = st_of(from), ts = st_of(to);
    bool fint = !st_is_float(fs), tint = !st_is_float(ts);
    if (to == DTYPE_INT1) {
        FOR_STK(fs, CAST_TO_BOOL, CAST_TO_BOOL_F);
        return true;
    }
    if (fint && tint) {
        FOR_STK(fs, CAST_INT_TO, CAST_NONE_F);
        return true;
    }
    if (fint && to == DTYPE_FP32) {
        FOR_STK(fs, CAST_INT_TO_F32, CAST_NONE_F);
        return true;
    }
    if (fint && to == DTYPE_FP64) {
        FOR_STK(fs, CAST_INT_TO_F64, CAST_NONE_F);
        return true;
    }
    if (fint && (to == DTYPE_FP16 || to == DTYPE_BF16) && dtype_bits(from) <= 16) {
        /* exact in fp32, so one rounding */
        FOR_STK(fs, CAST_INT_TO_F32, CAST_NONE_F);
        round_lanes(to, D, n);
        return true;
    }
    if (fs == ST_F32 && to == DTYPE_FP32) {
        MAP1(float, float, a);                 /* fp16/bf16/fp8 values are exact */
        return true;
    }
    if (fs == ST_F32 && (to == DTYPE_FP16 || to == DTYPE_BF16)) {
        MAP1(float, float, a);
        round_lanes(to, D, n);
        return true;
    }
    if (fs == ST_F32 && to == DTYPE_FP64) { MAP1(float, double, a); return true; }
    if (fs == ST_F64 && to == DTYPE_FP32) { MAP1(double, float, a); return true; }
    if (fs == ST_F32 && to == DTYPE_INT32) { MAP1(float, int32_t, sat_i32(a)); return true; }
    if (fs == ST_F64 && to == DTYPE_INT32) { MAP1(double, int32_t, sat_i32(a)); return true; }
    if (fs == ST_F32 && to == DTYPE_INT64) { MAP1(float, int64_t, sat_i64(a)); return true; }
    if (fs == ST_F64 && to == DTYPE_INT64) { MAP1(double, int64_t, sat_i64(a)); return true; }
    return false;
}

/* Does [ad, ad + esz) lie in pointer argument i's bytes? */
static bool in_arg(const exec_ctx *x, int i, uint64_t ad, int esz);

/* A cast between pointers and integers.  int -> pointer: each address
 * that lies in a storage of the registry (addrmap.h: tensors whose
 * data_ptr() the program took) gets that storage's tag, so that accesses
 * through it are checked against it; any other address (one in a pointer
 * argument, or in nothing) stays as it is, and check_access decides.
 * pointer -> int: the address without its tag. */
static bool cast_pointer(exec_prog *P, const ir_inst *in, dtype from, dtype to, void *D,
                         const void *A, int64_t n, int64_t sa)
{
    (void)in;
    uint64_t *d = D;
    for (int64_t i = 0; i < n; i++) {
        dtype_scalar v = lane_get(from, A, i * sa);
        if (dtype_is_ptr(from)) {
            if (P->x->plan.int_ptrs)
                v.u = addrmap_untag(v.u);
            lane_set(to, D, i, dtype_cast(v, from, to));
            continue;
        }
        uint64_t ad = dtype_cast(v, from, to).u;
        int tag = addrmap_find(ad);
        d[i] = tag ? addrmap_tagged(ad, tag) : ad;
    }
    return true;
}

static bool op_cast(exec_prog *P, const ir_inst *in)
{
    dtype from = DT(P, in->a), to = DT(P, in->dst);
    int64_t n = NUMEL(P, in->dst), sa = STRIDE(P, in->a);
    void *D = SLOT(P, in->dst);
    const void *A = SLOT(P, in->a);
    bool tf32 = in->sub == 1 && from == DTYPE_FP32;
    bool rtz = in->sub == 2;
    if (dtype_is_ptr(to) != dtype_is_ptr(from))
        return cast_pointer(P, in, from, to, D, A, n, sa);
    if (!tf32 && !rtz && cast_fast(from, to, D, A, n, sa))
        return true;
    /* Everything else, one lane at a time through dtype_cast. */
    for (int64_t i = 0; i < n; i++) {
        dtype_scalar v = lane_get(from, A, i * sa);
        if (tf32)
            v.f = round_tf32((float)v.f);
        if (rtz)
            v.f = dtype_round_float_rtz(to, v.f);   /* then exact in `to` */
        lane_set(to, D, i, dtype_cast(v, from, to));
    }
    return true;
}

static bool op_bitcast(exec_prog *P, const ir_inst *in)
{
    dtype from = DT(P, in->a), to = DT(P, in->dst);
    int64_t n = NUMEL(P, in->dst), sa = STRIDE(P, in->a);
    const void *A = SLOT(P, in->a);
    void *D = SLOT(P, in->dst);
    if (same_repr(from) && same_repr(to) && sa == 1) {
        memcpy(D, A, (size_t)n * (size_t)st_size(st_of(to)));
        return true;
    }
    /* Through the memory format: fp16 <-> int16 needs the 16-bit pattern. */
    for (int64_t i = 0; i < n; i++) {
        unsigned char bits[8] = {0};
        dtype_store(from, bits, lane_get(from, A, i * sa));
        lane_set(to, D, i, dtype_load(to, bits));
    }
    return true;
}

/* ---- arithmetic ------------------------------------------------------ */

#define UNARY_INT(T, W, S) do { \
    switch ((ir_unop)in->sub) { \
    case IR_NEG: MAP1(T, T, (T)(0 - (W)a)); break; \
    case IR_INVERT: MAP1(T, T, (T)~(W)a); break; \
    case IR_NOT: MAP1(T, T, a == 0); break; \
    default: return internal(P, in, "variant"); \
    } \
} while (0)

#define UNARY_FLOAT(T, F) do { \
    switch ((ir_unop)in->sub) { \
    case IR_NEG: MAP1(T, T, -a); break; \
    case IR_NOT: MAP1(T, T, a == 0); break; \
    default: return internal(P, in, "variant"); \
    } \
} while (0)

static bool op_unary(exec_prog *P, const ir_inst *in)
{
    dtype t = DT(P, in->dst);
    int64_t n = NUMEL(P, in->dst), sa = STRIDE(P, in->a);
    void *D = SLOT(P, in->dst);
    const void *A = SLOT(P, in->a);
    FOR_STK(st_of(t), UNARY_INT, UNARY_FLOAT);
    if (t == DTYPE_INT1)
        wrap_int1(D, n);
    return true;
}

#define BINARY_INT(T, W, S) do { \
    switch ((ir_binop)in->sub) { \
    case IR_ADD: MAP2(T, T, (T)((W)a + (W)b)); break; \
    case IR_SUB: MAP2(T, T, (T)((W)a - (W)b)); break; \
    case IR_MUL: MAP2(T, T, (T)((W)a * (W)b)); break; \
    case IR_DIV: case IR_FLOORDIV: MAP2(T, T, (T)IDIV(S, a, b)); break; \
    case IR_MOD: MAP2(T, T, (T)IMOD(S, a, b)); break; \
    case IR_AND: MAP2(T, T, a & b); break; \
    case IR_OR: MAP2(T, T, a | b); break; \
    case IR_XOR: MAP2(T, T, a ^ b); break; \
    case IR_MIN: case IR_MIN_NAN: MAP2(T, T, a < b ? a : b); break; \
    case IR_MAX: case IR_MAX_NAN: MAP2(T, T, a > b ? a : b); break; \
    default: return internal(P, in, "variant"); \
    } \
} while (0)

#define BINARY_FLOAT(T, F) do { \
    switch ((ir_binop)in->sub) { \
    case IR_ADD: MAP2(T, T, a + b); break; \
    case IR_SUB: MAP2(T, T, a - b); break; \
    case IR_MUL: MAP2(T, T, a * b); break; \
    case IR_DIV: case IR_FDIV_RN: MAP2(T, T, a / b); break; \
    case IR_FLOORDIV: MAP2(T, T, floor##F(a / b)); break; \
    case IR_MOD: MAP2(T, T, fmod##F(a, b)); break; \
    case IR_MIN: MAP2(T, T, fmin##F(a, b)); break; \
    case IR_MAX: MAP2(T, T, fmax##F(a, b)); break; \
    case IR_MIN_NAN: MAP2(T, T, fminnan##F(a, b)); break; \
    case IR_MAX_NAN: MAP2(T, T, fmaxnan##F(a, b)); break; \
    case IR_POW: MAP2(T, T, pow(a, b)); break;       /* fp32: in double, as MATH */ \
    case IR_ATAN2: MAP2(T, T, atan2(a, b)); break; \
    default: return internal(P, in, "variant"); \
    } \
} while (0)

/* A shift count as uint64 (negative counts become huge: shifted out). */
static inline uint64_t shift_count(stk s, const void *p, int64_t i)
{
    switch (s) {
    case ST_B: case ST_U8: return ((const uint8_t *)p)[i];
    case ST_I8: return (uint64_t)((const int8_t *)p)[i];
    case ST_I16: return (uint64_t)((const int16_t *)p)[i];
    case ST_U16: return ((const uint16_t *)p)[i];
    case ST_I32: return (uint64_t)((const int32_t *)p)[i];
    case ST_U32: return ((const uint32_t *)p)[i];
    case ST_I64: return (uint64_t)((const int64_t *)p)[i];
    case ST_U64: return ((const uint64_t *)p)[i];
    default: return UINT64_MAX;
    }
}

/* a << c and a >> c with the count in b's own type; counts >= the width
 * give 0 (or the sign fill for >> on signed types) instead of C's UB. */
#define SHIFT_INT(T, W, S) do { \
    const T *pa_ = (const T *)A; T *pd_ = (T *)D; \
    const uint64_t bits_ = (uint64_t)dtype_bits(t); \
    for (int64_t i = 0; i < n; i++) { \
        T a = pa_[i * sa]; \
        uint64_t c = shift_count(bs, B, i * sb); \
        if (left) \
            pd_[i] = c >= bits_ ? (T)0 : (T)((W)a << c); \
        else \
            pd_[i] = c >= bits_ ? ((S) ? (T)(a >> (bits_ - 1)) : (T)0) : (T)(a >> c); \
    } \
} while (0)
#define SHIFT_FLOAT(T, F) return internal(P, in, "shift")

static bool op_shift(exec_prog *P, const ir_inst *in)
{
    dtype t = DT(P, in->dst);
    int64_t n = NUMEL(P, in->dst), sa = STRIDE(P, in->a), sb = STRIDE(P, in->b);
    void *D = SLOT(P, in->dst);
    const void *A = SLOT(P, in->a), *B = SLOT(P, in->b);
    stk bs = st_of(DT(P, in->b));
    bool left = in->sub == IR_SHL;
    FOR_STK(st_of(t), SHIFT_INT, SHIFT_FLOAT);
    if (t == DTYPE_INT1)
        wrap_int1(D, n);
    return true;
}

static bool op_binary(exec_prog *P, const ir_inst *in)
{
    if (in->sub == IR_SHL || in->sub == IR_SHR)
        return op_shift(P, in);
    dtype t = DT(P, in->dst);
    int64_t n = NUMEL(P, in->dst), sa = STRIDE(P, in->a), sb = STRIDE(P, in->b);
    void *D = SLOT(P, in->dst);
    const void *A = SLOT(P, in->a), *B = SLOT(P, in->b);
    FOR_STK(st_of(t), BINARY_INT, BINARY_FLOAT);
    if (t == DTYPE_INT1)
        wrap_int1(D, n);
    else
        round_lanes(t, D, n);
    return true;
}

#define CMP_ANY(T) do { \
    switch ((ir_cmp)in->sub) { \
    case IR_EQ: MAP2(T, uint8_t, a == b); break; \
    case IR_NE: MAP2(T, uint8_t, a != b); break; \
    case IR_LT: MAP2(T, uint8_t, a < b); break; \
    case IR_LE: MAP2(T, uint8_t, a <= b); break; \
    case IR_GT: MAP2(T, uint8_t, a > b); break; \
    case IR_GE: MAP2(T, uint8_t, a >= b); break; \
    default: return internal(P, in, "variant"); \
    } \
} while (0)
#define CMP_INT(T, W, S) CMP_ANY(T)
#define CMP_FLOAT(T, F) CMP_ANY(T)

static bool op_cmp(exec_prog *P, const ir_inst *in)
{
    int64_t n = NUMEL(P, in->dst), sa = STRIDE(P, in->a), sb = STRIDE(P, in->b);
    void *D = SLOT(P, in->dst);
    const void *A = SLOT(P, in->a), *B = SLOT(P, in->b);
    FOR_STK(st_of(DT(P, in->a)), CMP_INT, CMP_FLOAT);
    return true;
}

#define WHERE_LOOP(T) do { \
    const uint8_t *m_ = A; const T *x_ = B, *y_ = C; T *d_ = D; \
    for (int64_t i = 0; i < n; i++) \
        d_[i] = m_[i * sa] ? x_[i * sb] : y_[i * sc]; \
} while (0)

static bool op_where(exec_prog *P, const ir_inst *in)
{
    int64_t n = NUMEL(P, in->dst);
    int64_t sa = STRIDE(P, in->a), sb = STRIDE(P, in->b), sc = STRIDE(P, in->c);
    void *D = SLOT(P, in->dst);
    const void *A = SLOT(P, in->a), *B = SLOT(P, in->b), *C = SLOT(P, in->c);
    switch (st_size(st_of(DT(P, in->dst)))) {
    case 1: WHERE_LOOP(uint8_t); break;
    case 2: WHERE_LOOP(uint16_t); break;
    case 4: WHERE_LOOP(uint32_t); break;
    default: WHERE_LOOP(uint64_t); break;
    }
    return true;
}

/* ---- math functions -------------------------------------------------- */

static inline double sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }
static inline float sigmoidf(float x) { return 1.0f / (1.0f + expf(-x)); }
static inline double rsqrt(double x) { return 1.0 / sqrt(x); }
static inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }

/* High half of the double-width unsigned product. */
static inline uint64_t mulhi64(uint64_t a, uint64_t b)
{
    uint64_t al = a & 0xffffffffu, ah = a >> 32, bl = b & 0xffffffffu, bh = b >> 32;
    uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
    uint64_t mid = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);
    return hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}

/* High half of the product of the low `bits` bits of a and b, unsigned. */
static inline uint64_t mulhi(uint64_t a, uint64_t b, int bits)
{
    if (bits == 64)
        return mulhi64(a, b);
    uint64_t m = ((uint64_t)1 << bits) - 1;
    return ((a & m) * (b & m)) >> bits;
}

#define MATH_FLOAT(T, F) do { \
    switch ((ir_math)in->sub) { \
    case IR_EXP: MAP1(T, T, exp##F(a)); break; \
    case IR_EXP2: MAP1(T, T, exp2##F(a)); break; \
    case IR_LOG: MAP1(T, T, log##F(a)); break; \
    case IR_LOG2: MAP1(T, T, log2##F(a)); break; \
    case IR_SQRT: case IR_SQRT_RN: MAP1(T, T, sqrt##F(a)); break; \
    case IR_RSQRT: MAP1(T, T, rsqrt##F(a)); break; \
    case IR_SIN: MAP1(T, T, sin##F(a)); break; \
    case IR_COS: MAP1(T, T, cos##F(a)); break; \
    case IR_TAN: MAP1(T, T, tan(a)); break; \
    case IR_TANH: MAP1(T, T, tanh(a)); break; \
    case IR_ABS: MAP1(T, T, fabs##F(a)); break; \
    case IR_FLOOR: MAP1(T, T, floor##F(a)); break; \
    case IR_CEIL: MAP1(T, T, ceil##F(a)); break; \
    case IR_ERF: MAP1(T, T, erf##F(a)); break; \
    case IR_SIGMOID: MAP1(T, T, sigmoid##F(a)); break; \
    case IR_FMA: MAP3(T, T, fma##F(a, b, c)); break; \
    case IR_ASIN: MAP1(T, T, asin(a)); break; \
    case IR_ACOS: MAP1(T, T, acos(a)); break; \
    case IR_ATAN: MAP1(T, T, atan(a)); break; \
    case IR_SINH: MAP1(T, T, sinh(a)); break; \
    case IR_COSH: MAP1(T, T, cosh(a)); break; \
    case IR_ASINH: MAP1(T, T, asinh(a)); break; \
    case IR_ACOSH: MAP1(T, T, acosh(a)); break; \
    case IR_ATANH: MAP1(T, T, atanh(a)); break; \
    case IR_EXP10: MAP1(T, T, mathfn_exp10(a)); break; \
    case IR_EXPM1: MAP1(T, T, expm1(a)); break; \
    case IR_LOG10: MAP1(T, T, log10(a)); break; \
    case IR_LOG1P: MAP1(T, T, log1p(a)); break; \
    case IR_CBRT: MAP1(T, T, cbrt(a)); break; \
    case IR_RCBRT: MAP1(T, T, 1.0 / cbrt(a)); break; \
    case IR_RSQRT_RN: MAP1(T, T, 1.0 / sqrt(a)); break; \
    case IR_ERFC: MAP1(T, T, erfc(a)); break; \
    case IR_ERFINV: MAP1(T, T, mathfn_erfinv(a)); break; \
    case IR_ERFCINV: MAP1(T, T, mathfn_erfcinv(a)); break; \
    case IR_NORMCDF: MAP1(T, T, mathfn_normcdf(a)); break; \
    case IR_NORMCDFINV: MAP1(T, T, mathfn_normcdfinv(a)); break; \
    case IR_LGAMMA: MAP1(T, T, mathfn_lgamma(a)); break; \
    case IR_TGAMMA: MAP1(T, T, tgamma(a)); break; \
    case IR_SINPI: MAP1(T, T, mathfn_sinpi(a)); break; \
    case IR_COSPI: MAP1(T, T, mathfn_cospi(a)); break; \
    case IR_J0: MAP1(T, T, mathfn_j0(a)); break; \
    case IR_J1: MAP1(T, T, mathfn_j1(a)); break; \
    case IR_Y0: MAP1(T, T, mathfn_y0(a)); break; \
    case IR_Y1: MAP1(T, T, mathfn_y1(a)); break; \
    case IR_TRUNC: MAP1(T, T, trunc##F(a)); break; \
    case IR_ROUND: MAP1(T, T, round##F(a)); break; \
    case IR_RINT: MAP1(T, T, nearbyint##F(a)); break; \
    case IR_LOGB: MAP1(T, T, logb##F(a)); break; \
    case IR_SATURATE: MAP1(T, T, mathfn_saturate(a)); break; \
    case IR_HYPOT: MAP2(T, T, hypot(a, b)); break; \
    case IR_RHYPOT: MAP2(T, T, 1.0 / hypot(a, b)); break; \
    case IR_COPYSIGN: MAP2(T, T, copysign##F(a, b)); break; \
    case IR_NEXTAFTER: MAP2(T, T, nextafter##F(a, b)); break; \
    case IR_FDIM: MAP2(T, T, fdim##F(a, b)); break; \
    case IR_REMAINDER: MAP2(T, T, remainder##F(a, b)); break; \
    default: return internal(P, in, "function"); \
    } \
} while (0)

/* abs wraps (abs(INT_MIN) == INT_MIN); umulhi is the high half of the
 * unsigned double-width product. */
#define MATH_INT(T, W, S) do { \
    switch ((ir_math)in->sub) { \
    case IR_ABS: MAP1(T, T, (S) && !(a >= (T)1 || a == 0) ? (T)(0 - (W)a) : a); break; \
    case IR_UMULHI: MAP2(T, T, mulhi((uint64_t)a, (uint64_t)b, 8 * (int)sizeof(T))); break; \
    case IR_BREV: MAP1(T, T, mathfn_brev((W)a, 8 * (int)sizeof(T))); break; \
    case IR_MULHI: \
        MAP2(T, T, (S) ? mathfn_mulhi_s((int64_t)a, (int64_t)b, 8 * (int)sizeof(T)) \
                       : mathfn_mulhi_u((uint64_t)a, (uint64_t)b, 8 * (int)sizeof(T))); \
        break; \
    case IR_MUL24: \
        MAP2(T, T, (S) ? (uint64_t)((int64_t)sext24((uint32_t)a) * sext24((uint32_t)b)) \
                       : ((uint64_t)a & 0xffffff) * ((uint64_t)b & 0xffffff)); \
        break; \
    case IR_HADD: MAP2(T, T, (S) ? (uint64_t)(((int64_t)a + (int64_t)b) >> 1) \
                                 : ((uint64_t)a + (uint64_t)b) >> 1); break; \
    case IR_RHADD: MAP2(T, T, (S) ? (uint64_t)(((int64_t)a + (int64_t)b + 1) >> 1) \
                                  : ((uint64_t)a + (uint64_t)b + 1) >> 1); break; \
    case IR_SAD: \
        MAP3(T, T, (W)(a > b ? (uint64_t)a - (uint64_t)b : (uint64_t)b - (uint64_t)a) + (W)c); \
        break; \
    case IR_BYTE_PERM: MAP3(T, T, mathfn_byte_perm((uint32_t)a, (uint32_t)b, (uint32_t)c)); \
        break; \
    default: return internal(P, in, "function"); \
    } \
} while (0)

/* The low 24 bits of x as a signed number (mul24's operands). */
static inline int32_t sext24(uint32_t x)
{
    return (int32_t)(x << 8) >> 8;
}

/* Loops over operands of different types: MIXED1 dst = f(a), MIXED2
 * dst = f(a, b) (for ldexp's int exponent, the Bessel functions' order,
 * float tests with int results). */
#define MIXED1(TA, TD, EXPR) do { \
    const TA *pa_ = (const TA *)A; TD *pd_ = (TD *)D; \
    for (int64_t i = 0; i < n; i++) { TA a = pa_[i * sa]; pd_[i] = (TD)(EXPR); } \
} while (0)
#define MIXED2(TA, TB, TD, EXPR) do { \
    const TA *pa_ = (const TA *)A; const TB *pb_ = (const TB *)B; TD *pd_ = (TD *)D; \
    for (int64_t i = 0; i < n; i++) { \
        TA a = pa_[i * sa]; TB b = pb_[i * sb]; pd_[i] = (TD)(EXPR); \
    } \
} while (0)

/* float a: f is the fp32 expression, d the fp64 one */
#define MIXED_FLOAT(st, F1, D1) do { \
    if ((st) == ST_F32) F1; else if ((st) == ST_F64) D1; else return internal(P, in, "function"); \
} while (0)

static inline double bits_double(uint64_t u)
{
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

static inline uint64_t double_bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}

/* The MATH variants whose operands or result have other types than dst's
 * (ir.h: IR_LDEXP .. IR_FFS). */
static bool op_math_mixed(exec_prog *P, const ir_inst *in)
{
    int64_t n = NUMEL(P, in->dst), sa = STRIDE(P, in->a);
    int64_t sb = in->b >= 0 ? STRIDE(P, in->b) : 0;
    void *D = SLOT(P, in->dst);
    const void *A = SLOT(P, in->a);
    const void *B = in->b >= 0 ? SLOT(P, in->b) : A;
    stk st = st_of(DT(P, in->a));
    switch ((ir_math)in->sub) {
    case IR_LDEXP:
        MIXED_FLOAT(st, MIXED2(float, int32_t, float, ldexpf(a, b)),
                    MIXED2(double, int32_t, double, ldexp(a, b)));
        break;
    case IR_POWI:
        MIXED_FLOAT(st, MIXED2(float, int32_t, float, pow(a, b)),
                    MIXED2(double, int32_t, double, pow(a, b)));
        break;
    case IR_JN: case IR_YN: {
        bool j = in->sub == IR_JN;
        MIXED_FLOAT(st_of(DT(P, in->b)),
                    MIXED2(int32_t, float, float, j ? mathfn_jn(a, b) : mathfn_yn(a, b)),
                    MIXED2(int32_t, double, double, j ? mathfn_jn(a, b) : mathfn_yn(a, b)));
        break;
    }
    case IR_ILOGB:
        MIXED_FLOAT(st, MIXED1(float, int32_t, mathfn_ilogb(a)),
                    MIXED1(double, int32_t, mathfn_ilogb(a)));
        break;
    case IR_SIGNBIT:
        MIXED_FLOAT(st, MIXED1(float, int32_t, signbit(a) != 0),
                    MIXED1(double, int32_t, signbit(a) != 0));
        break;
    case IR_ISNAN:
        MIXED_FLOAT(st, MIXED1(float, uint8_t, isnan(a) != 0),
                    MIXED1(double, uint8_t, isnan(a) != 0));
        break;
    case IR_ISINF:
        MIXED_FLOAT(st, MIXED1(float, uint8_t, isinf(a) != 0),
                    MIXED1(double, uint8_t, isinf(a) != 0));
        break;
    case IR_ISFINITE:
        MIXED_FLOAT(st, MIXED1(float, uint8_t, isfinite(a) != 0),
                    MIXED1(double, uint8_t, isfinite(a) != 0));
        break;
    case IR_LLRINT:
        MIXED_FLOAT(st, MIXED1(float, int64_t, mathfn_llrint(a)),
                    MIXED1(double, int64_t, mathfn_llrint(a)));
        break;
    case IR_LLROUND:
        MIXED_FLOAT(st, MIXED1(float, int64_t, mathfn_llround(a)),
                    MIXED1(double, int64_t, mathfn_llround(a)));
        break;
    case IR_HILO2DOUBLE:
        MIXED2(int32_t, int32_t, double, bits_double(((uint64_t)(uint32_t)a << 32) | (uint32_t)b));
        break;
    case IR_DOUBLE2LO:
        MIXED1(double, int32_t, (uint32_t)double_bits(a));
        break;
    case IR_DOUBLE2HI:
        MIXED1(double, int32_t, (uint32_t)(double_bits(a) >> 32));
        break;
    case IR_POPC: case IR_CLZ: case IR_FFS: {
        int bits = st == ST_I64 || st == ST_U64 ? 64 : 32;
        ir_math f = (ir_math)in->sub;
#define BITS_OF(x) (f == IR_POPC ? mathfn_popc(x) : f == IR_CLZ ? mathfn_clz(x, bits) \
                                                                : mathfn_ffs(x))
        if (bits == 64)
            MIXED1(uint64_t, int32_t, BITS_OF(a));
        else
            MIXED1(uint32_t, int32_t, BITS_OF(a));
#undef BITS_OF
        break;
    }
    default:
        return internal(P, in, "function");
    }
    return true;
}

/* IR_ADD_R .. IR_CVT_R: the IEEE operation or conversion in the rounding
 * mode in->imm.  The operands are read and the results written between
 * the two fesetround calls, which the compiler cannot move them across (it
 * must assume a call reads and writes memory). */
#define ROUNDED(T, F) do { \
    switch ((ir_math)in->sub) { \
    case IR_ADD_R: MAP2(T, T, a + b); break; \
    case IR_SUB_R: MAP2(T, T, a - b); break; \
    case IR_MUL_R: MAP2(T, T, a * b); break; \
    case IR_DIV_R: MAP2(T, T, a / b); break; \
    case IR_RCP_R: MAP1(T, T, (T)1 / a); break; \
    case IR_SQRT_R: MAP1(T, T, sqrt##F(a)); break; \
    case IR_FMA_R: MAP3(T, T, fma##F(a, b, c)); break; \
    default: ok = false; break; \
    } \
} while (0)

/* Saturating conversions of an integral double to the unsigned types
 * (NaN and negatives give 0), as the GPU's cvt. */
static inline uint32_t sat_u32(double x)
{
    return x != x || x <= 0 ? 0 : x >= 4294967296.0 ? UINT32_MAX : (uint32_t)x;
}

static inline uint64_t sat_u64(double x)
{
    return x != x || x <= 0 ? 0 : x >= 18446744073709551616.0 ? UINT64_MAX : (uint64_t)x;
}

#define CVT_LOOP(TA, TD, EXPR) MIXED1(TA, TD, EXPR)
/* From a float: to floats by C's conversion, to ints through nearbyint
 * (both in the current rounding mode). */
#define CVT_FROM_FLOAT(TA) do { \
    switch (to) { \
    case ST_F32: CVT_LOOP(TA, float, a); break; \
    case ST_F64: CVT_LOOP(TA, double, a); break; \
    case ST_I32: CVT_LOOP(TA, int32_t, sat_i32(nearbyint(a))); break; \
    case ST_U32: CVT_LOOP(TA, uint32_t, sat_u32(nearbyint(a))); break; \
    case ST_I64: CVT_LOOP(TA, int64_t, sat_i64(nearbyint(a))); break; \
    case ST_U64: CVT_LOOP(TA, uint64_t, sat_u64(nearbyint(a))); break; \
    default: return false; \
    } \
} while (0)
#define CVT_FROM_INT(TA) do { \
    switch (to) { \
    case ST_F32: CVT_LOOP(TA, float, a); break; \
    case ST_F64: CVT_LOOP(TA, double, a); break; \
    default: return false; \
    } \
} while (0)

/* IR_CVT_R, in the rounding mode already set; false for a pair of types
 * it does not convert. */
static bool math_convert(exec_prog *P, const ir_inst *in)
{
    int64_t n = NUMEL(P, in->dst), sa = STRIDE(P, in->a);
    void *D = SLOT(P, in->dst);
    const void *A = SLOT(P, in->a);
    stk to = st_of(DT(P, in->dst));
    switch (st_of(DT(P, in->a))) {
    case ST_F32: CVT_FROM_FLOAT(float); break;
    case ST_F64: CVT_FROM_FLOAT(double); break;
    case ST_I32: CVT_FROM_INT(int32_t); break;
    case ST_U32: CVT_FROM_INT(uint32_t); break;
    case ST_I64: CVT_FROM_INT(int64_t); break;
    case ST_U64: CVT_FROM_INT(uint64_t); break;
    default: return false;
    }
    return true;
}

static bool op_math_rounded(exec_prog *P, const ir_inst *in)
{
    static const int modes[] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};
    dtype t = DT(P, in->dst);
    int64_t n = NUMEL(P, in->dst), sa = STRIDE(P, in->a);
    int64_t sb = in->b >= 0 ? STRIDE(P, in->b) : 0;
    int64_t sc = in->c >= 0 ? STRIDE(P, in->c) : 0;
    void *D = SLOT(P, in->dst);
    const void *A = SLOT(P, in->a);
    const void *B = in->b >= 0 ? SLOT(P, in->b) : A;
    const void *C = in->c >= 0 ? SLOT(P, in->c) : A;
    bool cvt = in->sub == IR_CVT_R;
    if (in->imm < IR_RN || in->imm > IR_RU ||
        (!cvt && t != DTYPE_FP32 && t != DTYPE_FP64))
        return internal(P, in, "rounding");
    bool ok = true;
    int saved = fegetround();
    if (in->imm != IR_RN)
        fesetround(modes[in->imm]);
    if (cvt)
        ok = math_convert(P, in);
    else if (t == DTYPE_FP32)
        ROUNDED(float, f);
    else
        ROUNDED(double, );
    fesetround(saved);
    return ok || internal(P, in, "function");
}

static bool op_math(exec_prog *P, const ir_inst *in)
{
    if (in->sub >= IR_LDEXP && in->sub <= IR_FFS)
        return op_math_mixed(P, in);
    if (in->sub >= IR_ADD_R)
        return op_math_rounded(P, in);
    dtype t = DT(P, in->dst);
    int64_t n = NUMEL(P, in->dst), sa = STRIDE(P, in->a);
    int64_t sb = in->b >= 0 ? STRIDE(P, in->b) : 0;
    int64_t sc = in->c >= 0 ? STRIDE(P, in->c) : 0;
    void *D = SLOT(P, in->dst);
    const void *A = SLOT(P, in->a);
    const void *B = in->b >= 0 ? SLOT(P, in->b) : A;
    const void *C = in->c >= 0 ? SLOT(P, in->c) : A;
    FOR_STK(st_of(t), MATH_INT, MATH_FLOAT);
    round_lanes(t, D, n);
    return true;
}

/* dst = a + b * sizeof(element), in wrapping 64-bit address arithmetic;
 * the usual case, a scalar base plus a tile of offsets, gets its own loop. */
#define PTR_ADD_LOOP(TB) do { \
    const TB *pb_ = (const TB *)B; \
    if (!sa && sb) { \
        uint64_t base_ = pa[0]; \
        for (int64_t i = 0; i < n; i++) \
            d[i] = base_ + (uint64_t)pb_[i] * esz; \
    } else { \
        for (int64_t i = 0; i < n; i++) \
            d[i] = pa[i * sa] + (uint64_t)pb_[i * sb] * esz; \
    } \
} while (0)

static bool op_ptr_add(exec_prog *P, const ir_inst *in)
{
    int64_t n = NUMEL(P, in->dst), sa = STRIDE(P, in->a), sb = STRIDE(P, in->b);
    uint64_t *d = SLOT(P, in->dst);
    const uint64_t *pa = SLOT(P, in->a);
    const void *B = SLOT(P, in->b);
    uint64_t esz = (uint64_t)dtype_size(dtype_elem(DT(P, in->dst)));
    switch (st_of(DT(P, in->b))) {
    case ST_B: case ST_U8: PTR_ADD_LOOP(uint8_t); break;
    case ST_I8: PTR_ADD_LOOP(int8_t); break;
    case ST_I16: PTR_ADD_LOOP(int16_t); break;
    case ST_U16: PTR_ADD_LOOP(uint16_t); break;
    case ST_I32: PTR_ADD_LOOP(int32_t); break;
    case ST_U32: PTR_ADD_LOOP(uint32_t); break;
    case ST_I64: PTR_ADD_LOOP(int64_t); break;
    case ST_U64: PTR_ADD_LOOP(uint64_t); break;
    default: return internal(P, in, "offset");
    }
    return true;
}

/* ======================================================================
 * Memory: bounds checks, loads, stores, atomics.
 * ====================================================================== */

typedef enum access_kind { ACC_LOAD, ACC_STORE, ACC_ATOMIC } access_kind;

/* The lanes of one memory instruction. */
typedef struct access {
    access_kind kind;
    int32_t pslot;          /* the pointer operand */
    const uint64_t *ptr;    /* addresses, stride sp */
    int64_t sp;
    const uint8_t *mask;    /* NULL: every lane; stride sm */
    int64_t sm;
    int64_t n;
    int esz;                /* bytes each lane touches */
    bool contig;            /* set by the check: ptr[i] == ptr[0] + i * esz,
                               every lane active */
} access;

/* Does [ad, ad + esz) lie in pointer argument i's bytes? */
static bool in_arg(const exec_ctx *x, int i, uint64_t ad, int esz)
{
    uint64_t base = x->L->args[i].value.u, bytes = x->plan.argbytes[i];
    return ad >= base && bytes >= (uint64_t)esz && ad - base <= bytes - (uint64_t)esz;
}

static const char *arg_name(const exec_ctx *x, int i)
{
    const char *s = x->L->args[i].name;
    return s ? s : x->k->params[i].name ? x->k->params[i].name : "?";
}

/* Report the failing lane of an access: arg is the pointer argument it
 * should have been in, or -1 when it is in none. */
static bool access_error(exec_prog *P, const ir_inst *in, const access *ac,
                         int64_t lane, int arg)
{
    static const char *const what[] = {"load from", "store to", "atomic update of"};
    static const char *const what_any[] = {"load", "store", "atomic update"};
    static const char *const verb[] = {"reads", "writes", "updates"};
    const exec_ctx *x = P->x;
    uint64_t ad = ac->ptr[lane * ac->sp];
    char ln[64];
    lane_name(ln, sizeof ln, lane_type(P, in), lane);
    const int64_t *c = P->coord;
    if (arg < 0 && x->plan.int_ptrs)
        return fail(P, in, "a pointer made from an integer must point into a tensor that "
                    "is still alive (the addresses from data_ptr()), or into an argument",
                    "%s through a wild pointer in program (%" PRId64 ", %" PRId64 ", %" PRId64
                    "): %s %s address "
                    "0x%" PRIx64 ", which is in no tensor (neither a tensor argument nor "
                    "a live tensor whose data_ptr() the program took)",
                    what_any[ac->kind], c[0], c[1], c[2], ln, verb[ac->kind],
                    addrmap_untag(ad));
    if (arg < 0)
        return fail(P, in, "this pointer does not point into any tensor passed to "
                    "the kernel; check how it was computed",
                    "out-of-bounds %s in program (%" PRId64 ", %" PRId64 ", %" PRId64
                    "): %s %s an address outside every tensor argument",
                    what_any[ac->kind], c[0], c[1], c[2], ln, verb[ac->kind]);
    uint64_t base = x->L->args[arg].value.u;
    int64_t aesz = dtype_size(dtype_elem(x->k->params[arg].dt));
    int64_t diff = (int64_t)(ad - base);
    /* rounded down; unsigned, as -diff overflows for the lowest address */
    uint64_t below = (0 - (uint64_t)diff + (uint64_t)aesz - 1) / (uint64_t)aesz;
    int64_t elem = diff >= 0 ? diff / aesz : -1 - (int64_t)(below - 1);
    if (in_arg(x, arg, ad, ac->esz))
        return fail(P, in, "offsets count elements, not bytes",
                    "misaligned %s '%s' in program (%" PRId64 ", %" PRId64 ", %"
                    PRId64 "): %s %s byte %" PRId64 " of the tensor, not a "
                    "multiple of the element size (%d bytes)",
                    what[ac->kind], arg_name(x, arg), c[0], c[1], c[2], ln,
                    verb[ac->kind], diff, ac->esz);
    const char *hint;
    if (elem < 0)
        hint = "the offset is negative here; check how the offsets are computed "
               "from the program id";
    else if (ac->kind == ACC_LOAD)
        hint = "mask the lanes past the end: tl.load(ptr + offs, mask=offs < n)";
    else
        hint = "mask the lanes past the end: tl.store(ptr + offs, x, mask=offs < n)";
    return fail(P, in, hint,
                "out-of-bounds %s '%s' in program (%" PRId64 ", %" PRId64 ", %"
                PRId64 "): %s %s element %" PRId64 " of a %zu-element tensor",
                what[ac->kind], arg_name(x, arg), c[0], c[1], c[2], ln,
                verb[ac->kind], elem, x->L->args[arg].numel);
}

/* Report the failing lane of an access through a pointer made from an
 * integer, tagged with storage e (addrmap.h); real is its address. */
static bool tagged_error(exec_prog *P, const ir_inst *in, const access *ac, int64_t lane,
                         const addrmap_entry *e, uint64_t real)
{
    static const char *const what[] = {"load", "store", "atomic update"};
    static const char *const verb[] = {"reads", "writes", "updates"};
    char ln[64];
    lane_name(ln, sizeof ln, lane_type(P, in), lane);
    const int64_t *c = P->coord;
    int64_t esz = ac->esz;
    int64_t diff = (int64_t)(real - e->base);
    char ts[32];
    snprintf(ts, sizeof ts, "%s", dtype_name(DT(P, ac->pslot)));
    if (diff >= 0 && (uint64_t)diff <= e->bytes - (uint64_t)esz && diff % esz)
        return fail(P, in, "offsets count elements, not bytes",
                    "misaligned %s in program (%" PRId64 ", %" PRId64 ", %" PRId64 "): %s "
                    "%s byte %" PRId64 " of the tensor storage its pointer was made from "
                    "(an integer cast to %s), not a multiple of the element size (%" PRId64
                    " bytes)", what[ac->kind], c[0], c[1], c[2], ln, verb[ac->kind], diff, ts,
                    esz);
    /* rounded down; unsigned, as -diff overflows for the lowest address */
    uint64_t below = (0 - (uint64_t)diff + (uint64_t)esz - 1) / (uint64_t)esz;
    int64_t elem = diff >= 0 ? diff / esz : -1 - (int64_t)(below - 1);
    return fail(P, in, elem < 0 ? "the offset is negative here; check the offsets added to "
                "the pointer made from an integer"
                : "mask the lanes past the end, or check the sizes and strides used with "
                "the pointer made from an integer",
                "out-of-bounds %s in program (%" PRId64 ", %" PRId64 ", %" PRId64 "): %s %s "
                "element %" PRId64 " of the %" PRId64 "-element tensor storage its pointer "
                "was made from (an integer cast to %s)", what[ac->kind], c[0], c[1], c[2],
                ln, verb[ac->kind], elem, (int64_t)(e->bytes / (uint64_t)esz), ts);
}

/* Every active lane inside its tensor and aligned: first the cheap test
 * (the range of the addresses against the tensor), then, only if that
 * fails, a search for the first bad lane in row-major order. */
static bool check_access(exec_prog *P, const ir_inst *in, access *ac)
{
    const exec_ctx *x = P->x;
    int arg = x->k->slots[ac->pslot].ptr_arg;
    uint64_t amask = (uint64_t)ac->esz - 1;
    ac->contig = false;
    if (arg >= 0) {
        /* One branch-free pass: the range and alignment of the active
         * lanes, how many are active, and whether the addresses are one
         * contiguous run.  An inactive lane is neutral: UINT64_MAX for the
         * minimum, 0 for the maximum and the alignment bits. */
        uint64_t first = ac->ptr[0], step = (uint64_t)ac->esz;
        uint64_t lo = UINT64_MAX, hi = 0, odd = 0, broken = 0;
        int64_t active = 0, n = ac->n;
        const uint64_t *ptr = ac->ptr;
        const uint8_t *mask = ac->mask;
        if (ac->sp == 1 && (!mask || ac->sm == 1)) {
            /* the common case, written for the vectoriser */
            for (int64_t i = 0; i < n; i++) {
                uint64_t ad = ptr[i];
                bool on = !mask || mask[i] != 0;
                uint64_t a_lo = on ? ad : UINT64_MAX, a_hi = on ? ad : 0;
                lo = a_lo < lo ? a_lo : lo;
                hi = a_hi > hi ? a_hi : hi;
                odd |= a_hi;
                active += on;
                broken |= ad ^ (first + (uint64_t)i * step);
            }
        } else {
            for (int64_t i = 0; i < n; i++) {
                uint64_t ad = ptr[i * ac->sp];
                bool on = !mask || mask[i * ac->sm] != 0;
                uint64_t a_lo = on ? ad : UINT64_MAX, a_hi = on ? ad : 0;
                lo = a_lo < lo ? a_lo : lo;
                hi = a_hi > hi ? a_hi : hi;
                odd |= a_hi;
                active += on;
            }
            broken = n > 1;    /* a scalar pointer repeated: no memcpy */
        }
        bool contig = broken == 0;
        if (active == ac->n)
            ac->mask = NULL;       /* every lane on: the copy needs no mask */
        ac->contig = contig && active == ac->n;
        if (lo > hi || (in_arg(x, arg, lo, ac->esz) && in_arg(x, arg, hi, ac->esz) &&
                        !(odd & amask)))
            return true;
        for (int64_t i = 0; i < ac->n; i++) {
            uint64_t ad = ac->ptr[i * ac->sp];
            if ((!ac->mask || ac->mask[i * ac->sm]) &&
                (!in_arg(x, arg, ad, ac->esz) || (ad & amask)))
                return access_error(P, in, ac, i, arg);
        }
        return true;
    }
    /* The pointer may point into any argument, or, made from an integer,
     * into the storage its tag names (addrmap.h): find what holds each
     * lane, trying the last one found first.  With tags, the addresses go
     * untagged into the worker's scratch, which the access then reads. */
    uint64_t *clean = x->plan.int_ptrs ? (uint64_t *)(void *)P->w->scratch : NULL;
    int last = -1, raw = 0, tag = 0;
    const addrmap_entry *e = NULL;
    for (int64_t i = 0; i < ac->n; i++) {
        if (ac->mask && !ac->mask[i * ac->sm]) {
            if (clean)
                clean[i] = 0;
            continue;
        }
        uint64_t ad = ac->ptr[i * ac->sp];
        if (clean && addrmap_raw_tag(ad) != raw) {
            raw = addrmap_raw_tag(ad);
            tag = addrmap_lane_tag(ad);
            e = tag ? addrmap_get(tag) : NULL;
        }
        if (clean && tag) {
            uint64_t real = addrmap_untag_as(ad, tag);
            if (e->bytes < (uint64_t)ac->esz || real - e->base > e->bytes - (uint64_t)ac->esz ||
                (real & amask))
                return tagged_error(P, in, ac, i, e, real);
            clean[i] = real;
            continue;
        }
        if (last < 0 || !in_arg(x, last, ad, ac->esz)) {
            last = -1;
            for (int j = 0; j < x->k->nparams && last < 0; j++)
                if (dtype_is_ptr(x->k->params[j].dt) && in_arg(x, j, ad, ac->esz))
                    last = j;
            if (last < 0)
                return access_error(P, in, ac, i, -1);
        }
        if (ad & amask)
            return access_error(P, in, ac, i, last);
        if (clean)
            clean[i] = ad;
    }
    if (clean) {
        ac->ptr = clean;
        ac->sp = 1;
    }
    return true;
}

static inline const void *addr(uint64_t a) { return (const void *)(uintptr_t)a; }

/* Stores into a tensor this large bypass the caches (non-temporal stores,
 * as glibc's memcpy does for large copies): its lines would only push the
 * rest out, and a write that misses need not read the line first. */
enum { STREAM_MIN_TENSOR = 32 << 20, STREAM_MIN_RUN = 1024 };

/* memcpy into tensor memory, streaming when the run is long enough; the
 * caller ends the instruction with stream_end(). */
static void copy_out(void *dst, const void *src, size_t n, bool stream)
{
#if defined(__SSE2__)
    if (stream && n >= STREAM_MIN_RUN) {
        char *d = dst;
        const char *s = src;
        size_t head = (16 - ((uintptr_t)d & 15)) & 15;
        memcpy(d, s, head);
        d += head;
        s += head;
        n -= head;
        for (; n >= 64; n -= 64, d += 64, s += 64) {
            __m128i a = _mm_loadu_si128((const __m128i *)(const void *)s);
            __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(s + 16));
            __m128i c = _mm_loadu_si128((const __m128i *)(const void *)(s + 32));
            __m128i e = _mm_loadu_si128((const __m128i *)(const void *)(s + 48));
            _mm_stream_si128((__m128i *)(void *)d, a);
            _mm_stream_si128((__m128i *)(void *)(d + 16), b);
            _mm_stream_si128((__m128i *)(void *)(d + 32), c);
            _mm_stream_si128((__m128i *)(void *)(d + 48), e);
        }
        memcpy(d, s, n);
        return;
    }
#else
    (void)stream;
#endif
    memcpy(dst, src, n);
}

/* Order the streaming stores before whatever comes next, as plain stores
 * would be. */
static void stream_end(bool stream)
{
#if defined(__SSE2__)
    if (stream)
        _mm_sfence();
#else
    (void)stream;
#endif
}

/* Fill a load's destination with its `other` operand (or zeros): what its
 * masked-off lanes hold. */
static void mem_prefill(void *D, const void *O, int64_t so, int64_t n, int ssz)
{
    if (!O) {
        memset(D, 0, (size_t)(n * ssz));
    } else if (so) {
        memmove(D, O, (size_t)(n * ssz));
    } else {
        for (int64_t i = 0; i < n; i++)
            memcpy((char *)D + i * ssz, O, (size_t)ssz);
    }
}

/* A load or store through a tracked pointer tile (FASTPATH_MEMORY): one
 * range and alignment check for the box of active lanes, then whole rows
 * (one memcpy when the lanes are contiguous).  Returns false when the
 * ordinary path must run instead: the pointer's record is not valid, or
 * some lane of the box may be outside the tensor or misaligned (the
 * ordinary path then finds and reports the exact lane, if any). */
static bool mem_fast(exec_prog *P, const ir_inst *in)
{
    const exec_ctx *x = P->x;
    bool load = in->op == IR_LOAD;
    int32_t ps = in->a, ms = load ? in->b : in->c;
    const exec_rec *pr = REC(P, ps);
    if (!pr->valid)
        return false;
    const ir_type *tp = TYPE(P, ps);
    dtype t = dtype_elem(tp->dt);
    int64_t ssz = st_size(st_of(t)), nlanes = NUMEL(P, ps);
    int64_t esz = same_repr(t) ? ssz : t == DTYPE_FP16 || t == DTYPE_BF16 ? 2 : 1;
    int64_t n[IR_MAX_DIM], st[IR_MAX_DIM] = {0}, lo[IR_MAX_DIM] = {0}, hi[IR_MAX_DIM];
    int pad = IR_MAX_DIM - tp->ndim;
    rec_shape4(tp, n);
    for (int d = 0; d < IR_MAX_DIM; d++)
        hi[d] = n[d];
    for (int d = 0; d < tp->ndim; d++)
        st[d + pad] = pr->st[d];
    const uint8_t *M = NULL;       /* a mask known only lane by lane */
    bool empty = false;
    if (ms >= 0) {
        if (NUMEL(P, ms) == 1) {
            empty = !*(const uint8_t *)SLOT(P, ms);
        } else if (TRACKED(P, ms) && REC(P, ms)->valid) {
            const exec_rec *mr = REC(P, ms);
            for (int d = 0; d < tp->ndim; d++) {
                lo[d + pad] = mr->lo[d];
                hi[d + pad] = mr->hi[d];
            }
        } else {
            M = SLOT(P, ms);
        }
    }
    if (M && load && (const void *)M == SLOT(P, in->dst))
        return false;        /* the mask's lanes are about to be overwritten */
    bool full = !M;
    for (int d = 0; d < IR_MAX_DIM; d++) {
        empty |= lo[d] >= hi[d];
        full &= lo[d] == 0 && hi[d] == n[d];
    }
    void *D = load ? SLOT(P, in->dst) : NULL;
    const void *O = load && in->c >= 0 ? SLOT(P, in->c) : NULL;
    int64_t so = load && in->c >= 0 ? STRIDE(P, in->c) : 0;
    if (empty) {
        if (load)
            mem_prefill(D, O, so, nlanes, (int)ssz);
        return true;
    }

    /* The box's lowest and highest offsets from the base, its first lane's
     * address, and alignment: the first lane aligned and every stride
     * along which the box has two lanes or more a multiple of esz. */
    int64_t olo = 0, ohi = 0, ofirst = 0;
    uint64_t odd = 0;
    for (int d = 0; d < IR_MAX_DIM; d++) {
        int64_t a, b;
        if (__builtin_mul_overflow(st[d], lo[d], &a) ||
            __builtin_mul_overflow(st[d], hi[d] - 1, &b) ||
            __builtin_add_overflow(olo, a < b ? a : b, &olo) ||
            __builtin_add_overflow(ohi, a < b ? b : a, &ohi) ||
            __builtin_add_overflow(ofirst, a, &ofirst))
            return false;
        if (hi[d] - lo[d] > 1)
            odd |= (uint64_t)st[d];
    }
    uint64_t base = (uint64_t)pr->base;
    uint64_t alo = base + (uint64_t)olo, ahi = base + (uint64_t)ohi;
    int arg = x->k->slots[ps].ptr_arg;
    odd |= base + (uint64_t)ofirst;
    if ((odd & (uint64_t)(esz - 1)) || alo > ahi || !in_arg(x, arg, alo, (int)esz) ||
        !in_arg(x, arg, ahi, (int)esz))
        return false;

    if (load && (IFLAGS(P, in) & FASTPATH_LOAD_VIEW) && full && n[0] == 1 && n[1] == 1 &&
        st[3] == esz && st[2] >= n[3] * esz && st[2] % esz == 0 && st[2] / esz <= INT32_MAX) {
        /* the dot that reads this tile takes the rows where they are */
        exec_rec *v = REC(P, in->dst);
        v->base = (int64_t)base;
        v->st[0] = st[2] / esz;
        v->valid = true;
        return true;
    }
    bool raw = same_repr(t) || (!load && t == DTYPE_INT1);
    const char *V = load ? NULL : SLOT(P, in->b);
    int64_t sv = load ? 0 : STRIDE(P, in->b);
    bool stream = !load && x->plan.argbytes[arg] >= STREAM_MIN_TENSOR;
    if (full && raw && (load || sv)) {
        bool contig = true;
        int64_t want = esz;
        for (int d = IR_MAX_DIM - 1; d >= 0; d--) {
            contig &= n[d] == 1 || st[d] == want;
            want *= n[d];
        }
        if (contig) {
            if (load)
                memcpy(D, addr(base), (size_t)(nlanes * esz));
            else
                copy_out((void *)(uintptr_t)base, V, (size_t)(nlanes * esz), stream);
            stream_end(stream);
            return true;
        }
    }
    if (load && !full)
        mem_prefill(D, O, so, nlanes, (int)ssz);
    int64_t j0 = lo[3], cnt = hi[3] - lo[3];
    if (!M && st[3] == esz && cnt * esz <= 512) {
        /* short rows far apart: ask for all of them before copying any, so
         * that their cache misses overlap */
        for (int64_t i0 = lo[0]; i0 < hi[0]; i0++)
            for (int64_t i1 = lo[1]; i1 < hi[1]; i1++)
                for (int64_t i2 = lo[2]; i2 < hi[2]; i2++) {
                    const char *row = addr(base + (uint64_t)i0 * (uint64_t)st[0] +
                                           (uint64_t)i1 * (uint64_t)st[1] +
                                           (uint64_t)i2 * (uint64_t)st[2] +
                                           (uint64_t)(j0 * esz));
                    for (int64_t b = 0; b < cnt * esz + 63; b += 64) {
                        const char *at = row + (b < cnt * esz ? b : cnt * esz - 1);
                        if (load)
                            __builtin_prefetch(at, 0);
                        else
                            __builtin_prefetch(at, 1);
                    }
                }
    }
    for (int64_t i0 = lo[0]; i0 < hi[0]; i0++)
        for (int64_t i1 = lo[1]; i1 < hi[1]; i1++)
            for (int64_t i2 = lo[2]; i2 < hi[2]; i2++) {
                uint64_t row = base + (uint64_t)i0 * (uint64_t)st[0] +
                               (uint64_t)i1 * (uint64_t)st[1] + (uint64_t)i2 * (uint64_t)st[2];
                int64_t lane = ((i0 * n[1] + i1) * n[2] + i2) * n[3];
                if (!M && raw && st[3] == esz && (load || sv)) {
                    uint64_t a = row + (uint64_t)(j0 * esz);
                    if (load)
                        memcpy((char *)D + (lane + j0) * ssz, addr(a), (size_t)(cnt * esz));
                    else
                        copy_out((void *)(uintptr_t)a, V + (lane + j0) * ssz,
                                 (size_t)(cnt * esz), stream);
                    continue;
                }
                for (int64_t j = j0; j < j0 + cnt; j++) {
                    int64_t i = lane + j;
                    if (M && !M[i])
                        continue;
                    uint64_t a = row + (uint64_t)j * (uint64_t)st[3];
                    if (load && raw)
                        memcpy((char *)D + i * ssz, addr(a), (size_t)esz);
                    else if (load)
                        lane_set(t, D, i, dtype_load(t, addr(a)));
                    else if (raw)
                        memcpy((void *)(uintptr_t)a, V + i * sv * ssz, (size_t)esz);
                    else
                        dtype_store(t, (void *)(uintptr_t)a, lane_get(t, V, i * sv));
                }
            }
    stream_end(stream);
    return true;
}

/* d[i] = *ptr[i] for active lanes, else the other value (or zero). */
#define LOAD_LOOP(T) do { \
    T *d_ = D; const T *o_ = O; \
    if (ac.contig) { memcpy(d_, addr(ac.ptr[0]), (size_t)n * sizeof(T)); break; } \
    for (int64_t i = 0; i < n; i++) { \
        if (!ac.mask || ac.mask[i * ac.sm]) \
            memcpy(&d_[i], addr(ac.ptr[i * ac.sp]), sizeof(T)); \
        else \
            d_[i] = o_ ? o_[i * so] : (T)0; \
    } \
} while (0)

static bool op_load(exec_prog *P, const ir_inst *in)
{
    if (IFLAGS(P, in) & FASTPATH_LOAD_VIEW)
        REC(P, in->dst)->valid = false;     /* lanes, unless mem_fast says */
    if (IFLAGS(P, in) & FASTPATH_MEMORY) {
        if (mem_fast(P, in))
            return true;
        slot_sync(P, in->a);
        slot_sync(P, in->b);
    }
    dtype t = DT(P, in->dst);
    int64_t n = NUMEL(P, in->dst);
    access ac = {
        .kind = ACC_LOAD, .pslot = in->a, .ptr = SLOT(P, in->a),
        .sp = STRIDE(P, in->a), .mask = in->b >= 0 ? SLOT(P, in->b) : NULL,
        .sm = in->b >= 0 ? STRIDE(P, in->b) : 0, .n = n, .esz = dtype_size(t),
    };
    if (!check_access(P, in, &ac))
        return false;
    void *D = SLOT(P, in->dst);
    const void *O = in->c >= 0 ? SLOT(P, in->c) : NULL;
    int64_t so = in->c >= 0 ? STRIDE(P, in->c) : 0;
    if (same_repr(t)) {
        switch (st_size(st_of(t))) {
        case 1: LOAD_LOOP(uint8_t); break;
        case 2: LOAD_LOOP(uint16_t); break;
        case 4: LOAD_LOOP(uint32_t); break;
        default: LOAD_LOOP(uint64_t); break;
        }
        return true;
    }
    /* int1, fp16, bf16, fp8: decode each element. */
    for (int64_t i = 0; i < n; i++) {
        if (!ac.mask || ac.mask[i * ac.sm])
            lane_set(t, D, i, dtype_load(t, addr(ac.ptr[i * ac.sp])));
        else if (O)
            lane_set(t, D, i, lane_get(t, O, i * so));
        else
            lane_set(t, D, i, (dtype_scalar){.u = 0});
    }
    return true;
}

#define STORE_LOOP(T) do { \
    const T *v_ = V; \
    if (ac.contig && sv) { memcpy((void *)(uintptr_t)ac.ptr[0], v_, (size_t)n * sizeof(T)); break; } \
    for (int64_t i = 0; i < n; i++) \
        if (!ac.mask || ac.mask[i * ac.sm]) \
            memcpy((void *)(uintptr_t)ac.ptr[i * ac.sp], &v_[i * sv], sizeof(T)); \
} while (0)

static bool op_store(exec_prog *P, const ir_inst *in)
{
    if (IFLAGS(P, in) & FASTPATH_MEMORY) {
        if (mem_fast(P, in))
            return true;
        slot_sync(P, in->a);
        slot_sync(P, in->c);
    }
    dtype t = dtype_elem(DT(P, in->a));
    int64_t n = NUMEL(P, in->a);
    if (NUMEL(P, in->b) > n)
        n = NUMEL(P, in->b);
    if (in->c >= 0 && NUMEL(P, in->c) > n)
        n = NUMEL(P, in->c);
    access ac = {
        .kind = ACC_STORE, .pslot = in->a, .ptr = SLOT(P, in->a),
        .sp = STRIDE(P, in->a), .mask = in->c >= 0 ? SLOT(P, in->c) : NULL,
        .sm = in->c >= 0 ? STRIDE(P, in->c) : 0, .n = n, .esz = dtype_size(t),
    };
    if (!check_access(P, in, &ac))
        return false;
    const void *V = SLOT(P, in->b);
    int64_t sv = STRIDE(P, in->b);
    if (same_repr(t) || t == DTYPE_INT1) {   /* int1 lanes are already 0/1 */
        switch (st_size(st_of(t))) {
        case 1: STORE_LOOP(uint8_t); break;
        case 2: STORE_LOOP(uint16_t); break;
        case 4: STORE_LOOP(uint32_t); break;
        default: STORE_LOOP(uint64_t); break;
        }
        return true;
    }
    /* fp16, bf16, fp8: encode each element (exact: the lanes hold such
     * values). */
    for (int64_t i = 0; i < n; i++)
        if (!ac.mask || ac.mask[i * ac.sm])
            dtype_store(t, (void *)(uintptr_t)ac.ptr[i * ac.sp], lane_get(t, V, i * sv));
    return true;
}

/* ---- atomics --------------------------------------------------------- */

/* Atomic access to 1, 2, 4 or 8 bytes as an unsigned bit pattern. */
static uint64_t atomic_read(void *p, int size)
{
    switch (size) {
    case 1: return __atomic_load_n((uint8_t *)p, __ATOMIC_SEQ_CST);
    case 2: return __atomic_load_n((uint16_t *)p, __ATOMIC_SEQ_CST);
    case 4: return __atomic_load_n((uint32_t *)p, __ATOMIC_SEQ_CST);
    default: return __atomic_load_n((uint64_t *)p, __ATOMIC_SEQ_CST);
    }
}

#define CAS_N(T) do { \
    T e_ = (T)*expected; \
    bool ok_ = __atomic_compare_exchange_n((T *)p, &e_, (T)desired, false, \
                                           __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); \
    *expected = e_; \
    return ok_; \
} while (0)

static bool atomic_cas_bits(void *p, int size, uint64_t *expected, uint64_t desired)
{
    switch (size) {
    case 1: CAS_N(uint8_t);
    case 2: CAS_N(uint16_t);
    case 4: CAS_N(uint32_t);
    default: CAS_N(uint64_t);
    }
}

/* A value of type t from / to its memory bit pattern. */
static dtype_scalar from_bits(dtype t, uint64_t bits)
{
    unsigned char b[8];
    switch (dtype_size(t)) {
    case 1: { uint8_t v = (uint8_t)bits; memcpy(b, &v, 1); break; }
    case 2: { uint16_t v = (uint16_t)bits; memcpy(b, &v, 2); break; }
    case 4: { uint32_t v = (uint32_t)bits; memcpy(b, &v, 4); break; }
    default: memcpy(b, &bits, 8); break;
    }
    return dtype_load(t, b);
}

static uint64_t to_bits(dtype t, dtype_scalar v)
{
    unsigned char b[8] = {0};
    dtype_store(t, b, v);
    switch (dtype_size(t)) {
    case 1: { uint8_t r; memcpy(&r, b, 1); return r; }
    case 2: { uint16_t r; memcpy(&r, b, 2); return r; }
    case 4: { uint32_t r; memcpy(&r, b, 4); return r; }
    default: { uint64_t r; memcpy(&r, b, 8); return r; }
    }
}

/* The new value of an atomic read-modify-write. */
static dtype_scalar atomic_apply(ir_atomic op, dtype t, dtype_scalar cur,
                                 dtype_scalar val)
{
    if (dtype_is_float(t)) {
        switch (op) {
        case IR_ATOMIC_ADD: cur.f = dtype_round_float(t, cur.f + val.f); break;
        case IR_ATOMIC_MAX: cur.f = fmax(cur.f, val.f); break;
        case IR_ATOMIC_MIN: cur.f = fmin(cur.f, val.f); break;
        case IR_ATOMIC_XCHG: cur = val; break;
        default: break;
        }
        return cur;
    }
    bool s = dtype_is_signed(t);
    switch (op) {
    case IR_ATOMIC_ADD: return dtype_wrap(t, cur.u + val.u);
    case IR_ATOMIC_MAX:
        return (s ? val.i > cur.i : val.u > cur.u) ? val : cur;
    case IR_ATOMIC_MIN:
        return (s ? val.i < cur.i : val.u < cur.u) ? val : cur;
    case IR_ATOMIC_AND: return dtype_wrap(t, cur.u & val.u);
    case IR_ATOMIC_OR: return dtype_wrap(t, cur.u | val.u);
    case IR_ATOMIC_XOR: return dtype_wrap(t, cur.u ^ val.u);
    case IR_ATOMIC_XCHG: return val;
    default: return cur;
    }
}

/* One lane: returns the old value.  Integer add on 4- and 8-byte types
 * is a fetch-add; everything else a compare-and-swap loop on the bits
 * (fp32 add included). */
static dtype_scalar atomic_lane(ir_atomic op, dtype t, void *p, dtype_scalar val,
                                dtype_scalar cmp)
{
    int size = dtype_size(t);
    if (op == IR_ATOMIC_ADD && dtype_is_int(t) && t != DTYPE_INT1 && size >= 4) {
        uint64_t old = size == 4
            ? __atomic_fetch_add((uint32_t *)p, (uint32_t)val.u, __ATOMIC_SEQ_CST)
            : __atomic_fetch_add((uint64_t *)p, val.u, __ATOMIC_SEQ_CST);
        return dtype_wrap(t, old);
    }
    uint64_t cur = atomic_read(p, size);
    for (;;) {
        dtype_scalar old = from_bits(t, cur);
        uint64_t next;
        if (op == IR_ATOMIC_CAS)
            next = cur == to_bits(t, cmp) ? to_bits(t, val) : cur;
        else
            next = to_bits(t, atomic_apply(op, t, old, val));
        if (next == cur || atomic_cas_bits(p, size, &cur, next))
            return old;
    }
}

static bool op_atomic(exec_prog *P, const ir_inst *in)
{
    dtype t = dtype_elem(DT(P, in->a));
    bool cas = in->sub == IR_ATOMIC_CAS;
    int32_t vslot = cas ? (int32_t)in->imm : in->b;
    int64_t n = NUMEL(P, in->a);
    if (NUMEL(P, vslot) > n)
        n = NUMEL(P, vslot);
    if (in->c >= 0 && NUMEL(P, in->c) > n)
        n = NUMEL(P, in->c);
    if (in->dst >= 0 && NUMEL(P, in->dst) > n)
        n = NUMEL(P, in->dst);
    access ac = {
        .kind = ACC_ATOMIC, .pslot = in->a, .ptr = SLOT(P, in->a),
        .sp = STRIDE(P, in->a), .mask = in->c >= 0 ? SLOT(P, in->c) : NULL,
        .sm = in->c >= 0 ? STRIDE(P, in->c) : 0, .n = n, .esz = dtype_size(t),
    };
    if (dtype_is_fp8(t))
        return fail(P, in, NULL, "atomics on %s tensors are not supported",
                    dtype_name(t));
    if (!check_access(P, in, &ac))
        return false;
    const void *V = SLOT(P, vslot);
    int64_t sv = STRIDE(P, vslot);
    const void *CMP = cas ? SLOT(P, in->b) : NULL;
    int64_t scmp = cas ? STRIDE(P, in->b) : 0;
    void *D = in->dst >= 0 ? SLOT(P, in->dst) : NULL;
    dtype_scalar zero = {.u = 0};
    for (int64_t i = 0; i < n; i++) {
        dtype_scalar old = zero;     /* masked lanes return 0 */
        if (!ac.mask || ac.mask[i * ac.sm]) {
            dtype_scalar cmp = cas ? lane_get(t, CMP, i * scmp) : zero;
            old = atomic_lane((ir_atomic)in->sub, t, (void *)(uintptr_t)ac.ptr[i * ac.sp],
                              lane_get(t, V, i * sv), cmp);
        }
        if (D)
            lane_set(t, D, i, old);
    }
    return true;
}

/* ======================================================================
 * dot, reduce, scan.
 * ====================================================================== */

/* The three matrix dimensions and the batch count of a DOT. */
typedef struct dot_dims {
    int64_t batch, M, N, K;
} dot_dims;

static dot_dims dot_dims_of(const ir_type *ta, const ir_type *tb)
{
    dot_dims d = {1, 1, 1, 1};
    int nd = ta->ndim;
    for (int i = 0; i < nd - 2; i++)   /* every leading dimension is a batch */
        d.batch *= ta->shape[i];
    if (nd >= 2) {
        d.M = ta->shape[nd - 2];
        d.K = ta->shape[nd - 1];
        d.N = tb->shape[nd - 1];
    }
    return d;
}

/* A float DOT's scratch (the plan sizes it, plan_build): the tf32-rounded
 * copies of A and B, then a result that is not fp32, then gemm's work
 * area.  The layout's parts for the DOT at in. */
typedef struct dot_scratch {
    float *tf32_a, *tf32_b, *result, *work;
} dot_scratch;

static dot_scratch dot_scratch_of(exec_prog *P, dot_dims d)
{
    float *s = (float *)P->w->scratch;
    int64_t nA = d.batch * d.M * d.K, nB = d.batch * d.K * d.N;
    return (dot_scratch){.tf32_a = s, .tf32_b = s + nA, .result = s + nA + nB,
                         .work = s + nA + nB + d.batch * d.M * d.N};
}

/* C = A @ B (C + A @ B when accumulate) over the float lanes of a DOT's
 * operands (tf32-rounded copies in scratch under IR_PREC_TF32), summed as
 * gemm.h defines. */
static void dot_gemm(exec_prog *P, const ir_inst *in, dot_dims d, float *C, bool accumulate)
{
    dot_scratch sc = dot_scratch_of(P, d);
    const float *A = SLOT(P, in->a), *B = SLOT(P, in->b);
    int64_t lda = d.K, ldb = d.N;
    /* operands a fast-path load left in the tensor (FASTPATH_VIEW) */
    if ((P->x->plan.sflags[in->a] & FASTPATH_VIEW) && REC(P, in->a)->valid) {
        A = (const float *)(uintptr_t)REC(P, in->a)->base;
        lda = REC(P, in->a)->st[0];
    }
    if ((P->x->plan.sflags[in->b] & FASTPATH_VIEW) && REC(P, in->b)->valid) {
        B = (const float *)(uintptr_t)REC(P, in->b)->base;
        ldb = REC(P, in->b)->st[0];
    }
    if (in->imm == IR_PREC_TF32) {  /* (fastpath.c leaves tf32 operands in slots) */
        int64_t nA = d.batch * d.M * d.K, nB = d.batch * d.K * d.N;
        for (int64_t i = 0; i < nA; i++)
            sc.tf32_a[i] = round_tf32(A[i]);
        for (int64_t i = 0; i < nB; i++)
            sc.tf32_b[i] = round_tf32(B[i]);
        A = sc.tf32_a;
        B = sc.tf32_b;
    }
    for (int64_t b = 0; b < d.batch; b++)
        gemm_f32(d.M, d.N, d.K, A + b * d.M * lda, lda, B + b * d.K * ldb, ldb,
                 C + b * d.M * d.N, d.N, accumulate, sc.work);
}

/* fp16/bf16/fp32/fp8 inputs: the product of the float lanes, continuing
 * from the accumulator (a tile, or a scalar that combine.c fused in) in the
 * destination when it is fp32, else in scratch that is then rounded to the
 * destination type.  FASTPATH_DOT_INPLACE: in the accumulator's own slot,
 * which the loop's copy would have overwritten with the result anyway. */
static bool dot_f32(exec_prog *P, const ir_inst *in, dot_dims d)
{
    dtype dd = DT(P, in->dst);
    int64_t nC = d.batch * d.M * d.N;
    if (IFLAGS(P, in) & FASTPATH_DOT_INPLACE) {
        dot_gemm(P, in, d, SLOT(P, in->c), true);
        return true;
    }
    bool direct = dd == DTYPE_FP32;
    float *C = direct ? SLOT(P, in->dst) : dot_scratch_of(P, d).result;
    if (in->c >= 0) {
        dtype dc = DT(P, in->c);
        if (NUMEL(P, in->c) == 1 && nC > 1) {
            float v = (float)dtype_cast(lane_get(dc, SLOT(P, in->c), 0), dc, DTYPE_FP32).f;
            for (int64_t i = 0; i < nC; i++)
                C[i] = v;
        } else if (st_of(dc) == ST_F32) {
            if ((void *)C != SLOT(P, in->c))
                memcpy(C, SLOT(P, in->c), (size_t)nC * sizeof(float));
        } else {
            for (int64_t i = 0; i < nC; i++)
                C[i] = (float)dtype_cast(lane_get(dc, SLOT(P, in->c), i), dc, DTYPE_FP32).f;
        }
    }
    dot_gemm(P, in, d, C, in->c >= 0);
    if (!direct) {
        void *D = SLOT(P, in->dst);
        for (int64_t i = 0; i < nC; i++)
            lane_set(dd, D, i, dtype_cast((dtype_scalar){.f = C[i]}, DTYPE_FP32, dd));
    }
    return true;
}

/* Any fp64 operand: dgemm on double copies of what is not fp64 already. */
static bool dot_f64(exec_prog *P, const ir_inst *in, dot_dims d)
{
    dtype da = DT(P, in->a), db = DT(P, in->b), dd = DT(P, in->dst);
    int64_t nA = d.batch * d.M * d.K, nB = d.batch * d.K * d.N, nC = d.batch * d.M * d.N;
    double *scratch = (double *)P->w->scratch;
    const double *A = SLOT(P, in->a), *B = SLOT(P, in->b);
    if (da != DTYPE_FP64) {
        for (int64_t i = 0; i < nA; i++)
            scratch[i] = lane_get(da, SLOT(P, in->a), i).f;
        A = scratch;
    }
    if (db != DTYPE_FP64) {
        for (int64_t i = 0; i < nB; i++)
            scratch[nA + i] = lane_get(db, SLOT(P, in->b), i).f;
        B = scratch + nA;
    }
    bool direct = dd == DTYPE_FP64;
    double *C = direct ? SLOT(P, in->dst) : scratch + nA + nB;
    double beta = 0.0;
    if (in->c >= 0) {
        dtype dc = DT(P, in->c);
        int64_t sc = NUMEL(P, in->c) == 1 ? 0 : 1;      /* a fused scalar */
        for (int64_t i = 0; i < nC && (void *)C != SLOT(P, in->c); i++)
            C[i] = dtype_cast(lane_get(dc, SLOT(P, in->c), i * sc), dc, DTYPE_FP64).f;
        beta = 1.0;
    }
    for (int64_t b = 0; b < d.batch; b++)
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)d.M, (int)d.N,
                    (int)d.K, 1.0, A + b * d.M * d.K, (int)d.K, B + b * d.K * d.N,
                    (int)d.N, beta, C + b * d.M * d.N, (int)d.N);
    if (!direct) {
        void *D = SLOT(P, in->dst);
        for (int64_t i = 0; i < nC; i++)
            lane_set(dd, D, i, dtype_cast((dtype_scalar){.f = C[i]}, DTYPE_FP64, dd));
    }
    return true;
}

/* Integer dot: int8 x int8 -> int32 with a plain triple loop (wrapping
 * sums); other integer types through the generic lane accessors. */
static bool dot_int(exec_prog *P, const ir_inst *in, dot_dims d)
{
    dtype da = DT(P, in->a), db = DT(P, in->b), dd = DT(P, in->dst);
    int64_t nC = d.batch * d.M * d.N;
    void *D = SLOT(P, in->dst);
    if (in->c >= 0 && in->c != in->dst) {
        dtype dc = DT(P, in->c);
        int64_t sc = NUMEL(P, in->c) == 1 ? 0 : 1;      /* a fused scalar */
        for (int64_t i = 0; i < nC; i++)
            lane_set(dd, D, i, dtype_cast(lane_get(dc, SLOT(P, in->c), i * sc), dc, dd));
    } else if (in->c < 0) {
        memset(D, 0, (size_t)nC * (size_t)st_size(st_of(dd)));
    }
    const void *A = SLOT(P, in->a), *B = SLOT(P, in->b);
    if (da == DTYPE_INT8 && db == DTYPE_INT8 && dd == DTYPE_INT32) {
        /* As the GPU's int8 matrix instructions (.satfinite): each group of
         * DOT_I8_K products is summed exactly and added to the accumulator,
         * which saturates at int32's bounds instead of wrapping. */
        enum { DOT_I8_K = 32, DOT_I8_N = 256 };
        const int8_t *a = A, *b = B;
        int32_t *c = D;
        for (int64_t bt = 0; bt < d.batch; bt++)
            for (int64_t m = 0; m < d.M; m++) {
                int32_t *row = c + (bt * d.M + m) * d.N;
                const int8_t *arow = a + (bt * d.M + m) * d.K;
                for (int64_t n0 = 0; n0 < d.N; n0 += DOT_I8_N) {
                    int64_t nb = d.N - n0 < DOT_I8_N ? d.N - n0 : DOT_I8_N;
                    for (int64_t k0 = 0; k0 < d.K; k0 += DOT_I8_K) {
                        int64_t kb = d.K - k0 < DOT_I8_K ? d.K - k0 : DOT_I8_K;
                        int32_t s[DOT_I8_N] = {0};  /* |s| <= 32 * 2^14: exact */
                        for (int64_t k = k0; k < k0 + kb; k++) {
                            int32_t av = arow[k];
                            const int8_t *brow = b + (bt * d.K + k) * d.N + n0;
                            for (int64_t n = 0; n < nb; n++)
                                s[n] += av * brow[n];
                        }
                        for (int64_t n = 0; n < nb; n++) {
                            int64_t v = (int64_t)row[n0 + n] + s[n];
                            row[n0 + n] = v > INT32_MAX ? INT32_MAX
                                          : v < INT32_MIN ? INT32_MIN : (int32_t)v;
                        }
                    }
                }
            }
        return true;
    }
    for (int64_t bt = 0; bt < d.batch; bt++)
        for (int64_t m = 0; m < d.M; m++)
            for (int64_t n = 0; n < d.N; n++) {
                int64_t ci = (bt * d.M + m) * d.N + n;
                uint64_t acc = (uint64_t)lane_get(dd, D, ci).i;
                for (int64_t k = 0; k < d.K; k++) {
                    dtype_scalar x = dtype_cast(lane_get(da, A, (bt * d.M + m) * d.K + k), da, DTYPE_INT64);
                    dtype_scalar y = dtype_cast(lane_get(db, B, (bt * d.K + k) * d.N + n), db, DTYPE_INT64);
                    acc += x.u * y.u;
                }
                lane_set(dd, D, ci, dtype_wrap(dd, acc));
            }
    return true;
}

static bool op_dot(exec_prog *P, const ir_inst *in)
{
    dot_dims d = dot_dims_of(TYPE(P, in->a), TYPE(P, in->b));
    dtype da = DT(P, in->a), db = DT(P, in->b), dd = DT(P, in->dst);
    if (dtype_is_float(da) && dtype_is_float(db)) {
        if (da == DTYPE_FP64 || db == DTYPE_FP64 || dd == DTYPE_FP64)
            return dot_f64(P, in, d);
        return dot_f32(P, in, d);
    }
    if (dtype_is_int(da) && dtype_is_int(db))
        return dot_int(P, in, d);
    return internal(P, in, "of mixed int and float operands");
}

/* The view [outer, len, inner] of a tile reduced or scanned along axis
 * (axis < 0: all elements in one row). */
static void axis_view(const ir_type *t, int64_t axis, int64_t *outer, int64_t *len,
                      int64_t *inner)
{
    *outer = *len = *inner = 1;
    for (int d = 0; d < t->ndim; d++) {
        if (axis < 0 || d == axis)
            *len *= t->shape[d];
        else if (d < axis)
            *outer *= t->shape[d];
        else
            *inner *= t->shape[d];
    }
}

/* D[o, i] = combine over r of A[o, r, i], in order of r; the accumulator
 * lives in D (the rows are contiguous, so the inner loop vectorises). */
#define RED_LOOP(T, EXPR) do { \
    const T *s_ = (const T *)A; T *d_ = (T *)D; \
    for (int64_t o = 0; o < outer; o++) { \
        const T *so_ = s_ + o * len * inner; T *do_ = d_ + o * inner; \
        if (inner == 1) { \
            T acc = so_[0]; \
            for (int64_t r = 1; r < len; r++) { T v = so_[r]; acc = (T)(EXPR); } \
            do_[0] = acc; \
            continue; \
        } \
        memcpy(do_, so_, (size_t)inner * sizeof(T)); \
        for (int64_t r = 1; r < len; r++) { \
            const T *x_ = so_ + r * inner; \
            for (int64_t i = 0; i < inner; i++) { T acc = do_[i], v = x_[i]; do_[i] = (T)(EXPR); } \
        } \
    } \
} while (0)

#define REDUCE_INT(T, W, S) do { \
    switch ((ir_reduce)in->sub) { \
    case IR_RED_SUM: RED_LOOP(T, (W)acc + (W)v); break; \
    case IR_RED_PROD: RED_LOOP(T, (W)acc * (W)v); break; \
    case IR_RED_MAX: RED_LOOP(T, v > acc ? v : acc); break; \
    case IR_RED_MIN: RED_LOOP(T, v < acc ? v : acc); break; \
    case IR_RED_XOR: RED_LOOP(T, acc ^ v); break; \
    case IR_RED_AND: RED_LOOP(T, acc & v); break; \
    case IR_RED_OR: RED_LOOP(T, acc | v); break; \
    default: return internal(P, in, "variant"); \
    } \
} while (0)

/* max/min skip NaN: a NaN accumulator is replaced by the next value. */
#define REDUCE_FLOAT(T, F) do { \
    switch ((ir_reduce)in->sub) { \
    case IR_RED_SUM: RED_LOOP(T, acc + v); break; \
    case IR_RED_PROD: RED_LOOP(T, acc * v); break; \
    case IR_RED_MAX: RED_LOOP(T, v > acc || acc != acc ? v : acc); break; \
    case IR_RED_MIN: RED_LOOP(T, v < acc || acc != acc ? v : acc); break; \
    default: return internal(P, in, "variant"); \
    } \
} while (0)

/* argmax/argmin: the first index of the extreme value along the axis. */
#define ARG_LOOP(T, BETTER) do { \
    const T *s_ = (const T *)A; \
    for (int64_t o = 0; o < outer; o++) \
        for (int64_t i = 0; i < inner; i++) { \
            const T *x_ = s_ + o * len * inner + i; \
            T best = x_[0]; int64_t at = 0; \
            for (int64_t r = 1; r < len; r++) { \
                T v = x_[r * inner]; \
                if (BETTER) { best = v; at = r; } \
            } \
            lane_set(dd, D, o * inner + i, (dtype_scalar){.i = at}); \
        } \
} while (0)

#define ARG_INT(T, W, S) do { \
    if (in->sub == IR_RED_ARGMAX) ARG_LOOP(T, v > best); \
    else ARG_LOOP(T, v < best); \
} while (0)
#define ARG_FLOAT(T, F) do { \
    if (in->sub == IR_RED_ARGMAX) ARG_LOOP(T, v > best || (best != best && v == v)); \
    else ARG_LOOP(T, v < best || (best != best && v == v)); \
} while (0)

static bool op_reduce(exec_prog *P, const ir_inst *in)
{
    int64_t outer, len, inner;
    axis_view(TYPE(P, in->a), in->imm, &outer, &len, &inner);
    dtype t = DT(P, in->a), dd = DT(P, in->dst);
    const void *A = SLOT(P, in->a);
    void *D = SLOT(P, in->dst);
    if (in->sub == IR_RED_ARGMAX || in->sub == IR_RED_ARGMIN) {
        FOR_STK(st_of(t), ARG_INT, ARG_FLOAT);
        return true;
    }
    FOR_STK(st_of(t), REDUCE_INT, REDUCE_FLOAT);
    if (t == DTYPE_INT1)
        wrap_int1(D, NUMEL(P, in->dst));
    else
        round_lanes(t, D, NUMEL(P, in->dst));
    return true;
}

/* Inclusive scan along the axis: D[o, r, i] = combine(D[o, r-1, i],
 * A[o, r, i]).  D may be A. */
#define SCAN_LOOP(T, EXPR) do { \
    const T *s_ = (const T *)A; T *d_ = (T *)D; \
    for (int64_t o = 0; o < outer; o++) { \
        const T *so_ = s_ + o * len * inner; T *do_ = d_ + o * inner * len; \
        memmove(do_, so_, (size_t)inner * sizeof(T)); \
        for (int64_t r = 1; r < len; r++) \
            for (int64_t i = 0; i < inner; i++) { \
                T acc = do_[(r - 1) * inner + i], v = so_[r * inner + i]; \
                do_[r * inner + i] = (T)(EXPR); \
            } \
    } \
} while (0)

#define SCAN_INT(T, W, S) do { \
    switch ((ir_reduce)in->sub) { \
    case IR_RED_SUM: SCAN_LOOP(T, (W)acc + (W)v); break; \
    case IR_RED_PROD: SCAN_LOOP(T, (W)acc * (W)v); break; \
    case IR_RED_MAX: SCAN_LOOP(T, v > acc ? v : acc); break; \
    case IR_RED_MIN: SCAN_LOOP(T, v < acc ? v : acc); break; \
    case IR_RED_XOR: SCAN_LOOP(T, acc ^ v); break; \
    case IR_RED_AND: SCAN_LOOP(T, acc & v); break; \
    case IR_RED_OR: SCAN_LOOP(T, acc | v); break; \
    default: return internal(P, in, "variant"); \
    } \
} while (0)

#define SCAN_FLOAT(T, F) do { \
    switch ((ir_reduce)in->sub) { \
    case IR_RED_SUM: SCAN_LOOP(T, acc + v); break; \
    case IR_RED_PROD: SCAN_LOOP(T, acc * v); break; \
    case IR_RED_MAX: SCAN_LOOP(T, v > acc || acc != acc ? v : acc); break; \
    case IR_RED_MIN: SCAN_LOOP(T, v < acc || acc != acc ? v : acc); break; \
    default: return internal(P, in, "variant"); \
    } \
} while (0)

/* fp16/bf16 scans: the running value stays in fp32; each output rounds. */
static bool scan_narrow(exec_prog *P, const ir_inst *in, int64_t outer, int64_t len,
                        int64_t inner)
{
    dtype t = DT(P, in->dst);
    const float *s = SLOT(P, in->a);
    float *d = SLOT(P, in->dst);
    for (int64_t o = 0; o < outer; o++)
        for (int64_t i = 0; i < inner; i++) {
            float acc = 0;
            for (int64_t r = 0; r < len; r++) {
                int64_t at = (o * len + r) * inner + i;
                float v = s[at];
                if (r == 0)
                    acc = v;
                else if (in->sub == IR_RED_SUM)
                    acc += v;
                else if (in->sub == IR_RED_PROD)
                    acc *= v;
                else if (in->sub == IR_RED_MAX)
                    acc = v > acc || acc != acc ? v : acc;
                else if (in->sub == IR_RED_MIN)
                    acc = v < acc || acc != acc ? v : acc;
                else
                    return internal(P, in, "variant");
                d[at] = t == DTYPE_FP16 ? round_f16(acc) : round_bf16(acc);
            }
        }
    return true;
}

static bool op_scan(exec_prog *P, const ir_inst *in)
{
    int64_t outer, len, inner;
    axis_view(TYPE(P, in->a), in->imm, &outer, &len, &inner);
    dtype t = DT(P, in->a);
    if (t == DTYPE_FP16 || t == DTYPE_BF16)
        return scan_narrow(P, in, outer, len, inner);
    const void *A = SLOT(P, in->a);
    void *D = SLOT(P, in->dst);
    FOR_STK(st_of(t), SCAN_INT, SCAN_FLOAT);
    if (t == DTYPE_INT1)
        wrap_int1(D, NUMEL(P, in->dst));
    return true;
}

/* ======================================================================
 * print, assert, breakpoint.
 * ====================================================================== */

static bool pid_passes(const exec_prog *P, const ir_print *pr)
{
    for (int i = 0; i < 3; i++) {
        int64_t p = P->coord[i], v = pr->pid_cond[i].value;
        bool ok;
        switch (pr->pid_cond[i].op) {
        case IR_EQ: ok = p == v; break;
        case IR_NE: ok = p != v; break;
        case IR_LT: ok = p < v; break;
        case IR_LE: ok = p <= v; break;
        case IR_GT: ok = p > v; break;
        case IR_GE: ok = p >= v; break;
        default: ok = true; break;
        }
        if (!ok)
            return false;
    }
    return true;
}

/* A 0-d value with a format spec: Python's format(value, spec), as numpy
 * scalars do it (through the Python int / float / bool). */
static bool format_spec_value(exec_prog *P, const ir_inst *in, strbuf *sb,
                              dtype t, dtype_scalar v, const char *spec)
{
    pyformat_spec ps;
    char err[256];
    strbuf b = {0};
    bool isfloat = !dtype_is_ptr(t) && dtype_is_float(t);
    const char *tname = isfloat ? "float" : t == DTYPE_INT1 ? "bool" : "int";
    bool ok = pyformat_parse_spec(spec, strlen(spec), tname, &ps, err, sizeof err);
    if (ok && isfloat)
        ok = pyformat_float(&b, v.f, &ps, err, sizeof err);
    else if (ok && (dtype_is_signed(t) || v.u <= (uint64_t)INT64_MAX))
        ok = pyformat_int(&b, dtype_is_signed(t) ? v.i : (int64_t)v.u, &ps, err, sizeof err);
    else if (ok)    /* a uint64 above INT64_MAX: pyformat_int takes int64 */
        ok = pyformat_float(&b, (double)v.u, &ps, err, sizeof err);
    if (ok)
        strbuf_putn(sb, strbuf_cstr(&b), b.len);
    strbuf_free(&b);
    return ok ? true : fail(P, in, NULL, "%s", err);
}

/* One slot, numpy's str() of it, or format(value, spec) for a scalar. */
static bool format_slot(exec_prog *P, const ir_inst *in, strbuf *sb, int32_t s,
                        const char *spec)
{
    const ir_type *t = TYPE(P, s);
    dtype dt = t->dt;
    const void *data = SLOT(P, s);
    if (spec && spec[0]) {
        if (t->ndim > 0) {
            char ty[96];
            ir_type_str(t, ty, sizeof ty);
            return fail(P, in, "format a scalar, e.g. a tl.sum() of the tile",
                        "unsupported format string passed to numpy.ndarray.__format__ "
                        "(the value is a %s tile)", ty);
        }
        return format_spec_value(P, in, sb, dt, lane_get(dt, data, 0), spec);
    }
    /* numpy wants memory-format elements, prepared in scratch (room for
     * 8 bytes a lane of the largest slot). */
    dt = numpy_lanes(dt, P->w->scratch, data, NUMEL(P, s));
    data = P->w->scratch;
    /* Scalars print as 1-element arrays, "pid = [0]": under Triton's
     * interpreter, which the lecture shows, program ids and scalar
     * arguments are numpy arrays of shape (1,). */
    int64_t shape[IR_MAX_DIM] = {1};
    for (int d = 0; d < t->ndim; d++)
        shape[d] = t->shape[d];
    format_array arr = {.data = data, .type = dt, .ndim = t->ndim ? t->ndim : 1,
                        .shape = shape};
    if (!format_numpy(sb, &arr))
        return internal(P, in, "value");
    return true;
}

/* The pieces of a PRINT_TEXT (or an assertion's message). */
static bool format_pieces(exec_prog *P, const ir_inst *in, strbuf *sb,
                          const ir_print *pr)
{
    for (int32_t i = 0; i < pr->npieces; i++) {
        const ir_fmt_piece *pc = &pr->pieces[i];
        if (pc->slot < 0)
            strbuf_puts(sb, pc->text ? pc->text : "");
        else if (!format_slot(P, in, sb, pc->slot, pc->spec))
            return false;
    }
    return true;
}

/* Triton's device_print prefix, munged as semantic.device_print does it:
 * ends in ": " and starts with " " when longer than two characters. */
static void device_prefix(const ir_print *pr, bool operands, strbuf *sb)
{
    strbuf raw = {0};
    for (int32_t i = 0; i < pr->npieces; i++)
        if (pr->pieces[i].slot < 0 && pr->pieces[i].text)
            strbuf_puts(&raw, pr->pieces[i].text);
    const char *s = strbuf_cstr(&raw);
    size_t len = raw.len;
    strbuf p = {0};
    strbuf_putn(&p, s, len);
    if (operands && (p.len == 0 || strbuf_cstr(&p)[p.len - 1] != ' '))
        strbuf_putc(&p, ' ');
    if (operands && (p.len < 2 || strcmp(strbuf_cstr(&p) + p.len - 2, ": ") != 0)) {
        strbuf_truncate(&p, p.len - 1);
        strbuf_puts(&p, ": ");
    }
    if (p.len > 2 && strbuf_cstr(&p)[0] != ' ')
        strbuf_putc(sb, ' ');
    strbuf_putn(sb, strbuf_cstr(&p), p.len);
    strbuf_free(&p);
    strbuf_free(&raw);
}

/* Digits GPU printf pads an index of an axis of this size to:
 * ceil(log10(size)), as Triton's PrintOpToLLVM does. */
static int index_width(int64_t size)
{
    int w = 0;
    for (int64_t p = 1; p < size; p *= 10)
        w++;
    return w;
}

/* One device_print value as NVIDIA's printf shows it under Triton's format
 * (PrintOpToLLVM.cpp's getFormatSubstr; printfPromoteValue widens ints
 * narrower than 32 bits to 32, sign-extending signed types only): %p for
 * pointers, %f for floats, %i / %u (%lli / %llu) for ints; with hex,
 * "0x%0Nx" ("0x%0Nllx" for 64 bits), N the type's bits / 4, so int8 -1
 * prints 0xffffffff and uint8 255 0xff.  fp64 prints its bits; the
 * specializer refuses hex for the narrower floats. */
static void device_print_value(strbuf *sb, dtype dt, dtype_scalar v, bool hex)
{
    if (dtype_is_ptr(dt)) {
        strbuf_printf(sb, "0x%" PRIx64, addrmap_untag(v.u));
    } else if (hex) {
        int bits = dtype_bits(dt);
        uint64_t u = v.u;
        if (dtype_is_float(dt))
            memcpy(&u, &v.f, sizeof u);
        else if (bits < 64)
            u = dtype_is_signed(dt) ? (uint32_t)(int32_t)v.i : (uint32_t)v.u;
        strbuf_printf(sb, "0x%0*" PRIx64, bits / 4, u);
    } else if (dtype_is_float(dt)) {
        strbuf_printf(sb, "%f", v.f);
    } else if (dtype_is_signed(dt)) {
        strbuf_printf(sb, "%" PRId64, v.i);
    } else {
        strbuf_printf(sb, "%" PRIu64, v.u);
    }
}

/* tl.device_print: one line per element,
 *   pid (0, 1, 0) idx (3) x: 1.500000
 * as Triton prints on the GPU (PrintOpToLLVM.cpp: "pid (%u, %u, %u) idx
 * (%Nu, ...)" then the prefix, "(operand i) " when there are several,
 * then the value, device_print_value).  A scalar prints "idx ()"; no
 * operands prints the pid and the prefix. */
static void device_print(exec_prog *P, const ir_print *pr, strbuf *sb)
{
    int nops = 0;
    for (int32_t i = 0; i < pr->npieces; i++)
        nops += pr->pieces[i].slot >= 0;
    strbuf prefix = {0};
    device_prefix(pr, nops > 0, &prefix);
    const int64_t *c = P->coord;
    if (nops == 0) {
        strbuf_printf(sb, "pid (%" PRId64 ", %" PRId64 ", %" PRId64 ")%s\n", c[0], c[1],
                      c[2], strbuf_cstr(&prefix));
        strbuf_free(&prefix);
        return;
    }
    int op = 0;
    for (int32_t pi = 0; pi < pr->npieces; pi++) {
        int32_t s = pr->pieces[pi].slot;
        if (s < 0)
            continue;
        const ir_type *t = TYPE(P, s);
        const void *data = SLOT(P, s);
        int64_t n = NUMEL(P, s);
        for (int64_t i = 0; i < n; i++) {
            strbuf_printf(sb, "pid (%" PRId64 ", %" PRId64 ", %" PRId64 ") idx (", c[0],
                          c[1], c[2]);
            int64_t idx[IR_MAX_DIM], rest = i;
            for (int d = t->ndim - 1; d >= 0; d--) {
                idx[d] = rest % t->shape[d];
                rest /= t->shape[d];
            }
            for (int d = 0; d < t->ndim; d++)
                strbuf_printf(sb, "%s%*" PRId64, d ? ", " : "", index_width(t->shape[d]),
                              idx[d]);
            strbuf_printf(sb, ")%s", strbuf_cstr(&prefix));
            if (nops > 1)
                strbuf_printf(sb, "(operand %d) ", op);
            device_print_value(sb, t->dt, lane_get(t->dt, data, i), pr->hex);
            strbuf_putc(sb, '\n');
        }
        op++;
    }
    strbuf_free(&prefix);
}

static bool op_print(exec_prog *P, const ir_inst *in)
{
    const ir_print *pr = &P->x->k->prints[in->imm];
    if (!pid_passes(P, pr))
        return true;
    strbuf *sb = &P->w->out;
    if (pr->kind == IR_PRINT_DEVICE) {
        device_print(P, pr, sb);
        return true;
    }
    if (!format_pieces(P, in, sb, pr))
        return false;
    strbuf_putc(sb, '\n');
    return true;
}

/* tl.device_assert: every active lane of a true (b, when present, is a
 * mask of the lanes that count). */
static bool op_assert(exec_prog *P, const ir_inst *in)
{
    dtype t = DT(P, in->a);
    int64_t n = NUMEL(P, in->a);
    const void *A = SLOT(P, in->a);
    const uint8_t *mask = in->b >= 0 ? SLOT(P, in->b) : NULL;
    int64_t sm = in->b >= 0 ? STRIDE(P, in->b) : 0;
    if (mask && NUMEL(P, in->b) > n)
        n = NUMEL(P, in->b);
    int64_t sa = STRIDE(P, in->a);
    for (int64_t i = 0; i < n; i++) {
        if (mask && !mask[i * sm])
            continue;
        dtype_scalar v = lane_get(t, A, i * sa);
        bool truth = dtype_is_float(t) && !dtype_is_ptr(t) ? v.f != 0 : v.u != 0;
        if (truth)
            continue;
        strbuf text = {0};
        const int64_t *c = P->coord;
        if (in->sub == 1 && in->imm >= 0 && in->imm < P->x->k->nprints &&
            P->x->k->prints[in->imm].npieces > 0) {
            /* a check of the GPU's rules (spec_desc.c): head, program, tail */
            ir_print tail = P->x->k->prints[in->imm];
            const char *head = tail.pieces[0].text;
            tail.pieces++;
            tail.npieces--;
            bool ok = format_pieces(P, in, &text, &tail);
            if (ok)
                fail(P, in, NULL, "%s in program (%" PRId64 ", %" PRId64 ", %" PRId64 "): %s",
                     head ? head : "", c[0], c[1], c[2], strbuf_cstr(&text));
            strbuf_free(&text);
            return false;
        }
        if (in->imm >= 0 && in->imm < P->x->k->nprints &&
            !format_pieces(P, in, &text, &P->x->k->prints[in->imm])) {
            strbuf_free(&text);
            return false;
        }
        char ln[64];
        lane_name(ln, sizeof ln, lane_type(P, in), i);
        fail(P, in, NULL, "device assertion failed in program (%" PRId64 ", %" PRId64
             ", %" PRId64 "), %s%s%s", c[0], c[1], c[2], ln, text.len ? ": " : "",
             strbuf_cstr(&text));
        strbuf_free(&text);
        return false;
    }
    return true;
}

/* BREAKPOINT outside a debugger session: ignored (--no-break), or a line in
 * the program's output saying where it would have stopped (stdin is not a
 * terminal, so nobody could answer a prompt).  Under the debugger
 * (exec_sess_*) the debugger sees the instruction before it runs and stops
 * there itself; running it is then a no-op. */
static bool op_breakpoint(exec_prog *P, const ir_inst *in)
{
    const exec_ctx *x = P->x;
    if (x->debug || x->L->breaks != EXEC_BREAK_REPORT ||
        (in->imm >= 0 && !pid_passes(P, &x->k->prints[in->imm])))
        return true;
    const src_file *f = x->L->file;
    int line = in->at ? in->at->span.line : 0, col = in->at ? in->at->span.col : 0;
    strbuf_printf(&P->w->out, "%s:%d:%d: breakpoint in program (%" PRId64 ", %" PRId64
                  ", %" PRId64 ") not taken: stdin is not a terminal (run under "
                  "'tritsim debug' to stop here, or pass --no-break)\n",
                  f ? f->name : "<kernel>", line, col, P->coord[0], P->coord[1], P->coord[2]);
    return true;
}

/* ======================================================================
 * The interpreter loop.
 * ====================================================================== */

static bool scalar_true(const exec_prog *P, int32_t s)
{
    dtype t = DT(P, s);
    dtype_scalar v = lane_get(t, SLOT(P, s), 0);
    return !dtype_is_ptr(t) && dtype_is_float(t) ? v.f != 0 : v.u != 0;
}

/* Run the instruction at *pc and move *pc on.  1: go on; 0: the program
 * ended; -1: it failed (the error is in P). */
static inline int exec_one(exec_prog *P, int32_t *pc)
{
    const ir_kernel *k = P->x->k;
    if (*pc >= k->ncode)
        return 0;
    int32_t at = (*pc)++;
    const ir_inst *in = &k->code[at];
    uint8_t fl = P->x->plan.iflags[at];
    if (fl & (FASTPATH_INVARIANT | FASTPATH_RECORD)) {
        /* A program-invariant instruction runs once per worker and launch:
         * the register file keeps its result for the later programs. */
        if (fl & FASTPATH_INVARIANT) {
            uint8_t *done = P->regs + P->x->plan.doneat + at;
            if (*done)
                return 1;
            *done = 1;
        }
        /* One that writes a tracked slot makes the slot's record; the op
         * computes the lanes only when no record describes the result.
         * (FASTPATH_RECORD is never on the fused add or skipped copy of
         * acc += tl.dot, whose slots are fp32, so their ops see no
         * difference in order.) */
        if ((fl & FASTPATH_RECORD) && rec_op(P, in))
            return 1;
    }
    bool ok = true;
    switch ((ir_opcode)in->op) {
    case IR_CONST: ok = op_const(P, in); break;
    case IR_PROGRAM_ID: case IR_NUM_PROGRAMS: ok = op_program_id(P, in); break;
    case IR_ARG: ok = op_arg(P, in); break;
    case IR_ARANGE: ok = op_arange(P, in); break;
    case IR_COPY: case IR_RESHAPE: ok = op_copy(P, in); break;
    case IR_BROADCAST: ok = op_broadcast(P, in); break;
    case IR_TRANS: ok = op_trans(P, in); break;
    case IR_FLIP: ok = op_flip(P, in); break;
    case IR_CONCAT: ok = op_concat(P, in); break;
    case IR_SLICE: ok = op_slice(P, in); break;
    case IR_GATHER: ok = op_gather(P, in); break;
    case IR_HISTOGRAM: ok = op_histogram(P, in); break;
    case IR_CAST: ok = op_cast(P, in); break;
    case IR_BITCAST: ok = op_bitcast(P, in); break;
    case IR_UNARY: ok = op_unary(P, in); break;
    case IR_BINARY: ok = op_binary(P, in); break;
    case IR_CMP: ok = op_cmp(P, in); break;
    case IR_WHERE: ok = op_where(P, in); break;
    case IR_MATH: ok = op_math(P, in); break;
    case IR_PTR_ADD: ok = op_ptr_add(P, in); break;
    case IR_LOAD: ok = op_load(P, in); break;
    case IR_STORE: ok = op_store(P, in); break;
    case IR_ATOMIC: ok = op_atomic(P, in); break;
    case IR_DOT: ok = op_dot(P, in); break;
    case IR_REDUCE: ok = op_reduce(P, in); break;
    case IR_SCAN: ok = op_scan(P, in); break;
    case IR_PRINT: ok = op_print(P, in); break;
    case IR_ASSERT: ok = op_assert(P, in); break;
    case IR_BREAKPOINT: ok = op_breakpoint(P, in); break;
    case IR_JUMP: *pc = (int32_t)in->imm; break;
    case IR_BRANCH:
        if (!scalar_true(P, in->a))
            *pc = (int32_t)in->imm;
        break;
    case IR_RETURN: return 0;
    case IR_NOP: break;
    default: ok = internal(P, in, "opcode"); break;
    }
    return ok ? 1 : -1;
}

static bool run_program(exec_prog *P)
{
    int32_t pc = 0;
    int r;
    while ((r = exec_one(P, &pc)) > 0)
        ;
    return r == 0;
}

/* ======================================================================
 * The plan: slot layout, scratch size, and a sanity check of the IR (the
 * specializer's invariants, checked once so that a bug there is an
 * internal error rather than memory corruption here).
 * ====================================================================== */

static bool slot_ok(const ir_kernel *k, int32_t s, bool optional)
{
    return (optional && s == -1) || (s >= 0 && s < k->nslots);
}

/* Is operand s usable lane-wise for a destination of n elements? */
static bool lanes_ok(const exec_plan *pl, int32_t s, int64_t n)
{
    return s < 0 || pl->numel[s] == n || pl->numel[s] == 1;
}

static const char *check_types(const ir_kernel *k, const exec_plan *pl,
                               const ir_inst *in);

static const char *check_inst(const ir_kernel *k, const exec_plan *pl,
                              const ir_inst *in)
{
    bool need_dst = true, need_a = false, need_b = false;
    switch ((ir_opcode)in->op) {
    case IR_CONST: case IR_PROGRAM_ID: case IR_NUM_PROGRAMS: case IR_ARANGE: break;
    case IR_ARG:
        if (in->imm < 0 || in->imm >= k->nparams)
            return "argument index out of range";
        break;
    case IR_COPY: case IR_BROADCAST: case IR_RESHAPE: case IR_TRANS: case IR_CAST:
    case IR_FLIP: case IR_SLICE: case IR_BITCAST: case IR_UNARY: case IR_MATH:
    case IR_REDUCE: case IR_SCAN:
        need_a = true;
        break;
    case IR_BINARY: case IR_CMP: case IR_PTR_ADD: case IR_DOT: case IR_CONCAT:
    case IR_GATHER:
        need_a = need_b = true;
        break;
    case IR_HISTOGRAM:
        need_a = true;
        break;
    case IR_WHERE:
        need_a = need_b = true;
        if (!slot_ok(k, in->c, false))
            return "bad operand slot";
        break;
    case IR_LOAD: need_a = true; break;
    case IR_STORE: need_dst = false; need_a = need_b = true; break;
    case IR_ATOMIC:
        need_dst = false;
        need_a = need_b = true;
        if (in->sub == IR_ATOMIC_CAS && !slot_ok(k, (int32_t)in->imm, false))
            return "bad value slot";
        break;
    case IR_PRINT: case IR_BREAKPOINT: case IR_ASSERT:
        need_dst = false;
        need_a = in->op == IR_ASSERT;
        if (in->imm >= k->nprints || (in->op == IR_PRINT && in->imm < 0))
            return "print index out of range";
        break;
    case IR_JUMP: case IR_BRANCH:
        need_dst = false;
        need_a = in->op == IR_BRANCH;
        if (in->imm < 0 || in->imm > k->ncode)
            return "jump target out of range";
        break;
    case IR_RETURN: case IR_NOP: need_dst = false; break;
    default: return "unknown opcode";
    }
    if (!slot_ok(k, in->dst, !need_dst) || !slot_ok(k, in->a, !need_a) ||
        !slot_ok(k, in->b, !need_b) || !slot_ok(k, in->c, true))
        return "bad operand slot";
    if (in->op == IR_ATOMIC || in->op == IR_STORE || in->op == IR_LOAD ||
        in->op == IR_PTR_ADD)
        if (!dtype_is_ptr(k->slots[in->a].type.dt))
            return "pointer operand is not a pointer";
    if (in->op == IR_ATOMIC || in->op == IR_STORE || in->op == IR_LOAD) {
        int32_t pa = k->slots[in->a].ptr_arg;
        if (pa >= k->nparams || (pa >= 0 && !dtype_is_ptr(k->params[pa].dt)))
            return "pointer slot names no pointer argument";
    }
    bool elementwise = in->op == IR_UNARY || in->op == IR_BINARY || in->op == IR_CMP ||
                       in->op == IR_WHERE || in->op == IR_MATH || in->op == IR_PTR_ADD ||
                       in->op == IR_CAST || in->op == IR_BITCAST || in->op == IR_LOAD;
    if (elementwise) {
        int64_t n = pl->numel[in->dst];
        if (!lanes_ok(pl, in->a, n) || !lanes_ok(pl, in->b, n) || !lanes_ok(pl, in->c, n))
            return "operand shapes do not match the destination";
    }
    if ((in->op == IR_BROADCAST || in->op == IR_TRANS || in->op == IR_DOT ||
         in->op == IR_REDUCE || in->op == IR_FLIP || in->op == IR_CONCAT ||
         in->op == IR_SLICE || in->op == IR_GATHER || in->op == IR_HISTOGRAM) &&
        (in->dst == in->a || in->dst == in->b))
        return "destination overlaps an operand";
    if (in->op == IR_RESHAPE && pl->numel[in->dst] != pl->numel[in->a])
        return "reshape changes the element count";
    return check_types(k, pl, in);
}

/* Every operand in s[] is n lanes or a scalar. */
static bool all_lanes_ok(const exec_plan *pl, const int32_t *s, int count, int64_t n)
{
    for (int i = 0; i < count; i++)
        if (!lanes_ok(pl, s[i], n))
            return false;
    return true;
}

static int64_t max_numel(const exec_plan *pl, const int32_t *s, int count)
{
    int64_t n = 1;
    for (int i = 0; i < count; i++)
        if (s[i] >= 0 && pl->numel[s[i]] > n)
            n = pl->numel[s[i]];
    return n;
}

/* BROADCAST: numpy's rules, a's shape aligned on the right. */
static bool broadcast_ok(const ir_type *ta, const ir_type *td)
{
    if (ta->ndim > td->ndim)
        return false;
    for (int j = 0; j < ta->ndim; j++) {
        int32_t from = ta->shape[j], to = td->shape[j + td->ndim - ta->ndim];
        if (from != 1 && from != to)
            return false;
    }
    return true;
}

/* TRANS: imm is a permutation and dst's shape is a's, permuted. */
static bool trans_ok(const ir_type *ta, const ir_type *td, int64_t imm)
{
    bool used[IR_MAX_DIM] = {false};
    if (ta->ndim != td->ndim)
        return false;
    for (int d = 0; d < td->ndim; d++) {
        int from = (int)((imm >> (4 * d)) & 15);
        if (from >= ta->ndim || used[from] || td->shape[d] != ta->shape[from])
            return false;
        used[from] = true;
    }
    return true;
}

static bool dot_ok(const ir_kernel *k, const exec_plan *pl, const ir_inst *in)
{
    const ir_type *ta = &k->slots[in->a].type, *tb = &k->slots[in->b].type;
    const ir_type *td = &k->slots[in->dst].type;
    int nd = ta->ndim;
    if (nd < 2 || tb->ndim != nd || td->ndim != nd ||
        ta->shape[nd - 1] != tb->shape[nd - 2] || td->shape[nd - 2] != ta->shape[nd - 2] ||
        td->shape[nd - 1] != tb->shape[nd - 1])
        return false;
    for (int i = 0; i < nd - 2; i++)    /* batch dimensions */
        if (tb->shape[i] != ta->shape[i] || td->shape[i] != ta->shape[i])
            return false;
    if (in->c >= 0 && pl->numel[in->c] != pl->numel[in->dst] && pl->numel[in->c] != 1)
        return false;
    return (int64_t)ta->shape[nd - 2] * ta->shape[nd - 1] < INT32_MAX &&
           (int64_t)tb->shape[nd - 2] * tb->shape[nd - 1] < INT32_MAX;
}

/* FLIP keeps the shape; CONCAT joins two shapes along the axis; SLICE
 * takes a run of the axis that lies inside the operand. */
static bool blocks_ok(const ir_kernel *k, const ir_inst *in)
{
    const ir_type *ta = &k->slots[in->a].type, *td = &k->slots[in->dst].type;
    const ir_type *tb = in->op == IR_CONCAT ? &k->slots[in->b].type : NULL;
    int64_t ax = in->op == IR_SLICE ? in->imm & 15 : in->imm;
    int64_t start = in->op == IR_SLICE ? in->imm >> 4 : 0;
    if (ax < 0 || ax >= ta->ndim || td->ndim != ta->ndim || (tb && tb->ndim != ta->ndim))
        return false;
    for (int d = 0; d < ta->ndim; d++) {
        if (d != ax && (td->shape[d] != ta->shape[d] || (tb && tb->shape[d] != ta->shape[d])))
            return false;
    }
    switch (in->op) {
    case IR_FLIP: return td->shape[ax] == ta->shape[ax];
    case IR_CONCAT: return td->shape[ax] == (int64_t)ta->shape[ax] + tb->shape[ax];
    default: return start >= 0 && start + td->shape[ax] <= ta->shape[ax];
    }
}

/* GATHER: index and result share a shape, equal to the source's except on
 * the axis. */
static bool gather_ok(const ir_kernel *k, const ir_inst *in)
{
    const ir_type *ta = &k->slots[in->a].type, *tb = &k->slots[in->b].type;
    const ir_type *td = &k->slots[in->dst].type;
    if (in->imm < 0 || in->imm >= ta->ndim || tb->ndim != ta->ndim || td->ndim != ta->ndim)
        return false;
    for (int d = 0; d < ta->ndim; d++)
        if (td->shape[d] != tb->shape[d] || (d != in->imm && tb->shape[d] != ta->shape[d]))
            return false;
    return true;
}

/* The operand and result types op_math_mixed reads and writes. */
static bool math_mixed_ok(const ir_kernel *k, const ir_inst *in)
{
    dtype d = k->slots[in->dst].type.dt, a = k->slots[in->a].type.dt;
    dtype b = in->b >= 0 ? k->slots[in->b].type.dt : DTYPE_INVALID;
    bool fa = a == DTYPE_FP32 || a == DTYPE_FP64;
    switch ((ir_math)in->sub) {
    case IR_LDEXP: case IR_POWI:
        return fa && d == a && b == DTYPE_INT32;
    case IR_JN: case IR_YN:
        return a == DTYPE_INT32 && (b == DTYPE_FP32 || b == DTYPE_FP64) && d == b;
    case IR_ILOGB: case IR_SIGNBIT:
        return fa && d == DTYPE_INT32;
    case IR_ISNAN: case IR_ISINF: case IR_ISFINITE:
        return fa && d == DTYPE_INT1;
    case IR_LLRINT: case IR_LLROUND:
        return fa && d == DTYPE_INT64;
    case IR_HILO2DOUBLE:
        return a == DTYPE_INT32 && b == DTYPE_INT32 && d == DTYPE_FP64;
    case IR_DOUBLE2LO: case IR_DOUBLE2HI:
        return a == DTYPE_FP64 && d == DTYPE_INT32;
    case IR_POPC: case IR_CLZ: case IR_FFS:
        return (a == DTYPE_INT32 || a == DTYPE_UINT32 || a == DTYPE_INT64 ||
                a == DTYPE_UINT64) && d == DTYPE_INT32;
    case IR_CVT_R: {
        static const dtype ok[] = {DTYPE_FP32, DTYPE_FP64, DTYPE_INT32, DTYPE_UINT32,
                                   DTYPE_INT64, DTYPE_UINT64};
        bool oa = false, od = false;
        for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
            oa = oa || a == ok[i], od = od || d == ok[i];
        /* math_convert: ints convert to floats only */
        return oa && od && (fa || d == DTYPE_FP32 || d == DTYPE_FP64);
    }
    default:
        return false;
    }
}

/* The element types and counts the typed loops rely on, so that a
 * specializer bug is an internal error, never a read or write past a slot. */
static const char *check_types(const ir_kernel *k, const exec_plan *pl, const ir_inst *in)
{
#define DTY(s) (k->slots[s].type.dt)
#define NUM(s) (pl->numel[s])
#define ELEM_OF(s) dtype_elem(k->slots[s].type.dt)
    int32_t ops[5] = {in->dst, in->a, in->b, in->c, -1};
    switch ((ir_opcode)in->op) {
    case IR_PROGRAM_ID: case IR_NUM_PROGRAMS:
        return DTY(in->dst) == DTYPE_INT32 && NUM(in->dst) == 1 ? NULL
               : "program ids are int32 scalars";
    case IR_ARG:
        return NUM(in->dst) == 1 ? NULL : "arguments are scalars";
    case IR_ARANGE:
        return DTY(in->dst) == DTYPE_INT32 && k->slots[in->dst].type.ndim == 1 ? NULL
               : "arange makes a 1-d int32 tile";
    case IR_COPY: case IR_RESHAPE:
        return DTY(in->a) == DTY(in->dst) && NUM(in->a) == NUM(in->dst) ? NULL
               : "the operand's type or element count differs";
    case IR_BROADCAST:
        return DTY(in->a) == DTY(in->dst) &&
               broadcast_ok(&k->slots[in->a].type, &k->slots[in->dst].type) ? NULL
               : "shapes do not broadcast";
    case IR_TRANS:
        return DTY(in->a) == DTY(in->dst) &&
               trans_ok(&k->slots[in->a].type, &k->slots[in->dst].type, in->imm) ? NULL
               : "not a permutation of the operand's axes";
    case IR_FLIP: case IR_CONCAT: case IR_SLICE:
        return DTY(in->a) == DTY(in->dst) &&
               (in->op != IR_CONCAT || DTY(in->b) == DTY(in->dst)) && blocks_ok(k, in)
               ? NULL : "bad flip, concat or slice operand shapes";
    case IR_BITCAST:
        return dtype_size(DTY(in->a)) == dtype_size(DTY(in->dst)) ? NULL
               : "bitcast between types of different sizes";
    case IR_MATH:
        if ((in->sub >= IR_LDEXP && in->sub <= IR_FFS) || in->sub == IR_CVT_R)
            return math_mixed_ok(k, in) ? NULL : "bad operand types for this function";
        /* fall through */
    case IR_UNARY:
        for (int i = 1; i < 4; i++)
            if (ops[i] >= 0 && DTY(ops[i]) != DTY(in->dst))
                return "operand types differ from the destination's";
        return NULL;
    case IR_BINARY:
        if (in->sub == IR_SHL || in->sub == IR_SHR)
            return DTY(in->a) == DTY(in->dst) && dtype_is_int(DTY(in->b)) &&
                   !dtype_is_ptr(DTY(in->b)) ? NULL : "bad shift operand types";
        return DTY(in->a) == DTY(in->dst) && DTY(in->b) == DTY(in->dst) ? NULL
               : "operand types differ from the destination's";
    case IR_CMP:
        return DTY(in->a) == DTY(in->b) && DTY(in->dst) == DTYPE_INT1 ? NULL
               : "comparison operand types differ";
    case IR_WHERE:
        return DTY(in->a) == DTYPE_INT1 && DTY(in->b) == DTY(in->dst) &&
               DTY(in->c) == DTY(in->dst) ? NULL : "bad where operand types";
    case IR_PTR_ADD:
        return dtype_is_ptr(DTY(in->dst)) && dtype_is_int(DTY(in->b)) &&
               !dtype_is_ptr(DTY(in->b)) ? NULL : "bad pointer arithmetic types";
    case IR_LOAD:
        return DTY(in->dst) == ELEM_OF(in->a) && (in->b < 0 || DTY(in->b) == DTYPE_INT1) &&
               (in->c < 0 || DTY(in->c) == DTY(in->dst)) ? NULL : "bad load operand types";
    case IR_STORE:
        if (DTY(in->b) != ELEM_OF(in->a) || (in->c >= 0 && DTY(in->c) != DTYPE_INT1))
            return "bad store operand types";
        return all_lanes_ok(pl, ops + 1, 3, max_numel(pl, ops + 1, 3)) ? NULL
               : "operand shapes differ";
    case IR_ATOMIC: {
        int32_t v = in->sub == IR_ATOMIC_CAS ? (int32_t)in->imm : in->b;
        ops[4] = v;
        if (DTY(in->b) != ELEM_OF(in->a) || DTY(v) != ELEM_OF(in->a) ||
            (in->dst >= 0 && DTY(in->dst) != ELEM_OF(in->a)) ||
            (in->c >= 0 && DTY(in->c) != DTYPE_INT1))
            return "bad atomic operand types";
        int64_t n = max_numel(pl, ops, 5);
        return all_lanes_ok(pl, ops, 5, n) && (in->dst < 0 || NUM(in->dst) == n) ? NULL
               : "operand shapes differ";
    }
    case IR_DOT:
        return dot_ok(k, pl, in) ? NULL : "dot operands are not [..., M, K] @ [..., K, N] -> "
                                          "[..., M, N]";
    case IR_REDUCE: {
        const ir_type *ta = &k->slots[in->a].type;
        if (in->imm < -1 || in->imm >= ta->ndim)
            return "reduction axis out of range";
        int64_t len = in->imm < 0 ? NUM(in->a) : ta->shape[in->imm];
        bool arg = in->sub == IR_RED_ARGMAX || in->sub == IR_RED_ARGMIN;
        if (arg ? !dtype_is_int(DTY(in->dst)) || dtype_is_ptr(DTY(in->dst))
                : DTY(in->dst) != DTY(in->a))
            return "bad reduction result type";
        return NUM(in->dst) * len == NUM(in->a) ? NULL : "bad reduction result shape";
    }
    case IR_SCAN:
        if (in->imm < 0 || in->imm >= k->slots[in->a].type.ndim)
            return "scan axis out of range";
        return DTY(in->dst) == DTY(in->a) && NUM(in->dst) == NUM(in->a) ? NULL
               : "bad scan result type";
    case IR_GATHER:
        return DTY(in->dst) == DTY(in->a) && dtype_is_int(DTY(in->b)) &&
               !dtype_is_ptr(DTY(in->b)) && gather_ok(k, in) ? NULL
               : "bad gather operand types or shapes";
    case IR_HISTOGRAM:
        return DTY(in->dst) == DTYPE_INT32 && k->slots[in->dst].type.ndim == 1 &&
               NUM(in->dst) == in->imm && dtype_is_int(DTY(in->a)) &&
               !dtype_is_ptr(DTY(in->a)) && k->slots[in->a].type.ndim == 1 &&
               (in->b < 0 || (DTY(in->b) == DTYPE_INT1 && NUM(in->b) == NUM(in->a)))
               ? NULL : "bad histogram operand types or shapes";
    case IR_BRANCH:
        return NUM(in->a) == 1 ? NULL : "branch on a tile";
    case IR_ASSERT:
        if (in->b >= 0 && DTY(in->b) != DTYPE_INT1)
            return "bad assert mask type";
        return all_lanes_ok(pl, ops + 1, 2, max_numel(pl, ops + 1, 2)) ? NULL
               : "operand shapes differ";
    default:
        return NULL;
    }
#undef DTY
#undef NUM
#undef ELEM_OF
}

/* Slots named by the prints exist. */
static const char *check_prints(const ir_kernel *k)
{
    for (int32_t i = 0; i < k->nprints; i++)
        for (int32_t j = 0; j < k->prints[i].npieces; j++)
            if (!slot_ok(k, k->prints[i].pieces[j].slot, true))
                return "a print names a bad slot";
    return NULL;
}

static void report_internal(const exec_launch *L, const ir_inst *in, int32_t pc,
                            const char *why)
{
    src_span sp = {0};
    if (in && in->at)
        sp = in->at->span;
    if (!in)
        diag_report(L->diag, DIAG_ERROR, L->file, sp, "internal error: bad kernel IR: %s",
                    why);
    else
        diag_report(L->diag, DIAG_ERROR, L->file, sp,
                    "internal error: bad kernel IR at instruction %" PRId32 " (%s): %s",
                    pc, ir_op_name((ir_opcode)in->op), why);
}

static size_t align64(size_t n)
{
    return (n + 63) & ~(size_t)63;
}

static bool plan_build(const exec_launch *L, exec_plan *pl)
{
    const ir_kernel *k = L->kernel;
    enum { MAX_SLOT_ELEMS = 1 << 26 };
    /* off, argbytes, sflags and iflags share one allocation (freed
     * through off) */
    size_t ns = (size_t)k->nslots + 1, nc = (size_t)k->ncode + 1;
    size_t na = (size_t)k->nparams + 1;
    pl->off = xcalloc(1, ns * sizeof *pl->off + na * sizeof *pl->argbytes + ns + nc);
    pl->argbytes = (uint64_t *)(pl->off + ns);
    pl->sflags = (uint8_t *)(pl->argbytes + na);
    pl->iflags = pl->sflags + ns;
    for (int32_t i = 0; i < k->nparams; i++)
        if (dtype_is_ptr(k->params[i].dt))
            pl->argbytes[i] = (uint64_t)L->args[i].numel *
                              (uint64_t)dtype_size(dtype_elem(k->params[i].dt));
    pl->numel = xcalloc(ns, sizeof *pl->numel);
    size_t at = 0;
    int64_t maxn = 1;
    for (int32_t s = 0; s < k->nslots; s++) {
        const ir_type *t = &k->slots[s].type;
        int64_t n = 1;
        for (int d = 0; d < t->ndim && d < IR_MAX_DIM; d++) {
            if (t->shape[d] < 1 || t->shape[d] > MAX_SLOT_ELEMS)
                n = MAX_SLOT_ELEMS + 1;
            else
                n *= t->shape[d];
            if (n > MAX_SLOT_ELEMS)
                break;
        }
        if (t->ndim < 0 || t->ndim > IR_MAX_DIM || n > MAX_SLOT_ELEMS ||
            !dtype_valid(t->dt)) {
            diag_report(L->diag, DIAG_ERROR, L->file, (src_span){0},
                        "internal error: slot %" PRId32 " has an invalid type", s);
            return false;
        }
        pl->off[s] = at;
        pl->numel[s] = n;
        at += align64((size_t)n * (size_t)st_size(st_of(t->dt)));
        maxn = n > maxn ? n : maxn;
    }
    pl->recat = at;
    at += align64((size_t)k->nslots * sizeof(exec_rec));
    pl->doneat = at;
    at += align64((size_t)k->ncode);
    pl->regbytes = at ? at : 64;
    pl->scratchbytes = (size_t)maxn * 8;
    for (int32_t pc = 0; pc < k->ncode; pc++) {
        const ir_inst *in = &k->code[pc];
        const char *why = check_inst(k, pl, in);
        if (why) {
            report_internal(L, in, pc, why);
            return false;
        }
        if (in->op == IR_PRINT ||
            (in->op == IR_BREAKPOINT && L->breaks == EXEC_BREAK_REPORT))
            pl->prints = true;
        if (in->op == IR_CAST && dtype_is_ptr(k->slots[in->dst].type.dt) &&
            !dtype_is_ptr(k->slots[in->a].type.dt))
            pl->int_ptrs = true;
        if (in->op == IR_DOT) {
            /* operands and result as doubles, or fp32 copies, a result and
             * gemm's work area (dot_scratch_of) */
            const ir_type *ta = &k->slots[in->a].type;
            int64_t K = ta->ndim ? ta->shape[ta->ndim - 1] : 1;
            size_t need = 8 * (size_t)(pl->numel[in->a] + pl->numel[in->b] +
                                       pl->numel[in->dst]) +
                          4 * (size_t)gemm_work_floats(K);
            pl->scratchbytes = need > pl->scratchbytes ? need : pl->scratchbytes;
        }
    }
    const char *why = check_prints(k);
    if (why) {
        report_internal(L, NULL, -1, why);
        return false;
    }
    pl->scratchbytes = align64(pl->scratchbytes);
    fastpath_analyse(k, pl->numel, !L->keep_lanes, pl->sflags, pl->iflags);
    return true;
}

/* ======================================================================
 * Output in program-id order, and the first error.
 * ====================================================================== */

static void write_text(exec_ctx *x, const char *s, size_t len)
{
    if (len)
        fwrite(s, 1, len, x->L->out);
}

static exec_pending *pending_at(exec_ctx *x, int64_t pid)
{
    return &x->win[pid & (x->wincap - 1)];
}

/* Make room in the window for pid (which is >= cursor). */
static void window_fit(exec_ctx *x, int64_t pid)
{
    if (pid - x->cursor < x->wincap)
        return;
    int64_t cap = x->wincap;
    while (pid - x->cursor >= cap)
        cap *= 2;
    exec_pending *win = xcalloc((size_t)cap, sizeof *win);
    for (int64_t p = x->cursor; p < x->cursor + x->wincap; p++)
        win[p & (cap - 1)] = *pending_at(x, p);
    free(x->win);
    x->win = win;
    x->wincap = cap;
}

/* Write every finished program from the cursor on, in order. */
static void drain(exec_ctx *x)
{
    while (x->cursor < x->nprog) {
        exec_pending *e = pending_at(x, x->cursor);
        if (e->state != PEND_DONE)
            break;
        write_text(x, e->text, e->len);
        free(e->text);
        *e = (exec_pending){0};
        x->cursor++;
    }
}

static void record_error(exec_ctx *x, exec_prog *P)
{
    if (P->pid >= x->err.pid)
        return;
    free(x->err.msg);
    free(x->err.note);
    free(x->err.text);
    x->err.pid = P->pid;
    x->err.at = P->fail_at;
    x->err.msg = strdup(P->msg);
    x->err.note = P->note[0] ? strdup(P->note) : NULL;
    x->err.len = P->w->out.len;
    x->err.text = strbuf_detach(&P->w->out);
    if (!x->err.msg || (P->note[0] && !x->err.note))
        arena_oom();
}

/* A program ended: pass its output on (now, if every program before it
 * has been written; else into the window) or record its error. */
static void finish_program(exec_ctx *x, exec_prog *P, bool ok)
{
    strbuf *out = &P->w->out;
    if (ok && !x->plan.prints)
        return;
    pthread_mutex_lock(&x->lock);
    if (!ok) {
        record_error(x, P);
        if (x->plan.prints && P->pid >= x->cursor) {
            window_fit(x, P->pid);
            pending_at(x, P->pid)->state = PEND_FAILED;
        }
    } else if (P->pid < x->err.pid) {
        if (P->pid == x->cursor) {
            write_text(x, strbuf_cstr(out), out->len);
            x->cursor++;
            drain(x);
        } else {
            window_fit(x, P->pid);
            exec_pending *e = pending_at(x, P->pid);
            e->len = out->len;
            e->text = out->len ? strbuf_detach(out) : NULL;
            e->state = PEND_DONE;
        }
    }
    pthread_mutex_unlock(&x->lock);
    strbuf_clear(out);
}

static exec_prog *prog_new(exec_ctx *x, int64_t pid);

/* A program of a debugger session run on the pool: it checks the stop flag
 * before each instruction, and when it is set (Ctrl-C) the program moves,
 * registers, place and text so far, into a program of its own, held for
 * the debugger (exec_sess_run hands it over).  P->state stays
 * EXEC_RUNNING then.  A program that fails is also copied and held, in
 * state EXEC_FAILED at the failing instruction, so the debugger can show
 * its variables. */
static bool run_program_stoppable(exec_prog *P)
{
    exec_ctx *x = P->x;
    int32_t pc = 0;
    int r;
    P->state = EXEC_DONE;
    while (!*x->stop) {
        int32_t at = pc;
        if ((r = exec_one(P, &pc)) == 0)
            return true;
        if (r < 0) {     /* keep it as it failed too, for the debugger to show */
            exec_prog *Q = prog_new(x, P->pid);
            memcpy(Q->own.regs, P->regs, x->plan.regbytes);
            Q->pc = at;
            Q->state = EXEC_FAILED;
            pthread_mutex_lock(&x->lock);
            x->held = xrealloc(x->held, (size_t)(x->nheld + 1) * sizeof *x->held);
            x->held[x->nheld++] = Q;
            pthread_mutex_unlock(&x->lock);
            return false;
        }
    }
    exec_prog *Q = prog_new(x, P->pid);
    memcpy(Q->own.regs, P->regs, x->plan.regbytes);
    Q->pc = pc;
    strbuf_putn(&Q->own.out, strbuf_cstr(&P->w->out), P->w->out.len);
    strbuf_clear(&P->w->out);
    pthread_mutex_lock(&x->lock);
    x->held = xrealloc(x->held, (size_t)(x->nheld + 1) * sizeof *x->held);
    x->held[x->nheld++] = Q;
    pthread_mutex_unlock(&x->lock);
    P->state = EXEC_RUNNING;
    return true;
}

/* Program pid's (x, y, z) in the launch's grid; pids run along x first. */
static void pid_coords(const exec_ctx *x, int64_t pid, int64_t coord[3])
{
    int64_t g0 = x->L->grid[0], g1 = x->L->grid[1];
    coord[0] = pid % g0;
    coord[1] = pid / g0 % g1;
    coord[2] = pid / (g0 * g1);
}

static bool run_item(void *ctx, int64_t item, int worker)
{
    exec_ctx *x = ctx;
    item += x->base;
    if (x->stop && *x->stop) {     /* interrupted: leave it to the debugger */
        x->skipped[item] = 1;
        return true;
    }
    exec_worker *w = &x->workers[worker];
    exec_prog P = {.x = x, .w = w, .regs = w->regs, .pid = item};
    pid_coords(x, item, P.coord);
    bool ok = x->stop ? run_program_stoppable(&P) : run_program(&P);
    if (ok && P.state == EXEC_RUNNING && x->stop)
        return true;               /* held for the debugger */
    finish_program(x, &P, ok);
    return ok;
}

/* A program's error at instruction in, after the text it printed before
 * it, with a note per inlined call the instruction sits in. */
/* The file the code of frame f comes from: the launch's, or (a debugger
 * expression's frame) its own. */
static const src_file *frame_file(const exec_ctx *x, int32_t f)
{
    const ir_kernel *k = x->k;
    return f >= 0 && f < k->nframes && k->frames[f].file ? k->frames[f].file : x->L->file;
}

static void report_at(exec_ctx *x, const ir_inst *in, const char *msg, const char *note,
                      const char *text, size_t len)
{
    const exec_launch *L = x->L;
    write_text(x, text, len);
    fflush(L->out);
    src_span sp = in && in->at ? in->at->span : (src_span){0};
    const src_file *file = frame_file(x, in ? in->frame : -1);
    diag_report(L->diag, DIAG_ERROR, file, sp, "%s", msg);
    if (note)
        diag_report(L->diag, DIAG_NOTE, file, sp, "%s", note);
    const ir_kernel *k = x->k;
    for (int32_t f = in ? in->frame : -1; f >= 0 && f < k->nframes; f = k->frames[f].parent) {
        if (!k->frames[f].call)
            break;
        diag_report(L->diag, DIAG_NOTE, frame_file(x, k->frames[f].parent),
                    k->frames[f].call->span, "in '%s', called from here", k->frames[f].func);
    }
}

/* The error of the lowest failing program (x->err). */
static void report_error(exec_ctx *x)
{
    report_at(x, x->err.at, x->err.msg, x->err.note, x->err.text, x->err.len);
    x->reported = true;
}

/* ======================================================================
 * The launch.
 * ====================================================================== */

static void *alloc64(size_t bytes)
{
    void *p = aligned_alloc(64, align64(bytes ? bytes : 64));
    if (!p)
        arena_oom();
    memset(p, 0, align64(bytes ? bytes : 64));
    return p;
}

/* Check the grid, build the plan, make the workers.  false after
 * reporting; *empty when the grid has no programs (nothing to run). */
static bool ctx_init(exec_ctx *x, const exec_launch *L, bool *empty)
{
    blas_ready();        /* fp64 dots call dgemm on the pool's threads */
    *x = (exec_ctx){.L = L, .k = L->kernel};
    *empty = false;
    for (int i = 0; i < 3; i++)
        if (L->grid[i] < 1) {
            *empty = true;
            return true;
        }
    if (L->grid[0] > INT64_MAX / L->grid[1] ||
        L->grid[0] * L->grid[1] > INT64_MAX / L->grid[2]) {
        diag_report(L->diag, DIAG_ERROR, L->file, (src_span){0},
                    "the grid (%" PRId64 ", %" PRId64 ", %" PRId64 ") has too many programs",
                    L->grid[0], L->grid[1], L->grid[2]);
        return false;
    }
    if (!plan_build(L, &x->plan)) {
        free(x->plan.off);
        free(x->plan.numel);
        x->plan.off = NULL;
        x->plan.numel = NULL;
        return false;
    }
    x->nprog = L->grid[0] * L->grid[1] * L->grid[2];
    x->nworkers = pool_size(L->pool);
    x->workers = xcalloc((size_t)x->nworkers, sizeof *x->workers);
    for (int i = 0; i < x->nworkers; i++) {
        x->workers[i].regs = alloc64(x->plan.regbytes);
        x->workers[i].scratch = alloc64(x->plan.scratchbytes);
    }
    pthread_mutex_init(&x->lock, NULL);
    x->wincap = 64;
    x->win = xcalloc((size_t)x->wincap, sizeof *x->win);
    x->err.pid = INT64_MAX;
    x->ready = true;
    return true;
}

static void ctx_free(exec_ctx *x)
{
    if (x->ready) {
        for (int64_t i = 0; i < x->wincap; i++)
            free(x->win[i].text);
        free(x->win);
        pthread_mutex_destroy(&x->lock);
        for (int i = 0; i < x->nworkers; i++) {
            free(x->workers[i].regs);
            free(x->workers[i].scratch);
            strbuf_free(&x->workers[i].out);
        }
        free(x->workers);
    }
    free(x->err.msg);
    free(x->err.note);
    free(x->err.text);
    free(x->skipped);
    for (int i = 0; i < x->nheld; i++)
        exec_prog_free(x->held[i]);
    free(x->held);
    free(x->spare_regs);
    free(x->spare_scratch);
    free(x->plan.off);
    free(x->plan.numel);
}

bool exec_run(const exec_launch *L)
{
    exec_ctx x;
    bool empty;
    if (!ctx_init(&x, L, &empty))
        return false;
    if (!empty)
        pool_run(L->pool, x.nprog, run_item, &x);
    bool ok = x.err.pid == INT64_MAX;
    if (!ok)
        report_error(&x);
    fflush(L->out);
    ctx_free(&x);
    return ok;
}

/* ======================================================================
 * Debugger sessions: the same launch, run a program at a time or an
 * instruction at a time.
 * ====================================================================== */

exec_sess *exec_sess_begin(const exec_launch *L)
{
    exec_ctx *x = xcalloc(1, sizeof *x);
    bool empty;
    if (!ctx_init(x, L, &empty)) {
        ctx_free(x);
        free(x);
        return NULL;
    }
    x->debug = true;
    return x;
}

int64_t exec_sess_nprog(const exec_sess *x)
{
    return x->nprog;
}

const exec_launch *exec_sess_launch(const exec_sess *x)
{
    return x->L;
}

void exec_sess_coord(const exec_sess *x, int64_t pid, int64_t coord[3])
{
    pid_coords(x, pid, coord);
}

bool exec_sess_failed(const exec_sess *x)
{
    return x->err.pid != INT64_MAX;
}

bool exec_sess_run(exec_sess *x, int64_t from, int64_t to, const volatile sig_atomic_t *stop,
                   int64_t *next)
{
    if (to > x->nprog)
        to = x->nprog;
    *next = to;
    if (from >= to || exec_sess_failed(x))
        return !exec_sess_failed(x);
    if (!x->skipped)
        x->skipped = xcalloc((size_t)x->nprog, 1);
    memset(x->skipped + from, 0, (size_t)(x->nprog - from));   /* this run's only */
    x->stop = stop;
    x->base = from;
    x->cursor = from;
    x->debug = false;      /* programs print through the window again */
    pool_run(x->L->pool, to - from, run_item, x);
    x->debug = true;
    x->stop = NULL;
    /* Text of programs that ran after one the stop left out: write it now,
     * in program order. */
    for (int64_t p = x->cursor; p < x->cursor + x->wincap && p < to; p++) {
        exec_pending *e = pending_at(x, p);
        if (e->state == PEND_DONE)
            write_text(x, e->text, e->len);
        free(e->text);
        *e = (exec_pending){0};
    }
    for (int i = 0; i < x->nheld; i++) {      /* their text so far */
        strbuf *o = &x->held[i]->own.out;
        write_text(x, strbuf_cstr(o), o->len);
        strbuf_clear(o);
    }
    for (int64_t p = from; p < to; p++)
        if (x->skipped[p]) {
            *next = p;
            break;
        }
    if (exec_sess_failed(x)) {
        report_error(x);
        *next = to;
    }
    fflush(x->L->out);
    return !exec_sess_failed(x);
}

/* A program with these (zeroed) registers and scratch. */
static exec_prog *prog_make(exec_ctx *x, int64_t pid, unsigned char *regs,
                            unsigned char *scratch)
{
    exec_prog *P = xcalloc(1, sizeof *P);
    P->x = x;
    P->pid = pid;
    P->w = &P->own;
    P->own.regs = regs;
    P->own.scratch = scratch;
    P->regs = P->own.regs;
    P->state = EXEC_RUNNING;
    pid_coords(x, pid, P->coord);
    return P;
}

exec_prog *exec_sess_start(exec_sess *x, int64_t pid)
{
    if (!x->spare_regs)
        return prog_new(x, pid);
    unsigned char *regs = x->spare_regs, *scratch = x->spare_scratch;
    x->spare_regs = x->spare_scratch = NULL;
    memset(regs, 0, align64(x->plan.regbytes ? x->plan.regbytes : 64));   /* as alloc64 */
    memset(scratch, 0, align64(x->plan.scratchbytes ? x->plan.scratchbytes : 64));
    return prog_make(x, pid, regs, scratch);
}

static exec_prog *prog_new(exec_ctx *x, int64_t pid)
{
    return prog_make(x, pid, alloc64(x->plan.regbytes), alloc64(x->plan.scratchbytes));
}

void exec_prog_free(exec_prog *P)
{
    if (!P)
        return;
    exec_ctx *x = P->x;
    if (!x->spare_regs) {
        x->spare_regs = P->own.regs;
        x->spare_scratch = P->own.scratch;
    } else {
        free(P->own.regs);
        free(P->own.scratch);
    }
    strbuf_free(&P->own.out);
    free(P);
}

exec_status exec_prog_step(exec_prog *P)
{
    if (P->state != EXEC_RUNNING)
        return P->state;
    exec_ctx *x = P->x;
    int32_t at = P->pc;
    int r = exec_one(P, &P->pc);
    strbuf *out = &P->w->out;
    if (r < 0) {
        P->pc = at;         /* stay at the failing instruction */
        /* this program's own error, now; x->err keeps the lowest failing
         * program's for the launch's result */
        report_at(x, P->fail_at, P->msg, P->note[0] ? P->note : NULL, strbuf_cstr(out),
                  out->len);
        strbuf_clear(out);
        record_error(x, P);
        x->reported = true;
        P->state = EXEC_FAILED;
    } else if (r == 0) {
        P->state = EXEC_DONE;
    }
    if (out->len) {
        write_text(x, strbuf_cstr(out), out->len);
        fflush(x->L->out);
        strbuf_clear(out);
    }
    return P->state;
}

int32_t exec_prog_pc(const exec_prog *P)
{
    return P->pc;
}

int64_t exec_prog_pid(const exec_prog *P)
{
    return P->pid;
}

const int64_t *exec_prog_coord(const exec_prog *P)
{
    return P->coord;
}

exec_status exec_prog_state(const exec_prog *P)
{
    return P->state;
}

/* ---- reading values ------------------------------------------------------ */

/* Copy slot s of a register file into a tile, in numpy's memory format
 * (numpy_lanes), as format_slot prints it. */
static void tile_from(const exec_ctx *x, const unsigned char *regs, int32_t s,
                      exec_tile *t)
{
    const ir_type *ty = &x->k->slots[s].type;
    int64_t n = x->plan.numel[s];
    size_t bytes = (size_t)n * (size_t)st_size(st_of(ty->dt));
    t->type = *ty;
    t->numel = n;
    t->data = xcalloc(1, bytes ? bytes : 1);
    t->data_type = numpy_lanes(ty->dt, t->data, regs + x->plan.off[s], n);
}

bool exec_prog_read(const exec_prog *P, int32_t slot, exec_tile *out)
{
    if (slot < 0 || slot >= P->x->k->nslots)
        return false;
    tile_from(P->x, P->regs, slot, out);
    return true;
}

void exec_tile_free(exec_tile *t)
{
    free(t->data);
    t->data = NULL;
}

dtype_scalar exec_tile_get(const exec_tile *t, int64_t i)
{
    if (t->data_type == DTYPE_FP16 || t->data_type == DTYPE_BF16) {
        uint16_t h = ((const uint16_t *)t->data)[i];
        dtype_scalar v;
        v.f = t->data_type == DTYPE_FP16 ? dtype_f16_to_f32(h) : dtype_bf16_to_f32(h);
        return v;
    }
    return lane_get(t->data_type, t->data, i);
}

bool exec_prog_eval(exec_prog *P, const ir_kernel *ek, const int32_t *slots, int n,
                    exec_tile *out)
{
    exec_ctx *x = P->x;
    exec_launch L = *x->L;
    L.kernel = ek;
    exec_ctx e = {.L = &L, .k = ek, .debug = true, .err.pid = INT64_MAX};
    if (!plan_build(&L, &e.plan)) {
        ctx_free(&e);
        return false;
    }
    e.plan.int_ptrs |= x->plan.int_ptrs;   /* P's pointers may carry tags */
    exec_prog *Q = prog_new(&e, P->pid);   /* L has P's grid: the same coordinates */
    int32_t nold = x->k->nslots < ek->nslots ? x->k->nslots : ek->nslots;
    for (int32_t s = 0; s < nold; s++)
        memcpy(Q->regs + e.plan.off[s], P->regs + x->plan.off[s],
               (size_t)x->plan.numel[s] * (size_t)st_size(st_of(x->k->slots[s].type.dt)));
    bool ok = run_program(Q);
    if (!ok) {
        record_error(&e, Q);
        report_error(&e);
    }
    for (int i = 0; ok && i < n; i++)
        tile_from(&e, Q->regs, slots[i], &out[i]);
    exec_prog_free(Q);
    ctx_free(&e);
    return ok;
}

bool exec_sess_skipped(const exec_sess *x, int64_t pid)
{
    return x->skipped && pid >= 0 && pid < x->nprog && x->skipped[pid];
}

int exec_sess_held(exec_sess *x, exec_prog ***out)
{
    int n = x->nheld;
    *out = x->held;
    x->held = NULL;
    x->nheld = 0;
    return n;
}

bool exec_sess_end(exec_sess *x)
{
    bool ok = !exec_sess_failed(x);
    if (!ok && !x->reported)
        report_error(x);
    fflush(x->L->out);
    ctx_free(x);
    free(x);
    return ok;
}
