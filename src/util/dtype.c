/* dtype.c - Triton's scalar types (dtype.h): names, properties, the
 * float formats and their correctly rounded conversions, casts, and the
 * promotion rules of semantic.py. */
#include "dtype.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* ---- names ---------------------------------------------------------- */

static const char *const triton_names[DTYPE__NSCALAR] = {
    [DTYPE_INVALID] = "invalid",
#define DTYPE_TNAME(name, tname, tl, torch) [DTYPE_##name] = tname,
    DTYPE_SCALARS(DTYPE_TNAME)
#undef DTYPE_TNAME
};

static const char *const ptr_names[DTYPE__NSCALAR] = {
    [DTYPE_INVALID] = "invalid",
#define DTYPE_PNAME(name, tname, tl, torch) [DTYPE_##name] = "pointer<" tname ">",
    DTYPE_SCALARS(DTYPE_PNAME)
#undef DTYPE_PNAME
};

static const char *const tl_names[DTYPE__NSCALAR] = {
#define DTYPE_TLNAME(name, tname, tl, torch) [DTYPE_##name] = tl,
    DTYPE_SCALARS(DTYPE_TLNAME)
#undef DTYPE_TLNAME
};

static const char *const torch_names[DTYPE__NSCALAR] = {
#define DTYPE_TORCHNAME(name, tname, tl, torch) [DTYPE_##name] = torch,
    DTYPE_SCALARS(DTYPE_TORCHNAME)
#undef DTYPE_TORCHNAME
};

/* torch's attribute aliases, on top of the canonical names above. */
static const struct { const char *attr; dtype t; } torch_aliases[] = {
    {"float", DTYPE_FP32}, {"double", DTYPE_FP64}, {"half", DTYPE_FP16},
    {"int", DTYPE_INT32}, {"long", DTYPE_INT64}, {"short", DTYPE_INT16},
};

bool dtype_valid(dtype t)
{
    dtype e = dtype_elem(t);
    /* scalar codes sit below the DTYPE_PTR bit; nothing above it */
    return ((unsigned)t & ~(unsigned)(DTYPE_PTR | (DTYPE_PTR - 1))) == 0 &&
           e > DTYPE_INVALID && e < DTYPE__NSCALAR;
}

const char *dtype_name(dtype t)
{
    if (!dtype_valid(t))
        return "invalid";
    return dtype_is_ptr(t) ? ptr_names[dtype_elem(t)] : triton_names[t];
}

const char *dtype_tl_name(dtype t)
{
    return dtype_valid(t) && !dtype_is_ptr(t) ? tl_names[t] : NULL;
}

const char *dtype_torch_name(dtype t)
{
    return dtype_valid(t) && !dtype_is_ptr(t) ? torch_names[t] : NULL;
}

static dtype find_name(const char *const *table, const char *s, size_t len)
{
    for (int t = DTYPE_INVALID + 1; t < DTYPE__NSCALAR; t++)
        if (strlen(table[t]) == len && memcmp(table[t], s, len) == 0)
            return (dtype)t;
    return DTYPE_INVALID;
}

dtype dtype_from_name(const char *s)
{
    static const char prefix[] = "pointer<";
    size_t n = strlen(s), p = sizeof prefix - 1;
    if (n > p + 1 && memcmp(s, prefix, p) == 0 && s[n - 1] == '>') {
        dtype e = find_name(triton_names, s + p, n - p - 1);
        return e == DTYPE_INVALID ? DTYPE_INVALID : dtype_ptr_to(e);
    }
    return find_name(triton_names, s, n);
}

dtype dtype_from_tl_attr(const char *attr)
{
    return find_name(tl_names, attr, strlen(attr));
}

dtype dtype_from_torch_attr(const char *attr)
{
    for (size_t i = 0; i < sizeof torch_aliases / sizeof torch_aliases[0]; i++)
        if (strcmp(attr, torch_aliases[i].attr) == 0)
            return torch_aliases[i].t;
    for (int t = DTYPE_INVALID + 1; t < DTYPE__NSCALAR; t++)
        if (strcmp(torch_names[t] + 6, attr) == 0)    /* skip "torch." */
            return (dtype)t;
    return DTYPE_INVALID;
}

/* ---- properties ----------------------------------------------------- */

int dtype_bits(dtype t)
{
    if (!dtype_valid(t))
        return 0;
    if (dtype_is_ptr(t))
        return 64;
    switch (t) {
    case DTYPE_INT1: return 1;
    case DTYPE_INT8: case DTYPE_UINT8:
    case DTYPE_FP8E4NV: case DTYPE_FP8E5: return 8;
    case DTYPE_INT16: case DTYPE_UINT16:
    case DTYPE_FP16: case DTYPE_BF16: return 16;
    case DTYPE_INT32: case DTYPE_UINT32: case DTYPE_FP32: return 32;
    default: return 64;
    }
}

int dtype_size(dtype t)
{
    int bits = dtype_bits(t);
    return bits == 1 ? 1 : bits / 8;
}

