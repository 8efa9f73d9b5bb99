/* cgen_expr.c - the expression library of the C-dialect emitter
 * (cgen_expr.h): the prelude every kernel starts with, the register types,
 * and one lane of BINARY, UNARY, CMP, CAST and BITCAST, literals, loads and
 * stores as CUDA C expressions.  MATH is cgen_math.c.
 *
 * Exactness (doc/ir.md 3 and 4.3): integer arithmetic wraps (computed in
 * unsigned types), // and % and shifts go through the prelude's guarded
 * helpers, float + - * / use the __f*_rn / __d*_rn intrinsics, which the
 * compiler never contracts into an FMA, and fp16/bf16 lanes are computed in
 * fp32 and rounded once to the type after each operation, as the CPU's
 * round_lanes does.  fp8 lanes are held in float and, like the CPU's (ir.md
 * 4.4, a gap of the executor copied here on purpose so that the two agree
 * bit for bit), not rounded after arithmetic; casts round them
 * (saturating), stores round without saturating.
 *
 * NVRTC options the kernel needs (the backend passes them):
 *     --gpu-architecture=sm_XX --fmad=false -ftz=false -prec-div=true
 *     -prec-sqrt=true
 * The intrinsics already keep + - * / uncontracted; --fmad=false covers any
 * other a * b + c (none in the prelude's float code today), and the other
 * three are NVRTC's defaults, named so that nobody turns on fast math.
 *
 * HIP (cgen_target.dialect == CGEN_HIP) gets the same text: HIP has
 * __fadd_rn and friends, __float_as_uint, __umulhi, __byte_perm, __brev,
 * __popc, __clz, __ffs, and the prelude's inline PTX (fp16 and bf16
 * conversions) sits behind #ifdef __CUDA_ARCH__, with portable code for
 * the other compilers.  hipcc / hiprtc keep the arithmetic exact with
 * -ffp-contract=off (the HIP backend's options, hip_build.c). */
#include "cgen_expr.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* A value missing from a switch over an enum is an error here (ir.h) */
#pragma GCC diagnostic error "-Wswitch"
#pragma GCC diagnostic error "-Wswitch-enum"

/* ---- the prelude -------------------------------------------------------- */

