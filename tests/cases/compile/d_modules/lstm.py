# case: an `nn.LSTM` submodule: Dynamo gives up the whole function
# torch: breaks
import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(3, 3)
        self.rnn = nn.LSTM(3, 4, batch_first=True)

    def forward(self, x):
        x = self.lin(x)
        y, _ = self.rnn(x.unsqueeze(0))  # warning: DYN110
        return y
