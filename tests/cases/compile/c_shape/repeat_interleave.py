# case: `torch.repeat_interleave` by a tensor of repeats
# torch: breaks
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        reps = (x[:, 0] > 0).long() + 1
        return torch.repeat_interleave(x, reps, dim=0).sum()  # warning: DYN103
