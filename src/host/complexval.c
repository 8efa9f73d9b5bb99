/* complexval.c - Python's complex numbers on the host (complexval.h): the
 * value type with its operators, attributes, hash and repr, following
 * CPython 3.11's Objects/complexobject.c. */
#include "complexval.h"

#include "host.h"
#include "pyformat.h"

#include <math.h>
#include <string.h>

typedef struct complexval {
    val_object o;     /* an OBJECT starts so; no attributes */
    cplx z;
} complexval;

val complexval_new(double re, double im)
{
    complexval *c = val_obj_new(sizeof *c, VAL_OBJECT, &complexval_type);
    c->z.re = re;
    c->z.im = im;
    return val_of(c);
}

bool complexval_is(val v)
{
    return v.kind == VAL_OBJECT && v.u.o->type == &complexval_type;
}

bool complexval_parts(val v, cplx *out)
{
    switch (v.kind) {
    case VAL_BOOL: out->re = v.u.b; out->im = 0; return true;
    case VAL_INT: out->re = (double)v.u.i; out->im = 0; return true;
    case VAL_FLOAT: out->re = v.u.f; out->im = 0; return true;
    default:
        if (!complexval_is(v))
            return false;
        *out = ((const complexval *)v.u.o)->z;
        return true;
    }
}

/* ---- arithmetic ------------------------------------------------------------- */

