# case: `torch._assert` on a tensor's value breaks (a plain `assert` does not)
# torch: breaks
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        torch._assert(x.shape[1] == 3, "bad")
        torch._assert((x > -1000).all(), "bad values")  # warning: DYN101
        return x + 1
