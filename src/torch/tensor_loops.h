/* tensor_loops.h - tight loops over runs of tensor elements of the float
 * dtypes (float16, bfloat16, float32, float64): conversions between them
 * and float buffers, for the tensor operations that would otherwise load,
 * convert and store one element at a time through dtype_load, dtype_cast
 * and dtype_store.
 *
 * Every function gives the bits the element-at-a-time path gives
 * (fpconv.h's conversions):
 * widening is exact, and narrowing rounds once to nearest even from the
 * source value (float64 -> float16 never goes through float32), with
 * dtype.c's NaNs (quiet, the payload's top bits kept) and its infinities.
 *
 * A run is n elements at a byte stride (0 repeats one element, as a
 * broadcast operand does); tensor_iter_runs (tensor.h) cuts a shape into
 * such runs. */
#ifndef TRITSIM_TENSOR_LOOPS_H
#define TRITSIM_TENSOR_LOOPS_H

#include <stdbool.h>
#include <stdint.h>

#include <math.h>
#include <string.h>

#include "dtype.h"
#include "fpconv.h"

/* Elements the callers convert at a time into buffers on the stack. */
enum { TENSOR_LOOP_CHUNK = 512 };

/* Whether t is one of the four float dtypes the loops handle. */
bool tensor_loop_float(dtype t);

/* out[i] = element i of the run (dtype t, byte stride ss) as float32 or
 * float64 (dtype_cast's value: a float64 element rounds to float32). */
void tensor_loop_load_f32(dtype t, const void *src, int64_t ss, float *out, int64_t n);
void tensor_loop_load_f64(dtype t, const void *src, int64_t ss, double *out, int64_t n);
/* Element i of the run (dtype t, byte stride ds) = in[i], rounded to t. */
void tensor_loop_store_f32(dtype t, void *dst, int64_t ds, const float *in, int64_t n);
void tensor_loop_store_f64(dtype t, void *dst, int64_t ds, const double *in, int64_t n);

/* The run at dst (dtype to, byte stride ds) = the run at src (dtype from,
 * byte stride ss) converted, n elements; both dtypes float ones. */
void tensor_loop_convert(dtype to, void *dst, int64_t ds, dtype from, const void *src,
                         int64_t ss, int64_t n);

#endif
