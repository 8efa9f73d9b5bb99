/* torch_sort.c - ordering along one dimension: torch.sort (values and
 * indices, as torch.return_types.sort), torch.argsort and torch.topk, and
 * their Tensor methods.
 *
 * Every line along the dimension is sorted with a stable merge sort, so
 * equal elements keep their order (PyTorch's stable=True; its default
 * order of ties is unspecified).  NaN sorts as larger than every number,
 * as in PyTorch: last in ascending order, first in descending order. */
#include "torch_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One element of a line: its value and its position in the line. */
typedef struct item {
    dtype_scalar v;
    int64_t i;
} item;

/* How a line's values compare. */
typedef enum order_kind { ORDER_FLOAT, ORDER_SIGNED, ORDER_UNSIGNED } order_kind;

typedef struct order {
    order_kind kind;
    bool descending;
} order;

/* a < b as values, with NaN above everything. */
static bool value_less(const order *o, dtype_scalar a, dtype_scalar b)
{
    switch (o->kind) {
    case ORDER_FLOAT:
        if (isnan(a.f))
            return false;
        return isnan(b.f) || a.f < b.f;
    case ORDER_SIGNED:
        return a.i < b.i;
    case ORDER_UNSIGNED:
        return a.u < b.u;
    }
    return false;
}

/* Does b go strictly before a (so a stable merge takes a first on ties)? */
static bool goes_before(const order *o, const item *b, const item *a)
{
    return o->descending ? value_less(o, a->v, b->v) : value_less(o, b->v, a->v);
}

/* Stable merge sort of items[0..n) with scratch space tmp[0..n). */
static void merge_sort(const order *o, item *items, item *tmp, int64_t n)
{
    if (n < 2)
        return;
    int64_t half = n / 2;
    merge_sort(o, items, tmp, half);
    merge_sort(o, items + half, tmp, n - half);
    int64_t i = 0, j = half, k = 0;
    while (i < half && j < n)
        tmp[k++] = goes_before(o, &items[j], &items[i]) ? items[j++] : items[i++];
    while (i < half)
        tmp[k++] = items[i++];
    while (j < n)
        tmp[k++] = items[j++];
    memcpy(items, tmp, (size_t)n * sizeof *items);
}

/* The first k elements of every line of t along dim in sorted order:
 * their values (t's dtype) and positions (int64), shaped as t with k in
 * place of the dim's size.  values may be NULL (argsort). */
static bool sort_lines(const tensor *t, int64_t dim, bool descending, int64_t k,
                       tensor **values, tensor **indices, char *err)
{
    int d;
    if (!tensor_wrap_dim(t->ndim, dim, &d, err) || !tensor_no_fp8(t->type, err))
        return false;
    int64_t n = t->ndim ? t->shape[d] : 1, shape[TENSOR_MAX_DIMS], line[TENSOR_MAX_DIMS];
    memcpy(shape, t->shape, sizeof shape);
    memcpy(line, t->shape, sizeof line);
    if (t->ndim) {
        shape[d] = k;
        line[d] = 1;
    }
    tensor *v = values ? tensor_new(t->type, t->ndim, shape, t->cuda, err) : NULL;
    tensor *ix = !values || v ? tensor_new(DTYPE_INT64, t->ndim, shape, t->cuda, err) : NULL;
    if (!ix) {
        tensor_unref(v);
        return false;
    }
    order o = {ORDER_FLOAT, descending};
    if (!dtype_is_float(t->type))
        o.kind = dtype_is_signed(t->type) ? ORDER_SIGNED : ORDER_UNSIGNED;
    item *items = xcalloc((size_t)n + 1, sizeof *items);
    item *tmp = xcalloc((size_t)n + 1, sizeof *tmp);
    tensor_iter it;
    tensor_iter_init(&it, t->ndim, line);
    tensor_iter_add_src(&it, t);
    tensor_iter_add_tensor(&it, ix);
    if (v)
        tensor_iter_add_tensor(&it, v);
    int64_t es = tensor_elsize(t);
    int64_t istep = t->ndim ? t->strides[d] * es : 0;
    int64_t xstep = t->ndim ? ix->strides[d] * 8 : 0, vstep = v && t->ndim ? v->strides[d] * es : 0;
    for (int64_t l = 0; l < it.numel; l++, tensor_iter_next(&it)) {
        const unsigned char *in = tensor_iter_ptr(&it, 0);
        for (int64_t j = 0; j < n; j++)
            items[j] = (item){dtype_load(t->type, in + j * istep), j};
        merge_sort(&o, items, tmp, n);
        for (int64_t j = 0; j < k; j++) {
            dtype_store(DTYPE_INT64, tensor_iter_ptr(&it, 1) + j * xstep,
                        (dtype_scalar){.i = items[j].i});
            if (v)
                dtype_store(t->type, tensor_iter_ptr(&it, 2) + j * vstep, items[j].v);
        }
    }
    free(items);
    free(tmp);
    if (values)
        *values = v;
    *indices = ix;
    return true;
}

