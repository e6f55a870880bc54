# case: the forward of a LightningModule subclass without a branch on a tensor's value: one graph
# torch: accepts
# requires: lightning
import torch
import lightning as L


class Denoiser(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = torch.nn.Linear(3, 3)

    def forward(self, x):
        scale = x.abs().max().clamp(min=1)
        return self.net(x / scale)
