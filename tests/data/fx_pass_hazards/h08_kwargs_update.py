# hazard 3b: kwargs.update
# torch-error: 'immutable_dict' object does not support mutation
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
        n.kwargs.update(alpha=5)  # hazard: FX101
