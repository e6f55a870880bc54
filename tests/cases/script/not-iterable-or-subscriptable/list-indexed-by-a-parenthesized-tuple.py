# case: a list indexed by a parenthesized tuple: Python reads `xs[(0, 1)]` as `xs[0, 1]`, two indices, which only
#   a Tensor takes
# torch: rejects
# torch-error: attempted to use multidimensional indexing on a non-tensor type
from typing import List

import torch
from torch import nn


class M(nn.Module):
    def forward(self, x):
        sizes: List[int] = [1, 2]
        return x * sizes[(0, 1)]  # error: JIT223
