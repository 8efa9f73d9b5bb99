/* test_dtype.c - unit tests of dtype.h: names, float conversions, casts,
 * Triton's promotion table and the integer division helpers.
 *
 * Expected promotions come from Triton 3.x python/triton/language/
 * semantic.py (computation_type_impl, integer_promote_impl,
 * binary_op_type_checking_impl, to_tensor_type) as cited per case. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "dtype.h"
#include "tap.h"

static float bits_float(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static uint32_t float_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* ---- names and properties ------------------------------------------ */

static void test_names(void)
{
    TAP_STR_EQ(dtype_name(DTYPE_FP32), "fp32", "str(tl.float32) is fp32");
    TAP_STR_EQ(dtype_name(DTYPE_BF16), "bf16", "str(tl.bfloat16) is bf16");
    TAP_STR_EQ(dtype_name(DTYPE_INT1), "int1", "str(tl.int1) is int1");
    TAP_STR_EQ(dtype_name(dtype_ptr_to(DTYPE_FP32)), "pointer<fp32>",
               "pointer names print as pointer<fp32>");
    TAP_STR_EQ(dtype_name(dtype_ptr_to(DTYPE_UINT8)), "pointer<uint8>",
               "pointer<uint8>");
    TAP_STR_EQ(dtype_name((dtype)0x3f), "invalid", "an unknown code is invalid");
    TAP_STR_EQ(dtype_tl_name(DTYPE_FP16), "float16", "tl attribute of fp16");
    TAP_STR_EQ(dtype_tl_name(DTYPE_FP8E4NV), "float8e4nv", "tl attribute of fp8e4nv");
    TAP_OK(dtype_tl_name(dtype_ptr_to(DTYPE_FP16)) == NULL, "pointers have no tl attribute");
    TAP_STR_EQ(dtype_torch_name(DTYPE_INT1), "torch.bool", "torch name of int1");
    TAP_STR_EQ(dtype_torch_name(DTYPE_BF16), "torch.bfloat16", "torch name of bf16");
    TAP_STR_EQ(dtype_torch_name(DTYPE_FP8E5), "torch.float8_e5m2", "torch name of fp8e5");

    TAP_INT_EQ(dtype_from_name("pointer<bf16>"), dtype_ptr_to(DTYPE_BF16),
               "dtype_from_name parses pointer<bf16>");
    TAP_INT_EQ(dtype_from_name("uint16"), DTYPE_UINT16, "dtype_from_name(uint16)");
    TAP_INT_EQ(dtype_from_name("pointer<>"), DTYPE_INVALID, "pointer<> is invalid");
    TAP_INT_EQ(dtype_from_name("float32"), DTYPE_INVALID,
               "float32 is a tl attribute, not Triton's printed name");
    TAP_INT_EQ(dtype_from_tl_attr("bfloat16"), DTYPE_BF16, "tl.bfloat16");
    TAP_INT_EQ(dtype_from_tl_attr("float64"), DTYPE_FP64, "tl.float64");
    TAP_INT_EQ(dtype_from_tl_attr("int1"), DTYPE_INT1, "tl.int1");
    TAP_INT_EQ(dtype_from_tl_attr("float8e5"), DTYPE_FP8E5, "tl.float8e5");
    TAP_INT_EQ(dtype_from_tl_attr("fp32"), DTYPE_INVALID, "there is no tl.fp32");
    TAP_INT_EQ(dtype_from_tl_attr("bool"), DTYPE_INVALID, "there is no tl.bool");
    TAP_INT_EQ(dtype_from_torch_attr("float"), DTYPE_FP32, "torch.float is float32");
    TAP_INT_EQ(dtype_from_torch_attr("half"), DTYPE_FP16, "torch.half is float16");
    TAP_INT_EQ(dtype_from_torch_attr("double"), DTYPE_FP64, "torch.double");
    TAP_INT_EQ(dtype_from_torch_attr("long"), DTYPE_INT64, "torch.long");
    TAP_INT_EQ(dtype_from_torch_attr("int"), DTYPE_INT32, "torch.int");
    TAP_INT_EQ(dtype_from_torch_attr("bool"), DTYPE_INT1, "torch.bool");
    TAP_INT_EQ(dtype_from_torch_attr("uint8"), DTYPE_UINT8, "torch.uint8");
    TAP_INT_EQ(dtype_from_torch_attr("bfloat16"), DTYPE_BF16, "torch.bfloat16");
    TAP_INT_EQ(dtype_from_torch_attr("float8_e4m3fn"), DTYPE_FP8E4NV, "torch.float8_e4m3fn");
    TAP_INT_EQ(dtype_from_torch_attr("torch.float32"), DTYPE_INVALID,
               "torch attribute lookup takes the bare attribute");
}

static void test_properties(void)
{
    TAP_INT_EQ(dtype_size(DTYPE_INT1), 1, "int1 takes a byte in memory");
    TAP_INT_EQ(dtype_bits(DTYPE_INT1), 1, "int1 is 1 bit wide");
    TAP_INT_EQ(dtype_size(DTYPE_BF16), 2, "bf16 is 2 bytes");
    TAP_INT_EQ(dtype_size(dtype_ptr_to(DTYPE_INT8)), 8, "pointers are 8 bytes");
    TAP_INT_EQ(dtype_size(DTYPE_FP8E4NV), 1, "fp8 is 1 byte");
    TAP_OK(!dtype_is_signed(DTYPE_INT1) && dtype_is_unsigned(DTYPE_INT1),
           "int1 is unsigned, as in Triton's UINT_TYPES");
    TAP_OK(dtype_is_int(DTYPE_INT1) && !dtype_is_float(DTYPE_INT1), "int1 is an int");
    TAP_OK(dtype_is_float(DTYPE_BF16) && dtype_is_float(DTYPE_FP8E5) &&
           !dtype_is_int(DTYPE_FP16), "float classification");
    TAP_OK(!dtype_is_float(dtype_ptr_to(DTYPE_FP32)) &&
           !dtype_is_int(dtype_ptr_to(DTYPE_INT32)), "pointers are neither int nor float");
    TAP_INT_EQ(dtype_elem(dtype_ptr_to(DTYPE_FP16)), DTYPE_FP16, "pointer element type");
    TAP_INT_EQ(dtype_int_min(DTYPE_INT8), -128, "int8 min");
    TAP_INT_EQ(dtype_int_max(DTYPE_UINT16), 65535, "uint16 max");
    TAP_OK(dtype_int_max(DTYPE_UINT64) == UINT64_MAX, "uint64 max");
    TAP_INT_EQ(dtype_mantissa_bits(DTYPE_BF16), 7, "bf16 has 7 fraction bits");
    TAP_OK(dtype_kind_of(DTYPE_INT1) < dtype_kind_of(DTYPE_UINT8) &&
           dtype_kind_of(DTYPE_UINT8) == dtype_kind_of(DTYPE_INT64) &&
           dtype_kind_of(DTYPE_INT64) < dtype_kind_of(DTYPE_FP16),
           "kinds: bool < integral < floating");
}

