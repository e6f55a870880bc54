# hazard 5: a hand-built node in the style of an article
# torch-error: missing 3 required positional arguments
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

x = next(iter(gm.graph.nodes))
node = fx.Node("aten::relu", args=(x,), kwargs={})  # hazard: FX102
