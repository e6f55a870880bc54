# correct: self-replacement with delete_user_cb, and the update_arg fix-up
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
n.replace_all_uses_with(new, delete_user_cb=lambda user: user is not new)
m = next(n for n in g.nodes if n.target is torch.add)
with g.inserting_after(m):
    new2 = g.call_function(torch.neg, (m,))
m.replace_all_uses_with(new2)
new2.update_arg(0, m)
g.lint()
gm.recompile()
gm(torch.randn(1, 4))
