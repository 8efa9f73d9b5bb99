/* fault.h - the words of a kernel's run-time errors, shared by every
 * backend so that a failure reads the same wherever the kernel ran: the
 * CPU executor (cpu/exec_mem.c, exec_tile.c) and the GPU backends (which
 * decode their kernels' error records, cgen_abi.h) build their messages
 * here and report them at the instruction's place with backend_report_at.
 * backend/common sits below the registry (backend.c) and every backend,
 * which all may use it.
 *
 * Each builder appends a message (the error line) and a note (a hint for
 * the user, maybe empty) to the strbufs it is given. */
#ifndef TRITSIM_FAULT_H
#define TRITSIM_FAULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "ir.h"
#include "strbuf.h"

typedef enum backend_access_kind {
    BACKEND_ACCESS_LOAD,
    BACKEND_ACCESS_STORE,
    BACKEND_ACCESS_ATOMIC,
} backend_access_kind;

/* One lane of a LOAD, STORE or ATOMIC that was out of bounds or
 * misaligned. */
typedef struct backend_access_fault {
    backend_access_kind kind;
    int64_t coord[3];       /* the program */
    const char *lane;       /* backend_lane_name's "lane 5" */
    uint64_t addr;          /* the address the lane reached (untagged) */
    int esz;                /* bytes the lane touches */
    int arg;                /* the pointer argument the lane should lie in,
                               -1 when it lies in none */
    bool int_ptrs;          /* the kernel makes pointers from integers (a
                               lane in no argument is then a wild pointer) */
    /* arg >= 0: that argument */
    const char *arg_name;
    uint64_t arg_base;      /* its address (as addr: host or device) */
    uint64_t arg_bytes;     /* bytes it reaches */
    int64_t arg_esz;        /* its element size */
    size_t arg_numel;       /* its elements */
} backend_access_fault;

/* "out-of-bounds load from 'x_ptr' in program (0, 0, 0): lane 5 reads
 * element 9 of a 8-element tensor", "misaligned ...", "... through a wild
 * pointer ...", and the hint that goes with it. */
void backend_fault_access(const backend_access_fault *f, strbuf *msg, strbuf *note);

/* A lane through a pointer made from an integer (a data_ptr() address)
 * that lies outside the tensor storage the address was in, or misaligned
 * in it: "out-of-bounds load in program (0, 0, 0): lane 3 reads element 12
 * of the 12-element tensor storage its pointer was made from (an integer
 * cast to pointer<fp16>)".  addr is the lane's host address, base and
 * bytes the storage's, esz the bytes the lane touches, ptr_type the
 * pointer's dtype. */
void backend_fault_tagged(backend_access_kind kind, const int64_t coord[3], const char *lane,
                          uint64_t addr, uint64_t base, uint64_t bytes, int esz,
                          dtype ptr_type, strbuf *msg, strbuf *note);

/* A tl.gather index outside its axis: index (negative: -magnitude) of
 * lane, axis ax of axis_size elements. */
void backend_fault_gather(const int64_t coord[3], const char *lane, bool negative,
                          uint64_t magnitude, int ax, int64_t axis_size, strbuf *msg,
                          strbuf *note);

/* "lane 5", or "lane (1, 3)" for a lane of a 2-d (or larger) tile. */
void backend_lane_name(char *buf, size_t len, const ir_type *t, int64_t lane);

/* The type whose shape names the lanes of instruction in: its largest
 * operand (or result). */
const ir_type *backend_lane_type(const ir_kernel *k, const ir_inst *in);

/* The file instruction in's source place is in: its inlined function's
 * frame's, else file. */
const src_file *backend_inst_file(const ir_kernel *k, const src_file *file,
                                  const ir_inst *in);

/* Report msg as an error at in's source place (in the file of its inlined
 * function's frame, else file), then note when not NULL, then "in 'f',
 * called from here" for each inlined call it sits in. */
void backend_report_at(diag_sink *diag, const ir_kernel *k, const src_file *file,
                       const ir_inst *in, const char *msg, const char *note);

#endif
