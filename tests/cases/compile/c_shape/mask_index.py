# case: indexing with a boolean mask
# torch: breaks
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        return x[x > 0].sum()  # warning: DYN103
