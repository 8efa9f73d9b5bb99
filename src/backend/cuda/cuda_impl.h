/* cuda_impl.h - what the CUDA backend's files share (cuda_backend.c: the
 * table, device and timers; cuda_mem.c: device copies of host buffers
 * and the runtime block; cuda_launch.c: compile and launch), and what the
 * HIP backend (backend/hip) takes from them.
 *
 * Two vendors, one core.  HIP's module API is CUDA's driver API under
 * other names (hipModuleLaunchKernel is cuLaunchKernel, hipHostMalloc
 * cuMemHostAlloc, ...), so everything here is written once, against the
 * driver table of cuda_api.h, and parameterised by a cuda_vendor: the
 * CUDA backend's (cuda_backend.c) loads libcuda and compiles with NVRTC;
 * the HIP backend's (hip/hip_backend.c) fills the same table with
 * adapters over libamdhip64 (hip/hip_driver.c) and compiles with hiprtc.
 * The vendor decides the emitted dialect, the compiler, how device facts
 * beyond the table are read, and the words of messages. */
#ifndef TRITSIM_CUDA_IMPL_H
#define TRITSIM_CUDA_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "backend.h"
#include "cgen.h"
#include "cgen_abi.h"
#include "cuda_api.h"
#include "cuda_backend.h"

typedef struct cuda_kernel cuda_kernel;
typedef struct cuda_copy cuda_copy;
typedef struct cuda_timer cuda_timer;
typedef struct cuda_dev cuda_dev;

/* What differs between the vendors whose GPUs this core drives. */
typedef struct cuda_vendor {
    const char *backend;        /* "cuda", "hip": --backend's name */
    const char *name;           /* "CUDA", "HIP": in messages */
    const char *driver_name;    /* "the NVIDIA driver", "the HIP runtime" */
    const char *no_device;      /* what to say when it sees no GPU */
    cgen_dialect dialect;
    /* The libraries loaded (the driver's table, or adapters that present
     * it), the runtime started and a device present; else NULL with a
     * reason for a person in why. */
    const cuda_driver *(*load)(strbuf *why);
    /* After the common attributes are read: what else the vendor needs of
     * the device (HIP: its architecture name, its warp size); false with
     * why.  NULL: nothing. */
    bool (*describe)(cuda_dev *d, strbuf *why);
    /* src compiled for d's device into image (what cuModuleLoadData
     * takes), through the disk cache; false with the compiler's log in
     * log (when it refused the source) and a reason in why. *from_cache
     * says where it came from. */
    bool (*build)(cuda_dev *d, const char *src, strbuf *image, strbuf *log, bool *from_cache,
                  strbuf *why);
    /* The compiler in messages ("NVRTC 13.0"), appended to out. */
    void (*compiler)(const cuda_dev *d, strbuf *out);
    /* The vendor's name of a driver call ("cuMemAlloc" -> "hipMalloc"),
     * for messages; NULL: the name as it is. */
    const char *(*call_name)(const char *cu_name);
    /* Dynamic shared memory past 48 KiB needs the kernel's opt-in
     * (CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES) */
    bool smem_optin;
} cuda_vendor;

extern const cuda_vendor cuda_vendor_nvidia;

/* Launches kept in flight by the deferred mode (backend.h: defer) before
 * their checks: the ring of runtime blocks. */
enum { CUDA_RING = 64 };

/* One runtime block (cgen_abi.h: tk_rt, arg_lo[room], arg_hi[room]) in
 * pinned host memory that the device reaches (cuMemHostAlloc with
 * CU_MEMHOSTALLOC_DEVICEMAP): a launch writes its inputs with plain
 * stores and, once the launch has ended, reads the error record back the
 * same way.  Also the launch's parameters, and what checking it after
 * the fact needs (a pending launch of the deferred mode). */
