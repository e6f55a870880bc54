# case: `einx.add` of two parameters: einx reads their shapes with `int()` (torch warns inside einx), but a
#       parameter's shape is the same for every input: the traced graph is right on another size
# torch: accepts
# inputs: (torch.ones(2, 3),)
# inputs2: (torch.ones(5, 3),)
import einx
import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.row = nn.Parameter(torch.randn(3))
        self.column = nn.Parameter(torch.randn(3))

    def forward(self, x):
        table = einx.add("i, j -> i j", self.row, self.column)
        return x @ table
