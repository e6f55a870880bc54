# case: a plain class named only as the type of an `isinstance` test in forward: torch parses it as a type and
#   compiles it as a TorchScript class, whose `__init__` has an unannotated parameter with an int default
# torch: rejects
# torch-error: Expected a default value of type Tensor (inferred) on parameter "vocab_size"
import torch
from torch import nn
from typing import List


class SparseFeature(object):
    def __init__(self, name: str, vocab_size=100):  # error: JIT201
        self.name = name
        self.vocab_size = vocab_size


class DenseFeature(object):
    def __init__(self, name: str):
        self.name = name


class Embed(nn.Module):
    def forward(self, x, features: List[DenseFeature]):
        out = [x]
        for feature in features:
            if isinstance(feature, (DenseFeature, SparseFeature)):
                out.append(x)
        return torch.cat(out)
