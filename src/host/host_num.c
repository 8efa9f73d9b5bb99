/* host_num.c - numbers in the host evaluator: int arithmetic on 64 bits
 * that reports overflow (Python's ints are unbounded, tritsim's are not),
 * float arithmetic with Python's rules (floor division and modulo as
 * CPython, errors for division by zero), exact comparison of ints with
 * floats, and the host_to_* conversions of host.h. */
#include "host_impl.h"

#include <math.h>

/* ---- conversions ---------------------------------------------------------- */

bool host_to_int(host *h, val v, src_span at, const char *what, int64_t *out)
{
    if (host_is_int(v)) {
        *out = host_int_of(v);
        return true;
    }
    if (v.kind == VAL_ERR)
        return false;
    /* Objects that stand for an integer (a 0-d integer tensor) say so with
     * __index__, as in Python: range(t), lst[t]. */
    const val_type *t = val_type_of(v);
    if (t && t->getattr) {
        val index = t->getattr(h, v, "__index__", at);
        if (index.kind == VAL_ERR)
            return false;
        if (index.kind != VAL_MISSING) {
            val r = host_call(h, index, 0, NULL, NULL, at);
            val_unref(index);
            if (r.kind == VAL_ERR)
                return false;
            bool ok = host_is_int(r);
            if (ok)
                *out = host_int_of(r);
            val_unref(r);
            if (ok)
                return true;
        }
    }
    host_raise(h, HOST_EXC_TYPE, at, "%s must be an int, not '%s'%s", what, val_type_name(v),
               v.kind == VAL_FLOAT ? " (convert with int(x) or use //)" : "");
    return false;
}

bool host_to_float(host *h, val v, src_span at, const char *what, double *out)
{
    if (host_is_num(v)) {
        *out = host_float_of(v);
        return true;
    }
    if (v.kind == VAL_ERR)
        return false;
    host_raise(h, HOST_EXC_TYPE, at, "%s must be a number, not '%s'", what, val_type_name(v));
    return false;
}

bool host_to_str(host *h, val v, src_span at, const char *what, const char **out)
{
    if (v.kind == VAL_STR) {
        *out = val_as_str(v)->s;
        return true;
    }
    if (v.kind == VAL_ERR)
        return false;
    host_raise(h, HOST_EXC_TYPE, at, "%s must be a str, not '%s'", what, val_type_name(v));
    return false;
}

/* ---- numbers ------------------------------------------------------------------ */

val host_overflow(host *h, src_span at)
{
    return host_raise(h, HOST_EXC_OVERFLOW, at, "integer overflow: tritsim's ints are 64-bit "
                      "(Python's are unbounded); use a float if you need bigger values");
}

static val host_int_pow(host *h, int64_t a, int64_t b, src_span at)
{
    if (b < 0) {
        if (a == 0)
            return host_raise(h, HOST_EXC_ZERO_DIVISION, at,
                              "0.0 cannot be raised to a negative power");
        return val_float(pow((double)a, (double)b));
    }
    int64_t r = 1, base = a;
    while (b) {
        if (b & 1 && __builtin_mul_overflow(r, base, &r))
            return host_overflow(h, at);
        b >>= 1;
        if (b && __builtin_mul_overflow(base, base, &base))
            return host_overflow(h, at);
    }
    return val_int(r);
}

val host_int_binop(host *h, ast_op op, val va, val vb, src_span at)
{
    int64_t a = host_int_of(va), b = host_int_of(vb), r;
    bool bools = va.kind == VAL_BOOL && vb.kind == VAL_BOOL;
    switch (op) {
    case AST_OP_ADD:
        if (__builtin_add_overflow(a, b, &r))
            return host_overflow(h, at);
        return val_int(r);
    case AST_OP_SUB:
        if (__builtin_sub_overflow(a, b, &r))
            return host_overflow(h, at);
        return val_int(r);
    case AST_OP_MUL:
        if (__builtin_mul_overflow(a, b, &r))
            return host_overflow(h, at);
        return val_int(r);
    case AST_OP_DIV:
        if (b == 0)
            return host_raise(h, HOST_EXC_ZERO_DIVISION, at, "division by zero");
        /* Exact below 2^53, as Python's int division. */
        return val_float((double)((long double)a / (long double)b));
    case AST_OP_FLOORDIV:
    case AST_OP_MOD:
        if (b == 0)
            return host_raise(h, HOST_EXC_ZERO_DIVISION, at, "integer division or modulo by zero");
        if (a == INT64_MIN && b == -1) {
            if (op == AST_OP_MOD)
                return val_int(0);
            return host_overflow(h, at);
        }
        if (op == AST_OP_FLOORDIV) {
            /* Python rounds toward minus infinity, C toward zero. */
            r = a / b;
            if (a % b != 0 && ((a < 0) != (b < 0)))
                r--;
        } else {
            r = a % b;
            if (r != 0 && ((r < 0) != (b < 0)))
                r += b;
        }
        return val_int(r);
    case AST_OP_POW:
        return host_int_pow(h, a, b, at);
    case AST_OP_LSHIFT:
        if (b < 0)
            return host_raise(h, HOST_EXC_VALUE, at, "negative shift count");
        if (a == 0)
            return val_int(0);
        if (b >= 63 || (a > 0 ? a > (INT64_MAX >> b) : a < (INT64_MIN >> b)))
            return host_overflow(h, at);
        return val_int((int64_t)((uint64_t)a << b));
    case AST_OP_RSHIFT:
        if (b < 0)
            return host_raise(h, HOST_EXC_VALUE, at, "negative shift count");
        if (b >= 64)
            return val_int(a < 0 ? -1 : 0);
        /* Arithmetic shift, written so it does not rely on C's
         * implementation-defined >> of negative numbers. */
        return val_int(a >= 0 ? a >> b : ~(~a >> b));
    case AST_OP_BITAND:
        return bools ? val_bool(a & b) : val_int(a & b);
    case AST_OP_BITOR:
        return bools ? val_bool(a | b) : val_int(a | b);
    case AST_OP_BITXOR:
        return bools ? val_bool(a ^ b) : val_int(a ^ b);
    default:
        return val_missing();
    }
}

