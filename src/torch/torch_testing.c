/* torch_testing.c - comparing tensors: torch.isclose, allclose, equal and
 * torch.testing.assert_close with PyTorch's failure message:
 *
 *     Tensor-likes are not close!
 *
 *     Mismatched elements: 3 / 6 (50.0%)
 *     Greatest absolute difference: 0.5 at index (0, 1) (up to 1e-05 allowed)
 *     Greatest relative difference: 0.25 at index (0, 1) (up to 1.3e-06 allowed)
 *
 * isclose follows torch's formula and dtypes: |a - b| <= atol + |rtol * b|
 * computed in the inputs' dtype (float16 inputs compare in float16), equal
 * values (infinities included) always close, NaNs close only with
 * equal_nan. */
#include "torch_impl.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "complexval.h"
#include "pyformat.h"

/* ---- isclose ------------------------------------------------------------------- */

/* The steps of isclose, each a tensor op; NULL + err on failure. */
static tensor *isclose(const tensor *a, const tensor *b, double rtol, double atol,
                       bool equal_nan, char *err)
{
    if (a->type != b->type) {
        snprintf(err, TENSOR_ERR_LEN, "%s did not match %s", tensor_type_name(a->type),
                 tensor_type_name(b->type));
        return NULL;
    }
    tensor_operand x = tensor_operand_of(a), y = tensor_operand_of(b);
    tensor *close = tensor_binary(TENSOR_EQ, x, y, err);
    tensor *tmp[8] = {NULL};
    bool ok = close != NULL;
    if (ok && equal_nan) {
        tmp[0] = tensor_unary(TENSOR_ISNAN, a, err);
        tmp[1] = tmp[0] ? tensor_unary(TENSOR_ISNAN, b, err) : NULL;
        tmp[2] = tmp[1] ? tensor_binary(TENSOR_AND, tensor_operand_of(tmp[0]),
                                        tensor_operand_of(tmp[1]), err) : NULL;
        ok = tmp[2] && tensor_binary_inplace(TENSOR_OR, close, tensor_operand_of(tmp[2]), err);
    }
    if (ok && a->type != DTYPE_INT1) {
        /* allowed = atol + |rtol * b|; actual = |a - b|; close |= finite(actual) & actual <= allowed */
        tmp[3] = tensor_binary(TENSOR_MUL, y, tensor_operand_float(rtol), err);
        tensor *abs_rb = tmp[3] ? tensor_unary(TENSOR_ABS, tmp[3], err) : NULL;
        tensor *allowed = abs_rb ? tensor_binary(TENSOR_ADD, tensor_operand_float(atol),
                                                 tensor_operand_of(abs_rb), err) : NULL;
        tensor_unref(abs_rb);
        tmp[4] = allowed;
        tensor *diff = allowed ? tensor_binary(TENSOR_SUB, x, y, err) : NULL;
        tmp[5] = diff ? tensor_unary(TENSOR_ABS, diff, err) : NULL;
        tensor_unref(diff);
        tensor *fin = tmp[5] ? tensor_unary(TENSOR_ISFINITE, tmp[5], err) : NULL;
        tensor *le = fin ? tensor_binary(TENSOR_LE, tensor_operand_of(tmp[5]),
                                         tensor_operand_of(allowed), err) : NULL;
        ok = le && tensor_binary_inplace(TENSOR_AND, fin, tensor_operand_of(le), err) &&
             tensor_binary_inplace(TENSOR_OR, close, tensor_operand_of(fin), err);
        tensor_unref(fin);
        tensor_unref(le);
    }
    for (int i = 0; i < 8; i++)
        tensor_unref(tmp[i]);
    if (!ok) {
        tensor_unref(close);
        return NULL;
    }
    return close;
}

static bool all_true(const tensor *t)
{
    tensor *r = tensor_reduce(TENSOR_ALL, t, 0, NULL, false, DTYPE_INVALID, NULL);
    bool all = r && dtype_load(r->type, tensor_cdata(r)).u != 0;
    tensor_unref(r);
    return all;
}

/* rtol= and atol= as doubles (default when absent). */
static bool tol_arg(host *h, val v, src_span at, const char *what, double *out)
{
    return v.kind == VAL_MISSING || v.kind == VAL_NONE || host_to_float(h, v, at, what, out);
}

