# case: `@torch.jit._script_if_tracing` (the name torchvision uses) scripts the helper when it is traced, with
#       what it calls
# torch: accepts
# inputs: (torch.ones(8, 3),)
# inputs2: (-torch.ones(5, 3),)
import torch
import torch.nn as nn


def keep_if_positive(x: torch.Tensor) -> torch.Tensor:
    if bool(x.sum() > 0):
        return x
    return torch.zeros_like(x)


@torch.jit._script_if_tracing
def positive_part(x: torch.Tensor) -> torch.Tensor:
    out = torch.zeros_like(x)
    for i in range(x.size(0)):
        out[i] = keep_if_positive(x[i])
    return out


class M(nn.Module):
    def forward(self, x):
        return positive_part(x) * 2
