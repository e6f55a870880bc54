# case: a Tensor indexed by parenthesized tuples of ints, slices, an ellipsis and None: Python reads `x[(0, 1)]`
#   as `x[0, 1]`, so torch indexes with each element, not with a tuple
# torch: accepts
import torch
from torch import nn


class M(nn.Module):
    def forward(self, x):
        y = x[(0, 1)]
        z = x[((0, slice(None)))]
        return y + z[(..., None)].sum()
