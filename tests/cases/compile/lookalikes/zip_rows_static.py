# case: rows got by iterating `zip(...)` and `enumerate(...)` over a tensor, used with static shapes only
# torch: accepts
# inputs: (torch.randn(2, 3, 4),)
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        out = []
        for i, row in enumerate(x):
            out.append(row * i)
        for row, k in zip(x, [1, 2]):
            out.append(torch.where(row > 0, row, 0.0) + k)
        return out
