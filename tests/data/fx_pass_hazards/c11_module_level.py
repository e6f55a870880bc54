# correct: module-level edits, lint and recompile
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
relu = next(n for n in g.nodes if n.target is torch.relu)
with g.inserting_after(relu):
    neg = g.call_function(torch.neg, (relu,))
relu.replace_all_uses_with(neg, delete_user_cb=lambda user: user is not neg)
g.lint()
gm.recompile()
gm(torch.randn(1, 4))
