"""triton.testing for tritsim's triton: do_bench, perf_report / Benchmark,
assert_close, in Python.

do_bench times with the host's clock (kernels on the CPU end before their
launch returns), synchronizing CUDA first where PyTorch has initialized it.
perf_report prints its table (with pandas where it is installed, as Triton
does) and draws its plot with matplotlib where that is installed.
"""

import math
import os
import sys
import time


def _sync():
    torch = sys.modules.get("torch")
    if torch is not None:
        try:
            if torch.cuda.is_available() and torch.cuda.is_initialized():
                torch.cuda.synchronize()
        except Exception:
            pass


def _quantile(sorted_times, q):
    """torch.quantile's linear interpolation."""
    n = len(sorted_times)
    pos = q * (n - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, n - 1)
    return sorted_times[lo] + (sorted_times[hi] - sorted_times[lo]) * (pos - lo)


def do_bench(fn, warmup=25, rep=100, grad_to_none=None, quantiles=None, return_mode="mean"):
    """Time fn in milliseconds as Triton's do_bench does: estimate one run,
    run about warmup ms to warm up, then time about rep ms of runs one by
    one; the mean (or min, max, median, all), or the given quantiles."""
    assert return_mode in ("min", "max", "mean", "median", "all")
    fn()
    _sync()
    t0 = time.perf_counter()
    for _ in range(5):
        fn()
    _sync()
    estimate_ms = max((time.perf_counter() - t0) * 1000 / 5, 1e-6)
    n_warmup = max(1, int(warmup / estimate_ms))
    n_repeat = max(1, int(rep / estimate_ms))
    for _ in range(n_warmup):
        fn()
    times = []
    for _ in range(n_repeat):
        if grad_to_none is not None:
            for x in grad_to_none:
                x.grad = None
        _sync()
        t = time.perf_counter()
        fn()
        _sync()
        times.append((time.perf_counter() - t) * 1000)
    times.sort()
    if quantiles is not None:
        ret = [_quantile(times, q) for q in quantiles]
        return ret[0] if len(ret) == 1 else ret
    if return_mode == "all":
        return times
    if return_mode == "min":
        return times[0]
    if return_mode == "max":
        return times[-1]
    if return_mode == "median":
        return _quantile(times, 0.5)
    return sum(times) / len(times)


def do_bench_cudagraph(fn, rep=20, grad_to_none=None, quantiles=None, return_mode="mean"):
    return do_bench(fn, rep=rep, grad_to_none=grad_to_none, quantiles=quantiles,
                    return_mode=return_mode)


def assert_close(x, y, atol=None, rtol=None, err_msg=""):
    """Triton's assert_close: |x - y| <= atol + rtol * |y| everywhere
    (atol 1e-2 and rtol 0 by default; NaNs equal)."""
    import torch

    if atol is None:
        atol = 1e-2
    if rtol is None:
        rtol = 0.0
    def as_tensor(v):
        if isinstance(v, torch.Tensor):
            return v.detach().cpu().double()
        return torch.tensor(v, dtype=torch.float64)
    xs, ys = as_tensor(x), as_tensor(y)
    atol = atol(x.dtype) if callable(atol) else atol
    rtol = rtol(x.dtype) if callable(rtol) else rtol
    if xs.numel() > 1 or ys.numel() > 1:
        ok = torch.isclose(xs, ys, rtol=rtol, atol=atol, equal_nan=True)
        if not bool(ok.all()):
            bad = int((~ok).sum())
            diff = (xs - ys).abs()
            diff = diff[~torch.isnan(diff)]
            worst = float(diff.max()) if diff.numel() else float("nan")
            raise AssertionError("%s\nNot equal to tolerance rtol=%g, atol=%g\nMismatched "
                                 "elements: %d / %d\nMax absolute difference: %g"
                                 % (err_msg, rtol, atol, bad, ok.numel(), worst))
        return
    if not bool(torch.isclose(xs, ys, rtol=rtol, atol=atol, equal_nan=True).all()):
        raise AssertionError("%s %s is not close to %s (atol=%s, rtol=%s)"
                             % (err_msg, x, y, atol, rtol))


class Benchmark:
    """One plot of perf_report: x_names over x_vals, a line per line_vals."""

    def __init__(self, x_names, x_vals, line_arg, line_vals, line_names, plot_name, args,
                 xlabel="", ylabel="", x_log=False, y_log=False, styles=None, color=None):
        self.x_names = x_names
        self.x_vals = x_vals
        self.x_log = x_log
        self.line_arg = line_arg
        self.line_vals = line_vals
        self.line_names = line_names
        self.y_log = y_log
        self.styles = styles
        self.xlabel = xlabel
        self.ylabel = ylabel
        self.plot_name = plot_name
        self.args = args


