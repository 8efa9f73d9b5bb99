/* torch_index.c - x[key] and x[key] = value for tensors, with torch's
 * (numpy's) rules.
 *
 * Basic indexing - ints, slices with positive steps, None, Ellipsis -
 * gives a view sharing storage.  Advanced indexing - int tensors, bool
 * masks, lists - gives a copy when read and scatters when written.  Both
 * go through one plan: the key is first applied as a view V in which every
 * advanced index keeps its dimension; the advanced indices are then
 * broadcast together to a shape B, and the result has B in place of their
 * dimensions (where the first of them was when they are adjacent, in front
 * otherwise).  For advanced keys the plan lists the storage offset of
 * every result element, which reading gathers and writing scatters. */
#include "torch_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef enum ix_kind { IX_INT, IX_SLICE, IX_NONE, IX_ELLIPSIS, IX_TENSOR } ix_kind;

/* One item of a key. */
typedef struct ix {
    ix_kind kind;
    int64_t i;                      /* IX_INT */
    int64_t start, stop, step;      /* IX_SLICE, Python's defaults resolved later */
    bool has_start, has_stop;
    tensor *t;                      /* IX_TENSOR: owned; int64 or bool */
} ix;

enum { KEY_MAX = 32 };

typedef struct key {
    ix items[KEY_MAX];
    int n;
} key;

static void key_free(key *k)
{
    for (int i = 0; i < k->n; i++)
        tensor_unref(k->items[i].t);
}

static bool slice_bound(host *h, val v, src_span at, bool *given, int64_t *out)
{
    *given = v.kind != VAL_NONE;
    if (!*given || torch_index_int(v, out))
        return true;
    host_raise(h, HOST_EXC_TYPE, at,
               "slice indices must be integers or None or have an __index__ method "
               "(got %s)", val_type_name(v));
    return false;
}

/* One item of the key as an ix. */
static bool parse_item(host *h, val v, src_span at, ix *out)
{
    memset(out, 0, sizeof *out);
    switch (v.kind) {
    case VAL_INT:
        out->kind = IX_INT;
        out->i = v.u.i;
        return true;
    case VAL_NONE:
        out->kind = IX_NONE;
        return true;
    case VAL_ELLIPSIS:
        out->kind = IX_ELLIPSIS;
        return true;
    case VAL_SLICE: {
        const val_slice *s = (const val_slice *)v.u.o;
        bool has_step;
        out->kind = IX_SLICE;
        out->step = 1;
        if (!slice_bound(h, s->start, at, &out->has_start, &out->start) ||
            !slice_bound(h, s->stop, at, &out->has_stop, &out->stop) ||
            !slice_bound(h, s->step, at, &has_step, &out->step))
            return false;
        if (!has_step)
            out->step = 1;
        return true;
    }
    case VAL_LIST:
    case VAL_TENSOR: {
        tensor *t = v.kind == VAL_LIST ? torch_from_data(h, v, DTYPE_INVALID, false, at)
                                       : tensor_ref(tensor_of(v));
        if (!t)
            return false;
        if (t->type == DTYPE_UINT8 || t->type == DTYPE_INT1) {
            if (t->ndim == 0) {
                tensor_unref(t);
                host_error(h, at, "indexing with a 0-d bool tensor is not supported in "
                           "tritsim");
                return false;
            }
        } else if (dtype_is_float(t->type)) {
            tensor_unref(t);
            host_raise(h, HOST_EXC_INDEX, at,
                       "tensors used as indices must be long, int, byte or bool tensors");
            return false;
        } else if (t->ndim == 0) {
            /* a 0-d int tensor indexes like an int */
            out->kind = IX_INT;
            out->i = dtype_cast(dtype_load(t->type, tensor_cdata(t)), t->type, DTYPE_INT64).i;
            tensor_unref(t);
            return true;
        }
        out->kind = IX_TENSOR;
        out->t = t;
        return true;
    }
    default:
        host_raise(h, HOST_EXC_INDEX, at,
                   "only integers, slices (`:`), ellipsis (`...`), None and long or byte "
                   "Variables are valid indices (got %s)", val_type_name(v));
        return false;
    }
}

static bool parse_key(host *h, val v, src_span at, key *k)
{
    k->n = 0;
    const val *items = &v;
    size_t n = 1;
    if (v.kind == VAL_TUPLE) {
        items = val_as_seq(v)->items;
        n = val_as_seq(v)->len;
    }
    if (n > KEY_MAX) {
        host_error(h, at, "too many indices (%zu)", n);
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        if (!parse_item(h, items[i], at, &k->items[k->n]))
            return false;
        k->n++;
    }
    return true;
}

/* Dimensions of the tensor an item consumes. */
static int consumed(const ix *x)
{
    switch (x->kind) {
    case IX_INT:
    case IX_SLICE: return 1;
    case IX_TENSOR: return x->t->type == DTYPE_INT1 || x->t->type == DTYPE_UINT8 ? x->t->ndim : 1;
    default: return 0;
    }
}

/* ---- the plan ---------------------------------------------------------------- */

/* An advanced index: int64 indices into dimension pos of the view. */
typedef struct adv {
    int pos;
    tensor *idx;        /* owned, int64 */
} adv;

