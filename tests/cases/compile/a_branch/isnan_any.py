# case: `if torch.isnan(x).any():` breaks; `torch.nan_to_num` alone would not
# torch: breaks
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        if torch.isnan(x).any():  # warning: DYN101
            x = torch.nan_to_num(x)
        return x
