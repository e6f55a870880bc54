# case: `F.avg_pool1d(x, x.shape[-1])` and `F.adaptive_max_pool1d(x, n)`: one size given alone to an integer-list
#       argument (`kernel_size`, `output_size`) is read as a plain number: the example's kernel and output length
#       are recorded, silently (another length gets the example's result shape)
# torch: changes
# inputs: (torch.randn(2, 3, 4),)
# inputs2: (torch.randn(2, 3, 8),)
import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    def forward(self, x):
        pooled = F.avg_pool1d(x, x.shape[-1])  # warning: TRC206
        half = F.adaptive_max_pool1d(x, x.shape[-1] // 2)  # warning: TRC206
        return half * pooled
