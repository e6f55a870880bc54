# case: a LightningModule subclass that extends Lightning's `__jit_unused_properties__`, and a property of its own that Lightning's list names (torch skips it)
# torch: accepts
import torch
from lightning.pytorch import LightningModule


class Classifier(LightningModule):
    __jit_unused_properties__ = LightningModule.__jit_unused_properties__ + ["classes"]

    def __init__(self):
        super().__init__()
        self.head = torch.nn.Linear(8, 3)

    @property
    def classes(self):
        return ["a", "b", "c"]

    def forward(self, x):
        return self.head(x).softmax(-1)


class Tagger(LightningModule):
    def __init__(self):
        super().__init__()
        self.head = torch.nn.Linear(8, 3)

    @property
    def device(self):
        return next(iter(self.parameters()), torch.empty(0)).device

    def forward(self, x):
        return self.head(x)
