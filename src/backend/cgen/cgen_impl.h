/* cgen_impl.h - what the emitter's files (cgen*.c) share and nothing
 * outside them sees: the emission context, tile layouts, and the helpers
 * that write per-thread loops and move tiles through shared memory.
 *
 * Layouts.  A tile of n elements on a block of T threads: when n >= T,
 * thread t owns regs = n / T elements, in chunks of vec consecutive ones
 * (vec = min(4, regs)): register r holds flat (row-major) element
 *     ((r / vec) * T + t) * vec + r % vec
 * so a warp's threads read consecutive chunks (coalesced, vectorisable).
 * When n < T the tile is replicated: thread t holds element t % n in its
 * one register, and only threads t < n own theirs (they alone store,
 * update atomically or print it).  The layout depends on n alone, so
 * slots of equal size line up and elementwise code moves nothing. */
#ifndef TRITSIM_CGEN_IMPL_H
#define TRITSIM_CGEN_IMPL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

#include "cgen.h"
#include "cgen_expr.h"
#include "ir.h"
#include "strbuf.h"

typedef enum cgen_lkind {
    CGEN_FLAT,              /* the layout above */
    CGEN_MMA,               /* a DOT's accumulator on tensor cores: the
                               fragments of mma.m16n8k16 (cgen_dot.c) */
    CGEN_MFMA,              /* a DOT's accumulator on AMD's matrix
                               instructions: the fragments of
                               v_mfma_f32_<nk>x<nk>x* (cgen_mfma.c) */
} cgen_lkind;

typedef struct cgen_layout {
    cgen_lkind kind;
    int64_t n;              /* elements */
    int regs;               /* registers per thread */
    int vec;                /* FLAT: consecutive elements per chunk */
    bool repl;              /* FLAT: n < threads: replicated */
    /* MMA: a [M, N] tile; warps in a wm x wn grid, each holding a
     * (M / wm) x (N / wn) block as mt x nt fragments of 16 x 8 */
    int M, N, wm, wn, mt, nt;
    int nk;                 /* MFMA: fragments of nk x nk (16 or 32) */
} cgen_layout;

