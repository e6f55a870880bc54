# case: the forward of a LightningModule subclass is traced like any nn.Module's: a branch on the input's value
# torch: rejects
# torch-error: symbolically traced variables cannot be used as inputs to control flow
import torch
import lightning as L


class Denoiser(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = torch.nn.Linear(3, 3)

    def forward(self, x):
        if x.abs().max() > 1:  # error: FX201
            x = x / x.abs().max()
        return self.net(x)
