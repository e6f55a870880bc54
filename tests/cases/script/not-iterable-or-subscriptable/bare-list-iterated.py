# case: a parameter annotated with a bare `list` (torch's AnyList) cannot be iterated over
# torch: rejects
# torch-error: 'list' object is not iterable
import torch


@torch.jit.script
def add_all(x: torch.Tensor, values: list):
    for _ in values:  # error: JIT223
        x = x + 1
    return x
