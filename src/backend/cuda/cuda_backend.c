/* cuda_backend.c - the CUDA backend's table (cuda_backend.h) and vendor
 * (cuda_impl.h: NVIDIA's libraries and NVRTC), and what both vendors'
 * tables share: whether a vendor's GPU can run here, the device of a run
 * (device 0 of those the driver shows, which honours CUDA_VISIBLE_DEVICES
 * or HIP_VISIBLE_DEVICES; its primary context and one stream), sync, and
 * timers over the driver's events.  Compile and launch are cuda_launch.c,
 * device memory cuda_mem.c. */
#define _POSIX_C_SOURCE 200809L
#include "cuda_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "cuda_cache.h"

bool cuda_ok(const cuda_dev *d, CUresult r, const char *what, strbuf *why)
{
    if (r == CUDA_SUCCESS)
        return true;
    if (d && d->v->call_name)
        what = d->v->call_name(what);
    strbuf_printf(why, "%s failed: ", what);
    cuda_result_text(d ? d->cu : NULL, r, why);
    return false;
}

void cuda_why_join(strbuf *a, strbuf *b, strbuf *why)
{
    if (a->len && b->len)
        strbuf_printf(why, "%s; and %s", strbuf_cstr(a), strbuf_cstr(b));
    else if (a->len || b->len)      /* (nothing to say allocates nothing) */
        strbuf_puts(why, strbuf_cstr(a->len ? a : b));
    strbuf_free(a);
    strbuf_free(b);
}

void cuda_compiler_text(const cuda_nvrtc *rtc, const char *name, const char *target,
                        strbuf *out)
{
    strbuf_puts(out, name);
    if (rtc)
        strbuf_printf(out, " %d.%d", rtc->major, rtc->minor);
    strbuf_printf(out, " (%s)", target);
}

/* ---- NVIDIA's side: libcuda and NVRTC ---------------------------------------- */

/* Both libraries; else why. */
static const cuda_driver *cuda_nvidia_load(strbuf *why)
{
    strbuf drv = {0}, rtc = {0};
    const cuda_driver *cu = cuda_driver_load(&drv);
    const cuda_nvrtc *nv = cuda_nvrtc_load(&rtc);
    cuda_why_join(&drv, &rtc, why);
    return cu && nv ? cu : NULL;
}

/* NVRTC through the disk cache (cuda_cache.h), for the device's own
 * architecture. */
static bool cuda_nvidia_build(cuda_dev *d, const char *src, strbuf *image, strbuf *log,
                              bool *from_cache, strbuf *why)
{
    const cuda_nvrtc *rtc = cuda_nvrtc_load(why);
    if (!rtc)
        return false;
    cuda_build b = {.src = src, .arch = d->arch, .driver_version = d->driver_version};
    return cuda_build_into(rtc, &b, image, log, from_cache, why);
}

static void cuda_nvidia_compiler(const cuda_dev *d, strbuf *out)
{
    strbuf why = {0};
    char arch[16];
    snprintf(arch, sizeof arch, "sm_%d", d->arch);
    cuda_compiler_text(cuda_nvrtc_load(&why), "NVRTC", arch, out);
    strbuf_free(&why);
}

const cuda_vendor cuda_vendor_nvidia = {
    .backend = "cuda",
    .name = "CUDA",
    .driver_name = "the NVIDIA driver",
    .no_device = "the NVIDIA driver sees no GPU (check nvidia-smi, and CUDA_VISIBLE_DEVICES "
                 "if it is set)",
    .dialect = CGEN_CUDA,
    .load = cuda_nvidia_load,
    .build = cuda_nvidia_build,
    .compiler = cuda_nvidia_compiler,
    .smem_optin = true,
};

/* ---- both vendors -------------------------------------------------------------- */

bool cuda_dev_available(const cuda_vendor *v, strbuf *why)
{
    const cuda_driver *cu = v->load(why);
    if (!cu)
        return false;
    CUresult r = cu->cuInit(0);
    int n = 0;
    if (r == CUDA_SUCCESS)
        r = cu->cuDeviceGetCount(&n);
    if (r == CUDA_ERROR_NO_DEVICE || r == CUDA_ERROR_INVALID_DEVICE ||
        (r == CUDA_SUCCESS && n == 0)) {
        strbuf_puts(why, v->no_device);
        return false;
    }
    if (r != CUDA_SUCCESS) {
        strbuf_printf(why, "%s cannot start: ", v->driver_name);
        cuda_result_text(cu, r, why);
        return false;
    }
    return true;
}

