# hazard 19: torch.fx.wrap inside a function
# torch-error: wrap must be called at the top level of a module
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


def setup():
    torch.fx.wrap("len")  # hazard: FX107


setup()
