/* hip_api.h - the few entry points of AMD's HIP runtime (libamdhip64) and
 * of hiprtc (its runtime compiler) that the HIP backend calls, declared
 * here and loaded with dlopen/dlsym on first use (as cuda_api.h does for
 * CUDA), so that the program links no ROCm library and builds without
 * ROCm; only --backend hip needs them.  The types and constants are
 * HIP's documented ABI (64-bit hosts), written out by hand from HIP 5.2's
 * headers; the attribute numbers are checked against them where Debian's
 * libamdhip64-dev is installed (tests/hip-runtime.test).
 *
 * Where the libraries are looked for:
 *  - the runtime: libamdhip64.so.6, libamdhip64.so.5, libamdhip64.so on
 *    the loader's path, then under $ROCM_PATH/lib and /opt/rocm/lib; or
 *    the file named by $TRITSIM_LIBAMDHIP (only that one then: tests use
 *    it, with the stand-in tests/unit/fakehip.c);
 *  - hiprtc: libhiprtc.so.6, libhiprtc.so.5, libhiprtc.so, likewise, and
 *    last the runtime library itself (ROCm 5 before 5.3 kept hiprtc in
 *    libamdhip64); or the file named by $TRITSIM_LIBHIPRTC.
 * hiprtc's API is NVRTC's under other names, so its entry points fill the
 * NVRTC table of cuda_api.h (cuda_nvrtc: nvrtcGetCUBIN is hiprtcGetCode),
 * and the CUDA backend's compile-and-cache code serves both
 * (cuda_cache.h). */
#ifndef TRITSIM_HIP_API_H
#define TRITSIM_HIP_API_H

#include <stdbool.h>
#include <stddef.h>

#include "cuda_api.h"
#include "strbuf.h"

typedef int hipError_t;
typedef int hipDevice_t;
typedef void *hipDeviceptr_t;
typedef struct ihipCtx_t *hipCtx_t;
typedef struct ihipModule_t *hipModule_t;
typedef struct ihipModuleSymbol_t *hipFunction_t;
typedef struct ihipStream_t *hipStream_t;
typedef struct ihipEvent_t *hipEvent_t;

enum { hipSuccess = 0 };

/* hipDeviceAttribute_t values used here (HIP 5.2's numbering) */
enum {
    HIP_ATTR_COMPUTE_CAPABILITY_MAJOR = 23,
    HIP_ATTR_COMPUTE_CAPABILITY_MINOR = 61,
    HIP_ATTR_MULTIPROCESSOR_COUNT = 63,
    HIP_ATTR_MAX_SHARED_MEMORY_PER_BLOCK = 74,
    HIP_ATTR_WARP_SIZE = 87,
};

/* The runtime's entry points (loaded from libamdhip64), with HIP's own
 * signatures; hip_driver.c presents them as cuda_api.h's driver table. */
typedef struct hip_runtime {
    hipError_t (*hipInit)(unsigned flags);
    hipError_t (*hipDriverGetVersion)(int *version);
    hipError_t (*hipRuntimeGetVersion)(int *version);
    hipError_t (*hipGetDeviceCount)(int *count);
    hipError_t (*hipDeviceGet)(hipDevice_t *dev, int ordinal);
    hipError_t (*hipDeviceGetAttribute)(int *value, int attr, int dev);
    hipError_t (*hipDeviceGetName)(char *name, int len, hipDevice_t dev);
    /* into a hipDeviceProp_t, whose layout changes between releases:
     * hip_backend.c reads only the architecture's name out of it */
    hipError_t (*hipGetDeviceProperties)(void *prop, int dev);
    hipError_t (*hipDevicePrimaryCtxRetain)(hipCtx_t *ctx, hipDevice_t dev);
    hipError_t (*hipDevicePrimaryCtxRelease)(hipDevice_t dev);
    hipError_t (*hipCtxSetCurrent)(hipCtx_t ctx);
    hipError_t (*hipDeviceSynchronize)(void);
    hipError_t (*hipModuleLoadData)(hipModule_t *mod, const void *image);
    hipError_t (*hipModuleGetFunction)(hipFunction_t *f, hipModule_t mod, const char *name);
    hipError_t (*hipModuleUnload)(hipModule_t mod);
    hipError_t (*hipFuncGetAttribute)(int *value, int attr, hipFunction_t f);
    hipError_t (*hipModuleLaunchKernel)(hipFunction_t f, unsigned gx, unsigned gy, unsigned gz,
                                        unsigned bx, unsigned by, unsigned bz, unsigned smem,
                                        hipStream_t stream, void **params, void **extra);
    hipError_t (*hipMalloc)(void **p, size_t bytes);
    hipError_t (*hipFree)(void *p);
    hipError_t (*hipMemcpyHtoD)(hipDeviceptr_t dst, void *src, size_t bytes);
    hipError_t (*hipMemcpyDtoH)(void *dst, hipDeviceptr_t src, size_t bytes);
    hipError_t (*hipMemcpyHtoDAsync)(hipDeviceptr_t dst, void *src, size_t bytes,
                                     hipStream_t s);
    hipError_t (*hipMemsetD8)(hipDeviceptr_t dst, unsigned char v, size_t n);
    hipError_t (*hipMemsetD32Async)(hipDeviceptr_t dst, int v, size_t n, hipStream_t s);
    hipError_t (*hipHostMalloc)(void **p, size_t bytes, unsigned flags);
    hipError_t (*hipHostGetDevicePointer)(void **d, void *p, unsigned flags);
    hipError_t (*hipHostFree)(void *p);
    hipError_t (*hipStreamCreateWithFlags)(hipStream_t *s, unsigned flags);
    hipError_t (*hipStreamSynchronize)(hipStream_t s);
    hipError_t (*hipStreamDestroy)(hipStream_t s);
    hipError_t (*hipEventCreateWithFlags)(hipEvent_t *e, unsigned flags);
    hipError_t (*hipEventRecord)(hipEvent_t e, hipStream_t s);
    hipError_t (*hipEventSynchronize)(hipEvent_t e);
    hipError_t (*hipEventElapsedTime)(float *ms, hipEvent_t start, hipEvent_t end);
    hipError_t (*hipEventDestroy)(hipEvent_t e);
    const char *(*hipGetErrorName)(hipError_t r);
    const char *(*hipGetErrorString)(hipError_t r);
    char path[256];             /* the file it was loaded from */
} hip_runtime;

/* The runtime's entry points, loaded the first time (later calls give the
 * same answer); NULL with a sentence for a person in why (what is missing
 * and what to install or do) when libamdhip64 cannot be loaded or lacks
 * one of them. */
const hip_runtime *hip_runtime_load(strbuf *why);

/* hiprtc's entry points in NVRTC's table (above), likewise. */
const cuda_nvrtc *hip_rtc_load(strbuf *why);

/* Forget what was loaded (tests only, as cuda_api_reset). */
void hip_api_reset(void);

#endif