static bool cuda_available(strbuf *why)
{
    return cuda_dev_available(&cuda_vendor_nvidia, why);
}

backend_dev *cuda_dev_open(const cuda_vendor *v, const backend_config *c, strbuf *why)
{
    if (!cuda_dev_available(v, why))
        return NULL;
    cuda_dev *d = xcalloc(1, sizeof *d);
    d->v = v;
    d->cu = v->load(why);
    d->warp_size = 32;
    d->checked = !c->unchecked;
    /* --unchecked kernels have nothing to report (no bounds checks, no
     * assertions; a kernel that prints is checked at once all the same):
     * their launches are deferred from the start, asynchronous as CUDA's
     * are, and a driver error surfaces at the next sync point */
    d->deferred = !d->checked;
    const cuda_driver *cu = d->cu;
    int major = 0, minor = 0, smem = 0;
    bool ok = cuda_ok(d, cu->cuDeviceGet(&d->dev, 0), "cuDeviceGet", why) &&
              cuda_ok(d, cu->cuDriverGetVersion(&d->driver_version), "cuDriverGetVersion",
                      why) &&
              cuda_ok(d, cu->cuDeviceGetAttribute(&major,
                                                  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                                                  d->dev), "cuDeviceGetAttribute", why) &&
              cuda_ok(d, cu->cuDeviceGetAttribute(&minor,
                                                  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                                                  d->dev), "cuDeviceGetAttribute", why) &&
              cuda_ok(d, cu->cuDeviceGetAttribute(
                             &smem, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
                             d->dev), "cuDeviceGetAttribute", why) &&
              cuda_ok(d, cu->cuDeviceGetName(d->name, (int)sizeof d->name, d->dev),
                      "cuDeviceGetName", why);
    if (ok && !cuda_ok(d, cu->cuDevicePrimaryCtxRetain(&d->ctx, d->dev),
                       "cuDevicePrimaryCtxRetain", why))
        ok = false;
    /* A blocking stream: the synchronous copies (cuMemcpyHtoD/DtoH, on the
     * legacy default stream) then wait for the launches before them. */
    if (ok && !(cuda_ok(d, cu->cuCtxSetCurrent(d->ctx), "cuCtxSetCurrent", why) &&
                cuda_ok(d, cu->cuStreamCreate(&d->stream, CU_STREAM_DEFAULT),
                        "cuStreamCreate", why))) {
        cu->cuDevicePrimaryCtxRelease(d->dev);
        d->ctx = NULL;
        ok = false;
    }
    d->arch = major * 10 + minor;
    d->max_smem = smem > 0 ? (size_t)smem : 48 * 1024;
    if (ok && v->dialect == CGEN_CUDA) {
        /* (optional: without them no kernel is rebuilt for occupancy) */
        const struct { int *to; int attr; } room[] = {
            {&d->sm_regs, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR},
            {&d->sm_threads, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR},
            {&d->sm_blocks, CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR},
            {&d->sm_smem, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR},
        };
        for (size_t i = 0; i < sizeof room / sizeof room[0]; i++)
            if (cu->cuDeviceGetAttribute(room[i].to, room[i].attr, d->dev) != CUDA_SUCCESS)
                *room[i].to = 0;
    }
    if (ok && v->describe && !v->describe(d, why)) {
        cu->cuStreamDestroy(d->stream);
        cu->cuDevicePrimaryCtxRelease(d->dev);
        ok = false;
    }
    if (!ok) {
        free(d);
        return NULL;
    }
    return &d->base;
}

static backend_dev *cuda_open(const backend_config *c, strbuf *why)
{
    return cuda_dev_open(&cuda_vendor_nvidia, c, why);
}

/* ---- timers: CUDA events ------------------------------------------------------ */

struct cuda_timer {
    cuda_dev *dev;              /* NULL once the device is closed */
    CUevent ev;
    bool recorded;
    cuda_timer *next;
};

/* A timer's wait is a sync point of the deferred mode: the pending
 * launches are checked first; false after reporting one's failure (to
 * its launch's diag, so why stays empty, as backend.h asks). */
static bool cuda_timer_pending(cuda_dev *d)
{
    return d->npending == 0 || cuda_pending_check(d);
}

