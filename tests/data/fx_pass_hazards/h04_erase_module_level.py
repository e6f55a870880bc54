# hazard 1, module-level pass code
# torch-error: but it still had 1 users in the graph
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

relu = next(n for n in gm.graph.nodes if n.target is torch.relu)
gm.graph.erase_node(relu)  # hazard: FX114
