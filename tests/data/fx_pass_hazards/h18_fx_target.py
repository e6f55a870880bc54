# hazard 7b: torch.fx.Target (invented)
# torch-error: has no attribute 'Target'
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

def name_of(t: torch.fx.Target) -> str:  # hazard: FX106
    return str(t)
