# case: Dynamo traces `@torch.jit.ignore` bodies: the `print` inside breaks
# torch: breaks
import torch
import torch.nn as nn


class M(nn.Module):
    @torch.jit.ignore
    def report(self, x):
        print("report", x.shape)  # warning: DYN104

    def forward(self, x):
        x = x + 1
        self.report(x)
        return x * 2
