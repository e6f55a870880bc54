# case: `self.heads[int(k)]`: the head chosen by the example is baked
# torch: changes
# inputs: (torch.randn(8, 3), torch.tensor(1))
# inputs2: (torch.randn(8, 3), torch.tensor(2))
import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.heads = nn.ModuleList([nn.Linear(3, 3) for _ in range(3)])

    def forward(self, x, k):
        return self.heads[int(k)](x)  # warning: TRC203
