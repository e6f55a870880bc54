# hazard 7: Graph.insert_node (invented)
# torch-error: 'Graph' object has no attribute 'insert_node'
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

g = gm.graph
n = next(n for n in g.nodes if n.target is torch.relu)
g.insert_node(n)  # hazard: FX106
