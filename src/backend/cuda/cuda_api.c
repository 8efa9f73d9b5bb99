/* cuda_api.c - loads the CUDA driver and NVRTC with dlopen/dlsym
 * (cuda_api.h): which files are tried, which symbols each table needs
 * (the _v2 names first where the driver has them), and the messages that
 * say what is missing when they cannot be loaded. */
#define _POSIX_C_SOURCE 200809L
#include "cuda_api.h"

#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DRV(member, ...) {offsetof(cuda_driver, member), {__VA_ARGS__}}
static const cuda_sym cuda_driver_syms[] = {
    DRV(cuInit, "cuInit"),
    DRV(cuDriverGetVersion, "cuDriverGetVersion"),
    DRV(cuDeviceGetCount, "cuDeviceGetCount"),
    DRV(cuDeviceGet, "cuDeviceGet"),
    DRV(cuDeviceGetAttribute, "cuDeviceGetAttribute"),
    DRV(cuDeviceGetName, "cuDeviceGetName"),
    DRV(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain"),
    DRV(cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2", "cuDevicePrimaryCtxRelease"),
    DRV(cuCtxSetCurrent, "cuCtxSetCurrent"),
    DRV(cuCtxSynchronize, "cuCtxSynchronize"),
    DRV(cuModuleLoadData, "cuModuleLoadData"),
    DRV(cuModuleGetFunction, "cuModuleGetFunction"),
    DRV(cuModuleUnload, "cuModuleUnload"),
    DRV(cuFuncSetAttribute, "cuFuncSetAttribute"),
    DRV(cuFuncGetAttribute, "cuFuncGetAttribute"),
    DRV(cuLaunchKernel, "cuLaunchKernel"),
    DRV(cuMemAlloc, "cuMemAlloc_v2"),
    DRV(cuMemFree, "cuMemFree_v2"),
    DRV(cuMemcpyHtoD, "cuMemcpyHtoD_v2"),
    DRV(cuMemcpyDtoH, "cuMemcpyDtoH_v2"),
    DRV(cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2"),
    DRV(cuMemsetD8, "cuMemsetD8_v2"),
    DRV(cuMemsetD32Async, "cuMemsetD32Async"),
    DRV(cuMemHostAlloc, "cuMemHostAlloc"),
    DRV(cuMemHostGetDevicePointer, "cuMemHostGetDevicePointer_v2"),
    DRV(cuMemFreeHost, "cuMemFreeHost"),
    DRV(cuStreamCreate, "cuStreamCreate"),
    DRV(cuStreamSynchronize, "cuStreamSynchronize"),
    DRV(cuStreamDestroy, "cuStreamDestroy_v2", "cuStreamDestroy"),
    DRV(cuEventCreate, "cuEventCreate"),
    DRV(cuEventRecord, "cuEventRecord"),
    DRV(cuEventSynchronize, "cuEventSynchronize"),
    DRV(cuEventElapsedTime, "cuEventElapsedTime_v2", "cuEventElapsedTime"),
    DRV(cuEventDestroy, "cuEventDestroy_v2", "cuEventDestroy"),
    DRV(cuGetErrorName, "cuGetErrorName"),
    DRV(cuGetErrorString, "cuGetErrorString"),
};
#undef DRV

#define RTC(member) {offsetof(cuda_nvrtc, member), {#member}}
static const cuda_sym cuda_nvrtc_syms[] = {
    RTC(nvrtcVersion),
    RTC(nvrtcCreateProgram),
    RTC(nvrtcCompileProgram),
    RTC(nvrtcGetProgramLogSize),
    RTC(nvrtcGetProgramLog),
    RTC(nvrtcGetCUBINSize),
    RTC(nvrtcGetCUBIN),
    RTC(nvrtcDestroyProgram),
    RTC(nvrtcGetErrorString),
};
#undef RTC

/* What a load found, kept for the next call. */
typedef struct cuda_loaded {
    bool tried;
    void *handle;
    bool ok;
    char *why;              /* when not ok */
} cuda_loaded;

static cuda_loaded cuda_driver_state, cuda_nvrtc_state;
static cuda_driver cuda_driver_table;
static cuda_nvrtc cuda_nvrtc_table;

bool cuda_api_bind(void *handle, const cuda_sym *syms, size_t n, void *table, const char *lib,
                   strbuf *why)
{
    for (size_t i = 0; i < n; i++) {
        void *p = NULL;
        for (int j = 0; j < 3 && syms[i].names[j] && !p; j++)
            p = dlsym(handle, syms[i].names[j]);
        if (!p) {
            strbuf_printf(why, "%s has no %s", lib, syms[i].names[0]);
            return false;
        }
        /* a data pointer to a function pointer, as POSIX dlsym promises */
        memcpy((char *)table + syms[i].offset, &p, sizeof p);
    }
    return true;
}

static void cuda_remember(cuda_loaded *st, void *handle, bool ok, strbuf *why)
{
    st->tried = true;
    st->handle = handle;
    st->ok = ok;
    st->why = ok ? NULL : strdup(strbuf_cstr(why));
}

const cuda_driver *cuda_driver_load(strbuf *why)
{
    cuda_loaded *st = &cuda_driver_state;
    if (st->tried) {
        if (!st->ok)
            strbuf_puts(why, st->why ? st->why : "");
        return st->ok ? &cuda_driver_table : NULL;
    }
    const char *env = getenv("TRITSIM_LIBCUDA");
    const char *name = env && *env ? env : "libcuda.so.1";
    strbuf msg = {0};
    void *h = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    bool ok = false;
    if (!h) {
        const char *e = dlerror();
        strbuf_printf(&msg, "the NVIDIA driver's CUDA library cannot be loaded (%s); install "
                      "the NVIDIA driver (it provides libcuda.so.1) on a machine with an "
                      "NVIDIA GPU%s", e ? e : name,
                      env && *env ? ", or unset TRITSIM_LIBCUDA" : "");
    } else {
        strbuf tmp = {0};
        ok = cuda_api_bind(h, cuda_driver_syms, sizeof cuda_driver_syms / sizeof *cuda_driver_syms,
                       &cuda_driver_table, name, &tmp);
        if (!ok) {
            strbuf_printf(&msg, "the NVIDIA driver is too old: %s; install a driver for "
                          "CUDA 12 or newer", strbuf_cstr(&tmp));
            dlclose(h);
            h = NULL;
        }
        strbuf_free(&tmp);
    }
    cuda_remember(st, h, ok, &msg);
    strbuf_puts(why, strbuf_cstr(&msg));
    strbuf_free(&msg);
    return ok ? &cuda_driver_table : NULL;
}

/* Try NVRTC at name; on success the table is bound and its version read. */
static bool cuda_nvrtc_try(const char *name, void **out, strbuf *tried, strbuf *bad)
{
    void *h = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    strbuf_printf(tried, "%s%s", tried->len ? ", " : "", name);
    if (!h)
        return false;
    if (!cuda_api_bind(h, cuda_nvrtc_syms, sizeof cuda_nvrtc_syms / sizeof *cuda_nvrtc_syms,
                   &cuda_nvrtc_table, name, bad) ||
        cuda_nvrtc_table.nvrtcVersion(&cuda_nvrtc_table.major, &cuda_nvrtc_table.minor) !=
            NVRTC_SUCCESS) {
        if (!bad->len)
            strbuf_printf(bad, "%s does not answer nvrtcVersion", name);
        dlclose(h);
        return false;
    }
    snprintf(cuda_nvrtc_table.path, sizeof cuda_nvrtc_table.path, "%s", name);
    *out = h;
    return true;
}

const cuda_nvrtc *cuda_nvrtc_load(strbuf *why)
{
    static const char *const names[] = {"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so"};
    cuda_loaded *st = &cuda_nvrtc_state;
    if (st->tried) {
        if (!st->ok)
            strbuf_puts(why, st->why ? st->why : "");
        return st->ok ? &cuda_nvrtc_table : NULL;
    }
    const char *env = getenv("TRITSIM_LIBNVRTC");
    strbuf tried = {0}, bad = {0}, msg = {0};
    void *h = NULL;
    bool ok = false;
    if (env && *env) {
        ok = cuda_nvrtc_try(env, &h, &tried, &bad);
    } else {
        const char *home = getenv("CUDA_HOME");
        const char *dirs[] = {NULL, home && *home ? home : NULL, "/usr/local/cuda"};
        for (size_t d = 0; d < 3 && !ok; d++) {
            if (d > 0 && !dirs[d])
                continue;
            for (size_t i = 0; i < 3 && !ok; i++) {
                char path[512];
                if (d == 0)
                    snprintf(path, sizeof path, "%s", names[i]);
                else
                    snprintf(path, sizeof path, "%s/lib64/%s", dirs[d], names[i]);
                ok = cuda_nvrtc_try(path, &h, &tried, &bad);
            }
        }
    }
    if (!ok) {
        if (bad.len)
            strbuf_printf(&msg, "NVRTC (the CUDA runtime compiler) is unusable: %s; install "
                          "the CUDA toolkit 12 or newer", strbuf_cstr(&bad));
        else
            strbuf_printf(&msg, "NVRTC (the CUDA runtime compiler) is not installed: tried "
                          "%s; install the CUDA toolkit (its NVRTC library, e.g. the "
                          "cuda-nvrtc package), or set CUDA_HOME to where it is",
                          strbuf_cstr(&tried));
        if (env && *env)
            strbuf_puts(&msg, ", or unset TRITSIM_LIBNVRTC");
    }
    cuda_remember(st, h, ok, &msg);
    strbuf_puts(why, strbuf_cstr(&msg));
    strbuf_free(&tried);
    strbuf_free(&bad);
    strbuf_free(&msg);
    return ok ? &cuda_nvrtc_table : NULL;
}

void cuda_result_text(const cuda_driver *cu, CUresult r, strbuf *out)
{
    const char *name = NULL, *desc = NULL;
    if (cu && cu->cuGetErrorName(r, &name) != CUDA_SUCCESS)
        name = NULL;
    if (cu && cu->cuGetErrorString(r, &desc) != CUDA_SUCCESS)
        desc = NULL;
    if (name && desc)
        strbuf_printf(out, "%s (%s)", name, desc);
    else if (name)
        strbuf_puts(out, name);
    else
        strbuf_printf(out, "CUDA error %d", r);
}

static void cuda_forget(cuda_loaded *st)
{
    if (st->handle)
        dlclose(st->handle);
    free(st->why);
    *st = (cuda_loaded){0};
}

void cuda_api_reset(void)
{
    cuda_forget(&cuda_driver_state);
    cuda_forget(&cuda_nvrtc_state);
    memset(&cuda_driver_table, 0, sizeof cuda_driver_table);
    memset(&cuda_nvrtc_table, 0, sizeof cuda_nvrtc_table);
}
