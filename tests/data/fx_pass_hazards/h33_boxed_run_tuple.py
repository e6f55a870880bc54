# hazard 13: boxed_run given a tuple
# torch-error: 'tuple' object has no attribute 'clear'
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

out = fx.Interpreter(gm).boxed_run((torch.randn(1, 4),))  # hazard: FX112
