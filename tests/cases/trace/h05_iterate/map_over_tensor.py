# case: `map(f, x)` over an input tensor: `Tensor.__iter__` unbinds the example's leading size, so the traced
#       module always makes the example's number of items (torch warns)
# torch: breaks
# inputs: (torch.ones(3, 4),)
# inputs2: (torch.ones(5, 4),)
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        rows = list(map(lambda row: row * 2, x))  # warning: TRC202
        return torch.stack(rows) + x
