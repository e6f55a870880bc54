# case: sizes paired with tensors by `zip` in a comprehension and given to `view`: recorded, nothing is frozen
# torch: accepts
# inputs: (torch.ones(2, 6),)
# inputs2: (torch.ones(3, 6),)
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        parts = [x, x * 2]
        rows = [part.size(0) for part in parts]
        return torch.cat([part.view(n, 2, 3) for part, n in zip(parts, rows)])
