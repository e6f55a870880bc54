# case: an `nn.GRU` under fullgraph: an error
# torch: rejects
# settings: fullgraph=true
import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.GRU(3, 4)

    def forward(self, x):
        y, _ = self.rnn(x.unsqueeze(1))  # warning: DYN110
        return y + 1
