# case: `list(x.shape)` given to `view`, and `list()`/`map()` over the parts of `torch.split` by a constant: a list
#       of traced sizes stays traced in an op, and the parts' count is the constant's: nothing is frozen
# torch: accepts
# inputs: (torch.ones(2, 4, 6),)
# inputs2: (torch.ones(3, 4, 8),)
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        shape = list(x.shape)
        flat = x.view(shape[0], -1)
        parts = list(map(torch.relu, torch.split(x, 2, dim=1)))
        return flat.sum(-1) + torch.cat(parts, dim=1).sum((1, 2))