typedef struct plan {
    tensor *view;       /* basic indexing applied; advanced dims kept */
    adv advs[TENSOR_MAX_DIMS];
    int nadv;
} plan;

static void plan_free(plan *p)
{
    tensor_unref(p->view);
    for (int i = 0; i < p->nadv; i++)
        tensor_unref(p->advs[i].idx);
}

static bool add_adv(plan *p, int pos, tensor *idx, host *h, src_span at)
{
    if (p->nadv == TENSOR_MAX_DIMS) {
        tensor_unref(idx);
        host_error(h, at, "too many tensor indices");
        return false;
    }
    p->advs[p->nadv].pos = pos;
    p->advs[p->nadv++].idx = idx;
    return true;
}

/* A bool mask over dimensions [d, d + mask->ndim) of t: one int64 index
 * tensor per dimension, from its nonzero positions. */
static bool add_mask(host *h, plan *p, const tensor *t, int d, int pos, const tensor *mask,
                     src_span at)
{
    for (int k = 0; k < mask->ndim; k++)
        if (mask->shape[k] != t->shape[d + k]) {
            strbuf a = {0}, b = {0};
            tensor_shape_str(mask->ndim, mask->shape, &a);
            tensor_shape_str(t->ndim, t->shape, &b);
            host_error(h, at, "The shape of the mask %s at index %d does not match the shape of "
                       "the indexed tensor %s at index %d", strbuf_cstr(&a), k, strbuf_cstr(&b),
                       d + k);
            strbuf_free(&a);
            strbuf_free(&b);
            return false;
        }
    char err[TENSOR_ERR_LEN];
    tensor *nz = tensor_nonzero(mask, err);
    if (!nz) {
        torch_fail(h, at, err);
        return false;
    }
    bool ok = true;
    for (int k = 0; k < mask->ndim && ok; k++) {
        tensor *col = tensor_select(nz, 1, k, NULL);
        tensor *c = tensor_contiguous(col, err);
        tensor_unref(col);
        ok = c && add_adv(p, pos + k, c, h, at);
    }
    tensor_unref(nz);
    return ok;
}

/* Apply the basic items of k to t, collecting the advanced ones. */
static bool make_plan(host *h, const tensor *t, const key *k, src_span at, plan *p)
{
    memset(p, 0, sizeof *p);
    int need = 0, ellipses = 0;
    for (int i = 0; i < k->n; i++) {
        need += consumed(&k->items[i]);
        ellipses += k->items[i].kind == IX_ELLIPSIS;
    }
    if (ellipses > 1) {
        host_error(h, at, "an index can only have a single ellipsis ('...')");
        return false;
    }
    if (need > t->ndim) {
        host_raise(h, HOST_EXC_INDEX, at, "too many indices for tensor of dimension %d", t->ndim);
        return false;
    }
    int64_t shape[TENSOR_MAX_DIMS], strides[TENSOR_MAX_DIMS], offset = t->offset;
    int n = 0, d = 0;
    for (int i = 0; i < k->n; i++) {
        const ix *x = &k->items[i];
        int add = x->kind == IX_NONE ? 1 : x->kind == IX_ELLIPSIS ? t->ndim - need
                : x->kind == IX_INT ? 0 : consumed(x);
        if (n + add > TENSOR_MAX_DIMS) {
            host_error(h, at, "tritsim tensors have at most %d dimensions", TENSOR_MAX_DIMS);
            return false;
        }
        switch (x->kind) {
        case IX_INT: {
            int64_t size = t->shape[d], j = x->i < 0 ? x->i + size : x->i;
            if (j < 0 || j >= size) {
                host_raise(h, HOST_EXC_INDEX, at,
                           "index %lld is out of bounds for dimension %d with size %lld",
                           (long long)x->i, d, (long long)size);
                return false;
            }
            offset += j * t->strides[d++];
            break;
        }
        case IX_SLICE: {
            if (x->step <= 0) {
                host_error(h, at, "step must be greater than zero");
                return false;
            }
            int64_t size = t->shape[d];
            int64_t s = x->has_start ? x->start : 0, e = x->has_stop ? x->stop : size;
            if (s < 0)
                s = s + size < 0 ? 0 : s + size;
            if (e < 0)
                e = e + size < 0 ? 0 : e + size;
            s = s > size ? size : s;
            e = e > size ? size : e;
            shape[n] = e > s ? (e - s + x->step - 1) / x->step : 0;
            strides[n++] = t->strides[d] * x->step;
            offset += s * t->strides[d++];
            break;
        }
        case IX_NONE:
            shape[n] = 1;
            strides[n++] = d < t->ndim ? t->shape[d] * t->strides[d] : 1;
            break;
        case IX_ELLIPSIS:
            for (int j = 0; j < add; j++, d++) {
                shape[n] = t->shape[d];
                strides[n++] = t->strides[d];
            }
            break;
        case IX_TENSOR:
            if (x->t->type == DTYPE_INT1 || x->t->type == DTYPE_UINT8) {
                if (!add_mask(h, p, t, d, n, x->t, at))
                    return false;
            } else {
                char err[TENSOR_ERR_LEN];
                tensor *idx = tensor_to(x->t, DTYPE_INT64, false, err);
                if (!idx) {
                    torch_fail(h, at, err);
                    return false;
                }
                if (!add_adv(p, n, idx, h, at))
                    return false;
            }
            for (int j = 0; j < add; j++, d++) {
                shape[n] = t->shape[d];
                strides[n++] = t->strides[d];
            }
            break;
        }
    }
    if (n + t->ndim - d > TENSOR_MAX_DIMS) {
        host_error(h, at, "tritsim tensors have at most %d dimensions", TENSOR_MAX_DIMS);
        return false;
    }
    for (; d < t->ndim; d++) {
        shape[n] = t->shape[d];
        strides[n++] = t->strides[d];
    }
    p->view = tensor_view_of(t, n, shape, strides, offset);
    return true;
}

