# hazard 5b: a hand-built node with every argument (not in the graph; lint fails)
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
x = next(iter(g.nodes))
relu = fx.Node(g, "my_relu", "call_function", torch.relu, (x,), {})  # hazard: FX102
out = next(n for n in g.nodes if n.op == "output")
out.args = (relu,)
g.lint()
