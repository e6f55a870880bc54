# case: `.item()` read on one line, branched on later: torch warns where it is read
# torch: changes
# inputs: (torch.ones(8, 3),)
# inputs2: (torch.full((5, 3), 0.25),)
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        v = x.max().item()  # warning: TRC203
        if v > 0.5:
            return x * 2
        return x
