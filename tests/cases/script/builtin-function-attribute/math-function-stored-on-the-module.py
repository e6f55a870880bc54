# case: the look-alike: a `math` or `torch` function stored on the module (torch registers them as builtin operators)
# torch: accepts
import math

import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.root = math.sqrt
        self.act = torch.relu

    def forward(self, x):
        return self.act(x) * self.root(2.0)