/* ---- advanced indexing: the offsets of the result's elements ---------------- */

typedef struct gather {
    int ndim;
    int64_t shape[TENSOR_MAX_DIMS];
    int64_t numel;
    int64_t *offsets;   /* malloc'd: element offsets into the storage */
} gather;

/* The result layout: slots are the view's basic dimensions plus one slot
 * for the broadcast advanced block. */
static bool make_gather(host *h, const plan *p, src_span at, gather *g)
{
    const tensor *v = p->view;
    char err[TENSOR_ERR_LEN];
    int nb = 0;
    int64_t bshape[TENSOR_MAX_DIMS];
    for (int j = 0; j < p->nadv; j++) {
        const tensor *I = p->advs[j].idx;
        int64_t tmp[TENSOR_MAX_DIMS];
        int nt;
        if (!tensor_broadcast_shapes(nb, bshape, I->ndim, I->shape, &nt, tmp, err)) {
            host_error(h, at, "shape mismatch: indexing tensors could not be broadcast together "
                       "(%s)", err);
            return false;
        }
        nb = nt;
        memcpy(bshape, tmp, sizeof tmp);
    }
    int64_t bnum = 1;
    for (int i = 0; i < nb; i++)
        bnum *= bshape[i];
    /* offsets contributed by the advanced indices, one per element of B */
    int64_t *adv_off = calloc((size_t)(bnum ? bnum : 1), sizeof *adv_off);
    if (!adv_off) {
        host_error(h, at, "out of memory for an index");
        return false;
    }
    for (int j = 0; j < p->nadv; j++) {
        const tensor *I = p->advs[j].idx;
        int pos = p->advs[j].pos;
        int64_t size = v->shape[pos];
        tensor_iter it;
        tensor_iter_init(&it, nb, bshape);
        tensor_iter_add_src(&it, I);
        for (int64_t b = 0; b < it.numel; b++, tensor_iter_next(&it)) {
            int64_t x = *(const int64_t *)tensor_iter_ptr(&it, 0), y = x < 0 ? x + size : x;
            if (y < 0 || y >= size) {
                free(adv_off);
                host_raise(h, HOST_EXC_INDEX, at,
                           "index %lld is out of bounds for dimension %d with size %lld",
                           (long long)x, pos, (long long)size);
                return false;
            }
            adv_off[b] += y * v->strides[pos];
        }
    }
    /* Slots: the basic dims, with the advanced block where torch puts it. */
    bool adjacent = true;
    for (int j = 1; j < p->nadv; j++)
        adjacent = adjacent && p->advs[j].pos == p->advs[j - 1].pos + 1;
    int first = p->advs[0].pos, last = p->advs[p->nadv - 1].pos;
    int64_t sshape[TENSOR_MAX_DIMS + 1], sstride[TENSOR_MAX_DIMS + 1];
    int ns = 0, adv_slot = -1;
    g->ndim = 0;
    for (int d = 0; d <= v->ndim; d++) {
        bool block_here = adjacent ? d == first : d == 0;
        if (block_here) {
            if (g->ndim + nb > TENSOR_MAX_DIMS) {
                free(adv_off);
                host_error(h, at, "tritsim tensors have at most %d dimensions",
                           TENSOR_MAX_DIMS);
                return false;
            }
            adv_slot = ns;
            sshape[ns] = bnum;
            sstride[ns++] = 0;
            for (int i = 0; i < nb; i++)
                g->shape[g->ndim++] = bshape[i];
        }
        if (d == v->ndim)
            break;
        bool is_adv = false;
        for (int j = 0; j < p->nadv; j++)
            is_adv = is_adv || p->advs[j].pos == d;
        if (is_adv || (adjacent && d >= first && d <= last))
            continue;
        if (g->ndim == TENSOR_MAX_DIMS) {
            free(adv_off);
            host_error(h, at, "tritsim tensors have at most %d dimensions", TENSOR_MAX_DIMS);
            return false;
        }
        sshape[ns] = v->shape[d];
        sstride[ns++] = v->strides[d];
        g->shape[g->ndim++] = v->shape[d];
    }
    g->numel = 1;
    for (int s = 0; s < ns; s++)
        g->numel *= sshape[s];
    g->offsets = malloc(sizeof *g->offsets * (size_t)(g->numel ? g->numel : 1));
    if (!g->offsets) {
        free(adv_off);
        host_error(h, at, "out of memory for an index");
        return false;
    }
    int64_t idx[TENSOR_MAX_DIMS + 1] = {0};
    for (int64_t k = 0; k < g->numel; k++) {
        int64_t off = v->offset;
        for (int s = 0; s < ns; s++)
            off += s == adv_slot ? adv_off[idx[s]] : idx[s] * sstride[s];
        g->offsets[k] = off;
        for (int s = ns - 1; s >= 0; s--) {
            if (++idx[s] < sshape[s])
                break;
            idx[s] = 0;
        }
    }
    free(adv_off);
    return true;
}

