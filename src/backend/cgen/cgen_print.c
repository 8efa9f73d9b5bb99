/* cgen_print.c - the device side of PRINT, BREAKPOINT and the values of a
 * failed ASSERT's message: each writes a record into the runtime block's
 * print buffer (cgen_abi.h), which the host turns into the CPU's text
 * (cgen_out.c).
 *
 * A record is reserved by thread 0 with one atomicAdd on print_used; it
 * writes the header and the scalar pieces.  When the print has tile
 * pieces, the record's offset reaches the other threads through shared
 * memory (tk_print_at, two entries used in turn, so that one barrier per
 * record suffices: an entry is written again only after a later record's
 * barrier, which every thread passes after reading it), and each thread
 * writes the elements it owns (cg_loop_begin's owned lanes), in memory
 * format (cgen_store_stmt).  A record that does not fit is not written
 * (only its size, when 8 bytes fit); print_used keeps counting, so the
 * host sees what was lost.  tk_seq numbers a program's records. */
#include "cgen_impl.h"

#include <inttypes.h>

#include "cgen_abi.h"
#include "cgen_out.h"

#pragma GCC diagnostic error "-Wswitch"
#pragma GCC diagnostic error "-Wswitch-enum"

/* Does the print have pieces with a slot (scalars, tiles)? */
static bool any_slots(const cg *g, const ir_print *pr, bool tiles)
{
    for (int32_t i = 0; pr && i < pr->npieces; i++)
        if (pr->pieces[i].slot >= 0 && (!tiles || !cg_scalar(g, pr->pieces[i].slot)))
            return true;
    return false;
}

/* Does a failed ASSERT at this instruction write a record? */
static bool assert_records(const cg *g, const ir_inst *in)
{
    return in->op == IR_ASSERT && g->o->checked && any_slots(g, ir_inst_print(g->k, in), false);
}

void cgen_print_decls(cg *g)
{
    const ir_kernel *k = g->k;
    bool any = false;
    for (int32_t pc = 0; pc < k->ncode && !any; pc++) {
        const ir_inst *in = &k->code[pc];
        any = in->op == IR_PRINT || in->op == IR_BREAKPOINT || assert_records(g, in);
    }
    if (!any)
        return;
    g->info->has_prints = true;
    cg_printf(g, "unsigned int tk_seq = 0, tk_pslot = 0; (void)tk_pslot;\n");
    cg_printf(g, "__shared__ unsigned long long tk_print_at[2]; (void)tk_print_at;\n");
}

/* The condition (a C expression, uniform) of a print's program ids. */
static void pid_cond(strbuf *sb, const ir_print *pr)
{
    strbuf_puts(sb, "true");
    for (int i = 0; pr && i < 3; i++) {
        const char *op = NULL;
        switch ((ir_cmp)pr->pid_cond[i].op) {
        case IR_EQ: op = "=="; break;
        case IR_NE: op = "!="; break;
        case IR_LT: op = "<"; break;
        case IR_LE: op = "<="; break;
        case IR_GT: op = ">"; break;
        case IR_GE: op = ">="; break;
        }
        if (pr->pid_cond[i].op >= 0 && op)
            strbuf_printf(sb, " && (long long)blockIdx.%c %s %" PRId64 "ll", "xyz"[i], op,
                          pr->pid_cond[i].value);
    }
}

/* The store of element expression `val` of dtype dt at byte offset expr
 * `at` of the record (tk_p).  A pointer shows its address without the
 * number a pointer made from an integer carries (cgen_abi.h), as the
 * CPU's prints show it without addrmap.h's tag. */
static void store(cg *g, dtype dt, const char *at, const char *val)
{
    strbuf addr = {0}, st = {0}, v = {0};
    strbuf_printf(&addr, "tk_p + %s", at);
    if (dtype_is_ptr(dt) && g->int_ptrs)
        strbuf_printf(&v, "tk_p2i(%s, tk_nam)", val);
    else
        strbuf_puts(&v, val);
    cgen_store_stmt(&st, dt, strbuf_cstr(&addr), strbuf_cstr(&v));
    strbuf_free(&v);
    cg_printf(g, "%s\n", strbuf_cstr(&st));
    strbuf_free(&addr);
    strbuf_free(&st);
}

