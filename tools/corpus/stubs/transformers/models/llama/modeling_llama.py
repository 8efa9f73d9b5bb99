# Stand-in for transformers.models.llama.modeling_llama (see
# transformers/__init__.py): unsloth.kernels imports its module `logger`
# and subclasses LlamaRMSNorm.  LlamaRMSNorm here is the plain RMS norm
# (weight initialised to ones, eps kept as variance_epsilon, computed in
# float32 and cast back), which is what transformers' class computes.
import logging

import torch

logger = logging.getLogger("transformers.models.llama.modeling_llama")


class LlamaRMSNorm(torch.nn.Module):
    def __init__(self, hidden_size, eps=1e-6):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.ones(hidden_size))
        self.variance_epsilon = eps

    def forward(self, hidden_states):
        dtype = hidden_states.dtype
        x = hidden_states.to(torch.float32)
        x = x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.variance_epsilon)
        return self.weight * x.to(dtype)