val host_float_binop(host *h, ast_op op, double a, double b, src_span at)
{
    switch (op) {
    case AST_OP_ADD: return val_float(a + b);
    case AST_OP_SUB: return val_float(a - b);
    case AST_OP_MUL: return val_float(a * b);
    case AST_OP_DIV:
        if (b == 0)
            return host_raise(h, HOST_EXC_ZERO_DIVISION, at, "float division by zero");
        return val_float(a / b);
    case AST_OP_FLOORDIV:
    case AST_OP_MOD: {
        if (b == 0)
            return host_raise(h, HOST_EXC_ZERO_DIVISION, at,
                              op == AST_OP_MOD ? "float modulo by zero"
                                                      : "float floor division by zero");
        /* CPython's float_divmod. */
        double mod = fmod(a, b);
        double div = (a - mod) / b;
        if (mod != 0) {
            if ((b < 0) != (mod < 0)) {
                mod += b;
                div -= 1.0;
            }
        } else {
            mod = copysign(0.0, b);
        }
        double floordiv;
        if (div != 0) {
            floordiv = floor(div);
            if (div - floordiv > 0.5)
                floordiv += 1.0;
        } else {
            floordiv = copysign(0.0, a / b);
        }
        return val_float(op == AST_OP_MOD ? mod : floordiv);
    }
    case AST_OP_POW: {
        if (b == 0 || a == 1)
            return val_float(1.0);
        if (isnan(a) || isnan(b))
            return val_float(NAN);
        if (a == 0 && b < 0)
            return host_raise(h, HOST_EXC_ZERO_DIVISION, at,
                              "0.0 cannot be raised to a negative power");
        if (a < 0 && isfinite(a) && isfinite(b) && b != floor(b))
            return host_raise(h, HOST_EXC_VALUE, at,
                              "a negative number to a fractional power is a complex "
                              "number, which tritsim does not support");
        double r = pow(a, b);
        if (isinf(r) && isfinite(a) && isfinite(b))
            return host_raise(h, HOST_EXC_OVERFLOW, at,
                              "float power overflows (the result is too large)");
        return val_float(r);
    }
    default:
        return val_missing();
    }
}

/* Compare numbers exactly (an int and a float too): -1, 0, 1, or 2 when
 * unordered (NaN). */
int host_num_cmp(val a, val b)
{
    if (host_is_int(a) && host_is_int(b)) {
        int64_t x = host_int_of(a), y = host_int_of(b);
        return x < y ? -1 : x > y;
    }
    if (a.kind == VAL_FLOAT && b.kind == VAL_FLOAT) {
        if (isnan(a.u.f) || isnan(b.u.f))
            return 2;
        return a.u.f < b.u.f ? -1 : a.u.f > b.u.f;
    }
    bool flip = a.kind == VAL_FLOAT;
    int64_t i = host_int_of(flip ? b : a);
    double f = flip ? a.u.f : b.u.f;
    int r;
    if (isnan(f))
        return 2;
    if (f >= 9223372036854775808.0)
        r = -1;
    else if (f < -9223372036854775808.0)
        r = 1;
    else {
        double t = trunc(f);
        int64_t fi = (int64_t)t;
        if (i != fi)
            r = i < fi ? -1 : 1;
        else
            r = f > t ? -1 : f < t ? 1 : 0;
    }
    return flip ? -r : r;
}