def _table(header, rows):
    """The table as pandas' DataFrame.to_string prints it (an index column,
    right-aligned cells)."""
    def fmt(v):
        if isinstance(v, float):
            return "%.6f" % v
        return str(v)
    cells = [[str(i)] + [fmt(v) for v in r] for i, r in enumerate(rows)]
    head = [""] + list(header)
    widths = [max([len(head[c])] + [len(r[c]) for r in cells]) for c in range(len(head))]
    lines = [" ".join(h.rjust(w) for h, w in zip(head, widths))]
    lines += [" ".join(v.rjust(w) for v, w in zip(r, widths)) for r in cells]
    return "\n".join(lines)


class Mark:
    def __init__(self, fn, benchmarks):
        self.fn = fn
        self.benchmarks = benchmarks

    def _run(self, bench, save_path, show_plots, print_data, diff_col=False, **kwargs):
        rows = []
        y_min, y_max = [], []
        for x in bench.x_vals:
            if not isinstance(x, (list, tuple)):
                x = [x for _ in bench.x_names]
            x_args = dict(zip(bench.x_names, x))
            row, lo, hi = list(x), [], []
            for y in bench.line_vals:
                ret = self.fn(**x_args, **{bench.line_arg: y}, **bench.args, **kwargs)
                if isinstance(ret, (list, tuple)):
                    mean, mn, mx = (list(ret) + [None, None])[:3]
                else:
                    mean, mn, mx = ret, None, None
                row.append(mean)
                lo.append(mn)
                hi.append(mx)
            rows.append(row)
            y_min.append(lo)
            y_max.append(hi)
        header = list(bench.x_names) + list(bench.line_names)
        try:
            import pandas as pd
            df = pd.DataFrame(rows, columns=header)
        except ImportError:
            df = None
        if bench.plot_name and (show_plots or save_path):
            self._plot(bench, rows, y_min, y_max, save_path, show_plots)
        if print_data:
            print(bench.plot_name + ":")
            print(df.to_string() if df is not None else _table(header, rows))
        if save_path:
            path = os.path.join(save_path, "%s.csv" % bench.plot_name)
            if df is not None:
                df.to_csv(path, float_format="%.1f", index=False)
            else:
                with open(path, "w") as f:
                    f.write(",".join(header) + "\n")
                    for r in rows:
                        f.write(",".join(str(v) for v in r) + "\n")
        return df

    def _plot(self, bench, rows, y_min, y_max, save_path, show_plots):
        try:
            import matplotlib.pyplot as plt
        except ImportError:
            print("tritsim: matplotlib is not installed: no plot for %s" % bench.plot_name,
                  file=sys.stderr)
            return
        plt.figure()
        ax = plt.subplot()
        xs = [r[0] for r in rows]
        nx = len(bench.x_names)
        for i, name in enumerate(bench.line_names):
            col, style = (bench.styles[i] if bench.styles else (None, None))
            ax.plot(xs, [r[nx + i] for r in rows], label=name, color=col, ls=style)
        ax.legend()
        ax.set_xlabel(bench.xlabel or bench.x_names[0])
        ax.set_ylabel(bench.ylabel)
        if bench.x_log:
            ax.set_xscale("log")
        if bench.y_log:
            ax.set_yscale("log")
        if show_plots:
            plt.show()
        if save_path:
            plt.savefig(os.path.join(save_path, "%s.png" % bench.plot_name))
        plt.close()

    def run(self, show_plots=False, print_data=False, save_path="", return_df=False, **kwargs):
        benchmarks = [self.benchmarks] if isinstance(self.benchmarks, Benchmark) \
            else self.benchmarks
        result = []
        if save_path:
            os.makedirs(save_path, exist_ok=True)
        for bench in benchmarks:
            result.append(self._run(bench, save_path, show_plots, print_data, **kwargs))
        if return_df:
            return result[0] if len(result) == 1 else result
        return None


def perf_report(benchmarks):
    """@triton.testing.perf_report(Benchmark(...)): fn.run(print_data=True,
    show_plots=..., save_path=...) runs it over the benchmark's grid."""
    return lambda fn: Mark(fn, benchmarks)
