/* hip_driver.c - HIP's runtime presented as the CUDA driver table
 * (cuda_api.h: cuda_driver), so that the driver-API core the CUDA backend
 * is written on (cuda_impl.h) drives AMD GPUs too.  HIP's module API is
 * the driver API under other names; each adapter below calls its HIP
 * twin, converting only what differs: device addresses (CUdeviceptr, an
 * integer; hipDeviceptr_t, a pointer), device attribute numbers, the
 * error names (returned, not written through a pointer), and the two
 * calls HIP has no twin for (below).  Flags and result codes need no
 * conversion: HIP took CUDA's values for those used here
 * (hipHostMallocMapped == CU_MEMHOSTALLOC_DEVICEMAP, hipErrorNoDevice ==
 * CUDA_ERROR_NO_DEVICE, hipErrorLaunchOutOfResources ==
 * CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, the function attributes' numbers). */
#include "hip_impl.h"

#include <stdint.h>
#include <string.h>

static const hip_runtime *hip_rt;

static void *hip_ptr(CUdeviceptr p) { return (void *)(uintptr_t)p; }

static CUresult hip_cuInit(unsigned flags) { return hip_rt->hipInit(flags); }
static CUresult hip_cuDriverGetVersion(int *v) { return hip_rt->hipDriverGetVersion(v); }
static CUresult hip_cuDeviceGetCount(int *n) { return hip_rt->hipGetDeviceCount(n); }
static CUresult hip_cuDeviceGet(CUdevice *d, int i) { return hip_rt->hipDeviceGet(d, i); }

/* CUDA's attribute numbers (the ones cuda_backend.c asks for) to HIP's */
static CUresult hip_cuDeviceGetAttribute(int *value, int attrib, CUdevice dev)
{
    static const int map[][2] = {
        {CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, HIP_ATTR_MULTIPROCESSOR_COUNT},
        {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, HIP_ATTR_COMPUTE_CAPABILITY_MAJOR},
        {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, HIP_ATTR_COMPUTE_CAPABILITY_MINOR},
        /* AMD has no opt-in: a block may use what it has (64 KiB of LDS) */
        {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
         HIP_ATTR_MAX_SHARED_MEMORY_PER_BLOCK},
    };
    for (size_t i = 0; i < sizeof map / sizeof *map; i++)
        if (map[i][0] == attrib)
            return hip_rt->hipDeviceGetAttribute(value, map[i][1], dev);
    return HIP_ERROR_INVALID_VALUE;
}

static CUresult hip_cuDeviceGetName(char *name, int len, CUdevice dev)
{
    return hip_rt->hipDeviceGetName(name, len, dev);
}

static CUresult hip_cuDevicePrimaryCtxRetain(CUcontext *ctx, CUdevice dev)
{
    hipCtx_t c = NULL;
    hipError_t r = hip_rt->hipDevicePrimaryCtxRetain(&c, dev);
    *ctx = (CUcontext)(void *)c;
    return r;
}

static CUresult hip_cuDevicePrimaryCtxRelease(CUdevice dev)
{
    return hip_rt->hipDevicePrimaryCtxRelease(dev);
}

static CUresult hip_cuCtxSetCurrent(CUcontext ctx)
{
    return hip_rt->hipCtxSetCurrent((hipCtx_t)(void *)ctx);
}

static CUresult hip_cuCtxSynchronize(void) { return hip_rt->hipDeviceSynchronize(); }

static CUresult hip_cuModuleLoadData(CUmodule *mod, const void *image)
{
    hipModule_t m = NULL;
    hipError_t r = hip_rt->hipModuleLoadData(&m, image);
    *mod = (CUmodule)(void *)m;
    return r;
}

static CUresult hip_cuModuleGetFunction(CUfunction *f, CUmodule mod, const char *name)
{
    hipFunction_t fn = NULL;
    hipError_t r = hip_rt->hipModuleGetFunction(&fn, (hipModule_t)(void *)mod, name);
    *f = (CUfunction)(void *)fn;
    return r;
}

static CUresult hip_cuModuleUnload(CUmodule mod)
{
    return hip_rt->hipModuleUnload((hipModule_t)(void *)mod);
}

/* No twin: HIP kernels need no opt-in to their dynamic shared memory
 * (cuda_vendor.smem_optin is false for HIP, so the core never asks). */
static CUresult hip_cuFuncSetAttribute(CUfunction f, int attrib, int value)
{
    (void)f;
    (void)attrib;
    (void)value;
    return CUDA_SUCCESS;
}

static CUresult hip_cuFuncGetAttribute(int *value, int attrib, CUfunction f)
{
    return hip_rt->hipFuncGetAttribute(value, attrib, (hipFunction_t)(void *)f);
}

