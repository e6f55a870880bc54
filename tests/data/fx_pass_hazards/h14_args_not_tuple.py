# hazard 5f: args not a tuple
# torch-error: args must be a tuple
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
n = next(n for n in g.nodes if n.target is torch.relu)
with g.inserting_after(n):
    g.call_function(torch.neg, n)  # hazard: FX116
