/* hip_backend.c - the HIP backend (hip_backend.h): AMD's vendor row of the
 * driver-API core (cuda_impl.h: cuda_vendor) and the backend table over
 * it.  What is AMD's here: which libraries are loaded (hip_api.h) and how
 * they become the driver table (hip_driver.c), the device's architecture
 * name and wavefront size, and the hiprtc options.  Everything else (the
 * device of a run, memory, the runtime block and its checks, prints,
 * launches, the deferred mode, timers, the disk cache) is the CUDA
 * backend's code, unchanged. */
#define _POSIX_C_SOURCE 200809L
#include "hip_backend.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_cache.h"
#include "cuda_impl.h"
#include "hip_impl.h"

/* Both libraries; else why. */
static const cuda_driver *hip_load(strbuf *why)
{
    strbuf rt = {0}, rtc = {0};
    const hip_runtime *r = hip_runtime_load(&rt);
    const cuda_nvrtc *c = hip_rtc_load(&rtc);
    cuda_why_join(&rt, &rtc, why);
    return r && c ? hip_driver_of(r) : NULL;
}

/* The device's target name ("gfx90a:sramecc+:xnack-") from its
 * properties.  hipDeviceProp_t's layout changed between ROCm releases
 * (and ROCm 6 renamed the entry point of the new one), so instead of an
 * offset this reads the one string in it that starts with "gfx" followed
 * by a digit: gcnArchName. */
static bool hip_arch_name(const hip_runtime *rt, int dev, char *out, size_t cap)
{
    enum { PROPS = 8192 };      /* well past any release's struct */
    unsigned char *p = calloc(1, PROPS);
    bool found = false;
    if (p && rt->hipGetDeviceProperties(p, dev) == hipSuccess)
        for (size_t i = 0; i + 4 < PROPS && !found; i++)
            if ((i == 0 || p[i - 1] == 0) && !memcmp(p + i, "gfx", 3) && p[i + 3] >= '0' &&
                p[i + 3] <= '9' && memchr(p + i, 0, PROPS - i)) {
                snprintf(out, cap, "%s", (const char *)p + i);
                found = true;
            }
    free(p);
    return found;
}

static bool hip_describe(cuda_dev *d, strbuf *why)
{
    strbuf tmp = {0};
    const hip_runtime *rt = hip_runtime_load(&tmp);
    strbuf_free(&tmp);
    int ws = 0;
    if (!rt || !cuda_ok(d, rt->hipDeviceGetAttribute(&ws, HIP_ATTR_WARP_SIZE, d->dev),
                        "hipDeviceGetAttribute", why))
        return false;
    if (ws != 32 && ws != 64) {
        strbuf_printf(why, "the HIP runtime says the GPU's wavefronts have %d lanes; the HIP "
                      "backend knows 32 and 64", ws);
        return false;
    }
    d->warp_size = ws;
    if (!hip_arch_name(rt, d->dev, d->arch_name, sizeof d->arch_name)) {
        strbuf_puts(why, "the HIP runtime does not tell the GPU's architecture (gcnArchName "
                    "in hipGetDeviceProperties)");
        return false;
    }
    /* the cache key's version: the runtime's, not the driver's */
    if (rt->hipRuntimeGetVersion(&d->driver_version) != hipSuccess)
        d->driver_version = 0;
    return true;
}

/* hiprtc's options: the device's own target; no contraction of a * b + c
 * into an FMA (the CPU rounds each operation, doc/ir.md 4.3), no flushing
 * of fp32 subnormals to zero (clang's default for HIP, named so that
 * nobody turns it on).  Generated code: no warnings wanted (-w). */
static bool hip_build(cuda_dev *d, const char *src, strbuf *image, strbuf *log,
                      bool *from_cache, strbuf *why)
{
    const cuda_nvrtc *rtc = hip_rtc_load(why);
    if (!rtc)
        return false;
    char archopt[96];
    snprintf(archopt, sizeof archopt, "--gpu-architecture=%s", d->arch_name);
    const char *opts[] = {archopt, "-O3", "-std=c++17", "-ffp-contract=off",
                          "-fno-gpu-flush-denormals-to-zero", "-w", NULL};
    cuda_build b = {.src = src, .driver_version = d->driver_version, .opts = opts,
                    .target = d->arch_name};
    return cuda_build_into(rtc, &b, image, log, from_cache, why);
}

static void hip_compiler(const cuda_dev *d, strbuf *out)
{
    strbuf why = {0};
    cuda_compiler_text(hip_rtc_load(&why), "hiprtc", d->arch_name, out);
    strbuf_free(&why);
}

static const cuda_vendor hip_vendor_amd = {
    .backend = "hip",
    .name = "HIP",
    .driver_name = "the HIP runtime",
    .no_device = "the HIP runtime sees no AMD GPU (check rocminfo or rocm-smi, and "
                 "HIP_VISIBLE_DEVICES if it is set)",
    .dialect = CGEN_HIP,
    .load = hip_load,
    .describe = hip_describe,
    .build = hip_build,
    .compiler = hip_compiler,
    .call_name = hip_call_name,
    .smem_optin = false,
};

static bool hip_available(strbuf *why)
{
    return cuda_dev_available(&hip_vendor_amd, why);
}

static backend_dev *hip_open(const backend_config *c, strbuf *why)
{
    return cuda_dev_open(&hip_vendor_amd, c, why);
}

const backend hip_backend = {
    .name = "hip",
    .available = hip_available,
    .open = hip_open,
    CUDA_CORE_ENTRIES
};
