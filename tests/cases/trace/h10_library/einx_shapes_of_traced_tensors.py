# case: `einx.subtract` on tensors whose length is a traced size: einx reads each tensor argument's shape with
#       `int()` (its torch backend's `get_shape`), so the traced graph broadcasts to the example's length (another
#       length fails when the traced module runs); torch warns at einx's line, not at this one
# torch: breaks
# inputs: (torch.ones(2, 4),)
# inputs2: (torch.ones(2, 6),)
import einx
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        n = x.shape[1]
        positions = torch.arange(n)
        distance = einx.subtract("i, j -> i j", positions, positions)  # warning: TRC206
        return x @ distance.float()