static val close_fn(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                    src_span at, const char *fname, bool all)
{
    val a[5];
    TORCH_READ_ARGS_OTHER(fname, "input, other, rtol=, atol=, equal_nan=", a);
    double rtol = 1e-05, atol = 1e-08;
    bool equal_nan = false;
    if (!tol_arg(h, a[2], at, "rtol", &rtol) || !tol_arg(h, a[3], at, "atol", &atol) ||
        !torch_bool_arg(h, a[4], at, fname, "equal_nan", &equal_nan))
        return val_err();
    char err[TENSOR_ERR_LEN];
    tensor *c = isclose(t, o, rtol, atol, equal_nan, err);
    if (!c)
        return torch_fail(h, at, err);
    if (!all)
        return tensor_val(c);
    bool r = all_true(c);
    tensor_unref(c);
    return val_bool(r);
}

TORCH_NAMED(isclose, close_fn, false)
TORCH_NAMED(allclose, close_fn, true)

/* torch.equal: same shape and equal elements. */
static val fn_equal(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                    src_span at)
{
    val a[2];
    TORCH_READ_ARGS_OTHER("equal", "input, other", a);
    if (t->ndim != o->ndim || memcmp(t->shape, o->shape, sizeof *t->shape * (size_t)t->ndim))
        return val_bool(false);
    char err[TENSOR_ERR_LEN];
    tensor *eq = tensor_binary(TENSOR_EQ, tensor_operand_of(t), tensor_operand_of(o), err);
    if (!eq)
        return torch_fail(h, at, err);
    bool r = all_true(eq);
    tensor_unref(eq);
    return val_bool(r);
}

/* ---- assert_close --------------------------------------------------------------- */

/* torch.testing's default tolerances for a dtype. */
static void default_tols(dtype t, double *rtol, double *atol)
{
    switch (t) {
    case DTYPE_FP16: *rtol = 1e-3; *atol = 1e-5; break;
    case DTYPE_BF16: *rtol = 1.6e-2; *atol = 1e-5; break;
    case DTYPE_FP32: *rtol = 1.3e-6; *atol = 1e-5; break;
    case DTYPE_FP64: *rtol = 1e-7; *atol = 1e-7; break;
    default: *rtol = 0; *atol = 0; break;
    }
}

/* A tolerance as Python prints it: the user's value if given, else the
 * default float. */
static void put_tol(host *h, strbuf *out, val given, double v)
{
    if (given.kind == VAL_INT || given.kind == VAL_FLOAT)
        val_print_repr(h, given, out);
    else
        pyformat_float_repr(out, v);
}

static void put_value(strbuf *out, dtype t, dtype_scalar v)
{
    if (dtype_is_float(t))
        pyformat_float_repr(out, v.f);
    else
        strbuf_printf(out, "%lld", (long long)v.i);
}

/* "(0, 1)" for flat index i of shape; "(1,)" for one dimension. */
static void put_index(strbuf *out, int ndim, const int64_t *shape, int64_t i)
{
    int64_t idx[TENSOR_MAX_DIMS];
    for (int d = ndim - 1; d >= 0; d--) {
        idx[d] = shape[d] ? i % shape[d] : 0;
        i = shape[d] ? i / shape[d] : 0;
    }
    strbuf_putc(out, '(');
    for (int d = 0; d < ndim; d++)
        strbuf_printf(out, d ? ", %lld" : "%lld", (long long)idx[d]);
    strbuf_puts(out, ndim == 1 ? ",)" : ")");
}

/* One "Greatest ... difference" line. */
static void put_diff(host *h, strbuf *out, const char *kind, dtype t, dtype_scalar v, int ndim,
                     const int64_t *shape, int64_t idx, bool equality, val tol_given, double tol)
{
    strbuf_printf(out, "\nGreatest %s difference: ", kind);
    put_value(out, t, v);
    strbuf_puts(out, " at index ");
    put_index(out, ndim, shape, idx);
    if (!equality) {
        strbuf_puts(out, " (up to ");
        put_tol(h, out, tol_given, tol);
        strbuf_puts(out, " allowed)");
    }
}

