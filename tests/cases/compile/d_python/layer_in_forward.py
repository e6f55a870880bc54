# case: `nn.Linear` built in forward breaks; `nn.ReLU`/`nn.Dropout` do not
# torch: breaks
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        act = nn.ReLU()
        x = act(x)
        drop = nn.Dropout(0.1)
        x = drop(x)
        lin = nn.Linear(3, 3)  # warning: DYN108
        return lin(x)