bool dtype_is_float(dtype t)
{
    return t >= DTYPE_FP8E4NV && t <= DTYPE_FP64;
}

bool dtype_is_fp8(dtype t)
{
    return t == DTYPE_FP8E4NV || t == DTYPE_FP8E5;
}

bool dtype_is_int(dtype t)
{
    return t >= DTYPE_INT1 && t <= DTYPE_UINT64;
}

bool dtype_is_bool(dtype t)
{
    return t == DTYPE_INT1;
}

bool dtype_is_signed(dtype t)
{
    return t >= DTYPE_INT8 && t <= DTYPE_INT64;
}

bool dtype_is_unsigned(dtype t)
{
    return t == DTYPE_INT1 || (t >= DTYPE_UINT8 && t <= DTYPE_UINT64);
}

dtype_kind dtype_kind_of(dtype t)
{
    if (t == DTYPE_INT1)
        return DTYPE_KIND_BOOL;
    return dtype_is_int(t) ? DTYPE_KIND_INTEGRAL : DTYPE_KIND_FLOATING;
}

int dtype_mantissa_bits(dtype t)
{
    switch (t) {
    case DTYPE_FP8E4NV: return 3;
    case DTYPE_FP8E5: return 2;
    case DTYPE_FP16: return 10;
    case DTYPE_BF16: return 7;
    case DTYPE_FP32: return 23;
    case DTYPE_FP64: return 52;
    default: return 0;
    }
}

int64_t dtype_int_min(dtype t)
{
    if (!dtype_is_signed(t))
        return 0;
    int bits = dtype_bits(t);
    return bits == 64 ? INT64_MIN : -((int64_t)1 << (bits - 1));
}

uint64_t dtype_int_max(dtype t)
{
    if (!dtype_is_int(t))
        return 0;
    int bits = dtype_bits(t);
    if (dtype_is_signed(t))
        return ((uint64_t)1 << (bits - 1)) - 1;
    return bits == 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
}

/* ---- float formats -------------------------------------------------- */

/* A binary floating-point format narrower than double. */
typedef struct fmt {
    int frac_bits, exp_bits;
} fmt;

static const fmt FMT_F16 = {10, 5};
static const fmt FMT_BF16 = {7, 8};

static uint64_t double_bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}

static int msb64(uint64_t x)    /* x != 0 */
{
    int n = 0;
    while (x >>= 1)
        n++;
    return n;
}

/* The magnitude sig * 2^e2 (sig != 0) rounded to format f, to nearest with
 * ties to even, as the bits it has below the sign: the biased exponent
 * shifted over the fraction, or the fraction alone for a subnormal.  The
 * exponent field is not capped: a value past the format's range gives a
 * code past its largest finite one (codes grow with the values), and each
 * caller decides what overflow means.  Working from the exact integer
 * significand is what makes every conversion a single rounding. */
static uint32_t round_code(uint64_t sig, int e2, const fmt *f)
{
    int bias = (1 << (f->exp_bits - 1)) - 1;
    int emin = 1 - bias;
    int e = msb64(sig) + e2;              /* floor(log2 |value|) */
    if (e < emin)
        e = emin;                         /* subnormal: fixed quantum */
    int shift = (e - f->frac_bits) - e2;  /* low bits of sig to drop */
    uint64_t q;
    if (shift <= 0) {
        q = sig << -shift;                /* exact */
    } else {
        bool up;
        if (shift > 64) {
            q = 0;
            up = false;                   /* below a quarter quantum */
        } else if (shift == 64) {
            q = 0;
            up = sig > ((uint64_t)1 << 63);
        } else {
            uint64_t rem = sig & (((uint64_t)1 << shift) - 1);
            uint64_t half = (uint64_t)1 << (shift - 1);
            q = sig >> shift;
            up = rem > half || (rem == half && (q & 1));
        }
        q += up;
    }
    if (q >> (f->frac_bits + 1)) {        /* rounding carried: 1.111 -> 10.0 */
        q >>= 1;
        e++;
    }
    if ((q >> f->frac_bits) == 0)         /* subnormal or zero */
        return (uint32_t)q;
    uint32_t frac = (uint32_t)q & ((1u << f->frac_bits) - 1);
    return ((uint32_t)(e + bias) << f->frac_bits) | frac;
}

/* A finite, nonzero double as sig * 2^e2. */
static void double_parts(double d, uint64_t *sig, int *e2)
{
    uint64_t u = double_bits(d);
    int ef = (int)((u >> 52) & 0x7ff);
    uint64_t frac = u & ((UINT64_C(1) << 52) - 1);
    *sig = ef ? frac | (UINT64_C(1) << 52) : frac;
    *e2 = ef ? ef - 1075 : -1074;
}

/* The code of |d| in format f (round_code); 0 for a zero, and a code past
 * every finite one for an infinity.  d is not NaN. */
static uint32_t magnitude_code(double d, const fmt *f)
{
    if (d == 0)
        return 0;
    if (isinf(d))
        return UINT32_MAX;
    uint64_t sig;
    int e2;
    double_parts(d, &sig, &e2);
    return round_code(sig, e2, f);
}

