# case: plain classes named as `isinstance` types in forward that torch compiles (annotated defaults), an
#   exception class it never compiles, and a class with an unannotated default tested only in a branch torch
#   prunes (`torch.jit.is_scripting()`)
# torch: accepts
import torch
from torch import nn
from typing import List


class SparseFeature(object):
    def __init__(self, name: str, vocab_size: int = 100):
        self.name = name
        self.vocab_size = vocab_size


class Skipped(ValueError):
    def __init__(self, message, code=3):
        super().__init__(message)


class Eager(object):
    def __init__(self, scale=2.0):
        self.scale = scale


class Embed(nn.Module):
    def forward(self, x, features: List[SparseFeature]):
        out = [x]
        for feature in features:
            if isinstance(feature, SparseFeature):
                out.append(x * feature.vocab_size)
        if not torch.jit.is_scripting():
            if isinstance(x, Eager):
                out.append(x)
        if x.sum() < 0:
            raise Skipped("negative")
        return torch.cat(out)
