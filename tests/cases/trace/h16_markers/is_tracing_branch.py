# case: `torch.jit.is_tracing()` is True while tracing: the traced branch by design
# torch: changes
# hazard: no
# inputs: (torch.randn(8, 3),)
# inputs2: (torch.randn(5, 3),)
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        if torch.jit.is_tracing():
            return x + 1
        return x + 2
