# correct: replace with a constant
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

n = next(n for n in gm.graph.nodes if n.target is torch.relu)
n.replace_all_uses_with(0.0)
gm.graph.eliminate_dead_code()
gm.recompile()
gm(torch.randn(1, 4))
