/* torch_math.c - the arithmetic of the torch module: functions that are
 * both torch.f(x, ...) and x.f(...) (and often torch.nn.functional.f):
 * unary functions, binary operators, in-place forms, reductions, softmax,
 * matrix products, where, clamp, cat and stack, F.layer_norm, cumsum and
 * cumprod, logsumexp, bincount and
 * the vector norms (torch.norm, torch.linalg.vector_norm). */
#include "torch_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensor_loops.h"
#include "tensor_par.h"

/* ---- binary operators ------------------------------------------------------ */

val torch_binop(host *h, tensor_binop op, val a, val b, src_span at)
{
    tensor_operand x, y;
    if (!torch_operand(a, &x) || !torch_operand(b, &y))
        return val_missing();
    char err[TENSOR_ERR_LEN];
    if (!x.t && op == TENSOR_DIV) {
        /* number / tensor is tensor.reciprocal() * number in torch. */
        tensor *r = tensor_binary(TENSOR_DIV, tensor_operand_int(1), y, err);
        tensor *p = r ? tensor_binary(TENSOR_MUL, tensor_operand_of(r), x, err) : NULL;
        tensor_unref(r);
        return torch_result(h, at, p, err);
    }
    return torch_result(h, at, tensor_binary(op, x, y, err), err);
}

/* An operand argument, or false after reporting what it must be. */
static bool operand_arg(host *h, val v, src_span at, const char *fname, const char *arg,
                        tensor_operand *out)
{
    if (torch_operand(v, out))
        return true;
    host_error(h, at, "%s(): argument '%s' must be Tensor or Number, not %s", fname, arg,
               val_type_name(v));
    return false;
}

/* other * alpha, for add/sub; *owned receives a tensor to drop. */
static bool scale_by_alpha(host *h, val alpha, tensor_operand *y, tensor **owned, src_span at,
                           const char *fname, char *err)
{
    *owned = NULL;
    if (alpha.kind == VAL_MISSING)
        return true;
    tensor_operand al;
    if (!operand_arg(h, alpha, at, fname, "alpha", &al))
        return false;
    if (!y->t && !al.t) {
        /* number * number: keep a number so promotion stays the same */
        if (y->type == DTYPE_FP64 || al.type == DTYPE_FP64) {
            double a = al.type == DTYPE_FP64 ? al.value.f : (double)al.value.i;
            double b = y->type == DTYPE_FP64 ? y->value.f : (double)y->value.i;
            *y = tensor_operand_float(a * b);
        } else {
            *y = tensor_operand_int(al.value.i * y->value.i);
        }
        return true;
    }
    *owned = tensor_binary(TENSOR_MUL, *y, al, err);
    if (!*owned) {
        torch_fail(h, at, err);
        return false;
    }
    *y = tensor_operand_of(*owned);
    return true;
}

/* torch.add(input, other, *, alpha=1) and the other binary functions; an
 * in-place method (add_) writes into input. */
static val binary(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                  src_span at, const char *fname, tensor_binop op, bool inplace)
{
    val a[3];
    bool has_alpha = op == TENSOR_ADD || op == TENSOR_SUB;
    val all[TORCH_ARGS_MAX];
    int n = torch_self_args(self, argc, argv, all, TORCH_ARGS_MAX);
    if (!host_args(h, at, fname, has_alpha ? "input, other, *, alpha=" : "input, other", n, all,
                   kw, a))
        return val_err();
    tensor_operand x, y;
    if (!operand_arg(h, a[0], at, fname, "input", &x) ||
        !operand_arg(h, a[1], at, fname, "other", &y))
        return val_err();
    if (!x.t && !y.t)
        return host_error(h, at, "%s(): expected a Tensor as 'input' or 'other', got two "
                          "numbers", fname);
    char err[TENSOR_ERR_LEN];
    tensor *owned = NULL;
    if (has_alpha && !scale_by_alpha(h, a[2], &y, &owned, at, fname, err))
        return val_err();
    val r;
    if (inplace) {
        if (!x.t)
            r = host_error(h, at, "%s(): the input must be a Tensor", fname);
        else if (!tensor_binary_inplace(op, (tensor *)x.t, y, err))
            r = torch_fail(h, at, err);
        else
            r = val_ref(a[0]);
    } else {
        r = torch_result(h, at, tensor_binary(op, x, y, err), err);
    }
    tensor_unref(owned);
    return r;
}

TORCH_NAMED(add, binary, TENSOR_ADD, false)
TORCH_NAMED(sub, binary, TENSOR_SUB, false)
TORCH_NAMED(mul, binary, TENSOR_MUL, false)
TORCH_NAMED(true_divide, binary, TENSOR_DIV, false)
TORCH_NAMED(floor_divide, binary, TENSOR_FLOORDIV, false)
TORCH_NAMED(remainder, binary, TENSOR_MOD, false)
TORCH_NAMED(pow, binary, TENSOR_POW, false)
TORCH_NAMED(atan2, binary, TENSOR_ATAN2, false)
TORCH_NAMED(hypot, binary, TENSOR_HYPOT, false)
TORCH_NAMED(maximum, binary, TENSOR_MAXIMUM, false)
TORCH_NAMED(minimum, binary, TENSOR_MINIMUM, false)
TORCH_NAMED(eq, binary, TENSOR_EQ, false)
TORCH_NAMED(ne, binary, TENSOR_NE, false)
TORCH_NAMED(lt, binary, TENSOR_LT, false)
TORCH_NAMED(le, binary, TENSOR_LE, false)
TORCH_NAMED(gt, binary, TENSOR_GT, false)
TORCH_NAMED(ge, binary, TENSOR_GE, false)
TORCH_NAMED(bitwise_and, binary, TENSOR_AND, false)
TORCH_NAMED(bitwise_or, binary, TENSOR_OR, false)
TORCH_NAMED(bitwise_xor, binary, TENSOR_XOR, false)
TORCH_NAMED(add_, binary, TENSOR_ADD, true)
TORCH_NAMED(sub_, binary, TENSOR_SUB, true)
TORCH_NAMED(mul_, binary, TENSOR_MUL, true)
TORCH_NAMED(div_, binary, TENSOR_DIV, true)
TORCH_NAMED(pow_, binary, TENSOR_POW, true)

/* torch.div(input, other, *, rounding_mode=None|'trunc'|'floor') */
static val fn_div(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                  src_span at)
{
    val a[3];
    val all[TORCH_ARGS_MAX];
    int n = torch_self_args(self, argc, argv, all, TORCH_ARGS_MAX);
    if (!host_args(h, at, "div", "input, other, *, rounding_mode=", n, all, kw, a))
        return val_err();
    tensor_operand x, y;
    if (!operand_arg(h, a[0], at, "div", "input", &x) ||
        !operand_arg(h, a[1], at, "div", "other", &y))
        return val_err();
    char err[TENSOR_ERR_LEN];
    const char *mode = NULL;
    if (a[2].kind != VAL_MISSING && a[2].kind != VAL_NONE &&
        !host_to_str(h, a[2], at, "div() argument 'rounding_mode'", &mode))
        return val_err();
    if (!mode)
        return torch_result(h, at, tensor_binary(TENSOR_DIV, x, y, err), err);
    if (!strcmp(mode, "floor"))
        return torch_result(h, at, tensor_binary(TENSOR_FLOORDIV, x, y, err), err);
    if (strcmp(mode, "trunc"))
        return host_error(h, at, "div expected rounding_mode to be one of None, 'trunc', or "
                          "'floor' but found '%s'", mode);
    tensor_operand both[2] = {x, y};
    dtype common = tensor_result_type(2, both, err);
    if (common == DTYPE_INVALID)
        return torch_fail(h, at, err);
    tensor *q = tensor_binary(TENSOR_DIV, x, y, err);
    tensor *tq = q ? tensor_unary(TENSOR_TRUNC, q, err) : NULL;
    tensor *r = tq && tq->type != common ? tensor_to(tq, common, tq->cuda, err)
                                         : (tq ? tensor_ref(tq) : NULL);
    tensor_unref(q);
    tensor_unref(tq);
    return torch_result(h, at, r, err);
}

/* logical_and/or/xor: both operands as bools. */
static val logical(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                   src_span at, const char *fname, tensor_binop op)
{
    val a[2];
    TORCH_READ_ARGS_OTHER(fname, "input, other", a);
    char err[TENSOR_ERR_LEN];
    tensor *x = tensor_to(t, DTYPE_INT1, t->cuda, err);
    tensor *y = x ? tensor_to(o, DTYPE_INT1, o->cuda, err) : NULL;
    tensor *r = y ? tensor_binary(op, tensor_operand_of(x), tensor_operand_of(y), err) : NULL;
    tensor_unref(x);
    tensor_unref(y);
    return torch_result(h, at, r, err);
}

TORCH_NAMED(logical_and, logical, TENSOR_AND)
TORCH_NAMED(logical_or, logical, TENSOR_OR)
TORCH_NAMED(logical_xor, logical, TENSOR_XOR)

