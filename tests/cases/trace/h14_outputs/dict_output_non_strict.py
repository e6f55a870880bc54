# case: a dict output with `strict=False`
# torch: accepts
# inputs: (torch.randn(8, 3),)
# inputs2: (torch.randn(5, 3),)
# settings: strict=false
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        return {"a": x * 2, "b": x + 1}
