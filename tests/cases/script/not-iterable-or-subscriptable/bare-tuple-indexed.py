# case: a parameter annotated with a bare `tuple` (torch's AnyTuple) has no `__getitem__`
# torch: rejects
# torch-error: 'tuple' object is not subscriptable
import torch


@torch.jit.script
def first_dim(x: torch.Tensor, shape: tuple):
    return x.view(shape[0], -1)  # error: JIT223