/* ---- unary functions --------------------------------------------------------- */

/* Store r into t in place (x.relu_(), F.relu(x, inplace=True)). */
static val write_back(host *h, val tv, tensor *r, src_span at, char *err)
{
    tensor *t = tensor_of(tv);
    if (!tensor_can_cast(r->type, t->type)) {
        dtype rt = r->type;
        tensor_unref(r);
        return host_error(h, at, "result type %s can't be cast to the desired output type %s",
                          tensor_type_name(rt), tensor_type_name(t->type));
    }
    bool ok = tensor_copy_into(t, r, err);
    tensor_unref(r);
    return ok ? val_ref(tv) : torch_fail(h, at, err);
}

static val unary(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                 src_span at, const char *fname, tensor_unop op, bool inplace)
{
    val a[2];
    TORCH_READ_ARGS(fname, "input, inplace=", a);
    bool in_place = inplace;
    if (!torch_bool_arg(h, a[1], at, fname, "inplace", &in_place))
        return val_err();
    char err[TENSOR_ERR_LEN];
    tensor *r = tensor_unary(op, t, err);
    if (!r)
        return torch_fail(h, at, err);
    return in_place ? write_back(h, a[0], r, at, err) : tensor_val(r);
}

TORCH_NAMED(abs, unary, TENSOR_ABS, false)
TORCH_NAMED(neg, unary, TENSOR_NEG, false)
TORCH_NAMED(exp, unary, TENSOR_EXP, false)
TORCH_NAMED(exp2, unary, TENSOR_EXP2, false)
TORCH_NAMED(log, unary, TENSOR_LOG, false)
TORCH_NAMED(log2, unary, TENSOR_LOG2, false)
TORCH_NAMED(sqrt, unary, TENSOR_SQRT, false)
TORCH_NAMED(rsqrt, unary, TENSOR_RSQRT, false)
TORCH_NAMED(sin, unary, TENSOR_SIN, false)
TORCH_NAMED(cos, unary, TENSOR_COS, false)
TORCH_NAMED(tanh, unary, TENSOR_TANH, false)
TORCH_NAMED(sigmoid, unary, TENSOR_SIGMOID, false)
TORCH_NAMED(tan, unary, TENSOR_TAN, false)
TORCH_NAMED(asin, unary, TENSOR_ASIN, false)
TORCH_NAMED(acos, unary, TENSOR_ACOS, false)
TORCH_NAMED(atan, unary, TENSOR_ATAN, false)
TORCH_NAMED(sinh, unary, TENSOR_SINH, false)
TORCH_NAMED(cosh, unary, TENSOR_COSH, false)
TORCH_NAMED(asinh, unary, TENSOR_ASINH, false)
TORCH_NAMED(acosh, unary, TENSOR_ACOSH, false)
TORCH_NAMED(atanh, unary, TENSOR_ATANH, false)
TORCH_NAMED(expm1, unary, TENSOR_EXPM1, false)
TORCH_NAMED(log10, unary, TENSOR_LOG10, false)
TORCH_NAMED(log1p, unary, TENSOR_LOG1P, false)
TORCH_NAMED(erf, unary, TENSOR_ERF, false)
TORCH_NAMED(erfc, unary, TENSOR_ERFC, false)
TORCH_NAMED(erfinv, unary, TENSOR_ERFINV, false)
TORCH_NAMED(lgamma, unary, TENSOR_LGAMMA, false)
TORCH_NAMED(relu, unary, TENSOR_RELU, false)
TORCH_NAMED(silu, unary, TENSOR_SILU, false)
TORCH_NAMED(floor, unary, TENSOR_FLOOR, false)
TORCH_NAMED(ceil, unary, TENSOR_CEIL, false)
TORCH_NAMED(trunc, unary, TENSOR_TRUNC, false)
TORCH_NAMED(isnan, unary, TENSOR_ISNAN, false)
TORCH_NAMED(isinf, unary, TENSOR_ISINF, false)
TORCH_NAMED(isfinite, unary, TENSOR_ISFINITE, false)
TORCH_NAMED(bitwise_not, unary, TENSOR_INVERT, false)
TORCH_NAMED(abs_, unary, TENSOR_ABS, true)
TORCH_NAMED(neg_, unary, TENSOR_NEG, true)
TORCH_NAMED(exp_, unary, TENSOR_EXP, true)
TORCH_NAMED(sqrt_, unary, TENSOR_SQRT, true)
TORCH_NAMED(relu_, unary, TENSOR_RELU, true)

/* torch.round(input, *, decimals=0) */
static val fn_round(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                    src_span at)
{
    val a[2];
    TORCH_READ_ARGS("round", "input, *, decimals=", a);
    int64_t dec = 0;
    if (a[1].kind != VAL_MISSING && !torch_int_arg(h, a[1], at, "round", "decimals", &dec))
        return val_err();
    char err[TENSOR_ERR_LEN];
    if (dec == 0)
        return torch_result(h, at, tensor_unary(TENSOR_ROUND, t, err), err);
    /* torch: round(x * 10^d) / 10^d */
    double scale = pow(10.0, (double)(dec < 0 ? -dec : dec));
    tensor_operand s = tensor_operand_float(dec > 0 ? scale : 1 / scale);
    tensor *m = tensor_binary(TENSOR_MUL, tensor_operand_of(t), s, err);
    tensor *r = m ? tensor_unary(TENSOR_ROUND, m, err) : NULL;
    tensor *q = r ? tensor_binary(TENSOR_DIV, tensor_operand_of(r), s, err) : NULL;
    tensor_unref(m);
    tensor_unref(r);
    return torch_result(h, at, q, err);
}

/* round(t) and round(t, n): Python passes ndigits positionally. */
static val fn_round_dunder(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                           src_span at)
{
    if (argc == 1 && argv[0].kind != VAL_NONE) {
        const char *name = "decimals";
        val_kwargs k = {1, &name, argv};
        return fn_round(h, self, 0, NULL, &k, at);
    }
    return fn_round(h, self, 0, NULL, kw, at);
}

static val fn_logical_not(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                          src_span at)
{
    val a[1];
    TORCH_READ_ARGS("logical_not", "input", a);
    char err[TENSOR_ERR_LEN];
    tensor *b = tensor_to(t, DTYPE_INT1, t->cuda, err);
    tensor *r = b ? tensor_unary(TENSOR_INVERT, b, err) : NULL;
    tensor_unref(b);
    return torch_result(h, at, r, err);
}

static val fn_square(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                     src_span at)
{
    val a[1];
    TORCH_READ_ARGS("square", "input", a);
    char err[TENSOR_ERR_LEN];
    return torch_result(h, at, tensor_binary(TENSOR_MUL, tensor_operand_of(t),
                                             tensor_operand_of(t), err), err);
}

/* F.gelu(input, approximate='none') */
static val fn_gelu(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                   src_span at)
{
    val a[2];
    TORCH_READ_ARGS("gelu", "input, approximate=", a);
    const char *mode = "none";
    if (a[1].kind != VAL_MISSING && !host_to_str(h, a[1], at, "gelu() argument 'approximate'",
                                                 &mode))
        return val_err();
    if (strcmp(mode, "none") && strcmp(mode, "tanh"))
        return host_error(h, at, "approximate argument must be either none or tanh.");
    char err[TENSOR_ERR_LEN];
    tensor_unop op = strcmp(mode, "tanh") ? TENSOR_GELU : TENSOR_GELU_TANH;
    return torch_result(h, at, tensor_unary(op, t, err), err);
}

/* ---- clamp and where -------------------------------------------------------- */

static val clamp(host *h, val self, int argc, const val *argv, const val_kwargs *kw, src_span at,
                 bool inplace)
{
    val a[3];
    TORCH_READ_ARGS(inplace ? "clamp_" : "clamp", "input, min=, max=", a);
    tensor_operand lo, hi;
    bool has_lo = a[1].kind != VAL_MISSING && a[1].kind != VAL_NONE;
    bool has_hi = a[2].kind != VAL_MISSING && a[2].kind != VAL_NONE;
    if ((has_lo && !operand_arg(h, a[1], at, "clamp", "min", &lo)) ||
        (has_hi && !operand_arg(h, a[2], at, "clamp", "max", &hi)))
        return val_err();
    char err[TENSOR_ERR_LEN];
    tensor *r = tensor_clamp(t, has_lo ? &lo : NULL, has_hi ? &hi : NULL, err);
    if (!r)
        return torch_fail(h, at, err);
    return inplace ? write_back(h, a[0], r, at, err) : tensor_val(r);
}

HOST_CFUNC_CALLING(fn_clamp, clamp, false)
HOST_CFUNC_CALLING(fn_clamp_, clamp, true)

