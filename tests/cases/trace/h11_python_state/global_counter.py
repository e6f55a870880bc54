# case: a global counter: baked
# torch: changes
# inputs: (torch.randn(8, 3),)
# inputs2: (torch.randn(5, 3),)
import torch
import torch.nn as nn


COUNTER = 0


class M(nn.Module):
    def forward(self, x):
        global COUNTER
        COUNTER += 1  # warning: TRC207
        return x + COUNTER
