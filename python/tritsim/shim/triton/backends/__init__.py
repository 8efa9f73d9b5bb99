"""triton.backends, as tritsim answers it: no compiler backends.

tritsim compiles kernels itself; this package exists because PyTorch looks
at it when it finds a triton package (torch.utils._triton asks whether
"cpu" is among `backends`; torch._inductor imports triton.backends.compiler).
"""

__tritsim__ = True

backends = {}
