# case: a forward under `@torch.autocast(...)` that calls a helper of its module: the wrapper's module (torch/amp/autocast_mode.py) resolves `torch` but not the helper
# torch: rejects
# torch-error: undefined value extract
# torch-line: none
import torch
import torch.nn as nn
from torch.amp import autocast


def extract(a, t):
    return a.gather(-1, t)


class Diffusion(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("alphas", torch.ones(10))

    @autocast("cuda", enabled=False)
    def forward(self, x, t):
        noise = torch.randn_like(x)
        return extract(self.alphas, t) * x + noise  # error: JIT235
