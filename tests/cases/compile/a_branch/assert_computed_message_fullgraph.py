# case: under `fullgraph=True`, an `assert` on a tensor with a formatted message is an error at the assert
# torch: rejects
# settings: fullgraph=true
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        y = x * 2
        assert (y > -100).all(), "values of {} too small".format(type(self).__name__)  # warning: DYN101
        return y + 1