static const char prelude_text[] =
    "/* ---- tritsim prelude (src/backend/cgen/cgen_expr.c) ----\n"
    " * Register types and the exact helpers the expressions call.  Compile\n"
    " * with: --fmad=false -ftz=false -prec-div=true -prec-sqrt=true (the\n"
    " * arithmetic uses __fadd_rn and friends, which never contract into an FMA;\n"
    " * --fmad=false keeps anything else from fusing too).  TK_FN helpers run\n"
    " * on the host as well, where tests compare them with tritsim's dtype.c. */\n"
    "typedef signed char tk_i8;\n"
    "typedef short tk_i16;\n"
    "typedef int tk_i32;\n"
    "typedef long long tk_i64;\n"
    "typedef unsigned char tk_u8;\n"
    "typedef unsigned short tk_u16;\n"
    "typedef unsigned int tk_u32;\n"
    "typedef unsigned long long tk_u64;\n"
    "\n"
    "#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)\n"
    "#define TK_DEVICE_PASS 1\n"
    "#endif\n"
    "#define TK_FN static __host__ __device__ __forceinline__ __attribute__((unused))\n"
    "#define TK_MU __attribute__((unused))   /* values a check may not read */\n"
    "\n"
    "/* ---- bits ---- */\n"
    "TK_FN tk_u32 tk_f2u(float x)\n"
    "{\n"
    "#ifdef TK_DEVICE_PASS\n"
    "    return __float_as_uint(x);\n"
    "#else\n"
    "    tk_u32 u;\n"
    "    __builtin_memcpy(&u, &x, sizeof u);\n"
    "    return u;\n"
    "#endif\n"
    "}\n"
    "TK_FN float tk_u2f(tk_u32 u)\n"
    "{\n"
    "#ifdef TK_DEVICE_PASS\n"
    "    return __uint_as_float(u);\n"
    "#else\n"
    "    float x;\n"
    "    __builtin_memcpy(&x, &u, sizeof x);\n"
    "    return x;\n"
    "#endif\n"
    "}\n"
    "TK_FN tk_u64 tk_d2u(double x)\n"
    "{\n"
    "#ifdef TK_DEVICE_PASS\n"
    "    return (tk_u64)__double_as_longlong(x);\n"
    "#else\n"
    "    tk_u64 u;\n"
    "    __builtin_memcpy(&u, &x, sizeof u);\n"
    "    return u;\n"
    "#endif\n"
    "}\n"
    "TK_FN double tk_u2d(tk_u64 u)\n"
    "{\n"
    "#ifdef TK_DEVICE_PASS\n"
    "    return __longlong_as_double((long long)u);\n"
    "#else\n"
    "    double x;\n"
    "    __builtin_memcpy(&x, &u, sizeof x);\n"
    "    return x;\n"
    "#endif\n"
    "}\n"
    "/* The position of the highest set bit of x != 0. */\n"
    "TK_FN int tk_msb64(tk_u64 x)\n"
    "{\n"
    "#ifdef TK_DEVICE_PASS\n"
    "    return 63 - __clzll((long long)x);\n"
    "#else\n"
    "    return 63 - __builtin_clzll(x);\n"
    "#endif\n"
    "}\n"
    "\n"
    "/* ---- narrow float formats (dtype.c's rules) ----\n"
    " * sig * 2^e2 (sig != 0) rounded to nearest even in a format of fb fraction\n"
    " * and eb exponent bits: the bits below the sign, the exponent field not\n"
    " * capped (a value past the range gives a code past the largest finite). */\n"
    "TK_FN tk_u32 tk_round_code(tk_u64 sig, int e2, int fb, int eb)\n"
    "{\n"
    "    int bias = (1 << (eb - 1)) - 1, emin = 1 - bias;\n"
    "    int e = tk_msb64(sig) + e2;\n"
    "    if (e < emin)\n"
    "        e = emin;\n"
    "    int shift = e - fb - e2;\n"
    "    tk_u64 q;\n"
    "    if (shift <= 0) {\n"
    "        q = sig << -shift;\n"
    "    } else if (shift > 64) {\n"
    "        q = 0;\n"
    "    } else if (shift == 64) {\n"
    "        q = sig > (1ull << 63) ? 1 : 0;\n"
    "    } else {\n"
    "        tk_u64 rem = sig & ((1ull << shift) - 1), half = 1ull << (shift - 1);\n"
    "        q = sig >> shift;\n"
    "        q += rem > half || (rem == half && (q & 1));\n"
    "    }\n"
    "    if (q >> (fb + 1)) {\n"
    "        q >>= 1;\n"
    "        e++;\n"
    "    }\n"
    "    if ((q >> fb) == 0)\n"
    "        return (tk_u32)q;\n"
    "    return ((tk_u32)(e + bias) << fb) | ((tk_u32)q & ((1u << fb) - 1));\n"
    "}\n"
    "/* The code of |d| (d not NaN): 0 for zero, past every finite one for inf. */\n"
    "TK_FN tk_u32 tk_mag_code(double d, int fb, int eb)\n"
    "{\n"
    "    tk_u64 u = tk_d2u(d);\n"
    "    int ef = (int)((u >> 52) & 0x7ff);\n"
    "    tk_u64 frac = u & ((1ull << 52) - 1);\n"
    "    if (ef == 0x7ff)\n"
    "        return 0xffffffffu;\n"
    "    if (ef == 0 && frac == 0)\n"
    "        return 0;\n"
    "    return tk_round_code(ef ? frac | (1ull << 52) : frac, ef ? ef - 1075 : -1074, fb, eb);\n"
    "}\n"
    "/* An IEEE format's bits: sign, and a code too large being infinity. */\n"
    "TK_FN tk_u32 tk_ieee_bits(bool neg, tk_u32 code, int fb, int eb)\n"
    "{\n"
    "    tk_u32 inf = ((1u << eb) - 1) << fb;\n"
    "    return ((tk_u32)neg << (fb + eb)) | (code < inf ? code : inf);\n"
    "}\n"
    "/* d rounded once to an IEEE format (fp16, bf16); NaN keeps its sign and\n"
    " * the top of its payload, with the quiet bit set. */\n"
    "TK_FN tk_u32 tk_fmt_from_d(double d, int fb, int eb)\n"
    "{\n"
    "    tk_u64 u = tk_d2u(d);\n"
    "    bool neg = (u >> 63) != 0;\n"
    "    if (d != d)\n"
    "        return tk_ieee_bits(neg, 0xffffffffu, fb, eb) | (1u << (fb - 1)) |\n"
    "               (tk_u32)((u & ((1ull << 52) - 1)) >> (52 - fb));\n"
    "    return tk_ieee_bits(neg, tk_mag_code(d, fb, eb), fb, eb);\n"
    "}\n"
    "TK_FN tk_u16 tk_d2f16(double d) { return (tk_u16)tk_fmt_from_d(d, 10, 5); }\n"
    "TK_FN tk_u16 tk_d2bf16(double d) { return (tk_u16)tk_fmt_from_d(d, 7, 8); }\n"
    "TK_FN tk_u16 tk_f32_to_f16(float x)\n"
    "{\n"
    /* on the device: the conversion instruction, which rounds to nearest
     * even (subnormals and overflow included) as the code below does; it
     * gives every NaN as one canonical NaN, where the code below keeps the
     * sign and the top of the payload: a NaN's sign and payload are not
     * part of the contract (doc/ir.md 3.5) */
    "#ifdef __CUDA_ARCH__\n"
    "    unsigned short h; asm(\"cvt.rn.f16.f32 %0, %1;\" : \"=h\"(h) : \"f\"(x));\n"
    "    return (tk_u16)h;\n"
    "#else\n"
    "    tk_u32 u = tk_f2u(x), sign = (u >> 16) & 0x8000u, frac = u & 0x7fffffu;\n"
    "    int e = (int)((u >> 23) & 0xff) - 127;\n"
    "    if (e == 128)\n"
    "        return (tk_u16)(sign | 0x7c00u | (frac ? 0x200u | (frac >> 13) : 0u));\n"
    "    if (e < -14 || e > 15)\n"
    "        return tk_d2f16((double)x);\n"
    "    tk_u32 q = frac >> 13, rem = frac & 0x1fffu;\n"
    "    q += rem > 0x1000u || (rem == 0x1000u && (q & 1u));\n"
    "    return (tk_u16)(sign | (((tk_u32)(e + 15) << 10) + q));\n"
    "#endif\n"
    "}\n"
    "TK_FN tk_u16 tk_f32_to_bf16(float x)\n"
    "{\n"
    "#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800\n"
    "    unsigned short h; asm(\"cvt.rn.bf16.f32 %0, %1;\" : \"=h\"(h) : \"f\"(x));\n"
    "    return (tk_u16)h;\n"
    "#else\n"
    "    tk_u32 u = tk_f2u(x), sign = (u >> 16) & 0x8000u, frac = u & 0x7fffffu;\n"
    "    int e = (int)((u >> 23) & 0xff) - 127;\n"
    "    if (e == 128)\n"
    "        return (tk_u16)(sign | 0x7f80u | (frac ? 0x40u | (frac >> 16) : 0u));\n"
    "    if (e < -126)\n"
    "        return tk_d2bf16((double)x);\n"
    "    tk_u32 q = frac >> 16, rem = frac & 0xffffu;\n"
    "    q += rem > 0x8000u || (rem == 0x8000u && (q & 1u));\n"
    "    return (tk_u16)(sign | (((tk_u32)(e + 127) << 7) + q));\n"
    "#endif\n"
    "}\n"
    "TK_FN float tk_f16_to_f32(tk_u16 h)\n"
    "{\n"
    /* on the device: the widening instruction, exact for every finite
     * value and infinity (a NaN comes out canonical, as above) */
    "#ifdef __CUDA_ARCH__\n"
    "    float f; asm(\"cvt.f32.f16 %0, %1;\" : \"=f\"(f) : \"h\"((unsigned short)h));\n"
    "    return f;\n"
    "#else\n"
    "    tk_u32 sign = (tk_u32)(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu;\n"
    "    if (e == 0x1f)\n"
    "        return tk_u2f(sign | 0x7f800000u | (m << 13));\n"
    "    if (e == 0) {\n"
    "        float v = (float)m * 0x1p-24f;\n"
    "        return sign ? -v : v;\n"
    "    }\n"
    "    return tk_u2f(sign | ((e + 112) << 23) | (m << 13));\n"
    "#endif\n"
    "}\n"
    "TK_FN float tk_bf16_to_f32(tk_u16 b) { return tk_u2f((tk_u32)b << 16); }\n"
    "/* A value rounded to fp16 / bf16, in its register form (a float). */\n"
    "TK_FN float tk_rnd_f16(float x) { return tk_f16_to_f32(tk_f32_to_f16(x)); }\n"
    "TK_FN float tk_rnd_bf16(float x) { return tk_bf16_to_f32(tk_f32_to_bf16(x)); }\n"
    "TK_FN float tk_rnd_f16_d(double x) { return tk_f16_to_f32(tk_d2f16(x)); }\n"
    "TK_FN float tk_rnd_bf16_d(double x) { return tk_bf16_to_f32(tk_d2bf16(x)); }\n"
    "/* Integers to fp16 / bf16, one rounding. */\n"
    "TK_FN float tk_int_to_half(bool neg, tk_u64 mag, bool bf)\n"
    "{\n"
    "    if (mag == 0)\n"
    "        return 0.0f;\n"
    "    if (bf)\n"
    "        return tk_bf16_to_f32((tk_u16)tk_ieee_bits(neg, tk_round_code(mag, 0, 7, 8), 7, 8));\n"
    "    return tk_f16_to_f32((tk_u16)tk_ieee_bits(neg, tk_round_code(mag, 0, 10, 5), 10, 5));\n"
    "}\n"
    "TK_FN float tk_i64_to_f16(tk_i64 x) { return tk_int_to_half(x < 0, x < 0 ? 0 - (tk_u64)x : (tk_u64)x, false); }\n"
    "TK_FN float tk_u64_to_f16(tk_u64 x) { return tk_int_to_half(false, x, false); }\n"
    "TK_FN float tk_i64_to_bf16(tk_i64 x) { return tk_int_to_half(x < 0, x < 0 ? 0 - (tk_u64)x : (tk_u64)x, true); }\n"
    "TK_FN float tk_u64_to_bf16(tk_u64 x) { return tk_int_to_half(false, x, true); }\n"
    "\n"
    "/* fp8: e4m3fn (bias 7, no infinity, NaN S.1111.111) and e5m2.  A NaN\n"
    " * byte reads as a quiet float NaN carrying its fraction bits, so that a\n"
    " * store writes the same byte. */\n"
    "TK_FN float tk_e4m3_to_f32(tk_u8 b)\n"
    "{\n"
    "    tk_u32 sign = (tk_u32)(b & 0x80u) << 24, e = (b >> 3) & 0xfu, m = b & 7u;\n"
    "    if (e == 0xf && m == 7)\n"
    "        return tk_u2f(sign | 0x7fc00007u);\n"
    "    if (e == 0) {\n"
    "        float v = (float)m * 0x1p-9f;\n"
    "        return sign ? -v : v;\n"
    "    }\n"
    "    return tk_u2f(sign | ((e + 120) << 23) | (m << 20));\n"
    "}\n"
    "TK_FN float tk_e5m2_to_f32(tk_u8 b)\n"
    "{\n"
    "    tk_u32 sign = (tk_u32)(b & 0x80u) << 24, e = (b >> 2) & 0x1fu, m = b & 3u;\n"
    "    if (e == 0x1f)\n"
    "        return tk_u2f(sign | (m ? 0x7fc00000u | m : 0x7f800000u));\n"
    "    if (e == 0) {\n"
    "        float v = (float)m * 0x1p-16f;\n"
    "        return sign ? -v : v;\n"
    "    }\n"
    "    return tk_u2f(sign | ((e + 112) << 23) | (m << 21));\n"
    "}\n"
    "/* Casts narrow to fp8 saturating (cvt.rn.satfinite); NaN gives 0x7f. */\n"
    "TK_FN tk_u8 tk_d2e4m3_sat(double d)\n"
    "{\n"
    "    if (d != d)\n"
    "        return 0x7f;\n"
    "    tk_u32 code = tk_mag_code(d, 3, 4);\n"
    "    return (tk_u8)(((tk_d2u(d) >> 63) ? 0x80u : 0u) | (code <= 0x7eu ? code : 0x7eu));\n"
    "}\n"
    "TK_FN tk_u8 tk_d2e5m2_sat(double d)\n"
    "{\n"
    "    if (d != d)\n"
    "        return 0x7f;\n"
    "    tk_u32 code = tk_mag_code(d, 2, 5);\n"
    "    return (tk_u8)(((tk_d2u(d) >> 63) ? 0x80u : 0u) | (code <= 0x7bu ? code : 0x7bu));\n"
    "}\n"
    "TK_FN float tk_rnd_e4m3(double d) { return d != d ? tk_u2f(0x7fc00000u) : tk_e4m3_to_f32(tk_d2e4m3_sat(d)); }\n"
    "TK_FN float tk_rnd_e5m2(double d) { return d != d ? tk_u2f(0x7fc00000u) : tk_e5m2_to_f32(tk_d2e5m2_sat(d)); }\n"
    "/* What a store writes (dtype_store): no saturation (e4m3 overflows to\n"
    " * NaN, e5m2 to infinity); a NaN keeps its sign and its low fraction bits. */\n"
    "TK_FN tk_u8 tk_fp8_store(float x, int fb, int eb, tk_u32 max, tk_u32 over)\n"
    "{\n"
    "    tk_u32 sign = (tk_f2u(x) >> 31) ? 0x80u : 0u, ones = (1u << fb) - 1;\n"
    "    if (x != x) {\n"
    "        tk_u32 frac = tk_f2u(x) & ones;\n"
    "        return (tk_u8)(sign | (((1u << eb) - 1) << fb) | (frac ? frac : ones));\n"
    "    }\n"
    "    tk_u32 code = tk_mag_code((double)x, fb, eb);\n"
    "    return (tk_u8)(sign | (code <= max ? code : over));\n"
    "}\n"
    "TK_FN tk_u8 tk_e4m3_store(float x) { return tk_fp8_store(x, 3, 4, 0x7e, 0x7f); }\n"
    "TK_FN tk_u8 tk_e5m2_store(float x) { return tk_fp8_store(x, 2, 5, 0x7b, 0x7c); }\n"
    "\n"
    "/* Rounding toward zero (fp_downcast_rounding=\"rtz\"): round to nearest,\n"
    " * and where that went away from zero take the neighbour toward zero. */\n"
    "TK_FN bool tk_grew(double r, double x) { return r == r && (r < 0 ? -r : r) > (x < 0 ? -x : x); }\n"
    "TK_FN float tk_rtz_f16(double x)\n"
    "{\n"
    "    tk_u16 h = tk_d2f16(x);\n"
    "    float r = tk_f16_to_f32(h);\n"
    "    return tk_grew(r, x) ? tk_f16_to_f32((tk_u16)(h - 1)) : r;\n"
    "}\n"
    "TK_FN float tk_rtz_bf16(double x)\n"
    "{\n"
    "    tk_u16 h = tk_d2bf16(x);\n"
    "    float r = tk_bf16_to_f32(h);\n"
    "    return tk_grew(r, x) ? tk_bf16_to_f32((tk_u16)(h - 1)) : r;\n"
    "}\n"
    "TK_FN float tk_rtz_f32(double x)\n"
    "{\n"
    "    float r = (float)x;\n"
    "    return tk_grew(r, x) ? tk_u2f(tk_f2u(r) - 1) : r;\n"
    "}\n"
    "TK_FN float tk_rtz_e4m3(double x)\n"
    "{\n"
    "    float r = tk_rnd_e4m3(x);\n"
    "    return tk_grew(r, x) ? tk_e4m3_to_f32((tk_u8)(tk_d2e4m3_sat(r) - 1)) : r;\n"
    "}\n"
    "TK_FN float tk_rtz_e5m2(double x)\n"
    "{\n"
    "    float r = tk_rnd_e5m2(x);\n"
    "    return tk_grew(r, x) ? tk_e5m2_to_f32((tk_u8)(tk_d2e5m2_sat(r) - 1)) : r;\n"
    "}\n"
    "/* fp32 rounded to tf32 (10 fraction bits, nearest even). */\n"
    "TK_FN float tk_rnd_tf32(float x)\n"
    "{\n"
    "    tk_u32 u = tk_f2u(x);\n"
    "    if ((u & 0x7f800000u) != 0x7f800000u)\n"
    "        u = (u + 0xfffu + ((u >> 13) & 1u)) & ~0x1fffu;\n"
    "    return tk_u2f(u);\n"
    "}\n"
    "\n"
    "/* ---- float -> int: truncate, saturate to `bits` bits, NaN gives 0 ---- */\n"
    "TK_FN tk_i64 tk_d2i_sat(double x, int bits)\n"
    "{\n"
    "    tk_u64 max = (1ull << (bits - 1)) - 1;\n"
    "    double lim = (double)(max + 1);\n"
    "    if (x != x)\n"
    "        return 0;\n"
    "    if (x >= lim)\n"
    "        return (tk_i64)max;\n"
    "    if (x <= -lim)\n"
    "        return -(tk_i64)max - 1;\n"
    "    return (tk_i64)x;\n"
    "}\n"
    "TK_FN tk_u64 tk_d2u_sat(double x, int bits)\n"
    "{\n"
    "    double lim = bits == 64 ? 18446744073709551616.0 : (double)(1ull << bits);\n"
    "    if (x != x || x <= 0.0)\n"
    "        return 0;\n"
    "    if (x >= lim)\n"
    "        return bits == 64 ? ~0ull : (1ull << bits) - 1;\n"
    "    return (tk_u64)x;\n"
    "}\n"
    "/* rounded to an integer (rint / round), saturated to int64, NaN 0 */\n"
    "TK_FN tk_i64 tk_llrint(double x) { return tk_d2i_sat(rint(x), 64); }\n"
    "TK_FN tk_i64 tk_llround(double x) { return tk_d2i_sat(round(x), 64); }\n"
    "\n"
    "/* ---- integer division and shifts (ir.md 3.2, 3.3) ---- */\n"
    "TK_FN tk_i32 tk_floordiv_i32(tk_i32 a, tk_i32 b) { return b == 0 ? 0 : b == -1 ? (tk_i32)(0u - (tk_u32)a) : a / b; }\n"
    "TK_FN tk_i32 tk_mod_i32(tk_i32 a, tk_i32 b) { return b == 0 || b == -1 ? 0 : a % b; }\n"
    "TK_FN tk_u32 tk_floordiv_u32(tk_u32 a, tk_u32 b) { return b ? a / b : 0u; }\n"
    "TK_FN tk_u32 tk_mod_u32(tk_u32 a, tk_u32 b) { return b ? a % b : 0u; }\n"
    "TK_FN tk_i64 tk_floordiv_i64(tk_i64 a, tk_i64 b) { return b == 0 ? 0 : b == -1 ? (tk_i64)(0ull - (tk_u64)a) : a / b; }\n"
    "TK_FN tk_i64 tk_mod_i64(tk_i64 a, tk_i64 b) { return b == 0 || b == -1 ? 0 : a % b; }\n"
    "TK_FN tk_u64 tk_floordiv_u64(tk_u64 a, tk_u64 b) { return b ? a / b : 0ull; }\n"
    "TK_FN tk_u64 tk_mod_u64(tk_u64 a, tk_u64 b) { return b ? a % b : 0ull; }\n"
    "/* a << c, a >> c in a type of `bits` bits held in 32 or 64; c is the\n"
    " * count as an unsigned 64-bit number; past the width: 0 or the sign. */\n"
    "TK_FN tk_u32 tk_shl32(tk_u32 a, tk_u64 c, int bits) { return c >= (tk_u64)bits ? 0u : a << c; }\n"
    "TK_FN tk_u32 tk_shr32(tk_u32 a, tk_u64 c, int bits) { return c >= (tk_u64)bits ? 0u : a >> c; }\n"
    "TK_FN tk_i32 tk_sar32(tk_i32 a, tk_u64 c, int bits) { return a >> (c >= (tk_u64)bits ? bits - 1 : (int)c); }\n"
    "TK_FN tk_u64 tk_shl64(tk_u64 a, tk_u64 c) { return c >= 64 ? 0ull : a << c; }\n"
    "TK_FN tk_u64 tk_shr64(tk_u64 a, tk_u64 c) { return c >= 64 ? 0ull : a >> c; }\n"
    "TK_FN tk_i64 tk_sar64(tk_i64 a, tk_u64 c) { return a >> (c >= 64 ? 63 : (int)c); }\n"
    "\n"
    "/* ---- min / max ---- */\n"
    "template <class T> TK_FN T tk_imin(T a, T b) { return a < b ? a : b; }\n"
    "template <class T> TK_FN T tk_imax(T a, T b) { return a > b ? a : b; }\n"
    "/* propagate_nan=ALL: NaN wins, -0 < +0 */\n"
    "TK_FN float tk_fminnanf(float a, float b)\n"
    "{\n"
    "    if (a != a || b != b)\n"
    "        return a + b;\n"
    "    return a < b ? a : b < a ? b : (tk_f2u(a) >> 31) ? a : b;\n"
    "}\n"
    "TK_FN float tk_fmaxnanf(float a, float b)\n"
    "{\n"
    "    if (a != a || b != b)\n"
    "        return a + b;\n"
    "    return a > b ? a : b > a ? b : (tk_f2u(a) >> 31) ? b : a;\n"
    "}\n"
    "TK_FN double tk_fminnan(double a, double b)\n"
    "{\n"
    "    if (a != a || b != b)\n"
    "        return a + b;\n"
    "    return a < b ? a : b < a ? b : (tk_d2u(a) >> 63) ? a : b;\n"
    "}\n"
    "TK_FN double tk_fmaxnan(double a, double b)\n"
    "{\n"
    "    if (a != a || b != b)\n"
    "        return a + b;\n"
    "    return a > b ? a : b > a ? b : (tk_d2u(a) >> 63) ? b : a;\n"
    "}\n"
    "\n"
    "/* ---- math helpers (mathfn.c's definitions) ---- */\n"
    "TK_FN float tk_saturatef(float x) { return x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f; }\n"
    "TK_FN double tk_saturate(double x) { return x > 0.0 ? (x < 1.0 ? x : 1.0) : 0.0; }\n"
    "/* CUDA's values: 0 and NaN give INT_MIN, infinities INT_MAX */\n"
    "TK_FN tk_i32 tk_ilogb(double x)\n"
    "{\n"
    "    if (x == 0.0 || x != x)\n"
    "        return -2147483647 - 1;\n"
    "    if (x - x != x - x)\n"
    "        return 2147483647;\n"
    "    return ilogb(x);\n"
    "}\n"
    "/* |a| wrapping (abs(INT_MIN) == INT_MIN); W: the unsigned type it wraps in */\n"
    "template <class T, class W> TK_FN T tk_iabs(T a) { return a < 0 ? (T)(0u - (W)a) : a; }\n"
    "/* (a + b) >> 1 and (a + b + 1) >> 1 without overflow */\n"
    "template <class T> TK_FN T tk_hadd(T a, T b) { return (T)((a >> 1) + (b >> 1) + (a & b & 1)); }\n"
    "template <class T> TK_FN T tk_rhadd(T a, T b) { return (T)((a >> 1) + (b >> 1) + ((a | b) & 1)); }\n"
    "/* |a - b| + c, the distance unsigned, the sum wrapping in W */\n"
    "template <class T, class W> TK_FN T tk_sad(T a, T b, T c)\n"
    "{\n"
    "    tk_u64 d = a > b ? (tk_u64)a - (tk_u64)b : (tk_u64)b - (tk_u64)a;\n"
    "    return (T)((W)d + (W)c);\n"
    "}\n"
    "/* the low 24 bits of x, sign-extended (mul24) */\n"
    "TK_FN tk_i64 tk_sext24(tk_u32 x) { return (tk_i64)((tk_i32)(x << 8) >> 8); }\n"
    "/* The lanes i in [0, n) where c + s * i < 0 (0 < |s| < 2^40, n < 2^31):\n"
    " * an interval [*lo, *hi), the box of a mask (cgen_check.c) */\n"
    "TK_FN void tk_span(tk_i64 c, tk_i64 s, tk_i64 n, tk_i64 *lo, tk_i64 *hi)\n"
    "{\n"
    "    if (s == 1 || s == -1) {  /* i < -c, or i >= c + 1 */\n"
    "        /* (the one value that wraps, -2^63, stands for a number beyond n:\n"
    "         * written so, checked layer norm keeps 39 registers, not 47) */\n"
    "        const tk_i64 q = (tk_i64)(s == 1 ? 0ull - (tk_u64)c : (tk_u64)c + 1ull);\n"
    "        const tk_i64 m = q < 0 ? (q == (tk_i64)(1ull << 63) ? n : 0) : q > n ? n : q;\n"
    "        *lo = s == 1 ? 0 : m;\n"
    "        *hi = s == 1 ? m : n;\n"
    "        return;\n"
    "    }\n"
    "    /* (c clamped to +-2^62 changes no answer and keeps -c exact) */\n"
    "    c = c < -(1ll << 62) ? -(1ll << 62) : c > (1ll << 62) ? (1ll << 62) : c;\n"
    "    if (s > 0) {            /* i < -c / s, rounded up */\n"
    "        tk_i64 q = -c / s;\n"
    "        if (-c % s != 0 && -c > 0) q++;\n"
    "        *lo = 0;\n"
    "        *hi = q < 0 ? 0 : q > n ? n : q;\n"
    "    } else {                /* i > c / -s: from its floor + 1 */\n"
    "        tk_i64 q = c / -s;\n"
    "        if (c % -s != 0 && c < 0) q--;\n"
    "        *lo = q + 1 < 0 ? 0 : q + 1 > n ? n : q + 1;\n"
    "        *hi = n;\n"
    "    }\n"
    "}\n"
    "/* ---- end of the prelude ---- */\n";