/* ---- get and set ------------------------------------------------------------ */

val torch_getitem(host *h, val self, val kv, src_span at)
{
    tensor *t = tensor_of(self);
    key k;
    plan p;
    if (!parse_key(h, kv, at, &k)) {
        key_free(&k);
        return val_err();
    }
    bool ok = make_plan(h, t, &k, at, &p);
    key_free(&k);
    if (!ok) {
        plan_free(&p);
        return val_err();
    }
    if (p.nadv == 0) {
        val r = tensor_val(p.view);
        p.view = NULL;
        plan_free(&p);
        return r;
    }
    gather g;
    char err[TENSOR_ERR_LEN];
    val r = val_err();
    if (make_gather(h, &p, at, &g)) {
        tensor *out = tensor_new(t->type, g.ndim, g.shape, t->cuda, err);
        if (out) {
            size_t es = (size_t)tensor_elsize(t);
            unsigned char *dst = tensor_data(out);
            tensor_host_read(t->storage);
            for (int64_t i = 0; i < g.numel; i++)
                memcpy(dst + (size_t)i * es, t->storage->data + (size_t)g.offsets[i] * es, es);
            r = tensor_val(out);
        } else {
            torch_fail(h, at, err);
        }
        free(g.offsets);
    }
    plan_free(&p);
    return r;
}

/* The value of an assignment as a tensor of dtype t (numbers checked for
 * overflow as torch does). */
static tensor *value_tensor(host *h, val v, dtype t, src_span at)
{
    tensor *src = tensor_of(v);
    if (src)
        return tensor_ref(src);
    if (v.kind == VAL_LIST || v.kind == VAL_TUPLE)
        return torch_from_data(h, v, t, false, at);
    dtype_scalar x;
    if (v.kind != VAL_INT && v.kind != VAL_FLOAT && v.kind != VAL_BOOL) {
        host_error(h, at, "can't assign a %s to a torch.%sTensor", val_type_name(v),
                   tensor_type_name(t));
        return NULL;
    }
    if (!torch_number_to(h, v, t, at, "__setitem__", &x))
        return NULL;
    return tensor_scalar(t, x, false);
}

/* Scatter value into the elements the gather lists. */
static bool scatter(host *h, tensor *t, const gather *g, const tensor *value, src_span at)
{
    char err[TENSOR_ERR_LEN];
    tensor *b = tensor_expand(value, g->ndim, g->shape, err);
    if (!b) {
        strbuf a = {0}, c = {0};
        tensor_shape_str(value->ndim, value->shape, &a);
        tensor_shape_str(g->ndim, g->shape, &c);
        host_error(h, at, "shape mismatch: value tensor of shape %s cannot be broadcast to "
                   "indexing result of shape %s", strbuf_cstr(&a), strbuf_cstr(&c));
        strbuf_free(&a);
        strbuf_free(&c);
        return false;
    }
    tensor *v = tensor_to(b, t->type, t->cuda, err);    /* fresh: no overlap */
    tensor_unref(b);
    if (!v) {
        torch_fail(h, at, err);
        return false;
    }
    size_t es = (size_t)tensor_elsize(t);
    const unsigned char *src = tensor_cdata(v);
    tensor_host_write(t->storage);
    for (int64_t i = 0; i < g->numel; i++)
        memcpy(t->storage->data + (size_t)g->offsets[i] * es, src + (size_t)i * es, es);
    tensor_unref(v);
    return true;
}

bool torch_setitem(host *h, val self, val kv, val value, src_span at)
{
    tensor *t = tensor_of(self);
    key k;
    plan p;
    if (!parse_key(h, kv, at, &k)) {
        key_free(&k);
        return false;
    }
    bool ok = make_plan(h, t, &k, at, &p);
    key_free(&k);
    tensor *v = ok ? value_tensor(h, value, t->type, at) : NULL;
    ok = v != NULL;
    if (ok && p.nadv == 0) {
        char err[TENSOR_ERR_LEN];
        ok = tensor_copy_into(p.view, v, err);
        if (!ok)
            torch_fail(h, at, err);
    } else if (ok) {
        gather g;
        ok = make_gather(h, &p, at, &g);
        if (ok) {
            ok = scatter(h, t, &g, v, at);
            free(g.offsets);
        }
    }
    tensor_unref(v);
    plan_free(&p);
    return ok;
}

/* ---- gather, scatter, index_select, masked_fill ------------------------------ */

/* Step idx (ndim dims of shape) to the next element in row-major order. */
static void next_index(int ndim, const int64_t *shape, int64_t *idx)
{
    for (int d = ndim - 1; d >= 0; d--) {
        if (++idx[d] < shape[d])
            return;
        idx[d] = 0;
    }
}

/* The checks gather and scatter share (PyTorch's scatter_gather_checks):
 * an int64 index (or int32 where int32_ok: gather's, as in PyTorch 2.11)
 * with self's number of dimensions, no larger than self apart from dim (and
 * no larger than src anywhere). */
