# case: an `OrderedDict` subclass output (as transformers' ModelOutput)
# torch: rejects
# torch-error: Only tensors, lists, tuples of tensors, or dictionary of tensors can be output
# inputs: (torch.randn(8, 3),)
# inputs2: (torch.randn(5, 3),)
from collections import OrderedDict

import torch
import torch.nn as nn


class Out(OrderedDict):
    pass


class M(nn.Module):
    def forward(self, x):
        return Out(a=x * 2)  # error: TRC102
