#!/usr/bin/env python3
"""compare.py - compare a program's output on a GPU backend with its golden
file (the CPU's output) and say how far apart they are.

    python3 tests/gpu/compare.py [--rtol R] EXPECTED GOT

Prints one line, a verdict, a tab, and a detail:

    same     the two files are byte-identical
    close    they differ only where doc/ir.md section 4 allows a tolerance:
             - in floating-point numbers, each within the relative tolerance
               R (default 1e-5) of the expected value, or, where both are
               printed with the same number of digits (a fixed format such
               as torch's tensor repr or f"{x:.4f}"), by at most one unit of
               the last digit: text rounded from values that agree to within
               R can differ there; the detail gives the largest relative
               difference and where it is;
             - or in the order and repetition of whole lines (prints from
               many GPU threads, doc/ir.md 3.12 and 4.2), when the sorted
               lines without repeats are the same.
    fails    anything else; the detail names the first differing line.

What counts as a floating-point number: a token of digits with a decimal
point or an exponent (1.5, 1., .5, 2e-3, -1.2500e+00), not inside a word
(fp32, x1, 0x3f80 are text).  Integers (no point, no exponent) must be
equal: they are exact on both sides (doc/ir.md 4.1).  nan and inf are text
and must be equal.  Text between the numbers must be equal, except for runs
of spaces: a printer that pads numbers into columns (torch's tensor repr)
changes the padding when a sign or a digit count changes.
"""
import re
import sys

NUMBER = re.compile(
    r"(?<![\w.])"                      # not inside a word or a number
    r"(?:0[xX][0-9a-fA-F]+"            # hex: kept as text, compared exactly
    r"|[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?)"
    r"(?![\w.])")


def tokens(line):
    """Split a line into ('text', s) and ('num', s) pieces, alternating."""
    out = []
    pos = 0
    for m in NUMBER.finditer(line):
        out.append(("text", line[pos:m.start()]))
        out.append(("num", m.group(0)))
        pos = m.end()
    out.append(("text", line[pos:]))
    return out


def is_float(tok):
    low = tok.lower()
    return not low.startswith(("0x", "-0x", "+0x")) and ("." in tok or "e" in low)


def last_digit_unit(tok):
    """The value of one unit in the last printed digit of a float token."""
    low = tok.lower()
    mant, _, exp = low.partition("e")
    scale = 10.0 ** int(exp) if exp else 1.0
    mant = mant.lstrip("+-")
    if "." in mant:
        decimals = len(mant.split(".", 1)[1])
    else:
        decimals = 0
    return scale * 10.0 ** (-decimals)


class Diff:
    """The state of one comparison: the largest relative difference seen and
    how many numbers needed the last-digit rule."""

    def __init__(self, rtol):
        self.rtol = rtol
        self.numbers = 0          # float numbers that differ
        self.max_rel = 0.0
        self.where = ""
        self.digit_only = 0       # beyond rtol but within one printed unit
        self.spaces = False

    def line(self, n, want, got):
        """None if line n agrees within the rules, else why it does not."""
        tw, tg = tokens(want), tokens(got)
        if len(tw) != len(tg):
            return "other text or another count of numbers"
        for (kind, a), (_, b) in zip(tw, tg):
            if a == b:
                continue
            if kind == "text":
                if re.sub(r" +", " ", a).strip() != re.sub(r" +", " ", b).strip():
                    return "other text"
                self.spaces = True
                continue
            if not (is_float(a) and is_float(b)):
                return f"integer {b} where the golden file has {a}"
            x, y = float(a), float(b)
            diff = abs(x - y)
            rel = diff / max(abs(x), abs(y)) if diff else 0.0
            self.numbers += 1
            if rel > self.max_rel:
                self.max_rel = rel
                self.where = f"line {n}: {a} vs {b}"
            if rel <= self.rtol:
                continue
            unit = last_digit_unit(a)
            if unit == last_digit_unit(b) and diff <= unit * (1 + 1e-9):
                self.digit_only += 1
                continue
            return f"{a} vs {b}: relative difference {rel:.3g} > {self.rtol:g}"
        return None


def show(s, width=100):
    s = s.rstrip("\n")
    return s if len(s) <= width else s[:width] + "..."


def compare(want_text, got_text, rtol):
    """(verdict, detail) for two outputs."""
    if want_text == got_text:
        return "same", ""
    want = want_text.split("\n")
    got = got_text.split("\n")
    d = Diff(rtol)
    first_bad = None
    if len(want) != len(got):
        n = next((i for i, (a, b) in enumerate(zip(want, got)) if a != b),
                 min(len(want), len(got)))
        first_bad = (n, f"{len(got)} lines where the golden file has {len(want)}")
    else:
        for i, (a, b) in enumerate(zip(want, got)):
            why = d.line(i + 1, a, b)
            if why:
                first_bad = (i, why)
                break
    if first_bad is None:
        detail = (f"{d.numbers} numbers differ, largest relative difference "
                  f"{d.max_rel:.3g} ({d.where})")
        if d.digit_only:
            detail += f"; {d.digit_only} only in the last printed digit"
        if d.spaces:
            detail += "; spacing differs"
        return "close", detail
    if sorted(set(want)) == sorted(set(got)):
        return "close", "the same lines in another order or with repeats (prints)"
    i, why = first_bad
    a = want[i] if i < len(want) else "(end of output)"
    b = got[i] if i < len(got) else "(end of output)"
    return "fails", f"line {i + 1}: {why}: expected `{show(a)}`, got `{show(b)}`"


def main(argv):
    rtol = 1e-5
    args = list(argv[1:])
    if len(args) >= 2 and args[0] == "--rtol":
        rtol = float(args[1])
        args = args[2:]
    if len(args) != 2:
        print("usage: compare.py [--rtol R] EXPECTED GOT", file=sys.stderr)
        return 2
    with open(args[0], encoding="utf-8", errors="surrogateescape") as f:
        want = f.read()
    with open(args[1], encoding="utf-8", errors="surrogateescape") as f:
        got = f.read()
    verdict, detail = compare(want, got, rtol)
    print(f"{verdict}\t{detail}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