/* The largest element of a flat tensor and its index. */
static void flat_max(const tensor *t, dtype_scalar *v, int64_t *idx)
{
    tensor *vals, *ix;
    if (!tensor_max_dim(true, t, 0, false, &vals, &ix, NULL)) {
        v->u = 0;
        *idx = 0;
        return;
    }
    *v = dtype_load(vals->type, tensor_cdata(vals));
    *idx = *(const int64_t *)tensor_cdata(ix);
    tensor_unref(vals);
    tensor_unref(ix);
}

/* The "Greatest absolute/relative difference" lines from the flat
 * differences (zero where the elements match). */
static void diff_lines(host *h, strbuf *out, const tensor *absd, const tensor *rel, int ndim,
                       const int64_t *shape, bool equality, double rtol, double atol,
                       val rtol_v, val atol_v)
{
    dtype_scalar v;
    int64_t idx;
    flat_max(absd, &v, &idx);
    put_diff(h, out, "absolute", absd->type, v, ndim, shape, idx, equality, atol_v, atol);
    flat_max(rel, &v, &idx);
    put_diff(h, out, "relative", rel->type, v, ndim, shape, idx, equality, rtol_v, rtol);
}

/* The head of a mismatch message: "Tensor-likes are not close!\n\n
 * Mismatched elements: 1 / 2 (50.0%)". */
static void mismatch_head(strbuf *out, int64_t bad, int64_t total, bool equality)
{
    strbuf_printf(out, "Tensor-likes are not %s!\n\nMismatched elements: %lld / %lld (",
                  equality ? "equal" : "close", (long long)bad, (long long)total);
    pyformat_spec ps;
    if (pyformat_parse_spec(".1%", 3, "float", &ps, NULL, 0))
        pyformat_float(out, (double)bad / (double)total, &ps, NULL, 0);
    strbuf_putc(out, ')');
}

/* assert_close of complex tensors (torch_complex_close gives the
 * differences): PyTorch compares complex distances; the message is the
 * real one's with |actual - expected| and |expected| as magnitudes. */
static bool complex_close(host *h, const tensor *x, const tensor *y, bool has_tols, val rtol_v,
                          val atol_v, bool equal_nan, src_span at, strbuf *msg, bool *failed)
{
    if (!tensor_is_complex(x) || !tensor_is_complex(y) || x->type != y->type) {
        val dx = tensor_is_complex(x) ? val_dtype(TENSOR_DTYPE_COMPLEX | x->type)
                                      : val_dtype(x->type);
        val dy = tensor_is_complex(y) ? val_dtype(TENSOR_DTYPE_COMPLEX | y->type)
                                      : val_dtype(y->type);
        strbuf_puts(msg, "The values for attribute 'dtype' do not match: ");
        val_print_repr(h, dx, msg);
        strbuf_puts(msg, " != ");
        val_print_repr(h, dy, msg);
        strbuf_putc(msg, '.');
        *failed = true;
        return true;
    }
    double rtol, atol;
    default_tols(x->type, &rtol, &atol);
    if (has_tols && (!host_to_float(h, rtol_v, at, "rtol", &rtol) ||
                     !host_to_float(h, atol_v, at, "atol", &atol)))
        return false;
    char err[TENSOR_ERR_LEN];
    tensor *absd = NULL, *abse = NULL;
    tensor *m = torch_complex_close(x, y, rtol, atol, equal_nan, &absd, &abse, err);
    if (!m) {
        torch_fail(h, at, err);
        return false;
    }
    int64_t n = tensor_numel(m), bad = 0;
    for (int64_t i = 0; i < n; i++)
        bad += tensor_get_flat(m, i).u == 0;
    if (bad && m->ndim == 0) {
        /* make_scalar_mismatch_msg: the values as Python complexes (x and
         * y are the view_as_real views, flagged: re and im), then the
         * differences in double, as of Python numbers */
        *failed = true;
        bool equality = rtol == 0 && atol == 0;
        cplx zx = {tensor_get_flat(x, 0).f, tensor_get_flat(x, 1).f};
        cplx zy = {tensor_get_flat(y, 0).f, tensor_get_flat(y, 1).f};
        double d = hypot(zx.re - zy.re, zx.im - zy.im), e = hypot(zy.re, zy.im);
        strbuf_printf(msg, "Scalars are not %s!\n\nExpected ", equality ? "equal" : "close");
        complexval_repr(msg, zy);
        strbuf_puts(msg, " but got ");
        complexval_repr(msg, zx);
        strbuf_puts(msg, ".\nAbsolute difference: ");
        pyformat_float_repr(msg, d);
        if (!equality) {
            strbuf_puts(msg, " (up to ");
            put_tol(h, msg, atol_v, atol);
            strbuf_puts(msg, " allowed)");
        }
        strbuf_puts(msg, "\nRelative difference: ");
        pyformat_float_repr(msg, e == 0 ? INFINITY : d / e);
        if (!equality) {
            strbuf_puts(msg, " (up to ");
            put_tol(h, msg, rtol_v, rtol);
            strbuf_puts(msg, " allowed)");
        }
    } else if (bad) {
        *failed = true;
        bool equality = rtol == 0 && atol == 0;
        mismatch_head(msg, bad, n, equality);
        tensor *rel = tensor_binary(TENSOR_DIV, tensor_operand_of(absd), tensor_operand_of(abse),
                                    err);
        int64_t flat = n;
        tensor *fa = rel ? tensor_reshape(absd, 1, &flat, err) : NULL;
        tensor *fr = fa ? tensor_reshape(rel, 1, &flat, err) : NULL;
        if (fr) {
            for (int64_t i = 0; i < n; i++)
                if (tensor_get_flat(m, i).u) {
                    tensor_set(fa, &i, (dtype_scalar){.f = 0});
                    tensor_set(fr, &i, (dtype_scalar){.f = 0});
                }
            diff_lines(h, msg, fa, fr, m->ndim, m->shape, equality, rtol, atol, rtol_v, atol_v);
        }
        tensor_unref(rel);
        tensor_unref(fa);
        tensor_unref(fr);
    }
    tensor_unref(m);
    tensor_unref(absd);
    tensor_unref(abse);
    return true;
}

