# correct: boxed_run with a fresh list, and the target's name() on an aten graph
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

inputs = [torch.randn(1, 4)]
fx.Interpreter(gm).boxed_run(list(inputs))
gm(*inputs)
ep = torch.export.export(M(), (torch.randn(1, 4),))
names = [n.target.name() for n in ep.graph_module.graph.nodes if n.op == "call_function"]
assert "aten::relu" in names