static CUresult hip_cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz,
                                   unsigned bx, unsigned by, unsigned bz, unsigned smem,
                                   CUstream stream, void **params, void **extra)
{
    return hip_rt->hipModuleLaunchKernel((hipFunction_t)(void *)f, gx, gy, gz, bx, by, bz, smem,
                                         (hipStream_t)(void *)stream, params, extra);
}

static CUresult hip_cuMemAlloc(CUdeviceptr *p, size_t bytes)
{
    void *d = NULL;
    hipError_t r = hip_rt->hipMalloc(&d, bytes);
    *p = (CUdeviceptr)(uintptr_t)d;
    return r;
}

static CUresult hip_cuMemFree(CUdeviceptr p) { return hip_rt->hipFree(hip_ptr(p)); }

static CUresult hip_cuMemcpyHtoD(CUdeviceptr dst, const void *src, size_t bytes)
{
    /* HIP's prototype takes a non-const source it never writes */
    void *s;
    memcpy(&s, &src, sizeof s);
    return hip_rt->hipMemcpyHtoD(hip_ptr(dst), s, bytes);
}

static CUresult hip_cuMemcpyDtoH(void *dst, CUdeviceptr src, size_t bytes)
{
    return hip_rt->hipMemcpyDtoH(dst, hip_ptr(src), bytes);
}

static CUresult hip_cuMemcpyHtoDAsync(CUdeviceptr dst, const void *src, size_t bytes,
                                      CUstream s)
{
    void *p;
    memcpy(&p, &src, sizeof p);
    return hip_rt->hipMemcpyHtoDAsync(hip_ptr(dst), p, bytes, (hipStream_t)(void *)s);
}

static CUresult hip_cuMemsetD8(CUdeviceptr dst, unsigned char v, size_t n)
{
    return hip_rt->hipMemsetD8(hip_ptr(dst), v, n);
}

static CUresult hip_cuMemsetD32Async(CUdeviceptr dst, unsigned v, size_t n, CUstream s)
{
    return hip_rt->hipMemsetD32Async(hip_ptr(dst), (int)v, n, (hipStream_t)(void *)s);
}

static CUresult hip_cuMemHostAlloc(void **p, size_t bytes, unsigned flags)
{
    return hip_rt->hipHostMalloc(p, bytes, flags);
}

static CUresult hip_cuMemHostGetDevicePointer(CUdeviceptr *d, void *p, unsigned flags)
{
    void *dp = NULL;
    hipError_t r = hip_rt->hipHostGetDevicePointer(&dp, p, flags);
    *d = (CUdeviceptr)(uintptr_t)dp;
    return r;
}

static CUresult hip_cuMemFreeHost(void *p) { return hip_rt->hipHostFree(p); }

static CUresult hip_cuStreamCreate(CUstream *s, unsigned flags)
{
    hipStream_t h = NULL;
    hipError_t r = hip_rt->hipStreamCreateWithFlags(&h, flags);
    *s = (CUstream)(void *)h;
    return r;
}

static CUresult hip_cuStreamSynchronize(CUstream s)
{
    return hip_rt->hipStreamSynchronize((hipStream_t)(void *)s);
}

static CUresult hip_cuStreamDestroy(CUstream s)
{
    return hip_rt->hipStreamDestroy((hipStream_t)(void *)s);
}

static CUresult hip_cuEventCreate(CUevent *e, unsigned flags)
{
    hipEvent_t h = NULL;
    hipError_t r = hip_rt->hipEventCreateWithFlags(&h, flags);
    *e = (CUevent)(void *)h;
    return r;
}

static CUresult hip_cuEventRecord(CUevent e, CUstream s)
{
    return hip_rt->hipEventRecord((hipEvent_t)(void *)e, (hipStream_t)(void *)s);
}

static CUresult hip_cuEventSynchronize(CUevent e)
{
    return hip_rt->hipEventSynchronize((hipEvent_t)(void *)e);
}

static CUresult hip_cuEventElapsedTime(float *ms, CUevent start, CUevent end)
{
    return hip_rt->hipEventElapsedTime(ms, (hipEvent_t)(void *)start, (hipEvent_t)(void *)end);
}

static CUresult hip_cuEventDestroy(CUevent e)
{
    return hip_rt->hipEventDestroy((hipEvent_t)(void *)e);
}

static CUresult hip_cuGetErrorName(CUresult r, const char **s)
{
    *s = hip_rt->hipGetErrorName(r);
    return *s ? CUDA_SUCCESS : HIP_ERROR_INVALID_VALUE;
}

