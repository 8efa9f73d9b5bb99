/* exec_print.c - the CPU executor's PRINT, ASSERT (tl.device_assert, and
 * the checks of the GPU's rules) and BREAKPOINT outside a debugger: when
 * they act and which values they read; the text itself is printfmt.c's,
 * which the GPU backends share.  Also a slot's lanes in numpy's memory
 * format, which printing and the debugger's tiles (exec_sess.c) read. */
#define _POSIX_C_SOURCE 200809L
/* As in exec.c: let GCC vectorise the typed loops behind runtime checks. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("vect-cost-model=dynamic")
#endif
#include "exec_impl.h"

#include <inttypes.h>
#include <string.h>

#include "addrmap.h"
#include "printfmt.h"

/* A value missing from a switch over an enum is an error here (ir.h) */
#pragma GCC diagnostic error "-Wswitch"
#pragma GCC diagnostic error "-Wswitch-enum"

/* ======================================================================
 * print, assert, breakpoint.
 * ====================================================================== */

/* n lanes of a slot of type t (at A) copied to D in numpy's memory format,
 * the one format.h and exec_tile want: fp16 and bf16 lanes (floats in a
 * slot) become their 16-bit patterns, any other lane is copied as it is.
 * D has room for n lanes of the slot's size.  Returns the type of D's
 * elements: t, except fp8, whose values D holds as fp32. */
dtype exec_numpy_lanes(dtype t, void *D, const void *A, int64_t n)
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

static bool pid_passes(const exec_prog *P, const ir_print *pr)
{
    return ir_print_pid_passes(pr, P->coord);
}

/* The values printfmt formats: a piece's slot converted to numpy's memory
 * format in the worker's scratch (room for 8 bytes a lane of the largest
 * slot), one piece at a time. */
typedef struct print_ctx {
    exec_prog *P;
    const ir_print *pr;
} print_ctx;

static const void *print_lanes(void *ctx, int32_t piece)
{
    print_ctx *c = ctx;
    exec_prog *P = c->P;
    int32_t s = c->pr->pieces[piece].slot;
    exec_numpy_lanes(DT(P, s), P->w->scratch, SLOT(P, s), NUMEL(P, s));
    return P->w->scratch;
}

bool exec_op_print(exec_prog *P, const ir_inst *in)
{
    const ir_print *pr = ir_inst_print(P->x->k, in);   /* ir_verify: there is one */
    if (!pid_passes(P, pr))
        return true;
    print_ctx c = {P, pr};
    printfmt_src src = {.k = P->x->k, .lanes = print_lanes, .ctx = &c};
    printfmt_err err;
    /* a failure leaves the text before it in the output, which the error
     * report writes */
    if (!printfmt_print(&P->w->out, pr, P->coord, &src, &err))
        return exec_fail(P, in, err.note[0] ? err.note : NULL, "%s", err.msg);
    return true;
}

/* tl.device_assert: every active lane of a true (b, when present, is a
 * mask of the lanes that count). */
bool exec_op_assert(exec_prog *P, const ir_inst *in)
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
        const ir_print *msg = ir_inst_print(P->x->k, in);
        print_ctx c = {P, msg};
        printfmt_src src = {.k = P->x->k, .lanes = print_lanes, .ctx = &c};
        printfmt_err err;
        char ln[64];
        exec_lane_name(ln, sizeof ln, exec_lane_type(P, in), i);
        printfmt_assert(in->sub, msg, P->coord, ln, &src, &err);
        return exec_fail(P, in, err.note[0] ? err.note : NULL, "%s", err.msg);
    }
    return true;
}

/* BREAKPOINT outside a debugger session: ignored (--no-break), or a line in
 * the program's output saying where it would have stopped (stdin is not a
 * terminal, so nobody could answer a prompt).  Under the debugger
 * (exec_sess_*) the debugger sees the instruction before it runs and stops
 * there itself; running it is then a no-op. */
bool exec_op_breakpoint(exec_prog *P, const ir_inst *in)
{
    const exec_ctx *x = P->x;
    const ir_print *cond = ir_inst_print(x->k, in);
    if (x->debug || x->L->breaks != EXEC_BREAK_REPORT || (cond && !pid_passes(P, cond)))
        return true;
    const src_file *f = x->L->file;
    int line = in->at ? in->at->span.line : 0, col = in->at ? in->at->span.col : 0;
    printfmt_breakpoint(&P->w->out, f ? f->name : "<kernel>", line, col, P->coord);
    return true;
}