void cgen_expr_prelude(strbuf *out, const cgen_target *t)
{
    (void)t;    /* one text for both dialects (see the top of the file) */
    strbuf_puts(out, prelude_text);
}

/* ---- types ------------------------------------------------------------------ */

const char *cgen_ctype(dtype dt)
{
    if (dtype_is_ptr(dt))
        return "tk_u64";
    switch (dt) {
    case DTYPE_INT1: return "bool";
    case DTYPE_INT8: return "tk_i8";
    case DTYPE_INT16: return "tk_i16";
    case DTYPE_INT32: return "tk_i32";
    case DTYPE_INT64: return "tk_i64";
    case DTYPE_UINT8: return "tk_u8";
    case DTYPE_UINT16: return "tk_u16";
    case DTYPE_UINT32: return "tk_u32";
    case DTYPE_UINT64: return "tk_u64";
    case DTYPE_FP8E4NV: case DTYPE_FP8E5: case DTYPE_FP16: case DTYPE_BF16:
    case DTYPE_FP32:
        return "float";
    case DTYPE_FP64: return "double";
    case DTYPE_INVALID: case DTYPE__NSCALAR: case DTYPE_PTR: break;
    }
    return NULL;
}

/* The unsigned type an integer dtype's arithmetic wraps in: at least 32
 * bits, so that C's promotions never make it signed. */
