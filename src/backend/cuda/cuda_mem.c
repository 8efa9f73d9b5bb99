/* cuda_mem.c - the CUDA backend's device memory: the device copy of each
 * host buffer a kernel uses (backend.h, "Host buffers and device copies":
 * made at first use, uploaded when the host bytes changed, downloaded on
 * request or at close), the runtime blocks launches pass (cgen_abi.h:
 * tk_rt, then arg_lo[] and arg_hi[], in pinned host memory the device
 * reaches; the print buffer in device memory), the tables of storages
 * that kernels making pointers from integers get (cgen_abi.h: tk_amap,
 * one per slot, written in pinned memory and copied to device memory on
 * the stream), and the scratch that clear_cache overwrites. */
#define _POSIX_C_SOURCE 200809L
#include "cuda_impl.h"

#include <stdint.h>
#include <stdlib.h>

#include "arena.h"
#include "cgen_abi.h"
#include "cgen_out.h"

/* The device side of one backend_buffer (its copy member). */
struct cuda_copy {
    cuda_dev *dev;
    backend_buffer *b;
    CUdeviceptr ptr;            /* the copy of the host's first byte */
    CUdeviceptr alloc;          /* what cuMemAlloc gave: ptr lies past it by
                                   the host address modulo 256, so that each
                                   element's device address has its host
                                   address's alignment (a kernel specialized
                                   on 16-byte aligned arguments relies on it) */
    size_t size;
    cuda_copy *prev, *next;     /* the device's list */
};

static bool cuda_copy_upload(cuda_copy *c, strbuf *why)
{
    cuda_dev *d = c->dev;
    if (c->size && !cuda_ok(d, d->cu->cuMemcpyHtoD(c->ptr, c->b->host, c->size),
                            "cuMemcpyHtoD", why))
        return false;
    c->b->host_dirty = false;
    return true;
}

static bool cuda_copy_download(backend_buffer *b, strbuf *why)
{
    cuda_copy *c = b->copy;
    cuda_dev *d = c->dev;
    /* the launches that may write it run on the stream; a download is a
     * sync point of the deferred mode, where pending launches are checked */
    if (d->npending && !cuda_pending_check(d)) {
        strbuf_puts(why, "a kernel launched before it failed (reported above)");
        return false;
    }
    if (!cuda_ok(d, d->cu->cuStreamSynchronize(d->stream), "cuStreamSynchronize", why) ||
        (c->size && !cuda_ok(d, d->cu->cuMemcpyDtoH(b->host, c->ptr, c->size),
                             "cuMemcpyDtoH", why)))
        return false;
    b->dev_dirty = false;
    return true;
}

/* Free the copy and unhook it from its buffer. */
static void cuda_copy_drop(cuda_copy *c)
{
    cuda_dev *d = c->dev;
    d->cu->cuMemFree(c->alloc);
    if (c->prev)
        c->prev->next = c->next;
    else
        d->copies = c->next;
    if (c->next)
        c->next->prev = c->prev;
    backend_buffer *b = c->b;
    b->copy = NULL;
    b->release = NULL;
    b->download = NULL;
    b->dev_dirty = false;
    free(c);
}

/* backend_buffer.release: the host memory is going away. */
static void cuda_copy_release(backend_buffer *b)
{
    if (b->copy)
        cuda_copy_drop(b->copy);
}

/* b's copy on d, made (and filled from the host) the first time. */
static cuda_copy *cuda_copy_of(cuda_dev *d, backend_buffer *b, strbuf *why)
{
    if (b->copy) {
        cuda_copy *c = b->copy;
        if (b->host_dirty && !cuda_copy_upload(c, why))
            return NULL;
        return c;
    }
    cuda_copy *c = xcalloc(1, sizeof *c);
    c->dev = d;
    c->b = b;
    c->size = b->size;
    size_t skew = (size_t)((uintptr_t)b->host & 255u);
    if (!cuda_ok(d, d->cu->cuMemAlloc(&c->alloc, skew + (b->size ? b->size : 1)), "cuMemAlloc",
                 why)) {
        free(c);
        return NULL;
    }
    c->ptr = c->alloc + skew;
    c->next = d->copies;
    if (d->copies)
        d->copies->prev = c;
    d->copies = c;
    b->copy = c;
    b->release = cuda_copy_release;
    b->download = cuda_copy_download;
    b->dev_dirty = false;
    if (!cuda_copy_upload(c, why)) {
        cuda_copy_drop(c);
        return NULL;
    }
    return c;
}

