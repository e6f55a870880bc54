# case: a conditional expression on a tensor breaks
# torch: breaks
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        y = x * 2 if x.mean() > 0 else x  # warning: DYN101
        return y
