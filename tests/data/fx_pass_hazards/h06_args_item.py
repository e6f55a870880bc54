# hazard 2: in-place node.args[i] = v
# torch-error: 'tuple' object does not support item assignment
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

for n in gm.graph.nodes:
    if n.target is torch.add:
        n.args[1] = 2  # hazard: FX101
