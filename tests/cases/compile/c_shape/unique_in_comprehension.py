# case: `torch.unique` inside a list comprehension breaks where it sits, as outside one
# torch: breaks
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        ids = (x * 3).long()
        rows = [torch.unique(t, sorted=True) for t in torch.unbind(ids)]  # warning: DYN103
        return x.sum() + len(rows)
