/* hip_api.c - loads AMD's HIP runtime and hiprtc with dlopen/dlsym
 * (hip_api.h): which files are tried, which symbols each table needs, and
 * the messages that say what is missing when they cannot be loaded. */
#define _POSIX_C_SOURCE 200809L
#include "hip_api.h"

#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HIP(member) {offsetof(hip_runtime, member), {#member}}
static const cuda_sym hip_runtime_syms[] = {
    HIP(hipInit), HIP(hipDriverGetVersion), HIP(hipRuntimeGetVersion), HIP(hipGetDeviceCount),
    HIP(hipDeviceGet), HIP(hipDeviceGetAttribute), HIP(hipDeviceGetName),
    /* ROCm 6 renamed the entry point of its new layout; the old name
     * stays for the old one: either does (hip_backend.c) */
    {offsetof(hip_runtime, hipGetDeviceProperties),
     {"hipGetDevicePropertiesR0600", "hipGetDeviceProperties"}},
    HIP(hipDevicePrimaryCtxRetain), HIP(hipDevicePrimaryCtxRelease), HIP(hipCtxSetCurrent),
    HIP(hipDeviceSynchronize), HIP(hipModuleLoadData), HIP(hipModuleGetFunction),
    HIP(hipModuleUnload), HIP(hipFuncGetAttribute), HIP(hipModuleLaunchKernel), HIP(hipMalloc),
    HIP(hipFree), HIP(hipMemcpyHtoD), HIP(hipMemcpyDtoH), HIP(hipMemcpyHtoDAsync),
    HIP(hipMemsetD8), HIP(hipMemsetD32Async), HIP(hipHostMalloc), HIP(hipHostGetDevicePointer),
    HIP(hipHostFree), HIP(hipStreamCreateWithFlags), HIP(hipStreamSynchronize),
    HIP(hipStreamDestroy), HIP(hipEventCreateWithFlags), HIP(hipEventRecord),
    HIP(hipEventSynchronize), HIP(hipEventElapsedTime), HIP(hipEventDestroy),
    HIP(hipGetErrorName), HIP(hipGetErrorString),
};
#undef HIP

/* hiprtc's functions in NVRTC's table: the same signatures */
#define RTC(member, name) {offsetof(cuda_nvrtc, member), {name}}
static const cuda_sym hip_rtc_syms[] = {
    RTC(nvrtcVersion, "hiprtcVersion"),
    RTC(nvrtcCreateProgram, "hiprtcCreateProgram"),
    RTC(nvrtcCompileProgram, "hiprtcCompileProgram"),
    RTC(nvrtcGetProgramLogSize, "hiprtcGetProgramLogSize"),
    RTC(nvrtcGetProgramLog, "hiprtcGetProgramLog"),
    RTC(nvrtcGetCUBINSize, "hiprtcGetCodeSize"),
    RTC(nvrtcGetCUBIN, "hiprtcGetCode"),
    RTC(nvrtcDestroyProgram, "hiprtcDestroyProgram"),
    RTC(nvrtcGetErrorString, "hiprtcGetErrorString"),
};
#undef RTC

/* One library: what was tried and what came of it. */
typedef struct hip_lib {
    bool tried;
    void *handle;
    char *why;              /* when it failed */
} hip_lib;

static hip_lib hip_runtime_state, hip_rtc_state;
static hip_runtime hip_runtime_table;
static cuda_nvrtc hip_rtc_table;

/* Try each name in dirs "" (the loader's path), $ROCM_PATH/lib and
 * /opt/rocm/lib (or only env's file when it is set); the first that
 * loads and has every symbol binds table.  path (256 bytes) gets the file.
 * tried lists what was tried, bad why a library was unusable. */
static void *hip_search(const char *env, const char *const *names, size_t nnames,
                        const cuda_sym *syms, size_t nsyms, void *table, char *path,
                        strbuf *tried, strbuf *bad)
{
    const char *e = getenv(env);
    const char *rocm = getenv("ROCM_PATH");
    const char *dirs[] = {"", rocm && *rocm ? rocm : NULL, "/opt/rocm"};
    for (size_t d = 0; d < 3; d++) {
        if (!dirs[d] || (e && *e && d > 0))
            continue;
        for (size_t i = 0; i < (e && *e ? 1 : nnames); i++) {
            char p[512];
            if (e && *e)
                snprintf(p, sizeof p, "%s", e);
            else if (d == 0)
                snprintf(p, sizeof p, "%s", names[i]);
            else
                snprintf(p, sizeof p, "%s/lib/%s", dirs[d], names[i]);
            strbuf_printf(tried, "%s%s", tried->len ? ", " : "", p);
            void *h = dlopen(p, RTLD_NOW | RTLD_LOCAL);
            if (!h)
                continue;
            strbuf_clear(bad);
            if (cuda_api_bind(h, syms, nsyms, table, p, bad)) {
                snprintf(path, 256, "%.255s", p);
                return h;
            }
            dlclose(h);
        }
    }
    return NULL;
}

