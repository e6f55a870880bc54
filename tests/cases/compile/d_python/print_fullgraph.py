# case: `print` under fullgraph: an error
# torch: rejects
# settings: fullgraph=true
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        x = x + 1
        print("shape", x.shape)  # warning: DYN104
        return x * 2
