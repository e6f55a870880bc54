# case: unannotated parameters of compiled functions defaulting to a device, a module and an instance of a
#   project class: each is a Tensor to torch, and no such default converts to one
# torch: rejects
# torch-error: Expected a default value of type Tensor (inferred) on parameter "init"
import torch
from torch import nn


class Init:
    def __init__(self, mean: float):
        self.mean = mean


def scaled(x, init=Init(0.0)):  # error: JIT201
    return x


def activated(x, act=nn.ReLU()):  # error: JIT201
    return x


class M(nn.Module):
    def forward(self, x, device=torch.device("cpu")):  # error: JIT201
        return scaled(activated(x))