static const char *wrap_type(dtype dt)
{
    return dtype_bits(dt) == 64 ? "tk_u64" : "tk_u32";
}

static bool is_int(dtype dt) { return !dtype_is_ptr(dt) && dtype_is_int(dt); }
static bool is_float(dtype dt) { return !dtype_is_ptr(dt) && dtype_is_float(dt); }
static bool is_f64(dtype dt) { return dt == DTYPE_FP64; }

/* The call that rounds a float to dt's values after an operation: fp16 and
 * bf16 (round_lanes); "" for the rest (fp8: see the top of the file). */
static const char *round_call(dtype dt)
{
    return dt == DTYPE_FP16 ? "tk_rnd_f16" : dt == DTYPE_BF16 ? "tk_rnd_bf16" : "";
}

/* Append "R(" where dt rounds; close with round_close. */
static void round_open(strbuf *out, dtype dt)
{
    const char *r = round_call(dt);
    if (*r)
        strbuf_printf(out, "%s(", r);
}

static void round_close(strbuf *out, dtype dt)
{
    if (*round_call(dt))
        strbuf_putc(out, ')');
}

/* ---- BINARY ------------------------------------------------------------- */

/* Integer + - * & | ^ wrapping in the unsigned type; int1 keeps bit 0. */
static void int_arith(strbuf *out, dtype dt, const char *op, const char *a, const char *b)
{
    const char *w = wrap_type(dt);
    if (dt == DTYPE_INT1)
        strbuf_printf(out, "((((%s)(%s) %s (%s)(%s)) & 1u) != 0u)", w, a, op, w, b);
    else
        strbuf_printf(out, "((%s)((%s)(%s) %s (%s)(%s)))", cgen_ctype(dt), w, a, op, w, b);
}

