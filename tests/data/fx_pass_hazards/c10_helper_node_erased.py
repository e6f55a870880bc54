# correct: a helper that returns a node, erased after its uses are re-pointed
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


def find_relu(graph: Graph) -> Node:
    return next(n for n in graph.nodes if n.target is torch.relu)


def drop_relu(gm: GraphModule) -> GraphModule:
    node = find_relu(gm.graph)
    node.replace_all_uses_with(node.args[0])
    gm.graph.erase_node(node)
    gm.recompile()
    return gm


drop_relu(gm)(torch.randn(1, 4))