static bool gather_checks(host *h, src_span at, const char *fname, const tensor *self, int d,
                          const tensor *index, const tensor *src, bool int32_ok)
{
    if (index->type != DTYPE_INT64 && !(int32_ok && index->type == DTYPE_INT32)) {
        host_error(h, at, "%s(): Expected dtype int64 for index", fname);
        return false;
    }
    int sn = self->ndim ? self->ndim : 1, in = index->ndim ? index->ndim : 1;
    if (tensor_numel(index) == 0)
        return true;
    if (in != sn) {
        host_error(h, at, "Index tensor must have the same number of dimensions as %s tensor",
                   src ? "self" : "input");
        return false;
    }
    int bad = -1;
    for (int i = 0; i < index->ndim && bad < 0; i++)
        if ((i != d && index->shape[i] > self->shape[i]) ||
            (src && src->ndim == index->ndim && index->shape[i] > src->shape[i]))
            bad = i;
    if (bad < 0)
        return true;
    strbuf is = {0}, ss = {0}, rs = {0};
    tensor_shape_str(index->ndim, index->shape, &is);
    tensor_shape_str(self->ndim, self->shape, &ss);
    if (src) {
        tensor_shape_str(src->ndim, src->shape, &rs);
        host_error(h, at, "Expected index %s to be no larger than self %s apart from dimension "
                   "%d and to be no larger size than src %s", strbuf_cstr(&is),
                   strbuf_cstr(&ss), d, strbuf_cstr(&rs));
    } else {
        host_error(h, at, "Size does not match at dimension %d expected index %s to be no "
                   "larger than self %s apart from dimension %d", bad, strbuf_cstr(&is),
                   strbuf_cstr(&ss), d);
    }
    strbuf_free(&is);
    strbuf_free(&ss);
    strbuf_free(&rs);
    return false;
}

/* The element of index at pos checked against the size of self along d;
 * false after PyTorch's "index 5 is out of bounds for dimension 0 with
 * size 3". */
static bool gather_index(host *h, src_span at, const tensor *self, int d, const tensor *index,
                         const int64_t *pos, int64_t *out)
{
    int64_t size = self->ndim ? self->shape[d] : 1;
    *out = tensor_get(index, pos).i;
    if (*out < 0 || *out >= size) {
        host_error(h, at, "index %lld is out of bounds for dimension %d with size %lld",
                   (long long)*out, d, (long long)size);
        return false;
    }
    return true;
}

/* torch.gather(input, dim, index, *, sparse_grad=False) and x.gather(...):
 * out[i][j] = input[index[i][j]][j] (dim 0), out shaped as index. */
static val fn_gather(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                     src_span at)
{
    val a[4];
    TORCH_READ_ARGS("gather", "input, dim, index, *, sparse_grad=", a);
    int64_t dim;
    int d;
    char err[TENSOR_ERR_LEN];
    tensor *index;
    if (!torch_int_arg(h, a[1], at, "gather", "dim", &dim) ||
        !(index = torch_tensor_arg(h, a[2], at, "gather", "index")))
        return val_err();
    if (!tensor_wrap_dim(t->ndim, dim, &d, err))
        return torch_fail(h, at, err);
    if (!gather_checks(h, at, "gather", t, d, index, NULL, true))
        return val_err();
    tensor *r = tensor_new(t->type, index->ndim, index->shape, t->cuda, err);
    if (!r)
        return torch_fail(h, at, err);
    int64_t pos[TENSOR_MAX_DIMS] = {0}, from[TENSOR_MAX_DIMS];
    for (int64_t i = 0, n = tensor_numel(index); i < n; i++) {
        memcpy(from, pos, sizeof from);
        if (!gather_index(h, at, t, d, index, pos, &from[d])) {
            tensor_unref(r);
            return val_err();
        }
        tensor_set(r, pos, tensor_get(t, from));
        next_index(index->ndim, index->shape, pos);
    }
    return tensor_val(r);
}

/* What scatter does with each value it places: scatter's (set, and
 * reduce='add'/'multiply', scatter_add's add) and scatter_reduce's. */
typedef enum {
    SCATTER_SET, SCATTER_ADD, SCATTER_MUL,
    SCATTER_MEAN, SCATTER_AMAX, SCATTER_AMIN,
} scatter_how;

/* a combined with b by how (SCATTER_MEAN sums) in dtype t. */
static dtype_scalar scatter_combine(dtype t, scatter_how how, dtype_scalar a, dtype_scalar b)
{
    if (how == SCATTER_SET)
        return b;
    if (dtype_is_float(t)) {
        double x = a.f, y = b.f, r;
        switch (how) {
        case SCATTER_MUL: r = x * y; break;
        case SCATTER_AMAX: r = isnan(x) || isnan(y) ? NAN : x > y ? x : y; break;
        case SCATTER_AMIN: r = isnan(x) || isnan(y) ? NAN : x < y ? x : y; break;
        default: r = x + y; break;
        }
        return (dtype_scalar){.f = dtype_round_float(t, r)};
    }
    if (dtype_is_bool(t)) {
        bool x = a.u != 0, y = b.u != 0;
        bool r = how == SCATTER_MUL || how == SCATTER_AMIN ? x && y : x || y;
        return (dtype_scalar){.u = r};
    }
    bool is_signed = dtype_is_signed(t);
    bool less = is_signed ? a.i < b.i : a.u < b.u;
    switch (how) {
    case SCATTER_MUL: return dtype_wrap(t, a.u * b.u);
    case SCATTER_AMAX: return less ? b : a;
    case SCATTER_AMIN: return less ? a : b;
    default: return dtype_wrap(t, a.u + b.u);
    }
}

