# hazard 7c: node.target.name on a string target
# torch-error: 'str' object has no attribute 'name'
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
    if n.op == "call_module":
        print(n.target.name)  # hazard: FX105
