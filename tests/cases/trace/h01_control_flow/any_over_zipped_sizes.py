# case: `any()` over sizes paired by `zip` in a generator: each comparison's truth is taken once, while tracing
# torch: changes
# inputs: (torch.ones(1, 1, 8, 8),)
# inputs2: (torch.ones(1, 1, 2, 8),)
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        if any(size < limit for size, limit in zip(x.shape[-2:], (4, 4))):  # warning: TRC201
            return x * 0
        return x
