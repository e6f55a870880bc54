# case: tensors kept in plain module attributes used in tensor ops and by their sizes, or not always tensors: one graph
# torch: accepts
import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self, features=3, shift=None):
        super().__init__()
        self.scale = torch.tensor(2.0)
        self.weights = torch.ones(features)
        self.shift = shift if shift is None else torch.tensor(shift)

    def forward(self, x):
        if self.weights.shape[0] == x.shape[1] and self.shift is None:
            x = x * self.weights
        return torch.where(self.scale > 1, x * self.scale, x)
