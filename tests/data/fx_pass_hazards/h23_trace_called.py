# hazard 7j: Tracer.trace treated as a GraphModule
# torch-error: 'Graph' object is not callable
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

out = fx.Tracer().trace(M())(torch.randn(2, 4))  # hazard: FX117
