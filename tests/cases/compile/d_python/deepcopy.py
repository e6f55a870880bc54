# case: `copy.deepcopy` of a submodule breaks; of a dict of numbers it does not
# torch: breaks
import copy
import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(3, 3)
        self.cfg = {"a": [1, 2]}

    def forward(self, x):
        cfg = copy.deepcopy(self.cfg)
        x = x + len(cfg)
        lin = copy.deepcopy(self.lin)  # warning: DYN107
        return lin(x)
