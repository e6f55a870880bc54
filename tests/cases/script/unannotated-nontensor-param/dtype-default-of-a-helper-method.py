# case: a helper method forward calls, whose unannotated parameter defaults to a dtype: torch converts the
#   default to the inferred Tensor type and fails at the `def`
# torch: rejects
# torch-error: Expected a default value of type Tensor (inferred) on parameter "dtype"
import torch
from torch import nn


class Pool(nn.Module):
    def sequence_mask(self, lengths, dtype=torch.bool):  # error: JIT201
        row = torch.arange(0, 5, 1)
        return (row < lengths.unsqueeze(-1)).to(dtype)

    def forward(self, x):
        return self.sequence_mask(x)
