# case: the same sizes given as tuples (`F.avg_pool2d(x, x.shape[2:])`, `F.adaptive_avg_pool1d(y, (n,))`,
#       `x.roll((n,), (-1,))`) or a list of split indices: torch records each size of a list: nothing is frozen
# torch: accepts
# inputs: (torch.randn(2, 3, 4, 6),)
# inputs2: (torch.randn(2, 3, 8, 10),)
import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    def forward(self, x):
        pooled = F.avg_pool2d(x, x.shape[2:])
        y = x.flatten(2)
        half = F.adaptive_avg_pool1d(y, (y.shape[-1] // 2,))
        rolled = y.roll((y.shape[-1] // 3,), (-1,))
        first, rest = torch.tensor_split(y, [y.shape[-1] // 2], -1)
        return pooled.flatten(1).sum(-1) + half.sum((1, 2)) + rolled.sum((1, 2)) + first.sum((1, 2)) - rest.sum((1, 2))