/* The mismatch message of two same-shape tensors (torch's
 * make_tensor_mismatch_msg, step by step). */
static bool mismatch_msg(host *h, const tensor *actual, const tensor *expected,
                         const tensor *matches, double rtol, double atol, val rtol_v, val atol_v,
                         strbuf *out, char *err)
{
    int64_t total = tensor_numel(matches), n_match = 0;
    for (int64_t i = 0; i < total; i++)
        n_match += tensor_get_flat(matches, i).u != 0;
    int64_t bad = total - n_match;
    bool equality = rtol == 0 && atol == 0;
    mismatch_head(out, bad, total, equality);

    /* Flatten; ints compare as int64. */
    int64_t n = total;
    dtype ct = dtype_is_float(actual->type) ? actual->type : DTYPE_INT64;
    tensor *a = tensor_reshape(actual, 1, &n, err), *e = a ? tensor_reshape(expected, 1, &n, err) : NULL;
    tensor *m = e ? tensor_reshape(matches, 1, &n, err) : NULL;
    tensor *a2 = m ? tensor_to(a, ct, false, err) : NULL;
    tensor *e2 = a2 ? tensor_to(e, ct, false, err) : NULL;
    tensor *d = e2 ? tensor_binary(TENSOR_SUB, tensor_operand_of(a2), tensor_operand_of(e2), err)
                   : NULL;
    tensor *absd = d ? tensor_unary(TENSOR_ABS, d, err) : NULL;
    tensor *abse = absd ? tensor_unary(TENSOR_ABS, e2, err) : NULL;
    tensor *rel = NULL;
    bool ok = abse != NULL;
    if (ok) {
        /* abs_diff[matches] = 0, then rel_diff = abs_diff / |expected| */
        for (int64_t i = 0; i < n; i++)
            if (tensor_get_flat(m, i).u)
                tensor_set(absd, &i, (dtype_scalar){.u = 0});
        rel = tensor_binary(TENSOR_DIV, tensor_operand_of(absd), tensor_operand_of(abse), err);
        ok = rel != NULL;
    }
    if (ok) {
        for (int64_t i = 0; i < n; i++)
            if (tensor_get_flat(m, i).u)
                tensor_set(rel, &i, (dtype_scalar){.f = 0});
        diff_lines(h, out, absd, rel, actual->ndim, actual->shape, equality, rtol, atol, rtol_v,
                   atol_v);
    }
    tensor *all[] = {a, e, m, a2, e2, d, absd, abse, rel};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        tensor_unref(all[i]);
    return ok;
}

