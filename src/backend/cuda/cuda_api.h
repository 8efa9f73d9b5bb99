/* cuda_api.h - the few entry points of the CUDA driver API (libcuda) and
 * of NVRTC (the runtime compiler, libnvrtc) that the CUDA backend calls,
 * declared here and loaded with dlopen/dlsym on first use, so the program
 * links no CUDA library and runs everywhere; only --backend cuda needs
 * them.  The types and constants below are the driver's documented ABI
 * (64-bit hosts), written out by hand.
 *
 * Where the libraries are looked for:
 *  - the driver: libcuda.so.1 (the NVIDIA driver installs it), or the file
 *    named by $TRITSIM_LIBCUDA (nothing else is tried then: tests use it);
 *  - NVRTC: libnvrtc.so.13, libnvrtc.so.12, libnvrtc.so on the loader's
 *    path, then each of them under $CUDA_HOME/lib64 and
 *    /usr/local/cuda/lib64; or the file named by $TRITSIM_LIBNVRTC (only
 *    that one then).
 * Where the driver has a _v2 entry point (cuMemAlloc_v2, ...) that one is
 * loaded under the plain name's member. */
#ifndef TRITSIM_CUDA_API_H
#define TRITSIM_CUDA_API_H

#include <stdbool.h>
#include <stddef.h>

#include "strbuf.h"

/* ---- the driver API's types -------------------------------------------- */
typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;

enum {
    CUDA_SUCCESS = 0,
    CUDA_ERROR_NO_DEVICE = 100,
    CUDA_ERROR_INVALID_DEVICE = 101,    /* HIP's hipInit on a machine without
                                           an AMD GPU */
};

/* CUdevice_attribute values used here */
enum {
    CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
    CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR = 39,
    CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR = 81,
    CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR = 82,
    CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR = 106,
    CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
    CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
    CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97,
};

/* CUfunction_attribute */
enum {
    CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0,
    CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1,
    CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES = 3,
    CU_FUNC_ATTRIBUTE_NUM_REGS = 4,
    CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
};
/* cuMemHostAlloc flags */
enum { CU_MEMHOSTALLOC_DEVICEMAP = 0x02 };
/* results the backend tells apart */
enum { CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES = 701 };
/* cuStreamCreate flags, cuEventCreate flags */
enum { CU_STREAM_DEFAULT = 0, CU_STREAM_NON_BLOCKING = 1 };
enum { CU_EVENT_DEFAULT = 0 };

/* ---- NVRTC's types ------------------------------------------------------- */
typedef int nvrtcResult;
typedef struct _nvrtcProgram *nvrtcProgram;
enum { NVRTC_SUCCESS = 0 };