/* self[index[i][j]][j] = src[i][j] (dim 0), or the number value, combined
 * with what is there by how; into self itself when inplace, else into a
 * copy.  Without include_self, an element's first placed value replaces
 * self's; SCATTER_MEAN divides each placed-on element by its count (self
 * counting as one when included; floor division for ints). */
static val scatter_into(host *h, src_span at, const char *fname, const char *base,
                        val self_v, bool inplace, val dim_v, val index_v, val src_v,
                        scatter_how how, bool include_self)
{
    tensor *t = tensor_of(self_v), *index, *src = NULL;
    int64_t dim;
    int d;
    char err[TENSOR_ERR_LEN];
    dtype_scalar value = {.u = 0};
    if (!torch_int_arg(h, dim_v, at, fname, "dim", &dim) ||
        !(index = torch_tensor_arg(h, index_v, at, fname, "index")))
        return val_err();
    if (src_v.kind == VAL_TENSOR || strcmp(base, "scatter")) {
        if (!(src = torch_tensor_arg(h, src_v, at, fname, "src")))
            return val_err();
    } else if (!torch_number_to(h, src_v, t->type, at, fname, &value)) {
        return val_err();
    }
    if (!tensor_wrap_dim(t->ndim, dim, &d, err))
        return torch_fail(h, at, err);
    if (!gather_checks(h, at, base, t, d, index, src, false))
        return val_err();
    if (src && src->type != t->type)
        return host_error(h, at, "%s(): Expected self.dtype to be equal to src.dtype", base);
    if (inplace && tensor_internal_overlap(t, err))
        return torch_fail(h, at, err);
    tensor *r = inplace ? tensor_ref(t) : tensor_new(t->type, t->ndim, t->shape, t->cuda, err);
    if (r && !inplace && !tensor_copy_into(r, t, err)) {
        tensor_unref(r);
        r = NULL;
    }
    if (!r)
        return torch_fail(h, at, err);
    /* per element of r: how many values were placed on it */
    int64_t total = tensor_numel(r);
    int64_t *count = how == SCATTER_SET ? NULL : xcalloc((size_t)(total ? total : 1),
                                                         sizeof *count);
    int64_t pos[TENSOR_MAX_DIMS] = {0}, to[TENSOR_MAX_DIMS];
    for (int64_t i = 0, n = tensor_numel(index); i < n; i++) {
        memcpy(to, pos, sizeof to);
        if (!gather_index(h, at, t, d, index, pos, &to[d])) {
            tensor_unref(r);
            free(count);
            return val_err();
        }
        dtype_scalar v = src ? tensor_get(src, pos) : value;
        int64_t flat = 0;
        for (int k = 0; k < r->ndim; k++)
            flat = flat * r->shape[k] + to[k];
        if (how == SCATTER_SET || (!include_self && count[flat] == 0))
            tensor_set(r, to, v);
        else
            tensor_set(r, to, scatter_combine(t->type, how, tensor_get(r, to), v));
        if (count)
            count[flat]++;
        next_index(index->ndim, index->shape, pos);
    }
    if (how == SCATTER_MEAN) {
        int64_t at_[TENSOR_MAX_DIMS] = {0};
        for (int64_t i = 0; i < total; i++) {
            int64_t c = count[i] + (include_self ? 1 : 0);
            if (count[i]) {
                dtype_scalar v = tensor_get(r, at_);
                if (dtype_is_float(t->type)) {
                    v.f = dtype_round_float(t->type, v.f / (double)c);
                } else if (!dtype_is_bool(t->type)) {
                    int64_t q = v.i / c;
                    if ((v.i % c != 0) && ((v.i < 0) != (c < 0)))
                        q--;
                    v = dtype_wrap(t->type, (uint64_t)q);
                }
                tensor_set(r, at_, v);
            }
            next_index(r->ndim, r->shape, at_);
        }
    }
    free(count);
    if (inplace) {
        tensor_unref(r);
        return val_ref(self_v);
    }
    return tensor_val(r);
}

/* x.scatter_(dim, index, src) / (dim, index, value) and torch.scatter(input,
 * dim, index, src) / value=, with reduce='add' or 'multiply'. */
static val scatter_fn(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                      src_span at, const char *fname, bool inplace)
{
    val a[6];
    TORCH_READ_ARGS(fname, "input, dim, index, src=, *, value=, reduce=", a);
    (void)t;
    scatter_how how = SCATTER_SET;
    if (a[5].kind != VAL_MISSING && a[5].kind != VAL_NONE) {
        const char *mode;
        if (!host_to_str(h, a[5], at, "scatter() argument 'reduce'", &mode))
            return val_err();
        if (!strcmp(mode, "add"))
            how = SCATTER_ADD;
        else if (!strcmp(mode, "multiply"))
            how = SCATTER_MUL;
        else
            return host_error(h, at, "reduce argument must be either add or multiply.");
    }
    bool has_src = a[3].kind != VAL_MISSING, has_value = a[4].kind != VAL_MISSING;
    if (has_src == has_value)
        return host_raise(h, HOST_EXC_TYPE, at, "%s() needs exactly one of src and value",
                          fname);
    return scatter_into(h, at, fname, "scatter", a[0], inplace, a[1], a[2],
                        has_src ? a[3] : a[4], how, true);
}

