/* test_ir.c - unit tests of the IR's own code (ir.c): the verifier
 * (ir_verify) on well-formed and malformed kernels built by hand
 * (irbuild.h), the operand walker (ir_reads, ir_inst_print,
 * ir_writes_dst), print_if's program-id conditions, the packed
 * immediates' accessors, and the listing of a compare-and-swap.  The
 * executor's tests (test_exec.c) run kernels. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"
#include "irbuild.h"
#include "tap.h"

/* z[offs] = x[offs] + 1 on a block of 4, masked by offs < n. */
static void build_add_one(irb *b)
{
    irb_init(b, "add_one");
    irb_at(b, 3, 5, 20);
    int px = irb_param(b, "x_ptr", dtype_ptr_to(DTYPE_FP32));
    int pz = irb_param(b, "z_ptr", dtype_ptr_to(DTYPE_FP32));
    int pn = irb_param(b, "n", DTYPE_INT32);
    int offs = irb_arange(b, 4);
    int mask = irb_cmp(b, IR_LT, offs, irb_arg(b, pn));
    int x = irb_load(b, irb_ptr_add(b, irb_arg(b, px), offs), mask, -1);
    int y = irb_bin(b, IR_ADD, x, irb_fconst(b, DTYPE_FP32, 1.0));
    irb_store(b, irb_ptr_add(b, irb_arg(b, pz), offs), y, mask);
    irb_emit(b, IR_RETURN, 0, -1, -1, -1, -1, 0);
}

/* ir_verify's verdict on b's kernel: "ok", or "pc N: why", "slot N: why",
 * "why" (a print). */
static const char *verdict(const irb *b)
{
    static char buf[160];
    ir_fault f;
    if (ir_verify(&b->k, &f))
        return "ok";
    if (f.slot >= 0)
        snprintf(buf, sizeof buf, "slot %d: %s", (int)f.slot, f.why);
    else if (f.pc >= 0)
        snprintf(buf, sizeof buf, "pc %d: %s", (int)f.pc, f.why);
    else
        snprintf(buf, sizeof buf, "%s", f.why);
    return buf;
}

/* The pc of the first instruction with opcode op. */
static int find_op(const irb *b, ir_opcode op)
{
    for (int pc = 0; pc < b->k.ncode; pc++)
        if (b->code[pc].op == op)
            return pc;
    return -1;
}

static void test_verify(void)
{
    irb b;
    build_add_one(&b);
    TAP_STR_EQ(verdict(&b), "ok", "a well-formed kernel verifies");

    build_add_one(&b);
    int add = find_op(&b, IR_BINARY);
    b.code[add].b = 99;
    char want[80];
    snprintf(want, sizeof want, "pc %d: bad operand slot", add);
    TAP_STR_EQ(verdict(&b), want, "an operand past the last slot");

    build_add_one(&b);
    b.code[add].op = IR__COUNT;
    snprintf(want, sizeof want, "pc %d: unknown opcode", add);
    TAP_STR_EQ(verdict(&b), want, "an opcode past the last");

    build_add_one(&b);
    b.code[add].sub = IR_FDIV_RN + 1;
    snprintf(want, sizeof want, "pc %d: unknown variant", add);
    TAP_STR_EQ(verdict(&b), want, "a BINARY past the last ir_binop");

    build_add_one(&b);
    b.slots[b.code[add].dst].type.shape[0] = 8;     /* [4] + scalar -> [8] */
    snprintf(want, sizeof want, "pc %d: operand shapes do not match the destination", add);
    TAP_STR_EQ(verdict(&b), want, "elementwise operands of another shape");

    build_add_one(&b);
    b.slots[2].type.ndim = IR_MAX_DIM + 1;
    TAP_STR_EQ(verdict(&b), "slot 2: invalid type", "a slot of too many dimensions");

    build_add_one(&b);
    b.slots[0].type.shape[0] = 1 << 14;
    b.slots[0].type.shape[1] = 1 << 14;
    b.slots[0].type.ndim = 2;
    TAP_STR_EQ(verdict(&b), "slot 0: invalid type", "a slot of more than IR_MAX_NUMEL elements");

    build_add_one(&b);
    int st = find_op(&b, IR_STORE);
    b.code[st].b = b.code[st].c;                       /* stores the int1 mask */
    snprintf(want, sizeof want, "pc %d: bad store operand types", st);
    TAP_STR_EQ(verdict(&b), want, "a store of another element type");

    build_add_one(&b);
    int ret = b.k.ncode - 1;
    b.code[ret] = (ir_inst){.op = IR_JUMP, .dst = -1, .a = -1, .b = -1, .c = -1, .d = -1,
                            .imm = b.k.ncode + 1, .frame = -1};
    snprintf(want, sizeof want, "pc %d: jump target out of range", ret);
    TAP_STR_EQ(verdict(&b), want, "a jump past the end");

    build_add_one(&b);
    const char *parts[] = {"x = ", "{77}"};
    int pr = irb_print(&b, IR_PRINT_TEXT, parts, 2);
    b.k.ncode--;                                       /* before the RETURN */
    irb_emit(&b, IR_PRINT, 0, -1, -1, -1, -1, pr);
    irb_emit(&b, IR_RETURN, 0, -1, -1, -1, -1, 0);
    TAP_STR_EQ(verdict(&b), "a print names a bad slot", "a print of a slot that is not there");
}

