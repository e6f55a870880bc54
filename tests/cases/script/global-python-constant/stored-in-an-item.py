# case: a module-level int stored in a dict item: the right side of a subscript assignment is a value
#   (`emitSubscriptAssign` emits it with `emitExpr`), and a Python global is none
# torch: rejects
# torch-error: python value of type 'int' cannot be used as a value
from typing import Dict

import torch
import torch.nn as nn

SIZE = 3


class M(nn.Module):
    def forward(self, x: torch.Tensor) -> int:
        table: Dict[str, int] = {}
        table["out"] = SIZE  # error: JIT415
        return table["out"]
