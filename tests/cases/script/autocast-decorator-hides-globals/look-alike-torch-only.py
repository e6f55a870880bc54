# case: a method under `@torch.cuda.amp.autocast(...)` whose body reads only `torch`, `self` and its parameters: autocast_mode.py imports torch, so the body compiles (without autocast)
# torch: accepts
import torch
import torch.nn as nn


class Scale(nn.Module):
    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(4))

    @torch.cuda.amp.autocast(enabled=False)
    def scaled(self, x):
        return torch.relu(x) * self.weight

    def forward(self, x):
        return self.scaled(x)