/* // and % through the prelude's guarded helpers, in 32 or 64 bits. */
static void int_divmod(strbuf *out, dtype dt, bool mod, const char *a, const char *b)
{
    bool s = dtype_is_signed(dt);
    int bits = dtype_bits(dt) == 64 ? 64 : 32;
    const char *arg = bits == 64 ? (s ? "tk_i64" : "tk_u64") : (s ? "tk_i32" : "tk_u32");
    strbuf_printf(out, "((%s)tk_%s_%c%d((%s)(%s), (%s)(%s)))", cgen_ctype(dt),
                  mod ? "mod" : "floordiv", s ? 'i' : 'u', bits, arg, a, arg, b);
}

/* a << c, a >> c: the count is b as an unsigned 64-bit number (ir.md 3.3). */
static void int_shift(strbuf *out, dtype dt, bool left, const char *a, const char *b)
{
    int bits = dtype_bits(dt);
    const char *t = cgen_ctype(dt);
    const char *fn = left ? "shl" : dtype_is_signed(dt) ? "sar" : "shr";
    if (bits == 64)
        strbuf_printf(out, "((%s)tk_%s64((%s)(%s), (tk_u64)(%s)))", t, fn,
                      dtype_is_signed(dt) && !left ? "tk_i64" : "tk_u64", a, b);
    else if (dt == DTYPE_INT1)
        strbuf_printf(out, "((tk_%s32((tk_u32)(%s), (tk_u64)(%s), 1) & 1u) != 0u)", fn, a, b);
    else
        strbuf_printf(out, "((%s)tk_%s32((%s)(%s), (tk_u64)(%s), %d))", t, fn,
                      dtype_is_signed(dt) && !left ? "tk_i32" : "tk_u32", a, b, bits);
}

