"""triton.runtime.driver.active: the device kernels run on as PyTorch sees
it (CUDA where PyTorch has a GPU, else the CPU, where tritsim runs CPU
tensors in place)."""

__tritsim__ = True


class _Target:
    def __init__(self, backend, arch, warp_size):
        self.backend = backend
        self.arch = arch
        self.warp_size = warp_size

    def __repr__(self):
        return "GPUTarget(backend=%r, arch=%r, warp_size=%r)" % (self.backend, self.arch,
                                                                 self.warp_size)


def _cuda():
    import torch
    return torch.cuda.is_available()


class _Utils:
    def get_device_properties(self, device):
        """The dict Triton's CUDA driver returns; PyTorch's figures where it
        has a GPU, an H100's otherwise (tritsim's simulated GPU)."""
        props = {"max_shared_mem": 232448, "max_num_regs": 65536,
                 "multiprocessor_count": 132, "warpSize": 32, "sm_clock_rate": 1980000,
                 "mem_clock_rate": 2619000, "mem_bus_width": 5120}
        if _cuda():
            import torch
            p = torch.cuda.get_device_properties(device)
            props["multiprocessor_count"] = p.multi_processor_count
        return props


class _Active:
    utils = _Utils()

    def get_active_torch_device(self):
        import torch
        return torch.device("cuda", 0) if _cuda() else torch.device("cpu")

    def get_current_target(self):
        if _cuda():
            import torch
            major, minor = torch.cuda.get_device_capability()
            return _Target("cuda", major * 10 + minor, 32)
        return _Target("cuda", 90, 32)

    def get_current_device(self):
        return 0

    def get_current_stream(self, device=None):
        return 0

    def __repr__(self):
        return "<tritsim's driver>"


active = _Active()
