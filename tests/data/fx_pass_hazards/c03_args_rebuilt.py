# correct: args rebuilt whole, args += ..., kwargs rebuilt
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
        n.args = (n.args[0], 2)
        n.kwargs = {**n.kwargs, "alpha": 1}
    elif n.target is torch.relu:
        n.args += ()
gm.recompile()
gm(torch.randn(1, 4))