/* torch.where(condition, input, other) */
static val fn_where(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                    src_span at)
{
    (void)self;
    val a[3];
    if (!host_args(h, at, "where", "condition, input=, other=", argc, argv, kw, a))
        return val_err();
    tensor *c = torch_tensor_arg(h, a[0], at, "where", "condition");
    if (!c)
        return val_err();
    char err[TENSOR_ERR_LEN];
    if (a[1].kind == VAL_MISSING && a[2].kind == VAL_MISSING) {
        /* torch.where(cond) is cond.nonzero(as_tuple=True) */
        val m = host_getattr(h, a[0], "nonzero", at);
        if (m.kind == VAL_ERR)
            return m;
        const char *name = "as_tuple";
        val t = val_bool(true);
        val_kwargs k = {1, &name, &t};
        val r = host_call(h, m, 0, NULL, &k, at);
        val_unref(m);
        return r;
    }
    tensor_operand x, y;
    if (!operand_arg(h, a[1], at, "where", "input", &x) ||
        !operand_arg(h, a[2], at, "where", "other", &y))
        return val_err();
    return torch_result(h, at, tensor_where(c, x, y, err), err);
}

/* ---- reductions ---------------------------------------------------------------- */

/* The dim= argument of a reduction: absent/None means all dimensions. */
static bool dims_arg(host *h, val v, src_span at, const char *fname, int *n, int64_t *dims,
                     bool *all)
{
    *all = v.kind == VAL_MISSING || v.kind == VAL_NONE;
    *n = 0;
    return *all || torch_int_list(h, v, at, fname, "dim", n, dims, TENSOR_MAX_DIMS);
}

static val reduce(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                  src_span at, const char *fname, tensor_reduce_op op)
{
    TORCH_AXIS_IS_DIM(kw);
    val a[4];
    TORCH_READ_ARGS(fname, "input, dim=, keepdim=, *, dtype=", a);
    int n;
    int64_t dims[TENSOR_MAX_DIMS];
    bool all, keep = false;
    dtype dt = DTYPE_INVALID;
    if (!dims_arg(h, a[1], at, fname, &n, dims, &all) ||
        !torch_bool_arg(h, a[2], at, fname, "keepdim", &keep) ||
        !torch_dtype_arg(h, a[3], at, fname, &dt))
        return val_err();
    char err[TENSOR_ERR_LEN];
    return torch_result(h, at, tensor_reduce(op, t, n, all ? NULL : dims, keep, dt, err), err);
}

TORCH_NAMED(sum, reduce, TENSOR_SUM)
TORCH_NAMED(prod, reduce, TENSOR_PROD)
TORCH_NAMED(mean, reduce, TENSOR_MEAN)
TORCH_NAMED(amax, reduce, TENSOR_AMAX)
TORCH_NAMED(amin, reduce, TENSOR_AMIN)
TORCH_NAMED(all, reduce, TENSOR_ALL)
TORCH_NAMED(any, reduce, TENSOR_ANY)

/* What var_std computes: var, std, (var, mean) or (std, mean). */
enum { VS_VAR, VS_STD, VS_VAR_MEAN, VS_STD_MEAN };

/* var/std(input, dim=None, *, correction=1, keepdim=False): the mean of
 * squared deviations, divided by N - correction (unbiased= also works);
 * var_mean/std_mean return the tuple (var or std, mean). */
static val var_std(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                   src_span at, const char *fname, int what)
{
    TORCH_AXIS_IS_DIM(kw);
    val a[5];
    TORCH_READ_ARGS(fname, "input, dim=, unbiased=, keepdim=, *, correction=", a);
    int n;
    int64_t dims[TENSOR_MAX_DIMS];
    bool all, keep = false, unbiased = true;
    int64_t correction = 1;
    if (!dims_arg(h, a[1], at, fname, &n, dims, &all) ||
        !torch_bool_arg(h, a[2], at, fname, "unbiased", &unbiased) ||
        !torch_bool_arg(h, a[3], at, fname, "keepdim", &keep) ||
        (a[4].kind != VAL_MISSING && !torch_int_arg(h, a[4], at, fname, "correction",
                                                     &correction)))
        return val_err();
    if (a[2].kind != VAL_MISSING)
        correction = unbiased;
    char err[TENSOR_ERR_LEN];
    const int64_t *d = all ? NULL : dims;
    tensor *mean = tensor_reduce(TENSOR_MEAN, t, n, d, true, DTYPE_INVALID, err);
    tensor *dev = mean ? tensor_binary(TENSOR_SUB, tensor_operand_of(t), tensor_operand_of(mean),
                                       err) : NULL;
    tensor *sq = dev ? tensor_binary(TENSOR_MUL, tensor_operand_of(dev), tensor_operand_of(dev),
                                     err) : NULL;
    tensor *sum = sq ? tensor_reduce(TENSOR_SUM, sq, n, d, keep, DTYPE_INVALID, err) : NULL;
    tensor *r = NULL;
    if (sum) {
        int64_t count = tensor_numel(t) / (tensor_numel(mean) ? tensor_numel(mean) : 1);
        double denom = (double)(count - correction);
        r = tensor_binary(TENSOR_DIV, tensor_operand_of(sum),
                          tensor_operand_float(denom > 0 ? denom : 0.0), err);
    }
    if (r && (what == VS_STD || what == VS_STD_MEAN)) {
        tensor *s = tensor_unary(TENSOR_SQRT, r, err);
        tensor_unref(r);
        r = s;
    }
    tensor *m = NULL;
    if (r && (what == VS_VAR_MEAN || what == VS_STD_MEAN)) {
        m = keep ? tensor_ref(mean) : tensor_reduce(TENSOR_MEAN, t, n, d, false, DTYPE_INVALID,
                                                    err);
        if (!m) {
            tensor_unref(r);
            r = NULL;
        }
    }
    tensor *tmp[] = {mean, dev, sq, sum};
    for (size_t i = 0; i < sizeof tmp / sizeof *tmp; i++)
        tensor_unref(tmp[i]);
    if (!r)
        return torch_fail(h, at, err);
    if (!m)
        return tensor_val(r);
    return val_tuple_of(2, (val[]){tensor_val(r), tensor_val(m)});
}

TORCH_NAMED(var, var_std, VS_VAR)
TORCH_NAMED(std, var_std, VS_STD)
TORCH_NAMED(var_mean, var_std, VS_VAR_MEAN)
TORCH_NAMED(std_mean, var_std, VS_STD_MEAN)

static val arg_reduce(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                      src_span at, const char *fname, tensor_reduce_op op)
{
    TORCH_AXIS_IS_DIM(kw);
    val a[3];
    TORCH_READ_ARGS(fname, "input, dim=, keepdim=", a);
    int64_t dim = 0;
    bool all = a[1].kind == VAL_MISSING || a[1].kind == VAL_NONE, keep = false;
    if ((!all && !torch_int_arg(h, a[1], at, fname, "dim", &dim)) ||
        !torch_bool_arg(h, a[2], at, fname, "keepdim", &keep))
        return val_err();
    char err[TENSOR_ERR_LEN];
    return torch_result(h, at, tensor_reduce(op, t, all ? 0 : 1, all ? NULL : &dim, keep,
                                             DTYPE_INVALID, err), err);
}

TORCH_NAMED(argmax, arg_reduce, TENSOR_ARGMAX)
TORCH_NAMED(argmin, arg_reduce, TENSOR_ARGMIN)

/* max(input) -> value; max(input, dim, keepdim=False) -> (values, indices);
 * max(input, other) -> maximum.  min likewise. */
static val max_min(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                   src_span at, bool is_max)
{
    TORCH_AXIS_IS_DIM(kw);
    const char *fname = is_max ? "max" : "min";
    val a[4];
    TORCH_READ_ARGS(fname, "input, dim=, keepdim=, *, other=", a);
    char err[TENSOR_ERR_LEN];
    val other = a[3].kind != VAL_MISSING ? a[3] : a[1].kind == VAL_TENSOR ? a[1] : val_missing();
    if (other.kind != VAL_MISSING) {
        tensor *o = torch_tensor_arg(h, other, at, fname, "other");
        if (!o)
            return val_err();
        return torch_result(h, at, tensor_binary(is_max ? TENSOR_MAXIMUM : TENSOR_MINIMUM,
                                                 tensor_operand_of(t), tensor_operand_of(o),
                                                 err), err);
    }
    if (a[1].kind == VAL_MISSING || a[1].kind == VAL_NONE) {
        if (a[2].kind != VAL_MISSING)
            return host_error(h, at, "%s(): keepdim needs a dim", fname);
        return torch_result(h, at, tensor_reduce(is_max ? TENSOR_AMAX : TENSOR_AMIN, t, 0, NULL,
                                                 false, DTYPE_INVALID, err), err);
    }
    int64_t dim;
    bool keep = false;
    if (!torch_int_arg(h, a[1], at, fname, "dim", &dim) ||
        !torch_bool_arg(h, a[2], at, fname, "keepdim", &keep))
        return val_err();
    tensor *vals, *idx;
    if (!tensor_max_dim(is_max, t, dim, keep, &vals, &idx, err))
        return torch_fail(h, at, err);
    return torch_return_pair(fname, tensor_val(vals), tensor_val(idx));
}

HOST_CFUNC_CALLING(fn_max, max_min, true)
HOST_CFUNC_CALLING(fn_min, max_min, false)

