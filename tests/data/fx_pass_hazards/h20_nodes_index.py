# hazard 7g: index the node list
# torch-error: object is not subscriptable
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

first = gm.graph.nodes[0]  # hazard: FX106
