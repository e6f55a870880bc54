# case: `torch.jit.trace` checks only the same example by default
# torch: accepts
# inputs: (torch.randn(8, 3),)
# inputs2: (torch.randn(5, 3),)
import torch
import torch.nn as nn


class Net(nn.Module):
    def forward(self, x):
        return x * 2


def trace_net():
    model = Net().eval()
    return torch.jit.trace(model, (torch.randn(4, 3),))  # info: TRC302
