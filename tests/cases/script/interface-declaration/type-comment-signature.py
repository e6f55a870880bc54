# case: a `# type:` comment gives an interface method its return type, and docstrings may surround the `pass`
# torch: accepts
import torch
import torch.nn as nn
from torch import Tensor


@torch.jit.interface
class Scorer(nn.Module):
    def forward(self, input):
        # type: (Tensor) -> Tensor
        r"""first"""
        pass
        r"""after"""


class Net(nn.Module):
    def forward(self, x):
        return x