/* softmax(input, dim, dtype=None); F.softmax's dim may be left out (torch
 * then picks 0 for 0-, 1- and 3-D inputs, else 1, with a warning). */
static val softmax(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                   src_span at, const char *fname, bool log)
{
    TORCH_AXIS_IS_DIM(kw);
    val a[4];
    TORCH_READ_ARGS(fname, "input, dim=, _stacklevel=, dtype=", a);
    int64_t dim;
    dtype dt = DTYPE_INVALID;
    if (a[1].kind == VAL_MISSING || a[1].kind == VAL_NONE)
        dim = t->ndim == 0 || t->ndim == 1 || t->ndim == 3 ? 0 : 1;
    else if (!torch_int_arg(h, a[1], at, fname, "dim", &dim))
        return val_err();
    if (!torch_dtype_arg(h, a[3], at, fname, &dt))
        return val_err();
    char err[TENSOR_ERR_LEN];
    return torch_result(h, at, tensor_softmax(t, dim, log, dt, err), err);
}

TORCH_NAMED(softmax, softmax, false)
TORCH_NAMED(log_softmax, softmax, true)

/* ---- layer norm --------------------------------------------------------------- */

/* Formats shape as torch prints it in messages: [3, 4]. */
static void shape_text(char *buf, size_t cap, int n, const int64_t *shape)
{
    size_t len = (size_t)snprintf(buf, cap, "[");
    for (int i = 0; i < n && len < cap; i++)
        len += (size_t)snprintf(buf + len, cap - len, "%s%lld", i ? ", " : "",
                                (long long)shape[i]);
    if (len < cap)
        snprintf(buf + len, cap - len, "]");
}

/* Checks an optional weight or bias against normalized_shape. */
static bool layer_norm_param(host *h, const tensor *p, const char *what, int n,
                             const int64_t *shape, src_span at)
{
    bool same = p->ndim == n;
    for (int i = 0; same && i < n; i++)
        same = p->shape[i] == shape[i];
    if (same)
        return true;
    char ps[48], ns[48], err[TENSOR_ERR_LEN];
    shape_text(ps, sizeof ps, p->ndim, p->shape);
    shape_text(ns, sizeof ns, n, shape);
    snprintf(err, sizeof err, "Expected %s to be of same shape as normalized_shape, but got "
             "%s of shape %s and normalized_shape = %s", what, what, ps, ns);
    torch_fail(h, at, err);
    return false;
}

/* ---- layer_norm a row at a time ---- */

/* layer_norm_rows' work: R rows of C elements of x (contiguous), w and b
 * (NULL or C elements of work's dtype), y (contiguous, x's dtype). */
enum { LN_FWD_ROWS = 8 };
typedef struct ln_fwd {
    const tensor *x;          /* its dtype and element size */
    const unsigned char *xp;  /* the elements of x and y (from the caller's */
    unsigned char *yp;        /* thread: coherence is not threaded) */
    const void *w, *b;
    int64_t R, C;
    double eps;
} ln_fwd;

/* The steps of layer_norm's tensor operations on one row in float32,
 * each rounded as that operation rounds: the mean and the variance sum
 * in double in order and round once (tensor_reduce), x - mean, its
 * square, var + eps (eps as float32), 1 / sqrt in double rounded, the
 * products and the sum in float32. */
static void ln_fwd_row_f32(const ln_fwd *j, float *xr)
{
    int64_t C = j->C;
    double s = 0;
    for (int64_t c = 0; c < C; c++)
        s += xr[c];
    float mean = (float)(s / (double)C);
    double v = 0;
    for (int64_t c = 0; c < C; c++) {
        float d = xr[c] - mean;
        xr[c] = d;
        float sq = d * d;
        v += sq;
    }
    float var = (float)(v / (double)C);
    float ve = var + (float)j->eps;
    float rstd = (float)(1.0 / sqrt((double)ve));
    const float *w = j->w, *b = j->b;
    for (int64_t c = 0; c < C; c++) {
        float y = xr[c] * rstd;
        if (w)
            y = y * w[c];
        if (b)
            y = y + b[c];
        xr[c] = y;
    }
}

/* The same in float64 (a float64 x). */
static void ln_fwd_row_f64(const ln_fwd *j, double *xr)
{
    int64_t C = j->C;
    double s = 0;
    for (int64_t c = 0; c < C; c++)
        s += xr[c];
    double mean = s / (double)C, v = 0;
    for (int64_t c = 0; c < C; c++) {
        xr[c] -= mean;
        v += xr[c] * xr[c];
    }
    double rstd = 1.0 / sqrt(v / (double)C + j->eps);
    const double *w = j->w, *b = j->b;
    for (int64_t c = 0; c < C; c++) {
        double y = xr[c] * rstd;
        if (w)
            y = y * w[c];
        if (b)
            y = y + b[c];
        xr[c] = y;
    }
}

static void ln_fwd_item(void *ctx, int64_t item)
{
    const ln_fwd *j = ctx;
    int64_t C = j->C, r1 = (item + 1) * LN_FWD_ROWS < j->R ? (item + 1) * LN_FWD_ROWS : j->R;
    dtype t = j->x->type;
    bool f64 = t == DTYPE_FP64;
    void *buf = xmalloc((size_t)C * (f64 ? sizeof(double) : sizeof(float)));
    int64_t es = tensor_elsize(j->x);
    const unsigned char *xp = j->xp;
    unsigned char *yp = j->yp;
    for (int64_t r = item * LN_FWD_ROWS; r < r1; r++) {
        if (f64) {
            tensor_loop_load_f64(t, xp + r * C * es, es, buf, C);
            ln_fwd_row_f64(j, buf);
            tensor_loop_store_f64(t, yp + r * C * es, es, buf, C);
        } else {
            tensor_loop_load_f32(t, xp + r * C * es, es, buf, C);
            ln_fwd_row_f32(j, buf);
            tensor_loop_store_f32(t, yp + r * C * es, es, buf, C);
        }
    }
    free(buf);
}

/* layer_norm (below) a row at a time over the host threads, with no
 * full-size temporaries: the bits of its tensor operations
 * (tests/tensor/host-threads.tk compares them).  false, with nothing
 * done, where the dtypes leave it to those operations: the row way takes
 * x, w and b of float16, bfloat16 or float32 (float32 work), or x float64
 * and w and b of any of the four (float64 work), C > 0; otherwise true
 * with the result (NULL after an error) in *out. */
static bool layer_norm_rows(const tensor *x, int n, const tensor *w, const tensor *b,
                            double eps, tensor **out, char *err)
{
    dtype work = x->type == DTYPE_FP64 ? DTYPE_FP64 : DTYPE_FP32;
    const tensor *p[2] = {w, b};
    for (int i = 0; i < 2; i++)
        if (p[i] && (!tensor_loop_float(p[i]->type) ||
                     (work == DTYPE_FP32 && p[i]->type == DTYPE_FP64)))
            return false;
    int64_t C = 1;
    for (int i = 0; i < n; i++)
        C *= x->shape[x->ndim - n + i];
    if (!tensor_loop_float(x->type) || C <= 0 || tensor_par_threads() == 0)
        return false;
    tensor *xc = tensor_contiguous(x, err);
    tensor *wf = xc && w ? tensor_to(w, work, false, err) : NULL;
    tensor *bf = xc && b ? tensor_to(b, work, false, err) : NULL;
    tensor *y = xc && (!w || wf) && (!b || bf)
              ? tensor_new_uninit(x->type, x->ndim, x->shape, x->cuda, err) : NULL;
    if (y) {
        ln_fwd j = {xc, tensor_cdata(xc), tensor_data(y), wf ? tensor_cdata(wf) : NULL,
                    bf ? tensor_cdata(bf) : NULL, tensor_numel(x) / C, C, eps};
        tensor_par_for((j.R + LN_FWD_ROWS - 1) / LN_FWD_ROWS, ln_fwd_item, &j);
    }
    tensor_unref(xc);
    tensor_unref(wf);
    tensor_unref(bf);
    *out = y;
    return true;
}

/* (x - mean) / sqrt(var + eps) over the trailing dims of x, then * weight
 * + bias; computed in float32 (or float64), returned in x's dtype. */
