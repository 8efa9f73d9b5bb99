/* format.h - printing tiles, tensors and numbers exactly as users see them.
 *
 * Two styles, because a .tk program shows both:
 *   - NumPy's str(ndarray), for values printed inside kernels.  Under
 *     TRITON_INTERPRET=1 a tile is a numpy array, so print(f'{x}') in a
 *     kernel shows "[0 1]", "[ True  True]", "[1.  2.5]"; program_id is a
 *     1-element array there, hence "pid = [0]" (pass ndim 1, shape {1}).
 *   - PyTorch's repr(Tensor), for host tensors:
 *     "tensor([[4., 4.],\n        [4., 4.]], dtype=torch.float16)".
 * Both follow their library's algorithm: numpy's array2string (floatmode
 * 'maxprec', precision 8, linewidth 75, threshold 1000, edgeitems 3) and
 * torch's _tensor_str (precision 4, linewidth 80, threshold 1000,
 * edgeitems 3), including summarising with "..." and line wrapping.
 *
 * Floats print with the shortest digits that identify the value in its own
 * type (as numpy does), so an fp16 0.1 prints as 0.1.  bf16 tiles print as
 * floats too (Triton's interpreter would show their raw bits). */
#ifndef TRITSIM_FORMAT_H
#define TRITSIM_FORMAT_H

#include <stdbool.h>
#include <stdint.h>

#include "dtype.h"
#include "strbuf.h"

enum { FORMAT_MAX_DIMS = 32 };

/* A strided view of elements in memory. */
typedef struct format_array {
    const void *data;        /* the element at index (0, ..., 0) */
    dtype type;              /* element dtype (pointers print as addresses) */
    int ndim;                /* 0 (one value) .. FORMAT_MAX_DIMS */
    const int64_t *shape;    /* ndim sizes, each >= 0; unused when ndim 0 */
    const int64_t *strides;  /* ndim strides in elements (may be negative);
                                NULL means C-contiguous */
    const uint8_t *mask;     /* format_numpy only, or NULL: per element in
                                row-major order, 0 prints "--" in the
                                element's place (numpy.ma's masked lanes) */
} format_array;

/* str(a) of a numpy array holding these elements.  A 0-d array prints as
 * its scalar ("5", "True", "1.5", "5.0").  Returns false, appending
 * nothing, when the description is invalid (bad dtype, ndim, shape). */
bool format_numpy(strbuf *out, const format_array *a);

/* Options of format_torch; a zeroed struct (or NULL) gives the defaults. */
typedef struct format_torch_opts {
    const char *device;      /* e.g. "cuda:0": adds device='cuda:0' */
    bool requires_grad;      /* adds requires_grad=True */
    /* complex elements: the array's last dimension (size 2) holds the real
     * and imaginary parts of a complex tensor of the other dimensions,
     * whose dtype is complex64 (type fp32) or complex128 (fp64); printed
     * as "1.+2.j", each part with its own _Formatter as torch does */
    bool complex;
} format_torch_opts;

/* repr(t) of a torch tensor: "tensor([1, 2, 0])", with ", dtype=torch.X"
 * unless the dtype is float32, int64 or bool (empty tensors show every
 * dtype but float32, as torch does).  false (nothing appended) for an
 * invalid description or a pointer dtype. */
bool format_torch(strbuf *out, const format_array *a,
                  const format_torch_opts *opts);

/* str() of one numpy scalar of type t: "5", "True", "1.5", "5.0", "1e-05",
 * "nan", "-inf".  Floats: shortest digits for t; positional when
 * 1e-4 <= |x| < 1e16, else scientific. */
void format_numpy_scalar(strbuf *out, dtype t, dtype_scalar v);

/* The shortest decimal digits that round back to x in float type t (fp16,
 * bf16, fp32, fp64; fp8 types too; for Python floats see pyformat.h): writes them to digits (at least 18
 * bytes; no sign, no leading or trailing zeros, "0" for zero), sets
 * *exp10 to the decimal exponent of the first digit (x ~ d.ddd * 10^exp10)
 * and returns their count.  Ties between equally short candidates go to
 * the one nearest x.  x must be finite; its sign is ignored. */
int format_shortest_digits(double x, dtype t, char *digits, int *exp10);

#endif
