# corpus_check.py - what every corpus driver shares: putting a project's
# code on sys.path, comparing tensors with a tolerance (a function's outputs
# and gradients with a reference's too), and the RESULT line; and the
# references more than one driver computes (rotary embeddings).
#
# A driver does
#
#     import os, sys
#     sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
#     import corpus_check as cc
#     cc.use_project("liger", "src")
#     ...
#     cc.close("forward fp32 (2, 8, 64)", got, want, atol=1e-5, rtol=1e-5)
#     cc.forward_backward(tag, ("q", "k"), (q, k), reference, candidate, atol, rtol)
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


def close_dtype(what, got, want, dtype, tol):
    """close() at the tolerance tol[dtype] = (atol, rtol), dtype's name
    (float16, bfloat16...) added to what."""
    atol, rtol = tol[dtype]
    return close("%s %s" % (what, str(dtype).replace("torch.", "")), got, want, atol, rtol)


def forward_backward(tag, names, inputs, reference, candidate, atol, rtol=0.0):
    """Compare candidate(*xs) with reference(*xs), each called on its own
    leaf copies of inputs (requiring grad) and giving one output for each
    input: the outputs, labelled "<name> <tag>", then the inputs' gradients,
    labelled "d<name> <tag>", under the same random output gradients (one
    torch.randn_like for each reference output, drawn in order)."""
    ref_in = [x.clone().requires_grad_(True) for x in inputs]
    cand_in = [x.clone().requires_grad_(True) for x in inputs]
    want = tuple(reference(*ref_in))
    got = tuple(candidate(*cand_in))
    for name, g, w in zip(names, got, want):
        close(name + " " + tag, g, w, atol, rtol)
    grads = [torch.randn_like(w) for w in want]
    r1 = torch.autograd.grad(want, tuple(ref_in), tuple(grads))
    r2 = torch.autograd.grad(got, tuple(cand_in), tuple(g.clone() for g in grads))
    for name, g, w in zip(names, r2, r1):
        close("d" + name + " " + tag, g, w, atol, rtol)


# ---- rotary embeddings (Liger's rope and qwen2vl_mrope drivers) ----

def rope_cos_sin(pos, head_dim, base=10000.0):
    """cos and sin of positions pos (any shape) times the inverse
    frequencies base ** (-2i / head_dim), each half repeated: (..., head_dim)."""
    inv = 1.0 / (base ** (torch.arange(0, head_dim, 2, device=DEVICE).float() / head_dim))
    ang = pos.float()[..., None] * inv
    ang = torch.cat((ang, ang), dim=-1)
    return ang.cos(), ang.sin()


def rotate_half(x):
    """(-second half, first half) of the last dimension."""
    h = x.shape[-1] // 2
    return torch.cat((-x[..., h:], x[..., :h]), dim=-1)


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