/* ---- fp16 and bf16 conversions -------------------------------------- */

static void test_fp16(void)
{
    TAP_INT_EQ(dtype_f32_to_f16(1.0f), 0x3c00, "fp16(1.0)");
    TAP_INT_EQ(dtype_f32_to_f16(65504.0f), 0x7bff, "fp16 max 65504");
    TAP_INT_EQ(dtype_f32_to_f16(65519.0f), 0x7bff, "65519 rounds down to fp16 max");
    TAP_INT_EQ(dtype_f32_to_f16(65520.0f), 0x7c00,
               "65520 (halfway past max) overflows to +inf");
    TAP_INT_EQ(dtype_f32_to_f16(-1e6f), 0xfc00, "-1e6 overflows to -inf");
    TAP_INT_EQ(dtype_f32_to_f16(ldexpf(1, -24)), 0x0001, "min subnormal 2^-24");
    TAP_INT_EQ(dtype_f32_to_f16(ldexpf(1, -25)), 0x0000,
               "2^-25 is halfway to the min subnormal: ties to even (0)");
    TAP_INT_EQ(dtype_f32_to_f16(ldexpf(1.0f + ldexpf(1, -20), -25)), 0x0001,
               "just above 2^-25 rounds up to the min subnormal");
    TAP_INT_EQ(dtype_f32_to_f16(ldexpf(3, -25)), 0x0002,
               "1.5 * 2^-24 ties to even (2 * 2^-24)");
    TAP_INT_EQ(dtype_f32_to_f16(ldexpf(5, -25)), 0x0002,
               "2.5 * 2^-24 ties to even (2 * 2^-24)");
    TAP_INT_EQ(dtype_f32_to_f16(ldexpf(1023, -24)), 0x03ff, "largest subnormal");
    TAP_INT_EQ(dtype_f32_to_f16(ldexpf(1, -14)), 0x0400, "min normal 2^-14");
    TAP_INT_EQ(dtype_f32_to_f16(ldexpf(2047, -25)), 0x0400,
               "largest subnormal + half ulp ties up into the normal range");
    TAP_INT_EQ(dtype_f32_to_f16(1.0f + ldexpf(1, -11)), 0x3c00,
               "1 + 2^-11 ties to even (1.0)");
    TAP_INT_EQ(dtype_f32_to_f16(1.0f + ldexpf(3, -11)), 0x3c02,
               "1 + 3*2^-11 ties to even (1 + 2^-9)");
    TAP_INT_EQ(dtype_f32_to_f16(1.0f + ldexpf(1, -11) + ldexpf(1, -20)), 0x3c01,
               "just above halfway rounds up");
    TAP_INT_EQ(dtype_f32_to_f16(-0.0f), 0x8000, "-0.0 keeps its sign");
    TAP_INT_EQ(dtype_f32_to_f16(INFINITY), 0x7c00, "+inf");
    TAP_INT_EQ(dtype_f32_to_f16(-INFINITY), 0xfc00, "-inf");
    uint16_t h = dtype_f32_to_f16(NAN);
    TAP_OK((h & 0x7c00) == 0x7c00 && (h & 0x0200), "NaN stays a quiet NaN (0x%04x)", h);
    h = dtype_f32_to_f16(bits_float(0x7f800001));    /* signalling, low payload */
    TAP_OK((h & 0x7c00) == 0x7c00 && (h & 0x03ff) != 0,
           "a NaN whose payload is below fp16's bits stays NaN (0x%04x)", h);
    h = dtype_f32_to_f16(bits_float(0xffc00000));
    TAP_OK(h & 0x8000, "a negative NaN keeps its sign");
    TAP_INT_EQ(dtype_f32_to_f16(0.1f), 0x2e66, "fp16(0.1)");
    TAP_INT_EQ(dtype_f32_to_f16(1e-8f), 0x0000, "1e-8 underflows to zero");
    TAP_INT_EQ(dtype_f32_to_f16(-1e-8f), 0x8000, "-1e-8 underflows to -0");

    /* fp64 -> fp16 must round once: 1 + 2^-11 + 2^-40 is just above the
     * halfway point; rounding to fp32 first lands exactly on it. */
    double x = 1.0 + ldexp(1, -11) + ldexp(1, -40);
    TAP_INT_EQ(dtype_f64_to_f16(x), 0x3c01, "fp64 -> fp16 rounds once (up)");
    TAP_INT_EQ(dtype_f32_to_f16((float)x), 0x3c00,
               "the same value via fp32 would round down (double rounding)");
    TAP_INT_EQ(dtype_f64_to_f16(ldexp(1, -1074)), 0x0000, "a double subnormal underflows");
    TAP_INT_EQ(dtype_f64_to_f16(DBL_MAX), 0x7c00, "DBL_MAX overflows to inf");
    TAP_INT_EQ(dtype_f64_to_f16(65519.999999), 0x7bff, "just below the overflow point");

    TAP_DBL_EQ(dtype_f16_to_f32(0x7bff), 65504.0, "widen fp16 max");
    TAP_DBL_EQ(dtype_f16_to_f32(0x0001), ldexp(1, -24), "widen min subnormal");
    TAP_DBL_EQ(dtype_f16_to_f32(0x03ff), ldexp(1023, -24), "widen largest subnormal");
    TAP_DBL_EQ(dtype_f16_to_f32(0x8000), -0.0, "widen -0");
    TAP_DBL_EQ(dtype_f16_to_f32(0xfc00), -INFINITY, "widen -inf");
    TAP_OK(isnan(dtype_f16_to_f32(0x7e00)), "widen NaN");
    TAP_DBL_EQ(dtype_f16_to_f32(0x3555), 0.333251953125, "widen fp16(1/3)");
    int bad = 0;
    for (uint32_t b = 0; b < 0x10000; b++) {
        float f = dtype_f16_to_f32((uint16_t)b);
        uint16_t back = dtype_f32_to_f16(f);
        if (isnan(f) ? (back & 0x7c00) != 0x7c00 || !(back & 0x3ff) : back != b)
            bad++;
    }
    TAP_INT_EQ(bad, 0, "every fp16 pattern survives fp16 -> fp32 -> fp16");
}

