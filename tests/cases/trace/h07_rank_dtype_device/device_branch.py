# case: `if x.device.type == "cpu"`: frozen with no warning (another device takes the other side)
# torch: accepts
# inputs: (torch.randn(8, 3),)
# inputs2: (torch.randn(5, 3),)
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        if x.device.type == "cpu":  # warning: TRC201
            return x + 1
        return x - 1
