# case: a Python list indexed by a traced size: baked with no warning
# torch: changes
# inputs: (torch.randn(8, 3),)
# inputs2: (torch.randn(5, 3),)
import torch
import torch.nn as nn


SCALES = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0]


class M(nn.Module):
    def forward(self, x):
        return x * SCALES[x.size(0)]  # warning: TRC203
