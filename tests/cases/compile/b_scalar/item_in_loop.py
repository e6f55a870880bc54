# case: a break inside a loop: Dynamo gives up the whole function
# torch: breaks
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        x = x + 1
        total = 0.0
        for row in x:
            total += row.sum().item()  # warning: DYN102
        return x * total
