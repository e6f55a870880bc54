# hazard 10, in a pass function with a helper-made node
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


def add_neg(graph: Graph, node: Node) -> Node:
    with graph.inserting_after(node):
        return graph.call_function(torch.neg, (node,))


def negate_relu(gm: GraphModule) -> None:
    for n in gm.graph.nodes:
        if n.target is torch.relu:
            new = add_neg(gm.graph, n)
            n.replace_all_uses_with(new)  # hazard: FX110
    gm.graph.lint()


negate_relu(gm)
