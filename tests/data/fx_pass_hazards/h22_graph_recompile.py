# hazard 7i: Graph.recompile
# torch-error: 'Graph' object has no attribute 'recompile'
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

gm.graph.recompile()  # hazard: FX106
