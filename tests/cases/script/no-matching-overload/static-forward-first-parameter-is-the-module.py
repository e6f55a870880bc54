# case: a module's `forward` written as a `@staticmethod`: torch compiles it as a method and binds its first parameter to the module, so `x` is not the input
# torch: rejects
# torch-error: Arguments for call are not valid
import torch
import torch.nn as nn


class SiLU(nn.Module):
    @staticmethod
    def forward(x):
        return x * torch.sigmoid(x)  # error: JIT416
