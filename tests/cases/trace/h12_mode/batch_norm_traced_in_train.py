# case: a model traced in train mode keeps batch statistics after `.eval()`
# torch: changes
# inputs: (torch.randn(8, 3),)
# inputs2: (torch.randn(5, 3),)
# unmarked-warnings: 18 (batch norm's batch-size check, in train mode only: TRC213 at the trace call)
# trace-mode: train
# run-mode: eval
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.norm = nn.BatchNorm1d(3)

    def forward(self, x):
        return self.norm(x)


def trace_net():
    model = Net()
    traced = torch.jit.trace(model, (torch.randn(4, 3),))  # warning: TRC213  # info: TRC302
    return traced.eval()
