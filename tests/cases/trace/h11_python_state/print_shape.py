# case: `print` runs while tracing only
# torch: accepts
# inputs: (torch.randn(8, 3),)
# inputs2: (torch.randn(5, 3),)
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        print("shape", x.shape)  # warning: TRC208
        return x * 2
