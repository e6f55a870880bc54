# case: a tensor of one number is still a tensor to Dynamo: `float()` of it breaks
# torch: breaks
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        s = float(torch.tensor(8.0).log2().round())  # warning: DYN102
        return x * s
