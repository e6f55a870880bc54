# case: a helper whose unannotated int default torch rejects returns a tuple of Tensors whatever that parameter's
#   type; a caller that uses the tuple as a Tensor fails there once the parameter is annotated
# torch: rejects
# torch-error: Expected a default value of type Tensor (inferred) on parameter
import torch


def rotate(q, k, dim=1):  # error: JIT201
    return q.unsqueeze(dim), k.unsqueeze(dim)


@torch.jit.script
def entry(q, k):
    return rotate(q, k).squeeze(1)  # error: JIT220
