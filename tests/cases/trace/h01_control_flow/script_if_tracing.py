# case: `@torch.jit.script_if_tracing` scripts the helper when it is traced
# torch: accepts
# inputs: (torch.ones(8, 3),)
# inputs2: (-torch.ones(5, 3),)
import torch
import torch.nn as nn


@torch.jit.script_if_tracing
def positive_part(x: torch.Tensor) -> torch.Tensor:
    if bool(x.sum() > 0):
        return x
    return torch.zeros_like(x)


class M(nn.Module):
    def forward(self, x):
        return positive_part(x) * 2
