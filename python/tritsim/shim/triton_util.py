"""triton_util (the lecture's helpers), as tritsim answers it: cdiv,
check_tensors_gpu_ready, print_if and breakpoint_if (kernels' print_if
and breakpoint_if are tritsim's own; on the host the program id is
(0, 0, 0))."""

import os

__tritsim__ = True

from tritsim._jit import KernelOnly, kernel_name


def cdiv(a, b):
    return (a + b - 1) // b


kernel_name(cdiv, "triton_util.cdiv")


def check_tensors_gpu_ready(*tensors):
    """Contiguous, and on the GPU unless TRITON_INTERPRET=1 or PyTorch has
    no GPU here (tritsim runs kernels on CPU tensors as they are)."""
    import torch
    on_cpu_ok = os.environ.get("TRITON_INTERPRET") == "1" or not torch.cuda.is_available()
    for t in tensors:
        assert t.is_contiguous(), "A tensor is not contiguous"
        if not on_cpu_ok:
            assert t.is_cuda, "A tensor is not on cuda"


kernel_name(check_tensors_gpu_ready, "triton_util.check_tensors_gpu_ready")


def _host_conds(conds):
    """Does program (0, 0, 0) pass conds ("=0", ",>1", ">1,=0")?"""
    import operator
    ops = {"=": operator.eq, "<": operator.lt, ">": operator.gt, "!": operator.ne}
    for cond in conds.replace(" ", "").split(","):
        if not cond:
            continue
        op, val = cond[0], cond[1:]
        if op not in ops or not val.lstrip("-").isdigit():
            raise ValueError("bad condition %r in %r" % (cond, conds))
        if not ops[op](0, int(val)):
            return False
    return True


def print_if(txt, conds):
    if _host_conds(conds):
        print(txt)


kernel_name(print_if, "triton_util.print_if")


def breakpoint_if(conds):
    _host_conds(conds)


kernel_name(breakpoint_if, "triton_util.breakpoint_if")
