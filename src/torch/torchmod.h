/* torchmod.h - the torch module of .tk programs (torch, torch.cuda,
 * torch.nn, torch.nn.functional, torch.testing, torch.version).  The
 * tensors themselves are tensor.h; the functions live in torch_*.c. */
#ifndef TRITSIM_TORCHMOD_H
#define TRITSIM_TORCHMOD_H

#include "host.h"

/* Register torch and its submodules with h (call once, after host_new and
 * after h->target is set: torch.version.hip follows --target mi300x). */
void torch_init(host *h);
/* einops: rearrange, repeat, reduce over tensors (torch_einops.c). */
void torch_einops_init(host *h);

/* torch.device('cuda', 0) / torch.device('cpu'); index -1 means none. */
val torch_device_new(bool cuda, int index);

/* The GPU that tritsim reports being (it simulates one on the CPU): an
 * H100 SXM, or an MI300X under --target mi300x (host.h).  torch.cuda's
 * get_device_properties / get_device_capability and triton's
 * driver.active read it; doc/language.md lists the values. */
typedef struct torch_gpu {
    const char *backend;        /* "cuda" or "hip" (GPUTarget.backend) */
    const char *arch;           /* GPUTarget.arch on HIP ("gfx942"); NULL on CUDA */
    int major, minor;           /* compute capability */
    int sm_count;               /* multiprocessor_count */
    int warp_size;
    int max_shared_mem;         /* bytes per block (opt-in maximum) */
    int max_num_regs;           /* 32-bit registers per block */
    int max_threads_per_sm;
    int sm_clock_khz, mem_clock_khz, mem_bus_width;
    int l2_cache_size;          /* bytes */
    int64_t total_memory;       /* bytes */
} torch_gpu;

const torch_gpu *torch_gpu_info(const host *h);

#endif