/* make_scalar_mismatch_msg, for 0-d tensors. */
static void scalar_msg(host *h, const tensor *actual, const tensor *expected, double rtol,
                       double atol, val rtol_v, val atol_v, strbuf *out)
{
    dtype t = actual->type;
    dtype_scalar x = dtype_load(t, tensor_cdata(actual)), y = dtype_load(t, tensor_cdata(expected));
    bool fl = dtype_is_float(t), equality = rtol == 0 && atol == 0;
    strbuf_printf(out, "Scalars are not %s!\n\nExpected ", equality ? "equal" : "close");
    if (t == DTYPE_INT1) {
        strbuf_printf(out, "%s but got %s.", y.u ? "True" : "False", x.u ? "True" : "False");
        x.i = (int64_t)x.u;
        y.i = (int64_t)y.u;
    } else {
        if (!fl) {
            x = dtype_cast(x, t, DTYPE_INT64);
            y = dtype_cast(y, t, DTYPE_INT64);
        }
        put_value(out, fl ? t : DTYPE_INT64, y);
        strbuf_puts(out, " but got ");
        put_value(out, fl ? t : DTYPE_INT64, x);
        strbuf_putc(out, '.');
    }
    strbuf_puts(out, "\nAbsolute difference: ");
    double rel;
    if (fl) {
        double d = fabs(x.f - y.f);
        pyformat_float_repr(out, d);
        rel = y.f == 0 ? INFINITY : d / fabs(y.f);
    } else {
        int64_t d = x.i > y.i ? x.i - y.i : y.i - x.i;
        strbuf_printf(out, "%lld", (long long)d);
        rel = y.i == 0 ? INFINITY : (double)d / fabs((double)y.i);
    }
    if (!equality) {
        strbuf_puts(out, " (up to ");
        put_tol(h, out, atol_v, atol);
        strbuf_puts(out, " allowed)");
    }
    strbuf_puts(out, "\nRelative difference: ");
    pyformat_float_repr(out, rel);
    if (!equality) {
        strbuf_puts(out, " (up to ");
        put_tol(h, out, rtol_v, rtol);
        strbuf_puts(out, " allowed)");
    }
}

/* The checks of attributes assert_close makes before comparing values. */
static bool attrs_match(host *h, const tensor *x, const tensor *y, bool check_dtype,
                        bool check_device, strbuf *out)
{
    if (x->ndim != y->ndim || memcmp(x->shape, y->shape, sizeof *x->shape * (size_t)x->ndim)) {
        strbuf_puts(out, "The values for attribute 'shape' do not match: ");
        val a = torch_size_new(x->ndim, x->shape), b = torch_size_new(y->ndim, y->shape);
        val_print_repr(h, a, out);
        strbuf_puts(out, " != ");
        val_print_repr(h, b, out);
        strbuf_putc(out, '.');
        val_unref(a);
        val_unref(b);
        return false;
    }
    if (check_device && x->cuda != y->cuda) {
        strbuf_printf(out, "The values for attribute 'device' do not match: %s != %s.",
                      x->cuda ? "cuda:0" : "cpu", y->cuda ? "cuda:0" : "cpu");
        return false;
    }
    if (check_dtype && x->type != y->type) {
        strbuf_printf(out, "The values for attribute 'dtype' do not match: %s != %s.",
                      dtype_torch_name(x->type), dtype_torch_name(y->type));
        return false;
    }
    return true;
}

/* torch.testing.assert_close(actual, expected, *, rtol=None, atol=None,
 * equal_nan=False, check_device=True, check_dtype=True, msg=None) */