bool cuda_mem_arg(cuda_dev *d, const backend_arg *a, CUdeviceptr *out, strbuf *why)
{
    *out = 0;
    if (!a->buffer) {
        if (a->value.u == 0)
            return true;
        strbuf_printf(why, "argument '%s' is host memory that is not a tensor's storage, "
                      "which the GPU cannot reach", a->name ? a->name : "?");
        return false;
    }
    if (a->buffer->on_device) {
        *out = (CUdeviceptr)a->value.u;    /* already the device's address */
        return true;
    }
    cuda_copy *c = cuda_copy_of(d, a->buffer, why);
    if (!c)
        return false;
    /* the element the host pointer points to, at the same offset */
    *out = c->ptr + (CUdeviceptr)(a->value.u - (uint64_t)(uintptr_t)a->buffer->host);
    return true;
}

void cuda_mem_written(cuda_dev *d, const ir_kernel *k, const backend_launch *L)
{
    (void)d;
    const backend_arg *args = L->args;
    for (int32_t i = 0; i < k->nparams; i++)
        if (dtype_is_ptr(k->params[i].dt) && args[i].buffer && args[i].buffer->copy)
            args[i].buffer->dev_dirty = true;
    for (int i = 0; i < L->nrevealed; i++)
        if (L->revealed[i]->copy)
            L->revealed[i]->dev_dirty = true;
}

bool cuda_mem_amap_fill(cuda_dev *d, cuda_slot *s, const backend_launch *L, strbuf *why)
{
    s->namap = 0;
    for (int i = 0; i < L->nrevealed; i++) {
        backend_buffer *b = L->revealed[i];
        cuda_copy *c = b->on_device ? NULL : cuda_copy_of(d, b, why);
        if (!c && !b->on_device)
            return false;
        /* a storage in the device's memory is its own device side */
        s->amap[s->namap++] = (tk_amap){.host = (uint64_t)(uintptr_t)b->host,
                                        .bytes = b->size,
                                        .dev = c ? c->ptr : (uint64_t)(uintptr_t)b->host};
    }
    /* from pinned memory that stays as it is until the launch is checked */
    return s->namap == 0 ||
           cuda_ok(d, d->cu->cuMemcpyHtoDAsync(s->amap_dev, s->amap,
                                               (size_t)s->namap * sizeof(tk_amap), d->stream),
                   "cuMemcpyHtoDAsync", why);
}

void cuda_mem_close(cuda_dev *d)
{
    while (d->copies) {
        cuda_copy *c = d->copies;
        if (c->b->dev_dirty) {
            strbuf why = {0};
            cuda_copy_download(c->b, &why);    /* best effort: the run is over */
            strbuf_free(&why);
        }
        cuda_copy_drop(c);
    }
}

/* ---- the runtime blocks ------------------------------------------------------ */

/* Bytes of one slot's block: tk_rt, arg_lo[room], arg_hi[room], arg_c[room]
 * (the kernel's tk_c: cuda_launch.c), rounded up to 64 so that each block
 * starts on its own cache lines. */
static size_t cuda_slot_bytes(size_t room)
{
    size_t n = sizeof(tk_rt) + 3 * room * sizeof(uint64_t);
    return (n + 63) / 64 * 64;
}

static void cuda_ring_free(cuda_dev *d)
{
    if (d->ring_host)
        d->cu->cuMemFreeHost(d->ring_host);
    d->ring_host = NULL;
    for (int i = 0; i < CUDA_RING; i++) {
        cuda_slot *s = &d->ring[i];
        free(s->dptr);
        free(s->vals);
        free(s->params);
        free(s->args);
        *s = (cuda_slot){0};
    }
    d->rt_nparams = 0;
}

/* Each slot's part of the tables (after either allocation changes). */
static void cuda_amap_place(cuda_dev *d)
{
    size_t bytes = d->amap_room * sizeof(tk_amap);
    for (int i = 0; i < CUDA_RING; i++) {
        cuda_slot *s = &d->ring[i];
        s->amap = d->amap_host ? (tk_amap *)(void *)((unsigned char *)d->amap_host +
                                                     (size_t)i * bytes) : NULL;
        s->amap_dev = d->amap_host ? d->amap_dev + (CUdeviceptr)i * bytes : 0;
        s->namap = 0;
    }
}