static bool binary_int(strbuf *out, ir_binop op, dtype dt, const char *a, const char *b)
{
    const char *t = cgen_ctype(dt);
    switch (op) {
    case IR_ADD: int_arith(out, dt, "+", a, b); return true;
    case IR_SUB: int_arith(out, dt, "-", a, b); return true;
    case IR_MUL: int_arith(out, dt, "*", a, b); return true;
    case IR_AND: int_arith(out, dt, "&", a, b); return true;
    case IR_OR: int_arith(out, dt, "|", a, b); return true;
    case IR_XOR: int_arith(out, dt, "^", a, b); return true;
    /* DIV on ints is never emitted; the CPU divides as FLOORDIV */
    case IR_DIV: case IR_FLOORDIV: int_divmod(out, dt, false, a, b); return true;
    case IR_MOD: int_divmod(out, dt, true, a, b); return true;
    case IR_MIN: case IR_MIN_NAN: strbuf_printf(out, "tk_imin<%s>(%s, %s)", t, a, b); return true;
    case IR_MAX: case IR_MAX_NAN: strbuf_printf(out, "tk_imax<%s>(%s, %s)", t, a, b); return true;
    case IR_SHL: case IR_SHR:       /* cgen_binary */
    case IR_POW: case IR_ATAN2: case IR_FDIV_RN:
        return false;
    }
    return false;
}

/* Float BINARY in fp32 (float registers) or fp64; the caller rounds. */
static bool binary_float(strbuf *out, ir_binop op, dtype dt, const char *a, const char *b)
{
    bool d = is_f64(dt);
    switch (op) {
    case IR_ADD: strbuf_printf(out, "%s(%s, %s)", d ? "__dadd_rn" : "__fadd_rn", a, b); return true;
    case IR_SUB: strbuf_printf(out, "%s(%s, %s)", d ? "__dsub_rn" : "__fsub_rn", a, b); return true;
    case IR_MUL: strbuf_printf(out, "%s(%s, %s)", d ? "__dmul_rn" : "__fmul_rn", a, b); return true;
    case IR_DIV: case IR_FDIV_RN:
        strbuf_printf(out, "%s(%s, %s)", d ? "__ddiv_rn" : "__fdiv_rn", a, b);
        return true;
    case IR_FLOORDIV:               /* never emitted; the CPU's floor(a / b) */
        strbuf_printf(out, "%s(%s(%s, %s))", d ? "floor" : "floorf",
                      d ? "__ddiv_rn" : "__fdiv_rn", a, b);
        return true;
    case IR_MOD: strbuf_printf(out, "%s(%s, %s)", d ? "fmod" : "fmodf", a, b); return true;
    case IR_MIN: strbuf_printf(out, "%s(%s, %s)", d ? "fmin" : "fminf", a, b); return true;
    case IR_MAX: strbuf_printf(out, "%s(%s, %s)", d ? "fmax" : "fmaxf", a, b); return true;
    case IR_MIN_NAN:
        strbuf_printf(out, "%s(%s, %s)", d ? "tk_fminnan" : "tk_fminnanf", a, b);
        return true;
    case IR_MAX_NAN:
        strbuf_printf(out, "%s(%s, %s)", d ? "tk_fmaxnan" : "tk_fmaxnanf", a, b);
        return true;
    /* the CPU computes fp32 pow and atan2 in double, rounded once */
    case IR_POW: case IR_ATAN2: {
        const char *fn = op == IR_POW ? "pow" : "atan2";
        if (d)
            strbuf_printf(out, "%s(%s, %s)", fn, a, b);
        else
            strbuf_printf(out, "__double2float_rn(%s((double)(%s), (double)(%s)))", fn, a, b);
        return true;
    }
    case IR_AND: case IR_OR: case IR_XOR: case IR_SHL: case IR_SHR:
        return false;
    }
    return false;
}

bool cgen_binary(strbuf *out, ir_binop op, dtype dt, const char *a, const char *b, dtype bdt)
{
    if (op == IR_SHL || op == IR_SHR) {
        if (!is_int(dt) || !is_int(bdt))
            return false;
        int_shift(out, dt, op == IR_SHL, a, b);
        return true;
    }
    if (is_int(dt))
        return binary_int(out, op, dt, a, b);
    if (!is_float(dt))
        return false;
    size_t mark = out->len;
    round_open(out, dt);
    if (!binary_float(out, op, dt, a, b)) {
        strbuf_truncate(out, mark);
        return false;
    }
    round_close(out, dt);
    return true;
}

/* ---- UNARY, CMP -------------------------------------------------------------- */

bool cgen_unary(strbuf *out, ir_unop op, dtype dt, const char *a)
{
    const char *t = cgen_ctype(dt);
    if (is_int(dt)) {
        const char *w = wrap_type(dt);
        switch (op) {
        case IR_NEG:
            if (dt == DTYPE_INT1)
                strbuf_printf(out, "(%s)", a);      /* -x keeps bit 0 */
            else
                strbuf_printf(out, "((%s)(0u - (%s)(%s)))", t, w, a);
            return true;
        case IR_INVERT:
            if (dt == DTYPE_INT1)
                strbuf_printf(out, "(!(%s))", a);
            else
                strbuf_printf(out, "((%s)(~(%s)(%s)))", t, w, a);
            return true;
        case IR_NOT:
            strbuf_printf(out, "((%s)((%s) == 0))", t, a);
            return true;
        }
        return false;
    }
    if (!is_float(dt))
        return false;
    switch (op) {
    case IR_NEG:                    /* flips the sign bit, NaN too: exact */
        strbuf_printf(out, "(-(%s))", a);
        return true;
    case IR_NOT:
        if (is_f64(dt))
            strbuf_printf(out, "((%s) == 0.0 ? 1.0 : 0.0)", a);
        else
            strbuf_printf(out, "((%s) == 0.0f ? 1.0f : 0.0f)", a);
        return true;
    case IR_INVERT:
        return false;
    }
    return false;
}

