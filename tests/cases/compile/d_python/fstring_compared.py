# case: an f-string of a tensor compared: a break
# torch: breaks
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        x = x + 1
        msg = f"value {x.sum()}"
        if "value" in msg:  # warning: DYN109
            x = x * 2
        return x
