# case: a function called through a dict of functions that keeps its sizes in tensor ops: traces correctly
# torch: accepts
# inputs: (torch.ones(2, 3),)
# inputs2: (torch.ones(5, 3),)
import torch
import torch.nn as nn


def flatten_pairs(x):
    return x.reshape(x.size(0) * x.size(1))


OPS = {"flatten": flatten_pairs}


class M(nn.Module):
    def forward(self, x):
        op = OPS["flatten"]
        return op(x)