bool cgen_cmp(strbuf *out, ir_cmp op, dtype dt, const char *a, const char *b)
{
    static const char *const sym[] = {
        [IR_EQ] = "==", [IR_NE] = "!=", [IR_LT] = "<", [IR_LE] = "<=", [IR_GT] = ">",
        [IR_GE] = ">=",
    };
    if (!dtype_valid(dt) || (unsigned)op > IR_GE)
        return false;
    /* C's comparisons are the IR's: ints in their signedness (bool and
     * the narrow types promote to int, value preserved), floats IEEE. */
    strbuf_printf(out, "((%s) %s (%s))", a, sym[op], b);
    return true;
}

/* ---- CAST, BITCAST ----------------------------------------------------------- */

/* int -> float, one correctly rounded step.  (If-chains over dtypes in
 * this file: a switch would have to name every dtype, ir.h.) */
static bool cast_int_to_float(strbuf *out, dtype to, dtype from, const char *a)
{
    bool s = dtype_is_signed(from), d = to == DTYPE_FP64;
    int bits = dtype_bits(from);
    if (to == DTYPE_FP32 || to == DTYPE_FP64) {
        if (bits == 64)
            strbuf_printf(out, "%s((%s)(%s))", s ? (d ? "__ll2double_rn" : "__ll2float_rn")
                                                 : (d ? "__ull2double_rn" : "__ull2float_rn"),
                          s ? "long long" : "unsigned long long", a);
        else if (bits == 32 && !d)
            strbuf_printf(out, "%s(%s)", s ? "__int2float_rn" : "__uint2float_rn", a);
        else                        /* exact */
            strbuf_printf(out, "((%s)(%s))", d ? "double" : "float", a);
    } else if (to == DTYPE_FP16 || to == DTYPE_BF16) {
        strbuf_printf(out, "tk_%s64_to_%s((%s)(%s))", s ? "i" : "u",
                      to == DTYPE_FP16 ? "f16" : "bf16", s ? "tk_i64" : "tk_u64", a);
    } else {
        return false;               /* no int <-> fp8 (dtype_can_cast) */
    }
    return true;
}

/* float -> float, one correctly rounded step (round to nearest even). */
static void cast_float_to_float(strbuf *out, dtype to, dtype from, const char *a)
{
    bool fd = is_f64(from);
    if (to == DTYPE_FP64)
        strbuf_printf(out, "((double)(%s))", a);
    else if (to == DTYPE_FP32 && fd)
        strbuf_printf(out, "__double2float_rn(%s)", a);
    else if (to == DTYPE_FP32)
        strbuf_printf(out, "(%s)", a);              /* narrow values are exact */
    else if (to == DTYPE_FP16 || to == DTYPE_BF16)
        strbuf_printf(out, "tk_rnd_%s%s(%s)", to == DTYPE_FP16 ? "f16" : "bf16",
                      fd ? "_d" : "", a);
    else
        strbuf_printf(out, "tk_rnd_%s((double)(%s))", to == DTYPE_FP8E4NV ? "e4m3" : "e5m2", a);
}

/* The same rounding toward zero (IR_CAST_RTZ, dtype_round_float_rtz). */
static void cast_float_rtz(strbuf *out, dtype to, dtype from, const char *a)
{
    const char *fn = to == DTYPE_FP16 ? "tk_rtz_f16" : to == DTYPE_BF16 ? "tk_rtz_bf16"
                     : to == DTYPE_FP8E4NV ? "tk_rtz_e4m3" : to == DTYPE_FP8E5 ? "tk_rtz_e5m2"
                     : to == DTYPE_FP32 && is_f64(from) ? "tk_rtz_f32" : NULL;
    if (fn && from != to)
        strbuf_printf(out, "%s((double)(%s))", fn, a);
    else
        cast_float_to_float(out, to, from, a);      /* exact: rtz changes nothing */
}

/* float -> int: truncate, saturate to the destination, NaN 0; -> int1: != 0. */
static void cast_float_to_int(strbuf *out, dtype to, dtype from, const char *a)
{
    if (to == DTYPE_INT1)
        strbuf_printf(out, "((%s) != %s)", a, is_f64(from) ? "0.0" : "0.0f");
    else
        strbuf_printf(out, "((%s)tk_d2%c_sat((double)(%s), %d))", cgen_ctype(to),
                      dtype_is_signed(to) ? 'i' : 'u', a, dtype_bits(to));
}

static bool cast_plain(strbuf *out, dtype to, dtype from, const char *a)
{
    if (from == to) {
        strbuf_printf(out, "(%s)", a);
        return true;
    }
    bool fint = is_int(from) || dtype_is_ptr(from), tint = is_int(to) || dtype_is_ptr(to);
    if (!dtype_can_cast(from, to))
        return false;
    if (fint && to == DTYPE_INT1)
        strbuf_printf(out, "((%s) != 0)", a);
    else if (fint && tint)                          /* wrap; C++ conversions do it */
        strbuf_printf(out, "((%s)(%s))", cgen_ctype(to), a);
    else if (fint)
        return cast_int_to_float(out, to, from, a);
    else if (tint)
        cast_float_to_int(out, to, from, a);
    else
        cast_float_to_float(out, to, from, a);
    return true;
}

bool cgen_cast(strbuf *out, ir_cast_kind kind, dtype to, dtype from, const char *a)
{
    if (!dtype_valid(to) || !dtype_valid(from))
        return false;
    switch (kind) {
    case IR_CAST_PLAIN:
        return cast_plain(out, to, from, a);
    case IR_CAST_TF32: {
        if (from != DTYPE_FP32)
            return cast_plain(out, to, from, a);
        strbuf tmp;
        strbuf_init(&tmp);
        strbuf_printf(&tmp, "tk_rnd_tf32(%s)", a);
        bool ok = cast_plain(out, to, from, strbuf_cstr(&tmp));
        strbuf_free(&tmp);
        return ok;
    }
    case IR_CAST_RTZ:
        if (is_float(from) && is_float(to)) {
            cast_float_rtz(out, to, from, a);
            return true;
        }
        /* rtz means nothing for the other pairs; the CPU's rounding of an
         * int source as a float would be garbage: refuse int -> float */
        if (is_int(from) && is_float(to))
            return false;
        return cast_plain(out, to, from, a);
    }
    return false;
}

