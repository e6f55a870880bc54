# case: `torch.tensor(x.shape[0])` is recorded from the traced size (torch warns anyway)
# torch: accepts
# inputs: (torch.randn(8, 3),)
# inputs2: (torch.randn(5, 3),)
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        return x / torch.tensor(x.shape[0], dtype=torch.float32)