static void test_bf16(void)
{
    TAP_INT_EQ(dtype_f32_to_bf16(1.0f), 0x3f80, "bf16(1.0)");
    TAP_INT_EQ(dtype_f32_to_bf16(1.0f + ldexpf(1, -8)), 0x3f80,
               "1 + 2^-8 ties to even (1.0)");
    TAP_INT_EQ(dtype_f32_to_bf16(1.0f + ldexpf(3, -8)), 0x3f82,
               "1 + 3*2^-8 ties to even (1 + 2^-6)");
    TAP_INT_EQ(dtype_f32_to_bf16(1.0f + ldexpf(1, -8) + ldexpf(1, -23)), 0x3f81,
               "just above halfway rounds up");
    TAP_INT_EQ(dtype_f32_to_bf16(bits_float(0x7f7f0000)), 0x7f7f, "bf16 max is exact");
    TAP_INT_EQ(dtype_f32_to_bf16(FLT_MAX), 0x7f80, "FLT_MAX rounds up to +inf in bf16");
    TAP_INT_EQ(dtype_f32_to_bf16(-0.0f), 0x8000, "-0.0");
    TAP_INT_EQ(dtype_f32_to_bf16(ldexpf(1, -133)), 0x0001, "bf16 min subnormal 2^-133");
    TAP_INT_EQ(dtype_f32_to_bf16(ldexpf(1, -134)), 0x0000, "2^-134 ties to even (0)");
    TAP_INT_EQ(dtype_f32_to_bf16(ldexpf(3, -134)), 0x0002, "1.5 * 2^-133 ties to even");
    TAP_INT_EQ(dtype_f32_to_bf16(bits_float(0x00800000)), 0x0080, "min normal 2^-126");
    uint16_t b = dtype_f32_to_bf16(bits_float(0x7f800001));
    TAP_OK((b & 0x7f80) == 0x7f80 && (b & 0x7f) && (b & 0x40),
           "a NaN with only low payload bits stays a quiet NaN, not inf (0x%04x)", b);
    TAP_INT_EQ(dtype_f32_to_bf16(INFINITY), 0x7f80, "+inf");
    TAP_INT_EQ(dtype_f32_to_bf16(0.1f), 0x3dcd, "bf16(0.1)");

    /* The case the brief warned about: fp64 -> bf16 through fp32 rounds
     * twice and lands on the tie. */
    double x = 1.0 + ldexp(1, -8) + ldexp(1, -30);
    TAP_INT_EQ(dtype_f64_to_bf16(x), 0x3f81, "fp64 -> bf16 rounds once (up)");
    TAP_INT_EQ(dtype_f32_to_bf16((float)x), 0x3f80,
               "via fp32 it would round down (double rounding)");
    TAP_DBL_EQ(dtype_bf16_to_f32(0x3f81), 1.0078125, "widen bf16");
    TAP_DBL_EQ(dtype_bf16_to_f32(0xff80), -INFINITY, "widen bf16 -inf");
    TAP_OK(float_bits(dtype_bf16_to_f32(0x7fc1)) == 0x7fc10000, "widening keeps the NaN payload");
}

static void test_fp8_decode(void)
{
    TAP_DBL_EQ(dtype_fp8e4nv_to_f64(0x7e), 448.0, "fp8e4nv max is 448");
    TAP_OK(isnan(dtype_fp8e4nv_to_f64(0x7f)), "fp8e4nv 0x7f is NaN");
    TAP_DBL_EQ(dtype_fp8e4nv_to_f64(0x01), ldexp(1, -9), "fp8e4nv min subnormal");
    TAP_DBL_EQ(dtype_fp8e4nv_to_f64(0x38), 1.0, "fp8e4nv 1.0");
    TAP_DBL_EQ(dtype_fp8e5_to_f64(0x3c), 1.0, "fp8e5 1.0");
    TAP_DBL_EQ(dtype_fp8e5_to_f64(0x7b), 57344.0, "fp8e5 max is 57344");
    TAP_DBL_EQ(dtype_fp8e5_to_f64(0xfc), -INFINITY, "fp8e5 -inf");
    TAP_DBL_EQ(dtype_fp8e5_to_f64(0x80), -0.0, "fp8e5 -0");
}

/* Narrowing to fp8, against an independent oracle: for every pair of
 * neighbouring finite codes, the values just below, at and just above
 * their midpoint, and each code's own value. */
static void test_fp8_encode(void)
{
    struct { const char *name; double (*dec)(uint8_t); uint8_t (*enc)(double);
             uint8_t max; double maxval; } f[2] = {
        {"fp8e4nv", dtype_fp8e4nv_to_f64, dtype_f64_to_fp8e4nv, 0x7e, 448.0},
        {"fp8e5", dtype_fp8e5_to_f64, dtype_f64_to_fp8e5, 0x7b, 57344.0},
    };
    for (int k = 0; k < 2; k++) {
        int bad = 0;
        for (int c = 0; c <= f[k].max; c++) {
            double v = f[k].dec((uint8_t)c);
            bad += f[k].enc(v) != c;
            bad += f[k].enc(-v) != (c | 0x80);
            if (c == f[k].max)
                break;
            double next = f[k].dec((uint8_t)(c + 1)), mid = (v + next) / 2;
            uint8_t even = (c & 1) ? (uint8_t)(c + 1) : (uint8_t)c;
            bad += f[k].enc(mid) != even;
            bad += f[k].enc(nextafter(mid, 0)) != c;
            bad += f[k].enc(nextafter(mid, INFINITY)) != c + 1;
        }
        TAP_INT_EQ(bad, 0, "%s: every code round-trips, midpoints go to the even code",
                   f[k].name);
        TAP_INT_EQ(f[k].enc(1e30), f[k].max, "%s saturates large values to its max", f[k].name);
        TAP_INT_EQ(f[k].enc(-INFINITY), f[k].max | 0x80, "%s saturates -inf to -max",
                   f[k].name);
        TAP_OK(isnan(f[k].dec(f[k].enc(NAN))), "%s keeps NaN", f[k].name);
        TAP_DBL_EQ(f[k].dec(f[k].enc(f[k].maxval * 1.03)), f[k].maxval,
                   "%s: just past the max is the max", f[k].name);
    }
    TAP_DBL_EQ(dtype_cast((dtype_scalar){.f = 0.3}, DTYPE_FP32, DTYPE_FP8E4NV).f, 0.3125,
               "fp32 0.3 -> fp8e4nv is 0.3125");
    TAP_DBL_EQ(dtype_round_float(DTYPE_FP8E5, 0.3), 0.3125, "fp8e5 rounds 0.3 to 0.3125");
}

/* The code PyTorch's conversion should give for the float x, worked out
 * from the decoder alone: the nearest of the finite codes 0..max and one
 * more step past max, at the distance the format's top quantum (ties to
 * the even code); landing on that step is overflow, which is `over`. */
static uint8_t fp8_torch_oracle(float x, double (*dec)(uint8_t), uint8_t max, uint8_t over)
{
    uint8_t sign = signbit(x) ? 0x80 : 0;
    if (isnan(x))             /* the H100 gives the positive NaN */
        return 0x7f;
    double a = fabs((double)x);
    double top = dec(max), past = top + (top - dec((uint8_t)(max - 1)));
    if (a >= past)            /* (and the distances below would be inexact) */
        return sign | over;
    int best = 0;
    double best_d = INFINITY;
    for (int c = 0; c <= max + 1; c++) {
        double v = c <= max ? dec((uint8_t)c) : past;
        double d = fabs(v - a);
        if (d < best_d || (d == best_d && !(c & 1))) {
            best = c;
            best_d = d;
        }
    }
    return sign | (uint8_t)(best > max ? over : best);
}

/* PyTorch's narrowing (no saturation) against the oracle: every code's
 * value, the midpoints of neighbours and their neighbouring floats, and a
 * spread of float bit patterns; then the named cases. */
