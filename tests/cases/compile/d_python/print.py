# case: `print` breaks, whatever it prints
# torch: breaks
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        print("shape", x.shape)  # warning: DYN104
        x = x + 1
        print(x)  # warning: DYN104
        return x
