# case: data-dependent code under a configuration flag that is False by default (a docstring shows it True): never traced
# torch: accepts
# inputs: (torch.randn(4, 4),)
import torch
import torch.nn as nn


class M(nn.Module):
    """Pass ``gather=True`` to rescale by the batch's sum (a usage example: no caller passes it)."""

    def __init__(self, gather: bool = False):
        super().__init__()
        self.gather = gather

    def forward(self, x):
        n = x.shape[0]
        if self.gather and n > 1:
            scale = float(x.sum().item())
            x = x[x > 0] * scale
        return x + 1
