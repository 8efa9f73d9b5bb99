/* irbuild.h - a small builder of kernel IR (ir.h) by hand, for the unit
 * tests (test_exec.c, test_ir.c, test_backend.c): a kernel in fixed-size arrays, slots and
 * instructions added one call at a time, each result slot typed from its
 * operands as the specializer would.
 *
 *     irb b;
 *     irb_init(&b, "copy_kernel");
 *     irb_at(&b, 3, 11, 27);                  // the source of what follows
 *     int x = irb_param(&b, "x_ptr", dtype_ptr_to(DTYPE_FP32));
 *     int p = irb_ptr_add(&b, irb_arg(&b, x), irb_arange(&b, 4));
 *     irb_store(&b, p, irb_load(&b, p, -1, -1), -1);
 *     irb_emit(&b, IR_RETURN, 0, -1, -1, -1, -1, 0);
 *     // b.k is the kernel
 *
 * Slots have at most 2 dimensions here; operand d (ATOMIC CAS's value) is
 * -1 unless set on the instruction irb_emit returns. */
#ifndef TRITSIM_IRBUILD_H
#define TRITSIM_IRBUILD_H

#include <stdint.h>

#include "ast.h"
#include "ir.h"

enum { IRB_CODE = 320, IRB_SLOTS = 256, IRB_NODES = 32, IRB_PIECES = 32 };

typedef struct irb {
    ir_kernel k;
    ir_inst code[IRB_CODE];
    ir_slot slots[IRB_SLOTS];
    ir_param params[8];
    ir_print prints[8];
    ir_fmt_piece pieces[IRB_PIECES];
    int npieces;
    ast_node nodes[IRB_NODES];
    int nnodes;
    const ast_node *at;      /* the source of the next instructions */
} irb;

void irb_init(irb *b, const char *name);
/* The next instructions come from line:col .. line:end_col. */
void irb_at(irb *b, int line, int col, int end_col);
int irb_param(irb *b, const char *name, dtype dt);
/* A slot of ndim dimensions (0 to 2) d0, d1. */
int irb_slot(irb *b, dtype dt, int ndim, int d0, int d1);
/* A slot like x but of another dtype. */
int irb_like(irb *b, int x, dtype dt);
int64_t irb_numel(const irb *b, int s);
/* An instruction (d -1); its index. */
int irb_emit(irb *b, ir_opcode op, int sub, int dst, int a, int bb, int c, int64_t imm);

/* Instructions that make their result slot, and return it. */
int irb_const(irb *b, dtype dt, int64_t v);
int irb_fconst(irb *b, dtype dt, double v);
int irb_arg(irb *b, int param);
int irb_pid(irb *b, int axis);
int irb_arange(irb *b, int n);
int irb_bin(irb *b, ir_binop op, int x, int y);
int irb_cmp(irb *b, ir_cmp op, int x, int y);
int irb_ptr_add(irb *b, int p, int off);
int irb_load(irb *b, int p, int mask, int other);
void irb_store(irb *b, int p, int v, int mask);
/* x reshaped or broadcast to [d0, d1] (ndim 2). */
int irb_shape2(irb *b, ir_opcode op, int x, int d0, int d1);
/* An int32 [R, C] tile of r * ld + c. */
int irb_offs2d(irb *b, int R, int C, int ld);
/* A print of these pieces; its index.  Text pieces are given as strings,
 * slot pieces as "{N}" (slot N) or "{N:spec}". */
int irb_print(irb *b, ir_print_kind kind, const char *const *parts, int nparts);

#endif
