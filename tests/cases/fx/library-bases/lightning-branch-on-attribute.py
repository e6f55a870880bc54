# case: the forward of a LightningModule subclass deciding from a Python attribute and clamping the input: symbolic_trace follows it
# torch: accepts
import torch
import lightning as L


class Denoiser(L.LightningModule):
    def __init__(self, normalise: bool = True):
        super().__init__()
        self.normalise = normalise
        self.net = torch.nn.Linear(3, 3)

    def forward(self, x):
        if self.normalise:
            x = x.clamp(-1, 1)
        return self.net(x)
