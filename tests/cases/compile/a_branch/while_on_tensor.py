# case: `while` on a tensor: inside the loop Dynamo cannot resume
# torch: breaks
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        while x.sum() < 100:  # warning: DYN101
            x = x * 2 + 1
        return x