TORCH_NAMED(scatter, scatter_fn, false)
TORCH_NAMED(scatter_, scatter_fn, true)

/* x.scatter_add_(dim, index, src) and torch.scatter_add(input, dim, index, src) */
static val scatter_add_fn(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                          src_span at, const char *fname, bool inplace)
{
    val a[4];
    TORCH_READ_ARGS(fname, "input, dim, index, src", a);
    (void)t;
    return scatter_into(h, at, fname, "scatter_add", a[0], inplace, a[1], a[2], a[3],
                        SCATTER_ADD, true);
}

/* torch.scatter_reduce(input, dim, index, src, reduce, *, include_self=True)
 * and x.scatter_reduce(_): reduce is 'sum', 'prod', 'mean', 'amax' or
 * 'amin'. */
static val scatter_reduce_fn(host *h, val self, int argc, const val *argv,
                             const val_kwargs *kw, src_span at, const char *fname, bool inplace)
{
    val a[6];
    TORCH_READ_ARGS(fname, "input, dim, index, src, reduce, *, include_self=", a);
    (void)t;
    const char *mode;
    bool include_self = true;
    if (!host_to_str(h, a[4], at, "scatter_reduce() argument 'reduce'", &mode) ||
        !torch_bool_arg(h, a[5], at, fname, "include_self", &include_self))
        return val_err();
    static const struct { const char *name; scatter_how how; } modes[] = {
        {"sum", SCATTER_ADD}, {"prod", SCATTER_MUL}, {"mean", SCATTER_MEAN},
        {"amax", SCATTER_AMAX}, {"amin", SCATTER_AMIN},
    };
    for (size_t i = 0; i < sizeof modes / sizeof *modes; i++)
        if (!strcmp(mode, modes[i].name))
            return scatter_into(h, at, fname, "scatter_reduce", a[0], inplace, a[1], a[2],
                                a[3], modes[i].how, include_self);
    return host_error(h, at, "reduce argument must be either sum, prod, mean, amax or amin, "
                      "got %s", mode);
}

TORCH_NAMED(scatter_reduce, scatter_reduce_fn, false)
TORCH_NAMED(scatter_reduce_, scatter_reduce_fn, true)
TORCH_NAMED(scatter_add, scatter_add_fn, false)
TORCH_NAMED(scatter_add_, scatter_add_fn, true)

/* torch.index_select(input, dim, index) and x.index_select(dim, index):
 * the slices of input along dim that a 1-D int index names, in its order. */
static val fn_index_select(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                           src_span at)
{
    val a[3];
    TORCH_READ_ARGS("index_select", "input, dim, index", a);
    int64_t dim;
    int d;
    char err[TENSOR_ERR_LEN];
    tensor *index;
    if (!torch_int_arg(h, a[1], at, "index_select", "dim", &dim) ||
        !(index = torch_tensor_arg(h, a[2], at, "index_select", "index")))
        return val_err();
    if (!tensor_wrap_dim(t->ndim, dim, &d, err))
        return torch_fail(h, at, err);
    if (index->type != DTYPE_INT64 && index->type != DTYPE_INT32)
        return host_error(h, at, "index_select(): Expected dtype int32 or int64 for index");
    if (index->ndim > 1)
        return host_raise(h, HOST_EXC_INDEX, at, "index_select(): Index is supposed to be a "
                          "vector");
    int64_t n = tensor_numel(index), size = t->ndim ? t->shape[d] : 1;
    int64_t shape[TENSOR_MAX_DIMS];
    memcpy(shape, t->shape, sizeof shape);
    if (t->ndim)
        shape[d] = n;
    tensor *r = tensor_new(t->type, t->ndim, shape, t->cuda, err);
    for (int64_t i = 0; r && i < n; i++) {
        int64_t k = tensor_get_flat(index, i).i;
        if (k < 0 || k >= size) {
            tensor_unref(r);
            return host_raise(h, HOST_EXC_INDEX, at, "index out of range in self");
        }
        if (t->ndim == 0) {
            tensor_copy_into(r, t, err);
            continue;
        }
        tensor *to = tensor_select(r, d, i, err), *from = tensor_select(t, d, k, err);
        bool ok = to && from && tensor_copy_into(to, from, err);
        tensor_unref(to);
        tensor_unref(from);
        if (!ok) {
            tensor_unref(r);
            r = NULL;
        }
    }
    return torch_result(h, at, r, err);
}

/* x.masked_fill_(mask, value) (mask broadcast to x) and x.masked_fill(mask,
 * value) / torch.masked_fill (x and mask broadcast together). */
