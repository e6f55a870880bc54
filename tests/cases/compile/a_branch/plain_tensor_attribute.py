# case: a tensor kept in a plain module attribute (not a buffer) is a graph input to Dynamo: a decision on its elements breaks
# torch: breaks
import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self, features=3, categorical=(1,)):
        super().__init__()
        self.continuous = torch.ones(features, dtype=torch.bool)
        self.continuous[list(categorical)] = 0
        self.embedding = nn.Embedding(4, 1)

    def forward(self, x):
        cols = []
        for index, is_continuous in enumerate(self.continuous):
            if is_continuous:  # warning: DYN101
                cols.append(x[:, index : index + 1])
            else:
                cols.append(self.embedding(x[:, index].long().clamp(0, 3)))
        return torch.cat(cols, dim=1)
