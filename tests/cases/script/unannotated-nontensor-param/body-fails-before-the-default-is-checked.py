# case: a helper whose unannotated parameter has an int default, used by the body as an int: torch types the
#   parameter as a Tensor and compiles the body before it converts the defaults, so its first error is in the body
# torch: rejects
# torch-error: all inputs of range must be ints, found Tensor (inferred) in argument 0
import torch


def repeat_add(x, k=3):  # error: JIT201
    for _ in range(k):  # error: JIT202
        x = x + 1
    return x


@torch.jit.script
def entry(x):
    return repeat_add(x) * 2
