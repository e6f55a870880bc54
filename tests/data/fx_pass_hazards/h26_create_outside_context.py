# hazard 9: a node created outside any inserting_* context, then used
# torch-error: was used before it has been defined
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
neg = g.call_function(torch.neg, (n,))  # hazard: FX108
n.replace_all_uses_with(neg, delete_user_cb=lambda user: user is not neg)
g.lint()
