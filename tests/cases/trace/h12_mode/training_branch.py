# case: `if self.training`: the mode at trace time is baked
# torch: changes
# inputs: (torch.randn(8, 3),)
# inputs2: (torch.randn(5, 3),)
# run-mode: train
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        if self.training:  # warning: TRC209
            return x * 0.5
        return x
