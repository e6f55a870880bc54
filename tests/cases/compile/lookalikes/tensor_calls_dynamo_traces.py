# case: look-alikes of the refused tensor operations that Dynamo traces
# torch: accepts
import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = nn.Parameter(torch.ones(3, requires_grad=True))
        self.register_buffer("offset", torch.zeros(3))

    def forward(self, x):
        a = torch.zeros(4, 3, requires_grad=False)
        noise = torch.randint(0, 10, (4, 3)).float()
        same = x.data_ptr() == x.data_ptr()
        grad = x.requires_grad
        return x * self.scale + self.offset + a + noise, same, grad
