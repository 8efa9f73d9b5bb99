# corpus_check.py - what every corpus driver shares: putting a project's
# code on sys.path, comparing tensors with a tolerance, and the RESULT line.
#
# A driver does
#
#     import os, sys
#     sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
#     import corpus_check as cc
#     cc.use_project("liger", "src")
#     ...
#     cc.close("forward fp32 (2, 8, 64)", got, want, atol=1e-5, rtol=1e-5)
#     ...
#     cc.finish()
#
# and runs unchanged under `tritsim run` (CPU simulation) and `python3`
# (real PyTorch and Triton on a GPU).  finish() prints the driver's last
# line: "RESULT ok", or "RESULT fail: <first difference> (+N more)".
import os
import sys

import torch

DEVICE = "cuda"
_failures = []
_checks = [0]


def use_project(name, subdir="."):
    """Put CORPUS_SRC/<name>/<subdir> at the front of sys.path (CORPUS_SRC
    defaults to corpus-src/ at the top of the repository)."""
    root = os.environ.get("CORPUS_SRC")
    if not root:
        # the repository's corpus-src/, three folders above this file
        here = os.path.dirname(os.path.abspath(__file__))
        root = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(here))), "corpus-src")
    path = os.path.join(root, name) if subdir in (".", "") else os.path.join(root, name, subdir)
    if not os.path.isdir(path):
        print("RESULT fail: no folder " + path + " (run tools/corpus/setup-sources.sh)")
        sys.exit(1)
    sys.path.insert(0, path)
    return path


def seed(n=0):
    torch.manual_seed(n)


def fail(what):
    """Record a failure that is not a tensor comparison."""
    _failures.append(what)


def check(what, cond):
    _checks[0] += 1
    if not cond:
        _failures.append(what)


def close(what, got, want, atol, rtol=0.0):
    """Compare got with want elementwise: |got - want| <= atol + rtol * |want|,
    NaN only where want has NaN.  Both are compared in float32 on the CPU."""
    _checks[0] += 1
    if got is None or want is None:
        if got is not want:
            _failures.append("%s: one side is None" % what)
        return False
    if not isinstance(got, torch.Tensor):
        got = torch.tensor(got)
    if not isinstance(want, torch.Tensor):
        want = torch.tensor(want)
    if tuple(got.shape) != tuple(want.shape):
        _failures.append("%s: shape %s, expected %s" % (what, tuple(got.shape), tuple(want.shape)))
        return False
    g = got.detach().float().cpu()
    w = want.detach().float().cpu()
    if g.numel() == 0:
        return True
    nan_g = torch.isnan(g)
    nan_w = torch.isnan(w)
    if bool((nan_g != nan_w).any()):
        _failures.append("%s: NaN in %d places where the reference has none (or the reverse)"
                         % (what, int((nan_g != nan_w).sum())))
        return False
    g = torch.where(nan_w, torch.zeros_like(g), g)
    w = torch.where(nan_w, torch.zeros_like(w), w)
    inf_mismatch = (torch.isinf(g) | torch.isinf(w)) & (g != w)
    if bool(inf_mismatch.any()):
        _failures.append("%s: infinities differ in %d places" % (what, int(inf_mismatch.sum())))
        return False
    finite = ~torch.isinf(w)
    diff = torch.where(finite, (g - w).abs(), torch.zeros_like(g))
    bound = atol + rtol * w.abs()
    bad = diff > bound
    if bool(bad.any()):
        _failures.append("%s: max abs diff %.3g, %d of %d elements out of tolerance (atol %g, rtol %g)"
                         % (what, float(diff.max()), int(bad.sum()), g.numel(), atol, rtol))
        return False
    return True


def finish():
    """Print the driver's last line and exit with 0 (ok) or 1 (fail)."""
    sys.stdout.flush()
    if _failures:
        more = ""
        if len(_failures) > 1:
            more = " (+%d more)" % (len(_failures) - 1)
        print("RESULT fail: " + _failures[0] + more)
        sys.exit(1)
    if _checks[0] == 0:
        print("RESULT fail: the driver compared nothing")
        sys.exit(1)
    print("RESULT ok")
    sys.exit(0)
