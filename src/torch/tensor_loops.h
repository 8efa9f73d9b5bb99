/* tensor_loops.h - tight loops over runs of tensor elements of the float
 * dtypes (float16, bfloat16, float32, float64): conversions between them
 * and float buffers, for the tensor operations that would otherwise load,
 * convert and store one element at a time through dtype_load, dtype_cast
 * and dtype_store.
 *
 * Every function gives the bits the element-at-a-time path gives:
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

/* ---- one element, inline for the loops ----------------------------------- */

/* float32 to float16 bits, as dtype_f32_to_f16. */
static inline uint16_t tensor_loop_f32_to_f16(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    uint32_t sign = (u >> 16) & 0x8000u, a = u & 0x7fffffffu, h;
    if (a > 0x7f800000u) {                  /* NaN: quiet, top payload bits */
        h = 0x7e00u | ((a >> 13) & 0x3ffu);
    } else if (a >= 0x477ff000u) {          /* 65520 and up round to infinity */
        h = 0x7c00u;
    } else if (a >= 0x38800000u) {          /* a normal float16 */
        /* rebias the exponent, round the 13 dropped bits to nearest even */
        h = (a - 0x38000000u + 0xfffu + ((a >> 13) & 1u)) >> 13;
    } else {
        /* a subnormal (or zero, or 2^-14 after rounding): adding 0.5 puts
         * float16's subnormal step 2^-24 in the last place of the float,
         * and the addition rounds to nearest even */
        float t = fabsf(f) + 0.5f;
        uint32_t tb;
        memcpy(&tb, &t, sizeof tb);
        h = tb - 0x3f000000u;
    }
    return (uint16_t)(sign | h);
}

/* float16 bits to float32, as dtype_f16_to_f32. */
static inline float tensor_loop_f16_to_f32(uint16_t x)
{
    uint32_t sign = (uint32_t)(x & 0x8000u) << 16, e = (x >> 10) & 0x1fu, m = x & 0x3ffu;
    uint32_t bits;
    float f;
    if (e == 0) {
        /* m * 2^-24, exactly: 0.5 + m * 2^-24 less 0.5 */
        bits = 0x3f000000u | m;
        memcpy(&f, &bits, sizeof f);
        f -= 0.5f;
        memcpy(&bits, &f, sizeof bits);
        bits |= sign;
    } else if (e == 0x1f) {
        bits = sign | 0x7f800000u | (m << 13);
    } else {
        bits = sign | (((x & 0x7fffu) << 13) + 0x38000000u);    /* rebias */
    }
    memcpy(&f, &bits, sizeof f);
    return f;
}

#endif