static void test_fp8_torch(void)
{
    struct { const char *name; double (*dec)(uint8_t); uint8_t (*enc)(float);
             uint8_t max, over; } f[2] = {
        {"fp8e4nv", dtype_fp8e4nv_to_f64, dtype_f32_to_fp8e4nv_torch, 0x7e, 0x7f},
        {"fp8e5", dtype_fp8e5_to_f64, dtype_f32_to_fp8e5_torch, 0x7b, 0x7c},
    };
    for (int k = 0; k < 2; k++) {
        int bad = 0, n = 0;
        for (int c = 0; c <= f[k].max; c++) {
            float v = (float)f[k].dec((uint8_t)c);
            float mid = c < f[k].max ? (float)((v + f[k].dec((uint8_t)(c + 1))) / 2)
                                     : (float)(v + (v - f[k].dec((uint8_t)(c - 1))) / 2);
            float xs[] = {v, -v, mid, -mid, nextafterf(mid, 0), nextafterf(mid, INFINITY)};
            for (size_t i = 0; i < sizeof xs / sizeof *xs; i++, n++)
                bad += f[k].enc(xs[i]) != fp8_torch_oracle(xs[i], f[k].dec, f[k].max, f[k].over);
        }
        for (uint64_t bits = 0; bits < ((uint64_t)1 << 32); bits += 65521, n++) {
            uint32_t b32 = (uint32_t)bits;
            float x;
            memcpy(&x, &b32, sizeof x);
            bad += f[k].enc(x) != fp8_torch_oracle(x, f[k].dec, f[k].max, f[k].over);
        }
        TAP_INT_EQ(bad, 0, "%s, PyTorch's rules: %d floats agree with the oracle", f[k].name, n);
    }
    TAP_INT_EQ(dtype_f32_to_fp8e4nv_torch(464.0f), 0x7e, "e4m3fn: 464 is a tie, to 448");
    TAP_INT_EQ(dtype_f32_to_fp8e4nv_torch(nextafterf(464.0f, INFINITY)), 0x7f,
               "e4m3fn: just past 464 is NaN");
    TAP_INT_EQ(dtype_f32_to_fp8e4nv_torch(-INFINITY), 0xff, "e4m3fn: -inf is NaN, signed");
    TAP_INT_EQ(dtype_f32_to_fp8e5_torch(61440.0f), 0x7c, "e5m2: 61440 is a tie, to inf");
    TAP_INT_EQ(dtype_f32_to_fp8e5_torch(nextafterf(61440.0f, 0)), 0x7b,
               "e5m2: just below 61440 is 57344");
    TAP_INT_EQ(dtype_f32_to_fp8e5_torch(-NAN), 0x7f, "e5m2: -NaN is the positive NaN, as on the H100");
    TAP_INT_EQ(dtype_f32_to_fp8e4nv_torch(-NAN), 0x7f, "e4m3fn: -NaN is the positive NaN");
    TAP_INT_EQ(dtype_f32_to_fp8e4nv_torch(-1e-30f), 0x80, "underflow keeps the sign");
}

/* dtype_store writes each of the 256 bytes of both formats back as it
 * read it (NaNs, their signs and e5m2's three NaN fractions, inf, -0). */
static void test_fp8_store(void)
{
    for (dtype t = DTYPE_FP8E4NV; t <= DTYPE_FP8E5; t++) {
        int bad = 0;
        for (int c = 0; c < 256; c++) {
            uint8_t in = (uint8_t)c, out = 0;
            dtype_scalar v = dtype_load(t, &in);
            dtype_store(t, &out, v);
            bad += out != in;
        }
        TAP_INT_EQ(bad, 0, "%s: every byte is stored as it was loaded", dtype_name(t));
    }
    uint8_t b;
    dtype_store(DTYPE_FP8E5, &b, (dtype_scalar){.f = INFINITY});
    TAP_INT_EQ(b, 0x7c, "an e5m2 store of inf is inf (a cast would saturate)");
    dtype_store(DTYPE_FP8E5, &b, (dtype_scalar){.f = NAN});
    TAP_INT_EQ(b, 0x7f, "a NaN from elsewhere is stored as 0x7f");
    TAP_OK(!signbit(dtype_round_float(DTYPE_FP8E4NV, -NAN)),
           "a cast to fp8 gives the positive NaN");
}

/* ---- casts ---------------------------------------------------------- */

static dtype_scalar si(int64_t v) { dtype_scalar s; s.i = v; return s; }
static dtype_scalar su(uint64_t v) { dtype_scalar s; s.u = v; return s; }
static dtype_scalar sf(double v) { dtype_scalar s; s.f = v; return s; }