static val masked_fill_fn(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                          src_span at, const char *fname, bool inplace)
{
    val a[3];
    TORCH_READ_ARGS(fname, "input, mask, value", a);
    char err[TENSOR_ERR_LEN];
    tensor *mask = torch_tensor_arg(h, a[1], at, fname, "mask");
    if (!mask)
        return val_err();
    if (mask->type != DTYPE_INT1)
        return host_error(h, at, "masked_fill_ only supports boolean masks, but got mask with "
                          "dtype %s", tensor_type_name(mask->type));
    dtype_scalar v;
    tensor *vt = a[2].kind == VAL_TENSOR ? tensor_of(a[2]) : NULL;
    if (vt) {
        if (vt->ndim != 0)
            return host_error(h, at, "masked_fill_ only supports a 0-dimensional value tensor, "
                              "but got tensor with %d dimension(s).", vt->ndim);
        v = tensor_convert(tensor_get_flat(vt, 0), vt->type, t->type);
    } else if (!torch_number_to(h, a[2], t->type, at, fname, &v)) {
        return val_err();
    }
    int64_t shape[TENSOR_MAX_DIMS];
    int n = t->ndim;
    memcpy(shape, t->shape, sizeof shape);
    if (!inplace && !tensor_broadcast_shapes(t->ndim, t->shape, mask->ndim, mask->shape, &n,
                                             shape, err))
        return torch_fail(h, at, err);
    tensor *r = inplace ? tensor_ref(t) : tensor_new(t->type, n, shape, t->cuda, err);
    tensor *src = r && !inplace ? tensor_broadcast_to(t, n, shape, err) : NULL;
    tensor *m = r ? tensor_broadcast_to(mask, n, shape, err) : NULL;
    bool ok = m && (inplace || (src && tensor_copy_into(r, src, err)));
    if (ok && inplace && tensor_internal_overlap(t, err))
        ok = false;
    int64_t pos[TENSOR_MAX_DIMS] = {0};
    for (int64_t i = 0, total = ok ? tensor_numel(r) : 0; i < total; i++) {
        if (tensor_get(m, pos).u)
            tensor_set(r, pos, v);
        next_index(n, shape, pos);
    }
    tensor_unref(src);
    tensor_unref(m);
    if (!ok) {
        tensor_unref(r);
        return torch_fail(h, at, err);
    }
    if (inplace) {
        tensor_unref(r);
        return val_ref(a[0]);
    }
    return tensor_val(r);
}

TORCH_NAMED(masked_fill, masked_fill_fn, false)
TORCH_NAMED(masked_fill_, masked_fill_fn, true)

/* torch.masked_select(input, mask) and x.masked_select(mask): the elements
 * of input where the bool mask is true (both broadcast together), in
 * row-major order, as a new 1-D tensor. */
static val fn_masked_select(host *h, val self, int argc, const val *argv,
                            const val_kwargs *kw, src_span at)
{
    val a[2];
    TORCH_READ_ARGS("masked_select", "input, mask", a);
    char err[TENSOR_ERR_LEN];
    tensor *mask = torch_tensor_arg(h, a[1], at, "masked_select", "mask");
    if (!mask)
        return val_err();
    if (mask->type != DTYPE_INT1)
        return host_error(h, at, "masked_select: expected BoolTensor for mask");
    int64_t shape[TENSOR_MAX_DIMS];
    int n;
    if (!tensor_broadcast_shapes(t->ndim, t->shape, mask->ndim, mask->shape, &n, shape, err))
        return torch_fail(h, at, err);
    tensor *src = tensor_broadcast_to(t, n, shape, err);
    tensor *m = src ? tensor_broadcast_to(mask, n, shape, err) : NULL;
    int64_t total = 1, count = 0;
    for (int i = 0; i < n; i++)
        total *= shape[i];
    int64_t pos[TENSOR_MAX_DIMS] = {0};
    for (int64_t i = 0; m && i < total; i++) {
        count += tensor_get(m, pos).u != 0;
        next_index(n, shape, pos);
    }
    tensor *r = m ? tensor_new(t->type, 1, &count, t->cuda, err) : NULL;
    memset(pos, 0, sizeof pos);
    for (int64_t i = 0, k = 0; r && i < total; i++) {
        if (tensor_get(m, pos).u) {
            int64_t at1[1] = {k++};
            tensor_set(r, at1, tensor_get(src, pos));
        }
        next_index(n, shape, pos);
    }
    tensor_unref(src);
    tensor_unref(m);
    return torch_result(h, at, r, err);
}

const torch_fn torch_index_fns[] = {
    TORCH_BOTH("gather", fn_gather),
    TORCH_BOTH("scatter", fn_scatter),
    TORCH_METHOD("scatter_", fn_scatter_),
    TORCH_BOTH("scatter_add", fn_scatter_add),
    TORCH_METHOD("scatter_add_", fn_scatter_add_),
    TORCH_BOTH("scatter_reduce", fn_scatter_reduce),
    TORCH_METHOD("scatter_reduce_", fn_scatter_reduce_),
    TORCH_BOTH("index_select", fn_index_select),
    TORCH_BOTH("masked_fill", fn_masked_fill),
    TORCH_METHOD("masked_fill_", fn_masked_fill_),
    TORCH_BOTH("masked_select", fn_masked_select),
    {NULL, NULL, NULL, NULL, NULL, 0},
};
