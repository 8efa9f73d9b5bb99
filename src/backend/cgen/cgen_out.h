/* cgen_out.h - the host side of an emitted kernel's prints: the print
 * records a launch left in its buffer (cgen_abi.h) turned into exactly the
 * text the CPU executor writes for the same programs, and the words of a
 * failed ASSERT, both through printfmt.h (the CPU's own formatting).
 *
 * A GPU backend, after a launch of a kernel whose cgen_info.has_prints is
 * set, reads the runtime block and min(print_used, print_cap) bytes of
 * print_buf back, then calls cgen_out_write, which writes the programs'
 * output to the launch's FILE in program-id order and says whether (and
 * where, and with what words) the launch failed:
 *
 *     cgen_out_launch o = {.k = ir, .file = L->file, .diag = L->diag,
 *         .buf = host_copy, .used = rt.print_used, .cap = rt.print_cap,
 *         .grid = {gx, gy, gz}, .err = rt.err_key != TK_NO_ERROR ? &rt.err : NULL,
 *         .err_lane = lane_name_of(rt.err), .breaks_report = L->breaks == BACKEND_BREAK_REPORT};
 *     cgen_out_fail f;
 *     bool ok = cgen_out_write(L->out, &o, &f);
 *     if (f.failed)  report f.msg / f.note at ir->code[f.pc] when f.words,
 *                    else word rt.err itself (an access, a gather...)
 *
 * Kernels without prints may take the same path with used = 0: the ASSERT
 * words come from here either way.
 *
 * The buffer's size: cgen_out_buffer_bytes (TRITSIM_PRINT_BUFFER). */
#ifndef TRITSIM_CGEN_OUT_H
#define TRITSIM_CGEN_OUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cgen_abi.h"
#include "diag.h"
#include "ir.h"

/* Bytes of the print buffer a launch should have: TRITSIM_PRINT_BUFFER
 * when set (a number of bytes, optionally with a K, M or G suffix, powers
 * of 1024), else CGEN_OUT_BUFFER_DEFAULT.  A value that does not parse is
 * reported once to diag (a warning naming file, the program) and the
 * default is used. */
#define CGEN_OUT_BUFFER_DEFAULT ((uint64_t)16 << 20)
uint64_t cgen_out_buffer_bytes(diag_sink *diag, const src_file *file);

/* The size of a record of instruction pc (PRINT, ASSERT, BREAKPOINT), and
 * where the data of its print's piece i begins in it: the layout of
 * cgen_abi.h, which the emitter and the host both compute here. */
uint64_t cgen_rec_bytes(const ir_kernel *k, int32_t pc);
uint64_t cgen_rec_piece_at(const ir_kernel *k, int32_t pc, int32_t piece);

typedef struct cgen_out_launch {
    const ir_kernel *k;
    const src_file *file;        /* the program: BREAKPOINT lines and warnings name it */
    diag_sink *diag;             /* the lost-output warning, malformed records */
    const unsigned char *buf;    /* print_buf read back: min(used, cap) bytes */
    uint64_t used, cap;          /* tk_rt.print_used, tk_rt.print_cap */
    int64_t grid[3];
    const tk_err *err;           /* tk_rt.err when err_key != TK_NO_ERROR, else NULL */
    const char *err_lane;        /* err's lane as the CPU names it ("lane 5",
                                    "lane (1, 3)"), for an ASSERT's words */
    bool breaks_report;          /* BACKEND_BREAK_REPORT: BREAKPOINT writes its line */
} cgen_out_launch;

/* How the launch ended, as the CPU executor would report it. */
typedef struct cgen_out_fail {
    bool failed;                 /* a program failed: report it after the text */
    int32_t pc;                  /* the failing instruction */
    int64_t pid[3];              /* the failing program */
    bool words;                  /* msg (and note, when not empty) are the
                                    CPU's words: a failed ASSERT, or a PRINT
                                    whose format spec does not apply.  false:
                                    the failure is err's, worded by the caller */
    char msg[640];
    char note[256];
} cgen_out_fail;

/* Write the output of the launch's programs to out, as the CPU executor
 * does: each program's records in order, programs in id order (x + y*gx +
 * z*gx*gy), and none after the failing program (err's, or one whose PRINT
 * fails to format, whichever comes first).  When records were lost (used >
 * cap) the text that fit is written and a warning to diag says how much
 * was lost and how to get it.  *f says how the launch ended.  false (after
 * an internal error to diag) when the records are not what the kernel
 * writes. */
bool cgen_out_write(FILE *out, const cgen_out_launch *L, cgen_out_fail *f);

#endif
