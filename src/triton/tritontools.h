/* tritontools.h - the triton.tools module: triton.tools.tensor_descriptor.
 * TensorDescriptor, a tensor descriptor made on the host (a base tensor,
 * its shape and strides in elements, a block shape, a padding), as Triton
 * 3.6's dataclass: its fields are attributes (they may be set, as autotune
 * pre-hooks do with block_shape), and its constructor makes the checks of
 * __post_init__.  A kernel takes one as an argument and sees a tensor
 * descriptor (launch.c reads it with tritontools_desc_of, spec_desc.c). */
#ifndef TRITSIM_TRITONTOOLS_H
#define TRITSIM_TRITONTOOLS_H

#include <stdbool.h>
#include <stdint.h>

#include "host.h"
#include "tensor.h"

enum { TRITONTOOLS_MAX_DIM = 5 };

typedef struct tritontools_desc {
    const tensor *base;     /* borrowed from the descriptor */
    int nd;
    int64_t shape[TRITONTOOLS_MAX_DIM];
    int64_t strides[TRITONTOOLS_MAX_DIM];
    int64_t block[TRITONTOOLS_MAX_DIM];
    bool pad_nan;           /* padding="nan" */
} tritontools_desc;

/* Register the triton.tools modules, their attribute of triton. */
void tritontools_init(host *h, val triton);
/* Register triton.tools.mxfp (tritonmxfp.c), a module in Python text that
 * runs when first imported. */
void tritonmxfp_init(host *h);

/* Is v a TensorDescriptor? */
bool tritontools_is_desc(val v);
/* Read TensorDescriptor v, as a launch passes it to parameter param:
 * false after reporting fields that are not a tensor and lists of ints of
 * one length (1 to 5). */
bool tritontools_desc_of(host *h, val v, src_span at, const char *param,
                         tritontools_desc *out);

#endif