typedef struct cuda_slot {
    unsigned char *host;        /* the block, as the host reaches it */
    CUdeviceptr dev;            /* the same bytes, as the kernel reaches them */
    CUdeviceptr *dptr;          /* [room]: each argument's device address */
    uint64_t *vals;             /* [room]: each parameter's bytes */
    void **params;              /* [room + 1]: cuLaunchKernel's parameter list */
    backend_arg *args;          /* [room]: the launch's arguments (a copy) */
    /* a kernel that makes pointers from integers: its table of storages
     * (cgen_abi.h: tk_amap), namap entries written here (pinned, amap_room
     * of them) and copied to amap_dev on the stream before the launch */
    tk_amap *amap;
    CUdeviceptr amap_dev;
    uint64_t namap;
    /* the launch that used it, while its check is pending */
    cuda_kernel *k;
    backend_launch L;           /* L.args is args */
} cuda_slot;

/* The backend opened for one run. */
struct cuda_dev {
    backend_dev base;
    const cuda_vendor *v;
    const cuda_driver *cu;
    CUdevice dev;
    CUcontext ctx;              /* the device's primary context */
    CUstream stream;
    int arch;                   /* compute capability * 10 */
    int driver_version;         /* 13000 = CUDA 13.0 */
    int warp_size;              /* 32; HIP: the device's (64 on CDNA) */
    char arch_name[64];         /* HIP: the device's target ("gfx90a:sramecc+:xnack-") */
    size_t max_smem;            /* dynamic shared memory a block may opt in to */
    /* a multiprocessor's room (cuda_variant_build's occupancy): registers,
     * threads, blocks, shared memory; 0 where the driver did not say */
    int sm_regs, sm_threads, sm_blocks, sm_smem;
    char name[128];
    bool checked;               /* bounds checks in emitted kernels */
    cuda_kernel *kernels;       /* live kernel objects that hold modules */
    cuda_copy *copies;          /* live device copies of host buffers */
    cuda_timer *timers;         /* live timers */
    /* the runtime blocks: slot 0 for a launch checked at once, the ring
     * for the deferred mode; one pinned allocation (ring_host, NULL until
     * the first launch) */
    cuda_slot ring[CUDA_RING];
    void *ring_host;
    size_t rt_nparams;          /* the arg arrays' room */
    /* the slots' tables of storages (cuda_mem_amap): amap_room entries
     * each, one pinned and one device allocation for the ring (NULL and 0
     * until a kernel that makes pointers from integers is launched) */
    void *amap_host;
    CUdeviceptr amap_dev;
    size_t amap_room;
    bool deferred;              /* the deferred mode is on */
    int npending;               /* ring[0 .. npending) wait for their checks */
    /* the print buffer, in device memory (only launches checked at once
     * write it: a kernel with prints never waits in the ring) */
    CUdeviceptr print_buf;
    size_t print_cap;
    /* the scratch clear_cache overwrites (0 until first asked for) */
    CUdeviceptr scratch;
};

/* A driver call's result: true on success, else false with "what: error"
 * in why (what in the vendor's words: cuda_vendor.call_name). */
bool cuda_ok(const cuda_dev *d, CUresult r, const char *what, strbuf *why);

/* ---- cuda_backend.c: what both vendors' rows use ---- */

/* The reasons two libraries failed to load (either may be empty), joined
 * for a person into why; a and b are freed. */
void cuda_why_join(strbuf *a, strbuf *b, strbuf *why);
/* "NAME MAJOR.MINOR (TARGET)": the compiler in messages (rtc may be NULL). */
void cuda_compiler_text(const cuda_nvrtc *rtc, const char *name, const char *target,
                        strbuf *out);

/* ---- cuda_backend.c: the parts of a backend table (backend.h) that both
 * vendors' tables hold ---------------------------------------------------- */

