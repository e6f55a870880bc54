# correct: gm.graph = g recompiles
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

g = gm.graph
for n in g.nodes:
    if n.target is torch.add:
        n.target = torch.mul
gm.graph = g
gm(torch.randn(1, 4))