typedef struct cg {
    const ir_kernel *k;
    const cgen_options *o;
    strbuf *out;
    cgen_info *info;
    cgen_fault *f;
    int T;                  /* threads per block */
    int vec;                /* elements a thread holds together in a FLAT
                               layout (cg_pick_vec) */
    int32_t *writes;        /* per slot: instructions writing it */
    int32_t *last_write;    /* per slot: the last instruction writing it,
                               else -1 */
    int32_t *def;           /* per slot: the instruction writing it when only
                               one does, else -1 */
    uint8_t *pure;          /* per slot: an index expression (cg_pure_expr) */
    uint8_t *label;         /* per pc: a jump lands here */
    uint8_t *land_stored;   /* per pc: a jump to here may come from after a
                               STORE or ATOMIC */
    cgen_layout *lay;       /* per slot: its layout */
    int32_t *abase;         /* per slot: for a pointer tile held as a base
                               plus an offset (cg_find_affine), the index
                               expression slot of the base; else -1 */
    struct axis_info *axis; /* per slot: its last axis's runs and
                               divisibility (axis.h) */
    uint8_t *alias;         /* per slot: read from its converted copy
                               tk_cv<slot> during this instruction */
    size_t smem;            /* dynamic shared memory needed, bytes */
    bool stored;            /* a STORE or ATOMIC since the last barrier */
    bool pending;           /* a check can have failed since the last stop
                               (cg_check_stop) */
    uint8_t *counted;       /* per pc: a jump back of a counted loop, which
                               does not stop the block (cg_find_counted) */
    uint8_t *pend_at;       /* per pc: a forward jump to here can come with
                               a failure pending */
    bool open_conv;         /* cg_convert_begin opened a block */
    int32_t *fuse_into;     /* per pc: a LOAD that feeds a DOT directly: the
                               DOT's pc, else -1 (cg_find_fused_loads) */
    int8_t *fuse_which;     /* per pc: that LOAD is the DOT's a (0) or b (1) */
    uint8_t *fused;         /* per pc: a DOT's operands loaded in place (bit
                               0: a, bit 1: b) */
    int32_t *fuse_first;    /* per pc: a DOT's first such LOAD, else -1 */
    int32_t *inplace;       /* per pc: a DOT that accumulates in its c's
                               registers (acc = dot(a, b, acc), whose result
                               only goes back into acc), c's slot; else -1 */
    uint8_t *skip;          /* per pc: nothing to emit (that COPY back) */
    uint8_t *staged;        /* per pc: a DOT whose operands are already in
                               shared memory (cgen_dot_stage_operands) */
    int32_t *pipe_head;     /* per pc: a DOT whose loop is pipelined
                               (cgen_pipe.c): the loop's head, else -1 */
    int32_t *pf_dot;        /* per pc: an operand LOAD of such a DOT, loaded
                               in place only in the loop's first round: the
                               DOT's pc, else -1 */
    uint8_t *moved;         /* per pc: emitted early, with such a DOT */
    uint8_t *pipe_async;    /* per pc: such a DOT on tensor cores whose
                               operands go into a ring of buffers through
                               cp.async (no registers), tk_nb<pc> the buffer
                               loaded next, tk_cur<pc> the one computed */
    int32_t *hoist_head;    /* per pc: a LOAD in a loop whose pointer tile
                               is a loop-invariant base plus a uniform step
                               (cg_find_affine): the loop head before which
                               its chunks' base addresses and whether each
                               chunk is consecutive are computed once
                               (tk_cb<pc>, tk_cc<pc>), else -1 */
    uint8_t *packed;        /* per slot: an fp16 or bf16 tile that one LOAD
                               writes and only elementwise code and STOREs
                               read (cg_find_packed): held as the bits in
                               memory, two elements to a 32-bit register
                               (element r in half r & 1 of s<slot>[r >> 1]),
                               widened where it is read */
    bool int_ptrs;          /* the kernel makes pointers from integers
                               (cgen_abi.h: they carry a tk_amap number) */
    int32_t hoisted;        /* the LOAD or STORE whose bounds check was
                               hoisted (cg_check_hoist): its lanes test
                               tk_ok<pc> instead, else -1 */
    uint8_t *tracked;       /* per slot: affine.h's AFFINE_TRACKED */
    int32_t *check_at;      /* per pc: a LOAD or STORE checked at once, where
                               its test goes (cg_find_checks), else -1 */
    uint8_t *whole;         /* per pc: such an access whose test is made for
                               all the rounds of its loop at once, at the
                               kernel's entry (cg_emit_entry_checks) */
    int32_t entry_end;      /* the first pc after the kernel's entry (its
                               first label or jump) */
    uint8_t *entry_made;    /* per slot: written only before entry_end (or
                               never), so it holds one value from there on
                               (cg_find_checks) */
    strbuf fns;             /* device functions the kernel calls
                               (cg_check_functions) */
    size_t sig_at;          /* where the kernel's signature starts in out */
    int32_t work;           /* the slot whose layout this instruction's
                               lanes follow (cg_convert_begin) */
    bool failed;
} cg;

