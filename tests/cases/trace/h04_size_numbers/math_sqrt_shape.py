# case: `math.sqrt(q.size(-1))`: the attention scale is baked
# torch: changes
# inputs: (torch.randn(2, 4, 8), torch.randn(2, 4, 8))
# inputs2: (torch.randn(2, 4, 16), torch.randn(2, 4, 16))
import math

import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, q, k):
        return q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))  # warning: TRC203
