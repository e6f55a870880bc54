# case: `%`-formatting a tensor: Dynamo gives up the function
# torch: breaks
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        x = x + 1
        msg = "value %s" % x.sum()  # warning: DYN109
        return x * 2