/* The bits of a value of IEEE format f (fp16, bf16) with sign neg and
 * magnitude code (round_code): too large is infinity. */
static uint32_t ieee_bits(bool neg, uint32_t code, const fmt *f)
{
    uint32_t sign = (uint32_t)neg << (f->frac_bits + f->exp_bits);
    uint32_t inf = ((1u << f->exp_bits) - 1) << f->frac_bits;
    return sign | (code < inf ? code : inf);
}

/* d in IEEE format f; NaN stays NaN with the quiet bit set and the
 * payload's top bits. */
static uint32_t double_to_fmt(double d, const fmt *f)
{
    if (isnan(d)) {
        uint64_t frac = double_bits(d) & ((UINT64_C(1) << 52) - 1);
        uint32_t quiet = 1u << (f->frac_bits - 1);
        uint32_t top = (uint32_t)(frac >> (52 - f->frac_bits));
        return ieee_bits(signbit(d), UINT32_MAX, f) | quiet | top;
    }
    return ieee_bits(signbit(d), magnitude_code(d, f), f);
}

/* The common case fast: a double whose exponent is in the format's normal
 * range rounds by its fraction bits alone (round to nearest, ties to
 * even); a carry out of the fraction steps the exponent, up to infinity.
 * The rest (subnormal results, zeros, infinities, NaN) take the general
 * path.  The same bits as double_to_fmt, faster (tensor conversions). */
static inline bool fast_to_fmt(double d, int frac_bits, int exp_bits, uint16_t *out)
{
    uint64_t u = double_bits(d);
    int e = (int)((u >> 52) & 0x7ff) - 1023;
    int bias = (1 << (exp_bits - 1)) - 1;
    if (e < 1 - bias || e > bias)
        return false;
    int shift = 52 - frac_bits;
    uint64_t frac = u & ((UINT64_C(1) << 52) - 1);
    uint64_t q = frac >> shift, rem = frac & ((UINT64_C(1) << shift) - 1);
    uint64_t half = UINT64_C(1) << (shift - 1);
    q += rem > half || (rem == half && (q & 1));
    uint32_t bits = ((uint32_t)(e + bias) << frac_bits) + (uint32_t)q;
    *out = (uint16_t)(((uint32_t)(u >> 63) << (frac_bits + exp_bits)) | bits);
    return true;
}

uint16_t dtype_f64_to_f16(double d)
{
    uint16_t r;
    return fast_to_fmt(d, 10, 5, &r) ? r : (uint16_t)double_to_fmt(d, &FMT_F16);
}

uint16_t dtype_f64_to_bf16(double d)
{
    uint16_t r;
    return fast_to_fmt(d, 7, 8, &r) ? r : (uint16_t)double_to_fmt(d, &FMT_BF16);
}
/* float -> double is exact, so these round once too. */
uint16_t dtype_f32_to_f16(float f) { return dtype_f64_to_f16(f); }
uint16_t dtype_f32_to_bf16(float f) { return dtype_f64_to_bf16(f); }

