# case: a string argument nothing reads: no guard
# torch: accepts
# inputs: (torch.randn(4, 3), f"mode{i}")
# calls: 12
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x, name: str):
        return x * 2
