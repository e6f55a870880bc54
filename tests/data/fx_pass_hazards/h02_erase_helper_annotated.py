# hazard 1, through a helper that returns the node (annotated)
# torch-error: but it still had 1 users in the graph
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


def drop_relu(gm: GraphModule) -> None:
    node = find_relu(gm.graph)
    gm.graph.erase_node(node)  # hazard: FX114


drop_relu(gm)
