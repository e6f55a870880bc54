# correct: dependent nodes kept in order with inserting_before(n.next)
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
with g.inserting_before(n.next):
    a = g.call_function(torch.neg, (n,))
    b = g.call_function(torch.sigmoid, (a,))
n.replace_all_uses_with(b, delete_user_cb=lambda user: user is not a)
g.lint()
gm.recompile()
gm(torch.randn(1, 4))
