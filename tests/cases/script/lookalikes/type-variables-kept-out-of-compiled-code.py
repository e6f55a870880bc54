# case: a module-level TypeVar used only by Python code (a helper compiled code never calls), and a class of the
#   same spelling in the signature compiled code reaches
# torch: accepts
from typing import List, Optional, TypeVar

import torch
import torch.nn as nn

DT = TypeVar("DT")


class Point:
    pass


def by_name(points: List[DT]) -> List[DT]:
    return sorted(points, key=str)


def first_names(points: List[torch.Tensor]) -> Optional[List[str]]:
    return None


class M(nn.Module):
    def forward(self, x):
        first_names([x])
        return x
