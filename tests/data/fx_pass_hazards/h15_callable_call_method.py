# hazard 5g: a callable target for call_method
# torch-error: but a str is expected
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
    g.create_node("call_method", torch.relu, (x,))  # hazard: FX116
