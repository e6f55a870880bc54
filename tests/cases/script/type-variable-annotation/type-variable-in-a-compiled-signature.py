# case: a module-level TypeVar in the signature of a function compiled code calls; torch's resolver finds the
#   TypeVar object, of which it makes no type
# torch: rejects
from typing import List, Optional, TypeVar

import torch
import torch.nn as nn

DT = TypeVar("DT")


def first_names(points: List[DT]) -> Optional[List[str]]:  # error: JIT203
    return None


class M(nn.Module):
    def forward(self, x):
        first_names([])
        return x
