/* printfmt.h - the text a kernel's PRINT, failed ASSERT and BREAKPOINT
 * produce (doc/ir.md 2.9, 3.12), from the values they read: one module
 * that every backend formats with, so the CPU executor (exec_print.c) and
 * the GPU backends (cgen_out.c, from the records a kernel writes) print
 * the same bytes.
 *
 * Values come as numpy's memory format (printfmt_lanes): row-major
 * elements of the slot's type, fp16 and bf16 as their 16-bit patterns,
 * int1 as a byte 0 or 1, pointers as addresses without addrmap.h's tags,
 * fp8 widened to fp32 (printfmt_numpy_dtype).  A backend hands them over
 * one piece at a time, through a printfmt_src, so that it needs room for
 * one slot's elements only. */
#ifndef TRITSIM_PRINTFMT_H
#define TRITSIM_PRINTFMT_H

#include <stdbool.h>
#include <stdint.h>

#include "dtype.h"
#include "ir.h"
#include "strbuf.h"

/* Where the values of a print's slot pieces come from: lanes(ctx, i)
 * returns the elements of pieces[i].slot (i a piece with a slot), in
 * numpy's memory format, valid until the next call; NULL when the backend
 * does not have them (a GPU record that was lost), which prints "?". */
typedef struct printfmt_src {
    const ir_kernel *k;      /* the slots' types */
    const void *(*lanes)(void *ctx, int32_t piece);
    void *ctx;
} printfmt_src;

/* Why formatting failed (a format spec that does not apply to the value):
 * the program fails at the instruction with this message and note. */
typedef struct printfmt_err {
    char msg[640];
    char note[256];
} printfmt_err;

/* The dtype of numpy's memory format for a slot of dtype t: fp32 for the
 * fp8 types, t itself otherwise. */
dtype printfmt_numpy_dtype(dtype t);

/* n elements of dtype t in memory format (dtype_store's: fp8 as its byte)
 * at M, converted to numpy's memory format at D (room for n elements of
 * printfmt_numpy_dtype(t)). */
void printfmt_from_memory(dtype t, void *D, const void *M, int64_t n);

/* A PRINT of pr by program pid, appended to out: IR_PRINT_TEXT the pieces
 * and a newline, IR_PRINT_DEVICE Triton's GPU lines.  The caller has
 * checked pr->pid_cond.  false (out may hold part of the text, which the
 * caller drops) when a format spec does not apply: *err says why. */
bool printfmt_print(strbuf *out, const ir_print *pr, const int64_t pid[3],
                    const printfmt_src *src, printfmt_err *err);

/* The message of a failed ASSERT (sub an ir_assert_kind, msg its print or
 * NULL) in program pid at the lane named lane ("lane 5", "lane (1, 3)"),
 * into err->msg (note empty): IR_ASSERT_DEVICE's "device assertion failed
 * in program (x, y, z), lane L: MESSAGE", IR_ASSERT_RULE's "HEAD in
 * program (x, y, z): TAIL".  false when formatting the message itself
 * failed: *err is then that failure, as the CPU reports it. */
bool printfmt_assert(int sub, const ir_print *msg, const int64_t pid[3], const char *lane,
                     const printfmt_src *src, printfmt_err *err);

/* BREAKPOINT's line outside a debugger (BACKEND_BREAK_REPORT), appended to
 * out: "FILE:LINE:COL: breakpoint in program (x, y, z) not taken: ...". */
void printfmt_breakpoint(strbuf *out, const char *file, int line, int col,
                         const int64_t pid[3]);

#endif
