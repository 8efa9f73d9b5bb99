/* tensor_init.c - `tritsim run --initcheck` on the host's side: storages
 * made by torch.empty and its kin carry a bitmap of the bytes written so
 * far (backend_buffer.init, one bit per byte), the tensor accessors of
 * tensor.h check it before host code reads elements and set it when host
 * code writes them; kernels check and set the same bits (the CPU
 * executor's exec_check.c).  A read of a byte never written ends the run
 * through tensor_init_fail, which the torch module sets (torchmod.c).
 *
 * The accessors that may write (tensor_data, tensor_iter_add_tensor)
 * count as writes of every element of the view: an in-place operation on
 * memory never written is not reported (it reads through them). */
#include "tensor.h"

#include <stdlib.h>
#include <string.h>

#include "arena.h"

void (*tensor_init_fail)(const tensor *t, int64_t flat);

void tensor_init_unwritten(tensor *t, const char *from)
{
    backend_buffer *b = &t->storage->dev;
    if (b->init || !t->storage->size)
        return;
    b->init = xcalloc((t->storage->size + 7) / 8, 1);
    b->init_from = from ? xstrdup(from) : NULL;
}

void tensor_init_release(tensor_storage *s)
{
    free(s->dev.init);
    free(s->dev.init_from);
    s->dev.init = NULL;
    s->dev.init_from = NULL;
}

/* Are the n bytes from byte off all written? */
static bool bits_set(const unsigned char *bits, size_t off, size_t n)
{
    for (size_t i = off; i < off + n; i++)
        if (!(__atomic_load_n(&bits[i >> 3], __ATOMIC_RELAXED) & (1u << (i & 7))))
            return false;
    return true;
}

static void bits_mark(unsigned char *bits, size_t off, size_t n)
{
    size_t i = off, end = off + n;
    for (; i < end && (i & 7); i++)
        __atomic_fetch_or(&bits[i >> 3], (unsigned char)(1u << (i & 7)), __ATOMIC_RELAXED);
    if (end - i >= 8) {
        memset(&bits[i >> 3], 0xff, (end - i) >> 3);
        i += (end - i) & ~(size_t)7;
    }
    for (; i < end; i++)
        __atomic_fetch_or(&bits[i >> 3], (unsigned char)(1u << (i & 7)), __ATOMIC_RELAXED);
}

/* Walk the elements of view t in row-major order: mark them written, or
 * (check) find the first that is not; its flat index, or -1. */
static int64_t init_walk(const tensor *t, bool check)
{
    unsigned char *bits = t->storage->dev.init;
    size_t es = (size_t)tensor_elsize(t);
    int64_t n = tensor_numel(t);
    if (n == 0)
        return -1;
    if (tensor_is_contiguous(t)) {
        size_t off = (size_t)t->offset * es, len = (size_t)n * es;
        if (!check) {
            bits_mark(bits, off, len);
            return -1;
        }
        if (bits_set(bits, off, len))
            return -1;
        for (int64_t i = 0; i < n; i++)
            if (!bits_set(bits, off + (size_t)i * es, es))
                return i;
        return -1;
    }
    int64_t idx[TENSOR_MAX_DIMS] = {0};
    for (int64_t i = 0; i < n; i++) {
        int64_t e = t->offset;
        for (int d = 0; d < t->ndim; d++)
            e += idx[d] * t->strides[d];
        if (!check)
            bits_mark(bits, (size_t)e * es, es);
        else if (!bits_set(bits, (size_t)e * es, es))
            return i;
        for (int d = t->ndim - 1; d >= 0; d--) {
            if (++idx[d] < t->shape[d])
                break;
            idx[d] = 0;
        }
    }
    return -1;
}

void tensor_init_check(const tensor *t)
{
    int64_t bad = init_walk(t, true);
    if (bad >= 0 && tensor_init_fail)
        tensor_init_fail(t, bad);
}

void tensor_init_mark(const tensor *t)
{
    init_walk(t, false);
}

/* The flat index in view t of the element at byte p of its storage. */
static int64_t flat_of(const tensor *t, const unsigned char *p)
{
    int64_t e = (int64_t)(p - t->storage->data) / tensor_elsize(t) - t->offset, flat = 0;
    /* the element's index along each axis, largest stride first */
    int64_t idx[TENSOR_MAX_DIMS] = {0};
    bool used[TENSOR_MAX_DIMS] = {false};
    for (int k = 0; k < t->ndim; k++) {
        int best = -1;
        for (int d = 0; d < t->ndim; d++)
            if (!used[d] && t->shape[d] > 1 &&
                (best < 0 || t->strides[d] > t->strides[best]))
                best = d;
        if (best < 0 || !t->strides[best])
            break;
        used[best] = true;
        idx[best] = e / t->strides[best];
        e %= t->strides[best];
    }
    for (int d = 0; d < t->ndim; d++)
        flat = flat * t->shape[d] + idx[d];
    return flat;
}

void tensor_init_check_at(const tensor *t, const void *p)
{
    const unsigned char *q = p;
    size_t off = (size_t)(q - t->storage->data);
    if (!bits_set(t->storage->dev.init, off, (size_t)tensor_elsize(t)) && tensor_init_fail)
        tensor_init_fail(t, flat_of(t, q));
}

void tensor_init_mark_at(const tensor *t, const void *p)
{
    size_t off = (size_t)((const unsigned char *)p - t->storage->data);
    bits_mark(t->storage->dev.init, off, (size_t)tensor_elsize(t));
}
