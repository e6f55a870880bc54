# case: `for row in x`: a fixed-arity unbind
# torch: breaks
# inputs: (torch.randn(8, 3),)
# inputs2: (torch.randn(5, 3),)
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        acc = torch.zeros_like(x[0])
        for row in x:  # warning: TRC202
            acc = acc + row
        return acc
