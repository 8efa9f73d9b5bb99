/* irbuild.c - the unit tests' builder of kernel IR by hand (irbuild.h). */
#include "irbuild.h"

#include <stdlib.h>
#include <stdio.h>
#include <string.h>

void irb_init(irb *b, const char *name)
{
    memset(b, 0, sizeof *b);
    b->k.name = name;
    b->k.code = b->code;
    b->k.slots = b->slots;
    b->k.params = b->params;
    b->k.prints = b->prints;
}

/* The next instructions come from line:col .. line:end_col. */
void irb_at(irb *b, int line, int col, int end_col)
{
    ast_node *n = &b->nodes[b->nnodes++];
    n->kind = AST_CALL;
    n->span = (src_span){line, col, line, end_col, 0, 0};
    b->at = n;
}

int irb_param(irb *b, const char *name, dtype dt)
{
    b->params[b->k.nparams] = (ir_param){name, dt};
    return b->k.nparams++;
}

int irb_slot(irb *b, dtype dt, int ndim, int d0, int d1)
{
    if (b->k.nslots >= IRB_SLOTS) {
        fprintf(stderr, "irbuild: more than %d slots\n", IRB_SLOTS);
        abort();
    }
    ir_slot *s = &b->slots[b->k.nslots];
    s->type.dt = dt;
    s->type.ndim = (int8_t)ndim;
    s->type.shape[0] = d0;
    s->type.shape[1] = d1;
    s->ptr_arg = -1;
    return b->k.nslots++;
}

/* A slot like x but of another dtype. */
int irb_like(irb *b, int x, dtype dt)
{
    ir_type t = b->slots[x].type;
    return irb_slot(b, dt, t.ndim, t.shape[0], t.shape[1]);
}

int irb_emit(irb *b, ir_opcode op, int sub, int dst, int a, int bb, int c, int64_t imm)
{
    if (b->k.ncode >= IRB_CODE) {
        fprintf(stderr, "irbuild: more than %d instructions\n", IRB_CODE);
        abort();
    }
    ir_inst *in = &b->code[b->k.ncode];
    *in = (ir_inst){.op = (uint8_t)op, .sub = (uint8_t)sub, .dst = dst, .a = a,
                    .b = bb, .c = c, .d = -1, .imm = imm, .at = b->at, .frame = -1};
    return b->k.ncode++;
}

int64_t irb_numel(const irb *b, int s)
{
    int64_t n = 1;
    for (int d = 0; d < b->slots[s].type.ndim; d++)
        n *= b->slots[s].type.shape[d];
    return n;
}

int irb_const(irb *b, dtype dt, int64_t v)
{
    int s = irb_slot(b, dt, 0, 0, 0);
    irb_emit(b, IR_CONST, 0, s, -1, -1, -1, v);
    return s;
}

int irb_fconst(irb *b, dtype dt, double v)
{
    int s = irb_slot(b, dt, 0, 0, 0);
    int i = irb_emit(b, IR_CONST, 0, s, -1, -1, -1, 0);
    b->code[i].fimm = v;
    return s;
}

int irb_arg(irb *b, int param)
{
    int s = irb_slot(b, b->params[param].dt, 0, 0, 0);
    if (dtype_is_ptr(b->params[param].dt))
        b->slots[s].ptr_arg = param;
    irb_emit(b, IR_ARG, 0, s, -1, -1, -1, param);
    return s;
}

int irb_pid(irb *b, int axis)
{
    int s = irb_slot(b, DTYPE_INT32, 0, 0, 0);
    irb_emit(b, IR_PROGRAM_ID, 0, s, -1, -1, -1, axis);
    return s;
}

int irb_arange(irb *b, int n)
{
    int s = irb_slot(b, DTYPE_INT32, 1, n, 0);
    irb_emit(b, IR_ARANGE, 0, s, -1, -1, -1, 0);
    return s;
}

/* The larger of two operands names the result's shape. */
static int irb_wider(const irb *b, int x, int y)
{
    return irb_numel(b, y) > irb_numel(b, x) ? y : x;
}

int irb_bin(irb *b, ir_binop op, int x, int y)
{
    int s = irb_like(b, irb_wider(b, x, y), b->slots[x].type.dt);
    irb_emit(b, IR_BINARY, op, s, x, y, -1, 0);
    return s;
}

int irb_cmp(irb *b, ir_cmp op, int x, int y)
{
    int s = irb_like(b, irb_wider(b, x, y), DTYPE_INT1);
    irb_emit(b, IR_CMP, op, s, x, y, -1, 0);
    return s;
}

int irb_ptr_add(irb *b, int p, int off)
{
    int s = irb_like(b, irb_wider(b, p, off), b->slots[p].type.dt);
    b->slots[s].ptr_arg = b->slots[p].ptr_arg;
    irb_emit(b, IR_PTR_ADD, 0, s, p, off, -1, 0);
    return s;
}

int irb_load(irb *b, int p, int mask, int other)
{
    int s = irb_like(b, irb_wider(b, p, mask >= 0 ? mask : p),
                     dtype_elem(b->slots[p].type.dt));
    irb_emit(b, IR_LOAD, 0, s, p, mask, other, 0);
    return s;
}

void irb_store(irb *b, int p, int v, int mask)
{
    irb_emit(b, IR_STORE, 0, -1, p, v, mask, 0);
}

/* x reshaped or broadcast to [d0, d1] (ndim 2). */
int irb_shape2(irb *b, ir_opcode op, int x, int d0, int d1)
{
    int s = irb_slot(b, b->slots[x].type.dt, 2, d0, d1);
    irb_emit(b, op, 0, s, x, -1, -1, 0);
    return s;
}

/* An int32 [R, C] tile of r * ld + c. */
int irb_offs2d(irb *b, int R, int C, int ld)
{
    int r = irb_shape2(b, IR_BROADCAST, irb_shape2(b, IR_RESHAPE, irb_arange(b, R), R, 1), R, C);
    int c = irb_shape2(b, IR_BROADCAST, irb_shape2(b, IR_RESHAPE, irb_arange(b, C), 1, C), R, C);
    return irb_bin(b, IR_ADD, irb_bin(b, IR_MUL, r, irb_const(b, DTYPE_INT32, ld)), c);
}

/* A print of these pieces; text pieces are given as strings, slot pieces
 * as "{N}" (slot N) or "{N:spec}". */
int irb_print(irb *b, ir_print_kind kind, const char *const *parts, int nparts)
{
    ir_print *pr = &b->prints[b->k.nprints];
    pr->kind = kind;
    pr->pieces = &b->pieces[b->npieces];
    for (int i = 0; i < 3; i++)
        pr->pid_cond[i].op = -1;
    for (int i = 0; i < nparts; i++) {
        ir_fmt_piece *pc = &b->pieces[b->npieces++];
        pc->slot = -1;
        if (parts[i][0] == '{') {
            pc->slot = atoi(parts[i] + 1);
            const char *colon = strchr(parts[i], ':');
            if (colon) {
                static char specs[8][16];
                static int nspecs;
                char *sp = specs[nspecs++ % 8];
                snprintf(sp, sizeof specs[0], "%.*s", (int)strcspn(colon + 1, "}"), colon + 1);
                pc->spec = sp;
            }
        } else {
            pc->text = parts[i];
        }
        pr->npieces++;
    }
    return b->k.nprints++;
}
