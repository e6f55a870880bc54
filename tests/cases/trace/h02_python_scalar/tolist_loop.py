# case: a loop over `.tolist()`: count and values frozen
# torch: changes
# inputs: (torch.randn(8, 3), torch.tensor([2, 5]))
# inputs2: (torch.randn(8, 3), torch.tensor([3, 1]))
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x, sizes):
        out = []
        for s in sizes.tolist():  # warning: TRC202
            out.append(x[:s].sum())
        return torch.stack(out)
