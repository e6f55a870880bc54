# case: a Python builtin function (`print`) stored on the module and called in forward: torch has no TorchScript value for it
# torch: rejects
# torch-error: failed to convert Python type: 'builtin_function_or_method'
import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.log = print

    def forward(self, x):
        self.log(x)  # error: JIT603
        return x
