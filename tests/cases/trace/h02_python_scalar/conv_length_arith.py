# case: length arithmetic kept in tensor ops
# torch: accepts
# inputs: (torch.tensor([10, 7]),)
# inputs2: (torch.tensor([20, 9, 4]),)
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, lengths):
        return torch.div(lengths - 3, 2, rounding_mode="floor") + 1
