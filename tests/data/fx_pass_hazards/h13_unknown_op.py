# hazard 5d: an unknown op
# torch-error: is not in _legal_ops
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
x = next(iter(g.nodes))
with g.inserting_after(x):
    g.create_node("call", torch.relu, (x,))  # hazard: FX116
