# case: `q.size(-1) ** -0.5` stays a traced value
# torch: accepts
# inputs: (torch.randn(2, 4, 8), torch.randn(2, 4, 8))
# inputs2: (torch.randn(2, 4, 16), torch.randn(2, 4, 16))
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, q, k):
        return q @ k.transpose(-2, -1) * q.size(-1) ** -0.5