static bool cuda_timer_live(const cuda_timer *t, strbuf *why)
{
    if (!t->dev)
        strbuf_puts(why, "the timer's device was closed");
    return t->dev != NULL;
}

backend_timer *cuda_timer_new(backend_dev *dev, strbuf *why)
{
    cuda_dev *d = (cuda_dev *)dev;
    cuda_timer *t = xcalloc(1, sizeof *t);
    if (!cuda_ok(d, d->cu->cuEventCreate(&t->ev, CU_EVENT_DEFAULT), "cuEventCreate", why)) {
        free(t);
        return NULL;
    }
    t->dev = d;
    t->next = d->timers;
    d->timers = t;
    return (backend_timer *)t;
}

bool cuda_timer_record(backend_dev *dev, backend_timer *bt, strbuf *why)
{
    cuda_dev *d = (cuda_dev *)dev;
    cuda_timer *t = (cuda_timer *)bt;
    if (!cuda_timer_live(t, why) ||
        !cuda_ok(d, d->cu->cuEventRecord(t->ev, d->stream), "cuEventRecord", why))
        return false;
    t->recorded = true;
    return true;
}

bool cuda_timer_sync(backend_dev *dev, backend_timer *bt, strbuf *why)
{
    cuda_dev *d = (cuda_dev *)dev;
    cuda_timer *t = (cuda_timer *)bt;
    if (!cuda_timer_live(t, why) || !cuda_timer_pending(d))
        return false;
    return !t->recorded ||
           cuda_ok(d, d->cu->cuEventSynchronize(t->ev), "cuEventSynchronize", why);
}

bool cuda_timer_elapsed(backend_dev *dev, backend_timer *bs, backend_timer *be,
                               double *ms, strbuf *why)
{
    cuda_dev *d = (cuda_dev *)dev;
    cuda_timer *s = (cuda_timer *)bs, *e = (cuda_timer *)be;
    if (!cuda_timer_live(s, why) || !cuda_timer_live(e, why))
        return false;
    if (!s->recorded || !e->recorded) {
        strbuf_puts(why, "both events must be recorded before elapsed_time()");
        return false;
    }
    float f = 0;
    if (!cuda_timer_pending(d) ||
        !cuda_ok(d, d->cu->cuEventSynchronize(e->ev), "cuEventSynchronize", why) ||
        !cuda_ok(d, d->cu->cuEventElapsedTime(&f, s->ev, e->ev), "cuEventElapsedTime", why))
        return false;
    *ms = f;
    return true;
}

void cuda_timer_free(backend_timer *bt)
{
    cuda_timer *t = (cuda_timer *)bt;
    if (!t)
        return;
    if (t->dev) {
        cuda_dev *d = t->dev;
        d->cu->cuEventDestroy(t->ev);
        for (cuda_timer **p = &d->timers; *p; p = &(*p)->next)
            if (*p == t) {
                *p = t->next;
                break;
            }
    }
    free(t);
}

/* ---- sync, close -------------------------------------------------------------- */

bool cuda_sync(backend_dev *dev, diag_sink *diag)
{
    cuda_dev *d = (cuda_dev *)dev;
    if (d->npending)
        return cuda_pending_check(d);   /* waits for the stream */
    strbuf why = {0};
    bool ok = cuda_ok(d, d->cu->cuStreamSynchronize(d->stream), "cuStreamSynchronize", &why);
    if (!ok)
        diag_report(diag, DIAG_ERROR, NULL, (src_span){0},
                    "the GPU failed while running kernels: %s", strbuf_cstr(&why));
    strbuf_free(&why);
    return ok;
}

void cuda_close(backend_dev *dev)
{
    cuda_dev *d = (cuda_dev *)dev;
    const cuda_driver *cu = d->cu;
    cuda_pending_check(d);      /* the launches still unchecked, if any */
    cu->cuStreamSynchronize(d->stream);
    cuda_mem_close(d);
    cuda_kernels_close(d);
    for (cuda_timer *t = d->timers, *next; t; t = next) {
        next = t->next;
        cu->cuEventDestroy(t->ev);
        t->dev = NULL;
        t->next = NULL;
    }
    cuda_mem_rt_free(d);
    cu->cuStreamDestroy(d->stream);
    cu->cuDevicePrimaryCtxRelease(d->dev);
    free(d);
}

const backend cuda_backend = {
    .name = "cuda",
    .available = cuda_available,
    .open = cuda_open,
    CUDA_CORE_ENTRIES
};
