# case: tokens made by `einops.rearrange` iterated by a Python `for`: the loop count of the example is frozen (an
#       input of another size then fails in the traced graph)
# torch: breaks
# inputs: (torch.ones(2, 3, 2, 2),)
# inputs2: (torch.ones(2, 3, 3, 3),)
import torch
import torch.nn as nn
from einops import rearrange


class M(nn.Module):
    def forward(self, x):
        tokens = rearrange(x, "b c h w -> (h w) b c")
        total = torch.zeros_like(tokens[0])
        for token in tokens:  # warning: TRC202
            total = total + token
        return total
