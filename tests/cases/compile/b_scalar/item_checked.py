# case: `torch._check` does not stop the default-mode break of `.item()`
# torch: breaks
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        n = (x.abs().sum().long() % 3 + 1).item()  # warning: DYN102
        torch._check(n > 0)
        torch._check(n <= 4)
        return x[:n]
