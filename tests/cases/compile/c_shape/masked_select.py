# case: `torch.masked_select`
# torch: breaks
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        return torch.masked_select(x, x > 0).sum()  # warning: DYN103
