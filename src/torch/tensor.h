/* tensor.h - torch tensors on the host: a strided view of a reference-
 * counted block of memory, with a dtype, and the C operations that the
 * torch module (torchmod.c and the torch_*.c files), the kernel launcher
 * and the tests build on.
 *
 * A tensor is a VAL_TENSOR heap value (val.h).  Its elements live in a
 * tensor_storage: malloc'd bytes, 64-byte aligned, shared by every view of
 * them and freed with the last one.  The view is the usual (dtype, shape,
 * strides, offset): element [i0, ..., in] sits at
 *
 *     storage->data + (offset + i0*strides[0] + ... + in*strides[n]) * elsize
 *
 * Strides and offset count elements, never bytes, and are never negative
 * (torch has no negative strides; a broadcast dimension has stride 0).
 * fp16 and bf16 are stored as their 16-bit patterns, fp8 as its byte,
 * bool as one byte (0 or 1).  A storage has no dtype of its own: views of
 * it with another dtype (view(dtype)) read its bytes another way.
 *
 * fp8 (torch.float8_e4m3fn, torch.float8_e5m2) tensors are data only, as
 * in PyTorch 2.11: they are made, converted (by PyTorch's rules,
 * tensor_convert), copied, viewed, indexed and printed, and passed to
 * kernels; the operations that compute on elements refuse them
 * (tensor_no_fp8).
 *
 * Devices.  Every tensor lives in host memory.  `cuda` only remembers that
 * the program asked for device='cuda', so that it prints device='cuda:0'
 * and answers .is_cuda as it would on a GPU: programs written for a GPU run
 * unchanged and print what they print there.  A GPU backend keeps its own
 * copy of a storage that kernels use, through the storage's backend_buffer
 * (`dev`, see backend.h for who sets what): tensor.c fills in its host side
 * when it makes the storage and calls its release hook (set by the backend
 * that made the copy) when it frees it, so the tensor code links against
 * no backend.  Under the CPU backend the hook stays empty and costs
 * nothing.
 *
 * Coherence with a device copy.  Host code reaches a storage's bytes only
 * through the accessors below, and each says whether it reads or writes:
 *
 *     tensor_cdata, tensor_get, tensor_get_flat, tensor_item,
 *     tensor_iter_add_src, tensor_repr            read: tensor_host_read
 *     tensor_data, tensor_at, tensor_set,
 *     tensor_iter_add_tensor                      write (and read):
 *                                                 tensor_host_write
 *
 * tensor_host_read brings the device bytes back first when a launch may
 * have changed them (dev_dirty: download); tensor_host_write does the same
 * (the write may not cover every byte) and then marks the host bytes
 * changed (host_dirty), so the backend uploads them before the next
 * launch.  A storage with no device copy (the CPU backend's, and every
 * tensor no kernel has used) pays one untaken branch.  The accessors that
 * may write are the default: code that only reads takes the read ones,
 * so that reading a kernel's output does not upload it again.  Only the
 * launcher and data_ptr() take the address without either
 * (tensor_addr): the kernel, not the host, uses it.  The access happens
 * when the accessor is called: a pointer kept across a launch is stale.
 *
 * Errors.  Functions that can fail on user input return NULL (or false)
 * and write torch's message into err, a buffer of TENSOR_ERR_LEN bytes;
 * the torch module reports it at the call's span.  Allocation failure of
 * tensor memory is such an error ("cannot allocate ..."), not an abort.
 *
 * Ownership.  Functions returning tensor * return a new reference: drop it
 * with tensor_unref.  Inputs are borrowed.  Values are not thread-safe
 * (val.h); the kernel executor may read and write the *elements* of a
 * tensor from many threads, never its header.
 *
 * ---- For the kernel launcher ---------------------------------------------
 *
 *     const tensor *t = tensor_of(v);        NULL when v is no tensor
 *     tensor_dtype(t)                        element dtype (a scalar dtype)
 *     tensor_addr(t)                         address of element [0, ..., 0]
 *                                            (not synchronised: for kernels)
 *     tensor_extent(t)                       elements reachable from there:
 *                                            1 + sum((shape_i-1)*stride_i),
 *                                            0 for an empty tensor
 *     t->ndim, t->shape[i], t->strides[i]    the view (strides in elements)
 *     tensor_numel(t), tensor_is_contiguous(t)
 *     tensor_buffer(t)                       its storage's device side, for
 *                                            a GPU backend (backend.h)
 *
 * A kernel receives tensor_addr(t) as its pointer; an access at element
 * offset k from it is in bounds iff 0 <= k < tensor_extent(t). */