static tensor *layer_norm(const tensor *x, int n, const tensor *w, const tensor *b, double eps,
                          char *err)
{
    tensor *fast;
    if (layer_norm_rows(x, n, w, b, eps, &fast, err))
        return fast;
    int64_t dims[TENSOR_MAX_DIMS];
    for (int i = 0; i < n; i++)
        dims[i] = x->ndim - n + i;
    dtype work = x->type == DTYPE_FP64 ? DTYPE_FP64 : DTYPE_FP32;
    tensor *xf = tensor_to(x, work, x->cuda, err);
    tensor *mean = xf ? tensor_reduce(TENSOR_MEAN, xf, n, dims, true, DTYPE_INVALID, err) : NULL;
    tensor *xc = mean ? tensor_binary(TENSOR_SUB, tensor_operand_of(xf), tensor_operand_of(mean),
                                      err) : NULL;
    tensor *sq = xc ? tensor_binary(TENSOR_MUL, tensor_operand_of(xc), tensor_operand_of(xc),
                                    err) : NULL;
    tensor *var = sq ? tensor_reduce(TENSOR_MEAN, sq, n, dims, true, DTYPE_INVALID, err) : NULL;
    tensor *ve = var ? tensor_binary(TENSOR_ADD, tensor_operand_of(var),
                                     tensor_operand_float(eps), err) : NULL;
    tensor *rstd = ve ? tensor_unary(TENSOR_RSQRT, ve, err) : NULL;
    tensor *y = rstd ? tensor_binary(TENSOR_MUL, tensor_operand_of(xc), tensor_operand_of(rstd),
                                     err) : NULL;
    tensor *parts[] = {xf, mean, xc, sq, var, ve, rstd};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
        tensor_unref(parts[i]);
    if (y && w) {
        tensor *r = tensor_binary(TENSOR_MUL, tensor_operand_of(y), tensor_operand_of(w), err);
        tensor_unref(y);
        y = r;
    }
    if (y && b) {
        tensor *r = tensor_binary(TENSOR_ADD, tensor_operand_of(y), tensor_operand_of(b), err);
        tensor_unref(y);
        y = r;
    }
    if (y && y->type != x->type) {
        tensor *r = tensor_to(y, x->type, x->cuda, err);
        tensor_unref(y);
        y = r;
    }
    return y;
}

/* F.layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-05) */
static val fn_layer_norm(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                         src_span at)
{
    val a[5];
    TORCH_READ_ARGS("layer_norm", "input, normalized_shape, weight=, bias=, eps=", a);
    int n;
    int64_t shape[TENSOR_MAX_DIMS];
    if (!torch_int_list(h, a[1], at, "layer_norm", "normalized_shape", &n, shape,
                        TENSOR_MAX_DIMS))
        return val_err();
    char err[TENSOR_ERR_LEN];
    bool fits = n >= 1 && n <= t->ndim;
    for (int i = 0; fits && i < n; i++)
        fits = t->shape[t->ndim - n + i] == shape[i];
    if (!fits) {
        char ns[48], ts[48];
        shape_text(ns, sizeof ns, n, shape);
        shape_text(ts, sizeof ts, t->ndim, t->shape);
        snprintf(err, sizeof err, "Given normalized_shape=%s, expected input with shape "
                 "[*, %.*s, but got input of size%s", ns, (int)(strlen(ns) - 1), ns + 1, ts);
        return torch_fail(h, at, err);
    }
    if (!dtype_is_float(t->type)) {
        snprintf(err, sizeof err, "\"LayerNormKernelImpl\" not implemented for '%s'",
                 tensor_type_name(t->type));
        return torch_fail(h, at, err);
    }
    tensor *w = NULL, *b = NULL;
    if (a[2].kind != VAL_MISSING && a[2].kind != VAL_NONE &&
        (!(w = torch_tensor_arg(h, a[2], at, "layer_norm", "weight")) ||
         !layer_norm_param(h, w, "weight", n, shape, at)))
        return val_err();
    if (a[3].kind != VAL_MISSING && a[3].kind != VAL_NONE &&
        (!(b = torch_tensor_arg(h, a[3], at, "layer_norm", "bias")) ||
         !layer_norm_param(h, b, "bias", n, shape, at)))
        return val_err();
    double eps = 1e-5;
    if (a[4].kind != VAL_MISSING && !host_to_float(h, a[4], at, "layer_norm() argument 'eps'",
                                                   &eps))
        return val_err();
    return torch_result(h, at, layer_norm(t, n, w, b, eps, err), err);
}

/* torch.cumsum / torch.cumprod(input, dim, *, dtype=None) and the methods:
 * the running sum or product f along dim, of input converted to dtype. */
static val running(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                   src_span at, const char *fname,
                   tensor *(*f)(const tensor *, int64_t, char *))
{
    TORCH_AXIS_IS_DIM(kw);
    val a[3];
    TORCH_READ_ARGS(fname, "input, dim, *, dtype=", a);
    int64_t dim;
    dtype dt = DTYPE_INVALID;
    if (!torch_int_arg(h, a[1], at, fname, "dim", &dim) ||
        !torch_dtype_arg(h, a[2], at, fname, &dt))
        return val_err();
    char err[TENSOR_ERR_LEN];
    tensor *src = dt == DTYPE_INVALID ? tensor_ref(t) : tensor_to(t, dt, t->cuda, err);
    tensor *r = src ? f(src, dim, err) : NULL;
    tensor_unref(src);
    return torch_result(h, at, r, err);
}

TORCH_NAMED(cumsum, running, tensor_cumsum)
TORCH_NAMED(cumprod, running, tensor_cumprod)

/* torch.bincount(input, weights=None, minlength=0): how often each value
 * 0..max occurs in a 1-D tensor of non-negative ints (int64), or the sum of
 * the weights at each value: float32 weights sum in float32, any others
 * are converted to float64 first, as PyTorch's CPU kernel does. */
static val fn_bincount(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                       src_span at)
{
    val a[3];
    TORCH_READ_ARGS("bincount", "input, weights=, minlength=", a);
    int64_t minlength = 0;
    tensor *w = NULL;
    if ((a[1].kind != VAL_MISSING && a[1].kind != VAL_NONE &&
         !(w = torch_tensor_arg(h, a[1], at, "bincount", "weights"))) ||
        (a[2].kind != VAL_MISSING && !torch_int_arg(h, a[2], at, "bincount", "minlength",
                                                     &minlength)))
        return val_err();
    if (!dtype_is_int(t->type) || dtype_is_bool(t->type))
        return host_error(h, at, "\"bincount_cpu\" not implemented for '%s'",
                          tensor_type_name(t->type));
    if (minlength < 0)
        return host_error(h, at, "minlength should be >= 0");
    char err[TENSOR_ERR_LEN];
    if (t->ndim == 1 && t->shape[0] == 0)
        return torch_result(h, at, tensor_new(DTYPE_INT64, 1, &minlength, t->cuda, err), err);
    int64_t n = tensor_numel(t), top = 0;
    bool neg = t->ndim != 1;
    for (int64_t i = 0; i < n && !neg; i++) {
        dtype_scalar v = tensor_get_flat(t, i);
        /* uint64 values past INT64_MAX read as negative: too large anyway */
        neg = v.i < 0;
        top = v.i > top ? v.i : top;
    }
    if (neg)
        return host_error(h, at, "bincount only supports 1-d non-negative integral inputs.");
    if (w && (w->ndim != 1 || w->shape[0] != n))
        return host_error(h, at, "weights should be 1-d and have the same length as input");
    int64_t nbins = top + 1 > minlength ? top + 1 : minlength;
    dtype rt = !w ? DTYPE_INT64 : w->type == DTYPE_FP32 ? DTYPE_FP32 : DTYPE_FP64;
    tensor *r = tensor_new(rt, 1, &nbins, t->cuda, err);
    tensor *wt = r && w ? tensor_to(w, rt, w->cuda, err) : NULL;
    if (!r || (w && !wt)) {
        tensor_unref(r);
        return torch_fail(h, at, err);
    }
    void *out = tensor_data(r);
    const void *wp = wt ? tensor_cdata(wt) : NULL;
    for (int64_t i = 0; i < n; i++) {
        int64_t bin = tensor_get_flat(t, i).i;
        if (rt == DTYPE_INT64)
            ((int64_t *)out)[bin] += 1;
        else if (rt == DTYPE_FP32)
            ((float *)out)[bin] += ((const float *)wp)[i];
        else
            ((double *)out)[bin] += ((const double *)wp)[i];
    }
    tensor_unref(wt);
    return tensor_val(r);
}

/* log(sum(exp(x))) over dims, computed in float64 as m + log(sum(exp(x -
 * m))) with m the largest value (0 where that is infinite, as PyTorch). */
static tensor *logsumexp(const tensor *t, int n, const int64_t *dims, bool keep, dtype out,
                         char *err)
{
    tensor *x = tensor_to(t, DTYPE_FP64, t->cuda, err);
    tensor *m = x ? tensor_reduce(TENSOR_AMAX, x, n, dims, true, DTYPE_INVALID, err) : NULL;
    tensor *diff = NULL, *e = NULL, *s = NULL, *l = NULL, *mr = NULL, *r = NULL, *res = NULL;
    if (m) {
        double *mp = tensor_data(m);
        for (int64_t i = 0, k = tensor_numel(m); i < k; i++)
            if (isinf(mp[i]))
                mp[i] = 0;
        diff = tensor_binary(TENSOR_SUB, tensor_operand_of(x), tensor_operand_of(m), err);
    }
    e = diff ? tensor_unary(TENSOR_EXP, diff, err) : NULL;
    s = e ? tensor_reduce(TENSOR_SUM, e, n, dims, keep, DTYPE_INVALID, err) : NULL;
    l = s ? tensor_unary(TENSOR_LOG, s, err) : NULL;
    mr = l ? tensor_reshape(m, l->ndim, l->shape, err) : NULL;
    r = mr ? tensor_binary(TENSOR_ADD, tensor_operand_of(l), tensor_operand_of(mr), err) : NULL;
    res = r ? tensor_to(r, out, t->cuda, err) : NULL;
    tensor *tmp[] = {x, m, diff, e, s, l, mr, r};
    for (size_t i = 0; i < sizeof tmp / sizeof *tmp; i++)
        tensor_unref(tmp[i]);
    return res;
}