/* The record of instruction pc (flags TK_REC_*): reserve, header, values. */
static bool emit_record(cg *g, int32_t pc, uint32_t flags)
{
    const ir_kernel *k = g->k;
    const ir_print *pr = flags & TK_REC_BREAK ? NULL : ir_inst_print(k, &k->code[pc]);
    uint64_t bytes = cgen_rec_bytes(k, pc);
    if (bytes > UINT32_MAX)
        return cg_fail(g, pc, "the values this prints take %" PRIu64 " bytes, more than a "
                       "print record holds (4 GiB)", bytes);
    bool tiles = any_slots(g, pr, true);
    cg_printf(g, "{\n");
    cg_printf(g, "if (tk_tid == 0) {\n");
    cg_printf(g, "  const unsigned long long tk_o = atomicAdd(&tk_rt_p->print_used, %" PRIu64
              "ull);\n", bytes);
    if (tiles)
        cg_printf(g, "  tk_print_at[tk_pslot] = tk_o;\n");
    cg_printf(g, "  unsigned char *tk_p = tk_rt_p->print_buf + tk_o;\n");
    cg_printf(g, "  if (tk_o + 8ull <= tk_rt_p->print_cap) *(unsigned int *)tk_p = %" PRIu64
              "u;\n", bytes);
    cg_printf(g, "  if (tk_o + %" PRIu64 "ull <= tk_rt_p->print_cap) {\n", bytes);
    cg_printf(g, "    unsigned int *tk_h = (unsigned int *)tk_p;\n");
    cg_printf(g, "    tk_h[1] = %" PRIu32 "u; tk_h[2] = blockIdx.x; tk_h[3] = blockIdx.y;"
              " tk_h[4] = blockIdx.z; tk_h[5] = tk_seq;\n", (uint32_t)pc | flags);
    for (int32_t i = 0; pr && i < pr->npieces; i++) {
        int32_t s = pr->pieces[i].slot;
        if (s < 0 || !cg_scalar(g, s))
            continue;
        char at[32], val[32];
        snprintf(at, sizeof at, "%" PRIu64, cgen_rec_piece_at(k, pc, i));
        snprintf(val, sizeof val, "s%d", s);
        store(g, cg_dt(g, s), at, val);
    }
    cg_printf(g, "  }\n}\n");
    if (tiles) {
        cg_barrier(g);
        cg_printf(g, "{\nconst unsigned long long tk_o = tk_print_at[tk_pslot];\n");
        cg_printf(g, "tk_pslot ^= 1u;\n");
        cg_printf(g, "if (tk_o + %" PRIu64 "ull <= tk_rt_p->print_cap) {\n", bytes);
        cg_printf(g, "unsigned char *tk_p = tk_rt_p->print_buf + tk_o;\n");
        for (int32_t i = 0; i < pr->npieces; i++) {
            int32_t s = pr->pieces[i].slot;
            if (s < 0 || cg_scalar(g, s))
                continue;
            cgen_layout L = cg_layout(g, s);
            cg_loop_begin(g, &L, true);
            char at[64];
            snprintf(at, sizeof at, "%" PRIu64 " + (tk_u64)e * %d", cgen_rec_piece_at(k, pc, i),
                     dtype_size(cg_dt(g, s)));
            strbuf val = {0};
            cg_operand(g, &val, s);
            store(g, cg_dt(g, s), at, strbuf_cstr(&val));
            strbuf_free(&val);
            cg_loop_end(g);
        }
        cg_printf(g, "}\n}\n");
    }
    cg_printf(g, "tk_seq++;\n}\n");
    return true;
}

bool cgen_emit_print(cg *g, int32_t pc, const ir_inst *in)
{
    const ir_print *pr = ir_inst_print(g->k, in);
    switch ((ir_opcode)in->op) {
    case IR_PRINT:
    case IR_BREAKPOINT: {
        strbuf c = {0};
        pid_cond(&c, pr);
        cg_printf(g, "if (%s) ", strbuf_cstr(&c));
        strbuf_free(&c);
        return emit_record(g, pc, in->op == IR_BREAKPOINT ? TK_REC_BREAK : 0);
    }
    case IR_ASSERT:
        /* after the lanes' checks: the block stops together, writing the
         * values of the message first */
        if (!assert_records(g, in)) {
            cg_check_pending(g);
            cg_check_stop(g);
            return true;
        }
        cg_printf(g, "if (__syncthreads_or(tk_bad)) ");
        cg_printf(g, "{\nTK_REPORT();\n");
        if (!emit_record(g, pc, TK_REC_ASSERT))
            return false;
        cg_printf(g, "return;\n}\n");
        return true;
    case IR_CONST: case IR_PROGRAM_ID: case IR_NUM_PROGRAMS: case IR_ARG: case IR_ARANGE:
    case IR_COPY: case IR_BROADCAST: case IR_RESHAPE: case IR_TRANS: case IR_FLIP:
    case IR_CONCAT: case IR_SLICE: case IR_GATHER: case IR_HISTOGRAM: case IR_CAST:
    case IR_BITCAST: case IR_UNARY: case IR_BINARY: case IR_CMP: case IR_WHERE: case IR_MATH:
    case IR_PTR_ADD: case IR_LOAD: case IR_STORE: case IR_ATOMIC: case IR_DOT: case IR_REDUCE:
    case IR_SCAN: case IR_JUMP: case IR_BRANCH: case IR_RETURN: case IR_NOP:
        break;
    }
    return cg_fail(g, pc, "internal error: %s is no print", ir_op_name((ir_opcode)in->op));
}
