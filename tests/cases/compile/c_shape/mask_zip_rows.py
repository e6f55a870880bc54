# case: a boolean mask of a row got by iterating `zip(...)` (or `enumerate(...)`) over a tensor: each row is a tensor
# torch: breaks
# inputs: (torch.randn(2, 3, 4),)
import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    def forward(self, x):
        scores = F.softmax(x, dim=-1)
        out = []
        for row, k in zip(scores, [1, 2]):
            keep = row[:, k] > 0.25
            out.append(row[keep])  # warning: DYN103
        return out
