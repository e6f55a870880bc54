# case: `nn.LSTMCell` is traced
# torch: accepts
import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.cell = nn.LSTMCell(3, 4)

    def forward(self, x):
        h, c = self.cell(x)
        return h + 1