static void test_casts(void)
{
    TAP_INT_EQ(dtype_cast(si(300), DTYPE_INT64, DTYPE_INT8).i, 44, "int64 300 -> int8 wraps to 44");
    TAP_INT_EQ(dtype_cast(si(-129), DTYPE_INT64, DTYPE_INT8).i, 127, "int64 -129 -> int8 wraps to 127");
    TAP_INT_EQ(dtype_cast(si(-1), DTYPE_INT64, DTYPE_UINT8).u, 255, "-1 -> uint8 is 255");
    TAP_INT_EQ(dtype_cast(su(255), DTYPE_UINT8, DTYPE_INT8).i, -1, "uint8 255 -> int8 is -1");
    TAP_INT_EQ(dtype_cast(si(-1), DTYPE_INT8, DTYPE_UINT16).u, 65535,
               "int8 -1 -> uint16 sign-extends then wraps: 65535");
    TAP_INT_EQ(dtype_cast(su(200), DTYPE_UINT8, DTYPE_INT32).i, 200, "uint8 200 -> int32 zero-extends");
    TAP_INT_EQ(dtype_cast(su(1), DTYPE_INT1, DTYPE_INT8).i, 1, "int1 True -> int8 is 1, not -1");
    TAP_INT_EQ(dtype_cast(si(256), DTYPE_INT64, DTYPE_INT1).u, 1, "int -> int1 is != 0 (256 -> True)");
    TAP_INT_EQ(dtype_cast(si(0), DTYPE_INT32, DTYPE_INT1).u, 0, "0 -> int1 False");
    TAP_INT_EQ(dtype_cast(su(UINT64_MAX), DTYPE_UINT64, DTYPE_INT64).i, -1, "uint64 max -> int64 -1");
    TAP_INT_EQ(dtype_wrap(DTYPE_INT16, 0x18000).i, -32768, "dtype_wrap keeps 16 bits, sign-extended");
    TAP_INT_EQ(dtype_wrap(DTYPE_UINT32, UINT64_C(0x1ffffffff)).u, 0xffffffff, "dtype_wrap to uint32");

    TAP_INT_EQ(dtype_cast(sf(2.9), DTYPE_FP32, DTYPE_INT32).i, 2, "2.9 -> int32 truncates to 2");
    TAP_INT_EQ(dtype_cast(sf(-2.9), DTYPE_FP32, DTYPE_INT32).i, -2, "-2.9 -> int32 truncates to -2");
    TAP_INT_EQ(dtype_cast(sf(3e9), DTYPE_FP32, DTYPE_INT32).i, INT32_MAX, "3e9 -> int32 saturates");
    TAP_INT_EQ(dtype_cast(sf(-3e9), DTYPE_FP32, DTYPE_INT32).i, INT32_MIN, "-3e9 -> int32 saturates");
    TAP_INT_EQ(dtype_cast(sf(NAN), DTYPE_FP32, DTYPE_INT32).i, 0, "NaN -> int32 is 0 (PTX cvt.rzi)");
    TAP_INT_EQ(dtype_cast(sf(1e30), DTYPE_FP64, DTYPE_INT64).i, INT64_MAX, "1e30 -> int64 saturates");
    TAP_INT_EQ(dtype_cast(sf(-1.5), DTYPE_FP32, DTYPE_UINT32).u, 0, "-1.5 -> uint32 saturates to 0");
    TAP_INT_EQ(dtype_cast(sf(5e9), DTYPE_FP32, DTYPE_UINT32).u, UINT32_MAX, "5e9 -> uint32 saturates");
    TAP_INT_EQ(dtype_cast(sf(300.7), DTYPE_FP32, DTYPE_INT8).i, 127, "300.7 -> int8 saturates to 127");
    TAP_INT_EQ(dtype_cast(sf(NAN), DTYPE_FP32, DTYPE_INT1).u, 1, "NaN -> int1 is True (!= 0)");
    TAP_INT_EQ(dtype_cast(sf(-0.0), DTYPE_FP32, DTYPE_INT1).u, 0, "-0.0 -> int1 is False");

    TAP_DBL_EQ(dtype_cast(si((INT64_C(1) << 60) + (INT64_C(1) << 52) + 1), DTYPE_INT64,
                          DTYPE_BF16).f, ldexp(1, 60) + ldexp(1, 53),
               "int64 -> bf16 rounds once (through double it would tie down)");
    TAP_DBL_EQ(dtype_cast(si((INT64_C(1) << 53) + 1), DTYPE_INT64, DTYPE_FP32).f,
               ldexp(1, 53), "int64 2^53+1 -> fp32");
    TAP_DBL_EQ(dtype_cast(si(65520), DTYPE_INT32, DTYPE_FP16).f, INFINITY, "int 65520 -> fp16 is inf");
    TAP_DBL_EQ(dtype_cast(si(-3), DTYPE_INT32, DTYPE_FP16).f, -3.0, "int -3 -> fp16");
    TAP_DBL_EQ(dtype_cast(su(UINT64_MAX), DTYPE_UINT64, DTYPE_FP32).f, ldexp(1, 64),
               "uint64 max -> fp32 is 2^64");
    TAP_DBL_EQ(dtype_cast(su(1), DTYPE_INT1, DTYPE_FP32).f, 1.0, "True -> fp32 is 1.0 (uitofp)");
    TAP_DBL_EQ(dtype_cast(si(INT64_MIN), DTYPE_INT64, DTYPE_FP64).f, -ldexp(1, 63), "int64 min -> fp64");
    TAP_DBL_EQ(dtype_cast(sf(0.1), DTYPE_FP64, DTYPE_FP16).f, 0.0999755859375, "fp64 0.1 -> fp16");
    TAP_DBL_EQ(dtype_cast(sf(65504), DTYPE_FP16, DTYPE_BF16).f, 65536.0,
               "fp16 65504 -> bf16 rounds to 65536");
    TAP_DBL_EQ(dtype_cast(sf(1e40), DTYPE_FP64, DTYPE_FP32).f, INFINITY, "fp64 1e40 -> fp32 is inf");
    TAP_DBL_EQ(dtype_round_float(DTYPE_FP16, 1.0 / 3), 0.333251953125, "dtype_round_float to fp16");

    dtype p = dtype_ptr_to(DTYPE_FP32);
    TAP_OK(dtype_can_cast(p, DTYPE_INT64) && dtype_cast(su(4096), p, DTYPE_INT64).i == 4096,
           "pointer -> int64 gives the address");
    TAP_OK(!dtype_can_cast(p, DTYPE_INT32), "pointer -> int32 is refused, as in Triton");
    TAP_OK(!dtype_can_cast(p, DTYPE_FP32) && !dtype_can_cast(DTYPE_FP32, p),
           "pointer <-> float is refused");
    TAP_OK(dtype_can_cast(p, dtype_ptr_to(DTYPE_INT8)), "pointer -> pointer is a bitcast");
    TAP_OK(dtype_can_cast(DTYPE_FP32, DTYPE_FP8E5), "casting a float into fp8 works");
    TAP_OK(!dtype_can_cast(DTYPE_INT32, DTYPE_FP8E4NV), "int -> fp8 is refused, as in Triton");
    TAP_OK(dtype_can_cast(DTYPE_FP8E5, DTYPE_FP32), "casting from fp8 to float works");
    TAP_OK(!dtype_can_cast(DTYPE_FP8E5, DTYPE_INT32), "fp8 -> int is refused, as in Triton");

    unsigned char mem[8];
    dtype_store(DTYPE_FP16, mem, sf(1.0));
    TAP_OK(mem[0] == 0x00 && mem[1] == 0x3c, "store fp16 1.0 as 0x3c00 little-endian");
    TAP_DBL_EQ(dtype_load(DTYPE_FP16, mem).f, 1.0, "load it back");
    dtype_store(DTYPE_INT1, mem, su(1));
    TAP_INT_EQ(mem[0], 1, "int1 stores as one byte");
    mem[0] = 7;
    TAP_INT_EQ(dtype_load(DTYPE_INT1, mem).u, 1, "a nonzero byte loads as True");
    dtype_store(DTYPE_INT16, mem, si(-2));
    TAP_INT_EQ(dtype_load(DTYPE_INT16, mem).i, -2, "int16 round trip");
}

/* ---- promotion ------------------------------------------------------ */

static dtype_operand tensor(dtype t)
{
    dtype_operand o = {.type = t, .is_scalar = false, .value = {.u = 0}};
    return o;
}

static dtype_operand pyint(int64_t v)
{
    dtype_operand o = {.type = dtype_of_pyint(v), .is_scalar = true, .value = {.i = v}};
    return o;
}

static dtype_operand pyfloat(double v)
{
    dtype_operand o = {.type = dtype_of_pyfloat(v), .is_scalar = true, .value = {.f = v}};
    return o;
}

static dtype_operand pybool(bool v)
{
    dtype_operand o = {.type = DTYPE_INT1, .is_scalar = true, .value = {.u = v}};
    return o;
}

/* The result dtype of a op b, or DTYPE_INVALID when Triton raises. */
static dtype res(dtype_op op, dtype_operand a, dtype_operand b)
{
    dtype_binop_types t;
    char err[200];
    return dtype_binop(op, a, b, &t, err, sizeof err) ? t.result : DTYPE_INVALID;
}

#define PROMO(op, a, b, want, desc) \
    TAP_STR_EQ(dtype_name(res(op, a, b)), dtype_name(want), "%s", desc)

