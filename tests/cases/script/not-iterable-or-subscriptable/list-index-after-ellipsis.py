# case: a list index after `...` (read, and updated in place): torch makes a list index a Tensor index, which it does not take after an ellipsis
# torch: rejects
# torch-error: Ellipses followed by tensor indexing is currently not supported
from typing import List

import torch
import torch.nn as nn


def shift_boxes(boxes: torch.Tensor, pad: float, order: List[int]):
    boxes[..., [0, 2]] -= pad  # error: JIT223
    return boxes[..., order]  # error: JIT223


class M(nn.Module):
    def forward(self, x):
        return shift_boxes(x, 1.0, [1, 0, 3, 2])