/* The driver's entry points (loaded from libcuda). */
typedef struct cuda_driver {
    CUresult (*cuInit)(unsigned flags);
    CUresult (*cuDriverGetVersion)(int *version);
    CUresult (*cuDeviceGetCount)(int *count);
    CUresult (*cuDeviceGet)(CUdevice *dev, int ordinal);
    CUresult (*cuDeviceGetAttribute)(int *value, int attrib, CUdevice dev);
    CUresult (*cuDeviceGetName)(char *name, int len, CUdevice dev);
    CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *ctx, CUdevice dev);
    CUresult (*cuDevicePrimaryCtxRelease)(CUdevice dev);        /* _v2 */
    CUresult (*cuCtxSetCurrent)(CUcontext ctx);
    CUresult (*cuCtxSynchronize)(void);
    CUresult (*cuModuleLoadData)(CUmodule *mod, const void *image);
    CUresult (*cuModuleGetFunction)(CUfunction *f, CUmodule mod, const char *name);
    CUresult (*cuModuleUnload)(CUmodule mod);
    CUresult (*cuFuncSetAttribute)(CUfunction f, int attrib, int value);
    CUresult (*cuFuncGetAttribute)(int *value, int attrib, CUfunction f);
    CUresult (*cuLaunchKernel)(CUfunction f, unsigned gx, unsigned gy, unsigned gz,
                               unsigned bx, unsigned by, unsigned bz, unsigned smem,
                               CUstream stream, void **params, void **extra);
    CUresult (*cuMemAlloc)(CUdeviceptr *p, size_t bytes);                    /* _v2 */
    CUresult (*cuMemFree)(CUdeviceptr p);                                    /* _v2 */
    CUresult (*cuMemcpyHtoD)(CUdeviceptr dst, const void *src, size_t bytes); /* _v2 */
    CUresult (*cuMemcpyDtoH)(void *dst, CUdeviceptr src, size_t bytes);      /* _v2 */
    CUresult (*cuMemcpyHtoDAsync)(CUdeviceptr dst, const void *src, size_t bytes,
                                  CUstream s);                               /* _v2 */
    CUresult (*cuMemsetD8)(CUdeviceptr dst, unsigned char v, size_t n);      /* _v2 */
    CUresult (*cuMemsetD32Async)(CUdeviceptr dst, unsigned v, size_t n, CUstream s);
    /* pinned host memory the device reaches (CU_MEMHOSTALLOC_DEVICEMAP) */
    CUresult (*cuMemHostAlloc)(void **p, size_t bytes, unsigned flags);
    CUresult (*cuMemHostGetDevicePointer)(CUdeviceptr *d, void *p, unsigned flags); /* _v2 */
    CUresult (*cuMemFreeHost)(void *p);
    CUresult (*cuStreamCreate)(CUstream *s, unsigned flags);
    CUresult (*cuStreamSynchronize)(CUstream s);
    CUresult (*cuStreamDestroy)(CUstream s);                                 /* _v2 */
    CUresult (*cuEventCreate)(CUevent *e, unsigned flags);
    CUresult (*cuEventRecord)(CUevent e, CUstream s);
    CUresult (*cuEventSynchronize)(CUevent e);
    CUresult (*cuEventElapsedTime)(float *ms, CUevent start, CUevent end);   /* _v2 if any */
    CUresult (*cuEventDestroy)(CUevent e);                                   /* _v2 */
    CUresult (*cuGetErrorName)(CUresult r, const char **s);
    CUresult (*cuGetErrorString)(CUresult r, const char **s);
} cuda_driver;

/* NVRTC's entry points (loaded from libnvrtc). */
typedef struct cuda_nvrtc {
    nvrtcResult (*nvrtcVersion)(int *major, int *minor);
    nvrtcResult (*nvrtcCreateProgram)(nvrtcProgram *p, const char *src, const char *name,
                                      int nheaders, const char *const *headers,
                                      const char *const *include_names);
    nvrtcResult (*nvrtcCompileProgram)(nvrtcProgram p, int nopts, const char *const *opts);
    nvrtcResult (*nvrtcGetProgramLogSize)(nvrtcProgram p, size_t *size);
    nvrtcResult (*nvrtcGetProgramLog)(nvrtcProgram p, char *log);
    nvrtcResult (*nvrtcGetCUBINSize)(nvrtcProgram p, size_t *size);
    nvrtcResult (*nvrtcGetCUBIN)(nvrtcProgram p, char *cubin);
    nvrtcResult (*nvrtcDestroyProgram)(nvrtcProgram *p);
    const char *(*nvrtcGetErrorString)(nvrtcResult r);
    int major, minor;           /* nvrtcVersion's answer, read at load */
    char path[256];             /* the file it was loaded from */
} cuda_nvrtc;

/* The driver's entry points, loaded the first time (later calls give the
 * same answer).  NULL when libcuda cannot be loaded or lacks one of them:
 * then why gets a sentence for a person saying what is missing and what
 * to install or do. */
const cuda_driver *cuda_driver_load(strbuf *why);

/* NVRTC's, likewise. */
const cuda_nvrtc *cuda_nvrtc_load(strbuf *why);

/* "CUDA_ERROR_OUT_OF_MEMORY (out of memory)", for messages: the driver's
 * name and description of r, or its number when the driver has none. */
void cuda_result_text(const cuda_driver *cu, CUresult r, strbuf *out);

/* One entry point of a library: the member of a table of function
 * pointers it fills and the names to try, in order (the HIP backend's
 * loader, hip_api.c, binds its tables the same way). */
typedef struct cuda_sym {
    size_t offset;
    const char *names[3];
} cuda_sym;

/* Fill table from handle (a dlopen handle): each symbol's address into its
 * member; false with the first missing name in why ("LIB has no NAME"). */
bool cuda_api_bind(void *handle, const cuda_sym *syms, size_t n, void *table, const char *lib,
                   strbuf *why);

/* Forget what was loaded (the next load tries again, e.g. after the
 * environment variables above changed).  Tests only: entry points handed
 * out before must not be used afterwards. */
void cuda_api_reset(void);

#endif