static CUresult hip_cuGetErrorString(CUresult r, const char **s)
{
    *s = hip_rt->hipGetErrorString(r);
    return *s ? CUDA_SUCCESS : HIP_ERROR_INVALID_VALUE;
}

static const cuda_driver hip_driver_table = {
    .cuInit = hip_cuInit,
    .cuDriverGetVersion = hip_cuDriverGetVersion,
    .cuDeviceGetCount = hip_cuDeviceGetCount,
    .cuDeviceGet = hip_cuDeviceGet,
    .cuDeviceGetAttribute = hip_cuDeviceGetAttribute,
    .cuDeviceGetName = hip_cuDeviceGetName,
    .cuDevicePrimaryCtxRetain = hip_cuDevicePrimaryCtxRetain,
    .cuDevicePrimaryCtxRelease = hip_cuDevicePrimaryCtxRelease,
    .cuCtxSetCurrent = hip_cuCtxSetCurrent,
    .cuCtxSynchronize = hip_cuCtxSynchronize,
    .cuModuleLoadData = hip_cuModuleLoadData,
    .cuModuleGetFunction = hip_cuModuleGetFunction,
    .cuModuleUnload = hip_cuModuleUnload,
    .cuFuncSetAttribute = hip_cuFuncSetAttribute,
    .cuFuncGetAttribute = hip_cuFuncGetAttribute,
    .cuLaunchKernel = hip_cuLaunchKernel,
    .cuMemAlloc = hip_cuMemAlloc,
    .cuMemFree = hip_cuMemFree,
    .cuMemcpyHtoD = hip_cuMemcpyHtoD,
    .cuMemcpyDtoH = hip_cuMemcpyDtoH,
    .cuMemcpyHtoDAsync = hip_cuMemcpyHtoDAsync,
    .cuMemsetD8 = hip_cuMemsetD8,
    .cuMemsetD32Async = hip_cuMemsetD32Async,
    .cuMemHostAlloc = hip_cuMemHostAlloc,
    .cuMemHostGetDevicePointer = hip_cuMemHostGetDevicePointer,
    .cuMemFreeHost = hip_cuMemFreeHost,
    .cuStreamCreate = hip_cuStreamCreate,
    .cuStreamSynchronize = hip_cuStreamSynchronize,
    .cuStreamDestroy = hip_cuStreamDestroy,
    .cuEventCreate = hip_cuEventCreate,
    .cuEventRecord = hip_cuEventRecord,
    .cuEventSynchronize = hip_cuEventSynchronize,
    .cuEventElapsedTime = hip_cuEventElapsedTime,
    .cuEventDestroy = hip_cuEventDestroy,
    .cuGetErrorName = hip_cuGetErrorName,
    .cuGetErrorString = hip_cuGetErrorString,
};

const cuda_driver *hip_driver_of(const hip_runtime *rt)
{
    hip_rt = rt;
    return &hip_driver_table;
}

const char *hip_call_name(const char *cu_name)
{
    static const char *const names[][2] = {
        {"cuInit", "hipInit"}, {"cuDriverGetVersion", "hipDriverGetVersion"},
        {"cuDeviceGet", "hipDeviceGet"}, {"cuDeviceGetAttribute", "hipDeviceGetAttribute"},
        {"cuDeviceGetName", "hipDeviceGetName"},
        {"cuDevicePrimaryCtxRetain", "hipDevicePrimaryCtxRetain"},
        {"cuCtxSetCurrent", "hipCtxSetCurrent"}, {"cuModuleLoadData", "hipModuleLoadData"},
        {"cuModuleGetFunction", "hipModuleGetFunction"},
        {"cuFuncGetAttribute", "hipFuncGetAttribute"},
        {"cuLaunchKernel", "hipModuleLaunchKernel"}, {"cuMemAlloc", "hipMalloc"},
        {"cuMemcpyHtoD", "hipMemcpyHtoD"}, {"cuMemcpyDtoH", "hipMemcpyDtoH"},
        {"cuMemcpyHtoDAsync", "hipMemcpyHtoDAsync"}, {"cuMemsetD32Async", "hipMemsetD32Async"},
        {"cuMemHostAlloc", "hipHostMalloc"},
        {"cuMemHostGetDevicePointer", "hipHostGetDevicePointer"},
        {"cuStreamCreate", "hipStreamCreateWithFlags"},
        {"cuStreamSynchronize", "hipStreamSynchronize"},
        {"cuEventCreate", "hipEventCreateWithFlags"}, {"cuEventRecord", "hipEventRecord"},
        {"cuEventSynchronize", "hipEventSynchronize"},
        {"cuEventElapsedTime", "hipEventElapsedTime"},
    };
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (!strcmp(names[i][0], cu_name))
            return names[i][1];
    return cu_name;
}
