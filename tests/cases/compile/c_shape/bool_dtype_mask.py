# case: a tensor made with `dtype=torch.bool` (factory keyword, `.to(torch.bool)`, `new_ones(..., dtype=bool)`) or its `~` indexes as a boolean mask
# torch: breaks
# inputs: (torch.randn(4, 4), torch.randn(4, 3, 3))
import torch
import torch.nn as nn

# Dynamo's fake tensors do not hold the mask's values: `aten.index` with a boolean index calls `nonzero`, an operator
# whose output size depends on data.


class M(nn.Module):
    def forward(self, x, y):
        n = x.shape[0]
        eye = torch.eye(n, dtype=torch.bool)
        off = x[~eye]  # warning: DYN103
        on = x[eye]  # warning: DYN103
        keep = torch.ones(3, 3, dtype=torch.bool).triu()
        upper = y[..., keep]  # warning: DYN103
        flags = (x[:, 0] * 0).to(torch.bool)
        rows = x[flags]  # warning: DYN103
        some = x.new_ones(n, dtype=bool)
        picked = x[some]  # warning: DYN103
        return off.sum() + on.sum() + upper.sum() + rows.sum() + picked.sum()
