# case: `torch.unique`
# torch: breaks
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        return torch.unique(x.round()).sum()  # warning: DYN103
