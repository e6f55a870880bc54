# case: `torch.arange(lengths.max())` takes the tensor: traced dynamically
# torch: accepts
# inputs: (torch.tensor([3, 5]),)
# inputs2: (torch.tensor([2, 7, 4]),)
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, lengths):
        max_len = lengths.max()
        return torch.arange(max_len)[None, :] < lengths[:, None]
