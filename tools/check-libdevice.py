#!/usr/bin/env python3
"""check-libdevice.py - the evidence behind tests/kernels/libdevice.out: every
value it prints is recomputed independently and compared.

    tools/check-libdevice.py [tests/kernels/libdevice.out]

  - rounded operations (add/sub/mul/div/fma/rcp/sqrt _rn/_rz/_rd/_ru) and the
    conversions (float2int_rz, ll2float_ru, ...): the exact result
    (fractions.Fraction) rounded to fp32/fp64/ints in that mode, bit for bit;
  - functions CPython's math module has: its value (the same libm), rounded
    to fp32 for the fp32 rows, bit for bit;
  - erfinv, erfcinv, sinpi, cospi, normcdf, normcdfinv, exp10, rcbrt,
    lgamma, tgamma and the Bessel functions: mpmath at 200 bits; prints the largest error in ulps
    (fp32 rows are correctly rounded: below 0.5);
  - the integer functions: Python integers.

A developer's check, not a test (it needs mpmath).  Exit status 1 when a
value differs."""
import math
import re
import struct
import sys
from fractions import Fraction as Fr

import mpmath

mpmath.mp.prec = 200
nan, inf = float("nan"), float("inf")

# The inputs of tests/kernels/libdevice.tk.
X = [nan, inf, -inf, 0.0, -0.0, 1e-40, 0.25, -0.5, 0.999, 1.0, 2.5, -7.25, 100.0]
X2 = [nan, 1.0, -1.0, 0.0, -0.0, inf, 1e-40, 2.5, 0.1, -7.25, 100.0, 1.0, 5.0]
Y2 = [1.0, 3.0, 3.0, -0.0, 0.0, inf, 3.0, -2.0, 0.7, 2.0, -100.0, nan, 1e-40]
Z3 = [1.0, 0.0, -1.0, -0.0, 0.0, -inf, 1e-40, 5.0, 1.0, 1.0, 0.5, 2.0, nan]
N2 = [0, 1, -1, 2, 3, -2, 10, -149, 1, 2, 100, 3, -1]
I32 = [0, 1, -1, 2147483647, -2147483648, 305419896, -123456, 1024]
I64 = [0, 1, -1, 9223372036854775807, -9223372036854775808, 1311768467463790320,
       -123456789012, 1099511627776]
J32 = [3, -7, 2147483647, -2147483648, 65536, -1, 16777215, 8388608]
J64 = [3, -7, 9223372036854775807, -9223372036854775808, 4294967296, -1, 123456789,
       -987654321]
S32 = [5, 0, 100, -100, 7, 2147483647, 0, 1]
SEL = [0x3210, 0x7654, 0x0123, 0x4444, 0x1357, 0x8888, 0x0000, 0x7531]
C = [nan, inf, -inf, -0.0, 2.5, -2.5, 3.5, 0.1, -0.7, 1e10, -1e10, 16777217.0, 1e-40,
     4294967295.5]
CI = [0, 1, -1, 16777217, -16777217, 2147483647, -2147483648, 33554435]
CL = [0, 1, -1, 9007199254740993, -9007199254740993, 9223372036854775807,
      -9223372036854775808, 18014398509481987]

FORMATS = {"fp32": (24, -126, 128), "fp64": (53, -1022, 1024)}
checked = bad = 0
worst = {}


def to32(x):
    try:
        return struct.unpack("f", struct.pack("f", x))[0]
    except OverflowError:
        return math.copysign(inf, x)


def same(got, want):
    if got != got or want != want:
        return got != got and want != want
    return got == want and math.copysign(1, got) == math.copysign(1, want)


def check(what, got, want):
    global checked, bad
    checked += 1
    if not same(got, want):
        bad += 1
        print("DIFFERENT", what, "printed", got, "expected", want)


def round_int(q, mode):
    """The integer q rounds to in mode rn (ties to even), rz, rd, ru."""
    fl = q.numerator // q.denominator
    fr = q - fl
    if fr == 0 or mode == "rd":
        return fl
    if mode == "rz":
        return fl if q > 0 else fl + 1
    if mode == "ru":
        return fl + 1
    return fl + (1 if fr > Fr(1, 2) or (fr == Fr(1, 2) and fl % 2) else 0)


