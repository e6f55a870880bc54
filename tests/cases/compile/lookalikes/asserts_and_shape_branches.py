# case: `assert` on tensor data is a runtime assert; shape branches are guards
# torch: accepts
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        assert (x > -100).all(), "too small"
        assert x.shape[-1] == 3
        assert x.dim() == 2
        if x.shape[0] > 4:
            x = x * 2
        if x.size(0) == 1:
            x = x + 1
        return x
