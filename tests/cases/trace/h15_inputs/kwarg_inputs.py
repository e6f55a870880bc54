# case: `example_kwarg_inputs`
# torch: accepts
# inputs: {"kwargs": {"x": torch.randn(2, 3), "y": torch.randn(2, 3)}}
# inputs2: {"kwargs": {"x": torch.randn(4, 3), "y": torch.randn(4, 3)}}
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x, y):
        return x + y