/* ---- cgen.c: context and text ---- */
void cg_printf(cg *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Fail the emission at instruction pc (-1: none); returns false. */
bool cg_fail(cg *g, int32_t pc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
const ir_type *cg_type(const cg *g, int32_t slot);
dtype cg_dt(const cg *g, int32_t slot);
bool cg_scalar(const cg *g, int32_t slot);
/* The prefix of the kernel's goto labels (cgen_options.labels, "L"). */
const char *cg_labels(const cg *g);
/* May slot's lanes be pointers made from integers, which carry a tk_amap
 * number (cgen_abi.h) and are translated at each access? */
bool cg_tagged(const cg *g, int32_t slot);
/* Bytes of a dtype's register form (shared memory holds that form). */
size_t cg_reg_size(dtype dt);
/* Shared memory: ask for bytes; a barrier that the block passes together. */
void cg_need_smem(cg *g, size_t bytes);
void cg_barrier(cg *g);
/* Checks (cgen_options.checked).  A lane that fails one notes it in its
 * thread's registers and goes on with the access skipped; the failure is
 * pending until the block's next stop, where the block stops together and
 * reports the first failing instruction's lowest lane.  The stops come
 * before what a failure must not let happen: a print, a breakpoint or an
 * assertion (the text before an error is all that shows), a jump back (a
 * round of a loop) and the end; memory a failing program writes after
 * its failure is not part of the contract (doc/ir.md 3.14).
 * cg_check_pending: code that may have failed a check was emitted;
 * cg_check_stop: the stop, when a failure can be pending. */
void cg_check_pending(cg *g);
void cg_check_stop(cg *g);

/* ---- cgen_layout.c ---- */
cgen_layout cgen_layout_of(const cg *g, int64_t n);
void cg_pick_vec(cg *g);
cgen_layout cg_layout(const cg *g, int32_t slot);
/* Decide every slot's layout (after the analysis of cgen.c). */
bool cg_assign_layouts(cg *g);
bool cg_same_layout(const cgen_layout *a, const cgen_layout *b);
/* Before instruction in's code: its operands that are read element by
 * element in layout W but held in another are converted (recomputed, or
 * moved through shared memory) into tk_cv<slot> inside a block that
 * cg_convert_end closes. */
void cg_convert_begin(cg *g, const ir_inst *in);
void cg_convert_end(cg *g);
/* Open / close a loop over the thread's registers of layout L, with
 * `r` the register and `e` (int) its flat element in scope; owned_only:
 * skip replicas (code with side effects). */
void cg_loop_begin(cg *g, const cgen_layout *L, bool owned_only);
/* The flat element that register r (an int expression) of the calling
 * thread holds in layout L: an int expression appended to sb. */
void cg_elem_index(const cg *g, const cgen_layout *L, strbuf *sb, const char *r);
void cg_loop_end(cg *g);
/* An operand in an elementwise loop: the slot's variable, or its register r. */
void cg_operand(const cg *g, strbuf *sb, int32_t slot);
/* The same at register expression r and element expression e. */
void cg_operand_at(const cg *g, strbuf *sb, int32_t slot, const char *r, const char *e);
/* Pointer tiles that a loop only moves by scalars (a_ptrs += BLOCK_K):
 * held as one 64-bit offset from an index expression, not a register per
 * element.  Fills g->abase. */
void cg_find_affine(cg *g);
/* Is slot held that way, and if so, emit the write instruction `in`
 * makes to it (true: done). */
bool cg_affine_write(cg *g, const ir_inst *in);
/* Flat index of the source element that element `e` (expression idx) of
 * a tile of shape dst reads when broadcast from shape src: an expression
 * appended to sb. */
void cg_bcast_index(strbuf *sb, const ir_type *dst, const ir_type *src, const char *idx);
/* Elements between neighbours along axis d of shape t (row-major). */
int64_t cg_stride(const ir_type *t, int d);
/* PTR_ADD in's value from operand expressions a (pointer) and b (offset):
 * wrapping 64-bit, b sign- or zero-extended by its dtype (doc/ir.md 2.6). */
void cg_ptr_add(const cg *g, strbuf *sb, const ir_inst *in, const char *a, const char *b);
/* Coordinate on axis d of flat index idx in shape t. */
void cg_coord(strbuf *sb, const ir_type *t, int d, const char *idx);
/* Index expressions: can slot be recomputed at any element (cgen_pure),
 * and its value at flat index idx (false when the expression would be
 * too large: use shared memory). */
bool cg_pure_expr(const cg *g, strbuf *sb, int32_t slot, const char *idx, int depth);
/* The same over the tiles admit[] names instead of the index expressions
 * (cgen_check.c: tiles whose operands still hold what they held). */
bool cg_index_expr(const cg *g, strbuf *sb, int32_t slot, const char *idx, int depth,
                   const uint8_t *admit);
/* The constant a slot written once by a CONST holds (not floats). */
bool cg_const_value(const cg *g, int32_t s, int64_t *v);
/* Copy slot src's elements into shared memory at byte offset off, in
 * row-major order, as its register form (after a barrier). */
void cg_tile_to_smem(cg *g, int32_t src, size_t off);
/* The register-form C type of a slot's dtype. */
const char *cg_ctype(const cg *g, int32_t slot);

/* ---- cgen_move.c: data movement between threads ---- */
bool cgen_emit_move(cg *g, int32_t pc, const ir_inst *in);
/* ---- cgen_mem.c: LOAD, STORE, ATOMIC ---- */
/* Does STORE in write a tensor-core result (CGEN_MMA) by way of shared
 * memory, by 16-byte chunks in its pointer's layout? */
bool cg_store_staged(const cg *g, const ir_inst *in);
bool cgen_emit_mem(cg *g, int32_t pc, const ir_inst *in);
/* ---- cgen_dot.c ---- */
bool cgen_emit_dot(cg *g, int32_t pc, const ir_inst *in);
/* A DOT's operands into shared memory, between barriers (the DOT then
 * skips that part). */
void cgen_dot_stage_operands(cg *g, int32_t pc);
/* Where a LOAD's chunk of V elements of `loaded` from element e0 on goes,
 * as they are, in DOT in's staging area for operand `which` (tensor cores
 * keep the bits): its address into addr; false, with nothing written,
 * where the staging area keeps them otherwise. */
bool cgen_dot_chunk_place(const cg *g, const ir_inst *in, int which, dtype loaded, int V,
                          strbuf *addr);
/* The smem bytes one stage of DOT in's operands takes. */
size_t cgen_dot_stage_bytes(const cg *g, const ir_inst *in);
/* ---- cgen_wgmma.c: DOT on Hopper's wgmma ---- */
bool cgen_wgmma_fits(const cg *g, int M, int N, int K);
bool cgen_wgmma_dot(const cg *g, const ir_inst *in);
size_t cgen_wgmma_stage_bytes(const cg *g, const ir_inst *in);
size_t cgen_wgmma_offb(const cg *g, const ir_inst *in);
void cgen_wgmma_offset(const cg *g, const ir_inst *in, int which, const char *e, strbuf *sb);
void cgen_wgmma_prelude(cg *g);
void cgen_wgmma_fence(cg *g, int32_t pc);
/* The DOT from the operands at byte offset off (an expression) of tk_wsm. */
bool cgen_emit_wgmma(cg *g, int32_t pc, const ir_inst *in, int32_t home, const char *off);

/* ---- cgen_mfma.c: DOT on AMD's MFMA (cgen_mfma.h has the plan) ---- */
struct cgen_mfma_plan;
bool cgen_mfma_layout(const cg *g, const ir_inst *in, cgen_layout *L);
bool cgen_mfma_dot_plan(const cg *g, const ir_inst *in, struct cgen_mfma_plan *p);
size_t cgen_mfma_offb(const struct cgen_mfma_plan *p);
size_t cgen_mfma_stage_bytes(const struct cgen_mfma_plan *p);
void cgen_mfma_elem_index(const cg *g, const cgen_layout *L, strbuf *sb, const char *r);
/* Where element e (an expression) of operand `which` waits, in 16-bit
 * elements from the operand's start. */
void cgen_mfma_stage_offset(const struct cgen_mfma_plan *p, int which, const char *e, strbuf *sb);
bool cgen_emit_mfma(cg *g, int32_t pc, const ir_inst *in, const cgen_layout *Ld);

/* ---- cgen_pipe.c: software pipelining of a DOT's loop ---- */
void cg_find_pipelined(cg *g);
bool cg_emit_pipelined_dot(cg *g, int32_t pc);
void cg_find_counted(cg *g);
/* A counted loop (`for ctr in range(...)`): the CMP at head, the jump back
 * at jump, the counter's step (signed, a constant) at step_at, and the
 * comparison that keeps it going with the counter on the left (LT or LE
 * going up, GT or GE going down). */
typedef struct cg_count {
    int32_t head, jump, ctr, bound, step_at;
    int64_t step;
    ir_cmp cmp;
} cg_count;
bool cg_counted_loop(const cg *g, int32_t J, cg_count *c);
int cg_pipe_ring(const cg *g, int32_t pc);      /* its buffers (1: not async) */
int32_t cg_pipe_ring_at_branch(const cg *g, int32_t pc);   /* the DOT whose
                               ring's head branch pc is, else -1 */
bool cg_pipe_wgmma_defer(const cg *g, int32_t pc);    /* its wgmma left
                               running across rounds */
/* Do slots a and b (-1: none) hold at pc what they held after instruction
 * def: no jump lands between them, so pc is reached from def in a straight
 * line, and nothing there writes either? */
bool cg_held_until(const cg *g, int32_t def, int32_t pc, int32_t a, int32_t b);
/* ---- cgen_check.c: bounds checks hoisted out of an access's lanes ---- */
/* Which LOADs and STOREs (checked kernels) have a pointer tile that is
 * affine and a mask that is a box, and where the test of their whole
 * address range goes (g->check_at: at or before the access). */
void cg_find_checks(cg *g);
/* Their tk_ok<pc>, among the kernel's declarations. */
void cg_check_decls(cg *g);
/* Before the instruction at pc: the tests placed there (tk_ok<pc> and,
 * where that fails, the search for the first bad lane). */
void cg_emit_checks(cg *g, int32_t at);
/* Before the instruction at pc, if it ends the kernel's entry: the tests
 * of whole loops' rounds (tk_all, which the accesses' own tests skip to). */
void cg_emit_entry_checks(cg *g, int32_t pc);
/* Around LOAD or STORE in's code: true when its test was placed, so its
 * lanes check nothing themselves (g->hoisted, until cg_check_hoist_end). */
bool cg_check_hoist(cg *g, int32_t pc, const ir_inst *in);
void cg_check_hoist_end(cg *g);
/* The search functions the kernel calls, written before its signature. */
void cg_check_functions(cg *g);
/* Is every check of the kernel a test the entry makes (tk_all): its only
 * accesses LOADs and STOREs the entry tests, no assertion, print, atomic,
 * tl.dot or pointer made from an integer, nothing else that can fail? */
bool cg_entry_checks_all(const cg *g);
/* ---- cgen_mem.c: chunk tables computed before a loop ---- */
void cg_find_hoisted(cg *g);
void cg_emit_hoisted(cg *g, int32_t head);
/* ---- cgen_mem.c: tiles held as their memory bits ---- */
void cg_find_packed(cg *g);
/* The 16 bits of register r (an expression) of a packed slot. */
void cg_packed_bits(strbuf *sb, int32_t slot, const char *r);
/* ---- cgen.c: one instruction at its place in the walk ---- */
bool cg_emit_at(cg *g, int32_t pc);
/* LOADs whose tile only a DOT right after them reads: they write it
 * straight into the DOT's shared memory (cgen_dot_stage), so the tile
 * never takes registers.  Fills fuse_into, fuse_which, fused, fuse_first. */
void cg_find_fused_loads(cg *g);
/* The statement that puts element e (an expression) of DOT in's operand
 * `which` (0: a, 1: b), value v, where the DOT reads it. */
void cgen_dot_stage(cg *g, const ir_inst *in, int which, const char *e, const char *v);
/* ---- cgen_reduce.c: REDUCE, SCAN ---- */
bool cgen_emit_reduce(cg *g, int32_t pc, const ir_inst *in);
/* ---- cgen_print.c: PRINT, BREAKPOINT, a failed ASSERT's message ---- */
/* The kernel's print state, after the slots' declarations (sets
 * cgen_info.has_prints when it writes records). */
void cgen_print_decls(cg *g);
/* PRINT and BREAKPOINT: the record; ASSERT: the block's stop after the
 * lanes' checks, with the record of the message's values. */
bool cgen_emit_print(cg *g, int32_t pc, const ir_inst *in);
/* ---- cgen_rt.c: the runtime part of the prelude ---- */
void cgen_rt_prelude(cg *g);

#endif
