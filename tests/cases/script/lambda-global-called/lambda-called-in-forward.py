# case: a module-level lambda called in forward: torch compiles the called global from its source, an assignment, and points at it
# torch: rejects
# torch-error: Expected a single top-level function
# torch-line: none
import torch
import torch.nn as nn

square = lambda t: t * t  # noqa: E731  error: JIT415


class M(nn.Module):
    def forward(self, x):
        return square(x) + 1
