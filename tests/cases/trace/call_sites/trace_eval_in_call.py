# case: the model put in eval mode in the call
# torch: accepts
# inputs: (torch.randn(8, 3),)
# inputs2: (torch.randn(5, 3),)
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
    return torch.jit.trace(model.eval(), (torch.randn(4, 3),), check_inputs=[(torch.randn(6, 3),)])
