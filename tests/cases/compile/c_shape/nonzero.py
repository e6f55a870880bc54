# case: `torch.nonzero`: output size depends on data
# torch: breaks
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        idx = torch.nonzero(x > 0)  # warning: DYN103
        return idx.float().sum()