float dtype_f16_to_f32(uint16_t h)
{
    uint32_t sign = (uint32_t)(h >> 15) << 31;
    uint32_t e = (h >> 10) & 0x1f, m = h & 0x3ff;
    uint32_t bits;
    if (e == 0x1f) {
        bits = sign | 0x7f800000u | (m << 13);            /* inf, NaN */
    } else if (e == 0) {
        float v = ldexpf((float)m, -24);                  /* exact */
        return sign ? -v : v;
    } else {
        bits = sign | ((e - 15 + 127) << 23) | (m << 13);
    }
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

float dtype_bf16_to_f32(uint16_t b)
{
    uint32_t bits = (uint32_t)b << 16;
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

/* A NaN read from an fp8 byte: a quiet NaN carrying the byte's fraction
 * bits in the lowest bits of a float's payload, which survive conversions
 * between float and double, so that storing it writes the same byte
 * (fp8_store_bits). */
static double fp8_nan(uint32_t frac)
{
    uint32_t bits = 0x7fc00000u | frac;
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

double dtype_fp8e4nv_to_f64(uint8_t b)
{
    int e = (b >> 3) & 0xf, m = b & 7;
    double v;
    if (e == 0xf && m == 7)
        v = fp8_nan(7);
    else if (e == 0)
        v = ldexp(m, -9);
    else
        v = ldexp(8 + m, e - 10);
    return (b & 0x80) ? -v : v;
}

double dtype_fp8e5_to_f64(uint8_t b)
{
    int e = (b >> 2) & 0x1f, m = b & 3;
    double v;
    if (e == 0x1f)
        v = m ? fp8_nan((uint32_t)m) : INFINITY;
    else if (e == 0)
        v = ldexp(m, -16);
    else
        v = ldexp(4 + m, e - 17);
    return (b & 0x80) ? -v : v;
}

/* The fp8 formats: e4m3fn has no infinities and one NaN (S.1111.111),
 * so its top exponent holds finite values up to 448 (0x7e); e5m2 is
 * IEEE-like (infinity 0x7c, largest finite 57344 at 0x7b). */
static const fmt FMT_E4M3 = {3, 4};
static const fmt FMT_E5M2 = {2, 5};

/* d in fp8 format f, to nearest with ties to even: a magnitude past the
 * largest finite code max (an infinity too) becomes the code over; NaN
 * becomes nan_code, positive whatever d's sign, as the H100's conversions
 * give it (PyTorch's CUDA tensors and Triton's casts alike). */
static uint8_t fp8_bits(double d, const fmt *f, uint32_t max, uint8_t over, uint8_t nan_code)
{
    uint8_t sign = signbit(d) ? 0x80 : 0;
    if (isnan(d))
        return nan_code;
    uint32_t code = magnitude_code(d, f);
    return sign | (uint8_t)(code <= max ? code : over);
}

/* Saturating, as Triton's casts. */
uint8_t dtype_f64_to_fp8e4nv(double x) { return fp8_bits(x, &FMT_E4M3, 0x7e, 0x7e, 0x7f); }
uint8_t dtype_f64_to_fp8e5(double x) { return fp8_bits(x, &FMT_E5M2, 0x7b, 0x7b, 0x7f); }

/* Overflowing as IEEE formats do (e4m3fn, which has no infinity, to NaN),
 * as PyTorch does. */
uint8_t dtype_f32_to_fp8e4nv_torch(float x) { return fp8_bits(x, &FMT_E4M3, 0x7e, 0x7f, 0x7f); }
uint8_t dtype_f32_to_fp8e5_torch(float x) { return fp8_bits(x, &FMT_E5M2, 0x7b, 0x7c, 0x7f); }

/* What dtype_store writes: every fp8 value as it is, an e5m2 infinity and
 * each of its NaNs (S.11111.{01,10,11}, told apart by fp8_nan's payload)
 * too; any other NaN is the all-ones one. */
static uint8_t fp8_store_bits(double d, const fmt *f, uint32_t max, uint8_t over)
{
    uint32_t ones = (1u << f->frac_bits) - 1;
    if (isnan(d)) {
        uint32_t frac = (uint32_t)(double_bits(d) >> 29) & ones;
        uint32_t exp_all = ((1u << f->exp_bits) - 1) << f->frac_bits;
        return (uint8_t)((signbit(d) ? 0x80 : 0) | exp_all | (frac ? frac : ones));
    }
    return fp8_bits(d, f, max, over, 0);
}

double dtype_round_float(dtype t, double x)
{
    switch (t) {
    case DTYPE_FP16: return dtype_f16_to_f32(dtype_f64_to_f16(x));
    case DTYPE_BF16: return dtype_bf16_to_f32(dtype_f64_to_bf16(x));
    case DTYPE_FP32: return (float)x;
    /* A cast gives the GPU's one NaN, whatever the sign of the input's. */
    case DTYPE_FP8E4NV: return isnan(x) ? NAN : dtype_fp8e4nv_to_f64(dtype_f64_to_fp8e4nv(x));
    case DTYPE_FP8E5: return isnan(x) ? NAN : dtype_fp8e5_to_f64(dtype_f64_to_fp8e5(x));
    default: return x;
    }
}

double dtype_round_float_rtz(dtype t, double x)
{
    double r = dtype_round_float(t, x);
    if (isnan(r) || !(fabs(r) > fabs(x)))
        return r;
    /* Rounded away from zero: take the neighbour of r toward zero. */
    switch (t) {
    case DTYPE_FP16: {
        uint16_t h = dtype_f64_to_f16(r);
        return dtype_f16_to_f32((uint16_t)(h - 1));
    }
    case DTYPE_BF16: {
        uint16_t b = dtype_f64_to_bf16(r);
        return dtype_bf16_to_f32((uint16_t)(b - 1));
    }
    case DTYPE_FP32: return nextafterf((float)r, 0.0f);
    case DTYPE_FP8E4NV: return dtype_fp8e4nv_to_f64((uint8_t)(dtype_f64_to_fp8e4nv(r) - 1));
    case DTYPE_FP8E5: return dtype_fp8e5_to_f64((uint8_t)(dtype_f64_to_fp8e5(r) - 1));
    default: return r;
    }
}

/* ---- scalar values -------------------------------------------------- */

dtype_scalar dtype_wrap(dtype t, uint64_t bits)
{
    dtype_scalar v;
    int n = dtype_bits(t);
    if (dtype_is_ptr(t) || !dtype_is_int(t) || n == 0) {
        v.u = bits;
        return v;
    }
    uint64_t mask = n == 64 ? UINT64_MAX : ((uint64_t)1 << n) - 1;
    bits &= mask;
    if (!dtype_is_signed(t)) {
        v.u = bits;
    } else if (bits >> (n - 1)) {
        /* negative: -(two's complement magnitude), without overflow */
        v.i = -(int64_t)(~bits & mask) - 1;
    } else {
        v.i = (int64_t)bits;
    }
    return v;
}

dtype_scalar dtype_load(dtype t, const void *p)
{
    dtype_scalar v = {.u = 0};
    if (dtype_is_ptr(t)) {
        memcpy(&v.u, p, 8);
        return v;
    }
    switch (t) {
    case DTYPE_INT1: { uint8_t b; memcpy(&b, p, 1); v.u = b != 0; break; }
    case DTYPE_INT8: { int8_t x; memcpy(&x, p, 1); v.i = x; break; }
    case DTYPE_INT16: { int16_t x; memcpy(&x, p, 2); v.i = x; break; }
    case DTYPE_INT32: { int32_t x; memcpy(&x, p, 4); v.i = x; break; }
    case DTYPE_INT64: memcpy(&v.i, p, 8); break;
    case DTYPE_UINT8: { uint8_t x; memcpy(&x, p, 1); v.u = x; break; }
    case DTYPE_UINT16: { uint16_t x; memcpy(&x, p, 2); v.u = x; break; }
    case DTYPE_UINT32: { uint32_t x; memcpy(&x, p, 4); v.u = x; break; }
    case DTYPE_UINT64: memcpy(&v.u, p, 8); break;
    case DTYPE_FP8E4NV: v.f = dtype_fp8e4nv_to_f64(*(const uint8_t *)p); break;
    case DTYPE_FP8E5: v.f = dtype_fp8e5_to_f64(*(const uint8_t *)p); break;
    case DTYPE_FP16: { uint16_t h; memcpy(&h, p, 2); v.f = dtype_f16_to_f32(h); break; }
    case DTYPE_BF16: { uint16_t h; memcpy(&h, p, 2); v.f = dtype_bf16_to_f32(h); break; }
    case DTYPE_FP32: { float f; memcpy(&f, p, 4); v.f = f; break; }
    case DTYPE_FP64: memcpy(&v.f, p, 8); break;
    default: break;
    }
    return v;
}

void dtype_store(dtype t, void *p, dtype_scalar v)
{
    if (dtype_is_ptr(t)) {
        memcpy(p, &v.u, 8);
        return;
    }
    switch (t) {
    case DTYPE_INT1: { uint8_t b = v.u != 0; memcpy(p, &b, 1); break; }
    case DTYPE_INT8: case DTYPE_UINT8: { uint8_t x = (uint8_t)v.u; memcpy(p, &x, 1); break; }
    case DTYPE_INT16: case DTYPE_UINT16: { uint16_t x = (uint16_t)v.u; memcpy(p, &x, 2); break; }
    case DTYPE_INT32: case DTYPE_UINT32: { uint32_t x = (uint32_t)v.u; memcpy(p, &x, 4); break; }
    case DTYPE_INT64: case DTYPE_UINT64: memcpy(p, &v.u, 8); break;
    case DTYPE_FP16: { uint16_t h = dtype_f64_to_f16(v.f); memcpy(p, &h, 2); break; }
    case DTYPE_BF16: { uint16_t h = dtype_f64_to_bf16(v.f); memcpy(p, &h, 2); break; }
    case DTYPE_FP32: { float f = (float)v.f; memcpy(p, &f, 4); break; }
    case DTYPE_FP64: memcpy(p, &v.f, 8); break;
    case DTYPE_FP8E4NV: {
        uint8_t b = fp8_store_bits(v.f, &FMT_E4M3, 0x7e, 0x7f);
        memcpy(p, &b, 1);
        break;
    }
    case DTYPE_FP8E5: {
        uint8_t b = fp8_store_bits(v.f, &FMT_E5M2, 0x7b, 0x7c);
        memcpy(p, &b, 1);
        break;
    }
    default: break;
    }
}

/* The 64-bit two's complement pattern of a canonical integer or pointer. */
static uint64_t int_pattern(dtype t, dtype_scalar v)
{
    return dtype_is_signed(t) ? (uint64_t)v.i : v.u;
}

bool dtype_can_cast(dtype from, dtype to)
{
    if (!dtype_valid(from) || !dtype_valid(to))
        return false;
    if (from == to)
        return true;
    if (dtype_is_ptr(from) && dtype_is_ptr(to))
        return true;
    if (dtype_is_ptr(from))
        return to == DTYPE_INT64 || to == DTYPE_UINT64 || to == DTYPE_INT1;
    if (dtype_is_ptr(to))
        return dtype_is_int(from);
    if (dtype_is_fp8(to) || dtype_is_fp8(from))
        return dtype_is_float(from) && dtype_is_float(to);  /* Triton: no fp8 <-> ints */
    return true;
}

/* Truncate toward zero and saturate to the integer type (PTX cvt.rzi). */
static dtype_scalar float_to_int(double x, dtype to)
{
    dtype_scalar v = {.u = 0};
    if (to == DTYPE_INT1) {
        v.u = x != 0;                 /* NaN != 0: true, as fcmp UNE */
        return v;
    }
    if (isnan(x))
        return v;
    double t = trunc(x);
    int n = dtype_bits(to);
    if (dtype_is_signed(to)) {
        double lim = ldexp(1.0, n - 1);
        if (t >= lim)
            v.i = (int64_t)dtype_int_max(to);
        else if (t <= -lim)
            v.i = dtype_int_min(to);
        else
            v.i = (int64_t)t;
    } else {
        double lim = ldexp(1.0, n);
        if (t >= lim)
            v.u = dtype_int_max(to);
        else if (t <= 0)
            v.u = 0;
        else
            v.u = (uint64_t)t;
    }
    return v;
}

/* An integer magnitude (!= 0) in IEEE format f, with sign neg. */
static uint16_t int_to_fmt(bool neg, uint64_t mag, const fmt *f)
{
    return (uint16_t)ieee_bits(neg, round_code(mag, 0, f), f);
}

/* An integer (given as sign and magnitude) to a float type. */
static double int_to_float(bool neg, uint64_t mag, dtype to)
{
    double r;
    switch (to) {
    case DTYPE_FP16:
        return mag == 0 ? 0.0 : dtype_f16_to_f32(int_to_fmt(neg, mag, &FMT_F16));
    case DTYPE_BF16:
        return mag == 0 ? 0.0 : dtype_bf16_to_f32(int_to_fmt(neg, mag, &FMT_BF16));
    case DTYPE_FP32:
        r = (float)mag;               /* C's conversions round correctly */
        break;
    default:
        r = (double)mag;
        break;
    }
    return neg ? -r : r;
}

dtype_scalar dtype_cast(dtype_scalar v, dtype from, dtype to)
{
    dtype_scalar r = {.u = 0};
    if (!dtype_can_cast(from, to))
        return r;
    if (from == to)
        return v;
    bool from_int = dtype_is_int(from) || dtype_is_ptr(from);
    if (from_int && to == DTYPE_INT1) {
        r.u = v.u != 0;
    } else if (from_int && (dtype_is_int(to) || dtype_is_ptr(to))) {
        r = dtype_wrap(to, int_pattern(from, v));
    } else if (from_int) {
        bool neg = dtype_is_signed(from) && v.i < 0;
        uint64_t mag = neg ? 0 - (uint64_t)v.i : v.u;
        r.f = int_to_float(neg, mag, to);
    } else if (dtype_is_int(to)) {
        r = float_to_int(v.f, to);
    } else {
        r.f = dtype_round_float(to, v.f);
    }
    return r;
}

/* ---- type promotion ------------------------------------------------- */

static void set_err(char *err, size_t errlen, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

static void set_err(char *err, size_t errlen, const char *format, ...)
{
    if (!err || errlen == 0)
        return;
    va_list ap;
    va_start(ap, format);
    vsnprintf(err, errlen, format, ap);
    va_end(ap);
}

dtype dtype_of_pyint(int64_t v)
{
    if (v >= INT32_MIN && v <= INT32_MAX)
        return DTYPE_INT32;
    if (v > 0 && v <= (int64_t)UINT32_MAX)
        return DTYPE_UINT32;
    return DTYPE_INT64;
}

dtype dtype_of_pyuint(uint64_t v)
{
    return v <= INT64_MAX ? dtype_of_pyint((int64_t)v) : DTYPE_UINT64;
}

dtype dtype_of_pyfloat(double v)
{
    double a = fabs(v);
    if (isinf(a) || a == 0.0 || isnan(v) || (a >= 0x1p-126 && a <= FLT_MAX))
        return DTYPE_FP32;
    return DTYPE_FP64;
}

dtype dtype_integer_promote(dtype a, dtype b)
{
    int ar = dtype_bits(a), br = dtype_bits(b);
    bool au = dtype_is_unsigned(a), bu = dtype_is_unsigned(b);
    if (au == bu)
        return ar > br ? a : b;
    if (au)
        return ar >= br ? a : b;
    return br >= ar ? b : a;
}

dtype dtype_computation_type(dtype a, bool a_scalar, dtype b, bool b_scalar,
                             bool div_or_mod, char *err, size_t errlen)
{
    /* 0) a Python number of a kind <= the tensor's does not take part */
    if (a_scalar != b_scalar) {
        dtype s = a_scalar ? a : b, t = a_scalar ? b : a;
        if (dtype_kind_of(s) <= dtype_kind_of(t)) {
            if (div_or_mod && (t == DTYPE_FP16 || t == DTYPE_BF16))
                return DTYPE_FP32;
            return t;
        }
    }
    /* 1) fp64, 2) fp32 */
    if (a == DTYPE_FP64 || b == DTYPE_FP64)
        return DTYPE_FP64;
    if (a == DTYPE_FP32 || b == DTYPE_FP32)
        return DTYPE_FP32;
    /* 3) fp16 wins over everything narrower, but / and % need fp32 */
    if (a == DTYPE_FP16 || b == DTYPE_FP16)
        return div_or_mod ? DTYPE_FP32 : DTYPE_FP16;
    /* 4) bf16 only with bf16; with an int or an fp8, fp32 */
    if (a == DTYPE_BF16 && b == DTYPE_BF16)
        return div_or_mod ? DTYPE_FP32 : DTYPE_BF16;
    if (a == DTYPE_BF16 || b == DTYPE_BF16)
        return DTYPE_FP32;
    /* 5) two fp8: the same one, or fp16 when they differ */
    if (dtype_is_fp8(a) && dtype_is_fp8(b))
        return a == b ? a : DTYPE_FP16;
    if (!dtype_is_int(a) || !dtype_is_int(b)) {
        set_err(err, errlen, "invalid operands of type %s and %s; cast one "
                "of them with .to(), e.g. x.to(tl.float16)",
                dtype_name(a), dtype_name(b));
        return DTYPE_INVALID;
    }
    /* 6) integers */
    if (div_or_mod && dtype_is_unsigned(a) != dtype_is_unsigned(b)) {
        set_err(err, errlen, "cannot use /, // or %% with %s and %s because "
                "they have different signedness; cast them to the same "
                "signedness", dtype_name(a), dtype_name(b));
        return DTYPE_INVALID;
    }
    return dtype_integer_promote(a, b);
}

static bool op_is_compare(dtype_op op)
{
    return op >= DTYPE_OP_LT && op <= DTYPE_OP_NE;
}

static bool op_is_bitwise(dtype_op op)
{
    return op >= DTYPE_OP_AND && op <= DTYPE_OP_SHR;
}

static const char *op_symbol(dtype_op op)
{
    static const char *const sym[] = {
        "+", "-", "*", "/", "//", "%", "&", "|", "^", "<<", ">>",
        "<", "<=", ">", ">=", "==", "!=", "tl.minimum", "tl.maximum",
        "tl.where", "-", "+", "~", "not",
    };
    return (unsigned)op < sizeof sym / sizeof sym[0] ? sym[op] : "?";
}

/* check_ptr_type_impl: what a pointer operand may meet. */
static bool check_ptr(dtype p, dtype other, bool allowed, dtype_op op,
                      char *err, size_t errlen)
{
    if (!dtype_is_ptr(p))
        return true;
    if (!allowed || (dtype_is_ptr(other) && p != other) ||
        (!dtype_is_ptr(other) && dtype_is_float(other))) {
        set_err(err, errlen, "invalid operands of type %s and %s for '%s'",
                dtype_name(p), dtype_name(other), op_symbol(op));
        return false;
    }
    return true;
}

/* The range checks binary_op_type_checking_impl makes on a Python number
 * once the common type ct is known. */
static bool check_scalar(dtype_operand s, dtype ct, char *err, size_t errlen)
{
    if (!s.is_scalar)
        return true;
    bool neg = dtype_is_float(s.type) ? s.value.f < 0
                                      : dtype_is_signed(s.type) && s.value.i < 0;
    if (neg && dtype_is_unsigned(ct)) {
        set_err(err, errlen, "cannot perform a binary operation between an "
                "unsigned tensor and a negative scalar; cast one of them "
                "explicitly");
        return false;
    }
    if (!dtype_is_int(ct) || !dtype_is_int(s.type))
        return true;
    bool fits = neg ? s.value.i >= dtype_int_min(ct)
                    : s.value.u <= dtype_int_max(ct);
    if (!fits) {
        if (neg)
            set_err(err, errlen, "scalar %lld is out of range for type %s",
                    (long long)s.value.i, dtype_name(ct));
        else
            set_err(err, errlen, "scalar %llu is out of range for type %s",
                    (unsigned long long)s.value.u, dtype_name(ct));
        return false;
    }
    return true;
}

/* Pointer arithmetic: ptr + int, int + ptr, ptr - int (add and sub). */
static bool ptr_binop(dtype_op op, dtype a, dtype b, dtype_binop_types *out,
                      char *err, size_t errlen)
{
    if (op == DTYPE_OP_WHERE) {
        if (a != b) {
            set_err(err, errlen, "tl.where needs both values to be pointers "
                    "of the same type, got %s and %s", dtype_name(a),
                    dtype_name(b));
            return false;
        }
        out->lhs = out->rhs = out->result = a;
        return true;
    }
    if (dtype_is_ptr(a) && dtype_is_ptr(b)) {    /* only + gets here */
        set_err(err, errlen, "cannot add pointers together");
        return false;
    }
    out->swapped = !dtype_is_ptr(a);
    out->lhs = out->swapped ? b : a;
    out->rhs = out->swapped ? a : b;
    out->result = out->lhs;
    return true;
}

bool dtype_binop(dtype_op op, dtype_operand a, dtype_operand b,
                 dtype_binop_types *out, char *err, size_t errlen)
{
    out->lhs = out->rhs = out->result = DTYPE_INVALID;
    out->swapped = false;
    if (!dtype_valid(a.type) || !dtype_valid(b.type) ||
        op > DTYPE_OP_WHERE) {
        set_err(err, errlen, "internal error: bad operands to '%s'",
                op_symbol(op));
        return false;
    }
    bool lhs_ptr_ok = op == DTYPE_OP_ADD || op == DTYPE_OP_SUB || op == DTYPE_OP_WHERE;
    bool rhs_ptr_ok = op == DTYPE_OP_ADD || op == DTYPE_OP_WHERE;
    if (!check_ptr(a.type, b.type, lhs_ptr_ok, op, err, errlen) ||
        !check_ptr(b.type, a.type, rhs_ptr_ok, op, err, errlen))
        return false;
    if (dtype_is_ptr(a.type) || dtype_is_ptr(b.type))
        return ptr_binop(op, a.type, b.type, out, err, errlen);

    bool divmod = op == DTYPE_OP_TRUEDIV || op == DTYPE_OP_FLOORDIV ||
                  op == DTYPE_OP_MOD;
    dtype ct = dtype_computation_type(a.type, a.is_scalar, b.type, b.is_scalar,
                                      divmod, err, errlen);
    if (ct == DTYPE_INVALID || !check_scalar(a, ct, err, errlen) ||
        !check_scalar(b, ct, err, errlen))
        return false;

    if ((op == DTYPE_OP_FLOORDIV || op_is_bitwise(op)) && !dtype_is_int(ct)) {
        set_err(err, errlen, "'%s' needs integer operands, got %s and %s "
                "(computed as %s)", op_symbol(op), dtype_name(a.type),
                dtype_name(b.type), dtype_name(ct));
        return false;
    }
    out->lhs = out->rhs = out->result = ct;
    if (op == DTYPE_OP_TRUEDIV && dtype_is_int(ct))
        out->lhs = out->rhs = out->result = DTYPE_FP32;
    if (op_is_compare(op))
        out->result = DTYPE_INT1;
    return true;
}

bool dtype_unary(dtype_op op, dtype a, dtype *result, char *err, size_t errlen)
{
    *result = DTYPE_INVALID;
    if (!dtype_valid(a)) {
        set_err(err, errlen, "internal error: bad operand to '%s'", op_symbol(op));
        return false;
    }
    switch (op) {
    case DTYPE_OP_POS:
        *result = a;
        return true;
    case DTYPE_OP_NEG:
        if (dtype_is_ptr(a)) {
            set_err(err, errlen, "wrong type argument to unary minus (%s)",
                    dtype_name(a));
            return false;
        }
        *result = a;
        return true;
    case DTYPE_OP_INVERT:
        if (!dtype_is_int(a)) {
            set_err(err, errlen, "wrong type argument to unary invert (%s); "
                    "~ needs an integer", dtype_name(a));
            return false;
        }
        *result = a;
        return true;
    case DTYPE_OP_NOT:
        if (a != DTYPE_INT1) {
            set_err(err, errlen, "'not' needs an int1 (boolean) operand, got "
                    "%s; compare it instead, e.g. x == 0", dtype_name(a));
            return false;
        }
        *result = a;
        return true;
    default:
        set_err(err, errlen, "internal error: '%s' is not a unary operator",
                op_symbol(op));
        return false;
    }
}

/* ---- integer and float arithmetic helpers --------------------------- */

int64_t dtype_floordiv_i64(int64_t a, int64_t b)
{
    if (b == 0)
        return 0;
    if (b == -1)
        return (int64_t)(0 - (uint64_t)a);    /* INT64_MIN wraps */
    return a / b;                             /* C99: truncates */
}

int64_t dtype_mod_i64(int64_t a, int64_t b)
{
    if (b == 0 || b == -1)
        return 0;
    return a % b;                             /* sign of the dividend */
}

uint64_t dtype_floordiv_u64(uint64_t a, uint64_t b)
{
    return b ? a / b : 0;
}

uint64_t dtype_mod_u64(uint64_t a, uint64_t b)
{
    return b ? a % b : 0;
}

double dtype_mod_f64(double a, double b)
{
    return fmod(a, b);
}

int64_t dtype_pyfloordiv_i64(int64_t a, int64_t b)
{
    if (b == 0)
        return 0;
    if (b == -1)
        return (int64_t)(0 - (uint64_t)a);
    int64_t q = a / b;
    if (a % b != 0 && ((a < 0) != (b < 0)))
        q--;                                  /* round toward -inf */
    return q;
}

int64_t dtype_pymod_i64(int64_t a, int64_t b)
{
    if (b == 0 || b == -1)
        return 0;
    int64_t r = a % b;
    if (r != 0 && ((r < 0) != (b < 0)))
        r += b;                               /* sign of the divisor */
    return r;
}

double dtype_pymod_f64(double a, double b)
{
    if (b == 0)
        return 0;
    double m = fmod(a, b);
    if (m == 0)
        return copysign(0.0, b);
    if ((m < 0) != (b < 0))
        m += b;
    return m;
}

double dtype_pyfloordiv_f64(double a, double b)
{
    if (b == 0)
        return 0;
    double m = fmod(a, b);
    /* a - m is an exact multiple of b in real arithmetic; the division
     * lands very close to the integral quotient. */
    double q = (a - m) / b;
    if (m != 0 && (m < 0) != (b < 0))
        q -= 1.0;
    if (q == 0)
        return copysign(0.0, a / b);
    double f = floor(q);
    if (q - f > 0.5)
        f += 1.0;                             /* snap to the nearest integer */
    return f;
}