/* The answer of an earlier load, or NULL when there was none yet. */
static bool hip_again(const hip_lib *st, strbuf *why)
{
    if (st->tried && !st->handle)
        strbuf_puts(why, st->why ? st->why : "");
    return st->tried;
}

static void hip_remember(hip_lib *st, void *handle, const strbuf *msg, strbuf *why)
{
    st->tried = true;
    st->handle = handle;
    st->why = handle ? NULL : strdup(strbuf_cstr(msg));
    if (!handle)
        strbuf_puts(why, strbuf_cstr(msg));
}

const hip_runtime *hip_runtime_load(strbuf *why)
{
    static const char *const names[] = {"libamdhip64.so.6", "libamdhip64.so.5",
                                        "libamdhip64.so"};
    hip_lib *st = &hip_runtime_state;
    if (hip_again(st, why))
        return st->handle ? &hip_runtime_table : NULL;
    strbuf tried = {0}, bad = {0}, msg = {0};
    void *h = hip_search("TRITSIM_LIBAMDHIP", names, 3, hip_runtime_syms,
                         sizeof hip_runtime_syms / sizeof *hip_runtime_syms, &hip_runtime_table,
                         hip_runtime_table.path, &tried, &bad);
    if (!h && bad.len)
        strbuf_printf(&msg, "the HIP runtime is unusable: %s; install ROCm 5 or newer", 
                      strbuf_cstr(&bad));
    else if (!h)
        strbuf_printf(&msg, "the HIP runtime (ROCm's libamdhip64) is not installed: tried %s; "
                      "install ROCm (its HIP runtime, e.g. the libamdhip64-5 or hip-runtime-amd "
                      "package) on a machine with an AMD GPU, or set ROCM_PATH to where it is",
                      strbuf_cstr(&tried));
    if (!h && getenv("TRITSIM_LIBAMDHIP") && *getenv("TRITSIM_LIBAMDHIP"))
        strbuf_puts(&msg, ", or unset TRITSIM_LIBAMDHIP");
    hip_remember(st, h, &msg, why);
    strbuf_free(&tried);
    strbuf_free(&bad);
    strbuf_free(&msg);
    return h ? &hip_runtime_table : NULL;
}

const cuda_nvrtc *hip_rtc_load(strbuf *why)
{
    /* last, the runtime library: ROCm 5 before 5.3 kept hiprtc there */
    static const char *const names[] = {"libhiprtc.so.6", "libhiprtc.so.5", "libhiprtc.so",
                                        "libamdhip64.so.5", "libamdhip64.so"};
    hip_lib *st = &hip_rtc_state;
    if (hip_again(st, why))
        return st->handle ? &hip_rtc_table : NULL;
    strbuf tried = {0}, bad = {0}, msg = {0};
    void *h = hip_search("TRITSIM_LIBHIPRTC", names, 5, hip_rtc_syms,
                         sizeof hip_rtc_syms / sizeof *hip_rtc_syms, &hip_rtc_table,
                         hip_rtc_table.path, &tried, &bad);
    if (h && hip_rtc_table.nvrtcVersion(&hip_rtc_table.major, &hip_rtc_table.minor) != 0) {
        strbuf_printf(&bad, "%s does not answer hiprtcVersion", hip_rtc_table.path);
        dlclose(h);
        h = NULL;
    }
    if (!h && bad.len)
        strbuf_printf(&msg, "hiprtc (the HIP runtime compiler) is unusable: %s; install ROCm 5 "
                      "or newer", strbuf_cstr(&bad));
    else if (!h)
        strbuf_printf(&msg, "hiprtc (the HIP runtime compiler) is not installed: tried %s; "
                      "install ROCm's hiprtc (e.g. the hiprtc package), or set ROCM_PATH to "
                      "where it is", strbuf_cstr(&tried));
    if (!h && getenv("TRITSIM_LIBHIPRTC") && *getenv("TRITSIM_LIBHIPRTC"))
        strbuf_puts(&msg, ", or unset TRITSIM_LIBHIPRTC");
    hip_remember(st, h, &msg, why);
    strbuf_free(&tried);
    strbuf_free(&bad);
    strbuf_free(&msg);
    return h ? &hip_rtc_table : NULL;
}

static void hip_forget(hip_lib *st)
{
    if (st->handle)
        dlclose(st->handle);
    free(st->why);
    *st = (hip_lib){0};
}

void hip_api_reset(void)
{
    hip_forget(&hip_runtime_state);
    hip_forget(&hip_rtc_state);
    memset(&hip_runtime_table, 0, sizeof hip_runtime_table);
    memset(&hip_rtc_table, 0, sizeof hip_rtc_table);
}