static void test_verify_packed(void)
{
    irb b;
    irb_init(&b, "shapes");
    int x = irb_shape2(&b, IR_RESHAPE, irb_arange(&b, 8), 2, 4);
    int t = irb_slot(&b, DTYPE_INT32, 2, 4, 2);
    int pc = irb_emit(&b, IR_TRANS, 0, t, x, -1, -1, ir_trans_pack((const int[]){1, 0}, 2));
    int s = irb_slot(&b, DTYPE_INT32, 2, 2, 3);
    int sl = irb_emit(&b, IR_SLICE, 0, s, x, -1, -1, ir_slice_pack(1, 1));
    irb_emit(&b, IR_RETURN, 0, -1, -1, -1, -1, 0);
    TAP_STR_EQ(verdict(&b), "ok", "trans (1, 0) of [2, 4] is [4, 2]; slice [1:4] of axis 1");

    b.code[pc].imm = ir_trans_pack((const int[]){0, 0}, 2);
    char want[80];
    snprintf(want, sizeof want, "pc %d: not a permutation of the operand's axes", pc);
    TAP_STR_EQ(verdict(&b), want, "trans (0, 0) is refused");
    b.code[pc].imm = ir_trans_pack((const int[]){1, 0}, 2);

    b.code[sl].imm = ir_slice_pack(1, 2);              /* [2:5] of 4 */
    snprintf(want, sizeof want, "pc %d: bad flip, concat or slice operand shapes", sl);
    TAP_STR_EQ(verdict(&b), want, "a slice past the end of its axis");
}

static void test_verify_cas(void)
{
    irb b;
    irb_init(&b, "cas");
    int p = irb_arg(&b, irb_param(&b, "p", dtype_ptr_to(DTYPE_INT32)));
    int cmp = irb_const(&b, DTYPE_INT32, 0), val = irb_const(&b, DTYPE_INT32, 7);
    int old = irb_slot(&b, DTYPE_INT32, 0, 0, 0);
    int pc = irb_emit(&b, IR_ATOMIC, IR_ATOMIC_CAS, old, p, cmp, -1, 0);
    irb_emit(&b, IR_RETURN, 0, -1, -1, -1, -1, 0);
    char want[80];
    snprintf(want, sizeof want, "pc %d: bad value slot", pc);
    TAP_STR_EQ(verdict(&b), want, "a compare-and-swap without its value slot d");
    b.code[pc].d = val;
    TAP_STR_EQ(verdict(&b), "ok", "... and with it");

    int32_t r[IR_MAX_READS];
    int n = ir_reads(&b.code[pc], r);
    TAP_OK(n == 3 && r[0] == p && r[1] == cmp && r[2] == val,
           "ir_reads of a CAS: the pointer, the compare, the value (d)");

    char *text = NULL;
    size_t len;
    FILE *f = open_memstream(&text, &len);
    ir_dump(&b.k, f);
    fclose(f);
    TAP_OK(strstr(text, "atomic.cas     %3:int32 <- %0:pointer<int32>, cmp %1:int32, "
                        "value %2:int32\n") != NULL,
           "the listing names a CAS's compare and value");
    free(text);
}

/* ir_reads as text: "a b d" for the fields it returned. */
static const char *reads_of(const ir_inst *in)
{
    static char buf[32];
    int32_t r[IR_MAX_READS];
    int n = ir_reads(in, r);
    size_t at = 0;
    buf[0] = 0;
    for (int i = 0; i < n; i++) {
        const char *field = r[i] == in->a ? "a" : r[i] == in->b ? "b" : r[i] == in->c ? "c"
                          : r[i] == in->d ? "d" : "?";
        at += (size_t)snprintf(buf + at, sizeof buf - at, "%s%s", i ? " " : "", field);
    }
    return buf;
}

