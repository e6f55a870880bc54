# correct: erase while iterating reversed(g.nodes), after the users are gone
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
out = next(n for n in g.nodes if n.op == "output")
x = next(iter(g.nodes))
out.args = (x,)
for n in reversed(g.nodes):
    if n.op not in ("placeholder", "output") and len(n.users) == 0:
        g.erase_node(n)
g.lint()
gm.recompile()
gm(torch.randn(1, 4))
