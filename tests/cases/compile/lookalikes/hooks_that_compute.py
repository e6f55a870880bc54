# case: a forward hook that only computes is traced in the graph
# torch: accepts
import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(3, 3)
        self.lin.register_forward_hook(self._scale)

    def _scale(self, module, inputs, output):
        return output * 0.5

    def forward(self, x):
        return self.lin(x) + 1