static void test_reads(void)
{
    /* distinct slot numbers, so reads_of can tell the fields apart */
    ir_inst in = {.dst = 1, .a = 2, .b = 3, .c = 4, .d = 5};
    in.op = IR_CONST;
    TAP_STR_EQ(reads_of(&in), "", "CONST reads nothing, whatever its fields hold");
    in.op = IR_UNARY;
    TAP_STR_EQ(reads_of(&in), "a", "UNARY reads a");
    in.op = IR_BINARY;
    TAP_STR_EQ(reads_of(&in), "a b", "BINARY reads a and b");
    in.op = IR_WHERE;
    TAP_STR_EQ(reads_of(&in), "a b c", "WHERE reads a, b, c");
    in.op = IR_LOAD;
    in.b = -1;
    TAP_STR_EQ(reads_of(&in), "a c", "LOAD without a mask reads a and other");
    in.b = 3;
    in.op = IR_ATOMIC;
    in.sub = IR_ATOMIC_ADD;
    TAP_STR_EQ(reads_of(&in), "a b c", "ATOMIC add leaves d alone");
    in.sub = IR_ATOMIC_CAS;
    TAP_STR_EQ(reads_of(&in), "a b c d", "ATOMIC cas reads its value d");
    in.sub = 0;
    in.op = IR_ASSERT;
    TAP_STR_EQ(reads_of(&in), "a b", "ASSERT reads its condition and mask");
    in.op = IR_BRANCH;
    TAP_STR_EQ(reads_of(&in), "a", "BRANCH reads its condition");
    in.op = IR_PRINT;
    TAP_STR_EQ(reads_of(&in), "", "PRINT has no operands (its slots are in its ir_print)");
    in.op = IR__COUNT;
    TAP_STR_EQ(reads_of(&in), "", "not an opcode: nothing");

    in.op = IR_STORE;
    TAP_OK(!ir_writes_dst(&in), "STORE writes no slot, whatever dst holds");
    in.op = IR_LOAD;
    TAP_OK(ir_writes_dst(&in), "LOAD writes dst");
    in.dst = -1;
    in.op = IR_ATOMIC;
    TAP_OK(!ir_writes_dst(&in), "an ATOMIC whose old value is unused writes nothing");

    irb b;
    build_add_one(&b);
    const char *parts[] = {"x"};
    int pr = irb_print(&b, IR_PRINT_TEXT, parts, 1);
    ir_inst p = {.op = IR_PRINT, .imm = pr};
    TAP_OK(ir_inst_print(&b.k, &p) == &b.prints[pr], "ir_inst_print: a PRINT's print");
    p.imm = -1;
    TAP_OK(ir_inst_print(&b.k, &p) == NULL, "... none for imm -1");
    p = (ir_inst){.op = IR_JUMP, .imm = pr};
    TAP_OK(ir_inst_print(&b.k, &p) == NULL, "... none for a JUMP");
}

static void test_pid_conds(void)
{
    ir_print p = {.pid_cond = {{IR_GE, 1}, {-1, 0}, {IR_NE, 2}}};
    TAP_OK(ir_print_pid_passes(&p, (const int64_t[]){1, 7, 0}) &&
           !ir_print_pid_passes(&p, (const int64_t[]){0, 7, 0}) &&
           !ir_print_pid_passes(&p, (const int64_t[]){3, 0, 2}),
           "pid_cond: pid[0] >= 1, any pid[1], pid[2] != 2");
}

static void test_packed(void)
{
    ir_inst in = {.op = IR_TRANS, .imm = ir_trans_pack((const int[]){2, 0, 3, 1}, 4)};
    TAP_OK(ir_trans_axis(&in, 0) == 2 && ir_trans_axis(&in, 1) == 0 &&
           ir_trans_axis(&in, 2) == 3 && ir_trans_axis(&in, 3) == 1,
           "ir_trans_axis reads back what ir_trans_pack packed");
    in = (ir_inst){.op = IR_SLICE, .imm = ir_slice_pack(3, 1000)};
    TAP_OK(ir_slice_axis(&in) == 3 && ir_slice_start(&in) == 1000,
           "ir_slice_axis and ir_slice_start read back what ir_slice_pack packed");
}

int main(void)
{
    test_verify();
    test_verify_packed();
    test_verify_cas();
    test_reads();
    test_pid_conds();
    test_packed();
    return tap_done();
}
