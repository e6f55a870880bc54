# correct: replace, then erase
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


def drop_relu(gm: GraphModule) -> GraphModule:
    for n in list(gm.graph.nodes):
        if n.target is torch.relu:
            n.replace_all_uses_with(n.args[0])
            gm.graph.erase_node(n)
    gm.graph.lint()
    gm.recompile()
    return gm


drop_relu(gm)(torch.randn(1, 4))
