# case: `if` on a tensor's value breaks the graph
# torch: breaks
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        if x.sum() > 0:  # warning: DYN101
            return x * 2
        return x - 1