/* torch.logsumexp(input, dim, keepdim=False) and x.logsumexp(dim): ints
 * and bools give float32 (the default dtype). */
static val fn_logsumexp(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                        src_span at)
{
    TORCH_AXIS_IS_DIM(kw);
    val a[3];
    TORCH_READ_ARGS("logsumexp", "input, dim, keepdim=", a);
    int n;
    int64_t dims[TENSOR_MAX_DIMS];
    bool all, keep = false;
    if (!dims_arg(h, a[1], at, "logsumexp", &n, dims, &all) ||
        !torch_bool_arg(h, a[2], at, "logsumexp", "keepdim", &keep))
        return val_err();
    char err[TENSOR_ERR_LEN];
    if (!tensor_no_fp8(t->type, err))
        return torch_fail(h, at, err);
    dtype out = dtype_is_float(t->type) ? t->type : DTYPE_FP32;
    return torch_result(h, at, logsumexp(t, n, all ? NULL : dims, keep, out, err), err);
}

/* ---- vector norms ---------------------------------------------------------------- */

/* The ord-norm of t over ndims dims (NULL: all), computed in float64 and
 * returned as out (a float dtype): inf and -inf are the largest and the
 * smallest magnitude, 0 the count of non-zeros, else (sum |x|^ord)^(1/ord). */
static tensor *vector_norm(const tensor *t, double ord, int ndims, const int64_t *dims,
                           bool keep, dtype out, char *err)
{
    tensor *x = tensor_to(t, DTYPE_FP64, t->cuda, err);
    tensor *ax = x ? tensor_unary(TENSOR_ABS, x, err) : NULL;
    tensor *r = NULL;
    if (ax && isinf(ord)) {
        r = tensor_reduce(ord > 0 ? TENSOR_AMAX : TENSOR_AMIN, ax, ndims, dims, keep,
                          DTYPE_INVALID, err);
    } else if (ax && ord == 0) {
        tensor *nz = tensor_binary(TENSOR_NE, tensor_operand_of(ax), tensor_operand_int(0), err);
        r = nz ? tensor_reduce(TENSOR_SUM, nz, ndims, dims, keep, DTYPE_FP64, err) : NULL;
        tensor_unref(nz);
    } else if (ax && ord == 1) {
        r = tensor_reduce(TENSOR_SUM, ax, ndims, dims, keep, DTYPE_INVALID, err);
    } else if (ax) {
        bool two = ord == 2;
        tensor *p = two ? tensor_binary(TENSOR_MUL, tensor_operand_of(ax),
                                        tensor_operand_of(ax), err)
                        : tensor_binary(TENSOR_POW, tensor_operand_of(ax),
                                        tensor_operand_float(ord), err);
        tensor *sum = p ? tensor_reduce(TENSOR_SUM, p, ndims, dims, keep, DTYPE_INVALID, err)
                        : NULL;
        if (sum)
            r = two ? tensor_unary(TENSOR_SQRT, sum, err)
                    : tensor_binary(TENSOR_POW, tensor_operand_of(sum),
                                    tensor_operand_float(1.0 / ord), err);
        tensor_unref(p);
        tensor_unref(sum);
    }
    tensor_unref(x);
    tensor_unref(ax);
    tensor *res = r ? tensor_to(r, out, t->cuda, err) : NULL;
    tensor_unref(r);
    return res;
}

/* The checks and dtypes of linalg.vector_norm, then the norm. */
static val norm_of(host *h, src_span at, const tensor *t, double ord, val dim, bool keep,
                   val dtype_v, const char *fname)
{
    int n;
    int64_t dims[TENSOR_MAX_DIMS];
    bool all;
    dtype dt = DTYPE_INVALID;
    if (!dims_arg(h, dim, at, fname, &n, dims, &all) ||
        !torch_dtype_arg(h, dtype_v, at, fname, &dt))
        return val_err();
    if (!dtype_is_float(t->type))
        return host_error(h, at, "linalg.vector_norm: Expected a floating point or complex "
                          "tensor as input. Got %s", tensor_type_name(t->type));
    all = all || n == 0;
    if (tensor_numel(t) == 0 && (ord < 0 || ord == INFINITY)) {
        bool empty_dim = all;
        for (int i = 0; i < n && !empty_dim; i++) {
            int d;
            empty_dim = tensor_wrap_dim(t->ndim, dims[i], &d, NULL) && t->shape[d] == 0;
        }
        if (empty_dim)
            return host_error(h, at, "linalg.vector_norm cannot compute the %g norm on an "
                              "empty tensor because the operation does not have an identity",
                              ord);
    }
    char err[TENSOR_ERR_LEN];
    dtype out = t->type;
    if (dt != DTYPE_INVALID) {
        if (!dtype_is_float(dt))
            return host_error(h, at, "linalg.vector_norm: dtype should be floating point or "
                              "complex, but got %s", tensor_type_name(dt));
        if (tensor_promote_types(dt, t->type, err) != dt)
            return host_error(h, at, "linalg.vector_norm: the dtype of the input (%s) should "
                              "be convertible without narrowing to the specified dtype (%s)",
                              tensor_type_name(t->type), tensor_type_name(dt));
        out = dt;
    }
    if (!tensor_no_fp8(t->type, err))
        return torch_fail(h, at, err);
    return torch_result(h, at, vector_norm(t, ord, n, all ? NULL : dims, keep, out, err), err);
}

/* An ord/p argument: a number (inf included). */
static bool ord_arg(host *h, val v, src_span at, const char *fname, const char *arg,
                    double *out)
{
    if (v.kind == VAL_MISSING || v.kind == VAL_NONE)
        return true;
    if (v.kind == VAL_INT || v.kind == VAL_BOOL || v.kind == VAL_FLOAT)
        return host_to_float(h, v, at, arg, out);
    host_error(h, at, "%s(): argument '%s' must be Number, not %s", fname, arg,
               val_type_name(v));
    return false;
}

/* torch.linalg.vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None) */
static val fn_vector_norm(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                          src_span at)
{
    (void)self;
    val a[5];
    if (!host_args(h, at, "linalg_vector_norm", "x, ord=, dim=, keepdim=, *, dtype=", argc,
                   argv, kw, a))
        return val_err();
    tensor *t = torch_tensor_arg(h, a[0], at, "linalg_vector_norm", "input");
    double ord = 2;
    bool keep = false;
    if (!t || !ord_arg(h, a[1], at, "linalg_vector_norm", "ord", &ord) ||
        !torch_bool_arg(h, a[3], at, "linalg_vector_norm", "keepdim", &keep))
        return val_err();
    return norm_of(h, at, t, ord, a[2], keep, a[4], "linalg_vector_norm");
}

/* torch.norm(input, p='fro', dim=None, keepdim=False, dtype=None) and
 * x.norm(...): PyTorch sends every p but 'nuc' (and 'fro' over more than
 * two dims) to linalg.vector_norm, 'fro' as 2; matrix norms are not here. */
static val fn_norm(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                   src_span at)
{
    val a[6];
    TORCH_READ_ARGS("norm", "input, p=, dim=, keepdim=, out=, dtype=", a);
    double p = 2;
    bool keep = false;
    if (a[4].kind != VAL_MISSING && a[4].kind != VAL_NONE)
        return host_error(h, at, "norm(): out= is not supported by tritsim");
    if (a[1].kind == VAL_STR) {
        const char *ps;
        int n = 0;
        int64_t dims[TENSOR_MAX_DIMS];
        bool all;
        if (!host_to_str(h, a[1], at, "norm() argument 'p'", &ps) ||
            !dims_arg(h, a[2], at, "norm", &n, dims, &all))
            return val_err();
        if (strcmp(ps, "fro") || n > 2)
            return host_error(h, at, "norm(): the matrix norm p='%s' is not supported by "
                              "tritsim (vector norms and 'fro' are)", ps);
    } else if (!ord_arg(h, a[1], at, "norm", "p", &p)) {
        return val_err();
    }
    if (!torch_bool_arg(h, a[3], at, "norm", "keepdim", &keep))
        return val_err();
    return norm_of(h, at, t, p, a[2], keep, a[5], "norm");
}

/* ---- matrix products --------------------------------------------------------------- */

