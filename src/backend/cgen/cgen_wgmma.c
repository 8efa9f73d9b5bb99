/* cgen_wgmma.c - DOT on Hopper's warpgroup tensor-core instructions
 * (wgmma.mma_async, sm_90a): fp16/bf16 operands in shared memory, read by
 * the tensor cores through descriptors, and an fp32 accumulator in
 * registers.
 *
 * Each warpgroup (4 warps) computes whole 64-row strips of the tile over
 * all its N columns, one m64nNk16 instruction per strip and 16 k.  Its
 * accumulator is the CGEN_MMA layout with the warps stacked along M
 * (wm = num_warps, wn = 1): warp w holds rows 16 w .. 16 w + 15 of each of
 * its mt fragments' rows.  Where a warp holds more than one 16-row block
 * (mt > 1), the strip an instruction computes is not rows in order: A's
 * rows wait in shared memory permuted (a_row), so that the instruction's
 * 64 rows are the ones its warps hold.
 *
 * The operands wait in the tensor cores' swizzled layouts, written in 16-byte
 * pieces that the global loads' chunks (or cp.async) fill whole:
 *   A (M x K, K contiguous, "K-major"): blocks of akb k (64, or K when it is
 *     16 or 32), each M rows of aw = 2 akb bytes; the 16-byte piece j of
 *     row r sits at piece j ^ (r % 8 >> s) of its row (the 128-, 64- or
 *     32-byte swizzle of the row width);
 *   B (K x N, N contiguous, "MN-major"): blocks of 64 n, each K rows of 128
 *     bytes, swizzled by 128 bytes.
 * That is the XOR of address bits 4-6 with bits 7-9 (128), 7-8 (64) or 7
 * (32), so every buffer starts at a multiple of 1024 bytes (tk_wsm).  The
 * layouts, descriptors and the accumulator's register order were checked
 * against a host matmul on the H100 for K 16, 32, 64 and N 64, 128. */
#include "cgen_impl.h"

#include <inttypes.h>

bool cgen_wgmma_fits(const cg *g, int M, int N, int K)
{
    int W = g->o->num_warps;
    return cgen_dialect_of(&g->o->target)->ptx && g->o->target.arch == 90 && W % 4 == 0 &&
           M % (16 * W) == 0 && N % 64 == 0 && N <= 256 &&
           (K == 16 || K == 32 || K % 64 == 0);
}

bool cgen_wgmma_dot(const cg *g, const ir_inst *in)
{
    cgen_layout L = cg_layout(g, in->dst);
    const ir_type *ta = cg_type(g, in->a);
    return L.kind == CGEN_MMA && L.wm == g->o->num_warps && L.wn == 1 && ta->ndim == 2 &&
           cgen_wgmma_fits(g, L.M, L.N, (int)ta->shape[1]);
}

typedef struct wg_shape {
    int M, N, K, mt;
    int akb, aw;            /* A: k per block, bytes per row of a block */
    int amode;              /* A's swizzle: 1 (128 bytes), 2 (64), 3 (32) */
    size_t offb, bytes;     /* B's offset, the stage's bytes */
} wg_shape;

static wg_shape shape_of(const cg *g, const ir_inst *in)
{
    cgen_layout L = cg_layout(g, in->dst);
    wg_shape s = {.M = L.M, .N = L.N, .K = (int)cg_type(g, in->a)->shape[1], .mt = L.mt};
    s.akb = s.K >= 64 ? 64 : s.K;
    s.aw = 2 * s.akb;
    s.amode = s.aw == 128 ? 1 : s.aw == 64 ? 2 : 3;
    s.offb = (size_t)s.M * (size_t)s.K * 2;
    s.bytes = s.offb + (size_t)s.K * (size_t)s.N * 2;
    return s;
}

size_t cgen_wgmma_stage_bytes(const cg *g, const ir_inst *in)
{
    return (shape_of(g, in).bytes + 1023) & ~(size_t)1023;
}

size_t cgen_wgmma_offb(const cg *g, const ir_inst *in)
{
    return shape_of(g, in).offb;
}

/* The row where A's row m waits: warp w's mt blocks of 16 rows go to the
 * mt strips of its warpgroup, at 16 (w % 4) in each. */
static void a_row(strbuf *sb, const wg_shape *s, const char *m)
{
    if (s->mt == 1) {
        strbuf_printf(sb, "(%s)", m);
        return;
    }
    int strip = s->mt * 64;
    strbuf_printf(sb, "((%s) / %d * %d + (%s) / 16 %% %d * 64 + (%s) / %d %% 4 * 16 + (%s) %% 16)",
                  m, strip, strip, m, s->mt, m, s->mt * 16, m);
}

void cgen_wgmma_offset(const cg *g, const ir_inst *in, int which, const char *e, strbuf *sb)
{
    wg_shape s = shape_of(g, in);
    strbuf row = {0}, m = {0}, off = {0};
    if (which == 0) {
        strbuf_printf(&m, "(%s) / %d", e, s.K);
        a_row(&row, &s, strbuf_cstr(&m));
        strbuf_printf(&off, "(unsigned)((%s) %% %d / %d * %d + %s * %d + (%s) %% %d * 2)", e, s.K,
                      s.akb, s.M * s.aw, strbuf_cstr(&row), s.aw, e, s.akb);
        strbuf_printf(sb, "tk_swz%d(%s)", s.amode, strbuf_cstr(&off));
    } else {
        strbuf_printf(&off, "((unsigned)((%s) %% %d / 64 * %d + (%s) / %d * 128 + (%s) %% 64 * 2))",
                      e, s.N, s.K * 128, e, s.N, e);
        strbuf_printf(sb, "(%zuu + tk_swz1%s)", s.offb, strbuf_cstr(&off));
    }
    strbuf_free(&row);
    strbuf_free(&m);
    strbuf_free(&off);
}

