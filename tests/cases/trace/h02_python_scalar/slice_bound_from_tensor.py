# case: a tensor slice bound is recorded as a traced value
# torch: accepts
# inputs: (torch.randn(2, 10, 4), torch.tensor([7, 5]))
# inputs2: (torch.randn(2, 10, 4), torch.tensor([3, 9]))
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, feats, lengths):
        return feats[0, : lengths[0]]
