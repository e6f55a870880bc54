# case: `print` in a loop: the whole function runs eagerly
# torch: breaks
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        x = x + 1
        for i in range(3):
            x = x * 2
            print(i)  # warning: DYN104
        return x - 1
