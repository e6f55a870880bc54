# case: a `torch.jit.script`-ed child keeps its control flow inside the trace
# torch: accepts
# inputs: (torch.ones(8, 3),)
# inputs2: (-torch.ones(5, 3),)
import torch
import torch.nn as nn


class Child(nn.Module):
    def forward(self, x):
        if x.sum() > 0:
            return x * 2
        return x - 1


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.child = torch.jit.script(Child())

    def forward(self, x):
        return self.child(x) + 1
