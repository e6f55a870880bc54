# hazard 13b: a list read after boxed_run emptied it
# torch-error: missing 1 required positional argument
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
fx.Interpreter(gm).boxed_run(inputs)
gm(*inputs)  # hazard: FX113
