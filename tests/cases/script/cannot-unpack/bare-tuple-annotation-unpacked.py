# case: a parameter annotated with a bare `tuple` is an AnyTuple to torch, whose length and element types it does not
#   know, so unpacking it fails
# torch: rejects
# torch-error: Provided tuple is not fully defined/refined including its element types
import torch


@torch.jit.script
def resize(x: torch.Tensor, shape: tuple):
    height, width = shape  # error: JIT234
    return x.view(height, width)
