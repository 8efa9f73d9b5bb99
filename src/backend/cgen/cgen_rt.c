/* cgen_rt.c - the runtime part of every emitted kernel's prelude: the
 * runtime block of cgen_abi.h as the device sees it (checked against the
 * host's offsets at compile time), and the device functions that record
 * a failure in it. */
#include "cgen_impl.h"

#include <stddef.h>
#include <string.h>

#include "cgen_abi.h"

/* Pointers made from integers (cgen_abi.h): the table's entries, the
 * number a lane carries (0: none; the nearest multiple of 2^48, as
 * addrmap.h decodes it), the cast from an integer (a binary search for the
 * last entry whose base is at or below the address) and back. */
static void amap_prelude(cg *g)
{
    cg_printf(g, "/* ---- pointers made from integers (cgen_abi.h: tk_amap) ---- */\n");
    cg_printf(g,
        "struct tk_amap { unsigned long long host, bytes, dev; };\n"
        "static_assert(sizeof(tk_amap) == %zu, \"tk_amap\");\n", sizeof(tk_amap));
    cg_printf(g,
        "__device__ __forceinline__ unsigned int tk_tag(unsigned long long a,\n"
        "    unsigned long long n)\n"
        "{\n"
        "  const unsigned int t = (unsigned int)(((a + (1ull << %d)) >> %d) & 0xffffu);\n"
        "  return t != 0u && t <= n ? t : 0u;\n"
        "}\n", TK_AMAP_SHIFT - 1, TK_AMAP_SHIFT);
    cg_printf(g,
        "__device__ __forceinline__ unsigned long long tk_p2i(unsigned long long a,\n"
        "    unsigned long long n)\n"
        "{ return a - ((unsigned long long)tk_tag(a, n) << %d); }\n", TK_AMAP_SHIFT);
    cg_printf(g,
        "__device__ __noinline__ unsigned long long tk_i2p(unsigned long long a,\n"
        "    const tk_amap *am, unsigned long long n)\n"
        "{\n"
        "  unsigned long long lo = 0, hi = n;\n"
        "  while (lo < hi) {\n"
        "    const unsigned long long mid = lo + (hi - lo) / 2;\n"
        "    if (am[mid].host <= a) lo = mid + 1; else hi = mid;\n"
        "  }\n"
        "  if (lo == 0 || a - am[lo - 1].host > am[lo - 1].bytes) return a;\n"
        "  return a + (lo << %d);\n"
        "}\n", TK_AMAP_SHIFT);
    cg_printf(g, "/* ---- end of pointers made from integers ---- */\n");
}