static void test_promotion(void)
{
    const dtype_op ADD = DTYPE_OP_ADD, DIV = DTYPE_OP_TRUEDIV;
    /* tensor op tensor: computation_type_impl rules 1-6 and
     * integer_promote_impl (C's usual arithmetic conversions) */
    PROMO(ADD, tensor(DTYPE_INT8), tensor(DTYPE_UINT8), DTYPE_UINT8,
          "int8 + uint8 -> uint8 (unsigned of equal rank wins)");
    PROMO(ADD, tensor(DTYPE_INT32), tensor(DTYPE_UINT32), DTYPE_UINT32, "int32 + uint32 -> uint32");
    PROMO(ADD, tensor(DTYPE_INT64), tensor(DTYPE_UINT32), DTYPE_INT64, "int64 + uint32 -> int64");
    PROMO(ADD, tensor(DTYPE_UINT32), tensor(DTYPE_INT64), DTYPE_INT64, "uint32 + int64 -> int64");
    PROMO(ADD, tensor(DTYPE_UINT64), tensor(DTYPE_INT8), DTYPE_UINT64, "uint64 + int8 -> uint64");
    PROMO(ADD, tensor(DTYPE_INT16), tensor(DTYPE_INT32), DTYPE_INT32, "int16 + int32 -> int32");
    PROMO(ADD, tensor(DTYPE_UINT8), tensor(DTYPE_UINT16), DTYPE_UINT16, "uint8 + uint16 -> uint16");
    PROMO(ADD, tensor(DTYPE_INT1), tensor(DTYPE_INT1), DTYPE_INT1, "int1 + int1 -> int1");
    PROMO(ADD, tensor(DTYPE_INT1), tensor(DTYPE_INT8), DTYPE_INT8, "int1 + int8 -> int8");
    PROMO(ADD, tensor(DTYPE_INT1), tensor(DTYPE_UINT8), DTYPE_UINT8, "int1 + uint8 -> uint8");
    PROMO(ADD, tensor(DTYPE_INT32), tensor(DTYPE_FP16), DTYPE_FP16, "int32 + fp16 -> fp16 (rule 3)");
    PROMO(ADD, tensor(DTYPE_INT64), tensor(DTYPE_FP16), DTYPE_FP16, "int64 + fp16 -> fp16");
    PROMO(ADD, tensor(DTYPE_INT32), tensor(DTYPE_BF16), DTYPE_FP32, "int32 + bf16 -> fp32 (rule 4)");
    PROMO(ADD, tensor(DTYPE_FP16), tensor(DTYPE_BF16), DTYPE_FP16,
          "fp16 + bf16 -> fp16 (rule 3 comes before the bf16 rule)");
    PROMO(ADD, tensor(DTYPE_BF16), tensor(DTYPE_BF16), DTYPE_BF16, "bf16 + bf16 -> bf16");
    PROMO(ADD, tensor(DTYPE_FP16), tensor(DTYPE_FP32), DTYPE_FP32, "fp16 + fp32 -> fp32 (rule 2)");
    PROMO(ADD, tensor(DTYPE_BF16), tensor(DTYPE_FP32), DTYPE_FP32, "bf16 + fp32 -> fp32");
    PROMO(ADD, tensor(DTYPE_FP32), tensor(DTYPE_FP64), DTYPE_FP64, "fp32 + fp64 -> fp64 (rule 1)");
    PROMO(ADD, tensor(DTYPE_INT8), tensor(DTYPE_FP64), DTYPE_FP64, "int8 + fp64 -> fp64");
    PROMO(ADD, tensor(DTYPE_UINT64), tensor(DTYPE_FP32), DTYPE_FP32, "uint64 + fp32 -> fp32");
    PROMO(ADD, tensor(DTYPE_FP8E5), tensor(DTYPE_FP8E5), DTYPE_FP8E5, "fp8e5 + fp8e5 -> fp8e5 (rule 5)");
    PROMO(ADD, tensor(DTYPE_FP8E5), tensor(DTYPE_FP8E4NV), DTYPE_FP16, "fp8e5 + fp8e4nv -> fp16");
    PROMO(ADD, tensor(DTYPE_FP8E5), tensor(DTYPE_FP16), DTYPE_FP16, "fp8e5 + fp16 -> fp16");
    PROMO(ADD, tensor(DTYPE_FP8E4NV), tensor(DTYPE_BF16), DTYPE_FP32, "fp8e4nv + bf16 -> fp32");
    PROMO(ADD, tensor(DTYPE_FP8E5), tensor(DTYPE_INT32), DTYPE_INVALID,
          "fp8e5 + int32 tensor is a TypeError");
    PROMO(DTYPE_OP_MUL, tensor(DTYPE_INT16), tensor(DTYPE_FP32), DTYPE_FP32, "int16 * fp32 -> fp32");

    /* / // %: div_or_mod */
    PROMO(DIV, tensor(DTYPE_FP16), tensor(DTYPE_FP16), DTYPE_FP32, "fp16 / fp16 -> fp32");
    PROMO(DIV, tensor(DTYPE_BF16), tensor(DTYPE_BF16), DTYPE_FP32, "bf16 / bf16 -> fp32");
    PROMO(DTYPE_OP_MOD, tensor(DTYPE_FP16), tensor(DTYPE_FP16), DTYPE_FP32, "fp16 %% fp16 -> fp32");
    PROMO(DIV, tensor(DTYPE_INT32), tensor(DTYPE_INT32), DTYPE_FP32, "int32 / int32 -> fp32 (truediv)");
    PROMO(DIV, tensor(DTYPE_INT64), tensor(DTYPE_INT64), DTYPE_FP32, "int64 / int64 -> fp32, not fp64");
    PROMO(DIV, tensor(DTYPE_FP64), tensor(DTYPE_FP16), DTYPE_FP64, "fp64 / fp16 -> fp64");
    PROMO(DIV, tensor(DTYPE_INT8), tensor(DTYPE_FP16), DTYPE_FP32, "int8 / fp16 -> fp32");
    PROMO(DIV, tensor(DTYPE_INT32), tensor(DTYPE_UINT32), DTYPE_INVALID,
          "int32 / uint32: mixed signedness is refused");
    PROMO(DTYPE_OP_FLOORDIV, tensor(DTYPE_INT32), tensor(DTYPE_UINT32), DTYPE_INVALID,
          "int32 // uint32: mixed signedness is refused");
    PROMO(DTYPE_OP_MOD, tensor(DTYPE_INT32), tensor(DTYPE_INT64), DTYPE_INT64, "int32 %% int64 -> int64");
    PROMO(DTYPE_OP_FLOORDIV, tensor(DTYPE_UINT8), tensor(DTYPE_UINT32), DTYPE_UINT32,
          "uint8 // uint32 -> uint32");
    PROMO(DTYPE_OP_FLOORDIV, tensor(DTYPE_FP32), tensor(DTYPE_FP32), DTYPE_INVALID,
          "fp32 // fp32 is refused (floordiv needs ints)");
    PROMO(DTYPE_OP_MOD, tensor(DTYPE_FP32), tensor(DTYPE_FP64), DTYPE_FP64, "fp32 %% fp64 -> fp64 (frem)");

    /* tensor op Python scalar (semantic.py rule 0 and to_tensor_type) */
    PROMO(ADD, tensor(DTYPE_INT8), pyint(5), DTYPE_INT8, "int8 tensor + 5 -> int8");
    PROMO(ADD, pyint(5), tensor(DTYPE_UINT16), DTYPE_UINT16, "5 + uint16 tensor -> uint16");
    PROMO(ADD, tensor(DTYPE_UINT8), pyint(300), DTYPE_INVALID, "uint8 tensor + 300: out of range");
    PROMO(ADD, tensor(DTYPE_UINT8), pyint(-1), DTYPE_INVALID, "uint8 tensor + -1: negative scalar");
    PROMO(ADD, tensor(DTYPE_INT32), pyint(INT64_C(1) << 40), DTYPE_INVALID,
          "int32 tensor + 2**40: out of range for int32 (Triton >= 3.2)");
    PROMO(ADD, tensor(DTYPE_INT32), pyint(INT64_C(1) << 31), DTYPE_INVALID,
          "int32 tensor + 2**31 (a uint32 scalar): out of range");
    PROMO(ADD, tensor(DTYPE_INT1), pyint(5), DTYPE_INT32, "int1 tensor + 5 -> int32 (int is a higher kind)");
    PROMO(ADD, tensor(DTYPE_INT1), pyint(INT64_C(1) << 40), DTYPE_INT64, "int1 tensor + 2**40 -> int64");
    PROMO(ADD, tensor(DTYPE_INT8), pybool(true), DTYPE_INT8, "int8 tensor + True -> int8");
    PROMO(ADD, tensor(DTYPE_FP16), pyfloat(2.0), DTYPE_FP16, "fp16 tensor + 2.0 -> fp16");
    PROMO(ADD, tensor(DTYPE_FP16), pyfloat(1e-300), DTYPE_FP16,
          "fp16 tensor + 1e-300 (an fp64 scalar) -> fp16");
    PROMO(DIV, tensor(DTYPE_FP16), pyint(2), DTYPE_FP32, "fp16 tensor / 2 -> fp32");
    PROMO(DTYPE_OP_MUL, tensor(DTYPE_BF16), pyfloat(0.5), DTYPE_BF16, "bf16 tensor * 0.5 -> bf16");
    PROMO(ADD, tensor(DTYPE_INT32), pyfloat(1.5), DTYPE_FP32, "int32 tensor + 1.5 -> fp32");
    PROMO(ADD, tensor(DTYPE_INT64), pyfloat(1.5), DTYPE_FP32, "int64 tensor + 1.5 -> fp32");
    PROMO(ADD, tensor(DTYPE_INT32), pyfloat(1e-300), DTYPE_FP64, "int32 tensor + 1e-300 -> fp64");
    PROMO(ADD, tensor(DTYPE_UINT32), pyint(3000000000), DTYPE_UINT32, "uint32 tensor + 3e9 -> uint32");
    PROMO(DTYPE_OP_FLOORDIV, tensor(DTYPE_UINT8), pyint(2), DTYPE_UINT8,
          "uint8 tensor // 2 -> uint8 (the scalar does not take part)");
    PROMO(DIV, tensor(DTYPE_INT8), pyint(1000), DTYPE_INVALID,
          "int8 tensor / 1000: 1000 out of range for int8");

    /* comparisons, bitwise, min/max */
    PROMO(DTYPE_OP_LT, tensor(DTYPE_INT8), pyint(5), DTYPE_INT1, "int8 < 5 -> int1");
    PROMO(DTYPE_OP_EQ, tensor(DTYPE_FP16), tensor(DTYPE_FP32), DTYPE_INT1, "fp16 == fp32 -> int1");
    PROMO(DTYPE_OP_AND, tensor(DTYPE_INT16), tensor(DTYPE_INT32), DTYPE_INT32, "int16 & int32 -> int32");
    PROMO(DTYPE_OP_AND, tensor(DTYPE_INT1), tensor(DTYPE_INT1), DTYPE_INT1, "int1 & int1 -> int1");
    PROMO(DTYPE_OP_OR, tensor(DTYPE_FP32), tensor(DTYPE_INT32), DTYPE_INVALID, "fp32 | int32 is refused");
    PROMO(DTYPE_OP_SHL, tensor(DTYPE_INT8), pyint(2), DTYPE_INT8, "int8 << 2 -> int8");
    PROMO(DTYPE_OP_MAXIMUM, tensor(DTYPE_FP16), tensor(DTYPE_BF16), DTYPE_FP16, "maximum(fp16, bf16) -> fp16");

    dtype_binop_types t;
    char err[200] = "";
    bool ok = dtype_binop(DTYPE_OP_LT, tensor(DTYPE_INT8), pyint(5), &t, err, sizeof err);
    TAP_OK(ok && t.lhs == DTYPE_INT8 && t.rhs == DTYPE_INT8, "int8 < 5 compares in int8");
    ok = dtype_binop(DIV, tensor(DTYPE_INT32), tensor(DTYPE_INT16), &t, err, sizeof err);
    TAP_OK(ok && t.lhs == DTYPE_FP32 && t.rhs == DTYPE_FP32, "int / int: both operands cast to fp32");

    /* pointers: check_ptr_type_impl and add/sub */
    dtype p = dtype_ptr_to(DTYPE_FP32);
    ok = dtype_binop(ADD, tensor(p), tensor(DTYPE_INT32), &t, err, sizeof err);
    TAP_OK(ok && t.result == p && t.lhs == p && t.rhs == DTYPE_INT32 && !t.swapped,
           "ptr + int32 -> ptr, offset keeps int32");
    ok = dtype_binop(ADD, pyint(4), tensor(p), &t, err, sizeof err);
    TAP_OK(ok && t.result == p && t.swapped && t.rhs == DTYPE_INT32, "4 + ptr -> ptr (swapped)");
    PROMO(DTYPE_OP_SUB, tensor(p), tensor(DTYPE_INT64), p, "ptr - int64 -> ptr");
    PROMO(ADD, tensor(p), pyfloat(1.0), DTYPE_INVALID, "ptr + 1.0 is refused");
    PROMO(ADD, tensor(p), tensor(p), DTYPE_INVALID, "ptr + ptr is refused");
    PROMO(DTYPE_OP_SUB, tensor(p), tensor(p), DTYPE_INVALID, "ptr - ptr is refused");
    PROMO(DTYPE_OP_SUB, tensor(DTYPE_INT32), tensor(p), DTYPE_INVALID, "int - ptr is refused");
    PROMO(DTYPE_OP_MUL, tensor(p), pyint(2), DTYPE_INVALID, "ptr * 2 is refused");
    PROMO(DTYPE_OP_WHERE, tensor(p), tensor(p), p, "where(c, ptr, ptr) -> ptr");
    PROMO(ADD, tensor(p), tensor(dtype_ptr_to(DTYPE_FP16)), DTYPE_INVALID,
          "pointers of different types do not mix");

    ok = dtype_binop(ADD, tensor(DTYPE_UINT8), pyint(-1), &t, err, sizeof err);
    TAP_OK(!ok && strstr(err, "negative scalar") != NULL, "the error says why: %s", err);
    ok = dtype_binop(DIV, tensor(DTYPE_INT32), tensor(DTYPE_UINT32), &t, err, sizeof err);
    TAP_OK(!ok && strstr(err, "int32 and uint32") && strstr(err, "signedness"),
           "the signedness error names the types: %s", err);
    ok = dtype_binop(ADD, tensor(DTYPE_INT32), pyint(INT64_C(1) << 40), &t, NULL, 0);
    TAP_OK(!ok, "a NULL error buffer is allowed");

    dtype r;
    TAP_OK(!dtype_unary(DTYPE_OP_NEG, p, &r, err, sizeof err), "-ptr is refused");
    TAP_OK(dtype_unary(DTYPE_OP_NEG, DTYPE_UINT8, &r, err, sizeof err) && r == DTYPE_UINT8,
           "-uint8 stays uint8");
    TAP_OK(!dtype_unary(DTYPE_OP_INVERT, DTYPE_FP32, &r, err, sizeof err), "~fp32 is refused");
    TAP_OK(dtype_unary(DTYPE_OP_INVERT, DTYPE_INT16, &r, err, sizeof err) && r == DTYPE_INT16,
           "~int16 stays int16");
    TAP_OK(!dtype_unary(DTYPE_OP_NOT, DTYPE_INT32, &r, err, sizeof err), "not int32 is refused");
    TAP_OK(dtype_unary(DTYPE_OP_NOT, DTYPE_INT1, &r, err, sizeof err) && r == DTYPE_INT1,
           "not int1 -> int1");

    /* to_tensor_type */
    TAP_INT_EQ(dtype_of_pyint(5), DTYPE_INT32, "5 is int32");
    TAP_INT_EQ(dtype_of_pyint(-(INT64_C(1) << 31)), DTYPE_INT32, "-2**31 is int32");
    TAP_INT_EQ(dtype_of_pyint(INT64_C(1) << 31), DTYPE_UINT32, "2**31 is uint32");
    TAP_INT_EQ(dtype_of_pyint(-(INT64_C(1) << 31) - 1), DTYPE_INT64, "-2**31-1 is int64");
    TAP_INT_EQ(dtype_of_pyint(INT64_C(1) << 32), DTYPE_INT64, "2**32 is int64");
    TAP_INT_EQ(dtype_of_pyuint(UINT64_C(1) << 63), DTYPE_UINT64, "2**63 is uint64");
    TAP_INT_EQ(dtype_of_pyuint(7), DTYPE_INT32, "a small unsigned value is int32");
    TAP_INT_EQ(dtype_of_pyfloat(1.5), DTYPE_FP32, "1.5 is fp32");
    TAP_INT_EQ(dtype_of_pyfloat(0.0), DTYPE_FP32, "0.0 is fp32");
    TAP_INT_EQ(dtype_of_pyfloat(INFINITY), DTYPE_FP32, "inf is fp32");
    TAP_INT_EQ(dtype_of_pyfloat(ldexp(1, -126)), DTYPE_FP32, "2**-126 is fp32");
    TAP_INT_EQ(dtype_of_pyfloat(ldexp(1, -127)), DTYPE_FP64, "2**-127 is fp64");
    TAP_INT_EQ(dtype_of_pyfloat(1e39), DTYPE_FP64, "1e39 is fp64");
}

