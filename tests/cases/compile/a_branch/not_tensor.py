# case: `if not <tensor>:` tests the tensor
# torch: breaks
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        m = x.sum()
        if not m:  # warning: DYN101
            return x
        return x + 1
