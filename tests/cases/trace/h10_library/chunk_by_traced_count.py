# case: `x.chunk(x.shape[-1] // 2, -1)`: torch computes the parts' sizes from the count as a plain number; the
#       example's split is recorded, silently (another width fails when the traced module runs)
# torch: breaks
# inputs: (torch.randn(2, 4),)
# inputs2: (torch.randn(2, 8),)
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        parts = x.chunk(x.shape[-1] // 2, -1)  # warning: TRC206
        return torch.cat(parts[::-1], -1)
