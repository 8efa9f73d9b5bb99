"""triton.testing, as tritsim answers it: do_bench, perf_report, Benchmark,
assert_close (tritsim/_testing.py)."""

__tritsim__ = True

from tritsim._testing import (Benchmark, Mark, assert_close, do_bench, do_bench_cudagraph,
                              perf_report)
