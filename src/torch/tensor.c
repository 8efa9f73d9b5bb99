/* tensor.c - the tensor itself (tensor.h): storage, creation, element
 * access, the row-major iterator, views (view, reshape, permute, expand,
 * select, slice...), copies and conversions, and printing.  Arithmetic is
 * in tensor_ops.c, reductions in tensor_reduce.c, products in
 * tensor_matmul.c; what the evaluator sees of a tensor is torch_tensor.c. */
#define _GNU_SOURCE         /* madvise, MADV_HUGEPAGE, mremap */
#include "tensor.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "addrmap.h"
#include "format.h"
#include "tensor_loops.h"
#include "tensor_par.h"

void tensor_err(char *err, const char *fmt, ...)
{
    if (!err)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, TENSOR_ERR_LEN, fmt, ap);
    va_end(ap);
}

/* "[3, 4]" into a fixed buffer, for messages. */
static const char *shape_text(int ndim, const int64_t *shape, char *buf, size_t len)
{
    size_t n = 0;
    buf[n++] = '[';
    for (int i = 0; i < ndim && n + 24 < len; i++)
        n += (size_t)snprintf(buf + n, len - n, i ? ", %lld" : "%lld", (long long)shape[i]);
    snprintf(buf + n, len - n, "]");
    return buf;
}

void tensor_shape_str(int ndim, const int64_t *shape, strbuf *out)
{
    strbuf_putc(out, '[');
    for (int i = 0; i < ndim; i++)
        strbuf_printf(out, i ? ", %lld" : "%lld", (long long)shape[i]);
    strbuf_putc(out, ']');
}

/* ---- the launcher's view ---------------------------------------------------- */

tensor *tensor_of(val v)
{
    return v.kind == VAL_TENSOR ? (tensor *)v.u.o : NULL;
}

bool tensor_reveal(const tensor *t, uint64_t *addr, char *err)
{
    tensor_storage *s = t->storage;
    *addr = (uint64_t)(uintptr_t)tensor_addr(t);
    if (s->addr_tag == 0 && s->size > 0) {
        s->addr_tag = addrmap_add(s->data, s->size, &s->dev);
        if (s->addr_tag == 0 && addrmap_count() >= ADDRMAP_MAX_TAGS) {
            tensor_err(err, "tritsim keeps the addresses of at most %d live tensor "
                       "storages (data_ptr()); free some tensors first", ADDRMAP_MAX_TAGS);
            return false;
        }
    }
    return true;
}

int tensor_revealed_buffers(backend_buffer **out, int max)
{
    int n = addrmap_count();
    for (int i = 0; i < n && i < max; i++)
        out[i] = addrmap_nth(i)->owner;     /* tensor_reveal's &s->dev */
    return n;
}

int64_t tensor_numel(const tensor *t)
{
    int64_t n = 1;
    for (int i = 0; i < t->ndim; i++)
        n *= t->shape[i];
    return n;
}

int64_t tensor_extent(const tensor *t)
{
    int64_t e = 1;
    for (int i = 0; i < t->ndim; i++) {
        if (t->shape[i] == 0)
            return 0;
        e += (t->shape[i] - 1) * t->strides[i];
    }
    return e;
}

bool tensor_is_contiguous(const tensor *t)
{
    if (tensor_numel(t) == 0)
        return true;
    int64_t expect = 1;
    for (int i = t->ndim - 1; i >= 0; i--) {
        if (t->shape[i] == 1)
            continue;
        if (t->strides[i] != expect)
            return false;
        expect *= t->shape[i];
    }
    return true;
}

/* ---- storage and creation ------------------------------------------------------ */

/* ---- the cache of large blocks ------------------------------------------------ */

/* Freed blocks of BLOCK_MIN bytes or more are kept for the next tensor of
 * the same size (a bounded number of them, at most BLOCK_BYTES together;
 * the oldest goes first), so that the full-size temporaries of tensor
 * work that come and go with every operation are not each fresh memory
 * that the kernel zeroes and maps page by page (doc/performance.md, issue
 * 14).  A result that writes every element (tensor_new_uninit) takes one
 * as it is; tensor_new zeroes it.
 *
 * Such blocks are mappings of their own (mmap), so that with no block of
 * the size kept, one between half and twice the size changes size
 * (mremap): its pages stay, and only those added are fresh.  A program
 * whose tensors grow a little at each step (a benchmark over sizes) then
 * reuses the last step's memory. */
enum { BLOCK_MIN = 1 << 20, BLOCK_SLOTS = 8 };
#define BLOCK_BYTES ((size_t)1 << 30)

static struct block { void *raw; size_t bytes; } block_cache[BLOCK_SLOTS];
static int block_count;
static size_t block_total;
static pthread_mutex_t block_lock = PTHREAD_MUTEX_INITIALIZER;

static void huge_pages(void *raw, size_t bytes);

