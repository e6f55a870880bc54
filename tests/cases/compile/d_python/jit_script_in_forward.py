# case: `torch.jit.script(...)` called in traced code (a helper that scripts a function on each call): Dynamo's trace rules mark it as skipped and break; calling the scripted result does not break
# torch: breaks
import torch
import torch.nn as nn


def apply_to_eigenvalues(func):
    def _impl(x: torch.Tensor) -> torch.Tensor:
        e, v = torch.linalg.eigh(x)
        return v @ torch.diag_embed(func(e)) @ v.transpose(-1, -2)

    return torch.jit.script(_impl)  # warning: DYN106


@torch.jit.script
def clamp_eigenvalues(e: torch.Tensor) -> torch.Tensor:
    return e.clamp(min=1e-4)


class M(nn.Module):
    def forward(self, x):
        spd = x @ x.transpose(-1, -2) + torch.eye(x.shape[0])
        return clamp_eigenvalues(spd) + apply_to_eigenvalues(torch.exp)(spd)
