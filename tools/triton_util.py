"""triton_util.py - the lecture's debugging helpers, for running tritsim's
samples under real Triton (tritsim has these built in).

    PYTHONPATH=tools python3 samples/copy.tk

print_if / breakpoint_if take a condition string with one condition per
program-id axis, comma-separated: '=0' (pid_0 == 0), ',>1' (pid_1 > 1),
'>1,=0'; operators < > <= >= = !=.  An empty condition matches every program.
"""
import os

import triton.language as tl


def cdiv(a, b):
    return (a + b - 1) // b


def check_tensors_gpu_ready(*tensors):
    for t in tensors:
        assert t.is_contiguous(), "A tensor is not contiguous"
        if os.environ.get("TRITON_INTERPRET") != "1":
            assert t.is_cuda, "A tensor is not on cuda"


def _program_id(axis):
    # Under TRITON_INTERPRET=1 a plain function called from a kernel can ask
    # for the program id; it is a 1-element array there.
    p = tl.program_id(axis)
    handle = getattr(p, "handle", None)
    return int(handle.data.reshape(-1)[0]) if handle is not None else int(p)


def test_pid_conds(conds, pid_0=None, pid_1=None, pid_2=None):
    given = (pid_0, pid_1, pid_2)
    pids = [_program_id(i) if p is None else p[0] for i, p in enumerate(given)]
    for cond, pid in zip(conds.replace(" ", "").split(","), pids):
        if cond == "":
            continue
        op = cond[:2] if cond[:2] in ("<=", ">=", "!=") else cond[:1]
        value = int(cond[len(op):])
        ok = {"<": pid < value, ">": pid > value, "<=": pid <= value,
              ">=": pid >= value, "=": pid == value, "!=": pid != value}.get(op)
        if ok is None:
            raise ValueError(f"bad pid condition {cond!r}: use < > <= >= = !=")
        if not ok:
            return False
    return True


def breakpoint_if(conds, pid_0=None, pid_1=None, pid_2=None):
    if test_pid_conds(conds, pid_0, pid_1, pid_2):
        breakpoint()


def print_if(txt, conds, pid_0=None, pid_1=None, pid_2=None):
    if test_pid_conds(conds, pid_0, pid_1, pid_2):
        print(txt)