#ifndef TRITSIM_TENSOR_H
#define TRITSIM_TENSOR_H

#include <stdbool.h>
#include <stdint.h>

#include "backend.h"
#include "dtype.h"
#include "strbuf.h"
#include "val.h"

enum {
    TENSOR_MAX_DIMS = 8,      /* most dimensions a tensor may have */
    TENSOR_ERR_LEN = 256,     /* size of the err buffers below */
    TENSOR_ALIGN = 64,        /* alignment of storage in bytes */
};

typedef struct tensor_storage {
    int refs;                 /* tensors viewing it */
    size_t nbytes;            /* bytes usable (rounded up to TENSOR_ALIGN) */
    size_t size;              /* bytes its elements take (nbytes before rounding) */
    unsigned char *data;      /* TENSOR_ALIGN-aligned, inside raw */
    void *raw;                /* what was allocated */
    int addr_tag;             /* its tag in addrmap.h once its address is known
                                 to the program (tensor_reveal), else 0 */
    unsigned version;         /* in-place writes autograd recorded (x[key] = v):
                                 a node that kept this data checks it in backward */
    int kept;                 /* of refs, the views autograd nodes keep */
    backend_buffer dev;       /* host = data, size = size; the device copy and
                                 its flags belong to a GPU backend (backend.h):
                                 none under the CPU backend */
} tensor_storage;

typedef struct tensor {
    val_obj h;                /* kind VAL_TENSOR */
    tensor_storage *storage;
    dtype type;               /* a scalar dtype */
    int ndim;                 /* 0 .. TENSOR_MAX_DIMS */
    int64_t shape[TENSOR_MAX_DIMS];
    int64_t strides[TENSOR_MAX_DIMS];   /* in elements, >= 0 */
    int64_t offset;           /* of element [0,...,0], in elements */
    bool cuda;                /* made with device='cuda' (prints cuda:0) */
    /* autograd (autograd.c): requires_grad is set on leaves that want a
     * .grad and on results of recorded operations, which have a grad_fn
     * (an autograd node); grad is a leaf's .grad.  Views made by the
     * functions below have none of them (they are detached). */
    bool requires_grad;
    val grad;                 /* a tensor, or VAL_NONE */
    val grad_fn;              /* an autograd node, or VAL_NONE */
    int grad_index;           /* which output of grad_fn this is */
    bool kept;                /* a view an autograd node keeps (storage->kept) */
    bool param;               /* a torch.nn.Parameter (prints "Parameter
                                 containing:"); views and results are not */
    /* A complex tensor (torch_complex.c): its view is that of
     * torch.view_as_real(t), the last dimension (size 2, stride 1) holding
     * the real and imaginary parts, type the parts' dtype (fp32 for
     * complex64, fp64 for complex128); its value type is
     * torch_complex_hooks.  The functions of this header see such a tensor
     * as the real one it views: only torch_complex.c gives it meaning. */
    bool cplx;
} tensor;

/* Is t complex (its dimensions are t->ndim - 1 and its last holds the
 * parts)? */
static inline bool tensor_is_complex(const tensor *t) { return t->cplx; }

/* torch.complex32/64/128 as VAL_DTYPE values: this flag over the dtype of
 * the parts (fp16, fp32, fp64).  They are host values only: never a
 * kernel's dtype, never a tensor's type field. */
enum { TENSOR_DTYPE_COMPLEX = 0x20 };
static inline bool tensor_dtype_id_complex(int id) { return (id & TENSOR_DTYPE_COMPLEX) != 0; }

/* x.data = src: t becomes another view of src's elements (src's storage,
 * dtype, shape, strides, offset and device), keeping its own autograd
 * state; what torch.nn.Module.to() does to its parameters. */
void tensor_set_data(tensor *t, const tensor *src);

/* ---- the launcher's view ------------------------------------------------- */

/* The tensor v holds (borrowed), or NULL when v is not a tensor. */
/* Write an error message (printf-style, at most TENSOR_ERR_LEN bytes) to
 * err, the buffer the tensor functions take; nothing when err is NULL. */
