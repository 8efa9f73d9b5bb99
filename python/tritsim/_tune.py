"""triton.Config, triton.autotune and triton.heuristics for tritsim's triton.

They work as Triton's do, in Python: autotune times each config's launch
with triton.testing.do_bench the first time it sees a key, keeps the
fastest and launches with it; heuristics compute constexpr arguments from
the others.  Only the launches go to tritsim (JITFunction.run).
"""

import builtins
import os
import time

from _tritsim import KernelError

from ._jit import KernelInterface


class OutOfResources(Exception):
    """A config needs more of the device than it has (never on the CPU)."""


class CompileTimeAssertionFailure(Exception):
    """A tl.static_assert failed for a config: autotune skips it."""


class Config:
    """triton.Config(kwargs, num_warps=4, num_stages=3, ...): one set of
    meta-parameters for autotune."""

    def __init__(self, kwargs, num_warps=4, num_stages=3, num_ctas=1, maxnreg=None,
                 pre_hook=None, **_):
        self.kwargs = dict(kwargs)
        self.num_warps = num_warps
        self.num_stages = num_stages
        self.num_ctas = num_ctas
        self.maxnreg = maxnreg
        self.pre_hook = pre_hook

    def all_kwargs(self):
        opts = {"num_warps": self.num_warps, "num_stages": self.num_stages,
                "num_ctas": self.num_ctas, "maxnreg": self.maxnreg}
        return {**self.kwargs, **{k: v for k, v in opts.items() if v is not None}}

    def __str__(self):
        res = ["%s: %s" % (k, v) for k, v in self.kwargs.items()]
        res.append("num_warps: %s" % self.num_warps)
        res.append("num_ctas: %s" % self.num_ctas)
        res.append("num_stages: %s" % self.num_stages)
        res.append("maxnreg: %s" % self.maxnreg)
        return ", ".join(res)

    __repr__ = __str__


def _arg_names(fn):
    while not hasattr(fn, "arg_names"):
        fn = fn.fn
    return fn.arg_names


class Autotuner(KernelInterface):
    def __init__(self, fn, configs, key, reset_to_zero=None, restore_value=None,
                 pre_hook=None, post_hook=None, prune_configs_by=None, warmup=None, rep=None,
                 do_bench=None, cache_results=False):
        self.fn = fn
        self.arg_names = _arg_names(fn)
        self.configs = list(configs) or [Config({})]
        self.keys = list(key)
        self.reset_to_zero = list(reset_to_zero or ())
        self.restore_value = list(restore_value or ())
        self.user_pre_hook = pre_hook
        self.user_post_hook = post_hook
        prune = prune_configs_by or {}
        self.perf_model = prune.get("perf_model")
        self.top_k = prune.get("top_k", 1.0)
        self.early_config_prune = prune.get("early_config_prune")
        self.num_warmups = 25 if warmup is None else warmup
        self.num_reps = 100 if rep is None else rep
        self.user_do_bench = do_bench
        self.cache = {}
        self.configs_timings = None
        self.best_config = None
        self.__name__ = getattr(fn, "__name__", "kernel")

    def _key(self, all_args):
        key = [all_args[k] for k in self.keys if k in all_args]
        for arg in all_args.values():
            if hasattr(arg, "dtype"):
                key.append(str(arg.dtype))
        return tuple(key)

    def _prune(self, nargs, kwargs):
        configs = self.configs
        if self.early_config_prune:
            configs = self.early_config_prune(configs, nargs, **kwargs)
        if self.perf_model:
            top_k = self.top_k
            if isinstance(top_k, float) and top_k <= 1.0:
                top_k = int(len(configs) * top_k)
            top_k = max(top_k, 1)
            if len(configs) > top_k:
                est = {c: self.perf_model(**nargs, **kwargs, **c.all_kwargs()) for c in configs}
                configs = sorted(est, key=est.get)[:top_k]
        return configs

    def _bench(self, config, grid, args, kwargs, nargs):
        from .shim.triton import testing  # noqa: the package's own triton.testing

        full = {**nargs, **kwargs, **config.all_kwargs()}
        saved = {}

        def call():
            if config.pre_hook:
                config.pre_hook(full)
            for name in self.reset_to_zero:
                nargs[name].zero_()
            for name in self.restore_value:
                saved[name] = nargs[name].clone()
            if self.user_pre_hook:
                self.user_pre_hook(full)
            try:
                self.fn.run(grid, args, {**kwargs, **config.all_kwargs()})
            finally:
                for name, value in saved.items():
                    nargs[name].copy_(value)
                if self.user_post_hook:
                    self.user_post_hook(full, exception=None)

        bench = self.user_do_bench or (lambda f: testing.do_bench(
            f, warmup=self.num_warmups, rep=self.num_reps, quantiles=(0.5, 0.2, 0.8)))
        try:
            return bench(call)
        except KernelError as e:
            if "static assertion failed" in str(e):
                return [float("inf")] * 3
            raise
        except (OutOfResources, CompileTimeAssertionFailure):
            return [float("inf")] * 3

    def run(self, grid, args, kwargs):
        nargs = dict(zip(self.arg_names, args))
        all_args = {**nargs, **kwargs}
        key = self._key(all_args)
        config = self.cache.get(key)
        if config is None:
            configs = self._prune(nargs, kwargs)
            if len(configs) > 1:
                t0 = time.perf_counter()
                timings = {c: self._bench(c, grid, args, kwargs, nargs) for c in configs}
                bench_time = time.perf_counter() - t0
                config = builtins.min(timings, key=lambda c: _first(timings[c]))
                self.configs_timings = timings
                if os.environ.get("TRITON_PRINT_AUTOTUNING") == "1":
                    print("Triton autotuning for function %s finished after %.2fs; best config "
                          "selected: %s;" % (self.__name__, bench_time, config))
            else:
                config = configs[0]
            self.cache[key] = config
        self.best_config = config
        full = {**nargs, **kwargs, **config.all_kwargs()}
        if config.pre_hook:
            config.pre_hook(full)
        return self.fn.run(grid, args, {**kwargs, **config.all_kwargs()})


def _first(t):
    return t[0] if isinstance(t, (list, tuple)) else t


def autotune(configs, key, prune_configs_by=None, reset_to_zero=None, restore_value=None,
             pre_hook=None, post_hook=None, warmup=None, rep=None, use_cuda_graph=False,
             do_bench=None, cache_results=False):
    """@triton.autotune(configs=[...], key=[...]): time each config for each
    new key and launch with the fastest."""

    def decorator(fn):
        return Autotuner(fn, configs, key, reset_to_zero=reset_to_zero,
                         restore_value=restore_value, pre_hook=pre_hook, post_hook=post_hook,
                         prune_configs_by=prune_configs_by, warmup=warmup, rep=rep,
                         do_bench=do_bench, cache_results=cache_results)

    return decorator


class Heuristics(KernelInterface):
    def __init__(self, fn, values):
        self.fn = fn
        self.arg_names = _arg_names(fn)
        self.values = values
        self.__name__ = getattr(fn, "__name__", "kernel")

    def run(self, grid, args, kwargs):
        kwargs = dict(kwargs)
        for name, heur in self.values.items():
            kwargs[name] = heur({**dict(zip(self.arg_names, args)), **kwargs})
        return self.fn.run(grid, args, kwargs)


def heuristics(values):
    """@triton.heuristics({'NAME': lambda args: ...}): constexpr arguments
    computed from the others at each launch."""

    def decorator(fn):
        return Heuristics(fn, values)

    return decorator
