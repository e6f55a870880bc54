# correct: iterate a copy of the users while re-pointing them
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
with g.inserting_after(n):
    new = g.call_function(torch.neg, (n,))
for user in list(n.users):
    if user is not new:
        user.replace_input_with(n, new)
g.lint()
gm.recompile()
gm(torch.randn(1, 4))
