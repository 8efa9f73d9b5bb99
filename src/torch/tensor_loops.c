/* tensor_loops.c - the float loops of tensor_loops.h: runs of float16,
 * bfloat16, float32 and float64 elements to and from float buffers, and
 * conversions between runs.  Each case is one plain loop over the run, so
 * that the per-element cost is a few instructions rather than calls
 * through dtype_load, dtype_cast and dtype_store. */
#include "tensor_loops.h"

#include <math.h>
#include <string.h>

bool tensor_loop_float(dtype t)
{
    return t == DTYPE_FP16 || t == DTYPE_BF16 || t == DTYPE_FP32 || t == DTYPE_FP64;
}

/* Element i of a run of 16-bit, 32-bit or 64-bit elements. */
static inline uint16_t at16(const void *p, int64_t stride, int64_t i)
{
    uint16_t v;
    memcpy(&v, (const unsigned char *)p + i * stride, sizeof v);
    return v;
}

static inline float at32(const void *p, int64_t stride, int64_t i)
{
    float v;
    memcpy(&v, (const unsigned char *)p + i * stride, sizeof v);
    return v;
}

static inline double at64(const void *p, int64_t stride, int64_t i)
{
    double v;
    memcpy(&v, (const unsigned char *)p + i * stride, sizeof v);
    return v;
}

static inline void put16(void *p, int64_t stride, int64_t i, uint16_t v)
{
    memcpy((unsigned char *)p + i * stride, &v, sizeof v);
}

static inline void put32(void *p, int64_t stride, int64_t i, float v)
{
    memcpy((unsigned char *)p + i * stride, &v, sizeof v);
}

static inline void put64(void *p, int64_t stride, int64_t i, double v)
{
    memcpy((unsigned char *)p + i * stride, &v, sizeof v);
}

void tensor_loop_load_f32(dtype t, const void *src, int64_t ss, float *out, int64_t n)
{
    if (t == DTYPE_FP16 && ss == 2) {         /* out is a float buffer */
        fpconv_f16_to_f32_n(out, src, n);
        return;
    }
    switch (t) {
    case DTYPE_FP16:
        for (int64_t i = 0; i < n; i++)
            out[i] = fpconv_f16_to_f32(at16(src, ss, i));
        break;
    case DTYPE_BF16:
        for (int64_t i = 0; i < n; i++)
            out[i] = fpconv_bf16_to_f32(at16(src, ss, i));
        break;
    case DTYPE_FP32:
        for (int64_t i = 0; i < n; i++)
            out[i] = at32(src, ss, i);
        break;
    case DTYPE_FP64:
        for (int64_t i = 0; i < n; i++)
            out[i] = (float)at64(src, ss, i);
        break;
    default:
        break;
    }
}

void tensor_loop_load_f64(dtype t, const void *src, int64_t ss, double *out, int64_t n)
{
    switch (t) {
    case DTYPE_FP16:
        for (int64_t i = 0; i < n; i++)
            out[i] = fpconv_f16_to_f32(at16(src, ss, i));
        break;
    case DTYPE_BF16:
        for (int64_t i = 0; i < n; i++)
            out[i] = fpconv_bf16_to_f32(at16(src, ss, i));
        break;
    case DTYPE_FP32:
        for (int64_t i = 0; i < n; i++)
            out[i] = at32(src, ss, i);
        break;
    case DTYPE_FP64:
        for (int64_t i = 0; i < n; i++)
            out[i] = at64(src, ss, i);
        break;
    default:
        break;
    }
}

void tensor_loop_store_f32(dtype t, void *dst, int64_t ds, const float *in, int64_t n)
{
    if (t == DTYPE_FP16 && ds == 2) {
        fpconv_f32_to_f16_n(dst, in, n);
        return;
    }
    switch (t) {
    case DTYPE_FP16:
        for (int64_t i = 0; i < n; i++)
            put16(dst, ds, i, fpconv_f32_to_f16(in[i]));
        break;
    case DTYPE_BF16:
        for (int64_t i = 0; i < n; i++)
            put16(dst, ds, i, fpconv_f32_to_bf16(in[i]));
        break;
    case DTYPE_FP32:
        for (int64_t i = 0; i < n; i++)
            put32(dst, ds, i, in[i]);
        break;
    case DTYPE_FP64:
        for (int64_t i = 0; i < n; i++)
            put64(dst, ds, i, in[i]);
        break;
    default:
        break;
    }
}

void tensor_loop_store_f64(dtype t, void *dst, int64_t ds, const double *in, int64_t n)
{
    switch (t) {
    case DTYPE_FP16:       /* one rounding from the double (dtype.c) */
        for (int64_t i = 0; i < n; i++)
            put16(dst, ds, i, fpconv_f64_to_f16(in[i]));
        break;
    case DTYPE_BF16:
        for (int64_t i = 0; i < n; i++)
            put16(dst, ds, i, fpconv_f64_to_bf16(in[i]));
        break;
    case DTYPE_FP32:
        for (int64_t i = 0; i < n; i++)
            put32(dst, ds, i, (float)in[i]);
        break;
    case DTYPE_FP64:
        for (int64_t i = 0; i < n; i++)
            put64(dst, ds, i, in[i]);
        break;
    default:
        break;
    }
}

void tensor_loop_convert(dtype to, void *dst, int64_t ds, dtype from, const void *src,
                         int64_t ss, int64_t n)
{
    /* the common cases straight, the rest through a buffer: float32 holds
     * every float16, bfloat16 and float32 value; a float64 source or
     * destination goes through float64, so that it rounds once */
    if (from == DTYPE_FP16 && to == DTYPE_FP32 && ss == 2 && ds == 4 &&
        (uintptr_t)dst % sizeof(float) == 0) {
        fpconv_f16_to_f32_n(dst, src, n);
        return;
    }
    if (from == DTYPE_FP32 && to == DTYPE_FP16 && ss == 4 && ds == 2 &&
        (uintptr_t)src % sizeof(float) == 0) {
        fpconv_f32_to_f16_n(dst, src, n);
        return;
    }
    if (from == DTYPE_FP16 && to == DTYPE_FP32) {
        for (int64_t i = 0; i < n; i++)
            put32(dst, ds, i, fpconv_f16_to_f32(at16(src, ss, i)));
        return;
    }
    if (from == DTYPE_FP32 && to == DTYPE_FP16) {
        for (int64_t i = 0; i < n; i++)
            put16(dst, ds, i, fpconv_f32_to_f16(at32(src, ss, i)));
        return;
    }
    bool wide = from == DTYPE_FP64 || to == DTYPE_FP64;
    for (int64_t done = 0; done < n; done += TENSOR_LOOP_CHUNK) {
        int64_t m = n - done < TENSOR_LOOP_CHUNK ? n - done : TENSOR_LOOP_CHUNK;
        const unsigned char *s = (const unsigned char *)src + done * ss;
        unsigned char *d = (unsigned char *)dst + done * ds;
        if (wide) {
            double buf[TENSOR_LOOP_CHUNK];
            tensor_loop_load_f64(from, s, ss, buf, m);
            tensor_loop_store_f64(to, d, ds, buf, m);
        } else {
            float buf[TENSOR_LOOP_CHUNK];
            tensor_loop_load_f32(from, s, ss, buf, m);
            tensor_loop_store_f32(to, d, ds, buf, m);
        }
    }
}
