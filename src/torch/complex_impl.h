/* complex_impl.h - what the two files of complex tensors share (not a
 * contract with other modules; those use torch_impl.h's torch_complex_*):
 *
 *   tensor_complex.c  the representation (tensor.h: a complex tensor is
 *                     the view torch.view_as_real gives, flagged cplx),
 *                     type promotion, elementwise arithmetic, and the
 *                     Tensor type's hooks for complex tensors
 *   torch_complex.c   the torch functions: complex, polar, view_as_real,
 *                     ..., the complex forms of existing ones, creation
 *                     with complex dtypes, and the dispatch of every call
 *                     with a complex argument
 *
 * Functions returning tensor * return a new reference or NULL with a
 * message in err; inputs are borrowed unless said otherwise. */
#ifndef TRITSIM_COMPLEX_IMPL_H
#define TRITSIM_COMPLEX_IMPL_H

#include "complexval.h"
#include "torch_impl.h"

/* ---- representation ---- */

/* The complex view of real view r (last dimension 2, stride 1), taking
 * over the reference to r; NULL stays NULL. */
tensor *cx_wrap(tensor *r);
/* The real view of complex c (view_as_real). */
tensor *cx_real(const tensor *c);
/* Dimensions of complex c as the program sees them (c->ndim - 1). */
int cx_ndim(const tensor *c);
/* torch.complex64 / complex128 as a value, for parts of dtype t. */
val cx_dtype_val(dtype t);
/* A zero complex tensor of shape (ndim dims) with parts of dtype t. */
tensor *cx_zeros(dtype t, int ndim, const int64_t *shape, bool cuda, char *err);
/* Part which (0 real, 1 imaginary) of complex c: a real view. */
tensor *cx_part(const tensor *c, int which);
/* A complex tensor of parts re and im (im NULL: zero), broadcast, of
 * dtype t. */
tensor *cx_from_parts(const tensor *re, const tensor *im, dtype t, char *err);
/* A contiguous copy of complex c with parts of dtype t. */
tensor *cx_convert(const tensor *c, dtype t, char *err);

/* ---- operands and promotion ---- */

/* An operand of a complex operation. */
typedef struct cx_operand {
    tensor *t;          /* a tensor (borrowed), complex or real, or NULL */
    cplx z;             /* a Python number when t is NULL */
    bool is_complex;    /* a complex tensor or a Python complex */
} cx_operand;

/* The parts' dtype of a complex tensor made from real dtype t (float64 ->
 * float64, other floats and ints -> float32; DTYPE_INVALID for float16,
 * bfloat16 and fp8: complex32 is not supported). */
dtype cx_parts_of_real(dtype t);
/* v (a tensor or a Python number) as an operand; false for others. */
bool cx_operand_of(val v, cx_operand *o);
/* The parts' dtype of a result of a and b, as torch promotes. */
dtype cx_result_parts(const cx_operand *a, const cx_operand *b, char *err);
/* Operand o as a complex tensor with parts of dtype t. */
tensor *cx_operand_tensor(const cx_operand *o, dtype t, bool cuda, char *err);
/* v as a complex tensor with parts t, or NULL after reporting. */
tensor *cx_val_tensor(host *h, val v, dtype t, src_span at, const char *fname);

/* ---- elementwise ---- */

typedef enum cx_op { CX_ADD, CX_SUB, CX_MUL, CX_DIV, CX_EQ, CX_NE } cx_op;

/* a op b for complex a and b with parts of one dtype, broadcast: complex,
 * or bool for CX_EQ / CX_NE. */
tensor *cx_binary(cx_op op, const tensor *a, const tensor *b, char *err);
/* a op b for values (tensors, numbers), promoted; VAL_MISSING when an
 * operand is neither. */
val cx_binop_vals(host *h, cx_op op, val a, val b, src_span at);

/* One element's parts to the result's (out[0], and out[1] for complex
 * results). */
typedef void (*cx_map_fn)(double re, double im, double *out);
/* f over complex c: a complex result, or (real_out) a real one; f32 for
 * complex64, f64 for complex128. */
tensor *cx_map(const tensor *c, bool real_out, cx_map_fn f32, cx_map_fn f64, char *err);
void cx_map_abs32(double re, double im, double *o);
void cx_map_abs64(double re, double im, double *o);
void cx_map_angle32(double re, double im, double *o);
void cx_map_angle64(double re, double im, double *o);
void cx_map_neg(double re, double im, double *o);
void cx_map_conj(double re, double im, double *o);
void cx_map_exp32(double re, double im, double *o);
void cx_map_exp64(double re, double im, double *o);

/* ---- arguments ---- */

/* Dim v of a complex tensor of nd dimensions, wrapped. */
bool cx_dim(host *h, int nd, val v, src_span at, const char *fname, int *out);
/* A shape from the arguments (a tuple, or the ints) with 2 appended. */
bool cx_shape_args(host *h, int argc, const val *argv, src_span at, const char *fname,
                   int *nd, int64_t *shape);

#endif
