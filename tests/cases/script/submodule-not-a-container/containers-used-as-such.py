# case: containers indexed, sliced and iterated as their kinds allow, and their methods called without arguments
# torch: accepts
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(2, 2), nn.Linear(2, 2)])
        self.heads = nn.ModuleDict({"a": nn.ReLU()})
        self.seq = nn.Sequential(nn.ReLU(), nn.Tanh())

    def forward(self, x):
        x = x * len(self.layers[1:])
        for name, head in self.heads.items():
            x = head(x)
        for m in self.seq:
            x = m(x)
        for m in self.children():
            pass
        return self.layers[0](x)
