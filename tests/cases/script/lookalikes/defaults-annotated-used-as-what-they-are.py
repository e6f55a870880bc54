# case: the same bodies with the defaults' parameters annotated (and one typed by a signature comment): the body
#   uses them as int and str, and a caller passes values of those types
# torch: accepts
import torch
from torch import nn


def repeat_add(x, k: int = 3):
    for _ in range(k):
        x = x + 1
    return x


def scale_add(x, k=2):
    # type: (Tensor, int) -> Tensor
    for _ in range(k):
        x = x + 1
    return x


class M(nn.Module):
    def forward(self, x, mode: str = "mean"):
        if mode == "mean":
            return repeat_add(x, 2).mean()
        return scale_add(x, 4)