/* A fresh zeroed block of bytes (a mapping from BLOCK_MIN up), or NULL. */
static void *block_alloc(size_t bytes)
{
    if (bytes < BLOCK_MIN)
        return calloc(1, bytes);
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

/* Free a block of block_alloc. */
static void block_free(void *raw, size_t bytes)
{
    if (!raw)
        return;
    if (bytes < BLOCK_MIN)
        free(raw);
    else
        munmap(raw, bytes);
}

/* Remove kept block i (the lock held). */
static void *block_remove(int i)
{
    void *raw = block_cache[i].raw;
    block_total -= block_cache[i].bytes;
    memmove(&block_cache[i], &block_cache[i + 1],
            sizeof *block_cache * (size_t)(block_count - i - 1));
    block_count--;
    return raw;
}

/* A kept block of exactly bytes, or one resized to bytes, or NULL. */
static void *block_take(size_t bytes)
{
    if (bytes < BLOCK_MIN)
        return NULL;
    void *raw = NULL;
    size_t old = 0;
    pthread_mutex_lock(&block_lock);
    int best = -1;
    for (int i = block_count - 1; i >= 0; i--) {     /* the newest first */
        size_t b = block_cache[i].bytes;
        if (b == bytes) {
            best = i;
            break;
        }
        size_t d = b > bytes ? b - bytes : bytes - b;
        if (b >= bytes / 2 && b / 2 <= bytes &&
            (best < 0 || d < (block_cache[best].bytes > bytes ? block_cache[best].bytes - bytes
                                                              : bytes - block_cache[best].bytes)))
            best = i;
    }
    if (best >= 0) {
        old = block_cache[best].bytes;
        raw = block_remove(best);
    }
    pthread_mutex_unlock(&block_lock);
    if (raw && old != bytes) {
        void *p = mremap(raw, old, bytes, MREMAP_MAYMOVE);
        if (p == MAP_FAILED) {
            munmap(raw, old);
            return NULL;
        }
        raw = p;
        huge_pages(raw, bytes);
    }
    return raw;
}

/* Keep raw (of bytes) for block_take, or free it. */
static void block_give(void *raw, size_t bytes)
{
    if (!raw || bytes < BLOCK_MIN || bytes > BLOCK_BYTES) {
        block_free(raw, bytes);
        return;
    }
    void *drop[BLOCK_SLOTS + 1];
    size_t dropb[BLOCK_SLOTS + 1];
    int ndrop = 0;
    pthread_mutex_lock(&block_lock);
    while (block_count > 0 && (block_count == BLOCK_SLOTS || block_total + bytes > BLOCK_BYTES)) {
        dropb[ndrop] = block_cache[0].bytes;
        drop[ndrop++] = block_remove(0);
    }
    block_cache[block_count++] = (struct block){raw, bytes};
    block_total += bytes;
    pthread_mutex_unlock(&block_lock);
    for (int i = 0; i < ndrop; i++)
        block_free(drop[i], dropb[i]);
}

/* One view of s less (kept: it was a view an autograd node keeps); s is
 * freed with its last one. */
static void storage_drop(tensor_storage *s, bool kept)
{
    if (kept)
        s->kept--;
    if (--s->refs == 0) {
        addrmap_remove(s->addr_tag);
        if (s->dev.release)
            s->dev.release(&s->dev);
        tensor_init_release(s);
        block_give(s->raw, s->nbytes + TENSOR_ALIGN);
        free(s);
    }
}

void tensor_release(val_obj *o)
{
    tensor *t = (tensor *)o;
    val_unref(t->grad);
    val_unref(t->grad_fn);
    tensor_storage *s = t->storage;
    t->storage = NULL;
    if (s)
        storage_drop(s, t->kept);
}

void tensor_set_data(tensor *t, const tensor *src)
{
    tensor_storage *old = t->storage;
    src->storage->refs++;
    t->storage = src->storage;
    if (t->kept)
        t->storage->kept++;
    storage_drop(old, t->kept);
    t->type = src->type;
    t->ndim = src->ndim;
    for (int i = 0; i < src->ndim; i++) {
        t->shape[i] = src->shape[i];
        t->strides[i] = src->strides[i];
    }
    t->offset = src->offset;
    t->cuda = src->cuda;
}

bool tensor_dtype_ok(dtype t)
{
    return dtype_valid(t) && !dtype_is_ptr(t);
}

/* Row-major strides of a shape. */
static void contiguous_strides(int ndim, const int64_t *shape, int64_t *strides)
{
    int64_t s = 1;
    for (int i = ndim - 1; i >= 0; i--) {
        strides[i] = s;
        s *= shape[i] > 1 ? shape[i] : 1;
    }
}

/* A tensor object over storage s (whose reference it takes). */
static tensor *tensor_wrap(tensor_storage *s, dtype type, int ndim, const int64_t *shape,
                           const int64_t *strides, int64_t offset, bool cuda)
{
    tensor *t = val_obj_new(sizeof *t, VAL_TENSOR, &tensor_type);
    t->storage = s;
    t->type = type;
    t->ndim = ndim;
    for (int i = 0; i < ndim; i++) {
        t->shape[i] = shape[i];
        t->strides[i] = strides[i];
    }
    t->offset = offset;
    t->cuda = cuda;
    t->grad = val_none();
    t->grad_fn = val_none();
    return t;
}

/* A large block (block_alloc maps it fresh) asks for transparent
 * huge pages: its first touch then faults once per 2 MiB instead of once
 * per 4 KiB page.  Full-size temporaries of tens of megabytes come and go
 * with every operation, and their page faults cost more than the work
 * (doc/performance.md, issue 14).  Only the whole 2 MiB pages inside the
 * block; the advice is a hint that a kernel without them ignores. */
enum { HUGE_PAGE = 2 << 20 };

/* Zero the bytes of a block of bytes bytes (a kept one) that are not the
 * nbytes of a tensor's elements: those before its aligned start and
 * those after its end. */
static void clear_outside(void *raw, size_t bytes, size_t nbytes)
{
    unsigned char *b = raw;
    size_t lead = (TENSOR_ALIGN - (uintptr_t)raw % TENSOR_ALIGN) % TENSOR_ALIGN;
    memset(b, 0, lead);
    memset(b + lead + nbytes, 0, bytes - lead - nbytes);
}

static void huge_pages(void *raw, size_t bytes)
{
#ifdef MADV_HUGEPAGE
    if (bytes < 4 * (size_t)HUGE_PAGE)
        return;
    uintptr_t lo = ((uintptr_t)raw + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
    uintptr_t hi = ((uintptr_t)raw + bytes) / HUGE_PAGE * HUGE_PAGE;
    if (hi > lo)
        (void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
#else
    (void)raw, (void)bytes;
#endif
}

/* tensor_new and tensor_new_uninit: zero says whether the elements must
 * start as zeros. */
static tensor *tensor_make(dtype type, int ndim, const int64_t *shape, bool cuda, bool zero,
                           char *err)
{
    if (!tensor_dtype_ok(type)) {
        tensor_err(err, "tensors of dtype %s are not supported",
                   dtype_torch_name(type) ? dtype_torch_name(type) : dtype_name(type));
        return NULL;
    }
    if (ndim < 0 || ndim > TENSOR_MAX_DIMS) {
        tensor_err(err, "tritsim tensors have at most %d dimensions (this one would have %d)",
                   TENSOR_MAX_DIMS, ndim);
        return NULL;
    }
    char buf[200];
    /* Element count, saturated at 2^48 (more than any machine holds);
     * a zero size makes the tensor empty whatever the others are. */
    const uint64_t limit = (uint64_t)1 << 48;
    uint64_t n = 1;
    bool empty = false;
    for (int i = 0; i < ndim; i++) {
        if (shape[i] < 0) {
            tensor_err(err, "Trying to create tensor with negative dimension %lld: %s",
                       (long long)shape[i], shape_text(ndim, shape, buf, sizeof buf));
            return NULL;
        }
        if (shape[i] == 0)
            empty = true;
        else
            n = (uint64_t)shape[i] > limit / n ? limit + 1 : n * (uint64_t)shape[i];
    }
    if (empty)
        n = 0;
    bool too_big = n > limit;
    size_t elsize = (size_t)dtype_size(type);
    size_t nbytes = too_big ? 0 : (size_t)n * elsize;
    size_t alloc = (nbytes + TENSOR_ALIGN - 1) / TENSOR_ALIGN * TENSOR_ALIGN;
    if (alloc == 0)
        alloc = TENSOR_ALIGN;
    /* calloc or mmap, not aligned_alloc + memset: large blocks then come
     * as fresh zero pages that are only touched when used. */
    tensor_storage *s = too_big ? NULL : calloc(1, sizeof *s);   /* every count 0 */
    void *raw = s ? block_take(alloc + TENSOR_ALIGN) : NULL;
    if (raw) {
        /* every byte outside the elements is zero, as in a fresh block */
        if (zero)
            memset(raw, 0, alloc + TENSOR_ALIGN);
        else
            clear_outside(raw, alloc + TENSOR_ALIGN, nbytes);
    } else if (s) {
        raw = block_alloc(alloc + TENSOR_ALIGN);
        if (raw)
            huge_pages(raw, alloc + TENSOR_ALIGN);
    }
    if (!raw) {
        free(s);
        tensor_err(err, "cannot allocate memory for a tensor of shape %s and dtype %s",
                   shape_text(ndim, shape, buf, sizeof buf), dtype_torch_name(type));
        return NULL;
    }
    s->refs = 1;
    s->nbytes = alloc;
    s->size = nbytes;
    s->addr_tag = 0;
    s->raw = raw;
    s->data = (unsigned char *)raw + (TENSOR_ALIGN - (uintptr_t)raw % TENSOR_ALIGN) % TENSOR_ALIGN;
    s->dev = (backend_buffer){.host = s->data, .size = nbytes};
    int64_t strides[TENSOR_MAX_DIMS];
    contiguous_strides(ndim, shape, strides);
    return tensor_wrap(s, type, ndim, shape, strides, 0, cuda);
}

tensor *tensor_new(dtype type, int ndim, const int64_t *shape, bool cuda, char *err)
{
    return tensor_make(type, ndim, shape, cuda, true, err);
}

tensor *tensor_new_uninit(dtype type, int ndim, const int64_t *shape, bool cuda, char *err)
{
    return tensor_make(type, ndim, shape, cuda, false, err);
}

tensor *tensor_full(dtype type, int ndim, const int64_t *shape, dtype_scalar v, bool cuda,
                    char *err)
{
    tensor *t = tensor_new(type, ndim, shape, cuda, err);
    if (t)
        tensor_fill(t, v);
    return t;
}

tensor *tensor_scalar(dtype type, dtype_scalar v, bool cuda)
{
    tensor *t = tensor_new(type, 0, NULL, cuda, NULL);
    if (t)
        dtype_store(type, tensor_data(t), v);
    return t;
}

tensor *tensor_view_of(const tensor *base, int ndim, const int64_t *shape,
                       const int64_t *strides, int64_t offset)
{
    base->storage->refs++;
    return tensor_wrap(base->storage, base->type, ndim, shape, strides, offset, base->cuda);
}

tensor *tensor_view_dtype(const tensor *t, dtype to, char *err)
{
    int64_t shape[TENSOR_MAX_DIMS], strides[TENSOR_MAX_DIMS], offset = t->offset;
    memcpy(shape, t->shape, sizeof shape);
    memcpy(strides, t->strides, sizeof strides);
    int from_size = tensor_elsize(t), to_size = dtype_size(to), last = t->ndim - 1;
    char what[96];
    snprintf(what, sizeof what, "to view %s as %s (different element sizes)",
             tensor_type_name(t->type), tensor_type_name(to));
    if (from_size != to_size && t->ndim == 0) {
        tensor_err(err, "self.dim() cannot be 0 %s", what);
        return NULL;
    }
    if (from_size > to_size) {              /* each element becomes `ratio` */
        int64_t ratio = from_size / to_size;
        if (strides[last] != 1) {
            tensor_err(err, "self.stride(-1) must be 1 %s, but got %lld", what,
                       (long long)strides[last]);
            return NULL;
        }
        for (int i = 0; i < last; i++)
            strides[i] *= ratio;
        shape[last] *= ratio;
        offset *= ratio;
    } else if (from_size < to_size) {       /* `ratio` elements become one */
        int64_t ratio = to_size / from_size;
        if (shape[last] % ratio) {
            tensor_err(err, "self.size(-1) must be divisible by %lld %s, but got %lld",
                       (long long)ratio, what, (long long)shape[last]);
            return NULL;
        }
        if (offset % ratio) {
            tensor_err(err, "self.storage_offset() must be divisible by %lld %s, but got %lld",
                       (long long)ratio, what, (long long)offset);
            return NULL;
        }
        if (strides[last] != 1) {
            tensor_err(err, "self.stride(-1) must be 1 %s, but got %lld", what,
                       (long long)strides[last]);
            return NULL;
        }
        for (int i = 0; i < last; i++) {
            if (strides[i] % ratio) {
                tensor_err(err, "self.stride(%d) must be divisible by %lld %s, but got %lld", i,
                           (long long)ratio, what, (long long)strides[i]);
                return NULL;
            }
            strides[i] /= ratio;
        }
        shape[last] /= ratio;
        offset /= ratio;
    }
    t->storage->refs++;
    return tensor_wrap(t->storage, to, t->ndim, shape, strides, offset, t->cuda);
}

/* ---- elements ---------------------------------------------------------------- */

/* Address of element idx, with no coherence (the callers do it). */
static unsigned char *element_addr(const tensor *t, const int64_t *idx)
{
    int64_t off = t->offset;
    for (int i = 0; i < t->ndim; i++)
        off += idx[i] * t->strides[i];
    return t->storage->data + off * tensor_elsize(t);
}

void *tensor_at(const tensor *t, const int64_t *idx)
{
    tensor_host_write(t->storage);
    unsigned char *p = element_addr(t, idx);
    if (t->storage->dev.init)
        tensor_init_mark_at(t, p);
    return p;
}

dtype_scalar tensor_get(const tensor *t, const int64_t *idx)
{
    tensor_host_read(t->storage);
    const unsigned char *p = element_addr(t, idx);
    if (t->storage->dev.init)
        tensor_init_check_at(t, p);
    return dtype_load(t->type, p);
}

void tensor_set(tensor *t, const int64_t *idx, dtype_scalar v)
{
    tensor_host_write(t->storage);
    unsigned char *p = element_addr(t, idx);
    if (t->storage->dev.init)
        tensor_init_mark_at(t, p);
    dtype_store(t->type, p, v);
}

dtype_scalar tensor_get_flat(const tensor *t, int64_t i)
{
    int64_t idx[TENSOR_MAX_DIMS];
    for (int d = t->ndim - 1; d >= 0; d--) {
        idx[d] = t->shape[d] ? i % t->shape[d] : 0;
        i = t->shape[d] ? i / t->shape[d] : 0;
    }
    return tensor_get(t, idx);
}

bool tensor_item(const tensor *t, dtype_scalar *out, char *err)
{
    int64_t n = tensor_numel(t);
    if (n != 1) {
        tensor_err(err, "a Tensor with %lld elements cannot be converted to Scalar",
                   (long long)n);
        return false;
    }
    *out = dtype_load(t->type, tensor_cdata(t));
    return true;
}

/* ---- the iterator ------------------------------------------------------------- */

void tensor_iter_init(tensor_iter *it, int ndim, const int64_t *shape)
{
    it->ndim = ndim;
    it->nops = 0;
    it->numel = 1;
    for (int i = 0; i < ndim; i++) {
        it->shape[i] = shape[i];
        it->index[i] = 0;
        it->numel *= shape[i];
    }
}

void tensor_iter_add(tensor_iter *it, void *base, const int64_t *byte_strides)
{
    int k = it->nops++;
    it->base[k] = base;
    it->off[k] = 0;
    for (int i = 0; i < it->ndim; i++)
        it->step[k][i] = byte_strides[i];
}

/* t as an operand of it, with no coherence (the callers do it). */
static void iter_add(tensor_iter *it, const tensor *t)
{
    int64_t bs[TENSOR_MAX_DIMS];
    int lead = it->ndim - t->ndim, es = tensor_elsize(t);
    for (int i = 0; i < it->ndim; i++) {
        int d = i - lead;
        bs[i] = d < 0 || t->shape[d] == 1 ? 0 : t->strides[d] * es;
    }
    tensor_iter_add(it, tensor_addr(t), bs);
}

void tensor_iter_add_tensor(tensor_iter *it, const tensor *t)
{
    tensor_host_write(t->storage);
    tensor_init_write(t);
    iter_add(it, t);
}

void tensor_iter_add_src(tensor_iter *it, const tensor *t)
{
    tensor_host_read(t->storage);
    tensor_init_read(t);
    iter_add(it, t);
}

void tensor_iter_next(tensor_iter *it)
{
    for (int i = it->ndim - 1; i >= 0; i--) {
        if (++it->index[i] < it->shape[i]) {
            for (int k = 0; k < it->nops; k++)
                it->off[k] += it->step[k][i];
            return;
        }
        it->index[i] = 0;
        for (int k = 0; k < it->nops; k++)
            it->off[k] -= it->step[k][i] * (it->shape[i] - 1);
    }
}

void tensor_iter_runs(tensor_iter *it, int64_t *len, int64_t *step)
{
    /* drop the dimensions of size 1, then merge dimension i into the one
     * after it where every operand's step over i spans the whole of it */
    int n = 0;
    for (int i = 0; i < it->ndim; i++) {
        if (it->shape[i] == 1 && it->numel != 0)
            continue;
        bool merge = n > 0;
        for (int k = 0; merge && k < it->nops; k++)
            merge = it->step[k][n - 1] == it->step[k][i] * it->shape[i];
        if (merge) {
            it->shape[n - 1] *= it->shape[i];
            for (int k = 0; k < it->nops; k++)
                it->step[k][n - 1] = it->step[k][i];
        } else {
            it->shape[n] = it->shape[i];
            for (int k = 0; k < it->nops; k++)
                it->step[k][n] = it->step[k][i];
            n++;
        }
    }
    if (n == 0) {
        *len = 1;
        for (int k = 0; k < it->nops; k++)
            step[k] = 0;
    } else {
        n--;
        *len = it->shape[n];
        for (int k = 0; k < it->nops; k++)
            step[k] = it->step[k][n];
    }
    it->ndim = n;
    it->numel = *len ? it->numel / *len : 0;
    for (int i = 0; i < n; i++)
        it->index[i] = 0;
}

/* ---- views ------------------------------------------------------------------------ */

bool tensor_wrap_dim(int ndim, int64_t dim, int *out, char *err)
{
    int64_t n = ndim > 0 ? ndim : 1;
    if (dim < -n || dim >= n) {
        tensor_err(err, "Dimension out of range (expected to be in range of [%lld, %lld], "
                   "but got %lld)", (long long)-n, (long long)(n - 1), (long long)dim);
        return false;
    }
    *out = (int)(dim < 0 ? dim + n : dim);
    return true;
}

bool tensor_infer_shape(int ndim, int64_t *shape, int64_t numel, char *err)
{
    char buf[200];
    int infer = -1;
    int64_t known = 1;
    for (int i = 0; i < ndim; i++) {
        if (shape[i] == -1) {
            if (infer >= 0) {
                tensor_err(err, "only one dimension can be inferred");
                return false;
            }
            infer = i;
        } else if (shape[i] < 0) {
            tensor_err(err, "invalid shape dimension %lld", (long long)shape[i]);
            return false;
        } else {
            known *= shape[i];
        }
    }
    if (infer >= 0) {
        if (known == 0) {
            tensor_err(err, "cannot reshape tensor of %lld elements into shape %s because the "
                       "unspecified dimension size -1 can be any value and is ambiguous",
                       (long long)numel, shape_text(ndim, shape, buf, sizeof buf));
            return false;
        }
        if (numel % known == 0) {
            shape[infer] = numel / known;
            return true;
        }
    } else if (known == numel) {
        return true;
    }
    tensor_err(err, "shape '%s' is invalid for input of size %lld",
               shape_text(ndim, shape, buf, sizeof buf), (long long)numel);
    return false;
}

/* torch's computeStride: strides that let the new shape view the old
 * layout, or false when some new dimension would span two separate
 * chunks of memory. */
static bool view_strides(const tensor *t, int ndim, const int64_t *shape, int64_t *strides)
{
    if (t->ndim == 0 || tensor_numel(t) == 0) {
        contiguous_strides(ndim, shape, strides);
        return true;
    }
    int view_d = ndim - 1;
    int64_t chunk_base = t->strides[t->ndim - 1];
    int64_t tensor_numel_ = 1, view_numel = 1;
    for (int d = t->ndim - 1; d >= 0; d--) {
        tensor_numel_ *= t->shape[d];
        if (d == 0 || (t->shape[d - 1] != 1 &&
                       t->strides[d - 1] != tensor_numel_ * chunk_base)) {
            while (view_d >= 0 && (view_numel < tensor_numel_ || shape[view_d] == 1)) {
                strides[view_d] = view_numel * chunk_base;
                view_numel *= shape[view_d];
                view_d--;
            }
            if (view_numel != tensor_numel_)
                return false;
            if (d > 0) {
                chunk_base = t->strides[d - 1];
                tensor_numel_ = 1;
                view_numel = 1;
            }
        }
    }
    return view_d == -1;
}

static bool check_ndim(int ndim, char *err)
{
    if (ndim > TENSOR_MAX_DIMS) {
        tensor_err(err, "tritsim tensors have at most %d dimensions (this one would have %d)",
                   TENSOR_MAX_DIMS, ndim);
        return false;
    }
    return true;
}

/* shape_in with its -1 worked out for t's element count, into shape. */
static bool target_shape(const tensor *t, int ndim, const int64_t *shape_in, int64_t *shape,
                         char *err)
{
    if (!check_ndim(ndim, err))
        return false;
    memcpy(shape, shape_in, sizeof *shape * (size_t)ndim);
    return tensor_infer_shape(ndim, shape, tensor_numel(t), err);
}

tensor *tensor_view(const tensor *t, int ndim, const int64_t *shape_in, char *err)
{
    int64_t shape[TENSOR_MAX_DIMS], strides[TENSOR_MAX_DIMS];
    if (!target_shape(t, ndim, shape_in, shape, err))
        return NULL;
    if (!view_strides(t, ndim, shape, strides)) {
        tensor_err(err, "view size is not compatible with input tensor's size and stride (at "
                   "least one dimension spans across two contiguous subspaces). Use "
                   ".reshape(...) instead.");
        return NULL;
    }
    return tensor_view_of(t, ndim, shape, strides, t->offset);
}

tensor *tensor_reshape(const tensor *t, int ndim, const int64_t *shape_in, char *err)
{
    int64_t shape[TENSOR_MAX_DIMS], strides[TENSOR_MAX_DIMS];
    if (!target_shape(t, ndim, shape_in, shape, err))
        return NULL;
    if (view_strides(t, ndim, shape, strides))
        return tensor_view_of(t, ndim, shape, strides, t->offset);
    tensor *c = tensor_to(t, t->type, t->cuda, err);
    if (!c)
        return NULL;
    tensor *r = tensor_view(c, ndim, shape, err);
    tensor_unref(c);
    return r;
}

tensor *tensor_permute(const tensor *t, int ndims, const int64_t *dims, char *err)
{
    if (ndims != t->ndim) {
        tensor_err(err, "permute(sparse_coo): number of dimensions in the tensor input does not "
                   "match the length of the desired ordering of dimensions i.e. input.dim() = "
                   "%d is not equal to len(dims) = %d", t->ndim, ndims);
        return NULL;
    }
    int64_t shape[TENSOR_MAX_DIMS], strides[TENSOR_MAX_DIMS];
    bool seen[TENSOR_MAX_DIMS] = {false};
    for (int i = 0; i < ndims; i++) {
        int d;
        if (!tensor_wrap_dim(t->ndim, dims[i], &d, err))
            return NULL;
        if (seen[d]) {
            tensor_err(err, "permute(): duplicate dims are not allowed.");
            return NULL;
        }
        seen[d] = true;
        shape[i] = t->shape[d];
        strides[i] = t->strides[d];
    }
    return tensor_view_of(t, t->ndim, shape, strides, t->offset);
}

tensor *tensor_transpose(const tensor *t, int64_t d0, int64_t d1, char *err)
{
    int a, b;
    if (!tensor_wrap_dim(t->ndim, d0, &a, err) || !tensor_wrap_dim(t->ndim, d1, &b, err))
        return NULL;
    int64_t shape[TENSOR_MAX_DIMS], strides[TENSOR_MAX_DIMS];
    memcpy(shape, t->shape, sizeof shape);
    memcpy(strides, t->strides, sizeof strides);
    if (t->ndim > 0) {
        shape[a] = t->shape[b];
        shape[b] = t->shape[a];
        strides[a] = t->strides[b];
        strides[b] = t->strides[a];
    }
    return tensor_view_of(t, t->ndim, shape, strides, t->offset);
}

/* torch's name of a tensor's type in expand's message: torch.FloatTensor */
static const char *legacy_name(dtype t, char *buf, size_t len)
{
    snprintf(buf, len, "torch.%sTensor", tensor_type_name(t));
    return buf;
}

tensor *tensor_expand(const tensor *t, int ndim, const int64_t *shape, char *err)
{
    char b1[200], b2[200], b3[40];
    if (ndim < t->ndim) {
        tensor_err(err, "expand(%s{%s}, size=%s): the number of sizes provided (%d) must be "
                   "greater or equal to the number of dimensions in the tensor (%d)",
                   legacy_name(t->type, b3, sizeof b3),
                   shape_text(t->ndim, t->shape, b1, sizeof b1),
                   shape_text(ndim, shape, b2, sizeof b2), ndim, t->ndim);
        return NULL;
    }
    if (!check_ndim(ndim, err))
        return NULL;
    int64_t nshape[TENSOR_MAX_DIMS], nstrides[TENSOR_MAX_DIMS];
    int lead = ndim - t->ndim;
    for (int i = 0; i < ndim; i++) {
        int d = i - lead;
        int64_t want = shape[i];
        if (d < 0) {
            if (want < 0) {
                tensor_err(err, "The expanded size of the tensor (%lld) isn't allowed in a "
                           "leading, non-existing dimension %d", (long long)want, i);
                return NULL;
            }
            nshape[i] = want;
            nstrides[i] = 0;
            continue;
        }
        if (want == -1)
            want = t->shape[d];
        if (want < 0) {
            tensor_err(err, "Trying to create tensor with negative dimension %lld: %s",
                       (long long)want, shape_text(ndim, shape, b1, sizeof b1));
            return NULL;
        }
        if (t->shape[d] == want) {
            nshape[i] = want;
            nstrides[i] = t->strides[d];
        } else if (t->shape[d] == 1) {
            nshape[i] = want;
            nstrides[i] = 0;
        } else {
            tensor_err(err, "The expanded size of the tensor (%lld) must match the existing "
                       "size (%lld) at non-singleton dimension %d.  Target sizes: %s.  Tensor "
                       "sizes: %s", (long long)want, (long long)t->shape[d], i,
                       shape_text(ndim, shape, b1, sizeof b1),
                       shape_text(t->ndim, t->shape, b2, sizeof b2));
            return NULL;
        }
    }
    return tensor_view_of(t, ndim, nshape, nstrides, t->offset);
}

tensor *tensor_broadcast_to(const tensor *t, int ndim, const int64_t *shape, char *err)
{
    return tensor_expand(t, ndim, shape, err);
}

tensor *tensor_unsqueeze(const tensor *t, int64_t dim, char *err)
{
    int d;
    if (!check_ndim(t->ndim + 1, err) || !tensor_wrap_dim(t->ndim + 1, dim, &d, err))
        return NULL;
    int64_t shape[TENSOR_MAX_DIMS], strides[TENSOR_MAX_DIMS];
    for (int i = 0, j = 0; i <= t->ndim; i++) {
        if (i == d) {
            shape[i] = 1;
            strides[i] = d < t->ndim ? t->shape[d] * t->strides[d] : 1;
        } else {
            shape[i] = t->shape[j];
            strides[i] = t->strides[j];
            j++;
        }
    }
    return tensor_view_of(t, t->ndim + 1, shape, strides, t->offset);
}

tensor *tensor_squeeze(const tensor *t, bool all, int64_t dim, char *err)
{
    int only = -1;
    if (!all && !tensor_wrap_dim(t->ndim, dim, &only, err))
        return NULL;
    int64_t shape[TENSOR_MAX_DIMS], strides[TENSOR_MAX_DIMS];
    int n = 0;
    for (int i = 0; i < t->ndim; i++) {
        bool drop = t->shape[i] == 1 && (all || i == only);
        if (!drop) {
            shape[n] = t->shape[i];
            strides[n] = t->strides[i];
            n++;
        }
    }
    return tensor_view_of(t, n, shape, strides, t->offset);
}

tensor *tensor_flatten(const tensor *t, int64_t start, int64_t end, char *err)
{
    if (t->ndim == 0) {
        int64_t one = 1;
        return tensor_reshape(t, 1, &one, err);
    }
    int s, e;
    if (!tensor_wrap_dim(t->ndim, start, &s, err) || !tensor_wrap_dim(t->ndim, end, &e, err))
        return NULL;
    if (s > e) {
        tensor_err(err, "flatten() has invalid args: start_dim cannot come after end_dim");
        return NULL;
    }
    int64_t shape[TENSOR_MAX_DIMS];
    int n = 0;
    for (int i = 0; i < s; i++)
        shape[n++] = t->shape[i];
    int64_t merged = 1;
    for (int i = s; i <= e; i++)
        merged *= t->shape[i];
    shape[n++] = merged;
    for (int i = e + 1; i < t->ndim; i++)
        shape[n++] = t->shape[i];
    return tensor_reshape(t, n, shape, err);
}

tensor *tensor_select(const tensor *t, int64_t dim, int64_t index, char *err)
{
    char buf[200];
    if (t->ndim == 0) {
        tensor_err(err, "select() cannot be applied to a 0-dim tensor.");
        return NULL;
    }
    int d;
    if (!tensor_wrap_dim(t->ndim, dim, &d, err))
        return NULL;
    int64_t size = t->shape[d];
    if (index < -size || index >= size) {
        tensor_err(err, "select(): index %lld out of range for tensor of size %s at "
                   "dimension %d", (long long)index, shape_text(t->ndim, t->shape, buf, sizeof buf),
                   d);
        return NULL;
    }
    if (index < 0)
        index += size;
    int64_t shape[TENSOR_MAX_DIMS], strides[TENSOR_MAX_DIMS];
    for (int i = 0, j = 0; i < t->ndim; i++)
        if (i != d) {
            shape[j] = t->shape[i];
            strides[j] = t->strides[i];
            j++;
        }
    return tensor_view_of(t, t->ndim - 1, shape, strides, t->offset + index * t->strides[d]);
}

tensor *tensor_slice(const tensor *t, int64_t dim, int64_t start, int64_t stop, int64_t step,
                     char *err)
{
    int d;
    if (!tensor_wrap_dim(t->ndim, dim, &d, err))
        return NULL;
    if (t->ndim == 0) {
        tensor_err(err, "slice() cannot be applied to a 0-dim tensor.");
        return NULL;
    }
    if (step <= 0) {
        tensor_err(err, "step must be greater than zero");
        return NULL;
    }
    int64_t size = t->shape[d];
    if (start < 0)
        start = start + size < 0 ? 0 : start + size;
    if (stop < 0)
        stop = stop + size < 0 ? 0 : stop + size;
    if (start > size)
        start = size;
    if (stop > size)
        stop = size;
    int64_t len = stop > start ? (stop - start + step - 1) / step : 0;
    int64_t shape[TENSOR_MAX_DIMS], strides[TENSOR_MAX_DIMS];
    memcpy(shape, t->shape, sizeof shape);
    memcpy(strides, t->strides, sizeof strides);
    shape[d] = len;
    strides[d] = t->strides[d] * step;
    return tensor_view_of(t, t->ndim, shape, strides, t->offset + start * t->strides[d]);
}

/* ---- copies ---------------------------------------------------------------- */

bool tensor_same_storage(const tensor *a, const tensor *b)
{
    return a->storage == b->storage;
}

dtype_scalar tensor_convert(dtype_scalar v, dtype from, dtype to)
{
    /* c10 converts fp8 through float: its values are float32 values, and
     * float32 is what narrows to fp8, by PyTorch's rules (dtype.h). */
    if (dtype_is_fp8(from) && from != to)
        from = DTYPE_FP32;
    if (!dtype_is_fp8(to) || from == to)
        return dtype_cast(v, from, to);
    float f = (float)dtype_cast(v, from, DTYPE_FP32).f;
    uint8_t b = to == DTYPE_FP8E4NV ? dtype_f32_to_fp8e4nv_torch(f) : dtype_f32_to_fp8e5_torch(f);
    return dtype_load(to, &b);
}

/* One segment of copy_elements' conversions between float dtypes. */
typedef struct conv_job {
    dtype from, to;
} conv_job;

static void convert_seg(void *ctx, unsigned char *const *ptr, const int64_t *step,
                        int64_t first, int64_t n)
{
    (void)first;
    const conv_job *j = ctx;
    tensor_loop_convert(j->to, ptr[0], step[0], j->from, ptr[1], step[1], n);
}

/* dst = src, both of dst's shape already (src maybe broadcast); the
 * conversions between float dtypes go to the host threads (tensor_par.h)
 * unless the two share storage. */
static void copy_elements(tensor *dst, const tensor *src)
{
    tensor_iter it;
    tensor_iter_init(&it, dst->ndim, dst->shape);
    tensor_iter_add_tensor(&it, dst);
    tensor_iter_add_src(&it, src);
    dtype from = src->type, to = dst->type;
    if (from == to) {
        size_t es = (size_t)tensor_elsize(dst);
        if (tensor_is_contiguous(dst) && tensor_is_contiguous(src) &&
            tensor_numel(src) == it.numel) {
            memcpy(tensor_data(dst), tensor_cdata(src), es * (size_t)it.numel);
            return;
        }
        for (int64_t i = 0; i < it.numel; i++, tensor_iter_next(&it))
            memcpy(tensor_iter_ptr(&it, 0), tensor_iter_ptr(&it, 1), es);
        return;
    }
    if (tensor_loop_float(from) && tensor_loop_float(to)) {
        int64_t len, step[TENSOR_ITER_OPS];
        tensor_iter_runs(&it, &len, step);
        conv_job j = {from, to};
        if (tensor_same_storage(dst, src)) {
            /* the order of an overlapping copy is the plain one's */
            for (int64_t r = 0; r < it.numel; r++, tensor_iter_next(&it))
                convert_seg(&j, (unsigned char *[]){tensor_iter_ptr(&it, 0),
                                                      tensor_iter_ptr(&it, 1)}, step, 0, len);
            return;
        }
        tensor_par_segments(&it, len, step, convert_seg, &j);
        return;
    }
    for (int64_t i = 0; i < it.numel; i++, tensor_iter_next(&it))
        dtype_store(to, tensor_iter_ptr(&it, 0),
                    tensor_convert(dtype_load(from, tensor_iter_ptr(&it, 1)), from, to));
}

/* torch's is_non_overlapping_and_dense: the strides, sorted, are those of
 * a contiguous layout of the sizes. */
static bool dense(const tensor *t)
{
    int perm[TENSOR_MAX_DIMS], n = 0;
    for (int i = 0; i < t->ndim; i++)
        if (t->shape[i] >= 2)
            perm[n++] = i;
    for (int i = 1; i < n; i++)          /* insertion sort by stride */
        for (int j = i; j > 0 && t->strides[perm[j]] < t->strides[perm[j - 1]]; j--) {
            int x = perm[j];
            perm[j] = perm[j - 1];
            perm[j - 1] = x;
        }
    int64_t want = 1;
    for (int i = 0; i < n; i++) {
        if (t->strides[perm[i]] != want)
            return false;
        want *= t->shape[perm[i]];
    }
    return true;
}

bool tensor_is_dense(const tensor *t)
{
    return dense(t);
}

bool tensor_partial_overlap(const tensor *a, const tensor *b, char *err)
{
    if (a == b || !tensor_same_storage(a, b) || tensor_numel(a) == 0 || tensor_numel(b) == 0 ||
        !dense(a) || !dense(b))
        return false;
    /* bytes: a view with another dtype (view(dtype)) may share the storage */
    int64_t ea = tensor_elsize(a), eb = tensor_elsize(b);
    int64_t a0 = a->offset * ea, a1 = a0 + tensor_numel(a) * ea;
    int64_t b0 = b->offset * eb, b1 = b0 + tensor_numel(b) * eb;
    bool partial;
    if (a0 == b0 && a1 == b1)
        partial = a->ndim != b->ndim ||
                  memcmp(a->strides, b->strides, sizeof *a->strides * (size_t)a->ndim) != 0;
    else
        partial = a0 < b1 && b0 < a1;
    if (partial)
        tensor_err(err, "unsupported operation: some elements of the input tensor and the "
                   "written-to tensor refer to a single memory location. Please clone() the "
                   "tensor before performing the operation.");
    return partial;
}

bool tensor_internal_overlap(const tensor *t, char *err)
{
    for (int i = 0; i < t->ndim; i++)
        if (t->strides[i] == 0 && t->shape[i] > 1) {
            tensor_err(err, "unsupported operation: more than one element of the written-to "
                       "tensor refers to a single memory location. Please clone() the tensor "
                       "before performing the operation.");
            return true;
        }
    return false;
}

bool tensor_copy_into(tensor *dst, const tensor *src, char *err)
{
    if (tensor_internal_overlap(dst, err) || tensor_partial_overlap(dst, src, err))
        return false;
    tensor *b = tensor_expand(src, dst->ndim, dst->shape, err);
    if (!b)
        return false;
    if (tensor_same_storage(dst, src)) {
        /* Read all of src before writing (overlaps torch allows: the same
         * elements, or layouts too complex to compare). */
        tensor *c = tensor_to(b, b->type, b->cuda, err);
        tensor_unref(b);
        if (!c)
            return false;
        b = c;
    }
    copy_elements(dst, b);
    tensor_unref(b);
    return true;
}

tensor *tensor_contiguous(const tensor *t, char *err)
{
    if (tensor_is_contiguous(t))
        return tensor_ref((tensor *)t);
    return tensor_to(t, t->type, t->cuda, err);
}

/* A copy of t as dtype `to` on the given device, with the strides of t when
 * keep_strides and t is dense, else contiguous. */
static tensor *tensor_copy_as(const tensor *t, dtype to, bool cuda, bool keep_strides,
                              char *err)
{
    if (!tensor_dtype_ok(to)) {
        tensor_err(err, "tensors of dtype %s are not supported",
                   dtype_torch_name(to) ? dtype_torch_name(to) : dtype_name(to));
        return NULL;
    }
    tensor *r;
    if (keep_strides && dense(t) && !tensor_is_contiguous(t)) {
        int64_t n = tensor_numel(t);
        tensor *flat = tensor_new(to, 1, &n, cuda, err);
        if (!flat)
            return NULL;
        r = tensor_view_of(flat, t->ndim, t->shape, t->strides, 0);
        tensor_unref(flat);
    } else {
        r = tensor_new_uninit(to, t->ndim, t->shape, cuda, err);
    }
    if (r)
        copy_elements(r, t);
    return r;
}

tensor *tensor_to(const tensor *t, dtype to, bool cuda, char *err)
{
    return tensor_copy_as(t, to, cuda, false, err);
}

tensor *tensor_to_preserving(const tensor *t, dtype to, bool cuda, char *err)
{
    return tensor_copy_as(t, to, cuda, true, err);
}

void tensor_fill(tensor *t, dtype_scalar v)
{
    unsigned char buf[8];
    size_t es = (size_t)tensor_elsize(t);
    dtype_store(t->type, buf, v);
    tensor_iter it;
    tensor_iter_init(&it, t->ndim, t->shape);
    tensor_iter_add_tensor(&it, t);
    for (int64_t i = 0; i < it.numel; i++, tensor_iter_next(&it))
        memcpy(tensor_iter_ptr(&it, 0), buf, es);
}

/* Is the element at p non-zero (NaN counts as non-zero)? */
static bool nonzero_at(dtype t, const void *p)
{
    dtype_scalar v = dtype_load(t, p);
    if (dtype_is_float(t))
        return v.f != 0.0;
    return v.u != 0;
}

tensor *tensor_nonzero(const tensor *t, char *err)
{
    if (!tensor_no_fp8(t->type, err))
        return NULL;
    tensor_iter it;
    tensor_iter_init(&it, t->ndim, t->shape);
    tensor_iter_add_src(&it, t);
    int64_t count = 0;
    for (int64_t i = 0; i < it.numel; i++, tensor_iter_next(&it))
        count += nonzero_at(t->type, tensor_iter_ptr(&it, 0));
    int64_t shape[2] = {count, t->ndim};
    tensor *r = tensor_new(DTYPE_INT64, 2, shape, t->cuda, err);
    if (!r)
        return NULL;
    int64_t *out = tensor_data(r);
    tensor_iter_init(&it, t->ndim, t->shape);
    tensor_iter_add_src(&it, t);
    for (int64_t i = 0; i < it.numel; i++, tensor_iter_next(&it))
        if (nonzero_at(t->type, tensor_iter_ptr(&it, 0)))
            for (int d = 0; d < t->ndim; d++)
                *out++ = it.index[d];
    return r;
}

/* ---- rearranging copies: flip, roll, repeat ------------------------------------ */

tensor *tensor_flip(const tensor *t, int ndims, const int64_t *dims, char *err)
{
    bool flip[TENSOR_MAX_DIMS] = {false};
    for (int i = 0; i < ndims; i++) {
        int d;
        if (!tensor_wrap_dim(t->ndim, dims[i], &d, err))
            return NULL;
        if (flip[d]) {
            tensor_err(err, "dim %d appears multiple times in the list of dims", d);
            return NULL;
        }
        flip[d] = true;
    }
    tensor *r = tensor_new(t->type, t->ndim, t->shape, t->cuda, err);
    if (!r || tensor_numel(t) == 0)
        return r;
    /* read t from its last element backwards along the flipped dims */
    int64_t es = tensor_elsize(t), steps[TENSOR_MAX_DIMS];
    const unsigned char *base = tensor_cdata(t);
    for (int d = 0; d < t->ndim; d++) {
        steps[d] = t->strides[d] * es;
        if (flip[d]) {
            base += (t->shape[d] - 1) * steps[d];
            steps[d] = -steps[d];
        }
    }
    tensor_iter it;
    tensor_iter_init(&it, r->ndim, r->shape);
    tensor_iter_add_tensor(&it, r);
    tensor_iter_add(&it, (void *)base, steps);
    for (int64_t i = 0; i < it.numel; i++, tensor_iter_next(&it))
        memcpy(tensor_iter_ptr(&it, 0), tensor_iter_ptr(&it, 1), (size_t)es);
    return r;
}

/* dst[..., a:b, ...] = src[..., c:d, ...] along dim d (equal lengths). */
static bool copy_range(tensor *dst, int64_t a, const tensor *src, int64_t c, int64_t len, int d,
                       char *err)
{
    tensor *to = tensor_slice(dst, d, a, a + len, 1, err);
    tensor *from = to ? tensor_slice(src, d, c, c + len, 1, err) : NULL;
    bool ok = from && tensor_copy_into(to, from, err);
    tensor_unref(to);
    tensor_unref(from);
    return ok;
}

tensor *tensor_roll(const tensor *t, int64_t shift, int64_t dim, char *err)
{
    int d;
    if (!tensor_wrap_dim(t->ndim, dim, &d, err))
        return NULL;
    if (t->ndim == 0) {
        tensor_err(err, "dimension specified as %lld but tensor has no dimensions",
                   (long long)dim);
        return NULL;
    }
    tensor *r = tensor_new(t->type, t->ndim, t->shape, t->cuda, err);
    if (!r || tensor_numel(t) == 0)
        return r;
    /* r = cat(t[start:], t[:start]) with start = (size - shift) mod size */
    int64_t size = t->shape[d], s = shift % size;
    int64_t start = s <= 0 ? -s : size - s;
    if (!copy_range(r, 0, t, start, size - start, d, err) ||
        !copy_range(r, size - start, t, 0, start, d, err)) {
        tensor_unref(r);
        return NULL;
    }
    return r;
}

tensor *tensor_repeat(const tensor *t, int n, const int64_t *reps, char *err)
{
    if (n < t->ndim) {
        tensor_err(err, "Number of dimensions of repeat dims can not be smaller than number of "
                   "dimensions of tensor");
        return NULL;
    }
    if (!check_ndim(n, err))
        return NULL;
    int64_t padded[TENSOR_MAX_DIMS], target[TENSOR_MAX_DIMS];
    int lead = n - t->ndim;
    for (int i = 0; i < n; i++) {
        padded[i] = i < lead ? 1 : t->shape[i - lead];
        target[i] = padded[i] * reps[i];
    }
    tensor *r = tensor_new(t->type, n, target, t->cuda, err);
    if (!r || tensor_numel(r) == 0)
        return r;
    /* tile one dimension at a time: cur grows from t's shape to target's */
    tensor *cur = tensor_reshape(t, n, padded, err);
    for (int d = 0; cur && d < n; d++) {
        if (reps[d] == 1)
            continue;
        int64_t shape[TENSOR_MAX_DIMS];
        memcpy(shape, cur->shape, sizeof shape);
        shape[d] = target[d];
        tensor *next = tensor_new(t->type, n, shape, t->cuda, err);
        for (int64_t k = 0; next && k < reps[d]; k++)
            if (!copy_range(next, k * padded[d], cur, 0, padded[d], d, err)) {
                tensor_unref(next);
                next = NULL;
            }
        tensor_unref(cur);
        cur = next;
    }
    bool ok = cur && tensor_copy_into(r, cur, err);
    tensor_unref(cur);
    if (!ok) {
        tensor_unref(r);
        return NULL;
    }
    return r;
}

/* ---- printing ----------------------------------------------------------- */

void tensor_repr(const tensor *t, strbuf *out)
{
    format_array a = {.data = tensor_cdata(t), .type = t->type, .ndim = t->ndim,
                      .shape = t->shape, .strides = t->strides};
    format_torch_opts o = {.device = t->cuda ? "cuda:0" : NULL, .requires_grad = false};
    if (!format_torch(out, &a, &o))
        strbuf_printf(out, "tensor(<%s values>)", dtype_name(t->type));
}

void tensor_host_download(tensor_storage *s)
{
    strbuf why = {0};
    if (!s->dev.download || s->dev.download(&s->dev, &why)) {
        strbuf_free(&why);
        return;
    }
    fflush(stdout);
    fprintf(stderr, "tritsim: error: a tensor could not be copied back from the GPU: %s\n",
            strbuf_cstr(&why));
    strbuf_free(&why);
    exit(1);
}
