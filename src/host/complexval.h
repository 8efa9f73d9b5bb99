/* complexval.h - Python's complex numbers on the host: the value type
 * (arithmetic, comparison, hashing, repr as CPython 3.11 writes them) and
 * the C arithmetic the builtins, cmath and torch share.
 *
 * A complex is a VAL_OBJECT of type complexval_type holding two doubles.
 * Arithmetic follows CPython's Objects/complexobject.c: an int or float
 * operand becomes complex(x, 0) first (3.11 has no mixed-mode rules), the
 * product is the textbook formula, the quotient Smith's algorithm, and
 * ** with a small integral exponent multiplies by repeated squaring. */
#ifndef TRITSIM_COMPLEXVAL_H
#define TRITSIM_COMPLEXVAL_H

#include <stdbool.h>

#include "val.h"

typedef struct cplx {
    double re, im;
} cplx;

extern const val_type complexval_type;

/* A new complex value. */
val complexval_new(double re, double im);
/* Is v a Python complex? */
bool complexval_is(val v);
/* The parts of a complex, float, int or bool; false for anything else. */
bool complexval_parts(val v, cplx *out);

/* CPython's _Py_c_prod, _Py_c_quot (false on a zero divisor) and the
 * power of complex_pow (false: "0.0 to a negative or complex power"). */
cplx complexval_mul(cplx a, cplx b);
bool complexval_div(cplx a, cplx b, cplx *out);
bool complexval_pow(cplx a, cplx b, cplx *out);
/* repr(complex(re, im)) as CPython: "(1+2j)", "1j", "-0j", "(nan+infj)". */
void complexval_repr(strbuf *out, cplx z);

#endif
