# case: a mask bound on both sides of an `if` on a configuration flag (False by default): Dynamo traces only the branch taken
# torch: breaks
# inputs: (torch.randn(4, 4),)
import torch
import torch.nn as nn


def rank_mask(n: int):
    mask = torch.zeros((n, n), dtype=torch.bool)
    mask[0, 0] = True
    return mask


class M(nn.Module):
    """Pass ``gather=True`` to mask by rank (a usage example in a docstring: no caller passes it)."""

    def __init__(self, gather: bool = False):
        super().__init__()
        self.gather = gather

    def forward(self, x):
        n = x.shape[0]
        if self.gather and torch.distributed.is_initialized():
            mask = rank_mask(n)
        else:
            mask = torch.eye(n, dtype=torch.bool)
        return x[~mask].sum()  # warning: DYN103
