/* cgen.h - the C-dialect emitter: a kernel's typed IR (ir.h, doc/ir.md)
 * -> the source of one GPU kernel in CUDA C++ (HIP's dialect is the same
 * language with other intrinsics; the backend says which through
 * cgen_target).  Shared by the CUDA and HIP backends; it knows nothing of
 * drivers or compilers.
 *
 * The model (doc/architecture.md, "Code generation"):
 *  - A program is one thread block of num_warps warps (threads =
 *    num_warps * warp_size).  The grid is the launch's grid.
 *  - Every slot becomes per-thread registers: a scalar slot one variable
 *    held by every thread (scalars are uniform across the block), a tile
 *    slot an array of the elements the thread owns under the tile's
 *    layout (cgen_layout.c).  A layout depends only on the tile's number
 *    of elements, so elementwise instructions, RESHAPE and COPY move no
 *    data between threads.
 *  - Instructions whose result elements come from other threads' elements
 *    (BROADCAST, TRANS, DOT, REDUCE, SCAN, ...) go through shared memory
 *    between barriers, or recompute the source when it is an index
 *    expression (aranges, constants and scalars combined elementwise).
 *  - Control flow stays as the IR has it: labels and gotos on uniform
 *    scalar conditions, so barriers are always reached by the whole block.
 *  - Registers hold values as the CPU executor's slots do (exec.h): fp8,
 *    fp16 and bf16 as a float holding the exact value, rounded after each
 *    operation; int1 as bool; pointers as 64-bit byte addresses.
 *  - Pointers made from integers keep the host's addresses, tagged with
 *    the storage they lie in, and are translated at each access through
 *    a table the launch passes (cgen_abi.h).
 *  - Checks (cgen_options.checked): every active lane of a LOAD, STORE or
 *    ATOMIC is checked against the arguments it may point into (or the
 *    storage its pointer was made from an integer in); the first
 *    failure is recorded in the runtime block (cgen_abi.h) and the program
 *    stops at once, the block together.
 *
 * What the kernel's parameters, runtime block and print records look like
 * is cgen_abi.h. */
#ifndef TRITSIM_CGEN_H
#define TRITSIM_CGEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dtype.h"
#include "ir.h"
#include "strbuf.h"

typedef enum cgen_dialect { CGEN_CUDA, CGEN_HIP } cgen_dialect;

typedef struct cgen_target {
    cgen_dialect dialect;
    int warp_size;          /* 32 on NVIDIA and RDNA, 64 on CDNA */
    int arch;               /* CUDA: compute capability * 10 (90 = sm_90);
                               HIP: the gfx number's digits as hexadecimal
                               (0x90a = gfx90a, 0x942; cgen_hip_arch), 0
                               unknown (no MFMA) */
} cgen_target;

/* What differs between the dialects (cgen_dialect.c, one row each); the
 * emitter asks the row, never the dialect's name. */
typedef struct cgen_dialect_row {
    const char *name;       /* "CUDA", "HIP": for messages and dumps */
    /* a butterfly shuffle of a 32- or 64-bit value across the warp, as a
     * printf format of (the value's C type, the value, the lane mask) */
    const char *shfl_xor;
    /* inline PTX: tensor cores (mma.sync, ldmatrix; wgmma on sm_90),
     * cp.async; without it tl.dot runs on FMA loops over shared memory, or
     * on AMD's MFMA where the HIP target has it (cgen_mfma.c) */
    bool ptx;
    /* __launch_bounds__(threads, blocks): the second argument is the
     * blocks per multiprocessor the registers should allow */
    bool min_blocks;
    /* __attribute__((amdgpu_waves_per_eu(N))) (cgen_options.waves_per_eu) */
    bool waves_per_eu;
    /* arithmetic in a directed rounding mode: __fadd_rz, __dmul_ru, ...
     * (libdevice's *_rz, *_rd, *_ru); without it such a kernel is refused */
    bool directed_rounding;
    /* the compare-and-swap of a 16-bit word: CUDA's atomicCAS, or the
     * prelude's tk_cas16 (cgen_rt.c) over the 32-bit word around it */
    const char *cas16;
} cgen_dialect_row;

const cgen_dialect_row *cgen_dialect_of(const cgen_target *t);

typedef struct cgen_options {
    cgen_target target;
    int num_warps;          /* warps per program (Triton's num_warps) */
    int num_stages;         /* Triton's num_stages: a hint */
    bool checked;           /* bounds checks (off: --unchecked) */
    size_t max_smem;        /* shared memory a block may have, bytes */
    /* AMD's waves_per_eu launch option (Triton's AMD backend): the
     * wavefronts per execution unit the compiler should leave registers
     * for; 0 none.  Dialects without it (cgen_dialect_row) ignore it. */
    int waves_per_eu;
    /* AMD's matrix_instr_nonkdim: the MFMA instructions' M and N (16 or
     * 32) for tl.dot (cgen_mfma.c); 0 the emitter's choice */
    int matrix_instr_nonkdim;
    /* CUDA: the blocks a multiprocessor should hold at once, asked of the
     * compiler (__launch_bounds__' second argument); 0: the emitter's own
     * choice.  The backend sets it when it rebuilds a kernel whose
     * registers left a block's room unused (cuda_variant_build). */
    int min_blocks;
    /* The prefix of the kernel's goto labels (NULL: "L"), so that a copy of
     * a kernel's body can sit beside it (cgen.c, emit_unchecked_copy). */
    const char *labels;
} cgen_options;

/* What the backend needs to launch the emitted kernel. */
typedef struct cgen_info {
    int threads;            /* per block */
    size_t smem_bytes;      /* dynamic shared memory per block */
    bool has_prints;        /* it writes print records */
    bool uses_atomics;
    bool int_ptrs;          /* it makes pointers from integers: it takes the
                               table of cgen_abi.h's tk_amap */
} cgen_info;

/* Why emission failed: the instruction (pc >= 0, else -1) and a reason
 * for a person ("REDUCE with a combine function over 3 axes is not
 * supported by the GPU backends yet").  resources: the kernel needs more
 * shared memory than the target has (options.max_smem): Triton's
 * OutOfResources, which an autotuner skips; smaller blocks would do. */
typedef struct cgen_fault {
    int32_t pc;
    bool resources;
    char why[256];
} cgen_fault;

/* Emit the kernel's source into src (appended).  false when some
 * instruction cannot be emitted: *f says which and why, src is partial.
 * The kernel must have passed ir_verify. */
bool cgen_emit(const ir_kernel *k, const cgen_options *o, strbuf *src, cgen_info *info,
               cgen_fault *f);

/* Bytes a launch passes for a parameter of dtype dt (4 or 8), and its C
 * type in the emitted code ("int", "unsigned long long", "float", ...). */
int cgen_param_size(dtype dt);
const char *cgen_param_ctype(dtype dt);

#endif