cplx complexval_mul(cplx a, cplx b)
{
    cplx r = {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
    return r;
}

bool complexval_div(cplx a, cplx b, cplx *out)
{
    double abs_re = fabs(b.re), abs_im = fabs(b.im);
    if (abs_re >= abs_im) {
        if (abs_re == 0.0)
            return false;
        double ratio = b.im / b.re;
        double denom = b.re + b.im * ratio;
        out->re = (a.re + a.im * ratio) / denom;
        out->im = (a.im - a.re * ratio) / denom;
    } else if (abs_im >= abs_re) {
        double ratio = b.re / b.im;
        double denom = b.re * ratio + b.im;
        out->re = (a.re * ratio + a.im) / denom;
        out->im = (a.im * ratio - a.re) / denom;
    } else {
        /* a NaN part in the divisor */
        out->re = out->im = NAN;
    }
    return true;
}

/* _Py_c_pow: through polar form. */
static bool pow_polar(cplx a, cplx b, cplx *out)
{
    if (b.re == 0 && b.im == 0) {
        out->re = 1;
        out->im = 0;
        return true;
    }
    if (a.re == 0 && a.im == 0) {
        out->re = out->im = 0;
        return !(b.im != 0 || b.re < 0);
    }
    double vabs = hypot(a.re, a.im);
    double len = pow(vabs, b.re);
    double at = atan2(a.im, a.re);
    double phase = at * b.re;
    if (b.im != 0.0) {
        len /= exp(at * b.im);
        phase += b.im * log(vabs);
    }
    out->re = len * cos(phase);
    out->im = len * sin(phase);
    return true;
}

/* c_powu: repeated squaring for n >= 1. */
static cplx pow_unsigned(cplx x, long n)
{
    cplx r = {1, 0}, p = x;
    for (long mask = 1; mask > 0 && n >= mask; mask <<= 1) {
        if (n & mask)
            r = complexval_mul(r, p);
        p = complexval_mul(p, p);
    }
    return r;
}

bool complexval_pow(cplx a, cplx b, cplx *out)
{
    if (b.im == 0 && b.re == floor(b.re) && fabs(b.re) <= 100) {
        long n = (long)b.re;
        if (n >= 0) {
            *out = pow_unsigned(a, n);
            return true;
        }
        cplx one = {1, 0};
        return complexval_div(one, pow_unsigned(a, -n), out);
    }
    return pow_polar(a, b, out);
}

/* ---- printing ------------------------------------------------------------------ */

/* repr of a float with format code 'r' and no ".0" added (CPython's
 * PyOS_double_to_string(x, 'r', 0, flags)); sign: always write + or -. */
static void put_part(strbuf *out, double x, bool sign)
{
    strbuf s = {0};
    pyformat_float_repr(&s, x);
    const char *t = strbuf_cstr(&s);
    size_t n = s.len;
    if (n > 2 && !strcmp(t + n - 2, ".0"))
        n -= 2;
    if (sign && t[0] != '-')
        strbuf_putc(out, '+');
    strbuf_putn(out, t, n);
    strbuf_free(&s);
}

void complexval_repr(strbuf *out, cplx z)
{
    if (z.re == 0 && !signbit(z.re)) {
        put_part(out, z.im, false);
        strbuf_putc(out, 'j');
        return;
    }
    strbuf_putc(out, '(');
    put_part(out, z.re, false);
    put_part(out, z.im, true);
    strbuf_puts(out, "j)");
}

static void cv_repr(host *h, val self, strbuf *out)
{
    (void)h;
    complexval_repr(out, ((const complexval *)self.u.o)->z);
}

/* ---- the value type ------------------------------------------------------------- */

static val cv_result(cplx z)
{
    return complexval_new(z.re, z.im);
}

static const char *op_text(ast_op op)
{
    switch (op) {
    case AST_OP_FLOORDIV: return "//";
    case AST_OP_MOD: return "%";
    case AST_OP_LT: return "<";
    case AST_OP_LE: return "<=";
    case AST_OP_GT: return ">";
    case AST_OP_GE: return ">=";
    case AST_OP_LSHIFT: return "<<";
    case AST_OP_RSHIFT: return ">>";
    case AST_OP_BITAND: return "&";
    case AST_OP_BITOR: return "|";
    case AST_OP_BITXOR: return "^";
    case AST_OP_MATMUL: return "@";
    default: return NULL;
    }
}

static val cv_binop(host *h, ast_op op, bool inplace, val a, val b, src_span at)
{
    (void)inplace;
    cplx x, y, r;
    if (!complexval_parts(a, &x) || !complexval_parts(b, &y))
        return val_missing();
    switch (op) {
    case AST_OP_ADD: r.re = x.re + y.re; r.im = x.im + y.im; return cv_result(r);
    case AST_OP_SUB: r.re = x.re - y.re; r.im = x.im - y.im; return cv_result(r);
    case AST_OP_MUL: return cv_result(complexval_mul(x, y));
    case AST_OP_DIV:
        if (!complexval_div(x, y, &r))
            return host_raise(h, HOST_EXC_ZERO_DIVISION, at, "complex division by zero");
        return cv_result(r);
    case AST_OP_POW:
        if (!complexval_pow(x, y, &r))
            return host_raise(h, HOST_EXC_ZERO_DIVISION, at,
                              "0.0 to a negative or complex power");
        return cv_result(r);
    case AST_OP_EQ: return val_bool(x.re == y.re && x.im == y.im);
    case AST_OP_NE: return val_bool(!(x.re == y.re && x.im == y.im));
    default:
        break;
    }
    const char *text = op_text(op);
    if (!text)
        return val_missing();
    if (op >= AST_OP_LT && op <= AST_OP_GE)
        return host_raise(h, HOST_EXC_TYPE, at,
                          "'%s' not supported between instances of '%s' and '%s'", text,
                          val_type_name(a), val_type_name(b));
    return host_raise(h, HOST_EXC_TYPE, at, "unsupported operand type(s) for %s: '%s' and '%s'",
                      text, val_type_name(a), val_type_name(b));
}

static val cv_unop(host *h, ast_op op, val self, src_span at)
{
    cplx z = ((const complexval *)self.u.o)->z;
    if (op == AST_OP_USUB)
        return complexval_new(-z.re, -z.im);
    if (op == AST_OP_UADD)
        return complexval_new(z.re, z.im);
    return host_raise(h, HOST_EXC_TYPE, at, "bad operand type for unary ~: 'complex'");
}

static int cv_truth(host *h, val self, src_span at)
{
    (void)h;
    (void)at;
    cplx z = ((const complexval *)self.u.o)->z;
    return z.re != 0 || z.im != 0;
}

static val cv_conjugate(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                        src_span at)
{
    (void)argv;
    if (argc || (kw && kw->n))
        return host_raise(h, HOST_EXC_TYPE, at, "complex.conjugate() takes no arguments (%d given)",
                          argc + (kw ? kw->n : 0));
    cplx z = ((const complexval *)self.u.o)->z;
    return complexval_new(z.re, -z.im);
}

static val cv_abs(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                  src_span at)
{
    (void)argc;
    (void)argv;
    (void)kw;
    cplx z = ((const complexval *)self.u.o)->z;
    double r = hypot(z.re, z.im);
    if (isinf(r) && isfinite(z.re) && isfinite(z.im))
        return host_raise(h, HOST_EXC_OVERFLOW, at, "absolute value too large");
    return val_float(r);
}

static val cv_getattr(host *h, val self, const char *name, src_span at)
{
    (void)h;
    (void)at;
    cplx z = ((const complexval *)self.u.o)->z;
    if (!strcmp(name, "real"))
        return val_float(z.re);
    if (!strcmp(name, "imag"))
        return val_float(z.im);
    if (!strcmp(name, "conjugate"))
        return val_builtin_new("complex.conjugate", cv_conjugate, val_ref(self));
    if (!strcmp(name, "__abs__"))
        return val_builtin_new("complex.__abs__", cv_abs, val_ref(self));
    return val_missing();
}

/* Equal numbers hash alike: complex(x, 0) as the float x. */
static uint64_t cv_hash(val self)
{
    cplx z = ((const complexval *)self.u.o)->z;
    uint64_t hr = val_hash(val_float(z.re));
    if (z.im == 0)
        return hr;
    return hr + 1000003u * val_hash(val_float(z.im));
}

static bool cv_equal(val self, val other)
{
    cplx x, y;
    return complexval_parts(self, &x) && complexval_parts(other, &y) && x.re == y.re &&
           x.im == y.im;
}

static const char *const cv_attrs[] = {"real", "imag", "conjugate", NULL};

const val_type complexval_type = {
    .name = "complex",
    .getattr = cv_getattr,
    .binop = cv_binop,
    .unop = cv_unop,
    .truth = cv_truth,
    .repr = cv_repr,
    .attr_names = cv_attrs,
    .hash = cv_hash,
    .equal = cv_equal,
};
