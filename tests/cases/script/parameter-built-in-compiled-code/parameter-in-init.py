# case: the look-alike: the nn.Parameter registered in `__init__` and read in forward
# torch: accepts
import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.ones(4), requires_grad=False)

    def forward(self, x):
        return x + self.w
