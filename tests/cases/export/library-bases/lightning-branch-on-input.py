# case: the forward of a LightningModule subclass is exported like any nn.Module's: a branch on the input's value
# torch: rejects
# torch-error: data-dependent
import torch
from pytorch_lightning import LightningModule


class Denoiser(LightningModule):
    def __init__(self):
        super().__init__()
        self.net = torch.nn.Linear(3, 3)

    def forward(self, x):
        if x.abs().max() > 1:  # error: EXP101
            x = x / x.abs().max()
        return self.net(x)