def round_float(q, mode, fmt):
    """The exact rational q rounded to fp32/fp64 in mode (q != 0)."""
    p, emin, emax = FORMATS[fmt]
    s, a = (-1 if q < 0 else 1), abs(q)
    e = a.numerator.bit_length() - a.denominator.bit_length()
    while Fr(2) ** e > a:
        e -= 1
    while Fr(2) ** (e + 1) <= a:
        e += 1
    ulp = Fr(2) ** (max(e, emin) - p + 1)
    away = (mode == "ru" and s > 0) or (mode == "rd" and s < 0)
    k = round_int(a / ulp, "rn" if mode == "rn" else "ru" if away else "rz")
    v, biggest = k * ulp, (2 - Fr(2) ** (1 - p)) * Fr(2) ** (emax - 1)
    if v > biggest:
        to_inf = mode == "rn" or away
        return s * (inf if to_inf else float(biggest))
    return s * float(v)


def erfcinv(q):
    """mpmath has no erfcinv: solve log erfc(y) = log q (tiny q too)."""
    if q <= 0 or q >= 2:
        return mpmath.mpf(nan)
    if q == 1:
        return mpmath.mpf(0)
    if q > 1:
        return -erfcinv(2 - q)
    if q > 0.5:
        return mpmath.erfinv(1 - q)
    return mpmath.findroot(lambda t: mpmath.log(mpmath.erfc(t)) - mpmath.log(q),
                           mpmath.sqrt(-mpmath.log(q)))