void tensor_err(char *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

tensor *tensor_of(val v);
static inline dtype tensor_dtype(const tensor *t) { return t->type; }

/* ---- coherence with a device copy (see the top) ------------------------------ */

/* The device bytes of s back into host memory (tensor.c): a failure of the
 * device here has nowhere to go but the user, so it ends the program with
 * a message after flushing the output written so far. */
void tensor_host_download(tensor_storage *s);

/* Before host code reads s's bytes. */
static inline void tensor_host_read(tensor_storage *s)
{
    if (__builtin_expect(s->dev.dev_dirty, 0))
        tensor_host_download(s);
}
/* Before host code writes s's bytes (or may: a pointer it can write
 * through). */
static inline void tensor_host_write(tensor_storage *s)
{
    if (__builtin_expect(s->dev.copy != NULL, 0)) {
        tensor_host_read(s);
        s->dev.host_dirty = true;
    }
}

/* ---- --initcheck (tensor_init.c) ---------------------------------------------
 * A storage from torch.empty and its kin, made while the option is on,
 * carries a bitmap of the bytes written (backend_buffer.init); the
 * accessors here check it before host code reads elements and mark
 * elements written when host code writes them (the ones that may write
 * count as writing the whole view).  A read of elements never written
 * calls tensor_init_fail (set by the torch module: it reports at the
 * running statement and ends the run) with the view and the row-major
 * index of the first such element in it. */
extern void (*tensor_init_fail)(const tensor *t, int64_t flat);
/* t's storage (fresh, nothing written yet) starts unwritten; from says
 * where it was made ("torch.empty at prog.tk:5:5"), or NULL. */
void tensor_init_unwritten(tensor *t, const char *from);
/* Free s's bitmap (with the storage). */
void tensor_init_release(tensor_storage *s);
/* Check (or mark) every element of view t / the element at p. */
void tensor_init_check(const tensor *t);
void tensor_init_mark(const tensor *t);
void tensor_init_check_at(const tensor *t, const void *p);
void tensor_init_mark_at(const tensor *t, const void *p);

static inline void tensor_init_read(const tensor *t)
{
    if (__builtin_expect(t->storage->dev.init != NULL, 0))
        tensor_init_check(t);
}
static inline void tensor_init_write(const tensor *t)
{
    if (__builtin_expect(t->storage->dev.init != NULL, 0))
        tensor_init_mark(t);
}

/* Address of element [0, ..., 0] of the view, for a kernel: no coherence
 * (the launcher passes the storage's buffer with it). */
static inline void *tensor_addr(const tensor *t)
{
    return t->storage->data + t->offset * dtype_size(t->type);
}
/* The same for host code that reads the elements (tensor_host_read)... */
static inline const void *tensor_cdata(const tensor *t)
{
    tensor_host_read(t->storage);
    tensor_init_read(t);
    return tensor_addr(t);
}
/* ...and for host code that writes them, or may (tensor_host_write). */
static inline void *tensor_data(const tensor *t)
{
    tensor_host_write(t->storage);
    tensor_init_write(t);
    return tensor_addr(t);
}
/* The address of element [0, ..., 0] as the program may see it
 * (Tensor.data_ptr(), a TensorDescriptor's base): the storage joins the
 * address registry (addrmap.h), so that a kernel can turn the address back
 * into a pointer, checked against the storage.  A tensor with no elements
 * gives its address too but registers nothing.  false (with a message in
 * err) when the registry is full. */
bool tensor_reveal(const tensor *t, uint64_t *addr, char *err);
/* The device sides of the storages whose address the program took
 * (tensor_reveal), by increasing address, into out (room for max): how
 * many there are (backend_launch.revealed). */
int tensor_revealed_buffers(backend_buffer **out, int max);
/* The device side of t's storage, passed to backends with a pointer
 * argument (backend_arg.buffer). */
static inline backend_buffer *tensor_buffer(const tensor *t) { return &t->storage->dev; }
/* Elements reachable from tensor_data: 1 + sum((shape_i - 1) * stride_i),
 * or 0 when the tensor has no elements. */
int64_t tensor_extent(const tensor *t);
/* Product of the shape (1 for a 0-d tensor). */
int64_t tensor_numel(const tensor *t);
/* torch's is_contiguous(): row-major with no gaps (size-1 dimensions may
 * have any stride; an empty tensor is contiguous). */
bool tensor_is_contiguous(const tensor *t);
/* Bytes per element. */
static inline int tensor_elsize(const tensor *t) { return dtype_size(t->type); }

/* ---- the value type --------------------------------------------------------- */

/* The hooks through which the evaluator uses tensors (attributes, methods,
 * indexing, operators, printing), defined in torch_tensor.c. */
extern const val_type tensor_type;
/* The type's free hook: drops the tensor's reference to its storage. */
void tensor_release(val_obj *o);

/* ---- references ------------------------------------------------------------- */

static inline tensor *tensor_ref(tensor *t) { val_ref(val_of(t)); return t; }
static inline void tensor_unref(tensor *t) { if (t) val_unref(val_of(t)); }
/* The value of t, taking over the caller's reference. */
static inline val tensor_val(tensor *t) { return val_of(t); }

/* ---- creation --------------------------------------------------------------- */

/* Whether tensors of dtype t can be made (every scalar dtype). */
bool tensor_dtype_ok(dtype t);

/* A contiguous tensor of the given shape, every element zero (torch.empty
 * gives zeros too: reading "uninitialised" memory is never useful here).
 * Fails on a negative size, more than TENSOR_MAX_DIMS dimensions, an
 * unsupported dtype, or when the memory cannot be allocated. */
tensor *tensor_new(dtype t, int ndim, const int64_t *shape, bool cuda, char *err);
/* The same with elements of no particular value (a kept block may hold an
 * earlier tensor's), for a result that writes every element before it is
 * read; the bytes around the elements are zero. */
tensor *tensor_new_uninit(dtype t, int ndim, const int64_t *shape, bool cuda, char *err);
/* The same filled with v (v canonical for dtype t, dtype.h). */
tensor *tensor_full(dtype t, int ndim, const int64_t *shape, dtype_scalar v, bool cuda,
                    char *err);
/* A 0-d tensor holding v; cannot fail for a supported dtype. */
tensor *tensor_scalar(dtype t, dtype_scalar v, bool cuda);
/* A view of base's storage with its own shape, strides and offset (same
 * dtype and device).  The caller guarantees the view stays inside the
 * storage. */
tensor *tensor_view_of(const tensor *base, int ndim, const int64_t *shape,
                       const int64_t *strides, int64_t offset);

/* view(dtype): the same bytes read as dtype to, as torch's view_dtype.  An
 * element size that differs scales the last dimension, which must have
 * stride 1 (and, to a wider type, a size, an offset and other strides
 * divisible by the ratio); a 0-d tensor cannot change its element size.
 * NULL with torch's message otherwise. */
tensor *tensor_view_dtype(const tensor *t, dtype to, char *err);

/* ---- elements ------------------------------------------------------------ */

/* Address of element idx (ndim indices, each in range), to write. */
void *tensor_at(const tensor *t, const int64_t *idx);
dtype_scalar tensor_get(const tensor *t, const int64_t *idx);
void tensor_set(tensor *t, const int64_t *idx, dtype_scalar v);
/* Element number i of the view in row-major order (0 <= i < numel). */
dtype_scalar tensor_get_flat(const tensor *t, int64_t i);
/* The only element of a one-element tensor (any shape), else false with
 * torch's message. */
bool tensor_item(const tensor *t, dtype_scalar *out, char *err);

/* Walks a shape in row-major order, keeping the byte offset of the current
 * element in each of up to TENSOR_ITER_OPS operands (byte strides, 0 for
 * broadcast dimensions):
 *
 *     tensor_iter it;
 *     tensor_iter_init(&it, t->ndim, t->shape);
 *     tensor_iter_add_tensor(&it, t);
 *     for (int64_t i = 0; i < it.numel; i++, tensor_iter_next(&it))
 *         use(tensor_iter_ptr(&it, 0));
 *
 * The iterator keeps integer offsets rather than moving pointers: GCC 12's
 * mod/ref analysis at -O2 assumed tensor_iter_next left pointer fields
 * unchanged and hoisted them out of such loops. */
enum { TENSOR_ITER_OPS = 4 };
typedef struct tensor_iter {
    int ndim, nops;
    int64_t numel;
    int64_t shape[TENSOR_MAX_DIMS], index[TENSOR_MAX_DIMS];
    int64_t step[TENSOR_ITER_OPS][TENSOR_MAX_DIMS];    /* bytes */
    unsigned char *base[TENSOR_ITER_OPS];              /* element [0, ...] */
    int64_t off[TENSOR_ITER_OPS];                      /* bytes from base */
} tensor_iter;
/* Address of operand k's current element. */
static inline unsigned char *tensor_iter_ptr(const tensor_iter *it, int k)
{
    return it->base[k] + it->off[k];
}
void tensor_iter_init(tensor_iter *it, int ndim, const int64_t *shape);
/* Add an operand: its first element and its strides in bytes (ndim of them,
 * aligned to the iterator's shape). */
void tensor_iter_add(tensor_iter *it, void *base, const int64_t *byte_strides);
/* Add tensor t, broadcast to the iterator's shape (t's dimensions align to
 * the last ones; the shapes must be broadcast-compatible), to write (or
 * read and write) its elements (tensor_host_write)... */
void tensor_iter_add_tensor(tensor_iter *it, const tensor *t);
/* ...or only to read them (tensor_host_read). */
void tensor_iter_add_src(tensor_iter *it, const tensor *t);
void tensor_iter_next(tensor_iter *it);
/* Cut the walk into runs for tight loops (tensor_loops.h): once every
 * operand is added, merge the dimensions that every operand walks as one
 * and take the last one off the iterator as the run, of *len elements with
 * operand k's byte stride in step[k].  The iterator then walks the starts
 * of the runs, it.numel of them (0 when the shape has no elements):
 *
 *     int64_t len, step[TENSOR_ITER_OPS];
 *     tensor_iter_runs(&it, &len, step);
 *     for (int64_t r = 0; r < it.numel; r++, tensor_iter_next(&it))
 *         loop(tensor_iter_ptr(&it, 0), step[0], len);
 */
void tensor_iter_runs(tensor_iter *it, int64_t *len, int64_t *step);

/* ---- views (share storage) ----------------------------------------------------- */

/* Wrap dim into [0, ndim) as torch does (a 0-d tensor accepts -1 and 0);
 * false with "Dimension out of range (expected to be in range of [-2, 1],
 * but got 2)". */
bool tensor_wrap_dim(int ndim, int64_t dim, int *out, char *err);
/* Resolve one -1 in shape for a tensor of numel elements, checking sizes
 * (torch's infer_size: "shape '[3, 5]' is invalid for input of size 12"). */
bool tensor_infer_shape(int ndim, int64_t *shape, int64_t numel, char *err);

/* view(*shape): shape may hold one -1; fails when the strides do not allow
 * it ("view size is not compatible with input tensor's size and stride
 * ... Use .reshape(...) instead."). */
tensor *tensor_view(const tensor *t, int ndim, const int64_t *shape, char *err);
/* reshape: a view when possible, else a contiguous copy. */
tensor *tensor_reshape(const tensor *t, int ndim, const int64_t *shape, char *err);
tensor *tensor_permute(const tensor *t, int ndims, const int64_t *dims, char *err);
tensor *tensor_transpose(const tensor *t, int64_t d0, int64_t d1, char *err);
/* expand(*sizes): -1 keeps a size; new dimensions go in front. */
tensor *tensor_expand(const tensor *t, int ndim, const int64_t *shape, char *err);
tensor *tensor_unsqueeze(const tensor *t, int64_t dim, char *err);
/* squeeze(dim) removes dimension dim if its size is 1; squeeze() (all
 * true) removes every size-1 dimension. */
tensor *tensor_squeeze(const tensor *t, bool all, int64_t dim, char *err);
/* flatten(start, end): a view when possible, else a copy; a 0-d tensor
 * gives shape (1,). */
tensor *tensor_flatten(const tensor *t, int64_t start, int64_t end, char *err);
/* t[..., index, ...] at dimension dim (index may be negative). */
tensor *tensor_select(const tensor *t, int64_t dim, int64_t index, char *err);
/* t[..., start:stop:step, ...] at dimension dim with Python's slice rules
 * (negative bounds count from the end, out-of-range bounds are clamped);
 * step must be positive. */
tensor *tensor_slice(const tensor *t, int64_t dim, int64_t start, int64_t stop,
                     int64_t step, char *err);
/* The broadcast of t to shape, as a view (stride 0 where t has size 1),
 * or NULL with torch's expand message. */
tensor *tensor_broadcast_to(const tensor *t, int ndim, const int64_t *shape, char *err);

/* ---- copies ---------------------------------------------------------------- */

/* t itself (a new reference) when contiguous, else a contiguous copy. */
tensor *tensor_contiguous(const tensor *t, char *err);
/* One element converted as torch converts it: dtype_cast's rules, except
 * fp8, which c10 converts through float32 (fp8 <-> ints included, which
 * Triton refuses) and narrows without saturating (dtype_f32_to_fp8*_torch:
 * past the range, e4m3fn gives NaN and e5m2 infinity). */
dtype_scalar tensor_convert(dtype_scalar v, dtype from, dtype to);
/* A contiguous copy of t converted to dtype to (tensor_convert) on the
 * given device; the same dtype gives a plain copy (clone). */
tensor *tensor_to(const tensor *t, dtype to, bool cuda, char *err);
/* As tensor_to, but as torch's .to() (memory_format=torch.preserve_format):
 * a dense, non-contiguous t (a permuted layout, e.g. a channel-last image)
 * keeps its strides. */
tensor *tensor_to_preserving(const tensor *t, dtype to, bool cuda, char *err);
/* torch's is_non_overlapping_and_dense: t's elements fill a block of
 * memory exactly, in some order of its dimensions. */
bool tensor_is_dense(const tensor *t);
/* dst[...] = src: src is broadcast to dst's shape and converted to dst's
 * dtype; an src sharing dst's storage is read in full first.  false with
 * torch's message when the shapes do not broadcast or the two overlap
 * partially (tensor_partial_overlap). */
bool tensor_copy_into(tensor *dst, const tensor *src, char *err);
/* Every element of t set to v (canonical for t's dtype). */
void tensor_fill(tensor *t, dtype_scalar v);
/* Whether a and b use the same storage. */
bool tensor_same_storage(const tensor *a, const tensor *b);
/* torch's check before writing a from b: true (with torch's "unsupported
 * operation: some elements of the input tensor and the written-to tensor
 * refer to a single memory location..." in err) when both are dense
 * layouts of one storage that overlap without being the same elements in
 * the same order.  tensor_copy_into and tensor_binary_inplace refuse such
 * pairs, as torch does. */
bool tensor_partial_overlap(const tensor *a, const tensor *b, char *err);
/* Whether several elements of t share memory (a broadcast dimension):
 * torch refuses to write such a tensor ("unsupported operation: more than
 * one element of the written-to tensor refers to a single memory
 * location..." in err). */
bool tensor_internal_overlap(const tensor *t, char *err);
/* The indices of the non-zero elements: an int64 tensor of shape
 * (count, ndim). */
tensor *tensor_nonzero(const tensor *t, char *err);

/* ---- rearranging copies (contiguous results) ---------------------------------- */

/* torch.flip(t, dims): the elements in reverse order along each of dims
 * ("dim 0 appears multiple times in the list of dims"). */
tensor *tensor_flip(const tensor *t, int ndims, const int64_t *dims, char *err);
/* torch.roll(t, shift, dim) along one dimension: element i moves to
 * (i + shift) mod size. */
tensor *tensor_roll(const tensor *t, int64_t shift, int64_t dim, char *err);
/* t.repeat(*reps): t tiled reps[i] times along dimension i; n may exceed
 * t's dimensions (leading dimensions of size 1 are added first). */
tensor *tensor_repeat(const tensor *t, int n, const int64_t *reps, char *err);

/* ---- printing ----------------------------------------------------------- */

/* repr(t) as PyTorch prints it (format.h), with device='cuda:0' when t was
 * made on cuda and the dtype when it is not a default one. */
void tensor_repr(const tensor *t, strbuf *out);
/* Shape as torch writes it in messages: "[3, 4]". */
void tensor_shape_str(int ndim, const int64_t *shape, strbuf *out);

/* ---- type promotion (tensor_ops.c) ---------------------------------------- */

/* One operand of an elementwise operation: a tensor, or a Python number
 * that takes part in type promotion as torch's "wrapped numbers" do (it
 * never widens a tensor of its own category: int32 tensor + 1 is int32,
 * float16 tensor + 0.5 is float16, int tensor + 0.5 is float32). */
typedef struct tensor_operand {
    const tensor *t;        /* NULL for a number */
    dtype type;             /* a number: INT1 (bool), INT64 or FP64 */
    dtype_scalar value;     /* a number's value (canonical for type) */
} tensor_operand;

static inline tensor_operand tensor_operand_of(const tensor *t)
{
    tensor_operand o = {t, t->type, {0}};
    return o;
}
tensor_operand tensor_operand_int(int64_t v);
tensor_operand tensor_operand_float(double v);
tensor_operand tensor_operand_bool(bool v);

/* torch.promote_types: bool < ints < floats; uint8 + int8 -> int16;
 * float16 + bfloat16 -> float32.  uint16/32/64 promote only with
 * themselves, bool and floats (as in torch); else DTYPE_INVALID + err. */
dtype tensor_promote_types(dtype a, dtype b, char *err);
/* torch.result_type of n operands: dimensioned tensors first, then 0-d
 * tensors, then numbers (ints count as int64, floats as float32), each
 * group taking part only when its category is higher. */
dtype tensor_result_type(int n, const tensor_operand *ops, char *err);
/* The operations that compute on elements (arithmetic, comparisons, math
 * functions, reductions, products, where, nonzero) call this first: false,
 * with a message that says to convert, when t is an fp8 dtype.  PyTorch
 * 2.11 implements almost none of them for fp8 ("... not implemented for
 * 'Float8_e4m3fn'"); tritsim refuses them all rather than guess which. */
bool tensor_no_fp8(dtype t, char *err);
/* torch.can_cast(from, to): no float -> int, no non-bool -> bool. */
bool tensor_can_cast(dtype from, dtype to);
/* torch's C++ name of a dtype in messages: "Float", "Long", "Half",
 * "BFloat16", "Bool", "Byte", "Char", "Short", "Int", "Double". */
const char *tensor_type_name(dtype t);
/* Broadcast two shapes as torch does; false with "The size of tensor a (3)
 * must match the size of tensor b (4) at non-singleton dimension 0". */
bool tensor_broadcast_shapes(int na, const int64_t *a, int nb, const int64_t *b,
                             int *nout, int64_t *out, char *err);

/* ---- elementwise operations (tensor_ops.c) --------------------------------- */

typedef enum tensor_binop {
    TENSOR_ADD, TENSOR_SUB, TENSOR_MUL,
    TENSOR_DIV,         /* true division: ints give float32 */
    TENSOR_FLOORDIV,    /* floor division, Python signs */
    TENSOR_MOD,         /* remainder with the divisor's sign (Python) */
    TENSOR_POW,
    TENSOR_AND, TENSOR_OR, TENSOR_XOR,      /* bools and ints only */
    TENSOR_SHL, TENSOR_SHR,
    TENSOR_EQ, TENSOR_NE, TENSOR_LT, TENSOR_LE, TENSOR_GT, TENSOR_GE,
    TENSOR_MAXIMUM, TENSOR_MINIMUM,         /* NaN propagates */
    TENSOR_ATAN2,       /* ints give float32 */
    TENSOR_HYPOT,       /* floats only */
} tensor_binop;

/* a op b with broadcasting and torch's promotion (comparisons give bool).
 * Integer // and % by zero fail with "ZeroDivisionError". */
tensor *tensor_binary(tensor_binop op, tensor_operand a, tensor_operand b, char *err);
/* self op= b in place: the result type must be castable to self's dtype
 * ("result type Float can't be cast to the desired output type Long") and
 * b must broadcast to self's shape. */
bool tensor_binary_inplace(tensor_binop op, tensor *self, tensor_operand b, char *err);

typedef enum tensor_unop {
    TENSOR_NEG, TENSOR_ABS, TENSOR_INVERT,  /* ~: not for bools, bitwise for ints */
    TENSOR_EXP, TENSOR_EXP2, TENSOR_LOG, TENSOR_LOG2, TENSOR_SQRT, TENSOR_RSQRT,
    TENSOR_SIN, TENSOR_COS, TENSOR_TANH, TENSOR_SIGMOID,
    TENSOR_TAN, TENSOR_ASIN, TENSOR_ACOS, TENSOR_ATAN, TENSOR_SINH, TENSOR_COSH,
    TENSOR_ASINH, TENSOR_ACOSH, TENSOR_ATANH, TENSOR_EXPM1, TENSOR_LOG10, TENSOR_LOG1P,
    TENSOR_ERF, TENSOR_ERFC, TENSOR_ERFINV, TENSOR_LGAMMA,
    TENSOR_RELU, TENSOR_GELU, TENSOR_GELU_TANH, TENSOR_SILU,
    TENSOR_FLOOR, TENSOR_CEIL, TENSOR_ROUND, TENSOR_TRUNC,
    TENSOR_ISNAN, TENSOR_ISINF, TENSOR_ISFINITE,   /* give bool */
} tensor_unop;

/* op(t).  Float functions of int or bool tensors give float32. */
tensor *tensor_unary(tensor_unop op, const tensor *t, char *err);
/* torch.where(cond, a, b): cond is a bool tensor; the result has the
 * promoted type of a and b and the broadcast shape of all three. */
tensor *tensor_where(const tensor *cond, tensor_operand a, tensor_operand b, char *err);
/* torch.clamp(t, lo, hi): either bound may be NULL (not both); the result
 * has the promoted type of t and the bounds; NaN stays NaN. */
tensor *tensor_clamp(const tensor *t, const tensor_operand *lo, const tensor_operand *hi,
                     char *err);

/* ---- reductions (tensor_reduce.c) ------------------------------------------ */

typedef enum tensor_reduce_op {
    TENSOR_SUM, TENSOR_PROD, TENSOR_MEAN, TENSOR_AMAX, TENSOR_AMIN,
    TENSOR_ARGMAX, TENSOR_ARGMIN, TENSOR_ALL, TENSOR_ANY,
} tensor_reduce_op;

/* Reduce over ndims dimensions dims (dims NULL: every dimension).  sum and
 * prod of bools and ints give int64, of floats their dtype (accumulated in
 * double); mean needs a float dtype; all/any give bool; argmax/argmin give
 * int64 (over all dimensions: the row-major flat index) and take at most
 * one dimension.  out_type, when not DTYPE_INVALID, is the dtype= argument
 * (the input is converted to it first).  NaN wins max/min/argmax/argmin. */
tensor *tensor_reduce(tensor_reduce_op op, const tensor *t, int ndims, const int64_t *dims,
                      bool keepdim, dtype out_type, char *err);
/* torch.max(t, dim) / torch.min(t, dim): values and int64 indices. */
bool tensor_max_dim(bool is_max, const tensor *t, int64_t dim, bool keepdim,
                    tensor **values, tensor **indices, char *err);
/* softmax / log_softmax along dim, computed in double; out_type as above
 * (DTYPE_INVALID keeps a float dtype; ints are an error, as in torch). */
tensor *tensor_softmax(const tensor *t, int64_t dim, bool log, dtype out_type, char *err);
/* Cumulative sum along dim (ints give int64). */
tensor *tensor_cumsum(const tensor *t, int64_t dim, char *err);
/* Cumulative product along dim (ints give int64, wrapping). */
tensor *tensor_cumprod(const tensor *t, int64_t dim, char *err);

/* ---- matrix products (tensor_matmul.c) ------------------------------------- */

/* torch.matmul: 1-D x 1-D dot, 2-D mm, 1-D/2-D mixes, batched with
 * broadcast batch dimensions.  float32 / float64 through cblas; float16 and
 * bfloat16 computed in float32 and rounded; ints with exact wrap-around
 * sums.  Both operands must have the same dtype (as in torch). */
tensor *tensor_matmul(const tensor *a, const tensor *b, char *err);
/* torch.mm (2-D only) and torch.bmm (3-D only, equal batch sizes). */
tensor *tensor_mm(const tensor *a, const tensor *b, char *err);
tensor *tensor_bmm(const tensor *a, const tensor *b, char *err);

/* ---- random numbers (tensor_random.c) -------------------------------------- */

/* One process-wide generator (xoshiro256**, seeded through splitmix64).
 * The numbers do not match PyTorch's bits; a seed always gives the same
 * sequence.  Before any manual_seed the seed is 67280421310721, torch's
 * default. */
void tensor_manual_seed(uint64_t seed);
uint64_t tensor_initial_seed(void);
/* Fill a float tensor with uniform [lo, hi) / normal(mean, std) numbers
 * (Box-Muller on doubles), or an int tensor with ints in [low, high). */
void tensor_fill_uniform(tensor *t, double lo, double hi);
void tensor_fill_normal(tensor *t, double mean, double std);
/* Whether tensor_fill_normal may use its AVX2 path (the same numbers; on
 * by default, where the processor has it), for tests. */
void tensor_random_set_simd(bool on);
void tensor_fill_randint(tensor *t, int64_t low, int64_t high);
/* A random permutation of 0..n-1 into an int64 tensor of shape (n,). */
void tensor_fill_randperm(tensor *t);

#endif
