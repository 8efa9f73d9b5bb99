/* cuda_mem.c - the CUDA backend's device memory: the device copy of each
 * host buffer a kernel uses (backend.h, "Host buffers and device copies":
 * made at first use, uploaded when the host bytes changed, downloaded on
 * request or at close), and the runtime block every launch passes
 * (cgen_abi.h: tk_rt, then arg_lo[], arg_hi[] and the print buffer). */
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
    CUdeviceptr ptr;
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
    /* the launches that may write it run on the stream */
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
    d->cu->cuMemFree(c->ptr);
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
    if (!cuda_ok(d, d->cu->cuMemAlloc(&c->ptr, b->size ? b->size : 1), "cuMemAlloc", why)) {
        free(c);
        return NULL;
    }
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
    cuda_copy *c = cuda_copy_of(d, a->buffer, why);
    if (!c)
        return false;
    /* the element the host pointer points to, at the same offset */
    *out = c->ptr + (CUdeviceptr)(a->value.u - (uint64_t)(uintptr_t)a->buffer->host);
    return true;
}

void cuda_mem_written(cuda_dev *d, const ir_kernel *k, const backend_arg *args)
{
    (void)d;
    for (int32_t i = 0; i < k->nparams; i++)
        if (dtype_is_ptr(k->params[i].dt) && args[i].buffer && args[i].buffer->copy)
            args[i].buffer->dev_dirty = true;
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

/* ---- the runtime block ------------------------------------------------------- */

bool cuda_mem_rt(cuda_dev *d, size_t nparams, strbuf *why)
{
    if (d->rt && nparams <= d->rt_nparams)
        return true;
    size_t room = nparams < 16 ? 16 : nparams;
    size_t cap = d->print_cap ? d->print_cap : (size_t)cgen_out_buffer_bytes(NULL, NULL);
    size_t bytes = sizeof(tk_rt) + 2 * room * sizeof(uint64_t) + cap;
    CUdeviceptr p = 0;
    if (!cuda_ok(d, d->cu->cuMemAlloc(&p, bytes), "cuMemAlloc", why))
        return false;
    if (d->rt)
        d->cu->cuMemFree(d->rt);
    d->rt = p;
    d->rt_bytes = bytes;
    d->rt_nparams = room;
    d->print_cap = cap;
    return true;
}
