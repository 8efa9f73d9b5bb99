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

/* float32 to bfloat16 bits, as dtype_f32_to_bf16: bfloat16 has float32's
 * exponent, so the 16 dropped bits round to nearest even (into the
 * exponent, up to infinity, as needed); a NaN keeps its top payload bits
 * and is made quiet. */
static inline uint16_t f32_to_bf16(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    if ((u & 0x7fffffffu) > 0x7f800000u)
        return (uint16_t)((u >> 16) | 0x40u);
    return (uint16_t)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

static inline float bf16_to_f32(uint16_t b)
{
    uint32_t u = (uint32_t)b << 16;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
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
    switch (t) {
    case DTYPE_FP16:
        for (int64_t i = 0; i < n; i++)
            out[i] = tensor_loop_f16_to_f32(at16(src, ss, i));
        break;
    case DTYPE_BF16:
        for (int64_t i = 0; i < n; i++)
            out[i] = bf16_to_f32(at16(src, ss, i));
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
            out[i] = tensor_loop_f16_to_f32(at16(src, ss, i));
        break;
    case DTYPE_BF16:
        for (int64_t i = 0; i < n; i++)
            out[i] = bf16_to_f32(at16(src, ss, i));
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
    switch (t) {
    case DTYPE_FP16:
        for (int64_t i = 0; i < n; i++)
            put16(dst, ds, i, tensor_loop_f32_to_f16(in[i]));
        break;
    case DTYPE_BF16:
        for (int64_t i = 0; i < n; i++)
            put16(dst, ds, i, f32_to_bf16(in[i]));
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
            put16(dst, ds, i, dtype_f64_to_f16(in[i]));
        break;
    case DTYPE_BF16:
        for (int64_t i = 0; i < n; i++)
            put16(dst, ds, i, dtype_f64_to_bf16(in[i]));
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
    if (from == DTYPE_FP16 && to == DTYPE_FP32) {
        for (int64_t i = 0; i < n; i++)
            put32(dst, ds, i, tensor_loop_f16_to_f32(at16(src, ss, i)));
        return;
    }
    if (from == DTYPE_FP32 && to == DTYPE_FP16) {
        for (int64_t i = 0; i < n; i++)
            put16(dst, ds, i, tensor_loop_f32_to_f16(at32(src, ss, i)));
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
