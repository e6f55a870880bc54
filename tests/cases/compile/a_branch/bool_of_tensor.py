# case: `bool(t)` in a test: an `.item()` break by default, a branch break when scalars are captured
# torch: breaks
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        if bool((x > 0).any()):  # warning: DYN102
            return x * 2
        return x
