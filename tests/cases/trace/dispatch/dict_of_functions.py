# case: a function looked up in a module-level dict of functions and called: the tracer runs it, and unrolls its loop
# torch: changes
# inputs: (torch.ones(2, 3),)
# inputs2: (torch.ones(5, 3),)
import torch
import torch.nn as nn


def repeat_rows(x):
    out = x
    for _ in range(x.size(0)):  # warning: TRC202
        out = out + 1
    return out


def identity(x):
    return x


ACTIVATIONS = {"repeat": repeat_rows, "identity": identity}


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.kind = "repeat"

    def forward(self, x):
        return ACTIVATIONS[self.kind](x)
