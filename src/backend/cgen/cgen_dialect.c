/* cgen_dialect.c - the table of what differs between the vendors'
 * dialects of the emitted C++ (cgen.h: cgen_dialect_row): CUDA for NVIDIA
 * GPUs (NVRTC), HIP for AMD GPUs (hiprtc or hipcc).  Everything else the
 * emitter writes is the same text for both: HIP has CUDA's names for the
 * thread indices, barriers, atomics (atomicAdd, atomicCAS, atomicMin on
 * 64-bit words, ...), __threadfence, __syncthreads_or, the __f*_rn
 * intrinsics and the bit casts, and the prelude's inline PTX sits behind
 * `#ifdef __CUDA_ARCH__`, with portable code in its place elsewhere.
 *
 * The rows say which paths of the emitter a dialect may take, and how it
 * spells the few things whose spelling differs.  (tl.dot on AMD's MFMA is
 * not a row: it depends on the device, cgen_mfma_target.)  The warp size is not a
 * property of the dialect but of the device (cgen_target.warp_size: 64
 * on CDNA, the GPUs of Triton's AMD backend; 32 on RDNA), read by the
 * backend from the device. */
#include "cgen.h"

static const cgen_dialect_row cgen_dialect_rows[] = {
    [CGEN_CUDA] = {
        .name = "CUDA",
        .shfl_xor = "__shfl_xor_sync(0xffffffffu, (%s)(%s), %d)",
        .ptx = true,
        .min_blocks = true,
        .waves_per_eu = false,
        .directed_rounding = true,
        .cas16 = "atomicCAS",
    },
    [CGEN_HIP] = {
        .name = "HIP",
        /* a wavefront's lanes always run together: no mask */
        .shfl_xor = "__shfl_xor((%s)(%s), %d)",
        .ptx = false,
        /* HIP's __launch_bounds__ takes a second argument, but it means
         * waves per execution unit, not blocks per multiprocessor:
         * waves_per_eu says that instead */
        .min_blocks = false,
        .waves_per_eu = true,
        /* HIP has the _rn intrinsics only (and the conversions'
         * __double2float_rz ...); exact directed arithmetic would need the
         * prelude's own code (the error of the nearest result, from an
         * FMA, deciding the neighbour) */
        .directed_rounding = false,
        /* HIP's atomicCAS takes 32- and 64-bit words only */
        .cas16 = "tk_cas16",
    },
};

const cgen_dialect_row *cgen_dialect_of(const cgen_target *t)
{
    return &cgen_dialect_rows[t->dialect == CGEN_HIP ? CGEN_HIP : CGEN_CUDA];
}