/* ---- division ------------------------------------------------------- */

static void test_division(void)
{
    TAP_INT_EQ(dtype_floordiv_i64(-7, 2), -3, "tensor -7 // 2 == -3 (C truncation)");
    TAP_INT_EQ(dtype_floordiv_i64(7, -2), -3, "tensor 7 // -2 == -3");
    TAP_INT_EQ(dtype_mod_i64(-7, 2), -1, "tensor -7 %% 2 == -1 (sign of dividend)");
    TAP_INT_EQ(dtype_mod_i64(7, -2), 1, "tensor 7 %% -2 == 1");
    TAP_INT_EQ(dtype_floordiv_i64(INT64_MIN, -1), INT64_MIN, "INT64_MIN // -1 wraps");
    TAP_INT_EQ(dtype_mod_i64(INT64_MIN, -1), 0, "INT64_MIN %% -1 == 0");
    TAP_INT_EQ(dtype_floordiv_i64(5, 0), 0, "division by zero gives 0, no trap");
    TAP_INT_EQ(dtype_mod_u64(7, 0), 0, "unsigned modulo by zero gives 0");
    TAP_INT_EQ(dtype_floordiv_u64(UINT64_MAX, 2), INT64_MAX, "unsigned division");
    TAP_INT_EQ(dtype_pyfloordiv_i64(-7, 2), -4, "Python -7 // 2 == -4");
    TAP_INT_EQ(dtype_pymod_i64(-7, 2), 1, "Python -7 %% 2 == 1");
    TAP_INT_EQ(dtype_pymod_i64(7, -2), -1, "Python 7 %% -2 == -1");
    TAP_INT_EQ(dtype_pyfloordiv_i64(6, 3), 2, "Python 6 // 3 == 2");
    TAP_DBL_EQ(dtype_mod_f64(-7.5, 2), -1.5, "tensor -7.5 %% 2 == -1.5 (frem)");
    TAP_DBL_EQ(dtype_pymod_f64(-7.5, 2), 0.5, "Python -7.5 %% 2 == 0.5");
    TAP_DBL_EQ(dtype_pymod_f64(7.5, -2), -0.5, "Python 7.5 %% -2 == -0.5");
    TAP_DBL_EQ(dtype_pymod_f64(4.0, -2), -0.0, "Python 4.0 %% -2 == -0.0");
    TAP_DBL_EQ(dtype_pyfloordiv_f64(-7.5, 2), -4.0, "Python -7.5 // 2 == -4.0");
    TAP_DBL_EQ(dtype_pyfloordiv_f64(1.0, 0.1), 9.0, "Python 1 // 0.1 == 9.0");
    TAP_DBL_EQ(dtype_pymod_f64(1.0, 0.1), 0.09999999999999995, "Python 1 %% 0.1");
    TAP_DBL_EQ(dtype_pyfloordiv_f64(-0.5, 2), -1.0, "Python -0.5 // 2 == -1.0");
    TAP_DBL_EQ(dtype_pyfloordiv_f64(0.5, -2), -1.0, "Python 0.5 // -2 == -1.0");
    TAP_DBL_EQ(dtype_pyfloordiv_f64(0.0, -2), -0.0, "Python 0.0 // -2 == -0.0");
}

int main(void)
{
    test_names();
    test_properties();
    test_fp16();
    test_bf16();
    test_fp8_decode();
    test_fp8_encode();
    test_fp8_torch();
    test_fp8_store();
    test_casts();
    test_promotion();
    test_division();
    return tap_done();
}
