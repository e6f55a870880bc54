# case: `operator.index(x.size(0))`: baked with no warning
# torch: changes
# inputs: (torch.randn(8, 3),)
# inputs2: (torch.randn(5, 3),)
import operator

import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        return x.new_ones(operator.index(x.size(0)))  # warning: TRC203
