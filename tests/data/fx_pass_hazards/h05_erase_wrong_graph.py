# hazard 1c: erase a node of another graph
# torch-error: from wrong graph
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

other = fx.symbolic_trace(M())
out = next(n for n in gm.graph.nodes if n.op == "output")
other.graph.erase_node(out)  # hazard (no rule yet: a node erased from another graph)
