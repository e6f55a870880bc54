# case: a model traced in train mode keeps dropout after `.eval()`
# torch: changes
# inputs: (torch.randn(8, 3),)
# inputs2: (torch.randn(5, 3),)
# trace-mode: train
# run-mode: eval
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.drop = nn.Dropout(0.5)

    def forward(self, x):
        return self.drop(x)


def trace_net():
    model = Net()
    return torch.jit.trace(model, (torch.randn(4, 3),))  # warning: TRC213  # info: TRC302
