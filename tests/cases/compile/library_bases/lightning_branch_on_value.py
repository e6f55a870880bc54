# case: the forward of a LightningModule subclass is compiled like any nn.Module's: a branch on a tensor's value breaks the graph
# torch: breaks
# requires: lightning
import torch
import lightning as L


class Denoiser(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = torch.nn.Linear(3, 3)

    def forward(self, x):
        if x.abs().max() > 1:  # warning: DYN101
            x = x / x.abs().max()
        return self.net(x)
