# case: an nn.Parameter built in forward: torch tries to compile the class as a function
# torch: rejects
# torch-error: Cannot instantiate class 'Parameter' in a script function
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        w = nn.Parameter(torch.ones(4), requires_grad=False)  # error: JIT622
        return x + w
