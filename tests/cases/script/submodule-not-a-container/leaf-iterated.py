# case: a ModuleDict's values() given an argument, and an nn.Linear iterated in a comprehension
# torch: rejects
# torch-error: values method does not accept any arguments
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.heads = nn.ModuleDict({"a": nn.ReLU()})
        self.proj = nn.Linear(2, 2)

    def forward(self, x):
        for head in self.heads.values("a"):  # error: JIT310
            x = head(x)
        sizes = [p.size(0) for p in self.proj]  # error: JIT310
        return x
