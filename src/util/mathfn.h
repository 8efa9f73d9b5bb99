/* mathfn.h - scalar math functions that C's libm lacks or leaves open,
 * shared by the kernel executor (libdevice's functions, exec_tile.c) and
 * the torch module (torch.erfinv and friends, tensor_ops.c), so a kernel
 * and the host compute the same values.
 *
 * Floating-point functions take and return double; an fp32 caller
 * converts its argument (exactly) and rounds the result once.  Where CUDA
 * defines a result that C leaves open (ilogb of 0 or NaN, float-to-int
 * conversions out of range), the function gives CUDA's. */
#ifndef TRITSIM_MATHFN_H
#define TRITSIM_MATHFN_H

#include <stdint.h>

/* The inverse error function: erf(mathfn_erfinv(x)) == x; +-1 give +-inf,
 * |x| > 1 and NaN give NaN.  Accurate to an ulp or two of double. */
double mathfn_erfinv(double x);
/* The inverse complementary error function, erfc(mathfn_erfcinv(q)) == q
 * for q in [0, 2] (0 gives +inf, 2 -inf), accurate for tiny q where
 * erfinv(1 - q) is not; and the inverse of the standard normal
 * distribution function, -sqrt(2) erfcinv(2 p). */
double mathfn_erfcinv(double q);
double mathfn_normcdfinv(double p);
/* sin(pi x) and cos(pi x) with the argument reduced exactly: sinpi of an
 * integer is a zero of x's sign, cospi of n + 1/2 is +0. */
double mathfn_sinpi(double x);
double mathfn_cospi(double x);
/* 10^x */
double mathfn_exp10(double x);
/* log|gamma(x)|, without writing the global signgam (lgamma_r): kernels
 * run on several threads. */
double mathfn_lgamma(double x);
/* The standard normal distribution function, 0.5 erfc(-x / sqrt 2). */
double mathfn_normcdf(double x);
/* Bessel functions of the first and second kind (POSIX's j0 ... yn);
 * jn and yn give NaN for a negative order n, as CUDA's do. */
double mathfn_j0(double x);
double mathfn_j1(double x);
double mathfn_y0(double x);
double mathfn_y1(double x);
double mathfn_jn(int n, double x);
double mathfn_yn(int n, double x);
/* x clamped to [0, 1]; NaN gives 0 (CUDA's __saturatef). */
double mathfn_saturate(double x);
/* The unbiased exponent; CUDA's values where C's are the platform's:
 * 0 and NaN give INT32_MIN, +-inf INT32_MAX. */
int32_t mathfn_ilogb(double x);
/* x rounded to an integer (to nearest even, or half away from zero),
 * saturated to int64; NaN gives 0 (the GPU's cvt). */
int64_t mathfn_llrint(double x);
int64_t mathfn_llround(double x);

/* ---- bits ---------------------------------------------------------------- */

static inline int32_t mathfn_popc(uint64_t x) { return (int32_t)__builtin_popcountll(x); }
/* Leading zeros in a value of `bits` bits (32 or 64); bits for 0. */
static inline int32_t mathfn_clz(uint64_t x, int bits)
{
    return x ? (int32_t)__builtin_clzll(x) - (64 - bits) : bits;
}
/* The position (from 1) of the lowest set bit; 0 for 0. */
static inline int32_t mathfn_ffs(uint64_t x)
{
    return x ? (int32_t)__builtin_ctzll(x) + 1 : 0;
}
/* The low `bits` bits of x in reverse order. */
uint64_t mathfn_brev(uint64_t x, int bits);
/* The high half of the 2N-bit product of two N-bit integers, N = bits
 * (8 to 64), signed or unsigned. */
uint64_t mathfn_mulhi_u(uint64_t a, uint64_t b, int bits);
uint64_t mathfn_mulhi_s(int64_t a, int64_t b, int bits);
/* CUDA's __byte_perm(x, y, s): byte n of the result is byte s<4n+2:4n>
 * of the 8-byte value y:x. Bit 4n+3 and bits 16 .. 31 of s are ignored
 * (no sign replication, unlike PTX prmt's default mode). */
uint32_t mathfn_byte_perm(uint32_t x, uint32_t y, uint32_t s);

#endif
