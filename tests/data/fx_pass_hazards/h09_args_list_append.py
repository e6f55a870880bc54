# hazard 4: mutate a list inside args
# torch-error: 'immutable_list' object does not support mutation
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

g = fx.Graph()
x = g.placeholder("x")
cat = g.call_function(torch.cat, ([x, x],))
cat.args[0].append(x)  # hazard: FX101