static val product(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                   src_span at, const char *fname,
                   tensor *(*f)(const tensor *, const tensor *, char *))
{
    val a[2];
    TORCH_READ_ARGS_OTHER(fname, "input, other", a);
    char err[TENSOR_ERR_LEN];
    if (f == NULL) {    /* dot: two 1-D tensors */
        if (t->ndim != 1 || o->ndim != 1)
            return host_error(h, at, "1D tensors expected, but got %dD and %dD tensors",
                              t->ndim, o->ndim);
        f = tensor_matmul;
    }
    return torch_result(h, at, f(t, o, err), err);
}

TORCH_NAMED(matmul, product, tensor_matmul)
TORCH_NAMED(mm, product, tensor_mm)
TORCH_NAMED(bmm, product, tensor_bmm)
TORCH_NAMED(dot, product, NULL)

/* mv(input, vec): a matrix times a vector, checked as PyTorch does */
static val fn_mv(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                 src_span at)
{
    val a[2];
    TORCH_READ_ARGS_OTHER("mv", "input, vec", a);
    if (t->ndim != 2 || o->ndim != 1)
        return host_error(h, at, "vector + matrix @ vector expected, got 1, %d, %d",
                          t->ndim, o->ndim);
    char err[TENSOR_ERR_LEN];
    return torch_result(h, at, tensor_matmul(t, o, err), err);
}

/* addmm(input, mat1, mat2, *, beta=1, alpha=1): beta * input + alpha *
 * (mat1 @ mat2), input ignored when beta is 0 (its NaNs too, as PyTorch);
 * addmm_ writes that into self.  Composed of torch's own operations
 * through the host, so autograd records each of them. */
static val addmm_impl(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                      src_span at, const char *fname, bool inplace)
{
    val a[5];
    TORCH_READ_ARGS(fname, "input, mat1, mat2, *, beta=, alpha=", a);
    (void)t;
    val torch = host_module(h, "torch");
    val mm = host_getattr(h, torch, "mm", at);
    if (mm.kind == VAL_ERR)
        return mm;
    val r = host_call(h, mm, 2, a + 1, NULL, at);
    val_unref(mm);
    if (r.kind == VAL_ERR)
        return r;
    val beta = a[3].kind == VAL_MISSING ? val_int(1) : a[3];
    val alpha = a[4].kind == VAL_MISSING ? val_int(1) : a[4];
    bool alpha_one = (alpha.kind == VAL_INT || alpha.kind == VAL_BOOL) && alpha.u.i == 1;
    bool beta_zero = (beta.kind == VAL_INT && beta.u.i == 0) ||
                     (beta.kind == VAL_FLOAT && beta.u.f == 0.0) ||
                     (beta.kind == VAL_BOOL && beta.u.i == 0);
    if (!alpha_one) {
        val s = host_binop(h, AST_OP_MUL, r, alpha, at);
        val_unref(r);
        if (s.kind == VAL_ERR)
            return s;
        r = s;
    }
    if (!beta_zero) {
        val in = a[0];
        bool beta_one = (beta.kind == VAL_INT || beta.kind == VAL_BOOL) && beta.u.i == 1;
        val scaled = beta_one ? val_ref(in) : host_binop(h, AST_OP_MUL, in, beta, at);
        if (scaled.kind == VAL_ERR) {
            val_unref(r);
            return scaled;
        }
        val s = host_binop(h, AST_OP_ADD, scaled, r, at);
        val_unref(scaled);
        val_unref(r);
        if (s.kind == VAL_ERR)
            return s;
        r = s;
    }
    if (!inplace)
        return r;
    val copy = host_getattr(h, a[0], "copy_", at);
    if (copy.kind == VAL_ERR) {
        val_unref(r);
        return copy;
    }
    val out = host_call(h, copy, 1, &r, NULL, at);
    val_unref(copy);
    val_unref(r);
    return out;
}

HOST_CFUNC_CALLING(fn_addmm, addmm_impl, "addmm", false)
HOST_CFUNC_CALLING(fn_addmm_, addmm_impl, "addmm_", true)

/* outer(input, vec2) (and ger): input[:, None] * vec2[None, :] */
static val fn_outer(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                    src_span at)
{
    val a[2];
    TORCH_READ_ARGS("outer", "input, vec2", a);
    tensor *o = torch_tensor_arg(h, a[1], at, "outer", "vec2");
    if (!o)
        return val_err();
    if (t->ndim != 1 || o->ndim != 1)
        return host_error(h, at, "outer: Expected 1-D argument %s, but got %d-D",
                          t->ndim != 1 ? "self" : "vec2", t->ndim != 1 ? t->ndim : o->ndim);
    char err[TENSOR_ERR_LEN];
    tensor *col = tensor_unsqueeze(t, 1, err);
    tensor *row = col ? tensor_unsqueeze(o, 0, err) : NULL;
    tensor *r = row ? tensor_binary(TENSOR_MUL, tensor_operand_of(col), tensor_operand_of(row),
                                    err) : NULL;
    tensor_unref(col);
    tensor_unref(row);
    return torch_result(h, at, r, err);
}

/* ---- cat and stack ---------------------------------------------------------------- */

/* The tensors of a tuple/list argument; *n receives the count.  Returns a
 * list (new reference) or VAL_ERR. */
static val tensor_list(host *h, val v, src_span at, const char *fname)
{
    if (v.kind != VAL_LIST && v.kind != VAL_TUPLE)
        return host_error(h, at, "%s(): argument 'tensors' must be tuple of Tensors, not %s",
                          fname, val_type_name(v));
    const val_seq *s = val_as_seq(v);
    if (s->len == 0)
        return host_error(h, at, "%s(): expected a non-empty list of Tensors", fname);
    for (size_t i = 0; i < s->len; i++)
        if (s->items[i].kind != VAL_TENSOR)
            return host_error(h, at, "%s(): expected Tensor as element %zu in argument 0, but "
                              "got %s", fname, i, val_type_name(s->items[i]));
    return val_ref(v);
}

/* Concatenate n tensors along dim. */
static tensor *concat(tensor **ts, size_t n, int64_t dim, char *err)
{
    dtype rt = DTYPE_INVALID;
    bool cuda = false;
    for (size_t i = 0; i < n; i++) {
        rt = tensor_promote_types(rt, ts[i]->type, err);
        if (rt == DTYPE_INVALID)
            return NULL;
        cuda = cuda || ts[i]->cuda;
    }
    /* Legacy rule: 1-D empty tensors are skipped whatever their shape. */
    const tensor *ref = NULL;
    for (size_t i = 0; i < n && !ref; i++)
        if (!(ts[i]->ndim == 1 && ts[i]->shape[0] == 0))
            ref = ts[i];
    if (!ref)
        return tensor_new(rt, 1, (int64_t[]){0}, cuda, err);
    int d;
    if (ref->ndim == 0) {
        snprintf(err, TENSOR_ERR_LEN, "zero-dimensional tensor (at position 0) cannot be "
                 "concatenated");
        return NULL;
    }
    if (!tensor_wrap_dim(ref->ndim, dim, &d, err))
        return NULL;
    int64_t shape[TENSOR_MAX_DIMS];
    memcpy(shape, ref->shape, sizeof shape);
    shape[d] = 0;
    for (size_t i = 0; i < n; i++) {
        const tensor *x = ts[i];
        if (x->ndim == 1 && x->shape[0] == 0)
            continue;
        if (x->ndim != ref->ndim) {
            snprintf(err, TENSOR_ERR_LEN, "Tensors must have same number of dimensions: got %d "
                     "and %d", ref->ndim, x->ndim);
            return NULL;
        }
        for (int k = 0; k < x->ndim; k++)
            if (k != d && x->shape[k] != ref->shape[k]) {
                snprintf(err, TENSOR_ERR_LEN, "Sizes of tensors must match except in dimension "
                         "%d. Expected size %lld but got size %lld for tensor number %zu in the "
                         "list.", d, (long long)ref->shape[k], (long long)x->shape[k], i);
                return NULL;
            }
        shape[d] += x->shape[d];
    }
    tensor *out = tensor_new(rt, ref->ndim, shape, cuda, err);
    int64_t pos = 0;
    for (size_t i = 0; out && i < n; i++) {
        const tensor *x = ts[i];
        if (x->ndim == 1 && x->shape[0] == 0)
            continue;
        tensor *part = tensor_slice(out, d, pos, pos + x->shape[d], 1, err);
        bool ok = part && tensor_copy_into(part, x, err);
        tensor_unref(part);
        if (!ok) {
            tensor_unref(out);
            return NULL;
        }
        pos += x->shape[d];
    }
    return out;
}