static val fn_assert_close(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                           src_span at)
{
    (void)self;
    val a[10];
    if (!host_args(h, at, "assert_close", "actual, expected, *, allow_subclasses=, rtol=, atol=, "
                   "equal_nan=, check_device=, check_dtype=, check_layout=, msg=", argc, argv, kw,
                   a))
        return val_err();
    tensor *x = torch_tensor_arg(h, a[0], at, "assert_close", "actual");
    tensor *y = x ? torch_tensor_arg(h, a[1], at, "assert_close", "expected") : NULL;
    if (!y)
        return val_err();
    bool has_r = a[3].kind != VAL_MISSING && a[3].kind != VAL_NONE;
    bool has_a = a[4].kind != VAL_MISSING && a[4].kind != VAL_NONE;
    if (has_r != has_a)
        return host_error(h, at, "Both 'rtol' and 'atol' must be either specified or omitted, "
                          "but got no %s.", has_r ? "atol" : "rtol");
    bool equal_nan = false, check_device = true, check_dtype = true;
    if (!torch_bool_arg(h, a[5], at, "assert_close", "equal_nan", &equal_nan) ||
        !torch_bool_arg(h, a[6], at, "assert_close", "check_device", &check_device) ||
        !torch_bool_arg(h, a[7], at, "assert_close", "check_dtype", &check_dtype))
        return val_err();
    strbuf msg = {0};
    char err[TENSOR_ERR_LEN];
    tensor *cx = NULL, *cy = NULL, *matches = NULL;
    if (tensor_is_complex(x) || tensor_is_complex(y)) {
        bool failed = false;
        if (!complex_close(h, x, y, has_r, a[3], a[4], equal_nan, at, &msg, &failed)) {
            strbuf_free(&msg);
            return val_err();
        }
        val r = val_none();
        if (failed)
            r = host_error(h, at, "AssertionError: %s",
                           a[9].kind == VAL_STR ? val_as_str(a[9])->s : strbuf_cstr(&msg));
        strbuf_free(&msg);
        return r;
    }
    double rtol, atol;
    bool failed = false, ok = true;
    if (!attrs_match(h, x, y, check_dtype, check_device, &msg)) {
        failed = true;
    } else {
        dtype ct = x->type;
        if (x->type != y->type) {
            /* check_dtype=False: compare in the promoted type, with the
             * looser of the two default tolerances */
            double r2, a2;
            ct = tensor_promote_types(x->type, y->type, err);
            default_tols(y->type, &r2, &a2);
            default_tols(x->type, &rtol, &atol);
            rtol = rtol > r2 ? rtol : r2;
            atol = atol > a2 ? atol : a2;
        } else {
            default_tols(ct, &rtol, &atol);
        }
        if (has_r && (!host_to_float(h, a[3], at, "rtol", &rtol) ||
                      !host_to_float(h, a[4], at, "atol", &atol)))
            ok = false;
        cx = ok && ct != DTYPE_INVALID ? tensor_to(x, ct, false, err) : NULL;
        cy = cx ? tensor_to(y, ct, false, err) : NULL;
        matches = cy ? isclose(cx, cy, rtol, atol, equal_nan, err) : NULL;
        if (ok && !matches) {
            torch_fail(h, at, err);
            ok = false;
        }
        if (matches && !all_true(matches)) {
            failed = true;
            if (cx->ndim == 0)
                scalar_msg(h, cx, cy, rtol, atol, a[3], a[4], &msg);
            else if (!mismatch_msg(h, cx, cy, matches, rtol, atol, a[3], a[4], &msg, err)) {
                torch_fail(h, at, err);
                ok = false;
                failed = false;
            }
        }
    }
    tensor_unref(cx);
    tensor_unref(cy);
    tensor_unref(matches);
    val r = ok ? val_none() : val_err();
    if (failed) {
        if (a[9].kind == VAL_STR)
            r = host_error(h, at, "AssertionError: %s", val_as_str(a[9])->s);
        else
            r = host_error(h, at, "AssertionError: %s", strbuf_cstr(&msg));
    }
    strbuf_free(&msg);
    return r;
}

const torch_fn torch_testing_fns[] = {
    TORCH_BOTH("isclose", fn_isclose),
    TORCH_BOTH("allclose", fn_allclose),
    TORCH_BOTH("equal", fn_equal),
    {NULL, NULL, NULL, NULL, NULL, 0},
};

/* torch.testing.assert_close, for torchmod.c to register. */
val torch_testing_assert_close(void)
{
    return val_builtin_new("torch.testing.assert_close", fn_assert_close, val_none());
}
