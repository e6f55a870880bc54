# case: `torch.arange(feats.size(1))[None] < lengths[:, None]`
# torch: accepts
# inputs: (torch.randn(2, 10, 4), torch.tensor([10, 7]))
# inputs2: (torch.randn(3, 6, 4), torch.tensor([6, 2, 4]))
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, feats, lengths):
        return torch.arange(feats.size(1))[None] < lengths[:, None]
