# case: `.nonzero()` and `.unique()` methods
# torch: breaks
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        idx = (x > 0).nonzero()  # warning: DYN103
        u = x.round().unique()  # warning: DYN103
        return idx.sum() + u.sum()