/* v's libraries loaded, its runtime started, a device present; else why. */
bool cuda_dev_available(const cuda_vendor *v, strbuf *why);
/* Device 0 of v for one run (backend.h: open). */
backend_dev *cuda_dev_open(const cuda_vendor *v, const backend_config *c, strbuf *why);
void cuda_close(backend_dev *dev);
bool cuda_sync(backend_dev *dev, diag_sink *diag);
backend_timer *cuda_timer_new(backend_dev *dev, strbuf *why);
bool cuda_timer_record(backend_dev *dev, backend_timer *t, strbuf *why);
bool cuda_timer_sync(backend_dev *dev, backend_timer *t, strbuf *why);
bool cuda_timer_elapsed(backend_dev *dev, backend_timer *start, backend_timer *end, double *ms,
                        strbuf *why);
void cuda_timer_free(backend_timer *t);

/* The members of a backend table (backend.h) that both vendors' tables
 * share: everything after name, available and open. */
#define CUDA_CORE_ENTRIES \
    .close = cuda_close, .compile = cuda_compile, .launch = cuda_launch, .sync = cuda_sync, \
    .free = cuda_kernel_free, .defer = cuda_defer, .clear_cache = cuda_mem_clear_cache, \
    .timer_new = cuda_timer_new, .timer_record = cuda_timer_record, \
    .timer_sync = cuda_timer_sync, .timer_elapsed_ms = cuda_timer_elapsed, \
    .timer_free = cuda_timer_free,

/* ---- cuda_mem.c ------------------------------------------------------------- */

/* The device address for a pointer argument (its buffer's device copy made
 * and uploaded as needed); false with why. */
bool cuda_mem_arg(cuda_dev *d, const backend_arg *a, CUdeviceptr *out, strbuf *why);

/* Mark every pointer argument's buffer, and every storage of the
 * launch's revealed table (backend_launch.revealed), as written on the
 * device. */
void cuda_mem_written(cuda_dev *d, const ir_kernel *k, const backend_launch *L);

/* Slot s's table of the storages a pointer made from an integer may reach
 * (cgen_abi.h: tk_amap), from L->revealed: each one's device copy made
 * and uploaded as needed, the entries written in s->amap (s->namap of
 * them) and copied to s->amap_dev on the stream; false with why.  The
 * tables must have room (cuda_mem_amap). */
bool cuda_mem_amap_fill(cuda_dev *d, cuda_slot *s, const backend_launch *L, strbuf *why);

/* Room for n entries in every slot's table, allocated or grown; false
 * with why.  No launch may be pending when they must grow. */
bool cuda_mem_amap(cuda_dev *d, size_t n, strbuf *why);

/* Download every dirty copy, then free every copy (close). */
void cuda_mem_close(cuda_dev *d);

/* The runtime blocks (the ring) and the print buffer, with room for
 * nparams parameters, allocated or grown; false with why.  No launch may
 * be pending when they must grow. */
bool cuda_mem_rt(cuda_dev *d, size_t nparams, strbuf *why);

/* Free the runtime blocks, the print buffer and the scratch (close). */
void cuda_mem_rt_free(cuda_dev *d);

/* clear_cache (backend.h): overwrite the scratch on the stream. */
bool cuda_mem_clear_cache(backend_dev *dev, strbuf *why);

/* ---- cuda_launch.c ---------------------------------------------------------- */

backend_kernel *cuda_compile(backend_dev *dev, const ir_kernel *ir, const src_file *file,
                             diag_sink *diag);
bool cuda_launch(backend_dev *dev, backend_kernel *k, const backend_launch *L);
/* Wait for the pending launches of the deferred mode and check each, in
 * launch order; false after reporting the first that failed (to its own
 * launch's diag), the others dropped unread.  true when none is pending. */
bool cuda_pending_check(cuda_dev *d);
/* backend.h's defer. */
bool cuda_defer(backend_dev *dev, bool on, diag_sink *diag);
void cuda_kernel_free(backend_kernel *k);
/* Unload every kernel's modules (close); the kernel objects stay valid
 * for cuda_kernel_free. */
void cuda_kernels_close(cuda_dev *d);

#endif
