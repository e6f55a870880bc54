# hazard 8: graph edits without recompile
# torch: silent
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
        n.target = torch.mul
x = torch.ones(1, 4)
assert torch.equal(gm(x), torch.add(torch.relu(gm.lin(x)), 1))  # hazard: FX115
