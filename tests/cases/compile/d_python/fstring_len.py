# case: an f-string of a tensor is lazy; `len()` of it makes Dynamo give up the function
# torch: breaks
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        x = x + 1
        msg = f"value {x.sum()}"
        return x * len(msg)  # warning: DYN109
