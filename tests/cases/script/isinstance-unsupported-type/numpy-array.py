# case: isinstance against a NumPy class in compiled code
# torch: rejects
# torch-error: Unknown type name 'np.ndarray'
import numpy as np
import torch


@torch.jit.script
def entry(x: torch.Tensor) -> torch.Tensor:
    if isinstance(x, np.ndarray):  # error: JIT205
        return x * 2
    return x