void cgen_wgmma_prelude(cg *g)
{
    /* the XOR of address bits 4-6 with 7-9, 7-8 or 7 */
    cg_printf(g,
        "__device__ __forceinline__ unsigned tk_swz1(unsigned o) { return o ^ (((o >> 7) & 7u) << 4); }\n"
        "__device__ __forceinline__ unsigned tk_swz2(unsigned o) { return o ^ (((o >> 7) & 3u) << 4); }\n"
        "__device__ __forceinline__ unsigned tk_swz3(unsigned o) { return o ^ (((o >> 7) & 1u) << 4); }\n");
    /* a shared-memory matrix descriptor from its two words: the low one
     * the start address and the leading byte offset (16-byte units, bits
     * 0-13 and 16-29), the high one the stride byte offset (bits 0-13)
     * and the swizzle (bits 30-31) */
    cg_printf(g,
        "__device__ __forceinline__ unsigned long long tk_wgdesc(unsigned lo, unsigned hi)\n"
        "{ return ((unsigned long long)hi << 32) | lo; }\n");
}

/* A descriptor's words (tk_wgdesc) but for its start address: the low
 * word's leading byte offset, the high word. */
static unsigned desc_lo(unsigned lbo)
{
    return ((lbo >> 4) & 0x3fffu) << 16;
}

static unsigned desc_hi(unsigned sbo, unsigned mode)
{
    return ((sbo >> 4) & 0x3fffu) | (mode << 30);
}

void cgen_wgmma_fence(cg *g, int32_t pc)
{
    if (cgen_wgmma_dot(g, &g->k->code[pc]))
        cg_printf(g, "asm volatile(\"fence.proxy.async.shared::cta;\" ::: \"memory\");\n");
}

/* The accumulator's fragments: home[first .. first + N / 2). */
static void mma_operands(cg *g, int32_t home, int first, int n)
{
    for (int i = 0; i < n; i++)
        cg_printf(g, "%s\"+f\"(s%d[%d])", i ? (i % 8 ? ", " : ",\n        ") : "      : ",
                  home, first + i);
    cg_printf(g, "\n");
}

bool cgen_emit_wgmma(cg *g, int32_t pc, const ir_inst *in, int32_t home, const char *off)
{
    wg_shape s = shape_of(g, in);
    const char *ty = cg_dt(g, in->a) == DTYPE_BF16 ? "bf16" : "f16";
    int n = s.N / 2;        /* registers per instruction */
    /* The low words of the round's descriptors at k 0 (their high words
     * are constants); those of the other k add the operand's offset (a
     * multiple of 16 bytes) to the start address field (bits 0-13, the
     * address / 16): shared memory ends below 256 KB, so no sum carries
     * out of it, and a round's descriptors cost a few 32-bit adds. */
    cg_printf(g, "const unsigned tk_sa = tk_wsa + (unsigned)(%s);\n", off);
    cg_printf(g, "const unsigned tk_lb = ((tk_sa + %zuu) >> 4) | 0x%xu;\n", s.offb,
              desc_lo((unsigned)s.K * 128));
    cg_printf(g, "const unsigned tk_la = ((tk_sa + (unsigned)((tk_tid >> 7) * %d)) >> 4) | 0x%xu;\n",
              s.mt * 64 * s.aw, desc_lo(16));
    cg_printf(g, "asm volatile(\"wgmma.fence.sync.aligned;\" ::: \"memory\");\n");
    cg_printf(g, "#pragma unroll\nfor (int k0 = 0; k0 < %d; k0 += 16) {\n", s.K);
    cg_printf(g, "  const unsigned long long tk_db = tk_wgdesc(tk_lb + (unsigned)(k0 * 8), 0x%xu);\n",
              desc_hi(1024, 1));
    for (int i = 0; i < s.mt; i++) {
        cg_printf(g, "  { const unsigned long long tk_da = tk_wgdesc(tk_la + (unsigned)"
                  "((k0 / %d * %d + %d + k0 %% %d * 2) >> 4), 0x%xu);\n",
                  s.akb, s.M * s.aw, i * 64 * s.aw, s.akb,
                  desc_hi(8u * (unsigned)s.aw, (unsigned)s.amode));
        cg_printf(g, "    asm volatile(\"{\\n.reg .pred p;\\nsetp.ne.b32 p, %%%d, 0;\\n\"\n", n + 2);
        cg_printf(g, "      \"wgmma.mma_async.sync.aligned.m64n%dk16.f32.%s.%s {", s.N, ty, ty);
        for (int r = 0; r < n; r++)
            cg_printf(g, "%s%%%d", r ? "," : "", r);
        cg_printf(g, "}, %%%d, %%%d, p, 1, 1, 0, 1;\\n}\\n\"\n", n, n + 1);
        mma_operands(g, home, i * n, n);
        cg_printf(g, "      : \"l\"(tk_da), \"l\"(tk_db), \"r\"(1)); }\n");
    }
    cg_printf(g, "}\n");
    cg_printf(g, "asm volatile(\"wgmma.commit_group.sync.aligned;\" ::: \"memory\");\n");
    /* (in a loop that lets it run on, cgen_pipe.c waits for the round
     * before, after the next round's loads are issued) */
    if (!cg_pipe_wgmma_defer(g, pc))
        cg_printf(g, "asm volatile(\"wgmma.wait_group.sync.aligned 0;\" ::: \"memory\");\n");
    return true;
}