static void cuda_amap_free(cuda_dev *d)
{
    if (d->amap_host)
        d->cu->cuMemFreeHost(d->amap_host);
    if (d->amap_dev)
        d->cu->cuMemFree(d->amap_dev);
    d->amap_host = NULL;
    d->amap_dev = 0;
    d->amap_room = 0;
    cuda_amap_place(d);
}

bool cuda_mem_amap(cuda_dev *d, size_t n, strbuf *why)
{
    if (n <= d->amap_room && d->ring[0].amap)
        return true;
    cuda_amap_free(d);
    size_t room = 16;
    while (room < n)
        room *= 2;
    size_t bytes = room * sizeof(tk_amap);
    void *host = NULL;
    CUdeviceptr dev = 0;
    const cuda_driver *cu = d->cu;
    if (!cuda_ok(d, cu->cuMemHostAlloc(&host, bytes * CUDA_RING, 0), "cuMemHostAlloc", why))
        return false;
    if (!cuda_ok(d, cu->cuMemAlloc(&dev, bytes * CUDA_RING), "cuMemAlloc", why)) {
        cu->cuMemFreeHost(host);
        return false;
    }
    d->amap_host = host;
    d->amap_dev = dev;
    d->amap_room = room;
    cuda_amap_place(d);
    return true;
}

bool cuda_mem_rt(cuda_dev *d, size_t nparams, strbuf *why)
{
    const cuda_driver *cu = d->cu;
    if (!d->print_buf) {
        size_t cap = (size_t)cgen_out_buffer_bytes(NULL, NULL);
        if (!cuda_ok(d, cu->cuMemAlloc(&d->print_buf, cap ? cap : 8), "cuMemAlloc", why))
            return false;
        d->print_cap = cap;
    }
    if (d->ring_host && nparams <= d->rt_nparams)
        return true;
    cuda_ring_free(d);
    size_t room = nparams < 16 ? 16 : nparams;
    size_t bytes = cuda_slot_bytes(room);
    void *host = NULL;
    CUdeviceptr dev = 0;
    if (!cuda_ok(d, cu->cuMemHostAlloc(&host, bytes * CUDA_RING, CU_MEMHOSTALLOC_DEVICEMAP),
                 "cuMemHostAlloc", why))
        return false;
    if (!cuda_ok(d, cu->cuMemHostGetDevicePointer(&dev, host, 0), "cuMemHostGetDevicePointer",
                 why)) {
        cu->cuMemFreeHost(host);
        return false;
    }
    d->ring_host = host;
    d->rt_nparams = room;
    for (int i = 0; i < CUDA_RING; i++) {
        cuda_slot *s = &d->ring[i];
        s->host = (unsigned char *)host + (size_t)i * bytes;
        s->dev = dev + (CUdeviceptr)i * bytes;
        s->dptr = xcalloc(room, sizeof *s->dptr);
        s->vals = xcalloc(room, sizeof *s->vals);
        /* the runtime block, the parameters, each pointer's bounds, the
         * table of storages and its size (cgen_abi.h) */
        s->params = xcalloc(4 * room + 3, sizeof *s->params);
        s->args = xcalloc(room, sizeof *s->args);
    }
    cuda_amap_place(d);     /* the tables stay; the slots are new */
    return true;
}

void cuda_mem_rt_free(cuda_dev *d)
{
    cuda_amap_free(d);
    cuda_ring_free(d);
    if (d->print_buf)
        d->cu->cuMemFree(d->print_buf);
    if (d->scratch)
        d->cu->cuMemFree(d->scratch);
    d->print_buf = d->scratch = 0;
}

/* ---- clearing the L2 cache --------------------------------------------------- */

/* What Triton's do_bench zeroes before each timed run: 256 MB, several
 * times any GPU's L2, so that the run finds none of its inputs there. */
enum { CUDA_SCRATCH_BYTES = 256000000 };

bool cuda_mem_clear_cache(backend_dev *dev, strbuf *why)
{
    cuda_dev *d = (cuda_dev *)dev;
    const cuda_driver *cu = d->cu;
    if (!d->scratch &&
        !cuda_ok(d, cu->cuMemAlloc(&d->scratch, CUDA_SCRATCH_BYTES), "cuMemAlloc", why)) {
        d->scratch = 0;
        return false;
    }
    return cuda_ok(d, cu->cuMemsetD32Async(d->scratch, 0, CUDA_SCRATCH_BYTES / 4, d->stream),
                   "cuMemsetD32Async", why);
}
