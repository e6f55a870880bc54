# hazard 6: a target compared with an op string (never true)
# torch: silent
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

found = [n for n in gm.graph.nodes if n.target == "aten::relu"]  # hazard: FX104
assert found == []
