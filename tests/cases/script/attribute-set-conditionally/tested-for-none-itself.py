# case: the attribute `__init__` may not set is itself tested against None: torch reads it to fold the test
# torch: rejects
# torch-error: has no attribute 'proj'
import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self, use_proj: bool = False):
        super().__init__()
        if use_proj:
            self.proj = nn.Linear(4, 4)

    def forward(self, x):
        if self.proj is not None:  # warning: JIT232
            x = self.proj(x)
        return x
