# case: an nn.Buffer built in a scripted function
# torch: rejects
# torch-error: Cannot instantiate class 'Buffer' in a script function
import torch
import torch.nn as nn


@torch.jit.script
def shifted(x: torch.Tensor) -> torch.Tensor:
    b = nn.Buffer(torch.zeros(4))  # error: JIT622
    return x + b
