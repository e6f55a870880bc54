# case: `and` tests its left operand, the conditional expression its test: two breaks
# torch: breaks
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        flag = x.max() > 0 and x.min() < 0  # warning: DYN101
        return x * 2 if flag else x  # warning: DYN101
