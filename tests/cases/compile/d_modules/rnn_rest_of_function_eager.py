# case: after an LSTM submodule is loaded Dynamo cannot resume: the rest of the function runs in Python (no break there), what it calls is compiled on its own
# torch: breaks
# inputs: (torch.randn(2, 5, 3),)
import torch
import torch.nn as nn


def rescale(t):
    if t.sum() > 0:  # warning: DYN101
        return t * 2
    return t


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 3)
        self.lstm = nn.LSTM(3, 3, batch_first=True)
        self.gru = nn.GRU(3, 3, batch_first=True)

    def forward(self, x):
        x = self.fc(x)
        y, _ = self.lstm(x)  # warning: DYN110
        z, _ = self.gru(y)
        steps = int(z.abs().sum().item() > 0)
        return rescale(z) + steps