def ulps(got, exact, fmt):
    e = float(exact) if fmt == "fp64" else to32(float(exact))
    if e == 0 or not math.isfinite(e):
        return 0.0
    u = math.ulp(e) if fmt == "fp64" else max(2.0 ** (math.frexp(e)[1] - 24), 2.0 ** -149)
    return float(abs(mpmath.mpf(got) - exact) / u)


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "tests/kernels/libdevice.out"
    rows = {}
    for line in open(path):
        m = re.match(r"^(\w+) (\w+): (\[.*?\])", line)
        if m:
            rows.setdefault((m.group(1), m.group(2)), []).append(
                eval(m.group(3), {"nan": nan, "inf": inf}))

    for fmt in ("fp32", "fp64"):
        cv = to32 if fmt == "fp32" else float
        x1, x2, y2, z3 = ([cv(v) for v in l] for l in (X, X2, Y2, Z3))
        # rounded operations
        ops = {"add": lambda a, b: a + b, "sub": lambda a, b: a - b,
               "mul": lambda a, b: a * b, "div": lambda a, b: a / b,
               "fma": lambda a, b, c: a * b + c, "rcp": lambda a: 1 / a}
        for op, f in ops.items():
            for mode in ("rn", "rz", "rd", "ru"):
                got = rows[(op + "_" + mode, fmt)][0]
                for i, g in enumerate(got):
                    args = [x1[i]] if op == "rcp" else [x2[i], y2[i], z3[i]]
                    used = args[:1] if op == "rcp" else args[:3 if op == "fma" else 2]
                    if not all(map(math.isfinite, used)) or (op in ("div", "rcp") and
                                                             used[-1] == 0):
                        continue
                    q = f(*(Fr(v) for v in used))
                    if q != 0:
                        check(f"{op}_{mode} {fmt} {used}", g, round_float(q, mode, fmt))
        for mode in ("rn", "rz", "rd", "ru"):
            for x, g in zip(x1, rows[("sqrt_" + mode, fmt)][0]):
                if not math.isfinite(x) or x <= 0:
                    continue
                # g is the rounding of sqrt(x) in mode: compare squares
                v, gg = Fr(x), Fr(g)
                step = Fr(math.ulp(g)) if fmt == "fp64" else Fr(2) ** (math.frexp(g)[1] - 24)
                lo, hi = ((gg, gg + step) if mode in ("rz", "rd") else
                          (gg - step, gg) if mode == "ru" else (gg - step / 2, gg + step / 2))
                check(f"sqrt_{mode} {fmt} {x}", lo * lo <= v <= hi * hi, True)
        # CPython's math module
        exact = {"asin": math.asin, "acos": math.acos, "atan": math.atan, "sinh": math.sinh,
                 "cosh": math.cosh, "tanh": math.tanh, "asinh": math.asinh,
                 "acosh": math.acosh, "atanh": math.atanh, "exp": math.exp,
                 "expm1": math.expm1, "log": math.log, "log2": math.log2,
                 "log10": math.log10, "log1p": math.log1p, "sin": math.sin,
                 "cos": math.cos, "tan": math.tan, "erf": math.erf, "erfc": math.erfc,
                 "sqrt": math.sqrt, "cbrt": math.cbrt, "exp2": math.exp2,
                 "floor": math.floor, "ceil": math.ceil, "trunc": math.trunc,
                 "abs": math.fabs, "rsqrt": lambda v: 1 / math.sqrt(v)}
        for name, f in exact.items():
            for x, g in zip(x1, rows[(name, fmt)][0]):
                if not math.isfinite(x) or x == 0:
                    continue
                try:
                    w = float(f(x))
                except (ValueError, ZeroDivisionError):
                    continue
                except OverflowError:
                    w = inf
                if w == 0:
                    w = math.copysign(0.0, x)
                check(f"{name} {fmt} {x}", g, cv(w))
        for name, f in {"atan2": math.atan2, "hypot": math.hypot, "copysign": math.copysign,
                        "fmod": math.fmod, "remainder": math.remainder, "pow": math.pow,
                        "rhypot": lambda a, b: 1 / math.hypot(a, b)}.items():
            for a, b, g in zip(x2, y2, rows[(name, fmt)][0]):
                if not (math.isfinite(a) and math.isfinite(b)):
                    continue
                try:
                    w = f(a, b)
                except (ValueError, ZeroDivisionError):
                    continue
                except OverflowError:
                    w = inf
                check(f"{name} {fmt} {a} {b}", g, cv(w))
        for name in ("pow", "ldexp", "scalbn"):
            f = math.pow if name == "pow" else math.ldexp
            for a, n, g in zip(x2, N2, rows[(name, fmt)][-1]):
                if not math.isfinite(a):
                    continue
                try:
                    w = f(a, n)
                except (ValueError, ZeroDivisionError):
                    continue
                except OverflowError:
                    w = math.copysign(inf, a)
                check(f"{name} {fmt} {a} {n}", g, cv(w))
        # mpmath
        mp = {"erfinv": mpmath.erfinv, "erfcinv": erfcinv, "sinpi": mpmath.sinpi,
              "cospi": mpmath.cospi, "normcdfinv": lambda v: -mpmath.sqrt(2) * erfcinv(2 * v),
              "normcdf": mpmath.ncdf, "exp10": lambda v: mpmath.mpf(10) ** v,
              "rcbrt": lambda v: 1 / mpmath.cbrt(v), "tgamma": mpmath.gamma,
              "lgamma": lambda v: mpmath.log(abs(mpmath.gamma(v))),
              "j0": lambda v: mpmath.besselj(0, v), "j1": lambda v: mpmath.besselj(1, v),
              "y0": lambda v: mpmath.bessely(0, v), "y1": lambda v: mpmath.bessely(1, v)}
        for name, f in mp.items():
            for x, g in zip(x1, rows[(name, fmt)][0]):
                if not math.isfinite(x) or x == 0 or not math.isfinite(g):
                    continue
                e = f(mpmath.mpf(x))
                if isinstance(e, mpmath.mpc):
                    continue
                worst[(name, fmt)] = max(worst.get((name, fmt), 0.0), ulps(g, e, fmt))

    # conversions
    for mode in ("rn", "rz", "rd", "ru"):
        for base, src, bits, signed in [("float2int", "fp32", 32, True),
                                        ("float2uint", "fp32", 32, False),
                                        ("float2ll", "fp32", 64, True),
                                        ("float2ull", "fp32", 64, False),
                                        ("double2int", "fp64", 32, True),
                                        ("double2uint", "fp64", 32, False),
                                        ("double2ll", "fp64", 64, True),
                                        ("double2ull", "fp64", 64, False)]:
            lo, hi = ((-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed
                      else (0, (1 << bits) - 1))
            for x, g in zip(C, rows[(f"{base}_{mode}", src)][0]):
                x = to32(x) if src == "fp32" else x
                w = 0 if x != x else (hi if x > 0 else lo) if math.isinf(x) else \
                    max(lo, min(hi, round_int(Fr(x), mode)))
                check(f"{base}_{mode} {x}", g, w - (1 << bits) if w >= 1 << (bits - 1) else w)
        for x, g in zip(C, rows[(f"double2float_{mode}", "fp64")][0]):
            if math.isfinite(x) and x:
                check(f"double2float_{mode} {x}", g, round_float(Fr(x), mode, "fp32"))
        for base, vals, key, fmt in [
                ("int2float", CI, "int32", "fp32"),
                ("uint2float", [v & 0xffffffff for v in CI], "uint32", "fp32"),
                ("ll2float", CL, "int64", "fp32"),
                ("ull2float", [v & (2 ** 64 - 1) for v in CL], "uint64", "fp32"),
                ("ll2double", CL, "int64", "fp64"),
                ("ull2double", [v & (2 ** 64 - 1) for v in CL], "uint64", "fp64")]:
            for v, g in zip(vals, rows[(f"{base}_{mode}", key)][0]):
                check(f"{base}_{mode} {v}", g, round_float(Fr(v), mode, fmt) if v else 0.0)

    # integers
    def u(v, b):
        return v & ((1 << b) - 1)

    def s(v, b):
        v = u(v, b)
        return v - (1 << b) if v >> (b - 1) else v

    def same_list(key, want):
        check(" ".join(key), rows[key][0] == want, True)

    for b, vals, t in ((32, I32, "int32"), (64, I64, "int64")):
        same_list(("clz", t), [b - u(v, b).bit_length() for v in vals])
        same_list(("popc", t), [bin(u(v, b)).count("1") for v in vals])
        same_list(("ffs", t), [(u(v, b) & -u(v, b)).bit_length() for v in vals])
        same_list(("brev", t), [s(int(format(u(v, b), f"0{b}b")[::-1], 2), b) for v in vals])
        same_list(("abs", t), [s(abs(v), b) for v in vals])
    same_list(("mulhi", "int32"), [(a * c) >> 32 for a, c in zip(I32, J32)])
    same_list(("mulhi", "uint32"), [(u(a, 32) * u(c, 32)) >> 32 for a, c in zip(I32, J32)])
    same_list(("mulhi", "int64"), [(a * c) >> 64 for a, c in zip(I64, J64)])
    same_list(("mulhi", "uint64"), [(u(a, 64) * u(c, 64)) >> 64 for a, c in zip(I64, J64)])
    same_list(("mul24", "int32"), [s(s(a, 24) * s(c, 24), 32) for a, c in zip(I32, J32)])
    same_list(("mul24", "uint32"), [u(u(a, 24) * u(c, 24), 32) for a, c in zip(I32, J32)])
    same_list(("hadd", "int32"), [(a + c) >> 1 for a, c in zip(I32, J32)])
    same_list(("rhadd", "int32"), [(a + c + 1) >> 1 for a, c in zip(I32, J32)])
    same_list(("hadd", "uint32"), [(u(a, 32) + u(c, 32)) >> 1 for a, c in zip(I32, J32)])
    same_list(("rhadd", "uint32"), [(u(a, 32) + u(c, 32) + 1) >> 1 for a, c in zip(I32, J32)])
    same_list(("sad", "int32"), [s(abs(a - c) + u(z, 32), 32) for a, c, z in zip(I32, J32, S32)])
    same_list(("sad", "uint32"),
              [u(abs(u(a, 32) - u(c, 32)) + u(z, 32), 32) for a, c, z in zip(I32, J32, S32)])

    def byte_perm(x, y, sel):
        bytes8, r = u(x, 32) | (u(y, 32) << 32), 0
        for n in range(4):
            q = (sel >> (4 * n)) & 15
            byte = (bytes8 >> (8 * (q & 7))) & 255
            if q & 8:
                byte = 255 if byte & 128 else 0
            r |= byte << (8 * n)
        return s(r, 32)

    same_list(("byte_perm", "int32"), [byte_perm(x, y, q) for x, y, q in zip(I32, J32, SEL)])

    print(f"checked {checked} values: {bad} different")
    print("largest error against mpmath, in ulps:")
    for (name, fmt), e in sorted(worst.items()):
        print(f"  {name} {fmt}: {e:.3f}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
