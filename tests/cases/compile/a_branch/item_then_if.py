# case: `.item()` breaks by default; the `if` on the Python value that resumes does not
# torch: breaks
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        v = x.max().item()  # warning: DYN102
        if v > 0.5:
            return x * 2
        return x