void cgen_rt_prelude(cg *g)
{
    cg_printf(g,
        "struct tk_err { unsigned int kind; int pc; long long pid[3]; long long lane;\n"
        "  unsigned long long addr; int arg; int pad; long long value; };\n"
        "struct tk_rt { unsigned long long *arg_lo, *arg_hi; unsigned char *print_buf;\n"
        "  unsigned long long print_cap; unsigned long long print_used;\n"
        "  unsigned long long err_key; unsigned int err_lock; unsigned int pad; tk_err err; };\n");
    /* the host's layout (cgen_abi.h), checked where the kernel is compiled
     * (NVRTC has no offsetof; the same members in the same order with the
     * same total size leave no room for a difference) */
    cg_printf(g, "static_assert(sizeof(tk_rt) == %zu, \"tk_rt\");\n", sizeof(tk_rt));
    cg_printf(g, "static_assert(sizeof(tk_err) == %zu, \"tk_err\");\n", sizeof(tk_err));
    /* The lowest program wins, then the lowest lane: key = pid << 26 | lane
     * (lanes are below 2^26: IR_MAX_NUMEL).  A lock orders the writers of
     * the details; failures are rare, so it is never contended for long.
     * The lane that takes the lock releases it in the same round of the
     * loop: lanes of one warp may contend, and on a GPU without
     * independent thread scheduling (AMD's) a lane spinning in a loop of
     * its own would keep the holder, in the same wavefront, from ever
     * reaching the release. */
    cg_printf(g,
        "__device__ __noinline__ void tk_fault(tk_rt *rt, unsigned int kind, int pc,\n"
        "    long long lane, unsigned long long addr, int arg, long long value)\n"
        "{\n"
        "  unsigned long long pl = blockIdx.x + (unsigned long long)gridDim.x *\n"
        "      (blockIdx.y + (unsigned long long)gridDim.y * blockIdx.z);\n"
        "  unsigned long long key = (pl << 26) | (unsigned long long)lane;\n"
        "  if (key >= *(volatile unsigned long long *)&rt->err_key) return;\n"
        "  for (bool done = false; !done; ) {\n"
        "    if (atomicCAS(&rt->err_lock, 0u, 1u) != 0u) continue;\n"
        "    __threadfence();\n"
        "    if (key < *(volatile unsigned long long *)&rt->err_key) {\n"
        "      volatile tk_err *E = &rt->err;\n"
        "      E->kind = kind; E->pc = pc; E->lane = lane; E->addr = addr; E->arg = arg;\n"
        "      E->value = value; E->pid[0] = blockIdx.x; E->pid[1] = blockIdx.y;\n"
        "      E->pid[2] = blockIdx.z;\n"
        "      *(volatile unsigned long long *)&rt->err_key = key;\n"
        "    }\n"
        "    __threadfence();\n"
        "    atomicExch(&rt->err_lock, 0u);\n"
        "    done = true;\n"
        "  }\n"
        "}\n");
    /* A thread notes its first failure (TK_NOTE) in tk_fr: kind and
     * argument, lane, address, value, and the key TK_FIRST orders by (the
     * round, tk_ep, then the pc).  It reports it when the block stops
     * together (TK_REPORT): the call to tk_fault then sits where nothing
     * is live across it, instead of inside every access, where the
     * registers it clobbers would cost every kernel. */
    cg_printf(g,
        "#define TK_NOTE(k, p, l, a, g, v) do { if (!tk_bad) {"
        " tk_fr[0] = (long long)(k) << 32 | (unsigned)(g); tk_fr[1] = (l);"
        " tk_fr[2] = (long long)(a); tk_fr[3] = (v);"
        " tk_fr[4] = (long long)tk_ep << 32 | (unsigned)(p); } tk_bad = 1; } while (0)\n"
        "#define TK_REPORT() do { if (tk_bad) tk_fault(tk_rt_p, (unsigned)(tk_fr[0] >> 32),"
        " (int)(unsigned)tk_fr[4], tk_fr[1], (unsigned long long)tk_fr[2], (int)(unsigned)tk_fr[0],"
        " tk_fr[3]); } while (0)\n");
    /* Failures wait for the block's next stop (cg_check_stop), so threads
     * can have noted different instructions: the first one the program ran
     * (the lowest round, tk_ep, then the lowest pc: within a round the code
     * runs forward; control flow is the same in every thread) is the one
     * the CPU, which stops at it, reports; the others drop theirs. */
    cg_printf(g,
        "#define TK_FIRST() do { if (tk_tid == 0) tk_fmin = ~0ull; __syncthreads();"
        " if (tk_bad) atomicMin(&tk_fmin, (unsigned long long)tk_fr[4]); __syncthreads();"
        " if (tk_bad && (unsigned long long)tk_fr[4] != tk_fmin) tk_bad = 0; } while (0)\n");
    /* 16 bytes from global memory into shared memory without registers
     * (sm_80 on; only pipelined tensor-core loops call it; PTX only) */
    if (cgen_dialect_of(&g->o->target)->ptx)
        cg_printf(g,
        "__device__ __forceinline__ void tk_cp_async(void *s, unsigned long long a)\n"
        "{ asm volatile(\"cp.async.cg.shared.global [%%0], [%%1], 16;\" :: "
        "\"r\"((unsigned)__cvta_generic_to_shared(s)), \"l\"(a) : \"memory\"); }\n");
    /* A 16-bit compare-and-swap, where the dialect has none: on the
     * aligned 32-bit word that holds it (device allocations are aligned
     * and padded well past 4 bytes, so the word is the kernel's to read);
     * returns the old 16 bits, as atomicCAS does */
    if (!strcmp(cgen_dialect_of(&g->o->target)->cas16, "tk_cas16"))
        cg_printf(g,
        "__device__ __forceinline__ unsigned short tk_cas16(unsigned short *a,\n"
        "    unsigned short cmp, unsigned short val)\n"
        "{\n"
        "  unsigned int *w = (unsigned int *)((unsigned long long)a & ~3ull);\n"
        "  const unsigned int sh = (unsigned int)((unsigned long long)a & 2ull) * 8u;\n"
        "  unsigned int old = *(volatile unsigned int *)w, as;\n"
        "  do {\n"
        "    as = old;\n"
        "    if ((unsigned short)(as >> sh) != cmp) return (unsigned short)(as >> sh);\n"
        "    old = atomicCAS(w, as, (as & ~(0xffffu << sh)) | ((unsigned int)val << sh));\n"
        "  } while (old != as);\n"
        "  return cmp;\n"
        "}\n");
    /* Does [a, a + sz) lie in [lo, hi), at a multiple of sz from lo? */
    cg_printf(g,
        "__device__ __forceinline__ bool tk_in(unsigned long long a, unsigned long long lo,\n"
        "    unsigned long long hi, unsigned int sz)\n"
        "{ return a >= lo && a < hi && hi - a >= sz && ((a - lo) & (sz - 1)) == 0; }\n");
    if (g->int_ptrs)
        amap_prelude(g);
    /* fp32 -> tf32, to nearest even; infinities and NaN unchanged (the
     * CPU's round_tf32) */
    cg_printf(g,
        "__device__ __forceinline__ float tk_tf32(float x)\n"
        "{\n"
        "  unsigned int u = __float_as_uint(x);\n"
        "  if ((u & 0x7f800000u) == 0x7f800000u) return x;\n"
        "  u += 0xfffu + ((u >> 13) & 1u);\n"
        "  return __uint_as_float(u & 0xffffe000u);\n"
        "}\n");
}
