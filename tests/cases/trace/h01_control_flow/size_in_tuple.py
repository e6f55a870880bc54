# case: `if x.shape[-1] in (4, 5)`: `in` compares the traced size with each item by `==` and takes the truth of
#       each result: the branch of the example is recorded (torch warns)
# torch: changes
# inputs: (torch.ones(2, 4),)
# inputs2: (torch.ones(2, 6),)
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        if x.shape[-1] in (4, 5):  # warning: TRC201
            return x * 2
        return x
