# case: a `str` input cannot be traced
# torch: rejects
# torch-error: cannot be traced
# inputs: (torch.randn(8, 3), "double")
# inputs2: (torch.randn(5, 3), "other")
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x, mode: str):  # error: TRC104
        if mode == "double":
            return x * 2
        return x