/* The memory bits of a value of dt (an unsigned type of its size). */
static void to_bits(strbuf *out, dtype dt, const char *a)
{
    if (dtype_is_ptr(dt)) {
        strbuf_printf(out, "((tk_u64)(%s))", a);
        return;
    }
    switch (dt) {
    case DTYPE_INT1: case DTYPE_INT8: case DTYPE_UINT8:
        strbuf_printf(out, "((tk_u8)(%s))", a);
        break;
    case DTYPE_INT16: case DTYPE_UINT16: strbuf_printf(out, "((tk_u16)(%s))", a); break;
    case DTYPE_INT32: case DTYPE_UINT32: strbuf_printf(out, "((tk_u32)(%s))", a); break;
    case DTYPE_INT64: case DTYPE_UINT64: strbuf_printf(out, "((tk_u64)(%s))", a); break;
    case DTYPE_FP8E4NV: strbuf_printf(out, "tk_e4m3_store(%s)", a); break;
    case DTYPE_FP8E5: strbuf_printf(out, "tk_e5m2_store(%s)", a); break;
    case DTYPE_FP16: strbuf_printf(out, "tk_f32_to_f16(%s)", a); break;
    case DTYPE_BF16: strbuf_printf(out, "tk_f32_to_bf16(%s)", a); break;
    case DTYPE_FP32: strbuf_printf(out, "tk_f2u(%s)", a); break;
    case DTYPE_FP64: strbuf_printf(out, "tk_d2u(%s)", a); break;
    case DTYPE_INVALID: case DTYPE__NSCALAR: case DTYPE_PTR: break;
    }
}

/* A value of dt from its memory bits b. */
static void from_bits(strbuf *out, dtype dt, const char *b)
{
    if (dtype_is_ptr(dt)) {
        strbuf_printf(out, "((tk_u64)(%s))", b);
        return;
    }
    switch (dt) {
    case DTYPE_INT1: strbuf_printf(out, "((%s) != 0)", b); break;
    case DTYPE_INT8: case DTYPE_INT16: case DTYPE_INT32: case DTYPE_INT64:
    case DTYPE_UINT8: case DTYPE_UINT16: case DTYPE_UINT32: case DTYPE_UINT64:
        strbuf_printf(out, "((%s)(%s))", cgen_ctype(dt), b);
        break;
    case DTYPE_FP8E4NV: strbuf_printf(out, "tk_e4m3_to_f32(%s)", b); break;
    case DTYPE_FP8E5: strbuf_printf(out, "tk_e5m2_to_f32(%s)", b); break;
    case DTYPE_FP16: strbuf_printf(out, "tk_f16_to_f32(%s)", b); break;
    case DTYPE_BF16: strbuf_printf(out, "tk_bf16_to_f32(%s)", b); break;
    case DTYPE_FP32: strbuf_printf(out, "tk_u2f(%s)", b); break;
    case DTYPE_FP64: strbuf_printf(out, "tk_u2d(%s)", b); break;
    case DTYPE_INVALID: case DTYPE__NSCALAR: case DTYPE_PTR: break;
    }
}

bool cgen_bitcast(strbuf *out, dtype to, dtype from, const char *a)
{
    if (!dtype_valid(to) || !dtype_valid(from) || dtype_size(to) != dtype_size(from))
        return false;
    if (to == from && !is_float(to)) {
        strbuf_printf(out, "(%s)", a);
        return true;
    }
    strbuf bits;
    strbuf_init(&bits);
    to_bits(&bits, from, a);
    from_bits(out, to, strbuf_cstr(&bits));
    strbuf_free(&bits);
    return true;
}

/* ---- memory ------------------------------------------------------------------ */

/* The unsigned C type of dt's memory format. */
static const char *mem_type(dtype dt)
{
    switch (dtype_size(dt)) {
    case 1: return "tk_u8";
    case 2: return "tk_u16";
    case 4: return dt == DTYPE_FP32 ? "float" : "tk_u32";
    default: return dt == DTYPE_FP64 ? "double" : "tk_u64";
    }
}

void cgen_load_expr(strbuf *out, dtype dt, const char *addr)
{
    const char *mt = mem_type(dt);
    strbuf word;
    strbuf_init(&word);
    strbuf_printf(&word, "*(const %s *)(%s)", mt, addr);
    if (dt == DTYPE_FP32 || dt == DTYPE_FP64)
        strbuf_printf(out, "(%s)", strbuf_cstr(&word));
    else
        from_bits(out, dt, strbuf_cstr(&word));
    strbuf_free(&word);
}

void cgen_store_stmt(strbuf *out, dtype dt, const char *addr, const char *value)
{
    const char *mt = mem_type(dt);
    strbuf_printf(out, "*(%s *)(%s) = ", mt, addr);
    if (dt == DTYPE_FP32 || dt == DTYPE_FP64)
        strbuf_printf(out, "(%s)", value);
    else
        to_bits(out, dt, value);
    strbuf_putc(out, ';');
}

/* ---- literals ---------------------------------------------------------------- */

/* A float value exactly: a hex literal, or the bits of an infinity or NaN. */
static void float_literal(strbuf *out, dtype dt, double v)
{
    if (is_f64(dt)) {
        if (isfinite(v)) {
            strbuf_printf(out, "(%a)", v);
        } else {
            uint64_t u;
            memcpy(&u, &v, sizeof u);
            strbuf_printf(out, "tk_u2d(0x%016" PRIx64 "ull)", u);
        }
        return;
    }
    float f = (float)v;
    if (isfinite(f)) {
        strbuf_printf(out, "(%af)", (double)f);
    } else {
        uint32_t u;
        memcpy(&u, &f, sizeof u);
        strbuf_printf(out, "tk_u2f(0x%08" PRIx32 "u)", u);
    }
}

void cgen_literal(strbuf *out, dtype dt, int64_t imm, double fimm)
{
    if (is_float(dt)) {
        /* CONST rounds fimm to the type (op_const: dtype_round_float) */
        float_literal(out, dt, dtype_round_float(dt, fimm));
        return;
    }
    dtype_scalar v = dtype_wrap(dt, (uint64_t)imm);
    const char *t = cgen_ctype(dt);
    if (dt == DTYPE_INT1)
        strbuf_puts(out, v.u ? "true" : "false");
    else if (dtype_is_ptr(dt) || !dtype_is_signed(dt))
        strbuf_printf(out, "((%s)%" PRIu64 "ull)", t, v.u);
    else if (v.i == INT64_MIN)
        strbuf_printf(out, "((%s)(-9223372036854775807ll - 1))", t);
    else
        strbuf_printf(out, "((%s)%" PRId64 "ll)", t, v.i);
}
