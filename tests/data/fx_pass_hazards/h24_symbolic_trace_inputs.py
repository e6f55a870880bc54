# hazard 7k: example inputs passed to symbolic_trace
# torch-error: Tensor.__contains__ only supports Tensor or scalar
import torch
import torch.fx as fx
from torch.fx import Graph, GraphModule, Node


class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(4, 4)

    def forward(self, x):
        return torch.add(torch.relu(self.lin(x)), 1)


gm = fx.symbolic_trace(M())

traced = fx.symbolic_trace(M(), torch.randn(1, 4))  # hazard: FX117
