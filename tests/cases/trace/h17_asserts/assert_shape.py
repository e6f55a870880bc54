# case: `assert x.shape[1] == 3`: checked once, dropped from the traced module
# torch: changes
# inputs: (torch.randn(8, 3),)
# inputs2: (torch.randn(8, 5),)
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        assert x.shape[1] == 3  # warning: TRC201
        return x * 2
