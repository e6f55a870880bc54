# case: an f-string of a tensor that nothing reads as text: no break
# torch: accepts
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        x = x + 1
        msg = f"value {x.sum()} shape {x.shape}"
        self.last = msg
        return x * 2