static val cat_or_stack(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                        src_span at, const char *fname, bool stack)
{
    TORCH_AXIS_IS_DIM(kw);
    (void)self;
    val a[2];
    if (!host_args(h, at, fname, "tensors, dim=", argc, argv, kw, a))
        return val_err();
    int64_t dim = 0;
    if (a[1].kind != VAL_MISSING && !torch_int_arg(h, a[1], at, fname, "dim", &dim))
        return val_err();
    val list = tensor_list(h, a[0], at, fname);
    if (list.kind == VAL_ERR)
        return list;
    const val_seq *s = val_as_seq(list);
    tensor **ts = xcalloc(s->len, sizeof *ts);
    char err[TENSOR_ERR_LEN];
    bool ok = true;
    for (size_t i = 0; i < s->len && ok; i++) {
        tensor *x = tensor_of(s->items[i]);
        if (!stack) {
            ts[i] = tensor_ref(x);
            continue;
        }
        const tensor *first = tensor_of(s->items[0]);
        if (x->ndim != first->ndim ||
            memcmp(x->shape, first->shape, sizeof *x->shape * (size_t)x->ndim)) {
            strbuf b0 = {0}, bi = {0};
            tensor_shape_str(first->ndim, first->shape, &b0);
            tensor_shape_str(x->ndim, x->shape, &bi);
            snprintf(err, sizeof err, "stack expects each tensor to be equal size, but got %s at "
                     "entry 0 and %s at entry %zu", strbuf_cstr(&b0), strbuf_cstr(&bi), i);
            strbuf_free(&b0);
            strbuf_free(&bi);
            ok = false;
            break;
        }
        ts[i] = tensor_unsqueeze(x, dim, err);
        ok = ts[i] != NULL;
    }
    tensor *r = ok ? concat(ts, s->len, dim, err) : NULL;
    for (size_t i = 0; i < s->len; i++)
        tensor_unref(ts[i]);
    free(ts);
    val_unref(list);
    return torch_result(h, at, r, err);
}

TORCH_NAMED(cat, cat_or_stack, false)
TORCH_NAMED(stack, cat_or_stack, true)

const torch_fn torch_math_fns[] = {
    TORCH_BOTH("add", fn_add),
    TORCH_BOTH("sub", fn_sub),
    TORCH_BOTH("subtract", fn_sub),
    TORCH_BOTH("mul", fn_mul),
    TORCH_BOTH("multiply", fn_mul),
    TORCH_BOTH("div", fn_div),
    TORCH_BOTH("divide", fn_div),
    TORCH_BOTH("true_divide", fn_true_divide),
    TORCH_BOTH("floor_divide", fn_floor_divide),
    TORCH_BOTH("remainder", fn_remainder),
    TORCH_BOTH("pow", fn_pow),
    TORCH_BOTH("maximum", fn_maximum),
    TORCH_BOTH("minimum", fn_minimum),
    TORCH_BOTH("eq", fn_eq),
    TORCH_BOTH("ne", fn_ne),
    TORCH_BOTH("lt", fn_lt),
    TORCH_BOTH("le", fn_le),
    TORCH_BOTH("gt", fn_gt),
    TORCH_BOTH("ge", fn_ge),
    TORCH_BOTH("bitwise_and", fn_bitwise_and),
    TORCH_BOTH("bitwise_or", fn_bitwise_or),
    TORCH_BOTH("bitwise_xor", fn_bitwise_xor),
    TORCH_BOTH("bitwise_not", fn_bitwise_not),
    TORCH_BOTH("logical_and", fn_logical_and),
    TORCH_BOTH("logical_or", fn_logical_or),
    TORCH_BOTH("logical_xor", fn_logical_xor),
    TORCH_BOTH("logical_not", fn_logical_not),
    TORCH_METHOD("add_", fn_add_),
    TORCH_METHOD("sub_", fn_sub_),
    TORCH_METHOD("mul_", fn_mul_),
    TORCH_METHOD("div_", fn_div_),
    TORCH_METHOD("pow_", fn_pow_),
    TORCH_BOTH("abs", fn_abs),
    TORCH_METHOD("__abs__", fn_abs),
    TORCH_BOTH("neg", fn_neg),
    TORCH_BOTH("negative", fn_neg),
    TORCH_BOTH("exp", fn_exp),
    TORCH_BOTH("exp2", fn_exp2),
    TORCH_BOTH("log", fn_log),
    TORCH_BOTH("log2", fn_log2),
    TORCH_BOTH("sqrt", fn_sqrt),
    TORCH_BOTH("rsqrt", fn_rsqrt),
    TORCH_BOTH("sin", fn_sin),
    TORCH_BOTH("cos", fn_cos),
    TORCH_ALL3("tanh", fn_tanh),
    TORCH_BOTH("tan", fn_tan),
    TORCH_BOTH("asin", fn_asin),
    TORCH_BOTH("arcsin", fn_asin),
    TORCH_BOTH("acos", fn_acos),
    TORCH_BOTH("arccos", fn_acos),
    TORCH_BOTH("atan", fn_atan),
    TORCH_BOTH("arctan", fn_atan),
    TORCH_BOTH("atan2", fn_atan2),
    TORCH_BOTH("arctan2", fn_atan2),
    TORCH_BOTH("sinh", fn_sinh),
    TORCH_BOTH("cosh", fn_cosh),
    TORCH_BOTH("asinh", fn_asinh),
    TORCH_BOTH("arcsinh", fn_asinh),
    TORCH_BOTH("acosh", fn_acosh),
    TORCH_BOTH("arccosh", fn_acosh),
    TORCH_BOTH("atanh", fn_atanh),
    TORCH_BOTH("arctanh", fn_atanh),
    TORCH_BOTH("hypot", fn_hypot),
    TORCH_BOTH("expm1", fn_expm1),
    TORCH_BOTH("log10", fn_log10),
    TORCH_BOTH("log1p", fn_log1p),
    TORCH_BOTH("erf", fn_erf),
    TORCH_BOTH("erfc", fn_erfc),
    TORCH_BOTH("erfinv", fn_erfinv),
    TORCH_BOTH("lgamma", fn_lgamma),
    TORCH_ALL3("sigmoid", fn_sigmoid),
    TORCH_ALL3("relu", fn_relu),
    TORCH_NNF("silu", fn_silu),
    TORCH_NNF("gelu", fn_gelu),
    TORCH_NNF("layer_norm", fn_layer_norm),
    TORCH_BOTH("floor", fn_floor),
    TORCH_BOTH("ceil", fn_ceil),
    TORCH_BOTH("round", fn_round),
    TORCH_METHOD("__round__", fn_round_dunder),
    TORCH_BOTH("trunc", fn_trunc),
    TORCH_BOTH("square", fn_square),
    TORCH_BOTH("isnan", fn_isnan),
    TORCH_BOTH("isinf", fn_isinf),
    TORCH_BOTH("isfinite", fn_isfinite),
    TORCH_METHOD("abs_", fn_abs_),
    TORCH_METHOD("neg_", fn_neg_),
    TORCH_METHOD("exp_", fn_exp_),
    TORCH_METHOD("sqrt_", fn_sqrt_),
    TORCH_METHOD("relu_", fn_relu_),
    TORCH_BOTH("clamp", fn_clamp),
    TORCH_BOTH("clip", fn_clamp),
    TORCH_METHOD("clamp_", fn_clamp_),
    TORCH_FUNC("where", fn_where),
    TORCH_BOTH("sum", fn_sum),
    TORCH_BOTH("prod", fn_prod),
    TORCH_BOTH("mean", fn_mean),
    TORCH_BOTH("var", fn_var),
    TORCH_BOTH("std", fn_std),
    TORCH_FUNC("var_mean", fn_var_mean),
    TORCH_FUNC("std_mean", fn_std_mean),
    TORCH_BOTH("amax", fn_amax),
    TORCH_BOTH("amin", fn_amin),
    TORCH_BOTH("all", fn_all),
    TORCH_BOTH("any", fn_any),
    TORCH_BOTH("argmax", fn_argmax),
    TORCH_BOTH("argmin", fn_argmin),
    TORCH_BOTH("max", fn_max),
    TORCH_BOTH("min", fn_min),
    TORCH_ALL3("softmax", fn_softmax),
    TORCH_ALL3("log_softmax", fn_log_softmax),
    TORCH_BOTH("cumsum", fn_cumsum),
    TORCH_BOTH("cumprod", fn_cumprod),
    TORCH_BOTH("logsumexp", fn_logsumexp),
    TORCH_BOTH("bincount", fn_bincount),
    TORCH_BOTH("norm", fn_norm),
    TORCH_BOTH("matmul", fn_matmul),
    TORCH_BOTH("mm", fn_mm),
    TORCH_BOTH("mv", fn_mv),
    TORCH_BOTH_NO_GRAD("addmm", fn_addmm),
    TORCH_METHOD_NO_GRAD("addmm_", fn_addmm_),
    TORCH_BOTH("bmm", fn_bmm),
    TORCH_BOTH("dot", fn_dot),
    TORCH_BOTH("outer", fn_outer),
    TORCH_BOTH("ger", fn_outer),
    TORCH_FUNC("cat", fn_cat),
    TORCH_FUNC("concat", fn_cat),
    TORCH_FUNC("concatenate", fn_cat),
    TORCH_FUNC("stack", fn_stack),
    {NULL, NULL, NULL, NULL, NULL, 0},
};

const torch_fn torch_linalg_fns[] = {
    TORCH_LINALG("vector_norm", fn_vector_norm),
    {NULL, NULL, NULL, NULL, NULL, 0},
};
