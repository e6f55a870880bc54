# case: a forward hook is traced with the module: its `print` breaks
# torch: breaks
import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(3, 3)
        self.register_forward_hook(self._hook)

    def _hook(self, module, inputs, output):
        print("out", output.shape)  # warning: DYN104

    def forward(self, x):
        return self.lin(x)