/* torch.sort(input, dim=-1, descending=False, *, stable=False) and x.sort():
 * torch.return_types.sort(values, indices). */
static val fn_sort(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                   src_span at)
{
    val a[4];
    TORCH_READ_ARGS("sort", "input, dim=, descending=, *, stable=", a);
    int64_t dim = -1;
    bool desc = false, stable = false;
    if ((a[1].kind != VAL_MISSING && !torch_int_arg(h, a[1], at, "sort", "dim", &dim)) ||
        !torch_bool_arg(h, a[2], at, "sort", "descending", &desc) ||
        (a[3].kind != VAL_NONE && !torch_bool_arg(h, a[3], at, "sort", "stable", &stable)))
        return val_err();
    (void)stable;   /* every sort here is stable */
    char err[TENSOR_ERR_LEN];
    tensor *v, *ix;
    int64_t n = 1;
    int d;
    if (t->ndim && tensor_wrap_dim(t->ndim, dim, &d, NULL))
        n = t->shape[d];
    if (!sort_lines(t, dim, desc, n, &v, &ix, err))
        return torch_fail(h, at, err);
    return torch_return_pair("sort", tensor_val(v), tensor_val(ix));
}

/* torch.argsort(input, dim=-1, descending=False, stable=False) and x.argsort() */
static val fn_argsort(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                      src_span at)
{
    val a[4];
    TORCH_READ_ARGS("argsort", "input, dim=, descending=, stable=", a);
    int64_t dim = -1;
    bool desc = false, stable = false;
    if ((a[1].kind != VAL_MISSING && !torch_int_arg(h, a[1], at, "argsort", "dim", &dim)) ||
        !torch_bool_arg(h, a[2], at, "argsort", "descending", &desc) ||
        !torch_bool_arg(h, a[3], at, "argsort", "stable", &stable))
        return val_err();
    (void)stable;   /* every sort here is stable */
    char err[TENSOR_ERR_LEN];
    tensor *ix;
    int64_t n = 1;
    int d;
    if (t->ndim && tensor_wrap_dim(t->ndim, dim, &d, NULL))
        n = t->shape[d];
    if (!sort_lines(t, dim, desc, n, NULL, &ix, err))
        return torch_fail(h, at, err);
    return tensor_val(ix);
}

/* torch.topk(input, k, dim=-1, largest=True, sorted=True) and x.topk(k):
 * torch.return_types.topk(values, indices), always in sorted order. */
static val fn_topk(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                   src_span at)
{
    val a[5];
    TORCH_READ_ARGS("topk", "input, k, dim=, largest=, sorted=", a);
    int64_t k, dim = -1;
    bool largest = true, sorted = true;
    if (!torch_int_arg(h, a[1], at, "topk", "k", &k) ||
        (a[2].kind != VAL_MISSING && !torch_int_arg(h, a[2], at, "topk", "dim", &dim)) ||
        (a[3].kind != VAL_MISSING && !torch_bool_arg(h, a[3], at, "topk", "largest", &largest)) ||
        (a[4].kind != VAL_MISSING && !torch_bool_arg(h, a[4], at, "topk", "sorted", &sorted)))
        return val_err();
    char err[TENSOR_ERR_LEN];
    int d;
    if (!tensor_wrap_dim(t->ndim, dim, &d, err))
        return torch_fail(h, at, err);
    int64_t n = t->ndim ? t->shape[d] : 1;
    if (k < 0 || k > n)
        return host_error(h, at, "selected index k out of range");
    (void)sorted;   /* the order of an unsorted topk is unspecified: sorted too */
    tensor *v, *ix;
    if (!sort_lines(t, dim, largest, k, &v, &ix, err))
        return torch_fail(h, at, err);
    return torch_return_pair("topk", tensor_val(v), tensor_val(ix));
}

const torch_fn torch_sort_fns[] = {
    TORCH_BOTH("sort", fn_sort),
    TORCH_BOTH("argsort", fn_argsort),
    TORCH_BOTH("topk", fn_topk),
    {NULL, NULL, NULL, NULL, NULL, 0},
};
